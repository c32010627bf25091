"""Blackjack properties over random rule sets, random shoes and random legal play.

Each example draws a rule set (the NZ game or a variant), a one-deck shoe in a random order,
some players and wagers, then plays the round to the end choosing among the legal actions
(``st.data()``), now and then trying an illegal one. At every step chips are conserved
across players, boxes and bank; illegal actions raise and leave the round unchanged. At the
end the round is settled, every card dealt is exactly the shoe's next card (none twice), the
settlement events account for every chip, and replaying the log rebuilds the same round.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest
from bj_helpers import draw_play_settings, hand_to_play
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from croupier.blackjack import (
    NZ,
    BlackjackRound,
    BlackjackRules,
    BlackjackTable,
    Phase,
    hand_total,
)
from croupier.blackjack import events as ev
from croupier.cards import Card, Rank, Shoe, full_deck
from croupier.errors import IllegalActionError
from croupier.rules import load_registry

ACTIONS = ("hit", "stand", "double", "split", "surrender")
PLAYERS = ("ann", "bo", "cy")
REGISTRY = load_registry()


@st.composite
def rule_sets(draw: st.DrawFn) -> BlackjackRules:
    """The NZ game or a variant of every setting."""
    if draw(st.booleans()):
        return NZ
    unit = draw(st.sampled_from([1, 2, 5]))
    minimum = unit * draw(st.integers(1, 4))
    return NZ.with_(
        **draw_play_settings(draw, decks=(1, 8), max_hands=(2, 4)),
        even_money=draw(st.booleans()),
        chip_unit=unit,
        table_minimum=minimum,
        table_maximum=minimum * draw(st.integers(1, 20)),
    )


# ranks that make pairs, blackjacks, soft hands and double-down totals when dealt together
LIVELY = (Rank.ACE, Rank.EIGHT, Rank.NINE, Rank.KING, Rank.QUEEN, Rank.FIVE, Rank.SIX)


@st.composite
def one_deck_orders(draw: st.DrawFn) -> list[Card]:
    """A 52-card order: random, or with its first cards drawn from a few lively ranks (so
    pairs, resplits, blackjacks and dealer aces are common), the rest in random order."""
    order: list[Card] = draw(st.permutations(full_deck()))
    alphabet = draw(st.lists(st.sampled_from(LIVELY), min_size=1, max_size=3, unique=True))
    front_ranks = draw(st.lists(st.sampled_from(alphabet), max_size=14))
    front: list[Card] = []
    for rank in front_ranks:
        spare = [c for c in order if c.rank == rank and c not in front]
        if spare:
            front.append(spare[0])
    return front + [c for c in order if c not in front]


def chips(rnd: BlackjackRound) -> int:
    """Every chip in the round: off the table, on the layout, and the bank's net."""
    return sum(rnd.bankrolls.values()) + rnd.on_table + rnd.bank


def dealt_cards(rnd: BlackjackRound) -> list[Card]:
    """The cards that left the shoe, in order, burns included."""
    return [
        e.card for e in rnd.events if isinstance(e, ev.CardBurned | ev.CardDealt | ev.DealerCard)
    ]


def even_money_is_broken(rnd: BlackjackRound) -> bool:
    """Known bugs (see test_bj_rules): even money is offered, then taken as an insurance of
    min(half the wager, the player's chips), which raises when that is not in chips. Keep the
    property runs off those paths."""
    turn = rnd.insurance_turn
    assert turn is not None
    half = rnd.boxes[turn[0]].wagers[turn[1]] // 2
    return half % rnd.rules.chip_unit != 0 or rnd.bankrolls[turn[1]] < half


def illegal_calls(rnd: BlackjackRound) -> list[tuple[str, Callable[[], object]]]:
    """Calls that the round must refuse now."""
    calls: list[tuple[str, Callable[[], object]]] = []
    legal = rnd.legal_actions().names
    for action in ACTIONS:
        if action not in legal:
            calls.append((action, getattr(rnd, action)))
    if rnd.phase is not Phase.WAGERS:
        calls.append(("deal", rnd.deal))
        calls.append(("place_wager", lambda: rnd.place_wager(1, "ann", rnd.rules.table_minimum)))
    turn = rnd.insurance_turn
    if turn is None:
        calls.append(("insure", lambda: rnd.insure(0)))
    else:
        too_much = rnd.boxes[turn[0]].wagers[turn[1]] // 2 + rnd.rules.chip_unit
        calls.append(("insure", lambda: rnd.insure(too_much)))
        calls.append(("insure", lambda: rnd.insure(-1)))
    if not rnd.can_even_money():
        calls.append(("even_money", rnd.even_money))
    return calls


def check_legal_actions(rnd: BlackjackRound) -> None:
    """``legal_actions`` agrees with every ``can_`` check."""
    legal = rnd.legal_actions().names
    if rnd.insurance_turn is not None:
        assert legal == (("insure", "even money") if rnd.can_even_money() else ("insure",))
        assert hand_to_play(rnd) is None
    for action in ACTIONS:
        assert (action in legal) is getattr(rnd, f"can_{action}")()
    if hand_to_play(rnd) is None:
        assert not set(legal) & set(ACTIONS)


def try_illegal(rnd: BlackjackRound, data: st.DataObject) -> None:
    """Make one illegal call: it raises with a registered rule and changes nothing."""
    name, call = data.draw(st.sampled_from(illegal_calls(rnd)), label="illegal")
    before = rnd.snapshot()
    with pytest.raises(IllegalActionError) as err:
        call()
    REGISTRY.get(err.value.rule)  # every refusal cites a rule of the registry
    assert rnd.snapshot() == before, name


def place_wagers(
    rnd: BlackjackRound, rules: BlackjackRules, data: st.DataObject, boxes: int
) -> None:
    """ann's minimum on box 1, then some more wagers (illegal ones must be refused)."""
    rnd.place_wager(1, "ann", rules.table_minimum)
    extra = data.draw(
        st.lists(
            st.tuples(
                st.integers(1, boxes),
                st.sampled_from(PLAYERS),
                st.integers(1, 6).map(lambda k: k * rules.table_minimum),
            ),
            max_size=4,
        ),
        label="wagers",
    )
    for box, player, amount in extra:
        if rnd.can_place_wager(box, player, amount):
            rnd.place_wager(box, player, amount)
        else:
            before = rnd.snapshot()
            with pytest.raises(IllegalActionError):
                rnd.place_wager(box, player, amount)
            assert rnd.snapshot() == before


def play_out(
    rnd: BlackjackRound, data: st.DataObject, total: int, checkpoints: list[int] | None = None
) -> None:
    """Play to settlement with random legal choices, checking chips at every step."""
    steps = 0
    while rnd.phase is not Phase.COMPLETE:
        steps += 1
        assert steps < 200, "the round does not end"
        assert chips(rnd) == total
        check_legal_actions(rnd)
        if data.draw(st.integers(0, 3), label="try illegal") == 0:
            try_illegal(rnd, data)
        if checkpoints is not None:
            checkpoints.append(len(rnd.events))
        turn = rnd.insurance_turn
        if turn is not None:
            wager = rnd.boxes[turn[0]].wagers[turn[1]]
            unit = rnd.rules.chip_unit
            amounts = [a for a in range(0, wager // 2 + 1, unit) if rnd.can_insure(a)]
            assert 0 in amounts
            choices: list[str | int] = list(amounts)
            if rnd.can_even_money() and not even_money_is_broken(rnd):
                choices.append("even money")
            choice = data.draw(st.sampled_from(choices), label="insurance")
            event(f"insurance: {'even money' if choice == 'even money' else bool(choice)}")
            if choice == "even money":
                rnd.even_money()
            else:
                assert isinstance(choice, int)
                rnd.insure(choice)
            continue
        legal = rnd.legal_actions().names
        assert hand_to_play(rnd) is not None
        assert legal, "a hand to act has no legal action"
        rare = [a for a in legal if a in ("split", "double", "surrender")]  # weighted up
        action = data.draw(st.sampled_from(legal + tuple(rare)), label="action")
        event(f"action: {action}")
        getattr(rnd, action)()
    assert chips(rnd) == total


def check_settled(rnd: BlackjackRound, start: dict[str, int]) -> None:
    """The round is over and its settlement events account for every chip."""
    assert rnd.phase is Phase.COMPLETE
    assert hand_to_play(rnd) is None
    assert rnd.insurance_turn is None
    assert rnd.legal_actions().names == ()
    assert rnd.on_table == 0
    last = rnd.events[-1]
    assert isinstance(last, ev.DealEnded)
    assert dict(last.bankrolls) == rnd.bankrolls
    assert last.bank == rnd.bank
    hands = Counter((e.box, e.hand, e.player) for e in rnd.events if isinstance(e, ev.HandSettled))
    expected = {
        (number, index, player)
        for number, box in rnd.boxes.items()
        for index, _ in enumerate(box.hands)
        for player in box.wagers
    }
    assert set(hands) == expected
    assert all(count == 1 for count in hands.values())
    nets = Counter[str]()
    for e in rnd.events:
        if isinstance(e, ev.HandSettled | ev.InsuranceSettled):
            nets[e.player] += e.net
    for player, chips_before in start.items():
        assert rnd.bankrolls[player] == chips_before + nets[player]
    assert rnd.bank == -sum(nets.values())


def check_dealer(rnd: BlackjackRound) -> None:
    """The dealer drew to 17 (hitting soft 17 under H17) whenever a hand needed it."""
    total, soft = hand_total(rnd.dealer_cards)
    live = [
        h
        for box in rnd.boxes.values()
        for h in box.hands
        if not h.busted and not h.surrendered and not h.is_blackjack
    ]
    dealer_blackjack = len(rnd.dealer_cards) == 2 and total == 21
    if live and not dealer_blackjack:
        assert total >= 17
        if total == 17 and soft:
            assert not rnd.rules.dealer_hits_soft_17
        before = hand_total(rnd.dealer_cards[:-1])
        if len(rnd.dealer_cards) > 2:
            assert before[0] < 17 or (before == (17, True) and rnd.rules.dealer_hits_soft_17)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), order=one_deck_orders(), data=st.data())
def test_random_rounds_conserve_chips_deal_each_card_once_settle_and_replay(
    rules: BlackjackRules, order: list[Card], data: st.DataObject
) -> None:
    start = {
        player: data.draw(st.integers(rules.table_minimum, 40 * rules.table_minimum), label=player)
        for player in PLAYERS
    }
    burn = data.draw(st.booleans(), label="burn")
    rnd = BlackjackRound(rules, Shoe(1, cards=order), start, burn=burn)
    total = sum(start.values())
    boxes = 2 if rules.max_hands == 4 else 3  # at most 9 hands: a 52-card shoe always lasts
    place_wagers(rnd, rules, data, boxes)
    assert chips(rnd) == total
    rnd.deal()
    checkpoints: list[int] = []
    play_out(rnd, data, total, checkpoints)
    check_settled(rnd, start)
    check_dealer(rnd)
    event(f"hands: {sum(len(b.hands) for b in rnd.boxes.values())}")
    for settlement in rnd.events:
        if isinstance(settlement, ev.HandSettled):
            event(f"outcome: {settlement.outcome}")
    # the cards are the shoe's top cards, in order, none twice; burns are kept apart
    cards = dealt_cards(rnd)
    assert cards == list(order[: len(cards)])
    assert len(set(cards)) == len(cards)
    assert len(rnd.shoe) == 52 - len(cards)
    assert len(rnd.shoe.burned) == int(burn)
    in_play = [c for box in rnd.boxes.values() for h in box.hands for c in h.cards]
    in_play += rnd.dealer_cards
    assert Counter(in_play) == Counter(cards[int(burn) :])
    # replaying the log rebuilds the round, at the end and at any point along the way
    assert BlackjackRound.replay(rules, rnd.events).snapshot() == rnd.snapshot()
    if checkpoints:
        cut = data.draw(st.sampled_from(checkpoints), label="replay point")
        partial = BlackjackRound.replay(rules, rnd.events[:cut])
        assert tuple(partial.events) == tuple(rnd.events[:cut])
        assert partial.phase is not Phase.WAGERS


@settings(max_examples=40, deadline=None)
@given(
    decks=st.integers(4, 8),
    cut=st.sampled_from([Fraction(1, 20), Fraction(1, 8), Fraction(1, 4)]),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_table_conserves_chips_and_reshuffles_after_the_cut_card(
    decks: int, cut: Fraction, seed: int, data: st.DataObject
) -> None:
    rules = NZ.with_(decks=decks, penetration=cut)
    table = BlackjackTable(rules, seed=seed)
    bankrolls = {"ann": 5_000, "bo": 5_000}
    total = sum(bankrolls.values())
    house = 0
    for _ in range(12):
        was_reached = table.shoe.cut_card_reached
        shuffles = table.shuffles
        fresh = len(table.shoe) == 52 * decks
        rnd = table.new_round(bankrolls)
        assert table.shuffles == shuffles + int(was_reached)
        new_shoe = was_reached or fresh
        if new_shoe:
            assert len(table.shoe) == 52 * decks
        rnd.place_wager(1, "ann", 10)
        rnd.place_wager(2, "bo", 20)
        rnd.deal()
        burns = [e for e in rnd.events if isinstance(e, ev.CardBurned)]
        assert len(burns) == int(new_shoe)
        play_out(rnd, data, total - house)
        check_settled(rnd, bankrolls)
        house += rnd.bank
        bankrolls = rnd.bankrolls
        assert sum(bankrolls.values()) + house == total
    assert table.shuffles >= 1 or cut == Fraction(1, 4)
