"""Blackjack players: a policy sees a :class:`~croupier.blackjack.views.SeatView` and answers
with an :class:`~croupier.blackjack.actions.Action` — never the round, never the shoe.

One type for every bot, as in poker: ``Policy = Callable[[SeatView], Action]``.
:class:`BasicStrategy` plays a strategy chart (the one the exact analysis derives), exactly
as the compiled simulator does; :func:`mimic_the_dealer` needs no math at all.

>>> from croupier.blackjack import NZ, BlackjackRound
>>> from croupier.cards import Shoe, parse_cards
>>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("6c 9d 5h Th 8s")), {"ann": 50})
>>> rnd.place_wager(1, "ann", 10); rnd.deal()
WagerPlaced(box=1, player='ann', amount=10)
CardDealt(box=1, hand=0, card=Card('6c'))
>>> mimic_the_dealer(rnd.view_for("ann"))
Hit(box=1, hand=0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from croupier.blackjack.actions import (
    Action,
    DeclineInsurance,
    Double,
    HandAction,
    Hit,
    Insure,
    LegalPlays,
    Split,
    Stand,
    Surrender,
)
from croupier.blackjack.hands import Turn
from croupier.blackjack.rules import NZ, BlackjackRules, PairsBy
from croupier.blackjack.values import card_value, is_pair
from croupier.blackjack.views import HandView, SeatView
from croupier.errors import CroupierError

if TYPE_CHECKING:
    from croupier.blackjack.math.strategy import StrategyChart

__all__ = ["BasicStrategy", "Policy", "mimic_the_dealer"]

Policy = Callable[[SeatView], Action]
"""A player: given what it may see, one action (when it is the one to decide)."""


def _turn(view: SeatView) -> tuple[Turn, LegalPlays]:
    if view.actor is None or view.legal is None or not view.my_turn:
        raise CroupierError(f"{view.player!r} is not to decide: no action to choose")
    return view.actor, view.legal


def _hand(view: SeatView, actor: Turn) -> HandView:
    assert actor.hand is not None
    return view.box(actor.box).hands[actor.hand]


def mimic_the_dealer(view: SeatView) -> Action:
    """Hit below 17, stand on 17 or more; never insure, double, split or surrender.

    >>> from croupier.blackjack import NZ, BlackjackRound
    >>> from croupier.cards import Shoe
    >>> rnd = BlackjackRound(NZ, Shoe(6, seed=8), {"ann": 50}); rnd.place_wager(1, "ann", 10); rnd.deal()
    WagerPlaced(box=1, player='ann', amount=10)
    CardDealt(box=1, hand=0, card=Card('5c'))
    >>> while not rnd.is_complete:
    ...     _ = rnd.apply(mimic_the_dealer(rnd.view_for("ann")))
    >>> sum(rnd.payoffs().values()) == -rnd.bank
    True
    """
    actor = view.actor
    legal = view.legal
    if actor is None or legal is None or actor.player != view.player:  # as _turn() says
        raise CroupierError(f"{view.player!r} is not to decide: no action to choose")
    number, index = actor.box, actor.hand
    if index is None:
        key = (number, actor.player)
        decline = _DECLINES.get(key)
        if decline is None:
            if len(_DECLINES) >= 1024:
                _DECLINES.clear()
            decline = _DECLINES[key] = DeclineInsurance(box=number, player=actor.player)
        return decline
    for box in view.boxes:  # view.box(number), inline
        if box.number == number:
            hand = box.hands[index]
            break
    else:
        hand = view.box(number).hands[index]  # raises: no such box
    kind: type[HandAction] = Stand
    if legal.hit and (hand.total < 17 or not legal.stand):
        kind = Hit
    action = _DECISIONS.get((kind, number, index))
    return _decision(kind, number, index) if action is None else action


_DECISIONS: dict[tuple[type[HandAction], int, int], HandAction] = {}
"""Decisions already made, by kind, box and hand: an action is a frozen value, so a policy
hands out the same one again rather than build it at every decision."""


_DECLINES: dict[tuple[int, str], DeclineInsurance] = {}
"""Insurance declined, by box and player (as :data:`_DECISIONS`)."""


def _decision(kind: type[HandAction], box: int, hand: int) -> HandAction:
    key = (kind, box, hand)
    action = _DECISIONS.get(key)
    if action is None:
        if len(_DECISIONS) >= 1024:
            _DECISIONS.clear()
        action = _DECISIONS[key] = kind(box=box, hand=hand)
    return action


@dataclass(frozen=True)
class BasicStrategy:
    """Play ``chart`` (see :mod:`croupier.blackjack.math.strategy`) under ``rules``: the same
    decisions as the compiled simulator; with ``insure``, take the full insurance.

    >>> from croupier.blackjack import NZ, Analysis, BlackjackRound
    >>> from croupier.cards import Shoe, parse_cards
    >>> bot = BasicStrategy(Analysis(NZ).basic_strategy())
    >>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("6c 9d 5h Th 8s")), {"ann": 50})
    >>> rnd.place_wager(1, "ann", 10); rnd.deal()
    WagerPlaced(box=1, player='ann', amount=10)
    CardDealt(box=1, hand=0, card=Card('6c'))
    >>> bot(rnd.view_for("ann"))             # 11 against a 9: double
    Double(box=1, hand=0)
    """

    chart: StrategyChart
    """The strategy chart."""
    rules: BlackjackRules = NZ
    """The table's rules (what makes a pair)."""
    insure: bool = False
    """Take insurance (for the most allowed) rather than decline it."""

    def __call__(self, view: SeatView) -> Action:
        """The chart's action for the decision ``view`` shows."""
        from croupier.blackjack.math._policy import DOUBLE, SPLIT, STAND, SURRENDER, decide

        actor, legal = _turn(view)
        if actor.hand is None:
            if self.insure and legal.insure is not None:
                return Insure(legal.insure[1], box=actor.box, player=actor.player)
            return DeclineInsurance(box=actor.box, player=actor.player)
        hand = _hand(view, actor)
        fresh = len(hand.cards) == 2 and not hand.acted
        by_rank = self.rules.pairs_by is PairsBy.RANK
        pair = fresh and is_pair(*hand.cards, by_rank=by_rank)
        act = decide(
            self.chart.cells,
            card_value(view.dealer[0]),
            hand.total,
            hand.soft,
            card_value(hand.cards[0]) if pair else 0,
            legal.split,
            legal.double,
            legal.surrender,
        )
        kind: type[HandAction] = Hit
        if act == SPLIT:
            kind = Split
        elif act == DOUBLE:
            kind = Double
        elif act == SURRENDER:
            kind = Surrender
        elif act == STAND or not legal.hit:
            kind = Stand
        return _decision(kind, actor.box, actor.hand)
