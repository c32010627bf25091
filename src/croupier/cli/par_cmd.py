"""``croupier par ...``: PAR sheets (the house's figures for a game) as Markdown, JSON or PDF.

``par blackjack`` takes every blackjack rule option (``croupier blackjack``'s); ``par poker``
the games, structures, stakes and the table's charge. The math loads only when a sheet is
worked out.

>>> from click.testing import CliRunner
>>> import json
>>> out = CliRunner().invoke(par, ["blackjack", "--decks", "1", "--rounds", "2000", "--seed", "1",
...                                "--strategy", "basic", "--format", "json"])
>>> json.loads(out.output)["strategies"]["basic"]["house_edge"]["source"]
'exact'
"""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from croupier.cli.blackjack_cmd import build_rules, rule_options
from croupier.cli.options import SEED, progress_bar
from croupier.poker.games import GAMES

if TYPE_CHECKING:
    from croupier.par.sheet import Sheet

__all__ = ["par"]

FORMATS = ("markdown", "json", "pdf")
_SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".json": "json", ".pdf": "pdf"}
_STRUCTURES = ("no-limit", "pot-limit", "half-pot", "fixed-limit", "spread-limit")
_DEFAULT_GAMES = ("holdem", "omaha", "stud7")
_DEFAULT_STRUCTURE = {"omaha": "pot-limit", "stud5": "fixed-limit", "stud7": "fixed-limit"}
_MODELS = ("bot", "hand-strength", "calling-station", "random")


def _output_format(fmt: str | None, output: str | None) -> str:
    """The format asked for, else the output file's suffix says, else Markdown; a PDF
    needs a file, a writable place and matplotlib. Checked before any work."""
    if fmt is None:
        fmt = _SUFFIXES.get(Path(output).suffix.lower(), "markdown") if output else "markdown"
    if output is not None:
        target = Path(output)
        folder = target.parent if str(target.parent) else Path(".")
        if not folder.is_dir():
            raise click.BadParameter(
                f"folder {str(folder)!r} does not exist", param_hint="--output"
            )
        if target.is_dir():
            raise click.BadParameter(f"{output!r} is a folder", param_hint="--output")
        writable = os.access(target, os.W_OK) if target.exists() else os.access(folder, os.W_OK)
        if not writable:
            raise click.BadParameter(f"{output!r} cannot be written", param_hint="--output")
    if fmt == "pdf":
        if output is None:
            raise click.BadParameter("a PDF goes to a file: give --output FILE.pdf",
                                     param_hint="--format")  # fmt: skip
        try:
            import matplotlib
            import matplotlib.backends.backend_pdf  # noqa: F401
        except ImportError:
            raise click.BadParameter(
                "the PDF needs matplotlib: pip install 'croupier[plot]'", param_hint="--format"
            ) from None
    return fmt


def _emit(sheet: Sheet, fmt: str, output: str | None) -> None:
    from croupier.par.render import render, write_pdf

    if fmt == "pdf":
        assert output is not None
        pages = write_pdf(sheet, output)
        click.echo(f"wrote {output} ({pages} pages)", err=True)
        return
    text = render(sheet, fmt)
    if output is None:
        click.echo(text)
        return
    Path(output).write_text(text + "\n", encoding="utf-8")
    click.echo(f"wrote {output}", err=True)


_FORMAT = click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Output format [default: from the --output suffix, else markdown].",
)
_OUTPUT = click.option(
    "--output", default=None, metavar="FILE", help="Write to FILE (default: stdout)."
)
_SEED = click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Replay a sheet: a whole number from 0 (the same with any --workers).",
)
_WORKERS = click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True)


@click.group("par")
def par() -> None:
    """PAR sheets: the house's figures for a game, exact where the math allows, simulated
    with a 95 % interval otherwise."""


@par.command("blackjack")
@click.option(
    "--strategy",
    type=click.Choice(["basic", "optimal", "both"]),
    default="both",
    show_default=True,
    help="The derived basic strategy, optimal (composition-dependent) play, or both.",
)
@click.option(
    "--rounds",
    type=click.IntRange(1),
    default=10_000_000,
    show_default=True,
    help="Rounds simulated for each strategy.",
)
@click.option(
    "--deal",
    type=click.Choice(["top", "shoe"]),
    default="top",
    show_default=True,
    help="Deal each round off the top of a fresh shoe (as the exact analysis), or through "
    "the shoe to the cut card (--penetration).",
)
@_SEED
@_WORKERS
@rule_options
@_FORMAT
@_OUTPUT
def blackjack_command(
    strategy: str,
    rounds: int,
    deal: str,
    seed: int | None,
    workers: int,
    fmt: str | None,
    output: str | None,
    **opts: Any,
) -> None:
    """The blackjack PAR sheet: house edge (exact), the distribution of a round's net
    result, standard deviation, hit frequency, element of risk, blackjack, bust, push and
    insurance frequencies, with basic strategy and optimal play.

    \b
    Examples:
      croupier par blackjack --rounds 2000000 --seed 1
      croupier par blackjack --h17 --peek --decks 8 --format json
      croupier par blackjack --deal shoe --penetration 5/6 --output nz-par.pdf
    """
    ctx = click.get_current_context()
    if (
        deal == "top"
        and ctx.get_parameter_source("penetration") is click.core.ParameterSource.COMMANDLINE
    ):
        raise click.UsageError(
            "--penetration only applies with --deal shoe (off the top has no cut card)"
        )
    rules, decks = build_rules(opts, simulation=True)
    if decks == "inf":
        raise click.BadParameter(
            "the sheet simulates a real shoe: give a number", param_hint="--decks"
        )
    fmt = _output_format(fmt, output)
    from croupier.errors import CroupierError
    from croupier.par.blackjack import blackjack_par

    chosen = ("basic", "optimal") if strategy == "both" else (strategy,)
    total = rounds * len(chosen)
    try:
        if deal == "shoe":
            rules.validate_cut_card()
        with progress_bar(total, "rounds", shown=total >= 1_000_000) as bar:
            result = blackjack_par(
                rules, rounds=rounds, strategies=chosen, dealt=deal, seed=seed, workers=workers,
                progress=bar.update,
            )  # fmt: skip
    except CroupierError as err:
        raise click.UsageError(str(err)) from None
    _emit(result.sheet(), fmt, output)


def _percent(text: str) -> Fraction:
    raw = text.strip().removesuffix("%").strip()
    try:
        value = Fraction(raw) / 100
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(f"a percentage such as 5 or 2.5, not {text!r}",
                                 param_hint="--rake") from None  # fmt: skip
    if not 0 <= value <= 1:
        raise click.BadParameter(f"a percentage from 0 to 100, not {text!r}", param_hint="--rake")
    return value


def _paces(values: tuple[str, ...]) -> dict[str, int] | None:
    if not values:
        return None
    paces: dict[str, int] = {}
    for text in values:
        game, _, number = text.rpartition("=")
        if not number.strip().isdigit() or int(number) < 1:
            raise click.BadParameter(
                f"hands an hour is a whole number from 1, or GAME=N, not {text!r}",
                param_hint="--hands-per-hour",
            )
        if game:
            if game not in GAMES:
                raise click.BadParameter(
                    f"unknown game {game!r}: one of {', '.join(GAMES)}",
                    param_hint="--hands-per-hour",
                )
            paces[game] = int(number)
        else:
            paces.update(dict.fromkeys(GAMES, int(number)))
    return paces


@par.command("poker")
@click.option(
    "--game",
    "games",
    multiple=True,
    type=click.Choice([*sorted(GAMES), "all"]),
    help="A game (repeat for several; 'all' for every one) [default: holdem, omaha, stud7].",
)
@click.option(
    "--structure",
    "structures",
    multiple=True,
    type=click.Choice(_STRUCTURES),
    help="A betting structure for every game (repeat for several) [default: the card room's: "
    "no-limit, pot-limit for Omaha, fixed-limit for stud].",
)
@click.option("--players", type=click.IntRange(2, 10), default=6, show_default=True)
@click.option(
    "--big-blind",
    type=click.IntRange(min=2),
    default=10,
    show_default=True,
    help="The stakes: the last blind (stud: the bring-in is half of it).",
)
@click.option(
    "--stack",
    type=click.IntRange(min=1),
    default=None,
    help="Chips a seat (default 100 big blinds).",
)
@click.option("--rake", "rake_text", default=None, metavar="PERCENT", help="Rake, e.g. 5 or 2.5%.")
@click.option(
    "--rake-cap", type=click.IntRange(min=1), default=None, help="Most chips raked a hand."
)
@click.option(
    "--fee", type=click.IntRange(min=0), default=0, show_default=True,
    help="A fee a hand, in chips, taken from the pot.",
)  # fmt: skip
@click.option(
    "--drop-always",
    is_flag=True,
    help="Rake and fee every hand (default: nothing when the hand ends in its first round).",
)
@click.option(
    "--time-charge",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Chips each seat pays every --period minutes.",
)
@click.option("--period", type=click.IntRange(min=1), default=30, show_default=True,
              help="The time charge's period in minutes.")  # fmt: skip
@click.option(
    "--hands-per-hour",
    "paces",
    multiple=True,
    metavar="N|GAME=N",
    help="The pace: one for every game, or GAME=N (repeat) [default: 30, stud7 25].",
)
@click.option(
    "--hands",
    type=click.IntRange(1),
    default=1000,
    show_default=True,
    help="Hands simulated for each game and structure.",
)
@click.option(
    "--model",
    type=click.Choice(_MODELS),
    default="bot",
    show_default=True,
    help="Who plays: the card room's bot, a made-hand player, calling stations, or random.",
)
@_SEED
@_WORKERS
@_FORMAT
@_OUTPUT
def poker_command(
    games: tuple[str, ...],
    structures: tuple[str, ...],
    players: int,
    big_blind: int,
    stack: int | None,
    rake_text: str | None,
    rake_cap: int | None,
    fee: int,
    drop_always: bool,
    time_charge: int,
    period: int,
    paces: tuple[str, ...],
    hands: int,
    model: str,
    seed: int | None,
    workers: int,
    fmt: str | None,
    output: str | None,
) -> None:
    """The poker PAR sheet: the house's take a hand and an hour for each game and
    structure, from the table's rake, fee or time charge (rake and fee simulated with a
    95 % interval, time charge exact).

    \b
    Examples:
      croupier par poker --rake 5 --rake-cap 30
      croupier par poker --game all --structure pot-limit --rake 5 --rake-cap 30 --workers 2
      croupier par poker --game holdem --time-charge 10 --period 30 --format json
    """
    percent = _percent(rake_text) if rake_text is not None else Fraction(0)
    if rake_cap is not None and not percent:
        raise click.UsageError("--rake-cap caps a rake: give --rake too")
    if not (percent or fee or time_charge):
        raise click.UsageError(
            "the table charges nothing: give --rake (and --rake-cap), --fee or --time-charge"
        )
    chosen_games = tuple(GAMES) if "all" in games else (games or _DEFAULT_GAMES)
    pairs = [
        (g, s)
        for g in dict.fromkeys(chosen_games)
        for s in (dict.fromkeys(structures) or (_DEFAULT_STRUCTURE.get(g, "no-limit"),))
    ]
    for g in dict.fromkeys(chosen_games):
        if players > GAMES[g].max_players:
            raise click.BadParameter(
                f"{GAMES[g].title} seats at most {GAMES[g].max_players}", param_hint="--players"
            )
    pace = _paces(paces)
    fmt = _output_format(fmt, output)
    from croupier.errors import CroupierError
    from croupier.par.poker import TableCharge, poker_par
    from croupier.poker.settings import Rake

    try:
        charge = TableCharge(
            Rake(percent=percent, cap=rake_cap, per_hand=fee, no_flop_no_drop=not drop_always),
            time_charge=time_charge,
            period_minutes=period,
        )
        total = hands * len(pairs)
        with progress_bar(total, "hands", shown=total >= 500) as bar:
            result = poker_par(
                pairs, charge=charge, players=players, big_blind=big_blind, stack=stack,
                hands=hands, model=model, hands_per_hour=pace, seed=seed, workers=workers,
                progress=bar.update,
            )  # fmt: skip
    except CroupierError as err:
        raise click.UsageError(str(err)) from None
    _emit(result.sheet(), fmt, output)
