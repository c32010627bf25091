"""The card room's accounts join the store: accounts with a case-folded name key, session
tokens, roles and the audit log; a player is bound to the account he is.

A store written by an earlier server already has ``server_accounts`` and
``server_tokens`` (made outside the migrations): they are kept, ``name_key`` is added and
filled, and the other two tables are made. Names whose key another account already has
(``alice`` and ``Alice`` registered before keys existed) are not merged: the oldest
account gets the key, the others keep none, and the server lists them at start-up. A
player who sat as a person under an account's exact name is bound to that account; a
player who ever sat as a bot, or whose name reads as a bot's, is bound to none.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-03
"""

from __future__ import annotations

import re
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def _key(name: str) -> str:
    # this revision's rule, frozen here: NFKC, then case-folded
    return unicodedata.normalize("NFKC", name).casefold()


_BOT_LIKE = re.compile(r"^bot(?:[_.\-]|\d|$)")


def _bind_players(bind: sa.engine.Connection) -> None:
    """Bind each person of an earlier server to his account (the same exact name)."""
    rows = bind.execute(
        sa.text(
            "SELECT p.id, a.id FROM players p JOIN server_accounts a ON a.name = p.name "
            "WHERE NOT EXISTS (SELECT 1 FROM seats s WHERE s.player_id = p.id "
            "AND s.policy IS NOT NULL)"
        )
    ).all()
    names: dict[int, str] = dict(bind.execute(sa.text("SELECT id, name FROM players")).all())
    for player_id, account_id in rows:
        if not _BOT_LIKE.match(_key(names[player_id])):
            bind.execute(
                sa.text("UPDATE players SET account_id = :account WHERE id = :id"),
                {"account": account_id, "id": player_id},
            )


def _moment(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    """Create the account tables, or key the accounts an earlier server made."""
    bind = op.get_bind()
    tables = set(sa.inspect(bind).get_table_names())
    if "server_accounts" in tables:
        op.add_column("server_accounts", sa.Column("name_key", sa.String(160), nullable=True))
        rows = bind.execute(sa.text("SELECT id, name FROM server_accounts ORDER BY id")).all()
        taken: set[str] = set()
        for account_id, name in rows:
            key = _key(name)
            if key in taken:
                continue  # a case twin of an older account: listed at start-up
            taken.add(key)
            bind.execute(
                sa.text("UPDATE server_accounts SET name_key = :key WHERE id = :id"),
                {"key": key, "id": account_id},
            )
    else:
        op.create_table(
            "server_accounts",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("name", sa.String(40), nullable=False),
            sa.Column("name_key", sa.String(160), nullable=True),
            sa.Column("password_hash", sa.String(200), nullable=False),
            _moment("created_at"),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_server_accounts")),
            sa.UniqueConstraint("name", name=op.f("uq_server_accounts_name")),
        )
    op.create_index("ix_server_accounts_name_key", "server_accounts", ["name_key"], unique=True)
    op.add_column("players", sa.Column("account_id", sa.Integer(), nullable=True))
    if "server_accounts" in tables:
        _bind_players(bind)
    op.create_index("ix_players_account_id", "players", ["account_id"], unique=True)
    if "server_tokens" not in tables:
        op.create_table(
            "server_tokens",
            sa.Column("token_hash", sa.String(64), nullable=False),
            sa.Column("account_id", sa.Integer(), nullable=False),
            _moment("expires_at"),
            sa.ForeignKeyConstraint(
                ["account_id"],
                ["server_accounts.id"],
                name=op.f("fk_server_tokens_account_id_server_accounts"),
            ),
            sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_server_tokens")),
        )
    op.create_index(
        op.f("ix_server_tokens_account_id"), "server_tokens", ["account_id"], unique=False
    )
    op.create_table(
        "server_roles",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        _moment("granted_at"),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["server_accounts.id"],
            name=op.f("fk_server_roles_account_id_server_accounts"),
        ),
        sa.PrimaryKeyConstraint("account_id", "role", name=op.f("pk_server_roles")),
    )
    op.create_table(
        "server_audit",
        sa.Column("id", sa.Integer(), nullable=False),
        _moment("at"),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(200), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"],
            ["server_accounts.id"],
            name=op.f("fk_server_audit_actor_id_server_accounts"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_server_audit")),
    )


def downgrade() -> None:
    """Drop the roles and the audit log and the name key (accounts and tokens stay, as
    an earlier server made them)."""
    op.drop_table("server_audit")
    op.drop_table("server_roles")
    op.drop_index(op.f("ix_server_tokens_account_id"), table_name="server_tokens")
    op.drop_index("ix_server_accounts_name_key", table_name="server_accounts")
    op.drop_index("ix_players_account_id", table_name="players")
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35+): a batch copy of ``players`` would drop
    # a table the seats, results and ledger refer to
    op.execute("ALTER TABLE players DROP COLUMN account_id")
    op.execute("ALTER TABLE server_accounts DROP COLUMN name_key")
