"""Fixed limit's big bet starts at each game's own street (issue: ``FixedLimit(10, 20)`` once
started it at the third betting round for every game, so fixed-limit draw poker, with two
rounds, never reached it). The Gazette's definition of a fixed bet names no street; the
choice per game is common casino practice, recorded in docs/decisions.md."""

from __future__ import annotations

import pytest

from croupier.poker import GAMES, FixedLimit, HandState, TableRules
from croupier.poker.actions import CheckOrCall, Discard
from croupier.poker.games import ForcedBets

FIRST_BIG_BET_STREET = {
    "holdem": "turn",
    "omaha": "turn",
    "manila": "third",
    "manila3": "third",
    "draw": "draw",
    "stud5": "fourth card",
    "stud7": "fifth street",
}
"""Where each game's big bet starts: the rule this test holds the engine to."""


def table(game_name: str, structure: FixedLimit) -> TableRules:
    game = GAMES[game_name]
    if game.forced is ForcedBets.ANTE_BRING_IN:
        return TableRules(game, structure, blinds=(), ante=5, table_minimum=10)
    return TableRules(game, structure, blinds=(5, 10), table_minimum=10)


def opening_bets(game_name: str, structure: FixedLimit) -> dict[str, int]:
    """The opening bet offered on each street after the first, in a hand checked through."""
    rules = table(game_name, structure)
    hand = HandState(rules, dict.fromkeys((1, 2, 3), 1000), button=1, seed=11)
    offered: dict[str, int] = {}
    while not hand.is_complete:
        legal = hand.legal_actions()
        if legal.discard:
            hand.apply(Discard(()))
            continue
        if hand.street > 0 and hand.current_bet == 0 and legal.raise_to is not None:
            offered.setdefault(hand.street_name, legal.raise_to[0])
        if legal.bring_in is not None:
            hand.bring_in(legal.bring_in[0])
            continue
        hand.apply(CheckOrCall())
    return offered


@pytest.mark.rule("Poker definitions: Fixed Bet")
@pytest.mark.parametrize("game_name", sorted(FIRST_BIG_BET_STREET))
def test_the_big_bet_starts_at_the_games_own_street(game_name: str) -> None:
    game = GAMES[game_name]
    offered = opening_bets(game_name, FixedLimit(10, 20))
    names = [street.name for street in game.streets]
    first_big = names.index(FIRST_BIG_BET_STREET[game_name])
    assert game.big_bet_street == first_big
    assert offered, "the hand offered no opening bet after the first street"
    for name, bet in offered.items():
        assert bet == (20 if names.index(name) >= first_big else 10), (name, offered)
    assert 20 in offered.values()  # every game reaches its big bet, draw poker included


@pytest.mark.rule("Poker definitions: Fixed Bet")
@pytest.mark.parametrize("game_name", sorted(FIRST_BIG_BET_STREET))
def test_a_street_the_table_names_overrides_the_games(game_name: str) -> None:
    offered = opening_bets(game_name, FixedLimit(10, 20, big_bet_from=1))
    assert set(offered.values()) == {20}
    rules = table(game_name, FixedLimit(10, 20, big_bet_from=3))
    assert isinstance(rules.structure, FixedLimit)
    assert rules.structure.big_bet_from == 3
