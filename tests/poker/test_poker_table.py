"""The poker table: seat choice, the button, dead button, entry, heads up, table stakes."""

from __future__ import annotations

import dataclasses
import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.errors import RuleViolationError
from croupier.poker import events as ev
from croupier.poker.actions import Action, Call, Check, RaiseTo
from croupier.poker.events import BlindPosted
from croupier.poker.games import DRAW, FIVE_CARD_STUD, GAMES, HOLDEM, OMAHA, ForcedBets
from croupier.poker.settings import HeadsUpBlinds, Rake, TableRules
from croupier.poker.state import HandState
from croupier.poker.structures import FixedLimit, NoLimit, PotLimit
from croupier.poker.table import (
    ButtonMoved,
    EntryRule,
    HandDealt,
    HandPlan,
    PlayerLeft,
    PlayerMoved,
    PlayerSatOut,
    PlayerSeated,
    PolicyFailed,
    SeatDrawn,
    SeatingRules,
    Table,
    TableError,
    passive_policy,
    random_policy,
)
from croupier.poker.views import SeatView

NAMES = [f"P{i}" for i in range(1, 11)]


def holdem(**kwargs: object) -> TableRules:
    return TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10, **kwargs)  # type: ignore[arg-type]


def stud() -> TableRules:
    return TableRules(FIVE_CARD_STUD, FixedLimit(10, 20), blinds=(), ante=1, table_minimum=10)


def table_with(
    seats: dict[int, str], *, size: int = 6, chips: int = 1000, **kwargs: object
) -> Table:
    table = Table(holdem(), seats=size, seed=11, **kwargs)  # type: ignore[arg-type]
    for seat, name in seats.items():
        table.sit(name, seat, chips)
    return table


def play(table: Table) -> HandPlan:
    table.play_hand(passive_policy)
    assert table.plan is not None
    return table.plan


def shove(view: SeatView) -> Action:
    """Always all in (or call when no raise is left)."""
    legal = view.legal
    assert legal is not None
    if legal.raise_to is not None:
        return RaiseTo(legal.raise_to[1])
    return Check() if legal.check else Call()


def sb(plan: HandPlan) -> str | None:
    return plan.positions[0][1]


def bb(plan: HandPlan) -> str | None:
    return plan.positions[-1][1]


def next_position(table: Table, prev: HandPlan) -> int:
    """The seat one position clockwise of the last button: the last hand's seats and dead blinds."""
    assert prev.button is not None
    places = set(prev.seats) | set(prev.dead_blinds)
    seat = prev.button
    while True:
        seat = seat % table.seat_count + 1
        if seat in places:
            return seat


# ----------------------------------------------------------------------------- seat choice
@pytest.mark.rule("Omaha 17.1(a)")
def test_a_player_picks_a_free_seat_and_cannot_take_a_taken_one() -> None:
    table = table_with({3: "Ann"})
    assert table.can_sit("Bob", 4)
    with pytest.raises(RuleViolationError) as err:
        table.sit("Bob", 3, 100)
    assert err.value.rule == "Omaha 17.1(a)"
    assert "1, 2, 4, 5, 6" in str(err.value)
    with pytest.raises(RuleViolationError):
        table.sit("Bob", 7, 100)
    with pytest.raises(TableError):
        table.sit("Ann", 4, 100)  # one seat a player
    table.sit("Bob", None, 100)
    assert table.player("Bob").seat == 1


@pytest.mark.rule("Omaha 17.1(a)")
@pytest.mark.parametrize("seed", range(20))
def test_a_draw_of_cards_settles_a_seat_wanted_by_several_players(seed: int) -> None:
    table = Table(holdem(), seats=4, seed=seed)
    got = table.request_seats({"Ann": 2, "Bob": 2, "Cy": 2, "Di": 4, "Ed": None, "Fay": 4})
    draws = [e for e in table.events if isinstance(e, SeatDrawn)]
    assert [d.seat for d in draws] == [2, 4]
    for draw in draws:
        best = max(draw.draws, key=lambda d: d[1])  # rank first, then suit (spades high)
        assert draw.winner == best[0]
        assert got[draw.winner] == draw.seat
        assert len({card for _, card in draw.draws}) == len(draw.draws)
    # losers of the seat-2 draw, best card first, take the next free seat clockwise of 2
    first = draws[0]
    losers = [n for n, _ in sorted(first.draws, key=lambda d: d[1], reverse=True)][1:]
    assert got[losers[0]] == 3
    seated = [s for s in got.values() if s is not None]
    assert sorted(seated) == [1, 2, 3, 4]
    assert list(table.waiting_list) == [n for n, s in got.items() if s is None]
    assert len(table.waiting_list) == 2
    # the same seed replays the same draw
    again = Table(holdem(), seats=4, seed=seed)
    assert again.request_seats({"Ann": 2, "Bob": 2, "Cy": 2, "Di": 4, "Ed": None, "Fay": 4}) == got


@pytest.mark.rule("Five Card Stud 12.1(a)")
def test_stud_uses_the_same_seat_choice_and_deals_from_the_dealers_left() -> None:
    table = Table(stud(), seed=3)
    assert table.seat_count == FIVE_CARD_STUD.max_players
    table.request_seats({"Ann": 5, "Bob": 5, "Cy": 2}, chips=200)
    with pytest.raises(RuleViolationError) as err:
        table.sit("Di", 5, 100)
    assert err.value.rule == "Five Card Stud 12.1(a)"
    hand = table.start_hand()
    plan = table.plan
    assert plan is not None
    assert plan.button is None
    assert plan.blinds == ()
    assert not any(isinstance(e, ButtonMoved) for e in table.events)
    # the deal starts at the dealer's immediate left: the lowest occupied seat
    first_dealt = next(e for e in hand.events if type(e).__name__ == "CardsDealt")
    assert first_dealt.seat == 2  # type: ignore[attr-defined]
    while not hand.is_complete:
        hand.apply(passive_policy(hand.view_for(hand.actor)))
    table.finish_hand(hand)
    # a newcomer is dealt in at once: everyone antes, there are no blinds to wait for
    table.sit("Di", 1, 100)
    assert table.plan_hand().seats == (1, 2, 5, 6)


@pytest.mark.rule("Omaha 17.1(a)")
def test_seated_players_have_priority_for_a_vacated_seat() -> None:
    table = table_with({1: "Ann", 2: "Bob", 3: "Cy", 4: "Di"}, size=4)
    table.join_waiting_list("Wes", 300)
    assert not table.request_move("Ann", 3)
    assert table.pending_moves == {"Ann": 3}
    table.leave("Cy")
    # Ann moves first; the seat she leaves goes to the waiting list
    assert table.player("Ann").seat == 3
    assert table.player("Wes").seat == 1
    assert table.player("Wes").chips == 300
    assert table.waiting_list == ()
    moved = [e for e in table.events if isinstance(e, PlayerMoved)]
    assert moved == [PlayerMoved("Ann", 1, 3)]


@pytest.mark.rule("Omaha 17.1(a)")
def test_several_seated_players_wanting_a_vacated_seat_draw_for_it() -> None:
    table = table_with({1: "Ann", 2: "Bob", 3: "Cy", 4: "Di"}, size=4)
    table.join_waiting_list("Wes")
    table.request_move("Ann", 4)
    table.request_move("Bob", 4)
    table.request_move("Cy", 1)  # wants Ann's seat: it frees up if Ann wins the draw
    table.leave("Di")
    draw = next(e for e in table.events if isinstance(e, SeatDrawn))
    assert draw.seat == 4
    assert {n for n, _ in draw.draws} == {"Ann", "Bob"}
    assert table.player(draw.winner).seat == 4
    if draw.winner == "Ann":
        assert table.player("Cy").seat == 1
        assert table.player("Wes").seat == 3
        assert table.pending_moves == {"Bob": 4}
    else:
        assert table.player("Wes").seat == 2
        assert table.pending_moves == {"Ann": 4, "Cy": 1}


def test_a_move_to_a_free_seat_happens_at_once() -> None:
    table = table_with({1: "Ann", 2: "Bob"})
    assert table.request_move("Ann", 5)
    assert table.free_seats == (1, 3, 4, 6)
    table.cancel_move("Ann")
    with pytest.raises(TableError):
        table.request_move("Ann", 5)


def test_the_waiting_list_is_first_come_first_served() -> None:
    table = table_with({1: "Ann", 2: "Bob"}, size=2)
    table.join_waiting_list("Cy")
    table.join_waiting_list("Di")
    table.leave("Di")  # leaving the list
    table.join_waiting_list("Ed")
    assert table.waiting_list == ("Cy", "Ed")
    table.leave("Bob")
    assert table.player("Cy").seat == 2
    assert list(table.waiting_list) == ["Ed"]
    assert PlayerLeft("Di", None, 0) in table.events


# ----------------------------------------------------------------------------- the button
@pytest.mark.rule("Omaha 17.1(b)", "Decision 3.2-8")
def test_the_first_button_is_the_player_at_the_dealers_immediate_right() -> None:
    table = table_with({1: "A", 2: "B", 5: "C", 7: "D"}, size=9)
    plan = table.plan_hand()
    assert plan.button == 7  # seat 9 is at the dealer's right; 8 and 9 are empty
    assert plan.blinds == ((1, 5), (2, 10))
    moved = table.plan_hand()
    assert moved == plan  # planning changes nothing
    other = table_with({1: "A", 2: "B", 5: "C", 7: "D"}, size=9, dealer_right=4)
    assert other.plan_hand().button == 2
    assert other.plan_hand().blinds == ((5, 5), (7, 10))


@pytest.mark.rule("Poker definitions: Button", "Omaha 17.1(b)", "Poker definitions: Dead Button")
def test_the_button_moves_one_seat_clockwise_and_each_player_pays_each_blind_once_an_orbit() -> (
    None
):
    table = table_with(dict(enumerate(NAMES[:6], 1)))
    plans = [play(table) for _ in range(12)]
    assert [p.button for p in plans] == [6, 1, 2, 3, 4, 5] * 2
    for orbit in (plans[:6], plans[6:]):
        assert sorted(str(sb(p)) for p in orbit) == sorted(NAMES[:6])
        assert sorted(str(bb(p)) for p in orbit) == sorted(NAMES[:6])
        assert all(not p.dead_button and not p.dead_blinds for p in orbit)
    buttons = [e for e in table.events if isinstance(e, ButtonMoved)]
    assert [e.hand for e in buttons] == list(range(1, 13))


@pytest.mark.rule("Poker definitions: Dead Button", "Decision 3.2-7")
def test_when_the_big_blind_leaves_the_small_blind_is_dead_then_the_button() -> None:
    table = table_with(dict(zip(range(1, 7), "ABCDEF", strict=True)))
    first = play(table)
    assert (first.button, sb(first), bb(first)) == (6, "A", "B")
    table.leave("B")
    plans = [first, *(play(table) for _ in range(5))]
    second, third = plans[1], plans[2]
    assert second.button == 1
    assert not second.dead_button
    assert second.dead_blinds == (2,)
    assert second.blinds == ((3, 10),)
    assert third.button == 2
    assert third.dead_button
    assert third.dealer_seat == 1
    assert third.blinds == ((3, 5), (4, 10))
    # the big blind moves forward one player every hand: nobody pays it twice in a row,
    # and over the orbit every remaining player pays it once
    bigs = [bb(p) for p in plans]
    assert bigs == ["B", "C", "D", "E", "F", "A"]
    assert [sb(p) for p in plans] == ["A", None, "C", "D", "E", "F"]
    assert [p.button for p in plans] == [6, 1, 2, 3, 4, 5]
    hand_buttons = [e for e in table.events if isinstance(e, ButtonMoved)]
    assert hand_buttons[2] == ButtonMoved(3, 2, dead=True)


@pytest.mark.rule("Poker definitions: Dead Button")
def test_when_the_small_blind_leaves_the_button_is_dead() -> None:
    table = table_with(dict(zip(range(1, 7), "ABCDEF", strict=True)))
    play(table)
    table.leave("A")
    plan = play(table)
    assert plan.button == 1
    assert plan.dead_button
    assert plan.dealer_seat == 6
    assert plan.blinds == ((2, 5), (3, 10))
    # the hand itself: the deal starts at seat 2 and the button player (seat 6) acts last
    nxt = play(table)
    assert (nxt.button, sb(nxt), bb(nxt)) == (2, "C", "D")


@pytest.mark.rule("Poker definitions: Dead Button")
def test_a_vacated_blind_seat_taken_by_a_newcomer_is_still_dead() -> None:
    table = table_with(dict(zip(range(1, 7), "ABCDEF", strict=True)))
    play(table)  # button 6, SB 1, BB 2
    table.leave("B")
    table.sit("Neo", 2, 500)
    plan = play(table)
    assert plan.dead_blinds == (2,)
    assert 2 not in plan.seats
    assert bb(plan) == "C"


# ----------------------------------------------------------------------------- entering
@pytest.mark.rule("Decision 3.2-7")
def test_a_new_player_waits_for_the_big_blind_by_default() -> None:
    table = table_with({1: "A", 2: "B", 4: "D", 5: "E"})
    first = play(table)
    assert (first.button, bb(first)) == (5, "B")
    table.sit("N", 3, 500)  # the big blind reaches seat 3 next hand
    table.sit("M", 6, 500)  # behind the button: waits for the big blind to come round
    plans = [play(table) for _ in range(4)]
    assert [bb(p) for p in plans] == ["N", "D", "E", "M"]
    assert [6 in p.seats for p in plans] == [False, False, False, True]
    assert 3 in plans[0].seats
    assert plans[3].blinds == ((5, 5), (6, 10))


@pytest.mark.rule("Decision 3.2-7")
def test_enter_at_once_deals_a_new_player_in_unless_between_button_and_big_blind() -> None:
    seating = SeatingRules(entry=EntryRule.ENTER_AT_ONCE)
    table = table_with({1: "A", 3: "B", 5: "D", 7: "E"}, size=8, seating=seating)
    first = play(table)
    assert (first.button, sb(first), bb(first)) == (7, "A", "B")
    table.sit("X", 2, 500)  # between the next button (seat 1) and the next big blind (5)
    table.sit("Y", 6, 500)
    table.sit("Z", 8, 500)
    plan = play(table)
    assert (plan.button, sb(plan), bb(plan)) == (1, "B", "D")
    assert plan.seats == (1, 3, 5, 6, 7, 8)
    # once the button has passed him, X comes in without posting
    assert 2 in play(table).seats


@pytest.mark.rule("Decision 3.2-7")
def test_a_player_who_misses_his_big_blind_waits_for_it_again() -> None:
    table = table_with({1: "A", 2: "B", 3: "C", 4: "D"})
    play(table)  # button 4, SB 1, BB 2
    table.sit_out("C")
    second = play(table)
    assert bb(second) == "D"
    assert 3 not in second.seats
    table.sit_in("C")
    plans = [play(table) for _ in range(3)]
    assert [3 in p.seats for p in plans] == [False, False, True]
    assert bb(plans[2]) == "C"  # back by posting the big blind in turn: nothing is owed
    assert [bb(p) for p in (second, *plans)] == ["D", "A", "B", "C"]


@pytest.mark.rule("Decision 3.2-7")
def test_a_player_who_moves_waits_for_the_big_blind_at_his_new_seat() -> None:
    table = table_with({1: "A", 2: "B", 3: "C", 5: "E"})
    play(table)  # button 5, SB 1, BB 2
    table.request_move("A", 6)
    plan = play(table)
    assert 6 not in plan.seats
    assert plan.button == 1
    assert plan.dead_button
    assert plan.blinds == ((2, 5), (3, 10))


# ----------------------------------------------------------------------------- heads up
@pytest.mark.rule("Decision 3.2-7")
def test_heads_up_literal_the_button_posts_the_last_blind_and_the_big_blind_alternates() -> None:
    table = table_with({1: "A", 2: "B"})
    plans = [play(table) for _ in range(4)]
    assert [p.button for p in plans] == [2, 1, 2, 1]
    assert [bb(p) for p in plans] == ["B", "A", "B", "A"]
    assert all(p.blinds[-1][0] == p.button for p in plans)


@pytest.mark.rule("Decision 3.2-7")
def test_heads_up_button_posts_first_setting() -> None:
    table = Table(holdem(heads_up=HeadsUpBlinds.BUTTON_POSTS_FIRST), seats=6, seed=2)
    table.sit("A", 1, 1000)
    table.sit("B", 2, 1000)
    plans = [play(table) for _ in range(4)]
    assert [p.button for p in plans] == [2, 1, 2, 1]
    assert all(p.blinds[0][0] == p.button for p in plans)
    assert [bb(p) for p in plans] == ["A", "B", "A", "B"]


@pytest.mark.rule("Decision 3.2-7", "Poker definitions: Dead Button")
@pytest.mark.parametrize("mode", list(HeadsUpBlinds))
@pytest.mark.parametrize("leaver", ["A", "B", "C"])
def test_going_heads_up_and_back_nobody_pays_the_big_blind_twice_in_a_row(
    mode: HeadsUpBlinds, leaver: str
) -> None:
    table = Table(holdem(heads_up=mode), seats=6, seed=5)
    for seat, name in zip((1, 3, 5), "ABC", strict=True):
        table.sit(name, seat, 1000)
    plans = [play(table)]
    table.leave(leaver)
    plans += [play(table) for _ in range(3)]
    table.sit(leaver, 4, 1000)
    plans += [play(table) for _ in range(6)]
    bigs = [bb(p) for p in plans]
    assert all(a != b for a, b in itertools.pairwise(bigs)), bigs
    assert leaver in bigs[4:]  # the returning player gets his big blind


@pytest.mark.rule("Decision 3.2-7")
def test_with_fewer_players_than_blinds_the_first_blinds_are_left_out() -> None:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(2, 5, 10), table_minimum=10)
    table = Table(rules, seats=6, seed=4)
    for seat, name in ((1, "A"), (3, "B"), (5, "C")):
        table.sit(name, seat, 500)
    play(table)
    table.leave("C")
    hand = table.start_hand()
    plan = table.plan
    assert plan is not None
    assert [a for _, a in plan.blinds] == [5, 10]
    assert plan.rules is table.rules  # the table names the blinds; the hand posts them
    posted = [(e.seat, e.amount) for e in hand.events if isinstance(e, ev.BlindPosted)]
    assert posted == list(plan.blinds)
    start = hand.events[0]
    assert isinstance(start, ev.HandStarted)
    assert start.blinds == plan.blinds


# ----------------------------------------------------------------------------- table stakes
@pytest.mark.rule("Poker definitions: Table Stakes")
def test_chips_are_bought_only_between_hands() -> None:
    table = table_with({1: "A", 2: "B", 3: "C"})
    hand = table.start_hand()
    assert not table.can_buy_in("A", 100)
    with pytest.raises(RuleViolationError) as err:
        table.buy_in("A", 100)
    assert err.value.rule == "Poker definitions: Table Stakes"
    for action in (
        lambda: table.sit("D", 4, 100),
        lambda: table.leave("A"),
        lambda: table.request_move("A", 5),
        lambda: table.start_hand(),
    ):
        with pytest.raises(TableError):
            action()
    with pytest.raises(TableError):
        table.finish_hand(hand)  # not over yet
    while not hand.is_complete:
        hand.apply(passive_policy(hand.view_for(hand.actor)))
    table.finish_hand(hand)
    before = table.player("A").chips
    table.buy_in("A", 100)
    assert table.player("A").chips == before + 100
    with pytest.raises(RuleViolationError):
        table.buy_in("A", 0)
    with pytest.raises(RuleViolationError):
        table.sit("D", 4, -5)


@pytest.mark.rule("Poker definitions: Table Stakes")
def test_a_busted_player_sits_out_until_he_buys_in() -> None:
    table = table_with({1: "A", 2: "B"}, chips=1000)
    table.player("A").chips = 30  # a short stack (test set-up)
    for _ in range(100):
        table.play_hand(shove)
        if table.player("A").chips == 0:
            break
    assert table.player("A").chips == 0
    assert PlayerSatOut("A", "no chips") in table.events
    assert not table.can_start_hand()
    table.buy_in("A", 200)
    assert table.plan_hand().seats == (1, 2)  # bought in before missing a hand


@pytest.mark.rule("Poker definitions: Table Stakes")
def test_busted_players_can_be_made_to_leave() -> None:
    table = table_with({1: "A", 2: "B", 3: "C"}, seating=SeatingRules(busted_players_leave=True))
    table.player("A").chips = 10
    for _ in range(100):
        table.play_hand(shove)
        if "A" not in table.stacks:
            break
    assert PlayerLeft("A", 1, 0, "busted") in table.events
    assert 1 in table.free_seats


def test_stacks_carry_over_and_rake_is_accounted() -> None:
    rules = holdem(rake=Rake(percent=Fraction(1, 10), cap=20, no_flop_no_drop=False))
    table = Table(rules, seats=4, seed=8)
    for seat in range(1, 5):
        table.sit(NAMES[seat], seat, 500)
    for _ in range(10):
        hand = table.play_hand(random_policy(random.Random(3)))
        for seat, chips in hand.stacks.items():
            assert table.seats[seat].chips == chips
    assert table.rake_total > 0
    assert sum(table.stacks.values()) + table.rake_total == 2000


def test_a_policy_that_makes_no_action_gets_the_default_action() -> None:
    table = table_with({1: "A", 2: "B"})
    hand = table.play_hand(lambda view: None)  # type: ignore[arg-type, return-value]
    assert hand.is_complete
    failed = [e for e in table.events if isinstance(e, PolicyFailed)]
    assert [(e.reason, e.action) for e in failed] == [("no action", "folds")]


def test_a_hand_needs_two_ready_players_and_seat_counts_are_checked() -> None:
    table = table_with({1: "A"})
    with pytest.raises(RuleViolationError) as err:
        table.start_hand()
    assert err.value.rule == "Omaha 17.2(c)"
    with pytest.raises(RuleViolationError):
        Table(holdem(), seats=11)
    with pytest.raises(TableError):
        Table(holdem(), seats=6, dealer_right=7)
    assert Table(TableRules(OMAHA, PotLimit())).seat_count == OMAHA.max_players


def test_events_are_frozen_and_describe_themselves() -> None:
    table = table_with({1: "A", 2: "B"})
    play(table)
    assert PlayerSeated("A", 1, 1000) in table.events
    seated = table.events[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        seated.seat = 3  # type: ignore[attr-defined]
    assert all(e.describe() for e in table.events)
    dealt = next(e for e in table.events if isinstance(e, HandDealt))
    assert dealt.describe() == "hand 1: seats [1, 2], blinds seat 1 5, seat 2 10"


# ----------------------------------------------------------------------------- long runs
@pytest.mark.rule("Poker definitions: Button", "Poker definitions: Dead Button")
def test_200_random_hands_conserve_chips_and_move_the_button_one_seat_each_hand() -> None:
    rng = random.Random(2024)
    table = Table(holdem(), seats=6, seed=77)
    policy = random_policy(rng)
    bought = 0
    taken = 0
    fresh = iter(f"N{i}" for i in range(1000))
    for seat in range(1, 6):
        table.sit(next(fresh), seat, 500)
        bought += 500
    plans: list[HandPlan] = []
    dead_buttons = dead_blinds = 0
    for _ in range(200):
        start = sum(table.stacks.values())
        hand = table.play_hand(policy)
        assert sum(hand.stacks.values()) == sum(p.starting_stack for p in hand.players.values())
        assert sum(table.stacks.values()) == start
        plan = table.plan
        assert plan is not None
        assert len(plan.seats) >= 3
        posted = [e.seat for e in hand.events if isinstance(e, BlindPosted)]
        assert posted == [s for s, _ in plan.blinds]
        if plans:
            prev = plans[-1]
            assert plan.button == next_position(table, prev), (prev, plan)
            assert bb(plan) != bb(prev)
        plans.append(plan)
        dead_buttons += plan.dead_button
        dead_blinds += len(plan.dead_blinds)
        # between hands: busted players rebuy or leave, others come and go
        in_rotation = {p.name for p in table.seats.values() if p.in_rotation and p.ready}
        for player in list(table.seats.values()):
            if player.chips == 0:
                if len(in_rotation) > 3 and rng.random() < 0.5:
                    in_rotation.discard(player.name)
                    taken += table.leave(player.name)
                else:
                    table.buy_in(player.name, 500)
                    bought += 500
        if len(in_rotation) > 3 and rng.random() < 0.2:
            name = rng.choice(sorted(in_rotation))
            in_rotation.discard(name)
            taken += table.leave(name)
        if table.free_seats and rng.random() < 0.3:
            chips = rng.randrange(100, 1001, 100)
            table.sit(next(fresh), rng.choice(table.free_seats), chips)
            bought += chips
        if table.free_seats and len(in_rotation) > 3 and rng.random() < 0.1:
            name = rng.choice(sorted(in_rotation))
            table.request_move(name, rng.choice(table.free_seats))
        assert sum(table.stacks.values()) + taken == bought
    assert dead_buttons > 0
    assert dead_blinds > 0


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_runs_at_a_table(game: str) -> None:
    spec = GAMES[game]
    if spec.forced is ForcedBets.BLINDS:
        rules = TableRules(spec, FixedLimit(10, 20) if spec is DRAW else NoLimit(), blinds=(5, 10))
    else:
        rules = TableRules(spec, FixedLimit(10, 20), blinds=(), ante=1, table_minimum=10)
    table = Table(rules, seed=9)
    for seat in range(1, table.seat_count + 1, 2):
        table.sit(NAMES[seat - 1], seat, 300)
    total = sum(table.stacks.values())
    policy = random_policy(random.Random(game))
    for _ in range(25):
        for player in table.seats.values():
            if player.chips == 0:
                table.buy_in(player.name, 300)
                total += 300
        table.play_hand(policy)
    assert sum(table.stacks.values()) == total


OPS = st.lists(
    st.tuples(st.sampled_from("sslomhhhh"), st.integers(1, 6), st.integers(0, 9)),
    min_size=5,
    max_size=40,
)


@pytest.mark.rule("Poker definitions: Dead Button")
@settings(max_examples=60, deadline=None)
@given(
    OPS,
    st.sampled_from(list(HeadsUpBlinds)),
    st.sampled_from(list(EntryRule)),
    st.sampled_from([(5, 10), (10,), (2, 5, 10)]),
)
def test_the_big_blind_moves_forward_one_ready_player_every_hand(
    ops: list[tuple[str, int, int]],
    mode: HeadsUpBlinds,
    entry: EntryRule,
    blinds: tuple[int, ...],
) -> None:
    rules = TableRules(HOLDEM, NoLimit(), blinds=blinds, table_minimum=10, heads_up=mode)
    table = Table(rules, seats=6, seed=1, seating=SeatingRules(entry=entry))
    bought = taken = 0
    for seat in (1, 3, 4):
        table.sit(NAMES[seat], seat, 200)
        bought += 200
    policy = random_policy(random.Random(7))
    last: HandPlan | None = None
    for kind, seat, pick in ops:
        seated = sorted(table.seats)
        if kind == "s" and seat in table.free_seats:
            name = f"X{len(table.events)}"
            table.sit(name, seat, 100 + 10 * pick)
            bought += 100 + 10 * pick
        elif kind == "l" and seated:
            taken += table.leave(table.seats[seated[pick % len(seated)]].name)
        elif kind == "o" and seated:
            name = table.seats[seated[pick % len(seated)]].name
            if table.player(name).sitting_out:
                table.sit_in(name)
            else:
                table.sit_out(name)
        elif kind == "m" and seated and seat in table.free_seats:
            table.request_move(table.seats[seated[pick % len(seated)]].name, seat)
        elif kind == "h" and table.can_start_hand():
            ready = {s: p.name for s, p in table.seats.items() if p.ready}
            table.play_hand(policy)
            plan = table.plan
            assert plan is not None
            assert set(plan.seats) <= set(ready)
            assert plan.positions[-1][1] is not None  # the big blind is never dead
            assert len(plan.positions) == min(len(blinds), len(plan.seats))
            assert plan.dead_button == (plan.button not in plan.seats)
            assert [s for s, _ in plan.blinds] == [s for s, n in plan.positions if n]
            if last is not None:
                old_seat, old_name = last.positions[-1]
                expected = next(
                    s
                    for s in (*range(old_seat + 1, 7), *range(1, old_seat + 1))
                    if s in ready and ready[s] != old_name
                )
                assert plan.positions[-1][0] == expected
                assert bb(plan) != old_name
            last = plan
            for player in list(table.seats.values()):
                if player.chips == 0:
                    table.buy_in(player.name, 100)
                    bought += 100
        waiting = sum(table.player(n).chips for n in table.waiting_list)
        assert sum(table.stacks.values()) + waiting + taken == bought


def test_hands_replay_from_their_event_logs() -> None:
    table = table_with(dict(zip(range(1, 7), "ABCDEF", strict=True)))
    play(table)
    table.leave("B")
    hand = table.play_hand(random_policy(random.Random(1)))  # a dead small blind
    assert table.plan is not None
    assert table.plan.dead_blinds
    again = HandState.replay(table.plan.rules, hand.events)
    assert again.stacks == hand.stacks
