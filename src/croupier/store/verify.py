"""``history verify``: replay every stored hand, check its deal and the books.

For each hand or round: the rules JSON must give the recorded fingerprint; the event log
must replay through the referee (:meth:`HandState.replay
<croupier.poker.state.HandState.replay>`, :meth:`BlackjackRound.replay
<croupier.blackjack.round.BlackjackRound.replay>`) to exactly the stored log, finished;
the results rows must be its starting and final stacks; the chip movements those the log
makes; the house's take its rake or bank result; and the revealed order and salt must hash
to the commitment, with every card taken from the deck where that order puts it
(:func:`croupier.fairness.verify_logged_deal`).

For each session: hand numbers run 1, 2, 3… with none missing; every player's chips,
followed from buy-in through each hand to cash-out, are what each hand says he started
with, never below zero, and nothing is left on the table of an ended session; each ledger
row has its one chip movement; a shoe's rounds follow each other through the shoe.

Each problem names the table and the row id that is wrong.

>>> from croupier.store import Store
>>> report = Store.open("sqlite:///:memory:").verify()
>>> report.ok, report.describe()
(True, '0 sessions, 0 hands, 0 ledger entries: all verified')
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.blackjack import events as bj
from croupier.blackjack.round import BlackjackRound
from croupier.errors import CroupierError
from croupier.fairness import (
    DeckCommitment,
    DeckReveal,
    dealt_cards,
    verify_logged_deal,
)
from croupier.poker import events as pk
from croupier.poker.state import HandState
from croupier.store.connect import store_errors
from croupier.store.movements import Movement, blackjack_movements, poker_movements
from croupier.store.schema import (
    ChipMovementRow,
    HandRow,
    LedgerRow,
    PlayerRow,
    ResultRow,
    SessionRow,
    ShoeRow,
)
from croupier.store.serial import events_from_json, rules_from_json
from croupier.visitor import EventVisitor, visits

if TYPE_CHECKING:
    from croupier.store.store import Store

__all__ = ["Problem", "VerifyReport", "verify_store"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong in the store: the table, the row's id, and what is wrong.

    >>> Problem("results", 12, "end 90 is not the replay's final stack 95").describe()
    "results row 12: end 90 is not the replay's final stack 95"
    """

    table: str
    row_id: int
    message: str

    def describe(self) -> str:
        """One line."""
        return f"{self.table} row {self.row_id}: {self.message}"


@dataclass(frozen=True)
class VerifyReport:
    """What :func:`verify_store` checked and every problem found (``ok``: none).

    >>> VerifyReport(1, 2, 3, (Problem("hands", 2, "x"),)).describe()
    '1 session, 2 hands, 3 ledger entries: 1 problem'
    """

    sessions: int
    hands: int
    ledger_entries: int
    problems: tuple[Problem, ...] = ()
    chips: dict[str, int] = field(default_factory=dict)
    """Session totals: bought in, cashed out, house (rake and bank), on the table."""

    @property
    def ok(self) -> bool:
        """Whether nothing is wrong."""
        return not self.problems

    def describe(self) -> str:
        """One line."""

        def count(n: int, word: str) -> str:
            return f"{n} {word}" + ("" if n == 1 else "s")

        head = ", ".join(
            (
                count(self.sessions, "session"),
                count(self.hands, "hand"),
                f"{self.ledger_entries} ledger entr{'y' if self.ledger_entries == 1 else 'ies'}",
            )
        )
        if self.ok:
            return f"{head}: all verified"
        return f"{head}: {count(len(self.problems), 'problem')}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "ok": self.ok,
            "sessions": self.sessions,
            "hands": self.hands,
            "ledger_entries": self.ledger_entries,
            "chips": dict(self.chips),
            "problems": [
                {"table": p.table, "id": p.row_id, "message": p.message} for p in self.problems
            ],
        }


@dataclass(frozen=True)
class _Edge:
    """What the verifier reads from the event that opens or ends a hand or round."""

    game: str
    """``"poker"`` or ``"blackjack"``."""
    opens: bool
    """Whether the event opens the hand (else it ends it)."""
    chips: dict[Any, int]
    """Each seat's stack (poker) or player's bankroll (blackjack) at that point."""
    rules_version: str = ""
    engine_version: str = ""


class _Edges(EventVisitor["_Edge | None"]):
    """The verifier's reading of a log's first and last events: the one that opens the
    hand or round, the one that ends it, or (None) neither."""

    consumer = "the store's verifier"
    reads = (pk, bj)
    ignores = (
        pk.AntePosted,
        pk.BetReturned,
        pk.BetsCollected,
        pk.BlindPosted,
        pk.BringIn,
        pk.Called,
        pk.CardBoxed,
        pk.CardBurned,
        pk.CardsDealt,
        pk.Checked,
        pk.CommunityDealt,
        pk.Conceded,
        pk.DeckCut,
        pk.Discarded,
        pk.Folded,
        pk.HandMucked,
        pk.HandShown,
        pk.HiddenCards,
        pk.PotAwarded,
        pk.RaisedTo,
        pk.RakeTaken,
        pk.ShowRequested,
        pk.StubRestocked,
        bj.BoxAction,
        bj.CardBurned,
        bj.CardDealt,
        bj.DealerCard,
        bj.HandSettled,
        bj.HiddenCard,
        bj.InsuranceDecided,
        bj.InsuranceSettled,
        bj.WagerPlaced,
    )

    def __init__(self) -> None:
        self.edge: _Edge | None = None

    @visits(pk.HandStarted)
    def on_hand_started(self, event: pk.HandStarted) -> None:
        chips = dict(zip(event.seats, event.stacks, strict=True))
        self.edge = _Edge("poker", True, chips, event.rules_version, event.engine_version)

    @visits(bj.RoundStarted)
    def on_round_started(self, event: bj.RoundStarted) -> None:
        chips = dict(event.bankrolls)
        self.edge = _Edge("blackjack", True, chips, event.rules_version, event.engine_version)

    @visits(pk.DealEnded)
    def on_hand_ended(self, event: pk.DealEnded) -> None:
        self.edge = _Edge("poker", False, dict(event.stacks))

    @visits(bj.DealEnded)
    def on_round_settled(self, event: bj.DealEnded) -> None:
        self.edge = _Edge("blackjack", False, dict(event.bankrolls))

    def result(self) -> _Edge | None:
        return self.edge


def _edge(event: object) -> _Edge | None:
    """The verifier's reading of one event: an opening, an ending, or (None) neither."""
    return _Edges().visit_all((event,))


class _Checker:
    """Collects problems while the store is read."""

    def __init__(self, db: Session) -> None:
        self.db = db
        self.problems: list[Problem] = []
        self.names = {p.id: p.name for p in db.scalars(select(PlayerRow))}
        self.chips = {"bought_in": 0, "cashed_out": 0, "house": 0, "on_table": 0}

    def problem(self, table: str, row_id: int, message: str) -> None:
        self.problems.append(Problem(table, row_id, message))

    # ------------------------------------------------------------------ hands
    def hand(self, row: HandRow, session: SessionRow, shoes: dict[int, ShoeRow]) -> int:
        """Check one hand; return the cards it took from its deck (-1: unreadable)."""
        if row.game_kind != session.game_kind or row.game != session.game:
            self.problem("hands", row.id, f"a {row.game} hand in a {session.game} session")
        try:
            rules = rules_from_json(row.game_kind, row.rules_json, row.rules_fingerprint)
            events = events_from_json(row.game_kind, row.events_json)
        except CroupierError as error:
            self.problem("hands", row.id, str(error))
            return -1
        if rules.fingerprint != session.rules_fingerprint:
            self.problem("hands", row.id, "played under rules other than its session's")
        first = _edge(events[0]) if events else None
        if first is None or not first.opens:
            self.problem("hands", row.id, "the event log does not open the hand")
            return -1
        if first.rules_version != row.rules_fingerprint:
            self.problem("hands", row.id, "the log's rules version is not the recorded fingerprint")
        if first.engine_version != row.engine_version:
            self.problem("hands", row.id, "the log's engine version is not the recorded one")
        try:
            replayed: HandState | BlackjackRound
            if row.game_kind == "poker":
                replayed = HandState.replay(rules, events)  # type: ignore[arg-type]
            else:
                replayed = BlackjackRound.replay(rules, events)  # type: ignore[arg-type]
        except CroupierError as error:
            self.problem("hands", row.id, f"the log does not replay: {error}")
            return -1
        if not replayed.is_complete or list(replayed.events) != events:
            self.problem("hands", row.id, "the log stops before the hand is over")
            return -1
        self._results(row, events)
        self._movements(row, events)
        self._deal(row, events, rules, shoes)
        return len(dealt_cards(events).cards)

    def _results(self, row: HandRow, events: list[Any]) -> None:
        first, last = _edge(events[0]), _edge(events[-1])
        if (
            first is None
            or last is None
            or not first.opens
            or last.opens
            or first.game != last.game
        ):
            self.problem("hands", row.id, "the log does not end the hand")
            return
        start, end = first.chips, last.chips
        rows = list(self.db.scalars(select(ResultRow).where(ResultRow.hand_id == row.id)))
        seen: set[Any] = set()
        for result in rows:
            name = self.names.get(result.player_id, "?")
            key: Any = result.seat if row.game_kind == "poker" else name
            if key not in start or key in seen:
                self.problem("results", result.id, f"{name} did not play this hand")
                continue
            seen.add(key)
            if (result.start, result.end) != (start[key], end[key]):
                self.problem(
                    "results",
                    result.id,
                    f"{name}'s stack {result.start} -> {result.end} is not the replay's "
                    f"{start[key]} -> {end[key]}",
                )
            elif result.net != result.end - result.start:
                self.problem("results", result.id, f"net {result.net} is not end - start")
        for key in sorted(set(start) - seen, key=str):
            self.problem("hands", row.id, f"no result for {key!r}")

    def _movements(self, row: HandRow, events: list[Any]) -> None:
        try:
            expected: list[Movement] = (
                poker_movements(events) if row.game_kind == "poker" else blackjack_movements(events)
            )
        except CroupierError as error:
            self.problem("hands", row.id, str(error))
            return
        results = self.db.execute(
            select(ResultRow.seat, ResultRow.player_id).where(ResultRow.hand_id == row.id)
        )
        ids: dict[Any, int] = {}
        for seat, player in results:
            ids[seat if row.game_kind == "poker" else self.names.get(player)] = player
        stored = list(
            self.db.scalars(
                select(ChipMovementRow)
                .where(ChipMovementRow.hand_id == row.id)
                .order_by(ChipMovementRow.seq, ChipMovementRow.id)
            )
        )
        for index, (movement, want) in enumerate(zip(stored, expected, strict=False)):
            owner = None if want.holder is None else ids.get(want.holder)
            got = (movement.seq, movement.player_id, movement.kind, movement.amount)
            if got != (index, owner, want.kind, want.amount):
                self.problem(
                    "chip_movements",
                    movement.id,
                    f"is {movement.kind} {movement.amount}; the log moves {want.kind} "
                    f"{want.amount} there",
                )
        if len(stored) != len(expected):
            self.problem(
                "hands",
                row.id,
                f"{len(stored)} chip movements stored; the log makes {len(expected)}",
            )
        house = sum(m.amount for m in expected if m.holder is None)
        if row.house != house:
            self.problem("hands", row.id, f"house take {row.house}; the log gives {house}")
        self.chips["house"] += house

    def _deal(self, row: HandRow, events: list[Any], rules: Any, shoes: dict[int, ShoeRow]) -> None:
        from croupier.store.store import game_deck

        offset = row.shoe_offset or 0
        if row.shoe_id is not None:
            shoe = shoes.get(row.shoe_id)
            if shoe is None:
                self.problem("hands", row.id, "its shoe is not in this session")
                return
            if shoe.commitment != row.commitment:
                self.problem("hands", row.id, "its commitment is not its shoe's")
            order: str | None = shoe.deck_order
            salt: str | None = shoe.salt
            table, key = "shoes", shoe.id
        else:
            order, salt, table, key = row.deck_order, row.salt, "hands", row.id
        try:
            reveal = DeckReveal.parse(order or "", salt or "")
            commitment = DeckCommitment(row.commitment)
            verify_logged_deal(commitment, reveal, events, start=offset, deck=game_deck(rules))
        except CroupierError as error:
            self.problem(table, key, f"the deal of hand {row.id} fails its commitment: {error}")

    # --------------------------------------------------------------- sessions
    def session(self, session: SessionRow) -> tuple[int, int]:
        db = self.db
        hands = list(
            db.scalars(
                select(HandRow).where(HandRow.session_id == session.id).order_by(HandRow.number)
            )
        )
        shoes = {
            s.id: s for s in db.scalars(select(ShoeRow).where(ShoeRow.session_id == session.id))
        }
        ledger = list(
            db.scalars(
                select(LedgerRow).where(LedgerRow.session_id == session.id).order_by(LedgerRow.id)
            )
        )
        for expected, row in enumerate(hands, start=1):
            if row.number != expected:
                self.problem(
                    "sessions", session.id, f"hand {expected} is missing (the next is {row.number})"
                )
                break
        taken: dict[int, int] = {}
        for row in hands:
            taken[row.id] = self.hand(row, session, shoes)
        self._shoes(hands, taken)
        self._books(session, hands, ledger)
        return len(hands), len(ledger)

    def _shoes(self, hands: Sequence[HandRow], taken: dict[int, int]) -> None:
        """A shoe's rounds follow each other: each starts where the last one stopped."""
        next_card: dict[int, int] = {}
        for row in hands:
            if row.shoe_id is None or taken.get(row.id, -1) < 0:
                continue
            offset = row.shoe_offset or 0
            expected = next_card.get(row.shoe_id, 0)
            if offset != expected:
                self.problem(
                    "hands", row.id, f"starts at card {offset + 1} of its shoe, not {expected + 1}"
                )
            next_card[row.shoe_id] = offset + taken[row.id]

    def _books(
        self, session: SessionRow, hands: Sequence[HandRow], ledger: Sequence[LedgerRow]
    ) -> None:
        db = self.db
        timeline: list[tuple[tuple[int, int, int], Any]] = [((r.number, 0, r.id), r) for r in hands]
        timeline += [((e.after_hand, 1, e.id), e) for e in ledger]
        timeline.sort(key=lambda item: item[0])
        movements = {
            m.ledger_id: m
            for m in db.scalars(
                select(ChipMovementRow).where(
                    ChipMovementRow.session_id == session.id, ChipMovementRow.ledger_id.is_not(None)
                )
            )
        }
        balance: dict[int, int] = defaultdict(int)
        for _key, item in timeline:
            if isinstance(item, LedgerRow):
                self._entry(item, balance, movements.pop(item.id, None))
                continue
            for result in db.scalars(select(ResultRow).where(ResultRow.hand_id == item.id)):
                name = self.names.get(result.player_id, "?")
                if result.start != balance[result.player_id]:
                    self.problem(
                        "results",
                        result.id,
                        f"{name} starts hand {item.number} with {result.start} chips; the "
                        f"ledger and the hands before give {balance[result.player_id]}",
                    )
                balance[result.player_id] = result.end
        for movement in movements.values():
            self.problem("chip_movements", movement.id, "names a ledger entry of another session")
        on_table = sum(balance.values())
        self.chips["on_table"] += on_table
        if session.ended_at is not None and on_table:
            left = ", ".join(
                f"{self.names.get(p, '?')} {c}" for p, c in sorted(balance.items()) if c
            )
            self.problem("sessions", session.id, f"ended with chips on the table: {left}")

    def _entry(
        self, entry: LedgerRow, balance: dict[int, int], movement: ChipMovementRow | None
    ) -> None:
        name = self.names.get(entry.player_id, "?")
        if entry.kind not in ("buy-in", "cash-out") or entry.amount < 0:
            self.problem(
                "ledger", entry.id, f"is not a buy-in or cash-out: {entry.kind} {entry.amount}"
            )
            return
        signed = entry.amount if entry.kind == "buy-in" else -entry.amount
        if entry.kind == "buy-in":
            self.chips["bought_in"] += entry.amount
        else:
            self.chips["cashed_out"] += entry.amount
        if balance[entry.player_id] + signed < 0:
            self.problem(
                "ledger",
                entry.id,
                f"{name} cashes out {entry.amount} with {balance[entry.player_id]} at the table",
            )
        balance[entry.player_id] += signed
        if movement is None:
            self.problem("ledger", entry.id, "has no chip movement")
        elif (movement.player_id, movement.kind, movement.amount) != (
            entry.player_id,
            entry.kind,
            signed,
        ):
            self.problem(
                "chip_movements",
                movement.id,
                f"is {movement.kind} {movement.amount}; its ledger entry {entry.id} is "
                f"{entry.kind} {entry.amount} for {name}",
            )


def _all(db: Session, session: int | None) -> Iterable[SessionRow]:
    query = select(SessionRow).order_by(SessionRow.id)
    if session is not None:
        query = query.where(SessionRow.id == session)
    return db.scalars(query)


def verify_store(store: Store, session: int | None = None) -> VerifyReport:
    """Check everything in ``store``, or one session of it (see the module docstring);
    never raises for a bad row: it is reported.

    >>> from croupier.store import Store, play_and_record
    >>> from croupier.poker import TableRules
    >>> store = Store.open("sqlite:///:memory:")
    >>> _ = play_and_record(store, TableRules(), hands=3, seed=1)
    >>> verify_store(store).describe()
    '1 session, 3 hands, 6 ledger entries: all verified'
    """
    with store_errors("cannot read the store"), Session(store.engine) as db:
        checker = _Checker(db)
        sessions = hands = entries = 0
        for row in _all(db, session):
            sessions += 1
            counted, ledger = checker.session(row)
            hands += counted
            entries += ledger
        return VerifyReport(sessions, hands, entries, tuple(checker.problems), dict(checker.chips))
