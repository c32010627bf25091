"""Blackjack simulation: a compiled kernel that plays the referee's rules with a strategy chart.

The kernel (:mod:`croupier.blackjack.math._sim_kernel`) deals from a shuffled shoe, burns
the first card of each shoe, reshuffles once the cut card is out, and plays one box with a
flat wager exactly as :class:`~croupier.blackjack.round.BlackjackRound` would, the player
following a :class:`~croupier.blackjack.math.strategy.StrategyChart` (the derived basic
strategy by default). :func:`referee_play_shoe` plays the same shoe through the referee itself; the
test suite checks both agree round by round.

Work is cut into tasks of at most 250,000 rounds, each with its own seed spawned from the
run's seed, so a seeded run gives the same result with any number of ``workers``.

>>> result = simulate(NZ, rounds=20_000, seed=7)
>>> result.rounds, abs(result.ev) < 5 * result.se + 0.01
(20000, True)
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from multiprocessing import get_context
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.blackjack.math import _sim_kernel as k
from croupier.blackjack.math._policy import (
    DOUBLE_ON_CODES,
)
from croupier.blackjack.math.analysis import Analysis
from croupier.blackjack.math.strategy import StrategyChart
from croupier.blackjack.policies import BasicStrategy
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import (
    NZ,
    BlackjackRules,
    DealerBlackjackTakes,
    HoleCard,
    PairsBy,
    Surrender,
    whole_number,
)
from croupier.cards.card import Card
from croupier.cards.deck import Shoe
from croupier.errors import CroupierError

__all__ = [
    "TASK_ROUNDS",
    "SimulationResult",
    "kernel_params",
    "referee_play_shoe",
    "simulate",
    "wager_for",
]

TASK_ROUNDS = 250_000
"""Rounds per task (one seed, fresh shoe)."""

TASK_COST_SECONDS = 0.094
"""A task's cost on the reference core (one core of a 2-vCPU x86-64 cloud machine; six
decks, NZ rules, basic strategy): it sizes Ray tasks only, about two seconds' worth of
tasks each (:func:`croupier.distributed.chunks_per_task`)."""

_CHECKPOINTS = 16
_FREQUENCIES = {
    "player_blackjack": k.S_PLAYER_BJ,
    "dealer_blackjack": k.S_DEALER_BJ,
    "doubles": k.S_DOUBLES,
    "splits": k.S_SPLITS,
    "player_busts": k.S_BUSTS,
    "dealer_busts": k.S_DEALER_BUSTS,
    "insurance_taken": k.S_INS_TAKEN,
    "insurance_won": k.S_INS_WON,
    "surrenders": k.S_SURRENDERS,
    "wins": k.S_WINS,
    "pushes": k.S_PUSHES,
    "losses": k.S_LOSSES,
}


def wager_for(rules: BlackjackRules) -> int:
    """The flat wager (in chip units) whose payouts are all whole chips: a blackjack's
    ``pays``, half for surrender and insurance.

    >>> wager_for(NZ), wager_for(NZ.with_(blackjack_pays=Fraction(6, 5)))
    (4, 10)
    """
    return 2 * Fraction(rules.blackjack_pays).denominator


def run_settings(rounds: object, workers: object, seed: object) -> tuple[int, int, int | None]:
    """A simulation's rounds and workers (whole numbers from 1) and seed (None or a whole
    number from 0), checked before any work starts; anything else is a one-line error.

    >>> run_settings(1000, 2, None)
    (1000, 2, None)
    >>> run_settings(10, 0, 1)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: workers must be at least 1, not 0
    """
    rounds = whole_number("rounds", rounds)
    if rounds < 1:
        raise CroupierError(f"rounds must be at least 1, not {rounds}")
    workers = whole_number("workers", workers)
    if workers < 1:
        raise CroupierError(f"workers must be at least 1, not {workers}")
    if seed is not None:
        seed = whole_number("seed", seed)
        if seed < 0:
            raise CroupierError(f"seed must be a whole number from 0, not {seed}")
    return rounds, workers, seed


def kernel_params(rules: BlackjackRules, *, insure: bool = False) -> npt.NDArray[np.int64]:
    """The kernel's integer view of a rule set (the engine's own object).

    >>> int(kernel_params(NZ)[k.P_MAX_HANDS]), int(kernel_params(NZ)[k.P_CUT])
    (3, 234)
    """
    rules.validate()
    if rules.max_hands > k.MAX_HANDS:
        raise CroupierError(
            f"the simulator plays at most {k.MAX_HANDS} hands a box, not {rules.max_hands}"
        )
    pays = Fraction(rules.blackjack_pays)
    cards = 52 * rules.decks
    p = np.zeros(k.N_PARAMS, np.int64)
    p[k.P_PEEK] = rules.hole_card is HoleCard.PEEK
    p[k.P_H17] = rules.dealer_hits_soft_17
    p[k.P_SPLITS_ALL] = rules.dealer_blackjack_takes_splits is DealerBlackjackTakes.ALL
    p[k.P_DOUBLES_ALL] = rules.dealer_blackjack_takes_doubles is DealerBlackjackTakes.ALL
    p[k.P_DOUBLE_ON] = DOUBLE_ON_CODES[rules.double_on]
    p[k.P_DAS] = rules.double_after_split
    p[k.P_MAX_HANDS] = rules.max_hands
    p[k.P_RSA] = rules.resplit_aces
    p[k.P_HSA] = rules.hit_split_aces
    p[k.P_SURRENDER] = rules.surrender is Surrender.LATE
    p[k.P_BY_RANK] = rules.pairs_by is PairsBy.RANK
    p[k.P_BJ_NUM] = pays.numerator
    p[k.P_BJ_DEN] = pays.denominator
    p[k.P_INSURANCE] = rules.insurance
    p[k.P_INSURE] = insure
    p[k.P_UNIT] = 1
    p[k.P_BURN] = rules.burn_on_new_shoe
    p[k.P_CUT] = int(rules.penetration * cards)
    p[k.P_CARDS] = cards
    return p


@dataclass(frozen=True)
class SimulationResult:
    """What a simulation measured. EVs are per initial unit (the flat wager).

    >>> r = simulate(NZ, rounds=5_000, seed=1)
    >>> sorted(r.frequencies)[:3], r.to_json()["rounds"]
    (['dealer_blackjack', 'dealer_busts', 'doubles'], 5000)
    """

    rules: BlackjackRules
    """The rule set played."""
    rounds: int
    """Rounds played."""
    seed: int
    """The run's seed (replay it with ``seed=``)."""
    ev: float
    """Mean result per round per initial unit."""
    se: float
    """Standard error of :attr:`ev`."""
    counts: dict[str, int]
    """Raw counts: blackjacks, doubles, splits, busts, insurance, outcomes, shuffles."""
    curve: list[tuple[int, float, float]]
    """(rounds so far, running EV, its standard error) at checkpoints."""
    seconds: float
    """Wall time of the play (compilation and process start-up included)."""
    workers: int = 1
    """Processes used (on Ray: the Ray tasks)."""
    strategy: StrategyChart | None = field(default=None, repr=False, compare=False)
    """The chart played."""

    @property
    def frequencies(self) -> dict[str, float]:
        """Each count per round (busts and doubles can exceed one a round after splits)."""
        return {name: self.counts[name] / self.rounds for name in _FREQUENCIES}

    @property
    def rounds_per_second(self) -> float:
        """Rounds per second of wall time."""
        return self.rounds / self.seconds if self.seconds > 0 else math.inf

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (strict JSON: a figure a run cannot define, such as the
        standard error of a single round, is None, never NaN or infinity).

        >>> simulate(NZ, rounds=1, seed=1).to_json()["se"] is None
        True
        """
        return {
            "rounds": self.rounds,
            "seed": self.seed,
            "ev": _finite(self.ev),
            "se": _finite(self.se),
            "house_edge": _finite(-self.ev),
            "frequencies": {name: _finite(f) for name, f in self.frequencies.items()},
            "counts": self.counts,
            "seconds": self.seconds,
            "rounds_per_second": _finite(self.rounds_per_second),
            "workers": self.workers,
        }


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _task(
    args: tuple[int, int, npt.NDArray[np.int64], npt.NDArray[np.int8], int],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    seed, rounds, params, chart, wager = args
    stats = np.zeros(k.N_STATS, np.int64)
    curve = np.zeros((_CHECKPOINTS, 3), np.int64)
    used = k.run_task(seed, rounds, params, chart, wager, _CHECKPOINTS, stats, curve)
    return stats, curve[:used]


def simulate(
    rules: BlackjackRules = NZ,
    rounds: int = 1_000_000,
    *,
    strategy: StrategyChart | None = None,
    seed: int | None = None,
    workers: int = 1,
    insure: bool = False,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
) -> SimulationResult:
    """Play ``rounds`` rounds of one box under ``rules`` with ``strategy`` (default: the
    basic strategy :meth:`Analysis.basic_strategy` derives for the rules' shoe).

    ``insure`` takes full insurance whenever offered (basic strategy never does);
    ``progress`` is called with the rounds finished after each task. ``rounds`` and
    ``workers`` are whole numbers from 1, ``seed`` a whole number from 0 (a negative seed
    is refused, not folded onto another). With ``ray`` (an address, see
    :mod:`croupier.distributed`) the same tasks run on a Ray cluster instead of
    ``workers`` processes (:attr:`SimulationResult.workers` is then the Ray tasks): a seed
    gives the same result.

    >>> simulate(NZ, rounds=0)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: rounds must be at least 1, not 0
    >>> simulate(NZ, rounds=10, seed=-1)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: seed must be a whole number from 0, not -1
    """
    if not isinstance(rules, BlackjackRules):
        raise CroupierError(f"rules must be a BlackjackRules, not {type(rules).__name__}")
    rounds, workers, seed = run_settings(rounds, workers, seed)
    if strategy is not None and not isinstance(strategy, StrategyChart):
        raise CroupierError(
            f"strategy must be a StrategyChart or None, not {type(strategy).__name__}"
        )
    if not isinstance(insure, bool):
        raise CroupierError(f"insure must be True or False, not {insure!r}")
    if progress is not None and not callable(progress):
        raise CroupierError("progress must be a function of the rounds finished, or None")
    rules.validate()
    rules.validate_cut_card()
    params = kernel_params(rules, insure=insure)
    chart = strategy if strategy is not None else Analysis(rules).basic_strategy()
    seed = secrets.randbits(63) if seed is None else seed
    wager = wager_for(rules)
    n_tasks = math.ceil(rounds / TASK_ROUNDS)
    seeds = [
        int(s.generate_state(1, np.uint64)[0]) >> 1
        for s in np.random.SeedSequence(seed).spawn(n_tasks)
    ]
    sizes = [min(TASK_ROUNDS, rounds - i * TASK_ROUNDS) for i in range(n_tasks)]
    jobs = [(s, n, params, chart.cells, wager) for s, n in zip(seeds, sizes, strict=True)]
    start = time.perf_counter()
    results: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]] = []
    if ray is not None:
        from croupier.distributed import chunks_per_task, run_chunks

        per_task = chunks_per_task(TASK_COST_SECONDS)
        results = run_chunks(
            _task, jobs, address=ray, per_task=per_task, sizes=sizes, progress=progress
        )
        workers = math.ceil(n_tasks / per_task)
    elif workers == 1 or n_tasks == 1:
        for job in jobs:
            results.append(_task(job))
            if progress:
                progress(job[1])
    else:
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
            for job, res in zip(jobs, pool.map(_task, jobs), strict=True):
                results.append(res)
                if progress:
                    progress(job[1])
    seconds = time.perf_counter() - start
    return _combine(rules, rounds, seed, wager, results, seconds, workers, chart)


def _combine(
    rules: BlackjackRules,
    rounds: int,
    seed: int,
    wager: int,
    results: Sequence[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]],
    seconds: float,
    workers: int,
    chart: StrategyChart,
) -> SimulationResult:
    stats = np.zeros(k.N_STATS, np.int64)
    curve: list[tuple[int, float, float]] = []
    for task_stats, task_curve in results:
        for n, s1, s2 in task_curve:
            total_n = int(stats[k.S_ROUNDS]) + int(n)
            total_s1 = int(stats[k.S_NET]) + int(s1)
            total_s2 = int(stats[k.S_NET2]) + int(s2)
            curve.append((total_n, *_mean_se(total_n, total_s1, total_s2, wager)))
        stats += task_stats
    ev, se = _mean_se(int(stats[k.S_ROUNDS]), int(stats[k.S_NET]), int(stats[k.S_NET2]), wager)
    counts = {name: int(stats[i]) for name, i in _FREQUENCIES.items()}
    counts["hands"] = int(stats[k.S_HANDS])
    counts["shuffles"] = int(stats[k.S_SHUFFLES])
    counts["net_chips"] = int(stats[k.S_NET])
    counts["wager_chips"] = wager
    return SimulationResult(
        rules, rounds, seed, ev, se, counts, curve, seconds, workers, strategy=chart
    )


def _mean_se(n: int, s1: int, s2: int, wager: int) -> tuple[float, float]:
    mean = Fraction(s1, n)
    var = Fraction(s2, n) - mean * mean
    se = math.sqrt(float(var) / n) if n > 1 else math.inf
    return float(mean) / wager, se / wager


# --------------------------------------------------------------------------- the referee
def referee_play_shoe(
    rules: BlackjackRules, cards: Sequence[Card], strategy: StrategyChart, *, insure: bool = False
) -> list[tuple[int, int]]:
    """Play a stacked shoe through :class:`BlackjackRound` with the chart, one box, the
    kernel's flat wager, until the cut card is out: ``(net chips, cards dealt)`` per round.
    The slow path the kernel is checked against.

    >>> import random
    >>> from croupier.cards.deck import full_deck
    >>> chart = Analysis(NZ).basic_strategy()
    >>> shoe = list(full_deck()) * 6
    >>> random.Random(3).shuffle(shoe)
    >>> rounds = referee_play_shoe(NZ, shoe, chart)
    >>> len(rounds) > 30, rounds[-1][1] >= 234
    (True, True)
    """
    wager = wager_for(rules)
    rules = rules.with_(chip_unit=1, table_minimum=1)  # the flat wager is in chip units
    shoe = Shoe(rules.decks, penetration=rules.penetration, cards=cards)
    out: list[tuple[int, int]] = []
    burn = rules.burn_on_new_shoe
    bank = 10**12
    player = BasicStrategy(strategy, rules, insure=insure)
    while not shoe.cut_card_reached:
        rnd = BlackjackRound(rules, shoe, {"p": bank}, burn=burn)
        burn = False
        rnd.place_wager(1, "p", wager)
        rnd.deal()
        while rnd.actor is not None:
            rnd.apply(player(rnd.view_for("p")))
        net = rnd.bankrolls["p"] - bank
        bank = rnd.bankrolls["p"]
        dealt = len(cards) - len(shoe)
        out.append((net, dealt))
    return out
