"""The ``croupier`` command: one click group, one module per sub-command.

>>> from click.testing import CliRunner
>>> CliRunner().invoke(cli, ["--help"]).exit_code
0
"""

from __future__ import annotations

import sys

import click

from croupier import __version__
from croupier.cli.blackjack_cmd import blackjack
from croupier.cli.demo_cmd import demo
from croupier.cli.equity_cmd import equity
from croupier.cli.eval_cmd import eval_command
from croupier.cli.poker_cmd import poker
from croupier.cli.replay_cmd import replay_command
from croupier.cli.rules_cmd import rules
from croupier.errors import CroupierError

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="croupier")
def cli() -> None:
    """Deal, referee and analyse casino table games under New Zealand's gazetted rules."""


cli.add_command(eval_command)
cli.add_command(equity)
cli.add_command(rules)
cli.add_command(demo)
cli.add_command(replay_command)
cli.add_command(poker)
cli.add_command(blackjack)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; bad input ends in a one-line error and exit code 2, never a traceback.

    >>> main(["eval", "As", "Ks", "Qs", "Js", "Ts"])
    Royal flush  [As Ks Qs Js Ts]  rank 7462
    0
    """
    try:
        cli.main(args=argv, prog_name="croupier", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return 130
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except CroupierError as exc:
        click.echo(f"croupier: error: {exc}", err=True)
        return 2
    except BrokenPipeError:
        return 0
    except SystemExit as exc:  # a command that ends with a status of its own
        return exc.code if isinstance(exc.code, int) else 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
