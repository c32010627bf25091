"""The live journal: every hand in play, action by action, committed before it is shown.

A table writes a hand to the journal when it deals it (the deck order and salt it
committed to, the seats, the plan of the hand) and appends the hand's new events after
every accepted action, each in one transaction, **before** any client is told. When the
hand is over it is recorded in the audit store and its journal rows are deleted in the
same transaction (:meth:`Journal.close_in`), so a hand is in exactly one of the two
places at every instant. After a crash, :meth:`Journal.interrupted` gives the hand that
was in play: the table replays its events (the engines rebuild a hand from its log) and
carries on, or voids it (:meth:`Journal.void`: the wagers go back, as no chip of an
unfinished hand ever reaches the ledger).

The rows live in the server's own tables (``server_live_hands``, ``server_live_events``),
created with ``create_all`` beside the store's, in the same database.

>>> from sqlalchemy import create_engine
>>> from croupier.fairness import commit_deck
>>> from croupier.cards import Deck
>>> journal = Journal(create_engine("sqlite://"))
>>> commitment, reveal = commit_deck(Deck.standard(seed=1).remaining)
>>> live = journal.open_hand("t1", session=1, number=1, kind="poker", commitment=commitment,
...                          reveal=reveal, state={"seats": {"1": "ann"}}, events=[{"type": "X"}])
>>> journal.append(live, 1, [{"type": "Y"}])
>>> hand = journal.interrupted("t1")
>>> hand.number, [e["type"] for e in hand.events], hand.reveal.order == reveal.order
(1, ['X', 'Y'], True)
>>> journal.void(live, "server restarted"); journal.interrupted("t1") is None
True
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    delete,
    insert,
    select,
)
from sqlalchemy.engine import Connection
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from croupier.errors import CroupierError
from croupier.fairness import DeckCommitment, DeckReveal, parse_order
from croupier.server.fences import group_guards, run_grouped
from croupier.server.leases import LeaseRow, Leases
from croupier.store.schema import utc_now

__all__ = [
    "GroupCommit",
    "Journal",
    "LiveEventRow",
    "LiveHand",
    "LiveHandRow",
    "write_session",
    "writes_inline",
]


@contextmanager
def write_session(engine: Engine) -> Iterator[Session]:
    """One write transaction on ``engine``, committed on success. On SQLite it begins
    ``IMMEDIATE`` (the store's engines do that for a connection marked
    ``croupier_write``): a transaction that reads before it writes would otherwise fail
    at once with "database is locked" when another writer got in between.

    >>> from sqlalchemy import create_engine, text
    >>> with write_session(create_engine("sqlite://")) as db:
    ...     db.execute(text("SELECT 1")).scalar()
    1
    """
    with engine.connect() as connection:
        connection.execution_options(croupier_write=True)
        with Session(bind=connection) as db, db.begin():
            yield db


class _Base(DeclarativeBase):
    metadata = MetaData()


class LiveHandRow(_Base):
    """A hand in play at a table (at most one a table), or a voided one (``status``).

    >>> LiveHandRow.__tablename__
    'server_live_hands'
    """

    __tablename__ = "server_live_hands"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_name: Mapped[str] = mapped_column(String(40), index=True)
    session_id: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    """The hand's number at the table (1, 2, ...)."""
    kind: Mapped[str] = mapped_column(String(16))
    commitment: Mapped[str] = mapped_column(String(64))
    deck_order: Mapped[str] = mapped_column(Text)
    salt: Mapped[str] = mapped_column(String(64))
    state_json: Mapped[str] = mapped_column(Text)
    """What the table needs besides the log to carry on (seats, the hand's plan...)."""
    status: Mapped[str] = mapped_column(String(16))
    """``open`` (in play), or ``void`` with :attr:`reason`."""
    reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LiveEventRow(_Base):
    """One event of a hand in play, uncensored (the journal is the house's, never a
    client's).

    >>> LiveEventRow.__tablename__
    'server_live_events'
    """

    __tablename__ = "server_live_events"
    live_id: Mapped[int] = mapped_column(ForeignKey("server_live_hands.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_json: Mapped[str] = mapped_column(Text)


@dataclass(frozen=True)
class LiveHand:
    """A hand the journal holds: where it was when the server stopped.

    >>> LiveHand(1, "t", 1, 2, "poker", DeckCommitment("0" * 64), None, {}, ()).number
    2
    """

    id: int
    table: str
    session: int
    number: int
    kind: str
    commitment: DeckCommitment
    reveal: DeckReveal | None
    """The committed order and salt (None only in a doctest)."""
    state: dict[str, Any]
    events: tuple[dict[str, Any], ...]
    """The log so far, as the engines' codec writes it."""


class Journal:
    """The journal over ``engine`` (its tables are created when missing)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        _Base.metadata.create_all(engine)

    def open_hand(
        self,
        table: str,
        *,
        session: int,
        number: int,
        kind: str,
        commitment: DeckCommitment,
        reveal: DeckReveal,
        state: dict[str, Any],
        events: Sequence[dict[str, Any]],
        guard: Callable[[Session], object] | None = None,
    ) -> int:
        """Write a newly dealt hand with its first events; its journal id. A table has one
        hand in play at a time: an open one left over is an error (resume or void it).
        ``guard`` runs first in the transaction (a lease check: it raises to refuse)."""
        with write_session(self.engine) as db:
            if guard is not None:
                guard(db)
            stale = db.scalar(
                select(LiveHandRow.id).where(
                    LiveHandRow.table_name == table, LiveHandRow.status == "open"
                )
            )
            if stale is not None:
                raise CroupierError(f"table {table} already has hand {stale} in play")
            # Core inserts (no ORM objects to flush): the hand, then its events in one
            # executemany, as the group commit writes them
            live_id: int = db.execute(
                insert(LiveHandRow).returning(LiveHandRow.id),
                {
                    "table_name": table,
                    "session_id": session,
                    "number": number,
                    "kind": kind,
                    "commitment": commitment.digest,
                    "deck_order": reveal.order_text,
                    "salt": reveal.salt_hex,
                    "state_json": json.dumps(state, sort_keys=True),
                    "status": "open",
                    "started_at": utc_now(),
                },
            ).scalar_one()
            if events:
                db.execute(
                    _INSERT_EVENT,
                    [
                        {"live_id": live_id, "seq": i, "event_json": json.dumps(e)}
                        for i, e in enumerate(events)
                    ],
                )
            return live_id

    def append(
        self,
        live_id: int,
        first_seq: int,
        events: Sequence[dict[str, Any]],
        *,
        state: dict[str, Any] | None = None,
        guard: Callable[[Session], object] | None = None,
    ) -> None:
        """Add the events numbered ``first_seq``... (and replace the state, if given), in
        one transaction (``guard`` first, as for :meth:`open_hand`)."""
        with write_session(self.engine) as db:
            if guard is not None:
                guard(db)
            db.add_all(
                LiveEventRow(live_id=live_id, seq=first_seq + i, event_json=json.dumps(e))
                for i, e in enumerate(events)
            )
            if state is not None:
                row = db.get(LiveHandRow, live_id)
                if row is None:
                    raise CroupierError(f"no hand {live_id} in the journal")
                row.state_json = json.dumps(state, sort_keys=True)

    def interrupted(self, table: str) -> LiveHand | None:
        """The hand ``table`` had in play, if any."""
        with Session(self.engine) as db:
            row = db.scalar(
                select(LiveHandRow).where(
                    LiveHandRow.table_name == table, LiveHandRow.status == "open"
                )
            )
            if row is None:
                return None
            events = db.scalars(
                select(LiveEventRow.event_json)
                .where(LiveEventRow.live_id == row.id)
                .order_by(LiveEventRow.seq)
            )
            return LiveHand(
                id=row.id,
                table=row.table_name,
                session=row.session_id,
                number=row.number,
                kind=row.kind,
                commitment=DeckCommitment(row.commitment),
                reveal=DeckReveal(parse_order(row.deck_order), bytes.fromhex(row.salt)),
                state=json.loads(row.state_json),
                events=tuple(json.loads(e) for e in events),
            )

    @staticmethod
    def close_in(db: Session, live_id: int) -> None:
        """Delete a finished hand's journal rows inside ``db``'s transaction (the one that
        records the hand in the store)."""
        db.execute(delete(LiveEventRow).where(LiveEventRow.live_id == live_id))
        db.execute(delete(LiveHandRow).where(LiveHandRow.id == live_id))

    def void(
        self, live_id: int, reason: str, guard: Callable[[Session], object] | None = None
    ) -> None:
        """Void a hand in play: its events go, its row stays as ``void`` with the reason
        (``guard`` first, as for :meth:`open_hand`)."""
        with write_session(self.engine) as db:
            if guard is not None:
                guard(db)
            row = db.get(LiveHandRow, live_id)
            if row is None:
                raise CroupierError(f"no hand {live_id} in the journal")
            db.execute(delete(LiveEventRow).where(LiveEventRow.live_id == live_id))
            row.status, row.reason = "void", reason[:200]

    def voided(self, table: str) -> list[tuple[int, str]]:
        """The hands of ``table`` voided so far: (number, reason), oldest first."""
        with Session(self.engine) as db:
            rows = db.execute(
                select(LiveHandRow.number, LiveHandRow.reason)
                .where(LiveHandRow.table_name == table, LiveHandRow.status == "void")
                .order_by(LiveHandRow.id)
            )
            return [(n, r or "") for n, r in rows]


_INSERT_EVENT = insert(LiveEventRow)
"""The journal's insert of one event, run for many rows at once (SQLAlchemy's
executemany: one compiled statement, where a multi-row VALUES was compiled for each row
count)."""


class GroupCommit:
    """One writer for every table's journal appends: the appends waiting when the
    writer is free go into **one** transaction (one disk flush for them all), so a busy
    room's tables do not queue behind each other's commits nor fight over SQLite's write
    lock. Each caller returns only once its events are committed. If the batch fails
    (a table whose lease is gone raises in its guard), the appends are retried one by
    one, so the others still commit and only the failing one raises.

    >>> import asyncio
    >>> from sqlalchemy import create_engine
    >>> from sqlalchemy.pool import StaticPool
    >>> from croupier.cards import Deck
    >>> from croupier.fairness import commit_deck
    >>> engine = create_engine("sqlite://", poolclass=StaticPool,
    ...                        connect_args={"check_same_thread": False})
    >>> journal = Journal(engine)
    >>> commitment, reveal = commit_deck(Deck.standard(seed=1).remaining)
    >>> ids = [journal.open_hand(t, session=1, number=1, kind="poker", commitment=commitment,
    ...                          reveal=reveal, state={}, events=[]) for t in ("a", "b")]
    >>> async def main():
    ...     writer = GroupCommit(journal)
    ...     await asyncio.gather(*(writer.append(i, 0, [{"type": "X"}]) for i in ids))
    ...     return writer.batches
    >>> asyncio.run(main()), len(journal.interrupted("b").events)
    (1, 1)
    """

    def __init__(self, journal: Journal, *, inline: bool | None = None) -> None:
        self.journal = journal
        self.inline = writes_inline(journal.engine) if inline is None else inline
        """Write on the event loop itself (default for SQLite, see :func:`writes_inline`),
        else in a worker thread."""
        self._sqlite = journal.engine.dialect.name == "sqlite"
        self.batches = 0
        """Transactions written."""
        self._waiting: list[_Waiting] = []
        self._busy = False
        self._drainer: asyncio.Task[None] | None = None
        """The threaded writer's task (held, so it is not collected while it runs)."""

    async def append(
        self,
        live_id: int,
        first_seq: int,
        events: Sequence[dict[str, Any]],
        guard: Callable[[Session], object] | None = None,
        then: Callable[[], object] | None = None,
    ) -> None:
        """:meth:`Journal.append`, committed with whatever else is waiting. ``then`` runs
        the moment the batch is durable, in the writer's own turn of the event loop
        (before the caller resumes, a turn later): a table shows the action from there."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._waiting.append(((live_id, first_seq, list(events), guard), future, then))
        if not self._busy:
            self._busy = True
            if self.inline:  # once the loop has run what is ready: every append made by then
                loop.call_soon(self._flush)
            else:
                self._drainer = loop.create_task(self._drain())
        await future

    def _flush(self) -> None:
        """Write what waits, on the event loop (the inline writer)."""
        batch, self._waiting = self._waiting, []
        self._busy = False
        _settle_all(batch, self._write_batch([args for args, *_ in batch]))

    async def _drain(self) -> None:
        """Write what waits, batch after batch, in a worker thread (the threaded writer)."""
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                items = [args for args, *_ in batch]
                _settle_all(batch, await asyncio.to_thread(self._write_batch, items))
        finally:
            self._busy = False

    def _write_batch(self, items: Sequence[tuple[Any, ...]]) -> list[Exception | None]:
        """Write the items in one transaction; if it fails, each in its own (so only a
        failing one fails). Each item's outcome: None (committed) or its error."""
        try:
            self._write_all(items)
        except Exception:
            outcomes: list[Exception | None] = []
            for item in items:
                try:
                    self._write_all([item])
                except Exception as error:
                    outcomes.append(error)
                else:
                    outcomes.append(None)
            return outcomes
        return [None] * len(items)

    def _write_all(self, items: Sequence[tuple[Any, ...]]) -> None:
        """One transaction: every item's guard (the lease fences in one query), then
        every item's events in one insert run for all the rows. On SQLite, when every
        guard is a lease fence, both go straight to SQLite's cursor (:func:`_write_sqlite`)."""
        rows = [
            (live_id, first_seq + i, json.dumps(e))
            for live_id, first_seq, events, _guard in items
            for i, e in enumerate(events)
        ]
        fenced, others = group_guards(guard for *_, guard in items)
        with self.journal.engine.connect() as connection:
            connection.execution_options(croupier_write=True)
            with connection.begin():
                if self._sqlite and not others:
                    _write_sqlite(connection, fenced, rows)
                else:
                    run_grouped(fenced, others, connection)
                    # one statement, compiled once and cached, run for every row
                    params = [dict(zip(_EVENT_KEYS, row, strict=True)) for row in rows]
                    connection.execute(_INSERT_EVENT, params)
        self.batches += 1


_EVENT_KEYS = ("live_id", "seq", "event_json")
_FENCE_SQLITE = (
    f"SELECT table_name, owner, epoch FROM {LeaseRow.__tablename__}"
    " WHERE table_name IN ({}) ORDER BY table_name"
)
_INSERT_EVENT_SQLITE = (
    f"INSERT INTO {LiveEventRow.__tablename__} ({', '.join(_EVENT_KEYS)}) VALUES (?, ?, ?)"
)


def _write_sqlite(
    connection: Connection,
    fenced: Sequence[tuple[Leases, dict[str, int]]],
    rows: Sequence[tuple[int, int, str]],
) -> None:
    """The group commit's two statements (the fences' read, the events' insert) run on
    SQLite's own cursor, inside ``connection``'s transaction (begun ``IMMEDIATE``, with
    the store's writer lock). The same statements as the Core ones, without their
    per-call work (parameter processing, result set-up: 0.2 ms of CPU a commit, half of
    it), which the event loop paid for every table. An error here is the driver's own
    (``sqlite3.Error``), not SQLAlchemy's wrapping of it; the transaction rolls back."""
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        for leases, epochs in fenced:
            names = sorted(epochs)
            query = _FENCE_SQLITE.format(",".join("?" * len(names)))
            leases.check_rows(epochs, cursor.execute(query, names).fetchall())
        cursor.executemany(_INSERT_EVENT_SQLITE, rows)
    finally:
        cursor.close()


_Waiting = tuple[tuple[Any, ...], "asyncio.Future[None]", Callable[[], object] | None]
"""An append waiting for the writer: its arguments, its caller's future, its ``then``."""


def _settle_all(batch: Sequence[_Waiting], outcomes: Sequence[Exception | None]) -> None:
    """Give each append of a written batch its outcome, running the ``then`` of each
    committed one first (its error, if it raises, is the append's)."""
    try:
        for (_args, future, then), error in zip(batch, outcomes, strict=True):
            if error is None and then is not None and not future.done():
                try:
                    then()
                except Exception as raised:  # the caller's own failure, not the writer's
                    error = raised
            _settle(future, error)
    finally:  # an interrupt in a ``then``: the others still get their outcomes
        for (_args, future, _then), error in zip(batch, outcomes, strict=True):
            _settle(future, error)


def _settle(future: asyncio.Future[None], error: BaseException | None = None) -> None:
    """Give an append its outcome (unless its caller stopped waiting)."""
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


def writes_inline(engine: Engine) -> bool:
    """Whether a table's store writes run on the event loop itself rather than in a
    worker thread: yes for SQLite, no for a database over the network.

    SQLite takes one writer at a time and its writes are short local calls (a few hundred
    microseconds and a flush to disk). In a worker thread they gain nothing from a second
    core, since the interpreter runs one thread at a time, and pay for it: each time the
    thread comes back from SQLite it waits for the busy event loop to hand it the
    interpreter, up to a switch interval (1 ms) a time. Under load a journal commit took
    4 ms at the median and 26 ms at p99 that way, against 0.75 and 2.2 ms inline (the
    load benchmark, docs/scaling.md). A PostgreSQL call waits on the network, so it goes
    to a thread and the loop serves others meanwhile.

    >>> from sqlalchemy import create_engine
    >>> writes_inline(create_engine("sqlite://"))
    True
    """
    return engine.dialect.name == "sqlite"
