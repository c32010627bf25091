"""Equity of hold'em ranges against each other (a hand is a range of one combo).

Each player holds one combo of their range, chosen with probability proportional to
the product of the weights over the deals where no two players share a card and no
player holds a board card (card removal, exactly); the board is then completed from
the cards still unseen. A player's equity is their expected share of the pot.

Exactly: every deal without a shared card is grouped with the deals equal to it up to
a renaming of the suits (the 24 permutations that keep the board), each group's board
completions are enumerated once, and the equities come out as exact fractions. By
Monte-Carlo: a deal is drawn by weight, from the list of every deal without a shared card
when it is short (at most 16,384 deals) and otherwise one combo a player,
rejecting deals that share a card; then a random board. Each equity carries a standard
error.

>>> r = range_equity(["QQ+", "AKs"])
>>> r.exact, r.deals, r.matchups
(True, 48, 4)
>>> [round(float(p.equity), 4) for p in r.players]
[0.6541, 0.3459]
"""

from __future__ import annotations

import functools
import itertools
import math
import numbers
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from croupier.cards.card import Card, format_cards, parse_cards
from croupier.equity import range_kernels
from croupier.equity.equity import EquityGame, ProgressCallback, exact_counts
from croupier.equity.ranges import COMBO_CARDS, HandRange
from croupier.errors import CroupierError, HandSizeError
from croupier.evaluation.evaluate import CardsLike
from croupier.evaluation.kernels import combinations_array
from croupier.evaluation.rankings import STANDARD
from croupier.evaluation.tables import HASH_SHIFT, RankTables, tables_for

__all__ = ["PlayerEquity", "RangeEquityResult", "range_equity"]

EXACT_BUDGET_SECONDS: Final = 2.0
"""Automatic choice: enumerate exactly when the estimated work is at most this many seconds."""
MATCHUP_SECONDS: Final = 15e-6
"""Estimated fixed cost of one distinct matchup (measured about 13 us on a river)."""
PLAYER_SECONDS: Final = (0.3e-6, 0.5e-6, 2e-6, 10e-6, 40e-6, 250e-6)
"""Estimated cost per player of one matchup by the number of board cards still to come
(the exact engine counts rank patterns, not boards: measured 740 us for two players and
1.4 ms for six preflop, 17 us for two on the flop, on a 2-core AMD EPYC)."""
MAX_DEALS: Final = 4_000_000
"""Exact runs list every deal of combos; above this product of range sizes they cannot."""
DEFAULT_SAMPLES: Final = 1_000_000
"""Samples of an automatic Monte-Carlo run (standard error about 0.05 percentage points)."""

_SAMPLE_CHUNK: Final = 100_000
_MAX_STREAK: Final = 1_000_000
_SEARCH_NODES: Final = 200_000
_CODE_BITS: Final = 11  # a combo id (0..1325) fits 11 bits; 5 players fill one int64 word
_PER_WORD: Final = 5
_INT64_SAFE: Final = 2**62
_TWO53: Final = 2**53
_DEAL_TABLE: Final = 1 << 14
"""Sampled runs draw from a table of every deal when there are at most this many (one
draw a sample, nothing rejected); above it, one combo a player with rejection."""


@dataclass(frozen=True)
class PlayerEquity:
    """One player's share of the outcomes: exact fractions, or floats with a standard error.

    >>> p = range_equity(["AA", "KK"], board="2c 7d 9h Jc").players[1]
    >>> p.combos, p.win, p.equity   # two kings left among 44 cards
    (6, Fraction(1, 22), Fraction(1, 22))
    """

    range: HandRange
    """The range as given."""
    combos: int
    """Combos of the range left once the board's cards are removed."""
    win: Fraction | float
    """Chance of winning alone."""
    tie: Fraction | float
    """Chance of sharing the best hand."""
    equity: Fraction | float
    """Expected share of the pot: wins plus each tie divided among the tied hands."""
    stderr: float | None
    """Standard error of :attr:`equity` for a sampled run; None when exact."""

    @property
    def lose(self) -> Fraction | float:
        """Chance of losing."""
        return 1 - self.win - self.tie

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready numbers (floats), with the exact equity as a string when exact.

        >>> range_equity(["AA", "KK"], board="2c 7d 9h Jc").players[1].to_dict()["equity_exact"]
        '1/22'
        """
        out: dict[str, Any] = {
            "range": str(self.range),
            "combos": self.combos,
            "win": float(self.win),
            "tie": float(self.tie),
            "lose": float(self.lose),
            "equity": float(self.equity),
        }
        if self.stderr is not None:  # undefined (null) from a single sample
            out["stderr"] = self.stderr if math.isfinite(self.stderr) else None
        else:
            out["equity_exact"] = str(self.equity)
        return out


@dataclass(frozen=True)
class RangeEquityResult:
    """The outcome of a range equity run.

    >>> r = range_equity(["AsKs", "QQ+, AKo"], board="Qs Js 2c 3d")
    >>> r.exact, r.deals, r.matchups, r.trials
    (True, 15, 15, 660)
    """

    board: tuple[Card, ...]
    """The known board cards."""
    players: tuple[PlayerEquity, ...]
    """Each player's equity, in the order given."""
    exact: bool
    """True when every deal and every board was enumerated."""
    trials: int
    """Boards enumerated (over all matchups), or samples drawn."""
    deals: int | None
    """Exact runs: the deals of combos without a shared card. None when sampled."""
    matchups: int | None
    """Exact runs: the deals distinct up to suits, each enumerated once. None when sampled."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary.

        >>> range_equity(["AA", "KK"], board="2c 7h 9h Jh").to_dict()["matchups"]   # 36 deals
        20
        """
        return {
            "game": EquityGame.HOLDEM.value,
            "board": format_cards(self.board),
            "exact": self.exact,
            "trials": self.trials,
            "deals": self.deals,
            "matchups": self.matchups,
            "players": [p.to_dict() for p in self.players],
        }


@functools.cache
def _tables() -> RankTables:
    return tables_for(STANDARD)


@functools.lru_cache(maxsize=4)
def _completions(left: int, draw: int) -> npt.NDArray[np.uint8]:
    return combinations_array(left, draw)  # type: ignore[no-any-return]


def _matchup_counts(
    hole_indices: list[list[int]], board: list[int], game: EquityGame
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    """Every board completion of one deal: ``wins[p]``, ``ties[p, k]`` (boards p shares with
    k - 1 others) and the number of boards. The one place the exact path evaluates."""
    used = {i for hand in hole_indices for i in hand} | set(board)
    remaining = np.array([i for i in range(52) if i not in used], np.uint8)
    hole = np.array(hole_indices, np.uint8)
    wins, ties = exact_counts(game, hole, np.array(board, np.uint8), remaining)
    return wins, ties, math.comb(len(remaining), 5 - len(board))


def _suit_permutations() -> npt.NDArray[np.int64]:
    """Row g maps each card index to its image under the g-th of the 24 suit renamings."""
    out = np.empty((24, 52), np.int64)
    cards = np.arange(52)
    for g, perm in enumerate(itertools.permutations(range(4))):
        out[g] = (cards & ~3) | np.array(perm)[cards & 3]
    return out


_PERMS: Final = _suit_permutations()


def _ids(hi: npt.NDArray[np.int64], lo: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Combo ids of card-index arrays (either order)."""
    a, b = np.maximum(hi, lo), np.minimum(hi, lo)
    return a * (a - 1) // 2 + b  # type: ignore[no-any-return]


@dataclass
class _Player:
    """One player's live combos as arrays, with integer weights over a common denominator."""

    ids: npt.NDArray[np.int64]
    cards: npt.NDArray[np.int64]
    masks: npt.NDArray[np.int64]
    weights: list[int]

    @classmethod
    def of(cls, live: HandRange) -> _Player:
        items = list(live.weights.items())
        scale = math.lcm(*(w.denominator for _, w in items))
        ids = np.array([i for i, _ in items], np.int64)
        cards = np.array([COMBO_CARDS[i] for i, _ in items], np.int64).reshape(-1, 2)
        masks = (np.int64(1) << cards[:, 0]) | (np.int64(1) << cards[:, 1])
        return cls(ids, cards, masks, [int(w * scale) for _, w in items])


def _deals(players: list[_Player]) -> npt.NDArray[np.int16]:
    """Every deal (one combo index per player) where no two players share a card."""
    idx = np.arange(len(players[0].ids), dtype=np.int16)[:, None]
    used = players[0].masks.copy()
    for p in players[1:]:
        rows, cols = np.nonzero((used[:, None] & p.masks[None, :]) == 0)
        idx = np.concatenate([idx[rows], cols.astype(np.int16)[:, None]], axis=1)
        used = used[rows] | p.masks[cols]
    return idx


def _deal_weights(players: list[_Player], deals: npt.NDArray[np.int16]) -> npt.NDArray[Any]:
    """The product of the integer weights of each deal (int64 when it cannot overflow)."""
    bound = len(deals) * math.prod(max(p.weights) for p in players)
    dtype: type[Any] = np.int64 if bound < _INT64_SAFE else object
    out = np.ones(len(deals), dtype)
    for j, p in enumerate(players):
        out = out * np.array(p.weights, dtype)[deals[:, j]]
    return out


def _stabilizer(board: list[int]) -> npt.NDArray[np.int64]:
    """The suit renamings that map the board onto itself."""
    keep = [g for g in range(24) if sorted(_PERMS[g, board].tolist()) == sorted(board)]
    return _PERMS[keep]


def _canonical(
    players: list[_Player], deals: npt.NDArray[np.int16], perms: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]:
    """Each deal's canonical key (lexicographic least image under ``perms``) as 64-bit words,
    the distinct keys and, per deal, the index of its key."""
    n = len(players)
    words = -(-n // _PER_WORD)
    codes = [_ids(perms[:, p.cards[:, 0]], perms[:, p.cards[:, 1]]) for p in players]
    keys = np.empty((len(deals), words), np.int64)
    chunk = max(1, 2_000_000 // len(perms))
    for start in range(0, len(deals), chunk):
        part = deals[start : start + chunk]
        image = np.zeros((words, len(perms), len(part)), np.int64)
        for j in range(n):
            shift = _CODE_BITS * (_PER_WORD - 1 - j % _PER_WORD)
            image[j // _PER_WORD] |= codes[j][:, part[:, j]] << shift
        alive = np.ones((len(perms), len(part)), bool)
        for w in range(words):
            masked = np.where(alive, image[w], np.iinfo(np.int64).max)
            least = masked.min(axis=0)
            keys[start : start + chunk, w] = least
            alive &= masked == least
    if words == 1:
        distinct, inverse = np.unique(keys[:, 0], return_inverse=True)
        return distinct[:, None], inverse.reshape(-1)
    distinct, inverse = np.unique(keys, axis=0, return_inverse=True)
    return distinct, inverse.reshape(-1)


def _decode(key: npt.NDArray[np.int64], n: int) -> list[list[int]]:
    """The hands (card indices, higher first) of a canonical key."""
    hands = []
    for j in range(n):
        shift = _CODE_BITS * (_PER_WORD - 1 - j % _PER_WORD)
        code = (int(key[j // _PER_WORD]) >> shift) & ((1 << _CODE_BITS) - 1)
        hands.append(list(COMBO_CARDS[code]))
    return hands


def _cost(matchups: int, draw: int, n: int) -> float:
    return matchups * (MATCHUP_SECONDS + n * PLAYER_SECONDS[draw])


def _count(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise CroupierError(f"{name} must be a whole number of at least 1, got {value!r}")
    return int(value)


def _seed(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise CroupierError(f"seed must be None or a whole number from 0, got {value!r}")
    return int(value)


def _ranges(players: object) -> list[HandRange]:
    if isinstance(players, str) or not isinstance(players, Iterable):
        shown = repr(players)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise CroupierError(
            f"players must be a list of ranges or hands such as ['AsKs', 'QQ+, AKo'], "
            f"not {shown} ({type(players).__name__})"
        )
    out = [p if isinstance(p, HandRange) else HandRange(p) for p in players]
    if not 2 <= len(out) <= 6:
        raise HandSizeError(f"range equity takes 2 to 6 players, got {len(out)}")
    return out


def _findable(players: list[_Player]) -> bool | None:
    """Whether some deal avoids a shared card: True, False, or None if the search gave up."""
    order = sorted(players, key=lambda p: len(p.ids))
    nodes = 0

    def search(p: int, used: int) -> bool | None:
        nonlocal nodes
        if p == len(order):
            return True
        gave_up = False
        for m in order[p].masks.tolist():
            nodes += 1
            if nodes > _SEARCH_NODES:
                return None
            if not used & m:
                found = search(p + 1, used | m)
                if found:
                    return True
                gave_up |= found is None
        return None if gave_up else False

    return search(0, 0)


_NO_DEAL: Final = "these ranges cannot be dealt together: every deal has two players sharing a card"


def range_equity(
    players: Iterable[str | HandRange],
    board: CardsLike | None = "",
    *,
    samples: int | np.integer[Any] | None = None,
    seed: int | np.integer[Any] | None = None,
    exact: bool | None = None,
    progress: ProgressCallback | None = None,
) -> RangeEquityResult:
    """Each player's win, tie and equity, for 2 to 6 hold'em ranges or exact hands.

    ``exact=None`` (the default) enumerates exactly when the estimated work is at most
    :data:`EXACT_BUDGET_SECONDS` (distinct matchups times boards, see the module constants)
    and samples :data:`DEFAULT_SAMPLES` deals otherwise; ``samples=N`` samples N deals,
    ``exact=True`` always enumerates (refused when the ranges make more than
    :data:`MAX_DEALS` combo deals) and ``exact=False`` always samples. ``seed`` (a whole
    number from 0) makes a sampled run reproducible. ``progress(done, total)`` is called
    between chunks of work.

    >>> r = range_equity(["AA", "AKs"], board="Ah 7c 2d")   # card removal: 3 deals
    >>> r.deals, [p.combos for p in r.players], r.players[0].equity
    (3, [3, 3], Fraction(161, 165))
    >>> s = range_equity(["AsKs", "QQ+, AKo"], samples=20_000, seed=1)
    >>> s.exact, s.trials, s.players[0].stderr < 0.005
    (False, 20000, True)
    >>> range_equity(["AsKs", "AsQs"])
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: these ranges cannot be dealt together: every deal has two players sharing a card
    """
    if progress is not None and not callable(progress):
        raise CroupierError(f"progress must be a callable or None, not {progress!r:.40}")
    if exact is not None and not isinstance(exact, bool):
        raise CroupierError(f"exact must be True, False or None, not {exact!r}")
    count = None if samples is None else _count(samples, "samples")
    if exact is True and count is not None:
        raise CroupierError("exact=True and samples exclude each other: give one")
    seeded = _seed(seed)
    ranges = _ranges(players)
    shared = () if board is None else parse_cards(board)
    if len(shared) > 5:
        raise HandSizeError(f"the board holds at most 5 cards, got {len(shared)}")
    known = [c.index for c in shared]
    lives = [r.without(shared) for r in ranges]
    for i, (r, live) in enumerate(zip(ranges, lives, strict=True), start=1):
        if not live:
            raise CroupierError(
                f"player {i}'s range {str(r)!r} has no combo left without the board's cards"
            )
    seats = [_Player.of(live) for live in lives]
    n = len(seats)
    draw = 5 - len(known)
    dealt = math.prod(len(p.ids) for p in seats)
    deals = _deals(seats) if dealt <= MAX_DEALS else None
    if deals is not None and len(deals) == 0:
        raise CroupierError(_NO_DEAL)
    if exact is True and deals is None:
        raise CroupierError(
            f"exact=True: the ranges make {dealt:,} combo deals, more than the "
            f"{MAX_DEALS:,} an exact run lists; sample instead (samples=...)"
        )
    perms = _stabilizer(known)
    want_exact = exact is True or (exact is None and count is None and deals is not None)
    if want_exact and exact is None and deals is not None:
        want_exact = _cost(-(-len(deals) // len(perms)), draw, n) <= EXACT_BUDGET_SECONDS
    if want_exact:
        assert deals is not None
        distinct, inverse = _canonical(seats, deals, perms)
        if exact is True or _cost(len(distinct), draw, n) <= EXACT_BUDGET_SECONDS:
            return _exact(ranges, lives, shared, seats, deals, distinct, inverse, progress)
    if deals is None and _findable(seats) is False:
        raise CroupierError(_NO_DEAL)
    samples_run = DEFAULT_SAMPLES if count is None else count
    return _sample(ranges, lives, shared, seats, deals, samples_run, seeded, progress)


def _exact(
    ranges: list[HandRange],
    lives: list[HandRange],
    shared: tuple[Card, ...],
    seats: list[_Player],
    deals: npt.NDArray[np.int16],
    distinct: npt.NDArray[np.int64],
    inverse: npt.NDArray[np.intp],
    progress: ProgressCallback | None,
) -> RangeEquityResult:
    n = len(seats)
    weights = _deal_weights(seats, deals)
    group = np.zeros(len(distinct), weights.dtype)
    np.add.at(group, inverse, weights)
    scale = math.lcm(*range(1, n + 1))  # a tie of k hands pays scale // k each, in whole units
    pays = np.array([0] + [scale // k for k in range(1, n + 1)], np.int64)
    wins = np.zeros((len(distinct), n), np.int64)
    ties = np.zeros((len(distinct), n), np.int64)
    share = np.zeros((len(distinct), n), np.int64)
    boards = 0
    known = [c.index for c in shared]
    for c, key in enumerate(distinct):
        w, t, boards = _matchup_counts(_decode(key, n), known, EquityGame.HOLDEM)
        wins[c] = w
        ties[c] = t.sum(axis=1)
        share[c] = w * scale + t @ pays
        if progress is not None:
            progress(c + 1, len(distinct))
    exact_group = group.astype(object)  # Python integers: the weighted sums cannot overflow
    total = int(exact_group.sum())
    sums = [exact_group @ a.astype(object) for a in (wins, ties, share)]
    wins_sum, ties_sum, share_sum = ([int(x) for x in v] for v in sums)
    den = total * boards
    out = tuple(
        PlayerEquity(
            r,
            len(live),
            Fraction(wins_sum[p], den),
            Fraction(ties_sum[p], den),
            Fraction(share_sum[p], den * scale),
            None,
        )
        for p, (r, live) in enumerate(zip(ranges, lives, strict=True))
    )
    return RangeEquityResult(shared, out, True, boards * len(distinct), len(deals), len(distinct))


def _small_draw(total: int) -> tuple[int, int]:
    """The kernels' rejection bounds for a uniform draw from ``[0, total)``: the 13-bit
    threshold (when ``total <= 2**13``) and the 53-bit limit."""
    threshold = (1 << 13) % total if total <= 1 << 13 else 0
    return threshold, _TWO53 - _TWO53 % total


_I64 = npt.NDArray[np.int64]
_DealTable = tuple[_I64, _I64, _I64, _I64, int, int, int]
_ComboTables = tuple[_I64, _I64, _I64, _I64, _I64, _I64, _I64, _I64]


def _deal_table(
    seats: list[_Player], deals: npt.NDArray[np.int16] | None, t: RankTables
) -> _DealTable | None:
    """The arrays :func:`range_kernels.sample_deals` draws from: every deal without a shared
    card, with its weight (exact integers, reduced by their common divisor); None when there
    are too many deals to list or their weights are too large for an exact 53-bit draw."""
    if deals is None or len(deals) > _DEAL_TABLE:
        return None
    weights = _deal_weights(seats, deals)
    if weights.dtype != np.int64:
        return None
    weights = weights // np.gcd.reduce(weights)
    total = int(weights.sum())
    if total >= _TWO53:
        return None
    n = len(seats)
    masks = np.zeros(len(deals), np.int64)
    keys = np.empty((len(deals), n), np.int64)
    suits = np.empty((len(deals), n), np.int64)
    for p, seat in enumerate(seats):
        chosen = deals[:, p].astype(np.intp)
        cards = seat.cards[chosen]
        masks |= seat.masks[chosen]
        keys[:, p] = t.card_key7[cards[:, 0]] + t.card_key7[cards[:, 1]]
        suits[:, p] = t.card_suit_mask[cards[:, 0]] + t.card_suit_mask[cards[:, 1]]
    threshold, limit = _small_draw(total)
    return masks, keys, suits, np.cumsum(weights), total, threshold, limit


def _combo_tables(seats: list[_Player], t: RankTables) -> _ComboTables:
    """The arrays :func:`range_kernels.sample_ranges` draws from, one row per player. A combo
    that shares a card with a player who holds one combo only can never be dealt: it is
    dropped (the distribution of the deals that fit is unchanged)."""
    n = len(seats)
    fixed = [int(s.masks[0]) if len(s.ids) == 1 else 0 for s in seats]
    keep = []
    for p, seat in enumerate(seats):
        others = 0
        for q, mask in enumerate(fixed):
            others |= mask if q != p else 0
        live = (seat.masks & others) == 0
        if not live.any():
            raise CroupierError(_NO_DEAL)
        keep.append(np.nonzero(live)[0])
    width = max(len(k) for k in keep)
    masks = np.zeros((n, width), np.int64)
    keys = np.zeros((n, width), np.int64)
    suits = np.zeros((n, width), np.int64)
    cumulative = np.zeros((n, width), np.int64)
    counts = np.array([len(k) for k in keep], np.int64)
    totals = np.zeros(n, np.int64)
    thresholds = np.zeros(n, np.int64)
    limits = np.zeros(n, np.int64)
    for p, (seat, kept) in enumerate(zip(seats, keep, strict=True)):
        cards = seat.cards[kept]
        weights = np.array(seat.weights, np.int64)[kept]
        weights //= np.gcd.reduce(weights)
        size = len(kept)
        masks[p, :size] = seat.masks[kept]
        keys[p, :size] = t.card_key7[cards[:, 0]] + t.card_key7[cards[:, 1]]
        suits[p, :size] = t.card_suit_mask[cards[:, 0]] + t.card_suit_mask[cards[:, 1]]
        cumulative[p, :size] = np.cumsum(weights)
        totals[p] = int(weights.sum())
        thresholds[p], limits[p] = _small_draw(int(totals[p]))
    return masks, keys, suits, cumulative, totals, counts, thresholds, limits


def _sample(
    ranges: list[HandRange],
    lives: list[HandRange],
    shared: tuple[Card, ...],
    seats: list[_Player],
    deals: npt.NDArray[np.int16] | None,
    count: int,
    seed: int | None,
    progress: ProgressCallback | None,
) -> RangeEquityResult:
    n = len(seats)
    t = _tables()
    offsets, values = t.compact(7)
    known = [c.index for c in shared]
    board = (
        int(t.card_key7[known].sum()),
        int(t.card_suit_mask[known].sum()),
        sum(1 << i for i in known),
        5 - len(known),
    )
    lookup = (t.card_key7, t.card_suit_mask, offsets, values, HASH_SHIFT, t.flush)
    table = _deal_table(seats, deals, t)
    combos = _combo_tables(seats, t) if table is None else None
    wins = np.zeros(n, np.int64)
    ties = np.zeros((n, n + 1), np.int64)
    shares = np.zeros((2, n), np.float64)
    pool = np.zeros(2, np.int64)  # random bits not used yet, carried from call to call
    rng = np.random.default_rng(seed)
    done = 0
    while done < count:
        size = min(_SAMPLE_CHUNK, count - done)
        if combos is None:
            assert table is not None
            range_kernels.sample_deals(rng, *table, *board, size, *lookup, wins, ties, shares, pool)
        elif (
            range_kernels.sample_ranges(
                rng, *combos, *board, size, _MAX_STREAK, *lookup, wins, ties, shares, pool
            )
            < 0
        ):
            raise CroupierError(
                f"these ranges hardly ever fit together: {_MAX_STREAK:,} deals in a row "
                "had two players sharing a card"
            )
        done += size
        if progress is not None:
            progress(done, count)
    out = []
    for p, (r, live) in enumerate(zip(ranges, lives, strict=True)):
        mean = float(shares[0, p]) / count
        var = max(float(shares[1, p]) / count - mean * mean, 0.0)
        stderr = math.sqrt(var / count) if count > 1 else float("nan")
        out.append(
            PlayerEquity(
                r,
                len(live),
                int(wins[p]) / count,
                int(ties[p].sum()) / count,
                mean,
                stderr,
            )
        )
    return RangeEquityResult(shared, tuple(out), False, count, None, None)
