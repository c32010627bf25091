"""Two ``croupier serve`` processes on one PostgreSQL share the accounts, the lobby and
the ledger, each hosting its own tables; one is killed with SIGKILL and the other takes
its tables over (resuming their hands) once the leases expire. No chip is lost."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from room_process import BotClient, ServerProcess, free_port, login, register

from croupier.store import Store

A_TABLES = """
[[table]]
name = "a-holdem"
seats = 3
bots = 2
bot_delay = 0.02
time_bank = 3
play_without_humans = true

[[table]]
name = "a-omaha"
game = "omaha"
structure = "pot-limit"
seats = 4
bots = 4
bot_delay = 0.02
play_without_humans = true
"""
B_TABLES = """
[[table]]
name = "b-stud"
game = "stud7"
seats = 4
bots = 4
bot_delay = 0.02
play_without_humans = true
"""


def _lobby(url: str) -> dict[str, dict[str, object]]:
    tables = httpx.get(f"{url}/api/tables", timeout=5).json()["tables"]
    return {t["name"]: t for t in tables}


def _hands(url: str, label: str) -> int:
    with Store.open(url) as store:
        return sum(len(store.hands(s)) for s in store.sessions() if s.label == label)


def test_a_dead_servers_tables_are_taken_over(tmp_path: Path, postgres_url: str) -> None:
    (tmp_path / "a.toml").write_text(A_TABLES)
    (tmp_path / "b.toml").write_text(B_TABLES)
    ttl = ("--lease-ttl", "3")
    a = ServerProcess(postgres_url, tmp_path / "a.toml", free_port(), tmp_path / "a.log", *ttl)
    b = ServerProcess(postgres_url, tmp_path / "b.toml", free_port(), tmp_path / "b.log", *ttl)
    a.start()
    b.start()
    client = None
    try:
        # one account, valid on both (the accounts are in the shared database)
        register(a.url, "ann")
        assert login(b.url, "ann")
        # one lobby: every table, each with the process that hosts it
        for url in (a.url, b.url):
            lobby = _lobby(url)
            assert {n: t["host"] for n, t in lobby.items()} == {
                "a-holdem": a.url, "a-omaha": a.url, "b-stud": b.url,
            }  # fmt: skip
        client = BotClient([a.port, b.port], "ann", "a-holdem", seed=1)
        client.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
            _hands(postgres_url, "a-holdem") < 3 or client.actions < 3
        ):
            time.sleep(0.2)
        assert client.actions > 0
        before = _hands(postgres_url, "a-omaha")
        acted = client.actions
        a.kill()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            hosts = {n: t["host"] for n, t in _lobby(b.url).items()}
            if hosts["a-holdem"] == hosts["a-omaha"] == b.url:
                break
            time.sleep(0.2)
        assert hosts == {"a-holdem": b.url, "a-omaha": b.url, "b-stud": b.url}
        # the taken-over tables deal on, in the same sessions
        deadline = time.monotonic() + 60
        while _hands(postgres_url, "a-omaha") < before + 3 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _hands(postgres_url, "a-omaha") >= before + 3
        # ann found her seat at the new host and plays on
        deadline = time.monotonic() + 60
        while client.actions <= acted and time.monotonic() < deadline:
            time.sleep(0.2)
        assert client.actions > acted
        assert httpx.get(f"{b.url}/readyz").json()["ready"] is True
    finally:
        if client is not None:
            client.stop.set()
        b.stop()
        a.stop()
    with Store.open(postgres_url) as store:
        report = store.verify()
        assert report.ok, report.problems
        for label in ("a-holdem", "a-omaha"):
            sessions = [s for s in store.sessions() if s.label == label]
            assert len(sessions) == 1  # carried on, not started again
    assert client.errors == [] or all(e["code"] == "not_your_turn" for e in client.errors)
