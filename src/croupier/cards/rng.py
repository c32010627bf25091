"""Where the randomness of a shuffle comes from.

By default every shuffle draws from the operating system's CSPRNG (:mod:`secrets`),
so a live deal cannot be predicted. With an explicit seed the shuffle is fully
reproducible, so any hand can be replayed card for card. Anything with the
:class:`random.Random` interface can be injected instead.

>>> a, b = make_rng(7), make_rng(7)
>>> [a.random() for _ in range(3)] == [b.random() for _ in range(3)]
True
>>> isinstance(make_rng(), random.SystemRandom)
True
"""

from __future__ import annotations

import random
import secrets

__all__ = ["make_rng", "new_seed"]


def make_rng(seed: int | None = None) -> random.Random:
    """A random source: the OS CSPRNG when ``seed`` is None, else a seeded, replayable one.

    >>> make_rng(1).randrange(52) == make_rng(1).randrange(52)
    True
    """
    if seed is None:
        return random.SystemRandom()
    return random.Random(seed)


def new_seed() -> int:
    """A fresh 128-bit seed from the OS CSPRNG, to record now and replay later.

    >>> 0 <= new_seed() < 2**128
    True
    """
    return secrets.randbits(128)
