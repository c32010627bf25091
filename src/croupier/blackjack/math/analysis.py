"""Exact blackjack analysis for any :class:`BlackjackRules`: dealer outcomes, the value of
every first decision, a derived basic strategy, and the house edge, for an infinite deck
or a finite shoe of any composition.

**Method.** A hand's future depends only on the multiset of cards it holds, so the player
and dealer are walked over multiset graphs (:mod:`croupier.blackjack.math._exact_graphs`),
in compiled kernels:

* the dealer is **exact** for the shoe less the up card and every player card of the hand
  being valued (composition-dependent); a peek game conditions the hole card on "no
  blackjack", a no-hole-card game deals the second card after the player (Decision 3.1-3),
  so its blackjack is one outcome of the dealer's draw and takes what 11.7 lets it take;
* unsplit hands are **exact** for a single box played off the top: stand, hit (any
  number of cards, optimal or chart play after), double, surrender;
* **splits** use the standard approximation of the classic combinatorial programs: each
  split hand is valued with the shoe less the up card and both paired cards, as if the
  cards dealt to the other split hands were not gone; resplits follow the same recursion as
  an infinite deck with the finite-shoe chance of another paired card (11.4(a) resplits on
  the second card only; a declined resplit forfeits later ones, 11.5). For an infinite deck
  the splits are exact too.
* **11.7 after a split**, as the referee settles it: a busted hand has lost its stake, and a
  no-hole-card dealer blackjack takes the original wager **once**, from the box's hands
  still standing (nothing more if all busted). The split hands are played in order, so the
  recursion carries one more state: whether the original wager is still due (every hand so
  far busted). A hand played while it is due loses the original to a dealer blackjack if
  it stands; if it busts, the next hand is played while it is still due, so the bust is
  worth, besides its stake, the difference between the later hands' values in the two
  states; once a hand has stood the later hands risk nothing more than their busts (or
  their split and doubled stakes where the table takes all). Optimal play chooses each
  hand's play for the state it is in (the player sees the earlier hands finish). Within the
  split approximation above this is exact; the hands' chances of busting are taken as
  independent of each other and of the dealer's blackjack, as the approximation already
  does for their cards.

In a peek game the player's own draws are taken from the shoe without conditioning on the
hole card not making a blackjack (the usual simplification); the dealer is conditioned.

>>> a = Analysis(NZ)                     # the NZ game: six decks, no hole card
>>> a.best(10, 6, 10)[0], a.best(8, 8, 10)[0], a.best(1, 7, 9)[0]
('hit', 'split', 'hit')
>>> round(Analysis(NZ, decks="inf").dealer(7)["bust"] * 100, 2)
26.23
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

import numpy as np
import numpy.typing as npt

from croupier.blackjack.math._exact_graphs import dealer_graph, player_graph
from croupier.blackjack.math._exact_kernel import analyze_up, dealer_dist, hand_values
from croupier.blackjack.math._policy import CODES, DOUBLE_ON_CODES
from croupier.blackjack.math.strategy import StrategyChart
from croupier.blackjack.rules import (
    NZ,
    BlackjackRules,
    DealerBlackjackTakes,
    HoleCard,
    PairsBy,
    Surrender,
    whole_number,
)
from croupier.errors import CroupierError

__all__ = [
    "ACTIONS",
    "OUTCOMES",
    "Analysis",
    "dealer_outcomes",
    "house_edge",
    "insurance_ev",
    "shoe_counts",
]

FloatArray = npt.NDArray[np.float64]

OUTCOMES = ("17", "18", "19", "20", "21", "blackjack", "bust")
"""The dealer's final outcomes, in order."""

ACTIONS = ("stand", "hit", "double", "split", "surrender")
"""First decisions, in the order the kernels report them."""

_INFINITE: FloatArray = np.array([0.0, *(1 / 13,) * 9, 4 / 13])


def shoe_counts(decks: int) -> tuple[int, ...]:
    """Cards of each value A, 2, ..., 9, ten in ``decks`` full decks.

    >>> shoe_counts(6)
    (24, 24, 24, 24, 24, 24, 24, 24, 24, 96)
    """
    if decks < 1:
        raise CroupierError(f"a shoe needs at least one deck, not {decks}")
    return (*(4 * decks,) * 9, 16 * decks)


def _check_value(card: int, what: str) -> int:
    if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= 10:
        raise CroupierError(f"{what} must be a card value 1 (ace) to 10 (ten), not {card!r}")
    return card


@dataclass(frozen=True)
class Analysis:
    """The exact analysis of one rule set over one shoe (see the module docstring).

    ``decks`` overrides the rules' deck count (``"inf"`` for an infinite deck); ``counts``
    gives any other composition as ten counts (aces, twos, ..., tens).

    >>> round(Analysis(NZ).house_edge() * 100, 4)      # the NZ game, optimal play
    0.4202
    >>> Analysis(NZ, counts=(0,) * 10)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: the shoe needs at least 10 cards to deal a round, not 0
    """

    rules: BlackjackRules = NZ
    """The rule set (the engine's own object: the math and the referee share it)."""
    decks: int | Literal["inf"] | None = None
    """Decks in the shoe (None: the rules' own); ``"inf"``: an infinite deck."""
    counts: tuple[int, ...] | None = None
    """A composition of its own: cards of each value A, 2, ..., 9, ten."""
    _cache: dict[bytes, tuple[FloatArray, FloatArray]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if not isinstance(self.rules, BlackjackRules):
            raise CroupierError(f"rules must be a BlackjackRules, not {type(self.rules).__name__}")
        self.rules.validate()
        if self.counts is not None:
            try:
                counts = tuple(whole_number("a count", c) for c in self.counts)
            except TypeError:
                counts = ()
            if len(counts) != 10 or any(c < 0 for c in counts):
                raise CroupierError("counts are ten non-negative numbers: aces, twos, ..., tens")
            object.__setattr__(self, "counts", counts)
            if sum(self.counts) < 10:
                raise CroupierError(
                    f"the shoe needs at least 10 cards to deal a round, not {sum(self.counts)}"
                )
        elif self.decks not in (None, "inf") and (
            isinstance(self.decks, bool) or not isinstance(self.decks, int) or self.decks < 1
        ):
            raise CroupierError(f"decks is a whole number from 1, or 'inf', not {self.decks!r}")

    # ------------------------------------------------------------- the shoe
    @property
    def infinite(self) -> bool:
        """Whether this is an infinite deck."""
        return self.counts is None and self.decks == "inf"

    @property
    def shoe(self) -> tuple[int, ...] | None:
        """Cards of each value (None for an infinite deck).

        >>> Analysis(NZ).shoe[-1], Analysis(NZ, decks="inf").shoe
        (96, None)
        """
        if self.counts is not None:
            return tuple(self.counts)
        if self.decks == "inf":
            return None
        return shoe_counts(self.rules.decks if self.decks is None else self.decks)

    def _shoe_array(self) -> FloatArray:
        shoe = self.shoe
        return np.array([0.0, *(shoe or (0,) * 10)], np.float64)

    def _probabilities(self, removed: Sequence[int]) -> FloatArray:
        """Chance of each value next, after ``removed``."""
        if self.infinite:
            return _INFINITE.copy()
        left = self._shoe_array()
        for card in removed:
            left[card] -= 1
        left[left < 0] = 0
        total = left.sum()
        return left / total if total > 0 else left

    # ------------------------------------------------------------- dealer
    def dealer(self, up: int, *, seen: Sequence[int] = ()) -> dict[str, float]:
        """The dealer's final-outcome probabilities with ``up`` showing, the shoe less the up
        card and the ``seen`` cards. A peek game conditions on no dealer blackjack.

        >>> d = Analysis(NZ).dealer(10)
        >>> round(d["blackjack"], 5), round(sum(d.values()), 12)    # 24 aces in 311 cards
        (0.07717, 1.0)
        """
        _check_value(up, "the up card")
        for card in seen:
            _check_value(card, "a seen card")
        return dealer_outcomes(
            up,
            hits_soft_17=self.rules.dealer_hits_soft_17,
            peek=self.rules.hole_card is HoleCard.PEEK,
            shoe=self.shoe,
            seen=seen,
        )

    # ------------------------------------------------------------- the kernels
    def _run(self, chart: StrategyChart | None) -> tuple[FloatArray, FloatArray]:
        """(options[up, a, b, action], chosen[up, a, b]) for every up card and two cards."""
        key = b"" if chart is None else chart.cells.tobytes()
        if key in self._cache:
            return self._cache[key]
        rules = self.rules
        g = player_graph()
        shoe = self._shoe_array()
        cells = (chart.cells if chart is not None else np.zeros((3, 22, 11), np.int8)).astype(
            np.int8
        )
        opts = np.full((11, 11, 11, 5), np.nan)
        chosen = np.zeros((11, 11, 11))
        for up in range(1, 11):
            if not self.infinite and shoe[up] < 1:
                continue
            d = dealer_graph(up, rules.dealer_hits_soft_17)
            analyze_up(
                shoe, self.infinite, _INFINITE, up, g.counts, g.total, g.soft, g.cards, g.next,
                g.order, g.one, g.two, d.counts, d.drawn, d.trans,
                rules.hole_card is HoleCard.PEEK, 1.0,
                1.0 if rules.dealer_blackjack_takes_splits is DealerBlackjackTakes.ALL else 0.0,
                1.0 if rules.dealer_blackjack_takes_doubles is DealerBlackjackTakes.ALL else 0.0,
                DOUBLE_ON_CODES[rules.double_on], rules.double_after_split, rules.max_hands,
                rules.resplit_aces, rules.hit_split_aces, rules.surrender is Surrender.LATE,
                rules.pairs_by is PairsBy.VALUE, float(rules.blackjack_pays),
                0 if chart is None else 1, cells, opts[up], chosen[up],
            )  # fmt: skip
        self._cache[key] = (opts, chosen)
        return opts, chosen

    def _weights(self, up: int) -> FloatArray:
        """``w[a, b]``: chance of the player's two cards given the up card (ordered)."""
        w = np.zeros((11, 11))
        first = self._probabilities([up])
        for a in range(1, 11):
            if first[a] == 0:
                continue
            second = self._probabilities([up, a])
            w[a, 1:] = first[a] * second[1:]
        return w

    # ------------------------------------------------------------- decisions
    def options(self, c1: int, c2: int, up: int) -> dict[str, float]:
        """EV per initial unit of each legal first decision for two cards against ``up``
        (composition-dependent; dealer blackjack included: a peek game's counts as -1).

        >>> opts = Analysis(NZ).options(10, 6, 10)
        >>> sorted(opts), max(opts, key=opts.__getitem__)
        (['double', 'hit', 'stand'], 'hit')
        """
        for card, what in ((c1, "the first card"), (c2, "the second card"), (up, "the up card")):
            _check_value(card, what)
        opts, _ = self._run(None)
        row = opts[up, c1, c2]
        return {a: float(row[i]) for i, a in enumerate(ACTIONS) if not np.isnan(row[i])}

    def hand(self, cards: Sequence[int], up: int) -> dict[str, float]:
        """EV per initial unit of standing and of hitting (then playing on optimally) for a
        hand of any number of cards, after a first decision other than double or split
        (composition-dependent; dealer blackjack included as in :meth:`options`).

        >>> a = Analysis(NZ)                    # 16 against a ten: hit with two cards...
        >>> three, two = a.hand([10, 2, 4], 10), a.hand([10, 6], 10)
        >>> max(two, key=two.__getitem__), max(three, key=three.__getitem__)   # ...stand with 10-2-4
        ('hit', 'stand')
        """
        _check_value(up, "the up card")
        for card in cards:
            _check_value(card, "a card")
        held = [0] * 10
        for card in cards:
            held[card - 1] += 1
        g = player_graph()
        match = np.flatnonzero((g.counts[:, 1:] == np.array(held)).all(axis=1))
        if len(cards) < 2 or not len(match):
            raise CroupierError(f"not a live hand of two or more cards: {list(cards)}")
        shoe = self._shoe_array()
        if not self.infinite:
            left = shoe.copy()
            left[up] -= 1
            for card in cards:
                left[card] -= 1
            if (left < 0).any():
                raise CroupierError("the hand and up card are not all in the shoe")
        s = int(match[0])
        rules = self.rules
        d = dealer_graph(up, rules.dealer_hits_soft_17)
        n = len(g.hard)
        sv, hitv = np.zeros(n), np.zeros(n)
        peek = rules.hole_card is HoleCard.PEEK
        hand_values(
            shoe, self.infinite, _INFINITE, up, g.counts, g.total, g.soft, g.cards, g.next,
            g.order, d.counts, d.drawn, d.trans, peek,
            1.0 if rules.dealer_blackjack_takes_doubles is DealerBlackjackTakes.ALL else 0.0,
            0, np.zeros((3, 22, 11), np.int8), sv, hitv,
        )  # fmt: skip
        out = {}
        total = int(g.total[s])
        if total >= 12:
            out["stand"] = float(sv[s])
        if total < 21:
            out["hit"] = float(hitv[s])
        bj = 1 if up == 10 else (10 if up == 1 else 0)
        if peek and bj:
            p_bj = float(self._probabilities([up, *cards])[bj])
            out = {a: p_bj * -1.0 + (1 - p_bj) * x for a, x in out.items()}
        return out

    def value(self, c1: int, c2: int, up: int, strategy: StrategyChart | None = None) -> float:
        """EV per initial unit of two cards against ``up`` played optimally, or as
        ``strategy`` plays them (a natural included; composition-dependent).

        >>> a = Analysis(NZ)
        >>> a.value(1, 10, 6), a.value(8, 8, 10) == a.best(8, 8, 10)[1]
        (1.5, True)
        """
        for card, what in ((c1, "the first card"), (c2, "the second card"), (up, "the up card")):
            _check_value(card, what)
        return float(self._run(strategy)[1][up, c1, c2])

    def best(self, c1: int, c2: int, up: int) -> tuple[str, float]:
        """The best first decision and its EV (``("blackjack", ev)`` for a natural).

        >>> Analysis(NZ).best(1, 10, 6)
        ('blackjack', 1.5)
        """
        opts = self.options(c1, c2, up)
        if not opts:
            return "blackjack", float(self._run(None)[1][up, c1, c2])
        action = max(opts, key=opts.__getitem__)
        return action, opts[action]

    # ------------------------------------------------------------- the whole game
    def expectation(self, strategy: StrategyChart | None = None) -> float:
        """The player's expectation per initial unit, off the top of the shoe: optimal
        composition-dependent play, or the given chart's play.

        >>> griffin = NZ.with_(hole_card=HoleCard.PEEK, double_after_split=False, max_hands=2)
        >>> round(Analysis(griffin, decks="inf").expectation() * 100, 6)   # Griffin: -0.690223
        -0.690237
        """
        _, chosen = self._run(strategy)
        total = 0.0
        up_p = self._probabilities([])
        for up in range(1, 11):
            if up_p[up] > 0:
                total += float(up_p[up]) * float((self._weights(up) * chosen[up]).sum())
        return total

    def house_edge(self, strategy: StrategyChart | None = None) -> float:
        """The house edge: minus :meth:`expectation`.

        >>> round(Analysis(NZ, decks="inf").house_edge() * 100, 4)
        0.5298
        """
        return -self.expectation(strategy)

    def basic_strategy(self) -> StrategyChart:
        """The basic strategy chart, derived: each cell is the action with the best EV over
        the two-card hands of that row (weighted by their chance with this up card, so a
        finite shoe's chart is total-dependent), "D"/"R" falling back to the better of hit
        and stand ("Ds" when standing is better).

        >>> chart = Analysis(NZ).basic_strategy()
        >>> chart.code("hard", 11, 10), chart.code("pair", 8, 10), chart.code("soft", 18, 9)
        ('D', 'P', 'H')
        >>> chart.code("pair", 8, 1)     # 11.7: a busted hand leaves the original due
        'H'
        """
        opts, _ = self._run(None)
        cells = np.zeros((3, 22, 11), np.int8)
        cells[0, 17:22, :] = CODES.index("S")
        cells[1, 19:22, :] = CODES.index("S")
        for up in range(1, 11):
            w = self._weights(up)
            rows: dict[tuple[int, int], list[tuple[int, int]]] = {}
            for a in range(1, 11):
                for b in range(1, 11):
                    hard = a + b
                    if 1 in (a, b):
                        if hard + 10 < 21:
                            rows.setdefault((1, hard + 10), []).append((a, b))
                    else:
                        rows.setdefault((0, hard), []).append((a, b))
                    if a == b:
                        rows.setdefault((2, a), []).append((a, b))
            for (kind, row), hands in rows.items():
                ev = np.zeros(5)
                weight = 0.0
                for a, b in hands:
                    if w[a, b] > 0:
                        ev += w[a, b] * np.nan_to_num(opts[up, a, b], nan=-1e9)
                        weight += w[a, b]
                if weight == 0 or (kind == 0 and row > 20):
                    continue
                ev /= weight
                if kind != 2:
                    ev[3] = -1e9  # a hard or soft row is read when no split is played
                cells[kind, row, up] = CODES.index(_code(ev))
        return StrategyChart(cells)


def _code(ev: FloatArray) -> str:
    best = int(np.argmax(ev))
    hit_better = ev[1] >= ev[0]
    if best == 2:
        return "D" if hit_better else "Ds"
    if best == 4:
        return "R" if hit_better else "Rs"
    return ("S", "H", "D", "P", "R")[best]


def dealer_outcomes(
    upcard: int,
    *,
    hits_soft_17: bool = False,
    peek: bool = False,
    shoe: Sequence[int] | None = None,
    seen: Sequence[int] = (),
) -> dict[str, float]:
    """The dealer's final-outcome probabilities with ``upcard`` showing (1 = ace, 10 = ten),
    for an infinite deck or, given ``shoe`` (ten counts A..ten), that shoe less the up card
    and the ``seen`` cards. With ``peek`` the distribution is conditioned on no blackjack.

    >>> round(dealer_outcomes(1)["blackjack"] * 100, 2), round(dealer_outcomes(1)["bust"] * 100, 2)
    (30.77, 11.53)
    >>> round(dealer_outcomes(6, shoe=shoe_counts(1), seen=[10, 10])["bust"], 4)
    0.4023
    """
    _check_value(upcard, "the up card")
    infinite = shoe is None
    comp = np.array([0.0, *(shoe or (0,) * 10)], np.float64)
    if not infinite:
        comp[upcard] -= 1
        for card in seen:
            comp[card] -= 1
        if (comp < 0).any():
            raise CroupierError("the seen cards and up card are not all in the shoe")
    d = dealer_graph(upcard, hits_soft_17)
    bj = 1 if upcard == 10 else (10 if upcard == 1 else 0)
    out = np.zeros(7)
    dealer_dist(comp, comp.sum(), infinite, _INFINITE, d.counts, d.drawn, d.trans,
                bj if peek else 0, np.zeros(len(d.counts)), out)  # fmt: skip
    return {name: float(p) for name, p in zip(OUTCOMES, out, strict=True)}


def insurance_ev(*, decks: int | None = None) -> Fraction:
    """Expected value of an insurance bet of 1 against a dealer ace, only that ace seen.

    >>> insurance_ev(), insurance_ev(decks=6)
    (Fraction(-1, 13), Fraction(-23, 311))
    """
    if decks is None:
        tens, others = Fraction(4, 13), Fraction(9, 13)
        return 2 * tens - others
    remaining = 52 * decks - 1
    tens_n = 16 * decks
    return Fraction(2 * tens_n - (remaining - tens_n), remaining)


def house_edge(rules: BlackjackRules = NZ, *, decks: int | Literal["inf"] | None = None) -> float:
    """The house edge (minus the player's expectation per initial unit) with optimal play.

    >>> 0 < house_edge() < 0.01
    True
    """
    return Analysis(rules, decks=decks).house_edge()
