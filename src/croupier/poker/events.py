"""The immutable event log of a poker hand: every deal, burn, bet, pot and award.

Each state change of :class:`~croupier.poker.state.HandState` appends exactly one
of these frozen records. The log is the audit trail, the hand-history source and
the replay input at once.

>>> Called(seat=2, amount=20, all_in=False).describe()
'seat 2 calls 20'
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards.card import Card, format_cards
from croupier.poker import actions as act

__all__ = [
    "AntePosted",
    "BetReturned",
    "BetsCollected",
    "BlindPosted",
    "BringIn",
    "Called",
    "CardBoxed",
    "CardBurned",
    "CardsDealt",
    "Checked",
    "CommunityDealt",
    "Conceded",
    "DealEnded",
    "DeckCut",
    "Discarded",
    "Event",
    "Folded",
    "HandMucked",
    "HandShown",
    "HandStarted",
    "HiddenCards",
    "PlayerAction",
    "PotAwarded",
    "RaisedTo",
    "RakeTaken",
    "ShowRequested",
    "StubRestocked",
]


@dataclass(frozen=True)
class Event:
    """Base of every event.

    >>> Folded(seat=1).describe()
    'seat 1 folds'
    """

    def describe(self) -> str:
        """One line for logs and the terminal."""
        return type(self).__name__


@dataclass(frozen=True)
class PlayerAction(Event):
    """Base of the events a player chooses (the replayable decisions). Each has the shape
    of blackjack's :class:`~croupier.blackjack.events.BoxAction`: an :attr:`actor` and the
    :attr:`action` value it records, which :meth:`HandState.apply
    <croupier.poker.state.HandState.apply>` takes.

    >>> isinstance(Checked(seat=4), PlayerAction)
    True
    >>> RaisedTo(1, to=60, increment=40, full=True, all_in=False).action
    RaiseTo(amount=60, seat=1)
    """

    seat: int
    """Who acted."""

    @property
    def actor(self) -> int:
        """The seat whose decision this is (for :class:`ShowRequested`, the seat asked).

        >>> Folded(3).actor
        3
        """
        return self.seat

    @property
    def action(self) -> act.Action:
        """The action value this event records, named for its seat.

        >>> Folded(3).action
        Fold(seat=3)
        """
        raise NotImplementedError  # pragma: no cover - every decision below says


@dataclass(frozen=True)
class HandStarted(Event):
    """A new hand: who sits where with what, the button, and the deck order (for audit).

    >>> HandStarted("holdem", 1, (1, 2), (100, 100), ()).describe()
    'holdem hand, button seat 1, seats [1, 2]'
    """

    game: str
    """The game's name."""
    button: int
    """The button seat (for stud, the dealer position the deal starts after)."""
    seats: tuple[int, ...]
    """Occupied seats, in seat order."""
    stacks: tuple[int, ...]
    """Each seat's chips at the start, in the order of ``seats``."""
    deck: tuple[Card, ...]
    """The deck order, top first: with it and the actions the hand replays exactly."""
    voluntary_blind: bool = False
    """Whether the player left of the last blind posted a voluntary blind (11.x(c))."""
    antes: tuple[int, ...] = ()
    """Each seat's ante, in the order of ``seats`` (empty: none)."""
    ante_trimming: bool = False
    """Whether a lone higher ante is returned (PHH's ``ante_trimming_status``)."""
    engine_version: str = ""
    """The croupier version that dealt the hand."""
    rules_version: str = ""
    """A fingerprint of the rule-set data the hand was played under
    (:attr:`TableRules.fingerprint <croupier.poker.settings.TableRules.fingerprint>`)."""
    blinds: tuple[tuple[int, int], ...] = ()
    """(seat, amount) of each blind when the table named them, first to last (empty: the
    rules' blinds, posted from the button)."""

    def describe(self) -> str:
        """One line."""
        return f"{self.game} hand, button seat {self.button}, seats {list(self.seats)}"


@dataclass(frozen=True)
class AntePosted(Event):
    """An ante (12.1(b)).

    >>> AntePosted(3, 5).describe()
    'seat 3 antes 5'
    """

    seat: int
    amount: int

    def describe(self) -> str:
        """One line."""
        return f"seat {self.seat} antes {self.amount}"


@dataclass(frozen=True)
class BlindPosted(Event):
    """A compulsory blind (17.1(c)) or a voluntary blind (11.x(c)).

    >>> BlindPosted(2, 10).describe()
    'seat 2 posts blind 10'
    """

    seat: int
    amount: int
    voluntary: bool = False

    def describe(self) -> str:
        """One line."""
        kind = "voluntary blind" if self.voluntary else "blind"
        return f"seat {self.seat} posts {kind} {self.amount}"


@dataclass(frozen=True)
class CardsDealt(Event):
    """Cards dealt to one player (``up`` says whether face up).

    >>> from croupier.cards import parse_cards
    >>> CardsDealt(1, parse_cards("As"), up=False).describe()
    'seat 1 is dealt ??'
    """

    seat: int
    cards: tuple[Card, ...]
    up: bool

    def describe(self) -> str:
        """One line (down cards shown as ``??``: the log itself keeps them)."""
        shown = format_cards(self.cards, " ") if self.up else " ".join("??" for _ in self.cards)
        return f"seat {self.seat} is dealt {shown}"


@dataclass(frozen=True)
class DeckCut(Event):
    """The cut after the shuffle (Poker definitions: Cut): the top ``position`` cards went
    to the bottom. ``position`` is None when the deck was handed over already cut (a
    stacked deck, a replayed record, or a live dealer who did not report it).

    >>> DeckCut(17).describe(), DeckCut(None).describe()
    ('the deck is cut at card 17', 'the deck is dealt in the order given')
    """

    position: int | None

    def describe(self) -> str:
        """One line."""
        if self.position is None:
            return "the deck is dealt in the order given"
        return f"the deck is cut at card {self.position}"


@dataclass(frozen=True)
class CardBoxed(Event):
    """A card found face up in the deck (Poker definitions: Boxed Card), reported by the
    dealer: it is shown to everyone and set aside like a burn card.

    >>> from croupier.cards import Card
    >>> CardBoxed(Card.parse("7h")).describe()
    'boxed card 7h set aside'
    """

    card: Card

    def describe(self) -> str:
        """One line."""
        return f"boxed card {self.card} set aside"


@dataclass(frozen=True)
class HiddenCards(Event):
    """What a seat's view shows in place of cards it may not see: ``count`` cards dealt to
    (or discarded by) ``seat``, a burn card, or the order of a restock (``seat`` None).

    >>> HiddenCards(2, 2, "dealt").describe(), HiddenCards(None, 1, "burned").describe()
    ('seat 2 is dealt ?? ??', 'burn')
    """

    seat: int | None
    count: int
    what: str
    """``dealt``, ``discarded``, ``burned`` or ``restocked``."""

    def describe(self) -> str:
        """One line."""
        hidden = " ".join("??" for _ in range(self.count))
        if self.what == "dealt":
            return f"seat {self.seat} is dealt {hidden}"
        if self.what == "discarded":
            return f"seat {self.seat} draws {self.count}"
        if self.what == "burned":
            return "burn"
        return f"the discards ({self.count} cards) are shuffled under the stub"


@dataclass(frozen=True)
class CommunityDealt(Event):
    """Community cards turned face up (a flop, a turn, a stud community card...).

    >>> from croupier.cards import parse_cards
    >>> CommunityDealt(parse_cards("Ah Kd 2c")).describe()
    'board: Ah Kd 2c'
    """

    cards: tuple[Card, ...]

    def describe(self) -> str:
        """One line."""
        return f"board: {format_cards(self.cards, ' ')}"


@dataclass(frozen=True)
class CardBurned(Event):
    """A burn card (kept face down, apart from the discards).

    >>> from croupier.cards import Card
    >>> CardBurned(Card.parse("2c")).describe()
    'burn'
    """

    card: Card

    def describe(self) -> str:
        """One line."""
        return "burn"


@dataclass(frozen=True)
class StubRestocked(Event):
    """Draw poker: the stub ran short, so the discards were shuffled (with the hand's random
    source) and put under it; ``cards`` is their new order, for audit and replay. The
    public description never shows the order.

    >>> from croupier.cards import parse_cards
    >>> StubRestocked(parse_cards("2c 9h")).describe()
    'the discards (2 cards) are shuffled under the stub'
    """

    cards: tuple[Card, ...]

    def describe(self) -> str:
        """One line."""
        return f"the discards ({len(self.cards)} cards) are shuffled under the stub"


@dataclass(frozen=True)
class Discarded(PlayerAction):
    """A draw: the player discards these cards (possibly none) for replacements.

    >>> Discarded(5, ()).describe()
    'seat 5 draws 0'
    """

    cards: tuple[Card, ...]

    @property
    def action(self) -> act.Action:
        """The action this event records."""
        return act.Discard(self.cards, seat=self.seat)

    def describe(self) -> str:
        """One line."""
        return f"seat {self.seat} draws {len(self.cards)}"


@dataclass(frozen=True)
class Conceded(PlayerAction):
    """A hand given up unshown at the showdown: dead, with no claim on any pot.

    >>> Conceded(4).describe()
    'seat 4 concedes'
    """

    @property
    def action(self) -> act.Action:
        """The action this event records."""
        return act.Concede(seat=self.seat)

    def describe(self) -> str:
        """One line."""
        return f"seat {self.seat} concedes"


@dataclass(frozen=True)
class ShowRequested(PlayerAction):
    """A player at the table asks to see ``seat``'s showdown hand (17.5(d)).

    >>> ShowRequested(2).describe()
    'seat 2 is asked to show'
    """

    @property
    def action(self) -> act.Action:
        """The action this event records."""
        return act.RequestShow(self.seat)

    def describe(self) -> str:
        """One line."""
        return f"seat {self.seat} is asked to show"


@dataclass(frozen=True)
class Folded(PlayerAction):
    """A fold.

    >>> Folded(2).describe()
    'seat 2 folds'
    """

    @property
    def action(self) -> act.Action:
        """The action this event records."""
        return act.Fold(seat=self.seat)

    def describe(self) -> str:
        """One line."""
        return f"seat {self.seat} folds"


@dataclass(frozen=True)
class Checked(PlayerAction):
    """A check.

    >>> Checked(2).describe()
    'seat 2 checks'
    """

    @property
    def action(self) -> act.Action:
        """The action this event records."""
        return act.Check(seat=self.seat)

    def describe(self) -> str:
        """One line."""
        return f"seat {self.seat} checks"


@dataclass(frozen=True)
class Called(PlayerAction):
    """A call of ``amount`` more chips (an all-in call when the stack is short).

    >>> Called(2, 15, all_in=True).describe()
    'seat 2 calls 15 (all in)'
    """

    amount: int
    all_in: bool

    @property
    def action(self) -> act.Action:
        """The action this event records."""
        return act.Call(seat=self.seat)

    def describe(self) -> str:
        """One line."""
        return f"seat {self.seat} calls {self.amount}" + (" (all in)" if self.all_in else "")


@dataclass(frozen=True)
class BringIn(PlayerAction):
    """The stud bring-in: the lowest up card opens with at least the table minimum (12.2(a)).

    >>> BringIn(4, 10, all_in=False).describe()
    'seat 4 brings in for 10'
    """

    to: int
    all_in: bool

    @property
    def action(self) -> act.Action:
        """The action this event records."""
        return act.BringIn(self.to, seat=self.seat)

    def describe(self) -> str:
        """One line."""
        return f"seat {self.seat} brings in for {self.to}"


@dataclass(frozen=True)
class RaisedTo(PlayerAction):
    """A bet (first chips of the round) or a raise, to a round total of ``to``.

    >>> RaisedTo(1, to=60, increment=40, full=True, all_in=False).describe()
    'seat 1 raises to 60'
    """

    to: int
    increment: int
    full: bool
    all_in: bool

    @property
    def action(self) -> act.Action:
        """The action this event records."""
        return act.RaiseTo(self.to, seat=self.seat)

    def describe(self) -> str:
        """One line."""
        verb = "raises to" if self.increment != self.to else "bets"
        return f"seat {self.seat} {verb} {self.to}" + (" (all in)" if self.all_in else "")


@dataclass(frozen=True)
class BetReturned(Event):
    """An uncalled bet (or its uncalled part) goes back to the bettor.

    >>> BetReturned(1, 40).describe()
    'uncalled 40 returned to seat 1'
    """

    seat: int
    amount: int

    def describe(self) -> str:
        """One line."""
        return f"uncalled {self.amount} returned to seat {self.seat}"


@dataclass(frozen=True)
class BetsCollected(Event):
    """The round's bets swept into the pot.

    >>> BetsCollected(120).describe()
    'pot 120'
    """

    total: int
    """The pot after the sweep (all pots together)."""

    def describe(self) -> str:
        """One line."""
        return f"pot {self.total}"


@dataclass(frozen=True)
class HandShown(Event):
    """A hand exposed at the showdown (or on request, 17.5(d)).

    >>> from croupier.cards import parse_cards
    >>> HandShown(1, parse_cards("As Ad"), "Pair of aces").describe()
    'seat 1 shows As Ad (Pair of aces)'
    """

    seat: int
    cards: tuple[Card, ...]
    description: str

    def describe(self) -> str:
        """One line."""
        return f"seat {self.seat} shows {format_cards(self.cards, ' ')} ({self.description})"


@dataclass(frozen=True)
class HandMucked(Event):
    """A losing hand thrown away unshown at the showdown (17.5(d) only requires better hands).

    >>> HandMucked(3).describe()
    'seat 3 mucks'
    """

    seat: int

    def describe(self) -> str:
        """One line."""
        return f"seat {self.seat} mucks"


@dataclass(frozen=True)
class RakeTaken(Event):
    """House commission taken from the pot.

    >>> RakeTaken(3).describe()
    'rake 3'
    """

    amount: int

    def describe(self) -> str:
        """One line."""
        return f"rake {self.amount}"


@dataclass(frozen=True)
class PotAwarded(Event):
    """One pot paid out: ``shares`` per winning seat, ``odd_chip_seat`` got the remainder.

    >>> PotAwarded(0, 105, ((1, 50), (2, 55)), 2).describe()
    'pot 0 (105): seat 1 50, seat 2 55'
    """

    pot: int
    """0 for the main pot, then the side pots in order."""
    amount: int
    shares: tuple[tuple[int, int], ...]
    """(seat, chips) for each winner, remainder included."""
    odd_chip_seat: int | None
    """Who received the indivisible remainder (17.5(e)), if there was one."""

    def describe(self) -> str:
        """One line."""
        who = ", ".join(f"seat {s} {a}" for s, a in self.shares)
        return f"pot {self.pot} ({self.amount}): {who}"


@dataclass(frozen=True)
class DealEnded(Event):
    """The hand is over: final stacks in seat order. The last event of a deal, with the
    same name in both games (blackjack's is :class:`croupier.blackjack.events.DealEnded`).

    >>> DealEnded(((1, 150), (2, 50))).describe()
    'hand over: seat 1 150, seat 2 50'
    """

    stacks: tuple[tuple[int, int], ...]

    def describe(self) -> str:
        """One line."""
        return "hand over: " + ", ".join(f"seat {s} {a}" for s, a in self.stacks)
