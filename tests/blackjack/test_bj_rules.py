"""Blackjack rules (DIGEST 2.D), the SEED and NZ-RELATED decisions of DIGEST 3.1, and the
rule-set settings of :class:`BlackjackRules`, each checked on stacked shoes.

Deal order: one card to each box (ascending box number), one to the dealer, a second card to
each box (a peek game then deals the dealer's hole card); split hands get their second card
when play reaches them; in the NZ no-hole-card game the dealer's second card comes after every
box has played, then the dealer draws.
"""

from __future__ import annotations

import inspect
from fractions import Fraction

import pytest
from bj_helpers import assert_over, dealt, hand_to_play, outcome, settled, shoe, totals

from croupier.blackjack import (
    NZ,
    BlackjackRound,
    BlackjackRules,
    BlackjackTable,
    DealerBlackjackTakes,
    DoubleOn,
    HoleCard,
    PairsBy,
    Phase,
    Surrender,
    card_value,
    hand_total,
    is_pair,
)
from croupier.blackjack import events as ev
from croupier.cards import Card, Shoe, parse_cards
from croupier.errors import RuleViolationError

# --------------------------------------------------------------------------- helpers


def net(rnd: BlackjackRound, player: str = "ann") -> int:
    """``player``'s net result over every hand and insurance stake of the round."""
    hands = sum(s.net for s in settled(rnd) if s.player == player)
    insurance = sum(
        e.net for e in rnd.events if isinstance(e, ev.InsuranceSettled) and e.player == player
    )
    return hands + insurance


def rejected(rnd: BlackjackRound, action: str, *args: int | str) -> str:
    """Call an action that must be illegal: check the round is unchanged; return the rule."""
    before = rnd.snapshot()
    with pytest.raises(RuleViolationError) as err:
        getattr(rnd, action)(*args)
    assert rnd.snapshot() == before
    return err.value.rule


def card(text: str) -> Card:
    """One card."""
    return Card.parse(text)


PEEK = NZ.with_(hole_card=HoleCard.PEEK)

# --------------------------------------------------------------------------- part 3: cards


@pytest.mark.rule("Blackjack 3.1")
def test_3_1_a_shoe_of_six_to_eight_decks_with_one_cut_card() -> None:
    for decks in (6, 7, 8):
        NZ.with_(decks=decks).validate_for_play()
        table = BlackjackTable(NZ.with_(decks=decks), seed=decks)
        assert len(table.shoe) == 52 * decks
        assert 0 < table.shoe.cut_card_position < 52 * decks  # one cutting card in the shoe
    with pytest.raises(RuleViolationError):
        NZ.with_(decks=0).validate()


@pytest.mark.rule("Blackjack 3.1 as amended")
def test_3_1_as_amended_four_to_eight_decks() -> None:
    for decks in (4, 5, 6, 7, 8):
        table = BlackjackTable(NZ.with_(decks=decks), seed=1)
        assert len(table.shoe) == 52 * decks
    for decks in (3, 9):
        with pytest.raises(RuleViolationError) as err:
            BlackjackTable(NZ.with_(decks=decks))
        assert err.value.rule == "Blackjack 3.1 as amended"
        with pytest.raises(RuleViolationError):
            BlackjackRound(NZ.with_(decks=decks), Shoe(decks), {"ann": 100}, strict_nz=True)


@pytest.mark.rule("Blackjack 3.2(a)")
def test_3_2_a_two_to_ten_count_face_value() -> None:
    for rank, value in zip("23456789T", range(2, 11), strict=True):
        for suit in "cdhs":
            assert card_value(card(rank + suit)) == value
    assert hand_total(parse_cards("2c 3d 4h 5s")) == (14, False)
    assert hand_total(parse_cards("9c Td")) == (19, False)
    rnd = dealt("9c 7d 7h Ts")  # 9 + 7 = 16 against the dealer's 7 + T = 17
    assert totals(rnd) == [16]
    rnd.stand()
    assert outcome(rnd, 1).outcome == "lose"


@pytest.mark.rule("Blackjack 3.2(b)")
def test_3_2_b_jack_queen_king_count_ten() -> None:
    for rank in "JQK":
        for suit in "cdhs":
            assert card_value(card(rank + suit)) == 10
    assert hand_total(parse_cards("Jc Qd")) == (20, False)
    assert hand_total(parse_cards("Kc 5d 6h")) == (21, False)
    rnd = dealt("Jc Qd Kh Ts")  # J + K = 20 against Q + T = 20
    rnd.stand()
    assert outcome(rnd, 1).outcome == "push"


@pytest.mark.rule("Blackjack 3.2(c)")
def test_3_2_c_an_ace_counts_eleven_unless_that_busts() -> None:
    assert card_value(card("Ah")) == 1
    assert hand_total(parse_cards("As 6d")) == (17, True)
    assert hand_total(parse_cards("As 6d 9c")) == (16, False)
    assert hand_total(parse_cards("As Ad")) == (12, True)
    assert hand_total(parse_cards("As Ad 9c")) == (21, True)
    assert hand_total(parse_cards("As Ad Ac Ah")) == (14, True)
    assert hand_total(parse_cards("As Kd")) == (21, True)
    assert hand_total(parse_cards("As Kd Qc")) == (21, False)
    # ann A 5 = soft 16 draws 9: hard 15. The dealer's A 5 = soft 16 draws T: hard 16, draws 4.
    rnd = dealt("Ac Ad 5h 9s 5c Tc 4d")
    rnd.insure(0)
    rnd.hit()
    hand = rnd.boxes[1].hands[0]
    assert (hand.total, hand.soft) == (15, False)
    rnd.stand()
    assert rnd.dealer_cards == parse_cards("Ad 5c Tc 4d")
    assert hand_total(rnd.dealer_cards) == (20, False)
    assert outcome(rnd, 1).outcome == "lose"
    assert_over(rnd)


@pytest.mark.rule("Blackjack 3.3")
def test_3_3_only_the_dealer_deals() -> None:
    # The round exposes no way to hand a card to a box other than the player's own actions:
    # its public methods are exactly these, and no action names a box, a hand or a card.
    public = {
        name
        for name, value in inspect.getmembers(BlackjackRound)
        if not name.startswith("_") and callable(value)
    }
    actions = {"hit", "stand", "double", "split", "surrender", "insure", "even_money"}
    checks = {f"{prefix}_{a}" for a in actions for prefix in ("verify", "can")}
    checks |= {
        "verify_place_wager",
        "can_place_wager",
        "verify_withdraw_wager",
        "can_withdraw_wager",
    }
    allowed = actions | checks | {"deal", "place_wager", "withdraw_wager", "legal_actions"}
    allowed |= {"snapshot", "replay", "verify_deal", "can_deal"}
    # actions as values (they name who decides, never a card), views, copies, payoffs
    allowed |= {"verify", "can", "apply", "view_for", "copy", "payoffs"}
    assert public <= allowed, public - allowed
    for action in ("hit", "stand", "double", "split", "surrender", "even_money"):
        assert list(inspect.signature(getattr(BlackjackRound, action)).parameters) == ["self"]
    # before the deal and after settlement no player action takes a card
    rnd = BlackjackRound(NZ, shoe("Tc 9d 8h 9c"), {"ann": 100})
    rnd.place_wager(1, "ann", 10)
    for action in ("hit", "double", "split", "stand"):
        assert rejected(rnd, action)
    rnd.deal()
    rnd.stand()
    for action in ("hit", "double", "split", "stand", "surrender"):
        rejected(rnd, action)
    # every card in play left the shoe through the dealer, in order, as the log shows
    cards = [e.card for e in rnd.events if isinstance(e, ev.CardDealt | ev.DealerCard)]
    assert cards == list(parse_cards("Tc 9d 8h 9c"))
    assert len(rnd.shoe) == 0


# --------------------------------------------------------------------------- part 4: wagers


@pytest.mark.rule("Blackjack 4.1(a)")
def test_4_1_a_player_wins_when_the_dealer_busts() -> None:
    rnd = dealt("Tc 6d 2h Ts 8c")  # ann T 2 = 12 stands; dealer 6 T 8 = 24
    rnd.stand()
    result = outcome(rnd, 1)
    assert (result.outcome, result.net, result.rule) == ("win", 10, "Blackjack 4.1(a)")
    assert rnd.bankrolls == {"ann": 110}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.1(b)")
def test_4_1_b_higher_total_wins() -> None:
    rnd = dealt("Tc 9d Kh Ts")  # ann 20 against 19
    rnd.stand()
    result = outcome(rnd, 1)
    assert (result.outcome, result.net, result.rule) == ("win", 10, "Blackjack 4.1(b)")
    assert rnd.bankrolls == {"ann": 110}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.1(c)")
def test_4_1_c_blackjack_beats_a_dealer_21_in_more_cards() -> None:
    rnd = dealt("As 9c 5d Kh Th 6c Qd", wagers=[(1, "ann", 10), (2, "bo", 10)])
    rnd.stand()  # bo 9 T = 19; the dealer 5 6 Q = 21
    assert len(rnd.dealer_cards) == 3
    assert hand_total(rnd.dealer_cards)[0] == 21
    ann = outcome(rnd, 1)
    assert (ann.outcome, ann.net, ann.rule) == ("blackjack", 15, "Blackjack 4.1(c)")
    assert rnd.bankrolls == {"ann": 115, "bo": 90}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.1(d)")
def test_4_1_d_dealer_blackjack_beats_a_player_21_in_more_cards() -> None:
    rnd = dealt("5c Td 6h Th As")  # ann 5 6 draws T = 21; dealer T A
    rnd.hit()
    assert totals(rnd) == [21]
    result = outcome(rnd, 1)
    assert (result.outcome, result.net, result.rule) == (
        "dealer blackjack",
        -10,
        "Blackjack 4.1(d)",
    )
    assert rnd.bankrolls == {"ann": 90}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.1(e)")
@pytest.mark.parametrize("cards", ["Tc 9d 9h Ts", "As Kd Kh Ac"])  # 19 v 19; blackjack v blackjack
def test_4_1_e_equal_totals_and_two_blackjacks_stand_off(cards: str) -> None:
    rnd = dealt(cards)
    if rnd.phase is not Phase.COMPLETE:
        rnd.stand()
    result = outcome(rnd, 1)
    assert (result.outcome, result.net, result.rule) == ("push", 0, "Blackjack 4.1(e)")
    assert rnd.bankrolls == {"ann": 100}
    assert rnd.bank == 0
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.1(e)")
def test_4_1_e_three_card_21_ties_a_dealer_three_card_21() -> None:
    rnd = dealt("7c 9d 4h Th 5c 7s")  # ann 7 4 T = 21; dealer 9 5 7 = 21
    rnd.hit()
    assert rnd.dealer_cards == parse_cards("9d 5c 7s")
    result = outcome(rnd, 1)
    assert (result.outcome, result.net, result.rule) == ("push", 0, "Blackjack 4.1(e)")
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.1(f)")
def test_4_1_f_a_bust_loses_and_the_dealer_does_not_play_for_it() -> None:
    rnd = dealt("Tc 7d 6h 9s")  # ann T 6 draws 9 = 25
    rnd.hit()
    result = outcome(rnd, 1)
    assert (result.outcome, result.net, result.rule) == ("bust", -10, "Blackjack 4.1(f)")
    assert rnd.dealer_cards == parse_cards("7d")  # no live hand: the dealer takes no card
    assert rnd.bankrolls == {"ann": 90}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.1(g)")
def test_4_1_g_lower_total_loses() -> None:
    rnd = dealt("Tc Kd 7h Qs")  # ann 17 against 20
    rnd.stand()
    result = outcome(rnd, 1)
    assert (result.outcome, result.net, result.rule) == ("lose", -10, "Blackjack 4.1(g)")
    assert rnd.bankrolls == {"ann": 90}
    assert rnd.bank == 10
    assert_over(rnd)


@pytest.mark.rule("Blackjack 4.2")
def test_4_2_wagers_fixed_once_a_card_leaves_the_shoe() -> None:
    rnd = BlackjackRound(NZ, shoe("Tc 9c Ad 8h 9d"), {"ann": 100, "bo": 100})
    rnd.place_wager(1, "ann", 50)
    rnd.place_wager(1, "ann", 10)  # changed before the deal: 40 comes back
    rnd.place_wager(2, "bo", 10)
    assert rnd.bankrolls == {"ann": 90, "bo": 90}
    assert rnd.on_table == 20
    rnd.deal()
    assert rnd.phase is Phase.INSURANCE
    for box, player, amount in [(1, "ann", 20), (2, "bo", 10), (3, "ann", 10)]:
        assert rejected(rnd, "place_wager", box, player, amount) == "Blackjack 4.2"
    assert rejected(rnd, "deal") == "Blackjack 4.2"


@pytest.mark.rule("Blackjack 4.2")
def test_4_2_a_burn_card_counts_as_the_first_card() -> None:
    rnd = BlackjackRound(NZ, shoe("2c Tc 9d 8h 9c"), {"ann": 100}, burn=True)
    rnd.place_wager(1, "ann", 10)
    rnd.deal()
    assert rnd.shoe.burned == (card("2c"),)
    assert isinstance(rnd.events[2], ev.CardBurned)
    assert rejected(rnd, "place_wager", 1, "ann", 20) == "Blackjack 4.2"


# --------------------------------------------------------------------------- part 11: splits


@pytest.mark.rule("Blackjack 11.2", "Blackjack 11.3", "Blackjack 11.1")
def test_split_hands_get_their_second_card_in_turn_left_to_right() -> None:
    # ann 8 8 on box 1 splits; bo T 7 on box 2 waits until both of ann's hands are done
    rnd = dealt("8c Tc 6d 8d 7h 3s Ks 9h", wagers=[(1, "ann", 10), (2, "bo", 10)])
    rnd.split()
    assert rnd.bankrolls == {"ann": 80, "bo": 90}  # an equal wager on the second hand
    hands = rnd.boxes[1].hands
    assert [len(h.cards) for h in hands] == [2, 1]  # the second hand waits for its card
    assert hand_to_play(rnd) == (1, 0)
    rnd.hit()  # 8 3 = 11 draws K = 21: done
    assert [h.total for h in hands] == [21, 17]
    assert [len(h.cards) for h in hands] == [3, 2]  # only now the second hand's card comes
    assert hand_to_play(rnd) == (1, 1)
    rnd.stand()  # 8 9 = 17
    assert hand_to_play(rnd) == (2, 0)
    order = [(e.box, e.hand) for e in rnd.events if isinstance(e, ev.CardDealt)]
    assert order == [(1, 0), (2, 0), (1, 0), (2, 0), (1, 0), (1, 0), (1, 1)]


@pytest.mark.rule("Blackjack 11.4(a)", "Decision 3.1-9")
def test_11_4_a_resplit_on_the_second_card_to_at_most_three_hands() -> None:
    # 9 9 split; the first hand gets 9: resplit; the first hand gets 9 again: no third split
    rnd = dealt("9c 7d 9d 9h 9s Tc Td Kh")
    rnd.split()
    assert rnd.legal_actions().names == ("hit", "stand", "double", "split")
    rnd.split()
    assert len(rnd.boxes[1].hands) == 3
    assert rnd.bankrolls == {"ann": 70}
    assert [c.rank for c in rnd.boxes[1].hands[0].cards] == [card("9c").rank] * 2
    assert "split" not in rnd.legal_actions()
    assert rejected(rnd, "split") == "Blackjack 11.4(a)"
    rnd.stand()  # 9 9
    rnd.stand()  # 9 T
    rnd.stand()  # 9 T
    assert totals(rnd) == [18, 19, 19]
    assert rnd.dealer_cards == parse_cards("7d Kh")
    assert rnd.bankrolls == {"ann": 130}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.4(a)", "Decision 3.1-9")
def test_11_4_a_no_resplit_on_a_pair_made_by_a_third_card() -> None:
    # 9 9 split; the first hand gets 2 (no pair: 11), then 9 (20: three cards, no split)
    rnd = dealt("9c 7d 9d 2h 9s Tc Kh")
    rnd.split()
    assert rejected(rnd, "split") == "Decision 3.1-8"  # 9 2 is no pair
    rnd.hit()
    assert totals(rnd) == [20, 9]
    assert rejected(rnd, "split") == "Blackjack 11.4(a)"
    rnd.stand()
    rnd.stand()  # 9 T = 19
    assert rnd.dealer_cards == parse_cards("7d Kh")
    assert rnd.bankrolls == {"ann": 120}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.4(a)", "Decision 3.1-9")
@pytest.mark.parametrize(("max_hands", "splits"), [(2, 1), (3, 2), (4, 3)])
def test_11_4_a_hands_a_box_setting(max_hands: int, splits: int) -> None:
    # every split hand's second card is another 8
    rnd = dealt("8c 7d 8d 8h 8s 8c 8d", rules=NZ.with_(max_hands=max_hands))
    for _ in range(splits):
        rnd.split()
    assert len(rnd.boxes[1].hands) == max_hands
    assert [c.rank for c in rnd.boxes[1].hands[0].cards] == [card("8c").rank] * 2
    assert "split" not in rnd.legal_actions()
    assert rejected(rnd, "split") == "Blackjack 11.4(a)"
    assert rnd.bankrolls == {"ann": 100 - 10 * max_hands}


@pytest.mark.rule("Blackjack 11.4(b)", "Blackjack 12.1(c)")
def test_11_4_b_aces_split_once_one_card_each() -> None:
    # ann A A and bo T 8; the aces get A and 9; bo acts after them
    rnd = dealt("Ac Tc 7d Ad 8c Ah 9s Ks", wagers=[(1, "ann", 10), (2, "bo", 10)])
    rnd.split()
    assert hand_to_play(rnd) == (2, 0)  # neither ace was offered a card or a resplit
    hands = rnd.boxes[1].hands
    assert [len(h.cards) for h in hands] == [2, 2]
    assert totals(rnd) == [12, 20]
    assert all(h.split_aces and h.done for h in hands)
    box_cards = [e for e in rnd.events if isinstance(e, ev.CardDealt) and e.box == 1]
    assert len(box_cards) == 4  # two dealt, then one to each ace
    rnd.stand()
    assert rnd.dealer_cards == parse_cards("7d Ks")
    assert rnd.bankrolls == {"ann": 100, "bo": 110}  # 12 loses, 20 wins; bo's 18 wins
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.4(b)")
def test_11_4_b_resplit_aces_setting_offers_a_resplit() -> None:
    rnd = dealt("Ac 9c Ad Ah 5c 5d Kh", rules=NZ.with_(resplit_aces=True))
    rnd.split()  # the first ace gets another ace
    assert hand_to_play(rnd) == (1, 0)
    assert "split" in rnd.legal_actions()
    assert "hit" not in rnd.legal_actions()  # still one card only (hit_split_aces is off)


@pytest.mark.rule("Blackjack 11.4(c)")
@pytest.mark.parametrize(("pair", "draw"), [("Ac Ad", "Kh"), ("Kc Kd", "Ah"), ("Tc Qd", "As")])
def test_11_4_c_split_aces_or_tens_never_make_blackjack(pair: str, draw: str) -> None:
    first, second = pair.split()
    # the first split hand gets the 21-making card, the second a 9; dealer 6 T K busts
    rnd = dealt(f"{first} 6d {second} {draw} 9c Ts Ks")
    rnd.split()
    if hand_to_play(rnd) is not None:
        rnd.stand()  # the tens' second hand (19); split aces need no decision
    hand = rnd.boxes[1].hands[0]
    assert (hand.total, len(hand.cards), hand.is_blackjack) == (21, 2, False)
    result = outcome(rnd, 1, 0)
    assert (result.outcome, result.net) == ("win", 10)  # 1:1, not 3:2
    assert rnd.dealer_cards == parse_cards("6d Ts Ks")
    assert rnd.bankrolls == {"ann": 120}
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-11")
def test_split_21_loses_the_original_wager_to_a_dealer_blackjack() -> None:
    rnd = dealt("Ac Td Ad Kh 9c As")  # A A split: A K = 21 and A 9 = 20; dealer T A
    rnd.split()
    assert rnd.dealer_cards == parse_cards("Td As")
    assert {s.outcome for s in settled(rnd)} == {"dealer blackjack"}
    assert net(rnd) == -10
    assert rnd.bankrolls == {"ann": 90}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.5", "Decision 3.1-10")
@pytest.mark.parametrize(
    ("decline", "cards"),
    [
        ("stand", "8c 7d 8d 8h 8s Ts"),
        ("hit", "8c 7d 8d 8h 2c 8s Ts"),
        ("double", "8c 7d 8d 8h 2c 8s Ts"),
    ],
)
def test_11_5_declining_a_resplit_forbids_later_splits_in_the_hand(
    decline: str, cards: str
) -> None:
    # 8 8 split; the first hand gets 8 and the player does not resplit; the second hand then
    # gets 8 and may not split (11.5: no further pair formed in the hand may be split)
    rnd = dealt(cards)
    rnd.split()
    assert "split" in rnd.legal_actions()
    getattr(rnd, decline)()  # a hit or a double takes the 2 (18)
    assert rnd.boxes[1].split_declined
    if hand_to_play(rnd) == (1, 0):
        rnd.stand()
    assert hand_to_play(rnd) == (1, 1)
    assert [c.rank for c in rnd.boxes[1].hands[1].cards] == [card("8c").rank] * 2
    assert "split" not in rnd.legal_actions()
    assert rejected(rnd, "split") == "Blackjack 11.5"
    assert len(rnd.boxes[1].hands) == 2
    rnd.stand()
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.5", "Decision 3.1-10")
def test_11_5_acting_on_a_hand_with_no_pair_declines_nothing() -> None:
    # 8 8 split; the first hand gets 3 (no pair) and plays on; the second hand gets 8 and may
    # still resplit
    rnd = dealt("8c 7d 8d 3h 8s 8h Tc Td Ts")
    rnd.split()
    rnd.hit()  # 8 3 8 = 19
    rnd.stand()
    assert not rnd.boxes[1].split_declined
    assert hand_to_play(rnd) == (1, 1)
    assert "split" in rnd.legal_actions()
    rnd.split()
    rnd.stand()  # 8 T
    rnd.stand()  # 8 T
    assert totals(rnd) == [19, 18, 18]
    assert rnd.bankrolls == {"ann": 130}  # all beat the dealer's 7 T
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.6")
def test_11_6_split_hands_settle_under_4_1_at_one_to_one() -> None:
    # 8 8 split against the dealer's 6: 8 T = 18 stands; 8 5 draws K = 23; dealer 6 T 9 busts
    rnd = dealt("8c 6d 8d Th 5c Ks Ts 9c")
    rnd.split()
    rnd.stand()
    rnd.hit()
    assert totals(rnd) == [18, 23]
    assert [(s.outcome, s.stake, s.net, s.rule) for s in settled(rnd)] == [
        ("win", 10, 10, "Blackjack 4.1(a)"),
        ("bust", 10, -10, "Blackjack 4.1(f)"),
    ]
    assert rnd.bankrolls == {"ann": 100}
    assert_over(rnd)
    # split 9 9 against 7 T: 9 T = 19 wins 1:1 (4.1(b)), 9 8 = 17 stands off (4.1(e))
    rnd = dealt("9c 7d 9d Th 8s Ts")
    rnd.split()
    rnd.stand()
    rnd.stand()
    assert [(s.outcome, s.net, s.rule) for s in settled(rnd)] == [
        ("win", 10, "Blackjack 4.1(b)"),
        ("push", 0, "Blackjack 4.1(e)"),
    ]
    assert rnd.bankrolls == {"ann": 110}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.7")
def test_11_7_dealer_blackjack_after_two_splits_takes_only_the_original() -> None:
    rnd = dealt("8c Td 8d 8h Tc 9s 7h As")  # three hands of 10 against the dealer's T, A
    rnd.split()
    rnd.split()
    rnd.stand()  # 8 T
    rnd.stand()  # 8 9
    assert rnd.bankrolls == {"ann": 70}
    rnd.stand()  # 8 7
    assert rnd.dealer_cards == parse_cards("Td As")
    assert rnd.bankrolls == {"ann": 90}
    assert net(rnd) == -10
    assert rnd.bank == 10
    assert any(s.rule == "Blackjack 11.7" for s in settled(rnd))
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.7", "Blackjack 4.1(f)")
@pytest.mark.parametrize(
    ("cards", "actions", "hand_totals", "lost"),
    [
        ("8c Td 8d 5h Ks Tc As", ("hit", "stand"), [23, 18], 20),
        ("8c Td 8d Tc 5h Ks As", ("stand", "hit"), [18, 23], 20),
        ("8c Td 8d Tc 9h As", ("stand", "stand"), [18, 17], 10),
    ],
    ids=["first hand busts", "second hand busts", "neither busts"],
)
def test_11_7_after_a_split_hand_busts_the_original_wager_is_taken_once(
    cards: str, actions: tuple[str, str], hand_totals: list[int], lost: int
) -> None:
    # 8 8 split for 10 a hand against the dealer's T, then A: a busted hand has lost its 10
    # (4.1(f)); the blackjack then takes the original wager (10) once from the hands still
    # standing and returns the rest. Which of the two hands busted does not matter.
    rnd = dealt(cards)
    rnd.split()
    for action in actions:
        getattr(rnd, action)()
    assert totals(rnd) == hand_totals
    assert rnd.dealer_cards == parse_cards("Td As")
    assert net(rnd) == -lost
    assert rnd.bankrolls == {"ann": 100 - lost}
    assert rnd.bank == lost
    standing = [s for s in settled(rnd) if s.outcome == "dealer blackjack"]
    assert sum(s.net for s in standing) == -10  # the original wager, once
    assert all(s.rule == "Blackjack 11.7" for s in standing)
    assert [s.net for s in settled(rnd) if s.outcome == "bust"] == [-10] * (lost == 20)
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.7", "Blackjack 4.1(f)", "Decision 3.1-6")
def test_11_7_when_every_split_hand_busts_the_blackjack_takes_nothing_more() -> None:
    # insured against the ace, so the dealer draws the second card although both hands bust
    rnd = dealt("8c Ad 8d 5h Ks 6h Kc Th")
    rnd.insure(5)
    rnd.split()
    rnd.hit()  # 8 5 K = 23
    rnd.hit()  # 8 6 K = 24
    assert rnd.dealer_cards == parse_cards("Ad Th")
    assert [(s.outcome, s.net) for s in settled(rnd)] == [("bust", -10), ("bust", -10)]
    assert net(rnd) == -20 + 10  # two busted stakes; insurance wins 2:1
    assert_over(rnd)


@pytest.mark.rule("Blackjack 11.7", "Decision 3.1-4")
@pytest.mark.parametrize(
    ("doubles", "lost"), [(DealerBlackjackTakes.ORIGINAL, 20), (DealerBlackjackTakes.ALL, 30)]
)
def test_11_7_a_doubled_split_hand_standing_gives_the_undoubled_original(
    doubles: DealerBlackjackTakes, lost: int
) -> None:
    # 9 9 split: 9 5 K busts (10 lost); 9 2 doubles to 21 on 20; dealer T A: the original 10
    # comes from the doubled hand, whose added 10 is returned (or taken too, doubles = all)
    rnd = dealt("9c Td 9d 5h Ks 2c Th As", rules=NZ.with_(dealer_blackjack_takes_doubles=doubles))
    rnd.split()
    rnd.hit()
    rnd.double()
    assert totals(rnd) == [24, 21]
    assert net(rnd) == -lost
    assert [(s.outcome, s.stake, s.net) for s in settled(rnd)] == [
        ("bust", 10, -10),
        ("dealer blackjack", 20, 10 - lost),
    ]
    assert_over(rnd)


# --------------------------------------------------------------------------- part 12: drawing


@pytest.mark.rule("Blackjack 12.1")
def test_12_1_may_draw_on_any_total_below_21() -> None:
    rnd = dealt("Tc 7d 9h 2s Kd")  # ann T 9 = 19 may still draw: gets 2 = 21
    assert rnd.legal_actions().names == ("hit", "stand", "double")
    rnd.hit()
    assert totals(rnd) == [21]
    assert outcome(rnd, 1).outcome == "win"  # 21 against 7 K = 17
    assert_over(rnd)


@pytest.mark.rule("Blackjack 12.1(a)")
def test_12_1_a_a_blackjack_is_never_offered_a_draw() -> None:
    rnd = dealt("As Tc 7d Kh 8c Ts", wagers=[(1, "ann", 10), (2, "bo", 10)])
    assert hand_to_play(rnd) == (2, 0)  # box 1's blackjack takes no decision
    rnd.stand()  # bo T 8
    assert len(rnd.boxes[1].hands[0].cards) == 2
    assert rnd.bankrolls == {"ann": 115, "bo": 110}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 12.1(a)")
def test_12_1_a_a_soft_21_by_drawing_takes_no_more_cards() -> None:
    # ann A 4 draws 6 = soft 21; bo 9 T stands; dealer 7 8 K busts
    rnd = dealt("Ac 9c 7d 4h Tc 6s 8d Ks", wagers=[(1, "ann", 10), (2, "bo", 10)])
    rnd.hit()
    hand = rnd.boxes[1].hands[0]
    assert (hand.total, hand.soft, hand.done) == (21, True, True)
    assert hand_to_play(rnd) == (2, 0)
    rnd.stand()
    assert len(rnd.boxes[1].hands[0].cards) == 3
    assert rnd.dealer_cards == parse_cards("7d 8d Ks")
    assert rnd.bankrolls == {"ann": 110, "bo": 110}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 12.1(b)")
def test_12_1_b_a_double_takes_exactly_one_card() -> None:
    # ann 5 6 doubles and gets 2 (13: no more); bo T 8 stands; dealer 7 9 K busts
    rnd = dealt("5c Tc 7d 6h 8c 2s 9d Kd", wagers=[(1, "ann", 10), (2, "bo", 10)])
    rnd.double()
    hand = rnd.boxes[1].hands[0]
    assert (len(hand.cards), hand.total, hand.doubled, hand.done) == (3, 13, True, True)
    assert hand.stakes == {"ann": 20}
    assert hand_to_play(rnd) == (2, 0)
    rnd.stand()
    assert rnd.bankrolls == {"ann": 120, "bo": 110}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 12.1(c)")
def test_12_1_c_hit_split_aces_setting() -> None:
    # with hit_split_aces the first ace gets 5 and may draw (4: 20), but not double
    rnd = dealt("Ac 7d Ad 5h 4c 8s Ts", rules=NZ.with_(hit_split_aces=True))
    rnd.split()
    assert hand_to_play(rnd) == (1, 0)
    assert rnd.legal_actions().names == ("hit", "stand")
    assert rejected(rnd, "double") == "Blackjack 12.1(c)"
    rnd.hit()
    rnd.stand()
    rnd.stand()  # A 8
    assert totals(rnd) == [20, 19]
    assert rnd.bankrolls == {"ann": 120}
    assert_over(rnd)


@pytest.mark.rule("Blackjack 12.1(d)", "Decision 3.1-12")
@pytest.mark.parametrize("pair", ["2c 3d", "2c 2d", "4c 5d", "6c 4d", "5c 6d"])
def test_12_1_d_no_stand_on_11_or_less(pair: str) -> None:
    first, second = pair.split()
    rnd = dealt(f"{first} 9h {second}")
    assert rnd.boxes[1].hands[0].total <= 11
    assert "stand" not in rnd.legal_actions()
    assert not rnd.can_stand()
    assert rejected(rnd, "stand") == "Blackjack 12.1(d)"
    assert "hit" in rnd.legal_actions()


@pytest.mark.rule("Blackjack 12.1(d)", "Decision 3.1-12")
def test_12_1_d_may_stand_from_12_including_ace_ace() -> None:
    for cards in ("Tc 9h 2d Kh", "Ac 9h Ad Kh"):
        rnd = dealt(cards)
        assert rnd.boxes[1].hands[0].total == 12
        assert "stand" in rnd.legal_actions()
        rnd.stand()
        assert outcome(rnd, 1).outcome == "lose"
        assert_over(rnd)


@pytest.mark.rule("Blackjack 12.1(d)", "Blackjack 12.1(b)", "Decision 3.1-12")
def test_12_1_d_a_double_on_5_gets_one_card_and_stays_at_9() -> None:
    rnd = dealt("2c 9d 3h 4s Td")  # 2 3 doubles, gets 4 = 9; dealer 9 T
    assert rnd.legal_actions().names == ("hit", "double")
    rnd.double()
    assert totals(rnd) == [9]
    assert rnd.phase is Phase.COMPLETE
    assert rnd.bankrolls == {"ann": 80}
    assert_over(rnd)


# --------------------------------------------------------------------------- decisions


@pytest.mark.rule("Decision 3.1-1", "Blackjack 13 (dealer drawing)")
@pytest.mark.parametrize(
    ("h17", "dealer"),
    [
        (False, "Ad 6c"),  # S17 stands on soft 17
        (True, "Ad 6c 4s"),  # H17 draws to soft 17: A 6 4 = 21
        (False, "2d 4c As"),  # soft 17 in three cards stands (S17)
        (True, "2d 4c As Ks"),  # H17 draws: hard 17
        (True, "Td 7c"),  # hard 17 stands either way
        (True, "Ad 7c"),  # soft 18 stands either way
        (False, "Td 6c 5s"),  # 16 draws
        (True, "Td 6c 5s"),
    ],
)
def test_dealer_soft_17_setting(h17: bool, dealer: str) -> None:
    # ann T 8 stands; the shoe holds exactly the dealer's cards, so a wrong draw fails too
    up, *rest = dealer.split()
    rnd = dealt(f"Tc {up} 8h {' '.join(rest)}", rules=NZ.with_(dealer_hits_soft_17=h17))
    if rnd.insurance_turn is not None:
        rnd.insure(0)
    rnd.stand()
    assert rnd.dealer_cards == parse_cards(dealer)
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-2")
def test_six_decks_by_default_cut_card_configurable() -> None:
    assert NZ.decks == 6
    assert NZ.penetration == Fraction(3, 4)
    assert BlackjackTable(NZ, seed=1).shoe.cut_card_position == 234
    half = BlackjackTable(NZ.with_(penetration=Fraction(1, 2)), seed=1)
    assert half.shoe.cut_card_position == 156
    eight = BlackjackTable(NZ.with_(decks=8, penetration=Fraction(5, 6)), seed=1)
    assert (len(eight.shoe), eight.shoe.cut_card_position) == (416, 346)
    with pytest.raises(RuleViolationError):
        NZ.with_(penetration=Fraction(0)).validate()


@pytest.mark.rule("Decision 3.1-3")
def test_peek_game_dealer_blackjack_ends_the_round_before_anyone_acts() -> None:
    # ann 9 9 (a pair) and bo A K; dealer T up and A in the hole
    rnd = dealt("9c As Td 9d Kh Ac", rules=PEEK, wagers=[(1, "ann", 10), (2, "bo", 10)])
    assert rnd.phase is Phase.COMPLETE
    assert not any(isinstance(e, ev.BoxAction) for e in rnd.events)
    assert rnd.dealer_cards == parse_cards("Td Ac")
    assert len(rnd.boxes[1].hands) == 1  # no split could be made, so 11.7 cannot apply
    assert all(s.rule != "Blackjack 11.7" for s in settled(rnd))
    assert (outcome(rnd, 1).net, outcome(rnd, 2, player="bo").net) == (-10, 0)
    assert rnd.bankrolls == {"ann": 90, "bo": 100}
    rejected(rnd, "split")
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-3")
def test_peek_game_insurance_then_peek() -> None:
    rnd = dealt("Tc Ad 8h Kc", rules=PEEK)  # dealer A up, K in the hole
    assert rnd.insurance_turn == (1, "ann")
    rnd.insure(5)
    assert rnd.phase is Phase.COMPLETE
    assert rnd.bankrolls == {"ann": 100}  # insurance +10, wager -10
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-3")
def test_peek_game_without_dealer_blackjack_plays_on_with_the_hole_card() -> None:
    rnd = dealt("9c Td 9d 7h", rules=PEEK)
    dealer_events = [e for e in rnd.events if isinstance(e, ev.DealerCard)]
    assert [(e.card, e.hidden) for e in dealer_events] == [(card("Td"), False), (card("7h"), True)]
    assert hand_to_play(rnd) == (1, 0)
    rnd.stand()
    assert rnd.dealer_cards == parse_cards("Td 7h")
    assert rnd.bankrolls == {"ann": 110}
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-3")
def test_no_hole_card_dealer_has_one_card_while_boxes_play() -> None:
    rnd = dealt("9c Td 9d Ac")
    assert rnd.dealer_cards == (card("Td"),)
    assert hand_to_play(rnd) == (1, 0)
    rnd.stand()
    assert rnd.dealer_cards == parse_cards("Td Ac")
    assert outcome(rnd, 1).outcome == "dealer blackjack"


@pytest.mark.rule("Decision 3.1-4", "Blackjack 11.7")
@pytest.mark.parametrize(
    ("takes", "lost"), [(DealerBlackjackTakes.ORIGINAL, 10), (DealerBlackjackTakes.ALL, 20)]
)
def test_dealer_blackjack_against_a_double(takes: DealerBlackjackTakes, lost: int) -> None:
    rnd = dealt("6c Td 5h 9s As", rules=NZ.with_(dealer_blackjack_takes_doubles=takes))
    rnd.double()  # 6 5 9 = 20 against T A
    assert net(rnd) == -lost
    assert rnd.bankrolls == {"ann": 100 - lost}
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-4", "Blackjack 11.7")
@pytest.mark.parametrize(
    ("takes", "lost"), [(DealerBlackjackTakes.ORIGINAL, 10), (DealerBlackjackTakes.ALL, 20)]
)
def test_dealer_blackjack_against_a_split(takes: DealerBlackjackTakes, lost: int) -> None:
    rnd = dealt("9c Td 9d Th 8s As", rules=NZ.with_(dealer_blackjack_takes_splits=takes))
    rnd.split()
    rnd.stand()
    rnd.stand()
    assert net(rnd) == -lost
    assert rnd.bankrolls == {"ann": 100 - lost}
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-4", "Blackjack 11.7")
@pytest.mark.parametrize(
    ("splits", "doubles", "lost"),
    [
        (DealerBlackjackTakes.ORIGINAL, DealerBlackjackTakes.ORIGINAL, 10),
        (DealerBlackjackTakes.ALL, DealerBlackjackTakes.ORIGINAL, 20),
        (DealerBlackjackTakes.ORIGINAL, DealerBlackjackTakes.ALL, 20),
        (DealerBlackjackTakes.ALL, DealerBlackjackTakes.ALL, 30),
    ],
)
def test_dealer_blackjack_against_a_double_after_split(
    splits: DealerBlackjackTakes, doubles: DealerBlackjackTakes, lost: int
) -> None:
    rules = NZ.with_(dealer_blackjack_takes_splits=splits, dealer_blackjack_takes_doubles=doubles)
    rnd = dealt("9c Td 9d 2h Tc 9s As", rules=rules)
    rnd.split()
    rnd.double()  # 9 2 T = 21 on 20
    rnd.stand()  # 9 9
    assert rnd.on_table == 0
    assert net(rnd) == -lost
    assert rnd.bankrolls == {"ann": 100 - lost}
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-4", "Blackjack 11.7")
def test_dealer_blackjack_settles_each_hand_by_its_own_setting() -> None:
    rules = NZ.with_(
        dealer_blackjack_takes_splits=DealerBlackjackTakes.ALL,
        dealer_blackjack_takes_doubles=DealerBlackjackTakes.ORIGINAL,
    )
    rnd = dealt("8c Td 8d 3h Ks Tc As", rules=rules)
    rnd.split()
    rnd.double()  # 8 3 K = 21 on 20
    rnd.stand()  # 8 T
    assert net(rnd) == -20
    assert [(s.stake, s.net) for s in settled(rnd)] == [(20, -10), (10, -10)]


@pytest.mark.rule("Decision 3.1-5")
@pytest.mark.parametrize(
    ("double_on", "pair", "allowed"),
    [
        (DoubleOn.ANY, "Tc 6d", True),
        (DoubleOn.ANY, "Ac 7d", True),
        (DoubleOn.ANY, "2c 3d", True),
        (DoubleOn.NINE_TO_ELEVEN, "5c 4d", True),
        (DoubleOn.NINE_TO_ELEVEN, "6c 4d", True),
        (DoubleOn.NINE_TO_ELEVEN, "6c 5d", True),
        (DoubleOn.NINE_TO_ELEVEN, "5c 3d", False),
        (DoubleOn.NINE_TO_ELEVEN, "7c 5d", False),
        (DoubleOn.NINE_TO_ELEVEN, "Ac 8d", False),
        (DoubleOn.TEN_ELEVEN, "5c 4d", False),
        (DoubleOn.TEN_ELEVEN, "6c 4d", True),
        (DoubleOn.TEN_ELEVEN, "Ac 9d", False),
        (DoubleOn.TEN_ELEVEN, "6c 5d", True),
    ],
)
def test_double_on_setting(double_on: DoubleOn, pair: str, allowed: bool) -> None:
    first, second = pair.split()
    rnd = dealt(f"{first} 7d {second}", rules=NZ.with_(double_on=double_on))
    assert rnd.can_double() is allowed
    assert ("double" in rnd.legal_actions()) is allowed
    if not allowed:
        assert rejected(rnd, "double") == "Decision 3.1-5"


@pytest.mark.rule("Decision 3.1-5")
@pytest.mark.parametrize("das", [True, False])
def test_double_after_split_setting(das: bool) -> None:
    rnd = dealt("9c 7d 9d 2h", rules=NZ.with_(double_after_split=das))
    rnd.split()  # the first hand: 9 2 = 11
    assert rnd.can_double() is das
    if not das:
        assert rejected(rnd, "double") == "Decision 3.1-5"


@pytest.mark.rule("Decision 3.1-5")
def test_double_only_on_the_first_two_cards_and_only_when_covered() -> None:
    rnd = dealt("2c 7d 3h 4s")
    rnd.hit()  # 2 3 4 = 9
    assert rejected(rnd, "double") == "Decision 3.1-5"
    rnd = dealt("6c 7d 5h", bankrolls={"ann": 15})  # 5 left: cannot cover a double of 10
    assert rnd.legal_actions().names == ("hit",)
    assert rejected(rnd, "double") == "Decision 3.1-5"


@pytest.mark.rule("Decision 3.1-6")
@pytest.mark.parametrize(
    ("wager", "unit", "cap"), [(10, 1, 5), (15, 1, 7), (15, 5, 5), (20, 5, 10), (100, 1, 50)]
)
def test_insurance_is_capped_at_half_the_wager(wager: int, unit: int, cap: int) -> None:
    rules = NZ.with_(chip_unit=unit)
    rnd = dealt("Tc Ad 8h Kc", rules=rules, wagers=[(1, "ann", wager)], bankrolls={"ann": 200})
    assert rnd.can_insure(cap)
    assert not rnd.can_insure(cap + unit)
    assert rejected(rnd, "insure", cap + unit) == "Decision 3.1-6"
    assert rejected(rnd, "insure", -unit) == "Decision 3.1-6"
    if unit > 1:
        assert rejected(rnd, "insure", cap - 1) == "Decision 3.1-6"  # not in chips
    rnd.insure(cap)
    rnd.stand()  # dealer A K: insurance pays 2:1, the wager loses
    assert net(rnd) == 2 * cap - wager
    assert rnd.bankrolls == {"ann": 200 + 2 * cap - wager}
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-6")
def test_insurance_only_against_an_ace_and_only_where_offered() -> None:
    rnd = dealt("Tc Kd 8h 9c")
    assert rnd.insurance_turn is None
    assert rejected(rnd, "insure", 5) == "Decision 3.1-6"
    rnd = dealt("Tc Ad 8h 9c", rules=NZ.with_(insurance=False))
    assert rnd.insurance_turn is None
    assert hand_to_play(rnd) == (1, 0)


@pytest.mark.rule("Decision 3.1-6")
def test_insurance_is_decided_by_each_player_and_settled_after_the_second_card() -> None:
    # box 1: ann 10 and cy 20; box 2: bo 10. Dealer A, then K (blackjack).
    rnd = dealt(
        "Tc 9c Ad 8h 9d Kc",
        wagers=[(1, "ann", 10), (1, "cy", 20), (2, "bo", 10)],
    )
    order = []
    while rnd.insurance_turn is not None:
        box, player = rnd.insurance_turn
        order.append((box, player))
        rnd.insure({"ann": 5, "cy": 0, "bo": 5}[player])
    assert order == [(1, "ann"), (1, "cy"), (2, "bo")]
    assert rnd.dealer_cards == (card("Ad"),)  # no hole card: insurance waits for the second
    rnd.stand()
    rnd.stand()
    assert rnd.bankrolls == {"ann": 100, "cy": 80, "bo": 100}
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-6")
def test_insurance_still_settles_when_every_hand_busts() -> None:
    rnd = dealt("Tc Ad 6h Kc Kd")  # ann T 6 insures 5, draws K; the dealer's K still comes
    rnd.insure(5)
    rnd.hit()
    assert rnd.dealer_cards == parse_cards("Ad Kd")
    assert rnd.bankrolls == {"ann": 100}  # bust -10, insurance +10
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-6")
@pytest.mark.parametrize("second", ["Kd", "9d"])
def test_even_money_pays_one_to_one_whatever_the_second_card(second: str) -> None:
    rules = NZ.with_(even_money=True)
    rnd = dealt(f"As 9c Ac Kh Tc {second}", rules=rules, wagers=[(1, "ann", 10), (2, "bo", 10)])
    assert rnd.insurance_turn == (1, "ann")
    assert rnd.can_even_money()
    rnd.even_money()
    assert rnd.insurance_turn == (2, "bo")
    assert not rnd.can_even_money()  # bo's 9 T is no blackjack
    assert rejected(rnd, "even_money") == "Decision 3.1-6"
    rnd.insure(0)
    rnd.stand()
    assert net(rnd, "ann") == 10
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-6")
def test_even_money_not_offered_by_default() -> None:
    rnd = dealt("As Ac Kh 9d")
    assert not rnd.can_even_money()
    assert rejected(rnd, "even_money") == "Decision 3.1-6"
    rnd.insure(0)
    assert net(rnd) == 15


@pytest.mark.rule("Decision 3.1-6")
def test_even_money_with_a_six_to_five_table_pays_one_to_one() -> None:
    rules = NZ.with_(even_money=True, blackjack_pays=Fraction(6, 5))
    rnd = dealt("As Ac Kh 9d", rules=rules)
    rnd.even_money()
    assert net(rnd) == 10


@pytest.mark.rule("Decision 3.1-6")
def test_even_money_on_an_odd_wager_pays_the_wager() -> None:
    rules = NZ.with_(even_money=True)
    for second in ("Kd", "9d"):
        rnd = dealt(f"As Ac Kh {second}", rules=rules, wagers=[(1, "ann", 15)])
        rnd.even_money()
        assert net(rnd) == 15, second


@pytest.mark.rule("Decision 3.1-6")
def test_even_money_offered_means_it_can_be_taken() -> None:
    rules = NZ.with_(even_money=True, chip_unit=5)
    rnd = dealt("As Ac Kh 9d", rules=rules, wagers=[(1, "ann", 15)])
    assert rnd.can_even_money()
    rnd.even_money()
    assert rnd.phase is Phase.COMPLETE


@pytest.mark.rule("Decision 3.1-6")
@pytest.mark.parametrize("second", ["Kd", "9d"])
def test_even_money_needs_no_further_chips(second: str) -> None:
    rules = NZ.with_(even_money=True)
    rnd = dealt(f"As Ac Kh {second}", rules=rules, bankrolls={"ann": 10})
    assert rnd.bankrolls == {"ann": 0}
    assert rnd.can_even_money()
    rnd.even_money()
    assert net(rnd) == 10


@pytest.mark.rule("Decision 3.1-7")
@pytest.mark.parametrize(
    ("pays", "unit", "wager", "win"),
    [
        (Fraction(3, 2), 1, 10, 15),
        (Fraction(3, 2), 1, 15, 22),  # 22.5 rounds down to the chip
        (Fraction(3, 2), 1, 25, 37),
        (Fraction(3, 2), 5, 15, 20),  # 22.5 rounds down to a 5 chip
        (Fraction(3, 2), 5, 20, 30),
        (Fraction(6, 5), 1, 10, 12),
        (Fraction(6, 5), 1, 11, 13),  # 13.2
        (Fraction(6, 5), 1, 15, 18),
        (Fraction(6, 5), 5, 15, 15),  # 18 rounds down to 15
        (Fraction(6, 5), 5, 25, 30),
    ],
)
def test_blackjack_payout_and_rounding(pays: Fraction, unit: int, wager: int, win: int) -> None:
    rules = NZ.with_(blackjack_pays=pays, chip_unit=unit)
    rnd = dealt("As 9d Kh 7c", rules=rules, wagers=[(1, "ann", wager)])
    result = outcome(rnd, 1)
    assert (result.outcome, result.net) == ("blackjack", win)
    assert rnd.bankrolls == {"ann": 100 + win}
    assert rnd.bank == -win
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-13")
def test_surrender_not_offered_by_default() -> None:
    rnd = dealt("Tc 9d 6h")
    assert "surrender" not in rnd.legal_actions()
    assert rejected(rnd, "surrender") == "Decision 3.1-13"


@pytest.mark.rule("Decision 3.1-13")
def test_late_surrender_setting() -> None:
    late = NZ.with_(surrender=Surrender.LATE)
    rnd = dealt("Tc 9d 6h 5s", rules=late)
    assert rnd.legal_actions().names == ("hit", "stand", "double", "surrender")
    rnd.surrender()
    result = outcome(rnd, 1)
    assert (result.outcome, result.net) == ("surrender", -5)
    assert rnd.bankrolls == {"ann": 95}
    # no live hand, yet the dealer's second card comes: a blackjack would void the surrender
    assert rnd.dealer_cards == (card("9d"), card("5s"))
    assert_over(rnd)
    rnd = dealt("Tc Kd 6h As", rules=late)  # no hole card: K then A is a blackjack
    rnd.surrender()
    result = outcome(rnd, 1)
    assert (result.outcome, result.net) == ("dealer blackjack", -10)
    assert rnd.bankrolls == {"ann": 90}
    assert_over(rnd)
    rnd = dealt("Tc 9d 2h 4s", rules=late)
    rnd.hit()
    assert rejected(rnd, "surrender") == "Decision 3.1-13"  # first two cards only
    rnd = dealt("8c 9d 8h 3s", rules=late)
    rnd.split()
    assert rejected(rnd, "surrender") == "Decision 3.1-13"  # not on a split hand
    # a peek game: a dealer blackjack ends the round before surrender; otherwise it is open
    rnd = dealt("Tc 9d 6h As", rules=NZ.with_(surrender=Surrender.LATE, hole_card=HoleCard.PEEK))
    assert hand_to_play(rnd) == (1, 0)  # dealer 9 A = 20: no blackjack
    rnd.surrender()
    assert rnd.bankrolls == {"ann": 95}
    rnd = dealt("Tc Kd 6h As", rules=NZ.with_(surrender=Surrender.LATE, hole_card=HoleCard.PEEK))
    assert rnd.phase is Phase.COMPLETE
    assert rnd.bankrolls == {"ann": 90}


@pytest.mark.rule("Decision 3.1-8")
def test_pairs_by_value_or_by_rank() -> None:
    assert is_pair(card("Kc"), card("Qd"), by_rank=False)
    assert not is_pair(card("Kc"), card("Qd"), by_rank=True)
    assert is_pair(card("Tc"), card("Jd"), by_rank=False)
    assert not is_pair(card("9c"), card("Td"), by_rank=False)
    rnd = dealt("Kc 7d Qh")
    assert NZ.pairs_by is PairsBy.VALUE
    assert "split" in rnd.legal_actions()
    rnd = dealt("Kc 7d Qh", rules=NZ.with_(pairs_by=PairsBy.RANK))
    assert "split" not in rnd.legal_actions()
    assert rejected(rnd, "split") == "Decision 3.1-8"
    rnd = dealt("Kc 7d Kh", rules=NZ.with_(pairs_by=PairsBy.RANK))
    assert "split" in rnd.legal_actions()


@pytest.mark.rule("Decision 3.1-14")
def test_table_minimum_maximum_and_chip_unit() -> None:
    rules = NZ.with_(table_minimum=10, table_maximum=50, chip_unit=5)
    rnd = BlackjackRound(rules, shoe("Tc 9d 8h 9c"), {"ann": 100, "bo": 40, "cy": 100})
    assert rejected(rnd, "place_wager", 1, "ann", 5) == "Decision 3.1-14"  # below the minimum
    assert rejected(rnd, "place_wager", 1, "ann", 12) == "Decision 3.1-14"  # not in chips
    assert rejected(rnd, "place_wager", 1, "ann", 55) == "Decision 3.1-14"  # over the maximum
    assert rejected(rnd, "place_wager", 1, "bo", 45) == "Decision 3.1-14"  # more than bo has
    assert rejected(rnd, "place_wager", 1, "dee", 10) == "Decision 3.1-14"  # not at the table
    assert rejected(rnd, "deal") == "Decision 3.1-14"  # no wager yet
    rnd.place_wager(1, "ann", 50)
    rnd.place_wager(1, "ann", 30)
    assert rejected(rnd, "place_wager", 1, "cy", 25) == "Decision 3.1-14"  # box over 50
    rnd.place_wager(1, "cy", 20)
    rnd.place_wager(2, "bo", 40)
    assert rnd.bankrolls == {"ann": 70, "bo": 0, "cy": 80}
    assert rnd.on_table == 90
    assert NZ.table_minimum == 10
    with pytest.raises(RuleViolationError):
        NZ.with_(table_minimum=20, table_maximum=10).validate()


@pytest.mark.rule("Decision 3.1-14")
def test_several_players_on_one_box_first_decides_each_stake_doubles() -> None:
    # ann (10) wagers first on box 1, then bo (20): ann decides; a double doubles both
    rnd = dealt("5c 7d 6h 9s Ts", wagers=[(1, "ann", 10), (1, "bo", 20)])
    assert rnd.boxes[1].owner == "ann"
    assert hand_to_play(rnd) == (1, 0)
    rnd.double()  # 5 6 9 = 20 against 7 T
    assert rnd.boxes[1].hands[0].stakes == {"ann": 20, "bo": 40}
    assert (net(rnd, "ann"), net(rnd, "bo")) == (20, 40)
    assert rnd.bankrolls == {"ann": 120, "bo": 140}
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-14", "Blackjack 11.1")
def test_several_players_on_one_box_split_needs_every_stake() -> None:
    cards = "8c 7d 8d 9h 9s Ts"
    rnd = dealt(cards, wagers=[(1, "ann", 10), (1, "bo", 10)], bankrolls={"ann": 100, "bo": 15})
    assert rnd.legal_actions().names == (
        "hit",
        "stand",
    )  # bo's 5 covers neither a split nor a double
    assert rejected(rnd, "split") == "Blackjack 11.1"
    assert rejected(rnd, "double") == "Decision 3.1-5"
    rnd = dealt(cards, wagers=[(1, "ann", 10), (1, "bo", 10)], bankrolls={"ann": 100, "bo": 20})
    rnd.split()
    assert rnd.bankrolls == {"ann": 80, "bo": 0}
    assert [h.stakes for h in rnd.boxes[1].hands] == [{"ann": 10, "bo": 10}] * 2
    rnd.stand()  # 8 9
    rnd.stand()  # 8 9
    assert rnd.bankrolls == {"ann": 100, "bo": 20}  # 17 ties the dealer's 7 T
    assert_over(rnd)


@pytest.mark.rule("Decision 3.1-14", "Blackjack 11.7")
def test_several_players_on_one_box_dealer_blackjack_after_a_split() -> None:
    rnd = dealt("9c Td 9d Th 8s As", wagers=[(1, "ann", 10), (1, "bo", 30)])
    rnd.split()
    rnd.stand()
    rnd.stand()
    assert (net(rnd, "ann"), net(rnd, "bo")) == (-10, -30)
    assert rnd.bankrolls == {"ann": 90, "bo": 70}
    assert_over(rnd)


# --------------------------------------------------------------------------- the table


def table_with(cards: str, cut: Fraction, rules: BlackjackRules = NZ) -> BlackjackTable:
    """A table whose first shoe is stacked; later shoes are shuffled full shoes."""
    stacked = Shoe(rules.decks, cards=parse_cards(cards, unique=False), penetration=cut, seed=3)
    return BlackjackTable(rules, shoe=stacked)


@pytest.mark.rule("Decision 3.1-15")
@pytest.mark.parametrize("cut", [Fraction(2, 5), Fraction(4, 5), Fraction(1)])
def test_table_reshuffles_after_the_cut_card_and_burns_on_a_new_shoe(cut: Fraction) -> None:
    # burn 2c; ann T 8 against 9 9. The cut card comes out mid-round (2/5), at the last card
    # (4/5) or exactly at the end (1): the round is finished from the same shoe either way.
    table = table_with("2c Tc 9d 8h 9c", cut)
    rnd = table.new_round({"ann": 100})
    rnd.place_wager(1, "ann", 10)
    rnd.deal()
    assert rnd.shoe.burned == (card("2c"),)
    assert isinstance(rnd.events[2], ev.CardBurned)
    rnd.stand()
    assert rnd.dealer_cards == parse_cards("9d 9c")
    assert table.shoe.cut_card_reached
    assert table.shuffles == 0
    rnd = table.new_round(rnd.bankrolls)
    assert table.shuffles == 1
    assert len(table.shoe) == 6 * 52
    rnd.place_wager(1, "ann", 10)
    rnd.deal()
    assert sum(isinstance(e, ev.CardBurned) for e in rnd.events) == 1
    assert len(table.shoe.burned) == 1
    assert len(table.shoe) == 6 * 52 - 4  # burn, two cards to the box, one to the dealer


@pytest.mark.rule("Decision 3.1-15")
def test_table_deals_on_from_the_same_shoe_before_the_cut_card() -> None:
    table = table_with("2c Tc 9d 8h 9c 7s 5d Kh 8c 9s", Fraction(1))
    rnd = table.new_round({"ann": 100})
    rnd.place_wager(1, "ann", 10)
    rnd.deal()
    rnd.stand()
    assert not table.shoe.cut_card_reached
    rnd = table.new_round(rnd.bankrolls)
    assert table.shuffles == 0
    rnd.place_wager(1, "ann", 10)
    rnd.deal()
    assert not any(isinstance(e, ev.CardBurned) for e in rnd.events)  # not a new shoe
    assert rnd.boxes[1].hands[0].cards == list(parse_cards("7s Kh"))
    assert rnd.dealer_cards == (card("5d"),)
    rnd.stand()  # 17 against the dealer's 5 8 9 = 22
    assert rnd.dealer_cards == parse_cards("5d 8c 9s")
    assert rnd.bankrolls == {"ann": 110}
    assert len(table.shoe) == 0


@pytest.mark.rule("Decision 3.1-15")
def test_table_burn_on_new_shoe_setting() -> None:
    table = BlackjackTable(NZ.with_(burn_on_new_shoe=False), seed=4)
    rnd = table.new_round({"ann": 100})
    rnd.place_wager(1, "ann", 10)
    rnd.deal()
    assert not any(isinstance(e, ev.CardBurned) for e in rnd.events)
    assert table.shoe.burned == ()
    dealt_cards = sum(isinstance(e, ev.CardDealt | ev.DealerCard) for e in rnd.events)
    assert len(table.shoe) == 6 * 52 - dealt_cards
    table = BlackjackTable(NZ, seed=4)
    rnd = table.new_round({"ann": 100})
    rnd.place_wager(1, "ann", 10)
    rnd.deal()
    assert sum(isinstance(e, ev.CardBurned) for e in rnd.events) == 1
    assert len(table.shoe.burned) == 1
    dealt_cards = sum(isinstance(e, ev.CardDealt | ev.DealerCard) for e in rnd.events)
    assert len(table.shoe) == 6 * 52 - 1 - dealt_cards


@pytest.mark.rule("Decision 3.1-15", "Decision 3.1-2")
def test_table_never_runs_out_of_cards() -> None:
    with pytest.raises(RuleViolationError) as info:  # a cut card at the very end is refused
        NZ.with_(penetration=Fraction(1)).validate_for_play()
    assert info.value.rule == "Decision 3.1-15"
    rules = NZ.with_(penetration=Fraction(11, 12))  # 26 cards behind the cut card
    rules.validate_for_play()
    table = BlackjackTable(rules, seed=1)
    bankrolls = {"ann": 10**6}
    for _ in range(200):
        rnd = table.new_round(bankrolls)
        rnd.place_wager(1, "ann", 10)
        rnd.deal()
        while rnd.insurance_turn is not None:
            rnd.insure(0)
        while hand_to_play(rnd) is not None:
            rnd.stand() if rnd.can_stand() else rnd.hit()
        bankrolls = rnd.bankrolls
    assert table.shuffles >= 1
