"""The ``croupier`` command: one click group, one module per sub-command.

Every way a command can fail ends in one line on stderr, ``croupier: error: …``, and a
non-zero exit code, never a traceback: a usage error (bad option, missing argument,
conflicting options) exits 2, bad input the engine refuses (any
:class:`~croupier.errors.CroupierError`) or a file that cannot be read or written exits 1.
Warnings (a rebuilt table cache) are one line too, ``croupier: warning: …``.

>>> from click.testing import CliRunner
>>> CliRunner().invoke(cli, ["--help"]).exit_code
0
>>> result = CliRunner().invoke(cli, ["eval"])
>>> result.exit_code, result.output
(2, "croupier: error: Missing argument 'CARDS...'. (see 'croupier eval --help')\\n")
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

import click

from croupier import __version__
from croupier.cli.admin_cmd import admin
from croupier.cli.blackjack_cmd import blackjack
from croupier.cli.demo_cmd import demo
from croupier.cli.equity_cmd import equity
from croupier.cli.eval_cmd import eval_command
from croupier.cli.history_cmd import register as register_store_commands
from croupier.cli.par_cmd import par
from croupier.cli.play_cmd import play
from croupier.cli.poker_cmd import poker
from croupier.cli.replay_cmd import replay_command
from croupier.cli.rng_cmd import rng
from croupier.cli.rules_cmd import rules
from croupier.cli.serve_cmd import serve
from croupier.errors import CroupierError

__all__ = ["EXIT_INTERNAL", "cli", "main"]

EXIT_INTERNAL = 70
"""Exit code of a bug in croupier itself (``EX_SOFTWARE``); set ``CROUPIER_DEBUG=1`` to see
its traceback."""


def _one_line(text: str) -> str:
    """A message folded onto one line."""
    return "; ".join(part.strip() for part in str(text).splitlines() if part.strip())


def _error(text: str) -> None:
    click.echo(f"croupier: error: {_one_line(text)}", err=True)


@contextmanager
def _one_line_warnings() -> Iterator[None]:
    """Show every warning as ``croupier: warning: …`` on stderr, once each."""

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        click.echo(f"croupier: warning: {_one_line(str(message))}", err=True)

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


def _usage_hint(exc: click.UsageError) -> str:
    if exc.ctx is None:
        return " (see 'croupier --help')"
    return f" (see '{exc.ctx.command_path} --help')"


class CroupierGroup(click.Group):
    """The top-level group: runs a command and turns every failure into one line."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        code = self._run(args, prog_name or "croupier", complete_var, windows_expand_args, extra)
        if standalone_mode:
            sys.exit(code)
        return code

    def _run(
        self,
        args: Sequence[str] | None,
        prog_name: str,
        complete_var: str | None,
        windows_expand_args: bool,
        extra: dict[str, Any],
    ) -> int:
        try:
            with _one_line_warnings():
                value = super().main(
                    args=args,
                    prog_name=prog_name,
                    complete_var=complete_var,
                    standalone_mode=False,
                    windows_expand_args=windows_expand_args,
                    **extra,
                )
        except click.exceptions.Abort:
            click.echo("Aborted.", err=True)
            return 130
        except click.UsageError as exc:
            _error(exc.format_message() + _usage_hint(exc))
            return 2
        except click.ClickException as exc:
            _error(exc.format_message())
            return exc.exit_code
        except CroupierError as exc:
            _error(str(exc))
            return 1
        except BrokenPipeError:  # output piped into head and the like
            _silence_stdout()
            return 0
        except OSError as exc:  # a file the command reads or writes
            where = f"{exc.filename}: " if exc.filename else ""
            _error(f"{where}{exc.strerror or exc}")
            return 1
        except SystemExit as exc:  # a command that ends with a status of its own
            return exc.code if isinstance(exc.code, int) else 1
        except KeyboardInterrupt:
            click.echo("Aborted.", err=True)
            return 130
        except Exception as exc:
            if os.environ.get("CROUPIER_DEBUG"):
                raise
            _error(
                f"internal error ({type(exc).__name__}: {exc}); please report it "
                "(CROUPIER_DEBUG=1 shows the traceback)"
            )
            return EXIT_INTERNAL
        return value if isinstance(value, int) else 0


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


@click.group(
    "croupier", cls=CroupierGroup, context_settings={"help_option_names": ["-h", "--help"]}
)
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
cli.add_command(par)
register_store_commands(cli)
cli.add_command(play)
cli.add_command(serve)
cli.add_command(admin)
cli.add_command(rng)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit code: 0 done, 1 bad input or an illegal hand (one line
    ``croupier: error: …``), 2 a usage error, never a traceback.

    >>> main(["eval", "As", "Ks", "Qs", "Js", "Ts"])
    Royal flush  [As Ks Qs Js Ts]  rank 7462
    0
    """
    code: int = cli.main(args=argv, prog_name="croupier", standalone_mode=False)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
