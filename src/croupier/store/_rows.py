"""Row helpers shared by the store's reads and writes (inside the caller's transaction)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from sqlalchemy import delete, exc, func, select
from sqlalchemy.orm import Session

from croupier.checks import whole_chips
from croupier.store.errors import StoreError
from croupier.store.records import HandSummary, as_utc
from croupier.store.schema import (
    ChipMovementRow,
    HandRow,
    LedgerRow,
    PlayerRow,
    ResultRow,
    SeatRow,
    SessionRow,
    utc_now,
)


def open_session(db: Session, number: int) -> SessionRow:
    """The session row, which must exist and not have ended."""
    row = db.get(SessionRow, number)
    _check_open(number, row)
    assert row is not None
    return row


class SessionFacts(NamedTuple):
    """What a hand's record needs of its session: the game, the rules' fingerprint,
    whether the deals are seeded, and how many hands it has recorded."""

    game_kind: str
    game: str
    rules_fingerprint: str
    seeded: bool
    hands: int


def session_facts(db: Session, number: int) -> SessionFacts:
    """:class:`SessionFacts` of session ``number`` (which must exist and not have
    ended), read with one query: a hand's record runs on a server's event loop."""
    hands = select(func.coalesce(func.max(HandRow.number), 0)).where(HandRow.session_id == number)
    row = db.execute(
        select(
            SessionRow.game_kind,
            SessionRow.game,
            SessionRow.rules_fingerprint,
            SessionRow.seeded,
            SessionRow.ended_at,
            hands.scalar_subquery(),
        ).where(SessionRow.id == number)
    ).first()
    _check_open(number, row)
    assert row is not None
    kind, game, fingerprint, seeded, _ended, count = row
    return SessionFacts(kind, game, fingerprint, bool(seeded), int(count))


def _check_open(number: int, row: Any) -> None:
    """Refuse a session that is not there (``row`` None) or has ended."""
    if row is None:
        raise StoreError(f"no session {number} in the store")
    if row.ended_at is not None:
        raise StoreError(f"session {number} has ended")


def player_row(db: Session, name: str) -> PlayerRow:
    """The player called ``name``, added on first sight."""
    row = db.scalars(select(PlayerRow).where(PlayerRow.name == name)).first()
    if row is not None:
        return row
    try:
        with db.begin_nested():
            row = PlayerRow(name=name)
            db.add(row)
    except exc.IntegrityError:  # another writer added the same player just now
        row = db.scalars(select(PlayerRow).where(PlayerRow.name == name)).one()
    return row


def player_ids(db: Session, names: Iterable[str]) -> dict[str, int]:
    """The ids of the players called ``names`` (one query; the new ones added)."""
    wanted = sorted(set(names))
    query = select(PlayerRow.name, PlayerRow.id).where(PlayerRow.name.in_(wanted))
    found: dict[str, int] = dict(db.execute(query).all())
    for name in wanted:
        if name not in found:
            found[name] = player_row(db, name).id
    return found


def seats_once(db: Session, number: int, seats: Mapping[str, int], ids: Mapping[str, int]) -> None:
    """A seat row for every player of a hand (name → seat; ``ids`` from
    :func:`player_ids`) not yet recorded at that seat, with one query (a server records
    each sit as it happens, :func:`record_sit`)."""
    query = select(SeatRow.player_id, SeatRow.seat).where(
        SeatRow.session_id == number, SeatRow.player_id.in_([ids[n] for n in seats])
    )
    have = {(player_id, seat) for player_id, seat in db.execute(query)}
    db.add_all(
        SeatRow(session_id=number, player_id=ids[name], seat=seat)
        for name, seat in seats.items()
        if (ids[name], seat) not in have
    )


def chip_balances(db: Session, number: int) -> dict[str, int]:
    """Each player's chips at the table in a session: the sum of his chip movements."""
    rows = db.execute(
        select(PlayerRow.name, func.sum(ChipMovementRow.amount))
        .join(PlayerRow, PlayerRow.id == ChipMovementRow.player_id)
        .where(ChipMovementRow.session_id == number)
        .group_by(PlayerRow.name)
    )
    return {name: int(total) for name, total in rows}


def chip_balances_of(db: Session, number: int, player_ids: Iterable[int]) -> dict[int, int]:
    """The chips at the table in a session of the players with ``player_ids`` (id →
    chips; a player with no movement is left out)."""
    rows = db.execute(
        select(ChipMovementRow.player_id, func.sum(ChipMovementRow.amount))
        .where(ChipMovementRow.session_id == number, ChipMovementRow.player_id.in_(player_ids))
        .group_by(ChipMovementRow.player_id)
    )
    return {player: int(total) for player, total in rows if player is not None}


def hands_so_far(db: Session, number: int) -> int:
    """How many hands the session has recorded."""
    count = db.scalar(select(func.max(HandRow.number)).where(HandRow.session_id == number))
    return int(count or 0)


def record_sit(
    db: Session,
    number: int,
    name: str,
    seat: int,
    policy: str | None = None,
    account: int | None = None,
) -> None:
    """Record that ``name`` sits at ``seat`` now, played by ``policy``: a player has one
    row per seat, and the row of his latest sit is his newest (where he last sat is read
    from it: a player back at a seat he had before gets that seat's row anew). A person
    of the card room sits as his ``account``: the player is bound to it at his first seat,
    and a player bound to another account (or a bot's) is refused."""
    player = player_row(db, name)
    if account is not None:
        bot = db.scalar(
            select(SeatRow.id).where(SeatRow.player_id == player.id, SeatRow.policy.is_not(None))
        )
        if player.account_id not in (None, account) or bot is not None or policy is not None:
            raise StoreError(f"the player {name!r} belongs to another account or a bot")
        player.account_id = account
    mine = (SeatRow.session_id == number, SeatRow.player_id == player.id)
    latest = db.execute(
        select(SeatRow.seat, SeatRow.policy).where(*mine).order_by(SeatRow.id.desc()).limit(1)
    ).first()
    if latest is not None and (latest.seat, latest.policy) == (seat, policy):
        return
    db.execute(delete(SeatRow).where(*mine, SeatRow.seat == seat))
    db.add(SeatRow(session_id=number, player_id=player.id, seat=seat, policy=policy))


def hand_summary(db: Session, row: HandRow) -> HandSummary:
    """A hand row in brief, with each player's result."""
    results = db.execute(
        select(PlayerRow.name, ResultRow.seat, ResultRow.net)
        .join(PlayerRow, PlayerRow.id == ResultRow.player_id)
        .where(ResultRow.hand_id == row.id)
        .order_by(ResultRow.seat, PlayerRow.name)
    )
    return HandSummary(
        row.id,
        row.session_id,
        row.number,
        row.game_kind,
        row.game,
        row.commitment,
        as_utc(row.recorded_at) or row.recorded_at,
        tuple((name, seat, int(net)) for name, seat, net in results),
        int(row.house),
    )


def ledger_entry(db: Session, number: int, name: str, kind: str, amount: int | None) -> int:
    """A ``buy-in`` or ``cash-out`` of ``amount`` chips (a cash-out of None: all he has) in
    the ledger, with its chip movement, in ``db``'s transaction; the chips recorded."""
    player = player_row(db, name)
    have = chip_balances(db, number).get(name, 0)
    if amount is None:
        amount = have
    amount = whole_chips(amount, f"the {kind}")
    if kind == "buy-in" and amount <= 0:
        raise StoreError(f"a buy-in is at least 1 chip, not {amount}")
    if kind == "cash-out" and amount > have:
        raise StoreError(f"{name} cannot cash out {amount}: {have} at the table")
    entry = LedgerRow(
        session_id=number,
        player_id=player.id,
        kind=kind,
        amount=amount,
        after_hand=hands_so_far(db, number),
        recorded_at=utc_now(),
    )
    db.add(entry)
    db.flush()
    signed = amount if kind == "buy-in" else -amount
    db.add(
        ChipMovementRow(
            session_id=number,
            ledger_id=entry.id,
            seq=0,
            player_id=player.id,
            kind=kind,
            amount=signed,
        )
    )
    return amount
