"""Choices shared by several commands: games and the way cards are given on the command line.

>>> EVAL_GAMES["omaha"].composition.describe()
'exactly 2 own cards and exactly 3 board cards'
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

import click

from croupier.cards.card import Card, parse_cards
from croupier.evaluation.composition import ANY_FIVE, EXACTLY_TWO_PLUS_THREE, Composition
from croupier.evaluation.rankings import STANDARD, STRIPPED, HandRanking

__all__ = [
    "EVAL_GAMES",
    "SEED",
    "GameChoice",
    "check_picture_path",
    "echo_json",
    "join_cards",
    "progress_bar",
    "strict_json",
]


@dataclass(frozen=True)
class GameChoice:
    """How ``croupier eval`` reads a hand for one game.

    >>> EVAL_GAMES["manila"].ranking.name
    'stripped'
    """

    name: str
    """The ``--game`` value."""
    composition: Composition
    """How the five are formed."""
    ranking: HandRanking
    """Which hand-rank table applies."""
    takes_board: bool
    """Whether the game has community cards."""


EVAL_GAMES: dict[str, GameChoice] = {
    "holdem": GameChoice("holdem", ANY_FIVE, STANDARD, True),
    "omaha": GameChoice("omaha", EXACTLY_TWO_PLUS_THREE, STANDARD, True),
    "stud": GameChoice("stud", ANY_FIVE, STANDARD, False),
    "manila": GameChoice("manila", EXACTLY_TWO_PLUS_THREE, STRIPPED, True),
}
"""The games ``--game`` accepts."""


def join_cards(tokens: Sequence[str]) -> tuple[Card, ...]:
    """Read cards given as one or several command-line words.

    >>> join_cards(["As", "Kd Qh"])
    (Card('As'), Card('Kd'), Card('Qh'))
    """
    return parse_cards(" ".join(tokens))


def progress_bar(length: int, label: str, *, shown: bool) -> AbstractContextManager[Any]:
    """A progress bar on stderr when ``shown`` (and stderr is a terminal), else a silent one;
    either way the context value has ``update(count)``.

    >>> with progress_bar(10, "rounds", shown=False) as bar:
    ...     bar.update(10)
    """
    if shown and sys.stderr.isatty():
        return click.progressbar(length=length, label=label, file=sys.stderr)
    return _Silent()


class _Silent:
    """A stand-in progress bar that shows nothing."""

    def __enter__(self) -> _Silent:
        return self

    def __exit__(self, *args: object) -> None:
        return None

    def update(self, count: int) -> None:
        """Ignore progress."""


SEED = click.IntRange(min=0)
"""The type of every ``--seed`` option: a non-negative integer (``-1`` is refused, not mapped)."""


def _finite(value: Any) -> Any:
    """``value`` with every non-finite float (NaN, ±inf) replaced by None, recursively."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def strict_json(value: Any, **options: Any) -> str:
    """Strict JSON text (RFC 8259): an undefined figure (NaN, infinity) is written ``null``.

    >>> strict_json({"se": float("nan"), "ev": [1.5, float("inf")]})
    '{"se": null, "ev": [1.5, null]}'
    """
    return json.dumps(_finite(value), allow_nan=False, **options)


def echo_json(value: Any, **options: Any) -> None:
    """Print :func:`strict_json` of ``value`` on one line (or indented with ``indent=``).

    >>> echo_json({"stderr": float("nan"), "hands": 1})
    {"stderr": null, "hands": 1}
    """
    click.echo(strict_json(value, **options))


_NO_MATPLOTLIB = (
    "pictures need matplotlib: pip install 'croupier[plot]' (or pip install matplotlib)"
)


def check_picture_path(path: str | None, option: str) -> None:
    """Refuse a picture path that cannot be written, before any long work starts: it must end
    in ``.png``, its folder must exist and be writable, and matplotlib must import.

    >>> check_picture_path("chart.gif", "--chart")
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: the picture is a PNG: give a file name ending in .png, not 'chart.gif'
    >>> check_picture_path(None, "--chart")   # no picture asked for: nothing to check
    """
    if path is None:
        return
    from pathlib import Path  # here, not at the top: ``croupier eval`` starts without it

    target = Path(path)
    if target.suffix.lower() != ".png":
        raise click.BadParameter(
            f"the picture is a PNG: give a file name ending in .png, not {path!r}",
            param_hint=option,
        )
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise click.BadParameter(f"folder {str(folder)!r} does not exist", param_hint=option)
    if target.is_dir():
        raise click.BadParameter(f"{path!r} is a folder", param_hint=option)
    if target.exists() and not os.access(target, os.W_OK):
        raise click.BadParameter(f"{path!r} is not writable", param_hint=option)
    if not target.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise click.BadParameter(f"folder {str(folder)!r} is not writable", param_hint=option)
    try:
        import matplotlib
        import matplotlib.backends.backend_agg  # noqa: F401
    except ImportError:
        raise click.BadParameter(_NO_MATPLOTLIB, param_hint=option) from None
