"""Poker bots for every game: random, calling station and a competent default bot.

Each bot is a :data:`~croupier.poker.policies.Policy`: it sees a
:class:`~croupier.poker.views.SeatView` and answers with an action, never the hand or its
deck. :data:`BOTS` maps the ``--bot-style`` names to factories taking a random source.

:class:`DefaultBot` estimates its equity by Monte-Carlo against the live opponents,
each holding a hand drawn from a range estimated from the action (a player who called
holds the best of two random hands, one who raised the best of three or more: the more
raises, the tighter), weighs it against the pot odds, bets for value, bluffs now and
then (more in position) and folds the rest. Pre-flop (no board, no up cards) estimates
are cached by hand class, so most pre-flop decisions are a dictionary look-up.

>>> import random
>>> from croupier.poker import HandState, TableRules
>>> hand = HandState(TableRules(), {1: 1000, 2: 1000, 3: 1000}, button=1, seed=4)
>>> bot = DefaultBot(random.Random(1))
>>> while not hand.is_complete:
...     _ = hand.apply(bot(hand.view_for(hand.actor)))
>>> sum(hand.stacks.values())
3000
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from croupier.cards.card import Card
from croupier.errors import CroupierError
from croupier.evaluation.evaluate import rank_indices
from croupier.evaluation.rankings import STANDARD
from croupier.poker import events as ev
from croupier.poker.actions import (
    Action,
    BringIn,
    Call,
    Check,
    Discard,
    Fold,
    LegalActions,
    RaiseTo,
)
from croupier.poker.games import GAMES, GameSpec
from croupier.poker.policies import CallingStation, Policy, RandomPolicy
from croupier.poker.views import SeatView

__all__ = ["BOTS", "DefaultBot", "estimate_equity", "opponent_tightness"]


def _legal(view: SeatView) -> LegalActions:
    if view.legal is None:
        raise CroupierError(f"seat {view.seat} is not to act: no action to choose")
    return view.legal


# ------------------------------------------------------------------------ hand ranking
def _ranker(game: GameSpec) -> Callable[[Sequence[int], Sequence[int]], int]:
    """A function ranking own card indices with board card indices (higher is better)."""
    ranking = game.ranking
    comp = game.composition
    if comp.is_exact and comp.own is not None and comp.board is not None:
        k, m = comp.own, comp.board

        def exact(own: Sequence[int], board: Sequence[int]) -> int:
            best = 0
            for pair in itertools.combinations(own, k):
                for three in itertools.combinations(board, m):
                    best = max(best, rank_indices((*pair, *three), ranking=ranking))
            return best

        return exact

    if ranking is STANDARD:
        from croupier.evaluation import onecall  # compiled kernels (numba, loaded on first use)

        kernels: dict[int, Callable[..., int]] = {
            5: onecall.rank5,
            6: onecall.rank6,
            7: onecall.rank7,
        }

        def fast(own: Sequence[int], board: Sequence[int]) -> int:
            cards = (*own, *board)
            return kernels[len(cards)](*cards)

        return fast

    def any_five(own: Sequence[int], board: Sequence[int]) -> int:
        return rank_indices((*own, *board), ranking=ranking)

    return any_five


_SCORES: dict[tuple[int, ...], int] = {}


def _start_score(cards: Sequence[int]) -> int:
    """A cheap score of a starting hand (pairs, high cards, suits, connectors), cached."""
    key = tuple(sorted(cards))
    score = _SCORES.get(key)
    if score is None:
        score = _SCORES[key] = _score(key)
    return score


def _score(cards: Sequence[int]) -> int:
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    score = sum(ranks) + 3 * ranks[0]
    counts: dict[int, int] = {}
    suits: dict[int, int] = {}
    for c in cards:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
        suits[c & 3] = suits.get(c & 3, 0) + 1
    for rank, n in counts.items():
        if n > 1:
            score += (n - 1) * (24 + 2 * rank)
    score += 4 * max(suits.values()) - 4
    score += sum(3 for a, b in itertools.pairwise(sorted(set(ranks))) if b - a == 1)
    return score


def opponent_tightness(view: SeatView, seat: int) -> int:
    """How many random hands the bot imagines ``seat`` chose its hand from: 1 for a player
    who has only checked or posted, 2 for one who called, and 2 more for each bet or raise
    (at most 7) — so its estimated range is tighter after raises.

    >>> from croupier.poker import HandState, TableRules
    >>> hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=3)
    >>> hand.raise_to(30)
    RaisedTo(seat=1, to=30, increment=20, full=True, all_in=False)
    >>> opponent_tightness(hand.view_for(2), 1), opponent_tightness(hand.view_for(2), 3)
    (3, 1)
    """
    raises = sum(1 for e in view.events if isinstance(e, ev.RaisedTo) and e.seat == seat)
    called = any(isinstance(e, ev.Called) and e.seat == seat for e in view.events)
    return min(7, 1 + int(called) + 2 * raises)


def _deck(game: GameSpec) -> list[int]:
    low = int(game.deck_lowest_rank)
    return [i for i in range(52) if i >> 2 >= low]


def estimate_equity(
    view: SeatView,
    rng: random.Random,
    *,
    samples: int = 100,
    tightness: dict[int, int] | None = None,
) -> float:
    """The viewer's share of the pot at the showdown, by Monte-Carlo over ``samples`` deals
    of the unseen cards: every live opponent's unseen cards are the best (by a cheap
    starting-hand score, or by the made hand once the board has three cards) of
    ``tightness[seat]`` random draws (default :func:`opponent_tightness`), then the rest
    of the hand is dealt at random. Draw games are judged on the hands as they stand.

    >>> import random
    >>> from croupier.poker import HandState, TableRules
    >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=3)
    >>> 0.0 <= estimate_equity(hand.view_for(1), random.Random(1), samples=50) <= 1.0
    True
    """
    game = GAMES[view.game]
    me = view.me
    mine = [c.index for c in (*me.down, *me.up) if c is not None]
    board = [c.index for c in view.board]
    known: set[int] = {*mine, *board}
    opponents: list[tuple[int, list[int], int, int]] = []  # seat, known, unseen now, to come
    for p in view.players:
        cards = [c.index for c in (*p.up, *p.down) if c is not None]
        known.update(cards)
        if p.seat == view.seat or p.folded:
            continue
        unseen = sum(1 for c in p.down if c is None)
        to_come = max(0, game.hole_cards - len(p.up) - len(p.down))
        opponents.append((p.seat, cards, unseen, to_come))
    if not opponents:
        return 1.0
    pool = [c for c in _deck(game) if c not in known]
    mine_to_come = max(0, game.hole_cards - len(me.up) - len(me.down))
    board_to_come = max(0, game.board_cards - len(board))
    need = mine_to_come + board_to_come + sum(u + t for _, _, u, t in opponents)
    tight = tightness or {s: opponent_tightness(view, s) for s, _, _, _ in opponents}
    extra = sum((tight.get(s, 1) - 1) * u for s, _, u, _ in opponents)
    if need + extra > len(pool) or len(mine) + mine_to_come + len(board) + board_to_come < 5:
        return 1.0 / (len(opponents) + 1)  # the stub would run short: an even share
    rank = _ranker(game)
    score_by_hand = len(board) >= 3
    samples = min(samples, max(12, _BUDGET // _cost(game, opponents, tight, score_by_hand)))
    total = 0.0
    for _ in range(samples):
        deal = rng.sample(pool, need + extra)
        at = 0
        hands: list[list[int]] = []
        for seat, cards, unseen, to_come in opponents:
            best: list[int] = []
            best_score = -1
            for _ in range(tight.get(seat, 1)):
                candidate = deal[at : at + unseen]
                at += unseen
                if not unseen:
                    break
                held = cards + candidate
                score = rank(held, board) if score_by_hand else _start_score(held)
                if score > best_score:
                    best, best_score = candidate, score
            hands.append(cards + best + deal[at : at + to_come])
            at += to_come
        own = mine + deal[at : at + mine_to_come]
        at += mine_to_come
        full_board = board + deal[at : at + board_to_come]
        mine_rank = rank(own, full_board)
        best_other = max(rank(h, full_board) for h in hands)
        if mine_rank > best_other:
            total += 1.0
        elif mine_rank == best_other:
            ties = 1 + sum(1 for h in hands if rank(h, full_board) == mine_rank)
            total += 1.0 / ties
    return total / samples


_BUDGET = 4000
"""Evaluation units one estimate may spend (keeps a decision well under 50 ms)."""


def _cost(
    game: GameSpec,
    opponents: list[tuple[int, list[int], int, int]],
    tight: dict[int, int],
    scored: bool,
) -> int:
    """Evaluation units one Monte-Carlo deal costs in ``game``."""
    comp = game.composition
    unit = 1
    if comp.is_exact and comp.own is not None and comp.board is not None:
        unit = math.comb(game.hole_cards, comp.own) * math.comb(game.board_cards, comp.board)
    if game.ranking is not STANDARD:
        unit *= 6  # the stripped ranking has no compiled kernel
    per_opponent = sum(1 + tight.get(s, 1) * (1 if scored else 4) for s, _, _, _ in opponents)
    return unit * (1 + per_opponent)


def _canonical(cards: Sequence[Card]) -> tuple[tuple[int, int], ...]:
    """Cards up to a relabelling of suits (a pre-flop hand class)."""
    ordered = sorted(cards, key=lambda c: (-int(c.rank), int(c.suit)))
    labels: dict[int, int] = {}
    return tuple((int(c.rank), labels.setdefault(int(c.suit), len(labels))) for c in ordered)


# ----------------------------------------------------------------------------- the bot
@dataclass(frozen=True)
class DefaultBot:
    """A competent bot for every game: Monte-Carlo equity against ranges estimated from
    the action (:func:`estimate_equity`), pot odds, position and some bluffing.

    ``samples`` deals per estimate (pre-flop estimates use four times as many and are
    cached); ``bluff`` is the chance of betting a weak hand when nobody has bet.

    >>> import random
    >>> from croupier.poker import HandState, TableRules
    >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=3)
    >>> DefaultBot(random.Random(2))(hand.view_for(hand.actor)) in hand.legal_actions()
    True
    """

    rng: random.Random = field(default_factory=random.Random)
    """The bot's random source (deals for the estimates, bluffs)."""
    samples: int = 64
    """Monte-Carlo deals per estimate."""
    bluff: float = 0.1
    """Chance of betting a weak hand when the betting is unopened."""
    _cache: dict[tuple[object, ...], float] = field(default_factory=dict, repr=False, compare=False)

    def equity(self, view: SeatView) -> float:
        """The bot's equity estimate for ``view`` (cached before any card is shown).

        >>> import random
        >>> from croupier.poker import HandState, TableRules
        >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=3)
        >>> 0 <= DefaultBot(random.Random(1)).equity(hand.view_for(1)) <= 1
        True
        """
        live = [p.seat for p in view.players if p.seat != view.seat and not p.folded]
        tight = {s: opponent_tightness(view, s) for s in live}
        fresh = not view.board and not any(p.up for p in view.players)
        if fresh:
            own = [c for c in view.me.down if c is not None]
            key = (view.game, _canonical(own), tuple(sorted(tight.values())))
            cached = self._cache.get(key)
            if cached is None:
                cached = estimate_equity(view, self.rng, samples=4 * self.samples, tightness=tight)
                self._cache[key] = cached
            return cached
        return estimate_equity(view, self.rng, samples=self.samples, tightness=tight)

    def __call__(self, view: SeatView) -> Action:
        """One decision: draw, bring in, or fold, check, call or raise."""
        legal = _legal(view)
        if legal.discard:
            return Discard(_discards([c for c in view.me.down if c is not None]))
        equity = self.equity(view)
        live = sum(1 for p in view.players if not p.folded)
        fair = 1.0 / max(live, 2)
        if legal.bring_in is not None:
            low, high = legal.bring_in
            return BringIn(high if equity > fair + 0.15 else low)
        price = legal.call or 0
        pot = view.pot
        late = _acts_last(view)
        strong = fair + (0.18 if live > 2 else 0.12) - (0.04 if late else 0.0)
        raise_to = legal.raise_to
        if raise_to is not None and equity >= strong:
            return RaiseTo(self._size(view, raise_to, equity, price))
        unopened = price == 0
        if (
            raise_to is not None
            and unopened
            and self.rng.random() < self.bluff * (2 if late else 1)
        ):
            return RaiseTo(self._size(view, raise_to, 0.0, price))
        if unopened:
            return Check() if legal.check else Call()
        odds = price / (pot + price)
        margin = 0.03 * (live - 2)
        if equity >= odds + margin:
            return Call()
        return Fold() if legal.fold else Call()

    def _size(self, view: SeatView, span: tuple[int, int], equity: float, price: int) -> int:
        """A bet of about two thirds of the pot (the whole pot with a big edge), in range."""
        low, high = span
        current = max(p.bet for p in view.players)
        ratio = 1.0 if equity > 0.8 else 0.66
        target = current + price + int(ratio * (view.pot + price))
        return max(low, min(high, target))


def _acts_last(view: SeatView) -> bool:
    """Whether the viewer is the last live player clockwise from the button (position)."""
    live = sorted(p.seat for p in view.players if not p.folded and not p.all_in)
    if not live or view.seat is None:
        return False
    after = [s for s in live if s > view.button] + [s for s in live if s <= view.button]
    return after[-1] == view.seat


def _discards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """What to throw in a draw: keep pairs and better, else a four-card flush, else the
    two highest cards."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[int(c.rank)] = counts.get(int(c.rank), 0) + 1
    if any(n > 1 for n in counts.values()):
        return tuple(c for c in cards if counts[int(c.rank)] == 1)
    for suit in {c.suit for c in cards}:
        same = [c for c in cards if c.suit == suit]
        if len(same) >= 4:
            return tuple(c for c in cards if c.suit != suit)
    keep = sorted(cards, key=lambda c: int(c.rank), reverse=True)[:2]
    return tuple(c for c in cards if c not in keep)


def _random_bot(rng: random.Random) -> Policy:
    return RandomPolicy(rng)


def _calling_bot(rng: random.Random) -> Policy:
    return CallingStation(rng)


def _default_bot(rng: random.Random) -> Policy:
    return DefaultBot(rng)


BOTS: dict[str, Callable[[random.Random], Policy]] = {
    "random": _random_bot,
    "calling": _calling_bot,
    "default": _default_bot,
}
"""The ``--bot-style`` names: each makes a bot from a random source."""
