"""The journal's group commit and the action statistics, in-process over SQLite."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import create_engine

from croupier.cards import Deck
from croupier.fairness import commit_deck
from croupier.server.fences import Fence
from croupier.server.journal import GroupCommit, Journal
from croupier.server.leases import LeaseLostError, Leases
from croupier.server.runner import ActionStats
from croupier.store.connect import connect, resolve_url


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


@pytest.mark.parametrize("store_engine", [False, True], ids=["plain-engine", "store-engine"])
def test_a_guard_that_is_not_a_lease_fence_runs_in_the_write_and_can_refuse_it(
    tmp_path: Path, store_engine: bool
) -> None:
    """Lease fences go to SQLite's cursor; any other guard takes the Core path, in the
    same transaction: its refusal writes nothing, and the fenced appends still land."""
    journal, leases, ids = _journal(tmp_path, ["a", "b"])
    if store_engine:  # the engine a server uses: BEGIN IMMEDIATE and the writer lock
        journal = Journal(connect(resolve_url(f"sqlite:///{tmp_path / 'j.db'}")))
    calls: list[str] = []

    def refuse(db: object) -> None:
        calls.append(type(db).__name__)
        raise LeaseLostError("refused by the guard")

    async def main() -> list[BaseException | None]:
        writer = GroupCommit(journal)
        results = await asyncio.gather(
            writer.append(ids[0], 0, [{"type": "X"}], leases.fence("a")),
            writer.append(ids[1], 0, [{"type": "Y"}], refuse),
            return_exceptions=True,
        )
        return list(results)

    first, second = asyncio.run(main())
    assert first is None
    assert isinstance(second, LeaseLostError)
    assert calls == ["Connection", "Connection"]  # in the batch, then on its own
    a, b = journal.interrupted("a"), journal.interrupted("b")
    assert a is not None
    assert list(a.events) == [{"type": "X"}]
    assert b is not None
    assert list(b.events) == []


@pytest.mark.parametrize("inline", [True, False], ids=["on-the-loop", "in-a-thread"])
def test_then_runs_once_durable_before_the_caller_resumes_and_only_on_success(
    tmp_path: Path, inline: bool
) -> None:
    """A table shows an action from ``then``: it must see the events committed (another
    connection reads them), run before the appending task resumes, not run for a refused
    append, and a failure of its own is the append's error."""
    journal, leases, ids = _journal(tmp_path, ["a", "b", "c"])
    stale = leases.fence("b")
    leases.release("b")
    assert Leases(journal.engine, "p2", "http://p2").acquire("b")
    reader = Journal(create_engine(f"sqlite:///{tmp_path / 'j.db'}"))
    order: list[str] = []

    def shown(table: str) -> None:
        live = reader.interrupted(table)
        order.append(f"{table} then ({0 if live is None else len(live.events)} events)")

    def broken() -> None:
        raise ValueError("the broadcast failed")

    async def main() -> list[BaseException | None]:
        writer = GroupCommit(journal, inline=inline)

        async def table(name: str, guard: Fence, then: Callable[[], object]) -> None:
            await writer.append(ids["abc".index(name)], 0, [{"type": "X"}], guard, then)
            order.append(f"{name} resumed")

        return list(
            await asyncio.gather(
                table("a", leases.fence("a"), lambda: shown("a")),
                table("b", stale, lambda: shown("b")),
                table("c", leases.fence("c"), broken),
                return_exceptions=True,
            )
        )

    a, b, c = asyncio.run(main())
    assert a is None
    assert isinstance(b, LeaseLostError)
    assert isinstance(c, ValueError)
    assert order == ["a then (1 events)", "a resumed"]
    live = journal.interrupted("c")
    assert live is not None
    assert list(live.events) == [{"type": "X"}]  # committed: only the showing failed


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
