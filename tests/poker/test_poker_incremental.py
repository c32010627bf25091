"""Views built event by event equal views built afresh; ``can_`` is ``verify_`` without
raising.

A hand keeps each viewer's view up to date from the events since that viewer's last one
(the seats whose records changed, the log's new entries). These properties ask for views
at random moments, of random viewers, so that gaps of every length are crossed, and
compare each with the view of the same hand rebuilt from its log (no kept state at all).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_poker_views import GAME_NAMES, STRUCTURES, random_action, rules_for

from croupier.errors import CroupierError
from croupier.poker import GAMES, HandState


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAME_NAMES),
    structure=st.sampled_from(sorted(STRUCTURES)),
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    ask=st.floats(0.05, 1.0),
)
def test_a_view_kept_up_to_date_equals_the_view_of_the_hand_rebuilt(
    game: str, structure: str, seats: int, seed: int, ask: float
) -> None:
    """Every part of a view (records, pots, board, legal actions, log) kept from view to
    view equals the one a replayed hand, with nothing kept, gives: side pots and showdowns
    included, for seats and a spectator asked at random moments."""
    rules = rules_for(GAMES[game], structure)
    hand = HandState(rules, {s: 40 + 37 * s for s in range(1, seats + 1)}, 1, seed=seed)
    rng = random.Random(seed)
    viewers = (*hand.players, None)
    while True:
        for seat in viewers:
            if rng.random() < ask or hand.is_complete:
                fresh = HandState.replay(rules, hand.events)
                assert hand.view_for(seat) == fresh.view_for(seat)
        if hand.is_complete:
            break
        hand.apply(random_action(hand, rng))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAME_NAMES),
    structure=st.sampled_from(sorted(STRUCTURES)),
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
)
def test_each_can_is_its_verify_without_raising(
    game: str, structure: str, seats: int, seed: int
) -> None:
    """The ``can_`` predicates are worked out, not raised and caught: at every point of
    random hands they agree with their ``verify_`` for every action and for amounts below,
    inside, at the edges of and above the legal range, odd chips and garbage included."""
    rules = rules_for(GAMES[game], structure)
    hand = HandState(rules, {s: 40 + 37 * s for s in range(1, seats + 1)}, 1, seed=seed)
    rng = random.Random(seed)

    def verdict(check: object, *args: object) -> bool:
        try:
            check(*args)  # type: ignore[operator]
        except CroupierError:
            return False
        return True

    while not hand.is_complete:
        legal = hand.legal_actions()
        for name in ("fold", "check", "call"):
            assert getattr(hand, f"can_{name}")() == verdict(getattr(hand, f"verify_{name}"))
        edges = [r for pair in (legal.raise_to, legal.bring_in) if pair for r in pair]
        amounts = [0, 1, 7, 10**9, -5, True, 2.5, "30", None, *edges]
        amounts += [e + d for e in edges for d in (-1, 1)]
        for amount in amounts:
            assert hand.can_raise_to(amount) == verdict(hand.verify_raise_to, amount)  # type: ignore[arg-type]
            assert hand.can_bring_in(amount) == verdict(hand.verify_bring_in, amount)  # type: ignore[arg-type]
        hand.apply(random_action(hand, rng))
