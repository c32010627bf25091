"""``croupier verify-deal``: check a hand's deck commitment against the cards it dealt.

From the store (``croupier verify-deal ID``) or from a file: a JSON export
(``croupier history export``) or a PHH file carrying the commitment fields. The revealed
order and salt must hash to the commitment, and every card taken from the deck must be the
card of that order at its position (a PHH file has no burn cards: their positions are
counted, not their faces). Exits 1 when a deal fails.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(verify_deal, [])
>>> result.exit_code
2
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from croupier.cli.history_cmd import DB_OPTION, ROW_ID, open_store
from croupier.cli.options import echo_json
from croupier.errors import CroupierError

__all__ = ["verify_deal"]


@click.command("verify-deal")
@click.argument("hand_id", type=ROW_ID, metavar="[ID]", required=False)
@click.option("--file", "path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A JSON export or a PHH file instead of the store.")  # fmt: skip
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand checked.")
def verify_deal(hand_id: int | None, path: str | None, db: str | None, as_json: bool) -> None:
    """Check that hand ID's deck commitment matches the cards it dealt (or every hand of
    --file).

    \b
    Examples:
      croupier verify-deal 42
      croupier verify-deal --file hand42.json
      croupier verify-deal --file hands.phhs
    """
    from croupier.fairness import DealVerificationError

    if (hand_id is None) == (path is None):
        raise click.UsageError("give a hand ID or --file FILE (one of them)")
    try:
        checked = _from_file(path) if path is not None else _from_store(hand_id or 0, db)
    except DealVerificationError as error:
        if as_json:
            echo_json({"ok": False, "error": str(error)})
        raise
    for label, check, note in checked:
        if as_json:
            record: dict[str, Any] = {
                "hand": label,
                "ok": True,
                "commitment": check.commitment,
                "cards": check.cards,
                "start": check.start,
                "unseen": check.unseen,
                "restocked": check.restocked,
            }
            if note:
                record["note"] = note
            echo_json(record)
        else:
            click.echo(f"{label}: {check.describe()}" + (f" ({note})" if note else ""))


def _from_store(hand_id: int, db: str | None) -> list[tuple[str, Any, str]]:
    from croupier.fairness import verify_logged_deal
    from croupier.store import game_deck

    with open_store(db) as store:
        hand = store.hand(hand_id)
    check = verify_logged_deal(
        hand.commitment, hand.reveal, hand.events, start=hand.offset, deck=game_deck(hand.rules)
    )
    note = "" if hand.revealed else "the house's copy: the shoe is not yet revealed to players"
    if hand.seeded:
        note = "; ".join(filter(None, [note, "seeded: the deal was replayable"]))
    return [(f"hand {hand.id}", check, note)]


def _from_file(path: str) -> list[tuple[str, Any, str]]:
    try:
        from croupier.store.export import verify_exported, verify_phh
    except ImportError as error:
        raise click.ClickException(f"verify-deal needs the 'store' extra ({error.name})") from None
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise CroupierError(f"{path}: not a JSON export or a PHH file (not UTF-8 text)") from None
    if text.lstrip().startswith("{"):
        try:
            document = json.loads(text)
        except ValueError as error:
            raise CroupierError(f"{path}: not JSON: {error}") from None
        return [(c.label, c.check, c.note) for c in verify_exported(document)]
    from croupier.phh.reader import loads

    out = []
    for history in loads(text, source=path):
        checked = verify_phh(history)
        out.append((checked.label, checked.check, checked.note))
    return out
