r"""A PAR sheet (:class:`~croupier.par.sheet.Sheet`) as Markdown, JSON or a PDF with charts.

The PDF is drawn with matplotlib (the optional ``plot`` extra), imported only when a PDF
is written, through its own canvases: no pyplot, and the caller's backend is left alone.

>>> from croupier.par.sheet import Sheet, Table
>>> sheet = Sheet("PAR", (("Game", "demo"),), (Table("Odds", ("what", "value"), (("a|b", "1"),)),),
...               (), ("A note.",), {"sheet": "demo", "x": float("nan")})
>>> print(render_markdown(sheet))
# PAR
<BLANKLINE>
| Setting | Value |
| --- | --- |
| Game | demo |
<BLANKLINE>
## Odds
<BLANKLINE>
| what | value |
| --- | --- |
| a\|b | 1 |
<BLANKLINE>
## Method and assumptions
<BLANKLINE>
- A note.
<BLANKLINE>
>>> render_json(sheet)
'{\n  "sheet": "demo",\n  "x": null\n}'
"""

from __future__ import annotations

import json
import math
import os
import textwrap
from typing import TYPE_CHECKING, Any

from croupier.errors import CroupierError
from croupier.par.sheet import Bars, Sheet, Table

if TYPE_CHECKING:
    from matplotlib.backends.backend_pdf import PdfPages
    from matplotlib.figure import Figure

__all__ = ["FORMATS", "render", "render_json", "render_markdown", "write_pdf"]

FORMATS = ("markdown", "json", "pdf")
"""The output formats."""

_MISSING = "the PDF needs matplotlib: pip install 'croupier[plot]'"
PAGE = (8.27, 11.69)
"""A4 portrait, in inches."""
_MARGIN = 0.55
_ROW = 0.2
_MIN_ROWS = 4
_FONT = 7.0
_COLOURS = ("#1f3f7a", "#c0392b", "#3fa34d", "#f39c12", "#8e44ad", "#16a085", "#7f8c8d")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _md_table(header: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> list[str]:
    lines = ["| " + " | ".join(_cell(h) for h in header) + " |"]
    lines.append("| " + " | ".join("---" for _ in header) + " |")
    lines.extend("| " + " | ".join(_cell(c) for c in row) + " |" for row in rows)
    return lines


def render_markdown(sheet: Sheet) -> str:
    """The sheet as Markdown: the settings, each table (with its notes), the method and
    assumptions. Charts are in the PDF only (see the module example)."""
    lines = [f"# {sheet.title}", ""]
    if sheet.facts:
        lines += _md_table(("Setting", "Value"), sheet.facts)
        lines.append("")
    for table in sheet.tables:
        lines += [f"## {table.title}", ""]
        lines += _md_table(table.header, table.rows)
        lines.append("")
        for note in table.notes:
            lines += [note, ""]
    if sheet.notes:
        lines += ["## Method and assumptions", ""]
        lines += [f"- {note}" for note in sheet.notes]
        lines.append("")
    return "\n".join(lines)


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(key): _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def render_json(sheet: Sheet) -> str:
    """The sheet's data as strict JSON (RFC 8259; an undefined figure is ``null``),
    indented (see the module example)."""
    return json.dumps(_finite(sheet.data), indent=2, allow_nan=False)


def render(sheet: Sheet, fmt: str) -> str:
    """The sheet as text in ``fmt`` (``markdown`` or ``json``; a PDF is a file:
    :func:`write_pdf`).

    >>> from croupier.par.sheet import Sheet
    >>> render(Sheet("PAR", (), (), (), ()), "pdf")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: a PDF is written to a file (write_pdf), not rendered as text
    """
    if fmt == "markdown":
        return render_markdown(sheet)
    if fmt == "json":
        return render_json(sheet)
    if fmt == "pdf":
        raise CroupierError("a PDF is written to a file (write_pdf), not rendered as text")
    raise CroupierError(f"the format is one of {', '.join(FORMATS)}, not {fmt!r}")


# ------------------------------------------------------------------------------- PDF
def _require_matplotlib() -> None:
    try:
        import matplotlib
        import matplotlib.backends.backend_pdf  # noqa: F401
    except ImportError as exc:
        raise CroupierError(_MISSING) from exc


class _Pages:
    """Lays blocks (headings, tables, paragraphs) down A4 pages, top to bottom."""

    def __init__(self, pdf: PdfPages, title: str) -> None:
        self.pdf = pdf
        self.title = title
        self.fig: Figure | None = None
        self.y = 0.0  # inches from the top already used
        self.count = 0
        self.charts = 0  # charts on the current page (two fit)

    def _new(self) -> Figure:
        from matplotlib.figure import Figure

        self.flush()
        self.fig = Figure(figsize=PAGE)
        self.count += 1
        self.charts = 0
        self.fig.text(
            1 - _MARGIN / PAGE[0], 0.3 / PAGE[1], f"{self.title}, page {self.count}",
            ha="right", va="bottom", fontsize=6, color="#666666",
        )  # fmt: skip
        self.y = _MARGIN
        return self.fig

    def flush(self) -> None:
        if self.fig is not None:
            self.pdf.savefig(self.fig)  # type: ignore[no-untyped-call]
            self.fig.clear()
            self.fig = None

    def _room(self, height: float) -> Figure:
        if self.fig is None or self.y + height > PAGE[1] - _MARGIN:
            return self._new()
        return self.fig

    def text(
        self, text: str, *, size: float, weight: str = "normal", gap: float = 0.08,
        keep: float = 0.0,
    ) -> None:  # fmt: skip
        """A paragraph; ``keep``: inches that must fit after it on the same page."""
        width = int((PAGE[0] - 2 * _MARGIN) * 72 / (size * 0.5))
        lines = textwrap.wrap(text, width) or [""]
        height = len(lines) * size * 1.35 / 72 + gap
        fig = self._room(height + keep)
        fig.text(
            _MARGIN / PAGE[0], 1 - self.y / PAGE[1], "\n".join(lines),
            ha="left", va="top", fontsize=size, weight=weight, linespacing=1.3,
        )  # fmt: skip
        self.y += height

    def table(self, header: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> None:
        """A table filling the page from the cursor down, continued (header repeated) on the
        next pages; at least :data:`_MIN_ROWS` rows go under a heading."""
        left = list(rows) or [("",) * len(header)]
        while left:
            space = PAGE[1] - _MARGIN - self.y - 0.1 if self.fig is not None else 0.0
            fit = int(space / _ROW) - 1
            if fit < min(len(left), _MIN_ROWS):
                self._new()
                continue
            chunk, left = left[:fit], left[fit:]
            height = (len(chunk) + 1) * _ROW
            fig = self.fig
            assert fig is not None
            width = PAGE[0] - 2 * _MARGIN
            ax = fig.add_axes(
                (_MARGIN / PAGE[0], 1 - (self.y + height) / PAGE[1], width / PAGE[0],
                 height / PAGE[1])
            )  # fmt: skip
            ax.axis("off")
            from matplotlib.transforms import Bbox

            sizes = [
                max(len(str(c)) for c in (header[i], *(r[i] for r in chunk))) + 2
                for i in range(len(header))
            ]
            total = sum(sizes)
            table = ax.table(
                cellText=[list(r) for r in chunk],
                colLabels=list(header),
                colWidths=[s / total for s in sizes],
                cellLoc="left",
                bbox=Bbox.from_bounds(0, 0, 1, 1),
            )
            table.auto_set_font_size(False)
            table.set_fontsize(_FONT)
            for (row, _col), cell in table.get_celld().items():
                cell.set_linewidth(0.3)
                if row == 0:
                    cell.set_facecolor("#dde4ee")
                    cell.set_text_props(weight="bold")
            self.y += height + 0.1

    def chart(self, bars: Bars) -> None:
        """Two charts a page, each with its legend on the right and its note under it."""
        if self.fig is None or self.charts == 2 or self.charts == 0:
            self._new()
            self.charts = 0
        fig = self.fig
        assert fig is not None
        top = _MARGIN + self.charts * (PAGE[1] - 2 * _MARGIN) / 2 + 0.35
        height = 3.3
        ax = fig.add_axes((0.11, 1 - (top + height) / PAGE[1], 0.64, height / PAGE[1]))
        self.charts += 1
        self.y = PAGE[1]  # text after a chart starts a new page
        n = len(bars.series)
        xs = list(range(len(bars.categories)))
        width = 0.8 if bars.stacked else 0.8 / max(n, 1)
        bottom = [0.0] * len(xs)
        for i, s in enumerate(bars.series):
            colour = _COLOURS[i % len(_COLOURS)]
            if bars.stacked:
                ax.bar(xs, s.values, width, bottom=bottom, label=s.name, color=colour)
                bottom = [b + v for b, v in zip(bottom, s.values, strict=True)]
                continue
            pos = [x - 0.4 + width * (i + 0.5) for x in xs]
            keep = [j for j, v in enumerate(s.values) if v > 0 or not bars.log]
            ax.bar([pos[j] for j in keep], [s.values[j] for j in keep], width, label=s.name,
                   color=colour)  # fmt: skip
            if s.low is not None and s.high is not None:
                err = [
                    [max(s.values[j] - s.low[j], 0.0) for j in keep],
                    [max(s.high[j] - s.values[j], 0.0) for j in keep],
                ]
                ax.errorbar([pos[j] for j in keep], [s.values[j] for j in keep], yerr=err,
                            fmt="none", ecolor="#222222", elinewidth=0.8, capsize=2)  # fmt: skip
        if bars.log:
            ax.set_yscale("log")
        long = sum(len(c) for c in bars.categories) > 70
        ax.set_xticks(xs, bars.categories, rotation=30 if long else 0, fontsize=7,
                      ha="right" if long else "center")  # fmt: skip
        ax.tick_params(axis="y", labelsize=7)
        ax.set_xlabel(bars.xlabel, fontsize=8)
        ax.set_ylabel(bars.ylabel, fontsize=8)
        ax.set_title(bars.title, weight="bold", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
        if bars.note:
            fig.text(
                _MARGIN / PAGE[0], 1 - (top + height + (1.25 if long else 0.65)) / PAGE[1],
                "\n".join(textwrap.wrap(bars.note, 120)), ha="left", va="top", fontsize=7,
            )  # fmt: skip


def write_pdf(sheet: Sheet, path: str | os.PathLike[str]) -> int:
    """Write the sheet as a PDF at ``path``: the settings and tables, the method and
    assumptions, then one page a chart. Returns the number of pages.

    >>> import os, tempfile
    >>> from croupier.par.sheet import Bars, Series, Sheet, Table
    >>> sheet = Sheet("PAR", (("Game", "demo"),), (Table("Odds", ("a", "b"), (("1", "2"),)),),
    ...               (Bars("Chart", "x", "y", ("p", "q"), (Series("s", (1.0, 2.0)),)),), ("A note.",))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     name = os.path.join(tmp, "par.pdf")
    ...     pages = write_pdf(sheet, name)
    ...     with open(name, "rb") as pdf:
    ...         pdf.read(5), pages
    (b'%PDF-', 2)
    """
    _require_matplotlib()
    from matplotlib.backends.backend_pdf import PdfPages

    with PdfPages(os.fspath(path), metadata={"Title": sheet.title, "Creator": "croupier"}) as pdf:
        pages = _Pages(pdf, sheet.title)
        pages.text(sheet.title, size=15, weight="bold", gap=0.15)
        if sheet.facts:
            pages.table(("Setting", "Value"), sheet.facts)
        for table in sheet.tables:
            _table(pages, table)
        if sheet.notes:
            pages.text("Method and assumptions", size=10, weight="bold")
            for note in sheet.notes:
                pages.text("• " + note, size=7.5)
        for chart in sheet.charts:
            pages.chart(chart)
        pages.flush()
        return pages.count


def _table(pages: _Pages, table: Table) -> None:
    keep = (min(len(table.rows), _MIN_ROWS) + 1) * _ROW + 0.1  # a heading never ends a page
    pages.text(table.title, size=10, weight="bold", gap=0.1, keep=keep)
    pages.table(table.header, table.rows)
    for note in table.notes:
        pages.text(note, size=7)
