"""The blackjack referee as an engine API, read like the poker one (issue 11).

Actions are values with text forms both ways; ``verify``/``can``/``apply`` take them and
``legal_actions()`` enumerates them with the amounts; a refused action (malformed or
illegal) leaves the round unchanged. A player's :class:`SeatView` hides what the player
may not see (two rounds that differ only there give equal views) and survives JSON. A
copy is equal and independent; payoffs, the first event's versions and the replay's
checks read as in poker.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from bj_helpers import shoe
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.blackjack import NZ, BlackjackRound, BlackjackRules, HoleCard
from croupier.blackjack import events as ev
from croupier.blackjack.actions import (
    ACTION_TYPES,
    Action,
    Deal,
    DeclineInsurance,
    Double,
    EvenMoney,
    Hit,
    Insure,
    PlaceWager,
    Split,
    Stand,
    Surrender,
    WithdrawWager,
    parse_action,
)
from croupier.blackjack.dealer import has_blackjack
from croupier.blackjack.hands import Outcome, Phase, Play, Turn
from croupier.blackjack.policies import BasicStrategy, Policy, mimic_the_dealer
from croupier.blackjack.views import SeatView
from croupier.cards import Card, Shoe, full_deck, parse_cards
from croupier.errors import CroupierError, IllegalActionError, InvalidActionError

PLAYERS = {"ann": 200, "bo": 60}
RULES = [
    NZ,
    NZ.with_(hole_card=HoleCard.PEEK),
    NZ.with_(hole_card="peek", surrender="late", even_money=True),
    NZ.with_(even_money=True, chip_unit=5, table_minimum=10),
]


def observed(rnd: BlackjackRound) -> tuple[Any, ...]:
    """Everything an action could change, the shoe included."""
    return (rnd.snapshot(), rnd.legal_actions(), len(rnd.shoe), rnd.shoe.burned)


def random_action(rnd: BlackjackRound, rng: random.Random) -> Action:
    """A random legal action; before the deal, a wager now and then, else the deal."""
    legal = rnd.legal_actions()
    if rnd.phase is Phase.WAGERS:
        if rnd.boxes and (rng.random() < 0.5 or len(rnd.boxes) >= 3):
            return Deal()
        limit = rng.choice([w for w in legal.wagers if w.box <= 3])
        amount = rng.randrange(limit.low, limit.high + 1, limit.unit)
        return PlaceWager(limit.box, limit.player, amount)
    if legal.insure is not None and rng.random() < 0.5:
        low, high = legal.insure
        return Insure(rng.randrange(low, high + 1, legal.unit))
    return rng.choice(legal.actions())


def play(rules: BlackjackRules, order: list[Card], seed: int, steps: int) -> BlackjackRound:
    rnd = BlackjackRound(rules, Shoe(1, cards=order), PLAYERS, burn=bool(seed % 2))
    rng = random.Random(seed)
    for _ in range(steps):
        if rnd.is_complete:
            break
        action = random_action(rnd, rng)
        assert action in rnd.legal_actions()
        assert rnd.can(action)
        before = len(rnd.events)
        assert rnd.apply(action) is rnd.events[before]  # the event the action made
    return rnd


# ------------------------------------------------------------------------ action values
EXAMPLES = [
    Hit(),
    Stand(box=2),
    Double(box=1, hand=1),
    Split(player="ann"),
    Surrender(box=3, hand=0, player="bo"),
    Insure(5),
    Insure(0, box=2, player="bo"),
    DeclineInsurance(),
    DeclineInsurance(player="ann"),
    EvenMoney(box=1),
    PlaceWager(1, "ann", 10),
    WithdrawWager(4, "bo"),
    Deal(),
]


@pytest.mark.parametrize("action", EXAMPLES, ids=str)
def test_every_action_reads_back_from_its_printed_form(action: Action) -> None:
    assert parse_action(str(action)) == action
    assert type(action).__name__ in ACTION_TYPES
    assert hash(action) == hash(parse_action(str(action)))  # frozen values


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("h", Hit()),
        ("HIT", Hit()),
        ("s", Stand()),
        ("double", Double()),
        ("d", Double()),
        ("p", Split()),
        ("r", Surrender()),
        ("insure 5", Insure(5)),
        ("i 0", Insure(0)),
        ("no insurance", DeclineInsurance()),
        ("e", EvenMoney()),
        ("wager 1 ann 10", PlaceWager(1, "ann", 10)),
        ("  withdraw   2 bo ", WithdrawWager(2, "bo")),
        ("box 2 hand 1: hit", Hit(box=2, hand=1)),
        ("ann: insure 5", Insure(5, player="ann")),
    ],
)
def test_short_and_long_text_forms(text: str, action: Action) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("jump", "'jump'"),
        ("insure", "needs one amount"),
        ("insure five", "'five'"),
        ("insure -5", "'-5'"),
        ("insure 2.5", "'2.5'"),
        ("hit me", "'me'"),
        ("wager 1 ann", "a box, a player and an amount"),
        ("wager x ann 10", "'x'"),
        ("wager 0 ann 10", "from 1, not 0"),
        ("box x: hit", "'x'"),
        ("box 1 hand 0: insure 5", "not a decision on a hand"),
        ("ann: deal", "names its box and player after the verb"),
        ("", "unknown verb ''"),
    ],
)
def test_bad_text_is_an_invalid_action_naming_the_token(text: str, token: str) -> None:
    with pytest.raises(InvalidActionError) as err:
        parse_action(text)
    assert token in str(err.value)
    assert str(err.value).startswith(f"bad action {text!r}")


@pytest.mark.parametrize(
    "make",
    [
        lambda: Insure(-1),
        lambda: Insure(2.5),  # type: ignore[arg-type]
        lambda: Insure("5"),  # type: ignore[arg-type]
        lambda: Insure(True),
        lambda: PlaceWager(1, "", 10),
        lambda: PlaceWager(1, "ann", -10),
        lambda: PlaceWager(0, "ann", 10),
        lambda: PlaceWager(1, 3, 10),  # type: ignore[arg-type]
        lambda: Hit(box=0),
        lambda: Hit(hand=-1),
        lambda: Stand(player="a:b"),
    ],
)
def test_malformed_values_are_invalid_actions(make: Any) -> None:
    with pytest.raises(InvalidActionError):
        make()
    assert issubclass(InvalidActionError, CroupierError)


def test_the_illegal_play_error_is_the_shared_illegal_action_error() -> None:
    rnd = BlackjackRound(NZ, shoe("6c 9d 5h Th"), {"ann": 50})
    rnd.place_wager(1, "ann", 10)
    rnd.deal()
    with pytest.raises(IllegalActionError) as err:
        rnd.verify(Stand())
    assert err.value.rule == "Blackjack 12.1(d)"
    assert err.value.allowed == "hit, double"


def test_apply_returns_the_event_and_legal_actions_carry_the_amounts() -> None:
    rnd = BlackjackRound(NZ, shoe("8c Ad 8d Th Tc 9s"), {"ann": 100, "bo": 7})
    legal = rnd.legal_actions()
    assert PlaceWager(1, "ann", 100) in legal
    assert PlaceWager(1, "ann", 101) not in legal
    assert PlaceWager(1, "bo", 10) not in legal  # bo's 7 is below the table minimum
    assert not legal.deal
    assert Deal() not in legal
    assert rnd.apply(PlaceWager(1, "ann", 11)) == ev.WagerPlaced(1, "ann", 11)
    assert rnd.apply(PlaceWager(2, "ann", 10)) == ev.WagerPlaced(2, "ann", 10)
    assert rnd.apply(WithdrawWager(2, "ann")) == ev.WagerPlaced(2, "ann", 0)
    assert rnd.apply(Deal()) == ev.CardDealt(1, 0, Card.parse("8c"))
    # the dealer's ace: insurance up to half the wager, rounded down (11 -> 5)
    legal = rnd.legal_actions()
    assert legal.actor == Turn(1, None, "ann") == rnd.actor
    assert legal.insure == (1, 5)
    assert [str(a) for a in legal] == [
        "box 1 ann: decline insurance",
        "box 1 ann: insure 1",
        "box 1 ann: insure 5",
    ]
    assert Insure(5) in legal
    assert Insure(6) not in legal
    assert Insure(0) in legal
    assert Insure(5, player="bo") not in legal
    assert not rnd.can(Insure(5, player="bo"))
    assert rnd.apply(Insure(5)) == ev.InsuranceDecided(1, "ann", 5)
    assert rnd.legal_actions().names == ("hit", "stand", "double", "split")
    assert rnd.apply(Split(box=1, hand=0)) == ev.BoxAction(1, 0, Play.SPLIT)
    assert rnd.actor == Turn(1, 0, "ann")
    with pytest.raises(IllegalActionError, match="out of turn"):
        rnd.verify(Stand(box=1, hand=1))
    event = rnd.apply(Stand())
    assert event == ev.BoxAction(1, 0, "stand")  # type: ignore[arg-type]  # a value is read too
    assert isinstance(event.action, Play)
    rnd.apply(Stand())
    assert rnd.is_complete
    settled = [e for e in rnd.events if isinstance(e, ev.HandSettled)]
    assert all(isinstance(e.outcome, Outcome) for e in settled)
    assert rnd.payoffs() == {"ann": rnd.bankrolls["ann"] - 100, "bo": 0}
    assert sum(rnd.payoffs().values()) == -rnd.bank
    assert not rnd.legal_actions().actions()


def test_payoffs_before_settlement_are_refused() -> None:
    with pytest.raises(IllegalActionError, match="settled"):
        BlackjackRound(NZ, Shoe(6, seed=1), PLAYERS).payoffs()


GARBAGE = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=8),
    st.builds(Hit, box=st.integers(1, 9), hand=st.integers(0, 4)),
    st.builds(Stand, player=st.sampled_from(["ann", "bo", "zed"])),
    st.builds(Double, box=st.integers(1, 9)),
    st.builds(Split, hand=st.integers(0, 4)),
    st.builds(Surrender),
    st.builds(Insure, st.integers(0, 200), box=st.integers(1, 4) | st.none()),
    st.builds(DeclineInsurance, player=st.sampled_from(["ann", "bo", "zed"]) | st.none()),
    st.builds(EvenMoney),
    st.builds(
        PlaceWager, st.integers(1, 12), st.sampled_from(["ann", "bo", "zed"]), st.integers(0, 500)
    ),
    st.builds(WithdrawWager, st.integers(1, 12), st.sampled_from(["ann", "bo", "zed"])),
    st.just(Deal()),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULES),
    order=st.permutations(full_deck()),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 12),
    garbage=st.lists(GARBAGE, min_size=1, max_size=8),
)
def test_refused_actions_change_nothing_and_can_never_raises(
    rules: BlackjackRules, order: list[Card], seed: int, steps: int, garbage: list[object]
) -> None:
    rnd = play(rules, order, seed, steps)
    legal = rnd.legal_actions()
    for action in legal:
        assert rnd.can(action), action
    for thing in garbage:
        allowed = rnd.can(thing)  # never raises, whatever it is given
        assert allowed is (isinstance(thing, Action) and thing in legal), thing
        if allowed:
            continue
        before = observed(rnd)
        with pytest.raises((InvalidActionError, IllegalActionError)) as err:
            rnd.verify(thing)  # type: ignore[arg-type]
        assert isinstance(err.value, InvalidActionError) is (not isinstance(thing, Action))
        with pytest.raises(CroupierError):
            rnd.apply(thing)  # type: ignore[arg-type]
        assert observed(rnd) == before


# --------------------------------------------------------------------------------- views
def test_a_peek_games_hole_card_is_hidden_until_the_dealer_turns_it() -> None:
    rnd = BlackjackRound(RULES[1], shoe("Tc 9d 7h 8s 5c Kd"), {"ann": 100}, burn=True)
    rnd.place_wager(1, "ann", 10)
    rnd.deal()  # burn Tc; ann 9 8, dealer 7 with the hole card 5
    assert rnd.dealer_cards == parse_cards("7h 5c")  # the referee knows it
    view = rnd.view_for("ann")
    assert view.dealer == parse_cards("7h")
    assert view.hole_card
    assert view.dealer_total == 7
    assert ev.HiddenCard("hole card") in view.events
    assert ev.HiddenCard("burned") in view.events
    assert view.events[0] == ev.RoundStarted((("ann", 100),), (), True, *versions(rnd))
    text = view.to_json()
    assert "5c" not in text
    assert "Tc" not in text
    assert view.my_turn
    assert view.legal is not None
    assert view.legal.names == ("hit", "stand", "double")
    assert rnd.view_for(None).legal is None
    assert rnd.view_for(None).dealer == view.dealer
    rnd.stand()  # 17 against 7 5 = 12: the dealer turns 5 and draws
    view = rnd.view_for("ann")
    assert view.complete
    assert not view.hole_card
    assert view.dealer[:2] == parse_cards("7h 5c")
    assert ev.DealerCard(Card.parse("5c"), hidden=True) in view.events


def versions(rnd: BlackjackRound) -> tuple[str, str]:
    start = rnd.events[0]
    assert isinstance(start, ev.RoundStarted)
    return start.engine_version, start.rules_version


def test_views_round_trip_through_strict_json() -> None:
    for seed in range(40):
        rules = RULES[seed % len(RULES)]
        order = list(full_deck())
        random.Random(seed).shuffle(order)
        rnd = play(rules, order, seed, seed % 9)
        for player in (*PLAYERS, None):
            view = rnd.view_for(player)
            again = SeatView.from_dict(json.loads(view.to_json()))
            assert again == view
            assert SeatView.from_dict(copy.deepcopy(view.to_dict())) == view


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("phase"),
        lambda d: d.update(phase="lunch"),
        lambda d: d.update(bankrolls=[["ann", "lots"]]),
        lambda d: d.update(dealer=["zz"]),
        lambda d: d.update(extra=1),
        lambda d: d.update(events=[{"type": "Nope"}]),
        lambda d: d.update(events="none"),
        lambda d: d.update(complete=1),
    ],
)
def test_a_malformed_view_dict_is_refused(change: Any) -> None:
    rnd = BlackjackRound(NZ, Shoe(6, seed=3), {"ann": 50})
    rnd.place_wager(1, "ann", 10)
    rnd.deal()
    data = rnd.view_for("ann").to_dict()
    change(data)
    with pytest.raises(CroupierError):
        SeatView.from_dict(data)


def test_a_view_is_for_a_player_at_the_table() -> None:
    with pytest.raises(CroupierError, match="not a player"):
        BlackjackRound(NZ, Shoe(6, seed=3), {"ann": 50}).view_for("zed")


def dealt_events(rnd: BlackjackRound) -> list[ev.CardBurned | ev.CardDealt | ev.DealerCard]:
    """The events of the cards that left the shoe, in order."""
    return [e for e in rnd.events if isinstance(e, ev.CardBurned | ev.CardDealt | ev.DealerCard)]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULES),
    order=st.permutations(full_deck()),
    seed=st.integers(0, 2**32),
    steps=st.integers(1, 10),
    data=st.data(),
)
def test_rounds_differing_only_in_hidden_cards_give_equal_views(
    rules: BlackjackRules, order: list[Card], seed: int, steps: int, data: st.DataObject
) -> None:
    rnd = BlackjackRound(rules, Shoe(1, cards=order), PLAYERS, burn=bool(seed % 2))
    rng = random.Random(seed)
    actions = []
    for _ in range(steps):
        if rnd.is_complete:
            break
        actions.append(random_action(rnd, rng))
        rnd.apply(actions[-1])
    if rnd.is_complete:
        return  # the hole card is turned: nothing is hidden but the rest of the shoe
    dealt = dealt_events(rnd)
    other = list(order)
    rest = other[len(dealt) :]
    up = next((e.card for e in dealt if isinstance(e, ev.DealerCard)), None)
    for index, event in enumerate(dealt):
        if isinstance(event, ev.CardBurned):
            swap = rest
        elif isinstance(event, ev.DealerCard) and event.hidden and up is not None:  # the peek
            swap = [c for c in rest if has_blackjack([up, c]) == has_blackjack([up, event.card])]
        else:
            continue
        if swap:
            card = data.draw(st.sampled_from(swap), label="hidden card")
            rest[rest.index(card)] = other[index]
            other[index] = card
    rest = data.draw(st.permutations(rest), label="rest of the shoe")
    twin = BlackjackRound(
        rules, Shoe(1, cards=other[: len(dealt)] + rest), PLAYERS, burn=bool(seed % 2)
    )
    for action in actions:
        twin.apply(action)
    assert twin.events[0] != rnd.events[0] or other == order  # the referee's logs differ
    for player in (*PLAYERS, None):
        assert twin.view_for(player) == rnd.view_for(player)


# --------------------------------------------------------------------- copies, replay
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULES),
    order=st.permutations(full_deck()),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 12),
)
def test_a_copy_is_equal_and_independent(
    rules: BlackjackRules, order: list[Card], seed: int, steps: int
) -> None:
    rnd = play(rules, order, seed, steps)
    twin = rnd.copy()
    assert twin.snapshot() == rnd.snapshot()
    assert observed(twin) == observed(rnd)
    assert twin.rules is rnd.rules
    assert twin.events[0] is rnd.events[0]
    assert twin.shoe is not rnd.shoe
    assert twin.bankrolls is not rnd.bankrolls
    assert twin.view_for("ann") == rnd.view_for("ann")
    before = observed(rnd)
    rng = random.Random(seed + 1)
    made = []
    while not twin.is_complete:
        made.append(random_action(twin, rng))
        twin.apply(made[-1])
    assert observed(rnd) == before  # the original did not move
    for action in made:  # and it deals the same cards from here
        rnd.apply(action)
    assert rnd.snapshot() == twin.snapshot()
    assert rnd.payoffs() == twin.payoffs()


def test_the_first_event_carries_bankrolls_shoe_and_versions() -> None:
    rnd = BlackjackRound(NZ, Shoe(6, seed=9), PLAYERS)
    start = rnd.events[0]
    assert isinstance(start, ev.RoundStarted)
    assert dict(start.bankrolls) == PLAYERS
    assert len(start.shoe) == 312
    assert not start.burn
    assert start.rules_version == NZ.fingerprint != NZ.with_(decks=8).fingerprint
    assert start.engine_version == __import__("croupier").__version__
    assert start.shoe[0] == Shoe(6, seed=9).draw()


def test_replay_checks_the_log_against_the_rules() -> None:
    rnd = play(NZ, list(full_deck()), 4, 20)
    assert rnd.is_complete
    assert BlackjackRound.replay(NZ, rnd.events).snapshot() == rnd.snapshot()
    with pytest.raises(CroupierError, match="fingerprint"):
        BlackjackRound.replay(NZ.with_(dealer_hits_soft_17=True), rnd.events)
    with pytest.raises(CroupierError, match="starts with RoundStarted"):
        BlackjackRound.replay(NZ, rnd.events[1:])
    settle = next(i for i, e in enumerate(rnd.events) if isinstance(e, ev.DealEnded))
    forged = [*rnd.events[:settle], ev.DealEnded((("ann", 10**6), ("bo", 60)), 0)]
    with pytest.raises(CroupierError, match=f"event {settle} of the log"):
        BlackjackRound.replay(NZ, forged)
    with pytest.raises(CroupierError, match="never happens"):
        BlackjackRound.replay(NZ, [*rnd.events, ev.CardDealt(1, 0, Card.parse("As"))])
    with pytest.raises(CroupierError, match="only events"):
        BlackjackRound.replay(NZ, [rnd.events[0], "hit"])  # type: ignore[list-item]


def test_replay_refuses_a_decision_out_of_turn() -> None:
    rnd = BlackjackRound(NZ, shoe("9c 7d 6h 8s 5c Th"), {"ann": 50, "bo": 50})
    rnd.place_wager(1, "ann", 10)
    rnd.place_wager(2, "bo", 10)
    rnd.deal()
    rnd.stand()  # ann stands on 15
    log = list(rnd.events)
    log[-1] = ev.BoxAction(2, 0, Play.STAND)  # as if bo had acted first
    with pytest.raises(CroupierError, match="out of turn"):
        BlackjackRound.replay(NZ, log)


# ------------------------------------------------------------------------------ policies
@pytest.mark.parametrize("rules", RULES, ids=["nz", "peek", "peek-late-even", "units"])
def test_bots_play_whole_rounds_from_views_alone(rules: BlackjackRules) -> None:
    from croupier.blackjack import Analysis

    bot = BasicStrategy(Analysis(rules).basic_strategy(), rules)
    for seed in range(15):
        rnd = BlackjackRound(rules, Shoe(6, seed=seed), {"ann": 500, "bo": 500})
        rnd.place_wager(1, "ann", 20)
        rnd.place_wager(2, "bo", 20)
        rnd.deal()
        players: dict[str, Policy] = {"ann": bot, "bo": mimic_the_dealer}
        while rnd.actor is not None:
            who = rnd.actor.player
            action = players[who](rnd.view_for(who))
            assert action in rnd.legal_actions()
            rnd.apply(action)
        assert rnd.is_complete
        assert sum(rnd.payoffs().values()) == -rnd.bank
    with pytest.raises(CroupierError, match="not to decide"):
        mimic_the_dealer(BlackjackRound(rules, Shoe(6, seed=1), {"ann": 50}).view_for("ann"))
