"""What one player may see of a round: a frozen, typed :class:`SeatView`, JSON both ways.

A bot, a client or a UI gets a view and answers with an action; it never holds the
:class:`~croupier.blackjack.round.BlackjackRound` or its shoe. A view holds every box and
hand (blackjack is dealt face up), the bankrolls, the dealer's cards the players may see
(in a peek game the hole card stays hidden until the dealer turns it), the insurance offer,
whose turn it is, the viewer's legal actions and the public event log, in which the shoe's
order, the burn card and an unturned hole card are hidden.

>>> from croupier.blackjack.round import BlackjackRound
>>> from croupier.blackjack.rules import NZ
>>> from croupier.cards import Shoe, parse_cards
>>> rnd = BlackjackRound(NZ.with_(hole_card="peek"), Shoe(6, cards=parse_cards("6c 9d 5h Th")), {"ann": 50})
>>> rnd.place_wager(1, "ann", 10); rnd.deal()
WagerPlaced(box=1, player='ann', amount=10)
CardDealt(box=1, hand=0, card=Card('6c'))
>>> view = rnd.view_for("ann")
>>> view.dealer, view.hole_card, view.legal.names, view.events[-1]
((Card('9d'),), True, ('hit', 'double'), HiddenCard(what='hole card'))
>>> SeatView.from_dict(view.to_dict()) == view
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final

from croupier import codec
from croupier.blackjack import events as ev
from croupier.blackjack.actions import LegalPlays
from croupier.blackjack.hands import Box, Phase, Turn
from croupier.blackjack.values import VALUE_OF_INDEX, hand_total
from croupier.cards.card import Card
from croupier.errors import CroupierError

if TYPE_CHECKING:
    from croupier.blackjack.round import BlackjackRound

__all__ = [
    "BoxView",
    "HandView",
    "InsuranceOffer",
    "SeatView",
    "SeatViews",
    "ShownLog",
    "censor",
    "event_from_dict",
    "event_to_dict",
    "seat_view",
]

# Enum members as module constants: reading one off its class goes through the enum
# metaclass's ``__getattr__`` hook (Python 3.11), several times slower than a global.
_WAGERS, _PLAYING, _COMPLETE = Phase.WAGERS, Phase.PLAYING, Phase.COMPLETE


@dataclass(frozen=True)
class HandView:
    """One hand on a box, as anyone at the table sees it.

    >>> HandView((Card.parse("As"), Card.parse("Kd")), 21, True, (("ann", 10),)).total
    21
    """

    cards: tuple[Card, ...]
    total: int
    """The best total (3.2)."""
    soft: bool
    """Whether an ace counts 11."""
    stakes: tuple[tuple[str, int], ...]
    """Each player's stake on the hand (doubles included)."""
    from_split: bool = False
    split_aces: bool = False
    doubled: bool = False
    surrendered: bool = False
    done: bool = False
    """No more decisions on this hand."""
    acted: bool = False
    """A decision has been taken on this hand."""


@dataclass(frozen=True)
class BoxView:
    """One box: its wagers, its hands, its insurance and even-money takers.

    >>> BoxView(1, (("ann", 10),), ()).wagers
    (('ann', 10),)
    """

    number: int
    wagers: tuple[tuple[str, int], ...]
    """Each player's original wager; the first decides."""
    hands: tuple[HandView, ...]
    insurance: tuple[tuple[str, int], ...] = ()
    even_money: tuple[str, ...] = ()


@dataclass(frozen=True)
class InsuranceOffer:
    """The insurance decision due against the dealer's ace: who, and the most they may
    stake (half the wager, in chips, Decision 3.1-6).

    >>> InsuranceOffer(1, "ann", 5, False).cap
    5
    """

    box: int
    player: str
    cap: int
    """Half the box's wager, rounded down to the chip unit."""
    even_money: bool
    """Even money is offered (the deciding hand is a blackjack and the table pays it)."""


@dataclass(frozen=True)
class SeatView(codec.JsonView):
    """Everything ``player`` may see now (``player`` None: a spectator).

    >>> from croupier.blackjack.round import BlackjackRound
    >>> from croupier.blackjack.rules import NZ
    >>> from croupier.cards import Shoe
    >>> rnd = BlackjackRound(NZ, Shoe(6, seed=2), {"ann": 50})
    >>> view = rnd.view_for("ann")
    >>> view.phase, view.bankroll, view.legal.describe()
    (<Phase.WAGERS: 'wagers'>, 50, 'wager 10..50 (ann, box 1), wager 10..50 (ann, box 2), wager 10..50 (ann, box 3), wager 10..50 (ann, box 4), wager 10..50 (ann, box 5), wager 10..50 (ann, box 6), wager 10..50 (ann, box 7)')
    """

    player: str | None
    """The viewer."""
    phase: Phase
    bankrolls: tuple[tuple[str, int], ...]
    """Each player's chips off the table."""
    boxes: tuple[BoxView, ...]
    """The boxes with wagers, in box order."""
    dealer: tuple[Card, ...]
    """The dealer's cards the players may see."""
    dealer_total: int
    """The total of :attr:`dealer` (0 before the deal)."""
    hole_card: bool
    """A peek game's hole card lies face down (it is not in :attr:`dealer`)."""
    insurance_offer: InsuranceOffer | None
    """The insurance decision due, if any."""
    actor: Turn | None
    """Who decides now (None in the wager phase and once settled)."""
    legal: LegalPlays | None
    """The viewer's legal actions (its wagers before the deal, its decisions when it is
    to act), else None."""
    events: tuple[ev.Event, ...]
    """The public log, hidden cards censored."""
    complete: bool
    """Whether the round is settled."""

    _event_types: ClassVar[dict[str, type[ev.Event]]] = codec.event_types(
        ev.__all__, vars(ev), ev.Event
    )

    @property
    def bankroll(self) -> int:
        """The viewer's chips off the table."""
        for name, chips in self.bankrolls:
            if name == self.player:
                return chips
        raise CroupierError("a spectator's view has no bankroll")

    @property
    def my_turn(self) -> bool:
        """Whether the viewer decides now."""
        return self.actor is not None and self.actor.player == self.player

    def box(self, number: int) -> BoxView:
        """The box numbered ``number``."""
        for box in self.boxes:
            if box.number == number:
                return box
        raise CroupierError(f"box {number} has no wager")


def censor(events: Sequence[ev.Event], *, hole_card_turned: bool) -> tuple[ev.Event, ...]:
    """The log as a player may see it: the shoe's order goes, a burn card and (until
    ``hole_card_turned``) a peek game's hole card become
    :class:`~croupier.blackjack.events.HiddenCard`.

    >>> censor([ev.CardBurned(Card.parse("Kd"))], hole_card_turned=False)
    (HiddenCard(what='burned'),)
    """
    return tuple(_censored(e, hole_card_turned) for e in events)


def _censored(event: ev.Event, turned: bool) -> ev.Event:
    match event:
        case ev.RoundStarted():
            if type(event) is ev.RoundStarted:  # the fields by hand: replace() is slow
                return ev.round_started(
                    event.bankrolls, (), event.burn, event.engine_version, event.rules_version
                )
            return dataclasses.replace(event, shoe=())
        case ev.CardBurned():
            return ev.HiddenCard("burned")
        case ev.DealerCard(hidden=True) if not turned:
            return ev.HiddenCard("hole card")
    return event


_AS_IS: frozenset[type[ev.Event]] = frozenset(
    {
        ev.CardDealt,
        ev.BoxAction,
        ev.WagerPlaced,
        ev.InsuranceDecided,
        ev.HandSettled,
        ev.InsuranceSettled,
        ev.DealEnded,
        ev.HiddenCard,
    }
)
"""The event types every viewer sees as they are (exactly these types: a subclass goes
through :func:`censor`'s rules)."""


class ShownLog:
    """A round's censored log as its views have shown it so far, kept from one view to the
    next: :meth:`update` censors only the events logged since the last call, and turns the
    hole card over in place when the round is settled. What a view's log shows is the same
    for every seat and a spectator (blackjack is dealt face up; only the shoe's order, the
    burn card and an unturned hole card are hidden, from everyone), so a round keeps one.
    A log that was cut back (an action undone) or changed under it is censored afresh.

    >>> log = ShownLog()
    >>> events = [ev.DealerCard(Card.parse("9d")), ev.DealerCard(Card.parse("Th"), hidden=True)]
    >>> log.update(events, turned=False)[-1], log.hole_card
    (HiddenCard(what='hole card'), True)
    >>> log.update(events, turned=True) == censor(events, hole_card_turned=True)
    True
    """

    __slots__ = ("_count", "_first", "_frozen", "_holes", "_last", "_shown", "_since", "_turned")

    _count: int
    """Events of the round's log censored so far."""
    _first: ev.Event | None
    _last: ev.Event | None
    """The first and the last of them (the log is checked to be the one censored)."""
    _shown: list[ev.Event]
    _holes: list[int]
    """Where the hole cards are in the log."""
    _turned: bool
    _frozen: tuple[ev.Event, ...]
    """:attr:`_shown` as the tuple last handed out."""
    _since: int
    """Where the last update began censoring (0: afresh)."""

    def __init__(self) -> None:
        self._count = 0
        self._first = None
        self._last = None
        self._shown = []
        self._holes = []
        self._turned = False
        self._frozen = ()
        self._since = 0

    def _reset(self) -> None:
        self._count = 0
        self._first = None
        self._last = None
        self._shown = []
        self._holes = []
        self._turned = False
        self._frozen = ()
        self._since = 0

    @property
    def hole_card(self) -> bool:
        """Whether a hole card was dealt (face down until the round is settled), as of the
        last :meth:`update`."""
        return bool(self._holes)

    @property
    def since(self) -> int:
        """How many of the log's events the last :meth:`update` found already censored
        (0 when it censored the whole log afresh): the events from here are new."""
        return self._since

    def update(self, events: Sequence[ev.Event], *, turned: bool) -> tuple[ev.Event, ...]:
        """The whole log censored (``turned``: the hole card is face up), as
        :func:`censor` gives it, censoring only what is new since the last call."""
        count = self._count
        if count and (
            len(events) < count
            or events[count - 1] is not self._last
            or events[0] is not self._first
        ):
            self._reset()
            count = 0
        if turned is not self._turned:
            if not turned:  # a settled round taken back: censor afresh
                self._reset()
                count = 0
            else:
                shown = self._shown
                for index in self._holes:
                    shown[index] = events[index]
                self._frozen = tuple(shown)
            self._turned = turned
        self._since = count
        size = len(events)
        if size > count:
            shown = self._shown
            plain = _AS_IS
            new = events[count:] if count else events
            if count and plain.issuperset(map(type, new)):  # every new event shows as it is
                shown.extend(new)
                new = ()
            for event in new:
                kind = type(event)
                if kind in plain:
                    shown.append(event)
                elif kind is ev.DealerCard:
                    if event.hidden:  # type: ignore[attr-defined]  # a DealerCard
                        self._holes.append(len(shown))
                        shown.append(event if turned else _HOLE_CARD)
                    else:
                        shown.append(event)  # a face-up card
                elif kind is ev.RoundStarted:  # ev.round_started, inline: the shoe's order goes
                    public = _new(ev.RoundStarted)
                    fields = public.__dict__
                    fields.update(event.__dict__)
                    fields["shoe"] = ()
                    shown.append(public)
                else:
                    if isinstance(event, ev.DealerCard) and event.hidden:
                        self._holes.append(len(shown))
                    shown.append(_censored(event, turned))
            self._count = size
            self._first = events[0]
            self._last = events[-1]
            self._frozen = tuple(shown)
        return self._frozen


_HOLE_CARD: Final = ev.HiddenCard("hole card")
"""An unturned hole card as every viewer sees it (one frozen value)."""


_NAMES_A_BOX: frozenset[type[ev.Event]] = frozenset(
    {
        ev.CardDealt,
        ev.BoxAction,
        ev.WagerPlaced,
        ev.InsuranceDecided,
        ev.HandSettled,
        ev.InsuranceSettled,
    }
)
"""The events that change a box (each names it)."""
_NAMES_NO_BOX: frozenset[type[ev.Event]] = frozenset(
    {ev.DealerCard, ev.CardBurned, ev.RoundStarted, ev.DealEnded, ev.HiddenCard}
)
"""The events that leave every box as it was (a dealer's card, a burn, the round's start
and end); an event of any other type (a subclass) has every box built afresh."""


class SeatViews:
    """A round's seat views, kept from one view to the next: a view costs work in
    proportion to what changed since that seat's last view. The censored log is kept
    (:class:`ShownLog`); a box's view is built again only when an event since names the
    box (or one of its hands was closed since, as the turn passed it); a seat asking again
    with nothing logged since gets the same view. A round holds one (its views are the
    same for every seat but the legal actions); a log cut back or changed under it starts
    afresh.

    >>> from croupier.blackjack.round import BlackjackRound
    >>> from croupier.blackjack.rules import NZ
    >>> from croupier.cards import Shoe
    >>> rnd = BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50}); kept = SeatViews()
    >>> kept.view(rnd, "ann") is kept.view(rnd, "ann"), kept.view(rnd, "ann") == seat_view(rnd, "ann")
    (True, True)
    """

    __slots__ = ("_boxes", "_dealer", "_log", "_seats")

    def __init__(self) -> None:
        self._log = ShownLog()
        self._boxes: dict[int, BoxView] = {}
        self._seats: dict[str | None, SeatView] = {}
        self._dealer: tuple[int, bool, tuple[Card, ...], int] = (-1, False, (), 0)
        """The dealer's cards as last shown: how many, whether the hole card was hidden,
        the cards shown and their total."""

    def view(
        self, rnd: BlackjackRound, player: str | None, events: Sequence[ev.Event] | None = None
    ) -> SeatView:
        """What ``player`` (None: a spectator) may see of ``rnd`` now (see
        :func:`seat_view`); ``events`` is the round's log as it stands (the round hands its
        own, read only; default :attr:`rnd.events
        <croupier.blackjack.round.BlackjackRound.events>`)."""
        bankrolls = rnd.bankrolls
        if player is not None and player not in bankrolls:
            raise CroupierError(f"{player!r} is not a player at this table")
        phase = rnd.phase
        turned = phase is _COMPLETE
        log = self._log
        if events is None:
            events = rnd.events
        shown = log.update(events, turned=turned)
        seats = self._seats
        kept = seats.get(player)
        if kept is not None and kept.events is shown:
            return kept  # nothing logged since this seat's last view: nothing changed
        since = log._since
        cache = self._boxes
        table = rnd.boxes
        named: set[int] | None = None  # the boxes named by an event since (None: every box)
        if not since:  # everything afresh
            cache.clear()
            seats.clear()
        else:
            named = set()
            for index in range(since, len(events)):
                event = events[index]
                kind = type(event)
                if kind in _NAMES_A_BOX:
                    named.add(event.box)  # type: ignore[attr-defined]
                elif kind not in _NAMES_NO_BOX:
                    named = None  # an event of another kind: every box afresh
                    cache.clear()
                    break
        made_boxes: list[BoxView] = []
        for number in sorted(table) if len(table) > 1 else table:
            box = table[number]
            made = cache.get(number)
            if made is None or named is None or number in named or not _same_hands(made, box):
                made = cache[number] = _box_view(box)
            made_boxes.append(made)
        if named and len(cache) > len(table):
            for number in named:
                if number not in table:
                    cache.pop(number, None)
        boxes = tuple(made_boxes)
        hidden = not turned and bool(log._holes)
        cards = rnd.dealer
        dealer = self._dealer
        if dealer[0] != len(cards) or dealer[1] is not hidden or not since:
            seen = tuple(cards[:1] if hidden else cards)
            if len(seen) == 1:  # the up card alone (hand_total, inline): an ace counts 11
                value = VALUE_OF_INDEX[seen[0].index]
                total = 11 if value == 1 else value
            else:
                total = hand_total(seen)[0] if seen else 0
            dealer = self._dealer = (len(cards), hidden, seen, total)
        # who decides, and what the viewer may do
        offer = None
        legal: LegalPlays | None = None
        actor: Turn | None
        if phase is _PLAYING:  # the hand to act: its legal plays name who decides
            everyone = rnd.legal_actions()
            actor = everyone.actor
            if actor is not None and actor.player == player:
                legal = everyone
        else:
            actor = rnd.actor
            if actor is not None:  # an insurance decision
                unit = rnd.rules.chip_unit
                cap = table[actor.box].wagers[actor.player] // 2 // unit * unit
                offer = _new(InsuranceOffer)
                fields = offer.__dict__
                fields["box"] = actor.box
                fields["player"] = actor.player
                fields["cap"] = cap
                fields["even_money"] = rnd.can_even_money()
                if actor.player == player:
                    legal = rnd.legal_actions()
            elif player is not None and phase is _WAGERS:
                everyone = rnd.legal_actions()
                legal = LegalPlays(
                    None,
                    wagers=tuple(w for w in everyone.wagers if w.player == player),
                    withdrawals=tuple(w for w in everyone.withdrawals if w[1] == player),
                    unit=everyone.unit,
                )
        view = _new(SeatView)
        fields = view.__dict__
        fields["player"] = player
        fields["phase"] = phase
        fields["bankrolls"] = tuple(bankrolls.items())
        fields["boxes"] = boxes
        fields["dealer"] = dealer[2]
        fields["dealer_total"] = dealer[3]
        fields["hole_card"] = hidden
        fields["insurance_offer"] = offer
        fields["actor"] = actor
        fields["legal"] = legal
        fields["events"] = shown
        fields["complete"] = turned
        seats[player] = view
        return view


def _same_hands(made: BoxView, box: Box) -> bool:
    """Whether the kept view of ``box`` still holds: the same hands, none closed since (the
    turn passing a hand of 21 closes it without an event naming its box)."""
    hands = box.hands
    views = made.hands
    if len(hands) != len(views):
        return False
    return all(views[index].done is hand.done for index, hand in enumerate(hands))


def seat_view(rnd: BlackjackRound, player: str | None) -> SeatView:
    """What ``player`` (None: a spectator) may see of ``rnd``, built afresh (see
    :meth:`BlackjackRound.view_for <croupier.blackjack.round.BlackjackRound.view_for>`,
    which keeps its views in a :class:`SeatViews`).

    >>> from croupier.blackjack.round import BlackjackRound
    >>> from croupier.blackjack.rules import NZ
    >>> from croupier.cards import Shoe
    >>> seat_view(BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50}), None).legal is None
    True
    """
    return SeatViews().view(rnd, player)


def _box_view(box: Box) -> BoxView:
    hands = []
    for hand in box.hands:
        cards = hand.cards
        total, soft = hand_total(cards)
        made = _new(HandView)
        fields = made.__dict__
        fields["cards"] = tuple(cards)
        fields["total"] = total
        fields["soft"] = soft
        fields["stakes"] = tuple(hand.stakes.items())
        fields["from_split"] = hand.from_split
        fields["split_aces"] = hand.split_aces
        fields["doubled"] = hand.doubled
        fields["surrendered"] = hand.surrendered
        fields["done"] = hand.done
        fields["acted"] = hand.acted
        hands.append(made)
    view = _new(BoxView)
    fields = view.__dict__
    fields["number"] = box.number
    fields["wagers"] = tuple(box.wagers.items())
    fields["hands"] = tuple(hands)
    fields["insurance"] = tuple(box.insurance.items()) if box.insurance else ()
    fields["even_money"] = tuple(sorted(box.even_money)) if box.even_money else ()
    return view


# The frozen view dataclasses are made without the generated ``__init__`` (a frozen
# dataclass sets each field through ``object.__setattr__``, several times slower, and the
# views have no checks to run): a bare instance gets its fields written into its dict.
_new = object.__new__


# ------------------------------------------------------------------------------- codec
def event_to_dict(event: ev.Event) -> dict[str, Any]:
    """One event as a JSON-ready dict with its ``type``.

    >>> event_to_dict(ev.BoxAction(1, 0, "hit"))
    {'type': 'BoxAction', 'box': 1, 'hand': 0, 'action': 'hit'}
    """
    return codec.event_to_dict(event)


SeatView._event_types.setdefault("RoundSettled", ev.DealEnded)  # a log written before the rename
"""The settlement event's old name, read in logs and stores written before 0.1.0's rename."""


def event_from_dict(data: dict[str, Any]) -> ev.Event:
    """Rebuild an event from :func:`event_to_dict`; anything else raises
    :class:`CroupierError`.

    >>> event_from_dict({"type": "CardDealt", "box": 1, "hand": 0, "card": "As"})
    CardDealt(box=1, hand=0, card=Card('As'))
    """
    return codec.event_from_dict(SeatView._event_types, data)
