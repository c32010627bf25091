"""Differential run: random hands played in croupier and in PokerKit side by side.

``python -m benchmarks.bench_diff_pokerkit --hands 100000`` plays the hands (split
evenly over no-limit and fixed-limit hold'em, pot-limit Omaha and seven card stud)
through ``tests/differential/pokerkit_bridge.py``, which compares every decision
point (whose turn, fold / check / call, the call amount, the smallest and largest
raise, stacks, bets, cards, pots) and the pots, payouts and final stacks. The
rule differences it knows are documented in that module and counted here; any
other difference is a mismatch, printed with its seed, table, deck and actions.
The exit status is 1 when a hand mismatched.

``run(cfg)`` gives the same run in the shape of the other benchmarks (a cross-check
that passes with 0 mismatches) for ``python -m benchmarks``: 100,000 hands, or
4,000 with ``--quick``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
for _extra in (_ROOT / "tests" / "differential", _ROOT / "src"):
    if str(_extra) not in sys.path:
        sys.path.insert(0, str(_extra))

from pokerkit_bridge import (  # type: ignore[import-not-found,unused-ignore]  # noqa: E402
    VARIANTS,
    Tally,
    run_hands,
)

from benchmarks._harness import BenchResult, Check, Config, Measured  # noqa: E402
from benchmarks._machine import cores  # noqa: E402

__all__ = ["main", "play", "run"]

NAME = "diff_pokerkit"
TITLE = "croupier vs PokerKit: random hands side by side, every state compared"
DEFAULT_SEED = 20240917
CHUNK = 500


def _chunk(job: tuple[int, str, int, int]) -> Tally:
    seed, variant, start, stop = job
    return run_hands(seed, variant, start, stop)


def play(hands: int, *, seed: int = DEFAULT_SEED, workers: int = 2, verbose: bool = True) -> Tally:
    """Play ``hands`` hands (a quarter per game) on ``workers`` processes; return the tally."""
    per_game = {
        v: hands // len(VARIANTS) + (i < hands % len(VARIANTS)) for i, v in enumerate(VARIANTS)
    }
    jobs = [
        (seed, variant, start, min(start + CHUNK, count))
        for variant, count in per_game.items()
        for start in range(0, count, CHUNK)
    ]
    total = Tally()
    clock = time.perf_counter()
    done = 0
    results: Iterator[Tally]
    if workers <= 1:
        results = map(_chunk, jobs)
    else:
        pool = ProcessPoolExecutor(max_workers=workers)
        results = pool.map(_chunk, jobs)
    try:
        for tally in results:
            total.merge(tally)
            done += tally.total
            if verbose:
                print(
                    f"  {done:>7,} / {hands:,} hands, {time.perf_counter() - clock:6.1f} s, "
                    f"mismatches {len(total.mismatches)}",
                    flush=True,
                )
    finally:
        if workers > 1:
            pool.shutdown()
    return total


def _report(tally: Tally, wall: float, hands: int, seed: int, workers: int) -> list[str]:
    seconds = tally.seconds
    lines = [
        f"{hands:,} hands, seed {seed}, {workers} process(es), {wall:.1f} s wall "
        f"({hands / wall:,.0f} hands/s)",
        tally.summary(),
    ]
    for v in VARIANTS:
        if tally.hands[v] or v in seconds:
            spent = seconds.get(v, 0.0)
            rate = tally.hands[v] / spent if spent else float("nan")
            lines.append(
                f"  {v:>3}: {tally.hands[v]:,} hands agree, {spent:.1f} s of work ({rate:,.0f}/s)"
            )
    for m in tally.mismatches[:20]:
        lines.append(str(m))
    if len(tally.mismatches) > 20:
        lines.append(f"... and {len(tally.mismatches) - 20} more mismatches")
    return lines


def run(cfg: Config) -> BenchResult:
    """The run as a benchmark result: 100,000 hands (4,000 with ``--quick``), one cross-check."""
    hands = cfg.size(100_000, 4_000)
    workers = max(1, min(2, cores()))
    clock = time.perf_counter()
    tally = play(hands, seed=cfg.seed, workers=workers, verbose=False)
    wall = time.perf_counter() - clock
    result = BenchResult(NAME, TITLE)
    result.solos.append(
        Measured(
            "croupier + PokerKit",
            "one hand in both engines, every state compared (one timing: a correctness run)",
            True,
            workers,
            "hands",
            hands,
            [1],
            [wall],
        )
    )
    result.checks.append(
        Check(
            f"{hands:,} random hands agree with PokerKit (documented differences excepted)",
            not tally.mismatches,
            f"{len(tally.mismatches)} mismatches",
        )
    )
    result.notes.extend(_report(tally, wall, hands, cfg.seed, workers)[1:])
    return result


def main(argv: list[str] | None = None) -> int:
    """Parse the options, play the hands, print the counts; 1 if any hand mismatched."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_diff_pokerkit",
                                     description=__doc__.splitlines()[0] if __doc__ else None)  # fmt: skip
    parser.add_argument("--hands", type=int, default=100_000, help="hands in all (default 100000)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="run seed")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    print(f"{TITLE}: {args.hands:,} hands over {', '.join(VARIANTS)}", flush=True)
    clock = time.perf_counter()
    tally = play(args.hands, seed=args.seed, workers=args.workers)
    wall = time.perf_counter() - clock
    print("\n".join(_report(tally, wall, args.hands, args.seed, args.workers)))
    return 1 if tally.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
