"""Blackjack rule sets as data: the NZ game by default, every house choice a named setting.

The NZ game (Gazette 1996 No 7 with the 1994 rules it cites and the 1999 amendment):
six decks (4-8 allowed for play), the dealer stands on all 17s, no hole card, a
dealer blackjack takes only the original wager from split (11.7) and doubled hands
(busted hands have lost theirs already), up to three hands a box (11.4(a)), aces split
once with one card each (11.4(b)), 3:2 for a blackjack, insurance up to half the wager
at 2:1, no surrender. :meth:`BlackjackRules.validate_for_play` (``strict_nz``) holds a
rule set to every setting the Gazette text fixes.

>>> NZ.decks, NZ.hole_card, NZ.max_hands
(6, <HoleCard.NO_HOLE_CARD: 'no-hole-card'>, 3)
>>> BlackjackRules(decks=3).validate_for_play()
Traceback (most recent call last):
...
croupier.errors.RuleViolationError: Blackjack 3.1 as amended: a shoe of 3 decks is not allowed for play; allowed: 4 to 8 decks
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from fractions import Fraction
from functools import cached_property, wraps
from numbers import Integral
from typing import Any

from croupier.errors import CroupierError, RuleViolationError

__all__ = [
    "NZ",
    "BlackjackRules",
    "DealerBlackjackTakes",
    "DoubleOn",
    "HoleCard",
    "PairsBy",
    "Surrender",
    "whole_number",
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
    """Only the original wager (once a box, from its hands still standing; busted hands
    have lost their stakes already); the added split or double stakes are returned (11.7)."""
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
        if self is _DOUBLE_ANY:  # (a module constant: an enum's class attribute is slow to read)
            return True
        low = 9 if self is _DOUBLE_NINE_TO_ELEVEN else 10
        return not soft and low <= total <= 11


_DOUBLE_ANY, _DOUBLE_NINE_TO_ELEVEN = DoubleOn.ANY, DoubleOn.NINE_TO_ELEVEN


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

    Every setting is checked for its type when the rule set is made: an enum setting may be
    given as its value (``"peek"``), which becomes the enum; a whole-number setting takes
    any integer but a bool (stored as ``int``); ``penetration`` and ``blackjack_pays`` take
    a :class:`~fractions.Fraction`, a whole number or a string such as ``"3:2"`` or
    ``"3/4"`` (never a float); a yes/no setting takes only ``True`` or ``False``. Anything
    else is refused, naming the setting and what it allows.

    >>> replace(NZ, dealer_hits_soft_17=True).dealer_hits_soft_17
    True
    >>> NZ.with_(hole_card="peek", blackjack_pays="6:5").hole_card
    <HoleCard.PEEK: 'peek'>
    >>> NZ.with_(hole_card="nonsense")
    Traceback (most recent call last):
    ...
    croupier.errors.RuleViolationError: Decision 3.1-3: hole_card 'nonsense' is not a setting; allowed: no-hole-card, peek
    >>> NZ.with_(blackjack_pays=1.5)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: blackjack_pays must be a Fraction, a whole number or a string like '3:2', not 1.5 (float)
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
    """11.7: only the original wager, once, from the split hands still standing."""
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
    boxes: int = 7
    """Boxes on the layout, numbered 1 (the dealer's left) to ``boxes`` (Decision 3.1-14)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            kind = _KINDS[f.name]
            if isinstance(kind, type) and issubclass(kind, StrEnum):
                coerced: object = _enum(f.name, kind, value)
            elif kind is bool:
                if not isinstance(value, bool):
                    raise CroupierError(
                        f"{f.name} must be True or False, not {value!r} ({type(value).__name__})"
                    )
                coerced = value
            elif kind is int:
                coerced = whole_number(f.name, value)
            else:
                coerced = _fraction(f.name, value)
            object.__setattr__(self, f.name, coerced)

    @cached_property
    def fingerprint(self) -> str:
        """A short hash of every setting: the rules version recorded in each round's first
        event (as :attr:`TableRules.fingerprint <croupier.poker.settings.TableRules.fingerprint>`
        is in each poker hand's), so a record says which rules it was played under.

        >>> NZ.fingerprint == BlackjackRules().fingerprint != NZ.with_(decks=8).fingerprint
        True
        """
        return hashlib.sha256(repr(self).encode()).hexdigest()[:16]

    def validate(self) -> None:
        """Check that the rule set is coherent (any deck count from 1 is allowed here).

        >>> BlackjackRules(max_hands=1).validate()
        Traceback (most recent call last):
        ...
        croupier.errors.RuleViolationError: Blackjack 11.4(a): max_hands must be at least 2 (one split); allowed: 2 or more
        """
        if self.decks < 1:
            raise RuleViolationError("Blackjack 3.1", "a shoe needs at least one deck", "1 or more")
        if self.blackjack_pays <= 0:
            raise RuleViolationError(
                "Decision 3.1-7",
                f"a blackjack cannot pay {self.blackjack_pays}",
                "a positive payout such as 3:2",
            )
        if self.boxes < 1:
            raise RuleViolationError(
                "Decision 3.1-14", f"a layout of {self.boxes} boxes", "1 box or more"
            )
        if not 0 < self.penetration <= 1:
            raise RuleViolationError("Blackjack 3.1", "penetration must be in (0, 1]", "(0, 1]")
        if self.max_hands < 2:
            raise RuleViolationError(
                "Blackjack 11.4(a)", "max_hands must be at least 2 (one split)", "2 or more"
            )
        if self.chip_unit < 1 or self.table_minimum < self.chip_unit:
            raise RuleViolationError(
                "Decision 3.1-14",
                "chip unit and table minimum must be positive",
                "positive amounts",
            )
        if self.table_maximum < self.table_minimum:
            raise RuleViolationError(
                "Decision 3.1-14", "the table maximum is below the minimum", "maximum >= minimum"
            )

    def validate_for_play(self) -> None:
        """Check the rule set may be dealt at an NZ table: every setting the Gazette text
        fixes (3.1 as amended: 4 to 8 decks; 11.4(a): three hands a box and resplits by
        value; 11.4(b): aces split once, one card each; 11.7: a dealer blackjack takes only
        the original wager from split hands), and a cut card that never runs the shoe dry.
        Settings the Gazette pages found leave open (soft 17, doubling, insurance, the
        payout, surrender, the hole card) stay free.

        >>> NZ.validate_for_play()
        >>> NZ.with_(max_hands=4).validate_for_play()
        Traceback (most recent call last):
        ...
        croupier.errors.RuleViolationError: Blackjack 11.4(a): no more than three hands a box may be formed (two splits), not 4; allowed: max_hands = 3
        """
        self.validate()
        if not 4 <= self.decks <= 8:
            raise RuleViolationError(
                "Blackjack 3.1 as amended",
                f"a shoe of {self.decks} decks is not allowed for play",
                "4 to 8 decks",
            )
        if self.max_hands != 3:
            # "may split pairs a second time ... no more than a total of three hands per box"
            raise RuleViolationError(
                "Blackjack 11.4(a)",
                f"no more than three hands a box may be formed (two splits), not {self.max_hands}",
                "max_hands = 3",
            )
        if self.pairs_by is not PairsBy.VALUE:
            raise RuleViolationError(
                "Blackjack 11.4(a)",
                "a split hand whose second card has the same value as its first may split again",
                "pairs_by = value",
            )
        if self.resplit_aces:
            raise RuleViolationError(
                "Blackjack 11.4(b)", "aces may be split only once", "resplit_aces = False"
            )
        if self.hit_split_aces:
            raise RuleViolationError(
                "Blackjack 11.4(b)",
                "a split ace gets only one card and no more",
                "hit_split_aces = False",
            )
        if self.dealer_blackjack_takes_splits is not DealerBlackjackTakes.ORIGINAL:
            raise RuleViolationError(
                "Blackjack 11.7",
                "after a split a dealer blackjack collects only the original wager",
                "dealer_blackjack_takes_splits = original",
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
        >>> NZ.with_(deck=8)
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: no setting named 'deck'; the settings: decks, penetration, dealer_hits_soft_17, hole_card, dealer_blackjack_takes_splits, dealer_blackjack_takes_doubles, double_on, double_after_split, max_hands, pairs_by, resplit_aces, hit_split_aces, blackjack_pays, insurance, even_money, surrender, burn_on_new_shoe, chip_unit, table_minimum, table_maximum, boxes
        """
        names = [f.name for f in fields(self)]
        for name in changes:
            if name not in names:
                raise CroupierError(f"no setting named {name!r}; the settings: {', '.join(names)}")
        return replace(self, **changes)  # type: ignore[arg-type]


_KINDS: dict[str, Any] = {
    "decks": int,
    "penetration": Fraction,
    "dealer_hits_soft_17": bool,
    "hole_card": HoleCard,
    "dealer_blackjack_takes_splits": DealerBlackjackTakes,
    "dealer_blackjack_takes_doubles": DealerBlackjackTakes,
    "double_on": DoubleOn,
    "double_after_split": bool,
    "max_hands": int,
    "pairs_by": PairsBy,
    "resplit_aces": bool,
    "hit_split_aces": bool,
    "blackjack_pays": Fraction,
    "insurance": bool,
    "even_money": bool,
    "surrender": Surrender,
    "burn_on_new_shoe": bool,
    "chip_unit": int,
    "table_minimum": int,
    "table_maximum": int,
    "boxes": int,
}
"""Each setting's type (checked by ``BlackjackRules.__post_init__``)."""

_ENUM_RULES = {
    HoleCard: "Decision 3.1-3",
    DealerBlackjackTakes: "Decision 3.1-4",
    DoubleOn: "Decision 3.1-5",
    PairsBy: "Decision 3.1-8",
    Surrender: "Decision 3.1-13",
}


def _enum(name: str, kind: type[StrEnum], value: object) -> StrEnum:
    """``value`` as a member of ``kind``: a member, its value or its name (any case)."""
    if isinstance(value, kind):
        return value
    allowed = ", ".join(m.value for m in kind)
    if isinstance(value, str):
        text = value.strip().lower()
        for member in kind:
            if text in (member.value, member.name.lower(), member.name.lower().replace("_", "-")):
                return member
    raise RuleViolationError(_ENUM_RULES[kind], f"{name} {value!r} is not a setting", allowed)


def whole_number(name: str, value: object) -> int:
    """``value`` as an ``int`` if it is an integer (any :class:`numbers.Integral`, never a
    bool), else a :class:`~croupier.errors.CroupierError` naming ``name``.

    >>> whole_number("chips", 10)
    10
    >>> whole_number("chips", True)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: chips must be a whole number, not True (bool)
    """
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise CroupierError(
            f"{name} must be a whole number, not {value!r} ({type(value).__name__})"
        )
    return int(value)


def _fraction(name: str, value: object) -> Fraction:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, Integral) and not isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, str):
        try:
            return Fraction(value.strip().replace(":", "/"))
        except (ValueError, ZeroDivisionError):
            pass
    raise CroupierError(
        f"{name} must be a Fraction, a whole number or a string like '3:2', "
        f"not {value!r} ({type(value).__name__})"
    )


def _checked_init(init: Any) -> Any:
    """The dataclass ``__init__``, refusing unknown or surplus settings with a CroupierError
    (not the TypeError of a bad call) that lists the settings."""
    names = [f.name for f in fields(BlackjackRules)]

    @wraps(init)
    def checked(self: BlackjackRules, *args: object, **changes: object) -> None:
        if len(args) > len(names):
            raise CroupierError(
                f"BlackjackRules takes at most {len(names)} settings, not {len(args)}"
            )
        for name in changes:
            if name not in names:
                raise CroupierError(f"no setting named {name!r}; the settings: {', '.join(names)}")
        taken = names[: len(args)]
        for name in changes:
            if name in taken:
                raise CroupierError(f"the setting {name!r} is given twice")
        init(self, *args, **changes)

    return checked


setattr(BlackjackRules, "__init__", _checked_init(BlackjackRules.__init__))  # noqa: B010

NZ = BlackjackRules()
"""The NZ game: see the module docstring."""


def checked_rules(rules: object, *, strict_nz: bool) -> BlackjackRules:
    """``rules`` if it is a coherent :class:`BlackjackRules` (``strict_nz``: one an NZ table
    may deal, see :meth:`BlackjackRules.validate_for_play`), else the error.

    >>> checked_rules("nz", strict_nz=False)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: rules must be a BlackjackRules, not str
    """
    if not isinstance(rules, BlackjackRules):
        raise CroupierError(f"rules must be a BlackjackRules, not {type(rules).__name__}")
    if strict_nz:
        rules.validate_for_play()
    else:
        rules.validate()
    return rules
