"""What a replay reads in a round's log (:meth:`BlackjackRound.replay
<croupier.blackjack.round.BlackjackRound.replay>`): the decision that made each event, as
an action value.

>>> from croupier.blackjack import NZ, BlackjackRound
>>> from croupier.cards import Shoe
>>> rnd = BlackjackRound(NZ, Shoe(6, seed=4), {"ann": 50}); rnd.place_wager(1, "ann", 10)
WagerPlaced(box=1, player='ann', amount=10)
>>> [decision(e, rnd.phase) for e in rnd.events]
[None, PlaceWager(box=1, player='ann', amount=10)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier.blackjack import events as ev
from croupier.blackjack.actions import (
    Action,
    Deal,
    Double,
    EvenMoney,
    HandAction,
    Hit,
    Insure,
    PlaceWager,
    Split,
    Stand,
    Surrender,
    WithdrawWager,
)
from croupier.blackjack.hands import Phase, Play

if TYPE_CHECKING:
    pass

__all__ = ["decision"]

_KINDS: dict[Play, type[HandAction]] = {
    Play.HIT: Hit,
    Play.STAND: Stand,
    Play.DOUBLE: Double,
    Play.SPLIT: Split,
    Play.SURRENDER: Surrender,
}


def decision(event: ev.Event, phase: Phase) -> Action | None:
    """The action that made ``event``, if a decision did (a deal for the first card).

    >>> decision(ev.BoxAction(2, 1, "double"), Phase.PLAYING)
    Double(box=2, hand=1)
    """
    match event:
        case ev.WagerPlaced(box=box, player=player, amount=0):
            return WithdrawWager(box, player)
        case ev.WagerPlaced(box=box, player=player, amount=amount):
            return PlaceWager(box, player, amount)
        case ev.CardBurned() | ev.CardDealt() if phase is Phase.WAGERS:
            return Deal()
        case ev.InsuranceDecided(box=box, player=player, amount=amount):
            return Insure(amount, box=box, player=player)
        case ev.BoxAction(action=Play.EVEN_MONEY, box=box):
            return EvenMoney(box=box)
        case ev.BoxAction(box=box, hand=hand, action=play):
            return _KINDS[play](box=box, hand=hand)
    return None
