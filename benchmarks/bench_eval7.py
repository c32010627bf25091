"""Seven-card evaluation: the same random hands through croupier and every peer.

One array of uniformly random seven-card hands is dealt; croupier's batch
evaluator and phevaluator's C loop run over all of it, the one-call APIs and the
slower peers over its first rows (rates are per hand, so the sizes differ but the
hands are the same). Inputs are converted to each library's card type before the
clock starts; only the evaluation calls (and the Python loop around one-call APIs)
are timed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from benchmarks._harness import (
    CARD_NAMES,
    BenchResult,
    Check,
    Config,
    StartupRow,
    Target,
    first_call,
    kernel_row,
    loop_row,
    numba_threads,
    order_mismatches,
    random_hands,
    timed_import,
)
from benchmarks._pheval_c import pheval_c

__all__ = ["run"]

NAME = "eval7"
TITLE = "seven-card hand evaluation (same random hands for every implementation)"


def run(cfg: Config) -> BenchResult:
    """Measure croupier and its peers on seven-card hands; see the module docstring."""
    from croupier.evaluation import evaluate_batch, rank_cards, rank_indices

    n_batch = cfg.size(4_000_000, 1_000_000)
    n_one = cfg.size(300_000, 60_000)
    n_str = cfg.size(100_000, 20_000)
    n_treys = cfg.size(60_000, 12_000)
    n_pokerkit = cfg.size(3_000, 600)
    threads = numba_threads()
    res = BenchResult(NAME, TITLE)
    hands = random_hands(n_batch, 7, cfg.seed)
    tiny = hands[:64]
    ints = hands[:n_one].tolist()
    got: dict[str, Any] = {}

    # ---- croupier: numpy batch, one thread and every core
    for par, label in ((False, "1 thread"), (True, f"{threads} threads")):
        res.startup.append(
            StartupRow(
                f"croupier evaluate_batch first call, {label}",
                first_call(partial(evaluate_batch, tiny, parallel=par, check=False)),
                "numba cache load (a compile if the cache is stale)",
            )
        )

    def batch1() -> None:
        got["batch 1T"] = evaluate_batch(hands, parallel=False, check=False)

    def batchp() -> None:
        got["batch parallel"] = evaluate_batch(hands, parallel=True, check=False)

    res.rows.append(
        kernel_row(
            "croupier batch 1T",
            "evaluate_batch(cards, parallel=False, check=False)",
            croupier=True,
            threads=1,
            fn=batch1,
            n=n_batch,
            cfg=cfg,
        )
    )
    res.rows.append(
        kernel_row(
            f"croupier batch {threads}T",
            "evaluate_batch(cards, parallel=True, check=False)",
            croupier=True,
            threads=threads,
            fn=batchp,
            n=n_batch,
            cfg=cfg,
        )
    )

    # ---- croupier: one call per hand
    res.startup.append(
        StartupRow(
            "croupier rank_indices first call",
            first_call(lambda: rank_indices(ints[0])),
            "Python-list views of the tables",
        )
    )

    def one_call() -> None:
        got["rank_indices"] = [rank_indices(h) for h in ints]

    res.rows.append(
        loop_row(
            "croupier rank_indices",
            "rank_indices(list_of_7_ints), one call a hand",
            croupier=True,
            fn=one_call,
            warmup=lambda: [rank_indices(h) for h in ints[:100]],
            n=n_one,
            cfg=cfg,
        )
    )
    strings = [" ".join(CARD_NAMES[c] for c in row) for row in ints[:n_str]]

    def by_text() -> None:
        got["rank_cards"] = [rank_cards(s) for s in strings]

    res.rows.append(
        loop_row(
            "croupier rank_cards",
            'rank_cards("As Kd ..."), parses text, one call a hand',
            croupier=True,
            fn=by_text,
            warmup=lambda: [rank_cards(s) for s in strings[:100]],
            n=n_str,
            cfg=cfg,
        )
    )

    # ---- phevaluator: C loop (numba calling the C function), one thread and every core
    _, t_imp = timed_import("phevaluator._pheval")
    res.startup.append(
        StartupRow("phevaluator import", t_imp, "C extension; nan = imported earlier")
    )
    pc = pheval_c()
    ph1 = np.empty(n_batch, np.int32)
    php = np.empty(n_batch, np.int32)
    out_tiny = np.empty(64, np.int32)
    res.startup.append(
        StartupRow(
            "phevaluator C loop: numba compile, 1 thread",
            first_call(lambda: pc.eval7_rows(tiny, out_tiny)),
            "benchmark glue",
        )
    )
    res.startup.append(
        StartupRow(
            f"phevaluator C loop: numba compile, {threads} threads",
            first_call(lambda: pc.eval7_rows_parallel(tiny, out_tiny)),
            "benchmark glue",
        )
    )
    res.rows.append(
        kernel_row(
            "phevaluator C loop 1T",
            "C evaluate_7cards() from _pheval.so, called in a numba loop",
            croupier=False,
            threads=1,
            fn=lambda: pc.eval7_rows(hands, ph1),
            n=n_batch,
            cfg=cfg,
        )
    )
    res.rows.append(
        kernel_row(
            f"phevaluator C loop {threads}T",
            "the same C calls in a numba prange loop",
            croupier=False,
            threads=threads,
            fn=lambda: pc.eval7_rows_parallel(hands, php),
            n=n_batch,
            cfg=cfg,
        )
    )

    # ---- phevaluator from Python
    import phevaluator
    from phevaluator import _pheval

    ev_cards = phevaluator.evaluate_cards
    raw7 = _pheval.evaluate_7cards

    def phe_api() -> None:
        got["phe api"] = [ev_cards(*h) for h in ints]

    def phe_raw() -> None:
        got["phe raw"] = [raw7(*h) for h in ints]

    res.rows.append(
        loop_row(
            "phevaluator evaluate_cards",
            "phevaluator.evaluate_cards(*ints), public API",
            croupier=False,
            fn=phe_api,
            warmup=lambda: [ev_cards(*h) for h in ints[:100]],
            n=n_one,
            cfg=cfg,
        )
    )
    res.rows.append(
        loop_row(
            "phevaluator _pheval",
            "_pheval.evaluate_7cards(*ints), the bare C extension",
            croupier=False,
            fn=phe_raw,
            warmup=lambda: [raw7(*h) for h in ints[:100]],
            n=n_one,
            cfg=cfg,
        )
    )

    # ---- eval7
    eval7, t_imp = timed_import("eval7")
    res.startup.append(StartupRow("eval7 import", t_imp, "nan = imported earlier"))
    e7cards = [eval7.Card(name) for name in CARD_NAMES]
    e7hands = [[e7cards[c] for c in h] for h in ints]
    e7 = eval7.evaluate

    def run_eval7() -> None:
        got["eval7"] = [e7(h) for h in e7hands]

    res.rows.append(
        loop_row(
            "eval7",
            "eval7.evaluate([eval7.Card x 7])",
            croupier=False,
            fn=run_eval7,
            warmup=lambda: [e7(h) for h in e7hands[:100]],
            n=n_one,
            cfg=cfg,
        )
    )

    # ---- treys
    treys, t_imp = timed_import("treys")
    res.startup.append(StartupRow("treys import", t_imp, "nan = imported earlier"))
    evaluator: Any = None

    def make_treys() -> None:
        nonlocal evaluator
        evaluator = treys.Evaluator()

    res.startup.append(StartupRow("treys Evaluator()", first_call(make_treys), "builds its tables"))
    tcards = [treys.Card.new(name) for name in CARD_NAMES]
    tpairs = [([tcards[c] for c in h[:2]], [tcards[c] for c in h[2:]]) for h in ints[:n_treys]]
    tev = evaluator.evaluate

    def run_treys() -> None:
        got["treys"] = [tev(h, b) for h, b in tpairs]

    res.rows.append(
        loop_row(
            "treys",
            "treys.Evaluator().evaluate(hole_ints, board_ints)",
            croupier=False,
            fn=run_treys,
            warmup=lambda: [tev(h, b) for h, b in tpairs[:100]],
            n=n_treys,
            cfg=cfg,
        )
    )

    # ---- pokerkit
    pokerkit, t_imp = timed_import("pokerkit")
    res.startup.append(StartupRow("pokerkit import", t_imp, "nan = imported earlier"))
    pcards = [next(iter(pokerkit.Card.parse(name))) for name in CARD_NAMES]
    ppairs = [
        (tuple(pcards[c] for c in h[:2]), tuple(pcards[c] for c in h[2:]))
        for h in ints[:n_pokerkit]
    ]
    high = pokerkit.StandardHighHand.from_game

    def run_pokerkit() -> None:
        got["pokerkit"] = [high(h, b) for h, b in ppairs]

    res.rows.append(
        loop_row(
            "pokerkit",
            "pokerkit.StandardHighHand.from_game(hole, board)",
            croupier=False,
            fn=run_pokerkit,
            warmup=lambda: [high(h, b) for h, b in ppairs[:20]],
            n=n_pokerkit,
            cfg=cfg,
        )
    )

    _prange_one_thread(res, batchp, n_batch, cfg)
    _checks(res, got["batch 1T"], got["batch parallel"], ph1, php, got)
    _targets(res, threads)
    res.notes.append(
        f"{n_batch:,} random seven-card hands (seed {cfg.seed}); Python-loop peers use "
        "the first rows of the same array"
    )
    return res


def _prange_one_thread(res: BenchResult, batchp: Callable[[], None], n: int, cfg: Config) -> None:
    """Diagnostic: croupier's parallel kernel pinned to one thread (numba.set_num_threads(1))."""
    import numba

    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        row = kernel_row("prange@1T", "", croupier=True, threads=1, fn=batchp, n=n, cfg=cfg)
    finally:
        numba.set_num_threads(threads)
    serial = res.row("croupier batch 1T")
    vs = f" ({row.rate / serial.rate:.2f}x the parallel=False kernel)" if serial else ""
    res.notes.append(
        "diagnostic, not a target: evaluate_batch(parallel=True) with numba.set_num_threads(1) "
        f"runs {row.rate / 1e6:.0f} M hands/s on one thread{vs}"
    )


def _checks(
    res: BenchResult, out1: Any, outp: Any, ph1: Any, php: Any, got: dict[str, Any]
) -> None:
    ours = out1.astype(np.int64)
    res.checks.append(
        Check(
            "croupier batch == 7463 - phevaluator C (all hands)",
            bool(((7463 - ph1) == ours).all() and ((7463 - php) == ours).all()),
            f"{len(ours):,} hands",
        )
    )
    res.checks.append(
        Check("croupier parallel batch == one-thread batch", bool((outp == out1).all()))
    )
    for key in ("rank_indices", "rank_cards"):
        vals = np.asarray(got[key], np.int64)
        res.checks.append(
            Check(
                f"croupier {key} == batch",
                bool((vals == ours[: len(vals)]).all()),
                f"{len(vals):,} hands",
            )
        )
    for key in ("phe api", "phe raw"):
        vals = np.asarray(got[key], np.int64)
        res.checks.append(
            Check(
                f"phevaluator from Python ({key}) == its C loop",
                bool((vals == ph1[: len(vals)]).all()),
            )
        )
    tv = np.asarray(got["treys"], np.int64)
    res.checks.append(
        Check(
            "croupier == 7463 - treys",
            bool(((7463 - tv) == ours[: len(tv)]).all()),
            f"{len(tv):,} hands",
        )
    )
    e7 = got["eval7"]
    bad = order_mismatches(ours[: len(e7)].tolist(), lambda i, j: bool(e7[i] < e7[j]))
    res.checks.append(
        Check(
            "eval7 orders the hands as croupier does",
            bad == 0,
            f"{len(e7):,} hands, {bad} disagreements",
        )
    )
    pk = got["pokerkit"]
    bad = order_mismatches(ours[: len(pk)].tolist(), lambda i, j: bool(pk[i] < pk[j]))
    res.checks.append(
        Check(
            "pokerkit orders the hands as croupier does",
            bad == 0,
            f"{len(pk):,} hands, {bad} disagreements",
        )
    )


def _targets(res: BenchResult, threads: int) -> None:
    def rate(key: str) -> float:
        row = res.row(key)
        return row.rate if row else float("nan")

    one, par = rate("croupier batch 1T"), rate(f"croupier batch {threads}T")
    res.targets.append(
        Target("croupier batch seven-card, 1 thread", one / 1e6, ">=", 30, "M hands/s")
    )
    res.targets.append(
        Target(
            "croupier batch / phevaluator C loop, both 1 thread",
            one / rate("phevaluator C loop 1T"),
            ">=",
            0.9,
            "x",
        )
    )
    res.targets.append(
        Target(
            f"croupier batch / phevaluator C loop, both {threads} threads",
            par / rate(f"phevaluator C loop {threads}T"),
            ">=",
            0.9,
            "x",
        )
    )
    res.targets.append(
        Target(
            "croupier one-call (rank_indices) / treys, both one call a hand on pre-converted ints",
            rate("croupier rank_indices") / rate("treys"),
            ">=",
            5,
            "x",
            f"rank_cards on text: {rate('croupier rank_cards') / rate('treys'):.1f}x treys (info)",
        )
    )
