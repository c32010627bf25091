"""Reinforcement-learning environments (the ``rl`` extra: gymnasium and PettingZoo).

:func:`poker_env` makes a PettingZoo AEC environment for every NZ poker game and betting
structure; :func:`blackjack_env` a gymnasium environment for the whole game of blackjack,
registered as ``croupier/Blackjack-v0`` when this package is imported. The rest of croupier
never imports gymnasium or PettingZoo. ``docs/research.md`` shows both at work.

>>> import gymnasium
>>> env = gymnasium.make("croupier/Blackjack-v0", bet_sizes=(10, 20))
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].tolist()
((57,), [0, 0, 0, 0, 0, 0, 0, 0, 1, 1])
>>> poker_env("holdem", "no-limit", players=6).observation_space("player_0")["observation"].shape
(656,)
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from croupier.envs.blackjack import BlackjackEnv, BlackjackMove, blackjack_env, card_class
from croupier.envs.poker import PokerEnv, poker_env
from croupier.envs.poker_actions import ActionAbstraction, Move, rule_discards
from croupier.envs.poker_observations import ObservationLayout

BLACKJACK_ID = "croupier/Blackjack-v0"
"""The gymnasium id of :func:`blackjack_env`."""

if BLACKJACK_ID not in registry:
    register(id=BLACKJACK_ID, entry_point="croupier.envs.blackjack:blackjack_env")

__all__ = [
    "BLACKJACK_ID",
    "ActionAbstraction",
    "BlackjackEnv",
    "BlackjackMove",
    "Move",
    "ObservationLayout",
    "PokerEnv",
    "blackjack_env",
    "card_class",
    "poker_env",
    "rule_discards",
]
