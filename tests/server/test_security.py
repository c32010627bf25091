"""The card room's security (issue 24), against a real ``croupier serve`` process: a house
bot's name is nobody's account and a legacy account named like one plays for no bot; the
admin role is granted, never squatted; password guesses are throttled; other sites' pages
cannot open the WebSocket and every page carries the security headers; a logout closes the
sockets of the tokens it revokes; look-alike names are one name; client messages are
strict and a client that never reads is dropped.

The room's store is a legacy one (schema revision 0001 with the server's own account
tables, as a server before keyed names wrote it) holding ``bot-1`` and the case twins
``alice`` and ``Alice``: the server migrates it when it starts. Each test that counts
failed logins or registrations sends them from an address of its own (127.0.0.x), so the
per-address throttles of the tests never meet."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

import httpx
from room_process import PASSWORD, ServerProcess, free_port
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from croupier.cli.app import main
from croupier.server.accounts import Accounts
from croupier.store import Store
from croupier.store.connect import MIGRATIONS, resolve_url
from croupier.store.connect import connect as connect_store

FRIEND = "http://friend.example"
"""The origin ``--allowed-origin`` lets in."""
ALICE_PASSWORD = "alice-lower-secret"
TWIN_PASSWORD = "alice-upper-secret"
LEGACY = [("bot-1", PASSWORD), ("alice", ALICE_PASSWORD), ("Alice", TWIN_PASSWORD)]
"""The accounts of the legacy store, oldest first: (name, password)."""

ROOM_TABLES = """
[[table]]
name = "idle"
game = "holdem"
seats = 4
bots = 2

[[table]]
name = "busy"
game = "holdem"
seats = 4
bots = 3
bot_delay = 0.05
play_without_humans = true
"""
"""``idle`` waits for a person (its bots' chips stay as they are); ``busy`` deals hand
after hand among its bots."""

SMALL_TABLES = '[[table]]\nname = "quiet"\nbots = 2\n'

FLOOD_TABLES = """
[[table]]
name = "flood"
game = "holdem"
seats = 6
bots = 6
bot_delay = 0
play_without_humans = true
"""


# ------------------------------------------------------------------------ the servers
@dataclass
class Room:
    """A running server over ``db``; ``startup`` is what it printed before serving."""

    server: ServerProcess
    db: str
    startup: str

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def ws(self) -> str:
        return self.server.url.replace("http", "ws", 1) + "/ws"


def legacy_store(url: str, accounts: list[tuple[str, str]]) -> None:
    """Make the store an earlier server left: the schema of revision 0001, plus the
    server's own ``server_accounts`` (no name key) and ``server_tokens``, made outside
    the migrations, holding ``accounts`` (name, password) in that order."""
    from alembic import command
    from alembic.config import Config
    from argon2 import PasswordHasher

    hasher = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    engine = connect_store(resolve_url(url))
    try:
        with engine.connect() as connection:
            connection.execution_options(croupier_write=True)
            with connection.begin():
                config = Config()
                config.set_main_option("script_location", str(MIGRATIONS))
                config.attributes["connection"] = connection
                command.upgrade(config, "0001")
                connection.exec_driver_sql(
                    "CREATE TABLE server_accounts (id INTEGER NOT NULL PRIMARY KEY, "
                    "name VARCHAR(40) NOT NULL UNIQUE, password_hash VARCHAR(200) NOT NULL, "
                    "created_at DATETIME NOT NULL)"
                )
                connection.exec_driver_sql(
                    "CREATE TABLE server_tokens (token_hash VARCHAR(64) NOT NULL PRIMARY KEY, "
                    "account_id INTEGER NOT NULL REFERENCES server_accounts (id), "
                    "expires_at DATETIME NOT NULL)"
                )
                for name, password in accounts:
                    connection.exec_driver_sql(
                        "INSERT INTO server_accounts (name, password_hash, created_at) "
                        "VALUES (?, ?, '2025-01-01 00:00:00.000000')",
                        (name, hasher.hash(password)),
                    )
            revision = connection.exec_driver_sql("SELECT version_num FROM alembic_version")
            assert revision.scalar() == "0001"
    finally:
        engine.dispose()


def start_room(directory: Path, tables: str, *options: str, db: str | None = None) -> Room:
    """``croupier serve`` over a store in ``directory`` with ``tables``."""
    directory.mkdir(parents=True, exist_ok=True)
    url = db or f"sqlite:///{directory / 'store.db'}"
    tables_file = directory / "tables.toml"
    tables_file.write_text(tables)
    log = directory / "server.log"
    server = ServerProcess(url, tables_file, free_port(), log, *options)
    server.start()
    return Room(server, url, log.read_text())


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """The card room over a legacy store, letting in pages of :data:`FRIEND`."""
    directory = tmp_path_factory.mktemp("room")
    db = f"sqlite:///{directory / 'store.db'}"
    legacy_store(db, LEGACY)
    options = ("--max-registrations", "1000", "--allowed-origin", FRIEND)
    started = start_room(directory, ROOM_TABLES, *options, db=db)
    yield started
    started.server.stop()


@pytest.fixture(scope="module")
def strict_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """A room allowing 2 failed logins an account (8 an address) and 3 registrations an
    address."""
    options = ("--max-failed-logins", "2", "--max-registrations", "3")
    started = start_room(tmp_path_factory.mktemp("strict"), SMALL_TABLES, *options)
    yield started
    started.server.stop()


# ------------------------------------------------------------------------ HTTP helpers
def client(room: Room, address: str = "127.0.0.1") -> httpx.Client:
    """An HTTP client of ``room`` whose requests come from ``address`` (any 127.x.y.z)."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=room.url, transport=transport, timeout=30)


def register(http: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return http.post("/api/register", json={"name": name, "password": password})


def log_in(http: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return http.post("/api/login", json={"name": name, "password": password})


def token_of(http: httpx.Client, name: str, password: str = PASSWORD) -> str:
    reply = log_in(http, name, password)
    assert reply.status_code == 200, reply.text
    token: str = reply.json()["token"]
    return token


def account(http: httpx.Client, name: str) -> str:
    """Register ``name`` and log in: the token."""
    reply = register(http, name)
    assert reply.status_code == 201, reply.text
    return token_of(http, name)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def retry_after(reply: httpx.Response) -> int:
    """The ``Retry-After`` of a 429: whole seconds, at least one."""
    assert reply.status_code == 429, reply.text
    seconds = int(reply.headers["Retry-After"])
    assert seconds >= 1
    return seconds


# ------------------------------------------------------------------------ socket helpers
def open_socket(room: Room, **options: Any) -> ClientConnection:
    ws: ClientConnection = connect(room.ws, proxy=None, open_timeout=10, close_timeout=2, **options)
    return ws


def receive(ws: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


def send(ws: ClientConnection, message: dict[str, Any]) -> None:
    ws.send(json.dumps(message))


def hello(ws: ClientConnection, token: str | None) -> dict[str, Any]:
    """Greet the server: the welcome (the lobby that follows it is read too)."""
    send(ws, {"type": "hello", "token": token})
    welcome = receive(ws)
    assert welcome["type"] == "welcome", welcome
    assert receive(ws)["type"] == "lobby"
    return welcome


def read_until(
    ws: ClientConnection, found: Callable[[dict[str, Any]], bool], within: float = 10.0
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read until a message ``found`` accepts: it, and every message read before it."""
    deadline = time.monotonic() + within
    seen: list[dict[str, Any]] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"nothing wanted in {within} s: {seen[-5:]}")
        message = receive(ws, timeout=left)
        if found(message):
            return message, seen
        seen.append(message)


def error_reply(ws: ClientConnection, within: float = 10.0) -> dict[str, Any]:
    """The next error message (the table's other messages are skipped)."""
    message, _ = read_until(ws, lambda m: m["type"] == "error", within)
    return message


def close_code(ws: ClientConnection, within: float) -> int | None:
    """Read until the server closes the socket (AssertionError after ``within`` seconds):
    the close code it sent (None: no close frame)."""
    deadline = time.monotonic() + within
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"the socket is still open after {within} s")
        try:
            ws.recv(timeout=left)
        except ConnectionClosed as closed:
            return None if closed.rcvd is None else closed.rcvd.code
        except TimeoutError:
            raise AssertionError(f"the socket is still open after {within} s") from None


def still_open(ws: ClientConnection, table: str) -> bool:
    """Whether the socket still answers: a ``watch`` of ``table`` gets its messages."""
    try:
        send(ws, {"type": "watch", "table": table})
        read_until(ws, lambda m: m.get("table") == table, within=10)
    except ConnectionClosed:
        return False
    return True


# ------------------------------------------------------------------------ store helpers
def balances(db: str, table: str) -> dict[str, int]:
    """The chips of everyone at ``table``, as the store has them."""
    with Store.open(db) as store:
        session = next(
            s for s in reversed(store.sessions()) if s.label == table and s.ended_at is None
        )
        return store.balances(session)


def lobby_players(http: httpx.Client, table: str) -> list[str]:
    tables = http.get("/api/tables").json()["tables"]
    players: list[str] = next(t["players"] for t in tables if t["name"] == table)
    return players


def warnings(room: Room) -> list[str]:
    return [line for line in room.startup.splitlines() if line.startswith("croupier: warning: ")]


# ======================================================================== 1. a bot's identity
@pytest.mark.parametrize("name", ["bot-1", "BOT-1", "bot_2", "Bot.3", "bot7", "bot", "ｂｏｔ-4"])
def test_a_bot_name_cannot_be_registered(room: Room, name: str) -> None:
    """A name that reads as a house bot's, in any case or width, is refused (422)."""
    with client(room) as http:
        reply = register(http, name)
    assert reply.status_code == 422, reply.text
    assert "reserved for the house's bots" in reply.json()["detail"]


@pytest.mark.parametrize("name", ["admin", "Ad.min", "DEALER", "house", "system", "croupier"])
def test_a_role_name_cannot_be_registered(room: Room, name: str) -> None:
    """The room's own role names, in any case and with punctuation inside, are refused."""
    with client(room) as http:
        reply = register(http, name)
    assert reply.status_code == 422, reply.text
    assert "reserved" in reply.json()["detail"]


def test_names_that_merely_start_like_bot_are_free(room: Room) -> None:
    """``bottle`` and ``robot-1`` are no bot's names: they register."""
    with client(room) as http:
        assert register(http, "bottle").status_code == 201
        assert register(http, "robot-1").status_code == 201


def test_start_up_names_the_legacy_bot_named_account(room: Room) -> None:
    """The server prints one warning line for the legacy account ``bot-1``."""
    lines = [line for line in warnings(room) if "'bot-1'" in line]
    assert len(lines) == 1, room.startup
    assert lines[0].startswith("croupier: warning: account 'bot-1' (id 1) has a name reserved")


def test_a_legacy_bot_named_account_cannot_play_for_the_bot(room: Room) -> None:
    """The legacy account ``bot-1`` logs in and watches, but holds no seat: every seat
    message it sends for the tables where the bot ``bot-1`` sits is refused and changes
    nothing (the lobby's players and the bots' chips stay as they were), and it may not
    sit."""
    with client(room) as http:
        token = token_of(http, "bot-1")
        players = lobby_players(http, "idle")
        assert "bot-1" in players
        chips = balances(room.db, "idle")
        assert chips.get("bot-1", 0) > 0
        with open_socket(room) as ws:
            welcome = hello(ws, token)
            assert welcome["player"] == "bot-1"
            assert welcome["seated"] == []
            for message in (
                {"type": "leave", "table": "idle"},
                {"type": "sit_out", "table": "idle"},
                {"type": "sit_in", "table": "idle"},
                {"type": "rebuy", "table": "idle", "amount": 100},
                {"type": "act", "table": "idle", "action": "fold"},
                {"type": "leave", "table": "busy"},
                {"type": "rebuy", "table": "busy", "amount": 100},
            ):
                send(ws, message)
                error = error_reply(ws)
                assert error["code"] == "not_seated", (message, error)
            for table, seat in (("idle", None), ("idle", 3), ("busy", 4)):
                send(ws, {"type": "sit", "table": table, "seat": seat})
                error = error_reply(ws)
                assert error["code"] == "refused", error
                assert "reserved for the house" in error["message"]
        time.sleep(0.5)  # a leave or a rebuy carried out would be in by now
        assert lobby_players(http, "idle") == players
        assert balances(room.db, "idle") == chips
        assert set(lobby_players(http, "busy")) == {"bot-1", "bot-2", "bot-3"}


def test_a_legacy_bot_named_account_sees_only_public_views(room: Room) -> None:
    """Watching the table where the bot ``bot-1`` plays, the legacy account ``bot-1``
    gets the public view only (no ``seat``, no hole cards); its ``act`` on the bot's turn
    is refused; the recorded hand it asks for shows it no seat either."""
    with client(room) as http:
        token = token_of(http, "bot-1")
        with open_socket(room) as ws:
            hello(ws, token)
            send(ws, {"type": "watch", "table": "busy"})
            views: list[dict[str, Any]] = []
            errors: list[dict[str, Any]] = []
            finished: list[int] = []
            acted = False
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not (acted and errors and finished):
                message = receive(ws)
                if message["type"] == "error":
                    errors.append(message)
                elif message["type"] == "hand_finished" and message["table"] == "busy":
                    finished.append(message["hand_id"])
                elif message["type"] == "view" and message["table"] == "busy":
                    views.append(message)
                    view = message["view"]
                    bot_seat = next(
                        (int(s) for s, n in message["names"].items() if n == "bot-1"), None
                    )
                    if not acted and view.get("actor") is not None and view["actor"] == bot_seat:
                        action = {"type": "act", "table": "busy", "action": "fold"}
                        send(ws, {**action, "hand": message["hand"]})
                        acted = True
            assert acted, "the bot bot-1 never had a turn to try"
            assert errors, "the act on the bot's turn got no answer"
            assert [e["code"] for e in errors] == ["not_seated"] * len(errors)
            assert finished, "no hand finished"
            assert views
            assert [v["view"]["seat"] for v in views] == [None] * len(views)
        as_bot = http.get(f"/api/hands/{finished[0]}", headers=bearer(token)).json()
        as_spectator = http.get(f"/api/hands/{finished[0]}").json()
    assert as_bot["viewer"] == {"name": "bot-1", "seat": None}
    assert as_bot["events"] == as_spectator["events"]


# ======================================================================== 2. admin by squatting
def test_serve_admin_for_a_missing_account_is_one_line(tmp_path: Path) -> None:
    """``serve --admin ghost`` with no account ``ghost`` exits non-zero, saying so in one
    line, with no traceback."""
    tables = tmp_path / "tables.toml"
    tables.write_text(SMALL_TABLES)
    command = [
        sys.executable, "-m", "croupier", "serve", "--port", str(free_port()),
        "--db", f"sqlite:///{tmp_path / 'store.db'}", "--tables", str(tables),
        "--admin", "ghost",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0
    assert "Traceback" not in done.stdout + done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("croupier: error: ")
    assert "ghost" in lines[0]


def test_only_a_granted_account_uses_the_admin_api(
    room: Room, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ann`` may open a table only once ``croupier admin grant ann`` ran; ``ghost``,
    registered later, gets 403 on every admin route; the audit log (the API's and
    ``croupier admin log``) lists each act with its actor, ghost's refused tries as one row a minute."""
    with client(room) as http:
        ann = account(http, "ann")
        opening = {"name": "annex", "bots": 2}
        assert http.post("/api/admin/tables", json=opening, headers=bearer(ann)).status_code == 403
        assert main(["admin", "grant", "ann", "--db", room.db]) == 0
        assert capsys.readouterr().out.strip() == "ann is an admin"
        opened = http.post("/api/admin/tables", json=opening, headers=bearer(ann))
        assert opened.status_code == 201, opened.text
        assert "annex" in [t["name"] for t in http.get("/api/tables").json()["tables"]]

        ghost = account(http, "ghost")
        for method, path, body in (
            ("POST", "/api/admin/tables", {"name": "ghost-table", "bots": 2}),
            ("DELETE", "/api/admin/tables/annex", None),
            ("GET", "/api/admin/ledger", None),
            ("GET", "/api/admin/audit", None),
        ):
            reply = http.request(method, path, json=body, headers=bearer(ghost))
            assert reply.status_code == 403, (method, path, reply.text)
        names = [t["name"] for t in http.get("/api/tables").json()["tables"]]
        assert "annex" in names
        assert "ghost-table" not in names

        assert http.delete("/api/admin/tables/annex", headers=bearer(ann)).status_code == 200
        assert http.get("/api/admin/ledger", headers=bearer(ann)).status_code == 200
        audit = http.get("/api/admin/audit", headers=bearer(ann))
        assert audit.status_code == 200, audit.text
        entries = audit.json()["entries"]
        acts = [(e["actor"], e["action"], e["target"]) for e in entries]
        grant = next(e for e in entries if e["action"] == "grant")
        assert grant["target"] == "ann"
        assert grant["actor"].startswith("command line (user ")
        done = [a for a in acts if a[1] != "denied"]
        assert done[-4:] == [
            ("ann", "open_table", "annex"),
            ("ann", "close_table", "annex"),
            ("ann", "read_ledger", "ledger"),
            ("ann", "read_audit", "audit"),
        ]
        # ghost's four tries were refused and are in the log as such, once a minute
        assert [a for a in acts if a[0] == "ghost"] == [("ghost", "denied", "admin API")]
        assert {"id", "at", "actor", "action", "target", "detail"} <= set(entries[0])

        assert main(["admin", "log", "--json", "--db", room.db]) == 0
        logged = json.loads(capsys.readouterr().out)
        assert [(e["actor"], e["action"], e["target"]) for e in logged] == acts
        assert main(["admin", "log", "--db", room.db]) == 0
        text = capsys.readouterr().out
        assert "  ann  open_table  annex" in text
        assert f"  {grant['actor']}  grant  ann" in text

        assert main(["admin", "revoke", "ann", "--db", room.db]) == 0
        capsys.readouterr()
        assert http.get("/api/admin/audit", headers=bearer(ann)).status_code == 403


# ======================================================================== 3. password guessing
def test_the_sixth_wrong_login_is_throttled(room: Room) -> None:
    """Five wrong passwords get 401; the sixth attempt, and then the right password too,
    get 429 with a Retry-After in seconds; another account still logs in."""
    with client(room) as http:
        assert register(http, "guess").status_code == 201
        assert register(http, "guess-other").status_code == 201
    with client(room, "127.0.0.31") as http:
        for _ in range(5):
            assert log_in(http, "guess", "wrong-password").status_code == 401
        assert retry_after(log_in(http, "guess", "wrong-password")) > 60
        assert retry_after(log_in(http, "GUESS", PASSWORD)) > 60  # the account, in any case
        assert log_in(http, "guess-other").status_code == 200


def test_a_locked_account_refuses_even_the_right_password(strict_room: Room) -> None:
    """With ``--max-failed-logins 2``: two wrong passwords, then the right one is 429,
    from any address."""
    with client(strict_room, "127.0.0.41") as http:
        assert register(http, "rita").status_code == 201
        for _ in range(2):
            assert log_in(http, "rita", "wrong-password").status_code == 401
        retry_after(log_in(http, "rita"))
    with client(strict_room, "127.0.0.42") as http:
        retry_after(log_in(http, "rita"))


def test_an_address_may_fail_four_times_an_accounts_logins(strict_room: Room) -> None:
    """With ``--max-failed-logins 2`` an address may fail 8 logins (over any names);
    then even a right password from it is 429, while another address logs in."""
    with client(strict_room, "127.0.0.43") as http:
        assert register(http, "sam").status_code == 201
    with client(strict_room, "127.0.0.44") as http:
        for guess in range(8):
            reply = log_in(http, f"nobody-{guess // 2}", "wrong-password")
            assert reply.status_code == 401, (guess, reply.text)
        assert "address" in log_in(http, "nobody-9", "wrong-password").json()["detail"]
        retry_after(log_in(http, "sam"))
    with client(strict_room, "127.0.0.45") as http:
        assert log_in(http, "sam").status_code == 200


def test_registrations_are_throttled_per_address(strict_room: Room) -> None:
    """With ``--max-registrations 3`` the fourth registration from one address is 429,
    while another address may still register."""
    with client(strict_room, "127.0.0.46") as http:
        for name in ("reg-1", "reg-2", "reg-3"):
            assert register(http, name).status_code == 201
        assert retry_after(register(http, "reg-4")) > 60
    with client(strict_room, "127.0.0.47") as http:
        assert register(http, "reg-4").status_code == 201


# ======================================================================== 4. any Origin
@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "null",
        "https://friend.example",
        "http://friend.example.evil.example",
        "http://127.0.0.1:1",
    ],
)
def test_a_handshake_from_another_origin_is_403(room: Room, origin: str) -> None:
    """A page of another site (or scheme, or port) cannot open the WebSocket: HTTP 403."""
    with pytest.raises(InvalidStatus) as refused:
        open_socket(room, origin=origin)
    assert refused.value.response.status_code == 403


@pytest.mark.parametrize("origin", ["own", FRIEND, None])
def test_a_handshake_from_an_allowed_origin_is_accepted(room: Room, origin: str | None) -> None:
    """The room's own origin, an ``--allowed-origin`` and no Origin (a program) get in."""
    own = f"http://127.0.0.1:{room.server.port}"
    options = {} if origin is None else {"origin": own if origin == "own" else origin}
    with open_socket(room, **options) as ws:
        assert hello(ws, None)["player"] is None


@pytest.mark.parametrize(
    "path", ["/", "/static/app.js", "/api/tables", "/api/hands/999999", "/api/admin/audit"]
)
def test_every_response_carries_the_security_headers(room: Room, path: str) -> None:
    """The page, its script, the API (and its errors) carry CSP, no framing, nosniff and
    no referrer."""
    with client(room) as http:
        reply = http.get(path)
    assert reply.status_code in (200, 401, 404), reply.text
    policy = reply.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert reply.headers["X-Frame-Options"] == "DENY"
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert reply.headers["Referrer-Policy"] == "no-referrer"


# ======================================================================== 5. logout
def test_logout_closes_the_tokens_socket_and_refuses_the_token(room: Room) -> None:
    """``POST /api/logout`` (from another client) closes the socket opened with the token
    (1008, within 1.5 s); the token is then refused by HTTP (401) and by a hello; the
    account's other token lives on."""
    with client(room) as http:
        token = account(http, "dora")
        other = token_of(http, "dora")
        with open_socket(room) as ws, open_socket(room) as kept:
            hello(ws, token)
            hello(kept, other)
            with client(room) as elsewhere:
                reply = elsewhere.post("/api/logout", headers=bearer(token))
            assert reply.status_code == 200, reply.text
            assert reply.json() == {"revoked": 1}
            started = time.monotonic()
            assert close_code(ws, within=1.5) == 1008
            assert time.monotonic() - started <= 1.5
            assert still_open(kept, "busy")
        assert http.get("/api/hands/999999", headers=bearer(token)).status_code == 401
        assert http.post("/api/logout", headers=bearer(token)).status_code == 401
        assert http.get("/api/hands/999999", headers=bearer(other)).status_code == 404
        with open_socket(room) as ws:
            send(ws, {"type": "hello", "token": token})
            assert receive(ws)["code"] == "unauthorized"
            assert close_code(ws, within=5) == 1008


def test_logout_all_closes_every_socket_of_the_account(room: Room) -> None:
    """``POST /api/logout/all`` closes (1008) every socket of the account and refuses
    every one of its tokens; another account's socket stays open."""
    with client(room) as http:
        first = account(http, "lou")
        second = token_of(http, "lou")
        stranger = account(http, "lou-neighbour")
        with open_socket(room) as a, open_socket(room) as b, open_socket(room) as c:
            hello(a, first)
            hello(b, second)
            hello(c, stranger)
            reply = http.post("/api/logout/all", headers=bearer(second))
            assert reply.status_code == 200, reply.text
            assert reply.json()["revoked"] == 2
            assert close_code(a, within=1.5) == 1008
            assert close_code(b, within=1.5) == 1008
            assert still_open(c, "busy")
        for token in (first, second):
            assert http.get("/api/hands/999999", headers=bearer(token)).status_code == 401
        assert http.get("/api/hands/999999", headers=bearer(stranger)).status_code == 404


def test_a_token_revoked_by_another_process_closes_its_socket(room: Room) -> None:
    """A token revoked in the store by another process (another server sharing it) closes
    the socket opened with it (1008) within 1.5 s."""
    with client(room) as http:
        token = account(http, "ray")
    with open_socket(room) as ws:
        hello(ws, token)
        with Store.open(room.db) as store:
            assert Accounts(store.engine).logout(token) == 1
        assert close_code(ws, within=1.5) == 1008


def test_a_password_change_revokes_every_other_token(room: Room) -> None:
    """``POST /api/password`` keeps the presenting token (and its socket) and revokes the
    account's others (their sockets close with 1008); the old password no longer logs
    in, the new one does."""
    new_password = "a-brand-new-secret"
    with client(room) as http:
        keeper = account(http, "pat")
        victim = token_of(http, "pat")
        with open_socket(room) as kept, open_socket(room) as gone:
            hello(kept, keeper)
            hello(gone, victim)
            change = {"old_password": PASSWORD, "new_password": new_password}
            reply = http.post("/api/password", json=change, headers=bearer(keeper))
            assert reply.status_code == 200, reply.text
            assert reply.json() == {"revoked": 1}
            assert close_code(gone, within=1.5) == 1008
            assert still_open(kept, "busy")
        assert http.get("/api/hands/999999", headers=bearer(keeper)).status_code == 404
        assert http.get("/api/hands/999999", headers=bearer(victim)).status_code == 401
    with client(room, "127.0.0.51") as http:
        assert log_in(http, "pat", PASSWORD).status_code == 401
        assert log_in(http, "pat", new_password).status_code == 200


def test_a_wrong_old_password_changes_nothing(room: Room) -> None:
    """A password change with a wrong old password is 401 and revokes nothing."""
    with client(room, "127.0.0.52") as http:
        keeper = account(http, "quin")
        other = token_of(http, "quin")
        change = {"old_password": "not-the-password", "new_password": "whatever-else"}
        assert http.post("/api/password", json=change, headers=bearer(keeper)).status_code == 401
        assert http.get("/api/hands/999999", headers=bearer(other)).status_code == 404
        assert log_in(http, "quin", PASSWORD).status_code == 200


# ======================================================================== 6. look-alike names
def test_look_alike_names_are_taken(room: Room) -> None:
    """After ``marta``, every case and the full-width form of it are 409; so is a new
    ``ALICE`` beside the legacy ``alice``."""
    with client(room) as http:
        assert register(http, "marta").status_code == 201
        for name in ("Marta", "MARTA", "ｍａｒｔａ", "ＭＡＲＴＡ", "ALICE", "Alice", "alice"):
            reply = register(http, name)
            assert reply.status_code == 409, (name, reply.text)


@pytest.mark.parametrize(
    "name", ["..", "-", "-ann", "ann.", "_ann", "a b", "ann\u200b", "x" * 41, "ann/lee"]
)
def test_malformed_names_are_refused(room: Room, name: str) -> None:
    """Punctuation only, at either end, other characters or too long: 422."""
    with client(room) as http:
        reply = register(http, name)
    assert reply.status_code == 422, reply.text


def test_start_up_lists_the_legacy_case_twin(room: Room) -> None:
    """The server lists ``Alice``, the legacy twin of ``alice``, once."""
    lines = [line for line in warnings(room) if "'Alice'" in line]
    assert len(lines) == 1, room.startup
    assert "has the same name as 'alice' but for case" in lines[0]


def test_legacy_case_twins_each_log_in_with_their_own_password(room: Room) -> None:
    """After the migration ``alice`` and ``Alice`` (one account each, made before names
    were keyed) both log in with their own passwords, each as itself."""
    with client(room, "127.0.0.61") as http:
        lower = log_in(http, "alice", ALICE_PASSWORD)
        upper = log_in(http, "Alice", TWIN_PASSWORD)
    assert lower.status_code == 200, lower.text
    assert upper.status_code == 200, upper.text
    for token, name in ((lower.json()["token"], "alice"), (upper.json()["token"], "Alice")):
        with open_socket(room) as ws:
            assert hello(ws, token)["player"] == name


# ======================================================================== 7. loose protocol
@pytest.mark.parametrize(
    "message",
    [
        {"type": "rebuy", "table": "busy", "amount": "1000"},
        {"type": "rebuy", "table": "busy", "amount": 10.0},
        {"type": "sit", "table": "busy", "seat": "4"},
        {"type": "sit", "table": "busy", "buy_in": True},
        {"type": "act", "table": "busy", "action": "fold", "hand": "3"},
        {"type": "watch", "table": "busy", "as": "bot-1"},
    ],
)
def test_a_loosely_typed_message_is_invalid(room: Room, message: dict[str, Any]) -> None:
    """A string, float or boolean where an integer belongs, or an unknown field, is an
    ``invalid`` error (never coerced); the socket carries on."""
    with client(room) as http:
        token = token_of(http, "bot-1")
    with open_socket(room) as ws:
        hello(ws, token)
        send(ws, message)
        error = error_reply(ws)
        assert error["code"] == "invalid", error
        assert still_open(ws, "busy")


def test_a_binary_frame_is_invalid_and_the_socket_carries_on(room: Room) -> None:
    """A binary frame gets an ``invalid`` error; the next ``watch`` is answered."""
    with open_socket(room) as ws:
        hello(ws, None)
        ws.send(b'{"type": "watch", "table": "busy"}')
        assert error_reply(ws)["code"] == "invalid"
        assert still_open(ws, "busy")


def _masked_text_frame(text: str) -> bytes:
    """A client's text frame (masked, as a client must)."""
    data = text.encode()
    mask = os.urandom(4)
    length = len(data)
    head = bytes([0x81, 0x80 | length]) if length < 126 else bytes([0x81, 0xFE])
    if length >= 126:
        head += struct.pack("!H", length)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def _raw_websocket(port: int) -> socket.socket:
    """A WebSocket to ``/ws`` on a plain socket with a small receive buffer, greeted as a
    spectator of the table ``flood``: nothing reads it until the test does."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.settimeout(10)
    raw.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    response = b""
    while b"\r\n\r\n" not in response:
        chunk = raw.recv(1)
        assert chunk, response
        response += chunk
    assert response.startswith(b"HTTP/1.1 101"), response
    raw.sendall(_masked_text_frame(json.dumps({"type": "hello", "token": None})))
    raw.sendall(_masked_text_frame(json.dumps({"type": "watch", "table": "flood"})))
    return raw


def _close_frame_code(raw: socket.socket, within: float) -> int | None:
    """Read ``raw`` to its end: the code of the close frame the server sent (None: the
    stream ended without one)."""
    data = bytearray()
    deadline = time.monotonic() + within
    while True:
        raw.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            chunk = raw.recv(1 << 20)
        except TimeoutError:
            raise AssertionError(f"the stream did not end within {within} s") from None
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            break
        data += chunk
    at = 0
    while at + 2 <= len(data):
        opcode, length, at = data[at] & 0x0F, data[at + 1] & 0x7F, at + 2
        if length == 126:
            length, at = struct.unpack("!H", data[at : at + 2])[0], at + 2
        elif length == 127:
            length, at = struct.unpack("!Q", data[at : at + 8])[0], at + 8
        payload, at = bytes(data[at : at + length]), at + length
        if opcode == 0x8:
            code: int = struct.unpack("!H", payload[:2])[0]
            return code
    return None


def test_a_client_that_never_reads_is_dropped(tmp_path: Path) -> None:
    """A spectator of a table dealing as fast as it can who never reads his socket is
    dropped by the server (its queue fills up: 1013) within 45 s: the server stops
    counting his connection; reading at last, he finds the stream ended, by a 1013 close
    if by a close frame at all."""
    flood = start_room(tmp_path, FLOOD_TABLES)
    try:
        with client(flood) as http:
            raw = _raw_websocket(flood.server.port)
            try:
                counted: list[int] = []
                deadline = time.monotonic() + 45
                while time.monotonic() < deadline:
                    counted.append(http.get("/api/stats").json()["connections"])
                    if counted[-1] == 0 and 1 in counted:  # joined, then dropped
                        break
                    time.sleep(0.5)
                assert 1 in counted, "the spectator never joined the table"
                assert counted[-1] == 0, (
                    f"the server still holds the client that never reads after 45 s "
                    f"(hands dealt: {http.get('/api/stats').json()['hands']})"
                )
                assert _close_frame_code(raw, within=20) in (1013, None)
            finally:
                raw.close()
    finally:
        flood.server.stop()
