"""Deliberately bad randomness for the RNG tests: a biased scaler and weak byte streams.

None of this is in croupier: it exists to show that the built-in tests (and Dieharder)
reject what a broken shuffle would deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

Reader = Callable[[int], bytes]


def modulo_biased_orders(seed: int, shuffles: int, cards: int) -> npt.NDArray[np.int16]:
    """Fisher–Yates orders made with the BIASED scaler ``byte % bound`` (one byte a draw,
    no rejection): for 52 cards, 256 = 4 * 52 + 48, so positions 0..47 of each draw get
    5/256 and 48..51 get 4/256 instead of 1/52. Vectorised over the shuffles."""
    stream = np.frombuffer(random.Random(seed).randbytes(shuffles * (cards - 1)), dtype=np.uint8)
    draws = stream.reshape(shuffles, cards - 1).astype(np.int64)
    orders = np.tile(np.arange(cards, dtype=np.int16), (shuffles, 1))
    rows = np.arange(shuffles)
    for k, i in enumerate(range(cards - 1, 0, -1)):
        j = draws[:, k] % (i + 1)  # the modulo bias
        top = orders[rows, i].copy()
        orders[rows, i] = orders[rows, j]
        orders[rows, j] = top
    return orders


def good_stream(seed: int) -> Reader:
    """A reproducible stream that passes the tests (Mersenne Twister bytes): the control."""
    return random.Random(seed).randbytes


def ansi_c_low_bytes(seed: int) -> Reader:
    """The low byte of the ANSI C ``rand()`` LCG, ``x = (1103515245 x + 12345) mod 2**31``:
    each byte value once per period, but the period is 256 bytes (the low bits of a
    power-of-two LCG cycle on their own)."""
    state = [seed & 0x7FFFFFFF]

    def read(count: int) -> bytes:
        x = state[0]
        out = bytearray(count)
        for k in range(count):
            x = (1103515245 * x + 12345) & 0x7FFFFFFF
            out[k] = x & 0xFF
        state[0] = x
        return bytes(out)

    return read


def stuck_bit(read: Reader, bit: int) -> Reader:
    """``read``'s bytes with bit ``bit`` (0 the lowest) always set."""

    def stuck(count: int) -> bytes:
        data = np.frombuffer(read(count), dtype=np.uint8) | np.uint8(1 << bit)
        return data.tobytes()

    return stuck


def repeating(block: bytes) -> Reader:
    """``block`` over and over: good bytes, but a short period."""
    at = [0]

    def read(count: int) -> bytes:
        out = bytearray()
        while len(out) < count:
            take = min(count - len(out), len(block) - at[0])
            out += block[at[0] : at[0] + take]
            at[0] = (at[0] + take) % len(block)
        return bytes(out)

    return read
