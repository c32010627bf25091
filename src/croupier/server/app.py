"""The card room's ASGI app (FastAPI): a small HTTP API and one WebSocket per client.

* ``GET /api/tables``: the lobby. ``POST /api/register``, ``POST /api/login`` (a session
  token). ``GET /api/hands/{id}``: a finished hand as the requesting player (the bearer
  of ``Authorization: Bearer <token>``, else a spectator) may see it, with its PHH export
  (a blackjack round: the whole round, the shoe's order only once the shoe is revealed).
* ``GET /healthz`` (the process runs) and ``GET /readyz`` (the store answers and every
  table task is alive).
* ``WS /ws``: the first message is a ``hello`` with the token (none: watch only); see
  ``docs/protocol.md``. Every message is validated; a bad one gets an ``error`` and the
  connection carries on. Messages over :data:`~croupier.server.protocol.MAX_MESSAGE_BYTES`
  are refused, and each connection may send :data:`RATE` messages a second on average
  (bursts of :data:`BURST`).

>>> from fastapi.testclient import TestClient
>>> app = create_app("sqlite:///:memory:", tables=[TableConfig("t1", bots=2)])
>>> with TestClient(app) as client:
...     client.get("/api/tables").json()["tables"][0]["players"]
['bot-1', 'bot-2']
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any

from argon2 import PasswordHasher
from fastapi import FastAPI, Header, HTTPException, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from sqlalchemy import text

from croupier.blackjack.views import censor as blackjack_censor
from croupier.blackjack.views import event_to_dict as blackjack_event_to_dict
from croupier.errors import CroupierError
from croupier.poker.views import censor, event_to_dict
from croupier.server.accounts import TOKEN_LIFETIME, Accounts, AuthError
from croupier.server.leases import LEASE_TTL
from croupier.server.outgoing import Prepared
from croupier.server.protocol import (
    Act,
    Credentials,
    ErrorMessage,
    Hello,
    Leave,
    LobbyMessage,
    LoginReply,
    ProtocolError,
    Rebuy,
    Sit,
    SitIn,
    SitOut,
    Watch,
    Welcome,
    parse_client,
)
from croupier.server.room import Room
from croupier.server.runner import ActionStats, RunnerBase
from croupier.server.tables import DEFAULT_TABLES, TableConfig
from croupier.store import Store
from croupier.store.export import hand_to_dict, hands_to_phh

__all__ = ["BURST", "RATE", "Connection", "RateLimit", "create_app"]

STATIC = Path(__file__).parent / "static"
"""The browser UI: plain HTML, CSS and JavaScript modules, served as they are."""

RATE = 10.0
"""Messages a second a connection may send on average."""
BURST = 30.0
"""Messages a connection may send at once."""


class RateLimit:
    """A token bucket: ``allow()`` is False once the connection sends too fast.

    >>> bucket = RateLimit(rate=1.0, burst=2.0, clock=lambda: 0.0)
    >>> [bucket.allow() for _ in range(3)]
    [True, True, False]
    """

    def __init__(self, rate: float = RATE, burst: float = BURST, clock: Any = time.monotonic):
        self.rate, self.burst, self._clock = rate, burst, clock
        self._tokens, self._last = burst, clock()

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class Connection:
    """One client socket: who it is (``name`` None: a spectator) and its outgoing queue
    (the tables never wait for a slow client; a client too slow to drain
    :data:`QUEUE_LIMIT` messages is dropped).

    >>> Connection(None).name is None
    True
    """

    QUEUE_LIMIT = 1000

    def __init__(self, name: str | None) -> None:
        self.name = name
        self.queue: asyncio.Queue[BaseModel | Prepared | None] = asyncio.Queue()
        self.overflowed = False

    def send(self, message: Any) -> None:
        """Queue a message for the client."""
        if self.queue.qsize() >= self.QUEUE_LIMIT:
            self.overflowed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message)


def create_app(
    db: str | None = None,
    *,
    tables: Sequence[TableConfig] = DEFAULT_TABLES,
    token_lifetime: timedelta = TOKEN_LIFETIME,
    hasher: PasswordHasher | None = None,
    rate: float = RATE,
    burst: float = BURST,
    admins: Sequence[str] = (),
    url: str = "http://127.0.0.1:8000",
    lease_ttl: timedelta = LEASE_TTL,
    url_is_exclusive: bool = False,
) -> FastAPI:
    """The app over the store at ``db`` (see :meth:`Store.open`) with ``tables``; each
    table's task starts with the app and stops with it. ``admins`` are the account names
    that may use the admin API (``/api/admin/...``); ``url`` is where clients reach this
    process (the lobby shows it beside each table it hosts); ``lease_ttl`` how long a
    table's lease lasts unrenewed, and ``url_is_exclusive`` says the caller already
    listens at ``url`` (see :mod:`croupier.server.room`).

    >>> create_app("sqlite:///:memory:", tables=[]).title
    'croupier'
    """
    store = Store.open(db)
    accounts = Accounts(store.engine, lifetime=token_lifetime, hasher=hasher)
    stats = ActionStats()
    room = Room(
        store, tables, url=url, ttl=lease_ttl, stats=stats, url_is_exclusive=url_is_exclusive
    )
    runners = room.runners

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await room.start()
        try:
            yield
        finally:
            await room.stop()

    app = FastAPI(title="croupier", lifespan=lifespan)
    app.state.store = store
    app.state.accounts = accounts
    app.state.room = room
    app.state.runners = runners
    app.state.stats = stats

    def lobby() -> LobbyMessage:
        return LobbyMessage(tables=room.lobby())

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> RedirectResponse:
        return RedirectResponse("/static/favicon.svg")

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz")
    def readyz() -> JSONResponse:
        problems = [
            f"table {n} stopped: {runners[n].error!r}"
            for n, t in room.tasks.items()
            if t.done() and n in runners
        ]
        try:
            with store.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except Exception as error:
            problems.append(f"store: {type(error).__name__}")
        if any(name not in room.tasks for name in runners):
            problems.append("tables not started")
        status = 503 if problems else 200
        return JSONResponse({"ready": not problems, "problems": problems}, status_code=status)

    @app.get("/api/tables")
    def get_tables() -> LobbyMessage:
        return lobby()

    @app.post("/api/register", status_code=201)
    def register(body: Credentials) -> dict[str, str]:
        try:
            accounts.register(body.name, body.password)
        except AuthError as error:
            raise HTTPException(409, str(error)) from None
        return {"name": body.name}

    @app.post("/api/login")
    def login(body: Credentials) -> LoginReply:
        try:
            token, expires = accounts.login(body.name, body.password)
        except AuthError as error:
            raise HTTPException(401, str(error)) from None
        return LoginReply(token=token, expires_at=expires.isoformat())

    @app.get("/api/stats")
    def get_stats(since: Annotated[int, Query(ge=0)] = 0) -> dict[str, Any]:
        """Counters and the action latency (``since``: of the actions after the first
        ``since``, e.g. the ``actions`` an earlier call gave)."""
        return {
            "actions": stats.actions,
            "hands": stats.hands,
            "errors": stats.refused,
            "latency_ms": stats.summary(since),
            "tables": len(runners),
            "connections": sum(len(r.listeners) for r in runners.values()),
            "journal_batches": room.writer.batches,
        }

    def bearer(authorization: str | None) -> str | None:
        if authorization is None:
            return None
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise HTTPException(401, "Authorization: Bearer <token> expected")
        try:
            return accounts.authenticate(token)
        except AuthError as error:
            raise HTTPException(401, str(error)) from None

    def admin(authorization: str | None) -> str:
        name = bearer(authorization)
        if name is None:
            raise HTTPException(401, "the admin API needs Authorization: Bearer <token>")
        if name not in admins:
            raise HTTPException(403, f"{name} is not an admin (croupier serve --admin NAME)")
        return name

    @app.post("/api/admin/tables", status_code=201)
    async def open_table(
        body: dict[str, Any], authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        admin(authorization)
        try:
            config = TableConfig.from_dict(body)
        except CroupierError as error:
            raise HTTPException(422, str(error)) from None
        try:
            return room.open_table(config).model_dump()
        except CroupierError as error:
            raise HTTPException(409, str(error)) from None

    @app.delete("/api/admin/tables/{name}")
    def close_table(
        name: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        admin(authorization)
        try:
            room.close_table(name)  # the hand in play is finished first
        except CroupierError as error:
            raise HTTPException(404, str(error)) from None
        return {"table": name, "closing": True}

    @app.get("/api/admin/ledger")
    def ledger(authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        admin(authorization)
        report = store.verify()
        return {"ok": report.ok, "problems": [str(p) for p in report.problems]}

    @app.get("/api/hands/{hand_id}")
    def get_hand(
        hand_id: int, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        name = bearer(authorization)
        try:
            stored = store.hand(hand_id)
        except CroupierError as error:
            raise HTTPException(404, str(error)) from None
        seat = next((s for s, n in stored.players if n == name), None)
        data = hand_to_dict(stored)
        data["viewer"] = {"name": name, "seat": seat}
        if stored.summary.game_kind == "blackjack":
            # every card of a settled round was shown; the shoe's order (and so its burn
            # card) stays the house's until the shoe is done and revealed
            if not stored.revealed:
                events = blackjack_censor(stored.events, hole_card_turned=True)
                data["events"] = [blackjack_event_to_dict(e) for e in events]
            data["phh"] = None  # PHH is a poker format
            return data
        data["events"] = [event_to_dict(e) for e in censor(stored.events, seat)]
        # the deal is over: the reveal (every card of the deck, mucked hands included) is
        # public, as the commitment scheme requires, and so is the PHH export
        data["phh"] = hands_to_phh([stored])
        return data

    @app.websocket("/ws")
    async def websocket(socket: WebSocket) -> None:
        await socket.accept()
        limit = RateLimit(rate, burst)
        connection: Connection | None = None
        writer: asyncio.Task[None] | None = None
        try:
            connection = await _hello(socket, accounts)
            if connection is None:
                return
            writer = asyncio.create_task(_write(socket, connection))
            seated = [n for n, r in runners.items() if r.seat_of(connection.name) is not None]
            connection.send(Welcome(player=connection.name, seated=seated))
            connection.send(lobby())
            for name in seated:  # a reconnection: the full view of the hand in play
                runners[name].watch(connection)
            while True:
                raw = await socket.receive_text()
                if not limit.allow():
                    connection.send(_error("rate_limited", f"more than {rate:g} messages a second"))
                    continue
                try:
                    message = parse_client(raw)
                except ProtocolError as error:
                    connection.send(_error(error.code, str(error)))
                    continue
                reply = _handle(message, connection, runners, room)
                if reply is not None:
                    connection.send(reply)
        except WebSocketDisconnect:
            pass
        finally:
            if connection is not None:
                for runner in runners.values():
                    runner.unwatch(connection)
            if writer is not None:
                writer.cancel()

    return app


def _error(code: str, message: str) -> ErrorMessage:
    return ErrorMessage(code=code, message=message)


async def _hello(socket: WebSocket, accounts: Accounts) -> Connection | None:
    """Read the first message: a hello with a live token (or none); else close."""
    raw = await socket.receive_text()
    try:
        message = parse_client(raw)
        if not isinstance(message, Hello):
            raise ProtocolError("hello_expected", "the first message is a hello")
        name = None if message.token is None else accounts.authenticate(message.token)
    except (ProtocolError, AuthError) as error:
        code = error.code if isinstance(error, ProtocolError) else "unauthorized"
        await socket.send_text(_error(code, str(error)).model_dump_json())
        await socket.close(code=1008)
        return None
    return Connection(name)


async def _write(socket: WebSocket, connection: Connection) -> None:
    """Send the connection's queued messages, in order; close if it overflowed."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await connection.queue.get()
            if message is None:
                await socket.close(code=1013)
                return
            await socket.send_text(message.model_dump_json())


def _handle(
    message: Any, connection: Connection, runners: dict[str, RunnerBase], room: Room
) -> ErrorMessage | None:
    """Carry out one validated client message; an error message when refused."""
    if isinstance(message, Hello):
        return _error("already_greeted", "hello is only the first message")
    runner = runners.get(message.table)
    if runner is None:
        host = next((t.host for t in room.lobby() if t.name == message.table), None)
        if host is not None and host != room.url:
            return _error("table_moved", f"table {message.table} is hosted at {host}")
        return _error("no_table", f"no table {message.table!r}: see the lobby")
    if isinstance(message, Watch):
        runner.watch(connection)
        return None
    if connection.name is None:
        return _error("unauthorized", "log in to play: spectators only watch")
    try:
        if isinstance(message, Sit):
            runner.sit(connection.name, message.seat, message.buy_in)
            runner.watch(connection)
            return None
        if isinstance(message, Leave):
            runner.leave(connection.name)
            return None
        if isinstance(message, SitOut):
            runner.sit_out(connection.name)
            return None
        if isinstance(message, SitIn):
            runner.sit_in(connection.name)
            return None
        if isinstance(message, Rebuy):
            runner.rebuy(connection.name, message.amount)
            return None
    except CroupierError as error:
        return ErrorMessage(
            code="refused",
            message=str(error),
            rule=getattr(error, "rule", None),
            allowed=getattr(error, "allowed", None),
        )
    assert isinstance(message, Act)
    return runner.act(connection.name, message.action, message.hand)
