"""Nothing is shown before it is committed: with the journal's group commit (on the
event loop, and in a worker thread), every view a table sends, to a listener watching
from the start or to one that joins at any moment (a reconnection in the middle of an
action's commit), holds only events another connection can already read from the
journal. Poker and blackjack tables of bots, a real SQLite store."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import Engine, create_engine, text

from croupier.server.accounts import Account
from croupier.server.config import TableConfig
from croupier.server.journal import GroupCommit, Journal
from croupier.server.protocol import ViewMessage, read_server_message
from croupier.server.runner import RunnerBase
from croupier.server.tables import make_runner
from croupier.store import Store

_JOURNALED = text(
    "SELECT (SELECT COUNT(*) FROM server_live_events WHERE live_id = h.id)"
    " FROM server_live_hands h WHERE h.table_name = :table AND h.number = :number"
)
"""The events the journal holds of one hand, read in one statement (one snapshot)."""


class Recorder:
    """A spectator that checks every view it gets against the journal: (events shown,
    events journaled; None: the hand is out of the journal, recorded)."""

    account: Account | None = None

    def __init__(
        self, runner: RunnerBase, reader: Engine, seen: list[tuple[int, int | None, bool]]
    ) -> None:
        self.runner, self.reader, self.seen = runner, reader, seen

    def send(self, message: Any) -> None:
        if not isinstance(message, str):
            return
        view = read_server_message(message)
        if not isinstance(view, ViewMessage):
            return
        shown = view.events_from + len(view.view["events"])
        with self.reader.connect() as connection:
            journaled = connection.execute(
                _JOURNALED, {"table": self.runner.name, "number": view.hand}
            ).scalar()
        self.seen.append((shown, journaled, bool(view.view["complete"])))


@pytest.mark.parametrize("inline", [True, False], ids=["on-the-loop", "in-a-thread"])
def test_no_view_shows_an_event_the_journal_does_not_hold(tmp_path: Path, inline: bool) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    store = Store.open(url)
    journal = Journal(store.engine)
    reader = create_engine(url)
    seen: list[tuple[int, int | None, bool]] = []
    alone = {"bot_delay": 0, "play_without_humans": True}
    configs = [
        TableConfig.from_dict({"name": "p", "bots": 3, "seed": 1, **alone}),
        TableConfig.from_dict({"name": "b", "game": "blackjack", "bots": 2, "seed": 2, **alone}),
    ]
    rng = random.Random(7)

    async def main() -> None:
        writer = GroupCommit(journal, inline=inline)
        runners = [make_runner(c, store, journal) for c in configs]
        for runner in runners:
            runner.writer = writer
            runner.inline_writes = inline
            runner.watch(Recorder(runner, reader, seen))
        tasks = [asyncio.create_task(r.run()) for r in runners]
        joined: list[Recorder] = []
        while min(len(r.hand_ids) for r in runners) < 4:
            await asyncio.sleep(0)  # at any point of a hand: mid-commit too
            runner = rng.choice(runners)
            late = Recorder(runner, reader, seen)
            runner.watch(late)
            joined.append(late)
            if len(joined) > 8:
                old = joined.pop(0)
                old.runner.unwatch(old)
            for task in tasks:
                if task.done():
                    task.result()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())
    assert len(seen) > 100
    ahead = [(shown, held) for shown, held, _ in seen if held is not None and shown > held]
    assert ahead == []
    # out of the journal: only a finished hand, recorded (never one not yet journaled)
    assert all(complete for _, held, complete in seen if held is None)
