"""The discrete action space of :mod:`croupier.envs.poker`: how an agent's action index
maps to a referee action, and which indices are legal (the action mask).

Actions go through a discrete :class:`ActionAbstraction`: fold, check or call, the minimum
and the maximum bet or raise, stud's bring-in, three draws (stand pat, the cards
:func:`rule_discards` picks, all five) and raises to fractions of the pot; or, with
``actions="full"``, the full amount space (:meth:`ActionAbstraction.full`): the same moves,
and index ``len(Move) + a`` for a bet or raise to every round total of ``a`` whole chips up
to the largest stack, the mask giving exactly the amounts the referee accepts. Everything is
worked out from the acting seat's view alone.

>>> from croupier.poker import HandState, TableRules
>>> hand = HandState(TableRules(), {1: 1000, 2: 1000, 3: 1000}, button=1, seed=7)
>>> abstraction = ActionAbstraction()
>>> abstraction.describe(abstraction.legal_mask(hand.view_for(1)))
'0 fold, 1 check/call, 2 min raise, 3 max raise, 8 raise 1/2 pot, 9 raise 1 pot, 10 raise 2 pot'
>>> abstraction.action(hand.view_for(1), Move.CHECK_CALL)
Call(seat=1)
"""

from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.cards.card import Card
from croupier.errors import CroupierError
from croupier.poker.actions import Action, BringIn, Call, Check, Discard, Fold, RaiseTo
from croupier.poker.views import SeatView

__all__ = [
    "ActionAbstraction",
    "Move",
    "rule_discards",
]


class Move(IntEnum):
    """The fixed part of the discrete action abstraction; index ``len(Move) + i`` is a bet or
    raise to the ``i``-th fraction of the pot (:class:`ActionAbstraction`), or in the full
    amount space to ``i`` chips (:meth:`ActionAbstraction.full`, where :attr:`MIN_RAISE` and
    :attr:`MAX_RAISE` are never legal).

    >>> [m.name for m in Move]
    ['FOLD', 'CHECK_CALL', 'MIN_RAISE', 'MAX_RAISE', 'BRING_IN', 'STAND_PAT', 'DISCARD_RULE', 'DISCARD_ALL']
    """

    FOLD = 0
    """Fold (offered where the rules allow it, also when a check is free: Decision 3.2-9)."""
    CHECK_CALL = 1
    """Check when nothing is due, else call (all in for less when short)."""
    MIN_RAISE = 2
    """The smallest legal bet or raise (fixed limit: the only one); in stud's first round
    with fixed limit, completing the bring-in to a full bet."""
    MAX_RAISE = 3
    """The largest legal bet or raise: all in at no limit, the pot at pot limit; for the
    player to bring in, the largest bring-in."""
    BRING_IN = 4
    """Stud: bring in for the bring-in (12.2(a))."""
    STAND_PAT = 5
    """Draw: discard nothing."""
    DISCARD_RULE = 6
    """Draw: discard the cards :func:`rule_discards` picks."""
    DISCARD_ALL = 7
    """Draw: discard every card."""


_MOVE_NAMES = {
    Move.FOLD: "fold",
    Move.CHECK_CALL: "check/call",
    Move.MIN_RAISE: "min raise",
    Move.MAX_RAISE: "max raise",
    Move.BRING_IN: "bring in",
    Move.STAND_PAT: "stand pat",
    Move.DISCARD_RULE: "discard by rule",
    Move.DISCARD_ALL: "discard all",
}


def rule_discards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards a simple draw rule throws away: none from a straight, a flush or a full house
    (every card plays); else every card whose rank is not paired (keep pairs, two pair, trips,
    quads); else the odd card of four to a flush; else all but the highest card.

    >>> from croupier.cards import parse_cards
    >>> rule_discards(parse_cards("As Ad 7c 4h 2s"))
    (Card('7c'), Card('4h'), Card('2s'))
    >>> rule_discards(parse_cards("9h 8h 3h Qh 2c")), rule_discards(parse_cards("Ks 9d 7c 4h 2s"))
    ((Card('2c'),), (Card('9d'), Card('7c'), Card('4h'), Card('2s')))
    >>> rule_discards(parse_cards("5s 4d 3c 2h As"))
    ()
    """
    hand = tuple(cards)
    if not hand:
        return ()
    ranks = Counter(int(c.rank) for c in hand)
    suits = Counter(int(c.suit) for c in hand)
    distinct = sorted(ranks)
    straight = (
        len(hand) == 5
        and len(distinct) == 5
        and (distinct[-1] - distinct[0] == 4 or distinct == [0, 1, 2, 3, 12])
    )
    flush = len(hand) == 5 and len(suits) == 1
    full_house = sorted(ranks.values()) == [2, 3]
    if straight or flush or full_house:
        return ()
    if any(n >= 2 for n in ranks.values()):
        return tuple(c for c in hand if ranks[int(c.rank)] == 1)
    suit, count = suits.most_common(1)[0]
    if count == 4:
        return tuple(c for c in hand if int(c.suit) != suit)
    best = max(hand)
    return tuple(c for c in hand if c != best)


def _fraction(value: object) -> Fraction:
    """A pot fraction from a Fraction, an integer, a float or a string like ``"1/2"``."""
    if isinstance(value, bool):
        raise CroupierError(f"a pot fraction must be a number, not {value!r}")
    if isinstance(value, float):
        result = Fraction(str(value))
    elif isinstance(value, numbers.Rational | str):
        try:
            result = Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise CroupierError(f"a pot fraction must be a number, not {value!r}") from None
    else:
        raise CroupierError(f"a pot fraction must be a number, not {value!r}")
    if result <= 0:
        raise CroupierError(f"a pot fraction must be above 0, not {value!r}")
    return result


def _legal_ends(low: int, high: int, unit: int, all_in: int) -> tuple[int, int] | None:
    """The smallest and the largest amount from ``low`` to ``high`` the referee takes: a
    multiple of the chip unit, or all in (17.5(e)); None if there is none."""
    amounts = [a for a in (-(-low // unit) * unit, high // unit * unit) if low <= a <= high]
    if low <= all_in <= high:
        amounts.append(all_in)
    return (min(amounts), max(amounts)) if amounts else None


@dataclass(frozen=True)
class ActionAbstraction:
    """The discrete actions: the :class:`Move` values, then one bet or raise to each of
    ``raise_fractions`` of the pot; or, made by :meth:`full`, the full amount space.

    A raise to fraction ``f`` is a total for the round of ``current bet + f * (pot + to
    call)`` chips, rounded down to the chip unit ("the pot" counts every chip committed,
    bets in front included, as pot limit does: ``f = 1`` is a pot-sized raise). It is
    offered only when that total lies strictly between the smallest and the largest legal
    raise (the two ends are :attr:`Move.MIN_RAISE` and :attr:`Move.MAX_RAISE`), so no two
    legal actions make the same bet. Every legal index maps to one referee action.

    With ``max_amount`` set (:meth:`full`) there are no fractions: index ``len(Move) + a``
    (``a`` = 0 .. ``max_amount``) bets or raises to a round total of ``a`` chips, and is
    legal exactly when the referee accepts that amount (see :meth:`full`).

    >>> abstraction = ActionAbstraction((Fraction(1, 2), 1, "2"))
    >>> abstraction.size, abstraction.names[len(Move):]
    (11, ('raise 1/2 pot', 'raise 1 pot', 'raise 2 pot'))
    >>> ActionAbstraction.full(1000).size
    1009
    """

    raise_fractions: tuple[Fraction, ...] = field(
        default=(Fraction(1, 2), Fraction(1), Fraction(2))
    )
    """The pot fractions a bet or raise may be made to (none in the full amount space)."""
    max_amount: int | None = None
    """The full amount space's largest bet or raise (a round total in chips); None: the
    pot-fraction abstraction."""

    def __post_init__(self) -> None:
        fractions = self.raise_fractions
        if isinstance(fractions, str | bytes) or not isinstance(fractions, Sequence):
            raise CroupierError(f"raise_fractions must be a sequence of numbers, not {fractions!r}")
        checked = tuple(_fraction(f) for f in fractions)
        if len(set(checked)) != len(checked):
            raise CroupierError(f"raise_fractions repeat a fraction: {fractions!r}")
        object.__setattr__(self, "raise_fractions", checked)
        top = self.max_amount
        if top is not None:
            if isinstance(top, bool) or not isinstance(top, int) or top < 1:
                raise CroupierError(f"max_amount must be a whole number of chips, not {top!r}")
            if checked:
                raise CroupierError(
                    "the full amount space has every amount: give no raise_fractions with "
                    "max_amount"
                )

    @classmethod
    def full(cls, max_amount: int) -> ActionAbstraction:
        """The full amount space up to ``max_amount`` chips (at least the largest stack at the
        table: nobody's round total can pass it).

        Indices 0 .. 7 are the :class:`Move` values without :attr:`Move.MIN_RAISE` and
        :attr:`Move.MAX_RAISE` (never legal here: every amount has its own index): fold,
        check or call, the bring-in (:attr:`Move.BRING_IN`, for the bring-in amount itself)
        and the three draws. Index ``len(Move) + a`` makes the player's total for the round
        ``a`` chips: a bet or raise to ``a`` (:class:`~croupier.poker.actions.RaiseTo`), or
        for the player to bring in, a bring-in for more than the bring-in: completing it to
        a full bet (:class:`~croupier.poker.actions.BringIn`). It is legal exactly when the
        referee takes it: ``a`` in the legal range (fixed limit's one amount, pot limit's
        cap, spread limit's range, the whole stack at no limit, an all-in below the minimum)
        and a multiple of the chip unit unless it is all in.

        >>> from croupier.poker import HandState, TableRules
        >>> hand = HandState(TableRules(), {1: 50, 2: 1000, 3: 1000}, button=1, seed=7)
        >>> full = ActionAbstraction.full(1000)
        >>> moves = full.moves(hand.view_for(1))
        >>> len(moves), moves[0], moves[1], moves[full.index_of(20)], moves[full.index_of(50)]
        (33, Fold(seat=1), Call(seat=1), RaiseTo(amount=20, seat=1), RaiseTo(amount=50, seat=1))
        >>> full.amount_of(max(moves)), full.names[full.index_of(50)]
        (50, 'raise to 50')
        """
        return cls((), max_amount)

    @property
    def is_full(self) -> bool:
        """Whether this is the full amount space (:meth:`full`)."""
        return self.max_amount is not None

    @property
    def size(self) -> int:
        """How many discrete actions there are."""
        if self.max_amount is not None:
            return len(Move) + self.max_amount + 1
        return len(Move) + len(self.raise_fractions)

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Each action's name, by index."""
        if self.max_amount is not None:
            return (
                *(_MOVE_NAMES[m] for m in Move),
                *(f"raise to {a}" for a in range(self.max_amount + 1)),
            )
        return (
            *(_MOVE_NAMES[m] for m in Move),
            *(f"raise {f} pot" for f in self.raise_fractions),
        )

    def index_of(self, amount: int) -> int:
        """The full amount space's index of a bet or raise to ``amount`` chips.

        >>> ActionAbstraction.full(200).index_of(35)
        43
        """
        top = self.max_amount
        if top is None:
            raise CroupierError("only the full amount space has an index for every amount")
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= top:
            raise CroupierError(f"an amount is a whole number of chips 0 to {top}, not {amount!r}")
        return len(Move) + amount

    def amount_of(self, index: int) -> int | None:
        """The amount (chips) an index of the full amount space bets or raises to; None for a
        :class:`Move`, or in the pot-fraction abstraction.

        >>> full = ActionAbstraction.full(200)
        >>> full.amount_of(43), full.amount_of(Move.CHECK_CALL), ActionAbstraction().amount_of(9)
        (35, None, None)
        """
        top = self.max_amount
        if top is None or not len(Move) <= index <= len(Move) + top:
            return None
        return int(index) - len(Move)

    def _amounts(
        self, view: SeatView, chip_unit: int
    ) -> tuple[type[RaiseTo] | type[BringIn], int, int, bool, int, int] | None:
        """In the full amount space, what the amount indices may do now: the action they
        make, the lowest and highest amount, whether only ``high`` is legal (fixed limit's
        completion), the chip unit and the all-in total. None when no amount is legal."""
        legal = view.legal
        if legal is None or legal.actor is None or legal.discard:
            return None
        unit = max(chip_unit, 1)
        me = view.me
        all_in = me.bet + me.stack
        if legal.bring_in is not None:
            low, high = legal.bring_in
            if high <= low:
                return None  # only the bring-in itself (Move.BRING_IN)
            return (BringIn, low + 1, high, legal.bring_in_ends_only, unit, all_in)
        if legal.raise_to is None:
            return None
        low, high = legal.raise_to
        return (RaiseTo, low, high, False, unit, all_in)

    @staticmethod
    def _amount_legal(amount: int, low: int, high: int, ends: bool, unit: int, all_in: int) -> bool:
        if ends:
            return amount == high
        return low <= amount <= high and (amount % unit == 0 or amount == all_in)

    def _moves(self, view: SeatView, chip_unit: int, *, amounts: bool) -> dict[int, Action]:
        legal = view.legal
        out: dict[int, Action] = {}
        if legal is None or legal.actor is None:
            return out
        seat = legal.actor
        if legal.discard:
            down = tuple(c for c in view.me.down if c is not None)
            out[int(Move.STAND_PAT)] = Discard((), seat=seat)
            out[int(Move.DISCARD_RULE)] = Discard(rule_discards(down), seat=seat)
            out[int(Move.DISCARD_ALL)] = Discard(down, seat=seat)
            return out
        full = self.max_amount is not None
        current = max((p.bet for p in view.players), default=0)
        unit = max(chip_unit, 1)
        all_in = view.me.bet + view.me.stack
        base = len(Move)
        if legal.bring_in is not None:
            low, high = legal.bring_in
            out[int(Move.BRING_IN)] = BringIn(low, seat=seat)
            if high > low and not full:
                if legal.bring_in_ends_only:
                    out[int(Move.MIN_RAISE)] = BringIn(high, seat=seat)
                    out[int(Move.MAX_RAISE)] = BringIn(high, seat=seat)
                else:
                    ends = _legal_ends(low + 1, high, unit, all_in)
                    if ends is not None:
                        out[int(Move.MAX_RAISE)] = BringIn(ends[1], seat=seat)
                        for i, f in enumerate(self.raise_fractions):
                            amount = int(current + f * (view.pot + view.to_call)) // unit * unit
                            if low < amount < ends[1]:
                                out[base + i] = BringIn(amount, seat=seat)
        else:
            if legal.fold:
                out[int(Move.FOLD)] = Fold(seat=seat)
            if legal.check:
                out[int(Move.CHECK_CALL)] = Check(seat=seat)
            elif legal.call is not None:
                out[int(Move.CHECK_CALL)] = Call(seat=seat)
            ends = None
            if legal.raise_to is not None and not full:
                ends = _legal_ends(*legal.raise_to, unit, all_in)
            if ends is not None:
                low, high = ends
                out[int(Move.MIN_RAISE)] = RaiseTo(low, seat=seat)
                out[int(Move.MAX_RAISE)] = RaiseTo(high, seat=seat)
                for i, f in enumerate(self.raise_fractions):
                    amount = int(current + f * (view.pot + view.to_call)) // unit * unit
                    if low < amount < high:
                        out[base + i] = RaiseTo(amount, seat=seat)
        if full and amounts:
            spec = self._amounts(view, chip_unit)
            if spec is not None:
                make, low, high, only_high, unit, all_in = spec
                for amount in (high,) if only_high else range(low, high + 1):
                    if self._amount_legal(amount, low, high, only_high, unit, all_in):
                        out[base + amount] = make(amount, seat=seat)
        return out

    def moves(self, view: SeatView, chip_unit: int = 1) -> dict[int, Action]:
        """The legal action indices of the seat whose ``view`` this is, each with the referee
        action it stands for (empty unless the seat is to act). Worked out from the view only.

        >>> from croupier.poker import HandState, TableRules
        >>> hand = HandState(TableRules(), {1: 1000, 2: 1000, 3: 1000}, button=1, seed=7)
        >>> ActionAbstraction().moves(hand.view_for(1))
        {0: Fold(seat=1), 1: Call(seat=1), 2: RaiseTo(amount=20, seat=1), 3: RaiseTo(amount=1000, seat=1), 8: RaiseTo(amount=22, seat=1), 9: RaiseTo(amount=35, seat=1), 10: RaiseTo(amount=60, seat=1)}
        """
        return self._moves(view, chip_unit, amounts=True)

    def action(self, view: SeatView, index: int, chip_unit: int = 1) -> Action | None:
        """The referee action index ``index`` stands for now, or None if it is not legal
        (the same as ``moves(view, chip_unit).get(index)``, without listing every amount).

        >>> from croupier.poker import HandState, TableRules
        >>> hand = HandState(TableRules(), {1: 1000, 2: 1000, 3: 1000}, button=1, seed=7)
        >>> full = ActionAbstraction.full(1000)
        >>> full.action(hand.view_for(1), full.index_of(437)), full.action(hand.view_for(1), 2)
        (RaiseTo(amount=437, seat=1), None)
        """
        amount = self.amount_of(index)
        if amount is None:
            return self._moves(view, chip_unit, amounts=False).get(index)
        spec = self._amounts(view, chip_unit)
        legal = view.legal
        if spec is None or legal is None or legal.actor is None:
            return None
        make, low, high, ends, unit, all_in = spec
        if not self._amount_legal(amount, low, high, ends, unit, all_in):
            return None
        return make(amount, seat=legal.actor)

    def legal_mask(self, view: SeatView, chip_unit: int = 1) -> npt.NDArray[np.int8]:
        """The action mask (1: legal) of the seat whose ``view`` this is: the same as
        ``mask(moves(view, chip_unit))``, made without listing every amount.

        >>> from croupier.poker import HandState, TableRules
        >>> hand = HandState(TableRules(), {1: 1000, 2: 1000, 3: 1000}, button=1, seed=7)
        >>> mask = ActionAbstraction.full(1000).legal_mask(hand.view_for(1))
        >>> mask.shape, int(mask.sum()), np.flatnonzero(mask)[:4].tolist()
        ((1009,), 983, [0, 1, 28, 29])
        """
        mask = self.mask(self._moves(view, chip_unit, amounts=False))
        spec = self._amounts(view, chip_unit) if self.max_amount is not None else None
        if spec is not None:
            _, low, high, ends, unit, all_in = spec
            base = len(Move)
            if ends:
                mask[base + high] = 1
            else:
                first = -(-low // unit) * unit  # the lowest multiple of the unit from low
                mask[base + first : base + high + 1 : unit] = 1
                if low <= all_in <= high:
                    mask[base + all_in] = 1
        return mask

    def describe(self, mask: npt.NDArray[Any]) -> str:
        """The legal actions of ``mask`` in words (amounts in the full space as a range).

        >>> full = ActionAbstraction.full(100)
        >>> mask = np.zeros(full.size, dtype=np.int8); mask[[0, 1, 28, 30, 108]] = 1
        >>> full.describe(mask)
        '0 fold, 1 check/call, 28..108 raise to 20..100 (3 amounts)'
        """
        legal = [int(i) for i in np.flatnonzero(mask)]
        names = self.names
        if self.max_amount is None:
            return ", ".join(f"{i} {names[i]}" for i in legal)
        fixed = [i for i in legal if i < len(Move)]
        raises = [i for i in legal if i >= len(Move)]
        parts = [f"{i} {names[i]}" for i in fixed]
        if len(raises) == 1:
            parts.append(f"{raises[0]} {names[raises[0]]}")
        elif raises:
            low, high = raises[0] - len(Move), raises[-1] - len(Move)
            parts.append(
                f"{raises[0]}..{raises[-1]} raise to {low}..{high} ({len(raises)} amounts)"
            )
        return ", ".join(parts)

    def mask(self, moves: Mapping[int, Action]) -> npt.NDArray[np.int8]:
        """The action mask (1: legal) of the indices :meth:`moves` gave.

        >>> ActionAbstraction(()).mask({1: Check()})
        array([0, 1, 0, 0, 0, 0, 0, 0], dtype=int8)
        """
        mask = np.zeros(self.size, dtype=np.int8)
        for index in moves:
            mask[index] = 1
        return mask
