"""``croupier blackjack ...``: dealer odds, house edge and basic strategy (infinite deck).

Rule options map one to one onto :class:`~croupier.blackjack.rules.BlackjackRules`; the
NZ game is the default.

>>> from click.testing import CliRunner
>>> import json
>>> out = CliRunner().invoke(blackjack, ["house-edge", "--json"])
>>> round(json.loads(out.output)["house_edge"], 4)
0.0052
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import click

from croupier.blackjack.analysis import OUTCOMES, Analysis, dealer_outcomes
from croupier.blackjack.rules import (
    NZ,
    BlackjackRules,
    DealerBlackjackTakes,
    DoubleOn,
    HoleCard,
    Surrender,
)

__all__ = ["blackjack"]

_UP = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10} | {str(v): v for v in range(2, 11)}
_CODES = {"hit": "H", "stand": "S", "double": "D", "split": "P", "surrender": "R"}


def rule_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add the rule-set options to a command (NZ defaults)."""
    options = [
        click.option(
            "--decks",
            default="inf",
            show_default=True,
            help="Decks in the shoe; the exact analysis here is for an infinite deck.",
        ),
        click.option(
            "--h17/--s17", "h17", default=False, help="Dealer hits soft 17 (default stands)."
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
        ),
        click.option(
            "--dealer-bj-takes-doubles",
            type=click.Choice(["original", "all"]),
            default="original",
            show_default=True,
        ),
        click.option(
            "--double",
            "double_on",
            type=click.Choice(["any", "9-11", "10-11"]),
            default="any",
            show_default=True,
        ),
        click.option("--das/--no-das", default=True, help="Double after split."),
        click.option("--max-hands", type=click.IntRange(2, 4), default=3, show_default=True),
        click.option("--resplit-aces/--no-resplit-aces", default=False),
        click.option("--hit-split-aces/--no-hit-split-aces", default=False),
        click.option(
            "--surrender", type=click.Choice(["none", "late"]), default="none", show_default=True
        ),
        click.option("--blackjack-pays", default="3:2", show_default=True),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def build_rules(opts: dict[str, Any]) -> BlackjackRules:
    """The rule set named by the command-line options (bad combinations: one clear error)."""
    if opts["decks"] != "inf":
        raise click.BadParameter(
            "the exact analysis is for an infinite deck: use --decks inf", param_hint="--decks"
        )
    try:
        num, den = (int(x) for x in str(opts["blackjack_pays"]).split(":"))
        pays = Fraction(num, den)
    except ValueError:
        raise click.BadParameter("write it as 3:2 or 6:5", param_hint="--blackjack-pays") from None
    rules = NZ.with_(
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
    )
    rules.validate()
    return rules


@click.group("blackjack")
def blackjack() -> None:
    """Blackjack analysis under the NZ rules (or any rule set)."""


@blackjack.command("dealer")
@click.option("--upcard", type=click.Choice(sorted(_UP)), default=None, help="One up card only.")
@rule_options
@click.option("--json", "as_json", is_flag=True)
def dealer_command(upcard: str | None, as_json: bool, **opts: Any) -> None:
    """The dealer's final outcomes by up card (17-21, blackjack, bust)."""
    rules = build_rules(opts)
    cards = [_UP[upcard]] if upcard else [*list(range(2, 11)), 1]
    rows = {
        ("A" if c == 1 else str(c)): dealer_outcomes(
            c, hits_soft_17=rules.dealer_hits_soft_17, peek=rules.hole_card is HoleCard.PEEK
        )
        for c in cards
    }
    if as_json:
        click.echo(json.dumps(rows))
        return
    click.echo("up   " + "".join(f"{o:>10}" for o in OUTCOMES))
    for up, row in rows.items():
        click.echo(f"{up:<5}" + "".join(f"{row[o]:>10.4%}" for o in OUTCOMES))


@blackjack.command("house-edge")
@rule_options
@click.option("--json", "as_json", is_flag=True)
def house_edge_command(as_json: bool, **opts: Any) -> None:
    """The player's expectation per initial unit and the house edge (= -ev)."""
    ev = Analysis(build_rules(opts)).house_edge()
    if as_json:
        click.echo(json.dumps({"ev": ev, "house_edge": -ev, "decks": "inf"}))
    else:
        click.echo(f"player expectation {ev:+.4%} per initial unit; house edge {-ev:.4%}")


def _strategy(rules: BlackjackRules) -> dict[str, dict[str, str]]:
    analysis = Analysis(rules)
    ups = [*list(range(2, 11)), 1]
    table: dict[str, dict[str, str]] = {}
    for total in range(5, 20):
        pair = next(
            ((a, total - a) for a in range(2, 11) if 2 <= total - a <= 10 and a < total - a), None
        )
        if pair is not None:
            table[f"hard {total}"] = {_name(u): _CODES[analysis.best(*pair, u)[0]] for u in ups}
    for other in range(2, 10):
        table[f"soft {11 + other}"] = {_name(u): _CODES[analysis.best(1, other, u)[0]] for u in ups}
    for card in [1, *range(2, 11)]:
        label = f"pair {_name(card)}"
        table[label] = {_name(u): _CODES[analysis.best(card, card, u)[0]] for u in ups}
    return table


def _name(value: int) -> str:
    return "A" if value == 1 else ("T" if value == 10 else str(value))


@blackjack.command("strategy")
@rule_options
@click.option("--json", "as_json", is_flag=True)
def strategy_command(as_json: bool, **opts: Any) -> None:
    """Basic strategy (derived, not typed in): H hit, S stand, D double, P split, R surrender."""
    table = _strategy(build_rules(opts))
    if as_json:
        click.echo(json.dumps(table))
        return
    ups = list(next(iter(table.values())))
    click.echo(f"{'':<9}" + " ".join(f"{u:>2}" for u in ups))
    for hand, row in table.items():
        click.echo(f"{hand:<9}" + " ".join(f"{row[u]:>2}" for u in ups))
