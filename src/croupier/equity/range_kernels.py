# mypy: disable-error-code="call-arg"
"""Numba kernels of range equity: Monte-Carlo over combo deals and boards.

Each sample picks one deal of combos by weight, then completes the board uniformly from
the cards still unseen, and adds into ``wins[p]`` (samples player p wins alone),
``ties[p, k]`` (samples p shares with k - 1 others) and ``shares`` (sum and sum of squares
of p's share of the pot, for the mean and its standard error). Two ways to pick the deal:

- :func:`sample_deals` draws one row of a table listing every deal without a shared card
  (weight ``w1 * w2 * ...``): one draw a sample, nothing rejected;
- :func:`sample_ranges` draws one combo per player by weight and rejects the whole deal
  when two players share a card, which leaves exactly the same distribution (for ranges
  whose deals are too many to list).

Randomness: every draw is an exact uniform whole number. ``rng.random()`` is a 53-bit
integer over 2**53; the kernels cut four 13-bit integers from it and map each onto
``[0, s)`` (``s <= 2**13``) by Lemire's multiply-and-reject, so a board card costs a
multiplication, not a division, and a quarter of a call. Larger ranges of integers take a
whole 53-bit draw with rejection. The unused bits carry over in ``pool`` from one call
to the next, so a run's result does not depend on how it is cut into calls.

The draws are written out in each loop rather than in a helper: numba passes the
generator to a helper by reference count, which made the kernel twice as slow (measured).
The seven-card ranks come from the compact tables (``RankTables.compact(7)``, about 235 KB,
in L2) rather than the 16 MB direct table.

Nothing here checks its input: :func:`croupier.equity.range_equity.range_equity` does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.evaluation.kernels import trailing_zeros

__all__ = ["sample_deals", "sample_ranges"]

_BITS = 13  # one small draw; four are cut from each 53-bit rng.random()
_MASK = (1 << _BITS) - 1
_CHUNKS = 4
_TWO53 = 9007199254740992.0  # 2**53: Generator.random() is a 53-bit integer over this
_DECK = 52
_DECK_THRESHOLD = (1 << _BITS) % _DECK  # Lemire: a 13-bit draw below this is redrawn


@njit(cache=True, nogil=True)
def sample_deals(
    rng,
    masks,
    keys,
    suits,
    cumulative,
    total,
    threshold,
    limit,
    known_key,
    known_suits,
    known_mask,
    draw,
    samples,
    key7,
    suit7,
    offsets,
    values,
    shift,
    flush,
    wins,
    ties,
    shares,
    pool,
):
    """Score ``samples`` random deals drawn from a table of every deal.

    Row d of the table is a deal: ``masks[d]`` its 52-bit card mask, ``keys[d, p]`` and
    ``suits[d, p]`` the summed card keys and suit masks of player p's two cards,
    ``cumulative[d]`` the running sum of the integer deal weights, ``total`` their sum
    (``threshold = 2**13 % total`` when ``total <= 2**13``, else ``limit = 2**53 - 2**53 %
    total``). The known board's summed keys, suit masks and card mask are ``known_*``;
    ``draw`` cards complete it. ``pool`` holds the unused random bits and their count.

    Sampled range equity runs it when the deals are few, as for a hand against a range
    (18 deals here: As Ks leaves 18 of the 30 combos of QQ+, AKo):

    >>> from croupier.equity import range_equity
    >>> r = range_equity(["As Ks", "QQ+, AKo"], samples=100_000, seed=1)
    >>> abs(r.players[0].equity - 0.405547) < 4 * r.players[0].stderr   # exact: 0.405547
    True
    """
    count_d = masks.shape[0]
    n = keys.shape[1]
    ranks = np.empty(n, np.int64)
    bits = pool[0]
    left = pool[1]
    uniform = total == count_d  # integer weights >= 1 summing to the count: all 1
    for _ in range(samples):
        j = 0
        if count_d > 1:
            if total <= _MASK + 1:
                while True:
                    if left == 0:
                        bits = np.int64(rng.random() * _TWO53)
                        left = _CHUNKS
                    left -= 1
                    m = (bits & _MASK) * total
                    bits >>= _BITS
                    if (m & _MASK) >= threshold:
                        break
                r = m >> _BITS
            else:
                while True:
                    k = np.int64(rng.random() * _TWO53)
                    if k < limit:
                        break
                r = k % total
            if uniform:
                j = r
            else:
                lo = 0
                hi = count_d - 1
                while lo < hi:  # the first deal whose running weight exceeds r
                    mid = (lo + hi) >> 1
                    if cumulative[mid] > r:
                        hi = mid
                    else:
                        lo = mid + 1
                j = lo
        used = known_mask | masks[j]
        board_key = known_key
        board_suits = known_suits
        for _c in range(draw):
            while True:  # uniform over the 52 cards, redrawn while seen
                if left == 0:
                    bits = np.int64(rng.random() * _TWO53)
                    left = _CHUNKS
                left -= 1
                m = (bits & _MASK) * _DECK
                bits >>= _BITS
                if (m & _MASK) >= _DECK_THRESHOLD:
                    c = m >> _BITS
                    if not (used >> c) & 1:
                        break
            used |= np.int64(1) << c
            board_key += key7[c]
            board_suits += suit7[c]
        best = np.int64(0)
        tied = 0
        for p in range(n):
            k = keys[j, p] + board_key
            fl = ((k & 0xFFFF) + 0x3333) & 0x8888
            if fl:
                to_suit = (np.int64(trailing_zeros(np.uint64(fl))) << 2) & 0x30
                v = np.int64(flush[((suits[j, p] + board_suits) >> to_suit) & 0x1FFF])
            else:
                q = k >> 16
                v = np.int64(values[q + offsets[q >> shift]])
            ranks[p] = v
            if v > best:
                best = v
                tied = 1
            elif v == best:
                tied += 1
        share = 1.0 / tied
        for p in range(n):
            if ranks[p] == best:
                if tied == 1:
                    wins[p] += 1
                else:
                    ties[p, tied] += 1
                shares[0, p] += share
                shares[1, p] += share * share
    pool[0] = bits
    pool[1] = left
    return 0


@njit(cache=True, nogil=True)
def sample_ranges(
    rng,
    masks,
    keys,
    suits,
    cumulative,
    totals,
    counts,
    thresholds,
    limits,
    known_key,
    known_suits,
    known_mask,
    draw,
    samples,
    max_streak,
    key7,
    suit7,
    offsets,
    values,
    shift,
    flush,
    wins,
    ties,
    shares,
    pool,
):
    """Score ``samples`` random deals drawn one combo per player; returns the deals
    rejected, or -1 after ``max_streak`` rejections in a row (the ranges hardly ever fit).

    Player p's combo j has card mask ``masks[p, j]``, summed card keys ``keys[p, j]`` and
    suit masks ``suits[p, j]``; ``cumulative[p, j]`` is the running sum of the integer
    weights, ``totals[p]`` their sum and ``counts[p]`` the number of combos
    (``thresholds`` and ``limits`` as in :func:`sample_deals`, per player). The rest is
    as in :func:`sample_deals`.

    Sampled range equity runs it when the deals are too many to list (here 1326 x 1225):

    >>> from croupier.equity import range_equity
    >>> r = range_equity(["random", "random"], samples=100_000, seed=1)
    >>> abs(r.players[0].equity - 0.5) < 4 * r.players[0].stderr
    True
    """
    n = counts.shape[0]
    hole_key = np.empty(n, np.int64)
    hole_suits = np.empty(n, np.int64)
    ranks = np.empty(n, np.int64)
    bits = pool[0]
    left = pool[1]
    rejected = 0
    for _ in range(samples):
        streak = 0
        while True:
            used = known_mask
            fits = True
            for p in range(n):
                j = 0
                size = counts[p]
                if size > 1:
                    total = totals[p]
                    if total <= _MASK + 1:
                        while True:
                            if left == 0:
                                bits = np.int64(rng.random() * _TWO53)
                                left = _CHUNKS
                            left -= 1
                            m = (bits & _MASK) * total
                            bits >>= _BITS
                            if (m & _MASK) >= thresholds[p]:
                                break
                        r = m >> _BITS
                    else:
                        while True:
                            k = np.int64(rng.random() * _TWO53)
                            if k < limits[p]:
                                break
                        r = k % total
                    if total == size:
                        j = r
                    else:
                        lo = 0
                        hi = size - 1
                        while lo < hi:  # the first combo whose running weight exceeds r
                            mid = (lo + hi) >> 1
                            if cumulative[p, mid] > r:
                                hi = mid
                            else:
                                lo = mid + 1
                        j = lo
                m = masks[p, j]
                if used & m:
                    fits = False
                    break
                used |= m
                hole_key[p] = keys[p, j]
                hole_suits[p] = suits[p, j]
            if fits:
                break
            rejected += 1
            streak += 1
            if streak >= max_streak:
                pool[0] = bits
                pool[1] = left
                return -1
        board_key = known_key
        board_suits = known_suits
        for _c in range(draw):
            while True:  # uniform over the 52 cards, redrawn while seen
                if left == 0:
                    bits = np.int64(rng.random() * _TWO53)
                    left = _CHUNKS
                left -= 1
                m = (bits & _MASK) * _DECK
                bits >>= _BITS
                if (m & _MASK) >= _DECK_THRESHOLD:
                    c = m >> _BITS
                    if not (used >> c) & 1:
                        break
            used |= np.int64(1) << c
            board_key += key7[c]
            board_suits += suit7[c]
        best = np.int64(0)
        tied = 0
        for p in range(n):
            k = hole_key[p] + board_key
            fl = ((k & 0xFFFF) + 0x3333) & 0x8888
            if fl:
                to_suit = (np.int64(trailing_zeros(np.uint64(fl))) << 2) & 0x30
                v = np.int64(flush[((hole_suits[p] + board_suits) >> to_suit) & 0x1FFF])
            else:
                q = k >> 16
                v = np.int64(values[q + offsets[q >> shift]])
            ranks[p] = v
            if v > best:
                best = v
                tied = 1
            elif v == best:
                tied += 1
        share = 1.0 / tied
        for p in range(n):
            if ranks[p] == best:
                if tied == 1:
                    wins[p] += 1
                else:
                    ties[p, tied] += 1
                shares[0, p] += share
                shares[1, p] += share * share
    pool[0] = bits
    pool[1] = left
    return rejected
