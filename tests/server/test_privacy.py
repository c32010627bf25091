"""The privacy recorder: every message every client receives holds only cards it may see.

Two human-protocol clients (each in its own thread, acting at random among its legal
actions) and a spectator sit at a 4-seat hold'em table with two bots for at least 100
hands. Each client records every message. Afterwards each hand's own event log is read
from the store, and for every ``view`` message (whose censored log is a prefix of the
hand's log) every card anywhere in the message must be one the viewer could see at that
moment: its own down cards, up cards, the board and the cards shown so far. A spectator's
view holds no hole card before it is shown. The deck reveal arrives only in the
``hand_finished`` message, after the last view of its hand.
"""

from __future__ import annotations

import random
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from server_support import db_url, send, start_app, token_for

from croupier.cards.card import Card
from croupier.poker import events as ev
from croupier.server.tables import TableConfig
from croupier.store import Store

HANDS = 100
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
TABLE = TableConfig(
    "priv", seats=4, bots=2, bot_style="calling", bot_delay=0, time_bank=5, buy_in=200
)


def _cards_in(value: Any) -> set[str]:
    """Every card-looking string anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(_cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_cards_in(v) for v in value)) if value else set()
    return set()


def _visible(log: tuple[ev.Event, ...], seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may see once ``log`` has happened."""
    seen: set[Card] = set()
    for event in log:
        match event:
            case ev.CardsDealt(seat=owner, cards=cards, up=up) if up or owner == seat:
                seen.update(cards)
            case ev.Discarded(seat=owner, cards=cards) if owner == seat:
                seen.update(cards)
            case ev.CommunityDealt(cards=cards) | ev.HandShown(cards=cards):
                seen.update(cards)
    return {str(card) for card in seen}


class Recorder(threading.Thread):
    """One client: logs in (or not), sits (or watches), acts, records every message."""

    def __init__(self, client: Any, token: str | None, seed: int, done: threading.Event):
        super().__init__(daemon=True)
        self.client, self.token, self.done = client, token, done
        self.rng = random.Random(seed)
        self.messages: list[dict[str, Any]] = []
        self.finished = 0
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            with self.client.websocket_connect("/ws") as ws:
                self._play(ws)
        except BaseException as error:  # reported by the test
            self.failure = error
            self.done.set()

    def _play(self, ws: Any) -> None:
        send(ws, {"type": "hello", "token": self.token})
        send(ws, {"type": "sit" if self.token else "watch", "table": "priv"})
        while self.finished < HANDS and not self.done.is_set():
            message: dict[str, Any] = ws.receive_json()
            self.messages.append(message)
            kind = message["type"]
            if kind == "hand_finished":
                self.finished += 1
                mine = [r for r in message["results"] if r["stack"] == 0 and self.token]
                if any(r["seat"] == self._seat() for r in mine):
                    send(ws, {"type": "sit", "table": "priv"})  # busted: buy in again
            elif kind == "view" and self.token and message["view"]["legal"] is not None:
                send(ws, {"type": "act", "table": "priv", "action": self._choose(message)})
            elif kind == "error" and message["code"] not in ("illegal", "no_hand"):
                raise AssertionError(message)

    def _seat(self) -> int | None:
        for message in reversed(self.messages):
            if message["type"] == "view" and message["view"]["seat"] is not None:
                seat: int = message["view"]["seat"]
                return seat
        return None

    def _choose(self, message: dict[str, Any]) -> str:
        legal = message["view"]["legal"]
        options = ["fold"] if legal["fold"] else []
        options += ["check"] * 3 if legal["check"] else []
        options += ["call"] * 3 if legal["call"] is not None else []
        if legal["raise_to"] is not None:
            low, high = legal["raise_to"]
            options += [f"raise to {low}", f"raise to {self.rng.randint(low, high)}"]
        return self.rng.choice(options)


def test_no_client_ever_receives_a_card_it_may_not_see(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    client = start_app(request, tmp_path, [TABLE], rate=1000, burst=1000)
    done = threading.Event()
    tokens = [token_for(client, "ann"), token_for(client, "bo")]
    recorders = [Recorder(client, t, seed, done) for seed, t in enumerate([*tokens, None])]
    for recorder in recorders:
        recorder.start()
    for recorder in recorders:
        recorder.join(timeout=240)
    done.set()
    assert [r.failure for r in recorders] == [None, None, None]
    assert min(r.finished for r in recorders) >= HANDS

    store = Store.open(db_url(tmp_path), create=False)
    assert store.verify().ok
    ids: dict[int, int] = {}
    for recorder in recorders:
        for message in recorder.messages:
            if message["type"] == "hand_finished":
                ids[message["hand"]] = message["hand_id"]
    logs = {number: store.hand(hand_id).events for number, hand_id in ids.items()}

    checked = shown_to_spectator = human_views = 0
    for recorder in recorders:
        finished_hands: set[int] = set()
        for message in recorder.messages:
            kind = message["type"]
            if kind == "hand_finished":
                finished_hands.add(message["hand"])
                body = {k: v for k, v in message.items() if k != "reveal"}
                assert _cards_in(body) == set()
                continue
            if kind != "view" or message["hand"] not in logs:
                assert _cards_in(message) == set(), message
                continue
            number, view = message["hand"], message["view"]
            assert number not in finished_hands  # no view of a hand after its reveal
            log = logs[number]
            prefix = log[: len(view["events"])]
            assert [e["type"] for e in view["events"]] == [
                "HiddenCards" if e["type"] == "HiddenCards" else type(p).__name__
                for e, p in zip(view["events"], prefix, strict=True)
            ]
            seat = view["seat"]
            if recorder.token is None:
                assert seat is None
            elif seat is not None:
                human_views += 1
            extra = _cards_in(view) - _visible(prefix, seat)
            assert not extra, f"hand {number}: seat {seat} was sent {sorted(extra)}"
            if seat is None and any(isinstance(e, ev.HandShown) for e in prefix):
                shown_to_spectator += 1
            checked += 1
    assert len(logs) >= HANDS
    assert checked > 1000
    assert human_views > 100
    assert shown_to_spectator > 0  # some hands reached a showdown the spectator saw
