"""The Omaha table: the best exactly-2-plus-3 non-flush hand for every board and hole.

An Omaha hand has 60 ways to take two hole cards and three board cards. Without
flushes, the best of them depends only on the board's five ranks (6,175 multisets)
and the hole's four ranks (1,820 multisets), so one table of 6,175 x 1,820 values
(22 MB) answers it in a single read; the rare flush (three board cards and two hole
cards of one suit) is checked apart. Built once with numba (about a second) and
cached on disk beside the other tables.

>>> t = omaha_tables_for(STANDARD)
>>> t.boards, t.holes
(6175, 1820)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from croupier.evaluation import kernels
from croupier.evaluation.rankings import STANDARD, HandRanking
from croupier.evaluation.tables import (
    RANK_WEIGHTS_5,
    cache_dir,
    load_cached,
    rank_multisets,
    tables_for,
)

__all__ = ["OmahaTables", "omaha_tables_for"]

_VERSION: Final = 1
_NONE: Final = 0xFFFF


@dataclass(frozen=True, eq=False)
class OmahaTables:
    """Dense indices of board and hole rank multisets, and the (board, hole) value table.

    >>> omaha_tables_for().nonflush.size == 6175 * 1820
    True
    """

    board_index: npt.NDArray[np.uint16]
    """Five-card ``RANK_WEIGHTS_5`` sum -> dense board index (0xFFFF where none)."""
    hole_index: npt.NDArray[np.uint16]
    """Four-card ``RANK_WEIGHTS_5`` sum -> dense hole index (0xFFFF where none)."""
    nonflush: npt.NDArray[np.uint16]
    """Flat ``board * holes + hole`` -> best non-flush dense rank."""
    boards: int
    """How many board rank multisets there are."""
    holes: int
    """How many hole rank multisets there are."""


def _dense(
    size: int, ranks: tuple[int, ...]
) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint8]]:
    multisets = [m for m in rank_multisets(ranks, size) if sum(m) == size]
    sums = [sum(n * w for n, w in zip(m, RANK_WEIGHTS_5, strict=True)) for m in multisets]
    index = np.full(max(sums) + 1, _NONE, np.uint16)
    as_ranks = np.zeros((len(multisets), size), np.uint8)
    for i, (m, total) in enumerate(zip(multisets, sums, strict=True)):
        if index[total] != _NONE:
            raise AssertionError("five-card rank weights collide: the Omaha table would be wrong")
        index[total] = i
        as_ranks[i] = [r for r in range(13) for _ in range(m[r])]
    return index, as_ranks


def _build(ranking: HandRanking) -> dict[str, npt.NDArray[np.uint16]]:
    ranks = tuple(int(r) for r in ranking.ranks)
    board_index, board_ranks = _dense(5, ranks)
    hole_index, hole_ranks = _dense(4, ranks)
    out = np.zeros(len(board_ranks) * len(hole_ranks), np.uint16)
    weights = np.array(RANK_WEIGHTS_5, np.int64)
    kernels.build_omaha_nonflush(
        board_ranks, hole_ranks, weights, tables_for(ranking).nonflush5, out
    )
    return {"board_index": board_index, "hole_index": hole_index, "nonflush": out}


@cache
def omaha_tables_for(ranking: HandRanking = STANDARD) -> OmahaTables:
    """The Omaha tables of a ranking (built on first use, cached in memory and on disk)."""
    fingerprint = repr((_VERSION, RANK_WEIGHTS_5, ranking))
    digest = hashlib.sha256(fingerprint.encode()).hexdigest()[:16]
    path = cache_dir() / f"omaha-{ranking.name}-{digest}.npz"
    expected: dict[str, tuple[type[np.generic], tuple[int, ...]]] = {
        "board_index": (np.uint16, (-1,)),
        "hole_index": (np.uint16, (-1,)),
        "nonflush": (np.uint16, (-1,)),
    }
    arrays = load_cached(path, expected, lambda: _build(ranking))
    n_boards = int((arrays["board_index"] != _NONE).sum())
    return OmahaTables(
        board_index=arrays["board_index"].astype(np.uint16, copy=False),
        hole_index=arrays["hole_index"].astype(np.uint16, copy=False),
        nonflush=arrays["nonflush"].astype(np.uint16, copy=False),
        boards=n_boards,
        holes=int((arrays["hole_index"] != _NONE).sum()),
    )
