"""Seating at a poker table: who sits where, the waiting list, moves, buying in, sitting
out and leaving (Omaha 17.1(a), Five Card Stud 12.1(a), Poker definitions: Table Stakes),
as one part of :class:`~croupier.poker.table.Table`.

>>> from croupier.poker import TableRules
>>> from croupier.poker.table import Table
>>> table = Table(TableRules(), seats=6, seed=1)
>>> table.sit("Ann", 2, 300); table.free_seats
(1, 3, 4, 5, 6)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from croupier.cards.deck import Deck
from croupier.checks import can, seat_number, whole_chips
from croupier.errors import CroupierError, RuleViolationError
from croupier.poker.settings import TableRules
from croupier.poker.table_events import (
    ChipsBought,
    MoveRequested,
    PlayerLeft,
    PlayerMoved,
    PlayerSatIn,
    PlayerSatOut,
    PlayerSeated,
    PlayerWaiting,
    SeatDrawn,
    TableEvent,
)

if TYPE_CHECKING:
    from croupier.poker.state import HandState

__all__ = ["EntryRule", "Seating", "SeatingRules", "TableError", "TablePlayer"]

BUTTON = "Omaha 17.1(b)"
STAKES = "Poker definitions: Table Stakes"


class TableError(CroupierError):
    """A table operation that cannot be done now (unknown player, a hand in progress...).

    >>> from croupier.poker import Table, TableRules
    >>> Table(TableRules(), seats=6).leave("Nobody")
    Traceback (most recent call last):
    ...
    croupier.poker.seating.TableError: no player called 'Nobody' at the table
    """


class EntryRule(StrEnum):
    """When a player who was not dealt the last hand is dealt in (Decision 3.2-7).

    >>> SeatingRules().entry
    <EntryRule.WAIT_FOR_BIG_BLIND: 'wait-for-big-blind'>
    """

    WAIT_FOR_BIG_BLIND = "wait-for-big-blind"
    """Casino default: wait until the big blind reaches the player, then post it."""
    ENTER_AT_ONCE = "enter-at-once"
    """A player new to the table is dealt in at once, without posting, unless seated
    between the button and the big blind; moved or returning players still wait."""


@dataclass(frozen=True)
class SeatingRules:
    """House choices for seating, entry and busted players.

    >>> SeatingRules(busted_players_leave=True).busted_players_leave
    True
    """

    entry: EntryRule = EntryRule.WAIT_FOR_BIG_BLIND
    """When new and returning players are dealt in."""
    busted_players_leave: bool = False
    """Whether a player left with no chips leaves the table (else sits out until a buy-in)."""


@dataclass
class TablePlayer:
    """A player at the table or on its waiting list (read it; change it through the table).

    >>> TablePlayer("Ann", seat=2, chips=100).ready
    True
    """

    name: str
    """The player's name (unique at the table)."""
    seat: int | None
    """The seat, or None on the waiting list."""
    chips: int = 0
    """Chips on the table (table stakes)."""
    sitting_out: bool = False
    """Sitting out by choice (:meth:`Table.sit_out`)."""
    in_rotation: bool = False
    """Dealt the last hand at this seat: keeps his place in the blind rotation."""
    has_played: bool = False
    """Has been dealt a hand at this table."""

    @property
    def ready(self) -> bool:
        """Seated, with chips, not sitting out."""
        return self.seat is not None and self.chips > 0 and not self.sitting_out


class Seating:
    """The seating part of a table: the seats, the waiting list and the players' chips.

    >>> from croupier.poker import TableRules
    >>> from croupier.poker.table import Table
    >>> isinstance(Table(TableRules(), seats=6), Seating)
    True
    """

    rules: TableRules
    seating: SeatingRules
    seat_count: int
    dealer_right: int
    events: list[TableEvent]
    hand_number: int
    hand: HandState | None
    _rng: random.Random
    _players: dict[str, TablePlayer]
    _seats: dict[int, TablePlayer]
    _waiting: list[str]
    _moves: dict[str, int]

    # ------------------------------------------------------------------ views
    @property
    def seats(self) -> dict[int, TablePlayer]:
        """Occupied seats, in seat order.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 4, 100)
        >>> {s: p.name for s, p in table.seats.items()}
        {4: 'Ann'}
        """
        return dict(sorted(self._seats.items()))

    @property
    def free_seats(self) -> tuple[int, ...]:
        """Empty seats, in seat order.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=3); table.sit("Ann", 2, 100)
        >>> table.free_seats
        (1, 3)
        """
        return tuple(s for s in range(1, self.seat_count + 1) if s not in self._seats)

    @property
    def waiting_list(self) -> tuple[str, ...]:
        """Players waiting for a seat, first come first.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=2)
        >>> table.sit("Ann", 1, 0); table.sit("Bob", 2, 0); table.join_waiting_list("Cy")
        >>> table.waiting_list
        ('Cy',)
        """
        return tuple(self._waiting)

    @property
    def pending_moves(self) -> dict[str, int]:
        """Seated players' standing requests to move: name -> wanted seat.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=2)
        >>> table.sit("Ann", 1, 0); table.sit("Bob", 2, 0); table.request_move("Ann", 2)
        False
        >>> table.pending_moves
        {'Ann': 2}
        """
        return dict(self._moves)

    @property
    def stacks(self) -> dict[str, int]:
        """Seated players' chips, in seat order.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 4, 100)
        >>> table.stacks
        {'Ann': 100}
        """
        return {p.name: p.chips for _, p in sorted(self._seats.items())}

    def player(self, name: str) -> TablePlayer:
        """The named player (seated or waiting).

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 4, 100)
        >>> table.player("Ann").seat
        4
        """
        try:
            return self._players[name]
        except KeyError:
            raise TableError(f"no player called {name!r} at the table") from None

    # -------------------------------------------------------------- seating
    def _seat_rule(self) -> str:
        return self.rules.game.seat_rule

    def _between_hands(self, what: str) -> None:
        if self.hand is not None:
            raise TableError(f"cannot {what} during a hand: finish hand {self.hand_number} first")

    def _new_name(self, name: str) -> None:
        if not name:
            raise TableError("a player needs a name")
        if name in self._players:
            raise TableError(f"{name!r} is already at the table")

    def _check_chips(self, chips: int, *, allow_zero: bool) -> None:
        whole_chips(chips, "a buy-in", minimum=None)
        unit = self.rules.chip_unit
        if chips < 0 or (chips == 0 and not allow_zero) or chips % unit:
            raise RuleViolationError(
                STAKES, f"cannot bring {chips} chips", f"a positive multiple of {unit}"
            )

    def _check_seat(self, seat: int) -> None:
        seat_number(seat)
        if not 1 <= seat <= self.seat_count:
            raise RuleViolationError(
                self._seat_rule(), f"there is no seat {seat}", f"seats 1..{self.seat_count}"
            )

    def verify_sit(self, name: str, seat: int | None = None, chips: int = 0) -> None:
        """Raise unless ``name`` may sit in ``seat`` (None: any free seat) with ``chips``.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 4, 100)
        >>> table.verify_sit("Bob", 4)
        Traceback (most recent call last):
        ...
        croupier.errors.RuleViolationError: Omaha 17.1(a): seat 4 is taken; allowed: a free seat (1, 2, 3, 5, 6) or request_seats
        """
        self._between_hands("take a seat")
        self._new_name(name)
        self._check_chips(chips, allow_zero=True)
        free = self.free_seats
        if not free:
            raise RuleViolationError(self._seat_rule(), "no seat is free", "join the waiting list")
        if seat is not None:
            self._check_seat(seat)
            if seat not in free:
                allowed = f"a free seat ({', '.join(map(str, free))}) or request_seats"
                raise RuleViolationError(self._seat_rule(), f"seat {seat} is taken", allowed)

    def can_sit(self, name: str, seat: int | None = None, chips: int = 0) -> bool:
        """Whether :meth:`sit` would succeed.

        >>> from croupier.poker import Table, TableRules
        >>> Table(TableRules(), seats=6).can_sit("Ann", 7)
        False
        """
        return can(self.verify_sit, name, seat, chips)

    def sit(self, name: str, seat: int | None = None, chips: int = 0) -> None:
        """Sit ``name`` in a free seat (None: the lowest free seat) with ``chips``.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=6); table.sit("Ann", None, 100)
        >>> table.player("Ann").seat
        1
        """
        self.verify_sit(name, seat, chips)
        player = TablePlayer(name, None, chips)
        self._players[name] = player
        self._seat(player, self.free_seats[0] if seat is None else seat)

    def _seat(self, player: TablePlayer, seat: int) -> None:
        player.seat = seat
        self._seats[seat] = player
        self.events.append(PlayerSeated(player.name, seat, player.chips))

    def join_waiting_list(self, name: str, chips: int = 0) -> None:
        """Put ``name`` on the waiting list (he is seated at once if a seat is free).

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=2); table.join_waiting_list("Ann", 100)
        >>> table.player("Ann").seat
        1
        """
        self._between_hands("join the waiting list")
        self._new_name(name)
        self._check_chips(chips, allow_zero=True)
        self._players[name] = TablePlayer(name, None, chips)
        self._waiting.append(name)
        self.events.append(PlayerWaiting(name, len(self._waiting)))
        self._fill(list(self.free_seats))

    def request_seats(
        self, requests: Mapping[str, int | None], *, chips: int | Mapping[str, int] = 0
    ) -> dict[str, int | None]:
        """Seat players arriving together; return each one's seat (None: waiting list).

        Uncontested free seats are granted; a free seat wanted by several players goes
        to the highest card of a draw (17.1(a)). The others, in order of their cards,
        then everyone who asked for a taken seat or none, in request order, get the next
        free seat clockwise of the one they asked for (the lowest free seat for None),
        or join the waiting list.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=3, seed=2)
        >>> table.request_seats({"Ann": 1, "Bob": 1, "Cy": 1, "Di": 3})
        {'Ann': 2, 'Bob': 1, 'Cy': None, 'Di': 3}
        >>> table.events[0].describe()
        'draw for seat 1: Ann 5s, Bob 9d, Cy 4d; Bob wins'
        >>> table.waiting_list
        ('Cy',)
        """
        self._between_hands("take seats")
        names = list(requests)
        for name in names:
            self._new_name(name)
            wanted = requests[name]
            if wanted is not None:
                self._check_seat(wanted)
            self._check_chips(self._chips_for(name, chips), allow_zero=True)
        free = set(self.free_seats)
        contested: dict[int, list[str]] = {}
        for name in names:
            wanted = requests[name]
            if wanted in free:
                contested.setdefault(wanted, []).append(name)
        placed: dict[str, int | None] = {}
        later: list[str] = []
        for seat, wanting in contested.items():
            ranking = wanting if len(wanting) == 1 else self._draw_for(seat, wanting)
            placed[ranking[0]] = seat
            later.extend(ranking[1:])
        later.extend(n for n in names if requests[n] not in free)
        free.difference_update(s for s in placed.values() if s is not None)
        for name in later:
            wanted = requests[name]
            start = 0 if wanted is None else wanted
            order = [s for s in self._clockwise(start) if s in free] if free else []
            placed[name] = order[0] if order else None
            if order:
                free.discard(order[0])
        for name in names:
            player = TablePlayer(name, None, self._chips_for(name, chips))
            self._players[name] = player
            got = placed[name]
            if got is None:
                self._waiting.append(name)
                self.events.append(PlayerWaiting(name, len(self._waiting)))
            else:
                self._seat(player, got)
        return {name: placed[name] for name in names}

    @staticmethod
    def _chips_for(name: str, chips: int | Mapping[str, int]) -> int:
        return chips if isinstance(chips, int) else chips.get(name, 0)

    def _draw_for(self, seat: int, names: Sequence[str]) -> list[str]:
        """A draw of cards for ``seat``: the names ranked by their cards, best first."""
        cards = Deck.standard(rng=self._rng).draw(len(names))
        ranking = sorted(zip(names, cards, strict=True), key=lambda d: d[1], reverse=True)
        self.events.append(SeatDrawn(seat, tuple(zip(names, cards, strict=True)), ranking[0][0]))
        return [name for name, _ in ranking]

    def _clockwise(self, seat: int) -> list[int]:
        """Every seat clockwise after ``seat``, ending with ``seat`` itself (0: from seat 1)."""
        n = self.seat_count
        return [(seat + i - 1) % n + 1 for i in range(1, n + 1)]

    def request_move(self, name: str, seat: int) -> bool:
        """Ask to move ``name`` to ``seat``: at once if it is free (True), else when it is
        vacated, ahead of the waiting list (17.1(a)). A new request replaces an old one.
        A player who moves waits for the big blind at his new seat.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=2)
        >>> table.sit("Ann", 1, 100); table.sit("Bob", 2, 100); table.join_waiting_list("Cy")
        >>> table.request_move("Ann", 2)
        False
        >>> table.leave("Bob")
        100
        >>> table.player("Ann").seat, table.player("Cy").seat
        (2, 1)
        """
        self._between_hands("change seats")
        player = self.player(name)
        self._check_seat(seat)
        if player.seat is None:
            raise TableError(f"{name} is on the waiting list, not seated")
        if player.seat == seat:
            raise TableError(f"{name} already sits in seat {seat}")
        if seat in self._seats:
            self._moves[name] = seat
            self.events.append(MoveRequested(name, seat))
            return False
        self._moves.pop(name, None)
        self._move(player, seat)
        return True

    def cancel_move(self, name: str) -> None:
        """Withdraw ``name``'s standing move request.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=2)
        >>> table.sit("Ann", 1, 0); table.sit("Bob", 2, 0); table.request_move("Ann", 2)
        False
        >>> table.cancel_move("Ann"); table.pending_moves
        {}
        """
        self.player(name)
        self._moves.pop(name, None)

    def _move(self, player: TablePlayer, seat: int) -> None:
        old = player.seat
        assert old is not None
        del self._seats[old]
        player.seat = seat
        player.in_rotation = False
        self._seats[seat] = player
        self.events.append(PlayerMoved(player.name, old, seat))
        self._fill([old])

    def _fill(self, vacated: list[int]) -> None:
        """Give vacated seats to seated players who asked for them, then to the waiting list."""
        queue = list(vacated)
        while queue:
            seat = queue.pop(0)
            if seat in self._seats:
                continue
            movers = [n for n, wanted in self._moves.items() if wanted == seat]
            if movers:
                winner = movers[0] if len(movers) == 1 else self._draw_for(seat, movers)[0]
                del self._moves[winner]
                self._move(self._players[winner], seat)
            elif self._waiting:
                self._seat(self._players[self._waiting.pop(0)], seat)

    def leave(self, name: str, reason: str = "") -> int:
        """``name`` leaves the table or the waiting list; return the chips he takes.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 4, 100)
        >>> table.leave("Ann"), table.free_seats
        (100, (1, 2, 3, 4, 5, 6))
        """
        self._between_hands("leave")
        player = self.player(name)
        del self._players[name]
        self._moves.pop(name, None)
        seat = player.seat
        if seat is None:
            self._waiting.remove(name)
        else:
            del self._seats[seat]
        self.events.append(PlayerLeft(name, seat, player.chips, reason))
        if seat is not None:
            self._fill([seat])
        return player.chips

    def verify_buy_in(self, name: str, chips: int) -> None:
        """Raise unless ``name`` may buy ``chips`` now: only between hands (Table Stakes).

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=6)
        >>> table.sit("Ann", 1, 100); table.sit("Bob", 2, 100)
        >>> _ = table.start_hand()
        >>> table.verify_buy_in("Ann", 100)
        Traceback (most recent call last):
        ...
        croupier.errors.RuleViolationError: Poker definitions: Table Stakes: chips can be bought only between hands (hand 1 is in progress); allowed: buy in after the hand
        """
        self.player(name)
        if self.hand is not None:
            raise RuleViolationError(
                STAKES,
                f"chips can be bought only between hands (hand {self.hand_number} is in progress)",
                "buy in after the hand",
            )
        self._check_chips(chips, allow_zero=False)

    def can_buy_in(self, name: str, chips: int) -> bool:
        """Whether :meth:`buy_in` would succeed.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 1)
        >>> table.can_buy_in("Ann", 100), table.can_buy_in("Ann", -5)
        (True, False)
        """
        return can(self.verify_buy_in, name, chips)

    def buy_in(self, name: str, chips: int) -> None:
        """Add ``chips`` to ``name``'s stack (seated or waiting), between hands only.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 1)
        >>> table.buy_in("Ann", 250); table.stacks
        {'Ann': 250}
        """
        self.verify_buy_in(name, chips)
        player = self._players[name]
        player.chips += chips
        self.events.append(ChipsBought(name, chips, player.chips))

    def sit_out(self, name: str) -> None:
        """``name`` keeps his seat but is not dealt in until :meth:`sit_in`.

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 1, 100)
        >>> table.sit_out("Ann"); table.player("Ann").ready
        False
        """
        self._between_hands("sit out")
        player = self.player(name)
        if player.seat is None:
            raise TableError(f"{name} is not seated")
        if not player.sitting_out:
            player.sitting_out = True
            self.events.append(PlayerSatOut(name, "by choice"))

    def sit_in(self, name: str) -> None:
        """``name`` comes back after :meth:`sit_out` (and waits for the big blind by default).

        >>> from croupier.poker import Table, TableRules
        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 1, 100)
        >>> table.sit_out("Ann"); table.sit_in("Ann"); table.player("Ann").ready
        True
        """
        self._between_hands("sit in")
        player = self.player(name)
        if player.sitting_out:
            player.sitting_out = False
            self.events.append(PlayerSatIn(name))
