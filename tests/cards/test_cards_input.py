"""Issue 10, point 15 (fuzz findings): decks, shoes and the card parser refuse a value of the
wrong kind with a one-line CroupierError, and a refused call leaves the deck or shoe as it was.
Counts and seeds are whole numbers (any ``numbers.Integral`` but bool); a penetration is exact
(a Fraction, an int or text such as ``"3/4"``), never a float."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from croupier.cards import Card, Deck, EmptyDeckError, Shoe, parse_cards
from croupier.errors import CardParseError, CroupierError, DuplicateCardError

AS, KD, QH = parse_cards("As Kd Qh")


def _np(value: Any) -> Any:
    """A numpy integer typed as Any: the public signatures say ``int``, any Integral works."""
    return value


def _state(deck: Deck) -> tuple[tuple[Card, ...], ...]:
    return (deck.remaining, deck.dealt, deck.burned, deck.discards)


def _one_line(exc: pytest.ExceptionInfo[BaseException]) -> str:
    text = str(exc.value)
    assert text
    assert "\n" not in text
    return text


# --------------------------------------------------------------------------- Deck()


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([None], "must be Card objects, not None"),
        ([[]], r"must be Card objects, not \[\]"),
        ([AS, "Kd"], "must be Card objects, not 'Kd'"),
        (None, "must be an iterable of Card objects, not None"),
        (42, "must be an iterable of Card objects, not 42"),
        ("As Kd", "must be Card objects, not text"),
    ],
)
def test_a_deck_holds_only_cards(cards: Any, message: str) -> None:
    with pytest.raises(CroupierError, match=message) as exc:
        Deck(cards, shuffle=False)
    _one_line(exc)


@pytest.mark.parametrize("seed", [1.5, 2.0, "7", True, object(), Decimal(3), Fraction(3), -1])
def test_a_deck_seed_is_a_whole_number_from_0(seed: Any) -> None:
    with pytest.raises(CroupierError, match="a seed must be"):
        Deck.standard(seed=seed)


def test_a_numpy_seed_shuffles_as_the_int() -> None:
    deck = Deck.standard(seed=_np(np.int64(12)))
    assert deck.seed == 12
    assert type(deck.seed) is int
    assert deck.remaining == Deck.standard(seed=12).remaining


@pytest.mark.parametrize("rng", [5, "x", object()])
def test_a_deck_rng_must_shuffle(rng: Any) -> None:
    with pytest.raises(CroupierError, match=r"rng must be a random\.Random"):
        Deck([], rng=rng)


def test_an_injected_rng_still_shuffles() -> None:
    assert Deck.standard(rng=random.Random(4)).remaining == Deck.standard(seed=4).remaining


@pytest.mark.parametrize("shuffle", [1, 0, "no", None])
def test_shuffle_is_true_or_false(shuffle: Any) -> None:
    with pytest.raises(CroupierError, match="shuffle must be True or False"):
        Deck([AS], shuffle=shuffle)


# --------------------------------------------------------------------------- Deck methods


@pytest.mark.parametrize(
    "n", [0.0, 1.0, 2.5, "2", None, True, Decimal("NaN"), Decimal(1), Fraction(1), -1.0]
)
@pytest.mark.parametrize("method", ["draw", "peek"])
def test_a_card_count_is_a_whole_number(method: str, n: Any) -> None:
    deck = Deck.standard(seed=1)
    before = _state(deck)
    with pytest.raises(CroupierError, match="must be a whole number") as exc:
        getattr(deck, method)(n)
    _one_line(exc)
    assert _state(deck) == before


@pytest.mark.parametrize("n", [-1, -128, np.int8(-128), np.int64(-1)])
@pytest.mark.parametrize("method", ["draw", "peek"])
def test_a_negative_card_count_is_refused(method: str, n: Any) -> None:
    deck = Deck.standard(seed=1)
    before = _state(deck)
    with pytest.raises(CroupierError, match="must be at least 0"):
        getattr(deck, method)(n)
    assert _state(deck) == before


def test_numpy_counts_deal_like_ints() -> None:
    deck = Deck.stacked("As Kd Qh")
    assert deck.peek(_np(np.int8(2))) == (AS, KD)
    assert deck.draw(_np(np.int64(2))) == (AS, KD)
    assert deck.peek(_np(np.uint8(0))) == ()


@pytest.mark.parametrize("cards", [0, None, "As", [None], [AS, 1]])
@pytest.mark.parametrize("method", ["put_on_top", "discard", "reuse_discards"])
def test_card_arguments_are_cards(method: str, cards: Any) -> None:
    deck = Deck.stacked("As Kd Qh")
    deck.discard(deck.draw(1))
    before = _state(deck)
    with pytest.raises(CroupierError, match="Card objects") as exc:
        getattr(deck, method)(cards)
    _one_line(exc)
    assert _state(deck) == before


def test_a_card_is_not_discarded_twice_in_one_call() -> None:
    deck = Deck.stacked("As Kd")
    deck.draw(1)
    with pytest.raises(DuplicateCardError):
        deck.discard([AS, AS])
    assert deck.discards == ()


def test_reused_discards_go_back_only_once() -> None:
    deck = Deck.stacked("As Kd")
    deck.discard(deck.draw(1))
    deck.reuse_discards([AS])
    before = _state(deck)
    with pytest.raises(DuplicateCardError, match="already back in the deck"):
        deck.reuse_discards([AS])
    assert _state(deck) == before
    assert deck.draw(2) == (KD, AS)


# --------------------------------------------------------------------------- Shoe


@pytest.mark.parametrize(
    ("decks", "message"),
    [
        (None, "a whole number, not None"),
        (1.5, "a whole number, not 1.5"),
        ("6", "a whole number, not '6'"),
        (True, "a whole number, not True"),
        (0, "at least 1, not 0"),
        (-2, "at least 1, not -2"),
        (10**9, "at most 1000 decks"),
    ],
)
def test_a_shoe_holds_a_whole_number_of_decks(decks: Any, message: str) -> None:
    with pytest.raises(CroupierError, match=message) as exc:
        Shoe(decks)
    _one_line(exc)


def test_a_numpy_deck_count_is_an_int() -> None:
    shoe = Shoe(_np(np.int64(2)), seed=1)
    assert shoe.decks == 2
    assert type(shoe.decks) is int
    assert len(shoe) == 104


@pytest.mark.parametrize(
    "penetration", [0.75, 1.0, np.float64(0.5), Decimal("0.75"), object(), None, True, "x", "3/0"]
)
def test_a_penetration_is_exact(penetration: Any) -> None:
    with pytest.raises(CroupierError, match="penetration must be a Fraction, an int or text"):
        Shoe(1, penetration=penetration)


def test_penetration_text_with_a_huge_exponent_is_refused_at_once() -> None:
    with pytest.raises(CroupierError, match="penetration must be"):
        Shoe(1, penetration="1e-99999999999")


@pytest.mark.parametrize(
    ("penetration", "position"), [("3/4", 234), (" 0.5 ", 156), (np.int64(1), 312)]
)
def test_exact_penetrations_are_read(penetration: Any, position: int) -> None:
    assert Shoe(6, penetration=penetration, seed=1).cut_card_position == position


@pytest.mark.parametrize(
    "kwargs", [{"seed": object()}, {"seed": 1.5}, {"seed": -1}, {"rng": 5}, {"cards": [None]}]
)
def test_shoe_settings_of_the_wrong_kind_are_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(CroupierError):
        Shoe(1, **kwargs)


def test_draw_many_past_the_end_deals_nothing() -> None:
    shoe = Shoe(1, seed=0)
    with pytest.raises(EmptyDeckError, match="cannot deal 53 card"):
        shoe.draw_many(53)
    assert len(shoe) == 52
    assert not shoe.cut_card_reached
    assert shoe.draw_many(52) == Shoe(1, seed=0).draw_many(52)
    assert len(shoe) == 0


@pytest.mark.parametrize("n", ["2", 2.0, None, True, -1])
def test_draw_many_takes_a_whole_number(n: Any) -> None:
    shoe = Shoe(1, seed=0)
    with pytest.raises(CroupierError):
        shoe.draw_many(n)
    assert len(shoe) == 52


def test_draw_many_deals_from_the_top_and_counts_to_the_cut_card() -> None:
    shoe = Shoe(1, penetration=Fraction(1, 2), cards=parse_cards("As Kd Qh"))
    assert shoe.draw_many(0) == ()
    assert shoe.draw_many(_np(np.int64(2))) == (AS, KD)
    assert shoe.draw() == QH
    assert shoe.cut_card_position == 1
    assert shoe.cut_card_reached


@pytest.mark.parametrize("cards", [0, None, [None], "As"])
def test_shoe_discards_are_cards(cards: Any) -> None:
    shoe = Shoe(1, seed=0)
    with pytest.raises(CroupierError, match="Card objects"):
        shoe.discard(cards)
    assert shoe.discards == ()


# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize("text", [42, object(), None, 1.5, [42], ["As", None], b"As"])
def test_parse_cards_refuses_what_is_no_card_text(text: Any) -> None:
    with pytest.raises(CardParseError) as exc:
        parse_cards(text)
    _one_line(exc)


def test_parse_cards_reads_text_items_and_cards() -> None:
    assert parse_cards(["AsKd", QH]) == (AS, KD, QH)
    assert parse_cards(("As", "Kd")) == (AS, KD)


@pytest.mark.parametrize("unique", [1, None, "yes"])
def test_parse_cards_unique_is_a_flag(unique: Any) -> None:
    with pytest.raises(CroupierError, match="unique must be True or False"):
        parse_cards("As", unique=unique)


@pytest.mark.parametrize("text", [None, [], 42, b"As", ["As"]])
def test_card_parse_takes_text(text: Any) -> None:
    with pytest.raises(CardParseError, match="a card must be text") as exc:
        Card.parse(text)
    _one_line(exc)
