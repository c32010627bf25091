"""``HandState.copy()`` beside ``copy.deepcopy`` in one run (issue target: at most 25 µs).

The hand is six-player no-limit Hold'em after the flop, every seat in. The two are timed
as alternating pairs (copy, deepcopy, copy, ...) so load drift hits both; the figures
are the median and range over the pairs, per call. Every copy is checked equal to the
original before anything is timed. Run alone with ``python -m benchmarks.bench_copy_poker``.
"""

from __future__ import annotations

import argparse
import copy

from benchmarks._harness import BenchResult, Check, Config, Side, Target
from benchmarks._timing import compare

__all__ = ["hand_after_the_flop", "main", "run"]

NAME = "copy_poker"
TITLE = "HandState.copy() against copy.deepcopy, six-player Hold'em after the flop"
TARGET_US = 25.0


def hand_after_the_flop() -> object:
    """Six players, no-limit Hold'em, everyone checks or calls to the flop."""
    from croupier.poker import HOLDEM, HandState, NoLimit, TableRules

    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10))
    hand = HandState(rules, dict.fromkeys(range(1, 7), 1000), 1, seed=3)
    while hand.street == 0:
        hand.check() if hand.can_check() else hand.call()
    return hand


def run(cfg: Config) -> BenchResult:
    """Time copy() against deepcopy in alternating pairs; check both copies first."""
    from croupier.poker import HandState

    res = BenchResult(NAME, TITLE)
    hand = hand_after_the_flop()
    assert isinstance(hand, HandState)
    same = hand.street_name == "flop"
    for twin in (hand.copy(), copy.deepcopy(hand)):
        same = same and twin.snapshot() == hand.snapshot() and twin.view_for(1) == hand.view_for(1)
    res.checks.append(
        Check("HandState.copy() and copy.deepcopy() equal the original (snapshot, view)", same)
    )
    c = compare(
        Side(
            "HandState.copy()",
            "hand.copy() on the hand after the flop",
            hand.copy,
            1,
            "copies",
            job=1,
        ),
        Side(
            "copy.deepcopy",
            "copy.deepcopy(hand)",
            lambda: copy.deepcopy(hand),
            1,
            "copies",
            croupier=False,
            job=1,
        ),
        cfg,
        note="B is Python's generic deep copy of the same object",
    )
    res.comparisons.append(c)
    res.targets.append(
        Target.over(
            "HandState.copy(), six-player Hold'em after the flop",
            [s * 1e6 for s in c.a.per_call],
            "<=",
            TARGET_US,
            "us",
        )
    )
    return res


def main(argv: list[str] | None = None) -> int:
    """Run this benchmark alone and print its block."""
    from benchmarks._report import run_one

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer pairs, shorter timings")
    args = parser.parse_args(argv)
    result = run_one(run, Config(quick=args.quick))
    return 0 if all(c.passed for c in result.checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
