"""Where the randomness of a shuffle comes from, and how bytes become a card order.

By default every shuffle draws from the operating system's CSPRNG (:func:`os.urandom`), so
a live deal cannot be predicted. With an explicit seed the shuffle is fully reproducible, so
any hand can be replayed card for card. Anything with the :class:`random.Random` interface
can be injected instead.

The live path, from the operating system to a card, is short enough to read whole:
:func:`make_rng` gives a :class:`ByteStreamRandom` reading :func:`os.urandom`; its
``shuffle`` is :func:`shuffle_from_bytes`, a Fisher–Yates shuffle whose every index comes
from :func:`draw_below`, which turns bytes into a number below a bound by rejection (no
modulo bias). Every byte the shuffle reads passes through one :data:`ByteSource`, so the
evidence pack (:mod:`croupier.rngtest`) records exactly the bytes a shuffle consumes by
handing the same class a source that copies them to a file (docs/rng.md).

>>> a, b = make_rng(7), make_rng(7)
>>> [a.random() for _ in range(3)] == [b.random() for _ in range(3)]
True
>>> isinstance(make_rng(), random.SystemRandom)
True
>>> deck = list(range(5))
>>> ByteStreamRandom(iter_bytes([9, 3, 1, 1])).shuffle(deck)   # the bytes decide the order
>>> deck
[0, 2, 4, 3, 1]
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Callable, Iterable, MutableSequence
from typing import Any, TypeAlias, TypeVar

from croupier.errors import CroupierError

__all__ = [
    "ByteSource",
    "ByteSourceError",
    "ByteStreamRandom",
    "bytes_for_draws",
    "draw_below",
    "iter_bytes",
    "make_rng",
    "new_seed",
    "shuffle_from_bytes",
]

ByteSource: TypeAlias = Callable[[int], bytes]
"""Where random bytes come from: called with a count ``n``, it returns exactly ``n`` bytes
(:func:`os.urandom` is the live one)."""

_T = TypeVar("_T")

_RECIP_BPF = 2.0**-53

_BYTE_MASKS = tuple((1 << i.bit_length()) - 1 for i in range(256))
"""For a bound ``i + 1`` up to 256: the mask keeping the low bits of one byte that hold
``i``."""


class ByteSourceError(CroupierError):
    """A byte source gave something other than the bytes asked for (a file that ran out).

    >>> draw_below(52, iter_bytes([]))
    Traceback (most recent call last):
    ...
    croupier.cards.rng.ByteSourceError: the byte source gave 0 of the 1 byte(s) asked for (has it run out?)
    """


def iter_bytes(data: Iterable[int]) -> ByteSource:
    """A byte source that hands out ``data`` in order, then nothing (for examples and tests).

    >>> read = iter_bytes(b"abc")
    >>> read(2), read(2)
    (b'ab', b'c')
    """
    stream = iter(bytes(data))

    def read(count: int) -> bytes:
        return bytes(b for _, b in zip(range(count), stream, strict=False))

    return read


def _read(source: ByteSource, count: int) -> bytes:
    """Exactly ``count`` bytes from ``source``, or :class:`ByteSourceError`."""
    data = source(count)
    if not isinstance(data, bytes | bytearray):
        raise ByteSourceError(f"a byte source returns bytes, not {type(data).__name__}")
    if len(data) != count:
        raise ByteSourceError(
            f"the byte source gave {len(data)} of the {count} byte(s) asked for (has it run out?)"
        )
    return bytes(data)


def _draw_size(bound: int) -> tuple[int, int]:
    """``(bits, size)``: a draw below ``bound`` keeps the low ``bits`` bits of the next
    ``size`` bytes read as one big-endian number."""
    bits = (bound - 1).bit_length()
    return bits, (bits + 7) >> 3


def draw_below(bound: int, source: ByteSource) -> int:
    """A uniform number from 0 to ``bound - 1``, by rejection: read the ``size`` bytes that
    hold ``bits = (bound - 1).bit_length()`` bits, keep the low ``bits`` bits of them as a
    big-endian number, and return it if it is below ``bound``; else read again. Every value
    below ``bound`` has the same chance, ``1 / 2**bits`` per attempt: there is no modulo bias.
    A bound of 1 reads nothing.

    >>> draw_below(52, iter_bytes([0xFF, 0x33]))     # 0xFF → 63: too big; 0x33 → 51
    51
    >>> draw_below(300, iter_bytes([0x01, 0x2B]))    # 9 bits of 0x012B: 299
    299
    """
    if type(bound) is not int or bound < 1:
        raise CroupierError(f"a draw needs a whole bound of at least 1, not {bound!r}")
    if bound == 1:
        return 0
    bits, size = _draw_size(bound)
    mask = (1 << bits) - 1
    while True:
        value = int.from_bytes(_read(source, size), "big") & mask
        if value < bound:
            return value


def bytes_for_draws(items: int) -> int:
    """The bytes a shuffle of ``items`` items reads at least: one attempt at each of its
    draws (bounds ``items`` down to 2; a bound above 256 takes two bytes). A rejected
    attempt reads more; the shuffle never reads a byte it does not use.

    >>> bytes_for_draws(52), bytes_for_draws(312), bytes_for_draws(1)
    (51, 367, 0)
    """
    total, floor = 0, 1
    while items > floor:  # draws whose bound is above `floor` need one byte more
        total += items - floor
        floor <<= 8
    return total


def shuffle_from_bytes(items: MutableSequence[_T], source: ByteSource) -> None:
    """Shuffle ``items`` in place (Fisher–Yates, as :meth:`random.Random.shuffle`): for ``i``
    from the last index down to 1, swap item ``i`` with item :func:`draw_below` ``(i + 1)``.

    The bytes come from ``source`` in order, each attempt at a draw taking the next ones;
    they are read in a few calls (one attempt for every draw still to make, then again for
    the draws a rejection left), never more bytes than the shuffle uses, and nothing is kept
    between shuffles (a forked process shares no unused randomness).

    >>> deck = list("abcd")
    >>> shuffle_from_bytes(deck, iter_bytes([2, 7, 1, 0]))   # 7 & 3 = 3 is not below 3
    >>> deck
    ['d', 'a', 'b', 'c']
    """
    i = len(items) - 1
    pending = b""
    masks = _BYTE_MASKS
    while i > 0:
        chunk = pending + _read(source, bytes_for_draws(i + 1) - len(pending))
        at, end = 0, len(chunk)
        while i > 0:
            if i < 256:  # a bound up to 256: one byte an attempt
                if at == end:
                    break
                j = chunk[at] & masks[i]
                at += 1
            else:
                bits, size = _draw_size(i + 1)
                if at + size > end:  # the next draw is wider than what is left
                    break
                j = int.from_bytes(chunk[at : at + size], "big") & ((1 << bits) - 1)
                at += size
            if j <= i:
                items[i], items[j] = items[j], items[i]
                i -= 1
        pending = chunk[at:]


class ByteStreamRandom(random.SystemRandom):
    """A :class:`random.Random` with no state of its own that reads every bit it hands out
    from one :data:`ByteSource`: :func:`os.urandom` (the live deal, what :func:`make_rng`
    gives without a seed) or any other (an export recording the bytes, a test stream).

    ``shuffle`` is :func:`shuffle_from_bytes`, and ``randrange``, ``choice`` and the like
    draw through :func:`draw_below`; ``getrandbits``, ``randbytes`` and ``random`` read the
    source as :class:`random.SystemRandom` reads :func:`os.urandom`.

    >>> rng = ByteStreamRandom(iter_bytes([0x81, 0xFF, 0x30]))
    >>> rng.getrandbits(4), rng.randrange(52)
    (8, 48)
    >>> isinstance(ByteStreamRandom(), random.SystemRandom)
    True
    """

    def __init__(self, source: ByteSource = os.urandom) -> None:
        super().__init__()
        self.source = source
        """Where the bytes come from."""

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle ``x`` in place with :func:`shuffle_from_bytes` from this source.

        >>> cards = [1, 2, 3]
        >>> ByteStreamRandom(iter_bytes([0, 1])).shuffle(cards); cards
        [3, 2, 1]
        """
        shuffle_from_bytes(x, self.source)

    def _randbelow(self, n: int) -> int:
        return draw_below(n, self.source)

    def getrandbits(self, k: int) -> int:
        """``k`` random bits from the source: the top ``k`` bits of ``ceil(k / 8)`` bytes.

        >>> ByteStreamRandom(iter_bytes([0xAB, 0xCD])).getrandbits(12) == 0xABC
        True
        """
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        size = (k + 7) // 8
        return int.from_bytes(_read(self.source, size), "big") >> (size * 8 - k)

    def randbytes(self, n: int) -> bytes:
        """``n`` bytes straight from the source.

        >>> ByteStreamRandom(iter_bytes(b"xyz")).randbytes(2)
        b'xy'
        """
        return _read(self.source, n)

    def random(self) -> float:
        """A float in [0, 1) from 53 bits of 7 bytes (as :class:`random.SystemRandom`).

        >>> ByteStreamRandom(iter_bytes(bytes(7))).random()
        0.0
        """
        return (int.from_bytes(_read(self.source, 7), "big") >> 3) * _RECIP_BPF


def make_rng(seed: int | None = None) -> random.Random:
    """A random source: the OS CSPRNG (a :class:`ByteStreamRandom` reading
    :func:`os.urandom`) when ``seed`` is None, else a seeded, replayable one.

    >>> make_rng(1).randrange(52) == make_rng(1).randrange(52)
    True
    >>> make_rng().source is os.urandom
    True
    """
    if seed is None:
        return ByteStreamRandom()
    return random.Random(seed)


def new_seed() -> int:
    """A fresh 128-bit seed from the OS CSPRNG, to record now and replay later.

    >>> 0 <= new_seed() < 2**128
    True
    """
    return secrets.randbits(128)
