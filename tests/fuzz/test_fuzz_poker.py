"""Fuzzing the poker referee's actions on live hands (issue 10, points 9, 10 and 15).

Every game and betting structure is dealt and played to a random point by random legal
moves; then one action is tried with a value of any type. The referee must accept it or
raise a :class:`~croupier.errors.CroupierError`, and a refused action leaves every
observable thing as it was (snapshot, deck, next chore, the player's options). ``can_*``
answers a bool, never raises, and agrees with ``verify_*`` and with the action itself.
An accepted amount or seat is a whole number (``numbers.Integral``, never a bool).
``HandState.replay`` either refuses a log or rebuilds exactly the hand it records.
See ``fuzz_support`` for the determinism policy.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from fuzz_support import amounts, attempt, card_text, fuzz, garbage, is_chip_count, seats
from hypothesis import given
from hypothesis import strategies as st
from poker_strategies import live_hands, observe, rules_for

from croupier.errors import CroupierError
from croupier.poker import GAMES, HandState, Phase, TableRules
from croupier.poker import events as ev

WITH_AMOUNT = ["raise_to", "bring_in"]
WITH_SEAT = ["concede", "request_show"]
VERIFIABLE = ["raise_to", "bring_in", "discard", "concede", "request_show"]
NO_ARGUMENT = ["fold", "check", "call", "step"]


def _value(name: str) -> st.SearchStrategy[Any]:
    if name in WITH_AMOUNT:
        return amounts()
    if name in WITH_SEAT:
        return seats()
    if name == "discard":
        return st.one_of(card_text(), st.lists(st.sampled_from(["As", "2c", "Kd"])), garbage())
    return garbage()


ACTIONS = st.sampled_from([*WITH_AMOUNT, *WITH_SEAT, "discard"]).flatmap(
    lambda name: st.tuples(st.just(name), _value(name))
)


@fuzz(300)
@given(hand=live_hands(), action=ACTIONS)
def test_an_action_with_any_value_is_taken_or_refused_unchanged(
    hand: HandState, action: tuple[str, Any]
) -> None:
    name, value = action
    before = observe(hand)
    _, error = attempt(getattr(hand, name), value)
    if error is not None:
        assert observe(hand) == before, (
            f"{name}({value!r}) was refused ({error}) but changed the hand"
        )
    elif name in WITH_AMOUNT or name in WITH_SEAT:
        assert is_chip_count(value), f"{name}({value!r}) was accepted: not a whole number"


@fuzz(150)
@given(hand=live_hands(), name=st.sampled_from(NO_ARGUMENT))
def test_an_action_at_any_moment_is_taken_or_refused_unchanged(hand: HandState, name: str) -> None:
    before = observe(hand)
    _, error = attempt(getattr(hand, name))
    if error is not None:
        assert observe(hand) == before, f"{name}() was refused ({error}) but changed the hand"


@fuzz(300)
@given(hand=live_hands(), action=st.sampled_from(VERIFIABLE).flatmap(
    lambda name: st.tuples(st.just(name), _value(name))))  # fmt: skip
def test_can_answers_a_bool_and_agrees_with_verify_and_the_action(
    hand: HandState, action: tuple[str, Any]
) -> None:
    name, value = action
    before = observe(hand)
    try:
        answer = getattr(hand, f"can_{name}")(value)
    except Exception as exc:
        exc.add_note(f"fuzz: can_{name}({value!r}) must answer True or False, never raise")
        raise
    assert isinstance(answer, bool), f"can_{name}({value!r}) answered {answer!r}"
    assert observe(hand) == before, f"can_{name}({value!r}) changed the hand"
    _, refused = attempt(getattr(hand, f"verify_{name}"), value)
    assert observe(hand) == before, f"verify_{name}({value!r}) changed the hand"
    assert answer == (refused is None), f"can_{name}({value!r}) is {answer}, verify says {refused}"
    _, error = attempt(getattr(hand, name), value)
    assert (error is None) == answer, f"can_{name}({value!r}) is {answer} but {name} gave {error}"


@fuzz(100)
@given(hand=live_hands(), seat=seats())
def test_views_of_any_seat_answer_or_refuse(hand: HandState, seat: Any) -> None:
    before = observe(hand)
    for view in (hand.hand_of, hand.inspect, hand.view_for):
        attempt(view, seat)
        assert observe(hand) == before, f"{view.__name__}({seat!r}) changed the hand"


# ------------------------------------------------------------------ replay
def _tamper(draw: Callable[[st.SearchStrategy[Any]], Any], events: list[ev.Event]) -> list[Any]:
    kind = draw(st.sampled_from(["field", "drop", "swap", "duplicate", "truncate", "foreign"]))
    out: list[Any] = list(events)
    if kind == "truncate":
        return out[: draw(st.integers(0, len(out)))]
    if kind == "foreign":
        out.insert(draw(st.integers(0, len(out))), draw(garbage()))
        return out
    i = draw(st.integers(0, len(out) - 1))
    if kind == "drop":
        del out[i]
    elif kind == "duplicate":
        out.insert(i, out[i])
    elif kind == "swap":
        j = draw(st.integers(0, len(out) - 1))
        out[i], out[j] = out[j], out[i]
    else:
        target = out[i]
        fields = [f.name for f in dataclasses.fields(target)]
        if fields:
            name = draw(st.sampled_from(fields))
            old = getattr(target, name)
            new = (
                draw(st.one_of(st.integers(-3, 12), garbage()))
                if not isinstance(old, str)
                else draw(st.text(max_size=8))
            )
            out[i] = dataclasses.replace(target, **{name: new})
    return out


@fuzz(150)
@given(hand=live_hands(min_steps=5, max_steps=60), data=st.data())
def test_replay_refuses_a_log_it_cannot_rebuild_exactly(
    hand: HandState, data: st.DataObject
) -> None:
    """HandState.replay either raises a CroupierError or rebuilds the hand the log records:
    the events it records, event for event, then the dealer's chores after a log that stops
    early (point 10: never silently another hand)."""
    while hand.phase is Phase.DEALER:  # a hand stepped by hand: its chores as a replay runs them
        hand.step()
    events = list(hand.events)
    rebuilt, error = attempt(HandState.replay, hand.rules, events)
    assert error is None, f"the hand's own log does not replay: {error}"
    assert rebuilt is not None
    assert list(rebuilt.events) == events
    tampered = _tamper(data.draw, events) if data.draw(st.booleans()) else events
    game = data.draw(st.sampled_from(sorted(GAMES)))
    rules = (
        rules_for(GAMES[game], hand.rules.structure.name) if game != hand.game.name else hand.rules
    )
    other, _ = attempt(HandState.replay, rules, tampered)
    if other is not None:  # the log may stop early: the replay then runs the dealer's chores on
        assert list(other.events[: len(tampered)]) == tampered, (
            f"replay under {game} of a changed log was accepted as a different hand"
        )


@fuzz(20)
@given(log=st.one_of(st.just([]), st.lists(garbage(), max_size=3)))
def test_replay_of_no_log_or_junk_is_refused(log: list[Any]) -> None:
    result, error = attempt(HandState.replay, rules_for(GAMES["holdem"], "no-limit"), log)
    assert result is None
    assert isinstance(error, CroupierError)


def test_a_tampered_event_that_cannot_describe_itself_is_still_refused_in_one_line() -> None:
    """Found by the fuzz test above: a field of the wrong type (``stacks=0``) broke the
    error message itself; the replay now names the event by its repr."""
    rules = TableRules()
    hand = HandState(rules, {1: 100, 2: 100}, button=1, seed=1)
    while not hand.is_complete:
        hand.fold()
    events = list(hand.events)
    last = next(i for i, e in enumerate(events) if isinstance(e, ev.DealEnded))
    ended = events[last]
    assert isinstance(ended, ev.DealEnded)
    events[last] = dataclasses.replace(ended, stacks=0)  # type: ignore[arg-type]
    with pytest.raises(CroupierError, match="DealEnded\\(stacks=0\\)"):
        HandState.replay(rules, events)
