"""Terminal play: sessions (no terminal code) and the Textual apps that show them.

:mod:`croupier.play.session` and :mod:`croupier.play.bj_session` run poker and blackjack
sessions for one human and bots; :mod:`croupier.play.poker_app` and
:mod:`croupier.play.blackjack_app` are the Textual screens (they import Textual, this
package does not).

>>> from croupier.play.session import PokerSession
>>> PokerSession.__name__
'PokerSession'
"""
