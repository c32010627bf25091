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
