"""The card-room benchmark's outcome and its report: what a run saw (:class:`Outcome`),
the targets it is held to, and the lines printed. Used by :mod:`benchmarks.bench_server`."""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from benchmarks._room_clients import REGISTER_CONCURRENCY

if TYPE_CHECKING:
    from benchmarks.bench_server import Options, TablePlan

P99_TARGET_MS: Final = 50.0
"""The issue's target: server-side p99 action latency (receive -> views queued)."""
FIRST_ERRORS: Final = 5
"""Error messages printed in full."""
STEAL_WARNING: Final = 0.05
"""Above this share of stolen CPU time the report says the figures are not the machine's."""


@dataclass
class Outcome:
    """Everything a run measured."""

    options: Options
    plans: list[TablePlan]
    window: float = math.nan
    hands: int = 0
    actions: int = 0
    client_latencies: list[float] = field(default_factory=list)
    server_stats: dict[str, Any] | None = None
    """``GET /api/stats`` at the end: percentiles over the server's whole life."""
    server_stats_start: dict[str, Any] | None = None
    window_stats: dict[str, Any] | None = None
    """``GET /api/stats?since=N`` at the end (N: the actions counted when the window
    started): the percentiles of the window's actions only; the target applies to them."""
    errors: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)
    resits: int = 0
    sit_retries: int = 0
    login_500s: list[str] = field(default_factory=list)
    """Logins the server answered 500 (retried)."""
    setup: dict[str, float] = field(default_factory=dict)
    server_cpu: float = math.nan
    client_cpu: float = math.nan
    memory_ready: float = math.nan
    """The server's resident memory (MiB) once ready, before the first client."""
    memory_peak: float = math.nan
    """The server's peak resident memory (MiB) at the end of the window."""
    steal: float = math.nan
    """The share of the machine's CPU time in the window the hypervisor stole."""
    emptied: bool = False
    left_seated: dict[str, list[str]] = field(default_factory=dict)
    exit_code: int | None = None
    stop_seconds: float = math.nan
    verify: dict[str, Any] | None = None
    verify_text: str = ""
    verify_seconds: float = math.nan
    server_log: str = ""
    log_errors: list[str] = field(default_factory=list)
    """Lines of the server's log that report an error (ERROR, Traceback, Exception)."""
    ready_problems: list[str] = field(default_factory=list)
    """What ``GET /readyz`` listed at the end of the window."""
    load_before: tuple[float, float, float] | None = None
    load_after: tuple[float, float, float] | None = None

    @property
    def server_p99(self) -> float:
        """Server-side p99 of the window's actions in ms (NaN: the server has no
        /api/stats)."""
        return _stat(self.window_stats, "p99")

    @property
    def ledger_ok(self) -> bool:
        """``history verify`` found no problem and no chip is left on a table."""
        return bool(
            self.verify
            and self.verify.get("ok")
            and self.verify.get("chips", {}).get("on_table", 1) == 0
        )


def _stat(stats: dict[str, Any] | None, key: str) -> float:
    if not stats or not isinstance(stats.get("latency_ms"), dict):
        return math.nan
    value = stats["latency_ms"].get(key)
    return float(value) if isinstance(value, int | float) else math.nan


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1, nearest rank) of ``values``; NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


# ---------------------------------------------------------------------------- the report
def _ms(seconds: float) -> str:
    return "n/a" if math.isnan(seconds) else f"{seconds * 1e3:.1f} ms"


def _games(plans: Sequence[TablePlan]) -> str:
    counts: dict[str, list[int]] = {}
    for p in plans:
        counts.setdefault(f"{p.game} {p.structure}", []).append(p.clients)
    return ", ".join(
        f"{len(c)} x {k} ({'/'.join(str(x) for x in sorted(set(c)))} clients)"
        for k, c in counts.items()
    )


MEMORY_TARGET_MIB: Final = 150
"""Issue 26: the server's resident memory once ready (numba only when a table needs it)."""


def targets(out: Outcome) -> list[tuple[str, bool, str]]:
    """(target, met, what was measured) for each of the issue's targets."""
    p99 = out.server_p99
    errors = len(out.errors)
    verify = out.verify or {}
    chips = verify.get("chips", {})
    if not math.isnan(p99):
        p99_text = f"server-side p99 {p99:.2f} ms"
    elif out.server_stats is None:
        p99_text = "server-side p99 not available (no GET /api/stats)"
    else:
        p99_text = "server-side p99 not available (the server measured no action)"
    return [
        ("server-side p99 action latency <= 50 ms", p99 <= P99_TARGET_MS, p99_text),
        (
            "0 errors",
            errors == 0 and not out.closed,
            f"{errors} error messages, {len(out.closed)} sockets closed by the server",
        ),
        (
            "ledger balanced (history verify ok, no chip left on a table)",
            out.ledger_ok,
            f"verify ok={verify.get('ok')}, on the table {chips.get('on_table')}",
        ),
        (
            f"resident memory once ready <= {MEMORY_TARGET_MIB} MiB",
            out.memory_ready <= MEMORY_TARGET_MIB,
            f"{out.memory_ready:.0f} MiB once ready, peak {out.memory_peak:.0f} MiB under the load",
        ),
        (
            "server exits on SIGINT",
            out.exit_code is not None,
            f"exit code {out.exit_code} after {out.stop_seconds:.1f} s"
            if out.exit_code is not None
            else "killed: it did not exit within 20 s",
        ),
    ]


def report_lines(out: Outcome) -> list[str]:
    """The result block (machine lines excluded)."""
    o = out.options
    lat = out.client_latencies
    stats = out.server_stats
    lines = [
        f"setup: {o.clients} clients on {len(out.plans)} tables: {_games(out.plans)}; "
        f"buy-in {o.buy_in}, blinds 5/10, think time {o.think:g} s, "
        f"clients {'offer' if o.compression else 'do not offer'} permessage-deflate "
        "(croupier serve declines it unless --ws-compression), "
        f"time bank {o.time_bank:g} s",
        "setup times: " + ", ".join(f"{k} {v:.1f} s" for k, v in out.setup.items()),
        f"setup: registrations {REGISTER_CONCURRENCY} at a time, logins "
        f"{o.login_concurrency} at a time; {len(out.login_500s)} logins answered 500 and were retried"
        + (f" (server problem: {len(set(out.login_500s))} accounts)" if out.login_500s else ""),
        f"window: {out.window:.1f} s; {out.hands:,} hands = {out.hands / out.window:.1f} hands/s; "
        f"{out.actions:,} client actions = {out.actions / out.window:.0f} actions/s; "
        f"{out.resits} re-sits after a bust",
    ]
    if stats is not None:
        start = out.server_stats_start or {}
        d_actions = int(stats.get("actions", 0)) - int(start.get("actions", 0))
        d_hands = int(stats.get("hands", 0)) - int(start.get("hands", 0))
        window = out.window_stats
        if window is not None:
            lines.append(
                f"server-side in the window (GET /api/stats?since=N, receive -> views queued; "
                f"{int(window.get('latency_ms', {}).get('count') or 0):,} actions): "
                f"p50 {_stat(window, 'p50'):.2f} ms, p99 {_stat(window, 'p99'):.2f} ms, "
                f"max {_stat(window, 'max'):.2f} ms"
            )
        lines.append(
            f"server-side over the server's whole life (warm-up included, "
            f"{int(_stat(stats, 'count') if not math.isnan(_stat(stats, 'count')) else 0):,} "
            f"actions): p50 {_stat(stats, 'p50'):.2f} ms, p99 {_stat(stats, 'p99'):.2f} ms, "
            f"max {_stat(stats, 'max'):.2f} ms; in the window {d_actions:,} actions, "
            f"{d_hands:,} hands, server errors {stats.get('errors')}"
        )
        if "journal_batches" in stats:
            batches = int(stats["journal_batches"]) - int(start.get("journal_batches", 0))
            lines.append(
                f"journal: {batches:,} transactions in the window "
                f"({d_actions / max(batches, 1):.1f} actions each, the group commit)"
            )
    else:
        lines.append(
            "server-side: GET /api/stats not available on this server (no server-side latency)"
        )
    lines.append(
        f"client-side (send act -> next view of the table; an upper bound): {len(lat):,} samples, "
        f"p50 {_ms(percentile(lat, 0.5))}, p90 {_ms(percentile(lat, 0.9))}, "
        f"p99 {_ms(percentile(lat, 0.99))}, max {_ms(max(lat) if lat else math.nan)}"
        + (f", mean {_ms(statistics.fmean(lat))}" if lat else "")
    )
    cores = os.cpu_count() or 1
    lines.append(
        f"CPU in the window: server {out.server_cpu:.1f} s ({out.server_cpu / out.window:.0%} of a core), "
        f"clients (this process) {out.client_cpu:.1f} s ({out.client_cpu / out.window:.0%}); "
        f"{cores} cores; server CPU per client action "
        f"{_ms(out.server_cpu / out.actions if out.actions else math.nan)}"
    )
    if not math.isnan(out.steal):
        lines.append(
            f"stolen CPU time in the window: {out.steal:.0%} of the machine's (the hypervisor ran "
            "other guests on these CPUs"
            + (
                "; rates are low and latencies high: run again on a quieter host)"
                if out.steal > STEAL_WARNING
                else ")"
            )
        )
    phases: dict[str, int] = {}
    for phase, _, _ in out.errors:
        phases[phase] = phases.get(phase, 0) + 1
    lines.append(
        f"errors: {len(out.errors)}"
        + (" (" + ", ".join(f"{k} {v}" for k, v in phases.items()) + ")" if phases else "")
        + f"; sockets closed by the server: {len(out.closed)}; sits sent again after "
        f"no_table: {out.sit_retries}"
    )
    for phase, name, message in out.errors[:FIRST_ERRORS]:
        lines.append(f"  [{phase}] {name}: {json.dumps(message)}")
    lines.append(
        f"server log: {len(out.log_errors)} error or warning lines; GET /readyz at the end of the window: "
        + ("ready" if not out.ready_problems else "; ".join(out.ready_problems))
    )
    for line in out.log_errors[:FIRST_ERRORS]:
        lines.append(f"  log: {line[:300]}")
    lines.append(
        f"shutdown: tables emptied {'yes' if out.emptied else 'NO: ' + json.dumps(out.left_seated)}; "
        f"server exit code {out.exit_code} after SIGINT ({out.stop_seconds:.1f} s)"
    )
    verify = out.verify
    if verify is not None:
        chips = verify.get("chips", {})
        lines.append(
            f"history verify ({out.verify_seconds:.1f} s): ok={verify.get('ok')}, "
            f"{verify.get('sessions')} sessions, {verify.get('hands')} hands, "
            f"{verify.get('ledger_entries')} ledger entries; chips bought in "
            f"{chips.get('bought_in')}, cashed out {chips.get('cashed_out')}, house "
            f"{chips.get('house')}, on the table {chips.get('on_table')}"
        )
        for problem in verify.get("problems", [])[:FIRST_ERRORS]:
            lines.append(f"  problem: {problem}")
    else:
        lines.append(f"history verify failed to report:\n{out.verify_text}")
    if out.exit_code != 0:
        lines.append("server log (end):\n" + out.server_log)
    return lines
