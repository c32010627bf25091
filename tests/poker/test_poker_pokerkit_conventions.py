"""PokerKit's conventions as rule settings (issue 11, point 5), one scenario each.

The ``phh`` profile plays PHH files by PokerKit's rules; each difference from the NZ
reading is a setting of :class:`~croupier.poker.settings.TableRules`, tested here on its
own (every other setting NZ) against the NZ default, on a stacked deck with the chips
worked out by hand:

* ``ShortAllIn.full_by_largest_increment``: a wager is full when it raises at least as
  much as the round's largest raise so far, the blinds setting none (so a short all-in
  raise over the blind, or a short all-in opening bet, reopens the betting);
* ``ShortAllIn.limit_completes``: in limit poker a bet over a short all-in opening bet
  completes it to a full bet (17.6(c)), or is a full bet on top of it (PokerKit);
* ``ShortAllIn.add_up``: short all-ins in a row adding up to a full raise reopen the
  betting, for a player who owes at least a full raise;
* ``ShortAllIn.complete_for_the_bring_in``: a player to bring in who has no more than the
  bring-in may complete all in for it (a wager) instead of bringing in;
* ``RaiseCap.short_all_ins_count``: a short all-in counts toward the cap;
* ``raise_needs_a_caller``: no raise when no opponent has more chips than the bet;
* ``merge_pots_with_the_same_winners``: pots won by the same players divided once.

Seats run 1..n clockwise with the button on the last seat, so the hole cards go out one
at a time from seat 1; a hold'em deck is the hole cards, then burn, flop, burn, turn,
burn, river, then the rest of the deck.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from croupier.cards import Deck
from croupier.cards.deck import full_deck
from croupier.phh.profiles import PROFILES
from croupier.poker import (
    HOLDEM,
    SEVEN_CARD_STUD,
    FixedLimit,
    HandState,
    NoLimit,
    OddChip,
    RaiseCap,
    TableRules,
)
from croupier.poker import events as ev
from croupier.poker.settings import (
    NZ_SHORT_ALL_IN,
    POKERKIT_CAP,
    POKERKIT_SHORT_ALL_IN,
    ShortAllIn,
)
from croupier.poker.structures import BettingStructure

ALL = [str(c) for c in full_deck()]
BURNS = ("8h", "8d", "8c", "7s")
"""Cards the hold'em decks burn (no scenario deals them)."""


def holdem_deck(holes: dict[int, str], board: str) -> Deck:
    """Hole cards one at a time from seat 1, then burn, flop, burn, turn, burn, river."""
    seats = sorted(holes)
    own = {s: holes[s].split() for s in seats}
    order = [own[s][k] for k in range(2) for s in seats]
    cards = board.split()
    order += [BURNS[0], *cards[:3], BURNS[1], cards[3], BURNS[2], cards[4]]
    return Deck.stacked([*order, *(c for c in ALL if c not in order)])


def holdem(structure: BettingStructure, **settings: Any) -> TableRules:
    """Hold'em with 5/10 blinds, the odd chip to the first winner left of the button."""
    settings.setdefault("odd_chip", OddChip.FIRST_LEFT_OF_BUTTON)
    return TableRules(HOLDEM, structure, blinds=(5, 10), table_minimum=10, **settings)


def check_down(hand: HandState) -> None:
    """Check (or call) every decision left in the hand."""
    while not hand.is_complete:
        if hand.legal_actions().check:
            hand.check()
        else:
            hand.call()


def test_the_nz_defaults_are_the_nz_rules_and_phh_is_pokerkit() -> None:
    rules = TableRules()
    assert rules.short_all_in == NZ_SHORT_ALL_IN == ShortAllIn()
    assert not rules.raise_needs_a_caller
    assert not rules.merge_pots_with_the_same_winners
    assert not rules.raise_cap.short_all_ins_count
    phh = PROFILES["phh"].settings()
    assert phh["short_all_in"] == POKERKIT_SHORT_ALL_IN
    assert phh["raise_cap"] == POKERKIT_CAP
    assert POKERKIT_CAP.short_all_ins_count
    assert phh["raise_needs_a_caller"]
    assert phh["merge_pots_with_the_same_winners"]
    nz = PROFILES["nz"].settings()
    assert {k: getattr(rules, k) for k in nz} == nz  # the nz profile is TableRules()


# ------------------------------------------------------- full_by_largest_increment
PREFLOP_HOLES = {1: "2c 3d", 2: "4c 5d", 3: "6c 9d", 4: "As Ah"}
PREFLOP_BOARD = "Kc Qd 7h 2s Jc"


@pytest.mark.parametrize("largest", [False, True])
def test_a_short_all_in_raise_over_the_blind_reopens_the_betting_by_the_largest_raise(
    largest: bool,
) -> None:
    # 4 players, button 4 (15 chips): 3 calls 10, 4 goes all in for 15 (a raise of 5);
    # NZ: short (a full raise is 10), so seat 3, who has acted, may only call; PokerKit:
    # full (the largest raise of the round so far is 0), seat 3 may raise to 25 (15 + 10)
    rules = holdem(NoLimit(), short_all_in=ShortAllIn(full_by_largest_increment=largest))
    hand = HandState(rules, {1: 200, 2: 200, 3: 200, 4: 15}, button=4,
                     deck=holdem_deck(PREFLOP_HOLES, PREFLOP_BOARD))  # fmt: skip
    hand.call()  # seat 3
    hand.raise_to(15)  # seat 4, all in
    raised = hand.events[-1]
    assert isinstance(raised, ev.RaisedTo)
    assert raised.all_in
    assert raised.full is largest
    hand.call()  # seat 1
    assert hand.legal_actions().raise_to == (25, 200)  # the big blind has not acted
    hand.call()  # seat 2
    assert hand.actor == 3
    assert hand.legal_actions().raise_to == ((25, 200) if largest else None)
    hand.call()
    check_down(hand)  # seat 4's aces win the 60 chips (15 from each)
    assert hand.stacks == {1: 185, 2: 185, 3: 185, 4: 60}


@pytest.mark.parametrize("largest", [False, True])
def test_a_short_all_in_opening_bet_reopens_the_betting_for_a_player_who_checked(
    largest: bool,
) -> None:
    # 3 players, button 3; everyone in for 10. Flop: 1 checks, 2 bets its last 5 (a full
    # bet is 10). A raise over it is a full raise on top (to 15) under both readings; but
    # only PokerKit's reopens the betting for seat 1, who checked
    rules = holdem(NoLimit(), short_all_in=ShortAllIn(full_by_largest_increment=largest))
    holes = {1: "2c 3d", 2: "As Ah", 3: "6c 9d"}
    hand = HandState(rules, {1: 200, 2: 15, 3: 200}, button=3,
                     deck=holdem_deck(holes, PREFLOP_BOARD))  # fmt: skip
    hand.call()  # seat 3
    hand.call()  # seat 1
    hand.check()  # seat 2
    assert hand.street == 1
    hand.check()  # seat 1
    hand.raise_to(5)  # seat 2, all in
    assert hand.legal_actions().raise_to == (15, 190)  # seat 3
    hand.call()
    assert hand.actor == 1
    assert hand.legal_actions().raise_to == ((15, 190) if largest else None)
    hand.call()
    check_down(hand)  # seat 2's aces win 15 from each
    assert hand.stacks == {1: 185, 2: 45, 3: 185}


# ----------------------------------------------------------------- limit_completes
@pytest.mark.parametrize(("completes", "to", "stacks"), [
    (True, 10, {1: 80, 2: 45, 3: 90}),
    (False, 15, {1: 75, 2: 45, 3: 95}),
])  # fmt: skip
def test_a_limit_bet_over_a_short_opening_bet_completes_it_or_goes_a_full_bet_on_top(
    completes: bool, to: int, stacks: dict[int, int]
) -> None:
    # fixed limit 10/20, 3 players in for 10. Flop: 1 checks, 2 bets its last 5. NZ
    # (17.6(c)): seat 3 completes the bet to 10; PokerKit: a full bet on top, to 15. Either
    # is a full bet, so seat 1 may raise (to 20, or 25) and calls. Seat 2's aces win the
    # main pot (15 from each: 45), seat 3's kings the side pot (5 or 10 from 1 and 3)
    rules = holdem(FixedLimit(10, 20), short_all_in=ShortAllIn(limit_completes=completes))
    holes = {1: "2c 3d", 2: "As Ah", 3: "Ks Kh"}
    hand = HandState(rules, {1: 100, 2: 15, 3: 100}, button=3,
                     deck=holdem_deck(holes, PREFLOP_BOARD.replace("Kc", "9c")))  # fmt: skip
    hand.call()
    hand.call()
    hand.check()
    hand.check()  # flop: seat 1
    hand.raise_to(5)  # seat 2, all in
    assert hand.legal_actions().raise_to == (to, to)
    hand.raise_to(to)
    assert hand.legal_actions().raise_to == (to + 10, to + 10)  # seat 1: reopened
    hand.call()
    check_down(hand)
    assert hand.stacks == stacks


# -------------------------------------------------------------------------- add_up
ADD_UP_HOLES = {1: "Qs Qd", 2: "As Ad", 3: "Js Jd", 4: "Ks Kd", 5: "Th 8s"}
ADD_UP_BOARD = "2c 7d 9h 4s 3d"


@pytest.mark.parametrize("add_up", [False, True])
def test_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting(add_up: bool) -> None:
    # 5 players, everyone in for 10. Flop: 1 bets 100; 2 all in for 150 (a raise of 50),
    # 3 calls 150, 4 all in for 210 (60 more: with the 50, a full raise of 100). NZ: each
    # short all-in alone, so 1 may only call. PokerKit: the run reopens the betting for
    # seat 1, who owes 110 (at least a full raise): a raise to 310 (210 + 100) or more;
    # seat 3 owes only 60, less than a full raise, and may only call
    rules = holdem(NoLimit(), short_all_in=ShortAllIn(add_up=add_up))
    hand = HandState(rules, {1: 500, 2: 160, 3: 500, 4: 220, 5: 300}, button=5,
                     deck=holdem_deck(ADD_UP_HOLES, ADD_UP_BOARD))  # fmt: skip
    for _ in range(4):
        hand.call()  # 3, 4, 5, 1
    hand.check()  # the big blind
    hand.raise_to(100)  # flop: seat 1
    hand.raise_to(150)  # seat 2, all in
    hand.call()  # seat 3
    hand.raise_to(210)  # seat 4, all in
    hand.fold()  # seat 5
    assert hand.actor == 1
    if not add_up:
        assert hand.legal_actions().raise_to is None
        hand.call()
        assert hand.actor is None or hand.legal_actions().raise_to is None
        check_down(hand)
        # pots: 160 x 4 + 10 = 650 (seat 2), 60 x 3 = 180 (seat 4); 1 and 3 put in 220
        assert hand.stacks == {1: 280, 2: 650, 3: 280, 4: 180, 5: 290}
        return
    assert hand.legal_actions().raise_to == (310, 490)
    hand.call()
    assert hand.actor == 3
    assert hand.legal_actions().raise_to is None  # owes 60 < 100
    hand.call()
    check_down(hand)
    assert hand.stacks == {1: 280, 2: 650, 3: 280, 4: 180, 5: 290}


def test_a_new_short_all_in_after_the_run_closes_the_betting_again() -> None:
    # as above, then seat 1 raises to 310 (a full raise: the betting reopens for all);
    # seat 3 calls; chips: 160 x 4 + 10 = 650 to seat 2 (aces), 60 x 3 = 180 to seat 4
    # (kings), 100 x 2 = 200 to seat 1 (queens beat seat 3's jacks)
    rules = holdem(NoLimit(), short_all_in=ShortAllIn(add_up=True))
    hand = HandState(rules, {1: 500, 2: 160, 3: 500, 4: 220, 5: 300}, button=5,
                     deck=holdem_deck(ADD_UP_HOLES, ADD_UP_BOARD))  # fmt: skip
    for _ in range(4):
        hand.call()
    hand.check()
    hand.raise_to(100)
    hand.raise_to(150)
    hand.call()
    hand.raise_to(210)
    hand.fold()
    hand.raise_to(310)  # seat 1
    assert hand.legal_actions().raise_to == (410, 490)  # seat 3: reopened by a full raise
    hand.call()
    check_down(hand)
    assert hand.stacks == {1: 380, 2: 650, 3: 180, 4: 180, 5: 290}


# --------------------------------------------------------------- short_all_ins_count
@pytest.mark.parametrize("count", [False, True])
def test_a_short_all_in_raise_counts_toward_the_cap(count: bool) -> None:
    # fixed limit 10/20, 4 players in for 10, a cap of a bet and three raises. Flop: 1 bets
    # 10, 2 raises all in to 15 (short), 3 raises to 25, 4 to 35. Counting only full
    # wagers that is a bet and two raises, so 1 may raise to 45; counting the short
    # all-in (PokerKit) the round is capped
    cap = RaiseCap(bets=4, blinds_count=False, head_to_head_unlimited=False,
                   short_all_ins_count=count)  # fmt: skip
    rules = holdem(FixedLimit(10, 20), raise_cap=cap)
    holes = {1: "2c 3d", 2: "As Ah", 3: "6c 9d", 4: "Ks Kh"}
    hand = HandState(rules, {1: 200, 2: 25, 3: 200, 4: 200}, button=4,
                     deck=holdem_deck(holes, "Tc Qd 7h 2s Jd"))  # fmt: skip
    for _ in range(3):
        hand.call()
    hand.check()
    hand.raise_to(10)
    hand.raise_to(15)
    hand.raise_to(25)
    hand.raise_to(35)
    assert hand.actor == 1
    assert hand.legal_actions().raise_to == (None if count else (45, 45))
    hand.call()
    hand.call()  # seat 3
    check_down(hand)
    # main pot 25 x 4 = 100 to seat 2's aces; side pot 20 x 3 = 60 to seat 4's kings
    assert hand.stacks == {1: 155, 2: 100, 3: 155, 4: 215}


def test_the_pokerkit_cap_counts_the_completion_but_not_the_bring_in() -> None:
    # stud, fixed limit 2/4, cap 4 counted after the bring-in: bring in 1, complete to 2,
    # then three raises (4, 6, 8) make four wagers: no fifth
    rules = TableRules(SEVEN_CARD_STUD, FixedLimit(2, 4, big_bet_from=2), blinds=(), ante=1,
                       bring_in=1, table_minimum=1, raise_cap=POKERKIT_CAP)  # fmt: skip
    hand = HandState(rules, {1: 50, 2: 50, 3: 50}, button=3, seed=3)
    hand.bring_in(1)
    for to in (2, 4, 6, 8):
        hand.raise_to(to)
    assert hand.legal_actions().raise_to is None


# ------------------------------------------------------------ raise_needs_a_caller
@pytest.mark.parametrize("needs", [False, True])
def test_no_raise_when_no_opponent_has_more_than_the_bet(needs: bool) -> None:
    # 4 players, button 4 (500 chips): 3 goes all in for 100; seats 1 (80) and 2 (90)
    # still have chips but cannot put in more than 100. NZ: the button may raise (190 or
    # more); PokerKit: nobody could call a raise, so the button may only call
    rules = holdem(NoLimit(), raise_needs_a_caller=needs)
    holes = {1: "As Ah", 2: "Ks Kh", 3: "Qs Qh", 4: "Js Jh"}
    hand = HandState(rules, {1: 80, 2: 90, 3: 100, 4: 500}, button=4,
                     deck=holdem_deck(holes, "2c 7d 9c 4s 3d"))  # fmt: skip
    hand.raise_to(100)  # seat 3, all in
    legal = hand.legal_actions()
    assert legal.call == 100
    assert legal.raise_to == (None if needs else (190, 500))
    hand.call()
    hand.call()  # seat 1, all in
    hand.call()  # seat 2, all in
    check_down(hand)
    # pots: 80 x 4 = 320 (aces), 10 x 3 = 30 (kings), 10 x 2 = 20 (queens beat jacks)
    assert hand.stacks == {1: 320, 2: 30, 3: 20, 4: 400}


def test_a_raise_is_allowed_while_an_opponent_can_put_in_more() -> None:
    rules = holdem(NoLimit(), raise_needs_a_caller=True)
    hand = HandState(rules, {1: 80, 2: 200, 3: 100, 4: 500}, button=4, seed=1)
    hand.raise_to(100)  # seat 3, all in; seat 2 (200) could call a raise
    assert hand.legal_actions().raise_to == (190, 500)


# ------------------------------------------------- merge_pots_with_the_same_winners
@pytest.mark.parametrize(("merge", "three", "four"), [(False, 238, 236), (True, 237, 237)])
def test_pots_with_the_same_winners_are_divided_once(merge: bool, three: int, four: int) -> None:
    # 5 players, ante 1, blinds 5/10, button 5; seat 1 has 26. Before the flop 3 raises to
    # 25, 4 and 5 call, 1 calls all in, 2 folds: the main pot is 5 + 4 x 25 + 10 = 115.
    # Flop 3 bets 11, 4 and 5 call (33); turn 3 bets 10, 4 calls, 5 folds: the side pot is
    # 53. Seats 3 and 4 tie with ace-high straights (seat 1 has ace high). Each pot on its
    # own: 58 + 27 to seat 3 (the first winner left of the button gets each odd chip),
    # 57 + 26 to seat 4; merged: 168, 84 each
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), ante=1, table_minimum=10,
                       odd_chip=OddChip.FIRST_LEFT_OF_BUTTON,
                       merge_pots_with_the_same_winners=merge)  # fmt: skip
    holes = {1: "9s 8s", 2: "5d 5h", 3: "Th 3c", 4: "Td 4c", 5: "7h 6h"}
    hand = HandState(rules, {1: 26, 2: 200, 3: 200, 4: 200, 5: 200}, button=5,
                     deck=holdem_deck(holes, "As Kd Qh Jc 2s"))  # fmt: skip
    hand.raise_to(25)  # seat 3
    hand.call()  # seat 4
    hand.call()  # seat 5
    hand.call()  # seat 1, all in
    hand.fold()  # seat 2
    hand.raise_to(11)  # flop: seat 3
    hand.call()
    hand.call()
    hand.raise_to(10)  # turn: seat 3
    hand.call()
    hand.fold()  # seat 5
    check_down(hand)
    assert hand.stacks == {1: 0, 2: 189, 3: three, 4: four, 5: 163}
    awards = [(a.pot, a.amount, a.shares) for a in hand.awards]
    if merge:
        assert awards == [(0, 168, ((3, 84), (4, 84)))]
    else:
        assert awards == [(0, 115, ((3, 58), (4, 57))), (1, 53, ((3, 27), (4, 26)))]


def test_pots_with_different_winners_are_not_merged() -> None:
    # the hand of the test above with each pot won by someone else: three awards
    rules = holdem(NoLimit(), merge_pots_with_the_same_winners=True)
    hand = HandState(rules, {1: 80, 2: 90, 3: 100, 4: 500}, button=4,
                     deck=holdem_deck({1: "As Ah", 2: "Ks Kh", 3: "Qs Qh", 4: "Js Jh"},
                                      "2c 7d 9c 4s 3d"))  # fmt: skip
    hand.raise_to(100)
    check_down(hand)
    assert [a.amount for a in hand.awards] == [320, 30, 20]


# ---------------------------------------------------------- complete_for_the_bring_in
def stud_hand(short_all_in: ShortAllIn) -> HandState:
    """Seven card stud, fixed limit 2/4, ante 1, bring-in 1; seat 2 (2 chips: 1 after the
    ante) has the lowest up card and brings in. Seat 2 makes four deuces, seat 3 three
    queens, seat 1 a pair of aces."""
    rules = TableRules(SEVEN_CARD_STUD, FixedLimit(2, 4, big_bet_from=2), blinds=(), ante=1,
                       bring_in=1, table_minimum=1, odd_chip=OddChip.FIRST_LEFT_OF_BUTTON,
                       short_all_in=short_all_in)  # fmt: skip
    third = ["As", "2d", "Qs", "Ah", "2h", "Qh", "Kh", "2c", "Qd"]  # down, down, up
    later = [
        ["9h", "3c", "2s", "4d"],  # burn, then seats 1, 2, 3
        ["9c", "5h", "7h", "8c"],
        ["9s", "9d", "Tc", "Jc"],
        ["Td", "6s", "3h", "6d"],
    ]
    order = third + [c for street in later for c in street]
    return HandState(rules, {1: 50, 2: 2, 3: 50}, button=3,
                     deck=Deck.stacked([*order, *(c for c in ALL if c not in order)]))  # fmt: skip


def test_a_player_to_bring_in_with_only_the_bring_in_may_complete_all_in() -> None:
    # PokerKit: seat 2's last chip may be the bring-in or a short completion (a wager:
    # seat 3 then raises a full bet on top, to 3, instead of completing to 2)
    hand = stud_hand(POKERKIT_SHORT_ALL_IN)
    assert hand.actor == 2
    legal = hand.legal_actions()
    assert legal.bring_in == (1, 1)
    assert legal.raise_to == (1, 1)
    assert hand.copy().can_bring_in(1)
    hand.raise_to(1)
    assert isinstance(hand.events[-1], ev.RaisedTo)
    assert hand.legal_actions().raise_to == (3, 3)  # seat 3
    brought = stud_hand(POKERKIT_SHORT_ALL_IN)
    brought.bring_in(1)
    assert brought.legal_actions().raise_to == (2, 2)  # completing the bring-in
    hand.raise_to(3)
    hand.call()  # seat 1
    check_down(hand)
    # antes 3 + 1 + 3 + 3: main pot 2 x 3 = 6 to seat 2's deuces; side pot 2 x 2 = 4 to
    # seat 3's queens
    assert hand.stacks == {1: 46, 2: 6, 3: 50}


def test_under_nz_going_all_in_for_the_bring_in_is_the_bring_in() -> None:
    hand = stud_hand(NZ_SHORT_ALL_IN)
    legal = hand.legal_actions()
    assert legal.bring_in == (1, 1)
    assert legal.raise_to is None
    assert not hand.can_raise_to(1)
    hand.bring_in(1)
    assert hand.legal_actions().raise_to == (2, 2)


def test_the_settings_refuse_what_is_not_a_setting() -> None:
    from croupier.errors import CroupierError

    with pytest.raises(CroupierError, match="short_all_in must be a ShortAllIn"):
        TableRules(short_all_in=True)  # type: ignore[arg-type]
    with pytest.raises(CroupierError, match="merge_pots_with_the_same_winners must be"):
        TableRules(merge_pots_with_the_same_winners=1)  # type: ignore[arg-type]
    with pytest.raises(CroupierError, match="short_all_ins_count must be"):
        RaiseCap(short_all_ins_count="no")  # type: ignore[arg-type]
    assert replace(TableRules(), raise_needs_a_caller=True).raise_needs_a_caller


def test_hands_under_pokerkit_s_conventions_replay_from_their_logs() -> None:
    # the completion at the bring-in and a merged pot come back event for event
    hand = stud_hand(POKERKIT_SHORT_ALL_IN)
    hand.raise_to(1)
    hand.raise_to(3)
    hand.call()
    check_down(hand)
    again = HandState.replay(hand.rules, hand.events)
    assert again.events == hand.events
    assert again.stacks == hand.stacks
    rules = holdem(NoLimit(), merge_pots_with_the_same_winners=True)
    merged = HandState(rules, {1: 30, 2: 100, 3: 100}, button=3,
                       deck=holdem_deck({1: "2c 3d", 2: "Th 4c", 3: "Td 5c"},
                                        "As Kd Qh Jc 7s"))  # fmt: skip
    merged.raise_to(30)  # seat 3
    merged.call()  # seat 1, all in
    merged.call()  # seat 2
    merged.raise_to(15)  # flop: seat 2
    merged.call()
    check_down(merged)
    # main 90 and side 30, both to seats 2 and 3 (ace-high straights): one award of 120,
    # 60 each to the 55 each has behind
    assert [(a.amount, a.shares) for a in merged.awards] == [(120, ((2, 60), (3, 60)))]
    assert HandState.replay(rules, merged.events).stacks == merged.stacks == {1: 0, 2: 115, 3: 115}
