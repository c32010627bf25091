"""Wagers before the deal (Blackjack 4.2, Decision 3.1-14): the ``place_wager`` and
``withdraw_wager`` triads of :class:`~croupier.blackjack.round.BlackjackRound`, and each
player's wager limits for :meth:`~croupier.blackjack.round.BlackjackRound.legal_actions`.

>>> from croupier.blackjack import NZ, BlackjackRound
>>> from croupier.cards import Shoe
>>> rnd = BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50, "bo": 20})
>>> rnd.place_wager(1, "ann", 30)
WagerPlaced(box=1, player='ann', amount=30)
>>> [(w.player, w.low, w.high) for w in rnd.legal_actions().wagers if w.box == 1]
[('ann', 10, 50), ('bo', 10, 20)]
"""

from __future__ import annotations

from numbers import Integral
from typing import TYPE_CHECKING

from croupier.blackjack import events as ev
from croupier.blackjack.actions import WagerLimit
from croupier.blackjack.hands import Box, RoundPhase
from croupier.blackjack.rules import BlackjackRules, whole_number
from croupier.checks import can
from croupier.errors import IllegalActionError

__all__ = ["Wagers"]


class Wagers:
    """The wager triads of a round (a base of
    :class:`~croupier.blackjack.round.BlackjackRound`).

    >>> from croupier.blackjack import NZ, BlackjackRound
    >>> from croupier.cards import Shoe
    >>> BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50}).can_place_wager(8, "ann", 10)
    False
    """

    if TYPE_CHECKING:
        rules: BlackjackRules
        bankrolls: dict[str, int]
        boxes: dict[int, Box]
        events: list[ev.Event]
        phase: RoundPhase

    def _wager_limits(self) -> tuple[WagerLimit, ...]:
        rules, unit = self.rules, self.rules.chip_unit
        low = -(-rules.table_minimum // unit) * unit
        out = []
        for number in range(1, rules.boxes + 1):
            box = self.boxes.get(number)
            for player, chips in self.bankrolls.items():
                held = box.wagers.get(player, 0) if box else 0
                others = sum(box.wagers.values()) - held if box else 0
                high = min(rules.table_maximum - others, chips + held) // unit * unit
                if high >= low:
                    out.append(WagerLimit(number, player, low, high, unit))
        return tuple(out)

    def _check_box(self, box: object) -> int:
        boxes = self.rules.boxes
        if type(box) is int and 1 <= box <= boxes:
            return box
        if isinstance(box, bool) or not isinstance(box, Integral):
            raise IllegalActionError(
                "Decision 3.1-14",
                f"a box is a number, not {box!r} ({type(box).__name__})",
                f"boxes 1 to {boxes}",
            )
        if not 1 <= int(box) <= boxes:
            raise IllegalActionError(
                "Decision 3.1-14", f"there is no box {box}", f"boxes 1 to {boxes}"
            )
        return int(box)

    def _check_player(self, player: object) -> str:
        if type(player) is str and player in self.bankrolls:
            return player
        if not isinstance(player, str) or player not in self.bankrolls:
            raise IllegalActionError(
                "Decision 3.1-14",
                f"{player!r} is not a player at this table",
                ", ".join(self.bankrolls) or "no players",
            )
        return player

    def _require_wagers(self, what: str) -> None:
        if self.phase is not RoundPhase.WAGERS:
            raise IllegalActionError(
                "Blackjack 4.2",
                f"no wager may be {what} once the first card has left the shoe",
                "no wager changes until the next round",
            )

    def verify_place_wager(self, box: int, player: str, amount: int) -> None:
        """Raise unless ``player`` may wager ``amount`` on ``box`` now: a box of the layout,
        a player at the table, a whole number of chips (any integer but a bool).

        >>> from croupier.blackjack import NZ, BlackjackRound
        >>> from croupier.cards import Shoe
        >>> rnd = BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50})
        >>> rnd.verify_place_wager(0, "ann", 10)
        Traceback (most recent call last):
        ...
        croupier.errors.IllegalActionError: Decision 3.1-14: there is no box 0; allowed: boxes 1 to 7
        >>> rnd.verify_place_wager(1, "ann", 10.0)
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: a wager must be a whole number, not 10.0 (float)
        """
        box = self._check_box(box)
        player = self._check_player(player)
        amount = whole_number("a wager", amount)
        self._require_wagers("made or changed")
        held = self.boxes[box].wagers.get(player, 0) if box in self.boxes else 0
        total = amount + (sum(self.boxes[box].wagers.values()) - held if box in self.boxes else 0)
        rules = self.rules
        if amount % rules.chip_unit or not rules.table_minimum <= amount:
            raise IllegalActionError(
                "Decision 3.1-14",
                f"a wager of {amount} is below the table minimum or not in chips",
                f"{rules.table_minimum} to {rules.table_maximum} in units of {rules.chip_unit}",
            )
        if total > rules.table_maximum:
            raise IllegalActionError(
                "Decision 3.1-14",
                f"box {box} would hold {total}, over the table maximum",
                f"at most {rules.table_maximum} a box",
            )
        if amount > self.bankrolls[player] + held:
            raise IllegalActionError(
                "Decision 3.1-14", f"{player} has only {self.bankrolls[player] + held}"
            )

    def can_place_wager(self, box: int, player: str, amount: int) -> bool:
        """Whether :meth:`place_wager` is legal now."""
        return can(self.verify_place_wager, box, player, amount)

    def place_wager(self, box: int, player: str, amount: int) -> ev.WagerPlaced:
        """Place (or change) ``player``'s wager on ``box`` before the deal (4.2)."""
        self.verify_place_wager(box, player, amount)
        box, amount = int(box), int(amount)
        target = self.boxes.get(box)
        if target is None:
            target = self.boxes[box] = Box(box, {})
        self.bankrolls[player] += target.wagers.get(player, 0)
        target.wagers[player] = amount
        self.bankrolls[player] -= amount
        event = ev.WagerPlaced(box, player, amount)
        self.events.append(event)
        return event

    def verify_withdraw_wager(self, box: int, player: str) -> None:
        """Raise unless ``player`` may take the wager back from ``box`` (before the deal, 4.2)."""
        box = self._check_box(box)
        player = self._check_player(player)
        self._require_wagers("withdrawn")
        if box not in self.boxes or player not in self.boxes[box].wagers:
            raise IllegalActionError("Blackjack 4.2", f"{player} has no wager on box {box}")

    def can_withdraw_wager(self, box: int, player: str) -> bool:
        """Whether :meth:`withdraw_wager` is legal now."""
        return can(self.verify_withdraw_wager, box, player)

    def withdraw_wager(self, box: int, player: str) -> ev.WagerPlaced:
        """Take a wager back before the deal (4.2).

        >>> from croupier.blackjack import NZ, BlackjackRound
        >>> from croupier.cards import Shoe
        >>> rnd = BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50})
        >>> rnd.place_wager(1, "ann", 20); rnd.withdraw_wager(1, "ann"); rnd.bankrolls
        WagerPlaced(box=1, player='ann', amount=20)
        WagerPlaced(box=1, player='ann', amount=0)
        {'ann': 50}
        """
        self.verify_withdraw_wager(box, player)
        box = int(box)
        target = self.boxes[box]
        self.bankrolls[player] += target.wagers.pop(player)
        if not target.wagers:
            del self.boxes[box]
        event = ev.WagerPlaced(box, player, 0)
        self.events.append(event)
        return event
