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
from croupier.visitor import EventVisitor, visits

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
    return _PokerMovements().visit_all(events)


class _PokerMovements(EventVisitor[list[Movement]]):
    """The chips each poker event moves, checked against the hand's stacks at the end."""

    consumer = "poker chip movements"
    reads = (pk,)
    ignores = (
        pk.CardBoxed,
        pk.CardBurned,
        pk.CardsDealt,
        pk.Checked,
        pk.CommunityDealt,
        pk.Conceded,
        pk.DeckCut,
        pk.Discarded,
        pk.Folded,
        pk.HandMucked,
        pk.HandShown,
        pk.HiddenCards,
        pk.ShowRequested,
        pk.StubRestocked,
    )

    def __init__(self) -> None:
        self.out: list[Movement] = []
        self.bets: dict[int, int] = defaultdict(int)
        self.start: pk.HandStarted | None = None
        self.end: pk.DealEnded | None = None

    @visits(pk.HandStarted)
    def on_started(self, event: pk.HandStarted) -> None:
        self.start = event

    @visits(pk.AntePosted)
    def on_ante(self, event: pk.AntePosted) -> None:
        self.out.append(Movement(event.seat, "ante", -event.amount))

    @visits(pk.BlindPosted)
    def on_blind(self, event: pk.BlindPosted) -> None:
        self.bets[event.seat] += event.amount
        self.out.append(Movement(event.seat, "blind", -event.amount))

    @visits(pk.Called)
    def on_called(self, event: pk.Called) -> None:
        self.bets[event.seat] += event.amount
        self.out.append(Movement(event.seat, "call", -event.amount))

    @visits(pk.RaisedTo)
    def on_raised(self, event: pk.RaisedTo) -> None:
        self._raise(event.seat, "raise", event.to)

    @visits(pk.BringIn)
    def on_bring_in(self, event: pk.BringIn) -> None:
        self._raise(event.seat, "bring-in", event.to)

    def _raise(self, seat: int, kind: str, to: int) -> None:
        self.out.append(Movement(seat, kind, -(to - self.bets[seat])))
        self.bets[seat] = to

    @visits(pk.BetReturned)
    def on_returned(self, event: pk.BetReturned) -> None:
        self.bets[event.seat] -= event.amount
        self.out.append(Movement(event.seat, "return", event.amount))

    @visits(pk.BetsCollected)
    def on_collected(self, event: pk.BetsCollected) -> None:
        self.bets.clear()

    @visits(pk.RakeTaken)
    def on_rake(self, event: pk.RakeTaken) -> None:
        self.out.append(Movement(None, "rake", event.amount))

    @visits(pk.PotAwarded)
    def on_awarded(self, event: pk.PotAwarded) -> None:
        self.out.extend(Movement(seat, "award", chips) for seat, chips in event.shares)

    @visits(pk.DealEnded)
    def on_ended(self, event: pk.DealEnded) -> None:
        self.end = event

    def result(self) -> list[Movement]:
        start, end = self.start, self.end
        if start is None or end is None:
            raise CroupierError("chip movements are read from a finished hand's whole log")
        _check(
            self.out,
            dict(zip(start.seats, start.stacks, strict=True)),
            dict(end.stacks),
            "the hand",
        )
        return self.out


def blackjack_movements(events: Sequence[Any]) -> list[Movement]:
    """The chip movements of a settled blackjack round's log.

    >>> from croupier.blackjack import NZ, BlackjackRound
    >>> from croupier.cards import Shoe, parse_cards
    >>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("Ts 9c 8d 8h")), {"ann": 50})
    >>> rnd.place_wager(1, "ann", 10); rnd.deal(); rnd.stand()
    WagerPlaced(box=1, player='ann', amount=10)
    CardDealt(box=1, hand=0, card=Card('Ts'))
    BoxAction(box=1, hand=0, action=<Play.STAND: 'stand'>)
    >>> [(m.holder, m.kind, m.amount) for m in blackjack_movements(rnd.events)]
    [('ann', 'wager', -10), ('ann', 'settle', 20), (None, 'bank', -10)]
    """
    return _BlackjackMovements().visit_all(events)


class _BlackjackMovements(EventVisitor[list[Movement]]):
    """The chips each blackjack event moves, checked against the bankrolls at the end."""

    consumer = "blackjack chip movements"
    reads = (bj,)
    ignores = (bj.CardBurned, bj.DealerCard, bj.HiddenCard)

    def __init__(self) -> None:
        self.out: list[Movement] = []
        self.wagers: dict[tuple[int, str], int] = {}
        self.hands: dict[int, list[dict[str, int]]] = {}
        self.start: bj.RoundStarted | None = None
        self.end: bj.DealEnded | None = None

    @visits(bj.RoundStarted)
    def on_started(self, event: bj.RoundStarted) -> None:
        self.start = event

    @visits(bj.WagerPlaced)
    def on_wager(self, event: bj.WagerPlaced) -> None:
        key = (event.box, event.player)
        before = self.wagers.get(key, 0)
        self.wagers[key] = event.amount
        self.out.append(Movement(event.player, "wager", before - event.amount))

    @visits(bj.CardDealt)
    def on_dealt(self, event: bj.CardDealt) -> None:
        box = event.box
        if box not in self.hands:  # the box's first card: its stakes are settled
            self.hands[box] = [{p: a for (b, p), a in self.wagers.items() if b == box and a}]

    @visits(bj.InsuranceDecided)
    def on_insurance(self, event: bj.InsuranceDecided) -> None:
        if event.amount:
            self.out.append(Movement(event.player, "insurance", -event.amount))

    @visits(bj.BoxAction)
    def on_action(self, event: bj.BoxAction) -> None:
        if event.action == Play.DOUBLE:
            stakes = self.hands[event.box][event.hand]
            for player, stake in stakes.items():
                self.out.append(Movement(player, "double", -stake))
                stakes[player] = 2 * stake
        elif event.action == Play.SPLIT:
            stakes = self.hands[event.box][event.hand]
            self.out.extend(Movement(p, "split", -stake) for p, stake in stakes.items())
            self.hands[event.box].insert(event.hand + 1, dict(stakes))

    @visits(bj.HandSettled, bj.InsuranceSettled)
    def on_settled(self, event: bj.HandSettled | bj.InsuranceSettled) -> None:
        self.out.append(Movement(event.player, "settle", event.stake + event.net))

    @visits(bj.DealEnded)
    def on_round_settled(self, event: bj.DealEnded) -> None:
        self.end = event
        self.out.append(Movement(None, "bank", event.bank))

    def result(self) -> list[Movement]:
        start, end = self.start, self.end
        if start is None or end is None:
            raise CroupierError("chip movements are read from a settled round's whole log")
        _check(self.out, dict(start.bankrolls), dict(end.bankrolls), "the round")
        return self.out


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
