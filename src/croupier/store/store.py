"""The audit store: sessions, seats, the ledger and every hand, one transaction per hand.

A hand is written whole or not at all: its row, its results and its chip movements go in
one transaction, after the hand is over (the deck commitment was shown before its first
card; the record keeps it with the reveal). A buy-in or cash-out is its own transaction,
between hands. Each write checks the books first: a hand whose players start with chips
the ledger does not give them, or a cash-out of chips a player does not have, is refused.

>>> from croupier.cards import Deck
>>> from croupier.fairness import commit_deck
>>> from croupier.poker import HandState, TableRules
>>> store = Store.open("sqlite:///:memory:")
>>> session = store.start_session(TableRules())
>>> store.buy_in(session, "ann", 100); store.buy_in(session, "bo", 100)
>>> deck = Deck.standard(seed=3)
>>> commitment, reveal = commit_deck(deck.remaining)
>>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, deck=deck)
>>> hand.fold()
Folded(seat=2)
>>> store.record_poker_hand(session, hand, commitment, reveal, {1: "ann", 2: "bo"})
1
>>> store.balances(session)
{'ann': 105, 'bo': 95}
>>> store.verify().ok
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from croupier.blackjack import events as bj
from croupier.blackjack.round import BlackjackRound
from croupier.errors import CroupierError
from croupier.fairness import DeckCommitment, DeckReveal, verify_logged_deal
from croupier.poker import events as pk
from croupier.poker.settings import TableRules
from croupier.poker.state import HandState
from croupier.store._hands import add_hand
from croupier.store._rows import (
    chip_balances,
    hand_summary,
    ledger_entry,
    open_session,
    player_ids,
    record_sit,
    seats_once,
)
from croupier.store.connect import (
    ENV_VAR,
    connect,
    migrate,
    resolve_url,
    show_url,
    store_errors,
)
from croupier.store.errors import StoreCorruptError, StoreError
from croupier.store.movements import blackjack_movements, poker_movements
from croupier.store.records import (
    MAX_ID,
    HandSummary,
    SessionInfo,
    SessionRef,
    ShoeDeal,
    StoredHand,
    game_deck,
    player_name,
    session_id,
)
from croupier.store.schema import (
    HandRow,
    PlayerRow,
    SeatRow,
    SessionRow,
    ShoeRow,
    utc_now,
)
from croupier.store.serial import (
    Rules,
    events_from_json,
    events_to_json,
    game_kind,
    rules_from_json,
    rules_to_json,
)
from croupier.version import engine_version
from croupier.visitor import EventVisitor, visits

if TYPE_CHECKING:
    from croupier.store.verify import VerifyReport

__all__ = ["HandSummary", "SessionInfo", "ShoeDeal", "Store", "StoredHand", "game_deck"]


class Store:
    """The audit store over one database (see the module docstring); open it with
    :meth:`open`.

    >>> with Store.open("sqlite:///:memory:") as store:
    ...     store.sessions()
    []
    """

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._player_ids: dict[str, int] = {}
        """Players' ids read by a committed record (a hand's record skips the query)."""

    # ---------------------------------------------------------------- opening
    @classmethod
    def open(cls, url: str | None = None, *, create: bool = True) -> Store:
        """Open the store at ``url``, else ``$CROUPIER_DB``, else the SQLite file in the
        user's data directory, and migrate its schema; with ``create`` (the default) a
        SQLite file that does not exist yet is made, else that is an error (readers such
        as ``croupier history`` never leave an empty store behind).

        >>> Store.open("nosuchdb://x")
        Traceback (most recent call last):
        ...
        croupier.store.errors.StoreUnavailableError: cannot open the store at 'nosuchdb://x': unknown database kind 'nosuchdb'
        >>> Store.open("/no/such/store.db", create=False)
        Traceback (most recent call last):
        ...
        croupier.store.errors.StoreError: no store at /no/such/store.db: nothing has been recorded there
        """
        resolved = resolve_url(url)
        path = resolved.database if resolved.get_backend_name() == "sqlite" else None
        if path and path != ":memory:" and not path.startswith("file:"):
            if not create and not Path(path).exists():
                raise StoreError(f"no store at {path}: nothing has been recorded there")
            if create and url is None and not os.environ.get(ENV_VAR):
                try:  # the default file: its folder is made on first use
                    Path(path).parent.mkdir(parents=True, exist_ok=True)
                except OSError as error:
                    raise StoreError(
                        f"cannot make the store's folder {Path(path).parent}: {error.strerror}"
                    ) from None
        engine = connect(resolved)
        try:
            migrate(engine)
        except BaseException:
            engine.dispose()
            raise
        return cls(engine)

    @property
    def url(self) -> str:
        """The database URL (password hidden).

        >>> Store.open("sqlite:///:memory:").url
        'sqlite:///:memory:'
        """
        return show_url(self._engine.url)

    def close(self) -> None:
        """Close every connection."""
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (for audits and tests that read the tables directly)."""
        return self._engine

    # ----------------------------------------------------------- transactions
    @contextmanager
    def _write(self, what: str) -> Iterator[Session]:
        """One write transaction: all of it is committed, or none of it."""
        with store_errors(what), self._engine.connect() as connection:
            connection.execution_options(croupier_write=True)
            with Session(bind=connection) as db, db.begin():
                yield db

    @contextmanager
    def _read(self, what: str = "cannot read the store") -> Iterator[Session]:
        with store_errors(what), Session(self._engine) as db:
            yield db

    # --------------------------------------------------------------- sessions
    def start_session(
        self, rules: Rules, *, seed: int | None = None, label: str | None = None
    ) -> SessionInfo:
        """Open a session at a table with ``rules`` (poker :class:`TableRules` or
        :class:`BlackjackRules`); ``seed`` is the seed its shuffles come from, if any (the
        record says the deals were seeded).

        >>> Store.open("sqlite:///:memory:").start_session("holdem")
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: rules must be TableRules or BlackjackRules, not 'holdem'
        """
        kind = game_kind(rules)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise CroupierError(f"a seed is a whole number from 0, not {seed!r}")
        game = rules.game.name if isinstance(rules, TableRules) else "blackjack"
        row = SessionRow(
            game_kind=kind,
            game=game,
            rules_json=rules_to_json(rules),
            rules_fingerprint=rules.fingerprint,
            engine_version=engine_version(),
            seeded=seed is not None,
            seed=None if seed is None else str(seed),
            label=label,
            started_at=utc_now(),
        )
        with self._write("cannot start a session") as db:
            db.add(row)
            db.flush()
            info = SessionInfo.of(row)
        return info

    def session(self, session: SessionRef) -> SessionInfo:
        """The session with this id.

        >>> Store.open("sqlite:///:memory:").session(3)
        Traceback (most recent call last):
        ...
        croupier.store.errors.StoreError: no session 3 in the store
        """
        number = session_id(session)
        with self._read() as db:
            row = db.get(SessionRow, number) if 0 < number <= MAX_ID else None
            if row is None:
                raise StoreError(f"no session {number} in the store")
            return SessionInfo.of(row)

    def sessions(self) -> list[SessionInfo]:
        """Every session, oldest first."""
        with self._read() as db:
            return [
                SessionInfo.of(r) for r in db.scalars(select(SessionRow).order_by(SessionRow.id))
            ]

    def reveal_shoe(self, session: SessionRef, number: int) -> bool:
        """Mark shoe ``number`` of a session revealed (put away: a server that restarts
        deals from a new shoe, so the old one's order may be shown); False if the session
        has no such shoe row (no round of it was recorded)."""
        session_number = session_id(session)
        with self._write(f"cannot reveal shoe {number} of session {session_number}") as db:
            row = db.scalars(
                select(ShoeRow).where(
                    ShoeRow.session_id == session_number, ShoeRow.number == number
                )
            ).first()
            if row is None:
                return False
            row.revealed = True
            return True

    def end_session(self, session: SessionRef) -> None:
        """Close a session; every player must have cashed out first."""
        number = session_id(session)
        with self._write(f"cannot end session {number}") as db:
            row = open_session(db, number)
            left = {n: c for n, c in chip_balances(db, number).items() if c}
            if left:
                who = ", ".join(f"{n} {c}" for n, c in sorted(left.items()))
                raise StoreError(f"session {number} still has chips on the table: {who}")
            row.ended_at = utc_now()
            for shoe in db.scalars(select(ShoeRow).where(ShoeRow.session_id == number)):
                shoe.revealed = True  # the shoe is put away: its order may be shown

    # ---------------------------------------------------------------- players
    def sit(
        self,
        session: SessionRef,
        name: str,
        seat: int,
        policy: str | None = None,
        *,
        buy_in: int | None = None,
        guard: Callable[[Session], object] | None = None,
        account: int | None = None,
    ) -> None:
        """Record that ``name`` sits at ``seat`` (a poker seat, a blackjack box), played by
        the bot ``policy`` (None: a person), and with ``buy_in`` his buy-in, in the same
        transaction. ``guard`` runs first in the transaction: if it raises (a server's
        table lease is gone), nothing is written; nor is anything if the buy-in is
        refused. ``account``: the card-room account the person is (the player is bound
        to it; a player bound to another, or a bot, is refused).

        >>> store = Store.open("sqlite:///:memory:")
        >>> session = store.start_session(TableRules())
        >>> for seat in (4, 3, 4):
        ...     store.sit(session, "ann", seat)
        >>> store.seating(session)  # where she sat last, though she had seat 4 before
        {'ann': (4, None)}
        >>> store.sit(session, "bob", 2, buy_in=100); store.balances(session)
        {'bob': 100}
        """
        number, name = session_id(session), player_name(name)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 < seat <= MAX_ID:
            raise CroupierError(f"a seat is a whole number from 1, not {seat!r}")
        with self._write(f"cannot seat {name}") as db:
            if guard is not None:
                guard(db)
            open_session(db, number)
            record_sit(db, number, name, seat, policy, account)
            if buy_in is not None:
                ledger_entry(db, number, name, "buy-in", buy_in)

    def seating(self, session: SessionRef) -> dict[str, tuple[int, str | None]]:
        """Where each player of a session last sat, and the bot playing him (None: a
        person), by name (a server restarting a table seats them again).

        >>> store = Store.open("sqlite:///:memory:")
        >>> session = store.start_session(TableRules())
        >>> store.sit(session, "ann", 3); store.sit(session, "bot-1", 1, "random")
        >>> store.seating(session)
        {'ann': (3, None), 'bot-1': (1, 'random')}
        """
        number = session_id(session)
        with self._read() as db:
            rows = db.execute(
                select(PlayerRow.name, SeatRow.seat, SeatRow.policy)
                .join(PlayerRow, PlayerRow.id == SeatRow.player_id)
                .where(SeatRow.session_id == number)
                .order_by(SeatRow.id)
            )
            return {name: (seat, policy) for name, seat, policy in rows}

    def accounts(self, session: SessionRef) -> dict[str, int]:
        """The card-room accounts of the session's players who are bound to one, by name
        (a restarted server gives each his seat back by his account).

        >>> store = Store.open("sqlite:///:memory:")
        >>> session = store.start_session(TableRules())
        >>> store.sit(session, "ann", 3, account=7); store.sit(session, "bot-1", 1, "random")
        >>> store.accounts(session)
        {'ann': 7}
        """
        number = session_id(session)
        with self._read() as db:
            rows = db.execute(
                select(PlayerRow.name, PlayerRow.account_id)
                .join(SeatRow, SeatRow.player_id == PlayerRow.id)
                .where(SeatRow.session_id == number, PlayerRow.account_id.is_not(None))
                .distinct()
            )
            return {name: account for name, account in rows if account is not None}

    # ----------------------------------------------------------------- ledger
    def balances(self, session: SessionRef) -> dict[str, int]:
        """Each player's chips at the table now, from the ledger and the hands, by name."""
        number = session_id(session)
        with self._read() as db:
            return dict(sorted(chip_balances(db, number).items()))

    def _ledger(
        self,
        session: SessionRef,
        name: str,
        kind: str,
        amount: int | None,
        guard: Callable[[Session], object] | None,
    ) -> int:
        number, name = session_id(session), player_name(name)
        with self._write(f"cannot record the {kind} of {name}") as db:
            if guard is not None:
                guard(db)
            open_session(db, number)
            return ledger_entry(db, number, name, kind, amount)

    def buy_in(
        self,
        session: SessionRef,
        name: str,
        amount: int,
        *,
        guard: Callable[[Session], object] | None = None,
    ) -> None:
        """Record ``name`` buying ``amount`` chips at the table (between hands). ``guard``
        runs first in the transaction: if it raises (a server's table lease is gone),
        nothing is written.

        >>> store = Store.open("sqlite:///:memory:")
        >>> session = store.start_session(TableRules())
        >>> def lost(db): raise CroupierError("the lease is gone")
        >>> store.buy_in(session, "ann", 100, guard=lost)
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: the lease is gone
        >>> store.balances(session)
        {}
        """
        self._ledger(session, name, "buy-in", amount, guard)

    def cash_out(
        self,
        session: SessionRef,
        name: str,
        amount: int | None = None,
        *,
        guard: Callable[[Session], object] | None = None,
    ) -> int:
        """Record ``name`` taking ``amount`` chips (None: all of them) from the table;
        return the chips cashed out. ``guard`` as for :meth:`buy_in`."""
        return self._ledger(session, name, "cash-out", amount, guard)

    # ------------------------------------------------------------------ hands
    def record_poker_hand(
        self,
        session: SessionRef,
        hand: HandState,
        commitment: DeckCommitment,
        reveal: DeckReveal,
        players: Mapping[int, str],
        *,
        then: Callable[[Session], object] | None = None,
    ) -> int:
        """Record a finished poker hand with the commitment shown before its first card and
        its reveal; ``players`` names the player in each seat. Returns the hand's id.
        ``then`` runs inside the same transaction (the server deletes the hand's journal).

        The deal is checked against the commitment before anything is written
        (:func:`~croupier.fairness.verify_logged_deal`).
        """
        number = session_id(session)
        if not isinstance(hand, HandState):
            raise CroupierError(f"not a poker hand: {hand!r}")
        if not hand.is_complete:
            raise StoreError("only a finished hand is recorded")
        events = list(hand.events)
        started = events[0]
        assert isinstance(started, pk.HandStarted)
        names = {seat: player_name(players.get(seat)) for seat in started.seats}
        if len(set(names.values())) != len(names):
            raise StoreError("two seats of one hand name the same player")
        verify_logged_deal(commitment, reveal, events, deck=game_deck(hand.rules))
        end = hand.stacks
        results = [
            (names[seat], seat, start, end[seat])
            for seat, start in zip(started.seats, started.stacks, strict=True)
        ]
        movements = poker_movements(events)
        logged = events_to_json(events)  # before the write lock
        ids = self._known_ids(names.values())
        with self._write(f"hand not recorded in session {number}") as db:
            if ids is None:
                ids = player_ids(db, names.values())
            hand_id = add_hand(  # first: it refuses a session not there or ended
                db, number, hand.rules, events, commitment, reveal, results, movements,
                dict(names.items()), ids=ids, events_json=logged,
            )  # fmt: skip
            seats_once(db, number, {name: seat for seat, name in names.items()}, ids)
            if then is not None:
                then(db)
        self._player_ids.update(ids)  # committed: a player's id never changes
        return hand_id

    def _known_ids(self, names: Iterable[str]) -> dict[str, int] | None:
        """The ids of the players ``names`` if a committed write gave them all (None: ask
        the database; a player's row and id, once committed, never change)."""
        known = self._player_ids
        try:
            return {name: known[name] for name in names}
        except KeyError:
            return None

    def record_blackjack_round(
        self,
        session: SessionRef,
        rnd: BlackjackRound,
        shoe: ShoeDeal,
        *,
        shoe_finished: bool,
        then: Callable[[Session], object] | None = None,
    ) -> int:
        """Record a settled blackjack round dealt from ``shoe``; with ``shoe_finished`` (the
        cut card came out: the shoe is reshuffled before the next round) the shoe's order
        is revealed with it. Returns the round's id. ``then`` runs inside the same
        transaction (the server deletes the round's journal)."""
        number = session_id(session)
        if not isinstance(rnd, BlackjackRound):
            raise CroupierError(f"not a blackjack round: {rnd!r}")
        if not rnd.is_complete:
            raise StoreError("only a settled round is recorded")
        events = list(rnd.events)
        started = events[0]
        assert isinstance(started, bj.RoundStarted)
        offset = len(shoe.reveal.order) - len(started.shoe)
        verify_logged_deal(
            shoe.commitment, shoe.reveal, events, start=offset, deck=game_deck(rnd.rules)
        )
        boxes = _Boxes().visit_all(events)
        end = dict(rnd.bankrolls)
        results = [
            (player_name(name), boxes.get(name, 0), start, end[name])
            for name, start in started.bankrolls
        ]
        movements = blackjack_movements(events)
        with self._write(f"round not recorded in session {number}") as db:
            shoe_row = db.scalars(
                select(ShoeRow).where(ShoeRow.session_id == number, ShoeRow.number == shoe.number)
            ).first()
            if shoe_row is None:
                shoe_row = ShoeRow(
                    session_id=number,
                    number=shoe.number,
                    commitment=shoe.commitment.digest,
                    deck_order=shoe.reveal.order_text,
                    salt=shoe.reveal.salt_hex,
                    revealed=False,
                )
                db.add(shoe_row)
                db.flush()
            elif shoe_row.commitment != shoe.commitment.digest:
                raise StoreError(f"shoe {shoe.number} of session {number} has another commitment")
            boxed = {name: box for name, box, *_ in results if box}
            seats_once(db, number, boxed, player_ids(db, boxed))
            hand_id = add_hand(
                db, number, rnd.rules, events, shoe.commitment, None, results, movements,
                {name: name for name, *_ in results}, (shoe_row.id, offset),
            )  # fmt: skip
            if shoe_finished:
                shoe_row.revealed = True
            if then is not None:
                then(db)
            return hand_id

    # ---------------------------------------------------------------- reading
    def hands(
        self, session: SessionRef | None = None, *, limit: int | None = None
    ) -> list[HandSummary]:
        """Stored hands, oldest first (of one session, or all; the last ``limit``)."""
        with self._read() as db:
            query = select(HandRow).order_by(HandRow.id.desc())
            if session is not None:
                query = query.where(HandRow.session_id == session_id(session))
            if limit is not None:
                query = query.limit(max(0, min(limit, MAX_ID)))
            rows = list(db.scalars(query))[::-1]
            return [hand_summary(db, row) for row in rows]

    def hand(self, hand_id: int) -> StoredHand:
        """One stored hand in full (a row that cannot be read raises
        :class:`~croupier.store.errors.StoreCorruptError`)."""
        if isinstance(hand_id, bool) or not isinstance(hand_id, int):
            raise CroupierError(f"a hand id is a whole number, not {hand_id!r}")
        with self._read() as db:
            row = db.get(HandRow, hand_id) if 0 < hand_id <= MAX_ID else None
            if row is None:
                raise StoreError(f"no hand {hand_id} in the store")
            summary = hand_summary(db, row)
            rules = rules_from_json(row.game_kind, row.rules_json, row.rules_fingerprint)
            events = tuple(events_from_json(row.game_kind, row.events_json))
            revealed, shoe_number = True, None
            order, salt = row.deck_order, row.salt
            if row.shoe_id is not None:
                shoe = db.get(ShoeRow, row.shoe_id)
                assert shoe is not None
                order, salt, revealed, shoe_number = (
                    shoe.deck_order, shoe.salt, shoe.revealed, shoe.number
                )  # fmt: skip
            try:
                reveal = DeckReveal.parse(order or "", salt or "")
                commitment = DeckCommitment(row.commitment)
            except CroupierError as error:
                raise StoreCorruptError(f"hands row {row.id}: {error}") from None
            return StoredHand(
                summary,
                rules,
                row.engine_version,
                row.seeded,
                events,
                commitment,
                reveal,
                revealed,
                shoe_number,
                row.shoe_offset or 0,
                tuple((seat, name) for name, seat, _net in summary.results),
            )

    def verify(self, session: SessionRef | None = None) -> VerifyReport:
        """Check every stored hand and the ledger, or one session's (see
        :mod:`croupier.store.verify`)."""
        from croupier.store.verify import verify_store

        return verify_store(self, None if session is None else session_id(session))

    def count(self, table: type[Any]) -> int:
        """Rows in one of the store's tables (for reports and tests).

        >>> from croupier.store.schema import HandRow
        >>> Store.open("sqlite:///:memory:").count(HandRow)
        0
        """
        with self._read() as db:
            return int(db.scalar(select(func.count()).select_from(table)) or 0)


class _Boxes(EventVisitor[dict[str, int]]):
    """The box each player of a blackjack round wagered on first (his seat in the results)."""

    consumer = "the store's round recorder"
    reads = (bj,)
    ignores = (
        bj.BoxAction,
        bj.CardBurned,
        bj.CardDealt,
        bj.DealerCard,
        bj.HandSettled,
        bj.HiddenCard,
        bj.InsuranceDecided,
        bj.InsuranceSettled,
        bj.DealEnded,
        bj.RoundStarted,
    )

    def __init__(self) -> None:
        self.boxes: dict[str, int] = {}

    @visits(bj.WagerPlaced)
    def on_wager(self, event: bj.WagerPlaced) -> None:
        self.boxes.setdefault(event.player, event.box)

    def result(self) -> dict[str, int]:
        return self.boxes
