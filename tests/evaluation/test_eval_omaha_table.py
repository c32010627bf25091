"""The (board, hole) Omaha table agrees with the plain 60-combination evaluator."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from croupier.evaluation import evaluate_omaha, evaluate_omaha_batch, evaluate_split_batch
from croupier.evaluation.omaha_table import omaha_tables_for


def deal(rng: np.random.Generator, n: int, deck: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``n`` deals of nine distinct cards from ``deck``."""
    order = np.argsort(rng.random((n, deck.size)), axis=1)[:, :9]
    return deck[order].astype(np.uint8)


@pytest.mark.rule("Omaha 17.5(d)")
@pytest.mark.parametrize("suits", [(0, 1, 2, 3), (2, 3), (3,)])
def test_table_matches_sixty_combinations(suits: tuple[int, ...]) -> None:
    # fewer suits in the deck make flushes (and the table's flush path) common
    rng = np.random.default_rng(len(suits))
    deck = np.array([4 * r + s for r in range(13) for s in suits], np.uint8)
    cards = deal(rng, 200_000, deck)
    hole, board = cards[:, :4], cards[:, 4:]
    fast = evaluate_omaha_batch(hole, board)
    plain = evaluate_split_batch(hole, board, own_used=2)
    assert np.array_equal(fast, plain)
    assert np.array_equal(fast, evaluate_omaha_batch(hole, board, parallel=True))


def test_table_sizes_are_the_rank_multiset_counts() -> None:
    t = omaha_tables_for()
    assert (t.boards, t.holes) == (6175, 1820)
    assert t.nonflush.size == 6175 * 1820


@pytest.mark.rule("Omaha 17.5(d)")
def test_flush_needs_two_hole_cards_of_the_suit() -> None:
    # four hearts on board and one in the hand: no flush (DIGEST scenario 16)
    one = evaluate_omaha_batch(
        [[51, 2, 5, 9]], [[18, 26, 34, 42, 0]]
    )  # As 2h 3d 4d | 6h 8h Th Qh 2c
    hand = evaluate_omaha("As 2h 3d 4d", "6h 8h Th Qh 2c")
    assert int(one[0]) == hand.rank
    assert hand.category.label != "Flush"
