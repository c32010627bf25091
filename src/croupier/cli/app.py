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
from collections.abc import Iterator, MutableMapping, Sequence
from contextlib import contextmanager
from gettext import gettext as _
from typing import Any, Final, TextIO

import click

from croupier import __version__
from croupier.errors import CroupierError

__all__ = ["COMMANDS", "EXIT_INTERNAL", "cli", "main"]

EXIT_INTERNAL = 70
"""Exit code of a bug in croupier itself (``EX_SOFTWARE``); set ``CROUPIER_DEBUG=1`` to see
its traceback."""

COMMANDS: Final[dict[str, tuple[str, str, str]]] = {
    "admin": (
        "croupier.cli.admin_cmd",
        "admin",
        "Grant and revoke the card room's admin role; list the admins and the audit log.",
    ),
    "blackjack": (
        "croupier.cli.blackjack_cmd",
        "blackjack",
        "Blackjack analysis and simulation under the NZ rules (or any rule set).",
    ),
    "dealer": (
        "croupier.cli.dealer_cmd",
        "dealer",
        "Serve a heads-up hold'em match to bots over TCP in the ACPC protocol (--acpc).",
    ),
    "demo": (
        "croupier.cli.demo_cmd",
        "demo",
        "Evaluate a few hands and print the equity of AsKs against QdQh.",
    ),
    "equity": (
        "croupier.cli.equity_cmd",
        "equity",
        "Equity of two or more HANDS ('As Ks' 'Qd Qh') or hold'em ranges ('QQ+, AKo').",
    ),
    "eval": (
        "croupier.cli.eval_cmd",
        "eval_command",
        "Evaluate a hand: CARDS are the player's cards ('As Kd' or As Kd).",
    ),
    "history": (
        "croupier.cli.history_cmd",
        "history",
        "Read the audit store: the hands and rounds dealt, each with its deck commitment.",
    ),
    "match": (
        "croupier.cli.match_cmd",
        "match",
        "Play two bots in duplicate and report milli-big-blinds a hand with a 95 % interval.",
    ),
    "par": (
        "croupier.cli.par_cmd",
        "par",
        "PAR sheets: the house's figures for a game, exact where the math allows, simulated "
        "with a 95 % interval otherwise.",
    ),
    "play": (
        "croupier.cli.play_cmd",
        "play",
        "Play GAME at a terminal table against bots (or watch bots play with --auto).",
    ),
    "poker": (
        "croupier.cli.poker_cmd",
        "poker",
        "Poker tools: simulate hands under the NZ rules.",
    ),
    "replay": (
        "croupier.cli.replay_cmd",
        "replay_command",
        "Replay each hand of FILES (.phh or .phhs) and print its final stacks.",
    ),
    "rng": (
        "croupier.cli.rng_cmd",
        "rng",
        "The RNG evidence pack: export what the shuffle consumes and makes, and test it.",
    ),
    "rules": (
        "croupier.cli.rules_cmd",
        "rules",
        "List every rule and decision, its provenance, and whether a test checks it.",
    ),
    "serve": (
        "croupier.cli.serve_cmd",
        "serve",
        "Run the table server: the HTTP API and WS /ws (see docs/protocol.md).",
    ),
    "verify-deal": (
        "croupier.cli.verify_deal_cmd",
        "verify_deal",
        "Check that hand ID's deck commitment matches the cards it dealt (or every hand of "
        "--file, or the hand at --url).",
    ),
}
"""Every sub-command: ``name -> (module, attribute, first paragraph of its help)``.

The top-level ``croupier --help`` lists the commands from this table alone; a command's
module (and whatever it imports: numpy, numba, the server) is imported only when the command
runs or its own help is asked for. A test checks the table against the commands themselves.

>>> COMMANDS["eval"][:2]
('croupier.cli.eval_cmd', 'eval_command')
"""


class _LazyCommands(MutableMapping[str, click.Command]):
    """The group's commands: names known up front, each module imported on first access."""

    def __init__(self, table: dict[str, tuple[str, str, str]]) -> None:
        self._table = table
        self._loaded: dict[str, click.Command] = {}
        self._removed: set[str] = set()

    def loaded(self, name: str) -> bool:
        """Whether ``name``'s command object exists yet (imported, or added directly)."""
        return name in self._loaded

    def __getitem__(self, name: str) -> click.Command:
        command = self._loaded.get(name)
        if command is not None:
            return command
        if name in self._removed or name not in self._table:
            raise KeyError(name)
        import importlib

        module, attribute, _ = self._table[name]
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, click.Command):  # pragma: no cover - a bad table entry
            raise TypeError(f"{module}.{attribute} is not a click command")
        self._loaded[name] = command
        return command

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._removed.discard(name)
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._loaded.pop(name, None)
        self._removed.add(name)

    def __contains__(self, name: object) -> bool:
        return name in self._loaded or (name in self._table and name not in self._removed)

    def __iter__(self) -> Iterator[str]:
        yield from (name for name in self._table if name not in self._removed)
        yield from (name for name in self._loaded if name not in self._table)

    def __len__(self) -> int:
        return sum(1 for _ in self)


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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands as click does, taking the help of a command not imported yet
        from :data:`COMMANDS` (so ``croupier --help`` imports no command module)."""
        commands = self.commands
        if not isinstance(commands, _LazyCommands):
            super().format_commands(ctx, formatter)
            return
        rows: list[tuple[str, click.Command | None]] = []
        for name in self.list_commands(ctx):
            if name in COMMANDS and not commands.loaded(name):
                rows.append((name, None))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command))
        if not rows:
            return
        limit = formatter.width - 6 - max(len(name) for name, _ in rows)
        lines = [
            (
                name,
                (command or click.Command(name, help=COMMANDS[name][2])).get_short_help_str(limit),
            )
            for name, command in rows
        ]
        with formatter.section(_("Commands")):
            formatter.write_dl(lines)

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


cli.commands = _LazyCommands(COMMANDS)


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
