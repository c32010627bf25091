"""Property tests: a hand's rank is the best of its five-card subsets, whichever API asks."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card
from croupier.evaluation import (
    STANDARD,
    STRIPPED,
    HandRanking,
    evaluate,
    evaluate_batch,
    evaluate_omaha,
    evaluate_omaha_batch,
    evaluate_split_batch,
    rank_cards,
    rank_indices,
)


def _hand(size: int, lowest: int = 0) -> st.SearchStrategy[list[int]]:
    """``size`` distinct card indices from the deck whose lowest rank is ``lowest``."""
    return st.lists(
        st.integers(min_value=4 * lowest, max_value=51), min_size=size, max_size=size, unique=True
    )


def _best_of_fives(cards: list[Card], ranking: HandRanking) -> int:
    return max(rank_cards(five, ranking=ranking) for five in combinations(cards, 5))


@settings(max_examples=400, deadline=None)
@given(indices=_hand(7))
def test_seven_cards_rank_is_best_of_21(indices: list[int]) -> None:
    cards = [Card(i) for i in indices]
    rank = rank_cards(cards)
    assert rank == _best_of_fives(cards, STANDARD)
    assert rank == rank_indices(indices)
    assert rank == evaluate(cards[:2], board=cards[2:]).rank
    assert rank == evaluate(cards).rank
    assert evaluate_batch([indices]).tolist() == [rank]
    assert evaluate_batch([indices], parallel=True).tolist() == [rank]


@settings(max_examples=300, deadline=None)
@given(indices=_hand(6))
def test_six_cards_rank_is_best_of_6(indices: list[int]) -> None:
    cards = [Card(i) for i in indices]
    rank = rank_cards(cards)
    assert rank == _best_of_fives(cards, STANDARD)
    assert evaluate_batch([indices]).tolist() == [rank]
    assert rank == evaluate(cards[:2], board=cards[2:]).rank


@pytest.mark.rule("Poker 4.1(b)")
@settings(max_examples=300, deadline=None)
@given(indices=_hand(7, lowest=5), size=st.integers(min_value=5, max_value=7))
def test_stripped_rank_is_best_of_fives(indices: list[int], size: int) -> None:
    cards = [Card(i) for i in indices[:size]]
    rank = rank_cards(cards, ranking=STRIPPED)
    assert rank == _best_of_fives(cards, STRIPPED)
    assert evaluate_batch([indices[:size]], ranking=STRIPPED).tolist() == [rank]
    assert evaluate(cards, ranking=STRIPPED).rank == rank


@settings(max_examples=300, deadline=None)
@given(indices=_hand(7))
def test_best_five_reaches_the_rank(indices: list[int]) -> None:
    cards = [Card(i) for i in indices]
    hand = evaluate(cards[:2], board=cards[2:])
    assert len(hand.best_five) == 5
    assert len(set(hand.best_five)) == 5
    assert set(hand.best_five) <= set(cards)
    assert rank_cards(hand.best_five) == hand.rank
    assert set(hand.own_cards) == set(hand.best_five) & set(cards[:2])
    assert hand.category == evaluate(hand.best_five).category


@pytest.mark.rule("Omaha 17.5(d)")
@settings(max_examples=300, deadline=None)
@given(indices=_hand(9))
def test_omaha_rank_is_best_two_plus_three(indices: list[int]) -> None:
    cards = [Card(i) for i in indices]
    hole, board = cards[:4], cards[4:]
    expected = max(
        rank_cards(two + three) for two in combinations(hole, 2) for three in combinations(board, 3)
    )
    hand = evaluate_omaha(hole, board)
    assert hand.rank == expected
    assert evaluate_omaha_batch([indices[:4]], [indices[4:]]).tolist() == [expected]
    assert len(hand.own_cards) == 2
    assert len(set(hand.best_five) & set(board)) == 3
    assert rank_cards(hand.best_five) == expected


@pytest.mark.rule("Poker 4.1(b)")
@settings(max_examples=200, deadline=None)
@given(indices=_hand(8, lowest=5), n_own=st.integers(min_value=2, max_value=4))
def test_stripped_split_is_best_two_plus_three(indices: list[int], n_own: int) -> None:
    cards = [Card(i) for i in indices]
    own, board = cards[:n_own], cards[n_own : n_own + 5]
    expected = max(
        rank_cards(two + three, ranking=STRIPPED)
        for two in combinations(own, 2)
        for three in combinations(board, 3)
    )
    assert evaluate_omaha(own, board, ranking=STRIPPED).rank == expected
    got = evaluate_split_batch(
        [indices[:n_own]], [indices[n_own : n_own + 5]], ranking=STRIPPED
    ).tolist()
    assert got == [expected]


@pytest.mark.rule("Poker 5")
@settings(max_examples=300, deadline=None)
@given(indices=_hand(7), perm=st.permutations(range(4)))
def test_renaming_suits_never_changes_a_rank(indices: list[int], perm: list[int]) -> None:
    renamed = [4 * (i >> 2) + perm[i & 3] for i in indices]
    assert rank_cards([Card(i) for i in renamed]) == rank_cards([Card(i) for i in indices])
    batch = evaluate_batch(np.array([indices, renamed]))
    assert batch[0] == batch[1]
