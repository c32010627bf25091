"""Exact equity without dealing boards one by one: count them by rank pattern and suit pattern.

A hand's value depends on the suits only through flushes. So the completions of the board
are counted in two passes:

1. **Every completion as if no one could make a flush.** The completions that share a rank
   multiset (which ranks, how many of each) give every player the same non-flush value, and
   there are ``prod C(available of rank r, times r is drawn)`` of them. A preflop Hold'em
   deal has at most 6,175 rank multisets for 1,712,304 boards.
2. **A correction for the completions where someone can make a flush.** A flush needs three
   or more board cards of one suit, so at most one suit can make a flush on any board. For
   each suit, each number ``k`` of its cards drawn (from the least that lets someone reach a
   flush), each set of ``k`` of its ranks, and each rank multiset of the other cards drawn
   (from the other three suits), the true outcome replaces the non-flush outcome counted in
   pass 1: ``+ways`` for the true one, ``-ways`` for the non-flush one.

The counts are integers and exact; the tests check them against dealing every board.

Every kernel adds into ``wins[p]`` (completions player p wins alone) and ``ties[p, k]``
(completions where p shares the best hand with ``k - 1`` others), as the board-by-board
kernels of :mod:`croupier.equity.kernels` do.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.evaluation.kernels import combinations_array

__all__ = ["holdem_exact", "omaha_exact", "rank_multisets"]

_BINOM = np.array(
    [[1, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0], [1, 2, 1, 0, 0, 0], [1, 3, 3, 1, 0, 0],
     [1, 4, 6, 4, 1, 0]], np.int64,
)  # fmt: skip
"""``_BINOM[n, k]`` = C(n, k) for n <= 4 cards of a rank."""


@njit(cache=True)
def rank_multisets(avail, size, w7, w5):
    """Every multiset of ``size`` ranks drawable from ``avail[r]`` cards of each rank.

    Returns ``(ways, key7, key5)``: how many card sets have that multiset, and its sums of
    ``w7`` and ``w5`` rank weights.
    """
    total = 1
    for i in range(size):
        total = total * (13 + i) // (i + 1)
    ways = np.empty(total, np.int64)
    key7 = np.empty(total, np.int64)
    key5 = np.empty(total, np.int64)
    if size == 0:
        ways[0] = 1
        key7[0] = 0
        key5[0] = 0
        return ways[:1], key7[:1], key5[:1]
    idx = np.zeros(size, np.int64)  # a non-decreasing tuple of ranks
    count = 0
    while True:
        ok = True
        w = 1
        a = 0
        b = 0
        j = 0
        while j < size:
            r = idx[j]
            m = 1
            while j + m < size and idx[j + m] == r:
                m += 1
            if m > avail[r]:
                ok = False
                break
            w *= _BINOM[avail[r], m]
            a += m * w7[r]
            b += m * w5[r]
            j += m
        if ok:
            ways[count] = w
            key7[count] = a
            key5[count] = b
            count += 1
        j = size - 1
        while j >= 0 and idx[j] == 12:
            j -= 1
        if j < 0:
            break
        v = idx[j] + 1
        for t in range(j, size):
            idx[t] = v
    return ways[:count], key7[:count], key5[:count]


@njit(cache=True, inline="always")
def _score(values, weight, wins, ties):
    """Add ``weight`` completions with these values to the counts (weight may be negative)."""
    best = -1
    count = 0
    for p in range(values.shape[0]):
        if values[p] > best:
            best = values[p]
            count = 1
        elif values[p] == best:
            count += 1
    for p in range(values.shape[0]):
        if values[p] == best:
            if count == 1:
                wins[p] += weight
            else:
                ties[p, count] += weight


@njit(cache=True)
def _deck_by_rank_and_suit(remaining):
    """Counts of the remaining cards: by (rank, suit) and by rank."""
    by_rs = np.zeros((13, 4), np.int64)
    for c in remaining:
        by_rs[c >> 2, c & 3] += 1
    by_rank = np.zeros(13, np.int64)
    for r in range(13):
        by_rank[r] = by_rs[r, 0] + by_rs[r, 1] + by_rs[r, 2] + by_rs[r, 3]
    return by_rs, by_rank


@njit(cache=True)
def _suit_counts(cards):
    """How many of ``cards`` are of each suit, and each suit's rank mask."""
    counts = np.zeros(4, np.int64)
    masks = np.zeros(4, np.int64)
    for c in cards:
        counts[c & 3] += 1
        masks[c & 3] |= 1 << (c >> 2)
    return counts, masks


@njit(cache=True)
def _suit_draws(by_rs, by_rank, s, k, board_mask, board_rank, w):
    """Every way to draw exactly ``k`` cards of suit ``s``: the drawn ranks' mask (with the
    board's ranks of that suit) and weight sum (with the board's), and the availability of
    the other three suits' cards by rank."""
    others = np.empty(13, np.int64)
    suited = np.empty(13, np.int64)
    n_suited = 0
    for r in range(13):
        others[r] = by_rank[r] - by_rs[r, s]
        if by_rs[r, s]:
            suited[n_suited] = r
            n_suited += 1
    subsets = combinations_array(n_suited, k) if k <= n_suited else np.empty((0, k), np.uint8)
    masks = np.empty(subsets.shape[0], np.int64)
    sums = np.empty(subsets.shape[0], np.int64)
    for t in range(subsets.shape[0]):
        mask = board_mask
        total = board_rank
        for j in range(k):
            r = suited[subsets[t, j]]
            mask |= 1 << r
            total += w[r]
        masks[t] = mask
        sums[t] = total
    return masks, sums, others


@njit(cache=True, nogil=True)
def holdem_exact(hole, board, remaining, w7, w5, offsets, values, shift, flush, wins, ties):
    """Hold'em: exact counts over every completion of ``board`` from ``remaining``.

    ``offsets``/``values`` are the seven-card compact table (rank sums of ``w7``).
    """
    n = hole.shape[0]
    d = 5 - board.shape[0]
    by_rs, by_rank = _deck_by_rank_and_suit(remaining)
    hole_rank = np.zeros(n, np.int64)
    hole_cnt = np.zeros((n, 4), np.int64)
    hole_mask = np.zeros((n, 4), np.int64)
    for p in range(n):
        for c in hole[p]:
            hole_rank[p] += w7[c >> 2]
        cnt, msk = _suit_counts(hole[p])
        hole_cnt[p] = cnt
        hole_mask[p] = msk
    board_rank = 0
    for c in board:
        board_rank += w7[c >> 2]
    board_cnt, board_mask = _suit_counts(board)
    plain = np.empty(n, np.int64)
    true = np.empty(n, np.int64)

    ways, key7, _ = rank_multisets(by_rank, d, w7, w5)
    for i in range(ways.shape[0]):
        bk = board_rank + key7[i]
        for p in range(n):
            r = hole_rank[p] + bk
            plain[p] = values[r + offsets[r >> shift]]
        _score(plain, ways[i], wins, ties)

    for s in range(4):
        most = 0
        for p in range(n):
            most = max(most, hole_cnt[p, s])
        for k in range(max(0, 5 - board_cnt[s] - most), d + 1):
            masks, sums, others = _suit_draws(by_rs, by_rank, s, k, board_mask[s], board_rank, w7)
            ways2, key7b, _ = rank_multisets(others, d - k, w7, w5)
            for t in range(masks.shape[0]):
                smask = masks[t]
                sk = sums[t]
                for i in range(ways2.shape[0]):
                    bk = sk + key7b[i]
                    changed = False
                    for p in range(n):
                        r = hole_rank[p] + bk
                        v = values[r + offsets[r >> shift]]
                        plain[p] = v
                        if hole_cnt[p, s] + board_cnt[s] + k >= 5:
                            f = flush[hole_mask[p, s] | smask]
                            if f > v:
                                v = f
                                changed = True
                        true[p] = v
                    if changed:
                        _score(true, ways2[i], wins, ties)
                        _score(plain, -ways2[i], wins, ties)


@njit(cache=True, inline="always")
def _omaha_flush(hole_ranks, n_hole, board_mask, flush):
    """Best flush from two of ``hole_ranks[:n_hole]`` and three of the ranks in ``board_mask``."""
    board_ranks = np.empty(13, np.int64)
    nb = 0
    for r in range(13):
        if board_mask >> r & 1:
            board_ranks[nb] = r
            nb += 1
    best = 0
    for a in range(n_hole):
        for b in range(a + 1, n_hole):
            pair = (1 << hole_ranks[a]) | (1 << hole_ranks[b])
            for x in range(nb):
                for y in range(x + 1, nb):
                    for z in range(y + 1, nb):
                        v = flush[pair | (1 << board_ranks[x]) | (1 << board_ranks[y])
                                  | (1 << board_ranks[z])]  # fmt: skip
                        if v > best:
                            best = v
    return best


@njit(cache=True, nogil=True)
def omaha_exact(
    hole, board, remaining, w7, w5, board_index, hole_index, omaha_nonflush, n_holes, flush,
    wins, ties,
):  # fmt: skip
    """Omaha (exactly two hole and three board cards): exact counts over every completion.

    The non-flush value of a (board, hole) pair of rank multisets is one read of the Omaha
    table; a flush needs two hole cards and three board cards of one suit.
    """
    n = hole.shape[0]
    d = 5 - board.shape[0]
    by_rs, by_rank = _deck_by_rank_and_suit(remaining)
    hole_at = np.zeros(n, np.int64)
    hole_cnt = np.zeros((n, 4), np.int64)
    hole_ranks = np.zeros((n, 4, 4), np.int64)
    for p in range(n):
        hk = 0
        for c in hole[p]:
            hk += w5[c >> 2]
            s = c & 3
            hole_ranks[p, s, hole_cnt[p, s]] = c >> 2
            hole_cnt[p, s] += 1
        hole_at[p] = hole_index[hk]
    board_rank = 0
    for c in board:
        board_rank += w5[c >> 2]
    board_cnt, board_mask = _suit_counts(board)
    plain = np.empty(n, np.int64)
    true = np.empty(n, np.int64)

    ways, _, key5 = rank_multisets(by_rank, d, w7, w5)
    for i in range(ways.shape[0]):
        row = board_index[board_rank + key5[i]] * n_holes
        for p in range(n):
            plain[p] = omaha_nonflush[row + hole_at[p]]
        _score(plain, ways[i], wins, ties)

    for s in range(4):
        most = 0
        for p in range(n):
            most = max(most, hole_cnt[p, s])
        if most < 2:
            continue  # nobody holds two of this suit: nobody flushes in it
        for k in range(max(0, 3 - board_cnt[s]), d + 1):
            masks, sums, others = _suit_draws(by_rs, by_rank, s, k, board_mask[s], board_rank, w5)
            ways2, _, key5b = rank_multisets(others, d - k, w7, w5)
            for t in range(masks.shape[0]):
                smask = masks[t]
                sk = sums[t]
                best_flush = np.zeros(n, np.int64)
                for p in range(n):
                    if hole_cnt[p, s] >= 2:
                        best_flush[p] = _omaha_flush(hole_ranks[p, s], hole_cnt[p, s], smask, flush)
                for i in range(ways2.shape[0]):
                    row = board_index[sk + key5b[i]] * n_holes
                    changed = False
                    for p in range(n):
                        v = omaha_nonflush[row + hole_at[p]]
                        plain[p] = v
                        if best_flush[p] > v:
                            v = best_flush[p]
                            changed = True
                        true[p] = v
                    if changed:
                        _score(true, ways2[i], wins, ties)
                        _score(plain, -ways2[i], wins, ties)
