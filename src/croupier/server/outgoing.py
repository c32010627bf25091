"""View messages encoded once per broadcast: what a table queues for its listeners.

After every action a table sends each listener a :class:`~croupier.server.protocol.ViewMessage`
with its own view. The views of one broadcast share almost everything (the board, the
pots, every seat but the viewer's own), so a :class:`ViewFrame` encodes the shared parts
once, as JSON text, and splices each listener's message from them
(:class:`~croupier.codec.ViewSplicer`). A :class:`Prepared` message is that text; the
socket writer sends it as it is (``model_dump_json`` gives the text, as a pydantic
message's does), and :meth:`Prepared.model` reads it back into the pydantic model.

>>> from croupier.poker import HandState, TableRules
>>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=3)
>>> frame = ViewFrame(hand.view_for(None), table="t", hand=1, kind="poker", time_left=None,
...                   commitment=None, names={"1": "ann", "2": "bo"})
>>> view = hand.view_for(1)
>>> message = frame.message(view, [codec.event_text(e) for e in view.events], 0).model()
>>> message.view == view.to_dict(), message.names["2"]
(True, 'bo')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import TypeAdapter

from croupier import codec
from croupier.server.protocol import ServerMessage

__all__ = ["Prepared", "ViewFrame"]

_SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(ServerMessage)


class Prepared:
    """A server message already encoded as JSON text.

    >>> Prepared("view", '{"type":"view"}').model_dump_json()
    '{"type":"view"}'
    """

    __slots__ = ("text", "type")

    def __init__(self, type: str, text: str) -> None:
        self.type = type
        """The message's ``type`` (``view``)."""
        self.text = text

    def model_dump_json(self) -> str:
        """The text (the socket writer calls this on every message it sends)."""
        return self.text

    def model(self) -> Any:
        """The pydantic message the text is (validated: a test's check of what was sent)."""
        return _SERVER_MESSAGE.validate_json(self.text)

    def __repr__(self) -> str:
        return f"Prepared({self.type!r}, {self.text[:60]!r}...)"


class ViewFrame:
    """One broadcast's view messages: the parts every listener's message shares (the
    table, the hand, the clock, the commitment, who sits where, and the shared view's
    text), and :meth:`message` to splice one listener's message. ``records`` is the
    memo of records' texts kept from one broadcast of the hand to the next
    (:class:`~croupier.codec.ViewSplicer`).

    The messages are those :class:`~croupier.server.protocol.ViewMessage` would write for
    the same values (a test compares them field by field).
    """

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
    """The fields of :class:`ViewMessage`, in the order written."""

    def __init__(
        self,
        shared: codec.JsonView,
        *,
        table: str,
        hand: int,
        kind: Literal["poker", "blackjack"],
        time_left: float | None,
        commitment: str | None,
        names: Mapping[str, str],
        records: dict[int, tuple[Any, str]] | None = None,
    ) -> None:
        self.shared = shared
        """The view everyone may see (the spectator's): what the others' views share."""
        memo = {} if records is None else records
        self._splicer = codec.ViewSplicer(shared, memo)

        def text(value: str | None) -> str:  # the same text objects every broadcast
            return "null" if value is None else codec.made_once(value, memo, codec.json_text)

        clock = "null" if time_left is None else repr(float(time_left))
        # a runner passes the same map while nobody sits down or leaves: encoded once
        names_text = codec.made_once(names, memo, lambda n: codec.json_text(dict(n)))
        self._head = f'{{"type":"view","table":{text(table)},"hand":{int(hand)},"view":'
        self._tail = (
            f',"kind":{text(kind)},"time_left":{clock},'
            f'"commitment":{text(commitment)},"names":{names_text}}}'
        )

    def message(self, view: codec.JsonView, events: Sequence[str], events_from: int) -> Prepared:
        """The view message of ``view``, carrying the events' texts ``events`` (the log from
        index ``events_from`` on)."""
        body = self._splicer.text(view, events)
        return Prepared("view", f'{self._head}{body},"events_from":{int(events_from)}{self._tail}')
