"""The strategy chart and running-EV pictures: files written, colours, panels, bad input."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from croupier.blackjack.math.pictures import (
    ACTION_COLOURS,
    DPI,
    UNKNOWN_COLOUR,
    _running_ev_figure,
    _strategy_figure,
    draw_running_ev,
    draw_strategy_chart,
)
from croupier.cli.blackjack_cmd import blackjack
from croupier.errors import CroupierError

pytest.importorskip("matplotlib")

from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.image import imread
from matplotlib.patches import Rectangle

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
UPS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]

TABLE: dict[str, dict[str, str]] = {
    "hard 11": dict.fromkeys(UPS, "D") | {"A": "H"},
    "hard 12": dict.fromkeys(UPS, "H") | {"4": "S", "5": "S", "6": "S"},
    "hard 16": dict.fromkeys(UPS, "S") | dict.fromkeys(["7", "8", "9", "A"], "H") | {"T": "R"},
    "soft 13": dict.fromkeys(UPS, "H") | {"5": "D", "6": "D"},
    "soft 18": dict.fromkeys(UPS, "S") | dict.fromkeys(["3", "4", "5", "6"], "Ds"),
    "pair 8": dict.fromkeys(UPS, "P") | {"A": "Rs"},
    "pair 9": dict.fromkeys(UPS, "P") | {"7": "S", "T": "S", "A": "?"},
}

POINTS = [(10, -0.1, 0.36), (100, 0.02, 0.115), (1_000, -0.011, 0.036), (10_000, -0.006, 0.0115)]


def cell(fig: Figure, row: str, up: str) -> Rectangle:
    """The chart cell for ``row`` against up card ``up``."""
    found = [
        patch
        for ax in fig.axes
        for patch in ax.patches
        if isinstance(patch, Rectangle) and patch.get_gid() == f"{row}|{up}"
    ]
    assert len(found) == 1, f"expected one cell {row}|{up}, found {len(found)}"
    return found[0]


def png_pixel(image: np.ndarray, fig: Figure, row: str, up: str) -> tuple[float, ...]:
    """The PNG's RGB at the left part of a cell (clear of the printed code)."""
    box = cell(fig, row, up).get_window_extent()
    x = int(box.x0 + 0.2 * box.width)
    y = int(image.shape[0] - (box.y0 + box.y1) / 2)  # display y runs up, image rows down
    return tuple(float(c) for c in image[y, x, :3])


# --------------------------------------------------------------------------- strategy chart


def test_strategy_chart_is_a_png_of_plausible_size(tmp_path: Path) -> None:
    path = tmp_path / "chart.png"
    draw_strategy_chart(TABLE, path)
    assert path.read_bytes()[:8] == PNG_SIGNATURE
    image = imread(path)
    height, width = image.shape[:2]
    assert 600 <= width <= 2000
    assert 300 <= height <= 3000


def test_hit_and_stand_cells_are_painted_in_their_own_colours(tmp_path: Path) -> None:
    path = tmp_path / "chart.png"
    draw_strategy_chart(TABLE, path)
    image = imread(path)
    fig = _strategy_figure(TABLE, "Basic strategy")  # the same layout, to locate the cells
    fig.canvas.draw()
    hit = png_pixel(image, fig, "hard 12", "2")
    stand = png_pixel(image, fig, "hard 12", "4")
    double = png_pixel(image, fig, "hard 11", "5")
    assert hit == pytest.approx(to_rgb(ACTION_COLOURS["H"]), abs=0.02)
    assert stand == pytest.approx(to_rgb(ACTION_COLOURS["S"]), abs=0.02)
    assert double == pytest.approx(to_rgb(ACTION_COLOURS["D"]), abs=0.02)
    assert max(abs(a - b) for a, b in zip(hit, stand, strict=True)) > 0.2


def test_every_cell_has_its_code_colour_and_prints_its_code() -> None:
    fig = _strategy_figure(TABLE, "Basic strategy")
    for row, codes in TABLE.items():
        for up, code in codes.items():
            patch = cell(fig, row, up)
            expected = to_rgb(ACTION_COLOURS.get(code, UNKNOWN_COLOUR))
            assert patch.get_facecolor()[:3] == pytest.approx(expected), (row, up, code)
    printed = [text.get_text() for ax in fig.axes for text in ax.texts]
    assert sorted(printed) == sorted(code for codes in TABLE.values() for code in codes.values())


def test_seven_distinct_colours_and_grey_for_an_unknown_code() -> None:
    assert len({to_rgb(c) for c in ACTION_COLOURS.values()}) == len(ACTION_COLOURS)
    assert to_rgb(UNKNOWN_COLOUR) not in {to_rgb(c) for c in ACTION_COLOURS.values()}
    fig = _strategy_figure(TABLE, "Basic strategy")
    assert cell(fig, "pair 9", "A").get_facecolor()[:3] == pytest.approx(to_rgb(UNKNOWN_COLOUR))
    legends = [legend for ax in fig.axes if (legend := ax.get_legend()) is not None]
    legend_text = [t.get_text() for legend in legends for t in legend.texts]
    assert "H  hit" in legend_text
    assert "Ds  double, else stand" in legend_text
    assert "?  (unknown code)" in legend_text


def test_hard_soft_and_pairs_get_their_own_panels_with_card_style_row_names() -> None:
    fig = _strategy_figure(TABLE, "My card")
    panels = [ax for ax in fig.axes if ax.patches]
    assert [ax.get_ylabel() for ax in panels] == ["Hard totals", "Soft totals", "Pairs"]
    rows = [[t.get_text() for t in ax.get_yticklabels()] for ax in panels]
    assert rows == [["11", "12", "16"], ["A,2", "A,7"], ["8,8", "9,9"]]
    for ax in panels:
        assert [t.get_text() for t in ax.get_xticklabels()] == UPS
    assert fig.get_suptitle() == "My card"


def test_columns_follow_the_first_row_even_when_later_rows_are_ordered_otherwise() -> None:
    table = {
        "hard 12": {"A": "H", "T": "H", "2": "S"},
        "hard 13": {"2": "S", "T": "H", "A": "H"},
    }
    fig = _strategy_figure(table, "t")
    (panel,) = [ax for ax in fig.axes if ax.patches]
    assert [t.get_text() for t in panel.get_xticklabels()] == ["A", "T", "2"]
    assert cell(fig, "hard 13", "2").get_x() == 2  # third column, as in the first row


def test_the_cli_strategy_table_draws_whole(tmp_path: Path) -> None:
    result = CliRunner().invoke(blackjack, ["strategy", "--json"])
    assert result.exit_code == 0, result.output
    table = json.loads(result.output)
    fig = _strategy_figure(table, "NZ")
    assert sum(len(ax.patches) for ax in fig.axes) == len(table) * 10
    path = tmp_path / "nz.png"
    draw_strategy_chart(table, str(path), title="NZ basic strategy")
    assert path.read_bytes()[:8] == PNG_SIGNATURE


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({}, "strategy table is empty: nothing to draw"),
        ({"hard 8": {}}, "strategy row 'hard 8' has no up-card columns"),
        (
            {"hard 8": {"2": "H", "3": "H"}, "hard 9": {"2": "H", "4": "D"}},
            "strategy row 'hard 9' has columns ['2', '4'] but the first row 'hard 8' has ['2', '3']",
        ),
        (
            {"hard 8": {"2": "H", "3": "H"}, "hard 9": {"2": "H"}},
            "strategy row 'hard 9' has columns ['2'] but the first row 'hard 8' has ['2', '3']",
        ),
    ],
)
def test_bad_tables_are_refused_by_name(
    tmp_path: Path, table: dict[str, dict[str, str]], message: str
) -> None:
    path = tmp_path / "bad.png"
    with pytest.raises(CroupierError) as caught:
        draw_strategy_chart(table, path)
    assert str(caught.value) == message
    assert not path.exists()


def test_without_matplotlib_drawing_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib` fail
    hint = "drawing needs matplotlib: pip install 'croupier[plot]'"
    with pytest.raises(CroupierError) as caught:
        draw_strategy_chart(TABLE, tmp_path / "chart.png")
    assert str(caught.value) == hint
    with pytest.raises(CroupierError) as caught:
        draw_running_ev(POINTS, tmp_path / "ev.png")
    assert str(caught.value) == hint


# --------------------------------------------------------------------------- running EV


def test_running_ev_is_a_png_of_the_expected_size(tmp_path: Path) -> None:
    path = tmp_path / "ev.png"
    draw_running_ev(POINTS, path, exact=-0.0052)
    assert path.read_bytes()[:8] == PNG_SIGNATURE
    height, width = imread(path).shape[:2]
    assert (width, height) == (round(7.0 * DPI), round(4.2 * DPI))


@pytest.mark.parametrize(
    ("rounds", "scale"),
    [
        ((10, 100, 1_000, 10_000), "log"),
        ((1, 50, 101), "log"),
        ((1, 50, 100), "linear"),
        ((1_000, 50_000, 100_000), "linear"),
    ],
)
def test_log_axis_only_when_rounds_span_more_than_two_decades(
    rounds: Sequence[int], scale: str
) -> None:
    points = [(n, 0.0, 0.5 / n**0.5) for n in rounds]
    fig = _running_ev_figure(points, None, "t")
    assert fig.axes[0].get_xscale() == scale


def test_exact_line_is_labelled_and_drawn_in_percent() -> None:
    fig = _running_ev_figure(POINTS, -0.0052, "t")
    ax = fig.axes[0]
    (line,) = [ln for ln in ax.get_lines() if ln.get_label() == "exact analysis"]
    assert list(line.get_ydata()) == pytest.approx([-0.52, -0.52])  # type: ignore[arg-type]
    legend = ax.get_legend()
    assert legend is not None
    labels = [t.get_text() for t in legend.texts]
    assert labels == ["running mean", "95 % confidence band", "exact analysis"]
    none = _running_ev_figure(POINTS, None, "t").axes[0]
    assert all(ln.get_label() != "exact analysis" for ln in none.get_lines())


def test_mean_in_percent_and_band_spans_mean_plus_minus_1_96_se() -> None:
    ax = _running_ev_figure(POINTS, None, "My run").axes[0]
    assert ax.get_title() == "My run"
    (mean,) = [ln for ln in ax.get_lines() if ln.get_label() == "running mean"]
    assert list(mean.get_xdata()) == [n for n, _, _ in POINTS]  # type: ignore[arg-type]
    assert list(mean.get_ydata()) == pytest.approx([100 * m for _, m, _ in POINTS])  # type: ignore[arg-type]
    (band,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    vertices = np.asarray(band.get_paths()[0].vertices, dtype=float)
    for n, m, se in POINTS:
        ys = vertices[vertices[:, 0] == n][:, 1]
        assert min(ys) == pytest.approx(100 * (m - 1.96 * se))
        assert max(ys) == pytest.approx(100 * (m + 1.96 * se))


def test_a_single_point_still_draws(tmp_path: Path) -> None:
    path = tmp_path / "one.png"
    draw_running_ev([(500, -0.01, 0.05)], path, exact=0.0, title="One")
    assert path.read_bytes()[:8] == PNG_SIGNATURE


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ([], "no running-EV points to draw"),
        ([(10, 0.0, 0.1), (5, 0.0, 0.1)], "point 1: rounds must increase, got 5 after 10"),
        ([(10, 0.0, 0.1), (10, 0.0, 0.1)], "point 1: rounds must increase, got 10 after 10"),
        ([(0, 0.0, 0.1)], "point 0: rounds must be at least 1, got 0"),
        (
            [(1, 0.0, 0.1), (2, float("nan"), 0.1)],
            "point 1: need a finite mean and a finite, non-negative standard error, got nan ± 0.1",
        ),
        (
            [(1, 0.0, -0.1)],
            "point 0: need a finite mean and a finite, non-negative standard error, got 0.0 ± -0.1",
        ),
    ],
)
def test_bad_points_are_refused_by_name(
    tmp_path: Path, points: list[tuple[int, float, float]], message: str
) -> None:
    path = tmp_path / "bad.png"
    with pytest.raises(CroupierError) as caught:
        draw_running_ev(points, path)
    assert str(caught.value) == message
    assert not path.exists()
