"""The poker referee: the seven NZ games as data, betting structures, the hand state machine.

>>> from croupier.poker import HandState, TableRules, OMAHA, PotLimit
>>> rules = TableRules(OMAHA, PotLimit(), blinds=(5, 10), table_minimum=10)
>>> hand = HandState(rules, {1: 500, 2: 500}, button=1, seed=1)
>>> hand.legal_actions().describe()
'fold, call 5, raise to 20..30'
"""

from croupier.poker.events import Event, PlayerAction
from croupier.poker.games import (
    DRAW,
    FIVE_CARD_STUD,
    GAMES,
    HOLDEM,
    MANILA,
    OMAHA,
    SEVEN_CARD_STUD,
    THREE_CARD_MANILA,
    ForcedBets,
    GameSpec,
    Opener,
    Street,
    game_by_name,
)
from croupier.poker.pots import Pot, build_pots, split_pot
from croupier.poker.settings import HeadsUpBlinds, OddChip, Rake, TableRules
from croupier.poker.state import HandState, IllegalActionError, LegalActions, Phase, PlayerState
from croupier.poker.structures import BettingStructure, FixedLimit, NoLimit, PotLimit, SpreadLimit
from croupier.poker.table import EntryRule, SeatingRules, Table, TableError

__all__ = [
    "DRAW",
    "FIVE_CARD_STUD",
    "GAMES",
    "HOLDEM",
    "MANILA",
    "OMAHA",
    "SEVEN_CARD_STUD",
    "THREE_CARD_MANILA",
    "BettingStructure",
    "EntryRule",
    "Event",
    "FixedLimit",
    "ForcedBets",
    "GameSpec",
    "HandState",
    "HeadsUpBlinds",
    "IllegalActionError",
    "LegalActions",
    "NoLimit",
    "OddChip",
    "Opener",
    "Phase",
    "PlayerAction",
    "PlayerState",
    "Pot",
    "PotLimit",
    "Rake",
    "SeatingRules",
    "SpreadLimit",
    "Street",
    "Table",
    "TableError",
    "TableRules",
    "build_pots",
    "game_by_name",
    "split_pot",
]
