"""Differential tests: croupier against treys, pokerkit and phevaluator on random hands.

For every sample the two evaluators must order every pair of hands the same way
(sorting by croupier's rank, the peer's strength rises exactly where croupier's
does and ties exactly where croupier ties) and agree on each hand's category.
treys and phevaluator number hands 1 (royal flush) .. 7462 (worst), lower better;
pokerkit's ``entry.index`` runs 0 (worst) .. 7461, higher better.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import cache

import numpy as np
import numpy.typing as npt
import pytest
from eval_oracle import (
    CARD_NAMES,
    assert_same_order,
    pokerkit_high,
    pokerkit_omaha,
    random_hands,
)
from phevaluator import evaluate_omaha_cards
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from croupier.cards import Card
from croupier.evaluation import (
    STANDARD,
    Category,
    evaluate,
    evaluate_batch,
    evaluate_omaha,
    evaluate_omaha_batch,
    rank_cards,
    tables_for,
)

N_HANDS = 100_000
N_ONE_CALL = 10_000

TREYS_CLASS_TO_CATEGORY = {
    0: Category.STRAIGHT_FLUSH,  # royal flush
    1: Category.STRAIGHT_FLUSH,
    2: Category.FOUR_OF_A_KIND,
    3: Category.FULL_HOUSE,
    4: Category.FLUSH,
    5: Category.STRAIGHT,
    6: Category.THREE_OF_A_KIND,
    7: Category.TWO_PAIR,
    8: Category.PAIR,
    9: Category.HIGH_CARD,
}
POKERKIT_LABEL_TO_CATEGORY = {
    "HIGH_CARD": Category.HIGH_CARD,
    "ONE_PAIR": Category.PAIR,
    "TWO_PAIR": Category.TWO_PAIR,
    "THREE_OF_A_KIND": Category.THREE_OF_A_KIND,
    "STRAIGHT": Category.STRAIGHT,
    "FLUSH": Category.FLUSH,
    "FULL_HOUSE": Category.FULL_HOUSE,
    "FOUR_OF_A_KIND": Category.FOUR_OF_A_KIND,
    "STRAIGHT_FLUSH": Category.STRAIGHT_FLUSH,
}

_TREYS = TreysEvaluator()
_TREYS_CARDS = [TreysCard.new(name) for name in CARD_NAMES]
_CATEGORIES = tables_for(STANDARD).categories


@cache
def _holdem(k: int) -> npt.NDArray[np.uint8]:
    """The sample of k-card hands (the first two cards are the hole cards)."""
    return random_hands(seed=9000 + k, n=N_HANDS, k=k)


@cache
def _omaha() -> npt.NDArray[np.uint8]:
    """The Omaha sample: four hole cards, then five board cards."""
    return random_hands(seed=4242, n=N_HANDS, k=9)


def _texts(hands: npt.NDArray[np.uint8], n_hole: int) -> list[tuple[str, str]]:
    return [
        ("".join(CARD_NAMES[c] for c in row[:n_hole]), "".join(CARD_NAMES[c] for c in row[n_hole:]))
        for row in hands.tolist()
    ]


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    """Two worker processes for the slow pure-Python peer (spawned: no inherited threads)."""
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn")) as ex:
        yield ex


def _spread(
    pool: ProcessPoolExecutor,
    work: Callable[[list[tuple[str, str]]], list[tuple[int, str]]],
    rows: list[tuple[str, str]],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Run a pokerkit worker over the rows in chunks; (strengths, categories)."""
    size = 5_000
    chunks = [rows[i : i + size] for i in range(0, len(rows), size)]
    strength: list[int] = []
    category: list[int] = []
    for result in pool.map(work, chunks):
        for index, label in result:
            strength.append(index)
            category.append(int(POKERKIT_LABEL_TO_CATEGORY[label]))
    return np.array(strength, dtype=np.int64), np.array(category, dtype=np.int64)


def _treys(hands: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """treys' rank (lower better) and category of each hand."""
    ranks = []
    for row in hands.tolist():
        cards = [_TREYS_CARDS[c] for c in row]
        ranks.append(_TREYS.evaluate(cards[:2], cards[2:]))
    out = np.array(ranks, dtype=np.int64)
    cats = np.array(
        [int(TREYS_CLASS_TO_CATEGORY[_TREYS.get_rank_class(int(r))]) for r in out], dtype=np.int64
    )
    return out, cats


def _distinct_categories(cats: npt.ArrayLike) -> int:
    return int(np.unique(np.asarray(cats)).size)


# --------------------------------------------------------------------------- treys


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_against_treys(k: int) -> None:
    hands = _holdem(k)
    ours = evaluate_batch(hands).astype(np.int64)
    theirs, their_cats = _treys(hands)
    assert_same_order(ours, -theirs, hands, "treys")
    assert np.array_equal(_CATEGORIES[ours], their_cats)
    # both number the 7,462 values densely: the best hand is 1 in treys, 7462 here
    assert np.array_equal(ours, 7463 - theirs)
    assert _distinct_categories(their_cats) >= 8  # the sample reaches nearly every category


@pytest.mark.parametrize("k", [5, 6, 7])
def test_one_call_api_against_batch_and_treys(k: int) -> None:
    hands = _holdem(k)[:N_ONE_CALL]
    batch = evaluate_batch(hands).astype(np.int64)
    _, their_cats = _treys(hands)
    for i, row in enumerate(hands.tolist()):
        cards = [Card(c) for c in row]
        assert rank_cards(cards) == batch[i], cards
        hand = evaluate(cards[:2], board=cards[2:])
        assert hand.rank == batch[i], cards
        assert hand.category == their_cats[i], cards


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_threads_agree(k: int) -> None:
    hands = _holdem(k)
    single = evaluate_batch(hands, parallel=False)
    assert np.array_equal(single, evaluate_batch(hands, parallel=True))
    assert np.array_equal(single, evaluate_batch(hands, check=False))
    # the order of the cards in a row does not matter
    shuffled = np.random.default_rng(k).permuted(hands, axis=1)
    assert np.array_equal(single, evaluate_batch(shuffled))


# --------------------------------------------------------------------------- pokerkit


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_against_pokerkit(pool: ProcessPoolExecutor, k: int) -> None:
    hands = _holdem(k)
    ours = evaluate_batch(hands).astype(np.int64)
    theirs, their_cats = _spread(pool, pokerkit_high, _texts(hands, 2))
    assert_same_order(ours, theirs, hands, "pokerkit")
    assert np.array_equal(_CATEGORIES[ours], their_cats)


# --------------------------------------------------------------------------- Omaha


def _phevaluator(hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """phevaluator's Omaha rank (lower better): community cards first, then the hole cards."""
    return np.array(
        [
            evaluate_omaha_cards(
                *[CARD_NAMES[c] for c in row[4:]], *[CARD_NAMES[c] for c in row[:4]]
            )
            for row in hands.tolist()
        ],
        dtype=np.int64,
    )


@pytest.mark.rule("Omaha 17.5(d)")
def test_omaha_batch_against_phevaluator() -> None:
    hands = _omaha()
    ours = evaluate_omaha_batch(hands[:, :4], hands[:, 4:]).astype(np.int64)
    theirs = _phevaluator(hands)
    assert_same_order(ours, -theirs, hands, "phevaluator")
    their_cats = np.array(
        [int(TREYS_CLASS_TO_CATEGORY[_TREYS.get_rank_class(int(r))]) for r in theirs]
    )
    assert np.array_equal(_CATEGORIES[ours], their_cats)
    assert np.array_equal(ours, 7463 - theirs)
    assert _distinct_categories(their_cats) == 9


@pytest.mark.rule("Omaha 17.5(d)")
def test_omaha_one_call_against_batch() -> None:
    hands = _omaha()[:N_ONE_CALL]
    batch = evaluate_omaha_batch(hands[:, :4], hands[:, 4:]).astype(np.int64)
    single = evaluate_omaha_batch(hands[:, :4], hands[:, 4:], parallel=False).astype(np.int64)
    assert np.array_equal(batch, single)
    for i, row in enumerate(hands.tolist()):
        cards = [Card(c) for c in row]
        hand = evaluate_omaha(cards[:4], cards[4:])
        assert hand.rank == batch[i], cards
        assert evaluate(cards[:4], board=cards[4:], omaha=True).rank == batch[i]
        assert len(hand.own_cards) == 2
        assert len(hand.best_five) == 5
        assert len(set(hand.best_five) & set(cards[4:])) == 3


@pytest.mark.slow
@pytest.mark.rule("Omaha 17.5(d)")
def test_omaha_batch_against_pokerkit(pool: ProcessPoolExecutor) -> None:
    hands = _omaha()
    ours = evaluate_omaha_batch(hands[:, :4], hands[:, 4:]).astype(np.int64)
    theirs, their_cats = _spread(pool, pokerkit_omaha, _texts(hands, 4))
    assert_same_order(ours, theirs, hands, "pokerkit")
    assert np.array_equal(_CATEGORIES[ours], their_cats)
