"""Fuzzing every command of the ``croupier`` CLI with random arguments (issue 10, points 11,
12, 13 and 15).

The commands are discovered from the click group, so a new command is fuzzed without a
change here. Each example picks some of the command's own options (their names, flag
negations included) with random values: valid choices, small, zero and negative numbers,
floats, huge numbers, garbage, empty strings; plus now and then an unknown option or a
stray word. Workloads stay tiny (``--rounds``, ``--hands``, ``--samples`` are at most a few
dozen, ``--workers`` at most 1), so each example takes milliseconds to a second. The
contract (``fuzz_support.check_cli``): exit code 0, 1 or 2; never a traceback or an
exception escaping click; a failure's last stderr line is one ``croupier: error: ...``
line (usage errors too); ``--json`` output is strict JSON. See ``fuzz_support`` for the
determinism policy.
"""

from __future__ import annotations

import contextlib
import tempfile

import click
import pytest
from click.testing import CliRunner
from fuzz_support import CARD_TOKENS, SEED_HANDS, card_text, check_cli, fuzz
from hypothesis import given
from hypothesis import strategies as st

from croupier.cli.app import cli


def _commands(
    group: click.Group, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], click.Command]]:
    out = []
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            out += _commands(command, (*path, name))
        else:
            out.append(((*path, name), command))
    return out


COMMANDS = _commands(cli)
WORKLOAD = {"rounds", "hands", "samples", "shuffles", "bytes"}
HEAVY_EXAMPLES = {"simulate", "house-edge", "strategy", "dealer", "equity", "par", "protection"}
EXACT_ANALYSES = {"count", "indices", "protection"}
"""Commands that run many exact analyses for each new rule set (seconds each): a few
examples only (their own tests cover their input further). ``protection`` works out the
index plays for each rule set, and simulates its games ``--rounds`` rounds each (a
workload: tiny here)."""

_numbers = st.one_of(
    st.integers(-3, 12).map(str),
    st.sampled_from(["0", "-1", "1.5", "1e3", "inf", "nan", "", " ", "x", "9" * 25, "0x10", "--"]),
    st.integers(-(2**70), 2**70).map(str),
)
_small = st.one_of(st.integers(1, 30).map(str), st.sampled_from(["0", "-1", "1.5", "", "x", "1e2"]))
_paths = st.sampled_from(
    ["out.png", "out.svg", "out.xyz", "", "missing/dir/out.png", ".", "hand.phh", "bad.phh", "-"]
)
_cards = st.one_of(
    card_text(),
    st.lists(st.sampled_from(CARD_TOKENS), min_size=2, max_size=5, unique=True).map(" ".join),
)


def _value(param: click.Parameter) -> st.SearchStrategy[str]:
    """Random text for one option or argument, in the shape its type expects or not."""
    name = param.name or ""
    if name in WORKLOAD:
        return _small
    if name == "workers":
        return st.sampled_from(["1", "0", "-1", "x", "1.5", ""])
    if name == "decks":
        return st.one_of(
            st.integers(-1, 9).map(str), st.sampled_from(["inf", "x", "6.5", "", "1e3"])
        )
    if name in ("players", "stack", "big_blind", "max_hands"):
        return st.one_of(st.integers(-2, 12).map(str), _numbers)
    if name.endswith("path") or name in ("files", "tests_dir"):
        return _paths
    if isinstance(param.type, click.Choice):
        return st.one_of(
            st.sampled_from([str(c) for c in param.type.choices]),
            st.sampled_from(["", "x", "HOLDEM"]),
        )
    if name in ("cards", "hands", "board"):
        return _cards
    if name in ("blackjack_pays", "penetration"):
        return st.sampled_from(
            ["3:2", "6:5", "1:1", "3/4", "1/2", "0", "-1", "99/100", "x", "", "2:0", "1/0"]
        )
    if isinstance(param.type, click.types.IntParamType | click.types.FloatParamType):
        return _numbers
    return st.one_of(_numbers, st.text(max_size=6), _cards)


@st.composite
def arguments(draw: st.DrawFn, command: click.Command) -> list[str]:
    """A random command line for one command, built from its own parameters."""
    words: list[str] = []
    params = [p for p in command.params if isinstance(p, click.Option | click.Argument)]
    for param in draw(st.permutations(params)):
        if isinstance(param, click.Argument):
            count = draw(st.integers(0 if not param.required else 1, 3)) if param.nargs == -1 else 1
            if draw(st.integers(0, 9)) == 0:
                count = 0  # sometimes a required argument is missing
            words += [draw(_value(param)) for _ in range(count)]
            continue
        workload = param.name in WORKLOAD
        if not workload and draw(st.integers(0, 9)) < 6:
            continue
        name = draw(st.sampled_from([*param.opts, *param.secondary_opts]))
        if param.is_flag and draw(st.integers(0, 9)) != 0:
            words.append(name)
        else:
            words += [name, draw(_value(param))]
    if draw(st.integers(0, 14)) == 0:
        words.insert(
            draw(st.integers(0, len(words))),
            draw(st.sampled_from(["--bogus", "extra", "-", "--", "-h"])),
        )
    return words


def _prepare_files() -> None:
    """Files some commands read: a good hand history and a broken one."""
    with open("hand.phh", "w", encoding="utf-8") as f:
        f.write(SEED_HANDS[1])
    with open("bad.phh", "wb") as f:
        f.write(b"\xff\xfe v\x00a\x00r\x00")


def _examples(path: tuple[str, ...]) -> int:
    if path[-1] in EXACT_ANALYSES:
        return 3
    return 12 if path[-1] in HEAVY_EXAMPLES or path[0] in HEAVY_EXAMPLES else 40


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_random_arguments_give_a_result_or_one_error_line(
    path: tuple[str, ...], command: click.Command
) -> None:
    @fuzz(_examples(path))
    @given(words=arguments(command))
    def run(words: list[str]) -> None:
        # a server that starts would serve for ever: serve is fuzzed up to its --check
        args = [*path, *words, *(["--check"] if path == ("serve",) else [])]
        with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
            _prepare_files()
            result = CliRunner().invoke(cli, args, input="As Ks Qs Js Ts\nxx\n", color=False)
            check_cli(result, args)

    run()


@fuzz(40)
@given(
    words=st.lists(
        st.one_of(
            st.sampled_from(["eval", "poker", "blackjack", "--json", "-h", "--version", "x", ""]),
            st.text(max_size=5),
        ),
        max_size=4,
    )
)
def test_random_words_at_the_top_level(words: list[str]) -> None:
    if "simulate" in words:
        return  # the commands themselves are fuzzed above with tiny workloads
    check_cli(CliRunner().invoke(cli, words, color=False), words)
