"""``croupier replay``: replay PHH hand histories through the referee and print final stacks.

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

from croupier.phh.profiles import PROFILES
from croupier.phh.reader import PHHError, load
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
              help="Repair what the record leaves out (a skipped player folds).")  # fmt: skip
def replay_command(files: tuple[str, ...], as_json: bool, profile: str | None,
                   lenient: bool) -> None:  # fmt: skip
    """Replay each hand of FILES (.phh or .phhs) and print its final stacks.

    Exits non-zero when any hand is illegal or cannot be read; each such hand is
    reported with its file, hand and the rule it breaks.

    \b
    Examples:
      croupier replay hand.phh
      croupier replay *.phhs --json
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
            record: dict[str, Any] = {"file": name}
            if hh.key is not None:
                record["hand"] = hh.key
            try:
                result = replay(hh, profile, strict=not lenient)
            except PHHError as exc:
                failures += 1
                record["error"] = str(exc)
                if exc.rule:
                    record["rule"] = exc.rule
                click.echo(f"croupier: error: {exc}", err=True)
                if as_json:
                    click.echo(json.dumps(record))
                continue
            stacks = result.final_stacks
            if as_json:
                record["variant"] = hh.variant
                record["final_stacks"] = [_number(s) for s in stacks]
                if result.warnings:
                    record["repairs"] = result.warnings
                click.echo(json.dumps(record))
            else:
                label = f"{name} [{hh.key}]" if hh.key is not None else name
                click.echo(f"{label}: {hh.variant} final stacks {' '.join(str(s) for s in stacks)}")
    if failures:
        raise SystemExit(1)
