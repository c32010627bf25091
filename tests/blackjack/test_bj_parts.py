"""The blackjack referee is composed of parts with explicit interfaces (issue 25, point 2).

* No module of :mod:`croupier.blackjack` reads another object's private field: an
  attribute ``x._name`` where ``x`` is not ``self`` or ``cls`` must be a name the module
  itself defines (its own class's field or method, a module-level name). Parts talk
  through public methods and properties.
* :class:`~croupier.blackjack.round.BlackjackRound` is not built from mixins: its only
  base is ``object``, and it holds its parts.
* The kept seat views (:class:`~croupier.blackjack.views.SeatViews`) equal views built
  afresh, boxes and legal actions included, at every step of random rounds.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import croupier.blackjack as package
from croupier.blackjack import NZ, BlackjackRound, HoleCard
from croupier.blackjack.views import seat_view
from croupier.cards import Shoe, full_deck

PACKAGE = Path(package.__file__).parent
MODULES = sorted(PACKAGE.rglob("*.py"))


def _own_names(tree: ast.Module) -> set[str]:
    """Every name a module defines: functions, classes, module-level names, fields set on
    ``self`` or ``cls``, ``__slots__`` entries, class-level annotations."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
        ):
            for item in ast.walk(node.value):
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    names.add(item.value)
    return names


def _foreign_private_reads(source: str) -> list[tuple[int, str]]:
    """``(line, name)`` of every read or write of another object's private field."""
    tree = ast.parse(source)
    own = _own_names(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if not name.startswith("_") or (name.startswith("__") and name.endswith("__")):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        if name in own:
            continue  # the module's own private name (its class's field, on another instance)
        found.append((node.lineno, name))
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_reads_another_objects_private_field(path: Path) -> None:
    assert _foreign_private_reads(path.read_text(encoding="utf-8")) == []


def test_the_scan_finds_a_private_read() -> None:
    """The scan itself: reading or setting another module's private field is found; a
    module's own private names on another instance of its class are not."""
    source = """
class Part:
    __slots__ = ("_kept",)

    def same(self, other: "Part") -> object:
        return other._kept


def undo(rnd, saved):
    rnd._turn = saved
    return rnd._most_drawn
"""
    assert _foreign_private_reads(source) == [(10, "_turn"), (11, "_most_drawn")]


def test_the_round_holds_its_parts_rather_than_inherits_them() -> None:
    assert BlackjackRound.__bases__ == (object,)
    rnd = BlackjackRound(NZ, Shoe(6, seed=1), {"ann": 50})
    parts = {type(v).__name__ for v in vars(rnd).values()}
    assert {"Wagers", "HandPlays", "SeatViews"} <= parts


@pytest.mark.parametrize("seed", range(40))
def test_kept_views_equal_views_built_afresh(seed: int) -> None:
    """Every seat and a spectator, after every action of a random round (several boxes,
    splits, doubles, insurance, a peek game): the kept view equals one built afresh."""
    rng = random.Random(seed)
    rules = NZ.with_(hole_card=HoleCard.PEEK) if seed % 2 else NZ
    cards = list(full_deck()) * 6
    rng.shuffle(cards)
    rnd = BlackjackRound(rules, Shoe(6, cards=cards), {"ann": 500, "bo": 300, "cy": 200})
    rnd.place_wager(1, "ann", 20)
    rnd.place_wager(3, "bo", 10)
    if rng.random() < 0.5:
        rnd.place_wager(5, "cy", 10)
    if rng.random() < 0.3:
        rnd.withdraw_wager(3, "bo")
    rnd.deal()
    viewers = ("ann", "bo", "cy", None)
    while True:
        for viewer in viewers:
            assert rnd.view_for(viewer) == seat_view(rnd, viewer)
        if rnd.is_complete:
            break
        choices = list(rnd.legal_actions())
        rnd.apply(rng.choice(choices))
