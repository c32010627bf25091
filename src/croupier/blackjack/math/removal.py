"""Effects of removal by the exact analysis, and what they say about a counting system:
its betting correlation, playing efficiency and insurance correlation.

**Effects of removal.** The effect of removing a card of value v is
``EV(shoe less one v) - EV(shoe)``, both by the exact composition-dependent analysis
(:mod:`croupier.blackjack.math.analysis`), off the top, with the **basic strategy derived
for the full shoe** played on both (:meth:`Analysis.basic_strategy`). With a fixed strategy,
dealing a round after one unseen card is burned is the same as dealing it off the top, so
the effects weighted by the shoe's cards sum to zero (up to the split approximation, about
1e-8 here): :meth:`RemovalEffects.deck_sum` checks it. The effects with each shoe played
optimally (composition-dependent) are kept too (:attr:`RemovalEffects.optimal_effects`);
they sum to a little more than zero, the value of knowing the card.

The **linear estimate** of removing several cards (``k`` of them from an ``N``-card shoe) is
``EV + (N - 1)/(N - k) * sum of their effects`` (Griffin, *The Theory of Blackjack*, ch. 5:
each card's effect is measured on a shoe one card smaller; removing ``k`` changes the
densities by ``(N - 1)/(N - k)`` times as much).

**Betting correlation** (Griffin's formula): over the cards of the shoe,
``BC = sum(n_v t_v e_v) / sqrt(sum(n_v t_v^2) sum(n_v e_v^2))``, the tags ``t`` as given
(balanced or not), ``e`` the effects, ``n_v`` the cards of each value. For a balanced system
it is the correlation coefficient. A system with an ace side count also gets the figure for
its betting tags (:attr:`CountingSystem.betting_tags`).

**Insurance correlation**: the same formula with the exact effects of removal on the
insurance bet (2:1 on a ten under an ace; the ace up out of the shoe), which follow the
familiar pattern of +4 for a non-ten and -9 for a ten.

**Playing efficiency** (Griffin's normal approximation, *The Theory of Blackjack* ch. 6;
see ``docs/counting.md`` for every step): for each first decision of two cards against an
up card (a hard or soft total, or a pair; insurance apart) the change ``D`` in the
difference between the basic play and its best alternative is linear in the cards removed,
with effects ``d_v``; after ``k`` of ``N`` cards ``D`` is about normal with mean ``M`` (its
full-shoe value) and ``sigma^2 = (N - 1) k / (N - k) * var(d)``. Knowing ``D`` (perfect
linear play) gains ``sigma G(|M|/sigma)`` a time, ``G`` the unit normal loss integral; a
count whose tags correlate ``rho`` with ``d`` gains ``|rho| sigma G(|M|/(|rho| sigma))``.
The efficiency is the ratio of the two gains summed over the decisions (each weighted by
its chance) and over depths ``k`` of 1/20, 2/20, ... of the shoe up to the cut card.

>>> from croupier.blackjack.rules import NZ
>>> eor = effects_of_removal(NZ, decks=1)
>>> [f"{e * 100:+.2f}" for e in eor.effects]           # one card out of 52, per cent
['-0.58', '+0.38', '+0.43', '+0.55', '+0.70', '+0.46', '+0.28', '+0.01', '-0.17', '-0.52']
>>> abs(eor.deck_sum()) < 1e-4                           # against 0.23 in all
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.blackjack.math._shoes import (
    basic_chart,
    chart_expectation,
    evaluate_shoes,
    shoe_options,
)
from croupier.blackjack.math.analysis import ACTIONS, shoe_counts
from croupier.blackjack.math.counting import VALUES, CountingSystem
from croupier.blackjack.math.strategy import StrategyChart
from croupier.blackjack.rules import NZ, BlackjackRules, whole_number
from croupier.errors import CroupierError

__all__ = [
    "DECISIONS",
    "DECK",
    "Decision",
    "DecisionEffects",
    "RemovalEffects",
    "SystemFigures",
    "betting_correlation",
    "correlation",
    "decision_effects",
    "effects_of_removal",
    "hand_weights",
    "insurance_correlation",
    "insurance_effects",
    "playing_efficiency",
    "removal_shoes",
    "row_options",
    "system_figures",
]

FloatArray = npt.NDArray[np.float64]

DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
"""One deck's cards of each value A, 2, ..., 9, T."""

_LABEL = {1: "A", 10: "T"}


def _label(value: int) -> str:
    return _LABEL.get(value, str(value))


def correlation(tags: Sequence[float], effects: Sequence[float], weights: Sequence[float]) -> float:
    """Griffin's correlation ``sum(w t e) / sqrt(sum(w t^2) sum(w e^2))`` (tags as given,
    not centred); 0 if either side is all zero.

    >>> correlation([1, -1], [2, -2], [1, 1]), correlation([1, 0], [0, 1], [1, 1])
    (1.0, 0.0)
    """
    t = np.asarray(tags, np.float64)
    e = np.asarray(effects, np.float64)
    w = np.asarray(weights, np.float64)
    norm = math.sqrt(float((w * t * t).sum()) * float((w * e * e).sum()))
    return float((w * t * e).sum()) / norm if norm > 0 else 0.0


def _centred_correlation(t: FloatArray, e: FloatArray, w: FloatArray) -> float:
    """The correlation coefficient over the cards (both sides centred)."""
    total = float(w.sum())
    tc = t - float((w * t).sum()) / total
    ec = e - float((w * e).sum()) / total
    norm = math.sqrt(float((w * tc * tc).sum()) * float((w * ec * ec).sum()))
    return float((w * tc * ec).sum()) / norm if norm > 0 else 0.0


# ------------------------------------------------------------- decisions
@dataclass(frozen=True, order=True)
class Decision:
    """A first decision: a hard total, a soft total or a pair against an up card.

    A hard or soft total stands for the two-card hands of that total that are not pairs; a
    pair for its two cards (so each two-card hand belongs to exactly one decision).

    >>> Decision("hard", 16, 10).label, Decision("pair", 1, 6).label, Decision("soft", 18, 1).label
    ('16 v T', 'A,A v 6', 'soft 18 v A')
    >>> Decision("hard", 16, 10).hands(DECK)
    [(6, 10), (7, 9)]
    """

    kind: str
    """``hard``, ``soft`` or ``pair``."""
    row: int
    """The total, or the pair's card value (1 = ace)."""
    up: int
    """The dealer's up card (1 = ace, 10 = ten)."""

    @property
    def label(self) -> str:
        """How the decision is written: ``16 v T``, ``soft 18 v 2``, ``T,T v 5``."""
        up = _label(self.up)
        if self.kind == "pair":
            return f"{_label(self.row)},{_label(self.row)} v {up}"
        if self.kind == "soft":
            return f"soft {self.row} v {up}"
        return f"{self.row} v {up}"

    def hands(self, shoe: Sequence[int]) -> list[tuple[int, int]]:
        """The two-card hands ``(a, b)``, ``a <= b``, this decision stands for that the
        shoe can deal (the up card out first).

        >>> Decision("soft", 13, 6).hands(DECK), Decision("pair", 10, 6).hands(DECK)
        ([(1, 2)], [(10, 10)])
        """
        out = []
        for a in range(1, 11):
            for b in range(a, 11):
                if self.kind == "pair":
                    match = a == b == self.row
                elif a == b:
                    match = False
                elif self.kind == "soft":
                    match = a == 1 and b != 10 and 11 + b == self.row
                else:
                    match = a != 1 and a + b == self.row
                if not match:
                    continue
                left = list(shoe)
                for card in (self.up, a, b):
                    left[card - 1] -= 1
                if min(left) >= 0:
                    out.append((a, b))
        return out


def _all_decisions() -> list[Decision]:
    rows = [("hard", t) for t in range(5, 20)] + [("soft", t) for t in range(13, 21)]
    rows += [("pair", v) for v in range(1, 11)]
    return [Decision(kind, row, up) for kind, row in rows for up in range(1, 11)]


DECISIONS = _all_decisions()
"""Every first decision: hard 5-19 (no pairs), soft 13-20 and the ten pairs, each against
every up card."""


def hand_weights(shoe: Sequence[int], decision: Decision) -> dict[tuple[int, int], float]:
    """The chance of each of the decision's hands in a round dealt from ``shoe`` (the up
    card first, then the two cards in either order).

    >>> w = hand_weights(DECK, Decision("hard", 16, 10))
    >>> w[(6, 10)] == 16 / 52 * 2 * (4 / 51) * (15 / 50)
    True
    """
    total = sum(shoe)
    out = {}
    for a, b in decision.hands(shoe):
        left = list(shoe)
        p = left[decision.up - 1] / total
        left[decision.up - 1] -= 1
        p *= left[a - 1] / (total - 1)
        left[a - 1] -= 1
        p *= left[b - 1] / (total - 2)
        out[(a, b)] = p * (2 if a != b else 1)
    return out


def row_options(options: FloatArray, weights: dict[tuple[int, int], float]) -> dict[str, float]:
    """The EV of each play open to all the decision's hands (``options[a, b, i]`` for
    :data:`~croupier.blackjack.math.analysis.ACTIONS`), averaged over them by ``weights``.

    >>> options = np.full((11, 11, 5), np.nan)
    >>> options[6, 10, :2] = -0.5, -0.6; options[7, 9, :2] = -0.4, -0.6
    >>> {k: round(v, 3) for k, v in row_options(options, {(6, 10): 3.0, (7, 9): 1.0}).items()}
    {'stand': -0.475, 'hit': -0.6}
    """
    total = sum(weights.values())
    if total <= 0:
        return {}
    out: dict[str, float] = {}
    for i, action in enumerate(ACTIONS):
        values = [(w, float(options[a, b, i])) for (a, b), w in weights.items()]
        if all(not math.isnan(v) for _, v in values):
            out[action] = sum(w * v for w, v in values) / total
    return out


@dataclass(frozen=True)
class DecisionEffects:
    """One decision's basic play against one alternative, and the effects of removal on
    the difference (alternative minus basic) between them.

    >>> from croupier.blackjack.rules import NZ
    >>> d = next(d for d in effects_of_removal(NZ, decks=1).decisions()
    ...          if d.decision.label == "16 v T" and d.alternative == "stand")
    >>> d.play, d.mean < 0, d.effects[4] > 0 > d.effects[9]   # a five out: stand is better
    ('hit', True, True)
    """

    decision: Decision
    """The decision."""
    play: str
    """Its best play on the full shoe (``stand``, ``hit``, ``double``, ``split``, ``surrender``)."""
    alternative: str
    """Another play open to it."""
    frequency: float
    """Its chance in a round (up card and two cards)."""
    mean: float
    """EV(alternative) - EV(play) on the full shoe (at most zero)."""
    effects: tuple[float, ...]
    """The change in that difference when one card of value A, 2, ..., T is removed."""


# ------------------------------------------------------------- effects of removal
def _shoe_of(
    rules: BlackjackRules, decks: int | None, counts: Sequence[int] | None
) -> tuple[int, ...]:
    if counts is not None:
        try:
            shoe = tuple(whole_number("a count", c) for c in counts)
        except TypeError:
            shoe = ()
        if len(shoe) != 10 or min(shoe) < 0:
            raise CroupierError("counts are ten non-negative numbers: aces, twos, ..., tens")
        if min(shoe) < 1 or sum(shoe) < 20:
            raise CroupierError(
                "effects of removal need a shoe with every value in it and at least 20 cards"
            )
        return shoe
    if decks is not None and (isinstance(decks, bool) or not isinstance(decks, int) or decks < 1):
        raise CroupierError(f"decks is a whole number from 1, not {decks!r}")
    return shoe_counts(rules.decks if decks is None else decks)


def _less(shoe: Sequence[int], value: int, n: int = 1) -> tuple[int, ...]:
    out = list(shoe)
    out[value - 1] -= n
    return tuple(out)


@dataclass(frozen=True)
class RemovalEffects:
    """The exact effects of removal for one rule set and shoe (see the module docstring).

    >>> from croupier.blackjack.rules import NZ
    >>> eor = effects_of_removal(NZ, decks=1)
    >>> eor.cards, round(eor.ev * 100, 3), round(eor.optimal_ev * 100, 3)
    (52, 0.13, 0.171)
    >>> exact = eor.exact_after([5, 5, 6])           # two fives and a six out
    >>> round(eor.linear_estimate([5, 5, 6]) * 100, 2), round(exact * 100, 2)
    (2.06, 1.93)
    """

    rules: BlackjackRules
    """The rule set."""
    shoe: tuple[int, ...]
    """Cards of each value A, 2, ..., T."""
    chart: StrategyChart = field(repr=False)
    """The basic strategy derived for the full shoe, played on every shoe."""
    ev: float
    """The full shoe's expectation per initial unit with :attr:`chart`."""
    effects: tuple[float, ...]
    """EV(shoe less one card of value A, 2, ..., T) - :attr:`ev`, the same chart played."""
    optimal_ev: float
    """The full shoe's expectation with optimal (composition-dependent) play."""
    optimal_effects: tuple[float, ...]
    """The effects with each shoe played optimally."""

    @property
    def cards(self) -> int:
        """Cards in the shoe."""
        return sum(self.shoe)

    def per_deck(self) -> tuple[float, ...]:
        """The effects scaled to one card out of a single deck, ``(N - 1)/51`` times the
        effect (how multi-deck effects are usually quoted).

        >>> from croupier.blackjack.rules import NZ
        >>> eor = effects_of_removal(NZ, decks=1)
        >>> eor.per_deck() == eor.effects
        True
        """
        scale = (self.cards - 1) / 51
        return tuple(e * scale for e in self.effects)

    def deck_sum(self) -> float:
        """The effects summed over the shoe's cards, scaled to one deck's 52 cards and to
        :meth:`per_deck` (for a full shoe: 4 of each value and 16 tens): zero for a fixed
        strategy (see the module docstring).

        >>> from croupier.blackjack.rules import NZ
        >>> abs(effects_of_removal(NZ, decks=1).deck_sum()) < 1e-4   # the split approximation
        True
        """
        scale = 52 / self.cards
        return sum(s * scale * e for s, e in zip(self.shoe, self.per_deck(), strict=True))

    def linear_estimate(self, removed: Iterable[int]) -> float:
        """The expectation after the cards ``removed`` (values 1-10) by the linear estimate
        ``ev + (N - 1)/(N - k) * sum of their effects``.

        >>> from croupier.blackjack.rules import NZ
        >>> eor = effects_of_removal(NZ, decks=1)
        >>> eor.linear_estimate([]) == eor.ev
        True
        """
        cards = list(removed)
        self._check_removed(cards)
        k = len(cards)
        return self.ev + (self.cards - 1) / (self.cards - k) * sum(
            self.effects[v - 1] for v in cards
        )

    def exact_after(self, removed: Iterable[int]) -> float:
        """The expectation after the cards ``removed``, by the exact analysis, the same
        chart played (slow: one analysis).

        >>> from croupier.blackjack.rules import NZ
        >>> eor = effects_of_removal(NZ, decks=1)
        >>> eor.exact_after([10]) - eor.ev == eor.effects[9]
        True
        """
        cards = list(removed)
        self._check_removed(cards)
        shoe = list(self.shoe)
        for v in cards:
            shoe[v - 1] -= 1
        return chart_expectation(self.rules, tuple(shoe), self.chart)

    def _check_removed(self, cards: list[int]) -> None:
        left = list(self.shoe)
        for v in cards:
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 10:
                raise CroupierError(f"a removed card is a value 1 (ace) to 10 (ten), not {v!r}")
            left[v - 1] -= 1
        if min(left) < 0 or sum(left) < 10:
            raise CroupierError("the removed cards are not all in the shoe (or leave too few)")

    def decisions(self) -> list[DecisionEffects]:
        """Every first decision's basic play against each alternative, with the effects of
        removal on their difference (:func:`decision_effects`).

        >>> from croupier.blackjack.rules import NZ
        >>> len(effects_of_removal(NZ, decks=1).decisions()) > 500
        True
        """
        return decision_effects(self.rules, self.shoe)


def removal_shoes(shoe: Sequence[int]) -> list[tuple[int, ...]]:
    """The shoe and the shoe less one card of each value A, 2, ..., T (what the effects of
    removal analyse).

    >>> removal_shoes(DECK)[1]
    (3, 4, 4, 4, 4, 4, 4, 4, 4, 16)
    """
    return [tuple(shoe)] + [_less(shoe, v) for v in range(1, 11)]


def decision_effects(rules: BlackjackRules, shoe: Sequence[int]) -> list[DecisionEffects]:
    """Every first decision's best play on ``shoe`` against each alternative, with the
    effects of removal on their difference, optimal play after the decision (eleven exact
    analyses, cached).

    >>> from croupier.blackjack.rules import NZ
    >>> d = [e for e in decision_effects(NZ, DECK) if e.decision == Decision("hard", 11, 1)]
    >>> [(e.play, e.alternative) for e in d]          # no standing on 11 (12.1(d))
    [('double', 'hit')]
    """
    return list(_decision_effects(rules, tuple(shoe)))


@lru_cache(maxsize=32)
def _decision_effects(rules: BlackjackRules, shoe: tuple[int, ...]) -> tuple[DecisionEffects, ...]:
    options = [shoe_options(rules, s) for s in removal_shoes(shoe)]
    out = []
    for decision in DECISIONS:
        weights = hand_weights(shoe, decision)
        if not weights:
            continue
        rows = [row_options(o[decision.up], weights) for o in options]
        plays = [a for a in rows[0] if all(a in r for r in rows)]
        if len(plays) < 2:
            continue
        best = max(plays, key=rows[0].__getitem__)
        for other in plays:
            if other == best:
                continue
            mean = rows[0][other] - rows[0][best]
            effects = tuple((rows[v][other] - rows[v][best]) - mean for v in range(1, 11))
            out.append(DecisionEffects(decision, best, other, sum(weights.values()), mean, effects))
    return tuple(out)


def effects_of_removal(
    rules: BlackjackRules = NZ,
    *,
    decks: int | None = None,
    counts: Sequence[int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> RemovalEffects:
    """The exact effects of removal for ``rules`` and a shoe of ``decks`` decks (the rules'
    own by default) or of the composition ``counts`` (every value present): eleven exact
    analyses of the shoe and the shoe less each value, and as many with the chart, cached
    (``progress(1)`` after each of the eleven shoes).

    >>> from croupier.blackjack.rules import NZ
    >>> eor = effects_of_removal(NZ, decks=1)
    >>> max(range(10), key=lambda v: eor.effects[v]) + 1    # the five matters most
    5
    """
    if not isinstance(rules, BlackjackRules):
        raise CroupierError(f"rules must be a BlackjackRules, not {type(rules).__name__}")
    rules.validate()
    shoe = _shoe_of(rules, decks, counts)
    chart = basic_chart(rules, shoe)
    shoes = removal_shoes(shoe)
    evaluate_shoes(rules, shoes, chart=chart, progress=progress)
    ev = chart_expectation(rules, shoe, chart)
    effects = tuple(chart_expectation(rules, s, chart) - ev for s in shoes[1:])
    opt = [_optimal_ev(rules, s) for s in shoes]
    return RemovalEffects(
        rules=rules,
        shoe=shoe,
        chart=chart,
        ev=ev,
        effects=effects,
        optimal_ev=opt[0],
        optimal_effects=tuple(o - opt[0] for o in opt[1:]),
    )


def _optimal_ev(rules: BlackjackRules, shoe: tuple[int, ...]) -> float:
    """The optimal expectation from the cached options: the best first decision of every
    two-card hand; a natural is paid unless the dealer's next card makes a blackjack too."""
    options = shoe_options(rules, shoe)
    pays = float(rules.blackjack_pays)
    total = sum(shoe)
    ev = 0.0
    for up in range(1, 11):
        if shoe[up - 1] == 0:
            continue
        p_up = shoe[up - 1] / total
        for a in range(1, 11):
            for b in range(1, 11):
                left = list(shoe)
                left[up - 1] -= 1
                pa = left[a - 1] / (total - 1)
                left[a - 1] -= 1
                pb = left[b - 1] / (total - 2)
                left[b - 1] -= 1
                if pa * pb <= 0:
                    continue
                row = options[up, a, b]
                if np.isnan(row).all():  # a natural
                    ten_or_ace = {1: 10, 10: 1}.get(up)
                    p_bj = left[ten_or_ace - 1] / (total - 3) if ten_or_ace else 0.0
                    value = (1 - p_bj) * pays
                else:
                    value = float(np.nanmax(row))
                ev += p_up * pa * pb * value
    return ev


# ------------------------------------------------------------- the three figures
def betting_correlation(
    system: CountingSystem, effects: RemovalEffects, *, side_count: bool = False
) -> float:
    """The betting correlation: Griffin's formula over the shoe's cards between the tags
    (the betting tags with the ace side count if ``side_count``) and the effects of removal.

    >>> from croupier.blackjack.math.counting import counting_system
    >>> from croupier.blackjack.rules import NZ
    >>> round(betting_correlation(counting_system("hi-lo"), effects_of_removal(NZ, decks=1)), 2)
    0.97
    """
    tags = system.betting_tags if side_count else system.tags
    return correlation(tags, effects.effects, effects.shoe)


def insurance_effects(shoe: Sequence[int]) -> tuple[Fraction, ...]:
    """The exact effects of removal on the insurance bet (2:1 that the card after an ace up
    is a ten; the ace out of the shoe), for one card of each value A, 2, ..., T.

    >>> [str(e) for e in insurance_effects(DECK)][8:]     # 3T/(M(M-1)) and 3(T-M)/(M(M-1))
    ['8/425', '-7/170']
    """
    left = list(shoe)
    left[0] -= 1
    if min(left) < 0 or sum(left) < 2:
        raise CroupierError("insurance needs an ace up and at least two more cards")

    def ev(counts: Sequence[int]) -> Fraction:
        m = sum(counts)
        return Fraction(3 * counts[9] - m, m)

    base = ev(left)
    return tuple(ev(_less(left, v)) - base for v in range(1, 11))


def insurance_correlation(system: CountingSystem, shoe: Sequence[int] = DECK) -> float:
    """The insurance correlation: Griffin's formula between the tags and
    :func:`insurance_effects` over the shoe's cards.

    >>> from croupier.blackjack.math.counting import counting_system
    >>> round(insurance_correlation(counting_system("hi-lo")), 3)
    0.76
    """
    return correlation(system.tags, [float(e) for e in insurance_effects(shoe)], shoe)


def _loss(z: float) -> float:
    """The unit normal loss integral ``G(z) = phi(z) - z (1 - Phi(z))``."""
    return math.exp(-z * z / 2) / math.sqrt(2 * math.pi) - z * 0.5 * math.erfc(z / math.sqrt(2))


def _gain(mean: float, sigma: float) -> float:
    """``E[max(D, 0)]`` for ``D`` normal with ``mean`` (at most 0) and ``sigma``."""
    if sigma <= 0:
        return max(mean, 0.0)
    return sigma * _loss(abs(mean) / sigma)


def playing_efficiency(
    system: CountingSystem,
    effects: RemovalEffects,
    *,
    depths: Sequence[float] | None = None,
) -> float:
    """The playing efficiency (see the module docstring): the gain of the system's index
    plays over that of perfect linear play, summed over the first decisions and over
    ``depths`` (shares of the shoe dealt; default 1/20, 2/20, ... up to the cut card).

    >>> from croupier.blackjack.math.counting import counting_system
    >>> from croupier.blackjack.rules import NZ
    >>> eor = effects_of_removal(NZ, decks=1)
    >>> 0.4 < playing_efficiency(counting_system("hi-lo"), eor) < 0.7
    True
    """
    n = effects.cards
    if depths is None:
        last = min(max(int(20 * effects.rules.penetration), 1), 19)
        depths = [j / 20 for j in range(1, last + 1)]
    dealt = []
    for depth in depths:
        k = round(depth * n)
        if not 0 < depth < 1 or not 0 < k < n:
            raise CroupierError(f"a depth is a share of the shoe dealt, 0 < depth < 1: {depth!r}")
        dealt.append(k)
    weights = np.asarray(effects.shoe, np.float64)
    tags = np.asarray(system.tags, np.float64)
    decisions = effects.decisions()
    best: dict[Decision, tuple[float, float, float, float]] = {}
    for d in decisions:
        e = np.asarray(d.effects, np.float64)
        ec = e - float((weights * e).sum()) / n
        var = float((weights * ec * ec).sum()) / n
        rho = abs(_centred_correlation(tags, e, weights))
        score = _gain(d.mean, math.sqrt(var))  # which alternative matters most
        if d.decision not in best or score > best[d.decision][0]:
            best[d.decision] = (score, d.mean, var, rho)
    frequency = {d.decision: d.frequency for d in decisions}
    count = perfect = 0.0
    for k in dealt:
        scale = (n - 1) * k / (n - k)
        for decision, (_, mean, var, rho) in best.items():
            sigma = math.sqrt(scale * var)
            perfect += frequency[decision] * _gain(mean, sigma)
            count += frequency[decision] * _gain(mean, rho * sigma)
    return count / perfect if perfect > 0 else 0.0


@dataclass(frozen=True)
class SystemFigures:
    """A counting system's betting correlation, playing efficiency and insurance
    correlation for one rule set and shoe, beside the published figures.

    >>> from croupier.blackjack.math.counting import counting_system
    >>> from croupier.blackjack.rules import NZ
    >>> f = system_figures(counting_system("hi-lo"), NZ, decks=1)
    >>> round(f.betting_correlation, 2), round(f.insurance_correlation, 2), f.published["betting_correlation"]
    (0.97, 0.76, 0.97)
    """

    system: CountingSystem
    """The system."""
    betting_correlation: float
    """Its betting correlation (tags as given)."""
    playing_efficiency: float
    """Its playing efficiency."""
    insurance_correlation: float
    """Its insurance correlation."""
    betting_correlation_side_count: float | None
    """With the ace side count, for a system that keeps one (else None)."""
    effects: RemovalEffects = field(repr=False)
    """The effects of removal the figures come from."""

    @property
    def published(self) -> dict[str, float]:
        """The figures published for the system (US hole-card rules)."""
        return dict(self.system.published)

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON-ready data (the CLI's ``--json``).

        >>> from croupier.blackjack.math.counting import counting_system
        >>> from croupier.blackjack.rules import NZ
        >>> sorted(system_figures(counting_system("ko"), NZ, decks=1).to_json())[:3]
        ['balanced', 'betting_correlation', 'betting_correlation_side_count']
        """
        return {
            "system": self.system.key,
            "name": self.system.name,
            "balanced": self.system.balanced,
            "tags": dict(zip(VALUES, self.system.tags, strict=True)),
            "betting_correlation": self.betting_correlation,
            "betting_correlation_side_count": self.betting_correlation_side_count,
            "playing_efficiency": self.playing_efficiency,
            "insurance_correlation": self.insurance_correlation,
            "published": self.published,
        }


def system_figures(
    system: CountingSystem,
    rules: BlackjackRules = NZ,
    *,
    decks: int | None = None,
    counts: Sequence[int] | None = None,
    effects: RemovalEffects | None = None,
) -> SystemFigures:
    """BC, PE and IC of ``system`` for ``rules`` and a shoe (or given ``effects``).

    >>> from croupier.blackjack.math.counting import counting_system
    >>> from croupier.blackjack.rules import NZ
    >>> f = system_figures(counting_system("hi-opt-1"), NZ, decks=1)
    >>> f.betting_correlation < f.betting_correlation_side_count
    True
    """
    eor = effects if effects is not None else effects_of_removal(rules, decks=decks, counts=counts)
    return SystemFigures(
        system=system,
        betting_correlation=betting_correlation(system, eor),
        playing_efficiency=playing_efficiency(system, eor),
        insurance_correlation=insurance_correlation(system, eor.shoe),
        betting_correlation_side_count=(
            betting_correlation(system, eor, side_count=True) if system.ace_side_count else None
        ),
        effects=eor,
    )
