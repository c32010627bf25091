"""An action that is malformed or illegal changes nothing: a property over random states.

Random hands of every game and structure are played to a random point; then random
actions are thrown at ``apply``: well-formed ones for a random seat (often not the one
to act, or not allowed now), malformed values, and objects that are no action at all.
``can`` never raises and agrees with ``apply``; an error is an ``InvalidActionError`` or an
``IllegalActionError`` and leaves the hand exactly as it was.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_poker_views import STRUCTURES, play, rules_for

from croupier.cards import full_deck
from croupier.errors import IllegalActionError, InvalidActionError
from croupier.poker import GAMES, HandState
from croupier.poker import events as ev
from croupier.poker.actions import (
    Action,
    BringIn,
    Call,
    Check,
    CheckOrCall,
    Concede,
    Discard,
    Fold,
    RaiseTo,
    RequestShow,
)

CARDS = full_deck()


@st.composite
def actions(draw: st.DrawFn) -> object:
    """A random action, well formed or not."""
    seat = draw(st.one_of(st.none(), st.integers(1, 7)))
    amount = draw(st.integers(1, 700))
    kind = draw(st.integers(0, 11))
    if kind == 0:
        return Fold(seat=seat)
    if kind == 1:
        return Check(seat=seat)
    if kind == 2:
        return Call(seat=seat)
    if kind == 3:
        return CheckOrCall(seat=seat)
    if kind == 4:
        return RaiseTo(amount, seat=seat)
    if kind == 5:
        return BringIn(amount, seat=seat)
    if kind == 6:
        picked = draw(st.lists(st.sampled_from(CARDS), max_size=3, unique=True))
        return Discard(tuple(picked), seat=seat)
    if kind == 7:
        return Concede(seat=seat or 1)
    if kind == 8:
        return RequestShow(draw(st.integers(1, 7)), seat=seat)
    return draw(
        st.sampled_from(
            ["fold", None, 42, 2.5, ("raise", 40), Fold, object(), b"cc", [RaiseTo(20)]]
        )
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(sorted(GAMES)),
    structure=st.sampled_from(sorted(STRUCTURES)),
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 30),
    thrown=st.lists(actions(), min_size=1, max_size=8),
)
def test_a_refused_action_changes_nothing(
    game: str, structure: str, seats: int, seed: int, steps: int, thrown: list[object]
) -> None:
    hand: HandState = play(rules_for(GAMES[game], structure), seats, seed, steps)
    for action in thrown:
        before = hand.snapshot()
        allowed = hand.can(action)
        assert isinstance(allowed, bool)
        try:
            event = hand.apply(action)  # type: ignore[arg-type]
        except (InvalidActionError, IllegalActionError):
            assert not allowed
            assert hand.snapshot() == before
            if not isinstance(action, Action):
                continue
        else:
            assert allowed
            assert isinstance(action, Action)
            assert event in hand.events
    start = hand.events[0]
    assert isinstance(start, ev.HandStarted)
    held = sum(hand.stacks.values()) + (0 if hand.is_complete else hand.total_pot)
    assert held == sum(start.stacks)  # no rake: chips only move
