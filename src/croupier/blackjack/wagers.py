"""Wagers before the deal (Blackjack 4.2, Decision 3.1-14): the wager book, a part of
:class:`~croupier.blackjack.round.BlackjackRound`.

:class:`Wagers` owns the boxes' wagers until the deal: it checks a wager or a withdrawal,
makes it (moving the chips between the bankrolls and the box) and returns the event, and
gives each player's wager limits for
:meth:`~croupier.blackjack.round.BlackjackRound.legal_actions`. It works on the round's
``bankrolls`` and ``boxes``, handed to it, and knows nothing else of the round: whether
wagers are still open is the caller's to say.

>>> from croupier.blackjack.rules import NZ
>>> book = Wagers(NZ, {"ann": 50, "bo": 20}, {})
>>> book.place(1, "ann", 30)
WagerPlaced(box=1, player='ann', amount=30)
>>> [(w.player, w.low, w.high) for w in book.limits() if w.box == 1]
[('ann', 10, 50), ('bo', 10, 20)]
"""

from __future__ import annotations

from numbers import Integral

from croupier.blackjack import events as ev
from croupier.blackjack.actions import WagerLimit
from croupier.blackjack.hands import Box
from croupier.blackjack.rules import BlackjackRules, whole_number
from croupier.errors import IllegalActionError

__all__ = ["Wagers"]


class Wagers:
    """The wager book: the wagers on ``boxes`` (number to :class:`Box`), paid from and back
    to ``bankrolls`` (both the round's own, shared).

    >>> from croupier.blackjack.rules import NZ
    >>> Wagers(NZ, {"ann": 50}, {}).verify_place(8, "ann", 10, before_deal=True)
    Traceback (most recent call last):
    ...
    croupier.errors.IllegalActionError: Decision 3.1-14: there is no box 8; allowed: boxes 1 to 7
    """

    __slots__ = ("bankrolls", "boxes", "rules")

    def __init__(
        self, rules: BlackjackRules, bankrolls: dict[str, int], boxes: dict[int, Box]
    ) -> None:
        self.rules = rules
        """The rule set (the table limits, the chip unit, the layout's boxes)."""
        self.bankrolls = bankrolls
        """Each player's chips off the table."""
        self.boxes = boxes
        """The boxes with wagers, by number."""

    def limits(self) -> tuple[WagerLimit, ...]:
        """What each player may wager on each box now (before the deal)."""
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

    def withdrawals(self) -> tuple[tuple[int, str], ...]:
        """The ``(box, player)`` wagers that may be taken back, in box order."""
        return tuple((n, p) for n, b in sorted(self.boxes.items()) for p in b.wagers)

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

    @staticmethod
    def _require_open(before_deal: bool, what: str) -> None:
        if not before_deal:
            raise IllegalActionError(
                "Blackjack 4.2",
                f"no wager may be {what} once the first card has left the shoe",
                "no wager changes until the next round",
            )

    def verify_place(
        self, box: object, player: object, amount: object, *, before_deal: bool
    ) -> None:
        """Raise unless ``player`` may wager ``amount`` on ``box`` (``before_deal``: before the
        deal): a box of the layout, a player at the table, a whole number of chips within
        the table limits and the player's chips."""
        rules = self.rules
        if (
            type(box) is int
            and 1 <= box <= rules.boxes
            and type(player) is str
            and player in self.bankrolls
            and type(amount) is int
            and before_deal
        ):  # well-formed, before the deal: the checks below
            number, name, chips = box, player, amount
        else:  # the first malformed part, or the deal, refuses it
            number = self._check_box(box)
            name = self._check_player(player)
            chips = whole_number("a wager", amount)
            self._require_open(before_deal, "made or changed")
        target = self.boxes.get(number)
        if target is None:
            held = 0
            total = chips
        else:
            wagers = target.wagers
            held = wagers.get(name, 0)
            total = chips + sum(wagers.values()) - held
        if chips % rules.chip_unit or not rules.table_minimum <= chips:
            raise IllegalActionError(
                "Decision 3.1-14",
                f"a wager of {chips} is below the table minimum or not in chips",
                f"{rules.table_minimum} to {rules.table_maximum} in units of {rules.chip_unit}",
            )
        if total > rules.table_maximum:
            raise IllegalActionError(
                "Decision 3.1-14",
                f"box {number} would hold {total}, over the table maximum",
                f"at most {rules.table_maximum} a box",
            )
        if chips > self.bankrolls[name] + held:
            raise IllegalActionError(
                "Decision 3.1-14", f"{name} has only {self.bankrolls[name] + held}"
            )

    def place(self, box: int, player: str, amount: int) -> ev.WagerPlaced:
        """Place (or change) ``player``'s wager on ``box``, once :meth:`verify_place` passed."""
        if type(box) is not int or type(amount) is not int:
            box, amount = int(box), int(amount)
        target = self.boxes.get(box)
        if target is None:
            target = self.boxes[box] = Box(box, {})
        wagers = target.wagers
        self.bankrolls[player] += wagers.get(player, 0) - amount
        wagers[player] = amount
        return ev.wager_placed(box, player, amount)

    def verify_withdraw(self, box: object, player: object, *, before_deal: bool) -> None:
        """Raise unless ``player`` may take the wager back from ``box`` (``before_deal``: before
        the deal)."""
        number = self._check_box(box)
        name = self._check_player(player)
        self._require_open(before_deal, "withdrawn")
        if number not in self.boxes or name not in self.boxes[number].wagers:
            raise IllegalActionError("Blackjack 4.2", f"{name} has no wager on box {number}")

    def withdraw(self, box: int, player: str) -> ev.WagerPlaced:
        """Take the wager back, once :meth:`verify_withdraw` passed (an empty box goes)."""
        box = int(box)
        target = self.boxes[box]
        self.bankrolls[player] += target.wagers.pop(player)
        if not target.wagers:
            del self.boxes[box]
        return ev.wager_placed(box, player, 0)
