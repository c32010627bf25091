"""Issue 29, point 4 on the command line: ``croupier blackjack protection`` (its figures, its
JSON, its chart) and one-line errors for bad input."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from croupier.cli.app import cli

FAST = ("--rounds", "20000", "--indices", "published", "--seed", "4")


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, ["blackjack", "protection", *args])


def one_error(result: Result, code: int) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("croupier: error: "), lines
    return lines[0]


def test_protection_json_has_the_figures_and_the_comparisons() -> None:
    result = invoke("--penetration", "0.75", "--spread", "1-12", "--json", *FAST)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    main = data["counter"]
    for key in (
        "win_rate_100", "sd_100", "win_per_hour", "sd_per_hour", "score", "n0",
        "desirability_index", "risk_of_ruin", "trip_risk_of_ruin", "kelly_ramp",
    ):  # fmt: skip
        assert key in main, key
    assert main["rounds"] == 20_000
    assert main["penetration"] == 0.75
    assert main["rounds_per_hour"] == 100
    assert main["win_per_hour"] == pytest.approx(main["win_rate_100"])  # 100 rounds an hour
    assert main["sd_100"] == pytest.approx(10 * main["sd"])
    # the game's penetration is among those compared, which share its shoes (one seed)
    pens = [row["penetration"] for row in data["penetrations"]]
    assert pens == sorted(pens)
    assert 0.75 in pens
    assert 0.5 in pens
    assert [row["spread"] for row in data["spreads"]][:3] == ["1-1", "1-2", "1-4"]
    labels = [row["scenario"] for row in data["back_counting"]]
    assert labels[0] == "plays every round"
    assert "no mid-shoe entry" in labels[2]
    assert data["back_counting"][0]["win_rate_100"] == pytest.approx(main["win_rate_100"])


def test_protection_text_and_chart(tmp_path: Path) -> None:
    chart = tmp_path / "protection.png"
    result = invoke(
        "--cut-card", "1", "--spread", "1-8", "--wong-in", "2", "--wong-out", "0",
        "--compare", "0.6", "--chart", str(chart), "--rounds-per-hour", "60", *FAST,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "penetration 83%" in out  # one deck of six behind the cut card
    assert "SCORE" in out
    assert "N0" in out
    assert "risk of ruin" in out
    assert "Kelly bets" in out
    assert "(60 rounds an hour)" in out
    assert "back-counts: in at +2, out below +0, no mid-shoe entry" in out
    assert chart.stat().st_size > 10_000


def test_protection_with_the_exact_indices_by_default() -> None:
    result = invoke("--rounds", "5000", "--compare", "none", "--json", "--seed", "1")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)["counter"]
    assert data["indices"] == "i18"
    assert data["insurance_index"] == 3
    assert any(line.startswith("16 v T: stand at +1") for line in data["deviations"])
    assert math.isfinite(data["sd"])


@pytest.mark.parametrize(
    ("args", "code", "text"),
    [
        (["--spread", "12-1"], 2, "--spread"),
        (["--spread", "1:12"], 2, "MIN-MAX"),
        (["--spread", "0-4"], 2, "--spread"),
        (["--penetration", "1.5"], 2, "--penetration"),
        (["--penetration", "0"], 2, "--penetration"),
        (["--penetration", "x"], 2, "0.75 or 3/4"),
        (["--penetration", "0.99"], 2, "half a deck"),
        (["--system", "nope"], 2, "no counting system"),
        (["--system", "zen", "--indices", "published"], 2, "Hi-Lo's"),
        (["--ramp", "2:x"], 2, "TC:UNITS"),
        (["--ramp", "2:20"], 2, "outside the spread"),
        (["--wong-in", "-1", "--wong-out", "1"], 2, "leave at once"),
        (["--wong-in", "nan"], 2, "--wong-in"),
        (["--cut-card", "9"], 2, "--cut-card"),
        (["--cut-card", "1", "--penetration", "0.8"], 2, "give one"),
        (["--compare", "0.99"], 2, "--compare"),
        (["--compare", "x"], 2, "--compare"),
        (["--decks", "inf"], 2, "real shoe"),
        (["--chart", "out.gif"], 2, "PNG"),
        (["--rounds", "0"], 2, "--rounds"),
        (["--trip-hours", "0"], 2, "--trip-hours"),
    ],
)
def test_bad_input_is_one_line(args: list[str], code: int, text: str) -> None:
    rounds = [] if "--rounds" in args else ["--rounds", "10"]
    assert text in one_error(invoke(*args, *rounds), code)
