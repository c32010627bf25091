"""Issue 10 for blackjack: every setting the Gazette fixes is checked under ``strict_nz``
(11.4(a)-(b), 11.7, 3.1 as amended); settings given as strings become their enums or are
refused (never silently the default); bad boxes, players, chips and numbers are refused up
front with a CroupierError; and an action that raises, an empty shoe included, leaves the
round and its shoe exactly as they were.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from bj_helpers import dealt, draw_play_settings, hand_to_play, shoe
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from croupier.blackjack import (
    NZ,
    Analysis,
    BlackjackRound,
    BlackjackRules,
    BlackjackTable,
    DealerBlackjackTakes,
    DoubleOn,
    HoleCard,
    PairsBy,
    Phase,
    Surrender,
    simulate,
)
from croupier.cards import Card, Shoe, full_deck, parse_cards
from croupier.errors import CroupierError, RuleViolationError
from croupier.rules import load_registry

REGISTRY = load_registry()


def state(rnd: BlackjackRound) -> tuple[Any, ...]:
    """Everything about a round and its shoe that an action could change."""
    return (
        rnd.snapshot(),
        rnd.legal_actions(),
        len(rnd.shoe),
        rnd.shoe.burned,
        rnd.shoe.cut_card_reached,
        rnd.on_table,
    )


def refused(
    rnd: BlackjackRound, call: Callable[[], object], match: str | None = None
) -> CroupierError:
    """``call`` raises a CroupierError (matching ``match``) and changes nothing."""
    before = state(rnd)
    with pytest.raises(CroupierError, match=match) as err:
        call()
    assert state(rnd) == before
    return err.value


def fresh(cards: str = "Tc 6d 7h 9s", **bankrolls: int) -> BlackjackRound:
    return BlackjackRound(NZ, shoe(cards), bankrolls or {"ann": 100})


# --------------------------------------------------------------------------- point 7: strict NZ
STRICT_REFUSALS = [
    ({"max_hands": 4}, "Blackjack 11.4(a)"),
    ({"max_hands": 2}, "Blackjack 11.4(a)"),
    ({"pairs_by": PairsBy.RANK}, "Blackjack 11.4(a)"),
    ({"resplit_aces": True}, "Blackjack 11.4(b)"),
    ({"hit_split_aces": True}, "Blackjack 11.4(b)"),
    ({"dealer_blackjack_takes_splits": DealerBlackjackTakes.ALL}, "Blackjack 11.7"),
    ({"decks": 3}, "Blackjack 3.1 as amended"),
    ({"decks": 9}, "Blackjack 3.1 as amended"),
]


@pytest.mark.rule("Blackjack 11.4(a)", "Blackjack 11.4(b)", "Blackjack 11.7")
@pytest.mark.parametrize(("changes", "rule"), STRICT_REFUSALS)
def test_strict_nz_refuses_every_setting_the_gazette_fixes(
    changes: dict[str, object], rule: str
) -> None:
    rules = NZ.with_(**changes)
    with pytest.raises(RuleViolationError) as err:
        BlackjackRound(rules, Shoe(rules.decks, seed=1), {"ann": 100}, strict_nz=True)
    assert err.value.rule == rule
    REGISTRY.get(rule)
    assert "\n" not in str(err.value)
    with pytest.raises(RuleViolationError) as table_err:
        BlackjackTable(rules, seed=1)  # a table is strict by default
    assert table_err.value.rule == rule
    # outside strict mode the setting is a variant the referee and the math can play
    BlackjackRound(rules, Shoe(rules.decks, seed=1), {"ann": 100})
    BlackjackTable(rules, seed=1, strict_nz=False)


@pytest.mark.rule("Blackjack 11.4(a)")
def test_strict_nz_refuses_a_fourth_hand_with_the_rule_text() -> None:
    with pytest.raises(
        RuleViolationError, match=r"^Blackjack 11\.4\(a\): no more than three hands"
    ):
        NZ.with_(max_hands=4).validate_for_play()


@pytest.mark.rule("Decision 3.1-1", "Decision 3.1-3", "Decision 3.1-5", "Decision 3.1-13")
@pytest.mark.parametrize(
    "changes",
    [
        {"dealer_hits_soft_17": True},
        {"hole_card": HoleCard.PEEK},
        {"dealer_blackjack_takes_doubles": DealerBlackjackTakes.ALL},
        {"double_on": DoubleOn.TEN_ELEVEN, "double_after_split": False},
        {"surrender": Surrender.LATE},
        {"blackjack_pays": Fraction(6, 5), "insurance": False, "even_money": True},
        {"decks": 4},
        {"decks": 8},
    ],
)
def test_strict_nz_leaves_open_what_the_gazette_pages_leave_open(
    changes: dict[str, object],
) -> None:
    # the dealer's drawing rule, doubling, insurance, the payout and surrender are on pages
    # not found (DIGEST 5): house decisions, so a strict table accepts them
    rules = NZ.with_(**changes)
    rules.validate_for_play()
    BlackjackTable(rules, seed=2).new_round({"ann": 100})


# --------------------------------------------------------------------------- point 8: settings
ENUM_FIELDS: dict[str, type[StrEnum]] = {
    "hole_card": HoleCard,
    "dealer_blackjack_takes_splits": DealerBlackjackTakes,
    "dealer_blackjack_takes_doubles": DealerBlackjackTakes,
    "double_on": DoubleOn,
    "pairs_by": PairsBy,
    "surrender": Surrender,
}
ENUM_VALUES = [(name, member) for name, kind in ENUM_FIELDS.items() for member in kind]


@pytest.mark.parametrize(("name", "member"), ENUM_VALUES, ids=[f"{n}={m}" for n, m in ENUM_VALUES])
def test_an_enum_setting_given_as_a_string_becomes_the_enum(name: str, member: StrEnum) -> None:
    for text in (member.value, member.value.upper(), member.name.lower()):
        rules = NZ.with_(**{name: text})
        assert getattr(rules, name) is member
        assert rules == NZ.with_(**{name: member})
    by_value: dict[str, Any] = {name: member.value}
    by_member: dict[str, Any] = {name: member}
    assert BlackjackRules(**by_value) == BlackjackRules(**by_member)


@pytest.mark.parametrize("name", ENUM_FIELDS)
def test_an_unknown_enum_string_is_refused_with_the_allowed_values(name: str) -> None:
    allowed = ", ".join(m.value for m in ENUM_FIELDS[name])
    for bad in ("nonsense", "", 3, None, True):
        with pytest.raises(RuleViolationError) as err:
            NZ.with_(**{name: bad})
        assert str(err.value).endswith(f"allowed: {allowed}")
        assert name in str(err.value)
        REGISTRY.get(err.value.rule)


@pytest.mark.rule("Decision 3.1-3", "Decision 3.1-13", "Decision 3.1-4")
@pytest.mark.parametrize(
    ("changes", "enum_changes", "edge"),
    [
        ({"hole_card": "peek"}, {"hole_card": HoleCard.PEEK}, 0.4093),
        ({"surrender": "late"}, {"surrender": Surrender.LATE}, 0.3466),
        (
            {"dealer_blackjack_takes_doubles": "all"},
            {"dealer_blackjack_takes_doubles": DealerBlackjackTakes.ALL},
            0.5024,
        ),
    ],
)
def test_string_settings_give_the_house_edge_of_their_enums(
    changes: dict[str, str], enum_changes: dict[str, StrEnum], edge: float
) -> None:
    by_string = Analysis(NZ.with_(**changes)).house_edge()
    assert by_string == Analysis(NZ.with_(**enum_changes)).house_edge()
    assert by_string != Analysis(NZ).house_edge()
    assert round(by_string * 100, 4) == edge


@pytest.mark.rule("Decision 3.1-3")
def test_a_string_peek_setting_deals_a_hole_card() -> None:
    rnd = dealt("Tc 6d 7h 9s", rules=NZ.with_(hole_card="peek"))
    assert len(rnd.dealer_cards) == 2


@pytest.mark.parametrize(
    ("name", "bad"),
    [
        ("decks", 6.0),
        ("decks", True),
        ("decks", "6"),
        ("decks", Decimal(6)),
        ("max_hands", 3.0),
        ("chip_unit", None),
        ("table_minimum", Fraction(10)),
        ("boxes", False),
        ("penetration", 0.75),
        ("penetration", Decimal("0.75")),
        ("penetration", "three quarters"),
        ("blackjack_pays", 1.5),
        ("blackjack_pays", "3:0"),
        ("blackjack_pays", True),
        ("dealer_hits_soft_17", 1),
        ("insurance", "yes"),
        ("resplit_aces", None),
        ("even_money", np.bool_(True)),
    ],
)
def test_settings_of_the_wrong_type_are_refused(name: str, bad: object) -> None:
    with pytest.raises(CroupierError, match=rf"^{name} must be"):
        NZ.with_(**{name: bad})


def test_settings_are_normalised() -> None:
    rules = NZ.with_(decks=np.int64(8), blackjack_pays="6:5", penetration="5/6", max_hands=3)
    assert type(rules.decks) is int
    assert rules.decks == 8
    assert rules.blackjack_pays == Fraction(6, 5)
    assert rules.penetration == Fraction(5, 6)
    assert NZ.with_(blackjack_pays=2, penetration=1).blackjack_pays == Fraction(2)
    assert NZ.with_(blackjack_pays=" 3/2 ") == NZ


def test_an_unknown_setting_is_refused() -> None:
    with pytest.raises(CroupierError, match="no setting named 'holecard'; the settings: decks"):
        NZ.with_(holecard="peek")


@pytest.mark.rule("Decision 3.1-7")
@pytest.mark.parametrize("pays", [0, -1, "-3:2", Fraction(-1, 2)])
def test_a_blackjack_must_pay_something(pays: object) -> None:
    with pytest.raises(RuleViolationError, match=r"Decision 3\.1-7"):
        NZ.with_(blackjack_pays=pays).validate()
    with pytest.raises(CroupierError):
        simulate(NZ.with_(blackjack_pays=pays), rounds=10, seed=1)
    with pytest.raises(CroupierError):
        Analysis(NZ.with_(blackjack_pays=pays))


# --------------------------------------------------------------------------- point 9: wagers
@pytest.mark.rule("Decision 3.1-14")
@pytest.mark.parametrize("box", [0, -1, 8, 99, "x", "1", 1.0, True, None, Decimal(1)])
def test_a_wager_on_a_box_not_on_the_layout_is_refused(box: object) -> None:
    rnd = fresh()
    err = refused(rnd, lambda: rnd.place_wager(box, "ann", 10), "box")  # type: ignore[arg-type]
    assert isinstance(err, RuleViolationError)
    assert err.rule == "Decision 3.1-14"
    assert not rnd.can_place_wager(box, "ann", 10)  # type: ignore[arg-type]
    refused(rnd, lambda: rnd.withdraw_wager(box, "ann"))  # type: ignore[arg-type]
    rnd.place_wager(7, "ann", 10)  # the last box of the NZ layout
    assert set(rnd.boxes) == {7}
    wide = BlackjackRound(NZ.with_(boxes=9), shoe("Tc 6d 7h"), {"ann": 100})
    wide.place_wager(9, "ann", 10)


@pytest.mark.rule("Decision 3.1-14")
@pytest.mark.parametrize(
    "amount", [10.0, 10.5, Decimal(10), Fraction(10), True, "10", None, float("nan")]
)
def test_a_wager_that_is_not_whole_chips_is_refused(amount: object) -> None:
    rnd = fresh()
    refused(rnd, lambda: rnd.place_wager(1, "ann", amount), "a wager must be a whole number")  # type: ignore[arg-type]
    assert not rnd.can_place_wager(1, "ann", amount)  # type: ignore[arg-type]
    assert rnd.boxes == {}
    assert rnd.bankrolls == {"ann": 100}


@pytest.mark.rule("Decision 3.1-14")
def test_a_wager_of_any_integer_type_is_kept_as_an_int() -> None:
    rnd = fresh()
    rnd.place_wager(np.int64(1), "ann", np.int64(20))  # type: ignore[arg-type]
    assert rnd.boxes[1].wagers == {"ann": 20}
    assert type(rnd.boxes[1].wagers["ann"]) is int
    assert type(next(iter(rnd.boxes))) is int
    assert type(rnd.bankrolls["ann"]) is int


@pytest.mark.rule("Decision 3.1-14")
@pytest.mark.parametrize("player", ["dee", "", 1, None, ("ann",)])
def test_a_wager_by_someone_not_at_the_table_is_refused(player: object) -> None:
    rnd = fresh()
    err = refused(rnd, lambda: rnd.place_wager(1, player, 10), "not a player")  # type: ignore[arg-type]
    assert str(err).endswith("allowed: ann")


@pytest.mark.parametrize(
    "bankrolls",
    [{"ann": 100.0}, {"ann": True}, {"ann": -1}, {"ann": "100"}, {1: 100}, {"": 5}, [("ann", 5)]],
)
def test_bankrolls_are_whole_chips_for_named_players(bankrolls: object) -> None:
    with pytest.raises(CroupierError):
        BlackjackRound(NZ, shoe("Tc"), bankrolls)  # type: ignore[arg-type]


def test_rules_and_shoe_must_be_what_they_say() -> None:
    with pytest.raises(CroupierError, match="rules must be a BlackjackRules"):
        BlackjackRound("NZ", shoe("Tc"), {"ann": 5})  # type: ignore[arg-type]
    with pytest.raises(CroupierError, match="shoe must be a Shoe"):
        BlackjackRound(NZ, parse_cards("Tc"), {"ann": 5})  # type: ignore[arg-type]


@pytest.mark.rule("Decision 3.1-6")
@pytest.mark.parametrize("amount", [2.5, True, "5", None])
def test_an_insurance_stake_must_be_whole_chips(amount: object) -> None:
    rnd = dealt("Tc Ad 7h 9s")
    assert rnd.insurance_turn == (1, "ann")
    refused(rnd, lambda: rnd.insure(amount), "an insurance stake must be a whole number")  # type: ignore[arg-type]
    assert not rnd.can_insure(amount)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- point 9: empty shoe
def test_a_deal_the_shoe_cannot_finish_deals_nothing() -> None:
    rnd = BlackjackRound(NZ, shoe("Tc 6d"), {"ann": 100}, burn=True)
    rnd.place_wager(1, "ann", 10)
    refused(rnd, rnd.deal, "the shoe is empty")
    assert rnd.phase is Phase.WAGERS
    assert len(rnd.shoe) == 2
    assert rnd.shoe.burned == ()
    assert rnd.boxes[1].hands == []
    rnd.withdraw_wager(1, "ann")  # wagers are still open (4.2: no card has left the shoe)
    assert rnd.bankrolls == {"ann": 100}


@pytest.mark.parametrize(
    ("cards", "action"),
    [
        ("Tc 6d 6h", "hit"),  # 16 v 6: the hit has no card
        ("Tc 6d 6h", "stand"),  # the dealer's second card has none
        ("5c 6d 6h", "double"),  # the double's one card has none
        ("8c 6d 8h", "split"),  # the first split hand's second card has none
        ("Ac 6d Ah Ts", "split"),  # split aces: the second ace's one card has none
        ("Ac 6d Kh", "hit"),  # no action: a blackjack is done; see the deal below
    ],
)
def test_an_action_the_shoe_cannot_finish_changes_nothing(cards: str, action: str) -> None:
    rnd = BlackjackRound(NZ, shoe(cards), {"ann": 100})
    rnd.place_wager(1, "ann", 10)
    if cards == "Ac 6d Kh":  # the blackjack needs no decision: the dealer draws at once
        refused(rnd, rnd.deal, "the shoe is empty")
        return
    rnd.deal()
    assert action in rnd.legal_actions()
    err = refused(rnd, getattr(rnd, action), "the shoe is empty")
    assert "\n" not in str(err)
    assert rnd.phase is Phase.PLAYING
    assert rnd.bankrolls == {"ann": 90}
    assert rnd.on_table == 10
    # the same round plays on once the action can be finished (here: a stacked retry)
    assert rnd.legal_actions()


def test_a_failed_action_keeps_the_hand_objects() -> None:
    rnd = dealt("8c 6d 8h")
    box = rnd.boxes[1]
    hand = box.hands[0]
    refused(rnd, rnd.split)
    assert rnd.boxes[1] is box
    assert box.hands == [hand]
    assert hand.cards == list(parse_cards("8c 8h"))
    assert not box.split_declined
    assert not hand.acted


# --------------------------------------------------------------------------- point 12: numbers
@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"rounds": 1.5}, "rounds must be a whole number"),
        ({"rounds": 0}, "rounds must be at least 1, not 0"),
        ({"rounds": -1}, "rounds must be at least 1, not -1"),
        ({"rounds": True}, "rounds must be a whole number"),
        ({"rounds": "10"}, "rounds must be a whole number"),
        ({"rounds": 10, "workers": 0}, "workers must be at least 1, not 0"),
        ({"rounds": 10, "workers": 2.0}, "workers must be a whole number"),
        ({"rounds": 10, "seed": -1}, "seed must be a whole number from 0, not -1"),
        ({"rounds": 10, "seed": 1.5}, "seed must be a whole number"),
        ({"rounds": 10, "seed": "7"}, "seed must be a whole number"),
        ({"rounds": 10, "strategy": "basic"}, "strategy must be a StrategyChart"),
        ({"rounds": 10, "insure": 1}, "insure must be True or False"),
    ],
)
def test_simulate_refuses_bad_numbers(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(CroupierError, match=match):
        simulate(NZ, **kwargs)  # type: ignore[arg-type]


def test_a_one_round_simulation_is_strict_json() -> None:
    result = simulate(NZ, rounds=1, seed=3)
    data = result.to_json()
    assert data["se"] is None  # undefined for one round: null, not NaN or Infinity
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text)["rounds"] == 1
    two = simulate(NZ, rounds=2, seed=3).to_json()
    assert isinstance(two["se"], float)
    json.dumps(two, allow_nan=False)
    assert simulate(NZ, rounds=5, seed=np.int64(3)).seed == 3  # type: ignore[arg-type]


def test_analysis_refuses_bad_cards_and_shoes() -> None:
    with pytest.raises(CroupierError):
        Analysis(NZ, decks=True)
    with pytest.raises(CroupierError):
        Analysis(NZ, counts=(24.0,) * 9 + (96.0,))  # type: ignore[arg-type]
    with pytest.raises(CroupierError):
        Analysis("NZ")  # type: ignore[arg-type]
    with pytest.raises(CroupierError):
        Analysis(NZ, decks=1).options(True, 5, 6)


# --------------------------------------------------------------------------- properties
BAD_VALUES = st.sampled_from(
    [0, -1, 8, 99, "x", 1.5, True, None, Decimal(5), Fraction(5), float("inf"), "10", b"1"]
)


@st.composite
def rules_for_play(draw: st.DrawFn) -> BlackjackRules:
    if draw(st.booleans()):
        return NZ
    unit = draw(st.sampled_from([1, 5]))
    return NZ.with_(
        **draw_play_settings(draw, decks=(1, 8), max_hands=(2, 4)),
        even_money=draw(st.booleans()),
        chip_unit=unit,
        table_minimum=unit * draw(st.integers(1, 3)),
    )


def calls(rnd: BlackjackRound, draw: Callable[..., Any]) -> tuple[str, Callable[[], object]]:
    """One call a player could make now: legal, illegal, or with bad values."""
    kind = draw(st.sampled_from(["legal", "any", "bad"]))
    players = [*rnd.bankrolls, "zed"]
    if kind == "bad":
        bad = draw(BAD_VALUES)
        name, call = draw(
            st.sampled_from(
                [
                    ("place_wager box", lambda: rnd.place_wager(bad, "ann", 10)),
                    ("place_wager amount", lambda: rnd.place_wager(1, "ann", bad)),
                    ("place_wager player", lambda: rnd.place_wager(1, bad, 10)),
                    ("withdraw_wager", lambda: rnd.withdraw_wager(bad, "ann")),
                    ("insure", lambda: rnd.insure(bad)),
                ]
            )
        )
        return name, call
    if rnd.phase is Phase.WAGERS and kind == "legal":
        if rnd.boxes and draw(st.booleans()):
            return "deal", rnd.deal
        box = draw(st.integers(1, 3))
        player = draw(st.sampled_from(players))
        amount = rnd.rules.table_minimum * draw(st.integers(1, 4))
        return "place_wager", lambda: rnd.place_wager(box, player, amount)
    if rnd.insurance_turn is not None and kind == "legal":
        if rnd.can_even_money() and draw(st.booleans()):
            return "even_money", rnd.even_money
        amount = rnd.rules.chip_unit * draw(st.integers(0, 3))
        return "insure", lambda: rnd.insure(amount)
    legal = rnd.legal_actions().names
    if kind == "legal" and hand_to_play(rnd) is not None and legal:
        action = draw(st.sampled_from(legal))
        return action, getattr(rnd, action)
    name = draw(
        st.sampled_from(
            ["hit", "stand", "double", "split", "surrender", "deal", "even_money", "insure"]
        )
    )
    if name == "insure":
        return name, lambda: rnd.insure(draw(st.integers(-5, 20)))
    return name, getattr(rnd, name)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rules_for_play(),
    cards=st.lists(st.sampled_from(list(full_deck())), max_size=16),
    burn=st.booleans(),
    data=st.data(),
)
def test_any_call_either_works_and_keeps_every_chip_or_raises_and_changes_nothing(
    rules: BlackjackRules, cards: list[Card], burn: bool, data: st.DataObject
) -> None:
    # a short stacked shoe (0-16 cards) makes the shoe run out at every possible point
    bankrolls = {"ann": 20 * rules.table_minimum, "bo": 3 * rules.table_minimum}
    rnd = BlackjackRound(rules, Shoe(rules.decks, cards=cards), bankrolls, burn=burn)
    total = sum(bankrolls.values())
    for _ in range(40):
        if rnd.phase is Phase.COMPLETE:
            break
        name, call = calls(rnd, data.draw)
        before = state(rnd)
        error: CroupierError | None = None
        try:
            call()
        except CroupierError as err:  # any other exception fails the test
            error = err
        if error is not None:
            event(f"refused: {type(error).__name__}")
            assert state(rnd) == before, name
            assert "\n" not in str(error)
            if isinstance(error, RuleViolationError):
                REGISTRY.get(error.rule)
        assert sum(rnd.bankrolls.values()) + rnd.on_table + rnd.bank == total, name
        assert all(type(v) is int for v in rnd.bankrolls.values())
    event(f"phase: {rnd.phase.value}")
    if rnd.phase is Phase.COMPLETE:
        assert rnd.on_table == 0
        assert sum(rnd.bankrolls.values()) + rnd.bank == total
