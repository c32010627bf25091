"""The distributions the built-in RNG tests need, in plain Python (no SciPy).

>>> round(chi2_sf(3.841458820694124, 1), 6)          # the 95 % point of chi-square, 1 df
0.05
>>> round(normal_two_sided(2.5758293035489), 6)      # the 99 % point of the normal
0.01
>>> eulerian_distribution(3)                         # descents of the 6 orders of 3 cards
(Fraction(1, 6), Fraction(2, 3), Fraction(1, 6))
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

__all__ = ["chi2_sf", "eulerian_distribution", "normal_two_sided", "regularized_gamma_q"]

_EPS = 1e-15
_TINY = 1e-300
_MAX_STEPS = 1_000_000


def _log_prefix(a: float, x: float) -> float:
    """log of ``x**a * exp(-x) / Gamma(a)``."""
    return a * math.log(x) - x - math.lgamma(a)


def regularized_gamma_q(a: float, x: float) -> float:
    """The upper regularized incomplete gamma function ``Q(a, x) = Gamma(a, x) / Gamma(a)``:
    by its series when ``x < a + 1``, else by its continued fraction (modified Lentz), each
    to about 15 digits; works for the large ``a`` of a chi-square with 100,000 degrees of
    freedom.

    >>> round(regularized_gamma_q(1.0, 2.0), 12) == round(math.exp(-2.0), 12)
    True
    """
    if not a > 0 or x < 0 or math.isnan(x):
        raise ValueError(f"Q(a, x) needs a > 0 and x >= 0, not a={a!r}, x={x!r}")
    if x == 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    if x < a + 1:  # P(a, x) by its series, Q = 1 - P
        term = total = 1.0 / a
        ap = a
        for _ in range(_MAX_STEPS):
            ap += 1.0
            term *= x / ap
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        p = total * math.exp(_log_prefix(a, x))
        return max(0.0, 1.0 - p)
    # Q(a, x) by the continued fraction
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_STEPS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return min(1.0, math.exp(_log_prefix(a, x)) * h)


def chi2_sf(statistic: float, df: int) -> float:
    """The chance that a chi-square variable with ``df`` degrees of freedom is at least
    ``statistic`` (the test's p-value).

    >>> round(chi2_sf(2 * math.log(100), 2), 12)       # 2 df: exp(-x / 2)
    0.01
    >>> chi2_sf(0.0, 5)
    1.0
    """
    if df < 1:
        raise ValueError(f"a chi-square needs at least 1 degree of freedom, not {df}")
    return regularized_gamma_q(df / 2.0, max(statistic, 0.0) / 2.0)


def normal_two_sided(z: float) -> float:
    """The two-sided p-value of a standard normal score: ``P(|Z| >= |z|)``.

    >>> normal_two_sided(0.0)
    1.0
    """
    return math.erfc(abs(z) / math.sqrt(2.0))


@cache
def eulerian_distribution(n: int) -> tuple[Fraction, ...]:
    """The exact chance that a uniformly random order of ``n`` distinct cards has ``k``
    descents (``k + 1`` ascending runs), for ``k`` from 0 to ``n - 1``: the Eulerian numbers
    ``A(n, k)`` over ``n!``.

    >>> [float(p) for p in eulerian_distribution(4)]
    [0.041666666666666664, 0.4583333333333333, 0.4583333333333333, 0.041666666666666664]
    """
    if n < 1:
        raise ValueError(f"an order has at least 1 card, not {n}")
    row = [1]  # A(1, 0)
    for m in range(2, n + 1):  # A(m, k) = (k + 1) A(m-1, k) + (m - k) A(m-1, k-1)
        row = [
            (k + 1) * (row[k] if k < len(row) else 0) + (m - k) * (row[k - 1] if k else 0)
            for k in range(m)
        ]
    total = math.factorial(n)
    return tuple(Fraction(count, total) for count in row)
