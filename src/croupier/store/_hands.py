"""Writing one hand or round into the store, inside the caller's transaction (the
shared part of :meth:`Store.record_poker_hand <croupier.store.Store.record_poker_hand>`
and :meth:`Store.record_blackjack_round <croupier.store.Store.record_blackjack_round>`)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import Table, insert
from sqlalchemy.orm import Session

from croupier.fairness import DeckCommitment, DeckReveal
from croupier.store._rows import chip_balances_of, player_ids, session_facts
from croupier.store.errors import StoreError
from croupier.store.movements import Movement
from croupier.store.schema import ChipMovementRow, HandRow, ResultRow, utc_now
from croupier.store.serial import Rules, events_to_json, game_kind, rules_to_json
from croupier.version import engine_version

__all__ = ["add_hand"]


def add_hand(
    db: Session,
    number: int,
    rules: Rules,
    events: list[Any],
    commitment: DeckCommitment,
    reveal: DeckReveal | None,
    results: list[tuple[str, int, int, int]],
    movements: list[Movement],
    holders: Mapping[int | str, str],
    shoe: tuple[int, int] | None = None,
    *,
    ids: Mapping[str, int] | None = None,
    events_json: str | None = None,
) -> int:
    """Write a hand, its results and movements (inside the caller's transaction); its
    id. The starting stacks must be what the ledger gives the players. ``ids`` (every
    player's id, from :func:`player_ids`) and ``events_json`` (:func:`events_to_json` of
    ``events``), when the caller has them, are not worked out again: a caller makes them
    before its transaction takes the write lock.

    >>> add_hand.__name__
    'add_hand'
    """
    session = session_facts(db, number)
    kind = game_kind(rules)
    if session.game_kind != kind or session.rules_fingerprint != rules.fingerprint:
        raise StoreError(f"the hand was not played under session {number}'s rules")
    if ids is None:
        ids = player_ids(db, [name for name, *_ in results])
    have = chip_balances_of(db, number, [ids[name] for name, *_ in results])
    for name, _seat, start, _end in results:
        if have.get(ids[name], 0) != start:
            raise StoreError(
                f"{name} starts the hand with {start} chips; the ledger gives "
                f"{have.get(ids[name], 0)} (record the buy-in first)"
            )
    started = events[0]
    # a Core insert (no ORM object to flush): the hand row, its id returned
    hand_id: int = db.execute(
        insert(HandRow).returning(HandRow.id),
        {
            "session_id": number,
            "number": session.hands + 1,
            "game_kind": kind,
            "game": session.game,
            "rules_json": _rules_text(rules),
            "rules_fingerprint": rules.fingerprint,
            "engine_version": started.engine_version or engine_version(),
            "seeded": session.seeded,
            "commitment": commitment.digest,
            "deck_order": None if reveal is None else reveal.order_text,
            "salt": None if reveal is None else reveal.salt_hex,
            "shoe_id": None if shoe is None else shoe[0],
            "shoe_offset": None if shoe is None else shoe[1],
            "events_json": events_to_json(events) if events_json is None else events_json,
            "house": sum(m.amount for m in movements if m.holder is None),
            "recorded_at": utc_now(),
        },
    ).scalar_one()
    core = db.connection()  # Core inserts: the ORM's bulk path costs several times more
    core.execute(
        insert(cast(Table, ResultRow.__table__)),
        [
            {
                "hand_id": hand_id,
                "player_id": ids[name],
                "seat": seat,
                "start": start,
                "end": end,
                "net": end - start,
            }
            for name, seat, start, end in results
        ],
    )
    if movements:
        core.execute(
            insert(cast(Table, ChipMovementRow.__table__)),
            [
                {
                    "session_id": number,
                    "hand_id": hand_id,
                    "seq": seq,
                    "player_id": None if m.holder is None else ids[holders[m.holder]],
                    "kind": m.kind,
                    "amount": m.amount,
                }
                for seq, m in enumerate(movements)
            ],
        )
    return hand_id


@functools.lru_cache(maxsize=64)
def _rules_text(rules: Rules) -> str:
    """:func:`rules_to_json`, worked out once for the rules of a table (every hand's row
    carries them)."""
    return rules_to_json(rules)
