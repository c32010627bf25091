"""``docs/research.md`` checks itself: every ``>>>`` example runs and prints what it shows."""

from __future__ import annotations

import doctest
from pathlib import Path

RESEARCH = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def test_the_research_examples_run() -> None:
    result = doctest.testfile(
        str(RESEARCH),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE,
        verbose=False,
    )
    assert result.attempted > 20
    assert result.failed == 0
