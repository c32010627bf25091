"""Suite-wide hooks: every ``@pytest.mark.rule(...)`` must name a rule of the registry.

The ``rule`` and ``slow`` markers are declared in ``pyproject.toml``.
"""

from __future__ import annotations

import pytest

from croupier.rules import UnknownRuleError, load_registry


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Fail collection when a ``rule`` marker names no registered rule id or alias."""
    registry = load_registry()
    problems: list[str] = []
    for item in items:
        for mark in item.iter_markers(name="rule"):
            if not mark.args or mark.kwargs or not all(isinstance(a, str) for a in mark.args):
                problems.append(f"{item.nodeid}: rule marker needs rule id strings, got {mark}")
                continue
            for name in mark.args:
                try:
                    registry.get(name)
                except UnknownRuleError as exc:
                    problems.append(f"{item.nodeid}: {exc}")
    if problems:
        raise pytest.UsageError(
            "rule markers name unknown rules (see src/croupier/rules/registry.toml):\n  "
            + "\n  ".join(problems)
        )
