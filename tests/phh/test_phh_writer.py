"""Writing PHH: croupier's files replay in croupier losslessly and load in PokerKit.

Two PokerKit conventions differ from croupier's rules, so the PokerKit check here plays
hands that avoid them (documented in docs/decisions.md, "Hand histories"); the large
runs both ways (5,000 PokerKit hands replayed by croupier, 2,500 croupier hands loaded
by PokerKit, five tables) are in tests/differential/test_phh_pokerkit.py:
- PokerKit refuses a bet or raise larger than any opponent can call (croupier accepts
  it and returns the uncalled part, as casinos do);
- PokerKit 0.7.7 refuses a fixed-limit raise by an all-in player for less than a full
  raise (croupier allows the tap-out, 17.6(c)).
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from croupier.phh import PROFILES, PHHError, loads, replay
from croupier.phh.writer import dumps
from croupier.poker import (
    GAMES,
    HOLDEM,
    OMAHA,
    POKERKIT_CAP,
    SEVEN_CARD_STUD,
    FixedLimit,
    GameSpec,
    HandState,
    NoLimit,
    PotLimit,
    RaiseCap,
    SpreadLimit,
    TableRules,
)
from croupier.poker import events as ev
from croupier.poker.settings import Rake
from croupier.poker.structures import BettingStructure

pokerkit = pytest.importorskip("pokerkit")

CASES: list[tuple[GameSpec, BettingStructure]] = [
    (HOLDEM, NoLimit()),
    (HOLDEM, FixedLimit(10, 20)),
    (OMAHA, PotLimit()),
    (SEVEN_CARD_STUD, FixedLimit(10, 20)),
]


def table(game: GameSpec, structure: BettingStructure, profile: str) -> TableRules:
    extra = PROFILES[profile].settings()  # odd chip, heads-up blinds and raise cap
    if game.forced.value == "blinds":
        return TableRules(game, structure, blinds=(5, 10), table_minimum=10, **extra)
    return TableRules(game, structure, blinds=(), ante=2, bring_in=5, table_minimum=5, **extra)


def play(rules: TableRules, seed: int, *, pokerkit_safe: bool) -> HandState:
    rng = random.Random(seed)
    seats = rng.randint(2, 6)
    hand = HandState(rules, {s: rng.choice([30, 100, 400]) for s in range(1, seats + 1)},
                     button=seats, seed=seed)  # fmt: skip
    while not hand.is_complete:
        legal = hand.legal_actions()
        assert legal.actor is not None
        me = hand.players[legal.actor]
        if legal.bring_in is not None:
            hand.bring_in(rng.choice(legal.bring_in))
            continue
        roll = rng.random()
        if legal.raise_to is not None and roll < 0.3:
            low, high = legal.raise_to
            if pokerkit_safe:
                reach = max(p.bet + p.stack for p in hand.players.values()
                            if p is not me and not p.folded)  # fmt: skip
                if reach <= hand.current_bet:  # nobody could call a raise: PokerKit refuses it
                    hand.call()
                    continue
                high = min(high, max(reach, low))
                full = rules.structure.fixed_increment(hand.street)
                if (
                    full is not None
                    and low == high == me.bet + me.stack
                    and low < hand.current_bet + full
                ):
                    # a short all-in raise in fixed limit: PokerKit refuses it
                    hand.check() if legal.check else hand.call()
                    continue
            hand.raise_to(rng.choice([low, high]))
        elif legal.call is not None and roll < 0.8:
            hand.call()
        elif legal.check:
            hand.check()
        else:
            hand.fold()
    return hand


@pytest.mark.parametrize(("game", "structure"), CASES, ids=lambda c: getattr(c, "name", ""))
@pytest.mark.parametrize("profile", ["phh", "nz"])
def test_written_hands_replay_in_croupier_to_the_same_stacks(
    game: GameSpec, structure: BettingStructure, profile: str
) -> None:
    for seed in range(60):
        hand = play(table(game, structure, profile), seed, pokerkit_safe=False)
        back = replay(loads(dumps(hand))[0])
        assert back.profile.name == profile
        assert back.final_stacks == [hand.stacks[s] for s in sorted(hand.stacks)]


@pytest.mark.parametrize(("game", "structure"), CASES, ids=lambda c: getattr(c, "name", ""))
@pytest.mark.parametrize("profile", ["phh", "nz"])
def test_written_hands_load_in_pokerkit_with_the_same_stacks(
    game: GameSpec, structure: BettingStructure, profile: str
) -> None:
    for seed in range(60):
        hand = play(table(game, structure, profile), seed, pokerkit_safe=True)
        states = list(pokerkit.HandHistory.loads(dumps(hand)))
        state = states[-1]
        assert list(state.stacks) == [hand.stacks[s] for s in sorted(hand.stacks)], seed


def events_of_play(hand: HandState) -> list[object]:
    """The decisions and the cards seen: what a lossless round trip must keep."""
    keep = (ev.PlayerAction, ev.CardsDealt, ev.CommunityDealt, ev.PotAwarded)
    return [e for e in hand.events if isinstance(e, keep)]


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize(
    "structure",
    [NoLimit(), PotLimit(Fraction(1, 2)), FixedLimit(10, 20), SpreadLimit(10, 50)],
    ids=["no-limit", "half-pot", "fixed-limit", "spread-limit"],
)
def test_every_game_round_trips_losslessly(game: str, structure: BettingStructure) -> None:
    spec = GAMES[game]
    rake = Rake(percent=Fraction(1, 20), cap=15)
    for seed in range(25):
        rng = random.Random(seed)
        seats = rng.randint(2, min(6, spec.max_players))
        if spec.forced.value == "blinds":
            rules = TableRules(
                spec, structure, blinds=(5, 10), table_minimum=10, chip_unit=5, rake=rake
            )
            straddle = spec.voluntary_blind and seats >= 3 and seed % 2 == 0
        else:
            rules = TableRules(
                spec,
                structure,
                blinds=(),
                ante=5,
                bring_in=10,
                table_minimum=10,
                chip_unit=5,
                rake=rake,
            )
            straddle = False
        hand = HandState(
            rules,
            {s: rng.choice([40, 100, 400]) for s in range(1, seats + 1)},
            button=seats,
            seed=seed,
            voluntary_blind=straddle,
        )
        while not hand.is_complete:
            legal = hand.legal_actions()
            if legal.discard:
                assert legal.actor is not None
                down = hand.players[legal.actor].down
                hand.discard(rng.sample(down, rng.randint(0, min(3, len(down)))))
            elif legal.bring_in is not None:
                hand.bring_in(legal.bring_in[0])
            elif legal.raise_to is not None and rng.random() < 0.3:
                low, high = legal.raise_to
                hand.raise_to(rng.choice([low, high]))
            elif legal.call is not None and rng.random() < 0.8:
                hand.call()
            elif legal.check:
                hand.check()
            else:
                hand.fold()
        history = loads(dumps(hand))[0]
        back = replay(history)
        assert back.final_stacks == [hand.stacks[s] for s in sorted(hand.stacks)], seed
        assert events_of_play(back.hand) == events_of_play(hand), seed


@pytest.mark.parametrize("profile", ["phh", "nz"])
def test_the_profile_and_its_raise_cap_round_trip(profile: str) -> None:
    hand = play(table(HOLDEM, FixedLimit(10, 20), profile), 3, pokerkit_safe=False)
    fields = loads(dumps(hand))[0].fields
    assert fields["_croupier_profile"] == profile
    assert "_croupier_raise_cap" not in fields  # the profile's own cap
    assert replay(loads(dumps(hand))[0]).hand.rules.raise_cap == PROFILES[profile].raise_cap


def test_rules_unlike_any_profile_are_written_beside_the_nearest_one() -> None:
    cap = RaiseCap(bets=5, blinds_count=True, head_to_head_unlimited=False)
    rules = replace(table(HOLDEM, FixedLimit(10, 20), "phh"), raise_cap=cap)
    hand = play(rules, 4, pokerkit_safe=False)
    fields = loads(dumps(hand))[0].fields
    assert fields["_croupier_profile"] == "phh"
    assert fields["_croupier_raise_cap"] == {
        "bets": 5,
        "blinds_count": True,
        "head_to_head_unlimited": False,
    }
    back = replay(loads(dumps(hand))[0])
    assert back.hand.rules.raise_cap == cap
    assert back.final_stacks == [hand.stacks[s] for s in sorted(hand.stacks)]
    # a profile named by the caller wins over the file's fields
    assert replay(loads(dumps(hand))[0], "phh").hand.rules.raise_cap == POKERKIT_CAP


def test_a_fixed_limit_hand_replays_under_its_profiles_cap() -> None:
    # the button folds; head to head on the flop: bet 10, raises to 20, 30, 40. PokerKit's
    # cap (phh) stops there; the NZ cap is lifted head to head (17.6(f)): 50 is legal
    flop = "'p1 cbr 10', 'p2 cbr 20', 'p1 cbr 30', 'p2 cbr 40', 'p1 cbr 50'"
    text = (
        "variant = 'FT'\nantes = [0, 0, 0]\nblinds_or_straddles = [5, 10, 0]\nsmall_bet = 10\n"
        "big_bet = 20\nstarting_stacks = [500, 500, 500]\n"
        f"actions = ['p3 f', 'p1 cc', 'p2 cc', 'd db 2c7h9s', {flop}]\n"
    )
    with pytest.raises(PHHError, match=r"16\.6\(f\): seat 1 may not raise now"):
        replay(loads(text)[0])
    assert replay(loads(text)[0], "nz").hand.current_bet == 50


def test_the_engine_and_rules_versions_are_written() -> None:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10))
    hand = HandState(rules, {1: 100, 2: 100, 3: 100}, 1, seed=5)
    hand.fold()
    hand.fold()
    fields = loads(dumps(hand))[0].fields
    start = hand.events[0]
    assert isinstance(start, ev.HandStarted)
    assert fields["_croupier_engine_version"] == start.engine_version != ""
    assert fields["_croupier_rules_version"] == rules.fingerprint
    assert replay(loads(dumps(hand))[0]).final_stacks == fields["finishing_stacks"]
