"""The blackjack referee: rule sets as data, card values, and the round state machine.

>>> from croupier.blackjack import NZ, BlackjackRound
>>> NZ.decks, NZ.dealer_hits_soft_17
(6, False)
"""

from croupier.blackjack.events import Event
from croupier.blackjack.round import BlackjackRound, Box, IllegalPlayError, PlayerHand, RoundPhase
from croupier.blackjack.rules import (
    NZ,
    BlackjackRules,
    DealerBlackjackTakes,
    DoubleOn,
    HoleCard,
    PairsBy,
    Surrender,
)
from croupier.blackjack.table import BlackjackTable
from croupier.blackjack.values import card_value, hand_total, is_pair

__all__ = [
    "NZ",
    "BlackjackRound",
    "BlackjackRules",
    "BlackjackTable",
    "Box",
    "DealerBlackjackTakes",
    "DoubleOn",
    "Event",
    "HoleCard",
    "IllegalPlayError",
    "PairsBy",
    "PlayerHand",
    "RoundPhase",
    "Surrender",
    "card_value",
    "hand_total",
    "is_pair",
]
