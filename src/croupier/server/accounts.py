"""Player accounts: names, argon2 password hashes, revocable session tokens, roles and the
audit log of every admin act.

The accounts live in the audit store (``server_accounts``, ``server_tokens``,
``server_roles``, ``server_audit``: :mod:`croupier.store.schema`, made by the store's
migrations). A name is checked and normalised by :mod:`croupier.server.names` and is
unique without regard to case. A token is 32 random bytes
(:func:`secrets.token_urlsafe`); only its SHA-256 is kept, so a copy of the database opens
no session, and a logout deletes it. Passwords are hashed with argon2id (argon2-cffi, at
OWASP's recommended cost for one thread: 19 MiB, 2 passes). An account is known by its
:class:`Account` (id and name): the card room keys seats by the id.

>>> from croupier.store import Store
>>> accounts = Accounts(Store.open("sqlite:///:memory:").engine)
>>> ann = accounts.register("Ann", "correct horse")
>>> token, expires, who = accounts.login("ANN", "correct horse")
>>> accounts.authenticate(token) == who == ann
True
>>> accounts.register("ann", "another one")
Traceback (most recent call last):
...
croupier.server.accounts.NameTakenError: the name 'ann' is taken
>>> accounts.login("ann", "wrong password")
Traceback (most recent call last):
...
croupier.server.accounts.AuthError: wrong name or password
"""

from __future__ import annotations

import getpass
import hashlib
import json
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.server.journal import write_session
from croupier.server.names import check_name, is_reserved, name_key
from croupier.store.connect import migrate
from croupier.store.schema import AccountRow, AuditRow, PlayerRow, RoleRow, TokenRow

__all__ = [
    "ADMIN",
    "PASSWORD_HASHER",
    "TOKEN_LIFETIME",
    "Account",
    "Accounts",
    "AuditEntry",
    "AuthError",
    "NameTakenError",
    "command_line_actor",
    "hash_token",
]

TOKEN_LIFETIME = timedelta(hours=12)
"""How long a session token stays valid by default."""

ADMIN = "admin"
"""The role that may use the admin API."""

PASSWORD_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
"""Argon2id at OWASP's recommended minimum (19 MiB, 2 passes, one lane): one hash keeps
one core busy for tens of milliseconds, never all of them."""

ROLES = frozenset({ADMIN})
"""The roles there are."""


class AuthError(CroupierError):
    """A failed login or token check (the message says which, and no more).

    >>> str(AuthError("token expired"))
    'token expired'
    """


class NameTakenError(CroupierError):
    """A registration under a name (in any case) another account has.

    >>> str(NameTakenError("taken"))
    'taken'
    """


@dataclass(frozen=True, slots=True)
class Account:
    """Who an account is: its id (what seats and rights are keyed by) and its name.

    >>> Account(3, "ann").name
    'ann'
    """

    id: int
    name: str

    @property
    def reserved(self) -> bool:
        """Whether the name reads as a house bot's or a role's (an account registered
        before such names were refused): it may log in and watch, never sit."""
        return is_reserved(self.name)


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One admin act, as ``GET /api/admin/audit`` and ``croupier admin log`` list it.

    >>> AuditEntry(1, "2030-01-01T00:00:00+00:00", "boss", "close_table", "t1", {}).action
    'close_table'
    """

    id: int
    at: str
    actor: str
    action: str
    target: str
    detail: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The entry as JSON-ready data."""
        return {
            "id": self.id,
            "at": self.at,
            "actor": self.actor,
            "action": self.action,
            "target": self.target,
            "detail": self.detail,
        }


def hash_token(token: str) -> str:
    """What the store keeps of a token: its SHA-256, in hex.

    >>> len(hash_token("abc"))
    64
    """
    return hashlib.sha256(token.encode()).hexdigest()


def command_line_actor() -> str:
    """The audit log's name for an act done on the command line (``croupier admin``,
    ``croupier serve --admin``).

    >>> command_line_actor().startswith("command line (user ")
    True
    """
    try:
        user = getpass.getuser()
    except Exception:  # no user name in this environment
        user = "unknown"
    return f"command line (user {user})"


def _utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes: they are UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class Accounts:
    """Register, log in, check and revoke tokens, grant roles, audit, over ``engine`` (the
    store's: its schema is brought up to date). ``clock`` gives the time (tests move it
    on); ``lifetime`` is a token's life.

    >>> from croupier.store import Store
    >>> now = [datetime(2030, 1, 1, tzinfo=UTC)]
    >>> accounts = Accounts(Store.open("sqlite:///:memory:").engine, clock=lambda: now[0])
    >>> _ = accounts.register("bo", "long enough")
    >>> token, _, _ = accounts.login("bo", "long enough")
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
        migrate(engine)
        self._engine = engine
        self.lifetime = lifetime
        """How long a token lasts."""
        self._clock = clock or (lambda: datetime.now(UTC))
        self._hasher = hasher or PASSWORD_HASHER
        self._decoy = self._hasher.hash(secrets.token_hex(16))
        """A hash no password matches: an unknown name costs the same check as a known one."""

    # ------------------------------------------------------------------ names
    def register(self, name: str, password: str) -> Account:
        """Make an account: its name is checked (:class:`~croupier.server.names.BadNameError`)
        and must be free in any case (:class:`NameTakenError`)."""
        shown = check_name(name)
        key = name_key(shown)
        digest = self._hasher.hash(password)
        try:
            with write_session(self._engine) as db:
                if db.scalar(select(AccountRow.id).where(AccountRow.name_key == key)) is not None:
                    raise NameTakenError(f"the name {shown!r} is taken")
                # the store's players are kept by exact name: one that already played
                # (a bot, a simulation's or a terminal game's player) is not the new account
                if db.scalar(select(PlayerRow.id).where(PlayerRow.name == shown)) is not None:
                    raise NameTakenError(f"the name {shown!r} is taken by a player in the store")
                row = AccountRow(
                    name=shown, name_key=key, password_hash=digest, created_at=self._clock()
                )
                db.add(row)
                db.flush()
                return Account(row.id, row.name)
        except IntegrityError:  # a race with another registration, or a legacy twin
            raise NameTakenError(f"the name {shown!r} is taken") from None

    def find(self, name: str) -> Account | None:
        """The account named exactly ``name``, else the one whose name is ``name`` in
        another case, if any (a legacy case twin, whose name has no key, is found by its
        exact name).

        >>> from croupier.store import Store
        >>> Accounts(Store.open("sqlite:///:memory:").engine).find("nobody") is None
        True
        """
        if not isinstance(name, str):
            return None
        with Session(self._engine) as db:  # the exact name first: a legacy case twin
            row = db.scalars(select(AccountRow).where(AccountRow.name == name)).first()
            if row is None:
                row = db.scalars(
                    select(AccountRow).where(AccountRow.name_key == name_key(name))
                ).first()
            return None if row is None else Account(row.id, row.name)

    def problems(self) -> list[str]:
        """One line per account a newer rule would refuse: a name reserved for the house
        (it gets no seat) or one whose case-folded key another account has (not merged).

        >>> from croupier.store import Store
        >>> Accounts(Store.open("sqlite:///:memory:").engine).problems()
        []
        """
        lines = []
        with Session(self._engine) as db:
            rows = db.execute(
                select(AccountRow.id, AccountRow.name, AccountRow.name_key).order_by(AccountRow.id)
            ).all()
        keys = {key: name for _, name, key in rows if key is not None}
        for account_id, name, key in rows:
            if is_reserved(name):
                lines.append(
                    f"account {name!r} (id {account_id}) has a name reserved for the house: "
                    "it may log in and watch but gets no seat"
                )
            if key is None:
                twin = keys.get(name_key(name), "?")
                lines.append(
                    f"account {name!r} (id {account_id}) has the same name as {twin!r} but for "
                    "case: both are kept, neither merged"
                )
        return lines

    # ------------------------------------------------------------------ sessions
    def _check_password(self, name: str, password: str) -> tuple[int, str]:
        """The account id and stored hash when ``password`` is ``name``'s; else AuthError
        after the same work as a real check."""
        account = self.find(name)
        if account is None:
            self._verify(self._decoy, password)
            raise AuthError("wrong name or password")
        with Session(self._engine) as db:
            stored = db.scalar(select(AccountRow.password_hash).where(AccountRow.id == account.id))
        if stored is None or not self._verify(stored, password):
            raise AuthError("wrong name or password")
        return account.id, stored

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return bool(self._hasher.verify(stored, password))
        except (VerificationError, InvalidHashError):
            return False

    def login(self, name: str, password: str) -> tuple[str, datetime, Account]:
        """Check the password and open a session: the token, when it expires, the account.
        The argon2 check runs before the write transaction, which stays short."""
        account_id, stored = self._check_password(name, password)
        return self._open_session(account_id, stored, password)

    def _open_session(
        self, account_id: int, stored: str, password: str
    ) -> tuple[str, datetime, Account]:
        """Write a new token for the account whose hash ``stored`` the password matched,
        unless the hash changed meanwhile (a password change won the race)."""
        rehashed = self._hasher.hash(password) if self._hasher.check_needs_rehash(stored) else None
        now = self._clock()
        token = secrets.token_urlsafe(32)
        expires = now + self.lifetime
        with write_session(self._engine) as db:
            row = db.get(AccountRow, account_id)
            if row is None or row.password_hash != stored:  # changed meanwhile
                raise AuthError("wrong name or password")
            if rehashed is not None:
                row.password_hash = rehashed
            db.execute(delete(TokenRow).where(TokenRow.expires_at <= now))
            db.add(
                TokenRow(token_hash=hash_token(token), account_id=account_id, expires_at=expires)
            )
            account = Account(row.id, row.name)
        return token, expires, account

    def authenticate(self, token: str) -> Account:
        """The account a live token belongs to; else :class:`AuthError`."""
        with Session(self._engine) as db:
            row = db.get(TokenRow, hash_token(token))
            if row is None:
                raise AuthError("unknown or revoked session token: log in")
            if _utc(row.expires_at) <= self._clock():
                raise AuthError("session token expired: log in again")
            account = db.get(AccountRow, row.account_id)
            assert account is not None
            return Account(account.id, account.name)

    def live(self, token_hashes: Iterable[str]) -> set[str]:
        """Which of ``token_hashes`` are of live tokens (not revoked, not expired)."""
        wanted = set(token_hashes)
        if not wanted:
            return set()
        now = self._clock()
        with Session(self._engine) as db:
            rows = db.execute(
                select(TokenRow.token_hash, TokenRow.expires_at).where(
                    TokenRow.token_hash.in_(wanted)
                )
            ).all()
        return {h for h, expires in rows if _utc(expires) > now}

    def logout(self, token: str) -> int:
        """Revoke a token: 1, or 0 for one that was not live.

        >>> from croupier.store import Store
        >>> Accounts(Store.open("sqlite:///:memory:").engine).logout("nothing")
        0
        """
        with write_session(self._engine) as db:
            done = db.execute(delete(TokenRow).where(TokenRow.token_hash == hash_token(token)))
            return int(getattr(done, "rowcount", 0) or 0)

    def logout_all(self, account: Account, *, keep: str | None = None) -> int:
        """Revoke every token of ``account`` (but ``keep``, a token): how many."""
        with write_session(self._engine) as db:
            query = delete(TokenRow).where(TokenRow.account_id == account.id)
            if keep is not None:
                query = query.where(TokenRow.token_hash != hash_token(keep))
            done = db.execute(query)
            return int(getattr(done, "rowcount", 0) or 0)

    def change_password(self, token: str, old: str, new: str) -> int:
        """Change the password of the token's account (``old`` must be right: else
        :class:`AuthError`) and revoke every other token of it: how many were revoked."""
        account = self.authenticate(token)
        self._check_password(account.name, old)
        digest = self._hasher.hash(new)
        with write_session(self._engine) as db:
            row = db.get(AccountRow, account.id)
            assert row is not None
            row.password_hash = digest
        return self.logout_all(account, keep=token)

    # ------------------------------------------------------------------ roles
    def _account(self, name: str) -> Account:
        account = self.find(name)
        if account is None:
            raise CroupierError(f"no account named {name!r}")
        return account

    def has_role(self, account: Account, role: str = ADMIN) -> bool:
        """Whether ``account`` holds ``role``."""
        with Session(self._engine) as db:
            return db.get(RoleRow, (account.id, role)) is not None

    def grant(self, name: str, role: str = ADMIN, *, actor: Account | str) -> Account:
        """Give the existing account ``name`` the ``role`` (audited); the account."""
        return self._set_role(name, role, actor=actor, granted=True)

    def revoke_role(self, name: str, role: str = ADMIN, *, actor: Account | str) -> Account:
        """Take ``role`` from the existing account ``name`` (audited); the account."""
        return self._set_role(name, role, actor=actor, granted=False)

    def _set_role(self, name: str, role: str, *, actor: Account | str, granted: bool) -> Account:
        if role not in ROLES:
            raise CroupierError(f"no role {role!r}: one of {sorted(ROLES)}")
        account = self._account(name)
        with write_session(self._engine) as db:
            row = db.get(RoleRow, (account.id, role))
            changed = (row is None) == granted
            if granted and row is None:
                db.add(RoleRow(account_id=account.id, role=role, granted_at=self._clock()))
            elif not granted and row is not None:
                db.delete(row)
            self._audit_in(
                db,
                actor,
                "grant" if granted else "revoke",
                account.name,
                {"role": role, "changed": changed},
            )
        return account

    def holders(self, role: str = ADMIN) -> list[Account]:
        """The accounts holding ``role``, by name."""
        with Session(self._engine) as db:
            rows = db.execute(
                select(AccountRow.id, AccountRow.name)
                .join(RoleRow, RoleRow.account_id == AccountRow.id)
                .where(RoleRow.role == role)
                .order_by(func.lower(AccountRow.name))
            ).all()
        return [Account(i, n) for i, n in rows]

    # ------------------------------------------------------------------ audit
    def _audit_in(
        self, db: Session, actor: Account | str, action: str, target: str, detail: dict[str, Any]
    ) -> None:
        db.add(
            AuditRow(
                at=self._clock(),
                actor_id=actor.id if isinstance(actor, Account) else None,
                actor=actor.name if isinstance(actor, Account) else actor,
                action=action,
                target=target[:200],
                detail=json.dumps(detail, sort_keys=True, default=str),
            )
        )

    def audit(
        self,
        actor: Account | str,
        action: str,
        target: str,
        detail: dict[str, Any] | None = None,
    ) -> None:
        """Record an admin act: who (an account, or :func:`command_line_actor`), what, on
        what, and anything else worth keeping (``detail``, JSON)."""
        with write_session(self._engine) as db:
            self._audit_in(db, actor, action, target, detail or {})

    def audit_log(self, limit: int = 1000) -> list[AuditEntry]:
        """The latest ``limit`` admin acts, oldest first."""
        with Session(self._engine) as db:
            rows = db.scalars(select(AuditRow).order_by(AuditRow.id.desc()).limit(limit)).all()
            return [
                AuditEntry(
                    r.id, _utc(r.at).isoformat(), r.actor, r.action, r.target, json.loads(r.detail)
                )
                for r in reversed(rows)
            ]
