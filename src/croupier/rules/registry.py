"""The rule registry: every rule of ``../shared/rules`` as data, and which tests check each one.

The registry lives in ``registry.toml`` beside this module, one ``[[rule]]`` table per rule or
decision of the rules digest. :func:`load_registry` reads it into frozen :class:`Rule` records;
:meth:`Registry.get` finds a rule by its canonical id or any alias.

:func:`collect_rule_tests` reads test files *statically* (with :mod:`ast`, nothing is imported)
and maps each rule to the pytest node ids of the tests marked ``@pytest.mark.rule("<id>")``.
:func:`rule_status` turns that into a rule's status: ``tested``, ``decision`` or ``not yet``.

>>> registry = load_registry()
>>> rule = registry.get("Poker 17.6(f)")
>>> rule.id, rule.provenance, rule.kind
('Omaha 17.6(f)', <Provenance.SEED: 'SEED'>, <Kind.RULE: 'rule'>)
"""

from __future__ import annotations

import ast
import difflib
import functools
import os
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from croupier.errors import CroupierError

__all__ = [
    "ISSUES",
    "Game",
    "Kind",
    "Provenance",
    "Registry",
    "RegistryError",
    "Rule",
    "Status",
    "UnknownRuleError",
    "collect_rule_tests",
    "find_project_root",
    "load_registry",
    "rule_status",
]

ISSUES: frozenset[str] = frozenset(
    {"foundation", "poker-engine", "blackjack-engine", "blackjack-math"}
)
"""The project areas a rule's ``issue`` may name."""


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


class Status(StrEnum):
    """How far the project has got with a rule (see :func:`rule_status`).

    >>> Status.NOT_YET.value
    'not yet'
    """

    TESTED = "tested"
    """At least one test carries a ``rule`` marker naming it."""
    DECISION = "decision"
    """An untested decision or inferred rule whose chosen default is in ``docs/decisions.md``."""
    NOT_YET = "not yet"
    """Neither tested nor documented."""


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
    """The project area that implements it, one of :data:`ISSUES`, if assigned."""

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
    if issue is not None and issue not in ISSUES:
        raise RegistryError(f"{where}: issue {issue!r} is not one of {', '.join(sorted(ISSUES))}")
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


# ---------------------------------------------------------------------------------------------
# Static scan of test files for @pytest.mark.rule(...)
# ---------------------------------------------------------------------------------------------


class _Names:
    """How one test module spells ``pytest``, ``pytest.mark`` and ``pytest.param``."""

    def __init__(self, tree: ast.Module) -> None:
        self.pytest = {"pytest"}
        self.mark = set[str]()
        self.param = set[str]()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == "pytest":
                        self.pytest.add(alias.asname or "pytest")
            elif isinstance(node, ast.ImportFrom) and node.module == "pytest":
                for alias in node.names:
                    if alias.name == "mark":
                        self.mark.add(alias.asname or "mark")
                    elif alias.name == "param":
                        self.param.add(alias.asname or "param")

    def is_mark(self, node: ast.expr) -> bool:
        """``pytest.mark`` (or ``mark`` imported from pytest)."""
        if isinstance(node, ast.Name):
            return node.id in self.mark
        return (
            isinstance(node, ast.Attribute)
            and node.attr == "mark"
            and isinstance(node.value, ast.Name)
            and node.value.id in self.pytest
        )

    def mark_call(self, node: ast.expr, name: str) -> ast.Call | None:
        """``node`` if it is ``pytest.mark.<name>(...)``."""
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == name
            and self.is_mark(node.func.value)
        ):
            return node
        return None

    def is_param(self, node: ast.expr) -> bool:
        """``pytest.param`` (or ``param`` imported from pytest)."""
        if isinstance(node, ast.Name):
            return node.id in self.param
        return (
            isinstance(node, ast.Attribute)
            and node.attr == "param"
            and isinstance(node.value, ast.Name)
            and node.value.id in self.pytest
        )

    def rule_ids(self, marks: ast.expr | None) -> list[str]:
        """The rule ids named by a mark expression: one mark, or a list/tuple of marks."""
        if marks is None:
            return []
        items = marks.elts if isinstance(marks, ast.List | ast.Tuple) else [marks]
        found: list[str] = []
        for item in items:
            call = self.mark_call(item, "rule")
            if call is not None:
                found += [
                    arg.value
                    for arg in call.args
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                ]
        return found


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((kw.value for kw in call.keywords if kw.arg == name), None)


def _str_constant(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _pytestmark(body: Sequence[ast.stmt], names: _Names) -> list[str]:
    """Rule ids of ``pytestmark = ...`` assignments in a module or class body."""
    found: list[str] = []
    targets: list[ast.expr]
    value: ast.expr | None
    for stmt in body:
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign):
            targets, value = [stmt.target], stmt.value
        else:
            continue
        if any(isinstance(target, ast.Name) and target.id == "pytestmark" for target in targets):
            found += names.rule_ids(value)
    return found


def _decorator_rules(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, names: _Names
) -> list[str]:
    found: list[str] = []
    for decorator in node.decorator_list:
        found += names.rule_ids(decorator)
    return found


def _param_rules(
    func: ast.FunctionDef | ast.AsyncFunctionDef, names: _Names
) -> list[tuple[str, str | None]]:
    """``(rule id, parameter id or None)`` for marks inside ``pytest.param(..., marks=...)``.

    The parameter id is known only when written out (``id=`` or a literal ``ids=`` list) and
    the function has a single ``parametrize``; otherwise it is ``None`` (the whole function).
    """
    calls = [call for dec in func.decorator_list if (call := names.mark_call(dec, "parametrize"))]
    found: list[tuple[str, str | None]] = []
    for call in calls:
        values = call.args[1] if len(call.args) > 1 else _keyword(call, "argvalues")
        if not isinstance(values, ast.List | ast.Tuple):
            continue
        ids_node = _keyword(call, "ids")
        listed = ids_node.elts if isinstance(ids_node, ast.List | ast.Tuple) else []
        explicit: list[str | None] = []
        for index, element in enumerate(values.elts):
            param_id: str | None = None
            if isinstance(element, ast.Call) and names.is_param(element.func):
                param_id = _str_constant(_keyword(element, "id"))
            if param_id is None and index < len(listed):
                param_id = _str_constant(listed[index])
            explicit.append(param_id)
        known = [pid for pid in explicit if pid is not None]
        usable = len(calls) == 1 and len(known) == len(set(known))
        for index, element in enumerate(values.elts):
            if not (isinstance(element, ast.Call) and names.is_param(element.func)):
                continue
            pid = explicit[index]
            if not usable or pid is None or not (pid.isascii() and pid.isprintable()):
                pid = None
            found += [(rule_id, pid) for rule_id in names.rule_ids(_keyword(element, "marks"))]
    return found


def _scan_module(tree: ast.Module, module_id: str) -> list[tuple[str, str]]:
    """``(rule id as written, node id)`` pairs for one parsed test module."""
    names = _Names(tree)
    found: list[tuple[str, str]] = []

    def visit_function(
        func: ast.FunctionDef | ast.AsyncFunctionDef, prefix: str, inherited: list[str]
    ) -> None:
        node_id = f"{prefix}::{func.name}"
        found.extend((rule_id, node_id) for rule_id in inherited + _decorator_rules(func, names))
        for rule_id, param_id in _param_rules(func, names):
            found.append((rule_id, node_id if param_id is None else f"{node_id}[{param_id}]"))

    def visit_body(body: Sequence[ast.stmt], prefix: str, inherited: list[str]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                if stmt.name.startswith("test"):
                    visit_function(stmt, prefix, inherited)
            elif isinstance(stmt, ast.ClassDef) and stmt.name.startswith("Test"):
                marks = inherited + _decorator_rules(stmt, names) + _pytestmark(stmt.body, names)
                visit_body(stmt.body, f"{prefix}::{stmt.name}", marks)

    visit_body(tree.body, module_id, _pytestmark(tree.body, names))
    return found


def _is_test_file(path: Path) -> bool:
    return path.suffix == ".py" and (path.name.startswith("test_") or path.stem.endswith("_test"))


def collect_rule_tests(
    tests_dir: Path,
    *,
    registry: Registry | None = None,
    rootdir: Path | None = None,
) -> dict[str, list[str]]:
    """Map each rule id to the node ids of the tests marked ``@pytest.mark.rule(<id>)``.

    Test files (``test_*.py``, ``*_test.py``) under ``tests_dir`` are parsed, never imported.
    A marker counts as a decorator on a test function or ``Test*`` class, in a module or class
    ``pytestmark = ...``, or in ``pytest.param(..., marks=...)``. Aliases are resolved to the
    canonical id via ``registry`` (the packaged one by default); an id the registry does not
    know is kept as written. Node ids are relative to ``rootdir`` (default: the parent of
    ``tests_dir``); a marked ``pytest.param`` without a written-out id is reported as the
    function's node id, which pytest accepts as "every parameter of this test". Files that do
    not parse are skipped.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     tests = Path(tmp, "tests")
    ...     tests.mkdir()
    ...     _ = (tests / "test_x.py").write_text(
    ...         "import pytest\\n"
    ...         "@pytest.mark.rule('Poker 17.6(f)')\\n"
    ...         "def test_cap(): pass\\n"
    ...     )
    ...     collect_rule_tests(tests)
    {'Omaha 17.6(f)': ['tests/test_x.py::test_cap']}
    """
    tests_dir = Path(tests_dir)
    registry = load_registry() if registry is None else registry
    root = tests_dir.parent if rootdir is None else Path(rootdir)
    mapping: dict[str, list[str]] = {}
    files = sorted(
        path
        for path in tests_dir.rglob("*.py")
        if _is_test_file(path)
        and not any(
            part.startswith(".") or part == "__pycache__"
            for part in path.relative_to(tests_dir).parts
        )
    )
    for path in files:
        try:
            tree = ast.parse(path.read_text("utf-8"), filename=str(path))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        try:
            module_id = path.relative_to(root).as_posix()
        except ValueError:
            module_id = Path(os.path.relpath(path, root)).as_posix()
        for written, node_id in _scan_module(tree, module_id):
            try:
                rule_id = registry.get(written).id
            except UnknownRuleError:
                rule_id = written
            node_ids = mapping.setdefault(rule_id, [])
            if node_id not in node_ids:
                node_ids.append(node_id)
    return mapping


# ---------------------------------------------------------------------------------------------
# Status
# ---------------------------------------------------------------------------------------------


def _mentions(text: str, name: str) -> bool:
    """Whether ``text`` cites ``name`` as a whole id ("Decision 3.1-1" is not in "3.1-10")."""
    pattern = rf"(?<![\w-]){re.escape(name)}(?![\w(]|\s\()"
    return re.search(pattern, text) is not None


def rule_status(rule: Rule, tests: Mapping[str, Sequence[str]], decisions_text: str = "") -> Status:
    """A rule's status: ``tested`` if any test names it; else ``decision`` if it is a decision
    or an INFERRED rule and ``decisions_text`` (``docs/decisions.md``) cites its id or an alias;
    else ``not yet``.

    >>> registry = load_registry()
    >>> rule_status(registry.get("Omaha 17.6(f)"), {"Omaha 17.6(f)": ["tests/t.py::test_cap"]})
    <Status.TESTED: 'tested'>
    >>> soft17 = registry.get("Decision 3.1-1")
    >>> rule_status(soft17, {}, "Decision 3.1-1: the dealer stands on soft 17.")
    <Status.DECISION: 'decision'>
    >>> rule_status(soft17, {}, "Decision 3.1-10: declining a split.")
    <Status.NOT_YET: 'not yet'>
    """
    if tests.get(rule.id):
        return Status.TESTED
    open_choice = rule.kind is Kind.DECISION or rule.provenance is Provenance.INFERRED
    if open_choice and any(_mentions(decisions_text, name) for name in rule.names):
        return Status.DECISION
    return Status.NOT_YET


def _is_croupier_root(directory: Path) -> bool:
    pyproject = directory / "pyproject.toml"
    try:
        data = tomllib.loads(pyproject.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    project = data.get("project")
    return isinstance(project, dict) and project.get("name") == "croupier"


def find_project_root(start: Path | None = None) -> Path | None:
    """The croupier checkout containing ``start``: the nearest directory at or above it whose
    ``pyproject.toml`` names the ``croupier`` project. Without ``start``, search from the current
    directory, then from this package's source location. ``None`` if there is none (an
    installed package).

    >>> root = find_project_root(Path(__file__))
    >>> root is None or (root / "pyproject.toml").is_file()
    True
    """
    starts = [Path(start)] if start is not None else [Path.cwd(), Path(__file__).parent]
    for origin in starts:
        origin = origin.resolve()
        for directory in (origin, *origin.parents):
            if _is_croupier_root(directory):
                return directory
    return None
