"""Simple built-in players for simulations: random, calling station, hand strength.

A policy looks at the hand and returns one legal decision for the player to act.

>>> import random
>>> from croupier.poker import HandState, TableRules
>>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1)
>>> CallingStation()(hand, random.Random(0))
('call', None)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from croupier.cards.card import Card
from croupier.evaluation.evaluate import evaluate
from croupier.evaluation.rankings import Category
from croupier.poker.state import HandState

__all__ = [
    "POLICIES",
    "CallingStation",
    "Decision",
    "HandStrength",
    "Policy",
    "RandomPolicy",
    "act",
]

Decision = tuple[str, int | None]
"""An action name (fold, check, call, raise, bring_in, discard) and its amount."""

Policy = Callable[[HandState, random.Random], Decision]
"""A player: given the hand and a random source, one legal decision."""


@dataclass(frozen=True)
class RandomPolicy:
    """Uniform over the legal kinds of action; a raise is to a uniform legal amount.

    >>> from croupier.poker import HandState, TableRules
    >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1)
    >>> RandomPolicy()(hand, random.Random(3))[0] in {"fold", "call", "raise"}
    True
    """

    def __call__(self, hand: HandState, rng: random.Random) -> Decision:
        """One random legal decision."""
        legal = hand.legal_actions()
        if legal.discard:
            cards = hand.players[legal.seat].down
            return ("discard", rng.randint(0, len(cards)))
        if legal.bring_in is not None:
            return ("bring_in", rng.choice(legal.bring_in))
        options: list[Decision] = []
        if legal.fold and legal.call is not None:
            options.append(("fold", None))
        if legal.check:
            options.append(("check", None))
        if legal.call is not None:
            options.append(("call", None))
        if legal.raise_to is not None:
            low, high = legal.raise_to
            options.append(("raise", rng.randint(low, high)))
        return rng.choice(options)


@dataclass(frozen=True)
class CallingStation:
    """Never folds, never raises: checks or calls (brings in at the minimum)."""

    def __call__(self, hand: HandState, rng: random.Random) -> Decision:
        """Check if free, else call."""
        legal = hand.legal_actions()
        if legal.discard:
            return ("discard", 0)
        if legal.bring_in is not None:
            return ("bring_in", legal.bring_in[0])
        return ("check", None) if legal.check else ("call", None)


@dataclass(frozen=True)
class HandStrength:
    """Bets its made hand: raises with two pair or better, calls with a pair or a high
    card when the price is small, folds the rest to a bet.

    >>> HandStrength().strength([], [])
    0
    """

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

    def __call__(self, hand: HandState, rng: random.Random) -> Decision:
        """Raise strong hands, call cheap ones, fold weak ones to a bet."""
        legal = hand.legal_actions()
        if legal.discard:
            return ("discard", 0)
        if legal.bring_in is not None:
            return ("bring_in", legal.bring_in[0])
        me = hand.players[legal.seat]
        own = list(me.cards)
        strength = self.strength(own, list(hand.board)) if hand.game.composition.own is None else (
            self.strength(own[:2], list(hand.board)))  # fmt: skip
        if strength == 2 and legal.raise_to is not None:
            return ("raise", legal.raise_to[0])
        if legal.check:
            return ("check", None)
        price = legal.call or 0
        if strength >= 1 or price * 10 <= hand.total_pot:
            return ("call", None)
        return ("fold", None)


POLICIES: dict[str, Policy] = {
    "random": RandomPolicy(),
    "calling-station": CallingStation(),
    "hand-strength": HandStrength(),
}
"""The built-in policies by name."""


def act(hand: HandState, decision: Decision, rng: random.Random) -> None:
    """Apply a decision to the hand.

    >>> from croupier.poker import HandState, TableRules
    >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1)
    >>> act(hand, ("fold", None), random.Random(0)); hand.is_complete
    True
    """
    kind, amount = decision
    if kind == "discard":
        cards = hand.players[hand.legal_actions().seat].down
        hand.discard(rng.sample(cards, amount or 0))
    elif kind == "bring_in":
        hand.bring_in(amount or 0)
    elif kind == "raise":
        hand.raise_to(amount or 0)
    else:
        getattr(hand, kind)()
