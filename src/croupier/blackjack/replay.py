"""Rebuilding a round from its log (:meth:`BlackjackRound.replay
<croupier.blackjack.round.BlackjackRound.replay>`): the shoe and bankrolls from
:class:`~croupier.blackjack.events.RoundStarted`, then each decision as an action value;
every replayed event must equal the logged one.

>>> from croupier.blackjack import NZ, BlackjackRound
>>> from croupier.cards import Shoe
>>> rnd = BlackjackRound(NZ, Shoe(6, seed=4), {"ann": 50}); rnd.place_wager(1, "ann", 10)
WagerPlaced(box=1, player='ann', amount=10)
>>> [decision(e, rnd.phase) for e in rnd.events]
[None, PlaceWager(box=1, player='ann', amount=10)]
"""

from __future__ import annotations

from collections.abc import Sequence
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
from croupier.blackjack.hands import Play, RoundPhase
from croupier.blackjack.rules import BlackjackRules
from croupier.cards.deck import Shoe
from croupier.checks import event_log, same_log
from croupier.errors import CroupierError

if TYPE_CHECKING:
    from croupier.blackjack.round import BlackjackRound

__all__ = ["decision", "replay_log"]

_KINDS: dict[Play, type[HandAction]] = {
    Play.HIT: Hit,
    Play.STAND: Stand,
    Play.DOUBLE: Double,
    Play.SPLIT: Split,
    Play.SURRENDER: Surrender,
}


def replay_log(
    cls: type[BlackjackRound], rules: BlackjackRules, events: Sequence[ev.Event]
) -> BlackjackRound:
    """The round ``events`` record, played again under ``rules`` (see
    :meth:`BlackjackRound.replay <croupier.blackjack.round.BlackjackRound.replay>`).

    >>> from croupier.blackjack import NZ, BlackjackRound
    >>> replay_log(BlackjackRound, NZ, [])
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: an event log starts with RoundStarted
    """
    start = event_log(events, ev.RoundStarted, ev.Event)
    if not isinstance(rules, BlackjackRules):
        raise CroupierError(f"rules must be a BlackjackRules, not {rules!r}")
    if start.rules_version and start.rules_version != rules.fingerprint:
        raise CroupierError(
            f"the log was played under rules {start.rules_version}; these rules are "
            f"{rules.fingerprint} (BlackjackRules.fingerprint): replay it with its own rules"
        )
    order = list(start.shoe) or [
        e.card for e in events if isinstance(e, ev.CardBurned | ev.CardDealt | ev.DealerCard)
    ]
    rnd = cls(rules, Shoe(rules.decks, cards=order), dict(start.bankrolls), burn=start.burn)
    rnd.events[0] = start  # the log's own record of versions and shoe
    for index, event in enumerate(events[1:], start=1):
        action = decision(event, rnd.phase)
        if action is None:
            continue
        if len(rnd.events) != index:
            break  # the log skips events this decision would not produce: reported below
        try:
            rnd.apply(action)
        except CroupierError as error:
            raise CroupierError(f"event {index} of the log ({event.describe()}): {error}") from None
    same_log(events, rnd.events)
    return rnd


def decision(event: ev.Event, phase: RoundPhase) -> Action | None:
    """The action that made ``event``, if a decision did (a deal for the first card).

    >>> decision(ev.BoxAction(2, 1, "double"), RoundPhase.PLAYING)
    Double(box=2, hand=1)
    """
    match event:
        case ev.WagerPlaced(box=box, player=player, amount=0):
            return WithdrawWager(box, player)
        case ev.WagerPlaced(box=box, player=player, amount=amount):
            return PlaceWager(box, player, amount)
        case ev.CardBurned() | ev.CardDealt() if phase is RoundPhase.WAGERS:
            return Deal()
        case ev.InsuranceDecided(box=box, player=player, amount=amount):
            return Insure(amount, box=box, player=player)
        case ev.BoxAction(action=Play.EVEN_MONEY, box=box):
            return EvenMoney(box=box)
        case ev.BoxAction(box=box, hand=hand, action=play):
            return _KINDS[play](box=box, hand=hand)
    return None
