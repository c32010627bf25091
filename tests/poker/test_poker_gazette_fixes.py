"""Where the referee departed from the Gazette text, and the bad input that got through.

Each test names the rule it follows; the expected chips are worked out by hand from the
rule text (odd chip, voluntary blind, defective deck, table limits), and every refusal is
checked to leave the hand exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from helpers import community_deck, passive, refused

from croupier.cards import Card, Deck, full_deck, stripped_deck
from croupier.errors import CroupierError, RuleViolationError
from croupier.poker import (
    DRAW,
    HOLDEM,
    MANILA,
    OMAHA,
    FixedLimit,
    HandState,
    NoLimit,
    PotLimit,
    SpreadLimit,
    TableRules,
)
from croupier.poker import events as ev
from croupier.poker.actions import Action
from croupier.poker.policies import passive_policy
from croupier.poker.settings import HeadsUpBlinds, OddChip
from croupier.poker.table import PolicyFailed, Table
from croupier.poker.views import SeatView

BLINDS = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)


def odd_chip_hand(holes: Mapping[int, str], board: str, rules: TableRules = BLINDS) -> HandState:
    """Seats 1, 2, 3, button 1: seat 2 posts 5 and folds, so the pot of 25 splits 12/12 with
    one odd chip between seats 1 and 3."""
    hand = HandState(rules, dict.fromkeys(holes, 100), 1, deck=community_deck(holes, 1, board))
    hand.call()  # seat 1
    hand.fold()  # seat 2, the first blind
    passive(hand)
    return hand


# ======================================================================= 1. the odd chip


@pytest.mark.rule("Omaha 17.5(e)", "Hold'em 16 (hand composition)")
def test_odd_chip_goes_to_a_winner_whose_hole_card_completes_the_hand() -> None:
    # Board 9c Tc Jd Qh Ks: seat 1's hole nine (9s) completes the same straight; seat 3
    # plays the board. Seat 3's five holds the board's Ks, but a board king is no hole
    # card: the rule ranks only hole cards used, so seat 1 takes the odd chip.
    hand = odd_chip_hand({1: "9s 2d", 2: "2c 2h", 3: "4h 3c"}, "9c Tc Jd Qh Ks")
    one, three = hand.hand_of(1), hand.hand_of(3)
    assert one is not None
    assert three is not None
    assert one == three
    assert one.own_cards == (Card.parse("9s"),)
    assert three.own_cards == ()
    (award,) = hand.awards
    assert award.amount == 25
    assert dict(award.shares) == {1: 13, 3: 12}
    assert award.odd_chip_seat == 1


@pytest.mark.rule("Omaha 17.5(e)")
def test_odd_chip_wheel_on_the_board_against_a_hole_ace() -> None:
    # Board As 2h 3d 4c 5s: seat 3 plays its Ac in the wheel, seat 1 plays the board.
    # The board's As outranks the Ac by suit, but it is no hole card: seat 3 takes it.
    hand = odd_chip_hand({1: "Kh Qd", 2: "2c 2d", 3: "Ac 7d"}, "As 2h 3d 4c 5s")
    three = hand.hand_of(3)
    assert three is not None
    assert Card.parse("Ac") in three.own_cards
    (award,) = hand.awards
    assert dict(award.shares) == {1: 12, 3: 13}
    assert award.odd_chip_seat == 3


@pytest.mark.rule("Omaha 17.5(e)", "Decision 3.2-12")
def test_odd_chip_fallback_only_when_no_winner_uses_a_hole_card() -> None:
    # both play the board's straight: nobody has a hole card in the set the rule ranks,
    # so the fallback (the five's highest card, then left of the button) decides
    hand = odd_chip_hand({1: "2s 3d", 2: "2c 2d", 3: "4h 3c"}, "9c Tc Jd Qh Ks")
    one, three = hand.hand_of(1), hand.hand_of(3)
    assert one is not None
    assert three is not None
    assert one.own_cards == three.own_cards == ()
    (award,) = hand.awards
    assert award.odd_chip_seat == 3  # same five: the first winner clockwise from seat 1


@pytest.mark.rule("Omaha 17.5(e)")
def test_odd_chip_between_two_hole_cards_goes_by_suit() -> None:
    # both complete a queen-high straight with a hole queen: the Qh outranks the Qd
    hand = odd_chip_hand({1: "Qd 2s", 2: "2c 2d", 3: "Qh 3c"}, "8c 9d Th Js 4c")
    (award,) = hand.awards
    assert award.odd_chip_seat == 3


# ==================================================================== 3. the voluntary blind


def draw_rules(structure: object = None) -> TableRules:
    return TableRules(DRAW, NoLimit() if structure is None else structure, blinds=(5, 10))  # type: ignore[arg-type]


@pytest.mark.rule("Draw 11.x(c)")
def test_voluntary_blind_that_cannot_be_double_is_refused() -> None:
    # seats 1-4, button 1: 2 and 3 post the blinds, seat 4 would post the voluntary 20
    stacks = {1: 100, 2: 100, 3: 100, 4: 15}
    with pytest.raises(RuleViolationError) as info:
        HandState(draw_rules(), stacks, 1, seed=1, voluntary_blind=True)
    assert info.value.rule == "Draw 11.x(c)"
    assert "20" in str(info.value)
    exact = HandState(draw_rules(), {**stacks, 4: 20}, 1, seed=1, voluntary_blind=True)
    assert [e.amount for e in exact.events if isinstance(e, ev.BlindPosted)] == [5, 10, 20]


@pytest.mark.rule("Draw 11.x(d)")
def test_raise_over_a_voluntary_blind_is_at_least_the_voluntary_bet() -> None:
    # 11.x(d): "not less than any previous bet or raise in that round": the voluntary
    # blind bet of 20 is a previous bet, so the least raise is to 40, not 30
    hand = HandState(
        draw_rules(), dict.fromkeys((1, 2, 3, 4), 500), 1, seed=2, voluntary_blind=True
    )
    assert hand.actor == 1
    assert hand.legal_actions().raise_to == (40, 500)
    refused(hand, hand.raise_to, 30, error=CroupierError)
    hand.raise_to(40)
    assert hand.legal_actions().raise_to == (60, 500)  # the raise of 20 is the least now


@pytest.mark.rule("Draw 11.x(c)", "Draw 11.x(g)")
def test_voluntary_blind_is_a_bet_so_three_raises_follow_it() -> None:
    # the voluntary blind *bet* takes the place of the last blind as the round's bet: a
    # bet and three raises, so three raises follow it before the cap
    rules = TableRules(DRAW, FixedLimit(10, 20, big_bet_from=1), blinds=(5, 10))
    hand = HandState(rules, dict.fromkeys((1, 2, 3, 4, 5), 500), 1, seed=3, voluntary_blind=True)
    assert hand.current_bet == 20
    raises = 0
    while hand.legal_actions().raise_to is not None:
        hand.raise_to(hand.legal_actions().raise_to[0])  # type: ignore[index]
        raises += 1
    assert raises == 3
    assert hand.current_bet == 50  # 20, then three raises of 10
    assert hand.legal_actions().call is not None


# ====================================================================== 4. the draw restock


def restocking_draw(seed: int) -> HandState:
    """Seven players each throw five cards: the 52-card stub runs short on the draw."""
    rules = TableRules(DRAW, NoLimit(), blinds=(5, 10))
    hand = HandState(rules, dict.fromkeys(range(1, 8), 500), 1, seed=seed)
    while hand.actor is not None and not hand.legal_actions().discard:
        hand.check() if hand.can_check() else hand.call()
    while hand.legal_actions().discard:
        seat = hand.actor
        assert seat is not None
        hand.discard(hand.players[seat].down)
    return hand


@pytest.mark.rule("Draw 11 (deal and draw)")
def test_draw_restock_shuffles_the_discards_with_the_hands_rng() -> None:
    orders = set()
    for seed in range(6):
        hand = restocking_draw(seed)
        restocks = [e for e in hand.events if isinstance(e, ev.StubRestocked)]
        assert restocks
        discards = [c for e in hand.events if isinstance(e, ev.Discarded) for c in e.cards]
        restock = restocks[0]
        assert set(restock.cards) <= set(discards)
        # which of the discards come back, and in which order: never a fixed pattern
        positions = tuple(discards.index(c) for c in restock.cards)
        orders.add(positions)
        # seeded hands replay card for card, the restock included
        again = restocking_draw(seed)
        assert again.events == hand.events
        replayed = HandState.replay(hand.rules, hand.events)
        assert replayed.snapshot() == hand.snapshot()
    assert len(orders) == 6
    # the public log says a restock happened, never the order
    view = restocking_draw(0).view_for(1)
    hidden = [e for e in view.events if isinstance(e, ev.HiddenCards) and e.what == "restocked"]
    assert hidden
    assert not any(isinstance(e, ev.StubRestocked) for e in view.events)


# ===================================================================== 5. defective decks


@pytest.mark.rule("Poker definitions: Defective Deck", "Decision 3.2-16")
@pytest.mark.parametrize(
    ("rules", "cards", "problem"),
    [
        (TableRules(MANILA, NoLimit()), full_deck(), "no 2c"),
        (BLINDS, full_deck()[:12], "12 cards"),
        (BLINDS, full_deck()[:51], "51 cards"),
        (TableRules(MANILA, NoLimit()), stripped_deck()[:31], "31 cards"),
    ],
    ids=["manila-from-52", "holdem-12-cards", "holdem-51-cards", "manila-31-cards"],
)
def test_a_deck_that_does_not_fit_the_game_is_refused(
    rules: TableRules, cards: tuple[Card, ...], problem: str
) -> None:
    with pytest.raises(RuleViolationError) as info:
        HandState(rules, {1: 100, 2: 100}, 1, deck=Deck(cards, shuffle=False))
    assert info.value.rule == "Poker definitions: Defective Deck"
    assert problem in str(info.value)


@pytest.mark.rule("Poker definitions: Defective Deck")
def test_a_dealt_from_deck_is_refused_and_a_whole_one_plays_to_the_end() -> None:
    used = Deck.standard(seed=1)
    used.draw(1)
    with pytest.raises(RuleViolationError, match="already been dealt"):
        HandState(BLINDS, {1: 100, 2: 100}, 1, deck=used)
    with pytest.raises(CroupierError, match="same card twice"):
        Deck([*full_deck()[:51], full_deck()[0]], shuffle=False)
    manila = HandState(TableRules(MANILA, NoLimit()), {1: 100, 2: 100, 3: 100}, 1, seed=4)
    passive(manila)  # a whole stripped deck: the showdown evaluates every hand
    assert sum(manila.stacks.values()) == 300


# ======================================================================= 6. table limits


@pytest.mark.rule("Omaha 17.6(a)", "Omaha 17.6(c)")
@pytest.mark.parametrize(
    "build",
    [
        lambda: TableRules(HOLDEM, FixedLimit(5, 10), table_minimum=10),
        lambda: TableRules(HOLDEM, SpreadLimit(2, 10), blinds=(5, 10), table_minimum=10),
        lambda: TableRules(HOLDEM, FixedLimit(10, 40), table_minimum=10, table_maximum=20),
        lambda: TableRules(HOLDEM, SpreadLimit(10, 50), table_minimum=10, table_maximum=40),
    ],
    ids=["fixed-small-below-min", "spread-min-below-min", "fixed-big-over-max", "spread-over-max"],
)
def test_a_structure_outside_the_table_limits_is_refused(build: Callable[[], object]) -> None:
    with pytest.raises(RuleViolationError) as info:
        build()
    assert info.value.rule == "Omaha 17.6(c)"
    assert "outside the table limits" in str(info.value)


@pytest.mark.rule("Omaha 17.6(a)")
def test_table_maximum_below_minimum_is_refused_and_limits_inside_are_kept() -> None:
    with pytest.raises(RuleViolationError, match="below the table minimum"):
        TableRules(HOLDEM, NoLimit(), table_minimum=10, table_maximum=5)
    rules = TableRules(HOLDEM, FixedLimit(10, 20), table_minimum=10, table_maximum=20)
    hand = HandState(rules, {1: 100, 2: 100, 3: 100}, 1, seed=1)
    assert hand.legal_actions().raise_to == (20, 20)


# ================================================================== 8. settings as strings


@pytest.mark.rule("Decision 3.2-7")
def test_heads_up_setting_as_a_string_is_coerced_not_ignored() -> None:
    rules = TableRules(heads_up="button-posts-first")  # type: ignore[arg-type]
    assert rules.heads_up is HeadsUpBlinds.BUTTON_POSTS_FIRST
    hand = HandState(rules, {1: 100, 2: 100}, 1, seed=1)
    first_blind = next(e for e in hand.events if isinstance(e, ev.BlindPosted))
    assert first_blind.seat == 1  # the button posts the first blind
    assert TableRules(odd_chip="first-left-of-button").odd_chip is OddChip.FIRST_LEFT_OF_BUTTON  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"heads_up": "nonsense"}, "heads_up must be one of 'literal', 'button-posts-first'"),
        ({"odd_chip": 3}, "odd_chip must be one of"),
        ({"game": "checkers"}, "unknown game 'checkers'"),
        ({"structure": "no-limit"}, "structure must be a betting structure"),
        ({"blinds": (5, -10)}, "a blind must be at least 1"),
        ({"blinds": "5 10"}, "blinds must be a tuple"),
        ({"table_minimum": 2.5}, "the table minimum must be a whole number of chips"),
        ({"chip_unit": True}, "the chip unit must be a whole number of chips, not True"),
        ({"ante": Decimal(1)}, "the ante must be a whole number of chips"),
        ({"show_all_at_showdown": "yes"}, "show_all_at_showdown must be True or False"),
    ],
)
def test_bad_settings_are_refused_with_what_is_wrong(
    changes: dict[str, object], named: str
) -> None:
    with pytest.raises(CroupierError) as info:
        TableRules(**changes)  # type: ignore[arg-type]
    assert named in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("build", "named"),
    [
        (lambda: FixedLimit(-1, -2), "small bet must be at least 1"),
        (lambda: FixedLimit(20, 10), "big bet (10) is below the small bet (20)"),
        (lambda: FixedLimit(10, 20, big_bet_from=-1), "big_bet_from must be a street index"),
        (lambda: PotLimit("x"), "ratio must be a Fraction"),  # type: ignore[arg-type]
        (lambda: PotLimit(0.5), "ratio must be a Fraction"),  # type: ignore[arg-type]
        (lambda: PotLimit(Fraction(3, 2)), "at most 1"),
        (lambda: SpreadLimit(10, 5), "maximum (5) is below the minimum (10)"),
        (lambda: SpreadLimit(2.5, 10), "minimum must be a whole number of chips"),  # type: ignore[arg-type]
    ],
)
def test_bad_structures_are_refused(build: Callable[[], object], named: str) -> None:
    with pytest.raises(CroupierError) as info:
        build()
    assert named in str(info.value)


# ====================================================================== 9. types and amounts


@pytest.mark.rule("Omaha 17.6(c)")
def test_integral_amounts_of_any_type_are_accepted() -> None:
    for amount in (np.int64(20), np.int32(20), 20):
        hand = HandState(BLINDS, {1: 100, 2: 100, 3: 100}, 1, seed=5)
        hand.raise_to(amount)  # type: ignore[arg-type]
        raised = hand.events[-1]
        assert isinstance(raised, ev.RaisedTo)
        assert raised.to == 20
        assert type(raised.to) is int


@pytest.mark.parametrize(
    "amount", [Fraction(20), Decimal(20), 20.0, "30", None, True, [20]], ids=repr
)
def test_non_integral_amounts_are_refused_and_leave_the_hand_unchanged(amount: object) -> None:
    hand = HandState(BLINDS, {1: 100, 2: 100, 3: 100}, 1, seed=5)
    error = refused(hand, hand.raise_to, amount, error=CroupierError)
    assert "must be a whole number of chips" in str(error)
    assert hand.can_raise_to(amount) is False  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("stacks", "button", "named"),
    [
        ({1: 100.0, 2: 100}, 1, "the stack of seat 1 must be a whole number of chips"),
        ({0: 100, 2: 100}, 2, "a seat must be a whole number from 1, not 0"),
        ({-3: 100, 2: 100}, 2, "not -3"),
        ({"a": 100, 2: 100}, 2, "not 'a'"),
        ({1: 100, 2: True}, 1, "not True"),
        ({1: 100, 2: 100}, "1", "the button seat must be a whole number"),
        ({1: 100, 2: 0}, 1, "every player needs chips"),
    ],
)
def test_bad_stacks_and_seats_are_refused(
    stacks: dict[object, object], button: object, named: str
) -> None:
    with pytest.raises(CroupierError) as info:
        HandState(BLINDS, stacks, button, seed=1)  # type: ignore[arg-type]
    assert named in str(info.value)


def test_bad_discards_and_seats_are_refused_and_can_never_raises() -> None:
    hand = HandState(
        TableRules(DRAW, NoLimit(), blinds=(5, 10)), {1: 100, 2: 100, 3: 100}, 1, seed=2
    )
    while not hand.legal_actions().discard:
        hand.check() if hand.can_check() else hand.call()
    for garbage in (["zz"], 42, [1, 2], None):
        refused(hand, hand.discard, garbage, error=CroupierError)
        assert hand.can_discard(garbage) is False  # type: ignore[arg-type]
    for seat in ("x", -1, None, [1]):
        assert hand.can_concede(seat) is False  # type: ignore[arg-type]
        assert hand.can_request_show(seat) is False  # type: ignore[arg-type]


# ============================================================================== 10. replay


def finished_omaha() -> HandState:
    rules = TableRules(OMAHA, PotLimit(), blinds=(5, 10))
    hand = HandState(rules, {1: 200, 2: 200, 3: 200}, 1, seed=8)
    passive(hand)
    return hand


def test_replay_refuses_a_log_of_another_game() -> None:
    hand = finished_omaha()
    with pytest.raises(
        CroupierError, match=r"under rules \w+ \(a omaha hand\); these rules are \w+ \(holdem\)"
    ):
        HandState.replay(BLINDS, hand.events)
    assert HandState.replay(hand.rules, hand.events).snapshot() == hand.snapshot()


def test_replay_refuses_an_empty_or_foreign_log() -> None:
    with pytest.raises(CroupierError, match="starts with HandStarted"):
        HandState.replay(BLINDS, [])
    hand = finished_omaha()
    with pytest.raises(CroupierError, match="only events"):
        HandState.replay(hand.rules, [*hand.events, "fold"])  # type: ignore[list-item]


def test_replay_refuses_a_tampered_seat_or_amount() -> None:
    hand = HandState(BLINDS, {1: 100, 2: 100, 3: 100}, 1, seed=3)
    hand.raise_to(30)
    hand.fold()
    hand.call()
    passive(hand)
    index = next(i for i, e in enumerate(hand.events) if isinstance(e, ev.RaisedTo))
    events = list(hand.events)
    tampered_seat = [*events[:index], ev.RaisedTo(2, 30, 20, True, False), *events[index + 1 :]]
    with pytest.raises(CroupierError, match=f"event {index} of the log"):
        HandState.replay(BLINDS, tampered_seat)
    stack = next(i for i, e in enumerate(events) if isinstance(e, ev.DealEnded))
    forged = [*events[:stack], ev.DealEnded(((1, 999), (2, 95), (3, 100))), *events[stack + 1 :]]
    with pytest.raises(CroupierError, match="differs from the replay"):
        HandState.replay(BLINDS, forged)
    assert HandState.replay(BLINDS, events).stacks == hand.stacks


# ================================================================ 13. a policy that fails


@pytest.mark.parametrize(
    "policy_error", [RuntimeError("bot crashed"), None], ids=["raises", "no-action"]
)
def test_a_failing_policy_never_leaves_the_table_stuck(policy_error: Exception | None) -> None:
    table = Table(TableRules(), seats=6, seed=4)
    for name, seat in (("Ann", 1), ("Bob", 3), ("Cy", 5)):
        table.sit(name, seat, 200)
    calls = {"n": 0}

    def flaky(view: SeatView) -> Action:
        calls["n"] += 1
        if view.seat == 3:  # Bob's bot fails every time
            if policy_error is not None:
                raise policy_error
            return None  # type: ignore[return-value]
        return passive_policy(view)

    for _ in range(4):
        hand = table.play_hand(flaky)
        assert hand.is_complete
        assert table.hand is None  # finished: the next hand can start
    failures = [e for e in table.events if isinstance(e, PolicyFailed)]
    assert failures
    assert all(f.seat == 3 for f in failures)
    assert all(f.action in ("checks", "folds") for f in failures)
    reason = "RuntimeError: bot crashed" if policy_error else "no action"
    assert all(f.reason == reason for f in failures)
    assert sum(table.stacks.values()) + table.rake_total == 600


def test_random_seeds_and_rngs_are_checked() -> None:
    with pytest.raises(CroupierError, match="a seed must be at least 0"):
        HandState(BLINDS, {1: 100, 2: 100}, 1, seed=-1)
    with pytest.raises(CroupierError, match=r"rng must be a random\.Random"):
        HandState(BLINDS, {1: 100, 2: 100}, 1, rng=42)  # type: ignore[arg-type]
    injected = HandState(BLINDS, {1: 100, 2: 100}, 1, rng=random.Random(9))
    assert injected.events == HandState(BLINDS, {1: 100, 2: 100}, 1, seed=9).events
