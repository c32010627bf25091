"""Player accounts: argon2 password hashes, random session tokens stored hashed, expiring.

The accounts live in two tables of their own, ``server_accounts`` and ``server_tokens``,
in the audit store's database (the server's own SQLAlchemy metadata, created by the
server with ``create_all``; the store's Alembic schema is left untouched). A token is 32
random bytes (:func:`secrets.token_urlsafe`); only its SHA-256 is kept, so a copy of the
database opens no session. Passwords are hashed with argon2id (argon2-cffi).

>>> from sqlalchemy import create_engine
>>> accounts = Accounts(create_engine("sqlite://"))
>>> accounts.register("ann", "correct horse")
>>> token, expires = accounts.login("ann", "correct horse")
>>> accounts.authenticate(token)
'ann'
>>> accounts.login("ann", "wrong password")
Traceback (most recent call last):
...
croupier.server.accounts.AuthError: wrong name or password
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import DateTime, Engine, ForeignKey, Integer, MetaData, String, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from croupier.errors import CroupierError
from croupier.server.journal import write_session

__all__ = ["TOKEN_LIFETIME", "AccountRow", "Accounts", "AuthError", "TokenRow"]

TOKEN_LIFETIME = timedelta(hours=12)
"""How long a session token stays valid by default."""


class AuthError(CroupierError):
    """A failed registration, login or token check (the message says which, and no more).

    >>> str(AuthError("token expired"))
    'token expired'
    """


class _Base(DeclarativeBase):
    metadata = MetaData()


class AccountRow(_Base):
    """One account: a unique name and its argon2 password hash.

    >>> AccountRow.__tablename__
    'server_accounts'
    """

    __tablename__ = "server_accounts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TokenRow(_Base):
    """One session token, by its SHA-256 (the token itself is never stored).

    >>> TokenRow.__tablename__
    'server_tokens'
    """

    __tablename__ = "server_tokens"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("server_accounts.id"))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes: they are UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class Accounts:
    """Register, log in, check tokens, over ``engine`` (the tables are made if missing).
    ``clock`` gives the time (tests move it on); ``lifetime`` is a token's life.

    >>> from sqlalchemy import create_engine
    >>> now = [datetime(2030, 1, 1, tzinfo=UTC)]
    >>> accounts = Accounts(create_engine("sqlite://"), clock=lambda: now[0])
    >>> accounts.register("bo", "long enough")
    >>> token, _ = accounts.login("bo", "long enough")
    >>> now[0] += TOKEN_LIFETIME
    >>> accounts.authenticate(token)
    Traceback (most recent call last):
    ...
    croupier.server.accounts.AuthError: session token expired: log in again
    """

    def __init__(
        self,
        engine: Engine,
        *,
        lifetime: timedelta = TOKEN_LIFETIME,
        clock: Callable[[], datetime] | None = None,
        hasher: PasswordHasher | None = None,
    ) -> None:
        self._engine = engine
        self.lifetime = lifetime
        """How long a token lasts."""
        self._clock = clock or (lambda: datetime.now(UTC))
        self._hasher = hasher or PasswordHasher()
        _Base.metadata.create_all(engine)

    def register(self, name: str, password: str) -> None:
        """Make an account; a name already taken raises :class:`AuthError`."""
        row = AccountRow(
            name=name, password_hash=self._hasher.hash(password), created_at=self._clock()
        )
        try:
            with write_session(self._engine) as db:
                db.add(row)
        except IntegrityError:
            raise AuthError(f"the name {name!r} is taken") from None

    def login(self, name: str, password: str) -> tuple[str, datetime]:
        """Check the password and open a session: the token and when it expires. The
        argon2 check runs before the write transaction, which stays short (a journal
        commit never waits behind a password hash)."""
        with Session(self._engine) as db:
            account = db.scalars(select(AccountRow).where(AccountRow.name == name)).first()
            if account is None:
                self._hasher.hash(password)  # the same work as a real check: no timing hint
                raise AuthError("wrong name or password")
            account_id, stored = account.id, account.password_hash
        try:
            self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            raise AuthError("wrong name or password") from None
        rehashed = self._hasher.hash(password) if self._hasher.check_needs_rehash(stored) else None
        now = self._clock()
        token = secrets.token_urlsafe(32)
        expires = now + self.lifetime
        with write_session(self._engine) as db:
            if rehashed is not None:
                row = db.get(AccountRow, account_id)
                if row is not None:
                    row.password_hash = rehashed
            db.execute(delete(TokenRow).where(TokenRow.expires_at <= now))
            db.add(
                TokenRow(token_hash=_hash_token(token), account_id=account_id, expires_at=expires)
            )
        return token, expires

    def authenticate(self, token: str) -> str:
        """The name of the account a live token belongs to; else :class:`AuthError`."""
        with Session(self._engine) as db:
            row = db.get(TokenRow, _hash_token(token))
            if row is None:
                raise AuthError("unknown session token: log in")
            if _utc(row.expires_at) <= self._clock():
                raise AuthError("session token expired: log in again")
            account = db.get(AccountRow, row.account_id)
            assert account is not None
            return account.name

    def logout(self, token: str) -> None:
        """Forget a token (nothing happens for an unknown one).

        >>> from sqlalchemy import create_engine
        >>> Accounts(create_engine("sqlite://")).logout("nothing")
        """
        with write_session(self._engine) as db:
            db.execute(delete(TokenRow).where(TokenRow.token_hash == _hash_token(token)))
