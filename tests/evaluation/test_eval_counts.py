"""Exhaustive checks: category counts over every hand, and every 32-card hand's rank.

The 52-card counts are the well-known totals (e.g. 40 straight flushes among the
2,598,960 five-card hands). The 32-card counts are derived in the tests from
combinatorial formulas, and the 32-card 6- and 7-card hands are checked hand by hand
against the independent evaluator of ``eval_oracle``.
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt
import pytest
from eval_oracle import (
    MANILA_POSITIONS,
    STANDARD_POSITIONS,
    all_hands,
    assert_same_order,
    best_of,
    categories_of_values,
)

from croupier.evaluation import STANDARD, STRIPPED, Category, evaluate_batch, kernels, tables_for

FULL_DECK = np.arange(52, dtype=np.uint8)
STRIPPED_DECK = np.array([c for c in range(52) if c >> 2 >= 5], dtype=np.uint8)

# category order of the counts below: high card, pair, two pair, trips, straight, flush,
# full house, quads, straight flush (croupier's Category values 0..8)
FIVE_CARD_52 = (1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40)
SEVEN_CARD_52 = (23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 41584)
DISTINCT_VALUES_52 = (1277, 2860, 858, 858, 10, 1277, 156, 156, 10)


@cache
def _stripped_hands(k: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """Every k-card hand of the 32-card deck and its value by the independent evaluator."""
    hands = all_hands(STRIPPED_DECK, k)
    return hands, best_of(hands, 5, MANILA_POSITIONS)


def _count5(deck: npt.NDArray[np.uint8], ranking_name: str) -> list[int]:
    t = tables_for(STANDARD if ranking_name == "standard" else STRIPPED)
    counts = kernels.count_categories_5(
        deck, t.card_key5, t.card_suit_mask, t.nonflush5, t.flush, t.categories
    )
    return [int(x) for x in counts]


def _count7(deck: npt.NDArray[np.uint8], ranking_name: str) -> list[int]:
    t = tables_for(STANDARD if ranking_name == "standard" else STRIPPED)
    counts = kernels.count_categories_7(
        deck, t.card_key7, t.card_suit_mask, t.nonflush7, t.flush, t.categories
    )
    return [int(x) for x in counts]


def _manila_five_card_counts() -> list[int]:
    """Five-card category counts of the 32-card deck (8 ranks x 4 suits), by formula."""
    ranks, suits = 8, 4
    straights = (ranks - 5 + 1) + 1  # 7-J, 8-Q, 9-K, T-A, and A-7-8-9-T with the ace low
    rank_sets = comb(ranks, 5)
    straight_flush = straights * suits
    flush = (rank_sets - straights) * suits
    straight = straights * (suits**5 - suits)
    high = (rank_sets - straights) * (suits**5 - suits)
    quads = ranks * (ranks - 1) * suits
    full_house = ranks * comb(suits, 3) * (ranks - 1) * comb(suits, 2)
    trips = ranks * comb(suits, 3) * comb(ranks - 1, 2) * suits**2
    two_pair = comb(ranks, 2) * comb(suits, 2) ** 2 * (ranks - 2) * suits
    pair = ranks * comb(suits, 2) * comb(ranks - 1, 3) * suits**3
    return [high, pair, two_pair, trips, straight, flush, full_house, quads, straight_flush]


def test_manila_formulas_add_up() -> None:
    counts = _manila_five_card_counts()
    assert sum(counts) == comb(32, 5) == 201376
    # the known values, as a check on the formulas themselves
    assert counts == [52020, 107520, 24192, 10752, 5100, 204, 1344, 224, 20]


def test_five_card_counts_52() -> None:
    counts = _count5(FULL_DECK, "standard")
    assert sum(counts) == comb(52, 5)
    assert tuple(counts) == FIVE_CARD_52


def test_seven_card_counts_52() -> None:
    counts = _count7(FULL_DECK, "standard")
    assert sum(counts) == comb(52, 7) == 133784560
    assert tuple(counts) == SEVEN_CARD_52


@pytest.mark.rule("Poker 4.1(b)")
def test_five_card_counts_32() -> None:
    assert _count5(STRIPPED_DECK, "stripped") == _manila_five_card_counts()


@pytest.mark.rule("Poker 4.1(b)")
def test_seven_card_counts_32_against_brute_force() -> None:
    hands, values = _stripped_hands(7)
    assert len(hands) == comb(32, 7) == 3365856
    ours = _count7(STRIPPED_DECK, "stripped")
    independent = np.bincount(categories_of_values(values), minlength=9)
    assert ours == independent.tolist()
    assert sum(ours) == comb(32, 7)


def test_distinct_values_per_category_52() -> None:
    t = tables_for(STANDARD)
    assert t.value_count == 7462
    per_category = np.bincount(t.categories[1:], minlength=9)
    assert tuple(per_category.tolist()) == DISTINCT_VALUES_52


def test_distinct_values_per_category_32() -> None:
    """Distinct values in the 32-card deck, by formula: 8 ranks, 5 straights."""
    t = tables_for(STRIPPED)
    no_straight = comb(8, 5) - 5
    expected = [
        no_straight,  # high card
        8 * comb(7, 3),  # pair and three kickers
        comb(8, 2) * 6,  # two pair and a kicker
        8 * comb(7, 2),  # trips and two kickers
        5,  # straights
        no_straight,  # flushes
        8 * 7,  # full houses
        8 * 7,  # quads and a kicker
        5,  # straight flushes
    ]
    assert np.bincount(t.categories[1:], minlength=9).tolist() == expected
    assert t.value_count == sum(expected)


def test_every_five_card_hand_52_batch() -> None:
    """All 2,598,960 five-card hands through the batch API against the independent evaluator."""
    hands = all_hands(FULL_DECK, 5)
    ranks = evaluate_batch(hands)
    cats = tables_for(STANDARD).categories[ranks]
    assert np.bincount(cats, minlength=9).tolist() == list(FIVE_CARD_52)
    independent = best_of(hands, 0, STANDARD_POSITIONS)
    assert np.array_equal(cats, categories_of_values(independent))
    assert_same_order(ranks, independent, hands, "independent evaluator")
    assert int(ranks.min()) == 1
    assert int(ranks.max()) == 7462
    assert len(np.unique(ranks)) == 7462


@pytest.mark.rule("Poker 4.1(b)")
@pytest.mark.parametrize("k", [5, 6, 7])
def test_every_32_card_hand_batch(k: int) -> None:
    """Every 5-, 6- and 7-card hand of the 32-card deck, hand by hand, under STRIPPED."""
    hands, independent = _stripped_hands(k)
    assert len(hands) == comb(32, k)
    ranks = evaluate_batch(hands, ranking=STRIPPED)
    cats = tables_for(STRIPPED).categories[ranks]
    assert np.array_equal(cats, categories_of_values(independent))
    assert_same_order(ranks, independent, hands, "independent evaluator")
    if k == 5:
        assert np.bincount(cats, minlength=9).tolist() == _manila_five_card_counts()
        assert len(np.unique(ranks)) == tables_for(STRIPPED).value_count
    if k == 7:
        assert np.bincount(cats, minlength=9).tolist() == _count7(STRIPPED_DECK, "stripped")


def test_category_enum_matches_count_order() -> None:
    assert [c.value for c in Category] == list(range(9))
    assert Category.STRAIGHT_FLUSH.label == "Straight flush"
