"""Equity: how often each known hand wins, ties or loses over the boards still to come.

>>> from croupier.equity import equity
>>> r = equity(["As Ks", "Qd Qh"], board="Qs Js 2c 3d 4h")
>>> [float(h.equity) for h in r.hands]
[0.0, 1.0]
"""

from croupier.equity.equity import EquityGame, EquityResult, HandEquity, equity

__all__ = ["EquityGame", "EquityResult", "HandEquity", "equity"]
