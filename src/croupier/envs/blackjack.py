"""A gymnasium environment for the whole game of blackjack under any rule set (NZ by default).

One episode is one round of :class:`~croupier.blackjack.round.BlackjackRound`, played by one
player on box 1 with the same bankroll at every reset: the wager (one of a discrete set of
bet sizes), insurance or even money against a dealer's ace, then hit, stand, double, split
(to as many hands as the rules allow: three in NZ) and surrender where the rules offer it.
The reward is the round's chip change, an integer made a float only for the reward
(``info["payoff"]`` keeps the integer). The cards come from one finite shoe kept from round
to round and reshuffled before the round after the cut card comes out; ``reset(seed=...)``
starts a new shoe.

The legal actions are ``info["action_mask"]`` (int8). An action the mask does not allow
changes nothing (reward 0, ``info["illegal_action"]`` True), or raises
:class:`~croupier.errors.InvalidActionError` with ``illegal_action="raise"``.

>>> env = blackjack_env(bet_sizes=(10, 50))
>>> obs, info = env.reset(seed=3)
>>> obs.shape, [env.action_names[i] for i in info["action_mask"].nonzero()[0]]
((57,), ['wager 10', 'wager 50'])
>>> obs, reward, terminated, truncated, info = env.step(BlackjackMove.WAGER)
>>> env.round.view_for("player").boxes[0].hands[0].cards, env.round.dealer_cards
((Card('3d'), Card('Tc')), (Card('7h'),))
>>> [env.action_names[i] for i in info["action_mask"].nonzero()[0]]
['hit', 'stand', 'double']
>>> obs, reward, terminated, truncated, info = env.step(BlackjackMove.STAND)
>>> terminated, reward, info["payoff"], env.round.dealer_cards
(True, 10.0, 10, (Card('7h'), Card('7c'), Card('2s'), Card('9s')))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import IntEnum
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import NZ, BlackjackRules, PairsBy, checked_rules
from croupier.blackjack.values import hand_total, is_pair
from croupier.blackjack.views import SeatView
from croupier.cards.card import Card, Rank, parse_cards
from croupier.cards.deck import Shoe
from croupier.errors import CroupierError, InvalidActionError

__all__ = ["BlackjackEnv", "BlackjackMove", "blackjack_env", "card_class"]

PLAYER = "player"
"""The name the player goes by in the round."""

PER_HAND = (
    "exists",
    "to_act",
    "total",
    "soft",
    "cards",
    "pair",
    "doubled",
    "from_split",
    "split_aces",
    "done",
    "busted",
    "stake",
)
"""The features of each hand slot (see :class:`BlackjackEnv`)."""

_TOTAL_SCALE = 31
"""Totals are divided by 31 (the most a hand can reach: 21 is never hit, 20 + 10 busts at 30)."""
_CARDS_SCALE = 11
"""Card counts are divided by 11 and clipped at 1."""
_PER_CLASS = (4, 4, 4, 4, 4, 4, 4, 4, 16, 4)
"""Cards of each value class (2 .. 9, ten-values, ace) in one deck."""


class BlackjackMove(IntEnum):
    """The discrete actions; index ``WAGER + i`` wagers the ``i``-th bet size.

    >>> int(BlackjackMove.STAND), int(BlackjackMove.WAGER)
    (1, 8)
    """

    HIT = 0
    """Draw a card."""
    STAND = 1
    """Take no more cards."""
    DOUBLE = 2
    """Double the stake for exactly one card (12.1(b))."""
    SPLIT = 3
    """Split a pair (11.1-11.5)."""
    SURRENDER = 4
    """Give up half the stake (where the rules offer it)."""
    INSURE = 5
    """Insure for the most allowed: half the wager (within the bankroll), in chip units."""
    DECLINE_INSURANCE = 6
    """Take no insurance."""
    EVEN_MONEY = 7
    """Take even money on a blackjack against an ace (where the rules offer it)."""
    WAGER = 8
    """The first bet size (``WAGER + i``: the ``i``-th)."""


def card_class(card: Card) -> int:
    """A card's value class: 0 .. 7 for two .. nine, 8 for a ten-value card, 9 for an ace.

    >>> [card_class(Card.parse(c)) for c in ("2c", "9d", "Th", "Ks", "As")]
    [0, 7, 8, 8, 9]
    """
    rank = card.rank
    if rank is Rank.ACE:
        return 9
    return min(int(rank), 8)


class BlackjackEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """Blackjack under ``rules`` for one player on box 1 (see the module docstring).

    ``bet_sizes`` are the wagers offered (default: 1, 2, 5 and 10 table minimums within the
    table maximum); ``bankroll`` the player's chips at the start of every round (default:
    ten times the largest bet); ``shoe_composition`` adds the unseen cards of each value
    class to the observation (for counting research).

    The observation is a float32 vector, every entry in [0, 1] (``H`` = ``rules.max_hands``):

    ===========  =======  ===============================================================
    section      size     contents
    ===========  =======  ===============================================================
    phase        4        wagers, insurance, playing, complete (one-hot)
    dealer_up    10       the dealer's first card by value class (2 .. 9, ten, ace)
    dealer       2        the dealer's visible total / 31, soft
    hands        H x 12   for each hand of the box: exists, to act, total / 31, soft,
                          cards / 11, a pair, doubled, from a split, split aces, done,
                          busted, stake / (2 x largest bet)
    money        3        wager / largest bet, insurance / largest bet, bankroll /
                          the starting bankroll (clipped at 1)
    shoe         2        unseen cards / the shoe's cards, the cut card is out
    composition  10       (with ``shoe_composition``) unseen cards of each value class /
                          that class's cards in the shoe
    ===========  =======  ===============================================================

    "Unseen" counts every card not seen since the shuffle (the burn card and a peek game's
    hole card are unseen): what a counter at the table knows.

    >>> from croupier.blackjack import NZ
    >>> env = BlackjackEnv(NZ.with_(surrender="late"), shoe_composition=True)
    >>> env.observation_space.shape, int(env.action_space.n), env.action_names[:5]
    ((67,), 12, ('hit', 'stand', 'double', 'split', 'surrender'))
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        rules: BlackjackRules = NZ,
        *,
        bet_sizes: Sequence[int] | None = None,
        bankroll: int | None = None,
        shoe_composition: bool = False,
        illegal_action: str = "ignore",
        render_mode: str | None = None,
    ) -> None:
        checked_rules(rules, strict_nz=False)
        rules.validate_cut_card()
        if bet_sizes is None:
            sizes = tuple(
                m * rules.table_minimum
                for m in (1, 2, 5, 10)
                if m * rules.table_minimum <= rules.table_maximum
            )
        elif isinstance(bet_sizes, Sequence) and not isinstance(bet_sizes, str | bytes):
            sizes = tuple(bet_sizes)
        else:
            raise CroupierError(f"bet_sizes must be a sequence of chip amounts, not {bet_sizes!r}")
        if not sizes or not all(
            isinstance(b, int) and not isinstance(b, bool) and b > 0 for b in sizes
        ):
            raise CroupierError(f"bet_sizes must be whole numbers of chips, not {bet_sizes!r}")
        if len(set(sizes)) != len(sizes):
            raise CroupierError(f"bet_sizes repeat a size: {bet_sizes!r}")
        for size in sizes:  # a size the table refuses would leave no legal action
            if not rules.table_minimum <= size <= rules.table_maximum or size % rules.chip_unit:
                raise CroupierError(
                    f"bet size {size} is not a wager the table takes: "
                    f"{rules.table_minimum}..{rules.table_maximum} in units of {rules.chip_unit}"
                )
        chips = 10 * max(sizes) if bankroll is None else bankroll
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < min(sizes):
            raise CroupierError(
                f"bankroll must be whole chips, at least the smallest bet, not {bankroll!r}"
            )
        if shoe_composition is not True and shoe_composition is not False:
            raise CroupierError(f"shoe_composition must be True or False, not {shoe_composition!r}")
        if illegal_action not in ("ignore", "raise"):
            raise CroupierError(
                f"illegal_action must be 'ignore' or 'raise', not {illegal_action!r}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise CroupierError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.rules = rules
        """The rule set."""
        self.bet_sizes = sizes
        """The wagers offered, by action ``WAGER + i``."""
        self.bankroll = chips
        """The player's chips at the start of every round."""
        self.shoe_composition = shoe_composition
        """Whether the observation shows the unseen cards of each value class."""
        self.illegal_action = illegal_action
        """``ignore`` (nothing happens) or ``raise``."""
        self.render_mode = render_mode
        self.action_names: tuple[str, ...] = (
            "hit",
            "stand",
            "double",
            "split",
            "surrender",
            "insure",
            "decline insurance",
            "even money",
            *(f"wager {b}" for b in sizes),
        )
        """Each action's name, by index."""
        self._hands = rules.max_hands
        self._size = (
            4 + 10 + 2 + self._hands * len(PER_HAND) + 3 + 2 + (10 if shoe_composition else 0)
        )
        self.observation_space = spaces.Box(0.0, 1.0, (self._size,), np.float32)
        self.action_space = spaces.Discrete(len(self.action_names))
        self._shoe: Shoe | None = None
        self._fresh = True
        self._seen = np.zeros(10, dtype=np.int64)
        """Cards of each value class seen in the earlier rounds of this shoe."""
        self.round: BlackjackRound | None = None
        """The round in play (None before the first reset)."""

    # ------------------------------------------------------------------ episode
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Open a new round: a new shoe when seeded, a reshuffle once the cut card is out.

        ``options={"cards": ...}`` deals this round (and the next, until the cut card) from
        a stacked shoe of these cards, top first, with no burn card (for fixed deals); the
        shoe is reshuffled to full decks once its cut card is out.
        """
        super().reset(seed=seed)
        rules = self.rules
        unfinished = self.round
        if unfinished is not None and not unfinished.is_complete:  # its cards left the shoe
            self._seen += self._round_counts(unfinished.view_for(PLAYER))
        cards = (options or {}).get("cards")
        if cards is not None:  # a stacked shoe, dealt as given (no burn)
            stacked = parse_cards(cards, unique=False) if isinstance(cards, str) else tuple(cards)
            source = random.Random(int(self.np_random.integers(2**63)))
            self._shoe = Shoe(rules.decks, penetration=rules.penetration, rng=source, cards=stacked)
            self._new_shoe()
            self._fresh = False
        elif seed is not None or self._shoe is None:
            source = random.Random(int(self.np_random.integers(2**63)))
            self._shoe = Shoe(rules.decks, penetration=rules.penetration, rng=source)
            self._new_shoe()
        elif self._shoe.cut_card_reached:
            self._shoe.shuffle()
            self._new_shoe()
        burn = self._fresh and rules.burn_on_new_shoe
        self._fresh = False
        self.round = BlackjackRound(rules, self._shoe, {PLAYER: self.bankroll}, burn=burn)
        return self._observe(), self._info()

    def _new_shoe(self) -> None:
        self._fresh = True
        self._seen[:] = 0

    def _round(self) -> BlackjackRound:
        if self.round is None:
            raise CroupierError("reset() the environment first")
        return self.round

    def legal_actions(self) -> npt.NDArray[np.int8]:
        """The action mask: 1 where the action is legal now."""
        rnd = self._round()
        mask = np.zeros(len(self.action_names), dtype=np.int8)
        if rnd.is_complete:
            return mask
        legal = rnd.legal_actions()
        if legal.actor is None:  # the wager phase
            for i, amount in enumerate(self.bet_sizes):
                mask[BlackjackMove.WAGER + i] = rnd.can_place_wager(1, PLAYER, amount)
            return mask
        if legal.decline_insurance:
            mask[BlackjackMove.DECLINE_INSURANCE] = 1
            mask[BlackjackMove.INSURE] = legal.insure is not None
            mask[BlackjackMove.EVEN_MONEY] = legal.even_money
            return mask
        mask[BlackjackMove.HIT] = legal.hit
        mask[BlackjackMove.STAND] = legal.stand
        mask[BlackjackMove.DOUBLE] = legal.double
        mask[BlackjackMove.SPLIT] = legal.split
        mask[BlackjackMove.SURRENDER] = legal.surrender
        return mask

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Take one action (see :class:`BlackjackMove`)."""
        rnd = self._round()
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise InvalidActionError(
                f"an action is an index 0 to {len(self.action_names) - 1}, not {action!r}"
            )
        index = int(action)
        mask = self.legal_actions()
        if not 0 <= index < len(mask) or not mask[index]:
            if self.illegal_action == "raise":
                legal = ", ".join(self.action_names[i] for i in mask.nonzero()[0])
                raise InvalidActionError(
                    f"action {index} is not legal now; legal: {legal or 'none'}"
                )
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), 0.0, rnd.is_complete, False, info
        if index >= BlackjackMove.WAGER:
            rnd.place_wager(1, PLAYER, self.bet_sizes[index - BlackjackMove.WAGER])
            rnd.deal()
        elif index == BlackjackMove.HIT:
            rnd.hit()
        elif index == BlackjackMove.STAND:
            rnd.stand()
        elif index == BlackjackMove.DOUBLE:
            rnd.double()
        elif index == BlackjackMove.SPLIT:
            rnd.split()
        elif index == BlackjackMove.SURRENDER:
            rnd.surrender()
        elif index == BlackjackMove.INSURE:
            cap = rnd.legal_actions().insure
            assert cap is not None
            rnd.insure(cap[1])
        elif index == BlackjackMove.DECLINE_INSURANCE:
            rnd.insure(0)
        else:
            rnd.even_money()
        reward = 0.0
        info = self._info()
        if rnd.is_complete:
            payoff = rnd.payoffs()[PLAYER]
            reward = float(payoff)
            info["payoff"] = payoff
            self._seen += self._round_counts(rnd.view_for(PLAYER))
        return self._observe(), reward, rnd.is_complete, False, info

    # ------------------------------------------------------------- observation
    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.legal_actions()}

    @staticmethod
    def _round_counts(view: SeatView) -> npt.NDArray[np.int64]:
        counts = np.zeros(10, dtype=np.int64)
        for box in view.boxes:
            for hand in box.hands:
                for card in hand.cards:
                    counts[card_class(card)] += 1
        for card in view.dealer:
            counts[card_class(card)] += 1
        return counts

    def _observe(self) -> npt.NDArray[np.float32]:
        rnd = self._round()
        view = rnd.view_for(PLAYER)
        out = np.zeros(self._size, dtype=np.float32)
        phases = ("wagers", "insurance", "playing", "complete")
        out[phases.index(view.phase.value)] = 1.0
        at = 4
        if view.dealer:
            out[at + card_class(view.dealer[0])] = 1.0
            total, soft = hand_total(view.dealer)
            out[at + 10] = min(total / _TOTAL_SCALE, 1.0)
            out[at + 11] = float(soft)
        at += 12
        top = max(self.bet_sizes)
        box = view.boxes[0] if view.boxes else None
        actor = view.actor
        width = len(PER_HAND)
        by_rank = self.rules.pairs_by is PairsBy.RANK
        if box is not None:
            for i, hand in enumerate(box.hands[: self._hands]):
                cards = hand.cards
                row = (
                    1.0,
                    float(actor is not None and actor.hand == i),
                    min(hand.total / _TOTAL_SCALE, 1.0),
                    float(hand.soft),
                    min(len(cards) / _CARDS_SCALE, 1.0),
                    float(len(cards) == 2 and is_pair(cards[0], cards[1], by_rank=by_rank)),
                    float(hand.doubled),
                    float(hand.from_split),
                    float(hand.split_aces),
                    float(hand.done),
                    float(hand.total > 21),
                    min(sum(s for _, s in hand.stakes) / (2 * top), 1.0),
                )
                out[at + i * width : at + (i + 1) * width] = row
        at += self._hands * width
        wager = sum(s for _, s in box.wagers) if box is not None else 0
        insured = sum(s for _, s in box.insurance) if box is not None else 0
        bankroll = dict(view.bankrolls).get(PLAYER, 0)
        out[at : at + 3] = (
            min(wager / top, 1.0),
            min(insured / top, 1.0),
            min(bankroll / self.bankroll, 1.0),
        )
        at += 3
        shoe = self._shoe
        assert shoe is not None
        # a settled round's cards were added to the counts when it settled
        seen = self._seen if rnd.is_complete else self._seen + self._round_counts(view)
        in_shoe = np.array(_PER_CLASS, dtype=np.int64) * self.rules.decks
        unseen = np.maximum(in_shoe - seen, 0)
        out[at] = unseen.sum() / in_shoe.sum()
        out[at + 1] = float(shoe.cut_card_reached)
        at += 2
        if self.shoe_composition:
            out[at : at + 10] = unseen / in_shoe
        return out

    # ------------------------------------------------------------------ display
    def render(self) -> str | None:
        """The round as the player sees it (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None or self.round is None:
            return None
        view = self.round.view_for(PLAYER)
        dealer = " ".join(map(str, view.dealer)) or "-"
        lines = [f"{view.phase.value}: dealer {dealer} ({view.dealer_total})"]
        for box in view.boxes:
            for i, hand in enumerate(box.hands):
                stake = sum(s for _, s in hand.stakes)
                cards = " ".join(map(str, hand.cards))
                lines.append(f"hand {i}: {cards} ({hand.total}), stake {stake}")
        lines.append(f"bankroll {dict(view.bankrolls).get(PLAYER, 0)}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def blackjack_env(
    rules: BlackjackRules = NZ,
    *,
    bet_sizes: Sequence[int] | None = None,
    bankroll: int | None = None,
    shoe_composition: bool = False,
    illegal_action: str = "ignore",
    render_mode: str | None = None,
) -> BlackjackEnv:
    """A :class:`BlackjackEnv` (what ``gymnasium.make("croupier/Blackjack-v0", ...)`` builds).

    >>> env = blackjack_env(bet_sizes=(10,), bankroll=100, illegal_action="raise")
    >>> _ = env.reset(seed=1)
    >>> env.step(BlackjackMove.HIT)
    Traceback (most recent call last):
    ...
    croupier.errors.InvalidActionError: action 0 is not legal now; legal: wager 10
    """
    return BlackjackEnv(
        rules,
        bet_sizes=bet_sizes,
        bankroll=bankroll,
        shoe_composition=shoe_composition,
        illegal_action=illegal_action,
        render_mode=render_mode,
    )
