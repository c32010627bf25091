"""The rule registry: every rule of ``../shared/rules`` as data.

The registry lives in ``registry.toml`` beside this module, one ``[[rule]]`` table per rule or
decision of the rules digest. :func:`load_registry` reads it into frozen :class:`Rule` records;
:meth:`Registry.get` finds a rule by its canonical id or any alias. This is the runtime half:
the referees cite these ids in their errors. Which tests check each rule is developer tooling,
in :mod:`croupier.rules.coverage`.

>>> registry = load_registry()
>>> rule = registry.get("Poker 17.6(f)")
>>> rule.id, rule.provenance, rule.kind
('Omaha 17.6(f)', <Provenance.SEED: 'SEED'>, <Kind.RULE: 'rule'>)
"""

from __future__ import annotations

import difflib
import functools
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from croupier.errors import CroupierError

__all__ = [
    "Game",
    "Kind",
    "Provenance",
    "Registry",
    "RegistryError",
    "Rule",
    "UnknownRuleError",
    "load_registry",
]


class Provenance(StrEnum):
    """Where a rule's text comes from, as tagged in the rules digest.

    >>> Provenance("SAME-ISSUE") is Provenance.SAME_ISSUE
    True
    >>> str(Provenance.INFERRED)
    'INFERRED'
    """

    SEED = "SEED"
    """One of the five Gazette pages kept beside the digest."""
    SAME_ISSUE = "SAME-ISSUE"
    """Another page of the same Gazette issue (1999 No 11)."""
    NZ_RELATED = "NZ-RELATED"
    """Another official NZ notice of the same rule family."""
    NZ_PRACTICE = "NZ-PRACTICE"
    """A NZ casino's public how-to-play page, not rule text."""
    INFERRED = "INFERRED"
    """Found in no source: an implementer's default, to be documented."""


class Game(StrEnum):
    """The game a rule belongs to.

    >>> Game("blackjack") == "blackjack"
    True
    """

    POKER = "poker"
    BLACKJACK = "blackjack"


class Kind(StrEnum):
    """A rule of the text, or a decision the text leaves to the implementer (digest section 3).

    >>> [str(kind) for kind in Kind]
    ['rule', 'decision']
    """

    RULE = "rule"
    DECISION = "decision"


class RegistryError(CroupierError):
    """``registry.toml`` is malformed: a missing or bad field, or an id used twice.

    >>> Registry([_rule("Poker 18.1"), _rule("Poker 18.1")])
    Traceback (most recent call last):
    ...
    croupier.rules.registry.RegistryError: rule name 'Poker 18.1' is used twice
    """


class UnknownRuleError(CroupierError):
    """No rule has this id or alias; ``suggestion`` is the closest known name, if any.

    >>> try:
    ...     load_registry().get("Omaha 17.6f")
    ... except UnknownRuleError as exc:
    ...     print(exc)
    ...     print(exc.suggestion)
    unknown rule 'Omaha 17.6f'; did you mean 'Omaha 17.6(f)'?
    Omaha 17.6(f)
    """

    def __init__(self, name: str, suggestion: str | None = None) -> None:
        self.name = name
        self.suggestion = suggestion
        text = f"unknown rule {name!r}"
        if suggestion is not None:
            text += f"; did you mean {suggestion!r}?"
        super().__init__(text)


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule or decision of the registry.

    >>> rule = load_registry().get("Blackjack 11.7")
    >>> rule.game, rule.section, rule.issue
    (<Game.BLACKJACK: 'blackjack'>, 'Splitting pairs', 'blackjack-engine')
    >>> rule.names
    ('Blackjack 11.7',)
    """

    id: str
    """Canonical citation, ``"<Game> <number>"`` (e.g. ``"Omaha 17.6(f)"``)."""
    aliases: tuple[str, ...]
    """Other names that resolve to this rule (e.g. ``"Poker 17.6(f)"``)."""
    game: Game
    section: str
    """The part of the rules the entry belongs to (e.g. ``"Omaha"``, ``"Decisions"``)."""
    summary: str
    """One paraphrased line; never Gazette text."""
    provenance: Provenance
    kind: Kind
    issue: str | None = None
    """The project area that implements it, if assigned (one of
    :data:`croupier.rules.coverage.ISSUES`, checked by the tests, not at load time)."""

    @property
    def names(self) -> tuple[str, ...]:
        """The canonical id followed by every alias.

        >>> load_registry().get("Omaha 17.6(a)").names
        ('Omaha 17.6(a)', 'Poker 17.6(a)')
        """
        return (self.id, *self.aliases)


def _normal(name: str) -> str:
    """Lookup key: case-folded, single-spaced, straight apostrophes."""
    return " ".join(name.replace("\u2019", "'").split()).casefold()


class Registry:
    """The loaded rules, in file order, looked up by canonical id or alias.

    >>> registry = load_registry()
    >>> "Omaha 17.6(f)" in registry, "Omaha 17.6(z)" in registry
    (True, False)
    >>> next(iter(registry)).id
    'Poker definitions: All-in'
    >>> len(registry) == len(list(registry))
    True
    """

    __slots__ = ("_by_name", "_by_normal", "_rules")

    def __init__(self, rules: Iterable[Rule]) -> None:
        self._rules: tuple[Rule, ...] = tuple(rules)
        self._by_name: dict[str, Rule] = {}
        self._by_normal: dict[str, Rule] = {}
        for rule in self._rules:
            for name in rule.names:
                key = _normal(name)
                if name in self._by_name or key in self._by_normal:
                    raise RegistryError(f"rule name {name!r} is used twice")
                self._by_name[name] = rule
                self._by_normal[key] = rule

    def __iter__(self) -> Iterator[Rule]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and _normal(name) in self._by_normal

    def __repr__(self) -> str:
        return f"<Registry of {len(self._rules)} rules>"

    def get(self, name: str) -> Rule:
        """The rule with this canonical id or alias (case and spacing are not significant).

        >>> load_registry().get("poker  12.2(A)").id
        'Five Card Stud 12.2(a)'
        >>> load_registry().get("Blackjak 11.7")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        croupier.rules.registry.UnknownRuleError: ... did you mean 'Blackjack 11.7'?
        """
        rule = self._by_name.get(name)
        if rule is None:
            rule = self._by_normal.get(_normal(name))
        if rule is None:
            raise UnknownRuleError(name, self._suggest(name))
        return rule

    def _suggest(self, name: str) -> str | None:
        """The known name closest to ``name``, if any is reasonably close."""
        originals = {_normal(known): known for known in self._by_name}
        close = difflib.get_close_matches(_normal(name), list(originals), n=1, cutoff=0.6)
        return originals[close[0]] if close else None

    @property
    def ids(self) -> tuple[str, ...]:
        """Every canonical id, in file order.

        >>> load_registry().ids[:2]
        ('Poker definitions: All-in', 'Poker definitions: Ante')
        """
        return tuple(rule.id for rule in self._rules)

    def by_game(self, game: Game | str) -> tuple[Rule, ...]:
        """The rules of one game (``"poker"`` or ``"blackjack"``), in file order.

        >>> {rule.game for rule in load_registry().by_game("blackjack")}
        {<Game.BLACKJACK: 'blackjack'>}
        >>> load_registry().by_game("bridge")
        Traceback (most recent call last):
        ...
        croupier.rules.registry.RegistryError: unknown game 'bridge'; expected poker or blackjack
        """
        try:
            wanted = Game(game)
        except ValueError:
            raise RegistryError(f"unknown game {game!r}; expected {' or '.join(Game)}") from None
        return tuple(rule for rule in self._rules if rule.game is wanted)


def _rule(rule_id: str, **fields: Any) -> Rule:
    """A rule with placeholder fields, for examples."""
    values: dict[str, Any] = {
        "aliases": (),
        "game": Game.POKER,
        "section": "General",
        "summary": "-",
        "provenance": Provenance.SEED,
        "kind": Kind.RULE,
    }
    values.update(fields)
    return Rule(id=rule_id, **values)


_E = TypeVar("_E", bound=StrEnum)

_FIELDS = frozenset({"id", "aliases", "game", "section", "summary", "provenance", "kind", "issue"})


def _text_field(table: Mapping[str, Any], key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value.strip():
        raise RegistryError(f"{where}: {key!r} must be a non-empty string")
    return value


def _enum_field(table: Mapping[str, Any], key: str, enum: type[_E], where: str) -> _E:
    value = _text_field(table, key, where)
    try:
        return enum(value)
    except ValueError:
        choices = ", ".join(member.value for member in enum)
        raise RegistryError(f"{where}: {key} {value!r} is not one of {choices}") from None


def _parse_rule(table: object, number: int) -> Rule:
    """One ``[[rule]]`` table as a :class:`Rule`; ``number`` counts from 1 for messages."""
    where = f"rule #{number}"
    if not isinstance(table, dict):
        raise RegistryError(f"{where}: expected a table")
    if isinstance(table.get("id"), str):
        where += f" ({table['id']})"
    unknown = sorted(set(table) - _FIELDS)
    if unknown:
        raise RegistryError(f"{where}: unknown field(s) {', '.join(unknown)}")
    aliases = table.get("aliases", [])
    if not isinstance(aliases, list) or not all(
        isinstance(alias, str) and alias.strip() for alias in aliases
    ):
        raise RegistryError(f"{where}: 'aliases' must be a list of non-empty strings")
    issue = table.get("issue")
    if issue is not None and not (isinstance(issue, str) and issue.strip()):
        raise RegistryError(f"{where}: 'issue' must be a non-empty string")
    return Rule(
        id=_text_field(table, "id", where),
        aliases=tuple(aliases),
        game=_enum_field(table, "game", Game, where),
        section=_text_field(table, "section", where),
        summary=_text_field(table, "summary", where),
        provenance=_enum_field(table, "provenance", Provenance, where),
        kind=_enum_field(table, "kind", Kind, where),
        issue=issue,
    )


def _parse_registry(text: str, source: str) -> Registry:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RegistryError(f"{source}: not valid TOML: {exc}") from None
    tables = data.get("rule")
    if not isinstance(tables, list) or not tables:
        raise RegistryError(f"{source}: no [[rule]] tables")
    try:
        return Registry(_parse_rule(table, number) for number, table in enumerate(tables, 1))
    except RegistryError as exc:
        raise RegistryError(f"{source}: {exc}") from None


@functools.cache
def _packaged_registry() -> Registry:
    text = resources.files("croupier.rules").joinpath("registry.toml").read_text("utf-8")
    return _parse_registry(text, "registry.toml")


def load_registry(path: Path | None = None) -> Registry:
    """Read the registry: the packaged ``registry.toml`` (cached), or the TOML file at ``path``.

    >>> registry = load_registry()
    >>> sum(rule.kind == "decision" for rule in registry)
    32
    >>> load_registry() is registry
    True
    """
    if path is None:
        return _packaged_registry()
    return _parse_registry(Path(path).read_text("utf-8"), str(path))
