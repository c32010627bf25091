"""Choices shared by several commands: games and the way cards are given on the command line.

>>> GAMES["omaha"].composition.describe()
'exactly 2 own cards and exactly 3 board cards'
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

import click

from croupier.cards.card import Card, parse_cards
from croupier.evaluation.composition import ANY_FIVE, EXACTLY_TWO_PLUS_THREE, Composition
from croupier.evaluation.rankings import STANDARD, STRIPPED, HandRanking

__all__ = ["GAMES", "GameChoice", "join_cards", "progress_bar"]


@dataclass(frozen=True)
class GameChoice:
    """How ``croupier eval`` reads a hand for one game.

    >>> GAMES["manila"].ranking.name
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


GAMES: dict[str, GameChoice] = {
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
