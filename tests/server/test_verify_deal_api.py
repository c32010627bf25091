"""``croupier verify-deal --url``: check a hand fetched from a running card room's API.

A real ``croupier serve`` process (on a free port, over a SQLite store in ``tmp_path``)
deals a bot-only hold'em table and a bot-only blackjack table; ``croupier verify-deal
--url http://.../api/hands/ID`` runs as a subprocess against it. A good hand exits 0 with
one line saying the commitment matches; a bad URL, a 404, a blackjack round, a bad token,
the wrong published commitment, or a tampered reveal or log (served by a small local HTTP
server) exits 1 with one line on stderr. Nothing of croupier is mocked.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from click.testing import CliRunner  # noqa: E402

from croupier.cli.app import cli  # noqa: E402
from croupier.fairness import DeckReveal  # noqa: E402

TABLES = """
[[table]]
name = "bots-holdem"
game = "holdem"
seats = 3
bots = 3
bot_style = "calling"
bot_delay = 0.005
play_without_humans = true

[[table]]
name = "bots-bj"
game = "blackjack"
seats = 2
bots = 2
bot_delay = 0.005
play_without_humans = true
"""
SERVING = re.compile(r"serving \d+ tables on (http://[^/\s]+)/")
ENV = {**os.environ, "CROUPIER_DEBUG": "", "NO_COLOR": "1"}


class Room:
    """The server process and what the tests need from it."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.poker: list[int] = []
        """Ids of poker hands."""
        self.blackjack: list[int] = []
        """Ids of blackjack rounds (verify-deal checks poker hands only)."""

    def url(self, hand_id: int) -> str:
        return f"{self.base}/api/hands/{hand_id}"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    where = tmp_path_factory.mktemp("room")
    tables = where / "tables.toml"
    tables.write_text(TABLES)
    log = where / "serve.log"
    command = [sys.executable, "-m", "croupier", "serve", "--port", "0"]
    command += ["--db", f"sqlite:///{where / 'store.db'}", "--tables", str(tables)]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=ENV)
    try:
        base = _wait_for_url(log, process)
        _wait_ready(base)
        found = Room(base)
        deadline = time.monotonic() + 60
        hand_id = 1
        while (len(found.poker) < 3 or not found.blackjack) and time.monotonic() < deadline:
            if hand_id > 200 and not found.poker:
                break  # the poker table deals nothing: /readyz says why
            reply = httpx.get(found.url(hand_id), timeout=10)
            if reply.status_code == 200:
                kind = reply.json()["game_kind"]
                (found.poker if kind == "poker" else found.blackjack).append(hand_id)
            else:
                time.sleep(0.1)  # not recorded yet
                continue
            hand_id += 1
        ready = httpx.get(f"{base}/readyz", timeout=10).json()
        assert ready["ready"], ready["problems"]
        assert len(found.poker) >= 3, log.read_text()[-2000:]
        assert found.blackjack, log.read_text()[-2000:]
        yield found
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_for_url(log: Path, process: subprocess.Popen[bytes]) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        match = SERVING.search(text)
        if match:
            return match.group(1)
        assert process.poll() is None, f"croupier serve exited: {text[-2000:]}"
        time.sleep(0.05)
    raise AssertionError(f"croupier serve did not start: {log.read_text()[-2000:]}")


def _wait_ready(base: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/readyz", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise AssertionError("GET /readyz never answered 200")


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def verify_deal(*args: str, process: bool = False) -> Result:
    """``croupier verify-deal ARGS``: in a subprocess (``process``), else through the same
    entry point in this process (click's runner; each process start costs seconds)."""
    if process:
        done = subprocess.run(
            [sys.executable, "-m", "croupier", "verify-deal", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env=ENV,
        )
        return Result(done.returncode, done.stdout, done.stderr)
    result = CliRunner().invoke(cli, ["verify-deal", *args])
    return Result(result.exit_code, result.stdout, result.stderr)


def assert_refused(result: Result, *words: str) -> None:
    """Exit 1 with exactly one line on stderr, ``croupier: error: …`` naming ``words``."""
    assert result.returncode == 1, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("croupier: error: "), lines
    for word in words:
        assert word in lines[0], lines[0]
    assert "Traceback" not in result.stderr


# ------------------------------------------------------------------------------ good hands
def test_a_hand_from_the_api_verifies(room: Room) -> None:
    for n, hand_id in enumerate(room.poker[:3]):
        result = verify_deal("--url", room.url(hand_id), process=n == 0)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert len(lines) == 1
        assert lines[0].startswith(f"hand {hand_id}: commitment "), lines
        assert "matches" in lines[0]
        assert result.stderr == ""


def test_json_output_and_the_published_commitment(room: Room) -> None:
    hand_id = room.poker[0]
    data = httpx.get(room.url(hand_id), timeout=10).json()
    result = verify_deal("--url", room.url(hand_id), "--commitment", data["commitment"], "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["ok"] is True
    assert record["commitment"] == data["commitment"]
    # the viewer (a spectator) sees no burn card, nor a hole card not shown: those
    # positions are counted, not faced
    assert record["cards"] >= record["unseen"] >= 1, (record, data["events"])

    other = "0" * 64
    assert_refused(
        verify_deal("--url", room.url(hand_id), "--commitment", other),
        "not the one published",
    )


def test_a_players_token_is_sent(room: Room) -> None:
    password = "password-123"
    assert (
        httpx.post(
            f"{room.base}/api/register", json={"name": "ann", "password": password}, timeout=10
        ).status_code
        == 201
    )
    login = httpx.post(
        f"{room.base}/api/login", json={"name": "ann", "password": password}, timeout=10
    )
    token = login.json()["token"]
    result = verify_deal("--url", room.url(room.poker[0]), "--token", token)
    assert result.returncode == 0, result.stderr
    assert_refused(verify_deal("--url", room.url(room.poker[0]), "--token", "nonsense"), "401")


# ------------------------------------------------------------------------------ refusals
def test_what_is_not_a_poker_hand_of_the_api_is_one_line(room: Room) -> None:
    assert_refused(verify_deal("--url", room.url(10**9), process=True), "404")
    assert_refused(
        verify_deal("--url", room.url(room.blackjack[0])), "is a blackjack hand, not poker"
    )
    assert_refused(verify_deal("--url", "not a url"), "not an http")
    assert_refused(verify_deal("--url", f"{room.base}/healthz"), "not a poker hand")
    with _serving({}) as local:  # nobody listens once it is closed
        closed = f"{local}/api/hands/1"
    assert_refused(verify_deal("--url", closed), "cannot fetch")
    usage = verify_deal("--url", room.url(room.poker[0]), "7")
    assert usage.returncode == 2
    assert len(usage.stderr.splitlines()) == 1


def _tampered(data: dict[str, Any], how: str) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(data))
    order = copy["reveal"]["order"]
    if how == "order":  # two cards of the revealed order swapped
        copy["reveal"]["order"] = order[2:4] + order[0:2] + order[4:]
    elif how == "salt":
        salt = copy["reveal"]["salt"]
        copy["reveal"]["salt"] = ("1" if salt[0] == "0" else "0") + salt[1:]
    elif how == "board":  # a board card that is not the order's next card
        event = next(e for e in copy["events"] if e["type"] == "CommunityDealt")
        dealt = set(re.findall("..", order))
        event["cards"][0] = next(c for c in sorted(dealt) if c not in event["cards"])
    elif how == "forged":  # a new order and its own commitment: the cards dealt differ
        reveal = DeckReveal.parse(order[2:] + order[:2], copy["reveal"]["salt"])
        copy["reveal"] = reveal.to_dict()
        copy["commitment"] = reveal.commitment.digest
    elif how == "missing":
        del copy["reveal"]
    return copy


@pytest.mark.parametrize(
    ("how", "words"),
    [
        ("order", ["do not hash to the commitment"]),
        ("salt", ["do not hash to the commitment"]),
        ("board", ["taken from the deck is"]),
        ("forged", ["taken from the deck is"]),
        ("missing", ["no 'reveal'"]),
    ],
)
def test_a_tampered_hand_is_refused(room: Room, how: str, words: list[str]) -> None:
    hand_id = next(
        i
        for i in room.poker
        if any(
            e["type"] == "CommunityDealt"
            for e in httpx.get(room.url(i), timeout=10).json()["events"]
        )
    )
    data = httpx.get(room.url(hand_id), timeout=10).json()
    with _serving({f"/api/hands/{hand_id}": json.dumps(_tampered(data, how)).encode()}) as local:
        result = verify_deal("--url", f"{local}/api/hands/{hand_id}", process=how == "order")
    assert_refused(result, f"hand {hand_id}" if how != "missing" else "", *words)


def test_an_answer_that_is_not_json_is_refused(room: Room) -> None:
    with _serving({"/api/hands/1": b"<html>hello</html>"}) as local:
        assert_refused(verify_deal("--url", f"{local}/api/hands/1"), "not JSON")


class _Files(BaseHTTPRequestHandler):
    pages: ClassVar[dict[str, bytes]] = {}

    def do_GET(self) -> None:
        body = self.pages.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _serving:  # noqa: N801 (used as a context manager, like a function)
    """A local HTTP server answering ``pages`` (path → body) on a free port."""

    def __init__(self, pages: dict[str, bytes]) -> None:
        handler = type("Pages", (_Files,), {"pages": pages})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
