"""The built-in statistical tests of the shuffle (``croupier rng test``), at the 99 % level.

:func:`run_battery` deals shuffles from a byte stream (the operating system's generator by
default, or a file of raw bytes) exactly as the live shuffle deals them (the compiled
:func:`~croupier.rngtest._kernel.deal_orders`), and :class:`ShuffleStatistics` counts, over
all of them:

``positions``
    where each card lands: the n × n table of card by position, by chi-square. Each row of
    the table (one card) is multinomial, so each card has its own chi-square with ``n - 1``
    degrees of freedom; the whole table, whose rows and columns are tied (each shuffle puts
    every card somewhere and something everywhere), is a chi-square with ``(n - 1)**2``
    degrees of freedom once multiplied by ``(n - 1) / n``.
``worst-card``
    the smallest of the n per-card p-values, Bonferroni-corrected (times n).
``adjacent-pairs``
    which card lies directly under which: one ordered pair of neighbours from each shuffle,
    at the slot ``shuffle number mod (n - 1)``, so every pair count is an exact multinomial
    with ``n (n - 1)`` equally likely cells.
``runs``
    the number of ascending runs in each shuffled order (one more than its descents) against
    its exact law, the Eulerian numbers, by chi-square (tails merged to at least 5 expected).
``serial-correlation``
    Spearman's rank correlation between each shuffle and the next; for independent shuffles
    each has mean 0 and variance ``1 / (n - 1)`` and consecutive ones are uncorrelated, so
    their sum gives a normal score (two-sided).

A test passes when its p-value is at least 0.01. Five tests at 1 % each: a perfect
generator fails one of them in about 5 % of runs; run again on fresh bytes (docs/rng.md).

>>> import numpy as np
>>> stats = ShuffleStatistics(3)
>>> stats.add(np.array([[0, 1, 2], [2, 1, 0], [1, 0, 2]], dtype=np.int16))
>>> stats.shuffles, stats.position_counts.tolist()
(3, [[1, 1, 1], [1, 2, 0], [1, 0, 2]])
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.cards.card import Card
from croupier.cards.deck import full_deck, stripped_deck
from croupier.errors import CroupierError
from croupier.rngtest import MAX_CARDS
from croupier.rngtest._kernel import count_orders, deal_orders
from croupier.rngtest.stats import chi2_sf, eulerian_distribution, normal_two_sided

__all__ = [
    "ALPHA",
    "BatteryReport",
    "CheckResult",
    "ShuffleStatistics",
    "expected_bytes_per_shuffle",
    "item_name",
    "minimum_shuffles",
    "run_battery",
]

ALPHA = 0.01
"""A test fails when its p-value is below this: the 99 % level."""

Reader = Callable[[int], bytes]
"""Gives up to ``n`` bytes; fewer only when the stream has ended (``os.urandom``, or the
``read`` of a file opened in binary)."""


@dataclass(frozen=True)
class CheckResult:
    """One test's outcome: its statistic, degrees of freedom (None for a normal score),
    p-value and whether it passes at the 99 % level.

    >>> CheckResult("runs", "ascending runs", 12.5, 20, 0.9).passed
    True
    """

    name: str
    """Short name (``positions``, ``worst-card``, ...)."""
    description: str
    """What was counted, in a few words."""
    statistic: float
    """The chi-square, or the normal score."""
    df: int | None
    """Degrees of freedom of a chi-square; None for a normal score."""
    p_value: float
    """The chance of a result at least this extreme from a perfect shuffle."""
    details: dict[str, Any] = field(default_factory=dict)
    """More figures (the per-card p-values, the worst card, ...)."""

    @property
    def passed(self) -> bool:
        """Whether the p-value is at least :data:`ALPHA`."""
        return self.p_value >= ALPHA

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready data.

        >>> CheckResult("runs", "ascending runs", 1.0, 3, 0.8).to_json()["passed"]
        True
        """
        return {
            "name": self.name,
            "description": self.description,
            "statistic": self.statistic,
            "df": self.df,
            "p_value": self.p_value,
            "passed": self.passed,
            **self.details,
        }


@dataclass(frozen=True)
class BatteryReport:
    """What :func:`run_battery` did: how many shuffles of how many cards, from which bytes,
    how long it took, and each test's :class:`CheckResult`.

    >>> report = BatteryReport(52, 100, 7100, "os.urandom", 0.1, ())
    >>> report.passed, report.failed
    (True, ())
    """

    cards: int
    shuffles: int
    bytes_used: int
    """The bytes those shuffles consumed."""
    source: str
    """Where the bytes came from."""
    seconds: float
    results: tuple[CheckResult, ...]

    @property
    def failed(self) -> tuple[CheckResult, ...]:
        """The tests that failed."""
        return tuple(r for r in self.results if not r.passed)

    @property
    def passed(self) -> bool:
        """Whether every test passed at the 99 % level."""
        return not self.failed

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data.

        >>> sorted(BatteryReport(52, 1, 71, "x", 0.0, ()).to_json())[:4]
        ['alpha', 'bytes_used', 'cards', 'passed']
        """
        return {
            "cards": self.cards,
            "shuffles": self.shuffles,
            "bytes_used": self.bytes_used,
            "source": self.source,
            "seconds": self.seconds,
            "alpha": ALPHA,
            "passed": self.passed,
            "tests": [r.to_json() for r in self.results],
        }


def minimum_shuffles(cards: int) -> int:
    """The fewest shuffles the tests take: 5 expected in every adjacent-pair cell.

    >>> minimum_shuffles(52)
    13260
    """
    return 5 * cards * (cards - 1)


def expected_bytes_per_shuffle(cards: int) -> float:
    """The mean number of bytes one shuffle of ``cards`` items consumes (rejections
    included): a draw below ``b`` takes ``size`` bytes per attempt and succeeds with chance
    ``b / 2**bits``.

    >>> round(expected_bytes_per_shuffle(52), 2)
    71.4
    """
    total = 0.0
    for bound in range(2, cards + 1):
        bits = (bound - 1).bit_length()
        total += ((bits + 7) // 8) * (1 << bits) / bound
    return total


def item_name(cards: int, item: int) -> str:
    """How the report names item ``item`` of the unshuffled list: a card of the 52-card or
    32-card deck, a card of a shoe's n-th deck, else its index.

    >>> item_name(52, 51), item_name(32, 0), item_name(312, 53), item_name(7, 3)
    ('As', '7c', '2d (deck 2)', 'item 3')
    """
    deck: tuple[Card, ...] | None = None
    if cards == 52:
        deck = full_deck()
    elif cards == 32:
        deck = stripped_deck()
    if deck is not None:
        return str(deck[item])
    if cards % 52 == 0:
        return f"{full_deck()[item % 52]} (deck {item // 52 + 1})"
    return f"item {item}"


class ShuffleStatistics:
    """Counts over shuffled orders of ``cards`` items (each order a row of item numbers,
    position 0 first), added chunk by chunk, and the tests they give.

    >>> import numpy as np
    >>> stats = ShuffleStatistics(4)
    >>> stats.add(np.array([[3, 2, 1, 0]] * 200, dtype=np.int16))   # the same order 200 times
    >>> [r.passed for r in stats.results()]
    [False, False, False, False, False]
    """

    def __init__(self, cards: int) -> None:
        if not 2 <= cards <= MAX_CARDS:
            raise CroupierError(f"the tests shuffle 2 to {MAX_CARDS} cards, not {cards}")
        self.cards = cards
        """Items in each order."""
        self.shuffles = 0
        """Orders counted so far."""
        self.position_counts: npt.NDArray[np.int64] = np.zeros((cards, cards), dtype=np.int64)
        """``[item, position]``: how often each item landed at each position."""
        self.pair_counts: npt.NDArray[np.int64] = np.zeros((cards, cards), dtype=np.int64)
        """``[upper, lower]``: the sampled pairs of neighbours (one per shuffle)."""
        self.descent_counts: npt.NDArray[np.int64] = np.zeros(cards, dtype=np.int64)
        """``[k]``: shuffles with ``k`` descents (``k + 1`` ascending runs)."""
        self.spearman_sum = 0.0
        """The sum of Spearman's rho between consecutive shuffles."""
        self.spearman_pairs = 0
        """How many consecutive pairs that sum covers."""
        self._last_positions: npt.NDArray[np.int64] | None = None

    def add(self, orders: npt.NDArray[np.integer[Any]]) -> None:
        """Count a chunk of shuffled orders (rows), following the ones added before.

        >>> import numpy as np
        >>> stats = ShuffleStatistics(3)
        >>> stats.add(np.array([[0, 1, 2]], dtype=np.int16)); stats.descent_counts.tolist()
        [1, 0, 0]
        """
        rows = np.asarray(orders)
        count, n = rows.shape if rows.ndim == 2 else (0, 0)
        if n != self.cards or (count and (rows.min() < 0 or rows.max() >= n)):
            raise CroupierError(f"orders of {self.cards} items expected, got shape {rows.shape}")
        if count == 0:
            return
        rho, self._last_positions = count_orders(
            rows.astype(np.int16, copy=False),
            self.position_counts,
            self.pair_counts,
            self.descent_counts,
            self._last_positions,
            self.shuffles,
        )
        self.spearman_sum += rho
        self.spearman_pairs += count - (1 if self.shuffles == 0 else 0)
        self.shuffles += count

    def results(self) -> tuple[CheckResult, ...]:
        """The five tests on everything counted so far (see the module's docstring).

        >>> ShuffleStatistics(52).results()
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: the tests need at least 13,260 shuffles of 52 cards, not 0
        """
        n, s = self.cards, self.shuffles
        if s < minimum_shuffles(n):
            raise CroupierError(
                f"the tests need at least {minimum_shuffles(n):,} shuffles of {n} cards, not {s:,}"
            )
        return (
            *self._positions(),
            self._adjacent_pairs(),
            self._runs(),
            self._serial_correlation(),
        )

    def _positions(self) -> tuple[CheckResult, CheckResult]:
        n, s = self.cards, self.shuffles
        expected = s / n
        squares = (self.position_counts - expected) ** 2 / expected
        per_card = squares.sum(axis=1)
        card_p = [chi2_sf(float(x), n - 1) for x in per_card]
        table = float(squares.sum()) * (n - 1) / n
        worst = int(np.argmin(card_p))
        positions = CheckResult(
            "positions",
            "each card's position (card by position table)",
            table,
            (n - 1) ** 2,
            chi2_sf(table, (n - 1) ** 2),
            {"card_p_values": {item_name(n, i): p for i, p in enumerate(card_p)}},
        )
        worst_card = CheckResult(
            "worst-card",
            f"the least uniform card's position ({item_name(n, worst)}), times {n}",
            float(per_card[worst]),
            n - 1,
            min(1.0, card_p[worst] * n),
            {"card": item_name(n, worst), "card_p_value": card_p[worst]},
        )
        return positions, worst_card

    def _adjacent_pairs(self) -> CheckResult:
        n, s = self.cards, self.shuffles
        cells = n * (n - 1)
        expected = s / cells
        off_diagonal = ~np.eye(n, dtype=bool)
        observed = self.pair_counts[off_diagonal].astype(np.float64)
        statistic = float(((observed - expected) ** 2).sum() / expected)
        return CheckResult(
            "adjacent-pairs",
            "which card lies directly under which (one slot a shuffle)",
            statistic,
            cells - 1,
            chi2_sf(statistic, cells - 1),
        )

    def _runs(self) -> CheckResult:
        s = self.shuffles
        law = [float(p) for p in eulerian_distribution(self.cards)]
        groups: list[tuple[float, int]] = []
        expected = 0.0
        observed = 0
        for k, p in enumerate(law):
            expected += s * p
            observed += int(self.descent_counts[k])
            if expected >= 5.0:
                groups.append((expected, observed))
                expected, observed = 0.0, 0
        if groups and (expected > 0 or observed):
            last_e, last_o = groups.pop()
            groups.append((last_e + expected, last_o + observed))
        df = len(groups) - 1
        statistic = sum((o - e) ** 2 / e for e, o in groups)
        return CheckResult(
            "runs",
            "ascending runs in each order (Eulerian law)",
            statistic,
            df,
            chi2_sf(statistic, df) if df >= 1 else 1.0,
            {"bins": len(groups)},
        )

    def _serial_correlation(self) -> CheckResult:
        n, pairs = self.cards, self.spearman_pairs
        z = self.spearman_sum / math.sqrt(pairs / (n - 1)) if pairs else 0.0
        return CheckResult(
            "serial-correlation",
            "Spearman's rho between consecutive shuffles",
            z,
            None,
            normal_two_sided(z),
            {"mean_rho": self.spearman_sum / pairs if pairs else 0.0},
        )


def run_battery(
    shuffles: int = 1_000_000,
    cards: int = 52,
    *,
    read: Reader = os.urandom,
    source: str = "os.urandom",
    progress: Callable[[int], object] | None = None,
) -> BatteryReport:
    """Deal ``shuffles`` shuffles of ``cards`` items from the bytes ``read`` gives (the
    operating system's generator by default), exactly as the live shuffle deals them, and
    run the tests. A stream that ends early (a file) gives as many whole shuffles as it
    holds; too few for the tests is a :class:`~croupier.errors.CroupierError`.

    >>> import io
    >>> zeros = io.BytesIO(bytes(100_000))       # a stuck stream: every shuffle the same
    >>> report = run_battery(300, 4, read=zeros.read, source="zero bytes")
    >>> report.shuffles, report.bytes_used, report.passed
    (300, 900, False)
    """
    if not 2 <= cards <= MAX_CARDS:
        raise CroupierError(f"the tests shuffle 2 to {MAX_CARDS} cards, not {cards}")
    if shuffles < minimum_shuffles(cards):
        raise CroupierError(
            f"the tests need at least {minimum_shuffles(cards):,} shuffles of {cards} cards, "
            f"not {shuffles:,}"
        )
    started = time.perf_counter()
    stats = ShuffleStatistics(cards)
    chunk = max(1024, (1 << 22) // cards)  # shuffles a chunk: about 4 M cards
    per_shuffle = expected_bytes_per_shuffle(cards)
    carry = b""
    used_total = 0
    while stats.shuffles < shuffles:
        want = min(chunk, shuffles - stats.shuffles)
        ask = max(0, int(want * per_shuffle * 1.01) + 16 * cards - len(carry))
        fresh = read(ask)
        data = carry + fresh
        orders, used = deal_orders(np.frombuffer(data, dtype=np.uint8), cards, want)
        carry = data[used:]
        used_total += used
        if len(orders):
            stats.add(orders)
            if progress is not None:
                progress(len(orders))
        if len(fresh) < ask and len(orders) < want:  # the stream has ended
            break
    if stats.shuffles < minimum_shuffles(cards):
        raise CroupierError(
            f"{source} held bytes for {stats.shuffles:,} shuffles of {cards} cards; "
            f"the tests need at least {minimum_shuffles(cards):,}"
        )
    results = stats.results()
    return BatteryReport(
        cards,
        stats.shuffles,
        used_total,
        source,
        time.perf_counter() - started,
        results,
    )
