"""The table's own events: seating, the button, the hands dealt and finished, and bots that
failed. They sit beside the hand events (:mod:`croupier.poker.events`) in the table's log.

>>> PlayerSeated("Ann", 3, 500).describe()
'Ann sits in seat 3 with 500'
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards.card import Card
from croupier.poker import events as ev

__all__ = [
    "ButtonMoved",
    "ChipsBought",
    "HandDealt",
    "HandFinished",
    "MoveRequested",
    "PlayerLeft",
    "PlayerMoved",
    "PlayerSatIn",
    "PlayerSatOut",
    "PlayerSeated",
    "PlayerWaiting",
    "PolicyFailed",
    "SeatDrawn",
    "TableEvent",
]


@dataclass(frozen=True)
class TableEvent(ev.Event):
    """Base of the table's events (seating, button, hands).

    >>> PlayerSeated("Ann", 3, 500).describe()
    'Ann sits in seat 3 with 500'
    """


@dataclass(frozen=True)
class SeatDrawn(TableEvent):
    """A draw of cards for a seat wanted by two or more players (17.1(a)).

    >>> from croupier.cards import Card
    >>> SeatDrawn(4, (("Ann", Card.parse("Kh")), ("Bob", Card.parse("Ks"))), "Bob").describe()
    'draw for seat 4: Ann Kh, Bob Ks; Bob wins'
    """

    seat: int
    draws: tuple[tuple[str, Card], ...]
    """Each player's card, in request order."""
    winner: str

    def describe(self) -> str:
        """One line."""
        cards = ", ".join(f"{name} {card}" for name, card in self.draws)
        return f"draw for seat {self.seat}: {cards}; {self.winner} wins"


@dataclass(frozen=True)
class PlayerSeated(TableEvent):
    """A player takes a seat (with the chips he brings).

    >>> PlayerSeated("Ann", 3, 0).seat
    3
    """

    name: str
    seat: int
    chips: int

    def describe(self) -> str:
        """One line."""
        return f"{self.name} sits in seat {self.seat} with {self.chips}"


@dataclass(frozen=True)
class PlayerWaiting(TableEvent):
    """A player joins the waiting list (``place`` counts from 1).

    >>> PlayerWaiting("Ann", 2).describe()
    'Ann waits for a seat (2 on the list)'
    """

    name: str
    place: int

    def describe(self) -> str:
        """One line."""
        return f"{self.name} waits for a seat ({self.place} on the list)"


@dataclass(frozen=True)
class MoveRequested(TableEvent):
    """A seated player asks for an occupied seat, to move there when it is vacated.

    >>> MoveRequested("Ann", 5).describe()
    'Ann asks to move to seat 5'
    """

    name: str
    seat: int

    def describe(self) -> str:
        """One line."""
        return f"{self.name} asks to move to seat {self.seat}"


@dataclass(frozen=True)
class PlayerMoved(TableEvent):
    """A seated player changes seats.

    >>> PlayerMoved("Ann", 2, 5).describe()
    'Ann moves from seat 2 to seat 5'
    """

    name: str
    from_seat: int
    to_seat: int

    def describe(self) -> str:
        """One line."""
        return f"{self.name} moves from seat {self.from_seat} to seat {self.to_seat}"


@dataclass(frozen=True)
class PlayerLeft(TableEvent):
    """A player leaves the table (``seat`` None: left the waiting list) with his chips.

    >>> PlayerLeft("Ann", 2, 740, "busted").describe()
    'Ann leaves seat 2 with 740 (busted)'
    """

    name: str
    seat: int | None
    chips: int
    reason: str = ""

    def describe(self) -> str:
        """One line."""
        where = "the waiting list" if self.seat is None else f"seat {self.seat}"
        why = f" ({self.reason})" if self.reason else ""
        return f"{self.name} leaves {where} with {self.chips}{why}"


@dataclass(frozen=True)
class ChipsBought(TableEvent):
    """A buy-in between hands ("Buy-in", "Table Stakes"); ``chips`` is the new stack.

    >>> ChipsBought("Ann", 200, 250).describe()
    'Ann buys 200 chips (now 250)'
    """

    name: str
    amount: int
    chips: int

    def describe(self) -> str:
        """One line."""
        return f"{self.name} buys {self.amount} chips (now {self.chips})"


@dataclass(frozen=True)
class PlayerSatOut(TableEvent):
    """A player keeps his seat but is not dealt in (by choice, or with no chips).

    >>> PlayerSatOut("Ann", "no chips").describe()
    'Ann sits out (no chips)'
    """

    name: str
    reason: str

    def describe(self) -> str:
        """One line."""
        return f"{self.name} sits out ({self.reason})"


@dataclass(frozen=True)
class PlayerSatIn(TableEvent):
    """A player who sat out is back (he waits for the big blind under the default entry rule).

    >>> PlayerSatIn("Ann").describe()
    'Ann is back'
    """

    name: str

    def describe(self) -> str:
        """One line."""
        return f"{self.name} is back"


@dataclass(frozen=True)
class ButtonMoved(TableEvent):
    """Where the button is for hand number ``hand`` (``dead``: no player dealt in sits there).

    >>> ButtonMoved(2, 4, dead=True).describe()
    'hand 2: button at seat 4 (dead)'
    """

    hand: int
    seat: int
    dead: bool = False

    def describe(self) -> str:
        """One line."""
        return f"hand {self.hand}: button at seat {self.seat}" + (" (dead)" if self.dead else "")


@dataclass(frozen=True)
class HandDealt(TableEvent):
    """A hand starts: the seats dealt in, the blinds posted and the dead blind positions.

    >>> HandDealt(1, (1, 3, 5), ((1, 5), (3, 10)), ()).describe()
    'hand 1: seats [1, 3, 5], blinds seat 1 5, seat 3 10'
    """

    hand: int
    seats: tuple[int, ...]
    blinds: tuple[tuple[int, int], ...]
    dead_blinds: tuple[int, ...]

    def describe(self) -> str:
        """One line."""
        text = f"hand {self.hand}: seats {list(self.seats)}"
        if self.blinds:
            text += ", blinds " + ", ".join(f"seat {s} {a}" for s, a in self.blinds)
        if self.dead_blinds:
            text += f", dead blind at seat(s) {list(self.dead_blinds)}"
        return text


@dataclass(frozen=True)
class HandFinished(TableEvent):
    """A hand is over: each dealt-in player's stack after it, and the rake taken.

    >>> HandFinished(1, (("Ann", 510), ("Bob", 490)), 0).describe()
    'hand 1 over: Ann 510, Bob 490'
    """

    hand: int
    stacks: tuple[tuple[str, int], ...]
    rake: int

    def describe(self) -> str:
        """One line."""
        text = f"hand {self.hand} over: " + ", ".join(f"{n} {c}" for n, c in self.stacks)
        return text + (f", rake {self.rake}" if self.rake else "")


@dataclass(frozen=True)
class PolicyFailed(TableEvent):
    """A policy raised an error, or answered with no action or an illegal one, for the seat
    to act; the seat made the
    default action instead (check when free, else fold; stand pat; the least bring-in), as
    a player whose time to act has run out. The hand goes on; nothing is voided.

    >>> PolicyFailed(3, 2, "ValueError: boom", "folds").describe()
    "hand 3: seat 2's policy failed (ValueError: boom); seat 2 folds"
    """

    hand: int
    seat: int
    reason: str
    action: str

    def describe(self) -> str:
        """One line."""
        return (
            f"hand {self.hand}: seat {self.seat}'s policy failed ({self.reason}); "
            f"seat {self.seat} {self.action}"
        )
