"""Blackjack: the referee (rule sets as data, card values, the round state machine) and its
math (exact analysis, derived basic strategy, a compiled simulator).

The referee loads with the package; the math (:class:`Analysis`, :func:`simulate`,
:class:`StrategyChart` and the rest), which needs numpy and numba, loads on first use.

>>> from croupier.blackjack import NZ, BlackjackRound
>>> NZ.decks, NZ.dealer_hits_soft_17
(6, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier._lazy import lazy_exports
from croupier.blackjack.actions import (
    Action,
    Deal,
    DeclineInsurance,
    Double,
    EvenMoney,
    Hit,
    Insure,
    LegalPlays,
    PlaceWager,
    Split,
    Stand,
    WagerLimit,
    WithdrawWager,
    parse_action,
)
from croupier.blackjack.events import Event
from croupier.blackjack.hands import Outcome, Play, Turn
from croupier.blackjack.policies import BasicStrategy, Policy, mimic_the_dealer
from croupier.blackjack.round import BlackjackRound, Box, Phase, PlayerHand
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
from croupier.blackjack.views import BoxView, HandView, InsuranceOffer, SeatView

if TYPE_CHECKING:
    from croupier.blackjack.math.analysis import Analysis, dealer_outcomes, house_edge, insurance_ev
    from croupier.blackjack.math.simulate import SimulationResult, simulate
    from croupier.blackjack.math.strategy import US_SIX_DECK, StrategyChart
else:
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "croupier.blackjack.math.analysis": (
                "Analysis",
                "dealer_outcomes",
                "house_edge",
                "insurance_ev",
            ),
            "croupier.blackjack.math.simulate": ("SimulationResult", "simulate"),
            "croupier.blackjack.math.strategy": ("US_SIX_DECK", "StrategyChart"),
        },
    )

__all__ = [
    "NZ",
    "US_SIX_DECK",
    "Action",
    "Analysis",
    "BasicStrategy",
    "BlackjackRound",
    "BlackjackRules",
    "BlackjackTable",
    "Box",
    "BoxView",
    "Deal",
    "DealerBlackjackTakes",
    "DeclineInsurance",
    "Double",
    "DoubleOn",
    "EvenMoney",
    "Event",
    "HandView",
    "Hit",
    "HoleCard",
    "InsuranceOffer",
    "Insure",
    "LegalPlays",
    "Outcome",
    "PairsBy",
    "Phase",
    "PlaceWager",
    "Play",
    "PlayerHand",
    "Policy",
    "SeatView",
    "SimulationResult",
    "Split",
    "Stand",
    "StrategyChart",
    "Surrender",
    "Turn",
    "WagerLimit",
    "WithdrawWager",
    "card_value",
    "dealer_outcomes",
    "hand_total",
    "house_edge",
    "insurance_ev",
    "is_pair",
    "mimic_the_dealer",
    "parse_action",
    "simulate",
]
