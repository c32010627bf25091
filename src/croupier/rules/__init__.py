"""The rules croupier implements, as data: see :mod:`croupier.rules.registry`.

Which tests check each rule (``Status``, ``collect_rule_tests``, ``rule_status``,
``find_project_root``, ``ISSUES``) is developer tooling in :mod:`croupier.rules.coverage`; those
names are still importable from here, loaded on first use.

>>> from croupier.rules import load_registry
>>> load_registry().get("Poker 12.2(a)").id
'Five Card Stud 12.2(a)'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier._lazy import lazy_exports
from croupier.rules.registry import (
    Game,
    Kind,
    Provenance,
    Registry,
    RegistryError,
    Rule,
    UnknownRuleError,
    load_registry,
)

if TYPE_CHECKING:
    from croupier.rules.coverage import (
        ISSUES,
        Status,
        collect_rule_tests,
        find_project_root,
        rule_status,
    )
else:
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "croupier.rules.coverage": (
                "ISSUES",
                "Status",
                "collect_rule_tests",
                "find_project_root",
                "rule_status",
            )
        },
    )

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
