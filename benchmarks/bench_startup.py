"""Start-up: what a brand-new Python process pays before croupier's first answer.

Each measurement runs ``python -c ...`` in a fresh subprocess and times, in order:
``import croupier``; the first ``rank_cards`` (hand-rank tables loaded from the
disk cache); the first ``evaluate_batch`` (one-thread numba kernel loaded from
numba's cache); the first ``evaluate_batch(parallel=True)`` (parallel kernel and
thread pool); the first ``equity`` (equity kernel, plus one full exact
enumeration of 1,712,304 boards). "Warm" uses the normal caches (primed by one
untimed process); "cold" points ``CROUPIER_CACHE_DIR`` and ``NUMBA_CACHE_DIR`` at an
empty temporary folder, so tables are built and every kernel compiled.
"""

from __future__ import annotations

import statistics
from typing import Final

from benchmarks._harness import BenchResult, Config, StartupRow, Target, fresh_process

__all__ = ["run"]

NAME = "startup"
TITLE = "fresh-process start-up: import and first calls, warm and cold caches"

STEPS: Final = ("rank_cards", "evaluate_batch", "evaluate_batch parallel", "equity")
LABELS: Final = {
    "import croupier": "import croupier",
    "rank_cards": "first rank_cards() (tables from disk)",
    "evaluate_batch": "first evaluate_batch(), 1 thread (numba cache)",
    "evaluate_batch parallel": "first evaluate_batch(parallel=True)",
    "equity": "first equity() AsKs vs QdQh (incl. the enumeration)",
    "in-process total": "total inside the process",
    "process wall": "whole process (interpreter start to exit)",
}


def _median(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def run(cfg: Config) -> BenchResult:
    """Time croupier's start-up in fresh processes; see the module docstring."""
    res = BenchResult(NAME, TITLE)
    fresh_process(STEPS)  # prime the caches (and the OS file cache) untimed
    warm = [fresh_process(STEPS) for _ in range(cfg.repeats)]
    cold_repeats = 1 if cfg.quick else cfg.repeats
    cold = [fresh_process(STEPS, cold=True) for _ in range(cold_repeats)]
    for key, label in LABELS.items():
        res.startup.append(
            StartupRow(f"warm: {label}", _median(warm, key), f"median of {len(warm)}")
        )
    for key, label in LABELS.items():
        res.startup.append(
            StartupRow(f"cold: {label}", _median(cold, key), f"median of {len(cold)}")
        )
    first_answer = _median(warm, "import croupier") + _median(warm, "rank_cards")
    res.notes.append(
        f"warm: import croupier + first rank_cards = {first_answer:.3f} s; "
        "cold builds tables and compiles every kernel once, then caches them on disk"
    )
    res.targets.append(
        Target(
            "warm start-up: import croupier + first rank_cards, evaluate_batch, equity",
            _median(warm, "in-process total"),
            "<",
            2.0,
            "s",
            "the whole 'in-process total' above, fresh process",
        )
    )
    return res
