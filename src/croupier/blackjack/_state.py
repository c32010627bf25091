"""The round's undo record: what makes every round action all or nothing (the shoe's part
is :meth:`Shoe.snapshot <croupier.cards.deck.Shoe.snapshot>` and :meth:`Shoe.restore
<croupier.cards.deck.Shoe.restore>`).

Once an action is verified, the one error it can meet is the shoe running out. An action
draws at most :func:`most_drawn` cards, so while the shoe holds that many it cannot fail,
and it runs without an undo record (a table's shoe always does, the cut card comes out
long before); nearer the end of a shoe every action saves the round and its shoe first.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from croupier.errors import CroupierError

if TYPE_CHECKING:
    from croupier.blackjack.round import BlackjackRound
    from croupier.blackjack.rules import BlackjackRules

__all__ = ["atomic", "most_drawn"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def atomic(action: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run a round action all or nothing: if it raises a CroupierError (the shoe running
    out part way through a deal, a draw or the dealer's play), the round and its shoe are
    put back exactly as they were before the action, and the error is raised.

    >>> from croupier.blackjack import NZ, BlackjackRound
    >>> from croupier.cards import Shoe, parse_cards
    >>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("Tc 6d")), {"ann": 50})
    >>> rnd.place_wager(1, "ann", 10); rnd.deal()
    Traceback (most recent call last):
    ...
    croupier.cards.deck.EmptyDeckError: cannot deal: the shoe is empty
    >>> len(rnd.shoe), rnd.phase
    (2, <RoundPhase.WAGERS: 'wagers'>)
    """

    @wraps(action)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        rnd: Any = args[0]
        if len(rnd.shoe) >= rnd._most_drawn:
            return action(*args, **kwargs)  # it cannot run out of cards: nothing to undo
        saved = save(rnd)
        try:
            return action(*args, **kwargs)
        except CroupierError:
            restore(rnd, saved)
            raise

    return run


def most_drawn(rules: BlackjackRules) -> int:
    """The most cards one round action can draw: a deal (a burn card, two cards a box, the
    dealer's one or two), the second cards of a box's split hands, and the dealer's whole
    turn (at most 17 cards: each adds at least 1 to the hard total, which stands by 17);
    generously counted.

    >>> from croupier.blackjack import NZ
    >>> most_drawn(NZ)
    41
    """
    return 2 * rules.boxes + rules.max_hands + 24


def save(rnd: BlackjackRound) -> tuple[Any, ...]:
    """Everything an action can change, the shoe's state included."""
    return (
        rnd.bankrolls.copy(),
        rnd.bank,
        rnd.boxes.copy(),
        [
            (
                b,
                b.wagers.copy(),
                b.hands[:],
                b.insurance.copy(),
                b.even_money.copy(),
                b.split_declined,
                [(h, h.__dict__.copy(), h.cards[:], h.stakes.copy()) for h in b.hands],
            )
            for b in rnd.boxes.values()
        ],
        rnd.dealer[:],
        len(rnd.events),
        rnd.phase,
        rnd._insurance_due[:],
        rnd._turn,
        rnd.shoe.snapshot(),
    )


def restore(rnd: BlackjackRound, saved: tuple[Any, ...]) -> None:
    """Put the round (and its shoe, in place: a table shares it) back as :func:`save` found
    it; the box and hand objects stay the same objects."""
    (
        bankrolls,
        rnd.bank,
        boxes,
        box_state,
        dealer,
        events,
        rnd.phase,
        due,
        rnd._turn,
        shoe,
    ) = saved
    rnd.bankrolls.clear()
    rnd.bankrolls.update(bankrolls)
    rnd.boxes.clear()
    rnd.boxes.update(boxes)
    for box, wagers, hands, insurance, even_money, declined, hand_state in box_state:
        box.wagers, box.hands, box.insurance = wagers, hands, insurance
        box.even_money, box.split_declined = even_money, declined
        for hand, values, cards, stakes in hand_state:
            hand.__dict__.clear()
            hand.__dict__.update(values)
            hand.cards, hand.stakes = cards, stakes
    rnd.dealer[:] = dealer
    del rnd.events[events:]
    rnd._insurance_due[:] = due
    rnd.shoe.restore(shoe)
