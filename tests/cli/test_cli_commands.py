"""The command line: eval, equity, demo; JSON output, stdin mode, and one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.cli.app import cli, main

SRC = Path(__file__).resolve().parents[2] / "src"


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``python -m croupier`` in a fresh process, as a user would."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "croupier", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def test_eval_json_has_the_documented_fields() -> None:
    out = CliRunner().invoke(cli, ["eval", "As", "Kd", "--board", "Ah Kc 2s 7d 9h", "--json"])
    assert out.exit_code == 0
    record = json.loads(out.output)
    assert record["category"] == "two_pair"
    assert record["description"] == "Two pair, aces and kings"
    assert record["best_five"] == ["As", "Ah", "Kd", "Kc", "9h"]
    assert isinstance(record["rank"], int)


def test_eval_ranks_compare_like_hands() -> None:
    runner = CliRunner()
    flush = json.loads(runner.invoke(cli, ["eval", "Ah 9h 7h 4h 2h", "--json"]).output)
    boat = json.loads(runner.invoke(cli, ["eval", "7c 7d 7h 2s 2c", "--json"]).output)
    assert boat["rank"] > flush["rank"]
    assert flush["description"] == "Flush, ace high"


@pytest.mark.rule("Omaha 17.5(d)")
def test_eval_omaha_uses_exactly_two_hole_cards() -> None:
    out = CliRunner().invoke(
        cli, ["eval", "As Ah Ks Qs", "--game", "omaha", "--board", "Js Ts 2s 3d 4c", "--json"]
    )
    record = json.loads(out.output)
    assert record["description"] == "Flush, ace high"
    assert record["best_five"] == ["As", "Ks", "Js", "Ts", "2s"]


def test_eval_manila_uses_the_stripped_ranking() -> None:
    out = CliRunner().invoke(
        cli, ["eval", "Ah 7d", "--game", "manila", "--board", "8c 9s Th Kd Kc", "--json"]
    )
    record = json.loads(out.output)
    assert record["ranking"] == "stripped"
    assert record["description"] == "Straight, ten high"


def test_eval_reads_one_hand_per_line_from_stdin() -> None:
    lines = "As Ks Qs Js Ts\n2c 3d 4h 5s 7c\n\n# comment\nAh Kh | Qh Jh Th 2c 3c\n"
    out = CliRunner().invoke(cli, ["eval", "-", "--json"], input=lines)
    assert out.exit_code == 0
    records = [json.loads(line) for line in out.output.splitlines()]
    assert [r["description"] for r in records] == ["Royal flush", "High card, seven", "Royal flush"]
    assert records[2]["board"] == "Qh Jh Th 2c 3c"


def test_eval_stdin_reports_bad_lines_and_exits_non_zero() -> None:
    proc = run_cli("eval", "-", stdin="As Ks Qs Js Ts\nAs Kx Qs Js Ts\n")
    assert proc.returncode == 1
    assert proc.stdout.startswith("Royal flush")
    assert "line 2" in proc.stderr
    assert "Kx" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["eval", "As", "1x", "Qs", "Js", "Ts"], "'1x'"),
        (["eval", "As", "Ks"], "5 to 7 cards"),
        (["eval", "As Ks Qs Js Ts", "--game", "stud", "--board", "2c"], "no community cards"),
        (["equity", "As Ks", "As Qh"], "appears twice"),
        (["equity", "As Ks Qd", "Qh Jh"], "2 hole cards"),
        (["equity", "As Ks", "Qd Qh", "--board", "2c 3c 4c 5c 6c 7c"], "at most 5"),
    ],
)
def test_bad_input_gives_one_line_error_and_non_zero_exit(args: list[str], needle: str) -> None:
    proc = run_cli(*args)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1
    assert needle in lines[0]


def test_equity_json_gives_win_tie_and_equity_for_each_hand() -> None:
    out = CliRunner().invoke(cli, ["equity", "As Ks", "Qd Qh", "--json"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    aks = data["hands"][0]
    assert data["exact"] is True
    assert data["trials"] == 1_712_304
    assert round(aks["win"] * 100, 3) == 46.018
    assert round(aks["tie"] * 100, 3) == 0.393
    assert round(aks["equity"] * 100, 4) == 46.2145


def test_equity_samples_report_a_standard_error() -> None:
    out = CliRunner().invoke(
        cli, ["equity", "AsKs", "QdQh", "--samples", "20000", "--seed", "3", "--json"]
    )
    data = json.loads(out.output)
    assert data["exact"] is False
    assert data["trials"] == 20_000
    assert all(0 < h["stderr"] < 0.01 for h in data["hands"])


def test_equity_human_output_names_each_hand() -> None:
    out = CliRunner().invoke(cli, ["equity", "As Ks", "Qd Qh", "--board", "Qs Js 2c"])
    assert out.exit_code == 0
    assert "As Ks" in out.output
    assert "Qd Qh" in out.output
    assert "equity" in out.output


def test_demo_prints_the_reference_equity() -> None:
    out = CliRunner().invoke(cli, ["demo"])
    assert out.exit_code == 0
    assert "46.2145%" in out.output
    assert "Royal flush" not in out.output


def test_main_returns_exit_codes() -> None:
    assert main(["eval", "As", "Ks", "Qs", "Js", "Ts"]) == 0
    assert main(["eval", "As", "Ks"]) == 1  # refused input (a CroupierError)
    assert main(["no-such-command"]) == 2  # a usage error
