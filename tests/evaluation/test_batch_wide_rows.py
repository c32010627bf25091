"""Wider integer rows (int64, numpy's default, and the other integer types) rank exactly as the
same rows of bytes, and a bad entry anywhere (in a group of eight rows or in the last few
rows, in any column) gives the one error the byte rows give."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.errors import CroupierError, DuplicateCardError, HandSizeError
from croupier.evaluation import STANDARD, STRIPPED, evaluate_batch

WIDE = [np.int64, np.uint64, np.int32, np.uint32, np.int16, np.uint16]


def deal(n: int, seed: int, width: int = 7) -> npt.NDArray[np.uint8]:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :width].astype(np.uint8)


def error_of(rows: npt.NDArray[Any], **kwargs: Any) -> tuple[type[Exception], str]:
    with pytest.raises(CroupierError) as exc:
        evaluate_batch(rows, **kwargs)
    return type(exc.value), str(exc.value)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(0, 40),
    seed=st.integers(0, 2**32 - 1),
    dtype=st.sampled_from(WIDE),
    parallel=st.booleans(),
)
def test_wide_rows_rank_as_byte_rows(n: int, seed: int, dtype: Any, parallel: bool) -> None:
    """Row counts on both sides of the groups of eight the int64 kernel checks at once."""
    hands = deal(n, seed)
    expected = evaluate_batch(hands, parallel=False)
    got = evaluate_batch(hands.astype(dtype), parallel=parallel)
    assert got.dtype == np.uint16
    assert got.tolist() == expected.tolist()


@pytest.mark.parametrize("n", [1_000_003, 64])
def test_int64_rows_rank_as_byte_rows_on_many_hands(n: int) -> None:
    hands = deal(n, 7)
    expected = evaluate_batch(hands, parallel=False)
    for parallel in (False, True):
        assert (evaluate_batch(hands.astype(np.int64), parallel=parallel) == expected).all()


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(1, 30),
    data=st.data(),
    dtype=st.sampled_from([np.int64, np.int32, np.int16]),
    bad=st.one_of(
        st.integers(-(2**15), -1), st.integers(52, 2**15 - 1), st.sampled_from([-1, 256, 261])
    ),
)
def test_an_entry_outside_the_deck_is_one_clear_error(
    n: int, data: st.DataObject, dtype: Any, bad: int
) -> None:
    """Negative, 52..255 and past 255 (even one whose lowest byte is a card: 261 = 256 + 5)."""
    hands = deal(n, n).astype(dtype)
    row = data.draw(st.integers(0, n - 1), label="row")
    col = data.draw(st.integers(0, 6), label="col")
    hands[row, col] = bad
    kind, message = error_of(hands, parallel=False)
    assert kind is HandSizeError
    assert message == "cards holds a card index outside 0..51"
    assert error_of(hands, parallel=True) == (kind, message)
    if 0 <= bad <= 255:  # the same row as bytes: the same error
        assert error_of(hands.astype(np.uint8)) == (kind, message)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 30), data=st.data(), dtype=st.sampled_from(WIDE))
def test_a_repeated_card_is_one_clear_error(n: int, data: st.DataObject, dtype: Any) -> None:
    hands = deal(n, n + 1)
    row = data.draw(st.integers(0, n - 1), label="row")
    a, b = data.draw(st.lists(st.integers(0, 6), min_size=2, max_size=2, unique=True))
    hands[row, b] = hands[row, a]
    expected = error_of(hands)
    assert expected == (DuplicateCardError, f"row {row} repeats a card")
    assert error_of(hands.astype(dtype), parallel=False) == expected
    assert error_of(hands.astype(dtype), parallel=True) == expected


def test_a_card_outside_a_stripped_deck_is_the_same_error() -> None:
    deck = np.arange(int(STRIPPED.lowest_rank) * 4, 52)
    rng = np.random.default_rng(5)
    rows = np.array([rng.choice(deck, 7, replace=False) for _ in range(20)], np.uint8)
    expected = evaluate_batch(rows, ranking=STRIPPED)
    assert evaluate_batch(rows.astype(np.int64), ranking=STRIPPED).tolist() == expected.tolist()
    rows[13, 4] = 0  # the two of clubs: a card, but not of the stripped deck
    byte_error = error_of(rows, ranking=STRIPPED)
    assert byte_error[0] is HandSizeError
    assert "deck" in byte_error[1]
    assert error_of(rows.astype(np.int64), ranking=STRIPPED) == byte_error


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    width=st.integers(5, 7),
    stripped=st.booleans(),
    dtype=st.sampled_from([np.uint8, np.int64]),
)
def test_rows_of_any_bytes_never_read_outside_the_tables(
    seed: int, width: int, stripped: bool, dtype: Any
) -> None:
    """Repeats and non-cards sum to keys no hand has: unchecked they get some rank, checked one
    clear error, and neither reads outside the tables (a stripped deck's small tables once sent
    such keys far past their end)."""
    ranking = STRIPPED if stripped else STANDARD
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, 256, (5_000, width)).astype(dtype)
    rows[::2] = rng.integers(0, 52, (2_500, width))  # repeats and cards outside a stripped deck
    for parallel in (False, True):
        ranks = evaluate_batch(rows, ranking=ranking, parallel=parallel, check=False)
        assert ranks.shape == (5_000,)
        with pytest.raises(CroupierError):
            evaluate_batch(rows, ranking=ranking, parallel=parallel)


def test_byte_swapped_rows_rank_as_native_rows() -> None:
    hands = deal(50, 11)
    swapped = hands.astype(">i8")
    assert evaluate_batch(swapped).tolist() == evaluate_batch(hands).tolist()
    swapped[17, 2] = 300
    assert error_of(swapped) == (HandSizeError, "cards holds a card index outside 0..51")
