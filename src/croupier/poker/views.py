"""What one seat may see of a hand: a frozen, typed :class:`SeatView`, JSON both ways.

A bot, a client or a UI gets a view and answers with an action; it never holds the
:class:`~croupier.poker.state.HandState` or its deck. A view holds the seat's own cards,
everyone's up cards, the board, stacks, bets, pots, whose turn it is, the legal actions
and the public event log, in which every card the seat may not see is a
:class:`~croupier.poker.events.HiddenCards` record. After the showdown exactly the shown
cards appear.

>>> from croupier.poker import HandState, TableRules
>>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=3)
>>> view = hand.view_for(2)
>>> len(view.me.down), view.players[0].down, view.to_call
(2, (None, None), 5)
>>> SeatView.from_dict(view.to_dict()) == view
True
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from croupier import codec
from croupier.cards.card import Card
from croupier.errors import CroupierError
from croupier.poker import events as ev
from croupier.poker.actions import LegalActions

__all__ = [
    "PlayerView",
    "SeatView",
    "censor",
    "censor_event",
    "event_from_dict",
    "event_to_dict",
    "shown_cards",
]


@dataclass(frozen=True)
class PlayerView:
    """One seat as another seat sees it; ``down`` cards it may not see are None.

    >>> PlayerView(seat=1, stack=90, bet=10, folded=False, all_in=False).down
    ()
    """

    seat: int
    stack: int
    """Chips behind."""
    bet: int
    """Chips in front this round."""
    folded: bool
    all_in: bool
    up: tuple[Card, ...] = ()
    """Face-up cards (stud)."""
    down: tuple[Card | None, ...] = ()
    """Face-down cards: the card where the viewer may see it, None where not."""


@dataclass(frozen=True)
class SeatView(codec.JsonView):
    """Everything ``seat`` may see now (``seat`` None: a spectator, who sees no down card
    until it is shown).

    >>> from croupier.poker import HandState, TableRules
    >>> hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=3)
    >>> view = hand.view_for(1)
    >>> view.actor, view.legal.describe() if view.legal else None
    (1, 'fold, call 10, raise to 20..100')
    """

    seat: int | None
    game: str
    street: str
    button: int
    board: tuple[Card, ...]
    players: tuple[PlayerView, ...]
    pot: int
    """Every chip committed this hand (bets in front included)."""
    pots: tuple[int, ...]
    """Main and side pots as they stand."""
    actor: int | None
    """The seat to act, or None."""
    to_call: int
    """What the viewer must put in to call (0 when it is not the viewer's turn)."""
    legal: LegalActions | None
    """The viewer's legal actions when the viewer is to act, else None."""
    events: tuple[ev.Event, ...]
    """The public log, hidden cards censored."""
    complete: bool
    """Whether the hand is over."""

    _event_types: ClassVar[dict[str, type[ev.Event]]] = codec.event_types(
        ev.__all__, vars(ev), ev.Event
    )

    @property
    def me(self) -> PlayerView:
        """The viewer's own seat.

        >>> from croupier.poker import HandState, TableRules
        >>> HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=3).view_for(1).me.seat
        1
        """
        for player in self.players:
            if player.seat == self.seat:
                return player
        raise CroupierError("a spectator's view has no own seat")


def censor(events: Sequence[ev.Event], seat: int | None) -> tuple[ev.Event, ...]:
    """The log as ``seat`` may see it: the deck order, burn cards, a restock's order,
    and others' down cards and discards become :class:`~croupier.poker.events.HiddenCards`,
    except the cards a shown hand revealed.

    >>> from croupier.cards import parse_cards
    >>> log = [ev.CardsDealt(1, parse_cards("As"), up=False), ev.CardsDealt(2, parse_cards("Kd"), up=False)]
    >>> censor(log, 1)
    (CardsDealt(seat=1, cards=(Card('As'),), up=False), HiddenCards(seat=2, count=1, what='dealt'))
    """
    shown = shown_cards(events)
    return tuple(censor_event(event, seat, shown) for event in events)


def shown_cards(events: Sequence[ev.Event]) -> frozenset[Card]:
    """Every card a shown hand revealed.

    >>> from croupier.cards import parse_cards
    >>> sorted(shown_cards([ev.HandShown(2, parse_cards("As Kd"), "ace high")]))
    [Card('Kd'), Card('As')]
    """
    return frozenset(c for e in events if isinstance(e, ev.HandShown) for c in e.cards)


def censor_event(event: ev.Event, seat: int | None, shown: frozenset[Card]) -> ev.Event:
    """One event as ``seat`` may see it, given the cards shown so far (see :func:`censor`).

    >>> from croupier.cards import Card
    >>> censor_event(ev.CardBurned(Card.parse("2c")), 1, frozenset())
    HiddenCards(seat=None, count=1, what='burned')
    """
    censor = _CENSORS.get(type(event))
    if censor is None:
        raise CroupierError(f"a seat view cannot censor {type(event).__name__}: not a poker event")
    return censor(event, seat, shown)


def _seen_whole(event: ev.Event, seat: int | None, shown: frozenset[Card]) -> ev.Event:
    """An event every viewer sees as it is."""
    return event


def _started(event: ev.HandStarted, seat: int | None, shown: frozenset[Card]) -> ev.Event:
    return dataclasses.replace(event, deck=())  # the deck order is the dealer's secret


def _dealt(event: ev.CardsDealt, seat: int | None, shown: frozenset[Card]) -> ev.Event:
    if event.up or event.seat == seat or shown.issuperset(event.cards):
        return event
    return _hidden(event.seat, len(event.cards), "dealt")


def _discarded(event: ev.Discarded, seat: int | None, shown: frozenset[Card]) -> ev.Event:
    if event.seat == seat or shown.issuperset(event.cards):
        return event
    return _hidden(event.seat, len(event.cards), "discarded")


def _burned(event: ev.CardBurned, seat: int | None, shown: frozenset[Card]) -> ev.Event:
    return _hidden(None, 1, "burned")


def _restocked(event: ev.StubRestocked, seat: int | None, shown: frozenset[Card]) -> ev.Event:
    return _hidden(None, len(event.cards), "restocked")


_Censor = Callable[[Any, int | None, frozenset[Card]], ev.Event]
_CENSORS: dict[type[ev.Event], _Censor] = {
    kind: _seen_whole
    for kind in (getattr(ev, name) for name in ev.__all__)
    if isinstance(kind, type)
    and issubclass(kind, ev.Event)
    and kind not in (ev.Event, ev.PlayerAction)
}
"""How each kind of event is censored: the one dispatch over events a view makes (an
event of a kind not listed here is refused, never passed through unread)."""
_CENSORS.update(
    {
        ev.HandStarted: _started,
        ev.CardsDealt: _dealt,
        ev.Discarded: _discarded,
        ev.CardBurned: _burned,
        ev.StubRestocked: _restocked,
    }
)


@functools.cache
def _hidden(seat: int | None, count: int, what: str) -> ev.HiddenCards:
    """One :class:`~croupier.poker.events.HiddenCards` object per value: every viewer's
    log holds the same one (so a server encodes it once for them all)."""
    return ev.HiddenCards(seat, count, what)


# ------------------------------------------------------------------------------- codec
def event_to_dict(event: ev.Event) -> dict[str, Any]:
    """One event as a JSON-ready dict with its ``type``.

    >>> event_to_dict(ev.RaisedTo(2, 40, 30, True, False))
    {'type': 'RaisedTo', 'seat': 2, 'to': 40, 'increment': 30, 'full': True, 'all_in': False}
    """
    return codec.event_to_dict(event)


def event_from_dict(data: dict[str, Any]) -> ev.Event:
    """Rebuild an event from :func:`event_to_dict`; anything else raises
    :class:`CroupierError`.

    >>> event_from_dict(event_to_dict(ev.Folded(3)))
    Folded(seat=3)
    """
    return codec.event_from_dict(SeatView._event_types, data)
