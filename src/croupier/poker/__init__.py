"""The poker referee: the seven NZ games as data, betting structures, the hand state machine.

>>> from croupier.poker import HandState, TableRules, OMAHA, PotLimit
>>> rules = TableRules(OMAHA, PotLimit(), blinds=(5, 10), table_minimum=10)
>>> hand = HandState(rules, {1: 500, 2: 500}, button=1, seed=1)
>>> hand.legal_actions().describe()
'fold, call 5, raise to 20..30'

The referee loads with the package; the compiled simulator (:func:`fast_simulate`,
:func:`fast_simulate_parallel`, :class:`FastResult`), which needs numba, loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier._lazy import lazy_exports
from croupier.poker._core import Chore, Stage
from croupier.poker.actions import (
    Action,
    BringIn,
    Call,
    Check,
    CheckOrCall,
    Concede,
    Discard,
    Fold,
    RaiseTo,
    RequestShow,
    parse_action,
)
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
from croupier.poker.policies import Policy
from croupier.poker.pots import Pot, build_pots, split_pot
from croupier.poker.settings import (
    NZ_CAP,
    NZ_SHORT_ALL_IN,
    POKERKIT_CAP,
    POKERKIT_SHORT_ALL_IN,
    HeadsUpBlinds,
    OddChip,
    RaiseCap,
    Rake,
    ShortAllIn,
    TableRules,
)
from croupier.poker.state import HandState, IllegalActionError, LegalActions, Phase, PlayerState
from croupier.poker.structures import (
    STRUCTURES,
    BettingStructure,
    FixedLimit,
    NoLimit,
    PotLimit,
    SpreadLimit,
    structure_for_stakes,
)
from croupier.poker.table import EntryRule, SeatingRules, Table, TableError
from croupier.poker.views import PlayerView, SeatView

if TYPE_CHECKING:
    from croupier.poker.sim.fastsim import FastResult, fast_simulate, fast_simulate_parallel
else:
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {"croupier.poker.sim.fastsim": ("FastResult", "fast_simulate", "fast_simulate_parallel")},
    )

__all__ = [
    "DRAW",
    "FIVE_CARD_STUD",
    "GAMES",
    "HOLDEM",
    "MANILA",
    "NZ_CAP",
    "NZ_SHORT_ALL_IN",
    "OMAHA",
    "POKERKIT_CAP",
    "POKERKIT_SHORT_ALL_IN",
    "SEVEN_CARD_STUD",
    "STRUCTURES",
    "THREE_CARD_MANILA",
    "Action",
    "BettingStructure",
    "BringIn",
    "Call",
    "Check",
    "CheckOrCall",
    "Chore",
    "Concede",
    "Discard",
    "EntryRule",
    "Event",
    "FastResult",
    "FixedLimit",
    "Fold",
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
    "PlayerView",
    "Policy",
    "Pot",
    "PotLimit",
    "RaiseCap",
    "RaiseTo",
    "Rake",
    "RequestShow",
    "SeatView",
    "SeatingRules",
    "ShortAllIn",
    "SpreadLimit",
    "Stage",
    "Street",
    "Table",
    "TableError",
    "TableRules",
    "build_pots",
    "fast_simulate",
    "fast_simulate_parallel",
    "game_by_name",
    "parse_action",
    "split_pot",
    "structure_for_stakes",
]
