"""What the evaluator says about particular hands: names, best five, own cards, errors."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import numpy.typing as npt
import pytest

from croupier.cards import Card, parse_cards
from croupier.errors import CroupierError, DuplicateCardError, HandSizeError
from croupier.evaluation import (
    EXACTLY_TWO_PLUS_THREE,
    STANDARD,
    STRIPPED,
    Category,
    evaluate,
    evaluate_batch,
    evaluate_omaha,
    evaluate_omaha_batch,
    evaluate_split_batch,
    rank_cards,
)


def _cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# --------------------------------------------------------------------------- descriptions


@pytest.mark.parametrize("suit", "cdhs")
def test_seven_card_flush_each_suit(suit: str) -> None:
    others = {"c": "Kd Qh", "d": "Kc Qh", "h": "Kc Qd", "s": "Kc Qd"}[suit]
    text = f"A{suit} 9{suit} 7{suit} 4{suit} 2{suit} {others}"
    hand = evaluate(text)
    assert hand.category is Category.FLUSH
    assert hand.describe() == "Flush, ace high"
    assert hand.best_five == _cards(f"A{suit} 9{suit} 7{suit} 4{suit} 2{suit}")
    assert rank_cards(text) == hand.rank
    assert evaluate_batch([[c.index for c in _cards(text)]]).tolist() == [hand.rank]


@pytest.mark.parametrize(
    ("own", "board", "text"),
    [
        ("Ah 9h 7h 4h 2h Kc Qd", "", "Flush, ace high"),
        ("Kh Kd", "9s 9c 2d 5h 7c", "Two pair, kings and nines"),
        ("Ks Kh Kd 9c 9d", "", "Full house, kings full of nines"),
        ("Ah 2d 3c 4s 5h", "", "Straight, five high"),
        ("As Ks Qs Js Ts", "", "Royal flush"),
        ("Ad Kd", "Qd Jd Td 2c 2s", "Royal flush"),
        ("9h 8h 7h 6h 5h", "", "Straight flush, nine high"),
        ("5c 4c 3c 2c Ac", "", "Straight flush, five high"),
        ("7c 7d 7h 7s Ac", "", "Four of a kind, sevens"),
        ("6c 6d 6h Ks 2c", "", "Three of a kind, sixes"),
        ("6c 6d Ah Ks 2c", "", "Pair of sixes"),
        ("2c 3d 4h 5s 7c", "", "High card, seven"),
        ("Ac Kd Qh Js 9c", "", "High card, ace"),
        ("Tc Jd Qh Ks Ac", "", "Straight, ace high"),
    ],
)
def test_descriptions(own: str, board: str, text: str) -> None:
    hand = evaluate(own, board=board)
    assert hand.describe() == text
    assert str(hand) == text


def test_worst_and_best_hands() -> None:
    assert rank_cards("2c 3d 4h 5s 7c") == 1
    assert rank_cards("7c 5s 4h 3d 2c") == 1
    for suit in "cdhs":
        assert rank_cards(f"A{suit} K{suit} Q{suit} J{suit} T{suit}") == 7462


def test_best_five_display_order() -> None:
    assert evaluate("Ah 2d 3c 4s 5h").best_five_text == "5h 4s 3c 2d Ah"
    assert evaluate("9c Ks 9d Kh Kd").best_five_text == "Ks Kh Kd 9d 9c"
    assert evaluate("Ks 9h", board="Kd 9c 2s 5h 3c").best_five_text == "Ks Kd 9h 9c 5h"
    hand = evaluate("Kh Kd", board="9s 9c 2d 5h 7c")
    assert hand.best_five_text == "Kh Kd 9s 9c 7c"
    assert hand.own_cards == _cards("Kh Kd")
    data = hand.to_dict()
    assert data["category"] == "two_pair"
    assert data["best_five"] == ["Kh", "Kd", "9s", "9c", "7c"]
    assert data["own_cards_used"] == ["Kh", "Kd"]
    assert data["ranking"] == "standard"


# --------------------------------------------------------------------------- rank of hands


@pytest.mark.rule("Poker 5")
def test_wheel_is_the_lowest_straight() -> None:
    wheel = evaluate("Ah 2d 3c 4s 5h")
    six_high = evaluate("2h 3d 4c 5s 6h")
    assert wheel.category is Category.STRAIGHT
    assert wheel < six_high
    assert wheel > evaluate("Ah Ad Ac Ks Qh")  # still beats any three of a kind
    assert evaluate("Ac 2c 3c 4c 5c") < evaluate("2d 3d 4d 5d 6d")
    assert evaluate("Ac 2c 3c 4c 5c").category is Category.STRAIGHT_FLUSH


@pytest.mark.rule("Poker 5")
@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Qh Kd As 2c 3d", Category.HIGH_CARD),
        ("Kc As 2d 3h 4s", Category.HIGH_CARD),
        ("Jc Qh Kd As 2c", Category.HIGH_CARD),
        ("Qh Kh Ah 2h 3h", Category.FLUSH),
    ],
)
def test_no_wrap_around_straight(text: str, category: Category) -> None:
    assert evaluate(text).category is category
    # below the lowest straight (flush) of its kind
    lowest = "Ah 2d 3c 4s 5h" if category is Category.HIGH_CARD else "Ac 2c 3c 4c 5c"
    assert rank_cards(text) < rank_cards(lowest)


@pytest.mark.rule("Poker 5")
def test_no_wrap_around_in_seven_cards() -> None:
    assert evaluate("Qh Kd", board="As 2c 3d 8h 9s").category is Category.HIGH_CARD
    assert evaluate("Kc As 2d 3h 4s", ranking=STANDARD).category is Category.HIGH_CARD
    assert evaluate("Kc Qs Ad 7h 8s", ranking=STRIPPED).category is Category.HIGH_CARD


@pytest.mark.rule("Poker 5")
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("As Kd Qh Jc 9s", "Ac Kh Qd Js 9d"),
        ("As Ks Qs Js Ts", "Ah Kh Qh Jh Th"),
        ("Ac 9c 7c 4c 2c", "Ad 9d 7d 4d 2d"),
        ("Ah 9h 7h 4h 2h", "As 9s 7s 4s 2s"),
        ("Kh Kd 9s 9c 5h", "Ks Kc 9h 9d 5s"),
        ("7c 8d 9h Ts Jc", "7s 8h 9d Tc Jd"),
    ],
)
def test_suits_never_rank_hands(a: str, b: str) -> None:
    assert evaluate(a).rank == evaluate(b).rank
    assert evaluate(a) == evaluate(b)
    assert not evaluate(a) < evaluate(b)
    assert not evaluate(a) > evaluate(b)


@pytest.mark.rule("Poker 5")
def test_suits_never_rank_holdem_hands() -> None:
    board = "Kc Qd Jh 4s 2c"
    assert evaluate("As Ts", board=board) == evaluate("Ac Tc", board=board)
    assert evaluate("Ah 3h", board=board) == evaluate("Ad 3s", board=board)


def test_kickers_decide() -> None:
    assert evaluate("Ac Ad Kh 9s 3c") > evaluate("As Ah Qc Jd Tc")
    assert evaluate("Ac Ad Kh 9s 4c") > evaluate("As Ah Kc 9d 3c")
    assert evaluate("Kh Kd", board="9s 9c 2d 5h Ac") > evaluate("Kh Kd", board="9s 9c 2d 5h Qc")
    # the sixth and seventh cards never play
    assert evaluate("Ac Ad", board="Kh Qs Jc 3d 2h") == evaluate("Ah As", board="Kc Qd Jh 4c 3s")


def test_category_order_standard() -> None:
    ladder = [
        "As Kd Qh Jc 9s",
        "2c 2d 3h 4s 5c",
        "2c 2d 3h 3s 4c",
        "2c 2d 2h 3s 4c",
        "Ah 2d 3c 4s 5h",
        "2c 3c 4c 5c 7c",
        "2c 2d 2h 3s 3c",
        "2c 2d 2h 2s 3c",
        "Ac 2c 3c 4c 5c",
    ]
    hands = [evaluate(t) for t in ladder]
    assert [h.category for h in hands] == list(Category)
    assert hands == sorted(hands)
    assert all(a < b for a, b in pairwise(hands))


# --------------------------------------------------------------------------- own cards


def test_holdem_board_plays() -> None:
    hand = evaluate("2c 3d", board="As Ks Qs Js Ts")
    assert hand.describe() == "Royal flush"
    assert hand.own_cards == ()
    assert hand.best_five_text == "As Ks Qs Js Ts"
    straight = evaluate("Kc 2d", board="5h 6c 7d 8s 9h")
    assert straight.describe() == "Straight, nine high"
    assert straight.own_cards == ()


def test_holdem_own_cards_used() -> None:
    hand = evaluate("Ac Td", board="Kc Qd Jh 4s 2c")
    assert hand.describe() == "Straight, ace high"
    assert set(hand.own_cards) == set(_cards("Ac Td"))
    one = evaluate("Ac 2d", board="Ad Kc Kh 9s 5c")
    assert one.describe() == "Two pair, aces and kings"
    assert one.own_cards == _cards("Ac")


@pytest.mark.rule("Omaha 17.5(e)")
def test_holdem_equal_choices_use_the_highest_card_by_suit() -> None:
    # either ten makes the same straight: the one used is the higher by suit
    hand = evaluate("Tc Ts", board="Ad Kc Qh Jd 3s")
    assert hand.describe() == "Straight, ace high"
    assert hand.own_cards == _cards("Ts")
    hand = evaluate("Td Th", board="Ad Kc Qh Jd 3s")
    assert hand.own_cards == _cards("Th")


@pytest.mark.rule("Omaha 17.5(e)")
def test_omaha_equal_choices_use_the_highest_cards_by_suit() -> None:
    hand = evaluate_omaha("Ac Tc As Ts", "Kc Qd Jh 5h 4h")
    assert hand.describe() == "Straight, ace high"
    assert set(hand.own_cards) == set(_cards("As Ts"))
    assert max(hand.own_cards) == Card.parse("As")
    hand = evaluate_omaha("Ac Th Ad Tc", "Kc Qd Jh 5h 4h")
    assert set(hand.own_cards) == set(_cards("Ad Th"))


@pytest.mark.rule("Omaha 17.5(d)")
def test_omaha_exactly_two_plus_three_not_a_royal() -> None:
    hand = evaluate_omaha("As Ah Ks Qs", "Js Ts 2s 3d 4c")
    assert hand.category is Category.FLUSH
    assert hand.describe() == "Flush, ace high"
    assert hand.best_five == _cards("As Ks Js Ts 2s")
    assert hand.own_cards == _cards("As Ks")
    assert hand.rank == rank_cards("As Ks Js Ts 2s")
    # the same nine cards as best-five-of-all would hold a royal flush
    assert rank_cards("As Ks Qs Js Ts") == 7462
    assert hand.rank < 7462
    same = evaluate("As Ah Ks Qs", board="Js Ts 2s 3d 4c", composition=EXACTLY_TWO_PLUS_THREE)
    assert same.rank == hand.rank
    batch = evaluate_omaha_batch([[c.index for c in _cards("As Ah Ks Qs")]],
                                 [[c.index for c in _cards("Js Ts 2s 3d 4c")]])  # fmt: skip
    assert batch.tolist() == [hand.rank]


@pytest.mark.rule("Omaha 17.5(d)")
def test_omaha_one_heart_in_hand_makes_no_flush() -> None:
    hand = evaluate_omaha("Ah Kc Qd 2s", "9h 7h 5h 3h Jc")
    assert hand.category is not Category.FLUSH
    assert hand.category is Category.HIGH_CARD
    assert len(hand.own_cards) == 2
    assert evaluate("Ah Kc", board="9h 7h 5h 3h Jc").category is Category.FLUSH


@pytest.mark.rule("Omaha 17.5(d)")
def test_omaha_cannot_play_the_board() -> None:
    hand = evaluate_omaha("Ac Kd Qh 2s", "5c 6d 7h 8s 9c")
    assert hand.category is not Category.STRAIGHT
    assert hand.category is Category.HIGH_CARD
    assert len(hand.own_cards) == 2
    assert evaluate("Ac Kd", board="5c 6d 7h 8s 9c").describe() == "Straight, nine high"
    # two hole cards that fit the run do make a straight
    assert evaluate_omaha("Tc Jd 2h 2s", "5c 6d 7h 8s 9c").describe() == "Straight, jack high"


@pytest.mark.rule("Omaha 17.5(d)")
def test_omaha_four_of_a_kind_on_board_needs_two_hole_cards() -> None:
    hand = evaluate_omaha("Ah Kc Qd 2s", "9h 9c 9d 9s Jc")
    assert hand.category is Category.THREE_OF_A_KIND
    assert evaluate("Ah Kc", board="9h 9c 9d 9s Jc").category is Category.FOUR_OF_A_KIND


# --------------------------------------------------------------------------- the 32-card deck


@pytest.mark.rule("Poker 4.1(b)")
def test_manila_a789t_is_the_lowest_straight() -> None:
    low = evaluate("Ah 7d 8c 9s Th", ranking=STRIPPED)
    assert low.category is Category.STRAIGHT
    assert low.describe() == "Straight, ten high"
    assert low.best_five_text == "Th 9s 8c 7d Ah"
    others = ["7h 8d 9c Ts Jh", "8h 9d Tc Js Qh", "9h Td Jc Qs Kh", "Th Jd Qc Ks Ah"]
    ranks = [evaluate(t, ranking=STRIPPED).rank for t in others]
    assert ranks == sorted(ranks)
    assert low.rank < ranks[0]
    assert low > evaluate("Ah Ad Ac Ks Qh", ranking=STRIPPED)
    # in the 52-card ranking the same cards are no straight
    assert evaluate("Ah 7d 8c 9s Th").category is Category.HIGH_CARD
    sf = evaluate("Ah 7h 8h 9h Th", ranking=STRIPPED)
    assert sf.category is Category.STRAIGHT_FLUSH
    assert sf < evaluate("7c 8c 9c Tc Jc", ranking=STRIPPED)


@pytest.mark.rule("Poker 4.1(b)")
def test_manila_flush_beats_full_house() -> None:
    lowest_flush = evaluate("7h 8h 9h Th Qh", ranking=STRIPPED)
    best_full_house = evaluate("As Ac Ad Ks Kc", ranking=STRIPPED)
    assert lowest_flush.category is Category.FLUSH
    assert best_full_house.category is Category.FULL_HOUSE
    assert lowest_flush > best_full_house
    assert lowest_flush < evaluate("7c 7d 7h 7s 8c", ranking=STRIPPED)
    # the standard ranking has it the other way round
    assert evaluate("7h 8h 9h Th Qh") < evaluate("As Ac Ad Ks Kc")
    for suit in "cdhs":
        flush = evaluate(f"7{suit} 8{suit} 9{suit} T{suit} Q{suit}", ranking=STRIPPED)
        assert flush.rank == lowest_flush.rank


@pytest.mark.rule("Poker 4.1(b)")
def test_manila_omaha_flush_beats_full_house() -> None:
    flush = evaluate_omaha("Ah Kh 7c 8d", "Qh 9h 7h Ac Ad", ranking=STRIPPED)
    assert flush.category is Category.FLUSH
    full = evaluate_omaha("As Ks 7s 8s", "Kd Kc Ah 9c Tc", ranking=STRIPPED)
    assert full.category is Category.FULL_HOUSE
    assert flush > full


@pytest.mark.rule("Poker 4.1(b)")
@pytest.mark.parametrize("text", ["6s 7s 8s 9s Ts", "2c 7d 8h 9s Ac", "As Ks Qs Js Ts 5d"])
def test_cards_outside_the_stripped_deck_are_rejected(text: str) -> None:
    bad = next(c for c in _cards(text) if c.rank < 5)
    with pytest.raises(CroupierError, match=str(bad)):
        evaluate(text, ranking=STRIPPED)
    with pytest.raises(CroupierError, match=str(bad)):
        rank_cards(text, ranking=STRIPPED)
    with pytest.raises(CroupierError):
        evaluate_batch([[c.index for c in _cards(text)]], ranking=STRIPPED)
    evaluate(text)  # fine in the 52-card deck


@pytest.mark.rule("Poker 4.1(b)")
def test_stripped_omaha_rejects_low_cards() -> None:
    with pytest.raises(CroupierError):
        evaluate_omaha("As Ks 6c 8d", "Qh 9h 7h Ac Ad", ranking=STRIPPED)
    with pytest.raises(CroupierError):
        evaluate_split_batch([[51, 47, 0, 30]], [[43, 39, 35, 31, 27]], ranking=STRIPPED)


def test_hands_of_different_rankings_do_not_compare() -> None:
    with pytest.raises(TypeError):
        _ = evaluate("As Ks Qs Js Ts") < evaluate("As Ks Qs Js Ts", ranking=STRIPPED)


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("text", ["As Kd Qh Jc", "As Kd Qh Jc Ts 9d 8h 7c", "", "As"])
def test_hand_size_errors(text: str) -> None:
    with pytest.raises(HandSizeError):
        rank_cards(text)
    with pytest.raises(HandSizeError):
        evaluate(text)


def test_hand_size_errors_with_a_board() -> None:
    with pytest.raises(HandSizeError):
        evaluate("As Kd", board="Qh Jc")
    with pytest.raises(HandSizeError):
        evaluate("As Kd", board="Qh Jc Ts 9d 8h 7c")
    with pytest.raises(HandSizeError):
        evaluate_omaha("As Kd Qh Jc", "Ts 9d")
    with pytest.raises(HandSizeError):
        evaluate_omaha("As", "Ts 9d 8h 7c 6c")


def test_duplicate_cards_rejected() -> None:
    with pytest.raises(DuplicateCardError):
        evaluate("As Kd", board="As 2c 3d")
    with pytest.raises(DuplicateCardError):
        rank_cards("As Kd As 2c 3d")
    with pytest.raises(DuplicateCardError):
        evaluate_omaha("As Kd Qh Jc", "Ts 9d 8h 7c As")


@pytest.mark.parametrize(
    "rows",
    [
        [0, 1, 2, 3, 4],  # one-dimensional
        [[0, 1, 2, 3]],  # four cards
        [[0, 1, 2, 3, 4, 5, 6, 7]],  # eight cards
        [[[0, 1, 2, 3, 4]]],  # three-dimensional
    ],
)
def test_batch_bad_shape(rows: npt.ArrayLike) -> None:
    with pytest.raises(HandSizeError):
        evaluate_batch(rows)


@pytest.mark.parametrize("bad", [52, 255, -1])
def test_batch_card_index_out_of_range(bad: int) -> None:
    with pytest.raises(CroupierError):
        evaluate_batch(np.array([[0, 5, 10, 15, bad]], dtype=np.int64))
    with pytest.raises(CroupierError):
        evaluate_omaha_batch([[0, 5, 10, 15]], [[20, 25, 30, 35, bad]])


def test_batch_duplicate_in_a_row() -> None:
    rows = [[0, 5, 10, 15, 20, 25, 30], [1, 6, 11, 16, 21, 26, 31], [1, 6, 11, 16, 21, 26, 1]]
    with pytest.raises(DuplicateCardError, match="row 2"):
        evaluate_batch(np.array(rows))
    assert evaluate_batch(np.array(rows[:2])).shape == (2,)
    with pytest.raises(DuplicateCardError, match="row 1"):
        evaluate_batch([[0, 5, 10, 15, 20], [0, 5, 10, 10, 20]])
    with pytest.raises(DuplicateCardError):
        evaluate_omaha_batch([[0, 5, 10, 15]], [[20, 25, 30, 35, 15]])


def test_batch_row_counts_must_match() -> None:
    with pytest.raises(HandSizeError):
        evaluate_omaha_batch([[0, 5, 10, 15], [1, 6, 11, 16]], [[20, 25, 30, 35, 40]])
    with pytest.raises(HandSizeError):
        evaluate_omaha_batch([[0, 5, 10, 15]], [[20, 25, 30, 35, 40, 45]])


def test_batch_accepts_lists_and_any_int_dtype() -> None:
    row = [51, 47, 43, 39, 35, 0, 1]
    expected = rank_cards([Card(c) for c in row])
    assert expected == 7462
    for dtype in (np.uint8, np.int16, np.int32, np.int64):
        assert evaluate_batch(np.array([row], dtype=dtype)).tolist() == [expected]
    assert evaluate_batch([row]).tolist() == [expected]
    assert evaluate_batch(np.empty((0, 7), dtype=np.uint8)).shape == (0,)
