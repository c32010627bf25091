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
from typing import Any, Final, cast

from croupier.blackjack import events as ev
from croupier.blackjack._state import atomic, most_drawn
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
from croupier.blackjack.dealer import play_dealer
from croupier.blackjack.hands import Box, Play, PlayerHand, RoundPhase, Turn
from croupier.blackjack.plays import HandPlays
from croupier.blackjack.replay import replay_log
from croupier.blackjack.rules import NZ as NZ  # the default rule set, re-exported
from croupier.blackjack.rules import BlackjackRules, HoleCard, checked_rules, whole_number
from croupier.blackjack.settlement import settle
from croupier.blackjack.values import hand_total
from croupier.blackjack.views import SeatView, ShownLog, seat_view
from croupier.blackjack.wagers import Wagers
from croupier.cards.card import Card, Rank
from croupier.cards.deck import Shoe
from croupier.checks import can
from croupier.errors import CroupierError, IllegalActionError, InvalidActionError
from croupier.version import engine_version

__all__ = ["BlackjackRound", "Box", "PlayerHand", "RoundPhase"]


_Step = tuple[
    Callable[["BlackjackRound", Any], None], Callable[["BlackjackRound", Any], object], bool
]
"""How an action type is applied: ``(verify, run, decision)``: ``verify`` raises unless it
is legal now, ``run`` applies it once verified (all or nothing), ``decision`` whether it
may name who decides (checked against :attr:`BlackjackRound.actor`)."""

_CHECKED: dict[bool, BlackjackRules] = {}
"""The rule set last found fit for a round, with and without ``strict_nz`` (a rule set is
frozen: a table's rounds check it once)."""

_HAND_PLAYS: dict[tuple[object, ...], LegalPlays] = {}
"""The legal plays of a hand to act, by who acts and which plays are open (a frozen value:
rounds share them rather than build one at every decision)."""
_HAND_PLAYS_KEPT: Final = 4096


class BlackjackRound(HandPlays, Wagers):
    """One round at a blackjack table under a :class:`BlackjackRules` (default: :data:`NZ`).

    ``bankrolls`` are the players' chips off the table. Cards come from ``shoe``;
    ``burn`` burns its first card (a new shoe). The first event,
    :class:`~croupier.blackjack.events.RoundStarted`, records the bankrolls, the shoe's
    order and the engine and rules versions. Dealer chores (dealer play, settlement) run
    by themselves.

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
        if strict_nz is not True and strict_nz is not False:
            checked_rules(rules, strict_nz=strict_nz)  # refuses a flag that is not a bool
        elif _CHECKED.get(strict_nz) is not rules:  # the rules last checked, kept
            _CHECKED[strict_nz] = checked_rules(rules, strict_nz=strict_nz)
        if not isinstance(shoe, Shoe):
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
        self.shoe = shoe
        """The shoe the cards come from."""
        self.bankrolls: dict[str, int] = chips
        """Each player's chips off the table."""
        self.bank = 0
        """The house's net result this round (positive: the house won)."""
        self.boxes: dict[int, Box] = {}
        """Boxes with wagers, by number."""
        self.dealer: list[Card] = []
        """The dealer's cards (a peek game's hole card included once dealt: show players
        :meth:`view_for`, which hides it)."""
        start = ev.RoundStarted(
            tuple(chips.items()),
            shoe.remaining,
            bool(burn),
            engine_version(),
            rules.fingerprint,
        )
        self.events: list[ev.Event] = [start]
        """The immutable event log, :class:`~croupier.blackjack.events.RoundStarted` first."""
        self.phase = RoundPhase.WAGERS
        """Where the round is."""
        self._burn = bool(burn)
        self._explaining = False
        self._insurance_due: list[tuple[int, str]] = []
        self._turn: tuple[int, int] | None = None
        self._shown = ShownLog()
        self._actor: tuple[tuple[int, int], Turn] | None = None
        self._most_drawn = most_drawn(rules)  # a shoe this full needs no undo record

    # ----------------------------------------------------------------- views
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
        if self.phase is RoundPhase.PLAYING:
            now = self._turn
            if now is None:
                return None
            kept = self._actor
            if kept is not None and kept[0] is now:  # the same turn (its owner is fixed)
                return kept[1]
            actor = Turn(now[0], now[1], self.boxes[now[0]].owner)
            self._actor = (now, actor)
            return actor
        turn = self.insurance_turn
        return None if turn is None else Turn(turn[0], None, turn[1])

    @property
    def insurance_turn(self) -> tuple[int, str] | None:
        """``(box, player)`` to decide on insurance, or None."""
        if self.phase is RoundPhase.INSURANCE and self._insurance_due:
            return self._insurance_due[0]
        return None

    @property
    def is_complete(self) -> bool:
        """Whether the round is settled."""
        return self.phase is RoundPhase.SETTLED

    @property
    def on_table(self) -> int:
        """Chips staked on the layout now (wagers, splits, doubles, insurance).

        Chips are conserved: ``sum(bankrolls) + on_table + bank`` never changes.
        """
        if self.phase is RoundPhase.SETTLED:
            return 0
        if self.phase is RoundPhase.WAGERS:
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
        return seat_view(self, player)

    def _error(self, rule: str, problem: str) -> IllegalActionError:
        if self._explaining:  # legal_actions() itself is asking: the message is not shown
            return IllegalActionError(rule, problem)
        self._explaining = True
        try:
            allowed = self.legal_actions().describe() or "no action"
        finally:
            self._explaining = False
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
        try:
            step = _step(action)
        except InvalidActionError:
            if isinstance(action, HandAction | InsuranceAction):
                self._verify_actor(action)  # a bare base-class decision: out of turn first
            raise
        if step[2]:
            self._verify_actor(cast(HandAction | InsuranceAction, action))
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
        step = self._verified(action)
        before = len(self.events)
        step[1](self, action)
        return self.events[before]

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
        unit = self.rules.chip_unit
        actor = self.actor
        if actor is not None and actor.hand is None:
            wager = self.boxes[actor.box].wagers[actor.player]
            cap = min(wager // 2, self.bankrolls[actor.player]) // unit * unit
            insure = (unit, cap) if cap >= unit else None
            return LegalPlays(
                actor,
                decline_insurance=True,
                insure=insure,
                even_money=self.can_even_money(),
                unit=unit,
            )
        if actor is not None:
            plays = self._open_plays()
            assert plays is not None
            key = (actor.box, actor.hand, actor.player, plays, unit)
            legal = _HAND_PLAYS.get(key)
            if legal is None:
                if len(_HAND_PLAYS) >= _HAND_PLAYS_KEPT:
                    _HAND_PLAYS.clear()
                hit, stand, double, split, surrender = plays
                legal = _HAND_PLAYS[key] = LegalPlays(
                    actor,
                    hit=hit,
                    stand=stand,
                    double=double,
                    split=split,
                    surrender=surrender,
                    unit=unit,
                )
            return legal
        if self.phase is not RoundPhase.WAGERS:
            return LegalPlays(None, unit=unit)
        return LegalPlays(
            None,
            wagers=self._wager_limits(),
            withdrawals=tuple((n, p) for n, b in sorted(self.boxes.items()) for p in b.wagers),
            deal=bool(self.boxes),
            unit=unit,
        )

    # ------------------------------------------------------------------ deal
    def verify_deal(self) -> None:
        """Raise unless the round may be dealt: before the deal, with a wager on a box."""
        if self.phase is not RoundPhase.WAGERS:
            raise IllegalActionError("Blackjack 4.2", "the round is already dealt", "no action")
        if not self.boxes:
            raise IllegalActionError("Decision 3.1-14", "no box has a wager", "place a wager first")

    def can_deal(self) -> bool:
        """Whether :meth:`deal` is legal now."""
        return self.phase is RoundPhase.WAGERS and bool(self.boxes)

    def deal(self) -> ev.Event:
        """Deal: one card to each box left to right, one to the dealer, a second to each box
        (and, in a peek game, the dealer's hole card). Wagers are fixed from here (4.2).
        If the shoe runs out the round is left as it was (no card dealt) and the error says so.
        """
        self.verify_deal()
        before = len(self.events)
        self._deal()
        return self.events[before]

    @atomic
    def _deal(self) -> None:
        self.phase = RoundPhase.PLAYING  # 4.2: wagers are fixed once a card leaves the shoe
        if self._burn:
            self.events.append(ev.CardBurned(self.shoe.burn()))
        order = sorted(self.boxes)
        for number in order:
            box = self.boxes[number]
            box.hands = [PlayerHand(cards=[], stakes=dict(box.wagers))]
        for number in order:
            self._give(number, 0)
        self._dealer_card(hidden=False)
        for number in order:
            self._give(number, 0)
        if self.rules.hole_card is HoleCard.PEEK:
            self._dealer_card(hidden=True)
        if self.dealer[0].rank is Rank.ACE and self.rules.insurance:
            self._insurance_due = [(n, p) for n in order for p in self.boxes[n].wagers]
            self.phase = RoundPhase.INSURANCE
            return
        self._after_insurance()

    def _dealer_card(self, *, hidden: bool) -> None:
        card = self.shoe.draw()
        self.dealer.append(card)
        self.events.append(ev.DealerCard(card, hidden=hidden))

    def _give(self, box: int, hand: int) -> Card:
        card = self.shoe.draw()
        self.boxes[box].hands[hand].cards.append(card)
        self.events.append(ev.CardDealt(box, hand, card))
        return card

    # ------------------------------------------------------------- insurance
    def verify_insure(self, amount: int) -> None:
        """Raise unless the player to decide may insure for ``amount`` (0 declines)."""
        amount = whole_number("an insurance stake", amount)
        turn = self.insurance_turn
        if turn is None:
            raise IllegalActionError("Decision 3.1-6", "no insurance decision is due", "no action")
        box, player = turn
        cap = self.boxes[box].wagers[player] // 2 // self.rules.chip_unit * self.rules.chip_unit
        if not 0 <= amount <= cap or amount % self.rules.chip_unit:
            raise IllegalActionError(
                "Decision 3.1-6",
                f"insurance of {amount} on box {box}",
                f"0 to {cap} (half the wager)",
            )
        if amount > self.bankrolls[player]:
            raise IllegalActionError(
                "Decision 3.1-6", f"{player} has only {self.bankrolls[player]}"
            )

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
        before = len(self.events)
        self._insure(amount)
        return self.events[before]

    @atomic
    def _insure(self, amount: int) -> None:
        amount = int(amount)
        box, player = self._insurance_due.pop(0)
        if amount:
            self.boxes[box].insurance[player] = amount
            self.bankrolls[player] -= amount
        self.events.append(ev.InsuranceDecided(box, player, amount))
        if not self._insurance_due:
            self._after_insurance()

    def _even_money_refusal(self) -> tuple[str, str, str] | None:
        turn = self.insurance_turn
        if turn is None or not self.rules.even_money:
            return ("Decision 3.1-6", "even money is not offered now", "no action")
        if not self.boxes[turn[0]].hands[0].is_blackjack:
            return ("Decision 3.1-6", "even money is only for a blackjack", "insure")
        return None

    def verify_even_money(self) -> None:
        """Raise unless the player to decide holds a blackjack and the table pays even money."""
        refusal = self._even_money_refusal()
        if refusal is not None:
            raise IllegalActionError(*refusal)

    def can_even_money(self) -> bool:
        """Whether :meth:`even_money` is legal now."""
        return self._even_money_refusal() is None

    def even_money(self) -> ev.Event:
        """Take even money: the blackjack is paid 1:1 now, whatever the dealer's second card."""
        self.verify_even_money()
        before = len(self.events)
        self._even_money()
        return self.events[before]

    @atomic
    def _even_money(self) -> None:
        box, player = self._insurance_due.pop(0)
        self.boxes[box].even_money.add(player)
        self.events.append(ev.BoxAction(box, 0, Play.EVEN_MONEY))
        if not self._insurance_due:
            self._after_insurance()

    def _after_insurance(self) -> None:
        self.phase = RoundPhase.PLAYING
        if self.rules.hole_card is HoleCard.PEEK and hand_total(self.dealer) == (21, True):
            self._finish()  # a peeked dealer blackjack: nobody acts
            return
        self._turn = None
        self._advance()

    # ---------------------------------------------------------------- turns
    def _advance(self) -> None:
        """Move to the next hand needing a decision, dealing split hands' second cards."""
        boxes = self.boxes
        for number in sorted(boxes) if len(boxes) > 1 else boxes:
            if self._turn is not None and number < self._turn[0]:
                continue
            box = boxes[number]
            index = 0
            while index < len(box.hands):
                hand = box.hands[index]
                if len(hand.cards) == 1:  # a split hand gets its second card now (11.3)
                    self._give(number, index)
                    if hand.split_aces and not self.rules.hit_split_aces:
                        # 11.4(b), 12.1(c): one card to each split ace; only a resplit of
                        # a new pair of aces may follow, where the table allows it
                        self._turn = (number, index)
                        hand.done = self._split_refusal() is not None
                if not hand.done and hand.total >= 21:
                    hand.done = True  # 12.1(a): no draw on a blackjack or any 21
                if not hand.done:
                    turn = self._turn
                    if turn is None or turn[0] != number or turn[1] != index:
                        self._turn = (number, index)
                    return
                index += 1
        self._turn = None
        self._finish()

    # ------------------------------------------------- the dealer, settlement
    def _finish(self) -> None:
        table = self.boxes
        boxes: list[Box] = []
        hands: list[PlayerHand] = []
        insured = False
        for number in sorted(table) if len(table) > 1 else table:
            box = table[number]
            boxes.append(box)
            hands += box.hands
            if box.insurance:
                insured = True
        self.events.extend(play_dealer(self.dealer, hands, insured, self.shoe.draw, self.rules))
        bankrolls = self.bankrolls
        events = self.events
        for event in settle(self.rules, boxes, self.dealer):
            bankrolls[event.player] += event.stake + event.net
            self.bank -= event.net
            events.append(event)
        self.phase = RoundPhase.SETTLED
        self._turn = None
        events.append(ev.RoundSettled(tuple(sorted(bankrolls.items())), self.bank))

    def payoffs(self) -> dict[str, int]:
        """Chips won (positive) or lost (negative) by each player in a settled round; they
        add up to minus the bank's result.

        >>> from croupier.cards import Shoe
        >>> BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50}).payoffs()
        Traceback (most recent call last):
        ...
        croupier.errors.IllegalActionError: Blackjack 13 (dealer drawing): payoffs are known only once the dealer has drawn and the round is settled; allowed: after settlement
        """
        if not self.is_complete:
            raise IllegalActionError(
                "Blackjack 13 (dealer drawing)",
                "payoffs are known only once the dealer has drawn and the round is settled",
                "after settlement",
            )
        start = self.events[0]
        assert isinstance(start, ev.RoundStarted)
        return {player: self.bankrolls[player] - chips for player, chips in start.bankrolls}

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
        (<RoundPhase.WAGERS: 'wagers'>, True, 3)
        """
        new = object.__new__(BlackjackRound)
        state = self.__dict__.copy()
        new.__dict__ = state
        state["shoe"] = self.shoe.copy()
        state["bankrolls"] = dict(self.bankrolls)
        state["boxes"] = {n: b.copy() for n, b in self.boxes.items()}
        state["dealer"] = self.dealer[:]
        state["events"] = self.events[:]
        state["_insurance_due"] = self._insurance_due[:]
        state["_shown"] = ShownLog()
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
        return {
            "phase": self.phase.value,
            "bankrolls": dict(self.bankrolls),
            "bank": self.bank,
            "dealer": tuple(self.dealer),
            "boxes": boxes,
            "turn": self._turn if self.phase is RoundPhase.PLAYING else None,
            "actor": self.actor,
            "insurance_turn": self.insurance_turn,
            "insurance_due": tuple(self._insurance_due),
            "events": tuple(self.events),
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
        return replay_log(cls, rules, events)


_STEPS: dict[type, _Step] = {
    Hit: (lambda r, a: r.verify_hit(), lambda r, a: r._hit(), True),
    Stand: (lambda r, a: r.verify_stand(), lambda r, a: r._stand(), True),
    Double: (lambda r, a: r.verify_double(), lambda r, a: r._double(), True),
    Split: (lambda r, a: r.verify_split(), lambda r, a: r._split(), True),
    SurrenderAction: (lambda r, a: r.verify_surrender(), lambda r, a: r._surrender(), True),
    Insure: (lambda r, a: r.verify_insure(a.amount), lambda r, a: r._insure(a.amount), True),
    DeclineInsurance: (lambda r, a: r.verify_insure(0), lambda r, a: r._insure(0), True),
    EvenMoney: (lambda r, a: r.verify_even_money(), lambda r, a: r._even_money(), True),
    PlaceWager: (
        lambda r, a: r.verify_place_wager(a.box, a.player, a.amount),
        lambda r, a: r.place_wager(a.box, a.player, a.amount),
        False,
    ),
    WithdrawWager: (
        lambda r, a: r.verify_withdraw_wager(a.box, a.player),
        lambda r, a: r.withdraw_wager(a.box, a.player),
        False,
    ),
    Deal: (lambda r, a: r.verify_deal(), lambda r, a: r._deal(), False),
}
"""Every action type, looked up by its exact type (a subclass by its nearest base)."""


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
