"""``croupier history list|show|export|verify``: read the audit store.

Every sub-command takes ``--db URL`` (else ``$CROUPIER_DB``, else the SQLite file in the
user's data directory) and, where it prints, ``--json``. A database that cannot be opened,
is damaged, or was written by a newer croupier is one line on stderr and exit code 1;
``verify`` exits 1 when anything in the store is wrong, naming each row.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(history, ["list", "--db", "sqlite:///:memory:"])
>>> result.exit_code, result.output
(0, 'no hands in the store\\n')
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from croupier.cli.options import echo_json

if TYPE_CHECKING:
    from croupier.store import Store

__all__ = ["DB_OPTION", "audit_line", "history", "open_store", "register"]

ROW_ID = click.IntRange(1, 2**31 - 1)
"""A hand or session id (an ``INTEGER`` key)."""

NO_EXTRA = "the audit store needs the 'store' extra: pip install 'croupier[store]'"

DB_OPTION = click.option(
    "--db",
    "db",
    metavar="URL",
    envvar="CROUPIER_DB",
    default=None,
    help="The store's database: a SQLAlchemy URL (sqlite:///FILE, postgresql://...) or a "
    "file path [default: $CROUPIER_DB, else the user data directory's store.sqlite3].",
)
"""The ``--db`` option of every command that reads or writes the store."""


@contextmanager
def open_store(url: str | None) -> Iterator[Store]:
    """The store at ``url``, closed afterwards; a missing ``store`` extra is one line.

    >>> with open_store("sqlite:///:memory:") as store:
    ...     store.sessions()
    []
    """
    try:
        from croupier.store import Store
    except ImportError as error:
        raise click.ClickException(f"{NO_EXTRA} ({error.name} is missing)") from None
    store = Store.open(url, create=False)  # a reader never leaves an empty store behind
    try:
        yield store
    finally:
        store.close()


def register(group: click.Group) -> None:
    """Add the store's commands, ``history`` and ``verify-deal``, to the ``croupier`` group.

    >>> group = click.Group("croupier"); register(group); sorted(group.commands)
    ['history', 'verify-deal']
    """
    from croupier.cli.verify_deal_cmd import verify_deal

    group.add_command(history)
    group.add_command(verify_deal)


@click.group("history")
def history() -> None:
    """Read the audit store: the hands and rounds dealt, each with its deck commitment."""


@history.command("list")
@DB_OPTION
@click.option("--session", "session_id", type=ROW_ID, default=None,
              help="Only this session's hands.")  # fmt: skip
@click.option("--limit", type=ROW_ID, default=None, help="Only the last N hands.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line and hand.")
def list_command(db: str | None, session_id: int | None, limit: int | None, as_json: bool) -> None:
    """List the stored hands, oldest first: id, session, game, and each player's result.

    \b
    Examples:
      croupier history list --limit 20
      croupier history list --db postgresql://audit@db/croupier --json
    """
    with open_store(db) as store:
        hands = store.hands(session_id, limit=limit)
    if not hands and not as_json:
        click.echo("no hands in the store")
    for hand in hands:
        if as_json:
            echo_json(
                {
                    "id": hand.id,
                    "session": hand.session_id,
                    "number": hand.number,
                    "game": hand.game,
                    "recorded_at": hand.recorded_at.isoformat(),
                    "commitment": hand.commitment,
                    "results": [{"name": n, "seat": s, "net": v} for n, s, v in hand.results],
                    "house": hand.house,
                }
            )
        else:
            when = hand.recorded_at.strftime("%Y-%m-%d %H:%M:%S")
            nets = " ".join(f"{name} {net:+d}" for name, _seat, net in hand.results)
            click.echo(
                f"{hand.id:>6}  s{hand.session_id}#{hand.number:<5} {when}  {hand.game:<17} {nets}"
            )


@history.command("show")
@click.argument("hand_id", type=ROW_ID, metavar="ID")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="The hand as one JSON object.")
def show_command(hand_id: int, db: str | None, as_json: bool) -> None:
    """Show one hand: its commitment, the event log, the results and the reveal.

    \b
    Example:
      croupier history show 42
    """
    from croupier.store.export import hand_to_dict

    with open_store(db) as store:
        hand = store.hand(hand_id)
    if as_json:
        echo_json(hand_to_dict(hand))
        return
    summary = hand.summary
    click.echo(
        f"hand {summary.id}: session {summary.session_id} #{summary.number}, {summary.game}, "
        f"recorded {summary.recorded_at.isoformat(timespec='seconds')}"
    )
    click.echo(
        f"rules {hand.rules.fingerprint}, engine {hand.engine_version}"
        + (", seeded (replayable, so the commitment proves nothing)" if hand.seeded else "")
    )
    where = f" (shoe {hand.shoe}, from card {hand.offset + 1})" if hand.shoe else ""
    click.echo(f"deck commitment sha256 {hand.commitment.digest}{where}")
    for event in hand.events:
        click.echo(f"  {audit_line(event)}")
    for name, seat, net in summary.results:
        click.echo(f"{name} ({'box' if hand.shoe else 'seat'} {seat}): {net:+d}")
    if summary.house:
        click.echo(f"house: {summary.house:+d}")
    if hand.revealed:
        click.echo(f"revealed order {hand.reveal.order_text}")
        click.echo(f"revealed salt  {hand.reveal.salt_hex}")
    else:
        click.echo("the shoe is still in play: its order and salt are revealed when it is done")


def audit_line(event: Any) -> str:
    """An event as the audit shows it once the hand is over: every card face up.

    >>> from croupier.cards import parse_cards
    >>> from croupier.poker import events as ev
    >>> audit_line(ev.CardsDealt(2, parse_cards("As"), up=False)), audit_line(ev.Folded(2))
    ('seat 2 is dealt As (down)', 'seat 2 folds')
    """
    from croupier.blackjack import events as bj
    from croupier.cards.card import format_cards
    from croupier.poker import events as pk

    match event:
        case pk.CardsDealt(seat=seat, cards=cards, up=False):
            return f"seat {seat} is dealt {format_cards(cards, ' ')} (down)"
        case pk.CardBurned(card=card) | bj.CardBurned(card=card):
            return f"burn {card}"
        case pk.StubRestocked(cards=cards):
            return f"the discards are shuffled under the stub: {format_cards(cards, ' ')}"
        case bj.DealerCard(card=card, hidden=True):
            return f"dealer gets {card} (hole card)"
    text: str = event.describe()
    return text


@history.command("export")
@click.argument("hand_ids", nargs=-1, required=True, type=ROW_ID, metavar="ID...")
@DB_OPTION
@click.option("--format", "fmt", type=click.Choice(["phh", "json"]), default="json",
              show_default=True, help="PHH (poker hands only) or croupier's JSON.")  # fmt: skip
@click.option("--out", "out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write to FILE instead of standard output.")  # fmt: skip
def export_command(hand_ids: tuple[int, ...], db: str | None, fmt: str, out: str | None) -> None:
    """Export hands with their commitments and reveals: as PHH (one hand .phh, several
    .phhs) or as a JSON document that ``croupier verify-deal --file`` checks.

    \b
    Examples:
      croupier history export 41 42 --format phh --out hands.phhs
      croupier history export 42 --out hand42.json
    """
    from croupier.store.export import hands_to_json, hands_to_phh

    with open_store(db) as store:
        hands = [store.hand(i) for i in hand_ids]
    text = hands_to_phh(hands) if fmt == "phh" else hands_to_json(hands)
    if out is None:
        click.echo(text, nl=False)
    else:
        Path(out).write_text(text, encoding="utf-8")
        click.echo(f"{len(hands)} hand(s) written to {out}", err=True)


@history.command("verify")
@DB_OPTION
@click.option("--session", "session_id", type=ROW_ID, default=None,
              help="Only this session.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="The report as one JSON object.")
def verify_command(db: str | None, session_id: int | None, as_json: bool) -> None:
    """Replay every stored hand through the referee and check it ends with the stored
    results, check each deck commitment against the cards dealt, and check the ledger
    balances. Exits 1 when anything is wrong, naming each row.

    \b
    Example:
      croupier history verify --db ~/audit/croupier.sqlite3
    """
    with open_store(db) as store:
        if session_id is not None:
            store.session(session_id)  # an unknown session is an error, not an empty report
        report = store.verify(session_id)
        where = store.url
    if as_json:
        data: dict[str, Any] = {"db": where, **report.to_dict()}
        click.echo(json.dumps(data, allow_nan=False))
    else:
        for problem in report.problems:
            click.echo(f"croupier: error: {problem.describe()}", err=True)
        chips = report.chips
        click.echo(f"{where}: {report.describe()}")
        if chips:
            click.echo(
                f"chips: bought in {chips['bought_in']}, cashed out {chips['cashed_out']}, "
                f"house {chips['house']:+d}, on the table {chips['on_table']}"
            )
    if not report.ok:
        click.echo(f"croupier: error: {report.describe()}", err=True)
        raise SystemExit(1)
