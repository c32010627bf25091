"""The server's tables: their configuration (TOML) and the asyncio task that runs each.

A :class:`TableRunner` owns one poker :class:`~croupier.poker.table.Table` and deals hand
after hand: it commits to the shuffled deck and sends the commitment to everyone at the
table before the first card, lets bots act (from :data:`~croupier.poker.bots.BOTS`) and
waits for a human seat's action (a human acts only for his own seat, and the engine
refuses an action out of turn with its rule id); a seat that does not act within the
time bank checks when that is free, else folds. After every change each connection gets
its own :class:`~croupier.poker.views.SeatView` (a spectator, or a player not dealt in,
the public one). At the end of a hand it is recorded in the audit store
(:meth:`~croupier.store.Store.record_poker_hand`, one transaction) **before** the result
and the deck reveal are sent.

>>> config = TableConfig.from_dict({"name": "nl-1", "game": "holdem", "bots": 2})
>>> config.rules().game.name, config.seats, config.buy_in_chips()
('holdem', 6, 1000)
>>> [c.name for c in load_tables('[[table]]\\nname = "a"\\n[[table]]\\nname = "b"\\ngame = "omaha"')]
['a', 'b']
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Protocol

from croupier.errors import CroupierError
from croupier.fairness import commit_deck
from croupier.poker._core import Phase
from croupier.poker.actions import Action
from croupier.poker.bots import BOTS
from croupier.poker.games import ForcedBets, game_by_name
from croupier.poker.policies import Policy
from croupier.poker.settings import TableRules
from croupier.poker.state import HandState
from croupier.poker.structures import FixedLimit, structure_for_stakes
from croupier.poker.table import Table, default_action
from croupier.server.protocol import (
    CommitmentMessage,
    ErrorMessage,
    HandFinishedMessage,
    PlayerResult,
    TableInfo,
    ViewMessage,
)
from croupier.store import Store

__all__ = ["DEFAULT_TABLES", "Listener", "TableConfig", "TableRunner", "load_tables"]


@dataclass(frozen=True)
class TableConfig:
    """One table as the TOML file declares it (``[[table]]``; every key but ``name`` is
    optional). ``blinds`` are the blinds (stud: ``[bring-in, small bet]``).

    >>> TableConfig("t", game="stud7").rules().blinds
    ()
    """

    name: str
    game: str = "holdem"
    structure: str = "no-limit"
    blinds: tuple[int, ...] = (5, 10)
    seats: int = 6
    bots: int = 2
    """Seats 1..bots are bots."""
    bot_style: str = "random"
    buy_in: int | None = None
    """Chips a player sits down with (default: 100 big blinds)."""
    time_bank: float = 30.0
    """Seconds a human seat has to act."""
    bot_delay: float = 0.3
    """Seconds a bot waits before acting (so people can follow the hand)."""
    play_without_humans: bool = False
    """Deal hands with bots only (else the table waits for a person to sit)."""
    seed: int | None = None
    """Seed the shuffles (tests only: a seeded deal proves nothing)."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableConfig:
        """Build from a TOML table; unknown keys raise :class:`CroupierError`."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise CroupierError(f"unknown table setting(s): {', '.join(unknown)}")
        values = dict(data)
        if "blinds" in values:
            values["blinds"] = tuple(values["blinds"])
        config = cls(**values)
        if config.bot_style not in BOTS:
            raise CroupierError(f"unknown bot style {config.bot_style!r}: one of {sorted(BOTS)}")
        if not 0 <= config.bots <= config.seats:
            raise CroupierError(f"table {config.name}: bots must be 0..{config.seats}")
        config.rules().validate()
        return config

    def rules(self) -> TableRules:
        """The table's rules."""
        game = game_by_name(self.game)
        big = self.blinds[-1]
        if game.forced is ForcedBets.BLINDS:
            return TableRules(game, structure_for_stakes(self.structure, big), blinds=self.blinds)
        low = self.blinds[0] if len(self.blinds) > 1 else max(1, big // 2)
        return TableRules(
            game, FixedLimit(big, 2 * big), blinds=(), ante=1, bring_in=low, table_minimum=low
        )

    def buy_in_chips(self) -> int:
        """The buy-in (default 100 big blinds)."""
        return self.buy_in if self.buy_in is not None else 100 * self.blinds[-1]


DEFAULT_TABLES = (
    TableConfig("holdem-1", "holdem", "no-limit", (5, 10), seats=6, bots=3),
    TableConfig("omaha-1", "omaha", "pot-limit", (5, 10), seats=6, bots=3),
    TableConfig("stud-1", "stud7", blinds=(5, 10), seats=6, bots=3),
)
"""The tables ``croupier serve`` opens without ``--tables``."""


def load_tables(text: str) -> list[TableConfig]:
    """The ``[[table]]`` entries of a TOML document (names must be unique)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CroupierError(f"bad tables file: {error}") from None
    configs = [TableConfig.from_dict(t) for t in data.get("table", [])]
    names = [c.name for c in configs]
    if len(set(names)) != len(names) or not configs:
        raise CroupierError("a tables file lists one or more tables with unique names")
    return configs


class Listener(Protocol):
    """Someone at a table: a player (``name``) or a spectator (``name`` None) whose
    ``send`` queues a message (it never blocks the table).

    >>> Listener.__name__
    'Listener'
    """

    name: str | None

    def send(self, message: Any) -> None:
        """Queue a pydantic message for the client."""


class TableRunner:
    """Run one table as an asyncio task (see the module docstring).

    >>> runner = TableRunner(TableConfig("t", bots=2), Store.open("sqlite:///:memory:"))
    >>> runner.info().players
    ['bot-1', 'bot-2']
    """

    def __init__(self, config: TableConfig, store: Store) -> None:
        self.config = config
        """The table's settings."""
        self.store = store
        self.table = Table(config.rules(), config.seats, seed=config.seed)
        """The engine's table."""
        self.session = store.start_session(config.rules(), seed=config.seed, label=config.name)
        """The store session of this table."""
        self.listeners: set[Listener] = set()
        """Everyone watching or seated."""
        self.hand_ids: list[int] = []
        """The store ids of the hands recorded, in order."""
        self._bots: dict[str, Policy] = {}
        self._leaving: set[str] = set()
        self._pending: dict[str, int | None] = {}
        self._acted = asyncio.Event()
        self._changed = asyncio.Event()
        rng = random.Random(config.seed)
        for seat in range(1, config.bots + 1):
            name = f"bot-{seat}"
            self._bots[name] = BOTS[config.bot_style](random.Random(rng.random()))
            self._seat(name, seat, config.bot_style)
        self.error: BaseException | None = None
        """What stopped the task, if anything did."""

    # ------------------------------------------------------------------ seats
    def _seat(self, name: str, seat: int | None, policy: str | None) -> int:
        chips = self.config.buy_in_chips()
        self.table.sit(name, seat, chips)
        taken = next(s for s, p in self.table.seats.items() if p.name == name)
        self.store.sit(self.session, name, taken, policy)
        self.store.buy_in(self.session, name, chips)
        return taken

    def seat_of(self, name: str | None) -> int | None:
        """The seat ``name`` sits in, if any."""
        for seat, player in self.table.seats.items():
            if player.name == name:
                return seat
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
        if self.table.hand is not None:
            self._pending[name] = seat
            return None
        taken = self._seat(name, seat, None)
        self._changed.set()
        return taken

    def leave(self, name: str) -> None:
        """Leave now between hands, else when the hand in play is over."""
        if self.seat_of(name) is None:
            raise CroupierError(f"{name} has no seat at {self.config.name}")
        if self.table.hand is None:
            self._cash_out(name)
        else:
            self._leaving.add(name)
            self._acted.set()

    def _cash_out(self, name: str) -> None:
        chips = self.table.leave(name, "left the table")
        self.store.cash_out(self.session, name, chips)
        self._leaving.discard(name)

    def humans(self) -> list[str]:
        """The people seated."""
        return [p.name for p in self.table.seats.values() if p.name not in self._bots]

    # ------------------------------------------------------------------ actions
    def act(self, name: str, action: Action, hand_number: int | None) -> ErrorMessage | None:
        """Apply ``name``'s action for his own seat; an error message when refused."""
        seat = self.seat_of(name)
        hand = self.table.hand
        if seat is None or name in self._bots:
            return ErrorMessage(code="not_seated", message=f"{name} has no seat here")
        if hand is None or hand.is_complete or hand.phase is Phase.DEALER:
            return ErrorMessage(code="no_hand", message="no hand is waiting for an action")
        if hand_number is not None and hand_number != self.table.hand_number:
            return ErrorMessage(
                code="stale",
                message=f"hand {hand_number} is over: hand {self.table.hand_number} is in play",
            )
        try:
            hand.apply(action.for_seat(seat))
        except CroupierError as error:
            rule = getattr(error, "rule", None)
            allowed = getattr(error, "allowed", None)
            code = "illegal" if rule else "bad_action"
            return ErrorMessage(code=code, message=str(error), rule=rule, allowed=allowed)
        self._acted.set()
        return None

    # ------------------------------------------------------------------ views
    def info(self) -> TableInfo:
        """The lobby's line for this table."""
        taken = self.table.seats
        return TableInfo(
            name=self.config.name,
            game=self.config.game,
            structure=self.config.structure,
            blinds=list(self.config.blinds),
            seats=self.config.seats,
            players=[taken[s].name for s in sorted(taken)],
            free_seats=[s for s in range(1, self.config.seats + 1) if s not in taken],
            buy_in=self.config.buy_in_chips(),
            hand=self.table.hand_number,
        )

    def view_message(self, hand: HandState, listener: Listener) -> ViewMessage:
        """The view ``listener`` may have of ``hand`` now."""
        seat = self.seat_of(listener.name)
        viewer = seat if seat is not None and seat in hand.stacks else None
        return ViewMessage(
            table=self.config.name,
            hand=self.table.hand_number,
            view=hand.view_for(viewer).to_dict(),
        )

    def _broadcast_views(self, hand: HandState) -> None:
        for listener in list(self.listeners):
            listener.send(self.view_message(hand, listener))

    def _broadcast(self, message: Any) -> None:
        for listener in list(self.listeners):
            listener.send(message)

    def watch(self, listener: Listener) -> None:
        """Add a listener; it gets the current view at once."""
        self.listeners.add(listener)
        hand = self.table.hand
        if hand is not None and hand.phase is not Phase.DEALER:
            listener.send(self.view_message(hand, listener))
        self._changed.set()

    # ------------------------------------------------------------------ the task
    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Deal hands until cancelled (or ``stop`` is set between hands)."""
        try:
            while stop is None or not stop.is_set():
                if not self._ready():
                    self._changed.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), timeout=1.0)
                    continue
                await self.play_hand()
        except asyncio.CancelledError:
            raise
        except BaseException as error:  # pragma: no cover - kept for /readyz
            self.error = error
            raise

    def _ready(self) -> bool:
        for name, seat in list(self._pending.items()):
            del self._pending[name]
            free = seat is None or seat not in self.table.seats
            if free and len(self.table.seats) < self.config.seats:
                self._seat(name, seat, None)
        for name, chips in list(self.table.stacks.items()):
            if chips == 0 and name in self._bots:
                self.table.buy_in(name, self.config.buy_in_chips())
                self.store.buy_in(self.session, name, self.config.buy_in_chips())
            elif chips == 0:
                self._cash_out(name)
        if not self.config.play_without_humans and not self.humans():
            return False
        return self.table.can_start_hand()

    async def play_hand(self) -> int:
        """Deal, play and record one hand; its store id."""
        table = self.table
        hand = table.start_hand(automatic=False)
        commitment, reveal = commit_deck(hand.deck.remaining)
        self._broadcast(
            CommitmentMessage(
                table=self.config.name, hand=table.hand_number, digest=commitment.digest
            )
        )
        while hand.phase is Phase.DEALER:
            hand.step()
        hand.automatic = True
        self._broadcast_views(hand)
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
                await self._wait_for_human(hand, seat)
            self._broadcast_views(hand)
        table.finish_hand(hand)
        seats = {seat: player.name for seat, player in table.seats.items()}
        hand_id = await asyncio.to_thread(
            self.store.record_poker_hand, self.session, hand, commitment, reveal, seats
        )
        self.hand_ids.append(hand_id)
        results = [
            PlayerResult(name=seats[s], seat=s, stack=c) for s, c in sorted(hand.stacks.items())
        ]
        self._broadcast(
            HandFinishedMessage(
                table=self.config.name,
                hand=table.hand_number,
                hand_id=hand_id,
                results=results,
                reveal=reveal.to_dict(),
            )
        )
        for name in list(self._leaving):
            self._cash_out(name)
        return hand_id

    def _bot_acts(self, hand: HandState, seat: int, bot: Callable[..., object]) -> None:
        try:
            action = bot(hand.view_for(seat))
            if isinstance(action, Action):
                hand.apply(action.for_seat(seat))
                return
        except Exception:  # a bot's failure must not leave the hand stuck
            pass
        default_action(hand)

    async def _wait_for_human(self, hand: HandState, seat: int) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.time_bank
        count = len(hand.events)
        while hand.actor == seat and len(hand.events) == count and not hand.is_complete:
            self._acted.clear()
            left = deadline - loop.time()
            if left <= 0 or self.table.seats[seat].name in self._leaving:
                default_action(hand)
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._acted.wait(), timeout=left)
