"""Helpers of the server tests: the real app over a SQLite store in ``tmp_path`` (no
mocks), accounts, sending and reading socket messages."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from croupier.server.app import create_app
from croupier.server.tables import TableConfig
from croupier.server.throttle import ThrottleSettings

FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
"""Argon2id with small costs (the algorithm and the code path are the real ones)."""
PASSWORD = "password-123"
LAX_THROTTLE = ThrottleSettings(registrations_per_address=10_000, login_per_address=10_000)
"""The tests register many accounts from one address (the test client's)."""


def db_url(tmp_path: Path) -> str:
    """The test's SQLite store."""
    return f"sqlite:///{tmp_path / 'store.db'}"


def start_app(
    request: pytest.FixtureRequest, tmp_path: Path, tables: list[TableConfig], **options: Any
) -> TestClient:
    """The real app over the test's store with ``tables``, stopped when the test ends."""
    options.setdefault("hasher", FAST_HASHER)
    options.setdefault("throttle", LAX_THROTTLE)
    options.setdefault("token_lifetime", timedelta(hours=1))
    client = TestClient(create_app(db_url(tmp_path), tables=tables, **options))
    client.__enter__()
    request.addfinalizer(lambda: client.__exit__(None, None, None))
    return client


def token_for(client: TestClient, name: str) -> str:
    """Register ``name`` and log in: the session token."""
    assert (
        client.post("/api/register", json={"name": name, "password": PASSWORD}).status_code == 201
    )
    reply = client.post("/api/login", json={"name": name, "password": PASSWORD})
    assert reply.status_code == 200
    token: str = reply.json()["token"]
    return token


def send(ws: Any, message: dict[str, Any]) -> None:
    ws.send_text(json.dumps(message))


def receive_until(ws: Any, kind: str, limit: int = 10_000) -> dict[str, Any]:
    """Read messages until one of type ``kind`` (the others are dropped)."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message in {limit}")


def log_length(message: dict[str, Any]) -> int:
    """How long the hand's log is after a view message (its events start at
    ``events_from``): a decision point's key."""
    return int(message["events_from"]) + len(message["view"]["events"])


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    """Greet the server (``token`` None: a spectator); the welcome, after checking that
    the lobby follows it."""
    send(ws, {"type": "hello", "token": token})
    welcome: dict[str, Any] = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    assert ws.receive_json()["type"] == "lobby"
    return welcome


def my_turn(ws: Any) -> dict[str, Any]:
    """Read up to a view in which the client is to act."""
    while True:
        view = receive_until(ws, "view")
        if view["view"]["legal"] is not None:
            return view
