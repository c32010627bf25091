"""The card room under load: bot clients over the real WebSocket protocol.

``croupier serve`` runs as a real process on loopback (a fresh SQLite store in a
temporary folder, a generated ``--tables`` file: ``--tables`` tables, no server bots, no
bot delay). ``--clients`` clients register and log in over HTTP before the clock starts
(argon2: registrations two at a time, logins one at a time by default: bursts of them
made the server lose its table leases, see ``--login-concurrency``; a login answered 500
is retried and counted), open one WebSocket each (``hello``, then ``sit``) and play: when a
view says it is their turn they answer at once (``--think``: a random pause first) with a
random legal action (check or call mostly, sometimes a raise inside ``raise_to``, now and
then a fold; stud: ``bring in``; draw: ``stand pat`` or a few of their own down cards). A
client that busts sits down again. Once every seat is taken and every table has
finished a hand, the timed window (``--seconds``) starts.

Reported: hands a second (finished hands of the window), actions a second, the action
latency **server-side** (``GET /api/stats``: from the server receiving an accepted action
to having queued the resulting views to every connection; the target applies to the
window's actions, ``GET /api/stats?since=N`` with N the count when the window started;
the figures over the server's whole life, warm-up included, are printed too) and
**client-side** (from sending an ``act`` to receiving the next view of that table: an
upper bound, loopback and the client process included), every ``error`` message the
server sent (the first few printed), the CPU the server and the client process used, and
at the end the store's check: the clients leave, every table empties (all cashed out),
the server is stopped with SIGINT (it must exit) and ``croupier history verify`` replays
every stored hand and checks the ledger (balanced: no problem, no chip left on a table).

Run: ``python -m benchmarks.bench_server [--seconds 60] [--clients 200] [--tables 20]``;
a smoke run: ``--seconds 5 --clients 20 --tables 2``. Also ``python -m benchmarks --only
server`` (``--quick``: 10 s, 40 clients, 4 tables). Exit status 1 when a target is
missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from benchmarks._harness import BenchResult, Check, Config, Target, src_root
from benchmarks._machine import load_average, machine_lines
from croupier.poker.games import ForcedBets, game_by_name

__all__ = ["Options", "Outcome", "main", "run", "run_benchmark"]

NAME: Final = "server"
TITLE: Final = "card-room server: bot clients over WebSocket on loopback"

P99_TARGET_MS: Final = 50.0
"""The issue's target: server-side p99 action latency (receive -> views queued)."""

GAMES: Final = (
    ("holdem", "no-limit"),
    ("omaha", "pot-limit"),
    ("holdem", "fixed-limit"),
    ("omaha", "no-limit"),
)
"""The default mix, table after table: ten-seat games, so 200 clients fill 20 tables."""

PASSWORD: Final = "bench-password-1"
PROGRESS_EVERY: Final = 10.0
"""Seconds between progress lines."""
REGISTER_CONCURRENCY: Final = 2
SIT_RETRY_SECONDS: Final = 2.0
"""A client refused with ``no_table`` sits again after this long (the error still counts)."""
"""Registrations in flight at once."""
LOGIN_ATTEMPTS: Final = 20
"""Tries of a login the server answers 500 (SQLite "database is locked") before giving up."""
FIRST_ERRORS: Final = 5
"""Error messages printed in full."""


@dataclass(frozen=True)
class Options:
    """One run's settings (the command line's)."""

    seconds: float = 60.0
    clients: int = 200
    tables: int = 20
    games: tuple[tuple[str, str], ...] = GAMES
    think: float = 0.0
    """Seconds a client may wait before acting (uniform 0..think; 0: at once)."""
    compression: bool = True
    """permessage-deflate on the sockets, as browsers negotiate it."""
    time_bank: float = 15.0
    buy_in: int = 5000
    seed: int = 1
    verbose: bool = True
    login_concurrency: int = 1
    """Logins in flight at once (1: one after the other; see the note in :func:`main`)."""
    keep: bool = False
    """Keep the temporary folder (store, tables file, server log) and print its path."""


@dataclass(frozen=True)
class TablePlan:
    """One table of the run and how many clients sit at it."""

    name: str
    game: str
    structure: str
    seats: int
    clients: int


def plan_tables(options: Options) -> list[TablePlan]:
    """Name the tables (the game mix in turn) and spread the clients over their seats."""
    if options.tables < 1 or options.clients < 2 * options.tables:
        raise SystemExit("need at least one table and two clients a table")
    games = [options.games[i % len(options.games)] for i in range(options.tables)]
    seats = [min(10, game_by_name(g).max_players) for g, _ in games]
    if sum(seats) < options.clients:
        raise SystemExit(
            f"{options.clients} clients do not fit in {sum(seats)} seats of {options.tables} tables"
        )
    counts = [0] * options.tables
    left = options.clients
    while left:
        for i in range(options.tables):
            if left and counts[i] < seats[i]:
                counts[i] += 1
                left -= 1
    # stud tables are fixed limit whatever the mix says (TableConfig.rules)
    games = [(g, "fixed-limit" if _stud(g) else s) for g, s in games]
    return [
        TablePlan(f"{g}-{s.split('-')[0]}-{i + 1:02d}", g, s, seats[i], counts[i])
        for i, (g, s) in enumerate(games)
    ]


def _stud(game: str) -> bool:
    return game_by_name(game).forced is not ForcedBets.BLINDS


def tables_toml(plans: Sequence[TablePlan], options: Options) -> str:
    """The ``--tables`` file: no bots, no bot delay, deal only with people seated."""
    out = []
    for i, p in enumerate(plans):
        out += [
            "[[table]]",
            f'name = "{p.name}"',
            f'game = "{p.game}"',
            f'structure = "{p.structure}"',
            "blinds = [5, 10]",
            f"seats = {p.seats}",
            "bots = 0",
            'bot_style = "random"',
            f"buy_in = {options.buy_in}",
            f"time_bank = {options.time_bank}",
            "bot_delay = 0.0",
            "play_without_humans = false",
            f"seed = {options.seed * 1000 + i}",
            "",
        ]
    return "\n".join(out)


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
        self, name: str, token: str, table: str, seat: int, tally: Tally, options: Options
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


def _abort_if_stopped(problems: list[str], server: Server) -> None:
    if problems:
        raise RuntimeError(
            f"{len(problems)} table tasks stopped (GET /readyz): {problems[0]}\nserver log:\n"
            + "\n".join(server.errors()[-12:])
        )


async def seated(client: httpx.AsyncClient, base: str) -> dict[str, list[str]]:
    """Every table's seated players, from the lobby."""
    lobby = await get_json(client, f"{base}/api/tables")
    return {t["name"]: list(t["players"]) for t in (lobby or {}).get("tables", [])}


# ---------------------------------------------------------------------------- the run
@dataclass
class Outcome:
    """Everything a run measured."""

    options: Options
    plans: list[TablePlan]
    window: float = math.nan
    hands: int = 0
    actions: int = 0
    client_latencies: list[float] = field(default_factory=list)
    server_stats: dict[str, Any] | None = None
    """``GET /api/stats`` at the end: percentiles over the server's whole life."""
    server_stats_start: dict[str, Any] | None = None
    window_stats: dict[str, Any] | None = None
    """``GET /api/stats?since=N`` at the end (N: the actions counted when the window
    started): the percentiles of the window's actions only; the target applies to them."""
    errors: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)
    resits: int = 0
    sit_retries: int = 0
    login_500s: list[str] = field(default_factory=list)
    """Logins the server answered 500 (retried)."""
    setup: dict[str, float] = field(default_factory=dict)
    server_cpu: float = math.nan
    client_cpu: float = math.nan
    emptied: bool = False
    left_seated: dict[str, list[str]] = field(default_factory=dict)
    exit_code: int | None = None
    stop_seconds: float = math.nan
    verify: dict[str, Any] | None = None
    verify_text: str = ""
    verify_seconds: float = math.nan
    server_log: str = ""
    log_errors: list[str] = field(default_factory=list)
    """Lines of the server's log that report an error (ERROR, Traceback, Exception)."""
    ready_problems: list[str] = field(default_factory=list)
    """What ``GET /readyz`` listed at the end of the window."""
    load_before: tuple[float, float, float] | None = None
    load_after: tuple[float, float, float] | None = None

    @property
    def server_p99(self) -> float:
        """Server-side p99 of the window's actions in ms (NaN: the server has no
        /api/stats)."""
        return _stat(self.window_stats, "p99")

    @property
    def ledger_ok(self) -> bool:
        """``history verify`` found no problem and no chip is left on a table."""
        return bool(
            self.verify
            and self.verify.get("ok")
            and self.verify.get("chips", {}).get("on_table", 1) == 0
        )


def _stat(stats: dict[str, Any] | None, key: str) -> float:
    if not stats or not isinstance(stats.get("latency_ms"), dict):
        return math.nan
    value = stats["latency_ms"].get(key)
    return float(value) if isinstance(value, int | float) else math.nan


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1, nearest rank) of ``values``; NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def say(options: Options, text: str) -> None:
    """Print a progress line (unless quiet)."""
    if options.verbose:
        print(text, flush=True)


async def _play(options: Options, plans: list[TablePlan], server: Server, out: Outcome) -> None:
    tally = Tally()
    limits = httpx.Limits(max_connections=32, max_keepalive_connections=32)
    async with httpx.AsyncClient(timeout=120, trust_env=False, limits=limits) as http:
        out.setup["server ready"] = await server.ready(http)
        say(options, f"server ready on {server.base} after {out.setup['server ready']:.1f} s")
        names = [f"bench{i + 1:03d}" for i in range(options.clients)]
        clock = time.perf_counter()
        gates = (
            asyncio.Semaphore(REGISTER_CONCURRENCY),
            asyncio.Semaphore(options.login_concurrency),
        )
        failures = out.login_500s
        tokens = await asyncio.gather(
            *(log_in(http, server.base, n, gates, failures) for n in names)
        )
        out.setup["register + login"] = time.perf_counter() - clock
        say(
            options,
            f"{len(names)} accounts registered and logged in: {out.setup['register + login']:.1f} s",
        )
        bots: list[Bot] = []
        it = iter(zip(names, tokens, strict=True))
        for plan in plans:
            for seat in range(1, plan.clients + 1):
                name, token = next(it)
                bots.append(Bot(name, token, plan.name, seat, tally, options))
        clock = time.perf_counter()
        gate = asyncio.Semaphore(20)

        async def open_one(bot: Bot) -> None:
            async with gate:
                await bot.open(server.base)
            bot.task = asyncio.create_task(bot.play())

        await asyncio.gather(*(open_one(b) for b in bots))
        out.setup["connect + sit"] = time.perf_counter() - clock
        say(
            options,
            f"{len(bots)} sockets open, every client sent its sit: {out.setup['connect + sit']:.1f} s",
        )
        # warm-up: every seat taken and every table past one hand with all seated
        clock = time.perf_counter()
        want = {p.name: p.clients for p in plans}
        while time.perf_counter() - clock < 120:
            players = await seated(http, server.base)
            full = all(len(players.get(t, [])) >= n for t, n in want.items())
            if full:
                break
            _abort_if_stopped(await stopped_tables(http, server.base), server)
            if time.perf_counter() - clock > 60 and not any(players.values()):
                first = tally.errors[0] if tally.errors else ("setup", "-", {})
                raise RuntimeError(
                    f"nobody seated after 60 s; {len(tally.errors)} errors, e.g. {first[1]}: {first[2]}\n"
                    f"server log:\n" + "\n".join(server.errors()[-20:])
                )
            await asyncio.sleep(0.5)
        done_before = set(tally.all_hands)
        while time.perf_counter() - clock < 120:
            fresh = {t for t, _ in tally.all_hands - done_before}
            if fresh >= set(want) or not want:
                break
            _abort_if_stopped(await stopped_tables(http, server.base), server)
            await asyncio.sleep(0.5)
        out.setup["warm-up"] = time.perf_counter() - clock
        players = await seated(http, server.base)
        seated_count = sum(len(players.get(t, [])) for t in want)
        say(
            options,
            f"warm-up {out.setup['warm-up']:.1f} s: {seated_count} of {len(bots)} clients seated, "
            f"{len(tally.all_hands)} hands played; the {options.seconds:g} s window starts",
        )
        # the timed window
        out.server_stats_start = await get_json(http, f"{server.base}/api/stats")
        cpu0, own0 = cpu_seconds(server.process.pid), own_cpu_seconds()
        tally.phase = "window"
        tally.window = True
        start = time.perf_counter()
        last_hands, last_actions, last_time = 0, 0, start
        next_print = start + PROGRESS_EVERY
        next_check = start + 2.0
        end = start + options.seconds
        while (now := time.perf_counter()) < end:
            await asyncio.sleep(min(0.25, end - now))
            if server.process.poll() is not None:
                raise RuntimeError(f"the server died during the run:\n{server.tail()}")
            if now >= next_check:
                _abort_if_stopped(await stopped_tables(http, server.base), server)
                next_check += 2.0
            now = time.perf_counter()
            if now >= next_print and now < end - 1:
                hands, actions = len(tally.hands), tally.actions
                span = now - last_time
                recent = tally.recent
                tally.recent = []
                say(
                    options,
                    f"  {now - start:5.1f} s: {hands:6,} hands ({(hands - last_hands) / span:6.1f}/s), "
                    f"{actions:7,} actions ({(actions - last_actions) / span:6.0f}/s), client-side "
                    f"p50 {percentile(recent, 0.5) * 1e3:5.1f} ms p99 {percentile(recent, 0.99) * 1e3:6.1f} ms, "
                    f"errors {len(tally.errors)}, load {os.getloadavg()[0]:.2f}",
                )
                last_hands, last_actions, last_time = hands, actions, now
                next_print += PROGRESS_EVERY
        tally.window = False
        out.window = time.perf_counter() - start
        out.server_cpu = cpu_seconds(server.process.pid) - cpu0
        out.client_cpu = own_cpu_seconds() - own0
        out.server_stats = await get_json(http, f"{server.base}/api/stats")
        since = int((out.server_stats_start or {}).get("actions", 0))
        out.window_stats = await get_json(http, f"{server.base}/api/stats?since={since}")
        with contextlib.suppress(httpx.HTTPError):
            ready = (await http.get(f"{server.base}/readyz")).json()
            out.ready_problems = [str(p) for p in ready.get("problems", [])]
        out.hands, out.actions = len(tally.hands), tally.actions
        out.client_latencies = list(tally.latencies)
        out.load_after = load_average()
        # shutdown: every client leaves (when the lobby lists it), the tables empty
        tally.phase = "shutdown"
        for bot in bots:
            bot.stopping = True
        clock = time.perf_counter()
        told: set[str] = set()
        by_name = {b.name: b for b in bots}
        while time.perf_counter() - clock < 60:
            players = await seated(http, server.base)
            still = {n for names_ in players.values() for n in names_}
            if not still:
                out.emptied = True
                break
            for name in sorted(still - told):
                if name in by_name:
                    told.add(name)
                    await by_name[name].leave()
            await asyncio.sleep(0.3)
        out.left_seated = {t: p for t, p in (await seated(http, server.base)).items() if p}
        out.setup["leave + tables empty"] = time.perf_counter() - clock
        await asyncio.gather(*(b.close() for b in bots))
    out.errors = list(tally.errors)
    out.closed = list(tally.closed)
    out.resits = tally.resits
    out.sit_retries = tally.sit_retries


def _verify(server: Server, out: Outcome) -> None:
    """``croupier history verify --json`` on the run's store (the server stopped)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (src_root(), os.environ.get("PYTHONPATH")) if p
    )}  # fmt: skip
    command = [sys.executable, "-m", "croupier", "history", "verify", "--db", server.db, "--json"]
    clock = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    out.verify_seconds = time.perf_counter() - clock
    out.verify_text = (done.stdout + done.stderr).strip()
    try:
        data = json.loads(done.stdout.strip().splitlines()[-1])
        out.verify = data if isinstance(data, dict) else None
    except (json.JSONDecodeError, IndexError):
        out.verify = None


def run_benchmark(options: Options) -> Outcome:
    """Start the server, play, stop it, verify the store: the outcome."""
    plans = plan_tables(options)
    out = Outcome(options, plans, load_before=load_average())
    folder = Path(tempfile.mkdtemp(prefix="croupier-bench-server-"))
    tables = folder / "tables.toml"
    tables.write_text(tables_toml(plans, options), encoding="utf-8")
    server = Server(folder, tables)
    try:
        try:
            asyncio.run(_play(options, plans, server, out))
        except BaseException:
            print(f"server log (end):\n{server.tail(60)}", file=sys.stderr)
            raise
        finally:
            server.stop()
            out.exit_code, out.stop_seconds = server.exit_code, server.stop_seconds
            out.server_log = server.tail(40)
            out.log_errors = server.errors()
        _verify(server, out)
    finally:
        if options.keep:
            print(f"kept {folder} (bench.db, tables.toml, server.log)", flush=True)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return out


# ---------------------------------------------------------------------------- the report
def _ms(seconds: float) -> str:
    return "n/a" if math.isnan(seconds) else f"{seconds * 1e3:.1f} ms"


def _games(plans: Sequence[TablePlan]) -> str:
    counts: dict[str, list[int]] = {}
    for p in plans:
        counts.setdefault(f"{p.game} {p.structure}", []).append(p.clients)
    return ", ".join(
        f"{len(c)} x {k} ({'/'.join(str(x) for x in sorted(set(c)))} clients)"
        for k, c in counts.items()
    )


def targets(out: Outcome) -> list[tuple[str, bool, str]]:
    """(target, met, what was measured) for each of the issue's targets."""
    p99 = out.server_p99
    errors = len(out.errors)
    verify = out.verify or {}
    chips = verify.get("chips", {})
    if not math.isnan(p99):
        p99_text = f"server-side p99 {p99:.2f} ms"
    elif out.server_stats is None:
        p99_text = "server-side p99 not available (no GET /api/stats)"
    else:
        p99_text = "server-side p99 not available (the server measured no action)"
    return [
        ("server-side p99 action latency <= 50 ms", p99 <= P99_TARGET_MS, p99_text),
        (
            "0 errors",
            errors == 0 and not out.closed,
            f"{errors} error messages, {len(out.closed)} sockets closed by the server",
        ),
        (
            "ledger balanced (history verify ok, no chip left on a table)",
            out.ledger_ok,
            f"verify ok={verify.get('ok')}, on the table {chips.get('on_table')}",
        ),
        (
            "server exits on SIGINT",
            out.exit_code is not None,
            f"exit code {out.exit_code} after {out.stop_seconds:.1f} s"
            if out.exit_code is not None
            else "killed: it did not exit within 20 s",
        ),
    ]


def report_lines(out: Outcome) -> list[str]:
    """The result block (machine lines excluded)."""
    o = out.options
    lat = out.client_latencies
    stats = out.server_stats
    lines = [
        f"setup: {o.clients} clients on {len(out.plans)} tables: {_games(out.plans)}; "
        f"buy-in {o.buy_in}, blinds 5/10, think time {o.think:g} s, "
        f"clients {'offer' if o.compression else 'do not offer'} permessage-deflate "
        "(croupier serve declines it unless --ws-compression), "
        f"time bank {o.time_bank:g} s",
        "setup times: " + ", ".join(f"{k} {v:.1f} s" for k, v in out.setup.items()),
        f"setup: registrations {REGISTER_CONCURRENCY} at a time, logins "
        f"{o.login_concurrency} at a time; {len(out.login_500s)} logins answered 500 and were retried"
        + (f" (server problem: {len(set(out.login_500s))} accounts)" if out.login_500s else ""),
        f"window: {out.window:.1f} s; {out.hands:,} hands = {out.hands / out.window:.1f} hands/s; "
        f"{out.actions:,} client actions = {out.actions / out.window:.0f} actions/s; "
        f"{out.resits} re-sits after a bust",
    ]
    if stats is not None:
        start = out.server_stats_start or {}
        d_actions = int(stats.get("actions", 0)) - int(start.get("actions", 0))
        d_hands = int(stats.get("hands", 0)) - int(start.get("hands", 0))
        window = out.window_stats
        if window is not None:
            lines.append(
                f"server-side in the window (GET /api/stats?since=N, receive -> views queued; "
                f"{int(window.get('latency_ms', {}).get('count') or 0):,} actions): "
                f"p50 {_stat(window, 'p50'):.2f} ms, p99 {_stat(window, 'p99'):.2f} ms, "
                f"max {_stat(window, 'max'):.2f} ms"
            )
        lines.append(
            f"server-side over the server's whole life (warm-up included, "
            f"{int(_stat(stats, 'count') if not math.isnan(_stat(stats, 'count')) else 0):,} "
            f"actions): p50 {_stat(stats, 'p50'):.2f} ms, p99 {_stat(stats, 'p99'):.2f} ms, "
            f"max {_stat(stats, 'max'):.2f} ms; in the window {d_actions:,} actions, "
            f"{d_hands:,} hands, server errors {stats.get('errors')}"
        )
        if "journal_batches" in stats:
            batches = int(stats["journal_batches"]) - int(start.get("journal_batches", 0))
            lines.append(
                f"journal: {batches:,} transactions in the window "
                f"({d_actions / max(batches, 1):.1f} actions each, the group commit)"
            )
    else:
        lines.append(
            "server-side: GET /api/stats not available on this server (no server-side latency)"
        )
    lines.append(
        f"client-side (send act -> next view of the table; an upper bound): {len(lat):,} samples, "
        f"p50 {_ms(percentile(lat, 0.5))}, p90 {_ms(percentile(lat, 0.9))}, "
        f"p99 {_ms(percentile(lat, 0.99))}, max {_ms(max(lat) if lat else math.nan)}"
        + (f", mean {_ms(statistics.fmean(lat))}" if lat else "")
    )
    cores = os.cpu_count() or 1
    lines.append(
        f"CPU in the window: server {out.server_cpu:.1f} s ({out.server_cpu / out.window:.0%} of a core), "
        f"clients (this process) {out.client_cpu:.1f} s ({out.client_cpu / out.window:.0%}); "
        f"{cores} cores"
    )
    phases: dict[str, int] = {}
    for phase, _, _ in out.errors:
        phases[phase] = phases.get(phase, 0) + 1
    lines.append(
        f"errors: {len(out.errors)}"
        + (" (" + ", ".join(f"{k} {v}" for k, v in phases.items()) + ")" if phases else "")
        + f"; sockets closed by the server: {len(out.closed)}; sits sent again after "
        f"no_table: {out.sit_retries}"
    )
    for phase, name, message in out.errors[:FIRST_ERRORS]:
        lines.append(f"  [{phase}] {name}: {json.dumps(message)}")
    lines.append(
        f"server log: {len(out.log_errors)} error or warning lines; GET /readyz at the end of the window: "
        + ("ready" if not out.ready_problems else "; ".join(out.ready_problems))
    )
    for line in out.log_errors[:FIRST_ERRORS]:
        lines.append(f"  log: {line[:300]}")
    lines.append(
        f"shutdown: tables emptied {'yes' if out.emptied else 'NO: ' + json.dumps(out.left_seated)}; "
        f"server exit code {out.exit_code} after SIGINT ({out.stop_seconds:.1f} s)"
    )
    verify = out.verify
    if verify is not None:
        chips = verify.get("chips", {})
        lines.append(
            f"history verify ({out.verify_seconds:.1f} s): ok={verify.get('ok')}, "
            f"{verify.get('sessions')} sessions, {verify.get('hands')} hands, "
            f"{verify.get('ledger_entries')} ledger entries; chips bought in "
            f"{chips.get('bought_in')}, cashed out {chips.get('cashed_out')}, house "
            f"{chips.get('house')}, on the table {chips.get('on_table')}"
        )
        for problem in verify.get("problems", [])[:FIRST_ERRORS]:
            lines.append(f"  problem: {problem}")
    else:
        lines.append(f"history verify failed to report:\n{out.verify_text}")
    if out.exit_code != 0:
        lines.append("server log (end):\n" + out.server_log)
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Run and print; exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_server", description=TITLE)
    parser.add_argument("--seconds", type=float, default=60.0, help="the timed window (60)")
    parser.add_argument("--clients", type=int, default=200, help="bot clients (200)")
    parser.add_argument("--tables", type=int, default=20, help="tables (20)")
    parser.add_argument(
        "--games",
        default=",".join(f"{g}:{s}" for g, s in GAMES),
        help="the game mix, table after table: game:structure,... (stud7, draw: 8 seats)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="max seconds before an act, uniform (0: act at once, the room saturated)",
    )
    parser.add_argument("--no-compression", action="store_true", help="no permessage-deflate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the store and the server log")
    parser.add_argument(
        "--login-concurrency",
        type=int,
        default=2,
        help="logins in flight at once (2: argon2 takes a core each)",
    )
    args = parser.parse_args(argv)
    games = tuple(
        (g, s or "no-limit")
        for g, _, s in (x.strip().partition(":") for x in args.games.split(","))
    )
    options = Options(
        seconds=args.seconds,
        clients=args.clients,
        tables=args.tables,
        games=games,
        think=args.think,
        compression=not args.no_compression,
        seed=args.seed,
        keep=args.keep,
        login_concurrency=args.login_concurrency,
    )
    print(f"== {NAME}: {TITLE}", flush=True)
    for line in machine_lines(load_average(), None)[:2]:
        print(line)
    try:
        out = run_benchmark(options)
    except RuntimeError as error:  # the server failed before the figures: say how
        print(f"FAIL  the run did not complete: {error}", flush=True)
        return 1
    for line in machine_lines(out.load_before, out.load_after)[2:]:
        print(line)
    for line in report_lines(out):
        print(line)
    results = targets(out)
    for name, met, measured in results:
        print(f"{'PASS' if met else 'FAIL'}  {name}: {measured}")
    return 0 if all(met for _, met, _ in results) else 1


def run(cfg: Config) -> BenchResult:
    """The ``python -m benchmarks --only server`` entry (``--quick``: 10 s, 40 clients, 4 tables)."""
    options = Options(seconds=10, clients=40, tables=4) if cfg.quick else Options()
    res = BenchResult(NAME, TITLE)
    try:
        out = run_benchmark(options)
    except RuntimeError as error:  # the server failed: say how, as a failed check
        res.checks.append(Check("the run completed", False, str(error)))
        return res
    verify = out.verify or {}
    chips = verify.get("chips", {})
    detail = (
        f"{verify.get('hands')} hands, bought in {chips.get('bought_in')}, cashed out "
        f"{chips.get('cashed_out')}, house {chips.get('house')}, on the table {chips.get('on_table')}"
        if out.verify is not None
        else out.verify_text[-300:]
    )
    res.info += report_lines(out)
    res.targets.append(
        Target(
            "server-side p99 action latency (receive -> views queued)",
            out.server_p99,
            "<=",
            P99_TARGET_MS,
            "ms",
            f"{options.clients} clients, {options.tables} tables, {options.seconds:g} s",
        )
    )
    res.targets.append(
        Target(
            "error messages and dropped sockets",
            len(out.errors) + len(out.closed),
            "<=",
            0,
            "errors",
        )
    )
    res.checks.append(Check("ledger balanced (croupier history verify)", out.ledger_ok, detail))
    res.checks.append(
        Check("server exits on SIGINT", out.exit_code is not None, f"exit code {out.exit_code}")
    )
    return res


if __name__ == "__main__":
    raise SystemExit(main())
