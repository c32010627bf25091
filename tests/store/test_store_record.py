"""Recording hands and rounds: what goes in comes back and replays, the books balance, and a
hand is written whole or not at all (on SQLite and on PostgreSQL)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from croupier.blackjack import NZ
from croupier.blackjack.policies import mimic_the_dealer
from croupier.blackjack.table import BlackjackTable
from croupier.cards import Deck
from croupier.fairness import DealVerificationError, commit_deck
from croupier.poker import GAMES, FixedLimit, HandState, NoLimit, Table, TableRules
from croupier.poker.policies import POLICIES
from croupier.store import (
    SessionInfo,
    ShoeDeal,
    Store,
    StoreError,
    play_and_record,
    play_and_record_blackjack,
)
from croupier.store.record import play_committed_hand
from croupier.store.schema import ChipMovementRow, HandRow, LedgerRow, ResultRow, SeatRow, ShoeRow

PROPERTY = settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def rules_for(game: str) -> TableRules:
    spec = GAMES[game]
    if spec.forced.value == "blinds":
        return TableRules(spec, NoLimit(), blinds=(5, 10), table_minimum=10)
    return TableRules(spec, FixedLimit(10, 20), blinds=(), ante=2, bring_in=5, table_minimum=5)


def record_by_hand(
    store: Store, rules: TableRules, hands: int, seed: int, players: int = 3
) -> tuple[SessionInfo, list[HandState], list[int]]:
    """Play and record hands one by one, keeping the engine's own hands to compare with."""
    table = Table(rules, players, seed=seed)
    session = store.start_session(rules, seed=seed)
    bots = {}
    for seat in range(1, players + 1):
        name = f"p{seat}"
        table.sit(name, seat, 300)
        store.buy_in(session, name, 300)
        bots[name] = POLICIES["random"](random.Random(seed + seat))
    played, ids = [], []
    for _ in range(hands):
        if not table.can_start_hand():
            break
        hand, commitment, reveal = play_committed_hand(table, bots, salts=random.Random(seed))
        seats = {s: p.name for s, p in table.seats.items()}
        ids.append(store.record_poker_hand(session, hand, commitment, reveal, seats))
        played.append(hand)
    return session, played, ids


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_comes_back_and_replays(store: Store, game: str) -> None:
    rules = rules_for(game)
    players = min(4, GAMES[game].max_players)
    session, played, ids = record_by_hand(store, rules, 4, seed=len(game), players=players)
    assert [h.number for h in store.hands(session)] == list(range(1, len(ids) + 1))
    for hand, hand_id in zip(played, ids, strict=True):
        stored = store.hand(hand_id)
        assert stored.events == tuple(hand.events)
        assert stored.rules == rules
        assert stored.replay().snapshot() == hand.snapshot()
        nets = {seat: net for _name, seat, net in stored.summary.results}
        assert nets == hand.payoffs()
    report = store.verify(session)
    assert report.ok, [p.describe() for p in report.problems]


@PROPERTY
@given(
    seed=st.integers(0, 10**6),
    game=st.sampled_from(sorted(GAMES)),
    players=st.integers(2, 5),
    hands=st.integers(1, 6),
)
def test_stored_hands_replay_to_the_hands_played(
    store: Store, seed: int, game: str, players: int, hands: int
) -> None:
    players = min(players, GAMES[game].max_players)
    session, played, ids = record_by_hand(store, rules_for(game), hands, seed, players)
    assert store.verify(session).ok
    for hand, hand_id in zip(played, ids, strict=True):
        replayed = store.hand(hand_id).replay()
        assert replayed.snapshot() == hand.snapshot()


@PROPERTY
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    hands=st.integers(0, 25),
    rebuy=st.booleans(),
    rake=st.booleans(),
)
def test_chips_are_conserved_across_the_ledger(
    store: Store, seed: int, players: int, hands: int, rebuy: bool, rake: bool
) -> None:
    from fractions import Fraction

    from croupier.poker.settings import Rake

    house_rake = Rake(Fraction(1, 20), cap=3, no_flop_no_drop=False) if rake else Rake()
    rules = TableRules(blinds=(5, 10), table_minimum=10, rake=house_rake)
    done = play_and_record(store, rules, hands=hands, players=players, buy_in=60,
                           seed=seed, rebuy=rebuy)  # fmt: skip
    report = store.verify(done.session)
    assert report.ok, [p.describe() for p in report.problems]
    chips = report.chips
    assert chips["bought_in"] - chips["cashed_out"] == chips["house"]  # nothing else is lost
    assert chips["on_table"] == 0
    assert set(store.balances(done.session).values()) <= {0}
    assert (chips["house"] > 0) <= rake


def test_a_blackjack_session_keeps_its_shoes_and_reveals_them(store: Store) -> None:
    rules = NZ.with_(decks=4)
    lines: list[str] = []
    done = play_and_record_blackjack(store, rules, rounds=30, seed=8, echo=lines.append)
    shoes = [line for line in lines if line.startswith("shoe ")]
    assert len(shoes) >= 2  # the cut card came out at least once
    hands = [store.hand(i) for i in done.hands]
    assert {h.shoe for h in hands} == set(range(1, len(shoes) + 1))
    assert all(h.revealed for h in hands)  # the session is over: every shoe revealed
    first = [h for h in hands if h.shoe == 1]
    assert first[0].offset == 0
    assert first[1].offset > first[0].offset
    assert store.count(ShoeRow) == len(shoes)
    report = store.verify()
    assert report.ok, [p.describe() for p in report.problems]
    assert report.chips["bought_in"] - report.chips["cashed_out"] == report.chips["house"]


def test_a_shoe_in_play_is_not_revealed_until_its_last_round(store: Store) -> None:
    table = BlackjackTable(NZ, seed=2)
    session = store.start_session(NZ, seed=2)
    store.buy_in(session, "ann", 100)
    chips = {"ann": 100}
    shoe: ShoeDeal | None = None
    ids = []
    for _ in range(2):
        rnd = table.new_round(chips)
        if shoe is None:
            shoe = ShoeDeal(1, *commit_deck(rnd.shoe.remaining))
        rnd.place_wager(1, "ann", 10)
        rnd.deal()
        while not rnd.is_complete:
            rnd.apply(mimic_the_dealer(rnd.view_for("ann")))
        chips = dict(rnd.bankrolls)
        ids.append(store.record_blackjack_round(session, rnd, shoe, shoe_finished=False))
    assert [store.hand(i).revealed for i in ids] == [False, False]
    assert store.hand(ids[1]).offset > 0
    store.cash_out(session, "ann")
    store.end_session(session)
    assert [store.hand(i).revealed for i in ids] == [True, True]
    assert store.verify().ok


def test_a_bad_hand_is_refused_and_nothing_is_written(store: Store) -> None:
    rules = TableRules()
    session = store.start_session(rules)
    store.buy_in(session, "ann", 100)
    store.buy_in(session, "bo", 100)
    deck = Deck.standard(seed=1)
    commitment, reveal = commit_deck(deck.remaining)
    unfinished = HandState(rules, {1: 100, 2: 100}, button=1, deck=deck)
    with pytest.raises(StoreError, match="only a finished hand"):
        store.record_poker_hand(session, unfinished, commitment, reveal, {1: "ann", 2: "bo"})
    unfinished.fold()
    other, other_reveal = commit_deck(Deck.standard(seed=2).remaining)
    with pytest.raises(DealVerificationError):
        store.record_poker_hand(session, unfinished, other, other_reveal, {1: "ann", 2: "bo"})
    with pytest.raises(StoreError, match="the same player"):
        store.record_poker_hand(session, unfinished, commitment, reveal, {1: "ann", 2: "ann"})
    with pytest.raises(StoreError, match="the ledger gives 0"):
        store.record_poker_hand(session, unfinished, commitment, reveal, {1: "ann", 2: "cy"})
    other_session = store.start_session(TableRules(ante=1))
    with pytest.raises(StoreError, match="not played under session"):
        store.record_poker_hand(other_session, unfinished, commitment, reveal, {1: "ann", 2: "bo"})
    assert store.count(HandRow) == store.count(ResultRow) == 0
    assert store.record_poker_hand(session, unfinished, commitment, reveal, {1: "ann", 2: "bo"})
    with pytest.raises(StoreError, match="cannot cash out 500"):
        store.cash_out(session, "ann", 500)
    with pytest.raises(StoreError, match="still has chips on the table"):
        store.end_session(session)
    assert store.cash_out(session, "ann") == 105
    store.cash_out(session, "bo")
    store.end_session(session)
    with pytest.raises(StoreError, match="has ended"):
        store.buy_in(session, "ann", 10)
    with pytest.raises(StoreError, match="has ended"):  # the players' ids are known now
        store.record_poker_hand(session, unfinished, commitment, reveal, {1: "ann", 2: "bo"})
    with pytest.raises(StoreError, match="no session 999"):
        store.record_poker_hand(999, unfinished, commitment, reveal, {1: "ann", 2: "bo"})
    assert store.count(HandRow) == 1
    assert store.verify().ok


def _refuse_awards(store: Store) -> None:
    """A database trigger that fails the insert of a pot award: a real failure half way
    through the hand's transaction."""
    with store.engine.begin() as conn:
        if store.engine.dialect.name == "sqlite":
            conn.execute(text(
                "CREATE TRIGGER no_awards BEFORE INSERT ON chip_movements "
                "WHEN NEW.kind = 'award' BEGIN SELECT RAISE(ABORT, 'awards refused'); END"
            ))  # fmt: skip
        else:
            conn.execute(text(
                "CREATE FUNCTION refuse_awards() RETURNS trigger AS $$ BEGIN "
                "IF NEW.kind = 'award' THEN RAISE EXCEPTION 'awards refused'; END IF; "
                "RETURN NEW; END $$ LANGUAGE plpgsql"
            ))  # fmt: skip
            conn.execute(text(
                "CREATE TRIGGER no_awards BEFORE INSERT ON chip_movements "
                "FOR EACH ROW EXECUTE FUNCTION refuse_awards()"
            ))  # fmt: skip


def test_a_failure_half_way_through_a_hand_writes_none_of_it(store: Store) -> None:
    rules = TableRules()
    table = Table(rules, 3, seed=4)
    session = store.start_session(rules)
    bots = {}
    for seat, name in enumerate(("ann", "bo", "cy"), start=1):
        table.sit(name, seat, 200)
        store.buy_in(session, name, 200)
        bots[name] = POLICIES["calling-station"](random.Random(seat))
    hand, commitment, reveal = play_committed_hand(table, bots)
    seats = {s: p.name for s, p in table.seats.items()}
    before = {t: store.count(t) for t in (HandRow, ResultRow, ChipMovementRow, SeatRow)}
    _refuse_awards(store)
    with pytest.raises(StoreError, match="awards refused") as caught:
        store.record_poker_hand(session, hand, commitment, reveal, seats)
    assert "\n" not in str(caught.value)
    assert {t: store.count(t) for t in before} == before
    with store.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER no_awards" + ("" if store.engine.dialect.name ==
                                                      "sqlite" else " ON chip_movements")))  # fmt: skip
    store.record_poker_hand(session, hand, commitment, reveal, seats)
    assert store.count(HandRow) == 1
    assert store.verify().ok


def test_sessions_seats_and_the_ledger_are_kept(store: Store) -> None:
    done = play_and_record(store, TableRules(), hands=3, players=["ann", "bo"], seed=2,
                           policy="calling-station", label="nightly")  # fmt: skip
    info = store.session(done.session.id)
    assert (info.label, info.seeded, info.seed, info.ended_at is not None) == (
        "nightly",
        True,
        2,
        True,
    )
    assert store.sessions() == [info]
    assert store.count(SeatRow) == 2
    assert store.count(LedgerRow) == 4
    with store.engine.connect() as conn:
        policies = set(conn.execute(text("SELECT policy FROM seats")).scalars())
    assert policies == {"calling-station"}
    assert len(store.hands(limit=2)) == 2
    assert store.hands(limit=2)[-1].number == 3
    unseeded = play_and_record(store, TableRules(), hands=1)
    assert store.session(unseeded.session.id).seeded is False


def test_a_record_that_fails_late_keeps_no_player_id_and_the_next_one_reads_them_right(
    store: Store,
) -> None:
    """A record keeps the players' ids only once it committed: one that fails in its
    last step (the server's ``then``) writes nothing and keeps nothing, and the next
    keeps the ids the database holds."""
    rules = TableRules()
    session = store.start_session(rules)
    store.buy_in(session, "ann", 100)
    store.buy_in(session, "bo", 100)
    deck = Deck.standard(seed=3)
    commitment, reveal = commit_deck(deck.remaining)
    hand = HandState(rules, {1: 100, 2: 100}, button=1, deck=deck)
    hand.fold()
    seats = {1: "ann", 2: "bo"}

    def broken(_db: object) -> None:
        raise StoreError("the journal could not be closed")

    with pytest.raises(StoreError, match="could not be closed"):
        store.record_poker_hand(session, hand, commitment, reveal, seats, then=broken)
    assert store.count(HandRow) == 0
    assert store._player_ids == {}
    assert store.record_poker_hand(session, hand, commitment, reveal, seats)
    with store.engine.connect() as connection:
        held: dict[str, int] = dict(connection.execute(text("SELECT name, id FROM players")).all())
    assert store._player_ids == held
    assert store.verify().ok
