"""The audit store's tables, as SQLAlchemy 2 typed ORM classes (the migrations in
``croupier/store/migrations`` create exactly these; a test compares the two).

* ``sessions``: one table session: the game, its rules (JSON and fingerprint), the engine
  version, whether it was seeded (and the seed).
* ``players`` and ``seats``: who sat where (a poker seat, a blackjack box), with which bot.
* ``hands``: one row per poker hand or blackjack round, written with its results and chip
  movements **in one transaction**: rules, engine version, the deck commitment and its
  reveal (poker) or the shoe it was dealt from (blackjack), and the full event log.
* ``shoes``: a blackjack shoe's commitment and reveal (a shoe serves many rounds).
* ``results``: each player's chips before and after a hand.
* ``chip_movements``: every chip that moved, signed from the holder's side (a bet is
  negative for the player, an award positive; the house's rake or bank result has no
  player); buy-ins and cash-outs too.
* ``ledger``: the session ledger, buy-ins and cash-outs, each placed after the hand
  count it followed, so every player's chips can be followed from hand to hand.
* ``server_accounts``, ``server_tokens``, ``server_roles``, ``server_audit``: the card
  room's accounts (a name, its case-folded key, an argon2 hash), session tokens (their
  SHA-256 only), roles (``admin``) and the audit log of every admin act.

Chips are whole numbers (``BIGINT``); JSON is kept as text, exactly as written.

>>> sorted(Base.metadata.tables)
['chip_movements', 'hands', 'ledger', 'players', 'results', 'seats', 'server_accounts', 'server_audit', 'server_roles', 'server_tokens', 'sessions', 'shoes']
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "AccountRow",
    "AuditRow",
    "Base",
    "ChipMovementRow",
    "HandRow",
    "LedgerRow",
    "PlayerRow",
    "ResultRow",
    "RoleRow",
    "SeatRow",
    "SessionRow",
    "ShoeRow",
    "TokenRow",
    "utc_now",
]

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Constraint names, the same on every database (the migrations use them)."""


def utc_now() -> datetime:
    """The current time, timezone-aware UTC.

    >>> utc_now().tzinfo
    datetime.timezone.utc
    """
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The declarative base of every table (its metadata names constraints alike everywhere).

    >>> Base.metadata.naming_convention["pk"]
    'pk_%(table_name)s'
    """

    metadata = MetaData(naming_convention=NAMING)


class SessionRow(Base):
    """A table session (poker table or blackjack table), hand after hand.

    >>> SessionRow.__tablename__
    'sessions'
    """

    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_kind: Mapped[str] = mapped_column(String(16))
    """``poker`` or ``blackjack``."""
    game: Mapped[str] = mapped_column(String(32))
    rules_json: Mapped[str] = mapped_column(Text)
    rules_fingerprint: Mapped[str] = mapped_column(String(64))
    engine_version: Mapped[str] = mapped_column(String(64))
    seeded: Mapped[bool] = mapped_column(Boolean)
    seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The seed in decimal (a 128-bit seed overflows any integer column)."""
    label: Mapped[str | None] = mapped_column(String(200), nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PlayerRow(Base):
    """A player, by name (the same name is the same player across sessions), and the
    account he is, if a person of the card room.

    >>> PlayerRow.__tablename__
    'players'
    """

    __tablename__ = "players"
    __table_args__ = (Index("ix_players_account_id", "account_id", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The card-room account (``server_accounts.id``) this player is, bound at his first
    seat and never changed; None: a house bot, or a player of a simulation."""


class SeatRow(Base):
    """A player's seat (poker) or box (blackjack) in a session, and the bot playing it.

    >>> SeatRow.__tablename__
    'seats'
    """

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("session_id", "player_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    seat: Mapped[int] = mapped_column(Integer)
    policy: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The bot's name, or None for a person."""


class ShoeRow(Base):
    """A blackjack shoe: committed before its first round, revealed after its last.

    >>> ShoeRow.__tablename__
    'shoes'
    """

    __tablename__ = "shoes"
    __table_args__ = (UniqueConstraint("session_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    commitment: Mapped[str] = mapped_column(String(64))
    deck_order: Mapped[str] = mapped_column(Text)
    salt: Mapped[str] = mapped_column(String(64))
    revealed: Mapped[bool] = mapped_column(Boolean)
    """Whether the shoe is finished and its order and salt may be shown to players."""


class HandRow(Base):
    """One poker hand or blackjack round, complete.

    >>> HandRow.__tablename__
    'hands'
    """

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("session_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    """1, 2, ... within the session."""
    game_kind: Mapped[str] = mapped_column(String(16))
    game: Mapped[str] = mapped_column(String(32))
    rules_json: Mapped[str] = mapped_column(Text)
    rules_fingerprint: Mapped[str] = mapped_column(String(64))
    engine_version: Mapped[str] = mapped_column(String(64))
    seeded: Mapped[bool] = mapped_column(Boolean)
    commitment: Mapped[str] = mapped_column(String(64))
    """The deck commitment shown before the first card (a blackjack round: its shoe's)."""
    deck_order: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The revealed order (poker); None for a round, whose shoe row holds it."""
    salt: Mapped[str | None] = mapped_column(String(64), nullable=True)
    shoe_id: Mapped[int | None] = mapped_column(ForeignKey("shoes.id"), nullable=True)
    shoe_offset: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Cards dealt from the shoe before this round."""
    events_json: Mapped[str] = mapped_column(Text)
    house: Mapped[int] = mapped_column(BigInteger)
    """The house's take: the rake (poker) or the bank's result (blackjack)."""
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ResultRow(Base):
    """One player's chips before and after a hand.

    >>> ResultRow.__tablename__
    'results'
    """

    __tablename__ = "results"
    __table_args__ = (UniqueConstraint("hand_id", "player_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    seat: Mapped[int] = mapped_column(Integer)
    """The poker seat, or the blackjack player's first box (0: no wager)."""
    start: Mapped[int] = mapped_column(BigInteger)
    end: Mapped[int] = mapped_column(BigInteger)
    net: Mapped[int] = mapped_column(BigInteger)


class ChipMovementRow(Base):
    """Chips that moved, signed from the holder's side (None: the house).

    >>> ChipMovementRow.__tablename__
    'chip_movements'
    """

    __tablename__ = "chip_movements"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id"), index=True)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"), nullable=True, index=True)
    ledger_id: Mapped[int | None] = mapped_column(ForeignKey("ledger.id"), nullable=True)
    seq: Mapped[int] = mapped_column(Integer)
    """The order within the hand (0 for a ledger entry's movement)."""
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    kind: Mapped[str] = mapped_column(String(16))
    amount: Mapped[int] = mapped_column(BigInteger)


class LedgerRow(Base):
    """A buy-in or a cash-out, placed after the session's ``after_hand`` hands.

    >>> LedgerRow.__tablename__
    'ledger'
    """

    __tablename__ = "ledger"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(16))
    """``buy-in`` or ``cash-out``."""
    amount: Mapped[int] = mapped_column(BigInteger)
    after_hand: Mapped[int] = mapped_column(Integer)
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountRow(Base):
    """A card-room account: its name as registered (NFKC), the name's key (case-folded:
    unique, so ``ann`` and ``Ann`` are one account) and its argon2 password hash. An
    account registered before names had keys, whose key another account already had,
    keeps ``name_key`` None (the server lists it at start-up).

    >>> AccountRow.__tablename__
    'server_accounts'
    """

    __tablename__ = "server_accounts"
    __table_args__ = (Index("ix_server_accounts_name_key", "name_key", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    name_key: Mapped[str | None] = mapped_column(String(160), nullable=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TokenRow(Base):
    """A live session token, by its SHA-256 (the token itself is never stored); a logout
    deletes the row.

    >>> TokenRow.__tablename__
    'server_tokens'
    """

    __tablename__ = "server_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("server_accounts.id"), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RoleRow(Base):
    """A role held by an account (``admin``), and when it was granted.

    >>> RoleRow.__tablename__
    'server_roles'
    """

    __tablename__ = "server_roles"

    account_id: Mapped[int] = mapped_column(ForeignKey("server_accounts.id"), primary_key=True)
    role: Mapped[str] = mapped_column(String(16), primary_key=True)
    granted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AuditRow(Base):
    """One admin act: who (an account, or the command line), what, on what, when.

    >>> AuditRow.__tablename__
    'server_audit'
    """

    __tablename__ = "server_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("server_accounts.id"), nullable=True)
    actor: Mapped[str] = mapped_column(String(200))
    """The account's name, or ``command line (user NAME)``."""
    action: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(200))
    detail: Mapped[str] = mapped_column(Text)
    """JSON: what else the act said (a table's settings, the outcome)."""
