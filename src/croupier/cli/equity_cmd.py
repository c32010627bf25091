"""``croupier equity``: win/tie/equity of two or more hands or hold'em ranges, exact or sampled.

When every argument is one hand of the game's size the hands go to
:func:`~croupier.equity.equity`; when any argument is a range (``QQ+, AKo``; see
``docs/ranges.md``) all of them go to :func:`~croupier.equity.range_equity`.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(equity, ["As Ks", "Qd Qh", "--board", "2c 7d 9h Jc", "--json"])
>>> import json; [h["wins"] for h in json.loads(result.output)["hands"]]
[6, 38]
>>> result = CliRunner().invoke(equity, ["AsKs", "QQ+, AKo", "--board", "Qs Js 2c", "--json"])
>>> [p["range"] for p in json.loads(result.output)["players"]]
['AsKs', 'QQ+, AKo']
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from croupier.cards.card import parse_cards
from croupier.cli.options import SEED, echo_json
from croupier.equity.equity import EquityGame, EquityResult, ProgressCallback
from croupier.equity.equity import equity as run
from croupier.equity.range_equity import RangeEquityResult, range_equity
from croupier.equity.ranges import HandRange
from croupier.errors import CroupierError
from croupier.evaluation.kernels import combinations_array

__all__ = ["equity"]

_BAR_FROM = 3_000_000  # evaluations; below this a run finishes before a bar would help


@contextmanager
def _progress(work: int, label: str) -> Iterator[ProgressCallback | None]:
    """A progress bar on stderr for long runs on a terminal; nothing otherwise."""
    if work < _BAR_FROM or not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=1000, label=label, file=sys.stderr) as bar:
        shown = 0

        def update(done: int, total: int) -> None:
            nonlocal shown
            target = done * 1000 // total
            bar.update(target - shown)
            shown = target

        yield update


@contextmanager
def _late_progress(label: str) -> Iterator[ProgressCallback | None]:
    """A progress bar on stderr (on a terminal) that appears only once a run has taken half a
    second, for range runs whose size is known only once they start."""
    if not sys.stderr.isatty():
        yield None
        return
    started = time.monotonic()
    bar: Any = None
    shown = 0

    def update(done: int, total: int) -> None:
        nonlocal bar, shown
        if bar is None:
            if time.monotonic() - started < 0.5:
                return
            bar = click.progressbar(length=1000, label=label, file=sys.stderr).__enter__()
        target = done * 1000 // total
        if target > shown:
            bar.update(target - shown)
            shown = target

    try:
        yield update
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)


def _is_range(text: str, game: EquityGame) -> bool:
    """Whether an argument goes the range way: not one hand of the game's size, and either
    not card text at all (hold'em; a bad range then gets the range parser's error) or
    valid range text (``AsKs, QdQh``). Card text of a wrong size stays a hand, so its error
    is the hand path's."""
    try:
        cards: tuple[object, ...] | None = parse_cards(text)
    except CroupierError:
        cards = None
    if cards is not None and len(cards) == game.hole_cards:
        return False
    if cards is None and game is EquityGame.HOLDEM:
        return True
    try:
        HandRange(text)
    except CroupierError:
        return False
    return True


def _print_ranges(result: RangeEquityResult) -> None:
    if result.exact:
        how = f"exact: {result.matchups:,} matchups of {result.deals:,} deals, {result.trials:,} boards"
    else:
        how = f"{result.trials:,} samples"
    click.echo(f"holdem range equity ({how})")
    width = max(12, *(len(str(p.range)) for p in result.players))
    for p in result.players:
        line = (f"  {p.range!s:<{width}} win {float(p.win):8.3%}  tie {float(p.tie):7.3%}  "
                f"equity {float(p.equity):8.4%}")  # fmt: skip
        if p.stderr is not None:
            line += f"  ± {p.stderr:.4%}" if math.isfinite(p.stderr) else "  ± n/a (one sample)"
        line += f"  ({p.combos:,} combo{'s' if p.combos != 1 else ''})"
        click.echo(line)


def _print_human(result: EquityResult) -> None:
    how = "exact, every board" if result.exact else f"{result.trials:,} samples"
    click.echo(f"{result.game.value} equity ({how}: {result.trials:,} boards)")
    for h in result.hands:
        cards = " ".join(str(c) for c in h.hand)
        line = (f"  {cards:<12} win {float(h.win):8.3%}  tie {float(h.tie):7.3%}  "
                f"equity {float(h.equity):8.4%}")  # fmt: skip
        if h.stderr is not None:
            line += f"  ± {h.stderr:.4%}" if math.isfinite(h.stderr) else "  ± n/a (one sample)"
        click.echo(line)


@click.command("equity")
@click.argument("hands", nargs=-1, required=True)
@click.option("--game", type=click.Choice([g.value for g in EquityGame]), default="holdem",
              show_default=True)  # fmt: skip
@click.option("--board", default="", help="Known community cards (0, 3, 4 or 5).")
@click.option("--exact", is_flag=True,
              help="Enumerate every remaining board (the default; not with --samples).")  # fmt: skip
@click.option("--samples", type=click.IntRange(min=1), default=None,
              help="Monte-Carlo with this many random boards instead.")  # fmt: skip
@click.option("--seed", type=SEED, default=None,
              help="Seed for --samples (a whole number from 0; replayable).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def equity(hands: tuple[str, ...], game: str, board: str, exact: bool, samples: int | None,
           seed: int | None, as_json: bool) -> None:  # fmt: skip
    """Equity of two or more HANDS ('As Ks' 'Qd Qh') or hold'em ranges ('QQ+, AKo').

    With a range among them, the run is exact when that takes at most about two seconds
    and a Monte-Carlo of 1,000,000 deals otherwise (--exact or --samples choose; --seed
    then seeds the Monte-Carlo).

    \b
    Examples:
      croupier equity "As Ks" "Qd Qh"
      croupier equity AsKs QdQh --board "Qs Js 2c" --json
      croupier equity "As Ks Qd Jd" "Qh Qc 2s 3s" --game omaha --samples 200000 --seed 1
      croupier equity AsKs "QQ+, AKo" --json
      croupier equity "22+, A2s+" random --board "Ks 7h 2c" --samples 500000 --seed 1
    """
    chosen = EquityGame(game)
    if any(_is_range(h, chosen) for h in hands):
        _ranges(hands, chosen, board, exact, samples, seed, as_json)
        return
    if exact and samples is not None:
        raise click.UsageError("--exact and --samples exclude each other: give one")
    if seed is not None and samples is None:
        raise click.UsageError("--seed needs --samples: an exact run has no randomness")
    known = len(board.replace(",", " ").split()) if board else 0
    per_board = len(hands) * (60 if chosen is EquityGame.OMAHA else 1)
    if samples is not None:
        work = samples * per_board
    elif 0 <= 5 - known <= (left := 52 - chosen.hole_cards * len(hands) - known):
        work = math.comb(left, 5 - known) * per_board
    else:
        work = 0  # the input is wrong: equity() below says how
    combinations_array(2, 1)  # make sure the kernels are loaded before a bar is drawn
    with _progress(work, f"{game} equity") as progress:
        result = run(list(hands), board, game=chosen, samples=samples, seed=seed,
                     progress=progress)  # fmt: skip
    if as_json:
        echo_json(result.to_dict())
    else:
        _print_human(result)


def _ranges(hands: tuple[str, ...], game: EquityGame, board: str, exact: bool,
            samples: int | None, seed: int | None, as_json: bool) -> None:  # fmt: skip
    """The range route of ``croupier equity``."""
    if game is not EquityGame.HOLDEM:
        raise CroupierError(
            "ranges such as 'QQ+, AKo' are hold'em only; Omaha takes exact hands of four "
            "cards such as 'As Ks Qd Jd'"
        )
    if exact and samples is not None:
        raise click.UsageError("--exact and --samples exclude each other: give one")
    if exact and seed is not None:
        raise click.UsageError("--seed needs a Monte-Carlo run: --exact has no randomness")
    combinations_array(2, 1)  # make sure the kernels are loaded before a bar is drawn
    with _late_progress("holdem range equity") as progress:
        result = range_equity(list(hands), board, samples=samples, seed=seed,
                              exact=True if exact else None, progress=progress)  # fmt: skip
    if as_json:
        echo_json(result.to_dict())
    else:
        _print_ranges(result)
