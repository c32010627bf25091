"""Migration 0002 on a store an earlier server wrote: its accounts and tokens (made outside
the migrations) are kept and keyed, case twins are kept and listed, people are bound to
their accounts, and a bot's player never is."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

pytest.importorskip("argon2")

from alembic import command
from alembic.config import Config
from argon2 import PasswordHasher
from sqlalchemy import create_engine, text

from croupier.poker.settings import TableRules
from croupier.server.accounts import Accounts, NameTakenError
from croupier.store import Store
from croupier.store.connect import MIGRATIONS, SCHEMA_REVISION

HASHER = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
PASSWORD = "password-123"

# the two tables the server of revision 0001 made with create_all, as SQLite had them
OLD_ACCOUNTS = """
CREATE TABLE server_accounts (
    id INTEGER NOT NULL, name VARCHAR(40) NOT NULL, password_hash VARCHAR(200) NOT NULL,
    created_at DATETIME NOT NULL, PRIMARY KEY (id), UNIQUE (name))
"""
OLD_TOKENS = """
CREATE TABLE server_tokens (
    token_hash VARCHAR(64) NOT NULL, account_id INTEGER NOT NULL, expires_at DATETIME NOT NULL,
    PRIMARY KEY (token_hash), FOREIGN KEY(account_id) REFERENCES server_accounts (id))
"""


def _legacy_store(path: Path) -> str:
    """A store at revision 0001 with an earlier server's accounts: ``alice``, ``Alice``
    (a case twin), ``bot-1`` (named like the house's bot) and ``ann``; ann sat as a person
    and bot-1 as a bot in one session."""
    url = f"sqlite:///{path}"
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(text(OLD_ACCOUNTS))
        connection.execute(text(OLD_TOKENS))
        now = datetime(2026, 11, 1, tzinfo=UTC).isoformat(sep=" ")
        for name in ("alice", "Alice", "bot-1", "ann"):
            connection.execute(
                text(
                    "INSERT INTO server_accounts (name, password_hash, created_at) "
                    "VALUES (:name, :hash, :now)"
                ),
                {"name": name, "hash": HASHER.hash(f"{name}-{PASSWORD}"), "now": now},
            )
    engine.dispose()
    return url


def test_an_earlier_servers_store_upgrades_with_nothing_lost(tmp_path: Path) -> None:
    url = _legacy_store(tmp_path / "old.db")
    # the store part of revision 0001 is usable as it is: seat a person and a bot
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO sessions (game_kind, game, rules_json, rules_fingerprint, "
                "engine_version, seeded, started_at) VALUES ('poker', 'holdem', '{}', "
                "'f', 'old', 0, '2026-11-01 00:00:00')"
            )
        )
        for player_id, name in ((1, "ann"), (2, "bot-1")):
            connection.execute(
                text("INSERT INTO players (id, name) VALUES (:id, :name)"),
                {"id": player_id, "name": name},
            )
        connection.execute(
            text("INSERT INTO seats (session_id, player_id, seat, policy) VALUES (1, 1, 3, NULL)")
        )
        connection.execute(
            text(
                "INSERT INTO seats (session_id, player_id, seat, policy) VALUES (1, 2, 1, 'random')"
            )
        )
    engine.dispose()

    with Store.open(url) as store:
        with store.engine.connect() as connection:
            version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
            keys: dict[str, str | None] = dict(
                connection.execute(text("SELECT name, name_key FROM server_accounts")).all()
            )
        assert version == SCHEMA_REVISION
        assert keys == {"alice": "alice", "Alice": None, "bot-1": "bot-1", "ann": "ann"}
        # ann, who sat as a person, is bound to her account; the bot's player to none
        assert store.accounts(1) == {"ann": 4}
        accounts = Accounts(store.engine, hasher=HASHER)
        problems = accounts.problems()
        assert len(problems) == 2  # one line per account, in the order of their ids
        assert problems[0].startswith("account 'Alice' (id 2) has the same name as 'alice'")
        assert problems[1].startswith("account 'bot-1' (id 3) has a name reserved")
        # every account still logs in with its own password; the twin by its exact name
        for name in ("alice", "Alice", "bot-1", "ann"):
            _token, _expires, account = accounts.login(name, f"{name}-{PASSWORD}")
            assert account.name == name
        assert accounts.login("ALICE", f"alice-{PASSWORD}")[2].name == "alice"
        assert accounts.find("bot-1") is not None
        assert accounts.find("bot-1").reserved  # type: ignore[union-attr]
        with pytest.raises(NameTakenError):
            accounts.register("ALICE", PASSWORD)
        # a bot's player cannot be bound to an account, nor a bound one to another
        with pytest.raises(Exception, match="belongs to another account or a bot"):
            store.sit(1, "bot-1", 2, account=3)
        with pytest.raises(Exception, match="belongs to another account or a bot"):
            store.sit(1, "ann", 4, account=1)
        store.sit(1, "ann", 4, account=4)
        assert store.seating(1)["ann"] == (4, None)
        assert store.verify().ok


def test_a_new_store_binds_people_and_refuses_rebinding(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'new.db'}") as store:
        session = store.start_session(TableRules())
        store.sit(session, "ann", 2, account=11, buy_in=100)
        store.sit(session, "bot-1", 1, "random", buy_in=100)
        assert store.accounts(session) == {"ann": 11}
        with pytest.raises(Exception, match="belongs to another account or a bot"):
            store.sit(session, "ann", 3, account=12)
        with pytest.raises(Exception, match="belongs to another account or a bot"):
            store.sit(session, "bot-1", 3, account=12)
        assert store.balances(session) == {"ann": 100, "bot-1": 100}  # nothing half-written


def test_0002_downgrades_a_store_with_seats_and_upgrades_again(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'down.db'}"
    with Store.open(url) as store:
        session = store.start_session(TableRules())
        store.sit(session, "ann", 2, account=1, buy_in=100)
        store.sit(session, "bot-1", 1, "random", buy_in=100)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
        columns = [row[1] for row in connection.exec_driver_sql("PRAGMA table_info(players)")]
        assert "account_id" not in columns
    engine.dispose()
    with Store.open(url) as store:  # upgraded again: the seats and chips are still there
        assert store.balances(1) == {"ann": 100, "bot-1": 100}
        assert store.verify().ok
