"""A poker table: seat choice, the waiting list, the button and the blinds, hand after hand.

:class:`Table` seats players, runs one :class:`~croupier.poker.state.HandState` after
another under one :class:`~croupier.poker.settings.TableRules`, carries the stacks over
and logs every seating change as a frozen :class:`TableEvent`.

**Geometry.** Seats are numbered 1..N clockwise; "clockwise" is increasing seat number,
N wrapping to 1 (as in :class:`HandState`). The dealer sits between two seats: by default
between seat N and seat 1, so seat 1 is at the dealer's immediate left and seat N at the
dealer's immediate right (``dealer_right`` moves the dealer).

**Rules the table follows** (x.1(a), x.1(b), "Button", "Dead Button", "Table Stakes",
decisions 3.2-7 and 3.2-8):

* Seat choice (17.1(a), 12.1(a)). A seat wanted by two or more players is settled by a
  draw: one card each from a deck shuffled with the table's RNG, highest card wins, by rank
  and then suit (spades, hearts, diamonds, clubs). The others, best card first, take the
  next free seat clockwise of the one they asked for, or join the waiting list. When a
  seat is vacated, seated players who asked to move there (:meth:`Table.request_move`)
  come first (a draw if several), then the waiting list, first come first served.
* First button (17.1(b), Decision 3.2-8): the player nearest the dealer's immediate right
  (the highest occupied seat by default). No draw for the button.
* The button moves one position clockwise after each hand. The **big blind moves forward
  one player every hand** and never skips anyone dealt in; each earlier blind goes to the
  player who posted the next blind last hand, and the button to the seat of last hand's
  first blind. When that player has left (or sits out), the blind is *dead* (nobody posts
  it) or the button is *dead* (left in front of a seat with no player in the hand). So
  every player pays each blind once an orbit, and nobody pays the big blind twice in a row.
* Heads up (Decision 3.2-7) the blinds follow ``TableRules.heads_up``; the big blind still
  alternates, and the button is placed from it (entering or leaving heads-up play may
  keep the button in place for a hand). With fewer players than blinds the first blinds
  are left out: nobody posts two.
* New players (:class:`EntryRule`): by default a player who was not dealt the last hand
  (new, moved, back from sitting out or from a rebuy after busting) waits until the big
  blind reaches him and enters by posting it. Missed blinds are therefore never owed.
* Table stakes: chips are bought (:meth:`Table.buy_in`) only between hands; a player with
  no chips sits out until he buys in, or leaves (``SeatingRules.busted_players_leave``).
* Stud games have no blinds and no button: everyone with chips is dealt in and the deal
  starts at the dealer's immediate left (12.1(c)).

>>> table = Table(TableRules(), seats=6, seed=3)
>>> table.sit("Ann", 1, 500); table.sit("Bob", 3, 500); table.sit("Cy", 5, 500)
>>> hand = table.play_hand(passive_policy)
>>> table.button, [e.describe() for e in table.events if isinstance(e, HandDealt)]
(5, ['hand 1: seats [1, 3, 5], blinds seat 1 5, seat 3 10'])
>>> sum(table.stacks.values())
1500
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from croupier.cards.card import Card
from croupier.cards.deck import Deck
from croupier.cards.rng import make_rng
from croupier.checks import seat_number, whole_chips, whole_number
from croupier.errors import CroupierError, RuleViolationError
from croupier.poker import events as ev
from croupier.poker.actions import Action
from croupier.poker.blinds import blind_posters, button_for_last_blind
from croupier.poker.games import ForcedBets
from croupier.poker.policies import Policy, passive_policy, random_policy
from croupier.poker.settings import TableRules
from croupier.poker.state import HandState

__all__ = [
    "ButtonMoved",
    "ChipsBought",
    "EntryRule",
    "HandDealt",
    "HandFinished",
    "HandPlan",
    "MoveRequested",
    "PlayerLeft",
    "PlayerMoved",
    "PlayerSatIn",
    "PlayerSatOut",
    "PlayerSeated",
    "PlayerWaiting",
    "Policy",
    "PolicyFailed",
    "SeatDrawn",
    "SeatingRules",
    "Table",
    "TableError",
    "TableEvent",
    "TablePlayer",
    "default_action",
    "passive_policy",
    "random_policy",
]


BUTTON = "Omaha 17.1(b)"
STAKES = "Poker definitions: Table Stakes"


class TableError(CroupierError):
    """A table operation that cannot be done now (unknown player, a hand in progress...).

    >>> Table(TableRules(), seats=6).leave("Nobody")
    Traceback (most recent call last):
    ...
    croupier.poker.table.TableError: no player called 'Nobody' at the table
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


@dataclass(frozen=True)
class HandPlan:
    """Who is dealt the next hand, where the button is and who posts which blind.

    ``button`` is the table's button seat (None in stud); it is *dead* when no player
    dealt in sits there, and ``dealer_seat`` is then the dealt-in seat nearest it
    counterclockwise (what :class:`HandState` calls ``button``).

    >>> table = Table(TableRules(), seats=6)
    >>> table.sit("Ann", 2, 100); table.sit("Bob", 4, 100); table.sit("Cy", 6, 100)
    >>> plan = table.plan_hand()
    >>> plan.button, plan.blinds
    (6, ((2, 5), (4, 10)))
    """

    seats: tuple[int, ...]
    """Seats dealt in, in seat order."""
    button: int | None
    """The button seat (possibly empty: a dead button); None in stud."""
    dead_button: bool
    """Whether no player dealt in sits at the button."""
    dealer_seat: int
    """The seat passed to :class:`HandState` as ``button``."""
    blinds: tuple[tuple[int, int], ...]
    """(seat, amount) for each blind posted, first to last."""
    dead_blinds: tuple[int, ...]
    """Seats of blind positions nobody posts this hand."""
    positions: tuple[tuple[int, str | None], ...]
    """Every blind position, first to last: (seat, who posts it or None when dead)."""
    rules: TableRules = field(repr=False)
    """The hand's rules (the table's; the blinds posted are :attr:`blinds`)."""


# ------------------------------------------------------------------------------ events
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


# ------------------------------------------------------------------------------ helpers
@dataclass(frozen=True)
class _Positions:
    button: int
    blinds: tuple[tuple[int, str | None], ...]


# ------------------------------------------------------------------------------ the table
class Table:
    """Seats 1..``seats`` around one game, hand after hand (see the module docstring).

    ``seats`` defaults to the most players the game deals to; ``dealer_right`` is the
    seat at the dealer's immediate right (default: the highest seat). Randomness (the
    seat draws and every shuffle) comes from ``rng``, else from ``seed``, else the OS
    CSPRNG.

    >>> table = Table(TableRules(), seats=6, seed=1)
    >>> table.request_seats({"Ann": 2, "Bob": 2, "Cy": None}, chips=300)
    {'Ann': 2, 'Bob': 3, 'Cy': 1}
    >>> table.events[0].describe()
    'draw for seat 2: Ann Ad, Bob 4d; Ann wins'
    """

    def __init__(
        self,
        rules: TableRules,
        seats: int | None = None,
        *,
        dealer_right: int | None = None,
        seating: SeatingRules | None = None,
        rng: random.Random | None = None,
        seed: int | None = None,
    ) -> None:
        if not isinstance(rules, TableRules):
            raise TableError(f"rules must be TableRules, not {rules!r}")
        rules.validate()
        game = rules.game
        count = game.max_players if seats is None else seat_number(seats, "the seat count")
        if dealer_right is not None:
            seat_number(dealer_right, "dealer_right")
        if seating is not None and not isinstance(seating, SeatingRules):
            raise TableError(f"seating must be SeatingRules, not {seating!r}")
        if rng is not None and not isinstance(rng, random.Random):
            raise TableError(f"rng must be a random.Random, not {rng!r}")
        if seed is not None:
            whole_number(seed, "a seed")
        if not 2 <= count <= game.max_players:
            raise RuleViolationError(
                "Poker 4.1(a)",
                f"{game.title} seats 2 to {game.max_players} players, not {count}",
                f"seats=2..{game.max_players}",
            )
        right = count if dealer_right is None else dealer_right
        if not 1 <= right <= count:
            raise TableError(f"dealer_right must be a seat 1..{count}, not {right}")
        self.rules = rules
        """The game and stakes."""
        self.seating = seating or SeatingRules()
        """The house's seating choices."""
        self.seat_count = count
        """Seats 1..seat_count."""
        self.dealer_right = right
        """The seat at the dealer's immediate right."""
        self.events: list[TableEvent] = []
        """The table's event log (seating, button, hands)."""
        self.hand_number = 0
        """Hands started so far."""
        self.hand: HandState | None = None
        """The hand in progress, if any."""
        self.plan: HandPlan | None = None
        """The plan of the hand in progress or of the last hand."""
        self.rake_total = 0
        """Commission taken over all finished hands."""
        self._rng = rng if rng is not None else make_rng(seed)
        self._players: dict[str, TablePlayer] = {}
        self._seats: dict[int, TablePlayer] = {}
        self._waiting: list[str] = []
        self._moves: dict[str, int] = {}
        self._last: _Positions | None = None
        self._start_chips = 0

    # ------------------------------------------------------------------ views
    @property
    def seats(self) -> dict[int, TablePlayer]:
        """Occupied seats, in seat order.

        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 4, 100)
        >>> {s: p.name for s, p in table.seats.items()}
        {4: 'Ann'}
        """
        return dict(sorted(self._seats.items()))

    @property
    def free_seats(self) -> tuple[int, ...]:
        """Empty seats, in seat order.

        >>> table = Table(TableRules(), seats=3); table.sit("Ann", 2, 100)
        >>> table.free_seats
        (1, 3)
        """
        return tuple(s for s in range(1, self.seat_count + 1) if s not in self._seats)

    @property
    def waiting_list(self) -> tuple[str, ...]:
        """Players waiting for a seat, first come first.

        >>> table = Table(TableRules(), seats=2)
        >>> table.sit("Ann", 1, 0); table.sit("Bob", 2, 0); table.join_waiting_list("Cy")
        >>> table.waiting_list
        ('Cy',)
        """
        return tuple(self._waiting)

    @property
    def pending_moves(self) -> dict[str, int]:
        """Seated players' standing requests to move: name -> wanted seat.

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

        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 4, 100)
        >>> table.stacks
        {'Ann': 100}
        """
        return {p.name: p.chips for _, p in sorted(self._seats.items())}

    @property
    def button(self) -> int | None:
        """The button seat of the current or last hand (None before the first hand, in stud).

        >>> Table(TableRules(), seats=6).button is None
        True
        """
        return self.plan.button if self.plan else None

    def player(self, name: str) -> TablePlayer:
        """The named player (seated or waiting).

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
        return "Five Card Stud 12.1(a)" if self.rules.game.section == 12 else "Omaha 17.1(a)"

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

        >>> Table(TableRules(), seats=6).can_sit("Ann", 7)
        False
        """
        return _can(lambda: self.verify_sit(name, seat, chips))

    def sit(self, name: str, seat: int | None = None, chips: int = 0) -> None:
        """Sit ``name`` in a free seat (None: the lowest free seat) with ``chips``.

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

        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 1)
        >>> table.can_buy_in("Ann", 100), table.can_buy_in("Ann", -5)
        (True, False)
        """
        return _can(lambda: self.verify_buy_in(name, chips))

    def buy_in(self, name: str, chips: int) -> None:
        """Add ``chips`` to ``name``'s stack (seated or waiting), between hands only.

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

        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 1, 100)
        >>> table.sit_out("Ann"); table.sit_in("Ann"); table.player("Ann").ready
        True
        """
        self._between_hands("sit in")
        player = self.player(name)
        if player.sitting_out:
            player.sitting_out = False
            self.events.append(PlayerSatIn(name))

    # ---------------------------------------------------------------- hands
    def verify_start_hand(self) -> None:
        """Raise unless a hand can start: none in progress and two players ready.

        >>> table = Table(TableRules(), seats=6); table.sit("Ann", 1, 100)
        >>> table.verify_start_hand()
        Traceback (most recent call last):
        ...
        croupier.errors.RuleViolationError: Omaha 17.2(c): a hand needs two players with chips, 1 ready; allowed: seat or buy in more players
        """
        self._between_hands("start a hand")
        ready = sum(1 for p in self._seats.values() if p.ready)
        if ready < 2:
            raise RuleViolationError(
                "Omaha 17.2(c)",
                f"a hand needs two players with chips, {ready} ready",
                "seat or buy in more players",
            )

    def can_start_hand(self) -> bool:
        """Whether :meth:`start_hand` would succeed.

        >>> Table(TableRules(), seats=6).can_start_hand()
        False
        """
        return _can(self.verify_start_hand)

    def plan_hand(self) -> HandPlan:
        """Work out who is dealt the next hand, the button and the blinds (nothing changes).

        >>> table = Table(TableRules(), seats=4)
        >>> for seat, name in enumerate("ABCD", 1):
        ...     table.sit(name, seat, 100)
        >>> table.plan_hand().button, table.plan_hand().blinds
        (4, ((1, 5), (2, 10)))
        """
        self.verify_start_hand()
        ready = sorted(s for s, p in self._seats.items() if p.ready)
        dealer = self._nearest_before(self.dealer_right, ready)
        if self.rules.game.forced is not ForcedBets.BLINDS or self._last is None:
            return self._fresh(ready, dealer)
        last = self._last
        old_seat, old_name = last.blinds[-1]
        target = next(
            s for s in self._clockwise(old_seat) if s in ready and self._seats[s].name != old_name
        )
        button = last.blinds[0][0]
        n = self.seat_count
        dealt = {s for s in ready if self._seats[s].in_rotation} | {target}
        if self.seating.entry is EntryRule.ENTER_AT_ONCE:
            reach = (target - button) % n
            dealt |= {
                s for s in ready if not self._seats[s].has_played and (s - button) % n > reach
            }
        if len(dealt) < 2:  # nobody else can wait: everyone ready plays
            return self._fresh_around(ready, target)
        order = sorted(dealt)
        full = len(last.blinds) == len(self.rules.blinds) < len(order)
        plan = self._dead_button_plan(order, last, target) if full else None
        return plan or self._fresh_around(order, target)

    def _nearest_before(self, seat: int, order: Sequence[int]) -> int:
        """The seat of ``order`` at ``seat`` or nearest counterclockwise of it."""
        return max(order, key=lambda s: (s - seat - 1) % self.seat_count)

    def _fresh(self, order: Sequence[int], button: int) -> HandPlan:
        """Blinds as :class:`HandState` posts them from ``button``, none dead.

        With fewer players than blinds the first blinds are left out (nobody posts two).
        """
        if self.rules.game.forced is not ForcedBets.BLINDS:
            return HandPlan(tuple(order), None, False, button, (), (), (), self.rules)
        blinds = self.rules.blinds[max(0, len(self.rules.blinds) - len(order)) :]
        posters = blind_posters(order, button, len(blinds), self.rules.heads_up)
        return HandPlan(
            seats=tuple(order),
            button=button,
            dead_button=False,
            dealer_seat=button,
            blinds=tuple(zip(posters, blinds, strict=True)),
            dead_blinds=(),
            positions=tuple((s, self._seats[s].name) for s in posters),
            rules=self.rules,
        )

    def _fresh_around(self, order: Sequence[int], target: int) -> HandPlan:
        """A fresh arrangement with ``target`` posting the last blind."""
        count = min(len(self.rules.blinds), len(order))
        button = button_for_last_blind(order, target, count, self.rules.heads_up)
        return self._fresh(order, button)

    def _dead_button_plan(
        self, order: Sequence[int], last: _Positions, target: int
    ) -> HandPlan | None:
        """Every blind moves up one position, the last to ``target``; None if that fails."""
        n = self.seat_count
        button = last.blinds[0][0]
        positions = [*last.blinds[1:], (target, self._seats[target].name)]
        offsets = [(s - button) % n for s, _ in positions]
        if any(a >= b for a, b in zip([0, *offsets], offsets, strict=False)):
            return None  # positions out of order (after heads-up with many blinds)
        live = [
            i
            for i, (s, name) in enumerate(positions)
            if name is not None and s in order and self._seats[s].name == name
        ]
        dealer = self._nearest_before(button, order)
        seats = [positions[i][0] for i in live]
        if blind_posters(order, dealer, len(live), self.rules.heads_up) != seats:
            return None
        amounts = tuple(self.rules.blinds[i] for i in live)
        return HandPlan(
            seats=tuple(order),
            button=button,
            dead_button=button not in order,
            dealer_seat=dealer,
            blinds=tuple(zip(seats, amounts, strict=True)),
            dead_blinds=tuple(s for i, (s, _) in enumerate(positions) if i not in live),
            positions=tuple(
                (s, name if i in live else None) for i, (s, name) in enumerate(positions)
            ),
            rules=self.rules,
        )

    def start_hand(self, *, automatic: bool = True) -> HandState:
        """Deal the next hand (blinds posted) and return it; :meth:`finish_hand` ends it.

        >>> table = Table(TableRules(), seats=6, seed=4)
        >>> table.sit("Ann", 2, 100); table.sit("Bob", 5, 100)
        >>> hand = table.start_hand()
        >>> hand.button, table.events[-1].describe()
        (5, 'hand 1: seats [2, 5], blinds seat 2 5, seat 5 10')
        """
        plan = self.plan_hand()
        stacks = {s: self._seats[s].chips for s in plan.seats}
        hand = HandState(  # the table decides who posts which blind; the hand posts them
            self.rules,
            stacks,
            plan.dealer_seat,
            rng=self._rng,
            automatic=automatic,
            blinds=dict(plan.blinds) if plan.blinds else None,
        )
        self.hand_number += 1
        for seat, player in self._seats.items():
            dealt = seat in plan.seats
            player.in_rotation = dealt
            player.has_played = player.has_played or dealt
        if plan.button is not None:
            self._last = _Positions(plan.button, plan.positions)
            self.events.append(ButtonMoved(self.hand_number, plan.button, plan.dead_button))
        self.events.append(HandDealt(self.hand_number, plan.seats, plan.blinds, plan.dead_blinds))
        self.plan = plan
        self.hand = hand
        self._start_chips = sum(stacks.values())
        return hand

    def finish_hand(self, hand: HandState) -> HandFinished:
        """Carry the final stacks over; busted players sit out or leave.

        >>> table = Table(TableRules(), seats=6, seed=4)
        >>> table.sit("Ann", 2, 100); table.sit("Bob", 5, 100)
        >>> hand = table.start_hand()
        >>> hand.fold()
        >>> table.finish_hand(hand).describe()
        'hand 1 over: Ann 95, Bob 105'
        """
        if hand is not self.hand:
            raise TableError("that is not the hand in progress at this table")
        if not hand.is_complete:
            raise TableError(f"hand {self.hand_number} is not over")
        rake = sum(e.amount for e in hand.events if isinstance(e, ev.RakeTaken))
        final = hand.stacks
        if sum(final.values()) + rake != self._start_chips:  # pragma: no cover
            raise CroupierError("chips are not conserved across the hand")
        for seat, chips in final.items():
            self._seats[seat].chips = chips
        self.rake_total += rake
        done = HandFinished(
            self.hand_number, tuple((self._seats[s].name, c) for s, c in final.items()), rake
        )
        self.events.append(done)
        self.hand = None
        for seat in sorted(final):
            player = self._seats[seat]
            if player.chips == 0:
                if self.seating.busted_players_leave:
                    self.leave(player.name, "busted")
                else:
                    self.events.append(PlayerSatOut(player.name, "no chips"))
        return done

    def play_hand(self, policy: Policy) -> HandState:
        """Start a hand, let ``policy`` make every action, finish it and return it.

        >>> table = Table(TableRules(), seats=6, seed=4)
        >>> table.sit("Ann", 2, 100); table.sit("Bob", 5, 100)
        >>> table.play_hand(passive_policy).is_complete
        True

        A policy that raises or makes no action never leaves the table stuck mid-hand: its
        seat makes the default action (:func:`default_action`) and a :class:`PolicyFailed`
        event records why (docs/decisions.md, "The poker table").

        >>> def broken(view):
        ...     raise RuntimeError("bot crashed")
        >>> table = Table(TableRules(), seats=6, seed=4)
        >>> table.sit("Ann", 2, 100); table.sit("Bob", 5, 100)
        >>> table.play_hand(broken).is_complete, table.events[-2].describe()
        (True, "hand 1: seat 2's policy failed (RuntimeError: bot crashed); seat 2 folds")
        """
        hand = self.start_hand()
        while not hand.is_complete:
            seat = hand.actor
            if seat is None:  # pragma: no cover - an automatic hand always has an actor
                raise TableError("no seat is to act in an unfinished hand")
            try:
                action: object = policy(hand.view_for(seat))
            except Exception as error:  # a bot's failure must not leave the hand stuck
                reason = f"{type(error).__name__}: {error}"
            else:
                if action is None:
                    reason = "no action"
                elif not isinstance(action, Action):
                    reason = f"not an action: {action!r}"
                else:
                    try:
                        hand.apply(action if action.seat is not None else action.for_seat(seat))
                        continue
                    except CroupierError as error:  # an illegal or malformed action
                        reason = f"{type(error).__name__}: {error}"
            action = default_action(hand)
            self.events.append(PolicyFailed(self.hand_number, seat, reason, action))
        self.finish_hand(hand)
        return hand


def default_action(hand: HandState) -> str:
    """Make the default action for the seat to act and say what it was: stand pat in a
    draw, the least bring-in, a check when it is free, else a fold.

    >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1)
    >>> default_action(hand)
    'folds'
    """
    legal = hand.legal_actions()
    if legal.discard:
        hand.discard()
        return "stands pat"
    if legal.bring_in is not None:
        hand.bring_in(legal.bring_in[0])
        return f"brings in for {legal.bring_in[0]}"
    if legal.check:
        hand.check()
        return "checks"
    hand.fold()
    return "folds"


def _can(check: Callable[[], None]) -> bool:
    try:
        check()
    except CroupierError:
        return False
    return True
