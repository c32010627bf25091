"""A blackjack table: one shoe dealt round after round, reshuffled when the cut card comes out.

>>> table = BlackjackTable(NZ, seed=5)
>>> rnd = table.new_round({"ann": 100})
>>> rnd.place_wager(1, "ann", 10); rnd.deal()
WagerPlaced(box=1, player='ann', amount=10)
CardBurned(card=Card('8h'))
>>> len(rnd.shoe), rnd.events[2].describe()      # a new shoe burns its first card
(308, 'burn')
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import NZ, BlackjackRules, checked_rules
from croupier.cards.deck import Shoe

__all__ = ["BlackjackTable"]


class BlackjackTable:
    """Deals rounds from one shoe; shuffles before the next round once the cut card is out
    (Decision 3.1-15), burning the first card of each new shoe when the rules say so.

    With ``strict_nz`` (the default) the rules must keep every setting the Gazette fixes
    (:meth:`~croupier.blackjack.rules.BlackjackRules.validate_for_play`: 4-8 decks, three
    hands a box, aces split once with one card each, 11.7's original wager only).

    >>> BlackjackTable(NZ.with_(decks=2))
    Traceback (most recent call last):
    ...
    croupier.errors.RuleViolationError: Blackjack 3.1 as amended: a shoe of 2 decks is not allowed for play; allowed: 4 to 8 decks
    >>> BlackjackTable(NZ.with_(resplit_aces=True))
    Traceback (most recent call last):
    ...
    croupier.errors.RuleViolationError: Blackjack 11.4(b): aces may be split only once; allowed: resplit_aces = False
    """

    def __init__(
        self,
        rules: BlackjackRules = NZ,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        strict_nz: bool = True,
        shoe: Shoe | None = None,
    ) -> None:
        checked_rules(rules, strict_nz=strict_nz)
        self.rules = rules
        """The rule set."""
        self.strict_nz = strict_nz
        """Whether NZ play limits are enforced."""
        self.shoe = shoe or Shoe(rules.decks, penetration=rules.penetration, seed=seed, rng=rng)
        """The shoe."""
        self.shuffles = 0
        """How many times the shoe has been reshuffled."""
        self._fresh = True

    def new_round(self, bankrolls: Mapping[str, int]) -> BlackjackRound:
        """Open the next round; reshuffle first if the cut card came out last round."""
        if self.shoe.cut_card_reached:
            self.shoe.shuffle()
            self.shuffles += 1
            self._fresh = True
        burn = self._fresh and self.rules.burn_on_new_shoe
        self._fresh = False
        return BlackjackRound(self.rules, self.shoe, bankrolls, burn=burn)
