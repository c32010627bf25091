"""What every part of the poker referee shares: where a hand is (:class:`Phase`,
:class:`Stage`, :class:`Chore`), each seat's state (:class:`PlayerState`) and the record of
one hand the parts read and write (:class:`HandCore`).

>>> from croupier.poker import HandState, TableRules
>>> HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1).phase
<Phase.BETTING: 'betting'>
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from croupier.cards.card import Card, parse_cards
from croupier.errors import CroupierError, InvalidActionError
from croupier.evaluation.hand import HandValue
from croupier.poker import events as ev
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


# The stages and phases the referee tests at every decision, each read once here: reading a
# member off an enum class goes through the enum's metaclass (about 80 ns on Python 3.11,
# four times a plain class attribute), and a decision makes dozens of such tests.
_FORCED, _DEAL, _BET, _DRAW = Stage.FORCED, Stage.DEAL, Stage.BET, Stage.DRAW
_COLLECT, _SHOWDOWN, _AWARD, _DONE = Stage.COLLECT, Stage.SHOWDOWN, Stage.AWARD, Stage.DONE
_BETTING, _DRAWING, _DEALER, _COMPLETE = Phase.BETTING, Phase.DRAWING, Phase.DEALER, Phase.COMPLETE


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

    @classmethod
    def seated(cls, seat: int, stack: int) -> PlayerState:
        """A player sitting down to a hand with ``stack`` chips, nothing dealt or bet yet:
        ``PlayerState(seat=seat, starting_stack=stack, stack=stack)`` made without the
        generated ``__init__`` (keywords and default factories, six times a hand).

        >>> PlayerState.seated(3, 100) == PlayerState(seat=3, starting_stack=100, stack=100)
        True
        """
        made = object.__new__(cls)
        made.__dict__.update(
            seat=seat,
            starting_stack=stack,
            stack=stack,
            down=[],
            up=[],
            folded=False,
            bet=0,
            contributed=0,
            acted_serial=-1,
            drawn=False,
        )
        return made

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


@functools.lru_cache(maxsize=4096)
def _rotation(order: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """``order`` (seats in clockwise order) starting just after ``seat``.

    >>> _rotation((1, 4, 6), 4)
    (6, 1, 4)
    """
    return (*[s for s in order if s > seat], *[s for s in order if s <= seat])


class HandCore:
    """The facts of one hand that every part of the referee reads and writes: the seats,
    the board, the street, the stage and the seat to act, the log. The parts
    (:class:`~croupier.poker.betting.BettingRound`, :class:`~croupier.poker.dealing.Dealer`
    and the showdown's functions) each hold their own state and share only this record;
    :class:`~croupier.poker.state.HandState` puts them together.

    >>> from croupier.poker import TableRules
    >>> core = HandCore(TableRules(), button=1, stacks={1: 100, 2: 100})
    >>> core.clockwise_from(1), core.phase, core.total_pot
    ([2, 1], <Phase.DEALER: 'dealer'>, 0)
    """

    __slots__ = (
        "actor",
        "all_dirty",
        "awarded",
        "board",
        "button",
        "dead",
        "dirty",
        "game",
        "hands",
        "log",
        "order",
        "players",
        "rules",
        "shown",
        "stage",
        "street",
        "to_act",
    )

    def __init__(self, rules: TableRules, button: int, stacks: dict[int, int]) -> None:
        self.rules = rules
        """The table's rules."""
        self.game: GameSpec = rules.game
        """The game."""
        self.button = button
        """The button seat."""
        self.players: dict[int, PlayerState] = {
            s: PlayerState.seated(s, n) for s, n in sorted(stacks.items())
        }
        """Each seat's state, in seat order."""
        self.order: tuple[int, ...] = tuple(self.players)
        """Seats in clockwise order."""
        self.board: list[Card] = []
        """Community cards."""
        self.street = 0
        """Index of the current street."""
        self.stage = Stage.FORCED
        """What the hand does next."""
        self.actor: int | None = None
        """The seat to act while the stage is a player's (betting, drawing)."""
        self.to_act: set[int] = set()
        """The seats still to act this round."""
        self.dead: set[int] = set()
        """Seats whose hands were conceded at the showdown (no claim on any pot)."""
        self.hands: dict[int, HandValue] = {}
        """The hands read at the showdown, by seat."""
        self.awarded: list[ev.PotAwarded] = []
        """The pots paid."""
        self.log: list[ev.Event] = []
        """The event log (the referee alone appends to it, through :meth:`record`)."""
        self.dirty: set[int] = set()
        """Seats whose public record may have changed since the last view."""
        self.all_dirty = True
        """Whether an event of the whole table came since the last view."""
        self.shown: frozenset[Card] = frozenset()
        """The cards every viewer may see (hands shown)."""

    def copy(self) -> HandCore:
        """An independent copy: the players, the board and the sets are copied, the events
        and cards (immutable) shared."""
        twin = object.__new__(HandCore)
        for name in HandCore.__slots__:
            setattr(twin, name, getattr(self, name))
        players = {}
        for seat, player in self.players.items():
            copied = object.__new__(PlayerState)
            copied.__dict__ = player.__dict__.copy()
            copied.down = player.down[:]
            copied.up = player.up[:]
            players[seat] = copied
        twin.players = players
        twin.board = self.board[:]
        twin.to_act = set(self.to_act)
        twin.dead = set(self.dead)
        twin.hands = dict(self.hands)
        twin.awarded = self.awarded[:]
        twin.log = self.log[:]
        twin.dirty = set()
        twin.all_dirty = True
        return twin

    # ----------------------------------------------------------------- views
    @property
    def phase(self) -> Phase:
        """Where the hand is."""
        stage = self.stage
        if stage is _DONE:
            return _COMPLETE
        if self.actor is not None:
            if stage is _BET:
                return _BETTING
            if stage is _DRAW:
                return _DRAWING
        return _DEALER

    @property
    def acting(self) -> int | None:
        """The seat to act while the stage is a player's (betting, drawing), else None."""
        stage = self.stage
        return self.actor if stage is _BET or stage is _DRAW else None

    @property
    def next_chore(self) -> Chore | None:
        """The next dealer chore (None when a player is to act or the hand is over)."""
        if self.phase is not Phase.DEALER:
            return None
        return _CHORES[self.stage]

    @property
    def street_name(self) -> str:
        """The current street's name."""
        streets = self.game.streets
        street = self.street
        return streets[street if street < len(streets) else -1].name

    @property
    def total_pot(self) -> int:
        """Every chip committed this hand (bets in front included)."""
        total = 0
        for player in self.players.values():
            total += player.contributed
        return total

    @property
    def pots(self) -> list[Pot]:
        """Main and side pots as they stand (bets in front included)."""
        contributions: dict[int, int] = {}
        folded: set[int] = set()
        all_in: set[int] = set()
        for seat, player in self.players.items():
            contributions[seat] = player.contributed
            if player.folded:
                folded.add(seat)
            elif player.all_in:
                all_in.add(seat)
        return build_pots(contributions, folded, all_in)

    def chore_text(self) -> str:
        """The next dealer chore in words, for messages: ``"deal flop"``, ``"no chore"``."""
        chore = self.next_chore
        if chore is None:
            return "no chore"
        return f"deal {self.street_name}" if chore is Chore.DEAL else chore.value

    # ---------------------------------------------------------------- changes
    def record(self, event: ev.Event) -> None:
        """Append ``event`` to the log, marking what the seat views must show anew."""
        self.log.append(event)
        seat = getattr(event, "seat", None)
        if seat is None:  # an event of the whole table (a collection, an award, the board)
            self.all_dirty = True
        else:  # every change to a seat is logged as an event naming it
            self.dirty.add(seat)
        if type(event) is ev.HandShown:  # the cards every viewer may now see
            self.shown = self.shown | frozenset(event.cards)

    def clockwise_from(self, seat: int) -> list[int]:
        """Seats in clockwise order starting just after ``seat``."""
        return list(self.clockwise(seat))

    def clockwise(self, seat: int) -> tuple[int, ...]:
        """Seats in clockwise order starting just after ``seat``: :meth:`clockwise_from`
        as a tuple worked out once for every hand at the same seats."""
        return _rotation(self.order, seat)

    def in_hand(self) -> list[PlayerState]:
        """The players who have not folded."""
        return [p for p in self.players.values() if not p.folded]

    def one_left(self) -> bool:
        """Whether exactly one player has not folded (the hand is his)."""
        count = 0
        for player in self.players.values():
            if not player.folded:
                count += 1
        return count == 1

    def put(self, player: PlayerState, amount: int) -> int:
        """Move up to ``amount`` of ``player``'s chips in front of him; return what moved."""
        amount = min(amount, player.stack)
        player.stack -= amount
        player.bet += amount
        player.contributed += amount
        return amount

    def next_to_act(self, seat: int) -> int | None:
        """The first seat after ``seat``, clockwise, still to act this round."""
        to_act = self.to_act
        for s in self.clockwise(seat):
            if s in to_act:
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
