"""A PettingZoo AEC environment for every NZ poker game and betting structure.

One episode is one hand of :class:`~croupier.poker.state.HandState`: the stacks are reset
at every :meth:`PokerEnv.reset`, the agents ``player_0`` .. ``player_{n-1}`` sit in seats
1 .. n, and each agent's reward at the end of the hand is its chip change (an integer
payoff, made a float only for the reward; ``info["payoff"]`` keeps the integer).

What an agent observes comes from its seat view alone
(:meth:`HandState.view_for <croupier.poker.state.HandState.view_for>`): the observation is
``{"observation": float32 vector, "action_mask": int8 vector}``, laid out as
:class:`ObservationLayout` documents. Actions go through a discrete
:class:`ActionAbstraction`: fold, check or call, the minimum and the maximum bet or raise,
stud's bring-in, three draws (stand pat, the cards :func:`rule_discards` picks, all five)
and raises to fractions of the pot; or, with ``actions="full"``, the full amount space
(:meth:`ActionAbstraction.full`): the same moves, and index ``len(Move) + a`` for a bet or
raise to every round total of ``a`` whole chips up to the largest stack, the mask giving
exactly the amounts the referee accepts.

>>> env = poker_env("omaha", "pot-limit", players=3)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, obs["observation"].dtype, env.action_names(obs["action_mask"])
((413,), dtype('float32'), ['fold', 'check/call', 'min raise', 'max raise', 'raise 1/2 pot'])
>>> results = {}
>>> for agent in env.agent_iter():               # everybody checks or calls
...     obs, reward, terminated, truncated, info = env.last()
...     if terminated:
...         results[agent] = info["payoff"]
...     env.step(None if terminated else Move.CHECK_CALL)
>>> results, sum(results.values())               # chips are conserved (no rake)
({'player_1': -10, 'player_0': -10, 'player_2': 20}, 0)
>>> full = poker_env("holdem", "pot-limit", players=3, stacks=500, actions="full")
>>> full.reset(seed=7); full.action_space("player_0")
Discrete(509)
>>> full.abstraction.describe(full.observe(full.agent_selection)["action_mask"])
'0 fold, 1 check/call, 28..43 raise to 20..35 (16 amounts)'
>>> full.step(full.abstraction.index_of(27)); full.hand.events[-1]
RaisedTo(seat=2, to=27, increment=17, full=True, all_in=False)
"""

from __future__ import annotations

import numbers
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from croupier.cards.card import Card, parse_cards
from croupier.cards.deck import Deck
from croupier.errors import CroupierError, InvalidActionError
from croupier.poker import events as ev
from croupier.poker.actions import Action, BringIn, Call, Check, Discard, Fold, RaiseTo
from croupier.poker.games import ForcedBets, GameSpec, game_by_name
from croupier.poker.settings import TableRules
from croupier.poker.state import HandState
from croupier.poker.structures import BettingStructure, structure_for_stakes
from croupier.poker.views import SeatView

__all__ = [
    "ActionAbstraction",
    "Move",
    "ObservationLayout",
    "PokerEnv",
    "poker_env",
    "rule_discards",
]

Observation = dict[str, npt.NDArray[Any]]
"""What :meth:`PokerEnv.observe` returns: ``observation`` (float32) and ``action_mask`` (int8)."""

PER_PLAYER = (
    "stack",
    "bet",
    "committed",
    "forced",
    "folded",
    "all_in",
    "to_act",
    "button",
    "down_cards",
    "discarded",
    "drawn",
)
"""The features of each player (see :class:`ObservationLayout`)."""

PER_STREET = ("bets_and_raises", "chips", "called", "checked")
"""The history summary of each player on each street (see :class:`ObservationLayout`)."""

BETTING = (
    "pot",
    "to_call",
    "current_bet",
    "min_raise_to",
    "max_raise_to",
    "bets_this_round",
    "players_in_hand",
    "players_able_to_act",
)
"""The betting features (see :class:`ObservationLayout`)."""

_RAISES_SCALE = 4
"""Bets and raises are counted in fours (the NZ cap is a bet and three raises) and clipped at 1."""


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


@dataclass(frozen=True)
class ObservationLayout:
    """The observation vector of one game at a table of ``players``: float32, every entry in
    [0, 1], in these sections (``N`` players, ``S`` streets of the game; "slot k" is the
    player ``k`` seats clockwise from the observer, slot 0 the observer; chip amounts are
    divided by ``T``, the chips on the table at the start of the hand):

    ================  ==========  =====================================================
    section           size        contents
    ================  ==========  =====================================================
    own_down          52          the observer's face-down cards, one-hot by card index
                                  (``4 * rank + suit``, 2c = 0 .. As = 51)
    visible_cards     N x 52      for each slot, every card of that player the observer
                                  sees (own cards; others' up cards and shown cards)
    board             52          the community cards
    own_discards      52          the observer's discards (draw)
    players           N x 11      for each slot: stack/T, bet this round/T, committed
                                  this hand/T, forced bets (blinds, ante)/T, folded,
                                  all in, to act, has the button, down cards held /
                                  the game's cards a player, cards discarded / 5, has
                                  drawn
    history           N x S x 4   for each slot and street: bets and raises made / 4
                                  (clipped at 1), chips put in voluntarily/T (a
                                  returned bet taken off), called, checked
    pots              N           the main pot and side pots/T, in order (zeros after)
    betting           8           pot/T, to call/T, current bet/T, smallest and largest
                                  legal raise-to/T (0 unless the observer acts), bets and
                                  raises this round / 4, players in the hand / N,
                                  players able to act / N
    street            S           the street, one-hot
    phase             2           a draw is due, the hand is over
    position          N           the observer's seats clockwise from the button, one-hot
    ================  ==========  =====================================================

    >>> from croupier.poker import HOLDEM
    >>> layout = ObservationLayout(HOLDEM, 6)
    >>> layout.size, layout.offset("board"), layout.sections[-1]
    (656, 364, ('position', 650, 6))
    """

    game: GameSpec
    """The game."""
    players: int
    """Players at the table."""

    @property
    def sections(self) -> tuple[tuple[str, int, int], ...]:
        """``(name, offset, size)`` of each section, in order."""
        n, s = self.players, len(self.game.streets)
        sizes = (
            ("own_down", 52),
            ("visible_cards", n * 52),
            ("board", 52),
            ("own_discards", 52),
            ("players", n * len(PER_PLAYER)),
            ("history", n * s * len(PER_STREET)),
            ("pots", n),
            ("betting", len(BETTING)),
            ("street", s),
            ("phase", 2),
            ("position", n),
        )
        out: list[tuple[str, int, int]] = []
        offset = 0
        for name, size in sizes:
            out.append((name, offset, size))
            offset += size
        return tuple(out)

    @property
    def size(self) -> int:
        """The vector's length."""
        _, offset, size = self.sections[-1]
        return offset + size

    def offset(self, section: str) -> int:
        """Where ``section`` starts."""
        for name, offset, _ in self.sections:
            if name == section:
                return offset
        raise CroupierError(f"no section {section!r}: one of {[s[0] for s in self.sections]}")

    def encode(self, view: SeatView) -> npt.NDArray[np.float32]:
        """The observation of the seat whose ``view`` this is, from the view alone.

        >>> from croupier.poker import HOLDEM, HandState, TableRules
        >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=3)
        >>> vector = ObservationLayout(HOLDEM, 2).encode(hand.view_for(2))
        >>> int(vector[:52].sum()), float(vector.max()) <= 1.0
        (2, True)
        """
        if view.seat is None:
            raise CroupierError("an observation is a seat's: a spectator's view has none")
        game, n = self.game, self.players
        streets = len(game.streets)
        out = np.zeros(self.size, dtype=np.float32)
        players = view.players
        if len(players) != n:
            raise CroupierError(f"the view has {len(players)} players; the layout {n}")
        seats = [p.seat for p in players]
        me = seats.index(view.seat)
        slot_of = {seat: (i - me) % n for i, seat in enumerate(seats)}
        start = view.events[0]
        if not isinstance(start, ev.HandStarted):
            raise CroupierError("a seat view's log starts with HandStarted")
        starting = dict(zip(start.seats, start.stacks, strict=True))
        total = max(sum(start.stacks), 1)
        offsets = {name: offset for name, offset, _ in self.sections}

        # cards
        own = players[me]
        base = offsets["own_down"]
        for card in own.down:
            if card is not None:
                out[base + card.index] = 1.0
        base = offsets["visible_cards"]
        for player in players:
            first = base + slot_of[player.seat] * 52
            for card in (*player.up, *player.down):
                if card is not None:
                    out[first + card.index] = 1.0
        base = offsets["board"]
        for card in view.board:
            out[base + card.index] = 1.0

        # the history, from the seat's censored log
        street = 0
        round_bet: dict[int, int] = dict.fromkeys(seats, 0)
        forced: dict[int, int] = dict.fromkeys(seats, 0)
        discarded: dict[int, int] = dict.fromkeys(seats, 0)
        drawn: set[int] = set()
        history = np.zeros((n, streets, len(PER_STREET)), dtype=np.float64)
        own_discards = offsets["own_discards"]
        for event in view.events:
            match event:
                case ev.BetsCollected():
                    street = min(street + 1, streets - 1)
                    round_bet = dict.fromkeys(seats, 0)
                case ev.AntePosted(seat=seat, amount=amount):
                    forced[seat] += amount
                case ev.BlindPosted(seat=seat, amount=amount):
                    forced[seat] += amount
                    round_bet[seat] += amount
                case ev.BringIn(seat=seat, to=to):
                    history[slot_of[seat], street, 1] += to - round_bet[seat]
                    round_bet[seat] = to
                case ev.Called(seat=seat, amount=amount):
                    history[slot_of[seat], street, 1] += amount
                    history[slot_of[seat], street, 2] = 1.0
                    round_bet[seat] += amount
                case ev.Checked(seat=seat):
                    history[slot_of[seat], street, 3] = 1.0
                case ev.RaisedTo(seat=seat, to=to):
                    history[slot_of[seat], street, 0] += 1
                    history[slot_of[seat], street, 1] += to - round_bet[seat]
                    round_bet[seat] = to
                case ev.BetReturned(seat=seat, amount=amount):
                    line = history[slot_of[seat], street]
                    line[1] = max(line[1] - amount, 0)
                case ev.Discarded(seat=seat, cards=cards):
                    discarded[seat] += len(cards)
                    drawn.add(seat)
                    if seat == view.seat:
                        for card in cards:
                            out[own_discards + card.index] = 1.0
                case ev.HiddenCards(seat=seat, count=count, what="discarded") if seat is not None:
                    discarded[seat] += count
                    drawn.add(seat)
                case _:
                    pass
        bets_this_round = float(history[:, street, 0].sum())
        history[:, :, 0] = np.minimum(history[:, :, 0] / _RAISES_SCALE, 1.0)
        history[:, :, 1] = np.clip(history[:, :, 1] / total, 0.0, 1.0)
        base = offsets["history"]
        out[base : base + history.size] = history.reshape(-1)

        # the players
        base = offsets["players"]
        width = len(PER_PLAYER)
        cards_a_player = max(game.hole_cards, 1)
        for player in players:
            slot = slot_of[player.seat]
            committed = max(starting.get(player.seat, 0) - player.stack, 0)
            features = (
                player.stack / total,
                player.bet / total,
                committed / total,
                forced[player.seat] / total,
                float(player.folded),
                float(player.all_in),
                float(view.actor == player.seat),
                float(view.button == player.seat),
                len(player.down) / cards_a_player,
                discarded[player.seat] / 5,
                float(player.seat in drawn),
            )
            out[base + slot * width : base + (slot + 1) * width] = np.clip(features, 0.0, 1.0)

        # pots and betting
        base = offsets["pots"]
        for i, amount in enumerate(view.pots[:n]):
            out[base + i] = min(amount / total, 1.0)
        legal = view.legal
        low = high = 0
        if legal is not None and legal.raise_to is not None:
            low, high = legal.raise_to
        elif legal is not None and legal.bring_in is not None:
            low, high = legal.bring_in
        in_hand = [p for p in players if not p.folded]
        able = [p for p in in_hand if not p.all_in and p.stack > 0]
        betting = (
            view.pot / total,
            view.to_call / total,
            max((p.bet for p in players), default=0) / total,
            low / total,
            high / total,
            bets_this_round / _RAISES_SCALE,
            len(in_hand) / n,
            len(able) / n,
        )
        base = offsets["betting"]
        out[base : base + len(BETTING)] = np.clip(betting, 0.0, 1.0)

        # street, phase, position
        names = [s.name for s in game.streets]
        if view.street in names:
            out[offsets["street"] + names.index(view.street)] = 1.0
        base = offsets["phase"]
        out[base] = float(legal is not None and legal.discard)
        out[base + 1] = float(view.complete)
        if view.button in seats:
            out[offsets["position"] + (me - seats.index(view.button)) % n] = 1.0
        return out


def _structure(structure: BettingStructure | str, big_blind: int) -> BettingStructure:
    if isinstance(structure, BettingStructure):
        return structure
    if isinstance(structure, str):
        return structure_for_stakes(structure, big_blind)
    raise CroupierError(
        f"structure must be a betting structure or a name (no-limit, pot-limit, half-pot, "
        f"fixed-limit, spread-limit), not {structure!r}"
    )


class PokerEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """A PettingZoo AEC environment: one hand of ``rules`` a episode, dealt to ``players``
    agents with ``stacks`` chips each (an integer for all, or one a seat).

    ``button`` fixes the button seat (1 .. players); None draws it from the environment's
    random source at every reset. :meth:`reset` takes ``options``: ``button`` (this hand's
    button) and ``deck`` (a stacked deck: every card of the game's deck, in the order
    dealt; burn cards included). Seeding ``reset(seed=...)`` makes every later hand
    reproducible. An action the mask does not allow raises
    :class:`~croupier.errors.InvalidActionError` (nothing changes).

    >>> from croupier.poker import HOLDEM, NoLimit, TableRules
    >>> env = PokerEnv(TableRules(HOLDEM, NoLimit(), blinds=(5, 10)), players=2, stacks=200)
    >>> env.reset(seed=1); env.agent_selection, env.hand.button   # heads up, 17.1(c) as written
    ('player_1', 1)
    >>> env.step(Move.FOLD); env.rewards, env.terminations["player_0"], env.infos["player_1"]
    ({'player_0': 5.0, 'player_1': -5.0}, True, {'payoff': -5})
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo's class attribute
        "name": "croupier_poker_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: TableRules,
        players: int = 2,
        stacks: int | Sequence[int] = 1000,
        *,
        button: int | None = None,
        abstraction: ActionAbstraction | str | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(rules, TableRules):
            raise CroupierError(f"rules must be TableRules, not {rules!r}")
        game = rules.game
        if isinstance(players, bool) or not isinstance(players, int):
            raise CroupierError(f"players must be a whole number, not {players!r}")
        if not 2 <= players <= game.max_players:
            raise CroupierError(
                f"{game.title} seats 2 to {game.max_players} players, not {players}"
            )
        if isinstance(stacks, int) and not isinstance(stacks, bool):
            chips = [stacks] * players
        elif isinstance(stacks, Sequence) and not isinstance(stacks, str | bytes):
            chips = list(stacks)
        else:
            raise CroupierError(
                f"stacks must be chips for all or one amount a seat, not {stacks!r}"
            )
        if len(chips) != players or not all(
            isinstance(c, int) and not isinstance(c, bool) for c in chips
        ):
            raise CroupierError(f"stacks must be {players} whole numbers of chips, not {stacks!r}")
        forced = self._largest_forced_bet(rules)
        if min(chips) <= forced:
            raise CroupierError(
                f"every stack must be above the largest forced bet ({forced}) so that somebody "
                f"acts in every hand, not {min(chips)}"
            )
        if button is not None and (
            isinstance(button, bool) or not isinstance(button, int) or not 1 <= button <= players
        ):
            raise CroupierError(f"button must be a seat 1 to {players} or None, not {button!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise CroupierError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.rules = rules
        """The table's rules."""
        self.stacks = {seat: chips[seat - 1] for seat in range(1, players + 1)}
        """Each seat's chips at the start of every hand."""
        self.button = button
        """The button seat, or None (drawn at every reset)."""
        if abstraction is None:
            abstraction = ActionAbstraction()
        elif isinstance(abstraction, str) and abstraction == "full":
            abstraction = ActionAbstraction.full(max(chips))
        elif not isinstance(abstraction, ActionAbstraction):
            raise CroupierError(
                f"abstraction must be an ActionAbstraction, 'full' or None, not {abstraction!r}"
            )
        if abstraction.max_amount is not None and abstraction.max_amount < max(chips):
            raise CroupierError(
                f"the full amount space must reach the largest stack ({max(chips)}), not "
                f"{abstraction.max_amount}"
            )
        self.abstraction: ActionAbstraction = abstraction
        """The discrete actions."""
        self.layout = ObservationLayout(game, players)
        """The observation vector's layout."""
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat_of = {agent: i + 1 for i, agent in enumerate(self.possible_agents)}
        self._agent_of = {seat: agent for agent, seat in self._seat_of.items()}
        size = self.abstraction.size
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (self.layout.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._rng: random.Random | None = None
        self.hand: HandState | None = None
        """The hand in play (None before the first reset)."""
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    @staticmethod
    def _largest_forced_bet(rules: TableRules) -> int:
        if rules.game.forced is ForcedBets.BLINDS:
            return max(rules.blinds, default=0) + rules.ante
        return rules.bring_in_amount + rules.ante

    def __str__(self) -> str:
        return f"croupier_poker_v0({self.rules.game.name}, {self.rules.structure.name})"

    # ---------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        """The agent's observation space (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The agent's action space (the same object every time)."""
        return self.action_spaces[agent]

    def seat_of(self, agent: str) -> int:
        """The seat an agent sits in (``player_0`` sits in seat 1)."""
        return self._seat_of[agent]

    def action_names(self, mask: npt.NDArray[Any] | None = None) -> list[str]:
        """The names of the actions (with ``mask``: of the legal ones)."""
        names = self.abstraction.names
        if mask is None:
            return list(names)
        return [name for name, on in zip(names, mask, strict=True) if on]

    # ---------------------------------------------------------------- episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand with the stacks reset (see the class docstring for ``options``)."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        rng = self._rng
        options = dict(options or {})
        button = options.get("button", self.button)
        if button is None:
            button = rng.randrange(1, len(self.possible_agents) + 1)
        hand_rng = random.Random(rng.getrandbits(64))
        stacked = options.get("deck")
        deck = None
        if stacked is not None:
            cards = parse_cards(stacked) if isinstance(stacked, str) else tuple(stacked)
            deck = Deck(cards, shuffle=False)
        self.hand = HandState(self.rules, self.stacks, button, rng=hand_rng, deck=deck)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        actor = self.hand.actor
        if actor is None:  # pragma: no cover - the stacks are above every forced bet
            raise CroupierError("the hand ended before anybody acted")
        self.agent_selection = self._agent_of[actor]

    def _hand(self) -> HandState:
        if self.hand is None:
            raise CroupierError("reset() the environment first")
        return self.hand

    def view(self, agent: str) -> SeatView:
        """The agent's seat view (all its observation comes from)."""
        return self._hand().view_for(self._seat_of[agent])

    def legal_moves(self, agent: str) -> dict[int, Action]:
        """The agent's legal action indices, each with its referee action."""
        return self.abstraction.moves(self.view(agent), self.rules.chip_unit)

    def observe(self, agent: str) -> Observation:
        """The agent's observation: its vector and its action mask (zeros unless it acts)."""
        view = self.view(agent)
        return {
            "observation": self.layout.encode(view),
            "action_mask": self.abstraction.legal_mask(view, self.rules.chip_unit),
        }

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Act for :attr:`agent_selection` (None for an agent whose hand is over)."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        hand = self._hand()
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise InvalidActionError(
                f"an action is an index 0 to {self.abstraction.size - 1}, not {action!r}"
            )
        index = int(action)
        view = self.view(agent)
        chosen = self.abstraction.action(view, index, self.rules.chip_unit)
        if chosen is None:
            legal = self.abstraction.describe(
                self.abstraction.legal_mask(view, self.rules.chip_unit)
            )
            what = self.abstraction.names[index] if 0 <= index < self.abstraction.size else "none"
            raise InvalidActionError(
                f"action {index} ({what}) is not legal for {agent} now; legal: {legal}"
            )
        self._cumulative_rewards[agent] = 0.0
        hand.apply(chosen)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if hand.is_complete:
            payoffs = hand.payoffs()
            for name in self.agents:
                chips = payoffs[self._seat_of[name]]
                self.rewards[name] = float(chips)
                self.terminations[name] = True
                self.infos[name] = {"payoff": chips}
        else:
            actor = hand.actor
            assert actor is not None
            self.agent_selection = self._agent_of[actor]
        self._accumulate_rewards()

    # ---------------------------------------------------------------- display
    def render(self) -> str | None:
        """The hand as a spectator sees it (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None or self.hand is None:
            return None
        view = self.hand.view_for(None)
        lines = [
            f"{self.rules.game.title}, {view.street}: board {' '.join(map(str, view.board)) or '-'}, "
            f"pot {view.pot}"
        ]
        for p in view.players:
            cards = " ".join(str(c) if c is not None else "??" for c in (*p.down, *p.up))
            state = "folded" if p.folded else ("all in" if p.all_in else "")
            marker = "*" if view.actor == p.seat else " "
            lines.append(
                f"{marker} seat {p.seat}: {p.stack} behind, bet {p.bet} [{cards}] {state}".rstrip()
            )
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def poker_env(
    game: GameSpec | str = "holdem",
    structure: BettingStructure | str = "no-limit",
    players: int = 2,
    *,
    stacks: int | Sequence[int] | None = None,
    button: int | None = None,
    raise_fractions: Sequence[Fraction | int | float | str] | None = None,
    actions: str | ActionAbstraction = "abstract",
    render_mode: str | None = None,
    **table: Any,
) -> PokerEnv:
    """A :class:`PokerEnv` for ``game`` (a :class:`~croupier.poker.games.GameSpec` or its
    name) under ``structure`` (a structure, or ``no-limit``, ``pot-limit``, ``half-pot``,
    ``fixed-limit``, ``spread-limit``: fixed limit bets the table minimum and twice it,
    spread limit one to five table minimums) with ``players`` agents.

    ``table`` holds the other :class:`~croupier.poker.settings.TableRules` settings
    (``blinds``, ``ante``, ``bring_in``, ``table_minimum``, ``rake`` ...); the defaults are
    blinds of 5 and 10 and a table minimum of 10 (the last blind when blinds are given),
    and for stud an ante of a fifth of the table minimum. ``stacks`` defaults to a hundred
    table minimums a seat.

    ``actions`` picks the action space: ``"abstract"`` (the :class:`Move` values and raises
    to ``raise_fractions`` of the pot, default 1/2, 1 and 2), ``"full"`` (every legal amount
    in chips, up to the largest stack: :meth:`ActionAbstraction.full`) or an
    :class:`ActionAbstraction`.

    >>> from croupier.poker import FixedLimit
    >>> env = poker_env("stud7", FixedLimit(20, 40), players=4, ante=2, bring_in=10)
    >>> env.reset(seed=3); env.action_names(env.observe(env.agent_selection)["action_mask"])
    ['min raise', 'max raise', 'bring in']
    >>> poker_env("draw", "half-pot", players=9)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: Draw poker seats 2 to 8 players, not 9
    """
    spec = game_by_name(game) if isinstance(game, str) else game
    if not isinstance(spec, GameSpec):
        raise CroupierError(f"game must be a GameSpec or a game's name, not {game!r}")
    settings = dict(table)
    if "blinds" in settings and "table_minimum" not in settings and settings["blinds"]:
        settings["table_minimum"] = tuple(settings["blinds"])[-1]
    minimum = settings.setdefault("table_minimum", 10)
    if spec.forced is ForcedBets.ANTE_BRING_IN:
        settings.setdefault("ante", max(minimum // 5, 1))
    if "blinds" in settings:
        settings["blinds"] = tuple(settings["blinds"])
    rules = TableRules(spec, _structure(structure, minimum), **settings)
    abstraction: ActionAbstraction | str
    if isinstance(actions, ActionAbstraction):
        if raise_fractions is not None:
            raise CroupierError("give raise_fractions or an ActionAbstraction, not both")
        abstraction = actions
    elif actions == "full":
        if raise_fractions is not None:
            raise CroupierError("the full amount space has every amount: give no raise_fractions")
        abstraction = "full"  # up to the largest stack
    elif actions == "abstract":
        abstraction = (
            ActionAbstraction()
            if raise_fractions is None
            else ActionAbstraction(
                tuple(raise_fractions)  # type: ignore[arg-type]  # checked and made Fractions
            )
        )
    else:
        raise CroupierError(
            f"actions must be 'abstract', 'full' or an ActionAbstraction, not {actions!r}"
        )
    return PokerEnv(
        rules,
        players,
        100 * minimum if stacks is None else stacks,
        button=button,
        abstraction=abstraction,
        render_mode=render_mode,
    )
