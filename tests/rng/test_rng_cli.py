"""Issue 29, point 6 on the command line: ``croupier rng export`` and ``croupier rng test``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from rng_helpers import ansi_c_low_bytes

from croupier.cards.deck import Deck
from croupier.cards.rng import ByteStreamRandom, iter_bytes
from croupier.cli.app import cli
from croupier.rngtest.export import positions_of

BIN = Path(sys.executable).parent


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, ["rng", *args])


def one_error_line(result: Result) -> str:
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("croupier: error: "), lines[0]
    return lines[0]


def _refuse(name: str) -> Any:
    raise AssertionError(f"not strict JSON: {name}")


# --- export ------------------------------------------------------------------------------------


@pytest.mark.parametrize("form", [["--raw"], ["--format", "raw"]])
def test_a_raw_export_writes_exactly_the_bytes_asked_for(tmp_path: Path, form: list[str]) -> None:
    target = tmp_path / "raw.bin"
    result = invoke("export", *form, str(target), "--bytes", "100001")
    assert result.exit_code == 0, result.output
    assert target.stat().st_size == 100_001
    assert "100,001 raw bytes" in result.stdout


def test_positions_and_raw_from_the_same_shuffles_replay_through_a_real_deck(
    tmp_path: Path,
) -> None:
    """The OS bytes the export recorded, fed back to the live deck, deal the very positions
    it wrote, and use the whole file: the raw file is what those shuffles consumed."""
    raw, text = tmp_path / "raw.bin", tmp_path / "positions.txt"
    result = invoke(
        "export", "--shuffles", "500", "--format", "positions", str(text), "--raw", str(raw),
        "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout, parse_constant=_refuse)
    assert summary["shuffles"] == summary["lines_written"] == 500
    assert summary["bytes_read"] == summary["bytes_written"] == raw.stat().st_size
    lines = text.read_text(encoding="ascii").splitlines()
    assert len(lines) == 500
    source = iter_bytes(raw.read_bytes())
    replay = ByteStreamRandom(source)
    for line in lines:
        deck = Deck.standard(rng=replay)
        assert positions_of([c.index for c in deck.remaining]) == [int(w) for w in line.split()]
    assert source(1) == b""


def test_positions_lines_are_permutations_of_the_deck(tmp_path: Path) -> None:
    target = tmp_path / "p.txt"
    assert invoke("export", "--shuffles", "50", "--cards", "32", str(target)).exit_code == 0
    rows = [[int(w) for w in line.split()] for line in target.read_text().splitlines()]
    assert len(rows) == 50
    assert all(sorted(row) == list(range(32)) for row in rows)


def test_an_endless_raw_export_to_a_pipe_stops_quietly_when_the_reader_does() -> None:
    proc = subprocess.Popen(
        [str(BIN / "croupier"), "rng", "export", "--raw", "-"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    data = proc.stdout.read(200_000)
    proc.stdout.close()
    assert proc.wait(timeout=60) == 0
    assert len(data) == 200_000
    assert proc.stderr.read() == b""


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["export"], "give a file"),
        (["export", "--raw", "a", "--format", "raw", "b"], "give the raw file once"),
        (["export", "--format", "positions", "--shuffles", "2"], "give FILE too"),
        (["export", "p.txt"], "needs --shuffles"),
        (["export", "p.txt", "--shuffles", "2", "--bytes", "9"], "--bytes goes with a raw"),
        (["export", "--raw", "r", "--bytes", "9", "--shuffles", "2"], "not both"),
        (["export", "--raw", "r"], "say how much"),
        (["export", "--raw", "-", "-", "--shuffles", "2"], "only one export"),
        (["export", "--raw", "-", "--bytes", "9", "--json"], "--json prints"),
        (["export", "--raw", "same", "same", "--shuffles", "2"], "two files"),
        (["export", "--raw", "r", "--bytes", "0"], "--bytes"),
        (["export", "--raw", "r", "--bytes", "9", "--cards", "1"], "--cards"),
        (["test", "--shuffles", "13259"], "at least 13,260 shuffles"),
        (["test", "--cards", "417"], "--cards"),
        (["test", "--from", "/no/such/file"], "does not exist"),
    ],
)
def test_usage_errors_are_one_line_with_exit_2(
    args: list[str], needle: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert needle in one_error_line(result)
    assert not any(tmp_path.iterdir())  # nothing written


def test_an_unwritable_file_is_a_one_line_error(tmp_path: Path) -> None:
    result = invoke("export", "--raw", str(tmp_path / "no" / "such" / "dir"), "--bytes", "9")
    assert result.exit_code == 1
    assert "No such file or directory" in one_error_line(result)


# --- test ---------------------------------------------------------------------------------------


def test_the_os_generator_report_is_strict_json_and_its_exit_code_its_verdict() -> None:
    result = invoke("test", "--shuffles", "20000", "--json")
    report = json.loads(result.stdout, parse_constant=_refuse)
    assert report["source"] == "os.urandom"
    assert report["shuffles"] == 20_000
    assert [t["name"] for t in report["tests"]] == [
        "positions", "worst-card", "adjacent-pairs", "runs", "serial-correlation",
    ]  # fmt: skip
    assert all(t["passed"] == (t["p_value"] >= 0.01) for t in report["tests"])
    assert result.exit_code == (0 if report["passed"] else 1)
    if not report["passed"]:  # a sound generator's 5 %: still one line, and no traceback
        assert "run again" in one_error_line(result)


def test_the_human_report_names_each_test_and_its_p_value() -> None:
    result = invoke("test", "--shuffles", "20000", "--cards", "32")
    assert result.stdout.startswith("20,000 shuffles of 32 cards from os.urandom")
    for name in ("positions", "worst-card", "adjacent-pairs", "runs", "serial-correlation"):
        assert name in result.stdout
    assert result.exit_code in (0, 1)


def test_a_weak_stream_from_a_file_fails_with_exit_1(tmp_path: Path) -> None:
    weak = tmp_path / "lcg.bin"
    weak.write_bytes(ansi_c_low_bytes(1)(1_500_000))
    result = invoke("test", "--from", str(weak))
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "5 of 5 tests failed at the 99 % level: positions (p = 0.0e+00)" in line
    assert "run again" not in line  # a file's bytes do not change on a second run
    assert f"shuffles of 52 cards from {weak}" in result.stdout
    assert result.stdout.count("FAIL") == 5


def test_a_file_too_short_for_the_tests_is_a_one_line_error(tmp_path: Path) -> None:
    short = tmp_path / "short.bin"
    short.write_bytes(random.Random(1).randbytes(50_000))
    result = invoke("test", "--from", str(short))
    assert result.exit_code == 1
    assert "held bytes for" in one_error_line(result)


def test_an_export_tested_from_its_file_passes_on_the_same_shuffles(tmp_path: Path) -> None:
    """The lab's loop: export raw bytes, then test the shuffles those very bytes make."""
    raw = tmp_path / "raw.bin"
    raw.write_bytes(random.Random(11).randbytes(1_500_000))  # reproducible: cannot fail
    result = invoke("test", "--from", str(raw), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout, parse_constant=_refuse)
    assert report["passed"]
    assert report["shuffles"] > 20_000
    assert 1_500_000 - report["bytes_used"] < 200
