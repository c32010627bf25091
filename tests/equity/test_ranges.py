"""Hand ranges: the PokerStove / Equilab syntax, exact weights, card removal, the canonical
text and its round trip, one-line errors, and a fuzz of the parser."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card, parse_cards
from croupier.equity import Combo, HandRange, RangeParseError
from croupier.errors import CroupierError


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("QQ+", 18),
        ("AKs", 4),
        ("AKo", 12),
        ("AK", 16),
        ("A5s-A2s", 16),
        ("A2s-A5s", 16),
        ("random", 1326),
        ("any", 1326),
        ("100%", 1326),
        ("22+", 78),
        ("55-22", 24),
        ("22-55", 24),
        ("KTs+", 12),
        ("K9o+", 48),
        ("AsKs", 1),
        ("As Ks", 1),
        ("QQ+, AKs", 22),
        ("AA, AKs:0.5, 72o:0.25", 6 + 4 + 12),
        ("A2+", 12 * 16),
        ("KK-KK", 6),
        ("T9s-T9s", 4),
        ("109s", 4),
        ("10h 9h", 1),
    ],
)
def test_combo_counts(text: str, count: int) -> None:
    assert len(HandRange(text)) == count


def cards_of(r: HandRange) -> set[tuple[str, str]]:
    return {(str(a), str(b)) for (a, b), _ in r.combos}


def test_the_classes_hold_the_right_cards() -> None:
    assert cards_of(HandRange("KTs+")) == {(f"K{s}", f"{k}{s}") for k in "TJQ" for s in "shdc"}
    assert cards_of(HandRange("A5s-A2s")) == cards_of(HandRange("A5s, A4s, A3s, A2s"))
    assert cards_of(HandRange("K9o+")) == cards_of(HandRange("K9o, KTo, KJo, KQo"))
    assert cards_of(HandRange("QQ+")) == cards_of(HandRange("QQ, KK, AA"))
    assert cards_of(HandRange("AK")) == cards_of(HandRange("AKs")) | cards_of(HandRange("AKo"))
    offsuit = HandRange("AKo")
    assert all(a.suit != b.suit for (a, b), _ in offsuit.combos)
    assert all(a.rank == b.rank for (a, b), _ in HandRange("22+").combos)


def test_combos_come_higher_card_first_with_exact_weights() -> None:
    r = HandRange("AsKs:0.125, Kd Ah")
    assert r.combos == (
        Combo((Card.parse("As"), Card.parse("Ks")), Fraction(1, 8)),
        Combo((Card.parse("Ah"), Card.parse("Kd")), Fraction(1)),
    )
    assert all(isinstance(w, Fraction) for _, w in r.combos)
    assert HandRange("AK:0.333333").weight("As Kd") == Fraction(333333, 1000000)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QQ+, AKs", "QQ+, AKs"),
        ("AKs, QQ+", "QQ+, AKs"),
        ("AKs, AKo", "AK"),
        ("22-55", "55-22"),
        ("AA", "AA"),
        ("AA, KK", "KK+"),
        ("KK, QQ", "KK-QQ"),
        ("KQs, KJs, KTs", "KTs+"),
        ("A5s, A4s, A3s, A2s", "A5s-A2s"),
        ("ATs+, AKo", "ATs+, AKo"),
        ("ATs+, AJo+", "ATs+, AJo+"),
        ("AK+", "AK"),
        ("Ks Kh", "KsKh"),
        ("random", "random"),
        ("any:0.5", "random:0.5"),
        ("qq+ , aks : 0.5", "QQ+, AKs:0.5"),
        ("QQ:0.5, KK, AA:0.5", "AA:0.5, KK, QQ:0.5"),
        ("AKs:1.0", "AKs"),
        ("AKs:.25", "AKs:0.25"),
    ],
)
def test_canonical_text(text: str, canonical: str) -> None:
    assert str(HandRange(text)) == canonical
    assert HandRange(canonical) == HandRange(text)


def test_a_partial_class_is_written_combo_by_combo() -> None:
    assert str(HandRange("AKs").without("Ah")) == "AsKs, AdKd, AcKc"
    assert str(HandRange("QQ+").without("As")) == "KK-QQ, AhAd, AhAc, AdAc"


def test_card_removal() -> None:
    r = HandRange("QQ+, AKs")
    assert len(r.without("As")) == 18 - 3 + 3
    assert len(r.without("As Kh Qd")) == 3 + 3 + 3 + 2
    assert len(r.without([])) == len(r)
    assert len(HandRange("AsKs").without(parse_cards("Ks"))) == 0
    assert r.without("As") != r
    assert r == HandRange("AKs, AA, KK, QQ")
    assert len({r, HandRange("AKs, QQ+")}) == 1


def test_str_round_trips_every_pair_and_class() -> None:
    ranks = "23456789TJQKA"
    for high, low in itertools.combinations_with_replacement(reversed(ranks), 2):
        kinds = [""] if high == low else ["", "s", "o"]
        for kind in kinds:
            for plus in ("", "+"):
                r = HandRange(f"{high}{low}{kind}{plus}")
                assert HandRange(str(r)) == r, (high, low, kind, plus, str(r))


PAIRS = list(itertools.combinations(range(52), 2))
WEIGHTS = st.sampled_from(["1", "0.5", "0.25", "0.3", "0.000001"])


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.integers(0, len(PAIRS) - 1), WEIGHTS, min_size=1, max_size=400))
def test_any_range_round_trips_through_its_text(chosen: dict[int, str]) -> None:
    parts = [f"{Card(PAIRS[i][1])}{Card(PAIRS[i][0])}:{w}" for i, w in chosen.items()]
    built = HandRange(", ".join(parts))
    assert len(built) == len(chosen)
    assert HandRange(str(built)) == built
    for i, w in chosen.items():
        assert built.weight([Card(PAIRS[i][0]), Card(PAIRS[i][1])]) == Fraction(w)


def parsed_or_error(text: str) -> HandRange | str:
    """The range, or the message of the CroupierError it raised (anything else propagates)."""
    try:
        return HandRange(text)
    except CroupierError as err:
        return str(err)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="AKQJT98765432scdhox+-:,. 0%randomy\t", max_size=30))
def test_the_parser_raises_only_croupier_errors(text: str) -> None:
    r = parsed_or_error(text)
    if isinstance(r, str):
        assert "\n" not in r
    else:
        assert len(r) >= 1
        assert HandRange(str(r)) == r


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=20))
def test_arbitrary_text_raises_only_croupier_errors(text: str) -> None:
    r = parsed_or_error(text)
    assert isinstance(r, str) or HandRange(str(r)) == r


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ("AKx", ["'AKx'", "s (suited), o (offsuit)"]),
        ("QQ-AKs", ["'QQ-AKs'", "two pairs (55-22)"]),
        ("A2s-K5s", ["'A2s-K5s'", "same top card (A vs K)"]),
        ("AKs-AQo", ["'AKs-AQo'", "same kind"]),
        ("AKs:0", ["'AKs:0'", "greater than 0 and at most 1"]),
        ("AKs:1.5", ["'AKs:1.5'", "greater than 0 and at most 1"]),
        ("AKs:-0.5", ["'AKs:-0.5'", "a decimal"]),
        ("AKs:half", ["'AKs:half'", "a decimal"]),
        ("AKs:1e-1", ["'AKs:1e-1'", "a decimal"]),
        ("AKs:0.1234567", ["at most 6 decimal places"]),
        ("AKs:0.5:0.5", ["one weight per part"]),
        ("", ["empty range"]),
        ("   ", ["empty range"]),
        ("QQ,,AK", ["empty part"]),
        ("QQ+,", ["empty part"]),
        ("QQ+ AKs", ["'QQ+ AKs'", "commas"]),
        ("KAs", ["'KAs'", "higher rank first: AKs"]),
        ("AAs", ["'AAs'", "neither suited nor offsuit"]),
        ("As", ["'As'", "1 card"]),
        ("AsKsQd", ["3 cards"]),
        ("AsKsQdJd", ["4 cards", "Omaha takes exact hands"]),
        ("AsAs", ["'AsAs'", "duplicate card As"]),
        ("AsKx", ["'AsKx'", "suit 'x'"]),
        ("50%", ["'50%'", "only percentage range is 100%"]),
        ("QQ+-JJ", ["takes no +"]),
        ("AsKs-AhKh", ["not combos"]),
        ("QQ-", ["two ends"]),
        ("QQ-AKx", ["each end of a span"]),
        ("hello", ["'hello'", "expected a hand such as AKs"]),
        (":0.5", ["no hand before the weight"]),
        ("AKs, AsKs", ["combo AsKs is listed twice, by 'AKs' and by 'AsKs'"]),
        ("random, 72o", ["listed twice", "by 'random' and by '72o'"]),
    ],
)
def test_bad_ranges_give_one_line_errors(text: str, needles: list[str]) -> None:
    with pytest.raises(RangeParseError) as exc:
        HandRange(text)
    message = str(exc.value)
    assert "\n" not in message
    for needle in needles:
        assert needle in message


@pytest.mark.parametrize("value", [None, 42, ["AKs"], b"AKs"])
def test_a_range_must_be_text(value: object) -> None:
    with pytest.raises(RangeParseError, match="a range must be text"):
        HandRange(value)  # type: ignore[arg-type]


def test_weight_of_a_combo_checks_its_cards() -> None:
    r = HandRange("AKs:0.5")
    assert r.weight("Ks As") == Fraction(1, 2)
    with pytest.raises(RangeParseError, match="two cards"):
        r.weight("As")
    assert repr(r) == "HandRange('AKs:0.5')"
    assert list(r) == list(r.combos)
