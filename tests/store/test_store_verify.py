"""``verify`` catches tampering: each kind of changed, deleted or forged row is reported by its
table and id (on SQLite and on PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from sqlalchemy import text

from croupier.blackjack import NZ
from croupier.poker import OMAHA, PotLimit, TableRules
from croupier.store import Store, play_and_record, play_and_record_blackjack

Tamper = Callable[[Store], tuple[str, int]]


def _one(store: Store, sql: str, **params: object) -> int:
    with store.engine.connect() as conn:
        value = conn.execute(text(sql), params).scalar()
    assert value is not None, sql
    return int(value)


def _run(store: Store, sql: str, **params: object) -> None:
    with store.engine.begin() as conn:
        conn.execute(text(sql), params)


def _poker_hand(store: Store, number: int = 2) -> int:
    return _one(store, "SELECT id FROM hands WHERE game_kind = 'poker' AND number = :n", n=number)


def tamper_result(store: Store) -> tuple[str, int]:
    row = _one(store, "SELECT min(id) FROM results WHERE hand_id = :h", h=_poker_hand(store))
    _run(store, 'UPDATE results SET "end" = "end" + 10, net = net + 10 WHERE id = :r', r=row)
    return "results", row


def tamper_events(store: Store) -> tuple[str, int]:
    hand = _poker_hand(store, 1)
    events = json.loads(_one_text(store, "SELECT events_json FROM hands WHERE id = :h", h=hand))
    blind = next(e for e in events if e["type"] == "BlindPosted")
    blind["amount"] += 1  # a blind one chip bigger than the rules'
    _run(store, "UPDATE hands SET events_json = :e WHERE id = :h", e=json.dumps(events), h=hand)
    return "hands", hand


def tamper_truncate(store: Store) -> tuple[str, int]:
    hand = _poker_hand(store, 3)
    events = json.loads(_one_text(store, "SELECT events_json FROM hands WHERE id = :h", h=hand))
    _run(store, "UPDATE hands SET events_json = :e WHERE id = :h",
         e=json.dumps(events[:-3]), h=hand)  # fmt: skip
    return "hands", hand


def tamper_order(store: Store) -> tuple[str, int]:
    hand = _poker_hand(store)
    order = _one_text(store, "SELECT deck_order FROM hands WHERE id = :h", h=hand)
    swapped = order[:-4] + order[-2:] + order[-4:-2]  # two undealt cards swapped
    _run(store, "UPDATE hands SET deck_order = :o WHERE id = :h", o=swapped, h=hand)
    return "hands", hand


def tamper_salt(store: Store) -> tuple[str, int]:
    hand = _poker_hand(store)
    _run(store, "UPDATE hands SET salt = :s WHERE id = :h", s="00" * 32, h=hand)
    return "hands", hand


def tamper_commitment(store: Store) -> tuple[str, int]:
    hand = _poker_hand(store)
    _run(store, "UPDATE hands SET commitment = :c WHERE id = :h", c="ab" * 32, h=hand)
    return "hands", hand


def tamper_movement(store: Store) -> tuple[str, int]:
    row = _one(store, "SELECT min(id) FROM chip_movements WHERE hand_id = :h", h=_poker_hand(store))
    _run(store, "UPDATE chip_movements SET amount = amount - 5 WHERE id = :r", r=row)
    return "chip_movements", row


def tamper_deleted_movement(store: Store) -> tuple[str, int]:
    hand = _poker_hand(store)
    row = _one(store, "SELECT max(id) FROM chip_movements WHERE hand_id = :h", h=hand)
    _run(store, "DELETE FROM chip_movements WHERE id = :r", r=row)
    return "hands", hand


def tamper_house(store: Store) -> tuple[str, int]:
    hand = _poker_hand(store)
    _run(store, "UPDATE hands SET house = house + 1 WHERE id = :h", h=hand)
    return "hands", hand


def tamper_rules(store: Store) -> tuple[str, int]:
    hand = _poker_hand(store)
    rules = json.loads(_one_text(store, "SELECT rules_json FROM hands WHERE id = :h", h=hand))
    rules["ante"] = 1
    _run(store, "UPDATE hands SET rules_json = :r WHERE id = :h", r=json.dumps(rules), h=hand)
    return "hands", hand


def tamper_ledger(store: Store) -> tuple[str, int]:
    row = _one(store, "SELECT min(id) FROM ledger WHERE kind = 'buy-in'")
    _run(store, "UPDATE ledger SET amount = amount + 100 WHERE id = :r", r=row)
    movement = _one(store, "SELECT id FROM chip_movements WHERE ledger_id = :r", r=row)
    return "chip_movements", movement


def tamper_deleted_hand(store: Store) -> tuple[str, int]:
    hand = _poker_hand(store, 2)
    session = _one(store, "SELECT session_id FROM hands WHERE id = :h", h=hand)
    for table in ("chip_movements", "results"):
        _run(store, f"DELETE FROM {table} WHERE hand_id = :h", h=hand)
    _run(store, "DELETE FROM hands WHERE id = :h", h=hand)
    return "sessions", session


def tamper_shoe(store: Store) -> tuple[str, int]:
    shoe = _one(store, "SELECT min(id) FROM shoes")
    order = _one_text(store, "SELECT deck_order FROM shoes WHERE id = :s", s=shoe)
    _run(store, "UPDATE shoes SET deck_order = :o WHERE id = :s", o=order[2:] + order[:2], s=shoe)
    return "shoes", shoe


def tamper_round_result(store: Store) -> tuple[str, int]:
    hand = _one(store, "SELECT min(id) FROM hands WHERE game_kind = 'blackjack'")
    row = _one(store, "SELECT min(id) FROM results WHERE hand_id = :h", h=hand)
    _run(store, "UPDATE results SET start = start - 10, net = net + 10 WHERE id = :r", r=row)
    return "results", row


def _one_text(store: Store, sql: str, **params: object) -> str:
    with store.engine.connect() as conn:
        value = conn.execute(text(sql), params).scalar()
    assert isinstance(value, str)
    return value


TAMPERS: list[Tamper] = [
    tamper_result,
    tamper_events,
    tamper_truncate,
    tamper_order,
    tamper_salt,
    tamper_commitment,
    tamper_movement,
    tamper_deleted_movement,
    tamper_house,
    tamper_rules,
    tamper_ledger,
    tamper_deleted_hand,
    tamper_shoe,
    tamper_round_result,
]


@pytest.fixture
def filled(store: Store) -> Store:
    play_and_record(store, TableRules(OMAHA, PotLimit()), hands=5, seed=9, policy="calling-station")
    play_and_record_blackjack(store, NZ, rounds=4, seed=9)
    assert store.verify().ok
    return store


@pytest.mark.parametrize("tamper", TAMPERS, ids=[t.__name__ for t in TAMPERS])
def test_a_tampered_row_is_reported_by_id(filled: Store, tamper: Tamper) -> None:
    table, row = tamper(filled)
    report = filled.verify()
    assert not report.ok
    found = [(p.table, p.row_id) for p in report.problems]
    assert (table, row) in found, [p.describe() for p in report.problems]
    assert all("\n" not in p.describe() for p in report.problems)


def test_the_report_says_what_was_checked(filled: Store) -> None:
    report = filled.verify()
    data = report.to_dict()
    assert (data["ok"], data["sessions"], data["hands"]) == (True, 2, 9)
    assert data["ledger_entries"] == report.ledger_entries >= 12
    assert (
        report.describe()
        == f"2 sessions, 9 hands, {report.ledger_entries} ledger entries: all verified"
    )
