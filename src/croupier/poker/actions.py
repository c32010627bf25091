"""Poker actions as values: what a player (or a bot, or a client) chooses, and its text forms.

An action is a frozen value. :meth:`HandState.apply <croupier.poker.state.HandState.apply>`
applies it and returns the event it produced; ``verify`` raises and ``can`` answers
without raising. An action may name its seat (``RaiseTo(40, seat=3)``): the referee then
refuses it when another seat is to act.

>>> parse_action("r 40"), parse_action("p3 cbr 40"), parse_action("fold")
(RaiseTo(amount=40), RaiseTo(amount=40, seat=3), Fold())
>>> str(RaiseTo(40)), RaiseTo(40, seat=3).phh()
('raise to 40', 'p3 cbr 40')
>>> parse_action("raise")
Traceback (most recent call last):
...
croupier.errors.InvalidActionError: bad action 'raise': 'raise' needs an amount (e.g. 'raise 40')
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import Self

from croupier.cards.card import Card, parse_cards
from croupier.checks import seat_number, whole_chips
from croupier.errors import CroupierError, InvalidActionError

__all__ = [
    "ACTION_TYPES",
    "Action",
    "BringIn",
    "Call",
    "Check",
    "CheckOrCall",
    "Concede",
    "Discard",
    "Fold",
    "LegalActions",
    "RaiseTo",
    "RequestShow",
    "parse_action",
]


@dataclass(frozen=True)
class Action:
    """Base of every player action. ``seat``, when given, is the seat that acts.

    >>> Fold(seat=2).for_seat(None)
    Fold()
    """

    seat: int | None = field(default=None, kw_only=True)
    """The seat acting (None: whoever is to act)."""

    def __post_init__(self) -> None:
        if self.seat is not None:
            object.__setattr__(self, "seat", _invalid(seat_number, self.seat, "an action's seat"))

    def for_seat(self, seat: int | None) -> Self:
        """The same action named for ``seat`` (or for nobody in particular): a copy whose
        other fields were checked when this action was made.

        >>> RaiseTo(30).for_seat(2)
        RaiseTo(amount=30, seat=2)
        """
        if seat is not None:
            seat = _invalid(seat_number, seat, "an action's seat")
        if seat == self.seat:
            return self
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        object.__setattr__(twin, "seat", seat)
        return twin

    def __repr__(self) -> str:
        parts = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.name != "seat"]
        if self.seat is not None:
            parts.append(f"seat={self.seat!r}")
        return f"{type(self).__name__}({', '.join(parts)})"

    def __str__(self) -> str:
        return type(self).__name__.lower()

    def phh(self) -> str:
        """The PHH form (``p3 cbr 40``); the seat must be named.

        >>> Call(seat=2).phh()
        'p2 cc'
        """
        if self.seat is None:
            raise InvalidActionError(f"{self!r} names no seat: PHH actions need one")
        return f"p{self.seat} {self._phh_verb()}"

    def _phh_verb(self) -> str:
        raise InvalidActionError(f"{type(self).__name__} has no PHH form")


@dataclass(frozen=True, repr=False)
class Fold(Action):
    """Give up the hand.

    >>> str(Fold())
    'fold'
    """

    def _phh_verb(self) -> str:
        return "f"


@dataclass(frozen=True, repr=False)
class Check(Action):
    """Check: nothing to call.

    >>> str(Check())
    'check'
    """

    def _phh_verb(self) -> str:
        return "cc"


@dataclass(frozen=True, repr=False)
class Call(Action):
    """Call the highest bet (all in for less when the stack is short).

    >>> str(Call())
    'call'
    """

    def _phh_verb(self) -> str:
        return "cc"


@dataclass(frozen=True, repr=False)
class CheckOrCall(Action):
    """PHH's ``cc``: a check when nothing is due, else a call.

    >>> str(CheckOrCall())
    'check or call'
    """

    def __str__(self) -> str:
        return "check or call"

    def _phh_verb(self) -> str:
        return "cc"


@dataclass(frozen=True, repr=False)
class RaiseTo(Action):
    """Bet or raise so that the player's total for the round is ``amount``.

    >>> str(RaiseTo(120))
    'raise to 120'
    """

    amount: int
    """The player's total for the round after the bet or raise."""

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "amount", _chips(self.amount, "a bet or raise"))

    def __str__(self) -> str:
        return f"raise to {self.amount}"

    def _phh_verb(self) -> str:
        return f"cbr {self.amount}"


@dataclass(frozen=True, repr=False)
class BringIn(Action):
    """Stud: the lowest up card opens for ``amount`` (12.2(a)).

    >>> str(BringIn(10))
    'bring in 10'
    """

    amount: int
    """The bring-in, or a completion to a full bet."""

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "amount", _chips(self.amount, "a bring-in"))

    def __str__(self) -> str:
        return f"bring in {self.amount}"

    def _phh_verb(self) -> str:
        return f"cbr {self.amount}"


@dataclass(frozen=True, repr=False)
class Discard(Action):
    """Draw poker: discard these cards (none: stand pat) for as many new ones.

    >>> str(Discard("As Kd")), str(Discard(()))
    ('discard As Kd', 'stand pat')
    """

    cards: tuple[Card, ...] = ()
    """The cards thrown away."""

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "cards", _cards(self.cards))

    def __str__(self) -> str:
        return "discard " + " ".join(map(str, self.cards)) if self.cards else "stand pat"

    def _phh_verb(self) -> str:
        return "sd " + "".join(map(str, self.cards)) if self.cards else "sd"


@dataclass(frozen=True, repr=False)
class Concede(Action):
    """At the showdown, give up the hand unshown (Poker definitions: Dead Hand); ``seat``
    is the conceding seat and must be named.

    >>> str(Concede(seat=4))
    'concede'
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.seat is None:
            raise InvalidActionError("Concede names the conceding seat: Concede(seat=N)")


@dataclass(frozen=True, repr=False)
class RequestShow(Action):
    """Ask to see a showdown hand (Omaha 17.5(d)); ``shown`` is the seat asked to show and
    ``seat`` the asking player (any).

    >>> str(RequestShow(3))
    'request show 3'
    """

    shown: int
    """The seat whose hand is asked for."""

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "shown", _invalid(seat_number, self.shown, "the seat to show"))

    def __str__(self) -> str:
        return f"request show {self.shown}"


@dataclass(frozen=True)
class LegalActions:
    """What the player to act may do, with the amounts (round totals for bets and raises).

    >>> LegalActions(actor=1, fold=True, call=10, raise_to=(20, 100)).describe()
    'fold, call 10, raise to 20..100'
    >>> LegalActions(actor=None).describe()     # nobody is to act
    'nothing'
    """

    actor: int | None
    """The seat to act (None: nobody is, and nothing is legal)."""
    fold: bool = False
    """Fold is allowed."""
    check: bool = False
    """Check is allowed."""
    call: int | None = None
    """Chips a call puts in (an all-in call when the stack is short), if a call is due."""
    raise_to: tuple[int, int] | None = None
    """Smallest and largest legal bet or raise, as the player's total for the round."""
    bring_in: tuple[int, int] | None = None
    """Stud bring-in range (12.2(a)): the player must bet, nothing else. In fixed limit
    only the two ends are legal: the bring-in, or completing it to a full bet."""
    bring_in_ends_only: bool = False
    """True in fixed limit: :attr:`bring_in` offers its two ends, not the range between."""
    discard: bool = False
    """A draw is due: discard 0 or more cards."""

    @classmethod
    def betting(
        cls,
        actor: int,
        fold: bool,
        check: bool,
        call: int | None,
        raise_to: tuple[int, int] | None,
    ) -> LegalActions:
        """A betting turn's legal actions (no bring-in, no draw), made without the generated
        ``__init__``: a frozen dataclass sets each of its eight fields through
        ``object.__setattr__``, and the referee makes one of these at every decision.

        >>> LegalActions.betting(1, True, False, 10, (20, 100)) == LegalActions(
        ...     actor=1, fold=True, call=10, raise_to=(20, 100))
        True
        """
        made = _new(cls)
        _set(
            made,
            "__dict__",
            {
                "actor": actor,
                "fold": fold,
                "check": check,
                "call": call,
                "raise_to": raise_to,
                "bring_in": None,
                "bring_in_ends_only": False,
                "discard": False,
            },
        )
        return made

    def actions(self) -> tuple[Action, ...]:
        """The legal actions as values; a range appears as its two ends (every amount
        between them is legal too, in the chip unit; fixed limit: only the ends).

        >>> LegalActions(actor=1, fold=True, call=10, raise_to=(20, 100)).actions()
        (Fold(seat=1), Call(seat=1), RaiseTo(amount=20, seat=1), RaiseTo(amount=100, seat=1))
        """
        seat = self.actor
        out: list[Action] = []
        if self.discard:
            out.append(Discard((), seat=seat))
        if self.bring_in is not None:
            out.extend(BringIn(a, seat=seat) for a in sorted(set(self.bring_in)))
        if self.fold:
            out.append(Fold(seat=seat))
        if self.check:
            out.append(Check(seat=seat))
        if self.call is not None:
            out.append(Call(seat=seat))
        if self.raise_to is not None:
            out.extend(RaiseTo(a, seat=seat) for a in sorted(set(self.raise_to)))
        return tuple(out)

    def __iter__(self) -> Iterator[Action]:
        return iter(self.actions())

    def __contains__(self, action: object) -> bool:
        """Whether the action's kind, seat and amount are allowed (a discard's cards are
        checked by :meth:`HandState.can <croupier.poker.state.HandState.can>`).

        >>> legal = LegalActions(actor=1, fold=True, call=10, raise_to=(20, 100))
        >>> RaiseTo(50) in legal, RaiseTo(50, seat=2) in legal, Check() in legal
        (True, False, False)
        """
        if not isinstance(action, Action) or self.actor is None:
            return False
        if action.seat is not None and action.seat != self.actor:
            return False
        match action:
            case Fold():
                return self.fold
            case Check():
                return self.check
            case Call():
                return self.call is not None
            case CheckOrCall():
                return self.check or self.call is not None
            case RaiseTo(amount=amount):
                return self.raise_to is not None and self.raise_to[0] <= amount <= self.raise_to[1]
            case BringIn(amount=amount):
                if self.bring_in is None:
                    return False
                low, high = self.bring_in
                return amount in (low, high) if self.bring_in_ends_only else low <= amount <= high
            case Discard():
                return self.discard
        return False

    def describe(self) -> str:
        """Plain English, e.g. ``"fold, call 10, raise to 20..1000"``."""
        parts = []
        if self.discard:
            parts.append("discard any of your cards (or none)")
        if self.bring_in is not None:
            low, high = self.bring_in
            if low == high:
                parts.append(f"bring in for {low}")
            elif self.bring_in_ends_only:
                parts.append(f"bring in for {low} or complete to {high}")
            else:
                parts.append(f"bring in for {low}..{high}")
        if self.fold:
            parts.append("fold")
        if self.check:
            parts.append("check")
        if self.call is not None:
            parts.append(f"call {self.call}")
        if self.raise_to is not None:
            low, high = self.raise_to
            parts.append(f"raise to {low}" if low == high else f"raise to {low}..{high}")
        return ", ".join(parts) or "nothing"


_new = object.__new__
_set = object.__setattr__


ACTION_TYPES: dict[str, type[Action]] = {
    cls.__name__: cls
    for cls in (Fold, Check, Call, CheckOrCall, RaiseTo, BringIn, Discard, Concede, RequestShow)
}
"""Every player action type by class name (for serialisation)."""


def _invalid(check: object, value: object, what: str) -> int:
    try:
        return check(value, what)  # type: ignore[operator, no-any-return]
    except InvalidActionError:
        raise
    except CroupierError as error:
        raise InvalidActionError(str(error)) from None


def _chips(value: object, what: str) -> int:
    return _invalid(whole_chips, value, what)


def _cards(value: object) -> tuple[Card, ...]:
    if isinstance(value, str):
        items: list[object] = [value] if value.strip() else []
    elif isinstance(value, tuple | list):
        items = list(value)
    else:
        raise InvalidActionError(f"a discard is a list of cards, not {value!r}")
    if not all(isinstance(c, str | Card) for c in items):
        raise InvalidActionError(f"a discard is a list of cards, not {value!r}")
    try:
        return parse_cards(" ".join(str(c) for c in items)) if items else ()
    except CroupierError as error:
        raise InvalidActionError(str(error)) from None


_SEAT = re.compile(r"^p(\d+)\s+(.*)$")
_WORDS: dict[str, type[Action]] = {
    "f": Fold,
    "fold": Fold,
    "x": Check,
    "k": Check,
    "check": Check,
    "c": Call,
    "call": Call,
    "cc": CheckOrCall,
    "r": RaiseTo,
    "b": RaiseTo,
    "raise": RaiseTo,
    "bet": RaiseTo,
    "cbr": RaiseTo,
    "bring-in": BringIn,
    "bi": BringIn,
    "sd": Discard,
    "discard": Discard,
    "draw": Discard,
    "concede": Concede,
    "show": RequestShow,
}


_PHRASES = (
    ("raise to", "raise"),
    ("bet to", "bet"),
    ("bring in", "bring-in"),
    ("stand pat", "sd"),
    ("check or call", "cc"),
    ("request show", "show"),
)
"""The printed forms (``str(action)``) read back."""


def parse_action(text: str) -> Action:
    """Read an action from text: ``fold``/``f``, ``check``/``x``, ``call``/``c``, PHH's
    ``cc``, ``raise 40``/``r 40``/``bet 40``/``cbr 40`` (a round total), ``bring-in 10``,
    ``discard As Kd``/``sd AsKd`` (nothing: stand pat), ``show 3``, and every printed form
    (``str(action)``: ``raise to 40``, ``stand pat``…); an optional PHH seat prefix ``p3``
    names the seat.

    >>> parse_action("sd AsKd"), parse_action("p2 x")
    (Discard(cards=(Card('As'), Card('Kd'))), Check(seat=2))
    >>> parse_action("p2 jump")
    Traceback (most recent call last):
    ...
    croupier.errors.InvalidActionError: bad action 'p2 jump': unknown verb 'jump' (one of f, fold, x, k, check, c, call, cc, r, b, raise, bet, cbr, bring-in, bi, sd, discard, draw, concede, show)
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action's text must be a string, not {text!r}")
    original = text
    text = " ".join(text.split())
    seat: int | None = None
    match = _SEAT.match(text)
    if match:
        seat, text = int(match.group(1)), match.group(2)
    lowered = text.lower()
    for phrase, word in _PHRASES:
        if lowered == phrase or lowered.startswith(phrase + " "):
            text = word + text[len(phrase) :]
            break
    verb, _, rest = text.partition(" ")
    kind = _WORDS.get(verb.lower())
    if kind is None:
        raise InvalidActionError(
            f"bad action {original!r}: unknown verb {verb!r} (one of {', '.join(_WORDS)})"
        )
    try:
        if kind in (RaiseTo, BringIn, RequestShow):
            if not rest:
                raise InvalidActionError(f"{verb!r} needs an amount (e.g. '{verb} 40')")
            if not re.fullmatch(r"\d+", rest):
                what = "seat" if kind is RequestShow else "whole number of chips"
                raise InvalidActionError(f"{rest!r} is not a {what}")
            return kind(int(rest), seat=seat)
        if kind is Discard:
            if " " in rest:
                cards = rest.split()
            elif len(rest) % 2:
                raise InvalidActionError(f"{rest!r} is not a list of cards")
            else:
                cards = [rest[i : i + 2] for i in range(0, len(rest), 2)]
            return Discard(tuple(cards), seat=seat)  # type: ignore[arg-type]
        if rest:
            raise InvalidActionError(f"{verb!r} takes nothing after it, not {rest!r}")
        return kind(seat=seat)
    except InvalidActionError as error:
        message = str(error)
        if message.startswith("bad action"):
            raise
        raise InvalidActionError(f"bad action {original!r}: {message}") from None
