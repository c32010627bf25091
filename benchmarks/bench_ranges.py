"""Range equity: As Ks against the range QQ+, AKo, croupier against eval7's HandRange.

eval7's ``py_hand_vs_range_monte_carlo(hand, HandRange("QQ+,AKo"), board, iterations)``
is a Monte-Carlo estimate (in C): it walks the villain's combinations that do not
collide with the hero's cards in turn and deals a random board for each iteration.
croupier's ``range_equity`` answers exactly (every combination, every board) and also by
sampling; here it runs both ways, the sampled run with as many samples as eval7's
iterations. The three calls are timed in alternating rounds; the ratios are time
ratios (B's seconds a call over A's). Result check: every estimate must agree with
croupier's exact value within 4 standard errors (a score in [0, 1] with mean ``e`` has a
standard error of at most ``sqrt(e (1 - e) / n)``, used when a result gives none).

``croupier.equity.range_equity`` is new; until it is importable this benchmark prints
why it is skipped and measures nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any, Final

from benchmarks._harness import (
    BenchResult,
    Check,
    Comparison,
    Config,
    Side,
    StartupRow,
    Target,
    first_call,
    timed_import,
)
from benchmarks._timing import rounds

__all__ = ["run"]

NAME = "ranges"
TITLE = "range equity As Ks vs QQ+,AKo preflop: croupier exact and sampled vs eval7 Monte-Carlo"
HERO: Final = "As Ks"
VILLAIN: Final = "QQ+,AKo"
SIGMAS: Final = 4.0


def _players(result: object) -> list[Any]:
    """Per-player entries of a range-equity result (``hands``, ``players`` ... or the result)."""
    for attr in ("hands", "players", "results", "equities"):
        seq = getattr(result, attr, None)
        if seq is not None:
            return list(seq)
    if not isinstance(result, Iterable):
        raise TypeError(f"cannot find the players in a {type(result).__name__}")
    return list(result)


def _equity(result: object, player: int = 0) -> float:
    entry = _players(result)[player]
    return float(getattr(entry, "equity", entry))


def _stderr(result: object, player: int = 0) -> float | None:
    value = getattr(_players(result)[player], "stderr", None)
    return None if value is None or not math.isfinite(float(value)) else float(value)


def _bound(equity: float, n: int) -> float:
    """The largest standard error a mean of ``n`` scores in [0, 1] with this mean can have."""
    return math.sqrt(max(equity * (1 - equity), 1e-12) / n)


def run(cfg: Config) -> BenchResult:
    """Compare croupier's range equity with eval7's; skip (with the reason) if it is missing."""
    res = BenchResult(NAME, TITLE)
    try:
        from croupier.equity import range_equity  # type: ignore[attr-defined,unused-ignore]
    except ImportError as exc:
        res.skipped.append(
            f"croupier.equity.range_equity is not importable yet ({exc}); nothing measured"
        )
        return res
    eval7, t_imp = timed_import("eval7")
    res.startup.append(StartupRow("eval7 import", t_imp, "nan = imported earlier"))
    iterations = cfg.size(1_000_000, 200_000)
    hand = [eval7.Card(c) for c in HERO.split()]
    villain = eval7.HandRange(VILLAIN)
    monte_carlo: Callable[..., float] = eval7.py_hand_vs_range_monte_carlo
    got: dict[str, Any] = {}

    def exact() -> None:
        got["exact"] = range_equity([HERO, VILLAIN], exact=True)

    def sampled() -> None:
        got["sampled"] = range_equity(
            [HERO, VILLAIN], samples=iterations, seed=cfg.seed, exact=False
        )

    def peer() -> None:
        got["eval7"] = float(monte_carlo(hand, villain, [], iterations))

    try:
        res.startup.append(
            StartupRow("croupier range_equity first call (exact)", first_call(exact))
        )
        sampled()
    except Exception as exc:
        res.checks.append(
            Check("croupier range_equity runs", False, f"{type(exc).__name__}: {exc}")
        )
        return res

    def side(key: str, label: str, fn: Callable[[], None], croupier: bool = True) -> Side:
        return Side(key, label, fn, 1, unit="answers", croupier=croupier, job=1)

    sides = [
        side("croupier exact", f"range_equity([{HERO!r}, {VILLAIN!r}], exact=True)", exact),
        side(
            "eval7 Monte-Carlo",
            f"eval7.py_hand_vs_range_monte_carlo(hand, HandRange({VILLAIN!r}), [], {iterations:,})",
            peer,
            croupier=False,
        ),
        side(
            "croupier sampled",
            f"range_equity([...], samples={iterations:,}, seed={cfg.seed}, exact=False)",
            sampled,
        ),
    ]
    ours, theirs, ours_mc = rounds(sides, cfg.pairs, cfg.min_seconds)
    sampled_vs = Comparison(
        ours_mc, theirs, f"the target figure: both sampled, {iterations:,} samples each, 1 thread"
    )
    res.comparisons += [
        Comparison(ours, theirs, "exact answer against an estimate: A/B = B's seconds / A's"),
        sampled_vs,
    ]
    res.targets.append(
        Target.over(
            f"croupier range_equity sampled / eval7 Monte-Carlo, {iterations:,} samples",
            sampled_vs.ratios,
            ">=",
            1.0,
            "x",
            "time ratio, one thread each (the default run: 1,000,000 samples)",
        )
    )
    _checks(res, got, iterations)
    return res


def _checks(res: BenchResult, got: dict[str, Any], n: int) -> None:
    truth = _equity(got["exact"])
    mc = _equity(got["sampled"])
    e7 = got["eval7"]
    se = _bound(truth, n)
    se_mc = _stderr(got["sampled"]) or se
    res.checks += [
        Check(
            f"eval7 Monte-Carlo within {SIGMAS:g} standard errors of croupier exact",
            abs(e7 - truth) <= SIGMAS * se,
            f"eval7 {e7:.5f}, exact {truth:.5f}, {abs(e7 - truth) / se:.2f} SE (SE <= {se:.5f})",
        ),
        Check(
            f"croupier sampled within {SIGMAS:g} standard errors of croupier exact",
            abs(mc - truth) <= SIGMAS * se_mc,
            f"sampled {mc:.5f}, exact {truth:.5f}, {abs(mc - truth) / se_mc:.2f} SE",
        ),
        Check(
            f"croupier sampled and eval7 within {SIGMAS:g} combined standard errors",
            abs(mc - e7) <= SIGMAS * math.hypot(se, se_mc),
            f"difference {abs(mc - e7):.5f}",
        ),
    ]
    res.notes.append(
        f"As Ks vs {VILLAIN}: exact equity {truth:.6f}; sampled {mc:.6f}; eval7 {e7:.6f}"
    )
