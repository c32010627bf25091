"""What the people at a blackjack table do: take a box, wager, decide.

:class:`BlackjackPlays` is the part of the
:class:`~croupier.server.blackjack_table.BlackjackRunner` that takes a player's requests
(the socket handler calls these methods; the runner's task deals and plays the rounds):

* **Boxes.** Bots sit at boxes ``1..bots``; a person sits at a free box (``sit`` with the
  box as the seat; None: the first free one) with the table's buy-in. Each seated player
  owns one box and decides its hands. A player may back another box (``wager 3 10``)
  once its owner has wagered on it: the owner still decides (the engine's rule, the
  first wager on a box decides). Sitting down, leaving and rebuying while a round is in
  play take effect when it is over.
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
from croupier.blackjack.hands import RoundPhase
from croupier.blackjack.policies import Policy
from croupier.blackjack.round import BlackjackRound
from croupier.errors import CroupierError, InvalidActionError
from croupier.server.config import TableConfig
from croupier.server.protocol import ErrorMessage
from croupier.server.runner import RunnerBase

__all__ = ["BlackjackPlays"]

_DONE = "done"
"""A person's ``deal`` / ``pass``: done with wagers this round."""


class BlackjackPlays(RunnerBase):
    """A blackjack table's boxes and its people's requests (see the module docstring);
    :class:`~croupier.server.blackjack_table.BlackjackRunner` sets the state below."""

    config: TableConfig
    buy_in: int
    """What a player sits down with (and the most a rebuy may bring him to)."""
    number: int
    """The number of the round in play, else of the last one (1, 2, ...)."""
    round: BlackjackRound | None
    """The round in play (None between rounds)."""
    owners: dict[int, str]
    """Who sits at each box."""
    chips: dict[str, int]
    """Each seated player's chips (between rounds; during one the round's bankrolls)."""
    _in_play: bool
    _bots: dict[str, Policy]
    _leaving: set[str]
    _pending: dict[str, int | None]
    _rebuys: dict[str, int]
    _sitting_out: set[str]
    _done: set[str]

    # ------------------------------------------------------------------ seats
    def _free_boxes(self) -> list[int]:
        claimed = set(self.owners) | {b for b in self._pending.values() if b is not None}
        return [b for b in range(1, self.config.seats + 1) if b not in claimed]

    def _seat(self, name: str, box: int | None, policy: str | None) -> int:
        if box is None or box in self.owners:
            box = next(b for b in range(1, self.config.seats + 1) if b not in self.owners)
        assert self.session is not None
        self.store.sit(
            self.session,
            name,
            box,
            policy,
            buy_in=self.buy_in,
            guard=self.guard,
            account=None if policy is not None else self.account_of(name),
        )
        self.owners[box] = name
        self.chips[name] = self.buy_in
        return box

    def holds(self, name: str) -> bool:
        """Whether ``name`` is a person at a box here or waiting for one (not a bot)."""
        return name not in self._bots and (name in self._pending or self.seat_of(name) is not None)

    def seat_of(self, name: str | None) -> int | None:
        """The box ``name`` sits at, if any."""
        for box, owner in self.owners.items():
            if owner == name:
                return box
        return None

    def sit(self, name: str, seat: int | None, buy_in: int | None) -> int | None:
        """Seat a person at box ``seat`` (None: the first free box) with the table's buy-in:
        his box, or None while a round is in play (he is seated when it is over)."""
        if self.seat_of(name) is not None:
            raise CroupierError(f"{name} already sits at box {self.seat_of(name)}")
        if buy_in is not None and buy_in != self.buy_in:
            raise CroupierError(f"the buy-in at {self.name} is {self.buy_in}")
        if name in self._pending:
            raise CroupierError(f"{name} is already waiting for a box")
        free = self._free_boxes()
        if seat is not None and seat not in free:
            raise CroupierError(f"box {seat} is not free at {self.name}")
        if not free:
            raise CroupierError(f"{self.name} is full")
        if self._in_play:
            self._pending[name] = seat if seat is not None else free[0]
            return None
        box = self._seat(name, seat, None)
        self._changed.set()
        return box

    def leave(self, name: str) -> None:
        """Leave now between rounds, else when the round in play is over (his turns are
        taken for him meanwhile: stand, or draw where 12.1(d) says so)."""
        if self._pending.pop(name, -1) != -1:
            return
        if self.seat_of(name) is None:
            raise CroupierError(f"{name} has no box at {self.name}")
        if not self._in_play:
            self._cash_out(name)
        else:
            self._leaving.add(name)
            self._acted.set()

    def sit_out(self, name: str) -> None:
        """Skip rounds from the next one on (the box is kept, nobody waits for him)."""
        if self.seat_of(name) is None:
            raise CroupierError(f"{name} has no box at {self.name}")
        self._sitting_out.add(name)

    def sit_in(self, name: str) -> None:
        """Wager again from the next round on."""
        if self.seat_of(name) is None:
            raise CroupierError(f"{name} has no box at {self.name}")
        self._sitting_out.discard(name)
        self._changed.set()

    def rebuy(self, name: str, amount: int) -> None:
        """Add chips between rounds (now, or when the round in play is over); the chips
        may not pass the buy-in."""
        if self.seat_of(name) is None or name in self._bots:
            raise CroupierError(f"{name} has no box at {self.name}")
        have = self.chips.get(name, 0) + self._rebuys.get(name, 0)  # before the round in play
        if amount < 1 or have + amount > self.buy_in:
            raise CroupierError(
                f"a rebuy of {amount} would make {have + amount}: at most {self.buy_in} here"
            )
        if not self._in_play:
            self._buy(name, amount)
        else:
            self._rebuys[name] = self._rebuys.get(name, 0) + amount

    def _buy(self, name: str, amount: int) -> None:
        assert self.session is not None
        self.store.buy_in(self.session, name, amount, guard=self.guard)
        self.chips[name] = self.chips.get(name, 0) + amount
        self._changed.set()

    def _cash_out(self, name: str) -> None:
        assert self.session is not None
        # the ledger first: a refused write (a lost lease) leaves the chips where they are
        self.store.cash_out(self.session, name, self.chips.get(name, 0), guard=self.guard)
        self.chips.pop(name, None)
        box = self.seat_of(name)
        if box is not None:
            del self.owners[box]
        self._bots.pop(name, None)
        self._leaving.discard(name)
        self._sitting_out.discard(name)

    def humans(self) -> list[str]:
        """The people seated."""
        return [n for _, n in sorted(self.owners.items()) if n not in self._bots]

    def must_default(self, who: Any) -> bool:
        return who in self._leaving

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
        if self.seat_of(name) is None or name in self._bots:
            return self.refuse("not_seated", f"{name} has no box here")
        if rnd is None or rnd.is_complete:
            return self.refuse("no_hand", "no round is waiting for an action")
        if hand_number is not None and hand_number != self.number:
            return self.refuse(
                "stale", f"round {hand_number} is over: round {self.number} is in play"
            )
        if name not in rnd.bankrolls:
            return self.refuse("not_dealt_in", f"{name} joins the table with the next round")
        if rnd.phase is RoundPhase.WAGERS:
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
        box = rnd.boxes.get(action.box)
        if action.box != own and isinstance(action, PlaceWager):
            owner = self.owners.get(action.box)
            if owner is None or box is None or box.owner != owner:
                return self.refuse(
                    "refused", f"box {action.box} may be backed once its owner has wagered on it"
                )
        elif isinstance(action, WithdrawWager) and box is not None and len(box.wagers) > 1:
            return self.refuse("refused", f"box {own} is backed: its owner's wager stays")
        try:
            rnd.apply(action)
        except CroupierError as error:
            return self.refuse(
                "illegal" if getattr(error, "rule", None) else "bad_action", str(error), error
            )
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
                return self.refuse("not_your_turn", str(error), error)
            return self.refuse("not_your_turn", f"the table is not waiting for {name}")
        try:
            rnd.apply(full)
        except CroupierError as error:
            return self.refuse(
                "illegal" if getattr(error, "rule", None) else "bad_action", str(error), error
            )
        self.accepted()
        return None

    def _refuse_engine(self, rnd: BlackjackRound, action: Action | str, code: str) -> ErrorMessage:
        """Refuse an action the round cannot take now, with the engine's reason."""
        try:
            rnd.verify(DealAction() if isinstance(action, str) else action)
        except CroupierError as error:
            return self.refuse(code, str(error), error)
        return self.refuse(code, f"{action} is not taken now")
