"""What every table task shares, poker or blackjack: listeners, the journal, the time bank.

A runner (:class:`~croupier.server.tables.TableRunner` for poker,
:class:`~croupier.server.blackjack_table.BlackjackRunner` for blackjack) deals hand after
hand as one asyncio task. The rule every runner keeps: **an accepted action is committed
to the journal before anyone is told** — :meth:`RunnerBase.commit` writes the hand's new
events in one transaction, and only then are the views sent. A person's action is taken
only while the runner waits for that person's seat (:meth:`RunnerBase.expecting`), so an
action can never slip in between a commit and its broadcast.

>>> ActionStats().summary()["count"]
0
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec, Protocol, TypeVar

from pydantic import BaseModel

from croupier.errors import CroupierError
from croupier.fairness import DeckCommitment, DeckReveal
from croupier.server.accounts import Account
from croupier.server.journal import GroupCommit, Journal, writes_inline
from croupier.server.names import is_bot_like
from croupier.server.outgoing import ViewFrame, message_text
from croupier.server.protocol import CommitmentMessage, ErrorMessage, HandVoidedMessage, TableInfo
from croupier.store import SessionInfo, Store

_P = ParamSpec("_P")
_R = TypeVar("_R")

__all__ = ["ActionStats", "Listener", "RunnerBase", "wait_for_set"]


class Listener(Protocol):
    """Someone at a table: a logged-in account (``account``) or a spectator (``account``
    None) whose ``send`` queues a message (it never blocks the table).

    >>> Listener.__name__
    'Listener'
    """

    account: Account | None

    def send(self, message: Any) -> None:
        """Queue a message for the client: a pydantic model, or the JSON text of one
        (a broadcast's messages are encoded once for every listener)."""


class ActionStats:
    """Action latencies (a person's action received → its views queued for every
    listener), hands dealt and actions refused, for ``GET /api/stats``.

    >>> stats = ActionStats(); stats.record(0.002); stats.record(0.004)
    >>> stats.summary()["count"], stats.summary()["max"]
    (2, 4.0)
    """

    KEEP = 200_000
    """The latest latencies kept (older ones are dropped)."""

    def __init__(self) -> None:
        self.latencies: collections.deque[float] = collections.deque(maxlen=self.KEEP)
        self.actions = 0
        self.hands = 0
        self.refused = 0

    def record(self, seconds: float) -> None:
        """One action's latency."""
        self.actions += 1
        self.latencies.append(seconds)

    def summary(self, since: int = 0) -> dict[str, Any]:
        """Count, p50, p99 and max in milliseconds, of the actions from the ``since``-th
        on (0: all; a benchmark passes the count it read when its window started).

        >>> stats = ActionStats()
        >>> for ms in (50, 1, 2): stats.record(ms / 1000)
        >>> stats.summary(since=1)["max"]
        2.0
        """
        dropped = self.actions - len(self.latencies)  # the oldest, no longer kept
        data = sorted(itertools.islice(self.latencies, max(0, since - dropped), None))
        if not data:
            return {"count": 0, "p50": None, "p99": None, "max": None}

        def pick(q: float) -> float:
            return round(1000 * data[min(len(data) - 1, int(q * len(data)))], 3)

        return {"count": len(data), "p50": pick(0.5), "p99": pick(0.99), "max": pick(1.0)}


async def wait_for_set(event: asyncio.Event, timeout: float) -> bool:
    """Wait until ``event`` is set (True) or ``timeout`` seconds pass (False):
    ``asyncio.timeout`` cancels the wait itself, and no task is made for it.

    >>> async def main():
    ...     event = asyncio.Event()
    ...     asyncio.get_running_loop().call_soon(event.set)
    ...     woken = await wait_for_set(event, 5)
    ...     event.clear()
    ...     return woken, await wait_for_set(event, 0.01)
    >>> asyncio.run(main())
    (True, False)
    """
    try:
        async with asyncio.timeout(timeout):
            await event.wait()
    except TimeoutError:
        return False
    return True


class RunnerBase:
    """The shared part of a table task; subclasses deal and play the hands.

    ``kind`` is ``poker`` or ``blackjack``; the subclass sets :attr:`session` and calls
    :meth:`open_hand`, :meth:`commit` and :meth:`finish` around each hand.
    """

    kind = "poker"

    def __init__(
        self,
        name: str,
        store: Store,
        journal: Journal,
        *,
        time_bank: float,
        on_crash: str,
        stats: ActionStats | None = None,
        guard: Callable[[Any], object] | None = None,
    ) -> None:
        if on_crash not in ("resume", "void"):
            raise CroupierError(f"on_crash is 'resume' or 'void', not {on_crash!r}")
        self.name = name
        self.store = store
        self.journal = journal
        self.time_bank = time_bank
        self.on_crash = on_crash
        self.stats = stats if stats is not None else ActionStats()
        self.listeners: set[Listener] = set()
        """Everyone watching or seated."""
        self.hand_ids: list[int] = []
        """The store ids of the hands recorded by this process, in order."""
        self.voided: list[int] = []
        """The hand numbers voided after a crash by this process."""
        self.resumed: list[int] = []
        """The hand numbers resumed after a crash by this process."""
        self.error: BaseException | None = None
        """What stopped the task, if anything did."""
        self.session: SessionInfo | None = None
        self.live_id: int | None = None
        """The journal id of the hand in play."""
        self.commitment: DeckCommitment | None = None
        self.writer: GroupCommit | None = None
        """The room's single journal writer (None: commit on its own)."""
        self.inline_writes = writes_inline(store.engine)
        """Run the table's store writes on the event loop (SQLite), not in a worker thread
        (:func:`~croupier.server.journal.writes_inline`)."""
        self.guard = guard
        """Run inside every write transaction of the table (the lease fence: it raises
        when another process took the table over), from the restore on."""
        self._logged = 0
        self._received: float | None = None
        self._expecting: Any = None
        self._deadline: float | None = None
        self._acted = asyncio.Event()
        self._changed = asyncio.Event()
        self._announcement: CommitmentMessage | None = None
        self._sent: dict[Listener, tuple[Any, tuple[Any, ...]]] = {}
        """Per listener, this hand: the viewer and the log its last view held (the next
        view carries only the events after it, unless a showdown uncovered earlier ones)."""
        self.people: dict[int, str] = {}
        """Account id → the name the account plays under here (its seat's player in the
        engine and the store), for every account that took a seat here. An entry counts
        only while that name holds a person's seat (:meth:`holds`): a bot's seat is
        nobody's, and a seat given up leaves a stale entry that matches nothing."""

    # ------------------------------------------------------------------ sessions
    def reopen_session(self, rules: Any, seed: int | None) -> SessionInfo:
        """The table's open session in the store (a restart carries on with it), or a new
        one."""
        fingerprint = rules.fingerprint
        for info in reversed(self.store.sessions()):
            if info.label == self.name and info.ended_at is None:
                if info.rules_fingerprint == fingerprint:
                    return info
                break
        return self.store.start_session(rules, seed=seed, label=self.name)

    # ------------------------------------------------------------------ the journal
    def open_hand(
        self,
        number: int,
        commitment: DeckCommitment,
        reveal: DeckReveal,
        state: dict[str, Any],
        events: Sequence[dict[str, Any]],
    ) -> None:
        """Journal a newly dealt hand (before its first card is shown)."""
        assert self.session is not None
        self.live_id = self.journal.open_hand(
            self.name,
            session=self.session.id,
            number=number,
            kind=self.kind,
            commitment=commitment,
            reveal=reveal,
            state=state,
            events=events,
            guard=self.guard,
        )
        self.commitment = commitment
        self._logged = len(events)

    def adopt(self, live_id: int, logged: int, commitment: DeckCommitment) -> None:
        """Carry on with a journaled hand (a resume) whose first ``logged`` events are in."""
        self.live_id, self._logged, self.commitment = live_id, logged, commitment

    async def commit(
        self,
        events: Sequence[Any],
        encode: Callable[[Any], dict[str, Any]] | None = None,
        *,
        then: Callable[[], object] | None = None,
    ) -> None:
        """Write the hand's events not yet journaled (``events`` is the whole log so far:
        dicts, or engine events that ``encode`` makes dicts of, the new ones only), in one
        transaction; return once it is durable. ``then`` (what the table shows of it)
        runs the moment the events are durable: over SQLite from the group commit itself,
        not a turn of the event loop later when this task resumes; over PostgreSQL when
        the task resumes, so the writer's thread starts its next batch at once. It runs
        also when nothing was to be written."""
        first = self._logged
        new = [e if encode is None else encode(e) for e in events[first:]]

        def durable() -> None:
            self._logged = first + len(new)  # in, even if the showing fails
            if then is not None:
                then()

        if not new or self.live_id is None:
            durable()
            return
        writer = self.writer
        if writer is not None and writer.inline:
            await writer.append(self.live_id, first, new, self.guard, durable)
            return
        if writer is not None:
            await writer.append(self.live_id, first, new, self.guard)
        else:
            await self.in_store(self.journal.append, self.live_id, first, new, guard=self.guard)
        durable()

    def unjournaled(self) -> bool:
        """Whether the game in play holds events the journal does not have yet (an action
        applied, its commit not done): nothing of it may be shown before."""
        raise NotImplementedError

    async def in_store(self, work: Callable[_P, _R], /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        """``work(*args, **kwargs)``, a store call: at once on the event loop when
        :attr:`inline_writes`, else in a worker thread (the loop serves the others)."""
        if self.inline_writes:
            return work(*args, **kwargs)
        return await asyncio.to_thread(work, *args, **kwargs)

    def void_interrupted(self, live_id: int, number: int, reason: str) -> None:
        """Void a hand the journal holds; the stacks stay as the ledger has them."""
        self.journal.void(live_id, reason, self.guard)
        self.voided.append(number)
        self.broadcast(HandVoidedMessage(table=self.name, hand=number, reason=reason))

    def close_journal(self) -> Callable[[Any], None]:
        """The callback that deletes the hand's journal inside the store's transaction."""
        live_id, guard = self.live_id, self.guard

        def close(db: Any) -> None:
            if guard is not None:
                guard(db)
            if live_id is not None:
                Journal.close_in(db, live_id)

        return close

    # ------------------------------------------------------------------ listeners
    def broadcast(self, message: BaseModel) -> None:
        """Send ``message`` to everyone at the table (encoded once for them all)."""
        if not self.listeners:
            return
        text = message_text(message)
        for listener in list(self.listeners):
            listener.send(text)

    def broadcast_views(self) -> None:
        """Send every listener its own view, then count the latency of the action that
        caused it, if a person's action did. Nothing goes out before the hand's
        commitment. The views are written from one :class:`ViewFrame`."""
        if self._announcement is None:
            return
        frame = self.view_frame()
        if frame is not None:
            for listener in list(self.listeners):
                listener.send(self.view_message(listener, frame))
        if self._received is not None:
            self.stats.record(time.perf_counter() - self._received)
            self._received = None

    def show(self, game: Any) -> None:
        """After an action is in: start the clock of whom ``game`` (the hand or round in
        play) waits for next, then send everyone his view (so it shows the clock)."""
        self.clock_for(game)
        self.broadcast_views()

    def clock_for(self, game: Any) -> None:
        """Start the time bank of whom ``game`` waits for next, if a person."""
        raise NotImplementedError

    def view_frame(self) -> ViewFrame | None:
        """The parts every view of the hand in play shares now (None: nothing to show)."""
        raise NotImplementedError

    def seat_view(self, listener: Listener, frame: ViewFrame) -> tuple[Any, Any]:
        """Who ``listener`` sees the hand as (a seat, a player; None: a spectator) and the
        engine's view for him (``frame.shared`` for a spectator): his account's seat
        (:meth:`player`), never a seat a name alone would match."""
        raise NotImplementedError

    def view_message(self, listener: Listener, frame: ViewFrame) -> str:
        """The view message ``listener`` may have now, as JSON text. It holds only the
        events ``listener`` has not had yet in this hand (``events_from`` says where they
        start): all of them in his first view of the hand, or after a showdown uncovered
        cards in events he had."""
        viewer, view = self.seat_view(listener, frame)
        events = view.events
        sent = self._sent.get(listener)
        start = 0
        if sent is not None and sent[0] == viewer:
            had = sent[1]
            if events[: len(had)] == had:
                start = len(had)
        self._sent[listener] = (viewer, events)
        return frame.message(view, start)

    def announce(self, number: int, digest: str) -> None:
        """Send the commitment of hand ``number`` to everyone: no view of the hand goes
        out before it (and a listener who comes later gets it first)."""
        self._announcement = CommitmentMessage(table=self.name, hand=number, digest=digest)
        self._sent.clear()
        self.broadcast(self._announcement)

    def hand_over(self) -> None:
        """The hand is over and announced as such: no view of it goes out any more."""
        self._announcement = None

    def watch(self, listener: Listener) -> None:
        """Add a listener; it gets the commitment and the view of the hand in play at
        once (a reconnection too), or, while an action's commit is under way, with
        everyone once it is durable."""
        self.listeners.add(listener)
        self._sent.pop(listener, None)  # the whole view: a reconnection, a new seat
        if self._announcement is not None:
            listener.send(self._announcement)
            frame = None if self.unjournaled() else self.view_frame()
            if frame is not None:  # else the views sent once the commit is in reach him
                listener.send(self.view_message(listener, frame))
        self._changed.set()

    def unwatch(self, listener: Listener) -> None:
        """Remove a listener (its socket closed) and what the table kept for it."""
        self._sent.pop(listener, None)
        self.listeners.discard(listener)

    def start_clock(self) -> None:
        """Start the time bank of the person to act (his views show what is left)."""
        self._deadline = asyncio.get_running_loop().time() + self.time_bank

    def time_left(self) -> float | None:
        """Seconds left to the person the table waits on (None: nobody)."""
        if self._deadline is None:
            return None
        return max(0.0, round(self._deadline - asyncio.get_running_loop().time(), 1))

    # ------------------------------------------------------------------ people's turns
    def expecting(self) -> Any:
        """The seat (poker) or player (blackjack) whose action the runner waits for."""
        return self._expecting

    def accepted(self) -> None:
        """A person's action was applied: wake the task (it commits, then broadcasts)."""
        self._received = time.perf_counter()
        self._expecting = None
        self._acted.set()

    def refuse(self, code: str | None, why: str | Exception) -> ErrorMessage:
        """An error message for a refused action: ``why`` says why, or is the engine's
        error (:meth:`ErrorMessage.refusing`: its rule when it broke one; ``code`` None
        then: ``illegal`` or ``bad_action`` by the error)."""
        self.stats.refused += 1
        if isinstance(why, Exception):
            return ErrorMessage.refusing(why, code)
        return ErrorMessage(code=code or "bad_action", message=why)

    async def wait_for(
        self, who: Any, done: Callable[[], bool], time_out: Callable[[], object]
    ) -> None:
        """Wait until ``done()`` (the person acted) or the time bank runs out
        (``time_out()`` then acts for him)."""
        loop = asyncio.get_running_loop()
        if self._deadline is None:
            self.start_clock()
        assert self._deadline is not None
        self._expecting = who
        try:
            while not done():
                self._acted.clear()
                left = self._deadline - loop.time()
                if left <= 0 or self.must_default(who):
                    self._expecting = None
                    time_out()
                    return
                await wait_for_set(self._acted, left)
        finally:
            self._expecting = None
            self._deadline = None

    def must_default(self, who: Any) -> bool:
        """Whether ``who`` is leaving (his turns are taken for him at once)."""
        return False

    # ------------------------------------------------------------------ who plays here
    def player(self, account: Account | None) -> str | None:
        """The name ``account`` plays under at this table, while it holds a person's seat
        (or waits for one) here; None for anybody else, a spectator, and always for a
        bot's seat. Every client message for a seat goes through here: seats are keyed by
        the account's id, never by a name a client sends.

        >>> from croupier.store import Store
        >>> from croupier.server.tables import TableConfig, TableRunner
        >>> runner = TableRunner(TableConfig("t", bots=2), Store.open("sqlite:///:memory:"))
        >>> runner.player(Account(1, "bot-1")) is None     # a bot's name is no key
        True
        """
        if account is None:
            return None
        name = self.people.get(account.id)
        return name if name is not None and self.holds(name) else None

    def claim(self, account: Account) -> str:
        """Let ``account`` take a seat here: the name it plays under (its own). An account
        whose name reads as the house's (registered before such names were refused) may
        not sit, so no seat of a person ever has a bot's name."""
        if account.reserved:
            raise CroupierError(
                f"the account {account.name!r} has a name reserved for the house: it may "
                "watch but not sit (register another name)"
            )
        self.people[account.id] = account.name
        return account.name

    def know_people(self, names: Sequence[str]) -> None:
        """After a restart: the accounts of the people the store seats here (``names``,
        persons' seats only), as the store bound each player to his account."""
        assert self.session is not None
        bound = self.store.accounts(self.session)
        for name in names:
            if name in bound and not is_bot_like(name):  # a bot's name is nobody's seat
                self.people[bound[name]] = name

    def account_of(self, name: str) -> int | None:
        """The account id of the person playing as ``name`` here (None: a bot)."""
        return next((i for i, n in self.people.items() if n == name), None)

    def holds(self, name: str) -> bool:
        """Whether ``name`` is a person with a seat here, or waiting for one (never a bot)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ what players do
    def seat_of(self, name: str | None) -> int | None:
        """The seat (poker) or first box (blackjack) ``name`` sits at, if any."""
        raise NotImplementedError

    def sit(self, name: str, seat: int | None, buy_in: int | None) -> int | None:
        """Seat a person (None: he is seated when the hand in play is over)."""
        raise NotImplementedError

    def leave(self, name: str) -> None:
        """Leave now between hands, else when the hand in play is over."""
        raise NotImplementedError

    def sit_out(self, name: str) -> None:
        """Skip hands from the next one on."""
        raise NotImplementedError

    def sit_in(self, name: str) -> None:
        """Be dealt in again."""
        raise NotImplementedError

    def rebuy(self, name: str, amount: int) -> None:
        """Add chips between hands."""
        raise NotImplementedError

    def act(self, name: str, text: str, hand_number: int | None) -> ErrorMessage | None:
        """Apply ``name``'s action (engine text); an error message when refused."""
        raise NotImplementedError

    # ------------------------------------------------------------------ lobby
    def info(self) -> TableInfo:
        """The lobby's line for this table."""
        raise NotImplementedError

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Deal hands until cancelled (or ``stop`` is set between hands)."""
        try:
            while stop is None or not stop.is_set():
                if not self.ready():
                    self._changed.clear()
                    await wait_for_set(self._changed, 1.0)
                    continue
                await self.play_hand()
                self.stats.hands += 1
        except asyncio.CancelledError:
            raise
        except BaseException as error:  # kept for /readyz, and logged
            self.error = error
            logging.getLogger("croupier.server").exception("table %s stopped", self.name)
            raise

    def ready(self) -> bool:
        """Seat who waits and say whether a hand can start."""
        raise NotImplementedError

    async def play_hand(self) -> int:
        """Deal, play and record one hand; its store id."""
        raise NotImplementedError
