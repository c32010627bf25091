"""The round's vocabulary: where it is, who acts, the plays, the outcomes, boxes and hands.

Everything here is data: :class:`PlayerHand` and :class:`Box` are what the referee
(:class:`~croupier.blackjack.round.BlackjackRound`) changes; the enums name the plays
logged in :class:`~croupier.blackjack.events.BoxAction` and the settlement outcomes.

>>> hand = PlayerHand(cards=[Card.parse("Ah"), Card.parse("Kd")], stakes={"ann": 10})
>>> hand.total, hand.is_blackjack, Play("split"), Outcome.BLACKJACK == "blackjack"
(21, True, <Play.SPLIT: 'split'>, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from croupier.blackjack.values import hand_total
from croupier.cards.card import Card

__all__ = ["Box", "Outcome", "Phase", "Play", "PlayerHand", "Turn", "turn_of"]


class Phase(StrEnum):
    """Where the round is: the same shape as poker's :class:`croupier.poker.Phase` (a
    string enum ending in ``COMPLETE``), with blackjack's own steps.

    >>> Phase.WAGERS.value
    'wagers'
    """

    WAGERS = "wagers"
    """Wagers may be placed, changed or withdrawn (4.2)."""
    INSURANCE = "insurance"
    """The dealer shows an ace: players decide on insurance."""
    PLAYING = "playing"
    """A box's hand is to act."""
    COMPLETE = "complete"
    """The round is over: the dealer has played and every wager is settled."""


class Play(StrEnum):
    """A decision on a box's hand, as logged in :class:`~croupier.blackjack.events.BoxAction`.

    >>> [p.value for p in Play]
    ['hit', 'stand', 'double', 'split', 'surrender', 'even money']
    """

    HIT = "hit"
    """Draw a card (12.1)."""
    STAND = "stand"
    """Take no more cards."""
    DOUBLE = "double"
    """Double the stake for exactly one card (12.1(b))."""
    SPLIT = "split"
    """Split a pair into two hands (11.1-11.5)."""
    SURRENDER = "surrender"
    """Give up half the stake (Decision 3.1-13)."""
    EVEN_MONEY = "even money"
    """A blackjack against an ace paid 1:1 at once (Decision 3.1-6)."""


class Outcome(StrEnum):
    """How one stake on one hand was settled (Blackjack 4.1).

    >>> Outcome("dealer blackjack")
    <Outcome.DEALER_BLACKJACK: 'dealer blackjack'>
    """

    WIN = "win"
    """The hand beats the dealer, or the dealer busts: paid 1:1 (4.1(a), (b))."""
    BLACKJACK = "blackjack"
    """A blackjack against no dealer blackjack: paid at the table's rate (4.1(c))."""
    PUSH = "push"
    """A tie: the stake comes back (4.1(e))."""
    LOSE = "lose"
    """The dealer's total is higher (4.1(g))."""
    BUST = "bust"
    """Over 21: lost whatever the dealer makes (4.1(f))."""
    DEALER_BLACKJACK = "dealer blackjack"
    """The dealer's blackjack takes the stake, or its original wager (4.1(d), 11.7)."""
    SURRENDER = "surrender"
    """Surrendered: half the stake back (Decision 3.1-13)."""
    EVEN_MONEY = "even money"
    """Even money taken on a blackjack (Decision 3.1-6)."""


@dataclass(frozen=True)
class Turn:
    """Who acts: a box's hand (``hand`` its index) or, with ``hand`` None, an insurance
    decision; ``player`` is the player who decides (a box's first wager decides its hands).

    >>> Turn(2, 0, "bo"), Turn(1, None, "ann").is_insurance
    (Turn(box=2, hand=0, player='bo'), True)
    """

    box: int
    """The box number."""
    hand: int | None
    """The hand's index on the box (0 unless split), or None for an insurance decision."""
    player: str
    """The player deciding."""

    @property
    def is_insurance(self) -> bool:
        """Whether this is an insurance decision."""
        return self.hand is None


_TURNS: dict[tuple[int, int | None, str], Turn] = {}
_TURNS_KEPT = 4096


def turn_of(box: int, hand: int | None, player: str) -> Turn:
    """``Turn(box, hand, player)``, the one instance handed out for these values (a frozen
    value: the referee hands out the same one again rather than build one at every turn).

    >>> turn_of(2, 0, "bo") is turn_of(2, 0, "bo"), turn_of(2, 0, "bo") == Turn(2, 0, "bo")
    (True, True)
    """
    key = (box, hand, player)
    turn = _TURNS.get(key)
    if turn is None:
        if len(_TURNS) >= _TURNS_KEPT:
            _TURNS.clear()
        turn = _TURNS[key] = Turn(box, hand, player)
    return turn


@dataclass
class PlayerHand:
    """One hand on a box: its cards and each player's stake on it.

    >>> hand = PlayerHand(cards=[Card.parse("Ah"), Card.parse("Kd")], stakes={"ann": 10})
    >>> hand.total, hand.is_blackjack
    (21, True)
    """

    cards: list[Card]
    """The hand's cards."""
    stakes: dict[str, int]
    """Each player's stake on this hand (doubles included)."""
    from_split: bool = False
    """Made by splitting (never a blackjack, 11.4(c))."""
    split_aces: bool = False
    """Made by splitting aces (one card only, 11.4(b))."""
    doubled: bool = False
    """Doubled (exactly one more card, 12.1(b))."""
    surrendered: bool = False
    """Given up for half the stake."""
    done: bool = False
    """No more decisions."""
    acted: bool = False
    """A decision has been taken on this hand."""

    @property
    def total(self) -> int:
        """The best total (3.2)."""
        return hand_total(self.cards)[0]

    @property
    def soft(self) -> bool:
        """Whether an ace counts 11."""
        return hand_total(self.cards)[1]

    @property
    def busted(self) -> bool:
        """Over 21."""
        return self.total > 21

    @property
    def is_blackjack(self) -> bool:
        """Two-card 21 on an unsplit hand (11.4(c): split hands never are)."""
        return len(self.cards) == 2 and self.total == 21 and not self.from_split

    def copy(self) -> PlayerHand:
        """An independent copy (the cards themselves are immutable).

        >>> hand = PlayerHand([Card.parse("8h")], {"ann": 10}); twin = hand.copy()
        >>> twin.cards.append(Card.parse("8s")); len(hand.cards)
        1
        """
        twin = object.__new__(PlayerHand)
        twin.__dict__.update(self.__dict__)
        twin.cards = self.cards[:]
        twin.stakes = dict(self.stakes)
        return twin


@dataclass
class Box:
    """A box (spot) on the layout: the wagers on it and the hands it becomes.

    >>> Box(1, {"ann": 10}).owner
    'ann'
    """

    number: int
    """The box number (1 at the dealer's left)."""
    wagers: dict[str, int]
    """Each player's original wager; the first player makes the decisions."""
    hands: list[PlayerHand] = field(default_factory=list)
    """The hands (more than one after a split)."""
    insurance: dict[str, int] = field(default_factory=dict)
    """Each player's insurance stake."""
    even_money: set[str] = field(default_factory=set)
    """Players paid even money on a blackjack (Decision 3.1-6)."""
    split_declined: bool = False
    """11.5: a pair was not split, so no later pair may be."""

    @property
    def owner(self) -> str:
        """The player who decides for the box."""
        return next(iter(self.wagers))

    def copy(self) -> Box:
        """An independent copy, its hands copied too.

        >>> box = Box(1, {"ann": 10}); twin = box.copy(); twin.wagers["bo"] = 10
        >>> box.wagers
        {'ann': 10}
        """
        twin = object.__new__(Box)
        twin.number = self.number
        twin.wagers = dict(self.wagers)
        twin.hands = [h.copy() for h in self.hands]
        twin.insurance = dict(self.insurance)
        twin.even_money = set(self.even_money)
        twin.split_declined = self.split_declined
        return twin
