"""The result of evaluating one player's hand: comparable, named, and explained.

>>> from croupier.evaluation import evaluate
>>> hand = evaluate("Ks 9h", board="Kd 9c 2s 5h 3c")
>>> hand.category, hand.describe(), hand.best_five_text
(<Category.TWO_PAIR: 2>, 'Two pair, kings and nines', 'Ks Kd 9h 9c 5h')
>>> hand.own_cards
(Card('Ks'), Card('9h'))
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from croupier.cards.card import Card, Rank, format_cards
from croupier.evaluation.composition import Composition
from croupier.evaluation.describe import describe_rank, significant_ranks
from croupier.evaluation.fast import fast_tables
from croupier.evaluation.rankings import Category, HandRanking

__all__ = ["HandValue"]


class HandValue:
    """A player's best hand: ``rank`` (higher is better, equal is a tie), its category,
    the five cards that make it and which of those are the player's own.

    Hands compare by rank; compare only hands of the same ranking.

    >>> from croupier.evaluation import evaluate
    >>> evaluate("As Ad 2c 3d 4h") > evaluate("Ks Kd Qc Jd 9h")
    True
    """

    __slots__ = ("_best", "board", "composition", "own", "rank", "ranking")

    def __init__(
        self,
        rank: int,
        own: tuple[Card, ...],
        board: tuple[Card, ...],
        composition: Composition,
        ranking: HandRanking,
    ) -> None:
        self.rank = rank
        """Dense rank: 1 is the worst five-card hand; higher is better; equal ties."""
        self.own = own
        """The player's own cards (hole cards, or a stud or draw hand)."""
        self.board = board
        """The community cards."""
        self.composition = composition
        """How the five could be formed."""
        self.ranking = ranking
        """The hand-rank table used."""
        self._best: tuple[Card, ...] | None = None

    # comparisons: by rank only (equal rank = tie)
    def _check(self, other: HandValue) -> HandValue:
        if not isinstance(other, HandValue):
            raise TypeError(f"cannot compare a hand with {type(other).__name__}")
        if other.ranking != self.ranking:
            raise TypeError("cannot compare hands of different rankings")
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.rank == other.rank and self.ranking == other.ranking

    def __hash__(self) -> int:
        return hash((self.rank, self.ranking.name))

    def __lt__(self, other: HandValue) -> bool:
        return self.rank < self._check(other).rank

    def __le__(self, other: HandValue) -> bool:
        return self.rank <= self._check(other).rank

    def __gt__(self, other: HandValue) -> bool:
        return self.rank > self._check(other).rank

    def __ge__(self, other: HandValue) -> bool:
        return self.rank >= self._check(other).rank

    def __repr__(self) -> str:
        return f"<HandValue {self.describe()!r} rank={self.rank} [{self.best_five_text}]>"

    @property
    def category(self) -> Category:
        """The hand's category.

        >>> from croupier.evaluation import evaluate
        >>> evaluate("7c 7d 7h 2s 2c").category
        <Category.FULL_HOUSE: 6>
        """
        return fast_tables(self.ranking).category_of(self.rank)

    @property
    def significant_ranks(self) -> tuple[Rank, ...]:
        """The ranks that decide the hand, most significant first."""
        return significant_ranks(self.rank, fast_tables(self.ranking))

    def describe(self) -> str:
        """The hand in plain English, e.g. ``"Flush, ace high"``.

        >>> from croupier.evaluation import evaluate
        >>> evaluate("Ah 9h 7h 4h 2h Kc Qd").describe()
        'Flush, ace high'
        """
        return describe_rank(self.rank, fast_tables(self.ranking))

    __str__ = describe

    @property
    def best_five(self) -> tuple[Card, ...]:
        """The five cards that make the hand, most significant first.

        Where several choices of five give the same value, the one whose own cards
        are highest by rank and then suit is taken (the reading of Omaha 17.5(e)
        that favours the player; see docs/decisions.md).

        >>> from croupier.evaluation import evaluate
        >>> evaluate("As Ah Ks Qs", board="Js Ts 2s 3d 4c", omaha=True).best_five_text
        'As Ks Js Ts 2s'
        """
        if self._best is None:
            self._best = self._find_best_five()
        return self._best

    @property
    def best_five_text(self) -> str:
        """:attr:`best_five` as text, e.g. ``"As Ks Js Ts 2s"``."""
        return format_cards(self.best_five, " ")

    @property
    def own_cards(self) -> tuple[Card, ...]:
        """Which of the best five are the player's own cards (used by the odd-chip rule)."""
        mine = set(self.own)
        return tuple(c for c in self.best_five if c in mine)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary.

        >>> from croupier.evaluation import evaluate
        >>> evaluate("As Ks Qs Js Ts").to_dict()["category"]
        'straight_flush'
        """
        return {
            "category": self.category.slug,
            "rank": self.rank,
            "description": self.describe(),
            "best_five": [str(c) for c in self.best_five],
            "own_cards_used": [str(c) for c in self.own_cards],
            "ranking": self.ranking.name,
        }

    def _candidates(self) -> list[tuple[Card, ...]]:
        if self.composition.own is not None and self.composition.board is not None:
            return [
                mine + shared
                for mine in combinations(self.own, self.composition.own)
                for shared in combinations(self.board, self.composition.board)
            ]
        return list(combinations(self.own + self.board, 5))

    def _find_best_five(self) -> tuple[Card, ...]:
        ft = fast_tables(self.ranking)
        mine = set(self.own)
        best: tuple[Card, ...] | None = None
        best_key: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        for five in self._candidates():
            a, b, c, d, e = (card.index for card in five)
            if ft.rank_five(a, b, c, d, e) != self.rank:
                continue
            own_used = sorted((card.index for card in five if card in mine), reverse=True)
            key = (tuple(own_used), tuple(sorted((card.index for card in five), reverse=True)))
            if best is None or key > best_key:
                best, best_key = five, key
        if best is None:  # pragma: no cover - would mean the tables disagree with themselves
            raise AssertionError("no five-card combination reaches the hand's rank")
        return _display_order(best, self.category)


def _display_order(five: tuple[Card, ...], category: Category) -> tuple[Card, ...]:
    """Order five cards by significance: bigger groups first, then rank, then suit."""
    counts = Counter(card.rank for card in five)
    ordered = sorted(five, key=lambda c: (counts[c.rank], c.rank, c.suit), reverse=True)
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        ranks = {c.rank for c in five}
        if Rank.ACE in ranks and Rank.KING not in ranks:  # ace playing low
            ordered = ordered[1:] + ordered[:1]
    return tuple(ordered)
