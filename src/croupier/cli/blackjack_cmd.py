"""``croupier blackjack ...``: dealer odds, house edge, basic strategy, simulation, and card
counting (``count``: BC, PE, IC of counting systems; ``indices``: index plays; docs/counting.md).

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
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

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
from croupier.cli.ray_option import ray_option
from croupier.distributed import ClusterError
from croupier.errors import CroupierError

if TYPE_CHECKING:
    from croupier.blackjack.math.counting import CountingSystem

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


def _share(text: object) -> Fraction:
    """A penetration as a fraction: ``3/4`` or ``0.75`` (bad text: one clear error)."""
    try:
        value = Fraction(str(text).strip())
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(
            "a share of the shoe such as 0.75 or 3/4", param_hint="--penetration"
        ) from None
    if not 0 < value < 1:
        raise click.BadParameter(
            f"a share of the shoe between 0 and 1, such as 0.75, not {text}",
            param_hint="--penetration",
        )
    return value


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
    penetration = _share(opts["penetration"])
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
@ray_option
def simulate_command(
    rounds: int,
    workers: int,
    seed: int | None,
    insure: bool,
    as_json: bool,
    plot_path: str | None,
    ray_address: str | None,
    **opts: Any,
) -> None:
    """Play ROUNDS rounds with the derived basic strategy and report EV ± standard error,
    the outcome frequencies and the exact value of the same strategy for comparison."""
    if insure and not opts["insurance"]:
        raise click.UsageError(
            "--insure and --no-insurance exclude each other: insurance is not offered"
        )
    if ray_address is not None and workers > 1:
        raise click.BadParameter(
            "the Ray cluster chooses where tasks run: drop --workers", param_hint="--ray"
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
                ray=ray_address,
            )
    except CroupierError as err:
        if isinstance(err, ClusterError):
            raise  # the cluster's trouble (an address nobody answers at) is no usage error
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
        f"{result.rounds_per_second:,.0f} rounds/s on {result.workers} "
        f"{'Ray task(s)' if ray_address is not None else 'worker(s)'}"
    )
    se = f"{result.se:.4%}" if defined else "n/a"
    click.echo(f"  EV per initial unit {result.ev:+.4%} ± {se} (house edge {-result.ev:.4%})")
    away = f"{z:+.2f} standard errors" if z is not None else "standard error undefined"
    click.echo(f"  exact, same strategy off the top: {exact:+.4%} ({away})")
    for name, value in result.frequencies.items():
        click.echo(f"  {name.replace('_', ' '):<18} {value:8.4%} per round")


# ------------------------------------------------------------- counting (issue 29)
def _finite_shoe(decks: int | Literal["inf"]) -> int:
    if decks == "inf":
        raise click.BadParameter(
            "card counting needs a real shoe: give a number of decks", param_hint="--decks"
        )
    return decks


def _systems(names: tuple[str, ...]) -> list[CountingSystem]:
    """The counting systems named (built in, ``all``, or ``.toml`` files), in order."""
    from croupier.blackjack.math.counting import SYSTEMS, counting_system

    out: list[CountingSystem] = []
    for name in names or ("all",):
        if name.strip().lower() == "all":
            out.extend(SYSTEMS.values())
        elif name.strip().lower().endswith(".toml"):
            out.append(counting_system(name))  # a bad file: CroupierError, exit 1
        else:
            try:
                out.append(counting_system(name))
            except CroupierError as err:
                raise click.BadParameter(str(err), param_hint="--system") from None
    return list({s.key: s for s in out}.values())


_SYSTEM_HELP = (
    "A counting system: hi-lo, ko, hi-opt-1, hi-opt-2, omega-2, zen, halves, red-7, "
    "or a TOML file of tags (docs/counting.md)"
)


@blackjack.command("count")
@click.option(
    "--system",
    "names",
    multiple=True,
    metavar="NAME",
    help=_SYSTEM_HELP + "; repeat it, or 'all' (the default) for every built-in system.",
)
@rule_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON (one object per system).")
def count_command(names: tuple[str, ...], as_json: bool, **opts: Any) -> None:
    """Counting systems against the exact effects of removal: betting correlation (BC),
    playing efficiency (PE) and insurance correlation (IC) for the rules and shoe, beside
    the figures published for US hole-card games. --penetration sets the depths PE averages
    over (up to the cut card)."""
    from croupier.blackjack.math.removal import effects_of_removal, system_figures

    systems = _systems(names)
    rules, decks = build_rules(opts, simulation=True)
    decks = _finite_shoe(decks)
    start = time.perf_counter()
    with progress_bar(11, "shoes", shown=not as_json) as bar:
        eor = effects_of_removal(rules, decks=decks, progress=bar.update)
    figures = [system_figures(s, rules, effects=eor) for s in systems]
    seconds = time.perf_counter() - start
    labels = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
    if as_json:
        for f in figures:
            data = f.to_json()
            data.update(
                decks=decks,
                ev=eor.ev,
                effects_of_removal=dict(zip(labels, eor.effects, strict=True)),
                effects_of_removal_per_deck=dict(zip(labels, eor.per_deck(), strict=True)),
                deck_sum=eor.deck_sum(),
                seconds=seconds,
            )
            echo_json(data)
        return
    click.echo(
        f"{decks} deck(s), {'peek' if rules.hole_card is HoleCard.PEEK else 'no hole card'}: "
        f"expectation {eor.ev:+.4%} with the derived basic strategy"
    )
    click.echo("effects of removal (per cent, one card out, as from a single deck):")
    click.echo(
        "  " + "  ".join(f"{v} {e * 100:+.3f}" for v, e in zip(labels, eor.per_deck(), strict=True))
    )
    click.echo(
        f"  summed over a deck: {eor.deck_sum() * 100:+.4f} points (zero for a fixed strategy)"
    )
    click.echo(f"{'system':<12}{'BC':>7}{'PE':>7}{'IC':>7}   published (US hole-card) BC PE IC")
    for f in figures:
        pub = f.published
        shown = "  ".join(
            f"{pub[k]:.2f}" if k in pub else "  - "
            for k in ("betting_correlation", "playing_efficiency", "insurance_correlation")
        )
        side = (
            f"   (BC {f.betting_correlation_side_count:.3f} with the ace side count)"
            if f.betting_correlation_side_count is not None
            else ""
        )
        click.echo(
            f"{f.system.name:<12}{f.betting_correlation:>7.3f}{f.playing_efficiency:>7.3f}"
            f"{f.insurance_correlation:>7.3f}   {shown}{side}"
        )


@blackjack.command("indices")
@click.option(
    "--system", "name", default="hi-lo", show_default=True, metavar="NAME", help=_SYSTEM_HELP + "."
)
@click.option(
    "--remaining",
    type=click.FloatRange(0.5, 8, min_open=False),
    default=None,
    help="Decks left in the shoe where the indices are worked out (default: half the shoe).",
)
@click.option(
    "--span",
    type=click.IntRange(2, 20),
    default=10,
    show_default=True,
    help="Look for indices between -SPAN and +SPAN.",
)
@click.option("--all", "show_all", is_flag=True, help="Also list every decision's changes of play.")
@rule_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def indices_command(
    name: str, remaining: float | None, span: int, show_all: bool, as_json: bool, **opts: Any
) -> None:
    """Index plays: the true count at which each decision's best play changes, from the
    exact analysis of count-conditioned shoes, with the Illustrious 18 and the Fab 4 (the
    published Hi-Lo indices, for US hole-card games, shown beside Hi-Lo's)."""
    from croupier.blackjack.math.indices import index_table, shoe_count

    (system,) = _systems((name,))
    rules, decks = build_rules(opts)
    decks = _finite_shoe(decks)
    if remaining is not None and not 26 <= round(remaining * 52) <= 52 * decks - 13:
        raise click.BadParameter(
            f"from 0.5 to {decks - 0.25:g} decks left in a shoe of {decks}",
            param_hint="--remaining",
        )
    total = shoe_count(system, rules, decks=decks, remaining=remaining, span=span)
    with progress_bar(total, "shoes", shown=not as_json) as bar:
        table = index_table(
            system, rules, decks=decks, remaining=remaining, span=span, progress=bar.update
        )
    if as_json:
        echo_json(table.to_json())
        return
    left = table.remaining / 52
    game = "peek" if rules.hole_card is HoleCard.PEEK else "no hole card"
    click.echo(
        f"{system.name}, {decks} deck(s), {game}, {left:g} deck(s) left: the true count at the "
        "decision (cards on the table counted) where the play changes"
    )
    for title, plays in (("Illustrious 18", table.illustrious_18), ("Fab 4", table.fab_4)):
        click.echo(f"{title}:")
        for play in plays:
            click.echo(f"  {play.describe()}")
    if show_all:
        click.echo("every decision (best play at 0; changes walking up, then down):")
        for label, basic in table.basic.items():
            moves = ", ".join(f"{play} at {tc:+.1f}" for tc, play in table.changes[label])
            click.echo(f"  {label}: {basic}" + (f"; {moves}" if moves else ""))


# ------------------------------------------------------------- game protection (issue 29)
_COMPARE = "0.5,0.6,0.7,0.8,0.85"
_SPREAD_TOPS = (1, 2, 4, 6, 8, 12, 16, 20)


def _spread(text: str) -> tuple[int, int]:
    parts = str(text).strip().split("-")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise click.BadParameter(
            f"write the spread as MIN-MAX in betting units, e.g. 1-12, not {text!r}",
            param_hint="--spread",
        )
    low, high = (int(p) for p in parts)
    if not 1 <= low <= high <= 10_000:
        raise click.BadParameter(
            f"the spread is MIN-MAX with 1 <= MIN <= MAX <= 10000, not {text}",
            param_hint="--spread",
        )
    return low, high


def _true_count_option(value: float | None, hint: str) -> float | None:
    if value is not None and not (math.isfinite(value) and -20 <= value <= 20):
        raise click.BadParameter(f"a true count from -20 to +20, not {value}", param_hint=hint)
    return value


def _penetrations(text: str, rules: BlackjackRules) -> list[Fraction]:
    """The penetrations to compare (``none``: no comparison), each checked, with the game's."""
    if text.strip().lower() == "none":
        return []
    out = {rules.penetration}
    for part in text.split(","):
        try:
            value = Fraction(part.strip())
        except (ValueError, ZeroDivisionError):
            raise click.BadParameter(
                f"a list of shares of the shoe such as {_COMPARE}, or none; not {text!r}",
                param_hint="--compare",
            ) from None
        if not 0 < value < 1:
            raise click.BadParameter(
                f"each penetration is between 0 and 1, not {part.strip()}", param_hint="--compare"
            )
        try:
            rules.with_(penetration=value).validate_cut_card()
        except CroupierError as err:
            raise click.BadParameter(str(err), param_hint="--compare") from None
        out.add(value)
    return sorted(out)


@blackjack.command("protection")
@click.option(
    "--system", "name", default="hi-lo", show_default=True, metavar="NAME", help=_SYSTEM_HELP + "."
)
@click.option(
    "--spread",
    "spread_text",
    default="1-12",
    show_default=True,
    help="The counter's bet spread MIN-MAX, in betting units.",
)
@click.option(
    "--ramp",
    "ramp_text",
    default=None,
    metavar="TC:UNITS,...",
    help="Bets by true count, e.g. 2:2,3:4,4:8,5:12 (default: the minimum to +1, rising "
    "evenly to the maximum at +5).",
)
@click.option(
    "--indices",
    type=click.Choice(["i18", "all", "published", "none"]),
    default="i18",
    show_default=True,
    help="Index plays: the Illustrious 18 (+ Fab 4 with surrender) worked out for these "
    "rules, every decision's, the published Hi-Lo ones, or none.",
)
@click.option(
    "--wong-in", type=float, default=None, help="Back-count: sit down at this true count or more."
)
@click.option(
    "--wong-out", type=float, default=None, help="Leave before a round below this true count."
)
@click.option(
    "--no-mid-shoe-entry",
    is_flag=True,
    help="The casino bars joining mid-shoe: the counter sits down only at a shoe's start.",
)
@click.option(
    "--cut-card",
    type=float,
    default=None,
    metavar="DECKS",
    help="Place the cut card DECKS decks from the back (instead of --penetration).",
)
@click.option(
    "--compare",
    "compare_text",
    default=_COMPARE,
    show_default=True,
    help="Penetrations to compare (the game's is added), or none.",
)
@click.option(
    "--rounds",
    type=click.IntRange(1),
    default=2_000_000,
    show_default=True,
    help="Rounds dealt in each simulated game.",
)
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True)
@click.option("--seed", type=SEED, default=None, help="Replay a run: a whole number from 0.")
@click.option(
    "--rounds-per-hour",
    type=click.FloatRange(0, 10_000, min_open=True),
    default=100,
    show_default=True,
    help="Rounds a counter plays an hour.",
)
@click.option(
    "--bankroll",
    type=click.IntRange(1, 10**9),
    default=1000,
    show_default=True,
    help="Bankroll in units (risk of ruin, Kelly bets).",
)
@click.option(
    "--trip-bankroll",
    type=click.IntRange(1, 10**9),
    default=200,
    show_default=True,
    help="A trip's bankroll in units.",
)
@click.option(
    "--trip-hours",
    type=click.FloatRange(0, 10_000, min_open=True),
    default=8,
    show_default=True,
    help="A trip's hours of play.",
)
@rule_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--chart", "chart_path", default=None, help="Draw the charts to this PNG file.")
def protection_command(
    name: str,
    spread_text: str,
    ramp_text: str | None,
    indices: str,
    wong_in: float | None,
    wong_out: float | None,
    no_mid_shoe_entry: bool,
    cut_card: float | None,
    compare_text: str,
    rounds: int,
    workers: int,
    seed: int | None,
    rounds_per_hour: float,
    bankroll: int,
    trip_bankroll: int,
    trip_hours: float,
    as_json: bool,
    chart_path: str | None,
    **opts: Any,
) -> None:
    """Game protection: what a card counter earns at this table (win rate per 100 rounds
    and per hour, SD, SCORE, N0, DI, risk of ruin, Kelly bets), and how that falls with
    shallower penetration, a narrower spread, or mid-shoe entry barred (docs/counting.md)."""
    from croupier.blackjack.math.counter import (
        BetRamp,
        Counter,
        counter_play,
        simulate_counter,
    )
    from croupier.blackjack.math.indices import shoe_count

    (system,) = _systems((name,))
    low, high = _spread(spread_text)
    _true_count_option(wong_in, "--wong-in")
    _true_count_option(wong_out, "--wong-out")
    ctx = click.get_current_context()
    if (
        cut_card is not None
        and ctx.get_parameter_source("penetration") is click.core.ParameterSource.COMMANDLINE
    ):
        raise click.UsageError("--cut-card and --penetration both place the cut card: give one")
    rules, decks = build_rules(opts, simulation=True)
    decks = _finite_shoe(decks)
    if cut_card is not None:
        behind = round(cut_card * 52) if math.isfinite(cut_card) else -1
        if not 26 <= behind < 52 * decks:
            raise click.BadParameter(
                f"from 0.5 to under {decks} decks behind the cut card, not {cut_card:g}",
                param_hint="--cut-card",
            )
        rules = rules.with_(penetration=Fraction(52 * decks - behind, 52 * decks))
    try:
        rules.validate_cut_card()
    except CroupierError as err:
        raise click.UsageError(str(err)) from None
    penetrations = _penetrations(compare_text, rules)
    check_picture_path(chart_path, "--chart")
    try:
        ramp = (
            BetRamp.linear(low, high) if ramp_text is None else BetRamp.parse(ramp_text, low, high)
        )
        counter = Counter(
            system=system,
            ramp=ramp,
            indices=indices,
            wong_in=wong_in,
            wong_out=wong_out,
            mid_shoe_entry=not no_mid_shoe_entry,
        )
    except CroupierError as err:
        raise click.UsageError(str(err)) from None
    # the comparisons: the penetrations, and back-counting with mid-shoe entry allowed or not
    back_in = 1.0 if wong_in is None else wong_in
    back_out = (-1.0 if wong_out is None else wong_out) if wong_in is None else wong_out
    if back_out is not None and back_out > back_in:
        back_out = back_in
    scenarios = [
        ("plays every round", replace(counter, wong_in=None, wong_out=None, mid_shoe_entry=True)),
        (
            _wong_label(back_in, back_out, True),
            replace(counter, wong_in=back_in, wong_out=back_out, mid_shoe_entry=True),
        ),
        (
            _wong_label(back_in, back_out, False),
            replace(counter, wong_in=back_in, wong_out=back_out, mid_shoe_entry=False),
        ),
    ]
    games = [rules.with_(penetration=p) for p in penetrations if p != rules.penetration]
    runs = 1 + len(games) + sum(c != counter for _label, c in scenarios)
    settings: dict[str, Any] = {
        "rounds_per_hour": rounds_per_hour,
        "bankroll": bankroll,
        "trip_bankroll": trip_bankroll,
        "trip_hours": trip_hours,
        "workers": workers,
    }
    try:
        if indices in ("i18", "all"):
            total = shoe_count(system, rules, linear=False)
            with progress_bar(total, "shoes", shown=not as_json) as bar:
                play = counter_play(counter, rules, progress=bar.update)
        else:
            play = counter_play(counter, rules)
        with progress_bar(
            rounds * runs, "rounds", shown=not as_json and rounds * runs >= 10**6
        ) as bar:
            main = simulate_counter(
                rules, counter, rounds, seed=seed, play=play, progress=bar.update, **settings
            )
            # every game deals the same shuffled shoes (the run's seed): the differences
            # between them are measured far more closely than each one
            by_pen = {rules.penetration: main}
            for game in games:
                by_pen[game.penetration] = simulate_counter(
                    game, counter, rounds, seed=main.seed, play=play, progress=bar.update,
                    **settings,
                )  # fmt: skip
            wonging = []
            for label, other in scenarios:
                same = other == counter
                result = main if same else simulate_counter(
                    rules, other, rounds, seed=main.seed, play=play, progress=bar.update,
                    **settings,
                )  # fmt: skip
                wonging.append((label, result))
    except CroupierError as err:
        raise click.UsageError(str(err)) from None
    spreads = []
    for top in sorted({*_SPREAD_TOPS, high}):
        if top < low:
            continue
        mean, sd = main.ramp_value(BetRamp.linear(low, top))
        spreads.append((f"{low}-{top}", top, mean, sd))
    if chart_path:
        _draw_protection(chart_path, main, by_pen, spreads, wonging, rules)
    if as_json:
        echo_json(
            {
                "counter": main.to_json(),
                "penetrations": [
                    {
                        "penetration": float(p),
                        "cut_card_decks": float(decks * (1 - p)),
                        "win_rate_100": r.win_rate_100,
                        "sd_100": r.sd_100,
                        "win_per_hour": r.win_per_hour,
                        "se_per_hour": r.se * rounds_per_hour,
                        "score": r.score,
                        "n0": r.n0,
                        "risk_of_ruin": r.risk_of_ruin,
                    }
                    for p, r in sorted(by_pen.items())
                ],
                "spreads": [
                    {
                        "spread": label,
                        "win_rate_100": 100 * mean,
                        "sd_100": 10 * sd,
                        "win_per_hour": mean * rounds_per_hour,
                        "score": _score(mean, sd),
                    }
                    for label, _top, mean, sd in spreads
                ],
                "back_counting": [
                    {
                        "scenario": label,
                        "share_played": r.share_played,
                        "win_rate_100": r.win_rate_100,
                        "sd_100": r.sd_100,
                        "win_per_hour": r.win_per_hour,
                        "se_per_hour": r.se * rounds_per_hour,
                        "score": r.score,
                        "risk_of_ruin": r.risk_of_ruin,
                    }
                    for label, r in wonging
                ],
            }
        )
        return
    _print_protection(main, by_pen, spreads, wonging, rules)


def _score(mean: float, sd: float) -> float:
    from croupier.blackjack.math.counter import score

    return score(mean, sd)


def _wong_label(enter: float, leave: float | None, midshoe: bool) -> str:
    text = f"back-counts: in at {enter:+g}"
    if leave is not None:
        text += f", out below {leave:+g}"
    return text + ("" if midshoe else ", no mid-shoe entry")


def _print_protection(
    main: Any,
    by_pen: dict[Fraction, Any],
    spreads: list[Any],
    wonging: list[Any],
    rules: BlackjackRules,
) -> None:
    rph = main.rounds_per_hour
    game = "peek" if rules.hole_card is HoleCard.PEEK else "no hole card"
    cut = rules.decks * (1 - rules.penetration)
    click.echo(
        f"{rules.decks} decks, {game}, penetration {float(rules.penetration):.0%} "
        f"(cut card {float(cut):g} decks from the back); seed {main.seed}"
    )
    click.echo(f"counter: {main.counter.describe()}")
    if main.insurance is not None:
        click.echo(f"  insurance at {main.insurance:+g} or more")
    click.echo(
        f"{main.rounds:,} rounds dealt, {main.played:,} played ({main.share_played:.1%}), "
        f"{main.rounds / main.seconds if main.seconds else math.inf:,.0f} rounds/s"
    )
    click.echo(
        f"  average bet        {main.average_bet:.2f} units; edge over the money bet {main.edge:+.3%}"
    )
    click.echo(
        f"  win rate           {main.win_rate_100:+.3f} units per 100 rounds (± {100 * main.se:.3f} SE)"
    )
    click.echo(f"  standard deviation {main.sd_100:.2f} units per 100 rounds")
    click.echo(
        f"  per hour           {main.win_per_hour:+.3f} units, SD {main.sd_per_hour:.2f} "
        f"({rph:g} rounds an hour)"
    )
    click.echo(
        f"  SCORE {main.score:.2f}   DI {main.desirability_index:.2f}   N0 {main.n0:,.0f} rounds"
    )
    click.echo(f"  risk of ruin, {main.bankroll:,} units for ever: {main.risk_of_ruin:.2%}")
    sim = main.simulated_trip_risk_of_ruin
    simulated = (
        f"; simulated {sim[0]:.2%} ± {sim[1]:.2%} over {main.trips:,} trips"
        if sim
        else "; too few trips in the run to simulate"
    )
    click.echo(
        f"  risk of ruin, {main.trip_bankroll:,} units for a trip of {main.trip_hours:g} h "
        f"({main.trip_rounds:,} rounds): {main.trip_risk_of_ruin:.2%}{simulated}"
    )
    kelly = main.kelly_ramp()
    if kelly:
        click.echo(f"Kelly bets for a bankroll of {main.bankroll:,} units (within the spread):")
        click.echo("  " + "  ".join(f"{tc:+d}:{units}" for tc, _e, _k, units in kelly))
    click.echo(
        f"{'penetration':<52}{'win/100':>9}{'SD/100':>9}{'win/hour':>10}{'SCORE':>8}{'RoR':>8}"
    )
    for p, r in sorted(by_pen.items()):
        label = f"{float(p):.0%} (cut card {float(rules.decks * (1 - p)):g} decks)"
        click.echo(
            f"  {label:<50}{r.win_rate_100:>+9.3f}{r.sd_100:>9.2f}{r.win_per_hour:>+10.3f}"
            f"{r.score:>8.2f}{r.risk_of_ruin:>8.1%}"
        )
    click.echo(
        f"{'spread (the same rounds, an even ramp)':<52}{'win/100':>9}{'SD/100':>9}{'win/hour':>10}{'SCORE':>8}"
    )
    for label, _top, mean, sd in spreads:
        click.echo(
            f"  {label:<50}{100 * mean:>+9.3f}{10 * sd:>9.2f}{mean * rph:>+10.3f}{_score(mean, sd):>8.2f}"
        )
    click.echo(f"{'back-counting':<58}{'played':>9}{'win/100':>9}{'win/hour':>10}{'SCORE':>8}")
    for label, r in wonging:
        click.echo(
            f"  {label:<56}{r.share_played:>9.1%}{r.win_rate_100:>+9.3f}{r.win_per_hour:>+10.3f}"
            f"{r.score:>8.2f}"
        )


def _draw_protection(
    path: str,
    main: Any,
    by_pen: dict[Fraction, Any],
    spreads: list[Any],
    wonging: list[Any],
    rules: BlackjackRules,
) -> None:
    from croupier.blackjack.math.pictures import draw_protection

    rph = main.rounds_per_hour
    kelly = {tc: k for tc, _e, k, _u in main.kelly_ramp()}
    rows = [r for r in main.table if r.rounds >= max(1000, main.rounds // 10_000)]
    try:
        draw_protection(
            path,
            penetrations=[
                (float(p), r.win_per_hour, r.se * rph) for p, r in sorted(by_pen.items())
            ],
            spreads=[(top, mean * rph) for _label, top, mean, _sd in spreads],
            true_counts=[
                (
                    r.true_count,
                    r.edge,
                    r.rounds / main.rounds,
                    main.counter.ramp.units(r.true_count),
                    kelly.get(r.true_count, math.nan),
                )
                for r in rows
            ],
            scenarios=[(label, r.win_per_hour, r.se * rph) for label, r in wonging],
            title=f"{main.counter.system.name} counter, {rules.decks} decks, "
            f"{float(rules.penetration):.0%} penetration, spread "
            f"{main.counter.ramp.minimum}-{main.counter.ramp.maximum}",
        )
    except (CroupierError, OSError) as err:
        raise click.ClickException(str(err)) from None
