"""Seating at a blackjack table: boxes, their owners, the players backing them, bots, buying
in, sitting out and leaving, as one part of :class:`~croupier.blackjack.table.BlackjackTable`.

**Boxes.** The layout has boxes 1..N. A seated player owns one box (or several:
:meth:`BoxSeating.add_box`) and decides its hands. Several players may wager on one box:
a player *backs* a box another owns once its owner has wagered on it, and the owner still
decides (the round's rule: the first wager on a box decides). An owner may not take his
wager back from a box someone backs.

**Between rounds, else after the round.** Sitting down, leaving and buying chips take
effect at once between rounds; while a round is in play they wait for it to be over (the
box asked for is kept for the newcomer meanwhile). Sitting out and in take effect at once:
a player sitting out is still dealt into the round with his chips, but nobody waits for
his wager.

**The ledger.** Every change of seats or chips (:class:`PlayerSeated`, :class:`BoxAdded`,
:class:`ChipsBought`, :class:`PlayerLeft`) is passed to :attr:`BoxSeating.ledger`, when
there is one, *before* it is made: a ledger that raises (a store refusing the write)
leaves the table as it was.

>>> from croupier.blackjack.table import BlackjackTable
>>> table = BlackjackTable(seed=1)
>>> table.sit("ann", 2, 500), table.sit("bo", None, 300), table.free_boxes
(2, 1, (3, 4, 5, 6, 7))
>>> [e.describe() for e in table.events]
['ann sits at box 2 with 500', 'bo sits at box 1 with 300']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from croupier.errors import CroupierError

if TYPE_CHECKING:
    from croupier.blackjack.policies import Policy

__all__ = [
    "BoxAdded",
    "BoxError",
    "BoxPlayer",
    "BoxSeating",
    "ChipsBought",
    "ChipsWaiting",
    "NewShoe",
    "PlayerLeaving",
    "PlayerLeft",
    "PlayerSatIn",
    "PlayerSatOut",
    "PlayerSeated",
    "PlayerWaiting",
    "PolicyFailed",
    "RoundDropped",
    "RoundFinished",
    "RoundOpened",
    "TableEvent",
]


class BoxError(CroupierError):
    """A seating request the table refuses: an unknown player, a box taken or out of range,
    negative chips, backing a box its owner has not wagered on...

    >>> from croupier.blackjack.table import BlackjackTable
    >>> BlackjackTable().leave("nobody")
    Traceback (most recent call last):
    ...
    croupier.blackjack.seating.BoxError: nobody has no box at the table
    """


# ------------------------------------------------------------------------------ events
@dataclass(frozen=True)
class TableEvent:
    """Base of the table's events (seating, shoes, rounds, bots that failed); each says
    itself in one line.

    >>> PlayerSatOut("ann").describe()
    'ann sits out'
    """

    def describe(self) -> str:
        """One line."""
        return repr(self)  # pragma: no cover - every event says itself


@dataclass(frozen=True)
class PlayerSeated(TableEvent):
    """A player sat down at a box with chips (a bot when ``bot``).

    >>> PlayerSeated("bot-1", 1, 500, bot=True).describe()
    'bot-1 sits at box 1 with 500 (a bot)'
    """

    name: str
    box: int
    chips: int
    bot: bool = False

    def describe(self) -> str:
        """One line."""
        return f"{self.name} sits at box {self.box} with {self.chips}" + (
            " (a bot)" if self.bot else ""
        )


@dataclass(frozen=True)
class BoxAdded(TableEvent):
    """A seated player took another box.

    >>> BoxAdded("ann", 3).describe()
    'ann takes box 3 too'
    """

    name: str
    box: int

    def describe(self) -> str:
        """One line."""
        return f"{self.name} takes box {self.box} too"


@dataclass(frozen=True)
class PlayerWaiting(TableEvent):
    """A player asked for a box while a round is in play: he sits when it is over.

    >>> PlayerWaiting("cy", 3, 500).describe()
    'cy waits for box 3 with 500 (after the round)'
    """

    name: str
    box: int
    chips: int

    def describe(self) -> str:
        """One line."""
        return f"{self.name} waits for box {self.box} with {self.chips} (after the round)"


@dataclass(frozen=True)
class ChipsBought(TableEvent):
    """A seated player bought ``amount`` more chips, making ``chips``.

    >>> ChipsBought("ann", 100, 400).describe()
    'ann buys 100: 400'
    """

    name: str
    amount: int
    chips: int

    def describe(self) -> str:
        """One line."""
        return f"{self.name} buys {self.amount}: {self.chips}"


@dataclass(frozen=True)
class ChipsWaiting(TableEvent):
    """A rebuy asked for while a round is in play: made when it is over.

    >>> ChipsWaiting("ann", 100).describe()
    'ann buys 100 after the round'
    """

    name: str
    amount: int

    def describe(self) -> str:
        """One line."""
        return f"{self.name} buys {self.amount} after the round"


@dataclass(frozen=True)
class PlayerLeaving(TableEvent):
    """A player asked to leave while a round is in play: he leaves when it is over.

    >>> PlayerLeaving("ann").describe()
    'ann leaves after the round'
    """

    name: str

    def describe(self) -> str:
        """One line."""
        return f"{self.name} leaves after the round"


@dataclass(frozen=True)
class PlayerLeft(TableEvent):
    """A player left his boxes, taking ``chips``.

    >>> PlayerLeft("ann", (2,), 480).describe()
    'ann leaves box 2 with 480'
    """

    name: str
    boxes: tuple[int, ...]
    chips: int

    def describe(self) -> str:
        """One line."""
        boxes = ", ".join(str(b) for b in self.boxes)
        return f"{self.name} leaves box {boxes} with {self.chips}"


@dataclass(frozen=True)
class PlayerSatOut(TableEvent):
    """A player sits out: dealt in, but nobody waits for his wager.

    >>> PlayerSatOut("ann").describe()
    'ann sits out'
    """

    name: str

    def describe(self) -> str:
        """One line."""
        return f"{self.name} sits out"


@dataclass(frozen=True)
class PlayerSatIn(TableEvent):
    """A player sitting out wagers again.

    >>> PlayerSatIn("ann").describe()
    'ann sits in'
    """

    name: str

    def describe(self) -> str:
        """One line."""
        return f"{self.name} sits in"


@dataclass(frozen=True)
class NewShoe(TableEvent):
    """Shoe ``number`` was shuffled and (``committed``) its commitment hook run, before
    any card of it was dealt or burnt.

    >>> NewShoe(2, True).describe()
    'shoe 2 shuffled and committed to'
    """

    number: int
    committed: bool

    def describe(self) -> str:
        """One line."""
        return f"shoe {self.number} shuffled" + (" and committed to" if self.committed else "")


@dataclass(frozen=True)
class RoundOpened(TableEvent):
    """Round ``number`` was opened with these players and chips.

    >>> RoundOpened(1, (("ann", 500), ("bo", 300))).describe()
    'round 1: ann 500, bo 300'
    """

    number: int
    players: tuple[tuple[str, int], ...]

    def describe(self) -> str:
        """One line."""
        return f"round {self.number}: " + ", ".join(f"{n} {c}" for n, c in self.players)


@dataclass(frozen=True)
class RoundFinished(TableEvent):
    """Round ``number`` was settled: each player's chips after it, and the bank's result
    (positive: the house won).

    >>> RoundFinished(1, (("ann", 510), ("bo", 290)), 0).describe()
    'round 1 over: ann 510, bo 290; the bank +0'
    """

    number: int
    chips: tuple[tuple[str, int], ...]
    bank: int

    def describe(self) -> str:
        """One line."""
        players = ", ".join(f"{n} {c}" for n, c in self.chips)
        return f"round {self.number} over: {players}; the bank {self.bank:+d}"


@dataclass(frozen=True)
class RoundDropped(TableEvent):
    """Round ``number`` was put away before the deal: nobody wagered (its number is used
    again).

    >>> RoundDropped(4).describe()
    'round 4 dropped: nobody wagered'
    """

    number: int

    def describe(self) -> str:
        """One line."""
        return f"round {self.number} dropped: nobody wagered"


@dataclass(frozen=True)
class PolicyFailed(TableEvent):
    """A bot's policy raised, gave no decision, or one the rules refuse, for the decision
    due (``hand`` None: insurance); the default play was made instead (``action``: stand
    where legal, else draw; decline insurance), as for a person whose time ran out.

    >>> PolicyFailed(3, 2, 0, "bo", "ValueError: boom", "stands").describe()
    "round 3: bo's policy failed on box 2 (ValueError: boom); bo stands"
    """

    round: int
    box: int
    hand: int | None
    player: str
    reason: str
    action: str

    def describe(self) -> str:
        """One line."""
        return (
            f"round {self.round}: {self.player}'s policy failed on box {self.box} "
            f"({self.reason}); {self.player} {self.action}"
        )


# ------------------------------------------------------------------------------ players
@dataclass
class BoxPlayer:
    """A seated player: his boxes, his chips between rounds, his policy (None: a person)
    and whether he sits out.

    >>> BoxPlayer("ann", [2], 500).bot
    False
    """

    name: str
    boxes: list[int]
    """The boxes he owns, the first he took first."""
    chips: int
    """His chips (between rounds; during one the round's bankrolls count)."""
    policy: Policy | None = None
    """His bot's policy (None: a person)."""
    sitting_out: bool = False
    """Whether nobody waits for his wager."""
    waiting_chips: int = field(default=0)
    """Chips bought during the round in play, added when it is over."""

    @property
    def bot(self) -> bool:
        """Whether a policy plays for him.

        >>> from croupier.blackjack.policies import mimic_the_dealer
        >>> BoxPlayer("bot-1", [1], 500, policy=mimic_the_dealer).bot
        True
        """
        return self.policy is not None


Ledger = Callable[[TableEvent], object]
"""Told of each change of seats or chips before it is made; raising refuses it."""


class BoxSeating:
    """Who owns which box, who waits for one, who leaves, and the chips (see the module
    docstring); :class:`~croupier.blackjack.table.BlackjackTable` adds the shoe and the
    rounds.

    >>> from croupier.blackjack.table import BlackjackTable
    >>> table = BlackjackTable(seed=1)
    >>> table.sit("ann", 3, 100); table.owners, table.chips
    3
    ({3: 'ann'}, {'ann': 100})
    """

    name: str
    """What messages call the table."""
    box_count: int
    """Boxes 1..box_count."""
    ledger: Ledger | None
    """Told of every change of seats or chips before it is made (None: nobody)."""
    events: list[TableEvent]
    """The table's log."""

    def _init_seating(self, box_count: int, name: str, ledger: Ledger | None) -> None:
        self.name = name
        self.box_count = box_count
        self.ledger = ledger
        self.events = []
        self._players: dict[str, BoxPlayer] = {}
        self._owners: dict[int, str] = {}
        self._waiting: dict[str, tuple[int, int, Policy | None]] = {}
        self._leaving: dict[str, None] = {}

    def _in_round(self) -> bool:
        raise NotImplementedError  # pragma: no cover - the table says

    # ------------------------------------------------------------------ reading
    @property
    def owners(self) -> dict[int, str]:
        """Who owns each box, by box number (a new dict).

        >>> from croupier.blackjack.table import BlackjackTable
        >>> BlackjackTable().owners
        {}
        """
        return dict(sorted(self._owners.items()))

    @property
    def players(self) -> tuple[str, ...]:
        """The seated players, by their first box.

        >>> from croupier.blackjack.table import BlackjackTable
        >>> table = BlackjackTable(); table.sit("bo", 4, 10); table.sit("ann", 2, 10)
        4
        2
        >>> table.players
        ('ann', 'bo')
        """
        return tuple(sorted(self._players, key=lambda n: self._players[n].boxes[0]))

    @property
    def chips(self) -> dict[str, int]:
        """Each seated player's chips between rounds (a new dict; during a round the
        round's bankrolls count), by first box.

        >>> from croupier.blackjack.table import BlackjackTable
        >>> table = BlackjackTable(); table.sit("ann", 2, 75); table.chips
        2
        {'ann': 75}
        """
        return {n: self._players[n].chips for n in self.players}

    @property
    def free_boxes(self) -> tuple[int, ...]:
        """The boxes nobody owns or waits for.

        >>> from croupier.blackjack.table import BlackjackTable
        >>> BlackjackTable(boxes=3).free_boxes
        (1, 2, 3)
        """
        taken = set(self._owners) | {box for box, _, _ in self._waiting.values()}
        return tuple(b for b in range(1, self.box_count + 1) if b not in taken)

    @property
    def waiting(self) -> dict[str, int]:
        """The players waiting for the round in play to be over to sit, and their boxes.

        >>> from croupier.blackjack.table import BlackjackTable
        >>> BlackjackTable().waiting
        {}
        """
        return {name: box for name, (box, _, _) in self._waiting.items()}

    @property
    def leaving(self) -> frozenset[str]:
        """The players who leave when the round in play is over (their decisions are
        made for them meanwhile).

        >>> from croupier.blackjack.table import BlackjackTable
        >>> BlackjackTable().leaving
        frozenset()
        """
        return frozenset(self._leaving)

    @property
    def sitting_out(self) -> frozenset[str]:
        """The players sitting out.

        >>> from croupier.blackjack.table import BlackjackTable
        >>> BlackjackTable().sitting_out
        frozenset()
        """
        return frozenset(n for n, p in self._players.items() if p.sitting_out)

    @property
    def bots(self) -> dict[str, Policy]:
        """Each bot's policy, by name (a new dict).

        >>> from croupier.blackjack.policies import mimic_the_dealer
        >>> from croupier.blackjack.table import BlackjackTable
        >>> table = BlackjackTable(); table.sit("bot-1", 1, 500, policy=mimic_the_dealer)
        1
        >>> list(table.bots)
        ['bot-1']
        """
        return {n: p.policy for n in self.players if (p := self._players[n]).policy is not None}

    def is_bot(self, name: str) -> bool:
        """Whether ``name`` is a seated bot.

        >>> from croupier.blackjack.table import BlackjackTable
        >>> BlackjackTable().is_bot("ann")
        False
        """
        player = self._players.get(self._check_name(name))
        return player is not None and player.policy is not None

    def player(self, name: str) -> BoxPlayer:
        """The seated player ``name``; a :class:`BoxError` if there is none.

        >>> from croupier.blackjack.table import BlackjackTable
        >>> table = BlackjackTable(); table.sit("ann", 2, 50); table.player("ann").boxes
        2
        [2]
        """
        player = self._players.get(self._check_name(name))
        if player is None:
            raise BoxError(f"{name} has no box at {self.name}")
        return player

    def seat_of(self, name: str) -> int | None:
        """The (first) box ``name`` owns, if any.

        >>> from croupier.blackjack.table import BlackjackTable
        >>> BlackjackTable().seat_of("ann") is None
        True
        """
        player = self._players.get(name)
        return None if player is None else player.boxes[0]

    def set_policy(self, name: str, policy: Policy | None) -> None:
        """Let ``policy`` play for the seated player ``name`` (None: a person plays).

        >>> from croupier.blackjack.policies import mimic_the_dealer
        >>> from croupier.blackjack.table import BlackjackTable
        >>> table = BlackjackTable(); table.sit("ann", 2, 50)
        2
        >>> table.set_policy("ann", mimic_the_dealer); table.is_bot("ann")
        True
        """
        self.player(name).policy = policy

    # ------------------------------------------------------------------ checks
    def _check_name(self, name: object) -> str:
        if not isinstance(name, str) or not name:
            raise BoxError(f"a player is named by a non-empty string, not {name!r}")
        return name

    def _check_chips(self, name: str, chips: object) -> int:
        if isinstance(chips, bool) or not isinstance(chips, int):
            raise BoxError(f"{name}'s chips are a whole number, not {chips!r}")
        if chips < 0:
            raise BoxError(f"{name}'s chips cannot be negative: {chips}")
        return chips

    def _check_box(self, box: object) -> int:
        if isinstance(box, bool) or not isinstance(box, int) or not 1 <= box <= self.box_count:
            raise BoxError(f"there is no box {box!r} at {self.name}: boxes 1..{self.box_count}")
        return box

    def _record(self, event: TableEvent) -> None:
        """Tell the ledger (it may refuse), then log ``event``."""
        if self.ledger is not None:
            self.ledger(event)
        self.events.append(event)

    # ------------------------------------------------------------------ sitting down
    def verify_sit(self, name: str, box: int | None = None, chips: int = 0) -> int:
        """Raise unless ``name`` may sit at ``box`` (None: the first free box) with
        ``chips``; the box he would get.

        >>> from croupier.blackjack.table import BlackjackTable
        >>> table = BlackjackTable(boxes=2); table.sit("ann", 1, 100)
        1
        >>> table.verify_sit("bo", 1, 100)
        Traceback (most recent call last):
        ...
        croupier.blackjack.seating.BoxError: box 1 is not free at the table
        >>> table.verify_sit("bo", 9, 100)
        Traceback (most recent call last):
        ...
        croupier.blackjack.seating.BoxError: there is no box 9 at the table: boxes 1..2
        >>> table.verify_sit("bo", None, -5)
        Traceback (most recent call last):
        ...
        croupier.blackjack.seating.BoxError: bo's chips cannot be negative: -5
        """
        name = self._check_name(name)
        self._check_chips(name, chips)
        seated = self.seat_of(name)
        if seated is not None:
            raise BoxError(f"{name} already sits at box {seated}")
        if name in self._waiting:
            raise BoxError(f"{name} is already waiting for a box")
        free = self.free_boxes
        if box is not None:
            self._check_box(box)
            if box not in free:
                raise BoxError(f"box {box} is not free at {self.name}")
            return box
        if not free:
            raise BoxError(f"{self.name} is full")
        return free[0]

    def sit(
        self, name: str, box: int | None = None, chips: int = 0, *, policy: Policy | None = None
    ) -> int | None:
        """Seat ``name`` at ``box`` (None: the first free box) with ``chips``, a bot when
        ``policy`` is given: his box, or None while a round is in play (the box is kept
        for him and he sits when it is over).

        >>> from croupier.blackjack.table import BlackjackTable
        >>> table = BlackjackTable(boxes=3); table.sit("ann", None, 100)
        1
        >>> table.sit("ann", 2, 100)
        Traceback (most recent call last):
        ...
        croupier.blackjack.seating.BoxError: ann already sits at box 1
        """
        got = self.verify_sit(name, box, chips)
        if self._in_round():
            self._waiting[name] = (got, chips, policy)
            self.events.append(PlayerWaiting(name, got, chips))
            return None
        self._seat(name, got, chips, policy)
        return got

    def _seat(self, name: str, box: int, chips: int, policy: Policy | None) -> None:
        self._record(PlayerSeated(name, box, chips, policy is not None))
        self._players[name] = BoxPlayer(name, [box], chips, policy)
        self._owners[box] = name

    def add_box(self, name: str, box: int | None = None) -> int:
        """Give the seated player ``name`` another box (None: the first free one) between
        rounds: he decides its hands too.

        >>> from croupier.blackjack.table import BlackjackTable
        >>> table = BlackjackTable(boxes=3); table.sit("ann", 1, 100)
        1
        >>> table.add_box("ann"), table.owners
        (2, {1: 'ann', 2: 'ann'})
        """
        player = self.player(name)
        if self._in_round():
            raise BoxError(f"{name} may take another box between rounds, not during one")
        free = self.free_boxes
        if box is None:
            if not free:
                raise BoxError(f"{self.name} is full")
            box = free[0]
        elif self._check_box(box) not in free:
            raise BoxError(f"box {box} is not free at {self.name}")
        self._record(BoxAdded(name, box))
        player.boxes.append(box)
        self._owners[box] = name
        return box

    # ------------------------------------------------------------------ leaving
    def leave(self, name: str) -> int | None:
        """``name`` leaves: between rounds at once (his chips, which he takes), else when
        the round in play is over (None; his decisions are made for him meanwhile). A
        player waiting for a box just stops waiting (None).

        >>> from croupier.blackjack.table import BlackjackTable
        >>> table = BlackjackTable(); table.sit("ann", 2, 100)
        2
        >>> table.leave("ann"), table.owners
        (100, {})
        """
        if self._waiting.pop(self._check_name(name), None) is not None:
            return None
        player = self.player(name)
        if self._in_round():
            if name not in self._leaving:
                self._leaving[name] = None
                self.events.append(PlayerLeaving(name))
            return None
        return self._remove(player)

    def _remove(self, player: BoxPlayer) -> int:
        self._record(PlayerLeft(player.name, tuple(player.boxes), player.chips))
        for box in player.boxes:
            del self._owners[box]
        del self._players[player.name]
        self._leaving.pop(player.name, None)
        return player.chips

    def sit_out(self, name: str) -> None:
        """Nobody waits for ``name``'s wager from now on (he keeps his box and is dealt
        in with his chips).

        >>> from croupier.blackjack.table import BlackjackTable
        >>> table = BlackjackTable(); table.sit("ann", 2, 100)
        2
        >>> table.sit_out("ann"); table.sitting_out
        frozenset({'ann'})
        """
        player = self.player(name)
        if not player.sitting_out:
            player.sitting_out = True
            self.events.append(PlayerSatOut(name))

    def sit_in(self, name: str) -> None:
        """``name`` wagers again.

        >>> from croupier.blackjack.table import BlackjackTable
        >>> table = BlackjackTable(); table.sit("ann", 2, 100)
        2
        >>> table.sit_out("ann"); table.sit_in("ann"); table.sitting_out
        frozenset()
        """
        player = self.player(name)
        if player.sitting_out:
            player.sitting_out = False
            self.events.append(PlayerSatIn(name))

    # ------------------------------------------------------------------ chips
    def rebuy(self, name: str, amount: int, *, most: int | None = None) -> None:
        """``name`` buys ``amount`` more chips: at once between rounds, else when the round
        in play is over. With ``most``, his chips may not pass it.

        >>> from croupier.blackjack.table import BlackjackTable
        >>> table = BlackjackTable(); table.sit("ann", 2, 100)
        2
        >>> table.rebuy("ann", 50); table.chips
        {'ann': 150}
        >>> table.rebuy("ann", 60, most=200)
        Traceback (most recent call last):
        ...
        croupier.blackjack.seating.BoxError: a rebuy of 60 would make 210: at most 200 here
        """
        player = self.player(name)
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise BoxError(f"a rebuy is a whole number of chips, not {amount!r}")
        if most is not None and (isinstance(most, bool) or not isinstance(most, int)):
            raise BoxError(f"a table's most is a whole number of chips, not {most!r}")
        have = player.chips + player.waiting_chips  # before the round in play
        if most is not None and (amount < 1 or have + amount > most):
            raise BoxError(f"a rebuy of {amount} would make {have + amount}: at most {most} here")
        if amount < 1:
            raise BoxError(f"a rebuy is 1 chip or more, not {amount}")
        if self._in_round():
            player.waiting_chips += amount
            self.events.append(ChipsWaiting(name, amount))
            return
        self._buy(player, amount)

    def _buy(self, player: BoxPlayer, amount: int) -> None:
        self._record(ChipsBought(player.name, amount, player.chips + amount))
        player.chips += amount

    # ------------------------------------------------------------------ after a round
    def _after_round(self) -> None:
        """Make the changes asked for during the round: leave, sit, rebuy (in that order)."""
        for name in list(self._leaving):
            player = self._players.get(name)
            if player is None:  # pragma: no cover - a leaver keeps his seat till now
                self._leaving.pop(name, None)
                continue
            self._remove(player)
        for name, (box, chips, policy) in list(self._waiting.items()):
            self._seat(name, box, chips, policy)
            del self._waiting[name]
        for player in list(self._players.values()):
            if player.waiting_chips:
                self._buy(player, player.waiting_chips)
                player.waiting_chips = 0
