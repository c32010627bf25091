"""The betting-limit block (Omaha 17.6, Draw 11.x(b)-(g), Hold'em 16.6(e)-(f)) and the betting
situations peer engines get wrong: short all-ins, side pots, minimum raises, call amounts.

Each illegal action is checked three ways: the error names the rule (``.rule``), it says
what is legal (``.allowed`` is the player's legal options, described), and the hand's
snapshot is identical before and after.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import partial

import pytest
from helpers import community_deck, events_of, illegal, passive, play_round

from croupier.errors import RuleViolationError
from croupier.poker import (
    DRAW,
    HOLDEM,
    OMAHA,
    BettingStructure,
    FixedLimit,
    GameSpec,
    HandState,
    IllegalActionError,
    NoLimit,
    PotLimit,
    SpreadLimit,
    TableRules,
)
from croupier.poker import events as ev

SEATS4 = (1, 2, 3, 4)


# --------------------------------------------------------------------------- helpers


def new_hand(
    structure: BettingStructure,
    stacks: Mapping[int, int] | None = None,
    *,
    game: GameSpec = HOLDEM,
    button: int = 1,
    blinds: tuple[int, ...] = (5, 10),
    table_minimum: int = 10,
    seed: int = 1,
    **extra: object,
) -> HandState:
    rules = TableRules(
        game,
        structure,
        blinds=blinds,
        table_minimum=table_minimum,
        **extra,  # type: ignore[arg-type]
    )
    return HandState(rules, stacks or dict.fromkeys(SEATS4, 1000), button=button, seed=seed)


def own_copy(rule: str) -> str:
    """Hold'em cites its own copy of 17.6(e)-(f) (16.6(e)-(f)); a wrong fixed-limit size cites
    the "Fixed Bet" definition. Map both to the Omaha id these tests name."""
    return {
        "Hold'em 16.6(e)": "Omaha 17.6(e)",
        "Hold'em 16.6(f)": "Omaha 17.6(f)",
        "Poker definitions: Fixed Bet": "Omaha 17.6(c)",
    }.get(rule, rule)


def rejected(hand: HandState, action: Callable[[], object], *rules: str) -> IllegalActionError:
    """The action must fail with one of ``rules``, describe the legal options, change nothing."""
    error = illegal(hand, action)
    assert own_copy(error.rule) in rules
    return error


def to_flop(hand: HandState) -> HandState:
    play_round(hand)
    assert hand.street == 1
    return hand


# --------------------------------------------------------------- Omaha 17.6(a): the sign


@pytest.mark.rule("Omaha 17.6(a)")
def test_table_maximum_bounds_every_bet_and_raise() -> None:
    hand = new_hand(NoLimit(), table_maximum=50)
    legal = hand.legal_actions()
    assert legal.raise_to == (20, 60)  # at most 50 over the 10 to call
    err = rejected(hand, lambda: hand.raise_to(61), "Omaha 17.6(a)")
    assert err.allowed == "fold, call 10, raise to 20..60"
    assert not hand.can_raise_to(61)
    hand.raise_to(60)
    assert hand.current_bet == 60
    assert hand.legal_actions().raise_to == (110, 110)  # 60 + the 50 maximum


@pytest.mark.rule("Omaha 17.6(a)")
def test_table_minimum_is_the_smallest_opening_bet() -> None:
    hand = to_flop(new_hand(NoLimit()))
    legal = hand.legal_actions()
    assert legal.raise_to is not None
    assert legal.raise_to[0] == 10
    rejected(hand, lambda: hand.raise_to(5), "Omaha 17.6(a)", "Omaha 17.6(c)")
    hand.raise_to(10)
    assert hand.current_bet == 10


@pytest.mark.rule("Omaha 17.6(a)")
def test_opening_bet_below_the_table_minimum_cites_the_minimum_wager() -> None:
    hand = to_flop(new_hand(NoLimit()))
    rejected(hand, lambda: hand.raise_to(5), "Omaha 17.6(a)")


# ------------------------------------------------------ Omaha 17.6(b): the last blind


@pytest.mark.rule("Omaha 17.6(b)")
@pytest.mark.parametrize(
    ("blinds", "valid"),
    [
        ((5, 10), True),
        ((2, 5, 10), True),  # only the last blind must reach the minimum
        ((10, 5), False),
        ((10, 20, 5), False),
        ((9,), False),
        ((10,), True),
    ],
)
def test_last_compulsory_blind_is_at_least_the_table_minimum(
    blinds: tuple[int, ...], valid: bool
) -> None:
    stacks = dict.fromkeys(SEATS4, 100)
    if valid:
        rules = TableRules(OMAHA, PotLimit(), blinds=blinds, table_minimum=10)
        rules.validate()
        hand = HandState(rules, stacks, button=1, seed=2)
        assert [e.amount for e in events_of(hand, ev.BlindPosted)] == list(blinds)
        return
    with pytest.raises(RuleViolationError) as info:  # refused when the rules are built
        TableRules(OMAHA, PotLimit(), blinds=blinds, table_minimum=10)
    assert info.value.rule == "Omaha 17.6(b)"
    assert info.value.allowed == "a last blind of at least 10"


# ------------------------------------------------- Omaha 17.6(c): the minimum raise


@pytest.mark.rule("Omaha 17.6(c)")
def test_minimum_raise_is_the_largest_bet_or_raise_of_the_round() -> None:
    hand = to_flop(new_hand(NoLimit()))
    hand.raise_to(10)  # seat 2 bets 10
    hand.raise_to(50)  # seat 3 raises 40
    assert hand.legal_actions().raise_to == (90, 990)
    err = rejected(hand, lambda: hand.raise_to(89), "Omaha 17.6(c)")
    assert err.allowed == "fold, call 50, raise to 90..990"
    hand.raise_to(90)  # seat 4 raises 40
    assert hand.legal_actions().raise_to == (130, 990)


@pytest.mark.rule("Omaha 17.6(c)")
def test_first_round_minimum_raise_is_the_last_blind() -> None:
    hand = new_hand(NoLimit())
    assert hand.actor == 4
    assert hand.legal_actions().raise_to == (20, 1000)
    rejected(hand, lambda: hand.raise_to(19), "Omaha 17.6(c)")
    hand.raise_to(20)
    assert hand.events[-1] == ev.RaisedTo(4, 20, 10, full=True, all_in=False)


@pytest.mark.rule("Omaha 17.6(c)")
def test_tap_out_may_be_less_than_a_full_raise() -> None:
    hand = to_flop(new_hand(NoLimit(), {1: 1000, 2: 1000, 3: 1000, 4: 45}))
    hand.raise_to(10)
    hand.raise_to(30)
    assert hand.actor == 4
    assert hand.legal_actions().raise_to == (35, 35)  # only the whole stack
    rejected(hand, lambda: hand.raise_to(34), "Omaha 17.6(c)", "Poker definitions: Table Stakes")
    hand.raise_to(35)
    assert hand.events[-1] == ev.RaisedTo(4, 35, 5, full=False, all_in=True)


@pytest.mark.rule("Omaha 17.6(c)")
def test_short_all_in_does_not_lower_the_minimum_raise() -> None:
    hand = to_flop(new_hand(NoLimit(), {1: 1000, 2: 1000, 3: 140, 4: 1000}))
    hand.raise_to(100)  # seat 2 bets 100
    hand.raise_to(130)  # seat 3 all in: a raise of only 30
    assert hand.actor == 4
    assert hand.legal_actions().raise_to == (230, 990)  # 130 + the full 100, not 130 + 30
    rejected(hand, lambda: hand.raise_to(229), "Omaha 17.6(c)")
    rejected(hand, lambda: hand.raise_to(160), "Omaha 17.6(c)")
    hand.raise_to(230)


@pytest.mark.rule("Omaha 17.6(c)")
def test_opponents_short_stack_does_not_lower_the_minimum_raise() -> None:
    hand = new_hand(NoLimit(), {1: 1000, 2: 25})  # heads up: seat 2 posts 5, seat 1 posts 10
    to_flop(hand)
    assert hand.actor == 2
    hand.raise_to(10)  # seat 2 bets 10 and keeps only 5
    assert hand.players[2].stack == 5
    assert hand.legal_actions().raise_to == (20, 990)  # a full raise of 10, not 10 + 5


# ------------------------------------------------------ Omaha 17.6(d): pot limit


def _pot_100_facing_20(structure: BettingStructure, game: GameSpec = OMAHA) -> HandState:
    hand = new_hand(structure, game=game)
    hand.raise_to(20)
    to_flop(hand)
    assert hand.total_pot == 80
    hand.raise_to(20)
    assert (hand.total_pot, hand.actor, hand.legal_actions().call) == (100, 3, 20)
    return hand


@pytest.mark.rule("Omaha 17.6(d)")
@pytest.mark.parametrize(
    ("ratio", "max_total"),
    [pytest.param(Fraction(1), 140, id="full"), pytest.param(Fraction(1, 2), 80, id="half")],
)
def test_pot_limit_adds_the_call_before_sizing_the_raise(ratio: Fraction, max_total: int) -> None:
    hand = _pot_100_facing_20(PotLimit(ratio=ratio))
    assert hand.legal_actions().raise_to == (40, max_total)
    err = rejected(hand, lambda: hand.raise_to(max_total + 1), "Omaha 17.6(d)")
    assert f"raise to 40..{max_total}" in (err.allowed or "")
    hand.raise_to(max_total)
    assert hand.players[3].stack == 980 - max_total


@pytest.mark.rule("Omaha 17.6(d)")
def test_pot_limit_opening_bet_is_at_most_the_pot_and_counts_this_rounds_bets() -> None:
    hand = to_flop(new_hand(PotLimit(), game=OMAHA))
    assert hand.total_pot == 40
    assert hand.legal_actions().raise_to == (10, 40)
    rejected(hand, lambda: hand.raise_to(41), "Omaha 17.6(d)")
    # pre-flop the blinds already count: 15 in, 10 to call -> 10 + 25
    pre = new_hand(PotLimit(), game=OMAHA)
    assert pre.legal_actions().raise_to == (20, 35)


@pytest.mark.rule("Omaha 17.6(d)")
def test_half_pot_rounds_down_to_the_chip_unit() -> None:
    hand = new_hand(
        PotLimit(ratio=Fraction(1, 2)), dict.fromkeys((1, 2, 3), 1000), game=OMAHA, chip_unit=5
    )
    hand.call()  # seat 1
    hand.fold()  # seat 2: its 5 stays in
    hand.check()  # seat 3
    assert (hand.street, hand.total_pot, hand.actor) == (1, 25, 3)
    assert hand.legal_actions().raise_to == (10, 10)  # half of 25 is 12.5: 10 in 5-chips
    rejected(hand, lambda: hand.raise_to(15), "Omaha 17.6(d)")
    rejected(hand, lambda: hand.raise_to(12), "Omaha 17.6(d)", "Omaha 17.5(e)")
    hand.raise_to(10)
    # 35 in, 10 to call: half of 45 is 22.5 -> 20, so 10 + 20
    assert hand.legal_actions().raise_to == (20, 30)


@pytest.mark.rule("Omaha 17.6(d)")
def test_half_pot_odd_chip_arithmetic_with_single_chips() -> None:
    hand = new_hand(PotLimit(ratio=Fraction(1, 2)), game=OMAHA)
    assert hand.legal_actions().raise_to == (20, 22)  # 10 + floor((15 + 10) / 2)


# ------------------------------------------------------ Omaha 17.6(e): spread limit


@pytest.mark.rule("Omaha 17.6(e)", "Poker definitions: Spread Limit")
def test_spread_limit_bounds() -> None:
    hand = to_flop(new_hand(SpreadLimit(2, 10), blinds=(1, 2), table_minimum=2))
    assert hand.legal_actions().raise_to == (2, 10)
    err = rejected(hand, lambda: hand.raise_to(1), "Omaha 17.6(e)")
    assert err.allowed == "fold, check, raise to 2..10"
    rejected(hand, lambda: hand.raise_to(11), "Omaha 17.6(e)")
    hand.raise_to(2)  # the minimum bet
    assert hand.legal_actions().raise_to == (4, 12)
    hand.raise_to(9)  # a raise of 7
    assert hand.legal_actions().raise_to == (16, 19)  # at least 7 more, at most 10 more
    rejected(hand, lambda: hand.raise_to(15), "Omaha 17.6(e)")  # raise of 6 < 7
    rejected(hand, lambda: hand.raise_to(20), "Omaha 17.6(e)")  # raise of 11 > 10
    hand.raise_to(19)


# --------------------------------------------------------- Omaha 17.6(f): raise cap


@pytest.mark.rule("Omaha 17.6(f)")
def test_blinds_count_as_the_opening_bet_so_three_raises_cap_the_first_round() -> None:
    hand = new_hand(FixedLimit(10, 20))
    for total in (20, 30, 40):  # seats 4, 1, 2: three raises over the blind
        hand.raise_to(total)
    assert hand.actor == 3
    legal = hand.legal_actions()
    assert (legal.call, legal.raise_to) == (30, None)
    err = rejected(hand, lambda: hand.raise_to(50), "Omaha 17.6(f)")
    assert err.allowed == "fold, call 30"


@pytest.mark.rule("Omaha 17.6(f)")
@pytest.mark.parametrize(
    "structure",
    [FixedLimit(10, 20), SpreadLimit(10, 20)],
    ids=["fixed", "spread"],
)
def test_bet_and_three_raises_cap_a_later_round(structure: BettingStructure) -> None:
    hand = to_flop(new_hand(structure))
    for _ in range(4):  # a bet and three raises, each the smallest allowed
        low = hand.legal_actions().raise_to
        assert low is not None
        hand.raise_to(low[0])
    assert hand.actor == 2
    assert hand.legal_actions().raise_to is None
    rejected(hand, lambda: hand.raise_to(hand.current_bet + 20), "Omaha 17.6(f)")
    hand.call()
    assert hand.legal_actions().raise_to is None  # still capped for seat 3


@pytest.mark.rule("Omaha 17.6(f)")
def test_head_to_head_means_two_players_who_can_still_bet() -> None:
    # seat 4 is all in for its 10: three in the hand, but only two can bet
    hand = new_hand(FixedLimit(10, 20), {1: 1000, 2: 1000, 3: 1000, 4: 10})
    hand.call()  # seat 4 all in
    hand.fold()  # seat 1
    for n in range(6):
        assert hand.legal_actions().raise_to == (20 + 10 * n, 20 + 10 * n)
        hand.raise_to(20 + 10 * n)
    raises = events_of(hand, ev.RaisedTo)
    assert len(raises) == 6


@pytest.mark.rule("Omaha 17.6(f)")
def test_cap_lifts_when_the_hand_comes_down_to_two() -> None:
    hand = new_hand(FixedLimit(10, 20))
    for total in (20, 30, 40):
        hand.raise_to(total)
    assert hand.actor == 3
    assert hand.legal_actions().raise_to is None
    hand.fold()  # seat 3
    hand.fold()  # seat 4: seats 1 and 2 are head to head
    assert hand.actor == 1
    assert hand.legal_actions().raise_to == (50, 50)


@pytest.mark.rule("Omaha 17.6(f)")
@pytest.mark.parametrize(
    "structure", [NoLimit(), PotLimit(), PotLimit(ratio=Fraction(1, 2))], ids=["nl", "pl", "half"]
)
def test_no_cap_in_no_limit_and_pot_limit(structure: BettingStructure) -> None:
    hand = to_flop(new_hand(structure, dict.fromkeys(SEATS4, 10**6)))
    hand.raise_to(10)
    for _ in range(8):
        legal = hand.legal_actions().raise_to
        assert legal is not None
        hand.raise_to(legal[0])
    assert len(events_of(hand, ev.RaisedTo)) == 9
    assert hand.legal_actions().raise_to is not None


# --------------------------------------------- Draw 11.x(b)-(g), Hold'em 16.6(e)-(f)
# The same block in other sections. The behaviour is checked here; which section's id
# the engine cites is checked by test_error_cites_the_games_own_section below.


@pytest.mark.rule("Draw 11.x(b)")
def test_draw_last_blind_is_at_least_the_table_minimum() -> None:
    TableRules(DRAW, NoLimit(), blinds=(5, 10), table_minimum=10).validate()
    with pytest.raises(RuleViolationError) as info:
        TableRules(DRAW, NoLimit(), blinds=(10, 5), table_minimum=10).validate()
    assert info.value.rule in ("Draw 11.x(b)", "Omaha 17.6(b)")
    assert info.value.allowed == "a last blind of at least 10"


@pytest.mark.rule("Draw 11.x(c)")
def test_draw_voluntary_blind_is_twice_the_last_blind_and_has_the_option() -> None:
    hand = new_hand(FixedLimit(10, 20, big_bet_from=1), game=DRAW)
    assert events_of(hand, ev.BlindPosted) == [ev.BlindPosted(2, 5), ev.BlindPosted(3, 10)]
    rules = TableRules(DRAW, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, dict.fromkeys(SEATS4, 1000), button=1, seed=3, voluntary_blind=True)
    assert events_of(hand, ev.BlindPosted) == [
        ev.BlindPosted(2, 5),
        ev.BlindPosted(3, 10),
        ev.BlindPosted(4, 20, voluntary=True),
    ]
    assert hand.actor == 1  # left of the voluntary blind
    rejected(hand, hand.check, "Omaha 17.2(a)")
    hand.call()
    hand.call()  # seat 2
    hand.call()  # seat 3
    assert hand.actor == 4  # everyone called: the voluntary blind is live
    legal = hand.legal_actions()
    assert (legal.check, legal.call) == (True, None)
    assert legal.raise_to is not None
    # other sections have no voluntary blind
    with pytest.raises(RuleViolationError) as info:
        HandState(
            TableRules(OMAHA, PotLimit()), dict.fromkeys(SEATS4, 100), 1, voluntary_blind=True
        )
    assert info.value.rule == "Draw 11.x(c)"


@pytest.mark.rule("Draw 11.x(c)")
def test_draw_voluntary_blind_heads_up_is_not_a_second_blind_from_one_player() -> None:
    rules = TableRules(DRAW, NoLimit(), blinds=(5, 10), table_minimum=10)
    outcome: HandState | RuleViolationError
    try:
        outcome = HandState(rules, {1: 1000, 2: 1000}, button=1, seed=5, voluntary_blind=True)
    except RuleViolationError as err:
        outcome = err
    if isinstance(outcome, RuleViolationError):  # refusing it is a correct answer too
        assert outcome.rule == "Draw 11.x(c)"
        return
    hand = outcome
    posters = [e.seat for e in events_of(hand, ev.BlindPosted)]
    assert len(posters) == len(set(posters))  # nobody posts two blinds
    assert hand.current_bet == 20


@pytest.mark.rule("Draw 11.x(d)")
def test_draw_minimum_raise_and_tap_out() -> None:
    hand = new_hand(NoLimit(), {1: 1000, 2: 1000, 3: 1000, 4: 18}, game=DRAW)
    assert hand.legal_actions().raise_to == (18, 18)  # short of a full raise: whole stack only
    hand.raise_to(18)  # seat 4: all in, a raise of 8 (tap-out)
    assert hand.events[-1] == ev.RaisedTo(4, 18, 8, full=False, all_in=True)
    assert hand.legal_actions().raise_to == (28, 1000)  # the full raise is still 10
    rejected(hand, lambda: hand.raise_to(27), "Draw 11.x(d)", "Omaha 17.6(c)")
    hand.raise_to(28)


@pytest.mark.rule("Draw 11.x(e)")
def test_draw_pot_limit() -> None:
    hand = new_hand(PotLimit(), game=DRAW)
    assert hand.legal_actions().raise_to == (20, 35)
    rejected(hand, lambda: hand.raise_to(36), "Draw 11.x(e)", "Omaha 17.6(d)")
    half = new_hand(PotLimit(ratio=Fraction(1, 2)), game=DRAW)
    assert half.legal_actions().raise_to == (20, 22)


@pytest.mark.rule("Draw 11.x(f)")
def test_draw_spread_limit() -> None:
    hand = new_hand(SpreadLimit(2, 10), game=DRAW, blinds=(1, 2), table_minimum=2)
    assert hand.legal_actions().raise_to == (4, 12)
    rejected(hand, lambda: hand.raise_to(13), "Draw 11.x(f)", "Omaha 17.6(e)")
    rejected(hand, lambda: hand.raise_to(3), "Draw 11.x(f)", "Omaha 17.6(e)")
    hand.raise_to(12)
    assert hand.legal_actions().raise_to == (22, 22)


@pytest.mark.rule("Draw 11.x(g)")
def test_draw_raise_cap_and_head_to_head() -> None:
    hand = new_hand(FixedLimit(10, 20, big_bet_from=1), game=DRAW)
    for total in (20, 30, 40):
        hand.raise_to(total)
    rejected(hand, lambda: hand.raise_to(50), "Draw 11.x(g)", "Omaha 17.6(f)")
    hand.fold()  # seat 3
    hand.fold()  # seat 4
    assert hand.legal_actions().raise_to == (50, 50)  # head to head


@pytest.mark.rule("Hold'em 16.6(e)")
def test_holdem_spread_limit() -> None:
    hand = to_flop(new_hand(SpreadLimit(5, 20), table_minimum=5))
    assert hand.legal_actions().raise_to == (5, 20)
    rejected(hand, lambda: hand.raise_to(4), "Hold'em 16.6(e)", "Omaha 17.6(e)")
    rejected(hand, lambda: hand.raise_to(21), "Hold'em 16.6(e)", "Omaha 17.6(e)")
    hand.raise_to(15)
    rejected(hand, lambda: hand.raise_to(25), "Hold'em 16.6(e)", "Omaha 17.6(e)")
    hand.raise_to(30)


@pytest.mark.rule("Hold'em 16.6(f)")
def test_holdem_raise_cap() -> None:
    hand = to_flop(new_hand(FixedLimit(10, 20)))
    for total in (10, 20, 30, 40):
        hand.raise_to(total)
    rejected(hand, lambda: hand.raise_to(50), "Hold'em 16.6(f)", "Omaha 17.6(f)")


def _draw_below_min_raise() -> Callable[[], object]:
    hand = new_hand(NoLimit(), game=DRAW)
    return lambda: hand.raise_to(15)


def _draw_over_pot() -> Callable[[], object]:
    hand = new_hand(PotLimit(), game=DRAW)
    return lambda: hand.raise_to(36)


def _draw_over_spread() -> Callable[[], object]:
    hand = new_hand(SpreadLimit(2, 10), game=DRAW, blinds=(1, 2), table_minimum=2)
    return lambda: hand.raise_to(13)


def _draw_over_cap() -> Callable[[], object]:
    hand = new_hand(FixedLimit(10, 20, big_bet_from=1), game=DRAW)
    for total in (20, 30, 40):
        hand.raise_to(total)
    return lambda: hand.raise_to(50)


def _draw_blinds() -> Callable[[], object]:
    return lambda: TableRules(DRAW, NoLimit(), blinds=(10, 5), table_minimum=10)


def _holdem_over_spread() -> Callable[[], object]:
    hand = to_flop(new_hand(SpreadLimit(5, 20), table_minimum=5))
    return lambda: hand.raise_to(21)


def _holdem_over_cap() -> Callable[[], object]:
    hand = to_flop(new_hand(FixedLimit(10, 20)))
    for total in (10, 20, 30, 40):
        hand.raise_to(total)
    return lambda: hand.raise_to(50)


@pytest.mark.parametrize(
    ("rule", "build"),
    [
        pytest.param(
            "Draw 11.x(b)",
            _draw_blinds,
            id="draw-11xb",
            marks=[pytest.mark.rule("Draw 11.x(b)")],
        ),
        pytest.param(
            "Draw 11.x(d)",
            _draw_below_min_raise,
            id="draw-11xd",
            marks=[pytest.mark.rule("Draw 11.x(d)")],
        ),
        pytest.param(
            "Draw 11.x(e)",
            _draw_over_pot,
            id="draw-11xe",
            marks=[pytest.mark.rule("Draw 11.x(e)")],
        ),
        pytest.param(
            "Draw 11.x(f)",
            _draw_over_spread,
            id="draw-11xf",
            marks=[pytest.mark.rule("Draw 11.x(f)")],
        ),
        pytest.param(
            "Draw 11.x(g)",
            _draw_over_cap,
            id="draw-11xg",
            marks=[pytest.mark.rule("Draw 11.x(g)")],
        ),
        pytest.param(
            "Hold'em 16.6(e)",
            _holdem_over_spread,
            id="holdem-16-6e",
            marks=[pytest.mark.rule("Hold'em 16.6(e)")],
        ),
        pytest.param(
            "Hold'em 16.6(f)",
            _holdem_over_cap,
            id="holdem-16-6f",
            marks=[pytest.mark.rule("Hold'em 16.6(f)")],
        ),
    ],
)
def test_error_cites_the_games_own_section(
    rule: str, build: Callable[[], Callable[[], object]]
) -> None:
    action = build()
    with pytest.raises(RuleViolationError) as info:
        action()
    assert info.value.rule == rule


# ------------------------------------------------ short all-ins, side pots, call amounts


@pytest.mark.rule("Omaha 17.6(f)")
def test_short_all_in_does_not_count_towards_the_cap() -> None:
    stacks = {1: 1000, 2: 1000, 3: 1000, 4: 35, 5: 1000}
    hand = to_flop(new_hand(FixedLimit(10, 20), stacks))
    hand.raise_to(10)  # seat 2: the bet
    hand.raise_to(20)  # seat 3: raise 1
    assert hand.actor == 4
    assert hand.legal_actions().raise_to == (25, 25)  # 25 behind: only a short all-in
    hand.raise_to(25)  # seat 4: all in for 5 more, not a raise
    assert hand.events[-1] == ev.RaisedTo(4, 25, 5, full=False, all_in=True)
    hand.raise_to(35)  # seat 5: raise 2
    hand.raise_to(45)  # seat 1: raise 3, the cap
    assert hand.actor == 2
    assert hand.legal_actions().raise_to is None
    rejected(hand, lambda: hand.raise_to(55), "Omaha 17.6(f)")


@pytest.mark.rule("Poker definitions: Blind")
def test_a_blind_posted_short_still_leaves_the_full_blind_to_call() -> None:
    hand = new_hand(NoLimit(), {1: 1000, 2: 1000, 3: 7, 4: 1000})
    assert events_of(hand, ev.BlindPosted) == [ev.BlindPosted(2, 5), ev.BlindPosted(3, 7)]
    assert hand.actor == 4
    assert hand.legal_actions().call == 10
    assert hand.legal_actions().raise_to == (20, 1000)


@pytest.mark.rule("Omaha 17.3(b)")
@pytest.mark.parametrize("may_fold", [True, False])
def test_fold_when_checking_is_free_is_a_setting(may_fold: bool) -> None:
    hand = to_flop(new_hand(NoLimit(), fold_when_check_is_free=may_fold))
    assert hand.legal_actions().check
    assert hand.legal_actions().fold is may_fold
    if may_fold:
        hand.fold()
        assert hand.players[2].folded
    else:
        err = rejected(hand, hand.fold, "Omaha 17.3(b)")
        assert err.allowed == "check, raise to 10..990"


@pytest.mark.rule("Omaha 17.6(c)", "Poker definitions: All-in")
def test_short_all_in_raise_does_not_reopen_the_betting() -> None:
    hand = to_flop(new_hand(NoLimit(), {1: 1000, 2: 1000, 3: 1000, 4: 140}))
    hand.raise_to(100)  # seat 2 bets
    hand.call()  # seat 3 calls
    hand.raise_to(130)  # seat 4 all in: 30 more, less than a full raise
    assert hand.actor == 1  # seat 1 has not acted: it may raise
    assert hand.legal_actions().raise_to == (230, 990)
    hand.call()
    for seat in (2, 3):  # they acted already and face only the short raise
        assert hand.actor == seat
        legal = hand.legal_actions()
        assert (legal.fold, legal.call, legal.raise_to) == (True, 30, None)
        err = rejected(hand, lambda: hand.raise_to(230), "Omaha 17.6(c)")
        assert err.allowed == "fold, call 30"
        hand.call()
    assert hand.street == 2


@pytest.mark.rule("Omaha 17.6(c)", "Poker definitions: All-in")
def test_full_all_in_raise_reopens_the_betting() -> None:
    hand = to_flop(new_hand(NoLimit(), {1: 1000, 2: 1000, 3: 1000, 4: 240}))
    hand.raise_to(100)
    hand.call()
    hand.raise_to(230)  # seat 4 all in: a full raise of 130
    assert hand.events[-1] == ev.RaisedTo(4, 230, 130, full=True, all_in=True)
    hand.call()  # seat 1
    assert hand.actor == 2
    assert hand.legal_actions().raise_to == (360, 990)  # reopened, by at least 130
    hand.raise_to(360)


@pytest.mark.rule("Poker definitions: All-in")
def test_folded_players_chips_stay_in_pots_they_cannot_win() -> None:
    holes = {1: "Kh Kd", 2: "Qh Qd", 3: "Ah As"}  # seat 3 would have won: it folds
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    deck = community_deck(holes, 1, "2c 7d 9h Js 3s")
    hand = HandState(rules, {1: 50, 2: 1000, 3: 1000}, button=1, deck=deck)
    hand.raise_to(50)  # seat 1 all in
    hand.call()  # seat 2
    hand.call()  # seat 3
    hand.raise_to(150)  # flop: seat 2
    hand.call()  # seat 3
    assert hand.street == 2
    hand.raise_to(100)  # turn: seat 2
    hand.fold()  # seat 3 folds with 200 in
    assert hand.is_complete
    assert events_of(hand, ev.BetReturned) == [ev.BetReturned(2, 100)]
    assert [(a.pot, a.amount, a.shares) for a in hand.awards] == [
        (0, 150, ((1, 150),)),  # seat 3's 50 is in the main pot, won by seat 1
        (1, 300, ((2, 300),)),  # seat 3's other 150 is in the side pot
    ]
    assert hand.stacks == {1: 150, 2: 1100, 3: 800}


@pytest.mark.rule("Poker definitions: Call", "Poker definitions: All-in")
def test_call_facing_a_short_all_in_is_the_total_minus_what_is_in() -> None:
    hand = new_hand(NoLimit(), {1: 1000, 2: 1000, 3: 1000, 4: 15})
    hand.raise_to(15)  # seat 4 all in for 15 (short of the 20 minimum raise)
    expected = {1: 15, 2: 10, 3: 5}  # nothing in, the 5 blind, the 10 blind
    for seat, due in expected.items():
        assert hand.actor == seat
        assert hand.legal_actions().call == due
        hand.call()
        assert events_of(hand, ev.Called)[-1] == ev.Called(seat, due, all_in=False)
    assert hand.total_pot == 60
    assert hand.street == 1


@pytest.mark.rule("Poker definitions: Call")
def test_call_after_a_post_flop_short_all_in() -> None:
    hand = to_flop(new_hand(NoLimit(), {1: 1000, 2: 1000, 3: 140, 4: 1000}))
    hand.raise_to(100)  # seat 2
    hand.raise_to(130)  # seat 3 all in
    assert hand.legal_actions().call == 130  # seat 4 has nothing in
    hand.call()
    hand.fold()  # seat 1
    assert hand.actor == 2
    assert hand.legal_actions().call == 30  # 130 - 100


# ------------------------------------------------------------- structures by street


@pytest.mark.rule("Poker definitions: Fixed Bet")
def test_fixed_limit_sizes_by_street() -> None:
    hand = new_hand(FixedLimit(10, 20), dict.fromkeys((1, 2, 3), 1000))
    assert hand.legal_actions().raise_to == (20, 20)  # pre-flop: small bet
    rejected(hand, lambda: hand.raise_to(25), "Omaha 17.6(a)", "Omaha 17.6(c)")
    play_round(hand)
    sizes = {1: 10, 2: 20, 3: 20}  # flop small; turn and river big
    for street, size in sizes.items():
        assert hand.street == street
        assert hand.legal_actions().raise_to == (size, size)
        rejected(hand, partial(hand.raise_to, size - 5), "Omaha 17.6(c)", "Omaha 17.6(a)")
        rejected(hand, partial(hand.raise_to, size + 5), "Omaha 17.6(c)", "Omaha 17.6(a)")
        hand.raise_to(size)
        assert hand.legal_actions().raise_to == (2 * size, 2 * size)
        play_round(hand)
    assert hand.is_complete


@pytest.mark.rule("Poker definitions: Fixed Bet")
def test_fixed_limit_big_bet_from_is_configurable() -> None:
    hand = new_hand(FixedLimit(10, 20, big_bet_from=1), dict.fromkeys((1, 2, 3), 1000))
    to_flop(hand)
    assert hand.legal_actions().raise_to == (20, 20)


# -------------------------------------------------------------------- table stakes


@pytest.mark.rule("Poker definitions: Table Stakes", "Poker definitions: Call")
def test_call_larger_than_the_stack_is_an_all_in_call() -> None:
    hand = to_flop(new_hand(NoLimit(), {1: 1000, 2: 1000, 3: 60, 4: 1000}))
    hand.raise_to(200)  # seat 2
    assert hand.actor == 3
    legal = hand.legal_actions()
    assert (legal.call, legal.raise_to) == (50, None)
    rejected(hand, lambda: hand.raise_to(400), "Poker definitions: Table Stakes")
    hand.call()
    assert hand.events[-1] == ev.Called(3, 50, all_in=True)
    assert hand.players[3].stack == 0
    assert hand.actor == 4
    assert hand.legal_actions().call == 200  # the others still owe the full bet


@pytest.mark.rule("Poker definitions: Table Stakes")
def test_no_chips_can_be_added_during_a_hand() -> None:
    hand = new_hand(NoLimit(), {1: 1000, 2: 1000, 3: 1000, 4: 30})
    public = [n for n in dir(hand) if not n.startswith("_")]
    assert not [n for n in public if any(w in n for w in ("add", "rebuy", "buy", "top_up"))]
    hand.stacks[4] = 5000  # the view is a copy
    assert hand.players[4].stack == 30
    rejected(hand, lambda: hand.raise_to(31), "Poker definitions: Table Stakes")
    assert hand.legal_actions().raise_to == (20, 30)
    passive(hand)
    assert sum(hand.stacks.values()) == 3030  # nothing came in, nothing went out
    with pytest.raises(RuleViolationError) as info:
        HandState(TableRules(HOLDEM, NoLimit()), {1: 100, 2: 0}, button=1)
    assert info.value.rule == "Poker definitions: Table Stakes"


@pytest.mark.rule("Poker definitions: Table Stakes")
def test_uncalled_bets_are_returned() -> None:
    hand = to_flop(new_hand(NoLimit()))
    hand.raise_to(300)  # seat 2
    hand.fold()
    hand.fold()
    hand.fold()
    assert events_of(hand, ev.BetReturned) == [ev.BetReturned(2, 300)]
    assert hand.awards[0].shares == ((2, 40),)
    assert hand.stacks == {1: 990, 2: 1030, 3: 990, 4: 990}


@pytest.mark.rule("Poker definitions: Table Stakes")
def test_uncalled_part_above_an_all_in_call_is_returned() -> None:
    hand = new_hand(NoLimit(), {1: 1000, 2: 70})  # heads up: seat 2 posts 5, seat 1 posts 10
    hand.call()  # seat 2
    hand.raise_to(300)  # seat 1, the last blind, raises
    assert hand.legal_actions().call == 60  # seat 2 has 60 behind
    hand.call()
    assert events_of(hand, ev.BetReturned)[0] == ev.BetReturned(1, 230)
    assert hand.is_complete
    assert sum(a.amount for a in hand.awards) == 140
    assert sum(hand.stacks.values()) == 1070


# ----------------------------------------------- first round: no check, the option


@pytest.mark.rule("Omaha 17.2(a)")
def test_no_check_in_the_first_round_before_the_last_blind() -> None:
    hand = new_hand(NoLimit())
    for seat in (4, 1, 2):  # left of the last blind, the button, the first blind
        assert hand.actor == seat
        legal = hand.legal_actions()
        assert not legal.check
        err = rejected(hand, hand.check, "Omaha 17.2(a)")
        assert "call" in (err.allowed or "")
        hand.call()
    assert hand.actor == 3


@pytest.mark.rule("Poker definitions: Blind", "Omaha 17.2(a)")
def test_last_blind_is_live_and_has_the_option() -> None:
    hand = new_hand(NoLimit())
    for _ in range(3):
        hand.call()
    assert hand.actor == 3
    legal = hand.legal_actions()
    assert (legal.check, legal.call, legal.raise_to) == (True, None, (20, 1000))
    hand.raise_to(40)  # the big blind raises its own blind
    assert hand.street == 0
    assert hand.actor == 4
    assert hand.legal_actions().call == 30


@pytest.mark.rule("Poker definitions: Blind", "Omaha 17.2(c)")
def test_blind_takes_the_pot_when_nobody_calls() -> None:
    hand = new_hand(NoLimit())
    for _ in range(3):
        hand.fold()
    assert hand.is_complete
    assert hand.awards[0].shares == ((3, 10),)
    assert events_of(hand, ev.BetReturned) == [ev.BetReturned(3, 5)]
    assert hand.stacks == {1: 1000, 2: 995, 3: 1005, 4: 1000}


@pytest.mark.rule("Omaha 17.2(b)")
def test_option_passes_clockwise_when_the_first_player_folds() -> None:
    hand = new_hand(NoLimit(), dict.fromkeys(range(1, 7), 1000), button=3)
    assert hand.actor == 6  # left of the last blind (seat 5)
    hand.fold()
    assert hand.actor == 1  # next clockwise, with the same options
    legal = hand.legal_actions()
    assert (legal.fold, legal.check, legal.call, legal.raise_to) == (True, False, 10, (20, 1000))
    hand.fold()
    assert hand.actor == 2
    hand.raise_to(30)  # seat 2 opens
    assert hand.actor == 3


@pytest.mark.rule("Omaha 17.1(c)")
def test_heads_up_literal_blinds() -> None:
    hand = new_hand(NoLimit(), {3: 500, 7: 500}, button=7)
    assert events_of(hand, ev.BlindPosted) == [ev.BlindPosted(3, 5), ev.BlindPosted(7, 10)]
    assert hand.actor == 3  # left of the last blind (the button)
    hand.call()
    hand.check()
    assert (hand.street, hand.actor) == (1, 3)  # first left of the button after the flop
