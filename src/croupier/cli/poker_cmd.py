"""``croupier poker ...``: poker tools (``simulate``).

>>> from click.testing import CliRunner
>>> out = CliRunner().invoke(poker, ["simulate", "--hands", "50", "--players", "3", "--seed", "1",
...                                  "--json"])
>>> import json; json.loads(out.output)["hands"]
50
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import click

from croupier.cli.options import SEED, echo_json, progress_bar
from croupier.cli.ray_option import ray_option
from croupier.poker.games import GAMES, ForcedBets
from croupier.poker.policies import POLICIES
from croupier.poker.settings import TableRules
from croupier.poker.sim.fastsim import fast_simulate_parallel
from croupier.poker.sim.simulate import SimulationResult, simulate
from croupier.poker.structures import (
    BettingStructure,
    structure_for_stakes,
)

if TYPE_CHECKING:
    from croupier.store import Store

__all__ = ["poker"]

STRUCTURE_CHOICES = ("no-limit", "pot-limit", "half-pot", "fixed-limit", "spread-limit")


def _structure(name: str, big_blind: int) -> BettingStructure:
    return structure_for_stakes(name, big_blind)


def _open_store(db: str | None) -> Store:
    """The store at ``db`` (else ``$CROUPIER_DB``, else the user's store); a bad URL or a
    missing ``store`` extra is a one-line error."""
    try:
        from croupier.store import Store
    except ImportError as error:
        raise click.ClickException(
            f"recording needs the 'store' extra: pip install 'croupier[store]' "
            f"({error.name} is missing)"
        ) from None
    return Store.open(db)


@click.group("poker")
def poker() -> None:
    """Poker tools: simulate hands under the NZ rules."""


@poker.command("simulate")
@click.option("--game", type=click.Choice(sorted(GAMES)), default="holdem", show_default=True)
@click.option(
    "--structure", type=click.Choice(STRUCTURE_CHOICES), default="no-limit", show_default=True
)
@click.option("--players", type=click.IntRange(2, 10), default=6, show_default=True)
@click.option("--hands", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Make the run reproducible (a whole number from 0; the same with any --workers).",
)
@click.option(
    "--big-blind",
    type=click.IntRange(min=2),
    default=10,
    show_default=True,
    help="Last blind (blind games) or bring-in and ante base (stud).",
)
@click.option(
    "--stack",
    type=click.IntRange(min=1),
    default=None,
    help="Starting stack each hand (default: 100 big blinds).",
)
@click.option(
    "--policy",
    "policy_names",
    multiple=True,
    type=click.Choice(sorted(POLICIES)),
    help="One per seat (repeat), or one for every seat; default random.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes; each runs the same engine, and a seed gives the same result with any count.",
)
@click.option(
    "--engine",
    type=click.Choice(["auto", "referee", "fast"]),
    default="auto",
    show_default=True,
    help="fast: the compiled kernel (random policy; Hold'em, Omaha, stud); auto uses it when it can.",
)
@click.option(
    "--record",
    is_flag=True,
    help="Write every hand to the audit store, committed to its deck (referee engine, one "
    "process).",
)
@click.option(
    "--db",
    default=None,
    metavar="URL",
    help="The store to record to (implies --record) "
    "[default: $CROUPIER_DB, else the user data directory].",
)
@ray_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def simulate_command(
    game: str,
    structure: str,
    players: int,
    hands: int,
    seed: int | None,
    big_blind: int,
    stack: int | None,
    policy_names: tuple[str, ...],
    workers: int,
    engine: str,
    record: bool,
    db: str | None,
    ray_address: str | None,
    as_json: bool,
) -> None:
    """Play HANDS hands with built-in policies and report each seat's result per hand.

    \b
    Examples:
      croupier poker simulate --game omaha --structure pot-limit --players 6 --hands 5000
      croupier poker simulate --policy hand-strength --policy random --players 2 --json
      croupier poker simulate --hands 200 --seed 7 --record --db sqlite:///sim.db
      croupier poker simulate --hands 100000000 --seed 7 --ray head.example:6379
    """
    spec = GAMES[game]
    if players > spec.max_players:
        raise click.BadParameter(
            f"{spec.title} seats at most {spec.max_players}", param_hint="--players"
        )
    chosen = policy_names * players if len(policy_names) == 1 else policy_names
    if chosen and len(chosen) != players:
        raise click.BadParameter(f"give one --policy or {players}", param_hint="--policy")
    bb = big_blind
    if spec.forced is ForcedBets.BLINDS:
        rules = TableRules(spec, _structure(structure, bb), blinds=(bb // 2, bb), table_minimum=bb)
    else:
        rules = TableRules(
            spec,
            _structure(structure, bb),
            blinds=(),
            ante=max(bb // 5, 1),
            bring_in=bb // 2,
            table_minimum=bb // 2,
        )
    fast_ok = set(chosen or ("random",)) == {"random"} and (
        (game in ("holdem", "omaha") and structure in ("no-limit", "pot-limit", "fixed-limit"))
        or (game in ("stud5", "stud7") and structure == "fixed-limit")
    )
    if engine == "fast" and not fast_ok:
        raise click.BadParameter(
            "the fast kernel plays the random policy at Hold'em and Omaha (no, pot or fixed "
            "limit) and fixed-limit stud",
            param_hint="--engine",
        )
    record = record or db is not None
    if record and engine == "fast":
        raise click.BadParameter(
            "the fast kernel keeps no hands to record: --record plays through the referee "
            "(--engine referee or auto)",
            param_hint="--engine",
        )
    if record and workers > 1:
        raise click.BadParameter(
            "--record plays every hand in one process: drop --workers", param_hint="--workers"
        )
    if ray_address is not None and record:
        raise click.BadParameter(
            "--record plays every hand in one process: drop --ray", param_hint="--ray"
        )
    if ray_address is not None and workers > 1:
        raise click.BadParameter(
            "the Ray cluster chooses where chunks run: drop --workers", param_hint="--ray"
        )
    if engine == "fast" or (engine == "auto" and fast_ok and not record):
        with progress_bar(hands, "hands", shown=not as_json and hands >= 2_000_000) as bar:
            fast = fast_simulate_parallel(
                players=players,
                hands=hands,
                stack=stack or 100 * bb,
                blinds=(max(bb // 5, 1), bb // 2)
                if spec.forced is not ForcedBets.BLINDS
                else (bb // 2, bb),
                game=game,
                structure=structure,
                seed=seed,
                workers=workers,
                progress=bar.update,
                ray=ray_address,
            )
        result = SimulationResult(
            hands,
            ("random",) * players,
            tuple(int(x) for x in fast.totals),
            tuple(int(x) for x in fast.squares),
        )
        _report(result, spec.title, game, structure, players, hands, as_json, "fast")
        return
    store = _open_store(db) if record else None
    try:
        if store is not None:
            click.echo(f"recording to {store.url}", err=True)
        with progress_bar(hands, "hands", shown=not as_json and hands >= 2000) as bar:
            result = simulate(
                rules,
                players=players,
                hands=hands,
                policies=chosen or None,
                stack=stack,
                seed=seed,
                workers=workers,
                progress=bar.update,
                store=store,
                ray=ray_address,
            )
    finally:
        if store is not None:
            store.close()
    _report(result, spec.title, game, structure, players, hands, as_json, "referee")
    if store is not None:
        click.echo(f"recorded {hands:,} hands as session {result.session} in {store.url}", err=True)


def _report(
    result: SimulationResult,
    title: str,
    game: str,
    structure: str,
    players: int,
    hands: int,
    as_json: bool,
    engine: str,
) -> None:
    if as_json:
        data = result.to_dict()
        data.update(game=game, structure=structure, players=players, engine=engine)
        echo_json(data)
        return
    click.echo(
        f"{title}, {structure}, {players} players, {hands:,} hand{'' if hands == 1 else 's'}, "
        f"{engine} engine "
        f"(chips won per hand, ± standard error)"
    )
    for seat in range(1, players + 1):
        se = result.stderr(seat)
        click.echo(
            f"  seat {seat} {result.policies[seat - 1]:<16} "
            f"{result.mean(seat):+9.3f} ± {f'{se:.3f}' if math.isfinite(se) else 'n/a'}"
        )
