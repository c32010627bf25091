"""Stored hands out of the store: a JSON document (everything, replayable) or PHH, and the
deal check of an exported file (``croupier verify-deal --file``).

The JSON document is ``{"format": "croupier-hands", "version": 1, "hands": [...]}``; each
hand carries its rules, the event log, results, the commitment and (once it may be shown)
the reveal. PHH is written by :mod:`croupier.phh.writer` with the commitment fields added
(``_croupier_deck_commitment``, ``_croupier_deck_order``, ``_croupier_deck_salt``): PHH
records no burn cards, so checking a PHH file counts each burn's position without knowing
its face.

>>> from croupier.poker import TableRules
>>> from croupier.store import Store, play_and_record
>>> store = Store.open("sqlite:///:memory:")
>>> done = play_and_record(store, TableRules(), hands=2, seed=5)
>>> document = hands_to_json([store.hand(i) for i in done.hands])
>>> [(c.label, c.check.start, c.check.cards >= 4) for c in verify_exported(json.loads(document))]
[('hand 1', 0, True), ('hand 2', 0, True)]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import tomli_w

from croupier.blackjack.round import BlackjackRound
from croupier.cards.card import Card, parse_cards
from croupier.errors import CroupierError
from croupier.fairness import (
    DealCheck,
    DealVerificationError,
    DeckCommitment,
    DeckReveal,
    dealt_cards,
    verify_deal,
    verify_logged_deal,
)
from croupier.phh.reader import HandHistory
from croupier.phh.replay import replay as replay_phh
from croupier.phh.writer import hand_to_fields
from croupier.poker import events as pk
from croupier.poker.state import HandState
from croupier.store.serial import events_from_json, events_to_json, rules_from_json, rules_to_json
from croupier.store.store import StoredHand, game_deck
from croupier.visitor import EventVisitor, visits

__all__ = [
    "FORMAT",
    "CheckedDeal",
    "hand_to_dict",
    "hands_to_json",
    "hands_to_phh",
    "verify_exported",
    "verify_phh",
]

FORMAT = "croupier-hands"
"""The ``format`` of a JSON export."""


class CheckedDeal:
    """One hand's deal check from an exported file: its label and the :class:`DealCheck`.

    >>> from croupier.fairness import DealCheck
    >>> CheckedDeal("hand 3", DealCheck("ab" * 32, 4, 0, 0, 0)).describe()[:30]
    'hand 3: commitment abababababa'
    """

    def __init__(self, label: str, check: DealCheck, note: str = "") -> None:
        self.label = label
        self.check = check
        self.note = note

    def describe(self) -> str:
        """One line."""
        return f"{self.label}: {self.check.describe()}" + (f" ({self.note})" if self.note else "")


def hand_to_dict(hand: StoredHand, *, house: bool = False) -> dict[str, Any]:
    """A stored hand as a JSON-ready dict; the reveal of a shoe still in play is left out
    unless ``house`` (the house's own audit copy).

    >>> from croupier.store import Store, play_and_record_blackjack
    >>> store = Store.open("sqlite:///:memory:")
    >>> done = play_and_record_blackjack(store, rounds=1, seed=2)
    >>> data = hand_to_dict(store.hand(done.hands[0]))
    >>> data["game"], data["shoe"], data["reveal"] is None    # the shoe went back at the end
    ('blackjack', {'number': 1, 'offset': 0, 'revealed': True}, False)
    """
    summary = hand.summary
    shown = hand.revealed or house
    return {
        "id": summary.id,
        "session": summary.session_id,
        "number": summary.number,
        "game_kind": summary.game_kind,
        "game": summary.game,
        "rules": json.loads(rules_to_json(hand.rules)),
        "rules_fingerprint": hand.rules.fingerprint,
        "engine_version": hand.engine_version,
        "seeded": hand.seeded,
        "recorded_at": summary.recorded_at.isoformat(),
        "players": [{"seat": seat, "name": name} for seat, name in hand.players],
        "results": [
            {"name": name, "seat": seat, "net": net} for name, seat, net in summary.results
        ],
        "house": summary.house,
        "commitment": hand.commitment.digest,
        "shoe": None
        if hand.shoe is None
        else {"number": hand.shoe, "offset": hand.offset, "revealed": hand.revealed},
        "reveal": hand.reveal.to_dict() if shown else None,
        "events": json.loads(events_to_json(hand.events)),
    }


def hands_to_json(hands: Iterable[StoredHand], *, house: bool = False) -> str:
    """The JSON export document of ``hands`` (indented, one hand after another)."""
    document = {
        "format": FORMAT,
        "version": 1,
        "hands": [hand_to_dict(h, house=house) for h in hands],
    }
    return json.dumps(document, indent=1, allow_nan=False) + "\n"


def _phh_fields(hand: StoredHand) -> dict[str, Any]:
    if hand.summary.game_kind != "poker":
        raise CroupierError(
            f"hand {hand.id} is a blackjack round: PHH has no blackjack (use --format json)"
        )
    replayed = hand.replay()
    assert isinstance(replayed, HandState)
    fields = hand_to_fields(replayed)
    names = dict(hand.players)
    fields["players"] = [names.get(seat, f"seat {seat}") for seat in fields["seats"]]
    fields["_croupier_hand_id"] = hand.id
    fields["_croupier_seeded"] = hand.seeded
    fields["_croupier_deck_commitment"] = hand.commitment.digest
    fields["_croupier_deck_order"] = hand.reveal.order_text
    fields["_croupier_deck_salt"] = hand.reveal.salt_hex
    return fields


def hands_to_phh(hands: Sequence[StoredHand]) -> str:
    """One hand as a ``.phh`` document, several as ``.phhs`` (tables ``[1]``, ``[2]``…),
    each with its deck commitment and reveal; a blackjack round is refused.

    >>> from croupier.phh.reader import loads
    >>> from croupier.poker import TableRules
    >>> from croupier.store import Store, play_and_record
    >>> store = Store.open("sqlite:///:memory:")
    >>> done = play_and_record(store, TableRules(), hands=2, seed=3)
    >>> text = hands_to_phh([store.hand(i) for i in done.hands])
    >>> [h.fields["players"] for h in loads(text)]
    [['ann', 'bo', 'cy'], ['bo', 'cy', 'ann']]
    >>> verify_phh(loads(text)[0]).check.cards > 0
    True
    """
    fields = [_phh_fields(h) for h in hands]
    if len(fields) == 1:
        return tomli_w.dumps(fields[0])
    return "\n".join(tomli_w.dumps({str(i): f}) for i, f in enumerate(fields, 1))


def _verify_record(record: object) -> CheckedDeal:
    if not isinstance(record, dict):
        raise CroupierError("a hand in the export is a JSON object")
    label = f"hand {record.get('id', '?')}"
    try:
        kind = str(record["game_kind"])
        rules = rules_from_json(kind, json.dumps(record["rules"]), record.get("rules_fingerprint"))
        events = events_from_json(kind, json.dumps(record["events"]))
        commitment = DeckCommitment(record["commitment"])
        reveal_data = record["reveal"]
        shoe = record.get("shoe")
    except KeyError as missing:
        raise CroupierError(f"{label}: the export has no {missing}") from None
    if reveal_data is None:
        raise DealVerificationError(f"{label}: its shoe is still in play: nothing is revealed yet")
    reveal = DeckReveal.from_dict(reveal_data)
    offset = shoe.get("offset", 0) if isinstance(shoe, dict) else 0
    try:
        check = verify_logged_deal(commitment, reveal, events, start=offset, deck=game_deck(rules))
        if kind == "poker":
            HandState.replay(rules, events)  # type: ignore[arg-type]
        else:
            BlackjackRound.replay(rules, events)  # type: ignore[arg-type]
    except CroupierError as error:
        raise DealVerificationError(f"{label}: {error}") from None
    return CheckedDeal(label, check, "the referee's replay deals the same cards")


def verify_exported(document: object) -> list[CheckedDeal]:
    """Check every hand of a JSON export: commitment, positions, and the referee's replay
    from the revealed deck; the first failure raises :class:`DealVerificationError`."""
    if isinstance(document, dict) and document.get("format") == FORMAT:
        hands = document.get("hands")
    elif isinstance(document, dict) and "commitment" in document:
        hands = [document]  # one hand on its own
    else:
        raise CroupierError(f"not a croupier export: no 'format': {FORMAT!r}")
    if not isinstance(hands, list) or not hands:
        raise CroupierError("the export holds no hands")
    return [_verify_record(record) for record in hands]


def _named_cards(history: HandHistory) -> set[Card]:
    """The cards a PHH record's deal actions name (``??`` names none)."""
    named: set[Card] = set()
    for action in history.fields.get("actions", ()):
        words = str(action).split()
        if len(words) >= 3 and words[0] == "d" and words[1] in ("dh", "db"):
            text = words[-1]
            for i in range(0, len(text) - 1, 2):
                token = text[i : i + 2]
                if "?" not in token:
                    named.update(parse_cards(token))
    return named


def verify_phh(history: HandHistory) -> CheckedDeal:
    """Check a PHH record carrying the commitment fields: the order and salt hash to the
    commitment, and every card the record deals is where the order puts it (burn cards,
    which PHH leaves out, are counted by position only).

    >>> from croupier.phh.reader import loads
    >>> verify_phh(loads("variant = 'NT'")[0])
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: <text>: no commitment field '_croupier_deck_commitment' in the record
    """
    fields = history.fields
    label = history.where
    try:
        commitment = DeckCommitment(fields["_croupier_deck_commitment"])
        reveal = DeckReveal.parse(fields["_croupier_deck_order"], fields["_croupier_deck_salt"])
    except KeyError as missing:
        raise CroupierError(f"{label}: no commitment field {missing} in the record") from None
    played = replay_phh(history)
    if dealt_cards(played.hand.events).restocks:
        raise CroupierError(
            f"{label}: the stub was restocked (draw): PHH does not record the restocked "
            "order, check the hand from its JSON export"
        )
    slots = _Slots(_named_cards(history)).visit_all(played.hand.events)
    check = verify_deal(
        commitment, reveal.order, reveal.salt, slots, deck=game_deck(played.hand.rules)
    )
    note = "burn cards are not in PHH: their positions are counted, not their faces"
    return CheckedDeal(label, check, note)


class _Slots(EventVisitor[list[Card | None]]):
    """Each card a replayed PHH hand took from the deck, in order: its face if the record
    names it, None for a burn (PHH records none) or a card the record does not show."""

    consumer = "the PHH deal check"
    reads = (pk,)
    ignores = (
        pk.AntePosted,
        pk.BetReturned,
        pk.BetsCollected,
        pk.BlindPosted,
        pk.BringIn,
        pk.Called,
        pk.Checked,
        pk.Conceded,
        pk.DeckCut,
        pk.Discarded,
        pk.Folded,
        pk.DealEnded,
        pk.HandMucked,
        pk.HandShown,
        pk.HandStarted,
        pk.PotAwarded,
        pk.RaisedTo,
        pk.RakeTaken,
        pk.ShowRequested,
        pk.StubRestocked,
    )

    def __init__(self, named: set[Card]) -> None:
        self.named = named
        self.slots: list[Card | None] = []

    @visits(pk.CardBurned, pk.CardBoxed)
    def on_set_aside(self, event: pk.CardBurned | pk.CardBoxed) -> None:
        self.slots.append(None)

    @visits(pk.CardsDealt, pk.CommunityDealt)
    def on_dealt(self, event: pk.CardsDealt | pk.CommunityDealt) -> None:
        named = self.named
        self.slots.extend(c if c in named else None for c in event.cards)

    @visits(pk.HiddenCards)
    def on_hidden(self, event: pk.HiddenCards) -> None:
        raise CroupierError(
            "the PHH deal check cannot read HiddenCards: a seat's view hides the cards dealt"
        )

    def result(self) -> list[Card | None]:
        return self.slots
