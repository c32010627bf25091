"""Exact preflop equity, As Ks against Qd Qh, over all 1,712,304 five-card boards.

croupier's :func:`~croupier.equity.equity` is timed after a warm-up call (its
first call in a fresh process is reported separately, as start-up). The peers
enumerate the same boards: phevaluator's C ``evaluate_7cards`` from a numba loop
(two C calls a board), and Python loops over :func:`itertools.combinations` calling
phevaluator or eval7 twice a board. eval7's own ``py_hand_vs_range_exact`` is not
used: it scores the given board only and never deals the rest of it.

A Python-loop peer is first timed on a 10% sample (every tenth board in
enumeration order); when that extrapolates to more than 5 s for the whole job, the
sample is what gets timed (3 repeats) and the job time is extrapolated and marked
"(est.)". ``--quick`` always uses the sample for Python loops.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations, islice
from math import comb
from typing import Any, Final

import numpy as np

from benchmarks._harness import (
    CARD_NAMES,
    BenchResult,
    Check,
    Config,
    Row,
    StartupRow,
    Target,
    first_call,
    fresh_process,
    time_repeats,
    timed_import,
)
from benchmarks._pheval_c import pheval_c

__all__ = ["run"]

NAME = "equity"
TITLE = "exact preflop equity As Ks vs Qd Qh, all 1,712,304 boards"

HERO: Final = (51, 47)  # As Ks
VILLAIN: Final = (41, 42)  # Qd Qh
BOARDS: Final = comb(48, 5)
SAMPLE_STRIDE: Final = 10
PYTHON_LIMIT_S: Final = 5.0

Counts = tuple[int, int, int]  # hero wins, ties, hero losses


def _python_loop(
    evaluate: Callable[..., int],
    hero: Sequence[Any],
    villain: Sequence[Any],
    boards: Iterable[tuple[Any, ...]],
    *,
    lower_is_better: bool,
) -> Counts:
    """Two evaluator calls a board, each with the seven cards as separate arguments."""
    h1, h2 = hero
    v1, v2 = villain
    wins = ties = losses = 0
    for b in boards:
        x = evaluate(h1, h2, *b)
        y = evaluate(v1, v2, *b)
        if x == y:
            ties += 1
        elif (x < y) == lower_is_better:
            wins += 1
        else:
            losses += 1
    return wins, ties, losses


def _eval7_loop(
    evaluate: Callable[[Sequence[Any]], int],
    hero: tuple[Any, ...],
    villain: tuple[Any, ...],
    boards: Iterable[tuple[Any, ...]],
) -> Counts:
    """eval7.evaluate takes one sequence of Cards: hole tuple + board tuple, higher is better."""
    wins = ties = losses = 0
    for b in boards:
        x = evaluate(hero + b)
        y = evaluate(villain + b)
        if x > y:
            wins += 1
        elif x == y:
            ties += 1
        else:
            losses += 1
    return wins, ties, losses


def _time_python_peer(
    key: str,
    label: str,
    job: Callable[[Iterable[tuple[Any, ...]]], Counts],
    deck: Sequence[Any],
    cfg: Config,
    got: dict[str, Counts],
) -> Row:
    """Time a Python-loop peer on all boards, or on the 10% sample when that is too slow."""
    sample_n = len(range(0, BOARDS, SAMPLE_STRIDE))

    def on_sample() -> None:
        got[key + " sample"] = job(islice(combinations(deck, 5), 0, None, SAMPLE_STRIDE))

    def on_all() -> None:
        got[key] = job(combinations(deck, 5))

    probe = statistics.median(time_repeats(on_sample, 1, warm=False))
    estimate = probe * BOARDS / sample_n
    if cfg.quick or estimate > PYTHON_LIMIT_S:
        times = time_repeats(on_sample, cfg.repeats, warm=False)
        why = "quick run" if cfg.quick else f"full job estimated at {estimate:.1f} s > 5 s"
        note = f"timed on every {SAMPLE_STRIDE}th board ({sample_n:,}) and extrapolated: {why}"
        return Row(
            key, label, False, None, sample_n, times, unit="boards", full_items=BOARDS, note=note
        )
    times = time_repeats(on_all, cfg.repeats, warm=False)
    return Row(key, label, False, None, BOARDS, times, unit="boards", full_items=BOARDS)


def run(cfg: Config) -> BenchResult:
    """Time exact AsKs vs QdQh with croupier and its peers; see the module docstring."""
    res = BenchResult(NAME, TITLE, ratio_by_time=True)
    got: dict[str, Counts] = {}

    # ---- start-up in a fresh process (warm disk caches: primed by one untimed process)
    fresh_process(["equity"])
    probes = [fresh_process(["equity"]) for _ in range(cfg.repeats)]
    imp = statistics.median(p["import croupier"] for p in probes)
    first = statistics.median(p["equity"] for p in probes)
    wall = statistics.median(p["process wall"] for p in probes)

    # ---- croupier, steady state
    from croupier.equity import equity

    in_process_first = first_call(lambda: equity(["As Ks", "Qd Qh"]))

    def run_croupier() -> None:
        r = equity(["As Ks", "Qd Qh"])
        hero, villain = r.hands
        got["croupier"] = (hero.wins, hero.ties, villain.wins)

    times = time_repeats(run_croupier, cfg.repeats)
    res.rows.append(
        Row(
            "croupier equity()",
            'equity(["As Ks", "Qd Qh"]): exact, every board',
            True,
            1,
            BOARDS,
            times,
            unit="boards",
            full_items=BOARDS,
        )
    )
    steady = res.rows[-1].median
    res.startup += [
        StartupRow("croupier: import croupier (fresh process)", imp, "median of 3 processes"),
        StartupRow(
            "croupier: first equity() call (fresh process)",
            first,
            "numba cache load + table load + one full enumeration",
        ),
        StartupRow("croupier: start-up = import + first call - steady call", imp + first - steady),
        StartupRow("croupier: whole fresh process (interpreter + import + first call)", wall),
        StartupRow(
            "croupier: first equity() in this process",
            in_process_first,
            "other benchmarks may have loaded tables and kernels already",
        ),
    ]

    # ---- phevaluator C loop
    pc = pheval_c()
    hero_a = np.array(HERO, np.int32)
    vill_a = np.array(VILLAIN, np.int32)
    remaining = np.array([c for c in range(52) if c not in HERO + VILLAIN], np.int32)
    res.startup.append(
        StartupRow(
            "phevaluator C loop: numba compile",
            first_call(lambda: pc.holdem_exact(hero_a, vill_a, remaining[:7])),
            "benchmark glue",
        )
    )

    def run_c() -> None:
        w, t, lo = pc.holdem_exact(hero_a, vill_a, remaining)
        got["phevaluator C loop"] = (int(w), int(t), int(lo))

    times = time_repeats(run_c, cfg.repeats)
    res.rows.append(
        Row(
            "phevaluator C loop",
            "numba loop over the boards, C evaluate_7cards() x2",
            False,
            1,
            BOARDS,
            times,
            unit="boards",
            full_items=BOARDS,
        )
    )

    # ---- Python loops
    from phevaluator import _pheval, evaluate_cards

    deck = remaining.tolist()
    res.rows.append(
        _time_python_peer(
            "phevaluator _pheval",
            "Python loop, _pheval.evaluate_7cards(*7 ints) x2 a board",
            lambda boards: _python_loop(
                _pheval.evaluate_7cards, HERO, VILLAIN, boards, lower_is_better=True
            ),
            deck,
            cfg,
            got,
        )
    )
    res.rows.append(
        _time_python_peer(
            "phevaluator evaluate_cards",
            "Python loop, phevaluator.evaluate_cards(*7 ints) x2 a board",
            lambda boards: _python_loop(
                evaluate_cards, HERO, VILLAIN, boards, lower_is_better=True
            ),
            deck,
            cfg,
            got,
        )
    )
    eval7, t_imp = timed_import("eval7")
    res.startup.append(StartupRow("eval7 import", t_imp, "nan = imported earlier"))
    e7 = [eval7.Card(name) for name in CARD_NAMES]
    e7_hero = (e7[HERO[0]], e7[HERO[1]])
    e7_vill = (e7[VILLAIN[0]], e7[VILLAIN[1]])
    res.rows.append(
        _time_python_peer(
            "eval7",
            "Python loop, eval7.evaluate(hole + board) x2 a board",
            lambda boards: _eval7_loop(eval7.evaluate, e7_hero, e7_vill, boards),
            [e7[c] for c in deck],
            cfg,
            got,
        )
    )

    _checks(res, got, pc, hero_a, vill_a, remaining)
    _targets(res, steady, imp + first)
    return res


def _checks(
    res: BenchResult, got: dict[str, Counts], pc: Any, hero: Any, vill: Any, remaining: Any
) -> None:
    exact = got["croupier"]
    res.checks.append(
        Check(
            "croupier == phevaluator C loop (wins, ties, losses)",
            got["phevaluator C loop"] == exact,
            f"croupier {exact}, phevaluator {got['phevaluator C loop']}",
        )
    )
    boards = np.array(
        list(islice(combinations(remaining.tolist(), 5), 0, None, SAMPLE_STRIDE)), np.int32
    )
    w, t, lo = pc.holdem_boards(hero, vill, boards)
    sample = (int(w), int(t), int(lo))
    for key in ("phevaluator _pheval", "phevaluator evaluate_cards", "eval7"):
        if key in got:
            res.checks.append(
                Check(f"{key} == croupier (all boards)", got[key] == exact, str(got[key]))
            )
        if key + " sample" in got:
            res.checks.append(
                Check(
                    f"{key} == phevaluator C on the 10% sample",
                    got[key + " sample"] == sample,
                    str(got[key + " sample"]),
                )
            )
    wins, ties, _ = exact
    res.notes.append(
        f"As Ks equity {(wins + ties / 2) / BOARDS:.6f} "
        f"({wins:,} wins, {ties:,} ties of {BOARDS:,} boards)"
    )


def _targets(res: BenchResult, steady: float, startup: float) -> None:
    res.targets.append(
        Target(
            "croupier exact AsKs vs QdQh, steady state", steady, "<=", 0.1, "s", "excludes start-up"
        )
    )
    res.targets.append(
        Target(
            "croupier start-up: import + first equity() in a fresh process", startup, "<", 2.0, "s"
        )
    )
