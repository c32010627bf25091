"""The players' decisions once the cards are out (Blackjack 11, 12; Decisions 3.1-5,
3.1-6, 3.1-8, 3.1-10, 3.1-13): :class:`HandPlays`, a part of
:class:`~croupier.blackjack.round.BlackjackRound`.

The part owns the insurance queue against a dealer's ace and the order the hands act in
(:attr:`HandPlays.turn`, the hand to act); it checks each decision on that hand by a pure
function of the state (``*_refused``: None when legal, else the rule it breaks, never
raising; :meth:`HandPlays.open_plays` works out the same rules as plain predicates, and
keeps them while the hand is unchanged), makes it on the boxes and bankrolls handed to it,
drawing from the shoe, and returns the events it made. The round logs them and, once no
hand is left to act (``turn`` None), has the dealer play and settles.

>>> from croupier.blackjack import NZ, BlackjackRound
>>> from croupier.cards import Shoe, parse_cards
>>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("8c 9d 8h 3s Th")), {"ann": 50})
>>> rnd.place_wager(1, "ann", 10); rnd.deal()
WagerPlaced(box=1, player='ann', amount=10)
CardDealt(box=1, hand=0, card=Card('8c'))
>>> rnd.can_split(), rnd.can_surrender()
(True, False)
>>> rnd.split(); [len(h.cards) for h in rnd.boxes[1].hands]   # the first hand gets its second card
BoxAction(box=1, hand=0, action=<Play.SPLIT: 'split'>)
[2, 1]
"""

from __future__ import annotations

from typing import Final

from croupier.blackjack import events as ev
from croupier.blackjack.hands import Box, Play, PlayerHand, Turn, turn_of
from croupier.blackjack.rules import BlackjackRules, PairsBy, Surrender, whole_number
from croupier.blackjack.values import hand_total, is_pair
from croupier.cards.card import Rank
from croupier.cards.deck import Shoe
from croupier.errors import IllegalActionError

__all__ = ["HandPlays", "Refusal"]

# Enum members as module constants: reading one off its class goes through the enum
# metaclass's ``__getattr__`` hook (Python 3.11), several times slower than a global.
_HIT, _STAND, _DOUBLE, _SPLIT = Play.HIT, Play.STAND, Play.DOUBLE, Play.SPLIT
_SURRENDER, _EVEN_MONEY = Play.SURRENDER, Play.EVEN_MONEY
_RANK: Final = PairsBy.RANK
_NO_SURRENDER: Final = Surrender.NONE


Refusal = tuple[str, str, str | None]
"""Why a decision is refused: ``(rule, problem, allowed)``; ``allowed`` None means the
legal actions are worked out when the error is raised."""


# The rules of each decision on the hand to act, as pure functions of the state: None when
# the decision is legal, else the first rule it breaks (the order is the order of the
# checks, so the message names the same rule whoever asks).
def _hit_refused(rules: BlackjackRules, hand: PlayerHand, total: int) -> Refusal | None:
    if hand.doubled:
        return ("Blackjack 12.1(b)", "a doubled hand gets exactly one card", None)
    if hand.split_aces and not rules.hit_split_aces:
        return ("Blackjack 12.1(c)", "a split ace gets one card only", None)
    if total >= 21:
        return ("Blackjack 12.1(a)", f"no draw on {total}", None)
    return None


def _stand_refused(total: int) -> Refusal | None:
    if total <= 11:
        return (
            "Blackjack 12.1(d)",
            f"a total of {total} must draw until it reaches 12 or more",
            None,
        )
    return None


def _short(bankrolls: dict[str, int], hand: PlayerHand) -> str | None:
    """The first player on the hand who cannot match their stake (a split, a double)."""
    for player, stake in hand.stakes.items():
        if bankrolls[player] < stake:
            return player
    return None


def _double_refused(
    rules: BlackjackRules,
    bankrolls: dict[str, int],
    hand: PlayerHand,
    total: int,
    soft: bool,
) -> Refusal | None:
    if len(hand.cards) != 2 or hand.acted:
        return ("Decision 3.1-5", "only the first two cards of a hand may double", None)
    if hand.split_aces:
        return ("Blackjack 12.1(c)", "split aces get one card and cannot double", None)
    if hand.from_split and not rules.double_after_split:
        return ("Decision 3.1-5", "no double after a split at this table", None)
    if not rules.double_on.allows(total, soft=soft):
        return ("Decision 3.1-5", f"this table doubles on {rules.double_on.value} only", None)
    short = _short(bankrolls, hand)
    if short is not None:
        return ("Decision 3.1-5", f"{short} cannot cover the double", None)
    return None


def _split_refused(
    rules: BlackjackRules, bankrolls: dict[str, int], box: Box, hand: PlayerHand
) -> Refusal | None:
    cards = hand.cards
    if len(cards) != 2 or hand.acted:
        return ("Blackjack 11.4(a)", "only a two-card hand may split", None)
    if not is_pair(cards[0], cards[1], by_rank=rules.pairs_by is _RANK):
        return ("Decision 3.1-8", "the two cards are not a pair", None)
    if box.split_declined:
        return ("Blackjack 11.5", "a split was declined earlier in this hand", None)
    if len(box.hands) >= rules.max_hands:
        return ("Blackjack 11.4(a)", f"no more than {rules.max_hands} hands a box", None)
    if hand.split_aces and not rules.resplit_aces:
        return ("Blackjack 11.4(b)", "aces may be split only once", None)
    short = _short(bankrolls, hand)
    if short is not None:
        return ("Blackjack 11.1", f"{short} cannot cover the split", None)
    return None


def _surrender_refused(rules: BlackjackRules, hand: PlayerHand) -> Refusal | None:
    if rules.surrender is _NO_SURRENDER:
        return ("Decision 3.1-13", "surrender is not offered", None)
    if len(hand.cards) != 2 or hand.acted or hand.from_split:
        return ("Decision 3.1-13", "only the first two cards may surrender", None)
    return None


_FRESH: list[tuple[BlackjackRules | None, dict[int, tuple[bool, bool, bool, bool, bool]]]] = [
    (None, {})
]
"""The open plays of a box's first two cards (by their ranks), its stakes covered, for the
rule set last seen."""


def _nobody(rule: str, verb: str) -> Refusal:
    return (rule, f"cannot {verb}: no hand is to act", "no action")


class HandPlays:
    """The decisions after the deal on ``boxes`` (the round's, shared), staked from
    ``bankrolls`` and drawing from ``shoe``: insurance against the dealer's ace, then each
    box's hands in turn. Each decision returns the events it made; :attr:`turn` None after
    a decision means no hand is left to act.

    >>> from croupier.blackjack import NZ
    >>> plays = HandPlays(NZ, {"ann": 50}, {}, Shoe(6, seed=1))
    >>> plays.turn, plays.hit_refusal()
    (None, ('Blackjack 12.1', 'cannot hit: no hand is to act', 'no action'))
    """

    __slots__ = ("_actor", "_due", "_open", "bankrolls", "boxes", "rules", "shoe", "turn")

    def __init__(
        self,
        rules: BlackjackRules,
        bankrolls: dict[str, int],
        boxes: dict[int, Box],
        shoe: Shoe,
        *,
        turn: tuple[int, int] | None = None,
        due: tuple[tuple[int, str], ...] = (),
    ) -> None:
        self.rules = rules
        """The rule set."""
        self.bankrolls = bankrolls
        """Each player's chips off the table (a double or a split is staked from them)."""
        self.boxes = boxes
        """The boxes with wagers, by number."""
        self.shoe = shoe
        """The shoe the cards come from."""
        self.turn = turn
        """``(box, hand)`` of the hand to act, or None (insurance, or no hand left); the
        part alone moves it."""
        self._due = list(due)
        self._actor: tuple[tuple[int, int], Turn] | None = None
        self._open: tuple[object, ...] = (None,)
        """The open plays last worked out, with what they were worked out for."""

    # ----------------------------------------------------------------- state
    @property
    def actor(self) -> Turn | None:
        """The hand to act and the player who decides it, or None."""
        now = self.turn
        if now is None:
            return None
        kept = self._actor
        if kept is not None and kept[0] is now:  # the same turn (its owner is fixed)
            return kept[1]
        actor = turn_of(now[0], now[1], next(iter(self.boxes[now[0]].wagers)))  # its owner
        self._actor = (now, actor)
        return actor

    @property
    def insurance_due(self) -> tuple[tuple[int, str], ...]:
        """The ``(box, player)`` insurance decisions still due, in order."""
        return tuple(self._due)

    @property
    def insurance_turn(self) -> tuple[int, str] | None:
        """``(box, player)`` to decide on insurance next, or None."""
        due = self._due
        return due[0] if due else None

    def state(self) -> tuple[tuple[int, int] | None, tuple[tuple[int, str], ...]]:
        """What a decision can change here (for an undo record): the turn and the queue."""
        return self.turn, tuple(self._due)

    def restore(self, state: tuple[tuple[int, int] | None, tuple[tuple[int, str], ...]]) -> None:
        """Put the turn and the insurance queue back as :meth:`state` gave them."""
        self.turn = state[0]
        self._due[:] = state[1]

    def stop(self) -> None:
        """No hand is to act any more (the dealer's turn, or a dealer blackjack)."""
        self.turn = None

    def acting(self) -> tuple[Box, PlayerHand] | None:
        """The box and hand to act, or None."""
        turn = self.turn
        if turn is None:
            return None
        box = self.boxes[turn[0]]
        return box, box.hands[turn[1]]

    def open_plays(self) -> tuple[bool, bool, bool, bool, bool] | None:
        """Whether the hand to act may hit, stand, double, split and surrender, worked out
        from the state without raising (None: no hand is to act).

        >>> from croupier.blackjack import NZ, BlackjackRound
        >>> from croupier.cards import Shoe, parse_cards
        >>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("8c 9d 8h 3s")), {"ann": 50})
        >>> rnd.place_wager(1, "ann", 10); rnd.deal(); rnd.legal_actions().names   # 8 8 against a 9
        WagerPlaced(box=1, player='ann', amount=10)
        CardDealt(box=1, hand=0, card=Card('8c'))
        ('hit', 'stand', 'double', 'split')
        """
        turn = self.turn
        if turn is None:
            return None
        box = self.boxes[turn[0]]
        hands = box.hands
        hand = hands[turn[1]]
        cards = hand.cards
        last = cards[-1]
        count = len(cards)
        acted = hand.acted
        kept = self._open
        # Within one turn the plays change only with the hand's cards, a decision taken
        # or a split (the hand's last card, its count, ``acted`` and the box's hands); the
        # bankrolls that cover a double or a split change only by this hand's decisions.
        if (
            kept[0] is turn
            and kept[1] is last
            and kept[2] == count
            and kept[4] is acted
            and kept[3] == len(hands)
        ):
            return kept[5]  # type: ignore[return-value]
        covered = True  # every player on the hand can match their stake (_short)
        if count == 2 and not acted:
            bankrolls = self.bankrolls
            for player, stake in hand.stakes.items():
                if bankrolls[player] < stake:
                    covered = False
                    break
            if covered and len(hands) == 1 and not hand.from_split and not box.split_declined:
                # a box's first two cards, its stakes covered: the plays depend on the rules
                # and the two cards' ranks alone (kept for the rules in play)
                fresh = _FRESH[0]
                if fresh[0] is not self.rules:
                    fresh = _FRESH[0] = (self.rules, {})
                pair = (cards[0].index >> 2) * 13 + (last.index >> 2)  # index: 4 * rank + suit
                plays = fresh[1].get(pair)
                if plays is None:
                    plays = fresh[1][pair] = self._worked_out(box, hand, count, acted, True)
                self._open = (turn, last, count, 1, acted, plays)
                return plays
        plays = self._worked_out(box, hand, count, acted, covered)
        self._open = (turn, last, count, len(hands), acted, plays)
        return plays

    def _worked_out(
        self, box: Box, hand: PlayerHand, count: int, acted: bool, covered: bool
    ) -> tuple[bool, bool, bool, bool, bool]:
        """:meth:`open_plays` worked out for ``hand`` on ``box`` (``covered``: every player
        on it can match their stake)."""
        # Each play's predicate: the rules of its ``_*_refused`` function above, all of them
        # (in any order: legal is when none refuses), without building a refusal.
        rules = self.rules
        cards = hand.cards
        total, soft = hand_total(cards)
        split_aces = hand.split_aces
        hit = total < 21 and not hand.doubled and (not split_aces or rules.hit_split_aces)
        if count != 2 or acted:  # past the first two cards: hit or stand only
            return (hit, total > 11, False, False, False)
        from_split = hand.from_split
        return (
            hit,
            total > 11,
            covered
            and not split_aces
            and (not from_split or rules.double_after_split)
            and rules.double_on.allows(total, soft=soft),
            covered
            and not box.split_declined
            and len(box.hands) < rules.max_hands
            and (not split_aces or rules.resplit_aces)
            and is_pair(cards[0], cards[1], by_rank=rules.pairs_by is _RANK),
            not from_split and rules.surrender is not _NO_SURRENDER,
        )

    # ------------------------------------------------------------ refusals
    def hit_refusal(self) -> Refusal | None:
        """Why the hand to act may not draw (12.1), or None."""
        plays = self.open_plays()
        if plays is not None and plays[0]:
            return None
        acting = self.acting()
        if acting is None:
            return _nobody("Blackjack 12.1", "hit")
        hand = acting[1]
        return _hit_refused(self.rules, hand, hand_total(hand.cards)[0])

    def stand_refusal(self) -> Refusal | None:
        """Why the hand to act may not stand (12.1(d): not on 11 or less), or None."""
        plays = self.open_plays()
        if plays is not None and plays[1]:
            return None
        acting = self.acting()
        if acting is None:
            return _nobody("Blackjack 12.1(d)", "stand")
        return _stand_refused(hand_total(acting[1].cards)[0])

    def double_refusal(self) -> Refusal | None:
        """Why the hand to act may not double down, or None."""
        plays = self.open_plays()
        if plays is not None and plays[2]:
            return None
        acting = self.acting()
        if acting is None:
            return _nobody("Blackjack 12.1(b)", "double")
        hand = acting[1]
        total, soft = hand_total(hand.cards)
        return _double_refused(self.rules, self.bankrolls, hand, total, soft)

    def split_refusal(self) -> Refusal | None:
        """Why the hand to act may not split (11.1-11.5), or None."""
        plays = self.open_plays()
        if plays is not None and plays[3]:
            return None
        acting = self.acting()
        if acting is None:
            return _nobody("Blackjack 11.4(a)", "split")
        return _split_refused(self.rules, self.bankrolls, *acting)

    def surrender_refusal(self) -> Refusal | None:
        """Why the hand to act may not surrender, or None."""
        plays = self.open_plays()
        if plays is not None and plays[4]:
            return None
        acting = self.acting()
        if acting is None:
            return _nobody("Decision 3.1-13", "surrender")
        return _surrender_refused(self.rules, acting[1])

    # ------------------------------------------------------------ decisions
    def _decided(self, play: Play, *, done: bool) -> tuple[Box, PlayerHand, int, ev.Event]:
        """A decision on the hand to act; 11.5 (Decision 3.1-10): any other action on a
        splittable pair declines the split."""
        number, index = self.turn  # type: ignore[misc]  # a hand is to act
        box = self.boxes[number]
        hand = box.hands[index]
        if not hand.acted and len(hand.cards) == 2 and play is not _SPLIT:
            plays = self.open_plays()
            if plays is not None and plays[3]:  # the pair could split: declined
                box.split_declined = True
        hand.acted = True
        if done:
            hand.done = True
        return box, hand, index, ev.box_action(number, index, play)

    def _give(self, box: Box, index: int, hand: PlayerHand) -> ev.Event:
        card = self.shoe.draw()
        hand.cards.append(card)
        return ev.card_dealt(box.number, index, card)

    def hit(self) -> list[ev.Event]:
        """Draw a card to the hand to act (once :meth:`hit_refusal` is None)."""
        number, index = self.turn  # type: ignore[misc]  # a hand is to act
        box = self.boxes[number]
        hand = box.hands[index]
        cards = hand.cards
        if not hand.acted and len(cards) == 2:  # _decided, inline
            plays = self.open_plays()
            if plays is not None and plays[3]:  # the pair could split: declined (11.5)
                box.split_declined = True
        hand.acted = True
        card = self.shoe.draw()
        cards.append(card)
        made = [ev.box_action(number, index, _HIT), ev.card_dealt(number, index, card)]
        if hand_total(cards)[0] < 21:
            return made  # the same hand acts again
        hand.done = True  # 12.1(a): no draw on 21 or more
        self._advance(made)
        return made

    def stand(self) -> list[ev.Event]:
        """The hand to act takes no more cards."""
        number, index = self.turn  # type: ignore[misc]  # a hand is to act
        box = self.boxes[number]
        hand = box.hands[index]
        if not hand.acted and len(hand.cards) == 2:  # _decided, inline
            plays = self.open_plays()
            if plays is not None and plays[3]:  # the pair could split: declined (11.5)
                box.split_declined = True
        hand.acted = True
        hand.done = True
        made: list[ev.Event] = [ev.box_action(number, index, _STAND)]
        self._advance(made)
        return made

    def double(self) -> list[ev.Event]:
        """Double the stake of the hand to act and give it exactly one card (12.1(b))."""
        box, hand, index, decided = self._decided(_DOUBLE, done=True)
        bankrolls = self.bankrolls
        for player, stake in list(hand.stakes.items()):
            bankrolls[player] -= stake
            hand.stakes[player] = 2 * stake
        hand.doubled = True
        made = [decided, self._give(box, index, hand)]
        self._advance(made)
        return made

    def split(self) -> list[ev.Event]:
        """Split the pair of the hand to act into two hands with an equal stake each; each
        gets a second card in turn (11.1-11.3); split aces get one card each (11.4(b))."""
        assert self.turn is not None
        number, index = self.turn
        box = self.boxes[number]
        hand = box.hands[index]
        aces = hand.cards[0].rank is Rank.ACE
        second = hand.cards.pop()
        stakes = dict(hand.stakes)
        for player, stake in stakes.items():
            self.bankrolls[player] -= stake
        hand.from_split = True
        hand.split_aces = aces
        twin = PlayerHand(cards=[second], stakes=stakes, from_split=True, split_aces=aces)
        box.hands.insert(index + 1, twin)
        made: list[ev.Event] = [ev.box_action(box.number, index, _SPLIT)]
        self._advance(made)
        return made

    def surrender(self) -> list[ev.Event]:
        """Give up the hand to act for half the stake back."""
        _, hand, _, decided = self._decided(_SURRENDER, done=True)
        hand.surrendered = True
        made = [decided]
        self._advance(made)
        return made

    # ------------------------------------------------------------ turns
    def start(self) -> list[ev.Event]:
        """Find the first hand to act once the deal and insurance are over (no events: a
        dealt hand has its two cards)."""
        self.turn = None
        made: list[ev.Event] = []
        self._advance(made)
        return made

    def _advance(self, made: list[ev.Event]) -> None:
        """Move to the next hand needing a decision, dealing split hands' second cards
        (their events go to ``made``); None when no hand is left."""
        boxes = self.boxes
        for number in sorted(boxes) if len(boxes) > 1 else boxes:
            turn = self.turn
            if turn is not None and number < turn[0]:
                continue
            box = boxes[number]
            for index, hand in enumerate(box.hands):  # (no hand is added on the way)
                cards = hand.cards
                if len(cards) == 1:  # a split hand gets its second card now (11.3)
                    made.append(self._give(box, index, hand))
                    if hand.split_aces and not self.rules.hit_split_aces:
                        # 11.4(b), 12.1(c): one card to each split ace; only a resplit of
                        # a new pair of aces may follow, where the table allows it
                        self.turn = (number, index)
                        hand.done = self.split_refusal() is not None
                if hand.done:
                    continue
                if hand_total(cards)[0] >= 21:
                    hand.done = True  # 12.1(a): no draw on a blackjack or any 21
                    continue
                turn = self.turn
                if turn is None or turn[0] != number or turn[1] != index:
                    self.turn = (number, index)
                return
        self.turn = None

    # ------------------------------------------------------------ insurance
    def offer_insurance(self, due: list[tuple[int, str]]) -> None:
        """Queue the insurance decisions, ``(box, player)`` in order."""
        self.turn = None
        self._due[:] = due

    def verify_insure(self, amount: object) -> None:
        """Raise unless the player due may insure for ``amount`` (0 declines)."""
        chips = whole_number("an insurance stake", amount)
        turn = self.insurance_turn
        if turn is None:
            raise IllegalActionError("Decision 3.1-6", "no insurance decision is due", "no action")
        box, player = turn
        unit = self.rules.chip_unit
        cap = self.boxes[box].wagers[player] // 2 // unit * unit
        if not 0 <= chips <= cap or chips % unit:
            raise IllegalActionError(
                "Decision 3.1-6",
                f"insurance of {chips} on box {box}",
                f"0 to {cap} (half the wager)",
            )
        if chips > self.bankrolls[player]:
            raise IllegalActionError(
                "Decision 3.1-6", f"{player} has only {self.bankrolls[player]}"
            )

    def insurance_cap(self) -> tuple[int, int] | None:
        """The smallest and largest stake the player due may insure for, or None (also
        when no stake can be made)."""
        turn = self.insurance_turn
        if turn is None:
            return None
        unit = self.rules.chip_unit
        wager = self.boxes[turn[0]].wagers[turn[1]]
        cap = min(wager // 2, self.bankrolls[turn[1]]) // unit * unit
        return (unit, cap) if cap >= unit else None

    def insure(self, amount: int) -> list[ev.Event]:
        """The player due insures for ``amount`` (0 declines), once verified."""
        amount = int(amount)
        box, player = self._due.pop(0)
        if amount:
            self.boxes[box].insurance[player] = amount
            self.bankrolls[player] -= amount
        return [ev.InsuranceDecided(box, player, amount)]

    def even_money_refusal(self) -> tuple[str, str, str] | None:
        """Why the player due may not take even money, or None."""
        turn = self.insurance_turn
        if turn is None or not self.rules.even_money:
            return ("Decision 3.1-6", "even money is not offered now", "no action")
        if not self.boxes[turn[0]].hands[0].is_blackjack:
            return ("Decision 3.1-6", "even money is only for a blackjack", "insure")
        return None

    def even_money(self) -> list[ev.Event]:
        """The player due takes even money on the blackjack, once verified."""
        box, player = self._due.pop(0)
        self.boxes[box].even_money.add(player)
        return [ev.box_action(box, 0, _EVEN_MONEY)]
