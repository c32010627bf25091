"""``BlackjackRound.copy()`` beside ``copy.deepcopy`` and ``BlackjackRound.replay`` in one run.

Run: ``python -m benchmarks.bench_copy_blackjack``. The round is a six-deck NZ round in
play: three boxes, one of them split, the next hand to act. Each figure is the median of
seven repeats (each a loop long enough to time, the garbage collector paused), in
microseconds per call; the CPU model is printed first.
"""

from __future__ import annotations

import copy
import gc
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from croupier.blackjack import NZ, BlackjackRound
from croupier.cards import Shoe, full_deck, parse_cards

REPEATS = 7


def cpu_model() -> str:
    """The CPU model (from ``/proc/cpuinfo`` where there is one)."""
    info = Path("/proc/cpuinfo")
    if info.exists():
        for line in info.read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def round_in_play() -> BlackjackRound:
    """Three boxes, box 1 split (8 8 against a 6), its first hand to act. The shoe is
    seeded: deepcopy cannot copy the default CSPRNG (copy() shares it)."""
    cards = parse_cards("8c 9d Th 6s 8d 7c Ks 3h 4d", unique=False)
    order = list(cards) + list(full_deck()) * 5 + list(full_deck())[:43]  # six decks' worth
    rnd = BlackjackRound(
        NZ, Shoe(6, cards=order, seed=11), {"ann": 1_000, "bo": 1_000, "cy": 1_000}
    )
    for box, player in ((1, "ann"), (2, "bo"), (3, "cy")):
        rnd.place_wager(box, player, 20)
    rnd.deal()
    rnd.split()
    assert rnd.actor is not None
    assert rnd.actor.box == 1
    return rnd


def per_call(work: Callable[[], object]) -> float:
    """Median microseconds per call over :data:`REPEATS` timed loops."""
    loops = 1
    while True:  # size the loop to about 0.1 s
        start = time.perf_counter()
        for _ in range(loops):
            work()
        if time.perf_counter() - start > 0.1:
            break
        loops *= 2
    samples = []
    gc.disable()
    try:
        for _ in range(REPEATS):
            start = time.perf_counter()
            for _ in range(loops):
                work()
            samples.append((time.perf_counter() - start) / loops * 1e6)
    finally:
        gc.enable()
    return statistics.median(samples)


def main() -> None:
    """Print the timings."""
    rnd = round_in_play()
    twin = rnd.copy()
    assert twin.snapshot() == rnd.snapshot()
    assert BlackjackRound.replay(NZ, rnd.events).snapshot() == rnd.snapshot()
    print(f"CPU: {cpu_model()}; Python {platform.python_version()}")
    print(f"round: 3 boxes, a split, {len(rnd.events)} events, {len(rnd.shoe)} cards in the shoe")
    rows = [
        ("BlackjackRound.copy()", per_call(rnd.copy)),
        ("copy.deepcopy(round)", per_call(lambda: copy.deepcopy(rnd))),
        (
            "BlackjackRound.replay(rules, events)",
            per_call(lambda: BlackjackRound.replay(NZ, rnd.events)),
        ),
    ]
    for name, micros in rows:
        print(f"  {name:<38} {micros:10.1f} µs  (median of {REPEATS})")
    print(f"  deepcopy / copy: {rows[1][1] / rows[0][1]:.0f}x")


if __name__ == "__main__":
    main()
