"""Issue 28, point 3: ``croupier match`` (duplicate matches of policies and ACPC programs)
and ``croupier dealer --acpc`` on the command line."""

from __future__ import annotations

import json
import math
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import acpc_client as client
import pytest
from click.testing import CliRunner, Result

from croupier.acpc.match import run_match
from croupier.acpc.protocol import AcpcGame
from croupier.cli.app import cli
from croupier.phh import load, replay

HERE = Path(__file__).resolve().parent
SRC = HERE.parents[1] / "src"
PROGRAM = f"{sys.executable} {HERE / 'acpc_client.py'}"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def one_error_line(result: Result) -> str:
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("croupier: error: "), lines[0]
    return lines[0]


def test_a_match_reports_a_finite_mean_and_interval() -> None:
    summary = run_match("hand-strength", "calling", hands=60, seed=4)
    assert summary.hands == 60
    assert summary.deals == 30
    assert math.isfinite(summary.mbb_per_hand)
    assert summary.half_width is not None
    assert math.isfinite(summary.half_width)
    assert summary.chips[0] + summary.chips[1] == 0
    low, high = summary.interval or (0.0, 0.0)
    assert low <= summary.mbb_per_hand <= high


@pytest.mark.parametrize("bot", ["hand-strength", "calling", "random"])
def test_a_bot_against_itself_in_duplicate_is_exactly_even(bot: str) -> None:
    # each deal is played twice with the seats swapped, and a policy's random source is
    # seeded by the deal and its position: the two plays mirror each other chip for chip
    summary = run_match(bot, bot, hands=40, seed=9)
    assert summary.mbb_per_hand == 0.0
    assert summary.chips == (0, 0)
    assert summary.half_width == 0.0


def test_the_same_seed_gives_the_same_match() -> None:
    one = run_match("random", "hand-strength", hands=20, seed=5)
    two = run_match("random", "hand-strength", hands=20, seed=5)
    assert one == two


def test_an_acpc_program_plays_a_policy_and_the_logs_replay(tmp_path: Path) -> None:
    result = invoke(
        "match", f"{PROGRAM} --raise", "hand-strength", "--hands", "16", "--seed", "3",
        "--action-time", "5", "--log-phh", str(tmp_path / "m.phhs"),
        "--log-acpc", str(tmp_path / "m.log"), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] == 16
    assert sum(data["chips"]) == 0
    assert math.isfinite(data["mbb_per_hand"])
    assert len(data["ci95"]) == 2
    assert data["faults"][0] == {
        "timeout": 0,
        "garbage": 0,
        "disconnected": 0,
        "refused": 0,
        "error": 0,
    }
    histories = load(tmp_path / "m.phhs")
    assert len(histories) == 16
    assert all(replay(h).matches_recorded for h in histories)
    log = (tmp_path / "m.log").read_text().splitlines()
    assert log[-1].startswith("SCORE:")
    assert sum(1 for x in log if x.startswith("STATE:")) == 16


def test_two_acpc_programs_play_each_other_as_text() -> None:
    result = invoke("match", PROGRAM, f"{PROGRAM} --raise", "--hands", "6", "--game", "limit",
                    "--seed", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "mbb/hand (95 %)" in result.stdout
    assert "chips:" in result.stdout


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["match", "calling", "random", "--hands", "3"], 2, "3 is odd"),
        (["match", "calling", "random", "--hands", "0"], 2, "--hands"),
        (["match", "calling"], 2, "Missing argument 'B'"),
        (["match", "calling", "no_such_module:bot", "--hands", "2"], 1, "no module named"),
        (["match", "calling", "croupier.poker:nothing", "--hands", "2"], 1, "no callable"),
        (["match", "calling", "/no/such/program", "--hands", "2"], 1, "cannot start"),
        (["match", "calling", "random", "--game", "pot"], 2, "--game"),
        (["dealer", "--hands", "2"], 2, "pass --acpc"),
        (["dealer", "--acpc", "--ports", "1,2,3"], 2, "two port numbers"),
        (["dealer", "--acpc", "--names", "a|b,c"], 2, "two names"),
        (["dealer", "--acpc", "--action-time", "0"], 2, "--action-time"),
        (["dealer", "--acpc", "--duplicate", "--hands", "3"], 2, "3 is odd"),
        (["match", "hand_strength", "calling", "--hands", "2"], 1, "'hand-strength'?"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(args: list[str], code: int, words: str) -> None:
    result = invoke(*args)
    assert result.exit_code == code
    assert words in one_error_line(result)


def test_the_dealer_command_serves_two_clients(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    game_file = tmp_path / "game.def"
    with subprocess.Popen(
        [sys.executable, "-m", "croupier", "dealer", "--acpc", "--hands", "6", "--seed", "2",
         "--names", "alice,bob", "--log-acpc", str(tmp_path / "d.log"),
         "--log-phh", str(tmp_path / "d.phhs"), "--game-file", str(game_file),
         "--action-time", "5"],
        stdout=subprocess.PIPE, text=True, env=env,
    ) as dealer:  # fmt: skip
        assert dealer.stdout is not None
        ports = [int(p) for p in dealer.stdout.readline().split()]
        threads = [
            threading.Thread(target=client.play, args=(port, client.echo("c")), daemon=True)
            for port in ports
        ]
        for thread in threads:
            thread.start()
        out, _ = dealer.communicate(timeout=30)
        for thread in threads:
            thread.join(10)
    assert dealer.returncode == 0
    score = out.strip().splitlines()[-1]
    assert score.startswith("SCORE:")
    assert score.endswith(":alice|bob")
    a, b = (int(x) for x in score.split(":")[1].split("|"))
    assert a + b == 0
    assert game_file.read_text() == AcpcGame.nolimit().definition() + "\n"
    assert all(replay(h).matches_recorded for h in load(tmp_path / "d.phhs"))
    assert (tmp_path / "d.log").read_text().splitlines()[-1] == score


def test_a_program_that_exits_at_once_is_reported_at_once() -> None:
    started = time.monotonic()
    result = invoke("match", f"{sys.executable} -c 'raise SystemExit(3)'", "calling",
                    "--hands", "2", "--connect-time", "60")  # fmt: skip
    assert result.exit_code == 1
    assert "exited with code 3" in one_error_line(result)
    assert time.monotonic() - started < 30


def test_a_mistyped_built_in_bot_is_named_in_the_error() -> None:
    line = one_error_line(invoke("match", "calling", "hand_strength", "--hands", "2"))
    assert "cannot start" in line
    assert "did you mean the built-in bot 'hand-strength'?" in line


def test_a_policy_that_raises_is_reported_as_an_error() -> None:
    result = invoke("match", "acpc_client:broken_policy", "calling", "--hands", "4",
                    "--seed", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "default actions for acpc_client:broken_policy: " in result.stdout
    assert " error" in result.stdout.splitlines()[-1]
    again = invoke("match", "acpc_client:broken_policy", "calling", "--hands", "4", "--seed", "1",
                   "--json")  # fmt: skip
    data = json.loads(again.stdout)
    assert data["faults"][0]["error"] > 0
    assert data["faults"][1]["error"] == 0


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [int(s.getsockname()[1]) for s in sockets]
    finally:
        for s in sockets:
            s.close()


def patient_client(port: int) -> None:
    """An echo("c") client that retries until the dealer listens."""
    seen: list[str] = []
    deadline = time.monotonic() + 20
    while not seen and time.monotonic() < deadline:
        client.play(port, client.echo("c"), seen=seen)
        if not seen:
            time.sleep(0.05)


@pytest.mark.parametrize("seed", [None, 5])
def test_the_dealer_reports_the_random_seed_it_chose(seed: int | None) -> None:
    ports = free_ports(2)
    threads = [threading.Thread(target=patient_client, args=(p,), daemon=True) for p in ports]
    for thread in threads:
        thread.start()
    args = ["dealer", "--acpc", "--hands", "2", "--ports", f"{ports[0]},{ports[1]}"]
    if seed is not None:
        args += ["--seed", str(seed)]
    result = invoke(*args)
    for thread in threads:
        thread.join(10)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].startswith("SCORE:")
    reported = [line for line in result.stderr.splitlines() if line.startswith("seed ")]
    if seed is None:
        assert len(reported) == 1
        assert reported[0].split()[1].isdigit()
    else:
        assert reported == []
