"""The PettingZoo poker environment: PettingZoo's own checkers for every game and structure,
the seat-view-only observation (another seat's hidden cards change nothing), legal masks,
conserved chips and reproducible seeds.

gymnasium and PettingZoo are in the ``dev`` extra: without them this module fails to import
(never skips).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pettingzoo
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from croupier.cards import Card, parse_cards
from croupier.envs import ActionAbstraction, Move, ObservationLayout, PokerEnv, poker_env
from croupier.envs.poker_actions import rule_discards
from croupier.errors import CroupierError, InvalidActionError
from croupier.poker import GAMES, HOLDEM, FixedLimit, HandState, NoLimit, Rake, TableRules
from croupier.poker import events as ev
from croupier.poker.actions import BringIn, RaiseTo

STRUCTURES = ("no-limit", "pot-limit", "half-pot", "fixed-limit", "spread-limit")
PLAYERS = {"holdem": 6, "omaha": 4, "manila": 3, "manila3": 5, "draw": 4, "stud5": 3, "stud7": 5}
"""Players at the checkers' tables (each game at a different size, every one below its maximum)."""

EXPECTED_WARNINGS = (
    # PettingZoo's checker warns about every Dict observation ({"observation", "action_mask"},
    # the layout of its own classic card games, which it lists as exceptions by name)
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
    # the mask of an agent whose hand is over (nothing is legal)
    "Action mask numpy array is all zeros",
)

COMBOS = [(game, structure) for game in GAMES for structure in STRUCTURES]


def _unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    return [
        str(w.message)
        for w in caught
        if not any(str(w.message).startswith(expected) for expected in EXPECTED_WARNINGS)
    ]


@pytest.mark.parametrize(("game", "structure"), COMBOS)
def test_pettingzoo_api_test(game: str, structure: str) -> None:
    env = poker_env(game, structure, players=PLAYERS[game])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(6):  # each run plays one hand (an episode) of at most 300 cycles
            api_test(env, num_cycles=300)
    assert _unexpected(caught) == []


@pytest.mark.parametrize(("game", "structure"), COMBOS)
def test_pettingzoo_seed_test(game: str, structure: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for button in range(1, 4):  # a different hand from each button
            seed_test(
                lambda b=button: poker_env(game, structure, players=PLAYERS[game], button=b),
                num_cycles=300,
            )
    assert _unexpected(caught) == []


def test_every_game_at_its_largest_table() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for name, game in GAMES.items():
            env = poker_env(name, "no-limit", players=game.max_players)
            for _ in range(3):
                api_test(env, num_cycles=300)
    assert _unexpected(caught) == []


@pytest.mark.parametrize("game", ["stud5", "stud7"])
def test_checkers_with_a_bring_in_below_the_small_bet(game: str) -> None:
    """Fixed limit 20/40 with a bring-in of 10: the bring-in may be completed to 20."""

    def make() -> PokerEnv:
        return poker_env(game, FixedLimit(20, 40), players=4, bring_in=10)

    env = make()
    env.reset(seed=1)
    assert env.legal_moves(env.agent_selection).keys() == {
        Move.MIN_RAISE,
        Move.MAX_RAISE,
        Move.BRING_IN,
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(6):
            api_test(env, num_cycles=300)
        seed_test(make, num_cycles=300)
    assert _unexpected(caught) == []


# ------------------------------------------------------------------ playing hands
def _play(
    env: PokerEnv,
    policy: random.Random,
    *,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    exclude: frozenset[int] = frozenset(),
    watch: str | None = None,
) -> tuple[list[int], list[np.ndarray], dict[str, float]]:
    """Play one hand with random legal actions; the actions taken, ``watch``'s observation
    before every action while the hand is on, and each agent's final reward."""
    env.reset(seed=seed, options=options)
    actions: list[int] = []
    seen: list[np.ndarray] = []
    rewards: dict[str, float] = {}
    hand = env.hand
    assert hand is not None
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        assert not truncated
        if terminated:
            rewards[agent] = reward
            assert info["payoff"] == reward
            assert isinstance(info["payoff"], int)
            env.step(None)
            continue
        if watch is not None:
            seen.append(env.observe(watch)["observation"])
        mask = obs["action_mask"]
        legal = [i for i in np.flatnonzero(mask) if int(i) not in exclude]
        action = int(policy.choice(legal or list(np.flatnonzero(mask))))
        actions.append(action)
        env.step(action)
    return actions, seen, rewards


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    game=st.sampled_from(sorted(GAMES)),
    structure=st.sampled_from([*STRUCTURES, FixedLimit(20, 40)]),  # the last: stud completes
    players=st.integers(2, 8),
    unit=st.sampled_from([1, 5]),
    short=st.booleans(),  # one stack of 17: all in for less, off the chip unit of 5
)
def test_masks_allow_only_legal_actions_and_chips_are_conserved(
    seed: int, game: str, structure: str | FixedLimit, players: int, unit: int, short: bool
) -> None:
    players = min(players, GAMES[game].max_players)
    stacks = [300 + 50 * i for i in range(players)]
    if short:
        stacks[seed % players] = 17
    table: dict[str, Any] = {"chip_unit": unit}
    if game.startswith("stud"):
        table["ante"] = 5
    env = poker_env(game, structure, players=players, stacks=stacks, **table)
    env.reset(seed=seed)
    policy = random.Random(seed)
    hand = env.hand
    assert hand is not None
    while not hand.is_complete:
        agent = env.agent_selection
        assert hand.actor == env.seat_of(agent)
        moves = env.legal_moves(agent)
        mask = env.observe(agent)["action_mask"]
        assert set(np.flatnonzero(mask)) == set(moves)
        assert moves, "the player to act always has a legal action"
        for action in moves.values():
            assert hand.can(action), action
        legal = hand.legal_actions()  # every kind of legal action has an index
        assert legal.fold == (Move.FOLD in moves)
        assert (legal.check or legal.call is not None) == (Move.CHECK_CALL in moves)
        completes = (
            legal.bring_in is not None
            and legal.bring_in_ends_only
            and legal.bring_in[1] > legal.bring_in[0]
        )
        raises = legal.raise_to is not None and legal.bring_in is None
        assert (raises or completes) == (Move.MIN_RAISE in moves)
        assert legal.discard == (Move.STAND_PAT in moves)
        assert (legal.bring_in is not None) == (Move.BRING_IN in moves)
        for other in env.agents:  # nobody else may act
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(policy.choice(sorted(moves)))
    payoffs = hand.payoffs()
    assert sum(payoffs.values()) == 0
    assert sum(hand.stacks.values()) == sum(env.stacks.values())
    for agent in env.agents:
        assert env.rewards[agent] == float(payoffs[env.seat_of(agent)])
        assert env.terminations[agent]


def test_a_rake_is_the_only_chips_that_leave() -> None:
    env = poker_env("holdem", "no-limit", players=3, rake=Rake(percent=Fraction(1, 20), cap=30))
    policy = random.Random(5)
    raked = 0
    for seed in range(30):
        _, _, rewards = _play(env, policy, seed=seed)
        hand = env.hand
        assert hand is not None
        rake = sum(e.amount for e in hand.events if isinstance(e, ev.RakeTaken))
        raked += rake
        assert sum(rewards.values()) == -rake
    assert raked > 0


# ------------------------------------------------------------ the seat view only
def _hidden_swap(hand: HandState, observer: int) -> list[Card]:
    """The hand's deck with every card hidden from ``observer`` (the others' down cards
    and discards) swapped for a card never dealt."""
    order = list(hand.events[0].deck)  # type: ignore[attr-defined]
    hidden: list[Card] = []
    for seat, player in hand.players.items():
        if seat != observer:
            hidden.extend(player.down)
    hidden.extend(
        card
        for e in hand.events
        if isinstance(e, ev.Discarded) and e.seat != observer
        for card in e.cards
    )
    undealt = list(hand.deck.remaining)
    assert len(undealt) >= len(hidden)
    for card, fresh in zip(hidden, undealt, strict=False):
        i, j = order.index(card), order.index(fresh)
        order[i], order[j] = order[j], order[i]
    return order


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_another_seats_hidden_cards_do_not_change_the_observation(game: str, seed: int) -> None:
    structure = "fixed-limit" if game.startswith("stud") else "pot-limit"
    env = poker_env(game, structure, players=3)
    no_rule = frozenset({int(Move.DISCARD_RULE)})  # its cards follow the hidden cards
    actions, seen, _ = _play(env, random.Random(seed), seed=seed, exclude=no_rule, watch="player_0")
    first = env.hand
    assert first is not None
    deck = _hidden_swap(first, observer=1)
    assert deck != list(first.events[0].deck)  # type: ignore[attr-defined]

    twin = poker_env(game, structure, players=3)
    twin.reset(seed=seed, options={"deck": deck, "button": first.button})
    second = twin.hand
    assert second is not None
    for action, expected in zip(actions, seen, strict=True):
        if second.is_complete:
            break
        assert np.array_equal(twin.observe("player_0")["observation"], expected)
        twin.step(action)
    assert second.board == first.board


def test_the_other_seats_own_observation_does_change() -> None:
    """The invariance above has teeth: the swapped cards show in their owner's observation."""
    env = poker_env("holdem", "no-limit", players=2, button=1)
    env.reset(seed=11)
    first = env.hand
    assert first is not None
    before = env.observe("player_1")["observation"].copy()
    observer_before = env.observe("player_0")["observation"].copy()
    deck = list(first.events[0].deck)  # type: ignore[attr-defined]
    own = first.players[2].down[0]
    fresh = first.deck.remaining[-1]
    i, j = deck.index(own), deck.index(fresh)
    deck[i], deck[j] = deck[j], deck[i]
    env.reset(seed=11, options={"deck": deck, "button": 1})
    assert not np.array_equal(env.observe("player_1")["observation"], before)
    assert np.array_equal(env.observe("player_0")["observation"], observer_before)


# ------------------------------------------------------------------- seeding
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_seed_reproduces_a_run_of_hands(game: str) -> None:
    runs = []
    for _ in range(2):
        env = poker_env(game, "no-limit", players=3)
        policy = random.Random(3)
        record = []
        for hand_number in range(5):
            actions, seen, rewards = _play(
                env, policy, seed=17 if hand_number == 0 else None, watch="player_1"
            )
            record.append((actions, [s.tobytes() for s in seen], rewards))
        runs.append(record)
    assert runs[0] == runs[1]
    other = poker_env(game, "no-limit", players=3)
    other.reset(seed=18)
    env = poker_env(game, "no-limit", players=3)
    env.reset(seed=17)
    assert other.hand is not None
    assert env.hand is not None
    assert other.hand.events[0].deck != env.hand.events[0].deck  # type: ignore[attr-defined]


# ------------------------------------------------------------ the observation
def test_the_layout_matches_the_documented_sections() -> None:
    layout = ObservationLayout(HOLDEM, 6)
    names = [name for name, _, _ in layout.sections]
    assert names == [
        "own_down",
        "visible_cards",
        "board",
        "own_discards",
        "players",
        "history",
        "pots",
        "betting",
        "street",
        "phase",
        "position",
    ]
    sizes = {name: size for name, _, size in layout.sections}
    assert sizes["visible_cards"] == 6 * 52
    assert sizes["history"] == 6 * 4 * 4
    assert layout.size == sum(sizes.values())


def test_the_observation_reads_the_hand() -> None:
    env = poker_env("holdem", "no-limit", players=3, button=1, stacks=[1000, 2000, 3000])
    env.reset(seed=2)
    hand = env.hand
    assert hand is not None
    layout = env.layout
    at = {name: (offset, size) for name, offset, size in layout.sections}
    env.step(Move.MAX_RAISE)  # seat 1 (player_0, left of the big blind) moves all in: 1000
    obs = env.observe("player_1")["observation"]
    total = 6000
    own = [Card(int(i)) for i in np.flatnonzero(obs[: at["own_down"][1]])]
    assert sorted(own) == sorted(hand.players[2].down)
    players = obs[at["players"][0] : at["players"][0] + at["players"][1]].reshape(3, -1)
    # slot 0 is player_1 (seat 2, the small blind), slot 2 is seat 1 (all in for 1000)
    assert players[0][0] == pytest.approx(1995 / total)
    assert players[2][1] == pytest.approx(1000 / total)
    assert players[2][5] == 1.0  # all in
    assert players[0][6] == 1.0  # to act
    history = obs[at["history"][0] : at["history"][0] + at["history"][1]].reshape(3, 4, 4)
    assert history[2][0][0] == pytest.approx(1 / 4)  # one raise pre-flop
    assert history[2][0][1] == pytest.approx(1000 / total)  # its size
    betting = obs[at["betting"][0] : at["betting"][0] + at["betting"][1]]
    assert betting[0] == pytest.approx(1015 / total)  # the pot
    assert betting[1] == pytest.approx(995 / total)  # to call
    assert obs[at["street"][0]] == 1.0
    position = obs[at["position"][0] : at["position"][0] + 3]
    assert list(position) == [0.0, 1.0, 0.0]  # one seat left of the button


def test_draw_discards_show_as_counts_and_own_cards() -> None:
    env = poker_env("draw", "fixed-limit", players=2, button=1)
    env.reset(seed=4)
    hand = env.hand
    assert hand is not None
    while not hand.legal_actions().discard:
        env.step(Move.CHECK_CALL)
    drawer = env.agent_selection
    thrown = list(hand.players[env.seat_of(drawer)].down)
    env.step(Move.DISCARD_ALL)
    other = next(a for a in env.agents if a != drawer)
    at = {name: offset for name, offset, _ in env.layout.sections}
    mine = env.observe(drawer)["observation"]
    theirs = env.observe(other)["observation"]
    assert [
        Card(int(i)) for i in np.flatnonzero(mine[at["own_discards"] : at["own_discards"] + 52])
    ] == sorted(thrown)
    assert not theirs[at["own_discards"] : at["own_discards"] + 52].any()
    width = 11
    slot = 1  # the drawer is the other player's slot 1 at a table of two
    row = theirs[at["players"] + slot * width : at["players"] + (slot + 1) * width]
    assert row[9] == 1.0
    assert row[10] == 1.0


def test_rule_discards() -> None:
    assert rule_discards(parse_cards("Kh Kd Ks 4c 4d")) == ()
    assert rule_discards(parse_cards("Kh Kd 4s 4c 9d")) == parse_cards("9d")
    assert rule_discards(parse_cards("Ah Kh Qh Jh 2c")) == parse_cards("2c")
    assert rule_discards(parse_cards("Ah Kd Qh Jh 2c")) == parse_cards("Kd Qh Jh 2c")


# ------------------------------------------------------------ errors
def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = poker_env("holdem", "fixed-limit", players=2)
    env.reset(seed=1)
    hand = env.hand
    assert hand is not None
    before = hand.snapshot()
    with pytest.raises(InvalidActionError, match="not legal"):
        env.step(Move.BRING_IN)
    with pytest.raises(InvalidActionError, match="index"):
        env.step("call")  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError, match="not legal"):
        env.step(99)
    assert hand.snapshot() == before


def test_settings_are_checked() -> None:
    with pytest.raises(CroupierError, match="seats 2 to 10"):
        poker_env("holdem", players=11)
    with pytest.raises(CroupierError, match="largest forced bet"):
        poker_env("holdem", players=2, stacks=10)
    with pytest.raises(CroupierError, match="unknown betting structure"):
        poker_env("holdem", "no-limits")
    with pytest.raises(CroupierError, match="pot fraction"):
        ActionAbstraction((0,))  # type: ignore[arg-type]
    with pytest.raises(CroupierError, match="button"):
        PokerEnv(TableRules(HOLDEM, NoLimit()), players=2, button=3)
    env = poker_env("holdem", blinds=(1, 2))
    assert env.rules.table_minimum == 2
    assert env.stacks[1] == 200


def test_render() -> None:
    env = poker_env("stud7", "pot-limit", players=3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str)
    assert "Seven Card Stud" in text
    assert "??" in text


def test_croupier_itself_never_imports_the_rl_libraries() -> None:
    src = Path(__file__).resolve().parents[2] / "src"
    probe = (
        "import sys, json\n"
        "import croupier, croupier.poker, croupier.blackjack, croupier.cards\n"
        "print(json.dumps(sorted(m for m in ('gymnasium', 'pettingzoo') if m in sys.modules)))\n"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(src), env.get("PYTHONPATH")) if p)
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []
    assert isinstance(poker_env(), pettingzoo.AECEnv)


# ------------------------------------------------------------ the full amount space
FULL_STRUCTURES = ("no-limit", "pot-limit", "fixed-limit", "spread-limit")
FULL_COMBOS = [(game, structure) for game in GAMES for structure in FULL_STRUCTURES]


def _full_env(game: str, structure: str | FixedLimit, **kwargs: Any) -> PokerEnv:
    players = kwargs.pop("players", PLAYERS.get(game, 3))
    return poker_env(game, structure, players=players, actions="full", **kwargs)


@pytest.mark.parametrize(("game", "structure"), FULL_COMBOS)
def test_pettingzoo_checkers_in_the_full_amount_space(game: str, structure: str) -> None:
    env = _full_env(game, structure, stacks=300)
    assert env.action_space("player_0").n == len(Move) + 300 + 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            api_test(env, num_cycles=100)
        seed_test(lambda: _full_env(game, structure, stacks=300, button=2), num_cycles=100)
    assert _unexpected(caught) == []


def _referee_amounts(hand: HandState) -> tuple[str, set[int]]:
    """The round totals the referee takes now, worked out from its legal range: ``raise``
    (bets and raises) or ``bring in`` (a bring-in above the bring-in amount)."""
    legal = hand.legal_actions()
    actor = legal.actor
    assert actor is not None
    player = hand.players[actor]
    all_in = player.bet + player.stack
    unit = hand.rules.chip_unit
    if legal.bring_in is not None:
        low, high = legal.bring_in
        if legal.bring_in_ends_only:
            return "bring in", {high} - {low}
        return "bring in", {a for a in range(low + 1, high + 1) if a % unit == 0 or a == all_in}
    if legal.raise_to is None:
        return "raise", set()
    low, high = legal.raise_to
    return "raise", {a for a in range(low, high + 1) if a % unit == 0 or a == all_in}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    game=st.sampled_from(sorted(GAMES)),
    structure=st.sampled_from([*STRUCTURES, FixedLimit(20, 40)]),  # the last: stud completes
    players=st.integers(2, 5),
    unit=st.sampled_from([1, 5]),
    short=st.booleans(),  # one stack below the table minimum and a bit: all in for less
)
def test_the_full_mask_is_exactly_what_the_referee_accepts(
    seed: int,
    game: str,
    structure: str | FixedLimit,
    players: int,
    unit: int,
    short: bool,
) -> None:
    players = min(players, GAMES[game].max_players)
    stacks = [60 + 37 * i for i in range(players)]
    if short:
        stacks[seed % players] = 17
    table: dict[str, Any] = {"chip_unit": unit}
    if game.startswith("stud"):
        table["ante"] = 5
    env = poker_env(game, structure, players=players, stacks=stacks, actions="full", **table)
    abstraction = env.abstraction
    assert abstraction.max_amount == max(stacks)
    env.reset(seed=seed)
    policy = random.Random(seed)
    hand = env.hand
    assert hand is not None
    while not hand.is_complete:
        agent = env.agent_selection
        seat = env.seat_of(agent)
        mask = env.observe(agent)["action_mask"]
        moves = env.legal_moves(agent)
        assert set(np.flatnonzero(mask)) == set(moves)
        assert not mask[Move.MIN_RAISE]
        assert not mask[Move.MAX_RAISE]
        # every unmasked action is accepted, and is the same from action() and moves()
        for index, action in moves.items():
            assert hand.can(action), action
            assert abstraction.action(env.view(agent), index, unit) == action
        # the legal amounts are the referee's legal range, exactly
        kind, expected = _referee_amounts(hand)
        amounts = {abstraction.amount_of(int(i)) for i in np.flatnonzero(mask)} - {None}
        assert amounts == expected
        make = BringIn if kind == "bring in" else RaiseTo
        accepted = {a for a in range(1, max(stacks) + 50) if hand.can(make(a, seat=seat))}
        if kind == "bring in":
            accepted -= {hand.legal_actions().bring_in[0]}  # type: ignore[index]  # BRING_IN
        assert amounts == accepted
        # every masked action is refused, and the hand is unchanged
        before = hand.snapshot()
        refused = [int(i) for i in np.flatnonzero(mask == 0)]
        for index in [*refused[: len(Move)], *policy.sample(refused, min(len(refused), 25))]:
            with pytest.raises(InvalidActionError, match="not legal"):
                env.step(index)
        with pytest.raises(InvalidActionError, match="not legal"):
            env.step(abstraction.size)
        assert hand.snapshot() == before
        env.step(policy.choice(sorted(moves)))
    payoffs = hand.payoffs()
    assert sum(payoffs.values()) == 0
    for agent in env.agents:
        assert env.infos[agent]["payoff"] == payoffs[env.seat_of(agent)]


def _first_raise_amounts(env: PokerEnv, seed: int = 1) -> list[int]:
    env.reset(seed=seed)
    mask = env.observe(env.agent_selection)["action_mask"]
    return [a for i in np.flatnonzero(mask) if (a := env.abstraction.amount_of(int(i))) is not None]


def test_the_full_space_in_each_structure() -> None:
    # no limit: the minimum raise to all in; pot limit: up to the pot (3 x 10 + 5 = 35);
    # fixed limit: the one amount; spread limit: one to five table minimums
    assert _first_raise_amounts(_full_env("holdem", "no-limit", players=3)) == list(range(20, 1001))
    assert _first_raise_amounts(_full_env("holdem", "pot-limit", players=3)) == list(range(20, 36))
    assert _first_raise_amounts(_full_env("holdem", "fixed-limit", players=3)) == [20]
    assert _first_raise_amounts(_full_env("holdem", "spread-limit", players=3)) == list(
        range(20, 61)
    )
    # the chip unit: multiples of 5 only
    env = _full_env("holdem", "no-limit", players=3, stacks=200, chip_unit=5)
    assert _first_raise_amounts(env) == list(range(20, 201, 5))


def test_the_full_space_all_in_below_the_minimum_and_off_the_unit() -> None:
    # seat 3 (the button, first to act three-handed) has 17 chips: its only raise is all in
    # for 17, below the minimum raise to 20 and off the chip unit of 5
    env = poker_env(
        "holdem", "no-limit", players=3, stacks=[200, 200, 17], button=3, chip_unit=5,
        actions="full",
    )  # fmt: skip
    assert _first_raise_amounts(env) == [17]
    assert env.agent_selection == "player_2"
    env.step(env.abstraction.index_of(17))
    hand = env.hand
    assert hand is not None
    assert hand.events[-1] == ev.RaisedTo(seat=3, to=17, increment=7, full=False, all_in=True)


def test_the_full_space_in_stud_brings_in_and_completes() -> None:
    env = _full_env("stud7", FixedLimit(20, 40), players=4, bring_in=10)
    env.reset(seed=1)
    agent = env.agent_selection
    moves = env.legal_moves(agent)
    full = env.abstraction
    assert moves == {
        Move.BRING_IN: BringIn(10, seat=env.seat_of(agent)),
        full.index_of(20): BringIn(20, seat=env.seat_of(agent)),  # completing to a full bet
    }
    env.step(Move.BRING_IN)
    # the next player may complete the bring-in to 20 (and no other amount)
    assert _amounts_now(env) == [20]
    spread = _full_env("stud5", "spread-limit", players=3)
    spread.reset(seed=2)
    assert _amounts_now(spread) == list(range(11, 51))  # bring in for 10 .. 50


def _amounts_now(env: PokerEnv) -> list[int]:
    mask = env.observe(env.agent_selection)["action_mask"]
    return [a for i in np.flatnonzero(mask) if (a := env.abstraction.amount_of(int(i))) is not None]


def test_the_full_space_draws() -> None:
    env = _full_env("draw", "no-limit", players=2, button=1)
    env.reset(seed=4)
    hand = env.hand
    assert hand is not None
    while not hand.legal_actions().discard:
        env.step(Move.CHECK_CALL)
    assert env.legal_moves(env.agent_selection).keys() == {
        Move.STAND_PAT,
        Move.DISCARD_RULE,
        Move.DISCARD_ALL,
    }


def test_the_full_space_settings_are_checked() -> None:
    with pytest.raises(CroupierError, match="largest stack"):
        PokerEnv(
            TableRules(), players=2, stacks=[100, 300], abstraction=ActionAbstraction.full(200)
        )
    with pytest.raises(CroupierError, match="no raise_fractions"):
        poker_env(actions="full", raise_fractions=[1])
    with pytest.raises(CroupierError, match="no raise_fractions"):
        ActionAbstraction((1,), max_amount=100)  # type: ignore[arg-type]
    with pytest.raises(CroupierError, match="max_amount"):
        ActionAbstraction.full(0)
    with pytest.raises(CroupierError, match="actions must be"):
        poker_env(actions="everything")
    with pytest.raises(CroupierError, match="abstraction must be"):
        PokerEnv(TableRules(), abstraction="all")
    with pytest.raises(CroupierError, match="amount"):
        ActionAbstraction.full(100).index_of(101)
    with pytest.raises(CroupierError, match="full amount space"):
        ActionAbstraction().index_of(10)
    # a larger space than the stacks is fine (one space for tables of different stacks)
    env = PokerEnv(TableRules(), players=2, stacks=100, abstraction=ActionAbstraction.full(500))
    env.reset(seed=1)
    assert env.action_space("player_0").n == len(Move) + 501
    assert _first_raise_amounts(env) == list(range(20, 101))
    assert poker_env(actions=ActionAbstraction(())).abstraction.size == len(Move)


def test_an_illegal_amount_is_refused_with_a_short_message() -> None:
    env = _full_env("holdem", "no-limit", players=2)
    env.reset(seed=1)
    hand = env.hand
    assert hand is not None
    before = hand.snapshot()
    with pytest.raises(InvalidActionError, match=r"raise to 19\).*raise to 20\.\.1000"):
        env.step(env.abstraction.index_of(19))
    with pytest.raises(InvalidActionError, match="min raise"):
        env.step(Move.MIN_RAISE)
    assert hand.snapshot() == before
