"""``croupier play``: --auto, no terminal, bad options, and the real command in a pseudo-terminal."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.cli.app import cli

CROUPIER = [sys.executable, "-m", "croupier"]


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["play", *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(
    "args",
    [
        ("holdem", "--seats", "3"),
        ("omaha", "--structure", "pot-limit", "--seats", "4", "--bot-style", "random"),
        ("stud7", "--structure", "fixed-limit", "--seats", "3"),
        ("draw", "--seats", "3", "--blinds", "5/10", "--bot-style", "calling"),
        ("manila", "--structure", "half-pot", "--seats", "3"),
        ("blackjack", "--bots", "3", "--h17"),
    ],
)
def test_auto_plays_and_prints_the_log(args: tuple[str, ...]) -> None:
    code, out = _run(*args, "--auto", "--hands", "3", "--seed", "5")
    assert code == 0, out
    assert "commitment sha256" in out
    assert out.rstrip().endswith("session over: the session ends")
    over = [line for line in out.splitlines() if " over: " in line and line[0] in "hr"]
    assert len(over) == 3


def test_a_seed_replays_the_session() -> None:
    first = _run("holdem", "--auto", "--hands", "5", "--seed", "9", "--seats", "4")
    again = _run("holdem", "--auto", "--hands", "5", "--seed", "9", "--seats", "4")
    assert first == again
    assert first[0] == 0


def test_auto_records_to_the_store(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'play.sqlite3'}"
    code, out = _run("holdem", "--auto", "--hands", "3", "--seed", "2", "--seats", "3", "--db", db)
    assert code == 0, out
    from croupier.store import Store

    store = Store.open(db)
    assert [h.number for h in store.hands()] == [1, 2, 3]
    assert store.verify().ok
    code, out = _run("blackjack", "--auto", "--hands", "2", "--seed", "2", "--db", db)
    assert code == 0, out
    assert store.verify().ok


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("holdem",), "needs a terminal"),
        (("holdem", "--auto", "--decks", "4"), "--decks does not apply to holdem"),
        (("blackjack", "--auto", "--seats", "4"), "--seats does not apply to blackjack"),
        (("holdem", "--auto", "--blinds", "five"), "write the blinds as whole chips"),
        (("stud5", "--auto", "--blinds", "5/10"), "has no blinds"),
        (("holdem", "--auto", "--bot-style", "gut"), "holdem bots are random, calling, default"),
        (("holdem", "--auto", "--seats", "3", "--bots", "5"), "do not fit"),
        (("holdem", "--auto", "--table-minimum", "50"), "below the table minimum"),
        (("blackjack", "--auto", "--decks", "2"), "4 to 8 decks"),
        (("blackjack", "--auto", "--wager", "5"), "outside the table limits"),
        (("poker",), "'poker' is not one of"),
    ],
)
def test_bad_input_is_one_line(args: tuple[str, ...], message: str) -> None:
    code, out = _run(*args)
    assert code != 0
    assert message in out, out
    assert len(out.strip().splitlines()) == 1
    assert "Traceback" not in out


def _read(fd: int, until: bytes, seconds: float) -> bytes:
    seen = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end and until not in seen:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    return seen


def test_the_real_command_in_a_pseudo_terminal() -> None:
    main, child = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    proc = subprocess.Popen(
        [*CROUPIER, "play", "holdem", "--seats", "2", "--bot-style", "calling", "--seed", "7",
         "--hands", "1"],
        stdin=child, stdout=child, stderr=child, env=env, start_new_session=True,
    )  # fmt: skip
    os.close(child)
    try:
        screen = _read(main, b"your turn", 60)
        assert b"your turn" in screen, screen[-2000:]
        os.write(main, b"f")  # fold the hand
        screen = _read(main, b"hand over", 20)
        assert b"hand over" in screen
        os.write(main, b" ")  # one hand asked for: the session ends
        _read(main, b"session is over", 20)
        os.write(main, b"q")
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(main)
