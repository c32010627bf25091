"""Nothing is lost: real processes recording hands are killed with SIGKILL at random moments,
and the store keeps only complete hands, verifies, and its ledger balances.

Most kills hit workers forked from a warmed-up "zygote" process (fresh real processes, no
interpreter start-up each time); a few hit processes started from scratch, store opening
included. SQLite gets the long run; PostgreSQL a shorter one.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from croupier.store import Store
from croupier.store.schema import HandRow, SessionRow

SRC = Path(__file__).resolve().parents[2] / "src"
WORKER = Path(__file__).with_name("crash_worker.py")
ENV = {**os.environ, "PYTHONPATH": str(SRC)}


def _ready(stream: object, expected: str) -> str:
    line = stream.readline()  # type: ignore[attr-defined]
    assert line.startswith(expected), f"worker said {line!r}"
    return str(line)


def _gone(pid: int) -> None:
    """Wait until a killed process no longer exists."""
    for _ in range(500):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        try:  # a zombie still answers kill(pid, 0): look at its state
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().split(")")[-1].split()[0] == "Z":
                    return
        except OSError:
            return
        time.sleep(0.002)


def kill_forked(
    url: str, kills: int, rng: random.Random, longest: float, trace: Path | None = None
) -> None:
    env = dict(ENV)
    if trace is not None:  # count the kills inside a transaction, and make them many
        env.update(CROUPIER_CRASH_TRACE=str(trace), CROUPIER_CRASH_SLOW="1")
    zygote = subprocess.Popen(
        [sys.executable, str(WORKER), "--zygote", url],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert zygote.stdin is not None
    assert zygote.stdout is not None
    try:
        _ready(zygote.stdout, "zygote ready")
        for _ in range(kills):
            zygote.stdin.write("go\n")
            zygote.stdin.flush()
            pid = int(_ready(zygote.stdout, "ready").split()[1])
            time.sleep(rng.uniform(0.0, longest))
            os.kill(pid, signal.SIGKILL)
            _gone(pid)
    finally:
        zygote.stdin.close()
        zygote.wait(timeout=30)


def kill_started(url: str, kills: int, rng: random.Random) -> None:
    for _ in range(kills):
        worker = subprocess.Popen([sys.executable, str(WORKER), url], stdout=subprocess.PIPE,
                                  text=True, env=ENV)  # fmt: skip
        assert worker.stdout is not None
        _ready(worker.stdout, "ready")
        time.sleep(rng.uniform(0.0, 0.3))
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=30)
        worker.stdout.close()


def killed_mid_transaction(trace: Path) -> int:
    """Workers whose last write transaction began and never committed."""
    return sum(1 for f in trace.glob("*.trace") if f.read_bytes().endswith(b"b"))


def check_after_kills(url: str, min_hands: int, min_unfinished: int, min_ended: int = 0) -> None:
    with Store.open(url) as store:
        report = store.verify()
        assert report.ok, [p.describe() for p in report.problems][:10]
        hands = store.count(HandRow)
        sessions = store.sessions()
    chips = report.chips
    assert chips["bought_in"] - chips["cashed_out"] - chips["house"] == chips["on_table"]
    assert hands >= min_hands, hands
    unfinished = [s for s in sessions if s.ended_at is None]
    assert len(unfinished) >= min_unfinished  # the kills interrupted sessions, mid-play
    assert sum(1 for s in sessions if s.ended_at is not None) >= min_ended  # cashed out whole
    assert report.sessions == len(sessions)
    assert report.hands == hands


def test_sigkill_at_random_moments_loses_nothing_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    rng = random.Random(20260520)
    started = time.monotonic()
    kill_started(url, 4, rng)  # from scratch: killed while opening the store, too
    kill_forked(url, 30, rng, longest=0.3)  # at random moments of play
    trace = tmp_path / "trace"
    trace.mkdir()
    kill_forked(url, 30, rng, longest=0.3, trace=trace)  # slow writes: often mid-transaction
    assert killed_mid_transaction(trace) >= 5
    check_after_kills(url, min_hands=50, min_unfinished=20, min_ended=1)
    assert time.monotonic() - started < 90


def test_sigkill_at_random_moments_loses_nothing_on_postgresql(
    postgres_url: str, tmp_path: Path
) -> None:
    rng = random.Random(7)
    kill_started(postgres_url, 2, rng)
    kill_forked(postgres_url, 10, rng, longest=0.4)
    kill_forked(postgres_url, 15, rng, longest=0.4, trace=tmp_path)
    assert killed_mid_transaction(tmp_path) >= 3
    check_after_kills(postgres_url, min_hands=15, min_unfinished=10)


def test_the_worker_records_hands_until_it_is_killed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    kill_forked(url, 1, random.Random(1), longest=0.0)  # killed at once: maybe nothing yet
    kill_forked(url, 1, random.Random(1), longest=1.0)
    with Store.open(url) as store:
        assert store.count(SessionRow) >= 1
        assert store.verify().ok
