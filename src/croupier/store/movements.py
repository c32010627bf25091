"""Every chip a hand moved, read from its event log, signed from the holder's side.

A poker bet (ante, blind, call, raise, bring-in) is negative for the seat, a returned bet
and a pot award positive, the rake positive for the house (``seat`` None). A blackjack
wager, double, split and insurance stake is negative for the player, a settlement (stake
plus net) positive, and the bank's result goes to the house. So a hand's movements always
add up to zero, and each player's add up to the chips won or lost; :func:`poker_movements`
and :func:`blackjack_movements` check both and raise if the log disagrees with itself.

>>> from croupier.poker import HandState, TableRules
>>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=2)
>>> hand.fold()
Folded(seat=2)
>>> [(m.holder, m.kind, m.amount) for m in poker_movements(hand.events)]
[(2, 'blind', -5), (1, 'blind', -10), (1, 'return', 5), (1, 'award', 10)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from croupier.blackjack import events as bj
from croupier.blackjack.hands import Play
from croupier.errors import CroupierError
from croupier.poker import events as pk

__all__ = ["Movement", "blackjack_movements", "poker_movements"]


@dataclass(frozen=True)
class Movement:
    """Chips that moved: ``holder`` is a poker seat, a blackjack player's name, or None for
    the house; ``amount`` is signed from the holder's side.

    >>> Movement(3, "call", -20).amount
    -20
    """

    holder: int | str | None
    kind: str
    amount: int


def poker_movements(events: Sequence[Any]) -> list[Movement]:
    """The chip movements of a finished poker hand's log, in the order they happened
    (decisions that move no chip, a fold or a check, are not listed).

    >>> from croupier.poker import HandState, TableRules
    >>> hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7)
    >>> hand.fold(); hand.fold()
    Folded(seat=1)
    Folded(seat=2)
    >>> sum(m.amount for m in poker_movements(hand.events))
    0
    """
    out: list[Movement] = []
    bets: dict[int, int] = defaultdict(int)
    start: pk.HandStarted | None = None
    end: pk.HandEnded | None = None
    for event in events:
        match event:
            case pk.HandStarted():
                start = event
            case pk.AntePosted(seat=seat, amount=amount):
                out.append(Movement(seat, "ante", -amount))
            case pk.BlindPosted(seat=seat, amount=amount):
                bets[seat] += amount
                out.append(Movement(seat, "blind", -amount))
            case pk.Called(seat=seat, amount=amount):
                bets[seat] += amount
                out.append(Movement(seat, "call", -amount))
            case pk.RaisedTo(seat=seat, to=to) | pk.BringIn(seat=seat, to=to):
                kind = "bring-in" if isinstance(event, pk.BringIn) else "raise"
                out.append(Movement(seat, kind, -(to - bets[seat])))
                bets[seat] = to
            case pk.BetReturned(seat=seat, amount=amount):
                bets[seat] -= amount
                out.append(Movement(seat, "return", amount))
            case pk.BetsCollected():
                bets.clear()
            case pk.RakeTaken(amount=amount):
                out.append(Movement(None, "rake", amount))
            case pk.PotAwarded(shares=shares):
                out.extend(Movement(seat, "award", chips) for seat, chips in shares)
            case pk.HandEnded():
                end = event
    if start is None or end is None:
        raise CroupierError("chip movements are read from a finished hand's whole log")
    _check(
        out,
        dict(zip(start.seats, start.stacks, strict=True)),
        dict(end.stacks),
        "the hand",
    )
    return out


def blackjack_movements(events: Sequence[Any]) -> list[Movement]:
    """The chip movements of a settled blackjack round's log.

    >>> from croupier.blackjack import NZ, BlackjackRound
    >>> from croupier.cards import Shoe, parse_cards
    >>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("Ts 9c 8d 8h")), {"ann": 50})
    >>> rnd.place_wager(1, "ann", 10); rnd.deal(); rnd.stand()
    >>> [(m.holder, m.kind, m.amount) for m in blackjack_movements(rnd.events)]
    [('ann', 'wager', -10), ('ann', 'settle', 20), (None, 'bank', -10)]
    """
    out: list[Movement] = []
    wagers: dict[tuple[int, str], int] = {}
    hands: dict[int, list[dict[str, int]]] = {}
    start: bj.RoundStarted | None = None
    end: bj.RoundSettled | None = None
    for event in events:
        match event:
            case bj.RoundStarted():
                start = event
            case bj.WagerPlaced(box=box, player=player, amount=amount):
                before = wagers.get((box, player), 0)
                wagers[(box, player)] = amount
                out.append(Movement(player, "wager", before - amount))
            case bj.CardDealt(box=box) if box not in hands:
                hands[box] = [{p: a for (b, p), a in wagers.items() if b == box and a}]
            case bj.InsuranceDecided(player=player, amount=amount) if amount:
                out.append(Movement(player, "insurance", -amount))
            case bj.BoxAction(box=box, hand=index, action=Play.DOUBLE):
                stakes = hands[box][index]
                for player, stake in stakes.items():
                    out.append(Movement(player, "double", -stake))
                    stakes[player] = 2 * stake
            case bj.BoxAction(box=box, hand=index, action=Play.SPLIT):
                stakes = hands[box][index]
                out.extend(Movement(p, "split", -stake) for p, stake in stakes.items())
                hands[box].insert(index + 1, dict(stakes))
            case (
                bj.HandSettled(player=player, stake=stake, net=net)
                | bj.InsuranceSettled(player=player, stake=stake, net=net)
            ):
                out.append(Movement(player, "settle", stake + net))
            case bj.RoundSettled(bank=bank):
                end = event
                out.append(Movement(None, "bank", bank))
    if start is None or end is None:
        raise CroupierError("chip movements are read from a settled round's whole log")
    _check(out, dict(start.bankrolls), dict(end.bankrolls), "the round")
    return out


def _check(
    out: list[Movement],
    start: dict[Any, int],
    end: dict[Any, int],
    what: str,
) -> None:
    """Each holder's movements add up to its change, and all of them to zero."""
    totals: dict[Any, int] = defaultdict(int)
    for movement in out:
        totals[movement.holder] += movement.amount
    for holder, chips in start.items():
        if totals.get(holder, 0) != end.get(holder, chips) - chips:
            raise CroupierError(
                f"{what}'s log moves {totals.get(holder, 0)} chips for {holder!r}, "
                f"but its stack goes from {chips} to {end.get(holder)}"
            )
    if sum(totals.values()):
        raise CroupierError(f"{what}'s chip movements add up to {sum(totals.values())}, not 0")
