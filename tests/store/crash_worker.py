"""A process that plays and records hands until it is killed (for the SIGKILL test).

``python crash_worker.py URL`` opens the store at URL, prints ``ready PID`` and plays
session after session (poker and blackjack, bots, rebuys, cash-outs) for ever.

``python crash_worker.py --zygote URL`` imports everything and warms the caches once, prints
``zygote ready``, then forks one such worker for each line read on standard input (each
prints its own ``ready PID``): a fresh real process to kill every time, without paying
for the interpreter's start-up on each.

With ``$CROUPIER_CRASH_TRACE`` (a folder) each worker appends to ``PID.trace`` a ``b`` when
a write transaction begins and a ``c`` when it commits, so the test can count the kills
that landed inside a transaction; with ``$CROUPIER_CRASH_SLOW`` each write statement takes
a few milliseconds more (a slow disk), so that many do.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from typing import Any

from sqlalchemy import event

from croupier.blackjack import NZ
from croupier.poker import DRAW, OMAHA, FixedLimit, HandState, PotLimit, TableRules
from croupier.store import Store, play_and_record, play_and_record_blackjack

RULES = (
    TableRules(),
    TableRules(OMAHA, PotLimit()),
    TableRules(DRAW, FixedLimit(10, 20), blinds=(5, 10), table_minimum=10),
)


def _trace(store: Store) -> None:
    folder = os.environ.get("CROUPIER_CRASH_TRACE")
    slow = bool(os.environ.get("CROUPIER_CRASH_SLOW"))
    if not folder and not slow:
        return
    fd = os.open(os.path.join(folder or ".", f"{os.getpid()}.trace"),
                 os.O_WRONLY | os.O_CREAT | os.O_APPEND) if folder else -1  # fmt: skip
    chance = random.Random()

    def writing(conn: Any) -> bool:
        return bool(conn.get_execution_options().get("croupier_write"))

    @event.listens_for(store.engine, "begin")
    def _begin(conn: Any) -> None:
        if fd >= 0 and writing(conn):
            os.write(fd, b"b")

    @event.listens_for(store.engine, "commit")
    def _commit(conn: Any) -> None:
        if fd >= 0 and writing(conn):
            os.write(fd, b"c")

    @event.listens_for(store.engine, "before_cursor_execute")
    def _slow(conn: Any, *_args: Any) -> None:
        if slow and writing(conn):
            time.sleep(chance.uniform(0.001, 0.004))


def work(url: str) -> None:
    """Record sessions until killed."""
    chance = random.SystemRandom()
    store = Store.open(url)
    _trace(store)
    print(f"ready {os.getpid()}", flush=True)
    while True:
        if chance.random() < 0.25:
            play_and_record_blackjack(store, NZ, rounds=chance.randint(1, 12),
                                      players=chance.randint(1, 4))  # fmt: skip
        else:
            play_and_record(
                store,
                chance.choice(RULES),
                hands=chance.randint(1, 20),
                players=chance.randint(2, 5),
                buy_in=chance.choice((40, 200, 1000)),
                rebuy=chance.random() < 0.7,
            )


def zygote(url: str) -> None:
    """Fork a worker per line of standard input."""
    hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1)  # load the tables
    while not hand.is_complete:
        hand.check() if hand.can_check() else hand.call()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # killed children are reaped at once
    print("zygote ready", flush=True)
    for _line in sys.stdin:
        if os.fork() == 0:
            try:
                work(url)
            finally:
                os._exit(1)
    sys.exit(0)


if __name__ == "__main__":
    if sys.argv[1] == "--zygote":
        zygote(sys.argv[2])
    else:
        work(sys.argv[1])
