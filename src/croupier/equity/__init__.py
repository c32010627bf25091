"""Equity: how often each known hand, or each hold'em range, wins, ties or loses over the
boards still to come.

>>> from croupier.equity import equity, range_equity
>>> r = equity(["As Ks", "Qd Qh"], board="Qs Js 2c 3d 4h")
>>> [float(h.equity) for h in r.hands]
[0.0, 1.0]
>>> range_equity(["QQ+", "AKs"], board="Qs Js 2c 3d 4h").players[0].equity
Fraction(1, 1)
"""

from croupier.equity.equity import EquityGame, EquityResult, HandEquity, equity
from croupier.equity.range_equity import PlayerEquity, RangeEquityResult, range_equity
from croupier.equity.ranges import Combo, HandRange, RangeParseError

__all__ = [
    "Combo",
    "EquityGame",
    "EquityResult",
    "HandEquity",
    "HandRange",
    "PlayerEquity",
    "RangeEquityResult",
    "RangeParseError",
    "equity",
    "range_equity",
]
