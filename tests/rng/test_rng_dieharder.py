"""Issue 29, point 6: Debian's Dieharder on a raw export of the live shuffle's bytes.

``.ci/run`` installs the ``dieharder`` package when it is missing; without it these tests
skip, saying why. The export is 16 MiB and every Dieharder test below reads less than that
(``-t`` sets its sample size; docs/rng.md lists what each reads), so Dieharder never rewinds
the file, which would repeat data and fail tests that are sound.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner
from rng_helpers import good_stream, stuck_bit

from croupier.cli.app import cli
from croupier.rngtest.battery import run_battery
from croupier.rngtest.export import export_shuffles

DIEHARDER = shutil.which("dieharder")
pytestmark = pytest.mark.skipif(
    DIEHARDER is None,
    reason="Debian's dieharder is not installed (apt-get install dieharder; .ci/run does it)",
)

RAW_BYTES = 16 * 1024 * 1024

TESTS: dict[str, list[str]] = {
    "diehard_birthdays": ["-d", "0", "-t", "50"],
    "diehard_count_1s_str": ["-d", "8", "-t", "100000"],
    "diehard_runs": ["-d", "15", "-t", "25000"],
    "sts_monobit": ["-d", "100", "-t", "25000"],
    "sts_runs": ["-d", "101", "-t", "25000"],
    "dab_dct": ["-d", "206", "-t", "12000"],
}
"""A representative set that fits in the export (each reads 8 to 14 MB of the 16.8 MB):
spacings, byte-level bit counts, runs, bit balance, bit runs and frequency content
(Dieharder's own -a reads gigabytes). Each sample size was checked on eleven 16 MiB blocks
of /dev/urandom: smaller ones can break a test (count_1s_str at -t 64000 fails sound
bytes), so do not shrink them without checking again."""

_ROW = re.compile(r"^\s*(\w+)\|\s*\d+\|\s*\d+\|\s*\d+\|\s*([0-9.]+)\|\s*(PASSED|WEAK|FAILED)")


def dieharder(path: Path, options: list[str]) -> tuple[list[tuple[str, float, str]], str]:
    """Run one Dieharder test on a raw file: its result rows and its whole output."""
    assert DIEHARDER is not None
    run = subprocess.run(
        [DIEHARDER, "-g", "201", "-f", str(path), *options],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    rows = [(m[1], float(m[2]), m[3]) for m in map(_ROW.match, run.stdout.splitlines()) if m]
    return rows, run.stdout + run.stderr


def test_dieharder_passes_a_raw_export_of_the_live_shuffle(tmp_path: Path) -> None:
    raw = tmp_path / "raw.bin"
    result = CliRunner().invoke(
        cli, ["rng", "export", "--raw", str(raw), "--bytes", str(RAW_BYTES)]
    )
    assert result.exit_code == 0, result.output
    assert raw.stat().st_size == RAW_BYTES
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = dict(zip(TESTS, pool.map(lambda o: dieharder(raw, o), TESTS.values()), strict=True))
    for name, (rows, output) in runs.items():
        assert "rewound" not in output, f"{name} read more than the export: {output}"
        assert rows, output
        assert all(row[0] == name for row in rows), output
        failed = [row for row in rows if row[2] == "FAILED"]
        assert not failed, f"{name}: {failed}"


def test_dieharder_sees_a_stuck_top_bit_that_the_cards_never_see(tmp_path: Path) -> None:
    """Why the raw export matters: with bit 7 of every byte stuck, a 52-card deal is still
    fair (the scaler reads the low 6 bits), so the card tests pass; the raw bytes fail."""
    raw = tmp_path / "stuck.bin"
    with raw.open("wb") as sink:
        export_shuffles(byte_count=5_000_000, raw=sink, source=stuck_bit(good_stream(5), 7))
    with raw.open("rb") as stream:
        report = run_battery(10**9, 52, read=stream.read, source=str(raw))
    assert report.passed
    rows, output = dieharder(raw, ["-d", "100", "-t", "10000"])
    assert "rewound" not in output
    assert rows == [("sts_monobit", 0.0, "FAILED")]
