"""An independent, from-scratch poker hand evaluator and helpers for the evaluation tests.

Nothing here uses croupier's tables or kernels: the five-card valuation below is a
direct reading of the rules (count the ranks, look for a flush and a straight), and
a 6- or 7-card hand is the best of its five-card subsets. It is slow next to
croupier, but compiled with numba it can walk every hand of the 32-card deck.

Category numbers are croupier's :class:`~croupier.evaluation.Category` values
(0 = high card ... 8 = straight flush); the *order* of the categories is given
separately as a position per category, so the Manila order (flush above full
house) is just another position table.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt
from numba import njit

__all__ = [
    "CARD_NAMES",
    "MANILA_POSITIONS",
    "STANDARD_POSITIONS",
    "all_hands",
    "assert_same_order",
    "best_of",
    "best_values",
    "categories_of_values",
    "five_subsets",
    "pokerkit_high",
    "pokerkit_omaha",
    "random_hands",
]

CARD_NAMES = tuple(r + s for r in "23456789TJQKA" for s in "cdhs")
"""Card text by croupier index (4 * rank + suit)."""

# category -> position (0 = lowest) in the standard order and in the 32-card Manila order
HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
STANDARD_POSITIONS = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8], dtype=np.int64)
MANILA_POSITIONS = np.array([0, 1, 2, 3, 4, 6, 5, 7, 8], dtype=np.int64)  # flush > full house


@njit(cache=False)
def _value5(a, b, c, d, e, lowest, positions, counts):  # type: ignore[no-untyped-def]
    """Value of five cards: category position << 24 | category << 20 | kicker ranks."""
    for r in range(13):
        counts[r] = 0
    flush = (a & 3) == (b & 3) == (c & 3) == (d & 3) == (e & 3)
    for x in (a, b, c, d, e):
        counts[x >> 2] += 1
    distinct = 0
    top_count = 0
    high = -1
    low = 13
    for r in range(13):
        if counts[r] > 0:
            distinct += 1
            top_count = max(top_count, counts[r])
            high = max(high, r)
            low = min(low, r)
    straight_top = -1
    if distinct == 5:
        if high - low == 4:
            straight_top = high
        elif (
            counts[12] == 1
            and counts[lowest] == 1
            and counts[lowest + 1] == 1
            and counts[lowest + 2] == 1
            and counts[lowest + 3] == 1
        ):
            straight_top = lowest + 3  # the ace plays low: A-2-3-4-5 or A-7-8-9-T
    if straight_top >= 0 and flush:
        category = STRAIGHT_FLUSH
    elif top_count == 4:
        category = QUADS
    elif top_count == 3 and distinct == 2:
        category = FULL_HOUSE
    elif flush:
        category = FLUSH
    elif straight_top >= 0:
        category = STRAIGHT
    elif top_count == 3:
        category = TRIPS
    elif top_count == 2 and distinct == 3:
        category = TWO_PAIR
    elif top_count == 2:
        category = PAIR
    else:
        category = HIGH
    value = positions[category] * 16 + category
    if straight_top >= 0:
        value = value * 16 + straight_top
        for _ in range(4):
            value = value * 16
        return value
    # kickers: bigger groups first, then higher ranks
    used = 0
    for n in range(4, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == n:
                value = value * 16 + r
                used += 1
    for _ in range(5 - used):
        value = value * 16
    return value


@njit(cache=False)
def best_values(hands, lowest, positions, subsets):  # type: ignore[no-untyped-def]
    """Best five-card value of each row of ``hands`` (card indices), over ``subsets``."""
    n = hands.shape[0]
    out = np.empty(n, np.int64)
    counts = np.zeros(13, np.int64)
    for i in range(n):
        best = -1
        for s in range(subsets.shape[0]):
            v = _value5(
                hands[i, subsets[s, 0]],
                hands[i, subsets[s, 1]],
                hands[i, subsets[s, 2]],
                hands[i, subsets[s, 3]],
                hands[i, subsets[s, 4]],
                lowest,
                positions,
                counts,
            )
            best = max(best, v)
        out[i] = best
    return out


def categories_of_values(values: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The category (croupier Category value) packed in values from :func:`best_values`."""
    return (values >> 20) & 0xF


def five_subsets(k: int) -> npt.NDArray[np.int64]:
    """Every choice of five positions out of ``k``."""
    return np.array(list(combinations(range(k), 5)), dtype=np.int64)


@njit(cache=False)
def _combinations(deck, k, total):  # type: ignore[no-untyped-def]
    out = np.empty((total, k), np.uint8)
    n = deck.shape[0]
    idx = np.arange(k)
    for row in range(total):
        for j in range(k):
            out[row, j] = deck[idx[j]]
        j = k - 1
        while j >= 0 and idx[j] == n - k + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for m in range(j + 1, k):
            idx[m] = idx[m - 1] + 1
    return out


def all_hands(deck: npt.NDArray[np.uint8], k: int) -> npt.NDArray[np.uint8]:
    """Every k-card hand from ``deck``, one row each."""
    from math import comb

    return np.asarray(_combinations(deck, k, comb(len(deck), k)), dtype=np.uint8)


def random_hands(seed: int, n: int, k: int) -> npt.NDArray[np.uint8]:
    """``n`` random k-card hands from a 52-card deck (no card twice in a row)."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


def best_of(
    hands: npt.NDArray[np.uint8], lowest: int, positions: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Best value of each hand (5 to 7 cards a row) by the independent evaluator."""
    return np.asarray(
        best_values(hands, lowest, positions, five_subsets(hands.shape[1])), dtype=np.int64
    )


def assert_same_order(
    ours: npt.ArrayLike,
    theirs: npt.ArrayLike,
    hands: npt.NDArray[np.uint8] | None = None,
    what: str = "peer",
) -> None:
    """Both strengths (higher is better) order every pair of hands the same way.

    Sorting by ``ours``, ``theirs`` must rise exactly where ``ours`` rises and stay
    level exactly where ``ours`` ties: the map between the two is strictly monotone
    both ways.
    """
    a = np.asarray(ours, dtype=np.int64)
    b = np.asarray(theirs, dtype=np.int64)
    assert a.shape == b.shape
    order = np.lexsort((b, a))
    da = np.sign(np.diff(a[order]))
    db = np.sign(np.diff(b[order]))
    bad = np.nonzero(da != db)[0]
    if bad.size:
        i, j = order[bad[0]], order[bad[0] + 1]

        def show(row: int) -> str:
            text = "" if hands is None else " ".join(CARD_NAMES[c] for c in hands[row])
            return f"[{text}] croupier={a[row]} {what}={b[row]}"

        raise AssertionError(
            f"{bad.size} adjacent pairs ordered differently from the {what}, "
            f"first: {show(i)} vs {show(j)}"
        )


# --------------------------------------------------------------------------- pokerkit workers
# (module-level so that worker processes can import them)


def pokerkit_high(rows: list[tuple[str, str]]) -> list[tuple[int, str]]:
    """pokerkit's best standard high hand of (hole, board) texts: (strength index, label)."""
    from pokerkit import StandardHighHand

    out = []
    for hole, board in rows:
        hand = StandardHighHand.from_game(hole, board)
        out.append((int(hand.entry.index), hand.entry.label.name))
    return out


def pokerkit_omaha(rows: list[tuple[str, str]]) -> list[tuple[int, str]]:
    """pokerkit's best Omaha hand (exactly two hole and three board cards)."""
    from pokerkit import OmahaHoldemHand

    out = []
    for hole, board in rows:
        hand = OmahaHoldemHand.from_game(hole, board)
        out.append((int(hand.entry.index), hand.entry.label.name))
    return out
