"""Rendering a sheet: Markdown tables, strict JSON, a PDF that paginates, light imports."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.errors import CroupierError
from croupier.par.render import render, render_json, render_markdown, write_pdf
from croupier.par.sheet import (
    Bars,
    Estimate,
    Series,
    Sheet,
    Table,
    chips,
    mean_interval,
    proportion,
)

SRC = Path(__file__).resolve().parents[2] / "src"


def sheet(rows: int = 3) -> Sheet:
    table = Table(
        "Long table",
        ("n", "square", "note"),
        tuple((str(i), str(i * i), "a|b") for i in range(rows)),
        ("A note under it.",),
    )
    chart = Bars(
        "Chart",
        "x",
        "share",
        ("a", "b", "c"),
        (Series("one", (0.5, 0.0, 1e-5), (0.4, 0.0, 1e-6), (0.6, 0.0, 1e-4)),),
        log=True,
        note="A note.",
    )
    stacked = Bars("Stacked", "x", "y", ("a", "b"), (Series("p", (1, 2)), Series("q", (2, 1))),
                   stacked=True)  # fmt: skip
    return Sheet(
        "Test sheet",
        (("Game", "test"),),
        (table,),
        (chart, stacked, chart),
        ("Method.",),
        {"sheet": "test", "nan": float("nan"), "inf": [float("inf")], "x": 1.5},
    )


def test_markdown_tables_escape_pipes() -> None:
    text = render_markdown(sheet())
    assert text.startswith("# Test sheet\n\n| Setting | Value |\n| --- | --- |\n| Game | test |")
    assert "| 2 | 4 | a\\|b |" in text
    assert "A note under it." in text
    assert text.rstrip().endswith("- Method.")
    assert render(sheet(), "markdown") == text


def test_json_is_strict() -> None:
    text = render_json(sheet())
    assert json.loads(text) == {"sheet": "test", "nan": None, "inf": [None], "x": 1.5}
    assert "NaN" not in text
    with pytest.raises(CroupierError, match="format is one of"):
        render(sheet(), "html")


def test_pdf_pages_follow_the_content(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    short, long = tmp_path / "short.pdf", tmp_path / "long.pdf"
    n_short = write_pdf(sheet(3), short)
    n_long = write_pdf(sheet(160), long)  # 160 rows run over three pages
    for path, n in ((short, n_short), (long, n_long)):
        data = path.read_bytes()
        assert data.startswith(b"%PDF-")
        assert data.rstrip().endswith(b"%%EOF")
        assert len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data)) == n
    assert n_short == 1 + 2  # the tables' page, then two charts a page
    assert n_long == n_short + 3


def test_pdf_without_matplotlib_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(CroupierError, match="pip install 'croupier\\[plot\\]'"):
        write_pdf(sheet(), tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()


def test_estimates() -> None:
    e = proportion(50, 100)
    assert e.low is not None
    assert e.high is not None
    assert e.low < 0.5 < e.high
    assert proportion(7, 7).high == 1.0
    with pytest.raises(CroupierError):
        proportion(3, 2)
    m = mean_interval(10, 10, 10)  # ten ones: no spread
    assert (m.value, m.low, m.high) == (1.0, 1.0, 1.0)
    assert Estimate(Fraction(2, 3)).to_json() == {
        "value": 2 / 3,
        "source": "exact",
        "exact": "2/3",
    }
    assert Estimate(Decimal("1.50"), source="assumed").describe() == "1.50"
    assert chips(Fraction(1, 3)) == Decimal("0.333")
    assert chips(Fraction(3, 8)) == Decimal("0.375")


def test_importing_the_package_loads_no_math() -> None:
    code = (
        "import sys, croupier.par, croupier.par.sheet, croupier.par.render\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('numpy', 'numba', 'matplotlib')"
        " or m.startswith('croupier.blackjack.math')]\n"
        "print(heavy)"
    )
    env = dict(os.environ, PYTHONPATH=str(SRC))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True)  # fmt: skip
    assert out.stdout.strip() == "[]"
