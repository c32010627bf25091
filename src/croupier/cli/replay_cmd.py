"""``croupier replay``: replay PHH hand histories through the referee and print final stacks.

A hand is a failure (exit code 1) when it cannot be read, breaks a rule, stops before its
end (a player still to act; ``--lenient`` reports it and lets it pass), or ends with stacks
other than the file's own ``finishing_stacks``.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(replay_command, ["no-such-file.phh"])
>>> result.exit_code, result.output.strip()
(1, 'croupier: error: no-such-file.phh: cannot read: No such file or directory')
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import click

from croupier.cli.options import echo_json
from croupier.phh.profiles import PROFILES
from croupier.phh.reader import HandHistory, PHHError, load
from croupier.phh.replay import replay

__all__ = ["replay_command"]


def _number(value: int | Decimal) -> Any:
    """JSON number: integers as they are, decimals exactly (no binary float rounding)."""
    if isinstance(value, int):
        return value
    return json.loads(str(value))  # the shortest float that prints as the decimal


@click.command("replay")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line and hand.")
@click.option("--profile", type=click.Choice(sorted(PROFILES)), default=None,
              help="House rules to replay under (default: the file's, else PHH's own).")  # fmt: skip
@click.option("--lenient", is_flag=True,
              help="Repair what the record leaves out (a skipped player folds); an "
                   "unfinished record is reported but not an error.")  # fmt: skip
def replay_command(files: tuple[str, ...], as_json: bool, profile: str | None,
                   lenient: bool) -> None:  # fmt: skip
    """Replay each hand of FILES (.phh or .phhs) and print its final stacks.

    Exits non-zero when any hand is illegal or cannot be read, when a record stops
    before the hand ends (a player still to act; with --lenient it is reported
    but allowed), or when the replay's final stacks differ from the file's own
    finishing_stacks. Each such hand is reported on one line with its file, hand,
    action and the rule it breaks.

    \b
    Examples:
      croupier replay examples/phh/dwan-ivey-2009.phh
      croupier replay examples/phh/*.phhs --json
    """
    failures = 0
    for name in files:
        try:
            hands = load(name)
        except PHHError as exc:
            failures += 1
            click.echo(f"croupier: error: {exc}", err=True)
            continue
        for hh in hands:
            failures += _replay_one(name, hh, profile, lenient, as_json)
    if failures:
        raise SystemExit(1)


def _replay_one(
    name: str, hh: HandHistory, profile: str | None, lenient: bool, as_json: bool
) -> int:
    """Replay and report one hand; 1 when it counts as a failure."""
    record: dict[str, Any] = {"file": name}
    if hh.key is not None:
        record["hand"] = hh.key
    label = f"{name} [{hh.key}]" if hh.key is not None else name
    try:
        result = replay(hh, profile, strict=not lenient)
    except PHHError as exc:
        record["error"] = str(exc)
        if exc.rule:
            record["rule"] = exc.rule
        click.echo(f"croupier: error: {exc}", err=True)
        if as_json:
            echo_json(record)
        return 1
    record["variant"] = hh.variant
    record["finished"] = result.finished
    stacks = result.final_stacks
    if result.finished:
        record["final_stacks"] = [_number(s) for s in stacks]
    else:
        record["to_act"] = result.to_act
        record["stacks"] = [_number(s) for s in stacks]
        record["pot"] = _number(result.pot)
    if result.recorded_stacks is not None:
        record["matches_recorded"] = result.matches_recorded if result.finished else None
    if result.warnings:
        record["repairs"] = result.warnings
    problems = result.problems()
    failed = bool(problems) and not (lenient and result.matches_recorded is not False)
    # with --lenient an unfinished record is reported but allowed; a mismatch never is
    if problems:
        record["error" if failed else "warning"] = "; ".join(problems)
        kind = "error" if failed else "warning"
        click.echo(f"croupier: {kind}: {label}: {'; '.join(problems)}", err=True)
    if as_json:
        echo_json(record)
    elif result.finished:
        click.echo(f"{label}: {hh.variant} final stacks {' '.join(str(s) for s in stacks)}")
    else:
        click.echo(
            f"{label}: {hh.variant} unfinished, {result.to_act} to act: stacks "
            f"{' '.join(str(s) for s in stacks)}, pot {result.pot}"
        )
    return 1 if failed else 0
