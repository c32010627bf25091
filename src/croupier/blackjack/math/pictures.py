r"""Pictures of blackjack results: a basic-strategy chart and a running-EV plot.

Drawing needs the optional ``plot`` extra (matplotlib, ``pip install 'croupier[plot]'``).
matplotlib is imported only when a picture is drawn, and only through its Agg canvas:
no pyplot, no GUI backend, and the caller's backend choice is left alone. Without
matplotlib both functions raise :class:`~croupier.errors.CroupierError`.

>>> sorted(ACTION_COLOURS)
['D', 'Ds', 'H', 'P', 'R', 'Rs', 'S']
"""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from croupier.errors import CroupierError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "ACTION_COLOURS",
    "ACTION_NAMES",
    "draw_protection",
    "draw_running_ev",
    "draw_strategy_chart",
]

ACTION_NAMES: dict[str, str] = {
    "H": "hit",
    "S": "stand",
    "D": "double, else hit",
    "Ds": "double, else stand",
    "P": "split",
    "R": "surrender, else hit",
    "Rs": "surrender, else stand",
}
"""What each strategy-card code means, in legend order."""

ACTION_COLOURS: dict[str, str] = {
    "H": "#ffffff",  # white
    "S": "#f6d743",  # yellow
    "D": "#3fa34d",  # green
    "Ds": "#a8dc9b",  # pale green
    "P": "#a98bd6",  # purple
    "R": "#e0605a",  # red
    "Rs": "#f2aaa4",  # pale red
}
"""The fill colour of each code's cell on the strategy chart."""

UNKNOWN_COLOUR = "#b0b0b0"
"""The fill colour of a cell whose code is not in :data:`ACTION_COLOURS`."""

DPI = 150
"""Resolution of the saved PNGs."""

_MISSING = "drawing needs matplotlib: pip install 'croupier[plot]'"
_SECTIONS = (("hard ", "Hard totals"), ("soft ", "Soft totals"), ("pair ", "Pairs"))


def _require_matplotlib() -> None:
    """Raise :class:`CroupierError` with the install hint unless matplotlib imports."""
    try:
        import matplotlib
        import matplotlib.backends.backend_agg  # noqa: F401
    except ImportError as exc:
        raise CroupierError(_MISSING) from exc


def _new_figure(width: float, height: float) -> Figure:
    """A figure on an Agg canvas (no pyplot, so nothing global to close)."""
    _require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _save(fig: Figure, path: str | os.PathLike[str]) -> None:
    """Write ``fig`` as a PNG at :data:`DPI` and release its artists."""
    try:
        fig.savefig(os.fspath(path), format="png", dpi=DPI)
    finally:
        fig.clear()


# --------------------------------------------------------------------------- strategy chart


def _check_table(table: Mapping[str, Mapping[str, str]]) -> list[str]:
    """The column order (the first row's), after checking every row has the same columns."""
    if not table:
        raise CroupierError("strategy table is empty: nothing to draw")
    first_label, first_row = next(iter(table.items()))
    columns = list(first_row)
    if not columns:
        raise CroupierError(f"strategy row {first_label!r} has no up-card columns")
    for label, row in table.items():
        if set(row) != set(columns):
            raise CroupierError(
                f"strategy row {label!r} has columns {list(row)} "
                f"but the first row {first_label!r} has {columns}"
            )
    return columns


def _row_name(label: str, prefix: str) -> str:
    """The row's name on a strategy card: ``8`` for hard 8, ``A,2`` for soft 13, ``9,9``."""
    rest = label[len(prefix) :].strip()
    if prefix == "soft ":
        try:
            other = int(rest) - 11
        except ValueError:
            return rest
        if 2 <= other <= 9:
            return f"A,{other}"
        return "A,T" if other == 10 else rest
    if prefix == "pair ":
        return f"{rest},{rest}"
    return rest


def _sections(table: Mapping[str, Mapping[str, str]]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Rows grouped into hard, soft, pair (and any other) panels, each in input order.

    Each row is (full label, name shown on the card).
    """
    grouped: dict[str, list[tuple[str, str]]] = {title: [] for _, title in _SECTIONS}
    other: list[tuple[str, str]] = []
    for label in table:
        for prefix, title in _SECTIONS:
            if label.startswith(prefix):
                grouped[title].append((label, _row_name(label, prefix)))
                break
        else:
            other.append((label, label))
    groups = [(title, rows) for title, rows in grouped.items() if rows]
    if other:
        groups.append(("Other", other))
    return groups


def _strategy_figure(table: Mapping[str, Mapping[str, str]], title: str) -> Figure:
    """Build (but do not save) the strategy chart; each cell's patch has gid ``row|up``."""
    columns = _check_table(table)
    groups = _sections(table)
    n_rows = sum(len(rows) for _, rows in groups)
    width = 1.6 + 0.42 * len(columns) + 2.3
    height = 0.9 + 0.27 * n_rows + 0.45 * len(groups)
    fig = _new_figure(width, height)
    from matplotlib.patches import Patch, Rectangle

    grid = fig.add_gridspec(
        len(groups), 2, height_ratios=[len(rows) + 1.2 for _, rows in groups], width_ratios=[3, 1]
    )
    seen: set[str] = set()
    for index, (section, rows) in enumerate(groups):
        ax = fig.add_subplot(grid[index, 0])
        for i, (label, _) in enumerate(rows):
            for j, up in enumerate(columns):
                code = table[label][up]
                seen.add(code)
                colour = ACTION_COLOURS.get(code, UNKNOWN_COLOUR)
                cell = Rectangle((j, i), 1, 1, facecolor=colour, edgecolor="#333333", linewidth=0.6)
                cell.set_gid(f"{label}|{up}")
                ax.add_patch(cell)
                ax.text(
                    j + 0.5, i + 0.5, code, ha="center", va="center", fontsize=7.5, weight="bold"
                )
        ax.set_xlim(0, len(columns))
        ax.set_ylim(len(rows), 0)
        ax.set_xticks([j + 0.5 for j in range(len(columns))], columns)
        ax.set_yticks([i + 0.5 for i in range(len(rows))], [name for _, name in rows])
        ax.xaxis.tick_top()
        ax.tick_params(length=0, labelsize=8)
        ax.set_ylabel(section, fontsize=9, weight="bold")
        for spine in ax.spines.values():
            spine.set_linewidth(1.4)
        if index == 0:
            ax.set_xlabel("dealer's up card", fontsize=8)
            ax.xaxis.set_label_position("top")
    handles = [
        Patch(facecolor=colour, edgecolor="#333333", label=f"{code}  {ACTION_NAMES[code]}")
        for code, colour in ACTION_COLOURS.items()
    ]
    if seen - ACTION_COLOURS.keys():
        unknown = ", ".join(sorted(seen - ACTION_COLOURS.keys()))
        label = f"{unknown}  (unknown code)"
        handles.append(Patch(facecolor=UNKNOWN_COLOUR, edgecolor="#333333", label=label))
    legend_ax = fig.add_subplot(grid[:, 1])
    legend_ax.axis("off")
    legend_ax.legend(handles=handles, loc="upper left", fontsize=8, frameon=False)
    fig.suptitle(title, weight="bold")
    return fig


def draw_strategy_chart(
    table: Mapping[str, Mapping[str, str]],
    path: str | os.PathLike[str],
    *,
    title: str = "Basic strategy",
) -> None:
    r"""Draw a basic-strategy card as a PNG at ``path``.

    ``table`` maps row labels (``"hard 8"``, ``"soft 13"``, ``"pair A"``) to
    {up-card label: code}, as ``croupier blackjack strategy --json`` prints it. Rows are
    grouped into hard, soft and pair panels (rows with another prefix go to an "Other"
    panel), each in input order; columns follow the first row's order. Each cell is
    coloured by its code (:data:`ACTION_COLOURS`; unknown codes are grey) and shows the
    code; a legend explains the codes.

    >>> import os, tempfile
    >>> table = {
    ...     "hard 16": {"9": "H", "T": "R", "A": "R"},
    ...     "soft 18": {"9": "H", "T": "H", "A": "H"},
    ...     "pair 8": {"9": "P", "T": "P", "A": "P"},
    ... }
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "strategy.png")
    ...     draw_strategy_chart(table, path)
    ...     with open(path, "rb") as png:
    ...         png.read(8)
    b'\x89PNG\r\n\x1a\n'
    >>> draw_strategy_chart({}, "never.png")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: strategy table is empty: nothing to draw
    """
    _save(_strategy_figure(table, title), path)


# --------------------------------------------------------------------------- running EV


def _check_points(points: Sequence[tuple[int, float, float]]) -> None:
    """Raise :class:`CroupierError` unless rounds are positive and increase, values finite."""
    if not points:
        raise CroupierError("no running-EV points to draw")
    previous: int | None = None
    for index, (rounds, mean, error) in enumerate(points):
        if rounds < 1:
            raise CroupierError(f"point {index}: rounds must be at least 1, got {rounds}")
        if previous is not None and rounds <= previous:
            raise CroupierError(
                f"point {index}: rounds must increase, got {rounds} after {previous}"
            )
        if not (math.isfinite(mean) and math.isfinite(error)) or error < 0:
            raise CroupierError(
                f"point {index}: need a finite mean and a finite, non-negative standard error, "
                f"got {mean!r} ± {error!r}"
            )
        previous = rounds


def _running_ev_figure(
    points: Sequence[tuple[int, float, float]], exact: float | None, title: str
) -> Figure:
    """Build (but do not save) the running-EV plot."""
    _check_points(points)
    fig = _new_figure(7.0, 4.2)
    ax = fig.add_subplot()
    rounds = [r for r, _, _ in points]
    mean = [100 * m for _, m, _ in points]
    half = [100 * 1.96 * se for _, _, se in points]
    if rounds[-1] / rounds[0] > 100:
        ax.set_xscale("log")
    ax.plot(
        rounds,
        mean,
        color="#1f3f7a",
        linewidth=1.4,
        marker="o" if len(points) == 1 else None,
        label="running mean",
        zorder=3,
    )
    ax.fill_between(
        rounds,
        [m - h for m, h in zip(mean, half, strict=True)],
        [m + h for m, h in zip(mean, half, strict=True)],
        color="#4c72b0",
        alpha=0.25,
        linewidth=0,
        label="95 % confidence band",
    )
    if exact is not None:
        ax.axhline(
            100 * exact, color="#c0392b", linestyle="--", linewidth=1.2, label="exact analysis"
        )
    ax.axhline(0, color="#888888", linewidth=0.6)
    ax.set_xlabel("rounds played")
    ax.set_ylabel("EV per initial unit (%)")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="best", fontsize=9)
    ax.set_title(title, weight="bold")
    return fig


def draw_running_ev(
    points: Sequence[tuple[int, float, float]],
    path: str | os.PathLike[str],
    *,
    exact: float | None = None,
    title: str = "Running EV",
) -> None:
    """Plot a simulation's running EV with its 95 % band as a PNG at ``path``.

    ``points`` are (rounds so far, running mean EV per initial unit as a fraction, its
    standard error), rounds strictly increasing. The mean is drawn in percent with a
    shaded band of mean ± 1.96·SE; the x-axis is logarithmic when the rounds span more
    than two decades. ``exact``, if given, is drawn as a dashed "exact analysis" line.

    >>> import os, tempfile
    >>> points = [(100, -0.03, 0.11), (1_000, 0.002, 0.036), (10_000, -0.004, 0.0115)]
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "ev.png")
    ...     draw_running_ev(points, path, exact=-0.0052)
    ...     os.path.getsize(path) > 0
    True
    >>> draw_running_ev([(10, 0.0, 0.1), (10, 0.0, 0.1)], "never.png")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: point 1: rounds must increase, got 10 after 10
    """
    _save(_running_ev_figure(points, exact, title), path)


# --------------------------------------------------------------------------- game protection
def draw_protection(
    path: str | os.PathLike[str],
    *,
    penetrations: Sequence[tuple[float, float, float]],
    spreads: Sequence[tuple[int, float]],
    true_counts: Sequence[tuple[int, float, float, int, float]],
    scenarios: Sequence[tuple[str, float, float]],
    title: str = "A card counter at this table",
) -> None:
    """The casino-protection charts (``croupier blackjack protection``) as a PNG at
    ``path``, four panels: the counter's win per hour against the penetration
    (``penetrations``: penetration, win, its standard error, an error bar of 1.96 SE); against
    the top of the spread (``spreads``: top units, win); the edge at each true count with
    the bets (``true_counts``: true count, edge as a fraction, share of the rounds, the
    ramp's units, the Kelly units); and back-counting (``scenarios``: label, win, SE).

    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "p.png")
    ...     draw_protection(path, penetrations=[(0.5, 0.2, 0.1), (0.75, 1.1, 0.1)],
    ...                     spreads=[(1, -0.5), (12, 1.1)],
    ...                     true_counts=[(-1, -0.01, 0.3, 1, 0.0), (3, 0.01, 0.05, 6, 9.0)],
    ...                     scenarios=[("every round", 1.1, 0.1), ("back-counting", 2.0, 0.2)])
    ...     os.path.getsize(path) > 0
    True
    >>> draw_protection("x.png", penetrations=[], spreads=[], true_counts=[], scenarios=[])
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: nothing to draw: no penetration, spread, true count or scenario
    """
    if not (penetrations or spreads or true_counts or scenarios):
        raise CroupierError("nothing to draw: no penetration, spread, true count or scenario")
    fig = _new_figure(11, 8)
    fig.suptitle(title)
    axes = fig.subplots(2, 2)

    def finite(x: float) -> float:
        return x if math.isfinite(x) else 0.0

    ax = axes[0][0]
    if penetrations:
        xs = [p * 100 for p, _, _ in penetrations]
        ax.errorbar(
            xs,
            [finite(w) for _, w, _ in penetrations],
            yerr=[1.96 * finite(se) for _, _, se in penetrations],
            marker="o",
            capsize=3,
        )
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("penetration (% of the shoe dealt before the cut card)")
    ax.set_ylabel("counter's win per hour (units)")
    ax.set_title("Deeper penetration pays the counter")
    ax = axes[0][1]
    if spreads:
        ax.plot([s for s, _ in spreads], [finite(w) for _, w in spreads], marker="o")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("top of the bet spread (units, from 1)")
    ax.set_ylabel("win per hour (units)")
    ax.set_title("A wider spread pays the counter")
    ax = axes[1][0]
    if true_counts:
        tcs = [t for t, *_ in true_counts]
        ax.bar(
            tcs, [finite(e) * 100 for _, e, *_ in true_counts], color="#6a9fd8", label="edge (%)"
        )
        ax.plot(tcs, [u for *_, u, _ in true_counts], "k.-", label="bet (units)")
        ax.plot(tcs, [finite(k) for *_, k in true_counts], "g--", label="Kelly bet (units)")
        ax.legend(fontsize="small")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("true count before the round")
    ax.set_title("Edge and bets by true count")
    ax = axes[1][1]
    if scenarios:
        labels = [textwrap.fill(label, 26) for label, _, _ in scenarios]
        ax.barh(
            range(len(scenarios)),
            [finite(w) for _, w, _ in scenarios],
            xerr=[1.96 * finite(se) for _, _, se in scenarios],
            color="#e0a050",
            capsize=3,
        )
        ax.set_yticks(range(len(scenarios)), labels, fontsize="small")
        ax.invert_yaxis()
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("win per hour (units)")
    ax.set_title("Back-counting and mid-shoe entry")
    _save(fig, path)
