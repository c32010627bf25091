"""``croupier play GAME``: sit down at a terminal table against bots, or let bots play (``--auto``).

GAME is one of the seven poker games (``holdem``, ``omaha``, ``manila``, ``manila3``,
``draw``, ``stud5``, ``stud7``) or ``blackjack``. The terminal table is a Textual app
(the ``play`` extra), loaded only when a terminal is there to show it; ``--auto`` plays
every seat with bots and prints the hand log, so it runs in scripts and CI.

>>> from click.testing import CliRunner
>>> out = CliRunner().invoke(play, ["holdem", "--auto", "--hands", "1", "--seats", "2", "--seed", "1"])
>>> out.exit_code, out.output.splitlines()[-1]
(0, 'session over: the session ends')
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from croupier.cli.blackjack_cmd import build_rules, rule_options
from croupier.cli.options import SEED
from croupier.errors import CroupierError
from croupier.poker.games import GAMES, ForcedBets
from croupier.poker.settings import TableRules
from croupier.poker.structures import structure_for_stakes

__all__ = ["play"]

STRUCTURES = ("no-limit", "pot-limit", "half-pot", "fixed-limit", "spread-limit")
POKER_ONLY = ("structure", "blinds", "ante", "bring_in", "table_minimum", "seats", "buy_in")
BLACKJACK_ONLY = ("boxes", "wager")
BOT_STYLES = {"poker": ("random", "calling", "default"), "blackjack": ("default", "basic", "gut")}
NO_TERMINAL = (
    "croupier play needs a terminal to show the table; use --auto to let bots play every "
    "seat and print the hand log"
)


Maker = Callable[[Any], Any]
"""Builds the session with a store (or None)."""


def _blinds(text: str) -> tuple[int, ...]:
    try:
        blinds = tuple(int(part) for part in text.replace(",", "/").split("/"))
    except ValueError:
        raise click.BadParameter(
            f"write the blinds as whole chips, first to last, e.g. 5/10, not {text!r}",
            param_hint="--blinds",
        ) from None
    if not blinds or any(b < 1 for b in blinds):
        raise click.BadParameter("every blind is at least 1 chip", param_hint="--blinds")
    return blinds


def poker_rules(
    game: str,
    structure: str,
    blinds: str | None,
    ante: int | None,
    bring_in: int | None,
    table_minimum: int | None,
) -> TableRules:
    """The table rules the poker options name (bad values: a one-line usage error).

    >>> poker_rules("omaha", "pot-limit", "5/10", None, None, None).blinds
    (5, 10)
    """
    spec = GAMES[game]
    try:
        if spec.forced is ForcedBets.BLINDS:
            posted = _blinds(blinds or "5/10")
            minimum = posted[-1] if table_minimum is None else table_minimum
            return TableRules(
                spec,
                structure_for_stakes(structure, minimum),
                blinds=posted,
                ante=ante or 0,
                table_minimum=minimum,
            )
        if blinds is not None:
            raise click.BadParameter(f"{spec.title} has no blinds", param_hint="--blinds")
        minimum = 10 if table_minimum is None else table_minimum
        return TableRules(
            spec,
            structure_for_stakes(structure, minimum),
            blinds=(),
            ante=max(minimum // 5, 1) if ante is None else ante,
            bring_in=bring_in,
            table_minimum=minimum,
        )
    except CroupierError as error:
        raise click.UsageError(str(error)) from None


def _open_store(db: str | None) -> Any:
    try:
        from croupier.store import Store
    except ImportError as error:
        raise click.ClickException(
            f"recording needs the 'store' extra: pip install 'croupier[store]' ({error.name} is missing)"
        ) from None
    return Store.open(db)


@click.command("play")
@click.argument("game", type=click.Choice([*GAMES, "blackjack"]))
@click.option("--structure", type=click.Choice(STRUCTURES), default="no-limit", show_default=True)
@click.option("--blinds", default=None, help="Compulsory blinds, first to last [default: 5/10].")
@click.option("--ante", type=click.IntRange(min=0), default=None, help="Ante from every player.")
@click.option("--bring-in", type=click.IntRange(min=1), default=None, help="Stud bring-in.")
@click.option(
    "--table-minimum",
    "--stakes",
    "table_minimum",
    type=click.IntRange(min=1),
    default=None,
    help="The table minimum wager (the stakes) [default: the last blind; stud 10].",
)
@click.option("--seats", type=click.IntRange(2, 10), default=6, show_default=True)
@click.option("--buy-in", type=click.IntRange(min=1), default=None,
              help="Chips each player buys in for [default: 100 big blinds; blackjack 50 wagers].")  # fmt: skip
@click.option("--bots", type=click.IntRange(min=0), default=None,
              help="Bots at the table [default: every other seat; blackjack 2].")  # fmt: skip
@click.option("--bot-style", type=click.Choice(["random", "calling", "default", "basic", "gut"]),
              default="default", show_default=True,
              help="Poker: random, calling or default; blackjack: default (basic strategy) or gut.")  # fmt: skip
@click.option("--boxes", type=click.IntRange(1, 7), default=None, help="Blackjack: your boxes [1].")
@click.option("--wager", type=click.IntRange(min=1), default=None,
              help="Blackjack: the wager on each box [default: the table minimum].")  # fmt: skip
@click.option("--seed", type=SEED, default=None, help="Replay a session card for card.")
@click.option("--auto", is_flag=True, help="Bots play every seat; print the hand log.")
@click.option("--hands", type=click.IntRange(min=1), default=None,
              help="Stop after N hands or rounds [--auto default: 10].")  # fmt: skip
@click.option("--timer", type=click.IntRange(min=1), default=None,
              help="Seconds to act before the default action (check, else fold; blackjack: stand).")  # fmt: skip
@click.option("--record", is_flag=True, help="Write every hand to the audit store.")
@click.option("--db", default=None, metavar="URL",
              help="The store to record to (implies --record) [default: $CROUPIER_DB, else the user data directory].")  # fmt: skip
@rule_options
def play(
    game: str,
    structure: str,
    blinds: str | None,
    ante: int | None,
    bring_in: int | None,
    table_minimum: int | None,
    seats: int,
    buy_in: int | None,
    bots: int | None,
    bot_style: str,
    boxes: int | None,
    wager: int | None,
    seed: int | None,
    auto: bool,
    hands: int | None,
    timer: int | None,
    record: bool,
    db: str | None,
    **rule_opts: Any,
) -> None:
    """Play GAME at a terminal table against bots (or watch bots play with --auto).

    \b
    Examples:
      croupier play omaha --structure pot-limit --bots 3
      croupier play stud7 --structure fixed-limit --table-minimum 10 --seats 5
      croupier play blackjack --boxes 2 --bots 3 --h17
      croupier play holdem --auto --hands 20 --seed 7
    """
    ctx = click.get_current_context()

    def given(name: str) -> bool:
        return ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE

    kind = "blackjack" if game == "blackjack" else "poker"
    wrong = BLACKJACK_ONLY if kind == "poker" else POKER_ONLY
    if kind == "poker":
        wrong = (*wrong, *rule_opts)
    for name in wrong:
        if given(name):
            raise click.UsageError(f"--{name.replace('_', '-')} does not apply to {game}")
    if bot_style not in BOT_STYLES[kind]:
        raise click.BadParameter(
            f"{game} bots are {', '.join(BOT_STYLES[kind])}", param_hint="--bot-style"
        )
    if not auto and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise click.ClickException(NO_TERMINAL)
    common = {"bot_style": bot_style, "buy_in": buy_in, "seed": seed}
    if kind == "poker":
        rules = poker_rules(game, structure, blinds, ante, bring_in, table_minimum)
        make = _poker_session(rules, seats, bots, auto, common)
    else:
        make = _blackjack_session(rule_opts, boxes, bots, wager, auto, common)
    store = _open_store(db) if record or db is not None else None
    session = make(store)
    if store is not None:
        click.echo(f"recording to {store.url}", err=True)
    if auto:
        session.play(hands or 10)  # hands or rounds
        return
    if kind == "poker":
        from croupier.play.poker_app import PokerApp

        PokerApp(session, timer=timer, hands=hands).run()
    else:
        from croupier.play.blackjack_app import BlackjackApp

        BlackjackApp(session, timer=timer, hands=hands).run()


def _poker_session(
    rules: TableRules, seats: int, bots: int | None, auto: bool, common: dict[str, Any]
) -> Maker:
    from croupier.play.session import PokerSession

    spec = rules.game
    if seats > spec.max_players:
        raise click.BadParameter(
            f"{spec.title} seats at most {spec.max_players}", param_hint="--seats"
        )
    players = (bots if bots is not None else seats - (0 if auto else 1)) + (0 if auto else 1)
    if players > seats:
        raise click.BadParameter(
            f"{players} players do not fit at {seats} seats", param_hint="--bots"
        )
    if players < 2:
        raise click.BadParameter("a poker table needs two players", param_hint="--bots")

    return _maker(
        PokerSession, rules, auto, seats=seats, bots=players - (0 if auto else 1), **common
    )


def _blackjack_session(
    rule_opts: dict[str, Any],
    boxes: int | None,
    bots: int | None,
    wager: int | None,
    auto: bool,
    common: dict[str, Any],
) -> Maker:
    from croupier.play.bj_session import BlackjackSession

    rules, decks = build_rules(rule_opts, simulation=True)
    if decks == "inf":
        raise click.BadParameter(
            "a table deals from a real shoe: give a number", param_hint="--decks"
        )
    try:
        rules.validate_for_play()
    except CroupierError as error:
        raise click.UsageError(str(error)) from None
    mine = 0 if auto else (boxes or 1)
    others = 2 if bots is None else bots
    if mine + others < 1:
        raise click.BadParameter("the table needs a player", param_hint="--bots")
    if mine + others > rules.boxes:
        raise click.BadParameter(
            f"{mine} + {others} boxes asked for, the layout has {rules.boxes}", param_hint="--bots"
        )

    return _maker(
        BlackjackSession, rules, auto, boxes=max(mine, 1), bots=others, wager=wager, **common
    )


def _maker(session_class: Callable[..., Any], rules: Any, auto: bool, **options: Any) -> Maker:
    """The session's builder: a human (none with ``auto``, whose log is printed) and
    ``options``. It builds the session once without a store, so a bad setting fails
    before any record."""

    def make(store: Any) -> Any:
        return session_class(
            rules,
            human=None if auto else "you",
            store=store,
            echo=click.echo if auto else None,
            **options,
        )

    try:
        make(None)
    except CroupierError as error:
        raise click.UsageError(str(error)) from None
    return make
