"""A PettingZoo AEC environment for every NZ poker game and betting structure.

One episode is one hand of :class:`~croupier.poker.state.HandState`: the stacks are reset
at every :meth:`PokerEnv.reset`, the agents ``player_0`` .. ``player_{n-1}`` sit in seats
1 .. n, and each agent's reward at the end of the hand is its chip change (an integer
payoff, made a float only for the reward; ``info["payoff"]`` keeps the integer).

What an agent observes comes from its seat view alone
(:meth:`HandState.view_for <croupier.poker.state.HandState.view_for>`): the observation is
``{"observation": float32 vector, "action_mask": int8 vector}``, the vector laid out by
:class:`~croupier.envs.poker_observations.ObservationLayout`
(:mod:`croupier.envs.poker_observations`) and the mask given by the discrete
:class:`~croupier.envs.poker_actions.ActionAbstraction` (:mod:`croupier.envs.poker_actions`):
the pot-fraction abstraction by default, or with ``actions="full"`` every amount in chips.

>>> from croupier.envs import Move
>>> env = poker_env("omaha", "pot-limit", players=3)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, obs["observation"].dtype, env.action_names(obs["action_mask"])
((413,), dtype('float32'), ['fold', 'check/call', 'min raise', 'max raise', 'raise 1/2 pot'])
>>> results = {}
>>> for agent in env.agent_iter():               # everybody checks or calls
...     obs, reward, terminated, truncated, info = env.last()
...     if terminated:
...         results[agent] = info["payoff"]
...     env.step(None if terminated else Move.CHECK_CALL)
>>> results, sum(results.values())               # chips are conserved (no rake)
({'player_1': -10, 'player_0': -10, 'player_2': 20}, 0)
>>> full = poker_env("holdem", "pot-limit", players=3, stacks=500, actions="full")
>>> full.reset(seed=7); full.action_space("player_0")
Discrete(509)
>>> full.abstraction.describe(full.observe(full.agent_selection)["action_mask"])
'0 fold, 1 check/call, 28..43 raise to 20..35 (16 amounts)'
>>> full.step(full.abstraction.index_of(27)); full.hand.events[-1]
RaisedTo(seat=2, to=27, increment=17, full=True, all_in=False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from croupier.cards.card import parse_cards
from croupier.cards.deck import Deck
from croupier.envs.poker_actions import ActionAbstraction
from croupier.envs.poker_observations import ObservationLayout
from croupier.errors import CroupierError, InvalidActionError
from croupier.poker.actions import Action
from croupier.poker.games import ForcedBets, GameSpec, game_by_name
from croupier.poker.settings import TableRules
from croupier.poker.state import HandState
from croupier.poker.structures import BettingStructure, structure_for_stakes
from croupier.poker.views import SeatView

__all__ = [
    "PokerEnv",
    "poker_env",
]

Observation = dict[str, npt.NDArray[Any]]
"""What :meth:`PokerEnv.observe` returns: ``observation`` (float32) and ``action_mask`` (int8)."""


def _structure(structure: BettingStructure | str, big_blind: int) -> BettingStructure:
    if isinstance(structure, BettingStructure):
        return structure
    if isinstance(structure, str):
        return structure_for_stakes(structure, big_blind)
    raise CroupierError(
        f"structure must be a betting structure or a name (no-limit, pot-limit, half-pot, "
        f"fixed-limit, spread-limit), not {structure!r}"
    )


class PokerEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """A PettingZoo AEC environment: one hand of ``rules`` a episode, dealt to ``players``
    agents with ``stacks`` chips each (an integer for all, or one a seat).

    ``button`` fixes the button seat (1 .. players); None draws it from the environment's
    random source at every reset. :meth:`reset` takes ``options``: ``button`` (this hand's
    button) and ``deck`` (a stacked deck: every card of the game's deck, in the order
    dealt; burn cards included). Seeding ``reset(seed=...)`` makes every later hand
    reproducible. An action the mask does not allow raises
    :class:`~croupier.errors.InvalidActionError` (nothing changes).

    >>> from croupier.envs import Move
    >>> from croupier.poker import HOLDEM, NoLimit, TableRules
    >>> env = PokerEnv(TableRules(HOLDEM, NoLimit(), blinds=(5, 10)), players=2, stacks=200)
    >>> env.reset(seed=1); env.agent_selection, env.hand.button   # heads up, 17.1(c) as written
    ('player_1', 1)
    >>> env.step(Move.FOLD); env.rewards, env.terminations["player_0"], env.infos["player_1"]
    ({'player_0': 5.0, 'player_1': -5.0}, True, {'payoff': -5})
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo's class attribute
        "name": "croupier_poker_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: TableRules,
        players: int = 2,
        stacks: int | Sequence[int] = 1000,
        *,
        button: int | None = None,
        abstraction: ActionAbstraction | str | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(rules, TableRules):
            raise CroupierError(f"rules must be TableRules, not {rules!r}")
        game = rules.game
        if isinstance(players, bool) or not isinstance(players, int):
            raise CroupierError(f"players must be a whole number, not {players!r}")
        if not 2 <= players <= game.max_players:
            raise CroupierError(
                f"{game.title} seats 2 to {game.max_players} players, not {players}"
            )
        if isinstance(stacks, int) and not isinstance(stacks, bool):
            chips = [stacks] * players
        elif isinstance(stacks, Sequence) and not isinstance(stacks, str | bytes):
            chips = list(stacks)
        else:
            raise CroupierError(
                f"stacks must be chips for all or one amount a seat, not {stacks!r}"
            )
        if len(chips) != players or not all(
            isinstance(c, int) and not isinstance(c, bool) for c in chips
        ):
            raise CroupierError(f"stacks must be {players} whole numbers of chips, not {stacks!r}")
        forced = self._largest_forced_bet(rules)
        if min(chips) <= forced:
            raise CroupierError(
                f"every stack must be above the largest forced bet ({forced}) so that somebody "
                f"acts in every hand, not {min(chips)}"
            )
        if button is not None and (
            isinstance(button, bool) or not isinstance(button, int) or not 1 <= button <= players
        ):
            raise CroupierError(f"button must be a seat 1 to {players} or None, not {button!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise CroupierError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.rules = rules
        """The table's rules."""
        self.stacks = {seat: chips[seat - 1] for seat in range(1, players + 1)}
        """Each seat's chips at the start of every hand."""
        self.button = button
        """The button seat, or None (drawn at every reset)."""
        if abstraction is None:
            abstraction = ActionAbstraction()
        elif isinstance(abstraction, str) and abstraction == "full":
            abstraction = ActionAbstraction.full(max(chips))
        elif not isinstance(abstraction, ActionAbstraction):
            raise CroupierError(
                f"abstraction must be an ActionAbstraction, 'full' or None, not {abstraction!r}"
            )
        if abstraction.max_amount is not None and abstraction.max_amount < max(chips):
            raise CroupierError(
                f"the full amount space must reach the largest stack ({max(chips)}), not "
                f"{abstraction.max_amount}"
            )
        self.abstraction: ActionAbstraction = abstraction
        """The discrete actions."""
        self.layout = ObservationLayout(game, players)
        """The observation vector's layout."""
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat_of = {agent: i + 1 for i, agent in enumerate(self.possible_agents)}
        self._agent_of = {seat: agent for agent, seat in self._seat_of.items()}
        size = self.abstraction.size
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (self.layout.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._rng: random.Random | None = None
        self.hand: HandState | None = None
        """The hand in play (None before the first reset)."""
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    @staticmethod
    def _largest_forced_bet(rules: TableRules) -> int:
        if rules.game.forced is ForcedBets.BLINDS:
            return max(rules.blinds, default=0) + rules.ante
        return rules.bring_in_amount + rules.ante

    def __str__(self) -> str:
        return f"croupier_poker_v0({self.rules.game.name}, {self.rules.structure.name})"

    # ---------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        """The agent's observation space (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The agent's action space (the same object every time)."""
        return self.action_spaces[agent]

    def seat_of(self, agent: str) -> int:
        """The seat an agent sits in (``player_0`` sits in seat 1)."""
        return self._seat_of[agent]

    def action_names(self, mask: npt.NDArray[Any] | None = None) -> list[str]:
        """The names of the actions (with ``mask``: of the legal ones)."""
        names = self.abstraction.names
        if mask is None:
            return list(names)
        return [name for name, on in zip(names, mask, strict=True) if on]

    # ---------------------------------------------------------------- episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand with the stacks reset (see the class docstring for ``options``)."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        rng = self._rng
        options = dict(options or {})
        button = options.get("button", self.button)
        if button is None:
            button = rng.randrange(1, len(self.possible_agents) + 1)
        hand_rng = random.Random(rng.getrandbits(64))
        stacked = options.get("deck")
        deck = None
        if stacked is not None:
            cards = parse_cards(stacked) if isinstance(stacked, str) else tuple(stacked)
            deck = Deck(cards, shuffle=False)
        self.hand = HandState(self.rules, self.stacks, button, rng=hand_rng, deck=deck)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        actor = self.hand.actor
        if actor is None:  # pragma: no cover - the stacks are above every forced bet
            raise CroupierError("the hand ended before anybody acted")
        self.agent_selection = self._agent_of[actor]

    def _hand(self) -> HandState:
        if self.hand is None:
            raise CroupierError("reset() the environment first")
        return self.hand

    def view(self, agent: str) -> SeatView:
        """The agent's seat view (all its observation comes from)."""
        return self._hand().view_for(self._seat_of[agent])

    def legal_moves(self, agent: str) -> dict[int, Action]:
        """The agent's legal action indices, each with its referee action."""
        return self.abstraction.moves(self.view(agent), self.rules.chip_unit)

    def observe(self, agent: str) -> Observation:
        """The agent's observation: its vector and its action mask (zeros unless it acts)."""
        view = self.view(agent)
        return {
            "observation": self.layout.encode(view),
            "action_mask": self.abstraction.legal_mask(view, self.rules.chip_unit),
        }

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Act for :attr:`agent_selection` (None for an agent whose hand is over)."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        hand = self._hand()
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise InvalidActionError(
                f"an action is an index 0 to {self.abstraction.size - 1}, not {action!r}"
            )
        index = int(action)
        view = self.view(agent)
        chosen = self.abstraction.action(view, index, self.rules.chip_unit)
        if chosen is None:
            legal = self.abstraction.describe(
                self.abstraction.legal_mask(view, self.rules.chip_unit)
            )
            what = self.abstraction.names[index] if 0 <= index < self.abstraction.size else "none"
            raise InvalidActionError(
                f"action {index} ({what}) is not legal for {agent} now; legal: {legal}"
            )
        self._cumulative_rewards[agent] = 0.0
        hand.apply(chosen)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if hand.is_complete:
            payoffs = hand.payoffs()
            for name in self.agents:
                chips = payoffs[self._seat_of[name]]
                self.rewards[name] = float(chips)
                self.terminations[name] = True
                self.infos[name] = {"payoff": chips}
        else:
            actor = hand.actor
            assert actor is not None
            self.agent_selection = self._agent_of[actor]
        self._accumulate_rewards()

    # ---------------------------------------------------------------- display
    def render(self) -> str | None:
        """The hand as a spectator sees it (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None or self.hand is None:
            return None
        view = self.hand.view_for(None)
        lines = [
            f"{self.rules.game.title}, {view.street}: board {' '.join(map(str, view.board)) or '-'}, "
            f"pot {view.pot}"
        ]
        for p in view.players:
            cards = " ".join(str(c) if c is not None else "??" for c in (*p.down, *p.up))
            state = "folded" if p.folded else ("all in" if p.all_in else "")
            marker = "*" if view.actor == p.seat else " "
            lines.append(
                f"{marker} seat {p.seat}: {p.stack} behind, bet {p.bet} [{cards}] {state}".rstrip()
            )
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def poker_env(
    game: GameSpec | str = "holdem",
    structure: BettingStructure | str = "no-limit",
    players: int = 2,
    *,
    stacks: int | Sequence[int] | None = None,
    button: int | None = None,
    raise_fractions: Sequence[Fraction | int | float | str] | None = None,
    actions: str | ActionAbstraction = "abstract",
    render_mode: str | None = None,
    **table: Any,
) -> PokerEnv:
    """A :class:`PokerEnv` for ``game`` (a :class:`~croupier.poker.games.GameSpec` or its
    name) under ``structure`` (a structure, or ``no-limit``, ``pot-limit``, ``half-pot``,
    ``fixed-limit``, ``spread-limit``: fixed limit bets the table minimum and twice it,
    spread limit one to five table minimums) with ``players`` agents.

    ``table`` holds the other :class:`~croupier.poker.settings.TableRules` settings
    (``blinds``, ``ante``, ``bring_in``, ``table_minimum``, ``rake`` ...); the defaults are
    blinds of 5 and 10 and a table minimum of 10 (the last blind when blinds are given),
    and for stud an ante of a fifth of the table minimum. ``stacks`` defaults to a hundred
    table minimums a seat.

    ``actions`` picks the action space
    (:mod:`croupier.envs.poker_actions`): ``"abstract"`` (the
    :class:`~croupier.envs.poker_actions.Move` values and raises to ``raise_fractions`` of
    the pot, default 1/2, 1 and 2), ``"full"`` (every legal amount in chips, up to the
    largest stack: :meth:`ActionAbstraction.full
    <croupier.envs.poker_actions.ActionAbstraction.full>`) or an
    :class:`~croupier.envs.poker_actions.ActionAbstraction`.

    >>> from croupier.poker import FixedLimit
    >>> env = poker_env("stud7", FixedLimit(20, 40), players=4, ante=2, bring_in=10)
    >>> env.reset(seed=3); env.action_names(env.observe(env.agent_selection)["action_mask"])
    ['min raise', 'max raise', 'bring in']
    >>> poker_env("draw", "half-pot", players=9)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: Draw poker seats 2 to 8 players, not 9
    """
    spec = game_by_name(game) if isinstance(game, str) else game
    if not isinstance(spec, GameSpec):
        raise CroupierError(f"game must be a GameSpec or a game's name, not {game!r}")
    settings = dict(table)
    if "blinds" in settings and "table_minimum" not in settings and settings["blinds"]:
        settings["table_minimum"] = tuple(settings["blinds"])[-1]
    minimum = settings.setdefault("table_minimum", 10)
    if spec.forced is ForcedBets.ANTE_BRING_IN:
        settings.setdefault("ante", max(minimum // 5, 1))
    if "blinds" in settings:
        settings["blinds"] = tuple(settings["blinds"])
    rules = TableRules(spec, _structure(structure, minimum), **settings)
    abstraction: ActionAbstraction | str
    if isinstance(actions, ActionAbstraction):
        if raise_fractions is not None:
            raise CroupierError("give raise_fractions or an ActionAbstraction, not both")
        abstraction = actions
    elif actions == "full":
        if raise_fractions is not None:
            raise CroupierError("the full amount space has every amount: give no raise_fractions")
        abstraction = "full"  # up to the largest stack
    elif actions == "abstract":
        abstraction = (
            ActionAbstraction()
            if raise_fractions is None
            else ActionAbstraction(
                tuple(raise_fractions)  # type: ignore[arg-type]  # checked and made Fractions
            )
        )
    else:
        raise CroupierError(
            f"actions must be 'abstract', 'full' or an ActionAbstraction, not {actions!r}"
        )
    return PokerEnv(
        rules,
        players,
        100 * minimum if stacks is None else stacks,
        button=button,
        abstraction=abstraction,
        render_mode=render_mode,
    )
