"""``croupier rules``: every rule of the registry, its provenance, and whether a test checks it.

A rule is *tested* when a test carries ``@pytest.mark.rule("<id>")``, a *decision* when it is
a decision or an inferred rule whose default is documented in ``docs/decisions.md``, and
*not yet* otherwise (see :func:`croupier.rules.coverage.rule_status`). Test coverage is read
from a croupier checkout (its ``tests/`` and ``docs/decisions.md``); an installed package ships
neither, so there the command lists the rules and says that coverage needs a checkout.

>>> import json
>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(rules, ["--json", "--game", "blackjack"])
>>> result.exit_code
0
>>> first = json.loads(result.stdout)[0]
>>> first["id"], first["provenance"], first["game"]
('Blackjack 3.1', 'NZ-RELATED', 'blackjack')
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from croupier.rules.coverage import Status, collect_rule_tests, find_project_root, rule_status
from croupier.rules.registry import Game, Registry, Rule, load_registry

__all__ = ["rules"]

NO_CHECKOUT = (
    "croupier rules: warning: test coverage needs a croupier checkout (its tests/ folder), "
    "and none was found (an installed package ships no tests); every status below ignores "
    "tests. Run from a checkout, or pass --tests-dir."
)
"""What ``croupier rules`` prints (to stderr) when it finds no tests to scan."""

_STATUS_CHOICES = {"tested": Status.TESTED, "decision": Status.DECISION, "not-yet": Status.NOT_YET}


class _BadInput(click.ClickException):
    """A one-line ``Error: ...`` and exit code 2, the CLI's convention for bad input."""

    exit_code = 2


class _OneLineErrors(click.Command):
    """A command whose usage errors are one line (no usage text), exit code 2."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as exc:
            raise _BadInput(exc.format_message()) from None


def _locate(tests_dir: Path | None) -> tuple[Path | None, Path | None]:
    """``(tests directory, docs/decisions.md)``; ``None`` where nothing was found."""
    if tests_dir is not None:
        root = find_project_root(tests_dir) or tests_dir.resolve().parent
        return tests_dir, root / "docs" / "decisions.md"
    checkout = find_project_root()
    if checkout is None:
        return None, None
    found = checkout / "tests"
    return (found if found.is_dir() else None), checkout / "docs" / "decisions.md"


def _report(
    registry: Registry, tests_dir: Path | None, decisions: Path | None
) -> list[tuple[Rule, Status, list[str]]]:
    tests: dict[str, list[str]] = {}
    if tests_dir is not None:
        root = find_project_root(tests_dir) or tests_dir.resolve().parent
        tests = collect_rule_tests(tests_dir.resolve(), registry=registry, rootdir=root)
    text = ""
    if decisions is not None and decisions.is_file():
        text = decisions.read_text("utf-8")
    return [(rule, rule_status(rule, tests, text), tests.get(rule.id, [])) for rule in registry]


def _print_games(as_json: bool) -> None:
    """Each poker game as data: section, deal, sources, and the inferred parts."""
    from croupier.poker.games import GAMES  # the poker engine is only needed here

    records = [
        {
            "game": spec.name,
            "title": spec.title,
            "section": spec.section,
            "hole_cards": spec.hole_cards,
            "board_cards": spec.board_cards,
            "burns": spec.burns,
            "deck": spec.ranking.deck_size,
            "ranking": spec.ranking.name,
            "composition": spec.composition.describe(),
            "forced_bets": spec.forced.value,
            "streets": [street.name for street in spec.streets],
            "source": list(spec.source),
            "inferred": list(spec.inferred),
        }
        for spec in GAMES.values()
    ]
    if as_json:
        click.echo(json.dumps(records, indent=2, ensure_ascii=False))
        return
    for spec in GAMES.values():
        click.echo(
            f"{spec.section}  {spec.title} ({spec.name}): {spec.ranking.deck_size} cards, "
            f"{spec.hole_cards} own + {spec.board_cards} board, {spec.composition.describe()}"
        )
        click.echo(f"    rules: {', '.join(spec.source)}")
        for note in spec.inferred:
            click.echo(f"    INFERRED: {note}")


@click.command(name="rules", cls=_OneLineErrors)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON array instead of a table.")
@click.option(
    "--game",
    type=click.Choice([str(game) for game in Game], case_sensitive=False),
    help="Only the rules of this game.",
)
@click.option(
    "--status",
    "status_name",
    type=click.Choice(list(_STATUS_CHOICES), case_sensitive=False),
    help="Only rules with this status.",
)
@click.option(
    "--games",
    "show_games",
    is_flag=True,
    help="Show each poker game: its section, source rules and what is inferred.",
)
@click.option(
    "--tests-dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Test folder to scan for rule markers (default: the checkout's tests/).",
)
def rules(
    as_json: bool,
    game: str | None,
    status_name: str | None,
    show_games: bool,
    tests_dir: Path | None,
) -> None:
    """List every rule and decision, its provenance, and whether a test checks it.

    \f
    >>> from click.testing import CliRunner
    >>> result = CliRunner().invoke(rules, ["--game", "chess"])
    >>> result.exit_code, result.output.count("\\n")
    (2, 1)
    """
    if show_games:
        _print_games(as_json)
        return
    registry = load_registry()
    found_tests, decisions = _locate(tests_dir)
    if found_tests is None:
        click.echo(NO_CHECKOUT, err=True)
    rows = _report(registry, found_tests, decisions)
    if game is not None:
        rows = [row for row in rows if row[0].game == game.lower()]
    if status_name is not None:
        wanted = _STATUS_CHOICES[status_name.lower()]
        rows = [row for row in rows if row[1] is wanted]

    if as_json:
        records = [
            {
                "id": rule.id,
                "aliases": list(rule.aliases),
                "game": str(rule.game),
                "section": rule.section,
                "kind": str(rule.kind),
                "provenance": str(rule.provenance),
                "status": str(status),
                "tests": tests,
                "summary": rule.summary,
                "issue": rule.issue,
            }
            for rule, status, tests in rows
        ]
        click.echo(json.dumps(records, indent=2, ensure_ascii=False))
        return

    header = ("id", "provenance", "status", "tests")
    table = [header] + [
        (rule.id, str(rule.provenance), str(status), str(len(tests)))
        for rule, status, tests in rows
    ]
    widths = [max(len(line[col]) for line in table) for col in range(3)]
    for rule_id, provenance, status, count in table:
        click.echo(
            f"{rule_id:<{widths[0]}}  {provenance:<{widths[1]}}  {status:<{widths[2]}}  {count:>5}"
        )
    counts = {status: sum(row[1] is status for row in rows) for status in Status}
    click.echo(
        f"{len(rows)} rules: {counts[Status.TESTED]} tested, "
        f"{counts[Status.DECISION]} decision, {counts[Status.NOT_YET]} not yet"
    )
