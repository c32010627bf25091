"""The card room's table life: reconnection, sitting out, rebuying, the admin API and
the stats, through the real app and socket over a SQLite store."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from server_support import (
    db_url,
    hello,
    log_length,
    my_turn,
    receive_until,
    send,
    start_app,
    token_for,
)

from croupier.server.tables import TableConfig
from croupier.store import Store

HEADS_UP = TableConfig("hu", seats=3, bots=1, bot_style="calling", bot_delay=0, time_bank=30)


def test_a_reconnection_restores_the_full_seat_view(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [HEADS_UP])
    token = token_for(client, "ann")
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, token)["seated"] == []
        send(ws, {"type": "sit", "table": "hu"})
        before = my_turn(ws)
    # the socket is gone mid-hand; a new one with the same token gets the seat back
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, token)["seated"] == ["hu"]
        again = receive_until(ws, "view")
        assert again["hand"] == before["hand"]
        # the whole log again (the new socket has none of it), at least what it had
        assert again["events_from"] == 0
        assert len(again["view"]["events"]) >= log_length(before) > 0
        mine = next(p for p in again["view"]["players"] if p["seat"] == again["view"]["seat"])
        old = next(p for p in before["view"]["players"] if p["seat"] == before["view"]["seat"])
        assert mine["down"] == old["down"]
        assert None not in mine["down"]
        assert again["view"]["legal"] == before["view"]["legal"]
        assert again["time_left"] is not None
        assert 0 < again["time_left"] <= 30
        assert again["commitment"] == before["commitment"] is not None
        assert again["names"][str(again["view"]["seat"])] == "ann"
        legal = again["view"]["legal"]
        send(ws, {"type": "act", "table": "hu", "action": "check" if legal["check"] else "call"})
        assert receive_until(ws, "view")["hand"] == before["hand"]
    # a closed socket leaves nothing behind at the table: not a listener, not a log count
    runner = client.app.state.runners["hu"]  # type: ignore[attr-defined]
    deadline = time.monotonic() + 10
    while runner.listeners and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not runner.listeners
    assert runner._sent == {}


def test_sitting_out_skips_hands_and_sitting_in_comes_back(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    table = TableConfig("t3", seats=4, bots=2, bot_style="calling", bot_delay=0, time_bank=30)
    client = start_app(request, tmp_path, [table])
    token = token_for(client, "ann")
    with client.websocket_connect("/ws") as ws:
        hello(ws, token)
        send(ws, {"type": "sit", "table": "t3"})
        view = my_turn(ws)
        send(ws, {"type": "sit_out", "table": "t3"})
        legal = view["view"]["legal"]
        send(
            ws, {"type": "act", "table": "t3", "action": "fold" if not legal["check"] else "check"}
        )
        # play on until a hand is dealt without ann (she is seated, not dealt in)
        while True:
            message = ws.receive_json()
            assert message["type"] != "error", message
            if message["type"] == "view" and message["view"]["legal"] is not None:
                legal = message["view"]["legal"]
                send(
                    ws,
                    {"type": "act", "table": "t3", "action": "check" if legal["check"] else "call"},
                )
            if message["type"] == "view" and message["view"]["seat"] is None:
                break
        send(ws, {"type": "sit_in", "table": "t3"})
        assert client.get("/api/tables").json()["tables"][0]["players"].count("ann") == 1
        # she is dealt in again within a few hands (the rules may make her wait for the blind)
        for _ in range(5000):
            message = ws.receive_json()
            if message["type"] == "view" and message["view"]["seat"] is not None:
                break
        else:
            raise AssertionError("ann was never dealt in again")


def test_a_rebuy_is_capped_at_the_buy_in_and_recorded(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [HEADS_UP])
    token = token_for(client, "ann")
    with client.websocket_connect("/ws") as ws:
        hello(ws, token)
        send(ws, {"type": "sit", "table": "hu"})
        my_turn(ws)
        send(ws, {"type": "rebuy", "table": "hu", "amount": 10**6})
        error = receive_until(ws, "error")
        assert error["code"] == "refused"
        assert "at most 1000" in error["message"]
        send(ws, {"type": "rebuy", "table": "hu", "amount": 0})
        assert receive_until(ws, "error")["code"] == "invalid"
    store = Store.open(db_url(tmp_path), create=False)
    session = store.sessions()[0]
    assert store.balances(session)["ann"] == 1000  # nothing half-applied


def test_the_admin_api_opens_and_closes_tables(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [HEADS_UP])
    boss = {"Authorization": f"Bearer {token_for(client, 'boss')}"}
    client.app.state.accounts.grant("boss", actor="the test")  # type: ignore[attr-defined]
    ann = {"Authorization": f"Bearer {token_for(client, 'ann')}"}
    spec = {"name": "new-1", "game": "omaha", "structure": "pot-limit", "bots": 2}
    assert client.post("/api/admin/tables", json=spec).status_code == 401
    assert client.post("/api/admin/tables", json=spec, headers=ann).status_code == 403
    made = client.post("/api/admin/tables", json=spec, headers=boss)
    assert made.status_code == 201
    assert made.json()["game"] == "omaha"
    assert client.post("/api/admin/tables", json=spec, headers=boss).status_code == 409
    bad = client.post("/api/admin/tables", json={"name": "x", "seats": "six"}, headers=boss)
    assert bad.status_code == 422
    assert "seats" in bad.json()["detail"]
    names = [t["name"] for t in client.get("/api/tables").json()["tables"]]
    assert names == ["hu", "new-1"]
    assert client.get("/readyz").json()["ready"] is True
    assert client.get("/api/admin/ledger", headers=boss).json() == {"ok": True, "problems": []}
    assert client.delete("/api/admin/tables/none", headers=boss).status_code == 404
    assert client.delete("/api/admin/tables/new-1", headers=boss).json()["closing"] is True
    assert client.get("/api/admin/audit", headers=ann).status_code == 403
    entries = client.get("/api/admin/audit", headers=boss).json()["entries"]
    acts = [(e["actor"], e["action"], e["target"]) for e in entries]
    assert acts == [
        ("the test", "grant", "boss"),
        ("ann", "denied", "admin API"),  # a player's try is kept too
        ("boss", "open_table", "new-1"),
        ("boss", "open_table", "new-1"),  # refused: already open
        ("boss", "open_table", "x"),  # refused: bad settings
        ("boss", "read_ledger", "ledger"),
        ("boss", "close_table", "none"),  # refused: no such table
        ("boss", "close_table", "new-1"),  # ann's second refused try: within the minute
        ("boss", "read_audit", "audit"),
    ]
    assert "refused" in entries[3]["detail"]
    assert "refused" not in entries[2]["detail"]


def test_the_stats_count_actions_and_their_latency(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [HEADS_UP])
    token = token_for(client, "ann")
    with client.websocket_connect("/ws") as ws:
        hello(ws, token)
        send(ws, {"type": "sit", "table": "hu"})
        for _ in range(3):
            view = my_turn(ws)
            legal = view["view"]["legal"]
            send(ws, {"type": "act", "table": "hu", "action": "check" if legal["check"] else "call",
                      "hand": view["hand"]})  # fmt: skip
            receive_until(ws, "view")
    stats = client.get("/api/stats").json()
    assert stats["actions"] >= 3
    assert stats["latency_ms"]["count"] >= 3
    assert (
        0 <= stats["latency_ms"]["p50"] <= stats["latency_ms"]["p99"] <= stats["latency_ms"]["max"]
    )
    # ?since=N: the actions after the first N
    count = stats["latency_ms"]["count"]
    later = client.get("/api/stats", params={"since": 1}).json()
    assert later["latency_ms"]["count"] == count - 1
    none = client.get("/api/stats", params={"since": stats["actions"]}).json()
    assert none["latency_ms"]["count"] == 0
    for bad in ("-1", "x", "1.5", ""):
        refused = client.get("/api/stats", params={"since": bad})
        assert refused.status_code == 422, bad
        assert "since" in str(refused.json()["detail"]), refused.json()


def test_views_carry_only_new_events_and_add_up_to_the_hands_log(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Each view has the log from ``events_from`` on; what a client puts together is, at
    the end of every hand, the log the API gives that player for the recorded hand."""
    client = start_app(request, tmp_path, [HEADS_UP])
    token = token_for(client, "ann")
    logs: dict[int, list[dict[str, Any]]] = {}
    starts: list[int] = []
    checked = 0
    with client.websocket_connect("/ws") as ws:
        hello(ws, token)
        send(ws, {"type": "sit", "table": "hu"})
        while checked < 3:
            message = ws.receive_json()
            assert message["type"] != "error", message
            if message["type"] == "view":
                known = logs.get(message["hand"], [])
                start = message["events_from"]
                assert 0 <= start <= len(known)
                logs[message["hand"]] = known[:start] + message["view"]["events"]
                starts.append(start)
                legal = message["view"]["legal"]
                if legal is not None:
                    action = "check" if legal["check"] else "call"
                    send(ws, {"type": "act", "table": "hu", "action": action})
            elif message["type"] == "hand_finished":
                record = client.get(
                    f"/api/hands/{message['hand_id']}",
                    headers={"Authorization": f"Bearer {token}"},
                ).json()
                assert logs[message["hand"]] == record["events"]
                checked += 1
                if any(r["name"] == "ann" and r["stack"] == 0 for r in message["results"]):
                    send(ws, {"type": "sit", "table": "hu"})
    assert any(start > 0 for start in starts)  # not the whole log every time
