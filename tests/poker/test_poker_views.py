"""Seat views and action values: a seat sees only what the rules let it see.

The key property: two hands that differ only in cards hidden from seat *s* (others' down
cards, burns, the stub) give *s* equal views. After the showdown exactly the shown cards
appear. Actions are values: every legal action is ``in`` ``legal_actions()`` and
``apply`` returns the event it made; a copy is independent and equal.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from helpers import cards_in_view
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.cards import Card, Deck
from croupier.errors import IllegalActionError, InvalidActionError
from croupier.poker import (
    DRAW,
    FIVE_CARD_STUD,
    GAMES,
    HOLDEM,
    OMAHA,
    SEVEN_CARD_STUD,
    FixedLimit,
    GameSpec,
    HandState,
    NoLimit,
    PotLimit,
    SpreadLimit,
    TableRules,
)
from croupier.poker import events as ev
from croupier.poker.actions import (
    Action,
    BringIn,
    Call,
    Check,
    Discard,
    Fold,
    RaiseTo,
    parse_action,
)
from croupier.poker.games import ForcedBets
from croupier.poker.views import SeatView, censor

STRUCTURES = {
    "no-limit": NoLimit(),
    "pot-limit": PotLimit(),
    "fixed-limit": FixedLimit(10, 20),
    "spread-limit": SpreadLimit(10, 50),
}


def rules_for(game: GameSpec, structure_name: str) -> TableRules:
    structure = STRUCTURES[structure_name]
    if game.forced is ForcedBets.ANTE_BRING_IN:
        return TableRules(game, structure, blinds=(), ante=5, table_minimum=10)
    return TableRules(game, structure, blinds=(5, 10), table_minimum=10)


def random_action(hand: HandState, rng: random.Random) -> Action:
    """A random legal action for the seat to act, amounts anywhere in their range."""
    legal = hand.legal_actions()
    seat = legal.actor
    assert seat is not None
    if legal.discard:
        down = hand.players[seat].down
        return Discard(tuple(c for c in down if rng.random() < 0.4), seat=seat)
    choices = list(legal.actions())
    action = rng.choice(choices)
    if isinstance(action, RaiseTo) and legal.raise_to is not None:
        low, high = legal.raise_to
        amount = rng.randint(low, high) // hand.rules.chip_unit * hand.rules.chip_unit
        candidate = RaiseTo(max(amount, low), seat=seat)
        return candidate if hand.can(candidate) else RaiseTo(low, seat=seat)
    return action


def play(rules: TableRules, seats: int, seed: int, steps: int) -> HandState:
    stacks = {s: 40 + 37 * s for s in range(1, seats + 1)}  # some short: all-ins, side pots
    hand = HandState(rules, stacks, 1, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if hand.is_complete:
            break
        action = random_action(hand, rng)
        assert action in hand.legal_actions()
        event = hand.apply(action)
        assert isinstance(event, ev.PlayerAction)
        assert event.seat == action.seat
    return hand


def hidden_from(hand: HandState, seat: int) -> list[Card]:
    """The deck's cards ``seat`` has not seen: others' down cards (unless shown), burns,
    others' discards and the stub."""
    seen = set(hand.board)
    for event in hand.events:
        match event:
            case ev.CardsDealt(seat=owner, cards=cards, up=up) if owner == seat or up:
                seen.update(cards)
            case ev.HandShown(cards=cards):
                seen.update(cards)
            case ev.CommunityDealt(cards=cards):
                seen.update(cards)
    start = hand.events[0]
    assert isinstance(start, ev.HandStarted)
    return [c for c in start.deck if c not in seen]


def with_hidden_cards_permuted(hand: HandState, seat: int, rng: random.Random) -> HandState:
    """The same hand dealt from a deck whose cards hidden from ``seat`` are shuffled among
    themselves, with every logged card mapped the same way."""
    hidden = hidden_from(hand, seat)
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    mapping = dict(zip(hidden, shuffled, strict=True))

    def remap(value: object) -> object:
        if isinstance(value, Card):
            return mapping.get(value, value)
        if isinstance(value, tuple):
            return tuple(remap(v) for v in value)
        return value

    events = [type(e)(**{k: remap(v) for k, v in vars(e).items()}) for e in hand.events]
    return HandState.replay(hand.rules, events)


GAME_NAMES = sorted(GAMES)


@pytest.mark.rule("Poker 18.1", "Poker 18.2")
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAME_NAMES),
    structure=st.sampled_from(sorted(STRUCTURES)),
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 40),
    viewer=st.integers(1, 6),
)
def test_hands_differing_only_in_hidden_cards_give_equal_views(
    game: str, structure: str, seats: int, seed: int, steps: int, viewer: int
) -> None:
    hand = play(rules_for(GAMES[game], structure), seats, seed, steps)
    if any(isinstance(e, ev.HandShown | ev.HandMucked) for e in hand.events):
        return  # the showdown reads the cards: checked by the next test
    seat = (viewer - 1) % seats + 1
    other = with_hidden_cards_permuted(hand, seat, random.Random(seed + 1))
    assert other.view_for(seat) == hand.view_for(seat)
    assert other.view_for(None) == hand.view_for(None)
    view = hand.view_for(seat)
    assert SeatView.from_dict(json.loads(view.to_json())) == view


random_hands = given(
    game=st.sampled_from(GAME_NAMES),
    structure=st.sampled_from(sorted(STRUCTURES)),
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
)
"""A random hand: a game, a betting structure, 2-6 seats, a seed."""


@pytest.mark.rule("Poker 18.4", "Omaha 17.5(d)")
@settings(max_examples=60, deadline=None)
@random_hands
def test_after_the_showdown_exactly_the_shown_cards_appear(
    game: str, structure: str, seats: int, seed: int
) -> None:
    hand = play(rules_for(GAMES[game], structure), seats, seed, 10_000)
    assert hand.is_complete
    shown = {c for e in hand.events if isinstance(e, ev.HandShown) for c in e.cards}
    public = set(hand.board) | {c for p in hand.players.values() for c in p.up} | shown
    for seat in (*hand.players, None):
        own = {
            c
            for e in hand.events
            if isinstance(e, ev.CardsDealt) and e.seat == seat
            for c in e.cards
        }
        assert cards_in_view(hand.view_for(seat)) == public | own


@pytest.mark.rule("Poker 18.4")
@settings(max_examples=60, deadline=None)
@random_hands
def test_a_log_kept_from_view_to_view_is_the_log_censored_afresh(
    game: str, structure: str, seats: int, seed: int
) -> None:
    """A hand keeps each viewer's censored log and extends it (a showdown re-censors only
    the hidden entries): asked after every action, it is what censoring the whole log
    anew gives, for every seat and a spectator, showdowns included."""
    rules = rules_for(GAMES[game], structure)
    hand = HandState(rules, {s: 40 + 37 * s for s in range(1, seats + 1)}, 1, seed=seed)
    rng = random.Random(seed)
    viewers = (*hand.players, None)
    while True:
        for seat in viewers:
            assert hand.view_for(seat).events == censor(hand.events, seat)
        if hand.is_complete:
            break
        hand.apply(random_action(hand, rng))
    assert any(isinstance(e, ev.DealEnded) for e in hand.events)


@settings(max_examples=60, deadline=None)
@random_hands
def test_the_legal_actions_kept_are_the_ones_worked_out_afresh(
    game: str, structure: str, seats: int, seed: int
) -> None:
    """The legal actions are kept per point of the hand: stepped by hand (the dealer's
    chores one by one, where betting opens without a logged event) and through copies,
    what the hand gives is what working them out now gives."""
    rules = rules_for(GAMES[game], structure)
    stacks = {s: 40 + 37 * s for s in range(1, seats + 1)}
    hand = HandState(rules, stacks, 1, seed=seed, automatic=False)
    rng = random.Random(seed)
    while not hand.is_complete:
        assert hand.legal_actions() == hand._betting.work_out_legal()
        if rng.random() < 0.2:
            hand = hand.copy()
            assert hand.legal_actions() == hand._betting.work_out_legal()
        if hand.actor is None:
            hand.step()
        else:
            hand.apply(random_action(hand, rng))
    assert hand.legal_actions() == hand._betting.work_out_legal()


def test_the_view_hides_the_deck_and_a_bot_gets_no_state() -> None:
    hand = HandState(rules_for(HOLDEM, "no-limit"), {1: 100, 2: 100, 3: 100}, 1, seed=2)
    view = hand.view_for(2)
    start = view.events[0]
    assert isinstance(start, ev.HandStarted)
    assert start.deck == ()
    assert not any(isinstance(e, ev.CardBurned) for e in view.events)
    assert view.legal is None  # not seat 2's turn
    assert hand.view_for(1).legal == hand.legal_actions()
    with pytest.raises(InvalidActionError.__mro__[1], match="not in this hand"):
        hand.view_for(9)


# ========================================================================= action values


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("fold", Fold()),
        ("f", Fold()),
        ("x", Check()),
        ("call", Call()),
        ("r 40", RaiseTo(40)),
        ("bet 40", RaiseTo(40)),
        ("p3 cbr 40", RaiseTo(40, seat=3)),
        ("bring-in 10", BringIn(10)),
        ("sd AsKd", Discard(("As", "Kd"))),  # type: ignore[arg-type]
        ("discard 10h 9c", Discard(("Th", "9c"))),  # type: ignore[arg-type]
        ("sd", Discard(())),
    ],
)
def test_actions_read_from_text_and_print_back(text: str, action: Action) -> None:
    assert parse_action(text) == action
    assert parse_action(str(action)) == action.for_seat(None)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("raise", "'raise' needs an amount"),
        ("r 4.5", "'4.5' is not a whole number of chips"),
        ("r -5", "'-5' is not a whole number of chips"),
        ("jump 3", "unknown verb 'jump'"),
        ("sd Zz", "bad card"),
        ("fold now", "takes nothing after it"),
        ("p0 f", "a whole number from 1"),
    ],
)
def test_bad_action_text_names_the_token(text: str, named: str) -> None:
    with pytest.raises(InvalidActionError, match=named):
        parse_action(text)


def test_actions_are_values_with_seats_checked_by_the_referee() -> None:
    hand = HandState(rules_for(HOLDEM, "no-limit"), {1: 100, 2: 100, 3: 100}, 1, seed=2)
    before = hand.snapshot()
    with pytest.raises(IllegalActionError) as info:
        hand.apply(RaiseTo(40, seat=2))  # seat 1 is to act
    assert "seat 2 cannot act: seat 1 is to act" in str(info.value)
    assert hand.snapshot() == before
    assert not hand.can(RaiseTo(40, seat=2))
    assert not hand.can("r 40")
    assert RaiseTo(40) in hand.legal_actions()
    assert RaiseTo(101) not in hand.legal_actions()
    event = hand.apply(RaiseTo(40, seat=1))
    assert event == ev.RaisedTo(1, 40, 30, True, False)
    assert hand.events[-1] == event
    with pytest.raises(InvalidActionError):
        RaiseTo(2.5)  # type: ignore[arg-type]


# ================================================================= copies and payoffs


@pytest.mark.parametrize("game", [HOLDEM, OMAHA, DRAW, FIVE_CARD_STUD, SEVEN_CARD_STUD])
def test_a_copy_is_equal_and_independent(game: GameSpec) -> None:
    hand = play(rules_for(game, "no-limit"), 4, 11, 2)
    assert not hand.is_complete
    twin = hand.copy()
    assert twin.snapshot() == hand.snapshot()
    assert twin.view_for(1) == hand.view_for(1)
    assert twin.legal_actions() == hand.legal_actions()
    deep = copy.deepcopy(hand)
    rng_a, rng_b = random.Random(3), random.Random(3)
    while not twin.is_complete:
        twin.apply(random_action(twin, rng_a))
        deep.apply(random_action(deep, rng_b))
    assert twin.snapshot() == deep.snapshot()  # the copy deals exactly what the hand would
    assert hand.snapshot() != twin.snapshot()
    assert sum(twin.payoffs().values()) == 0


def test_payoffs_only_when_over_and_versions_in_the_first_event() -> None:
    hand = HandState(rules_for(HOLDEM, "no-limit"), {1: 100, 2: 100, 3: 100}, 1, seed=2)
    with pytest.raises(IllegalActionError):
        hand.payoffs()
    start = hand.events[0]
    assert isinstance(start, ev.HandStarted)
    assert start.engine_version
    assert start.rules_version == hand.rules.fingerprint
    other = rules_for(HOLDEM, "pot-limit")
    assert other.fingerprint != hand.rules.fingerprint
    hand.fold()
    hand.fold()
    assert hand.payoffs() == {1: 0, 2: -5, 3: 5}
    with pytest.raises(IllegalActionError.__mro__[2], match="played under rules"):
        HandState.replay(TableRules(HOLDEM, NoLimit(), blinds=(5, 10), ante=1), hand.events)


def test_a_whole_deck_for_every_game() -> None:
    for game in GAMES.values():
        rules = rules_for(game, "no-limit")
        hand = HandState(rules, {1: 100, 2: 100}, 1, seed=1)
        start = hand.events[0]
        assert isinstance(start, ev.HandStarted)
        assert len(set(start.deck)) == (32 if game.ranking.lowest_rank > 0 else 52)
        Deck(start.deck, shuffle=False)
