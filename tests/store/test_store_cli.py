"""``croupier history`` and ``croupier verify-deal``, as a user runs them (on SQLite and on
PostgreSQL), and their one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import text

from croupier.blackjack import NZ
from croupier.cli.app import cli
from croupier.phh.reader import load
from croupier.poker import DRAW, MANILA, NoLimit, TableRules
from croupier.store import Store, play_and_record, play_and_record_blackjack

SRC = Path(__file__).resolve().parents[2] / "src"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def fill(url: str) -> tuple[list[int], list[int]]:
    with Store.open(url) as store:
        poker = play_and_record(store, TableRules(), hands=4, seed=6).hands
        rounds = play_and_record_blackjack(store, NZ, rounds=2, seed=6).hands
    return list(poker), list(rounds)


def test_list_show_and_verify(store_url: str) -> None:
    poker, rounds = fill(store_url)
    code, out, _ = run("history", "list", "--db", store_url)
    assert code == 0
    assert len(out.splitlines()) == len(poker) + len(rounds)
    code, out, _ = run("history", "list", "--db", store_url, "--json", "--session", "2")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in records] == rounds
    assert all(r["game"] == "blackjack" for r in records)
    code, out, _ = run("history", "show", str(poker[0]), "--db", store_url)
    assert code == 0
    assert "deck commitment sha256" in out
    assert "revealed salt" in out
    assert "(down)" in out
    assert "??" not in out
    code, out, _ = run("history", "show", str(rounds[0]), "--db", store_url, "--json")
    assert json.loads(out)["shoe"]["number"] == 1
    code, out, _ = run("history", "verify", "--db", store_url)
    assert code == 0
    assert "6 hands" in out
    assert "all verified" in out
    code, out, _ = run("history", "verify", "--db", store_url, "--json")
    assert json.loads(out)["ok"] is True


def test_verify_names_the_tampered_row_and_exits_1(store_url: str) -> None:
    _poker, _ = fill(store_url)
    with Store.open(store_url) as store, store.engine.begin() as conn:
        conn.execute(text("UPDATE results SET net = net + 1 WHERE id = 2"))
    code, out, err = run("history", "verify", "--db", store_url)
    assert code == 1
    assert "1 problem" in out
    assert "croupier: error: results row 2: net" in err
    assert err.splitlines()[-1].startswith("croupier: error: ")
    code, out, _ = run("history", "verify", "--db", store_url, "--json")
    report = json.loads(out)
    assert code == 1
    assert report["problems"][0]["table"] == "results"
    assert report["problems"][0]["id"] == 2


def test_export_and_verify_deal_from_the_store_and_from_files(
    store_url: str, tmp_path: Path
) -> None:
    poker, rounds = fill(store_url)
    code, out, _ = run("verify-deal", str(poker[1]), "--db", store_url)
    assert code == 0
    assert f"hand {poker[1]}: commitment" in out
    assert "matches" in out
    phh = tmp_path / "hands.phhs"
    code, _, err = run("history", "export", *map(str, poker), "--db", store_url, "--format",
                       "phh", "--out", str(phh))  # fmt: skip
    assert code == 0
    assert "4 hand(s) written" in err
    histories = load(phh)
    assert len(histories) == 4
    assert "_croupier_deck_commitment" in histories[0].fields
    code, out, _ = run("replay", str(phh))  # the export is ordinary PHH the replayer reads
    assert code == 0
    code, out, _ = run("verify-deal", "--file", str(phh), "--json")
    assert code == 0
    assert [json.loads(line)["ok"] for line in out.splitlines()] == [True] * 4
    document = tmp_path / "all.json"
    code, _, _ = run("history", "export", *map(str, poker + rounds), "--db", store_url,
                     "--out", str(document))  # fmt: skip
    code, out, _ = run("verify-deal", "--file", str(document))
    assert code == 0
    assert len(out.splitlines()) == 6
    data = json.loads(document.read_text())
    data["hands"][0]["reveal"]["salt"] = "00" * 32
    document.write_text(json.dumps(data))
    code, _, err = run("verify-deal", "--file", str(document))
    assert code == 1
    assert "do not hash to the commitment" in err
    code, _, err = run("history", "export", str(rounds[0]), "--db", store_url, "--format", "phh")
    assert code == 1
    assert "PHH has no blackjack" in err


def test_every_poker_game_exports_as_phh_and_verifies(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 's.db'}"
    ids: list[int] = []
    with Store.open(url) as store:
        for rules in (TableRules(MANILA, NoLimit()), TableRules(DRAW, NoLimit())):
            ids += play_and_record(store, rules, hands=3, seed=13).hands
    out = tmp_path / "h.phhs"
    assert run("history", "export", *map(str, ids), "--db", url, "--format", "phh",
               "--out", str(out))[0] == 0  # fmt: skip
    code, _text_out, err = run("verify-deal", "--file", str(out))
    assert code == 0, err


def test_errors_are_one_line_from_a_real_process(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not a database" * 500)
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.run([sys.executable, "-m", "croupier", "history", "list", "--db", str(bad)],
                          env=env, capture_output=True, text=True, check=False)  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("croupier: error: ")
    assert "file is not a database" in proc.stderr


def test_errors_are_one_line(tmp_path: Path) -> None:
    memory = "sqlite:///:memory:"
    for args, code, says in (
        (["history", "verify", "--db", "nosuchdb://x"], 1, "unknown database kind"),
        (["history", "show", "7", "--db", str(tmp_path / "new.db")], 1, "nothing has been"),
        (["history", "show", "7", "--db", memory], 1, "no hand 7 in the store"),
        (["verify-deal", "3", "--db", memory], 1, "no hand 3 in the store"),
        (["verify-deal"], 2, "give a hand ID, --file FILE or --url URL"),
        (["history", "verify", "--session", "4", "--db", memory], 1, "no session 4"),
        (["history", "show", "9" * 20], 2, "is not in the range"),
    ):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == code, result.stderr
        assert result.stderr.count("\n") == 1
        assert result.stderr.startswith("croupier: error: ")
        assert says in result.stderr


def test_croupier_db_is_the_default_for_every_command(tmp_path: Path, monkeypatch: object) -> None:
    url = f"sqlite:///{tmp_path / 'env.db'}"
    fill(url)
    env = {**os.environ, "PYTHONPATH": str(SRC), "CROUPIER_DB": url}
    proc = subprocess.run([sys.executable, "-m", "croupier", "history", "verify"], env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert proc.returncode == 0
    assert "6 hands" in proc.stdout


def test_a_reader_never_leaves_an_empty_store_behind(tmp_path: Path) -> None:
    from croupier.store import default_path

    for args in (["history", "list"], ["history", "verify"], ["verify-deal", "1"]):
        code, _, err = run(*args)
        assert code == 1
        assert "nothing has been recorded there" in err
    assert not default_path().exists()
    assert not default_path().parent.exists()
