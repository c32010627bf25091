"""Start-up: what a brand-new Python process pays before croupier's first answer.

Each measurement runs ``python -c ...`` in a fresh subprocess and times, in order:
``import croupier``; the first ``rank_cards`` (hand-rank tables loaded from the
disk cache); the first ``evaluate_batch`` (one-thread numba kernel loaded from
numba's cache); the first ``evaluate_batch(parallel=True)`` (parallel kernel and
thread pool); the first ``equity`` (equity kernel, plus one full exact
enumeration of 1,712,304 boards). "Warm" uses the normal caches (primed by one
untimed process); "cold" points ``CROUPIER_CACHE_DIR`` and ``NUMBA_CACHE_DIR`` at an
empty temporary folder, so tables are built and every kernel compiled. Since the lazy
re-exports, ``import croupier`` loads nothing heavy; the first ``rank_cards`` includes
importing the evaluator (numpy) and reading its tables.

Whole processes: ``croupier --help`` and ``croupier eval As Kd Qh Jc Tc`` (the console
script, or ``python -m croupier`` without one) against ``python -c pass``, in alternating
runs (pass, help, eval, pass, ...), each a ratio to the ``python -c pass`` of its round; the
bytecode is cached in a temporary folder (``PYTHONPYCACHEPREFIX``, primed by one untimed
round), as in an installed copy. Neither command may load numba, and ``--help`` not numpy.

It also times the bare import of each entry point (``croupier``, ``croupier.errors`` and the two
referees ``croupier.poker`` and ``croupier.blackjack``), each in its own fresh process, and
checks that none of them loads numba.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Final

from benchmarks._harness import (
    BenchResult,
    Check,
    Config,
    StartupRow,
    Target,
    fresh_process,
    spread,
    src_root,
)

__all__ = ["run"]

NAME = "startup"
TITLE = "fresh-process start-up: import and first calls, warm and cold caches"

STEPS: Final = ("rank_cards", "evaluate_batch", "evaluate_batch parallel", "equity")
LABELS: Final = {
    "import croupier": "import croupier",
    "rank_cards": "first rank_cards() (tables from disk)",
    "evaluate_batch": "first evaluate_batch(), 1 thread (numba cache)",
    "evaluate_batch parallel": "first evaluate_batch(parallel=True)",
    "equity": "first equity() AsKs vs QdQh (incl. the enumeration)",
    "in-process total": "total inside the process",
    "process wall": "whole process (interpreter start to exit)",
}


IMPORTS: Final = ("croupier", "croupier.errors", "croupier.poker", "croupier.blackjack")
"""Entry points whose bare import is timed (the referees must not load numba)."""

_IMPORT_PROBE: Final = r"""
import importlib, json, sys, time
start = time.perf_counter()
importlib.import_module(sys.argv[1])
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "numba": "numba" in sys.modules,
                  "numpy": "numpy" in sys.modules}))
"""


def _median(runs: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def import_once(module: str) -> dict[str, float | bool]:
    """Import ``module`` in a fresh interpreter: its seconds, and whether numba/numpy loaded."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src_root(), env.get("PYTHONPATH")) if p)
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT_PROBE, module],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"import probe failed:\n{done.stderr}")
    result: dict[str, float | bool] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _imports(res: BenchResult, repeats: int) -> None:
    """Median import time of each entry point, and a check that the referees skip numba."""
    for module in IMPORTS:
        import_once(module)  # untimed: warms the OS file cache and the bytecode
        runs = [import_once(module) for _ in range(repeats)]
        seconds = statistics.median(float(r["seconds"]) for r in runs)
        heavy = [name for name in ("numba", "numpy") if any(r[name] for r in runs)]
        loads = ", ".join(heavy) or "neither numba nor numpy"
        note = f"median of {repeats}; loads {loads}"
        res.startup.append(StartupRow(f"warm: import {module}", seconds, note))
        res.checks.append(
            Check(
                f"import {module} loads no numba",
                not any(r["numba"] for r in runs),
                "the math (numba) loads only when asked for",
            )
        )


COMMANDS: Final = {
    "croupier --help": ("--help",),
    "croupier eval As Kd Qh Jc Tc": ("eval", "As", "Kd", "Qh", "Jc", "Tc"),
}
"""Whole commands timed as processes against ``python -c pass``."""

_MODULES_PROBE: Final = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('numba' in sys.modules, 'numpy' in sys.modules, "
    "file=sys.stderr))\n"
    "from croupier.cli.app import main\n"
    "sys.argv[0] = 'croupier'\n"
    "main()\n"
)


def _script() -> list[str]:
    """The ``croupier`` console script beside this interpreter, else ``python -m croupier``."""
    script = Path(sys.executable).parent / "croupier"
    return [str(script)] if script.exists() else [sys.executable, "-m", "croupier"]


def _wall(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed:\n{done.stderr.decode()}")
    return seconds


def _commands(res: BenchResult, rounds: int) -> None:
    """Whole ``croupier`` processes against ``python -c pass``, alternating, as ratios."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src_root(), env.get("PYTHONPATH")) if p)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="croupier-pyc-") as pyc:
        env["PYTHONPYCACHEPREFIX"] = pyc  # bytecode cached, as in an install, not in the tree
        base = [sys.executable, "-c", "pass"]
        runs = {name: [*_script(), *args] for name, args in COMMANDS.items()}
        for argv in (base, *runs.values()):  # untimed: bytecode, OS file cache, table cache
            _wall(argv, env)
        walls: dict[str, list[float]] = {name: [] for name in ("python -c pass", *runs)}
        for _ in range(rounds):
            walls["python -c pass"].append(_wall(base, env))
            for name, argv in runs.items():
                walls[name].append(_wall(argv, env))
        for name, args in COMMANDS.items():
            probe = subprocess.run(
                [sys.executable, "-c", _MODULES_PROBE, *args], env=env, capture_output=True,
                text=True, check=False,
            )  # fmt: skip
            numba, numpy = (probe.stderr.strip().splitlines() or ["? ?"])[-1].split()
            res.checks.append(
                Check(
                    f"{name} loads no numba" + (" and no numpy" if name.endswith("help") else ""),
                    numba == "False" and (numpy == "False" or not name.endswith("help")),
                    f"numba loaded: {numba}, numpy loaded: {numpy}",
                )
            )
    base_walls = walls["python -c pass"]
    med, low, high = spread(base_walls)
    res.startup.append(
        StartupRow(
            "warm: whole process python -c pass",
            med,
            f"median of {rounds} [{low * 1e3:.1f}-{high * 1e3:.1f} ms]",
        )
    )
    for name in COMMANDS:
        ratios = [w / b for w, b in zip(walls[name], base_walls, strict=True)]
        med, low, high = spread(walls[name])
        r_med, r_low, r_high = spread(ratios)
        res.startup.append(
            StartupRow(
                f"warm: whole process {name}",
                med,
                f"median of {rounds} [{low * 1e3:.1f}-{high * 1e3:.1f} ms]; "
                f"{r_med:.2f}x python -c pass [{r_low:.2f}-{r_high:.2f}]",
            )
        )
        res.targets.append(
            Target.over(
                f"whole process {name} / python -c pass",
                ratios,
                "<=",
                6.0,
                "x",
                f"alternating runs, {rounds} rounds, bytecode cached",
            )
        )


def run(cfg: Config) -> BenchResult:
    """Time croupier's start-up in fresh processes; see the module docstring."""
    res = BenchResult(NAME, TITLE)
    repeats = 3
    _commands(res, 11 if cfg.quick else 21)
    _imports(res, 3 if cfg.quick else 7)
    fresh_process(STEPS)  # prime the caches (and the OS file cache) untimed
    warm = [fresh_process(STEPS) for _ in range(repeats)]
    cold_repeats = 1 if cfg.quick else repeats
    cold = [fresh_process(STEPS, cold=True) for _ in range(cold_repeats)]
    for key, label in LABELS.items():
        res.startup.append(
            StartupRow(f"warm: {label}", _median(warm, key), f"median of {len(warm)}")
        )
    for key, label in LABELS.items():
        res.startup.append(
            StartupRow(f"cold: {label}", _median(cold, key), f"median of {len(cold)}")
        )
    first_answer = _median(warm, "import croupier") + _median(warm, "rank_cards")
    res.notes.append(
        f"warm: import croupier + first rank_cards = {first_answer:.3f} s; "
        "cold builds tables and compiles every kernel once, then caches them on disk"
    )
    res.targets.append(
        Target(
            "warm start-up: import croupier + first rank_cards, evaluate_batch, equity",
            _median(warm, "in-process total"),
            "<",
            2.0,
            "s",
            "the whole 'in-process total' above, fresh process",
        )
    )
    return res
