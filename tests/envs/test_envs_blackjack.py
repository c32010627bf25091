"""The gymnasium blackjack environment: gymnasium's own checker, the registration, the whole
game (wagers, insurance, double, split to three hands, surrender), legal masks, conserved
chips, the finite shoe and reproducible seeds.

gymnasium is in the ``dev`` extra: without it this module fails to import (never skips).
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.blackjack import NZ, BlackjackRules
from croupier.cards import Card
from croupier.envs import BLACKJACK_ID, BlackjackEnv, BlackjackMove, blackjack_env, card_class
from croupier.errors import CroupierError, InvalidActionError

RULE_SETS = {
    "nz": NZ,
    "peek-surrender-even-money": NZ.with_(hole_card="peek", surrender="late", even_money=True),
    "h17-rank-pairs-four-hands": NZ.with_(
        dealer_hits_soft_17=True, pairs_by="rank", max_hands=4, resplit_aces=True, decks=2
    ),
    "one-deck-10-11-no-insurance": NZ.with_(
        decks=1, penetration="1/2", double_on="10-11", insurance=False
    ),
}


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@pytest.mark.parametrize("composition", [False, True])
def test_gymnasium_check_env(name: str, composition: bool) -> None:
    env = gymnasium.make(BLACKJACK_ID, rules=RULE_SETS[name], shoe_composition=composition)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_check_env_with_rendering(capsys: pytest.CaptureFixture[str]) -> None:
    env = gymnasium.make(BLACKJACK_ID, render_mode="ansi")
    check_env(env.unwrapped)
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str)
    assert "bankroll" in text


def test_registered_on_import() -> None:
    spec = gymnasium.spec(BLACKJACK_ID)
    assert spec.id == "croupier/Blackjack-v0"
    env = gymnasium.make("croupier/Blackjack-v0", bet_sizes=(10, 20))
    assert isinstance(env.unwrapped, BlackjackEnv)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8


# ------------------------------------------------------------ playing rounds
def _play_round(
    env: BlackjackEnv, policy: random.Random, *, seed: int | None = None
) -> tuple[float, dict[str, Any]]:
    """One round with random legal actions, every mask checked against the referee."""
    obs, info = env.reset(seed=seed)
    rnd = env.round
    assert rnd is not None
    start = rnd.bankrolls["player"]
    total = 0.0
    for _ in range(100):
        assert env.observation_space.contains(obs)
        mask = info["action_mask"]
        assert np.array_equal(mask, env.legal_actions())
        _check_mask(env, mask)
        action = policy.choice(list(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(int(action))
        assert not truncated
        assert "illegal_action" not in info
        total += reward
        if terminated:
            break
    assert rnd.is_complete
    payoff = info["payoff"]
    assert isinstance(payoff, int)
    assert total == float(payoff)
    assert rnd.bankrolls["player"] == start + payoff  # chips are conserved:
    assert rnd.bank == -payoff  # the house wins what the player loses
    assert not info["action_mask"].any()
    return total, info


def _check_mask(env: BlackjackEnv, mask: np.ndarray) -> None:
    rnd = env.round
    assert rnd is not None
    legal = rnd.legal_actions()
    if legal.actor is None:
        for i, amount in enumerate(env.bet_sizes):
            assert bool(mask[BlackjackMove.WAGER + i]) == rnd.can_place_wager(1, "player", amount)
        assert not mask[: BlackjackMove.WAGER].any()
        return
    assert not mask[BlackjackMove.WAGER :].any()
    if legal.decline_insurance:
        assert mask[BlackjackMove.DECLINE_INSURANCE]
        assert bool(mask[BlackjackMove.INSURE]) == (legal.insure is not None)
        assert bool(mask[BlackjackMove.EVEN_MONEY]) == rnd.can_even_money()
        assert not mask[: BlackjackMove.INSURE].any()
        return
    assert bool(mask[BlackjackMove.HIT]) == rnd.can_hit()
    assert bool(mask[BlackjackMove.STAND]) == rnd.can_stand()
    assert bool(mask[BlackjackMove.DOUBLE]) == rnd.can_double()
    assert bool(mask[BlackjackMove.SPLIT]) == rnd.can_split()
    assert bool(mask[BlackjackMove.SURRENDER]) == rnd.can_surrender()
    assert not mask[BlackjackMove.INSURE :].any()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), name=st.sampled_from(sorted(RULE_SETS)))
def test_random_play_is_legal_and_conserves_chips(seed: int, name: str) -> None:
    env = blackjack_env(RULE_SETS[name], bet_sizes=(10, 25, 100), bankroll=700)
    policy = random.Random(seed)
    _play_round(env, policy, seed=seed)
    for _ in range(15):  # the same shoe, round after round
        _play_round(env, policy)


def test_the_shoe_is_finite_and_reshuffled_at_the_cut_card() -> None:
    rules = NZ.with_(decks=1, penetration="1/2")
    env = blackjack_env(rules, shoe_composition=True)
    policy = random.Random(1)
    env.reset(seed=1)
    shoe = env._shoe
    assert shoe is not None
    reshuffles = 0
    for _ in range(40):
        cut = shoe.cut_card_reached
        _play_round(env, policy)
        if cut:
            reshuffles += 1
    assert reshuffles >= 3
    # a fresh shoe: the composition shows every card unseen before the deal
    env.reset(seed=2)
    obs, _, _, _, _ = env.step(BlackjackMove.WAGER)
    composition = obs[-10:]
    rnd = env.round
    assert rnd is not None
    seen = [card_class(c) for h in rnd.boxes[1].hands for c in h.cards]
    seen += [card_class(c) for c in rnd.view_for("player").dealer]
    expected = np.array([4, 4, 4, 4, 4, 4, 4, 4, 16, 4], dtype=np.float64)
    for value in seen:
        expected[value] -= 1
    assert np.allclose(composition, expected / np.array([4] * 8 + [16, 4]))


def test_the_composition_counts_cards_across_rounds() -> None:
    env = blackjack_env(NZ.with_(decks=4), bet_sizes=(10,), shoe_composition=True)
    policy = random.Random(4)
    per_class = np.array([16] * 8 + [64, 16])
    seen = np.zeros(10)
    env.reset(seed=4)
    for round_number in range(6):  # six rounds of one box stay before the cut card
        if round_number:
            env.reset()
        rnd = env.round
        assert rnd is not None
        _play_round_from_here(env, policy)
        view = rnd.view_for("player")
        for box in view.boxes:
            for hand in box.hands:
                for card in hand.cards:
                    seen[card_class(card)] += 1
        for card in view.dealer:
            seen[card_class(card)] += 1
        assert np.allclose(env._observe()[-10:], (per_class - seen) / per_class)
    assert env._shoe is not None
    assert not env._shoe.cut_card_reached


def test_a_round_reset_before_its_end_still_counts_the_cards_it_dealt() -> None:
    env = blackjack_env(NZ.with_(decks=4), bet_sizes=(10,), shoe_composition=True)
    per_class = np.array([16] * 8 + [64, 16])
    for seed in range(50):  # a deal that leaves a decision (no natural ends it at once)
        env.reset(seed=seed)
        _, _, terminated, _, _ = env.step(env.action_names.index("wager 10"))
        if not terminated:
            break
    rnd = env.round
    assert rnd is not None
    assert not rnd.is_complete  # the cards are out, the round is not over
    view = rnd.view_for("player")
    seen = np.zeros(10)
    for card in [c for box in view.boxes for hand in box.hands for c in hand.cards]:
        seen[card_class(card)] += 1
    for card in view.dealer:
        seen[card_class(card)] += 1
    assert seen.sum() >= 3
    env.reset()  # truncated: the next round starts from the same shoe
    assert np.allclose(env._observe()[-10:], (per_class - seen) / per_class)


def _play_round_from_here(env: BlackjackEnv, policy: random.Random) -> tuple[float, dict[str, Any]]:
    info = {"action_mask": env.legal_actions()}
    total = 0.0
    while True:
        action = policy.choice(list(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, _, info = env.step(int(action))
        total += reward
        if terminated:
            return total, info


# ------------------------------------------------------------ the whole game
def _names(env: BlackjackEnv, mask: np.ndarray) -> list[str]:
    return [env.action_names[i] for i in np.flatnonzero(mask)]


def test_split_to_three_hands_as_the_rules_allow() -> None:
    env = blackjack_env(bet_sizes=(10,), bankroll=100)
    cards = "8c 9d 8h 8s 8d 2c Tc 3c Tc 4c Td 9h"
    env.reset(seed=1, options={"cards": cards})
    _, _, _, _, info = env.step(BlackjackMove.WAGER)
    assert "split" in _names(env, info["action_mask"])
    _, _, _, _, info = env.step(BlackjackMove.SPLIT)
    _, _, _, _, info = env.step(BlackjackMove.SPLIT)
    rnd = env.round
    assert rnd is not None
    hands = rnd.boxes[1].hands
    assert len(hands) == 3
    assert "split" not in _names(env, info["action_mask"])  # three hands: no more (11.4(a))
    obs = env._observe()
    assert obs[16 : 16 + 36].reshape(3, 12)[:, 0].tolist() == [1.0, 1.0, 1.0]
    _total, info = _play_round_from_here(env, random.Random(2))
    assert rnd.bankrolls["player"] == 100 + info["payoff"]
    assert rnd.bank == -info["payoff"]


def test_insurance_against_the_dealers_ace() -> None:
    env = blackjack_env(bet_sizes=(10,), bankroll=100)
    env.reset(seed=1, options={"cards": "Tc As Kd Kh"})  # 20 against an ace; the dealer has 21
    _, _, _, _, info = env.step(BlackjackMove.WAGER)
    assert _names(env, info["action_mask"]) == ["insure", "decline insurance"]
    _, _, _, _, info = env.step(BlackjackMove.INSURE)
    rnd = env.round
    assert rnd is not None
    assert rnd.boxes[1].insurance == {"player": 5}
    _, reward, terminated, _, info = env.step(BlackjackMove.STAND)
    assert terminated
    assert reward == 0.0


def test_even_money_where_offered() -> None:
    env = blackjack_env(NZ.with_(even_money=True), bet_sizes=(10,), bankroll=100)
    env.reset(seed=1, options={"cards": "Ac As Kd Kh"})
    _, _, _, _, info = env.step(BlackjackMove.WAGER)
    assert _names(env, info["action_mask"]) == ["insure", "decline insurance", "even money"]
    _, reward, terminated, _, info = env.step(BlackjackMove.EVEN_MONEY)
    assert terminated
    assert reward == 10.0
    assert info["payoff"] == 10


def test_surrender_only_where_the_rules_allow_it() -> None:
    cards = "Tc 9d 6h 7s"
    nz = blackjack_env(bet_sizes=(10,), bankroll=100)
    nz.reset(seed=1, options={"cards": cards})
    _, _, _, _, info = nz.step(BlackjackMove.WAGER)
    assert "surrender" not in _names(nz, info["action_mask"])
    late = blackjack_env(NZ.with_(surrender="late"), bet_sizes=(10,), bankroll=100)
    late.reset(seed=1, options={"cards": cards})
    _, _, _, _, info = late.step(BlackjackMove.WAGER)
    assert "surrender" in _names(late, info["action_mask"])
    _, reward, terminated, _, info = late.step(BlackjackMove.SURRENDER)
    assert terminated
    assert reward == -5.0


def test_double_and_the_nz_stand_rule() -> None:
    env = blackjack_env(bet_sizes=(10,), bankroll=100)
    env.reset(seed=1, options={"cards": "5c 9d 4h Ts 7c 9h"})  # 9 against a 9: may not stand
    _, _, _, _, info = env.step(BlackjackMove.WAGER)
    assert _names(env, info["action_mask"]) == ["hit", "double"]  # 12.1(d)
    _, reward, terminated, _, info = env.step(BlackjackMove.DOUBLE)  # 19; dealer 9 7 9: 25
    assert terminated
    assert reward == 20.0


def test_a_wager_the_bankroll_cannot_cover_is_masked() -> None:
    env = blackjack_env(bet_sizes=(10, 50, 200), bankroll=100)
    _, info = env.reset(seed=1)
    assert _names(env, info["action_mask"]) == ["wager 10", "wager 50"]


def test_an_illegal_action_changes_nothing_or_raises() -> None:
    env = blackjack_env(bet_sizes=(10,))
    obs, _ = env.reset(seed=1)
    again, reward, terminated, _truncated, info = env.step(BlackjackMove.HIT)
    assert info["illegal_action"]
    assert reward == 0.0
    assert not terminated
    assert np.array_equal(obs, again)
    strict = blackjack_env(bet_sizes=(10,), illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(InvalidActionError, match="not legal now"):
        strict.step(BlackjackMove.SPLIT)
    with pytest.raises(InvalidActionError, match="index"):
        strict.step(1.0)  # type: ignore[arg-type]


def test_settings_are_checked() -> None:
    with pytest.raises(CroupierError, match="bet_sizes"):
        blackjack_env(bet_sizes=())
    with pytest.raises(CroupierError, match="bankroll"):
        blackjack_env(bet_sizes=(10,), bankroll=5)
    with pytest.raises(CroupierError, match="cut card"):
        blackjack_env(NZ.with_(decks=1, penetration="99/100"))
    with pytest.raises(CroupierError, match="illegal_action"):
        blackjack_env(illegal_action="warn")
    with pytest.raises(CroupierError, match="bet size 1 is not a wager the table takes"):
        blackjack_env(bet_sizes=(1,))  # below the NZ minimum: no wager would be legal
    with pytest.raises(CroupierError, match="bet size 1000000 is not"):
        blackjack_env(bet_sizes=(10**6,), bankroll=10**7)  # above the maximum
    with pytest.raises(CroupierError, match="in units of 5"):
        blackjack_env(NZ.with_(chip_unit=5), bet_sizes=(12,))
    assert blackjack_env(BlackjackRules(table_minimum=25, table_maximum=100)).bet_sizes == (
        25,
        50,
    )


# ------------------------------------------------------------------- seeding
def test_a_seed_reproduces_a_run_of_rounds() -> None:
    runs = []
    for _ in range(2):
        env = blackjack_env(shoe_composition=True)
        policy = random.Random(9)
        record = []
        obs, info = env.reset(seed=21)
        for round_number in range(30):
            if round_number:
                obs, info = env.reset()
            steps: list[object] = [obs.tobytes()]
            while True:
                action = int(policy.choice(list(np.flatnonzero(info["action_mask"]))))
                obs, reward, terminated, _, info = env.step(action)
                steps.append((action, obs.tobytes(), reward))
                if terminated:
                    break
            record.append(steps)
        runs.append(record)
    assert runs[0] == runs[1]
    first = blackjack_env()
    second = blackjack_env()
    first.reset(seed=1)
    second.reset(seed=2)
    assert first._shoe is not None
    assert second._shoe is not None
    assert first._shoe.remaining != second._shoe.remaining


def test_card_classes() -> None:
    assert [card_class(Card(i * 4)) for i in range(13)] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 9]
