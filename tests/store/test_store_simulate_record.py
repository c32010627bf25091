"""``croupier poker simulate --record``: the referee simulator writes every hand to the store,
committed to its deck, one transaction per hand, on SQLite and on PostgreSQL; the books
balance, ``verify`` passes, and a bad ``--db`` is one line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.cli.app import cli
from croupier.poker import DRAW, SEVEN_CARD_STUD, FixedLimit, TableRules
from croupier.poker.sim.simulate import simulate
from croupier.store import Store, default_path
from croupier.store.schema import HandRow, LedgerRow


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def check_books(url: str, hands: int) -> None:
    """Every hand recorded, committed and revealed; ``verify`` passes; no chip made or lost."""
    with Store.open(url) as store:
        report = store.verify()
        assert report.ok, [p.describe() for p in report.problems][:5]
        (session,) = store.sessions()
        recorded = store.hands(session)
        assert [h.number for h in recorded] == list(range(1, hands + 1))
        for summary in recorded[:5]:
            stored = store.hand(summary.id)
            assert stored.commitment.digest == summary.commitment
            reveal = stored.reveal  # the scheme a player checks: sha256(order || salt)
            digest = hashlib.sha256(reveal.order_text.encode() + bytes.fromhex(reveal.salt_hex))
            assert digest.hexdigest() == summary.commitment
            assert stored.replay().is_complete
        assert session.ended_at is not None
        assert set(store.balances(session).values()) == {0}  # all cashed out
        assert store.count(HandRow) == hands
    chips = report.chips
    assert report.hands == hands
    assert chips["bought_in"] - chips["cashed_out"] - chips["house"] == chips["on_table"] == 0


def test_simulate_record_writes_every_hand_to_the_store(store_url: str) -> None:
    args = ("poker", "simulate", "--hands", "25", "--players", "3", "--seed", "5", "--json")
    code, out, err = run(*args, "--record", "--db", store_url)
    assert code == 0, err
    recorded = json.loads(out)
    assert recorded["engine"] == "referee"  # never the fast kernel, which keeps no hands
    assert recorded["session"] == 1
    assert err.splitlines()[0].startswith("recording to ")
    assert err.splitlines()[-1].startswith("recorded 25 hands as session 1 in ")
    check_books(store_url, 25)
    # recording changes nothing in the play: the same seed, the same results
    code, out, _ = run(*args, "--engine", "referee")
    assert code == 0
    plain = json.loads(out)
    assert plain["seats"] == recorded["seats"]
    assert "session" not in plain
    with Store.open(store_url) as store:
        (session,) = store.sessions()
        assert session.seeded
        assert session.seed == 5
        nets = {seat["seat"]: 0 for seat in recorded["seats"]}
        for summary in store.hands(session):
            for _name, seat, net in summary.results:
                nets[seat] += net
    assert [nets[s["seat"]] for s in recorded["seats"]] == [s["total"] for s in recorded["seats"]]


DRAW_RULES = TableRules(DRAW, FixedLimit(10, 20), blinds=(5, 10), table_minimum=10)
STUD_RULES = TableRules(
    SEVEN_CARD_STUD, FixedLimit(10, 20), blinds=(), ante=2, bring_in=5, table_minimum=5
)


@pytest.mark.parametrize(
    ("rules", "policy"),
    [(DRAW_RULES, "hand-strength"), (STUD_RULES, "random")],
    ids=["draw", "stud7"],
)
def test_the_api_records_other_games_unseeded(
    store: Store, store_url: str, rules: TableRules, policy: str
) -> None:
    result = simulate(rules, players=4, hands=12, policies=[policy] * 4, store=store)
    assert result.session is not None
    check_books(store_url, 12)
    stored = store.hand(store.hands(result.session)[0].id)
    assert not stored.seeded  # shuffles and salts from the OS CSPRNG


def test_the_store_comes_from_croupier_db_else_the_user_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run("poker", "simulate", "--hands", "4", "--players", "2", "--record")
    assert code == 0, err
    assert default_path().exists()  # the user's store (a temporary data directory here)
    check_books(str(default_path()), 4)
    chosen = tmp_path / "env.sqlite3"
    monkeypatch.setenv("CROUPIER_DB", f"sqlite:///{chosen}")
    code, _, err = run("poker", "simulate", "--hands", "3", "--players", "2", "--record")
    assert code == 0, err
    assert str(chosen) in err
    check_books(f"sqlite:///{chosen}", 3)


@pytest.mark.parametrize(
    ("db", "message"),
    [
        ("nosuchdb://x", "cannot open the store at 'nosuchdb://x': unknown database kind"),
        ("sqlite:////no/such/folder/s.db", "unable to open database file"),
        ("postgresql+psycopg://croupier@/none?host=/no/such/socket", "cannot open the store"),
    ],
    ids=["unknown-kind", "no-folder", "no-server"],
)
def test_a_bad_db_url_is_one_line_and_a_non_zero_exit(db: str, message: str) -> None:
    code, out, err = run("poker", "simulate", "--hands", "3", "--db", db)
    assert code == 1
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith("croupier: error: ")
    assert message in err


def test_a_corrupt_store_is_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 200)
    code, _, err = run("poker", "simulate", "--hands", "3", "--db", f"sqlite:///{junk}")
    assert code == 1
    assert err.startswith("croupier: error: ")
    assert len(err.splitlines()) == 1
    assert junk.read_bytes() == b"not a database at all" * 200


def test_record_refuses_the_fast_kernel_and_workers_in_one_line(store_url: str) -> None:
    code, _, err = run("poker", "simulate", "--hands", "3", "--record", "--engine", "fast",
                       "--db", store_url)  # fmt: skip
    assert code == 2
    assert len(err.splitlines()) == 1
    assert "the fast kernel keeps no hands to record" in err
    code, _, err = run("poker", "simulate", "--hands", "3", "--record", "--workers", "2",
                       "--db", store_url)  # fmt: skip
    assert code == 2
    assert "--record plays every hand in one process" in err
    with Store.open(store_url) as store:
        assert store.count(HandRow) == 0
        assert store.count(LedgerRow) == 0
