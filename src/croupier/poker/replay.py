"""Replaying a poker hand from its event log, checked event by event against the rules.

:meth:`HandState.replay <croupier.poker.state.HandState.replay>` is the entry point; this
module holds the work so the state machine stays small.

>>> from croupier.poker import HandState, TableRules
>>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=2)
>>> hand.fold()
Folded(seat=2)
>>> replay_hand(HandState, TableRules(), hand.events).snapshot() == hand.snapshot()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from croupier.cards.card import Card
from croupier.cards.deck import Deck
from croupier.checks import event_log, same_log
from croupier.errors import CroupierError
from croupier.poker import events as ev
from croupier.poker._core import Chore, Phase
from croupier.poker.settings import TableRules

if TYPE_CHECKING:
    from croupier.poker.state import HandState

__all__ = ["replay_hand"]

H = TypeVar("H", bound="HandState")


def replay_hand(
    kind: type[H], rules: TableRules, events: Sequence[ev.Event], *, automatic: bool = True
) -> H:
    """Rebuild a hand of class ``kind`` from its log (see ``HandState.replay``).

    >>> from croupier.poker import HandState, TableRules
    >>> replay_hand(HandState, TableRules(), [])
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: an event log starts with HandStarted
    """
    start = event_log(events, ev.HandStarted, ev.Event)
    if not isinstance(rules, TableRules):
        raise CroupierError(f"rules must be TableRules, not {rules!r}")
    if start.game != rules.game.name:
        raise CroupierError(
            f"the log is of a {start.game} hand; these rules are for {rules.game.name}"
        )
    if start.rules_version and start.rules_version != rules.fingerprint:
        raise CroupierError(
            f"the log was played under rules {start.rules_version}; these rules are "
            f"{rules.fingerprint} (TableRules.fingerprint): replay it with its own rules"
        )
    if len(start.stacks) != len(start.seats) or (
        start.antes and len(start.antes) != len(start.seats)
    ):
        raise CroupierError("the log's first event names seats and stacks that do not match")
    deck = Deck(start.deck, shuffle=False)
    logged_cut = events[1] if len(events) > 1 and isinstance(events[1], ev.DeckCut) else None
    antes = dict(zip(start.seats, start.antes, strict=True)) if start.antes else None
    state = kind(
        rules,
        dict(zip(start.seats, start.stacks, strict=True)),
        start.button,
        deck=deck,
        automatic=False,
        voluntary_blind=start.voluntary_blind,
        antes=antes,
        ante_trimming=start.ante_trimming,
        blinds=dict(start.blinds) or None,
        cut=logged_cut.position if logged_cut is not None else None,
    )
    state.events[0] = start
    if logged_cut is None:  # a log from before cuts were recorded
        del state.events[1]  # the log's own record of engine and rules versions
    if not start.deck:  # cards were placed as the hand went (a replayed record)
        order: list[Card] = []
        for event in events:
            if isinstance(event, ev.CardBurned):
                order.append(event.card)
            elif isinstance(event, ev.CardsDealt | ev.CommunityDealt):
                order.extend(c for c in event.cards if c not in order)
        state.deck.put_on_top(order)
    state._restock_orders = [e.cards for e in events if isinstance(e, ev.StubRestocked)]
    for index, event in enumerate(events[1:], start=1):
        if isinstance(event, ev.CardBoxed):  # the dealer's report, where it was made
            while state.phase is Phase.DEALER and len(state.events) < index:
                state.step()
            state.report_boxed_card(event.card)
            continue
        if not isinstance(event, ev.PlayerAction):
            continue
        conceding = isinstance(event, ev.Conceded)
        while state.phase is Phase.DEALER and not (
            conceding and state.next_chore is Chore.SHOWDOWN
        ):
            state.step()
        chooser = isinstance(event, ev.Conceded | ev.ShowRequested)
        if not chooser and event.seat != state.actor:
            raise CroupierError(
                f"event {index} of the log ({event.describe()}): "
                + (f"seat {state.actor} is to act" if state.actor else "nobody is to act")
            )
        _apply(state, event)
    while state.phase is Phase.DEALER and len(state.events) < len(events):
        state.step()
    same_log(events, state.events)
    state.automatic = automatic
    if automatic:
        state._run_chores()
    return state


def _apply(state: HandState, event: ev.PlayerAction) -> None:
    match event:
        case ev.Folded():
            state.fold()
        case ev.Checked():
            state.check()
        case ev.Called():
            state.call()
        case ev.RaisedTo(to=to):
            state.raise_to(to)
        case ev.BringIn(to=to):
            state.bring_in(to)
        case ev.Discarded(cards=cards):
            state.discard(cards)
        case ev.Conceded(seat=seat):
            state.concede(seat)
        case ev.ShowRequested(seat=seat):
            state.request_show(seat)
        case _:  # pragma: no cover
            raise CroupierError(f"cannot replay {event!r}")
