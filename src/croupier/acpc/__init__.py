"""Bots in any language: croupier's referee behind the ACPC match protocol (version 2.0.0).

:mod:`croupier.acpc.protocol` turns a hand into ACPC ``MATCHSTATE`` lines and ACPC actions
into croupier's; :mod:`croupier.acpc.dealer` serves a match over TCP (``croupier dealer
--acpc``) to programs and in-process policies alike, with time limits and logs in ACPC and
PHH form; :mod:`croupier.acpc.match` plays two bots in duplicate (``croupier match``).

>>> from croupier.acpc import AcpcGame
>>> AcpcGame.nolimit().big_blind
100
"""

from croupier.acpc.protocol import VERSION, AcpcGame, AcpcHand

__all__ = ["VERSION", "AcpcGame", "AcpcHand"]
