"""Plain-English names of hand values: "Flush, ace high", "Two pair, kings and nines".

>>> from croupier.evaluation.tables import tables_for
>>> from croupier.evaluation.rankings import STANDARD
>>> describe_rank(7462, tables_for(STANDARD)), describe_rank(1, tables_for(STANDARD))
('Royal flush', 'High card, seven')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier.cards.card import Rank
from croupier.evaluation._table_files import unpack_value
from croupier.evaluation.rankings import Category

if TYPE_CHECKING:
    from croupier.evaluation.fast import FastTables
    from croupier.evaluation.tables import RankTables

__all__ = ["describe_rank", "significant_ranks"]


def significant_ranks(rank: int, tables: RankTables | FastTables) -> tuple[Rank, ...]:
    """The ranks that decide a hand value, most significant first (e.g. pair rank, kickers).

    >>> from croupier.evaluation.tables import tables_for
    >>> from croupier.evaluation.rankings import STANDARD
    >>> significant_ranks(7462, tables_for(STANDARD))
    (<Rank.ACE: 12>,)
    """
    category = tables.category_of(rank)
    _, slots = unpack_value(int(tables.packed[rank]))
    used = {
        Category.HIGH_CARD: 5,
        Category.PAIR: 4,
        Category.TWO_PAIR: 3,
        Category.THREE_OF_A_KIND: 3,
        Category.STRAIGHT: 1,
        Category.FLUSH: 5,
        Category.FULL_HOUSE: 2,
        Category.FOUR_OF_A_KIND: 2,
        Category.STRAIGHT_FLUSH: 1,
    }[category]
    return tuple(Rank(r) for r in slots[:used])


def describe_rank(rank: int, tables: RankTables | FastTables) -> str:
    """Name a dense hand rank in plain English (``tables``: the numpy tables or their
    one-call views, :func:`~croupier.evaluation.fast.fast_tables`)."""
    category = tables.category_of(rank)
    r = significant_ranks(rank, tables)
    match category:
        case Category.HIGH_CARD:
            return f"High card, {r[0].noun}"
        case Category.PAIR:
            return f"Pair of {r[0].plural}"
        case Category.TWO_PAIR:
            return f"Two pair, {r[0].plural} and {r[1].plural}"
        case Category.THREE_OF_A_KIND:
            return f"Three of a kind, {r[0].plural}"
        case Category.STRAIGHT:
            return f"Straight, {r[0].noun} high"
        case Category.FLUSH:
            return f"Flush, {r[0].noun} high"
        case Category.FULL_HOUSE:
            return f"Full house, {r[0].plural} full of {r[1].plural}"
        case Category.FOUR_OF_A_KIND:
            return f"Four of a kind, {r[0].plural}"
        case _:
            if r[0] is Rank.ACE:
                return "Royal flush"
            return f"Straight flush, {r[0].noun} high"
