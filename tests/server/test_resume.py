"""A table stopped mid-hand (its task cancelled, its memory dropped: what a crash leaves)
and built again over the same store resumes the hand from the journal, or voids it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from croupier.server.journal import Journal
from croupier.server.tables import TableConfig, TableRunner
from croupier.store import Store

GAMES = ["holdem", "omaha", "stud7", "draw", "manila"]


def _config(game: str, on_crash: str = "resume") -> TableConfig:
    return TableConfig(
        "t1", game, "pot-limit" if game == "omaha" else "no-limit", seats=4, bots=4,
        bot_delay=0, play_without_humans=True, seed=11, on_crash=on_crash,
    )  # fmt: skip


async def _crash_mid_hand(runner: TableRunner, events: int) -> None:
    """Play until the hand in play has at least ``events`` journaled events, then stop
    the task where it is (a cancelled task runs no more of its code)."""
    task = asyncio.create_task(runner.run())

    def mid_hand() -> bool:
        hand = runner.table.hand
        return (
            runner.live_id is not None
            and runner._logged >= events
            and not (hand is None or hand.is_complete)
        )

    while not mid_hand():
        await asyncio.sleep(0)
        assert not task.done()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def _play(runner: TableRunner, hands: int) -> None:
    for _ in range(hands):
        assert runner.ready()
        await runner.play_hand()


@pytest.mark.parametrize("game", GAMES)
def test_a_restarted_table_resumes_the_interrupted_hand(tmp_path: Path, game: str) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'room.db'}")
    first = TableRunner(_config(game), store, Journal(store.engine))
    asyncio.run(_play(first, 2))
    asyncio.run(_crash_mid_hand(first, 14))
    live = first.journal.interrupted("t1")
    assert live is not None
    assert live.number == 3
    assert len(live.events) >= 14
    second = TableRunner(_config(game), store, Journal(store.engine))
    assert second.session == first.session
    assert second.resumed == [3]
    hand = second.table.hand
    assert hand is not None
    from croupier.poker.views import event_to_dict

    assert [event_to_dict(e) for e in hand.events[: len(live.events)]] == list(live.events)
    asyncio.run(_play(second, 2))
    stored = store.hands(second.session)
    assert [h.number for h in stored] == [1, 2, 3, 4]
    third = store.hand(stored[2].id)
    assert third.commitment == live.commitment
    assert [event_to_dict(e) for e in third.events[: len(live.events)]] == list(live.events)
    assert second.journal.interrupted("t1") is None
    assert store.verify().ok


def test_a_table_that_voids_returns_every_wager(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'room.db'}")
    first = TableRunner(_config("holdem"), store, Journal(store.engine))
    asyncio.run(_play(first, 1))
    asyncio.run(_crash_mid_hand(first, 16))
    live = first.journal.interrupted("t1")
    assert live is not None
    before = store.balances(first.session)  # type: ignore[arg-type]
    second = TableRunner(_config("holdem", "void"), store, Journal(store.engine))
    assert second.voided == [live.number]
    assert second.table.hand is None
    assert second.table.stacks == before
    assert second.journal.voided("t1") == [(live.number, "the server restarted mid-hand")]
    asyncio.run(_play(second, 1))
    numbers = [h.number for h in store.hands(second.session)]
    assert numbers == list(range(1, live.number + 1))  # the voided number is dealt again
    assert store.verify().ok


def test_a_restart_seats_a_player_where_he_last_sat(tmp_path: Path) -> None:
    """A player back at a seat he had before is seated there again after a restart (the
    store once kept his first row for that seat, and a restart put him at the seat he
    sat at in between: found by the kill test, as a resumed hand's seats not matching)."""
    store = Store.open(f"sqlite:///{tmp_path / 'room.db'}")
    config = TableConfig("t1", "holdem", "no-limit", seats=4, bots=0, bot_delay=0, seed=3)
    first = TableRunner(config, store, Journal(store.engine))
    for seat in (4, 3, 4):
        assert first.sit("ann", seat, None) == seat
        if seat == 3:
            first.leave("ann")
            first.sit("bob", 3, None)
        elif first.seat_of("bob") is None:
            first.leave("ann")
    assert first.seat_of("ann") == 4
    assert first.seat_of("bob") == 3
    again = TableRunner(config, store, Journal(store.engine))
    assert again.seat_of("ann") == 4
    assert again.seat_of("bob") == 3
