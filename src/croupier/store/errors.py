"""The audit store's errors: each a one-line :class:`~croupier.errors.CroupierError`.

A database that cannot be reached, one that is not a croupier store (or not a database at
all), and one written by a newer croupier are told apart, so the CLI can say which in one
line; nothing of a hand is ever written when one of them is raised.

>>> issubclass(StoreSchemaError, StoreError) and issubclass(StoreError, ValueError)
True
"""

from __future__ import annotations

from croupier.errors import CroupierError

__all__ = [
    "StoreCorruptError",
    "StoreError",
    "StoreSchemaError",
    "StoreUnavailableError",
]


class StoreError(CroupierError):
    """Root of the audit store's errors (a refused record included: an unfinished hand,
    an unknown session, a cash-out of chips the player does not have).

    >>> str(StoreError("no hand 7 in the store"))
    'no hand 7 in the store'
    """


class StoreUnavailableError(StoreError):
    """The database cannot be used: a URL that names no database croupier can open, a
    server that refuses the connection, a driver that is not installed.

    >>> StoreUnavailableError("cannot open the store at 'x://': unknown database kind 'x'").args[0][:24]
    'cannot open the store at'
    """


class StoreCorruptError(StoreError):
    """The database is damaged or is not a croupier store (a file that is no SQLite
    database, tables of another program, a row that cannot be read).

    >>> isinstance(StoreCorruptError("file is not a database"), StoreError)
    True
    """


class StoreSchemaError(StoreError):
    """The store's schema was written by a newer croupier: this one does not know its
    revision and will neither read nor write it.

    >>> StoreSchemaError("schema revision 'x' is newer than this croupier").args[0]
    "schema revision 'x' is newer than this croupier"
    """
