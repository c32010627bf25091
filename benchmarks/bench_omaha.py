"""Omaha evaluation: exactly two of four hole cards with exactly three of five board cards.

One array of random nine-card deals (five board cards, four hole cards) goes through
croupier's batch evaluator and phevaluator's C ``evaluate_omaha_cards`` in a numba loop;
the one-call APIs and PokerKit take the first rows of the same array. Three sets of
alternating rounds: the kernels on one thread (the target: croupier's batch at least 2x
the C loop), on every core (information), and the one-call APIs from Python
(information). The Omaha table's size is read from ``omaha_tables_for(STANDARD)``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

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
    order_mismatches,
    random_hands,
    timed_import,
)
from benchmarks._machine import memory_lines, numba_threads
from benchmarks._pheval_c import pheval_c
from benchmarks._timing import rounds

__all__ = ["run"]

NAME = "omaha"
TITLE = "Omaha hand evaluation, 4 hole + 5 board cards (same random deals for everyone)"


def run(cfg: Config) -> BenchResult:
    """Measure croupier and its peers on Omaha hands; see the module docstring."""
    from croupier.evaluation import STANDARD, evaluate_omaha_batch
    from croupier.evaluation.omaha_table import omaha_tables_for

    n_batch = cfg.size(1_000_000, 250_000)
    threads = numba_threads()
    res = BenchResult(NAME, TITLE)
    deals = random_hands(n_batch, 9, cfg.seed + 1)
    board = np.ascontiguousarray(deals[:, :5])
    hole = np.ascontiguousarray(deals[:, 5:])
    got: dict[str, Any] = {}
    pc = pheval_c()
    out_tiny = np.empty(64, np.int32)

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
    for label, fn in (("1 thread", pc.omaha_rows), (f"{threads} threads", pc.omaha_rows_parallel)):
        res.startup.append(
            StartupRow(
                f"phevaluator C loop: numba compile, {label}",
                first_call(partial(fn, board[:64], hole[:64], out_tiny)),
                "benchmark glue",
            )
        )

    def put(key: str, value: object) -> None:
        got[key] = value

    ph1 = np.empty(n_batch, np.int32)
    php = np.empty(n_batch, np.int32)
    one_thread = [
        Side(
            "batch 1T check=False",
            "evaluate_omaha_batch(hole, board, parallel=False, check=False)",
            lambda: put("batch 1T", evaluate_omaha_batch(hole, board, parallel=False, check=False)),
            n_batch,
        ),
        Side(
            "phevaluator C loop 1T",
            "C evaluate_omaha_cards() from _pheval.so, called in a numba loop",
            lambda: pc.omaha_rows(board, hole, ph1),
            n_batch,
            croupier=False,
        ),
        Side(
            "batch 1T (default call)",
            "evaluate_omaha_batch(hole, board, parallel=False): input validation on",
            lambda: put("batch checked", evaluate_omaha_batch(hole, board, parallel=False)),
            n_batch,
        ),
    ]
    fast, c1, checked = rounds(one_thread, cfg.pairs, cfg.min_seconds)
    target = Comparison(fast, c1, "the target figure (as before: check=False, one thread)")
    res.comparisons += [
        target,
        Comparison(checked, c1, "information: with input validation"),
    ]
    all_cores = [
        Side(
            f"batch {threads}T check=False",
            "evaluate_omaha_batch(hole, board, parallel=True, check=False)",
            lambda: put(
                "batch parallel", evaluate_omaha_batch(hole, board, parallel=True, check=False)
            ),
            n_batch,
            threads=threads,
        ),
        Side(
            f"phevaluator C loop {threads}T",
            "the same C calls in a numba prange loop",
            lambda: pc.omaha_rows_parallel(board, hole, php),
            n_batch,
            croupier=False,
            threads=threads,
        ),
    ]
    fast_p, cp = rounds(all_cores, cfg.pairs, cfg.min_seconds)
    res.comparisons.append(Comparison(fast_p, cp, f"information: {threads} threads"))

    _one_call(res, cfg, deals, got)
    lines, _ = memory_lines(
        "croupier Omaha table, omaha_tables_for(STANDARD)", omaha_tables_for(STANDARD)
    )
    res.info += lines
    _checks(res, got, ph1, php)
    res.targets.append(
        Target.over(
            "croupier Omaha batch / phevaluator C loop, both 1 thread",
            target.ratios,
            ">=",
            2,
            "x",
            "check=False",
        )
    )
    res.notes.append(
        f"{n_batch:,} random Omaha deals (seed {cfg.seed + 1}); Python-loop rows use the first rows"
    )
    return res


def _one_call(res: BenchResult, cfg: Config, deals: Any, got: dict[str, Any]) -> None:
    import phevaluator
    from phevaluator import _pheval

    from croupier.evaluation import evaluate_omaha, rank_omaha_indices

    n_py = cfg.size(100_000, 20_000)
    n_one = cfg.size(5_000, 2_000)
    n_pokerkit = cfg.size(300, 100)
    rows = deals[:n_py].tolist()
    texts = [
        (" ".join(CARD_NAMES[c] for c in r[5:]), " ".join(CARD_NAMES[c] for c in r[:5]))
        for r in rows[:n_one]
    ]
    api, raw = phevaluator.evaluate_omaha_cards, _pheval.evaluate_omaha_cards
    split = [(r[5:], r[:5]) for r in rows]  # (hole, board), as lists of ints, before the clock
    rank_omaha_indices(*split[0])  # first call: loads the Omaha table (start-up)
    pokerkit, t_imp = timed_import("pokerkit")
    res.startup.append(StartupRow("pokerkit import", t_imp, "nan = imported earlier"))
    pcards = [next(iter(pokerkit.Card.parse(name))) for name in CARD_NAMES]
    ppairs = [
        (tuple(pcards[c] for c in r[5:]), tuple(pcards[c] for c in r[:5]))
        for r in rows[:n_pokerkit]
    ]
    omaha = pokerkit.OmahaHoldemHand.from_game

    def put(key: str, value: object) -> None:
        got[key] = value

    sides = [
        Side(
            "rank_omaha_indices",
            "rank_omaha_indices(hole, board): one call a hand, card indices, checked",
            lambda: put("one-call ints", [rank_omaha_indices(h, b) for h, b in split]),
            n_py,
            threads=None,
        ),
        Side(
            "evaluate_omaha (text)",
            'evaluate_omaha("As Kd ..", "Qh Js ..").rank: parses text, returns a HandValue',
            lambda: put("one-call", [evaluate_omaha(h, b).rank for h, b in texts]),
            n_one,
            threads=None,
        ),
        Side(
            "phevaluator evaluate_omaha_cards",
            "phevaluator.evaluate_omaha_cards(*board, *hole), public API, ints",
            lambda: put("phe api", [api(*r) for r in rows]),
            n_py,
            croupier=False,
            threads=None,
        ),
        Side(
            "phevaluator _pheval",
            "_pheval.evaluate_omaha_cards(*board, *hole), the bare C extension, ints",
            lambda: put("phe raw", [raw(*r) for r in rows]),
            n_py,
            croupier=False,
            threads=None,
        ),
        Side(
            "pokerkit",
            "pokerkit.OmahaHoldemHand.from_game(hole, board), cards converted before the clock",
            lambda: put("pokerkit", [omaha(h, b) for h, b in ppairs]),
            n_pokerkit,
            croupier=False,
            threads=None,
        ),
    ]
    ints, text, phe_api, phe_raw, pk = rounds(sides, cfg.pairs, cfg.min_seconds)
    note = "information: croupier parses text, the phevaluator rows take ints"
    one_call = Comparison(ints, phe_api, "the target figure: one call a hand, ints both sides")
    res.comparisons += [
        one_call,
        Comparison(ints, phe_raw, "information: against the bare C extension"),
        Comparison(text, phe_api, note),
        Comparison(text, phe_raw, note),
        Comparison(text, pk),
    ]
    res.targets.append(
        Target.over(
            "croupier one-call rank_omaha_indices / phevaluator.evaluate_omaha_cards",
            one_call.ratios,
            ">=",
            1.0,
            "x",
            "card indices both sides, from Python",
        )
    )


def _checks(res: BenchResult, got: dict[str, Any], ph1: Any, php: Any) -> None:
    ours = got["batch 1T"].astype(np.int64)
    res.checks.append(
        Check(
            "croupier Omaha batch == 7463 - phevaluator C (all deals)",
            bool(((7463 - ph1) == ours).all() and ((7463 - php) == ours).all()),
            f"{len(ours):,} deals",
        )
    )
    same = all(bool((got[k] == got["batch 1T"]).all()) for k in ("batch checked", "batch parallel"))
    res.checks.append(Check("croupier: every Omaha batch call gives the same ranks", same))
    ints = np.asarray(got["one-call ints"], np.int64)
    res.checks.append(
        Check(
            "croupier rank_omaha_indices == batch",
            bool((ints == ours[: len(ints)]).all()),
            f"{len(ints):,} deals",
        )
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
