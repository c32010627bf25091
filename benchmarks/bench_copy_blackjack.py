"""``BlackjackRound.copy()`` beside ``copy.deepcopy`` and ``BlackjackRound.replay`` in one run.

The round is a six-deck NZ round in play: three boxes, one of them split, the next hand to
act. The three are timed in alternating rounds (copy, deepcopy, replay, copy, ...); the
figures are the median and range over the rounds, per call. The copy and the replay are
checked equal to the original first. Run alone with
``python -m benchmarks.bench_copy_blackjack``.
"""

from __future__ import annotations

import argparse
import copy

from benchmarks._harness import BenchResult, Check, Comparison, Config, Side
from benchmarks._timing import rounds

__all__ = ["main", "round_in_play", "run"]

NAME = "copy_blackjack"
TITLE = "BlackjackRound.copy() against copy.deepcopy and replay, three boxes and a split"


def round_in_play() -> object:
    """Three boxes, box 1 split (8 8 against a 6), its first hand to act. The shoe is
    seeded: deepcopy cannot copy the default CSPRNG (copy() shares it)."""
    from croupier.blackjack import NZ, BlackjackRound
    from croupier.cards import Shoe, full_deck, parse_cards

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


def run(cfg: Config) -> BenchResult:
    """Time copy(), deepcopy and replay in alternating rounds; check them first."""
    from croupier.blackjack import NZ, BlackjackRound

    res = BenchResult(NAME, TITLE)
    rnd = round_in_play()
    assert isinstance(rnd, BlackjackRound)
    res.checks.append(
        Check(
            "BlackjackRound.copy() and replay(rules, events) equal the original (snapshot)",
            rnd.copy().snapshot() == rnd.snapshot()
            and BlackjackRound.replay(NZ, rnd.events).snapshot() == rnd.snapshot(),
            f"{len(rnd.events)} events, {len(rnd.shoe)} cards in the shoe",
        )
    )
    sides = [
        Side("BlackjackRound.copy()", "rnd.copy()", rnd.copy, 1, "copies", job=1),
        Side(
            "copy.deepcopy",
            "copy.deepcopy(rnd)",
            lambda: copy.deepcopy(rnd),
            1,
            "copies",
            croupier=False,
            job=1,
        ),
        Side(
            "BlackjackRound.replay",
            "BlackjackRound.replay(NZ, rnd.events): rebuild from the event log",
            lambda: BlackjackRound.replay(NZ, rnd.events),
            1,
            "copies",
            job=1,
        ),
    ]
    ours, deep, replay = rounds(sides, cfg.pairs, cfg.min_seconds)
    res.comparisons += [
        Comparison(ours, deep, "B is Python's generic deep copy of the same object"),
        Comparison(ours, replay, "B rebuilds the round from its event log (croupier too)"),
    ]
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
