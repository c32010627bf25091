"""DIGEST section 4.3, blackjack scenarios 26-45: one test each.

Every round is dealt from a stacked shoe holding exactly the cards the scenario needs, in
deal order: one card to each box (ascending box number), one to the dealer, a second card to
each box; split hands get their second card when play reaches them; in the NZ no-hole-card
game the dealer's second card comes after every box has played, then the dealer draws.
Most tests check that the shoe is empty at the end, so no card is drawn that the scenario
did not plan for.
"""

from __future__ import annotations

import pytest
from bj_helpers import assert_over, dealt, hand_to_play, outcome, settled, shoe, totals

from croupier.blackjack import NZ, BlackjackRound, BlackjackTable, Phase
from croupier.blackjack import events as ev
from croupier.cards import Shoe, parse_cards
from croupier.errors import RuleViolationError

# --------------------------------------------------------------------------- 4.1 outcomes


@pytest.mark.rule("Blackjack 4.1(b)", "Blackjack 4.1(c)", "Decision 3.1-7")
def test_scenario_26_blackjack_beats_dealer_17_and_pays_3_to_2() -> None:
    rnd = dealt("As Th Kh 7d")  # ann A K; dealer T, then 7
    assert rnd.boxes[1].hands[0].is_blackjack
    assert rnd.dealer_cards == parse_cards("Th 7d")
    result = outcome(rnd, 1)
    assert (result.outcome, result.stake, result.net) == ("blackjack", 10, 15)
    assert rnd.bankrolls == {"ann": 115}
    assert rnd.bank == -15
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.1(c)")
def test_scenario_27_blackjack_beats_dealer_three_card_21() -> None:
    # ann A K (blackjack); bo T 9 stands on 19, so the dealer plays: 7 + 4 + K = 21
    rnd = dealt("As Tc 7d Kh 9c 4d Ks", wagers=[(1, "ann", 10), (2, "bo", 10)])
    assert hand_to_play(rnd) == (2, 0)
    rnd.stand()
    assert rnd.dealer_cards == parse_cards("7d 4d Ks")
    ann = outcome(rnd, 1)
    assert (ann.outcome, ann.net, ann.rule) == ("blackjack", 15, "Blackjack 4.1(c)")
    bo = outcome(rnd, 2, player="bo")
    assert (bo.outcome, bo.net) == ("lose", -10)
    assert rnd.bankrolls == {"ann": 115, "bo": 90}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.1(d)")
def test_scenario_28_three_card_21_loses_to_dealer_blackjack() -> None:
    rnd = dealt("7c Kd 7d 7h As")  # ann 7 7; dealer K; ann draws 7 = 21; dealer A
    rnd.hit()
    assert totals(rnd) == [21]
    assert hand_to_play(rnd) is None  # 21 stands by itself (12.1(a))
    assert rnd.dealer_cards == parse_cards("Kd As")
    result = outcome(rnd, 1)
    assert (result.outcome, result.net, result.rule) == (
        "dealer blackjack",
        -10,
        "Blackjack 4.1(d)",
    )
    assert rnd.bankrolls == {"ann": 90}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.1(e)")
def test_scenario_29_blackjack_against_dealer_blackjack_is_a_stand_off() -> None:
    rnd = dealt("As Kd Kh Ac")  # ann A K; dealer K then A
    result = outcome(rnd, 1)
    assert (result.outcome, result.net, result.rule) == ("push", 0, "Blackjack 4.1(e)")
    assert rnd.bankrolls == {"ann": 100}
    assert rnd.bank == 0
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.1(f)")
def test_scenario_30_a_bust_player_loses_even_when_the_dealer_busts() -> None:
    # ann T 6 draws K (26); bo T 7 stands; dealer 6 + T + K = 26
    rnd = dealt("Tc Td 6h 6c 7d Kh Th Ks", wagers=[(1, "ann", 10), (2, "bo", 10)])
    rnd.hit()
    assert totals(rnd) == [26]
    assert hand_to_play(rnd) == (2, 0)
    rnd.stand()
    assert rnd.dealer_cards == parse_cards("6h Th Ks")
    ann = outcome(rnd, 1)
    assert (ann.outcome, ann.net, ann.rule) == ("bust", -10, "Blackjack 4.1(f)")
    bo = outcome(rnd, 2, player="bo")
    assert (bo.outcome, bo.net, bo.rule) == ("win", 10, "Blackjack 4.1(a)")
    assert rnd.bankrolls == {"ann": 90, "bo": 110}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.1(e)")
def test_scenario_31_equal_totals_are_a_stand_off() -> None:
    rnd = dealt("Tc 9d 8h 9c")  # ann T 8 = 18; dealer 9 + 9 = 18
    rnd.stand()
    result = outcome(rnd, 1)
    assert (result.outcome, result.net, result.rule) == ("push", 0, "Blackjack 4.1(e)")
    assert rnd.bankrolls == {"ann": 100}
    assert_over(rnd)


# --------------------------------------------------------------------------- 12.1 drawing


@pytest.mark.rule("Blackjack 12.1(d)", "Blackjack 3.2(c)")
def test_scenario_32_no_stand_on_11_or_less_but_a_pair_of_aces_is_12() -> None:
    # ann 6 5 = 11; bo 6 3 = 9; cy A A = 12; dealer 7
    rnd = dealt(
        "6c 6d Ac 7s 5c 3d Ad 9h 2c 8h Kh",
        wagers=[(1, "ann", 10), (2, "bo", 10), (3, "cy", 10)],
    )
    assert hand_to_play(rnd) == (1, 0)
    assert "stand" not in rnd.legal_actions()
    before = rnd.snapshot()
    with pytest.raises(RuleViolationError) as err:
        rnd.stand()
    assert err.value.rule == "Blackjack 12.1(d)"
    assert rnd.snapshot() == before
    rnd.hit()  # 11 + 9 = 20
    rnd.stand()
    assert hand_to_play(rnd) == (2, 0)
    rnd.hit()  # 9 + 2 = 11: still must draw
    assert rnd.boxes[2].hands[0].total == 11
    assert hand_to_play(rnd) == (2, 0)
    assert "stand" not in rnd.legal_actions()
    with pytest.raises(RuleViolationError) as err:
        rnd.stand()
    assert err.value.rule == "Blackjack 12.1(d)"
    rnd.hit()  # 11 + 8 = 19
    rnd.stand()
    assert hand_to_play(rnd) == (3, 0)
    assert rnd.boxes[3].hands[0].total == 12
    assert "stand" in rnd.legal_actions()
    rnd.stand()  # A + A = 12 may stand (3.2(c))
    assert rnd.dealer_cards == parse_cards("7s Kh")
    assert rnd.bankrolls == {"ann": 110, "bo": 110, "cy": 90}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 12.1(a)")
def test_scenario_33_no_draw_on_hard_or_soft_21() -> None:
    # ann 7 4 draws K = 21; bo A 5 draws 5 = soft 21; cy T 8 stands; dealer 9 + 9
    rnd = dealt(
        "7c Ad Tc 9s 4c 5d 8c Kh 5h 9d",
        wagers=[(1, "ann", 10), (2, "bo", 10), (3, "cy", 10)],
    )
    rnd.hit()
    hand = rnd.boxes[1].hands[0]
    assert (hand.total, len(hand.cards)) == (21, 3)
    assert hand_to_play(rnd) == (2, 0)  # the 21 takes no further decision or card
    rnd.hit()
    hand = rnd.boxes[2].hands[0]
    assert (hand.total, hand.soft, len(hand.cards)) == (21, True, 3)
    assert hand_to_play(rnd) == (3, 0)
    rnd.stand()
    assert [len(rnd.boxes[n].hands[0].cards) for n in (1, 2, 3)] == [3, 3, 2]
    assert rnd.bankrolls == {"ann": 110, "bo": 110, "cy": 100}  # 18 ties the dealer's 18
    assert_over(rnd)


@pytest.mark.rule("Blackjack 12.1(b)", "Blackjack 12.1(d)")
def test_scenario_34_a_double_on_9_takes_exactly_one_card_even_when_it_stays_at_11() -> None:
    rnd = dealt("5c 9d 4h 2s Td")  # ann 5 4 = 9 doubles, gets 2 = 11; dealer 9 T
    assert "double" in rnd.legal_actions()
    rnd.double()
    hand = rnd.boxes[1].hands[0]
    assert (hand.total, len(hand.cards), hand.stakes) == (11, 3, {"ann": 20})
    assert rnd.phase is Phase.COMPLETE  # no forced draw after a double
    assert rnd.dealer_cards == parse_cards("9d Td")
    result = outcome(rnd, 1)
    assert (result.outcome, result.stake, result.net) == ("lose", 20, -20)
    assert rnd.bankrolls == {"ann": 80}
    assert_over(rnd)


# --------------------------------------------------------------------------- splitting


@pytest.mark.rule("Blackjack 11.4(b)", "Blackjack 12.1(c)")
def test_scenario_35_split_aces_take_one_card_each_and_do_not_resplit() -> None:
    # ann A A splits; the first ace gets another A (no resplit), the second gets 5; dealer 9 K
    rnd = dealt("Ac 9d Ad Ah 5c Kh")
    rnd.split()
    hands = rnd.boxes[1].hands
    assert [h.cards for h in hands] == [list(parse_cards("Ac Ah")), list(parse_cards("Ad 5c"))]
    assert all(h.split_aces and h.done for h in hands)
    assert rnd.phase is Phase.COMPLETE  # neither ace is offered a hit or a resplit
    with pytest.raises(RuleViolationError):
        rnd.hit()
    with pytest.raises(RuleViolationError):
        rnd.split()
    assert len(hands) == 2
    assert totals(rnd) == [12, 16]
    assert rnd.bankrolls == {"ann": 80}  # 12 and 16 both lose to 19
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.4(c)", "Blackjack 11.6", "Blackjack 4.1(e)")
def test_scenario_36_split_ace_and_king_is_21_paid_even_money_and_ties_a_dealer_21() -> None:
    # Round 1: A A split, the first ace gets K (21, not blackjack), the second gets 9; dealer 8 T
    rnd = dealt("Ac 8d Ad Kh 9c Td")
    rnd.split()
    assert totals(rnd) == [21, 20]
    assert not rnd.boxes[1].hands[0].is_blackjack
    first, second = outcome(rnd, 1, 0), outcome(rnd, 1, 1)
    assert (first.outcome, first.net) == ("win", 10)  # 1:1, not 3:2
    assert (second.outcome, second.net) == ("win", 10)
    assert rnd.bankrolls == {"ann": 120}
    assert_over(rnd)
    # Round 2: the same split 21 against a dealer 21 in three cards: 8 + 3 + K
    rnd = dealt("Ac 8d Ad Kh 9c 3h Ks")
    rnd.split()
    first, second = outcome(rnd, 1, 0), outcome(rnd, 1, 1)
    assert rnd.dealer_cards == parse_cards("8d 3h Ks")
    assert (first.outcome, first.net, first.rule) == ("push", 0, "Blackjack 4.1(e)")
    assert (second.outcome, second.net) == ("lose", -10)
    assert rnd.bankrolls == {"ann": 90}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.4(c)")
def test_scenario_37_split_king_queen_with_an_ace_is_21_not_blackjack() -> None:
    # ann K Q (same value) splits; the K gets an A, the Q gets 9; dealer 7 K
    rnd = dealt("Kc 7d Qh As 9c Kd")
    assert "split" in rnd.legal_actions()
    rnd.split()
    assert hand_to_play(rnd) == (1, 1)  # the K A hand is complete; the Q 9 hand acts
    rnd.stand()
    hand = rnd.boxes[1].hands[0]
    assert (hand.total, hand.is_blackjack) == (21, False)
    first = outcome(rnd, 1, 0)
    assert (first.outcome, first.net) == ("win", 10)
    assert rnd.bankrolls == {"ann": 120}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.4(a)")
def test_scenario_38_resplit_on_the_second_card_up_to_three_hands() -> None:
    # 8 8 split; the first hand's second card is 8: resplit into three hands; the third hand
    # then gets an 8 as its second card and may not split again. Dealer 6 T 9 busts.
    rnd = dealt("8c 6d 8d 8h Tc Td 8s Th 9c")
    rnd.split()
    assert [h.cards for h in rnd.boxes[1].hands] == [
        list(parse_cards("8c 8h")),
        [parse_cards("8d")[0]],
    ]
    assert "split" in rnd.legal_actions()
    rnd.split()
    assert len(rnd.boxes[1].hands) == 3
    assert rnd.bankrolls == {"ann": 70}
    rnd.stand()  # 8 T
    rnd.stand()  # 8 T
    assert hand_to_play(rnd) == (1, 2)
    assert [c.rank for c in rnd.boxes[1].hands[2].cards] == [c.rank for c in parse_cards("8d 8s")]
    assert "split" not in rnd.legal_actions()
    before = rnd.snapshot()
    with pytest.raises(RuleViolationError) as err:
        rnd.split()
    assert err.value.rule == "Blackjack 11.4(a)"
    assert rnd.snapshot() == before
    rnd.stand()
    assert rnd.dealer_cards == parse_cards("6d Th 9c")
    assert rnd.bankrolls == {"ann": 130}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.4(a)")
def test_scenario_39_no_resplit_on_a_pair_made_after_the_second_card() -> None:
    # 8 8 split; the first hand gets 3 (11), then draws 8 (19); the second gets 9; dealer 7 T
    rnd = dealt("8c 7d 8d 3h 8s 9c Th")
    rnd.split()
    assert "split" not in rnd.legal_actions()  # 8 3 is no pair
    rnd.hit()
    assert totals(rnd) == [19, 8]
    assert hand_to_play(rnd) == (1, 0)
    assert "split" not in rnd.legal_actions()
    with pytest.raises(RuleViolationError) as err:
        rnd.split()
    assert err.value.rule == "Blackjack 11.4(a)"
    assert len(rnd.boxes[1].hands) == 2
    rnd.stand()
    rnd.stand()  # 8 9 = 17
    assert rnd.bankrolls == {"ann": 110}  # 19 wins, 17 pushes against 17
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.5")
def test_scenario_40_a_pair_hit_instead_of_split_may_not_split_later() -> None:
    rnd = dealt("8c 9d 8d 8h Th")  # ann 8 8 hits and gets 8 (24, bust)
    assert "split" in rnd.legal_actions()
    rnd.hit()
    assert rnd.boxes[1].split_declined
    assert len(rnd.boxes[1].hands) == 1
    assert rnd.phase is Phase.COMPLETE
    with pytest.raises(RuleViolationError):
        rnd.split()
    # the same with a soft hand that stays live: 8 8 hits, gets A (17), may not split
    rnd = dealt("8c 9d 8d Ah Th")
    rnd.hit()
    assert hand_to_play(rnd) == (1, 0)
    assert "split" not in rnd.legal_actions()
    with pytest.raises(RuleViolationError):
        rnd.split()
    rnd.stand()
    assert rnd.bankrolls == {"ann": 90}  # 17 against 19
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.7")
def test_scenario_41_dealer_blackjack_after_a_split_takes_only_the_original_wager() -> None:
    # ann 9 9 (10) splits (10 more); the hands get T and 8; the dealer's A then K
    rnd = dealt("9c Ad 9d Th 8s Kh")
    assert rnd.insurance_turn == (1, "ann")
    rnd.insure(0)
    rnd.split()
    assert rnd.bankrolls == {"ann": 80}
    rnd.stand()  # 9 T
    rnd.stand()  # 9 8
    assert rnd.dealer_cards == parse_cards("Ad Kh")
    assert rnd.bankrolls == {"ann": 90}  # lost 10 only; the split 10 came back
    assert rnd.bank == 10
    nets = [s.net for s in settled(rnd)]
    assert sorted(nets) == [-10, 0]
    assert "Blackjack 11.7" in {s.rule for s in settled(rnd)}
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-1")
def test_scenario_42_dealer_stands_on_soft_17_and_draws_to_16() -> None:
    rnd = dealt("Tc Ad 8h 6c")  # ann T 8 = 18; dealer A 6 = soft 17 stands
    rnd.insure(0)
    rnd.stand()
    assert rnd.dealer_cards == parse_cards("Ad 6c")
    assert outcome(rnd, 1).outcome == "win"
    assert rnd.bankrolls == {"ann": 110}
    assert_over(rnd)
    rnd = dealt("Tc Td 8h 6c 4s")  # dealer T 6 = 16 draws 4 = 20
    rnd.stand()
    assert rnd.dealer_cards == parse_cards("Td 6c 4s")
    assert outcome(rnd, 1).outcome == "lose"
    assert rnd.bankrolls == {"ann": 90}
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-6")
def test_scenario_43_insurance_capped_at_half_pays_2_to_1() -> None:
    # dealer blackjack: insurance 5 wins 10, the wager 10 loses: net 0
    rnd = dealt("Tc Ad 8h Kc")
    assert rnd.phase is Phase.INSURANCE
    assert rnd.legal_actions().names == ("insure",)
    before = rnd.snapshot()
    with pytest.raises(RuleViolationError) as err:
        rnd.insure(6)
    assert err.value.rule == "Decision 3.1-6"
    assert rnd.snapshot() == before
    assert rnd.can_insure(5)
    rnd.insure(5)
    assert rnd.bankrolls == {"ann": 85}
    assert rnd.on_table == 15
    rnd.stand()
    insurance = [e for e in rnd.events if isinstance(e, ev.InsuranceSettled)]
    assert [(e.stake, e.net) for e in insurance] == [(5, 10)]
    assert outcome(rnd, 1).net == -10
    assert rnd.bankrolls == {"ann": 100}
    assert_over(rnd)
    # no dealer blackjack: the insurance is lost and the hand plays on (T 8 beats A 6 = 17)
    rnd = dealt("Tc Ad 8h 6c")
    rnd.insure(5)
    assert hand_to_play(rnd) == (1, 0)
    rnd.stand()
    insurance = [e for e in rnd.events if isinstance(e, ev.InsuranceSettled)]
    assert [(e.stake, e.net) for e in insurance] == [(5, -5)]
    assert outcome(rnd, 1).net == 10
    assert rnd.bankrolls == {"ann": 105}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.2")
def test_scenario_44_no_wager_change_once_a_card_has_left_the_shoe() -> None:
    rnd = BlackjackRound(NZ, shoe("Tc 9d 8h 9c"), {"ann": 100, "bo": 100})
    rnd.place_wager(1, "ann", 10)
    rnd.place_wager(1, "ann", 20)  # before the deal: changed
    assert rnd.bankrolls["ann"] == 80
    rnd.deal()
    before = rnd.snapshot()
    for box, player, amount in [(1, "ann", 30), (1, "ann", 10), (2, "bo", 10), (1, "bo", 10)]:
        assert not rnd.can_place_wager(box, player, amount)
        with pytest.raises(RuleViolationError) as err:
            rnd.place_wager(box, player, amount)
        assert err.value.rule == "Blackjack 4.2"
        assert rnd.snapshot() == before
    rnd.stand()
    assert rnd.bankrolls == {"ann": 100, "bo": 100}  # 18 ties 18 on the changed wager of 20
    assert outcome(rnd, 1).stake == 20


@pytest.mark.rule("Blackjack 3.1 as amended", "Decision 3.1-2")
def test_scenario_45_shoe_of_4_to_8_decks_6_by_default() -> None:
    assert NZ.decks == 6
    NZ.validate_for_play()
    for decks in range(4, 9):
        NZ.with_(decks=decks).validate_for_play()
    for decks in (1, 2, 3, 9, 10):
        with pytest.raises(RuleViolationError) as err:
            NZ.with_(decks=decks).validate_for_play()
        assert err.value.rule == "Blackjack 3.1 as amended"
    with pytest.raises(RuleViolationError):
        BlackjackTable(NZ.with_(decks=3))
    with pytest.raises(RuleViolationError):
        BlackjackRound(NZ.with_(decks=3), Shoe(3), {"ann": 100}, strict_nz=True)
    table = BlackjackTable(NZ, seed=1)
    assert len(table.shoe) == 6 * 52
