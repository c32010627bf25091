"""The batch evaluator: numpy arrays of card indices in, numpy arrays of ranks out.

Rows are hands; entries are card indices ``4 * rank + suit`` (0 = 2c ... 51 = As).

>>> import numpy as np
>>> evaluate_batch(np.array([[51, 47, 43, 39, 35, 0, 1], [0, 5, 10, 15, 21, 30, 40]]))
array([7462,  297], dtype=uint16)
>>> evaluate_omaha_batch(np.array([[51, 50, 47, 43]]), np.array([[39, 35, 3, 7, 8]]))
array([7090], dtype=uint16)
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.errors import DuplicateCardError, HandSizeError
from croupier.evaluation import kernels
from croupier.evaluation.omaha_table import omaha_tables_for
from croupier.evaluation.rankings import STANDARD, HandRanking
from croupier.evaluation.tables import HASH_SHIFT, tables_for

__all__ = ["evaluate_batch", "evaluate_omaha_batch", "evaluate_split_batch"]

_PARALLEL_FROM = 50_000  # rows; below this, threads cost more than they save


@cache
def _guarded(
    ranking: HandRanking, width: int
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint16]]:
    """The compact (offsets, values) tables of ``width``-card hands, padded so that any row of
    bytes reads inside them: a row that is not a hand (a repeated card, a card outside the
    deck, whose key is 0) sums to a key no hand has, which the bare tables may send past their
    ends (a crash, not an error). Rows of keys no hand has, and the rows past the table up to
    the largest key ``width`` cards can sum to, point at a block of zeros after the values;
    every hand's slot is unchanged.

    >>> offsets, values = _guarded(STANDARD, 7)
    >>> first = offsets + (np.arange(len(offsets)) << HASH_SHIFT)   # each row's first slot
    >>> int(first.max()) + (1 << HASH_SHIFT) <= len(values)   # every key reads inside
    True
    """
    t = tables_for(ranking)
    offsets, values = t.compact(width)
    block = 1 << HASH_SHIFT
    largest = (width * int(t.card_key256.max())) >> 16  # the largest key, as hashed
    rows = np.arange(max(len(offsets), (largest >> HASH_SHIFT) + 1), dtype=np.int64)
    padded = np.zeros(len(rows), np.int64)
    padded[: len(offsets)] = offsets
    first = padded + (rows << HASH_SHIFT)  # each row's first slot
    empty = first >= len(values)  # no hand's slot lies there: a row no hand uses
    zeros = max(len(values), int(first[~empty].max(initial=0)) + block)
    padded[empty] = zeros - (rows[empty] << HASH_SHIFT)
    guarded = np.zeros(zeros + block, np.uint16)
    guarded[: len(values)] = values
    return padded.astype(np.int32), guarded


def _as_cards(
    array: npt.ArrayLike, name: str, widths: range, ranking: HandRanking, check: bool
) -> npt.NDArray[np.uint8]:
    cards = np.asarray(array)
    if cards.ndim != 2 or cards.shape[1] not in widths:
        raise HandSizeError(
            f"{name} must be a 2-D array with {widths.start} to {widths.stop - 1} cards a row, "
            f"got shape {cards.shape}"
        )
    if cards.dtype.kind == "b":
        raise HandSizeError(f"{name} must hold card indices (0..51), not booleans")
    if check and cards.dtype != np.uint8:  # a uint8 row is checked by the compiled pass
        _check_range(cards, name, ranking)
    return np.ascontiguousarray(cards, dtype=np.uint8)


def _check_range(cards: npt.NDArray[Any], name: str, ranking: HandRanking) -> None:
    if cards.dtype.kind not in "iu" and cards.size and not np.array_equal(cards, np.round(cards)):
        raise HandSizeError(f"{name} holds a value that is not a card index (0..51)")
    if cards.size and (cards.min() < 0 or cards.max() > 51):
        raise HandSizeError(f"{name} holds a card index outside 0..51")
    if cards.size and (cards.astype(np.int64) >> 2).min() < int(ranking.lowest_rank):
        raise HandSizeError(f"{name} holds a card outside the {ranking.name} deck")


def _check_unique(rows: npt.NDArray[np.uint8]) -> None:
    ordered = np.sort(rows, axis=1)
    bad = np.nonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))[0]
    if bad.size:
        raise DuplicateCardError(f"row {int(bad[0])} repeats a card")


def _explain(cards: npt.NDArray[Any], name: str, ranking: HandRanking) -> None:
    """Raise the error a row the compiled check refused deserves (a slow pass, on failure only)."""
    _check_range(cards, name, ranking)
    _check_unique(np.asarray(cards, dtype=np.uint8))
    raise AssertionError("the compiled check refused rows that look valid")  # pragma: no cover


def evaluate_batch(
    cards: npt.ArrayLike,
    *,
    ranking: HandRanking = STANDARD,
    parallel: bool | None = None,
    check: bool = True,
) -> npt.NDArray[np.uint16]:
    """Rank the best five of each row of 5 to 7 card indices.

    ``parallel`` uses every core (default: for large batches). Every row is checked (no
    repeated card, every card in the ranking's deck) in the same compiled pass that ranks
    it; ``check=False`` skips the check when the caller guarantees the input (a row that
    breaks it then gets a meaningless rank, never a crash).

    >>> evaluate_batch([[0, 4, 8, 12, 17]]).tolist()
    [5855]
    >>> evaluate_batch([[0, 4, 8, 12, 12]])
    Traceback (most recent call last):
    ...
    croupier.errors.DuplicateCardError: row 0 repeats a card
    """
    t = tables_for(ranking)
    given = np.asarray(cards)
    if given.ndim != 2 or given.shape[1] not in range(5, 8):
        raise HandSizeError(
            f"cards must be a 2-D array with 5 to 7 cards a row, got shape {given.shape}"
        )
    if given.dtype.kind not in "iu":  # floats, booleans, objects: checked, then made uint8
        given = _as_cards(given, "cards", range(5, 8), ranking, check)
    # integer rows are read in their own type, without a whole-array copy: the kernels read
    # a card as a table index 0..255 (a value outside is not a card), and the guarded tables
    # take any key, so even an unchecked call never reads out of bounds
    if not given.dtype.isnative:  # byte-swapped rows (numba reads native ones only): one copy
        given = given.astype(given.dtype.newbyteorder("="))
    rows = np.ascontiguousarray(given)
    out = np.empty(rows.shape[0], np.uint16)
    offsets, values = _guarded(ranking, rows.shape[1])
    use_threads = rows.shape[0] >= _PARALLEL_FROM if parallel is None else parallel
    # wider integers (int64, numpy's default) go to kernels that read each entry's lowest byte
    # and check the others eight rows at a time: the same range rule, and no whole-array copy
    wide = rows.dtype.itemsize > 1
    if check:
        kernel = (
            (
                kernels.eval_hashed_rows_wide_parallel
                if use_threads
                else kernels.eval_hashed_rows_wide
            )
            if wide
            else (kernels.eval_hashed_rows_parallel if use_threads else kernels.eval_hashed_rows)
        )
        args = (t.card_key256, t.card_mask256, t.card_key_mask256, offsets, values, t.flush)
        if kernel(rows, *args, HASH_SHIFT, out):
            _explain(given, "cards", ranking)
    else:
        if wide:
            fast = (
                kernels.eval_hashed_rows_unchecked_wide_parallel
                if use_threads
                else kernels.eval_hashed_rows_unchecked_wide
            )
        else:
            fast = (
                kernels.eval_hashed_rows_unchecked_parallel
                if use_threads
                else kernels.eval_hashed_rows_unchecked
            )
        fast(rows, t.card_key256, offsets, values, t.flush, HASH_SHIFT, out)
    return out


def _check_rows(rows: npt.NDArray[np.uint8], name: str, ranking: HandRanking) -> None:
    """The compiled check of the split and Omaha batches (one pass; the slow one on failure)."""
    if not kernels.rows_valid(rows, tables_for(ranking).card_mask256):
        _explain(rows, name, ranking)


def evaluate_split_batch(
    own: npt.ArrayLike,
    board: npt.ArrayLike,
    *,
    own_used: int = 2,
    ranking: HandRanking = STANDARD,
    parallel: bool | None = None,
    check: bool = True,
) -> npt.NDArray[np.uint16]:
    """Rank hands made of exactly ``own_used`` own cards and ``5 - own_used`` board cards.

    Omaha is ``own_used=2`` with four own cards and five board cards; the Manila
    games use two of two or two of three own cards.

    >>> evaluate_split_batch([[51, 47]], [[43, 39, 35, 0, 1]]).tolist()     # Manila-style
    [7462]
    """
    if own_used != 2:
        raise HandSizeError("the split evaluator takes exactly two own cards (Omaha, Manila)")
    t = tables_for(ranking)
    mine = _as_cards(own, "own", range(own_used, 7), ranking, check)
    shared = _as_cards(board, "board", range(5 - own_used, 6), ranking, check)
    if mine.shape[0] != shared.shape[0]:
        raise HandSizeError(f"own has {mine.shape[0]} rows but board has {shared.shape[0]}")
    if check:
        _check_rows(np.concatenate([mine, shared], axis=1), "own and board", ranking)
    own_combos = kernels.combinations_array(mine.shape[1], own_used)
    board_combos = kernels.combinations_array(shared.shape[1], 5 - own_used)
    out = np.empty(mine.shape[0], np.uint16)
    use_threads = mine.shape[0] >= _PARALLEL_FROM // 10 if parallel is None else parallel
    kernel = kernels.eval_split_rows_parallel if use_threads else kernels.eval_split_rows
    kernel(mine, shared, own_combos, board_combos, t.card_key5, t.nonflush5, t.flush, out)
    return out


def evaluate_omaha_batch(
    hole: npt.ArrayLike,
    board: npt.ArrayLike,
    *,
    parallel: bool | None = None,
    check: bool = True,
) -> npt.NDArray[np.uint16]:
    """Omaha (17.5(d)): four hole cards and five board cards a row, exactly 2 + 3.

    One read of the (board, hole) table per hand (see
    :mod:`croupier.evaluation.omaha_table`), plus a flush check.

    >>> evaluate_omaha_batch([[51, 50, 47, 43]], [[39, 35, 3, 7, 8]]).tolist()
    [7090]
    """
    hole_rows, board_rows = np.asarray(hole), np.asarray(board)
    if hole_rows.ndim != 2 or hole_rows.shape[1] != 4:
        raise HandSizeError(f"Omaha hole cards are 4 a row, got shape {hole_rows.shape}")
    if board_rows.ndim != 2 or board_rows.shape[1] != 5:
        raise HandSizeError(
            f"an Omaha showdown board is 5 cards a row, got shape {board_rows.shape}"
        )
    t = tables_for(STANDARD)
    hole_rows = _as_cards(hole_rows, "hole", range(4, 5), STANDARD, check)
    board_rows = _as_cards(board_rows, "board", range(5, 6), STANDARD, check)
    if hole_rows.shape[0] != board_rows.shape[0]:
        raise HandSizeError(
            f"hole has {hole_rows.shape[0]} rows but board has {board_rows.shape[0]}"
        )
    if check:
        _check_rows(np.concatenate([hole_rows, board_rows], axis=1), "hole and board", STANDARD)
    o = omaha_tables_for(STANDARD)
    out = np.empty(hole_rows.shape[0], np.uint16)
    use_threads = hole_rows.shape[0] >= _PARALLEL_FROM // 10 if parallel is None else parallel
    kernel = kernels.eval_omaha_rows_parallel if use_threads else kernels.eval_omaha_rows
    kernel(
        hole_rows,
        board_rows,
        t.card_key5,
        o.board_index,
        o.hole_index,
        o.nonflush,
        o.holes,
        t.flush,
        out,
    )
    return out
