"""Issue 10, points 10 and 11: bad PHH input and incomplete records, through the reader, the
replay and ``croupier replay``. Each ends in a PHHError (a CroupierError) naming the problem,
and on the command line in one ``croupier: error: …`` line and exit code 1, never a traceback;
an unfinished record and a record whose ``finishing_stacks`` disagree are reported, not
printed as final stacks with exit 0."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from croupier.cli.app import cli
from croupier.errors import CroupierError
from croupier.phh import PHHError, load, loads, replay

BASE = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
"""

FULL = ["d dh p1 AsKs", "d dh p2 QdQh", "d dh p3 7c2d", "p3 f", "p1 cc", "p2 cc",
        "d db 2c7h9s", "p1 cc", "p2 cc", "d db Ts", "p1 cc", "p2 cc", "d db Js",
        "p1 cc", "p2 cc", "p1 sm AsKs", "p2 sm QdQh"]  # fmt: skip
"""A complete hand: p1's As Ks make a spade flush with 9s Ts Js; final stacks 102, 98, 100."""


def text(actions: list[str] | str, extra: str = "", base: str = BASE) -> str:
    listed = actions if isinstance(actions, str) else json.dumps(actions)
    return base + extra + f"actions = {listed}\n"


def strict_json(line: str) -> dict[str, object]:
    def refuse(name: str) -> None:
        raise AssertionError(f"not strict JSON: {name}")

    value = json.loads(line, parse_constant=refuse)
    assert isinstance(value, dict)
    return value


def cli_replay(path: Path, *extra: str) -> Result:
    return CliRunner().invoke(cli, ["replay", str(path), *extra])


def one_error_line(result: Result) -> str:
    """The one stderr line of a failed command (no traceback)."""
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("croupier: error: ")
    return lines[0]


def test_the_complete_hand_replays_and_is_finished() -> None:
    result = replay(loads(text(FULL))[0])
    assert result.finished
    assert result.to_act is None
    assert result.final_stacks == [102, 98, 100]
    assert result.problems() == []


# --- point 11: files and fields that used to raise tracebacks -------------------------------


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not UTF-8 text"),
        (bytes(range(256)), "not UTF-8 text"),
        ("variant = 'NT'\n".encode("utf-16"), "UTF-16"),
        ("variant = 'NT'\n".encode("utf-16-be"), "NUL bytes"),
    ],
)
def test_a_binary_or_utf16_file_is_one_error(tmp_path: Path, data: bytes, needle: str) -> None:
    path = tmp_path / "hand.phh"
    path.write_bytes(data)
    with pytest.raises(PHHError, match=needle):
        load(path)
    result = cli_replay(path)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert needle in line
    assert str(path) in line


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.phh"
    path.write_bytes(b"\xef\xbb\xbf" + text(FULL).encode())
    assert replay(load(path)[0]).final_stacks == [102, 98, 100]


@pytest.mark.parametrize(
    ("document", "needle"),
    [
        (text("42"), "actions must be an array of strings, got 42"),
        (text("['p3 f', 7]"), "action 2 must be a string, got 7"),
        (text(["d dh p1 AsKs", "d dh p2 QdQh", "d dh p3 7c2d", "p3 cbr abc"]),
         "action 4 'p3 cbr abc': amount 'abc' is not a number"),
        (text(["p3 cbr 1e5"]), "amount '1e5' is not a number"),
        (text(["p3 cbr -5"]), "amount '-5' is not a number"),
        (text(["p3 cbr"]), "cbr takes 1 argument(s), got 0"),
        (text(["d dh p1"]), "dh takes 2 argument(s), got 1"),
        (text(["d db"]), "db takes 1 argument(s), got 0"),
        (text(["p3 f now"]), "f takes 0 argument(s), got 1"),
        (text([], base=BASE.replace("[0, 0, 0]", "[1.5, 'x', 0]")),
         "antes entry 2 must be a number, got 'x'"),
        (text([], base=BASE.replace("[0, 0, 0]", "[true, 0, 0]")),
         "antes entry 1 must be a number, got True"),
        (text([], base=BASE.replace("[0, 0, 0]", "[-1, 0, 0]")),
         "antes entry 1 must not be negative"),
        (text([], base=BASE.replace("[100, 100, 100]", "[inf, 100, 100]")),
         "starting_stacks entry 1 is Infinity"),
        (text([], base=BASE.replace("[100, 100, 100]", "[100, nan, 100]")),
         "starting_stacks entry 2 is NaN"),
        (text([], base=BASE.replace("[100, 100, 100]", "[100, 0, 100]")),
         "starting stack of p2 must be positive"),
        (text([], base=BASE.replace("[100, 100, 100]", "[100, 100, 100.0000001]")),
         "more than 6 decimal places"),
        (text([], base=BASE.replace("[100, 100, 100]", "100")),
         "starting_stacks must be an array of amounts"),
        (text([], base=BASE.replace("min_bet = 2", "min_bet = 'two'")),
         "min_bet must be a number"),
        (text([], base=BASE.replace("min_bet = 2", "min_bet = 0")), "min_bet must be positive"),
        (text([], extra="finishing_stacks = [100, 'a', 100]\n"),
         "finishing_stacks entry 2 must be a number"),
        (text([], extra="ante_trimming_status = 'yes'\n"), "ante_trimming_status must be true"),
        (text([], extra="_croupier_structure = 'spread-limit'\n_croupier_spread = 5\n"),
         "a croupier field has a bad value"),
    ],
)  # fmt: skip
def test_bad_fields_are_one_clear_error(tmp_path: Path, document: str, needle: str) -> None:
    with pytest.raises(PHHError) as info:
        replay(loads(document, source="bad.phh")[0])
    assert needle in str(info.value)
    assert isinstance(info.value, CroupierError)
    path = tmp_path / "bad.phh"
    path.write_text(document, "utf-8")
    result = cli_replay(path)
    assert result.exit_code == 1
    assert needle in one_error_line(result)


# --- point 10: deals with the wrong number of cards -----------------------------------------


@pytest.mark.parametrize(
    ("actions", "needle"),
    [
        (["d dh p1 AsKsQs", "d dh p2 QdQh", "d dh p3 7c2d", "p3 f", "p1 f"],
         "action 1 'd dh p1 AsKsQs': p1 is dealt 3 card(s); Texas Hold'em deals 2 here"),
        (["d dh p1 As", "d dh p2 QdQh", "d dh p3 7c2d", "p3 f", "p1 f"],
         "p1 is dealt 1 card(s); Texas Hold'em deals 2 here"),
        (["d dh p1 AsKs", "d dh p1 Qs", "d dh p2 QdQh", "d dh p3 7c2d", "p3 f", "p1 f"],
         "p1 is dealt 1 more card(s), but Texas Hold'em has no further deal"),
        (["d dh p1 AsKs", "d dh p2 QdQh", "d dh p3 7c2d", "p3 f", "p1 cc", "p2 cc",
          "d db 2c7h9sTs"], "4 board card(s) dealt; Texas Hold'em deals 3 here"),
    ],
)  # fmt: skip
def test_a_deal_with_the_wrong_number_of_cards_is_refused(
    tmp_path: Path, actions: list[str], needle: str
) -> None:
    with pytest.raises(PHHError) as info:
        replay(loads(text(actions))[0])
    assert needle in str(info.value)
    path = tmp_path / "deal.phh"
    path.write_text(text(actions), "utf-8")
    result = cli_replay(path)
    assert result.exit_code == 1
    assert needle in one_error_line(result)


def test_omaha_and_stud_deals_are_counted_by_their_game() -> None:
    omaha = BASE.replace("'NT'", "'PO'")
    short = ["d dh p1 AsKsQsJs", "d dh p2 QdQhTd9d", "d dh p3 7c2d", "p3 f"]
    with pytest.raises(PHHError, match="p3 is dealt 2 card\\(s\\); Omaha deals 4 here"):
        replay(loads(text(short, base=omaha))[0])
    stud = (
        "variant = 'F7S'\nantes = [1, 1]\nbring_in = 2\nsmall_bet = 4\nbig_bet = 8\n"
        "starting_stacks = [100, 100]\n"
    )
    dealt = ["d dh p1 As2d3c4h", "d dh p2 KsKd5c"]
    with pytest.raises(PHHError, match="p1 is dealt 4 card\\(s\\); Seven Card Stud deals 3"):
        replay(loads(text(dealt, base=stud))[0])


# --- point 10: unfinished records and finishing_stacks --------------------------------------


@pytest.mark.parametrize(
    ("actions", "to_act", "pot"),
    [
        ([], "p3", 3),  # no actions at all: the blinds are in, p3 is first to act
        (["d dh p1 AsKs", "d dh p2 QdQh", "d dh p3 7c2d", "p3 f", "p1 cc"], "p2", 4),
    ],
)
def test_an_unfinished_record_is_reported_as_unfinished(
    tmp_path: Path, actions: list[str], to_act: str, pot: int
) -> None:
    result = replay(loads(text(actions))[0])
    assert not result.finished
    assert result.to_act == to_act
    assert result.problems() == [f"the hand is unfinished: the record stops with {to_act} to act"]
    path = tmp_path / "short.phh"
    path.write_text(text(actions), "utf-8")
    plain = cli_replay(path)
    assert plain.exit_code == 1
    assert "final stacks" not in plain.stdout
    assert f"unfinished, {to_act} to act" in plain.stdout
    assert "unfinished" in one_error_line(plain)
    as_json = cli_replay(path, "--json")
    assert as_json.exit_code == 1
    record = strict_json(as_json.stdout)
    assert record["finished"] is False
    assert record["to_act"] == to_act
    assert "final_stacks" not in record
    assert record["pot"] == pot
    assert "unfinished" in str(record["error"])


def test_lenient_reports_an_unfinished_record_without_failing(tmp_path: Path) -> None:
    path = tmp_path / "short.phh"
    path.write_text(text([]), "utf-8")
    result = cli_replay(path, "--lenient", "--json")
    assert result.exit_code == 0
    record = strict_json(result.stdout)
    assert record["finished"] is False
    assert "unfinished" in str(record["warning"])
    assert "croupier: warning:" in result.stderr


def test_recorded_finishing_stacks_are_compared(tmp_path: Path) -> None:
    good = text(FULL, extra="finishing_stacks = [102, 98, 100]\n")
    assert replay(loads(good)[0]).matches_recorded is True
    path = tmp_path / "good.phh"
    path.write_text(good, "utf-8")
    ok = cli_replay(path, "--json")
    assert ok.exit_code == 0
    assert strict_json(ok.stdout)["matches_recorded"] is True

    bad = text(FULL, extra="finishing_stacks = [98, 102, 100]\n")
    result = replay(loads(bad)[0])
    assert result.matches_recorded is False
    path.write_text(bad, "utf-8")
    plain = cli_replay(path)
    assert plain.exit_code == 1
    line = one_error_line(plain)
    assert "ends with stacks 102 98 100" in line
    assert "finishing_stacks 98 102 100" in line
    as_json = cli_replay(path, "--json")
    assert as_json.exit_code == 1
    record = strict_json(as_json.stdout)
    assert record["matches_recorded"] is False
    assert record["final_stacks"] == [102, 98, 100]
    lenient = cli_replay(path, "--lenient")  # a mismatch is never excused
    assert lenient.exit_code == 1


def test_decimal_finishing_stacks_compare_exactly() -> None:
    base = BASE.replace("[100, 100, 100]", "[100.50, 100, 100]")
    hand = text(["p3 f", "p1 f"], base=base, extra="finishing_stacks = [99.5, 101, 100]\n")
    result = replay(loads(hand)[0])
    assert result.final_stacks == [pytest.approx(99.5), 101, 100]
    assert result.matches_recorded is True
