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
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import httpx

from benchmarks._harness import BenchResult, Check, Config, Target, src_root
from benchmarks._machine import cpu_ticks, load_average, machine_lines, steal_fraction
from benchmarks._room_clients import (
    REGISTER_CONCURRENCY,
    Bot,
    Server,
    Tally,
    abort_if_stopped,
    cpu_seconds,
    get_json,
    log_in,
    own_cpu_seconds,
    resident_mib,
    seated,
    stopped_tables,
)
from benchmarks._room_report import (
    P99_TARGET_MS,
    Outcome,
    percentile,
    report_lines,
    targets,
)
from croupier.poker.games import ForcedBets, game_by_name

__all__ = ["Options", "Outcome", "main", "run", "run_benchmark"]

NAME: Final = "server"
TITLE: Final = "card-room server: bot clients over WebSocket on loopback"


GAMES: Final = (
    ("holdem", "no-limit"),
    ("omaha", "pot-limit"),
    ("holdem", "fixed-limit"),
    ("omaha", "no-limit"),
)
"""The default mix, table after table: ten-seat games, so 200 clients fill 20 tables."""

PROGRESS_EVERY: Final = 10.0
"""Seconds between progress lines."""


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


# ---------------------------------------------------------------------------- the run
def say(options: Options, text: str) -> None:
    """Print a progress line (unless quiet)."""
    if options.verbose:
        print(text, flush=True)


async def _play(options: Options, plans: list[TablePlan], server: Server, out: Outcome) -> None:
    tally = Tally()
    limits = httpx.Limits(max_connections=32, max_keepalive_connections=32)
    async with httpx.AsyncClient(timeout=120, trust_env=False, limits=limits) as http:
        out.setup["server ready"] = await server.ready(http)
        out.memory_ready = resident_mib(server.process.pid)
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
            abort_if_stopped(await stopped_tables(http, server.base), server)
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
            abort_if_stopped(await stopped_tables(http, server.base), server)
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
        cpu0, own0, ticks0 = cpu_seconds(server.process.pid), own_cpu_seconds(), cpu_ticks()
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
                abort_if_stopped(await stopped_tables(http, server.base), server)
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
        out.memory_peak = resident_mib(server.process.pid, "VmHWM")
        out.client_cpu = own_cpu_seconds() - own0
        out.steal = steal_fraction(ticks0, cpu_ticks())
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
    parser.add_argument(
        "--buy-in",
        type=int,
        default=5000,
        help="chips each client buys in for (5000; small ones make many busts and re-sits)",
    )
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
        buy_in=args.buy_in,
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
