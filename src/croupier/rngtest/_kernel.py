"""The shuffle of :func:`croupier.cards.rng.shuffle_from_bytes`, compiled for many shuffles.

:func:`deal_orders` runs the very algorithm of the live shuffle (Fisher–Yates, each index by
rejection from the next bytes of one stream) over a byte array, shuffle after shuffle, so the
built-in tests see a million deals in about a second. tests/rng checks, on random streams,
that it gives the same orders and consumes the same bytes as the live code. numba is imported
on first use only.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["count_orders", "deal_orders"]

Stream = npt.NDArray[np.uint8]
Orders = npt.NDArray[np.int16]


def _deal(
    stream: Stream,
    masks: npt.NDArray[np.int64],
    sizes: npt.NDArray[np.int64],
    orders: Orders,
    limit: int,
) -> tuple[int, int]:
    """Shuffle ``orders[k] = 0, 1, ..., n-1`` for k up to ``limit`` from ``stream``; stop
    before a shuffle the stream cannot finish. Returns (shuffles made, bytes used)."""
    cards = orders.shape[1]
    length = stream.shape[0]
    at = 0
    done = 0
    while done < limit:
        start = at
        row = orders[done]
        for p in range(cards):
            row[p] = p
        i = cards - 1
        while i > 0:
            bound = i + 1
            size = sizes[bound]
            if at + size > length:  # the stream ends inside this shuffle: leave it out
                return done, start
            value = 0
            for b in range(size):
                value = (value << 8) | stream[at + b]
            value &= masks[bound]
            at += size
            if value < bound:
                row[i], row[value] = row[value], row[i]
                i -= 1
        done += 1
    return done, at


def _count(
    orders: Orders,
    position_counts: npt.NDArray[np.int64],
    pair_counts: npt.NDArray[np.int64],
    descent_counts: npt.NDArray[np.int64],
    previous: npt.NDArray[np.int64],
    has_previous: bool,
    first: int,
) -> float:
    """Add ``orders`` (shuffles ``first``, ``first + 1``, ...) to the counts in place; return
    the sum of Spearman's rho between consecutive shuffles (the first against ``previous``,
    the positions of the shuffle before, when ``has_previous``). ``previous`` ends holding the
    last shuffle's positions."""
    count, cards = orders.shape
    positions = np.empty(cards, dtype=np.int64)
    scale = 6.0 / (cards * (cards * cards - 1.0))
    total = 0.0
    for r in range(count):
        row = orders[r]
        descents = 0
        for p in range(cards):
            item = row[p]
            position_counts[item, p] += 1
            positions[item] = p
            if p and item < row[p - 1]:
                descents += 1
        descent_counts[descents] += 1
        slot = (first + r) % (cards - 1)
        pair_counts[row[slot], row[slot + 1]] += 1
        if has_previous:
            squares = 0
            for item in range(cards):
                d = positions[item] - previous[item]
                squares += d * d
            total += 1.0 - scale * squares
        previous[:] = positions
        has_previous = True
    return total


@cache
def _compiled(name: str) -> Callable[..., Any]:
    from numba import njit

    kernel: Callable[..., Any] = _deal if name == "deal" else _count
    compiled: Callable[..., Any] = njit(cache=True, nogil=True)(kernel)
    return compiled


def count_orders(
    orders: Orders,
    position_counts: npt.NDArray[np.int64],
    pair_counts: npt.NDArray[np.int64],
    descent_counts: npt.NDArray[np.int64],
    previous: npt.NDArray[np.int64] | None,
    first: int,
) -> tuple[float, npt.NDArray[np.int64]]:
    """Add shuffled ``orders`` to the counts of :class:`~croupier.rngtest.battery.ShuffleStatistics`
    (in place): each item's position, the neighbours at slot ``(first + k) mod (n - 1)`` of
    shuffle k, the descents; returns the sum of Spearman's rho between consecutive shuffles
    (from ``previous``, the positions of the shuffle before, if any) and the last shuffle's
    positions.

    >>> counts = [np.zeros((3, 3), dtype=np.int64) for _ in range(2)]
    >>> descents = np.zeros(3, dtype=np.int64)
    >>> rows = np.array([[0, 1, 2], [2, 1, 0]], dtype=np.int16)
    >>> rho, last = count_orders(rows, counts[0], counts[1], descents, None, 0)
    >>> rho, last.tolist(), descents.tolist()
    (-1.0, [2, 1, 0], [1, 0, 1])
    """
    last = np.zeros(orders.shape[1], dtype=np.int64) if previous is None else previous.copy()
    total = _compiled("count")(
        np.ascontiguousarray(orders, dtype=np.int16),
        position_counts,
        pair_counts,
        descent_counts,
        last,
        previous is not None,
        first,
    )
    return float(total), last


def deal_orders(stream: Stream, cards: int, limit: int) -> tuple[Orders, int]:
    """Up to ``limit`` shuffles of ``cards`` items (0 to ``cards - 1``) from the bytes of
    ``stream``, as the live shuffle makes them: ``(orders, used)`` where ``orders[k]`` is the
    k-th shuffled list and ``used`` the bytes those shuffles consumed (a last shuffle the
    stream cannot finish is left out, and its bytes are not counted).

    >>> orders, used = deal_orders(np.array([9, 3, 1, 1, 4], dtype=np.uint8), 5, 3)
    >>> orders.tolist(), used
    ([[0, 2, 4, 3, 1]], 4)
    """
    if not 2 <= cards <= 32767:
        raise ValueError(f"the kernel shuffles 2 to 32767 items, not {cards}")
    bounds = np.arange(cards + 1, dtype=np.int64)
    bits = np.array([max(int(b) - 1, 0).bit_length() for b in bounds], dtype=np.int64)
    masks = (np.int64(1) << bits) - 1
    sizes = (bits + 7) // 8
    orders = np.empty((max(limit, 0), cards), dtype=np.int16)
    data = np.ascontiguousarray(stream, dtype=np.uint8)
    done, used = _compiled("deal")(data, masks, sizes, orders, limit)
    return orders[:done], int(used)
