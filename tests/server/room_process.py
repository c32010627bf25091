"""A real ``croupier serve`` process for the crash and takeover tests, and bot clients
that play over the real WebSocket protocol (reconnecting when the server goes away)."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

PASSWORD = "password-123"


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """``croupier serve`` on ``port`` over ``db`` with the tables file ``tables``."""

    def __init__(self, db: str, tables: Path, port: int, log: Path, *extra: str) -> None:
        self.db, self.tables, self.port, self.log, self.extra = db, tables, port, log, extra
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        """Start and wait until ``/readyz`` answers 200 (the tables are running)."""
        command = [
            sys.executable, "-m", "croupier", "serve", "--port", str(self.port),
            "--db", self.db, "--tables", str(self.tables), *self.extra,
        ]  # fmt: skip
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/readyz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.process.kill()  # leave no server behind
        self.process.wait()
        raise AssertionError(f"the server never got ready: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no cleanup of any kind runs."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM, as an operator would."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def register(url: str, name: str) -> None:
    """Make the account ``name`` (or find it made)."""
    reply = httpx.post(f"{url}/api/register", json={"name": name, "password": PASSWORD})
    assert reply.status_code in (201, 409), reply.text


def login(url: str, name: str) -> str:
    reply = httpx.post(f"{url}/api/login", json={"name": name, "password": PASSWORD})
    reply.raise_for_status()
    token: str = reply.json()["token"]
    return token


def choose(view: dict[str, Any], rng: random.Random) -> str:
    """A legal poker action for the client's turn (mostly check or call)."""
    legal = view["legal"]
    if legal.get("bring_in") is not None:
        return f"bring in {legal['bring_in']}"
    if legal.get("discard"):
        return "discard"
    roll = rng.random()
    if legal.get("raise_to") and roll < 0.15:
        low, high = legal["raise_to"]
        return f"raise to {rng.randint(low, min(high, 3 * low))}"
    if legal.get("check"):
        return "check"
    if legal.get("call") is not None and roll < 0.9:
        return "call"
    return "fold"


class BotClient(threading.Thread):
    """A player who logs in, sits at ``table`` and plays every turn over the WebSocket,
    reconnecting whenever the connection drops; ``errors`` collects error messages."""

    def __init__(self, ports: list[int], name: str, table: str, seed: int) -> None:
        super().__init__(daemon=True, name=f"client {name}")
        self.ports, self.name, self.table = ports, name, table
        self.rng = random.Random(seed)
        self.stop = threading.Event()
        self.errors: list[dict[str, Any]] = []
        self.actions = 0
        self.connections = 0
        self.moves = 0
        """Times the table was not (yet) where the lobby said: the client asked again."""

    def run(self) -> None:
        from websockets.exceptions import WebSocketException
        from websockets.sync.client import connect

        while not self.stop.is_set():
            try:
                url = self._host()
                if url is None:
                    time.sleep(0.2)
                    continue
                token = login(url, self.name)
                with connect(url.replace("http", "ws", 1) + "/ws", open_timeout=5) as ws:
                    self.connections += 1
                    self._play(ws, token)
            except (OSError, httpx.HTTPError, WebSocketException, TimeoutError):
                time.sleep(0.1)

    def _host(self) -> str | None:
        """The URL of the process hosting the table, as any live server's lobby says."""
        for port in self.ports:
            try:
                lobby = httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=2).json()
            except (httpx.HTTPError, ValueError):
                continue
            for table in lobby["tables"]:
                if table["name"] == self.table:
                    host: str | None = table["host"] or f"http://127.0.0.1:{port}"
                    return host
        return None

    def _play(self, ws: Any, token: str) -> None:
        ws.send(json.dumps({"type": "hello", "token": token}))
        welcome = json.loads(ws.recv(timeout=10))
        if self.table not in welcome.get("seated", []):
            ws.send(json.dumps({"type": "sit", "table": self.table}))
        answered: set[tuple[int, int]] = set()
        while not self.stop.is_set():
            try:
                message = json.loads(ws.recv(timeout=0.5))
            except TimeoutError:
                continue
            if message["type"] == "error":
                if message["code"] in ("no_table", "table_moved"):
                    self.moves += 1  # the table is moving to another process: ask the lobby
                    return
                if message["code"] not in ("refused",):  # refused: already seated, racing
                    self.errors.append(message)
                continue
            if message["type"] != "view" or message["table"] != self.table:
                continue
            view = message["view"]
            turn = (message["hand"], message["events_from"] + len(view["events"]))
            if view["legal"] is not None and view["actor"] == view["seat"] and turn not in answered:
                answered.add(turn)
                action = choose(view, self.rng)
                ws.send(
                    json.dumps(
                        {
                            "type": "act",
                            "table": self.table,
                            "action": action,
                            "hand": message["hand"],
                        }
                    )
                )
                self.actions += 1
