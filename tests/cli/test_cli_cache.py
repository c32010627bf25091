"""Issue 10, point 11: a damaged table cache (not a zip, truncated, wrong arrays) is rebuilt
transparently with a one-line warning, never a ``BadZipFile`` traceback; a damaged file that
cannot be replaced is worked around in memory and the warning says how to fix it."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from croupier.evaluation.tables import TableCacheWarning, load_cached

SRC = Path(__file__).resolve().parents[2] / "src"
SPEC: dict[str, tuple[type[np.generic], tuple[int, ...]]] = {
    "a": (np.uint16, (4,)),
    "b": (np.int32, (-1,)),
}


def build() -> dict[str, npt.NDArray[np.generic]]:
    return {"a": np.arange(4, dtype=np.uint16), "b": np.array([7, 8, 9], np.int32)}


def croupier(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    env["CROUPIER_CACHE_DIR"] = str(cache)
    return subprocess.run(
        [sys.executable, "-m", "croupier", *args],
        capture_output=True, text=True, env=env, check=False, timeout=300,
    )  # fmt: skip


def test_a_missing_cache_is_built_silently(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        arrays = load_cached(tmp_path / "t.npz", SPEC, build)
    assert arrays["b"].tolist() == [7, 8, 9]
    assert (tmp_path / "t.npz").is_file()
    again = load_cached(tmp_path / "t.npz", SPEC, lambda: {})  # read back, not rebuilt
    assert again["a"].tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "damage",
    [
        b"garbage, not a zip file",
        b"PK\x03\x04" + b"\x00" * 40,  # a zip header, then nothing
        "truncate",
        "wrong-arrays",
    ],
)
def test_a_damaged_cache_is_rebuilt_with_a_warning(tmp_path: Path, damage: bytes | str) -> None:
    path = tmp_path / "t.npz"
    load_cached(path, SPEC, build)
    if damage == "truncate":
        path.write_bytes(path.read_bytes()[:60])
    elif damage == "wrong-arrays":
        np.savez(path, a=np.zeros(3, np.float64))
    else:
        assert isinstance(damage, bytes)
        path.write_bytes(damage)
    with pytest.warns(TableCacheWarning, match="was damaged .*; rebuilt it"):
        arrays = load_cached(path, SPEC, build)
    assert arrays["a"].tolist() == [0, 1, 2, 3]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the rebuilt file is good again: no second warning
        assert load_cached(path, SPEC, lambda: {})["b"].tolist() == [7, 8, 9]


def test_a_damaged_cache_that_cannot_be_replaced_says_how_to_fix_it(tmp_path: Path) -> None:
    path = tmp_path / "t.npz"
    path.mkdir()  # a folder where the file should be: unreadable and cannot be replaced
    with pytest.warns(TableCacheWarning, match="Delete the file or set CROUPIER_CACHE_DIR"):
        arrays = load_cached(path, SPEC, build)
    assert arrays["a"].tolist() == [0, 1, 2, 3]


def test_the_cli_rebuilds_damaged_tables_and_warns_on_one_line(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = croupier(cache, "eval", "As", "Kd", "--board", "Ah Kc 2s 7d 9h")
    assert first.returncode == 0, first.stderr
    files = sorted(cache.glob("tables-*.npz"))
    assert files
    for path in files:
        path.write_bytes(b"PK\x05\x06 damaged")
    again = croupier(cache, "eval", "As", "Kd", "--board", "Ah Kc 2s 7d 9h")
    assert again.returncode == 0
    assert again.stdout == first.stdout  # the same answer from rebuilt tables
    assert "Traceback" not in again.stderr
    lines = again.stderr.splitlines()
    assert lines, "the rebuild must be reported"
    assert all(line.startswith("croupier: warning: the table cache ") for line in lines)
    assert all("rebuilt it" in line for line in lines)
    third = croupier(cache, "eval", "As", "Kd", "--board", "Ah Kc 2s 7d 9h")
    assert third.returncode == 0
    assert third.stderr == ""
