"""Table construction: the rank weights, the per-card keys and the dense rank tables."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np
import numpy.typing as npt
import pytest
from eval_oracle import STANDARD_POSITIONS, assert_same_order, best_of, categories_of_values

from croupier.evaluation import (
    STANDARD,
    STRIPPED,
    Category,
    HandRanking,
    evaluate_batch,
    tables_for,
)
from croupier.evaluation.tables import RANK_WEIGHTS_5, RANK_WEIGHTS_7


def _rank_count_vectors(max_cards: int, ranks: range = range(13)) -> npt.NDArray[np.int64]:
    """Every multiset of at most ``max_cards`` ranks with at most four of a rank, as counts."""
    rows = []
    for size in range(max_cards + 1):
        for combo in combinations_with_replacement(ranks, size):
            counts = np.bincount(np.array(combo, dtype=np.int64), minlength=13)
            if counts.max(initial=0) <= 4:
                rows.append(counts)
    return np.array(rows, dtype=np.int64)


def _colliding(counts: npt.NDArray[np.int64], weights: tuple[int, ...]) -> tuple[int, list[str]]:
    """How many weighted sums are shared by two or more multisets, and a few examples."""
    sums = counts @ np.array(weights, dtype=np.int64)
    values, times = np.unique(sums, return_counts=True)
    examples = []
    for value in values[times > 1][:2]:
        clash = [counts[i].tolist() for i in np.nonzero(sums == value)[0][:2]]
        examples.append(f"sum {value} shared by rank counts {clash[0]} and {clash[1]}")
    return int((times > 1).sum()), examples


def test_multiset_enumeration_is_complete() -> None:
    # multisets of exactly five ranks from 13 with <= 4 of a kind: C(17,5) - 13
    counts = _rank_count_vectors(5)
    assert (counts.sum(axis=1) == 5).sum() == 6188 - 13
    assert len(counts) == len({tuple(r) for r in counts.tolist()})


@pytest.mark.parametrize(
    ("weights", "size"),
    [(RANK_WEIGHTS_7, 7), (RANK_WEIGHTS_5, 5)],
    ids=["RANK_WEIGHTS_7", "RANK_WEIGHTS_5"],
)
def test_rank_weights_sums_are_unique_per_hand_size(weights: tuple[int, ...], size: int) -> None:
    """Every multiset of exactly ``size`` ranks (<= 4 of each) has its own weighted sum.

    The two has weight 0, so this is the same as: every multiset of at most ``size``
    ranks from three to ace has its own sum.
    """
    assert len(weights) == 13
    assert list(weights) == sorted(set(weights))
    counts = _rank_count_vectors(size)
    exact = counts[counts.sum(axis=1) == size]
    clashes, examples = _colliding(exact, weights)
    assert clashes == 0, f"{clashes} colliding sums, e.g. {examples}"
    no_twos = counts[counts[:, 0] == 0]
    assert _colliding(no_twos, weights)[0] == 0


def test_multiset_of_seven_ranks_count() -> None:
    counts = _rank_count_vectors(7)
    exact = counts[counts.sum(axis=1) == 7]
    # multisets of 7 from 13 ranks, less those with five or more of one rank
    assert len(exact) == comb(13 + 7 - 1, 7) - 13 * comb(13 + 2 - 1, 2) == 49205


def _hands_without_flush(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8]:
    """One hand per rank multiset, suits dealt round-robin so no suit holds five cards."""
    rows = []
    for vector in counts.tolist():
        ranks = [r for r in range(13) for _ in range(vector[r])]
        rows.append([4 * r + j % 4 for j, r in enumerate(ranks)])
    return np.array(rows, dtype=np.uint8)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_every_rank_multiset_ranks_right(size: int) -> None:
    """Every non-flush table entry a hand of ``size`` cards can reach, against the oracle."""
    counts = _rank_count_vectors(size)
    hands = _hands_without_flush(counts[counts.sum(axis=1) == size])
    assert all(len(set(row)) == size for row in hands.tolist())
    ranks = evaluate_batch(hands)
    independent = best_of(hands, 0, STANDARD_POSITIONS)
    assert_same_order(ranks, independent, hands, "independent evaluator")
    assert np.array_equal(tables_for(STANDARD).categories[ranks], categories_of_values(independent))


def test_tables_fit_the_weights() -> None:
    t = tables_for(STANDARD)
    assert len(t.nonflush7) > 4 * RANK_WEIGHTS_7[12] + 3 * RANK_WEIGHTS_7[11]
    assert len(t.nonflush5) > 4 * RANK_WEIGHTS_5[12] + RANK_WEIGHTS_5[11]
    assert len(t.flush) == 1 << 13


@pytest.mark.parametrize("ranking", [STANDARD, STRIPPED], ids=["standard", "stripped"])
def test_card_keys(ranking: HandRanking) -> None:
    t = tables_for(ranking)
    for index in range(52):
        rank, suit = divmod(index, 4)
        assert t.card_key7[index] == (RANK_WEIGHTS_7[rank] << 16) | (1 << (4 * suit))
        assert t.card_key5[index] == (RANK_WEIGHTS_5[rank] << 16) | (1 << (4 * suit))
        assert t.card_suit_mask[index] == 1 << (16 * suit + rank)


def _manila_straight_masks() -> set[int]:
    runs = [[12, 5, 6, 7, 8]] + [list(range(lo, lo + 5)) for lo in range(5, 9)]
    return {sum(1 << r for r in run) for run in runs}


def _standard_straight_masks() -> set[int]:
    runs = [[12, 0, 1, 2, 3]] + [list(range(lo, lo + 5)) for lo in range(0, 9)]
    return {sum(1 << r for r in run) for run in runs}


@pytest.mark.parametrize(
    ("ranking", "straights", "lowest"),
    [(STANDARD, _standard_straight_masks(), 0), (STRIPPED, _manila_straight_masks(), 5)],
    ids=["standard", "stripped"],
)
def test_flush_table_every_five_rank_mask(
    ranking: HandRanking, straights: set[int], lowest: int
) -> None:
    """Five ranks of one suit: a straight flush exactly for the straights, else a flush."""
    t = tables_for(ranking)
    deck_ranks = range(lowest, 13)
    seen = set()
    for combo in combinations(deck_ranks, 5):
        mask = sum(1 << r for r in combo)
        rank = int(t.flush[mask])
        assert 1 <= rank <= t.value_count
        expected = Category.STRAIGHT_FLUSH if mask in straights else Category.FLUSH
        assert t.category_of(rank) is expected, combo
        seen.add(rank)
    assert len(seen) == len(list(combinations(deck_ranks, 5)))
    assert int(t.flush[0]) == 0
    assert int(t.flush[0b1111]) == 0  # four cards are not a flush


@pytest.mark.parametrize("ranking", [STANDARD, STRIPPED], ids=["standard", "stripped"])
def test_dense_ranks_run_up_by_category_order(ranking: HandRanking) -> None:
    """Dense ranks 1..N: each category a contiguous block, blocks in the ranking's order."""
    t = tables_for(ranking)
    cats = t.categories[1:].astype(np.int64)
    blocks = [int(c) for i, c in enumerate(cats) if i == 0 or c != cats[i - 1]]
    assert blocks == [int(c) for c in ranking.order]
    assert np.all(np.diff(t.packed[1:].astype(np.int64)) > 0)


def test_stripped_order_puts_flush_above_full_house() -> None:
    assert STRIPPED.beats(Category.FLUSH, Category.FULL_HOUSE)
    assert not STANDARD.beats(Category.FLUSH, Category.FULL_HOUSE)
    assert STRIPPED.deck_size == 32
    assert STANDARD.deck_size == 52
