"""Hand evaluation: one call per hand for the engines, numpy batches for math and simulation.

>>> from croupier.evaluation import evaluate
>>> evaluate("Kh Kd", board="9s 9c 2d 5h 7c").describe()
'Two pair, kings and nines'
"""

from croupier.evaluation.batch import evaluate_batch, evaluate_omaha_batch, evaluate_split_batch
from croupier.evaluation.composition import ANY_FIVE, EXACTLY_TWO_PLUS_THREE, Composition
from croupier.evaluation.evaluate import (
    CardsLike,
    evaluate,
    evaluate_omaha,
    rank_cards,
    rank_indices,
)
from croupier.evaluation.hand import HandValue
from croupier.evaluation.rankings import STANDARD, STRIPPED, Category, HandRanking
from croupier.evaluation.tables import RankTables, tables_for

__all__ = [
    "ANY_FIVE",
    "EXACTLY_TWO_PLUS_THREE",
    "STANDARD",
    "STRIPPED",
    "CardsLike",
    "Category",
    "Composition",
    "HandRanking",
    "HandValue",
    "RankTables",
    "evaluate",
    "evaluate_batch",
    "evaluate_omaha",
    "evaluate_omaha_batch",
    "evaluate_split_batch",
    "rank_cards",
    "rank_indices",
    "tables_for",
]
