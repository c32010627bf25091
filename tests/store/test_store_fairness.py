"""Provably fair deals: the commitment scheme, and the check of real hands' deals against it
(every poker game, cuts, boxed cards, draw restocks, blackjack shoes, PHH records)."""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.blackjack import NZ, BlackjackRound
from croupier.cards import Card, Deck, Shoe, full_deck, parse_cards
from croupier.fairness import (
    DealtCards,
    DealVerificationError,
    DeckCommitment,
    DeckReveal,
    commit_deck,
    dealt_cards,
    deck_bytes,
    new_salt,
    verify_deal,
    verify_logged_deal,
)
from croupier.phh.reader import HandHistory, loads
from croupier.poker import (
    DRAW,
    FIVE_CARD_STUD,
    GAMES,
    HOLDEM,
    FixedLimit,
    HandState,
    NoLimit,
    Phase,
    Table,
    TableRules,
)
from croupier.poker import events as ev
from croupier.poker.policies import RandomPolicy
from croupier.store import game_deck
from croupier.store.export import verify_phh


def rules_for(game: str) -> TableRules:
    spec = GAMES[game]
    if spec.forced.value == "blinds":
        return TableRules(spec, NoLimit(), blinds=(5, 10), table_minimum=10)
    return TableRules(spec, FixedLimit(10, 20), blinds=(), ante=2, bring_in=5, table_minimum=5)


def play_committed(
    rules: TableRules, players: int, seed: int
) -> tuple[HandState, DeckCommitment, DeckReveal]:
    """A hand at a Table, committed after the shuffle and cut, before the first card."""
    table = Table(rules, players, seed=seed)
    for seat in range(1, players + 1):
        table.sit(f"p{seat}", seat, 400)
    committed = []

    def commit(hand: HandState) -> None:
        assert not dealt_cards(hand.events).cards  # nothing dealt yet when committing
        committed.append(commit_deck(hand.deck.remaining, random.Random(seed)))

    hand = table.start_hand(before_first_card=commit)
    ((commitment, reveal),) = committed
    bot = RandomPolicy(random.Random(seed))
    while not hand.is_complete:
        assert hand.actor is not None
        hand.apply(bot(hand.view_for(hand.actor)))
    return hand, commitment, reveal


def test_the_commitment_is_sha256_of_the_order_text_and_the_salt() -> None:
    order = parse_cards("As Kd 2c Th")
    salt = bytes(range(32))
    digest = hashlib.sha256(b"AsKd2cTh" + salt).hexdigest()
    assert DeckCommitment.commit(order, salt).digest == digest
    assert DeckCommitment.commit(order, salt.hex()).digest == digest
    assert deck_bytes(order) == b"AsKd2cTh"


def test_salts_come_from_the_csprng_unless_a_source_is_injected() -> None:
    assert len({new_salt() for _ in range(50)}) == 50
    assert new_salt(random.Random(9)) == new_salt(random.Random(9))
    with pytest.raises(ValueError, match="a salt is 32 bytes"):
        DeckReveal(parse_cards("As"), b"short")


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_game_deals_the_committed_order(game: str, seed: int) -> None:
    rules = rules_for(game)
    players = min(GAMES[game].max_players, 5)
    hand, commitment, reveal = play_committed(rules, players, seed)
    check = verify_logged_deal(commitment, reveal, hand.events, deck=game_deck(rules))
    taken = dealt_cards(hand.events)
    assert check.cards == len(taken.cards) > 0
    assert tuple(taken.cards) == reveal.order[: check.cards]
    assert isinstance(hand.events[1], ev.DeckCut)
    assert hand.events[1].position is not None


def test_a_changed_order_salt_or_card_is_caught() -> None:
    hand, commitment, reveal = play_committed(rules_for("holdem"), 4, 7)
    order, salt = reveal.order, reveal.salt
    dealt = dealt_cards(hand.events).cards
    swapped = (order[1], order[0], *order[2:])
    with pytest.raises(DealVerificationError, match="do not hash to the commitment"):
        verify_deal(commitment, swapped, salt, dealt)
    with pytest.raises(DealVerificationError, match="do not hash to the commitment"):
        verify_deal(commitment, order, bytes(32), dealt)
    forged = (dealt[0], dealt[2], dealt[1], *dealt[3:])  # two cards dealt out of order
    with pytest.raises(DealVerificationError, match="card 2 taken from the deck"):
        verify_deal(commitment, order, salt, forged)


def test_an_order_that_is_not_the_games_deck_is_refused() -> None:
    order = (*full_deck()[:51], full_deck()[0])  # the ace of spades gone, 2c twice
    commitment, reveal = commit_deck(order)
    with pytest.raises(DealVerificationError, match="not one whole deck"):
        verify_deal(commitment, reveal.order, reveal.salt, order[:4], deck=full_deck())


def test_the_logs_own_deck_must_be_the_revealed_order() -> None:
    deck = Deck.standard(seed=4)
    commitment, reveal = commit_deck(Deck.standard(seed=5).remaining)  # another deck
    hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, deck=deck)
    hand.fold()
    with pytest.raises(DealVerificationError, match="record of the deck is not the revealed"):
        verify_logged_deal(commitment, reveal, hand.events)


def test_boxed_cards_take_their_position_in_the_order() -> None:
    deck = Deck.standard(seed=12)
    commitment, reveal = commit_deck(deck.remaining)
    hand = HandState(TableRules(HOLDEM), {1: 100, 2: 100, 3: 100}, button=1, deck=deck,
                     automatic=False)  # fmt: skip
    hand.step()  # blinds
    hand.report_boxed_card(hand.deck.peek(1)[0])
    while hand.phase is Phase.DEALER:
        hand.step()
    hand.fold()
    hand.fold()
    while hand.next_chore is not None:  # a hand stepped by hand stays so
        hand.step()
    taken = dealt_cards(hand.events).cards
    assert taken[0] == reveal.order[0]  # the boxed card, set aside like a burn
    assert verify_logged_deal(commitment, reveal, hand.events).cards == len(taken)


def test_a_draw_restock_continues_through_the_logged_discards() -> None:
    rules = TableRules(DRAW, NoLimit(), blinds=(5, 10), table_minimum=10)
    for seed in range(200):
        deck = Deck.standard(seed=seed)
        commitment, reveal = commit_deck(deck.remaining)
        hand = HandState(rules, dict.fromkeys(range(1, 9), 500), button=1, deck=deck, seed=seed)
        while not hand.is_complete:  # everyone calls and draws five: the stub runs out
            legal = hand.legal_actions()
            if legal.discard:
                hand.discard(list(hand.players[hand.actor].down))  # type: ignore[index]
            elif legal.check:
                hand.check()
            else:
                hand.call()
        taken = dealt_cards(hand.events)
        if taken.restocks:
            break
    else:  # pragma: no cover
        pytest.fail("no hand restocked the stub")
    check = verify_logged_deal(commitment, reveal, hand.events, deck=full_deck())
    assert check.restocked > 0
    assert check.cards == len(taken.cards)
    burned = next(e.card for e in hand.events if isinstance(e, ev.CardBurned))
    swapped = (*taken.restocks[0][1:], burned)  # a burn card passed off as a discard
    bad = DealtCards(taken.cards, (swapped, *taken.restocks[1:]), taken.pools)
    with pytest.raises(DealVerificationError, match="not exactly the discards"):
        verify_deal(commitment, reveal.order, reveal.salt, bad)
    loose = DealtCards(taken.cards, (swapped, *taken.restocks[1:]))  # no pools known
    with pytest.raises(DealVerificationError):
        verify_deal(commitment, reveal.order, reveal.salt, loose)


def test_a_blackjack_round_is_checked_from_its_shoe_position() -> None:
    shoe = Shoe(6, seed=3)
    commitment, reveal = commit_deck(shoe.remaining)
    offsets = []
    for _ in range(3):
        rnd = BlackjackRound(NZ, shoe, {"ann": 100})
        offset = len(reveal.order) - len(rnd.events[0].shoe)  # type: ignore[attr-defined]
        rnd.place_wager(1, "ann", 10)
        rnd.deal()
        while not rnd.is_complete:
            rnd.stand()
        check = verify_logged_deal(commitment, reveal, rnd.events, start=offset,
                                   deck=full_deck() * 6)  # fmt: skip
        offsets.append((offset, check.cards))
    assert offsets[1][0] == offsets[0][0] + offsets[0][1]
    with pytest.raises(DealVerificationError):  # the same round checked at the wrong place
        verify_logged_deal(commitment, reveal, rnd.events, start=0)


def test_a_phh_record_with_the_commitment_fields_is_checked() -> None:
    from croupier.phh.writer import dumps

    hand, commitment, reveal = play_committed(rules_for("holdem"), 3, 21)
    text = dumps(
        hand,
        _croupier_deck_commitment=commitment.digest,
        _croupier_deck_order=reveal.order_text,
        _croupier_deck_salt=reveal.salt_hex,
    )
    checked = verify_phh(loads(text, source="hand.phh")[0])
    assert checked.check.cards == len(dealt_cards(hand.events).cards)
    burns = sum(isinstance(e, ev.CardBurned) for e in hand.events)
    assert checked.check.unseen == burns
    fields = dict(loads(text, source="hand.phh")[0].fields)
    actions = list(fields["actions"])
    deals = [i for i, a in enumerate(actions) if a.startswith("d dh")]
    a, b = deals[0], deals[1]  # swap two players' hole cards: the same cards, elsewhere
    head_a, cards_a = actions[a].rsplit(" ", 1)
    head_b, cards_b = actions[b].rsplit(" ", 1)
    actions[a], actions[b] = f"{head_a} {cards_b}", f"{head_b} {cards_a}"
    fields["actions"] = actions
    with pytest.raises(DealVerificationError, match="taken from the deck is"):
        verify_phh(HandHistory(fields, None, "forged.phh"))


def test_five_card_stud_and_its_bring_in_deal_from_the_order() -> None:
    rules = rules_for(FIVE_CARD_STUD.name)
    hand, commitment, reveal = play_committed(rules, 8, 5)
    assert verify_logged_deal(commitment, reveal, hand.events, deck=full_deck()).cards > 8


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), i=st.integers(0, 20), j=st.integers(0, 20))
def test_any_two_dealt_cards_swapped_are_caught(seed: int, i: int, j: int) -> None:
    order = Deck.standard(seed=seed).remaining
    commitment, reveal = commit_deck(order, random.Random(seed))
    dealt: list[Card | None] = list(order[:21])
    verify_deal(commitment, reveal.order, reveal.salt, dealt)
    dealt[i], dealt[j] = dealt[j], dealt[i]
    if i == j:
        verify_deal(commitment, reveal.order, reveal.salt, dealt)
    else:
        with pytest.raises(DealVerificationError):
            verify_deal(commitment, reveal.order, reveal.salt, dealt)


def test_more_cards_than_the_order_holds_are_caught() -> None:
    order = parse_cards("As Kd")
    commitment, reveal = commit_deck(order)
    with pytest.raises(DealVerificationError, match="past the end"):
        verify_deal(commitment, order, reveal.salt, (*order, Card.parse("2c")))
