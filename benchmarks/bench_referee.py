"""The poker referee through seat views: croupier against OpenSpiel and against an older croupier.

Six-max no-limit hold'em, 200-chip stacks, blinds 1-2, stacks reset every hand, every
dealer chore automatic. Each side is driven from Python one decision at a time:

* **referee**: croupier's :class:`~croupier.poker.state.HandState`; at every decision the
  seat to act gets its :meth:`~croupier.poker.state.HandState.view_for` view and
  :class:`~croupier.poker.policies.RandomPolicy` answers from it (uniform over the legal
  kinds of action, a raise to a uniform legal amount), as a bot or a server does;
* **OpenSpiel** (``pyspiel``, the ``bench`` extra): ``universal_poker`` with the same game
  (``betting=nolimit``, six players, blinds 1 2, stacks 200, 2 hole cards, board 3 1 1),
  its C++ state driven from Python: chance outcomes sampled in Python, a uniform choice
  over ``legal_actions()`` at every decision (OpenSpiel lists every raise size as an
  action, so its hands are shorter: more of its random decisions are all-ins);
* **baseline** (``--baseline REV`` or ``CROUPIER_BENCH_BASELINE=REV``): the same referee
  loop at an older commit, checked out in a temporary ``git worktree``; both the current
  tree and the baseline then run the loop in fresh processes, alternating (A B A B ...),
  each printing the hands a second of one timing.

Figures: hands a second (median and range over the alternating pairs) and their ratios;
the time to build a ``HandState`` (the deal included: forced bets, hole cards, first
actor). Checks: chips are conserved in every hand of both engines.
Run alone: ``python -m benchmarks.bench_referee [--quick] [--baseline REV]``.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Final

try:
    import croupier  # noqa: F401
except ImportError:  # a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from benchmarks._harness import BenchResult, Check, Comparison, Config, Side, Target, spread
from benchmarks._timing import repeat, rounds

__all__ = ["main", "run"]

NAME = "referee"
TITLE = "poker referee through seat views, 6-max NLHE: croupier vs OpenSpiel and a baseline"
PLAYERS: Final = 6
STACK: Final = 200
OPENSPIEL_GAME: Final = (
    "universal_poker(betting=nolimit,numPlayers=6,numRounds=4,blind=1 2 0 0 0 0,"
    "firstPlayer=3 1 1 1,numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,"
    "stack=200 200 200 200 200 200,bettingAbstraction=fullgame)"
)
BASELINE_ENV: Final = "CROUPIER_BENCH_BASELINE"

_LOOP: Final = """
import gc, random, sys, time
from croupier.poker import HOLDEM, HandState, NoLimit, TableRules
from croupier.poker.policies import RandomPolicy
rules = TableRules(HOLDEM, NoLimit(), blinds=(1, 2), table_minimum=2)
rng = random.Random(int(sys.argv[1])); policy = RandomPolicy(rng)
seats = range(1, 7)
def play(n):
    for i in range(n):
        hand = HandState(rules, dict.fromkeys(seats, 200), i % 6 + 1, rng=rng)
        while not hand.is_complete:
            seat = hand.actor
            hand.apply(policy(hand.view_for(seat)).for_seat(seat))
play(100)
hands, floor = 0, float(sys.argv[2])
gc.collect(); gc.disable()
start = time.perf_counter()
while time.perf_counter() - start < floor:
    play(50); hands += 50
print(hands / (time.perf_counter() - start))
"""
"""The referee loop run in a fresh process for the baseline comparison (it uses only names
both the old and the new referee have)."""


class Tally:
    """Hands played and hands whose chips did not add up."""

    def __init__(self) -> None:
        self.hands = 0
        self.bad = 0

    def add(self, conserved: bool) -> None:
        self.hands += 1
        self.bad += not conserved


def referee_player(hands: int, tally: Tally, seed: int) -> Callable[[], None]:
    """``hands`` hands a call through seat views, as a bot or a server drives them."""
    from croupier.poker import HOLDEM, HandState, NoLimit, TableRules
    from croupier.poker.policies import RandomPolicy

    rules = TableRules(HOLDEM, NoLimit(), blinds=(1, 2), table_minimum=2)
    rng = random.Random(seed)
    policy = RandomPolicy(rng)
    seats = range(1, PLAYERS + 1)
    counter = [0]

    def play() -> None:
        for _ in range(hands):
            counter[0] += 1
            hand = HandState(rules, dict.fromkeys(seats, STACK), counter[0] % PLAYERS + 1, rng=rng)
            while not hand.is_complete:
                seat = hand.actor
                hand.apply(policy(hand.view_for(seat)).for_seat(seat))
            tally.add(sum(hand.stacks.values()) == PLAYERS * STACK)

    return play


def openspiel_player(hands: int, tally: Tally, seed: int) -> Callable[[], None]:
    """``hands`` OpenSpiel hands a call, chance and decisions sampled in Python."""
    import pyspiel

    game = pyspiel.load_game(OPENSPIEL_GAME)
    rng = random.Random(seed)

    def play() -> None:
        for _ in range(hands):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
            tally.add(abs(sum(state.returns())) < 1e-9)

    return play


def build_hand(seed: int) -> Callable[[], None]:
    """One ``HandState`` a call: shuffle, cut, blinds, hole cards, the first actor."""
    from croupier.poker import HOLDEM, HandState, NoLimit, TableRules

    rules = TableRules(HOLDEM, NoLimit(), blinds=(1, 2), table_minimum=2)
    rng = random.Random(seed)
    stacks = dict.fromkeys(range(1, PLAYERS + 1), STACK)

    def build() -> None:
        HandState(rules, stacks, 1, rng=rng)

    return build


def _worktree(rev: str) -> tuple[Path, Callable[[], None]]:
    """A temporary ``git worktree`` of ``rev``: its ``src`` folder and how to remove it."""
    root = Path(__file__).resolve().parent.parent
    place = Path(tempfile.mkdtemp(prefix="croupier-baseline-"))
    subprocess.run(
        ["git", "-C", str(root), "worktree", "add", "--detach", str(place), rev],
        check=True,
        capture_output=True,
    )

    def remove() -> None:
        subprocess.run(
            ["git", "-C", str(root), "worktree", "remove", "--force", str(place)],
            check=False,
            capture_output=True,
        )

    return place / "src", remove


def _process_rate(src: Path, seed: int, floor: float) -> float:
    """Hands a second of the referee loop in a fresh process importing croupier from ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-c", _LOOP, str(seed), str(floor)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def baseline_ratios(rev: str, pairs: int, floor: float, seed: int) -> tuple[list[float], ...]:
    """(current rates, baseline rates) from ``pairs`` alternating fresh-process timings."""
    current_src = Path(__file__).resolve().parent.parent / "src"
    base_src, remove = _worktree(rev)
    try:
        ours: list[float] = []
        theirs: list[float] = []
        for i in range(pairs):
            ours.append(_process_rate(current_src, seed + i, floor))
            theirs.append(_process_rate(base_src, seed + i, floor))
        return ours, theirs
    finally:
        remove()


def run(cfg: Config, baseline: str | None = None) -> BenchResult:
    """Measure; see the module docstring."""
    res = BenchResult(NAME, TITLE)
    floor = 0.25 if cfg.quick else 1.0
    ours, peer = Tally(), Tally()
    referee = Side(
        "referee NLHE",
        "HandState + RandomPolicy through view_for, 50 hands a call",
        referee_player(50, ours, cfg.seed),
        50,
        threads=None,
        min_seconds=floor,
    )
    sides = [referee]
    try:
        import pyspiel  # noqa: F401

        sides.append(
            Side(
                "OpenSpiel NLHE",
                "universal_poker from Python: chance and a uniform legal action, 50 hands a call",
                openspiel_player(50, peer, cfg.seed),
                50,
                croupier=False,
                threads=None,
                min_seconds=floor,
            )
        )
    except ImportError:
        res.skipped.append("OpenSpiel: pyspiel is not installed (pip install -e '.[bench]')")
    measured = rounds(sides, cfg.pairs, cfg.min_seconds)
    if len(measured) == 2:
        comparison = Comparison(
            measured[0], measured[1], "both driven from Python, one decision at a time"
        )
        res.comparisons.append(comparison)
        res.targets.append(
            Target.over("referee / OpenSpiel universal_poker", comparison.ratios, ">=", 0.35, "x")
        )
        res.checks.append(
            Check(
                "OpenSpiel: returns sum to 0 in every hand", peer.bad == 0, f"{peer.hands:,} hands"
            )
        )
    else:
        res.solos.append(measured[0])
    res.checks.append(
        Check("referee: chips conserved in every hand", ours.bad == 0, f"{ours.hands:,} hands")
    )
    build = repeat(
        Side(
            "HandState built",
            "HandState(rules, six 200-chip stacks, button, rng=...)",
            build_hand(cfg.seed),
            1,
            unit="hands",
        ),
        cfg,
    )
    res.solos.append(build)
    res.targets.append(
        Target.over(
            "a HandState built (deal included)", [1e6 / r for r in build.rates], "<=", 25.0, "us"
        )
    )
    rev = baseline or os.environ.get(BASELINE_ENV)
    if rev:
        current, old = baseline_ratios(rev, cfg.pairs, floor, cfg.seed)
        ratios = [a / b for a, b in zip(current, old, strict=True)]
        med, low, high = spread(ratios)
        res.info.append(
            f"against {rev} (fresh processes, {cfg.pairs} alternating pairs, {floor} s timings): "
            f"now {spread(current)[0]:,.0f} hands/s, then {spread(old)[0]:,.0f} hands/s, "
            f"ratio {med:.2f}x ({low:.2f}-{high:.2f})"
        )
        res.targets.append(Target.over(f"referee / referee at {rev}", ratios, ">=", 5.0, "x"))
    else:
        res.skipped.append(
            f"baseline: name an older commit with --baseline REV or {BASELINE_ENV}=REV "
            "(issue 25 measures against its parent commit)"
        )
    res.notes.append(
        "OpenSpiel lists every raise size as an action, so a uniform choice over its legal "
        "actions ends hands sooner (more all-ins) than croupier's uniform choice over kinds"
    )
    return res


def main(argv: list[str] | None = None) -> int:
    """Run this benchmark alone and print its block."""
    from benchmarks._report import run_one

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="shorter timings")
    parser.add_argument("--baseline", metavar="REV", help="also time the referee at this commit")
    args = parser.parse_args(argv)
    result = run_one(lambda cfg: run(cfg, args.baseline), Config(quick=args.quick))
    return 0 if all(c.passed for c in result.checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
