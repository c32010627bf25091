"""Blackjack: the referee (rule sets as data, card values, the round state machine) and its
math (exact analysis, derived basic strategy, a compiled simulator).

>>> from croupier.blackjack import NZ, BlackjackRound
>>> NZ.decks, NZ.dealer_hits_soft_17
(6, False)
"""

from croupier.blackjack.analysis import Analysis, dealer_outcomes, house_edge, insurance_ev
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
from croupier.blackjack.simulate import SimulationResult, simulate
from croupier.blackjack.strategy import US_SIX_DECK, StrategyChart
from croupier.blackjack.table import BlackjackTable
from croupier.blackjack.values import card_value, hand_total, is_pair

__all__ = [
    "NZ",
    "US_SIX_DECK",
    "Analysis",
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
    "SimulationResult",
    "StrategyChart",
    "Surrender",
    "card_value",
    "dealer_outcomes",
    "hand_total",
    "house_edge",
    "insurance_ev",
    "is_pair",
    "simulate",
]
