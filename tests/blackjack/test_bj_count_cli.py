"""Issue 29 on the command line: ``croupier blackjack count`` and ``croupier blackjack indices``
(NZ rules by default), their ``--json``, and one-line errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from croupier.blackjack.math.analysis import Analysis
from croupier.blackjack.math.counting import SYSTEMS
from croupier.cli.app import cli


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, ["blackjack", *args])


def lines_of_json(result: Result) -> list[Any]:
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def one_error(result: Result, code: int) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("croupier: error: "), lines
    return lines[0]


def test_count_json_has_the_three_figures_for_the_nz_shoe() -> None:
    (data,) = lines_of_json(invoke("count", "--system", "hi-lo", "--json"))
    assert data["system"] == "hi-lo"
    assert data["decks"] == 6
    for key in ("betting_correlation", "playing_efficiency", "insurance_correlation"):
        assert 0 < data[key] < 1
        assert abs(data[key] - data["published"][key]) < 0.035
    # the expectation is the analysis's, the effects sum to zero over a deck
    assert data["ev"] == pytest.approx(Analysis().expectation(Analysis().basic_strategy()))
    assert abs(data["deck_sum"]) < 1e-4
    eor = data["effects_of_removal"]
    assert list(eor) == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]
    assert max(eor, key=eor.get) == "5"
    assert min(eor, key=eor.get) == "A"
    scale = 311 / 51
    assert data["effects_of_removal_per_deck"]["T"] == pytest.approx(eor["T"] * scale)


def test_count_lists_every_system_by_default() -> None:
    result = invoke("count")
    assert result.exit_code == 0, result.output
    for system in SYSTEMS.values():
        assert system.name in result.output
    assert "with the ace side count" in result.output  # Hi-Opt I and II, Omega II
    rows = lines_of_json(invoke("count", "--json", "--system", "all", "--system", "ko"))
    assert [r["system"] for r in rows] == list(SYSTEMS)  # each system once


def test_count_reads_a_system_file(tmp_path: Path) -> None:
    path = tmp_path / "lo.toml"
    path.write_text(
        'name = "Low cards"\n[tags]\nA = 0\n2 = 1\n3 = 1\n4 = 1\n5 = 1\n6 = 1\n'
        "7 = 0\n8 = 0\n9 = 0\nT = 0\n",
        encoding="utf-8",
    )
    (mine,) = lines_of_json(invoke("count", "--system", str(path), "--decks", "1", "--json"))
    (hi_lo,) = lines_of_json(invoke("count", "--system", "hi-lo", "--decks", "1", "--json"))
    assert mine["name"] == "Low cards"
    assert mine["balanced"] is False
    # counting only the small cards sees less than counting the big ones too
    assert mine["betting_correlation"] < hi_lo["betting_correlation"]
    assert mine["published"] == {}


def test_count_and_indices_refuse_bad_input_in_one_line(tmp_path: Path) -> None:
    assert "no counting system 'hilo'" in one_error(invoke("count", "--system", "hilo"), 2)
    assert "real shoe" in one_error(invoke("count", "--decks", "inf"), 2)
    bad = tmp_path / "bad.toml"
    bad.write_text("[tags]\nA = -1\n", encoding="utf-8")
    assert "no tag for 2" in one_error(invoke("count", "--system", str(bad)), 1)
    missing = str(tmp_path / "absent.toml")
    assert "no counting system file" in one_error(invoke("indices", "--system", missing), 1)
    assert "--remaining" in one_error(invoke("indices", "--remaining", "6"), 2)
    assert "--remaining" in one_error(invoke("indices", "--decks", "1", "--remaining", "1"), 2)
    assert "--span" in one_error(invoke("indices", "--span", "50"), 2)
    assert "--penetration" in one_error(invoke("indices", "--penetration", "1/2"), 2)
    assert "real shoe" in one_error(invoke("indices", "--decks", "inf"), 2)


def test_indices_json_for_the_nz_game() -> None:
    (data,) = lines_of_json(invoke("indices", "--system", "hi-lo", "--json"))
    assert data["system"] == "hi-lo"
    assert data["remaining_decks"] == 3
    first = data["illustrious_18"][0]
    assert first["decision"] == "insurance"
    assert first["play"] == "insure"
    labels = [p["decision"] for p in data["illustrious_18"]]
    assert labels[1:4] == ["16 v T", "15 v T", "T,T v 5"]
    for play in data["illustrious_18"] + data["fab_4"]:
        assert abs(play["index"] - play["published"]) <= 1.25
    assert all(p["offered"] is False for p in data["fab_4"])
    assert data["decisions"]["12 v 4"]["basic"] == "hit"
    text = invoke("indices", "--all")
    assert text.exit_code == 0, text.output
    assert "Illustrious 18:" in text.output
    assert "Fab 4:" in text.output
    assert "12 v 4: hit; stand at +" in text.output
    assert "surrender not offered" in text.output
