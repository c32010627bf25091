"""The blackjack table task: the real engine, bots and store (SQLite in ``tmp_path``), through
the app's socket and through the runner itself; no mocks.

The runner is driven by people written as small strategies: at each pass of the event
loop a person looks at what the table waits for (:meth:`RunnerBase.expecting`) and acts
through :meth:`BlackjackRunner.act`, as the socket handler does. Seeds are searched (a
first hand that is a pair, one that may double, one that must draw) from the engine's
own state: no test expects a hard-coded card.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import tempfile
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from server_support import db_url, log_length, receive_until, send, start_app, token_for

from croupier.blackjack import events as ev
from croupier.blackjack.actions import LegalPlays
from croupier.blackjack.hands import Phase, Play
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.values import hand_total
from croupier.blackjack.views import event_to_dict as blackjack_event_to_dict
from croupier.cards.card import Card
from croupier.errors import CroupierError
from croupier.fairness import DeckReveal
from croupier.server.accounts import Account
from croupier.server.blackjack_table import BlackjackRunner
from croupier.server.journal import Journal
from croupier.server.protocol import (
    CommitmentMessage,
    ErrorMessage,
    HandFinishedMessage,
    ViewMessage,
    read_server_message,
)
from croupier.server.tables import TableConfig
from croupier.store import Store, play_and_record_blackjack

Person = Callable[[BlackjackRunner, str], str | None]
"""What a person sends now (None: nothing), given the runner and his name."""

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def _config(name: str = "bj", **options: Any) -> TableConfig:
    values: dict[str, Any] = {
        "game": "blackjack",
        "seats": 3,
        "bots": 1,
        "bot_style": "gut",
        "bot_delay": 0,
        "time_bank": 600,
    }
    values.update(options)
    return TableConfig(name, **values)


def _open(store: Store, config: TableConfig) -> BlackjackRunner:
    return BlackjackRunner(config, store, Journal(store.engine))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(db_url(tmp_path)) as opened:
        yield opened


class Recorder:
    """A listener keeping every message; ``check`` looks at each one as it is sent."""

    def __init__(
        self,
        name: str | None,
        check: Callable[[Any], None] | None = None,
        runner: BlackjackRunner | None = None,
    ) -> None:
        """``name`` at ``runner``: the account the runner knows by that name (his views are
        his seat's), else a spectator."""
        self.account = None if name is None else Account(sum(map(ord, name)), name)
        if runner is not None and self.account is not None:
            runner.claim(self.account)
        self.messages: list[Any] = []
        self.check = check

    def send(self, message: Any) -> None:
        if isinstance(message, str):  # encoded once for every listener: read it back
            message = read_server_message(message)
        if self.check is not None:
            self.check(message)
        self.messages.append(message)


# ---------------------------------------------------------------------------- people
def _deciding(runner: BlackjackRunner, name: str) -> bool:
    rnd = runner.round
    return runner.expecting() == name and rnd is not None and rnd.phase is not Phase.WAGERS


def _wagering(runner: BlackjackRunner, name: str) -> bool:
    waiting = runner.expecting()
    return isinstance(waiting, frozenset) and name in waiting


def _legal(runner: BlackjackRunner) -> LegalPlays:
    assert runner.round is not None
    return runner.round.legal_actions()


def wager_only(runner: BlackjackRunner, name: str) -> str | None:
    """Wager 10 on his box; no decision."""
    return "wager 10" if _wagering(runner, name) else None


def steady(runner: BlackjackRunner, name: str) -> str | None:
    """Wager 10; stand on 12 or more, else hit; decline insurance."""
    if _wagering(runner, name):
        return "wager 10"
    if not _deciding(runner, name):
        return None
    legal = _legal(runner)
    if legal.decline_insurance:
        return "decline"
    return "stand" if legal.stand else "hit"


def first_then_steady(first: str) -> Person:
    """``first`` at his first decision, then :func:`steady`."""
    done: list[str] = []

    def person(runner: BlackjackRunner, name: str) -> str | None:
        if _deciding(runner, name) and not done and not _legal(runner).decline_insurance:
            done.append(first)
            return first
        return steady(runner, name)

    return person


def random_person(rng: random.Random) -> Person:
    """Any legal wager (his box, backing a wagered box, ``pass``/``deal``) and any legal
    decision, with or without the prefix naming him."""

    def person(runner: BlackjackRunner, name: str) -> str | None:
        rnd = runner.round
        if rnd is None:
            return None
        if _wagering(runner, name):
            own = runner.seat_of(name)
            choices = [rng.choice(["pass", "deal"])]
            for limit in rnd.legal_actions().wagers:
                if limit.player != name:
                    continue
                amount = rng.randrange(limit.low, min(limit.high, limit.low + 60) + 1)
                if limit.box == own:
                    choices += [f"wager {amount}"] * 4
                elif limit.box in rnd.boxes and rnd.boxes[limit.box].owner == runner.owners.get(
                    limit.box
                ):
                    choices.append(f"wager {limit.box} {amount}")
            return rng.choice(choices)
        if _deciding(runner, name):
            text = str(rng.choice(_legal(runner).actions()))
            return text if rng.random() < 0.5 else text.split(": ")[-1]
        return None

    return person


@contextlib.asynccontextmanager
async def running(runner: BlackjackRunner) -> AsyncIterator[asyncio.Task[None]]:
    """The table's task, cancelled at the end (as a crash would stop it: the journal keeps
    the round in play)."""
    task = asyncio.create_task(runner.run())
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def play(
    runner: BlackjackRunner,
    task: asyncio.Task[None],
    people: dict[str, Person],
    until: Callable[[], bool],
) -> None:
    """Let ``people`` act until ``until()``."""
    async with asyncio.timeout(30):  # a safety net only: nothing here is timed
        while not until():
            if task.done():
                task.result()
                raise AssertionError("the table task stopped")
            for name, person in people.items():
                text = person(runner, name)
                if text is not None:
                    reply = runner.act(name, text, runner.number)
                    assert reply is None, (name, text, reply)
            await asyncio.sleep(0.001)  # a pass of the event loop for the table


async def play_rounds(runner: BlackjackRunner, people: dict[str, Person], rounds: int) -> None:
    async with running(runner) as task:
        await play(runner, task, people, lambda: len(runner.hand_ids) >= rounds)


def _at_decision(runner: BlackjackRunner, name: str) -> Callable[[], bool]:
    return lambda: _deciding(runner, name) or bool(runner.hand_ids)


def seed_where(store: Store, want: Callable[[LegalPlays], bool], **options: Any) -> int:
    """A seed whose first round gives ann (box 2) a first decision on her hand that
    ``want`` accepts: each seed's first round is dealt at a table of its own."""
    for seed in range(400):
        runner = _open(store, _config(f"search-{len(store.sessions())}", seed=seed, **options))
        runner.sit("ann", 2, None)
        found: list[bool] = []

        def decided(runner: BlackjackRunner = runner, found: list[bool] = found) -> bool:
            if _deciding(runner, "ann"):
                rnd = runner.round
                assert rnd is not None
                assert rnd.actor is not None
                found.append(rnd.actor.hand == 0 and want(rnd.legal_actions()))
                return True
            return bool(runner.hand_ids)

        async def deal(runner: BlackjackRunner = runner) -> None:
            async with running(runner) as task:
                await play(runner, task, {"ann": wager_only}, decided)

        asyncio.run(deal())
        if found == [True]:
            return seed
    raise AssertionError("no seed deals ann such a first hand")


def _stored_round(store: Store, hand_id: int) -> BlackjackRound:
    replayed = store.hand(hand_id).replay()
    assert isinstance(replayed, BlackjackRound)
    return replayed


# ---------------------------------------------------------------------------- the config
def test_bad_blackjack_settings_are_named() -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"seats": 8, "bots": 2}, "boxes"),
        ({"bot_style": "calling"}, "bot style"),
        ({"limits": [50, 20]}, "limits"),
        ({"wager": 5}, "wager"),
        ({"limits": [20, 100], "wager": 200}, "wager"),
        ({"buy_in": 5}, "buy-in"),
    ]
    for bad, word in cases:
        with pytest.raises(CroupierError, match=word):
            TableConfig.from_dict({"name": "bj", "game": "blackjack", **bad})
    config = TableConfig.from_dict({"name": "bj", "game": "blackjack", "limits": [5, 500]})
    assert config.limits == (5, 500)


# ---------------------------------------------------------------------------- the socket
def test_a_person_plays_rounds_to_settlement_over_the_socket(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    table = _config("bj", time_bank=30)
    client = start_app(request, tmp_path, [table])
    token = token_for(client, "ann")
    finished: list[dict[str, Any]] = []
    committed: list[int] = []
    wagered: set[int] = set()
    acted: set[tuple[int, int]] = set()
    with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as spectator:
        send(ws, {"type": "hello", "token": token})
        assert receive_until(ws, "welcome")["player"] == "ann"
        send(spectator, {"type": "hello", "token": None})
        send(spectator, {"type": "watch", "table": "bj"})
        send(ws, {"type": "sit", "table": "bj"})
        while len(finished) < 3:
            message = ws.receive_json()
            assert message["type"] != "error", message
            if message["type"] == "commitment":
                committed.append(message["hand"])
            elif message["type"] == "hand_finished":
                finished.append(message)
            elif message["type"] == "view":
                assert message["kind"] == "blackjack"
                assert committed
                assert committed[-1] == message["hand"]
                view, hand = message["view"], message["hand"]
                legal = view["legal"]
                if view["phase"] == "wagers" and legal and legal["wagers"] and hand not in wagered:
                    wagered.add(hand)
                    send(ws, {"type": "act", "table": "bj", "action": "wager 10", "hand": hand})
                elif legal and legal["actor"] and (hand, log_length(message)) not in acted:
                    acted.add((hand, log_length(message)))
                    action = "decline" if legal["decline_insurance"] else "stand"
                    if not legal["decline_insurance"] and not legal["stand"]:
                        action = "hit"
                    send(ws, {"type": "act", "table": "bj", "action": action, "hand": hand})
        seen = receive_until(spectator, "view")
        assert seen["view"]["player"] is None
        assert seen["names"] == {"1": "bot-1", "2": "ann"}
    assert [m["hand"] for m in finished] == [1, 2, 3]
    store = Store.open(db_url(tmp_path), create=False)
    assert store.verify().ok
    for message in finished:
        stored = store.hand(message["hand_id"])
        assert stored.commitment.digest == message["commitment"]
        assert message["reveal"] is None  # three rounds do not reach the cut card
        assert {name for _box, name in stored.players} == {"ann", "bot-1"}
        assert stored.replay().is_complete
    ann = {r["name"]: r["stack"] for r in finished[-1]["results"]}["ann"]
    assert store.balances(store.sessions()[-1])["ann"] == ann
    # the API gives each settled round; the shoe is still in play, so its order is not there
    for message in finished:
        got = client.get(
            f"/api/hands/{message['hand_id']}", headers={"Authorization": f"Bearer {token}"}
        )
        assert got.status_code == 200, got.text
        data = got.json()
        assert data["game_kind"] == "blackjack"
        assert data["viewer"]["name"] == "ann"
        assert data["viewer"]["seat"] == 2
        assert data["commitment"] == message["commitment"]
        assert data["reveal"] is None
        assert data["phh"] is None
        events = data["events"]
        assert events[0]["type"] == "RoundStarted"
        assert events[0]["shoe"] == []
        assert not any(e["type"] == "CardBurned" for e in events)
        stored = store.hand(message["hand_id"])
        shown = [e for e in stored.events if not isinstance(e, (ev.RoundStarted, ev.CardBurned))]
        assert [e for e in events if e["type"] not in ("RoundStarted", "HiddenCard")] == [
            blackjack_event_to_dict(e) for e in shown
        ]
    assert client.get("/api/hands/999999").status_code == 404


def test_the_api_gives_a_round_of_a_revealed_shoe_whole(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Once its shoe is revealed, a round from ``GET /api/hands`` has its whole log (the
    shoe's order, the burn card) and the reveal, the same as the store's record."""
    with Store.open(db_url(tmp_path)) as store:
        done = play_and_record_blackjack(store, rounds=2, seed=5)
        stored = [store.hand(i) for i in done.hands]
    assert all(s.revealed for s in stored)  # the session ended: the shoe went back
    client = start_app(request, tmp_path, [_config("bj")])
    for hand in stored:
        data = client.get(f"/api/hands/{hand.summary.id}").json()
        assert data["viewer"] == {"name": None, "seat": None}
        assert data["reveal"] == hand.reveal.to_dict()
        assert data["events"] == [blackjack_event_to_dict(e) for e in hand.events]
        assert data["events"][0]["shoe"] != []


# ---------------------------------------------------------------------------- decisions
@pytest.mark.rule("Blackjack 11.1")
def test_a_person_splits_a_pair_found_by_seed(store: Store) -> None:
    seed = seed_where(store, lambda legal: legal.split)
    runner = _open(store, _config(seed=seed))
    runner.sit("ann", 2, None)
    asyncio.run(play_rounds(runner, {"ann": first_then_steady("split")}, 1))
    rnd = _stored_round(store, runner.hand_ids[0])
    assert ev.BoxAction(2, 0, Play.SPLIT) in rnd.events
    hands = rnd.boxes[2].hands
    assert len(hands) >= 2
    assert all(h.from_split and sum(h.stakes.values()) == 10 * (1 + h.doubled) for h in hands)
    assert store.verify().ok


@pytest.mark.rule("Blackjack 12.1(b)")
def test_a_person_doubles_a_hand_found_by_seed(store: Store) -> None:
    seed = seed_where(store, lambda legal: legal.double and not legal.split)
    runner = _open(store, _config(seed=seed))
    runner.sit("ann", 2, None)
    asyncio.run(play_rounds(runner, {"ann": first_then_steady("double")}, 1))
    rnd = _stored_round(store, runner.hand_ids[0])
    hand = rnd.boxes[2].hands[0]
    assert hand.doubled
    assert len(hand.cards) == 3
    assert hand.stakes == {"ann": 20}
    start = rnd.events[0]
    assert isinstance(start, ev.RoundStarted)
    assert rnd.payoffs()["ann"] in (-20, 0, 20)
    assert store.verify().ok


def test_an_illegal_action_gets_the_rule_and_changes_nothing(store: Store) -> None:
    runner = _open(store, _config(seed=1))
    runner.sit("ann", 2, None)

    async def scenario() -> None:
        async with running(runner) as task:
            await play(runner, task, {"ann": wager_only}, _at_decision(runner, "ann"))
            rnd = runner.round
            assert rnd is not None
            assert _deciding(runner, "ann")
            before = rnd.snapshot()
            live = runner.journal.interrupted("bj")
            assert live is not None
            for text, rule in [("surrender", "Decision 3.1-13"), ("wager 10", "Blackjack 4.2")]:
                error = runner.act("ann", text, runner.number)
                assert isinstance(error, ErrorMessage)
                assert error.code == "illegal"
                assert error.rule is not None
                assert error.rule.startswith(rule)
                assert error.rule in error.message
                assert error.allowed
            bad = runner.act("ann", "jump", None)
            assert bad is not None
            assert bad.code == "bad_action"
            stale = runner.act("ann", "stand", runner.number + 5)
            assert stale is not None
            assert stale.code == "stale"
            assert rnd.snapshot() == before
            assert runner.expecting() == "ann"
            again = runner.journal.interrupted("bj")
            assert again is not None
            assert again.events == live.events
            await play(runner, task, {"ann": steady}, lambda: bool(runner.hand_ids))

    asyncio.run(scenario())
    assert store.verify().ok


@pytest.mark.rule("Decision 3.1-14")
def test_acting_out_of_turn_or_for_another_is_refused(store: Store) -> None:
    runner = _open(store, _config(seats=4, seed=2))
    runner.sit("ann", 2, None)
    runner.sit("bo", 4, None)

    async def scenario() -> None:
        async with running(runner) as task:
            await play(runner, task, {"ann": wager_only}, lambda: runner.expecting() == {"bo"})
            late = runner.act("ann", "wager 20", None)
            assert late is not None
            assert late.code == "not_your_turn"
            theirs = runner.act("bo", "wager 2 ann 10", None)  # ann's chips, not his
            assert theirs is not None
            assert theirs.code == "not_yours"
            early = runner.act("bo", "wager 1 10", None)  # bot-1 has wagered: backing is fine
            assert early is None
            await play(runner, task, {}, lambda: runner.expecting() == {"bo"})
            free = runner.act("bo", "wager 3 10", None)  # nobody sits at box 3
            assert free is not None
            assert free.code == "refused"
            backing = runner.act("bo", "wager 2 10", None)
            assert backing is None
            await play(
                runner,
                task,
                {"ann": wager_only, "bo": wager_only},
                _at_decision(runner, "ann"),
            )
            rnd = runner.round
            assert rnd is not None
            assert _deciding(runner, "ann")
            before = rnd.snapshot()
            turn = runner.act("bo", "stand", None)
            assert turn is not None
            assert turn.code == "not_your_turn"
            assert turn.rule == "Decision 3.1-14"
            named = runner.act("bo", "box 2 hand 0: hit", None)
            assert named is not None
            assert named.code == "not_your_turn"
            other = runner.act("ann", "bo: stand", None)
            assert other is not None
            assert other.code == "not_yours"
            stranger = runner.act("cy", "stand", None)
            assert stranger is not None
            assert stranger.code == "not_seated"
            assert rnd.snapshot() == before
            await play(runner, task, {"ann": steady, "bo": steady}, lambda: bool(runner.hand_ids))

    asyncio.run(scenario())
    rnd = _stored_round(store, runner.hand_ids[0])
    owners = {b: rnd.boxes[b].owner for b in rnd.boxes}
    assert owners == {1: "bot-1", 2: "ann", 4: "bo"}
    assert rnd.boxes[1].wagers == {"bot-1": 10, "bo": 10}
    assert rnd.boxes[2].wagers == {"ann": 10, "bo": 10}
    restarted = _open(store, _config(seats=4, seed=2))  # bo first wagered on box 1
    assert [restarted.seat_of(n) for n in ("bot-1", "ann", "bo")] == [1, 2, 4]
    assert store.verify().ok


@pytest.mark.rule("Blackjack 12.1(d)")
def test_the_time_bank_stands_or_draws_and_declines_insurance(store: Store) -> None:
    seed = seed_where(store, lambda legal: legal.hit and not legal.stand)
    runner = _open(store, _config(seed=seed))
    runner.sit("ann", 2, None)

    def quick_after_wager(runner: BlackjackRunner, name: str) -> str | None:
        if _wagering(runner, name):
            runner.time_bank = 0.01  # the wagers' time bank is already running
            return "wager 10"
        return None

    def reset(message: Any) -> None:
        if isinstance(message, HandFinishedMessage):
            runner.time_bank = 600  # the next round's wagers get a long time bank again

    runner.watch(Recorder("ann", reset, runner))
    asyncio.run(play_rounds(runner, {"ann": quick_after_wager}, 5))
    draws = stands = 0
    for hand_id in runner.hand_ids:
        rnd = _stored_round(store, hand_id)
        cards: dict[tuple[int, int], list[Card]] = {}
        for event in rnd.events:
            match event:
                case ev.CardDealt(box=box, hand=hand, card=card):
                    cards.setdefault((box, hand), []).append(card)
                case ev.BoxAction(box=2, hand=hand, action=action):
                    total = hand_total(cards[(2, hand)])[0]
                    assert action in (Play.HIT, Play.STAND)
                    if action is Play.HIT:
                        assert total <= 11  # 12.1(d): drawn for him only where he must
                        draws += 1
                    else:
                        assert total >= 12
                        stands += 1
                case ev.InsuranceDecided(player="ann", amount=amount):
                    assert amount == 0
    assert draws >= 1
    assert stands >= 1
    assert store.verify().ok


# ---------------------------------------------------------------------------- privacy
def test_no_view_shows_a_card_before_it_is_dealt(store: Store) -> None:
    config = _config(seats=5, bots=2, seed=11)
    runner = _open(store, config)
    runner.sit("ann", 3, None)
    runner.sit("bo", 4, None)
    commitments: list[int] = []
    checked = Counter[str]()

    def card_strings(value: Any) -> list[str]:
        if isinstance(value, str):
            return [value] if CARD.match(value) else []
        if isinstance(value, dict):
            return [c for v in value.values() for c in card_strings(v)]
        if isinstance(value, list):
            return [c for v in value for c in card_strings(v)]
        return []

    def check(message: Any) -> None:
        rnd, deal = runner.round, runner.shoe_deal
        if isinstance(message, CommitmentMessage):
            assert deal is not None
            assert message.digest == deal.commitment.digest
            commitments.append(message.hand)
        elif isinstance(message, ViewMessage):
            assert rnd is not None
            assert deal is not None
            assert commitments
            assert commitments[-1] == message.hand
            taken = [
                e for e in rnd.events if isinstance(e, ev.CardBurned | ev.CardDealt | ev.DealerCard)
            ]
            start = rnd.events[0]
            assert isinstance(start, ev.RoundStarted)
            offset = len(deal.reveal.order) - len(start.shoe)
            # what left the shoe is the committed order, in order
            assert tuple(e.card for e in taken) == deal.reveal.order[offset : offset + len(taken)]
            shown = Counter(str(e.card) for e in taken if not isinstance(e, ev.CardBurned))
            view = message.view
            layout = view["dealer"] + [
                c for b in view["boxes"] for h in b["hands"] for c in h["cards"]
            ]
            logged = [e["card"] for e in view["events"] if "card" in e]
            assert Counter(layout) <= shown
            assert Counter(logged) <= shown
            assert set(card_strings(view)) <= set(shown)
            if message.events_from == 0:  # the log from its start: the shoe hidden
                assert view["events"][0]["shoe"] == []
            if view["actor"] is not None:  # the dealer's second card comes after the players
                assert len(view["dealer"]) == 1
            checked["views"] += 1
        elif isinstance(message, HandFinishedMessage):
            assert deal is not None
            assert runner.shoe is not None
            if runner.shoe.cut_card_reached:
                assert message.reveal == deal.reveal.to_dict()
            else:
                assert message.reveal is None

    for name in ("ann", "bo", None, "cy"):
        runner.watch(Recorder(name, check, runner))
    rng = random.Random(5)
    asyncio.run(play_rounds(runner, {"ann": random_person(rng), "bo": random_person(rng)}, 6))
    assert checked["views"] > 50
    assert store.verify().ok


# ---------------------------------------------------------------------------- the ledger
def test_the_ledger_balances_after_many_rounds_and_shoes(store: Store) -> None:
    config = _config(seats=7, bots=7, seed=4, play_without_humans=True)
    runner = _open(store, config)
    spectator = Recorder(None)
    runner.watch(spectator)
    asyncio.run(play_rounds(runner, {}, 24))
    finished = [m for m in spectator.messages if isinstance(m, HandFinishedMessage)]
    revealed = [m for m in finished if m.reveal is not None]
    assert revealed  # a shoe reached its cut card and was shown
    for message in revealed:
        assert message.reveal is not None
        reveal = DeckReveal.parse(message.reveal["order"], message.reveal["salt"])
        assert reveal.commitment.digest == message.commitment
    assert len({m.commitment for m in finished}) >= 2  # the next round came from a new shoe
    report = store.verify()
    assert report.ok, report.problems
    assert runner.session is not None
    assert store.balances(runner.session) == dict(sorted(runner.chips.items()))


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), choices=st.randoms(use_true_random=False))
def test_chips_are_conserved_over_random_legal_play(seed: int, choices: random.Random) -> None:
    with tempfile.TemporaryDirectory() as folder, Store.open(f"sqlite:///{folder}/s.db") as store:
        runner = _open(store, _config(seats=4, bots=2, seed=seed))
        runner.sit("ann", 3, None)
        people = {"ann": random_person(choices)}

        async def rounds() -> None:
            async with running(runner) as task:
                await play(
                    runner, task, people, lambda: len(runner.hand_ids) >= 3 or not runner.humans()
                )

        asyncio.run(rounds())
        banks = 0
        for hand_id in runner.hand_ids:
            rnd = _stored_round(store, hand_id)
            start = rnd.events[0]
            assert isinstance(start, ev.RoundStarted)
            assert sum(c for _, c in start.bankrolls) == sum(rnd.bankrolls.values()) + rnd.bank
            banks += rnd.bank
        assert sum(runner.chips.values()) + banks == 3 * runner.buy_in
        assert runner.session is not None
        assert store.balances(runner.session) == {
            n: runner.chips.get(n, 0) for n in store.balances(runner.session)
        }
        assert store.verify().ok


# ---------------------------------------------------------------------------- seats
def test_boxes_buy_ins_rebuys_and_leaving(store: Store) -> None:
    runner = _open(store, _config(seats=3, bots=1, seed=3, play_without_humans=True))
    assert runner.session is not None
    for seat, buy_in in [(1, None), (4, None), (None, 99)]:
        with pytest.raises(CroupierError):
            runner.sit("ann", seat, buy_in)
    assert runner.sit("ann", None, None) == 2
    with pytest.raises(CroupierError, match="already sits"):
        runner.sit("ann", 3, None)
    with pytest.raises(CroupierError, match="at most 500"):
        runner.rebuy("ann", 1)
    runner.leave("ann")  # between rounds: at once
    assert runner.seat_of("ann") is None
    assert store.balances(runner.session)["ann"] == 0

    async def scenario() -> None:
        async with running(runner) as task:
            await play(runner, task, {}, lambda: runner.round is not None)
            assert runner.sit("bo", 3, None) is None  # a round is in play: he waits for it
            assert runner.info().free_seats == [2, 3]
            error = runner.act("bo", "wager 10", None)
            assert error is not None
            assert error.code == "not_seated"
            await play(runner, task, {}, lambda: runner.seat_of("bo") == 3)
            await play(runner, task, {"bo": steady}, lambda: len(runner.hand_ids) >= 3)
            runner.leave("bo")  # mid-round: when it is over
            await play(runner, task, {"bo": steady}, lambda: runner.seat_of("bo") is None)

    asyncio.run(scenario())
    assert runner.info().players == ["bot-1"]
    played = [_stored_round(store, i) for i in runner.hand_ids]
    assert any("bo" in r.bankrolls for r in played)
    assert "bo" not in played[0].bankrolls
    assert store.balances(runner.session)["bo"] == 0
    assert store.verify().ok


# ---------------------------------------------------------------------------- restarts
def _halfway(store: Store, config: TableConfig) -> tuple[BlackjackRunner, dict[str, Any]]:
    """Play a round up to ann's first decision, then stop the task as a crash would."""
    runner = _open(store, config)
    runner.sit("ann", 2, None)

    async def scenario() -> None:
        async with running(runner) as task:
            await play(runner, task, {"ann": steady}, lambda: len(runner.hand_ids) >= 1)
            await play(runner, task, {"ann": wager_only}, lambda: _deciding(runner, "ann"))

    asyncio.run(scenario())
    rnd = runner.round
    assert rnd is not None
    assert rnd.phase is not Phase.WAGERS
    return runner, rnd.snapshot()


def test_a_restart_resumes_the_round_with_the_same_cards(store: Store) -> None:
    config = _config(seed=8)
    crashed, before = _halfway(store, config)
    assert crashed.round is not None
    assert crashed.shoe_deal is not None
    remaining = crashed.round.shoe.remaining
    runner = _open(store, config)  # as a restart would
    assert runner.resumed == [2]
    assert runner.voided == []
    rnd = runner.round
    assert rnd is not None
    assert rnd.snapshot() == before
    assert rnd.shoe.remaining == remaining
    assert runner.shoe_deal == crashed.shoe_deal
    assert runner.seat_of("ann") == 2
    asyncio.run(play_rounds(runner, {"ann": steady}, 2))
    first, second = (store.hand(i) for i in runner.hand_ids)
    assert first.events[: len(before["events"])] == before["events"]
    assert first.shoe == second.shoe == 1  # the same shoe carries on
    assert not first.revealed  # a resumed shoe is not abandoned
    dealt = sum(isinstance(e, ev.CardBurned | ev.CardDealt | ev.DealerCard) for e in first.events)
    assert second.offset == first.offset + dealt
    assert [h.number for h in store.hands(runner.session)] == [1, 2, 3]
    assert store.verify().ok


def test_a_restart_voids_the_round_when_the_table_says_so(store: Store) -> None:
    config = _config(seed=8, on_crash="void")
    _, before = _halfway(store, config)
    start = before["events"][0]
    assert isinstance(start, ev.RoundStarted)
    runner = _open(store, config)
    assert runner.voided == [2]
    assert runner.round is None
    assert runner.session is not None
    assert store.balances(runner.session) == dict(sorted(start.bankrolls))
    assert runner.chips == dict(start.bankrolls)
    assert runner.journal.voided("bj") == [(2, "the server restarted mid-round")]
    assert runner.journal.interrupted("bj") is None
    (first,) = store.hands(runner.session)
    assert store.hand(first.id).shoe == 1
    assert not store.hand(first.id).revealed  # shoe 1 was in play when the round was voided
    asyncio.run(play_rounds(runner, {"ann": steady}, 1))
    again = store.hand(runner.hand_ids[0])
    assert again.summary.number == 2
    assert again.shoe == 2  # a restart deals from a new shoe
    assert store.hand(first.id).revealed  # the abandoned shoe is put away revealed
    assert not again.revealed  # the new shoe is still in play
    assert store.verify().ok
