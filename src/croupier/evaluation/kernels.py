"""Numba kernels behind the batch evaluator, the exhaustive counts and the equity engine.

Everything here works on card indices (``4 * rank + suit``) and the arrays of a
:class:`~croupier.evaluation.tables.RankTables`. The kernels are compiled on first
use and cached on disk (``cache=True``), so later processes load them in a fraction
of a second. Nothing here checks its input: the public wrappers in
:mod:`croupier.evaluation.batch` and :mod:`croupier.equity` do.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = [
    "combinations_array",
    "count_categories_5",
    "count_categories_7",
    "eval_any_rows",
    "eval_any_rows_parallel",
    "eval_split_rows",
    "eval_split_rows_parallel",
    "lookup_any",
]


@njit(cache=True, inline="always")
def _flush_suit(fl: int) -> int:
    if fl & 0x8:
        return 0
    if fl & 0x80:
        return 1
    if fl & 0x800:
        return 2
    return 3


@njit(cache=True, inline="always")
def lookup_any(key, suit_mask, nonflush7, flush):
    """Rank of 5-7 cards from their summed card key and summed suit mask."""
    fl = ((key & 0xFFFF) + 0x3333) & 0x8888
    if fl:
        return flush[(suit_mask >> (16 * _flush_suit(fl))) & 0x1FFF]
    return nonflush7[key >> 16]


@njit(cache=True, inline="always")
def _rank_five(a, b, c, d, e, key5, nonflush5, flush):
    """Rank of exactly five cards through the five-card table."""
    key = key5[a] + key5[b] + key5[c] + key5[d] + key5[e]
    if ((key & 0xFFFF) + 0x3333) & 0x8888:
        return flush[(1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2)) | (1 << (d >> 2))
                     | (1 << (e >> 2))]  # fmt: skip
    return nonflush5[key >> 16]


@njit(cache=True, inline="always")
def _rank_row(row, key7, key5, smask, nonflush7, nonflush5, flush):
    """Best five of one row of 5, 6 or 7 cards."""
    width = row.shape[0]
    if width == 7:
        key = 0
        sm = 0
        for j in range(7):
            c = row[j]
            key += key7[c]
            sm += smask[c]
        return lookup_any(key, sm, nonflush7, flush)
    if width == 5:
        return _rank_five(row[0], row[1], row[2], row[3], row[4], key5, nonflush5, flush)
    best = 0  # six cards: the best of the six fives (sums are unique per hand size only)
    for skip in range(6):
        v = 0
        if skip == 0:
            v = _rank_five(row[1], row[2], row[3], row[4], row[5], key5, nonflush5, flush)
        elif skip == 1:
            v = _rank_five(row[0], row[2], row[3], row[4], row[5], key5, nonflush5, flush)
        elif skip == 2:
            v = _rank_five(row[0], row[1], row[3], row[4], row[5], key5, nonflush5, flush)
        elif skip == 3:
            v = _rank_five(row[0], row[1], row[2], row[4], row[5], key5, nonflush5, flush)
        elif skip == 4:
            v = _rank_five(row[0], row[1], row[2], row[3], row[5], key5, nonflush5, flush)
        else:
            v = _rank_five(row[0], row[1], row[2], row[3], row[4], key5, nonflush5, flush)
        if v > best:
            best = v
    return best


@njit(cache=True, nogil=True)
def eval_any_rows(cards, key7, key5, smask, nonflush7, nonflush5, flush, out):
    """Best five of each row's 5-7 cards, one thread."""
    for i in range(cards.shape[0]):
        out[i] = _rank_row(cards[i], key7, key5, smask, nonflush7, nonflush5, flush)


@njit(cache=True, nogil=True, parallel=True)
def eval_any_rows_parallel(cards, key7, key5, smask, nonflush7, nonflush5, flush, out):
    """Best five of each row's 5-7 cards, on every core."""
    for i in prange(cards.shape[0]):
        out[i] = _rank_row(cards[i], key7, key5, smask, nonflush7, nonflush5, flush)


@njit(cache=True, inline="always")
def _split_one(hole, board, hole_combos, board_combos, key5, nonflush5, flush, scratch):
    """Best hand using exactly one listed hole pair with one listed board triple.

    What repeats across the pairs x triples combinations is computed once: each
    pair's and each triple's rank-weight sum, and the one suit (if any) all its
    cards share; a combination can only be a flush when both share the same suit.
    """
    n_pairs = hole_combos.shape[0]
    n_triples = board_combos.shape[0]
    for p in range(n_pairs):
        x = hole[hole_combos[p, 0]]
        y = hole[hole_combos[p, 1]]
        scratch[0, p] = (key5[x] + key5[y]) >> 16
        scratch[1, p] = (x & 3) if (x & 3) == (y & 3) else -1
        scratch[2, p] = (1 << (x >> 2)) | (1 << (y >> 2))
    best = 0
    for t in range(n_triples):
        a = board[board_combos[t, 0]]
        b = board[board_combos[t, 1]]
        c = board[board_combos[t, 2]]
        tr = (key5[a] + key5[b] + key5[c]) >> 16
        for p in range(n_pairs):
            # a flush combination also has its plain rank value here, never higher
            v = nonflush5[tr + scratch[0, p]]
            if v > best:
                best = v
        if (a & 3) == (b & 3) and (b & 3) == (c & 3):
            for p in range(n_pairs):
                if scratch[1, p] == (a & 3):
                    v = flush[scratch[2, p] | (1 << (a >> 2)) | (1 << (b >> 2)) | (1 << (c >> 2))]
                    if v > best:
                        best = v
    return best


@njit(cache=True, nogil=True)
def eval_split_rows(hole, board, hole_combos, board_combos, key5, nonflush5, flush, out):
    """Omaha-style rows (exactly two hole + three board cards), one thread."""
    scratch = np.empty((3, hole_combos.shape[0]), np.int64)
    for i in range(hole.shape[0]):
        out[i] = _split_one(
            hole[i], board[i], hole_combos, board_combos, key5, nonflush5, flush, scratch
        )


@njit(cache=True, nogil=True, parallel=True)
def eval_split_rows_parallel(hole, board, hole_combos, board_combos, key5, nonflush5, flush, out):
    """Omaha-style rows (exactly two hole + three board cards), on every core."""
    n = hole.shape[0]
    chunks = 64
    size = (n + chunks - 1) // chunks
    for chunk in prange(chunks):
        scratch = np.empty((3, hole_combos.shape[0]), np.int64)
        for i in range(chunk * size, min(n, (chunk + 1) * size)):
            out[i] = _split_one(
                hole[i], board[i], hole_combos, board_combos, key5, nonflush5, flush, scratch
            )


@njit(cache=True, nogil=True)
def combinations_array(n, m):
    """Every m-subset of range(n) in lexicographic order, as a (C(n, m), m) uint8 array."""
    total = 1
    for i in range(m):
        total = total * (n - i) // (i + 1)
    out = np.empty((total, m), np.uint8)
    idx = np.arange(m)
    for row in range(total):
        for j in range(m):
            out[row, j] = idx[j]
        j = m - 1
        while j >= 0 and idx[j] == n - m + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for k in range(j + 1, m):
            idx[k] = idx[k - 1] + 1
    return out


@njit(cache=True, nogil=True)
def count_categories_7(deck, key7, smask, nonflush7, flush, categories):
    """Category counts over every seven-card hand from ``deck`` (incremental sums)."""
    counts = np.zeros(9, np.int64)
    n = deck.shape[0]
    for a in range(n):
        ka, ma = key7[deck[a]], smask[deck[a]]
        for b in range(a + 1, n):
            kb, mb = ka + key7[deck[b]], ma + smask[deck[b]]
            for c in range(b + 1, n):
                kc, mc = kb + key7[deck[c]], mb + smask[deck[c]]
                for d in range(c + 1, n):
                    kd, md = kc + key7[deck[d]], mc + smask[deck[d]]
                    for e in range(d + 1, n):
                        ke, me = kd + key7[deck[e]], md + smask[deck[e]]
                        for f in range(e + 1, n):
                            kf, mf = ke + key7[deck[f]], me + smask[deck[f]]
                            for g in range(f + 1, n):
                                v = lookup_any(
                                    kf + key7[deck[g]], mf + smask[deck[g]], nonflush7, flush
                                )
                                counts[categories[v]] += 1
    return counts


@njit(cache=True, nogil=True)
def count_categories_5(deck, key5, smask, nonflush5, flush, categories):
    """Category counts over every five-card hand from ``deck``, via the 5-card table."""
    counts = np.zeros(9, np.int64)
    n = deck.shape[0]
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                for d in range(c + 1, n):
                    for e in range(d + 1, n):
                        v = _rank_five(deck[a], deck[b], deck[c], deck[d], deck[e],
                                       key5, nonflush5, flush)  # fmt: skip
                        counts[categories[v]] += 1
    return counts


@njit(cache=True, nogil=True)
def build_omaha_nonflush(board_ranks, hole_ranks, weights5, nonflush5, out):
    """Best exactly-2-plus-3 non-flush value for every (board, hole) rank multiset pair.

    ``out`` is flat, indexed by ``board * n_holes + hole``. Pairs that no deck can deal
    (five or more of one rank) hold whatever the five-card table says; no hand reaches them.
    """
    n_holes = hole_ranks.shape[0]
    triple = np.empty(10, np.int64)
    pair = np.empty(6, np.int64)
    for b in range(board_ranks.shape[0]):
        t = 0
        for i in range(5):
            for j in range(i + 1, 5):
                for k in range(j + 1, 5):
                    triple[t] = (
                        weights5[board_ranks[b, i]]
                        + weights5[board_ranks[b, j]]
                        + weights5[board_ranks[b, k]]
                    )
                    t += 1
        for h in range(n_holes):
            p = 0
            for i in range(4):
                for j in range(i + 1, 4):
                    pair[p] = weights5[hole_ranks[h, i]] + weights5[hole_ranks[h, j]]
                    p += 1
            best = 0
            for t in range(10):
                for p in range(6):
                    s = triple[t] + pair[p]
                    if s < nonflush5.shape[0]:
                        v = nonflush5[s]
                        if v > best:
                            best = v
            out[b * n_holes + h] = best


@njit(cache=True, inline="always")
def _omaha_flush(hole, board, suit, flush):
    """Best flush using exactly two hole cards and three board cards of ``suit``."""
    best = 0
    for i in range(4):
        if hole[i] & 3 != suit:
            continue
        for j in range(i + 1, 4):
            if hole[j] & 3 != suit:
                continue
            hm = (1 << (hole[i] >> 2)) | (1 << (hole[j] >> 2))
            for a in range(5):
                if board[a] & 3 != suit:
                    continue
                for b in range(a + 1, 5):
                    if board[b] & 3 != suit:
                        continue
                    for c in range(b + 1, 5):
                        if board[c] & 3 != suit:
                            continue
                        v = flush[hm | (1 << (board[a] >> 2)) | (1 << (board[b] >> 2))
                                  | (1 << (board[c] >> 2))]  # fmt: skip
                        if v > best:
                            best = v
    return best


@njit(cache=True, inline="always")
def omaha_one(hole, board, key5, board_index, hole_index, omaha_nonflush, n_holes, flush):
    """Omaha (4 hole, 5 board, exactly 2 + 3): one read for the best non-flush hand.

    The board's and the hole's rank multisets each map to a dense index; a table of
    every (board, hole) pair holds the best of the 60 combinations. A flush needs three
    board cards and two hole cards of one suit, which the packed suit counters show.
    """
    bk = key5[board[0]] + key5[board[1]] + key5[board[2]] + key5[board[3]] + key5[board[4]]
    hk = key5[hole[0]] + key5[hole[1]] + key5[hole[2]] + key5[hole[3]]
    best = omaha_nonflush[board_index[bk >> 16] * n_holes + hole_index[hk >> 16]]
    suited = (((bk & 0xFFFF) + 0x5555) & ((hk & 0xFFFF) + 0x6666)) & 0x8888
    while suited:
        low = suited & -suited
        v = _omaha_flush(hole, board, _flush_suit(low), flush)
        if v > best:
            best = v
        suited ^= low
    return best


@njit(cache=True, nogil=True)
def eval_omaha_rows(
    hole, board, key5, board_index, hole_index, omaha_nonflush, n_holes, flush, out
):
    """Omaha rows through the (board, hole) table, one thread."""
    for i in range(hole.shape[0]):
        out[i] = omaha_one(
            hole[i], board[i], key5, board_index, hole_index, omaha_nonflush, n_holes, flush
        )


@njit(cache=True, nogil=True, parallel=True)
def eval_omaha_rows_parallel(
    hole, board, key5, board_index, hole_index, omaha_nonflush, n_holes, flush, out
):
    """Omaha rows through the (board, hole) table, on every core."""
    for i in prange(hole.shape[0]):
        out[i] = omaha_one(
            hole[i], board[i], key5, board_index, hole_index, omaha_nonflush, n_holes, flush
        )
