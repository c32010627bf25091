"""The referees load without numba or the math; every re-exported name still imports.

Each check runs in a fresh interpreter (``sys.modules`` of the test process is shared by the
whole suite) and reports which heavy modules the import or the play loaded.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

MATH = (
    "numba",
    "croupier.blackjack.math",
    "croupier.poker.sim",
    "croupier.evaluation.kernels",
    "croupier.evaluation.batch",
    "croupier.evaluation.omaha_table",
    "croupier.equity",
)
"""Modules the referees must not load: numba and everything built on it (a package and all
its submodules)."""

PACKAGES = (
    "croupier",
    "croupier.errors",
    "croupier.poker",
    "croupier.blackjack",
    "croupier.rules",
    "croupier.evaluation",
)


def _loaded_after(code: str) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter; what it left in ``sys.modules`` and its result."""
    probe = textwrap.dedent(code) + textwrap.dedent(
        f"""
        import json, sys
        math = {MATH!r}
        heavy = sorted(
            name for name in sys.modules
            if any(name == m or name.startswith(m + ".") for m in math)
        )
        print(json.dumps({{"heavy": heavy, "numpy": "numpy" in sys.modules,
                          "result": globals().get("result")}}))
        """
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), env.get("PYTHONPATH")) if p)
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=False
    )
    assert proc.returncode == 0, proc.stderr
    report: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return report


@pytest.mark.parametrize("package", PACKAGES)
def test_import_loads_no_numba_and_no_math(package: str) -> None:
    report = _loaded_after(f"import {package}")
    assert report["heavy"] == []


@pytest.mark.parametrize("package", ["croupier", "croupier.errors", "croupier.blackjack"])
def test_light_imports_load_not_even_numpy(package: str) -> None:
    assert _loaded_after(f"import {package}")["numpy"] is False


def test_a_poker_hand_played_to_the_showdown_loads_no_numba() -> None:
    """The showdown reads the cached rank tables (numpy ``.npz``), never numba."""
    report = _loaded_after(
        """
        from croupier.poker import HOLDEM, HandState, NoLimit, TableRules
        from croupier.poker import events as ev

        rules = TableRules(HOLDEM, NoLimit(), blinds=(1, 2), table_minimum=2)
        hand = HandState(rules, {1: 100, 2: 100, 3: 100}, button=1, seed=7)
        while not hand.is_complete:
            if hand.legal_actions().check:
                hand.check()
            else:
                hand.call()
        result = [e.description for e in hand.events if isinstance(e, ev.HandShown)]
        """
    )
    assert report["heavy"] == []
    shown = report["result"]
    assert isinstance(shown, list)
    assert shown  # nobody folded: the hands went to a showdown and were ranked
    assert all(isinstance(text, str) and text for text in shown)


def test_a_blackjack_round_played_to_settlement_loads_no_numba_and_no_numpy() -> None:
    report = _loaded_after(
        """
        from croupier.blackjack import NZ, BlackjackRound, Phase
        from croupier.cards import Shoe

        rnd = BlackjackRound(NZ, Shoe(6, seed=3), {"ann": 100, "bob": 100})
        rnd.place_wager(1, "ann", 10)
        rnd.place_wager(2, "bob", 10)
        rnd.deal()
        for _ in range(100):
            if rnd.phase is Phase.COMPLETE:
                break
            if rnd.insurance_turn is not None:
                rnd.insure(0)  # declined
            elif rnd.can_stand():
                rnd.stand()
            else:
                rnd.hit()
        result = [rnd.phase is Phase.COMPLETE, sum(rnd.bankrolls.values())]
        """
    )
    assert report["heavy"] == []
    assert report["numpy"] is False
    result = report["result"]
    assert isinstance(result, list)
    assert result[0] is True  # settled
    assert isinstance(result[1], int)


# --- every name still imports ---------------------------------------------------------------


@pytest.mark.parametrize(
    "package",
    [*PACKAGES, "croupier.equity", "croupier.cards", "croupier.phh"],
)
def test_every_exported_name_resolves_and_is_listed(package: str) -> None:
    module = importlib.import_module(package)
    exported = module.__all__
    assert len(exported) == len(set(exported))
    for name in exported:
        value = getattr(module, name)
        assert not isinstance(value, types.ModuleType), (package, name)
        assert name in dir(module), (package, name)
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        _ = module.no_such_name
    with pytest.raises(ImportError):
        exec(f"from {package} import no_such_name", {})


def test_lazy_names_are_the_objects_of_their_modules() -> None:
    import croupier
    import croupier.blackjack
    import croupier.evaluation
    import croupier.poker

    def source(name: str) -> types.ModuleType:
        importlib.import_module(name)
        return sys.modules[name]  # not the package attribute: two of them are functions

    assert croupier.evaluate is source("croupier.evaluation.evaluate").evaluate
    assert croupier.blackjack.Analysis is source("croupier.blackjack.math.analysis").Analysis
    assert croupier.blackjack.simulate is source("croupier.blackjack.math.simulate").simulate
    assert croupier.blackjack.US_SIX_DECK is source("croupier.blackjack.math.strategy").US_SIX_DECK
    assert croupier.evaluation.evaluate_batch is source("croupier.evaluation.batch").evaluate_batch
    assert croupier.poker.fast_simulate is source("croupier.poker.sim.fastsim").fast_simulate


def test_a_function_named_like_its_module_stays_the_function() -> None:
    """``croupier.blackjack.simulate`` is the function even when its module loads first."""
    report = _loaded_after(
        """
        import croupier.blackjack.math.simulate as first
        from croupier.blackjack.math.simulate import SimulationResult
        from croupier.blackjack import simulate
        import croupier.blackjack
        import croupier.evaluation.evaluate
        from croupier.evaluation import evaluate
        result = [callable(first), callable(simulate), simulate.__module__,
                  croupier.blackjack.simulate is simulate is first.simulate, callable(evaluate)]
        """
    )
    assert report["result"] == [False, True, "croupier.blackjack.math.simulate", True, True]


def test_an_export_named_like_its_submodule_is_refused() -> None:
    """The import system would bind the submodule over such an export, so it is refused."""
    from croupier._lazy import lazy_exports

    package = types.ModuleType("demo_shadow")
    sys.modules["demo_shadow"] = package
    try:
        with pytest.raises(ValueError, match=r"named like their submodule: \['tool'\]"):
            lazy_exports("demo_shadow", {"demo_shadow.tool": ("tool", "other")})
    finally:
        del sys.modules["demo_shadow"]


def test_the_math_packages_load_none_of_their_modules() -> None:
    report = _loaded_after(
        """
        import sys
        import croupier.blackjack.math
        import croupier.poker.sim

        result = sorted(
            name for name in sys.modules if name.startswith(("croupier.blackjack.math.",
                                                              "croupier.poker.sim."))
        )
        """
    )
    assert report["result"] == []
    assert report["heavy"] == ["croupier.blackjack.math", "croupier.poker.sim"]


def test_the_documented_imports_work() -> None:
    report = _loaded_after(
        """
        from croupier import evaluate, evaluate_omaha, parse_cards, Card, Deck, STRIPPED
        from croupier import equity
        from croupier.poker import HandState, TableRules, fast_simulate, FastResult
        from croupier.blackjack import Analysis, simulate, US_SIX_DECK, NZ
        from croupier.evaluation import evaluate_batch, rank_cards
        result = [type(equity).__name__, callable(equity.equity), callable(fast_simulate)]
        """
    )
    assert report["result"] == ["module", True, True]
    heavy = report["heavy"]
    assert isinstance(heavy, list)
    assert "numba" in heavy  # the math was asked for, so it loaded
