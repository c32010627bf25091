"""``croupier blackjack ...``: dealer odds, house edge, basic strategy and simulation.

Rule options map one to one onto :class:`~croupier.blackjack.rules.BlackjackRules`; the
NZ game (six decks) is the default.

>>> from click.testing import CliRunner
>>> import json
>>> out = CliRunner().invoke(blackjack, ["house-edge", "--json"])
>>> round(json.loads(out.output)["house_edge"], 4)
0.0042
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Literal

import click

from croupier.blackjack.math.analysis import OUTCOMES, Analysis
from croupier.blackjack.math.simulate import simulate
from croupier.blackjack.math.strategy import UP_CARDS, US_SIX_DECK
from croupier.blackjack.rules import (
    NZ,
    BlackjackRules,
    DealerBlackjackTakes,
    DoubleOn,
    HoleCard,
    PairsBy,
    Surrender,
)
from croupier.cli.options import SEED, check_picture_path, echo_json, progress_bar
from croupier.errors import CroupierError

__all__ = ["blackjack"]

_UP = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10} | {str(v): v for v in range(2, 11)}


def rule_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add the rule-set options to a command (NZ defaults)."""
    options = [
        click.option(
            "--decks",
            default=str(NZ.decks),
            show_default=True,
            help="Decks in the shoe (1 or more), or 'inf' for an infinite deck.",
        ),
        click.option(
            "--h17/--s17", "h17", default=False, help="Dealer hits soft 17 (default: stands)."
        ),
        click.option(
            "--peek/--no-hole-card",
            "peek",
            default=False,
            help="Peek game, or NZ no hole card (default).",
        ),
        click.option(
            "--dealer-bj-takes-splits",
            type=click.Choice(["original", "all"]),
            default="original",
            show_default=True,
            help="What a dealer blackjack takes from split hands (11.7).",
        ),
        click.option(
            "--dealer-bj-takes-doubles",
            type=click.Choice(["original", "all"]),
            default="original",
            show_default=True,
            help="What a dealer blackjack takes from doubled hands.",
        ),
        click.option(
            "--double",
            "double_on",
            type=click.Choice(["any", "9-11", "10-11"]),
            default="any",
            show_default=True,
            help="Which two-card totals may double.",
        ),
        click.option("--das/--no-das", default=True, help="Double after split (default: yes)."),
        click.option(
            "--max-hands",
            type=click.IntRange(2, 8),
            default=NZ.max_hands,
            show_default=True,
            help="Hands a box may become by splitting.",
        ),
        click.option("--resplit-aces/--no-resplit-aces", default=False, help="Resplit aces."),
        click.option(
            "--hit-split-aces/--no-hit-split-aces", default=False, help="Draw to split aces."
        ),
        click.option(
            "--surrender", type=click.Choice(["none", "late"]), default="none", show_default=True
        ),
        click.option("--blackjack-pays", default="3:2", show_default=True, help="E.g. 3:2, 6:5."),
        click.option(
            "--pairs",
            type=click.Choice(["value", "rank"]),
            default="value",
            show_default=True,
            help="Split pairs of the same value (K+Q) or rank only.",
        ),
        click.option(
            "--insurance/--no-insurance",
            default=NZ.insurance,
            help="Insurance offered against an ace (default: yes).",
        ),
        click.option(
            "--penetration",
            default=str(NZ.penetration),
            show_default=True,
            help="Share of the shoe dealt before the cut card (simulation).",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _fraction(text: str, sep: str, hint: str, example: str) -> Fraction:
    try:
        num, den = (int(x) for x in str(text).split(sep))
        return Fraction(num, den)
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(f"write it as {example}", param_hint=hint) from None


def build_rules(
    opts: dict[str, Any], *, simulation: bool = False
) -> tuple[BlackjackRules, int | Literal["inf"]]:
    """The rule set and deck count named by the options (bad values: one clear error).

    ``--penetration`` only means something to the simulator (the analysis plays off the top):
    given to another command it is refused, not ignored.
    """
    ctx = click.get_current_context(silent=True)
    if (
        not simulation
        and ctx is not None
        and ctx.get_parameter_source("penetration") is click.core.ParameterSource.COMMANDLINE
    ):
        raise click.UsageError(
            "--penetration only applies to 'blackjack simulate' (the analysis is off the top)"
        )
    decks_text = str(opts["decks"]).strip().lower()
    decks: int | Literal["inf"]
    if decks_text in ("inf", "infinite"):
        decks = "inf"
    elif decks_text.isdigit() and int(decks_text) >= 1:
        decks = int(decks_text)
    else:
        raise click.BadParameter("a whole number of decks from 1, or inf", param_hint="--decks")
    pays = _fraction(opts["blackjack_pays"], ":", "--blackjack-pays", "3:2 or 6:5")
    if pays <= 0:
        raise click.BadParameter("the payout must be positive", param_hint="--blackjack-pays")
    penetration = _fraction(
        opts["penetration"] if "/" in str(opts["penetration"]) else f"{opts['penetration']}/1",
        "/",
        "--penetration",
        "3/4",
    )
    try:
        rules = NZ.with_(
            decks=NZ.decks if decks == "inf" else decks,
            dealer_hits_soft_17=opts["h17"],
            hole_card=HoleCard.PEEK if opts["peek"] else HoleCard.NO_HOLE_CARD,
            dealer_blackjack_takes_splits=DealerBlackjackTakes(opts["dealer_bj_takes_splits"]),
            dealer_blackjack_takes_doubles=DealerBlackjackTakes(opts["dealer_bj_takes_doubles"]),
            double_on=DoubleOn(opts["double_on"]),
            double_after_split=opts["das"],
            max_hands=opts["max_hands"],
            resplit_aces=opts["resplit_aces"],
            hit_split_aces=opts["hit_split_aces"],
            surrender=Surrender(opts["surrender"]),
            blackjack_pays=pays,
            pairs_by=PairsBy(opts["pairs"]),
            insurance=opts["insurance"],
            penetration=penetration,
        )
        rules.validate()
    except CroupierError as err:
        raise click.UsageError(str(err)) from None
    if opts["resplit_aces"] and opts["max_hands"] < 3:
        raise click.UsageError("--resplit-aces needs --max-hands 3 or more")
    return rules, decks


def _label(value: int) -> str:
    return "A" if value == 1 else ("T" if value == 10 else str(value))


@click.group("blackjack")
def blackjack() -> None:
    """Blackjack analysis and simulation under the NZ rules (or any rule set)."""


@blackjack.command("dealer")
@click.option("--upcard", type=click.Choice(sorted(_UP)), default=None, help="One up card only.")
@rule_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def dealer_command(upcard: str | None, as_json: bool, **opts: Any) -> None:
    """The dealer's final outcomes by up card (17-21, blackjack, bust), off the top."""
    rules, decks = build_rules(opts)
    analysis = Analysis(rules, decks=decks)
    cards = [_UP[upcard]] if upcard else list(UP_CARDS)
    rows = {_label(c): analysis.dealer(c) for c in cards}
    if as_json:
        echo_json(rows)
        return
    click.echo("up   " + "".join(f"{o:>10}" for o in OUTCOMES))
    for up, row in rows.items():
        click.echo(f"{up:<5}" + "".join(f"{row[o]:>10.4%}" for o in OUTCOMES))


@blackjack.command("house-edge")
@rule_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def house_edge_command(as_json: bool, **opts: Any) -> None:
    """The player's expectation per initial unit and the house edge (= -ev), with
    composition-dependent optimal play and with the derived basic strategy."""
    rules, decks = build_rules(opts)
    start = time.perf_counter()
    analysis = Analysis(rules, decks=decks)
    ev = analysis.expectation()
    chart_ev = analysis.expectation(analysis.basic_strategy())
    seconds = time.perf_counter() - start
    if as_json:
        echo_json(
            {
                "ev": ev,
                "house_edge": -ev,
                "basic_strategy_ev": chart_ev,
                "basic_strategy_house_edge": -chart_ev,
                "decks": decks,
                "seconds": seconds,
            }
        )
        return
    shoe = "an infinite deck" if decks == "inf" else f"{decks} decks"
    click.echo(f"{shoe}, off the top, per initial unit:")
    click.echo(f"  optimal play   expectation {ev:+.4%}   house edge {-ev:.4%}")
    click.echo(f"  basic strategy expectation {chart_ev:+.4%}   house edge {-chart_ev:.4%}")


@blackjack.command("strategy")
@rule_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--chart", "chart_path", default=None, help="Draw the chart to this PNG file.")
@click.option(
    "--departures", is_flag=True, help="List the cells that differ from the published US chart."
)
def strategy_command(as_json: bool, chart_path: str | None, departures: bool, **opts: Any) -> None:
    """Basic strategy (derived, not typed in): H hit, S stand, D double (else hit),
    Ds double (else stand), P split, R surrender (else hit), Rs surrender (else stand)."""
    rules, decks = build_rules(opts)
    check_picture_path(chart_path, "--chart")  # before the work, not after it
    chart = Analysis(rules, decks=decks).basic_strategy()
    table = chart.rows()
    changed = chart.departures(US_SIX_DECK)
    if chart_path:
        _draw_chart(table, chart_path, rules, decks)
    if as_json:
        data: dict[str, Any] = dict(table)
        if departures:
            data = {"chart": table, "departures": [d.describe() for d in changed]}
        echo_json(data)
        return
    ups = list(next(iter(table.values())))
    click.echo(f"{'':<9}" + " ".join(f"{u:>2}" for u in ups))
    for hand, row in table.items():
        click.echo(f"{hand:<9}" + " ".join(f"{row[u]:>2}" for u in ups))
    if departures:
        click.echo(f"departures from the published US 6-deck chart: {len(changed)}")
        for d in changed:
            click.echo(f"  {d.describe()}")


def _draw_chart(
    table: dict[str, dict[str, str]], path: str, rules: BlackjackRules, decks: object
) -> None:
    from croupier.blackjack.math.pictures import draw_strategy_chart

    shoe = "infinite deck" if decks == "inf" else f"{decks} decks"
    title = (
        f"Basic strategy: {shoe}, {'H17' if rules.dealer_hits_soft_17 else 'S17'}, "
        f"{'peek' if rules.hole_card is HoleCard.PEEK else 'no hole card'}"
    )
    try:
        draw_strategy_chart(table, path, title=title)
    except (CroupierError, OSError) as err:
        raise click.ClickException(str(err)) from None


@blackjack.command("simulate")
@click.option("--rounds", type=click.IntRange(1), default=1_000_000, show_default=True)
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Replay a run: a whole number from 0 (default: a random seed).",
)
@click.option(
    "--insure", is_flag=True, help="Take insurance whenever offered (not with --no-insurance)."
)
@rule_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--plot", "plot_path", default=None, help="Plot the running EV to this PNG file.")
def simulate_command(
    rounds: int,
    workers: int,
    seed: int | None,
    insure: bool,
    as_json: bool,
    plot_path: str | None,
    **opts: Any,
) -> None:
    """Play ROUNDS rounds with the derived basic strategy and report EV ± standard error,
    the outcome frequencies and the exact value of the same strategy for comparison."""
    if insure and not opts["insurance"]:
        raise click.UsageError(
            "--insure and --no-insurance exclude each other: insurance is not offered"
        )
    rules, decks = build_rules(opts, simulation=True)
    if decks == "inf":
        raise click.BadParameter(
            "the simulator deals a real shoe: give a number", param_hint="--decks"
        )
    check_picture_path(plot_path, "--plot")  # before the run, which may take minutes
    analysis = Analysis(rules)
    chart = analysis.basic_strategy()
    exact = analysis.expectation(chart)
    try:
        with progress_bar(rounds, "rounds", shown=not as_json and rounds >= 1_000_000) as bar:
            result = simulate(
                rules,
                rounds,
                strategy=chart,
                seed=seed,
                workers=workers,
                insure=insure,
                progress=bar.update,
            )
    except CroupierError as err:
        raise click.UsageError(str(err)) from None
    if plot_path:
        from croupier.blackjack.math.pictures import draw_running_ev

        try:
            draw_running_ev(
                result.curve,
                plot_path,
                exact=exact,
                title=f"Running EV, {rules.decks} decks, basic strategy (seed {result.seed})",
            )
        except (CroupierError, OSError) as err:
            raise click.ClickException(str(err)) from None
    defined = math.isfinite(result.se) and result.se > 0
    z = (result.ev - exact) / result.se if defined else None
    if as_json:
        data = result.to_json()
        data.update(decks=rules.decks, exact_ev=exact, z=z)
        echo_json(data)  # strict JSON: an undefined standard error (one round) is null
        return
    click.echo(
        f"{result.rounds:,} rounds, {rules.decks} decks, seed {result.seed}, "
        f"{result.rounds_per_second:,.0f} rounds/s on {result.workers} worker(s)"
    )
    se = f"{result.se:.4%}" if defined else "n/a"
    click.echo(f"  EV per initial unit {result.ev:+.4%} ± {se} (house edge {-result.ev:.4%})")
    away = f"{z:+.2f} standard errors" if z is not None else "standard error undefined"
    click.echo(f"  exact, same strategy off the top: {exact:+.4%} ({away})")
    for name, value in result.frequencies.items():
        click.echo(f"  {name.replace('_', ' '):<18} {value:8.4%} per round")
