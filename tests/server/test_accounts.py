"""Accounts over HTTP and directly: register, log in, bad passwords, expired tokens."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from server_support import FAST_HASHER, PASSWORD, start_app, token_for
from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.server.accounts import Accounts, AuthError
from croupier.store import Store
from croupier.store.schema import AccountRow, TokenRow


def test_register_and_login_over_http(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    client = start_app(request, tmp_path, [])
    token = token_for(client, "ann")
    assert len(token) >= 40
    again = client.post("/api/register", json={"name": "ann", "password": PASSWORD})
    assert again.status_code == 409
    assert "taken" in again.json()["detail"]


def test_bad_password_and_unknown_name_are_refused_alike(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [])
    token_for(client, "ann")
    wrong = client.post("/api/login", json={"name": "ann", "password": "not-the-password"})
    nobody = client.post("/api/login", json={"name": "zed", "password": PASSWORD})
    assert wrong.status_code == nobody.status_code == 401
    assert wrong.json()["detail"] == nobody.json()["detail"] == "wrong name or password"


@pytest.mark.parametrize(
    "body",
    [{"name": "ann", "password": "short"}, {"name": "bad name!", "password": PASSWORD}, {}],
)
def test_malformed_credentials_are_a_422(
    request: pytest.FixtureRequest, tmp_path: Path, body: dict[str, str]
) -> None:
    assert start_app(request, tmp_path, []).post("/api/register", json=body).status_code == 422


def test_passwords_are_argon2_and_tokens_stored_hashed() -> None:
    engine = Store.open("sqlite:///:memory:").engine
    accounts = Accounts(engine, hasher=FAST_HASHER)
    accounts.register("ann", PASSWORD)
    token, _, _ = accounts.login("ann", PASSWORD)
    with Session(engine) as db:
        account = db.scalars(select(AccountRow)).one()
        stored = db.scalars(select(TokenRow)).one()
    assert account.password_hash.startswith("$argon2id$")
    assert PASSWORD not in account.password_hash
    assert stored.token_hash != token
    assert len(stored.token_hash) == 64


def test_tokens_expire_and_can_be_revoked() -> None:
    now = [datetime(2030, 1, 1, tzinfo=UTC)]
    accounts = Accounts(Store.open("sqlite:///:memory:").engine, hasher=FAST_HASHER, clock=lambda: now[0],
                        lifetime=timedelta(minutes=5))  # fmt: skip
    accounts.register("ann", PASSWORD)
    token, expires, _ = accounts.login("ann", PASSWORD)
    assert expires == now[0] + timedelta(minutes=5)
    now[0] += timedelta(minutes=4)
    assert accounts.authenticate(token).name == "ann"
    now[0] += timedelta(minutes=1)
    with pytest.raises(AuthError, match="expired"):
        accounts.authenticate(token)
    fresh, _, _ = accounts.login("ann", PASSWORD)
    accounts.logout(fresh)
    with pytest.raises(AuthError, match="unknown"):
        accounts.authenticate(fresh)


def test_an_expired_token_cannot_open_a_socket(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [], token_lifetime=timedelta(seconds=-1))
    token = token_for(client, "ann")
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "token": token})
        reply = ws.receive_json()
    assert reply["type"] == "error"
    assert reply["code"] == "unauthorized"
    assert "expired" in reply["message"]
