"""A broadcast's view messages, encoded with orjson from the engine's views, are the
messages the pydantic model writes: for every viewer (each seat, each player, a
spectator), at every step of random poker hands of every game and of random blackjack
rounds, the text parses to the same JSON as ``ViewMessage(...).model_dump_json()`` and
validates as a ViewMessage; each message carries only the events its viewer had not had
(all of them again once a showdown uncovered cards in events the viewer had).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.blackjack import NZ, BlackjackRound, HoleCard
from croupier.blackjack.actions import Deal, Insure, PlaceWager
from croupier.blackjack.hands import Phase
from croupier.cards import Shoe
from croupier.poker import GAMES, FixedLimit, HandState, NoLimit, PotLimit, TableRules
from croupier.poker.actions import Discard, RaiseTo
from croupier.poker.games import ForcedBets
from croupier.server.outgoing import ViewFrame
from croupier.server.protocol import ViewMessage, read_server_message

STRUCTURES = [NoLimit(), PotLimit(), FixedLimit(10, 20)]
NAMES = {"1": "ann", "2": "bo", "3": "cy_3", "4": "dé"}


def poker_hand(game_index: int, structure_index: int, seed: int, seats: int) -> HandState:
    game = list(GAMES.values())[game_index % len(GAMES)]
    structure = STRUCTURES[structure_index % len(STRUCTURES)]
    if game.forced is ForcedBets.ANTE_BRING_IN:
        rules = TableRules(game, structure, blinds=(), ante=5, table_minimum=10)
    else:
        rules = TableRules(game, structure, blinds=(5, 10), table_minimum=10)
    seats = min(seats, game.max_players)
    return HandState(rules, {s: 300 + 37 * s for s in range(1, seats + 1)}, button=1, seed=seed)


def poker_step(hand: HandState, rng: random.Random) -> None:
    legal = hand.legal_actions()
    assert legal.actor is not None
    if legal.discard:
        down = hand.players[legal.actor].down
        hand.apply(Discard(tuple(c for c in down if rng.random() < 0.4), seat=legal.actor))
        return
    action = rng.choice(list(legal.actions()))
    if isinstance(action, RaiseTo) and legal.raise_to is not None and rng.random() < 0.5:
        candidate = RaiseTo(rng.randint(*legal.raise_to), seat=legal.actor)
        if hand.can(candidate):
            action = candidate
    hand.apply(action)


def expected(frame_args: dict[str, Any], view: Any, start: int) -> Any:
    """What the pydantic model writes for the same message."""
    data = view.to_dict()
    data["events"] = data["events"][start:]
    message = ViewMessage(view=data, events_from=start, **frame_args)
    return json.loads(message.model_dump_json())


class Broadcasts:
    """One table's broadcasts, each checked: what each viewer had is kept from one
    broadcast to the next, as a runner keeps it."""

    def __init__(self, **frame_args: Any) -> None:
        self.frame_args = frame_args
        self.had: dict[Any, tuple[Any, ...]] = {}
        self.checked = 0
        self.resent = 0

    def check(self, shared: Any, views: dict[Any, Any]) -> None:
        """Write every viewer's message from one frame and compare it with the model's."""
        frame = ViewFrame(shared, **self.frame_args)
        for viewer, view in views.items():
            had = self.had.get(viewer, ())
            uncovered = view.events[: len(had)] != had
            start = 0 if uncovered else len(had)
            self.resent += bool(had) and uncovered
            self.had[viewer] = view.events
            text = frame.message(view, start)
            assert json.loads(text) == expected(self.frame_args, view, start)
            message = read_server_message(text)
            assert isinstance(message, ViewMessage)
            assert message.events_from == start
            assert len(message.view["events"]) == len(view.events) - start
            self.checked += 1


def test_the_frame_writes_every_field_of_the_view_message() -> None:
    assert tuple(ViewMessage.model_fields) == ViewFrame.FIELDS


@settings(max_examples=40, deadline=None)
@given(
    game=st.integers(0, 50),
    structure=st.integers(0, 2),
    seed=st.integers(0, 10_000),
    seats=st.integers(2, 10),
    time_left=st.one_of(st.none(), st.floats(0, 30).map(lambda t: round(t, 1))),
)
def test_poker_view_messages_equal_the_models(
    game: int, structure: int, seed: int, seats: int, time_left: float | None
) -> None:
    hand = poker_hand(game, structure, seed, seats)
    rng = random.Random(seed)
    broadcasts = Broadcasts(
        table="holdem-1", hand=seed, kind="poker", time_left=time_left,
        commitment="ab" * 32, names=NAMES,
    )  # fmt: skip
    while True:
        shared = hand.view_for(None)
        broadcasts.check(shared, {None: shared, **{s: hand.view_for(s) for s in hand.stacks}})
        if hand.is_complete:
            break
        poker_step(hand, rng)
    assert broadcasts.checked > len(hand.stacks)


def test_a_showdown_that_uncovers_cards_sends_the_whole_log_again() -> None:
    uncovered = 0
    for seed in range(40):
        hand = poker_hand(0, 0, seed, 3)
        rng = random.Random(seed)
        broadcasts = Broadcasts(
            table="t", hand=seed, kind="poker", time_left=None, commitment=None, names=NAMES
        )
        while True:
            broadcasts.check(hand.view_for(None), {s: hand.view_for(s) for s in hand.stacks})
            if hand.is_complete:
                break
            poker_step(hand, rng)
        uncovered += broadcasts.resent
    assert uncovered > 0  # some hands reached a showdown, and their logs went out whole


def test_a_card_is_its_text_and_anything_else_unknown_is_refused() -> None:
    hand = poker_hand(0, 0, 3, 2)
    frame = ViewFrame(
        hand.view_for(None), table="t", hand=1, kind="poker", time_left=1.5, commitment=None,
        names={"1": "dé"},
    )  # fmt: skip
    text = frame.message(hand.view_for(1), 0)
    data = json.loads(text)
    assert data["view"]["players"][0]["down"] == [str(c) for c in hand.players[1].down]
    assert data["time_left"] == 1.5
    assert data["names"] == {"1": "dé"}
    odd = ViewFrame(
        hand.view_for(None), table="t", hand=1, kind="poker", time_left=None, commitment=None,
        names={"1": object()},  # type: ignore[dict-item]
    )  # fmt: skip
    with pytest.raises(TypeError, match="not JSON serializable: object"):
        odd.message(hand.view_for(1), 0)


def blackjack_step(rnd: BlackjackRound, rng: random.Random) -> None:
    legal = rnd.legal_actions()
    if rnd.phase is Phase.WAGERS:
        if rnd.boxes and (rng.random() < 0.5 or len(rnd.boxes) >= 3):
            rnd.apply(Deal())
            return
        limit = rng.choice([w for w in legal.wagers if w.box <= 3])
        rnd.apply(
            PlaceWager(
                limit.box, limit.player, rng.randrange(limit.low, limit.high + 1, limit.unit)
            )
        )
        return
    if legal.insure is not None and rng.random() < 0.5:
        low, high = legal.insure
        rnd.apply(Insure(rng.randrange(low, high + 1, legal.unit)))
        return
    rnd.apply(rng.choice(legal.actions()))


@pytest.mark.parametrize("rules", [NZ, NZ.with_(hole_card=HoleCard.PEEK)], ids=["enhc", "peek"])
@pytest.mark.parametrize("seed", range(12))
def test_blackjack_view_messages_equal_the_models(rules: Any, seed: int) -> None:
    rnd = BlackjackRound(rules, Shoe(6, seed=seed), {"ann": 200, "bo": 60})
    rng = random.Random(seed)
    broadcasts = Broadcasts(
        table="blackjack-1", hand=seed, kind="blackjack", time_left=9.5,
        commitment=None, names=NAMES,
    )  # fmt: skip
    while True:
        shared = rnd.view_for(None)
        broadcasts.check(
            shared, {None: shared, "ann": rnd.view_for("ann"), "bo": rnd.view_for("bo")}
        )
        if rnd.is_complete:
            break
        blackjack_step(rnd, rng)
    assert broadcasts.checked >= 6
