"""The NZ basic strategy kept as text is the one the exact analysis derives, and a bot
playing it at an NZ table (any limits, any boxes) needs no numba."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from croupier.blackjack import NZ
from croupier.blackjack.bots import basic_strategy_bot
from croupier.blackjack.math.analysis import Analysis
from croupier.blackjack.math.strategy import NZ_BASIC_STRATEGY
from croupier.blackjack.rules import Surrender


def test_the_kept_chart_is_the_derived_one_cell_for_cell() -> None:
    derived = Analysis(NZ).basic_strategy()
    assert np.array_equal(NZ_BASIC_STRATEGY.cells, derived.cells)
    assert derived == NZ_BASIC_STRATEGY


def test_a_table_of_other_limits_and_boxes_plays_the_kept_chart() -> None:
    table = NZ.with_(boxes=3, table_minimum=5, table_maximum=500)
    assert basic_strategy_bot(table).chart is NZ_BASIC_STRATEGY
    assert basic_strategy_bot(table).rules is table


def test_other_rules_of_play_are_analysed() -> None:
    other = NZ.with_(surrender=Surrender.LATE)
    chart = basic_strategy_bot(other).chart
    assert chart is not NZ_BASIC_STRATEGY
    assert chart == Analysis(other).basic_strategy()
    assert chart != NZ_BASIC_STRATEGY  # late surrender shows in the chart (16 v T)


_ROUNDS_WITHOUT_NUMBA = """
import random, sys
from croupier.blackjack import NZ, BlackjackRound
from croupier.blackjack.bots import basic_strategy_bot
from croupier.cards import Shoe
rules = NZ.with_(boxes=3, table_minimum=5)
bot = basic_strategy_bot(rules)
rounds = 0
for seed in range(40):
    rnd = BlackjackRound(rules, Shoe(6, seed=seed), {"ann": 100})
    rnd.place_wager(1, "ann", 10)
    rnd.deal()
    while not rnd.is_complete:
        rnd.apply(bot(rnd.view_for("ann")))
    rounds += 1
print(rounds, "numba" in sys.modules, "llvmlite" in sys.modules)
"""


def test_a_bot_plays_rounds_without_loading_numba() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _ROUNDS_WITHOUT_NUMBA], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["40", "False", "False"]
