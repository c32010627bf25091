"""The table server's messages, as pydantic v2 models: what a client sends, what it gets.

Every message is one JSON object with a ``type``. A client's first message on ``WS /ws``
is a :class:`Hello` (with a session token from ``POST /api/login``, or none to watch);
then it may :class:`Watch` a table, :class:`Sit` at one, :class:`Act` when the engine says
it is its turn, and :class:`Leave`. The server answers with :class:`Welcome`,
:class:`LobbyMessage`, :class:`CommitmentMessage` (before the first card of every hand),
:class:`ViewMessage` (the client's own :class:`~croupier.poker.views.SeatView`),
:class:`HandFinishedMessage` (with the deck reveal) and :class:`ErrorMessage` (naming the
engine's rule for an illegal action). ``docs/protocol.md`` documents them all, with the
JSON Schema :func:`schemas` generates.

>>> parse_client('{"type": "act", "table": "holdem-1", "action": "raise to 40"}')
Act(type='act', table='holdem-1', action='raise to 40', hand=None)
>>> parse_client('{"type": "act", "table": "holdem-1"}')
Traceback (most recent call last):
...
croupier.server.protocol.ProtocolError: invalid message: action: Field required
>>> ErrorMessage(code="illegal", message="no", rule="Omaha 17.3(c)").model_dump()["rule"]
'Omaha 17.3(c)'
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from croupier.blackjack.actions import Action as BlackjackAction
from croupier.blackjack.actions import parse_action as parse_blackjack_action
from croupier.errors import CroupierError, InvalidActionError, RuleViolationError
from croupier.poker.actions import Action as PokerAction
from croupier.poker.actions import parse_action as parse_poker_action

__all__ = [
    "CLIENT_MESSAGES",
    "LEGACY_MAX_PASSWORD",
    "MAX_MESSAGE_BYTES",
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "SERVER_MESSAGES",
    "Act",
    "ClientMessage",
    "CommitmentMessage",
    "Credentials",
    "ErrorMessage",
    "HandFinishedMessage",
    "HandVoidedMessage",
    "Hello",
    "Leave",
    "LobbyMessage",
    "LoginReply",
    "PasswordChange",
    "PlayerResult",
    "ProtocolError",
    "Rebuy",
    "Registration",
    "ServerMessage",
    "Sit",
    "SitIn",
    "SitOut",
    "TableInfo",
    "ViewMessage",
    "Watch",
    "Welcome",
    "parse_client",
    "read_server_message",
    "schemas",
]

MAX_MESSAGE_BYTES = 4096
"""The largest client message accepted (bytes of UTF-8 JSON); longer ones are refused."""

NAME = r"^[A-Za-z0-9_.-]{1,40}$"
"""What a table's name may be (an account's: :mod:`croupier.server.names`)."""


class ProtocolError(CroupierError):
    """A client message that is not valid JSON or not a valid message; ``code`` says which.

    >>> ProtocolError("bad_json", "not JSON").code
    'bad_json'
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        """A short machine-readable reason (``bad_json``, ``invalid``, ``too_large``...)."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _ClientMessage(BaseModel):
    """A message a client sends: validated strictly (a string where a number or a boolean
    belongs is invalid, never coerced)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# ------------------------------------------------------------------------ client -> server
class Hello(_ClientMessage):
    """The first message on a socket: the session token (None: a spectator only).

    >>> Hello(token="abc").token
    'abc'
    """

    type: Literal["hello"] = "hello"
    token: str | None = Field(default=None, max_length=200)


class Watch(_ClientMessage):
    """Watch a table: its views (the public one when not seated) follow.

    >>> Watch(table="holdem-1").table
    'holdem-1'
    """

    type: Literal["watch"] = "watch"
    table: str = Field(pattern=NAME)


class Sit(_ClientMessage):
    """Take a seat (None: any free seat) with ``buy_in`` chips (None: the table's buy-in).

    >>> Sit(table="holdem-1", seat=3).buy_in is None
    True
    """

    type: Literal["sit"] = "sit"
    table: str = Field(pattern=NAME)
    seat: int | None = Field(default=None, ge=1, le=10)
    buy_in: int | None = Field(default=None, ge=1)


class Leave(_ClientMessage):
    """Leave the table: at once between hands, else when the hand in play is over (the
    seat is folded or checked when its turn comes meanwhile).

    >>> Leave(table="holdem-1").type
    'leave'
    """

    type: Literal["leave"] = "leave"
    table: str = Field(pattern=NAME)


class Act(_ClientMessage):
    """Make an action for the client's own seat, in the engine's text form. Poker
    (:func:`~croupier.poker.actions.parse_action`): ``fold``, ``check``, ``call``,
    ``raise to 40``, ``cbr 40``, ``bring in 5``, ``discard 2c 7h``... Blackjack
    (:func:`~croupier.blackjack.actions.parse_action`, the player filled in by the
    server): ``wager 10`` (on the player's own box) or ``wager 3 10`` (backing box 3),
    ``hit``, ``stand``, ``double``, ``split``, ``surrender``, ``insure 5``, ``decline``,
    ``even money``. ``hand``, when given, is the hand (round) number the client means; an
    action for another hand is refused.

    >>> Act(table="t", action="call").to_action()
    Call()
    """

    type: Literal["act"] = "act"
    table: str = Field(pattern=NAME)
    action: str = Field(min_length=1, max_length=200)
    hand: int | None = Field(default=None, ge=1)

    def to_action(
        self, kind: Literal["poker", "blackjack"] = "poker"
    ) -> PokerAction | BlackjackAction:
        """The engine's action value, for a table of ``kind`` (raises
        :class:`ProtocolError` ``bad_action``). A blackjack table's short forms for a
        person (``wager 10``, ``withdraw``, ``deal``) name no box or player: the table
        reads those itself, with the sender's box, and here they are refused.

        >>> Act(table="t", action="raise").to_action()
        Traceback (most recent call last):
        ...
        croupier.server.protocol.ProtocolError: bad action 'raise': 'raise' needs an amount (e.g. 'raise 40')
        >>> Act(table="bj", action="double").to_action("blackjack")
        Double()
        """
        parse = parse_blackjack_action if kind == "blackjack" else parse_poker_action
        try:
            return parse(self.action)
        except InvalidActionError as error:
            raise ProtocolError("bad_action", str(error)) from None


class SitOut(_ClientMessage):
    """Keep the seat but skip the next hands (from the next hand on) until :class:`SitIn`.

    >>> SitOut(table="holdem-1").type
    'sit_out'
    """

    type: Literal["sit_out"] = "sit_out"
    table: str = Field(pattern=NAME)


class SitIn(_ClientMessage):
    """Be dealt in again after :class:`SitOut`.

    >>> SitIn(table="holdem-1").type
    'sit_in'
    """

    type: Literal["sit_in"] = "sit_in"
    table: str = Field(pattern=NAME)


class Rebuy(_ClientMessage):
    """Buy ``amount`` more chips (between hands: during a hand it waits for the hand's end);
    the stack may not pass the table's buy-in.

    >>> Rebuy(table="holdem-1", amount=500).amount
    500
    """

    type: Literal["rebuy"] = "rebuy"
    table: str = Field(pattern=NAME)
    amount: int = Field(ge=1, le=10**12)


AnyClientMessage = Hello | Watch | Sit | Leave | Act | SitOut | SitIn | Rebuy
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
"""Any client message, told apart by ``type``."""

_CLIENT: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


def parse_client(raw: str | bytes) -> AnyClientMessage:
    """Validate one client message; anything wrong raises :class:`ProtocolError` naming it.

    >>> parse_client("{oops")
    Traceback (most recent call last):
    ...
    croupier.server.protocol.ProtocolError: not JSON: Expecting property name enclosed in double quotes (at 1:2)
    >>> parse_client('{"type": "sit", "table": "t", "seat": 0}').__class__.__name__
    Traceback (most recent call last):
    ...
    croupier.server.protocol.ProtocolError: invalid message: seat: Input should be greater than or equal to 1
    """
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"message of {size} bytes: at most {MAX_MESSAGE_BYTES}")
    if isinstance(raw, bytes):
        raise ProtocolError(
            "invalid", "binary frames are not accepted: send each message as JSON text"
        )
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        where = (
            f" (at {error.lineno}:{error.colno})" if isinstance(error, json.JSONDecodeError) else ""
        )
        text = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
        raise ProtocolError("bad_json", f"not JSON: {text}{where}") from None
    if not isinstance(data, dict) or "type" not in data:
        raise ProtocolError("invalid", "invalid message: a JSON object with a 'type' is expected")
    try:
        return _CLIENT.validate_python(data, strict=True)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'][1:]) or 'type'}: {e['msg']}"
            for e in error.errors()
        )
        raise ProtocolError("invalid", f"invalid message: {problems}") from None


# ------------------------------------------------------------------------ server -> client
class TableInfo(_Message):
    """One table in the lobby.

    >>> TableInfo(name="t", game="holdem", structure="no limit", blinds=[5, 10], seats=6,
    ...           players=["bot-1"], free_seats=[2, 3, 4, 5, 6], buy_in=1000, hand=0).seats
    6
    """

    name: str
    game: str
    structure: str
    blinds: list[int]
    seats: int
    players: list[str]
    free_seats: list[int]
    buy_in: int
    hand: int
    """Hands dealt so far."""
    kind: Literal["poker", "blackjack"] = "poker"
    time_bank: float = 30.0
    """Seconds a player has to act."""
    host: str | None = None
    """The server process hosting the table (its URL), when several share a database."""


class Welcome(_Message):
    """The answer to :class:`Hello`: who the client is (None: a spectator).

    >>> Welcome(player=None).type
    'welcome'
    """

    type: Literal["welcome"] = "welcome"
    player: str | None
    seated: list[str] = []
    """The tables where the player already sits (a reconnection: their views follow)."""


class LobbyMessage(_Message):
    """The lobby: every table (also ``GET /api/tables``).

    >>> LobbyMessage(tables=[]).model_dump()
    {'type': 'lobby', 'tables': []}
    """

    type: Literal["lobby"] = "lobby"
    tables: list[TableInfo]


class CommitmentMessage(_Message):
    """The deck commitment of a hand, sent before its first card
    (:class:`~croupier.fairness.DeckCommitment`: SHA-256 of the order and a secret salt).

    >>> CommitmentMessage(table="t", hand=1, digest="ab" * 32).hand
    1
    """

    type: Literal["commitment"] = "commitment"
    table: str
    hand: int
    digest: str = Field(pattern=r"^[0-9a-f]{64}$")


class ViewMessage(_Message):
    """What the client may see of the hand now: ``view`` is
    :meth:`SeatView.to_dict <croupier.poker.views.SeatView>` (``seat`` None: the public
    view a spectator gets), except that its ``events`` are only the log's events from
    index ``events_from`` on: the client keeps the earlier ones from the views it had of
    this hand. A connection's first view of a hand (also after a reconnection, or a
    ``watch`` or ``sit``) has ``events_from`` 0, and so has a view whose earlier events
    changed (a showdown uncovers the cards dealt down).

    >>> message = ViewMessage(table="t", hand=1, view={"events": [{"type": "Folded", "seat": 3}]}, events_from=4)
    >>> message.events_from + len(message.view["events"])  # the log's length
    5
    """

    type: Literal["view"] = "view"
    table: str
    hand: int
    view: dict[str, Any]
    events_from: int = Field(default=0, ge=0)
    """The index in the hand's log of ``view["events"][0]``: the client replaces its log
    from there on with these events."""
    kind: Literal["poker", "blackjack"] = "poker"
    """Which engine's :class:`SeatView` ``view`` is."""
    time_left: float | None = None
    """Seconds the player to act has left (None: nobody waits on a person)."""
    commitment: str | None = None
    """The digest of the deal's commitment (the hand's deck; blackjack: the shoe's)."""
    names: dict[str, str] = {}
    """Who sits where: seat (poker) or box (blackjack) number → player name."""


class PlayerResult(_Message):
    """One seat's result in a finished hand.

    >>> PlayerResult(name="ann", seat=1, stack=120).stack
    120
    """

    name: str
    seat: int
    stack: int
    """Chips after the hand."""


class HandFinishedMessage(_Message):
    """A hand is over and recorded: its id in the store (``GET /api/hands/{id}``), the
    final stacks, and the deck reveal (order and salt) that proves the commitment.

    >>> HandFinishedMessage(table="t", hand=1, hand_id=7, results=[],
    ...                     reveal={"order": "", "salt": ""}).hand_id
    7
    """

    type: Literal["hand_finished"] = "hand_finished"
    table: str
    hand: int
    hand_id: int
    results: list[PlayerResult]
    reveal: dict[str, str] | None
    """The deck's order and salt (:meth:`DeckReveal.to_dict`); None for a blackjack round
    whose shoe is still in play (the shoe is revealed with the round that finishes it)."""
    kind: Literal["poker", "blackjack"] = "poker"
    commitment: str | None = None
    """The digest this reveal opens."""


class HandVoidedMessage(_Message):
    """A hand interrupted by a server crash was voided (the table's ``on_crash = "void"``):
    every wager went back, the stacks are as before the hand.

    >>> HandVoidedMessage(table="t", hand=3, reason="server restarted").hand
    3
    """

    type: Literal["hand_voided"] = "hand_voided"
    table: str
    hand: int
    reason: str


class ErrorMessage(_Message):
    """What was wrong with a client message; the connection carries on. ``rule`` is the
    engine's rule id for an illegal action, ``allowed`` what would have been legal.

    >>> ErrorMessage(code="bad_json", message="not JSON").rule is None
    True
    """

    type: Literal["error"] = "error"
    code: str
    message: str
    rule: str | None = None
    allowed: str | None = None

    @classmethod
    def refusing(cls, error: Exception, code: str | None = None) -> ErrorMessage:
        """The message for an action the engine refused with ``error``: the error's rule
        and what was allowed when it broke a rule. ``code`` defaults to ``illegal`` for a
        broken rule and ``bad_action`` for anything else.

        >>> from croupier.errors import IllegalActionError, InvalidActionError
        >>> ErrorMessage.refusing(IllegalActionError("Omaha 17.2(a)", "no check", "fold")).code
        'illegal'
        >>> ErrorMessage.refusing(InvalidActionError("not an action"), "refused").rule is None
        True
        """
        match error:
            case RuleViolationError(rule=rule, allowed=allowed):
                return cls(code=code or "illegal", message=str(error), rule=rule, allowed=allowed)
            case _:
                return cls(code=code or "bad_action", message=str(error))


ServerMessage = Annotated[
    Welcome
    | LobbyMessage
    | CommitmentMessage
    | ViewMessage
    | HandFinishedMessage
    | HandVoidedMessage
    | ErrorMessage,
    Field(discriminator="type"),
]
"""Any server message, told apart by ``type``."""

_SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def read_server_message(text: str | bytes) -> Any:
    """One server message read back from the JSON text a socket sent (a client's, or a
    test's, check of what went out); a text that is no server message raises pydantic's
    ``ValidationError``.

    >>> read_server_message('{"type":"hand_voided","table":"t","hand":2,"reason":"crash"}').hand
    2
    """
    return _SERVER.validate_json(text)


# ------------------------------------------------------------------------ HTTP bodies
MIN_PASSWORD = 12
"""The shortest password a registration or a change accepts (OWASP ASVS 2.1.1)."""
MAX_PASSWORD = 128
"""The longest new password (ASVS 2.1.2); anything between is allowed, spaces too."""
LEGACY_MAX_PASSWORD = 200
"""The longest password a login or a change's old password takes (an earlier server's
accounts may have one of up to 200 characters)."""


class Credentials(_ClientMessage):
    """The body of ``POST /api/login``.

    >>> Credentials(name="ann", password="correct horse").name
    'ann'
    """

    name: str = Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]+$")
    """The account's name, no control characters (registration checks the rest:
    :func:`~croupier.server.names.check_name`)."""
    password: str = Field(min_length=1, max_length=LEGACY_MAX_PASSWORD)
    """Any password up to :data:`LEGACY_MAX_PASSWORD` logs in (an earlier server took up
    to 200 characters); a new one is :data:`MIN_PASSWORD` to :data:`MAX_PASSWORD`."""


class Registration(Credentials):
    """The body of ``POST /api/register``: a name and a password of
    :data:`MIN_PASSWORD` to :data:`MAX_PASSWORD` characters.

    >>> Registration(name="ann", password="short")
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for Registration
    password
      String should have at least 12 characters [type=string_too_short, input_value='short', input_type=str]
    ...
    """

    password: str = Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)


class PasswordChange(_ClientMessage):
    """The body of ``POST /api/password``: the password now and the new one.

    >>> PasswordChange(old_password="correct horse", new_password="battery staple").new_password
    'battery staple'
    """

    old_password: str = Field(min_length=1, max_length=LEGACY_MAX_PASSWORD)
    new_password: str = Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)


class LoginReply(_Message):
    """The answer to ``POST /api/login``: the session token and when it expires (ISO 8601).

    >>> LoginReply(token="t", expires_at="2030-01-01T00:00:00+00:00").token
    't'
    """

    token: str
    expires_at: str


CLIENT_MESSAGES: tuple[type[BaseModel], ...] = (Hello, Watch, Sit, Leave, Act, SitOut, SitIn, Rebuy)
"""The client messages, in the order docs/protocol.md lists them."""
SERVER_MESSAGES: tuple[type[BaseModel], ...] = (
    Welcome,
    LobbyMessage,
    CommitmentMessage,
    ViewMessage,
    HandFinishedMessage,
    HandVoidedMessage,
    ErrorMessage,
)
"""The server messages, in the order docs/protocol.md lists them."""


def schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of every message and HTTP body, by model name (for docs/protocol.md).

    >>> schemas()["Act"]["required"]
    ['table', 'action']
    """
    models: tuple[type[BaseModel], ...] = (
        *CLIENT_MESSAGES,
        *SERVER_MESSAGES,
        Credentials,
        Registration,
        PasswordChange,
        LoginReply,
        TableInfo,
    )
    return {m.__name__: m.model_json_schema() for m in models}
