"""Rule coverage: which tests check each rule of the registry (developer tooling).

This is the half of :mod:`croupier.rules` that needs a croupier *checkout*: it reads the test
files of ``tests/`` and ``docs/decisions.md``, which an installed wheel does not ship. The
runtime registry (:mod:`croupier.rules.registry`) never imports it; ``croupier rules`` does.

:func:`collect_rule_tests` reads test files *statically* (with :mod:`ast`, nothing is imported)
and maps each rule to the pytest node ids of the tests marked ``@pytest.mark.rule("<id>")``.
:func:`rule_status` turns that into a rule's status: ``tested``, ``decision`` or ``not yet``.
:func:`find_project_root` finds the checkout, or says there is none.

>>> from croupier.rules import load_registry
>>> rule_status(load_registry().get("Poker 17.6(f)"), {"Omaha 17.6(f)": ["tests/t.py::test_cap"]})
<Status.TESTED: 'tested'>
"""

from __future__ import annotations

import ast
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from enum import StrEnum
from pathlib import Path

from croupier.rules.registry import (
    Kind,
    Provenance,
    Registry,
    Rule,
    UnknownRuleError,
    load_registry,
)

__all__ = [
    "ISSUES",
    "Status",
    "collect_rule_tests",
    "find_project_root",
    "rule_status",
]

ISSUES: frozenset[str] = frozenset(
    {"foundation", "poker-engine", "blackjack-engine", "blackjack-math"}
)
"""The project areas a rule's ``issue`` may name."""


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
