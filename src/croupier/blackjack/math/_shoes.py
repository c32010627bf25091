"""Exact analyses of many shoes, cached: what the effects of removal and the index plays need.

Each shoe (a composition of ten counts A, 2, ..., T) is analysed by
:class:`~croupier.blackjack.math.analysis.Analysis`. A shoe may also be an *expected*
composition, with fractional counts (the cards left on average given a count): the
analysis's formulas are polynomials in the counts (products of cards of a value over cards
left), and :class:`ExpectedShoe` evaluates them there; at whole counts it is the analysis
itself. The results are kept in memory and on disk
(in :func:`~croupier.evaluation.tables.cache_dir`, ``bj-*.npz`` files, written atomically by
:func:`~croupier.evaluation.tables.load_cached`). A cache entry's name is a hash of the
settings the analysis reads, the shoe, and the source text of the analysis itself, so a
change to the analysis never reads an old answer. Shoes not cached are analysed on a thread
each core (the kernels release the GIL).

>>> from croupier.blackjack.rules import NZ
>>> opts = shoe_options(NZ, (4, 4, 4, 4, 4, 4, 4, 4, 4, 16))
>>> opts.shape, float(opts[10, 10, 6, 1]) == Analysis(NZ, decks=1).options(10, 6, 10)["hit"]
((11, 11, 11, 5), True)
"""

from __future__ import annotations

import hashlib
import math
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from croupier.blackjack.math.analysis import ACTIONS, Analysis
from croupier.blackjack.math.strategy import StrategyChart
from croupier.blackjack.rules import BlackjackRules, Surrender
from croupier.errors import CroupierError
from croupier.evaluation.tables import cache_dir, load_cached

__all__ = ["ExpectedShoe", "basic_chart", "chart_expectation", "evaluate_shoes", "shoe_options"]

FloatArray = npt.NDArray[np.float64]
Shoe = tuple[float, ...]

_FORMAT = 1
_SETTINGS = (
    "dealer_hits_soft_17", "hole_card", "dealer_blackjack_takes_splits",
    "dealer_blackjack_takes_doubles", "double_on", "double_after_split", "max_hands",
    "pairs_by", "resplit_aces", "hit_split_aces", "blackjack_pays", "surrender",
)  # fmt: skip
"""The settings the analysis reads (the deck count comes in the shoe)."""
_SOURCES = ("analysis.py", "_exact_kernel.py", "_exact_graphs.py", "_policy.py", "_shoes.py")
_LOCK = threading.Lock()


@cache
def _engine() -> str:
    """A hash of the analysis's source text: a cache entry of another version is not read."""
    digest = hashlib.sha256()
    folder = Path(__file__).parent
    try:
        for name in _SOURCES:
            digest.update((folder / name).read_bytes())
    except OSError:  # installed without its sources: the version has to do
        from croupier import __version__

        digest.update(f"croupier {__version__}".encode())
    return digest.hexdigest()[:16]


def _path(kind: str, rules: BlackjackRules, shoe: Shoe, extra: bytes = b"") -> Path:
    settings = tuple((name, str(getattr(rules, name))) for name in _SETTINGS)
    counts = tuple(round(float(x), 12) for x in shoe)
    key = repr((_FORMAT, _engine(), kind, settings, counts)).encode() + extra
    return cache_dir() / f"bj-{kind}-{hashlib.sha256(key).hexdigest()[:20]}.npz"


@dataclass(frozen=True)
class ExpectedShoe(Analysis):
    """The analysis of an expected composition: ``expected`` gives fractional counts of
    each value A, 2, ..., T (the module docstring says what that means); ``counts`` must
    hold the same counts rounded (the analysis checks the rules and the shoe's size on it).

    >>> from croupier.blackjack.rules import NZ
    >>> half = ExpectedShoe(NZ, counts=(12,) * 9 + (48,), expected=(12.0,) * 9 + (48.0,))
    >>> half.options(10, 6, 10) == Analysis(NZ, counts=(12,) * 9 + (48,)).options(10, 6, 10)
    True
    """

    expected: tuple[float, ...] = ()
    """Cards of each value, fractional."""

    def __post_init__(self) -> None:
        super().__post_init__()
        counts = self.counts or ()
        if len(self.expected) != 10 or any(
            not math.isfinite(x) or x < 0 or abs(x - c) > 1
            for x, c in zip(self.expected, counts, strict=True)
        ):
            raise CroupierError("expected counts are ten numbers within a card of counts")

    @property
    def shoe(self) -> tuple[int, ...] | None:
        """The expected counts (fractional: the analysis reads the shoe only through this)."""
        return self.expected  # type: ignore[return-value]  # floats: the kernels take float64


def _analysis(rules: BlackjackRules, shoe: Shoe) -> Analysis:
    whole = tuple(round(x) for x in shoe)
    if all(x == w for x, w in zip(shoe, whole, strict=True)):
        return Analysis(rules, counts=whole)
    return ExpectedShoe(rules, counts=whole, expected=tuple(float(x) for x in shoe))


def _options_now(rules: BlackjackRules, shoe: Shoe) -> FloatArray:
    analysis = _analysis(rules, shoe)
    out = np.full((11, 11, 11, len(ACTIONS)), np.nan)
    for up in range(1, 11):
        if shoe[up - 1] < 1:
            continue
        for a in range(1, 11):
            for b in range(a, 11):
                left = list(shoe)
                left[up - 1] -= 1
                left[a - 1] -= 1
                left[b - 1] -= 1
                if min(left) < 0:
                    continue
                row = analysis.options(a, b, up)
                for i, action in enumerate(ACTIONS):
                    if action in row:
                        out[up, a, b, i] = out[up, b, a, i] = row[action]
    return out


@lru_cache(maxsize=256)
def _late_options(rules: BlackjackRules, shoe: Shoe) -> FloatArray:
    """:func:`shoe_options` of rules with late surrender (the other plays do not depend on
    it, so one analysis serves a rule set with and without it)."""
    path = _path("options", rules, shoe)
    spec = {"options": (np.float64, (11, 11, 11, len(ACTIONS)))}
    arrays = load_cached(path, spec, lambda: {"options": _options_now(rules, shoe)})
    out = np.asarray(arrays["options"], np.float64)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=256)
def shoe_options(rules: BlackjackRules, shoe: Shoe) -> FloatArray:
    """``options[up, a, b, i]``: the EV per initial unit of first decision ``ACTIONS[i]``
    for the two cards a, b against ``up`` dealt from ``shoe`` (whole or expected counts;
    optimal play after it; NaN where not allowed or not possible), cached. Read-only.

    >>> from croupier.blackjack.rules import NZ
    >>> int(np.isnan(shoe_options(NZ, (4,) * 9 + (16,))[10, 10, 6]).sum())   # no split, no surrender
    2
    """
    if rules.surrender is Surrender.LATE:
        return _late_options(rules, tuple(shoe))
    out = _late_options(rules.with_(surrender=Surrender.LATE), tuple(shoe)).copy()
    out[..., ACTIONS.index("surrender")] = np.nan
    out.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def basic_chart(rules: BlackjackRules, shoe: Shoe) -> StrategyChart:
    """The basic strategy derived for ``shoe`` (:meth:`Analysis.basic_strategy`), cached.

    >>> from croupier.blackjack.rules import NZ
    >>> basic_chart(NZ, (24,) * 9 + (96,)).code("pair", 8, 1)
    'H'
    """
    path = _path("chart", rules, shoe)
    spec = {"cells": (np.int8, (3, 22, 11))}
    arrays = load_cached(
        path, spec, lambda: {"cells": _analysis(rules, shoe).basic_strategy().cells}
    )
    return StrategyChart(np.asarray(arrays["cells"], np.int8))


@lru_cache(maxsize=512)
def chart_expectation(rules: BlackjackRules, shoe: Shoe, chart: StrategyChart) -> float:
    """The expectation per initial unit of playing ``chart`` on ``shoe``, off the top, cached.

    >>> from croupier.blackjack.rules import NZ
    >>> six = (24,) * 9 + (96,)
    >>> round(chart_expectation(NZ, six, basic_chart(NZ, six)) * 100, 4)
    -0.4242
    """
    path = _path("chart-ev", rules, shoe, chart.cells.tobytes())
    spec = {"ev": (np.float64, (1,))}
    arrays = load_cached(
        path, spec, lambda: {"ev": np.array([_analysis(rules, shoe).expectation(chart)])}
    )
    return float(arrays["ev"][0])


def evaluate_shoes(
    rules: BlackjackRules,
    shoes: Sequence[Shoe],
    *,
    chart: StrategyChart | None = None,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Analyse ``shoes`` (their :func:`shoe_options`, and with ``chart`` their
    :func:`chart_expectation`) on a thread a core, so that later calls read the caches;
    ``progress(1)`` after each shoe.

    >>> from croupier.blackjack.rules import NZ
    >>> seen = []
    >>> evaluate_shoes(NZ, [(4,) * 9 + (16,), (3,) + (4,) * 8 + (16,)], progress=seen.append)
    >>> seen
    [1, 1]
    """

    def work(shoe: Shoe) -> None:
        shoe_options(rules, shoe)
        if chart is not None:
            chart_expectation(rules, shoe, chart)
        if progress is not None:
            with _LOCK:
                progress(1)

    todo = list(dict.fromkeys(tuple(s) for s in shoes))
    if not todo:
        return
    work(todo[0])  # in this thread first: compiles or loads the kernels once
    workers = max(1, min(len(todo) - 1, os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for done in pool.map(work, todo[1:]):
            del done
