"""How a strategy chart turns into one decision: shared by the exact analysis and the simulator.

A chart is an ``int8[3, 22, 11]`` array: ``chart[0, total, up]`` for hard totals,
``chart[1, total, up]`` for soft totals and ``chart[2, value, up]`` for pairs (1 = ace,
10 = ten), each cell one of the codes below. Both kernels call :func:`decide` (each compiles
it with numba: this module stays plain Python, so a bot playing a chart needs no numba),
so the strategy the analysis values is exactly the one the simulator and the bots play.

>>> import numpy as np
>>> chart = np.zeros((3, 22, 11), np.int8)
>>> chart[0, 11, 6] = D
>>> decide(chart, 6, 11, False, 0, False, True, False) == DOUBLE
True
>>> decide(chart, 6, 11, False, 0, False, False, False) == HIT   # D means "double, else hit"
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from croupier.blackjack.rules import DoubleOn

__all__ = [
    "CODES",
    "DOUBLE",
    "DOUBLE_ON_CODES",
    "HIT",
    "SPLIT",
    "STAND",
    "SURRENDER",
    "D",
    "Ds",
    "H",
    "P",
    "R",
    "Rs",
    "S",
    "decide",
    "may_double",
]

# chart codes
H, S, D, Ds, P, R, Rs = 0, 1, 2, 3, 4, 5, 6
CODES = ("H", "S", "D", "Ds", "P", "R", "Rs")
"""Chart codes by number: hit; stand; double else hit; double else stand; split;
surrender else hit; surrender else stand."""

# actions
HIT, STAND, DOUBLE, SPLIT, SURRENDER = 0, 1, 2, 3, 4

DOUBLE_ON_CODES = {DoubleOn.ANY: 0, DoubleOn.NINE_TO_ELEVEN: 1, DoubleOn.TEN_ELEVEN: 2}
"""The kernels' code for each :class:`~croupier.blackjack.rules.DoubleOn` setting."""


def may_double(double_on: int, total: int, soft: bool) -> bool:
    """:meth:`DoubleOn.allows` for a kernel code of :data:`DOUBLE_ON_CODES`.

    >>> may_double(DOUBLE_ON_CODES[DoubleOn.TEN_ELEVEN], 9, False)
    False
    """
    if double_on == 0:
        return True
    low = 9 if double_on == 1 else 10
    return (not soft) and low <= total <= 11


def decide(
    chart: npt.NDArray[np.int8],
    up: int,
    total: int,
    soft: bool,
    pair_value: int,
    split_ok: bool,
    double_ok: bool,
    surrender_ok: bool,
) -> int:
    """The action the chart takes (see the module docstring).

    ``pair_value`` is the value of a two-card pair that has not acted yet (0 otherwise);
    its pair row is read first, and a "P" there that cannot be played falls back to the
    hand's hard or soft row. Standing on 11 or less is never chosen (Blackjack 12.1(d)).
    """
    if total >= 21:
        return STAND
    code = -1
    if pair_value > 0:
        code = chart[2, pair_value, up]
        if code == P:
            if split_ok:
                return SPLIT
            code = -1
    if code < 0:
        code = chart[1 if soft else 0, total, up]
    if code == S:
        act = STAND
    elif code == D:
        act = DOUBLE if double_ok else HIT
    elif code == Ds:
        act = DOUBLE if double_ok else STAND
    elif code == R:
        act = SURRENDER if surrender_ok else HIT
    elif code == Rs:
        act = SURRENDER if surrender_ok else STAND
    else:
        act = HIT
    if act == STAND and total <= 11:
        act = HIT
    return act
