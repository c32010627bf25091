"""Cards, ranks and suits: parsing, ordering, interning, immutability and pickling."""

from __future__ import annotations

import copy
import pickle
import random
from itertools import product

import pytest

from croupier.cards import Card, Rank, Suit, card_indices, format_cards, parse_cards
from croupier.errors import CardParseError, CroupierError, DuplicateCardError

RANK_TEXT = "23456789TJQKA"
SUIT_TEXT = "cdhs"


# --------------------------------------------------------------------------- parsing one card


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("As", Rank.ACE, Suit.SPADES),
        ("Td", Rank.TEN, Suit.DIAMONDS),
        ("10h", Rank.TEN, Suit.HEARTS),
        ("10H", Rank.TEN, Suit.HEARTS),
        ("K♠", Rank.KING, Suit.SPADES),
        ("q♥", Rank.QUEEN, Suit.HEARTS),
        ("J♦", Rank.JACK, Suit.DIAMONDS),
        ("2♣", Rank.TWO, Suit.CLUBS),
        ("as", Rank.ACE, Suit.SPADES),
        ("td", Rank.TEN, Suit.DIAMONDS),
        ("AS", Rank.ACE, Suit.SPADES),
        ("9c", Rank.NINE, Suit.CLUBS),
        ("  7h ", Rank.SEVEN, Suit.HEARTS),
    ],
)
def test_parse_one_card(text: str, rank: Rank, suit: Suit) -> None:
    card = Card.parse(text)
    assert card.rank is rank
    assert card.suit is suit
    assert card.index == 4 * int(rank) + int(suit)


def test_every_card_round_trips_through_text() -> None:
    seen = set()
    for r, s in product(range(13), range(4)):
        text = RANK_TEXT[r] + SUIT_TEXT[s]
        card = Card.parse(text)
        assert str(card) == text
        assert card.index == 4 * r + s
        assert Card.parse(card.pretty) is card
        assert repr(card) == f"Card({text!r})"
        seen.add(card.index)
    assert seen == set(range(52))


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("1x", "rank '1'"),
        ("Ass", None),
        ("Zz", None),
        ("A", None),
        ("Ax", "suit 'x'"),
        ("11h", None),
        ("", None),
        ("0s", "rank '0'"),
    ],
)
def test_parse_errors_name_the_bad_token(bad: str, why: str | None) -> None:
    with pytest.raises(CardParseError) as info:
        Card.parse(bad)
    message = str(info.value)
    assert repr(bad) in message
    if why is not None:
        assert why in message
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, CroupierError)


@pytest.mark.parametrize("bad", ["1x", "Ass", "Zz", "A", "Kx"])
def test_parse_cards_errors_name_the_bad_token(bad: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_cards(f"As {bad} Kd")
    assert repr(bad) in str(info.value)


def test_parse_cards_error_inside_a_run_of_cards() -> None:
    with pytest.raises(CardParseError) as info:
        parse_cards("AsKd1x")
    assert "'1x'" in str(info.value)


# --------------------------------------------------------------------------- parsing lists


@pytest.mark.parametrize(
    "text",
    ["AsKd", "As Kd", "As,Kd", "As, Kd", "as kd", "A♠K♦", " As\tKd\n", "As;Kd"],
)
def test_parse_cards_separators(text: str) -> None:
    assert parse_cards(text) == (Card.parse("As"), Card.parse("Kd"))


def test_parse_cards_mixed_forms() -> None:
    expected = tuple(Card.parse(t) for t in ("Th", "Td", "2c", "As"))
    assert parse_cards("10hTd2cAs") == expected
    assert parse_cards(["10h", "Td", Card.parse("2c"), "As"]) == expected
    assert parse_cards(["10hTd", "2c As"]) == expected
    assert card_indices("2c As Th") == [0, 51, 34]
    assert format_cards(expected, " ") == "Th Td 2c As"
    assert format_cards(expected) == "ThTd2cAs"
    assert parse_cards("") == ()


@pytest.mark.parametrize(
    "cards",
    ["As Kd As", "AsAs", "As,as", "10h Th", ["As", "Kd", "As"], ["As", Card.parse("As")]],
)
def test_duplicates_rejected(cards: str | list[str | Card]) -> None:
    with pytest.raises(DuplicateCardError):
        parse_cards(cards)
    with pytest.raises(DuplicateCardError):
        card_indices(cards)


def test_duplicates_allowed_when_asked() -> None:
    assert parse_cards("As As", unique=False) == (Card.parse("As"), Card.parse("As"))


def test_duplicate_error_names_the_card() -> None:
    with pytest.raises(DuplicateCardError, match="Kd"):
        parse_cards("Kd 2c kd")


# --------------------------------------------------------------------------- ranks and suits


@pytest.mark.rule("Poker 12.2(a)")
def test_suit_order_spades_hearts_diamonds_clubs() -> None:
    assert Suit.SPADES > Suit.HEARTS > Suit.DIAMONDS > Suit.CLUBS
    assert sorted(Suit, reverse=True) == [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS]
    assert [s.char for s in sorted(Suit)] == ["c", "d", "h", "s"]
    assert [s.symbol for s in sorted(Suit)] == ["♣", "♦", "♥", "♠"]


@pytest.mark.rule("Poker 12.2(a)")
def test_same_rank_cards_order_by_suit() -> None:
    for rank in RANK_TEXT:
        cards = [Card.parse(rank + s) for s in "shdc"]
        assert cards == sorted(cards, reverse=True)
        assert max(cards).suit is Suit.SPADES
        assert min(cards).suit is Suit.CLUBS


@pytest.mark.rule("Omaha 17.5(e)")
def test_card_ordering_is_rank_then_suit() -> None:
    every = [Card(i) for i in range(52)]
    expected = sorted(every, key=lambda c: (int(c.rank), int(c.suit)))
    assert sorted(every) == expected
    shuffled = every[::-1]
    random.Random(0).shuffle(shuffled)
    assert sorted(shuffled) == expected
    # a higher rank always beats a higher suit
    assert Card.parse("3c") > Card.parse("2s")
    assert Card.parse("As") > Card.parse("Ah") > Card.parse("Ks")
    for a, b in product(every, every):
        by_key = (int(a.rank), int(a.suit)) < (int(b.rank), int(b.suit))
        assert (a < b) is by_key
        assert (a > b) is ((int(a.rank), int(a.suit)) > (int(b.rank), int(b.suit)))
        assert (a <= b) is (a < b or a is b)
        assert (a >= b) is (a > b or a is b)
        assert (a == b) is (a is b)


def test_rank_symbols_and_names() -> None:
    assert [r.char for r in Rank] == list(RANK_TEXT)
    assert Rank.from_char("10") is Rank.TEN
    assert Rank.from_char("t") is Rank.TEN
    assert Rank.SIX.plural == "sixes"
    assert Rank.NINE.plural == "nines"
    assert Rank.KING.noun == "king"
    assert Rank.ACE > Rank.KING > Rank.TWO
    assert len(Rank) == 13
    with pytest.raises(CardParseError, match="'1'"):
        Rank.from_char("1")


# --------------------------------------------------------------------------- value semantics


def test_cards_are_interned() -> None:
    for i in range(52):
        card = Card(i)
        assert Card(i) is card
        assert Card.of(card.rank, card.suit) is card
        assert Card.parse(str(card)) is card
        assert hash(card) == hash(Card(i))
    assert len({Card(i) for i in range(52)}) == 52


@pytest.mark.parametrize("bad", [52, -1, 100])
def test_card_index_out_of_range(bad: int) -> None:
    with pytest.raises(CardParseError, match=str(bad)):
        Card(bad)


def test_cards_are_immutable() -> None:
    card = Card.parse("Qh")
    with pytest.raises(AttributeError):
        card.index = 0
    with pytest.raises(AttributeError):
        card.colour = "red"
    assert card.index == 4 * 10 + 2
    assert str(card) == "Qh"


def test_card_index_cannot_be_deleted() -> None:
    card = Card.parse("Jc")
    try:
        with pytest.raises(AttributeError):
            del card.index
    finally:
        # repair the interned instance if the deletion went through
        if not hasattr(card, "index"):
            object.__setattr__(card, "index", 4 * 9 + 0)
    assert Card.parse("Jc").index == 36


def test_pickle_and_copy_keep_identity() -> None:
    for i in range(52):
        card = Card(i)
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            assert pickle.loads(pickle.dumps(card, protocol)) is card
        assert copy.copy(card) is card
        assert copy.deepcopy(card) is card
    hand = parse_cards("As Kd 10h")
    assert pickle.loads(pickle.dumps(hand)) == hand
