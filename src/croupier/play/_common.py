"""What the poker and the blackjack sessions share (no terminal code here): the log and
its echo, the commitment salts, the store's record of the seats and the chips, and the
end of the session.

>>> class Demo(SessionCore):
...     def _cash_out(self, store, session):
...         pass
>>> demo = Demo(human=None, seed=1, store=None, echo=print)
>>> demo._end("the demo ends")
session over: the demo ends
>>> demo.over, demo.log
(True, ['session over: the demo ends'])
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from croupier.errors import CroupierError

if TYPE_CHECKING:
    from croupier.blackjack.rules import BlackjackRules
    from croupier.poker.settings import TableRules
    from croupier.store import SessionInfo, Store

__all__ = ["SessionCore"]


class SessionCore:
    """The bookkeeping of a session for one human (``human``; None: bots only) and bots;
    a subclass sets ``buy_in`` and says how every player cashes out (:meth:`_cash_out`).

    >>> SessionCore(human="you", seed=None, store=None, echo=None).log
    []
    """

    buy_in: int
    """What each player buys in for."""

    def __init__(
        self,
        *,
        human: str | None,
        seed: int | None,
        store: Store | None,
        echo: Callable[[str], None] | None,
    ) -> None:
        self.human = human
        """The human's name, or None when every seat is a bot."""
        self.log: list[str] = []
        """The session's log, every hand or round of it."""
        self.over = False
        """Whether the session has ended."""
        self._salts = random.Random(f"croupier salt {seed}") if seed is not None else None
        self._echo = echo
        self._store = store
        self._session: SessionInfo | None = None

    def _say(self, line: str) -> None:
        self.log.append(line)
        if self._echo is not None:
            self._echo(line)

    def _bots_only(self) -> None:
        if self.human is not None:
            raise CroupierError("play() is for a table of bots (human=None)")

    def _open(self, rules: TableRules | BlackjackRules, seed: int | None) -> None:
        """Open the store's session (with a store)."""
        if self._store is not None:
            self._session = self._store.start_session(rules, seed=seed, label="croupier play")

    def _seat(self, name: str, seat: int, bot_style: str) -> None:
        """Record ``name`` sitting at ``seat`` (a bot of ``bot_style`` unless the human)
        and buying in."""
        if self._store is not None and self._session is not None:
            policy = "human" if name == self.human else bot_style
            self._store.sit(self._session, name, seat, policy)
            self._store.buy_in(self._session, name, self.buy_in)

    def _bought_in(self, name: str) -> None:
        """Record ``name`` buying in again."""
        if self._store is not None and self._session is not None:
            self._store.buy_in(self._session, name, self.buy_in)

    def _end(self, why: str) -> None:
        if self.over:
            return
        self.over = True
        self._say(f"session over: {why}")
        if self._store is not None and self._session is not None:
            self._cash_out(self._store, self._session)
            self._store.end_session(self._session)

    def _cash_out(self, store: Store, session: SessionInfo) -> None:
        """Record every player cashing out."""
        raise NotImplementedError
