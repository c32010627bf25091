"""Settling a round: pure functions from the boxes and the dealer's cards to the events.

Each :class:`~croupier.blackjack.events.HandSettled` (and
:class:`~croupier.blackjack.events.InsuranceSettled`) carries the stake and the net
result; the round applies them: the player gets ``stake + net`` back, the bank ``-net``.

>>> from croupier.blackjack.rules import NZ
>>> from croupier.cards import parse_cards
>>> box = Box(1, {"ann": 10}, [PlayerHand(list(parse_cards("Ts 9h")), {"ann": 10})])
>>> [e.describe() for e in settle(NZ, [box], list(parse_cards("7d Ks")))]
['box 1 hand 0 ann: win, +10 (Blackjack 4.1(b))']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from croupier.blackjack import events as ev
from croupier.blackjack.hands import Box, Outcome, PlayerHand
from croupier.blackjack.rules import BlackjackRules, DealerBlackjackTakes
from croupier.blackjack.values import hand_total
from croupier.cards.card import Card

__all__ = ["Outcome", "dealer_blackjack_takes", "hand_outcome", "settle", "settle_round"]

# Enum members as module constants: reading one off its class goes through the enum
# metaclass's ``__getattr__`` hook (Python 3.11), several times slower than a global.
_WIN, _BLACKJACK, _PUSH, _LOSE, _BUST = (
    Outcome.WIN,
    Outcome.BLACKJACK,
    Outcome.PUSH,
    Outcome.LOSE,
    Outcome.BUST,
)
_DEALER_BLACKJACK, _SURRENDER_OUTCOME = Outcome.DEALER_BLACKJACK, Outcome.SURRENDER
_EVEN_MONEY_OUTCOME: Final = Outcome.EVEN_MONEY
_TAKES_ALL: Final = DealerBlackjackTakes.ALL


def settle_round(
    rules: BlackjackRules,
    boxes: Iterable[Box],
    dealer: list[Card],
    bankrolls: dict[str, int],
    bank: int,
) -> tuple[list[ev.Event], int]:
    """Settle a played round: every settlement of :func:`settle` paid into ``bankrolls``
    (the player gets ``stake + net`` back), then
    :class:`~croupier.blackjack.events.DealEnded`; returns the events and the bank's
    result after them (``bank`` less every net).

    >>> from croupier.blackjack.rules import NZ
    >>> from croupier.cards import parse_cards
    >>> box = Box(1, {"ann": 10}, [PlayerHand(list(parse_cards("Ts 9h")), {"ann": 10})])
    >>> bankrolls = {"ann": 40}
    >>> made, bank = settle_round(NZ, [box], list(parse_cards("7d Ks")), bankrolls, 0)
    >>> made[-1].describe(), bankrolls, bank
    ('round over: ann 60, bank -10', {'ann': 60}, -10)
    """
    made: list[ev.Event] = []
    for event in settle(rules, boxes, dealer):
        bankrolls[event.player] += event.stake + event.net
        bank -= event.net
        made.append(event)
    final = tuple(sorted(bankrolls.items()) if len(bankrolls) > 1 else bankrolls.items())
    made.append(ev.deal_ended(final, bank))
    return made, bank


def settle(
    rules: BlackjackRules, boxes: Iterable[Box], dealer: list[Card]
) -> list[ev.HandSettled | ev.InsuranceSettled]:
    """Every settlement of a played round, box by box in the order given: the insurance
    stakes, then each player's stake on each hand (Blackjack 4.1, 11.7)."""
    dealer_total = hand_total(dealer)[0] if dealer else 0
    dealer_bj = len(dealer) == 2 and dealer_total == 21  # has_blackjack(dealer)
    out: list[ev.HandSettled | ev.InsuranceSettled] = []
    for box in boxes:
        number = box.number
        for player, stake in box.insurance.items():
            net = 2 * stake if dealer_bj else -stake
            out.append(ev.InsuranceSettled(number, player, stake, net))
        for player in box.wagers:
            for index, hand in enumerate(box.hands):
                stake = hand.stakes[player]
                if player in box.even_money:
                    out.append(
                        ev.hand_settled(
                            number,
                            index,
                            player,
                            _EVEN_MONEY_OUTCOME,
                            stake,
                            stake,
                            "Decision 3.1-6",
                        )
                    )
                    continue
                outcome, net, rule = hand_outcome(rules, hand, stake, dealer_bj, dealer_total)
                if dealer_bj and outcome is _DEALER_BLACKJACK and not hand.surrendered:
                    continue  # settled below, across the box (11.7)
                out.append(ev.hand_settled(number, index, player, outcome, stake, net, rule))
            if dealer_bj:
                out.extend(dealer_blackjack_takes(rules, box, player))
    return out


def dealer_blackjack_takes(rules: BlackjackRules, box: Box, player: str) -> list[ev.HandSettled]:
    """11.7 (Decision 3.1-4): a busted hand has already lost its stake (4.1(f)), whatever
    the dealer makes; a no-hole-card dealer blackjack then takes the amount of the
    player's original wager **once**, from the first of the box's hands still standing,
    plus split stakes and doubled stakes only where the table's settings say all; the
    rest is returned. If every hand of the box busted it takes nothing more. So which
    split hand busted never matters (split 8-8 for 10, one busts, one stands: 20 lost).

    >>> from croupier.blackjack.rules import NZ
    >>> from croupier.cards import parse_cards
    >>> hands = [PlayerHand(list(parse_cards(c)), {"ann": 10}, from_split=True) for c in ("8s Td", "8h 9c")]
    >>> [(e.hand, e.net) for e in dealer_blackjack_takes(NZ, Box(1, {"ann": 10}, hands), "ann")]
    [(0, -10), (1, 0)]
    """
    splits_all = rules.dealer_blackjack_takes_splits is _TAKES_ALL
    doubles_all = rules.dealer_blackjack_takes_doubles is _TAKES_ALL
    original_due = True
    out = []
    for index, hand in enumerate(box.hands):
        if hand.busted or hand.surrendered or hand.is_blackjack:
            continue
        stake = hand.stakes[player]
        base = stake // 2 if hand.doubled else stake  # the undoubled wager
        take = 0
        if original_due or splits_all:
            take += base
            original_due = False
        if hand.doubled and doubles_all:
            take += stake - base
        if len(box.hands) > 1:
            rule = "Decision 3.1-4" if splits_all else "Blackjack 11.7"
        elif take == stake:
            rule = "Blackjack 4.1(d)" if len(hand.cards) > 2 else "Blackjack 4.1(g)"
        else:
            rule = "Decision 3.1-4"
        out.append(
            ev.hand_settled(box.number, index, player, _DEALER_BLACKJACK, stake, -take, rule)
        )
    return out


def hand_outcome(
    rules: BlackjackRules, hand: PlayerHand, stake: int, dealer_bj: bool, dealer_total: int
) -> tuple[Outcome, int, str]:
    """``(outcome, net, rule)`` for one stake on one hand (Blackjack 4.1).

    >>> from croupier.blackjack.rules import NZ
    >>> from croupier.cards import parse_cards
    >>> hand_outcome(NZ, PlayerHand(list(parse_cards("As Kd")), {"ann": 10}), 10, False, 20)
    (<Outcome.BLACKJACK: 'blackjack'>, 15, 'Blackjack 4.1(c)')
    """
    unit = rules.chip_unit
    if hand.surrendered:
        if dealer_bj:  # late surrender: void against a dealer blackjack
            return _DEALER_BLACKJACK, -stake, "Decision 3.1-13"
        back = stake // 2 // unit * unit
        return _SURRENDER_OUTCOME, back - stake, "Decision 3.1-13"
    total = hand_total(hand.cards)[0]
    if total > 21:
        return _BUST, -stake, "Blackjack 4.1(f)"
    blackjack = total == 21 and len(hand.cards) == 2 and not hand.from_split
    if dealer_bj:
        if blackjack:
            return _PUSH, 0, "Blackjack 4.1(e)"
        return _DEALER_BLACKJACK, -stake, "Blackjack 4.1(d)"
    if blackjack:
        win = int(stake * rules.blackjack_pays) // unit * unit
        return _BLACKJACK, win, "Blackjack 4.1(c)"
    if dealer_total > 21:
        return _WIN, stake, "Blackjack 4.1(a)"
    if total > dealer_total:
        return _WIN, stake, "Blackjack 4.1(b)"
    if total == dealer_total:
        return _PUSH, 0, "Blackjack 4.1(e)"
    return _LOSE, -stake, "Blackjack 4.1(g)"
