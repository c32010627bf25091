"""One blackjack round as a state machine: wagers, the deal, insurance, each box, the dealer, settlement.

>>> from croupier.cards import Shoe, parse_cards
>>> shoe = Shoe(6, cards=parse_cards("As 9c 7d Kh 7s Ks"))    # box 1: A K, box 2: 9 7, dealer 7 then K
>>> rnd = BlackjackRound(NZ, shoe, {"ann": 100, "bo": 100})
>>> rnd.place_wager(1, "ann", 10); rnd.place_wager(2, "bo", 10)
>>> rnd.deal()
>>> rnd.current, rnd.legal_actions()           # ann's blackjack needs no decision (12.1(a))
((2, 0), ('hit', 'stand', 'double'))
>>> rnd.stand()
>>> rnd.dealer_cards, rnd.bankrolls               # dealer 7 + K = 17 stands; 3:2 for ann, bo loses
((Card('7d'), Card('Ks')), {'ann': 115, 'bo': 90})
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import wraps
from numbers import Integral
from typing import Any, ParamSpec, TypeVar

from croupier.blackjack import events as ev
from croupier.blackjack.rules import (
    NZ,
    BlackjackRules,
    DealerBlackjackTakes,
    HoleCard,
    Surrender,
    whole_number,
)
from croupier.blackjack.values import hand_total, is_pair
from croupier.cards.card import Card, Rank
from croupier.cards.deck import Shoe
from croupier.errors import CroupierError, RuleViolationError

__all__ = ["BlackjackRound", "Box", "IllegalPlayError", "PlayerHand", "RoundPhase"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _atomic(action: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run a round action all or nothing: if it raises a CroupierError (the shoe running
    out part way through a deal, a draw or the dealer's play), the round and its shoe are
    put back exactly as they were before the action, and the error is raised."""

    @wraps(action)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        rnd = args[0]
        assert isinstance(rnd, BlackjackRound)
        with rnd._all_or_nothing():
            return action(*args, **kwargs)

    return run


class IllegalPlayError(RuleViolationError):
    """A blackjack action the rules do not allow now; the round is unchanged.

    >>> IllegalPlayError("Blackjack 12.1(d)", "cannot stand on 11", "hit, double")
    IllegalPlayError('Blackjack 12.1(d): cannot stand on 11; allowed: hit, double')
    """


class RoundPhase(StrEnum):
    """Where the round is.

    >>> RoundPhase.WAGERS.value
    'wagers'
    """

    WAGERS = "wagers"
    """Wagers may be placed, changed or withdrawn (4.2)."""
    INSURANCE = "insurance"
    """The dealer shows an ace: players decide on insurance."""
    PLAYING = "playing"
    """A box's hand is to act."""
    SETTLED = "settled"
    """The dealer has played and every wager is settled."""


@dataclass
class PlayerHand:
    """One hand on a box: its cards and each player's stake on it.

    >>> hand = PlayerHand(cards=[Card.parse("Ah"), Card.parse("Kd")], stakes={"ann": 10})
    >>> hand.total, hand.is_blackjack
    (21, True)
    """

    cards: list[Card]
    """The hand's cards."""
    stakes: dict[str, int]
    """Each player's stake on this hand (doubles included)."""
    from_split: bool = False
    """Made by splitting (never a blackjack, 11.4(c))."""
    split_aces: bool = False
    """Made by splitting aces (one card only, 11.4(b))."""
    doubled: bool = False
    """Doubled (exactly one more card, 12.1(b))."""
    surrendered: bool = False
    """Given up for half the stake."""
    done: bool = False
    """No more decisions."""
    acted: bool = False
    """A decision has been taken on this hand."""

    @property
    def total(self) -> int:
        """The best total (3.2)."""
        return hand_total(self.cards)[0]

    @property
    def soft(self) -> bool:
        """Whether an ace counts 11."""
        return hand_total(self.cards)[1]

    @property
    def busted(self) -> bool:
        """Over 21."""
        return self.total > 21

    @property
    def is_blackjack(self) -> bool:
        """Two-card 21 on an unsplit hand (11.4(c): split hands never are)."""
        return len(self.cards) == 2 and self.total == 21 and not self.from_split


@dataclass
class Box:
    """A box (spot) on the layout: the wagers on it and the hands it becomes.

    >>> Box(1, {"ann": 10}).owner
    'ann'
    """

    number: int
    """The box number (1 at the dealer's left)."""
    wagers: dict[str, int]
    """Each player's original wager; the first player makes the decisions."""
    hands: list[PlayerHand] = field(default_factory=list)
    """The hands (more than one after a split)."""
    insurance: dict[str, int] = field(default_factory=dict)
    """Each player's insurance stake."""
    even_money: set[str] = field(default_factory=set)
    """Players paid even money on a blackjack (Decision 3.1-6)."""
    split_declined: bool = False
    """11.5: a pair was not split, so no later pair may be."""

    @property
    def owner(self) -> str:
        """The player who decides for the box."""
        return next(iter(self.wagers))


class BlackjackRound:
    """One round at a blackjack table under a :class:`BlackjackRules` (default: :data:`NZ`).

    ``bankrolls`` are the players' chips off the table. Cards come from ``shoe``;
    ``burn`` burns its first card (a new shoe). Player actions are ``verify_``/``can_``/do
    triads; dealer chores (deal, dealer play, settlement) run by themselves.
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
        if not isinstance(rules, BlackjackRules):
            raise CroupierError(f"rules must be a BlackjackRules, not {type(rules).__name__}")
        rules.validate_for_play() if strict_nz else rules.validate()
        if not isinstance(shoe, Shoe):
            raise CroupierError(f"shoe must be a Shoe, not {type(shoe).__name__}")
        if not isinstance(bankrolls, Mapping):
            raise CroupierError(
                f"bankrolls must map each player's name to chips, not {type(bankrolls).__name__}"
            )
        chips: dict[str, int] = {}
        for player, amount in bankrolls.items():
            if not isinstance(player, str) or not player:
                raise CroupierError(f"a player is named by a non-empty string, not {player!r}")
            chips[player] = whole_number(f"{player}'s bankroll", amount)
            if chips[player] < 0:
                raise CroupierError(f"{player}'s bankroll cannot be negative: {amount}")
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
        """The dealer's cards (a peek game's hole card included once dealt)."""
        self.events: list[ev.Event] = []
        """The immutable event log."""
        self.phase = RoundPhase.WAGERS
        """Where the round is."""
        self._burn = burn
        self._explaining = False
        self._insurance_due: list[tuple[int, str]] = []
        self._turn: tuple[int, int] | None = None

    # ----------------------------------------------------------------- views
    @property
    def dealer_cards(self) -> tuple[Card, ...]:
        """The dealer's cards."""
        return tuple(self.dealer)

    @property
    def current(self) -> tuple[int, int] | None:
        """``(box, hand)`` to act, or None."""
        return self._turn if self.phase is RoundPhase.PLAYING else None

    @property
    def insurance_turn(self) -> tuple[int, str] | None:
        """``(box, player)`` to decide on insurance, or None."""
        if self.phase is RoundPhase.INSURANCE and self._insurance_due:
            return self._insurance_due[0]
        return None

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

    def _hand(self) -> PlayerHand:
        assert self._turn is not None
        box, index = self._turn
        return self.boxes[box].hands[index]

    def _log(self, event: ev.Event) -> None:
        self.events.append(event)

    def _error(self, rule: str, problem: str) -> IllegalPlayError:
        if self._explaining:  # legal_actions() itself is asking: the message is not shown
            return IllegalPlayError(rule, problem)
        self._explaining = True
        try:
            allowed = ", ".join(self.legal_actions()) or "no action"
        finally:
            self._explaining = False
        return IllegalPlayError(rule, problem, allowed)

    @contextmanager
    def _all_or_nothing(self) -> Iterator[None]:
        """Restore the round and its shoe if the block raises a CroupierError."""
        saved = self._save()
        try:
            yield
        except CroupierError:
            self._restore(saved)
            raise

    def _save(self) -> tuple[Any, ...]:
        """Everything an action can change, the shoe's state included (its attributes,
        lists copied: drawing pops from them)."""
        hands = [h for b in self.boxes.values() for h in b.hands]
        shoe = self.shoe
        slots = [name for cls in type(shoe).__mro__ for name in getattr(cls, "__slots__", ())]
        return (
            dict(self.bankrolls),
            self.bank,
            dict(self.boxes),
            [
                (
                    b,
                    dict(b.wagers),
                    list(b.hands),
                    dict(b.insurance),
                    set(b.even_money),
                    b.split_declined,
                )
                for b in self.boxes.values()
            ],
            [(h, {f.name: _copied(getattr(h, f.name)) for f in fields(h)}) for h in hands],
            list(self.dealer),
            len(self.events),
            self.phase,
            list(self._insurance_due),
            self._turn,
            self._burn,
            [(name, _copied(getattr(shoe, name))) for name in slots if hasattr(shoe, name)],
            {k: _copied(v) for k, v in vars(shoe).items()} if hasattr(shoe, "__dict__") else {},
        )

    def _restore(self, saved: tuple[Any, ...]) -> None:
        (bankrolls, self.bank, boxes, box_state, hand_state, dealer, events, self.phase,
         due, self._turn, self._burn, shoe_slots, shoe_dict) = saved  # fmt: skip
        self.bankrolls.clear()
        self.bankrolls.update(bankrolls)
        self.boxes.clear()
        self.boxes.update(boxes)
        for box, wagers, hands, insurance, even_money, declined in box_state:
            box.wagers, box.hands, box.insurance = wagers, hands, insurance
            box.even_money, box.split_declined = even_money, declined
        for hand, values in hand_state:
            for name, value in values.items():
                setattr(hand, name, value)
        self.dealer[:] = dealer
        del self.events[events:]
        self._insurance_due[:] = due
        for name, value in shoe_slots:
            setattr(self.shoe, name, value)
        if shoe_dict:
            vars(self.shoe).clear()
            vars(self.shoe).update(shoe_dict)

    # ---------------------------------------------------------------- wagers
    def _check_box(self, box: object) -> int:
        boxes = self.rules.boxes
        if isinstance(box, bool) or not isinstance(box, Integral):
            raise IllegalPlayError(
                "Decision 3.1-14",
                f"a box is a number, not {box!r} ({type(box).__name__})",
                f"boxes 1 to {boxes}",
            )
        if not 1 <= int(box) <= boxes:
            raise IllegalPlayError(
                "Decision 3.1-14", f"there is no box {box}", f"boxes 1 to {boxes}"
            )
        return int(box)

    def _check_player(self, player: object) -> str:
        if not isinstance(player, str) or player not in self.bankrolls:
            raise IllegalPlayError(
                "Decision 3.1-14",
                f"{player!r} is not a player at this table",
                ", ".join(self.bankrolls) or "no players",
            )
        return player

    def verify_place_wager(self, box: int, player: str, amount: int) -> None:
        """Raise unless ``player`` may wager ``amount`` on ``box`` now: a box of the layout,
        a player at the table, a whole number of chips (any integer but a bool).

        >>> from croupier.cards import Shoe
        >>> rnd = BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50})
        >>> rnd.verify_place_wager(0, "ann", 10)
        Traceback (most recent call last):
        ...
        croupier.blackjack.round.IllegalPlayError: Decision 3.1-14: there is no box 0; allowed: boxes 1 to 7
        >>> rnd.verify_place_wager(1, "ann", 10.0)
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: a wager must be a whole number, not 10.0 (float)
        """
        box = self._check_box(box)
        player = self._check_player(player)
        amount = whole_number("a wager", amount)
        if self.phase is not RoundPhase.WAGERS:
            raise IllegalPlayError(
                "Blackjack 4.2",
                "no wager may be made or changed once the first card has left the shoe",
                "no wager changes until the next round",
            )
        held = self.boxes[box].wagers.get(player, 0) if box in self.boxes else 0
        total = (
            sum(self.boxes[box].wagers.values()) - held + amount if box in self.boxes else amount
        )
        rules = self.rules
        if amount % rules.chip_unit or not rules.table_minimum <= amount:
            raise IllegalPlayError(
                "Decision 3.1-14",
                f"a wager of {amount} is below the table minimum or not in chips",
                f"{rules.table_minimum} to {rules.table_maximum} in units of {rules.chip_unit}",
            )
        if total > rules.table_maximum:
            raise IllegalPlayError(
                "Decision 3.1-14",
                f"box {box} would hold {total}, over the table maximum",
                f"at most {rules.table_maximum} a box",
            )
        if amount > self.bankrolls[player] + held:
            raise IllegalPlayError(
                "Decision 3.1-14", f"{player} has only {self.bankrolls[player] + held}"
            )

    def can_place_wager(self, box: int, player: str, amount: int) -> bool:
        """Whether :meth:`place_wager` is legal now."""
        return _can(self.verify_place_wager, box, player, amount)

    def place_wager(self, box: int, player: str, amount: int) -> None:
        """Place (or change) ``player``'s wager on ``box`` before the deal (4.2)."""
        self.verify_place_wager(box, player, amount)
        box, amount = int(box), int(amount)
        target = self.boxes.setdefault(box, Box(box, {}))
        self.bankrolls[player] += target.wagers.get(player, 0)
        target.wagers[player] = amount
        self.bankrolls[player] -= amount
        self._log(ev.WagerPlaced(box, player, amount))

    def verify_withdraw_wager(self, box: int, player: str) -> None:
        """Raise unless ``player`` may take the wager back from ``box`` (before the deal, 4.2)."""
        box = self._check_box(box)
        player = self._check_player(player)
        if self.phase is not RoundPhase.WAGERS:
            raise IllegalPlayError(
                "Blackjack 4.2",
                "no wager may be withdrawn once the first card has left the shoe",
                "no wager changes until the next round",
            )
        if box not in self.boxes or player not in self.boxes[box].wagers:
            raise IllegalPlayError("Blackjack 4.2", f"{player} has no wager on box {box}")

    def can_withdraw_wager(self, box: int, player: str) -> bool:
        """Whether :meth:`withdraw_wager` is legal now."""
        return _can(self.verify_withdraw_wager, box, player)

    def withdraw_wager(self, box: int, player: str) -> None:
        """Take a wager back before the deal (4.2).

        >>> from croupier.cards import Shoe
        >>> rnd = BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50})
        >>> rnd.place_wager(1, "ann", 20); rnd.withdraw_wager(1, "ann"); rnd.bankrolls
        {'ann': 50}
        """
        self.verify_withdraw_wager(box, player)
        box = int(box)
        target = self.boxes[box]
        self.bankrolls[player] += target.wagers.pop(player)
        if not target.wagers:
            del self.boxes[box]
        self._log(ev.WagerPlaced(box, player, 0))

    # ------------------------------------------------------------------ deal
    def _draw(self) -> Card:
        return self.shoe.draw()

    @_atomic
    def deal(self) -> None:
        """Deal: one card to each box left to right, one to the dealer, a second to each box
        (and, in a peek game, the dealer's hole card). Wagers are fixed from here (4.2).
        If the shoe runs out the round is left as it was (no card dealt) and the error says so.
        """
        if self.phase is not RoundPhase.WAGERS:
            raise IllegalPlayError("Blackjack 4.2", "the round is already dealt", "no action")
        if not self.boxes:
            raise IllegalPlayError("Decision 3.1-14", "no box has a wager", "place a wager first")
        self.phase = RoundPhase.PLAYING  # 4.2: wagers are fixed once a card leaves the shoe
        if self._burn:
            self._log(ev.CardBurned(self.shoe.burn()))
        order = sorted(self.boxes)
        for number in order:
            box = self.boxes[number]
            box.hands = [PlayerHand(cards=[], stakes=dict(box.wagers))]
        for number in order:
            self._give(number, 0)
        card = self._draw()
        self.dealer.append(card)
        self._log(ev.DealerCard(card))
        for number in order:
            self._give(number, 0)
        if self.rules.hole_card is HoleCard.PEEK:
            card = self._draw()
            self.dealer.append(card)
            self._log(ev.DealerCard(card, hidden=True))
        if self.dealer[0].rank is Rank.ACE and self.rules.insurance:
            self._insurance_due = [(n, p) for n in order for p in self.boxes[n].wagers]
            self.phase = RoundPhase.INSURANCE
            return
        self._after_insurance()

    def _give(self, box: int, hand: int) -> Card:
        card = self._draw()
        self.boxes[box].hands[hand].cards.append(card)
        self._log(ev.CardDealt(box, hand, card))
        return card

    # ------------------------------------------------------------- insurance
    def verify_insure(self, amount: int) -> None:
        """Raise unless the player to decide may insure for ``amount`` (0 declines)."""
        amount = whole_number("an insurance stake", amount)
        turn = self.insurance_turn
        if turn is None:
            raise IllegalPlayError("Decision 3.1-6", "no insurance decision is due", "no action")
        box, player = turn
        cap = self.boxes[box].wagers[player] // 2 // self.rules.chip_unit * self.rules.chip_unit
        if not 0 <= amount <= cap or amount % self.rules.chip_unit:
            raise IllegalPlayError(
                "Decision 3.1-6",
                f"insurance of {amount} on box {box}",
                f"0 to {cap} (half the wager)",
            )
        if amount > self.bankrolls[player]:
            raise IllegalPlayError("Decision 3.1-6", f"{player} has only {self.bankrolls[player]}")

    def can_insure(self, amount: int) -> bool:
        """Whether :meth:`insure` is legal now."""
        return _can(self.verify_insure, amount)

    @_atomic
    def insure(self, amount: int) -> None:
        """Insure the box against a dealer blackjack for up to half the wager (0 declines)."""
        self.verify_insure(amount)
        amount = int(amount)
        box, player = self._insurance_due.pop(0)
        if amount:
            self.boxes[box].insurance[player] = amount
            self.bankrolls[player] -= amount
        self._log(ev.InsuranceDecided(box, player, amount))
        if not self._insurance_due:
            self._after_insurance()

    def verify_even_money(self) -> None:
        """Raise unless the player to decide holds a blackjack and the table pays even money."""
        turn = self.insurance_turn
        if turn is None or not self.rules.even_money:
            raise IllegalPlayError("Decision 3.1-6", "even money is not offered now", "no action")
        if not self.boxes[turn[0]].hands[0].is_blackjack:
            raise IllegalPlayError("Decision 3.1-6", "even money is only for a blackjack", "insure")

    def can_even_money(self) -> bool:
        """Whether :meth:`even_money` is legal now."""
        return _can(self.verify_even_money)

    @_atomic
    def even_money(self) -> None:
        """Take even money: the blackjack is paid 1:1 now, whatever the dealer's second card."""
        self.verify_even_money()
        box, player = self._insurance_due.pop(0)
        self.boxes[box].even_money.add(player)
        self._log(ev.BoxAction(box, 0, "even money"))
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
        for number in sorted(self.boxes):
            if self._turn is not None and number < self._turn[0]:
                continue
            box = self.boxes[number]
            index = 0
            while index < len(box.hands):
                hand = box.hands[index]
                if len(hand.cards) == 1:  # a split hand gets its second card now (11.3)
                    self._give(number, index)
                    if hand.split_aces and not self.rules.hit_split_aces:
                        # 11.4(b), 12.1(c): one card to each split ace; only a resplit of
                        # a new pair of aces may follow, where the table allows it
                        self._turn = (number, index)
                        hand.done = not self._can_split_now()
                if not hand.done and (hand.total >= 21 or hand.is_blackjack):
                    hand.done = True  # 12.1(a): no draw on a blackjack or any 21
                if not hand.done:
                    self._turn = (number, index)
                    return
                index += 1
        self._turn = None
        self._finish()

    def legal_actions(self) -> tuple[str, ...]:
        """The decisions open to the hand to act (or the insurance choice).

        >>> from croupier.cards import Shoe, parse_cards
        >>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("6c 9d 5h Th")), {"ann": 50})
        >>> rnd.place_wager(1, "ann", 10); rnd.deal()
        >>> rnd.legal_actions()       # 6 + 5 = 11: must draw (12.1(d)), may double
        ('hit', 'double')
        """
        if self.insurance_turn is not None:
            return ("insure", "even money") if self.can_even_money() else ("insure",)
        if self.current is None:
            return ()
        return tuple(
            a
            for a in ("hit", "stand", "double", "split", "surrender")
            if _can(getattr(self, f"verify_{a}"))
        )

    def _require_turn(self, rule: str, what: str) -> tuple[Box, PlayerHand]:
        if self.current is None:
            raise IllegalPlayError(rule, f"cannot {what}: no hand is to act", "no action")
        box, _ = self.current
        return self.boxes[box], self._hand()

    def _stake_needed(self, box: Box, hand: PlayerHand) -> str | None:
        for player, stake in hand.stakes.items():
            if self.bankrolls[player] < stake:
                return player
        return None

    def verify_hit(self) -> None:
        """Raise unless the hand to act may draw (12.1)."""
        _, hand = self._require_turn("Blackjack 12.1", "hit")
        if hand.doubled:
            raise self._error("Blackjack 12.1(b)", "a doubled hand gets exactly one card")
        if hand.split_aces and not self.rules.hit_split_aces:
            raise self._error("Blackjack 12.1(c)", "a split ace gets one card only")
        if hand.total >= 21:
            raise self._error("Blackjack 12.1(a)", f"no draw on {hand.total}")

    def can_hit(self) -> bool:
        """Whether :meth:`hit` is legal now."""
        return _can(self.verify_hit)

    @_atomic
    def hit(self) -> None:
        """Draw a card."""
        self.verify_hit()
        box, hand = self._require_turn("Blackjack 12.1", "hit")
        self._decline_split(box, hand)
        hand.acted = True
        self._log(ev.BoxAction(box.number, self._turn[1], "hit"))  # type: ignore[index]
        self._give(box.number, self._turn[1])  # type: ignore[index]
        if hand.total >= 21:
            hand.done = True
        self._advance()

    def verify_stand(self) -> None:
        """Raise unless the hand to act may stand (12.1(d): not on 11 or less)."""
        _, hand = self._require_turn("Blackjack 12.1(d)", "stand")
        if hand.total <= 11:
            raise self._error(
                "Blackjack 12.1(d)",
                f"a total of {hand.total} must draw until it reaches 12 or more",
            )

    def can_stand(self) -> bool:
        """Whether :meth:`stand` is legal now."""
        return _can(self.verify_stand)

    @_atomic
    def stand(self) -> None:
        """Take no more cards."""
        self.verify_stand()
        box, hand = self._require_turn("Blackjack 12.1(d)", "stand")
        self._decline_split(box, hand)
        hand.acted = hand.done = True
        self._log(ev.BoxAction(box.number, self._turn[1], "stand"))  # type: ignore[index]
        self._advance()

    def verify_double(self) -> None:
        """Raise unless the hand to act may double down (one card only, 12.1(b))."""
        box, hand = self._require_turn("Blackjack 12.1(b)", "double")
        if len(hand.cards) != 2 or hand.acted:
            raise self._error("Decision 3.1-5", "only the first two cards of a hand may double")
        if hand.split_aces:
            raise self._error("Blackjack 12.1(c)", "split aces get one card and cannot double")
        if hand.from_split and not self.rules.double_after_split:
            raise self._error("Decision 3.1-5", "no double after a split at this table")
        if not self.rules.double_on.allows(hand.total, soft=hand.soft):
            raise self._error("Decision 3.1-5",
                              f"this table doubles on {self.rules.double_on.value} only")  # fmt: skip
        short = self._stake_needed(box, hand)
        if short is not None:
            raise self._error("Decision 3.1-5", f"{short} cannot cover the double")

    def can_double(self) -> bool:
        """Whether :meth:`double` is legal now."""
        return _can(self.verify_double)

    @_atomic
    def double(self) -> None:
        """Double the stake and take exactly one card (12.1(b)), even on 11 or less."""
        self.verify_double()
        box, hand = self._require_turn("Blackjack 12.1(b)", "double")
        self._decline_split(box, hand)
        for player, stake in list(hand.stakes.items()):
            self.bankrolls[player] -= stake
            hand.stakes[player] = 2 * stake
        hand.doubled = hand.acted = hand.done = True
        index = self._turn[1]  # type: ignore[index]
        self._log(ev.BoxAction(box.number, index, "double"))
        self._give(box.number, index)
        self._advance()

    def verify_split(self) -> None:
        """Raise unless the hand to act may be split (11.1-11.5)."""
        box, hand = self._require_turn("Blackjack 11.4(a)", "split")
        rules = self.rules
        if len(hand.cards) != 2 or hand.acted:
            raise self._error("Blackjack 11.4(a)", "only a two-card hand may split")
        if not is_pair(hand.cards[0], hand.cards[1], by_rank=rules.pairs_by.value == "rank"):
            raise self._error("Decision 3.1-8", "the two cards are not a pair")
        if box.split_declined:
            raise self._error("Blackjack 11.5", "a split was declined earlier in this hand")
        if len(box.hands) >= rules.max_hands:
            raise self._error("Blackjack 11.4(a)",
                              f"no more than {rules.max_hands} hands a box")  # fmt: skip
        if hand.split_aces and not rules.resplit_aces:
            raise self._error("Blackjack 11.4(b)", "aces may be split only once")
        short = self._stake_needed(box, hand)
        if short is not None:
            raise self._error("Blackjack 11.1", f"{short} cannot cover the split")

    def can_split(self) -> bool:
        """Whether :meth:`split` is legal now."""
        return _can(self.verify_split)

    @_atomic
    def split(self) -> None:
        """Split the pair into two hands with an equal stake each; each gets a second card
        in turn (11.1-11.3); split aces get one card each (11.4(b))."""
        self.verify_split()
        box, hand = self._require_turn("Blackjack 11.4(a)", "split")
        index = self._turn[1]  # type: ignore[index]
        aces = hand.cards[0].rank is Rank.ACE
        second = hand.cards.pop()
        stakes = dict(hand.stakes)
        for player, stake in stakes.items():
            self.bankrolls[player] -= stake
        hand.from_split = True
        hand.split_aces = aces
        box.hands.insert(index + 1, PlayerHand(cards=[second], stakes=stakes, from_split=True,
                                               split_aces=aces))  # fmt: skip
        self._log(ev.BoxAction(box.number, index, "split"))
        self._advance()

    def verify_surrender(self) -> None:
        """Raise unless the hand to act may surrender (only where the table offers it)."""
        _, hand = self._require_turn("Decision 3.1-13", "surrender")
        if self.rules.surrender is Surrender.NONE:
            raise self._error("Decision 3.1-13", "surrender is not offered")
        if len(hand.cards) != 2 or hand.acted or hand.from_split:
            raise self._error("Decision 3.1-13", "only the first two cards may surrender")

    def can_surrender(self) -> bool:
        """Whether :meth:`surrender` is legal now."""
        return _can(self.verify_surrender)

    @_atomic
    def surrender(self) -> None:
        """Give up the hand for half the stake back."""
        self.verify_surrender()
        box, hand = self._require_turn("Decision 3.1-13", "surrender")
        hand.surrendered = hand.acted = hand.done = True
        self._log(ev.BoxAction(box.number, self._turn[1], "surrender"))  # type: ignore[index]
        self._advance()

    def _can_split_now(self) -> bool:
        return _can(self.verify_split)

    def _decline_split(self, box: Box, hand: PlayerHand) -> None:
        """11.5 (Decision 3.1-10): any other action on a splittable pair declines the split."""
        if len(hand.cards) == 2 and not hand.acted and _can(self.verify_split):
            box.split_declined = True

    # ------------------------------------------------------------ the dealer
    def _finish(self) -> None:
        live = [
            h for b in self.boxes.values() for h in b.hands if not h.busted and not h.surrendered
        ]
        insured = any(b.insurance for b in self.boxes.values())
        # a late surrender stands only if the dealer has no blackjack (Decision 3.1-13)
        surrendered = any(h.surrendered for b in self.boxes.values() for h in b.hands)
        if self.rules.hole_card is HoleCard.NO_HOLE_CARD and (live or insured or surrendered):
            card = self._draw()
            self.dealer.append(card)
            self._log(ev.DealerCard(card))
        dealer_bj = len(self.dealer) == 2 and hand_total(self.dealer)[0] == 21
        if not dealer_bj and any(not h.is_blackjack for h in live):
            self._dealer_draws()
        self._settle(dealer_bj)

    def _dealer_draws(self) -> None:
        """The dealer draws to 16 and stands on 17, or hits soft 17 (Blackjack 13, Decision 3.1-1)."""
        while True:
            total, soft = hand_total(self.dealer)
            if total > 17 or (total == 17 and not (soft and self.rules.dealer_hits_soft_17)):
                return
            card = self._draw()
            self.dealer.append(card)
            self._log(ev.DealerCard(card))

    # ------------------------------------------------------------ settlement
    def _pay(self, player: str, amount: int) -> None:
        self.bankrolls[player] += amount
        self.bank -= amount

    def _settle(self, dealer_bj: bool) -> None:
        rules = self.rules
        unit = rules.chip_unit
        dealer_total = hand_total(self.dealer)[0] if self.dealer else 0
        for number in sorted(self.boxes):
            box = self.boxes[number]
            for player, stake in box.insurance.items():
                net = 2 * stake if dealer_bj else -stake
                self.bank -= net
                self.bankrolls[player] += stake + net
                self._log(ev.InsuranceSettled(number, player, stake, net))
            for player in box.wagers:
                # chips this player has on the layout go to the bank first; winnings come back
                self.bank += sum(h.stakes[player] for h in box.hands)
                for index, hand in enumerate(box.hands):
                    stake = hand.stakes[player]
                    if player in box.even_money:
                        self._pay(player, 2 * stake)
                        self._log(ev.HandSettled(number, index, player, "even money", stake,
                                                 stake, "Decision 3.1-6"))  # fmt: skip
                        continue
                    outcome, net, rule = self._outcome(hand, stake, dealer_bj, dealer_total, unit)
                    if dealer_bj and outcome == "dealer blackjack" and not hand.surrendered:
                        continue  # settled below, across the box (11.7)
                    self._pay(player, stake + net)
                    self._log(ev.HandSettled(number, index, player, outcome, stake, net, rule))
                if dealer_bj:
                    self._dealer_blackjack(box, player)
        self.phase = RoundPhase.SETTLED
        self._turn = None
        self._log(ev.RoundSettled(tuple(sorted(self.bankrolls.items())), self.bank))

    def _dealer_blackjack(self, box: Box, player: str) -> None:
        """11.7 (Decision 3.1-4): a busted hand has already lost its stake (4.1(f)), whatever
        the dealer makes; a no-hole-card dealer blackjack then takes the amount of the
        player's original wager **once**, from the first of the box's hands still standing,
        plus split stakes and doubled stakes only where the table's settings say all; the
        rest is returned. If every hand of the box busted it takes nothing more. So which
        split hand busted never matters (split 8-8 for 10, one busts, one stands: 20 lost).
        """
        rules = self.rules
        splits_all = rules.dealer_blackjack_takes_splits is DealerBlackjackTakes.ALL
        doubles_all = rules.dealer_blackjack_takes_doubles is DealerBlackjackTakes.ALL
        original_due = True
        for index, hand in enumerate(box.hands):
            if hand.busted or hand.surrendered or hand.is_blackjack:
                continue
            stake = hand.stakes[player]
            base = stake // 2 if hand.doubled else stake  # the undoubled wager
            take = 0
            if original_due or splits_all:
                take += base
                original_due = False
            if hand.doubled and doubles_all:
                take += stake - base
            self._pay(player, stake - take)
            if len(box.hands) > 1:
                rule = "Decision 3.1-4" if splits_all else "Blackjack 11.7"
            elif take == stake:
                rule = "Blackjack 4.1(d)" if len(hand.cards) > 2 else "Blackjack 4.1(g)"
            else:
                rule = "Decision 3.1-4"
            self._log(ev.HandSettled(box.number, index, player, "dealer blackjack", stake,
                                     -take, rule))  # fmt: skip

    def _outcome(self, hand: PlayerHand, stake: int, dealer_bj: bool, dealer_total: int,
                 unit: int) -> tuple[str, int, str]:  # fmt: skip
        if hand.surrendered:
            if dealer_bj:  # late surrender: void against a dealer blackjack
                return "dealer blackjack", -stake, "Decision 3.1-13"
            back = stake // 2 // unit * unit
            return "surrender", back - stake, "Decision 3.1-13"
        if hand.busted:
            return "bust", -stake, "Blackjack 4.1(f)"
        if dealer_bj:
            if hand.is_blackjack:
                return "push", 0, "Blackjack 4.1(e)"
            return "dealer blackjack", -stake, "Blackjack 4.1(d)"
        if hand.is_blackjack:
            win = int(stake * self.rules.blackjack_pays) // unit * unit
            return "blackjack", win, "Blackjack 4.1(c)"
        if dealer_total > 21:
            return "win", stake, "Blackjack 4.1(a)"
        if hand.total > dealer_total:
            return "win", stake, "Blackjack 4.1(b)"
        if hand.total == dealer_total:
            return "push", 0, "Blackjack 4.1(e)"
        return "lose", -stake, "Blackjack 4.1(g)"

    # ----------------------------------------------------------------- replay
    def snapshot(self) -> dict[str, Any]:
        """Everything observable about the round, for comparisons (the shoe aside: see
        ``len(rnd.shoe)``)."""
        return {
            "phase": self.phase.value,
            "bankrolls": dict(self.bankrolls),
            "bank": self.bank,
            "dealer": tuple(self.dealer),
            "boxes": {
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
            },
            "turn": self.current,
            "insurance_turn": self.insurance_turn,
            "insurance_due": tuple(self._insurance_due),
            "events": tuple(self.events),
        }

    @classmethod
    def replay(cls, rules: BlackjackRules, bankrolls: Mapping[str, int],
               events: Sequence[ev.Event]) -> BlackjackRound:  # fmt: skip
        """Rebuild a round from its log: the cards in the order they left the shoe, and
        the decisions."""
        order: list[Card] = []
        for event in events:
            if isinstance(event, ev.CardBurned | ev.CardDealt | ev.DealerCard):
                order.append(event.card)
        burn = any(isinstance(e, ev.CardBurned) for e in events)
        rnd = cls(rules, Shoe(rules.decks, cards=order), bankrolls, burn=burn)
        for event in events:
            match event:
                case ev.WagerPlaced(box=box, player=player, amount=0):
                    rnd.withdraw_wager(box, player)
                case ev.WagerPlaced(box=box, player=player, amount=amount):
                    rnd.place_wager(box, player, amount)
                case ev.CardBurned() if rnd.phase is RoundPhase.WAGERS:
                    rnd.deal()
                case ev.CardDealt() if rnd.phase is RoundPhase.WAGERS:
                    rnd.deal()
                case ev.InsuranceDecided(amount=amount):
                    rnd.insure(amount)
                case ev.BoxAction(action="even money"):
                    rnd.even_money()
                case ev.BoxAction(action=action):
                    getattr(rnd, action)()
                case _:
                    pass
        return rnd


def _can(check: Any, *args: Any) -> bool:
    try:
        check(*args)
    except CroupierError:
        return False
    return True


def _copied(value: object) -> object:
    """A copy of a mutable container (the elements are immutable cards and numbers)."""
    if isinstance(value, list | dict | set):
        return value.copy()
    return value


_DOCTEST = (NZ,)
