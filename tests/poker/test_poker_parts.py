"""The poker referee is built from parts, not mixins (issue 25, point 2).

``HandState`` holds a :class:`~croupier.poker._core.HandCore` (the facts every part shares)
and composes a :class:`~croupier.poker.betting.BettingRound`, a
:class:`~croupier.poker.dealing.Dealer`, the showdown's functions and the
:class:`~croupier.poker.views.SeatViews`: no part inherits from another, and no module reads
another object's private fields, but for a class building its own instance (a copy, a replay).
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from croupier.poker import HandState, TableRules, _core, betting, dealing, showdown, state, views

PARTS = (_core, betting, dealing, showdown, state, views)

OWN_INSTANCE = {
    ("state", "new"),  # HandState.copy builds its twin
    ("state", "state"),  # HandState.replay builds the hand it replays
    ("dealing", "twin"),  # Dealer.copy
    ("views", "SeatView"),  # the module fills in its own class's table of event types
}
"""(module, name): private fields read on an instance the same class has just built."""


def private_reads(module: object) -> set[tuple[str, str]]:
    tree = ast.parse(Path(inspect.getfile(module)).read_text())  # type: ignore[arg-type]
    reads = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        if not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        owner = ast.unparse(node.value)
        if owner not in ("self", "cls"):
            reads.add((owner, node.attr))
    return reads


@pytest.mark.parametrize("module", PARTS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_no_part_reads_another_objects_private_fields(module: object) -> None:
    name = module.__name__.rsplit(".", 1)[-1]  # type: ignore[attr-defined]
    strays = {
        (owner, attr) for owner, attr in private_reads(module) if (name, owner) not in OWN_INSTANCE
    }
    assert strays == set()


def test_the_hand_is_composed_not_mixed_in() -> None:
    assert HandState.__mro__ == (HandState, object)
    for part in (_core.HandCore, betting.BettingRound, dealing.Dealer, views.SeatViews):
        assert part.__mro__ == (part, object)
    hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7)
    facts = hand._core
    assert hand._betting.core is facts
    assert hand._dealer.core is facts
    assert hand._views.core is facts
    assert hand.players is facts.players
    assert hand.deck is hand._dealer.deck


def test_a_copy_shares_no_part_with_its_original() -> None:
    hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7)
    twin = hand.copy()
    for part in ("_core", "_betting", "_dealer", "_views"):
        assert getattr(twin, part) is not getattr(hand, part)
    assert twin._betting.core is twin._core
    assert twin._dealer.core is twin._core
    twin.fold()
    assert hand.actor == 1
    assert twin.actor == 2
    assert twin.deck.remaining == hand.deck.remaining  # the same cards to come
