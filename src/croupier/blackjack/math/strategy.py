"""Strategy charts: the table a basic-strategy player follows, and how two charts differ.

A chart has a row per hard total (4-20), soft total (12-20) and pair (A, 2-T), a column per
dealer up card (2-9, T, A), and a code in each cell: ``H`` hit, ``S`` stand, ``D`` double
(else hit), ``Ds`` double (else stand), ``P`` split, ``R`` surrender (else hit), ``Rs``
surrender (else stand). A pair row is read first for an unplayed pair; a hand that cannot
play its pair row's "P" reads its hard or soft row. croupier *derives* its charts
(:meth:`croupier.blackjack.math.analysis.Analysis.basic_strategy`); :data:`US_SIX_DECK` is
the published chart, typed in only to compare against.

>>> US_SIX_DECK.code("hard", 16, 10), US_SIX_DECK.code("pair", 9, 7), US_SIX_DECK.code("soft", 18, 3)
('H', 'S', 'Ds')
>>> [(d.kind, d.row, d.up) for d in NZ_BASIC_STRATEGY.departures(US_SIX_DECK)]
[('pair', 8, 1)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from croupier.blackjack.math._policy import CODES
from croupier.errors import CroupierError

__all__ = ["NZ_BASIC_STRATEGY", "UP_CARDS", "US_SIX_DECK", "Departure", "StrategyChart"]

UP_CARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
"""Dealer up cards in chart column order (1 = ace, 10 = ten)."""

_KINDS = ("hard", "soft", "pair")
_ROWS: dict[str, range | tuple[int, ...]] = {
    "hard": range(4, 21),
    "soft": range(12, 21),
    "pair": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
}


def _label(value: int) -> str:
    return "A" if value == 1 else ("T" if value == 10 else str(value))


def _row_name(kind: str, row: int) -> str:
    return f"{kind} {_label(row) if kind == 'pair' else row}"


def _value(label: str) -> int:
    text = label.strip().upper()
    if text == "A":
        return 1
    if text in ("T", "10", "J", "Q", "K"):
        return 10
    if text.isdigit() and 2 <= int(text) <= 9:
        return int(text)
    raise CroupierError(f"not a card value: {label!r} (use A, 2-9 or T)")


@dataclass(frozen=True)
class Departure:
    """One cell where two charts disagree.

    >>> Departure("hard", 11, 1, "D", "H").describe()
    'hard 11 v A: D (was H)'
    """

    kind: str
    """``hard``, ``soft`` or ``pair``."""
    row: int
    """The total, or the pair's value (1 = ace)."""
    up: int
    """The dealer's up card (1 = ace)."""
    code: str
    """This chart's code."""
    other: str
    """The other chart's code."""

    def describe(self) -> str:
        """One line, e.g. ``pair 8 v T: S (was P)``."""
        row = _label(self.row) if self.kind == "pair" else str(self.row)
        return f"{self.kind} {row} v {_label(self.up)}: {self.code} (was {self.other})"


@dataclass(frozen=True, eq=False)
class StrategyChart:
    """A strategy chart (see the module docstring) backed by an ``int8[3, 22, 11]`` array.

    >>> chart = StrategyChart.from_rows(US_SIX_DECK.rows())
    >>> chart == US_SIX_DECK, chart.code("pair", 8, 1)
    (True, 'P')
    """

    cells: npt.NDArray[np.int8]
    """``cells[kind, row, up]`` with kind 0 hard, 1 soft, 2 pair; codes index :data:`CODES`."""
    given: frozenset[str] | None = None
    """The rows the chart's source printed (None: every row); others hold defaults."""

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, StrategyChart)
            and bool(np.array_equal(self.cells, other.cells))
            and self.given == other.given
        )

    def __hash__(self) -> int:
        return hash(self.cells.tobytes())

    def code(self, kind: str, row: int, up: int) -> str:
        """The code in one cell, e.g. ``code("soft", 18, 10)``."""
        return CODES[int(self.cells[_KINDS.index(kind), row, up])]

    def rows(self) -> dict[str, dict[str, str]]:
        """The chart as ``{"hard 16": {"2": "S", ..., "A": "H"}, ...}`` (the CLI's JSON).

        >>> US_SIX_DECK.rows()["pair A"]["T"]
        'P'
        """
        out: dict[str, dict[str, str]] = {}
        for kind in _KINDS:
            for row in _ROWS[kind]:
                name = _row_name(kind, row)
                if self.given is None or name in self.given:
                    out[name] = {_label(up): self.code(kind, row, up) for up in UP_CARDS}
        return out

    @classmethod
    def from_rows(cls, rows: Mapping[str, Mapping[str, str]]) -> StrategyChart:
        """Build a chart from :meth:`rows`-style data; rows not given default to ``H``
        (hard 17-20 and soft 19-20 to ``S``) and are left out of :meth:`departures`.

        >>> StrategyChart.from_rows({"hard 16": {"T": "X"}})
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: unknown code 'X' in hard 16 v T (codes: H, S, D, Ds, P, R, Rs)
        """
        cells = np.zeros((3, 22, 11), np.int8)
        cells[0, 17:22, :] = CODES.index("S")
        cells[1, 19:22, :] = CODES.index("S")
        cells[2, :, :] = CODES.index("H")
        for name, row in rows.items():
            kind, _, label = name.partition(" ")
            if kind not in _KINDS:
                raise CroupierError(f"unknown row {name!r}: rows start with hard, soft or pair")
            index = _value(label) if kind == "pair" else int(label)
            for up_label, code in row.items():
                if code not in CODES:
                    raise CroupierError(
                        f"unknown code {code!r} in {name} v {up_label} (codes: {', '.join(CODES)})"
                    )
                cells[_KINDS.index(kind), index, _value(up_label)] = CODES.index(code)
        return cls(cells, frozenset(rows))

    def departures(self, other: StrategyChart) -> list[Departure]:
        """The cells (of rows both charts print) where this chart differs from ``other``.

        >>> rows = US_SIX_DECK.rows()
        >>> rows["hard 16"]["T"] = "S"
        >>> changed = StrategyChart.from_rows(rows)
        >>> [d.describe() for d in changed.departures(US_SIX_DECK)]
        ['hard 16 v T: S (was H)']
        """
        out = []
        for k, kind in enumerate(_KINDS):
            for row in _ROWS[kind]:
                name = _row_name(kind, row)
                if any(c.given is not None and name not in c.given for c in (self, other)):
                    continue
                for up in UP_CARDS:
                    mine, theirs = int(self.cells[k, row, up]), int(other.cells[k, row, up])
                    if mine != theirs:
                        out.append(Departure(kind, row, up, CODES[mine], CODES[theirs]))
        return out


def _chart(text: str) -> StrategyChart:
    rows: dict[str, dict[str, str]] = {}
    for line in text.strip().splitlines():
        name, codes = line.split(":")
        rows[name.strip()] = dict(zip(map(_label, UP_CARDS), codes.split(), strict=True))
    return StrategyChart.from_rows(rows)


US_SIX_DECK = _chart(
    """
    hard 5:  H H H H H H H H H H
    hard 6:  H H H H H H H H H H
    hard 7:  H H H H H H H H H H
    hard 8:  H H H H H H H H H H
    hard 9:  H D D D D H H H H H
    hard 10: D D D D D D D D H H
    hard 11: D D D D D D D D D H
    hard 12: H H S S S H H H H H
    hard 13: S S S S S H H H H H
    hard 14: S S S S S H H H H H
    hard 15: S S S S S H H H H H
    hard 16: S S S S S H H H H H
    hard 17: S S S S S S S S S S
    hard 18: S S S S S S S S S S
    hard 19: S S S S S S S S S S
    hard 20: S S S S S S S S S S
    soft 13: H H H D D H H H H H
    soft 14: H H H D D H H H H H
    soft 15: H H D D D H H H H H
    soft 16: H H D D D H H H H H
    soft 17: H D D D D H H H H H
    soft 18: S Ds Ds Ds Ds S S H H H
    soft 19: S S S S S S S S S S
    soft 20: S S S S S S S S S S
    pair A:  P P P P P P P P P P
    pair 2:  P P P P P P H H H H
    pair 3:  P P P P P P H H H H
    pair 4:  H H H P P H H H H H
    pair 5:  D D D D D D D D H H
    pair 6:  P P P P P H H H H H
    pair 7:  P P P P P P H H H H
    pair 8:  P P P P P P P P P P
    pair 9:  P P P P P S P P S S
    pair T:  S S S S S S S S S S
    """
)
"""The published basic strategy for 4-8 decks, dealer stands on soft 17, double any two,
double after split, no surrender, peek (as printed on US strategy cards, e.g. the Wizard of
Odds 4-8 deck chart). Used only for comparison: croupier derives its own charts. It prints
no hard 4 or soft 12 row (2,2 and A,A are pairs there)."""


NZ_BASIC_STRATEGY = StrategyChart(
    _chart(
        """
        hard 4:  H H H H H H H H H H
        hard 5:  H H H H H H H H H H
        hard 6:  H H H H H H H H H H
        hard 7:  H H H H H H H H H H
        hard 8:  H H H H H H H H H H
        hard 9:  H D D D D H H H H H
        hard 10: D D D D D D D D H H
        hard 11: D D D D D D D D D H
        hard 12: H H S S S H H H H H
        hard 13: S S S S S H H H H H
        hard 14: S S S S S H H H H H
        hard 15: S S S S S H H H H H
        hard 16: S S S S S H H H H H
        hard 17: S S S S S S S S S S
        hard 18: S S S S S S S S S S
        hard 19: S S S S S S S S S S
        hard 20: S S S S S S S S S S
        soft 12: H H H H D H H H H H
        soft 13: H H H D D H H H H H
        soft 14: H H H D D H H H H H
        soft 15: H H D D D H H H H H
        soft 16: H H D D D H H H H H
        soft 17: H D D D D H H H H H
        soft 18: S Ds Ds Ds Ds S S H H H
        soft 19: S S S S S S S S S S
        soft 20: S S S S S S S S S S
        pair A:  P P P P P P P P P P
        pair 2:  P P P P P P H H H H
        pair 3:  P P P P P P H H H H
        pair 4:  H H H P P H H H H H
        pair 5:  D D D D D D D D H H
        pair 6:  P P P P P H H H H H
        pair 7:  P P P P P P H H H H
        pair 8:  P P P P P P P P P H
        pair 9:  P P P P P S P P S S
        pair T:  S S S S S S S S S S
        """
    ).cells
)
"""The basic strategy croupier derives for the NZ rules (:data:`~croupier.blackjack.rules.NZ`):
what ``Analysis(NZ).basic_strategy()`` gives, kept here as text so that a bot at an NZ
table plays it without running the analysis (and loading numba); a test derives it again
and compares every cell. It differs from :data:`US_SIX_DECK` where the no-hole-card rule
(11.7) does: a pair of 8s hits against an ace."""
