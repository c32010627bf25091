"""Blackjack actions as values: what a player (a bot, a client) chooses, and its text forms.

An action is a frozen value, as in poker (:mod:`croupier.poker.actions`).
:meth:`BlackjackRound.apply <croupier.blackjack.round.BlackjackRound.apply>` applies it and
returns the event it produced; ``verify`` raises and ``can`` answers without raising. A
decision may name who takes it (``Hit(box=2, hand=0)``, ``Insure(5, player="ann")``): the
referee then refuses it when someone else is to act.

>>> parse_action("h"), parse_action("insure 5"), parse_action("wager 1 ann 10")
(Hit(), Insure(amount=5), PlaceWager(box=1, player='ann', amount=10))
>>> str(Double(box=2, hand=1)), str(PlaceWager(3, "bo", 25))
('box 2 hand 1: double', 'wager 3 bo 25')
>>> parse_action("insure lots")
Traceback (most recent call last):
...
croupier.errors.InvalidActionError: bad action 'insure lots': 'lots' is not a whole number of chips
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import Any

from croupier.blackjack.hands import Turn
from croupier.checks import seat_number, whole_chips, whole_number
from croupier.errors import CroupierError, InvalidActionError

__all__ = [
    "ACTION_TYPES",
    "Action",
    "Deal",
    "DeclineInsurance",
    "Double",
    "EvenMoney",
    "HandAction",
    "Hit",
    "InsuranceAction",
    "Insure",
    "LegalPlays",
    "PlaceWager",
    "Split",
    "Stand",
    "Surrender",
    "WagerLimit",
    "WithdrawWager",
    "parse_action",
]


def _malformed(check: Any, value: object, what: str, **options: Any) -> Any:
    """``check(value, what)``, its :class:`CroupierError` raised as :class:`InvalidActionError`."""
    try:
        return check(value, what, **options)
    except CroupierError as error:
        raise InvalidActionError(str(error)) from None


def _player(value: object) -> str:
    if not isinstance(value, str) or not value or value != value.strip() or ":" in value:
        raise InvalidActionError(f"a player is named by a non-empty word, not {value!r}")
    return value


@dataclass(frozen=True)
class Action:
    """Base of every blackjack action.

    >>> isinstance(Hit(), Action), str(Deal())
    (True, 'deal')
    """

    def _who(self) -> str:
        return ""

    def _verb(self) -> str:
        return type(self).__name__.lower()

    def __str__(self) -> str:
        who = self._who()
        return f"{who}: {self._verb()}" if who else self._verb()

    def __repr__(self) -> str:
        given = [f for f in fields(self) if not f.kw_only]
        given += [f for f in fields(self) if f.kw_only and getattr(self, f.name) is not None]
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in given)
        return f"{type(self).__name__}({shown})"


@dataclass(frozen=True, repr=False)
class HandAction(Action):
    """Base of the decisions on a box's hand; ``box``, ``hand`` and ``player``, when given,
    name who decides.

    >>> Stand(box=1, hand=0).box, str(Stand(player="ann"))
    (1, 'ann: stand')
    """

    box: int | None = field(default=None, kw_only=True)
    """The box whose hand acts (None: whichever is to act)."""
    hand: int | None = field(default=None, kw_only=True)
    """The hand's index on the box (None: whichever is to act)."""
    player: str | None = field(default=None, kw_only=True)
    """The player deciding (None: whoever is to act)."""

    def __post_init__(self) -> None:
        box = self.box
        if box is not None and (type(box) is not int or box < 1):
            object.__setattr__(self, "box", _malformed(seat_number, box, "a box"))
        hand = self.hand
        if hand is not None and (type(hand) is not int or hand < 0):
            object.__setattr__(self, "hand", _malformed(whole_number, hand, "a hand's index"))
        if self.player is not None:
            object.__setattr__(self, "player", _player(self.player))

    def _who(self) -> str:
        parts = [] if self.box is None else [f"box {self.box}"]
        parts += [] if self.hand is None else [f"hand {self.hand}"]
        parts += [] if self.player is None else [self.player]
        return " ".join(parts)


@dataclass(frozen=True, repr=False)
class Hit(HandAction):
    """Draw a card (12.1).

    >>> str(Hit())
    'hit'
    """


@dataclass(frozen=True, repr=False)
class Stand(HandAction):
    """Take no more cards (not on 11 or less, 12.1(d)).

    >>> str(Stand())
    'stand'
    """


@dataclass(frozen=True, repr=False)
class Double(HandAction):
    """Double the stake and take exactly one card (12.1(b)).

    >>> str(Double())
    'double'
    """


@dataclass(frozen=True, repr=False)
class Split(HandAction):
    """Split a pair into two hands (11.1-11.5).

    >>> str(Split())
    'split'
    """


@dataclass(frozen=True, repr=False)
class Surrender(HandAction):
    """Give up the hand for half the stake (where the table offers it, Decision 3.1-13).

    >>> str(Surrender())
    'surrender'
    """


@dataclass(frozen=True, repr=False)
class InsuranceAction(Action):
    """Base of the insurance decisions against a dealer's ace; ``box`` and ``player``, when
    given, name who decides.

    >>> str(EvenMoney(box=1, player="ann"))
    'box 1 ann: even money'
    """

    box: int | None = field(default=None, kw_only=True)
    """The box the decision is for (None: whichever is due)."""
    player: str | None = field(default=None, kw_only=True)
    """The player deciding (None: whoever is due)."""

    def __post_init__(self) -> None:
        box = self.box
        if box is not None and (type(box) is not int or box < 1):
            object.__setattr__(self, "box", _malformed(seat_number, box, "a box"))
        if self.player is not None:
            object.__setattr__(self, "player", _player(self.player))

    def _who(self) -> str:
        parts = [] if self.box is None else [f"box {self.box}"]
        return " ".join(parts + ([] if self.player is None else [self.player]))


@dataclass(frozen=True, repr=False)
class Insure(InsuranceAction):
    """Insure the box for ``amount``, up to half the wager (Decision 3.1-6); 0 declines.

    >>> str(Insure(5)), Insure(0).amount
    ('insure 5', 0)
    """

    amount: int
    """The insurance stake (0: declined)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        amount = _malformed(whole_chips, self.amount, "an insurance stake")
        object.__setattr__(self, "amount", amount)

    def _verb(self) -> str:
        return f"insure {self.amount}"


@dataclass(frozen=True, repr=False)
class DeclineInsurance(InsuranceAction):
    """Decline insurance (the same decision as ``Insure(0)``).

    >>> str(DeclineInsurance())
    'decline insurance'
    """

    def _verb(self) -> str:
        return "decline insurance"


@dataclass(frozen=True, repr=False)
class EvenMoney(InsuranceAction):
    """Take even money on a blackjack against an ace (where offered, Decision 3.1-6).

    >>> str(EvenMoney())
    'even money'
    """

    def _verb(self) -> str:
        return "even money"


@dataclass(frozen=True, repr=False)
class PlaceWager(Action):
    """Place (or change) ``player``'s wager on ``box`` before the deal (4.2).

    >>> PlaceWager(2, "bo", 20)
    PlaceWager(box=2, player='bo', amount=20)
    """

    box: int
    """The box (1 at the dealer's left)."""
    player: str
    """The player wagering."""
    amount: int
    """The wager."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "box", _malformed(seat_number, self.box, "a box"))
        object.__setattr__(self, "player", _player(self.player))
        object.__setattr__(self, "amount", _malformed(whole_chips, self.amount, "a wager"))

    def _verb(self) -> str:
        return f"wager {self.box} {self.player} {self.amount}"


@dataclass(frozen=True, repr=False)
class WithdrawWager(Action):
    """Take ``player``'s wager back from ``box`` before the deal (4.2).

    >>> str(WithdrawWager(2, "bo"))
    'withdraw 2 bo'
    """

    box: int
    """The box."""
    player: str
    """The player."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "box", _malformed(seat_number, self.box, "a box"))
        object.__setattr__(self, "player", _player(self.player))

    def _verb(self) -> str:
        return f"withdraw {self.box} {self.player}"


@dataclass(frozen=True, repr=False)
class Deal(Action):
    """The dealer closes the wagers and deals (4.2).

    >>> Deal()
    Deal()
    """


ACTION_TYPES: dict[str, type[Action]] = {
    cls.__name__: cls
    for cls in (
        Hit,
        Stand,
        Double,
        Split,
        Surrender,
        Insure,
        DeclineInsurance,
        EvenMoney,
        PlaceWager,
        WithdrawWager,
        Deal,
    )
}
"""Every blackjack action type by class name (for serialisation)."""

_PLAYS: tuple[tuple[str, type[HandAction]], ...] = (
    ("hit", Hit),
    ("stand", Stand),
    ("double", Double),
    ("split", Split),
    ("surrender", Surrender),
)


@dataclass(frozen=True)
class WagerLimit:
    """What ``player`` may wager on ``box`` now: ``low`` to ``high`` in units of ``unit``.

    >>> 25 in WagerLimit(1, "ann", 10, 50, 5), 26 in WagerLimit(1, "ann", 10, 50, 5)
    (True, False)
    """

    box: int
    player: str
    low: int
    """The table minimum."""
    high: int
    """The most the player may have on the box (the table maximum, the bankroll)."""
    unit: int
    """The chip unit."""

    def __contains__(self, amount: object) -> bool:
        return (
            isinstance(amount, int) and self.low <= amount <= self.high and amount % self.unit == 0
        )


@dataclass(frozen=True)
class LegalPlays:
    """What may be done now, with the amounts (the insurance cap and the wager limits).

    ``actor`` is who decides (None in the wager phase and once settled). ``in`` takes an
    action value (or a decision's name, ``"split"``); iterating gives the legal actions,
    a range as its two ends.

    >>> legal = LegalPlays(Turn(1, 0, "ann"), hit=True, double=True)
    >>> Hit() in legal, Stand() in legal, Hit(box=2) in legal, legal.names
    (True, False, False, ('hit', 'double'))
    >>> list(legal)
    [Hit(box=1, hand=0, player='ann'), Double(box=1, hand=0, player='ann')]
    """

    actor: Turn | None
    """Who decides now."""
    hit: bool = False
    stand: bool = False
    double: bool = False
    split: bool = False
    surrender: bool = False
    decline_insurance: bool = False
    """An insurance decision is due (declining is always allowed)."""
    insure: tuple[int, int] | None = None
    """Smallest and largest insurance stake (the cap: half the wager, within the
    bankroll), in units of :attr:`unit`; None when no stake can be made."""
    even_money: bool = False
    """Even money is offered to the blackjack deciding."""
    wagers: tuple[WagerLimit, ...] = ()
    """Before the deal: every box and player that may wager, with the limits."""
    withdrawals: tuple[tuple[int, str], ...] = ()
    """Before the deal: the ``(box, player)`` wagers that may be taken back."""
    deal: bool = False
    """The dealer may deal (some box has a wager)."""
    unit: int = 1
    """The chip unit."""

    @property
    def names(self) -> tuple[str, ...]:
        """The decisions open, by name: ``hit`` … ``surrender`` for a hand, ``insure``
        (``insure(0)`` declines) and ``even money`` for an insurance decision.

        >>> LegalPlays(Turn(1, None, "ann"), decline_insurance=True, insure=(1, 5)).names
        ('insure',)
        """
        if self.decline_insurance:
            return ("insure", "even money") if self.even_money else ("insure",)
        return tuple(name for name, _ in _PLAYS if getattr(self, name))

    def actions(self) -> tuple[Action, ...]:
        """The legal actions as values, each naming who takes it.

        >>> LegalPlays(Turn(1, None, "ann"), decline_insurance=True, insure=(1, 5)).actions()
        (DeclineInsurance(box=1, player='ann'), Insure(amount=1, box=1, player='ann'), Insure(amount=5, box=1, player='ann'))
        """
        actor = self.actor
        out: list[Action] = []
        if actor is not None and actor.hand is not None:
            out.extend(
                kind(box=actor.box, hand=actor.hand, player=actor.player)
                for name, kind in _PLAYS
                if getattr(self, name)
            )
        if actor is not None and self.decline_insurance:
            out.append(DeclineInsurance(box=actor.box, player=actor.player))
            if self.insure is not None:
                ends = sorted(set(self.insure))
                out.extend(Insure(a, box=actor.box, player=actor.player) for a in ends)
            if self.even_money:
                out.append(EvenMoney(box=actor.box, player=actor.player))
        for limit in self.wagers:
            ends = sorted({limit.low, limit.high})
            out.extend(PlaceWager(limit.box, limit.player, a) for a in ends)
        out.extend(WithdrawWager(box, player) for box, player in self.withdrawals)
        if self.deal:
            out.append(Deal())
        return tuple(out)

    def __iter__(self) -> Iterator[Action]:
        return iter(self.actions())

    def __len__(self) -> int:
        return len(self.actions())

    def __contains__(self, action: object) -> bool:
        """Whether the action (kind, who and amount) is legal now; a string is a name of
        :attr:`names`.

        >>> legal = LegalPlays(Turn(1, None, "ann"), decline_insurance=True, insure=(1, 5))
        >>> Insure(3) in legal, Insure(6) in legal, Insure(0, player="bo") in legal
        (True, False, False)
        """
        if isinstance(action, str):
            return action in self.names
        if isinstance(action, HandAction | InsuranceAction):
            actor = self.actor
            if actor is None:
                return False
            if action.box is not None and action.box != actor.box:
                return False
            if action.player is not None and action.player != actor.player:
                return False
            if isinstance(action, HandAction):
                if actor.hand is None or action.hand not in (None, actor.hand):
                    return False
                return bool(getattr(self, type(action).__name__.lower()))
        match action:
            case Insure(amount=0) | DeclineInsurance():
                return self.decline_insurance
            case Insure(amount=amount):
                low, high = self.insure or (1, 0)
                return low <= amount <= high and amount % self.unit == 0
            case EvenMoney():
                return self.even_money
            case PlaceWager(box=box, player=player, amount=amount):
                return any((w.box, w.player) == (box, player) and amount in w for w in self.wagers)
            case WithdrawWager(box=box, player=player):
                return (box, player) in self.withdrawals
            case Deal():
                return self.deal
        return False

    def describe(self) -> str:
        """Plain English, e.g. ``"hit, double"`` or ``"decline insurance, insure 1..5"``.

        >>> LegalPlays(None, wagers=(WagerLimit(1, "ann", 10, 50, 1),), deal=True).describe()
        'wager 10..50 (ann, box 1), deal'
        """
        parts = [name for name, _ in _PLAYS if getattr(self, name)]
        if self.decline_insurance:
            parts.append("decline insurance")
            if self.insure is not None:
                low, high = self.insure
                parts.append(f"insure {low}" if low == high else f"insure {low}..{high}")
            if self.even_money:
                parts.append("even money")
        for w in self.wagers:
            amounts = f"{w.low}" if w.low == w.high else f"{w.low}..{w.high}"
            parts.append(f"wager {amounts} ({w.player}, box {w.box})")
        parts.extend(f"withdraw {player}'s wager on box {box}" for box, player in self.withdrawals)
        if self.deal:
            parts.append("deal")
        return ", ".join(parts)


# ------------------------------------------------------------------------------- text
_WORDS: dict[str, type[Action]] = {
    "h": Hit,
    "hit": Hit,
    "s": Stand,
    "stand": Stand,
    "d": Double,
    "double": Double,
    "p": Split,
    "split": Split,
    "r": Surrender,
    "surrender": Surrender,
    "i": Insure,
    "insure": Insure,
    "decline": DeclineInsurance,
    "e": EvenMoney,
    "even-money": EvenMoney,
    "wager": PlaceWager,
    "w": PlaceWager,
    "withdraw": WithdrawWager,
    "deal": Deal,
}
_PHRASES = (
    ("decline insurance", "decline"),
    ("no insurance", "decline"),
    ("even money", "even-money"),
)
_NUMBER = re.compile(r"\d+")


def _who(prefix: str, original: str) -> dict[str, Any]:
    """``box 1 hand 0 ann`` → the fields naming who decides."""
    words = prefix.split()
    who: dict[str, Any] = {}
    index = 0
    while index < len(words):
        word = words[index].lower()
        if word in ("box", "hand") and word not in who:
            if index + 1 >= len(words) or not _NUMBER.fullmatch(words[index + 1]):
                got = words[index + 1] if index + 1 < len(words) else "nothing"
                raise InvalidActionError(
                    f"bad action {original!r}: {word!r} needs a number, not {got!r}"
                )
            who[word] = int(words[index + 1])
            index += 2
        elif "player" not in who:
            who["player"] = words[index]
            index += 1
        else:
            raise InvalidActionError(f"bad action {original!r}: unexpected {words[index]!r}")
    return who


def parse_action(text: str) -> Action:
    """Read an action from text: ``hit``/``h``, ``stand``/``s``, ``double``/``d``,
    ``split``/``p``, ``surrender``/``r`` (the strategy chart's letters), ``insure 5``/``i 5``
    (``insure 0`` declines), ``decline insurance``/``decline``, ``even money``/``e``,
    ``wager 1 ann 10``, ``withdraw 1 ann``, ``deal``, and every printed form
    (``str(action)``). A prefix before a colon names who decides: ``box 2 hand 1: hit``,
    ``ann: insure 5``.

    >>> parse_action("box 2 hand 1: double"), parse_action("ann: decline insurance")
    (Double(box=2, hand=1), DeclineInsurance(player='ann'))
    >>> parse_action("jump")
    Traceback (most recent call last):
    ...
    croupier.errors.InvalidActionError: bad action 'jump': unknown verb 'jump' (one of h, hit, s, stand, d, double, p, split, r, surrender, i, insure, decline, e, even-money, wager, w, withdraw, deal)
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action's text must be a string, not {text!r}")
    original = text
    prefix, colon, body = text.partition(":")
    if not colon:
        prefix, body = "", text
    body = " ".join(body.split())
    lowered = body.lower()
    for phrase, word in _PHRASES:
        if lowered == phrase or lowered.startswith(phrase + " "):
            body = word + body[len(phrase) :]
            break
    verb, _, rest = body.partition(" ")
    kind = _WORDS.get(verb.lower())
    if kind is None:
        raise InvalidActionError(
            f"bad action {original!r}: unknown verb {verb!r} (one of {', '.join(_WORDS)})"
        )
    who = _who(prefix, original) if prefix.strip() else {}
    args = rest.split()
    try:
        if who and not issubclass(kind, HandAction | InsuranceAction):
            raise InvalidActionError(f"{verb!r} names its box and player after the verb")
        if "hand" in who and not issubclass(kind, HandAction):
            raise InvalidActionError(f"{verb!r} is not a decision on a hand")
        if kind is Insure:
            if len(args) != 1:
                raise InvalidActionError(f"{verb!r} needs one amount (e.g. 'insure 5')")
            return Insure(_whole(args[0], "whole number of chips"), **who)
        if kind is PlaceWager:
            if len(args) != 3:
                raise InvalidActionError(f"{verb!r} needs a box, a player and an amount")
            box, player, amount = args
            return PlaceWager(
                _whole(box, "box number"), player, _whole(amount, "whole number of chips")
            )
        if kind is WithdrawWager:
            if len(args) != 2:
                raise InvalidActionError(f"{verb!r} needs a box and a player")
            return WithdrawWager(_whole(args[0], "box number"), args[1])
        if args:
            raise InvalidActionError(f"{verb!r} takes nothing after it, not {rest!r}")
        return kind(**who)
    except InvalidActionError as error:
        message = str(error)
        if message.startswith("bad action"):
            raise
        raise InvalidActionError(f"bad action {original!r}: {message}") from None


def _whole(token: str, what: str) -> int:
    if not _NUMBER.fullmatch(token):
        raise InvalidActionError(f"{token!r} is not a {what}")
    return int(token)
