"""The decisions on a box's hand (Blackjack 11, 12; Decisions 3.1-5, 3.1-8, 3.1-10,
3.1-13): the ``hit``, ``stand``, ``double``, ``split`` and ``surrender`` triads of
:class:`~croupier.blackjack.round.BlackjackRound`.

>>> from croupier.blackjack import NZ, BlackjackRound
>>> from croupier.cards import Shoe, parse_cards
>>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("8c 9d 8h 3s Th")), {"ann": 50})
>>> rnd.place_wager(1, "ann", 10); rnd.deal()
>>> rnd.can_split(), rnd.can_surrender()
(True, False)
>>> rnd.split(); [len(h.cards) for h in rnd.boxes[1].hands]   # the first hand gets its second card
[2, 1]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier.blackjack import events as ev
from croupier.blackjack._state import atomic
from croupier.blackjack.hands import Box, Play, PlayerHand
from croupier.blackjack.rules import BlackjackRules, PairsBy, Surrender
from croupier.blackjack.values import is_pair
from croupier.cards.card import Card, Rank
from croupier.checks import can
from croupier.errors import IllegalActionError

__all__ = ["HandPlays"]


class HandPlays:
    """The hand-decision triads of a round (a base of
    :class:`~croupier.blackjack.round.BlackjackRound`).

    >>> from croupier.blackjack import NZ, BlackjackRound
    >>> from croupier.cards import Shoe
    >>> BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50}).can_hit()
    False
    """

    if TYPE_CHECKING:
        rules: BlackjackRules
        bankrolls: dict[str, int]
        events: list[ev.Event]

        @property
        def current(self) -> tuple[int, int] | None: ...
        def _hand(self) -> tuple[Box, PlayerHand, int]: ...
        def _error(self, rule: str, problem: str) -> IllegalActionError: ...
        def _advance(self) -> None: ...
        def _give(self, box: int, hand: int) -> Card: ...

    def _require_turn(self, rule: str, what: str) -> tuple[Box, PlayerHand]:
        if self.current is None:
            raise IllegalActionError(rule, f"cannot {what}: no hand is to act", "no action")
        box, hand, _ = self._hand()
        return box, hand

    def _stake_short(self, hand: PlayerHand) -> str | None:
        """The first player on the hand who cannot match their stake (a split, a double)."""
        for player, stake in hand.stakes.items():
            if self.bankrolls[player] < stake:
                return player
        return None

    def _decided(self, play: Play, *, done: bool) -> tuple[Box, PlayerHand, int]:
        """Log a decision on the hand to act; 11.5 (Decision 3.1-10): any other action on a
        splittable pair declines the split."""
        box, hand, index = self._hand()
        fresh = play is not Play.SPLIT and len(hand.cards) == 2 and not hand.acted
        if fresh and can(self.verify_split):
            box.split_declined = True
        hand.acted = True
        hand.done = hand.done or done
        self.events.append(ev.BoxAction(box.number, index, play))
        return box, hand, index

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
        return can(self.verify_hit)

    @atomic
    def hit(self) -> None:
        """Draw a card."""
        self.verify_hit()
        box, hand, index = self._decided(Play.HIT, done=False)
        self._give(box.number, index)
        hand.done = hand.total >= 21
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
        return can(self.verify_stand)

    @atomic
    def stand(self) -> None:
        """Take no more cards."""
        self.verify_stand()
        self._decided(Play.STAND, done=True)
        self._advance()

    def verify_double(self) -> None:
        """Raise unless the hand to act may double down (one card only, 12.1(b))."""
        _, hand = self._require_turn("Blackjack 12.1(b)", "double")
        if len(hand.cards) != 2 or hand.acted:
            raise self._error("Decision 3.1-5", "only the first two cards of a hand may double")
        if hand.split_aces:
            raise self._error("Blackjack 12.1(c)", "split aces get one card and cannot double")
        if hand.from_split and not self.rules.double_after_split:
            raise self._error("Decision 3.1-5", "no double after a split at this table")
        if not self.rules.double_on.allows(hand.total, soft=hand.soft):
            raise self._error(
                "Decision 3.1-5", f"this table doubles on {self.rules.double_on.value} only"
            )
        short = self._stake_short(hand)
        if short is not None:
            raise self._error("Decision 3.1-5", f"{short} cannot cover the double")

    def can_double(self) -> bool:
        """Whether :meth:`double` is legal now."""
        return can(self.verify_double)

    @atomic
    def double(self) -> None:
        """Double the stake and take exactly one card (12.1(b)), even on 11 or less."""
        self.verify_double()
        box, hand, index = self._decided(Play.DOUBLE, done=True)
        for player, stake in list(hand.stakes.items()):
            self.bankrolls[player] -= stake
            hand.stakes[player] = 2 * stake
        hand.doubled = True
        self._give(box.number, index)
        self._advance()

    def verify_split(self) -> None:
        """Raise unless the hand to act may be split (11.1-11.5)."""
        box, hand = self._require_turn("Blackjack 11.4(a)", "split")
        rules = self.rules
        if len(hand.cards) != 2 or hand.acted:
            raise self._error("Blackjack 11.4(a)", "only a two-card hand may split")
        if not is_pair(hand.cards[0], hand.cards[1], by_rank=rules.pairs_by is PairsBy.RANK):
            raise self._error("Decision 3.1-8", "the two cards are not a pair")
        if box.split_declined:
            raise self._error("Blackjack 11.5", "a split was declined earlier in this hand")
        if len(box.hands) >= rules.max_hands:
            raise self._error("Blackjack 11.4(a)", f"no more than {rules.max_hands} hands a box")
        if hand.split_aces and not rules.resplit_aces:
            raise self._error("Blackjack 11.4(b)", "aces may be split only once")
        short = self._stake_short(hand)
        if short is not None:
            raise self._error("Blackjack 11.1", f"{short} cannot cover the split")

    def can_split(self) -> bool:
        """Whether :meth:`split` is legal now."""
        return can(self.verify_split)

    @atomic
    def split(self) -> None:
        """Split the pair into two hands with an equal stake each; each gets a second card
        in turn (11.1-11.3); split aces get one card each (11.4(b))."""
        self.verify_split()
        box, hand, index = self._hand()
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

    def verify_surrender(self) -> None:
        """Raise unless the hand to act may surrender (only where the table offers it)."""
        _, hand = self._require_turn("Decision 3.1-13", "surrender")
        if self.rules.surrender is Surrender.NONE:
            raise self._error("Decision 3.1-13", "surrender is not offered")
        if len(hand.cards) != 2 or hand.acted or hand.from_split:
            raise self._error("Decision 3.1-13", "only the first two cards may surrender")

    def can_surrender(self) -> bool:
        """Whether :meth:`surrender` is legal now."""
        return can(self.verify_surrender)

    @atomic
    def surrender(self) -> None:
        """Give up the hand for half the stake back."""
        self.verify_surrender()
        _, hand, _ = self._decided(Play.SURRENDER, done=True)
        hand.surrendered = True
        self._advance()
