"""Equity: exact enumeration, Monte-Carlo, and input errors."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from croupier.cards import Card, parse_cards
from croupier.equity import EquityGame, equity
from croupier.errors import DuplicateCardError, HandSizeError
from croupier.evaluation import evaluate, evaluate_omaha


def brute_force(hands: list[str], board: str, omaha: bool) -> list[Fraction]:
    """Equity by evaluating every completion with the one-call evaluator (independent path)."""
    parsed = [parse_cards(h) for h in hands]
    known = parse_cards(board)
    used = {c for h in parsed for c in h} | set(known)
    rest = [Card(i) for i in range(52) if Card(i) not in used]
    shares = [Fraction(0)] * len(hands)
    total = 0
    for extra in itertools.combinations(rest, 5 - len(known)):
        full = known + extra
        values = [(evaluate_omaha(h, full) if omaha else evaluate(h, full)).rank for h in parsed]
        best = max(values)
        winners = [i for i, v in enumerate(values) if v == best]
        for i in winners:
            shares[i] += Fraction(1, len(winners))
        total += 1
    return [s / total for s in shares]


def test_aks_vs_qq_preflop_matches_published_figures() -> None:
    result = equity(["As Ks", "Qd Qh"])
    aks, qq = result.hands
    assert result.exact
    assert result.trials == 1_712_304
    assert round(float(aks.win) * 100, 3) == 46.018
    assert round(float(aks.tie) * 100, 3) == 0.393
    assert round(float(aks.equity) * 100, 4) == 46.2145
    assert aks.wins + qq.wins + aks.ties == result.trials  # two hands: ties are shared boards
    assert aks.equity + qq.equity == 1


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["As Ks", "Qd Qh"], "Qs Js 2c"),
        (["Ah Kh", "7c 7d", "Ts 9s"], "2h 7h Jd"),
        (["As Ad", "Ks Kd"], "Ac Kc 5c 9h"),
        (["5c 4c", "5d 4d"], "Ah 2s 3h"),  # lots of split pots
    ],
)
def test_holdem_exact_equals_brute_force(hands: list[str], board: str) -> None:
    result = equity(hands, board=board)
    assert [h.equity for h in result.hands] == brute_force(hands, board, omaha=False)


@pytest.mark.rule("Omaha 17.5(d)")
def test_omaha_exact_equals_brute_force_with_exactly_two_plus_three() -> None:
    hands = ["As Ah Ks Qs", "Jh Th 9c 8c"]
    board = "Js Ts 2s"
    result = equity(hands, board=board, game="omaha")
    assert [h.equity for h in result.hands] == brute_force(hands, board, omaha=True)
    assert result.trials == 820  # C(41, 2): 52 cards less 8 hole and 3 board


def test_three_way_ties_are_split_in_thirds() -> None:
    result = equity(["2c 3c", "2d 3d", "2h 3h"], board="As Ks Qs Js Ts")
    assert result.trials == 1
    assert [h.equity for h in result.hands] == [Fraction(1, 3)] * 3
    assert all(h.ties == 1 and h.wins == 0 for h in result.hands)


def test_monte_carlo_is_within_four_standard_errors_and_replayable() -> None:
    exact = equity(["As Ks", "Qd Qh"])
    sampled = equity(["As Ks", "Qd Qh"], samples=200_000, seed=11)
    again = equity(["As Ks", "Qd Qh"], samples=200_000, seed=11)
    assert not sampled.exact
    assert sampled.trials == 200_000
    for e, s in zip(exact.hands, sampled.hands, strict=True):
        assert s.stderr is not None
        assert 0 < s.stderr < 0.005
        assert abs(float(e.equity) - float(s.equity)) < 4 * s.stderr
    assert [h.wins for h in sampled.hands] == [h.wins for h in again.hands]


def test_omaha_monte_carlo_agrees_with_exact() -> None:
    hands = ["As Ks Qd Jd", "Qh Qc 2s 3s"]
    exact = equity(hands, board="Td 9h 4c", game=EquityGame.OMAHA)
    sampled = equity(hands, board="Td 9h 4c", game="omaha", samples=50_000, seed=5)
    for e, s in zip(exact.hands, sampled.hands, strict=True):
        assert s.stderr is not None
        assert abs(float(e.equity) - float(s.equity)) < 4 * s.stderr


def test_complete_board_needs_no_sampling() -> None:
    result = equity(["As Ks", "Qd Qh"], board="2c 7d 9h Jc 3s", samples=1000)
    assert result.exact
    assert result.trials == 1


def test_progress_callback_reaches_the_total() -> None:
    seen: list[tuple[int, int]] = []
    equity(["As Ks", "Qd Qh"], board="2c 7d", progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (seen[-1][1], seen[-1][1])
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


@pytest.mark.parametrize(
    ("hands", "board", "game", "error", "text"),
    [
        (["As Ks", "As Qh"], "", "holdem", DuplicateCardError, "As appears twice"),
        (["As Ks", "Qd Qh"], "Ks 2c 3d", "holdem", DuplicateCardError, "Ks appears twice"),
        (["As Ks Qd", "Qh Jh"], "", "holdem", HandSizeError, "holdem hands have 2"),
        (["As Ks", "Qd Qh"], "", "omaha", HandSizeError, "omaha hands have 4"),
        (["As Ks"], "", "holdem", HandSizeError, "at least two hands"),
        (["As Ks", "Qd Qh"], "2c 3c 4c 5c 6c 7c", "holdem", HandSizeError, "at most 5"),
        (["As Ks Qd Jd", "Qh Qc 2s 3s"], "2c", "omaha", HandSizeError, "flop of three"),
    ],
)
def test_bad_input_is_rejected_clearly(
    hands: list[str], board: str, game: str, error: type[Exception], text: str
) -> None:
    with pytest.raises(error, match=text):
        equity(hands, board=board, game=game)


def test_unknown_game_is_rejected() -> None:
    with pytest.raises(ValueError, match="stud"):
        equity(["As Ks", "Qd Qh"], game="stud")
