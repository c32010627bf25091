"""The one-call evaluator's pure-Python core: no JIT, so no compile on process start.

A hand's rank is a handful of list reads and one table read (see
:mod:`croupier.evaluation.tables`); about a microsecond a hand. The tables are read
straight from their cache file (mapped into memory, no numpy), so a process that only
evaluates a few hands (``croupier eval``) never imports numpy; when the file is missing or
damaged, numpy's loader builds or repairs it first.

>>> from croupier.evaluation.rankings import STANDARD
>>> ft = fast_tables(STANDARD)
>>> ft.rank_indices([51, 47, 43, 39, 35])   # As Ks Qs Js Ts
7462
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING

from croupier.evaluation._table_files import (
    RANK_WEIGHTS_5,
    RANK_WEIGHTS_7,
    _cache_file,
    read_npz,
)
from croupier.evaluation.rankings import Category, HandRanking

if TYPE_CHECKING:
    from croupier.evaluation.tables import RankTables

__all__ = ["FastTables", "fast_tables"]


class FastTables:
    """Python-list views of a ranking's tables, for quick per-hand lookups.

    >>> from croupier.evaluation.rankings import STANDARD
    >>> from croupier.evaluation.tables import tables_for
    >>> FastTables(tables_for(STANDARD)).rank_indices([0, 5, 10, 15, 20])
    1
    """

    __slots__ = (
        "_categories",
        "_flush",
        "_key",
        "_key5",
        "_nonflush5",
        "_nonflush7",
        "_smask",
        "_tables",
        "packed",
        "ranking",
    )

    def __init__(self, tables: RankTables) -> None:
        self._setup(
            tables.ranking,
            tables.flush.tolist(),
            tables.nonflush5.data,
            tables.nonflush7.data,
            tables.packed.tolist(),
            tables.categories.tolist(),
        )
        self._tables: RankTables | None = tables

    def _setup(
        self,
        ranking: HandRanking,
        flush: Sequence[int],
        nonflush5: Sequence[int],
        nonflush7: Sequence[int],
        packed: Sequence[int],
        categories: Sequence[int],
    ) -> None:
        self.ranking = ranking
        """The ranking these tables implement."""
        self._key = _card_keys(RANK_WEIGHTS_7)
        self._key5 = _card_keys(RANK_WEIGHTS_5)
        self._smask = [1 << (16 * (i & 3) + (i >> 2)) for i in range(52)]
        self._flush = flush
        self._nonflush5 = nonflush5
        self._nonflush7 = nonflush7
        self.packed = packed
        """Dense rank -> packed value (category position and significant ranks)."""
        self._categories = categories

    @classmethod
    def from_cache_file(cls, ranking: HandRanking) -> FastTables | None:
        """The views read from the ranking's cached table file without numpy, or ``None``
        when the file is missing or not as expected (then :func:`fast_tables` loads, builds
        or repairs it through numpy).

        >>> from croupier.evaluation.rankings import STANDARD
        >>> fast_tables(STANDARD).rank_indices([0, 1, 2, 3, 4]) > 0   # the file exists now
        True
        >>> FastTables.from_cache_file(STANDARD).rank_indices([51, 47, 43, 39, 35])
        7462
        """
        arrays = read_npz(_cache_file(ranking), _LIGHT_ARRAYS)
        if arrays is None:
            return None
        out = cls.__new__(cls)
        out._setup(
            ranking,
            arrays["flush"].tolist(),
            arrays["nonflush5"],
            arrays["nonflush7"],
            arrays["packed"].tolist(),
            arrays["categories"].tolist(),
        )
        out._tables = None
        return out

    @property
    def tables(self) -> RankTables:
        """The numpy tables behind these views (loaded on first use)."""
        if self._tables is None:
            from croupier.evaluation.tables import tables_for

            self._tables = tables_for(self.ranking)
        return self._tables

    @property
    def flush_table(self) -> Sequence[int]:
        """13-bit rank mask of one suit -> rank of the best hand in it (0 under five cards).

        >>> from croupier.evaluation.rankings import STANDARD
        >>> fast_tables(STANDARD).flush_table[0b1111100000000]   # AKQJT suited
        7462
        """
        return self._flush

    def category_of(self, rank: int) -> Category:
        """The category of a dense rank.

        >>> from croupier.evaluation.rankings import STANDARD
        >>> fast_tables(STANDARD).category_of(7462)
        <Category.STRAIGHT_FLUSH: 8>
        """
        return Category(self._categories[rank])

    def rank_indices(self, cards: Sequence[int]) -> int:
        """Rank of the best five of 5-7 card indices (the caller checks the count).

        >>> from croupier.evaluation.rankings import STANDARD
        >>> fast_tables(STANDARD).rank_indices([0, 4, 8, 12, 17])   # 2c 3c 4c 5c 6d: a straight
        5855
        """
        if len(cards) == 5:
            return self.rank_five(*cards)
        if len(cards) == 6:
            return max(self.rank_five(*five) for five in combinations(cards, 5))
        key = 0
        sm = 0
        keys = self._key
        smask = self._smask
        for c in cards:
            key += keys[c]
            sm += smask[c]
        fl = ((key & 0xFFFF) + 0x3333) & 0x8888
        if fl:
            shift = 16 * (((fl & -fl).bit_length() >> 2) - 1)
            return int(self._flush[(sm >> shift) & 0x1FFF])
        return int(self._nonflush7[key >> 16])

    def rank_five(self, a: int, b: int, c: int, d: int, e: int) -> int:
        """Rank of exactly five card indices through the small five-card table.

        >>> from croupier.evaluation.rankings import STANDARD
        >>> fast_tables(STANDARD).rank_five(0, 5, 10, 15, 20)   # 2c 3d 4h 5s 7c: the worst hand
        1
        """
        k5 = self._key5
        key = k5[a] + k5[b] + k5[c] + k5[d] + k5[e]
        if (((key & 0xFFFF) + 0x3333) & 0x8888) != 0:
            mask = (1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2)) | (1 << (d >> 2))
            return int(self._flush[mask | (1 << (e >> 2))])
        return int(self._nonflush5[key >> 16])

    def rank_split(self, own: Sequence[int], board: Sequence[int], n_own: int, n_board: int) -> int:
        """Rank using exactly ``n_own`` own cards and ``n_board`` board cards.

        >>> from croupier.evaluation.rankings import STANDARD
        >>> ft = fast_tables(STANDARD)
        >>> ft.rank_split([51, 50, 47, 43], [39, 35, 3, 7, 8], 2, 3) < 7462   # Omaha: no royal
        True
        """
        best = 0
        for mine in combinations(own, n_own):
            for shared in combinations(board, n_board):
                a, b, c, d, e = mine + shared
                value = self.rank_five(a, b, c, d, e)
                if value > best:
                    best = value
        return best


_MAX7: int = 4 * RANK_WEIGHTS_7[12] + 3 * RANK_WEIGHTS_7[11] + 1
_MAX5: int = 4 * RANK_WEIGHTS_5[12] + RANK_WEIGHTS_5[11] + 1
_LIGHT_ARRAYS: dict[str, tuple[str, int]] = {
    "nonflush7": ("<u2", _MAX7),
    "nonflush5": ("<u2", _MAX5),
    "flush": ("<u2", 1 << 13),
    "packed": ("<i4", -1),
    "categories": ("|u1", -1),
}
"""The arrays the one-call evaluator reads from a table file, with their types and lengths."""


def _card_keys(weights: tuple[int, ...]) -> list[int]:
    """Per card index: rank weight << 16 | one count in the card's 4-bit suit counter."""
    return [(weights[i >> 2] << 16) | (1 << (4 * (i & 3))) for i in range(52)]


@cache
def fast_tables(ranking: HandRanking) -> FastTables:
    """The (cached) fast per-hand views of a ranking's tables: read from the cache file
    without numpy when it is there and sound, else through numpy (building it if need be).

    >>> from croupier.evaluation.rankings import STANDARD
    >>> fast_tables(STANDARD).rank_indices([51, 47, 43, 39, 35, 0, 1])
    7462
    """
    light = FastTables.from_cache_file(ranking)
    if light is not None:
        return light
    from croupier.evaluation.tables import tables_for

    return FastTables(tables_for(ranking))
