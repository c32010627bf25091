"""Bots: every decision legal on random views, fast, and the default bot wins."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.blackjack.bots import basic_strategy_bot, gut_bot
from croupier.blackjack.rules import NZ
from croupier.play.bj_session import BlackjackSession
from croupier.play.session import PokerSession
from croupier.poker.bots import BOTS, DefaultBot
from croupier.poker.events import RakeTaken
from croupier.poker.games import GAMES, ForcedBets
from croupier.poker.policies import Policy
from croupier.poker.settings import TableRules
from croupier.poker.state import HandState
from croupier.poker.structures import structure_for_stakes


def _rules(game: str, structure: str) -> TableRules:
    spec = GAMES[game]
    if spec.forced is ForcedBets.BLINDS:
        return TableRules(spec, structure_for_stakes(structure, 10), blinds=(5, 10))
    return TableRules(
        spec, structure_for_stakes(structure, 10), blinds=(), ante=2, bring_in=5, table_minimum=5
    )


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(sorted(GAMES)),
    structure=st.sampled_from(["no-limit", "pot-limit", "fixed-limit", "spread-limit"]),
    players=st.integers(2, 6),
    seed=st.integers(0, 10_000),
    stacks=st.lists(st.integers(1, 600), min_size=6, max_size=6),
)
def test_every_bot_decision_is_legal(
    game: str, structure: str, players: int, seed: int, stacks: list[int]
) -> None:
    hand = HandState(
        _rules(game, structure), {s: stacks[s - 1] for s in range(1, players + 1)}, 1, seed=seed
    )
    rng = random.Random(seed)
    bots: list[Policy] = [BOTS[name](random.Random(seed)) for name in BOTS]
    while not hand.is_complete:
        seat = hand.actor
        assert seat is not None
        action = rng.choice(bots)(hand.view_for(seat))
        assert hand.can(action.for_seat(seat)), (action, hand.legal_actions().describe())
        hand.apply(action.for_seat(seat))
    assert sum(hand.stacks.values()) + sum(
        e.amount for e in hand.events if isinstance(e, RakeTaken)
    ) == sum(stacks[:players])


def test_a_default_decision_is_bounded_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """The < 50 ms budget is measured in ``benchmarks/bench_bots.py`` (speed is measured in
    benchmarks, not timed tests). Here the work is bounded: a decision runs at most one
    equity estimate, of at most ``4 * samples`` deals before any card is shown (then
    cached, so a repeated pre-flop spot runs none) and ``samples`` after."""
    import croupier.poker.bots as bots

    real = bots.estimate_equity
    asked: list[int] = []

    def counted(*args: Any, samples: int, **kwargs: Any) -> float:
        asked.append(samples)
        return real(*args, samples=samples, **kwargs)

    monkeypatch.setattr(bots, "estimate_equity", counted)
    bot = DefaultBot(random.Random(1))
    decisions = 0
    for game in sorted(GAMES):
        for seed in range(4):
            hand = HandState(
                _rules(game, "no-limit"), dict.fromkeys(range(1, 7), 500), 1, seed=seed
            )
            while not hand.is_complete:
                view = hand.view_for(hand.actor)
                before = len(asked)
                action = bot(view)
                assert len(asked) - before <= 1
                decisions += 1
                assert view.seat is not None
                hand.apply(action.for_seat(view.seat))
    assert asked
    assert max(asked) <= 4 * bot.samples
    assert len(asked) <= decisions


def test_the_default_bot_beats_random_and_calling() -> None:
    for style in ("random", "calling"):
        session = PokerSession(TableRules(), seats=2, human=None, bot_style=style, seed=3)
        # seat 2's bot becomes the default bot: the session's bots are its own policies
        session._bots["bot2"] = DefaultBot(random.Random(4))
        before = session.buy_in
        session.play(hands=400)
        # with rebuys the default bot's stack is what it won
        won = session.table.stacks["bot2"] - before
        assert won > 40 * 10, (style, won)  # at least 10 big blinds a 100 hands


def test_blackjack_bots_play_whole_rounds() -> None:
    for policy in (basic_strategy_bot(NZ), gut_bot):
        session = BlackjackSession(human=None, bots=3, seed=2)
        session._bot = policy
        assert session.play(rounds=30) == 30
