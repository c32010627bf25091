"""``croupier rng ...``: the RNG evidence pack (exports for a laboratory, built-in tests).

``export`` writes the raw bytes the live shuffle consumes (``--raw FILE``) and the card
positions it makes (``--format positions FILE``); ``test`` runs the built-in tests at the
99 % level on fresh shuffles from the operating system's generator (or on the shuffles a
file of raw bytes makes) and exits 1 when one fails. docs/rng.md is the guide.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(rng, ["export", "--shuffles", "2", "--cards", "5", "-"])
>>> [sorted(map(int, line.split())) for line in result.output.splitlines()]
[[0, 1, 2, 3, 4], [0, 1, 2, 3, 4]]
"""

from __future__ import annotations

import os
import sys
from contextlib import ExitStack
from typing import IO, TYPE_CHECKING, Any, BinaryIO, TextIO, cast

import click

from croupier.cli.options import echo_json, progress_bar
from croupier.errors import CroupierError
from croupier.rngtest import MAX_CARDS

if TYPE_CHECKING:
    from croupier.rngtest.battery import BatteryReport

__all__ = ["rng"]

DEFAULT_SHUFFLES = 1_000_000
"""Shuffles ``croupier rng test`` deals by default."""

_CARDS = click.option(
    "--cards",
    type=click.IntRange(2, MAX_CARDS),
    default=52,
    show_default=True,
    help="Cards shuffled: 52 a deck, 32 the Manila deck, 312 a six-deck shoe.",
)


@click.group("rng")
def rng() -> None:
    """The RNG evidence pack: export what the shuffle consumes and makes, and test it."""


def _open(path: str, binary: bool, stack: ExitStack) -> IO[Any]:
    """``path`` opened for writing (``-``: standard output)."""
    if path == "-":
        return sys.stdout.buffer if binary else sys.stdout
    if binary:
        return stack.enter_context(open(path, "wb"))
    return stack.enter_context(open(path, "w", encoding="ascii", newline="\n"))


@rng.command("export")
@click.argument("path", metavar="[FILE]", required=False)
@click.option("--raw", "raw_path", metavar="FILE", default=None,
              help="Write the raw bytes the shuffles consume to FILE ('-': standard output).")  # fmt: skip
@click.option("--format", "form", type=click.Choice(["positions", "raw"]), default=None,
              help="What FILE holds: 'positions' (one line a shuffle: where each card went; "
              "the default) or 'raw' (as --raw).")  # fmt: skip
@click.option("--bytes", "byte_count", type=click.IntRange(min=1), default=None,
              help="With a raw export alone: stop after N bytes.")  # fmt: skip
@click.option("--shuffles", type=click.IntRange(min=1), default=None,
              help="Shuffle N times (the raw file then holds every byte they consumed).")  # fmt: skip
@_CARDS
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def export_command(
    path: str | None,
    raw_path: str | None,
    form: str | None,
    byte_count: int | None,
    shuffles: int | None,
    cards: int,
    as_json: bool,
) -> None:
    """Write what the live shuffle consumes and makes, for a laboratory's tests: the raw
    bytes it reads from the operating system's generator (--raw FILE), and the position
    each card takes (--format positions FILE), or both from the same shuffles. FILE '-' is
    standard output; a raw export to '-' with neither --bytes nor --shuffles runs until the
    reader stops.

    \b
    Examples:
      croupier rng export --raw raw.bin --bytes 33554432
      croupier rng export --shuffles 1000000 --format positions positions.txt
      croupier rng export --shuffles 1000000 --format positions positions.txt --raw raw.bin
      croupier rng export --raw - | dieharder -g 200 -a
    """
    from croupier.rngtest.export import export_shuffles

    if form == "raw" and raw_path is not None:
        raise click.UsageError("give the raw file once: --raw FILE or --format raw FILE")
    if form is not None and path is None:
        raise click.UsageError("--format describes FILE: give FILE too")
    if form == "raw":
        raw_path, path = path, None
    if path is None and raw_path is None:
        raise click.UsageError("give a file: --raw FILE, or FILE for the card positions")
    if path is not None and shuffles is None:
        raise click.UsageError("a positions export needs --shuffles N")
    if byte_count is not None and path is not None:
        raise click.UsageError("--bytes goes with a raw export alone (positions need --shuffles)")
    if byte_count is not None and shuffles is not None:
        raise click.UsageError("give --bytes or --shuffles, not both")
    to_stdout = "-" in (path, raw_path)
    if path == "-" and raw_path == "-":
        raise click.UsageError("only one export can go to standard output")
    if path is not None and path == raw_path:
        raise click.UsageError("the raw bytes and the positions need two files")
    if to_stdout and as_json:
        raise click.UsageError("--json prints to standard output, which the export is using")
    if byte_count is None and shuffles is None and raw_path != "-":
        raise click.UsageError("say how much: --bytes N or --shuffles N")
    total, label = (byte_count, "bytes") if byte_count is not None else (shuffles, "shuffles")
    big = total is not None and (total >= 8_000_000 if label == "bytes" else total >= 100_000)
    with ExitStack() as stack:
        raw = cast(BinaryIO, _open(raw_path, True, stack)) if raw_path is not None else None
        positions = cast(TextIO, _open(path, False, stack)) if path is not None else None
        try:
            with progress_bar(total or 0, label, shown=big and not as_json) as bar:
                summary = export_shuffles(
                    cards=cards,
                    shuffles=shuffles,
                    byte_count=byte_count,
                    raw=raw,
                    positions=positions,
                    progress=bar.update,
                )
        except BrokenPipeError:
            if not to_stdout:
                raise
            _stdout_to_devnull()  # the reader has what it wanted: the export is done
            return
    if to_stdout:
        return
    if as_json:
        echo_json({**summary.to_json(), "raw": raw_path, "positions": path})
        return
    rate = f"{summary.bytes_per_second / 1e6:.1f} MB/s"
    made = f"{summary.shuffles:,} shuffles of {cards} cards"
    if raw_path is not None:
        click.echo(f"{raw_path}: {summary.bytes_written:,} raw bytes, consumed by {made}")
    if path is not None:
        click.echo(f"{path}: {summary.lines_written:,} lines of card positions, one a shuffle")
    click.echo(f"{summary.bytes_read:,} bytes from os.urandom in {summary.seconds:.1f} s ({rate})")


def _stdout_to_devnull() -> None:
    """Point standard output at /dev/null, so the final flush cannot hit the closed pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)


def _p(value: float) -> str:
    return f"{value:.4f}" if value >= 1e-4 else f"{value:.1e}"


@rng.command("test")
@click.option("--shuffles", type=click.IntRange(min=1), default=None,
              help=f"Shuffles to deal [default: {DEFAULT_SHUFFLES:,}; with --from, as many "
              "as the file holds].")  # fmt: skip
@_CARDS
@click.option("--from", "from_path", metavar="FILE",
              type=click.Path(exists=True, dir_okay=False, readable=True), default=None,
              help="Test the shuffles these raw bytes make (an export, or another "
              "generator's output) instead of fresh bytes from the operating system.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def battery_command(shuffles: int | None, cards: int, from_path: str | None, as_json: bool) -> None:
    """Deal shuffles exactly as the card room does and run the built-in tests at the 99 %
    level: each card's position (chi-square, per card and as a table), adjacent pairs,
    ascending runs and the serial correlation between shuffles. Exits 1 when a test fails.

    \b
    Examples:
      croupier rng test
      croupier rng test --cards 312 --json
      croupier rng test --from raw.bin
    """
    from croupier.rngtest.battery import expected_bytes_per_shuffle, minimum_shuffles, run_battery

    least = minimum_shuffles(cards)
    if shuffles is not None and shuffles < least:
        raise click.BadParameter(
            f"the tests need at least {least:,} shuffles of {cards} cards", param_hint="--shuffles"
        )
    with ExitStack() as stack:
        if from_path is None:
            wanted = expected = shuffles or DEFAULT_SHUFFLES
            read, source = os.urandom, "os.urandom"
        else:
            stream = stack.enter_context(open(from_path, "rb"))
            size = os.fstat(stream.fileno()).st_size
            wanted = shuffles or max(least, size)  # a shuffle reads more than a byte
            expected = min(wanted, int(size / expected_bytes_per_shuffle(cards)))
            read, source = stream.read, from_path
        shown = not as_json and expected >= 200_000
        with progress_bar(expected, "shuffles", shown=shown) as bar:
            report = run_battery(wanted, cards, read=read, source=source, progress=bar.update)
    if as_json:
        echo_json(report.to_json())
    else:
        _print_report(report)
    if not report.passed:
        names = ", ".join(f"{r.name} (p = {_p(r.p_value)})" for r in report.failed)
        hint = (
            "; a sound generator fails one test in about 5 % of runs: run again, a real "
            "fault fails again"
            if from_path is None
            else ""
        )
        raise CroupierError(
            f"{len(report.failed)} of {len(report.results)} tests failed at the 99 % level: "
            f"{names}{hint}"
        )


def _print_report(report: BatteryReport) -> None:
    click.echo(
        f"{report.shuffles:,} shuffles of {report.cards} cards from {report.source} "
        f"({report.bytes_used:,} bytes) in {report.seconds:.1f} s"
    )
    click.echo(f"  {'test':<20} {'statistic':>11} {'df':>7} {'p-value':>9}  result")
    for r in report.results:
        df = "normal" if r.df is None else str(r.df)
        stat = f"{r.statistic:+.2f}" if r.df is None else f"{r.statistic:.2f}"
        note = f"  {r.details['card']}" if "card" in r.details else ""
        verdict = "pass" if r.passed else "FAIL"
        click.echo(f"  {r.name:<20} {stat:>11} {df:>7} {_p(r.p_value):>9}  {verdict}{note}")
    if report.passed:
        click.echo("every test passes at the 99 % level (p >= 0.01)")
