"""The command line loads each command's module only when that command runs."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from croupier.cli.app import COMMANDS, cli

SRC = Path(__file__).resolve().parents[2] / "src"

_PROBE = (
    "import sys\n"
    "from croupier.cli.app import main\n"
    "code = main(sys.argv[1:])\n"
    "heavy = sorted(m for m in ('numba', 'numpy') if m in sys.modules)\n"
    "commands = sorted(m for m in sys.modules if m.startswith('croupier.cli.') and m.endswith('_cmd'))\n"
    "print('MODULES', code, ','.join(heavy) or '-', ','.join(commands) or '-')\n"
)


def _modules_after(*args: str) -> tuple[int, list[str], list[str]]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, env=env, check=True
    )
    line = next(x for x in out.stdout.splitlines() if x.startswith("MODULES"))
    _, code, heavy, commands = line.split()
    return int(code), heavy.split(",") if heavy != "-" else [], commands.split(",")


def test_top_level_help_imports_no_command_module_nor_numpy() -> None:
    code, heavy, commands = _modules_after("--help")
    assert code == 0
    assert heavy == []
    assert commands == ["-"]


def test_eval_loads_its_own_module_only_and_no_numba() -> None:
    code, heavy, commands = _modules_after("eval", "As", "Kd", "Qh", "Jc", "Tc")
    assert code == 0
    assert "numba" not in heavy
    assert "numpy" not in heavy  # the one-call tables are read without numpy
    assert commands == ["croupier.cli.eval_cmd"]


def test_a_command_help_loads_that_command_only() -> None:
    code, _heavy, commands = _modules_after("rules", "--help")
    assert code == 0
    assert commands == ["croupier.cli.rules_cmd"]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_table_matches_each_command(name: str) -> None:
    module, attribute, first_paragraph = COMMANDS[name]
    command = getattr(importlib.import_module(module), attribute)
    assert isinstance(command, click.Command)
    assert command.name == name
    for limit in (20, 45, 60, 200, 10_000):
        stand_in = click.Command(name, help=first_paragraph)  # what --help shows unloaded
        assert stand_in.get_short_help_str(limit) == command.get_short_help_str(limit)


def _help_texts(command: click.Command, path: list[str]) -> list[tuple[str, str]]:
    """``--help`` of ``command`` and of every subcommand under it."""
    texts = [(" ".join(path), CliRunner().invoke(cli, [*path, "--help"]).output)]
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            texts += _help_texts(sub, [*path, name])
    return texts


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_no_help_shows_a_docstring_example(name: str) -> None:
    module, attribute, _ = COMMANDS[name]
    command = getattr(importlib.import_module(module), attribute)
    for path, text in _help_texts(command, [name]):
        assert "Usage:" in text, path
        assert ">>>" not in text, f"croupier {path} --help shows a doctest"


def test_help_lists_every_command_as_click_would() -> None:
    plain = click.Group("croupier")
    for name, (module, attribute, _) in COMMANDS.items():
        plain.add_command(getattr(importlib.import_module(module), attribute), name)
    ours = CliRunner().invoke(cli, ["--help"]).output
    theirs = CliRunner().invoke(plain, ["--help"]).output
    assert ours.split("Commands:")[1] == theirs.split("Commands:")[1]


def test_the_commands_mapping_behaves_as_a_dict() -> None:
    assert sorted(cli.commands) == sorted(COMMANDS)
    assert len(cli.commands) == len(COMMANDS)
    assert "eval" in cli.commands
    assert "nothing" not in cli.commands
    assert cli.get_command(click.Context(cli), "nothing") is None
    assert cli.commands["eval"].name == "eval"


def test_a_mistyped_command_still_gets_a_suggestion() -> None:
    result = CliRunner().invoke(cli, ["evl"])
    assert result.exit_code == 2
    assert "Did you mean 'eval'?" in result.output
