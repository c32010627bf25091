"""The one-call evaluator's pure-Python core: no JIT, so no compile on process start.

A hand's rank is a handful of list reads and one table read (see
:mod:`croupier.evaluation.tables`); about a microsecond a hand.

>>> from croupier.evaluation.rankings import STANDARD
>>> ft = fast_tables(STANDARD)
>>> ft.rank_indices([51, 47, 43, 39, 35])   # As Ks Qs Js Ts
7462
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from croupier.evaluation.rankings import HandRanking
from croupier.evaluation.tables import RankTables, tables_for

__all__ = ["FastTables", "fast_tables"]


class FastTables:
    """Python-list views of a ranking's tables, for quick per-hand lookups.

    >>> from croupier.evaluation.rankings import STANDARD
    >>> FastTables(tables_for(STANDARD)).rank_indices([0, 5, 10, 15, 20])
    1
    """

    __slots__ = ("_flush", "_key", "_key5", "_nonflush5", "_nonflush7", "_smask", "tables")

    def __init__(self, tables: RankTables) -> None:
        self.tables = tables
        """The numpy tables behind these views."""
        self._key = tables.card_key7.tolist()
        self._key5 = tables.card_key5.tolist()
        self._smask = tables.card_suit_mask.tolist()
        self._flush = tables.flush.tolist()
        self._nonflush7: memoryview = tables.nonflush7.data
        self._nonflush5: memoryview = tables.nonflush5.data

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


@cache
def fast_tables(ranking: HandRanking) -> FastTables:
    """The (cached) fast per-hand views of a ranking's tables."""
    return FastTables(tables_for(ranking))
