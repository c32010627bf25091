"""The state every part of the poker referee shares: the hand's fields, the views of them
that betting, dealing and the showdown read, and the helpers they share.

:class:`~croupier.poker.state.HandState` puts the parts together; nothing here is used on
its own.

>>> from croupier.poker import HandState, TableRules
>>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1)
>>> isinstance(hand, HandCore), hand.phase
(True, <Phase.BETTING: 'betting'>)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar

from croupier.cards.card import Card, parse_cards
from croupier.cards.deck import Deck
from croupier.errors import CroupierError, IllegalActionError, InvalidActionError
from croupier.evaluation.hand import HandValue
from croupier.poker import events as ev
from croupier.poker.actions import LegalActions
from croupier.poker.games import GameSpec
from croupier.poker.pots import Pot, build_pots
from croupier.poker.settings import TableRules

__all__ = ["Chore", "HandCore", "Phase", "PlayerState", "Stage"]

T = TypeVar("T")


class Phase(StrEnum):
    """Where the hand is.

    >>> from croupier.poker import HandState, TableRules
    >>> HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1).phase
    <Phase.BETTING: 'betting'>
    """

    DEALER = "dealer"
    """A dealer chore is next (see :attr:`HandState.next_chore`)."""
    BETTING = "betting"
    """A player must bet, call, check or fold."""
    DRAWING = "drawing"
    """A player must discard (draw poker)."""
    COMPLETE = "complete"
    """The hand is over."""


class Chore(StrEnum):
    """A dealer chore: what :meth:`HandState.step` does next (or, with a live dealer's
    empty deck, what :meth:`HandState.deal` waits for).

    >>> Chore.DEAL.value
    'deal'
    """

    POST_FORCED_BETS = "post forced bets"
    """Antes and blinds."""
    DEAL = "deal"
    """Deal a street (burn, hole or up cards, board) or a draw's replacements."""
    OPEN_BETTING = "open the betting"
    """Find who opens the round."""
    START_DRAW = "start the draw"
    """Open the draw (draw poker)."""
    COLLECT_BETS = "collect bets"
    """Sweep the round's bets into the pot (an uncalled bet goes back)."""
    SHOWDOWN = "showdown"
    """Read and show the hands."""
    AWARD_POTS = "award pots"
    """Pay each pot (rake first)."""


class Stage(StrEnum):
    """What the hand does next: a dealer chore, a player's turn (``BET``, ``DRAW``, with
    an actor), or nothing (``DONE``). :attr:`HandState.phase` is the public summary.

    >>> from croupier.poker import HandState, TableRules
    >>> HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1).stage
    <Stage.BET: 'bet'>
    """

    FORCED = "forced"
    """Antes and blinds are due."""
    DEAL = "deal"
    """A street is to be dealt."""
    BET = "bet"
    """The betting round is open (or is to be opened)."""
    DRAW = "draw"
    """The draw is open (or is to be opened)."""
    REPLACE = "replace"
    """A live dealer deals a drawing player's replacements."""
    COLLECT = "collect"
    """The round's bets are to be swept into the pot."""
    SHOWDOWN = "showdown"
    """The hands are to be read and shown."""
    AWARD = "award"
    """The pots are to be paid."""
    DONE = "done"
    """The hand is over."""


_CHORES = {
    Stage.FORCED: Chore.POST_FORCED_BETS,
    Stage.DEAL: Chore.DEAL,
    Stage.REPLACE: Chore.DEAL,
    Stage.BET: Chore.OPEN_BETTING,
    Stage.DRAW: Chore.START_DRAW,
    Stage.COLLECT: Chore.COLLECT_BETS,
    Stage.SHOWDOWN: Chore.SHOWDOWN,
    Stage.AWARD: Chore.AWARD_POTS,
}


_ACTING = frozenset((Stage.BET, Stage.DRAW))
"""The stages in which a player (the one in ``_actor``) is to act."""


@dataclass
class PlayerState:
    """One seat in the hand.

    >>> PlayerState(seat=1, starting_stack=100, stack=0, contributed=100).all_in
    True
    """

    seat: int
    """Seat number."""
    starting_stack: int
    """Chips at the start of the hand."""
    stack: int
    """Chips behind (not yet bet)."""
    down: list[Card] = field(default_factory=list)
    """Face-down cards."""
    up: list[Card] = field(default_factory=list)
    """Face-up cards (stud)."""
    folded: bool = False
    """Out of the hand."""
    bet: int = 0
    """Chips in front of the player this round."""
    contributed: int = 0
    """Chips put in this hand (this round's bet included)."""
    acted_serial: int = -1
    """The full-raise count when the player last acted this round (-1: not yet)."""
    drawn: bool = False
    """Whether the player has drawn on the current draw street."""

    @property
    def all_in(self) -> bool:
        """No chips behind, still in the hand."""
        return self.stack == 0 and not self.folded and self.contributed > 0

    @property
    def can_act(self) -> bool:
        """Still in the hand with chips to bet."""
        return not self.folded and self.stack > 0

    @property
    def cards(self) -> tuple[Card, ...]:
        """All the player's own cards (down then up)."""
        return (*self.down, *self.up)


class HandCore:
    """The fields of one hand and the views and helpers every part of the referee uses.

    >>> from croupier.poker import HandState, TableRules
    >>> HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1).total_pot
    15
    """

    rules: TableRules
    game: GameSpec
    button: int
    automatic: bool
    voluntary_blind: bool
    deck: Deck
    players: dict[int, PlayerState]
    order: tuple[int, ...]
    board: list[Card]
    events: list[ev.Event]
    street: int
    ante_trimming: bool
    dead: set[int]
    _stage: Stage
    _actor: int | None
    _to_act: set[int]
    _current_bet: int
    _last_increment: int
    _raises: int
    _full_raises: int
    _wagers: int = 0
    """Bets, raises and completions made this round (short all-ins included)."""
    _legal: tuple[tuple[int, str, int | None, int], LegalActions] | None = None
    """The legal actions last worked out, and the point of the hand they are for."""
    _short_run: tuple[int, ...] = ()
    """The increments of the short all-in wagers in a row since the last full wager
    (kept under ``ShortAllIn.add_up``)."""
    _aggressor: int | None
    _bring_in_due: bool
    _short_bring_in: bool
    _awarded: list[ev.PotAwarded]
    _hands: dict[int, HandValue]
    _restocked: set[Card]
    _antes: dict[int, int]
    _last_blind_seat: int
    _rng: random.Random
    _game_cards: frozenset[Card]
    _placed: bool
    _restock_seed: int
    _restock_orders: list[tuple[Card, ...]]
    _views: dict[int | None, list[ev.Event]]
    _public_log: list[ev.Event]
    _own_at: dict[int, list[int]]
    _dirty: set[int]
    _all_dirty: bool
    _public_shown: frozenset[Card]
    _shown: frozenset[Card]
    _public: tuple[tuple[Any, ...], Any] | None
    _explicit_blinds: dict[int, int]
    _pending_draw: tuple[int, tuple[Card, ...]] | None

    if TYPE_CHECKING:  # defined by the parts that put the hand together

        def legal_actions(self) -> LegalActions: ...

        def _after_action(self) -> None: ...

        def _acted(self, player: PlayerState) -> None: ...

        def _evaluate(self, player: PlayerState) -> HandValue: ...

    # ----------------------------------------------------------------- views
    @property
    def phase(self) -> Phase:
        """Where the hand is."""
        if self._stage == Stage.DONE:
            return Phase.COMPLETE
        if self._stage == Stage.BET and self._actor is not None:
            return Phase.BETTING
        if self._stage == Stage.DRAW and self._actor is not None:
            return Phase.DRAWING
        return Phase.DEALER

    @property
    def stage(self) -> Stage:
        """What the hand does next (see :class:`Stage`)."""
        return self._stage

    @property
    def is_complete(self) -> bool:
        """Whether the hand is over."""
        return self._stage == Stage.DONE

    @property
    def actor(self) -> int | None:
        """The seat to act, or None."""
        return self._actor if self._stage in _ACTING else None

    @property
    def street_name(self) -> str:
        """The current street's name."""
        return self.game.streets[min(self.street, len(self.game.streets) - 1)].name

    @property
    def current_bet(self) -> int:
        """The highest bet of the round."""
        return self._current_bet

    @property
    def total_pot(self) -> int:
        """Every chip committed this hand (bets in front included)."""
        return sum(p.contributed for p in self.players.values())

    @property
    def pots(self) -> list[Pot]:
        """Main and side pots as they stand (bets in front included)."""
        folded = {s for s, p in self.players.items() if p.folded}
        all_in = {s for s, p in self.players.items() if p.all_in}
        return build_pots({s: p.contributed for s, p in self.players.items()}, folded, all_in)

    @property
    def stacks(self) -> dict[int, int]:
        """Chips behind, by seat."""
        return {s: p.stack for s, p in self.players.items()}

    @property
    def awards(self) -> tuple[ev.PotAwarded, ...]:
        """The pots paid so far."""
        return tuple(self._awarded)

    @property
    def next_chore(self) -> Chore | None:
        """The next dealer chore as a value (None when a player is to act or it is over).

        >>> from croupier.poker import HandState, TableRules
        >>> HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1, automatic=False).next_chore
        <Chore.POST_FORCED_BETS: 'post forced bets'>
        """
        if self.phase is not Phase.DEALER:
            return None
        return _CHORES[self._stage]

    def _chore_text(self) -> str:
        """The next dealer chore in words, for messages: ``"deal flop"``, ``"no chore"``."""
        chore = self.next_chore
        if chore is None:
            return "no chore"
        return f"deal {self.street_name}" if chore is Chore.DEAL else chore.value

    def hand_of(self, seat: int) -> HandValue | None:
        """A player's evaluated hand once the board is complete (None if folded or not yet)."""
        return self._hands.get(seat)

    def _log(self, event: ev.Event) -> None:
        self.events.append(event)
        seat = getattr(event, "seat", None)
        if seat is None:  # an event of the whole table (a collection, an award, the board)
            self._all_dirty = True
        else:  # every change to a seat is logged as an event naming it
            self._dirty.add(seat)
        if type(event) is ev.HandShown:  # the cards every viewer may now see
            self._shown = self._shown | frozenset(event.cards)

    def _clockwise_from(self, seat: int) -> list[int]:
        """Seats in clockwise order starting just after ``seat``."""
        seats = list(self.order)
        later = [s for s in seats if s > seat]
        return later + [s for s in seats if s <= seat]

    def _in_hand(self) -> list[PlayerState]:
        return [p for p in self.players.values() if not p.folded]

    def _put(self, player: PlayerState, amount: int) -> int:
        amount = min(amount, player.stack)
        player.stack -= amount
        player.bet += amount
        player.contributed += amount
        return amount

    def _error(self, rule: str, problem: str) -> IllegalActionError:
        allowed = self.legal_actions().describe() if self.actor is not None else "no action"
        return IllegalActionError(rule, problem, allowed)

    def _next_from(self, seat: int) -> int | None:
        for s in self._clockwise_from(seat):
            if s in self._to_act:
                return s
        return None


def _parse_discards(cards: object) -> tuple[Card, ...]:
    """The cards a player discards, or an :class:`InvalidActionError` naming what is wrong."""
    if isinstance(cards, str):
        return _malformed(lambda text, _what: parse_cards(text), cards, "a discard")
    if not isinstance(cards, Iterable):
        raise InvalidActionError(f"a discard is a list of cards, not {cards!r}")
    items = list(cards)
    if not all(isinstance(c, str | Card) for c in items):
        raise InvalidActionError(f"a discard is a list of cards, not {items!r}")
    return _malformed(lambda chosen, _what: parse_cards(chosen), items, "a discard")


def _malformed(check: Callable[[Any, str], T], value: Any, what: str) -> T:
    """``check(value, what)``, its :class:`CroupierError` raised as :class:`InvalidActionError`."""
    try:
        return check(value, what)
    except InvalidActionError:
        raise
    except CroupierError as error:
        raise InvalidActionError(str(error)) from None
