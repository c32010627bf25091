"""Decks, shoes and the randomness behind a shuffle."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import (
    Card,
    Deck,
    EmptyDeckError,
    Rank,
    Shoe,
    Suit,
    full_deck,
    make_rng,
    new_seed,
    parse_cards,
    stripped_deck,
)
from croupier.errors import CroupierError, DuplicateCardError

ALL_52 = frozenset(Card(i) for i in range(52))


# --------------------------------------------------------------------------- the decks


@pytest.mark.rule("Poker 4.1(a)")
def test_full_deck_is_52_distinct_cards_without_jokers() -> None:
    deck = full_deck()
    assert len(deck) == 52
    assert set(deck) == ALL_52
    assert Counter(c.rank for c in deck) == dict.fromkeys(Rank, 4)
    assert Counter(c.suit for c in deck) == dict.fromkeys(Suit, 13)
    assert [c.index for c in deck] == list(range(52))


@pytest.mark.rule("Poker 4.1(a)")
def test_shuffled_standard_deck_holds_each_card_once() -> None:
    deck = Deck.standard(seed=2024)
    assert len(deck) == 52
    cards = deck.draw(52)
    assert len(cards) == 52
    assert set(cards) == ALL_52
    assert len(deck) == 0


@pytest.mark.rule("Poker 4.1(b)")
def test_stripped_deck_32_cards_seven_to_ace() -> None:
    deck = stripped_deck()
    assert len(deck) == 32
    assert len(set(deck)) == 32
    assert {c.rank for c in deck} == {r for r in Rank if r >= Rank.SEVEN}
    assert Counter(c.rank for c in deck) == {r: 4 for r in Rank if r >= Rank.SEVEN}
    assert Counter(c.suit for c in deck) == dict.fromkeys(Suit, 8)
    dealt = Deck.stripped(seed=5).draw(32)
    assert set(dealt) == set(deck)


@pytest.mark.rule("Poker 4.1(b)")
def test_stripped_deck_36_cards_six_to_ace() -> None:
    deck = stripped_deck(Rank.SIX)
    assert len(deck) == 36
    assert min(c.rank for c in deck) is Rank.SIX
    assert Counter(c.rank for c in deck) == {r: 4 for r in Rank if r >= Rank.SIX}
    shuffled = Deck.stripped(Rank.SIX, seed=9)
    assert len(shuffled) == 36
    assert set(shuffled.draw(36)) == set(deck)


def test_stacked_deck_deals_in_order() -> None:
    text = "As Kd Qh Jc Ts 9d 8h"
    deck = Deck.stacked(text)
    assert len(deck) == 7
    assert deck.peek(2) == parse_cards("As Kd")
    assert len(deck) == 7
    assert deck.draw(2) == parse_cards("As Kd")
    assert deck.burn() == Card.parse("Qh")
    assert deck.draw() == (Card.parse("Jc"),)
    assert deck.remaining == parse_cards("Ts 9d 8h")
    assert deck.draw(3) == parse_cards("Ts 9d 8h")
    assert deck.dealt == parse_cards("As Kd Jc Ts 9d 8h")
    assert deck.burned == (Card.parse("Qh"),)


def test_stacked_deck_rejects_duplicates() -> None:
    with pytest.raises(DuplicateCardError):
        Deck.stacked("As Kd As")
    with pytest.raises(DuplicateCardError):
        Deck([Card.parse("As"), Card.parse("As")], shuffle=False)


def test_burns_are_kept_apart_from_dealt_and_discards() -> None:
    deck = Deck.stacked("2c 3c 4c 5c 6c 7c")
    hole = deck.draw(2)
    burn1 = deck.burn()
    flop = deck.draw(2)
    burn2 = deck.burn()
    assert deck.burned == (burn1, burn2) == parse_cards("4c 7c")
    assert deck.dealt == hole + flop
    assert not set(deck.burned) & set(deck.dealt)
    deck.discard(hole)
    assert deck.discards == hole
    assert not set(deck.burned) & set(deck.discards)
    # a burn card is not a dealt card, so it cannot be discarded
    with pytest.raises(CroupierError):
        deck.discard([burn1])
    assert deck.discards == hole
    assert deck.burned == (burn1, burn2)


def test_discard_rules() -> None:
    deck = Deck.stacked("As Kd Qh Jc")
    first = deck.draw(2)
    # an undealt card cannot be discarded
    with pytest.raises(CroupierError):
        deck.discard([Card.parse("Qh")])
    # nor a card from another deck
    with pytest.raises(CroupierError):
        deck.discard([Card.parse("2c")])
    deck.discard([first[0]])
    # nor a card twice
    with pytest.raises(CroupierError):
        deck.discard([first[0]])
    deck.discard([first[1]])
    assert deck.discards == first
    assert deck.dealt == first  # discarding does not un-deal
    assert len(deck) == 2


def test_empty_deck_errors() -> None:
    deck = Deck.stacked("As")
    with pytest.raises(EmptyDeckError):
        deck.draw(2)
    with pytest.raises(EmptyDeckError):
        deck.peek(2)
    assert len(deck) == 1  # a failed deal takes nothing
    assert deck.dealt == ()
    assert deck.burn() == Card.parse("As")
    with pytest.raises(EmptyDeckError):
        deck.burn()
    with pytest.raises(EmptyDeckError):
        deck.draw()
    assert isinstance(EmptyDeckError("x"), CroupierError)
    assert Deck.stacked("As").draw(0) == ()


# --------------------------------------------------------------------------- randomness


def test_seeded_shuffle_is_reproducible() -> None:
    for seed in (0, 1, 42, 2**100 + 7):
        a = Deck.standard(seed=seed)
        b = Deck.standard(seed=seed)
        assert a.seed == seed
        assert a.remaining == b.remaining
        assert a.draw(5) == b.draw(5)
        assert a.burn() == b.burn()
        assert a.remaining == b.remaining


def test_different_seeds_give_different_orders() -> None:
    orders = {Deck.standard(seed=seed).remaining for seed in range(50)}
    assert len(orders) == 50
    assert full_deck() not in orders  # a shuffle actually moved the cards


def test_seed_replays_pythons_random() -> None:
    """A recorded seed replays the deal with nothing but the standard library."""
    order = list(full_deck())
    random.Random(1234).shuffle(order)
    assert Deck.standard(seed=1234).draw(52) == tuple(order)


def test_injected_rng_is_used() -> None:
    order = list(full_deck())
    random.Random(77).shuffle(order)
    deck = Deck.standard(rng=random.Random(77))
    assert deck.remaining == tuple(order)
    assert deck.remaining == Deck.standard(seed=77).remaining
    stripped = list(stripped_deck())
    random.Random(3).shuffle(stripped)
    assert Deck.stripped(rng=random.Random(3)).remaining == tuple(stripped)


def test_default_shuffle_uses_the_os_csprng() -> None:
    assert isinstance(make_rng(), random.SystemRandom)
    assert isinstance(make_rng(None), random.SystemRandom)
    assert not isinstance(make_rng(5), random.SystemRandom)
    assert make_rng(5).random() == random.Random(5).random()
    # re-seeding the global random module must not make unseeded deals repeat
    random.seed(99)
    first = Deck.standard().remaining
    random.seed(99)
    second = Deck.standard().remaining
    assert first != second
    assert Deck.standard().seed is None
    assert set(first) == set(second) == ALL_52


def test_new_seed_is_fresh_and_128_bit() -> None:
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(0 <= s < 2**128 for s in seeds)
    assert any(s >= 2**64 for s in seeds)


# --------------------------------------------------------------------------- shoes


def test_six_deck_shoe() -> None:
    shoe = Shoe(6, seed=11)
    assert len(shoe) == 312
    cards = shoe.draw_many(312)
    counts = Counter(cards)
    assert set(counts) == ALL_52
    assert set(counts.values()) == {6}
    with pytest.raises(EmptyDeckError):
        shoe.draw()


@pytest.mark.parametrize(
    ("decks", "penetration", "position"),
    [
        (6, Fraction(3, 4), 234),
        (6, Fraction(2, 3), 208),
        (8, "0.75", 312),
        (1, 1, 52),
        (2, Fraction(1, 2), 52),
        (6, Fraction(5, 7), 222),  # 1560 / 7 = 222.86: the cut card goes in whole cards
    ],
)
def test_cut_card_position_from_penetration(
    decks: int, penetration: Fraction | int | str, position: int
) -> None:
    shoe = Shoe(decks, penetration=penetration, seed=1)
    assert shoe.cut_card_position == position
    assert shoe.cut_card_position == int(Fraction(penetration) * 52 * decks)


def test_cut_card_reached_counts_burns() -> None:
    shoe = Shoe(6, penetration=Fraction(3, 4), seed=3)
    shoe.burn()
    shoe.draw_many(232)
    assert not shoe.cut_card_reached
    shoe.draw()
    assert shoe.cut_card_reached
    assert len(shoe) == 312 - 234


@pytest.mark.parametrize("penetration", [0, Fraction(-1, 2), Fraction(5, 4), 2])
def test_bad_penetration(penetration: Fraction | int) -> None:
    with pytest.raises(CroupierError):
        Shoe(6, penetration=penetration)


def test_shoe_needs_a_deck() -> None:
    with pytest.raises(CroupierError):
        Shoe(0)


def test_shoe_shuffle_restores_everything() -> None:
    shoe = Shoe(2, seed=8)
    burned = shoe.burn()
    dealt = shoe.draw_many(60)
    shoe.discard(dealt)
    assert shoe.burned == (burned,)
    assert shoe.discards == dealt
    assert shoe.cut_card_reached is False
    shoe.draw_many(40)
    assert shoe.cut_card_reached
    shoe.shuffle()
    assert len(shoe) == 104
    assert shoe.burned == ()
    assert shoe.discards == ()
    assert not shoe.cut_card_reached
    counts = Counter(shoe.draw_many(104))
    assert set(counts) == ALL_52
    assert set(counts.values()) == {2}


def test_shoe_seed_reproducible_and_stacked_order() -> None:
    assert Shoe(6, seed=4).draw_many(312) == Shoe(6, seed=4).draw_many(312)
    assert Shoe(6, seed=4).draw_many(20) != Shoe(6, seed=5).draw_many(20)
    stacked = Shoe(1, cards=parse_cards("As Kd Qh"))
    assert len(stacked) == 3
    assert stacked.burn() == Card.parse("As")
    assert stacked.draw_many(2) == parse_cards("Kd Qh")


# --------------------------------------------------------------------------- property


_ops = st.lists(
    st.one_of(st.just(-1), st.integers(min_value=0, max_value=9)), min_size=0, max_size=40
)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64), ops=_ops)
def test_deals_never_repeat_and_account_for_every_card(seed: int, ops: list[int]) -> None:
    """Any mix of draws (n >= 0) and burns (-1): no card twice, nothing lost."""
    deck = Deck.standard(seed=seed)
    seen: list[Card] = []
    for op in ops:
        before = (deck.dealt, deck.burned, deck.remaining)
        if op == -1 and len(deck) == 0:
            with pytest.raises(EmptyDeckError):
                deck.burn()
            assert (deck.dealt, deck.burned, deck.remaining) == before
        elif op == -1:
            burned = deck.burn()
            assert burned == before[2][0]  # the top card
            seen.append(burned)
        elif op > len(deck):
            with pytest.raises(EmptyDeckError):
                deck.draw(op)
            assert (deck.dealt, deck.burned, deck.remaining) == before  # nothing taken
        else:
            drawn = deck.draw(op)
            assert drawn == before[2][:op]  # from the top, in order
            seen.extend(drawn)
        everything = deck.dealt + deck.burned + deck.remaining
        assert len(everything) == 52
        assert set(everything) == ALL_52
        assert len(seen) == len(set(seen))
        assert len(deck) == len(deck.remaining) == 52 - len(seen)
        assert set(seen) == set(deck.dealt) | set(deck.burned)
