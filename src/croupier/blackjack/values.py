"""Card values and hand totals (Blackjack 3.2).

2-10 count their face value, J, Q and K count 10, an ace counts 11 unless that
would take the total over 21, when it counts 1 (3.2(a)-(c)).

>>> from croupier.cards import parse_cards
>>> hand_total(parse_cards("As 6d")), hand_total(parse_cards("As 6d 9c"))
((17, True), (16, False))
>>> card_value(parse_cards("Kh")[0])
10
"""

from __future__ import annotations

from collections.abc import Iterable

from croupier.cards.card import Card, Rank

__all__ = ["card_value", "hand_total", "is_pair"]

VALUE_OF_INDEX = tuple(1 if i >> 2 == Rank.ACE else min((i >> 2) + 2, 10) for i in range(52))
"""Card index -> blackjack value (an ace as 1)."""


def card_value(card: Card) -> int:
    """The card's blackjack value (an ace as 1; :func:`hand_total` decides 11).

    >>> [card_value(Card.parse(t)) for t in ("2c", "Td", "Qs", "Ah")]
    [2, 10, 10, 1]
    """
    return VALUE_OF_INDEX[card.index]


def hand_total(cards: Iterable[Card]) -> tuple[int, bool]:
    """``(total, soft)``: the best total, and whether an ace counts 11 in it (3.2(c)).

    >>> from croupier.cards import parse_cards
    >>> hand_total(parse_cards("Ah Ad"))      # A+A = 12, soft (Digest scenario 32)
    (12, True)
    """
    values = VALUE_OF_INDEX
    total = 0
    ace = False
    for card in cards:
        value = values[card.index]
        total += value
        if value == 1:
            ace = True
    if ace and total <= 11:
        return _SOFT[total]  # (total + 10, True)
    return _HARD[total] if total < 32 else (total, False)


_SOFT = tuple((total + 10, True) for total in range(12))
_HARD = tuple((total, False) for total in range(32))
"""The totals :func:`hand_total` gives, made once (a soft one by its hard total)."""


def is_pair(a: Card, b: Card, *, by_rank: bool) -> bool:
    """Whether two cards split as a pair: same value (K+Q) or, ``by_rank``, same rank.

    >>> is_pair(Card.parse("Kh"), Card.parse("Qs"), by_rank=False)
    True
    """
    if by_rank:
        return a.index >> 2 == b.index >> 2  # a.rank == b.rank (index: 4 * rank + suit)
    return VALUE_OF_INDEX[a.index] == VALUE_OF_INDEX[b.index]  # card_value(a) == card_value(b)
