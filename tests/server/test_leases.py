"""Table leases on SQLite and a real PostgreSQL: taking, renewing, expiry and takeover
with a clock the test moves, the epoch as a fencing token, racing processes (threads and
a killed process), and a state machine for "at most one holder at any time"."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from sqlalchemy import Engine, Integer, MetaData, String, delete, select, text
from sqlalchemy import Table as SqlTable
from sqlalchemy.orm import Session

from croupier.poker import TableRules
from croupier.server.journal import Journal
from croupier.server.leases import (
    LEASE_TTL,
    LeaseLostError,
    LeaseRow,
    Leases,
    new_owner_id,
)
from croupier.server.tables import TableConfig, TableRunner
from croupier.store import Store, StoreError

T0 = datetime(2030, 1, 1, 12, tzinfo=UTC)
TTL = LEASE_TTL


class Clock:
    """The time the test says it is (shared by every process of a test)."""

    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, by: timedelta) -> None:
        self.now += by


@pytest.fixture
def engine(store: Store) -> Engine:
    """The store's engine, on SQLite (a file) and on PostgreSQL: as the server uses it."""
    return store.engine


@pytest.fixture
def clock() -> Clock:
    return Clock()


def leases_for(engine: Engine, clock: Callable[[], datetime], owner: str) -> Leases:
    return Leases(engine, owner, f"http://{owner}:8000", clock=clock)


# ---------------------------------------------------------------------- basics
def test_one_holder_and_the_lobby_sees_its_url(engine: Engine, clock: Clock) -> None:
    ann, bob = leases_for(engine, clock, "ann"), leases_for(engine, clock, "bob")
    assert ann.acquire("main")
    assert not bob.acquire("main")
    assert ann.acquire("main")  # ours already: extended, still epoch 1
    assert ann.epoch("main") == 1
    assert bob.acquire("side")
    holders = bob.holders()
    assert {t: (h.owner, h.url, h.epoch) for t, h in holders.items()} == {
        "main": ("ann", "http://ann:8000", 1),
        "side": ("bob", "http://bob:8000", 1),
    }
    assert holders["main"].expires_at == T0 + TTL
    assert holders["main"].acquired_at == T0
    assert ann.held() == {"main"}
    assert bob.held() == {"side"}


def test_renewal_keeps_a_lease_and_expiry_frees_it(engine: Engine, clock: Clock) -> None:
    ann, bob = leases_for(engine, clock, "ann"), leases_for(engine, clock, "bob")
    assert ann.acquire("main")
    for _ in range(5):  # renewed well inside the ttl: nobody can take it
        clock.advance(TTL * 0.9)
        assert ann.renew() == []
        assert not bob.acquire("main")
        assert ann.held() == {"main"}
    clock.advance(TTL - timedelta(microseconds=1))
    assert not bob.acquire("main")  # a microsecond short of expiry
    clock.advance(timedelta(microseconds=1))
    assert ann.held() == set()  # ann's own view: run out
    assert "main" not in bob.holders()
    assert "main" in bob.holders(include_expired=True)
    assert bob.expired(["main", "other"]) == ["main", "other"]
    assert bob.acquire("main")


def test_takeover_bumps_the_epoch_and_the_loser_hears_of_it(engine: Engine, clock: Clock) -> None:
    ann, bob = leases_for(engine, clock, "ann"), leases_for(engine, clock, "bob")
    assert ann.acquire("main")
    assert ann.acquire("side")
    stale = ann.epoch("main")
    clock.advance(TTL)  # ann stalled: no renewal
    assert bob.acquire("main")
    assert bob.epoch("main") == stale + 1
    assert bob.lease("main").acquired_at == clock.now
    assert ann.renew() == ["main"]  # side was not taken: renewed
    assert ann.held() == {"side"}
    with pytest.raises(LeaseLostError, match="held by 'bob' at epoch 2"):
        ann.verify_held("main", stale)
    with pytest.raises(LeaseLostError, match="not held"):
        ann.epoch("main")
    bob.verify_held("main", 2)
    with pytest.raises(LeaseLostError):
        bob.verify_held("main", 1)  # bob's own stale epoch would not do either
    clock.advance(TTL)  # and back to ann: a new epoch again
    assert ann.acquire("main")
    assert ann.epoch("main") == 3
    assert bob.renew() == ["main"]


def test_the_same_owner_keeps_its_epoch(engine: Engine, clock: Clock) -> None:
    ann = leases_for(engine, clock, "ann")
    assert ann.acquire("main")
    clock.advance(TTL * 5)  # expired, but nobody took it
    assert ann.held() == set()
    assert ann.renew() == []  # still ours in the database: renewed, no loss
    assert ann.held() == {"main"}
    assert ann.acquire("main")
    assert ann.epoch("main") == 1
    assert ann.lease("main").acquired_at == T0


def test_release_hands_a_table_over_at_once(engine: Engine, clock: Clock) -> None:
    ann, bob = leases_for(engine, clock, "ann"), leases_for(engine, clock, "bob")
    for table in ("a", "b", "c"):
        assert ann.acquire(table)
    ann.release("a")
    ann.release("nothing")  # not ours: nothing happens
    assert ann.held() == {"b", "c"}
    assert bob.acquire("a")
    assert bob.epoch("a") == 2
    ann.release_all()
    assert ann.held() == set()
    assert set(bob.holders()) == {"a"}
    assert bob.acquire("b")
    assert bob.acquire("c")
    assert bob.renew() == []
    bob.release("a")
    with Session(engine) as db:  # the rows (and their epochs) stay
        assert {r.table_name: r.epoch for r in db.scalars(select(LeaseRow))} == {
            "a": 2,
            "b": 2,
            "c": 2,
        }


def test_a_release_after_losing_the_lease_frees_nothing(engine: Engine, clock: Clock) -> None:
    ann, bob = leases_for(engine, clock, "ann"), leases_for(engine, clock, "bob")
    assert ann.acquire("main")
    clock.advance(TTL)
    assert bob.acquire("main")
    ann.release_all()  # ann has not renewed yet: its release must not free bob's lease
    assert bob.holders()["main"].owner == "bob"
    assert not leases_for(engine, clock, "cy").acquire("main")


def test_owner_ids_are_fresh_and_a_bad_ttl_is_refused(engine: Engine) -> None:
    assert new_owner_id() != new_owner_id()
    with pytest.raises(ValueError, match="positive"):
        Leases(engine, "p", "u", ttl=timedelta(0))


def test_the_database_clock_is_the_default(engine: Engine) -> None:
    leases = Leases(engine, "p", "http://p")
    before = leases.now()
    assert leases.acquire("main")
    info = leases.holders()["main"]
    assert before < info.expires_at <= leases.now() + LEASE_TTL
    assert leases.held() == {"main"}
    assert leases.renew() == []


# ---------------------------------------------------------------------- fencing
def _writes_table(engine: Engine) -> SqlTable:
    from sqlalchemy import Column

    metadata = MetaData()
    table = SqlTable(
        "lease_test_writes",
        metadata,
        Column("id", Integer, primary_key=True),
        Column("who", String(20)),
    )
    metadata.create_all(engine)
    return table


def test_a_write_after_a_takeover_is_refused_and_rolled_back(engine: Engine, clock: Clock) -> None:
    writes = _writes_table(engine)
    ann, bob = leases_for(engine, clock, "ann"), leases_for(engine, clock, "bob")
    assert ann.acquire("main")
    fence = ann.fence("main")
    with Session(engine) as db, db.begin():
        fence(db)
        db.execute(writes.insert().values(who="ann"))
    clock.advance(TTL)
    assert bob.acquire("main")
    with Session(engine) as db:
        db.begin()
        db.execute(writes.insert().values(who="ann, late"))
        with pytest.raises(LeaseLostError):
            fence(db)  # anywhere in the transaction: it fails, and the caller rolls back
        db.rollback()
    with Session(engine) as db:
        assert db.scalars(select(writes.c.who)).all() == ["ann"]


def test_ledger_writes_after_a_takeover_are_refused(store: Store, clock: Clock) -> None:
    """Seats, buy-ins and cash-outs carry the table's fence like the journal does: once
    another process took the table over, the old holder's ledger writes raise and leave
    the ledger as it was."""
    ann, bob = leases_for(store.engine, clock, "ann"), leases_for(store.engine, clock, "bob")
    assert ann.acquire("main")
    fence = ann.fence("main")
    session = store.start_session(TableRules(), label="main")
    store.sit(session, "ann", 1, guard=fence)
    store.buy_in(session, "ann", 100, guard=fence)
    clock.advance(TTL)
    assert bob.acquire("main")
    with pytest.raises(LeaseLostError):
        store.buy_in(session, "ann", 50, guard=fence)
    with pytest.raises(LeaseLostError):
        store.cash_out(session, "ann", guard=fence)
    with pytest.raises(LeaseLostError):
        store.sit(session, "cy", 2, guard=fence)
    assert store.balances(session) == {"ann": 100}
    assert store.seating(session) == {"ann": (1, None)}
    assert store.cash_out(session, "ann", guard=bob.fence("main")) == 100


def test_a_seat_and_its_buy_in_are_one_write(store: Store) -> None:
    """A seat comes with its buy-in or not at all: a refused buy-in leaves no seat row."""
    session = store.start_session(TableRules(), label="main")
    with pytest.raises(StoreError, match="at least 1 chip"):
        store.sit(session, "ann", 1, buy_in=0)
    assert store.seating(session) == {}
    assert store.balances(session) == {}
    store.sit(session, "ann", 1, buy_in=100)
    assert store.seating(session) == {"ann": (1, None)}
    assert store.balances(session) == {"ann": 100}


def test_a_table_that_lost_its_lease_seats_nobody(store: Store, clock: Clock) -> None:
    """A table runner whose lease another process took refuses a sit with the lease error,
    and neither its seats nor the ledger change (nothing half-applied)."""
    ann, bob = leases_for(store.engine, clock, "ann"), leases_for(store.engine, clock, "bob")
    config = TableConfig("main", "holdem", "no-limit", seats=4, bots=0, bot_delay=0, seed=1)
    assert ann.acquire("main")
    runner = TableRunner(config, store, Journal(store.engine))
    runner.guard = ann.fence("main")
    assert runner.sit("ann", 2, None) == 2
    clock.advance(TTL)
    assert bob.acquire("main")
    with pytest.raises(LeaseLostError):
        runner.sit("cy", 3, None)
    with pytest.raises(LeaseLostError):
        runner.leave("ann")
    assert runner.seat_of("ann") == 2
    assert runner.seat_of("cy") is None
    assert [p.name for p in runner.table.seats.values()] == ["ann"]
    assert runner.session is not None
    assert store.balances(runner.session) == {"ann": config.buy_in_chips()}
    assert store.seating(runner.session) == {"ann": (2, None)}


def test_a_table_built_without_its_lease_writes_no_seat(store: Store, clock: Clock) -> None:
    """The fence is in force from the table's restore on: a table built with a fence that
    another process has beaten does not seat its bots in the store."""
    ann, bob = leases_for(store.engine, clock, "ann"), leases_for(store.engine, clock, "bob")
    assert ann.acquire("main")
    fence = ann.fence("main")
    clock.advance(TTL)
    assert bob.acquire("main")
    config = TableConfig("main", "holdem", "no-limit", seats=4, bots=2, bot_delay=0, seed=1)
    with pytest.raises(LeaseLostError):
        TableRunner(config, store, Journal(store.engine), guard=fence)
    for session in store.sessions():
        assert store.balances(session) == {}
        assert store.seating(session) == {}
    built = TableRunner(config, store, Journal(store.engine), guard=bob.fence("main"))
    assert built.session is not None
    assert sorted(store.balances(built.session)) == ["bot-1", "bot-2"]


def test_a_takeover_waits_for_the_holders_open_write(
    request: pytest.FixtureRequest, clock: Clock
) -> None:
    """On PostgreSQL the fencing read locks the lease row: a takeover that comes while the
    old holder's write is open waits for its commit, and then the old holder is refused."""
    store = Store.open(request.getfixturevalue("postgres_url"))
    request.addfinalizer(store.close)
    engine = store.engine
    writes = _writes_table(engine)
    ann, bob = leases_for(engine, clock, "ann"), leases_for(engine, clock, "bob")
    assert ann.acquire("main")
    fence = ann.fence("main")
    clock.advance(TTL)  # ann's lease ran out, but ann does not know yet
    result: list[bool] = []
    with Session(engine) as db, db.begin():
        fence(db)  # ann's write starts: the lease row is now read FOR SHARE
        taker = threading.Thread(target=lambda: result.append(bob.acquire("main")))
        taker.start()
        with engine.connect() as watch:  # until bob's UPDATE waits on ann's lock
            for _ in range(100_000):
                waiting = watch.execute(
                    text(
                        "SELECT count(*) FROM pg_locks WHERE NOT granted AND "
                        "locktype IN ('tuple', 'transactionid')"
                    )
                ).scalar_one()
                watch.commit()
                if waiting or not taker.is_alive():
                    break
        assert waiting == 1  # bob is blocked behind ann's open transaction
        assert taker.is_alive()
        db.execute(writes.insert().values(who="ann"))
    taker.join()
    assert result == [True]
    assert bob.epoch("main") == 2
    with pytest.raises(LeaseLostError), Session(engine) as db, db.begin():
        fence(db)
    with Session(engine) as db:
        assert db.scalars(select(writes.c.who)).all() == ["ann"]  # committed before bob


# ---------------------------------------------------------------------- races
@pytest.mark.parametrize("round_", range(3))
def test_racing_takers_never_both_win(engine: Engine, clock: Clock, round_: int) -> None:
    racers = 10
    takers = [leases_for(engine, clock, f"p{i}") for i in range(racers)]
    dead = leases_for(engine, clock, "dead")
    assert dead.acquire("old")  # a table whose holder died: an UPDATE race, not an INSERT one
    clock.advance(TTL)
    for table in (f"new-{round_}", "old"):
        start = threading.Barrier(racers)
        wins: list[str] = []
        errors: list[BaseException] = []

        def race(
            leases: Leases,
            table: str = table,
            start: threading.Barrier = start,
            wins: list[str] = wins,
            errors: list[BaseException] = errors,
        ) -> None:
            start.wait()
            try:
                if leases.acquire(table):
                    wins.append(leases.owner)
            except BaseException as error:  # pragma: no cover - reported below
                errors.append(error)

        threads = [threading.Thread(target=race, args=(t,)) for t in takers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert len(wins) == 1, wins
        winner = next(t for t in takers if t.owner == wins[0])
        holder = dead.holders()[table]
        assert holder.owner == winner.owner
        assert holder.epoch == winner.epoch(table) == (2 if table == "old" else 1)
        assert sum(table in t.held() for t in takers) == 1


WORKER = textwrap.dedent(
    """
    import sys, time
    from croupier.server.leases import Leases
    from croupier.store import Store

    store = Store.open(sys.argv[1])
    leases = Leases(store.engine, "doomed", "http://doomed:8000")
    assert leases.acquire("a") and leases.acquire("b")
    print("ready", flush=True)
    while True:
        assert leases.renew() == []
        time.sleep(leases.renew_interval.total_seconds())
    """
)


def test_a_killed_process_s_tables_are_taken_over(store: Store) -> None:
    """A real second process holds two tables and is killed; the survivor takes them over
    once they expire (its clock is moved past the expiry rather than waited for), and the
    dead process's epoch is refused from then on."""
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER, store.url],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert worker.stdout is not None
        assert worker.stdout.readline().strip() == "ready"
        survivor = Leases(store.engine, "survivor", "http://survivor:8000")
        assert not survivor.acquire("a")  # live: the worker renews it
        assert {t: h.owner for t, h in survivor.holders().items()} == {
            "a": "doomed",
            "b": "doomed",
        }
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    assert worker.returncode == -signal.SIGKILL
    expiry = max(h.expires_at for h in survivor.holders(include_expired=True).values())
    later = Leases(store.engine, "survivor", "http://survivor:8000", clock=lambda: expiry)
    assert later.expired(["a", "b", "c"]) == ["a", "b", "c"]
    assert later.acquire("a")
    assert later.acquire("b")
    assert {t: (h.owner, h.epoch) for t, h in later.holders().items()} == {
        "a": ("survivor", 2),
        "b": ("survivor", 2),
    }
    ghost = Leases(store.engine, "doomed", "http://doomed:8000")
    with pytest.raises(LeaseLostError):
        ghost.verify_held("a", 1)


# ---------------------------------------------------------------------- state machine
OWNERS = ("ann", "bob", "cy")
TABLES = ("t1", "t2")


class LeaseMachine(RuleBasedStateMachine):
    """Three processes and a shared fake clock, against a model of the lease rows: every
    acquire's answer matches the model, and no two processes ever hold one table."""

    engine: Engine

    def __init__(self) -> None:
        super().__init__()
        self.clock = Clock()
        self.procs = {o: leases_for(self.engine, self.clock, o) for o in OWNERS}
        with self.engine.begin() as connection:  # a fresh start for every example
            connection.execute(delete(LeaseRow))
        # the model: table -> (owner, expires_at, epoch)
        self.rows: dict[str, tuple[str, datetime, int]] = {}
        self.epochs_seen: dict[str, int] = {}

    @rule(owner=st.sampled_from(OWNERS), table=st.sampled_from(TABLES))
    def acquire(self, owner: str, table: str) -> None:
        now = self.clock.now
        row = self.rows.get(table)
        expect = row is None or row[1] <= now or row[0] == owner
        assert self.procs[owner].acquire(table) == expect
        if expect:
            epoch = 1 if row is None else row[2] + (row[0] != owner)
            self.rows[table] = (owner, now + TTL, epoch)
            assert self.procs[owner].epoch(table) == epoch

    @rule(owner=st.sampled_from(OWNERS))
    def renew(self, owner: str) -> None:
        proc = self.procs[owner]
        mine = set(proc._held)  # what the process believes, even if run out
        lost = proc.renew()
        for table in mine:
            row = self.rows[table]
            if row[0] == owner:
                assert table not in lost
                self.rows[table] = (owner, self.clock.now + TTL, row[2])
            else:
                assert table in lost

    @rule(owner=st.sampled_from(OWNERS), table=st.sampled_from(TABLES))
    def release(self, owner: str, table: str) -> None:
        held = table in self.procs[owner]._held
        self.procs[owner].release(table)
        row = self.rows.get(table)
        if held and row is not None and row[0] == owner:
            self.rows[table] = (owner, datetime(1970, 1, 1, tzinfo=UTC), row[2])

    @rule(seconds=st.sampled_from([0.5, 1, 3, 9.999, 10, 11, 30]))
    def advance(self, seconds: float) -> None:
        self.clock.advance(timedelta(seconds=seconds))

    @invariant()
    def at_most_one_holder(self) -> None:
        live = self.procs["ann"].holders()
        for table in TABLES:
            believers = [o for o, p in self.procs.items() if table in p.held()]
            assert len(believers) <= 1, (table, believers)
            fenced_in = []
            for owner, proc in self.procs.items():
                if table in proc._held:
                    try:
                        proc.verify_held(table, proc._held[table].info.epoch)
                        fenced_in.append(owner)
                    except LeaseLostError:
                        pass
            assert len(fenced_in) <= 1, (table, fenced_in)
            row = self.rows.get(table)
            if row is not None and row[1] > self.clock.now:
                assert live[table].owner == row[0]
                assert live[table].epoch == row[2]
                assert believers == [row[0]]
            else:
                assert table not in live
                assert believers == []
            if row is not None:
                assert row[2] >= self.epochs_seen.get(table, 0)
                self.epochs_seen[table] = row[2]


def test_at_most_one_holder_at_any_time(engine: Engine) -> None:
    machine = type("Machine", (LeaseMachine,), {"engine": engine})
    run_state_machine_as_test(
        machine, settings=settings(max_examples=60, stateful_step_count=30, deadline=None)
    )
