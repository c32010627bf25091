"""Betting structures as data: fixed limit, spread limit, pot limit (full or half pot), no limit.

Each structure answers two questions for the player to act: the smallest and the
largest legal bet or raise (as a *total* for the round), and whether raises are
capped (Omaha 17.6(f)). The engine applies the tap-out exception and the
short-all-in rules on top.

>>> pl = PotLimit()
>>> pl.max_raise_to(pot=100, to_call=20, current_bet=20, my_bet=0)   # Omaha 17.6(d): 20 + 120
140
>>> PotLimit(ratio=Fraction(1, 2)).max_raise_to(pot=100, to_call=20, current_bet=20, my_bet=0)
80
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from croupier.checks import whole_chips
from croupier.errors import CroupierError

__all__ = [
    "STRUCTURES",
    "BettingStructure",
    "FixedLimit",
    "NoLimit",
    "PotLimit",
    "SpreadLimit",
    "structure_for_stakes",
]


@dataclass(frozen=True)
class BettingStructure:
    """Base of the betting structures; see the subclasses.

    ``capped`` says whether a round allows only a bet and three raises (17.6(f)).

    >>> FixedLimit(10, 20).capped, NoLimit().capped
    (True, False)
    """

    capped: ClassVar[bool] = False
    """Whether raises are limited to three a round (fixed and spread limit)."""
    name: ClassVar[str] = "structure"
    """Short name for the CLI, JSON and hand histories."""
    size_rule: ClassVar[str | None] = None
    """The rule any bet of a size the structure does not offer breaks: a rule id, or the
    letter of the game's own copy of the 17.6 limits (None: the general limit rules)."""
    over_limit_letter: ClassVar[str | None] = None
    """The 17.6 letter a bet above the structure's maximum breaks (pot limit: ``d``)."""

    def min_bet(self, street: int, table_minimum: int) -> int:
        """The smallest opening bet (a total for the round) on this street."""
        raise NotImplementedError

    def min_raise_increment(self, street: int, last_increment: int, table_minimum: int) -> int:
        """The smallest raise increment, given the largest bet or raise so far (17.6(c))."""
        raise NotImplementedError

    def max_raise_to(self, *, pot: int, to_call: int, current_bet: int, my_bet: int) -> int | None:
        """The largest total the player may make the bet (None: no limit but the stack)."""
        raise NotImplementedError

    def fixed_increment(self, street: int) -> int | None:
        """The only allowed bet or raise size on this street, for fixed limit."""
        return None


@dataclass(frozen=True)
class NoLimit(BettingStructure):
    """No limit: bets up to the whole stack; raises at least the last bet or raise (17.6(c)).

    >>> NoLimit().min_raise_increment(0, last_increment=20, table_minimum=10)
    20
    """

    name: ClassVar[str] = "no-limit"

    def min_bet(self, street: int, table_minimum: int) -> int:
        """The table minimum."""
        return table_minimum

    def min_raise_increment(self, street: int, last_increment: int, table_minimum: int) -> int:
        """The largest earlier bet or raise of the round, at least the table minimum."""
        return max(last_increment, table_minimum)

    def max_raise_to(self, *, pot: int, to_call: int, current_bet: int, my_bet: int) -> int | None:
        """No maximum."""
        return None


@dataclass(frozen=True)
class PotLimit(NoLimit):
    """Pot limit (``ratio`` 1) or half-pot (``ratio`` 1/2): Omaha 17.6(d).

    The call is added to the pot first; the raise may then be up to ``ratio`` times
    that pot. "Pot" is every chip committed so far, this round's bets included
    (Decision 3.2-4). A half-pot amount that falls between chips is rounded down
    to the chip unit by the engine.

    >>> PotLimit().max_raise_to(pot=30, to_call=0, current_bet=0, my_bet=0)
    30
    """

    ratio: Fraction = Fraction(1)
    """1 for full pot, 1/2 for half pot."""
    name: ClassVar[str] = "pot-limit"
    over_limit_letter: ClassVar[str | None] = "d"

    def __post_init__(self) -> None:
        ratio = self.ratio
        if isinstance(ratio, bool) or not isinstance(ratio, numbers.Rational):
            raise CroupierError(
                f"a pot-limit ratio must be a Fraction (1 or Fraction(1, 2)), not {ratio!r}"
            )
        if not 0 < ratio <= 1:
            raise CroupierError(f"a pot-limit ratio must be above 0 and at most 1, not {ratio}")
        object.__setattr__(self, "ratio", Fraction(ratio))

    def max_raise_to(self, *, pot: int, to_call: int, current_bet: int, my_bet: int) -> int:
        """``current bet + ratio * (pot + call)`` (the pot includes every bet made so far)."""
        return current_bet + int((pot + to_call) * self.ratio)


@dataclass(frozen=True)
class FixedLimit(BettingStructure):
    """Fixed (structured) limit: every bet and raise is exactly the street's bet size.

    ``small_bet`` applies to the streets before ``big_bet_from`` (0-based street
    index), ``big_bet`` from then on. A bet and three raises a round (17.6(f)). Left
    out (None), the street is the game's own (:attr:`GameSpec.big_bet_street
    <croupier.poker.games.GameSpec.big_bet_street>`), filled in by
    :class:`~croupier.poker.settings.TableRules`: the turn in hold'em, after the draw in
    draw poker.

    >>> fl = FixedLimit(10, 20, big_bet_from=2)
    >>> fl.fixed_increment(1), fl.fixed_increment(2)
    (10, 20)
    >>> from croupier.poker import DRAW, TableRules
    >>> TableRules(DRAW, FixedLimit(10, 20), blinds=(5, 10)).structure.big_bet_from
    1
    """

    small_bet: int
    """The bet size of the early streets."""
    big_bet: int
    """The bet size of the late streets."""
    big_bet_from: int | None = None
    """The first street (0-based) that uses the big bet; None: the game's own street."""
    capped: ClassVar[bool] = True
    name: ClassVar[str] = "fixed-limit"
    size_rule: ClassVar[str | None] = "Poker definitions: Fixed Bet"

    def __post_init__(self) -> None:
        small = whole_chips(self.small_bet, "the fixed-limit small bet", minimum=1)
        big = whole_chips(self.big_bet, "the fixed-limit big bet", minimum=1)
        if big < small:
            raise CroupierError(f"the fixed-limit big bet ({big}) is below the small bet ({small})")
        start = self.big_bet_from
        if start is not None and (
            isinstance(start, bool) or not isinstance(start, numbers.Integral) or start < 0
        ):
            raise CroupierError(f"big_bet_from must be a street index from 0, not {start!r}")
        object.__setattr__(self, "small_bet", small)
        object.__setattr__(self, "big_bet", big)
        object.__setattr__(self, "big_bet_from", None if start is None else int(start))

    def for_game(self, big_bet_street: int) -> FixedLimit:
        """This structure with the game's big-bet street filled in where it names none.

        >>> FixedLimit(10, 20).for_game(1).big_bet_from, FixedLimit(10, 20, big_bet_from=3).for_game(1).big_bet_from
        (1, 3)
        """
        if self.big_bet_from is not None:
            return self
        return FixedLimit(self.small_bet, self.big_bet, big_bet_from=big_bet_street)

    def fixed_increment(self, street: int) -> int:
        """The bet size of this street."""
        start = 2 if self.big_bet_from is None else self.big_bet_from  # a structure on its own
        return self.big_bet if street >= start else self.small_bet

    def min_bet(self, street: int, table_minimum: int) -> int:
        """The street's bet size."""
        return self.fixed_increment(street)

    def min_raise_increment(self, street: int, last_increment: int, table_minimum: int) -> int:
        """The street's bet size."""
        return self.fixed_increment(street)

    def max_raise_to(self, *, pot: int, to_call: int, current_bet: int, my_bet: int) -> int | None:
        """Handled by :meth:`fixed_increment`."""
        return None


@dataclass(frozen=True)
class SpreadLimit(BettingStructure):
    """Spread (flexible) limit, Omaha 17.6(e): the first bet at least ``minimum``; later bets
    and raises at least the last bet or raise; none above ``maximum``. Three raises a round.

    >>> SpreadLimit(2, 10).min_raise_increment(0, last_increment=5, table_minimum=2)
    5
    """

    minimum: int
    """The smallest opening bet."""
    maximum: int
    """The largest bet or raise."""
    capped: ClassVar[bool] = True
    name: ClassVar[str] = "spread-limit"
    size_rule: ClassVar[str | None] = "e"

    def __post_init__(self) -> None:
        low = whole_chips(self.minimum, "the spread-limit minimum", minimum=1)
        high = whole_chips(self.maximum, "the spread-limit maximum", minimum=1)
        if high < low:
            raise CroupierError(f"the spread-limit maximum ({high}) is below the minimum ({low})")
        object.__setattr__(self, "minimum", low)
        object.__setattr__(self, "maximum", high)

    def min_bet(self, street: int, table_minimum: int) -> int:
        """The betting minimum."""
        return self.minimum

    def min_raise_increment(self, street: int, last_increment: int, table_minimum: int) -> int:
        """At least the last bet or raise, and the betting minimum."""
        return max(self.minimum, last_increment)

    def max_raise_to(self, *, pot: int, to_call: int, current_bet: int, my_bet: int) -> int:
        """Raise by at most the betting maximum."""
        return current_bet + self.maximum


STRUCTURES: dict[str, type[BettingStructure]] = {
    kind.name: kind for kind in (NoLimit, PotLimit, FixedLimit, SpreadLimit)
}
"""Every betting structure by its name (the one name-to-structure map)."""


def structure_for_stakes(name: str, big_blind: int) -> BettingStructure:
    """The structure called ``name`` (or ``half-pot``) with amounts set from the big blind:
    fixed limit bets the big blind and twice it, spread limit spreads one to five big
    blinds (the CLI's defaults).

    >>> structure_for_stakes("half-pot", 10), structure_for_stakes("fixed-limit", 10)
    (PotLimit(ratio=Fraction(1, 2)), FixedLimit(small_bet=10, big_bet=20, big_bet_from=None))
    """
    if name == "half-pot":
        return PotLimit(ratio=Fraction(1, 2))
    kind = STRUCTURES.get(name)
    if kind is None:
        raise CroupierError(f"unknown betting structure {name!r}: one of {', '.join(STRUCTURES)}")
    if kind is FixedLimit:
        return FixedLimit(big_blind, 2 * big_blind)
    if kind is SpreadLimit:
        return SpreadLimit(big_blind, 5 * big_blind)
    return kind()
