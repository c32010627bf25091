"""The rules croupier implements, as data: see :mod:`croupier.rules.registry`.

>>> from croupier.rules import load_registry
>>> load_registry().get("Poker 12.2(a)").id
'Five Card Stud 12.2(a)'
"""

from croupier.rules.registry import (
    ISSUES,
    Game,
    Kind,
    Provenance,
    Registry,
    RegistryError,
    Rule,
    Status,
    UnknownRuleError,
    collect_rule_tests,
    find_project_root,
    load_registry,
    rule_status,
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
