"""Nothing is lost: real ``croupier play holdem --auto --db …`` processes are killed with
SIGKILL at random moments, and the store keeps every hand complete or not at all,
verifies, and its ledger balances.

The main test runs the real command (``python -m croupier play holdem --auto --hands
LARGE --seed S --db URL``), many short-lived processes, a few at a time, all on one store
so the sessions accumulate: some are killed at once (while Python starts, while the
store is opened or made), the others once they have logged a random number of hands,
some the instant a hand's last line is printed (while it is being recorded). Each
process has a seed of its own, recorded with its session, so the test matches every
session to the hand log its process printed: every hand logged is stored except at most
the one in flight when the process died.

A second test kills workers forked from a warmed-up process (``crash_worker.py``) whose
writes are slowed down like a slow disk's, so that many kills land inside a write
transaction, and counts them; those also play blackjack, Omaha and draw, and cash out.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from sqlalchemy import text

from croupier.store import Store
from croupier.store.schema import HandRow

SRC = Path(__file__).resolve().parents[2] / "src"
WORKER = Path(__file__).with_name("crash_worker.py")
LARGE = 1_000_000
"""Hands asked of every killed process: it is always killed before it is done."""
OVER = re.compile(r"^hand (\d+) over: ")


def environment() -> dict[str, str]:
    """The child's environment: this source tree, output unbuffered (a line is printed
    as soon as it is said, so the test sees it before the hand is recorded)."""
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONUNBUFFERED": "1"}
    env.pop("CROUPIER_DB", None)
    return env


ENV = {**os.environ, "PYTHONPATH": str(SRC)}


# --------------------------------------------------------------- the real command
@dataclass
class Run:
    """One ``croupier play`` process and what it did."""

    seed: int
    hands: int
    """Hands asked for."""
    mode: str
    """``start`` (killed at a random moment from its start), ``mid`` (after some hands,
    at a random moment), ``flight`` (the instant a hand's last line is out), ``finish``
    (not killed: plays its hands and cashes out)."""
    logged: int = 0
    """Hands whose ``hand N over`` line the process printed."""
    killed: bool = False
    exit_code: int | None = None


def croupier_play(url: str, seed: int, hands: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "croupier", "play", "holdem", "--auto", "--seats", "4",
         "--hands", str(hands), "--seed", str(seed), "--db", url],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=environment(),
    )  # fmt: skip


def _count(stream: IO[str], run: Run, stop_after: int | None) -> None:
    """Read the hand log, counting finished hands; return after ``stop_after`` of them."""
    for line in stream:
        if OVER.match(line):
            run.logged += 1
            assert int(OVER.match(line).group(1)) == run.logged  # type: ignore[union-attr]
            if stop_after is not None and run.logged >= stop_after:
                return


def play_and_kill(url: str, run: Run, rng: random.Random) -> None:
    """Start the real command and kill it as ``run.mode`` says (or let it finish)."""
    process = croupier_play(url, run.seed, run.hands)
    assert process.stdout is not None
    if run.mode == "finish":
        _count(process.stdout, run, None)
        run.exit_code = process.wait(timeout=120)
        process.stdout.close()
        return
    if run.mode == "start":
        time.sleep(rng.uniform(0.0, 1.2))
    else:
        _count(process.stdout, run, rng.randint(1, 8))
        if run.mode == "mid":
            time.sleep(rng.uniform(0.0, 0.08))
    process.send_signal(signal.SIGKILL)
    run.exit_code = process.wait(timeout=30)
    run.killed = run.exit_code == -signal.SIGKILL
    _count(process.stdout, run, None)  # what it printed before it died
    process.stdout.close()


def kill_real_processes(
    url: str, kills: int, rng: random.Random, *, parallel: int, finishing: int, first_seed: int
) -> list[Run]:
    """``kills`` real processes killed (``finishing`` more that end normally), ``parallel``
    at a time on one store; the first ones start together on a new store."""
    modes = ["finish"] * finishing
    modes += [rng.choice(("start", "start", "mid", "mid", "flight")) for _ in range(kills)]
    rng.shuffle(modes)
    runs = [
        Run(first_seed + i, 3 if mode == "finish" else LARGE, mode) for i, mode in enumerate(modes)
    ]
    queue = list(runs)
    lock = threading.Lock()
    errors: list[BaseException] = []

    def slot(slot_rng: random.Random) -> None:
        while True:
            with lock:
                if not queue or errors:
                    return
                run = queue.pop(0)
            try:
                play_and_kill(url, run, slot_rng)
            except BaseException as error:  # report it from the test's thread
                errors.append(error)

    threads = [
        threading.Thread(target=slot, args=(random.Random(rng.random()),)) for _ in range(parallel)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return runs


def check_real_runs(url: str, runs: list[Run]) -> int:
    """Each process's session holds every hand it logged, but for at most the one in
    flight; the finished ones ended with everyone cashed out. Returns the kills that
    landed while a logged hand was being recorded."""
    with Store.open(url) as store:
        sessions = {s.seed: s for s in store.sessions()}
        in_flight = 0
        for run in runs:
            session = sessions.get(run.seed)
            if session is None:  # killed before it started its session
                assert run.killed
                assert run.logged == 0
                continue
            stored = [h.number for h in store.hands(session)]
            assert stored == list(range(1, len(stored) + 1))
            if run.mode == "finish":
                assert run.exit_code == 0
                assert stored == [1, 2, 3]
                assert run.logged == 3
                assert session.ended_at is not None
                assert set(store.balances(session).values()) <= {0}
                continue
            assert run.killed, run
            assert session.ended_at is None  # a large session is always cut short
            assert len(stored) in (run.logged, run.logged - 1), (run, stored)
            in_flight += len(stored) == run.logged - 1
    return in_flight


def check_after_kills(url: str, min_hands: int, min_unfinished: int, min_ended: int = 0) -> None:
    """``verify`` passes (every hand replays to its end, every commitment checks), every
    stored hand is whole, and no chip was created or lost."""
    with Store.open(url) as store:
        report = store.verify()
        assert report.ok, [p.describe() for p in report.problems][:10]
        hands = store.count(HandRow)
        sessions = store.sessions()
        on_table = sum(sum(store.balances(s).values()) for s in sessions)
        with store.engine.connect() as db:
            partial = db.execute(text(
                "SELECT h.id FROM hands h WHERE (SELECT COUNT(*) FROM results r "
                "WHERE r.hand_id = h.id) < 1 OR COALESCE((SELECT SUM(m.amount) FROM "
                "chip_movements m WHERE m.hand_id = h.id), 1) <> 0"
            )).all()  # fmt: skip
            bought, cashed = db.execute(text(
                "SELECT COALESCE(SUM(CASE WHEN kind = 'buy-in' THEN amount ELSE 0 END), 0), "
                "COALESCE(SUM(CASE WHEN kind = 'cash-out' THEN amount ELSE 0 END), 0) FROM ledger"
            )).one()  # fmt: skip
            house = db.execute(text("SELECT COALESCE(SUM(house), 0) FROM hands")).scalar_one()
    assert partial == []  # every hand has its results, and its chip movements add up to 0
    chips = report.chips
    assert chips["bought_in"] - chips["cashed_out"] - chips["house"] == chips["on_table"]
    assert (chips["bought_in"], chips["cashed_out"], chips["house"]) == (bought, cashed, house)
    assert bought - cashed - house == on_table == chips["on_table"]
    assert hands >= min_hands, hands
    unfinished = [s for s in sessions if s.ended_at is None]
    assert len(unfinished) >= min_unfinished  # the kills interrupted sessions, mid-play
    assert sum(1 for s in sessions if s.ended_at is not None) >= min_ended  # cashed out whole
    assert report.sessions == len(sessions)
    assert report.hands == hands


def test_sigkill_of_real_croupier_play_loses_nothing_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    started = time.monotonic()
    runs = kill_real_processes(
        url, 54, random.Random(20260520), parallel=4, finishing=2, first_seed=1000
    )
    killed = sum(run.killed for run in runs)
    assert killed >= 50
    assert sum(run.killed and run.logged > 0 for run in runs) >= 20  # mid-session kills
    assert sum(run.killed and run.logged == 0 for run in runs) >= 5  # right at the start
    in_flight = check_real_runs(url, runs)
    assert in_flight >= 5  # some died with a logged hand not yet (or just) committed
    check_after_kills(url, min_hands=100, min_unfinished=20, min_ended=2)
    assert time.monotonic() - started < 90


def test_sigkill_of_real_croupier_play_loses_nothing_on_postgresql(postgres_url: str) -> None:
    runs = kill_real_processes(
        postgres_url, 14, random.Random(7), parallel=3, finishing=1, first_seed=2000
    )
    assert sum(run.killed for run in runs) >= 12
    check_real_runs(postgres_url, runs)
    check_after_kills(postgres_url, min_hands=10, min_unfinished=5, min_ended=1)


# ------------------------------------------------- forked workers, slowed-down writes
def _ready(stream: IO[str], expected: str) -> str:
    line = stream.readline()
    assert line.startswith(expected), f"worker said {line!r}"
    return line


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


def kill_forked(url: str, kills: int, rng: random.Random, longest: float, trace: Path) -> None:
    """Kill ``kills`` workers forked from one warmed-up process, each after a random time
    up to ``longest``; their writes are slow and traced in ``trace``."""
    env = dict(ENV, CROUPIER_CRASH_TRACE=str(trace), CROUPIER_CRASH_SLOW="1")
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


def killed_mid_transaction(trace: Path) -> int:
    """Workers whose last write transaction began and never committed."""
    return sum(1 for f in trace.glob("*.trace") if f.read_bytes().endswith(b"b"))


def test_sigkill_inside_write_transactions_loses_nothing_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'forked.sqlite3'}"
    kill_forked(url, 24, random.Random(5), longest=0.3, trace=tmp_path)
    assert killed_mid_transaction(tmp_path) >= 5
    check_after_kills(url, min_hands=0, min_unfinished=15)


def test_sigkill_inside_write_transactions_loses_nothing_on_postgresql(
    postgres_url: str, tmp_path: Path
) -> None:
    kill_forked(postgres_url, 12, random.Random(7), longest=0.4, trace=tmp_path)
    assert killed_mid_transaction(tmp_path) >= 3
    check_after_kills(postgres_url, min_hands=0, min_unfinished=8)
