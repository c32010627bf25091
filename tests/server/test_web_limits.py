"""Limits of the HTTP side: large bodies refused unread, no seeded table over the admin
API, the hello's deadline, and no cache of an API answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from server_support import start_app, token_for

from croupier.server import app as app_module
from croupier.server.tables import TableConfig
from croupier.server.web_security import MAX_BODY


def test_a_body_over_the_limit_is_refused_unread(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [])
    huge = {"name": "ann", "password": "x" * (MAX_BODY + 1)}
    reply = client.post("/api/register", json=huge)
    assert reply.status_code == 413
    assert str(MAX_BODY) in reply.json()["detail"]
    assert reply.headers["x-frame-options"] == "DENY"
    assert (
        client.post("/api/register", json={"name": "ann", "password": "x" * 20}).status_code == 201
    )


def test_api_answers_are_not_cached_and_pages_may_be(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [])
    assert client.get("/api/tables").headers["cache-control"] == "no-store"
    assert "cache-control" not in client.get("/static/app.js").headers


def test_the_admin_api_opens_no_seeded_table(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [])
    boss = {"Authorization": f"Bearer {token_for(client, 'boss')}"}
    client.app.state.accounts.grant("boss", actor="the test")  # type: ignore[attr-defined]
    seeded = client.post("/api/admin/tables", json={"name": "s", "seed": 7}, headers=boss)
    assert seeded.status_code == 422
    assert "seed" in seeded.json()["detail"]
    assert client.get("/api/tables").json()["tables"] == []
    entries = client.get("/api/admin/audit", headers=boss).json()["entries"]
    assert entries[1]["action"] == "open_table"
    assert "seed" in entries[1]["detail"]["refused"]


def test_a_socket_that_sends_no_hello_is_closed(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_module, "HELLO_TIMEOUT", 0.2)
    client = start_app(request, tmp_path, [TableConfig("t", bots=2)])
    with client.websocket_connect("/ws") as ws:
        reply = ws.receive_json()  # sent nothing
        assert reply["code"] == "hello_expected"
        assert "no hello within" in reply["message"]


def test_serve_warns_of_a_seeded_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from croupier.cli.app import main

    tables = tmp_path / "tables.toml"
    tables.write_text('[[table]]\nname = "t"\nseed = 3\n[[table]]\nname = "u"\n')
    db = f"sqlite:///{tmp_path / 'room.db'}"
    assert main(["serve", "--check", "--port", "0", "--db", db, "--tables", str(tables)]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert warnings == [
        "croupier: warning: table t is seeded: whoever knows the seed knows every deck (tests only)"
    ]
