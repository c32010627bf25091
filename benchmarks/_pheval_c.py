"""phevaluator's C evaluator called from compiled loops: the "C loop" peer.

The ``phevaluator`` wheel ships its C evaluator inside the extension module
``phevaluator/_pheval*.so``, which exports the plain C functions
``int evaluate_7cards(int a, ..., int g)`` and ``int evaluate_omaha_cards(int c1..c5,
int h1..h4)`` (see ``phevaluator/_pheval.c``). Loaded with :mod:`ctypes`, those
function pointers can be called from numba ``nopython`` code, so the loops below are
machine code calling the C evaluator once per hand: a C loop, measured in the same
process as croupier. As in any C program linking the library, the call is not
inlined. phevaluator's card ids are ``4 * rank + suit`` with suits c, d, h, s,
exactly croupier's indices; its ranks run the other way (1 = royal flush).

Nothing here is cached on disk (numba cannot cache code holding a ctypes pointer):
the compile time is reported as the peer's one-time start-up.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

__all__ = ["PhevalC", "pheval_c"]


@dataclass(frozen=True)
class PhevalC:
    """numba-compiled loops over phevaluator's C functions (each one a numba dispatcher)."""

    library: str
    """Path of the shared object the C functions come from."""
    eval7_rows: Any
    """``(cards[n, 7] uint8, out[n] int32)``: one C call a row, one thread."""
    eval7_rows_parallel: Any
    """The same on every core (numba ``prange``)."""
    omaha_rows: Any
    """``(board[n, 5], hole[n, 4], out[n])``: one ``evaluate_omaha_cards`` a row, one thread."""
    omaha_rows_parallel: Any
    """The same on every core."""
    holdem_exact: Any
    """``(hero[2], villain[2], remaining[m]) -> (wins, ties, losses)`` over every 5-card board."""
    holdem_boards: Any
    """``(hero[2], villain[2], boards[k, 5]) -> (wins, ties, losses)`` over listed boards."""
    holdem_multi: Any
    """``(holes[k, 2], remaining[m]) -> (wins[k], ties[k], shares[k])`` over every board:
    a hand wins a board alone, or ties it (shares the best hand with ``j`` others and
    gets ``1 / (j + 1)`` of it in ``shares``). Equity is ``(wins + shares) / boards``."""
    omaha_multi: Any
    """The same for Omaha hands, ``holes[k, 4]``, one ``evaluate_omaha_cards`` a hand a board."""


@cache
def pheval_c() -> PhevalC:
    """Load phevaluator's C functions and build the loops (compiled lazily on first call)."""
    from numba import njit, prange
    from phevaluator import _pheval

    lib = ctypes.CDLL(_pheval.__file__)
    c7 = lib.evaluate_7cards
    c7.argtypes = [ctypes.c_int] * 7
    c7.restype = ctypes.c_int
    c9 = lib.evaluate_omaha_cards
    c9.argtypes = [ctypes.c_int] * 9
    c9.restype = ctypes.c_int

    @njit(nogil=True)
    def eval7_rows(cards, out):  # type: ignore[no-untyped-def]
        for i in range(cards.shape[0]):
            out[i] = c7(
                cards[i, 0],
                cards[i, 1],
                cards[i, 2],
                cards[i, 3],
                cards[i, 4],
                cards[i, 5],
                cards[i, 6],
            )

    @njit(nogil=True, parallel=True)
    def eval7_rows_parallel(cards, out):  # type: ignore[no-untyped-def]
        for i in prange(cards.shape[0]):
            out[i] = c7(
                cards[i, 0],
                cards[i, 1],
                cards[i, 2],
                cards[i, 3],
                cards[i, 4],
                cards[i, 5],
                cards[i, 6],
            )

    @njit(nogil=True)
    def omaha_rows(board, hole, out):  # type: ignore[no-untyped-def]
        for i in range(board.shape[0]):
            out[i] = c9(
                board[i, 0],
                board[i, 1],
                board[i, 2],
                board[i, 3],
                board[i, 4],
                hole[i, 0],
                hole[i, 1],
                hole[i, 2],
                hole[i, 3],
            )

    @njit(nogil=True, parallel=True)
    def omaha_rows_parallel(board, hole, out):  # type: ignore[no-untyped-def]
        for i in prange(board.shape[0]):
            out[i] = c9(
                board[i, 0],
                board[i, 1],
                board[i, 2],
                board[i, 3],
                board[i, 4],
                hole[i, 0],
                hole[i, 1],
                hole[i, 2],
                hole[i, 3],
            )

    @njit(nogil=True)
    def holdem_exact(hero, villain, remaining):  # type: ignore[no-untyped-def]
        h1, h2, v1, v2 = hero[0], hero[1], villain[0], villain[1]
        n = remaining.shape[0]
        wins = ties = losses = 0
        for a in range(n):
            ca = remaining[a]
            for b in range(a + 1, n):
                cb = remaining[b]
                for c in range(b + 1, n):
                    cc = remaining[c]
                    for d in range(c + 1, n):
                        cd = remaining[d]
                        for e in range(d + 1, n):
                            ce = remaining[e]
                            x = c7(h1, h2, ca, cb, cc, cd, ce)  # smaller is stronger
                            y = c7(v1, v2, ca, cb, cc, cd, ce)
                            if x < y:
                                wins += 1
                            elif x == y:
                                ties += 1
                            else:
                                losses += 1
        return wins, ties, losses

    @njit(nogil=True)
    def holdem_boards(hero, villain, boards):  # type: ignore[no-untyped-def]
        wins = ties = losses = 0
        for i in range(boards.shape[0]):
            b = boards[i]
            x = c7(hero[0], hero[1], b[0], b[1], b[2], b[3], b[4])
            y = c7(villain[0], villain[1], b[0], b[1], b[2], b[3], b[4])
            if x < y:
                wins += 1
            elif x == y:
                ties += 1
            else:
                losses += 1
        return wins, ties, losses

    @njit(nogil=True)
    def _score(vals, wins, ties, shares):  # type: ignore[no-untyped-def]
        best = vals.min()  # smaller is stronger
        count = 0
        for p in range(vals.shape[0]):
            if vals[p] == best:
                count += 1
        for p in range(vals.shape[0]):
            if vals[p] == best:
                if count == 1:
                    wins[p] += 1
                else:
                    ties[p] += 1
                    shares[p] += 1.0 / count

    @njit(nogil=True)
    def holdem_multi(holes, remaining):  # type: ignore[no-untyped-def]
        k = holes.shape[0]
        n = remaining.shape[0]
        wins = np.zeros(k, np.int64)
        ties = np.zeros(k, np.int64)
        shares = np.zeros(k, np.float64)
        vals = np.empty(k, np.int64)
        for a in range(n):
            ca = remaining[a]
            for b in range(a + 1, n):
                cb = remaining[b]
                for c in range(b + 1, n):
                    cc = remaining[c]
                    for d in range(c + 1, n):
                        cd = remaining[d]
                        for e in range(d + 1, n):
                            ce = remaining[e]
                            for p in range(k):
                                vals[p] = c7(holes[p, 0], holes[p, 1], ca, cb, cc, cd, ce)
                            _score(vals, wins, ties, shares)
        return wins, ties, shares

    @njit(nogil=True)
    def omaha_multi(holes, remaining):  # type: ignore[no-untyped-def]
        k = holes.shape[0]
        n = remaining.shape[0]
        wins = np.zeros(k, np.int64)
        ties = np.zeros(k, np.int64)
        shares = np.zeros(k, np.float64)
        vals = np.empty(k, np.int64)
        for a in range(n):
            ca = remaining[a]
            for b in range(a + 1, n):
                cb = remaining[b]
                for c in range(b + 1, n):
                    cc = remaining[c]
                    for d in range(c + 1, n):
                        cd = remaining[d]
                        for e in range(d + 1, n):
                            ce = remaining[e]
                            for p in range(k):
                                vals[p] = c9(
                                    ca,
                                    cb,
                                    cc,
                                    cd,
                                    ce,
                                    holes[p, 0],
                                    holes[p, 1],
                                    holes[p, 2],
                                    holes[p, 3],
                                )
                            _score(vals, wins, ties, shares)
        return wins, ties, shares

    return PhevalC(
        library=str(_pheval.__file__),
        eval7_rows=eval7_rows,
        eval7_rows_parallel=eval7_rows_parallel,
        omaha_rows=omaha_rows,
        omaha_rows_parallel=omaha_rows_parallel,
        holdem_exact=holdem_exact,
        holdem_boards=holdem_boards,
        holdem_multi=holdem_multi,
        omaha_multi=omaha_multi,
    )
