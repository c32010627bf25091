"""The card room's ASGI app (FastAPI): a small HTTP API and one WebSocket per client.

* ``GET /api/tables``: the lobby. ``POST /api/register``, ``POST /api/login`` (a session
  token), ``POST /api/logout`` (revoke the presented token), ``POST /api/logout/all``
  (every token of the account), ``POST /api/password`` (change it; every other token is
  revoked). Failed logins and registrations are throttled per account and per client
  address (:mod:`croupier.server.throttle`: 429 with ``Retry-After``), and password
  hashing runs on a bounded pool of its own. ``GET /api/hands/{id}``: a finished hand as
  the requesting player (the bearer of ``Authorization: Bearer <token>``, else a
  spectator) may see it, with its PHH export (a blackjack round: the whole round, the
  shoe's order only once the shoe is revealed).
* The admin API (``/api/admin/...``: open and close tables, read the ledger and the audit
  log) is for accounts holding the stored ``admin`` role (``croupier admin grant``);
  every act is recorded in the audit log.
* ``GET /healthz`` (the process runs) and ``GET /readyz`` (the store answers and every
  table task is alive).
* ``WS /ws``: the handshake is accepted from the room's own origin and the allowed ones
  only (:mod:`croupier.server.web_security`); the first message is a ``hello`` with the
  token (none: watch only); see ``docs/protocol.md``. Every message is validated
  strictly; a bad one (a binary frame too) gets an ``error`` and the connection carries
  on. Messages over :data:`~croupier.server.protocol.MAX_MESSAGE_BYTES` are refused, and
  each connection may send :data:`RATE` messages a second on average (bursts of
  :data:`BURST`). A socket whose token is revoked or expires is closed (1008) within
  :data:`TOKEN_CHECK` seconds.
* Every HTTP response carries :data:`~croupier.server.web_security.SECURITY_HEADERS`.

Seats are keyed by the account's id: a client acts only for the seat its own account
holds (:meth:`~croupier.server.runner.RunnerBase.player`), and a house bot's seat is
nobody's.

>>> from fastapi.testclient import TestClient
>>> app = create_app("sqlite:///:memory:", tables=[TableConfig("t1", bots=2)])
>>> with TestClient(app) as client:
...     client.get("/api/tables").json()["tables"][0]["players"]
['bot-1', 'bot-2']
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any

from argon2 import PasswordHasher
from fastapi import FastAPI, Header, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from sqlalchemy import text

from croupier.blackjack.views import censor as blackjack_censor
from croupier.blackjack.views import event_to_dict as blackjack_event_to_dict
from croupier.errors import CroupierError
from croupier.poker.views import censor, event_to_dict
from croupier.server.accounts import (
    ADMIN,
    TOKEN_LIFETIME,
    Account,
    Accounts,
    AuthError,
    NameTakenError,
    command_line_actor,
    hash_token,
)
from croupier.server.leases import LEASE_TTL
from croupier.server.names import BadNameError, name_key
from croupier.server.protocol import (
    Act,
    Credentials,
    ErrorMessage,
    Hello,
    Leave,
    LobbyMessage,
    LoginReply,
    PasswordChange,
    ProtocolError,
    Rebuy,
    Registration,
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
from croupier.server.throttle import BusyError, HashPool, Throttle, ThrottleSettings
from croupier.server.web_security import SecurityHeaders, allowed_origins, origin_allowed
from croupier.store import Store
from croupier.store.export import hand_to_dict, hands_to_phh

__all__ = [
    "BURST",
    "HELLO_TIMEOUT",
    "RATE",
    "TOKEN_CHECK",
    "Connection",
    "RateLimit",
    "create_app",
    "dispatch",
]

LOG = logging.getLogger("croupier.server")

STATIC = Path(__file__).parent / "static"
"""The browser UI: plain HTML, CSS and JavaScript modules, served as they are."""

RATE = 10.0
"""Messages a second a connection may send on average."""
BURST = 30.0
"""Messages a connection may send at once."""
HELLO_TIMEOUT = 10.0
"""Seconds a new socket has to send its hello; then it is closed (1008)."""
CLOSE_TIMEOUT = 2.0
"""Seconds a close frame may wait to go out before the socket is let go without it."""
TOKEN_CHECK = 0.5
"""Seconds between two checks that the open sockets' tokens are still live (a token
revoked by another process, or expired, closes its sockets within about that long; one
revoked here closes them at once)."""


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
    """One client socket: whose it is (``account`` None: a spectator), the token it was
    opened with (by its hash), and its outgoing queue (the tables never wait for a slow
    client; a client too slow to drain :data:`QUEUE_LIMIT` messages is closed with 1013).
    An ``int`` in the queue is a close code: the socket's writer closes with it; a ``str``
    is a message's JSON text, encoded once for every listener of a broadcast.

    >>> Connection(None).account is None
    True
    """

    QUEUE_LIMIT = 1000

    def __init__(
        self,
        account: Account | None,
        token_hash: str | None = None,
        on_close: Callable[[int], object] | None = None,
    ) -> None:
        self.account = account
        self.token_hash = token_hash
        self.queue: asyncio.Queue[BaseModel | str | int] = asyncio.Queue()
        self.closing: int | None = None
        """The close code once the connection is being closed (nothing more is queued)."""
        self.on_close = on_close
        """Closes the socket at once (its writer may be stuck sending to a client that
        reads nothing); None: the close code is queued for the writer."""

    def send(self, message: Any) -> None:
        """Queue a message for the client."""
        if self.closing is not None:
            return
        if self.queue.qsize() >= self.QUEUE_LIMIT:
            self.close(1013)
            return
        self.queue.put_nowait(message)

    def close(self, code: int) -> None:
        """Close the socket with ``code``: what is queued and not yet sent is dropped."""
        if self.closing is not None:
            return
        self.closing = code
        while not self.queue.empty():
            self.queue.get_nowait()
        if self.on_close is not None:
            self.on_close(code)
        else:
            self.queue.put_nowait(code)


def _too_many(seconds: float, what: str) -> HTTPException:
    wait = max(1, math.ceil(seconds))
    return HTTPException(
        429, f"too many {what}: try again in {wait} s", headers={"Retry-After": str(wait)}
    )


def _address(request: Request) -> str:
    """The throttles' key for the client: its IPv4 address, or its IPv6 /64 network (one
    machine usually has a whole /64)."""
    host = request.client.host if request.client is not None else "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def create_app(
    db: str | None = None,
    *,
    tables: Sequence[TableConfig] = DEFAULT_TABLES,
    token_lifetime: timedelta = TOKEN_LIFETIME,
    hasher: PasswordHasher | None = None,
    rate: float = RATE,
    burst: float = BURST,
    admins: Sequence[str] = (),
    grant: bool = True,
    url: str = "http://127.0.0.1:8000",
    lease_ttl: timedelta = LEASE_TTL,
    url_is_exclusive: bool = False,
    origins: Sequence[str] = (),
    throttle: ThrottleSettings | None = None,
) -> FastAPI:
    """The app over the store at ``db`` (see :meth:`Store.open`) with ``tables``; each
    table's task starts with the app and stops with it. ``admins`` are accounts to be
    granted the admin role now (each must exist: else :class:`CroupierError`; with
    ``grant`` False they are only checked); ``url`` is
    where clients reach this process (the lobby shows it beside each table it hosts, and
    its origin may open a WebSocket, as may ``origins``); ``lease_ttl`` how long a table's
    lease lasts unrenewed, and ``url_is_exclusive`` says the caller already listens at
    ``url`` (see :mod:`croupier.server.room`); ``throttle`` how many guesses are allowed.

    >>> create_app("sqlite:///:memory:", tables=[]).title
    'croupier'
    >>> create_app("sqlite:///:memory:", tables=[], admins=["ghost"])
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: --admin ghost: no account named 'ghost' (register it first)
    """
    store = Store.open(db)
    accounts = Accounts(store.engine, lifetime=token_lifetime, hasher=hasher)
    for name in admins:
        account = accounts.find(name)
        if account is None:
            raise CroupierError(f"--admin {name}: no account named {name!r} (register it first)")
        if grant and not accounts.has_role(account):
            accounts.grant(account.name, actor=f"{command_line_actor()}, serve --admin")
    limits = throttle if throttle is not None else ThrottleSettings()
    allowed = allowed_origins(url, origins)
    problems = accounts.problems()
    for line in problems:
        LOG.warning("%s", line)
    stats = ActionStats()
    room = Room(
        store, tables, url=url, ttl=lease_ttl, stats=stats, url_is_exclusive=url_is_exclusive
    )
    runners = room.runners
    connections: set[Connection] = set()
    hashing = HashPool(limits.hash_workers, limits.hash_queue)
    login_accounts = Throttle(limits.login_per_account, limits.login_window)
    login_addresses = Throttle(limits.login_per_address, limits.login_window)
    registrations = Throttle(limits.registrations_per_address, limits.registration_window)
    denials = Throttle(1, 60.0)

    def close_sockets(*, token: str | None = None, account: Account | None = None) -> None:
        """Close (1008) the sockets opened with ``token``, or every one of ``account``."""
        gone = None if token is None else hash_token(token)
        for connection in list(connections):
            mine = account is not None and connection.account == account
            if connection.token_hash is not None and (connection.token_hash == gone or mine):
                connection.close(1008)

    async def check_tokens() -> None:
        """Close the sockets whose tokens were revoked elsewhere or expired."""
        while True:
            await asyncio.sleep(TOKEN_CHECK)
            held = {c.token_hash for c in connections if c.token_hash is not None}
            if not held:
                continue
            try:
                live = await asyncio.to_thread(accounts.live, held)
            except Exception:  # the store is away: the next check tries again
                LOG.exception("checking the open sockets' tokens failed")
                continue
            for connection in list(connections):
                token_hash = connection.token_hash  # one asked about: a newer socket waits
                if token_hash is not None and token_hash in held and token_hash not in live:
                    connection.close(1008)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await room.start()
        checker = asyncio.create_task(check_tokens(), name="token checker")
        try:
            yield
        finally:
            checker.cancel()
            hashing.close()
            await room.stop()

    app = FastAPI(title="croupier", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_middleware(SecurityHeaders)
    app.state.store = store
    app.state.accounts = accounts
    app.state.room = room
    app.state.runners = runners
    app.state.stats = stats
    app.state.connections = connections
    app.state.account_problems = problems
    """One line per account that newer name rules would refuse (``serve`` prints them)."""

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
    async def register(body: Registration, request: Request) -> dict[str, str]:
        address = _address(request)
        wait = registrations.attempt(address)
        if wait:
            raise _too_many(wait, "registrations from this address")
        try:
            account = await hashing.run(accounts.register, body.name, body.password)
        except BadNameError as error:
            raise HTTPException(422, str(error)) from None
        except NameTakenError as error:
            raise HTTPException(409, str(error)) from None
        except BusyError as error:
            registrations.refund(address)
            raise HTTPException(503, str(error), headers={"Retry-After": "1"}) from None
        return {"name": account.name}

    @app.post("/api/login")
    async def login(body: Credentials, request: Request) -> LoginReply:
        account_key, address = name_key(body.name), _address(request)
        wait = login_addresses.attempt(address)
        if wait:
            raise _too_many(wait, "failed logins from this address")
        wait = login_accounts.attempt(account_key)
        if wait:
            login_addresses.refund(address)
            raise _too_many(wait, f"failed logins for {body.name!r}")
        try:
            token, expires, _account = await hashing.run(accounts.login, body.name, body.password)
        except AuthError as error:
            raise HTTPException(401, str(error)) from None
        except BusyError as error:
            login_accounts.refund(account_key)
            login_addresses.refund(address)
            raise HTTPException(503, str(error), headers={"Retry-After": "1"}) from None
        login_accounts.reset(account_key)
        login_addresses.refund(address)
        return LoginReply(token=token, expires_at=expires.isoformat())

    def token_of(authorization: str | None) -> str:
        if authorization is None:
            raise HTTPException(401, "Authorization: Bearer <token> expected")
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise HTTPException(401, "Authorization: Bearer <token> expected")
        return token

    def bearer(authorization: str | None) -> Account | None:
        if authorization is None:
            return None
        try:
            return accounts.authenticate(token_of(authorization))
        except AuthError as error:
            raise HTTPException(401, str(error)) from None

    # the sockets are closed from the event loop (these routes run on it; the store's
    # calls go to a thread)
    @app.post("/api/logout")
    async def logout(authorization: Annotated[str | None, Header()] = None) -> dict[str, int]:
        token = token_of(authorization)
        await asyncio.to_thread(bearer, authorization)  # a dead token says so
        revoked = await asyncio.to_thread(accounts.logout, token)
        close_sockets(token=token)
        return {"revoked": revoked}

    @app.post("/api/logout/all")
    async def logout_all(
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, int]:
        account = await asyncio.to_thread(bearer, authorization)
        if account is None:
            raise HTTPException(401, "Authorization: Bearer <token> expected")
        revoked = await asyncio.to_thread(accounts.logout_all, account)
        close_sockets(account=account)
        return {"revoked": revoked}

    @app.post("/api/password")
    async def change_password(
        body: PasswordChange, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, int]:
        token = token_of(authorization)
        account = await asyncio.to_thread(bearer, authorization)
        assert account is not None
        key = name_key(account.name)
        wait = login_accounts.attempt(key)
        if wait:
            raise _too_many(wait, f"failed password checks for {account.name!r}")
        try:
            revoked = await hashing.run(
                accounts.change_password, token, body.old_password, body.new_password
            )
        except AuthError as error:
            raise HTTPException(401, str(error)) from None
        except BusyError as error:
            login_accounts.refund(key)
            raise HTTPException(503, str(error), headers={"Retry-After": "1"}) from None
        login_accounts.reset(key)
        keep = hash_token(token)
        for connection in list(connections):
            if connection.account == account and connection.token_hash != keep:
                connection.close(1008)
        return {"revoked": revoked}

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

    def admin(authorization: str | None) -> Account:
        account = bearer(authorization)
        if account is None:
            raise HTTPException(401, "the admin API needs Authorization: Bearer <token>")
        if not accounts.has_role(account):
            LOG.warning("admin API refused to %s (id %d)", account.name, account.id)
            if not denials.attempt(str(account.id)):  # one audit row a minute an account
                accounts.audit(account, "denied", "admin API", {"role": ADMIN})
            raise HTTPException(
                403, f"{account.name} is not an admin (croupier admin grant {account.name})"
            )
        return account

    @app.post("/api/admin/tables", status_code=201)
    async def open_table(
        body: dict[str, Any], authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        actor = await asyncio.to_thread(admin, authorization)
        target = str(body.get("name", "?"))
        code = 422  # bad settings; then 409: the room refuses the table
        try:
            if body.get("seed") is not None:
                raise CroupierError(
                    "seed is refused over the API: whoever knows a seed knows every deck "
                    "(a seeded table is for tests, from --tables)"
                )
            config = TableConfig.from_dict(body)
            code = 409
            info = room.open_table(config).model_dump()
        except CroupierError as error:
            refused = {"settings": body, "refused": str(error)}
            await asyncio.to_thread(accounts.audit, actor, "open_table", target, refused)
            raise HTTPException(code, str(error)) from None
        await asyncio.to_thread(accounts.audit, actor, "open_table", target, {"settings": body})
        return info

    @app.delete("/api/admin/tables/{name}")
    async def close_table(
        name: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        actor = await asyncio.to_thread(admin, authorization)
        try:
            room.close_table(
                name
            )  # on the loop (it sets the table's stop); the hand in play is finished first
        except CroupierError as error:
            refused = {"refused": str(error)}
            await asyncio.to_thread(accounts.audit, actor, "close_table", name, refused)
            raise HTTPException(404, str(error)) from None
        await asyncio.to_thread(accounts.audit, actor, "close_table", name)
        return {"table": name, "closing": True}

    @app.get("/api/admin/ledger")
    def ledger(authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        actor = admin(authorization)
        report = store.verify()
        accounts.audit(actor, "read_ledger", "ledger", {"ok": report.ok})
        return {"ok": report.ok, "problems": [str(p) for p in report.problems]}

    @app.get("/api/admin/audit")
    def audit_log(
        authorization: Annotated[str | None, Header()] = None,
        limit: Annotated[int, Query(ge=1, le=10_000)] = 1000,
    ) -> dict[str, Any]:
        actor = admin(authorization)
        accounts.audit(actor, "read_audit", "audit", {"limit": limit})
        return {"entries": [e.to_dict() for e in accounts.audit_log(limit)]}

    @app.get("/api/hands/{hand_id}")
    def get_hand(
        hand_id: int, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        viewer = bearer(authorization)
        try:
            stored = store.hand(hand_id)
        except CroupierError as error:
            raise HTTPException(404, str(error)) from None
        # the store keeps a person's chips under his account's name (names are unique in
        # any case, and none is a house bot's): a reserved legacy account sees no seat
        name = None if viewer is None or viewer.reserved else viewer.name
        seat = next((s for s, n in stored.players if name is not None and n == name), None)
        data = hand_to_dict(stored)
        data["viewer"] = {"name": None if viewer is None else viewer.name, "seat": seat}
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
        if not origin_allowed(socket.headers.get("origin"), socket.headers.get("host"), allowed):
            await socket.close(code=1008)  # before accept: the handshake gets HTTP 403
            return
        await socket.accept()
        limit = RateLimit(rate, burst)
        connection: Connection | None = None
        writer: asyncio.Task[None] | None = None
        try:
            connection = await _hello(socket, accounts)
            if connection is None:
                return
            connections.add(connection)
            writer = asyncio.create_task(_write(socket, connection))
            handler = asyncio.current_task()
            assert handler is not None
            connection.on_close = functools.partial(_shut, socket, writer, handler)
            account = connection.account
            seated = [n for n, r in runners.items() if r.player(account) is not None]
            connection.send(
                Welcome(player=None if account is None else account.name, seated=seated)
            )
            connection.send(lobby())
            for name in seated:  # a reconnection: the full view of the hand in play
                runners[name].watch(connection)
            while True:
                raw = await _receive(socket)
                if connection.closing is not None:
                    break
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
        except asyncio.CancelledError:
            if connection is None or connection.closing is None:
                raise
            # _shut gave up sending the close to a client that reads nothing: the handler
            # ends here, and the connection is let go
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        finally:
            if connection is not None:
                connections.discard(connection)
                for runner in runners.values():
                    runner.unwatch(connection)
            if writer is not None and (connection is None or connection.closing is None):
                writer.cancel()

    return app


def _error(code: str, message: str) -> ErrorMessage:
    return ErrorMessage(code=code, message=message)


async def _receive(socket: WebSocket) -> str | bytes:
    """The next frame's text (or bytes, for a binary frame); raise
    :class:`WebSocketDisconnect` when the client is gone."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text_frame: str | None = message.get("text")
    if text_frame is not None:
        return text_frame
    data: bytes = message.get("bytes") or b""
    return data


async def _hello(socket: WebSocket, accounts: Accounts) -> Connection | None:
    """Read the first message: a hello with a live token (or none); else close (also
    when none comes within :data:`HELLO_TIMEOUT` seconds)."""
    try:
        raw = await asyncio.wait_for(_receive(socket), HELLO_TIMEOUT)
    except TimeoutError:
        late = _error("hello_expected", f"no hello within {HELLO_TIMEOUT:g} s")
        await socket.send_text(late.model_dump_json())
        await socket.close(code=1008)
        return None
    try:
        message = parse_client(raw)
        if not isinstance(message, Hello):
            raise ProtocolError("hello_expected", "the first message is a hello")
        token = message.token
        account = None if token is None else await asyncio.to_thread(accounts.authenticate, token)
    except (ProtocolError, AuthError) as error:
        code = error.code if isinstance(error, ProtocolError) else "unauthorized"
        await socket.send_text(_error(code, str(error)).model_dump_json())
        await socket.close(code=1008)
        return None
    token_hash = None if message.token is None else hash_token(message.token)
    return Connection(account, token_hash)


def _shut(
    socket: WebSocket, writer: asyncio.Task[None], handler: asyncio.Task[Any], code: int
) -> None:
    """Close ``socket`` with ``code`` now (from the event loop): the writer stops (it may
    be stuck on a client that reads nothing) and the close frame goes out; if it cannot
    go out within :data:`CLOSE_TIMEOUT` seconds (the client reads nothing, so the send
    buffer never drains), the socket's handler is cancelled, which lets the connection
    go (the operating system keeps its buffers until the client reads or goes)."""
    writer.cancel()

    async def close() -> None:
        try:
            await asyncio.wait_for(socket.close(code=code), CLOSE_TIMEOUT)
        except Exception:  # a timeout, or the socket is gone already
            if not handler.done():
                handler.cancel()

    _CLOSING.add(task := asyncio.get_running_loop().create_task(close()))
    task.add_done_callback(_CLOSING.discard)


_CLOSING: set[asyncio.Task[None]] = set()
"""The sockets' close tasks under way (kept so that none is collected before it ends)."""


async def _write(socket: WebSocket, connection: Connection) -> None:
    """Send the connection's queued messages, in order; close when a close code comes."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await connection.queue.get()
            match message:
                case int(code):
                    await socket.close(code=code)
                    return
                case str(text):  # encoded once for every listener
                    await socket.send_text(text)
                case _:
                    await socket.send_text(message.model_dump_json())


def _refused(error: CroupierError) -> ErrorMessage:
    return ErrorMessage.refusing(error, "refused")


def _handle(
    message: Any, connection: Connection, runners: dict[str, RunnerBase], room: Room
) -> ErrorMessage | None:
    """Carry out one validated client message for the connection's own account; an error
    message when refused."""
    if isinstance(message, Hello):
        return _error("already_greeted", "hello is only the first message")
    runner = runners.get(message.table)
    if runner is None:
        host = next((t.host for t in room.lobby() if t.name == message.table), None)
        if host is not None and host != room.url:
            return _error("table_moved", f"table {message.table} is hosted at {host}")
        return _error("no_table", f"no table {message.table!r}: see the lobby")
    return dispatch(message, connection, runner)


def dispatch(message: Any, connection: Connection, runner: RunnerBase) -> ErrorMessage | None:
    """Carry out a validated client message for ``runner``'s table (the one it names) as
    the connection's own account; an error message when refused. A seat is found by the
    account's id (:meth:`~croupier.server.runner.RunnerBase.player`), never by a name.

    >>> from croupier.store import Store
    >>> from croupier.server.tables import TableRunner
    >>> runner = TableRunner(TableConfig("t", bots=2), Store.open("sqlite:///:memory:"))
    >>> dispatch(Leave(table="t"), Connection(Account(1, "bot-1")), runner).code
    'not_seated'
    """
    account = connection.account
    match message:
        case Watch():
            runner.watch(connection)
            return None
        case _ if account is None:
            return _error("unauthorized", "log in to play: spectators only watch")
        case Sit(seat=seat, buy_in=buy_in):
            try:
                runner.sit(runner.claim(account), seat, buy_in)
            except CroupierError as error:
                return _refused(error)
            runner.watch(connection)
            return None
    name = runner.player(account)
    if name is None:
        return runner.refuse("not_seated", f"{account.name} has no seat at {runner.name}")
    try:
        match message:
            case Leave():
                runner.leave(name)
            case SitOut():
                runner.sit_out(name)
            case SitIn():
                runner.sit_in(name)
            case Rebuy():
                runner.rebuy(name, message.amount)
            case Act():
                return runner.act(name, message.action, message.hand)
    except CroupierError as error:
        return _refused(error)
    return None
