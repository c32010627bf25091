"""Strict reading and replay errors: each names the hand, the action and the rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from croupier.cli.app import cli
from croupier.phh import PHHError, loads, replay

BASE = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
"""


def hand(actions: list[str], extra: str = "") -> str:
    return BASE + extra + f"actions = {json.dumps(actions)}\n"


def test_a_legal_hand_replays() -> None:
    text = hand(["d dh p1 AsKs", "d dh p2 QdQh", "d dh p3 7c2d", "p3 f", "p1 cc", "p2 cc",
                 "d db 2c7h9s", "p1 cc", "p2 cc", "d db Ts", "p1 cc", "p2 cc", "d db Js",
                 "p1 cc", "p2 cc", "p1 sm AsKs", "p2 sm QdQh"])  # fmt: skip
    assert replay(loads(text)[0]).final_stacks == [102, 98, 100]


@pytest.mark.rule("Omaha 17.6(c)")
def test_a_raise_below_the_minimum_is_rejected_with_its_rule() -> None:
    text = hand(["d dh p1 AsKs", "d dh p2 QdQh", "d dh p3 7c2d", "p3 cbr 3"])
    with pytest.raises(PHHError) as info:
        replay(loads(text, source="x.phh")[0])
    assert info.value.rule == "Omaha 17.6(c)"
    assert "x.phh action 4 'p3 cbr 3'" in str(info.value)


def test_acting_out_of_turn_is_rejected() -> None:
    text = hand(["d dh p1 AsKs", "d dh p2 QdQh", "d dh p3 7c2d", "p1 f"])
    with pytest.raises(PHHError, match="p1 acts out of turn: p3 is to act"):
        replay(loads(text)[0])


def test_a_missing_field_and_a_bad_length_are_rejected() -> None:
    with pytest.raises(PHHError, match="needs the fields min_bet"):
        replay(loads(BASE.replace("min_bet = 2\n", "") + "actions = []\n")[0])
    with pytest.raises(PHHError, match="antes has 2 entries for 3 players"):
        replay(loads(BASE.replace("[0, 0, 0]", "[0, 0]") + "actions = []\n")[0])


def test_a_card_shown_unlike_the_one_dealt_is_rejected() -> None:
    text = hand(["d dh p1 AsKs", "d dh p2 QdQh", "d dh p3 7c2d", "p3 f", "p1 cc", "p2 cc",
                 "d db 2c7h9s", "p1 cc", "p2 cc", "d db Ts", "p1 cc", "p2 cc", "d db Js",
                 "p1 cc", "p2 cc", "p1 sm AsKh"])  # fmt: skip
    with pytest.raises(PHHError, match="p1 shows Kh but was dealt Ks"):
        replay(loads(text)[0])


def test_unknown_hole_cards_that_muck_cannot_win() -> None:
    text = hand(["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 cc", "p2 cc",
                 "d db 2c7h9s", "p1 cc", "p2 cc", "d db Ts", "p1 cc", "p2 cc", "d db Js",
                 "p1 cc", "p2 cc", "p1 sm 3c4d", "p2 sm"])  # fmt: skip
    assert replay(loads(text)[0]).final_stacks == [102, 98, 100]


def test_bad_toml_is_one_clear_error() -> None:
    with pytest.raises(PHHError, match="not valid TOML"):
        loads("variant = ")


def test_cli_replay_json_has_file_hand_and_numbers(tmp_path: Path) -> None:
    path = tmp_path / "two.phhs"
    path.write_text("[1]\n" + hand(["p3 f", "p1 f"]) + "\n[5]\n" + hand(["p3 f", "p1 cc", "p2 f"]))
    out = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert out.exit_code == 0
    records = [json.loads(line) for line in out.output.splitlines()]
    assert [r["hand"] for r in records] == ["1", "5"]
    assert records[0]["final_stacks"] == [99, 101, 100]
    assert records[1]["final_stacks"] == [102, 98, 100]
    assert all(r["file"] == str(path) for r in records)


def test_cli_replay_fails_on_an_illegal_hand(tmp_path: Path) -> None:
    path = tmp_path / "bad.phh"
    path.write_text(hand(["p3 cbr 3"]))
    out = CliRunner().invoke(cli, ["replay", str(path)])
    assert out.exit_code == 1
    assert "Omaha 17.6(c)" in out.output
