"""``croupier admin grant|revoke|list|log`` on a SQLite store: the admin role goes to
existing accounts only, and every grant and revoke is in the audit log with the user who
ran the command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from argon2 import PasswordHasher
from room_process import PASSWORD

from croupier.cli.app import main
from croupier.server.accounts import Accounts, command_line_actor
from croupier.store import Store

FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A store holding the accounts ``ann`` and ``bob``."""
    url = f"sqlite:///{tmp_path / 'store.db'}"
    with Store.open(url) as store:
        accounts = Accounts(store.engine, hasher=FAST_HASHER)
        accounts.register("ann", PASSWORD)
        accounts.register("bob", PASSWORD)
    return url


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``croupier ARGS``: its exit code, stdout and stderr."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    """The only stderr line of a failed command: ``croupier: error: …``, no traceback."""
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("croupier: error: "), lines[0]
    return lines[0]


def log_entries(capsys: pytest.CaptureFixture[str], db: str) -> list[dict[str, Any]]:
    code, out, _ = run(capsys, "admin", "log", "--json", "--db", db)
    assert code == 0
    entries: list[dict[str, Any]] = json.loads(out)
    return entries


def test_granting_an_unknown_name_is_one_line_and_changes_nothing(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``grant ghost`` with no account ``ghost`` exits 1 with one line naming it; no
    admin is made and nothing is logged."""
    code, out, err = run(capsys, "admin", "grant", "ghost", "--db", db)
    assert code == 1
    assert out == ""
    assert "'ghost'" in one_error_line(err)
    assert run(capsys, "admin", "list", "--db", db)[1].strip() == "no admins"
    assert run(capsys, "admin", "log", "--db", db)[1].strip() == "the audit log is empty"


def test_revoking_an_unknown_name_is_one_line(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``revoke ghost`` exits 1 with one line naming it."""
    code, _, err = run(capsys, "admin", "revoke", "ghost", "--db", db)
    assert code == 1
    assert "'ghost'" in one_error_line(err)


def test_list_shows_the_granted_accounts(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """After ``grant ann`` (twice, once in another case) ``list`` shows ann once, and
    ``--json`` her id and name; bob, never granted, is not listed."""
    assert run(capsys, "admin", "list", "--db", db)[1].strip() == "no admins"
    assert run(capsys, "admin", "grant", "ann", "--db", db)[:2] == (0, "ann is an admin\n")
    assert run(capsys, "admin", "grant", "ANN", "--db", db)[:2] == (0, "ann is an admin\n")
    code, out, _ = run(capsys, "admin", "list", "--db", db)
    assert (code, out) == (0, "ann\n")
    code, out, _ = run(capsys, "admin", "list", "--json", "--db", db)
    assert code == 0
    listed = json.loads(out)
    assert [a["name"] for a in listed] == ["ann"]
    assert isinstance(listed[0]["id"], int)


def test_revoke_takes_the_role_away(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``revoke`` removes only the named account's role."""
    run(capsys, "admin", "grant", "ann", "--db", db)
    run(capsys, "admin", "grant", "bob", "--db", db)
    assert run(capsys, "admin", "revoke", "ann", "--db", db)[:2] == (0, "ann is not an admin\n")
    assert run(capsys, "admin", "list", "--db", db)[1] == "bob\n"


def test_log_shows_grants_and_revokes_with_the_command_line_actor(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``log`` lists each grant and revoke, oldest first, by the command line's user,
    with whether it changed anything; ``--json`` gives the same entries."""
    run(capsys, "admin", "grant", "ann", "--db", db)
    run(capsys, "admin", "grant", "ann", "--db", db)
    run(capsys, "admin", "revoke", "ann", "--db", db)
    actor = command_line_actor()
    entries = log_entries(capsys, db)
    assert [(e["actor"], e["action"], e["target"], e["detail"]) for e in entries] == [
        (actor, "grant", "ann", {"changed": True, "role": "admin"}),
        (actor, "grant", "ann", {"changed": False, "role": "admin"}),
        (actor, "revoke", "ann", {"changed": True, "role": "admin"}),
    ]
    assert [e["id"] for e in entries] == sorted(e["id"] for e in entries)
    code, out, _ = run(capsys, "admin", "log", "--db", db)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3
    assert f"  {actor}  grant  ann  changed=True role=admin" in lines[0]
    assert f"  {actor}  revoke  ann  changed=True role=admin" in lines[2]
    assert lines[0].startswith(entries[0]["at"])


def test_log_limit_keeps_the_latest(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``log --limit 1`` shows the latest act only."""
    run(capsys, "admin", "grant", "ann", "--db", db)
    run(capsys, "admin", "revoke", "ann", "--db", db)
    code, out, _ = run(capsys, "admin", "log", "--limit", "1", "--json", "--db", db)
    assert code == 0
    assert [e["action"] for e in json.loads(out)] == ["revoke"]
