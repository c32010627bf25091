"""Suite-wide hooks and fixtures.

Every ``@pytest.mark.rule(...)`` must name a rule of the registry (the ``rule`` and ``slow``
markers are declared in ``pyproject.toml``), and no test writes the real user's audit store.

Store fixtures: every store test runs on SQLite and on a real, throwaway PostgreSQL.

The PostgreSQL server comes from Debian's package (``/usr/lib/postgresql/*/bin``, else
``initdb`` on the PATH): a cluster made by ``initdb`` in a temporary directory, started by
``pg_ctl`` on a free port with its unix socket in that directory (no TCP), and stopped
and removed after the session. PostgreSQL refuses to run as root, so as root the cluster
belongs to the ``postgres`` user (else ``nobody``) and its programs run through
``runuser``. Without the binaries (or psycopg) the PostgreSQL cases skip, saying why.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from croupier.rules import UnknownRuleError, load_registry

if TYPE_CHECKING:
    from croupier.store import Store


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Fail collection when a ``rule`` marker names no registered rule id or alias."""
    registry = load_registry()
    problems: list[str] = []
    for item in items:
        for mark in item.iter_markers(name="rule"):
            if not mark.args or mark.kwargs or not all(isinstance(a, str) for a in mark.args):
                problems.append(f"{item.nodeid}: rule marker needs rule id strings, got {mark}")
                continue
            for name in mark.args:
                try:
                    registry.get(name)
                except UnknownRuleError as exc:
                    problems.append(f"{item.nodeid}: {exc}")
    if problems:
        raise pytest.UsageError(
            "rule markers name unknown rules (see src/croupier/rules/registry.toml):\n  "
            + "\n  ".join(problems)
        )


BACKENDS = ("sqlite", "postgresql")


def _pg_bin() -> Path | None:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).resolve().parent if on_path else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class PostgresServer:
    """A running throwaway cluster; :meth:`new_database` makes an empty database."""

    root: Path
    port: int
    bindir: Path
    run_as: list[str]
    counter: itertools.count[int]

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://croupier@/{database}?host={self.root}&port={self.port}"

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(
            host=str(self.root), port=self.port, user="croupier", dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(sql)

    def new_database(self) -> str:
        name = f"t{next(self.counter)}"
        self._admin(f'CREATE DATABASE "{name}"')
        return name

    def drop_database(self, name: str) -> None:
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        subprocess.run(
            [*self.run_as, str(self.bindir / "pg_ctl"), "-D", str(self.root / "data"), "-m",
             "immediate", "-w", "stop"],
            capture_output=True,
            check=False,
        )  # fmt: skip


def _start_postgres() -> PostgresServer:
    bindir = _pg_bin()
    if bindir is None:
        pytest.skip(
            "PostgreSQL not installed: no initdb in /usr/lib/postgresql/*/bin or on the PATH "
            "(apt-get install postgresql; .ci/run does it)"
        )
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("PostgreSQL tests need psycopg: pip install 'croupier[postgres]'")
    root = Path(tempfile.mkdtemp(prefix="croupier-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses root: the cluster is another user's
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            user = pwd.getpwnam("nobody")
        os.chown(root, user.pw_uid, user.pw_gid)
        run_as = ["runuser", "-u", user.pw_name, "--"]
    data = root / "data"
    init = subprocess.run(
        [*run_as, str(bindir / "initdb"), "-D", str(data), "-U", "croupier", "--auth=trust",
         "-E", "UTF8", "--locale=C"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if init.returncode:
        shutil.rmtree(root, ignore_errors=True)
        pytest.fail(f"initdb failed: {init.stderr.strip() or init.stdout.strip()}")
    port = _free_port()
    options = f"-k {root} -p {port} -c listen_addresses='' -c fsync=off -c max_connections=50"
    start = subprocess.run(
        [*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l",
         str(root / "server.log"), "-w", "-t", "60", "start"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if start.returncode:
        log = (root / "server.log").read_text() if (root / "server.log").exists() else ""
        shutil.rmtree(root, ignore_errors=True)
        pytest.fail(f"PostgreSQL did not start: {start.stderr.strip()} {log[-500:]}")
    return PostgresServer(root, port, bindir, run_as, itertools.count(1))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL cluster for the whole test session."""
    server = _start_postgres()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a fresh, empty PostgreSQL database (dropped afterwards)."""
    name = postgres_server.new_database()
    yield postgres_server.url(name)
    postgres_server.drop_database(name)


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty store's URL, once on SQLite (a file) and once on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    """An open, empty store on each backend."""
    from croupier.store import Store

    opened = Store.open(store_url)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture(autouse=True)
def _no_default_store(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test writes the real user's store: the data directory is a temporary one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.delenv("CROUPIER_DB", raising=False)
