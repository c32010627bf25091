"""How a figure is timed: alternating pairs (A B A B ...), never one side after the other.

On a shared machine the load drifts over seconds, so timing croupier for three repeats
and then its peer for three would fold the drift into the ratio. Here both sides are
warmed up, each is calibrated to a number of calls ("passes") that makes one timing last
at least ``min_seconds``, and then the timings alternate: A, B, A, B, ... for ``pairs``
pairs. Pair *i* gives one ratio (A's rate in timing *i* over B's rate in timing *i*);
the tables report the median and the range (min-max) of those ratios and of each side's
rate. With more than two sides (:func:`rounds`) each round times every side once in turn,
and any two sides of it form a pair. The garbage collector is collected before and
paused during every timing, as :mod:`timeit` does.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable, Sequence

from benchmarks._harness import Comparison, Config, Measured, Side

__all__ = ["alternate", "compare", "repeat", "rounds", "timed"]

_CALIBRATE_FRACTION = 0.25
"""Calibration grows the passes until one trial lasts this fraction of ``min_seconds``."""
_HEADROOM = 1.15
"""Passes are sized for this many times ``min_seconds``, so a faster timing stays above it."""
_RETRIES = 4
"""Attempts at a timing that keeps coming out shorter than the floor."""


def timed(fn: Callable[[], object], passes: int) -> float:
    """Wall seconds of ``passes`` back-to-back calls of ``fn``, the garbage collector paused."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(passes):
            fn()
        return time.perf_counter() - start
    finally:
        if enabled:
            gc.enable()


def _passes(fn: Callable[[], object], min_seconds: float) -> int:
    """Calls a timing needs to last at least ``min_seconds`` (``fn`` is already warm)."""
    passes = 1
    elapsed = timed(fn, passes)
    while elapsed < _CALIBRATE_FRACTION * min_seconds:
        grow = 10 if elapsed < _CALIBRATE_FRACTION * min_seconds / 20 else 2
        passes *= grow
        elapsed = timed(fn, passes)
    return max(1, math.ceil(_HEADROOM * min_seconds * passes / max(elapsed, 1e-9)))


def _timing(fn: Callable[[], object], passes: int, floor: float) -> tuple[float, int]:
    """One timing of at least ``floor`` seconds: (seconds, passes). A timing that came out
    shorter (the machine got faster since calibration) is discarded and taken again with
    more passes, so no recorded timing is below the floor."""
    for _ in range(_RETRIES):
        seconds = timed(fn, passes)
        if seconds >= floor:
            break
        passes = max(passes + 1, math.ceil(_HEADROOM * floor * passes / max(seconds, 1e-9)))
    return seconds, passes


def _run(
    fns: Sequence[Callable[[], object]], count: int, floors: Sequence[float]
) -> tuple[list[list[float]], list[list[int]]]:
    """Warm up, calibrate, then ``count`` rounds; each side's timings (seconds) and passes."""
    for fn in fns:  # warm-up: caches, lazy tables, branch predictors
        fn()
    passes = [_passes(fn, floor) for fn, floor in zip(fns, floors, strict=True)]
    seconds: list[list[float]] = [[] for _ in fns]
    used: list[list[int]] = [[] for _ in fns]
    for _ in range(count):
        for i, fn in enumerate(fns):
            t, passes[i] = _timing(fn, passes[i], floors[i])
            seconds[i].append(t)
            used[i].append(passes[i])
    return seconds, used


def alternate(
    a_fn: Callable[[], object],
    b_fn: Callable[[], object],
    pairs: int,
    min_seconds: float,
) -> tuple[list[float], list[float]]:
    """Seconds a call of ``a_fn`` and of ``b_fn``, timed as ``pairs`` pairs A B A B ...

    Both are called once untimed first (warm-up); each timing repeats its call enough times
    to last at least ``min_seconds``. Element *i* of each list comes from pair *i*.
    """
    (a, b), (pa, pb) = _run((a_fn, b_fn), pairs, (min_seconds, min_seconds))
    return [s / n for s, n in zip(a, pa, strict=True)], [s / n for s, n in zip(b, pb, strict=True)]


def rounds(sides: Sequence[Side], count: int, min_seconds: float) -> list[Measured]:
    """Time every side once a round, in order, for ``count`` rounds (two sides: A B A B ...)."""
    floors = [s.min_seconds or min_seconds for s in sides]
    seconds, passes = _run([s.fn for s in sides], count, floors)
    return [
        Measured.of(side, p, secs) for side, secs, p in zip(sides, seconds, passes, strict=True)
    ]


def compare(
    a: Side,
    b: Side,
    cfg: Config,
    *,
    note: str = "",
    pairs: int | None = None,
) -> Comparison:
    """Measure A against B in alternating pairs (``cfg.pairs`` of them unless ``pairs``)."""
    ma, mb = rounds((a, b), pairs or cfg.pairs, cfg.min_seconds)
    return Comparison(ma, mb, note)


def repeat(side: Side, cfg: Config, *, times: int | None = None) -> Measured:
    """A figure with no peer: the same warm-up and timing, ``times`` repeats (default: pairs)."""
    (m,) = rounds((side,), times or cfg.pairs, cfg.min_seconds)
    return m
