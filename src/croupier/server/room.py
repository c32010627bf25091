"""The card room of one server process: which tables it hosts, their tasks, the lobby.

Every process publishes the tables it was given (``--tables``, or the admin API) to the
shared **catalogue** (``server_catalogue``: a table's name and settings) and hosts those
it can take the **lease** of (:mod:`croupier.server.leases`). Every renewal interval it
renews its leases (a table whose lease was lost is stopped at once) and takes over any
catalogued table whose lease has expired — a process that died — building its runner
from the store, which resumes or voids the hand the dead process had in play. Every
write a table makes runs the lease fence in its transaction, so a process that lost a
table can write nothing more for it. The lobby lists the whole catalogue, each table with
the URL of the process hosting it.

>>> import asyncio
>>> from croupier.store import Store
>>> async def main():
...     room = Room(Store.open("sqlite:///:memory:"), [TableConfig("t1", bots=2)],
...                 url="http://127.0.0.1:8000")
...     await room.start()
...     lobby = room.lobby()
...     await room.stop()
...     return [(t.name, t.host, t.players) for t in lobby]
>>> asyncio.run(main())
[('t1', 'http://127.0.0.1:8000', ['bot-1', 'bot-2'])]
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import String, Text, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from croupier.errors import CroupierError
from croupier.server.journal import GroupCommit, Journal, write_session
from croupier.server.leases import LEASE_TTL, Leases, new_owner_id
from croupier.server.protocol import ErrorMessage, TableInfo
from croupier.server.runner import ActionStats, RunnerBase
from croupier.server.tables import TableConfig, make_runner
from croupier.store import Store

__all__ = ["CatalogueRow", "Room"]

LOG = logging.getLogger("croupier.server")


class _Base(DeclarativeBase):
    pass


class CatalogueRow(_Base):
    """A table of the card room, hosted by whichever process holds its lease.

    >>> CatalogueRow.__tablename__
    'server_catalogue'
    """

    __tablename__ = "server_catalogue"
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    config_json: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    """``open``, or ``closed`` (by the admin API: nobody takes it over)."""


def _config_json(config: TableConfig) -> str:
    return json.dumps(dataclasses.asdict(config), sort_keys=True)


class Room:
    """The tables this process hosts, over ``store`` (see the module docstring).

    ``url`` is where clients reach this process (the lobby shows it); ``ttl`` the lease
    time (a dead process's tables are taken over within about that long). With
    ``url_is_exclusive`` (the process already listens at ``url``), leases an earlier run
    at the same URL left are taken at once: a restarted server gets its tables back.
    """

    def __init__(
        self,
        store: Store,
        tables: Sequence[TableConfig],
        *,
        url: str,
        ttl: timedelta = LEASE_TTL,
        stats: ActionStats | None = None,
        url_is_exclusive: bool = False,
    ) -> None:
        self.store = store
        self.url = url
        self.journal = Journal(store.engine)
        self.writer = GroupCommit(self.journal)
        """Every hosted table's journal appends, committed in batches."""
        self.stats = stats if stats is not None else ActionStats()
        self.leases = Leases(
            store.engine, new_owner_id(), url, ttl=ttl, url_is_exclusive=url_is_exclusive
        )
        _Base.metadata.create_all(store.engine)
        self.runners: dict[str, RunnerBase] = {}
        """The tables hosted here, by name."""
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self._stops: dict[str, asyncio.Event] = {}
        self._keeper: asyncio.Task[None] | None = None
        self._own = list(tables)
        self.taken_over: list[str] = []
        """Tables this process took over from a dead one."""

    # ------------------------------------------------------------------ catalogue
    def publish(self, config: TableConfig) -> None:
        """Add (or update) ``config`` in the shared catalogue."""
        with write_session(self.store.engine) as db:
            row = db.get(CatalogueRow, config.name)
            if row is None:
                db.add(
                    CatalogueRow(name=config.name, config_json=_config_json(config), status="open")
                )
            else:
                row.config_json, row.status = _config_json(config), "open"

    def catalogue(self) -> dict[str, TableConfig]:
        """Every open table of the room, by name."""
        with Session(self.store.engine) as db:
            rows = db.scalars(select(CatalogueRow).where(CatalogueRow.status == "open"))
            return {r.name: TableConfig.from_dict(json.loads(r.config_json)) for r in rows}

    # ------------------------------------------------------------------ hosting
    def host(self, config: TableConfig) -> bool:
        """Take ``config``'s lease and start its task here; False if another process
        holds it."""
        if config.name in self.runners or not self.leases.acquire(config.name):
            return False
        try:
            fence = self.leases.fence(config.name)
            runner = make_runner(config, self.store, self.journal, self.stats, fence)
        except BaseException:
            self.leases.release(config.name)
            raise
        runner.writer = self.writer
        self.runners[config.name] = runner
        self._stops[config.name] = asyncio.Event()
        self.tasks[config.name] = asyncio.create_task(
            runner.run(self._stops[config.name]), name=f"table {config.name}"
        )
        return True

    def _drop(self, name: str, why: str) -> None:
        """Stop hosting ``name`` at once (its lease is gone, or it is closed)."""
        task = self.tasks.pop(name, None)
        if task is not None:
            task.cancel()
        runner = self.runners.pop(name, None)
        self._stops.pop(name, None)
        if runner is not None:
            runner.broadcast(ErrorMessage(code="table_moved", message=f"table {name}: {why}"))
        LOG.warning("table %s dropped: %s", name, why)

    def _retire_orphans(self) -> None:
        """When no other process is alive, the room is this process's tables: catalogued
        tables of an earlier run that nobody hosts are closed (not taken over)."""
        live = self.leases.holders()
        if live:
            return
        own = {c.name for c in self._own}
        with write_session(self.store.engine) as db:
            for row in db.scalars(select(CatalogueRow).where(CatalogueRow.status == "open")):
                if row.name not in own:
                    row.status = "closed"

    async def start(self) -> None:
        """Publish this process's tables, host those it can, start the lease keeper."""
        await asyncio.to_thread(self._retire_orphans)
        for config in self._own:
            await asyncio.to_thread(self.publish, config)
        for config in self._own:
            self.host(config)
        self._keeper = asyncio.create_task(self._keep(), name="lease keeper")

    async def stop(self) -> None:
        """Cancel every table task and give the leases back."""
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        for task in self.tasks.values():
            task.cancel()
        for task in list(self.tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks.clear()
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.leases.release_all)

    async def _keep(self) -> None:
        """Renew the leases; stop lost tables; take over expired ones."""
        interval = self.leases.renew_interval.total_seconds()
        while True:
            await asyncio.sleep(interval)
            try:
                await self.keep_once()
            except Exception:  # the database may be down for a while: keep trying
                LOG.exception("lease renewal failed")

    async def keep_once(self) -> None:
        """One round of the lease keeper."""
        for name in await asyncio.to_thread(self.leases.renew):
            self._drop(name, "another server took it over")
        held = self.leases.held()
        for name in [n for n in self.runners if n not in held]:
            self._drop(name, "its lease ran out")
        catalogue = await asyncio.to_thread(self.catalogue)
        for name in await asyncio.to_thread(self.leases.expired, list(catalogue)):
            if name not in self.runners and self.host(catalogue[name]):
                self.taken_over.append(name)
                LOG.warning("took table %s over", name)
        # a table whose task stopped with an error stays as it is: /readyz reports it

    # ------------------------------------------------------------------ admin
    def open_table(self, config: TableConfig) -> TableInfo:
        """Add a table to the room and host it here."""
        if config.name in self.catalogue():
            raise CroupierError(f"a table {config.name} is open already")
        self.publish(config)
        if not self.host(config):
            raise CroupierError(f"table {config.name} is held by another server")
        return self.runners[config.name].info()

    def close_table(self, name: str) -> None:
        """Close a table hosted here after the hand in play (nobody takes it over)."""
        if name not in self.runners:
            raise CroupierError(f"no table {name!r} is hosted here")
        with write_session(self.store.engine) as db:
            row = db.get(CatalogueRow, name)
            if row is not None:
                row.status = "closed"
        self._stops[name].set()

    # ------------------------------------------------------------------ lobby
    def lobby(self) -> list[TableInfo]:
        """Every table of the room: those hosted here in full, the others with their host."""
        holders = self.leases.holders()
        infos = []
        catalogue = self.catalogue()
        first = [c.name for c in self._own if c.name in catalogue]
        order = first + sorted(set(catalogue) - set(first))
        for name, config in ((n, catalogue[n]) for n in order):
            runner = self.runners.get(name)
            lease = holders.get(name)
            host = lease.url if lease is not None else None
            if host == self.url and runner is None:
                host = None  # being taken over here right now: not ready yet
            if runner is not None:
                infos.append(runner.info().model_copy(update={"host": self.url}))
                continue
            infos.append(
                TableInfo(
                    name=name,
                    game=config.game,
                    structure=config.structure,
                    blinds=list(config.blinds),
                    seats=config.seats,
                    players=[],
                    free_seats=[],
                    buy_in=config.buy_in_chips(),
                    hand=0,
                    kind="blackjack" if config.kind == "blackjack" else "poker",
                    time_bank=config.time_bank,
                    host=host,
                )
            )
        return infos
