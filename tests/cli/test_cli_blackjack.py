"""``croupier blackjack``: dealer odds, house edge, the derived basic strategy, simulation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
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
    assert data["decks"] == 6
    assert 0.003 < data["house_edge"] < 0.006
    assert data["basic_strategy_ev"] <= data["ev"]
    griffin = run(
        "house-edge", "--decks", "inf", "--peek", "--no-das", "--max-hands", "2", "--json"
    )
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
    data = run("dealer", "--upcard", "7", "--decks", "inf", "--json")
    assert isinstance(data, dict)
    assert round(data["7"]["bust"] * 100, 2) == 26.23
    six = run("dealer", "--json")
    assert isinstance(six, dict)
    assert list(six) == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
    assert round(six["T"]["blackjack"], 6) == round(24 / 311, 6)  # no hole card: unconditional
    peek = run("dealer", "--upcard", "A", "--peek", "--json")
    assert isinstance(peek, dict)
    assert peek["A"]["blackjack"] == 0


def test_bad_options_give_one_clear_error() -> None:
    out = CliRunner().invoke(cli, ["blackjack", "house-edge", "--blackjack-pays", "three"])
    assert out.exit_code == 2
    assert "3:2" in out.output
    for bad in (["--decks", "0"], ["--decks", "six"]):
        out = CliRunner().invoke(cli, ["blackjack", "house-edge", *bad])
        assert out.exit_code == 2, bad
        assert "Traceback" not in out.output
    out = CliRunner().invoke(cli, ["blackjack", "simulate", "--penetration", "x"])
    assert out.exit_code == 2
    assert "3/4" in out.output
    out = CliRunner().invoke(cli, ["blackjack", "simulate", "--decks", "inf", "--rounds", "10"])
    assert out.exit_code == 2
    assert "real shoe" in out.output
    out = CliRunner().invoke(
        cli, ["blackjack", "simulate", "--penetration", "99/100", "--rounds", "10"]
    )
    assert out.exit_code == 2
    assert "half a deck" in out.output


def test_strategy_departures_from_the_us_chart() -> None:
    nz = run("strategy", "--departures", "--json")
    assert isinstance(nz, dict)
    # one departure from the US 6-deck chart: 8,8 v A hits, since a no-hole-card blackjack
    # takes the original wager from a standing split hand after the other busts (11.7)
    assert nz["departures"] == ["pair 8 v A: H (was P)"]
    european = run(
        "strategy",
        "--dealer-bj-takes-splits",
        "all",
        "--dealer-bj-takes-doubles",
        "all",
        "--departures",
        "--json",
    )
    assert isinstance(european, dict)
    assert "hard 11 v T: H (was D)" in european["departures"]


def test_simulate_json_reports_ev_frequencies_and_the_exact_value() -> None:
    data = run("simulate", "--rounds", "300000", "--seed", "5", "--json")
    assert isinstance(data, dict)
    assert data["rounds"] == 300000
    assert data["seed"] == 5
    assert abs(data["ev"] - data["exact_ev"]) < 5 * data["se"]
    assert abs(data["z"]) < 5
    assert 0.04 < data["frequencies"]["player_blackjack"] < 0.055
    again = run("simulate", "--rounds", "300000", "--seed", "5", "--json")
    assert isinstance(again, dict)
    assert again["counts"] == data["counts"]


def test_simulate_text_and_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "ev.png"
    out = CliRunner().invoke(
        cli, ["blackjack", "simulate", "--rounds", "50000", "--seed", "1", "--plot", str(png)]
    )
    assert out.exit_code == 0, out.output
    assert "EV per initial unit" in out.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_strategy_chart_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "chart.png"
    out = CliRunner().invoke(cli, ["blackjack", "strategy", "--chart", str(png)])
    assert out.exit_code == 0, out.output
    assert "pair 8" in out.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = CliRunner().invoke(
        cli, ["blackjack", "strategy", "--chart", str(tmp_path / "no" / "such" / "dir.png")]
    )
    assert bad.exit_code == 2  # checked before the analysis, as a bad --chart value
    assert "does not exist" in bad.output
    assert "Traceback" not in bad.output
