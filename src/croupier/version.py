"""The installed croupier version, recorded in the first event of every hand and round.

>>> engine_version() == __import__("croupier").__version__
True
"""

from __future__ import annotations

from functools import cache
from importlib import metadata

__all__ = ["engine_version"]


@cache
def engine_version() -> str:
    """The installed croupier version (``"unknown"`` in a source tree not installed)."""
    try:
        return metadata.version("croupier")
    except metadata.PackageNotFoundError:  # pragma: no cover - a source tree not installed
        return "unknown"
