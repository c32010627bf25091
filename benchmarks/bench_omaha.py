"""Omaha evaluation: exactly two of four hole cards with exactly three of five board cards.

One array of random nine-card deals (five board cards, four hole cards) goes
through croupier's batch evaluator and phevaluator's C ``evaluate_omaha_cards`` in a
numba loop; the one-call APIs and PokerKit take the first rows of the same array.
"""

from __future__ import annotations

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

NAME = "omaha"
TITLE = "Omaha hand evaluation, 4 hole + 5 board cards (same random deals for everyone)"


def run(cfg: Config) -> BenchResult:
    """Measure croupier and its peers on Omaha hands; see the module docstring."""
    from croupier.evaluation import evaluate_omaha, evaluate_omaha_batch

    n_batch = cfg.size(1_000_000, 250_000)
    n_py = cfg.size(200_000, 40_000)
    n_one = cfg.size(20_000, 4_000)
    n_pokerkit = cfg.size(1_000, 200)
    threads = numba_threads()
    res = BenchResult(NAME, TITLE)
    deals = random_hands(n_batch, 9, cfg.seed + 1)
    board = np.ascontiguousarray(deals[:, :5])
    hole = np.ascontiguousarray(deals[:, 5:])
    rows = deals[:n_py].tolist()
    got: dict[str, Any] = {}

    # ---- croupier batch
    for par, label in ((False, "1 thread"), (True, f"{threads} threads")):
        res.startup.append(
            StartupRow(
                f"croupier evaluate_omaha_batch first call, {label}",
                first_call(
                    partial(evaluate_omaha_batch, hole[:64], board[:64], parallel=par, check=False)
                ),
                "numba cache load (a compile if the cache is stale)",
            )
        )

    def batch1() -> None:
        got["batch 1T"] = evaluate_omaha_batch(hole, board, parallel=False, check=False)

    def batchp() -> None:
        got["batch parallel"] = evaluate_omaha_batch(hole, board, parallel=True, check=False)

    res.rows.append(
        kernel_row(
            "croupier batch 1T",
            "evaluate_omaha_batch(hole, board, parallel=False, check=False)",
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
            "evaluate_omaha_batch(hole, board, parallel=True, check=False)",
            croupier=True,
            threads=threads,
            fn=batchp,
            n=n_batch,
            cfg=cfg,
        )
    )

    # ---- croupier one call a hand (text in, HandValue out)
    texts = [
        (" ".join(CARD_NAMES[c] for c in r[5:]), " ".join(CARD_NAMES[c] for c in r[:5]))
        for r in rows[:n_one]
    ]

    def one_call() -> None:
        got["one-call"] = [evaluate_omaha(h, b).rank for h, b in texts]

    res.rows.append(
        loop_row(
            "croupier evaluate_omaha",
            'evaluate_omaha("As Kd ..", "Qh Js ..").rank: parses text, returns a HandValue',
            croupier=True,
            fn=one_call,
            warmup=lambda: [evaluate_omaha(h, b) for h, b in texts[:50]],
            n=n_one,
            cfg=cfg,
        )
    )

    # ---- phevaluator C loop
    pc = pheval_c()
    ph1 = np.empty(n_batch, np.int32)
    php = np.empty(n_batch, np.int32)
    out_tiny = np.empty(64, np.int32)
    res.startup.append(
        StartupRow(
            "phevaluator C loop: numba compile, 1 thread",
            first_call(lambda: pc.omaha_rows(board[:64], hole[:64], out_tiny)),
            "benchmark glue",
        )
    )
    res.startup.append(
        StartupRow(
            f"phevaluator C loop: numba compile, {threads} threads",
            first_call(lambda: pc.omaha_rows_parallel(board[:64], hole[:64], out_tiny)),
            "benchmark glue",
        )
    )
    res.rows.append(
        kernel_row(
            "phevaluator C loop 1T",
            "C evaluate_omaha_cards() from _pheval.so, called in a numba loop",
            croupier=False,
            threads=1,
            fn=lambda: pc.omaha_rows(board, hole, ph1),
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
            fn=lambda: pc.omaha_rows_parallel(board, hole, php),
            n=n_batch,
            cfg=cfg,
        )
    )

    # ---- phevaluator from Python
    import phevaluator
    from phevaluator import _pheval

    api = phevaluator.evaluate_omaha_cards
    raw = _pheval.evaluate_omaha_cards

    def phe_api() -> None:
        got["phe api"] = [api(*r) for r in rows]

    def phe_raw() -> None:
        got["phe raw"] = [raw(*r) for r in rows]

    res.rows.append(
        loop_row(
            "phevaluator evaluate_omaha_cards",
            "phevaluator.evaluate_omaha_cards(*board, *hole), public API",
            croupier=False,
            fn=phe_api,
            warmup=lambda: [api(*r) for r in rows[:100]],
            n=n_py,
            cfg=cfg,
        )
    )
    res.rows.append(
        loop_row(
            "phevaluator _pheval",
            "_pheval.evaluate_omaha_cards(*board, *hole), the bare C extension",
            croupier=False,
            fn=phe_raw,
            warmup=lambda: [raw(*r) for r in rows[:100]],
            n=n_py,
            cfg=cfg,
        )
    )

    # ---- pokerkit
    pokerkit, t_imp = timed_import("pokerkit")
    res.startup.append(StartupRow("pokerkit import", t_imp, "nan = imported earlier"))
    pcards = [next(iter(pokerkit.Card.parse(name))) for name in CARD_NAMES]
    ppairs = [
        (tuple(pcards[c] for c in r[5:]), tuple(pcards[c] for c in r[:5]))
        for r in rows[:n_pokerkit]
    ]
    omaha = pokerkit.OmahaHoldemHand.from_game

    def run_pokerkit() -> None:
        got["pokerkit"] = [omaha(h, b) for h, b in ppairs]

    res.rows.append(
        loop_row(
            "pokerkit",
            "pokerkit.OmahaHoldemHand.from_game(hole, board)",
            croupier=False,
            fn=run_pokerkit,
            warmup=lambda: [omaha(h, b) for h, b in ppairs[:20]],
            n=n_pokerkit,
            cfg=cfg,
        )
    )

    _checks(res, got["batch 1T"], got["batch parallel"], ph1, php, got)
    _targets(res, threads)
    res.notes.append(
        f"{n_batch:,} random Omaha deals (seed {cfg.seed + 1}); Python-loop rows use the first rows"
    )
    return res


def _checks(
    res: BenchResult, out1: Any, outp: Any, ph1: Any, php: Any, got: dict[str, Any]
) -> None:
    ours = out1.astype(np.int64)
    res.checks.append(
        Check(
            "croupier Omaha batch == 7463 - phevaluator C (all deals)",
            bool(((7463 - ph1) == ours).all() and ((7463 - php) == ours).all()),
            f"{len(ours):,} deals",
        )
    )
    res.checks.append(
        Check("croupier parallel Omaha batch == one-thread batch", bool((outp == out1).all()))
    )
    one = np.asarray(got["one-call"], np.int64)
    res.checks.append(
        Check("croupier evaluate_omaha == batch", bool((one == ours[: len(one)]).all()))
    )
    for key in ("phe api", "phe raw"):
        vals = np.asarray(got[key], np.int64)
        res.checks.append(
            Check(
                f"phevaluator from Python ({key}) == its C loop",
                bool((vals == ph1[: len(vals)]).all()),
            )
        )
    pk = got["pokerkit"]
    bad = order_mismatches(ours[: len(pk)].tolist(), lambda i, j: bool(pk[i] < pk[j]))
    res.checks.append(
        Check(
            "pokerkit orders the Omaha hands as croupier does",
            bad == 0,
            f"{len(pk):,} deals, {bad} disagreements",
        )
    )


def _targets(res: BenchResult, threads: int) -> None:
    def rate(key: str) -> float:
        row = res.row(key)
        return row.rate if row else float("nan")

    res.targets.append(
        Target(
            "croupier Omaha batch / phevaluator C loop, both 1 thread",
            rate("croupier batch 1T") / rate("phevaluator C loop 1T"),
            ">=",
            2,
            "x",
        )
    )
    res.targets.append(
        Target(
            f"croupier Omaha batch / phevaluator C loop, both {threads} threads",
            rate(f"croupier batch {threads}T") / rate(f"phevaluator C loop {threads}T"),
            ">=",
            2,
            "x",
        )
    )
