"""What a PAR sheet is made of, whatever the game: figures with their source and 95 %
interval, tables, bar charts, and the sheet itself (rendered by :mod:`croupier.par.render`).

Every figure says how it was found (:data:`SOURCES`): ``exact`` (the exact analysis, a
combinatorial formula or the table's own charge), ``simulated`` (with a 95 % interval),
``exact / simulated`` (an exact figure divided by a simulated one, the interval from the
simulated part's) or ``assumed`` (an input the sheet states, such as hands an hour).

>>> p = proportion(431, 1000)
>>> p.source, round(p.value, 3), round(p.low, 3), round(p.high, 3)
('simulated', 0.431, 0.401, 0.462)
>>> p.describe(percent=True, digits=1)
'43.1 % (40.1 – 46.2)'
>>> Estimate(Fraction(1, 13)).to_json()
{'value': 0.07692307692307693, 'source': 'exact', 'exact': '1/13'}
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from croupier.errors import CroupierError

__all__ = [
    "ASSUMED",
    "EXACT",
    "EXACT_OVER_SIMULATED",
    "SIMULATED",
    "SOURCES",
    "Z95",
    "Bars",
    "Estimate",
    "Series",
    "Sheet",
    "Table",
    "chips",
    "mean_interval",
    "proportion",
]

EXACT = "exact"
SIMULATED = "simulated"
EXACT_OVER_SIMULATED = "exact / simulated"
ASSUMED = "assumed"
SOURCES = (EXACT, SIMULATED, EXACT_OVER_SIMULATED, ASSUMED)
"""How a figure was found."""

Z95 = 1.959963984540054
"""The two-sided 95 % point of the standard normal distribution."""

Number = float | Fraction | Decimal | int


@dataclass(frozen=True)
class Estimate:
    """One figure: its value, a 95 % interval (simulated figures) and its source.

    Money is given as :class:`~decimal.Decimal` (chips, never a float); an exact
    probability may be a :class:`~fractions.Fraction`, which the JSON keeps as ``"p/q"``.

    >>> e = Estimate(Decimal("2.50"), Decimal("2.41"), Decimal("2.59"), SIMULATED)
    >>> e.describe(), e.to_json()["low"]
    ('2.50 (2.41 – 2.59)', '2.41')
    >>> Estimate(0.5, source="guessed")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: a figure's source is one of exact, simulated, exact / simulated, assumed, not 'guessed'
    """

    value: Number
    """The figure (the point estimate of a simulated one)."""
    low: Number | None = None
    """The 95 % interval's lower end (None for an exact or assumed figure)."""
    high: Number | None = None
    """The 95 % interval's upper end."""
    source: str = EXACT
    """How it was found: one of :data:`SOURCES`."""
    fraction: Fraction | None = None
    """The exact value as a fraction, when ``value`` is a rounded decimal of it."""

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise CroupierError(
                f"a figure's source is one of {', '.join(SOURCES)}, not {self.source!r}"
            )

    def describe(self, *, percent: bool = False, digits: int = 2) -> str:
        """The figure as text, its interval in brackets; ``percent`` multiplies by 100.

        >>> Estimate(Fraction(1, 8)).describe(percent=True, digits=3)
        '12.500 %'
        """
        text = _fmt(self.value, percent, digits)
        if self.low is not None and self.high is not None:
            text += f" ({_fmt(self.low, percent, digits, unit=False)} – "
            text += f"{_fmt(self.high, percent, digits, unit=False)})"
        return text

    def to_json(self) -> dict[str, Any]:
        """The figure as strict JSON: a float for a probability or ratio, a string for
        money (exact decimals), ``"p/q"`` beside the float for an exact fraction.

        >>> proportion(0, 10).to_json()["low"]
        0.0
        """
        out: dict[str, Any] = {"value": _json_number(self.value)}
        if self.low is not None and self.high is not None:
            out["low"] = _json_number(self.low)
            out["high"] = _json_number(self.high)
        out["source"] = self.source
        exact = self.value if isinstance(self.value, Fraction) else self.fraction
        if exact is not None and exact.denominator != 1:
            out["exact"] = f"{exact.numerator}/{exact.denominator}"
        return out


def _fmt(value: Number, percent: bool, digits: int, *, unit: bool = True) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and not percent:
        return str(value)
    if isinstance(value, Decimal) and not percent:
        return f"{value:.{digits}f}"
    x = float(value) * (100 if percent else 1)
    if not math.isfinite(x):
        return "n/a"
    return f"{x:.{digits}f}" + (" %" if percent and unit else "")


def _json_number(value: Number) -> float | int | str | None:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    x = float(value)
    return x if math.isfinite(x) else None


def chips(amount: Fraction | int, *, places: int = 3) -> Decimal:
    """An amount of chips as a decimal: exact when it has a finite decimal expansion of at
    most ``places`` places, else rounded half-even to ``places``.

    >>> chips(Fraction(9, 4)), chips(Fraction(10, 3)), chips(120)
    (Decimal('2.25'), Decimal('3.333'), Decimal('120'))
    """
    value = Fraction(amount)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    rounded = exact.quantize(Decimal(1).scaleb(-places))
    if Fraction(rounded) == value:  # exact: no trailing zeros
        return Decimal(value.numerator) if value.denominator == 1 else rounded.normalize()
    return rounded


def proportion(hits: int, trials: int) -> Estimate:
    """A simulated share with its 95 % Wilson score interval (sound near 0 and 1 too).

    >>> e = proportion(0, 1_000_000)
    >>> e.value, e.low, e.high < 4e-6
    (0.0, 0.0, True)
    """
    if trials < 1 or not 0 <= hits <= trials:
        raise CroupierError(f"a share needs 0 <= hits <= trials and trials >= 1: {hits}/{trials}")
    p = hits / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if hits == 0 else max(centre - half, 0.0)
    high = 1.0 if hits == trials else min(centre + half, 1.0)
    return Estimate(p, low, high, SIMULATED)


def mean_interval(total: int | Fraction, squares: int | Fraction, n: int) -> Estimate:
    """A simulated mean per trial from the sum and the sum of squares of ``n`` results, with
    its normal 95 % interval (undefined, NaN, for one trial).

    >>> e = mean_interval(50, 50, 100)      # fifty ones and fifty noughts
    >>> e.value, round(e.high - e.value, 4)
    (0.5, 0.098)
    """
    if n < 1:
        raise CroupierError(f"a mean needs at least one trial, not {n}")
    mean = Fraction(total) / n
    var = Fraction(squares) / n - mean * mean
    if n < 2:
        return Estimate(float(mean), math.nan, math.nan, SIMULATED)
    half = Z95 * math.sqrt(max(float(var), 0.0) / n)
    return Estimate(float(mean), float(mean) - half, float(mean) + half, SIMULATED)


@dataclass(frozen=True)
class Table:
    """A table of a sheet: its rows already written as text.

    >>> Table("Odds", ("what", "value"), (("a", "1"),)).rows[0][1]
    '1'
    """

    title: str
    """Its heading."""
    header: tuple[str, ...]
    """Column names."""
    rows: tuple[tuple[str, ...], ...]
    """Cells, one tuple a row, as many as the header."""
    notes: tuple[str, ...] = ()
    """Sentences printed under it."""

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.header):
                raise CroupierError(
                    f"table {self.title!r}: a row of {len(row)} cells under {len(self.header)} columns"
                )


@dataclass(frozen=True)
class Series:
    """One series of a bar chart, with an optional 95 % interval per bar.

    >>> Series("basic", (0.4, 0.6)).low is None
    True
    """

    name: str
    """Its legend label."""
    values: tuple[float, ...]
    """One value a category."""
    low: tuple[float, ...] | None = None
    """Interval lower ends (None: no error bars)."""
    high: tuple[float, ...] | None = None
    """Interval upper ends."""


@dataclass(frozen=True)
class Bars:
    """A bar chart: categories along x, one bar a series in each (stacked if asked).

    >>> Bars("t", "x", "y", ("a", "b"), (Series("s", (1.0, 2.0)),)).log
    False
    """

    title: str
    """Its title."""
    xlabel: str
    """The x-axis label."""
    ylabel: str
    """The y-axis label."""
    categories: tuple[str, ...]
    """The bars' labels."""
    series: tuple[Series, ...]
    """The values."""
    log: bool = False
    """A logarithmic y-axis (for distributions with long tails)."""
    stacked: bool = False
    """Stack the series instead of placing them side by side."""
    note: str = ""
    """A sentence under the chart."""

    def __post_init__(self) -> None:
        for s in self.series:
            if len(s.values) != len(self.categories):
                raise CroupierError(
                    f"chart {self.title!r}: series {s.name!r} has {len(s.values)} values "
                    f"for {len(self.categories)} categories"
                )


@dataclass(frozen=True)
class Sheet:
    """A PAR sheet ready to render: facts (the settings), tables, charts, notes, and the
    machine-readable ``data`` the JSON output is.

    >>> s = Sheet("PAR", (("game", "blackjack"),), (), (), ("off the top",), {"sheet": "x"})
    >>> s.facts[0]
    ('game', 'blackjack')
    """

    title: str
    """The heading."""
    facts: tuple[tuple[str, str], ...]
    """(setting, value) pairs: the game, its rules, the run."""
    tables: tuple[Table, ...]
    """The tables, headline first."""
    charts: tuple[Bars, ...]
    """Charts (drawn in the PDF only)."""
    notes: tuple[str, ...]
    """Method and assumptions, one sentence or paragraph each."""
    data: dict[str, Any] = field(default_factory=dict)
    """Everything as strict-JSON-ready data (the ``json`` format)."""
