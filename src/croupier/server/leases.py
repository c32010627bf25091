"""Table leases: which ``croupier serve`` process hosts which table, with takeover.

Several server processes may share one PostgreSQL database (accounts, tokens, the lobby
and the ledger); each table is hosted by exactly one of them at a time. Ownership is a
**lease**: a row of ``server_leases`` naming the table, the owner (a process id that is
unique per process *incarnation*, see :func:`new_owner_id`), the owner's URL (what the
lobby tells a client to connect to), when the lease expires, when it was taken and an
**epoch** that goes up by one every time the table changes owner. The table lives in the
server's own SQLAlchemy metadata, created with ``create_all`` (as
:mod:`croupier.server.accounts` does; the store's Alembic schema is left alone).

The holder renews its leases every :attr:`Leases.renew_interval` (a third of the ttl); a
process that dies stops renewing, its leases expire, and another process takes them
over with :meth:`Leases.acquire`. Taking a lease is one conditional ``UPDATE ... WHERE
expires_at <= now OR owner = me`` (then an ``INSERT`` for a table never leased before;
a unique-key clash means someone else won), so two processes racing never both win.

**Fencing.** A process that was paused past its ttl (a long GC pause, a stalled VM, a
network partition) may still believe it holds a table after another process took it
over. Every write a table makes must therefore run :meth:`Leases.verify_held` with the
epoch it acquired, *inside the same transaction as the write*: on PostgreSQL it reads the
lease row ``FOR SHARE``, so a takeover waits for the write to commit (and then sees it),
and a write after a takeover sees the new owner and raises :class:`LeaseLostError`
(roll back, stop the table). On SQLite the write transaction must be ``BEGIN
IMMEDIATE`` (the store's write transactions are), which serializes it with any takeover.

**Clocks.** By default the time is the *database's* clock on PostgreSQL
(``clock_timestamp()``, read in the same transaction as the update), so the app hosts'
clocks may disagree by any amount; on SQLite (one host) it is the process's UTC clock. The
holder also keeps a local deadline from :func:`time.monotonic`, started *before* the
database time is read, so :meth:`Leases.held` drops a table no later than the database
considers the lease expired (assuming the two clocks run at the same rate, which NTP and
the ttl's slack cover: a 10 s ttl renewed every 3.3 s tolerates ~6 s of stall). An
injected ``clock`` replaces both (the tests move it by hand).

>>> from sqlalchemy import create_engine
>>> engine = create_engine("sqlite://")
>>> now = [datetime(2030, 1, 1, tzinfo=UTC)]
>>> ann = Leases(engine, "ann-1", "http://ann:8000", clock=lambda: now[0])
>>> bob = Leases(engine, "bob-1", "http://bob:8000", clock=lambda: now[0])
>>> ann.acquire("main"), bob.acquire("main")
(True, False)
>>> bob.holders()["main"].url
'http://ann:8000'
>>> now[0] += LEASE_TTL                                  # ann stopped renewing
>>> bob.acquire("main"), bob.epoch("main")
(True, 2)
>>> ann.renew()                                          # ann must stop the table now
['main']
>>> ann.verify_held("main", 1)
Traceback (most recent call last):
...
croupier.server.leases.LeaseLostError: table 'main': lease lost (held by 'bob-1' at epoch 2, not 'ann-1' at epoch 1)
"""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import (
    Connection,
    DateTime,
    Engine,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    case,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from croupier.errors import CroupierError
from croupier.server.fences import Fence
from croupier.store.connect import store_errors
from croupier.store.errors import StoreError

__all__ = [
    "LEASE_TTL",
    "LeaseInfo",
    "LeaseLostError",
    "LeaseRow",
    "Leases",
    "new_owner_id",
]

LEASE_TTL = timedelta(seconds=10)
"""How long a lease lasts unless renewed (renewed every third of it by default)."""

_RELEASED = datetime(1970, 1, 1, tzinfo=UTC)
"""The expiry a released lease is given: long past (the row, and its epoch, stay)."""


class LeaseLostError(CroupierError):
    """The table's lease is no longer ours (or not at the epoch we hold): stop the table.

    >>> str(LeaseLostError("table 't': lease lost"))
    "table 't': lease lost"
    """


class _RaceLostError(StoreError):
    """Another process inserted the lease row first (a unique-key clash)."""


class _Base(DeclarativeBase):
    metadata = MetaData()


class LeaseRow(_Base):
    """One table's lease: who hosts it, where, until when, and its epoch.

    >>> LeaseRow.__tablename__
    'server_leases'
    """

    __tablename__ = "server_leases"
    table_name: Mapped[str] = mapped_column(String(100), primary_key=True)
    owner: Mapped[str] = mapped_column(String(200))
    url: Mapped[str] = mapped_column(String(500))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    acquired_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    epoch: Mapped[int] = mapped_column(Integer)


_LEASES = cast(Table, LeaseRow.__table__)


@dataclass(frozen=True)
class LeaseInfo:
    """A lease as read from the database (or as its holder last wrote it).

    >>> info = LeaseInfo("t", "p1", "http://a", datetime(2030, 1, 1, tzinfo=UTC),
    ...                  datetime(2029, 12, 31, tzinfo=UTC), 3)
    >>> info.live(datetime(2029, 12, 31, 12, tzinfo=UTC)), info.live(info.expires_at)
    (True, False)
    """

    table: str
    """The table's name."""
    owner: str
    """The holding process (see :func:`new_owner_id`)."""
    url: str
    """Where the holder serves the table (the lobby's ``host``)."""
    expires_at: datetime
    """When the lease runs out unless renewed (UTC)."""
    acquired_at: datetime
    """When the current owner took it (UTC)."""
    epoch: int
    """The fencing token: one more every time the table changes owner."""

    def live(self, now: datetime) -> bool:
        """Whether the lease still holds at ``now``."""
        return self.expires_at > now


@dataclass
class _Held:
    info: LeaseInfo
    deadline: float  # time.monotonic() by which the database's expiry has surely passed


def new_owner_id() -> str:
    """A fresh owner id for this process: host, pid and random bits, so a restarted
    process never passes for its dead predecessor.

    >>> new_owner_id().count(":"), new_owner_id() != new_owner_id()
    (2, True)
    """
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def _utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes (and stores them without a zone): they are UTC."""
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def _info(row: LeaseRow) -> LeaseInfo:
    return LeaseInfo(
        row.table_name, row.owner, row.url, _utc(row.expires_at), _utc(row.acquired_at), row.epoch
    )


class Leases:
    """This process's leases over ``engine`` (the table is made if missing): it is
    ``owner`` (unique per process incarnation, e.g. :func:`new_owner_id`) serving at
    ``url``. A lease lasts ``ttl``; ``clock`` (UTC datetimes) replaces the database's
    clock and the monotonic deadline, for tests.

    >>> from sqlalchemy import create_engine
    >>> now = [datetime(2030, 1, 1, tzinfo=UTC)]
    >>> leases = Leases(create_engine("sqlite://"), "p1", "http://p1", clock=lambda: now[0])
    >>> leases.acquire("a"), leases.acquire("b"), sorted(leases.held())
    (True, True, ['a', 'b'])
    >>> leases.renew_interval
    datetime.timedelta(seconds=3, microseconds=333333)
    >>> leases.release("a"); sorted(leases.held()), sorted(leases.holders())
    (['b'], ['b'])
    """

    def __init__(
        self,
        engine: Engine,
        owner: str,
        url: str,
        *,
        ttl: timedelta = LEASE_TTL,
        clock: Callable[[], datetime] | None = None,
        url_is_exclusive: bool = False,
    ) -> None:
        if ttl <= timedelta(0):
            raise ValueError(f"a lease's ttl must be positive, not {ttl}")
        self._engine = engine
        self._fence_query = (
            select(_LEASES.c.table_name, _LEASES.c.owner, _LEASES.c.epoch)
            .where(_LEASES.c.table_name.in_(bindparam("names", expanding=True)))
            .order_by(_LEASES.c.table_name)  # rows locked in one order by everyone
            .with_for_update(read=True)
        )
        """The fence's query, built once (every journal write runs it)."""
        self.owner = owner
        """This process's owner id."""
        self.url = url
        """Where this process serves its tables."""
        self.ttl = ttl
        """How long a lease lasts unless renewed."""
        self._clock = clock
        self.url_is_exclusive = url_is_exclusive
        """This process holds ``url``'s listening socket (``croupier serve`` binds it
        before it takes any lease): a lease held under the same URL by another owner is a
        dead earlier run of this server (two live processes cannot listen on one address),
        so :meth:`acquire` takes it at once instead of waiting for it to expire."""
        self._held: dict[str, _Held] = {}
        _Base.metadata.create_all(engine)

    @property
    def renew_interval(self) -> timedelta:
        """How often to call :meth:`renew`: a third of the ttl (two renewals may fail
        before a lease runs out)."""
        return self.ttl / 3

    # ------------------------------------------------------------------ time
    def _now(self, connection: Connection) -> datetime:
        if self._clock is not None:
            return _utc(self._clock())
        if connection.dialect.name == "postgresql":
            moment: datetime = connection.execute(select(func.clock_timestamp())).scalar_one()
            return _utc(moment)
        return datetime.now(UTC)

    def now(self) -> datetime:
        """The time leases are judged by (the database's clock on PostgreSQL).

        >>> from sqlalchemy import create_engine
        >>> Leases(create_engine("sqlite://"), "p", "u").now().tzinfo
        datetime.timezone.utc
        """
        with self._engine.connect() as connection:
            return self._now(connection)

    def _alive(self, held: _Held) -> bool:
        """Whether a lease we wrote is surely still live (by the injected clock, else by
        the monotonic deadline)."""
        if self._clock is not None:
            return _utc(self._clock()) < held.info.expires_at
        return time.monotonic() < held.deadline

    @contextmanager
    def _write(self, what: str) -> Iterator[Connection]:
        """One write transaction; a unique-key clash is :class:`_RaceLostError` (rolled back),
        any other database error a store error."""
        with store_errors(what):
            try:
                with self._engine.connect() as connection:
                    connection.execution_options(croupier_write=True)  # BEGIN IMMEDIATE
                    with connection.begin():
                        yield connection
            except IntegrityError:
                raise _RaceLostError(f"{what}: another process took it first") from None

    # ------------------------------------------------------------------ taking
    def acquire(self, table: str) -> bool:
        """Take ``table``'s lease if nobody holds it, it has expired, or it is already
        ours (then it is extended); whether we hold it now. Of any number of processes
        racing for one table, at most one wins. The epoch goes up when the owner changes.

        >>> from sqlalchemy import create_engine
        >>> engine = create_engine("sqlite://")
        >>> Leases(engine, "p1", "u1").acquire("t"), Leases(engine, "p2", "u2").acquire("t")
        (True, False)
        """
        started = time.monotonic()
        mine = _LEASES.c.owner == self.owner
        try:
            with self._write(f"cannot take the lease of table {table!r}") as db:
                now = self._now(db)
                expires = now + self.ttl
                free = or_(_LEASES.c.expires_at <= now, mine)
                if self.url_is_exclusive:
                    free = or_(free, _LEASES.c.url == self.url)
                taken = db.execute(
                    update(_LEASES)
                    .where(_LEASES.c.table_name == table, free)
                    .values(
                        owner=self.owner,
                        url=self.url,
                        expires_at=expires,
                        epoch=case((mine, _LEASES.c.epoch), else_=_LEASES.c.epoch + 1),
                        acquired_at=case((mine, _LEASES.c.acquired_at), else_=now),
                    )
                )
                if taken.rowcount == 0:  # held by someone else, or a new table
                    exists = select(_LEASES.c.epoch).where(_LEASES.c.table_name == table)
                    if db.execute(exists).first() is not None:
                        self._held.pop(table, None)
                        return False
                    db.execute(
                        insert(_LEASES).values(
                            table_name=table,
                            owner=self.owner,
                            url=self.url,
                            expires_at=expires,
                            acquired_at=now,
                            epoch=1,
                        )
                    )
                epoch, acquired = db.execute(
                    select(_LEASES.c.epoch, _LEASES.c.acquired_at).where(
                        _LEASES.c.table_name == table
                    )
                ).one()
        except _RaceLostError:  # another process inserted the row first: it won
            self._held.pop(table, None)
            return False
        info = LeaseInfo(table, self.owner, self.url, expires, _utc(acquired), epoch)
        self._held[table] = _Held(info, started + self.ttl.total_seconds())
        return True

    def renew(self) -> list[str]:
        """Extend every lease we hold; the tables we have **lost** (another process took
        them after ours expired): the caller must stop those tables at once. A database
        error raises :class:`~croupier.store.errors.StoreError` and renews nothing (the
        leases then run out by themselves: see :meth:`held`).

        >>> from sqlalchemy import create_engine
        >>> leases = Leases(create_engine("sqlite://"), "p1", "u1")
        >>> leases.acquire("t"), leases.renew()
        (True, [])
        """
        if not self._held:
            return []
        started = time.monotonic()
        lost: list[str] = []
        with self._write("cannot renew the table leases") as db:
            now = self._now(db)
            expires = now + self.ttl
            renewed: list[str] = []
            for table, held in sorted(self._held.items()):
                done = db.execute(
                    update(_LEASES)
                    .where(
                        _LEASES.c.table_name == table,
                        _LEASES.c.owner == self.owner,
                        _LEASES.c.epoch == held.info.epoch,
                    )
                    .values(expires_at=expires)
                )
                (renewed if done.rowcount == 1 else lost).append(table)
        for table in lost:
            del self._held[table]
        for table in renewed:
            held = self._held[table]
            held.info = LeaseInfo(
                table, self.owner, self.url, expires, held.info.acquired_at, held.info.epoch
            )
            held.deadline = started + self.ttl.total_seconds()
        return lost

    def release(self, table: str) -> None:
        """Give up ``table``'s lease (if ours): it expires at once, so another process may
        take it; the row and its epoch stay. Nothing happens for a table we do not hold."""
        self._release([table])

    def release_all(self) -> None:
        """Give up every lease we hold (on a clean shutdown, after the tables stopped)."""
        self._release(list(self._held))

    def _release(self, tables: Iterable[str]) -> None:
        held = [(t, self._held[t].info.epoch) for t in tables if t in self._held]
        if not held:
            return
        with self._write("cannot release the table leases") as db:
            for table, epoch in held:
                db.execute(
                    update(_LEASES)
                    .where(
                        _LEASES.c.table_name == table,
                        _LEASES.c.owner == self.owner,
                        _LEASES.c.epoch == epoch,
                    )
                    .values(expires_at=_RELEASED)
                )
        for table, _epoch in held:
            del self._held[table]

    # ------------------------------------------------------------------ reading
    def held(self) -> set[str]:
        """The tables we hold, as far as this process knows: acquired or renewed, and not
        past the lease's ttl since (by the monotonic clock). A table missing here must not
        accept actions; :meth:`verify_held` is the check that counts."""
        return {t for t, h in self._held.items() if self._alive(h)}

    def lease(self, table: str) -> LeaseInfo:
        """Our lease of ``table`` as we last wrote it; :class:`LeaseLostError` if we do not
        hold it (never had it, released it, lost it or let it run out).

        >>> from sqlalchemy import create_engine
        >>> Leases(create_engine("sqlite://"), "p1", "u1").lease("t")
        Traceback (most recent call last):
        ...
        croupier.server.leases.LeaseLostError: table 't': not held by 'p1'
        """
        held = self._held.get(table)
        if held is None or not self._alive(held):
            raise LeaseLostError(f"table {table!r}: not held by {self.owner!r}")
        return held.info

    def epoch(self, table: str) -> int:
        """The epoch (fencing token) of our lease of ``table`` (see :meth:`lease`)."""
        return self.lease(table).epoch

    def holders(self, *, include_expired: bool = False) -> dict[str, LeaseInfo]:
        """Every table's live lease, by table (for the lobby: ``url`` is the host); with
        ``include_expired``, also the leases that ran out or were released."""
        with store_errors("cannot read the table leases"), Session(self._engine) as db:
            now = self._now(db.connection())
            rows = db.scalars(select(LeaseRow).order_by(LeaseRow.table_name)).all()
            infos = [_info(row) for row in rows]
        return {i.table: i for i in infos if include_expired or i.live(now)}

    def expired(self, tables: Iterable[str]) -> list[str]:
        """Which of ``tables`` no process holds (never leased, expired or released): the
        ones to try to :meth:`acquire` (take over), in order.

        >>> from sqlalchemy import create_engine
        >>> engine = create_engine("sqlite://")
        >>> _ = Leases(engine, "p1", "u1").acquire("a")
        >>> Leases(engine, "p2", "u2").expired(["a", "b"])
        ['b']
        """
        live = self.holders()
        return [t for t in tables if t not in live]

    # ------------------------------------------------------------------ fencing
    def verify_held(self, table: str, epoch: int, db: Session | Connection | None = None) -> None:
        """Refuse a write to ``table`` unless its lease is still ours at ``epoch``: raise
        :class:`LeaseLostError` otherwise. Run it in the **same transaction** as the
        write (pass its session or connection): on PostgreSQL the lease row is read
        ``FOR SHARE``, so a takeover cannot slip in before the commit. Without ``db``, it
        checks in a transaction of its own (an answer that may be stale at once).

        >>> from sqlalchemy import create_engine
        >>> leases = Leases(create_engine("sqlite://"), "p1", "u1")
        >>> leases.acquire("t")
        True
        >>> leases.verify_held("t", leases.epoch("t"))
        >>> leases.verify_held("t", 7)
        Traceback (most recent call last):
        ...
        croupier.server.leases.LeaseLostError: table 't': lease lost (held by 'p1' at epoch 1, not 'p1' at epoch 7)
        """
        self.verify_all({table: epoch}, db)

    def verify_all(self, epochs: dict[str, int], db: Session | Connection | None = None) -> None:
        """:meth:`verify_held` for several tables (name → epoch) with one query: a writer
        that commits many tables' writes in one transaction fences them all at once.

        >>> from sqlalchemy import create_engine
        >>> leases = Leases(create_engine("sqlite://"), "p1", "u1")
        >>> leases.acquire("a"), leases.acquire("b")
        (True, True)
        >>> leases.verify_all({"a": 1, "b": 1})
        >>> leases.verify_all({"a": 1, "c": 1})
        Traceback (most recent call last):
        ...
        croupier.server.leases.LeaseLostError: table 'c': lease lost (no lease row)
        """
        if not epochs:
            return
        query = self._fence_query
        names = {"names": sorted(epochs)}
        if db is None:
            with self._write(f"cannot check the leases of {sorted(epochs)}") as connection:
                rows = connection.execute(query, names).all()
        else:
            rows = db.execute(query, names).all()
        self.check_rows(epochs, rows)

    def check_rows(self, epochs: dict[str, int], rows: Iterable[Sequence[Any]]) -> None:
        """The test of :meth:`verify_all` on the lease rows read (name, owner, epoch)."""
        found = {name: (owner, current) for name, owner, current in rows}
        for table, epoch in sorted(epochs.items()):
            if table not in found:
                raise LeaseLostError(f"table {table!r}: lease lost (no lease row)")
            owner, current = found[table]
            if owner != self.owner or current != epoch:
                raise LeaseLostError(
                    f"table {table!r}: lease lost (held by {owner!r} at epoch {current}, "
                    f"not {self.owner!r} at epoch {epoch})"
                )

    def fence(self, table: str) -> Fence:
        """A check for the write transactions of ``table`` bound to our current epoch:
        ``fence(table)(session)`` is ``verify_held(table, epoch, session)``. Take it when
        the table starts (after :meth:`acquire`); it keeps refusing after a takeover even
        if this process takes the table back later (a new epoch needs a new runner).

        >>> from sqlalchemy import create_engine
        >>> engine = create_engine("sqlite://")
        >>> leases = Leases(engine, "p1", "u1")
        >>> leases.acquire("t")
        True
        >>> check = leases.fence("t")
        >>> with Session(engine) as db, db.begin():
        ...     check(db)                      # ... then the table's own writes
        """
        return Fence(self, table, self.epoch(table))
