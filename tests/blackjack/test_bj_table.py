"""The engine's blackjack table: boxes and backing, changes that wait for the round in play,
the ledger, bots' turns, and the shoe's commitment hook. The real engine throughout (real
shoes, real rounds, real policies); no mocks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.blackjack import events as ev
from croupier.blackjack.actions import (
    Action,
    HandAction,
    InsuranceAction,
    PlaceWager,
    Split,
    WithdrawWager,
)
from croupier.blackjack.bots import gut_bot
from croupier.blackjack.hands import Phase, Play
from croupier.blackjack.policies import Policy, mimic_the_dealer
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import NZ
from croupier.blackjack.seating import (
    BoxError,
    ChipsBought,
    NewShoe,
    PlayerLeft,
    PlayerSeated,
    PolicyFailed,
    TableEvent,
)
from croupier.blackjack.table import BlackjackTable, default_play
from croupier.blackjack.views import SeatView
from croupier.cards import Shoe, parse_cards
from croupier.errors import CroupierError
from croupier.fairness import DeckReveal, commit_deck

CARD_EVENTS = (ev.CardBurned, ev.CardDealt, ev.DealerCard)


def random_policy(rng: random.Random) -> Policy:
    """Any legal decision."""

    def policy(view: SeatView) -> Action:
        assert view.legal is not None
        decisions = [a for a in view.legal.actions() if isinstance(a, HandAction | InsuranceAction)]
        return rng.choice(decisions)

    return policy


def broken(view: SeatView) -> Action:
    raise RuntimeError("bot crashed")


def stacked(cards: str) -> BlackjackTable:
    """A table whose first shoe deals ``cards`` in order (a new shoe: the first is burnt)."""
    return BlackjackTable(NZ, shoe=Shoe(6, cards=parse_cards(cards, unique=False)))


# ------------------------------------------------------------------------------ seating
def test_sitting_at_boxes_and_the_refusals() -> None:
    table = BlackjackTable(NZ, boxes=3, seed=1)
    assert table.sit("ann", 2, 100) == 2
    assert table.sit("bo", None, 50) == 1  # the first free box
    assert table.owners == {1: "bo", 2: "ann"}
    assert table.players == ("bo", "ann")
    assert table.chips == {"bo": 50, "ann": 100}
    assert table.free_boxes == (3,)
    cases: list[tuple[str, int | None, int, str]] = [
        ("cy", 2, 10, "box 2 is not free at the table"),
        ("cy", 4, 10, "there is no box 4 at the table: boxes 1..3"),
        ("cy", 0, 10, "there is no box 0"),
        ("cy", None, -1, "cy's chips cannot be negative: -1"),
        ("ann", 3, 10, "ann already sits at box 2"),
        ("", 3, 10, "non-empty string"),
    ]
    for name, box, chips, message in cases:
        with pytest.raises(BoxError, match=message):
            table.sit(name, box, chips)
    for call in (table.leave, table.sit_out, table.sit_in):
        with pytest.raises(BoxError, match="nobody has no box at the table"):
            call("nobody")
    with pytest.raises(BoxError, match="nobody has no box"):
        table.rebuy("nobody", 10)
    with pytest.raises(BoxError, match="1 chip or more"):
        table.rebuy("ann", 0)
    table.sit("cy", None, 10)
    with pytest.raises(BoxError, match="the table is full"):
        table.sit("di", None, 10)
    assert table.leave("bo") == 50
    assert table.free_boxes == (1,)
    named = BlackjackTable(NZ, boxes=1, name="bj")
    named.sit("ann", 1, 10)
    with pytest.raises(BoxError, match=r"^box 1 is not free at bj$"):
        named.sit("bo", 1, 10)
    with pytest.raises(BoxError, match="a table has 1 to 7 boxes"):
        BlackjackTable(NZ, boxes=8)


def test_a_player_may_own_several_boxes() -> None:
    table = BlackjackTable(NZ, boxes=3, seed=2)
    table.sit("ann", 1, 100)
    assert table.add_box("ann") == 2
    with pytest.raises(BoxError, match="box 2 is not free"):
        table.add_box("ann", 2)
    rnd = table.new_round()
    assert rnd.bankrolls == {"ann": 100}
    for box in (1, 2):
        table.wager(rnd, PlaceWager(box, "ann", 10))
    with pytest.raises(BoxError, match="between rounds"):
        table.add_box("ann", 3)
    rnd.deal()
    assert {b.owner for b in rnd.boxes.values()} == {"ann"}
    assert table.leave("ann") is None  # after the round
    while not rnd.is_complete:
        default_play(rnd)
    table.finish_round(rnd)
    left = [e for e in table.events if isinstance(e, PlayerLeft)]
    assert left == [PlayerLeft("ann", (1, 2), rnd.bankrolls["ann"])]
    assert table.owners == {}


@pytest.mark.rule("Blackjack 4.2")
def test_backing_a_box_once_its_owner_has_wagered_and_the_owner_decides() -> None:
    table = BlackjackTable(NZ, boxes=3, seed=3)
    table.sit("ann", 1, 100)
    table.sit("bo", 2, 100)
    rnd = table.new_round()
    for early in (PlaceWager(1, "bo", 10), PlaceWager(3, "bo", 10)):  # no owner's wager yet
        with pytest.raises(BoxError, match=f"box {early.box} may be backed once its owner"):
            table.wager(rnd, early)
    assert rnd.boxes == {}
    table.wager(rnd, PlaceWager(1, "ann", 10))
    table.wager(rnd, PlaceWager(1, "bo", 20))  # backing ann's box
    assert rnd.boxes[1].wagers == {"ann": 10, "bo": 20}
    with pytest.raises(BoxError, match="box 1 is backed: its owner's wager stays"):
        table.wager(rnd, WithdrawWager(1, "ann"))
    table.wager(rnd, WithdrawWager(1, "bo"))  # a backer may take his wager back
    table.wager(rnd, PlaceWager(1, "bo", 20))
    with pytest.raises(CroupierError):  # the round's own limits still apply
        table.wager(rnd, PlaceWager(2, "bo", 100_000))
    rnd.deal()
    while not rnd.is_complete:
        actor = rnd.actor
        assert actor is not None
        if actor.hand is not None:
            assert actor.player == "ann"  # the owner decides for the box he was backed on
        default_play(rnd)
    done = table.finish_round(rnd)
    assert sum(c for _, c in done.chips) + done.bank == 200


# ------------------------------------------------------------------------------ after the round
def test_changes_during_a_round_take_effect_after_it() -> None:
    seen: list[TableEvent] = []
    table = BlackjackTable(NZ, boxes=4, seed=4, ledger=seen.append)
    table.sit("ann", 1, 100)
    table.sit("bo", 2, 100)
    rnd = table.new_round()
    assert table.sit("cy", 3, 60) is None  # waits for the round
    assert table.waiting == {"cy": 3}
    assert table.free_boxes == (4,)  # his box is kept for him
    with pytest.raises(BoxError, match="box 3 is not free"):
        table.sit("di", 3, 10)
    with pytest.raises(BoxError, match="cy is already waiting"):
        table.sit("cy", 4, 10)
    assert table.leave("bo") is None
    table.rebuy("ann", 40, most=150)
    with pytest.raises(BoxError, match="a rebuy of 20 would make 160: at most 150 here"):
        table.rebuy("ann", 20, most=150)  # counts the rebuy waiting
    assert table.owners == {1: "ann", 2: "bo"}
    assert table.chips == {"ann": 100, "bo": 100}
    assert table.leaving == {"bo"}
    assert [type(e) for e in seen] == [PlayerSeated, PlayerSeated]  # nothing done yet
    assert "cy" not in rnd.bankrolls
    table.wager(rnd, PlaceWager(1, "ann", 10))
    table.wager(rnd, PlaceWager(2, "bo", 10))
    rnd.deal()
    while not rnd.is_complete:
        default_play(rnd)
    ann, bo = rnd.bankrolls["ann"], rnd.bankrolls["bo"]
    table.finish_round(rnd)
    assert seen[2:] == [
        PlayerLeft("bo", (2,), bo),
        PlayerSeated("cy", 3, 60),
        ChipsBought("ann", 40, ann + 40),
    ]
    assert table.owners == {1: "ann", 3: "cy"}
    assert table.chips == {"ann": ann + 40, "cy": 60}
    assert table.waiting == {}
    assert table.leaving == frozenset()
    nxt = table.new_round()
    assert nxt.bankrolls == {"ann": ann + 40, "cy": 60}


def test_a_dropped_round_makes_the_changes_too_and_keeps_the_burn() -> None:
    table = BlackjackTable(NZ, boxes=3, seed=5)
    table.sit("ann", 1, 100)
    rnd = table.new_round()
    start = rnd.events[0]
    assert isinstance(start, ev.RoundStarted)
    assert start.burn
    table.sit("bo", 2, 50)
    table.wager(rnd, PlaceWager(1, "ann", 10))
    with pytest.raises(BoxError, match="has wagers"):
        table.drop_round(rnd)
    table.wager(rnd, WithdrawWager(1, "ann"))
    table.drop_round(rnd)
    assert table.round_number == 0
    assert table.owners == {1: "ann", 2: "bo"}
    again = table.new_round()
    first = again.events[0]
    assert isinstance(first, ev.RoundStarted)
    assert first.burn  # the new shoe's first card is still to be burnt
    assert table.round_number == 1


def test_a_ledger_that_refuses_leaves_the_table_as_it_was() -> None:
    def ledger(event: TableEvent) -> None:
        if isinstance(event, PlayerLeft | ChipsBought):
            raise CroupierError("the store refused the write")

    table = BlackjackTable(NZ, seed=6, ledger=ledger)
    table.sit("ann", 2, 100)
    with pytest.raises(CroupierError, match="refused"):
        table.leave("ann")
    with pytest.raises(CroupierError, match="refused"):
        table.rebuy("ann", 10)
    assert table.owners == {2: "ann"}
    assert table.chips == {"ann": 100}


def test_round_bookkeeping_is_checked() -> None:
    table = BlackjackTable(NZ, seed=7)
    with pytest.raises(BoxError, match="nobody sits"):
        table.new_round()
    table.sit("ann", 1, 100)
    rnd = table.new_round()
    other = BlackjackTable(NZ, seed=7).new_round({"ann": 100})  # an untracked round
    assert table.round is rnd
    with pytest.raises(BoxError, match="not the round in play"):
        table.finish_round(other)
    with pytest.raises(BoxError, match="not settled"):
        table.finish_round(rnd)
    with pytest.raises(BoxError, match="still in play"):
        table.new_round()
    with pytest.raises(BoxError, match="between rounds"):
        table.change_shoe()


# ------------------------------------------------------------------------------ bots
def test_a_bots_illegal_play_falls_back_to_the_default_and_is_reported() -> None:
    # burn 2c; bot T 8 = 18 (no pair) against 9 9
    table = stacked("2c Tc 9d 8h 9c")
    table.sit("bot", 1, 100, policy=lambda view: Split(box=1, hand=0))
    rnd = table.new_round()
    assert table.bots_wager(rnd, 10) == [ev.WagerPlaced(1, "bot", 10)]
    rnd.deal()
    failed = table.policy_acts(rnd)
    assert failed is not None
    assert failed.player == "bot"
    assert (failed.box, failed.hand, failed.action) == (1, 0, "stands")
    assert failed.reason.startswith("IllegalActionError")
    assert table.events[-1] == failed
    assert ev.BoxAction(1, 0, Play.STAND) in rnd.events
    assert rnd.is_complete
    assert rnd.bankrolls == {"bot": 100}  # 18 against 18


@pytest.mark.parametrize(
    ("policy", "reason"),
    [
        (broken, "RuntimeError: bot crashed"),
        (lambda view: None, "no decision"),
        (lambda view: "stand", "not a decision: 'stand'"),
        (lambda view: PlaceWager(1, "bot", 10), "not a decision: PlaceWager"),
    ],
)
def test_every_failing_policy_makes_the_default_play(policy: Policy, reason: str) -> None:
    table = stacked("2c Tc 9d 8h 9c")
    table.sit("bot", 1, 100, policy=policy)
    rnd = table.new_round()
    table.bots_wager(rnd, 10)
    rnd.deal()
    assert table.play_bots(rnd) == [table.events[-1]]
    failed = table.events[-1]
    assert isinstance(failed, PolicyFailed)
    assert failed.reason.startswith(reason)
    assert failed.describe().endswith("bot stands")
    assert rnd.is_complete


def test_a_legal_play_is_applied_and_nothing_is_reported() -> None:
    table = stacked("2c Tc 9d 8h 9c")
    table.sit("bot", 1, 100, policy=gut_bot)
    rnd = table.new_round()
    table.bots_wager(rnd, 10)
    rnd.deal()
    assert table.policy_acts(rnd) is None
    assert not any(isinstance(e, PolicyFailed) for e in table.events)
    with pytest.raises(BoxError, match="no decision is due"):
        table.policy_acts(rnd)


def test_play_bots_stops_at_a_person() -> None:
    for seed in range(50):
        table = BlackjackTable(NZ, boxes=2, seed=seed)
        table.sit("ann", 1, 100)
        table.sit("bot", 2, 100, policy=mimic_the_dealer)
        rnd = table.new_round()
        table.wager(rnd, PlaceWager(1, "ann", 10))
        table.bots_wager(rnd, 10)
        rnd.deal()
        table.play_bots(rnd)
        if rnd.is_complete:
            continue
        assert rnd.actor is not None
        assert rnd.actor.player == "ann"
        with pytest.raises(BoxError, match="ann is not a bot"):
            table.policy_acts(rnd)
        return
    raise AssertionError("ann never had a decision to make")


# ------------------------------------------------------------------------------ the shoe
def test_the_commitment_hook_runs_once_a_shoe_before_its_first_card() -> None:
    log: list[tuple[str, int, object]] = []
    reveals: dict[int, DeckReveal] = {}
    table: BlackjackTable

    def commit(number: int, shoe: Shoe) -> None:
        assert table.round is None  # the round does not exist yet: no card of it either
        assert len(shoe) == 6 * 52
        assert shoe.burned == ()
        commitment, reveal = commit_deck(shoe.remaining)
        reveals[number] = reveal
        log.append(("commit", number, commitment.digest))

    rules = NZ.with_(penetration=Fraction(1, 4))  # reshuffles often
    table = BlackjackTable(rules, boxes=3, strict_nz=False, seed=8, commit=commit)
    for box in (1, 2, 3):
        table.sit(f"bot{box}", box, 10_000, policy=gut_bot)
    offsets: dict[int, int] = {}
    for _ in range(120):
        rnd = table.new_round()
        number = table.shoe_number
        start = rnd.events[0]
        assert isinstance(start, ev.RoundStarted)
        reveal = reveals[number]
        offset = len(reveal.order) - len(start.shoe)
        assert offset == offsets.get(number, 0)  # rounds take the shoe's cards in order
        assert reveal.order[offset:] == start.shoe
        table.bots_wager(rnd, 10)
        rnd.deal()
        table.play_bots(rnd)
        cards = [e.card for e in rnd.events if isinstance(e, CARD_EVENTS)]
        assert tuple(cards) == reveal.order[offset : offset + len(cards)]  # the committed shoe
        assert start.burn == (offset == 0)
        offsets[number] = offset + len(cards)
        log.append(("cards", number, len(cards)))
        table.finish_round(rnd)
    shoes = [n for kind, n, _ in log if kind == "commit"]
    assert shoes == list(range(1, len(shoes) + 1))  # once a shoe, numbered in order
    assert len(shoes) >= 4
    for number in shoes:  # no card of a shoe before its commitment
        first_card = next(i for i, (k, n, _) in enumerate(log) if k == "cards" and n == number)
        assert log.index(("commit", number, reveals[number].commitment.digest)) < first_card
    assert [e.number for e in table.events if isinstance(e, NewShoe)] == shoes
    assert table.shuffles == len(shoes) - 1


def test_a_changed_shoe_is_new_and_committed_and_the_maker_makes_it() -> None:
    made: list[int] = []
    committed: list[int] = []

    def maker(number: int) -> Shoe:
        made.append(number)
        return Shoe(6, seed=number)

    table = BlackjackTable(
        NZ, seed=9, shoes=maker, shoe_number=3, commit=lambda n, shoe: committed.append(n)
    )
    table.sit("ann", 1, 100)
    rnd = table.new_round()
    assert (made, committed, table.shoe_number) == ([3], [3], 3)
    table.wager(rnd, PlaceWager(1, "ann", 10))
    rnd.deal()
    while not rnd.is_complete:
        default_play(rnd)
    table.finish_round(rnd)
    table.change_shoe(7)
    rnd = table.new_round()
    assert (made, committed, table.shoe_number) == ([3, 7], [3, 7], 7)
    assert len(rnd.shoe) == 6 * 52
    start = rnd.events[0]
    assert isinstance(start, ev.RoundStarted)
    assert start.burn


def test_a_resumed_round_is_played_on_and_finished() -> None:
    table = BlackjackTable(NZ, seed=10)
    table.sit("ann", 2, 100)
    rnd = table.new_round()
    table.wager(rnd, PlaceWager(2, "ann", 10))
    rnd.deal()
    again = BlackjackTable(NZ, seed=99, commit=lambda n, shoe: pytest.fail("no new commit"))
    again.sit("ann", 2, 100)
    replayed = BlackjackRound.replay(NZ, rnd.events)
    again.resume_round(replayed, shoe=rnd.shoe.copy(), shoe_number=1, number=4)
    replayed.shoe = again.shoe
    while not replayed.is_complete:
        default_play(replayed)
    assert again.finish_round(replayed).number == 4
    assert again.chips == {"ann": replayed.bankrolls["ann"]}


@pytest.mark.parametrize("seed", range(12))
def test_a_round_resumed_on_the_tables_shoe_deals_what_the_original_deals(seed: int) -> None:
    """Found in review: a resumed round given the table's shoe drew the players' cards from
    the replay's own shoe, and the dealer drew them again. Every part now draws from the
    shoe the round is given."""
    table = BlackjackTable(NZ, seed=seed)
    table.sit("ann", 2, 100)
    rnd = table.new_round()
    table.wager(rnd, PlaceWager(2, "ann", 10))
    rnd.deal()
    replayed = BlackjackRound.replay(NZ, rnd.events)
    replayed.shoe = rnd.shoe.copy()
    for played in (rnd, replayed):
        while not played.is_complete:
            if played.can_hit() and len(played.events) < 12:  # a hit or two, then the default
                played.hit()
            else:
                default_play(played)
    assert replayed.events == rnd.events
    assert replayed.shoe.remaining == rnd.shoe.remaining


# ------------------------------------------------------------------------------ chips
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(10, 60))
def test_chips_are_conserved_over_many_rounds_with_bots(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    bought: dict[str, int] = {}
    paid: dict[str, int] = {}

    def ledger(event: TableEvent) -> None:
        if isinstance(event, PlayerSeated):
            bought[event.name] = bought.get(event.name, 0) + event.chips
        elif isinstance(event, ChipsBought):
            bought[event.name] = bought.get(event.name, 0) + event.amount
        elif isinstance(event, PlayerLeft):
            paid[event.name] = paid.get(event.name, 0) + event.chips

    rules = NZ.with_(penetration=Fraction(1, 3))
    table = BlackjackTable(rules, boxes=5, strict_nz=False, seed=seed, ledger=ledger)
    policies: list[Policy] = [gut_bot, mimic_the_dealer, random_policy(rng), broken]
    names = [f"p{i}" for i in range(8)]
    bank = 0
    for _ in range(steps):
        rnd = table.new_round() if table.players else None
        for _ in range(rng.randrange(3)):  # seating changes, during the round or between
            name = rng.choice(names)
            if table.seat_of(name) is None and table.free_boxes and name not in table.waiting:
                table.sit(name, None, rng.randrange(0, 300), policy=rng.choice(policies))
            elif table.seat_of(name) is not None:
                if rng.random() < 0.5:
                    table.leave(name)
                else:
                    table.rebuy(name, rng.randrange(1, 100))
        if rnd is None:
            continue
        for box, name in table.owners.items():  # backing too, once an owner has wagered
            amount = rng.choice([10, 20, 50])
            if name in rnd.bankrolls and rnd.can_place_wager(box, name, amount):
                table.wager(rnd, PlaceWager(box, name, amount))
                backer = rng.choice(list(rnd.bankrolls))
                if backer != name and rnd.can_place_wager(box, backer, 10):
                    table.wager(rnd, PlaceWager(box, backer, 10))
        if not rnd.boxes:
            table.drop_round(rnd)
            continue
        rnd.deal()
        table.play_bots(rnd)
        assert rnd.is_complete or rnd.phase is Phase.COMPLETE
        bank += table.finish_round(rnd).bank
    on_table = sum(table.chips.values())
    assert sum(bought.values()) == on_table + sum(paid.values()) + bank
    if table.round is None and table.players:
        assert sum(table.new_round().bankrolls.values()) == on_table


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda t: t.leave(["x"]), "a player is named by a non-empty string"),
        (lambda t: t.sit_out(["x"]), "a player is named by a non-empty string"),
        (lambda t: t.sit_in({}), "a player is named by a non-empty string"),
        (lambda t: t.is_bot(["x"]), "a player is named by a non-empty string"),
        (lambda t: t.rebuy("ann", 5, most="x"), "a table's most is a whole number"),
        (lambda t: t.change_shoe("x"), "shoes are numbered from 1"),
        (lambda t: t.verify_wager(t.new_round(), "x"), "a wager is a PlaceWager or"),
    ],
)
def test_bad_input_to_the_table_is_refused_in_one_line(
    call: Callable[[BlackjackTable], object], says: str
) -> None:
    """Found in review: these raised TypeError or AttributeError."""
    table = BlackjackTable(NZ, seed=3)
    table.sit("ann", 2, 100)
    with pytest.raises(CroupierError, match=says):
        call(table)


def test_a_hook_that_is_not_callable_is_refused_when_the_table_is_made() -> None:
    with pytest.raises(CroupierError, match=r"^commit must be callable, not 5$"):
        BlackjackTable(NZ, commit=5)  # type: ignore[arg-type]


def test_bad_bankrolls_keep_the_new_shoes_burn_for_the_next_round() -> None:
    table = BlackjackTable(NZ, seed=4)
    with pytest.raises(CroupierError):
        table.new_round({"": 5})
    start = table.new_round({"ann": 5}).events[0]
    assert isinstance(start, ev.RoundStarted)
    assert start.burn
