"""Shared machinery: configuration, timing, random hands, result records and tables.

Every timed figure is the median of ``Config.repeats`` (3) repeats, each preceded by
an untimed warm-up; the garbage collector is paused while a repeat runs (as
:mod:`timeit` does). A first call (JIT cache load, table load, peer compile) is
timed separately and reported as one-time start-up, never mixed into a rate.
"""

from __future__ import annotations

import gc
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
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "CARD_NAMES",
    "BenchResult",
    "Check",
    "Config",
    "Row",
    "StartupRow",
    "Target",
    "cores",
    "first_call",
    "fresh_process",
    "kernel_row",
    "loop_row",
    "numba_threads",
    "order_mismatches",
    "print_result",
    "random_hands",
    "time_repeats",
    "timed_import",
]

CARD_NAMES: Final = tuple(r + s for r in "23456789TJQKA" for s in "cdhs")
"""Card index ``4 * rank + suit`` (rank 0 = deuce, suit order c d h s) -> text such as ``As``."""

U8 = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Config:
    """How big a run is: the full run, or ``--quick`` (about a fifth of the work)."""

    quick: bool = False
    repeats: int = 3
    seed: int = 20240917

    def size(self, full: int, quick: int) -> int:
        """Pick a sample size for this run."""
        return quick if self.quick else full

    @property
    def min_repeat_seconds(self) -> float:
        """Fast kernels evaluate their array several times a repeat, to at least this long."""
        return 0.1 if self.quick else 0.5


@dataclass
class Row:
    """One implementation's timed measurement within a benchmark."""

    key: str
    """Short name used in the ratio table (e.g. ``phevaluator C loop``)."""
    label: str
    """What exactly is called, and how."""
    croupier: bool
    """True for croupier's own rows; False for a peer."""
    threads: int | None
    """Threads the evaluation runs on (None: a Python loop, one thread)."""
    items: int
    """Hands (or boards) processed in one repeat."""
    times: list[float]
    """Seconds of each repeat."""
    unit: str = "hands"
    full_items: int | None = None
    """When only a sample of a fixed job was timed: the job's full size (for extrapolating)."""
    note: str = ""

    @property
    def median(self) -> float:
        """Median seconds per repeat."""
        return statistics.median(self.times)

    @property
    def rate(self) -> float:
        """Items per second (median repeat)."""
        return self.items / self.median

    @property
    def job_seconds(self) -> float:
        """Seconds for the full job, extrapolated from the sample when one was timed."""
        if self.full_items is None:
            return self.median
        return self.median * self.full_items / self.items

    @property
    def extrapolated(self) -> bool:
        """True when the job time comes from a sample."""
        return self.full_items is not None and self.full_items != self.items

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary, derived figures included."""
        out = asdict(self)
        out.update(
            median_s=self.median,
            rate_per_s=self.rate,
            job_s=self.job_seconds,
            extrapolated=self.extrapolated,
        )
        return out


@dataclass
class StartupRow:
    """A one-time cost, reported apart from the rates."""

    label: str
    seconds: float
    note: str = ""


@dataclass
class Target:
    """A goal from the issue, and whether this run met it."""

    name: str
    measured: float
    op: Literal[">=", "<=", "<"]
    threshold: float
    unit: str
    detail: str = ""

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
        out = asdict(self)
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
    rows: list[Row] = field(default_factory=list)
    startup: list[StartupRow] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    ratio_by_time: bool = False
    """Ratios from full-job times (equity) rather than from rates."""

    def row(self, key: str) -> Row | None:
        """The row with this key, if it was measured."""
        return next((r for r in self.rows if r.key == key), None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary."""
        return {
            "name": self.name,
            "title": self.title,
            "rows": [r.to_dict() for r in self.rows],
            "startup": [asdict(s) for s in self.startup],
            "targets": [t.to_dict() for t in self.targets],
            "checks": [asdict(c) for c in self.checks],
            "notes": self.notes,
            "ratios": ratios(self),
        }


def cores() -> int:
    """Logical cores available to this process."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def numba_threads() -> int:
    """Threads numba's ``prange`` loops run on."""
    import numba

    return int(numba.get_num_threads())


def time_repeats(fn: Callable[[], object], repeats: int, *, warm: bool = True) -> list[float]:
    """Wall seconds of ``repeats`` calls of ``fn`` (after one untimed warm-up call if ``warm``)."""
    if warm:
        fn()
    times = []
    for _ in range(repeats):
        enabled = gc.isenabled()
        gc.disable()
        try:
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        finally:
            if enabled:
                gc.enable()
    return times


def first_call(fn: Callable[[], object]) -> float:
    """Seconds of one call (used for first calls: compile or cache load)."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def passes_for(fn: Callable[[], object], min_seconds: float) -> int:
    """How many back-to-back calls of ``fn`` last at least ``min_seconds`` (one warm call)."""
    once = max(first_call(fn), 1e-6)
    return max(1, math.ceil(min_seconds / once))


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


def _src_root() -> str:
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
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_src_root(), env.get("PYTHONPATH")) if p)
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


# ---------------------------------------------------------------- printing


def _si(value: float) -> str:
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= limit:
            return f"{value / limit:.3g} {suffix}"
    return f"{value:.3g} "


def _seconds(value: float) -> str:
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.1f} ms"
    return f"{value * 1e6:.0f} us"


def _ratio(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}x"
    if value >= 0.1:
        return f"{value:.2f}x"
    return f"{value:.2g}x"


def _table(header: Sequence[str], body: Sequence[Sequence[str]], right: set[int]) -> list[str]:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *body, strict=True)]

    def fmt(cells: Sequence[str]) -> str:
        parts = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  " + "  ".join(parts).rstrip()

    rule = "  " + "  ".join("-" * w for w in widths)
    return [fmt(header), rule, *(fmt(r) for r in body)]


def ratios(result: BenchResult) -> dict[str, dict[str, float]]:
    """croupier row -> peer row -> how many times faster croupier is (>1: croupier ahead)."""
    ours = [r for r in result.rows if r.croupier]
    peers = [r for r in result.rows if not r.croupier]
    out: dict[str, dict[str, float]] = {}
    for c in ours:
        out[c.key] = {}
        for p in peers:
            if result.ratio_by_time:
                out[c.key][p.key] = p.job_seconds / c.job_seconds
            else:
                out[c.key][p.key] = c.rate / p.rate
    return out


def print_result(result: BenchResult) -> None:
    """Print a benchmark's table, its ratios, start-up costs, checks and targets."""
    lines = [f"== {result.name}: {result.title}"]
    if result.rows:
        header = ["implementation", "threads", "n / repeat", "median of 3", "rate"]
        if result.ratio_by_time:
            header.append("full job")
        body = []
        for r in result.rows:
            cells = [
                ("* " if r.croupier else "  ") + r.key,
                "py" if r.threads is None else str(r.threads),
                f"{r.items:,}",
                _seconds(r.median),
                f"{_si(r.rate)}{r.unit}/s",
            ]
            if result.ratio_by_time:
                cells.append(_seconds(r.job_seconds) + (" (est.)" if r.extrapolated else ""))
            body.append(cells)
        lines += _table(header, body, {1, 2, 3, 4, 5})
        lines.append("  (* croupier; 'py' = called once per hand from a Python loop)")
        for r in result.rows:
            lines.append(f"    {r.key}: {r.label}" + (f" [{r.note}]" if r.note else ""))
        table = ratios(result)
        peers = [r.key for r in result.rows if not r.croupier]
        if table and peers:
            what = (
                "peer time / croupier time" if result.ratio_by_time else "croupier rate / peer rate"
            )
            lines.append(f"  ratios ({what}; >1x means croupier is faster):")
            rhead = ["peer", *table]
            rbody = [[p, *(_ratio(table[c][p]) for c in table)] for p in peers]
            lines += _table(rhead, rbody, set(range(1, len(rhead))))
    if result.startup:
        lines.append("  one-time start-up (not included in any rate above):")
        sbody = [[s.label, _seconds(s.seconds), s.note] for s in result.startup]
        lines += ["  " + x for x in _table(["what", "seconds", "note"], sbody, {1})]
    for c in result.checks:
        lines.append(f"  check {'PASS' if c.passed else 'FAIL'}: {c.name}  {c.detail}".rstrip())
    for t in result.targets:
        lines.append(f"  target {'PASS' if t.passed else 'FAIL'}: {target_text(t)}")
    for note in result.notes:
        lines.append(f"  note: {note}")
    print("\n".join(lines) + "\n", flush=True)


def target_text(t: Target) -> str:
    """One line describing a target and the measured value."""
    text = f"{t.name}: measured {t.measured:.3g} {t.unit}, needs {t.op} {t.threshold:g} {t.unit}"
    return text + (f" ({t.detail})" if t.detail else "")


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


def kernel_row(
    key: str,
    label: str,
    *,
    croupier: bool,
    threads: int,
    fn: Callable[[], object],
    n: int,
    cfg: Config,
    unit: str = "hands",
) -> Row:
    """Time a fast whole-array call; one repeat runs it enough times to last a while."""
    passes = passes_for(fn, cfg.min_repeat_seconds)

    def many() -> None:
        for _ in range(passes):
            fn()

    times = time_repeats(many, cfg.repeats, warm=False)  # passes_for made the warm-up call
    note = f"{passes} passes over the {n:,} {unit} a repeat" if passes > 1 else ""
    return Row(key, label, croupier, threads, n * passes, times, unit=unit, note=note)


def loop_row(
    key: str,
    label: str,
    *,
    croupier: bool,
    fn: Callable[[], object],
    warmup: Callable[[], object],
    n: int,
    cfg: Config,
    unit: str = "hands",
    note: str = "",
) -> Row:
    """Time a Python loop calling an evaluator once per item (one thread)."""
    warmup()
    times = time_repeats(fn, cfg.repeats, warm=False)
    return Row(key, label, croupier, None, n, times, unit=unit, note=note)
