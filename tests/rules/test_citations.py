"""Every rule id cited in the code is a registry id: a walk over the source's citations."""

from __future__ import annotations

from pathlib import Path

import pytest

from croupier.poker.games import GAMES
from croupier.rules import Registry, load_registry
from croupier.rules.citations import Citation, scan_source, scan_tree

SRC = Path(__file__).resolve().parents[2] / "src" / "croupier"

KNOWN_NON_IDS: frozenset[tuple[str, str]] = frozenset()
"""Citations that are not registry ids yet, each in another owner's file (to be fixed there)."""

KNOWN_SOURCE_NON_IDS: frozenset[str] = frozenset()
"""``GameSpec.source`` entries that are not registry ids (none: every source is an id)."""


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_registry()


@pytest.fixture(scope="module")
def citations(registry: Registry) -> list[Citation]:
    # croupier/rules/ is the registry and its tooling: its examples cite unknown ids on purpose
    return [c for c in scan_tree(SRC, registry) if not c.path.startswith("rules/")]


def test_the_walk_finds_the_code_s_citations(citations: list[Citation]) -> None:
    assert len(citations) > 200
    for package in ("poker/", "blackjack/", "phh/", "evaluation/"):
        assert any(c.path.startswith(package) and c.rule for c in citations), package
    assert any(c.whole and c.rule for c in citations)  # e.g. RuleViolationError("Omaha ...")
    assert any(c.comment for c in citations)
    assert any(c.dynamic for c in citations)  # f"Omaha 17.6({letter})", checked below instead


def test_every_cited_rule_id_is_a_registry_id(citations: list[Citation]) -> None:
    bad = [c for c in citations if not c.ok]
    new = [f"{c.where}: {c.text!r}" for c in bad if (c.path, c.text) not in KNOWN_NON_IDS]
    assert not new, "rule citations that are not registry ids:\n  " + "\n  ".join(new)


def test_game_sources_and_limit_rules_resolve(registry: Registry) -> None:
    """The citations the code builds at run time (f-strings), checked on their values."""
    unknown: list[str] = []
    for spec in GAMES.values():
        for letter in "abcdef":
            assert spec.limit_rule(letter) in registry, (spec.name, letter)
        unknown += [source for source in spec.source if source not in registry]
    assert set(unknown) <= KNOWN_SOURCE_NON_IDS, sorted(set(unknown) - KNOWN_SOURCE_NON_IDS)


# --- the walk itself --------------------------------------------------------------------------


def test_every_registry_name_is_found_as_written(registry: Registry) -> None:
    """Alone in a string, or inside a sentence, each citable name resolves to its rule."""
    plain_names = ("Draw voluntary blind", "Blackjack dealer drawing rule")  # no rule number
    for rule in registry:
        for name in rule.names:
            alone = scan_source(repr(name), registry=registry)
            if name in plain_names:
                assert alone == [], name
                continue
            assert [(c.text, c.rule, c.whole) for c in alone] == [(name, rule.id, True)], name
            if " as " not in name:  # "Blackjack 3.1 as amended" reads as 3.1 inside prose
                inside = scan_source(repr(f"see {name}; then stop"), registry=registry)
                assert [c.rule for c in inside] == [rule.id], name


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('raise E("Omaha 17.6(z)", "x")', [("Omaha 17.6(z)", False)]),
        ('"Omaha 17.6"', [("Omaha 17.6", False)]),  # a literal citing a section is no id
        ('"bets above the Omaha 17.6 limits"', [("Omaha 17.6", True)]),  # prose may
        ('"17.6(c)-(d) and Poker 11.x(c),(d)"', [("Poker 11.x(c)", True), ("Poker 11.x(d)", True)]),
        ('"Omaha 17.6(c)-(d)"', [("Omaha 17.6(c)", True), ("Omaha 17.6(d)", True)]),
        ("# the cap (Poker definitions: All-in) holds", [("Poker definitions: All-in", True)]),
        ('"Poker definitions: Boxed Cards"', [("Poker definitions: Boxed", False)]),
        ('"Blackjack 13 (dealer drawing)"', [("Blackjack 13 (dealer drawing)", True)]),
        ('"as Blackjack 13 (dealer drawing) says"', [("Blackjack 13", True)]),
        ('"Seven Card Stud 13 (inferred)"', [("Seven Card Stud 13 (inferred)", False)]),
        ('"Blackjack 3.1 as amended"', [("Blackjack 3.1 as amended", True)]),
        ('"Blackjack 3.1 as amended says"', [("Blackjack 3.1", True)]),
        ('f"Omaha 17.6({letter})"', [("Omaha 17.6", True)]),  # dynamic: checked at run time
        ('"NoOmaha 17.6(d)", "Omaha is a game", "Decision to fold"', []),
    ],
)
def test_citation_forms(source: str, expected: list[tuple[str, bool]], registry: Registry) -> None:
    found = scan_source(source, registry=registry)
    assert [(c.text, c.ok) for c in found] == expected


def test_lines_point_at_the_citation(registry: Registry) -> None:
    source = 'x = 1\n"""Doc.\n\nSee Draw 11.x(c).\n"""\ny = "Blackjack 11.7"  # Omaha 17.6(f)\n'
    found = scan_source(source, "m.py", registry)
    assert [(c.where, c.rule, c.comment) for c in found] == [
        ("m.py:4", "Draw 11.x(c)", False),
        ("m.py:6", "Blackjack 11.7", False),
        ("m.py:6", "Omaha 17.6(f)", True),
    ]
