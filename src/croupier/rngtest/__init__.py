"""The RNG evidence pack: what a testing laboratory needs to judge the shuffle's randomness.

:mod:`croupier.rngtest.export` writes the raw bytes the live shuffle consumes (for
Dieharder, NIST SP 800-22 or TestU01) and the card positions it makes;
:mod:`croupier.rngtest.battery` runs the built-in tests at the 99 % level (numpy and a
compiled kernel, imported only when used). ``croupier rng`` is the command line, and
docs/rng.md the guide.

>>> import croupier.rngtest
>>> "battery" in croupier.rngtest.__doc__
True
"""

__all__ = ["MAX_CARDS"]

MAX_CARDS = 416
"""The largest deck the exports and tests take from the command line, and the tests at
all: an eight-deck shoe."""
