"""The pattern-counting exact engine gives exactly the counts of dealing every board.

:func:`croupier.equity.equity.exact_counts` never deals a board: it counts completions by
rank multiset and corrects for flushes (see :mod:`croupier.equity.exact_kernels`). Here it
is held against the board-by-board kernels (``_Job.enumerate``, themselves checked against
phevaluator in the benchmarks and the pure-Python evaluator below) on thousands of random
deals: Hold'em and Omaha, two to six hands, every board size, and suit-heavy deals where
flushes decide most boards.
"""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import numpy.typing as npt
import pytest

from croupier.cards.card import Card
from croupier.equity.equity import EquityGame, _Job, equity, exact_counts
from croupier.evaluation import rank_indices
from croupier.evaluation.kernels import combinations_array
from croupier.evaluation.rankings import STANDARD
from croupier.evaluation.tables import tables_for

Counts = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]


def _deal(rng: random.Random, game: EquityGame, players: int, known: int, suits: int) -> tuple[
    list[list[int]], list[int]
]:  # fmt: skip
    """Random hole cards and board; ``suits`` < 4 draws most cards from that many suits."""
    need = game.hole_cards * players + known
    heavy = [c for c in range(52) if c & 3 < suits]
    pool = heavy if suits < 4 and len(heavy) >= need + 4 else list(range(52))
    cards = rng.sample(pool, need)
    size = game.hole_cards
    return [cards[size * p : size * (p + 1)] for p in range(players)], cards[size * players :]


def _arrays(hands: list[list[int]], board: list[int]) -> tuple[npt.NDArray[np.uint8], ...]:
    used = {c for h in hands for c in h} | set(board)
    rest = np.array([c for c in range(52) if c not in used], np.uint8)
    return np.array(hands, np.uint8), np.array(board, np.uint8), rest


def _by_boards(game: EquityGame, hands: list[list[int]], board: list[int]) -> Counts:
    _, _, rest = _arrays(hands, board)
    parsed = [tuple(Card(c) for c in h) for h in hands]
    job = _Job(game, parsed, tuple(Card(c) for c in board), rest, tables_for(STANDARD))
    combos = combinations_array(len(rest), job.draw)
    job.enumerate(combos, 0, combos.shape[0])
    return job.wins, job.ties


def _by_patterns(game: EquityGame, hands: list[list[int]], board: list[int]) -> Counts:
    hole, known, rest = _arrays(hands, board)
    return exact_counts(game, hole, known, rest)


def _same(game: EquityGame, hands: list[list[int]], board: list[int]) -> None:
    want_w, want_t = _by_boards(game, hands, board)
    got_w, got_t = _by_patterns(game, hands, board)
    shown = [[str(Card(c)) for c in h] for h in hands], [str(Card(c)) for c in board]
    assert got_w.tolist() == want_w.tolist(), shown
    assert got_t.tolist() == want_t.tolist(), shown


@pytest.mark.parametrize("game", [EquityGame.HOLDEM, EquityGame.OMAHA])
@pytest.mark.parametrize("known", [3, 4, 5])
@pytest.mark.parametrize("suits", [4, 2])
def test_partial_boards_match_dealing_every_board(game: EquityGame, known: int, suits: int) -> None:
    rng = random.Random(hash((game.value, known, suits)) & 0xFFFF)
    most = 6 if game is EquityGame.HOLDEM else 5
    for i in range(250):
        _same(game, *_deal(rng, game, 2 + i % (most - 1), known, suits))


@pytest.mark.slow
@pytest.mark.parametrize("suits", [4, 2])
def test_holdem_preflop_matches_dealing_every_board(suits: int) -> None:
    rng = random.Random(7 + suits)
    for i in range(40):
        _same(EquityGame.HOLDEM, *_deal(rng, EquityGame.HOLDEM, 2 + i % 5, 0, suits))


@pytest.mark.slow
def test_omaha_preflop_matches_dealing_every_board() -> None:
    rng = random.Random(11)
    for i in range(4):
        _same(EquityGame.OMAHA, *_deal(rng, EquityGame.OMAHA, 2 + i % 2, 0, 2 + i % 3))


def test_flush_and_full_house_corners() -> None:
    s, h = 3, 2  # spades, hearts

    def card(rank: int, suit: int) -> int:
        return 4 * rank + suit

    cases = [
        # both players flush on a three-spade flop; the board pairs for a full house
        (
            [[card(12, s), card(11, s)], [card(2, s), card(3, s)]],
            [card(8, s), card(5, s), card(5, h)],
        ),
        # a board flush that plays for both (hands hold no spade)
        (
            [[card(12, h), card(11, h)], [card(10, 0), card(9, 1)]],
            [card(c, s) for c in (0, 3, 6, 8)],
        ),
        # a straight flush draw against quads
        (
            [[card(7, s), card(6, s)], [card(9, h), card(9, 0)]],
            [card(9, 1), card(9, s), card(5, s)],
        ),
    ]
    for hands, board in cases:
        _same(EquityGame.HOLDEM, hands, board)


def test_river_counts_match_the_pure_python_evaluator() -> None:
    """An independent check of both engines on the last card: rank every hand with
    :func:`rank_indices` and count by hand."""
    rng = random.Random(5)
    for _ in range(60):
        hands, board = _deal(rng, EquityGame.HOLDEM, 3, 4, 2)
        used = {c for h in hands for c in h} | set(board)
        wins = [0, 0, 0]
        ties = np.zeros((3, 4), np.int64)
        for river in (c for c in range(52) if c not in used):
            values = [rank_indices([*h, *board, river]) for h in hands]
            best = max(values)
            winners = [p for p, v in enumerate(values) if v == best]
            for p in winners:
                if len(winners) == 1:
                    wins[p] += 1
                else:
                    ties[p, len(winners)] += 1
        got_w, got_t = _by_patterns(EquityGame.HOLDEM, hands, board)
        assert got_w.tolist() == wins
        assert got_t.tolist() == ties.tolist()


def test_equity_reports_the_pattern_counts() -> None:
    r = equity(["As Ks", "Qd Qh"])
    assert r.exact
    assert r.trials == 1_712_304
    assert [h.wins for h in r.hands] == [787_966, 917_606]
    assert [h.ties for h in r.hands] == [6_732, 6_732]


def test_every_river_of_a_small_deck_counts_once() -> None:
    """The counts of a whole run add up to the number of completions."""
    rng = random.Random(3)
    for players in range(2, 7):
        hands, board = _deal(rng, EquityGame.HOLDEM, players, 3, 4)
        wins, ties = _by_patterns(EquityGame.HOLDEM, hands, board)
        left = 52 - 2 * players - 3
        total = int(wins.sum()) + sum(int(ties[:, k].sum()) // k for k in range(2, players + 1))
        assert total == len(list(combinations(range(left), 2)))
