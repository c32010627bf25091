"""Strength of a stud player's exposed (face-up) cards, for who opens a round (12.3+, inferred).

With fewer than five cards only pairs, two pair, trips and quads count (no straights
or flushes), then the highest ranks.

>>> from croupier.cards import parse_cards
>>> exposed_strength(parse_cards("Kd Kc")) > exposed_strength(parse_cards("As Qd"))
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from croupier.cards.card import Card
from croupier.evaluation.evaluate import rank_cards
from croupier.evaluation.rankings import HandRanking

__all__ = ["exposed_strength"]


def exposed_strength(cards: Sequence[Card], ranking: HandRanking | None = None) -> tuple[int, ...]:
    """A sortable key for up to five exposed cards; higher is stronger.

    Five exposed cards are ranked as a full hand (that only happens with a
    community card in seven card stud, never in the opening decision).

    >>> from croupier.cards import parse_cards
    >>> exposed_strength(parse_cards("9c 9d 4h")) > exposed_strength(parse_cards("9h 9s 3c"))
    True
    """
    if len(cards) >= 5 and ranking is not None:
        return (10, rank_cards(list(cards), ranking=ranking))
    if not cards:
        return (0,)
    counts = Counter(card.rank for card in cards)
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    if shape[0] == 4:
        category = 5
    elif shape[0] == 3:
        category = 3
    elif shape[:2] == (2, 2):
        category = 2
    else:
        category = 1 if shape[0] == 2 else 0
    return (category, *(int(rank) for rank, _ in groups))
