"""Fuzzing the blackjack referee's round (issue 10, points 9 and 15).

A round under one of several rule sets, from a full shoe or a short stacked one (so the
shoe can run dry mid-deal), is played to a random point by random legal decisions, the
chips checked after each (``sum(bankrolls) + on_table + bank`` never changes). Then one
action is tried with values of any type: it is taken or refused with a
:class:`~croupier.errors.CroupierError`, and a refused action leaves the round exactly as
it was. ``can_*`` answers a bool and agrees with ``verify_*``. An accepted box is a whole
number from 1 and an accepted wager a whole number of chips. See ``fuzz_support``.
"""

from __future__ import annotations

from typing import Any

from fuzz_support import amounts, attempt, fuzz, garbage, is_chip_count, is_count, seats
from hypothesis import given
from hypothesis import strategies as st

from croupier.blackjack import NZ, BlackjackRound, HoleCard, Phase, Surrender
from croupier.cards import Shoe
from croupier.cards.deck import full_deck

RULES = [
    NZ,
    NZ.with_(hole_card=HoleCard.PEEK),
    NZ.with_(surrender=Surrender.LATE, even_money=True),
    NZ.with_(insurance=False, max_hands=4, resplit_aces=True, hit_split_aces=True),
]
PLAYERS = {"ann": 100, "bo": 35}
DECISIONS = ["hit", "stand", "double", "split", "surrender"]


def chips(rnd: BlackjackRound) -> int:
    return sum(rnd.bankrolls.values()) + rnd.on_table + rnd.bank


@st.composite
def live_rounds(draw: st.DrawFn) -> BlackjackRound:
    """A round with one to three boxes wagered, dealt or not, played to a random point."""
    rules = draw(st.sampled_from(RULES))
    if draw(st.booleans()):
        shoe = Shoe(6, seed=draw(st.integers(0, 2**32)))
    else:  # a short stacked shoe: rich in aces and pairs, and it may run out
        pool = list(full_deck()) + [c for c in full_deck() if c.rank.value >= 8] * 3
        shoe = Shoe(6, cards=draw(st.lists(st.sampled_from(pool), min_size=2, max_size=14)))
    rnd = BlackjackRound(rules, shoe, PLAYERS, burn=draw(st.booleans()))
    total = chips(rnd)
    for box in draw(st.lists(st.integers(1, 7), min_size=1, max_size=3, unique=True)):
        player = draw(st.sampled_from(sorted(PLAYERS)))
        amount = draw(st.sampled_from([10, 15, 20, 30]))
        if rnd.can_place_wager(box, player, amount):
            rnd.place_wager(box, player, amount)
    if not rnd.boxes or draw(st.integers(0, 9)) == 0:
        return rnd
    _, error = attempt(rnd.deal)
    if error is not None:
        return rnd  # a short shoe ran dry: the round is whatever deal() left (tested below)
    for _ in range(draw(st.integers(0, 8))):
        if rnd.insurance_turn is not None:
            box, player = rnd.insurance_turn
            cap = min(rnd.boxes[box].wagers[player] // 2, rnd.bankrolls[player])
            options = ["insure", *(["even_money"] if rnd.can_even_money() else [])]
            if draw(st.sampled_from(options)) == "even_money":
                _, error = attempt(rnd.even_money)
            else:
                _, error = attempt(rnd.insure, draw(st.integers(0, max(cap, 0))))
            if error is not None:  # a short shoe ran dry when the dealer drew
                return rnd
        elif rnd.actor is not None and rnd.actor.hand is not None:  # a hand to play
            legal = rnd.legal_actions().names
            assert legal, "a hand to act with no decision open"
            _, error = attempt(getattr(rnd, draw(st.sampled_from(legal))))
            if error is not None:  # only an empty shoe may stop a legal decision
                return rnd
        else:
            break
        assert chips(rnd) == total, "a legal decision made or lost chips"
    return rnd


def observe(rnd: BlackjackRound) -> dict[str, Any]:
    """Everything observable about a round: its snapshot, the shoe, the bank, whose turn."""
    seen = dict(rnd.snapshot())
    seen["shoe"] = (len(rnd.shoe), rnd.shoe.burned, rnd.shoe.discards, rnd.shoe.cut_card_reached)
    seen["insurance_turn"] = rnd.insurance_turn
    seen["legal"] = rnd.legal_actions()
    seen["on_table"] = rnd.on_table
    return seen


WAGER_ARGS = st.tuples(seats(), st.one_of(st.sampled_from(sorted(PLAYERS)), garbage()), amounts())
CALLS = st.one_of(
    st.tuples(st.just("place_wager"), WAGER_ARGS),
    st.tuples(st.just("withdraw_wager"), st.tuples(seats(), st.one_of(st.just("ann"), garbage()))),
    st.tuples(st.just("insure"), st.tuples(amounts())),
    st.tuples(st.sampled_from([*DECISIONS, "deal", "even_money"]), st.just(())),
)


@fuzz(400)
@given(rnd=live_rounds(), call=CALLS)
def test_an_action_with_any_value_is_taken_or_refused_unchanged(
    rnd: BlackjackRound, call: tuple[str, tuple[Any, ...]]
) -> None:
    name, args = call
    before = observe(rnd)
    total = chips(rnd)
    _, error = attempt(getattr(rnd, name), *args)
    if error is not None:
        assert observe(rnd) == before, f"{name}{args!r} was refused ({error}) but changed the round"
        return
    assert chips(rnd) == total, f"{name}{args!r} made or lost chips"
    if name == "place_wager":
        box, player, amount = args
        assert is_count(box, 1, 12), f"a wager on box {box!r} was accepted"
        assert is_chip_count(amount), f"a wager of {amount!r} was accepted"
        assert player in PLAYERS
    if name == "insure":
        assert is_chip_count(args[0]), f"insurance of {args[0]!r} was accepted"


@fuzz(200)
@given(rnd=live_rounds(), call=CALLS.filter(lambda c: c[0] != "deal"))
def test_can_answers_a_bool_and_agrees_with_verify(
    rnd: BlackjackRound, call: tuple[str, tuple[Any, ...]]
) -> None:
    name, args = call
    before = observe(rnd)
    try:
        answer = getattr(rnd, f"can_{name}")(*args)
    except Exception as exc:
        exc.add_note(f"fuzz: can_{name}{args!r} must answer True or False, never raise")
        raise
    assert isinstance(answer, bool), f"can_{name}{args!r} answered {answer!r}"
    _, refused = attempt(getattr(rnd, f"verify_{name}"), *args)
    assert observe(rnd) == before, f"can_/verify_{name}{args!r} changed the round"
    assert answer == (refused is None), f"can_{name}{args!r} is {answer}; verify says {refused}"


@fuzz(150)
@given(rnd=live_rounds())
def test_a_round_plays_out_or_stops_cleanly(rnd: BlackjackRound) -> None:
    """Stand every hand (declining insurance): the round settles, or an empty shoe stops it
    with a CroupierError that leaves the round as it was, never half a deal."""
    total = chips(rnd)
    for _ in range(40):
        if rnd.phase is Phase.COMPLETE:
            break
        before = observe(rnd)
        if rnd.phase is Phase.WAGERS:
            if not rnd.boxes:
                return
            step = rnd.deal
        elif rnd.insurance_turn is not None:
            step = lambda: rnd.insure(0)  # noqa: E731
        else:
            legal = rnd.legal_actions().names
            step = rnd.stand if "stand" in legal else getattr(rnd, legal[0])
        _, error = attempt(step)
        if error is not None:
            assert observe(rnd) == before, f"{error} left a half-applied round"
            return
        assert chips(rnd) == total
    assert rnd.phase is Phase.COMPLETE
    assert rnd.on_table == 0
