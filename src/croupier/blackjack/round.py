"""One blackjack round as a state machine: wagers, the deal, insurance, each box, the dealer, settlement.

Actions are values (:mod:`croupier.blackjack.actions`), as in poker: ``apply`` returns the
event an action made, ``verify`` raises and ``can`` answers without raising; the named
methods (``hit()``, ``insure(5)`` …) are shortcuts. Who decides is :attr:`~BlackjackRound.actor`.

>>> from croupier.cards import Shoe, parse_cards
>>> shoe = Shoe(6, cards=parse_cards("As 9c 7d Kh 7s Ks"))    # box 1: A K, box 2: 9 7, dealer 7 then K
>>> rnd = BlackjackRound(NZ, shoe, {"ann": 100, "bo": 100})
>>> rnd.place_wager(1, "ann", 10); rnd.place_wager(2, "bo", 10)
WagerPlaced(box=1, player='ann', amount=10)
WagerPlaced(box=2, player='bo', amount=10)
>>> rnd.deal()
CardDealt(box=1, hand=0, card=Card('As'))
>>> rnd.actor, rnd.legal_actions().names      # ann's blackjack needs no decision (12.1(a))
(Turn(box=2, hand=0, player='bo'), ('hit', 'stand', 'double'))
>>> rnd.apply(parse_action("stand"))
BoxAction(box=2, hand=0, action=<Play.STAND: 'stand'>)
>>> rnd.dealer_cards, rnd.bankrolls, rnd.payoffs()  # dealer 7 + K = 17 stands; 3:2 for ann
((Card('7d'), Card('Ks')), {'ann': 115, 'bo': 90}, {'ann': 15, 'bo': -10})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypeVar

from croupier.blackjack import _state
from croupier.blackjack import events as ev
from croupier.blackjack._state import most_drawn
from croupier.blackjack.actions import (
    Action,
    Deal,
    DeclineInsurance,
    Double,
    EvenMoney,
    HandAction,
    Hit,
    InsuranceAction,
    Insure,
    LegalPlays,
    PlaceWager,
    Split,
    Stand,
    WithdrawWager,
)
from croupier.blackjack.actions import Surrender as SurrenderAction
from croupier.blackjack.actions import parse_action as parse_action  # re-exported
from croupier.blackjack.dealer import deal_round, play_dealer
from croupier.blackjack.hands import Box, Phase, PlayerHand, Turn, turn_of
from croupier.blackjack.plays import HandPlays, Refusal
from croupier.blackjack.replay import decision
from croupier.blackjack.rules import NZ as NZ  # the default rule set, re-exported
from croupier.blackjack.rules import BlackjackRules, HoleCard, checked_rules, whole_number
from croupier.blackjack.settlement import settle_round
from croupier.blackjack.values import hand_total
from croupier.blackjack.views import SeatView, SeatViews
from croupier.blackjack.wagers import Wagers
from croupier.cards.card import Card, Rank
from croupier.cards.deck import Shoe
from croupier.checks import can, event_log, same_log
from croupier.errors import CroupierError, IllegalActionError, InvalidActionError
from croupier.version import engine_version

__all__ = ["BlackjackRound", "Box", "Phase", "PlayerHand"]

# Enum members as module constants: reading one off its class goes through the enum
# metaclass's ``__getattr__`` hook (Python 3.11), several times slower than a global.
_WAGERS, _INSURANCE, _PLAYING, _COMPLETE = (
    Phase.WAGERS,
    Phase.INSURANCE,
    Phase.PLAYING,
    Phase.COMPLETE,
)
_PEEK: Final = HoleCard.PEEK


_Step = tuple[
    Callable[["BlackjackRound", Any], None], Callable[["BlackjackRound", Any], ev.Event], bool
]
"""How an action type is applied: ``(verify, run, decision)``: ``verify`` raises unless it
is legal now, ``run`` applies it once verified (all or nothing) and returns its event,
``decision`` whether it may name who decides (checked against :attr:`BlackjackRound.actor`)."""

_CHECKED: dict[bool, BlackjackRules] = {}
"""The rule set last found fit for a round, with and without ``strict_nz`` (a rule set is
frozen: a table's rounds check it once)."""

_HAND_PLAYS: dict[tuple[object, ...], LegalPlays] = {}
"""The legal plays of a hand to act, by who acts and which plays are open (a frozen value:
rounds share them rather than build one at every decision)."""
_HAND_PLAYS_KEPT: Final = 4096
_INSURANCE_PLAYS: dict[tuple[object, ...], LegalPlays] = {}
"""The legal plays of an insurance decision, by who decides, the stakes and even money."""

_E = TypeVar("_E", bound=ev.Event)

_NO_LEGAL: Final = (-1, None, LegalPlays(None))
"""No legal plays worked out yet. A round keeps the last it worked out while a hand is to
act: the length of the log then (the round's state is a function of its log, and every
action logs an event), the open plays and the :class:`LegalPlays`."""

_KEPT: list[tuple[BlackjackRules | None, int, str, str]] = [(None, 0, "", "")]
"""The rule set last found fit (without ``strict_nz``), its
:func:`~croupier.blackjack._state.most_drawn`, its fingerprint and the engine version
(what every round's first event records)."""


class BlackjackRound:
    """One round at a blackjack table under a :class:`BlackjackRules` (default: :data:`NZ`).

    ``bankrolls`` are the players' chips off the table. Cards come from ``shoe``;
    ``burn`` burns its first card (a new shoe). The first event,
    :class:`~croupier.blackjack.events.RoundStarted`, records the bankrolls, the shoe's
    order and the engine and rules versions. Dealer chores (dealer play, settlement) run
    by themselves.

    The round is the stage (:class:`Phase`) and the log; the work is done by parts
    with explicit interfaces, each handed the state it works on and returning the events
    it made: the wager book (:class:`~croupier.blackjack.wagers.Wagers`), the deal and the
    dealer's play (:mod:`~croupier.blackjack.dealer`), the players' decisions
    (:class:`~croupier.blackjack.plays.HandPlays`), settlement
    (:mod:`~croupier.blackjack.settlement`) and the kept seat views
    (:class:`~croupier.blackjack.views.SeatViews`).

    >>> from croupier.cards import Shoe
    >>> BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50}).events[0].describe()
    'round: ann 50'
    """

    def __init__(
        self,
        rules: BlackjackRules,
        shoe: Shoe,
        bankrolls: Mapping[str, int],
        *,
        burn: bool = False,
        strict_nz: bool = False,
    ) -> None:
        kept = _KEPT[0]
        if kept[0] is not rules or strict_nz is not False:
            if strict_nz is not True and strict_nz is not False:
                checked_rules(rules, strict_nz=strict_nz)  # refuses a flag that is not a bool
            elif _CHECKED.get(strict_nz) is not rules:  # the rules last checked, kept
                _CHECKED[strict_nz] = checked_rules(rules, strict_nz=strict_nz)
            if kept[0] is not rules:  # the rules last seen, kept (hashing a rule set is slow)
                kept = _KEPT[0] = (rules, most_drawn(rules), rules.fingerprint, engine_version())
        if type(shoe) is not Shoe and not isinstance(shoe, Shoe):
            raise CroupierError(f"shoe must be a Shoe, not {type(shoe).__name__}")
        if type(bankrolls) is not dict and not isinstance(bankrolls, Mapping):
            raise CroupierError(
                f"bankrolls must map each player's name to chips, not {type(bankrolls).__name__}"
            )
        chips: dict[str, int] = {}
        for player, amount in bankrolls.items():
            if (type(player) is not str or not player) and (
                not isinstance(player, str) or not player
            ):
                raise CroupierError(f"a player is named by a non-empty string, not {player!r}")
            if type(amount) is not int:
                amount = whole_number(f"{player}'s bankroll", amount)
            if amount < 0:
                raise CroupierError(f"{player}'s bankroll cannot be negative: {amount}")
            chips[player] = amount
        self.rules = rules
        """The rule set."""
        self._shoe = shoe
        self.bankrolls: dict[str, int] = chips
        """Each player's chips off the table."""
        self.bank = 0
        """The house's net result this round (positive: the house won)."""
        self.boxes: dict[int, Box] = {}
        """Boxes with wagers, by number."""
        self.dealer: list[Card] = []
        """The dealer's cards (a peek game's hole card included once dealt: show players
        :meth:`view_for`, which hides it)."""
        burn = burn is True or bool(burn)
        order = shoe.remaining
        start = ev.round_started(tuple(chips.items()), order, burn, kept[3], kept[2])
        self._events: list[ev.Event] = [start]
        self._events_seen: tuple[ev.Event, ...] = ()
        self.phase = _WAGERS
        """Where the round is."""
        self._burn = burn
        self._explaining = False
        self._most_drawn = kept[1]  # a shoe this full needs no undo record
        self._wagers = Wagers(rules, chips, self.boxes)
        self._plays = HandPlays(rules, chips, self.boxes, shoe)
        self._views = SeatViews()
        self._legal: tuple[int, Any, LegalPlays] = _NO_LEGAL

    # ----------------------------------------------------------------- views
    @property
    def events(self) -> tuple[ev.Event, ...]:
        """The event log, :class:`~croupier.blackjack.events.RoundStarted` first:
        immutable events in an immutable sequence (the referee alone adds to it).

        >>> from croupier.cards import Shoe
        >>> BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50}).events[0].describe()
        'round: ann 50'
        """
        log = self._events
        seen = self._events_seen
        if len(seen) != len(log) or (seen and (seen[0] is not log[0] or seen[-1] is not log[-1])):
            seen = self._events_seen = tuple(log)
        return seen

    @property
    def shoe(self) -> Shoe:
        """The shoe the cards come from. Setting it (a card room resuming a round on its own
        copy of the shoe) hands the new shoe to every part that draws.

        >>> from croupier.cards import Shoe
        >>> rnd = BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50})
        >>> rnd.shoe = rnd.shoe.copy(); len(rnd.shoe)
        312
        """
        return self._shoe

    @shoe.setter
    def shoe(self, shoe: Shoe) -> None:
        if not isinstance(shoe, Shoe):
            raise CroupierError(f"shoe must be a Shoe, not {type(shoe).__name__}")
        self._shoe = shoe
        self._plays.shoe = shoe

    @property
    def dealer_cards(self) -> tuple[Card, ...]:
        """The dealer's cards (the hole card included: see :meth:`view_for`)."""
        return tuple(self.dealer)

    @property
    def actor(self) -> Turn | None:
        """Who decides now: a box's hand, or (``hand`` None) an insurance decision.

        >>> from croupier.cards import Shoe
        >>> BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50}).actor is None
        True
        """
        phase = self.phase
        if phase is _PLAYING:
            return self._plays.actor
        if phase is _INSURANCE:
            turn = self._plays.insurance_turn
            if turn is not None:
                return turn_of(turn[0], None, turn[1])
        return None

    @property
    def insurance_turn(self) -> tuple[int, str] | None:
        """``(box, player)`` to decide on insurance, or None."""
        if self.phase is _INSURANCE:
            return self._plays.insurance_turn
        return None

    @property
    def is_complete(self) -> bool:
        """Whether the round is settled."""
        return self.phase is _COMPLETE

    @property
    def on_table(self) -> int:
        """Chips staked on the layout now (wagers, splits, doubles, insurance).

        Chips are conserved: ``sum(bankrolls) + on_table + bank`` never changes.
        """
        if self.phase is _COMPLETE:
            return 0
        if self.phase is _WAGERS:
            return sum(sum(b.wagers.values()) for b in self.boxes.values())
        stakes = sum(s for b in self.boxes.values() for h in b.hands for s in h.stakes.values())
        return stakes + sum(sum(b.insurance.values()) for b in self.boxes.values())

    def view_for(self, player: str | None) -> SeatView:
        """What ``player`` (None: a spectator) may see: a frozen
        :class:`~croupier.blackjack.views.SeatView` (a peek game's hole card stays hidden
        until the dealer turns it; the shoe's order and the burn card never show). The
        censored log is kept from one view to the next: a view censors only the events
        logged since the last one.

        >>> from croupier.cards import Shoe
        >>> BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50}).view_for("ann").bankroll
        50
        """
        return self._views.view(self, player, self._events)

    def _error(self, rule: str, problem: str) -> IllegalActionError:
        if self._explaining:  # legal_actions() itself is asking: the message is not shown
            return IllegalActionError(rule, problem)
        self._explaining = True
        try:
            allowed = self.legal_actions().describe() or "no action"
        finally:
            self._explaining = False
        return IllegalActionError(rule, problem, allowed)

    def _refused(self, refusal: Refusal) -> IllegalActionError:
        rule, problem, allowed = refusal
        if allowed is None:
            return self._error(rule, problem)
        return IllegalActionError(rule, problem, allowed)

    # ------------------------------------------------------------ action values
    def verify(self, action: Action) -> None:
        """Raise unless ``action`` is legal now: :class:`InvalidActionError` when it is no
        action, :class:`IllegalActionError` when the rules forbid it (a decision naming a
        box, hand or player other than the one to decide included). The round is
        unchanged either way.

        >>> from croupier.cards import Shoe
        >>> BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50}).verify(Hit())
        Traceback (most recent call last):
        ...
        croupier.errors.IllegalActionError: Blackjack 12.1: cannot hit: no hand is to act; allowed: no action
        """
        self._verified(action)

    def _verified(self, action: object) -> _Step:
        """:meth:`verify`, returning how the action is applied."""
        step = _STEPS.get(type(action))
        if step is None:
            try:
                step = _step(action)
            except InvalidActionError:
                if isinstance(action, HandAction | InsuranceAction):
                    self._verify_actor(action)  # a bare base-class decision: out of turn first
                raise
        if step[2]:
            self._verify_actor(action)  # type: ignore[arg-type]  # a decision (step[2])
        step[0](self, action)
        return step

    def _verify_actor(self, action: HandAction | InsuranceAction) -> None:
        hand = getattr(action, "hand", None)
        if action.box is None and hand is None and action.player is None:
            return  # names nobody: whoever is to decide
        actor = self.actor
        if actor is None:
            return  # the action's own check says nobody is to decide
        if (
            (action.box is not None and action.box != actor.box)
            or (hand is not None and hand != actor.hand)
            or (action.player is not None and action.player != actor.player)
        ):
            whom = f"box {actor.box}" + ("" if actor.hand is None else f" hand {actor.hand}")
            raise self._error(
                "Decision 3.1-14", f"{action} is out of turn: {whom} ({actor.player}) decides"
            )

    def can(self, action: object) -> bool:
        """Whether ``action`` is legal now; never raises.

        >>> from croupier.cards import Shoe
        >>> rnd = BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50})
        >>> rnd.can(PlaceWager(1, "ann", 10)), rnd.can(Deal()), rnd.can("hit")
        (True, False, False)
        """
        return can(self.verify, action)

    def apply(self, action: Action) -> ev.Event:
        """Apply ``action`` and return the event it produced (the cards and settlement
        that follow are in :attr:`events` after it).

        >>> from croupier.cards import Shoe
        >>> rnd = BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50})
        >>> rnd.apply(parse_action("wager 1 ann 10"))
        WagerPlaced(box=1, player='ann', amount=10)
        """
        play = _HAND_PLAY.get(type(action))
        if play is not None and self.phase is _PLAYING:
            # a decision on the hand to act, legal by the open plays' predicates: run it
            # (the plain path below raises, with the rule's message, when it is not)
            plays = self._plays
            events = self._events
            first = len(events)
            kept = self._legal  # the open plays legal_actions() worked out, if still current
            open_plays = kept[1] if kept[0] == first else plays.open_plays()
            if (
                open_plays is not None
                and open_plays[play]
                and len(self._shoe) >= self._most_drawn  # no undo record needed (_run)
            ):
                decision: HandAction = action  # type: ignore[assignment]  # a HandAction's type
                box, hand, player = decision.box, decision.hand, decision.player
                turn = plays.turn
                assert turn is not None  # a play is open: a hand is to act
                if (
                    (box is None or box == turn[0])
                    and (hand is None or hand == turn[1])
                    and (player is None or player == plays.actor.player)  # type: ignore[union-attr]
                ):  # named for the hand to act, or for nobody: whoever is to act
                    events += _HAND_RUNS[play](plays)
                    if plays.turn is None:
                        self._finish()
                    return events[first]
        return self._verified(action)[1](self, action)

    def legal_actions(self) -> LegalPlays:
        """What may be done now, with the amounts: the decisions open to the hand to act,
        the insurance choice with its cap, or, before the deal, each player's wager limits.

        >>> from croupier.cards import Shoe, parse_cards
        >>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("6c 9d 5h Th")), {"ann": 50})
        >>> rnd.place_wager(1, "ann", 10); rnd.deal()
        WagerPlaced(box=1, player='ann', amount=10)
        CardDealt(box=1, hand=0, card=Card('6c'))
        >>> legal = rnd.legal_actions()       # 6 + 5 = 11: must draw (12.1(d)), may double
        >>> legal.names, Double() in legal, Stand() in legal
        (('hit', 'double'), True, False)
        """
        phase = self.phase
        if phase is _PLAYING:
            kept = self._legal
            stamp = len(self._events)
            if kept[0] == stamp:  # worked out at this very point of the log: the same state
                return kept[2]
            part = self._plays
            plays = part.open_plays()
            unit = self.rules.chip_unit
            if plays is None:
                return LegalPlays(None, unit=unit)
            turn = part.turn
            assert turn is not None  # plays are open: a hand is to act
            owner = next(iter(self.boxes[turn[0]].wagers))  # the box's first wager decides
            key = (turn[0], turn[1], owner, plays, unit)
            legal = _HAND_PLAYS.get(key)
            if legal is None:
                if len(_HAND_PLAYS) >= _HAND_PLAYS_KEPT:
                    _HAND_PLAYS.clear()
                hit, stand, double, split, surrender = plays
                legal = _HAND_PLAYS[key] = LegalPlays(
                    part.actor,
                    hit=hit,
                    stand=stand,
                    double=double,
                    split=split,
                    surrender=surrender,
                    unit=unit,
                )
            self._legal = (stamp, plays, legal)
            return legal
        unit = self.rules.chip_unit
        actor = self.actor
        if actor is not None:  # an insurance decision
            cap = self._plays.insurance_cap()
            even_money = self.can_even_money()
            due = (actor.box, actor.player, cap, even_money, unit)
            legal = _INSURANCE_PLAYS.get(due)
            if legal is None:
                if len(_INSURANCE_PLAYS) >= _HAND_PLAYS_KEPT:
                    _INSURANCE_PLAYS.clear()
                legal = _INSURANCE_PLAYS[due] = LegalPlays(
                    actor, decline_insurance=True, insure=cap, even_money=even_money, unit=unit
                )
            return legal
        if phase is not _WAGERS:
            return LegalPlays(None, unit=unit)
        return LegalPlays(
            None,
            wagers=self._wagers.limits(),
            withdrawals=self._wagers.withdrawals(),
            deal=bool(self.boxes),
            unit=unit,
        )

    # --------------------------------------------------------------- running
    def _run(self, step: Callable[[], list[ev.Event]]) -> ev.Event:
        """Run a verified ``step`` all or nothing, log the events it made and return the
        first; the dealer plays and the round settles once no hand is left to act."""
        logged = len(self._events)
        if len(self._shoe) < self._most_drawn:  # the shoe itself: another may draw from it
            saved = self._save()  # near the shoe's end: keep an undo record
            try:
                return self._logged(step)
            except CroupierError:
                self._restore(saved)
                raise
        events = self._events  # it cannot run out of cards: nothing to undo (_logged inline)
        events += step()
        if self._plays.turn is None and self.phase is _PLAYING:
            self._finish()
        return events[logged]

    def _logged(self, step: Callable[[], list[ev.Event]]) -> ev.Event:
        events = self._events
        first = len(events)
        events += step()
        if self.phase is _PLAYING and self._plays.turn is None:
            self._finish()
        return events[first]

    def _logged_one(self, event: _E) -> _E:
        self._events.append(event)
        return event

    def _save(self) -> tuple[Any, ...]:
        layout = _state.save(self.bankrolls, self.boxes, self.dealer, self._events, self._shoe)
        return layout, self.bank, self.phase, self._plays.state()

    def _restore(self, saved: tuple[Any, ...]) -> None:
        layout, self.bank, self.phase, plays = saved
        _state.restore(layout, self.bankrolls, self.boxes, self.dealer, self._events, self._shoe)
        self._events_seen = ()  # the log was cut back: the public tuple is made again
        self._plays.restore(plays)

    # ----------------------------------------------------------------- wagers
    def verify_place_wager(self, box: int, player: str, amount: int) -> None:
        """Raise unless ``player`` may wager ``amount`` on ``box`` now: a box of the layout,
        a player at the table, a whole number of chips (any integer but a bool).

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
        self._wagers.verify_place(box, player, amount, before_deal=self.phase is _WAGERS)

    def can_place_wager(self, box: int, player: str, amount: int) -> bool:
        """Whether :meth:`place_wager` is legal now.

        >>> from croupier.cards import Shoe
        >>> BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50}).can_place_wager(8, "ann", 10)
        False
        """
        return can(self.verify_place_wager, box, player, amount)

    def place_wager(self, box: int, player: str, amount: int) -> ev.WagerPlaced:
        """Place (or change) ``player``'s wager on ``box`` before the deal (4.2).

        >>> from croupier.cards import Shoe
        >>> rnd = BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50, "bo": 20})
        >>> rnd.place_wager(1, "ann", 30)
        WagerPlaced(box=1, player='ann', amount=30)
        >>> [(w.player, w.low, w.high) for w in rnd.legal_actions().wagers if w.box == 1]
        [('ann', 10, 50), ('bo', 10, 20)]
        """
        wagers = self._wagers
        wagers.verify_place(box, player, amount, before_deal=self.phase is _WAGERS)
        event = wagers.place(box, player, amount)
        self._events.append(event)
        return event

    def verify_withdraw_wager(self, box: int, player: str) -> None:
        """Raise unless ``player`` may take the wager back from ``box`` (before the deal, 4.2)."""
        self._wagers.verify_withdraw(box, player, before_deal=self.phase is _WAGERS)

    def can_withdraw_wager(self, box: int, player: str) -> bool:
        """Whether :meth:`withdraw_wager` is legal now."""
        return can(self.verify_withdraw_wager, box, player)

    def withdraw_wager(self, box: int, player: str) -> ev.WagerPlaced:
        """Take a wager back before the deal (4.2).

        >>> from croupier.cards import Shoe
        >>> rnd = BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50})
        >>> rnd.place_wager(1, "ann", 20); rnd.withdraw_wager(1, "ann"); rnd.bankrolls
        WagerPlaced(box=1, player='ann', amount=20)
        WagerPlaced(box=1, player='ann', amount=0)
        {'ann': 50}
        """
        self.verify_withdraw_wager(box, player)
        return self._logged_one(self._wagers.withdraw(box, player))

    # ------------------------------------------------------------------ deal
    def verify_deal(self) -> None:
        """Raise unless the round may be dealt: before the deal, with a wager on a box."""
        if self.phase is not _WAGERS:
            raise IllegalActionError("Blackjack 4.2", "the round is already dealt", "no action")
        if not self.boxes:
            raise IllegalActionError("Decision 3.1-14", "no box has a wager", "place a wager first")

    def can_deal(self) -> bool:
        """Whether :meth:`deal` is legal now."""
        return self.phase is _WAGERS and bool(self.boxes)

    def deal(self) -> ev.Event:
        """Deal: one card to each box left to right, one to the dealer, a second to each box
        (and, in a peek game, the dealer's hole card). Wagers are fixed from here (4.2).
        If the shoe runs out the round is left as it was (no card dealt) and the error says so.
        """
        if self.phase is not _WAGERS or not self.boxes:
            self.verify_deal()  # raises
        return self._run(self._deal)

    def _deal(self) -> list[ev.Event]:
        self.phase = _PLAYING  # 4.2: wagers are fixed once a card leaves the shoe
        table = self.boxes
        boxes = [table[n] for n in sorted(table)] if len(table) > 1 else list(table.values())
        dealer = self.dealer
        rules = self.rules
        made = deal_round(boxes, dealer, self._shoe, rules, burn=self._burn)
        if dealer[0].index >> 2 == _ACE and rules.insurance:
            self._plays.offer_insurance([(b.number, p) for b in boxes for p in b.wagers])
            self.phase = _INSURANCE
            return made
        if rules.hole_card is _PEEK:
            made += self._after_insurance()
        else:  # no hole card: the hands play (_after_insurance, inline)
            made += self._plays.start()
        return made

    def _after_insurance(self) -> list[ev.Event]:
        """The players' turn once insurance is over (none after a peeked dealer blackjack:
        the round settles)."""
        self.phase = _PLAYING
        if self.rules.hole_card is _PEEK and hand_total(self.dealer) == (21, True):
            self._plays.stop()  # a peeked dealer blackjack: nobody acts
            return []
        return self._plays.start()

    # ------------------------------------------------------------- insurance
    def verify_insure(self, amount: int) -> None:
        """Raise unless the player to decide may insure for ``amount`` (0 declines)."""
        if self.phase is not _INSURANCE:
            whole_number("an insurance stake", amount)
            raise IllegalActionError("Decision 3.1-6", "no insurance decision is due", "no action")
        self._plays.verify_insure(amount)

    def can_insure(self, amount: int) -> bool:
        """Whether :meth:`insure` is legal now."""
        try:
            self.verify_insure(amount)
        except CroupierError:  # the amount itself may be malformed input
            return False
        return True

    def insure(self, amount: int) -> ev.Event:
        """Insure the box against a dealer blackjack for up to half the wager (0 declines)."""
        self.verify_insure(amount)
        return self._insure(amount)

    def _insure(self, amount: int) -> ev.Event:
        return self._run(lambda: self._insured(self._plays.insure(amount)))

    def _even_money(self) -> ev.Event:
        return self._run(lambda: self._insured(self._plays.even_money()))

    def _insured(self, made: list[ev.Event]) -> list[ev.Event]:
        if self._plays.insurance_turn is None:  # the last decision: the hands play
            made += self._after_insurance()
        return made

    def verify_even_money(self) -> None:
        """Raise unless the player to decide holds a blackjack and the table pays even money."""
        refusal = self._even_money_refusal()
        if refusal is not None:
            raise IllegalActionError(*refusal)

    def _even_money_refusal(self) -> tuple[str, str, str] | None:
        if self.phase is not _INSURANCE:
            return ("Decision 3.1-6", "even money is not offered now", "no action")
        return self._plays.even_money_refusal()

    def can_even_money(self) -> bool:
        """Whether :meth:`even_money` is legal now."""
        return self._even_money_refusal() is None

    def even_money(self) -> ev.Event:
        """Take even money: the blackjack is paid 1:1 now, whatever the dealer's second card."""
        self.verify_even_money()
        return self._even_money()

    # ------------------------------------------------------------- decisions
    def verify_hit(self) -> None:
        """Raise unless the hand to act may draw (12.1)."""
        refusal = self._plays.hit_refusal()
        if refusal is not None:
            raise self._refused(refusal)

    def can_hit(self) -> bool:
        """Whether :meth:`hit` is legal now."""
        return self._plays.hit_refusal() is None

    def hit(self) -> ev.Event:
        """Draw a card."""
        self.verify_hit()
        return self._run(self._plays.hit)

    def verify_stand(self) -> None:
        """Raise unless the hand to act may stand (12.1(d): not on 11 or less)."""
        refusal = self._plays.stand_refusal()
        if refusal is not None:
            raise self._refused(refusal)

    def can_stand(self) -> bool:
        """Whether :meth:`stand` is legal now."""
        return self._plays.stand_refusal() is None

    def stand(self) -> ev.Event:
        """Take no more cards."""
        self.verify_stand()
        return self._run(self._plays.stand)

    def verify_double(self) -> None:
        """Raise unless the hand to act may double down (one card only, 12.1(b))."""
        refusal = self._plays.double_refusal()
        if refusal is not None:
            raise self._refused(refusal)

    def can_double(self) -> bool:
        """Whether :meth:`double` is legal now."""
        return self._plays.double_refusal() is None

    def double(self) -> ev.Event:
        """Double the stake and take exactly one card (12.1(b)), even on 11 or less."""
        self.verify_double()
        return self._run(self._plays.double)

    def verify_split(self) -> None:
        """Raise unless the hand to act may be split (11.1-11.5)."""
        refusal = self._plays.split_refusal()
        if refusal is not None:
            raise self._refused(refusal)

    def can_split(self) -> bool:
        """Whether :meth:`split` is legal now."""
        return self._plays.split_refusal() is None

    def split(self) -> ev.Event:
        """Split the pair into two hands with an equal stake each; each gets a second card
        in turn (11.1-11.3); split aces get one card each (11.4(b))."""
        self.verify_split()
        return self._run(self._plays.split)

    def verify_surrender(self) -> None:
        """Raise unless the hand to act may surrender (only where the table offers it)."""
        refusal = self._plays.surrender_refusal()
        if refusal is not None:
            raise self._refused(refusal)

    def can_surrender(self) -> bool:
        """Whether :meth:`surrender` is legal now."""
        return self._plays.surrender_refusal() is None

    def surrender(self) -> ev.Event:
        """Give up the hand for half the stake back."""
        self.verify_surrender()
        return self._run(self._plays.surrender)

    # ------------------------------------------------- the dealer, settlement
    def _finish(self) -> None:
        """The dealer's turn, then settlement (the events go to the log)."""
        table = self.boxes
        boxes = [table[n] for n in sorted(table)] if len(table) > 1 else list(table.values())
        hands: list[PlayerHand] = []
        insured = False
        for box in boxes:
            hands += box.hands
            if box.insurance:
                insured = True
        events = self._events
        events += play_dealer(self.dealer, hands, insured, self._shoe.draw, self.rules)
        made, self.bank = settle_round(self.rules, boxes, self.dealer, self.bankrolls, self.bank)
        events += made
        self.phase = _COMPLETE  # (no hand is to act: the part's turn is already None)

    def payoffs(self) -> dict[str, int]:
        """Chips won (positive) or lost (negative) by each player in a settled round; they
        add up to minus the bank's result.

        >>> from croupier.cards import Shoe
        >>> BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50}).payoffs()
        Traceback (most recent call last):
        ...
        croupier.errors.IllegalActionError: Blackjack 13 (dealer drawing): payoffs are known only once the dealer has drawn and the round is settled; allowed: after settlement
        """
        if self.phase is not _COMPLETE:
            raise IllegalActionError(
                "Blackjack 13 (dealer drawing)",
                "payoffs are known only once the dealer has drawn and the round is settled",
                "after settlement",
            )
        start: ev.RoundStarted = self._events[0]  # type: ignore[assignment]  # always first
        bankrolls = self.bankrolls
        won = {}
        for player, chips in start.bankrolls:
            won[player] = bankrolls[player] - chips
        return won

    # ------------------------------------------------------- copies, replay
    def copy(self) -> BlackjackRound:
        """An independent copy sharing only the immutable parts (rules, events, cards): it
        has its own shoe (the same cards in the same order), so both deal alike from here.
        The shoe's random source is shared: only a reshuffle between rounds uses it.

        >>> from croupier.cards import Shoe
        >>> rnd = BlackjackRound(NZ, Shoe(6, seed=3), {"ann": 50}); rnd.place_wager(1, "ann", 10)
        WagerPlaced(box=1, player='ann', amount=10)
        >>> twin = rnd.copy(); twin.deal()
        CardDealt(box=1, hand=0, card=Card('6d'))
        >>> rnd.phase, twin.phase is not rnd.phase, len(rnd.shoe) - len(twin.shoe)
        (<Phase.WAGERS: 'wagers'>, True, 3)
        """
        new = object.__new__(BlackjackRound)
        state = self.__dict__.copy()
        new.__dict__ = state
        shoe = state["_shoe"] = self._shoe.copy()
        bankrolls = state["bankrolls"] = dict(self.bankrolls)
        boxes = state["boxes"] = {n: b.copy() for n, b in self.boxes.items()}
        state["dealer"] = self.dealer[:]
        state["_events"] = self._events[:]
        turn, due = self._plays.state()
        state["_wagers"] = Wagers(self.rules, bankrolls, boxes)
        state["_plays"] = HandPlays(self.rules, bankrolls, boxes, shoe, turn=turn, due=due)
        state["_views"] = SeatViews()
        return new

    def snapshot(self) -> dict[str, Any]:
        """Everything observable about the round, for comparisons (the shoe aside: see
        ``len(rnd.shoe)``)."""
        boxes = {
            n: (
                tuple(b.wagers.items()),
                tuple(b.insurance.items()),
                tuple(sorted(b.even_money)),
                b.split_declined,
                tuple(
                    (
                        tuple(h.cards),
                        tuple(h.stakes.items()),
                        h.from_split,
                        h.split_aces,
                        h.doubled,
                        h.surrendered,
                        h.done,
                        h.acted,
                    )
                    for h in b.hands
                ),
            )
            for n, b in self.boxes.items()
        }
        playing = self.phase is _PLAYING
        return {
            "phase": self.phase.value,
            "bankrolls": dict(self.bankrolls),
            "bank": self.bank,
            "dealer": tuple(self.dealer),
            "boxes": boxes,
            "turn": self._plays.turn if playing else None,
            "actor": self.actor,
            "insurance_turn": self.insurance_turn,
            "insurance_due": self._plays.insurance_due,
            "events": tuple(self._events),
        }

    @classmethod
    def replay(cls, rules: BlackjackRules, events: Sequence[ev.Event]) -> BlackjackRound:
        """Rebuild a round from its log: :class:`~croupier.blackjack.events.RoundStarted`
        gives the bankrolls and the shoe, the decisions are applied as action values. The
        log is checked against the rules: it must have been played under them (the rules
        fingerprint), and every event the replay produces must equal the logged one; a
        mismatch raises :class:`CroupierError` naming the event.

        >>> from croupier.cards import Shoe
        >>> rnd = BlackjackRound(NZ, Shoe(6, seed=4), {"ann": 50})
        >>> rnd.place_wager(1, "ann", 10); rnd.deal()
        WagerPlaced(box=1, player='ann', amount=10)
        CardDealt(box=1, hand=0, card=Card('6c'))
        >>> BlackjackRound.replay(NZ, rnd.events).snapshot() == rnd.snapshot()
        True
        >>> BlackjackRound.replay(NZ.with_(decks=8), rnd.events)
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: the log was played under rules ... (BlackjackRules.fingerprint): replay it with its own rules
        """
        start = event_log(events, ev.RoundStarted, ev.Event)
        if not isinstance(rules, BlackjackRules):
            raise CroupierError(f"rules must be a BlackjackRules, not {rules!r}")
        if start.rules_version and start.rules_version != rules.fingerprint:
            raise CroupierError(
                f"the log was played under rules {start.rules_version}; these rules are "
                f"{rules.fingerprint} (BlackjackRules.fingerprint): replay it with its own rules"
            )
        order = list(start.shoe) or [
            e.card for e in events if isinstance(e, ev.CardBurned | ev.CardDealt | ev.DealerCard)
        ]
        rnd = cls(rules, Shoe(rules.decks, cards=order), dict(start.bankrolls), burn=start.burn)
        rnd._events[0] = start  # the log's own record of versions and shoe
        rnd._events_seen = ()
        for index, event in enumerate(events[1:], start=1):
            action = decision(event, rnd.phase)
            if action is None:
                continue
            if len(rnd._events) != index:
                break  # the log skips events this decision would not produce: reported below
            try:
                rnd.apply(action)
            except CroupierError as error:
                raise CroupierError(
                    f"event {index} of the log ({event.describe()}): {error}"
                ) from None
        same_log(events, rnd._events)
        return rnd


_ACE: Final = int(Rank.ACE)
"""An ace's rank: a card's :attr:`~croupier.cards.card.Card.index` is ``4 * rank + suit``."""

_STEPS: dict[type, _Step] = {
    Hit: (lambda r, a: r.verify_hit(), lambda r, a: r._run(r._plays.hit), True),
    Stand: (lambda r, a: r.verify_stand(), lambda r, a: r._run(r._plays.stand), True),
    Double: (lambda r, a: r.verify_double(), lambda r, a: r._run(r._plays.double), True),
    Split: (lambda r, a: r.verify_split(), lambda r, a: r._run(r._plays.split), True),
    SurrenderAction: (
        lambda r, a: r.verify_surrender(),
        lambda r, a: r._run(r._plays.surrender),
        True,
    ),
    Insure: (lambda r, a: r.verify_insure(a.amount), lambda r, a: r._insure(a.amount), True),
    DeclineInsurance: (lambda r, a: r.verify_insure(0), lambda r, a: r._insure(0), True),
    EvenMoney: (lambda r, a: r.verify_even_money(), lambda r, a: r._even_money(), True),
    PlaceWager: (
        lambda r, a: r.verify_place_wager(a.box, a.player, a.amount),
        lambda r, a: r._logged_one(r._wagers.place(a.box, a.player, a.amount)),
        False,
    ),
    WithdrawWager: (
        lambda r, a: r.verify_withdraw_wager(a.box, a.player),
        lambda r, a: r._logged_one(r._wagers.withdraw(a.box, a.player)),
        False,
    ),
    Deal: (lambda r, a: r.verify_deal(), lambda r, a: r._run(r._deal), False),
}
"""Every action type, looked up by its exact type (a subclass by its nearest base)."""


_HAND_PLAY: dict[type, int] = {Hit: 0, Stand: 1, Double: 2, Split: 3, SurrenderAction: 4}
"""The decisions on a hand, by exact type: their number in
:meth:`HandPlays.open_plays <croupier.blackjack.plays.HandPlays.open_plays>`."""

_HAND_RUNS: tuple[Callable[[HandPlays], list[ev.Event]], ...] = (
    HandPlays.hit,
    HandPlays.stand,
    HandPlays.double,
    HandPlays.split,
    HandPlays.surrender,
)
"""How each decision of :data:`_HAND_PLAY` is made once found legal."""


def _step(action: object) -> _Step:
    """How ``action`` is applied; :class:`InvalidActionError` when it is no action."""
    step = _STEPS.get(type(action))
    if step is None:
        if isinstance(action, Action):
            for base in type(action).__mro__:
                if base in _STEPS:
                    return _STEPS[base]
        raise InvalidActionError(f"not a blackjack action: {action!r}")
    return step
