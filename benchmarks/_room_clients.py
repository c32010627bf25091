"""The card-room benchmark's parts that talk to the server: ``croupier serve`` as a child
process (its log, its CPU, its stop) and the bot clients, which log in over HTTP and play
over the WebSocket protocol as a browser would (see ``docs/protocol.md``). Used by
:mod:`benchmarks.bench_server`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from benchmarks._harness import src_root

PASSWORD: Final = "bench-password-1"
SIT_RETRY_SECONDS: Final = 2.0
"""A client refused with ``no_table`` sits again after this long (the error still counts)."""
REGISTER_CONCURRENCY: Final = 2
"""Registrations in flight at once."""
LOGIN_ATTEMPTS: Final = 20
"""Tries of a login the server answers 500 (SQLite "database is locked") before giving up."""


class ClientOptions(Protocol):
    """What a bot client takes from the benchmark's options."""

    @property
    def seed(self) -> int: ...
    @property
    def compression(self) -> bool: ...
    @property
    def think(self) -> float: ...


# ---------------------------------------------------------------------------- the server
def free_port() -> int:
    """A TCP port nobody listens on now (bound to port 0, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds process ``pid`` used so far (``/proc``; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return math.nan
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_mib(pid: int, field: str = "VmRSS") -> float:
    """Process ``pid``'s resident memory in MiB: now (``VmRSS``) or its peak so far
    (``VmHWM``), from ``/proc`` (NaN elsewhere)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return math.nan


def own_cpu_seconds() -> float:
    """CPU seconds this process used so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Server:
    """``python -m croupier serve`` in a child process, its log in a file."""

    def __init__(self, folder: Path, tables: Path) -> None:
        self.port = free_port()
        self.db = f"sqlite:///{folder / 'bench.db'}"
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "server.log"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (src_root(), os.environ.get("PYTHONPATH")) if p
        )}  # fmt: skip
        command = [sys.executable, "-m", "croupier", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--db", self.db, "--tables", str(tables)]
        command += ["--max-registrations", "100000"]  # every client registers from 127.0.0.1
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            command, env=env, stdout=self._log, stderr=subprocess.STDOUT
        )
        self.exit_code: int | None = None
        self.stop_seconds = math.nan

    async def ready(self, client: httpx.AsyncClient, timeout: float = 60.0) -> float:
        """Poll ``GET /readyz`` until it answers 200; the seconds it took."""
        start = time.perf_counter()
        while time.perf_counter() - start < timeout:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}):\n{self.tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(f"{self.base}/readyz")).status_code == 200:
                    return time.perf_counter() - start
            await asyncio.sleep(0.1)
        raise RuntimeError(f"the server was not ready after {timeout:g} s:\n{self.tail()}")

    def stop(self, timeout: float = 20.0) -> None:
        """SIGINT, then wait (SIGKILL after ``timeout``): record the exit code and time."""
        start = time.perf_counter()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                self.exit_code = None
                self._log.close()
                return
        self.stop_seconds = time.perf_counter() - start
        self.exit_code = self.process.returncode
        self._log.close()

    def errors(self) -> list[str]:
        """The log's lines that are not uvicorn's INFO lines or the start banner: errors,
        warnings (a table dropped, a lease lost...) and the last line of each traceback."""
        found = []
        lines = self.log_path.read_text(errors="replace").splitlines()
        for i, line in enumerate(lines):
            if line.startswith(("INFO:", "croupier: serving")) or line.startswith((" ", "\t")):
                continue
            if line.startswith("Traceback"):
                end = next((j for j in range(i + 1, len(lines)) if lines[j][:1] not in " \t"), i)
                line = f"{line} ... {lines[end]}"
            found.append(line)
        return found

    def tail(self, lines: int = 30) -> str:
        """The end of the server's log."""
        if not self._log.closed:
            self._log.flush()
        text = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])


# ---------------------------------------------------------------------------- the clients
@dataclass
class Tally:
    """What all the clients saw (the window's figures, and the whole run's errors)."""

    window: bool = False
    latencies: list[float] = field(default_factory=list)
    """Client-side act -> next view, seconds, inside the window."""
    recent: list[float] = field(default_factory=list)
    """The same since the last progress line."""
    actions: int = 0
    hands: set[tuple[str, int]] = field(default_factory=set)
    """(table, hand) finished inside the window."""
    all_hands: set[tuple[str, int]] = field(default_factory=set)
    errors: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    """(phase, client, the error message)."""
    phase: str = "setup"
    resits: int = 0
    sit_retries: int = 0
    """Sits sent again after a ``no_table`` error (a table not hosted at the time)."""
    closed: list[str] = field(default_factory=list)
    """Clients whose socket the server closed."""


def choose(view: dict[str, Any], rng: random.Random) -> str:
    """A random legal action's text for the seat whose turn it is in ``view``."""
    legal = view["legal"]
    if legal.get("discard"):
        me = next(p for p in view["players"] if p["seat"] == view["seat"])
        down = [c for c in me["down"] if c]
        cards = rng.sample(down, min(len(down), rng.choice((0, 0, 1, 2, 3))))
        return "discard " + " ".join(cards) if cards else "stand pat"
    if legal.get("bring_in"):
        low, high = legal["bring_in"]
        return f"bring in {high if rng.random() < 0.2 else low}"
    roll = rng.random()
    if legal.get("raise_to") and roll < 0.12:
        low, high = legal["raise_to"]
        amount = low if rng.random() < 0.75 else rng.randint(low, min(high, 3 * low))
        return f"raise to {amount}"
    if legal.get("fold") and legal.get("call") is not None and roll > 0.88:
        return "fold"
    if legal.get("check"):
        return "check"
    if legal.get("call") is not None:
        return "call"
    return "fold"


class Bot:
    """One client: a socket, a seat at one table, and the random legal play."""

    def __init__(
        self, name: str, token: str, table: str, seat: int, tally: Tally, options: ClientOptions
    ) -> None:
        self.name, self.token, self.table, self.seat = name, token, table, seat
        self.tally, self.options = tally, options
        self.rng = random.Random(f"{options.seed} {name}")
        self.socket: ClientConnection | None = None
        self.sent_at: float | None = None
        self.last_key: tuple[int, int] | None = None
        self.stopping = False
        self.left = False
        self.task: asyncio.Task[None] | None = None
        self._retry: asyncio.Task[None] | None = None

    async def open(self, base: str) -> None:
        """Connect, say hello, wait for the welcome, and sit."""
        url = base.replace("http://", "ws://") + "/ws"
        self.socket = await connect(
            url,
            proxy=None,
            compression="deflate" if self.options.compression else None,
            max_size=2**22,
            open_timeout=60,
            ping_interval=None,
        )
        await self.socket.send(json.dumps({"type": "hello", "token": self.token}))
        while True:
            message = json.loads(await self.socket.recv())
            if message.get("type") == "welcome":
                break
            if message.get("type") == "error":
                self._error(message)
                raise RuntimeError(f"{self.name}: hello refused: {message}")
        await self._send({"type": "sit", "table": self.table, "seat": self.seat})

    async def _send(self, message: dict[str, Any]) -> None:
        assert self.socket is not None
        with contextlib.suppress(ConnectionClosed):
            await self.socket.send(json.dumps(message))

    def _error(self, message: dict[str, Any]) -> None:
        if (
            self.tally.phase == "shutdown"
            and message.get("code") == "refused"
            and str(message.get("message", "")).startswith(f"{self.name} has no seat")
        ):
            return  # he left the table (busted, cashed out) after the lobby said he sat
        self.tally.errors.append((self.tally.phase, self.name, message))

    async def play(self) -> None:
        """Read messages until the socket closes; act when it is this seat's turn."""
        assert self.socket is not None
        try:
            async for raw in self.socket:
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "view" and message.get("table") == self.table:
                    await self._view(message)
                elif kind == "hand_finished" and message.get("table") == self.table:
                    await self._finished(message)
                elif kind == "error":
                    self._error(message)
                    if message.get("code") == "no_table" and not self.stopping:
                        # the table is not hosted (now): counted above, sit again later
                        self.tally.sit_retries += 1
                        self._retry = asyncio.create_task(self._sit_later())
        except ConnectionClosed:
            pass
        if not self.stopping:
            self.tally.closed.append(self.name)

    async def _view(self, message: dict[str, Any]) -> None:
        now = time.perf_counter()
        if self.sent_at is not None:
            if self.tally.window:
                self.tally.latencies.append(now - self.sent_at)
                self.tally.recent.append(now - self.sent_at)
            self.sent_at = None
        view = message["view"]
        if self.left or view.get("seat") != self.seat or view.get("actor") != self.seat:
            return
        if not view.get("legal"):
            return
        key = (int(message["hand"]), message.get("events_from", 0) + len(view.get("events", ())))
        if key == self.last_key:
            return  # the same decision point sent twice (a watch and a broadcast)
        self.last_key = key
        action = choose(view, self.rng)
        if self.options.think > 0:
            await asyncio.sleep(self.rng.uniform(0, self.options.think))
            if self.left or self.stopping:
                return  # the player left while thinking: the table has moved on
        if self.tally.window:
            self.tally.actions += 1
        self.sent_at = time.perf_counter()
        await self._send(
            {"type": "act", "table": self.table, "action": action, "hand": message["hand"]}
        )

    async def _finished(self, message: dict[str, Any]) -> None:
        key = (self.table, int(message["hand"]))
        if self.tally.window:
            self.tally.hands.add(key)
        self.tally.all_hands.add(key)
        mine = [r for r in message.get("results", ()) if r.get("name") == self.name]
        if mine and mine[0].get("stack") == 0 and not self.stopping:
            self.tally.resits += 1  # busted and cashed out: sit down again
            await self._send({"type": "sit", "table": self.table, "seat": self.seat})

    async def _sit_later(self) -> None:
        await asyncio.sleep(SIT_RETRY_SECONDS)
        await self._send({"type": "sit", "table": self.table, "seat": self.seat})

    async def leave(self) -> None:
        """Stop playing this seat (the server plays its turns by default till the hand ends)."""
        self.left = True
        await self._send({"type": "leave", "table": self.table})

    async def close(self) -> None:
        """Close the socket and wait for the reader."""
        self.stopping = True
        if self.socket is not None:
            await self.socket.close()
        if self.task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self.task, timeout=10)


async def log_in(
    client: httpx.AsyncClient,
    base: str,
    name: str,
    gates: tuple[asyncio.Semaphore, asyncio.Semaphore],
    failures: list[str],
) -> str:
    """Register ``name`` and log in (each under its own gate): its session token. A login
    answered 500 is retried (up to :data:`LOGIN_ATTEMPTS` times) and noted in ``failures``."""
    async with gates[0]:
        reply = await client.post(f"{base}/api/register", json={"name": name, "password": PASSWORD})
        if reply.status_code != 201:
            raise RuntimeError(f"register {name}: {reply.status_code} {reply.text}")
    async with gates[1]:
        for attempt in range(LOGIN_ATTEMPTS):
            try:
                reply = await client.post(
                    f"{base}/api/login", json={"name": name, "password": PASSWORD}
                )
            except httpx.TransportError:  # uvicorn drops the connection after a 500
                if attempt == LOGIN_ATTEMPTS - 1:
                    raise
            else:
                if reply.status_code != 500 or attempt == LOGIN_ATTEMPTS - 1:
                    break
            failures.append(name)  # a server problem, reported: retried after a pause
            await asyncio.sleep(0.05 * (attempt + 1))
        if reply.status_code != 200:
            raise RuntimeError(f"login {name}: {reply.status_code} {reply.text}")
        return str(reply.json()["token"])


async def get_json(client: httpx.AsyncClient, url: str) -> dict[str, Any] | None:
    """The JSON of ``GET url``, or None when it is not 200."""
    try:
        reply = await client.get(url)
    except httpx.HTTPError:
        return None
    if reply.status_code != 200:
        return None
    data = reply.json()
    return data if isinstance(data, dict) else None


async def stopped_tables(client: httpx.AsyncClient, base: str) -> list[str]:
    """``GET /readyz``'s problems when it says a table task stopped (else none)."""
    try:
        reply = await client.get(f"{base}/readyz")
    except httpx.HTTPError:
        return []
    if reply.status_code == 200:
        return []
    problems = [str(p) for p in reply.json().get("problems", [])]
    return [p for p in problems if "stopped" in p]


def abort_if_stopped(problems: list[str], server: Server) -> None:
    if problems:
        raise RuntimeError(
            f"{len(problems)} table tasks stopped (GET /readyz): {problems[0]}\nserver log:\n"
            + "\n".join(server.errors()[-12:])
        )


async def seated(client: httpx.AsyncClient, base: str) -> dict[str, list[str]]:
    """Every table's seated players, from the lobby."""
    lobby = await get_json(client, f"{base}/api/tables")
    return {t["name"]: list(t["players"]) for t in (lobby or {}).get("tables", [])}
