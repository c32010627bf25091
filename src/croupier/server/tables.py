"""The poker table task, and :func:`make_runner`, the task for any table.

A :class:`TableRunner` owns one poker :class:`~croupier.poker.table.Table` and deals hand
after hand: it commits to the shuffled deck, journals the hand with the committed order
(:class:`~croupier.server.journal.Journal`) and sends the commitment to everyone at the
table before the first card, lets bots act (from :data:`~croupier.poker.bots.BOTS`) and
waits for a person's action (a person acts only for his own seat and only when the
table waits for it; the engine refuses an illegal action with its rule id); a seat that
does not act within the time bank checks when that is free, else folds. **Every
accepted action is committed to the journal before it is broadcast**; then each
connection gets its own :class:`~croupier.poker.views.SeatView` (a spectator, or a
player not dealt in, the public one). At the end of a hand it is recorded in the audit
store and its journal deleted in one transaction, **before** the result and the deck
reveal are sent.

A table restarted after a crash carries on with its store session: the players sit
where the store says, with the chips the ledger gives them, and the hand the journal
holds is replayed from its log and played on (``on_crash = "resume"``, the default) or
voided (``on_crash = "void"``: every wager goes back, as no chip of an unfinished hand
ever reaches the ledger).

The tables' settings (:class:`~croupier.server.config.TableConfig`, ``DEFAULT_TABLES``,
``load_tables``) live in :mod:`croupier.server.config`; they are importable from here too.

>>> store = Store.open("sqlite:///:memory:")
>>> [make_runner(c, store, Journal(store.engine)).kind for c in DEFAULT_TABLES]
['poker', 'poker', 'poker', 'blackjack']
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Callable, Mapping
from typing import Any

from croupier.codec import JsonView
from croupier.errors import CroupierError, InvalidActionError
from croupier.fairness import DeckCommitment, DeckReveal, commit_deck
from croupier.poker._core import Phase
from croupier.poker.actions import parse_action
from croupier.poker.bots import BOTS
from croupier.poker.policies import Policy
from croupier.poker.seating import TableError
from croupier.poker.settings import TableRules
from croupier.poker.state import HandState
from croupier.poker.structures import STRUCTURES
from croupier.poker.table import HandPlan, Table, default_action
from croupier.poker.views import event_from_dict, event_to_dict
from croupier.server.config import DEFAULT_TABLES, TableConfig, load_tables
from croupier.server.journal import Journal, LiveHand
from croupier.server.names import bot_name
from croupier.server.outgoing import ViewFrame
from croupier.server.protocol import (
    ErrorMessage,
    HandFinishedMessage,
    PlayerResult,
    TableInfo,
)
from croupier.server.runner import ActionStats, Listener, RunnerBase
from croupier.store import Store

__all__ = [
    "DEFAULT_TABLES",
    "Listener",
    "TableConfig",
    "TableRunner",
    "load_tables",
    "make_runner",
]


def _moved_on(hand: HandState, count: int) -> bool:
    """Whether ``hand`` got past its first ``count`` events (someone acted)."""
    return len(hand.events) != count or hand.is_complete


_STRUCTURE_NAMES = {kind: name for name, kind in STRUCTURES.items()}


def _plan_to_dict(plan: HandPlan) -> dict[str, Any]:
    return {
        "seats": list(plan.seats),
        "button": plan.button,
        "dead_button": plan.dead_button,
        "dealer_seat": plan.dealer_seat,
        "blinds": [list(b) for b in plan.blinds],
        "dead_blinds": list(plan.dead_blinds),
        "positions": [list(p) for p in plan.positions],
    }


def _plan_from_dict(data: Mapping[str, Any], rules: TableRules) -> HandPlan:
    return HandPlan(
        seats=tuple(data["seats"]),
        button=data["button"],
        dead_button=data["dead_button"],
        dealer_seat=data["dealer_seat"],
        blinds=tuple((s, a) for s, a in data["blinds"]),
        dead_blinds=tuple(data["dead_blinds"]),
        positions=tuple((s, n) for s, n in data["positions"]),
        rules=rules,
    )


def make_runner(
    config: TableConfig,
    store: Store,
    journal: Journal,
    stats: ActionStats | None = None,
    guard: Callable[[Any], object] | None = None,
) -> RunnerBase:
    """The task for ``config``: a :class:`TableRunner`, or a blackjack runner; ``guard``
    (the table's lease fence) runs in each of its writes, those of its restore included.

    >>> store = Store.open("sqlite:///:memory:")
    >>> make_runner(TableConfig("t"), store, Journal(store.engine)).kind
    'poker'
    """
    if config.kind == "blackjack":
        from croupier.server.blackjack_table import BlackjackRunner

        return BlackjackRunner(config, store, journal, stats, guard)
    return TableRunner(config, store, journal, stats, guard)


class TableRunner(RunnerBase):
    """Run one poker table as an asyncio task (see the module docstring).

    >>> store = Store.open("sqlite:///:memory:")
    >>> runner = TableRunner(TableConfig("t", bots=2), store, Journal(store.engine))
    >>> runner.info().players
    ['bot-1', 'bot-2']
    """

    kind = "poker"

    def __init__(
        self,
        config: TableConfig,
        store: Store,
        journal: Journal | None = None,
        stats: ActionStats | None = None,
        guard: Callable[[Any], object] | None = None,
    ) -> None:
        super().__init__(
            config.name,
            store,
            journal if journal is not None else Journal(store.engine),
            time_bank=config.time_bank,
            on_crash=config.on_crash,
            stats=stats,
            guard=guard,
        )
        self.config = config
        """The table's settings."""
        rules = config.rules()
        self.table = Table(rules, config.seats, seed=config.seed)
        """The engine's table."""
        self.session = self.reopen_session(rules, config.seed)
        """The store session of this table (a restart carries on with it)."""
        self._rng = random.Random(config.seed)
        self._bots: dict[str, Policy] = {}
        self._leaving: set[str] = set()
        self._recording = False
        """A finished hand is being recorded: the table is not between hands yet (a leave
        or a rebuy now would meet a ledger without that hand)."""
        self._pending: dict[str, int | None] = {}
        self._rebuys: dict[str, int] = {}
        self._sitting_out: set[str] = set()
        self._sitting_in: set[str] = set()
        self._reveal: Any = None
        self._names_cache: tuple[tuple[int, int], dict[str, str]] | None = None
        self._restore()

    # ------------------------------------------------------------------ restarts
    def _restore(self) -> None:
        """Seat the players the store has at this table; take up an interrupted hand."""
        assert self.session is not None
        balances = self.store.balances(self.session)
        seating = self.store.seating(self.session)
        self.table.hand_number = len(self.store.hands(self.session))
        for name, (seat, policy) in sorted(seating.items(), key=lambda item: item[1][0]):
            chips = balances.get(name, 0)
            if chips > 0 and seat not in self.table.seats:
                self.table.sit(name, seat, chips)
                if policy is not None:
                    self._bots[name] = self._bot(policy)
        self.know_people(self.humans())
        if not self.table.seats:
            for seat in range(1, self.config.bots + 1):
                name = bot_name(seat)
                self._bots[name] = self._bot(self.config.bot_style)
                self._seat(name, seat, self.config.bot_style)
        live = self.journal.interrupted(self.name)
        if live is None:
            return
        if live.session != self.session.id or self.on_crash == "void":
            self.void_interrupted(live.id, live.number, "the server restarted mid-hand")
            return
        self._resume(live)

    def _resume(self, live: LiveHand) -> None:
        rules = self.config.rules()
        events = [event_from_dict(e) for e in live.events]
        hand = HandState.replay(rules, events)
        plan = _plan_from_dict(live.state["plan"], rules)
        self.table.resume_hand(plan, hand, live.number)
        self.adopt(live.id, len(live.events), live.commitment)
        self._reveal = live.reveal
        self.resumed.append(live.number)

    def _bot(self, style: str) -> Policy:
        return BOTS[style if style in BOTS else "random"](random.Random(self._rng.random()))

    # ------------------------------------------------------------------ seats
    def _seat(self, name: str, seat: int | None, policy: str | None) -> int:
        # check, write the ledger, then seat: a refused write (a lost lease) changes nothing
        chips = self.config.buy_in_chips()
        self.table.verify_sit(name, seat, chips)
        taken = self.table.free_seats[0] if seat is None else seat
        assert self.session is not None
        self.store.sit(
            self.session,
            name,
            taken,
            policy,
            buy_in=chips,
            guard=self.guard,
            account=None if policy is not None else self.account_of(name),
        )
        self.table.sit(name, taken, chips)
        return taken

    def holds(self, name: str) -> bool:
        """Whether ``name`` is a person seated here or waiting for a seat (not a bot)."""
        return name not in self._bots and (name in self._pending or self.seat_of(name) is not None)

    def seat_of(self, name: str | None) -> int | None:
        """The seat ``name`` sits in, if any."""
        if name is None:
            return None
        try:
            return self.table.player(name).seat
        except TableError:
            return None

    def sit(self, name: str, seat: int | None, buy_in: int | None) -> int | None:
        """Seat a person (the buy-in is the table's): his seat number, or None while a hand
        is in play (he is seated when it is over)."""
        if self.seat_of(name) is not None:
            raise CroupierError(f"{name} already sits at seat {self.seat_of(name)}")
        if buy_in is not None and buy_in != self.config.buy_in_chips():
            raise CroupierError(f"the buy-in at {self.config.name} is {self.config.buy_in_chips()}")
        if name in self._pending:
            raise CroupierError(f"{name} is already waiting for a seat")
        if seat is not None and (seat in self.table.seats or not 1 <= seat <= self.config.seats):
            raise CroupierError(f"seat {seat} is not free at {self.config.name}")
        if len(self.table.seats) + len(self._pending) >= self.config.seats:
            raise CroupierError(f"{self.config.name} is full")
        if not self.between_hands:
            self._pending[name] = seat
            return None
        taken = self._seat(name, seat, None)
        self._changed.set()
        return taken

    def leave(self, name: str) -> None:
        """Leave now between hands, else when the hand in play is over."""
        if self._pending.pop(name, "absent") != "absent":
            return
        if self.seat_of(name) is None:
            raise CroupierError(f"{name} has no seat at {self.config.name}")
        if self.between_hands:
            self._cash_out(name)
        else:
            self._leaving.add(name)
            self._acted.set()

    def sit_out(self, name: str) -> None:
        """Skip hands from the next one on (the seat is kept)."""
        if self.seat_of(name) is None:
            raise CroupierError(f"{name} has no seat at {self.config.name}")
        self._sitting_out.add(name)
        if self.between_hands:
            self.table.sit_out(name)

    def sit_in(self, name: str) -> None:
        """Be dealt in again (the table's rules say when: a new player waits for the big
        blind by default)."""
        if self.seat_of(name) is None:
            raise CroupierError(f"{name} has no seat at {self.config.name}")
        self._sitting_out.discard(name)
        self._sitting_in.add(name)
        if self.between_hands:
            self._sitting_in.discard(name)
            self.table.sit_in(name)
            self._changed.set()

    def rebuy(self, name: str, amount: int) -> None:
        """Add chips between hands (now, or when the hand in play is over); the stack may
        not pass the buy-in."""
        if self.seat_of(name) is None or name in self._bots:
            raise CroupierError(f"{name} has no seat at {self.config.name}")
        have = self.table.stacks.get(name, 0) + self._rebuys.get(name, 0)
        cap = self.config.buy_in_chips()
        if amount < 1 or have + amount > cap:
            raise CroupierError(
                f"a rebuy of {amount} would make {have + amount}: at most {cap} at this table"
            )
        if self.between_hands:
            self._buy(name, amount)
        else:
            self._rebuys[name] = self._rebuys.get(name, 0) + amount

    def _buy(self, name: str, amount: int) -> None:
        self.table.verify_buy_in(name, amount)
        assert self.session is not None
        self.store.buy_in(self.session, name, amount, guard=self.guard)
        self.table.buy_in(name, amount)
        self._changed.set()

    @property
    def between_hands(self) -> bool:
        """No hand is in play, nor being recorded: seats and chips may change now."""
        return self.table.hand is None and not self._recording

    def _cash_out(self, name: str) -> None:
        if not self.between_hands:
            raise CroupierError(f"{name} cannot cash out while a hand is in play")
        assert self.session is not None
        self.store.cash_out(self.session, name, self.table.player(name).chips, guard=self.guard)
        self.table.leave(name, "left the table")
        self._leaving.discard(name)
        self._sitting_out.discard(name)

    def humans(self) -> list[str]:
        """The people seated."""
        return [p.name for p in self.table.seats.values() if p.name not in self._bots]

    def must_default(self, who: Any) -> bool:
        player = self.table.seats.get(who)
        return player is not None and player.name in self._leaving

    # ------------------------------------------------------------------ actions
    def act(self, name: str, text: str, hand_number: int | None) -> ErrorMessage | None:
        """Apply ``name``'s action (engine text) for his own seat; an error when refused."""
        try:
            action = parse_action(text)
        except InvalidActionError as error:
            return self.refuse("bad_action", str(error))
        seat = self.seat_of(name)
        hand = self.table.hand
        if seat is None or name in self._bots:
            return self.refuse("not_seated", f"{name} has no seat here")
        if hand is None or hand.is_complete or hand.phase is Phase.DEALER:
            return self.refuse("no_hand", "no hand is waiting for an action")
        if hand_number is not None and hand_number != self.table.hand_number:
            return self.refuse(
                "stale", f"hand {hand_number} is over: hand {self.table.hand_number} is in play"
            )
        if self.expecting() != seat:
            try:
                hand.verify(action.for_seat(seat))
            except CroupierError as error:
                return self.refuse("illegal", error)
            return self.refuse("not_your_turn", f"the table is not waiting for seat {seat}")
        try:
            hand.apply(action.for_seat(seat))
        except CroupierError as error:
            return self.refuse(None, error)
        self.accepted()
        return None

    # ------------------------------------------------------------------ views
    def info(self) -> TableInfo:
        """The lobby's line for this table."""
        taken = self.table.seats
        return TableInfo(
            name=self.config.name,
            game=self.config.game,
            structure=_STRUCTURE_NAMES.get(type(self.table.rules.structure), self.config.structure),
            blinds=list(self.config.blinds),
            seats=self.config.seats,
            players=[taken[s].name for s in sorted(taken)],
            free_seats=[s for s in range(1, self.config.seats + 1) if s not in taken],
            buy_in=self.config.buy_in_chips(),
            hand=self.table.hand_number,
            kind="poker",
            time_bank=self.config.time_bank,
        )

    def view_frame(self) -> ViewFrame | None:
        """The parts of the hand's views every listener shares now (None: no hand)."""
        hand = self.table.hand
        if hand is None or hand.phase is Phase.DEALER:
            return None
        return ViewFrame(
            hand.view_for(None),
            table=self.config.name,
            hand=self.table.hand_number,
            kind="poker",
            time_left=self.time_left(),
            commitment=None if self.commitment is None else self.commitment.digest,
            names=self._names(),
        )

    def unjournaled(self) -> bool:
        hand = self.table.hand
        return hand is not None and len(hand.events) > self._logged

    def seat_view(self, listener: Listener, frame: ViewFrame) -> tuple[int | None, JsonView]:
        """The listener's seat in the hand (None: he watches) and the engine's view of it."""
        hand = self.table.hand
        assert hand is not None
        seat = self.seat_of(self.player(listener.account))
        if seat is None or seat not in hand.stacks:
            return None, frame.shared
        return seat, hand.view_for(seat)

    def _names(self) -> dict[str, str]:
        """Who sits where (kept until the table's log grows: every seat change is in it)."""
        key = (len(self.table.events), self.table.hand_number)
        if self._names_cache is None or self._names_cache[0] != key:
            names = {str(s): p.name for s, p in self.table.seats.items()}
            self._names_cache = (key, names)
        return self._names_cache[1]

    # ------------------------------------------------------------------ the task
    def ready(self) -> bool:
        """Seat who waits, restock bots, cash out the busted; whether a hand can start."""
        for name, seat in list(self._pending.items()):
            del self._pending[name]
            free = seat is None or seat not in self.table.seats
            if free and len(self.table.seats) < self.config.seats:
                self._seat(name, seat, None)
        for name, amount in list(self._rebuys.items()):
            del self._rebuys[name]
            if self.seat_of(name) is not None:
                self._buy(name, amount)
        for name in list(self._sitting_out):
            if self.seat_of(name) is not None and self.table.player(name).ready:
                self.table.sit_out(name)
        for name in list(self._sitting_in):
            self._sitting_in.discard(name)
            if self.seat_of(name) is not None:
                self.table.sit_in(name)
        for name, chips in list(self.table.stacks.items()):
            if chips == 0 and name in self._bots:
                self._buy(name, self.config.buy_in_chips())
            elif chips == 0:
                self._cash_out(name)
        if self.table.hand is not None:
            return True  # a resumed hand
        if not self.config.play_without_humans and not self.humans():
            return False
        return self.table.can_start_hand()

    async def play_hand(self) -> int:
        """Deal (or take up a resumed hand), play and record one hand; its store id."""
        table = self.table
        hand = table.hand
        if hand is None:
            hand = await self._deal()
        else:
            assert self.commitment is not None
            self.announce(table.hand_number, self.commitment.digest)
        self.show(hand)
        while not hand.is_complete:
            seat = hand.actor
            assert seat is not None
            name = table.seats[seat].name
            if name in self._bots:
                await asyncio.sleep(self.config.bot_delay)
                self._bot_acts(hand, seat, self._bots[name])
            elif name in self._leaving:
                default_action(hand)
            else:
                count = len(hand.events)
                await self.wait_for(
                    seat,
                    functools.partial(_moved_on, hand, count),
                    lambda: default_action(hand),
                )
            await self.commit(hand.events, event_to_dict, then=functools.partial(self.show, hand))
        return await self._finish(hand)

    def clock_for(self, hand: HandState) -> None:
        """Start the time bank of the person to act next, so his view shows it."""
        seat = hand.actor
        if seat is not None and not hand.is_complete:
            player = self.table.seats.get(seat)
            if player is not None and player.name not in self._bots.keys() | self._leaving:
                self.start_clock()

    async def _deal(self) -> HandState:
        table = self.table
        committed: list[tuple[DeckCommitment, DeckReveal]] = []
        hand = table.start_hand(
            before_first_card=lambda h: committed.append(commit_deck(h.deck.remaining))
        )
        commitment, reveal = committed[0]
        assert table.plan is not None
        state = {"plan": _plan_to_dict(table.plan)}
        events = [event_to_dict(e) for e in hand.events]
        await self.in_store(self.open_hand, table.hand_number, commitment, reveal, state, events)
        self._reveal = reveal
        # the commitment goes out before any card is shown (the journal holds the order)
        self.announce(table.hand_number, commitment.digest)
        return hand

    async def _finish(self, hand: HandState) -> int:
        table = self.table
        seats = {seat: player.name for seat, player in table.seats.items()}
        assert self.session is not None
        assert self.commitment is not None
        self._recording = True  # till the ledger has the hand: leaves and rebuys wait
        try:
            table.finish_hand(hand)
            hand_id = await self.in_store(
                self.store.record_poker_hand,
                self.session,
                hand,
                self.commitment,
                self._reveal,
                seats,
                then=self.close_journal(),
            )
        finally:
            self._recording = False
        self.live_id = None
        self.hand_ids.append(hand_id)
        results = [
            PlayerResult(name=seats[s], seat=s, stack=c) for s, c in sorted(hand.stacks.items())
        ]
        self.broadcast(
            HandFinishedMessage(
                table=self.config.name,
                hand=table.hand_number,
                hand_id=hand_id,
                results=results,
                reveal=self._reveal.to_dict(),
                kind="poker",
                commitment=self.commitment.digest,
            )
        )
        self.hand_over()
        for name in list(self._leaving):
            self._cash_out(name)
        return hand_id

    def _bot_acts(self, hand: HandState, seat: int, bot: Callable[..., object]) -> None:
        self.table.policy_acts(hand, seat, bot)  # type: ignore[arg-type]
