"""Table construction: the rank weights, the per-card keys and the dense rank tables."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt
import pytest

from croupier.evaluation import STANDARD, STRIPPED, Category, HandRanking, tables_for
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


def test_rank_weights_7_sums_are_unique() -> None:
    """Every multiset of <= 7 ranks (<= 4 of each) has its own RANK_WEIGHTS_7 sum."""
    assert len(RANK_WEIGHTS_7) == 13
    counts = _rank_count_vectors(7)
    clashes, examples = _colliding(counts, RANK_WEIGHTS_7)
    assert clashes == 0, f"{clashes} colliding sums, e.g. {examples}"


def test_rank_weights_5_sums_are_unique() -> None:
    """Every multiset of <= 5 ranks (<= 4 of each) has its own RANK_WEIGHTS_5 sum."""
    assert len(RANK_WEIGHTS_5) == 13
    counts = _rank_count_vectors(5)
    clashes, examples = _colliding(counts, RANK_WEIGHTS_5)
    assert clashes == 0, f"{clashes} colliding sums, e.g. {examples}"


@pytest.mark.parametrize(("weights", "size"), [(RANK_WEIGHTS_7, 7), (RANK_WEIGHTS_5, 5)])
def test_rank_weights_fixed_size_sums_are_unique(weights: tuple[int, ...], size: int) -> None:
    """Within each hand size, multisets are told apart (weaker than the test above)."""
    counts = _rank_count_vectors(size)
    for n in range(5, size + 1):
        same_size = counts[counts.sum(axis=1) == n]
        clashes, examples = _colliding(same_size, weights)
        assert clashes == 0, f"{n}-card multisets collide: {examples}"


def test_stripped_weights_unique_over_seven_to_ace() -> None:
    counts = _rank_count_vectors(7, range(5, 13))
    clashes, examples = _colliding(counts, RANK_WEIGHTS_7)
    assert clashes == 0, examples


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
