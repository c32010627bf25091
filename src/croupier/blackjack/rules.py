"""Blackjack rule sets as data: the NZ game by default, every house choice a named setting.

The NZ game (Gazette 1996 No 7 with the 1994 rules it cites and the 1999 amendment):
six decks (4-8 allowed for play), the dealer stands on all 17s, no hole card, a
dealer blackjack takes only the original wager from split (11.7) and doubled hands,
up to three hands a box (11.4(a)), aces split once with one card each (11.4(b)),
3:2 for a blackjack, insurance up to half the wager at 2:1, no surrender.

>>> NZ.decks, NZ.hole_card, NZ.max_hands
(6, <HoleCard.NO_HOLE_CARD: 'no-hole-card'>, 3)
>>> BlackjackRules(decks=3).validate_for_play()
Traceback (most recent call last):
...
croupier.errors.RuleViolationError: Blackjack 3.1 as amended: a shoe of 3 decks is not allowed for play; allowed: 4 to 8 decks
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from croupier.errors import RuleViolationError

__all__ = [
    "NZ",
    "BlackjackRules",
    "DealerBlackjackTakes",
    "DoubleOn",
    "HoleCard",
    "PairsBy",
    "Surrender",
]


class HoleCard(StrEnum):
    """When the dealer's second card is dealt (Decision 3.1-3).

    >>> HoleCard("peek")
    <HoleCard.PEEK: 'peek'>
    """

    NO_HOLE_CARD = "no-hole-card"
    """NZ: the dealer's second card comes after every box has played."""
    PEEK = "peek"
    """A hole card dealt up front; a dealer blackjack ends the round before anyone acts."""


class DealerBlackjackTakes(StrEnum):
    """What a dealer blackjack collects from split or doubled hands (11.7, Decision 3.1-4).

    >>> DealerBlackjackTakes.ORIGINAL.value
    'original'
    """

    ORIGINAL = "original"
    """Only the original wager; the added split or double stakes are returned (11.7)."""
    ALL = "all"
    """Every stake on the table (full European no-hole-card rule)."""


class DoubleOn(StrEnum):
    """Which two-card totals may double (Decision 3.1-5).

    >>> DoubleOn.NINE_TO_ELEVEN.allows(10, soft=False), DoubleOn.TEN_ELEVEN.allows(9, soft=False)
    (True, False)
    """

    ANY = "any"
    """Any first two cards."""
    NINE_TO_ELEVEN = "9-11"
    """Hard 9, 10 or 11."""
    TEN_ELEVEN = "10-11"
    """Hard 10 or 11."""

    def allows(self, total: int, *, soft: bool) -> bool:
        """Whether a two-card hand of this total may double."""
        if self is DoubleOn.ANY:
            return True
        low = 9 if self is DoubleOn.NINE_TO_ELEVEN else 10
        return not soft and low <= total <= 11


class PairsBy(StrEnum):
    """What makes a pair for splitting (Decision 3.1-8).

    >>> PairsBy.VALUE.value
    'value'
    """

    VALUE = "value"
    """Same value: any two ten-value cards (K+Q) may split (11.4(a) "same value")."""
    RANK = "rank"
    """Same rank only."""


class Surrender(StrEnum):
    """Surrender (not in the NZ rules; Decision 3.1-13).

    >>> Surrender.NONE.value
    'none'
    """

    NONE = "none"
    """Not offered (NZ)."""
    LATE = "late"
    """Give up half the wager on the first two cards (after the peek in a peek game)."""


@dataclass(frozen=True)
class BlackjackRules:
    """One blackjack rule set; :data:`NZ` is the default, and every field is a named setting.

    >>> replace(NZ, dealer_hits_soft_17=True).dealer_hits_soft_17
    True
    """

    decks: int = 6
    """Decks in the shoe (3.1 as amended: 4 to 8 for play)."""
    penetration: Fraction = Fraction(3, 4)
    """Share of the shoe dealt before the cut card (1999 No 9 rule 7.1)."""
    dealer_hits_soft_17: bool = False
    """H17 if true; NZ practice stands on all 17s (Decision 3.1-1)."""
    hole_card: HoleCard = HoleCard.NO_HOLE_CARD
    """No hole card (NZ) or a peek game."""
    dealer_blackjack_takes_splits: DealerBlackjackTakes = DealerBlackjackTakes.ORIGINAL
    """11.7: only the original wager from split hands."""
    dealer_blackjack_takes_doubles: DealerBlackjackTakes = DealerBlackjackTakes.ORIGINAL
    """NZ practice: only the original wager from doubled hands (Decision 3.1-4)."""
    double_on: DoubleOn = DoubleOn.ANY
    """Which two-card totals may double."""
    double_after_split: bool = True
    """Whether a split hand may double."""
    max_hands: int = 3
    """Hands a box may become by splitting (11.4(a): three)."""
    pairs_by: PairsBy = PairsBy.VALUE
    """Pairs by value (K+Q) or by rank."""
    resplit_aces: bool = False
    """11.4(b): aces may be split only once."""
    hit_split_aces: bool = False
    """11.4(b), 12.1(c): one card to each split ace."""
    blackjack_pays: Fraction = Fraction(3, 2)
    """The blackjack payout (Decision 3.1-7)."""
    insurance: bool = True
    """Insurance offered when the dealer's first card is an ace (Decision 3.1-6)."""
    even_money: bool = False
    """Even money offered to a player blackjack against an ace (not seen in NZ rules)."""
    surrender: Surrender = Surrender.NONE
    """Surrender (NZ: none)."""
    burn_on_new_shoe: bool = True
    """Burn the first card of a new shoe."""
    chip_unit: int = 1
    """The smallest chip: odd payouts (3:2 on an odd wager) are rounded down to it."""
    table_minimum: int = 10
    """The smallest wager on a box."""
    table_maximum: int = 10_000
    """The largest wager on a box."""

    def validate(self) -> None:
        """Check that the rule set is coherent (any deck count from 1 is allowed here).

        >>> BlackjackRules(max_hands=1).validate()
        Traceback (most recent call last):
        ...
        croupier.errors.RuleViolationError: Blackjack 11.4(a): max_hands must be at least 2 (one split); allowed: 2 or more
        """
        if self.decks < 1:
            raise RuleViolationError("Blackjack 3.1", "a shoe needs at least one deck", "1 or more")
        if not 0 < self.penetration <= 1:
            raise RuleViolationError("Blackjack 3.1", "penetration must be in (0, 1]", "(0, 1]")
        if self.max_hands < 2:
            raise RuleViolationError(
                "Blackjack 11.4(a)", "max_hands must be at least 2 (one split)", "2 or more"
            )
        if self.chip_unit < 1 or self.table_minimum < self.chip_unit:
            raise RuleViolationError(
                "Blackjack 4.1", "chip unit and table minimum must be positive", "positive amounts"
            )
        if self.table_maximum < self.table_minimum:
            raise RuleViolationError(
                "Blackjack 4.1", "the table maximum is below the minimum", "maximum >= minimum"
            )

    def validate_for_play(self) -> None:
        """Check the rule set may be dealt at an NZ table (3.1 as amended: 4 to 8 decks).

        >>> NZ.validate_for_play()
        """
        self.validate()
        if not 4 <= self.decks <= 8:
            raise RuleViolationError(
                "Blackjack 3.1 as amended",
                f"a shoe of {self.decks} decks is not allowed for play",
                "4 to 8 decks",
            )
        self.validate_cut_card()

    def validate_cut_card(self) -> None:
        """Check the cut card leaves at least half a deck behind it, so a round never runs
        the shoe dry (Decision 3.1-15).

        >>> NZ.with_(penetration=Fraction(99, 100)).validate_cut_card()
        Traceback (most recent call last):
        ...
        croupier.errors.RuleViolationError: Decision 3.1-15: the cut card leaves only 4 cards behind it; allowed: a penetration leaving at least half a deck behind the cut card
        """
        behind = self.decks * 52 - int(self.penetration * self.decks * 52)
        if behind < 26:
            raise RuleViolationError(
                "Decision 3.1-15",
                f"the cut card leaves only {behind} cards behind it",
                "a penetration leaving at least half a deck behind the cut card",
            )

    def with_(self, **changes: object) -> BlackjackRules:
        """A copy with some settings changed.

        >>> NZ.with_(decks=8).decks
        8
        """
        return replace(self, **changes)  # type: ignore[arg-type]


NZ = BlackjackRules()
"""The NZ game: see the module docstring."""
