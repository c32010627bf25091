"""Poker simulation speed: random-policy hands a second, croupier against PokerKit.

Six players, 200-chip stacks, blinds 1-2 (stud: ante 1, bring-in 1, bets 2 and 4), every
dealer chore automatic, stacks reset every hand. Three sides a game, timed in
alternating rounds (referee, PokerKit, compiled kernel, referee, ...):

* **referee** (like for like with PokerKit): croupier's
  :class:`~croupier.poker.state.HandState` driven from Python by
  :class:`~croupier.poker.policies.RandomPolicy` through the seat's view, as
  :func:`croupier.poker.sim.simulate` drives it: uniform over the legal kinds of action,
  a raise to a uniform legal amount;
* **PokerKit**: its state machine driven from Python by the same kind of policy
  (uniform over fold when facing a bet, check or call, raise to a uniform amount, stud's
  bring-in);
* **fastsim**: croupier's compiled simulator
  (:func:`~croupier.poker.sim.fastsim.fast_simulate`) with its built-in random policy:
  compiled, no Python per decision: **not like for like** with a Python-driven peer.

Each PokerKit timing lasts at least 3 s in the headline game (No-limit Hold'em, 7 rounds)
and 1 s in the others (5 rounds), the referee's 1 s and 0.5 s (``--quick``: 0.5 s and
0.25 s, 5 rounds).
Result checks: chips are conserved in every hand of both engines (the fastsim: its net
totals sum to zero on every call), and the actions a hand stay between 1 and
:data:`MAX_ACTIONS` (the mean is reported). Run alone with
``python -m benchmarks.bench_poker_sim [--quick]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

try:
    import croupier  # noqa: F401
except ImportError:  # a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from benchmarks._harness import BenchResult, Check, Comparison, Config, Side, StartupRow, first_call
from benchmarks._timing import rounds

__all__ = ["main", "run"]

NAME = "poker_sim"
TITLE = "poker simulation, six players, random policy: croupier's referee and fastsim vs PokerKit"
PLAYERS: Final = 6
STACK: Final = 200
MAX_ACTIONS: Final = 400
"""Upper bound on player actions in one hand (a plausibility check, not a rule)."""
LIKE_FOR_LIKE: Final = (
    "like for like: both engines driven from Python by a uniform random policy, same game, "
    "blinds and stacks"
)
NOT_LIKE_FOR_LIKE: Final = (
    "built-in policy, compiled; peers play a different game — not like for like "
    "(no Python between decisions)"
)


@dataclass(frozen=True)
class Game:
    """One game as each engine names it."""

    title: str
    key: str
    pokerkit: str
    fast_game: str
    structure: str
    blinds: tuple[int, int]
    """Blinds (stud: ante and bring-in) for the fastsim."""


GAMES: Final = (
    Game("No-limit Hold'em", "NLHE", "holdem", "holdem", "no-limit", (1, 2)),
    Game("Pot-limit Omaha", "PLO", "omaha", "omaha", "pot-limit", (1, 2)),
    Game("Fixed-limit Hold'em", "FLHE", "holdem-fl", "holdem", "fixed-limit", (1, 2)),
    Game("Fixed-limit 7 Card Stud", "Stud", "stud", "stud7", "fixed-limit", (1, 1)),
)


@dataclass
class Tally:
    """Per-hand result checks, accumulated over every timed hand."""

    hands: int = 0
    bad_chips: int = 0
    actions: int = 0
    fewest: int = 10**9
    most: int = 0
    stuck: int = 0

    def add(self, actions: int, conserved: bool) -> None:
        """Count one hand."""
        self.hands += 1
        self.bad_chips += not conserved
        self.actions += actions
        self.fewest = min(self.fewest, actions)
        self.most = max(self.most, actions)

    @property
    def plausible(self) -> bool:
        """Every hand took between 1 and MAX_ACTIONS actions and none got stuck."""
        return self.hands > 0 and self.stuck == 0 and self.fewest >= 1 and self.most <= MAX_ACTIONS

    def text(self) -> str:
        """Counts for a check's detail."""
        mean = self.actions / self.hands if self.hands else float("nan")
        return (
            f"{self.hands:,} hands, actions a hand {self.fewest}-{self.most} (mean {mean:.1f}), "
            f"chip-count errors {self.bad_chips}, stuck {self.stuck}"
        )


def _rules(game: Game) -> Any:
    from croupier.poker import HOLDEM, OMAHA, SEVEN_CARD_STUD, FixedLimit, NoLimit, PotLimit
    from croupier.poker import TableRules as Rules

    if game.key == "NLHE":
        return Rules(HOLDEM, NoLimit(), blinds=(1, 2), table_minimum=2)
    if game.key == "PLO":
        return Rules(OMAHA, PotLimit(), blinds=(1, 2), table_minimum=2)
    if game.key == "FLHE":
        return Rules(HOLDEM, FixedLimit(2, 4), blinds=(1, 2), table_minimum=2)
    return Rules(SEVEN_CARD_STUD, FixedLimit(2, 4), blinds=(), ante=1, bring_in=1, table_minimum=1)


def referee_player(game: Game, hands: int, tally: Tally, seed: int) -> Callable[[], None]:
    """``hands`` hands through HandState with RandomPolicy a call (the button moves each hand)."""
    from croupier.poker import HandState
    from croupier.poker.policies import RandomPolicy

    rules = _rules(game)
    rng = random.Random(seed)
    policy = RandomPolicy(rng)
    seats = range(1, PLAYERS + 1)
    total = PLAYERS * STACK
    counter = [0]

    def play() -> None:
        for _ in range(hands):
            counter[0] += 1
            hand = HandState(rules, dict.fromkeys(seats, STACK), counter[0] % PLAYERS + 1, rng=rng)
            acts = 0
            while not hand.is_complete:  # the bot sees only its seat's view
                seat = hand.actor
                hand.apply(policy(hand.view_for(seat)).for_seat(seat))
                acts += 1
            tally.add(acts, sum(hand.stacks.values()) == total)

    return play


def pokerkit_player(game: Game, hands: int, tally: Tally, seed: int) -> Callable[[], None]:
    """``hands`` PokerKit hands a call, every chore automated, the same kind of random policy."""
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
    rng = random.Random(seed)
    total = PLAYERS * STACK

    def state() -> Any:
        if game.pokerkit == "holdem":
            return pk.NoLimitTexasHoldem.create_state(
                automations, True, 0, (1, 2), 2, STACK, PLAYERS
            )
        if game.pokerkit == "holdem-fl":
            return pk.FixedLimitTexasHoldem.create_state(
                automations, True, 0, (1, 2), 2, 4, STACK, PLAYERS
            )
        if game.pokerkit == "omaha":
            return pk.PotLimitOmahaHoldem.create_state(
                automations, True, 0, (1, 2), 2, STACK, PLAYERS
            )
        return pk.FixedLimitSevenCardStud.create_state(
            automations, True, 1, 1, 2, 4, STACK, PLAYERS
        )

    def play() -> None:
        for _ in range(hands):
            s = state()
            acts = 0
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
                    tally.stuck += 1
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
                acts += 1
            tally.add(acts, sum(s.stacks) == total)

    return play


def fastsim_player(game: Game, hands: int, tally: Tally) -> Callable[[], None]:
    """``hands`` hands of the compiled simulator a call (a new seed each call)."""
    from croupier.poker.sim.fastsim import fast_simulate

    counter = [0]

    def play() -> None:
        counter[0] += 1
        result = fast_simulate(
            players=PLAYERS,
            hands=hands,
            stack=STACK,
            blinds=game.blinds,
            game=game.fast_game,
            structure=game.structure,
            seed=counter[0],
        )
        tally.hands += hands
        tally.bad_chips += int(result.totals.sum()) != 0

    return play


def _fastsim_actions(game: Game) -> Tally:
    """Actions a hand of the compiled simulator, from one recorded 2,000-hand run (untimed)."""
    from croupier.poker.sim.fastsim import fast_simulate

    rec = fast_simulate(
        players=PLAYERS,
        hands=2_000,
        stack=STACK,
        blinds=game.blinds,
        game=game.fast_game,
        structure=game.structure,
        seed=0,
        record=True,
    )
    assert rec.actions is not None
    tally = Tally()
    for count in (rec.actions[:, 0::2] >= 0).sum(axis=1).tolist():
        tally.add(int(count), True)  # per-hand chips are not recorded: totals checked apart
    tally.bad_chips = int(int(rec.totals.sum()) != 0)
    return tally


def memory_per_state(game: Game) -> int:
    """Bytes allocated by one HandState after the deal (tracemalloc, 200 hands)."""
    from croupier.poker import HandState

    rules = _rules(game)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    hands = [
        HandState(rules, dict.fromkeys(range(1, PLAYERS + 1), STACK), 1, seed=i) for i in range(200)
    ]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    total = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    del hands
    return total // 200


def run(cfg: Config) -> BenchResult:
    """Measure every game; see the module docstring."""
    from croupier.poker.sim.fastsim import fast_simulate

    res = BenchResult(NAME, TITLE)
    res.startup.append(
        StartupRow(
            "croupier fast_simulate first call",
            first_call(lambda: fast_simulate(players=2, hands=10, stack=20, blinds=(1, 2), seed=0)),
            "numba cache load (a compile if the cache is stale)",
        )
    )
    for number, game in enumerate(GAMES):
        headline = number == 0
        pk_floor = 0.5 if cfg.quick else 3.0 if headline else 1.0
        ref_floor = 0.25 if cfg.quick else 1.0 if headline else 0.5
        tallies = {k: Tally() for k in ("referee", "pokerkit", "fastsim")}
        seed = cfg.seed + number
        sides = [
            Side(
                f"referee {game.key}",
                f"{game.title}: HandState + RandomPolicy from Python, 50 hands a call",
                referee_player(game, 50, tallies["referee"], seed),
                50,
                threads=None,
                min_seconds=ref_floor,
            ),
            Side(
                f"PokerKit {game.key}",
                f"{game.title}: PokerKit state + the same kind of random policy, 25 hands a call",
                pokerkit_player(game, 25, tallies["pokerkit"], seed),
                25,
                croupier=False,
                threads=None,
                min_seconds=pk_floor,
            ),
            Side(
                f"fastsim {game.key}",
                f"{game.title}: fast_simulate(players=6, hands=20000, ...), built-in policy",
                fastsim_player(game, 20_000, tallies["fastsim"]),
                20_000,
            ),
        ]
        pairs = cfg.pairs if headline else 5
        referee, peer, fast = rounds(sides, pairs, cfg.min_seconds)
        res.comparisons += [
            Comparison(referee, peer, LIKE_FOR_LIKE + (" (the headline row)" if headline else "")),
            Comparison(fast, peer, NOT_LIKE_FOR_LIKE),
        ]
        for who in ("referee", "pokerkit"):
            tally = tallies[who]
            res.checks.append(
                Check(
                    f"{game.key} {who}: chips conserved in every hand, actions a hand plausible",
                    tally.bad_chips == 0 and tally.plausible,
                    tally.text(),
                )
            )
        timed, recorded = tallies["fastsim"], _fastsim_actions(game)
        res.checks.append(
            Check(
                f"{game.key} fastsim: net totals sum to 0 on every call, actions a hand plausible",
                timed.bad_chips == 0 and recorded.bad_chips == 0 and recorded.plausible,
                f"{timed.hands:,} timed hands, {timed.bad_chips} calls off; recorded run: "
                + recorded.text(),
            )
        )
    res.info.append(
        f"memory per HandState, six-player No-limit Hold'em after the deal: "
        f"{memory_per_state(GAMES[0]):,} bytes (tracemalloc, mean of 200)"
    )
    floors = (
        "0.5 s, the referee's 0.25 s"
        if cfg.quick
        else ("3 s in NLHE and 1 s in the other games, the referee's 1 s and 0.5 s")
    )
    res.notes.append(
        f"PokerKit timings >= {floors}; {cfg.pairs} rounds for NLHE, 5 for the other games"
    )
    return res


def main(argv: list[str] | None = None) -> int:
    """Run this benchmark alone and print its block."""
    from benchmarks._report import run_one

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="shorter timings")
    args = parser.parse_args(argv)
    result = run_one(run, Config(quick=args.quick))
    return 0 if all(c.passed for c in result.checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
