"""Blackjack math and simulation speed, with the Python peers measured in the same run.

``python -m benchmarks.bench_blackjack [--rounds N] [--peer-rounds N] [--json FILE]``

1. **Exact analysis**: the NZ six-deck game's whole-game house edge (composition-dependent
   optimal play, splits included), timed in-process after the kernels are loaded (median of
   5 fresh :class:`~croupier.blackjack.math.analysis.Analysis` objects), and the one-time
   start-up (a fresh process: import, load the compiled kernels from numba's disk cache,
   first answer) reported separately.
2. **Simulator**: rounds a second of :func:`croupier.blackjack.math.simulate.simulate`, NZ
   rules with the derived basic strategy, one worker and then two (wall time, process
   start-up included), and the speed-up.
3. **Peers**: :mod:`benchmarks.bench_blackjack_peers` (py21, OpenSpiel, cardsharp, rlcard),
   same machine, same run; ratios are croupier's one-worker rate over each peer's rate.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

try:
    import croupier  # noqa: F401
except ImportError:  # running from a checkout without an install: use ./src
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from benchmarks.bench_blackjack_peers import measure_peers
from croupier.blackjack.math.analysis import Analysis
from croupier.blackjack.math.simulate import simulate
from croupier.blackjack.rules import NZ

__all__ = ["main", "run"]

_STARTUP = """
import time
t0 = time.perf_counter()
from croupier.blackjack.math.analysis import Analysis
from croupier.blackjack.rules import NZ
t1 = time.perf_counter()
ev = Analysis(NZ).expectation()
t2 = time.perf_counter()
print(t1 - t0, t2 - t1, ev)
"""


def _startup() -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", _STARTUP], capture_output=True, text=True, check=True
    ).stdout.split()
    return {"import": float(out[0]), "first house edge": float(out[1])}


def run(rounds: int, peer_rounds: int) -> dict[str, Any]:
    """Measure everything; returns a JSON-ready dict (see the module docstring)."""
    _startup()  # prime numba's disk cache untimed
    startup = [_startup() for _ in range(3)]
    Analysis(NZ).expectation()
    times = []
    for _ in range(5):
        start = time.perf_counter()
        ev = Analysis(NZ).expectation()
        times.append(time.perf_counter() - start)
    start = time.perf_counter()
    analysis = Analysis(NZ)
    chart = analysis.basic_strategy()
    chart_ev = analysis.expectation(chart)
    chart_seconds = time.perf_counter() - start
    simulate(NZ, 10_000, strategy=chart, seed=1)  # load the kernel
    one = simulate(NZ, rounds, strategy=chart, seed=2, workers=1)
    two = simulate(NZ, rounds, strategy=chart, seed=2, workers=2)
    peers = measure_peers(peer_rounds)
    rate = one.rounds_per_second
    return {
        "exact": {
            "nz_six_deck_ev": ev,
            "house_edge_seconds_median": statistics.median(times),
            "house_edge_seconds_all": times,
            "startup_import_seconds": statistics.median(s["import"] for s in startup),
            "startup_first_house_edge_seconds": statistics.median(
                s["first house edge"] for s in startup
            ),
            "basic_strategy_ev": chart_ev,
            "strategy_and_its_ev_seconds": chart_seconds,
        },
        "simulator": {
            "rounds": rounds,
            "one_worker_rounds_per_second": rate,
            "two_workers_rounds_per_second": two.rounds_per_second,
            "speedup_two_workers": two.rounds_per_second / rate,
            "ev_one_worker": one.ev,
            "se": one.se,
            "same_result_both": one.counts == two.counts,
        },
        "peers": {
            name: {
                "rounds_per_second": value,
                "croupier_ratio": rate / value if isinstance(value, float) else None,
            }
            for name, value in peers.items()
        },
    }


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200_000_000)
    parser.add_argument("--peer-rounds", type=int, default=20_000)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    data = run(args.rounds, args.peer_rounds)
    ex, sim = data["exact"], data["simulator"]
    print("Exact analysis, NZ six-deck game (optimal play)")
    print(f"  player expectation             {ex['nz_six_deck_ev']:+.4%}")
    print(f"  whole-game house edge, warm    {ex['house_edge_seconds_median']:.3f} s (median of 5)")
    print(f"  start-up: import               {ex['startup_import_seconds']:.3f} s (fresh process)")
    print(f"  start-up: first house edge     {ex['startup_first_house_edge_seconds']:.3f} s")
    print(f"  basic strategy + its EV        {ex['strategy_and_its_ev_seconds']:.3f} s")
    print(f"Simulator, NZ rules, basic strategy, {sim['rounds']:,} rounds")
    print(f"  1 worker   {sim['one_worker_rounds_per_second']:>14,.0f} rounds/s")
    print(
        f"  2 workers  {sim['two_workers_rounds_per_second']:>14,.0f} rounds/s "
        f"(speed-up {sim['speedup_two_workers']:.2f}x; same result: {sim['same_result_both']})"
    )
    print("Peers (one core; croupier's 1-worker rate / peer's)")
    for name, row in data["peers"].items():
        value = row["rounds_per_second"]
        if isinstance(value, float):
            print(f"  {name:<10} {value:>12,.0f} rounds/s   croupier {row['croupier_ratio']:,.1f}x")
        else:
            print(f"  {name:<10} {value}")
    if args.json:
        args.json.write_text(json.dumps(data, indent=2))


if __name__ == "__main__":
    main()
