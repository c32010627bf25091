"""Rules and event logs as JSON text, both ways, for the store and its exports.

Event logs use the referees' own codec (:func:`croupier.poker.views.event_to_dict`,
:func:`croupier.blackjack.views.event_to_dict`: cards as text, each event tagged with its
class). Rules are written field by field: the game by name, a betting structure as its
name and amounts, fractions as text (``"1/20"``), enums as their values; reading them back
must give rules with the recorded fingerprint, or the JSON is refused.

>>> from croupier.poker import OMAHA, PotLimit, TableRules
>>> rules = TableRules(OMAHA, PotLimit(), blinds=(5, 10))
>>> rules_from_json("poker", rules_to_json(rules)) == rules
True
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from enum import Enum
from fractions import Fraction
from typing import Any

from croupier.blackjack import events as bj
from croupier.blackjack import views as bj_views
from croupier.blackjack.rules import BlackjackRules
from croupier.errors import CroupierError
from croupier.poker import events as pk
from croupier.poker import views as poker_views
from croupier.poker.games import GameSpec, game_by_name
from croupier.poker.settings import RaiseCap, Rake, ShortAllIn, TableRules
from croupier.poker.structures import STRUCTURES, BettingStructure, PotLimit
from croupier.store.errors import StoreCorruptError
from croupier.visitor import EventVisitor, event_classes, visits

__all__ = [
    "Rules",
    "events_from_json",
    "events_to_json",
    "game_kind",
    "rules_from_json",
    "rules_to_json",
]

Rules = TableRules | BlackjackRules
"""Either referee's rules."""


def game_kind(rules: object) -> str:
    """``"poker"`` or ``"blackjack"`` for a referee's rules.

    >>> from croupier.blackjack import NZ
    >>> game_kind(NZ), game_kind(TableRules())
    ('blackjack', 'poker')
    """
    if isinstance(rules, TableRules):
        return "poker"
    if isinstance(rules, BlackjackRules):
        return "blackjack"
    raise CroupierError(f"rules must be TableRules or BlackjackRules, not {rules!r}")


def _plain(value: Any) -> Any:
    if isinstance(value, GameSpec):
        return value.name
    if isinstance(value, BettingStructure):
        return {"name": value.name, **{f.name: _plain(getattr(value, f.name)) for f in
                                       dataclasses.fields(value)}}  # fmt: skip
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def rules_to_json(rules: Rules) -> str:
    """The rules as compact JSON text (keys sorted: the same rules, the same text).

    >>> from croupier.blackjack import NZ
    >>> json.loads(rules_to_json(NZ))["blackjack_pays"]
    '3/2'
    """
    game_kind(rules)
    return json.dumps(_plain(rules), sort_keys=True, separators=(",", ":"))


def _structure(data: Any) -> BettingStructure:
    if not isinstance(data, dict) or data.get("name") not in STRUCTURES:
        raise CroupierError(f"not a betting structure: {data!r}")
    kind = STRUCTURES[data["name"]]
    values = {k: v for k, v in data.items() if k != "name"}
    if kind is PotLimit and "ratio" in values:
        values["ratio"] = Fraction(values["ratio"])
    structure: BettingStructure = kind(**values)
    return structure


def _table_rules(data: dict[str, Any]) -> TableRules:
    values = dict(data)
    values["game"] = game_by_name(values["game"])
    values["structure"] = _structure(values["structure"])
    values["blinds"] = tuple(values["blinds"])
    rake = dict(values["rake"])
    rake["percent"] = Fraction(rake["percent"])
    values["rake"] = Rake(**rake)
    values["raise_cap"] = RaiseCap(**values["raise_cap"])
    values["short_all_in"] = ShortAllIn(**values["short_all_in"])
    return TableRules(**values)


def rules_from_json(kind: str, text: str, fingerprint: str | None = None) -> Rules:
    """Rules from :func:`rules_to_json` text (``kind`` ``"poker"`` or ``"blackjack"``); with
    ``fingerprint``, the rules read must have it. Anything else raises
    :class:`~croupier.store.errors.StoreCorruptError`.

    >>> rules_from_json("poker", rules_to_json(TableRules()), "0" * 16)
    Traceback (most recent call last):
    ...
    croupier.store.errors.StoreCorruptError: the rules JSON gives rules ... not the recorded 0000000000000000
    """
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise TypeError("rules JSON is an object")
        if kind == "poker":
            rules: Rules = _table_rules(data)
        elif kind == "blackjack":
            rules = BlackjackRules(**data)
        else:
            raise TypeError(f"unknown game kind {kind!r}")
    except (ValueError, TypeError, KeyError, ZeroDivisionError) as error:
        detail = f"missing {error}" if isinstance(error, KeyError) else str(error)
        raise StoreCorruptError(f"unreadable {kind} rules JSON: {detail}") from None
    if fingerprint is not None and rules.fingerprint != fingerprint:
        raise StoreCorruptError(
            f"the rules JSON gives rules {rules.fingerprint}, not the recorded {fingerprint}"
        )
    return rules


def events_to_json(events: Sequence[Any]) -> str:
    """An event log (poker or blackjack) as JSON text: a list of tagged events.

    >>> from croupier.poker import events as ev
    >>> events_to_json([ev.Folded(2)])
    '[{"type":"Folded","seat":2}]'
    """
    return json.dumps(_Rows().visit_all(events), separators=(",", ":"), allow_nan=False)


class _Rows(EventVisitor[list[dict[str, Any]]]):
    """Each event as its referee's codec writes it (the codec writes every event class
    of its game: a class the games do not list is refused)."""

    consumer = "the event log's JSON"
    reads = (pk, bj)

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    @visits(*event_classes(pk))
    def on_poker(self, event: pk.Event) -> None:
        self.rows.append(poker_views.event_to_dict(event))

    @visits(*event_classes(bj))
    def on_blackjack(self, event: bj.Event) -> None:
        self.rows.append(bj_views.event_to_dict(event))

    def result(self) -> list[dict[str, Any]]:
        return self.rows

    def unknown(self, event: object) -> None:
        if not isinstance(event, pk.Event | bj.Event):  # not even an event
            raise CroupierError(f"not a referee's event: {event!r}")
        super().unknown(event)


def events_from_json(kind: str, text: str) -> list[Any]:
    """The event log from :func:`events_to_json` text; anything else raises
    :class:`~croupier.store.errors.StoreCorruptError`.

    >>> events_from_json("poker", '[{"type":"Folded","seat":2}]')
    [Folded(seat=2)]
    >>> events_from_json("poker", '[{"type":"Folded","seat":"two"}]')
    Traceback (most recent call last):
    ...
    croupier.store.errors.StoreCorruptError: unreadable poker event log: event 0: not a Folded event: expected int, not 'two'
    """
    reader = {"poker": poker_views.event_from_dict, "blackjack": bj_views.event_from_dict}
    if kind not in reader:
        raise StoreCorruptError(f"unknown game kind {kind!r}")
    try:
        rows = json.loads(text)
    except ValueError as error:
        raise StoreCorruptError(f"unreadable {kind} event log: {error}") from None
    if not isinstance(rows, list):
        raise StoreCorruptError(f"unreadable {kind} event log: not a list")
    events: list[Any] = []
    for index, row in enumerate(rows):
        try:
            events.append(reader[kind](row))
        except CroupierError as error:
            raise StoreCorruptError(
                f"unreadable {kind} event log: event {index}: {error}"
            ) from None
    return events
