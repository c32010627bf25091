"""The dealer's chores: the deal, and the dealer's play (the second card of a no-hole-card
game, then drawing to 17, Blackjack 13).

Functions of the cards and the rules: they draw from the shoe (or a ``draw`` callable),
put the cards where they go and return the events they made.

>>> from croupier.blackjack.rules import NZ
>>> from croupier.cards import parse_cards
>>> cards = list(parse_cards("6h Td"))
>>> [e.describe() for e in draw_to_seventeen(cards, iter(parse_cards("5c 9s")).__next__, NZ)]
['dealer gets 5c']
>>> cards
[Card('6h'), Card('Td'), Card('5c')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from croupier.blackjack import events as ev
from croupier.blackjack.hands import Box, PlayerHand
from croupier.blackjack.rules import BlackjackRules, HoleCard
from croupier.blackjack.values import VALUE_OF_INDEX, hand_total
from croupier.cards.card import Card
from croupier.cards.deck import EmptyDeckError, Shoe

__all__ = ["deal_round", "dealer_stands", "draw_to_seventeen", "has_blackjack", "play_dealer"]

# Enum members as module constants: reading one off its class goes through the enum
# metaclass's ``__getattr__`` hook (Python 3.11), several times slower than a global.
_PEEK, _NO_HOLE_CARD = HoleCard.PEEK, HoleCard.NO_HOLE_CARD


def deal_round(
    boxes: list[Box], dealer: list[Card], shoe: Shoe, rules: BlackjackRules, *, burn: bool
) -> list[ev.Event]:
    """The deal (Blackjack 4.2, 5): a burn card first when ``burn``, one card to each box
    in the order given, one to the dealer face up, a second to each box, and in a peek
    game the dealer's hole card. Each box gets one hand, staked with its wagers.

    >>> from croupier.blackjack.rules import NZ
    >>> from croupier.cards import parse_cards
    >>> box, dealer = Box(1, {"ann": 10}), []
    >>> made = deal_round([box], dealer, Shoe(6, cards=parse_cards("As 9c Kh")), NZ, burn=False)
    >>> [e.describe() for e in made], box.hands[0].total, dealer
    (['box 1 hand 0 gets As', 'dealer gets 9c', 'box 1 hand 0 gets Kh'], 21, [Card('9c')])
    """
    made: list[ev.Event] = []
    if burn:
        made.append(ev.CardBurned(shoe.burn()))
    peek = rules.hole_card is _PEEK
    count = len(boxes)
    try:  # every card of the deal in one draw, in the order they are dealt
        cards = shoe.draw_many(2 * count + 1 + peek)
    except EmptyDeckError:  # too few: dealt one by one below, until the shoe runs out
        pass
    else:
        card_dealt = ev.card_dealt
        index = 0
        for box in boxes:
            first = cards[index]
            box.hands = [PlayerHand([first], dict(box.wagers))]
            made.append(card_dealt(box.number, 0, first))
            index += 1
        card = cards[index]
        dealer.append(card)
        made.append(ev.dealer_card(card))
        for box in boxes:
            index += 1
            card = cards[index]
            box.hands[0].cards.append(card)
            made.append(card_dealt(box.number, 0, card))
        if peek:
            card = cards[index + 1]
            dealer.append(card)
            made.append(ev.dealer_card(card, True))
        return made
    draw = shoe.draw
    hands = []
    for box in boxes:
        hand = PlayerHand([draw()], dict(box.wagers))
        box.hands = [hand]
        hands.append(hand)
        made.append(ev.card_dealt(box.number, 0, hand.cards[0]))
    card = draw()
    dealer.append(card)
    made.append(ev.dealer_card(card))
    for box, hand in zip(boxes, hands, strict=True):
        card = draw()
        hand.cards.append(card)
        made.append(ev.card_dealt(box.number, 0, card))
    if rules.hole_card is _PEEK:
        card = draw()
        dealer.append(card)
        made.append(ev.dealer_card(card, True))
    return made


def dealer_stands(cards: Iterable[Card], rules: BlackjackRules) -> bool:
    """Whether the dealer stands: on 17 or more, except a soft 17 under H17 (Decision 3.1-1).

    >>> from croupier.blackjack.rules import NZ
    >>> from croupier.cards import parse_cards
    >>> dealer_stands(parse_cards("Ah 6d"), NZ), dealer_stands(parse_cards("Ah 6d"), NZ.with_(dealer_hits_soft_17=True))
    (True, False)
    """
    total, soft = hand_total(cards)
    return total > 17 or (total == 17 and not (soft and rules.dealer_hits_soft_17))


def has_blackjack(cards: list[Card]) -> bool:
    """Whether the dealer's cards are a blackjack (two cards making 21).

    >>> from croupier.cards import parse_cards
    >>> has_blackjack(list(parse_cards("As Kd"))), has_blackjack(list(parse_cards("7s 7d 7c")))
    (True, False)
    """
    return len(cards) == 2 and hand_total(cards)[0] == 21


def draw_to_seventeen(
    dealer: list[Card], draw: Callable[[], Card], rules: BlackjackRules
) -> list[ev.Event]:
    """The dealer draws to 16 and stands on 17, or hits soft 17 (Blackjack 13, Decision
    3.1-1); each card is appended to ``dealer`` and logged."""
    out: list[ev.Event] = []
    hits_soft_17 = rules.dealer_hits_soft_17
    while True:
        total, soft = hand_total(dealer)  # dealer_stands(dealer, rules), inline
        if total > 17 or (total == 17 and not (soft and hits_soft_17)):
            return out
        card = draw()
        dealer.append(card)
        out.append(ev.dealer_card(card))


def play_dealer(
    dealer: list[Card],
    hands: list[PlayerHand],
    insured: bool,
    draw: Callable[[], Card],
    rules: BlackjackRules,
) -> list[ev.Event]:
    """The dealer's turn once every box has played: without a hole card the second card
    comes now (when a hand still stands, an insurance or a surrender waits on it,
    Decision 3.1-13); then the dealer draws unless a blackjack ends it or no standing hand
    needs it (a blackjack is paid whatever the dealer draws).

    >>> from croupier.blackjack.rules import NZ
    >>> from croupier.cards import parse_cards
    >>> dealer, hand = [Card.parse("Th")], PlayerHand(list(parse_cards("9s 8d")), {"ann": 10})
    >>> [e.describe() for e in play_dealer(dealer, [hand], False, iter(parse_cards("5c 4d")).__next__, NZ)]
    ['dealer gets 5c', 'dealer gets 4d']
    """
    live = False  # a hand neither busted nor surrendered
    waits = False  # one of them is not a blackjack: it waits on the dealer's total
    surrendered = False
    for hand in hands:
        if hand.surrendered:
            surrendered = True
            continue
        total = hand_total(hand.cards)[0]
        if total <= 21:
            live = True
            if total != 21 or len(hand.cards) != 2 or hand.from_split:  # not hand.is_blackjack
                waits = True
    out: list[ev.Event] = []
    if rules.hole_card is _NO_HOLE_CARD and (live or insured or surrendered):
        card = draw()
        dealer.append(card)
        out.append(ev.dealer_card(card))
    if waits:
        total, soft = hand_total(dealer)
        if len(dealer) != 2 or total != 21:  # not has_blackjack(dealer): draw_to_seventeen, inline
            hits_soft_17 = rules.dealer_hits_soft_17
            hard = total - 10 if soft else total  # aces as 1
            ace = soft  # an ace that may yet count 11 (none may once the hard total is 12)
            while total < 17 or (total == 17 and soft and hits_soft_17):
                card = draw()
                dealer.append(card)
                out.append(ev.dealer_card(card))
                value = VALUE_OF_INDEX[card.index]  # hand_total(dealer), kept up
                hard += value
                ace = ace or value == 1
                soft = ace and hard <= 11
                total = hard + 10 if soft else hard
    return out
