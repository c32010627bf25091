"""Property tests of the poker referee over every game and every betting structure.

Hypothesis draws a table (players, stacks down to a chip or two, the button, the deck's
seed, the chip unit, the forced bets) and then a hand: at each turn one of the legal
actions, with bets and raises at the minimum, the maximum or in between, and draws of
random subsets. At every step the hand must keep its chips and its cards straight,
accept every legal action, refuse a sample of illegal ones without changing anything,
and finish; at the end the pots must pay out exactly what was put in, the side-pot
rule must hold, and the event log must replay to the same hand.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from helpers import community_deck, passive, refused, winners
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.cards import Card, full_deck, stripped_deck
from croupier.errors import RuleViolationError
from croupier.poker import (
    GAMES,
    HOLDEM,
    OMAHA,
    BettingStructure,
    Chore,
    FixedLimit,
    ForcedBets,
    GameSpec,
    HandState,
    IllegalActionError,
    NoLimit,
    Phase,
    PotLimit,
    SpreadLimit,
    TableRules,
    build_pots,
)
from croupier.poker import events as ev

STRUCTURES: dict[str, BettingStructure] = {
    "no-limit": NoLimit(),
    "pot-limit": PotLimit(),
    "half-pot": PotLimit(Fraction(1, 2)),
    "fixed-limit": FixedLimit(10, 20),
    "spread-limit": SpreadLimit(10, 50),
}

MAX_STEPS = 600
"""More player decisions than any hand can need (raises are capped or stacks run out)."""

PROPERTY_SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# ----------------------------------------------------------------------------- drawing


@st.composite
def tables(
    draw: st.DrawFn, game: GameSpec, structure: BettingStructure
) -> tuple[TableRules, dict[int, int], int, int, bool, bool]:
    """Rules, stacks, button, seed, voluntary blind, automatic: one table for ``game``."""
    unit = draw(st.sampled_from([1, 5]))
    count = draw(st.integers(2, game.max_players))
    if game.forced is ForcedBets.ANTE_BRING_IN:
        rules = TableRules(
            game,
            structure,
            blinds=(),
            ante=draw(st.sampled_from([5, 10])),
            bring_in=draw(st.sampled_from([None, 10, 20])),
            table_minimum=10,
            chip_unit=unit,
        )
    else:
        shapes = [(5, 10), (10,)] + ([(5, 10, 10)] if count >= 3 else [])
        rules = TableRules(
            game, structure, blinds=draw(st.sampled_from(shapes)), table_minimum=10, chip_unit=unit
        )
    seats = draw(st.lists(st.integers(1, 10), min_size=count, max_size=count, unique=True))
    tiny = st.integers(1, 6)  # a chip or a few: forces all-ins from the forced bets on
    deep = st.integers(7, 400)
    stacks = {seat: unit * draw(st.one_of(tiny, deep)) for seat in sorted(seats)}
    button = draw(st.sampled_from(sorted(seats)))
    seed = draw(st.integers(0, 2**32 - 1))
    # a voluntary blind needs a player left of the last blind (nobody posts two blinds)
    voluntary = game.voluntary_blind and count > len(rules.blinds) and draw(st.booleans())
    automatic = draw(st.booleans())
    return rules, stacks, button, seed, voluntary, automatic


# ---------------------------------------------------------------------------- checking


def deck_of(game: GameSpec) -> frozenset[Card]:
    """Every card of the game's deck."""
    lowest = game.ranking.lowest_rank
    return frozenset(stripped_deck(lowest) if lowest > 0 else full_deck())


def check_chips(hand: HandState, start: dict[int, int]) -> None:
    """Table stakes: chips only move between stacks and the pot; no stack below zero."""
    total = sum(start.values())
    stacks = hand.stacks
    assert all(chips >= 0 for chips in stacks.values())
    if hand.is_complete:
        assert sum(stacks.values()) == total
    else:
        assert sum(stacks.values()) + hand.total_pot == total
    for seat, player in hand.players.items():
        assert player.bet >= 0
        assert 0 <= player.contributed <= start[seat]
        if not hand.is_complete:
            assert player.stack + player.contributed == start[seat]


def check_cards(hand: HandState, universe: frozenset[Card]) -> None:
    """No card is in two places; every card comes from the game's deck."""
    held = [c for p in hand.players.values() for c in p.cards]
    out = held + list(hand.board) + list(hand.deck.burned)
    assert len(out) == len(set(out)), Counter(out).most_common(3)
    assert set(out) <= universe
    assert not set(out) & set(hand.deck.remaining)
    deck = hand.deck
    assert set(deck.remaining) | set(deck.dealt) | set(deck.burned) == universe
    dealt = Counter(hand.deck.dealt)
    repeats = {card for card, n in dealt.items() if n > 1}
    # draw poker reshuffles discards when the stub runs short: only they are dealt twice
    assert repeats <= set(hand.deck.discards)
    if not any(street.draw for street in hand.game.streets):
        assert not repeats
        assert not hand.deck.discards
        assert len(deck.remaining) + len(deck.dealt) + len(deck.burned) == len(universe)
    for player in hand.players.values():
        assert len(player.cards) <= hand.game.hole_cards


def refuse_everything(hand: HandState) -> None:
    """Nobody may act: every action is refused."""
    for action, args in (
        ("fold", ()),
        ("check", ()),
        ("call", ()),
        ("raise_to", (hand.current_bet + 10,)),
        ("bring_in", (10,)),
        ("discard", ([],)),
    ):
        refused(hand, getattr(hand, action), *args)


def amount_between(data: st.DataObject, low: int, high: int, unit: int, all_in: int) -> int:
    """The minimum, the maximum or a chip-unit amount in between."""
    middle = [v * unit for v in range(-(-low // unit), high // unit + 1)]
    options = [low, high] + ([data.draw(st.sampled_from(middle))] if middle else [])
    amount = data.draw(st.sampled_from(options))
    assert amount % unit == 0 or amount == all_in
    return amount


def play_one_turn(hand: HandState, data: st.DataObject, universe: frozenset[Card]) -> None:
    """Check the legal actions, try illegal ones, then take a random legal one."""
    legal = hand.legal_actions()
    seat = legal.actor
    assert seat is not None
    assert seat == hand.actor
    player = hand.players[seat]
    unit = hand.rules.chip_unit
    all_in = player.bet + player.stack

    if legal.discard:
        assert not player.folded
        stray = sorted(universe - set(player.down))
        refused(hand, hand.discard, [data.draw(st.sampled_from(stray))])
        for action, args in (("fold", ()), ("check", ()), ("call", ()), ("raise_to", (10,))):
            refused(hand, getattr(hand, action), *args)
        count = data.draw(st.integers(0, len(player.down)))
        chosen = data.draw(st.permutations(player.down))[:count]
        assert hand.can_discard(chosen)
        before = len(player.down)
        hand.discard(chosen)
        assert len(hand.players[seat].down) == before
        return

    refused(hand, hand.discard, [])
    options: list[tuple[str, int]] = []
    if legal.bring_in is not None:
        low, high = legal.bring_in
        assert not legal.fold
        assert not legal.check
        assert legal.call is None
        assert legal.raise_to is None
        refused(hand, hand.bring_in, low - 1)
        refused(hand, hand.bring_in, high + 1)
        for action, args in (("fold", ()), ("check", ()), ("call", ()), ("raise_to", (high,))):
            refused(hand, getattr(hand, action), *args)
        for amount in (low, high):
            assert hand.can_bring_in(amount)
        options.append(("bring_in", amount_between(data, low, high, unit, all_in)))
    else:
        refused(hand, hand.bring_in, hand.rules.bring_in_amount)
        to_call = hand.current_bet - player.bet
        if legal.check:
            assert hand.can_check()
            assert to_call == 0
            options.append(("check", 0))
        else:
            refused(hand, hand.check)
        if legal.call is not None:
            assert hand.can_call()
            assert legal.call == min(to_call, player.stack)  # Call, Table Stakes
            options.append(("call", 0))
        else:
            refused(hand, hand.call)
        if legal.fold:
            assert hand.can_fold()
            options.append(("fold", 0))
        else:
            refused(hand, hand.fold)
        if legal.raise_to is not None:
            low, high = legal.raise_to
            assert hand.current_bet < low <= high <= all_in  # Table Stakes
            for amount in (low, high):
                assert hand.can_raise_to(amount)
            refused(hand, hand.raise_to, low - 1)
            refused(hand, hand.raise_to, high + 1)
            refused(hand, hand.raise_to, all_in + unit)
            options.append(("raise_to", amount_between(data, low, high, unit, all_in)))
        else:
            refused(hand, hand.raise_to, max(hand.current_bet, 0) + 10)
    assert options, f"seat {seat} has nothing legal to do: {legal}"
    action, amount = data.draw(st.sampled_from(options))
    events_before = len(hand.events)
    if action in ("raise_to", "bring_in"):
        getattr(hand, action)(amount)
    else:
        getattr(hand, action)()
    taken = hand.events[events_before]
    assert isinstance(taken, ev.PlayerAction)
    assert taken.seat == seat


def run_chores(hand: HandState, data: st.DataObject) -> None:
    """Manual dealing: while a dealer chore is due, no player may act. At the showdown
    some players may concede (a dead hand); at least one player who put in the most
    keeps his hand (see test_all_covering_hands_conceded_against_an_all_in_player)."""
    while hand.phase is Phase.DEALER:
        assert hand.actor is None
        assert hand.legal_actions().actor is None
        refuse_everything(hand)
        live = [s for s, p in hand.players.items() if not p.folded]
        if hand.next_chore is Chore.SHOWDOWN:
            folded = [s for s, p in hand.players.items() if p.folded]
            if folded:
                refused(hand, hand.concede, folded[0])
            top = max(hand.players[s].contributed for s in live)
            keeper = next(s for s in live if hand.players[s].contributed == top)
            conceding = data.draw(st.lists(st.sampled_from(live), unique=True, max_size=3))
            for seat in conceding:
                if seat != keeper:
                    hand.concede(seat)
        else:
            refused(hand, hand.concede, live[0])
        hand.step()


def play_hand(
    data: st.DataObject,
    rules: TableRules,
    stacks: dict[int, int],
    button: int,
    seed: int,
    voluntary: bool,
    automatic: bool,
) -> HandState:
    """Play a whole hand with random legal choices, checking it at every step."""
    universe = deck_of(rules.game)
    if voluntary:  # Draw 11.x(c): a voluntary blind is exactly double, never posted short
        order = sorted(stacks)
        later = [s for s in order if s > button] + [s for s in order if s <= button]
        poster = later[len(rules.blinds) % len(later)]
        if stacks[poster] < 2 * rules.blinds[-1]:
            with pytest.raises(RuleViolationError) as refused:
                HandState(rules, stacks, button, seed=seed, voluntary_blind=True)
            assert refused.value.rule == "Draw 11.x(c)"
            voluntary = False
    hand = HandState(
        rules, stacks, button, seed=seed, voluntary_blind=voluntary, automatic=automatic
    )
    steps = 0
    while not hand.is_complete:
        run_chores(hand, data)
        if hand.is_complete:
            break
        check_chips(hand, stacks)
        check_cards(hand, universe)
        play_one_turn(hand, data, universe)
        steps += 1
        assert steps < MAX_STEPS, "the hand never ends"
    check_chips(hand, stacks)
    check_cards(hand, universe)
    refuse_everything(hand)
    return hand


def check_payout(hand: HandState, start: dict[int, int]) -> None:
    """The pots pay out exactly the chips committed, and only to live, eligible players."""
    committed = {s: p.contributed for s, p in hand.players.items()}
    awards = [e for e in hand.events if isinstance(e, ev.PotAwarded)]
    assert awards == list(hand.awards)
    assert sum(a.amount for a in awards) == sum(committed.values()) == hand.total_pot
    won: dict[int, int] = dict.fromkeys(hand.players, 0)
    for award in awards:
        assert sum(chips for _, chips in award.shares) == award.amount
        assert all(chips >= 0 for _, chips in award.shares)
        for seat, chips in award.shares:
            assert not hand.players[seat].folded
            won[seat] += chips
        if award.odd_chip_seat is not None:
            assert award.odd_chip_seat in dict(award.shares)
    for seat, player in hand.players.items():
        assert player.stack == start[seat] - committed[seat] + won[seat]
        # All-in: a player wins at most what he put in plus as much from each other player
        cap = sum(min(committed[seat], committed[other]) for other in hand.players)
        assert won[seat] <= cap
    ended = hand.events[-1]
    assert isinstance(ended, ev.DealEnded)
    assert dict(ended.stacks) == hand.stacks
    live = [s for s, p in hand.players.items() if not p.folded]
    if len(live) == 1:
        assert won[live[0]] == hand.total_pot
        return
    # cards speak: each pot goes to its best eligible hands. A live player who put in
    # every chip is all in; only the all-in levels make side pots ("All-in").
    all_in = {s for s in live if committed[s] == start[s]}
    folded = {s for s, p in hand.players.items() if p.folded}
    pots = build_pots(committed, folded, all_in)
    assert [p.amount for p in pots] == [a.amount for a in awards]
    for pot, award in zip(pots, awards, strict=True):
        claim = [s for s in pot.eligible if s not in hand.dead] or list(pot.eligible)
        values = {s: hand.hand_of(s) for s in claim}
        ranked = {s: v for s, v in values.items() if v is not None}
        assert len(ranked) == len(values)
        best = max(ranked.values())
        assert {s for s, _ in award.shares} == {s for s, v in ranked.items() if v == best}


# ---------------------------------------------------------------------------- the tests

GAME_IDS = list(GAMES)


@pytest.mark.rule("Poker definitions: Table Stakes", "Poker definitions: All-in")
@pytest.mark.parametrize("structure_name", list(STRUCTURES))
@pytest.mark.parametrize("game_name", GAME_IDS)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_random_hands_keep_chips_cards_and_rules(
    game_name: str, structure_name: str, data: st.DataObject
) -> None:
    game, structure = GAMES[game_name], STRUCTURES[structure_name]
    rules, stacks, button, seed, voluntary, automatic = data.draw(tables(game, structure))
    hand = play_hand(data, rules, stacks, button, seed, voluntary, automatic)
    check_payout(hand, stacks)
    for seat in hand.players:  # any player may ask to see any showdown hand (17.5(d))
        if hand.can_request_show(seat) and data.draw(st.booleans()):
            shown = hand.request_show(seat)
            assert shown.cards == hand.players[seat].cards
        elif not hand.can_request_show(seat):
            refused(hand, hand.request_show, seat)
    replayed = HandState.replay(rules, hand.events)
    assert replayed.snapshot() == hand.snapshot()
    assert replayed.stacks == hand.stacks


# ------------------------------------------------------------------- worked examples

DEAD_BOARD = "2c 7d 9h 3s 4d"


@pytest.mark.rule("Poker definitions: All-in")
def test_all_in_player_wins_only_the_main_pot() -> None:
    # DIGEST scenario 20: 50 all in against 200 and 200: main pot 150, side pot 300
    holes = {1: "Ac Ad", 2: "Kc Kd", 3: "Qc Qd"}
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, {1: 50, 2: 200, 3: 200}, 3, deck=community_deck(holes, 3, DEAD_BOARD))
    assert hand.actor == 3
    hand.raise_to(200)
    assert hand.legal_actions().call == 45  # seat 1 (small blind 5) has 45 behind
    hand.call()
    hand.call()
    assert hand.is_complete
    assert [(a.amount, a.shares) for a in hand.awards] == [(150, ((1, 150),)), (300, ((2, 300),))]
    assert hand.stacks == {1: 150, 2: 300, 3: 0}


@pytest.mark.rule("Poker definitions: All-in")
def test_side_pot_goes_to_the_best_covering_hand_when_the_all_in_loses() -> None:
    holes = {1: "Qc Qd", 2: "Kc Kd", 3: "Ac Ad"}
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, {1: 50, 2: 200, 3: 200}, 3, deck=community_deck(holes, 3, DEAD_BOARD))
    hand.raise_to(200)
    hand.call()
    hand.call()
    assert [(a.amount, a.shares) for a in hand.awards] == [(150, ((3, 150),)), (300, ((3, 300),))]
    assert hand.stacks == {1: 0, 2: 0, 3: 450}


@pytest.mark.rule("Poker definitions: All-in")
def test_free_fold_to_an_all_in_player() -> None:
    # Hold'em, button 1: seat 2 is all in for a 1-chip small blind; seats 3 (big blind)
    # and 1 put in 10 each; on the flop both fold although checking was free
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, {1: 100, 2: 1, 3: 100}, 1, seed=0)
    hand.call()  # 1
    hand.check()  # 3
    assert hand.legal_actions().check
    hand.fold()  # 3, for free
    assert hand.legal_actions().check
    hand.fold()  # 1, for free
    assert hand.is_complete
    won = hand.stacks[2]
    assert won <= 1 + 1 + 1  # what seat 2 put in plus as much from each other player


@pytest.mark.rule("Poker definitions: Table Stakes", "Poker definitions: Call")
def test_call_for_more_than_the_stack_is_an_all_in_call() -> None:
    # DIGEST scenario 25: no chips can be added; the short call is all in
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    holes = {1: "Ac Ad", 2: "Kc Kd", 3: "Qc Qd"}
    hand = HandState(rules, {1: 500, 2: 30, 3: 500}, 3, deck=community_deck(holes, 3, DEAD_BOARD))
    hand.raise_to(100)  # 3
    hand.fold()  # 1
    legal = hand.legal_actions()
    assert legal.call == 20  # seat 2 has 20 behind its 10 blind
    assert legal.raise_to is None
    before = hand.snapshot()
    for amount in (31, 100, 200):
        with pytest.raises(IllegalActionError):
            hand.raise_to(amount)
        assert hand.snapshot() == before
    hand.call()
    called = [e for e in hand.events if isinstance(e, ev.Called)]
    assert called[-1] == ev.Called(2, 20, True)
    assert hand.is_complete
    assert sum(hand.stacks.values()) == 1030
    assert hand.stacks[2] == 65  # 30 from each, plus seat 1's dead blind


@pytest.mark.rule("Poker definitions: Table Stakes")
@pytest.mark.parametrize("game_name", GAME_IDS)
def test_every_player_needs_chips_on_the_table(game_name: str) -> None:
    game = GAMES[game_name]
    if game.forced is ForcedBets.ANTE_BRING_IN:
        rules = TableRules(game, NoLimit(), blinds=(), ante=1, table_minimum=10)
    else:
        rules = TableRules(game, NoLimit(), blinds=(5, 10), table_minimum=10)
    with pytest.raises(RuleViolationError):
        HandState(rules, {1: 100, 2: 0, 3: 100}, 1, seed=1)


# ------------------------------------------------------------------------------ replay


@pytest.mark.rule("Omaha 17.5(d)")
def test_replay_after_a_hand_shown_on_request() -> None:
    rules = TableRules(OMAHA, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, {1: 100, 2: 100, 3: 100}, 1, seed=4)
    passive(hand)
    mucked = [e.seat for e in hand.events if isinstance(e, ev.HandMucked)]
    assert mucked
    hand.request_show(mucked[0])
    assert HandState.replay(rules, hand.events).snapshot() == hand.snapshot()


@pytest.mark.rule("Poker definitions: Ante")
def test_replay_keeps_per_seat_antes() -> None:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, {1: 100, 2: 100, 3: 100}, 1, seed=4, antes={3: 10})
    passive(hand)
    replayed = HandState.replay(rules, hand.events)
    assert replayed.stacks == hand.stacks
    assert replayed.snapshot() == hand.snapshot()


@pytest.mark.rule("Poker definitions: Dead Hand")
def test_replay_keeps_a_conceded_hand_dead() -> None:
    rules = TableRules(OMAHA, NoLimit(), blinds=(5, 10), table_minimum=10)
    hand = HandState(rules, {1: 100, 2: 100, 3: 100}, 1, seed=4, automatic=False)
    while not hand.is_complete:
        if hand.next_chore is Chore.SHOWDOWN:
            hand.concede(2)
        if hand.phase is Phase.DEALER:
            hand.step()
        elif hand.legal_actions().check:
            hand.check()
        else:
            hand.call()
    assert 2 not in {seat for award in hand.awards for seat, _ in award.shares}
    replayed = HandState.replay(rules, hand.events)
    assert replayed.stacks == hand.stacks
    assert replayed.snapshot() == hand.snapshot()


@pytest.mark.rule("Poker definitions: Dead Hand", "Poker definitions: All-in")
def test_all_covering_hands_conceded_against_an_all_in_player() -> None:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
    holes = {1: "Ac Ad", 2: "Kc Kd", 3: "Qc Qd"}
    hand = HandState(
        rules,
        {1: 100, 2: 20, 3: 100},
        1,
        deck=community_deck(holes, 1, DEAD_BOARD),
        automatic=False,
    )
    while hand.actor is None:
        hand.step()
    hand.raise_to(50)  # 1
    hand.call()  # 2, all in for 20
    hand.call()  # 3
    while not hand.is_complete:
        if hand.next_chore is Chore.SHOWDOWN:
            hand.concede(1)
            hand.concede(3)
        if hand.actor is None:
            hand.step()
        else:
            hand.check()
    assert winners(hand)[2] == 60  # the main pot: 20 from each
    assert sum(hand.stacks.values()) == 220
