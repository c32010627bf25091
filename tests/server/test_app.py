"""The app end to end through FastAPI's TestClient: the real engine, bots and store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from server_support import db_url, hello, my_turn, receive_until, send, start_app, token_for

from croupier.server.protocol import MAX_MESSAGE_BYTES
from croupier.server.tables import TableConfig
from croupier.store import Store


def _hello(ws: Any, token: str | None) -> None:
    """Greet as ann (or, with no token, a spectator)."""
    assert hello(ws, token)["player"] == (None if token is None else "ann")


HEADS_UP = TableConfig("hu", seats=2, bots=1, bot_style="calling", bot_delay=0, time_bank=5)


def test_health_readiness_and_lobby(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    client = start_app(
        request, tmp_path, [TableConfig("t1", bots=2), TableConfig("o1", game="omaha", bots=0)]
    )
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["ready"] is True
    tables = client.get("/api/tables").json()["tables"]
    assert [(t["name"], t["game"], t["players"]) for t in tables] == [
        ("t1", "holdem", ["bot-1", "bot-2"]),
        ("o1", "omaha", []),
    ]
    assert tables[0]["free_seats"] == [3, 4, 5, 6]


def test_a_human_plays_hands_against_a_bot_to_the_end(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [HEADS_UP])
    token = token_for(client, "ann")
    finished: list[dict[str, Any]] = []
    with client.websocket_connect("/ws") as ws:
        _hello(ws, token)
        send(ws, {"type": "sit", "table": "hu"})
        assert receive_until(ws, "commitment")["hand"] == 1
        while len(finished) < 3:
            message = ws.receive_json()
            if message["type"] == "view" and message["view"]["legal"] is not None:
                legal = message["view"]["legal"]
                action = "check" if legal["check"] else "call"
                send(ws, {"type": "act", "table": "hu", "action": action, "hand": message["hand"]})
            elif message["type"] == "hand_finished":
                finished.append(message)
                if any(r["name"] == "ann" and r["stack"] == 0 for r in message["results"]):
                    send(ws, {"type": "sit", "table": "hu"})  # busted: buy in again
            assert message["type"] != "error", message
    assert [m["hand"] for m in finished] == [1, 2, 3]
    store = Store.open(db_url(tmp_path), create=False)
    assert store.verify().ok
    first = store.hand(finished[0]["hand_id"])
    assert first.commitment.digest == first.reveal.commitment.digest
    assert {name for _seat, name in first.players} == {"ann", "bot-1"}
    # the hand as ann may see it, and as a stranger may
    mine = client.get(
        f"/api/hands/{finished[0]['hand_id']}", headers={"Authorization": f"Bearer {token}"}
    )
    public = client.get(f"/api/hands/{finished[0]['hand_id']}")
    assert mine.status_code == public.status_code == 200
    assert mine.json()["viewer"]["name"] == "ann"
    assert public.json()["viewer"] == {"name": None, "seat": None}
    assert "HiddenCards" in json.dumps(public.json()["events"])
    assert public.json()["phh"].startswith('variant = "NT"')
    assert client.get("/api/hands/999").status_code == 404


def test_an_illegal_action_gets_the_rule_and_the_connection_carries_on(
    request: pytest.FixtureRequest,
    tmp_path: Path,
) -> None:
    client = start_app(request, tmp_path, [HEADS_UP])
    token = token_for(client, "ann")
    with client.websocket_connect("/ws") as ws:
        _hello(ws, token)
        send(ws, {"type": "sit", "table": "hu"})
        view = my_turn(ws)
        send(ws, {"type": "act", "table": "hu", "action": "raise to 100000"})
        error = receive_until(ws, "error")
        assert error["code"] == "illegal"
        assert error["rule"]
        assert error["rule"] in error["message"]
        assert error["allowed"]
        legal = view["view"]["legal"]
        send(ws, {"type": "act", "table": "hu", "action": "check" if legal["check"] else "call"})
        after = receive_until(ws, "view")
        assert after["hand"] == view["hand"]


def test_acting_out_of_turn_is_refused_by_the_engine(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    table = TableConfig("hu", seats=2, bots=1, bot_style="calling", bot_delay=0.5, time_bank=5)
    client = start_app(request, tmp_path, [table])
    token = token_for(client, "ann")
    with client.websocket_connect("/ws") as ws:
        _hello(ws, token)
        send(ws, {"type": "sit", "table": "hu"})
        while True:
            view = receive_until(ws, "view")
            if view["view"]["actor"] not in (None, view["view"]["seat"]):
                break
        send(ws, {"type": "act", "table": "hu", "action": "fold"})
        error = receive_until(ws, "error")
    assert error["code"] == "illegal"
    assert error["rule"] == "Omaha 17.3(c)"


def test_malformed_oversized_and_wrong_messages_get_errors(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [TableConfig("t1", bots=2)])
    token = token_for(client, "ann")
    with client.websocket_connect("/ws") as ws:
        _hello(ws, token)
        cases: list[tuple[str, str]] = [
            ("{not json", "bad_json"),
            ("[1, 2]", "invalid"),
            ('{"type": "dance"}', "invalid"),
            ('{"type": "sit", "table": "t1", "seat": "x"}', "invalid"),
            ('{"type": "sit", "table": "t1", "seat": 3.0}', "invalid"),  # strict: no coercion
            ('{"type": "act", "table": "t1", "action": "raise"}', "not_seated"),  # seat first
            ('{"type": "act", "table": "t1", "action": "fold"}', "not_seated"),
            ('{"type": "watch", "table": "nope"}', "no_table"),
            ('{"type": "hello", "token": null}', "already_greeted"),
            ("x" * (MAX_MESSAGE_BYTES + 1), "too_large"),
        ]
        for raw, code in cases:
            ws.send_text(raw)
            reply = ws.receive_json()
            assert reply["type"] == "error", raw
            assert reply["code"] == code, (raw, reply)
            assert reply["message"]
        send(ws, {"type": "watch", "table": "t1"})  # still connected and served
        send(ws, {"type": "leave", "table": "t1"})
        assert receive_until(ws, "error")["code"] == "not_seated"
        ws.send_bytes(b'{"type": "watch", "table": "t1"}')  # a binary frame: an error, no close
        binary = receive_until(ws, "error")
        assert binary["code"] == "invalid"
        assert "binary" in binary["message"]
        send(ws, {"type": "rebuy", "table": "t1", "amount": "1000"})
        assert receive_until(ws, "error")["code"] == "invalid"  # a string is no number


def test_spectators_only_watch(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    client = start_app(request, tmp_path, [TableConfig("t1", bots=2)])
    with client.websocket_connect("/ws") as ws:
        _hello(ws, None)
        send(ws, {"type": "sit", "table": "t1"})
        assert receive_until(ws, "error")["code"] == "unauthorized"


def test_the_first_message_must_be_a_hello(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    client = start_app(request, tmp_path, [])
    with client.websocket_connect("/ws") as ws:
        send(ws, {"type": "watch", "table": "t1"})
        assert ws.receive_json()["code"] == "hello_expected"


def test_a_connection_sending_too_fast_is_rate_limited(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [TableConfig("t1", bots=2)], rate=0.001, burst=3)
    token = token_for(client, "ann")
    with client.websocket_connect("/ws") as ws:
        _hello(ws, token)
        codes = []
        for _ in range(5):
            send(ws, {"type": "watch", "table": "nope"})
            codes.append(ws.receive_json()["code"])
    assert codes == ["no_table"] * 3 + ["rate_limited"] * 2


@pytest.mark.parametrize("game", ["omaha", "stud7", "draw", "manila"])
def test_every_kind_of_game_plays_over_the_socket(
    request: pytest.FixtureRequest, tmp_path: Path, game: str
) -> None:
    table = TableConfig(
        "g", game=game, seats=3, bots=2, bot_style="calling", bot_delay=0, time_bank=5
    )
    client = start_app(request, tmp_path, [table])
    token = token_for(client, "ann")
    with client.websocket_connect("/ws") as ws:
        _hello(ws, token)
        send(ws, {"type": "sit", "table": "g"})
        finished = 0
        while finished < 2:
            message = ws.receive_json()
            assert message["type"] != "error", message
            if message["type"] == "hand_finished":
                finished += 1
                if any(r["name"] == "ann" and r["stack"] == 0 for r in message["results"]):
                    send(ws, {"type": "sit", "table": "g"})  # busted: buy in again
            elif message["type"] == "view" and message["view"]["legal"] is not None:
                legal = message["view"]["legal"]
                if legal["discard"]:
                    action = "stand pat"
                elif legal["bring_in"] is not None:
                    action = f"bring in {legal['bring_in'][0]}"
                else:
                    action = "check" if legal["check"] else "call"
                send(ws, {"type": "act", "table": "g", "action": action})
    assert Store.open(db_url(tmp_path), create=False).verify().ok
