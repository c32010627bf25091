"""Blackjack bots: the basic strategy derived for the table's rules, and a "gut" player.

Each is a :data:`~croupier.blackjack.policies.Policy` over a
:class:`~croupier.blackjack.views.SeatView`. :func:`basic_strategy_bot` plays the chart
the exact analysis (:mod:`croupier.blackjack.math`) derives for the rules in force, so a
table with other rules gets another chart; :func:`gut_bot` stands on 12 or more, never
doubles, splits or insures — the contrast.

>>> from croupier.blackjack import NZ, BlackjackRound
>>> from croupier.cards import Shoe, parse_cards
>>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("6c 9d 5h Th 8s")), {"ann": 50})
>>> rnd.place_wager(1, "ann", 10); rnd.deal()
WagerPlaced(box=1, player='ann', amount=10)
CardDealt(box=1, hand=0, card=Card('6c'))
>>> basic_strategy_bot(NZ)(rnd.view_for("ann")), gut_bot(rnd.view_for("ann"))
(Double(box=1, hand=0), Hit(box=1, hand=0))
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from croupier.blackjack.actions import Action, DeclineInsurance, Hit, Stand
from croupier.blackjack.policies import BasicStrategy, Policy
from croupier.blackjack.rules import NZ, BlackjackRules
from croupier.blackjack.views import SeatView
from croupier.errors import CroupierError

__all__ = ["BLACKJACK_BOTS", "basic_strategy_bot", "gut_bot"]


_TABLE_ONLY: dict[str, object] = {
    "table_minimum": NZ.table_minimum,
    "table_maximum": NZ.table_maximum,
    "boxes": NZ.boxes,
}
"""The rules of the table, not of the play: a chart does not depend on them."""


@cache
def basic_strategy_bot(rules: BlackjackRules = NZ) -> BasicStrategy:
    """The basic strategy the exact analysis derives for ``rules``, as a bot that never
    insures. Under the NZ rules of play (whatever the limits and boxes) that is
    :data:`~croupier.blackjack.math.strategy.NZ_BASIC_STRATEGY`, read as it is; other
    rules are analysed once per rule set (about a second and a half, and numba).

    >>> basic_strategy_bot(NZ).rules is NZ
    True
    >>> basic_strategy_bot(NZ.with_(boxes=3, table_minimum=5)).chart == basic_strategy_bot(NZ).chart
    True
    """
    from croupier.blackjack.math.strategy import NZ_BASIC_STRATEGY

    if rules.with_(**_TABLE_ONLY) == NZ:
        return BasicStrategy(NZ_BASIC_STRATEGY, rules)
    from croupier.blackjack.math.analysis import Analysis  # numba: loaded on first use

    return BasicStrategy(Analysis(rules).basic_strategy(), rules)


def gut_bot(view: SeatView) -> Action:
    """Stand on 12 or more, hit below; never insure, double, split or surrender.

    >>> from croupier.blackjack import NZ, BlackjackRound
    >>> from croupier.cards import Shoe, parse_cards
    >>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("Tc 9d 2h Th 8s")), {"ann": 50})
    >>> rnd.place_wager(1, "ann", 10); rnd.deal()
    WagerPlaced(box=1, player='ann', amount=10)
    CardDealt(box=1, hand=0, card=Card('Tc'))
    >>> gut_bot(rnd.view_for("ann"))     # 10 + 2 = 12: stand
    Stand(box=1, hand=0)
    """
    actor, legal = view.actor, view.legal
    if actor is None or legal is None or not view.my_turn:
        raise CroupierError(f"{view.player!r} is not to decide: no action to choose")
    if actor.hand is None:
        return DeclineInsurance(box=actor.box, player=actor.player)
    hand = view.box(actor.box).hands[actor.hand]
    if legal.hit and (hand.total < 12 or not legal.stand):
        return Hit(box=actor.box, hand=actor.hand)
    return Stand(box=actor.box, hand=actor.hand)


def _basic(rules: BlackjackRules) -> Policy:
    return basic_strategy_bot(rules)


def _gut(rules: BlackjackRules) -> Policy:
    return gut_bot


BLACKJACK_BOTS: dict[str, Callable[[BlackjackRules], Policy]] = {
    "default": _basic,
    "basic": _basic,
    "gut": _gut,
}
"""The ``--bot-style`` names at a blackjack table: each makes a bot for the table's rules."""
