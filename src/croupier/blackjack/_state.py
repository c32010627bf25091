"""The round's undo record: what makes every round action all or nothing (the shoe's part
is :meth:`Shoe.snapshot <croupier.cards.deck.Shoe.snapshot>` and :meth:`Shoe.restore
<croupier.cards.deck.Shoe.restore>`; the turn's part is
:meth:`HandPlays.state <croupier.blackjack.plays.HandPlays.state>`).

Once an action is verified, the one error it can meet is the shoe running out. An action
draws at most :func:`most_drawn` cards, so while the shoe holds that many it cannot fail,
and it runs without an undo record (a table's shoe always does, the cut card comes out
long before); nearer the end of a shoe every action saves the layout and its shoe first
(:func:`save`) and puts them back if it fails (:func:`restore`).

>>> from croupier.blackjack import NZ, BlackjackRound
>>> from croupier.cards import Shoe, parse_cards
>>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("Tc 6d")), {"ann": 50})
>>> rnd.place_wager(1, "ann", 10); rnd.deal()
Traceback (most recent call last):
...
croupier.cards.deck.EmptyDeckError: cannot deal: the shoe is empty
>>> len(rnd.shoe), rnd.phase
(2, <Phase.WAGERS: 'wagers'>)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from croupier.blackjack import events as ev
    from croupier.blackjack.hands import Box
    from croupier.blackjack.rules import BlackjackRules
    from croupier.cards.card import Card
    from croupier.cards.deck import Shoe

__all__ = ["most_drawn", "restore", "save"]


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


def save(
    bankrolls: dict[str, int],
    boxes: dict[int, Box],
    dealer: list[Card],
    events: list[ev.Event],
    shoe: Shoe,
) -> tuple[Any, ...]:
    """Everything on the layout an action can change, the shoe's state included."""
    return (
        bankrolls.copy(),
        boxes.copy(),
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
            for b in boxes.values()
        ],
        dealer[:],
        len(events),
        shoe.snapshot(),
    )


def restore(
    saved: tuple[Any, ...],
    bankrolls: dict[str, int],
    boxes: dict[int, Box],
    dealer: list[Card],
    events: list[ev.Event],
    shoe: Shoe,
) -> None:
    """Put the layout (and the shoe, in place: a table shares it) back as :func:`save`
    found it; the box and hand objects stay the same objects."""
    kept_bankrolls, kept_boxes, box_state, kept_dealer, count, kept_shoe = saved
    bankrolls.clear()
    bankrolls.update(kept_bankrolls)
    boxes.clear()
    boxes.update(kept_boxes)
    for box, wagers, hands, insurance, even_money, declined, hand_state in box_state:
        box.wagers, box.hands, box.insurance = wagers, hands, insurance
        box.even_money, box.split_declined = even_money, declined
        for hand, values, cards, stakes in hand_state:
            hand.__dict__.clear()
            hand.__dict__.update(values)
            hand.cards, hand.stakes = cards, stakes
    dealer[:] = kept_dealer
    del events[count:]
    shoe.restore(kept_shoe)
