"""Whatever clients send, the house's bots keep their seats and chips, nobody sees a card
that is not his, and the ledger verifies.

A hypothesis property test over the real app in process (the TestClient: real
WebSockets into the ASGI app, a SQLite store of the example's own): a poker table and a
blackjack table, two bots each (a bot delay of :data:`BOT_DELAY`, a time bank of
:data:`TIME_BANK` seconds, small buy-ins so that bots go broke and are restocked).
Six clients, each over a socket of its own:

* ``ann`` and ``bo``, registered over HTTP;
* ``Ann``, ``ann``'s case twin from before names had keys: inserted directly into
  ``server_accounts`` with ``name_key`` NULL, with a token inserted directly (a login
  as ``Ann`` finds ``ann``, whose key it is);
* ``bot-1`` and ``Bot-2``, legacy accounts named like the house's bots (inserted
  directly, with their keys): they log in over HTTP and may watch, never sit;
* a spectator (no token).

First some of the people sit down (hypothesis draws who, where), and the bot-named
accounts and the spectator try to sit at both tables (refused) and watch them. Then
hypothesis draws a sequence of steps: a client sends ``sit`` (any or a bot's seat, the
right or a wrong buy-in), ``leave``, ``sit_out``, ``sit_in``, ``rebuy``, ``watch`` or
``act`` (an action drawn from the client's latest view at that table, or a fixed text,
many of them naming a bot's seat, box or name: ``p1 fold``, ``bot-1: hit``, ``box 1 hand
0: stand``, ``wager 1 bot-1 10``, ``show 1``...), for either table or one that does not
exist (``nowhere``, ``bot-1``), with the hand in play, a stale one or none; a client's token is revoked
(``POST /api/logout``: its socket is closed 1008 and the token opens no other); or the
test pauses while the tables play on (a person who does not act is defaulted when his
time bank runs out). After every step the lobby must still seat ``bot-1`` and ``bot-2``
at seats 1 and 2 of both tables, and no one but ``ann``, ``Ann`` and ``bo`` anywhere
else. Every message a client gets is read (each client is drained after every step
through a ``watch`` of a missing table, whose error ends what was queued before it),
and every ``view`` must be the client's own: its ``seat`` (blackjack: ``player``) is
None or the seat the message's ``names`` give the client's own name (never for the
spectator or a bot-named account); ``legal`` only for the viewer; no other seat's down
card nor a dealt or discarded card of another seat in the log (poker) unless shown;
never the deck, the shoe, a burn card, or a hole card before the round is settled.

After the sequence the app stops, and from the store: every bot's chips moved only by
recorded hands, its first buy-in and restocking (poker: a busted bot bought in again
with the buy-in; blackjack: a bot short of its wager topped up to the buy-in) — no
cash-out, no other ledger row, no chip movement of any other kind; its balance is those
summed; and ``croupier history verify`` exits 0.

Fifteen examples, not shrunk (each plays in real time: a failure is reported as drawn);
each prints what it exercised (hands, views, own views, other seats' shown cards...).

A socket is closed (1008) only when its token is revoked: any other close fails the
example (six sockets open one after another, so the token checker's race fixed in
1b78d0f, a socket opened during its store query closed as revoked, would show).
"""

from __future__ import annotations

import contextlib
import random
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from room_process import choose
from server_support import FAST_HASHER, LAX_THROTTLE, PASSWORD, send
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect

from croupier.cli.app import main
from croupier.server.accounts import hash_token
from croupier.server.app import create_app
from croupier.server.config import blackjack_rules
from croupier.server.tables import TableConfig
from croupier.store import Store
from croupier.store.schema import (
    AccountRow,
    ChipMovementRow,
    HandRow,
    LedgerRow,
    PlayerRow,
    ResultRow,
    TokenRow,
)

TIME_BANK = 0.1
"""Seconds a person has to act (then the table acts for him)."""
BOT_DELAY = 0.02
"""Seconds a bot waits before it acts: little, but not 0. A table whose people all sit
out deals bots-only hands, and with no delay at all they come as fast as the CPU allows
(hundreds a second): the clients not read meanwhile fall behind (past the server's 1000
queued messages a socket is closed 1013) and one example's checks take minutes. With
people playing, their time bank sets the pace anyway."""
POKER = TableConfig(
    "prop-poker",
    game="holdem",
    seats=4,
    bots=2,
    bot_style="random",
    bot_delay=BOT_DELAY,
    time_bank=TIME_BANK,
    buy_in=40,
)
BLACKJACK = TableConfig(
    "prop-bj",
    game="blackjack",
    seats=4,
    bots=2,
    bot_style="basic",
    bot_delay=BOT_DELAY,
    time_bank=TIME_BANK,
    buy_in=40,
)
TABLES = (POKER.name, BLACKJACK.name)
BOTS = ("bot-1", "bot-2")
PEOPLE = ("ann", "Ann", "bo")
"""Who may sit."""
CLIENTS = ("ann", "Ann", "bo", "bot-1", "Bot-2", None)
"""Every client's account name (None: the spectator)."""
LEGACY = ("bot-1", "Bot-2")
"""Accounts named like the house's bots, from before such names were refused."""

ACTION_TEXTS = (
    "fold", "check", "call", "raise to 20", "raise to 40", "all in", "p1 fold", "p2 call",
    "p1 raise to 30", "show 1", "show 2", "discard", "hit", "stand", "double", "split",
    "surrender", "decline", "insure 5", "even money", "wager 10", "wager 1 10", "wager 2 20",
    "wager 3 10", "wager 1 bot-1 10", "withdraw", "withdraw 1", "withdraw 1 bot-1", "deal",
    "pass", "bot-1: hit", "bot-2: stand", "bot-1: decline insurance", "box 1 hand 0: stand",
    "box 2 hand 0: hit", "box 1 hand 0: double", "jump",
)  # fmt: skip
"""Fixed action texts: legal-looking, naming a bot's seat or box or name, or nonsense."""
LEGAL = "<legal>"
"""An action drawn from the client's latest view of the table."""


# ------------------------------------------------------------------------------ steps
@dataclass(frozen=True)
class Message:
    """A client message (``action`` LEGAL: drawn when sent; ``hand`` "current": the hand
    of the client's latest view of the table)."""

    client: int
    body: dict[str, Any]


@dataclass(frozen=True)
class Logout:
    client: int


@dataclass(frozen=True)
class Pause:
    seconds: float


_tables = st.sampled_from([*TABLES, *TABLES, "nowhere", "bot-1"])
_hands = st.sampled_from([None, "current", "current", 1, 10_000])
_bodies = st.one_of(
    st.builds(
        lambda t, seat, buy_in: {"type": "sit", "table": t, "seat": seat, "buy_in": buy_in},
        _tables,
        st.sampled_from([None, None, 1, 2, 3, 4]),
        st.sampled_from([None, None, 40, 1, 1000]),
    ),
    st.builds(
        lambda kind, t: {"type": kind, "table": t},
        st.sampled_from(["leave", "sit_out", "sit_in", "watch"]),
        _tables,
    ),
    st.builds(
        lambda t, amount: {"type": "rebuy", "table": t, "amount": amount},
        _tables,
        st.sampled_from([1, 10, 39, 40, 1000]),
    ),
    st.builds(
        lambda t, action, hand: {"type": "act", "table": t, "action": action, "hand": hand},
        _tables,
        st.one_of(st.just(LEGAL), st.sampled_from(ACTION_TEXTS)),
        _hands,
    ),
)
_clients = st.integers(0, len(CLIENTS) - 1)
_people = st.sampled_from([0, 1, 2])
_step = st.one_of(
    st.builds(Message, _clients, _bodies),
    st.builds(Message, _people, _bodies),  # the people, more often
    st.builds(Message, _people, _bodies),
    st.builds(Logout, _clients),
    st.builds(Pause, st.sampled_from([0.05, 0.3, 0.6])),
)
_prelude = st.lists(
    st.tuples(_people, st.sampled_from(TABLES)), min_size=1, max_size=4, unique=True
)
"""Who sits where first (so that most sequences find hands in play)."""


# ------------------------------------------------------------------------------ clients
@dataclass
class Client:
    """One client: its socket, what it got, and its views' checks."""

    name: str | None
    token: str | None
    http: TestClient
    stack: contextlib.ExitStack
    rng: random.Random
    ws: Any = None
    alive: bool = False
    revoked: bool = False
    marker: int = 0
    latest: dict[str, dict[str, Any]] = field(default_factory=dict)
    logs: dict[tuple[str, int], list[dict[str, Any]]] = field(default_factory=dict)
    tally: Counter[str] = field(default_factory=Counter)

    @property
    def may_sit(self) -> bool:
        return self.name in PEOPLE

    def connect(self) -> None:
        """Open a socket and greet (the welcome and the lobby come first)."""
        self.ws = self.stack.enter_context(self.http.websocket_connect("/ws"))
        send(self.ws, {"type": "hello", "token": self.token})
        self.alive = True
        self.drain()

    def drain(self) -> None:
        """Read everything queued for the client so far (checking it)."""
        if not self.alive:
            return
        self.marker += 1
        marker = f"zz-drain-{self.marker}"
        send(self.ws, {"type": "watch", "table": marker})
        while True:
            try:
                message: dict[str, Any] = self.ws.receive_json()
            except WebSocketDisconnect as gone:
                self._closed(gone.code)
                return
            if message["type"] == "error" and f"'{marker}'" in message["message"]:
                return
            self.receive(message)

    def _closed(self, code: int) -> None:
        self.alive = False
        assert code == 1008, f"{self.name}'s socket closed with {code}"
        # only a revoked token closes a socket (before 1b78d0f the token checker closed
        # a socket opened while its store query was in flight)
        assert self.revoked, f"{self.name}'s socket was closed (1008) with a live token"

    def receive(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        self.tally[kind] += 1
        if kind == "welcome":
            assert message["player"] == self.name
        elif kind == "error":
            self.tally[f"error {message['code']}"] += 1
        elif kind == "view":
            self.latest[message["table"]] = message
            if message["kind"] == "poker":
                self._check_poker(message)
            else:
                self._check_blackjack(message)

    def _log(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """The hand's log as the client has it after this view."""
        key = (message["table"], message["hand"])
        known = self.logs.get(key, [])
        start = message["events_from"]
        assert 0 <= start <= len(known), f"{key}: events_from {start} > {len(known)}"
        merged = known[:start] + list(message["view"]["events"])
        self.logs[key] = merged
        return merged

    def _own(self, message: dict[str, Any], who: Any) -> None:
        """``who`` (the view's seat or player) is the client's own, or nobody."""
        if who is None:
            return
        assert self.may_sit, f"{self.name} was sent the view of {who!r}: {message}"
        self.tally["own views"] += 1

    def _check_poker(self, message: dict[str, Any]) -> None:
        view = message["view"]
        seat = view["seat"]
        self._own(message, seat)
        if seat is not None:
            assert message["names"][str(seat)] == self.name, (self.name, message["names"], seat)
        if view["legal"] is not None:
            assert seat is not None
            assert view["actor"] == seat
        log = self._log(message)
        shown = {c for e in log if e["type"] == "HandShown" for c in e["cards"]}
        for event in log:
            kind = event["type"]
            assert kind not in ("CardBurned", "StubRestocked"), event
            if kind == "HandStarted":
                assert event["deck"] == [], "the deck was sent"
            hidden = kind == "Discarded" or (kind == "CardsDealt" and not event["up"])
            if hidden and event["seat"] != seat:
                assert set(event["cards"]) <= shown, f"{self.name} saw {event}"
        for player in view["players"]:
            if player["seat"] != seat:
                cards = {c for c in player["down"] if c is not None}
                assert cards <= shown, f"{self.name} (seat {seat}) saw {player}"
                self.tally["shown cards seen"] += len(cards)

    def _check_blackjack(self, message: dict[str, Any]) -> None:
        view = message["view"]
        player = view["player"]
        self._own(message, player)
        if player is not None:
            assert player == self.name
            assert self.name in message["names"].values()
        legal = view["legal"]
        if legal is not None:
            assert player is not None
            assert all(w["player"] == player for w in legal["wagers"])
            assert legal["actor"] is None or legal["actor"]["player"] == player
        for event in self._log(message):
            assert event["type"] != "CardBurned", event
            if event["type"] == "RoundStarted":
                assert event["shoe"] == [], "the shoe was sent"
            if event["type"] == "DealerCard" and event["hidden"]:
                assert view["complete"], "the hole card before the round was settled"

    def action_for(self, table: str) -> str:
        """A legal-looking action from the client's latest view of ``table``."""
        latest = self.latest.get(table)
        if latest is None or latest["view"]["legal"] is None:
            return "check" if table == POKER.name else "stand"
        view, legal = latest["view"], latest["view"]["legal"]
        if latest["kind"] == "poker":
            return choose(view, self.rng)
        if view["phase"] == "wagers":
            mine = [w for w in legal["wagers"] if w["box"] in _boxes_of(latest, self.name)]
            if mine and self.rng.random() < 0.8:
                return f"wager {self.rng.randint(mine[0]['low'], min(mine[0]['high'], 30))}"
            return self.rng.choice(["deal", "withdraw", "wager 1 10"])
        options = [n for n in ("hit", "stand", "double", "split", "surrender") if legal[n]]
        if legal["decline_insurance"]:
            options.append("decline")
        return self.rng.choice(options or ["stand"])


def _boxes_of(message: dict[str, Any], name: str | None) -> list[int]:
    return [int(box) for box, owner in message["names"].items() if owner == name]


# ------------------------------------------------------------------------------ checks
def _check_lobby(http: TestClient) -> None:
    """The bots sit where they sat, and nobody but the people sits elsewhere."""
    for table in http.get("/api/tables").json()["tables"]:
        taken = [s for s in range(1, table["seats"] + 1) if s not in table["free_seats"]]
        seats = dict(zip(taken, table["players"], strict=True))
        assert seats.get(1) == "bot-1", table
        assert seats.get(2) == "bot-2", table
        others = [name for seat, name in seats.items() if seat > len(BOTS)]
        assert set(others) <= set(PEOPLE), table  # never a bot's name twice, nor Bot-2


def _check_bots_books(url: str, sessions: dict[str, int]) -> Counter[str]:
    """Every bot's chips moved only by recorded hands, its first buy-in and restocking."""
    tally: Counter[str] = Counter()
    store = Store.open(url, create=False)
    try:
        with Session(store.engine) as db:
            for table, session in sessions.items():
                config = POKER if table == POKER.name else BLACKJACK
                buy_in = config.buy_in
                assert buy_in is not None
                wager = blackjack_rules(BLACKJACK).table_minimum  # the bots' wager
                balances = store.balances(session)
                nets: dict[tuple[str, int], int] = {}
                for name, number, net in db.execute(
                    select(PlayerRow.name, HandRow.number, ResultRow.net)
                    .join(ResultRow, ResultRow.player_id == PlayerRow.id)
                    .join(HandRow, HandRow.id == ResultRow.hand_id)
                    .where(HandRow.session_id == session)
                ):
                    nets[name, number] = net
                for bot in BOTS:
                    ledger = db.execute(
                        select(LedgerRow.id, LedgerRow.kind, LedgerRow.amount, LedgerRow.after_hand)
                        .join(PlayerRow, PlayerRow.id == LedgerRow.player_id)
                        .where(LedgerRow.session_id == session, PlayerRow.name == bot)
                        .order_by(LedgerRow.id)
                    ).all()
                    assert ledger, f"{bot} at {table} never bought in"
                    assert {kind for _, kind, _, _ in ledger} == {"buy-in"}, ledger
                    first = ledger[0]
                    assert (first.amount, first.after_hand) == (buy_in, 0), ledger
                    for row in ledger[1:]:
                        chips = sum(r.amount for r in ledger if r.id < row.id) + sum(
                            n
                            for (who, number), n in nets.items()
                            if who == bot and number <= row.after_hand
                        )
                        if table == POKER.name:  # busted: bought in again
                            assert (chips, row.amount) == (0, buy_in), (bot, row, chips)
                        else:  # short of its wager: topped up to the buy-in
                            assert chips < wager, (bot, row, chips)
                            assert row.amount == buy_in - chips, (bot, row, chips)
                        tally["restocks"] += 1
                    played = sum(n for (who, _), n in nets.items() if who == bot)
                    assert balances[bot] == sum(r.amount for r in ledger) + played
                    movements = db.execute(
                        select(ChipMovementRow.hand_id, ChipMovementRow.ledger_id)
                        .join(PlayerRow, PlayerRow.id == ChipMovementRow.player_id)
                        .where(ChipMovementRow.session_id == session, PlayerRow.name == bot)
                    ).all()
                    ledger_ids = {r.id for r in ledger}
                    for hand_id, ledger_id in movements:
                        assert hand_id is not None or ledger_id in ledger_ids, (bot, ledger_id)
                    tally["bot results"] += sum(1 for (who, _) in nets if who == bot)
                tally["hands"] += len({number for _, number in nets})
        report = store.verify()
        assert report.ok, [str(p) for p in report.problems]
    finally:
        store.close()
    return tally


# ------------------------------------------------------------------------------ the test
@contextlib.contextmanager
def _room(url: str) -> Iterator[tuple[TestClient, dict[str, str | None]]]:
    """The app with the two tables, the accounts made, legacy ones inserted: the client
    and each client's token by name."""
    app = create_app(
        url,
        tables=[POKER, BLACKJACK],
        hasher=FAST_HASHER,
        throttle=LAX_THROTTLE,
        token_lifetime=timedelta(hours=1),
        rate=1000,
        burst=1000,
    )
    with TestClient(app) as http:
        tokens: dict[str, str | None] = {}
        for name in ("ann", "bo"):
            body = {"name": name, "password": PASSWORD}
            assert http.post("/api/register", json=body).status_code == 201
        now = datetime.now(UTC)
        twin_token = "twin-" + "x" * 40
        with Session(app.state.store.engine) as db, db.begin():
            digest = FAST_HASHER.hash(PASSWORD)
            for name in LEGACY:
                db.add(AccountRow(name=name, name_key=name.casefold(), password_hash=digest,
                                  created_at=now))  # fmt: skip
            twin = AccountRow(name="Ann", name_key=None, password_hash=digest, created_at=now)
            db.add(twin)
            db.flush()
            db.add(TokenRow(token_hash=hash_token(twin_token), account_id=twin.id,
                            expires_at=now + timedelta(hours=1)))  # fmt: skip
        for name in ("ann", "bo", *LEGACY):
            reply = http.post("/api/login", json={"name": name, "password": PASSWORD})
            assert reply.status_code == 200, reply.text
            tokens[name] = reply.json()["token"]
        tokens["Ann"] = twin_token
        yield http, tokens


def _send(client: Client, body: dict[str, Any]) -> None:
    body = dict(body)
    table = body["table"]
    if body.get("action") == LEGAL:
        client.drain()
        body["action"] = client.action_for(table)
    if body.get("hand") == "current":
        latest = client.latest.get(table)
        body["hand"] = None if latest is None else latest["hand"]
    send(client.ws, body)


def _logout(client: Client, http: TestClient) -> None:
    """Revoke the client's token: its socket closes (1008) and the token opens no other."""
    if client.token is None or client.revoked:
        return
    reply = http.post("/api/logout", headers={"Authorization": f"Bearer {client.token}"})
    assert reply.json() == {"revoked": 1}, reply.text
    client.revoked = True
    client.drain()
    assert not client.alive, f"{client.name}'s socket outlived its token"
    with http.websocket_connect("/ws") as ws:
        send(ws, {"type": "hello", "token": client.token})
        assert ws.receive_json()["code"] == "unauthorized"
        with pytest.raises(WebSocketDisconnect) as gone:
            ws.receive_json()
        assert gone.value.code == 1008


@settings(
    max_examples=15,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: every example plays for real
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    prelude=_prelude,
    steps=st.lists(_step, min_size=6, max_size=30),
    seed=st.integers(0, 2**16),
)
def test_clients_never_move_a_bot_nor_see_another_seats_cards(
    tmp_path_factory: pytest.TempPathFactory,
    prelude: list[tuple[int, str]],
    steps: list[Message | Logout | Pause],
    seed: int,
) -> None:
    where = tmp_path_factory.mktemp("room")
    url = f"sqlite:///{where / 'store.db'}"
    tally: Counter[str] = Counter()
    with _room(url) as (http, tokens), contextlib.ExitStack() as sockets:
        sessions = {n: r.session.id for n, r in http.app.state.runners.items()}  # type: ignore[attr-defined]
        clients = [
            Client(name, tokens.get(name) if name else None, http, sockets, random.Random(seed + i))
            for i, name in enumerate(CLIENTS)
        ]
        for client in clients:
            client.connect()
        for index, table in prelude:
            send(clients[index].ws, {"type": "sit", "table": table})
            clients[index].drain()
        for client in clients[len(PEOPLE) :]:  # the bot-named accounts and the spectator
            for table in TABLES:  # may not sit (their views say whether they did)
                send(client.ws, {"type": "sit", "table": table})
                send(client.ws, {"type": "watch", "table": table})
            client.drain()
            assert client.tally["error refused"] + client.tally["error unauthorized"] == 2
        _check_lobby(http)
        for step in steps:
            match step:
                case Message(client=index, body=body) if clients[index].alive:
                    _send(clients[index], body)
                    clients[index].drain()
                case Logout(client=index):
                    _logout(clients[index], http)
                case Pause(seconds=seconds):
                    time.sleep(seconds)
            _check_lobby(http)
        time.sleep(TIME_BANK)  # a last turn or two
        for client in clients:
            client.drain()
            tally.update(client.tally)
        _check_lobby(http)
    tally.update(_check_bots_books(url, sessions))
    assert main(["history", "verify", "--db", url]) == 0
    shown = ("hands", "view", "own views", "shown cards seen", "restocks", "error refused")
    counts = ", ".join(f"{tally[k]} {k}" for k in shown)
    errors = sum(v for k, v in tally.items() if k.startswith("error "))
    print(f"{len(prelude)} sits, {len(steps)} steps: {counts}, {errors} errors in all")
