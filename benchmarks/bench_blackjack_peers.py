"""Blackjack simulation speed of four Python peers: rounds a second, one core.

Every peer plays one seat against the dealer with the same policy, the only one all four
APIs can express: **hit below a best total of 17, else stand** (no doubles, splits,
surrender or insurance chosen by the player; the dealer follows each library's own rule).
Each rate counts whole rounds (deal, player's turn, dealer's turn, settlement), timed with
:func:`time.perf_counter` after an untimed warm-up, the garbage collector paused (as in
:mod:`benchmarks._timing`). Object construction that a simulation does once (loading the
game, the table, the environment) is outside the clock. :data:`PLAYERS` gives each peer
as ``setup(rounds) -> play`` (one call of ``play`` plays ``rounds`` rounds), which
:mod:`benchmarks.bench_blackjack` times in alternating pairs against croupier. Run with
``python -m benchmarks.bench_blackjack_peers [--rounds N]``.

How each peer is driven, and the rules it plays:

* ``py21`` (PyPI ``py21``): one ``py21.Game`` with one ``py21.Player`` whose
  ``strategy_func`` is the library's own ``py21.strategies.hit_to_seventeen``;
  ``Game.play_round()`` in a loop (``Game.simulate`` is the same loop behind a tqdm bar).
  Default rules: 8 decks, reshuffle at 25 % left, burn card, dealer stands on soft 17,
  3:2 blackjack, insurance offered (declined by the default ``insurance_func``). The
  package imports ``altair`` at import time without declaring it, so ``altair`` must be
  installed too.
* ``openspiel`` (PyPI ``open_spiel``, module ``pyspiel``, game ``"blackjack"``):
  ``game.new_initial_state()``, then chance nodes get a card drawn uniformly from
  ``state.legal_actions()`` and the player node gets ``Hit`` or ``Stand`` from
  ``state.get_best_player_total(0)``, until ``is_terminal()``; ``returns()`` settles.
  At a chance node ``legal_actions()`` lists exactly the cards of ``chance_outcomes()``,
  each of probability ``1 / cards left`` (checked once at set-up), so a uniform draw
  samples the same distribution about twice as fast as building ``chance_outcomes()``'s
  list of pairs (which gave about half the rate here). Rules: one 52-card deck, fresh
  every round; hit or stand only; dealer stands on every 17; a natural pays 1:1.
* ``cardsharp`` (PyPI ``cardsharp``; 0.1.0 is the only release the registry serves here):
  ``BlackjackGame`` with one ``Player``, its state machine stepped by
  ``await game.play_round()`` then ``game.reset()`` each round, as the package's own
  ``main()`` does, all rounds inside one ``asyncio`` event loop. The strategy is a
  duck-typed object with ``decide_action`` (the library calls nothing else on it), and the
  IO interface a duck-typed silent ``output`` coroutine: the library's
  ``DummyIOInterface`` awaits ``asyncio.sleep(0)`` for each of some 15 messages a round,
  which costs about a quarter of the rate (measured about 4,400 against 6,000 rounds/s).
  Rules are simplified: one 52-card deck, fresh and reshuffled every round; dealer hits
  soft 17; no peek for a dealer natural; insurance is bought automatically whenever the
  dealer shows an ace; a player natural is paid at once. It uses the global
  :mod:`random` generator, which is seeded here. Its dependency on the obsolete PyPI
  ``asyncio`` 3.4.3 backport is harmless on Python 3.11 (the standard library's
  ``asyncio`` comes first on ``sys.path``) unless Python is started from inside
  ``site-packages``.
* ``rlcard`` (PyPI ``rlcard``, env ``"blackjack"``): ``env.reset()`` then
  ``env.step(action)`` until ``env.is_over()``, the action from the player's score
  ``state["obs"][0]`` (no agent objects and no trajectory lists, which ``env.run`` would
  build); ``env.get_payoffs()`` settles. Rules: one 52-card deck, fresh every round
  (``game_num_decks`` = 1, the default); hit or stand only; dealer stands on every 17;
  a natural pays 1:1.

A peer that is not installed is reported as ``not installed: ...``; one that raises, as
``failed: ...``.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import random
from collections.abc import Callable
from functools import partial
from typing import Any, Final

from benchmarks._timing import timed

__all__ = ["PEERS", "PLAYERS", "main", "measure_peers"]

STAND_ON: Final = 17
"""The policy: hit while the best total is below this, else stand."""

SEED: Final = 20240917


Player = Callable[[int], Callable[[], None]]
"""``setup(rounds)``: build the peer's game once, return a call that plays ``rounds`` rounds."""


def _rate(setup: Player, rounds: int) -> float:
    """Set up, play one untimed call (warm-up), then time one call of ``rounds``; rounds a second."""
    if rounds < 1:
        raise ValueError("rounds must be positive")
    play = setup(rounds)
    play()
    return rounds / timed(play, 1)


def py21_player(rounds: int) -> Callable[[], None]:
    """``py21.Game.play_round`` with ``hit_to_seventeen``, ``rounds`` rounds a call."""
    import py21
    from py21.strategies import hit_to_seventeen

    player = py21.Player(10**15, strategy_func=hit_to_seventeen)  # never runs out
    game = py21.Game([player], seed=SEED)

    def play() -> None:
        for _ in range(rounds):
            game.play_round()

    return play


def openspiel_player(rounds: int) -> Callable[[], None]:
    """OpenSpiel's ``blackjack``, chance sampled uniformly, ``rounds`` rounds a call."""
    import pyspiel

    game = pyspiel.load_game("blackjack")
    hit = int(pyspiel.blackjack.ActionType.HIT)
    stand = int(pyspiel.blackjack.ActionType.STAND)
    rng = random.Random(SEED)
    choice = rng.choice

    first = game.new_initial_state()
    outcomes = first.chance_outcomes()
    if [a for a, _ in outcomes] != first.legal_actions() or len({p for _, p in outcomes}) != 1:
        raise RuntimeError("chance outcomes are not a uniform draw over legal_actions()")

    def play() -> None:
        for _ in range(rounds):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.legal_actions()))
                elif state.get_best_player_total(0) < STAND_ON:
                    state.apply_action(hit)
                else:
                    state.apply_action(stand)
            state.returns()

    return play


class _HitBelow17:
    """cardsharp strategy: the only method its ``Player`` calls on a strategy."""

    def __init__(self, hit: Any, stand: Any) -> None:
        self.hit = hit
        self.stand = stand

    def decide_action(self, player: Any, dealer_up_card: Any = None) -> Any:
        """Hit while the current hand's value is below 17."""
        return self.hit if player.current_hand.value() < STAND_ON else self.stand


class _SilentIO:
    """cardsharp IO interface that drops every message (its game only calls ``output``)."""

    async def output(self, message: str) -> None:
        """Discard one message."""


def cardsharp_player(rounds: int) -> Callable[[], None]:
    """cardsharp's async ``BlackjackGame.play_round``, ``rounds`` rounds a call (one event loop,
    kept open for the life of the process)."""
    from cardsharp.blackjack.action import Action
    from cardsharp.blackjack.actor import Player
    from cardsharp.blackjack.blackjack import BlackjackGame
    from cardsharp.blackjack.state import PlacingBetsState

    random.seed(SEED)  # cardsharp shuffles with the global generator
    io = _SilentIO()
    rules = {
        "blackjack_payout": 1.5,
        "allow_insurance": True,
        "min_players": 1,
        "min_bet": 10,
        "max_players": 6,
    }  # the package's own main() rules

    async def setup() -> Any:
        game = BlackjackGame(rules, io)
        await game.add_player(Player("player", io, _HitBelow17(Action.HIT, Action.STAND)))
        await game.set_state(PlacingBetsState())
        return game

    async def rounds_of(game: Any, n: int) -> None:
        for _ in range(n):
            await game.play_round()
            game.reset()

    runner = asyncio.Runner()
    atexit.register(runner.close)
    game = runner.run(setup())
    return lambda: runner.run(rounds_of(game, rounds))


def rlcard_player(rounds: int) -> Callable[[], None]:
    """rlcard's ``blackjack`` env through ``reset``/``step``, ``rounds`` rounds a call."""
    import rlcard

    env = rlcard.make("blackjack", config={"seed": SEED})

    def play() -> None:
        for _ in range(rounds):
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(0 if state["obs"][0] < STAND_ON else 1)  # 0 hit, 1 stand
            env.get_payoffs()

    return play


PLAYERS: dict[str, Player] = {
    "py21": py21_player,
    "openspiel": openspiel_player,
    "cardsharp": cardsharp_player,
    "rlcard": rlcard_player,
}
"""Peer name -> ``setup(rounds) -> play``."""

PEERS: dict[str, Callable[[int], float]] = {
    name: partial(_rate, setup) for name, setup in PLAYERS.items()
}
"""Peer name -> ``rounds_per_second(rounds)``."""


def measure_peers(rounds: int = 20_000) -> dict[str, float | str]:
    """Rounds a second of every peer, or why it could not be measured."""
    out: dict[str, float | str] = {}
    for name, rate in PEERS.items():
        try:
            out[name] = rate(rounds)
        except ImportError as exc:
            out[name] = f"not installed: {exc.name or exc}"
        except Exception as exc:
            out[name] = f"failed: {type(exc).__name__}: {exc}"
    return out


def main(argv: list[str] | None = None) -> None:
    """Measure every peer and print a small table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=20_000, help="timed rounds per peer")
    args = parser.parse_args(argv)
    results = measure_peers(args.rounds)
    print(f"blackjack, one seat, hit below {STAND_ON}; {args.rounds:,} timed rounds a peer")
    print(f"  {'peer':<10}  {'rounds/s':>12}")
    print(f"  {'-' * 10}  {'-' * 12}")
    for name, value in results.items():
        cell = f"{value:12,.0f}" if isinstance(value, float) else value
        print(f"  {name:<10}  {cell}")


if __name__ == "__main__":
    main()
