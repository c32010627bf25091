"""Seven-card evaluation: the same random hands through croupier and every peer.

One array of uniformly random seven-card hands is dealt; croupier's batch evaluator
and phevaluator's C loop run over all of it, the one-call APIs and the slower peers
over its first rows (rates are per hand, so the sizes differ but the hands are the
same). Inputs are converted to each library's card type before the clock starts, except
for ``rank_cards``, which is timed on text and parses it. Every figure comes from
rounds in which the sides take turns (see :mod:`benchmarks._timing`):

1. the batch kernels on one thread: the default call ``evaluate_batch(cards,
   parallel=False)`` (input validation on), the same with ``check=False``, phevaluator's
   C loop, and two diagnostics (a small working set that stays in cache; the parallel
   kernel pinned to one thread);
2. the same on every core (information only);
3. the one-call APIs from a Python loop: ``rank_indices``, ``rank_cards`` (text),
   eval7, treys, phevaluator from Python, PokerKit.

The lookup tables' sizes are read from ``tables_for(STANDARD)`` (every numpy array of
the :class:`~croupier.evaluation.tables.RankTables`), with the cache level they fit in.
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

NAME = "eval7"
TITLE = "seven-card hand evaluation (same random hands for every implementation)"
POOL = 4096
"""Distinct hands in the cache diagnostic's working set."""


def run(cfg: Config) -> BenchResult:
    """Measure croupier and its peers on seven-card hands; see the module docstring."""
    from croupier.evaluation import STANDARD, evaluate_batch, tables_for

    n_batch = cfg.size(2_000_000, 500_000)
    threads = numba_threads()
    res = BenchResult(NAME, TITLE)
    hands = random_hands(n_batch, 7, cfg.seed)
    got: dict[str, Any] = {}
    tiny = hands[:64]

    # ---- start-up (first calls), not in any rate
    for par, label in ((False, "1 thread"), (True, f"{threads} threads")):
        res.startup.append(
            StartupRow(
                f"croupier evaluate_batch first call, {label}",
                first_call(partial(evaluate_batch, tiny, parallel=par, check=False)),
                "numba cache load (a compile if the cache is stale)",
            )
        )
    _, t_imp = timed_import("phevaluator._pheval")
    res.startup.append(
        StartupRow("phevaluator import", t_imp, "C extension; nan = imported earlier")
    )
    pc = pheval_c()
    out_tiny = np.empty(64, np.int32)
    for label, fn in (
        ("1 thread", pc.eval7_rows),
        (f"{threads} threads", pc.eval7_rows_parallel),
    ):
        res.startup.append(
            StartupRow(
                f"phevaluator C loop: numba compile, {label}",
                first_call(partial(fn, tiny, out_tiny)),
                "benchmark glue",
            )
        )

    _kernels_one_thread(res, cfg, hands, got)
    _int64_rows(res, cfg, hands, got)
    _kernels_all_cores(res, cfg, hands, got, threads)
    _one_call(res, cfg, hands, got)

    lines, _ = memory_lines(
        "croupier seven-card tables, tables_for(STANDARD)", tables_for(STANDARD)
    )
    res.info += lines
    _checks(res, hands, got)
    _targets(res)
    res.notes.append(
        f"{n_batch:,} random seven-card hands (seed {cfg.seed}); Python-loop peers use "
        "the first rows of the same array"
    )
    return res


def _kernels_one_thread(res: BenchResult, cfg: Config, hands: Any, got: dict[str, Any]) -> None:
    import numba

    from croupier.evaluation import evaluate_batch

    n = len(hands)
    pool = hands[:POOL]
    draw = np.random.default_rng(cfg.seed).integers(0, POOL, n)
    small = np.ascontiguousarray(pool[draw])
    ph1 = np.empty(n, np.int32)
    got["phevaluator C 1T"] = ph1
    pc = pheval_c()

    def checked() -> None:
        got["batch checked 1T"] = evaluate_batch(hands, parallel=False)

    def unchecked() -> None:
        got["batch 1T"] = evaluate_batch(hands, parallel=False, check=False)

    def in_cache() -> None:
        got["small set"] = evaluate_batch(small, parallel=False, check=False)

    def big_table() -> None:
        from croupier.evaluation import STANDARD, kernels, tables_for

        t = tables_for(STANDARD)
        out = np.empty(hands.shape[0], np.uint16)
        kernels.eval_any_rows(
            hands, t.card_key7, t.card_key5, t.card_suit_mask, t.nonflush7, t.nonflush5,
            t.flush, out,
        )  # fmt: skip
        got["16 MB table"] = out

    def prange_one() -> None:
        before = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            got["prange@1T"] = evaluate_batch(hands, parallel=True, check=False)
        finally:
            numba.set_num_threads(before)

    sides = [
        Side(
            "batch 1T (default call)",
            "evaluate_batch(cards, parallel=False): input validation on (the default)",
            checked,
            n,
        ),
        Side(
            "phevaluator C loop 1T",
            "C evaluate_7cards() from _pheval.so, called in a numba loop",
            lambda: pc.eval7_rows(hands, ph1),
            n,
            croupier=False,
        ),
        Side(
            "batch 1T check=False",
            "evaluate_batch(cards, parallel=False, check=False)",
            unchecked,
            n,
        ),
        Side(
            "batch 1T, small set",
            f"the same call on {n:,} hands drawn at random from {POOL:,} distinct hands "
            "(a working set that stays in cache)",
            in_cache,
            n,
        ),
        Side(
            "batch 1T, 16 MB table",
            "the same hands through the direct 16 MB non-flush table (one read a hand, "
            "indexed by the rank sum; no check): the layout when the table does not fit L2",
            big_table,
            n,
        ),
        Side(
            "prange kernel @1T",
            "evaluate_batch(cards, parallel=True, check=False) with numba.set_num_threads(1)",
            prange_one,
            n,
        ),
    ]
    checked_m, c_loop, unchecked_m, small_m, big_m, prange_m = rounds(
        sides, cfg.pairs, cfg.min_seconds
    )
    res.comparisons += [
        Comparison(checked_m, c_loop, "the target figure: croupier's default call, one thread"),
        Comparison(unchecked_m, c_loop),
        Comparison(
            unchecked_m,
            checked_m,
            "validation cost: A/B = time(check on) / time(check off); the target is A/B - 1",
        ),
        Comparison(
            small_m,
            unchecked_m,
            "diagnostic, not a target: how much faster the kernel is when its table reads hit cache",
        ),
        Comparison(
            unchecked_m,
            big_m,
            "diagnostic, not a target: the compact tables (in L2) against a 16 MB table (not)",
        ),
        Comparison(
            prange_m,
            unchecked_m,
            "diagnostic, not a target: the parallel kernel on one thread against the serial one",
        ),
    ]
    got["draw"] = draw


def _int64_rows(res: BenchResult, cfg: Config, hands: Any, got: dict[str, Any]) -> None:
    """The same hands as int64 (numpy's default integer) against uint8, default call, 1T."""
    from croupier.evaluation import evaluate_batch

    wide = hands.astype(np.int64)
    evaluate_batch(wide[:64], parallel=False)  # the int64 kernel's first call: start-up

    def put(key: str, value: object) -> None:
        got[key] = value

    sides = [
        Side(
            "batch 1T int64 rows",
            "evaluate_batch(cards.astype(np.int64), parallel=False): int64 rows, validation on",
            lambda: put("batch int64", evaluate_batch(wide, parallel=False)),
            len(hands),
        ),
        Side(
            "batch 1T uint8 rows",
            "evaluate_batch(cards, parallel=False): the same hands as uint8, validation on",
            lambda: evaluate_batch(hands, parallel=False),
            len(hands),
        ),
    ]
    int64_m, uint8_m = rounds(sides, cfg.pairs, cfg.min_seconds)
    res.comparisons.append(
        Comparison(
            int64_m,
            uint8_m,
            f"the target figure: int64 rows are 8x the bytes ({wide.nbytes / 1e6:.0f} MB "
            f"against {hands.nbytes / 1e6:.0f} MB), read in place, no copy",
        )
    )


def _kernels_all_cores(
    res: BenchResult, cfg: Config, hands: Any, got: dict[str, Any], threads: int
) -> None:
    from croupier.evaluation import evaluate_batch

    n = len(hands)
    php = np.empty(n, np.int32)
    got["phevaluator C all"] = php
    pc = pheval_c()

    def default() -> None:
        got["batch default"] = evaluate_batch(hands)

    def unchecked() -> None:
        got["batch parallel"] = evaluate_batch(hands, parallel=True, check=False)

    sides = [
        Side(
            f"batch {threads}T (default call)",
            "evaluate_batch(cards): the default (threads for large batches, validation on)",
            default,
            n,
            threads=threads,
        ),
        Side(
            f"phevaluator C loop {threads}T",
            "the same C calls in a numba prange loop",
            lambda: pc.eval7_rows_parallel(hands, php),
            n,
            croupier=False,
            threads=threads,
        ),
        Side(
            f"batch {threads}T check=False",
            "evaluate_batch(cards, parallel=True, check=False)",
            unchecked,
            n,
            threads=threads,
        ),
    ]
    default_m, c_loop, unchecked_m = rounds(sides, cfg.pairs, cfg.min_seconds)
    res.comparisons += [
        Comparison(default_m, c_loop, f"information: {threads} threads"),
        Comparison(unchecked_m, c_loop, f"information: {threads} threads"),
    ]


def _one_call(res: BenchResult, cfg: Config, hands: Any, got: dict[str, Any]) -> None:
    import phevaluator
    from phevaluator import _pheval

    from croupier.evaluation import rank_cards, rank_indices

    n_one = cfg.size(100_000, 30_000)
    n_str = cfg.size(20_000, 5_000)
    n_treys = cfg.size(20_000, 5_000)
    n_pokerkit = cfg.size(1_000, 300)
    ints = hands[:n_one].tolist()
    res.startup.append(
        StartupRow(
            "croupier rank_indices first call",
            first_call(lambda: rank_indices(ints[0])),
            "Python-list views of the tables",
        )
    )
    strings = [" ".join(CARD_NAMES[c] for c in row) for row in ints[:n_str]]
    ev_cards, raw7 = phevaluator.evaluate_cards, _pheval.evaluate_7cards

    eval7, t_imp = timed_import("eval7")
    res.startup.append(StartupRow("eval7 import", t_imp, "nan = imported earlier"))
    e7cards = [eval7.Card(name) for name in CARD_NAMES]
    e7hands = [[e7cards[c] for c in h] for h in ints]
    e7 = eval7.evaluate

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

    pokerkit, t_imp = timed_import("pokerkit")
    res.startup.append(StartupRow("pokerkit import", t_imp, "nan = imported earlier"))
    pcards = [next(iter(pokerkit.Card.parse(name))) for name in CARD_NAMES]
    ppairs = [
        (tuple(pcards[c] for c in h[:2]), tuple(pcards[c] for c in h[2:]))
        for h in ints[:n_pokerkit]
    ]
    high = pokerkit.StandardHighHand.from_game

    def put(key: str, value: object) -> None:
        got[key] = value

    sides = [
        Side(
            "rank_indices",
            "rank_indices(list_of_7_ints), one call a hand",
            lambda: put("rank_indices", [rank_indices(h) for h in ints]),
            n_one,
            threads=None,
        ),
        Side(
            "eval7",
            "eval7.evaluate([eval7.Card x 7]), cards converted before the clock",
            lambda: put("eval7", [e7(h) for h in e7hands]),
            n_one,
            croupier=False,
            threads=None,
        ),
        Side(
            "phevaluator evaluate_cards",
            "phevaluator.evaluate_cards(*ints), public API",
            lambda: put("phe api", [ev_cards(*h) for h in ints]),
            n_one,
            croupier=False,
            threads=None,
        ),
        Side(
            "phevaluator _pheval",
            "_pheval.evaluate_7cards(*ints), the bare C extension",
            lambda: put("phe raw", [raw7(*h) for h in ints]),
            n_one,
            croupier=False,
            threads=None,
        ),
        Side(
            "treys",
            "treys.Evaluator().evaluate(hole_ints, board_ints), cards converted before the clock",
            lambda: put("treys", [tev(h, b) for h, b in tpairs]),
            n_treys,
            croupier=False,
            threads=None,
        ),
        Side(
            "rank_cards (text)",
            'rank_cards("As Kd Qh ..."): parses the text, one call a hand',
            lambda: put("rank_cards", [rank_cards(s) for s in strings]),
            n_str,
            threads=None,
        ),
        Side(
            "pokerkit",
            "pokerkit.StandardHighHand.from_game(hole, board), cards converted before the clock",
            lambda: put("pokerkit", [high(h, b) for h, b in ppairs]),
            n_pokerkit,
            croupier=False,
            threads=None,
        ),
    ]
    ri, e7_m, api, raw, tr, text, pk = rounds(sides, cfg.pairs, cfg.min_seconds)
    harder = "treys is timed on pre-converted ints, its own parsing not timed: the harder bar"
    res.comparisons += [
        Comparison(ri, e7_m, "the target figure: one call a hand, pre-converted cards both sides"),
        Comparison(ri, tr),
        Comparison(ri, api),
        Comparison(ri, raw),
        Comparison(text, tr, f"the target figure: croupier parses text; {harder}"),
        Comparison(text, pk),
    ]


def _less(values: Any, i: int, j: int) -> bool:
    return bool(values[i] < values[j])


def _checks(res: BenchResult, hands: Any, got: dict[str, Any]) -> None:
    ours = got["batch 1T"].astype(np.int64)
    res.checks.append(
        Check(
            "croupier evaluate_batch: int64 rows rank as the uint8 rows",
            bool((got["batch int64"] == got["batch 1T"]).all()),
            f"{len(ours):,} hands",
        )
    )
    ph1, php = got["phevaluator C 1T"], got["phevaluator C all"]
    res.checks.append(
        Check(
            "croupier batch == 7463 - phevaluator C (all hands)",
            bool(((7463 - ph1) == ours).all() and ((7463 - php) == ours).all()),
            f"{len(ours):,} hands",
        )
    )
    same = all(
        bool((got[k] == got["batch 1T"]).all())
        for k in ("batch checked 1T", "batch default", "batch parallel", "prange@1T", "16 MB table")
    )
    res.checks.append(Check("croupier: every batch call gives the same ranks", same))
    res.checks.append(
        Check(
            "croupier small-set batch == the ranks of the hands it repeats",
            bool((got["small set"] == got["batch 1T"][:POOL][got["draw"]]).all()),
        )
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
    for key in ("eval7", "pokerkit"):
        theirs = got[key]
        bad = order_mismatches(ours[: len(theirs)].tolist(), partial(_less, theirs))
        res.checks.append(
            Check(
                f"{key} orders the hands as croupier does",
                bad == 0,
                f"{len(theirs):,} hands, {bad} disagreements",
            )
        )


def _targets(res: BenchResult) -> None:
    def ratios(a: str, b: str) -> list[float]:
        c = res.comparison(a, b)
        return c.ratios if c else []

    res.targets.append(
        Target.over(
            "croupier default call evaluate_batch(cards, parallel=False) / phevaluator C loop, "
            "both 1 thread",
            ratios("batch 1T (default call)", "phevaluator C loop 1T"),
            ">=",
            1.5,
            "x",
            "validation on",
        )
    )
    cost = [100 * (r - 1) for r in ratios("batch 1T check=False", "batch 1T (default call)")]
    res.targets.append(
        Target.over(
            "croupier validation cost, time(check on) / time(check off) - 1, 1 thread",
            cost,
            "<",
            15,
            "%",
        )
    )
    res.targets.append(
        Target.over(
            "croupier evaluate_batch on int64 rows / on uint8 rows, same hands, 1 thread",
            ratios("batch 1T int64 rows", "batch 1T uint8 rows"),
            ">=",
            0.8,
            "x",
            "validation on",
        )
    )
    res.targets.append(
        Target.over(
            "croupier one-call rank_indices(list_of_7_ints) / eval7.evaluate",
            ratios("rank_indices", "eval7"),
            ">=",
            1.0,
            "x",
        )
    )
    res.targets.append(
        Target.over(
            'croupier rank_cards("As Kd ...") on text / treys on pre-converted ints',
            ratios("rank_cards (text)", "treys"),
            ">=",
            2.0,
            "x",
            "treys skips its parse: the harder bar",
        )
    )
