"""``python -m benchmarks [--quick] [--json FILE] [--only NAME] [--strict]``.

Runs the default benchmarks (or the ``--only`` ones), printing a block per benchmark as
it finishes (the machine and its load beside every table) and a PASS/FAIL summary of
every target and cross-check at the end. The exit status is 1 when a cross-check fails
(croupier disagrees with a peer), or with ``--strict`` when any target is missed; 0
otherwise.
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
from typing import Final

try:
    import croupier  # noqa: F401
except ImportError:  # running from a checkout without an install: use ./src
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from benchmarks import (
    bench_bj_referee,
    bench_blackjack,
    bench_copy_blackjack,
    bench_copy_poker,
    bench_diff_pokerkit,
    bench_equity,
    bench_eval7,
    bench_omaha,
    bench_poker_sim,
    bench_ranges,
    bench_referee,
    bench_startup,
)
from benchmarks._harness import BenchResult, Config
from benchmarks._machine import load_average, machine, machine_lines
from benchmarks._report import print_summary, run_one


def _server(cfg: Config) -> BenchResult:
    """The card-room load benchmark (its httpx and websockets load only when it runs)."""
    from benchmarks import bench_server

    return bench_server.run(cfg)


BENCHMARKS: dict[str, Callable[[Config], BenchResult]] = {
    "eval7": bench_eval7.run,
    "omaha": bench_omaha.run,
    "equity": bench_equity.run,
    "ranges": bench_ranges.run,
    "startup": bench_startup.run,
    "poker_sim": bench_poker_sim.run,
    "copy_poker": bench_copy_poker.run,
    "copy_blackjack": bench_copy_blackjack.run,
    "referee": bench_referee.run,
    "bj_referee": bench_bj_referee.run,
    "blackjack": bench_blackjack.run,
    "diff_pokerkit": bench_diff_pokerkit.run,
    "server": _server,
}
"""Every ``--only`` choice, in the order a run takes them."""

OPT_IN: Final = ("blackjack", "diff_pokerkit", "server")
"""Left out of the default run (too long for it; see benchmarks/README.md): ``--only`` them."""


def _names(only: list[str] | None) -> list[str]:
    if not only:
        return [n for n in BENCHMARKS if n not in OPT_IN]
    names = []
    for item in only:
        for part in item.split(","):
            name = part.strip().removeprefix("bench_")
            if name == "all":
                names += [n for n in BENCHMARKS if n not in names]
                continue
            if name not in BENCHMARKS:
                raise SystemExit(
                    f"unknown benchmark {part!r}; choose from {', '.join(BENCHMARKS)} or all"
                )
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


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run the benchmarks, print the summary; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Run croupier's benchmarks and its peers' in one process; print tables and a summary.",
    )
    parser.add_argument(
        "--quick", action="store_true", help="smaller samples, 5 pairs, 0.1 s timings"
    )
    parser.add_argument("--json", metavar="FILE", type=Path, help="also write all results as JSON")
    parser.add_argument(
        "--only",
        metavar="NAME",
        action="append",
        help=f"run only this benchmark ({', '.join(BENCHMARKS)}, or all); repeatable or a,b "
        f"(default: all but {', '.join(OPT_IN)})",
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 when any target is missed")
    args = parser.parse_args(argv)
    names = _names(args.only)
    cfg = Config(quick=args.quick)
    versions = _versions()
    started = dt.datetime.now().astimezone()
    load = load_average()
    print(
        f"croupier benchmarks ({'quick' if cfg.quick else 'full'} run), {started:%Y-%m-%d %H:%M %Z}"
    )
    print(f"running: {', '.join(names)}")
    for line in machine_lines(load, None)[:2]:
        print(line)
    print(f"platform: {machine().platform}")
    print("versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    print(
        f"every figure: {cfg.pairs} alternating pairs, each timing >= {cfg.min_seconds:g} s; "
        f"load average at start {load}"
    )
    print(flush=True)
    results: list[BenchResult] = []
    clock = time.perf_counter()
    for name in names:
        results.append(run_one(BENCHMARKS[name], cfg))
    total = time.perf_counter() - clock
    missed, broken = print_summary(results, total)
    if args.json:
        payload = {
            "date": started.isoformat(timespec="seconds"),
            "quick": cfg.quick,
            "pairs": cfg.pairs,
            "min_seconds": cfg.min_seconds,
            "machine": machine().to_dict(),
            "versions": versions,
            "env": {k: v for k, v in os.environ.items() if k.startswith("NUMBA_")},
            "load_average_start": load,
            "load_average_end": load_average(),
            "seconds": total,
            "benchmarks": [r.to_dict() for r in results],
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
        print(f"results written to {args.json}")
    return 1 if broken or (args.strict and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
