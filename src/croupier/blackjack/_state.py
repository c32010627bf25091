"""The round's undo record: what makes every round action all or nothing (the shoe's part
is :meth:`Shoe.snapshot <croupier.cards.deck.Shoe.snapshot>` and :meth:`Shoe.restore
<croupier.cards.deck.Shoe.restore>`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from functools import wraps
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from croupier.errors import CroupierError

if TYPE_CHECKING:
    from croupier.blackjack.round import BlackjackRound

__all__ = ["atomic"]

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
        saved = save(rnd)
        try:
            return action(*args, **kwargs)
        except CroupierError:
            restore(rnd, saved)
            raise

    return run


def _copied(value: object) -> object:
    """A copy of a mutable container (the elements are immutable cards and numbers)."""
    if isinstance(value, list | dict | set):
        return value.copy()
    return value


def save(rnd: BlackjackRound) -> tuple[Any, ...]:
    """Everything an action can change, the shoe's state included."""
    hands = [h for b in rnd.boxes.values() for h in b.hands]
    return (
        dict(rnd.bankrolls),
        rnd.bank,
        dict(rnd.boxes),
        [
            (
                b,
                dict(b.wagers),
                list(b.hands),
                dict(b.insurance),
                set(b.even_money),
                b.split_declined,
            )
            for b in rnd.boxes.values()
        ],
        [(h, {f.name: _copied(getattr(h, f.name)) for f in fields(h)}) for h in hands],
        list(rnd.dealer),
        len(rnd.events),
        rnd.phase,
        list(rnd._insurance_due),
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
        hand_state,
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
    for box, wagers, hands, insurance, even_money, declined in box_state:
        box.wagers, box.hands, box.insurance = wagers, hands, insurance
        box.even_money, box.split_declined = even_money, declined
    for hand, values in hand_state:
        for name, value in values.items():
            setattr(hand, name, value)
    rnd.dealer[:] = dealer
    del rnd.events[events:]
    rnd._insurance_due[:] = due
    rnd.shoe.restore(shoe)
