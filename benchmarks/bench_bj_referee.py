"""The blackjack referee driven from Python through seat views, against OpenSpiel and its parent.

``python -m benchmarks.bench_bj_referee [--quick] [--baseline-src PATH]`` (or ``python -m
benchmarks --only bj_referee``, part of the default run):

a. **croupier's referee**: rounds from one :class:`~croupier.blackjack.table.BlackjackTable`
   (NZ six-deck shoe, reshuffled at the cut card), one box, ``place_wager`` and ``deal``,
   then until the round is settled the player's policy
   :func:`~croupier.blackjack.policies.mimic_the_dealer` (hit below 17, else stand; never
   insure) decides from ``rnd.view_for("ann")`` and ``rnd.apply`` plays its action; the
   dealer's chores (the dealer's cards, settlement) run by themselves.
b. **OpenSpiel** ``blackjack`` (``pyspiel``, the ``bench`` extra) driven from Python the
   same way: chance nodes sampled in Python from ``legal_actions()``, the player hitting
   below 17 (:func:`benchmarks.bench_blackjack_peers.openspiel_player`). Like for like in
   kind; the rules differ (croupier: the NZ shoe, insurance offered against an ace, a
   blackjack paid 3:2; OpenSpiel: one fresh deck a round, hit or stand only).
   (a) and (b) are timed in alternating pairs; the target is **A/B >= 0.25x**.
c. **The parent commit** (only with ``--baseline-src PATH``, the ``src`` folder of an older
   checkout, e.g. ``git worktree add /tmp/base HEAD~1`` then ``--baseline-src
   /tmp/base/src``): the loop of (a) in fresh Python processes, ``PYTHONPATH`` set to that
   folder and to the current ``src`` in turn (current, baseline, current, ...), one timing
   a process after a warm-up and a calibration; the target is **current / baseline >= 5x**.

Checks: every round's payoffs balance the bank, no round takes more than 30 decisions,
and along a sample of rounds every view's log is the round's log censored afresh.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final

try:
    import croupier  # noqa: F401
except ImportError:  # running from a checkout without an install: use ./src
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from benchmarks._harness import BenchResult, Check, Comparison, Config, Measured, Side, Target
from benchmarks._timing import _passes, _timing, compare, repeat

__all__ = ["main", "referee_player", "run"]

NAME: Final = "bj_referee"
TITLE: Final = "blackjack referee through seat views: OpenSpiel blackjack, the parent commit"
ROUNDS: Final = 200
"""Rounds a call plays (a timing repeats the call until it is long enough)."""
SEED: Final = 20240917
TARGET_OPENSPIEL: Final = 0.25
TARGET_PARENT: Final = 5.0
REPO: Final = Path(__file__).resolve().parent.parent

_CHILD: Final = """
import json, sys
sys.path.insert(0, sys.argv[1])
import croupier
from benchmarks.bench_bj_referee import _child_timing
print(json.dumps(_child_timing(int(sys.argv[2]), float(sys.argv[3]), croupier.__file__)))
"""


def referee_player(rounds: int, tallies: dict[str, int] | None = None) -> Callable[[], None]:
    """``rounds`` rounds a call of croupier's referee driven through the seat view of its
    one player, ``mimic_the_dealer`` deciding; ``tallies`` (when given) counts the rounds
    and those whose payoffs do not balance the bank or that take over 30 decisions.

    >>> tallies = {"rounds": 0, "bad": 0}
    >>> referee_player(50, tallies)()
    >>> tallies
    {'rounds': 50, 'bad': 0}
    """
    from croupier.blackjack import NZ
    from croupier.blackjack.policies import mimic_the_dealer
    from croupier.blackjack.table import BlackjackTable

    table = BlackjackTable(NZ, seed=SEED)
    bankroll = {"ann": 10**12}

    def play() -> None:
        for _ in range(rounds):
            rnd = table.new_round(bankroll)
            rnd.place_wager(1, "ann", 10)
            rnd.deal()
            acts = 0
            while not rnd.is_complete:
                rnd.apply(mimic_the_dealer(rnd.view_for("ann")))
                acts += 1
            bankroll["ann"] = rnd.bankrolls["ann"]
            if tallies is not None:
                tallies["rounds"] += 1
                tallies["bad"] += sum(rnd.payoffs().values()) != -rnd.bank or acts > 30

    return play


def _child_timing(rounds: int, min_seconds: float, where: str) -> dict[str, object]:
    """In a fresh process: warm up, calibrate, then one timing of the referee loop."""
    play = referee_player(rounds)
    play()
    seconds, passes = _timing(play, _passes(play, min_seconds), min_seconds)
    return {"seconds": seconds, "passes": passes, "croupier": where}


def _views_match(rounds: int) -> tuple[bool, int]:
    """Play ``rounds`` rounds of the loop, comparing at every decision the view's log with
    the round's log censored afresh (for the player and a spectator)."""
    from croupier.blackjack import NZ
    from croupier.blackjack.policies import mimic_the_dealer
    from croupier.blackjack.table import BlackjackTable
    from croupier.blackjack.views import censor

    table = BlackjackTable(NZ.with_(hole_card="peek"), seed=SEED)
    bankroll = {"ann": 10**12}
    views = 0
    for _ in range(rounds):
        rnd = table.new_round(bankroll)
        rnd.place_wager(1, "ann", 10)
        rnd.deal()
        while True:
            turned = rnd.is_complete
            for viewer in ("ann", None):
                afresh = censor(rnd.events, hole_card_turned=turned)
                if rnd.view_for(viewer).events != afresh:
                    return False, views
                views += 1
            if turned:
                break
            rnd.apply(mimic_the_dealer(rnd.view_for("ann")))
        bankroll["ann"] = rnd.bankrolls["ann"]
    return True, views


def _referee_side(tallies: dict[str, int]) -> Side:
    return Side(
        "croupier referee",
        "BlackjackTable(NZ).new_round, place_wager, deal, then apply(mimic_the_dealer("
        "rnd.view_for('ann'))) until settled; one box, hit below 17",
        referee_player(ROUNDS, tallies),
        ROUNDS,
        "rounds",
        threads=None,
    )


def run(cfg: Config, baseline_src: Path | None = None) -> BenchResult:
    """(a) against (b) in alternating pairs, the checks, and (c) when ``baseline_src`` is given."""
    res = BenchResult(NAME, TITLE)
    tallies = {"rounds": 0, "bad": 0}
    referee = _referee_side(tallies)
    try:
        from benchmarks.bench_blackjack_peers import openspiel_player

        peer_play = openspiel_player(ROUNDS)
    except ImportError as exc:
        res.skipped.append(
            f"OpenSpiel (pyspiel, the 'bench' extra) is not installed ({exc.name or exc}): "
            "the referee is timed alone"
        )
        res.solos.append(repeat(referee, cfg))
    else:
        peer = Side(
            "OpenSpiel blackjack",
            "pyspiel.load_game('blackjack') from Python: chance sampled from legal_actions(), "
            "hit below 17 (one deck, fresh every round)",
            peer_play,
            ROUNDS,
            "rounds",
            croupier=False,
            threads=None,
        )
        comparison = compare(
            referee,
            peer,
            cfg,
            note="target; like for like in kind: both referees driven from Python by the same "
            "policy; the rules differ (croupier: NZ six-deck shoe, insurance offered, 3:2; "
            "OpenSpiel: one fresh deck, hit or stand only)",
        )
        res.comparisons.append(comparison)
        res.targets.append(
            Target.over(
                "blackjack referee through seat views / OpenSpiel blackjack",
                comparison.ratios,
                ">=",
                TARGET_OPENSPIEL,
                "x",
                "median of the pairs [range]",
            )
        )
    res.checks.append(
        Check(
            "referee: payoffs balance the bank every round, at most 30 decisions a round",
            tallies["rounds"] > 0 and tallies["bad"] == 0,
            f"{tallies['rounds']:,} rounds, {tallies['bad']} off",
        )
    )
    same, views = _views_match(cfg.size(300, 100))
    res.checks.append(
        Check(
            "every view's log equals the round's log censored afresh (peek game, player and "
            "spectator)",
            same,
            f"{views:,} views",
        )
    )
    if baseline_src is not None:
        _parent(res, cfg, baseline_src)
    else:
        res.notes.append(
            "the parent-commit comparison runs with --baseline-src PATH "
            "(python -m benchmarks.bench_bj_referee --baseline-src /tmp/base/src)"
        )
    return res


def _child(src: Path, cfg: Config) -> tuple[float, int, str]:
    """One timing of the loop in a fresh process importing croupier from ``src``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(src)
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(REPO), str(ROUNDS), str(cfg.min_seconds)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=str(REPO),
    )
    if done.returncode != 0:
        raise RuntimeError(f"the referee loop failed under {src}:\n{done.stderr}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return float(out["seconds"]), int(out["passes"]), str(out["croupier"])


def _parent(res: BenchResult, cfg: Config, baseline_src: Path) -> None:
    """(c): the loop under the current src and under ``baseline_src``, alternating processes."""
    current_src = Path(__file__).resolve().parent.parent / "src"
    baseline_src = baseline_src.resolve()
    if not (baseline_src / "croupier" / "__init__.py").is_file():
        res.skipped.append(f"--baseline-src {baseline_src}: no croupier package in it")
        return
    sides = {"current": current_src, "baseline": baseline_src}
    seconds: dict[str, list[float]] = {k: [] for k in sides}
    passes: dict[str, list[int]] = {k: [] for k in sides}
    loaded: dict[str, str] = {}
    for _ in range(cfg.pairs):
        for key, src in sides.items():
            s, p, where = _child(src, cfg)
            seconds[key].append(s)
            passes[key].append(p)
            loaded[key] = where
    label = "the loop of 'croupier referee' in a fresh process, PYTHONPATH={}; one timing a process"
    current = Measured(
        "current src",
        label.format(current_src),
        True,
        None,
        "rounds",
        ROUNDS,
        passes["current"],
        seconds["current"],
    )
    baseline = Measured(
        "baseline src",
        label.format(baseline_src),
        True,
        None,
        "rounds",
        ROUNDS,
        passes["baseline"],
        seconds["baseline"],
    )
    comparison = Comparison(
        current,
        baseline,
        "target; the same loop, croupier imported from each src (processes alternate: "
        "current, baseline, ...)",
    )
    res.comparisons.append(comparison)
    res.targets.append(
        Target.over(
            "blackjack referee through seat views / the parent commit",
            comparison.ratios,
            ">=",
            TARGET_PARENT,
            "x",
            f"baseline {baseline_src}",
        )
    )
    for key in sides:
        res.info.append(f"{key} src: croupier loaded from {loaded[key]}")


def main(argv: list[str] | None = None) -> int:
    """Run this benchmark alone and print its block."""
    from benchmarks._report import run_one

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer pairs, shorter timings")
    parser.add_argument(
        "--baseline-src",
        type=Path,
        metavar="PATH",
        help="the src folder of an older checkout: also time the loop under it (c)",
    )
    args = parser.parse_args(argv)
    result = run_one(lambda cfg: run(cfg, args.baseline_src), Config(quick=args.quick))
    return 0 if all(c.passed for c in result.checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
