"""Issue 10, points 11-13 on the command line: one-line errors and their exit codes (2 usage,
1 refused input), strict JSON, output paths checked before the work, refused seeds and
conflicting options, and the poker simulator's seed that gives one result with any workers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from croupier.cli.app import cli, main

SRC = Path(__file__).resolve().parents[2] / "src"


def invoke(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def one_error_line(result: Result) -> str:
    """The only stderr line of a failed command: ``croupier: error: …``, no traceback."""
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("croupier: error: "), lines[0]
    return lines[0]


def _refuse(name: str) -> Any:
    raise AssertionError(f"not strict JSON: {name}")


def strict(text: str) -> Any:
    """Parse JSON the strict way: NaN, Infinity and -Infinity are refused."""
    return json.loads(text, parse_constant=_refuse)


# --- point 13: usage errors are one line, exit 2; refused input one line, exit 1 ------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["eval"], "Missing argument 'CARDS...'"),
        (["eval", "As", "--bogus"], "No such option '--bogus'"),
        (["no-such-command"], "No such command 'no-such-command'"),
        (["eval", "As Ks", "--game", "chess"], "'chess' is not one of"),
        (["poker", "simulate", "--hands", "0"], "--hands"),
        (["rules", "--status", "done"], "'done' is not one of"),
    ],
)
def test_usage_errors_are_one_line_with_exit_2(args: list[str], needle: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    line = one_error_line(result)
    assert needle in line
    if args[0] != "rules":  # rules words its own usage errors, without the hint
        assert f"(see 'croupier {args[0]}" in line or "(see 'croupier --help')" in line
    assert "Usage:" not in result.output


def test_a_croupier_error_is_one_line_with_exit_1() -> None:
    result = invoke("eval", "As", "Ks")
    assert result.exit_code == 1
    assert "5 to 7 cards" in one_error_line(result)


def test_main_returns_the_same_exit_codes() -> None:
    assert main(["eval", "As", "Ks", "Qs", "Js", "Ts"]) == 0
    assert main(["eval", "As", "Ks"]) == 1
    assert main(["eval"]) == 2
    assert main(["--help"]) == 0


def test_a_real_process_prints_one_line_and_no_traceback() -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, "-m", "croupier", "equity", "AsKs", "QdQh", "--samples", "5",
         "--seed", "-1"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("croupier: error: ")


# --- point 11: --seed -1 is refused ---------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["equity", "AsKs", "QdQh", "--samples", "100", "--seed", "-1"],
        ["blackjack", "simulate", "--rounds", "10", "--seed", "-1"],
        ["poker", "simulate", "--hands", "10", "--seed", "-1"],
        ["equity", "AsKs", "QdQh", "--samples", "100", "--seed", "x"],
    ],
)
def test_a_negative_or_bad_seed_is_refused(args: list[str]) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert "--seed" in one_error_line(result)


# --- point 13: conflicting options are refused ----------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["equity", "AsKs", "QdQh", "--samples", "100", "--exact"], "--exact and --samples"),
        (["equity", "AsKs", "QdQh", "--seed", "3"], "--seed needs --samples"),
        (["blackjack", "simulate", "--rounds", "10", "--insure", "--no-insurance"],
         "--insure and --no-insurance"),
        (["blackjack", "house-edge", "--penetration", "1/2"], "--penetration only applies"),
        (["eval", "-", "--board", "2c 3d 4h"], "--board is set too"),
    ],
)  # fmt: skip
def test_conflicting_options_are_refused(args: list[str], needle: str) -> None:
    result = invoke(*args, stdin="As Ks | Qh Jh Th\n")
    assert result.exit_code in (1, 2)
    assert needle in one_error_line(result)
    assert result.stdout == ""


def test_equity_exact_alone_still_works() -> None:
    result = invoke("equity", "AsKs", "QdQh", "--board", "2c 7d 9h Jc", "--exact", "--json")
    assert result.exit_code == 0
    assert strict(result.stdout)["exact"] is True


# --- point 12: strict JSON, null where a figure is undefined --------------------------------


def test_poker_simulate_one_hand_is_strict_json() -> None:
    result = invoke("poker", "simulate", "--hands", "1", "--seed", "1", "--json")
    assert result.exit_code == 0
    data = strict(result.stdout)
    assert [seat["stderr"] for seat in data["seats"]] == [None] * 6
    assert sum(seat["total"] for seat in data["seats"]) == 0


def test_equity_one_sample_is_strict_json() -> None:
    result = invoke("equity", "AsKs", "QdQh", "--samples", "1", "--seed", "2", "--json")
    assert result.exit_code == 0
    data = strict(result.stdout)
    assert [h["stderr"] for h in data["hands"]] == [None, None]
    assert sum(h["equity"] for h in data["hands"]) == 1
    human = invoke("equity", "AsKs", "QdQh", "--samples", "1", "--seed", "2")
    assert "n/a" in human.stdout
    assert "nan" not in human.stdout


def test_blackjack_simulate_one_round_is_strict_json() -> None:
    result = invoke("blackjack", "simulate", "--rounds", "1", "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    data = strict(result.stdout)
    assert data["rounds"] == 1
    assert data["se"] is None
    assert data["z"] is None


def test_every_json_output_of_a_quick_command_is_strict(tmp_path: Path) -> None:
    phh = tmp_path / "h.phh"
    phh.write_text(
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [200, 200]\nactions = ['p2 f']\n"
    )
    commands = [
        ["eval", "As", "Kd", "--board", "Ah Kc 2s 7d 9h", "--json"],
        ["equity", "AsKs", "QdQh", "--board", "2c 7d 9h Jc", "--json"],
        ["replay", str(phh), "--json"],
        ["rules", "--games", "--json"],
        ["blackjack", "dealer", "--upcard", "A", "--json"],
        ["poker", "simulate", "--hands", "3", "--seed", "1", "--engine", "referee", "--json"],
    ]
    for args in commands:
        result = invoke(*args)
        assert result.exit_code == 0, (args, result.output)
        try:
            strict(result.stdout)
        except json.JSONDecodeError:
            for line in result.stdout.splitlines():
                strict(line)


# --- point 12: picture paths are checked before the work ------------------------------------


@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("no/such/folder/ev.png", "does not exist"),
        ("ev.gif", "ending in .png"),
        (".", "ending in .png"),
    ],
)
def test_a_bad_plot_path_fails_before_a_long_run(tmp_path: Path, name: str, needle: str) -> None:
    path = str(tmp_path / name) if name != "." else str(tmp_path)
    started = time.perf_counter()
    # a billion rounds would take minutes: the refusal must come first
    result = invoke("blackjack", "simulate", "--rounds", "1000000000", "--plot", path)
    assert time.perf_counter() - started < 60
    assert result.exit_code == 2
    line = one_error_line(result)
    assert "--plot" in line
    assert needle in line


def test_a_bad_chart_path_fails_before_the_analysis(tmp_path: Path) -> None:
    result = invoke("blackjack", "strategy", "--chart", str(tmp_path / "none" / "c.png"))
    assert result.exit_code == 2
    assert "--chart" in one_error_line(result)
    assert result.stdout == ""


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_folder_is_refused(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        result = invoke("blackjack", "strategy", "--chart", str(locked / "c.png"))
    finally:
        locked.chmod(0o700)
    assert result.exit_code == 2
    assert "not writable" in one_error_line(result)


def test_missing_matplotlib_is_refused_before_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    result = invoke(
        "blackjack", "simulate", "--rounds", "1000000000", "--plot", str(tmp_path / "ev.png")
    )
    assert result.exit_code == 2
    assert "pip install 'croupier[plot]'" in one_error_line(result)


# --- point 13: the fast engine in every worker, one result for a seed -----------------------


def _simulate(*extra: str) -> dict[str, Any]:
    result = invoke("poker", "simulate", "--players", "3", "--json", *extra)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = strict(result.stdout)
    return data


def test_a_seed_gives_one_result_with_any_number_of_workers() -> None:
    # more than one 50,000-hand task, so two workers really share the run
    one = _simulate("--hands", "100001", "--seed", "7", "--workers", "1")
    two = _simulate("--hands", "100001", "--seed", "7", "--workers", "2")
    three = _simulate("--hands", "100001", "--seed", "7", "--workers", "3")
    assert one["engine"] == two["engine"] == three["engine"] == "fast"
    assert one["seats"] == two["seats"] == three["seats"]
    assert sum(seat["total"] for seat in one["seats"]) == 0
    other = _simulate("--hands", "100001", "--seed", "8", "--workers", "2")
    assert other["seats"] != one["seats"]


def test_the_fast_engine_with_workers_is_as_fast_as_the_kernel() -> None:
    started = time.perf_counter()
    data = _simulate("--hands", "200000", "--seed", "3", "--workers", "2")
    took = time.perf_counter() - started
    assert data["engine"] == "fast"
    # the referee plays ~2,500 hands/s: 200,000 hands would take over a minute
    assert took < 40


def test_the_referee_with_workers_gives_one_result_too() -> None:
    args = ("--hands", "600", "--seed", "5", "--policy", "hand-strength")
    one = _simulate(*args, "--workers", "1")
    two = _simulate(*args, "--workers", "2")
    assert one["engine"] == two["engine"] == "referee"
    assert one["seats"] == two["seats"]


def test_unseeded_fast_runs_are_random() -> None:
    runs = [_simulate("--hands", "2000")["seats"] for _ in range(2)]
    assert runs[0] != runs[1]  # an unseeded run used to be seed 0 every time


# --- stdin that is not text ----------------------------------------------------------------


def test_eval_stdin_that_is_not_text_is_one_error() -> None:
    result = CliRunner().invoke(cli, ["eval", "-"], input=b"\xff\xfe\x00A\x00s")
    assert result.exit_code == 1
    assert "not UTF-8 text" in one_error_line(result)


def test_eval_stdin_lines_take_cards_then_an_optional_board() -> None:
    result = invoke("eval", "-", "--json", stdin="As Ks Qs Js Ts\nAh Kh | Qh Jh Th 2c 3c\n")
    assert result.exit_code == 0
    records = [strict(line) for line in result.stdout.splitlines()]
    assert [r["description"] for r in records] == ["Royal flush", "Royal flush"]
    assert records[1]["board"] == "Qh Jh Th 2c 3c"
