"""What a table sends its listeners, as JSON text encoded once with orjson.

After every action a table sends each listener a :class:`~croupier.server.protocol.ViewMessage`
with its own view. A :class:`ViewFrame` holds what one broadcast's messages share (the
table, the hand, the clock, the commitment, who sits where, the spectator's view) and
writes each listener's message: the engine's frozen view dataclasses go to orjson as
they are (records, enums and tuples encoded in C), the events of the log the listener has
not had yet tagged with their ``type``. :func:`message_text` encodes any other server
message once for every listener it goes to. The text is what
``ViewMessage(...).model_dump_json()`` would write (a test compares them for every game,
viewer and step); nothing depends on the engine keeping unchanged records as the same
objects.

>>> from croupier.poker import HandState, TableRules
>>> from croupier.server.protocol import read_server_message
>>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=3)
>>> frame = ViewFrame(hand.view_for(None), table="t", hand=1, kind="poker", time_left=None,
...                   commitment=None, names={"1": "ann", "2": "bo"})
>>> view = hand.view_for(1)
>>> message = read_server_message(frame.message(view, events_from=0))
>>> message.view == view.to_dict(), message.names["2"]
(True, 'bo')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal

import orjson
from pydantic import BaseModel

from croupier.cards.card import Card
from croupier.codec import JsonView

__all__ = ["ViewFrame", "message_text"]


_CARD_TEXTS = tuple(str(Card(i)) for i in range(52))
"""Each card's text by index (orjson asks for one per card it meets)."""


def _card_text(value: object) -> str:
    """What orjson cannot encode by itself: a card is its text."""
    if type(value) is Card:
        return _CARD_TEXTS[value.index]
    raise TypeError(f"cannot send {type(value).__name__} to a client")


def _dumps(value: object) -> str:
    return orjson.dumps(value, default=_card_text).decode()


def message_text(message: BaseModel) -> str:
    """A pydantic server message as the JSON text a socket sends (encoded once however
    many listeners it goes to).

    >>> from croupier.server.protocol import HandVoidedMessage
    >>> message_text(HandVoidedMessage(table="t", hand=2, reason="crash"))
    '{"type":"hand_voided","table":"t","hand":2,"reason":"crash"}'
    """
    return message.model_dump_json()


_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(kind: type) -> tuple[str, ...]:
    """A dataclass's field names, looked up once per class."""
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return names


def _tagged(event: object) -> dict[str, Any]:
    """An event as the protocol sends it: its fields, tagged with its class's name (an
    event's ``__dict__`` is its fields, read at C speed, unless it holds anything else)."""
    kind = type(event)
    names = _fields(kind)
    held = getattr(event, "__dict__", None)
    if held is not None and len(held) == len(names):
        return {"type": kind.__name__, **held}
    return {"type": kind.__name__, **{n: getattr(event, n) for n in names}}


@dataclasses.dataclass(frozen=True, slots=True)
class ViewFrame:
    """One broadcast's view messages: the parts every listener's message shares, and
    :meth:`message` to write one listener's.

    >>> ViewFrame.FIELDS[:4]
    ('type', 'table', 'hand', 'view')
    """

    shared: JsonView
    """The view everyone may see (the spectator's)."""
    table: str
    hand: int
    kind: Literal["poker", "blackjack"]
    time_left: float | None
    commitment: str | None
    names: Mapping[str, str]

    FIELDS = (
        "type",
        "table",
        "hand",
        "view",
        "events_from",
        "kind",
        "time_left",
        "commitment",
        "names",
    )
    """The fields of :class:`~croupier.server.protocol.ViewMessage`, in the order written."""

    def message(self, view: JsonView, events_from: int) -> str:
        """The view message of ``view`` as JSON text, carrying the events of its log from
        index ``events_from`` on (those the listener has not had yet)."""
        body = {name: getattr(view, name) for name in _fields(type(view))}
        body["events"] = [_tagged(e) for e in view.events[events_from:]]
        return _dumps(
            {
                "type": "view",
                "table": self.table,
                "hand": self.hand,
                "view": body,
                "events_from": events_from,
                "kind": self.kind,
                "time_left": None if self.time_left is None else float(self.time_left),
                "commitment": self.commitment,
                "names": dict(self.names),
            }
        )
