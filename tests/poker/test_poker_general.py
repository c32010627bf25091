"""Section 18 (general rules) and the definitions the engine enforces."""

from __future__ import annotations

import pytest
from helpers import cards_in_view, passive

from croupier.cards import Card, Deck, full_deck, parse_cards
from croupier.errors import DuplicateCardError
from croupier.poker import (
    HOLDEM,
    OMAHA,
    SEVEN_CARD_STUD,
    Chore,
    FixedLimit,
    HandState,
    NoLimit,
    TableRules,
)
from croupier.poker import events as ev
from croupier.poker.state import IllegalActionError, Phase


def holdem(stacks: dict[int, int] | None = None, **kwargs: object) -> HandState:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    return HandState(rules, stacks or {1: 500, 2: 500, 3: 500}, button=1, seed=11, **kwargs)  # type: ignore[arg-type]


@pytest.mark.rule("Poker 18.1")
def test_cards_never_leave_the_table_every_card_is_accounted_for() -> None:
    hand = holdem()
    passive(hand)
    held = [c for p in hand.players.values() for c in p.cards]
    assert sorted(held + hand.board + list(hand.deck.burned) + list(hand.deck.remaining)) == sorted(
        full_deck()
    )
    assert sorted(held + hand.board) == sorted(hand.deck.dealt)


@pytest.mark.rule("Poker 18.2")
def test_each_player_sees_only_their_own_down_cards() -> None:
    hand = holdem()
    for seat in hand.players:
        view = hand.view_for(seat)
        for shown in view.players:
            other = shown.seat
            expected = tuple(hand.players[other].down) if other == seat else (None, None)
            assert shown.down == expected
        assert not set(hand.players[seat % 3 + 1].down) & cards_in_view(view)
    spectator = hand.view_for(None)
    assert all(p.down == (None, None) for p in spectator.players)


@pytest.mark.rule("Poker 18.3")
def test_the_dealer_may_inspect_a_hand_only_once_it_is_over() -> None:
    hand = holdem()
    with pytest.raises(IllegalActionError) as info:
        hand.inspect(2)
    assert info.value.rule == "Poker 18.3"
    hand.fold()
    hand.fold()
    assert hand.is_complete
    assert hand.inspect(2) == hand.players[2].cards  # a folded hand may be inspected too


@pytest.mark.rule("Poker 18.4")
@pytest.mark.rule("Omaha 17.5(d)")
def test_a_hand_shown_on_request_is_shown_to_the_whole_table() -> None:
    hand = holdem()
    passive(hand)
    mucked = [e.seat for e in hand.events if isinstance(e, ev.HandMucked)]
    seat = mucked[0] if mucked else 2
    hand.request_show(seat)
    for viewer in (*hand.players, None):
        (player,) = [p for p in hand.view_for(viewer).players if p.seat == seat]
        assert player.down == tuple(hand.players[seat].down)


@pytest.mark.rule("Poker definitions: Ante")
def test_antes_go_in_before_any_card_is_dealt() -> None:
    rules = TableRules(SEVEN_CARD_STUD, FixedLimit(10, 20), blinds=(), ante=2, table_minimum=5)
    hand = HandState(rules, {1: 100, 2: 100, 3: 100}, button=3, seed=4)
    kinds = [type(e).__name__ for e in hand.events]
    assert kinds[1] == "DeckCut"  # Poker definitions: Cut, before anything is posted or dealt
    assert kinds[2:5] == ["AntePosted"] * 3
    assert kinds.index("CardsDealt") > 4
    assert hand.total_pot == 6 + hand.current_bet


@pytest.mark.rule("Poker definitions: Burn")
@pytest.mark.rule("Poker 3.3")
def test_burn_cards_are_hidden_and_apart_from_discards_one_deck() -> None:
    hand = holdem()
    passive(hand)
    burns = [e.card for e in hand.events if isinstance(e, ev.CardBurned)]
    assert burns == list(hand.deck.burned)
    assert len(burns) == 3
    assert not set(burns) & set(hand.deck.discards)
    assert all(not set(burns) & cards_in_view(hand.view_for(s)) for s in hand.players)
    assert len(set(hand.deck.dealt) | set(hand.deck.burned) | set(hand.deck.remaining)) == 52


@pytest.mark.rule("Poker definitions: Cards Speak")
def test_cards_speak_the_best_hand_wins_without_any_declaration() -> None:
    order = "As Kd 2c Ah Kc 3d"  # seat 2: As Ah, seat 3: Kd Kc, seat 1: 2c 3d
    deck = Deck.stacked(parse_cards(order) + tuple(c for c in full_deck()
                                                   if c not in parse_cards(order)))  # fmt: skip
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, {1: 500, 2: 500, 3: 500}, button=1, deck=deck)
    passive(hand)
    best = max(hand.hand_of(s) for s in (1, 2, 3))  # type: ignore[type-var]
    winners = {s for a in hand.awards for s, _ in a.shares}
    assert winners == {s for s in (1, 2, 3) if hand.hand_of(s) == best}


@pytest.mark.rule("Poker definitions: Dead Hand")
def test_a_conceded_hand_has_no_claim_on_the_pot() -> None:
    order = "2c As 3d 7h Ah 8d"  # seat 2 holds aces but gives the hand up
    deck = Deck.stacked(parse_cards(order) + tuple(c for c in full_deck()
                                                   if c not in parse_cards(order)))  # fmt: skip
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, {1: 500, 2: 500, 3: 500}, button=1, deck=deck, automatic=False)
    while hand.next_chore is not Chore.SHOWDOWN:
        if hand.phase is Phase.DEALER:
            hand.step()
        else:
            hand.check() if hand.can_check() else hand.call()
    with pytest.raises(IllegalActionError):
        hand.concede(9)
    hand.concede(2)
    while not hand.is_complete:
        hand.step()
    assert 2 not in {s for a in hand.awards for s, _ in a.shares}
    assert any(isinstance(e, ev.HandMucked) and e.seat == 2 for e in hand.events)


@pytest.mark.rule("Poker definitions: Defective Deck")
def test_a_deck_with_a_repeated_card_is_refused() -> None:
    with pytest.raises(DuplicateCardError):
        Deck([Card.parse("As"), Card.parse("As")], shuffle=False)
    assert len(set(Deck.standard(seed=1).remaining)) == 52


@pytest.mark.rule("Poker definitions: Tap Out")
@pytest.mark.rule("Poker definitions: Betting Round")
def test_tapping_out_for_less_than_a_raise_is_allowed_and_ends_the_round() -> None:
    rules = TableRules(OMAHA, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, {1: 500, 2: 500, 3: 60}, button=1, seed=2)
    hand.raise_to(40)  # seat 1
    hand.call()  # seat 2
    assert hand.legal_actions().raise_to == (60, 60)  # seat 3 (big blind) may only tap out
    hand.raise_to(60)
    assert hand.players[3].all_in
    legal = hand.legal_actions()  # seat 1 must answer the extra 20 but may not raise again
    assert (legal.actor, legal.call, legal.raise_to) == (1, 20, None)
    hand.call()
    hand.call()
    assert hand.street_name == "flop"  # every player has acted: the betting round is over
