"""``HandState.copy()`` beside ``copy.deepcopy`` in one run (issue target: at most 25 µs).

Run: ``python -m benchmarks.bench_copy_poker``. The hand is six-player no-limit Hold'em
after the flop, every seat in. The two are timed as alternating pairs (copy, deepcopy,
copy, …) so load drift hits both; each figure is the median of the repeats with their
range, in microseconds per call, with the machine printed first. Every copy is checked
equal to the original before it is timed.
"""

from __future__ import annotations

import copy
import gc
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.bench_copy_blackjack import cpu_model
from croupier.poker import HOLDEM, HandState, NoLimit, TableRules

REPEATS = 9
TARGET_US = 25.0


def caches() -> str:
    """The CPU's cache sizes, from sysfs where it has them."""
    base = Path("/sys/devices/system/cpu/cpu0/cache")
    found = []
    for index in sorted(base.glob("index*")) if base.exists() else []:
        level = (index / "level").read_text().strip()
        kind = (index / "type").read_text().strip()
        size = (index / "size").read_text().strip()
        found.append(f"L{level} {kind.lower()} {size}")
    return ", ".join(found) or "unknown"


def hand_after_the_flop() -> HandState:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10))
    hand = HandState(rules, dict.fromkeys(range(1, 7), 1000), 1, seed=3)
    while hand.street == 0:
        hand.check() if hand.can_check() else hand.call()
    return hand


def per_call_us(fn: Callable[[], object], loops: int) -> float:
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        return (time.perf_counter() - start) / loops * 1e6
    finally:
        gc.enable()


def main() -> None:
    """Print the machine, then each figure's median and range, the ratio and the target."""
    print(f"cpu: {cpu_model()}; caches: {caches()}; load: {os.getloadavg()}")
    hand = hand_after_the_flop()
    assert hand.street_name == "flop"
    for twin in (hand.copy(), copy.deepcopy(hand)):
        assert twin.snapshot() == hand.snapshot()
        assert twin.view_for(1) == hand.view_for(1)
    copies: list[float] = []
    deeps: list[float] = []
    for _ in range(REPEATS):
        copies.append(per_call_us(hand.copy, 5000))
        deeps.append(per_call_us(lambda: copy.deepcopy(hand), 200))
    ours, theirs = statistics.median(copies), statistics.median(deeps)
    print(f"HandState.copy(): {ours:.1f} µs (range {min(copies):.1f}-{max(copies):.1f})")
    print(f"copy.deepcopy:    {theirs:.1f} µs (range {min(deeps):.1f}-{max(deeps):.1f})")
    ratios = sorted(d / c for c, d in zip(copies, deeps, strict=True))
    print(
        f"deepcopy / copy:  {statistics.median(ratios):.0f}x (range {ratios[0]:.0f}-{ratios[-1]:.0f}x)"
    )
    verdict = "met" if ours <= TARGET_US else "NOT met"
    print(f"target: copy() <= {TARGET_US:.0f} µs: {verdict}")


if __name__ == "__main__":
    main()
