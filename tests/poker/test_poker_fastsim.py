"""The compiled simulator plays exactly the referee's rules: every hand it plays, replayed
card for card and decision for decision through HandState, ends with the same stacks."""

from __future__ import annotations

import pytest

from croupier.cards import Card, Deck
from croupier.poker import (
    FIVE_CARD_STUD,
    HOLDEM,
    OMAHA,
    SEVEN_CARD_STUD,
    FixedLimit,
    HandState,
    NoLimit,
    OddChip,
    PotLimit,
    TableRules,
)
from croupier.poker.sim.fastsim import FastResult, fast_simulate
from croupier.poker.structures import BettingStructure


def structure_for(name: str, big: int) -> BettingStructure:
    return {
        "no-limit": NoLimit(),
        "pot-limit": PotLimit(),
        "fixed-limit": FixedLimit(big, 2 * big),
    }[name]


def replay_totals(result: FastResult, rules: TableRules, players: int, stack: int) -> list[int]:
    """Replay every recorded hand through the referee; each seat's net chips in all."""
    assert result.decks is not None
    assert result.actions is not None
    totals = [0] * players
    for h in range(result.hands):
        deck = Deck.stacked([Card(int(c)) for c in result.decks[h]])
        hand = HandState(
            rules, dict.fromkeys(range(1, players + 1), stack), h % players + 1, deck=deck
        )
        log = result.actions[h]
        i = 0
        while not hand.is_complete:
            kind, amount = int(log[2 * i]), int(log[2 * i + 1])
            i += 1
            if kind == 0:
                hand.fold()
            elif kind == 1:
                hand.check()
            elif kind == 2:
                hand.call()
            elif kind == 3:
                hand.raise_to(amount)
            else:
                hand.bring_in(amount)
        assert int(log[2 * i]) == -1  # the referee needed exactly the kernel's decisions
        for seat, chips in hand.stacks.items():
            totals[seat - 1] += chips - stack
    return totals


@pytest.mark.parametrize("game", ["holdem", "omaha"])
@pytest.mark.parametrize("structure", ["no-limit", "pot-limit", "fixed-limit"])
@pytest.mark.parametrize("players", [2, 3, 6])
def test_every_fast_hand_replays_through_the_referee(
    game: str, structure: str, players: int
) -> None:
    small, big, stack = 1, 2, 40  # short stacks: all-ins and side pots are common
    hands = 300
    result = fast_simulate(
        players=players,
        hands=hands,
        stack=stack,
        blinds=(small, big),
        game=game,
        structure=structure,
        seed=players,
        record=True,
    )
    assert result.decks is not None
    assert result.actions is not None
    rules = TableRules(
        HOLDEM if game == "holdem" else OMAHA,
        structure_for(structure, big),
        blinds=(small, big),
        table_minimum=big,
        odd_chip=OddChip.FIRST_LEFT_OF_BUTTON,
    )
    totals = replay_totals(result, rules, players, stack)
    assert totals == result.totals.tolist()


@pytest.mark.parametrize("game", ["stud5", "stud7"])
@pytest.mark.parametrize("players", [2, 4, 7])
def test_every_fast_stud_hand_replays_through_the_referee(game: str, players: int) -> None:
    ante, bring_in, stack = 1, 2, 40
    hands = 300
    result = fast_simulate(
        players=players,
        hands=hands,
        stack=stack,
        blinds=(ante, bring_in),
        game=game,
        structure="fixed-limit",
        seed=players,
        record=True,
    )
    assert result.decks is not None
    assert result.actions is not None
    spec = FIVE_CARD_STUD if game == "stud5" else SEVEN_CARD_STUD
    rules = TableRules(
        spec,
        FixedLimit(2 * bring_in, 4 * bring_in),
        blinds=(),
        ante=ante,
        bring_in=bring_in,
        table_minimum=bring_in,
        odd_chip=OddChip.FIRST_LEFT_OF_BUTTON,
    )
    totals = replay_totals(result, rules, players, stack)
    assert totals == result.totals.tolist()
