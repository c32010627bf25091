"""Printing: one block per benchmark (machine, pair tables, start-up, checks, targets) and
the summary of every target and cross-check at the end of a run.

How to read a pair table: each row is one figure, side A against side B, timed as
``pairs`` alternating pairs in this run. The A and B columns give each side's median rate
(or, for a fixed job such as an equity enumeration, its median seconds per job) with the
range over the pairs in brackets; ``A/B`` is the median of the per-pair ratios of A's rate
to B's (above 1x: A is faster), with their range.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from benchmarks._harness import BenchResult, Comparison, Config, Measured, Target, spread
from benchmarks._machine import load_average, machine_lines

__all__ = [
    "print_result",
    "print_summary",
    "rate_text",
    "ratio_text",
    "run_one",
    "seconds_text",
    "target_text",
]


DASH = "\u2013"
"""Between the ends of a range: an en dash, so a negative end reads clearly (``[-2.2–50.2]``)."""


def _scale(value: float) -> tuple[float, str]:
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= limit:
            return limit, suffix
    return 1.0, ""


def _num(value: float) -> str:
    if math.isnan(value):
        return "nan"
    return f"{value:.3g}" if value < 1000 else f"{value:,.0f}"


def rate_text(values: Sequence[float], unit: str) -> str:
    """``65.2 Mhands/s [63.0–66.1]``: the median and the range on the median's scale."""
    med, low, high = spread(values)
    limit, suffix = _scale(med)
    return f"{_num(med / limit)} {suffix}{unit}/s [{_num(low / limit)}{DASH}{_num(high / limit)}]"


def seconds_text(value: float) -> str:
    """Seconds with a unit that keeps three figures: ``61.4 ms``, ``1.66 s``, ``219 us``."""
    if math.isnan(value):
        return "nan"
    if value >= 1:
        return f"{value:.3g} s"
    if value >= 1e-3:
        return f"{value * 1e3:.3g} ms"
    return f"{value * 1e6:.3g} us"


def _seconds_range(values: Sequence[float]) -> str:
    med, low, high = spread(values)
    factor, unit = (1.0, "s") if med >= 1 else (1e3, "ms") if med >= 1e-3 else (1e6, "us")
    return f"{_num(med * factor)} {unit} [{_num(low * factor)}{DASH}{_num(high * factor)}]"


def ratio_text(values: Sequence[float]) -> str:
    """``1.36x [1.31–1.39]``."""
    med, low, high = spread(values)

    def one(v: float) -> str:
        if math.isnan(v):
            return "nan"
        if v >= 100:
            return f"{v:,.0f}"
        return f"{v:.3g}"

    return f"{one(med)}x [{one(low)}{DASH}{one(high)}]"


def _figure(m: Measured) -> str:
    if m.job is not None:
        text = _seconds_range(m.job_seconds)
        return text + (" est." if m.extrapolated else "") + (" a job" if m.job > 1 else " a call")
    return rate_text(m.rates, m.unit)


def _threads(m: Measured) -> str:
    return "py" if m.threads is None else str(m.threads)


def _table(header: Sequence[str], body: Sequence[Sequence[str]], right: set[int]) -> list[str]:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *body, strict=True)]

    def fmt(cells: Sequence[str]) -> str:
        parts = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  " + "  ".join(parts).rstrip()

    rule = "  " + "  ".join("-" * w for w in widths)
    return [fmt(header), rule, *(fmt(r) for r in body)]


def _comparison_lines(comparisons: Sequence[Comparison]) -> list[str]:
    header = ["#", "A", "B", "threads", "pairs", "A: median [range]", "B: median [range]", "A/B"]
    body = [
        [
            str(i),
            c.a.key,
            c.b.key,
            f"{_threads(c.a)}/{_threads(c.b)}",
            str(len(c.a.seconds)),
            _figure(c.a),
            _figure(c.b),
            ratio_text(c.ratios),
        ]
        for i, c in enumerate(comparisons, start=1)
    ]
    lines = _table(header, body, {0, 3, 4, 5, 6, 7})
    lines.append("  (A/B > 1x: A is faster; 'py' = called once an item from a Python loop)")
    for i, c in enumerate(comparisons, start=1):
        if c.note:
            lines.append(f"  #{i}: {c.note}")
    return lines


def _legend(sides: Sequence[Measured]) -> list[str]:
    seen: dict[str, Measured] = {}
    for m in sides:
        seen.setdefault(m.key, m)
    lines = ["  what each side calls (a timing repeats the call until it lasts long enough):"]
    for m in seen.values():
        shortest = min(m.seconds) if m.seconds else math.nan
        low, high = min(m.passes, default=0), max(m.passes, default=0)
        calls = f"{low:,}" if low == high else f"{low:,}-{high:,}"
        extra = f"{m.items:,} {m.unit} a call; calls a timing: {calls}; shortest timing "
        extra += seconds_text(shortest)
        if m.extrapolated and m.job is not None:
            extra += (
                f"; a sample of the {m.job:,}-{m.unit[:-1] if m.unit.endswith('s') else m.unit} job"
            )
        lines.append(f"    {m.key}: {m.label} [{extra}]")
    return lines


def _solo_lines(solos: Sequence[Measured]) -> list[str]:
    header = ["what", "threads", "repeats", "median [range]"]
    body = [[m.key, _threads(m), str(len(m.seconds)), _figure(m)] for m in solos]
    return ["  figures with no peer in this run:", *_table(header, body, {1, 2, 3})]


def target_text(t: Target) -> str:
    """One line describing a target and the measured value."""
    value = f"{t.measured:.3g}"
    if t.low is not None and t.high is not None:
        value += f" [{t.low:.3g}{DASH}{t.high:.3g}]"
    text = f"{t.name}: measured {value} {t.unit}, needs {t.op} {t.threshold:g} {t.unit}"
    return text + (f" ({t.detail})" if t.detail else "")


def print_result(result: BenchResult) -> None:
    """Print a benchmark's block: machine, pair table, legend, start-up, checks, targets."""
    lines = [f"== {result.name}: {result.title}"]
    lines += ["  " + x for x in machine_lines(result.load_before, result.load_after)]
    if result.pairs:
        lines.append(
            f"  timing: {result.pairs} alternating pairs (A B A B ...) after a warm-up, gc "
            f"paused, every timing >= {result.min_seconds:g} s unless a side says otherwise; "
            "median [min–max] over the pairs"
        )
    for reason in result.skipped:
        lines.append(f"  skipped: {reason}")
    if result.comparisons:
        lines += _comparison_lines(result.comparisons)
    if result.solos:
        lines += _solo_lines(result.solos)
    sides = [m for c in result.comparisons for m in (c.a, c.b)] + list(result.solos)
    if sides:
        lines += _legend(sides)
    if result.startup:
        lines.append("  one-time start-up (not included in any rate above):")
        sbody = [[s.label, seconds_text(s.seconds), s.note] for s in result.startup]
        lines += ["  " + x for x in _table(["what", "seconds", "note"], sbody, {1})]
    lines += ["  " + x for x in result.info]
    for c in result.checks:
        lines.append(f"  check {'PASS' if c.passed else 'FAIL'}: {c.name}  {c.detail}".rstrip())
    for t in result.targets:
        lines.append(f"  target {'met' if t.passed else 'NOT met'}: {target_text(t)}")
    for note in result.notes:
        lines.append(f"  note: {note}")
    print("\n".join(lines) + "\n", flush=True)


def print_summary(results: Sequence[BenchResult], seconds: float) -> tuple[int, int]:
    """Print the PASS/FAIL summary; return (targets missed, cross-checks failed)."""
    print(f"== summary ({seconds:.0f} s)")
    for r in results:
        for t in r.targets:
            print(f"  {'PASS' if t.passed else 'FAIL'}  [{r.name}] {target_text(t)}")
    for r in results:
        for c in r.checks:
            print(f"  {'PASS' if c.passed else 'FAIL'}  [{r.name}] check: {c.name}")
    for r in results:
        for reason in r.skipped:
            print(f"  SKIP  [{r.name}] {reason}")
    targets = [t for r in results for t in r.targets]
    checks = [c for r in results for c in r.checks]
    missed = sum(not t.passed for t in targets)
    broken = sum(not c.passed for c in checks)
    print(
        f"  targets: {len(targets) - missed} PASS, {missed} FAIL; "
        f"cross-checks: {len(checks) - broken} PASS, {broken} FAIL",
        flush=True,
    )
    return missed, broken


def run_one(run: Callable[[Config], BenchResult], cfg: Config) -> BenchResult:
    """Run one benchmark with the load average read before and after it; print its block."""
    before = load_average()
    clock = time.perf_counter()
    result = run(cfg)
    result.notes.append(f"benchmark wall time {time.perf_counter() - clock:.1f} s")
    result.load_before, result.load_after = before, load_average()
    if result.comparisons and not result.pairs:
        result.pairs, result.min_seconds = cfg.pairs, cfg.min_seconds
    print_result(result)
    return result
