"""``python -m benchmarks [--quick] [--json FILE] [--only NAME] [--strict]``.

Runs every benchmark (or the ``--only`` ones), printing a table per benchmark as it
finishes and a PASS/FAIL summary of every target and cross-check at the end.
The exit status is 1 when a cross-check fails (croupier disagrees with a peer),
or with ``--strict`` when any target is missed; 0 otherwise.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

try:
    import croupier  # noqa: F401
except ImportError:  # running from a checkout without an install: use ./src
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from benchmarks import bench_diff_pokerkit, bench_equity, bench_eval7, bench_omaha, bench_startup
from benchmarks._harness import BenchResult, Config, cores, numba_threads, print_result, target_text

BENCHMARKS: dict[str, Callable[[Config], BenchResult]] = {
    "eval7": bench_eval7.run,
    "omaha": bench_omaha.run,
    "equity": bench_equity.run,
    "startup": bench_startup.run,
    "diff_pokerkit": bench_diff_pokerkit.run,
}


def _names(only: list[str] | None) -> list[str]:
    if not only:
        return list(BENCHMARKS)
    names = []
    for item in only:
        for part in item.split(","):
            name = part.strip().removeprefix("bench_")
            if name not in BENCHMARKS:
                raise SystemExit(f"unknown benchmark {part!r}; choose from {', '.join(BENCHMARKS)}")
            names.append(name)
    return names


def _versions() -> dict[str, str]:
    from importlib import metadata

    out = {"python": platform.python_version()}
    for dist in ("croupier", "numpy", "numba", "phevaluator", "eval7", "treys", "pokerkit"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "not installed" if dist != "croupier" else "source tree"
    return out


def _machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next(
                (ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), cpu
            )
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": cores(),
        "numba_threads": numba_threads(),
        "platform": platform.platform(),
    }


def _load() -> tuple[float, ...]:
    try:
        return tuple(round(x, 2) for x in os.getloadavg())
    except OSError:
        return ()


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run the benchmarks, print the summary; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Run croupier's benchmarks and its peers' in one process; print tables and a summary.",
    )
    parser.add_argument("--quick", action="store_true", help="smaller samples (about 30 s)")
    parser.add_argument("--json", metavar="FILE", type=Path, help="also write all results as JSON")
    parser.add_argument(
        "--only",
        metavar="NAME",
        action="append",
        help=f"run only this benchmark ({', '.join(BENCHMARKS)}); repeatable",
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 when any target is missed")
    args = parser.parse_args(argv)
    names = _names(args.only)
    cfg = Config(quick=args.quick)
    machine, versions = _machine(), _versions()
    started = dt.datetime.now().astimezone()
    print(
        f"croupier benchmarks ({'quick' if cfg.quick else 'full'} run), {started:%Y-%m-%d %H:%M %Z}"
    )
    print(
        f"machine: {machine['cpu']}, {machine['cores']} cores, numba threads "
        f"{machine['numba_threads']}; {machine['platform']}"
    )
    print("versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    load = _load()
    print(f"each figure is the median of {cfg.repeats} repeats; load average at start {load}")
    if load and load[0] > 0.5 * machine["cores"]:
        print("warning: the machine is busy; rates will be noisy and low")
    print(flush=True)
    results: list[BenchResult] = []
    clock = time.perf_counter()
    for name in names:
        t0 = time.perf_counter()
        result = BENCHMARKS[name](cfg)
        result.notes.append(f"benchmark wall time {time.perf_counter() - t0:.1f} s")
        print_result(result)
        results.append(result)
    total = time.perf_counter() - clock
    print(f"== summary ({total:.0f} s)")
    for r in results:
        for t in r.targets:
            print(f"  {'PASS' if t.passed else 'FAIL'}  [{r.name}] {target_text(t)}")
    for r in results:
        for c in r.checks:
            print(f"  {'PASS' if c.passed else 'FAIL'}  [{r.name}] check: {c.name}")
    targets = [t for r in results for t in r.targets]
    checks = [c for r in results for c in r.checks]
    missed = sum(not t.passed for t in targets)
    broken = sum(not c.passed for c in checks)
    print(
        f"  targets: {len(targets) - missed} PASS, {missed} FAIL; "
        f"cross-checks: {len(checks) - broken} PASS, {broken} FAIL",
        flush=True,
    )
    if args.json:
        payload = {
            "date": started.isoformat(timespec="seconds"),
            "quick": cfg.quick,
            "repeats": cfg.repeats,
            "machine": machine,
            "versions": versions,
            "env": {k: v for k, v in os.environ.items() if k.startswith("NUMBA_")},
            "load_average_start": load,
            "load_average_end": _load(),
            "seconds": total,
            "benchmarks": [r.to_dict() for r in results],
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
        print(f"results written to {args.json}")
    return 1 if broken or (args.strict and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
