"""The first schema: sessions, players, seats, shoes, hands, results, chip movements, ledger.

Revision ID: 0001
Revises:
Create Date: 2026-05-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def _fk(column: str, target: str, table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [f"{target}.id"], name=op.f(f"fk_{table}_{column}_{target}")
    )


def _moment(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    """Create every table."""
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_kind", sa.String(16), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules_json", sa.Text(), nullable=False),
        sa.Column("rules_fingerprint", sa.String(64), nullable=False),
        sa.Column("engine_version", sa.String(64), nullable=False),
        sa.Column("seeded", sa.Boolean(), nullable=False),
        sa.Column("seed", sa.String(64), nullable=True),
        sa.Column("label", sa.String(200), nullable=True),
        _moment("started_at"),
        _moment("ended_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("name", name=op.f("uq_players_name")),
    )
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("policy", sa.String(64), nullable=True),
        _fk("session_id", "sessions", "seats"),
        _fk("player_id", "players", "seats"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seats")),
        sa.UniqueConstraint("session_id", "player_id", "seat", name=op.f("uq_seats_session_id")),
    )
    op.create_index(op.f("ix_seats_session_id"), "seats", ["session_id"])
    op.create_table(
        "shoes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("deck_order", sa.Text(), nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("revealed", sa.Boolean(), nullable=False),
        _fk("session_id", "sessions", "shoes"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_shoes")),
        sa.UniqueConstraint("session_id", "number", name=op.f("uq_shoes_session_id")),
    )
    op.create_index(op.f("ix_shoes_session_id"), "shoes", ["session_id"])
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_kind", sa.String(16), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules_json", sa.Text(), nullable=False),
        sa.Column("rules_fingerprint", sa.String(64), nullable=False),
        sa.Column("engine_version", sa.String(64), nullable=False),
        sa.Column("seeded", sa.Boolean(), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("deck_order", sa.Text(), nullable=True),
        sa.Column("salt", sa.String(64), nullable=True),
        sa.Column("shoe_id", sa.Integer(), nullable=True),
        sa.Column("shoe_offset", sa.Integer(), nullable=True),
        sa.Column("events_json", sa.Text(), nullable=False),
        sa.Column("house", sa.BigInteger(), nullable=False),
        _moment("recorded_at"),
        _fk("session_id", "sessions", "hands"),
        _fk("shoe_id", "shoes", "hands"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hands")),
        sa.UniqueConstraint("session_id", "number", name=op.f("uq_hands_session_id")),
    )
    op.create_index(op.f("ix_hands_session_id"), "hands", ["session_id"])
    op.create_table(
        "results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("start", sa.BigInteger(), nullable=False),
        sa.Column("end", sa.BigInteger(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        _fk("hand_id", "hands", "results"),
        _fk("player_id", "players", "results"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_results")),
        sa.UniqueConstraint("hand_id", "player_id", name=op.f("uq_results_hand_id")),
    )
    op.create_index(op.f("ix_results_hand_id"), "results", ["hand_id"])
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("after_hand", sa.Integer(), nullable=False),
        _moment("recorded_at"),
        _fk("session_id", "sessions", "ledger"),
        _fk("player_id", "players", "ledger"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger")),
    )
    op.create_index(op.f("ix_ledger_session_id"), "ledger", ["session_id"])
    op.create_table(
        "chip_movements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=True),
        sa.Column("ledger_id", sa.Integer(), nullable=True),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        _fk("session_id", "sessions", "chip_movements"),
        _fk("hand_id", "hands", "chip_movements"),
        _fk("ledger_id", "ledger", "chip_movements"),
        _fk("player_id", "players", "chip_movements"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chip_movements")),
    )
    op.create_index(op.f("ix_chip_movements_session_id"), "chip_movements", ["session_id"])
    op.create_index(op.f("ix_chip_movements_hand_id"), "chip_movements", ["hand_id"])


def downgrade() -> None:
    """Drop every table (the store's data with it)."""
    for table in ("chip_movements", "ledger", "results", "hands", "shoes", "seats"):
        op.drop_table(table)
    op.drop_table("players")
    op.drop_table("sessions")
