"""Poker simulation speed: random-policy hands per second, croupier against PokerKit.

Same run, same random-action policy (uniform over the legal kinds of action, a raise to
a uniform legal amount), every dealer chore automatic. Run with
``python -m benchmarks.bench_poker_sim [--hands N]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

try:
    import croupier  # noqa: F401
except ImportError:  # a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from croupier.poker import (
    HOLDEM,
    OMAHA,
    SEVEN_CARD_STUD,
    FixedLimit,
    HandState,
    NoLimit,
    PotLimit,
    TableRules,
)
from croupier.poker.policies import RandomPolicy
from croupier.poker.sim.fastsim import fast_simulate


def engine_rate(rules: TableRules, players: int, hands: int, stack: int) -> float:
    """Hands a second through the referee (HandState) with the random policy."""
    rng = random.Random(1)
    policy = RandomPolicy(rng)
    start = time.perf_counter()
    for h in range(hands):
        hand = HandState(
            rules, dict.fromkeys(range(1, players + 1), stack), h % players + 1, rng=rng
        )
        while not hand.is_complete:  # the bot sees only its seat's view
            seat = hand.actor
            hand.apply(policy(hand.view_for(seat)).for_seat(seat))
    return hands / (time.perf_counter() - start)


def pokerkit_rate(game: str, players: int, hands: int, stack: int) -> float:
    """Hands a second in PokerKit with the same policy and every chore automated."""
    import pokerkit as pk

    automations = (
        pk.Automation.ANTE_POSTING,
        pk.Automation.BET_COLLECTION,
        pk.Automation.BLIND_OR_STRADDLE_POSTING,
        pk.Automation.CARD_BURNING,
        pk.Automation.HOLE_DEALING,
        pk.Automation.BOARD_DEALING,
        pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pk.Automation.HAND_KILLING,
        pk.Automation.CHIPS_PUSHING,
        pk.Automation.CHIPS_PULLING,
    )
    rng = random.Random(1)

    def state() -> Any:
        if game == "holdem":
            return pk.NoLimitTexasHoldem.create_state(
                automations, True, 0, (1, 2), 2, stack, players
            )
        if game == "holdem-fl":
            return pk.FixedLimitTexasHoldem.create_state(
                automations, True, 0, (1, 2), 2, 4, stack, players
            )
        if game == "omaha":
            return pk.PotLimitOmahaHoldem.create_state(
                automations, True, 0, (1, 2), 2, stack, players
            )
        return pk.FixedLimitSevenCardStud.create_state(
            automations, True, 1, 1, 2, 4, stack, players
        )

    start = time.perf_counter()
    for _ in range(hands):
        s = state()
        while s.status:
            options = []
            if s.can_fold() and s.checking_or_calling_amount:
                options.append("fold")
            if s.can_post_bring_in():
                options.append("bring")
            if s.can_check_or_call():
                options.append("cc")
            if s.can_complete_bet_or_raise_to():
                options.append("raise")
            if not options:
                break
            choice = rng.choice(options)
            if choice == "fold":
                s.fold()
            elif choice == "bring":
                s.post_bring_in()
            elif choice == "cc":
                s.check_or_call()
            else:
                low = s.min_completion_betting_or_raising_to_amount
                high = s.max_completion_betting_or_raising_to_amount
                s.complete_bet_or_raise_to(rng.randint(low, high))
    return hands / (time.perf_counter() - start)


def memory_per_state(rules: TableRules, players: int) -> int:
    """Bytes allocated by one HandState mid-hand (tracemalloc)."""
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    hands = [
        HandState(rules, dict.fromkeys(range(1, players + 1), 200), 1, seed=i) for i in range(200)
    ]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    total = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    del hands
    return total // 200


def main(argv: list[str] | None = None) -> int:
    """Print rates and ratios for six-player games."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=300, help="hands for the slow engines")
    parser.add_argument("--fast-hands", type=int, default=300_000)
    args = parser.parse_args(argv)
    players, stack = 6, 200
    fast_simulate(players=2, hands=10, stack=20, blinds=(1, 2), seed=0)  # compile or load once
    games: list[tuple[str, TableRules, str | None]] = [
        (
            "No-limit Hold'em",
            TableRules(HOLDEM, NoLimit(), blinds=(1, 2), table_minimum=2),
            "holdem",
        ),
        ("Pot-limit Omaha", TableRules(OMAHA, PotLimit(), blinds=(1, 2), table_minimum=2), "omaha"),
        (
            "Fixed-limit Hold'em",
            TableRules(HOLDEM, FixedLimit(2, 4), blinds=(1, 2), table_minimum=2),
            "holdem-fl",
        ),
        (
            "Fixed-limit 7 Card Stud",
            TableRules(
                SEVEN_CARD_STUD, FixedLimit(2, 4), blinds=(), ante=1, bring_in=1, table_minimum=1
            ),
            "stud7",
        ),
    ]
    print(f"six players, {stack}-chip stacks, random policy; PokerKit {args.hands} hands a game")
    print(
        f"{'game':<26}{'PokerKit':>12}{'engine':>12}{'fast kernel':>14}{'engine/PK':>11}{'fast/PK':>10}"
    )
    for title, rules, fast_game in games:
        kind = {"stud7": "stud", "holdem-fl": "holdem-fl"}.get(str(fast_game), str(fast_game))
        peer = pokerkit_rate(kind, players, args.hands, stack)
        engine = engine_rate(rules, players, args.hands * 3, stack)
        fast = None
        if fast_game is not None:
            structure = {"holdem": "no-limit", "omaha": "pot-limit"}.get(fast_game, "fixed-limit")
            fast_game = "holdem" if fast_game == "holdem-fl" else fast_game
            start = time.perf_counter()
            fast_simulate(
                players=players,
                hands=args.fast_hands,
                stack=stack,
                blinds=(1, 1) if fast_game == "stud7" else (1, 2),  # stud: ante 1, bring-in 1
                game=fast_game,
                structure=structure,
                seed=1,
            )
            fast = args.fast_hands / (time.perf_counter() - start)
        fast_text = f"{fast:14,.0f}" if fast else f"{'—':>14}"
        ratio = f"{fast / peer:9.0f}x" if fast else f"{'—':>10}"
        print(f"{title:<26}{peer:12,.0f}{engine:12,.0f}{fast_text}{engine / peer:10.1f}x{ratio}")
    size = memory_per_state(games[0][1], players)
    print(f"memory per HandState (six-player Hold'em, after the deal): {size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
