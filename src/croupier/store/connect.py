"""Opening the store's database: where it is, how SQLite is set up, and the schema migrations.

The URL is the one given, else ``$CROUPIER_DB``, else a SQLite file in the user's data
directory (``platformdirs.user_data_dir("croupier")``, made on first use). A plain path is
a SQLite file; ``postgresql://`` uses the psycopg 3 driver. SQLite runs in WAL mode with
foreign keys on and full syncs, and every write transaction takes the write lock at once
(``BEGIN IMMEDIATE``), so concurrent writers queue instead of failing half way.

The schema is made and upgraded by the Alembic migrations shipped in the package (no
``alembic.ini``), inside one transaction that holds the write lock (SQLite) or an advisory
lock (PostgreSQL), so two processes opening a new store at once cannot both create it. A
store already at :data:`SCHEMA_REVISION` is opened without loading Alembic at all.

>>> resolve_url("/tmp/hands.db").render_as_string()
'sqlite:////tmp/hands.db'
>>> resolve_url("postgresql://ann@db.example/croupier").drivername
'postgresql+psycopg'
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event, exc
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.pool import StaticPool

from croupier.store.errors import (
    StoreCorruptError,
    StoreError,
    StoreSchemaError,
    StoreUnavailableError,
)
from croupier.store.schema import Base

__all__ = [
    "ENV_VAR",
    "SCHEMA_REVISION",
    "connect",
    "default_path",
    "known_revisions",
    "migrate",
    "resolve_url",
    "show_url",
    "store_errors",
]

ENV_VAR = "CROUPIER_DB"
"""The environment variable naming the store's database URL."""

SCHEMA_REVISION = "0002"
"""The newest schema revision this croupier knows (the head of its migrations)."""

MIGRATIONS = Path(__file__).parent / "migrations"
"""Where the Alembic migrations live (``script_location``)."""

_TABLES = frozenset(Base.metadata.tables)
_LOCK_ID = 0x63726F75  # "crou": the PostgreSQL advisory lock taken while migrating


def default_path() -> Path:
    """The default SQLite file: ``store.sqlite3`` in the user's data directory.

    >>> default_path().name
    'store.sqlite3'
    """
    import platformdirs

    return Path(platformdirs.user_data_dir("croupier")) / "store.sqlite3"


def resolve_url(url: str | None = None) -> URL:
    """The database URL to open: ``url``, else ``$CROUPIER_DB``, else :func:`default_path`.

    >>> resolve_url("sqlite:///:memory:").database
    ':memory:'
    >>> resolve_url("not a url://x")
    Traceback (most recent call last):
    ...
    croupier.store.errors.StoreUnavailableError: cannot open the store at 'not a url://x': not a database URL
    """
    text = url if url is not None else os.environ.get(ENV_VAR) or None
    if text is None:
        return URL.create("sqlite", database=str(default_path()))
    if not isinstance(text, str) or not text.strip():
        raise StoreUnavailableError(f"a store URL is text, not {text!r}")
    if "://" not in text:  # a plain path: a SQLite file
        return URL.create("sqlite", database=str(Path(text).expanduser().absolute()))
    try:
        parsed = make_url(text)
    except (exc.ArgumentError, ValueError):
        raise StoreUnavailableError(
            f"cannot open the store at {text!r}: not a database URL"
        ) from None
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def show_url(url: URL) -> str:
    """The URL as a person reads it: the password hidden, a SQLite path as it is.

    >>> show_url(make_url("postgresql+psycopg://ann:secret@db/croupier"))
    'postgresql+psycopg://ann:***@db/croupier'
    >>> show_url(resolve_url("sqlite:///:memory:"))
    'sqlite:///:memory:'
    """
    if url.get_backend_name() == "sqlite":
        return f"{url.drivername}:///{url.database or ''}"
    return url.render_as_string(hide_password=True)


def _message(error: BaseException) -> str:
    """The first line of a database error, without SQLAlchemy's background links."""
    original = getattr(error, "orig", None)
    text = str(original if original is not None else error)
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first or type(error).__name__


_BUSY_TIMEOUT = 30.0
"""Seconds a SQLite writer waits for the write lock before it gives up."""
_HOLDS_WRITERS = "croupier_holds_writers"
"""Set in a connection's ``info`` while its write transaction holds the process's mutex."""


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={int(_BUSY_TIMEOUT * 1000)}")
        finally:
            cursor.close()

    # The threads of one process queue for the write lock on a mutex: woken the moment it
    # is free, where SQLite's busy handler sleeps 1, 2, 5, 10, 15, 20, 25... ms between
    # tries (a server's journal waited on a hand's record up to tens of ms longer than it
    # held the lock). Other processes still wait on SQLite's lock.
    writers = threading.Lock()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        write = connection.get_execution_options().get("croupier_write", False)
        mine = write and not connection.info.get(_HOLDS_WRITERS)
        if mine and writers.acquire(timeout=_BUSY_TIMEOUT):
            connection.info[_HOLDS_WRITERS] = True
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    @event.listens_for(engine, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        if record.info.pop(_HOLDS_WRITERS, False):  # the transaction is over: next writer
            writers.release()


def connect(url: URL) -> Engine:
    """An engine for ``url``, checked by connecting once; a URL that cannot be used raises
    :class:`~croupier.store.errors.StoreUnavailableError` (a damaged file:
    :class:`~croupier.store.errors.StoreCorruptError`).

    >>> engine = connect(resolve_url("sqlite:///:memory:"))
    >>> engine.dialect.name
    'sqlite'
    """
    shown = show_url(url)
    options: dict[str, Any] = {}
    if url.drivername.startswith("sqlite") and url.database in (None, "", ":memory:"):
        # one database for every thread (the server writes from worker threads): one
        # shared connection, not SQLAlchemy's default of one in-memory database a thread
        options = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    try:
        engine = sa.create_engine(url, **options)
    except exc.NoSuchModuleError:
        raise StoreUnavailableError(
            f"cannot open the store at {shown!r}: unknown database kind {url.drivername!r}"
        ) from None
    except ModuleNotFoundError as error:
        extra = " (pip install 'croupier[postgres]')" if "psycopg" in str(error) else ""
        raise StoreUnavailableError(
            f"cannot open the store at {shown!r}: driver {error.name!r} is not installed{extra}"
        ) from None
    except exc.ArgumentError as error:
        raise StoreUnavailableError(
            f"cannot open the store at {shown!r}: {_message(error)}"
        ) from None
    if engine.dialect.name == "sqlite":
        _sqlite_setup(engine)
    with store_errors(f"cannot open the store at {shown!r}", unavailable=True), engine.connect():
        pass
    return engine


@contextmanager
def store_errors(what: str, *, unavailable: bool = False) -> Iterator[None]:
    """Turn a database error inside the block into a one-line store error: ``what``, then
    the database's own first line (a damaged SQLite file is a
    :class:`~croupier.store.errors.StoreCorruptError`; with ``unavailable`` a failed
    connection is a :class:`~croupier.store.errors.StoreUnavailableError`).

    >>> with store_errors("cannot read"):
    ...     raise exc.DatabaseError("SELECT 1", {}, Exception("file is not a database"))
    Traceback (most recent call last):
    ...
    croupier.store.errors.StoreCorruptError: cannot read: file is not a database
    """
    try:
        yield
    except StoreError:
        raise
    except exc.OperationalError as error:
        text = _message(error)
        if unavailable or "connect" in text or "unable to open" in text:
            raise StoreUnavailableError(f"{what}: {text}") from None
        raise StoreError(f"{what}: {text}") from None
    except exc.DatabaseError as error:
        text = _message(error)
        corrupt = "not a database" in text or "malformed" in text or "corrupt" in text
        kind = StoreCorruptError if corrupt else StoreError
        raise kind(f"{what}: {text}") from None
    except exc.SQLAlchemyError as error:
        raise StoreError(f"{what}: {_message(error)}") from None


def _state(connection: Connection) -> tuple[set[str], list[str]]:
    tables = set(sa.inspect(connection).get_table_names())
    revisions: list[str] = []
    if "alembic_version" in tables:
        rows = connection.exec_driver_sql("SELECT version_num FROM alembic_version")
        revisions = [str(r[0]) for r in rows]
    return tables, revisions


def known_revisions() -> set[str]:
    """Every schema revision the shipped migrations know.

    >>> SCHEMA_REVISION in known_revisions()
    True
    """
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(MIGRATIONS))
    return {r.revision for r in script.walk_revisions()}


def migrate(engine: Engine) -> None:
    """Bring the store's schema to :data:`SCHEMA_REVISION`, creating it in a new database;
    refuse a schema from a newer croupier and a database holding croupier's tables without
    a schema revision.

    >>> engine = connect(resolve_url("sqlite:///:memory:"))
    >>> migrate(engine); migrate(engine)           # the second time: nothing to do
    >>> with engine.connect() as c:
    ...     c.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    '0002'
    """
    shown = show_url(engine.url)
    with store_errors(f"cannot read the store at {shown!r}"), engine.connect() as connection:
        _tables, revisions = _state(connection)
    if revisions == [SCHEMA_REVISION]:
        return
    with store_errors(f"cannot set up the store at {shown!r}"), engine.connect() as connection:
        connection.execution_options(croupier_write=True)
        with connection.begin():
            if engine.dialect.name == "postgresql":
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_LOCK_ID})")
            tables, revisions = _state(connection)  # again, now under the lock
            if revisions == [SCHEMA_REVISION]:
                return
            _check_revisions(shown, tables, revisions)
            from alembic import command
            from alembic.config import Config

            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = connection
            command.upgrade(config, "head")


def _check_revisions(shown: str, tables: set[str], revisions: list[str]) -> None:
    if not revisions:
        if tables & _TABLES:
            raise StoreCorruptError(
                f"{shown} is not a croupier store: it has tables named like croupier's "
                f"({', '.join(sorted(tables & _TABLES))}) but no schema revision"
            )
        return
    known = known_revisions()
    unknown = [r for r in revisions if r not in known]
    if unknown:
        raise StoreSchemaError(
            f"the store at {shown} has schema revision {unknown[0]!r}, written by a newer "
            f"croupier (this one knows up to {SCHEMA_REVISION!r}): upgrade croupier to use it"
        )
