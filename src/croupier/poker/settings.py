"""Table settings: stakes, limits, chip unit, rake and the house choices the rules leave open.

>>> rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
>>> rules.validate()
>>> TableRules(HOLDEM, NoLimit(), blinds=(10, 5), table_minimum=10).validate()
Traceback (most recent call last):
...
croupier.errors.RuleViolationError: Omaha 17.6(b): the last compulsory blind (5) is below the table minimum (10); allowed: a last blind of at least 10
"""

from __future__ import annotations

import hashlib
import numbers
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cached_property

from croupier.checks import enum_setting, flag_setting, whole_chips
from croupier.errors import CroupierError, RuleViolationError
from croupier.poker.games import HOLDEM, ForcedBets, GameSpec, game_by_name
from croupier.poker.structures import BettingStructure, FixedLimit, NoLimit, SpreadLimit

__all__ = [
    "NZ_CAP",
    "NZ_SHORT_ALL_IN",
    "POKERKIT_CAP",
    "POKERKIT_SHORT_ALL_IN",
    "HeadsUpBlinds",
    "OddChip",
    "RaiseCap",
    "Rake",
    "ShortAllIn",
    "TableRules",
]


class HeadsUpBlinds(StrEnum):
    """Who posts which blind when two players sit (Decision 3.2-7).

    >>> TableRules().heads_up
    <HeadsUpBlinds.LITERAL: 'literal'>
    """

    LITERAL = "literal"
    """17.1(c) as written: the first blind is posted by the player left of the button, so
    the button posts the last blind and acts last on every street."""
    BUTTON_POSTS_FIRST = "button-posts-first"
    """Common casino practice heads up: the button posts the first (small) blind and acts
    first before the flop, last after it."""


class OddChip(StrEnum):
    """Who receives the chips a split pot cannot divide.

    >>> TableRules().odd_chip
    <OddChip.HIGH_CARD_BY_SUIT: 'high-card-by-suit'>
    """

    HIGH_CARD_BY_SUIT = "high-card-by-suit"
    """Omaha 17.5(e): the winner with the highest card by suit among the hole cards used
    (no hole card used: the highest card by suit of the five, Decision 3.2-12)."""
    FIRST_LEFT_OF_BUTTON = "first-left-of-button"
    """The first winner clockwise from the button (the PHH / PokerKit convention)."""


@dataclass(frozen=True)
class RaiseCap:
    """How many bets and raises a capped (fixed or spread limit) round allows, as data.

    The NZ rule (Omaha 17.6(f), Decision 3.2-3): a bet and three raises, the last
    compulsory blind being the first round's bet, no limit head to head, and only full
    bets and raises counted (a short all-in is not a raise). PokerKit (and so the PHH
    files it writes) counts every bet, raise and completion made after the blinds, short
    all-ins included, and has no head-to-head exception: a bet and four raises before the
    flop.

    >>> NZ_CAP.bets, POKERKIT_CAP.blinds_count, POKERKIT_CAP.short_all_ins_count
    (4, False, True)
    """

    bets: int = 4
    """Bets and raises a round, the opening bet included."""
    blinds_count: bool = True
    """Whether the last compulsory blind is the first round's opening bet."""
    head_to_head_unlimited: bool = True
    """Whether the cap is lifted when only two players can still bet."""
    short_all_ins_count: bool = False
    """Whether a bet or raise all in for less than a full one counts toward the cap
    (PokerKit: every completion, bet or raise counts); False: only full ones count."""

    def __post_init__(self) -> None:
        bets = self.bets
        if isinstance(bets, bool) or not isinstance(bets, numbers.Integral) or bets < 1:
            raise CroupierError(f"a raise cap needs at least 1 bet a round, not {bets!r}")
        object.__setattr__(self, "bets", int(bets))
        flag_setting(self.blinds_count, "blinds_count")
        flag_setting(self.head_to_head_unlimited, "head_to_head_unlimited")
        flag_setting(self.short_all_ins_count, "short_all_ins_count")


NZ_CAP = RaiseCap()
"""Omaha 17.6(f) as Decision 3.2-3 reads it."""

POKERKIT_CAP = RaiseCap(
    bets=4, blinds_count=False, head_to_head_unlimited=False, short_all_ins_count=True
)
"""PokerKit's fixed-limit cap (the ``phh`` profile)."""


@dataclass(frozen=True)
class ShortAllIn:
    """What a bet or raise all in for less than a full one does to the betting, as data.

    The NZ reading (Decisions 3.2-1, 3.2-2, Omaha 17.6(c)): a wager is full when it is at
    least the minimum bet or raise (the last blind is the first round's bet); in limit
    poker the next bet completes a short all-in opening bet to a full bet; only a full
    bet or raise reopens the betting for players who have acted, each short all-in judged
    alone. PokerKit (and so the PHH files it writes) measures a wager against the largest
    bet or raise of the round so far (the blinds and the bring-in set none, so the
    round's first wager is always full and reopens the betting, even a short all-in),
    raises a full bet on top of a short opening bet, and lets short all-ins in a row that
    add up to a full raise reopen the betting.

    >>> NZ_SHORT_ALL_IN.limit_completes, POKERKIT_SHORT_ALL_IN.add_up
    (True, True)
    >>> ShortAllIn(add_up="yes")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: add_up must be True or False, not 'yes'
    """

    full_by_largest_increment: bool = False
    """False: a bet or raise is full when it is at least the minimum the structure sets
    (a full bet; a raise of at least the last full raise, the last blind being the first
    round's bet). True: when its increment is at least the largest increment of the round
    so far (blinds and bring-ins set none): the first wager of every round is full."""
    limit_completes: bool = True
    """Limit poker: True, the bet after a short all-in opening bet completes it to a full
    bet (17.6(c)); False, it is a full bet on top of it (only a bring-in is completed)."""
    add_up: bool = False
    """True: short all-ins in a row that together make a full raise reopen the betting for
    the players who have acted (each may then raise if it owes at least a full raise);
    False: each short all-in is judged alone (Decision 3.2-2)."""

    complete_for_the_bring_in: bool = False
    """True: a player to bring in whose whole stack is no more than the bring-in may
    instead complete all in for it, a short completion (a wager: the next player raises a
    full bet on top of it) rather than the bring-in; False: going all in there is the
    bring-in (12.2(a))."""

    def __post_init__(self) -> None:
        flag_setting(self.full_by_largest_increment, "full_by_largest_increment")
        flag_setting(self.limit_completes, "limit_completes")
        flag_setting(self.add_up, "add_up")
        flag_setting(self.complete_for_the_bring_in, "complete_for_the_bring_in")


NZ_SHORT_ALL_IN = ShortAllIn()
"""Decisions 3.2-1 and 3.2-2 with Omaha 17.6(c)."""

POKERKIT_SHORT_ALL_IN = ShortAllIn(
    full_by_largest_increment=True,
    limit_completes=False,
    add_up=True,
    complete_for_the_bring_in=True,
)
"""PokerKit's short all-in wagers (the ``phh`` profile)."""


@dataclass(frozen=True)
class Rake:
    """House commission (section 8 is not public): a percentage with a cap, a fee a hand, or none.

    >>> Rake(percent=Fraction(1, 20), cap=30).amount(1000, unit=1, saw_flop=True)
    30
    """

    percent: Fraction = Fraction(0)
    """Share of each pot taken (e.g. 1/20 for 5 %)."""
    cap: int | None = None
    """The most taken from a hand."""
    per_hand: int = 0
    """A fixed fee a hand, taken from the pot."""
    no_flop_no_drop: bool = True
    """Take nothing when the hand ends in the first betting round."""

    def __post_init__(self) -> None:
        percent = self.percent
        if isinstance(percent, bool) or not isinstance(percent, numbers.Rational):
            raise CroupierError(
                f"the rake percent must be a Fraction (e.g. Fraction(1, 20)), not {percent!r}"
            )
        if not 0 <= percent <= 1:
            raise CroupierError(f"the rake percent must be between 0 and 1, not {percent}")
        object.__setattr__(self, "percent", Fraction(percent))
        if self.cap is not None:
            object.__setattr__(self, "cap", whole_chips(self.cap, "the rake cap"))
        object.__setattr__(self, "per_hand", whole_chips(self.per_hand, "the rake per hand"))
        flag_setting(self.no_flop_no_drop, "no_flop_no_drop")

    def amount(self, pot: int, *, unit: int, saw_flop: bool) -> int:
        """The commission on a pot of ``pot`` chips, rounded down to the chip unit."""
        if self.no_flop_no_drop and not saw_flop:
            return 0
        take = int(pot * self.percent) // unit * unit + self.per_hand
        if self.cap is not None:
            take = min(take, self.cap)
        return min(take, pot)


@dataclass(frozen=True)
class TableRules:
    """Everything a table's sign and the house decide, for one game.

    ``blinds`` are the compulsory blinds from the first (left of the button) to the
    last (17.1(c)); ``table_minimum`` the smallest wager of the first round (17.6(b));
    ``chip_unit`` the lowest chip denomination in play (17.5(e)). Stud games use
    ``ante`` and ``bring_in`` (default: the table minimum, 12.2(a)).
    """

    game: GameSpec = HOLDEM
    """The game."""
    structure: BettingStructure = field(default_factory=NoLimit)
    """The betting structure."""
    blinds: tuple[int, ...] = (5, 10)
    """Compulsory blinds, first to last."""
    ante: int = 0
    """Ante from every player before the deal."""
    bring_in: int | None = None
    """Stud bring-in; None means the table minimum."""
    table_minimum: int = 10
    """The minimum wager (the sign at the table, 17.6(a))."""
    table_maximum: int | None = None
    """The maximum wager, if the sign shows one."""
    chip_unit: int = 1
    """The lowest chip denomination in play (17.5(e))."""
    rake: Rake = field(default_factory=Rake)
    """House commission."""
    heads_up: HeadsUpBlinds = HeadsUpBlinds.LITERAL
    """Heads-up blind order."""
    odd_chip: OddChip = OddChip.HIGH_CARD_BY_SUIT
    """Who gets an indivisible remainder."""
    fold_when_check_is_free: bool = True
    """Decision 3.2-9: 17.3(b) lets the opener "open, check or fold", so folding is allowed."""
    show_all_at_showdown: bool = False
    """Expose every hand at the showdown instead of letting worse hands muck (17.5(d))."""
    raise_cap: RaiseCap = NZ_CAP
    """The cap on bets and raises in fixed and spread limit (17.6(f))."""
    short_all_in: ShortAllIn = NZ_SHORT_ALL_IN
    """What a wager all in for less than a full bet or raise does to the betting."""
    raise_needs_a_caller: bool = False
    """Refuse a bet or raise when no other player in the hand has more chips than the
    current bet (PokerKit); False: any other player with chips behind may be raised."""
    merge_pots_with_the_same_winners: bool = False
    """Pay pots won by the same players as one pot, divided once (PokerKit); False: each
    main and side pot is divided on its own, with its own odd chip."""

    def __post_init__(self) -> None:
        """Coerce and check every setting: a wrong type or an unknown value is refused with
        a one-line error, never silently ignored."""
        put = object.__setattr__
        game = self.game
        if isinstance(game, str):
            put(self, "game", game_by_name(game))
        elif not isinstance(game, GameSpec):
            raise CroupierError(f"game must be a GameSpec or a game's name, not {game!r}")
        if not isinstance(self.structure, BettingStructure):
            raise CroupierError(
                "structure must be a betting structure (NoLimit(), PotLimit(), FixedLimit(small, "
                f"big), SpreadLimit(minimum, maximum)), not {self.structure!r}"
            )
        if isinstance(self.structure, FixedLimit):  # the game's big-bet street, unless named
            put(self, "structure", self.structure.for_game(self.game.big_bet_street))
        blinds = self.blinds
        if isinstance(blinds, str | bytes) or not isinstance(blinds, tuple | list):
            raise CroupierError(f"blinds must be a tuple of chip amounts, not {blinds!r}")
        put(self, "blinds", tuple(whole_chips(b, "a blind", minimum=1) for b in blinds))
        put(self, "ante", whole_chips(self.ante, "the ante"))
        if self.bring_in is not None:
            put(self, "bring_in", whole_chips(self.bring_in, "the bring-in", minimum=1))
        put(self, "table_minimum", whole_chips(self.table_minimum, "the table minimum", minimum=1))
        if self.table_maximum is not None:
            put(self, "table_maximum", whole_chips(self.table_maximum, "the table maximum"))
        put(self, "chip_unit", whole_chips(self.chip_unit, "the chip unit", minimum=1))
        if not isinstance(self.rake, Rake):
            raise CroupierError(f"rake must be a Rake, not {self.rake!r}")
        put(self, "heads_up", enum_setting(HeadsUpBlinds, self.heads_up, "heads_up"))
        put(self, "odd_chip", enum_setting(OddChip, self.odd_chip, "odd_chip"))
        flag_setting(self.fold_when_check_is_free, "fold_when_check_is_free")
        flag_setting(self.show_all_at_showdown, "show_all_at_showdown")
        if not isinstance(self.raise_cap, RaiseCap):
            raise CroupierError(f"raise_cap must be a RaiseCap, not {self.raise_cap!r}")
        if not isinstance(self.short_all_in, ShortAllIn):
            raise CroupierError(f"short_all_in must be a ShortAllIn, not {self.short_all_in!r}")
        flag_setting(self.raise_needs_a_caller, "raise_needs_a_caller")
        flag_setting(self.merge_pots_with_the_same_winners, "merge_pots_with_the_same_winners")
        self.validate()

    @cached_property
    def fingerprint(self) -> str:
        """A short hash of every setting (the game's data included): the rules version
        recorded in each hand's first event, so a record says which rules it was played
        under.

        >>> TableRules().fingerprint == TableRules().fingerprint != TableRules(ante=1).fingerprint
        True
        """
        return hashlib.sha256(repr(self).encode()).hexdigest()[:16]

    @property
    def bring_in_amount(self) -> int:
        """The bring-in (the table minimum unless set)."""
        return self.table_minimum if self.bring_in is None else self.bring_in

    def validate(self) -> None:
        """Check the settings against the rules; raise :class:`RuleViolationError` if not."""
        if self.chip_unit < 1:
            raise RuleViolationError("Omaha 17.5(e)", "the chip unit must be positive")
        if self.game.forced is ForcedBets.BLINDS:
            if not self.blinds:
                raise RuleViolationError(
                    "Omaha 17.1(c)",
                    f"{self.game.title} needs at least one compulsory blind",
                    "blinds=(small, big), shown on the table's sign",
                )
            if self.blinds[-1] < self.table_minimum:
                raise RuleViolationError(
                    self.game.limit_rule("b"),
                    f"the last compulsory blind ({self.blinds[-1]}) is below the table minimum "
                    f"({self.table_minimum})",
                    f"a last blind of at least {self.table_minimum}",
                )
        elif self.ante <= 0:
            raise RuleViolationError(
                "Five Card Stud 12.1(b)",
                f"{self.game.title} needs an ante from every player",
                "an ante of at least one chip",
            )
        elif self.bring_in_amount < self.table_minimum:
            raise RuleViolationError(
                "Five Card Stud 12.2(a)",
                f"the bring-in ({self.bring_in_amount}) is below the table minimum "
                f"({self.table_minimum})",
                f"at least {self.table_minimum}",
            )
        self._validate_table_limits()
        amounts = (*self.blinds, self.ante, self.table_minimum, self.bring_in_amount)
        if any(a < 0 or a % self.chip_unit for a in amounts):
            raise RuleViolationError(
                "Omaha 17.5(e)",
                "every amount must be a multiple of the chip unit",
                f"multiples of {self.chip_unit}",
            )

    def _validate_table_limits(self) -> None:
        """17.6(a), (c): every bet the structure offers lies within the table's minimum and
        maximum wager (the sign at the table)."""
        low, high = self.table_minimum, self.table_maximum
        if high is not None and high < low:
            raise RuleViolationError(
                self.game.limit_rule("a"),
                f"the table maximum ({high}) is below the table minimum ({low})",
                f"a maximum of at least {low}",
            )
        structure = self.structure
        if isinstance(structure, FixedLimit):
            sizes = {"small bet": structure.small_bet, "big bet": structure.big_bet}
        elif isinstance(structure, SpreadLimit):
            sizes = {"betting minimum": structure.minimum, "betting maximum": structure.maximum}
        else:
            return
        for what, size in sizes.items():
            if size < low or (high is not None and size > high):
                limits = f"{low}..{high}" if high is not None else f"at least {low}"
                raise RuleViolationError(
                    self.game.limit_rule("c"),
                    f"the {structure.name} {what} ({size}) is outside the table limits ({limits})",
                    f"bets of {limits}",
                )
