"""Exact infinite-deck analysis against published figures."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.blackjack.math.analysis import Analysis, dealer_outcomes, house_edge, insurance_ev
from croupier.blackjack.rules import NZ, DealerBlackjackTakes, HoleCard


@pytest.mark.parametrize(("up", "bust"), [(7, 26.23), (8, 24.47), (9, 22.84)])
def test_dealer_bust_by_upcard_matches_the_printed_figures(up: int, bust: float) -> None:
    assert round(dealer_outcomes(up)["bust"] * 100, 2) == bust
    assert round(Analysis(NZ, decks="inf").dealer(up)["bust"] * 100, 2) == bust


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
            peeked = dealer_outcomes(up, hits_soft_17=h17, peek=True)
            assert peeked["blackjack"] == 0
            assert abs(sum(peeked.values()) - 1) < 1e-12


def test_griffin_player_expectation_within_a_ten_thousandth_of_a_point() -> None:
    rules = NZ.with_(hole_card=HoleCard.PEEK, double_after_split=False, max_hands=2)
    analysis = Analysis(rules, decks="inf")
    assert abs(analysis.expectation() * 100 - -0.690223) < 0.0001
    assert analysis.house_edge() == -analysis.expectation()


def test_insurance_expectations() -> None:
    assert insurance_ev() == Fraction(-1, 13)
    assert insurance_ev(decks=6) == Fraction(-23, 311)


@pytest.mark.rule("Decision 3.1-3")
def test_no_hole_card_with_original_bets_only_costs_slightly_more_than_a_peek_game() -> None:
    # A no-hole-card dealer blackjack takes only the original wager from a standing hand,
    # but a doubled or split hand that busted has already lost its added stake in full
    # before the blackjack is seen: a little worse for the player than peeking.
    nhc = Analysis(NZ, decks="inf").expectation()
    peek = Analysis(NZ.with_(hole_card=HoleCard.PEEK), decks="inf").expectation()
    assert nhc < peek
    assert peek - nhc < 0.0005  # within 0.05 percentage points


@pytest.mark.rule("Blackjack 11.7")
def test_losing_split_and_double_stakes_to_a_dealer_blackjack_costs_the_player() -> None:
    european = NZ.with_(
        dealer_blackjack_takes_splits=DealerBlackjackTakes.ALL,
        dealer_blackjack_takes_doubles=DealerBlackjackTakes.ALL,
    )
    assert house_edge(european) > house_edge(NZ)
    assert house_edge(european, decks="inf") > house_edge(NZ, decks="inf")


def test_basic_strategy_landmarks() -> None:
    nz = Analysis(NZ)
    assert nz.best(10, 6, 10)[0] == "hit"  # hard 16 against a ten
    assert nz.best(6, 5, 6)[0] == "double"  # 11 against a six
    assert nz.best(1, 1, 6)[0] == "split"  # aces
    assert nz.best(10, 10, 6)[0] == "stand"  # twenty
    assert nz.best(7, 5, 4)[0] == "stand"  # 12 against a four
    assert nz.basic_strategy().code("hard", 12, 4) == "S"
    # composition-dependent: off the top of six decks 10,2 v 4 gains by hitting (a ten
    # gone from the shoe)
    assert nz.best(10, 2, 4)[0] == "hit"
    assert Analysis(NZ, decks="inf").best(10, 2, 4)[0] == "stand"
    assert "stand" not in nz.options(6, 5, 6)  # 12.1(d): no stand on 11 or less
    assert nz.best(1, 10, 6) == ("blackjack", 1.5)  # a natural against a six is paid 3:2


def test_h17_costs_the_player() -> None:
    assert house_edge(NZ.with_(dealer_hits_soft_17=True)) > house_edge(NZ)
    assert house_edge(NZ.with_(dealer_hits_soft_17=True), decks="inf") > house_edge(NZ, decks="inf")
