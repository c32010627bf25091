"""Built-in players: a policy sees a :class:`~croupier.poker.views.SeatView` and answers
with an :class:`~croupier.poker.actions.Action` — never the hand, never the deck.

One type for every bot: ``Policy = Callable[[SeatView], Action]``. :data:`POLICIES` maps
the names the CLI knows to factories taking a random source.

>>> import random
>>> from croupier.poker import HandState, TableRules
>>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1)
>>> CallingStation()(hand.view_for(hand.actor))
Call()
>>> hand.apply(RandomPolicy(random.Random(3))(hand.view_for(hand.actor))).seat
2
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from croupier.cards.card import Card
from croupier.errors import CroupierError
from croupier.evaluation.evaluate import evaluate
from croupier.evaluation.rankings import Category
from croupier.poker.actions import (
    Action,
    BringIn,
    Call,
    Check,
    Discard,
    Fold,
    LegalActions,
    RaiseTo,
)
from croupier.poker.games import GAMES
from croupier.poker.views import SeatView

__all__ = [
    "POLICIES",
    "CallingStation",
    "HandStrength",
    "Policy",
    "RandomPolicy",
    "passive_policy",
    "random_policy",
]

Policy = Callable[[SeatView], Action]
"""A player: given what its seat may see, one action (for the seat to act)."""


def _legal(view: SeatView) -> LegalActions:
    if view.legal is None:
        raise CroupierError(f"seat {view.seat} is not to act: no action to choose")
    return view.legal


def passive_policy(view: SeatView) -> Action:
    """Check when free, else call (stud: bring in for the least; draw: stand pat).

    >>> from croupier.poker import HandState, TableRules
    >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1)
    >>> while not hand.is_complete:
    ...     _ = hand.apply(passive_policy(hand.view_for(hand.actor)))
    >>> sum(hand.stacks.values())
    200
    """
    legal = _legal(view)
    if legal.discard:
        return Discard(())
    if legal.bring_in is not None:
        return BringIn(legal.bring_in[0])
    return Check() if legal.check else Call()


def random_policy(rng: random.Random, *, fold: float = 0.15, raise_: float = 0.25) -> Policy:
    """A policy making random legal actions, folding or raising now and then (tests, tables).

    >>> from croupier.poker import HandState, TableRules
    >>> policy = random_policy(random.Random(5))
    >>> hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=5)
    >>> while not hand.is_complete:
    ...     _ = hand.apply(policy(hand.view_for(hand.actor)))
    >>> sum(hand.stacks.values())
    300
    """

    def act(view: SeatView) -> Action:
        legal = _legal(view)
        if legal.discard:
            down = [c for c in view.me.down if c is not None]
            return Discard(tuple(c for c in down if rng.random() < 0.4))
        if legal.bring_in is not None:
            low, high = legal.bring_in
            if rng.random() < raise_ and not legal.bring_in_ends_only:
                return BringIn(rng.randint(low, high))
            return BringIn(high if rng.random() < raise_ else low)
        roll = rng.random()
        if legal.raise_to is not None and roll < raise_:
            low, high = legal.raise_to
            return RaiseTo(low if rng.random() < 0.5 else rng.randint(low, high))
        if legal.fold and legal.call is not None and roll > 1 - fold:
            return Fold()
        return Check() if legal.check else Call()

    return act


_FOLD, _CHECK, _CALL = Fold(), Check(), Call()
"""Actions are values: one of each serves every decision."""


@dataclass(frozen=True)
class RandomPolicy:
    """Uniform over the legal kinds of action; a raise is to a uniform legal amount.

    >>> from croupier.poker import HandState, TableRules
    >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1)
    >>> type(RandomPolicy(random.Random(3))(hand.view_for(2))).__name__ in {"Fold", "Call", "RaiseTo"}
    True
    """

    rng: random.Random = field(default_factory=random.Random)
    """The policy's random source."""

    def __call__(self, view: SeatView) -> Action:
        """One random legal action."""
        legal, rng = _legal(view), self.rng
        if legal.discard:
            down = [c for c in view.me.down if c is not None]
            return Discard(tuple(rng.sample(down, rng.randint(0, len(down)))))
        if legal.bring_in is not None:
            return BringIn(rng.choice(legal.bring_in))
        options: list[Action | None] = []  # None: the raise, made only when chosen
        amount = 0
        if legal.fold and legal.call is not None:
            options.append(_FOLD)
        if legal.check:
            options.append(_CHECK)
        if legal.call is not None:
            options.append(_CALL)
        if legal.raise_to is not None:
            low, high = legal.raise_to
            amount = rng.randint(low, high)
            options.append(None)
        chosen = rng.choice(options)
        return RaiseTo(amount) if chosen is None else chosen


@dataclass(frozen=True)
class CallingStation:
    """Never folds, never raises: checks or calls (brings in at the minimum).

    >>> from croupier.poker import HandState, TableRules
    >>> CallingStation()(HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1).view_for(2))
    Call()
    """

    rng: random.Random | None = None
    """Unused (every built-in policy takes a random source)."""

    def __call__(self, view: SeatView) -> Action:
        """Check if free, else call."""
        return passive_policy(view)


@dataclass(frozen=True)
class HandStrength:
    """Bets its made hand: raises with two pair or better, calls with a pair or a high
    card when the price is small, folds the rest to a bet.

    >>> HandStrength().strength([], [])
    0
    """

    rng: random.Random | None = None
    """Unused (every built-in policy takes a random source)."""

    def strength(self, own: Sequence[Card], board: Sequence[Card]) -> int:
        """0 (nothing), 1 (pair or an ace or king high), 2 (two pair or better)."""
        cards = [*own, *board]
        if len(cards) < 5:
            ranks = [c.rank for c in cards]
            if len(set(ranks)) < len(ranks):
                return 2 if len(ranks) - len(set(ranks)) >= 2 else 1
            return 1 if ranks and max(ranks) >= 11 else 0
        value = evaluate(cards[:7] if len(cards) > 7 else cards)
        if value.category >= Category.TWO_PAIR:
            return 2
        return 1 if value.category == Category.PAIR else 0

    def __call__(self, view: SeatView) -> Action:
        """Raise strong hands, call cheap ones, fold weak ones to a bet."""
        legal = _legal(view)
        if legal.discard:
            return Discard(())
        if legal.bring_in is not None:
            return BringIn(legal.bring_in[0])
        me = view.me
        own = [c for c in (*me.down, *me.up) if c is not None]
        if GAMES[view.game].composition.own is not None:
            own = own[:2]  # Omaha, Manila: two own cards at most play
        strength = self.strength(own, list(view.board))
        if strength == 2 and legal.raise_to is not None:
            return RaiseTo(legal.raise_to[0])
        if legal.check:
            return Check()
        price = legal.call or 0
        if strength >= 1 or price * 10 <= view.pot:
            return Call()
        return Fold()


POLICIES: dict[str, Callable[[random.Random], Policy]] = {
    "random": RandomPolicy,
    "calling-station": CallingStation,
    "hand-strength": HandStrength,
}
"""The built-in policies by name: each makes a policy from a random source."""
