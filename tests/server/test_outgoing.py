"""A broadcast's view messages, spliced as text from their shared parts, are the messages
the pydantic model writes: for every viewer (each seat, each player, a spectator), at every
step of random poker hands of every game and of random blackjack rounds, the text parses
to the same JSON as ``ViewMessage(...).model_dump_json()`` and validates as a ViewMessage.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier import codec
from croupier.blackjack import NZ, BlackjackRound, HoleCard
from croupier.blackjack.actions import Deal, Insure, PlaceWager
from croupier.blackjack.hands import Phase
from croupier.cards import Shoe
from croupier.poker import GAMES, FixedLimit, HandState, NoLimit, PotLimit, TableRules
from croupier.poker.actions import Discard, RaiseTo
from croupier.poker.games import ForcedBets
from croupier.server.outgoing import Prepared, ViewFrame
from croupier.server.protocol import ViewMessage
from croupier.server.runner import EventTexts

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


def expected(frame_args: dict[str, Any], view: Any, texts: list[str], start: int) -> Any:
    """What the pydantic model writes for the same message."""
    dicts = [json.loads(t) for t in texts]
    message = ViewMessage(view=view.to_dict(event_dicts=dicts), events_from=start, **frame_args)
    return json.loads(message.model_dump_json())


class Broadcasts:
    """One table's broadcasts, each checked: the viewers' logs, what each viewer had and
    the records' texts are kept from one broadcast to the next, as a runner keeps them."""

    def __init__(self, **frame_args: Any) -> None:
        self.frame_args = frame_args
        self.logs = EventTexts()
        self.sent: dict[Any, tuple[int, int]] = {}
        self.records: dict[int, tuple[Any, str]] = {}
        self.checked = 0

    def check(self, shared: Any, views: dict[Any, Any]) -> None:
        """Splice every viewer's message from one frame and compare it with the model's."""
        frame = ViewFrame(shared, records=self.records, **self.frame_args)
        for viewer, view in views.items():
            revision, texts = self.logs.encode(viewer, view.events)
            last = self.sent.get(viewer)
            start = 0 if last is None or last[0] != revision else min(last[1], len(texts))
            self.sent[viewer] = (revision, len(texts))
            prepared = frame.message(view, texts[start:], start)
            assert isinstance(prepared, Prepared)
            assert prepared.type == "view"
            model = expected(self.frame_args, view, texts[start:], start)
            assert json.loads(prepared.text) == model
            assert prepared.model() == ViewMessage.model_validate_json(prepared.model_dump_json())
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


def test_a_view_sharing_nothing_is_encoded_whole() -> None:
    hand = poker_hand(0, 0, 3, 4)
    stranger = HandState(hand.rules, dict(hand.stacks), button=2, seed=9).view_for(2)
    splicer = codec.ViewSplicer(hand.view_for(None))
    texts = [codec.event_text(e) for e in stranger.events]
    assert json.loads(splicer.text(stranger, texts)) == stranger.to_dict()


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
