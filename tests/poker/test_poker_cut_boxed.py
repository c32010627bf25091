"""The cut and boxed cards (Poker definitions: Cut, Boxed Card, Defective Deck).

Every deal records its cut: a random cut point from the hand's random source when croupier
shuffles, or the cut a live dealer reports for a deck it hands over. A boxed card reported
by the dealer is shown to everyone and set aside like a burn card; a fifth one makes the
deck defective.
"""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.cards import Card, Deck, full_deck
from croupier.errors import CroupierError, IllegalActionError
from croupier.poker import HOLDEM, OMAHA, HandState, NoLimit, PotLimit, TableRules
from croupier.poker import events as ev
from croupier.poker.state import Phase

RULES = TableRules(HOLDEM, NoLimit(), blinds=(5, 10))


@pytest.mark.rule("Poker definitions: Cut")
def test_every_shuffled_deal_is_cut_at_a_random_point_and_replays() -> None:
    cuts: Counter[int] = Counter()
    for seed in range(200):
        hand = HandState(RULES, {1: 100, 2: 100, 3: 100}, 1, seed=seed)
        cut = hand.events[1]
        assert isinstance(cut, ev.DeckCut)
        assert cut.position is not None
        assert 1 <= cut.position <= 51  # a real cut: never the whole deck, never nothing
        cuts[cut.position] += 1
        start = hand.events[0]
        assert isinstance(start, ev.HandStarted)
        # the recorded order is the order dealt: replay gives the same hand
        assert HandState.replay(RULES, hand.events).snapshot() == hand.snapshot()
    assert len(cuts) > 40  # spread over the deck, not one fixed point


@pytest.mark.rule("Poker definitions: Cut")
def test_a_deck_handed_over_records_the_reported_cut_or_none() -> None:
    given = HandState(RULES, {1: 100, 2: 100}, 1, deck=Deck(full_deck(), shuffle=False))
    assert given.events[1] == ev.DeckCut(None)
    reported = HandState(RULES, {1: 100, 2: 100}, 1, deck=Deck(full_deck(), shuffle=False), cut=23)
    assert reported.events[1] == ev.DeckCut(23)
    with pytest.raises(CroupierError, match="a cut must be at least 0"):
        HandState(RULES, {1: 100, 2: 100}, 1, deck=Deck(full_deck(), shuffle=False), cut=-1)
    with pytest.raises(CroupierError, match="only for a deck the dealer shuffled"):
        HandState(RULES, {1: 100, 2: 100}, 1, seed=1, cut=5)


def manual_hand() -> HandState:
    hand = HandState(
        TableRules(OMAHA, PotLimit(), blinds=(5, 10)),
        {1: 200, 2: 200, 3: 200},
        1,
        deck=Deck(full_deck(), shuffle=False),
        automatic=False,
    )
    hand.step()  # forced bets: the deal is next
    return hand


@pytest.mark.rule("Poker definitions: Boxed Card")
def test_a_boxed_card_is_shown_and_set_aside_and_the_deal_goes_on() -> None:
    hand = manual_hand()
    top = hand.deck.peek(2)
    before = hand.snapshot()
    with pytest.raises(IllegalActionError, match="not the next card"):
        hand.report_boxed_card(top[1])
    assert hand.snapshot() == before
    event = hand.report_boxed_card(top[0])
    assert event == ev.CardBoxed(top[0])
    assert top[0] in hand.deck.burned
    hand.step()  # the deal: it starts with the card under the boxed one
    dealt = [e for e in hand.events if isinstance(e, ev.CardsDealt)]
    assert dealt[0].cards == (top[1],)
    assert all(top[0] not in p.cards for p in hand.players.values())
    for seat in (1, 2, 3, None):  # a boxed card is face up: everyone sees it
        assert event in hand.view_for(seat).events
    while not hand.is_complete:
        if hand.phase is Phase.DEALER:
            hand.step()
        else:
            hand.check() if hand.can_check() else hand.call()
    assert HandState.replay(hand.rules, hand.events).snapshot() == hand.snapshot()


@pytest.mark.rule("Poker definitions: Boxed Card", "Poker definitions: Defective Deck")
def test_a_fifth_boxed_card_makes_the_deck_defective() -> None:
    hand = manual_hand()
    for _ in range(4):
        hand.report_boxed_card(hand.deck.peek(1)[0])
    before = hand.snapshot()
    with pytest.raises(IllegalActionError) as info:
        hand.report_boxed_card(hand.deck.peek(1)[0])
    assert info.value.rule == "Poker definitions: Defective Deck"
    assert hand.snapshot() == before
    assert not hand.can_report_boxed_card(hand.deck.peek(1)[0])


@pytest.mark.rule("Poker definitions: Boxed Card")
def test_a_boxed_card_only_while_dealing() -> None:
    hand = HandState(RULES, {1: 100, 2: 100}, 1, seed=4)  # betting: no deal is due
    assert not hand.can_report_boxed_card(Card.parse("As"))
    assert not hand.can_report_boxed_card("not a card")
    assert not hand.can_report_boxed_card("As Kd")
