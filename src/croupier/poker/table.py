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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from croupier.cards.rng import make_rng
from croupier.checks import can, seat_number, whole_number
from croupier.errors import CroupierError, RuleViolationError
from croupier.poker import events as ev
from croupier.poker.actions import Action
from croupier.poker.blinds import blind_posters, button_for_last_blind
from croupier.poker.games import ForcedBets
from croupier.poker.policies import Policy, passive_policy, random_policy
from croupier.poker.seating import (
    EntryRule,
    Seating,
    SeatingRules,
    TableError,
    TablePlayer,
)
from croupier.poker.settings import TableRules
from croupier.poker.state import HandState
from croupier.poker.table_events import (
    ButtonMoved,
    ChipsBought,
    HandDealt,
    HandFinished,
    MoveRequested,
    PlayerLeft,
    PlayerMoved,
    PlayerSatIn,
    PlayerSatOut,
    PlayerSeated,
    PlayerWaiting,
    PolicyFailed,
    SeatDrawn,
    TableEvent,
)

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


# ------------------------------------------------------------------------------ helpers
@dataclass(frozen=True)
class _Positions:
    button: int
    blinds: tuple[tuple[int, str | None], ...]


# ------------------------------------------------------------------------------ the table
class Table(Seating):
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

    @property
    def button(self) -> int | None:
        """The button seat of the current or last hand (None before the first hand, in stud).

        >>> Table(TableRules(), seats=6).button is None
        True
        """
        return self.plan.button if self.plan else None

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
        return can(self.verify_start_hand)

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

    def start_hand(
        self,
        *,
        automatic: bool = True,
        before_first_card: Callable[[HandState], object] | None = None,
    ) -> HandState:
        """Deal the next hand (blinds posted) and return it; :meth:`finish_hand` ends it.
        ``automatic`` and ``before_first_card`` are the hand's own (see
        :class:`~croupier.poker.state.HandState`): the hook runs once after the shuffle and
        cut, before the first card, where a table commits to the deck.

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
            before_first_card=before_first_card,
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

    def resume_hand(self, plan: HandPlan, hand: HandState, number: int) -> None:
        """Carry on with a hand dealt by this table's plan ``plan`` as hand ``number`` and
        rebuilt from its log (a server restarting after a crash): the table is as it was
        when the hand was dealt, the hand as it was at its last logged event.

        >>> table = Table(TableRules(), seats=6, seed=4)
        >>> table.sit("Ann", 2, 100); table.sit("Bob", 5, 100)
        >>> hand = table.start_hand(); plan = table.plan
        >>> again = Table(TableRules(), seats=6); again.sit("Ann", 2, 100); again.sit("Bob", 5, 100)
        >>> again.resume_hand(plan, HandState.replay(TableRules(), hand.events), 1)
        >>> again.hand.fold(); again.finish_hand(again.hand).describe()
        Folded(seat=2)
        'hand 1 over: Ann 95, Bob 105'
        """
        self._between_hands("resume a hand")
        stacks = {s: self._seats[s].chips for s in plan.seats if s in self._seats}
        started = hand.events[0]
        if not isinstance(started, ev.HandStarted) or stacks != dict(
            zip(started.seats, started.stacks, strict=True)
        ):
            raise TableError("the hand's seats and stacks are not the table's")
        self.hand_number = number
        for seat, player in self._seats.items():
            dealt = seat in plan.seats
            player.in_rotation = dealt
            player.has_played = player.has_played or dealt
        if plan.button is not None:
            self._last = _Positions(plan.button, plan.positions)
        self.plan = plan
        self.hand = hand
        self._start_chips = sum(stacks.values())

    def finish_hand(self, hand: HandState) -> HandFinished:
        """Carry the final stacks over; busted players sit out or leave.

        >>> table = Table(TableRules(), seats=6, seed=4)
        >>> table.sit("Ann", 2, 100); table.sit("Bob", 5, 100)
        >>> hand = table.start_hand()
        >>> hand.fold()
        Folded(seat=2)
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
            self.policy_acts(hand, seat, policy)
        self.finish_hand(hand)
        return hand

    def policy_acts(self, hand: HandState, seat: int, policy: Policy) -> PolicyFailed | None:
        """One turn of a bot (or any policy): it answers from ``seat``'s view and its action
        is applied. When that fails (the policy raised, gave no action, or one the rules
        refuse) the seat makes the default action (:func:`default_action`) instead, and a
        :class:`PolicyFailed` naming why is logged in :attr:`events` and returned. Every
        driver of bots (the table, the terminal game, the recorder, the card room) takes
        its turns here.

        >>> table = Table(TableRules(), seats=6, seed=4)
        >>> table.sit("Ann", 2, 100); table.sit("Bob", 5, 100)
        >>> hand = table.start_hand()
        >>> table.policy_acts(hand, hand.actor, lambda view: "call").describe()
        "hand 1: seat 2's policy failed (not an action: 'call'); seat 2 folds"
        """
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
                    return None
                except CroupierError as error:  # an illegal or malformed action
                    reason = f"{type(error).__name__}: {error}"
        failed = PolicyFailed(self.hand_number, seat, reason, default_action(hand))
        self.events.append(failed)
        return failed


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
