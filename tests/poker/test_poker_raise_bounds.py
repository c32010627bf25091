"""The legal raise range's ends are amounts the referee takes: with a chip unit above one
and stacks off the unit (an odd all-in leaves the bet to match off the unit), the lowest
and the highest raise the hand offers are each accepted, in every game and structure."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.poker import GAMES, HandState, NoLimit, PotLimit, TableRules
from croupier.poker.actions import RaiseTo
from croupier.poker.games import ForcedBets

STRUCTURES = [NoLimit(), PotLimit()]


def _rules(game_index: int, structure_index: int, unit: int) -> tuple[TableRules, int]:
    game = list(GAMES.values())[game_index % len(GAMES)]
    structure = STRUCTURES[structure_index % len(STRUCTURES)]
    if game.forced is ForcedBets.ANTE_BRING_IN:
        rules = TableRules(game, structure, blinds=(), ante=unit, table_minimum=2 * unit,
                           chip_unit=unit)  # fmt: skip
    else:
        rules = TableRules(game, structure, blinds=(unit, 2 * unit), table_minimum=2 * unit,
                           chip_unit=unit)  # fmt: skip
    return rules, game.max_players


@settings(max_examples=60, deadline=None)
@given(
    game=st.integers(0, 20),
    structure=st.integers(0, 1),
    unit=st.sampled_from([1, 5, 25]),
    seed=st.integers(0, 10_000),
    short=st.integers(1, 24),
)
def test_both_ends_of_the_raise_range_are_taken(
    game: int, structure: int, unit: int, seed: int, short: int
) -> None:
    rules, most = _rules(game, structure, unit)
    seats = min(4, most)
    stacks = dict.fromkeys(range(1, seats + 1), 40 * unit)
    stacks[2] = 4 * unit + short % unit + unit  # off the unit: its all-in is an odd amount
    hand = HandState(rules, stacks, button=1, seed=seed)
    rng = random.Random(seed)
    while not hand.is_complete:
        legal = hand.legal_actions()
        assert legal.actor is not None
        if legal.raise_to is not None:
            low, high = legal.raise_to
            assert hand.can(RaiseTo(low, seat=legal.actor)), (legal.describe(), low)
            assert hand.can(RaiseTo(high, seat=legal.actor)), (legal.describe(), high)
        choices = list(legal.actions())
        action = rng.choice(choices)
        if legal.raise_to is not None and rng.random() < 0.4:
            action = RaiseTo(legal.raise_to[rng.random() < 0.5], seat=legal.actor)
        hand.apply(action)
