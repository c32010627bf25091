"""The rank tables' layout and cache files, readable without numpy.

:mod:`croupier.evaluation.tables` builds the tables with numpy and caches them as ``.npz``
files; everything here is plain Python, so the one-call evaluator (and ``croupier eval``) can
read a cached table file without importing numpy: :func:`read_npz` maps the file into
memory and returns each array as a typed :class:`memoryview`, or ``None`` when anything about
the file is unexpected (the caller then goes through numpy, which rebuilds and warns).

>>> unpack_value(pack_value(5, (12, 11)))
(5, (12, 11, 0, 0, 0))
"""

from __future__ import annotations

import importlib
import mmap
import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, Literal

if TYPE_CHECKING:
    from pathlib import Path

    from croupier.evaluation.rankings import HandRanking

__all__ = [
    "FORMAT_VERSION",
    "HASH_SHIFT",
    "INVALID_CARD_MASK",
    "RANK_WEIGHTS_5",
    "RANK_WEIGHTS_7",
    "cache_dir",
    "cache_path",
    "pack_value",
    "read_npz",
    "unpack_value",
]

# Found by a greedy search (smallest next weight keeping multiset sums distinct); the
# table builder refuses any collision among exactly-7 (resp. exactly-5) multisets.
RANK_WEIGHTS_7: Final = (
    0, 1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359,
)  # fmt: skip
RANK_WEIGHTS_5: Final = (
    0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415,
)  # fmt: skip

FORMAT_VERSION: Final = 5
"""Version of the cached table files (part of their name)."""

HASH_SHIFT: Final = 9
"""Row width (``2**HASH_SHIFT`` keys) of the compact tables' displacement hash (see
:class:`~croupier.evaluation.tables.RankTables`); 9 gives the smallest seven-card table,
235 KB with its offsets."""

INVALID_CARD_MASK: Final = 1 << 15
"""The suit-mask entry of a table slot that is not a card of the deck: bit 15 of the clubs
field, which no rank uses. A hand's summed masks show it, and a repeated card shows as a
carry (fewer set bits than cards)."""


def pack_value(position: int, kickers: tuple[int, ...]) -> int:
    """Pack a category position and up to five significant ranks into one sortable int.

    >>> unpack_value(pack_value(5, (12, 11)))
    (5, (12, 11, 0, 0, 0))
    """
    value = position
    for i in range(5):
        value = (value << 4) | (kickers[i] if i < len(kickers) else 0)
    return value


def unpack_value(value: int) -> tuple[int, tuple[int, ...]]:
    """Split a packed value into the category position and five rank slots.

    >>> unpack_value(pack_value(1, (12, 11, 10, 9)))
    (1, (12, 11, 10, 9, 0))
    """
    kickers = tuple((value >> (4 * (4 - i))) & 0xF for i in range(5))
    return value >> 20, kickers


def _sha256() -> Callable[[bytes], Any]:
    """SHA-256 from the interpreter's built-in module when it has one (``hashlib`` loads
    OpenSSL, a few milliseconds of a short command's start-up), else from ``hashlib``."""
    for name in ("_sha2", "_sha256"):  # CPython 3.12+, 3.11
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        function: Callable[[bytes], Any] = module.sha256
        return function
    import hashlib

    return hashlib.sha256


def _cache_folder() -> str:
    explicit = os.environ.get("CROUPIER_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "croupier")


def _cache_file(ranking: HandRanking) -> str:
    fingerprint = repr((FORMAT_VERSION, RANK_WEIGHTS_7, RANK_WEIGHTS_5, ranking.name,
                        int(ranking.lowest_rank), ranking.order, ranking.ace_low_straight))  # fmt: skip
    digest = _sha256()(fingerprint.encode()).hexdigest()[:16]
    return os.path.join(_cache_folder(), f"tables-{ranking.name}-{digest}.npz")


def cache_dir() -> Path:
    """Where built tables are cached: ``$CROUPIER_CACHE_DIR``, else the user cache folder.

    >>> cache_dir().name
    'croupier'
    """
    from pathlib import Path

    return Path(_cache_folder())


def cache_path(ranking: HandRanking) -> Path:
    """The cached table file of a ranking (its name carries a digest of the layout).

    >>> from croupier.evaluation.rankings import STANDARD
    >>> cache_path(STANDARD).name.startswith("tables-standard-")
    True
    """
    from pathlib import Path

    return Path(_cache_file(ranking))


_TYPECODES: Final[dict[str, Literal["H", "B", "i", "q", "Q"]]] = {
    "<u2": "H",
    "|u1": "B",
    "<i4": "i",
    "<i8": "q",
    "<u8": "Q",
}
"""Little-endian ``.npy`` types -> :mod:`array` type codes of the same size on this machine."""
_HEADER: Final = re.compile(
    r"\{'descr': '([<|][uif][1248])', 'fortran_order': False, 'shape': \((\d+),\), \}"
)


def _stored_members(data: mmap.mmap) -> dict[str, int] | None:
    """``name -> start of its data`` of every member of the zip in ``data``, walking the local
    headers from the front; ``None`` unless every member is stored uncompressed with its
    sizes in its header (how :func:`numpy.savez` writes a file). Each member's length comes
    from its own ``.npy`` header (:func:`read_npz`), which is checked against the next member."""
    out: dict[str, int] = {}
    at = 0
    end = len(data)
    while at + 30 <= end and data[at : at + 4] == b"PK\x03\x04":
        flags = int.from_bytes(data[at + 6 : at + 8], "little")
        method = int.from_bytes(data[at + 8 : at + 10], "little")
        if flags & 0x9 or method != 0:  # encrypted, sizes after the data, or compressed
            return None
        name_len = int.from_bytes(data[at + 26 : at + 28], "little")
        extra_len = int.from_bytes(data[at + 28 : at + 30], "little")
        name = data[at + 30 : at + 30 + name_len].decode("utf-8", "replace")
        start = at + 30 + name_len + extra_len
        size = _npy_size(data, start)
        if size is None:
            return None
        out[name] = start
        at = start + size
    if data[at : at + 4] != b"PK\x01\x02":  # the central directory follows the last member
        return None
    return out


def _npy_header(data: mmap.mmap, start: int) -> tuple[str, int, int] | None:
    """``(type, length, offset of the data)`` of the ``.npy`` array at ``start``."""
    if data[start : start + 6] != b"\x93NUMPY" or data[start + 6] != 1:
        return None
    header_len = int.from_bytes(data[start + 8 : start + 10], "little")
    header = data[start + 10 : start + 10 + header_len].decode("latin-1").strip()
    found = _HEADER.fullmatch(header)
    if found is None or found.group(1) not in _TYPECODES:
        return None
    return found.group(1), int(found.group(2)), start + 10 + header_len


def _npy_size(data: mmap.mmap, start: int) -> int | None:
    header = _npy_header(data, start)
    if header is None:
        return None
    descr, count, body = header
    return body - start + count * int(descr[-1])


def read_npz(
    path: str | Path, expected: Mapping[str, tuple[str, int]]
) -> dict[str, memoryview] | None:
    """The arrays ``expected`` (``name -> (npy type such as '<u2', length or -1)``) of the
    ``.npz`` file at ``path``, as read-only memoryviews over the mapped file; ``None`` if the
    file is missing, damaged or not laid out as expected (or this machine is big-endian).

    >>> import os, tempfile, numpy as np
    >>> path = os.path.join(tempfile.mkdtemp(), "t.npz")
    >>> np.savez(path, a=np.arange(3, dtype=np.uint16))
    >>> read_npz(path, {"a": ("<u2", 3)})["a"].tolist()
    [0, 1, 2]
    >>> read_npz(path, {"a": ("<i4", -1)}) is None
    True
    """
    if sys.byteorder != "little":  # pragma: no cover - every supported platform is
        return None
    try:
        with open(path, "rb") as handle:
            data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    try:
        members = _stored_members(data)
        if members is None:
            return None
        out: dict[str, memoryview] = {}
        for name, (descr, length) in expected.items():
            start = members.get(f"{name}.npy")
            header = None if start is None else _npy_header(data, start)
            if header is None or header[0] != descr or length not in (-1, header[1]):
                return None
            _, count, body = header
            size = count * int(descr[-1])
            out[name] = memoryview(data)[body : body + size].cast(_TYPECODES[descr])
        return out
    except (ValueError, IndexError, TypeError):  # a damaged file: numpy's loader rebuilds it
        return None
