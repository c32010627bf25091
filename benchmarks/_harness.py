"""Shared records and helpers: configuration, measurements, comparisons, targets, checks.

How a figure is taken lives in :mod:`benchmarks._timing` (alternating pairs), how it is
printed in :mod:`benchmarks._report`, the machine in :mod:`benchmarks._machine`. A
figure is always a :class:`Comparison` of two :class:`Measured` sides timed in turn in
the same run (A B A B ...), so each pair gives one ratio; the tables report the median
and the range of those ratios and of each side's rate.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "CARD_NAMES",
    "BenchResult",
    "Check",
    "Comparison",
    "Config",
    "Measured",
    "Side",
    "StartupRow",
    "Target",
    "first_call",
    "fresh_process",
    "order_mismatches",
    "random_hands",
    "spread",
    "timed_import",
]

CARD_NAMES: Final = tuple(r + s for r in "23456789TJQKA" for s in "cdhs")
"""Card index ``4 * rank + suit`` (rank 0 = deuce, suit order c d h s) -> text such as ``As``."""

U8 = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Config:
    """How big a run is: the full run, or ``--quick`` (smaller samples, fewer pairs)."""

    quick: bool = False
    seed: int = 20240917

    def size(self, full: int, quick: int) -> int:
        """Pick a sample size for this run."""
        return quick if self.quick else full

    @property
    def pairs(self) -> int:
        """Alternating pairs a figure is measured with (A B A B ...)."""
        return 5 if self.quick else 7

    @property
    def min_seconds(self) -> float:
        """Shortest allowed timing: each side repeats its call until one timing lasts this long."""
        return 0.1 if self.quick else 0.2


def spread(values: Sequence[float]) -> tuple[float, float, float]:
    """(median, min, max) of the values (NaN when there are none)."""
    if not values:
        return math.nan, math.nan, math.nan
    return statistics.median(values), min(values), max(values)


@dataclass
class Side:
    """One thing to time: a call, what it does, and how much work one call is."""

    key: str
    """Short name used in the tables (e.g. ``phevaluator C loop 1T``)."""
    label: str
    """What exactly is called, and how."""
    fn: Callable[[], object]
    """One call: the unit that is repeated until a timing is long enough."""
    items: int = 1
    """Hands (boards, rounds ...) one call processes."""
    unit: str = "hands"
    croupier: bool = True
    threads: int | None = 1
    """Threads the work runs on (None: a Python loop, one call an item, one thread)."""
    job: int | None = None
    """Items in the full job, when the figure is a fixed job's time (equity): the table
    then shows seconds per job. When ``items < job`` a sample was timed (extrapolated)."""
    min_seconds: float | None = None
    """Override :attr:`Config.min_seconds` for this side (e.g. PokerKit: 3 s)."""


@dataclass
class Measured:
    """A side's timings from one run of alternating pairs (or rounds)."""

    key: str
    label: str
    croupier: bool
    threads: int | None
    unit: str
    items: int
    """Items a call."""
    passes: list[int]
    """Calls in each timing."""
    seconds: list[float]
    """Wall seconds of each timing (``passes`` calls)."""
    job: int | None = None

    @classmethod
    def of(cls, side: Side, passes: list[int], seconds: list[float]) -> Measured:
        """The measurement of ``side``."""
        return cls(
            side.key,
            side.label,
            side.croupier,
            side.threads,
            side.unit,
            side.items,
            passes,
            seconds,
            side.job,
        )

    @property
    def rates(self) -> list[float]:
        """Items a second in each timing."""
        return [self.items * p / s for p, s in zip(self.passes, self.seconds, strict=True)]

    @property
    def per_call(self) -> list[float]:
        """Seconds a call in each timing."""
        return [s / p for p, s in zip(self.passes, self.seconds, strict=True)]

    @property
    def job_seconds(self) -> list[float]:
        """Seconds of the full job in each timing (extrapolated from a sample if one was timed)."""
        size = self.job or self.items
        return [size / r for r in self.rates]

    @property
    def rate(self) -> float:
        """Median items a second."""
        return spread(self.rates)[0]

    @property
    def extrapolated(self) -> bool:
        """True when a sample of the job was timed."""
        return self.job is not None and self.items != self.job

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary, derived figures included."""
        out = dataclasses.asdict(self)
        out.update(rates=self.rates, rate_median=self.rate, job_seconds=self.job_seconds)
        return out


@dataclass
class Comparison:
    """Two sides timed in turn in one run; ratio i is A's rate over B's rate in pair i."""

    a: Measured
    b: Measured
    note: str = ""
    """Shown under the table (e.g. ``not like for like: ...``)."""

    @property
    def ratios(self) -> list[float]:
        """How many times faster A was than B, pair by pair (>1: A ahead)."""
        return [x / y for x, y in zip(self.a.rates, self.b.rates, strict=True)]

    @property
    def ratio(self) -> float:
        """Median of :attr:`ratios`."""
        return spread(self.ratios)[0]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary."""
        med, low, high = spread(self.ratios)
        return {
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "ratios": self.ratios,
            "ratio_median": med,
            "ratio_min": low,
            "ratio_max": high,
            "note": self.note,
        }


@dataclass
class StartupRow:
    """A one-time cost, reported apart from the rates."""

    label: str
    seconds: float
    note: str = ""


@dataclass
class Target:
    """A goal from the issue, and whether this run met it (on the median of the pairs)."""

    name: str
    measured: float
    op: Literal[">=", "<=", "<"]
    threshold: float
    unit: str
    detail: str = ""
    low: float | None = None
    """Smallest value over the pairs, when the figure has a range."""
    high: float | None = None

    @classmethod
    def over(
        cls,
        name: str,
        values: Sequence[float],
        op: Literal[">=", "<=", "<"],
        threshold: float,
        unit: str,
        detail: str = "",
    ) -> Target:
        """A target judged on the median of ``values``, with their range shown."""
        med, low, high = spread(values)
        return cls(name, med, op, threshold, unit, detail, low, high)

    @property
    def passed(self) -> bool:
        """Whether the measured value meets the threshold."""
        if math.isnan(self.measured):
            return False
        if self.op == ">=":
            return self.measured >= self.threshold
        if self.op == "<":
            return self.measured < self.threshold
        return self.measured <= self.threshold

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary."""
        out = dataclasses.asdict(self)
        out["passed"] = self.passed
        return out


@dataclass
class Check:
    """A correctness cross-check between croupier and a peer on the benchmark's own data."""

    name: str
    passed: bool
    detail: str = ""


@dataclass
class BenchResult:
    """Everything one benchmark measured."""

    name: str
    title: str
    comparisons: list[Comparison] = field(default_factory=list)
    solos: list[Measured] = field(default_factory=list)
    """Figures with no peer (repeats of one side)."""
    startup: list[StartupRow] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    info: list[str] = field(default_factory=list)
    """Extra lines printed as they are (table memory ...)."""
    notes: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """Parts that could not run, each with its reason."""
    load_before: tuple[float, float, float] | None = None
    load_after: tuple[float, float, float] | None = None
    pairs: int = 0
    min_seconds: float = 0.0

    def comparison(self, a: str, b: str) -> Comparison | None:
        """The comparison of side ``a`` with side ``b``, if it was measured."""
        return next((c for c in self.comparisons if c.a.key == a and c.b.key == b), None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary."""
        return {
            "name": self.name,
            "title": self.title,
            "pairs": self.pairs,
            "min_seconds": self.min_seconds,
            "load_before": self.load_before,
            "load_after": self.load_after,
            "comparisons": [c.to_dict() for c in self.comparisons],
            "solos": [s.to_dict() for s in self.solos],
            "startup": [dataclasses.asdict(s) for s in self.startup],
            "targets": [t.to_dict() for t in self.targets],
            "checks": [dataclasses.asdict(c) for c in self.checks],
            "info": self.info,
            "notes": self.notes,
            "skipped": self.skipped,
        }


def first_call(fn: Callable[[], object]) -> float:
    """Seconds of one call (used for first calls: compile or cache load)."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def random_hands(n: int, width: int, seed: int) -> U8:
    """``n`` rows of ``width`` distinct card indices, each row a uniform random deal."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, width), np.uint8)
    chunk = 200_000
    for start in range(0, n, chunk):
        stop = min(n, start + chunk)
        keys = rng.random((stop - start, 52), dtype=np.float32)
        out[start:stop] = np.argpartition(keys, width, axis=1)[:, :width]
    return out


def order_mismatches(ours: Sequence[int], less: Callable[[int, int], bool]) -> int:
    """Adjacent pairs (in croupier's order) where a peer orders the two hands differently.

    ``ours`` are croupier ranks (higher is better); ``less(i, j)`` says whether the
    peer ranks hand ``i`` strictly below hand ``j``. Agreement on every adjacent pair
    of the sorted sample means the two rankings order the whole sample alike.
    """
    order = sorted(range(len(ours)), key=lambda i: ours[i])
    bad = 0
    for i, j in itertools.pairwise(order):
        if ours[i] == ours[j]:
            bad += less(i, j) or less(j, i)
        else:
            bad += not less(i, j)
    return bad


_PROBE: Final = r"""
import json, sys, time
t0 = time.perf_counter()
steps = json.loads(sys.argv[1])
out = {}
def mark(name, start):
    out[name] = time.perf_counter() - start
s = time.perf_counter()
import croupier
mark("import croupier", s)
for step in steps:
    s = time.perf_counter()
    if step == "rank_cards":
        croupier.rank_cards("As Kd Qh Js 9c 3d 2h")
    elif step == "evaluate_batch":
        import numpy as np
        from croupier.evaluation import evaluate_batch
        evaluate_batch(np.array([[51, 46, 41, 36, 28, 5, 0]], np.uint8))
    elif step == "evaluate_batch parallel":
        import numpy as np
        from croupier.evaluation import evaluate_batch
        evaluate_batch(np.array([[51, 46, 41, 36, 28, 5, 0]], np.uint8), parallel=True)
    elif step == "equity":
        from croupier.equity import equity
        equity(["As Ks", "Qd Qh"])
    else:
        raise SystemExit(f"unknown step {step}")
    mark(step, s)
out["in-process total"] = time.perf_counter() - t0
print(json.dumps(out))
"""


def src_root() -> str:
    """The folder holding the ``croupier`` package in use (for a subprocess's PYTHONPATH)."""
    import croupier

    return str(Path(croupier.__file__).resolve().parent.parent)


def fresh_process(steps: Sequence[str], *, cold: bool = False) -> dict[str, float]:
    """Time ``import croupier`` and first calls in a brand-new Python process.

    With ``cold=True`` the table cache (``CROUPIER_CACHE_DIR``) and numba's cache
    (``NUMBA_CACHE_DIR``) point at an empty temporary folder, so tables are built and
    kernels compiled from scratch. The result also holds ``process wall``: the whole
    subprocess, interpreter start-up and exit included.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src_root(), env.get("PYTHONPATH")) if p)
    with tempfile.TemporaryDirectory(prefix="croupier-bench-") as tmp:
        if cold:
            env["CROUPIER_CACHE_DIR"] = str(Path(tmp) / "tables")
            env["NUMBA_CACHE_DIR"] = str(Path(tmp) / "numba")
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _PROBE, json.dumps(list(steps))],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"start-up probe failed:\n{done.stderr}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    result["process wall"] = wall
    return result


_IMPORT_SECONDS: dict[str, float] = {}


def timed_import(module: str) -> tuple[Any, float]:
    """Import a module; also return the seconds its first import in this process took."""
    import importlib

    if module not in _IMPORT_SECONDS:
        already = module in sys.modules
        start = time.perf_counter()
        importlib.import_module(module)
        _IMPORT_SECONDS[module] = math.nan if already else time.perf_counter() - start
    return importlib.import_module(module), _IMPORT_SECONDS[module]
