"""What the people at a blackjack table do: take a box, wager, decide.

:class:`BlackjackPlays` is the part of the
:class:`~croupier.server.blackjack_table.BlackjackRunner` that takes a player's requests
(the socket handler calls these methods; the runner's task deals and plays the rounds):

* **Boxes.** Bots sit at boxes ``1..bots``; a person sits at a free box (``sit`` with the
  box as the seat; None: the first free one) with the table's buy-in. Each seated player
  owns one box and decides its hands. A player may back another box (``wager 3 10``)
  once its owner has wagered on it: the owner still decides (the engine's rule, the
  first wager on a box decides). Sitting down, leaving and rebuying while a round is in
  play take effect when it is over. All of this is the engine's
  :class:`~croupier.blackjack.table.BlackjackTable` (its seating refusals are sent with
  the code ``refused``); the store hears of every change first (the table's ledger).
* **Wagers.** While the round takes wagers a person sends ``wager 10`` (on his own box),
  ``wager 3 10`` (backing box 3), ``withdraw`` / ``withdraw 3``, and ``deal`` or ``pass``
  (the same: "I am done with wagers"). He is done once he has a wager on his own box or
  has said ``deal``/``pass``.
* **Decisions.** The engine's :attr:`~croupier.blackjack.round.BlackjackRound.actor` (a
  box's hand, or an insurance decision of each player on the box) decides; a person acts
  only for himself and only while the runner waits for him; a text without a ``box B
  hand H`` or ``name:`` prefix is completed with his turn. Anything else is refused,
  with the engine's rule id when the rules forbid it.

>>> from croupier.server.blackjack_table import BlackjackRunner
>>> from croupier.server.config import TableConfig
>>> from croupier.server.journal import Journal
>>> from croupier.store import Store
>>> store = Store.open("sqlite:///:memory:")
>>> runner = BlackjackRunner(TableConfig("bj", game="blackjack", seats=3, bots=1), store)
>>> runner.sit("ann", None, None), runner.humans()
(2, ['ann'])
>>> runner.act("ann", "wager 10", None).code
'no_hand'
"""

from __future__ import annotations

import dataclasses
from typing import Any

from croupier.blackjack.actions import (
    Action,
    HandAction,
    InsuranceAction,
    PlaceWager,
    WithdrawWager,
    parse_action,
)
from croupier.blackjack.actions import Deal as DealAction
from croupier.blackjack.hands import Phase
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.seating import BoxError
from croupier.blackjack.table import BlackjackTable
from croupier.errors import CroupierError, InvalidActionError
from croupier.server.config import TableConfig
from croupier.server.protocol import ErrorMessage
from croupier.server.runner import RunnerBase

__all__ = ["BlackjackPlays"]

_DONE = "done"
"""A person's ``deal`` / ``pass``: done with wagers this round."""


class BlackjackPlays(RunnerBase):
    """A blackjack table's people's requests (see the module docstring), over the engine's
    :class:`~croupier.blackjack.table.BlackjackTable` (the boxes, their owners and chips,
    the bots, the changes that wait for the round in play);
    :class:`~croupier.server.blackjack_table.BlackjackRunner` sets the state below."""

    config: TableConfig
    buy_in: int
    """What a player sits down with (and the most a rebuy may bring him to)."""
    table: BlackjackTable
    """The engine's table: the boxes, the players, the shoe."""
    round: BlackjackRound | None
    """The round in play, once journaled (None between rounds)."""
    _done: set[str]

    # ------------------------------------------------------------------ seats
    @property
    def number(self) -> int:
        """The number of the round in play, else of the last one (1, 2, ...)."""
        return self.table.round_number

    @property
    def owners(self) -> dict[int, str]:
        """Who sits at each box."""
        return self.table.owners

    @property
    def chips(self) -> dict[str, int]:
        """Each seated player's chips (between rounds; during one the round's bankrolls)."""
        return self.table.chips

    def holds(self, name: str) -> bool:
        """Whether ``name`` is a person at a box here or waiting for one (not a bot)."""
        table = self.table
        return not table.is_bot(name) and (name in table.waiting or table.seat_of(name) is not None)

    def seat_of(self, name: str | None) -> int | None:
        """The box ``name`` sits at, if any."""
        return None if name is None else self.table.seat_of(name)

    def sit(self, name: str, seat: int | None, buy_in: int | None) -> int | None:
        """Seat a person at box ``seat`` (None: the first free box) with the table's buy-in:
        his box, or None while a round is in play (he is seated when it is over)."""
        if buy_in is not None and buy_in != self.buy_in and self.seat_of(name) is None:
            raise CroupierError(f"the buy-in at {self.name} is {self.buy_in}")
        return self.table.sit(name, seat, self.buy_in)

    def leave(self, name: str) -> None:
        """Leave now between rounds, else when the round in play is over (his turns are
        taken for him meanwhile: stand, or draw where 12.1(d) says so)."""
        self.table.leave(name)
        if name in self.table.leaving:
            self._acted.set()

    def sit_out(self, name: str) -> None:
        """Skip rounds from the next one on (the box is kept, nobody waits for him)."""
        self.table.sit_out(name)

    def sit_in(self, name: str) -> None:
        """Wager again from the next round on."""
        self.table.sit_in(name)
        self._changed.set()

    def rebuy(self, name: str, amount: int) -> None:
        """Add chips between rounds (now, or when the round in play is over); the chips
        may not pass the buy-in."""
        if self.seat_of(name) is None or self.table.is_bot(name):
            raise CroupierError(f"{name} has no box at {self.name}")
        self.table.rebuy(name, amount, most=self.buy_in)

    def humans(self) -> list[str]:
        """The people seated."""
        return [n for n in self.table.players if not self.table.is_bot(n)]

    def must_default(self, who: Any) -> bool:
        return who in self.table.leaving

    # ------------------------------------------------------------------ actions
    def _parse(self, name: str, text: str) -> Action | str:
        """The action ``text`` means for ``name``: the wager forms a person uses (``wager
        10``, ``wager 3 10``, ``withdraw``, ``withdraw 3``, ``deal``, ``pass``), else the
        engine's text."""
        words = text.split()
        verb = words[0].lower() if words else ""
        own = self.seat_of(name) or 1
        numbers = all(w.isdigit() for w in words[1:])
        if verb in ("deal", "pass") and len(words) == 1:
            return _DONE
        if verb in ("wager", "w") and len(words) in (2, 3) and numbers:
            box = own if len(words) == 2 else int(words[1])
            return PlaceWager(box, name, int(words[-1]))
        if verb == "withdraw" and len(words) in (1, 2) and numbers:
            return WithdrawWager(own if len(words) == 1 else int(words[1]), name)
        return parse_action(text)

    def act(self, name: str, text: str, hand_number: int | None) -> ErrorMessage | None:
        """Apply ``name``'s action (a wager form or the engine's text) for himself; an
        error when refused."""
        try:
            action = self._parse(name, text)
        except InvalidActionError as error:
            return self.refuse("bad_action", str(error))
        rnd = self.round
        if self.seat_of(name) is None or self.table.is_bot(name):
            return self.refuse("not_seated", f"{name} has no box here")
        if rnd is None or rnd.is_complete:
            return self.refuse("no_hand", "no round is waiting for an action")
        if hand_number is not None and hand_number != self.number:
            return self.refuse(
                "stale", f"round {hand_number} is over: round {self.number} is in play"
            )
        if name not in rnd.bankrolls:
            return self.refuse("not_dealt_in", f"{name} joins the table with the next round")
        if rnd.phase is Phase.WAGERS:
            return self._act_wager(rnd, name, action)
        return self._act_decision(rnd, name, action)

    def _act_wager(
        self, rnd: BlackjackRound, name: str, action: Action | str
    ) -> ErrorMessage | None:
        if not isinstance(action, PlaceWager | WithdrawWager | str | DealAction):
            return self._refuse_engine(rnd, action, "illegal")
        waiting = self.expecting()
        if not isinstance(waiting, frozenset) or name not in waiting:
            if name in self._done:
                return self.refuse("not_your_turn", f"{name} is done with wagers this round")
            return self.refuse("not_your_turn", "the table is not taking wagers right now")
        if isinstance(action, str | DealAction):
            self._done.add(name)
            self.accepted()
            return None
        if action.player != name:
            return self.refuse("not_yours", f"{name} wagers only his own chips")
        own = self.seat_of(name)
        try:
            self.table.wager(rnd, action)
        except BoxError as error:  # the table's seating: backing, an owner's wager
            return self.refuse("refused", str(error))
        except CroupierError as error:
            return self.refuse(None, error)
        if action.box == own:
            if isinstance(action, PlaceWager):
                self._done.add(name)
            else:
                self._done.discard(name)
        self.accepted()
        return None

    def _act_decision(
        self, rnd: BlackjackRound, name: str, action: Action | str
    ) -> ErrorMessage | None:
        if not isinstance(action, HandAction | InsuranceAction):
            return self._refuse_engine(
                rnd, DealAction() if isinstance(action, str) else action, "illegal"
            )
        if action.player not in (None, name):
            return self.refuse("not_yours", f"{name} decides only for himself")
        actor = rnd.actor
        fill: dict[str, Any] = {"player": name}
        if actor is not None and actor.player == name:
            fill["box"] = actor.box if action.box is None else action.box
            if isinstance(action, HandAction) and actor.hand is not None:
                fill["hand"] = actor.hand if action.hand is None else action.hand
        full = dataclasses.replace(action, **fill)
        if self.expecting() != name:
            try:
                rnd.verify(full)
            except CroupierError as error:
                return self.refuse("not_your_turn", error)
            return self.refuse("not_your_turn", f"the table is not waiting for {name}")
        try:
            rnd.apply(full)
        except CroupierError as error:
            return self.refuse(None, error)
        self.accepted()
        return None

    def _refuse_engine(self, rnd: BlackjackRound, action: Action | str, code: str) -> ErrorMessage:
        """Refuse an action the round cannot take now, with the engine's reason."""
        try:
            rnd.verify(DealAction() if isinstance(action, str) else action)
        except CroupierError as error:
            return self.refuse(code, error)
        return self.refuse(code, f"{action} is not taken now")
