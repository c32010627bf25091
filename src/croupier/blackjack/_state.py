"""The round's undo record and shoe helpers: what makes every round action all or nothing,
and the copies :meth:`BlackjackRound.copy <croupier.blackjack.round.BlackjackRound.copy>` makes.

>>> from croupier.cards import Shoe, parse_cards
>>> shoe = Shoe(1, cards=parse_cards("As Kd"))
>>> shoe_order(shoe), len(copy_shoe(shoe))
((Card('As'), Card('Kd')), 2)
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import fields
from functools import wraps
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from croupier.cards.card import Card
from croupier.cards.deck import Shoe
from croupier.errors import CroupierError

if TYPE_CHECKING:
    from croupier.blackjack.round import BlackjackRound

__all__ = ["atomic", "can", "copy_shoe", "shoe_order"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def can(check: Callable[..., None], *args: object) -> bool:
    """Whether ``check`` passes; never raises (malformed input is simply not legal).

    >>> can(Card.parse, "zz"), can(Card.parse, "As")
    (False, True)
    """
    try:
        check(*args)
    except CroupierError:
        return False
    return True


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


_SLOTS: dict[type[Shoe], tuple[str, ...]] = {}


def _slots(shoe: Shoe) -> tuple[str, ...]:
    kind = type(shoe)
    names = _SLOTS.get(kind)
    if names is None:
        names = tuple(n for cls in kind.__mro__ for n in getattr(cls, "__slots__", ()))
        _SLOTS[kind] = names
    return names


def shoe_order(shoe: Shoe) -> tuple[Card, ...]:
    """The shoe's undealt cards, top first.

    >>> from croupier.cards import Shoe, parse_cards
    >>> shoe = Shoe(1, cards=parse_cards("As Kd 2c")); _ = shoe.draw(); shoe_order(shoe)
    (Card('Kd'), Card('2c'))
    """
    cards: list[Card] = getattr(shoe, "_cards")  # noqa: B009 - Shoe has no public order
    return tuple(reversed(cards))


def copy_shoe(shoe: Shoe) -> Shoe:
    """A copy of a shoe with its own cards and piles (the same order, the same cut card);
    the random source is shared: only a reshuffle uses it, and a round never reshuffles.

    >>> from croupier.cards import Shoe
    >>> shoe = Shoe(6, seed=4); twin = copy_shoe(shoe); _ = twin.draw()
    >>> len(shoe) - len(twin), twin.cut_card_position == shoe.cut_card_position
    (1, True)
    """
    twin = object.__new__(type(shoe))
    for name in _slots(shoe):
        if hasattr(shoe, name):
            value = getattr(shoe, name)
            setattr(twin, name, value[:] if type(value) is list else value)
    if hasattr(shoe, "__dict__"):  # pragma: no cover - a Shoe subclass with attributes
        vars(twin).update(copy.copy(vars(shoe)))
    return twin


def _copied(value: object) -> object:
    """A copy of a mutable container (the elements are immutable cards and numbers)."""
    if isinstance(value, list | dict | set):
        return value.copy()
    return value


def save(rnd: BlackjackRound) -> tuple[Any, ...]:
    """Everything an action can change, the shoe's state included (its attributes, lists
    copied: drawing pops from them)."""
    hands = [h for b in rnd.boxes.values() for h in b.hands]
    shoe = rnd.shoe
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
        [(name, _copied(getattr(shoe, name))) for name in _slots(shoe) if hasattr(shoe, name)],
        {k: _copied(v) for k, v in vars(shoe).items()} if hasattr(shoe, "__dict__") else {},
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
        shoe_slots,
        shoe_dict,
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
    for name, value in shoe_slots:
        setattr(rnd.shoe, name, value)
    if shoe_dict:  # pragma: no cover - a Shoe subclass with attributes
        vars(rnd.shoe).clear()
        vars(rnd.shoe).update(shoe_dict)
