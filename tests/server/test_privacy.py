"""The privacy recorder: every message every client receives holds only cards it may see.

One table of every poker game in the registry (:data:`~croupier.poker.games.GAMES`, the
betting structures varied across them) and one blackjack table deal at once, four tables
to an event loop in each of two worker processes, each table with bots, two
human-protocol clients and one spectator. The clients are the server's own
:class:`~croupier.server.app.Connection` objects: every message a table queues is
serialised with ``model_dump_json()`` and parsed back, as the socket's writer sends it,
and every client message is JSON text read by the server's ``parse_client`` and carried
out as the socket handler does (:func:`dispatch`): the socket's path minus the socket.
Each client sits at (or watches) all its process's tables on one connection, as a
socket may, and acts at random among its legal actions. A second test does the same over
real sockets (the FastAPI TestClient) at three poker tables, for fewer hands.

Afterwards each hand's own event log is read from the store. For every ``view`` (whose
censored log must be a prefix of the hand's log) every card anywhere in the message must
be one the viewer could see at that moment: poker, its own down cards, up cards, the
board and the cards shown so far (a spectator: no down card before it is shown);
blackjack, only cards already dealt (never the shoe, a burn card or the dealer's second
card before it is dealt). Every hand's commitment reaches every client before its first
view and equals the stored commitment; its ``hand_finished`` comes after its last view
and carries a reveal that hashes to it and opens the deal (:func:`verify_logged_deal`);
a blackjack round's reveal comes with the round that finishes the shoe, and opens every
round of that shoe.

``CROUPIER_PRIVACY_HANDS`` sets the hands (rounds) per table of the in-process test; the
default is the requirement's 500 a game (a few minutes on two cores);
``CROUPIER_PRIVACY_HANDS=50`` makes a quick run while developing.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import multiprocessing
import os
import random
import re
import shutil
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from server_support import db_url, send, start_app, token_for

from croupier.blackjack import events as bj
from croupier.blackjack.views import event_to_dict as bj_event_to_dict
from croupier.cards.card import Card
from croupier.fairness import DeckReveal, verify_logged_deal
from croupier.poker import events as ev
from croupier.poker.games import GAMES
from croupier.server.accounts import Account
from croupier.server.app import Connection, dispatch
from croupier.server.journal import Journal
from croupier.server.protocol import (
    Hello,
    parse_client,
)
from croupier.server.runner import RunnerBase
from croupier.server.tables import TableConfig, make_runner
from croupier.store import Store, StoredHand, game_deck

HANDS = int(os.environ.get("CROUPIER_PRIVACY_HANDS", "500"))
"""Hands (blackjack: rounds) each table of the in-process test deals."""
SOCKET_HANDS = 12
"""Hands each table of the socket test deals."""
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")

STRUCTURES = {
    "draw": ("spread-limit", "calling"),
    "stud5": ("fixed-limit", "random"),
    "stud7": ("fixed-limit", "calling"),
    "manila": ("half-pot", "random"),
    "manila3": ("fixed-limit", "calling"),
    "holdem": ("no-limit", "random"),
    "omaha": ("pot-limit", "calling"),
}
"""Each poker game's betting structure and bot style (stud is always fixed limit)."""


def poker_table(game: str, name: str | None = None) -> TableConfig:
    structure, style = STRUCTURES.get(game, ("no-limit", "random"))
    return TableConfig(
        name or f"priv-{game}",
        game=game,
        structure=structure,
        seats=4,
        bots=2,
        bot_style=style,
        bot_delay=0,
        time_bank=5,
        buy_in=300,
    )


BLACKJACK = TableConfig(
    "priv-bj", game="blackjack", seats=4, bots=2, bot_style="basic", bot_delay=0, time_bank=5
)


# ------------------------------------------------------------------------------ helpers
def _cards_in(value: Any) -> set[str]:
    """Every card-looking string anywhere in a JSON value."""
    return set(_card_list(value))


def _card_list(value: Any) -> list[str]:
    """Every card-looking string anywhere in a JSON value, repeats kept (a shoe)."""
    if isinstance(value, str):
        return [value] if CARD.match(value) else []
    if isinstance(value, dict):
        return [c for v in value.values() for c in _card_list(v)]
    if isinstance(value, list):
        return [c for v in value for c in _card_list(v)]
    return []


def _visible_prefixes(log: tuple[Any, ...], seat: int | None) -> list[frozenset[str]]:
    """The cards ``seat`` (None: a spectator) may see once ``log[:k]`` has happened, for
    every k."""
    seen: set[Card] = set()
    out = [frozenset[str]()]
    for event in log:
        match event:
            case ev.CardsDealt(seat=owner, cards=cards, up=up) if up or owner == seat:
                seen.update(cards)
            case ev.Discarded(seat=owner, cards=cards) if owner == seat:
                seen.update(cards)
            case ev.CommunityDealt(cards=cards) | ev.HandShown(cards=cards):
                seen.update(cards)
        out.append(frozenset(str(card) for card in seen))
    return out


class Chooser:
    """A person's choices: a random legal action for a view, once per decision; a new seat
    when busted. Returns the client messages to send (JSON-ready dicts)."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.decided: set[tuple[str, int, int]] = set()
        self.actions = 0
        self.last: tuple[str, int, int] | None = None
        self.rebuy: str | None = None

    def refused(self, table: str, hand: int) -> None:
        """The last action was refused (blackjack's wagers: another person's wager came
        first, so the table was not waiting for anyone this instant): decide again on
        the next view."""
        self.decided.discard((table, hand, -1))
        if self.last is not None:
            self.decided.discard(self.last)

    def answer(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        kind, table = message["type"], message.get("table")
        if kind == "hand_finished":
            mine = [r for r in message["results"] if r["name"] == self.name]
            if any(r["stack"] == 0 for r in mine):
                return [{"type": "sit", "table": table}]  # busted: buy in again
            return []
        if kind != "view" or message["view"]["legal"] is None:
            return []
        view = message["view"]
        key = (str(table), message["hand"], message["events_from"] + len(view["events"]))
        if key in self.decided:
            return []
        text = self._blackjack(message) if message["kind"] == "blackjack" else self._poker(view)
        if text is None:
            if self.rebuy is None:
                return []
            table, self.rebuy = self.rebuy, None
            return [{"type": "rebuy", "table": table, "amount": 100}]
        self.decided.add(key)
        self.actions += 1
        self.last = key
        return [{"type": "act", "table": table, "action": text, "hand": message["hand"]}]

    def _poker(self, view: dict[str, Any]) -> str:
        legal = view["legal"]
        if legal["discard"]:
            me = next(p for p in view["players"] if p["seat"] == view["seat"])
            down = [c for c in me["down"] if c is not None]
            thrown = self.rng.sample(down, self.rng.randint(0, len(down)))
            return "discard " + " ".join(thrown) if thrown else "stand pat"
        if legal["bring_in"] is not None:
            return f"bring-in {self.rng.choice(legal['bring_in'])}"
        options = ["fold"] if legal["fold"] else []
        options += ["check"] * 3 if legal["check"] else []
        options += ["call"] * 3 if legal["call"] is not None else []
        if legal["raise_to"] is not None:
            low, high = legal["raise_to"]
            options += [f"raise to {low}"] * 2 + [f"raise to {high}"]
        return self.rng.choice(options)

    def _blackjack(self, message: dict[str, Any]) -> str | None:
        view, legal = message["view"], message["view"]["legal"]
        if view["phase"] == "wagers":
            round_key = (str(message["table"]), message["hand"], -1)
            mine = [int(box) for box, name in message["names"].items() if name == self.name]
            if round_key in self.decided or any(b["number"] in mine for b in view["boxes"]):
                return None  # done with wagers this round (passed, or wagered)
            limits = [w for w in legal["wagers"] if w["box"] in mine]
            if not limits:  # too few chips to wager: the table does not wait for him
                self.decided.add(round_key)
                self.rebuy = str(message["table"])
                return None
            if self.rng.random() < 0.1:
                self.decided.add(round_key)
                return "pass"
            low, high = limits[0]["low"], limits[0]["high"]
            return f"wager {self.rng.randint(low, max(low, min(high, 60)))}"
        if legal["actor"] is None or legal["actor"]["player"] != self.name:
            return None
        options = [n for n in ("hit", "stand", "double", "split", "surrender") if legal[n]]
        if legal["decline_insurance"]:
            options.append("decline")
        if legal["insure"] is not None:
            options.append(f"insure {legal['insure'][0]}")
        if legal["even_money"]:
            options.append("even money")
        return self.rng.choice(options) if options else None


# ------------------------------------------------------------------------------ checks
class Tally:
    """What the checks saw (so a vacuous pass shows)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()


def _merge_log(
    logs: dict[int, list[dict[str, Any]]], message: dict[str, Any]
) -> list[dict[str, Any]]:
    """The hand's log as the client has it after this view: the events it had before
    ``events_from``, then the view's (which must not start beyond what it had)."""
    start = message["events_from"]
    known = logs.get(message["hand"], [])
    assert 0 <= start <= len(known), f"hand {message['hand']}: events_from {start} > {len(known)}"
    merged: list[dict[str, Any]] = known[:start] + list(message["view"]["events"])
    logs[message["hand"]] = merged
    return merged


def check_poker_stream(
    messages: list[dict[str, Any]],
    hands: dict[int, StoredHand],
    spectator: bool,
    tally: Tally,
    cache: dict[tuple[int, int | None], list[frozenset[str]]],
) -> None:
    """Check one client's messages of one poker table (see the module docstring)."""
    committed: dict[int, str] = {}
    finished: set[int] = set()
    logs: dict[int, list[dict[str, Any]]] = {}
    for message in messages:
        kind = message["type"]
        number: int = message.get("hand", 0)
        if kind == "commitment":  # (again when a player sits down again: the same one)
            assert committed.setdefault(number, message["digest"]) == message["digest"]
            assert number not in finished, f"hand {number}: a commitment after its reveal"
            if number in hands:  # (a hand still in play when the table stopped: none)
                assert message["digest"] == hands[number].commitment.digest
            continue
        if kind == "hand_finished":
            assert number in committed, f"hand {number} finished before its commitment"
            body = {k: v for k, v in message.items() if k != "reveal"}
            assert _cards_in(body) == set()
            reveal = DeckReveal.from_dict(message["reveal"])
            assert reveal.commitment.digest == committed[number] == message["commitment"]
            stored = hands[number]
            assert message["hand_id"] == stored.id
            assert reveal == stored.reveal
            finished.add(number)
            tally.counts["reveals"] += 1
            continue
        if kind != "view":
            assert _cards_in(message) == set(), message
            continue
        assert number in committed, f"hand {number}: a view before the commitment"
        assert number not in finished, f"hand {number}: a view after its reveal"
        assert message["commitment"] == committed[number]
        view = message["view"]
        log = hands[number].events
        merged = _merge_log(logs, message)
        count = len(merged)
        assert count <= len(log)
        assert [e["type"] for e in merged] == [
            "HiddenCards" if e["type"] == "HiddenCards" else type(p).__name__
            for e, p in zip(merged, log[:count], strict=True)
        ]
        seat = view["seat"]
        if spectator:
            assert seat is None
        key = (number, seat)
        if key not in cache:
            cache[key] = _visible_prefixes(log, seat)
        allowed = cache[key][count]
        extra = _cards_in(view) - allowed
        assert not extra, f"hand {number}: seat {seat} was sent {sorted(extra)}"
        tally.counts["views"] += 1
        if seat is None:
            tally.counts["spectator views" if spectator else "public views"] += 1
            down = [c for p in view["players"] for c in p["down"] if c is not None]
            if down:
                assert any(isinstance(e, ev.HandShown) for e in log[:count])
                tally.counts["shown to a spectator"] += int(spectator)
        else:
            me = next(p for p in view["players"] if p["seat"] == seat)
            tally.counts["own cards seen"] += any(c is not None for c in me["down"])
        if any(e["type"] == "HiddenCards" for e in view["events"]):
            tally.counts["views with hidden cards"] += 1


def _censored_blackjack(event: Any, settled: bool) -> dict[str, Any]:
    """What a blackjack event must look like in a view: the shoe's order and a burn card
    never; a hole card only once the round is settled."""
    data = bj_event_to_dict(event)
    if isinstance(event, bj.RoundStarted):
        data["shoe"] = []
    elif isinstance(event, bj.CardBurned) or (
        isinstance(event, bj.DealerCard) and event.hidden and not settled
    ):
        data = {
            "type": "HiddenCard",
            "what": "burned" if isinstance(event, bj.CardBurned) else "hole card",
        }
    return data


def _dealt_face_up(log: Iterable[Any], settled: bool) -> Counter[str]:
    out: Counter[str] = Counter()
    for event in log:
        match event:
            case bj.CardDealt(card=card):
                out[str(card)] += 1
            case bj.DealerCard(card=card, hidden=hidden) if settled or not hidden:
                out[str(card)] += 1
    return out


def check_blackjack_stream(
    messages: list[dict[str, Any]], rounds: dict[int, StoredHand], spectator: bool, tally: Tally
) -> None:
    """Check one client's messages of the blackjack table: every card in a view was
    dealt by then (as many times as it was dealt); the shoe's commitment before each
    round's first view; the reveal with the round that finishes the shoe."""
    committed: dict[int, str] = {}
    finished: set[int] = set()
    logs: dict[int, list[dict[str, Any]]] = {}
    for message in messages:
        kind = message["type"]
        number: int = message.get("hand", 0)
        if kind == "commitment":
            assert committed.setdefault(number, message["digest"]) == message["digest"]
            assert number not in finished
            assert message["digest"] == rounds[number].commitment.digest
            continue
        if kind == "hand_finished":
            assert number in committed
            stored = rounds[number]
            assert message["hand_id"] == stored.id
            assert message["commitment"] == committed[number]
            body = {k: v for k, v in message.items() if k != "reveal"}
            assert _cards_in(body) == set()
            if message["reveal"] is not None:
                reveal = DeckReveal.from_dict(message["reveal"])
                assert reveal.commitment.digest == committed[number]
                tally.counts["shoe reveals"] += 1
            finished.add(number)
            continue
        if kind != "view":
            assert _cards_in(message) == set(), message
            continue
        assert number in committed, f"round {number}: a view before the commitment"
        assert number not in finished, f"round {number}: a view after its result"
        assert message["commitment"] == committed[number]
        view = message["view"]
        log = rounds[number].events
        merged = _merge_log(logs, message)
        count = len(merged)
        assert count <= len(log)
        settled = bool(view["complete"])
        expected = [_censored_blackjack(e, settled) for e in log[:count]]
        assert merged == expected, f"round {number}: the log shows more than dealt"
        allowed = _dealt_face_up(log[:count], settled)
        rest = {k: v for k, v in view.items() if k != "events"}
        shown = Counter(_card_list(rest))
        assert not shown - allowed, f"round {number}: sent {sorted((shown - allowed).elements())}"
        if spectator:
            assert view["player"] is None
        tally.counts["blackjack views"] += 1
        tally.counts["blackjack cards shown"] += sum(shown.values())


def check_deals(hands: Iterable[StoredHand]) -> int:
    """Every recorded poker hand's reveal opens its deal; every blackjack round is opened
    by its shoe's reveal once the shoe is revealed. The hands checked."""
    checked = 0
    for hand in hands:
        if hand.summary.game_kind == "blackjack" and not hand.revealed:
            continue
        verify_logged_deal(
            hand.commitment, hand.reveal, hand.events, start=hand.offset, deck=game_deck(hand.rules)
        )
        checked += 1
    return checked


def check_all(
    store: Store,
    hand_ids: dict[str, list[int]],
    streams: dict[str, dict[str, list[dict[str, Any]]]],
    spectators: set[str],
) -> Tally:
    """Check every client's stream of every table against the store."""
    tally = Tally()
    for table, ids in hand_ids.items():
        stored = {h.summary.number: h for h in (store.hand(i) for i in ids)}
        tally.counts["deals verified"] += check_deals(stored.values())
        cache: dict[tuple[int, int | None], list[frozenset[str]]] = {}
        for client, by_table in streams.items():
            messages = by_table.get(table, [])
            assert messages, f"{client} got nothing from {table}"
            blackjack = next(iter(stored.values())).summary.game_kind == "blackjack"
            if blackjack:
                check_blackjack_stream(messages, stored, client in spectators, tally)
            else:
                check_poker_stream(messages, stored, client in spectators, tally, cache)
            finished = {m["hand"] for m in messages if m["type"] == "hand_finished"}
            assert finished == set(stored), f"{client} at {table}: hands {set(stored) - finished}"
    return tally


# ------------------------------------------------------------------------------ in process
_ids: defaultdict[str, int] = defaultdict(itertools.count(1).__next__)
"""An account id for each in-process client's name."""


class ProtocolClient:
    """A client of the protocol minus the socket: the server's own :class:`Connection`
    (its queue is what the socket writer drains), each message serialised to JSON as the
    writer sends it, each client message JSON text through ``parse_client``/``_handle``."""

    def __init__(self, name: str | None, runners: dict[str, RunnerBase], seed: int) -> None:
        self.name = name
        self.connection = Connection(None if name is None else Account(_ids[name], name))
        self.runners = runners
        self.chooser = None if name is None else Chooser(name, seed)
        self.streams: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.errors: Counter[str] = Counter()
        self.on_message: Callable[[dict[str, Any]], None] | None = None
        self.refused_sits = 0

    def say(self, message: dict[str, Any]) -> None:
        parsed = parse_client(json.dumps(message))
        assert not isinstance(parsed, Hello)
        reply = dispatch(parsed, self.connection, self.runners[parsed.table])
        if reply is not None:
            if message["type"] == "sit" and reply.code == "refused":
                self.refused_sits += 1  # a table that stopped before cashing him out
            if message["type"] == "act" and self.chooser is not None:
                self.chooser.refused(message["table"], message["hand"])
            self.connection.send(reply)

    async def run(self) -> None:
        while True:
            queued = await self.connection.queue.get()
            assert not isinstance(queued, int), f"{self.name}: closed ({queued})"
            text = queued if isinstance(queued, str) else queued.model_dump_json()
            message: dict[str, Any] = json.loads(text)
            self.receive(message)

    def receive(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "error":
            self.errors[message["code"]] += 1
            if message["code"] == "refused" and self.refused_sits:
                self.refused_sits -= 1
                return
            assert message["code"] in ("not_your_turn", "stale", "no_hand"), message
            return
        self.streams[message["table"]].append(message)
        if self.on_message is not None:
            self.on_message(message)
        if self.chooser is not None:
            for reply in self.chooser.answer(message):
                self.say(reply)


async def play_in_process(
    store: Store, configs: list[TableConfig], hands: int, seed: int
) -> tuple[dict[str, RunnerBase], list[ProtocolClient]]:
    """Deal ``hands`` hands at every table at once, two people and a spectator at each."""
    journal = Journal(store.engine)
    runners = {c.name: make_runner(c, store, journal) for c in configs}
    people = [ProtocolClient(n, runners, seed + i) for i, n in enumerate(["ann", "bo"])]
    spectator = ProtocolClient(None, runners, seed + 9)
    stops = {name: asyncio.Event() for name in runners}
    failed: list[BaseException] = []

    def count(message: dict[str, Any]) -> None:
        if message["type"] == "hand_finished":
            done = sum(m["type"] == "hand_finished" for m in spectator.streams[message["table"]])
            if done >= hands:
                stops[message["table"]].set()

    spectator.on_message = count
    for name in runners:
        spectator.say({"type": "watch", "table": name})
        for person in people:
            person.say({"type": "sit", "table": name})
    clients = [*people, spectator]

    async def guarded(client: ProtocolClient) -> None:
        try:
            await client.run()
        except asyncio.CancelledError:
            raise
        except BaseException as error:
            failed.append(error)
            for stop in stops.values():
                stop.set()

    readers = [asyncio.create_task(guarded(c)) for c in clients]
    tables = [asyncio.create_task(r.run(stops[n])) for n, r in runners.items()]
    try:
        await asyncio.wait_for(asyncio.gather(*tables), timeout=600)
        while any(not c.connection.queue.empty() for c in clients) and not failed:
            await asyncio.sleep(0)
    finally:
        for task in [*readers, *tables]:
            task.cancel()
        await asyncio.gather(*readers, *tables, return_exceptions=True)
    if failed:
        raise failed[0]
    return runners, clients


def play_and_check(names: list[str], hands: int, seed: int, db: str) -> dict[str, int]:
    """Deal ``hands`` hands at each of the tables ``names`` at once (in one event loop, one
    connection per client sitting at all of them), then check every message; the counts
    of what was checked. Run in a worker process (the tables of one process share a core)."""
    configs = [
        BLACKJACK if n == BLACKJACK.name else poker_table(n.removeprefix("priv-")) for n in names
    ]
    store = Store.open(db)
    try:
        runners, clients = asyncio.run(play_in_process(store, configs, hands, seed))
        assert store.verify().ok
        hand_ids = {name: list(r.hand_ids) for name, r in runners.items()}
        short = {n: len(i) for n, i in hand_ids.items() if len(i) < hands}
        assert not short, f"tables short of {hands} hands: {short}"
        streams = {c.name or "spectator": c.streams for c in clients}
        tally = check_all(store, hand_ids, streams, {"spectator"})
    finally:
        store.close()
    counts = dict(tally.counts)
    counts["hands"] = sum(len(i) for i in hand_ids.values())
    for name, ids in hand_ids.items():
        counts[f"hands at {name}"] = len(ids)
    for client in clients:
        if client.chooser is not None:
            counts[f"actions of {client.name}"] = client.chooser.actions
        for code, number in client.errors.items():
            counts[f"errors {code}"] = counts.get(f"errors {code}", 0) + number
    return counts


GROUPS = (
    ["priv-stud7", "priv-holdem", "priv-manila", BLACKJACK.name],
    ["priv-draw", "priv-stud5", "priv-manila3", "priv-omaha"],
)
"""The tables of each worker process (about the same work each)."""


def test_no_client_ever_receives_a_card_it_may_not_see(tmp_path: Path) -> None:
    names = {n for group in GROUPS for n in group}
    assert names == {f"priv-{game}" for game in GAMES} | {BLACKJACK.name}  # every game
    assert len({poker_table(game).structure for game in GAMES}) >= 5
    context = multiprocessing.get_context("spawn")
    # the stores on a RAM disk where there is one: this test is about what clients see,
    # not about durability (test_kill.py kills real servers for that), and every action's
    # journal commit would otherwise wait for the disk
    shm = Path("/dev/shm")
    where = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path
    try:
        with ProcessPoolExecutor(max_workers=len(GROUPS), mp_context=context) as pool:
            futures = [
                pool.submit(play_and_check, group, HANDS, 10 * i, f"sqlite:///{where / f'g{i}.db'}")
                for i, group in enumerate(GROUPS)
            ]
            results = [future.result(timeout=900) for future in futures]
    finally:
        if where != tmp_path:
            shutil.rmtree(where, ignore_errors=True)
    counts: Counter[str] = Counter()
    for result in results:
        counts.update(result)
    tables = len(names)
    poker = tables - 1
    assert all(counts[f"hands at {n}"] >= HANDS for n in names), counts
    assert counts["deals verified"] >= HANDS * poker
    assert counts["reveals"] == 3 * (counts["hands"] - counts[f"hands at {BLACKJACK.name}"])
    assert counts["spectator views"] > 5 * HANDS * poker
    assert counts["shown to a spectator"] > 0  # some hands reached a showdown
    assert counts["own cards seen"] > HANDS * poker
    assert counts["blackjack views"] > 3 * HANDS
    assert counts["shoe reveals"] > 0
    assert min(counts[f"actions of {n}"] for n in ("ann", "bo")) > HANDS * tables
    print(f"privacy recorder: {dict(sorted(counts.items()))}")


# ------------------------------------------------------------------------------ over sockets
class SocketRecorder(threading.Thread):
    """One client over a real socket: logs in (or not), sits (or watches) at every table,
    acts, records every message, until every table finished ``hands`` hands."""

    def __init__(
        self, client: Any, name: str | None, token: str | None, tables: list[str], seed: int,
        hands: int, done: threading.Event,
    ) -> None:  # fmt: skip
        super().__init__(daemon=True)
        self.client, self.token, self.tables, self.hands, self.done = (
            client, token, tables, hands, done,
        )  # fmt: skip
        self.chooser = None if name is None else Chooser(name, seed)
        self.streams: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            with self.client.websocket_connect("/ws") as ws:
                self._play(ws)
        except BaseException as error:  # reported by the test
            self.failure = error
            self.done.set()

    def _finished(self) -> bool:
        return all(
            sum(m["type"] == "hand_finished" for m in self.streams[t]) >= self.hands
            for t in self.tables
        )

    def _play(self, ws: Any) -> None:
        send(ws, {"type": "hello", "token": self.token})
        for table in self.tables:
            send(ws, {"type": "sit" if self.token else "watch", "table": table})
        while not self._finished() and not self.done.is_set():
            message: dict[str, Any] = ws.receive_json()
            if message["type"] == "error":
                assert message["code"] in ("not_your_turn", "stale", "no_hand"), message
                continue
            if "table" not in message:
                continue  # welcome, lobby
            self.streams[message["table"]].append(message)
            if self.chooser is not None:
                for reply in self.chooser.answer(message):
                    send(ws, reply)


def test_over_sockets_too(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    configs = [
        poker_table("holdem", "s-holdem"),
        poker_table("draw", "s-draw"),
        poker_table("stud7", "s-stud7"),
    ]
    names = [c.name for c in configs]
    client = start_app(request, tmp_path, configs, rate=1000, burst=1000)
    done = threading.Event()
    people = [("ann", token_for(client, "ann")), ("bo", token_for(client, "bo")), (None, None)]
    recorders = [
        SocketRecorder(client, name, token, names, seed, SOCKET_HANDS, done)
        for seed, (name, token) in enumerate(people)
    ]
    for recorder in recorders:
        recorder.start()
    deadline = time.monotonic() + 240
    while any(r.is_alive() for r in recorders) and time.monotonic() < deadline:
        recorders[0].join(timeout=1)
        ready = client.get("/readyz").json()
        if not ready["ready"]:  # a table stopped: the recorders would wait for ever
            done.set()
            pytest.fail(f"the server is not ready: {ready['problems']}")
    done.set()
    assert [r.failure for r in recorders] == [None, None, None]

    store = Store.open(db_url(tmp_path), create=False)
    # the hands every client saw finish (the tables deal on: the last ones are left out)
    finished = [
        {
            (t, m["hand"], m["hand_id"])
            for t in names
            for m in r.streams[t]
            if m["type"] == "hand_finished"
        }
        for r in recorders
    ]
    common = set.intersection(*finished)
    hand_ids = {t: sorted(i for table, _, i in common if table == t) for t in names}
    numbers = {t: {n for table, n, _ in common if table == t} for t in names}
    streams = {
        name or "spectator": {
            t: [m for m in recorder.streams[t] if m.get("hand") in numbers[t]] for t in names
        }
        for recorder, (name, _) in zip(recorders, people, strict=True)
    }
    tally = check_all(store, hand_ids, streams, {"spectator"})
    store.close()
    assert all(len(hand_ids[t]) >= SOCKET_HANDS for t in names), hand_ids
    assert tally.counts["spectator views"] > 0
    assert tally.counts["own cards seen"] > 0
