"""``croupier blackjack``: dealer odds, house edge and the derived basic strategy."""

from __future__ import annotations

import json

from click.testing import CliRunner

from croupier.cli.app import cli


def run(*args: str) -> object:
    out = CliRunner().invoke(cli, ["blackjack", *args])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def test_house_edge_json_has_ev_and_house_edge() -> None:
    data = run("house-edge", "--json")
    assert isinstance(data, dict)
    assert data["house_edge"] == -data["ev"]
    griffin = run("house-edge", "--peek", "--no-das", "--max-hands", "2", "--json")
    assert isinstance(griffin, dict)
    assert abs(griffin["ev"] * 100 - -0.690223) < 0.0001


def test_strategy_is_derived_and_shows_landmarks() -> None:
    table = run("strategy", "--json")
    assert isinstance(table, dict)
    assert table["hard 16"]["T"] == "H"
    assert table["hard 11"]["6"] == "D"
    assert table["pair A"]["6"] == "P"
    assert table["hard 12"]["4"] == "S"
    surrender = run("strategy", "--surrender", "late", "--json")
    assert isinstance(surrender, dict)
    assert "R" in {code for row in surrender.values() for code in row.values()}


def test_dealer_odds_by_upcard() -> None:
    data = run("dealer", "--upcard", "7", "--json")
    assert isinstance(data, dict)
    assert round(data["7"]["bust"] * 100, 2) == 26.23


def test_bad_options_give_one_clear_error() -> None:
    out = CliRunner().invoke(cli, ["blackjack", "house-edge", "--blackjack-pays", "three"])
    assert out.exit_code == 2
    assert "3:2" in out.output
    out = CliRunner().invoke(cli, ["blackjack", "house-edge", "--decks", "6"])
    assert out.exit_code == 2
    assert "infinite deck" in out.output
