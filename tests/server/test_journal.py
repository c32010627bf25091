"""The journal's group commit and the action statistics, in-process over SQLite."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import create_engine

from croupier.cards import Deck
from croupier.fairness import commit_deck
from croupier.server.journal import GroupCommit, Journal
from croupier.server.leases import LeaseLostError, Leases
from croupier.server.runner import ActionStats


def _journal(tmp_path: Path, tables: list[str]) -> tuple[Journal, Leases, list[int]]:
    engine = create_engine(f"sqlite:///{tmp_path / 'j.db'}")
    journal = Journal(engine)
    leases = Leases(engine, "p1", "http://p1")
    commitment, reveal = commit_deck(Deck.standard(seed=1).remaining)
    ids = []
    for table in tables:
        assert leases.acquire(table)
        ids.append(
            journal.open_hand(
                table,
                session=1,
                number=1,
                kind="poker",
                commitment=commitment,
                reveal=reveal,
                state={},
                events=[],
            )
        )
    return journal, leases, ids


@pytest.mark.parametrize("inline", [True, False], ids=["on-the-loop", "in-a-thread"])
def test_a_batch_of_many_events_is_written_whole(tmp_path: Path, inline: bool) -> None:
    """More rows than one multi-row INSERT carries: every event lands, in order, in one
    transaction for both appends (made in one turn of the loop)."""
    journal, leases, ids = _journal(tmp_path, ["a", "b"])
    events = [{"type": "Folded", "seat": i % 9 + 1, "n": i} for i in range(1_000)]

    async def main() -> int:
        writer = GroupCommit(journal, inline=inline)
        await asyncio.gather(
            writer.append(ids[0], 0, events, leases.fence("a")),
            writer.append(ids[1], 0, events[:7], leases.fence("b")),
        )
        return writer.batches

    assert asyncio.run(main()) == 1
    a, b = journal.interrupted("a"), journal.interrupted("b")
    assert a is not None
    assert b is not None
    assert list(a.events) == events
    assert list(b.events) == events[:7]


@pytest.mark.parametrize("inline", [True, False], ids=["on-the-loop", "in-a-thread"])
def test_a_lost_lease_fails_only_its_own_append(tmp_path: Path, inline: bool) -> None:
    journal, leases, ids = _journal(tmp_path, ["a", "b"])
    stale = leases.fence("b")
    other = Leases(journal.engine, "p2", "http://p2")
    leases.release("b")
    assert other.acquire("b")

    async def main() -> list[BaseException | None]:
        writer = GroupCommit(journal, inline=inline)
        results = await asyncio.gather(
            writer.append(ids[0], 0, [{"type": "X"}], leases.fence("a")),
            writer.append(ids[1], 0, [{"type": "Y"}], stale),
            return_exceptions=True,
        )
        return list(results)

    first, second = asyncio.run(main())
    assert first is None
    assert isinstance(second, LeaseLostError)
    a, b = journal.interrupted("a"), journal.interrupted("b")
    assert a is not None
    assert list(a.events) == [{"type": "X"}]
    assert b is not None
    assert list(b.events) == []


def test_sqlite_writes_run_on_the_loop_and_each_append_is_committed_when_it_returns(
    tmp_path: Path,
) -> None:
    journal, leases, ids = _journal(tmp_path, ["a"])
    reader = Journal(create_engine(f"sqlite:///{tmp_path / 'j.db'}"))  # another connection
    seen: list[int] = []

    async def main() -> int:
        writer = GroupCommit(journal)
        assert writer.inline  # SQLite: the default
        for n in range(3):
            await writer.append(ids[0], n, [{"type": "X", "n": n}], leases.fence("a"))
            live = reader.interrupted("a")  # committed, not just written
            seen.append(-1 if live is None else len(live.events))
        return writer.batches

    assert asyncio.run(main()) == 3
    assert seen == [1, 2, 3]


def test_stats_since_counts_actions_even_after_old_ones_are_dropped() -> None:
    class Small(ActionStats):
        KEEP = 3

    stats = Small()
    for ms in (90, 80, 70, 1, 2, 3):
        stats.record(ms / 1000)
    assert stats.summary()["count"] == 3  # only the latest three are kept
    assert stats.summary(since=4) == {"count": 2, "p50": 3.0, "p99": 3.0, "max": 3.0}
    assert stats.summary(since=0)["max"] == 3.0
    assert stats.summary(since=6)["count"] == 0
