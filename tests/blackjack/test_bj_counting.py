"""Issue 29, point 1: counting systems as data, running and true counts.

The counts are checked by counting real shuffled shoes of cards (``croupier.cards``), against
what a full deck must add up to (zero for a balanced system, the published imbalance for KO
and Red 7) and against the cards left (a balanced count of the cards seen is minus the
count of the cards left).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.blackjack.math.counting import (
    SYSTEMS,
    VALUES,
    Count,
    CountingSystem,
    counting_system,
    load_system,
)
from croupier.blackjack.values import card_value
from croupier.cards.card import Card, Suit
from croupier.errors import CroupierError

NAMES = ("hi-lo", "ko", "hi-opt-1", "hi-opt-2", "omega-2", "zen", "halves", "red-7")
"""The command-line names the issue asks for."""


def full_shoe(decks: int, seed: int) -> list[Card]:
    cards = [Card(i) for i in range(52)] * decks
    random.Random(seed).shuffle(cards)
    return cards


def test_the_issue_systems_are_built_in_under_their_names() -> None:
    assert tuple(SYSTEMS) == NAMES
    names = {key: s.name for key, s in SYSTEMS.items()}
    assert names["halves"] == "Wong Halves"
    assert names["red-7"] == "Red 7"
    for system in SYSTEMS.values():
        assert system.reference, system.key
        assert set(system.published) == {
            "betting_correlation",
            "playing_efficiency",
            "insurance_correlation",
        }


@pytest.mark.parametrize("key", NAMES)
def test_a_whole_shoe_counts_to_the_systems_imbalance(key: str) -> None:
    system = SYSTEMS[key]
    for decks in (1, 6):
        count = Count(system, decks=decks)
        count.see(full_shoe(decks, seed=decks))
        end = system.initial_running_count(decks) + system.imbalance * decks
        assert count.running == pytest.approx(end, abs=1e-9)
        assert count.cards_seen == 52 * decks
        assert count.aces_seen == 4 * decks
    # the published facts: six balanced systems; KO +4 a deck from 4 - 4 x decks (it ends a
    # shoe on +4, its pivot), Red 7 +2 a deck from -2 x decks (it ends on 0)
    balanced = {k for k, s in SYSTEMS.items() if s.balanced}
    assert balanced == set(NAMES) - {"ko", "red-7"}
    assert (SYSTEMS["ko"].imbalance, SYSTEMS["red-7"].imbalance) == (4.0, 2.0)
    for decks in (1, 2, 6, 8):
        assert SYSTEMS["ko"].initial_running_count(decks) + 4 * decks == 4
        assert SYSTEMS["red-7"].initial_running_count(decks) + 2 * decks == 0


def test_red_7_counts_red_sevens_only() -> None:
    red7 = counting_system("red-7")
    sevens = [Card.parse(f"7{s}") for s in "cdhs"]
    assert [red7.tag(c) for c in sevens] == [0.0, 1.0, 1.0, 0.0]
    assert red7.tags[6] == 0.5  # what the colour-blind analysis uses
    others = [Card(i) for i in range(52) if card_value(Card(i)) != 7]
    assert all(red7.tag(c) == counting_system("hi-lo").tag(c) for c in others)


@settings(max_examples=60, deadline=None)
@given(
    key=st.sampled_from(NAMES),
    decks=st.integers(1, 8),
    seed=st.integers(0, 10_000),
    share=st.floats(0.01, 0.99),
)
def test_counts_of_cards_seen_and_left_agree(key: str, decks: int, seed: int, share: float) -> None:
    system = SYSTEMS[key]
    cards = full_shoe(decks, seed)
    cut = max(1, int(share * len(cards)))
    seen, left = cards[:cut], cards[cut:]
    count = Count(system, decks=decks)
    count.see(seen)
    # the running count is the tags of the cards seen, from the initial running count
    tags_seen = sum(system.tag(c) for c in seen)
    assert count.running == pytest.approx(system.initial_running_count(decks) + tags_seen)
    # the count of the cards seen and of the cards left make the whole shoe's
    tags_left = sum(system.tag(c) for c in left)
    assert tags_seen + tags_left == pytest.approx(system.imbalance * decks)
    # true count: per deck left; balanced-equivalent (minus what the cards seen add on average)
    decks_left = len(left) / 52
    assert count.decks_remaining == pytest.approx(decks_left)
    expected = (tags_seen - system.imbalance * len(seen) / 52) / decks_left
    assert count.true == pytest.approx(expected)
    if system.balanced:
        assert count.true == pytest.approx(-tags_left / decks_left)
    # the betting count adjusts by the side count's multiple for each ace short
    aces = sum(card_value(c) == 1 for c in seen)
    assert count.aces_seen == aces
    assert count.betting == pytest.approx(
        count.running + system.ace_side_count * (len(seen) / 13 - aces)
    )


def test_a_count_refuses_more_cards_than_the_shoe_and_bad_decks() -> None:
    count = Count(counting_system("hi-lo"), decks=1)
    count.see(full_shoe(1, seed=3))
    with pytest.raises(CroupierError, match="52 cards: 53 seen"):
        count.see("As")
    assert count.running == 0.0  # refused whole: nothing counted
    for bad in (0, -1, True, 1.5):
        with pytest.raises(CroupierError, match="decks is a whole number"):
            Count(counting_system("hi-lo"), decks=bad)  # type: ignore[arg-type]


def test_betting_tags_spread_the_side_count_over_the_cards() -> None:
    """The side count's adjustment is the same as tagging an ace -k*12/13 and every other
    card +k/13: over any cards, the betting count moves by the betting tags."""
    hi_opt_2 = counting_system("hi-opt-2")
    cards = full_shoe(2, seed=11)[:40]
    count = Count(hi_opt_2, decks=2)
    count.see(cards)
    moved = sum(hi_opt_2.betting_tags[card_value(c) - 1] for c in cards)
    assert count.betting == pytest.approx(moved)
    assert counting_system("hi-lo").betting_tags == counting_system("hi-lo").tags


# ------------------------------------------------------------- TOML files
def write(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


HI_LO_TAGS = "A = -1\n2 = 1\n3 = 1\n4 = 1\n5 = 1\n6 = 1\n7 = 0\n8 = 0\n9 = 0\n"


def test_a_system_file_reads_like_the_built_in_ones(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'name = "Sevens"\nace_side_count = 1.5\n[tags]\n'
        + HI_LO_TAGS.replace("7 = 0", "7 = { red = 1, black = -1 }")
        + "10 = -1\n[initial_running_count]\noffset = 2\nper_deck = -1\n",
        "sevens.toml",
    )
    system = counting_system(str(path))
    assert isinstance(system, CountingSystem)
    assert (system.name, system.key, system.ace_side_count) == ("Sevens", "sevens", 1.5)
    assert system.tags == counting_system("hi-lo").tags  # a red +1 and a black -1 average 0
    assert system.balanced
    assert system.initial_running_count(6) == -4.0
    assert system.tag(Card.of(Card.parse("7s").rank, Suit.HEARTS)) == 1.0
    assert "7 +1 red / -1 black" in system.describe()


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[tags]\n" + HI_LO_TAGS, "no tag for T"),
        ("[tags]\n" + HI_LO_TAGS + "T = -1\n10 = -1\n", "given twice"),
        ("[tags]\n" + HI_LO_TAGS + "T = -1\nJ = -1\n", "unknown card value(s) J"),
        ("[tags]\n" + HI_LO_TAGS + 'T = "minus one"\n', "must be a number"),
        ("[tags]\n" + HI_LO_TAGS + "T = true\n", "must be a number"),
        ("[tags]\n" + HI_LO_TAGS + "T = 1e9\n", "out of range"),
        ("[tags]\n" + HI_LO_TAGS.replace("7 = 0", "7 = { red = 1 }") + "T = -1\n", "by colour"),
        ("colour = 1\n[tags]\n" + HI_LO_TAGS + "T = -1\n", "unknown field(s) colour"),
        ("name = 3\n[tags]\n" + HI_LO_TAGS + "T = -1\n", "name must be"),
        ("tags = 3\n", "a [tags] table is needed"),
        ("[tags\nA = 1", "not valid TOML"),
        ("[tags]\n" + "".join(f"{v} = 0\n" for v in VALUES), "every tag is zero"),
        (
            "[initial_running_count]\nstart = 1\n[tags]\n" + HI_LO_TAGS + "T = -1\n",
            "offset and per_deck",
        ),
    ],
)
def test_a_bad_system_file_is_refused_saying_why(tmp_path: Path, text: str, needle: str) -> None:
    with pytest.raises(CroupierError, match=None) as err:
        load_system(write(tmp_path, text))
    assert needle in str(err.value)
    assert str(err.value).startswith("mine.toml")


def test_missing_files_and_unknown_names_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CroupierError, match="no counting system file"):
        counting_system(str(tmp_path / "absent.toml"))
    with pytest.raises(CroupierError, match="is a folder"):
        load_system(tmp_path)
    with pytest.raises(CroupierError, match="built in: hi-lo, ko"):
        counting_system("canfield")
    assert counting_system(" HI-LO ") is SYSTEMS["hi-lo"]
