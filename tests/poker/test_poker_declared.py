"""What a hand declares when it is built stays so; its log is read-only; each decision event
carries the action that made it (issue 25, points 1 and 2).

* ``automatic`` and ``before_first_card`` are constructor arguments: the hook runs once,
  after the shuffle and cut and before any card leaves the deck, in every game; nothing
  switches a hand from stepped to automatic half-way.
* ``HandState.events`` is an immutable sequence: nobody outside the referee adds to it.
* A decision event's ``action`` is the action value that made it: applying the actions of
  a log to the hand rebuilt from its first events plays the same hand.
* A replay checks the rules' fingerprint first, the game's name only for a log from before
  fingerprints were recorded.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_poker_views import GAME_NAMES, STRUCTURES, random_action, rules_for

from croupier.cards import Deck
from croupier.errors import CroupierError
from croupier.fairness import commit_deck, dealt_cards, verify_logged_deal
from croupier.poker import GAMES, HOLDEM, OMAHA, HandState, NoLimit, PotLimit, Table, TableRules
from croupier.poker import events as ev


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_hook_runs_once_before_the_first_card_and_its_commitment_holds(game: str) -> None:
    rules = rules_for(GAMES[game], "fixed-limit")
    calls: list[tuple[int, int]] = []
    committed = []

    def hook(hand: HandState) -> None:
        calls.append((len(hand.events), len(dealt_cards(hand.events).cards)))
        committed.append(commit_deck(hand.deck.remaining))

    hand = HandState(rules, {1: 300, 2: 300, 3: 300}, 1, seed=11, before_first_card=hook)
    assert len(calls) == 1
    assert calls[0][1] == 0  # no card had left the deck
    assert [type(e) for e in hand.events[: calls[0][0]]] == [ev.HandStarted, ev.DeckCut]
    rng = random.Random(11)
    while not hand.is_complete:
        hand.apply(random_action(hand, rng))
    assert len(calls) == 1
    (commitment, reveal) = committed[0]
    assert verify_logged_deal(commitment, reveal, hand.events).cards > 0


def test_a_table_passes_the_hook_to_its_hand() -> None:
    table = Table(TableRules(), 6, seed=3)
    table.sit("ann", 1, 100)
    table.sit("bo", 4, 100)
    seen: list[int] = []
    hand = table.start_hand(before_first_card=lambda h: seen.append(len(h.deck)))
    assert seen == [52]
    assert hand.automatic
    assert hand.actor is not None


def test_a_hook_that_is_not_callable_is_refused_in_one_line() -> None:
    with pytest.raises(CroupierError, match=r"^before_first_card must be callable, not 3$"):
        HandState(TableRules(), {1: 100, 2: 100}, 1, before_first_card=3)  # type: ignore[arg-type]


def test_what_a_hand_declares_cannot_be_switched_nor_its_log_changed() -> None:
    hand = HandState(TableRules(), {1: 100, 2: 100}, 1, seed=2, automatic=False)
    with pytest.raises(AttributeError):
        hand.automatic = True  # type: ignore[misc]
    assert isinstance(hand.events, tuple)
    with pytest.raises(AttributeError):
        hand.events.append(ev.Folded(1))  # type: ignore[attr-defined]
    before = hand.events
    hand.step()
    assert hand.events[: len(before)] == before
    assert len(hand.events) > len(before)
    assert not hand.automatic


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAME_NAMES),
    structure=st.sampled_from(sorted(STRUCTURES)),
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_actions_of_a_log_play_the_same_hand(
    game: str, structure: str, seats: int, seed: int
) -> None:
    rules = rules_for(GAMES[game], structure)
    stacks = {s: 40 + 37 * s for s in range(1, seats + 1)}
    hand = HandState(rules, stacks, 1, seed=seed)
    rng = random.Random(seed)
    while not hand.is_complete:
        hand.apply(random_action(hand, rng))
    start, cut = hand.events[:2]
    assert isinstance(start, ev.HandStarted)
    assert isinstance(cut, ev.DeckCut)
    again = HandState(rules, stacks, 1, deck=Deck(start.deck, shuffle=False), cut=cut.position)
    for event in hand.events:
        if isinstance(event, ev.PlayerAction):
            assert event.actor == event.seat
            made = again.apply(event.action)
            assert made == event
    assert again.events == hand.events


def test_a_replay_checks_the_fingerprint_first_and_the_game_for_an_old_log() -> None:
    hand = HandState(TableRules(HOLDEM, NoLimit()), {1: 100, 2: 100}, 1, seed=5)
    hand.fold()
    other = TableRules(HOLDEM, PotLimit())  # the same game, other rules
    with pytest.raises(CroupierError, match=r"under rules \w+ \(a holdem hand\); these rules"):
        HandState.replay(other, hand.events)
    start = hand.events[0]
    assert isinstance(start, ev.HandStarted)
    old = [dataclasses.replace(start, rules_version=""), *hand.events[1:]]
    assert HandState.replay(other, old).stacks == hand.stacks  # no fingerprint to check
    with pytest.raises(
        CroupierError, match="the log is of a holdem hand; these rules are for omaha"
    ):
        HandState.replay(TableRules(OMAHA, PotLimit()), old)
