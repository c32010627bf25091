"""JSON both ways for the referees' frozen dataclasses: events, views and what they hold.

Cards become their text, enums their values, nested dataclasses dicts and tuples lists;
reading back follows the dataclass's type hints and refuses a value of the wrong type, a
missing key or an unknown one. An event is tagged with its class name (``"type"``).

>>> from croupier.poker import events as ev
>>> kinds = event_types(ev.__all__, vars(ev), ev.Event)
>>> data = event_to_dict(ev.Folded(3)); data
{'type': 'Folded', 'seat': 3}
>>> event_from_dict(kinds, data)
Folded(seat=3)
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any, ClassVar, TypeVar

from croupier.cards.card import Card
from croupier.errors import CroupierError

__all__ = [
    "JsonView",
    "decode",
    "encode",
    "event_from_dict",
    "event_to_dict",
    "event_types",
]

T = TypeVar("T")
V = TypeVar("V", bound="JsonView")


def event_types(
    names: Iterable[str], namespace: Mapping[str, Any], base: type[T]
) -> dict[str, type[T]]:
    """The event classes among ``names`` in ``namespace`` (a module's ``__all__`` and
    ``vars``), by class name: what :func:`event_from_dict` may build."""
    found = (namespace[name] for name in names)
    return {k.__name__: k for k in found if isinstance(k, type) and issubclass(k, base)}


def event_to_dict(event: Any) -> dict[str, Any]:
    """One event as a JSON-ready dict with its ``type``."""
    return {"type": type(event).__name__, **encode(event)}


def event_from_dict(kinds: Mapping[str, type[T]], data: object) -> T:
    """Rebuild an event from :func:`event_to_dict`, its class one of ``kinds``; anything
    else raises :class:`CroupierError`."""
    if not isinstance(data, dict):
        raise CroupierError(f"an event is a dict, not {data!r}")
    kind = kinds.get(str(data.get("type")))
    if kind is None:
        raise CroupierError(f"unknown event type {data.get('type')!r}")
    try:
        event: T = decode(kind, {k: v for k, v in data.items() if k != "type"})
    except (KeyError, TypeError, ValueError) as error:
        raise CroupierError(f"not a {kind.__name__} event: {error}") from None
    return event


def encode(obj: Any) -> dict[str, Any]:
    """A dataclass as a JSON-ready dict, field by field.

    >>> from croupier.poker.views import PlayerView
    >>> encode(PlayerView(1, 90, 10, False, False, down=(Card.parse("As"), None)))
    {'seat': 1, 'stack': 90, 'bet': 10, 'folded': False, 'all_in': False, 'up': [], 'down': ['As', None]}
    """
    return {name: _plain(getattr(obj, name)) for name in _field_names(type(obj))}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_SCALARS = frozenset({int, str, bool, float, type(None)})


def _field_names(kind: type) -> tuple[str, ...]:
    """A dataclass's field names, looked up once per class (a server encodes views
    thousands of times a second)."""
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return names


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is Card:
        return str(value)
    if kind is tuple or kind is list:
        return [_plain(v) for v in value]
    if kind in _FIELD_NAMES:
        return encode(value)
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return encode(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def decode(kind: type[T], data: Any) -> T:
    """Rebuild a ``kind`` dataclass from :func:`encode`; a value of the wrong type, a
    missing key or an unknown one raises ``TypeError`` or ``KeyError``.

    >>> from croupier.poker.views import PlayerView
    >>> decode(PlayerView, {"seat": 1, "stack": 90, "bet": 10, "folded": False, "all_in": False, "up": [], "down": ["As", None]})
    PlayerView(seat=1, stack=90, bet=10, folded=False, all_in=False, up=(), down=(Card('As'), None))
    >>> decode(PlayerView, {"seat": "1"})
    Traceback (most recent call last):
    ...
    TypeError: expected int, not '1'
    """
    if not isinstance(data, dict):
        raise TypeError(f"{kind.__name__} must be a dict, not {data!r}")
    hints = typing.get_type_hints(kind)
    names = [f.name for f in dataclasses.fields(kind) if f.init]  # type: ignore[arg-type]
    unknown = set(data) - set(names)
    if unknown:
        raise TypeError(f"unknown key {sorted(unknown)[0]!r} in {kind.__name__}")
    values = {name: _typed(hints[name], data[name]) for name in names}
    return kind(**values)


def _typed(hint: Any, value: Any) -> Any:
    if hint is Card:
        if not isinstance(value, str):
            raise TypeError(f"a card is text, not {value!r}")
        return Card.parse(value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return decode(hint, value)
    if hint is bool or hint is int or hint is str:
        if type(value) is not hint:
            raise TypeError(f"expected {hint.__name__}, not {value!r}")
        return value
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise TypeError(f"expected a list, not {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_typed(args[0], v) for v in value)
        if len(args) != len(value):
            raise TypeError(f"expected {len(args)} items, not {value!r}")
        return tuple(_typed(a, v) for a, v in zip(args, value, strict=True))
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in args:
            return None
        real = [a for a in args if a is not type(None)]
        return _typed(real[0], value)
    raise TypeError(f"cannot read {hint!r}")  # pragma: no cover - every field type is above


class JsonView:
    """JSON both ways for a frozen view dataclass whose ``events`` field is a censored log
    of events (the subclass names their classes in ``_event_types``).

    >>> from croupier.poker import HandState, TableRules, SeatView
    >>> view = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=3).view_for(2)
    >>> SeatView.from_dict(json.loads(view.to_json())) == view
    True
    """

    _event_types: ClassVar[Mapping[str, type[Any]]]
    events: tuple[Any, ...]

    def describe_log(self) -> list[str]:
        """The log as lines of text."""
        return [e.describe() for e in self.events]

    def to_dict(
        self,
        *,
        event_dicts: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """A JSON-ready dict (cards as text, enums as their values, events tagged with
        their type). ``event_dicts``, when given, are the events already encoded (a server
        keeps each viewer's encoded log from one view to the next)."""
        data: dict[str, Any] = {}
        for name in _field_names(type(self)):
            if name == "events":
                data[name] = (
                    [event_to_dict(e) for e in self.events] if event_dicts is None else event_dicts
                )
                continue
            value = getattr(self, name)
            data[name] = _plain(value)
        return data

    def to_json(self) -> str:
        """The view as strict JSON text."""
        return json.dumps(self.to_dict(), allow_nan=False)

    @classmethod
    def from_dict(cls: type[V], data: dict[str, Any]) -> V:
        """Rebuild a view from :meth:`to_dict` (or parsed JSON); a malformed dict (a
        missing or unknown key, a value of the wrong type) raises :class:`CroupierError`.

        >>> from croupier.blackjack import SeatView
        >>> SeatView.from_dict({"player": "ann"})
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: not a seat view: missing 'phase'
        """
        try:
            if not isinstance(data, dict):
                raise TypeError(f"a dict, not {type(data).__name__}")
            view = decode(cls, {**data, "events": []})
            events = data["events"]
            if not isinstance(events, list):
                raise TypeError("events must be a list")
            logged = tuple(event_from_dict(cls._event_types, e) for e in events)
            return dataclasses.replace(view, events=logged)  # type: ignore[type-var]
        except (KeyError, TypeError, ValueError) as error:
            message = f"missing {error}" if isinstance(error, KeyError) else str(error)
            raise CroupierError(f"not a seat view: {message}") from None
