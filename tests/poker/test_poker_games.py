"""The per-game rules of the poker referee, checked card by card with stacked decks.

Every test names the rule it checks (``@pytest.mark.rule``). The decks are stacked in
deal order: :func:`build_deck` lays the named cards out exactly as the dealer takes
them (burns, down and up cards clockwise from the dealer's left, community cards)
and fills the rest of the deck with the unused cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from helpers import clockwise, events_of, passive, refused, winners

from croupier.cards import Card, Deck, Rank, full_deck, parse_cards, stripped_deck
from croupier.errors import RuleViolationError
from croupier.evaluation import Category
from croupier.poker import (
    DRAW,
    FIVE_CARD_STUD,
    HOLDEM,
    MANILA,
    OMAHA,
    SEVEN_CARD_STUD,
    THREE_CARD_MANILA,
    BettingStructure,
    Chore,
    FixedLimit,
    GameSpec,
    HandState,
    NoLimit,
    OddChip,
    TableRules,
)
from croupier.poker import events as ev

# ----------------------------------------------------------------------------- helpers

StreetSpec = tuple[Mapping[int, str], str]
"""One street of a stacked deck: the cards each seat gets (down cards first, then up
cards; for a draw, the replacements) and the community cards."""


def build_deck(
    game: GameSpec,
    button: int,
    streets: Sequence[StreetSpec],
    *,
    burns: Sequence[str] = (),
) -> Deck:
    """A deck that deals ``streets`` exactly as the engine deals ``game``.

    Burn cards are taken from ``burns`` in order, then from the unused cards; the
    rest of the deck (full or stripped, as the game uses) follows in index order.
    """
    stripped = game.ranking.lowest_rank > Rank.TWO
    pool = stripped_deck(game.ranking.lowest_rank) if stripped else full_deck()
    sequence: list[Card | None] = []
    burn_cards = list(parse_cards(" ".join(burns)))
    for street, (per_player, board) in zip(game.streets, streets, strict=False):
        if street.burn:
            sequence.append(burn_cards.pop(0) if burn_cards else None)
        seats = list(clockwise(list(per_player), button))
        own = {s: list(parse_cards(per_player[s])) for s in seats}
        if street.draw:
            for seat in seats:
                sequence.extend(own[seat])
        else:
            for _ in range(street.down + street.up):
                for seat in seats:
                    sequence.append(own[seat].pop(0))
            assert all(not cards for cards in own.values()), "too many cards for a seat"
        sequence.extend(parse_cards(board))
    named = {c for c in sequence if c is not None}
    assert len(named) == sum(1 for c in sequence if c is not None), "a card is named twice"
    spare = [c for c in pool if c not in named]
    filled = [c if c is not None else spare.pop(0) for c in sequence]
    return Deck([*filled, *spare], shuffle=False)


def dealt(hand: HandState) -> list[tuple[int, tuple[Card, ...], bool]]:
    """(seat, cards, face up) for every card dealt to a player, in order."""
    return [(e.seat, e.cards, e.up) for e in events_of(hand, ev.CardsDealt)]


def stud_rules(
    game: GameSpec = FIVE_CARD_STUD,
    structure: BettingStructure | None = None,
    *,
    ante: int = 1,
    bring_in: int | None = None,
) -> TableRules:
    """Stud table: no blinds, an ante, the table minimum (and bring-in) 10."""
    return TableRules(
        game,
        structure or FixedLimit(10, 20),
        blinds=(),
        ante=ante,
        bring_in=bring_in,
        table_minimum=10,
    )


def blind_rules(
    game: GameSpec,
    structure: BettingStructure | None = None,
    *,
    blinds: tuple[int, ...] = (5, 10),
    chip_unit: int = 1,
    odd_chip: OddChip = OddChip.HIGH_CARD_BY_SUIT,
    show_all: bool = False,
) -> TableRules:
    """Blind game: blinds 5 and 10, table minimum 10, no limit unless told."""
    return TableRules(
        game,
        structure or NoLimit(),
        blinds=blinds,
        table_minimum=10,
        chip_unit=chip_unit,
        odd_chip=odd_chip,
        show_all_at_showdown=show_all,
    )


def first_index(hand: HandState, kind: type[ev.Event]) -> int:
    """Where the first event of a kind sits in the log."""
    return next(i for i, e in enumerate(hand.events) if isinstance(e, kind))


# ============================================================================ Omaha (17)

OMAHA_SEATS = (1, 2, 3, 4, 5, 6)
OMAHA_HOLES = {
    4: "As Ah Ks Qs",
    5: "Kd Kc 5h 6h",
    6: "2c 3c 4d 5d",
    1: "7c 8c 9d Td",
    2: "Jc Jd 6c 6d",
    3: "9h 9s 8h 8s",
}


def omaha_six(button: int = 3, rules: TableRules | None = None) -> HandState:
    """DIGEST scenario 10: Omaha, seats 1-6, button at seat 3, blinds 5 and 10."""
    deck = build_deck(
        OMAHA,
        button,
        [(OMAHA_HOLES, ""), ({}, "Js Ts 2s"), ({}, "3d"), ({}, "4c")],
        burns=["2h", "3h", "4h"],
    )
    table = rules or blind_rules(OMAHA)
    return HandState(table, dict.fromkeys(OMAHA_SEATS, 1000), button, deck=deck)


@pytest.mark.rule("Omaha 17.1(c)")
def test_omaha_blinds_are_posted_left_of_the_button_before_any_card() -> None:
    hand = omaha_six()
    blinds = events_of(hand, ev.BlindPosted)
    assert [(b.seat, b.amount, b.voluntary) for b in blinds] == [(4, 5, False), (5, 10, False)]
    assert first_index(hand, ev.CardsDealt) > max(hand.events.index(b) for b in blinds)
    assert hand.stacks[4] == 995
    assert hand.stacks[5] == 990
    assert hand.total_pot == 15


@pytest.mark.rule("Omaha 17.1(c)")
def test_omaha_every_compulsory_blind_on_the_sign_is_posted_in_turn() -> None:
    rules = blind_rules(OMAHA, blinds=(5, 10, 20))
    deck = build_deck(OMAHA, 3, [(OMAHA_HOLES, "")])
    hand = HandState(rules, dict.fromkeys(OMAHA_SEATS, 1000), 3, deck=deck)
    assert [(b.seat, b.amount) for b in events_of(hand, ev.BlindPosted)] == [
        (4, 5),
        (5, 10),
        (6, 20),
    ]
    assert hand.actor == 1  # left of the last blind
    assert hand.legal_actions().call == 20


@pytest.mark.rule("Omaha 17.1(d)")
def test_omaha_four_cards_one_at_a_time_clockwise_from_left_of_button() -> None:
    hand = omaha_six()
    deals = dealt(hand)
    assert len(deals) == 24
    assert all(len(cards) == 1 and not up for _, cards, up in deals)
    assert [seat for seat, _, _ in deals] == [4, 5, 6, 1, 2, 3] * 4
    for seat, cards in OMAHA_HOLES.items():
        assert hand.players[seat].down == list(parse_cards(cards))
        assert hand.players[seat].up == []


@pytest.mark.rule("Omaha 17.1(b)")
def test_omaha_button_gets_the_last_card_of_each_dealing_round() -> None:
    hand = omaha_six()
    seats = [seat for seat, _, _ in dealt(hand)]
    assert [seats[i] for i in range(5, 24, 6)] == [3, 3, 3, 3]
    moved = omaha_six(button=4)
    assert [seat for seat, _, _ in dealt(moved)][:6] == [5, 6, 1, 2, 3, 4]
    assert [(b.seat, b.amount) for b in events_of(moved, ev.BlindPosted)] == [(5, 5), (6, 10)]


@pytest.mark.rule("Omaha 17.2(a)")
def test_omaha_first_round_starts_left_of_last_blind_without_check() -> None:
    hand = omaha_six()
    assert hand.actor == 6
    legal = hand.legal_actions()
    assert legal.fold
    assert not legal.check
    assert legal.call == 10
    assert legal.raise_to is not None
    assert not hand.can_check()
    refused(hand, hand.check)


@pytest.mark.rule("Omaha 17.2(b)")
def test_omaha_a_fold_passes_the_option_clockwise() -> None:
    hand = omaha_six()
    hand.fold()
    assert hand.actor == 1
    legal = hand.legal_actions()
    assert (legal.fold, legal.check, legal.call) == (True, False, 10)
    hand.fold()
    assert hand.actor == 2
    assert not hand.can_check()


@pytest.mark.rule("Omaha 17.2(c)")
def test_omaha_first_round_ends_when_one_player_remains() -> None:
    hand = omaha_six()
    for _ in range(5):  # seats 6, 1, 2, 3 and 4 fold to the last blind
        hand.fold()
    assert hand.is_complete
    assert hand.stacks[5] == 1005  # the first blind's 5; the uncalled part comes back
    assert hand.stacks[4] == 995
    assert hand.board == []
    assert hand.deck.burned == ()
    assert not events_of(hand, ev.HandShown)
    assert sum(hand.stacks.values()) == 6000


@pytest.mark.rule("Omaha 17.2(c)")
def test_omaha_two_or_more_left_go_to_the_flop() -> None:
    hand = omaha_six()
    for _ in range(4):
        hand.fold()
    hand.call()  # the first blind completes
    assert hand.actor == 5
    hand.check()
    assert hand.street_name == "flop"
    assert len(hand.board) == 3


@pytest.mark.rule("Poker definitions: Blind")
def test_omaha_live_last_blind_has_the_option() -> None:
    hand = omaha_six()
    for _ in range(5):
        hand.call()
    assert hand.actor == 5
    legal = hand.legal_actions()
    assert legal.check
    assert legal.raise_to is not None
    hand.raise_to(30)
    assert hand.actor == 6
    assert hand.legal_actions().call == 20


@pytest.mark.rule("Omaha 17.3(a)")
def test_omaha_burn_then_a_flop_of_three() -> None:
    hand = omaha_six()
    passive(hand, until_street=1)
    assert hand.street_name == "flop"
    assert hand.deck.burned == parse_cards("2h")
    assert hand.board == list(parse_cards("Js Ts 2s"))
    burn = first_index(hand, ev.CardBurned)
    flop = first_index(hand, ev.CommunityDealt)
    assert burn < flop
    assert events_of(hand, ev.CommunityDealt)[0].cards == parse_cards("Js Ts 2s")
    last_action = max(i for i, e in enumerate(hand.events) if isinstance(e, ev.PlayerAction))
    assert last_action < burn


@pytest.mark.rule("Omaha 17.3(b)")
def test_omaha_flop_opens_left_of_button_with_check_or_fold() -> None:
    hand = omaha_six()
    passive(hand, until_street=1)
    assert hand.actor == 4
    legal = hand.legal_actions()
    assert legal.check
    assert legal.fold  # Decision 3.2-9: "open the betting, check or fold"
    assert legal.call is None
    assert legal.raise_to == (10, 990)
    strict = TableRules(OMAHA, NoLimit(), blinds=(5, 10), fold_when_check_is_free=False)
    no_free_fold = omaha_six(rules=strict)
    passive(no_free_fold, until_street=1)
    assert no_free_fold.legal_actions().check
    assert not no_free_fold.legal_actions().fold
    refused(no_free_fold, no_free_fold.fold)


@pytest.mark.rule("Omaha 17.3(b)")
def test_omaha_flop_opener_skips_a_folded_first_blind() -> None:
    hand = omaha_six()
    hand.call()  # 6
    hand.call()  # 1
    hand.call()  # 2
    hand.call()  # 3
    hand.fold()  # 4, the first blind
    hand.check()  # 5
    assert hand.street_name == "flop"
    assert hand.actor == 5


@pytest.mark.rule("Omaha 17.3(c)")
def test_omaha_flop_betting_runs_clockwise_until_one_remains() -> None:
    hand = omaha_six()
    passive(hand, until_street=1)
    hand.check()  # 4
    assert hand.actor == 5
    hand.raise_to(30)  # 5 bets
    order = []
    while hand.actor != 5 and not hand.is_complete:
        order.append(hand.actor)
        assert not hand.can_check()
        hand.fold()
    assert order == [6, 1, 2, 3, 4]
    assert hand.is_complete
    assert winners(hand) == {5: 60}  # 6 x 10 before the flop; the uncalled 30 comes back
    assert len(hand.board) == 3
    assert len(hand.deck.burned) == 1


@pytest.mark.rule("Omaha 17.4(a)")
def test_omaha_burn_then_the_fourth_card() -> None:
    hand = omaha_six()
    passive(hand, until_street=2)
    assert hand.street_name == "turn"
    assert hand.deck.burned == parse_cards("2h 3h")
    assert hand.board == list(parse_cards("Js Ts 2s 3d"))
    assert events_of(hand, ev.CommunityDealt)[-1].cards == parse_cards("3d")


@pytest.mark.rule("Omaha 17.5(a)")
def test_omaha_burn_then_the_fifth_and_last_card() -> None:
    hand = omaha_six()
    passive(hand, until_street=3)
    assert hand.street_name == "river"
    assert hand.deck.burned == parse_cards("2h 3h 4h")
    assert hand.board == list(parse_cards("Js Ts 2s 3d 4c"))
    passive(hand)
    assert len(hand.board) == 5
    assert len(hand.deck.burned) == 3
    assert len(hand.deck.dealt) == 24 + 5


@pytest.mark.rule("Omaha 17.4(b)", "Omaha 17.4(c)", "Omaha 17.5(b)", "Omaha 17.5(c)")
@pytest.mark.parametrize("street", [2, 3])
def test_omaha_turn_and_river_betting_as_on_the_flop(street: int) -> None:
    hand = omaha_six()
    hand.call()  # 6
    hand.fold()  # 1
    hand.call()  # 2
    hand.call()  # 3
    hand.fold()  # 4
    hand.check()  # 5
    passive(hand, until_street=street)
    assert hand.actor == 5  # the first active player left of the button
    assert hand.legal_actions().check
    order = []
    while hand.street == street and not hand.is_complete:
        order.append(hand.actor)
        hand.check()
    assert order == [5, 6, 2, 3]
    hand_two = omaha_six()
    passive(hand_two, until_street=street)
    hand_two.raise_to(20)  # 4 opens
    for _ in range(5):
        assert not hand_two.can_check()
        hand_two.fold()
    assert hand_two.is_complete
    assert winners(hand_two) == {4: 60}
    assert len(hand_two.board) == (4 if street == 2 else 5)


# ------------------------------------------------------------------ Omaha showdown

FLUSH = "As Ah Ks Qs"  # A-high flush with As Ks (never a royal: that needs 3 hole cards)
STRAIGHT = "Kd Kc 5h 6h"  # 5h 6h + 2s 3d 4c: six-high straight
HIGH = "7c 8d 9h Qd"  # queen high
SHOWDOWN_BOARD = ("Js Ts 2s", "3d", "4c")


def omaha_three(holes: Mapping[int, str], *, show_all: bool = False) -> HandState:
    """Seats 1-3, button 1: seat 2 posts 5, seat 3 posts 10, seat 1 acts first."""
    flop, turn, river = SHOWDOWN_BOARD
    deck = build_deck(OMAHA, 1, [(holes, ""), ({}, flop), ({}, turn), ({}, river)])
    rules = blind_rules(OMAHA, show_all=show_all)
    return HandState(rules, {1: 500, 2: 500, 3: 500}, 1, deck=deck)


def shown_or_mucked(hand: HandState) -> list[tuple[int, bool]]:
    """(seat, shown) in showdown order."""
    out = []
    for event in hand.events:
        if isinstance(event, ev.HandShown):
            out.append((event.seat, True))
        elif isinstance(event, ev.HandMucked):
            out.append((event.seat, False))
    return out


@pytest.mark.rule("Omaha 17.5(d)")
def test_omaha_hand_uses_exactly_two_hole_and_three_board_cards() -> None:
    hand = omaha_three({2: FLUSH, 3: STRAIGHT, 1: HIGH})
    passive(hand)
    flush = hand.hand_of(2)
    assert flush is not None
    assert flush.describe() == "Flush, ace high"  # DIGEST scenario 15: not a royal flush
    assert flush.best_five == parse_cards("As Ks Js Ts 2s")
    straight = hand.hand_of(3)
    assert straight is not None
    assert straight.category is Category.STRAIGHT
    assert winners(hand) == {2: 30}


@pytest.mark.rule("Omaha 17.5(d)")
def test_omaha_one_hole_heart_makes_no_flush_on_four_hearts() -> None:
    deck = build_deck(
        OMAHA,
        1,
        [({2: "Ah Kc Qd 2c", 1: "9s 9d 3c 4d"}, ""), ({}, "Th 8h 6h"), ({}, "2h"), ({}, "Js")],
    )
    hand = HandState(blind_rules(OMAHA), {1: 100, 2: 100}, 1, deck=deck)
    passive(hand)
    one_heart = hand.hand_of(2)
    assert one_heart is not None
    assert one_heart.category is not Category.FLUSH  # DIGEST scenario 16
    pair = hand.hand_of(1)
    assert pair is not None
    assert pair.describe().startswith("Pair of nines")
    assert winners(hand) == {1: 20}


@pytest.mark.rule("Omaha 17.5(d)")
def test_omaha_cannot_play_a_straight_on_the_board() -> None:
    deck = build_deck(
        OMAHA,
        1,
        [({2: "Ac Ad Kc Kd", 1: "2c 2d Qh Jh"}, ""), ({}, "5s 6h 7d"), ({}, "8c"), ({}, "9s")],
    )
    hand = HandState(blind_rules(OMAHA), {1: 100, 2: 100}, 1, deck=deck)
    passive(hand)
    aces = hand.hand_of(2)
    assert aces is not None
    assert aces.category is Category.PAIR  # DIGEST scenario 17: the board straight does not play
    assert hand.hand_of(1) is not None


@pytest.mark.rule("Omaha 17.5(d)")
def test_omaha_called_player_shows_first_and_worse_hands_may_muck() -> None:
    hand = omaha_three({2: FLUSH, 3: STRAIGHT, 1: HIGH})
    passive(hand, until_street=3)
    assert hand.actor == 2
    hand.check()  # 2
    hand.raise_to(50)  # 3 bets and is called
    hand.call()  # 1
    hand.call()  # 2
    assert shown_or_mucked(hand) == [(3, True), (1, False), (2, True)]
    assert winners(hand) == {2: 180}
    assert hand.can_request_show(1)  # any player may ask to see any hand
    shown = hand.request_show(1)
    assert shown.seat == 1
    assert shown.cards == parse_cards(HIGH)


@pytest.mark.rule("Omaha 17.5(d)")
def test_omaha_equal_or_better_hands_show_after_the_caller() -> None:
    hand = omaha_three({2: HIGH, 3: STRAIGHT, 1: FLUSH})
    passive(hand, until_street=3)
    hand.raise_to(10)  # 2 bets, is raised
    hand.raise_to(20)  # 3 raises: the called player
    hand.call()  # 1
    hand.call()  # 2
    assert shown_or_mucked(hand) == [(3, True), (1, True), (2, False)]
    assert winners(hand) == {1: 90}


@pytest.mark.rule("Omaha 17.5(d)")
@pytest.mark.parametrize(
    ("holes", "expected"),
    [
        ({2: HIGH, 3: STRAIGHT, 1: FLUSH}, [(2, True), (3, True), (1, True)]),
        ({2: STRAIGHT, 3: HIGH, 1: FLUSH}, [(2, True), (3, False), (1, True)]),
        ({2: FLUSH, 3: HIGH, 1: STRAIGHT}, [(2, True), (3, False), (1, False)]),
    ],
)
def test_omaha_checked_through_shows_from_left_of_button(
    holes: Mapping[int, str], expected: list[tuple[int, bool]]
) -> None:
    hand = omaha_three(holes)
    passive(hand)
    assert shown_or_mucked(hand) == expected
    everyone = omaha_three(holes, show_all=True)
    passive(everyone)
    assert shown_or_mucked(everyone) == [(2, True), (3, True), (1, True)]


STRAIGHT_TIE_BOARD = ("Ks Qd Jh", "4c", "2d")


def tie_hand(
    holes: Mapping[int, str],
    *,
    chip_unit: int = 1,
    odd_chip: OddChip = OddChip.HIGH_CARD_BY_SUIT,
) -> HandState:
    """Seats 2, 5, 7, button 2: seat 5 posts 5, seat 7 posts 10, seat 2 acts first."""
    flop, turn, river = STRAIGHT_TIE_BOARD
    deck = build_deck(OMAHA, 2, [(holes, ""), ({}, flop), ({}, turn), ({}, river)])
    rules = blind_rules(OMAHA, chip_unit=chip_unit, odd_chip=odd_chip)
    return HandState(rules, {2: 500, 5: 500, 7: 500}, 2, deck=deck)


@pytest.mark.rule("Omaha 17.5(e)")
def test_omaha_odd_chip_to_highest_hole_card_by_suit_used() -> None:
    # seats 2 and 7 both make A-K-Q-J-T; seat 2 uses As Th, seat 7 uses Ad Tc
    hand = tie_hand({2: "As Th 6c 6h", 5: "8c 8d 9c 9d", 7: "Ad Tc 5h 5s"})
    hand.call()  # 2
    hand.fold()  # 5: 5 dead chips make the pot odd
    hand.check()  # 7
    passive(hand)
    assert hand.total_pot == 25
    # checked through: seat 7 (first live left of the button) shows, the equal hand shows
    assert shown_or_mucked(hand) == [(7, True), (2, True)]
    (award,) = hand.awards
    assert dict(award.shares) == {2: 13, 7: 12}
    assert award.odd_chip_seat == 2


@pytest.mark.rule("Omaha 17.5(e)")
def test_omaha_odd_chip_by_suit_not_by_position() -> None:
    # the ace of spades sits with seat 7 this time: seat 2 is first left of the button
    # among the winners and has the lower seat number, yet seat 7 takes the chip
    hand = tie_hand({2: "Ad Tc 6c 6h", 5: "8c 8d 9c 9d", 7: "As Th 5h 5s"})
    hand.call()
    hand.fold()
    hand.check()
    passive(hand)
    (award,) = hand.awards
    assert dict(award.shares) == {2: 12, 7: 13}
    assert award.odd_chip_seat == 7
    by_position = tie_hand(
        {2: "Ad Tc 6c 6h", 5: "8c 8d 9c 9d", 7: "As Th 5h 5s"},
        odd_chip=OddChip.FIRST_LEFT_OF_BUTTON,
    )
    by_position.call()
    by_position.fold()
    by_position.check()
    passive(by_position)
    assert by_position.awards[0].odd_chip_seat == 7  # clockwise from seat 2: 5, 7, 2


@pytest.mark.rule("Omaha 17.5(e)")
def test_omaha_split_down_to_the_lowest_chip_in_play() -> None:
    # DIGEST scenario 18: pot 105 in 5-chips: 50 each, the last 5 to the ace of spades
    hand = tie_hand({2: "Ad Tc 6c 6h", 5: "8c 8d 9c 9d", 7: "As Th 5h 5s"}, chip_unit=5)
    hand.raise_to(50)  # 2
    hand.fold()  # 5: 5 dead
    hand.call()  # 7
    passive(hand)
    assert hand.total_pot == 105
    (award,) = hand.awards
    assert dict(award.shares) == {2: 50, 7: 55}
    assert award.odd_chip_seat == 7


@pytest.mark.rule("Omaha 17.5(e)")
def test_omaha_three_way_split_gives_one_odd_chip() -> None:
    # DIGEST scenario 19: a three-way split in 1-unit chips; As beats Ah and Ad
    holes = {2: "Ad Tc 6c 6h", 5: "Ah Td 8c 8d", 7: "As Th 5h 5s", 9: "3c 3h 7c 7d"}
    flop, turn, river = STRAIGHT_TIE_BOARD
    deck = build_deck(OMAHA, 9, [(holes, ""), ({}, flop), ({}, turn), ({}, river)])
    hand = HandState(blind_rules(OMAHA), dict.fromkeys(holes, 500), 9, deck=deck)
    assert [b.seat for b in events_of(hand, ev.BlindPosted)] == [2, 5]
    hand.call()  # 7
    hand.call()  # 9
    hand.call()  # 2
    hand.check()  # 5
    hand.raise_to(10)  # 2 bets on the flop
    hand.call()  # 5
    hand.call()  # 7
    hand.fold()  # 9: its 10 chips stay in the pot
    passive(hand)
    assert hand.total_pot == 70
    (award,) = hand.awards
    assert dict(award.shares) == {2: 23, 5: 23, 7: 24}
    assert award.odd_chip_seat == 7


# ========================================================================= Hold'em (16)


def holdem_hand(
    holes: Mapping[int, str],
    board: tuple[str, str, str],
    button: int,
    stacks: Mapping[int, int],
) -> HandState:
    """A Hold'em hand with the named hole cards and board."""
    flop, turn, river = board
    deck = build_deck(HOLDEM, button, [(holes, ""), ({}, flop), ({}, turn), ({}, river)])
    return HandState(blind_rules(HOLDEM), stacks, button, deck=deck)


@pytest.mark.rule("Hold'em 16 (structure)")
def test_holdem_two_hole_cards_then_flop_turn_river() -> None:
    holes = {1: "Kc Qc", 2: "Qd Qh", 3: "7s 2d"}
    hand = holdem_hand(holes, ("Jh Ts 4c", "9d", "3s"), 1, dict.fromkeys(holes, 200))
    assert [seat for seat, _, _ in dealt(hand)] == [2, 3, 1, 2, 3, 1]
    assert all(len(hand.players[s].down) == 2 for s in holes)
    assert hand.actor == 1  # left of the last blind (seat 3)
    passive(hand, until_street=1)
    assert hand.actor == 2  # left of the button
    passive(hand)
    assert hand.board == list(parse_cards("Jh Ts 4c 9d 3s"))
    assert len(hand.deck.burned) == 3
    assert [len(e.cards) for e in events_of(hand, ev.CommunityDealt)] == [3, 1, 1]
    assert winners(hand) == {1: 30}  # K-Q-J-T-9 straight


@pytest.mark.rule("Hold'em 16 (hand composition)")
@pytest.mark.parametrize(
    ("hole", "board", "description", "own_used"),
    [
        ("2c 3d", ("As Ks Qs", "Js", "Ts"), "Royal flush", ""),  # the board plays
        ("Th 3d", ("Ah Kh Qh", "Jh", "2c"), "Royal flush", "Th"),  # one hole card
        ("Ah Kh", ("Qh Jh Th", "2c", "3d"), "Royal flush", "Ah Kh"),  # both hole cards
    ],
)
def test_holdem_any_combination_of_hole_and_board(
    hole: str, board: tuple[str, str, str], description: str, own_used: str
) -> None:
    hand = holdem_hand({1: "9c 9d", 2: hole}, board, 1, {1: 100, 2: 100})
    passive(hand)
    value = hand.hand_of(2)
    assert value is not None
    assert value.describe() == description
    assert set(value.own_cards) == set(parse_cards(own_used))


@pytest.mark.rule("Hold'em 16 (hand composition)", "Omaha 17.5(e)")
def test_holdem_odd_chip_fallback_when_the_board_plays() -> None:
    # seats 2, 5, 7, button 5: seat 7 posts 5 and folds, so the pot (25) is odd.
    # Both 2 and 5 make the 9-high straight. Seat 2 plays the board (its five's highest
    # card is 9c, Decision 3.2-12); seat 5 uses its 9h, which outranks 9c by suit.
    holes = {7: "Kc Kd", 2: "2s 3d", 5: "9h 2d"}
    hand = holdem_hand(holes, ("5c 6d 7h", "8s", "9c"), 5, dict.fromkeys(holes, 100))
    assert [(b.seat, b.amount) for b in events_of(hand, ev.BlindPosted)] == [(7, 5), (2, 10)]
    hand.call()  # 5
    hand.fold()  # 7
    hand.check()  # 2
    passive(hand)
    board_plays = hand.hand_of(2)
    assert board_plays is not None
    assert board_plays.own_cards == ()
    (award,) = hand.awards
    assert dict(award.shares) == {2: 12, 5: 13}
    assert award.odd_chip_seat == 5


@pytest.mark.rule("Omaha 17.5(e)")
def test_holdem_odd_chip_when_all_winners_play_the_same_board() -> None:
    # seats 2, 5, 7, button 2: seat 5 posts 5 and folds; 2 and 7 both play a royal board,
    # so the Decision 3.2-12 fallback ties: the first winner left of the button takes it
    holes = {5: "Kc Kd", 7: "2s 3d", 2: "4h 2d"}
    hand = holdem_hand(holes, ("As Ks Qs", "Js", "Ts"), 2, dict.fromkeys(holes, 100))
    hand.call()  # 2
    hand.fold()  # 5
    hand.check()  # 7
    passive(hand)
    (award,) = hand.awards
    assert award.odd_chip_seat == 7  # clockwise from the button (2): 5 (folded), 7


# ========================================================================= Manila (14, 15)

MANILA_HOLES = {2: "Qh 9h", 3: "7d 8c", 1: "Jc Js"}
MANILA_BOARD = ("Ah", "Kh", "7h", "7c", "8d")


def manila_hand(
    game: GameSpec = MANILA,
    holes: Mapping[int, str] = MANILA_HOLES,
    board: Sequence[str] = MANILA_BOARD,
    stacks: Mapping[int, int] | None = None,
    button: int = 1,
) -> HandState:
    """A Manila (or 3-Card Manila) hand: the first board card comes with the deal."""
    streets: list[StreetSpec] = [(holes, board[0])] + [({}, b) for b in board[1:]]
    deck = build_deck(game, button, streets, burns=["Td", "Tc", "9c", "9d"])
    seats = stacks or dict.fromkeys(holes, 500)
    return HandState(blind_rules(game), seats, button, deck=deck)


THREE_CARD_HOLES = {2: "Qh 9h Ts", 3: "7d 8c Jd", 1: "Jc Js 8s"}


@pytest.mark.rule("Manila 14.1 (hole cards)", "Poker 4.1(b)")
def test_manila_two_hole_cards_from_a_32_card_deck() -> None:
    hand = manila_hand()
    assert [seat for seat, _, _ in dealt(hand)] == [2, 3, 1, 2, 3, 1]
    assert all(len(cards) == 1 and not up for _, cards, up in dealt(hand))
    for seat, cards in MANILA_HOLES.items():
        assert hand.players[seat].down == list(parse_cards(cards))
    seeded = HandState(blind_rules(MANILA), {1: 100, 2: 100}, 1, seed=11)
    deck = events_of(seeded, ev.HandStarted)[0].deck
    assert len(deck) == len(set(deck)) == 32
    assert min(card.rank for card in deck) == Rank.SEVEN
    assert MANILA.max_players == 10


@pytest.mark.rule("Manila 14.1(d)")
def test_manila_first_board_card_comes_with_the_deal() -> None:
    hand = manila_hand()
    assert hand.street_name == "deal"
    assert hand.actor == 1  # betting has not started yet: the card is already out
    assert hand.board == list(parse_cards("Ah"))
    assert hand.deck.burned == ()
    community = first_index(hand, ev.CommunityDealt)
    last_hole = max(i for i, e in enumerate(hand.events) if isinstance(e, ev.CardsDealt))
    assert community > last_hole
    assert not any(isinstance(e, ev.PlayerAction) for e in hand.events[:community])


@pytest.mark.rule("3-Card Manila 15.1(d)")
def test_three_card_manila_three_hole_cards_then_one_community_card() -> None:
    hand = manila_hand(THREE_CARD_MANILA, THREE_CARD_HOLES)
    assert [seat for seat, _, _ in dealt(hand)] == [2, 3, 1] * 3
    assert all(len(cards) == 1 and not up for _, cards, up in dealt(hand))
    for seat, cards in THREE_CARD_HOLES.items():
        assert hand.players[seat].down == list(parse_cards(cards))
    assert hand.board == list(parse_cards("Ah"))
    assert hand.deck.burned == ()
    assert first_index(hand, ev.CommunityDealt) > max(
        i for i, e in enumerate(hand.events) if isinstance(e, ev.CardsDealt)
    )


@pytest.mark.rule("3-Card Manila 15.1(c)")
def test_three_card_manila_blinds_left_of_the_button() -> None:
    hand = manila_hand(THREE_CARD_MANILA, THREE_CARD_HOLES)
    blinds = events_of(hand, ev.BlindPosted)
    assert [(b.seat, b.amount) for b in blinds] == [(2, 5), (3, 10)]
    assert first_index(hand, ev.CardsDealt) > hand.events.index(blinds[-1])


def _first_round(game: GameSpec, holes: Mapping[int, str]) -> None:
    hand = manila_hand(game, holes)
    assert hand.actor == 1  # left of the last blind (seat 3)
    legal = hand.legal_actions()
    assert (legal.fold, legal.check, legal.call) == (True, False, 10)
    refused(hand, hand.check)
    hand.fold()  # the option passes clockwise
    assert hand.actor == 2
    assert not hand.can_check()
    hand.fold()
    assert hand.is_complete  # one player left: the last blind wins, no more cards
    assert hand.stacks[3] == 505
    assert len(hand.board) == 1
    assert hand.deck.burned == ()


@pytest.mark.rule("Manila 14.2(a)", "Manila 14.2(b)", "Manila 14.2(c)")
def test_manila_first_betting_round() -> None:
    _first_round(MANILA, MANILA_HOLES)


@pytest.mark.rule("3-Card Manila 15.2(a)", "3-Card Manila 15.2(b)", "3-Card Manila 15.2(c)")
def test_three_card_manila_first_betting_round() -> None:
    _first_round(THREE_CARD_MANILA, THREE_CARD_HOLES)


def _later_rounds(game: GameSpec, holes: Mapping[int, str]) -> None:
    hand = manila_hand(game, holes)
    passive(hand, until_street=1)
    burns = ["Td", "Tc", "9c", "9d"]
    for street in (1, 2, 3, 4):
        assert hand.street == street
        assert hand.board == list(parse_cards(" ".join(MANILA_BOARD[: street + 1])))
        assert hand.deck.burned == parse_cards(" ".join(burns[:street]))
        assert events_of(hand, ev.CommunityDealt)[-1].cards == parse_cards(MANILA_BOARD[street])
        assert hand.actor == 2  # the first player left of the button opens
        legal = hand.legal_actions()
        assert legal.check
        assert legal.fold
        assert legal.call is None
        order = []
        while hand.street == street and not hand.is_complete:
            order.append(hand.actor)
            hand.check()
        assert order == [2, 3, 1]
    assert hand.is_complete
    assert len(hand.board) == 5
    assert len(hand.deck.burned) == 4


@pytest.mark.rule(
    "Manila 14.3(a)", "Manila 14.3(b)", "Manila 14.4(a)", "Manila 14.4(b)", "Manila 14.4(c)"
)
def test_manila_later_rounds_burn_and_one_card() -> None:
    _later_rounds(MANILA, MANILA_HOLES)


@pytest.mark.rule("3-Card Manila 15.3(a)", "3-Card Manila 15.3(b)", "3-Card Manila 15.4")
def test_three_card_manila_later_rounds_burn_and_one_card() -> None:
    _later_rounds(THREE_CARD_MANILA, THREE_CARD_HOLES)


def _bet_clockwise(game: GameSpec, holes: Mapping[int, str]) -> None:
    hand = manila_hand(game, holes)
    passive(hand, until_street=1)
    hand.check()  # 2
    hand.raise_to(20)  # 3 opens
    assert hand.actor == 1
    assert not hand.can_check()
    hand.call()  # 1
    assert hand.actor == 2
    hand.fold()  # 2
    assert hand.street == 2  # the round is over: two remain
    hand.raise_to(10)  # 3 opens (2 is out)
    hand.fold()  # 1: one player remains and wins
    assert hand.is_complete
    assert winners(hand) == {3: 70}
    assert len(hand.board) == 3


@pytest.mark.rule("Manila 14.3(c)")
def test_manila_later_round_betting_runs_clockwise() -> None:
    _bet_clockwise(MANILA, MANILA_HOLES)


@pytest.mark.rule("3-Card Manila 15.3(c)")
def test_three_card_manila_later_round_betting_runs_clockwise() -> None:
    _bet_clockwise(THREE_CARD_MANILA, THREE_CARD_HOLES)


@pytest.mark.rule("Manila 14.4(d)", "Poker 5 (stripped-deck ranks)")
def test_manila_flush_beats_full_house() -> None:
    hand = manila_hand()
    passive(hand, until_street=4)
    hand.check()  # 2
    hand.raise_to(40)  # 3: the called player, with a full house
    hand.call()  # 1
    hand.call()  # 2
    flush, full_house = hand.hand_of(2), hand.hand_of(3)
    assert flush is not None
    assert full_house is not None
    assert flush.category is Category.FLUSH
    assert full_house.category is Category.FULL_HOUSE
    assert flush > full_house
    assert shown_or_mucked(hand) == [(3, True), (1, False), (2, True)]
    assert winners(hand) == {2: 150}


@pytest.mark.rule("Manila 14.4(d)", "Poker 5 (stripped-deck ranks)")
def test_manila_ace_plays_below_the_seven() -> None:
    holes = {2: "Ts 9h", 3: "Kd Kc", 1: "Qd Jd"}
    hand = manila_hand(MANILA, holes, ("Ah", "7c", "8d", "Ks", "Qs"))
    passive(hand)
    low = hand.hand_of(2)
    assert low is not None
    assert low.category is Category.STRAIGHT
    assert set(low.best_five) == set(parse_cards("Ah 7c 8d 9h Ts"))
    trips = hand.hand_of(3)
    assert trips is not None
    assert trips.category is Category.THREE_OF_A_KIND
    assert low > trips  # a straight beats trips in the 32-card ranking too
    assert winners(hand) == {2: 30}


@pytest.mark.rule("Manila 14 (hand composition)", "Manila 14.4(d)")
def test_manila_hand_uses_both_hole_cards() -> None:
    holes = {2: "Ts 8c", 3: "7d 7c", 1: "Kd Qd"}
    hand = manila_hand(MANILA, holes, ("As", "Ks", "Qs", "Js", "9h"))
    passive(hand)
    value = hand.hand_of(2)
    assert value is not None
    assert value.describe() == "Straight, queen high"  # not a royal flush with Ts alone
    assert set(value.own_cards) == set(parse_cards("Ts 8c"))


@pytest.mark.rule("3-Card Manila 15 (hand composition)")
def test_three_card_manila_exactly_two_of_three_hole_cards() -> None:
    holes = {2: "Ts 9h 8h", 3: "7d 7c 7h", 1: "Kd Qd 8d"}
    hand = manila_hand(THREE_CARD_MANILA, holes, ("As", "Ks", "Qs", "Js", "8c"))
    passive(hand)
    straight = hand.hand_of(2)
    assert straight is not None
    assert straight.describe() == "Straight, king high"  # Ts 9h + Ks Qs Js, never a royal
    assert len(straight.own_cards) == 2
    trips = hand.hand_of(3)
    assert trips is not None
    assert trips.category is Category.PAIR  # only two of the three sevens may play


# ===================================================================== Five Card Stud (12)

STUD_SEATS = (1, 2, 3, 4)
STUD_BUTTON = 2  # the dealer position: the deal starts at seat 3
STUD_FIRST = {3: "9c 3d", 4: "Jc 3c", 1: "2d 5h", 2: "Td Ks"}  # down, up


def five_stud(
    first: Mapping[int, str] = STUD_FIRST,
    later: Sequence[Mapping[int, str]] = (),
    *,
    structure: BettingStructure | None = None,
    automatic: bool = True,
) -> HandState:
    """Five Card Stud, seats 1-4, dealer position seat 2, ante 1, bring-in 10."""
    streets: list[StreetSpec] = [(first, "")] + [(ups, "") for ups in later]
    deck = build_deck(FIVE_CARD_STUD, STUD_BUTTON, streets)
    rules = stud_rules(FIVE_CARD_STUD, structure)
    return HandState(
        rules, dict.fromkeys(STUD_SEATS, 200), STUD_BUTTON, deck=deck, automatic=automatic
    )


@pytest.mark.rule("Five Card Stud 12.1(b)")
def test_five_stud_everyone_antes_before_any_card() -> None:
    hand = five_stud(automatic=False)
    assert hand.next_chore is Chore.POST_FORCED_BETS
    hand.step()
    assert [(a.seat, a.amount) for a in events_of(hand, ev.AntePosted)] == [
        (3, 1),
        (4, 1),
        (1, 1),
        (2, 1),
    ]
    assert not events_of(hand, ev.CardsDealt)
    assert hand.total_pot == 4
    assert all(p.bet == 0 for p in hand.players.values())  # antes are dead money
    assert (hand.next_chore, hand.street_name) == (Chore.DEAL, "second card")
    auto = five_stud()
    last_ante = max(i for i, e in enumerate(auto.events) if isinstance(e, ev.AntePosted))
    assert last_ante < first_index(auto, ev.CardsDealt)


@pytest.mark.rule("Five Card Stud 12.1(b)")
@pytest.mark.parametrize("game", [FIVE_CARD_STUD, SEVEN_CARD_STUD])
def test_stud_without_an_ante_is_refused(game: GameSpec) -> None:
    with pytest.raises(RuleViolationError) as info:  # refused when the rules are built
        TableRules(game, FixedLimit(10, 20), blinds=(), ante=0, table_minimum=10)
    assert info.value.rule == "Five Card Stud 12.1(b)"


@pytest.mark.rule("Five Card Stud 12.1(c)")
def test_five_stud_one_down_then_one_up_from_the_dealers_left() -> None:
    hand = five_stud()
    deals = dealt(hand)
    assert [(seat, up) for seat, _, up in deals] == [
        (3, False),
        (4, False),
        (1, False),
        (2, False),
        (3, True),
        (4, True),
        (1, True),
        (2, True),
    ]
    for seat, cards in STUD_FIRST.items():
        down, up = parse_cards(cards)
        assert hand.players[seat].down == [down]
        assert hand.players[seat].up == [up]


@pytest.mark.rule("Five Card Stud 12.2(a)")
def test_five_stud_lowest_up_card_brings_in_clubs_lowest() -> None:
    hand = five_stud()  # up cards 3d (seat 3), 3c (seat 4), 5h, Ks: 3c is lowest
    assert hand.actor == 4
    legal = hand.legal_actions()
    assert legal.bring_in == (10, 10)
    assert not legal.fold
    assert not legal.check
    assert legal.call is None
    for action, args in (("fold", ()), ("check", ()), ("call", ()), ("raise_to", (20,))):
        refused(hand, getattr(hand, action), *args)
    refused(hand, hand.bring_in, 9)
    hand.bring_in(10)
    assert events_of(hand, ev.BringIn) == [ev.BringIn(4, 10, False)]


@pytest.mark.rule("Five Card Stud 12.2(a)")
def test_five_stud_rank_before_suit_for_the_bring_in() -> None:
    first = {3: "9c 2s", 4: "Jc 3c", 1: "2d 5h", 2: "Td Ks"}
    hand = five_stud(first, structure=NoLimit())
    assert hand.actor == 3  # the 2 of spades is lower than the 3 of clubs
    assert hand.legal_actions().bring_in == (10, 199)
    refused(hand, hand.bring_in, 9)
    assert hand.can_bring_in(199)


@pytest.mark.rule("Five Card Stud 12.2(a)", "Omaha 17.5(e)")
def test_five_stud_bring_in_respects_the_chip_unit() -> None:
    rules = TableRules(FIVE_CARD_STUD, NoLimit(), blinds=(), ante=5, table_minimum=10, chip_unit=5)
    deck = build_deck(FIVE_CARD_STUD, 1, [({2: "9c 3d", 3: "Jc 4c", 1: "2d 5h"}, "")])
    hand = HandState(rules, {1: 200, 2: 200, 3: 200}, 1, deck=deck)
    assert hand.actor == 2
    assert hand.legal_actions().bring_in == (10, 195)
    assert not hand.can_raise_to(12)
    assert not hand.can_bring_in(12)
    assert not hand.can_bring_in(10.5)  # type: ignore[arg-type]


@pytest.mark.rule("Five Card Stud 12.2(a)", "Poker definitions: Fixed Bet")
def test_five_stud_every_advertised_bring_in_is_accepted() -> None:
    rules = TableRules(FIVE_CARD_STUD, FixedLimit(20, 40), blinds=(), ante=5, table_minimum=10)
    hand = HandState(rules, {1: 200, 2: 200, 3: 200}, 1, seed=3)
    legal = hand.legal_actions()
    assert legal.bring_in == (10, 20)
    assert legal.bring_in_ends_only  # fixed limit: bring in, or complete to the bet
    assert legal.describe() == "bring in for 10 or complete to 20"
    assert [a for a in range(0, 41) if hand.can_bring_in(a)] == [10, 20]


@pytest.mark.rule("Five Card Stud 12.2(a)")
def test_five_stud_bring_in_below_the_table_minimum_is_refused() -> None:
    with pytest.raises(RuleViolationError):
        stud_rules(bring_in=5).validate()
    stud_rules(bring_in=15).validate()


@pytest.mark.rule("Five Card Stud 12.2(b)")
def test_five_stud_players_after_the_bring_in_call_raise_or_fold() -> None:
    hand = five_stud()
    hand.bring_in(10)
    order = []
    while not hand.is_complete:
        order.append(hand.actor)
        legal = hand.legal_actions()
        assert (legal.fold, legal.check, legal.call) == (True, False, 10)
        assert legal.raise_to == (20, 20)
        hand.fold()
    assert order == [1, 2, 3]
    assert hand.stacks[4] == 203  # the other three antes
    assert hand.deck.burned == ()
    assert all(len(p.cards) == 2 for p in hand.players.values())


SECOND_UP = {4: "3s", 1: "Ah", 2: "Qs"}  # seat 3 has folded
THIRD_UP = {4: "8d", 1: "7d", 2: "Kd"}
FOURTH_UP = {4: "6c", 1: "4s", 2: "9d"}


def five_stud_to_showdown() -> HandState:
    hand = five_stud(STUD_FIRST, [SECOND_UP, THIRD_UP, FOURTH_UP])
    hand.bring_in(10)  # 4
    hand.call()  # 1
    hand.call()  # 2
    hand.fold()  # 3
    return hand


@pytest.mark.rule("Five Card Stud 12.3+ (streets)")
def test_five_stud_burn_and_one_up_card_to_each_active_player() -> None:
    hand = five_stud_to_showdown()
    assert hand.street == 1
    assert len(hand.deck.burned) == 1
    burn = first_index(hand, ev.CardBurned)
    after = [(e.seat, e.up) for e in hand.events[burn:] if isinstance(e, ev.CardsDealt)]
    assert after == [(4, True), (1, True), (2, True)]  # clockwise, the folded seat 3 skipped
    passive(hand)
    assert len(hand.deck.burned) == 3
    for seat in (4, 1, 2):
        assert len(hand.players[seat].down) == 1
        assert len(hand.players[seat].up) == 4
    assert len(hand.players[3].cards) == 2
    assert hand.players[2].up == list(parse_cards("Ks Qs Kd 9d"))


@pytest.mark.rule("Five Card Stud 12.3+ (first to act)")
def test_five_stud_best_exposed_hand_opens() -> None:
    hand = five_stud_to_showdown()
    assert hand.actor == 4  # 3c 3s: a pair beats A-5 and K-Q
    legal = hand.legal_actions()
    assert legal.check
    assert legal.bring_in is None
    passive(hand, until_street=2)
    assert hand.actor == 2  # Ks Qs Kd: a pair of kings beats the threes
    passive(hand, until_street=3)
    assert hand.actor == 2


@pytest.mark.rule("Five Card Stud 12.3+ (first to act)")
def test_five_stud_equal_exposed_hands_first_from_the_dealers_left() -> None:
    first = {3: "9c 3d", 4: "Jc 3c", 1: "2d 5h", 2: "Td 5s"}
    hand = five_stud(first, [{4: "Kc", 1: "Ah", 2: "As"}])
    hand.bring_in(10)
    hand.call()
    hand.call()
    hand.fold()
    assert hand.actor == 1  # A-5 for seats 1 and 2 (suits do not count): seat 1 is first


@pytest.mark.rule("Five Card Stud 12.3+ (showdown)")
def test_five_stud_showdown_called_player_first_best_hand_wins() -> None:
    hand = five_stud_to_showdown()
    passive(hand, until_street=3)
    assert hand.actor == 2
    hand.raise_to(20)  # 2 bets with K-K
    hand.call()  # 4: 3-3
    hand.call()  # 1: A high
    assert shown_or_mucked(hand) == [(2, True), (4, False), (1, False)]
    kings = hand.hand_of(2)
    assert kings is not None
    assert kings.describe().startswith("Pair of kings")
    assert winners(hand) == {2: 94}  # 4 antes + 3 x 10 + 3 x 20


@pytest.mark.rule("Five Card Stud 12.3+ (forced bets)")
def test_five_stud_has_no_blinds_only_ante_and_bring_in() -> None:
    hand = five_stud()
    assert not events_of(hand, ev.BlindPosted)
    assert len(events_of(hand, ev.AntePosted)) == 4
    assert hand.current_bet == 0
    assert not hand.can_fold()  # the bring-in is forced
    hand.bring_in(10)
    assert hand.current_bet == 10


# ==================================================================== Seven Card Stud (13)

SEVEN_FIRST = {1: "Ac Ad 4h", 2: "Kc Kd 4c", 3: "2s 7s 9s", 4: "Qc Jd Kh"}  # 2 down, 1 up


def seven_stud(later: Sequence[Mapping[int, str]] = ()) -> HandState:
    """Seven Card Stud, seats 1-4, dealer position seat 4."""
    streets: list[StreetSpec] = [(SEVEN_FIRST, "")] + [(cards, "") for cards in later]
    deck = build_deck(SEVEN_CARD_STUD, 4, streets)
    return HandState(stud_rules(SEVEN_CARD_STUD), dict.fromkeys(SEVEN_FIRST, 300), 4, deck=deck)


@pytest.mark.rule("Seven Card Stud 13 (deal)")
def test_seven_stud_ante_two_down_one_up() -> None:
    hand = seven_stud()
    assert [a.seat for a in events_of(hand, ev.AntePosted)] == [1, 2, 3, 4]
    assert max(i for i, e in enumerate(hand.events) if isinstance(e, ev.AntePosted)) < (
        first_index(hand, ev.CardsDealt)
    )
    assert [(seat, up) for seat, _, up in dealt(hand)] == (
        [(s, False) for s in (1, 2, 3, 4)] * 2 + [(s, True) for s in (1, 2, 3, 4)]
    )
    for seat, cards in SEVEN_FIRST.items():
        own = parse_cards(cards)
        assert hand.players[seat].down == list(own[:2])
        assert hand.players[seat].up == list(own[2:])


@pytest.mark.rule("Seven Card Stud 13 (bring-in)")
def test_seven_stud_lowest_up_card_brings_in_clubs_lowest() -> None:
    hand = seven_stud()  # 4h and 4c: the club brings in
    assert hand.actor == 2
    assert hand.legal_actions().bring_in == (10, 10)
    assert not hand.can_fold()
    assert not hand.can_check()


FOURTH = {1: "5d", 2: "6d", 3: "9h", 4: "2c"}
FIFTH = {1: "8c", 2: "Th", 3: "3d", 4: "2h"}
SIXTH = {1: "Jh", 2: "Js", 3: "3c", 4: "2d"}
SEVENTH = {1: "Ah", 2: "Qd", 3: "Ts", 4: "6h"}


@pytest.mark.rule("Seven Card Stud 13 (streets)")
def test_seven_stud_three_up_then_one_down_each_after_a_burn() -> None:
    hand = seven_stud([FOURTH, FIFTH, SIXTH, SEVENTH])
    passive(hand)
    assert len(hand.deck.burned) == 4
    for seat in SEVEN_FIRST:
        player = hand.players[seat]
        assert len(player.down) == 3
        assert len(player.up) == 4
        assert player.down[-1] == parse_cards(SEVENTH[seat])[0]
    bursts: list[list[tuple[int, bool]]] = []
    for event in hand.events:
        if isinstance(event, ev.CardBurned):
            bursts.append([])
        elif isinstance(event, ev.CardsDealt) and bursts:
            bursts[-1].append((event.seat, event.up))
    assert bursts == [[(s, True) for s in (1, 2, 3, 4)]] * 3 + [[(s, False) for s in (1, 2, 3, 4)]]
    assert hand.board == []
    aces = hand.hand_of(1)
    assert aces is not None
    assert aces.category is Category.THREE_OF_A_KIND


@pytest.mark.rule("Seven Card Stud 13 (first to act)")
def test_seven_stud_best_exposed_hand_acts_first_from_fourth_street() -> None:
    hand = seven_stud([FOURTH, FIFTH, SIXTH, SEVENTH])
    hand.bring_in(10)  # 2
    hand.call()  # 3
    hand.call()  # 4
    hand.call()  # 1
    assert hand.street_name == "fourth street"
    assert hand.actor == 3  # 9s 9h beats K-2, 6-4 and 5-4
    assert hand.legal_actions().check
    passive(hand, until_street=2)
    assert hand.actor == 3  # 9-9-3 beats 2-2-K
    passive(hand, until_street=3)
    assert hand.actor == 4  # 2-2-2-K beats 9-9-3-3
    passive(hand, until_street=4)
    assert hand.street_name == "seventh street"
    assert hand.actor == 4  # the seventh card is down: the same board still leads


def _seven_stud_eight(fold_one: bool) -> HandState:
    rules = stud_rules(SEVEN_CARD_STUD, NoLimit())
    hand = HandState(rules, dict.fromkeys(range(1, 9), 100), 8, seed=2024)
    bring_in = hand.legal_actions().bring_in
    assert bring_in is not None
    hand.bring_in(bring_in[0])
    if fold_one:
        hand.fold()
    passive(hand)
    return hand


@pytest.mark.rule("Seven Card Stud 13 (streets)")
def test_seven_stud_community_card_when_the_deck_runs_short() -> None:
    # eight players, seven reach seventh street: 24 + 3 x (1 + 7) + 1 burn = 49 cards out,
    # three left for seven players, so one community card plays for everyone
    hand = _seven_stud_eight(fold_one=True)
    assert hand.is_complete
    assert len(hand.board) == 1
    assert len(events_of(hand, ev.CommunityDealt)) == 1
    live = [p for p in hand.players.values() if not p.folded]
    assert len(live) == 7
    assert all(len(p.cards) == 6 for p in live)
    for player in live:
        value = hand.hand_of(player.seat)
        assert value is not None
        assert value.board == tuple(hand.board)
    held = [c for p in hand.players.values() for c in p.cards] + hand.board
    assert len(held) + len(hand.deck.burned) == len(set(held) | set(hand.deck.burned))


@pytest.mark.rule("Seven Card Stud 13 (streets)")
def test_seven_stud_eight_players_to_seventh_street_get_a_community_card() -> None:
    # 24 + 3 x (burn + 8) = 51 cards out: the last card is the community card, not a burn
    hand = _seven_stud_eight(fold_one=False)
    assert hand.is_complete
    assert len(hand.board) == 1
    assert all(len(p.cards) == 6 for p in hand.players.values())


# ========================================================================= Draw (11)

DRAW_HOLES = {2: "2c 7d 9h Jc Ks", 3: "As Ad 4c 5c 8h", 1: "Qs Qd Qc 3h 6s"}
DRAW_REPLACEMENTS = {2: "Kh Kd Kc Th", 3: "Ah 8d 2d", 1: "Tc 4s"}
DRAW_DISCARDS = {2: "2c 7d 9h Jc", 3: "4c 5c 8h", 1: "3h 6s"}


def draw_hand(voluntary_blind: bool = False) -> HandState:
    """Draw, seats 1-3, button 1: seat 2 posts 5, seat 3 posts 10."""
    deck = build_deck(DRAW, 1, [(DRAW_HOLES, ""), (DRAW_REPLACEMENTS, "")], burns=["7c"])
    stacks = dict.fromkeys(DRAW_HOLES, 300)
    return HandState(blind_rules(DRAW), stacks, 1, deck=deck, voluntary_blind=voluntary_blind)


@pytest.mark.rule("Draw 11 (deal and draw)")
def test_draw_five_cards_one_at_a_time_from_left_of_button() -> None:
    hand = draw_hand()
    assert [seat for seat, _, _ in dealt(hand)] == [2, 3, 1] * 5
    assert all(len(cards) == 1 and not up for _, cards, up in dealt(hand))
    for seat, cards in DRAW_HOLES.items():
        assert hand.players[seat].down == list(parse_cards(cards))
    assert hand.actor == 1  # left of the last blind
    assert not hand.can_check()
    assert not hand.can_discard([])  # no draw before the first round is over


@pytest.mark.rule("Draw 11 (deal and draw)")
def test_draw_burn_then_discards_replaced_clockwise() -> None:
    hand = draw_hand()
    passive(hand, until_street=1)
    assert hand.street_name == "draw"
    assert hand.deck.burned == parse_cards("7c")
    assert hand.actor == 2  # the draw starts left of the button
    assert hand.legal_actions().discard
    refused(hand, hand.discard, ["As"])  # not seat 2's card
    refused(hand, hand.fold)
    refused(hand, hand.check)
    for seat in (2, 3, 1):
        assert hand.actor == seat
        hand.discard(DRAW_DISCARDS[seat])
        kept = [
            c for c in parse_cards(DRAW_HOLES[seat]) if c not in parse_cards(DRAW_DISCARDS[seat])
        ]
        assert hand.players[seat].down == kept + list(parse_cards(DRAW_REPLACEMENTS[seat]))
        assert len(hand.players[seat].down) == 5
    assert [(d.seat, d.cards) for d in events_of(hand, ev.Discarded)] == [
        (seat, parse_cards(DRAW_DISCARDS[seat])) for seat in (2, 3, 1)
    ]
    assert hand.deck.discards == parse_cards(" ".join(DRAW_DISCARDS[s] for s in (2, 3, 1)))
    # the second (last) betting round opens left of the button
    assert hand.street_name == "draw"
    assert hand.actor == 2
    assert hand.legal_actions().check
    passive(hand)
    assert len(hand.deck.burned) == 1
    kings, aces, queens = hand.hand_of(2), hand.hand_of(3), hand.hand_of(1)
    assert kings is not None
    assert aces is not None
    assert queens is not None
    assert kings.category is Category.FOUR_OF_A_KIND
    assert aces.category is Category.THREE_OF_A_KIND
    assert queens.category is Category.THREE_OF_A_KIND
    assert winners(hand) == {2: 30}


@pytest.mark.rule("Draw 11 (deal and draw)")
def test_draw_standing_pat_keeps_the_hand() -> None:
    hand = draw_hand()
    passive(hand, until_street=1)
    before = {s: list(p.down) for s, p in hand.players.items()}
    for _ in range(3):
        hand.discard([])
    assert {s: p.down for s, p in hand.players.items()} == before
    assert not events_of(hand, ev.CardsDealt)[15:]


@pytest.mark.rule("Draw 11 (deal and draw)")
def test_draw_restock_never_returns_a_players_own_discards() -> None:
    # everyone draws five: the stub (11 cards) runs short and the discards are reshuffled,
    # never the drawing player's own (docs/decisions.md, Draw 11)
    returned: list[tuple[int, int]] = []
    for seed in range(12):
        rules = blind_rules(DRAW)
        hand = HandState(rules, dict.fromkeys(range(1, 9), 100), 8, seed=seed)
        passive(hand, until_street=1)
        while hand.legal_actions().discard:
            seat = hand.legal_actions().actor
            assert seat is not None
            mine = list(hand.players[seat].down)
            hand.discard(mine)  # everyone draws five: the stub (11 cards) runs short
            if set(mine) & set(hand.players[seat].down):
                returned.append((seed, seat))
        passive(hand)
        assert hand.is_complete
    assert returned == []


@pytest.mark.rule("Draw 11.x(c)")
@pytest.mark.parametrize(("blinds", "voluntary"), [((5, 10), 20), ((10, 25), 50), ((25,), 50)])
def test_draw_voluntary_blind_is_exactly_twice_the_last_blind(
    blinds: tuple[int, ...], voluntary: int
) -> None:
    rules = blind_rules(DRAW, blinds=blinds)
    seats = dict.fromkeys((1, 2, 3, 4), 500)
    hand = HandState(rules, seats, 1, seed=5, voluntary_blind=True)
    posted = events_of(hand, ev.BlindPosted)
    straddler = 2 + len(blinds)
    assert [(b.seat, b.voluntary) for b in posted] == [
        *((2 + i, False) for i in range(len(blinds))),
        (straddler, True),
    ]
    assert posted[-1].amount == voluntary == 2 * blinds[-1]
    assert hand.current_bet == voluntary
    first = 1 if straddler == 4 else 4
    assert hand.actor == first  # left of the voluntary blind
    assert hand.legal_actions().call == voluntary
    assert not hand.can_check()
    while hand.actor != straddler:
        hand.call()
    legal = hand.legal_actions()  # the voluntary blind is live: its poster has the option
    assert legal.check
    assert legal.raise_to is not None


@pytest.mark.rule("Draw 11.x(c)")
@pytest.mark.parametrize("game", [HOLDEM, OMAHA, MANILA, THREE_CARD_MANILA])
def test_voluntary_blind_only_in_section_eleven(game: GameSpec) -> None:
    with pytest.raises(RuleViolationError):
        HandState(blind_rules(game), {1: 100, 2: 100, 3: 100}, 1, seed=1, voluntary_blind=True)


@pytest.mark.rule("Draw 11.x(c)")
def test_draw_voluntary_blind_needs_a_player_left_of_the_last_blind() -> None:
    # heads up the voluntary blind would fall to the first blind's poster: refused
    with pytest.raises(RuleViolationError, match=r"Draw 11\.x\(c\)"):
        HandState(blind_rules(DRAW), {1: 100, 2: 100}, 1, seed=5, voluntary_blind=True)
    hand = HandState(blind_rules(DRAW), {1: 100, 2: 100, 3: 100}, 1, seed=5, voluntary_blind=True)
    posted = events_of(hand, ev.BlindPosted)
    assert [(b.seat, b.amount, b.voluntary) for b in posted] == [
        (2, 5, False),
        (3, 10, False),
        (1, 20, True),
    ]
    assert hand.actor == 2
    assert hand.legal_actions().call == 15
