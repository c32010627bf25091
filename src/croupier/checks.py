"""Input checks shared by the referees: chips, seats and settings, each with a one-line error.

Chips are whole numbers: any :class:`numbers.Integral` (``int``, numpy integers) except
``bool``, normalised to ``int``. Everything else (floats, ``Fraction``, ``Decimal``, strings,
``None``) is refused with a :class:`~croupier.errors.CroupierError` naming the value.

>>> import numpy as np
>>> whole_chips(np.int64(20), "a raise")
20
>>> whole_chips(2.5, "a stack")
Traceback (most recent call last):
...
croupier.errors.CroupierError: a stack must be a whole number of chips, not 2.5 (float)
>>> from enum import StrEnum
>>> class Color(StrEnum):
...     RED = "red"
...     BLUE = "blue"
>>> enum_setting(Color, "red", "colour")
<Color.RED: 'red'>
>>> enum_setting(Color, "pink", "colour")
Traceback (most recent call last):
...
croupier.errors.CroupierError: colour must be one of 'red', 'blue', not 'pink'
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, TypeVar

from croupier.errors import CroupierError

__all__ = [
    "can",
    "enum_setting",
    "event_log",
    "flag_setting",
    "same_log",
    "seat_number",
    "whole_chips",
    "whole_number",
]

E = TypeVar("E", bound=Enum)
S = TypeVar("S")


def _shown(value: object) -> str:
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    kind = type(value).__name__
    return (
        text if isinstance(value, str | int) and not isinstance(value, bool) else f"{text} ({kind})"
    )


def whole_chips(value: object, what: str, *, minimum: int | None = 0) -> int:
    """``value`` as an ``int`` number of chips, at least ``minimum`` (None: any sign).

    >>> whole_chips(True, "a wager")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: a wager must be a whole number of chips, not True (bool)
    >>> whole_chips(-5, "an ante")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: an ante must be at least 0, not -5
    """
    return _whole(value, what, "a whole number of chips", minimum)


def whole_number(value: object, what: str, *, minimum: int | None = 0) -> int:
    """``value`` as an ``int`` (a count or a seed), at least ``minimum`` (None: any sign).

    >>> whole_number(-1, "a seed")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: a seed must be at least 0, not -1
    """
    return _whole(value, what, "a whole number", minimum)


def _whole(value: object, what: str, kind: str, minimum: int | None) -> int:
    if type(value) is int and (minimum is None or value >= minimum):  # the common case
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise CroupierError(f"{what} must be {kind}, not {_shown(value)}")
    number = int(value)
    if minimum is not None and number < minimum:
        raise CroupierError(f"{what} must be at least {minimum}, not {number}")
    return number


def seat_number(value: object, what: str = "a seat") -> int:
    """A seat or box number: a whole number from 1.

    >>> seat_number(0)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: a seat must be a whole number from 1, not 0
    """
    if type(value) is int and value >= 1:  # the common case, checked at once
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or int(value) < 1:
        raise CroupierError(f"{what} must be a whole number from 1, not {_shown(value)}")
    return int(value)


def enum_setting(kind: type[E], value: object, what: str) -> E:
    """``value`` as a member of ``kind``: the member itself or its string value; anything
    else is refused with the allowed values (a setting is never silently ignored)."""
    if isinstance(value, kind):
        return value
    if isinstance(value, str) and not isinstance(value, Enum):
        for member in kind:
            if member.value == value or member.name == value.upper().replace("-", "_"):
                return member
    allowed = ", ".join(repr(m.value) for m in kind)
    raise CroupierError(f"{what} must be one of {allowed}, not {_shown(value)}")


def flag_setting(value: object, what: str) -> bool:
    """A yes/no setting: exactly ``True`` or ``False``.

    >>> flag_setting(1, "show_all_at_showdown")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: show_all_at_showdown must be True or False, not 1
    """
    if not isinstance(value, bool):
        raise CroupierError(f"{what} must be True or False, not {_shown(value)}")
    return value


def can(check: Callable[..., Any], *args: Any) -> bool:
    """Whether ``check(*args)`` passes: a ``verify_`` method turned into its ``can_``. It
    never raises a :class:`CroupierError` (malformed input is simply not legal).

    >>> from croupier.cards import Card
    >>> can(Card.parse, "zz"), can(Card.parse, "As")
    (False, True)
    """
    try:
        check(*args)
    except CroupierError:
        return False
    return True


def event_log(events: object, first: type[S], kind: type) -> S:
    """The opening event of ``events`` if it is an event log to replay: a sequence of
    ``kind`` events opening with a ``first`` event; anything else raises
    :class:`CroupierError`.

    >>> from croupier.poker import events as ev
    >>> event_log([ev.Folded(1)], ev.HandStarted, ev.Event)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: an event log starts with HandStarted
    """
    if isinstance(events, str | bytes) or not isinstance(events, Sequence):
        raise CroupierError(f"an event log is a sequence of events, not {events!r}")
    if not events or not isinstance(events[0], first):
        raise CroupierError(f"an event log starts with {first.__name__}")
    if not all(isinstance(e, kind) for e in events):
        bad = next(e for e in events if not isinstance(e, kind))
        raise CroupierError(f"an event log holds only events, not {bad!r}")
    start: S = events[0]
    return start


def _described(event: Any) -> str:
    """An event's one line, or its (shortened) repr when a tampered event cannot describe
    itself (a field of the wrong type)."""
    try:
        return str(event.describe())
    except Exception:  # a malformed event: say what it is, never fail while reporting it
        shown = repr(event)
        return shown if len(shown) <= 80 else shown[:77] + "..."


def same_log(logged: Sequence[Any], replayed: Sequence[Any]) -> None:
    """Raise unless a replay produced exactly the logged events (each with ``describe()``):
    the first event that differs, or the first the replay never reached, is named.

    >>> from croupier.poker import events as ev
    >>> same_log([ev.Folded(1), ev.Folded(2)], [ev.Folded(1)])
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: event 1 of the log (seat 2 folds) never happens under these rules
    """
    for index, (was, now) in enumerate(zip(logged, replayed, strict=False)):
        if was != now:
            raise CroupierError(
                f"event {index} of the log ({_described(was)}) differs "
                f"from the replay ({_described(now)})"
            )
    if len(replayed) < len(logged):
        extra = logged[len(replayed)]
        raise CroupierError(
            f"event {len(replayed)} of the log ({_described(extra)}) never happens under these rules"
        )
