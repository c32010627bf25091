"""Exact infinite-deck analysis against published figures."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.blackjack.analysis import Analysis, dealer_outcomes, house_edge, insurance_ev
from croupier.blackjack.rules import NZ, DealerBlackjackTakes, HoleCard


@pytest.mark.parametrize(("up", "bust"), [(7, 26.23), (8, 24.47), (9, 22.84)])
def test_dealer_bust_by_upcard_matches_the_printed_figures(up: int, bust: float) -> None:
    assert round(dealer_outcomes(up)["bust"] * 100, 2) == bust


def test_ten_and_ace_up_match_the_published_infinite_deck_table() -> None:
    # Wizard of Odds, infinite deck S17: bust 0.212109 (ten up), 0.115286 (ace up)
    assert round(dealer_outcomes(10)["bust"], 6) == 0.212109
    assert round(dealer_outcomes(1)["bust"], 6) == 0.115286


@pytest.mark.parametrize(("up", "bj"), [(10, 7.69), (1, 30.77)])
def test_dealer_blackjack_chances(up: int, bj: float) -> None:
    assert round(dealer_outcomes(up)["blackjack"] * 100, 2) == bj


def test_outcomes_sum_to_one_and_peek_removes_blackjack() -> None:
    for up in range(1, 11):
        for h17 in (False, True):
            assert abs(sum(dealer_outcomes(up, hits_soft_17=h17).values()) - 1) < 1e-12
            assert dealer_outcomes(up, hits_soft_17=h17, peek=True)["blackjack"] == 0


def test_griffin_player_expectation_within_a_ten_thousandth_of_a_point() -> None:
    rules = NZ.with_(hole_card=HoleCard.PEEK, double_after_split=False, max_hands=2)
    assert abs(Analysis(rules).house_edge() * 100 - -0.690223) < 0.0001


def test_insurance_expectations() -> None:
    assert insurance_ev() == Fraction(-1, 13)
    assert insurance_ev(decks=6) == Fraction(-23, 311)


@pytest.mark.rule("Decision 3.1-3")
def test_no_hole_card_with_original_bets_only_equals_a_peek_game() -> None:
    # a dealer blackjack under NHC takes only the original wager: the same as peeking
    assert abs(house_edge(NZ) - house_edge(NZ.with_(hole_card=HoleCard.PEEK))) < 1e-12


@pytest.mark.rule("Blackjack 11.7")
def test_losing_split_and_double_stakes_to_a_dealer_blackjack_costs_the_player() -> None:
    european = NZ.with_(
        dealer_blackjack_takes_splits=DealerBlackjackTakes.ALL,
        dealer_blackjack_takes_doubles=DealerBlackjackTakes.ALL,
    )
    assert house_edge(european) < house_edge(NZ)


def test_basic_strategy_landmarks() -> None:
    nz = Analysis(NZ)
    assert nz.best(10, 6, 10)[0] == "hit"  # hard 16 against a ten
    assert nz.best(6, 5, 6)[0] == "double"  # 11 against a six
    assert nz.best(1, 1, 6)[0] == "split"  # aces
    assert nz.best(10, 10, 6)[0] == "stand"  # twenty
    assert nz.best(10, 2, 4)[0] == "stand"  # 12 against a four
    assert "stand" not in nz.options(6, 5, 6)  # 12.1(d): no stand on 11 or less


def test_h17_costs_the_player() -> None:
    assert house_edge(NZ.with_(dealer_hits_soft_17=True)) < house_edge(NZ)
