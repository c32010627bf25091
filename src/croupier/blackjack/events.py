"""The immutable event log of a blackjack round.

>>> WagerPlaced(box=1, player="ann", amount=20).describe()
'ann wagers 20 on box 1'
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.blackjack.hands import Outcome, Play
from croupier.cards.card import Card
from croupier.version import engine_version

__all__ = [
    "BoxAction",
    "CardBurned",
    "CardDealt",
    "DealEnded",
    "DealerCard",
    "Event",
    "HandSettled",
    "HiddenCard",
    "InsuranceDecided",
    "InsuranceSettled",
    "RoundStarted",
    "WagerPlaced",
    "box_action",
    "card_dealt",
    "deal_ended",
    "dealer_card",
    "engine_version",
    "hand_settled",
    "round_started",
    "wager_placed",
]


@dataclass(frozen=True)
class Event:
    """Base of every blackjack event.

    >>> CardBurned(Card.parse("2c")).describe()
    'burn'
    """

    def describe(self) -> str:
        """One line."""
        return type(self).__name__


@dataclass(frozen=True)
class RoundStarted(Event):
    """A new round: each player's chips, the shoe's order, whether a card is burned, and
    the engine and rules versions (with the decisions, the round replays exactly).

    >>> RoundStarted((("ann", 100),), (), False, "1.0", "abc").describe()
    'round: ann 100'
    """

    bankrolls: tuple[tuple[str, int], ...]
    """Each player's chips off the table at the start, in seating order."""
    shoe: tuple[Card, ...]
    """The shoe's order at the start, top first (empty in a player's view)."""
    burn: bool
    """Whether the deal burns the shoe's first card (a new shoe)."""
    engine_version: str = ""
    """The croupier version that dealt the round."""
    rules_version: str = ""
    """:attr:`BlackjackRules.fingerprint <croupier.blackjack.rules.BlackjackRules.fingerprint>`
    of the rule set the round was played under."""

    def describe(self) -> str:
        """One line."""
        return "round: " + ", ".join(f"{p} {n}" for p, n in self.bankrolls)


@dataclass(frozen=True)
class HiddenCard(Event):
    """A card a viewer may not see, in place of the event that dealt it (a burn card, a
    peek game's hole card until it is turned).

    >>> HiddenCard("hole card").describe()
    'dealer gets a hole card'
    """

    what: str
    """``"burned"`` or ``"hole card"``."""

    def describe(self) -> str:
        """One line."""
        return "burn" if self.what == "burned" else "dealer gets a hole card"


@dataclass(frozen=True)
class WagerPlaced(Event):
    """A wager on a box (several players may wager on one box; the first decides).

    >>> WagerPlaced(2, "bo", 50).describe()
    'bo wagers 50 on box 2'
    """

    box: int
    player: str
    amount: int

    def describe(self) -> str:
        """One line."""
        return f"{self.player} wagers {self.amount} on box {self.box}"


@dataclass(frozen=True)
class CardBurned(Event):
    """A burn card (the first card of a new shoe).

    >>> CardBurned(Card.parse("Kd")).card
    Card('Kd')
    """

    card: Card

    def describe(self) -> str:
        """One line."""
        return "burn"


@dataclass(frozen=True)
class CardDealt(Event):
    """A card to a box's hand (``hand`` counts split hands from 0).

    >>> CardDealt(1, 0, Card.parse("As")).describe()
    'box 1 hand 0 gets As'
    """

    box: int
    hand: int
    card: Card

    def describe(self) -> str:
        """One line."""
        return f"box {self.box} hand {self.hand} gets {self.card}"


@dataclass(frozen=True)
class DealerCard(Event):
    """A card to the dealer (``hidden`` for a peek game's hole card until it is turned).

    >>> DealerCard(Card.parse("Ah")).describe()
    'dealer gets Ah'
    """

    card: Card
    hidden: bool = False

    def describe(self) -> str:
        """One line."""
        return "dealer gets a hole card" if self.hidden else f"dealer gets {self.card}"


@dataclass(frozen=True)
class InsuranceDecided(Event):
    """A player's insurance stake against the dealer's ace (0: declined).

    >>> InsuranceDecided(1, "ann", 5).describe()
    'ann insures box 1 for 5'
    """

    box: int
    player: str
    amount: int

    def describe(self) -> str:
        """One line."""
        if not self.amount:
            return f"{self.player} declines insurance on box {self.box}"
        return f"{self.player} insures box {self.box} for {self.amount}"


@dataclass(frozen=True)
class BoxAction(Event):
    """A decision on a box's hand, a :class:`~croupier.blackjack.hands.Play` (given as its
    value, ``"split"``, it becomes the enum).

    >>> BoxAction(3, 0, "split")
    BoxAction(box=3, hand=0, action=<Play.SPLIT: 'split'>)
    >>> BoxAction(3, 0, "split").describe()
    'box 3 hand 0: split'
    """

    box: int
    hand: int
    action: Play

    def __post_init__(self) -> None:
        if type(self.action) is not Play:
            object.__setattr__(self, "action", Play(self.action))

    def describe(self) -> str:
        """One line."""
        return f"box {self.box} hand {self.hand}: {self.action}"


@dataclass(frozen=True)
class InsuranceSettled(Event):
    """An insurance stake paid 2:1 (dealer blackjack) or lost.

    >>> InsuranceSettled(1, "ann", 5, 10).describe()
    'ann insurance on box 1: +10'
    """

    box: int
    player: str
    stake: int
    net: int

    def describe(self) -> str:
        """One line."""
        return f"{self.player} insurance on box {self.box}: {self.net:+d}"


@dataclass(frozen=True)
class HandSettled(Event):
    """One player's stake on one hand settled: the :class:`~croupier.blackjack.hands.Outcome`
    and the net chips won or lost.

    >>> HandSettled(1, 0, "ann", "blackjack", 10, 15, "4.1(c)").describe()
    'box 1 hand 0 ann: blackjack, +15 (4.1(c))'
    """

    box: int
    hand: int
    player: str
    outcome: Outcome
    stake: int
    net: int
    rule: str

    def __post_init__(self) -> None:
        if type(self.outcome) is not Outcome:
            object.__setattr__(self, "outcome", Outcome(self.outcome))

    def describe(self) -> str:
        """One line."""
        return f"box {self.box} hand {self.hand} {self.player}: {self.outcome}, {self.net:+d} ({self.rule})"


@dataclass(frozen=True)
class DealEnded(Event):
    """The round is over: each player's chips off the table and the bank's result. The last
    event of a deal, with the same name in both games (poker's is
    :class:`croupier.poker.events.DealEnded`).

    >>> DealEnded((("ann", 110),), -10).describe()
    'round over: ann 110, bank -10'
    """

    bankrolls: tuple[tuple[str, int], ...]
    bank: int

    def describe(self) -> str:
        """One line."""
        players = ", ".join(f"{p} {n}" for p, n in self.bankrolls)
        return f"round over: {players}, bank {self.bank:+d}"


# ------------------------------------------------------------------ shared values
# An event is a frozen value: the referee hands out one instance for each card to each
# hand, each dealer card and each decision rather than build one at every step (the same
# card to the same box's hand in two rounds is the same event, equal and identical).
_SHARED: dict[tuple[object, ...], Event] = {}
_SHARED_KEPT = 8192
_PLAY_CODES: dict[Play, int] = {play: code for code, play in enumerate(Play)}


def _shared(key: tuple[object, ...], event: Event) -> Event:
    if len(_SHARED) >= _SHARED_KEPT:
        _SHARED.clear()
    _SHARED[key] = event
    return event


def card_dealt(box: int, hand: int, card: Card) -> CardDealt:
    """``CardDealt(box, hand, card)``, the one instance handed out for these values.

    >>> card_dealt(1, 0, Card.parse("As")) is card_dealt(1, 0, Card.parse("As"))
    True
    """
    key = (0, box, hand, card.index)
    made = _SHARED.get(key)
    if made is None:
        made = _shared(key, CardDealt(box, hand, card))
    return made  # type: ignore[return-value]


def dealer_card(card: Card, hidden: bool = False) -> DealerCard:
    """``DealerCard(card, hidden)``, the one instance handed out for these values.

    >>> dealer_card(Card.parse("9d"), True)
    DealerCard(card=Card('9d'), hidden=True)
    """
    key = (1, card.index, hidden)
    made = _SHARED.get(key)
    if made is None:
        made = _shared(key, DealerCard(card, hidden))
    return made  # type: ignore[return-value]


def box_action(box: int, hand: int, play: Play) -> BoxAction:
    """``BoxAction(box, hand, play)``, the one instance handed out for these values.

    >>> box_action(2, 1, Play.STAND)
    BoxAction(box=2, hand=1, action=<Play.STAND: 'stand'>)
    """
    key = (2, box, hand, _PLAY_CODES[play])
    made = _SHARED.get(key)
    if made is None:
        made = _shared(key, BoxAction(box, hand, play))
    return made  # type: ignore[return-value]


def wager_placed(box: int, player: str, amount: int) -> WagerPlaced:
    """``WagerPlaced(box, player, amount)``, the one instance handed out for these values.

    >>> wager_placed(1, "ann", 10) is wager_placed(1, "ann", 10)
    True
    """
    key = (3, box, player, amount)
    made = _SHARED.get(key)
    if made is None:
        made = _shared(key, WagerPlaced(box, player, amount))
    return made  # type: ignore[return-value]


def hand_settled(
    box: int, hand: int, player: str, outcome: Outcome, stake: int, net: int, rule: str
) -> HandSettled:
    """``HandSettled(...)`` for an :class:`Outcome`, the one instance handed out for these
    values.

    >>> hand_settled(1, 0, "ann", Outcome.WIN, 10, 10, "Blackjack 4.1(b)").describe()
    'box 1 hand 0 ann: win, +10 (Blackjack 4.1(b))'
    """
    key = (4, box, hand, player, outcome, stake, net, rule)
    made = _SHARED.get(key)
    if made is None:
        made = _shared(key, HandSettled(box, hand, player, outcome, stake, net, rule))
    return made  # type: ignore[return-value]


# A bare instance (``_new``) gets its fields written into its dict: a frozen dataclass's
# ``__init__`` sets each through ``object.__setattr__``, several times slower.
_new = object.__new__


def round_started(
    bankrolls: tuple[tuple[str, int], ...],
    shoe: tuple[Card, ...],
    burn: bool,
    engine_version: str,
    rules_version: str,
) -> RoundStarted:
    """``RoundStarted(...)`` made without the generated ``__init__`` (a frozen dataclass
    sets each field through ``object.__setattr__``; the fields here need no checks).

    >>> round_started((("ann", 5),), (), False, "1", "r") == RoundStarted((("ann", 5),), (), False, "1", "r")
    True
    """
    made = _new(RoundStarted)
    fields = made.__dict__
    fields["bankrolls"] = bankrolls
    fields["shoe"] = shoe
    fields["burn"] = burn
    fields["engine_version"] = engine_version
    fields["rules_version"] = rules_version
    return made


def deal_ended(bankrolls: tuple[tuple[str, int], ...], bank: int) -> DealEnded:
    """``DealEnded(bankrolls, bank)`` made without the generated ``__init__``.

    >>> deal_ended((("ann", 5),), 2) == DealEnded((("ann", 5),), 2)
    True
    """
    made = _new(DealEnded)
    fields = made.__dict__
    fields["bankrolls"] = bankrolls
    fields["bank"] = bank
    return made
