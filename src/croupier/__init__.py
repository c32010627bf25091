"""croupier: deals, referees and analyses casino table games under NZ's gazetted rules.

Every name below is loaded on first use, so ``import croupier`` (or ``croupier.errors``, or a
referee) costs next to nothing and never loads numba or the math.

>>> import croupier
>>> croupier.evaluate("As Ks", board="Qs Js Ts 2c 3d").describe()
'Royal flush'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier._lazy import lazy_exports

if TYPE_CHECKING:
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
else:
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "croupier.cards": ("Card", "Deck", "Rank", "Shoe", "Suit", "parse_cards"),
            "croupier.errors": (
                "CardParseError",
                "CroupierError",
                "DuplicateCardError",
                "HandSizeError",
                "RuleViolationError",
            ),
            "croupier.evaluation": (
                "STANDARD",
                "STRIPPED",
                "Category",
                "Composition",
                "HandRanking",
                "HandValue",
                "evaluate",
                "evaluate_omaha",
                "rank_cards",
            ),
        },
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
