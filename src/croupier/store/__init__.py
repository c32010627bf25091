"""The audit store: every hand and round dealt at a table, kept so a lab can audit it.

SQLAlchemy 2 over SQLite (the default: a file in the user's data directory, WAL mode) or
PostgreSQL (``--db postgresql://…`` or ``$CROUPIER_DB``), with Alembic migrations shipped
in the package. Each hand is written in one transaction with its rules, engine version,
deck commitment and reveal (:mod:`croupier.fairness`), full event log, results and chip
movements; a session ledger of buy-ins and cash-outs keeps the books balanced.
:meth:`Store.verify` replays everything through the referees. This package needs the
``store`` extra (``pip install 'croupier[store]'``); ``import croupier`` never loads it.

>>> from croupier.poker import TableRules
>>> store = Store.open("sqlite:///:memory:")
>>> done = play_and_record(store, TableRules(), hands=4, seed=3)
>>> [h.number for h in store.hands(done.session)], store.verify().ok
([1, 2, 3, 4], True)
"""

from croupier.store.connect import ENV_VAR, SCHEMA_REVISION, default_path, resolve_url
from croupier.store.errors import (
    StoreCorruptError,
    StoreError,
    StoreSchemaError,
    StoreUnavailableError,
)
from croupier.store.record import RecordedSession, play_and_record, play_and_record_blackjack
from croupier.store.store import HandSummary, SessionInfo, ShoeDeal, Store, StoredHand, game_deck
from croupier.store.verify import Problem, VerifyReport

__all__ = [
    "ENV_VAR",
    "SCHEMA_REVISION",
    "HandSummary",
    "Problem",
    "RecordedSession",
    "SessionInfo",
    "ShoeDeal",
    "Store",
    "StoreCorruptError",
    "StoreError",
    "StoreSchemaError",
    "StoreUnavailableError",
    "StoredHand",
    "VerifyReport",
    "default_path",
    "game_deck",
    "play_and_record",
    "play_and_record_blackjack",
    "resolve_url",
]
