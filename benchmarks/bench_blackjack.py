"""Blackjack math and simulation speed, with the Python peers measured in the same run.

``python -m benchmarks.bench_blackjack [--quick]`` (or ``python -m benchmarks --only
blackjack``):

1. **Exact analysis**: the NZ six-deck game's whole-game house edge (composition-dependent
   optimal play, splits included), a fresh
   :class:`~croupier.blackjack.math.analysis.Analysis` a call, after the kernels are
   loaded; the derived basic strategy and its exact EV; and the one-time start-up (a fresh
   process: import, load the compiled kernels from numba's disk cache, first answer).
2. **Simulator**: :func:`croupier.blackjack.math.simulate.simulate`, NZ rules with the
   derived basic strategy, two workers against one in alternating pairs (wall time,
   process start-up included), and a check that both give the same result.
3. **Referee, like for like**: croupier's :class:`~croupier.blackjack.BlackjackRound`
   (rounds from a :class:`~croupier.blackjack.table.BlackjackTable`) driven from Python by
   :func:`~croupier.blackjack.policies.mimic_the_dealer` (hit below 17) against OpenSpiel's
   ``blackjack`` driven from Python with the same policy, when ``pyspiel`` is installed
   (the ``bench`` extra); otherwise the referee is timed alone and the reason printed.
4. **The counter** (issue 29, point 4):
   :func:`croupier.blackjack.math.counter.simulate_counter`, a Hi-Lo counter (1-12 ramp,
   the Illustrious 18 worked out for the NZ rules, insurance at its index), one worker,
   against the plain simulator on one core in alternating pairs; the target is at least
   1 M rounds a second a core with the count on (a check).
5. **Compiled kernel against the peers, not like for like**: the simulator (compiled, its
   built-in basic strategy, NZ rules) against each installed peer of
   :mod:`benchmarks.bench_blackjack_peers` playing its own simplified rules.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any, Final

try:
    import croupier  # noqa: F401
except ImportError:  # running from a checkout without an install: use ./src
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from benchmarks._harness import BenchResult, Check, Comparison, Config, Side, StartupRow, src_root
from benchmarks._timing import compare, repeat, rounds

__all__ = ["main", "run"]

NAME = "blackjack"
TITLE = "blackjack: exact NZ house edge, simulator 1 vs 2 workers, referee and peers"
PEER_ROUNDS: Final = 2_000
"""Rounds a peer plays a call (the timing repeats the call until it is long enough)."""
NOT_LIKE_FOR_LIKE: Final = (
    "compiled kernel with its built-in basic strategy, NZ six-deck rules; the peer plays "
    "simplified rules (see bench_blackjack_peers) from Python — not like for like"
)

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


def _startup() -> tuple[float, float]:
    """(import seconds, first house edge seconds) in a fresh process."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src_root(), env.get("PYTHONPATH")) if p)
    out = subprocess.run(
        [sys.executable, "-c", _STARTUP], capture_output=True, text=True, check=True, env=env
    ).stdout.split()
    return float(out[0]), float(out[1])


def _referee(rounds_a_call: int, tallies: dict[str, int]) -> Side:
    """BlackjackRound rounds from one table, one box, hit below 17 (mimic the dealer)."""
    from croupier.blackjack import NZ
    from croupier.blackjack.policies import mimic_the_dealer
    from croupier.blackjack.table import BlackjackTable

    table = BlackjackTable(NZ, seed=20240917)
    bankroll = {"ann": 10**12}

    def play() -> None:
        for _ in range(rounds_a_call):
            rnd = table.new_round(bankroll)
            rnd.place_wager(1, "ann", 10)
            rnd.deal()
            acts = 0
            while not rnd.is_complete:
                rnd.apply(mimic_the_dealer(rnd.view_for("ann")))
                acts += 1
            tallies["rounds"] += 1
            tallies["bad"] += sum(rnd.payoffs().values()) != -rnd.bank or acts > 30
            bankroll["ann"] = rnd.bankrolls["ann"]

    return Side(
        "croupier referee",
        "BlackjackTable(NZ).new_round + mimic_the_dealer from Python (hit below 17), one box",
        play,
        rounds_a_call,
        "rounds",
        threads=None,
    )


def run(cfg: Config) -> BenchResult:
    """Measure everything; see the module docstring."""
    from benchmarks.bench_blackjack_peers import PLAYERS
    from croupier.blackjack.math.analysis import Analysis
    from croupier.blackjack.math.simulate import simulate
    from croupier.blackjack.rules import NZ

    res = BenchResult(NAME, TITLE)
    _startup()  # prime numba's disk cache untimed
    probes = [_startup() for _ in range(3)]
    res.startup += [
        StartupRow(
            "import croupier.blackjack.math.analysis (fresh process)",
            statistics.median(p[0] for p in probes),
            "median of 3",
        ),
        StartupRow(
            "first house edge (fresh process)",
            statistics.median(p[1] for p in probes),
            "numba cache load + the analysis",
        ),
    ]
    got: dict[str, Any] = {}
    edge = repeat(
        Side(
            "house edge, optimal play",
            "Analysis(NZ).expectation(): a fresh Analysis a call (whole-game, splits included)",
            lambda: got.__setitem__("ev", Analysis(NZ).expectation()),
            1,
            "answers",
            job=1,
        ),
        cfg,
        times=5,
    )

    def strategy() -> None:
        analysis = Analysis(NZ)
        got["chart"] = analysis.basic_strategy()
        got["chart ev"] = analysis.expectation(got["chart"])

    chart_m = repeat(
        Side(
            "basic strategy + its EV",
            "Analysis(NZ).basic_strategy() and .expectation(chart), a fresh Analysis a call",
            strategy,
            1,
            "answers",
            job=1,
        ),
        cfg,
        times=5,
    )
    res.solos += [edge, chart_m]
    res.notes.append(
        f"NZ six-deck player expectation {got['ev']:+.4%} (optimal), "
        f"{got['chart ev']:+.4%} (derived basic strategy)"
    )

    chart = got["chart"]
    n_sim = cfg.size(20_000_000, 2_000_000)
    simulate(NZ, 10_000, strategy=chart, seed=1)  # load the kernel

    def sim(workers: int, n: int = n_sim) -> Side:
        def play() -> None:
            got[f"sim {workers}"] = simulate(NZ, n, strategy=chart, seed=2, workers=workers)

        return Side(
            f"simulator {workers} worker{'s' if workers > 1 else ''}",
            f"simulate(NZ, {n:,}, strategy=chart, seed=2, workers={workers}): NZ rules, "
            "basic strategy, wall time incl. starting the worker processes",
            play,
            n,
            "rounds",
            threads=workers,
        )

    one_side, two_side = sim(1), sim(2)
    res.comparisons.append(
        compare(
            two_side,
            one_side,
            cfg,
            pairs=5,
            note="the speed-up of a second worker, process start-up included (about 1.5 s a call "
            "here, so the speed-up grows with the rounds)",
        )
    )
    one, two = got["sim 1"], got["sim 2"]
    res.checks.append(
        Check(
            "simulator: 1 and 2 workers give the same result for one seed",
            one.counts == two.counts,
            f"EV {one.ev:+.4%} +- {one.se:.4%} over {n_sim:,} rounds",
        )
    )
    _counter(res, cfg, chart)
    short = sim(1, cfg.size(2_000_000, 500_000))
    short.key = f"simulator 1 worker, {short.items:,} rounds"
    _referee_and_peers(res, cfg, short, PLAYERS)
    return res


COUNTER_TARGET: Final = 1_000_000
"""Rounds a second a core the counter must reach (issue 29, point 4)."""


def _counter(res: BenchResult, cfg: Config, chart: Any) -> None:
    """The counting simulator against the plain one, both on one core, in pairs."""
    from croupier.blackjack.math.counter import Counter, counter_play, simulate_counter
    from croupier.blackjack.math.simulate import simulate
    from croupier.blackjack.rules import NZ

    n = cfg.size(5_000_000, 1_000_000)
    counter = Counter()
    play = counter_play(counter, NZ)  # the index table: cached, not timed
    simulate_counter(NZ, counter, 10_000, seed=1, play=play)  # load the kernel
    got: dict[str, Any] = {}

    def counting() -> None:
        got["counter"] = simulate_counter(NZ, counter, n, seed=3, play=play)

    def plain() -> None:
        simulate(NZ, n, strategy=chart, seed=3)

    counting_side = Side(
        "counter simulator 1 core",
        f"simulate_counter(NZ, Counter(), {n:,}, seed=3): Hi-Lo, 1-12 ramp, Illustrious 18, "
        "insurance at its index, one worker",
        counting,
        n,
        "rounds",
        threads=1,
    )
    plain_side = Side(
        "simulator 1 core (no count)",
        f"simulate(NZ, {n:,}, strategy=chart, seed=3): basic strategy, flat bet, one worker",
        plain,
        n,
        "rounds",
        threads=1,
    )
    comparison = compare(
        counting_side,
        plain_side,
        cfg,
        pairs=3,
        note="the price of the count: prefix sums of the tags each shoe, a chart by true count "
        "at each decision, bets by the count before the round",
    )
    res.comparisons.append(comparison)
    rate = comparison.a.rate
    result = got["counter"]
    res.checks.append(
        Check(
            f"counter simulator: at least {COUNTER_TARGET:,} rounds a second a core with the count on",
            rate >= COUNTER_TARGET,
            f"{rate:,.0f} rounds/s/core ({comparison.ratio:.2f} x the plain simulator's "
            f"{comparison.b.rate:,.0f}); win rate {result.win_rate_100:+.2f} units per 100 rounds",
        )
    )


def _referee_and_peers(res: BenchResult, cfg: Config, simulator: Side, players: Any) -> None:
    tallies = {"rounds": 0, "bad": 0}
    referee = _referee(200, tallies)
    try:
        import pyspiel  # noqa: F401
    except ImportError as exc:
        res.skipped.append(
            f"like-for-like referee row: OpenSpiel (pyspiel, the 'bench' extra) is not "
            f"installed ({exc}); the referee is timed alone"
        )
        res.solos.append(repeat(referee, cfg))
    else:
        peer = Side(
            "OpenSpiel blackjack",
            "pyspiel blackjack from Python, hit below 17 (one deck, fresh every round)",
            players["openspiel"](200),
            200,
            "rounds",
            croupier=False,
            threads=None,
        )
        res.comparisons.append(
            compare(
                referee,
                peer,
                cfg,
                note="like for like in kind: both referees driven from Python by the same "
                "policy; the rules differ (croupier: NZ six-deck shoe; OpenSpiel: one fresh deck)",
            )
        )
    res.checks.append(
        Check(
            "referee: payoffs balance the bank every round, at most 30 actions a round",
            tallies["rounds"] > 0 and tallies["bad"] == 0,
            f"{tallies['rounds']:,} rounds, {tallies['bad']} off",
        )
    )
    for name, setup in players.items():
        try:
            play = setup(PEER_ROUNDS)
        except ImportError as exc:
            res.skipped.append(f"peer {name}: not installed ({exc.name or exc})")
            continue
        except Exception as exc:
            res.skipped.append(f"peer {name}: failed to set up ({type(exc).__name__}: {exc})")
            continue
        peer = Side(
            name,
            f"{name} from Python, hit below 17, its own rules",
            play,
            PEER_ROUNDS,
            "rounds",
            croupier=False,
            threads=None,
        )
        a, b = rounds((simulator, peer), cfg.pairs, cfg.min_seconds)
        res.comparisons.append(Comparison(a, b, NOT_LIKE_FOR_LIKE))


def main(argv: list[str] | None = None) -> int:
    """Run this benchmark alone and print its block."""
    from benchmarks._report import run_one

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer rounds, shorter timings")
    args = parser.parse_args(argv)
    result = run_one(run, Config(quick=args.quick))
    return 0 if all(c.passed for c in result.checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
