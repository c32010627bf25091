"""``croupier equity``: win/tie/equity of two or more hands, exact or sampled.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(equity, ["As Ks", "Qd Qh", "--board", "2c 7d 9h Jc", "--json"])
>>> import json; [h["wins"] for h in json.loads(result.output)["hands"]]
[6, 38]
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from croupier.cli.options import SEED, echo_json
from croupier.equity.equity import EquityGame, EquityResult, ProgressCallback
from croupier.equity.equity import equity as run
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
    """Equity of two or more HANDS ('As Ks' 'Qd Qh').

    \b
    Examples:
      croupier equity "As Ks" "Qd Qh"
      croupier equity AsKs QdQh --board "Qs Js 2c" --json
      croupier equity "As Ks Qd Jd" "Qh Qc 2s 3s" --game omaha --samples 200000 --seed 1
    """
    if exact and samples is not None:
        raise click.UsageError("--exact and --samples exclude each other: give one")
    if seed is not None and samples is None:
        raise click.UsageError("--seed needs --samples: an exact run has no randomness")
    chosen = EquityGame(game)
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
