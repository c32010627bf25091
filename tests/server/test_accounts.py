"""Accounts over HTTP and directly: register, log in, bad passwords, expired tokens."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from server_support import FAST_HASHER, PASSWORD, start_app, token_for
from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.poker.settings import TableRules
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


@pytest.mark.parametrize("name", ["bot\u034f-1", "ad\u034fmin", "ann\ufe0f", "\u3164", "a\u3164b"])
def test_invisible_letters_and_marks_make_no_name(
    request: pytest.FixtureRequest, tmp_path: Path, name: str
) -> None:
    client = start_app(request, tmp_path, [])
    reply = client.post("/api/register", json={"name": name, "password": PASSWORD})
    assert reply.status_code == 422
    assert "not allowed" in reply.json()["detail"]


def test_a_name_the_store_already_plays_under_is_taken(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [])
    store = client.app.state.store  # type: ignore[attr-defined]
    store.sit(store.start_session(TableRules()), "you", 1, "human")  # a terminal game's player
    reply = client.post("/api/register", json={"name": "you", "password": PASSWORD})
    assert reply.status_code == 409
    assert "player in the store" in reply.json()["detail"]


def test_a_login_with_the_password_a_change_replaced_gets_no_token() -> None:
    accounts = Accounts(Store.open("sqlite:///:memory:").engine, hasher=FAST_HASHER)
    accounts.register("ann", PASSWORD)
    account_id, old_hash = accounts._check_password("ann", PASSWORD)  # a login half-way
    token, _, _ = accounts.login("ann", PASSWORD)
    accounts.change_password(token, PASSWORD, "a new password here")
    with pytest.raises(AuthError):  # its write finds the hash changed meanwhile
        accounts._open_session(account_id, old_hash, PASSWORD)
