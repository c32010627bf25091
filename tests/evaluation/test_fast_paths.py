"""The one-call and batch fast paths agree with the reference evaluators."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from croupier.errors import CroupierError, DuplicateCardError, HandSizeError
from croupier.evaluation import (
    STANDARD,
    STRIPPED,
    evaluate_batch,
    evaluate_omaha,
    evaluate_omaha_batch,
    rank_omaha_indices,
)
from croupier.evaluation._table_files import read_npz
from croupier.evaluation.fast import FastTables, fast_tables

NAMES = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def _deals(n: int, width: int, seed: int, cards: list[int] | None = None) -> np.ndarray:
    rng = random.Random(seed)
    pool = cards if cards is not None else list(range(52))
    return np.array([rng.sample(pool, width) for _ in range(n)], np.uint8)


@pytest.mark.parametrize("width", [5, 6, 7])
@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("check", [True, False])
def test_int64_rows_rank_as_uint8_rows(width: int, parallel: bool, check: bool) -> None:
    hands = _deals(3_000, width, width)
    expected = evaluate_batch(hands, parallel=parallel, check=check)
    for dtype in (np.int64, np.int32, np.uint16, np.int16):
        got = evaluate_batch(hands.astype(dtype), parallel=parallel, check=check)
        assert got.dtype == np.uint16
        assert (got == expected).all()


@pytest.mark.parametrize("bad", [-1, 52, 256, 2**40])
def test_int64_rows_outside_the_deck_are_refused(bad: int) -> None:
    hands = _deals(100, 7, 1).astype(np.int64)
    hands[37, 3] = bad
    with pytest.raises(HandSizeError):
        evaluate_batch(hands)


def test_int64_rows_with_a_repeat_are_refused() -> None:
    hands = _deals(100, 7, 2).astype(np.int64)
    hands[5, 6] = hands[5, 0]
    with pytest.raises(DuplicateCardError, match="row 5"):
        evaluate_batch(hands)


def test_rank_omaha_indices_equals_the_batch_on_random_deals() -> None:
    deals = _deals(20_000, 9, 11)
    expected = evaluate_omaha_batch(deals[:, 5:], deals[:, :5])
    got = [rank_omaha_indices(row[5:], row[:5]) for row in deals.tolist()]
    assert got == expected.tolist()


def test_rank_omaha_indices_equals_the_batch_on_flush_heavy_deals() -> None:
    """Two suits only: flushes and straight flushes in most deals."""
    two_suits = [c for c in range(52) if c & 3 >= 2]
    deals = _deals(20_000, 9, 12, two_suits)
    expected = evaluate_omaha_batch(deals[:, 5:], deals[:, :5])
    got = [rank_omaha_indices(tuple(row[5:]), tuple(row[:5])) for row in deals.tolist()]
    assert got == expected.tolist()


def test_rank_omaha_indices_equals_evaluate_omaha() -> None:
    for row in _deals(300, 9, 13).tolist():
        hole, board = row[5:], row[:5]
        text = evaluate_omaha(" ".join(NAMES[c] for c in hole), " ".join(NAMES[c] for c in board))
        assert rank_omaha_indices(hole, board) == text.rank


def test_rank_omaha_indices_takes_numpy_integers() -> None:
    row = _deals(1, 9, 14)[0]
    assert rank_omaha_indices(row[5:], row[:5]) == rank_omaha_indices(
        row[5:].tolist(), row[:5].tolist()
    )


@pytest.mark.parametrize(
    ("hole", "board", "error", "text"),
    [
        ([0, 1, 2, 3], [4, 5, 6, 7, 3], DuplicateCardError, "appears twice"),
        ([0, 1, 2, -1], [4, 5, 6, 7, 8], HandSizeError, "outside 0..51"),
        ([0, 1, 2, 52], [4, 5, 6, 7, 8], HandSizeError, "outside 0..51"),
        ([0, 1, 2, 200], [4, 5, 6, 7, 8], HandSizeError, "outside 0..51"),
        ([0, 1, 2, 3.0], [4, 5, 6, 7, 8], CroupierError, "whole numbers"),
        ([0, 1, 2], [4, 5, 6, 7, 8], HandSizeError, "4 hole and 5 board"),
        ([0, 1, 2, 3], [4, 5, 6, 7], HandSizeError, "4 hole and 5 board"),
        (None, [4, 5, 6, 7, 8], CroupierError, "sequences"),
    ],
)
def test_rank_omaha_indices_refuses_bad_cards(
    hole: object, board: list[int], error: type[Exception], text: str
) -> None:
    with pytest.raises(error, match=text):
        rank_omaha_indices(hole, board)  # type: ignore[arg-type]


@pytest.mark.parametrize("ranking", [STANDARD, STRIPPED])
def test_the_tables_read_without_numpy_match_numpy_s(ranking: object) -> None:
    light = FastTables.from_cache_file(ranking)  # type: ignore[arg-type]
    assert light is not None
    full = FastTables(light.tables)
    assert list(light.packed) == list(full.packed)
    rng = random.Random(5)
    deck = [c for c in range(52) if c >> 2 >= int(ranking.lowest_rank)]  # type: ignore[attr-defined]
    for _ in range(3_000):
        cards = rng.sample(deck, rng.choice([5, 6, 7]))
        assert light.rank_indices(cards) == full.rank_indices(cards)
    for rank in (1, 100, light.tables.value_count):
        assert light.category_of(rank) == full.category_of(rank)


def test_a_damaged_table_file_is_not_read_without_numpy(tmp_path: Path) -> None:
    good = tmp_path / "good.npz"
    np.savez(good, a=np.arange(5, dtype=np.uint16), b=np.arange(3, dtype=np.int32))
    assert read_npz(good, {"a": ("<u2", 5), "b": ("<i4", -1)}) is not None
    assert read_npz(good, {"a": ("<u2", 6)}) is None  # wrong length
    assert read_npz(good, {"c": ("<u2", -1)}) is None  # missing array
    assert read_npz(tmp_path / "missing.npz", {"a": ("<u2", 5)}) is None
    data = good.read_bytes()
    for cut in (len(data) // 2, 40, 5):
        (tmp_path / "cut.npz").write_bytes(data[:cut])
        assert read_npz(tmp_path / "cut.npz", {"a": ("<u2", 5)}) is None
    compressed = tmp_path / "z.npz"
    np.savez_compressed(compressed, a=np.arange(5, dtype=np.uint16))
    assert read_npz(compressed, {"a": ("<u2", 5)}) is None  # not stored: numpy reads it


def test_fast_tables_describe_as_the_numpy_tables() -> None:
    ft = fast_tables(STANDARD)
    assert ft.flush_table[0b1111100000000] == 7462
    assert ft.category_of(7462).name == "STRAIGHT_FLUSH"
