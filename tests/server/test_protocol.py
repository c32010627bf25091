"""The message models: validation, the engine's action values, and docs/protocol.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from croupier.blackjack import actions as bj
from croupier.cards import parse_cards
from croupier.poker import Call, Discard, Fold, RaiseTo
from croupier.server.docgen import update_page
from croupier.server.protocol import (
    CLIENT_MESSAGES,
    MAX_MESSAGE_BYTES,
    SERVER_MESSAGES,
    Act,
    Hello,
    ProtocolError,
    Sit,
    parse_client,
    schemas,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_the_protocol_page_is_current() -> None:
    page = DOC.read_text()
    assert update_page(page) == page, "run: python -m croupier.server.docgen docs/protocol.md"


def test_the_page_documents_every_message() -> None:
    page = DOC.read_text()
    for model in (*CLIENT_MESSAGES, *SERVER_MESSAGES):
        assert f"[{model.__name__}](#{model.__name__.lower()})" in page, model.__name__
        assert f"### {model.__name__}\n" in page


def test_every_message_has_a_distinct_type_tag() -> None:
    tags = [m.model_json_schema()["properties"]["type"]["const"] for m in CLIENT_MESSAGES]
    tags += [m.model_json_schema()["properties"]["type"]["const"] for m in SERVER_MESSAGES]
    assert len(tags) == len(set(tags))
    assert json.loads(json.dumps(schemas()))  # plain JSON


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("fold", Fold()),
        ("call", Call()),
        ("raise to 40", RaiseTo(40)),
        ("cbr 40", RaiseTo(40)),
        ("discard 2c 7h", Discard(parse_cards("2c 7h"))),
    ],
)
def test_act_carries_the_engines_action_values(text: str, action: object) -> None:
    message = parse_client(json.dumps({"type": "act", "table": "t", "action": text}))
    assert isinstance(message, Act)
    assert message.to_action() == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("double", bj.Double()),
        ("wager 1 ann 10", None),
        ("insure 5", bj.Insure(5)),
        ("stand", bj.Stand()),
    ],
)
def test_act_at_a_blackjack_table_carries_blackjack_action_values(
    text: str, action: object
) -> None:
    message = parse_client(json.dumps({"type": "act", "table": "bj", "action": text}))
    assert isinstance(message, Act)
    parsed = message.to_action("blackjack")
    assert parsed == (bj.parse_action(text) if action is None else action)
    assert type(parsed).__module__ == "croupier.blackjack.actions"


def test_a_bad_blackjack_action_is_a_protocol_error_naming_the_verb() -> None:
    with pytest.raises(ProtocolError, match="unknown verb 'fold'") as caught:
        Act(table="bj", action="fold").to_action("blackjack")
    assert caught.value.code == "bad_action"
    # the table's short wager form needs the sender's box: only the table reads it
    with pytest.raises(ProtocolError, match="needs a box, a player and an amount"):
        Act(table="bj", action="wager 10").to_action("blackjack")


@pytest.mark.parametrize(
    ("raw", "code", "says"),
    [
        ("", "bad_json", "not JSON"),
        ("null", "invalid", "'type'"),
        ('{"type": "hello", "token": 5}', "invalid", "token"),
        ('{"type": "hello", "extra": 1}', "invalid", "extra"),
        ('{"type": "sit", "table": "no spaces allowed"}', "invalid", "table"),
        ('{"type": "act", "table": "t", "action": ""}', "invalid", "action"),
        ('{"type": "act", "table": "t", "action": "x", "hand": 0}', "invalid", "hand"),
        ('{"type": "spin"}', "invalid", "type"),
        ("x" * (MAX_MESSAGE_BYTES + 1), "too_large", "at most"),
        (b"\xff\xfe", "invalid", "binary frames are not accepted"),
    ],
)
def test_bad_messages_name_what_is_wrong(raw: str | bytes, code: str, says: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client(raw)
    assert caught.value.code == code
    assert says in str(caught.value)


def test_valid_messages_parse_to_their_models() -> None:
    assert parse_client('{"type": "hello"}') == Hello()
    assert parse_client('{"type": "sit", "table": "t", "seat": 2}') == Sit(table="t", seat=2)
