"""A card counter at the table: the compiled simulator plays a counting player, and the
figures a casino (or a counter) judges a game by.

The counter keeps a count of a :class:`~croupier.blackjack.math.counting.CountingSystem`
(the balanced-equivalent true count, the cards on the table counted, a burned card not),
bets by a :class:`BetRamp` on the true count before the round (floored to a whole count:
a ramp step at +3 bets from a true count of 3.0 on), plays the basic strategy with index
plays (:func:`counter_play`: the Illustrious 18 and Fab 4 of
:func:`~croupier.blackjack.math.indices.index_table` for the rules, or every decision's,
or the published Hi-Lo numbers, each index rounded to a whole count as a counter learns
it), takes insurance at its index, and may back-count (wong): sit down at a true count of
``wong_in`` or more, leave before a round below ``wong_out``. The casino may bar mid-shoe
entry: the counter then sits down only at a shoe's start.

The kernel (:func:`~croupier.blackjack.math._sim_kernel.run_counter`) plays the rounds
with the simulator's own round (:func:`~croupier.blackjack.math._sim_kernel.play_round_counted`,
the routine behind :func:`~croupier.blackjack.math.simulate.simulate`), one box; money is
in whole chips (a unit is :func:`~croupier.blackjack.math.simulate.wager_for` chips, so every
payout is whole). Work is cut into tasks of at most
:data:`~croupier.blackjack.math.simulate.TASK_ROUNDS` rounds, each with its own seed spawned
from the run's seed, so a seeded run gives the same result with any number of ``workers``.

The figures (per round played, in betting units; :class:`CounterResult`): win rate and
standard deviation per 100 rounds and per hour, :func:`score`, :func:`n0`,
:func:`desirability_index`, :func:`risk_of_ruin` (a bankroll for ever),
:func:`trip_risk_of_ruin` (a trip's bankroll over a trip's rounds) and its simulated
value, and the Kelly bet at each true count (:meth:`CounterResult.kelly_ramp`).

>>> from croupier.blackjack.rules import NZ
>>> counter = Counter(ramp=BetRamp.linear(1, 8), indices="published")
>>> result = simulate_counter(NZ, counter, rounds=20_000, seed=3)
>>> result.rounds, result.played, result.average_bet > 1
(20000, 20000, True)
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
from croupier.blackjack.math._policy import CODES
from croupier.blackjack.math.counting import CountingSystem, counting_system
from croupier.blackjack.rules import NZ, BlackjackRules, Surrender, whole_number
from croupier.errors import CroupierError

__all__ = [
    "DEFAULT_ROUNDS_PER_HOUR",
    "INDEX_SETS",
    "BetRamp",
    "Counter",
    "CounterPlay",
    "CounterResult",
    "TrueCountRow",
    "counter_play",
    "desirability_index",
    "n0",
    "risk_of_ruin",
    "score",
    "simulate_counter",
    "trip_risk_of_ruin",
]

DEFAULT_ROUNDS_PER_HOUR = 100
"""Rounds a counter plays an hour (a shoe game with a few players; heads-up is nearer 200,
a full table 60): the per-hour figures are the per-round ones times this."""

INDEX_SETS = ("i18", "all", "published", "none")
"""What ``Counter.indices`` may be: the Illustrious 18 (and the Fab 4 where surrender is
offered) worked out for the rules; every decision's index plays; the published Hi-Lo
indices (Hi-Lo only); or none (basic strategy, no insurance)."""

_LO = -20
"""The lowest true count with its own chart layer and ramp step (lower counts share it)."""
_LAYERS = 41
"""Layers from ``_LO``: true counts -20 to +20 (higher counts share the last)."""
_S, _H, _D, _DS, _P, _R, _RS = (CODES.index(c) for c in ("S", "H", "D", "Ds", "P", "R", "Rs"))
_KIND = {"hard": 0, "soft": 1, "pair": 2}
_NAME = {_S: "stand", _H: "hit", _D: "double", _DS: "double", _P: "split"}
_SURRENDER_FIRST = {_S: _RS, _H: _R}


def _whole_count(x: float) -> int:
    """A true count rounded to the nearest whole count, halves up (as a counter learns an
    index: +0.5 is +1)."""
    return math.floor(x + 0.5)


# ------------------------------------------------------------------ betting
@dataclass(frozen=True)
class BetRamp:
    """Bets in betting units by the true count before the round (floored to a whole count):
    ``steps`` are (true count, units), each step's units from its count up to the next
    step; below the first step, the ``minimum``. Every bet is within the spread
    ``minimum``-``maximum``.

    >>> ramp = BetRamp.linear(1, 12)
    >>> ramp.describe()
    '1-12: 1 unit at +1 or less, 3 at +2, 6 at +3, 9 at +4, 12 at +5 or more'
    >>> [ramp.units(tc) for tc in (-3, 1, 2, 4, 9)]
    [1, 1, 3, 9, 12]
    """

    minimum: int
    """The smallest bet (units)."""
    maximum: int
    """The largest bet (units)."""
    steps: tuple[tuple[int, int], ...] = ()
    """(true count, units) in rising true counts."""

    def __post_init__(self) -> None:
        for name in ("minimum", "maximum"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10_000:
                raise CroupierError(
                    f"the spread's {name} is a whole number of units from 1 to 10000, not {value!r}"
                )
        if self.minimum > self.maximum:
            raise CroupierError(
                f"the spread is MIN-MAX with MIN at most MAX, not {self.minimum}-{self.maximum}"
            )
        last = None
        for tc, units in self.steps:
            if last is not None and tc <= last:
                raise CroupierError("the ramp's true counts must rise from step to step")
            if not _LO < tc < _LO + _LAYERS:
                raise CroupierError(
                    f"a ramp step's true count is from {_LO + 1} to {_LO + _LAYERS - 1}, not {tc}"
                )
            if not self.minimum <= units <= self.maximum:
                raise CroupierError(
                    f"a bet of {units} units at {tc:+d} is outside the spread {self.minimum}-{self.maximum}"
                )
            last = tc

    @classmethod
    def linear(cls, minimum: int, maximum: int, *, start: int = 1, top: int = 5) -> BetRamp:
        """The minimum at a true count of ``start`` or less, rising in whole units in equal
        steps to the maximum at ``top`` (the default: the spread's top bet at +5).

        >>> BetRamp.linear(1, 4).steps
        ((2, 1), (3, 2), (4, 3), (5, 4))
        """
        if top <= start:
            raise CroupierError(
                f"the ramp's top count must be above its start, not {top} <= {start}"
            )
        span = top - start
        steps = tuple(
            (tc, minimum + (tc - start) * (maximum - minimum) // span)
            for tc in range(start + 1, top + 1)
        )
        return cls(minimum, maximum, steps)

    @classmethod
    def parse(cls, text: str, minimum: int, maximum: int) -> BetRamp:
        """A ramp written ``TC:UNITS,TC:UNITS,...`` within the spread.

        >>> BetRamp.parse("2:2, 3:4, 4:8, 5:12", 1, 12).units(3)
        4
        >>> BetRamp.parse("2:x", 1, 12)
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: write the ramp as TC:UNITS,TC:UNITS,... (e.g. 2:2,3:4,4:8), not '2:x'
        """
        steps = []
        try:
            for part in str(text).split(","):
                tc, units = part.split(":")
                steps.append((int(tc), int(units)))
        except ValueError:
            raise CroupierError(
                f"write the ramp as TC:UNITS,TC:UNITS,... (e.g. 2:2,3:4,4:8), not {text!r}"
            ) from None
        return cls(minimum, maximum, tuple(steps))

    def units(self, tc: int) -> int:
        """The bet (units) at a whole true count ``tc``."""
        out = self.minimum
        for step, units in self.steps:
            if tc >= step:
                out = units
        return out

    def array(self) -> npt.NDArray[np.int64]:
        """The bet at each kernel layer (true counts -20 to +20)."""
        return np.array([self.units(_LO + j) for j in range(_LAYERS)], np.int64)

    def describe(self) -> str:
        """The ramp on one line."""
        parts = []
        steps = [(tc, u) for tc, u in self.steps]
        first = steps[0][0] - 1 if steps else None
        head = f"{self.minimum} unit{'s' if self.minimum > 1 else ''}"
        if first is None:
            return f"{self.minimum}-{self.maximum}: {head} flat"
        parts.append(f"{head} at {first:+d} or less")
        for i, (tc, units) in enumerate(steps):
            more = " or more" if i == len(steps) - 1 else ""
            parts.append(f"{units} at {tc:+d}{more}")
        return f"{self.minimum}-{self.maximum}: " + ", ".join(parts)


# ------------------------------------------------------------------ the counter
@dataclass(frozen=True)
class Counter:
    """What the counter does: the count, the bets, the index plays, back-counting.

    >>> Counter().describe()
    'Hi-Lo, bets 1-12: 1 unit at +1 or less, 3 at +2, 6 at +3, 9 at +4, 12 at +5 or more, Illustrious 18 (and Fab 4), plays every round'
    >>> Counter(wong_in=1, wong_out=-1, mid_shoe_entry=False).describe().split("Fab 4), ")[-1]
    "enters at +1 or more (no mid-shoe entry: at a shoe's start only), leaves below -1"
    """

    system: CountingSystem = field(default_factory=lambda: counting_system("hi-lo"))
    """The counting system."""
    ramp: BetRamp = field(default_factory=lambda: BetRamp.linear(1, 12))
    """The bets."""
    indices: str = "i18"
    """Which index plays (:data:`INDEX_SETS`)."""
    wong_in: float | None = None
    """Sit down at a true count of this or more (None: at every shoe's start)."""
    wong_out: float | None = None
    """Leave before a round whose true count is below this (None: never)."""
    mid_shoe_entry: bool = True
    """Whether the casino lets a player join mid-shoe."""

    def __post_init__(self) -> None:
        if not isinstance(self.system, CountingSystem):
            raise CroupierError(
                f"system must be a CountingSystem, not {type(self.system).__name__}"
            )
        if not isinstance(self.ramp, BetRamp):
            raise CroupierError(f"ramp must be a BetRamp, not {type(self.ramp).__name__}")
        if self.indices not in INDEX_SETS:
            raise CroupierError(f"indices is one of {', '.join(INDEX_SETS)}, not {self.indices!r}")
        if self.indices == "published" and self.system.key != "hi-lo":
            raise CroupierError(
                f"the published indices are Hi-Lo's: use i18 or all for {self.system.name}"
            )
        for name in ("wong_in", "wong_out"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not -20 <= value <= 20
            ):
                raise CroupierError(f"{name} is a true count from -20 to +20, not {value!r}")
        if self.wong_in is not None and self.wong_out is not None and self.wong_in < self.wong_out:
            raise CroupierError(
                f"entering at {self.wong_in:+g} below the leaving count {self.wong_out:+g} "
                "would leave at once: enter at the leaving count or above"
            )
        if not isinstance(self.mid_shoe_entry, bool):
            raise CroupierError(
                f"mid_shoe_entry must be True or False, not {self.mid_shoe_entry!r}"
            )

    def describe(self) -> str:
        """The counter on one line."""
        names = {
            "i18": "Illustrious 18 (and Fab 4)",
            "all": "every decision's index plays",
            "published": "published Hi-Lo indices",
            "none": "basic strategy, no index plays",
        }
        if self.wong_in is None and self.wong_out is None:
            wong = "plays every round"
        else:
            parts = []
            if self.wong_in is not None:
                where = (
                    "" if self.mid_shoe_entry else " (no mid-shoe entry: at a shoe's start only)"
                )
                parts.append(f"enters at {self.wong_in:+g} or more{where}")
            if self.wong_out is not None:
                parts.append(f"leaves below {self.wong_out:+g}")
            wong = ", ".join(parts)
        return f"{self.system.name}, bets {self.ramp.describe()}, {names[self.indices]}, {wong}"


@dataclass(frozen=True)
class CounterPlay:
    """The counter's playing decisions as the kernel reads them: a chart for each whole
    true count from -20 to +20, and the insurance index.

    >>> play = counter_play(Counter(indices="published"))
    >>> play.charts.shape, play.insurance, play.deviations[1]
    ((41, 3, 22, 11), 3.0, '16 v T: stand at +0 or more (else hit)')
    """

    charts: npt.NDArray[np.int8] = field(repr=False)
    """``charts[tc + 20]``: the chart played at a whole true count ``tc``."""
    insurance: float | None
    """Insure at this true count or more (None: never; -inf: always)."""
    deviations: tuple[str, ...]
    """The index plays applied, one line each."""


def _plain(code: int) -> int:
    """A code without its surrender: what the hand does when it does not surrender."""
    return {_R: _H, _RS: _S}.get(code, code)


def _code(play: str, base: int, kind: str, row: int) -> int:
    """The chart code of ``play`` in a cell whose basic code is ``base``."""
    stands = _plain(base) in (_S, _DS) or (kind == "soft" and row >= 18)
    if play == "stand":
        return _S
    if play == "hit":
        return _H
    if play == "double":
        return _DS if stands else _D
    if play == "split":
        return _P
    if play == "surrender":
        return _RS if stands else _R
    raise CroupierError(f"no chart code for the play {play!r}")


def counter_play(
    counter: Counter,
    rules: BlackjackRules = NZ,
    *,
    progress: Callable[[int], None] | None = None,
) -> CounterPlay:
    """The counter's charts by true count (see :class:`CounterPlay`): the basic strategy
    derived for the rules' shoe, with the index plays of ``counter.indices`` applied (an
    index rounded to a whole count: a play at ``+i`` or more is made from a true count of
    ``i`` on). ``progress(1)`` after each exact analysis of a shoe (the index table's).

    >>> play = counter_play(Counter(indices="none"))
    >>> bool((play.charts == play.charts[20]).all()), play.insurance
    (True, None)
    """
    from croupier.blackjack.math._shoes import basic_chart
    from croupier.blackjack.math.analysis import shoe_counts

    if not isinstance(counter, Counter):
        raise CroupierError(f"counter must be a Counter, not {type(counter).__name__}")
    rules.validate()
    base = basic_chart(rules, shoe_counts(rules.decks)).cells
    charts = np.repeat(base[None, :, :, :], _LAYERS, axis=0).astype(np.int8)
    if counter.indices == "none":
        return CounterPlay(charts, None, ())
    surrender = rules.surrender is Surrender.LATE
    lines: list[str] = []

    def put(
        kind: str, row: int, up: int, play: str, otherwise: Sequence[str], tc: int, above: bool
    ) -> None:
        """Play ``play`` in one cell at ``tc`` or more (``above``; else at ``tc`` or less),
        the best of ``otherwise`` (the basic play if it is one) elsewhere."""
        cell = (_KIND[kind], row, up)
        basic = int(base[cell])
        basic_play = _NAME.get(_plain(basic), "hit")
        other_play = basic_play if basic_play in otherwise else otherwise[0]
        on = _code(play, basic, kind, row)
        off = _code(other_play, basic, kind, row)
        if basic in (_R, _RS) and play != "surrender":  # a surrender the index does not touch
            on, off = _SURRENDER_FIRST.get(on, on), _SURRENDER_FIRST.get(off, off)
        for j in range(_LAYERS):
            v = _LO + j
            charts[(j, *cell)] = on if (v >= tc if above else v + 1 <= tc) else off

    insurance: float | None = None
    if counter.indices == "published":
        from croupier.blackjack.math.indices import FAB_4, ILLUSTRIOUS_18

        for dev in (*ILLUSTRIOUS_18, *(FAB_4 if surrender else ())):
            if dev.decision is None:
                insurance = float(dev.published)
                lines.append(f"insurance: insure at {dev.published:+d} or more")
                continue
            d = dev.decision
            put(d.kind, d.row, d.up, dev.play, dev.otherwise, dev.published, True)
            lines.append(
                f"{dev.label}: {dev.play} at {dev.published:+d} or more (else {' or '.join(dev.otherwise)})"
            )
    else:
        from croupier.blackjack.math.indices import index_table
        from croupier.blackjack.math.removal import DECISIONS

        table = index_table(counter.system, rules, linear=False, progress=progress)
        for play in table.illustrious_18[:1]:
            if play.index is not None:
                insurance = float(_whole_count(play.index))
                lines.append(f"insurance: insure at {_whole_count(play.index):+d} or more")
            elif play.direction == "always":
                insurance = -math.inf
                lines.append("insurance: always")
        if counter.indices == "i18":
            named = {d.label: d for d in DECISIONS}
            for play in (*table.illustrious_18[1:], *(table.fab_4 if surrender else ())):
                if play.index is None or play.direction not in (">=", "<="):
                    continue
                d = named[play.label]
                tc = _whole_count(play.index)
                put(d.kind, d.row, d.up, play.play, play.otherwise, tc, play.direction == ">=")
                more = "or more" if play.direction == ">=" else "or less"
                lines.append(
                    f"{play.label}: {play.play} at {tc:+d} {more} (else {' or '.join(play.otherwise)})"
                )
        else:
            for d in DECISIONS:
                if d.label not in table.basic:
                    continue
                cell = (_KIND[d.kind], d.row, d.up)
                basic = int(base[cell])
                up = [(x, p) for x, p in table.changes[d.label] if x > 0]
                down = [(x, p) for x, p in table.changes[d.label] if x < 0]
                for j in range(_LAYERS):
                    v = _LO + j
                    play_now = table.basic[d.label]
                    for x, p in up if v >= 0 else down:
                        if (v >= 0 and v >= _whole_count(x)) or (
                            v < 0 and v + 1 <= _whole_count(x)
                        ):
                            play_now = p
                    if play_now == "surrender" and not surrender:
                        continue
                    charts[(j, *cell)] = _code(play_now, basic, d.kind, d.row)
                moves = ", ".join(
                    f"{p} at {_whole_count(tc):+d}" for tc, p in table.changes[d.label]
                )
                if moves:
                    lines.append(f"{d.label}: {table.basic[d.label]} at 0; {moves}")
    return CounterPlay(charts, insurance, tuple(lines))


# ------------------------------------------------------------------ figures
def score(mean: float, sd: float) -> float:
    """SCORE (Schlesinger): the win per 100 rounds, in money, of a 10,000 bankroll bet at
    full Kelly on this ramp (scaled): ``10,000 x 100 x mean² / sd²`` with the mean and
    standard deviation of a round (units), which is :func:`desirability_index` squared;
    0 without an edge (Kelly bets nothing).

    >>> round(score(0.02, 3.0), 4), round(desirability_index(0.02, 3.0) ** 2, 4)
    (44.4444, 44.4444)
    >>> score(-0.01, 1.1)
    0.0
    """
    if not sd > 0:
        return math.nan
    return 1e6 * (mean / sd) ** 2 if mean > 0 else 0.0


def desirability_index(mean: float, sd: float) -> float:
    """DI: ``1000 x mean / sd`` of a round (the square root of :func:`score`).

    >>> round(desirability_index(0.03, 3.0), 6)
    10.0
    """
    return 1000 * mean / sd if sd > 0 else math.nan


def n0(mean: float, sd: float) -> float:
    """N0: the rounds after which the expected win equals one standard deviation of the
    result, ``(sd / mean)²`` (= 1,000,000 / SCORE); infinite without an edge.

    >>> n0(0.02, 3.0)
    22500.0
    >>> n0(-0.01, 1.1)
    inf
    """
    return (sd / mean) ** 2 if mean > 0 else math.inf


def risk_of_ruin(mean: float, sd: float, bankroll: float) -> float:
    """The chance of ever losing ``bankroll`` (units), playing for ever rounds of this
    mean and standard deviation (the diffusion formula): ``exp(-2 mean B / sd²)``; 1
    without an edge.

    >>> round(risk_of_ruin(0.02, 3.0, 450), 4)   # a full-Kelly bankroll: exp(-2)
    0.1353
    >>> risk_of_ruin(-0.01, 1.1, 1000)
    1.0
    """
    if mean <= 0:
        return 1.0
    return math.exp(-2 * mean * bankroll / (sd * sd))


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def trip_risk_of_ruin(mean: float, sd: float, bankroll: float, rounds: float) -> float:
    """The chance of losing ``bankroll`` (units) at some point within ``rounds`` rounds
    (a trip), rounds of this mean and standard deviation (the first passage of a Brownian
    motion with drift ``m``, variance ``s²`` a round, below ``-B`` by ``n``):
    ``Φ((-B - m n)/(s √n)) + exp(-2 m B / s²) Φ((-B + m n)/(s √n))``.

    >>> round(trip_risk_of_ruin(0.0, 1.0, 100, 10_000), 4)   # no drift: 2 Φ(-1)
    0.3173
    >>> trip_risk_of_ruin(0.02, 3.0, 450, 10**12) == risk_of_ruin(0.02, 3.0, 450)
    True
    """
    if rounds <= 0 or bankroll <= 0 or sd <= 0:
        return 1.0 if bankroll <= 0 else 0.0
    root = sd * math.sqrt(rounds)
    first = _phi((-bankroll - mean * rounds) / root)
    exponent = -2 * mean * bankroll / (sd * sd)
    second_phi = _phi((-bankroll + mean * rounds) / root)
    if second_phi == 0.0:
        second = 0.0
    else:
        log_second = exponent + math.log(second_phi)
        second = math.exp(log_second) if log_second < 700 else math.inf
    return min(1.0, first + second)


@dataclass(frozen=True)
class TrueCountRow:
    """What the run saw at one whole true count (before the round, the betting count):
    rounds, the result of a one-unit bet there, and the rounds the counter bet.

    >>> row = TrueCountRow(2, 1000, 12.5, 1400.0, 800)
    >>> row.edge, round(row.variance, 5)
    (0.0125, 1.39984)
    """

    true_count: int
    """The whole true count (the lowest and highest rows gather the counts beyond)."""
    rounds: int
    """Rounds dealt at this count."""
    net: float
    """Their total result for a one-unit bet (units)."""
    net2: float
    """The total of its square."""
    played: int
    """Rounds the counter bet on."""
    played_net: float = 0.0
    """Their total result for a one-unit bet (units)."""
    played_net2: float = 0.0
    """The total of its square."""

    @property
    def edge(self) -> float:
        """The mean result of a one-unit bet (the counter's edge here)."""
        return self.net / self.rounds if self.rounds else math.nan

    @property
    def variance(self) -> float:
        """The variance of a one-unit bet's result."""
        if self.rounds < 2:
            return math.nan
        mean = self.net / self.rounds
        return self.net2 / self.rounds - mean * mean


@dataclass(frozen=True)
class CounterResult:
    """What a counter's run measured: results per round the counter played, in betting
    units (the ramp's units; one unit is ``unit_chips`` chips).

    >>> from croupier.blackjack.rules import NZ
    >>> r = simulate_counter(NZ, Counter(indices="none", ramp=BetRamp(1, 1)), rounds=5_000, seed=1)
    >>> r.average_bet, sorted(r.to_json())[:3]
    (1.0, ['average_bet', 'bankroll', 'counter'])
    """

    rules: BlackjackRules
    """The rule set (its penetration places the cut card)."""
    counter: Counter
    """The counter."""
    rounds: int
    """Rounds dealt."""
    seed: int
    """The run's seed."""
    played: int
    """Rounds the counter bet on."""
    net_chips: int
    """The counter's total result (chips)."""
    net2_chips: int
    """The total of each round's result squared (chips²)."""
    wagered_chips: int
    """The counter's initial bets, in total (chips)."""
    unit_chips: int
    """Chips in a betting unit."""
    shoes: int
    """Shoes dealt."""
    table: tuple[TrueCountRow, ...]
    """By whole true count before the round (-20 to +20)."""
    insurance: float | None
    """The insurance index played."""
    deviations: tuple[str, ...]
    """The index plays applied."""
    rounds_per_hour: float = DEFAULT_ROUNDS_PER_HOUR
    """Rounds the counter plays an hour."""
    bankroll: int = 1000
    """The bankroll (units) for the risk of ruin and the Kelly bets."""
    trip_bankroll: int = 200
    """A trip's bankroll (units)."""
    trip_hours: float = 8
    """A trip's hours of play."""
    trips: int = 0
    """Trips simulated (whole trips within the run's tasks)."""
    trips_ruined: int = 0
    """Of them, those whose running result reached minus the trip's bankroll."""
    seconds: float = 0.0
    """Wall time of the play."""
    workers: int = 1
    """Processes used."""

    # ---- per round
    @property
    def mean(self) -> float:
        """The mean result of a round played (units)."""
        return self.net_chips / self.played / self.unit_chips if self.played else math.nan

    @property
    def sd(self) -> float:
        """The standard deviation of a round played's result (units)."""
        if self.played < 2:
            return math.nan
        mean = Fraction(self.net_chips, self.played)
        var = Fraction(self.net2_chips, self.played) - mean * mean
        return math.sqrt(float(var)) / self.unit_chips

    @property
    def se(self) -> float:
        """The standard error of :attr:`mean`."""
        return self.sd / math.sqrt(self.played) if self.played > 1 else math.nan

    @property
    def average_bet(self) -> float:
        """The mean initial bet (units)."""
        return self.wagered_chips / self.played / self.unit_chips if self.played else math.nan

    @property
    def edge(self) -> float:
        """The result per unit bet (the counter's edge over the money bet)."""
        return self.net_chips / self.wagered_chips if self.wagered_chips else math.nan

    @property
    def share_played(self) -> float:
        """The share of the rounds dealt that the counter bet on."""
        return self.played / self.rounds

    # ---- per 100 rounds and per hour
    @property
    def win_rate_100(self) -> float:
        """Win rate per 100 rounds played (units)."""
        return 100 * self.mean

    @property
    def sd_100(self) -> float:
        """Standard deviation per 100 rounds played (units): 10 sd."""
        return 10 * self.sd

    @property
    def win_per_hour(self) -> float:
        """Win rate per hour (units): mean x rounds an hour."""
        return self.mean * self.rounds_per_hour

    @property
    def sd_per_hour(self) -> float:
        """Standard deviation per hour (units): sd x √(rounds an hour)."""
        return self.sd * math.sqrt(self.rounds_per_hour)

    @property
    def score(self) -> float:
        """:func:`score` of the run."""
        return score(self.mean, self.sd)

    @property
    def n0(self) -> float:
        """:func:`n0` of the run (rounds)."""
        return n0(self.mean, self.sd)

    @property
    def desirability_index(self) -> float:
        """:func:`desirability_index` of the run."""
        return desirability_index(self.mean, self.sd)

    @property
    def risk_of_ruin(self) -> float:
        """:func:`risk_of_ruin` with :attr:`bankroll`."""
        return risk_of_ruin(self.mean, self.sd, self.bankroll)

    @property
    def trip_rounds(self) -> int:
        """Rounds played in a trip."""
        return max(1, round(self.trip_hours * self.rounds_per_hour))

    @property
    def trip_risk_of_ruin(self) -> float:
        """:func:`trip_risk_of_ruin` with :attr:`trip_bankroll` over :attr:`trip_rounds`."""
        return trip_risk_of_ruin(self.mean, self.sd, self.trip_bankroll, self.trip_rounds)

    @property
    def simulated_trip_risk_of_ruin(self) -> tuple[float, float] | None:
        """The share of the run's trips (consecutive stretches of :attr:`trip_rounds`
        rounds played) ruined, and its standard error; None with fewer than 20 trips."""
        if self.trips < 20:
            return None
        p = self.trips_ruined / self.trips
        return p, math.sqrt(max(p * (1 - p), 1 / self.trips) / self.trips)

    def kelly_ramp(self, bankroll: int | None = None) -> list[tuple[int, float, float, int]]:
        """The Kelly bet at each whole true count the run saw 1,000 times or more:
        ``(true count, edge, bankroll x edge / variance, that in whole units within the
        spread)``, the edge fitted as a straight line in the true count (least squares
        over the counts from -10 to +10 seen 1,000 times, weighted by their rounds: the
        raw edges of the rarer counts are noisy) and the variance the count's own. Where
        the edge is negative the Kelly bet is 0, and the spread's minimum (or sitting out)
        is what a counter does.

        >>> from croupier.blackjack.rules import NZ
        >>> r = simulate_counter(NZ, Counter(indices="none"), rounds=200_000, seed=5)
        >>> [(tc, units) for tc, _edge, _kelly, units in r.kelly_ramp()][-7:]
        [(0, 1), (1, 2), (2, 5), (3, 7), (4, 9), (5, 12), (6, 12)]
        """
        bank = self.bankroll if bankroll is None else bankroll
        ramp = self.counter.ramp
        rows = [r for r in self.table if r.rounds >= 1000 and r.variance > 0]
        fit = [r for r in rows if -10 <= r.true_count <= 10]
        if len(fit) < 2:
            return []
        w = np.array([r.rounds for r in fit], np.float64)
        x = np.array([r.true_count + 0.5 for r in fit], np.float64)  # the middle of [tc, tc+1)
        y = np.array([r.edge for r in fit], np.float64)
        mx, my = float((w * x).sum() / w.sum()), float((w * y).sum() / w.sum())
        slope = float((w * (x - mx) * (y - my)).sum() / (w * (x - mx) ** 2).sum())
        out = []
        for row in rows:
            edge = my + slope * (row.true_count + 0.5 - mx)
            kelly = max(0.0, bank * edge / row.variance)
            units = min(ramp.maximum, max(ramp.minimum, math.floor(kelly + 0.5)))
            out.append((row.true_count, edge, kelly, units))
        return out

    def ramp_value(self, ramp: BetRamp) -> tuple[float, float]:
        """The mean and standard deviation of a round (units) had the counter bet
        ``ramp`` on the rounds it played: from the run's results at each true count (every
        payout is linear in the bet, and the play does not depend on it).

        >>> from croupier.blackjack.rules import NZ
        >>> r = simulate_counter(NZ, Counter(indices="none"), rounds=5_000, seed=2)
        >>> mean, sd = r.ramp_value(r.counter.ramp)
        >>> abs(mean - r.mean) < 1e-9, abs(sd - r.sd) < 1e-9
        (True, True)
        """
        played = sum(row.played for row in self.table)
        if played == 0:
            return math.nan, math.nan
        m1 = m2 = 0.0
        for row in self.table:
            if row.played == 0:
                continue
            u = ramp.units(row.true_count)
            m1 += u * row.played_net / played
            m2 += u * u * row.played_net2 / played
        return m1, math.sqrt(max(0.0, m2 - m1 * m1))

    def to_json(self) -> dict[str, Any]:
        """The figures, JSON-ready (strict: an undefined figure is None)."""
        sim = self.simulated_trip_risk_of_ruin
        return {
            "counter": self.counter.describe(),
            "system": self.counter.system.key,
            "spread": [self.counter.ramp.minimum, self.counter.ramp.maximum],
            "ramp": [list(s) for s in self.counter.ramp.steps],
            "indices": self.counter.indices,
            "deviations": list(self.deviations),
            "insurance_index": self.insurance,
            "decks": self.rules.decks,
            "penetration": float(self.rules.penetration),
            "cut_card": int(self.rules.penetration * 52 * self.rules.decks),
            "rounds": self.rounds,
            "rounds_played": self.played,
            "share_played": self.share_played,
            "seed": self.seed,
            "unit_chips": self.unit_chips,
            "net_chips": self.net_chips,
            "average_bet": _finite(self.average_bet),
            "edge": _finite(self.edge),
            "mean": _finite(self.mean),
            "se": _finite(self.se),
            "sd": _finite(self.sd),
            "win_rate_100": _finite(self.win_rate_100),
            "sd_100": _finite(self.sd_100),
            "rounds_per_hour": self.rounds_per_hour,
            "win_per_hour": _finite(self.win_per_hour),
            "sd_per_hour": _finite(self.sd_per_hour),
            "score": _finite(self.score),
            "n0": _finite(self.n0),
            "desirability_index": _finite(self.desirability_index),
            "bankroll": self.bankroll,
            "risk_of_ruin": _finite(self.risk_of_ruin),
            "trip_bankroll": self.trip_bankroll,
            "trip_hours": self.trip_hours,
            "trip_rounds": self.trip_rounds,
            "trip_risk_of_ruin": _finite(self.trip_risk_of_ruin),
            "simulated_trip_risk_of_ruin": None if sim is None else sim[0],
            "simulated_trip_risk_of_ruin_se": None if sim is None else sim[1],
            "trips": self.trips,
            "kelly_ramp": [
                {"true_count": tc, "edge": edge, "kelly_units": kelly, "units": units}
                for tc, edge, kelly, units in self.kelly_ramp()
            ],
            "true_counts": [
                {
                    "true_count": row.true_count,
                    "rounds": row.rounds,
                    "played": row.played,
                    "edge": _finite(row.edge),
                    "variance": _finite(row.variance),
                }
                for row in self.table
                if row.rounds
            ],
            "shoes": self.shoes,
            "seconds": self.seconds,
            "rounds_per_second": self.rounds / self.seconds if self.seconds > 0 else None,
            "workers": self.workers,
        }


def _finite(x: float | None) -> float | None:
    return x if x is not None and math.isfinite(x) else None


# ------------------------------------------------------------------ the run
_Job = tuple[Any, ...]


def _task(job: _Job) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    (seed, rounds, params, chart, charts, wager, ptags, btags, ctx, ramp, wong, trip) = job
    kstats = np.zeros(k.N_KSTATS, np.int64)
    stats = np.zeros(k.N_STATS, np.int64)
    buckets = np.zeros((_LAYERS, 6), np.int64)
    k.run_counter(
        seed, rounds, params, chart, charts, wager, ptags, btags, ctx, ramp, wong, trip,
        kstats, stats, buckets,
    )  # fmt: skip
    return kstats, buckets


def _tags(system: CountingSystem, betting: bool) -> npt.NDArray[np.float64]:
    """The tag of each card id % 52 (rank id % 13, two code 0 .. ace 12; suits 0 and 1
    red), the betting tags (ace side count) when ``betting``."""
    out = np.zeros(52, np.float64)
    side = system.betting_tags if betting else None
    for c in range(52):
        rank = c % 13
        value = 1 if rank == 12 else min(rank + 2, 10)
        red = (c // 13) < 2
        tag = (system.red if red else system.black)[value - 1]
        if side is not None:
            tag += side[value - 1] - system.tags[value - 1]
        out[c] = tag
    return out


def simulate_counter(
    rules: BlackjackRules = NZ,
    counter: Counter | None = None,
    rounds: int = 2_000_000,
    *,
    seed: int | None = None,
    workers: int = 1,
    rounds_per_hour: float = DEFAULT_ROUNDS_PER_HOUR,
    bankroll: int = 1000,
    trip_bankroll: int = 200,
    trip_hours: float = 8,
    play: CounterPlay | None = None,
    progress: Callable[[int], None] | None = None,
) -> CounterResult:
    """Deal ``rounds`` rounds (one box) under ``rules`` (its penetration places the cut
    card) to ``counter`` (default :class:`Counter`: Hi-Lo, 1-12, the Illustrious 18) and
    measure it (:class:`CounterResult`). ``play``: the charts from :func:`counter_play`,
    when already made for these rules; ``progress(n)`` after each task of ``n`` rounds.

    >>> simulate_counter(NZ, Counter(indices="none"), rounds=0)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: rounds must be at least 1, not 0
    """
    from croupier.blackjack.math.simulate import TASK_ROUNDS, kernel_params, run_settings, wager_for

    if not isinstance(rules, BlackjackRules):
        raise CroupierError(f"rules must be a BlackjackRules, not {type(rules).__name__}")
    counter = Counter() if counter is None else counter
    if not isinstance(counter, Counter):
        raise CroupierError(f"counter must be a Counter, not {type(counter).__name__}")
    rounds, workers, seed = run_settings(rounds, workers, seed)
    for name, value in (("bankroll", bankroll), ("trip_bankroll", trip_bankroll)):
        if whole_number(name, value) < 1:
            raise CroupierError(f"{name} is a whole number of units from 1, not {value}")
    for name, number in (("rounds_per_hour", rounds_per_hour), ("trip_hours", trip_hours)):
        if (
            isinstance(number, bool)
            or not isinstance(number, int | float)
            or not 0 < number <= 10_000
        ):
            raise CroupierError(f"{name} is a number above 0 (at most 10000), not {number!r}")
    rules.validate()
    rules.validate_cut_card()
    play = counter_play(counter, rules) if play is None else play
    params = kernel_params(rules, insure=False)
    if play.insurance is not None and rules.insurance:
        params[k.P_INSURE] = 2
    wager = wager_for(rules)
    system = counter.system
    ptags, btags = _tags(system, False), _tags(system, True)
    ctx = np.zeros(k.N_CTX, np.float64)
    ctx[k.C_ON] = 1
    ctx[k.C_CARDS] = 52 * rules.decks
    ctx[k.C_MEAN] = float(ptags.sum()) / 52
    ctx[k.C_BET_MEAN] = float(btags.sum()) / 52
    ctx[k.C_LO] = _LO
    ctx[k.C_BET_LO] = _LO
    ctx[k.C_INS] = math.inf if play.insurance is None else play.insurance
    ctx[k.C_ORIGIN] = 1 if rules.burn_on_new_shoe else 0
    wong = np.array(
        [
            -math.inf if counter.wong_in is None else counter.wong_in,
            -math.inf if counter.wong_out is None else counter.wong_out,
            1.0 if counter.mid_shoe_entry else 0.0,
        ],
        np.float64,
    )
    trip_rounds = max(1, round(trip_hours * rounds_per_hour))
    trip = np.array([trip_rounds, trip_bankroll * wager], np.int64)
    chart = play.charts[-_LO]
    seed = secrets.randbits(63) if seed is None else seed
    n_tasks = math.ceil(rounds / TASK_ROUNDS)
    seeds = [
        int(s.generate_state(1, np.uint64)[0]) >> 1
        for s in np.random.SeedSequence(seed).spawn(n_tasks)
    ]
    sizes = [min(TASK_ROUNDS, rounds - i * TASK_ROUNDS) for i in range(n_tasks)]
    ramp = counter.ramp.array()
    jobs = [
        (s, n, params, chart, play.charts, wager, ptags, btags, ctx, ramp, wong, trip)
        for s, n in zip(seeds, sizes, strict=True)
    ]
    start = time.perf_counter()
    results = []
    if workers == 1 or n_tasks == 1:
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
    kstats = sum((r[0] for r in results), np.zeros(k.N_KSTATS, np.int64))
    buckets = sum((r[1] for r in results), np.zeros((_LAYERS, 6), np.int64))
    table = tuple(
        TrueCountRow(
            _LO + j,
            int(buckets[j, 0]),
            int(buckets[j, 1]) / wager,
            int(buckets[j, 2]) / (wager * wager),
            int(buckets[j, 3]),
            int(buckets[j, 4]) / wager,
            int(buckets[j, 5]) / (wager * wager),
        )
        for j in range(_LAYERS)
    )
    return CounterResult(
        rules=rules,
        counter=counter,
        rounds=int(kstats[k.K_DEALT]),
        seed=seed,
        played=int(kstats[k.K_PLAYED]),
        net_chips=int(kstats[k.K_NET]),
        net2_chips=int(kstats[k.K_NET2]),
        wagered_chips=int(kstats[k.K_WAGERED]),
        unit_chips=wager,
        shoes=int(kstats[k.K_SHOES]),
        table=table,
        insurance=play.insurance,
        deviations=play.deviations,
        rounds_per_hour=rounds_per_hour,
        bankroll=bankroll,
        trip_bankroll=trip_bankroll,
        trip_hours=trip_hours,
        trips=int(kstats[k.K_TRIPS]),
        trips_ruined=int(kstats[k.K_RUINED]),
        seconds=seconds,
        workers=workers,
    )
