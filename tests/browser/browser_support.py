"""Helpers of the browser tests: a real ``croupier serve`` process over a SQLite store in a
temporary directory, Debian's Chromium driven by Playwright (never ``playwright
install``), and the steps a person takes in the UI (register, sit down, act).

Without Chromium (or Playwright) the browser tests skip, saying why.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ROOT = Path(__file__).resolve().parents[2]
"""The project's root (the server runs from there)."""
PASSWORD = "password-123"
"""Every test player's password."""
SERVER_START = 60.0
"""Seconds the server may take to answer ``/readyz`` (a safety net, not an assertion)."""
WAIT_MS = 20_000
"""How long a step may wait for the page (ms): a safety net, never a timed assertion."""

# A decision the page offers (the actions panel's key changed) or the hand is recorded.
NEXT_STEP_JS = """([old, hand]) => {
  const results = document.getElementById("results");
  if (!results.hidden && Number(results.dataset.hand) >= hand) return "done";
  const panel = document.getElementById("poker-actions");
  const key = panel.dataset.decision;
  if (!panel.hidden && key && key !== old) return key;
  return false;
}"""

BJ_NEXT_STEP_JS = NEXT_STEP_JS.replace("poker-actions", "bj-actions")


def chromium_path() -> str | None:
    """Debian's Chromium (``chromium`` on the PATH, else ``/usr/bin/chromium``)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    return "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Server:
    """A running ``croupier serve`` process."""

    url: str
    process: subprocess.Popen[bytes]
    directory: Path
    log: Path

    def get(self, path: str, token: str | None = None) -> Any:
        """GET a JSON document."""
        request = urllib.request.Request(self.url + path)
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as reply:
            return json.loads(reply.read())

    def table(self, name: str) -> dict[str, Any]:
        """The lobby's line for table ``name``."""
        tables: list[dict[str, Any]] = self.get("/api/tables")["tables"]
        return next(t for t in tables if t["name"] == name)

    def output(self) -> str:
        """What the server printed (for failure messages)."""
        return self.log.read_text(errors="replace")[-4000:]


@contextlib.contextmanager
def running_server(directory: Path, tables_toml: str) -> Iterator[Server]:
    """Start ``croupier serve`` with ``tables_toml`` on a free port; stop it afterwards."""
    tables = directory / "tables.toml"
    tables.write_text(tables_toml)
    port = free_port()
    log = directory / "server.log"
    command = [
        sys.executable,
        "-m",
        "croupier",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{directory / 'room.db'}",
        "--tables",
        str(tables),
    ]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT)
    server = Server(f"http://127.0.0.1:{port}", process, directory, log)
    try:
        deadline = time.monotonic() + SERVER_START
        while True:
            if process.poll() is not None:
                pytest.fail(f"croupier serve exited ({process.returncode}):\n{server.output()}")
            try:
                with urllib.request.urlopen(server.url + "/readyz", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"croupier serve never became ready:\n{server.output()}")
            time.sleep(0.1)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def launched_browser() -> Iterator[Browser]:
    """Debian's Chromium under Playwright; skips when either is missing."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed (pip install playwright)")
    executable = chromium_path()
    if executable is None:
        pytest.skip("Chromium is not installed (apt-get install chromium): no browser to drive")
    with sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(
                executable_path=executable, args=["--no-sandbox", "--disable-gpu"]
            )
        except Error as error:
            pytest.skip(f"Chromium at {executable} did not start: {error}")
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def opened_page(browser: Browser, *, phone: bool = False) -> Iterator[Page]:
    """A fresh page (its own cookies and local storage): desktop-sized, or a phone's. An
    uncaught error in the page's scripts fails the test."""
    if phone:
        context = browser.new_context(
            viewport={"width": 375, "height": 740}, device_scale_factor=2, is_mobile=True
        )
    else:
        context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
        assert not errors, f"the page's scripts failed: {errors}"
    finally:
        context.close()


def register(page: Page, server: Server, name: str) -> str:
    """Register ``name`` through the login page (landing in the lobby): his token."""
    from playwright.sync_api import expect

    page.goto(server.url + "/#login")
    page.fill("#login-name", name)
    page.fill("#login-password", PASSWORD)
    page.click("#register-submit")
    expect(page.locator("#page-lobby")).to_be_visible()
    expect(page.locator("#whoami")).to_have_text(name)
    token = page.evaluate("localStorage.getItem('croupier.token')")
    assert isinstance(token, str)
    assert token
    return token


def log_in(page: Page, server: Server, name: str, password: str = PASSWORD) -> str:
    """Log in as ``name`` through the login page (landing in the lobby): his new token."""
    from playwright.sync_api import expect

    page.goto(server.url + "/#login")
    page.fill("#login-name", name)
    page.fill("#login-password", password)
    page.click("#login-submit")
    expect(page.locator("#page-lobby")).to_be_visible()
    expect(page.locator("#whoami")).to_have_text(name)
    token = page.evaluate("localStorage.getItem('croupier.token')")
    assert isinstance(token, str)
    assert token
    return token


def sit_from_lobby(page: Page, table: str) -> None:
    """Press the table's *Sit down* in the lobby: the table page opens."""
    from playwright.sync_api import expect

    row = page.locator(f'#lobby-rows tr[data-table="{table}"]')
    expect(row).to_be_visible()
    row.get_by_role("button", name="Sit down").click()
    expect(page.locator("#page-table")).to_be_visible()
    expect(page.locator("#table-title")).to_have_text(table)


def next_step(page: Page, old: str | None, hand: int) -> str:
    """Wait until the page offers a new decision (its key: ``table|hand|events``) or hand
    ``hand`` is recorded (``"done"``)."""
    found = page.wait_for_function(NEXT_STEP_JS, arg=[old or "", hand])
    value = found.json_value()
    assert isinstance(value, str)
    return value


def next_round_step(page: Page, old: str | None, round_number: int) -> str:
    """Blackjack's :func:`next_step`: a new decision (``table|round|events|wager``, ``play``
    or ``insure``) or round ``round_number`` recorded (``"done"``)."""
    found = page.wait_for_function(BJ_NEXT_STEP_JS, arg=[old or "", round_number])
    value = found.json_value()
    assert isinstance(value, str)
    return value


def hand_of(key: str) -> int:
    """The hand number in a decision key."""
    return int(key.split("|")[1])


def fits_width(page: Page) -> bool:
    """Whether the page is no wider than the viewport (nothing to scroll sideways)."""
    result = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    return bool(result)


def screenshot(page: Page, directory: Path, name: str) -> Path:
    """Save a full-page screenshot as ``directory/name``."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    page.screenshot(path=str(path), full_page=True)
    return path
