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

import bisect
import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from croupier import codec
from croupier.cards.card import Card
from croupier.errors import CroupierError
from croupier.poker import events as ev
from croupier.poker._core import _DONE, HandCore
from croupier.poker.actions import LegalActions

__all__ = [
    "PlayerView",
    "SeatView",
    "SeatViews",
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
    # the deck order is the dealer's secret; the fields copied by hand (replace() is slow)
    made = _new(ev.HandStarted)
    _set(made, "__dict__", {**event.__dict__, "deck": ()})
    return made


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


SeatView._event_types.setdefault("HandEnded", ev.DealEnded)  # a log written before the rename
"""The settlement event's old name, read in logs and stores written before 0.1.0's rename."""


def event_from_dict(data: dict[str, Any]) -> ev.Event:
    """Rebuild an event from :func:`event_to_dict`; anything else raises
    :class:`CroupierError`.

    >>> event_from_dict(event_to_dict(ev.Folded(3)))
    Folded(seat=3)
    """
    return codec.event_from_dict(SeatView._event_types, data)


_NO_OWNER = -1
"""No seat sees an event otherwise than every viewer does."""


def _owner(event: ev.Event) -> int:
    """The seat that sees a censored event whole: a player's own down cards or discards."""
    if isinstance(event, ev.CardsDealt | ev.Discarded):
        return event.seat
    return _NO_OWNER


def _player_view(
    seat: int,
    stack: int,
    bet: int,
    folded: bool,
    all_in: bool,
    up: tuple[Card, ...],
    down: tuple[Card | None, ...],
) -> PlayerView:
    """``PlayerView(seat, stack, ...)`` made without the generated ``__init__`` (a frozen
    dataclass sets each field through ``object.__setattr__``; the fields here need no
    checks, and a view holds a record of every seat).

    >>> _player_view(1, 90, 10, False, False, (), (None,)) == PlayerView(1, 90, 10, False, False, (), (None,))
    True
    """
    made = _new(PlayerView)
    _set(
        made,
        "__dict__",
        {
            "seat": seat,
            "stack": stack,
            "bet": bet,
            "folded": folded,
            "all_in": all_in,
            "up": up,
            "down": down,
        },
    )
    return made


_new = object.__new__
_set = object.__setattr__


_Public = tuple[
    frozenset[Card], tuple[PlayerView, ...], tuple[int, ...], int, tuple[Card, ...], dict[int, int]
]
"""The shown cards, each seat's public record, the pots, the pot, the board and where
each seat's record is in the tuple (a hand's seats never change)."""


def _all_folded(core: HandCore) -> bool:
    """Whether every player has folded (no pot has a live claimant)."""
    return all(player.folded for player in core.players.values())


class SeatViews:
    """The views of one hand, each kept up to date from the events since that viewer's
    last view: each event is censored once (its public form, and the one seat that sees it
    whole), a seat's record is made anew only when an event named it, and the pots are
    worked out again only when the chips put in, the folds or the stacks changed. A view's
    cost follows what changed since the viewer's last one, not the log's length.

    >>> from croupier.poker import HandState, TableRules
    >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=3)
    >>> hand.view_for(1).events[-1] == hand.view_for(1).events[-1]
    True
    """

    def __init__(self, core: HandCore) -> None:
        self.core = core
        """The hand these are views of."""
        self._views: dict[int | None, list[ev.Event]] = {}
        self._public_log: list[ev.Event] = []
        """Each event as a spectator sees it (see :meth:`_censored_log`)."""
        self._own_at: dict[int, list[int]] = {}
        """Where in the log each seat sees an event whole that others see censored."""
        self._public_shown: frozenset[Card] = frozenset()
        self._public: tuple[tuple[Any, ...], _Public] | None = None
        """The part of every view that is the same for all (see :meth:`_public_view`)."""
        self._own: dict[int, tuple[PlayerView, PlayerView]] = {}
        self._records: list[PlayerView | None] = [None] * len(core.players)
        self._facts: list[tuple[Any, ...] | None] = [None] * len(core.players)
        """What each record was made from (stack, bet, folded, all in, up, down): a record
        is made anew only when these change."""
        self._pot_key: tuple[tuple[int, bool, int], ...] = ()
        self._pot_amounts: tuple[int, ...] = ()
        self._index = {s: i for i, s in enumerate(core.players)}

    def view(self, seat: int | None, legal: LegalActions | None, to_call: int) -> SeatView:
        """The view of ``seat`` (None: a spectator), with ``legal`` and ``to_call`` when it
        is the seat's turn."""
        core = self.core
        shown, players, pots, pot, board, index = self._public_view()
        if seat is not None:
            i = index[seat]
            down = tuple(core.players[seat].down)
            if players[i].down != down:  # the owner sees his own down cards
                players = (
                    *players[:i],
                    self._own_record(seat, players[i], down),
                    *players[i + 1 :],
                )
        made = _new(SeatView)  # every field set here: the generated __init__ is three times slower
        _set(
            made,
            "__dict__",
            {
                "seat": seat,
                "game": core.game.name,
                "street": core.street_name,
                "button": core.button,
                "board": board,
                "players": players,
                "pot": pot,
                "pots": pots,
                "actor": core.acting,
                "to_call": to_call,
                "legal": legal,
                "events": self._censored_log(seat, shown),
                "complete": core.stage is _DONE,
            },
        )
        return made

    def _public_view(self) -> _Public:
        """The part of every view that is the same for all (the shown cards, each seat as
        a spectator sees it, the pots), worked out once per change of the hand: a server
        asks for every seat's view after each action. A seat's record is made anew only
        when something in it changed (else it is the same object: a server encodes it
        once), and the pots only when the chips put in or the players in the hand did."""
        core = self.core
        key = (len(core.log), core.actor, core.stage, core.street)
        cached = self._public
        if cached is not None and cached[0] == key:
            return cached[1]
        shown = core.shown
        records, facts = self._records, self._facts
        players = core.players
        changed: Iterable[int] = core.order if core.all_dirty or shown else core.dirty
        index = self._index
        for seat in changed:
            p = players[seat]
            stack, folded = p.stack, p.folded
            down = (
                tuple([c if c in shown else None for c in p.down])
                if shown
                else (None,) * len(p.down)
            )
            all_in = stack == 0 and not folded and p.contributed > 0
            new = (stack, p.bet, folded, all_in, tuple(p.up), down)
            i = index[seat]
            if new != facts[i]:  # else the same record: a server encodes it once
                facts[i] = new
                records[i] = _player_view(seat, *new)
        core.dirty.clear()
        core.all_dirty = False
        all_in_seen = False
        for record in records:
            if record is not None and record.all_in:
                all_in_seen = True
                break
        total = core.total_pot
        if not all_in_seen:  # one pot (what build_pots gives when nobody in is all in)
            self._pot_key = ()
            self._pot_amounts = (total,) if total and not _all_folded(core) else ()
        else:
            # the pots depend on who is all in too (an award can lift a stack off zero)
            pot_key = tuple((p.contributed, p.folded, p.stack) for p in players.values())
            if self._pot_key != pot_key:
                self._pot_key = pot_key
                self._pot_amounts = tuple(pot.amount for pot in core.pots)
        public: _Public = (
            shown,
            cast(tuple[PlayerView, ...], tuple(records)),  # every record is made above
            self._pot_amounts,
            total,
            tuple(core.board),
            self._index,
        )
        self._public = (key, public)
        return public

    def _own_record(self, seat: int, public: PlayerView, down: tuple[Card, ...]) -> PlayerView:
        """``public`` (the seat as others see it) with the owner's down cards: the same
        object while neither changes."""
        kept = self._own.get(seat)
        if kept is not None and kept[0] is public and kept[1].down == down:
            return kept[1]
        own = _player_view(
            public.seat, public.stack, public.bet, public.folded, public.all_in, public.up, down
        )
        self._own[seat] = (public, own)
        return own

    def _censored_log(self, seat: int | None, shown: frozenset[Card]) -> tuple[ev.Event, ...]:
        """The log as ``seat`` sees it, extended by the events since the seat's last view.

        Each event is censored once for every viewer (its public form, and the one seat
        that sees it whole: a player's own down cards and discards); a seat's log takes the
        public form unless it is that seat. A new shown hand can uncover earlier deals:
        then the public forms are worked out again (once a hand, at the showdown)."""
        events = self.core.log
        public, own_at = self._public_log, self._own_at
        if self._public_shown != shown:
            public.clear()  # more cards shown: censor again
            own_at.clear()
            self._views.clear()
            self._public_shown = shown
        done = len(public)
        if done < len(events):
            for i in range(done, len(events)):
                event = events[i]
                censor = _CENSORS.get(type(event))
                if censor is _seen_whole:  # most events: no call to make
                    public.append(event)
                    continue
                seen = censor_event(event, None, shown)
                public.append(seen)
                if seen is not event:
                    owner = _owner(event)
                    if owner != _NO_OWNER:
                        own_at.setdefault(owner, []).append(i)
        log = self._views.get(seat)
        if log is None:
            log = self._views[seat] = []
        start = len(log)
        if start < len(public):
            log.extend(public[start:])  # the public forms, then the seat's own entries
            if seat is not None:
                mine = own_at.get(seat, [])
                for i in mine[bisect.bisect_left(mine, start) :]:
                    log[i] = events[i]
        return tuple(log)
