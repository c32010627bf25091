"""Exact preflop equity: croupier's :func:`~croupier.equity.equity` against peers that
enumerate the same boards one by one.

Each scenario is timed as alternating pairs (croupier, peer, croupier, peer ...), the
figure is the time of the whole job (every board), and the win and tie counts of every
hand are cross-checked against the peer's:

* **heads-up** As Ks vs Qd Qh, all 1,712,304 boards, against phevaluator's C
  ``evaluate_7cards`` called twice a board from a numba loop (target: croupier <= 5 ms);
  and, for information, against Python loops calling ``_pheval.evaluate_7cards``,
  ``phevaluator.evaluate_cards`` and ``eval7.evaluate`` twice a board. Those are timed on
  a 10% sample (every tenth board in enumeration order) and their job time is
  extrapolated ("est."); their counts on the sample are checked against the C loop's.
  eval7's ``py_hand_vs_range_exact`` is not used: it scores only the board it is given.
* **three-way** As Ks, Qd Qh, Jc Tc and **four-way** (+ 7h 7d): against the C loop
  scoring every hand on every board.
* **Omaha heads-up** As Ks Qh Jh vs Td 9d 8c 7c, all 1,086,008 boards, against
  phevaluator's C ``evaluate_omaha_cards`` loop (target: croupier <= 1 s).

croupier's first call in a **fresh process** (import, numba cache and table load, one
enumeration) is reported as start-up, never in a figure.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from itertools import combinations, islice
from math import comb
from typing import Any, Final

import numpy as np

from benchmarks._harness import (
    CARD_NAMES,
    BenchResult,
    Check,
    Comparison,
    Config,
    Side,
    StartupRow,
    Target,
    first_call,
    fresh_process,
    timed_import,
)
from benchmarks._pheval_c import pheval_c
from benchmarks._timing import compare, rounds

__all__ = ["run"]

NAME = "equity"
TITLE = "exact preflop equity: heads-up, three-way, four-way Hold'em and heads-up Omaha"

HEADS_UP: Final = ("As Ks", "Qd Qh")
THREE_WAY: Final = ("As Ks", "Qd Qh", "Jc Tc")
FOUR_WAY: Final = ("As Ks", "Qd Qh", "Jc Tc", "7h 7d")
OMAHA: Final = ("As Ks Qh Jh", "Td 9d 8c 7c")
SAMPLE_STRIDE: Final = 10
TARGET_HEADS_UP_S: Final = 0.005
TARGET_OMAHA_S: Final = 1.0

Counts = tuple[int, int, int]  # hero wins, ties, hero losses
PerHand = list[tuple[int, int, float]]  # each hand's (wins, ties, equity)


def _indices(hands: Sequence[str]) -> list[list[int]]:
    from croupier.cards import parse_cards

    return [[c.index for c in parse_cards(h)] for h in hands]


def _remaining(holes: Sequence[Sequence[int]]) -> list[int]:
    used = {c for h in holes for c in h}
    return [c for c in range(52) if c not in used]


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


def _croupier_side(
    key: str, hands: Sequence[str], game: str, got: dict[str, Any], boards: int
) -> Side:
    from croupier.equity import equity

    def job() -> None:
        r = equity(list(hands), game=game)
        got[key] = [(h.wins, h.ties, float(h.equity)) for h in r.hands]

    return Side(
        f"croupier {key}",
        f"equity({list(hands)!r}{', game=' + repr(game) if game != 'holdem' else ''}): "
        "exact, every board",
        job,
        boards,
        unit="boards",
        job=boards,
    )


def _c_side(key: str, holes: Any, remaining: Any, omaha: bool, got: dict[str, Any]) -> Side:
    pc = pheval_c()
    loop = pc.omaha_multi if omaha else pc.holdem_multi
    boards = comb(len(remaining), 5)

    def job() -> None:
        wins, ties, shares = loop(holes, remaining)
        got[f"phevaluator C loop, {key}"] = [
            (int(w), int(t), (int(w) + float(s)) / boards)
            for w, t, s in zip(wins, ties, shares, strict=True)
        ]

    what = "evaluate_omaha_cards()" if omaha else "evaluate_7cards()"
    return Side(
        f"phevaluator C loop, {key}",
        f"numba loop over the boards, C {what} once a hand a board, scoring wins and ties",
        job,
        boards,
        unit="boards",
        croupier=False,
        job=boards,
    )


def _same(ours: PerHand, theirs: PerHand) -> bool:
    return len(ours) == len(theirs) and all(
        a[0] == b[0] and a[1] == b[1] and abs(a[2] - b[2]) < 1e-9
        for a, b in zip(ours, theirs, strict=True)
    )


def run(cfg: Config) -> BenchResult:
    """Time croupier's exact equity against the C loops; see the module docstring."""
    res = BenchResult(NAME, TITLE)
    got: dict[str, Any] = {}
    _startup(res, cfg)
    heads_up = _heads_up(res, cfg, got)
    pc = pheval_c()
    for key, hands, game in (
        ("three-way", THREE_WAY, "holdem"),
        ("four-way", FOUR_WAY, "holdem"),
        ("Omaha heads-up", OMAHA, "omaha"),
    ):
        holes = np.array(_indices(hands), np.int32)
        remaining = np.array(_remaining(holes.tolist()), np.int32)
        boards = comb(len(remaining), 5)
        loop = pc.omaha_multi if game == "omaha" else pc.holdem_multi
        res.startup.append(
            StartupRow(
                f"phevaluator C loop {key}: numba compile",
                first_call(partial(loop, holes, remaining[:6])),
                "benchmark glue",
            )
        )
        c = compare(
            _croupier_side(key, hands, game, got, boards),
            _c_side(key, holes, remaining, game == "omaha", got),
            cfg,
        )
        res.comparisons.append(c)
        ours, theirs = got[key], got[f"phevaluator C loop, {key}"]
        res.checks.append(
            Check(
                f"{key} {' / '.join(hands)}: croupier == phevaluator C loop (each hand's wins, "
                "ties, equity)",
                _same(ours, theirs),
                "; ".join(f"{w:,} {t:,} {e:.6f}" for w, t, e in ours),
            )
        )
        if game == "omaha":
            res.targets.append(
                Target.over(
                    f"croupier exact Omaha {' vs '.join(hands)}, preflop, steady state",
                    c.a.job_seconds,
                    "<=",
                    TARGET_OMAHA_S,
                    "s",
                    f"all {boards:,} boards",
                )
            )
    res.targets.insert(
        0,
        Target.over(
            "croupier exact As Ks vs Qd Qh, steady state",
            heads_up.a.job_seconds,
            "<=",
            TARGET_HEADS_UP_S,
            "s",
            f"all {comb(48, 5):,} boards; excludes start-up",
        ),
    )
    return res


def _startup(res: BenchResult, cfg: Config) -> None:
    """croupier's first equity() in fresh processes (warm disk caches, primed untimed)."""
    from croupier.equity import equity

    fresh_process(["equity"])
    probes = [fresh_process(["equity"]) for _ in range(3)]
    imp = statistics.median(p["import croupier"] for p in probes)
    first = statistics.median(p["equity"] for p in probes)
    wall = statistics.median(p["process wall"] for p in probes)
    res.startup += [
        StartupRow("croupier: import croupier (fresh process)", imp, "median of 3 processes"),
        StartupRow(
            "croupier: first equity() As Ks vs Qd Qh (fresh process)",
            first,
            "numba cache load + table load + one full enumeration",
        ),
        StartupRow("croupier: whole fresh process (interpreter + import + first call)", wall),
        StartupRow(
            "croupier: first equity() in this process",
            first_call(lambda: equity(list(HEADS_UP))),
            "other benchmarks may have loaded tables and kernels already",
        ),
    ]


def _heads_up(res: BenchResult, cfg: Config, got: dict[str, Any]) -> Comparison:
    """As Ks vs Qd Qh: the C loop (target pair), then the Python loops on a sample."""
    from phevaluator import _pheval, evaluate_cards

    pc = pheval_c()
    hero, vill = (tuple(h) for h in _indices(HEADS_UP))
    hero_a, vill_a = np.array(hero, np.int32), np.array(vill, np.int32)
    remaining = np.array(_remaining([hero, vill]), np.int32)
    boards = comb(len(remaining), 5)
    res.startup.append(
        StartupRow(
            "phevaluator C loop heads-up: numba compile",
            first_call(lambda: pc.holdem_exact(hero_a, vill_a, remaining[:7])),
            "benchmark glue",
        )
    )
    croupier = _croupier_side("heads-up", HEADS_UP, "holdem", got, boards)

    def c_job() -> None:
        w, t, lo = pc.holdem_exact(hero_a, vill_a, remaining)
        got["C heads-up"] = (int(w), int(t), int(lo))

    c_side = Side(
        "phevaluator C loop, heads-up",
        "numba loop over the boards, C evaluate_7cards() x2 a board",
        c_job,
        boards,
        unit="boards",
        croupier=False,
        job=boards,
    )
    target = compare(croupier, c_side, cfg, note="the target figure (croupier <= 5 ms)")
    res.comparisons.append(target)
    (w, t, share), (villain_wins, _, _) = got["heads-up"]
    exact = (w, t, villain_wins)
    res.checks.append(
        Check(
            "heads-up: croupier == phevaluator C loop (wins, ties, losses)",
            got["C heads-up"] == exact,
            f"croupier {exact}, phevaluator {got['C heads-up']}",
        )
    )
    res.notes.append(f"As Ks equity {share:.6f} ({w:,} wins, {t:,} ties of {boards:,} boards)")

    # ---- Python loops, on every tenth board
    deck = remaining.tolist()
    sample = list(islice(combinations(deck, 5), 0, None, SAMPLE_STRIDE))
    eval7, t_imp = timed_import("eval7")
    res.startup.append(StartupRow("eval7 import", t_imp, "nan = imported earlier"))
    e7 = [eval7.Card(name) for name in CARD_NAMES]
    e7_hero, e7_vill = (e7[hero[0]], e7[hero[1]]), (e7[vill[0]], e7[vill[1]])
    e7_sample = [tuple(e7[c] for c in b) for b in sample]

    def put(key: str, value: Counts) -> None:
        got[key] = value

    def sampled(key: str, label: str, fn: Callable[[], None]) -> Side:
        return Side(
            key,
            label + f", on every {SAMPLE_STRIDE}th board",
            fn,
            len(sample),
            unit="boards",
            croupier=False,
            threads=None,
            job=boards,
        )

    sides = [
        croupier,
        sampled(
            "phevaluator _pheval",
            "Python loop, _pheval.evaluate_7cards(*7 ints) x2 a board",
            lambda: put(
                "_pheval",
                _python_loop(_pheval.evaluate_7cards, hero, vill, sample, lower_is_better=True),
            ),
        ),
        sampled(
            "phevaluator evaluate_cards",
            "Python loop, phevaluator.evaluate_cards(*7 ints) x2 a board",
            lambda: put(
                "evaluate_cards",
                _python_loop(evaluate_cards, hero, vill, sample, lower_is_better=True),
            ),
        ),
        sampled(
            "eval7",
            "Python loop, eval7.evaluate(hole + board) x2 a board",
            lambda: put("eval7", _eval7_loop(eval7.evaluate, e7_hero, e7_vill, e7_sample)),
        ),
    ]
    ours, *peers = rounds(sides, cfg.pairs, cfg.min_seconds)
    note = "information: the peer's job time is extrapolated from a 10% sample"
    res.comparisons += [Comparison(ours, p, note) for p in peers]
    w, t, lo = pc.holdem_boards(hero_a, vill_a, np.array(sample, np.int32))
    on_sample = (int(w), int(t), int(lo))
    for key in ("_pheval", "evaluate_cards", "eval7"):
        res.checks.append(
            Check(
                f"heads-up: {key} loop == phevaluator C on the 10% sample",
                got[key] == on_sample,
                str(got[key]),
            )
        )
    return target
