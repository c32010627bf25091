"""A poker table is between hands only once the finished hand is in the ledger.

Over a database on the network (PostgreSQL) the table task records a finished hand in a
worker thread; meanwhile the event loop serves the sockets (over SQLite the record runs
on the loop, and nothing comes in meanwhile: these tests run the threaded way). A leave
or a rebuy that came in while the record was being written used to be carried out at
once, against a ledger that did not have the hand yet: a cash-out of the chips after
the hand (or a buy-in on top of the chips before it) made the record's check fail
("starts the hand with ... chips; the ledger gives ..."), and the table stopped. The load benchmark found it when its clients left at the end of a run.

Here the real store's record waits, in its thread, until the test has sent the leave or
the rebuy; the table must hold it until the hand is recorded, then carry it out.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from croupier.server.journal import Journal
from croupier.server.tables import TableConfig, TableRunner
from croupier.store import Store

BUY_IN = 1000


def heads_up(store: Store, seed: int) -> TableRunner:
    """Ann against one bot, her turns taken by the time bank (check, else fold) at once."""
    config = TableConfig(
        "main", "holdem", "no-limit", seats=2, bots=1, bot_delay=0, seed=seed,
        buy_in=BUY_IN, time_bank=0.01,
    )  # fmt: skip
    runner = TableRunner(config, store, Journal(store.engine))
    runner.inline_writes = False  # as over PostgreSQL: the record runs in a worker thread
    assert runner.sit("ann", None, None) is not None
    return runner


def gate_records(store: Store) -> tuple[threading.Event, threading.Event]:
    """Make the store's hand record wait (in its thread) until ``go`` is set; ``writing``
    is set when a record has started."""
    writing, go = threading.Event(), threading.Event()
    record: Callable[..., int] = store.record_poker_hand

    def gated(*args: Any, **kwargs: Any) -> int:
        writing.set()
        assert go.wait(20), "the test never let the record go on"
        return record(*args, **kwargs)

    store.record_poker_hand = gated  # type: ignore[method-assign]
    return writing, go


async def while_recorded(
    runner: TableRunner, writing: threading.Event, go: threading.Event, during: Callable[[], object]
) -> int:
    """Run the table until its first hand is being recorded, call ``during`` (on the event
    loop, as a socket's message would be), let the record finish, and wait until the
    table is between hands again; ann's chips after the hand."""
    task = asyncio.create_task(runner.run())
    try:
        assert await asyncio.to_thread(writing.wait, 20)
        chips = runner.table.player("ann").chips  # the hand is over: its result is in
        during()
        go.set()
        for _ in range(2000):
            if runner.hand_ids:
                break
            await asyncio.sleep(0.005)
        assert runner.hand_ids, "the hand was never recorded"
        return chips
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_leave_while_the_hand_is_recorded_cashes_out_after_it(tmp_path: Path, seed: int) -> None:
    store = Store.open(f"sqlite:///{tmp_path}/room.db")
    runner = heads_up(store, seed)
    writing, go = gate_records(store)
    chips = asyncio.run(while_recorded(runner, writing, go, lambda: runner.leave("ann")))
    assert chips != BUY_IN  # she posted a blind: the hand moved her chips
    assert runner.error is None
    assert runner.seat_of("ann") is None
    assert runner.session is not None
    assert store.balances(runner.session).get("ann", 0) == 0
    hands = store.hands(runner.session)
    assert len(hands) == 1
    assert store.verify().ok


@pytest.mark.parametrize("seed", [1, 2, 4])  # seeds where ann loses the first hand
def test_a_rebuy_while_the_hand_is_recorded_buys_after_it(tmp_path: Path, seed: int) -> None:
    store = Store.open(f"sqlite:///{tmp_path}/room.db")
    runner = heads_up(store, seed)
    writing, go = gate_records(store)
    asked: list[int] = []

    def rebuy() -> None:
        short = BUY_IN - runner.table.player("ann").chips
        if short > 0:
            runner.rebuy("ann", short)
            asked.append(short)

    chips = asyncio.run(while_recorded(runner, writing, go, rebuy))
    assert runner.error is None
    assert runner.session is not None
    assert asked, f"ann won the first hand of seed {seed}: no rebuy was possible"
    assert store.balances(runner.session)["ann"] == chips + asked[0] == BUY_IN
    assert runner.table.player("ann").chips == BUY_IN
    assert store.verify().ok
