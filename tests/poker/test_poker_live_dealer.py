"""A live dealer deals, croupier referees: typed chores and ``deal(cards)``.

A hand started with an empty deck waits at every deal for the cards the dealer enters
(burn card first, then one card at a time clockwise, then the board); the draw waits for
each player's replacements. The same cards in the same order give the same hand as the
automatic dealer.
"""

from __future__ import annotations

import pytest

from croupier.cards import Card, Deck, full_deck, parse_cards
from croupier.errors import CroupierError, IllegalActionError
from croupier.poker import DRAW, HOLDEM, MANILA, HandState, NoLimit, TableRules
from croupier.poker import events as ev
from croupier.poker._core import Chore
from croupier.poker.state import Phase

RULES = TableRules(HOLDEM, NoLimit(), blinds=(5, 10))


def live(rules: TableRules = RULES, seats: int = 3) -> HandState:
    return HandState(
        rules, dict.fromkeys(range(1, seats + 1), 500), 1, deck=Deck([], shuffle=False)
    )


def play_passively(hand: HandState, order: list[Card]) -> None:
    """Check or call to the end, dealing live from ``order`` when a deal is due."""
    while not hand.is_complete:
        if hand.next_chore is Chore.DEAL:
            cards, order[:] = order[: hand.cards_needed], order[hand.cards_needed :]
            hand.deal(cards)
        elif hand.legal_actions().discard:
            hand.discard()
        else:
            hand.check() if hand.can_check() else hand.call()


@pytest.mark.rule("Poker 3.3", "Omaha 17.1(d)")
def test_a_live_hand_deals_what_the_dealer_enters_like_the_automatic_dealer() -> None:
    order = list(full_deck())
    auto = HandState(RULES, dict.fromkeys((1, 2, 3), 500), 1, deck=Deck(order, shuffle=False))
    hand = live()
    assert hand.phase is Phase.DEALER
    assert hand.next_chore is Chore.DEAL
    assert hand.cards_needed == 6  # two hole cards each, no burn before the first deal
    play_passively(hand, order[:])
    while not auto.is_complete:
        auto.check() if auto.can_check() else auto.call()
    assert hand.board == auto.board
    assert hand.stacks == auto.stacks
    assert {s: p.cards for s, p in hand.players.items()} == {
        s: p.cards for s, p in auto.players.items()
    }
    same = [type(e) for e in hand.events[2:]] == [type(e) for e in auto.events[2:]]
    assert same
    assert HandState.replay(RULES, hand.events).snapshot() == hand.snapshot()


@pytest.mark.rule("Poker 3.3", "Poker definitions: Defective Deck")
def test_a_wrong_deal_is_refused_and_changes_nothing() -> None:
    hand = live()
    before = hand.snapshot()
    cards = list(full_deck()[:6])
    for bad, named in (
        (cards[:5], "takes 6 cards, not 5"),
        ([*cards[:5], cards[0]], "the same card twice"),
        ("As Kd Qh Jc Tc zz", "bad card"),
    ):
        with pytest.raises(CroupierError, match=named):
            hand.deal(bad)
        assert hand.snapshot() == before
        assert not hand.can_deal(bad)
    with pytest.raises(IllegalActionError, match="the live dealer deals the next 6 cards"):
        hand.step()
    hand.deal(cards)
    while hand.next_chore is not Chore.DEAL:
        hand.check() if hand.can_check() else hand.call()
    flop = [cards[0], *full_deck()[6:9]]  # a card already dealt
    with pytest.raises(IllegalActionError, match="has already been dealt"):
        hand.deal(flop)
    manila = live(TableRules(MANILA, NoLimit(), blinds=(5, 10)))
    with pytest.raises(IllegalActionError, match="has no 2c"):
        manila.deal(parse_cards("2c 7d 8h 9s Tc Jd Qc"))
    shuffled = HandState(RULES, {1: 100, 2: 100}, 1, seed=1)
    assert not shuffled.can_deal(full_deck()[:2])  # croupier deals its own deck


@pytest.mark.rule("Draw 11 (deal and draw)")
def test_a_live_draw_waits_for_each_players_replacements() -> None:
    hand = live(TableRules(DRAW, NoLimit(), blinds=(5, 10)))
    order = list(full_deck())
    hand.deal(order[:15])
    order = order[15:]
    while not hand.legal_actions().discard:
        if hand.next_chore is Chore.DEAL:  # the draw's burn card
            assert hand.cards_needed == 1
            hand.deal(order[:1])
            order = order[1:]
        else:
            hand.check() if hand.can_check() else hand.call()
    assert hand.next_chore is None
    drawer = hand.actor
    assert drawer is not None
    thrown = hand.players[drawer].down[:2]
    hand.discard(thrown)
    assert hand.next_chore is Chore.DEAL  # the discard moved it
    assert hand.street_name == "draw"
    assert hand.cards_needed == 2
    assert hand.actor is None  # nobody acts until the dealer deals the draw
    burn_and_two = order[:2]
    hand.deal(burn_and_two)
    assert set(burn_and_two) <= set(hand.players[drawer].down)
    assert not set(thrown) & set(hand.players[drawer].down)
    assert hand.actor is not None
    assert hand.actor != drawer
    dealt = [e for e in hand.events if isinstance(e, ev.CardsDealt) and e.seat == drawer]
    assert dealt[-1].cards == tuple(burn_and_two)
