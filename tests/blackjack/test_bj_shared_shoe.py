"""A round whose shoe another draws from (a second round, a dealer's tool) still checks the
shoe itself before an action that may run out of cards: the action is refused whole and
the round is as it was, never half-done with chips stuck on the table."""

from __future__ import annotations

import pytest

from croupier.blackjack import NZ, BlackjackRound
from croupier.blackjack.actions import Stand
from croupier.cards import Shoe
from croupier.errors import CroupierError


def test_a_shoe_drained_by_another_leaves_the_round_as_it_was() -> None:
    for seed in range(40):  # a deal that leaves a decision
        shoe = Shoe(6, seed=seed)
        rnd = BlackjackRound(NZ, shoe, {"ann": 100})
        rnd.place_wager(1, "ann", 10)
        rnd.deal()
        if not rnd.is_complete:
            break
    assert not rnd.is_complete
    BlackjackRound(NZ, shoe, {"bo": 100})  # another round on the same shoe
    shoe.draw_many(len(shoe) - 1)  # ... and whatever draws from it: one card is left
    before = (rnd.events, rnd.phase, dict(rnd.bankrolls), list(rnd.dealer), len(shoe))
    with pytest.raises(CroupierError):
        rnd.apply(Stand(box=1, hand=0))  # the dealer needs more than one card
    assert (rnd.events, rnd.phase, dict(rnd.bankrolls), list(rnd.dealer), len(shoe)) == before
    assert rnd.legal_actions().actor is not None  # the hand may still act
