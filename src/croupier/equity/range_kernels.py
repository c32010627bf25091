"""Numba kernel of range equity: Monte-Carlo over combo deals and boards.

Each sample draws one combo per player by weight (exact integer weights), rejects the
whole deal when two players share a card, which leaves exactly the distribution of the
deals without a shared card (weight ``w1 * w2 * ...``), then completes the board
uniformly from the cards still unseen. It adds into ``wins[p]`` (samples player p wins
alone), ``ties[p, k]`` (samples p shares with k - 1 others) and ``shares`` (sum and sum
of squares of p's share of the pot, for the mean and its standard error).

Nothing here checks its input: :func:`croupier.equity.range_equity.range_equity` does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.evaluation.kernels import lookup_any

__all__ = ["sample_ranges"]

_TWO53 = 9007199254740992  # 2**53: Generator.random() is a 53-bit integer over this


@njit(cache=True, inline="always")
def _below(rng, n):
    """A uniform whole number in [0, n), n <= 2**53, exactly: the 53-bit integer behind
    ``rng.random()``, redrawn when it falls in the incomplete last block (Generator.integers
    is exact too, but ten times slower here)."""
    limit = _TWO53 - _TWO53 % n
    while True:
        k = np.int64(rng.random() * 9007199254740992.0)
        if k < limit:
            return k % n


@njit(cache=True, nogil=True)
def sample_ranges(
    rng,
    cards,
    cumulative,
    totals,
    counts,
    masks,
    known_key,
    known_smask,
    known_mask,
    deck,
    draw,
    samples,
    max_streak,
    key7,
    smask,
    nonflush7,
    flush,
    wins,
    ties,
    shares,
):
    """Score ``samples`` random deals; returns the deals rejected, or -1 after
    ``max_streak`` rejections in a row (the ranges hardly ever fit together).

    ``cards[p, j]`` are the two card indices of player p's combo j, ``cumulative[p, j]``
    the running sum of the integer weights, ``totals[p]`` their sum, ``counts[p]`` the
    number of combos and ``masks[p, j]`` the combo's 52-bit card mask. ``deck`` lists the
    cards not on the known board, whose summed keys and mask are ``known_*``.
    """
    n = counts.shape[0]
    hole_key = np.empty(n, np.int64)
    hole_smask = np.empty(n, np.int64)
    values = np.empty(n, np.int64)
    n_deck = deck.shape[0]
    rejected = 0
    for _ in range(samples):
        streak = 0
        while True:
            used = known_mask
            fits = True
            for p in range(n):
                r = _below(rng, totals[p])
                lo = 0
                hi = counts[p] - 1
                while lo < hi:  # the first combo whose running weight exceeds r
                    mid = (lo + hi) >> 1
                    if cumulative[p, mid] > r:
                        hi = mid
                    else:
                        lo = mid + 1
                m = masks[p, lo]
                if used & m:
                    fits = False
                    break
                used |= m
                a = cards[p, lo, 0]
                b = cards[p, lo, 1]
                hole_key[p] = key7[a] + key7[b]
                hole_smask[p] = smask[a] + smask[b]
            if fits:
                break
            rejected += 1
            streak += 1
            if streak >= max_streak:
                return -1
        bk = known_key
        bm = known_smask
        for _j in range(draw):
            while True:  # uniform over the cards not yet seen
                c = np.int64(deck[_below(rng, n_deck)])
                if not (used >> c) & 1:
                    break
            used |= np.int64(1) << c
            bk += key7[c]
            bm += smask[c]
        best = 0
        count = 0
        for p in range(n):
            v = lookup_any(hole_key[p] + bk, hole_smask[p] + bm, nonflush7, flush)
            values[p] = v
            if v > best:
                best = v
                count = 1
            elif v == best:
                count += 1
        share = 1.0 / count
        for p in range(n):
            if values[p] == best:
                if count == 1:
                    wins[p] += 1
                else:
                    ties[p, count] += 1
                shares[0, p] += share
                shares[1, p] += share * share
    return rejected
