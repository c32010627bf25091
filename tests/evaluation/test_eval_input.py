"""Issue 10, point 15 (fuzz findings): ``evaluate`` reads a ranking given by name and a
``board=None`` as no board, and refuses anything else with a one-line CroupierError."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.errors import CardParseError, CroupierError
from croupier.evaluation import (
    EXACTLY_TWO_PLUS_THREE,
    STANDARD,
    STRIPPED,
    evaluate,
    evaluate_omaha,
    rank_cards,
)
from croupier.evaluation.rankings import as_ranking, ranking_by_name


@pytest.mark.parametrize(("name", "ranking"), [("standard", STANDARD), ("stripped", STRIPPED)])
def test_a_ranking_given_by_name_is_that_ranking(name: str, ranking: Any) -> None:
    hand = "Ah 7d 8c 9s Th"
    assert evaluate(hand, ranking=name) == evaluate(hand, ranking=ranking)
    assert rank_cards(hand, ranking=name) == rank_cards(hand, ranking=ranking)
    assert as_ranking(name) is ranking
    assert as_ranking(ranking) is ranking


def test_the_stripped_ranking_by_name_ranks_a_flush_over_a_full_house() -> None:
    flush = evaluate("Ah Jh 9h 8h 7h", ranking="stripped")
    full_house = evaluate("Ah Ad As Kc Kd", ranking="stripped")
    assert flush > full_house
    assert evaluate_omaha("Ah Kh 7c 8d", "Qh Jh 9h 9s 9c", ranking="stripped").describe() == (
        "Flush, ace high"
    )


@pytest.mark.parametrize("ranking", ["short", "STANDARD ", "", None, 52, [], object()])
def test_an_unknown_ranking_is_refused_with_the_names(ranking: Any) -> None:
    with pytest.raises(CroupierError, match="'standard', 'stripped'") as exc:
        evaluate("As Ks Qs Js Ts", ranking=ranking)
    assert "\n" not in str(exc.value)
    with pytest.raises(CroupierError, match="'standard', 'stripped'"):
        rank_cards("As Ks Qs Js Ts", ranking=ranking)


def test_ranking_by_name_is_a_croupier_error_and_still_a_value_error() -> None:
    with pytest.raises(CroupierError):
        ranking_by_name("short")
    with pytest.raises(ValueError, match="unknown hand ranking"):
        ranking_by_name("short")


def test_board_none_means_no_board() -> None:
    assert evaluate("As Ks Qs Js Ts", board=None) == evaluate("As Ks Qs Js Ts")
    assert evaluate("As Ks Qs Js Ts", None).describe() == "Royal flush"
    assert evaluate("As Ks Qs Js Ts", board=None).board == ()


@pytest.mark.parametrize(("own", "board"), [("As Ks", 42), (None, "Qs Js Ts"), (["As", 1], ())])
def test_cards_of_the_wrong_kind_are_a_card_parse_error(own: Any, board: Any) -> None:
    with pytest.raises(CardParseError):
        evaluate(own, board=board)


@pytest.mark.parametrize("omaha", [1, 0, "yes", None])
def test_omaha_is_true_or_false(omaha: Any) -> None:
    with pytest.raises(CroupierError, match="omaha must be True or False"):
        evaluate("Ah Kh 2c 3d", board="Qh Jh 5h 9s 9c", omaha=omaha)


def test_a_composition_must_be_a_composition() -> None:
    with pytest.raises(CroupierError, match="composition must be a Composition"):
        evaluate("Ah Kh 2c 3d", board="Qh Jh 5h 9s 9c", composition="2+3")  # type: ignore[arg-type]
    value = evaluate("Ah Kh 2c 3d", board="Qh Jh 5h 9s 9c", composition=EXACTLY_TWO_PLUS_THREE)
    assert value.describe() == "Flush, ace high"
