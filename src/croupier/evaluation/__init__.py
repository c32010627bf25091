"""Hand evaluation: one call per hand for the engines, numpy batches for math and simulation.

The one-call evaluator (:func:`evaluate`, :func:`rank_cards`, pure Python over the cached rank
tables, read without numpy) loads with the package; the numpy tables and the batch
evaluators, which need numba, load on first use.

>>> from croupier.evaluation import evaluate
>>> evaluate("Kh Kd", board="9s 9c 2d 5h 7c").describe()
'Two pair, kings and nines'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier._lazy import lazy_exports
from croupier.evaluation.composition import ANY_FIVE, EXACTLY_TWO_PLUS_THREE, Composition
from croupier.evaluation.evaluate import (
    CardsLike,
    evaluate,
    evaluate_omaha,
    rank_cards,
    rank_indices,
)
from croupier.evaluation.hand import HandValue
from croupier.evaluation.omaha_fast import rank_omaha_indices
from croupier.evaluation.rankings import STANDARD, STRIPPED, Category, HandRanking

if TYPE_CHECKING:
    from croupier.evaluation.batch import (
        evaluate_batch,
        evaluate_omaha_batch,
        evaluate_split_batch,
    )
    from croupier.evaluation.tables import RankTables, tables_for
else:
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "croupier.evaluation.batch": (
                "evaluate_batch",
                "evaluate_omaha_batch",
                "evaluate_split_batch",
            ),
            "croupier.evaluation.tables": ("RankTables", "tables_for"),
        },
    )

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
    "rank_omaha_indices",
    "tables_for",
]
