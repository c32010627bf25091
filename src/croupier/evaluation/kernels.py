# mypy: disable-error-code="call-arg,var-annotated,no-untyped-call"
"""Numba kernels behind the batch evaluator, the exhaustive counts and the equity engine.

Everything here works on card indices (``4 * rank + suit``) and the arrays of a
:class:`~croupier.evaluation.tables.RankTables`. The kernels are compiled on first
use and cached on disk (``cache=True``), so later processes load them in a fraction
of a second. Nothing here checks its input: the public wrappers in
:mod:`croupier.evaluation.batch` and :mod:`croupier.equity` do.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = [
    "combinations_array",
    "count_categories_5",
    "count_categories_7",
    "eval_any_rows",
    "eval_any_rows_parallel",
    "eval_hashed_rows",
    "eval_hashed_rows_parallel",
    "eval_hashed_rows_unchecked",
    "eval_hashed_rows_unchecked_parallel",
    "eval_split_rows",
    "eval_split_rows_parallel",
    "key_and_mask_sum7",
    "lookup_any",
    "place_rows",
    "popcount",
    "rows_valid",
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


@njit(cache=True, nogil=True)
def place_rows(keys, shift, capacity):
    """First-fit-decreasing displacement of sparse key rows into a compact table.

    Keys are split into rows ``key >> shift``; each row (fullest first) gets the smallest
    displacement at which none of its columns ``key & (2**shift - 1)`` lands on a used
    slot. Returns ``(offsets, size)`` with ``slot = key + offsets[key >> shift]`` unique.
    """
    n_rows = (keys.max() >> shift) + 1
    counts = np.zeros(n_rows, np.int64)
    for k in keys:
        counts[k >> shift] += 1
    order = np.argsort(-counts, kind="mergesort")
    starts = np.zeros(n_rows + 1, np.int64)
    for r in range(n_rows):
        starts[r + 1] = starts[r] + counts[r]
    cols = np.empty(keys.shape[0], np.int64)
    fill = starts[:-1].copy()
    mask = (1 << shift) - 1
    for k in keys:
        r = k >> shift
        cols[fill[r]] = k & mask
        fill[r] += 1
    used = np.zeros(capacity + 1, np.bool_)
    offsets = np.zeros(n_rows, np.int64)
    size = 0
    lowest_free = 0
    for r in order:
        if counts[r] == 0:
            break
        o = max(0, lowest_free - cols[starts[r]])
        while True:
            fits = True
            for j in range(starts[r], starts[r + 1]):
                if used[o + cols[j]]:
                    fits = False
                    break
            if fits:
                break
            o += 1
            if o + mask >= capacity:
                return offsets, -1  # no room: the caller retries with more capacity
        for j in range(starts[r], starts[r + 1]):
            used[o + cols[j]] = True
            size = max(size, o + cols[j] + 1)
        while used[lowest_free]:
            lowest_free += 1
        offsets[r] = o - (r << shift)
    return offsets, size


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64 (``llvm.ctpop``: one instruction where the CPU has it)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, [args[0]])

    return sig, codegen


@intrinsic
def trailing_zeros(typingctx, x):
    """Index of the lowest set bit of a uint64 (64 for zero; ``llvm.cttz``)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

    return sig, codegen


_INVALID = np.uint64(0x8000800080008000)
"""Bit 15 of each suit's 16-bit field: set by a card index outside the deck (never a rank)."""


@njit(cache=True, inline="always")
def _index(c):
    """A card entry as a table index 0..255; anything outside 0..255 becomes 255 (invalid)."""
    return min(np.uint64(c), np.uint64(255))


@njit(cache=True, inline="always")
def _bad(s, width):
    """Non-zero when a hand's summed one-bit masks show a repeated or an invalid card.

    Distinct cards set distinct bits, so the sum has exactly ``width`` bits; a repeat
    carries into fewer bits, an invalid card sets a bit-15 marker.
    """
    return (popcount(s) ^ np.uint64(width)) | (s & _INVALID)


@intrinsic
def key_and_mask_sum7(typingctx, table, c0, c1, c2, c3, c4, c5, c6):
    """Sums of ``table[c, 0]`` and of ``table[c, 1]`` over seven card indices, as a pair.

    Each card's key and mask sit side by side (16 bytes), so one 128-bit load and one
    128-bit add (SSE2: every x86-64 core) take both: the checked loop then does as many
    loads as the unchecked one, and the check costs a popcount a row.
    """
    sig = types.UniTuple(types.uint64, 2)(table, c0, c1, c2, c3, c4, c5, c6)

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        pair = ir.VectorType(ir.IntType(64), 2)
        total = None
        for card in args[1:]:
            index = builder.zext(card, ir.IntType(64)) if card.type.width < 64 else card
            row = builder.gep(data, [builder.shl(index, ir.Constant(ir.IntType(64), 1))])
            value = builder.load(builder.bitcast(row, pair.as_pointer()), align=8)
            total = value if total is None else builder.add(total, value)
        parts = [builder.extract_element(total, ir.Constant(ir.IntType(32), j)) for j in (0, 1)]
        return context.make_tuple(builder, signature.return_type, parts)

    return sig, codegen


@njit(cache=True, nogil=True)
def _hashed7(cards, key_mask, offsets, values, flush, shift, out):
    """Seven-card rows, checked (see :func:`eval_hashed_rows`).

    Written out in one piece, cards unrolled: moving the lookup into an inlined helper
    made this loop 1.9x slower, and a card loop of run-time length 2.6x (measured).
    Every row has exactly seven bits in its summed masks when it is valid and fewer or a
    marker bit otherwise, so summing the popcounts and or-ing the sums checks them all.
    """
    bits = np.uint64(0)
    seen = np.uint64(0)
    for i in range(cards.shape[0]):
        k, s = key_and_mask_sum7(
            key_mask, _index(cards[i, 0]), _index(cards[i, 1]), _index(cards[i, 2]),
            _index(cards[i, 3]), _index(cards[i, 4]), _index(cards[i, 5]), _index(cards[i, 6]),
        )  # fmt: skip
        bits += popcount(s)
        seen |= s
        fl = ((k & np.uint64(0xFFFF)) + np.uint64(0x3333)) & np.uint64(0x8888)
        if fl:
            to_suit = (trailing_zeros(fl) << np.uint64(2)) & np.uint64(0x30)
            out[i] = flush[(s >> to_suit) & np.uint64(0x1FFF)]
        else:
            r = np.int64(k >> np.uint64(16))
            out[i] = values[r + offsets[r >> shift]]
    return bits != np.uint64(7 * cards.shape[0]) or (seen & _INVALID) != 0


@njit(cache=True, nogil=True)
def _hashed_any(cards, key, mask, offsets, values, flush, shift, out):
    """Rows of any width, checked (five and six cards; the loop of :func:`_hashed7`)."""
    width = cards.shape[1]
    bad = np.uint64(0)
    for i in range(cards.shape[0]):
        k = 0
        s = np.uint64(0)
        for j in range(width):
            c = _index(cards[i, j])
            k += key[c]
            s += mask[c]
        bad |= _bad(s, width)
        fl = np.uint64(((k & 0xFFFF) + 0x3333) & 0x8888)
        if fl:
            to_suit = (trailing_zeros(fl) << np.uint64(2)) & np.uint64(0x30)
            out[i] = flush[(s >> to_suit) & np.uint64(0x1FFF)]
        else:
            r = k >> 16
            out[i] = values[r + offsets[r >> shift]]
    return bad


@njit(cache=True, nogil=True)
def eval_hashed_rows(cards, key, mask, key_mask, offsets, values, flush, shift, out):
    """Rank every row of 5, 6 or 7 cards through the compact tables, checking as it goes.

    A row's one-bit card masks are summed: distinct cards set distinct bits, so the sum
    has exactly as many bits as cards; a repeat carries into fewer, and a byte that is not a
    card sets a bit-15 marker. The summed masks also give the flush suit's ranks. Returns
    True when some row failed the check (its ``out`` entry is then meaningless; the caller
    finds the row and says what is wrong).
    """
    if cards.shape[1] == 7:
        return _hashed7(cards, key_mask, offsets, values, flush, shift, out)
    return _hashed_any(cards, key, mask, offsets, values, flush, shift, out) != 0


@njit(cache=True, nogil=True, parallel=True)
def eval_hashed_rows_parallel(cards, key, mask, key_mask, offsets, values, flush, shift, out):
    """:func:`eval_hashed_rows` on every core (64 chunks)."""
    n = cards.shape[0]
    chunks = 64
    size = (n + chunks - 1) // chunks
    flags = np.zeros(chunks, np.bool_)
    for chunk in prange(chunks):
        lo = min(n, chunk * size)
        hi = min(n, lo + size)
        flags[chunk] = eval_hashed_rows(
            cards[lo:hi], key, mask, key_mask, offsets, values, flush, shift, out[lo:hi]
        )
    return flags.any()


@njit(cache=True, nogil=True)
def rows_valid(cards, mask):
    """True when no row repeats a card or holds one outside the deck (the check alone)."""
    width = cards.shape[1]
    bad = np.uint64(0)
    for i in range(cards.shape[0]):
        s = np.uint64(0)
        for j in range(width):
            s += mask[_index(cards[i, j])]
        bad |= _bad(s, width)
    return bad == 0


@njit(cache=True, nogil=True)
def _unchecked7(cards, key, offsets, values, flush, shift, out):
    """Seven-card rows, unchecked: only the keys are summed; a flush (about 3 % of random
    seven-card hands) finds its suit's ranks from the row again."""
    for i in range(cards.shape[0]):
        k = (key[_index(cards[i, 0])] + key[_index(cards[i, 1])] + key[_index(cards[i, 2])]
             + key[_index(cards[i, 3])] + key[_index(cards[i, 4])] + key[_index(cards[i, 5])]
             + key[_index(cards[i, 6])])  # fmt: skip
        fl = np.uint64(((k & 0xFFFF) + 0x3333) & 0x8888)
        if fl:
            out[i] = flush[_suit_ranks(cards, i, 7, trailing_zeros(fl) >> np.uint64(2))]
        else:
            r = k >> 16
            out[i] = values[r + offsets[r >> shift]]


@njit(cache=True, nogil=True)
def _unchecked_any(cards, key, offsets, values, flush, shift, out):
    """Rows of any width, unchecked."""
    width = cards.shape[1]
    for i in range(cards.shape[0]):
        k = 0
        for j in range(width):
            k += key[_index(cards[i, j])]
        fl = np.uint64(((k & 0xFFFF) + 0x3333) & 0x8888)
        if fl:
            out[i] = flush[_suit_ranks(cards, i, width, trailing_zeros(fl) >> np.uint64(2))]
        else:
            r = k >> 16
            out[i] = values[r + offsets[r >> shift]]


@njit(cache=True)
def _suit_ranks(cards, i, width, suit):
    """The 13-bit mask of the ranks of ``suit`` in row ``i`` (a flush's slow path)."""
    ranks = np.uint64(0)
    for j in range(width):
        c = _index(cards[i, j])
        if (c & np.uint64(3)) == suit:
            ranks |= np.uint64(1) << ((c >> np.uint64(2)) & np.uint64(15))
    return ranks & np.uint64(0x1FFF)


@njit(cache=True, nogil=True)
def eval_hashed_rows_unchecked(cards, key, offsets, values, flush, shift, out):
    """:func:`eval_hashed_rows` for input the caller guarantees (no check at all)."""
    if cards.shape[1] == 7:
        _unchecked7(cards, key, offsets, values, flush, shift, out)
    else:
        _unchecked_any(cards, key, offsets, values, flush, shift, out)


@njit(cache=True, nogil=True, parallel=True)
def eval_hashed_rows_unchecked_parallel(cards, key, offsets, values, flush, shift, out):
    """:func:`eval_hashed_rows_unchecked` on every core (64 chunks)."""
    n = cards.shape[0]
    chunks = 64
    size = (n + chunks - 1) // chunks
    for chunk in prange(chunks):
        lo = min(n, chunk * size)
        hi = min(n, lo + size)
        eval_hashed_rows_unchecked(cards[lo:hi], key, offsets, values, flush, shift, out[lo:hi])


_AHEAD = 32
"""Rows a wide-integer kernel prefetches ahead (32 rows of 7 int64: 1.8 KB)."""


def _prefetcher(locality: int) -> Any:
    """An intrinsic ``(array, index)`` that hints the CPU to load ``array``'s flat element
    ``index`` (``llvm.prefetch``: never faults, even past the end); ``locality`` 3 asks for
    every cache level, 1 for the outer ones only."""

    @intrinsic
    def prefetch(typingctx, array, index):
        sig = types.void(array, index)

        def codegen(context, builder, signature, args):
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            byte = ir.IntType(8).as_pointer()
            where = builder.bitcast(builder.gep(data, [args[1]]), byte)
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32])
            fn = builder.module.declare_intrinsic("llvm.prefetch", [byte], fnty)
            hint = [ir.Constant(i32, 0), ir.Constant(i32, locality), ir.Constant(i32, 1)]
            builder.call(fn, [where, *hint])
            return context.get_dummy_value()

        return sig, codegen

    return prefetch


_prefetch = _prefetcher(3)
"""Prefetch into every cache level (the unchecked wide kernel)."""
_prefetch_outer = _prefetcher(1)
"""Prefetch into the outer caches only: the checked wide kernel's stream then leaves the
first-level cache's few outstanding misses to the table reads (measured faster than
:data:`_prefetch` on a 2-core AMD EPYC)."""


_WIDE_AHEAD = 128
"""Rows the checked wide-integer kernel prefetches ahead (128 rows of 7 int64: 7 KB)."""
_LOW_BYTE = 0 if sys.byteorder == "little" else -1
"""Where an integer's lowest byte sits in memory: first on a little-endian machine."""


def _c_array_of_ints(array: types.Type) -> bool:
    """Whether ``array`` is a C-contiguous numba array of integers wider than a byte."""
    return (
        isinstance(array, types.Array)
        and array.layout == "C"
        and isinstance(array.dtype, types.Integer)
        and array.dtype not in (types.int8, types.uint8)
    )


@intrinsic
def _low_byte_sums7(typingctx, table, cards, start):
    """:func:`key_and_mask_sum7` of the seven entries ``cards.flat[start:start + 7]`` of a
    C-contiguous array of a wider integer type, indexed by each entry's lowest byte (read
    from memory as one byte: no clamp, and never past the 256-row table, whatever the entry
    holds). The caller checks the other bytes (:func:`_or_rows8`)."""
    if not _c_array_of_ints(cards):
        return None
    sig = types.UniTuple(types.uint64, 2)(table, cards, start)

    def codegen(context, builder, signature, args):
        table_data = context.make_array(signature.args[0])(context, builder, args[0]).data
        data = context.make_array(signature.args[1])(context, builder, args[1]).data
        width = context.get_abi_sizeof(context.get_data_type(signature.args[1].dtype))
        i64 = ir.IntType(64)
        byte = ir.IntType(8)
        pair = ir.VectorType(i64, 2)
        first = builder.bitcast(builder.gep(data, [args[2]]), byte.as_pointer())
        low = _LOW_BYTE % width
        total = None
        for j in range(7):
            where = builder.gep(first, [ir.Constant(i64, width * j + low)])
            index = builder.zext(builder.load(where, align=1), i64)
            row = builder.gep(table_data, [builder.shl(index, ir.Constant(i64, 1))])
            value = builder.load(builder.bitcast(row, pair.as_pointer()), align=8)
            total = value if total is None else builder.add(total, value)
        parts = [builder.extract_element(total, ir.Constant(ir.IntType(32), j)) for j in (0, 1)]
        return context.make_tuple(builder, signature.return_type, parts)

    return sig, codegen


@intrinsic
def _or_rows8(typingctx, cards, start):
    """The bitwise or of the 56 entries ``cards.flat[start:start + 56]`` (eight rows of seven)
    as a uint64, sign-extended: seven vector loads and ors, then one reduction."""
    if not _c_array_of_ints(cards):
        return None
    sig = types.uint64(cards, start)

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        element = context.get_data_type(signature.args[0].dtype)
        vector = ir.VectorType(element, 8)
        i64 = ir.IntType(64)
        acc = None
        for j in range(7):
            where = builder.gep(data, [builder.add(args[1], ir.Constant(i64, 8 * j))])
            value = builder.load(builder.bitcast(where, vector.as_pointer()), align=1)
            acc = value if acc is None else builder.or_(acc, value)
        name = f"llvm.vector.reduce.or.v8i{element.width}"
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(element, [vector]), name
        )
        folded = builder.call(fn, [acc])
        return folded if element.width == 64 else builder.sext(folded, i64)

    return sig, codegen


@njit(cache=True, nogil=True)
def _hashed7_wide(cards, key_mask, offsets, values, flush, shift, out):
    """:func:`_hashed7` for C-contiguous rows of a wider integer type (int64, numpy's default).

    Each card is read as its lowest byte, so the row costs the loads of a byte row and no
    clamp; every eight rows, seven vector loads or all their entries together, and any bit
    above the lowest byte marks an entry outside 0..255 (a negative one too) as not a card.
    Eight bytes a card make the loop wait on memory, so each row asks for the row
    :data:`_WIDE_AHEAD` rows on, into the outer caches only. In cache it runs as fast as the
    byte kernel; on 2 M hands that do not fit (112 MB), one thread of a shared 2-core AMD
    EPYC: 0.8x to 0.95x the speed of byte rows (medians of ``benchmarks/bench_eval7.py``),
    against 0.74x to 0.79x for a clamp of each entry and a first-level prefetch."""
    n = cards.shape[0]
    bits = np.uint64(0)
    seen = np.uint64(0)
    high = np.uint64(0)
    groups = n // 8
    for g in range(groups):
        first = g * 8
        high |= _or_rows8(cards, first * 7)
        for r in range(8):
            i = first + r
            _prefetch_outer(cards, (i + _WIDE_AHEAD) * 7)
            k, s = _low_byte_sums7(key_mask, cards, i * 7)
            bits += popcount(s)
            seen |= s
            fl = ((k & np.uint64(0xFFFF)) + np.uint64(0x3333)) & np.uint64(0x8888)
            if fl:
                to_suit = (trailing_zeros(fl) << np.uint64(2)) & np.uint64(0x30)
                out[i] = flush[(s >> to_suit) & np.uint64(0x1FFF)]
            else:
                q = np.int64(k >> np.uint64(16))
                out[i] = values[q + offsets[q >> shift]]
    for i in range(groups * 8, n):  # the last rows, fewer than eight
        for j in range(7):
            high |= np.uint64(cards[i, j])
        k, s = _low_byte_sums7(key_mask, cards, i * 7)
        bits += popcount(s)
        seen |= s
        fl = ((k & np.uint64(0xFFFF)) + np.uint64(0x3333)) & np.uint64(0x8888)
        if fl:
            to_suit = (trailing_zeros(fl) << np.uint64(2)) & np.uint64(0x30)
            out[i] = flush[(s >> to_suit) & np.uint64(0x1FFF)]
        else:
            q = np.int64(k >> np.uint64(16))
            out[i] = values[q + offsets[q >> shift]]
    return bits != np.uint64(7 * n) or (seen & _INVALID) != 0 or (high >> np.uint64(8)) != 0


@njit(cache=True, nogil=True)
def eval_hashed_rows_wide(cards, key, mask, key_mask, offsets, values, flush, shift, out):
    """:func:`eval_hashed_rows` for C-contiguous rows of a wider integer type (the same
    range rule: anything outside 0..255 is not a card); seven-card rows prefetch ahead."""
    if cards.shape[1] == 7:
        return _hashed7_wide(cards, key_mask, offsets, values, flush, shift, out)
    return _hashed_any(cards, key, mask, offsets, values, flush, shift, out) != 0


@njit(cache=True, nogil=True, parallel=True)
def eval_hashed_rows_wide_parallel(cards, key, mask, key_mask, offsets, values, flush, shift, out):
    """:func:`eval_hashed_rows_wide` on every core (64 chunks)."""
    n = cards.shape[0]
    chunks = 64
    size = (n + chunks - 1) // chunks
    flags = np.zeros(chunks, np.bool_)
    for chunk in prange(chunks):
        lo = min(n, chunk * size)
        hi = min(n, lo + size)
        flags[chunk] = eval_hashed_rows_wide(
            cards[lo:hi], key, mask, key_mask, offsets, values, flush, shift, out[lo:hi]
        )
    return flags.any()


@njit(cache=True, nogil=True)
def _unchecked7_wide(cards, key, offsets, values, flush, shift, out):
    """:func:`_unchecked7` for wider integers, prefetching as :func:`_hashed7_wide` does."""
    for i in range(cards.shape[0]):
        _prefetch(cards, (i + _AHEAD) * 7)
        k = (key[_index(cards[i, 0])] + key[_index(cards[i, 1])] + key[_index(cards[i, 2])]
             + key[_index(cards[i, 3])] + key[_index(cards[i, 4])] + key[_index(cards[i, 5])]
             + key[_index(cards[i, 6])])  # fmt: skip
        fl = np.uint64(((k & 0xFFFF) + 0x3333) & 0x8888)
        if fl:
            out[i] = flush[_suit_ranks(cards, i, 7, trailing_zeros(fl) >> np.uint64(2))]
        else:
            r = k >> 16
            out[i] = values[r + offsets[r >> shift]]


@njit(cache=True, nogil=True)
def eval_hashed_rows_unchecked_wide(cards, key, offsets, values, flush, shift, out):
    """:func:`eval_hashed_rows_unchecked` for C-contiguous rows of a wider integer type."""
    if cards.shape[1] == 7:
        _unchecked7_wide(cards, key, offsets, values, flush, shift, out)
    else:
        _unchecked_any(cards, key, offsets, values, flush, shift, out)


@njit(cache=True, nogil=True, parallel=True)
def eval_hashed_rows_unchecked_wide_parallel(cards, key, offsets, values, flush, shift, out):
    """:func:`eval_hashed_rows_unchecked_wide` on every core (64 chunks)."""
    n = cards.shape[0]
    chunks = 64
    size = (n + chunks - 1) // chunks
    for chunk in prange(chunks):
        lo = min(n, chunk * size)
        hi = min(n, lo + size)
        eval_hashed_rows_unchecked_wide(
            cards[lo:hi], key, offsets, values, flush, shift, out[lo:hi]
        )
