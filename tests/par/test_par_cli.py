"""``croupier par blackjack`` and ``croupier par poker``: the three formats, files, and one
clear line for every bad option."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from croupier.cli.app import cli

SMALL = ["--decks", "1", "--rounds", "20000", "--seed", "3"]
POKER = ["--game", "holdem", "--model", "calling-station", "--hands", "20", "--seed", "1"]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, ["par", *args])


def pdf_pages(data: bytes) -> int:
    """Page objects in a PDF (``/Type /Page``, not ``/Pages``)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def test_blackjack_markdown_to_stdout() -> None:
    out = invoke("blackjack", *SMALL)
    assert out.exit_code == 0, out.output
    text = out.stdout
    assert text.startswith("# Blackjack PAR sheet\n")
    assert "| House edge | " in text
    assert "| Element of risk | " in text
    assert "## Net result of a round" in text
    assert "| Shoe | 1 deck (52 cards) |" in text
    assert "Optimal play" in text


def test_blackjack_json_is_strict_and_exact_where_it_can_be() -> None:
    out = invoke("blackjack", *SMALL, "--strategy", "basic", "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout, parse_constant=lambda c: pytest.fail(f"non-strict JSON {c}"))
    assert list(data["strategies"]) == ["basic"]
    basic = data["strategies"]["basic"]
    assert basic["house_edge"]["source"] == "exact"
    assert "low" not in basic["house_edge"]
    assert basic["standard_deviation"]["source"] == "simulated"
    assert basic["standard_deviation"]["low"] < basic["standard_deviation"]["high"]
    shares = [row["share"]["value"] for row in basic["distribution"]]
    assert sum(shares) == pytest.approx(1.0, abs=1e-12)
    assert sum(row["rounds"] for row in basic["distribution"]) == 20000
    units = {row["net_units"] for row in basic["distribution"]}
    assert {"-1", "0", "+1", "+1.5"} <= units
    assert data["seed"] == 3
    again = invoke("blackjack", *SMALL, "--strategy", "basic", "--format", "json")
    assert json.loads(again.stdout)["strategies"]["basic"]["distribution"] == basic["distribution"]


def test_blackjack_pdf_file(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "nz-par.pdf"
    out = invoke("blackjack", *SMALL, "--output", str(target))  # the suffix says PDF
    assert out.exit_code == 0, out.output
    assert out.stdout == ""
    assert f"wrote {target}" in out.stderr
    data = target.read_bytes()
    assert data.startswith(b"%PDF-")
    pages = pdf_pages(data)
    assert pages >= 3  # tables, then two charts a page
    assert f"({pages} pages)" in out.stderr


def test_markdown_and_json_files(tmp_path: Path) -> None:
    md, js = tmp_path / "par.md", tmp_path / "par.json"
    assert invoke("poker", *POKER, "--rake", "5", "--output", str(md)).exit_code == 0
    assert md.read_text().startswith("# Poker PAR sheet")
    assert invoke("poker", *POKER, "--rake", "5", "--output", str(js)).exit_code == 0
    assert json.loads(js.read_text())["sheet"] == "poker"


def test_poker_json_take() -> None:
    out = invoke(
        "poker", *POKER, "--players", "4", "--rake", "5%", "--rake-cap", "30",
        "--time-charge", "6", "--period", "20", "--hands-per-hour", "holdem=32", "--format", "json",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    (table,) = data["tables"]
    assert table["structure"] == "no-limit"
    assert table["rake_per_hand"]["value"] == "2"  # 4 players x 10, 5 %
    assert table["hands_per_hour"] == {"value": 32, "source": "assumed"}
    assert table["time_charge_per_hour"] == {"value": "72", "source": "exact"}  # 4 x 6 x 3
    assert table["take_per_hour"]["value"] == "136"  # 2 x 32 + 72


def test_poker_games_and_structures() -> None:
    out = invoke(
        "poker", "--game", "omaha", "--game", "draw", "--structure", "pot-limit",
        "--structure", "fixed-limit", "--model", "calling-station", "--hands", "3",
        "--players", "3", "--fee", "1", "--drop-always", "--format", "json",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    tables = json.loads(out.stdout)["tables"]
    assert [(t["game"], t["structure"]) for t in tables] == [
        ("omaha", "pot-limit"),
        ("omaha", "fixed-limit"),
        ("draw", "pot-limit"),
        ("draw", "fixed-limit"),
    ]
    assert all(t["rake_per_hand"]["value"] == "1" for t in tables)  # the fee, every hand


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["blackjack", "--format", "pdf"], "a PDF goes to a file"),
        (["blackjack", "--penetration", "2/3"], "--penetration only applies with --deal shoe"),
        (["blackjack", "--deal", "shoe", "--penetration", "99/100"], "half a deck"),
        (["blackjack", "--decks", "inf"], "real shoe"),
        (["blackjack", "--rounds", "0"], "--rounds"),
        (["blackjack", "--strategy", "perfect"], "--strategy"),
        (["blackjack", "--seed", "-1"], "--seed"),
        (["blackjack", "--output", "/no/such/folder/par.md"], "does not exist"),
        (["poker"], "the table charges nothing"),
        (["poker", "--rake", "five"], "a percentage such as 5"),
        (["poker", "--rake", "150"], "a percentage from 0 to 100"),
        (["poker", "--rake-cap", "30", "--fee", "1"], "--rake-cap caps a rake"),
        (["poker", "--rake", "5", "--game", "stud7", "--players", "9"], "seats at most 8"),
        (["poker", "--rake", "5", "--hands-per-hour", "holdem=fast"], "GAME=N"),
        (["poker", "--rake", "5", "--hands-per-hour", "bridge=30"], "unknown game"),
        (["poker", "--rake", "5", "--model", "shark"], "--model"),
    ],
)
def test_bad_options_give_one_line_and_exit_2(args: list[str], message: str) -> None:
    out = invoke(*args)
    assert out.exit_code == 2, out.output
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("croupier: error: ")
    assert message in lines[0]
    assert "Traceback" not in out.output
