"""The decisions on a box's hand (Blackjack 11, 12; Decisions 3.1-5, 3.1-8, 3.1-10,
3.1-13): the ``hit``, ``stand``, ``double``, ``split`` and ``surrender`` triads of
:class:`~croupier.blackjack.round.BlackjackRound`.

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

from typing import TYPE_CHECKING

from croupier.blackjack import events as ev
from croupier.blackjack._state import atomic
from croupier.blackjack.hands import Box, Play, PlayerHand, RoundPhase
from croupier.blackjack.rules import BlackjackRules, PairsBy, Surrender
from croupier.blackjack.values import hand_total, is_pair
from croupier.cards.card import Card, Rank
from croupier.errors import IllegalActionError

__all__ = ["HandPlays"]


_Refusal = tuple[str, str, str | None]
"""Why a decision is refused: ``(rule, problem, allowed)``; ``allowed`` None means the
legal actions are worked out when the error is raised."""


# The rules of each decision on the hand to act, as pure functions of the state: None when
# the decision is legal, else the first rule it breaks (the order is the order of the
# checks, so the message names the same rule whoever asks).
def _hit_refused(rules: BlackjackRules, hand: PlayerHand, total: int) -> _Refusal | None:
    if hand.doubled:
        return ("Blackjack 12.1(b)", "a doubled hand gets exactly one card", None)
    if hand.split_aces and not rules.hit_split_aces:
        return ("Blackjack 12.1(c)", "a split ace gets one card only", None)
    if total >= 21:
        return ("Blackjack 12.1(a)", f"no draw on {total}", None)
    return None


def _stand_refused(total: int) -> _Refusal | None:
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
) -> _Refusal | None:
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
) -> _Refusal | None:
    cards = hand.cards
    if len(cards) != 2 or hand.acted:
        return ("Blackjack 11.4(a)", "only a two-card hand may split", None)
    if not is_pair(cards[0], cards[1], by_rank=rules.pairs_by is PairsBy.RANK):
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


def _surrender_refused(rules: BlackjackRules, hand: PlayerHand) -> _Refusal | None:
    if rules.surrender is Surrender.NONE:
        return ("Decision 3.1-13", "surrender is not offered", None)
    if len(hand.cards) != 2 or hand.acted or hand.from_split:
        return ("Decision 3.1-13", "only the first two cards may surrender", None)
    return None


def _nobody(rule: str, verb: str) -> _Refusal:
    return (rule, f"cannot {verb}: no hand is to act", "no action")


class HandPlays:
    """The hand-decision triads of a round (a base of
    :class:`~croupier.blackjack.round.BlackjackRound`).

    Each decision's rules are a pure function of the state (``_hit_refusal`` … answer None
    when it is legal, else why not, without raising); ``can_hit`` …, the legal actions
    (``_open_plays``) and ``verify_hit`` … (which raise that reason) all read them.

    >>> from croupier.blackjack import NZ, BlackjackRound
    >>> from croupier.cards import Shoe
    >>> BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50}).can_hit()
    False
    """

    if TYPE_CHECKING:
        rules: BlackjackRules
        bankrolls: dict[str, int]
        events: list[ev.Event]
        boxes: dict[int, Box]
        phase: RoundPhase
        _turn: tuple[int, int] | None

        def _error(self, rule: str, problem: str) -> IllegalActionError: ...
        def _advance(self) -> None: ...
        def _give(self, box: int, hand: int) -> Card: ...

    def _refused(self, refusal: _Refusal) -> IllegalActionError:
        rule, problem, allowed = refusal
        if allowed is None:
            return self._error(rule, problem)
        return IllegalActionError(rule, problem, allowed)

    def _acting(self) -> tuple[Box, PlayerHand] | None:
        """The box and hand to act, or None."""
        turn = self._turn
        if turn is None or self.phase is not RoundPhase.PLAYING:
            return None
        box = self.boxes[turn[0]]
        return box, box.hands[turn[1]]

    def _open_plays(self) -> tuple[bool, bool, bool, bool, bool] | None:
        """Whether the hand to act may hit, stand, double, split and surrender, worked out
        from the state without raising (None: no hand is to act).

        >>> from croupier.blackjack import NZ, BlackjackRound
        >>> from croupier.cards import Shoe, parse_cards
        >>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("8c 9d 8h 3s")), {"ann": 50})
        >>> rnd.place_wager(1, "ann", 10); rnd.deal(); rnd._open_plays()   # 8 8 against a 9
        WagerPlaced(box=1, player='ann', amount=10)
        CardDealt(box=1, hand=0, card=Card('8c'))
        (True, True, True, True, False)
        """
        acting = self._acting()
        if acting is None:
            return None
        box, hand = acting
        rules, bankrolls = self.rules, self.bankrolls
        total, soft = hand_total(hand.cards)
        return (
            _hit_refused(rules, hand, total) is None,
            _stand_refused(total) is None,
            _double_refused(rules, bankrolls, hand, total, soft) is None,
            _split_refused(rules, bankrolls, box, hand) is None,
            _surrender_refused(rules, hand) is None,
        )

    def _decided(self, play: Play, *, done: bool) -> tuple[Box, PlayerHand, int]:
        """Log a decision on the hand to act; 11.5 (Decision 3.1-10): any other action on a
        splittable pair declines the split."""
        assert self._turn is not None
        number, index = self._turn
        box = self.boxes[number]
        hand = box.hands[index]
        fresh = play is not Play.SPLIT and len(hand.cards) == 2 and not hand.acted
        if fresh and _split_refused(self.rules, self.bankrolls, box, hand) is None:
            box.split_declined = True
        hand.acted = True
        hand.done = hand.done or done
        self.events.append(ev.BoxAction(number, index, play))
        return box, hand, index

    # ------------------------------------------------------------------- hit
    def _hit_refusal(self) -> _Refusal | None:
        acting = self._acting()
        if acting is None:
            return _nobody("Blackjack 12.1", "hit")
        hand = acting[1]
        return _hit_refused(self.rules, hand, hand_total(hand.cards)[0])

    def verify_hit(self) -> None:
        """Raise unless the hand to act may draw (12.1)."""
        refusal = self._hit_refusal()
        if refusal is not None:
            raise self._refused(refusal)

    def can_hit(self) -> bool:
        """Whether :meth:`hit` is legal now."""
        return self._hit_refusal() is None

    def hit(self) -> ev.Event:
        """Draw a card."""
        self.verify_hit()
        before = len(self.events)
        self._hit()
        return self.events[before]

    @atomic
    def _hit(self) -> None:
        box, hand, index = self._decided(Play.HIT, done=False)
        self._give(box.number, index)
        hand.done = hand.total >= 21
        self._advance()

    # ----------------------------------------------------------------- stand
    def _stand_refusal(self) -> _Refusal | None:
        acting = self._acting()
        if acting is None:
            return _nobody("Blackjack 12.1(d)", "stand")
        return _stand_refused(hand_total(acting[1].cards)[0])

    def verify_stand(self) -> None:
        """Raise unless the hand to act may stand (12.1(d): not on 11 or less)."""
        refusal = self._stand_refusal()
        if refusal is not None:
            raise self._refused(refusal)

    def can_stand(self) -> bool:
        """Whether :meth:`stand` is legal now."""
        return self._stand_refusal() is None

    def stand(self) -> ev.Event:
        """Take no more cards."""
        self.verify_stand()
        before = len(self.events)
        self._stand()
        return self.events[before]

    @atomic
    def _stand(self) -> None:
        self._decided(Play.STAND, done=True)
        self._advance()

    # ---------------------------------------------------------------- double
    def _double_refusal(self) -> _Refusal | None:
        acting = self._acting()
        if acting is None:
            return _nobody("Blackjack 12.1(b)", "double")
        hand = acting[1]
        total, soft = hand_total(hand.cards)
        return _double_refused(self.rules, self.bankrolls, hand, total, soft)

    def verify_double(self) -> None:
        """Raise unless the hand to act may double down (one card only, 12.1(b))."""
        refusal = self._double_refusal()
        if refusal is not None:
            raise self._refused(refusal)

    def can_double(self) -> bool:
        """Whether :meth:`double` is legal now."""
        return self._double_refusal() is None

    def double(self) -> ev.Event:
        """Double the stake and take exactly one card (12.1(b)), even on 11 or less."""
        self.verify_double()
        before = len(self.events)
        self._double()
        return self.events[before]

    @atomic
    def _double(self) -> None:
        box, hand, index = self._decided(Play.DOUBLE, done=True)
        for player, stake in list(hand.stakes.items()):
            self.bankrolls[player] -= stake
            hand.stakes[player] = 2 * stake
        hand.doubled = True
        self._give(box.number, index)
        self._advance()

    # ----------------------------------------------------------------- split
    def _split_refusal(self) -> _Refusal | None:
        acting = self._acting()
        if acting is None:
            return _nobody("Blackjack 11.4(a)", "split")
        return _split_refused(self.rules, self.bankrolls, *acting)

    def verify_split(self) -> None:
        """Raise unless the hand to act may be split (11.1-11.5)."""
        refusal = self._split_refusal()
        if refusal is not None:
            raise self._refused(refusal)

    def can_split(self) -> bool:
        """Whether :meth:`split` is legal now."""
        return self._split_refusal() is None

    def split(self) -> ev.Event:
        """Split the pair into two hands with an equal stake each; each gets a second card
        in turn (11.1-11.3); split aces get one card each (11.4(b))."""
        self.verify_split()
        before = len(self.events)
        self._split()
        return self.events[before]

    @atomic
    def _split(self) -> None:
        assert self._turn is not None
        number, index = self._turn
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
        self.events.append(ev.BoxAction(box.number, index, Play.SPLIT))
        self._advance()

    # ------------------------------------------------------------- surrender
    def _surrender_refusal(self) -> _Refusal | None:
        acting = self._acting()
        if acting is None:
            return _nobody("Decision 3.1-13", "surrender")
        return _surrender_refused(self.rules, acting[1])

    def verify_surrender(self) -> None:
        """Raise unless the hand to act may surrender (only where the table offers it)."""
        refusal = self._surrender_refusal()
        if refusal is not None:
            raise self._refused(refusal)

    def can_surrender(self) -> bool:
        """Whether :meth:`surrender` is legal now."""
        return self._surrender_refusal() is None

    def surrender(self) -> ev.Event:
        """Give up the hand for half the stake back."""
        self.verify_surrender()
        before = len(self.events)
        self._surrender()
        return self.events[before]

    @atomic
    def _surrender(self) -> None:
        _, hand, _ = self._decided(Play.SURRENDER, done=True)
        hand.surrendered = True
        self._advance()
