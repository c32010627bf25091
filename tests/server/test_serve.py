"""``croupier serve`` runs uvicorn for real; the server stays out of ``import croupier``."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.cli.app import cli
from croupier.errors import CroupierError
from croupier.server.config import blackjack_rules
from croupier.server.tables import DEFAULT_TABLES, TableConfig, load_tables

SRC = Path(__file__).resolve().parents[2] / "src"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_import_croupier_and_its_cli_load_no_server_libraries() -> None:
    code = (
        "import sys, croupier, croupier.cli.app\n"
        "print(sorted(m for m in ('fastapi', 'pydantic', 'uvicorn', 'argon2', 'starlette')"
        " if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_serve_is_a_croupier_command() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--tables FILE.toml" in result.output


def test_tables_files_are_checked() -> None:
    assert [c.name for c in load_tables('[[table]]\nname = "a"\nbots = 1\n')] == ["a"]
    with pytest.raises(CroupierError, match="unknown table setting"):
        load_tables('[[table]]\nname = "a"\nflavour = "x"\n')
    with pytest.raises(CroupierError, match="unique"):
        load_tables('[[table]]\nname = "a"\n[[table]]\nname = "a"\n')
    with pytest.raises(CroupierError, match="unknown game"):
        load_tables('[[table]]\nname = "a"\ngame = "snap"\n')
    poker = [c for c in DEFAULT_TABLES if c.kind == "poker"]
    assert {c.rules().game.name for c in poker} == {"holdem", "omaha", "stud7"}
    for config in poker:
        config.rules().validate()
    blackjack = [c for c in DEFAULT_TABLES if c.kind == "blackjack"]
    assert [c.name for c in blackjack] == ["blackjack-1"]
    blackjack[0].check()
    rules = blackjack_rules(blackjack[0])
    rules.validate()
    assert rules.boxes == blackjack[0].seats == 7
    assert len(DEFAULT_TABLES) == len(poker) + len(blackjack)
    assert TableConfig("s", game="stud7").rules().bring_in == 5


@pytest.mark.parametrize(
    "url",
    [
        "room.example",
        "ftp://room.example",
        "http://",
        "http://a:99999",
        "http://a?x=1",
        "http://[::1",
    ],
)
def test_a_bad_public_url_is_one_usage_error(url: str) -> None:
    result = CliRunner().invoke(cli, ["serve", "--public-url", url, "--check", "--db", "sqlite://"])
    assert result.exit_code == 2
    assert "--public-url" in result.output
    assert "is not an http(s) URL with a host" in result.output
    assert "Traceback" not in result.output


def test_check_takes_a_good_public_url_and_refuses_an_address_it_cannot_listen_on() -> None:
    good = ["serve", "--db", "sqlite://", "--public-url", "https://room.example:8443/", "--check"]
    result = CliRunner().invoke(cli, good)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("croupier: ready to serve")
    for host in ("no-such-host.invalid", "203.0.113.7", "a\x00b"):
        bad = CliRunner().invoke(cli, ["serve", "--db", "sqlite://", "--host", host, "--check"])
        assert bad.exit_code == 1, (host, bad.output)
        lines = bad.output.strip().splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith(f"croupier: error: cannot listen on {host}: "), lines


def test_croupier_serve_starts_uvicorn(tmp_path: Path) -> None:
    port = _free_port()
    tables = tmp_path / "tables.toml"
    tables.write_text('[[table]]\nname = "one"\nbots = 2\n')
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    command = [sys.executable, "-m", "croupier", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{tmp_path / 'store.db'}", "--tables", str(tables)]
    server = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
    try:
        lobby = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables") as reply:
                    lobby = json.load(reply)
                break
            except OSError:
                time.sleep(0.1)
        assert lobby is not None, "the server did not answer"
        assert [t["name"] for t in lobby["tables"]] == ["one"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz") as reply:
            assert json.load(reply)["ready"] is True
    finally:
        server.terminate()
        server.wait(timeout=10)
