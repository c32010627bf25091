"""``croupier verify-deal``: check a hand's deck commitment against the cards it dealt.

From the store (``croupier verify-deal ID``), from a file: a JSON export
(``croupier history export``) or a PHH file carrying the commitment fields, or from a card
room's API (``croupier verify-deal --url http://HOST:PORT/api/hands/ID``, as the bearer of
``--token`` sees it). The revealed order and salt must hash to the commitment, and every
card taken from the deck must be the card of that order at its position (a PHH file has
no burn cards, and the API hides the cards its viewer may not see: their positions are
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
@click.option("--url", "url", metavar="URL", default=None,
              help="A hand from a card room's API (http://HOST:PORT/api/hands/ID) instead "
              "of the store.")  # fmt: skip
@click.option("--token", "token", metavar="TOKEN", envvar="CROUPIER_TOKEN", default=None,
              help="With --url: a session token (POST /api/login), to see the hand as its "
              "player [default: $CROUPIER_TOKEN, else as a spectator].")  # fmt: skip
@click.option("--commitment", "commitment", metavar="HEX", default=None,
              help="With --url: the digest the table published before the deal; the hand's "
              "commitment must be it.")  # fmt: skip
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand checked.")
def verify_deal(
    hand_id: int | None,
    path: str | None,
    url: str | None,
    token: str | None,
    commitment: str | None,
    db: str | None,
    as_json: bool,
) -> None:
    """Check that hand ID's deck commitment matches the cards it dealt (or every hand of
    --file, or the hand at --url).

    \b
    Examples:
      croupier verify-deal 42
      croupier verify-deal --file hand42.json
      croupier verify-deal --file hands.phhs
      croupier verify-deal --url http://localhost:8000/api/hands/42 --token "$TOKEN"
    """
    from croupier.fairness import DealVerificationError

    if sum(x is not None for x in (hand_id, path, url)) != 1:
        raise click.UsageError("give a hand ID, --file FILE or --url URL (one of them)")
    if url is None and (token is not None or commitment is not None):
        raise click.UsageError("--token and --commitment go with --url")
    try:
        if url is not None:
            checked = _from_url(url, token, commitment)
        elif path is not None:
            checked = _from_file(path)
        else:
            checked = _from_store(hand_id or 0, db)
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


def _from_url(url: str, token: str | None, expected: str | None) -> list[tuple[str, Any, str]]:
    """Fetch the hand at ``url`` (``GET /api/hands/ID``) and check its deal."""
    try:
        import httpx
    except ImportError:
        raise click.ClickException(
            "verify-deal --url needs httpx: pip install 'croupier[server]'"
        ) from None
    if not url.startswith(("http://", "https://")):
        raise CroupierError(f"{url!r} is not an http:// or https:// URL")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        reply = httpx.get(url, headers=headers, timeout=15.0, follow_redirects=True)
    except (httpx.HTTPError, httpx.InvalidURL, ValueError) as error:
        raise CroupierError(f"cannot fetch {url}: {error or type(error).__name__}") from None
    if reply.status_code != 200:
        try:
            detail = reply.json().get("detail", "")
        except (ValueError, AttributeError):
            detail = ""
        why = f": {detail}" if isinstance(detail, str) and detail else ""
        raise CroupierError(f"{url}: HTTP {reply.status_code} {reply.reason_phrase}{why}")
    try:
        data = reply.json()
    except ValueError:
        raise CroupierError(f"{url}: the answer is not JSON") from None
    return [verify_api_hand(data, expected, where=url)]


def verify_api_hand(
    data: object, expected: str | None = None, *, where: str = "the hand"
) -> tuple[str, Any, str]:
    """Check a hand as ``GET /api/hands/ID`` gives it: the revealed order and salt hash to
    its commitment (and to ``expected``, the digest the table published, when given), the
    order is one whole deck of the game, and every card the viewer's log takes from the
    deck is the next card of the order (a card the viewer may not see, shown as hidden,
    is counted by position); the PHH export it carries, with every hole card, is checked
    the same way. The label, the :class:`~croupier.fairness.DealCheck` and a note.

    >>> verify_api_hand({"id": 3})
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: the hand: not a poker hand from the API (no 'game_kind')
    """
    from croupier.fairness import (
        DealtCards,
        DealVerificationError,
        DeckCommitment,
        DeckReveal,
        verify_deal,
    )
    from croupier.poker import events as pk
    from croupier.poker.views import event_from_dict

    try:
        from croupier.store import game_deck
        from croupier.store.serial import rules_from_json
    except ImportError as error:
        raise click.ClickException(f"verify-deal needs the 'store' extra ({error.name})") from None

    if not isinstance(data, dict):
        raise CroupierError(f"{where}: not a hand (a JSON object is expected)")
    for key in ("game_kind", "commitment", "reveal", "rules", "events"):
        if key not in data:
            raise CroupierError(f"{where}: not a poker hand from the API (no {key!r})")
    label = f"hand {data.get('id', '?')}"
    if data["game_kind"] != "poker":
        raise CroupierError(f"{where}: {label} is a {data['game_kind']} hand, not poker")
    commitment = DeckCommitment(data["commitment"])
    if expected is not None and expected.strip().lower() != commitment.digest:
        raise DealVerificationError(
            f"{label}: its commitment {commitment.digest[:12]}… is not the one published "
            f"before the deal ({expected.strip()[:12]}…)"
        )
    if data["reveal"] is None:
        raise DealVerificationError(f"{label}: the deck is not revealed")
    reveal = DeckReveal.from_dict(data["reveal"])
    rules = rules_from_json("poker", json.dumps(data["rules"]), data.get("rules_fingerprint"))
    events = data["events"]
    if not isinstance(events, list) or not events:
        raise CroupierError(f"{where}: {label} has no event log")
    slots: list[Any] = []
    restocked = 0
    for raw in events:
        event = event_from_dict(raw) if isinstance(raw, dict) else None
        match event:
            case None:
                raise CroupierError(f"{where}: {label}: an event is not a JSON object")
            case pk.CardBurned(card=card) | pk.CardBoxed(card=card):
                slots.append(card)
            case pk.CardsDealt(cards=cards) | pk.CommunityDealt(cards=cards):
                slots.extend(cards)
            case pk.HiddenCards(what="dealt" | "burned", count=count):
                slots.extend([None] * count)
            case pk.HiddenCards(what="restocked") | pk.StubRestocked():
                restocked += 1
    note = ""
    if restocked:  # the restocked discards are shuffled after the commitment (Draw 11)
        beyond = max(0, len(slots) - len(reveal.order))
        slots = slots[: len(reveal.order)]
        note = f"{beyond} cards dealt from restocked discards are not bound by the commitment"
    try:
        check = verify_deal(
            commitment, reveal.order, reveal.salt, DealtCards(tuple(slots)), deck=game_deck(rules)
        )
    except DealVerificationError as error:
        raise DealVerificationError(f"{label}: {error}") from None
    phh = data.get("phh")
    if isinstance(phh, str) and phh.strip() and not restocked:
        from croupier.phh.reader import loads
        from croupier.store.export import verify_phh

        try:
            records = loads(phh, source=f"{label} PHH")
            exported = [verify_phh(r) for r in records]
        except CroupierError as error:
            raise DealVerificationError(f"{label}: its PHH export: {error}") from None
        if [c.check.commitment for c in exported] != [commitment.digest]:
            raise DealVerificationError(f"{label}: its PHH export is of another deal")
        note = "the PHH export's hole cards sit where the order puts them too"
    return label, check, note
