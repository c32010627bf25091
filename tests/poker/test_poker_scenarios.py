"""DIGEST section 4.1-4.2, poker scenarios 1-25: one test (or one parametrized test) each.

Every hand uses a stacked deck (or only betting, where the cards do not matter), so the
cards, the pots and the awards are exact. Seats are clockwise in increasing order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

import pytest
from helpers import FULL_DECK, clockwise, community_deck, events_of, illegal, passive, play_round

from croupier.cards import Card, Deck
from croupier.errors import CroupierError, RuleViolationError
from croupier.evaluation import Category
from croupier.poker import (
    DRAW,
    FIVE_CARD_STUD,
    HOLDEM,
    OMAHA,
    FixedLimit,
    HandState,
    IllegalActionError,
    NoLimit,
    OddChip,
    PotLimit,
    SpreadLimit,
    TableRules,
)
from croupier.poker import events as ev

# --------------------------------------------------------------------------- helpers


def snapshot_unchanged(
    hand: HandState, action: Callable[[], object], rule: str
) -> IllegalActionError:
    """Run an illegal action: it must raise with ``rule``, describe the legal options and
    leave the hand exactly as it was."""
    error = illegal(hand, action)
    if rule.startswith("Omaha 17.6("):  # each game cites its own copy of the limits block
        rule = hand.game.limit_rule(rule[len("Omaha 17.6(")])
    assert error.rule == rule
    return error


def check_round(hand: HandState) -> None:
    """Check round the table once (the current street only)."""
    street = hand.street
    while hand.actor is not None and hand.street == street:
        hand.check()


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


# ------------------------------------------------------------ 4.1 betting and structure


@pytest.mark.rule("Omaha 17.6(f)")
def test_s01_fixed_limit_bet_and_three_raises_leave_only_call_or_fold() -> None:
    rules = TableRules(HOLDEM, FixedLimit(10, 20), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, dict.fromkeys((1, 2, 3, 4), 1000), button=1, seed=11)
    play_round(hand)  # pre-flop called round: flop, four players, seat 2 first
    assert hand.street == 1
    assert hand.actor == 2
    hand.raise_to(10)  # the bet
    hand.raise_to(20)  # raise 1
    hand.raise_to(30)  # raise 2
    hand.raise_to(40)  # raise 3: the cap
    assert hand.actor == 2
    legal = hand.legal_actions()
    assert (legal.fold, legal.check, legal.call, legal.raise_to) == (True, False, 30, None)
    assert not hand.can_raise_to(50)
    err = snapshot_unchanged(hand, lambda: hand.raise_to(50), "Omaha 17.6(f)")
    assert err.allowed == "fold, call 30"
    hand.call()
    assert hand.players[2].bet == 40


@pytest.mark.rule("Omaha 17.6(f)")
def test_s02_head_to_head_raises_are_unlimited() -> None:
    rules = TableRules(HOLDEM, FixedLimit(10, 20), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, dict.fromkeys((1, 2, 3, 4), 1000), button=1, seed=12)
    hand.fold()  # seat 4
    hand.fold()  # seat 1: only seats 2 and 3 are left
    for n in range(8):  # the blind is the bet; raises 1..8 all accepted
        seat = hand.actor
        assert seat is not None
        assert hand.legal_actions().raise_to == (20 + 10 * n, 20 + 10 * n)
        hand.raise_to(20 + 10 * n)
        assert hand.players[seat].bet == 20 + 10 * n
    assert hand.legal_actions().raise_to == (100, 100)


@pytest.mark.rule("Omaha 17.6(f)")
def test_s03_no_limit_six_raises_in_a_round_are_all_accepted() -> None:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, dict.fromkeys((1, 2, 3, 4), 10_000), button=1, seed=13)
    play_round(hand)
    assert hand.street == 1
    hand.raise_to(10)  # the bet
    totals = [20, 40, 80, 160, 320, 640]  # six raises, round the table
    for total in totals:
        assert hand.can_raise_to(total)
        hand.raise_to(total)
    raised = events_of(hand, ev.RaisedTo)
    assert [e.to for e in raised] == [10, *totals]
    assert all(e.full for e in raised)
    assert hand.legal_actions().raise_to is not None  # a seventh is open too


def _pot_of_100_facing_20(ratio: Fraction) -> HandState:
    rules = TableRules(OMAHA, PotLimit(ratio=ratio), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, dict.fromkeys((1, 2, 3, 4), 1000), button=1, seed=4)
    hand.raise_to(20)  # seat 4
    play_round(hand)  # seats 1, 2, 3 call: pot 80
    assert hand.street == 1
    assert hand.total_pot == 80
    hand.raise_to(20)  # seat 2 bets 20: pot 100
    assert hand.total_pot == 100
    assert hand.actor == 3
    assert hand.legal_actions().call == 20
    return hand


@pytest.mark.rule("Omaha 17.6(d)")
@pytest.mark.parametrize(
    ("ratio", "max_total"),
    [
        pytest.param(Fraction(1), 140, id="full-pot-120-raise"),
        pytest.param(Fraction(1, 2), 80, id="half-pot-60-raise"),
    ],
)
def test_s04_s05_pot_limit_adds_the_call_to_the_pot_first(ratio: Fraction, max_total: int) -> None:
    hand = _pot_of_100_facing_20(ratio)
    legal = hand.legal_actions()
    assert legal.raise_to is not None
    assert legal.raise_to[1] == max_total
    snapshot_unchanged(hand, lambda: hand.raise_to(max_total + 1), "Omaha 17.6(d)")
    stack = hand.players[3].stack
    hand.raise_to(max_total)
    assert stack - hand.players[3].stack == max_total  # the chips put in by this action


@pytest.mark.rule("Omaha 17.6(e)")
def test_s06_spread_limit_two_to_ten() -> None:
    rules = TableRules(HOLDEM, SpreadLimit(2, 10), blinds=(1, 2), table_minimum=2)
    hand = HandState(rules, dict.fromkeys((1, 2, 3), 1000), button=1, seed=6)
    play_round(hand)
    assert (hand.street, hand.actor) == (1, 2)
    snapshot_unchanged(hand, lambda: hand.raise_to(1), "Omaha 17.6(e)")  # below the minimum
    snapshot_unchanged(hand, lambda: hand.raise_to(11), "Omaha 17.6(e)")  # above the maximum
    hand.raise_to(5)
    snapshot_unchanged(hand, lambda: hand.raise_to(8), "Omaha 17.6(e)")  # raise by 3 < 5
    hand.raise_to(10)  # raise by 5
    assert hand.players[3].bet == 10
    assert hand.current_bet == 10


@pytest.mark.rule("Omaha 17.6(c)")
def test_s07_no_limit_raise_not_smaller_than_the_last_one_except_a_tap_out() -> None:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, dict.fromkeys((1, 2, 3, 4), 1000), button=1, seed=7)
    play_round(hand)
    assert (hand.street, hand.actor) == (1, 2)
    hand.raise_to(10)  # A bets 10
    hand.raise_to(30)  # B raises 20
    snapshot_unchanged(hand, lambda: hand.raise_to(40), "Omaha 17.6(c)")  # C raises only 10
    hand.raise_to(50)  # C raises 20: accepted
    assert hand.events[-1] == ev.RaisedTo(4, 50, 20, full=True, all_in=False)
    assert hand.legal_actions().raise_to == (70, 990)  # the next raise is at least 20 too


@pytest.mark.rule("Omaha 17.6(c)")
def test_s07_tap_out_below_a_full_raise_is_accepted() -> None:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, {1: 1000, 2: 1000, 3: 1000, 4: 45}, button=1, seed=7)
    play_round(hand)
    hand.raise_to(10)  # seat 2
    hand.raise_to(30)  # seat 3
    assert hand.actor == 4
    assert hand.legal_actions().raise_to == (35, 35)  # 35 total: a raise of 5 < 20
    hand.raise_to(35)
    last = hand.events[-1]
    assert last == ev.RaisedTo(4, 35, 5, full=False, all_in=True)
    assert hand.actor == 1
    assert hand.legal_actions().call == 35


@pytest.mark.rule("Omaha 17.6(b)")
@pytest.mark.parametrize(
    ("blinds", "valid"),
    [((5, 10), True), ((10, 5), False), ((10, 10), True), ((5, 9), False)],
)
def test_s08_the_last_blind_must_reach_the_table_minimum(
    blinds: tuple[int, int], valid: bool
) -> None:
    if valid:
        rules = TableRules(OMAHA, NoLimit(), blinds=blinds, table_minimum=10)
        rules.validate()
        HandState(rules, {1: 100, 2: 100, 3: 100}, button=1, seed=1)
        return
    with pytest.raises(RuleViolationError) as info:  # refused when the rules are built
        TableRules(OMAHA, NoLimit(), blinds=blinds, table_minimum=10)
    assert info.value.rule == "Omaha 17.6(b)"
    assert info.value.allowed is not None
    assert "10" in info.value.allowed


@pytest.mark.rule("Draw 11.x(c)")
def test_s09_voluntary_blind_is_exactly_double_the_last_blind() -> None:
    rules = TableRules(DRAW, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(
        rules, dict.fromkeys((1, 2, 3, 4), 1000), button=1, seed=9, voluntary_blind=True
    )
    posted = events_of(hand, ev.BlindPosted)
    assert posted == [
        ev.BlindPosted(2, 5),
        ev.BlindPosted(3, 10),
        ev.BlindPosted(4, 20, voluntary=True),  # 2 x 10: never 15
    ]
    assert hand.current_bet == 20
    assert hand.actor == 1  # left of the voluntary blind
    assert hand.legal_actions().call == 20
    # a game without the section-11 clause has no voluntary blind at all
    with pytest.raises(RuleViolationError) as info:
        HandState(
            TableRules(HOLDEM, NoLimit()),
            dict.fromkeys((1, 2, 3), 100),
            button=1,
            voluntary_blind=True,
        )
    assert info.value.rule == "Draw 11.x(c)"


@pytest.mark.rule("Omaha 17.1(c)", "Omaha 17.1(d)", "Omaha 17.2(a)")
def test_s10_omaha_blinds_deal_and_first_action_follow_the_button() -> None:
    rules = TableRules(OMAHA, PotLimit(), blinds=(5, 10), table_minimum=10)
    holes = {
        1: "2c 3c 4c 5c",
        2: "2d 3d 4d 5d",
        3: "2h 3h 4h 5h",
        4: "2s 3s 4s 5s",
        5: "6c 7c 8c 9c",
        6: "6d 7d 8d 9d",
    }
    hand = HandState(
        rules, dict.fromkeys(range(1, 7), 500), button=3, deck=community_deck(holes, 3)
    )
    blinds = events_of(hand, ev.BlindPosted)
    assert [(e.seat, e.amount) for e in blinds] == [(4, 5), (5, 10)]
    first_deal = hand.events.index(next(e for e in hand.events if isinstance(e, ev.CardsDealt)))
    assert all(hand.events.index(e) < first_deal for e in blinds)  # blinds before any card
    dealt = events_of(hand, ev.CardsDealt)
    assert [e.seat for e in dealt] == [4, 5, 6, 1, 2, 3] * 4  # one at a time from seat 4
    assert all(len(e.cards) == 1 and not e.up for e in dealt)
    for seat, text in holes.items():
        assert tuple(hand.players[seat].down) == cards(text)
    assert hand.actor == 6
    legal = hand.legal_actions()
    assert (legal.fold, legal.check, legal.call) == (True, False, 10)
    assert legal.raise_to is not None
    snapshot_unchanged(hand, hand.check, "Omaha 17.2(a)")


@pytest.mark.rule("Omaha 17.3(b)", "Omaha 17.4(a)")
def test_s11_post_flop_first_active_left_of_button_and_checked_round_deals_the_turn() -> None:
    rules = TableRules(OMAHA, PotLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, dict.fromkeys(range(1, 7), 500), button=3, seed=11)
    for _ in range(4):  # seats 6, 1, 2, 3 call
        hand.call()
    assert hand.actor == 4
    hand.fold()  # seat 4, directly left of the button, is out
    hand.check()  # seat 5, the last blind
    assert hand.street == 1
    assert hand.actor == 5  # first *active* player left of the button
    burns_before = len(events_of(hand, ev.CardBurned))
    order = []
    while hand.street == 1:
        order.append(hand.actor)
        hand.check()
    assert order == [5, 6, 1, 2, 3]
    assert hand.street == 2
    assert len(events_of(hand, ev.CardBurned)) == burns_before + 1
    assert isinstance(hand.events[-2], ev.CardBurned)
    turn = hand.events[-1]
    assert isinstance(turn, ev.CommunityDealt)
    assert len(turn.cards) == 1
    assert len(hand.board) == 4
    assert hand.actor == 5


@pytest.mark.rule("Omaha 17.3(a)", "Omaha 17.4(a)", "Omaha 17.5(a)")
def test_s12_one_burn_before_flop_turn_and_river() -> None:
    rules = TableRules(OMAHA, PotLimit(), blinds=(5, 10), table_minimum=10)
    holes = {1: "As Ah Ks Qs", 2: "7c 7d 8h 9h", 3: "2c 2d 3h 4h"}
    deck = community_deck(holes, 1, board="Js Ts 2s 3d 4c", burns="5c 5d 5h")
    hand = HandState(rules, dict.fromkeys((1, 2, 3), 500), button=1, deck=deck)
    passive(hand)
    assert hand.board == list(cards("Js Ts 2s 3d 4c"))
    burned = events_of(hand, ev.CardBurned)
    assert [e.card for e in burned] == list(cards("5c 5d 5h"))
    assert hand.deck.burned == cards("5c 5d 5h")
    community = events_of(hand, ev.CommunityDealt)
    assert [len(e.cards) for e in community] == [3, 1, 1]  # the flop dealt as three cards
    for event in community:  # each community deal directly follows its burn
        assert isinstance(hand.events[hand.events.index(event) - 1], ev.CardBurned)


def _fold_to_one(street: int) -> HandState:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, dict.fromkeys((1, 2, 3), 1000), button=1, seed=13)
    while hand.street < street:
        play_round(hand)
    if street > 0:
        hand.raise_to(50)
    while not hand.is_complete:
        hand.fold()
    return hand


@pytest.mark.rule("Omaha 17.2(c)")
@pytest.mark.parametrize("street", [0, 1, 2, 3], ids=["pre-flop", "flop", "turn", "river"])
def test_s13_everyone_folds_and_the_last_player_wins_at_once(street: int) -> None:
    hand = _fold_to_one(street)
    board_sizes = [0, 3, 4, 5]
    assert len(hand.board) == board_sizes[street]  # no further card dealt
    last_fold = max(i for i, e in enumerate(hand.events) if isinstance(e, ev.Folded))
    later = hand.events[last_fold:]
    assert not any(isinstance(e, (ev.CardBurned, ev.CommunityDealt, ev.HandShown)) for e in later)
    winner = 3 if street == 0 else 2  # the big blind, or the bettor
    awards = hand.awards
    assert len(awards) == 1
    pot = 10 if street == 0 else 30  # pre-flop: the blind's own uncalled 5 comes back
    assert awards[0].shares == ((winner, pot),)
    assert sum(hand.stacks.values()) == 3000
    assert hand.is_complete


@pytest.mark.rule("Omaha 17.1(b)", "Poker definitions: Button")
@pytest.mark.parametrize("button", [1, 2, 3, 4, 5, 6])
def test_s14_blinds_and_deal_follow_the_button_and_move_with_it(button: int) -> None:
    seats = (1, 2, 3, 4, 5, 6)
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)

    def roles(b: int) -> tuple[list[int], int, int, int]:
        hand = HandState(rules, dict.fromkeys(seats, 1000), button=b, seed=b)
        blinds = [e.seat for e in events_of(hand, ev.BlindPosted)]
        dealt = [e.seat for e in events_of(hand, ev.CardsDealt)]
        assert hand.actor is not None
        return blinds, dealt[0], dealt[-1], hand.actor

    around = clockwise(seats, button)
    blinds, first_card, last_card, first_to_act = roles(button)
    assert blinds == around[:2]
    assert first_card == around[0]
    assert last_card == button  # the button gets the last card of the dealing round
    assert first_to_act == around[2]
    # the next hand: the button one seat clockwise, and every role one seat with it
    nxt = around[0]
    blinds2, first2, last2, act2 = roles(nxt)
    step = {s: clockwise(seats, s)[0] for s in seats}
    assert blinds2 == [step[s] for s in blinds]
    assert (first2, last2, act2) == (step[first_card], step[last_card], step[first_to_act])


# ------------------------------------------------------------ 4.2 showdown, pots, hands


def _showdown_omaha(holes: Mapping[int, str], board: str) -> HandState:
    rules = TableRules(OMAHA, PotLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(
        rules, dict.fromkeys(holes, 500), button=1, deck=community_deck(holes, 1, board)
    )
    passive(hand)
    return hand


@pytest.mark.rule("Omaha 17.5(d)")
def test_s15_omaha_uses_exactly_two_hole_cards_not_a_royal() -> None:
    hand = _showdown_omaha({1: "As Ah Ks Qs", 2: "7c 7d 8h 9h"}, "Js Ts 2s 3d 4c")
    value = hand.hand_of(1)
    assert value is not None
    assert value.category is Category.FLUSH
    assert value.best_five_text == "As Ks Js Ts 2s"
    assert value.own_cards == cards("As Ks")
    assert hand.awards[0].shares == ((1, 20),)


@pytest.mark.rule("Omaha 17.5(d)")
def test_s16_one_heart_with_four_hearts_on_board_is_no_flush() -> None:
    hand = _showdown_omaha({1: "Qh Qc 9d 8s", 2: "3c 4d 5s 6c"}, "Ah Kh 7h 4h 2c")
    value = hand.hand_of(1)
    assert value is not None
    assert value.category is not Category.FLUSH
    assert value.category is Category.PAIR  # queens: Qh Qc with three board cards
    assert len(value.own_cards) == 2


@pytest.mark.rule("Omaha 17.5(d)")
def test_s17_a_straight_on_board_cannot_be_played() -> None:
    hand = _showdown_omaha({1: "Ad Ah Kd Ks", 2: "2c 2d 3s Qc"}, "5c 6d 7h 8s 9c")
    value = hand.hand_of(1)
    assert value is not None
    assert value.category is not Category.STRAIGHT
    assert value.category is Category.PAIR  # aces
    assert len(value.own_cards) == 2
    assert hand.awards[0].shares == ((1, 20),)


def _three_handed_tie(chip_unit: int, odd_chip: OddChip) -> HandState:
    rules = TableRules(
        OMAHA,
        NoLimit(),
        blinds=(5, 10),
        table_minimum=10,
        chip_unit=chip_unit,
        odd_chip=odd_chip,
    )
    holes = {1: "Ks Th 2c 2d", 2: "3c 3d 4s 5s", 3: "Kh Td 6c 6d"}
    deck = community_deck(holes, 1, board="Ad Qc Jh 7s 8s")
    hand = HandState(rules, dict.fromkeys((1, 2, 3), 1000), button=1, deck=deck)
    assert hand.actor == 1
    hand.raise_to(50)
    hand.fold()  # seat 2, its 5 blind stays in
    hand.call()  # seat 3
    assert hand.total_pot == 105
    passive(hand)
    return hand


@pytest.mark.rule("Omaha 17.5(e)")
def test_s18_tie_splits_to_the_lowest_chip_and_the_odd_chip_goes_by_suit() -> None:
    hand = _three_handed_tie(chip_unit=5, odd_chip=OddChip.HIGH_CARD_BY_SUIT)
    award = hand.awards[0]
    assert award.amount == 105
    assert dict(award.shares) == {1: 55, 3: 50}  # K♠ (seat 1) beats K♥ (seat 3)
    assert award.odd_chip_seat == 1
    value1, value3 = hand.hand_of(1), hand.hand_of(3)
    assert value1 is not None
    assert value3 is not None
    assert value1 == value3
    assert value1.own_cards == cards("Ks Th")
    assert value3.own_cards == cards("Kh Td")
    assert hand.stacks == {1: 1005, 2: 995, 3: 1000}


@pytest.mark.rule("Omaha 17.5(e)")
def test_s19_three_way_split_of_100_in_single_chips() -> None:
    rules = TableRules(OMAHA, NoLimit(), blinds=(5, 10), table_minimum=10)
    holes = {1: "Kh Td 2c 2h", 2: "Kd Th 3c 3h", 3: "4c 4d 5c 5d", 4: "Ks Tc 6c 6h"}
    deck = community_deck(holes, 1, board="Ad Qc Jh 7s 8s")
    hand = HandState(rules, dict.fromkeys((1, 2, 3, 4), 1000), button=1, deck=deck)
    assert hand.actor == 4
    hand.raise_to(30)  # seat 4
    hand.call()  # seat 1
    hand.call()  # seat 2 (small blind)
    hand.fold()  # seat 3 (big blind): its 10 stays in
    assert hand.total_pot == 100
    passive(hand)
    award = hand.awards[0]
    assert award.amount == 100
    assert dict(award.shares) == {1: 33, 2: 33, 4: 34}  # K♠ of seat 4 takes the odd chip
    assert award.odd_chip_seat == 4


@pytest.mark.rule("Poker definitions: All-in")
def test_s20_all_in_for_50_wins_only_the_main_pot() -> None:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    holes = {1: "Ah As", 2: "Kh Kd", 3: "Qh Qd"}
    deck = community_deck(holes, 1, board="2c 7d 9h Js 3s")
    hand = HandState(rules, {1: 50, 2: 1000, 3: 1000}, button=1, deck=deck)
    hand.raise_to(50)  # seat 1 all in
    hand.raise_to(200)  # seat 2
    hand.call()  # seat 3
    assert hand.street == 1
    assert [(p.amount, p.eligible) for p in hand.pots] == [(150, (1, 2, 3)), (300, (2, 3))]
    passive(hand)
    shares = [a.shares for a in hand.awards]
    assert shares == [((1, 150),), ((2, 300),)]  # the best hand cannot win the side pot
    assert hand.stacks == {1: 150, 2: 1100, 3: 800}


@pytest.mark.rule("Omaha 17.5(d)")
@pytest.mark.parametrize(
    ("seat1_hole", "seat1_shows"),
    [
        pytest.param("Kd 4c", False, id="worse-caller-mucks"),
        pytest.param("Ad 5d", True, id="equal-caller-shows"),
    ],
)
def test_s21_bettor_shows_first_then_equal_or_better_hands(
    seat1_hole: str, seat1_shows: bool
) -> None:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    holes = {1: seat1_hole, 2: "Jd 8c", 3: "Ah 5c"}
    deck = community_deck(holes, 1, board="2c 7d 9h Js 3s")
    hand = HandState(rules, dict.fromkeys((1, 2, 3), 1000), button=1, deck=deck)
    play_round(hand)  # pre-flop
    check_round(hand)  # flop
    check_round(hand)  # turn
    assert hand.street == 3
    hand.check()  # seat 2
    hand.raise_to(10)  # seat 3 bets
    hand.call()  # seat 1
    hand.call()  # seat 2
    assert hand.is_complete
    showdown = [e for e in hand.events if isinstance(e, (ev.HandShown, ev.HandMucked))]
    first = showdown[0]
    assert isinstance(first, ev.HandShown)
    assert (first.seat, first.cards) == (3, cards("Ah 5c"))  # the called bettor shows first
    assert [type(e) for e in showdown] == [
        ev.HandShown,
        ev.HandShown if seat1_shows else ev.HandMucked,
        ev.HandShown,  # seat 2's pair of jacks is better: it must show
    ]
    assert [e.seat for e in showdown] == [3, 1, 2]
    assert hand.awards[0].shares == ((2, 60),)


@pytest.mark.rule("Omaha 17.5(d)")
def test_s21_checked_through_river_first_left_of_the_button_shows_first() -> None:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    holes = {1: "Jd 8c", 2: "Kd 4c", 3: "Ah 5c"}  # seat 2 worst, seat 3 next, seat 1 best
    deck = community_deck(holes, 1, board="2c 7d 9h Js 3s")
    hand = HandState(rules, dict.fromkeys((1, 2, 3), 1000), button=1, deck=deck)
    passive(hand)
    showdown = [e for e in hand.events if isinstance(e, (ev.HandShown, ev.HandMucked))]
    # seat 2 shows first (nothing shown yet), seat 3 is better: shows; seat 1 best: shows
    assert [(type(e), e.seat) for e in showdown] == [
        (ev.HandShown, 2),
        (ev.HandShown, 3),
        (ev.HandShown, 1),
    ]
    assert hand.awards[0].shares == ((1, 30),)


@pytest.mark.rule("Omaha 17.5(f)")
def test_s22_no_agreed_chop_the_hand_is_played_out() -> None:
    public = [name for name in dir(HandState) if not name.startswith("_")]
    dealing_cards = {"deal", "can_deal", "verify_deal"}  # a live dealer enters the cards dealt
    for word in ("chop", "split", "agree", "settle", "deal"):
        assert not any(word in name.lower() for name in public if name not in dealing_cards), word
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    holes = {1: "Ah Kh", 2: "Ad Kd"}
    hand = HandState(
        rules, {1: 1000, 2: 1000}, button=1, deck=community_deck(holes, 1, "2c 7d 9h Js 3s")
    )
    hand.call()  # seat 2 completes the first blind
    hand.check()  # seat 1 (button, last blind)
    for _ in range(3):  # flop, turn: the players cannot stop here
        assert not hand.is_complete
        assert hand.actor is not None
        with pytest.raises(CroupierError):
            hand.step()  # no dealer chore may end the hand while a player must act
        check_round(hand)
    assert hand.is_complete
    assert len(hand.board) == 5
    assert len(events_of(hand, ev.HandShown)) == 2
    assert dict(hand.awards[0].shares) == {1: 10, 2: 10}  # a split only by the showdown


@pytest.mark.rule("Five Card Stud 12.2(a)")
def test_s23_lowest_up_card_brings_in_clubs_lowest() -> None:
    rules = TableRules(FIVE_CARD_STUD, NoLimit(), ante=1, blinds=(), table_minimum=10)
    # button (dealer position) 1: the deal goes 2, 3, 1; down cards then up cards
    top = ["Kc", "Kd", "Kh", "3d", "9h", "3c"]
    deck = Deck.stacked(top + [c for c in FULL_DECK if c not in set(top)])
    hand = HandState(rules, dict.fromkeys((1, 2, 3), 500), button=1, deck=deck)
    assert [tuple(hand.players[s].up) for s in (2, 3, 1)] == [cards("3d"), cards("9h"), cards("3c")]
    assert hand.actor == 1  # 3♣ is below 3♦
    legal = hand.legal_actions()
    assert legal.bring_in is not None
    assert legal.bring_in[0] == 10  # at least the table minimum
    assert (legal.fold, legal.check, legal.call, legal.raise_to) == (False, False, None, None)
    snapshot_unchanged(hand, lambda: hand.bring_in(5), "Five Card Stud 12.2(a)")
    for action in (hand.check, hand.fold, hand.call, lambda: hand.raise_to(20)):
        with pytest.raises(IllegalActionError):
            action()
    assert hand.actor == 1
    hand.bring_in(10)
    assert hand.events[-1] == ev.BringIn(1, 10, all_in=False)
    assert hand.actor == 2
    assert hand.legal_actions().call == 10


@pytest.mark.rule("Five Card Stud 12.2(a)")
def test_s23_a_check_at_the_bring_in_cites_the_stud_rule() -> None:
    rules = TableRules(FIVE_CARD_STUD, NoLimit(), ante=1, blinds=(), table_minimum=10)
    top = ["Kc", "Kd", "Kh", "3d", "9h", "3c"]
    deck = Deck.stacked(top + [c for c in FULL_DECK if c not in set(top)])
    hand = HandState(rules, dict.fromkeys((1, 2, 3), 500), button=1, deck=deck)
    assert hand.actor == 1
    snapshot_unchanged(hand, hand.check, "Five Card Stud 12.2(a)")


@pytest.mark.rule("Five Card Stud 12.1(b)", "Five Card Stud 12.1(c)")
def test_s24_five_card_stud_antes_then_one_down_one_up_from_the_left() -> None:
    rules = TableRules(FIVE_CARD_STUD, FixedLimit(10, 20), ante=2, blinds=(), table_minimum=10)
    hand = HandState(rules, dict.fromkeys((1, 2, 3, 4), 500), button=2, seed=24)
    antes = events_of(hand, ev.AntePosted)
    assert sorted(e.seat for e in antes) == [1, 2, 3, 4]
    assert all(e.amount == 2 for e in antes)
    first_card = next(i for i, e in enumerate(hand.events) if isinstance(e, ev.CardsDealt))
    last_ante = max(i for i, e in enumerate(hand.events) if isinstance(e, ev.AntePosted))
    assert last_ante < first_card  # every ante before any card
    dealt = events_of(hand, ev.CardsDealt)
    assert [(e.seat, e.up) for e in dealt] == [
        (3, False),
        (4, False),
        (1, False),
        (2, False),
        (3, True),
        (4, True),
        (1, True),
        (2, True),
    ]
    assert all(len(e.cards) == 1 for e in dealt)
    assert all(len(p.down) == 1 and len(p.up) == 1 for p in hand.players.values())
    assert hand.total_pot == 8


@pytest.mark.rule("Poker definitions: Table Stakes", "Poker definitions: Call")
def test_s25_a_call_beyond_the_stack_is_an_all_in_call_and_no_chips_are_added() -> None:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, {1: 1000, 2: 1000, 3: 30}, button=1, seed=25)
    public = [name for name in dir(HandState) if not name.startswith("_")]
    for word in ("add", "buy", "rebuy", "top_up", "chips"):
        assert not any(word in name.lower() for name in public), word
    hand.stacks[3] = 10_000  # a copy: the table stake cannot be changed from outside
    assert hand.players[3].stack == 20
    hand.raise_to(100)  # seat 1
    hand.fold()  # seat 2
    assert hand.actor == 3
    legal = hand.legal_actions()
    assert legal.call == 20  # all the big blind has left
    assert legal.raise_to is None
    snapshot_unchanged(hand, lambda: hand.raise_to(200), "Poker definitions: Table Stakes")
    hand.call()
    call = next(e for e in hand.events if isinstance(e, ev.Called))
    assert call == ev.Called(3, 20, all_in=True)
    returned = events_of(hand, ev.BetReturned)
    assert returned == [ev.BetReturned(1, 70)]  # seat 1's uncalled 70 comes back
    assert hand.is_complete  # nobody left to bet: the board is dealt out
    assert sum(hand.stacks.values()) == 2030
    assert sum(a.amount for a in hand.awards) == 65
