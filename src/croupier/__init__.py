"""croupier: deals, referees and analyses casino table games under NZ's gazetted rules.

>>> import croupier
>>> croupier.evaluate("As Ks", board="Qs Js Ts 2c 3d").describe()
'Royal flush'
"""

from croupier.cards import Card, Deck, Rank, Shoe, Suit, parse_cards
from croupier.errors import (
    CardParseError,
    CroupierError,
    DuplicateCardError,
    HandSizeError,
    RuleViolationError,
)
from croupier.evaluation import (
    STANDARD,
    STRIPPED,
    Category,
    Composition,
    HandRanking,
    HandValue,
    evaluate,
    evaluate_omaha,
    rank_cards,
)

__version__ = "0.1.0"

__all__ = [
    "STANDARD",
    "STRIPPED",
    "Card",
    "CardParseError",
    "Category",
    "Composition",
    "CroupierError",
    "Deck",
    "DuplicateCardError",
    "HandRanking",
    "HandSizeError",
    "HandValue",
    "Rank",
    "RuleViolationError",
    "Shoe",
    "Suit",
    "__version__",
    "evaluate",
    "evaluate_omaha",
    "parse_cards",
    "rank_cards",
]
