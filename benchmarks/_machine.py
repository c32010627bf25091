"""The machine a figure was measured on: CPU, caches, cores, numba threads and load.

Every benchmark block prints these lines beside its figures (see
:func:`machine_lines`), so a pasted table always says where it came from. The CPU
comes from ``/proc/cpuinfo`` (model name, vendor, family, model, stepping), the caches
from ``/sys/devices/system/cpu/cpu0/cache/index*`` (falling back to ``lscpu``), the
load average from :func:`os.getloadavg`.
"""

from __future__ import annotations

import dataclasses
import math
import os
import platform
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np

__all__ = [
    "Cache",
    "Machine",
    "busy_warning",
    "cores",
    "fits_in",
    "load_average",
    "machine",
    "machine_lines",
    "memory_lines",
    "numba_threads",
    "table_arrays",
]

BUSY_FRACTION: Final = 0.5
"""Warn when the 1-minute load average at the start is above this many times the cores."""


@dataclass(frozen=True)
class Cache:
    """One cache of CPU 0, as sysfs (or lscpu) describes it."""

    level: int
    kind: str
    """``Data``, ``Instruction`` or ``Unified``."""
    size: int
    """Bytes."""
    shared_by: int
    """Logical CPUs sharing this cache (1: private to a core)."""

    @property
    def name(self) -> str:
        """``L1d``, ``L1i``, ``L2``, ``L3``."""
        suffix = {"Data": "d", "Instruction": "i"}.get(self.kind, "")
        return f"L{self.level}{suffix}"


@dataclass(frozen=True)
class Machine:
    """What the benchmarks ran on."""

    cpu: str
    vendor: str
    family: str
    model: str
    stepping: str
    caches: tuple[Cache, ...]
    cores: int
    numba_threads: int
    platform: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary."""
        return dataclasses.asdict(self)


def cores() -> int:
    """Logical cores available to this process."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def numba_threads() -> int:
    """Threads numba's ``prange`` loops run on."""
    import numba

    return int(numba.get_num_threads())


def load_average() -> tuple[float, float, float] | None:
    """The 1, 5 and 15-minute load averages, or None where the OS has none."""
    try:
        one, five, fifteen = os.getloadavg()
    except (OSError, AttributeError):
        return None
    return round(one, 2), round(five, 2), round(fifteen, 2)


def cpu_ticks() -> tuple[int, int] | None:
    """The machine's stolen and total CPU ticks so far (``/proc/stat``), or None where
    there is none. Stolen time is time a virtual machine's CPUs were ready to run but the
    hypervisor ran someone else: a rate measured while it is high is low.

    >>> ticks = cpu_ticks()
    >>> ticks is None or ticks[0] <= ticks[1]
    True
    """
    try:
        first = Path("/proc/stat").read_text(encoding="utf-8").splitlines()[0].split()
    except (OSError, IndexError):
        return None
    if first[:1] != ["cpu"] or len(first) < 9:
        return None
    values = [int(v) for v in first[1:9]]  # user nice system idle iowait irq softirq steal
    return values[7], sum(values)


def steal_fraction(before: tuple[int, int] | None, after: tuple[int, int] | None) -> float:
    """The share of the CPU time between two :func:`cpu_ticks` readings that was stolen
    (NaN when either is missing or no time passed)."""
    if before is None or after is None or after[1] <= before[1]:
        return math.nan
    return (after[0] - before[0]) / (after[1] - before[1])


def _size(text: str) -> int:
    """``32K`` / ``1024K`` / ``32 MiB`` / ``2 MiB (2 instances)`` -> bytes."""
    word = text.split("(")[0].strip().replace(" ", "").upper().removesuffix("B").removesuffix("I")
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if word and word[-1] in scale:
        return int(float(word[:-1]) * scale[word[-1]])
    return int(word or 0)


def _cpu_list_count(text: str) -> int:
    count = 0
    for part in text.strip().split(","):
        if "-" in part:
            low, high = part.split("-")
            count += int(high) - int(low) + 1
        elif part:
            count += 1
    return count or 1


def _sysfs_caches() -> list[Cache]:
    base = Path("/sys/devices/system/cpu/cpu0/cache")
    found = []
    for index in sorted(base.glob("index*")) if base.is_dir() else []:
        try:
            shared = index / "shared_cpu_list"
            found.append(
                Cache(
                    int((index / "level").read_text()),
                    (index / "type").read_text().strip(),
                    _size((index / "size").read_text()),
                    _cpu_list_count(shared.read_text()) if shared.exists() else 1,
                )
            )
        except (OSError, ValueError):
            continue
    return found


def _lscpu_caches() -> list[Cache]:
    try:
        text = subprocess.run(
            ["lscpu"], capture_output=True, text=True, check=False, timeout=10
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    kinds = {
        "L1d": (1, "Data"),
        "L1i": (1, "Instruction"),
        "L2": (2, "Unified"),
        "L3": (3, "Unified"),
    }
    found = []
    for line in text.splitlines():
        name, _, value = line.partition(":")
        key = name.strip().removesuffix(" cache")
        if key in kinds:
            level, kind = kinds[key]
            total = _size(value)
            instances = 1
            if "instance" in value:
                instances = int(value.split("(")[1].split()[0])
            found.append(Cache(level, kind, total // instances, max(1, cores() // instances)))
    return found


@cache
def machine() -> Machine:
    """The machine this process runs on (read once)."""
    info: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition(":")
            key = key.strip()
            if key and key not in info:
                info[key] = value.strip()
            if not line.strip() and info:
                break  # the first CPU is enough
    except OSError:
        pass
    return Machine(
        cpu=info.get("model name") or platform.processor() or platform.machine(),
        vendor=info.get("vendor_id", "?"),
        family=info.get("cpu family", "?"),
        model=info.get("model", "?"),
        stepping=info.get("stepping", "?"),
        caches=tuple(_sysfs_caches() or _lscpu_caches()),
        cores=cores(),
        numba_threads=numba_threads(),
        platform=platform.platform(),
    )


def _bytes(n: float) -> str:
    for limit, suffix in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= limit:
            return f"{n / limit:.3g} {suffix}"
    return f"{n:.0f} B"


def fits_in(nbytes: int, m: Machine | None = None) -> str:
    """Which cache of this machine ``nbytes`` fit in, e.g. ``fits in L3 (32 MiB, shared)``."""
    m = m or machine()
    data = sorted((c for c in m.caches if c.kind != "Instruction"), key=lambda c: c.level)
    if not data:
        return "cache sizes unknown"
    for c in data:
        if nbytes <= c.size:
            smaller = [x.name for x in data if x.level < c.level]
            beyond = f"larger than {', '.join(smaller)}; " if smaller else ""
            return f"{beyond}fits in {c.name} ({_bytes(c.size)}{_sharing(c)})"
    last = data[-1]
    return f"larger than every cache (the last, {last.name}, holds {_bytes(last.size)})"


def _sharing(c: Cache) -> str:
    return ", per core" if c.shared_by == 1 else f", shared by {c.shared_by} CPUs"


def busy_warning(load: tuple[float, float, float] | None, m: Machine | None = None) -> str | None:
    """A warning sentence when the 1-minute load is above half the cores, else None."""
    m = m or machine()
    if load and load[0] > BUSY_FRACTION * m.cores:
        return (
            f"warning: load average {load[0]:.2f} at the start is above {BUSY_FRACTION:g} x "
            f"{m.cores} cores: other work shares the CPUs, so rates are noisy and low"
        )
    return None


def _load_text(load: tuple[float, float, float] | None) -> str:
    return "unknown" if load is None else " ".join(f"{x:.2f}" for x in load)


def machine_lines(
    before: tuple[float, float, float] | None, after: tuple[float, float, float] | None
) -> list[str]:
    """The lines printed at the head of every figure block."""
    m = machine()
    caches = ", ".join(f"{c.name} {_bytes(c.size)}{_sharing(c)}" for c in m.caches) or "unknown"
    lines = [
        f"machine: {m.cpu} ({m.vendor} family {m.family} model {m.model} stepping "
        f"{m.stepping}); {m.cores} cores; numba threads {m.numba_threads}",
        f"caches: {caches}",
        f"load average (1, 5, 15 min): {_load_text(before)} before, {_load_text(after)} after",
    ]
    warning = busy_warning(before, m)
    if warning:
        lines.append(warning)
    return lines


def table_arrays(obj: object) -> list[tuple[str, np.ndarray[Any, Any]]]:
    """Every numpy array held by a dataclass instance, in field order (no names hard-coded)."""
    if not dataclasses.is_dataclass(obj):
        return []
    out = []
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if isinstance(value, np.ndarray):
            out.append((f.name, value))
    return out


def _level(nbytes: int, m: Machine) -> str:
    """The smallest data cache ``nbytes`` fit in (``L2``), or ``memory``."""
    for c in sorted((c for c in m.caches if c.kind != "Instruction"), key=lambda c: c.level):
        if nbytes <= c.size:
            return c.name
    return "memory" if m.caches else "?"


def memory_lines(title: str, obj: object) -> tuple[list[str], int]:
    """Lines listing a table object's arrays (smallest first, with the running total and the
    cache level that total fits in), and the total bytes. Which arrays a kernel actually
    reads is the kernel's business: every array the object holds is counted."""
    m = machine()
    arrays = sorted(table_arrays(obj), key=lambda x: x[1].nbytes)
    total = sum(int(a.nbytes) for _, a in arrays)
    lines = [f"{title}: {_bytes(total)} in {len(arrays)} arrays; {fits_in(total, m)}"]
    running = 0
    for name, a in arrays:
        running += int(a.nbytes)
        lines.append(
            f"  {name:<18} {a.dtype!s:>7} x {a.size:>10,} {_bytes(a.nbytes):>10}"
            f"   with the smaller ones {_bytes(running):>10}, fits in {_level(running, m)}"
        )
    return lines, total
