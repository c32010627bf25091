"""The blackjack PAR sheet: house edge, the distribution of a round's net result, hit
frequency, standard deviation, element of risk, and the frequencies of blackjacks, busts,
pushes and insurance outcomes, with basic strategy and with optimal play.

**What is exact and what is simulated.** The exact analysis
(:class:`~croupier.blackjack.math.analysis.Analysis`) gives each strategy's expectation,
so the **house edge is exact**. The blackjack and insurance frequencies are exact
fractions of the shoe (see :func:`exact_frequencies`), and so are the dealer's outcomes by
up card. The analysis values a round but does not enumerate its results, so the
**distribution** of the net result, and everything read from it (standard deviation, hit,
push and loss frequencies), the average total wager (doubles and splits) and the bust
frequencies are **simulated**, each with a 95 % interval; the element of risk is the exact
house edge over the simulated average wager.

**How the rounds are played.** One box, a flat wager, the compiled simulator's rules
(:mod:`croupier.blackjack.math._sim_kernel`, checked round by round against the referee).
By default each round is dealt **off the top** of a freshly shuffled full shoe, which is
what the exact analysis values, so the simulated mean must agree with the exact house edge
(the sheet shows both); ``dealt="shoe"`` deals through the shoe to the cut card instead
(the real game, with the cut-card effect). **Basic strategy** is the chart the analysis
derives, played by the simulator's own round. **Optimal play** is the analysis's
composition-dependent play: a two-card hand takes the option with the best exact EV for
its two cards against the up card, and any later hand hits or stands as the exact values
of its multiset of cards say. Split hands use the same tables (the unsplit values of
their two cards); the analysis's own split values differ from these by far less than the
simulation's interval.

>>> par = blackjack_par(NZ.with_(decks=1), rounds=20_000, seed=1, strategies=("basic",))
>>> r = par.results["basic"]
>>> r.house_edge.source, r.standard_deviation.source
('exact', 'simulated')
>>> abs(sum(p.value for _, p in r.distribution) - 1) < 1e-12
True
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from enum import Enum
from fractions import Fraction
from multiprocessing import get_context
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.blackjack.math import _sim_kernel as k
from croupier.blackjack.math._exact_graphs import dealer_graph, player_graph
from croupier.blackjack.math._exact_kernel import hand_values
from croupier.blackjack.math.analysis import ACTIONS, OUTCOMES, Analysis, dealer_outcomes
from croupier.blackjack.math.simulate import kernel_params, wager_for
from croupier.blackjack.math.strategy import UP_CARDS, StrategyChart
from croupier.blackjack.rules import (
    NZ,
    BlackjackRules,
    DealerBlackjackTakes,
    DoubleOn,
    HoleCard,
    PairsBy,
    Surrender,
    whole_number,
)
from croupier.errors import CroupierError
from croupier.par import _bj_kernel as pk
from croupier.par.sheet import (
    EXACT,
    EXACT_OVER_SIMULATED,
    SIMULATED,
    Z95,
    Bars,
    Estimate,
    Series,
    Sheet,
    Table,
    mean_interval,
    proportion,
)

__all__ = [
    "DEALT",
    "STRATEGIES",
    "TASK_ROUNDS",
    "BlackjackPar",
    "StrategyResult",
    "blackjack_par",
    "cd_tables",
    "exact_frequencies",
    "rules_summary",
]

STRATEGIES = ("basic", "optimal")
"""The strategies a sheet can show: the derived basic strategy, optimal play."""

DEALT = {"top": "off the top", "shoe": "through the shoe to the cut card"}
"""How the simulated rounds are dealt."""

TASK_ROUNDS = 500_000
"""Rounds per task (one seed each, whatever the number of workers)."""

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

_NET_SPAN = 2 * k.MAX_HANDS + 2  # wagers either side: every hand doubled and won, insurance
_INFINITE_PROBS = np.array([0.0, *(1 / 13,) * 9, 4 / 13])


# ------------------------------------------------------------------------ exact figures
def exact_frequencies(counts: Sequence[int], *, insurance: bool = True) -> dict[str, Fraction]:
    """The frequencies a single box's round has whatever its play, off the top of a shoe
    of ``counts`` (aces, twos, ..., tens), as exact fractions:

    * ``player_blackjack``: the first two cards make a blackjack, 2·A·T / (n(n-1));
    * ``dealer_blackjack``: the up card and the dealer's next card do. The next card comes
      after the box has drawn, but the share of tens (or aces) left is a martingale as
      cards are drawn, so by optional stopping its chance is the same as for any card:
      2·A·T / (n(n-1)). (Without a hole card the dealer draws no second card when every
      hand has busted; this is the chance the two cards *would* make one.)
    * ``both_blackjack``: both (a push), 4·A(A-1)·T(T-1) / (n(n-1)(n-2)(n-3));
    * ``insurance_offered`` (an ace up, when insurance is offered), ``insurance_wins``
      (the dealer's next card is a ten, given an ace up: T / (n-1), by the same
      argument) and ``insurance_ev``, the value of insuring one unit: 3·T/(n-1) - 1.

    >>> f = exact_frequencies((24,) * 9 + (96,))          # six decks
    >>> f["player_blackjack"], f["insurance_wins"], f["insurance_ev"]   # 2·24·96 / (312·311)
    (Fraction(192, 4043), Fraction(96, 311), Fraction(-23, 311))
    """
    if len(counts) != 10 or any(c < 0 for c in counts) or sum(counts) < 4:
        raise CroupierError("counts are ten non-negative numbers (aces ... tens), 4 cards or more")
    aces, tens, n = counts[0], counts[9], sum(counts)
    out = {
        "player_blackjack": Fraction(2 * aces * tens, n * (n - 1)),
        "dealer_blackjack": Fraction(2 * aces * tens, n * (n - 1)),
        "both_blackjack": Fraction(
            4 * aces * (aces - 1) * tens * (tens - 1), n * (n - 1) * (n - 2) * (n - 3)
        ),
    }
    if insurance:
        wins = Fraction(tens, n - 1)
        out["insurance_offered"] = Fraction(aces, n)
        out["insurance_wins"] = wins
        out["insurance_ev"] = 2 * wins - (1 - wins)
    return out


def cd_tables(analysis: Analysis) -> tuple[FloatArray, BoolArray]:
    """The tables of optimal (composition-dependent) play for the simulator:
    ``opts[up, a, b, i]``, the exact EV of each first decision (:data:`ACTIONS` order; -inf
    where not allowed), and ``hit[up, node]``, whether hitting beats standing for the
    player-graph node (a multiset of cards) against ``up``, off the top, as
    :meth:`Analysis.hand` values it (the same kernel, every node at once).

    >>> a = Analysis(NZ)
    >>> opts, hit = cd_tables(a)
    >>> g = player_graph()
    >>> bool(hit[10, g.two[10, 6]]), bool(hit[10, g.next[g.two[10, 2], 4]])   # 16 v T
    (True, False)
    """
    if analysis.infinite:
        raise CroupierError("optimal play is simulated from a real shoe: give a number of decks")
    rules = analysis.rules
    opts = np.full((11, 11, 11, 5), -np.inf)
    for up in range(1, 11):
        for a in range(1, 11):
            for b in range(1, 11):
                for name, ev in analysis.options(a, b, up).items():
                    opts[up, a, b, ACTIONS.index(name)] = ev
    g = player_graph()
    shoe = analysis.shoe
    assert shoe is not None
    comp = np.array([0.0, *shoe], np.float64)
    peek = rules.hole_card is HoleCard.PEEK
    extra = 1.0 if rules.dealer_blackjack_takes_doubles is DealerBlackjackTakes.ALL else 0.0
    hit = np.zeros((11, len(g.hard)), np.bool_)
    for up in range(1, 11):
        if comp[up] < 1:
            continue
        d = dealer_graph(up, rules.dealer_hits_soft_17)
        sv, hitv = np.zeros(len(g.hard)), np.zeros(len(g.hard))
        hand_values(
            comp, False, _INFINITE_PROBS, up, g.counts, g.total, g.soft, g.cards, g.next,
            g.order, d.counts, d.drawn, d.trans, peek, extra, 0,
            np.zeros((3, 22, 11), np.int8), sv, hitv,
        )  # fmt: skip
        hit[up] = hitv > sv
    return opts, hit


# ------------------------------------------------------------------------ simulation
def _task(
    args: tuple[int, int, IntArray, npt.NDArray[np.int8], int, int, FloatArray, BoolArray, bool],
) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray]:
    """Play one task's rounds in this process (a worker's job)."""
    seed, rounds, params, chart, wager, mode, opts, hit, top = args
    g = player_graph()
    stats = np.zeros(k.N_STATS, np.int64)
    nets = np.zeros(2 * _NET_SPAN * wager + 1, np.int64)
    wagered = np.zeros((2 * k.MAX_HANDS + 1) * wager + 1, np.int64)
    busts = np.zeros(k.MAX_HANDS + 1, np.int64)
    moments = np.zeros(2, np.int64)
    pk.run_par(seed, rounds, params, chart, wager, mode, opts, hit, g.one, g.next, top,
               stats, nets, wagered, busts, moments)  # fmt: skip
    return stats, nets, wagered, busts, moments


@dataclass(frozen=True)
class StrategyResult:
    """One strategy's column of the sheet: the exact expectation and what the simulated
    rounds measured (chips of a flat ``wager``; figures per initial unit).

    >>> par = blackjack_par(NZ.with_(decks=1), rounds=5_000, seed=2, strategies=("basic",))
    >>> r = par.results["basic"]
    >>> r.rounds, sum(r.nets.values()), r.push_frequency.source
    (5000, 5000, 'simulated')
    """

    strategy: str
    """``basic`` or ``optimal``."""
    exact_ev: float
    """The exact expectation per initial unit, off the top."""
    wager: int
    """The flat wager in chips (:func:`~croupier.blackjack.math.simulate.wager_for`)."""
    rounds: int
    """Rounds simulated."""
    nets: dict[int, int]
    """Rounds by net result in chips."""
    wagered: dict[int, int]
    """Rounds by chips wagered (the initial wager, splits and doubles)."""
    busts: dict[int, int]
    """Rounds by player hands busted."""
    counts: dict[str, int]
    """The simulator's counts (blackjacks, doubles, splits, dealer busts, hands ...)."""
    squares: dict[str, int]
    """Sums of squares of each round's doubles and splits."""
    seconds: float
    """Wall time of the simulation."""

    # ---------------------------------------------------------------- exact
    @property
    def house_edge(self) -> Estimate:
        """The house edge per initial unit (exact analysis, off the top)."""
        return Estimate(-self.exact_ev, source=EXACT)

    # ---------------------------------------------------------------- simulated
    def _net_moments(self) -> tuple[Fraction, Fraction, float]:
        n = self.rounds
        mean = Fraction(sum(v * c for v, c in self.nets.items()), n)
        var = Fraction(sum(v * v * c for v, c in self.nets.items()), n) - mean * mean
        m = float(mean)
        m4 = sum((v - m) ** 4 * c for v, c in self.nets.items()) / n
        return mean, var, m4

    @property
    def simulated_ev(self) -> Estimate:
        """The simulated mean result per round per initial unit (a check on the exact
        expectation when dealt off the top)."""
        total = sum(v * c for v, c in self.nets.items())
        squares = sum(v * v * c for v, c in self.nets.items())
        return mean_interval(
            Fraction(total, self.wager), Fraction(squares, self.wager**2), self.rounds
        )

    @property
    def standard_deviation(self) -> Estimate:
        """The standard deviation of a round's net result in initial units, with a 95 %
        interval from the variance's (fourth-moment) standard error."""
        _, var, m4 = self._net_moments()
        v = float(var)
        w2 = self.wager**2
        if self.rounds < 2:
            return Estimate(math.sqrt(v) / self.wager, math.nan, math.nan, SIMULATED)
        half = Z95 * math.sqrt(max(m4 - v * v, 0.0) / self.rounds)
        low, high = max(v - half, 0.0), v + half
        return Estimate(math.sqrt(v / w2), math.sqrt(low / w2), math.sqrt(high / w2), SIMULATED)

    @property
    def hit_frequency(self) -> Estimate:
        """The share of rounds the player wins (net result above nought)."""
        return proportion(sum(c for v, c in self.nets.items() if v > 0), self.rounds)

    @property
    def push_frequency(self) -> Estimate:
        """The share of rounds that end level (net nought, splits' results summed)."""
        return proportion(self.nets.get(0, 0), self.rounds)

    @property
    def loss_frequency(self) -> Estimate:
        """The share of rounds the player loses."""
        return proportion(sum(c for v, c in self.nets.items() if v < 0), self.rounds)

    @property
    def average_wager(self) -> Estimate:
        """The average total wagered a round in initial units: the wager, plus one for each
        split and each double."""
        w = self.wager
        total = Fraction(sum(v * c for v, c in self.wagered.items()), w)
        squares = Fraction(sum(v * v * c for v, c in self.wagered.items()), w * w)
        return mean_interval(total, squares, self.rounds)

    @property
    def element_of_risk(self) -> Estimate:
        """The house edge over the average total wager (exact / simulated)."""
        edge = -self.exact_ev
        wager = self.average_wager
        assert wager.low is not None
        assert wager.high is not None
        ends = sorted((edge / float(wager.high), edge / float(wager.low)))
        return Estimate(edge / float(wager.value), ends[0], ends[1], EXACT_OVER_SIMULATED)

    def per_round(self, name: str) -> Estimate:
        """A count per round with its 95 % interval: ``doubles``, ``splits`` or
        ``player_busts`` (hands busted; several after a split)."""
        if name == "player_busts":
            total = sum(b * c for b, c in self.busts.items())
            squares = sum(b * b * c for b, c in self.busts.items())
            return mean_interval(total, squares, self.rounds)
        if name in ("doubles", "splits"):
            return mean_interval(self.counts[name], self.squares[name], self.rounds)
        raise CroupierError(f"no per-round count named {name!r}: doubles, splits, player_busts")

    def share(self, name: str) -> Estimate:
        """A once-a-round event's share of rounds (``dealer_busts``, ``player_blackjack``,
        ``rounds_with_a_bust``)."""
        if name == "rounds_with_a_bust":
            return proportion(self.rounds - self.busts.get(0, 0), self.rounds)
        return proportion(self.counts[name], self.rounds)

    @property
    def distribution(self) -> list[tuple[Fraction, Estimate]]:
        """(net result in initial units, its share of rounds with a 95 % interval), from
        the worst result to the best."""
        return [
            (Fraction(v, self.wager), proportion(c, self.rounds))
            for v, c in sorted(self.nets.items())
        ]

    def to_json(self) -> dict[str, Any]:
        """This strategy's figures as strict-JSON-ready data.

        >>> par = blackjack_par(NZ.with_(decks=1), rounds=2_000, seed=3, strategies=("basic",))
        >>> sorted(par.results["basic"].to_json())[:3]
        ['average_wager', 'dealer_busts', 'distribution']
        """
        return {
            "house_edge": self.house_edge.to_json(),
            "simulated_ev": self.simulated_ev.to_json(),
            "standard_deviation": self.standard_deviation.to_json(),
            "element_of_risk": self.element_of_risk.to_json(),
            "average_wager": self.average_wager.to_json(),
            "hit_frequency": self.hit_frequency.to_json(),
            "push_frequency": self.push_frequency.to_json(),
            "loss_frequency": self.loss_frequency.to_json(),
            "doubles": self.per_round("doubles").to_json(),
            "splits": self.per_round("splits").to_json(),
            "player_busts": self.per_round("player_busts").to_json(),
            "rounds_with_a_bust": self.share("rounds_with_a_bust").to_json(),
            "dealer_busts": self.share("dealer_busts").to_json(),
            "player_blackjack_simulated": self.share("player_blackjack").to_json(),
            "distribution": [
                {
                    "net_units": _units_text(units),
                    "net_chips": int(units * self.wager),
                    "rounds": self.nets[int(units * self.wager)],
                    "share": share.to_json(),
                }
                for units, share in self.distribution
            ],
            "rounds": self.rounds,
            "seconds": self.seconds,
        }


def _units_text(units: Fraction) -> str:
    """A result in units as exact text: a terminating decimal, else ``p/q``."""
    den = units.denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    if den != 1:
        return f"{units.numerator}/{units.denominator}"
    digits = 0
    while (units * 10**digits).denominator != 1:
        digits += 1
    text = f"{float(units):.{digits}f}" if digits else str(int(units))
    return text if units <= 0 else "+" + text


# ------------------------------------------------------------------------ the sheet
@dataclass(frozen=True)
class BlackjackPar:
    """A blackjack PAR sheet's figures (:func:`blackjack_par` makes one).

    >>> par = blackjack_par(NZ.with_(decks=1), rounds=2_000, seed=4, strategies=("basic",))
    >>> par.sheet().tables[0].header
    ('Figure', 'Basic strategy', 'How found')
    """

    rules: BlackjackRules
    """The rule set."""
    dealt: str
    """``top`` or ``shoe`` (see :data:`DEALT`)."""
    seed: int
    """The run's seed (replay it with ``seed=``)."""
    results: dict[str, StrategyResult]
    """One column per strategy, by name."""
    frequencies: dict[str, Fraction]
    """:func:`exact_frequencies` of the shoe."""
    dealer: dict[int, dict[str, float]]
    """The dealer's final outcomes by up card, exact, only the up card seen."""
    up_chances: dict[int, Fraction]
    """The chance of each up card."""
    seconds: float = 0.0
    """Wall time, analysis and simulation."""
    workers: int = 1
    """Processes used."""
    chart: StrategyChart | None = field(default=None, repr=False, compare=False)
    """The basic strategy played."""

    def to_json(self) -> dict[str, Any]:
        """Everything as strict-JSON-ready data (money and results exact as text).

        >>> par = blackjack_par(NZ.with_(decks=1), rounds=2_000, seed=5, strategies=("basic",))
        >>> par.to_json()["game"]["player_blackjack"]["exact"]
        '32/663'
        """
        return {
            "sheet": "blackjack",
            "rules": _rule_fields(self.rules),
            "rules_summary": dict(rules_summary(self.rules)),
            "dealt": DEALT[self.dealt],
            "seed": self.seed,
            "rounds": {name: r.rounds for name, r in self.results.items()},
            "wager_chips": next(iter(self.results.values())).wager,
            "game": {name: Estimate(f).to_json() for name, f in self.frequencies.items()},
            "strategies": {name: r.to_json() for name, r in self.results.items()},
            "dealer": {
                _up_label(up): {
                    "chance": Estimate(self.up_chances[up]).to_json(),
                    **row,
                }
                for up, row in self.dealer.items()
            },
            "seconds": self.seconds,
            "workers": self.workers,
            "notes": list(_notes(self)),
        }

    def sheet(self) -> Sheet:
        """The sheet to render: facts, headline, distribution and dealer tables, charts.

        >>> par = blackjack_par(NZ.with_(decks=1), rounds=2_000, seed=6, strategies=("basic",))
        >>> [t.title for t in par.sheet().tables]
        ['Headline figures', 'Net result of a round', 'Dealer outcomes by up card (exact)']
        """
        names = list(self.results)
        cols = [_TITLES[n] for n in names]
        facts = [
            *rules_summary(self.rules),
            ("Rounds dealt", DEALT[self.dealt]),
            (
                "Rounds simulated",
                ", ".join(f"{r.rounds:,} ({_TITLES[n].lower()})" for n, r in self.results.items()),
            ),
            ("Seed", str(self.seed)),
        ]
        return Sheet(
            title="Blackjack PAR sheet",
            facts=tuple(facts),
            tables=(self._headline(names, cols), self._distribution(names, cols), self._dealer()),
            charts=self._charts(names),
            notes=_notes(self),
            data=self.to_json(),
        )

    def _headline(self, names: list[str], cols: list[str]) -> Table:
        res = [self.results[n] for n in names]
        rows: list[tuple[str, ...]] = []

        def add(label: str, values: list[Estimate], *, percent: bool, digits: int) -> None:
            source = values[0].source
            rows.append(
                (label, *(v.describe(percent=percent, digits=digits) for v in values), source)
            )

        add("House edge", [r.house_edge for r in res], percent=True, digits=4)
        add("Player's mean result a round (check)", [r.simulated_ev for r in res],
            percent=True, digits=3)  # fmt: skip
        add("Standard deviation a round (units)", [r.standard_deviation for r in res],
            percent=False, digits=4)  # fmt: skip
        add("Average total wager a round (units)", [r.average_wager for r in res],
            percent=False, digits=4)  # fmt: skip
        add("Element of risk", [r.element_of_risk for r in res], percent=True, digits=4)
        add("Hit frequency (rounds won)", [r.hit_frequency for r in res], percent=True, digits=3)
        add("Push frequency (rounds level)", [r.push_frequency for r in res],
            percent=True, digits=3)  # fmt: skip
        add("Loss frequency (rounds lost)", [r.loss_frequency for r in res],
            percent=True, digits=3)  # fmt: skip
        add("Doubles a round", [r.per_round("doubles") for r in res], percent=False, digits=4)
        add("Splits a round", [r.per_round("splits") for r in res], percent=False, digits=4)
        add("Player hands busted a round", [r.per_round("player_busts") for r in res],
            percent=False, digits=4)  # fmt: skip
        add("Rounds with a player bust", [r.share("rounds_with_a_bust") for r in res],
            percent=True, digits=3)  # fmt: skip
        add("Dealer busts (share of rounds)", [r.share("dealer_busts") for r in res],
            percent=True, digits=3)  # fmt: skip
        labels = {
            "player_blackjack": "Player blackjack",
            "dealer_blackjack": "Dealer blackjack (up card and next card)",
            "both_blackjack": "Both blackjack (a push)",
            "insurance_offered": "Insurance offered (ace up)",
            "insurance_wins": "Insurance wins, when taken",
            "insurance_ev": "Insurance: player's expectation a unit insured",
        }
        for key, label in labels.items():
            if key in self.frequencies:
                add(label, [Estimate(self.frequencies[key])] * len(res), percent=True, digits=4)
        return Table(
            "Headline figures",
            ("Figure", *cols, "How found"),
            tuple(rows),
            (
                "Simulated figures show a 95 % interval in brackets; exact figures have none.",
                "Units are initial wagers; a round is one box's result, its split hands summed.",
            ),
        )

    def _distribution(self, names: list[str], cols: list[str]) -> Table:
        dists = {n: dict(self.results[n].distribution) for n in names}
        values = sorted(set().union(*(set(d) for d in dists.values())))
        rows = []
        for v in values:
            cells = []
            for n in names:
                e = dists[n].get(v)
                cells.append(e.describe(percent=True, digits=4) if e is not None else "-")
            rows.append((_units_text(v), *cells))
        return Table(
            "Net result of a round",
            ("Net result (units)", *cols),
            tuple(rows),
            (
                "Simulated: each share with its 95 % (Wilson) interval; the shares sum to "
                "100 % and their mean is the mean result above.",
            ),
        )

    def _dealer(self) -> Table:
        rows = []
        overall = dict.fromkeys(OUTCOMES, 0.0)
        for up in UP_CARDS:
            row = self.dealer[up]
            chance = self.up_chances[up]
            for o in OUTCOMES:
                overall[o] += float(chance) * row[o]
            rows.append((_up_label(up), _pct(chance), *(_pct(row[o]) for o in OUTCOMES)))
        rows.append(("all", _pct(1), *(_pct(overall[o]) for o in OUTCOMES)))
        return Table(
            "Dealer outcomes by up card (exact)",
            ("Up card", "Chance", *OUTCOMES),
            tuple(rows),
            (
                "Exact, off the top, only the up card seen, the dealer drawing to the end "
                "(the rounds above stop the dealer when every hand has busted).",
            ),
        )

    def _charts(self, names: list[str]) -> tuple[Bars, ...]:
        dists = {n: dict(self.results[n].distribution) for n in names}
        values = sorted(set().union(*(set(d) for d in dists.values())))
        series = []
        for n in names:
            d = dists[n]
            es = [d.get(v) for v in values]
            series.append(
                Series(
                    _TITLES[n],
                    tuple(float(e.value) if e else 0.0 for e in es),
                    tuple(float(e.low) if e and e.low is not None else 0.0 for e in es),
                    tuple(float(e.high) if e and e.high is not None else 0.0 for e in es),
                )
            )
        net = Bars(
            "Net result of a round",
            "net result (initial units)",
            "share of rounds",
            tuple(_units_text(v) for v in values),
            tuple(series),
            log=True,
            note="Simulated; bars show the 95 % interval. Logarithmic scale.",
        )
        dealer = Bars(
            "Dealer's final outcome by up card (exact)",
            "up card",
            "probability",
            tuple(_up_label(u) for u in UP_CARDS),
            tuple(Series(o, tuple(self.dealer[u][o] for u in UP_CARDS)) for o in OUTCOMES),
            stacked=True,
            note="Exact, off the top, only the up card seen.",
        )
        shares: dict[str, Callable[[StrategyResult], Estimate]] = {
            "rounds won": lambda r: r.hit_frequency,
            "rounds level": lambda r: r.push_frequency,
            "rounds lost": lambda r: r.loss_frequency,
            "a player bust": lambda r: r.share("rounds_with_a_bust"),
            "dealer busts": lambda r: r.share("dealer_busts"),
            "player blackjack": lambda r: r.share("player_blackjack"),
        }
        outcomes = Bars(
            "How rounds end",
            "",
            "share of rounds",
            tuple(shares),
            tuple(
                Series(
                    _TITLES[n],
                    *(
                        tuple(float(getattr(get(self.results[n]), end)) for get in shares.values())
                        for end in ("value", "low", "high")
                    ),
                )
                for n in names
            ),
            note="Simulated; bars show the 95 % interval. A round with a split can have "
            "a player bust and still be won.",
        )
        return (net, outcomes, dealer)


_TITLES = {"basic": "Basic strategy", "optimal": "Optimal play"}


def _pct(x: float | Fraction) -> str:
    return Estimate(x).describe(percent=True, digits=4)


def _up_label(up: int) -> str:
    return "A" if up == 1 else ("T" if up == 10 else str(up))


def _rule_fields(rules: BlackjackRules) -> dict[str, Any]:
    """Every setting by name, as JSON values (enums by value, fractions as ``p/q``)."""
    out: dict[str, Any] = {}
    for f in fields(rules):
        value = getattr(rules, f.name)
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, Fraction):
            value = f"{value.numerator}/{value.denominator}"
        out[f.name] = value
    return out


def rules_summary(rules: BlackjackRules) -> list[tuple[str, str]]:
    """The rule set as (setting, plain words) pairs for a sheet's header.

    >>> dict(rules_summary(NZ))["Dealer"]
    'stands on all 17s; no hole card (second card after the boxes play)'
    """
    takes = (
        "the original wager only"
        if rules.dealer_blackjack_takes_splits is DealerBlackjackTakes.ORIGINAL
        else "every stake"
    )
    takes_d = (
        "the original wager only"
        if rules.dealer_blackjack_takes_doubles is DealerBlackjackTakes.ORIGINAL
        else "every stake"
    )
    double = {
        DoubleOn.ANY: "any first two cards",
        DoubleOn.NINE_TO_ELEVEN: "hard 9 to 11",
        DoubleOn.TEN_ELEVEN: "hard 10 and 11",
    }[rules.double_on]
    aces = "aces resplit" if rules.resplit_aces else "aces split once"
    aces += ", drawing" if rules.hit_split_aces else ", one card each"
    pays = Fraction(rules.blackjack_pays)
    return [
        ("Shoe", f"{rules.decks} deck{'s' if rules.decks > 1 else ''} ({52 * rules.decks} cards)"),
        (
            "Dealer",
            ("hits soft 17" if rules.dealer_hits_soft_17 else "stands on all 17s")
            + "; "
            + (
                "peeks for blackjack"
                if rules.hole_card is HoleCard.PEEK
                else "no hole card (second card after the boxes play)"
            ),
        ),
        ("Dealer blackjack takes", f"from split hands {takes}; from doubled hands {takes_d}"),
        ("Doubling", double + ("; after a split too" if rules.double_after_split else "")),
        (
            "Splitting",
            f"up to {rules.max_hands} hands; pairs by "
            f"{'value' if rules.pairs_by is PairsBy.VALUE else 'rank'}; {aces}",
        ),
        ("Surrender", "late" if rules.surrender is Surrender.LATE else "none"),
        ("Blackjack pays", f"{pays.numerator}:{pays.denominator}"),
        ("Insurance", "offered, pays 2:1" if rules.insurance else "not offered"),
    ]


def _notes(par: BlackjackPar) -> tuple[str, ...]:
    dealt = par.dealt
    notes = [
        "House edge: the exact analysis (composition-dependent, a single box off the top), "
        "minus the player's expectation per initial wager. Split hands follow the analysis's "
        "standard approximation (each split hand from the shoe less the up card and both "
        "paired cards).",
        "Blackjack and insurance frequencies: exact fractions of the shoe. The dealer's next "
        "card is dealt after the box draws, but by optional stopping its chance of being a "
        "ten (or an ace) is that of any unseen card.",
        "Distribution, standard deviation, hit/push/loss frequencies, average wager, doubles, "
        "splits and busts: simulated by the compiled simulator (the referee's rules, one box, "
        "a flat wager, no insurance taken), each with a 95 % interval.",
        "Element of risk: the exact house edge divided by the simulated average total wager "
        "(the initial wager plus one for each split and each double).",
    ]
    if dealt == "top":
        notes.append(
            "Each simulated round is dealt off the top of a freshly shuffled full shoe, as the "
            "exact analysis values it, so the simulated mean result agrees with the exact house "
            "edge within its interval."
        )
    else:
        notes.append(
            "The simulated rounds are dealt through the shoe to the cut card (the cut-card "
            "effect makes the game slightly worse for the player than off the top); the exact "
            "figures are off the top."
        )
    if "optimal" in par.results:
        notes.append(
            "Optimal play: the exact analysis's composition-dependent decisions. The simulator "
            "plays a two-card hand's best option for its two cards against the up card and "
            "hits or stands later as the exact values of the hand's cards say; split hands use "
            "the same tables (the analysis values them slightly differently, by far less than "
            "the simulation's interval)."
        )
    return tuple(notes)


def blackjack_par(
    rules: BlackjackRules = NZ,
    *,
    rounds: int = 10_000_000,
    strategies: Sequence[str] = STRATEGIES,
    dealt: str = "top",
    seed: int | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> BlackjackPar:
    """Work out a blackjack PAR sheet: the exact figures and ``rounds`` simulated rounds
    for each of ``strategies`` (``basic``, ``optimal``), dealt ``top`` (off the top, the
    default) or ``shoe`` (through the shoe to the cut card). A seed gives the same sheet
    with any ``workers``; ``progress`` is called with the rounds finished.

    >>> blackjack_par(NZ, rounds=10, strategies=("perfect",))
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: strategies are basic and optimal, not 'perfect'
    """
    if not isinstance(rules, BlackjackRules):
        raise CroupierError(f"rules must be a BlackjackRules, not {type(rules).__name__}")
    rounds = whole_number("rounds", rounds)
    if rounds < 1:
        raise CroupierError(f"rounds must be at least 1, not {rounds}")
    workers = whole_number("workers", workers)
    if workers < 1:
        raise CroupierError(f"workers must be at least 1, not {workers}")
    if isinstance(strategies, str):
        strategies = (strategies,)
    for s in strategies:
        if s not in STRATEGIES:
            raise CroupierError(f"strategies are basic and optimal, not {s!r}")
    chosen = [s for s in STRATEGIES if s in strategies]
    if not chosen:
        raise CroupierError("give at least one strategy: basic or optimal")
    if dealt not in DEALT:
        raise CroupierError(f"dealt is 'top' or 'shoe', not {dealt!r}")
    if seed is not None:
        seed = whole_number("seed", seed)
        if seed < 0:
            raise CroupierError(f"seed must be a whole number from 0, not {seed}")
    if progress is not None and not callable(progress):
        raise CroupierError("progress must be a function of the rounds finished, or None")
    rules.validate()
    if dealt == "shoe":
        rules.validate_cut_card()
    params = kernel_params(rules)
    start = time.perf_counter()
    analysis = Analysis(rules)
    chart = analysis.basic_strategy()
    shoe = analysis.shoe
    assert shoe is not None
    seed = secrets.randbits(63) if seed is None else seed
    wager = wager_for(rules)
    empty_opts = np.full((11, 11, 11, 5), -np.inf)
    empty_hit = np.zeros((11, len(player_graph().hard)), np.bool_)
    streams = dict(
        zip(STRATEGIES, np.random.SeedSequence(seed).spawn(len(STRATEGIES)), strict=True)
    )
    n_tasks = math.ceil(rounds / TASK_ROUNDS)
    sizes = [min(TASK_ROUNDS, rounds - i * TASK_ROUNDS) for i in range(n_tasks)]
    jobs: list[_Job] = []
    exact: dict[str, float] = {}
    for name in chosen:
        if name == "basic":
            exact[name] = analysis.expectation(chart)
            mode, opts, hit = 0, empty_opts, empty_hit
        else:
            exact[name] = analysis.expectation()
            opts, hit = cd_tables(analysis)
            mode = 1
        seeds = [int(s.generate_state(1, np.uint64)[0]) >> 1 for s in streams[name].spawn(n_tasks)]
        jobs += [
            (s, n, params, chart.cells, wager, mode, opts, hit, dealt == "top")
            for s, n in zip(seeds, sizes, strict=True)
        ]
    parts, marks = _run(jobs, workers, progress)  # one pool for every strategy
    results: dict[str, StrategyResult] = {}
    for i, name in enumerate(chosen):
        mine = parts[i * n_tasks : (i + 1) * n_tasks]
        seconds = marks[(i + 1) * n_tasks - 1] - (marks[i * n_tasks - 1] if i else 0.0)
        results[name] = _combine(name, exact[name], wager, rounds, mine, seconds)
    up_chances = {up: Fraction(shoe[up - 1], sum(shoe)) for up in UP_CARDS}
    dealer = {
        up: dealer_outcomes(up, hits_soft_17=rules.dealer_hits_soft_17, shoe=shoe)
        for up in UP_CARDS
    }
    return BlackjackPar(
        rules,
        dealt,
        seed,
        results,
        exact_frequencies(shoe, insurance=rules.insurance),
        dealer,
        up_chances,
        seconds=time.perf_counter() - start,
        workers=workers,
        chart=chart,
    )


_Part = tuple[IntArray, IntArray, IntArray, IntArray, IntArray]
_Job = tuple[int, int, IntArray, npt.NDArray[np.int8], int, int, FloatArray, BoolArray, bool]


def _run(
    jobs: list[_Job], workers: int, progress: Callable[[int], None] | None
) -> tuple[list[_Part], list[float]]:
    """Every job's result, in order, and the seconds since the start when each came in."""
    parts: list[_Part] = []
    marks: list[float] = []
    start = time.perf_counter()

    def add(job: _Job, part: _Part) -> None:
        parts.append(part)
        marks.append(time.perf_counter() - start)
        if progress:
            progress(job[1])

    if workers == 1 or len(jobs) == 1:
        for job in jobs:
            add(job, _task(job))
        return parts, marks
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        for job, part in zip(jobs, pool.map(_task, jobs), strict=True):
            add(job, part)
    return parts, marks


def _combine(
    name: str, exact: float, wager: int, rounds: int, parts: list[_Part], seconds: float
) -> StrategyResult:
    stats = sum((p[0] for p in parts), np.zeros(k.N_STATS, np.int64))
    nets = sum((p[1] for p in parts), np.zeros_like(parts[0][1]))
    wagered = sum((p[2] for p in parts), np.zeros_like(parts[0][2]))
    busts = sum((p[3] for p in parts), np.zeros_like(parts[0][3]))
    moments = sum((p[4] for p in parts), np.zeros(2, np.int64))
    offset = nets.shape[0] // 2
    counts = {
        "player_blackjack": int(stats[k.S_PLAYER_BJ]),
        "dealer_blackjack": int(stats[k.S_DEALER_BJ]),
        "doubles": int(stats[k.S_DOUBLES]),
        "splits": int(stats[k.S_SPLITS]),
        "player_busts": int(stats[k.S_BUSTS]),
        "dealer_busts": int(stats[k.S_DEALER_BUSTS]),
        "surrenders": int(stats[k.S_SURRENDERS]),
        "hands": int(stats[k.S_HANDS]),
        "shuffles": int(stats[k.S_SHUFFLES]),
        "net_chips": int(stats[k.S_NET]),
    }
    return StrategyResult(
        strategy=name,
        exact_ev=exact,
        wager=wager,
        rounds=rounds,
        nets={int(i) - offset: int(c) for i, c in enumerate(nets) if c},
        wagered={int(i): int(c) for i, c in enumerate(wagered) if c},
        busts={int(i): int(c) for i, c in enumerate(busts) if c},
        counts=counts,
        squares={"doubles": int(moments[0]), "splits": int(moments[1])},
        seconds=seconds,
    )
