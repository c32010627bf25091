"""Opening the store: where it lives, its schema and migrations, and bad input — a damaged
file, a wrong URL, a schema from a newer croupier — each a one-line error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from croupier.poker import TableRules
from croupier.store import (
    SCHEMA_REVISION,
    Store,
    StoreCorruptError,
    StoreError,
    StoreSchemaError,
    StoreUnavailableError,
    default_path,
    play_and_record,
)
from croupier.store.connect import known_revisions
from croupier.store.schema import Base, HandRow

SRC = Path(__file__).resolve().parents[2] / "src"


def _one_line(error: pytest.ExceptionInfo[BaseException]) -> str:
    message = str(error.value)
    assert "\n" not in message
    assert "Traceback" not in message
    assert "sqlalche.me" not in message
    return message


def test_the_migrations_make_exactly_the_orm_schema(store: Store) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with store.engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert diffs == []
    assert version == SCHEMA_REVISION
    assert known_revisions() == {"0001", SCHEMA_REVISION}


def test_the_default_store_is_made_in_the_user_data_directory(tmp_path: Path) -> None:
    path = default_path()
    assert path == tmp_path / "xdg-data" / "croupier" / "store.sqlite3"  # XDG_DATA_HOME
    assert not path.exists()
    with Store.open() as store:
        play_and_record(store, TableRules(), hands=1, seed=1)
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
    assert path.is_file()
    with Store.open() as again:
        assert again.count(HandRow) == 1


def test_croupier_db_and_plain_paths_name_other_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "audit.db"
    monkeypatch.setenv("CROUPIER_DB", f"sqlite:///{other}")
    with Store.open() as store:
        play_and_record(store, TableRules(), hands=1, seed=2)
    assert other.is_file()
    assert not default_path().exists()
    with Store.open(str(other)) as by_path:
        assert by_path.count(HandRow) == 1


def test_a_file_that_is_no_database_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "garbage.db"
    bad.write_bytes(os.urandom(8192))
    with pytest.raises(StoreCorruptError) as caught:
        Store.open(str(bad))
    assert "file is not a database" in _one_line(caught)


def test_a_truncated_store_is_one_line_and_never_half_read(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    with Store.open(str(path)) as store:
        play_and_record(store, TableRules(), hands=40, seed=3)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    with pytest.raises(StoreCorruptError) as caught, Store.open(str(path)) as store:
        store.verify()
    assert "malformed" in _one_line(caught)


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("nosuchdb://somewhere/x", "unknown database kind 'nosuchdb'"),
        ("mysql://ann@localhost/x", "is not installed"),
        ("sqlite:////no/such/folder/store.db", "unable to open database file"),
        ("postgresql://croupier@/x?host=/no/such/socket/dir&port=1", "cannot open the store"),
        ("not a url://", "not a database URL"),
    ],
)
def test_a_wrong_url_is_one_line(url: str, says: str) -> None:
    with pytest.raises(StoreUnavailableError) as caught:
        Store.open(url)
    assert says in _one_line(caught)


def test_a_missing_postgresql_database_is_one_line(postgres_server: object) -> None:
    url = postgres_server.url("no_such_database")  # type: ignore[attr-defined]
    with pytest.raises(StoreUnavailableError) as caught:
        Store.open(url)
    assert 'database "no_such_database" does not exist' in _one_line(caught)


def test_a_schema_from_a_newer_croupier_is_refused(store_url: str) -> None:
    with Store.open(store_url) as store:
        play_and_record(store, TableRules(), hands=1, seed=4)
        with store.engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    with pytest.raises(StoreSchemaError) as caught:
        Store.open(store_url)
    message = _one_line(caught)
    assert "'0099'" in message
    assert "newer croupier" in message
    assert SCHEMA_REVISION in message


def test_croupier_tables_without_a_schema_revision_are_refused(store_url: str) -> None:
    from sqlalchemy import create_engine

    engine = create_engine(store_url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE hands (id INTEGER PRIMARY KEY, note TEXT)"))
    engine.dispose()
    with pytest.raises(StoreCorruptError) as caught:
        Store.open(store_url)
    assert "not a croupier store" in _one_line(caught)


def test_other_programs_tables_are_left_alone(store_url: str) -> None:
    from sqlalchemy import create_engine

    engine = create_engine(store_url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE invoices (id INTEGER PRIMARY KEY)"))
    engine.dispose()
    with Store.open(store_url) as store:
        play_and_record(store, TableRules(), hands=1, seed=5)
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM invoices")).scalar() == 0


def test_many_processes_creating_one_store_at_once_all_succeed(store_url: str) -> None:
    code = (
        "import sys; from croupier.store import Store; "
        "s = Store.open(sys.argv[1]); print(len(s.sessions())); s.close()"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    procs = [
        subprocess.Popen([sys.executable, "-c", code, store_url], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]  # fmt: skip
    outcomes = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0] * 3, [err for _out, err in outcomes]
    with Store.open(store_url) as store, store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1


def test_the_core_package_and_the_cli_load_no_database_code() -> None:
    code = (
        "import sys, croupier, croupier.fairness, croupier.cli.app; "
        "from click.testing import CliRunner; "
        "CliRunner().invoke(croupier.cli.app.cli, ['history', '--help']); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('sqlalchemy', 'alembic', 'psycopg', 'platformdirs') or m.startswith('croupier.store')))"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)  # fmt: skip
    assert out.stdout.strip() == "[]"


def test_a_store_error_is_a_croupier_error() -> None:
    from croupier.errors import CroupierError

    assert issubclass(StoreError, CroupierError)
    with pytest.raises(StoreError, match="no hand 99"), Store.open("sqlite:///:memory:") as s:
        s.hand(99)
