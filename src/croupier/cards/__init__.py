"""Cards, decks, shoes and the randomness behind a shuffle.

>>> from croupier.cards import Card, Deck, parse_cards
>>> parse_cards("As Kd")
(Card('As'), Card('Kd'))
"""

from typing import TYPE_CHECKING

from croupier._lazy import lazy_exports
from croupier.cards.card import Card, Rank, Suit, card_indices, format_cards, parse_cards

if TYPE_CHECKING:
    from croupier.cards.deck import Deck, EmptyDeckError, Shoe, full_deck, stripped_deck
    from croupier.cards.rng import make_rng, new_seed
else:  # decks and the RNG (hashlib, secrets, fractions) load on first use
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "croupier.cards.deck": ("Deck", "EmptyDeckError", "Shoe", "full_deck", "stripped_deck"),
            "croupier.cards.rng": ("make_rng", "new_seed"),
        },
    )

__all__ = [
    "Card",
    "Deck",
    "EmptyDeckError",
    "Rank",
    "Shoe",
    "Suit",
    "card_indices",
    "format_cards",
    "full_deck",
    "make_rng",
    "new_seed",
    "parse_cards",
    "stripped_deck",
]
