"""Win/tie/lose equity of known hands, exact by enumerating every board or by Monte-Carlo.

>>> result = equity(["As Ks", "Qd Qh"], board="Qs Js 2c")
>>> result.exact, result.trials
(True, 990)
>>> [round(float(h.equity), 4) for h in result.hands]
[0.3384, 0.6616]
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.cards.card import Card, format_cards, parse_cards
from croupier.equity import exact_kernels, kernels
from croupier.errors import CroupierError, DuplicateCardError, HandSizeError
from croupier.evaluation.evaluate import CardsLike
from croupier.evaluation.kernels import combinations_array
from croupier.evaluation.omaha_table import omaha_tables_for
from croupier.evaluation.rankings import STANDARD
from croupier.evaluation.tables import (
    HASH_SHIFT,
    RANK_WEIGHTS_5,
    RANK_WEIGHTS_7,
    RankTables,
    tables_for,
)

__all__ = ["EquityGame", "EquityResult", "HandEquity", "equity", "exact_counts"]

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(done, total)`` between chunks of work."""

_CHUNKS = 64
_SAMPLE_CHUNK = 100_000


class EquityGame(StrEnum):
    """Games the equity engine knows, with their hole-card counts.

    >>> EquityGame("omaha").hole_cards
    4
    """

    HOLDEM = "holdem"
    """Texas Hold'em: two hole cards, best five of seven."""
    OMAHA = "omaha"
    """Omaha: four hole cards, exactly two of them with three board cards (17.5(d))."""

    @property
    def hole_cards(self) -> int:
        """How many hole cards each hand holds.

        >>> EquityGame.OMAHA.hole_cards
        4
        """
        return 2 if self is EquityGame.HOLDEM else 4


@dataclass(frozen=True)
class HandEquity:
    """One hand's share of the outcomes.

    Exact runs give :class:`~fractions.Fraction` values; sampled runs give floats
    with a standard error.

    >>> aks = equity(["As Ks", "Qd Qh"], board="2c 7d 9h Jc").hands[0]
    >>> aks.wins, aks.equity
    (6, Fraction(3, 22))
    """

    hand: tuple[Card, ...]
    """The hole cards."""
    wins: int
    """Boards (or samples) this hand wins alone."""
    ties: int
    """Boards (or samples) this hand shares the best hand."""
    win: Fraction | float
    """Fraction of boards won outright."""
    tie: Fraction | float
    """Fraction of boards tied."""
    equity: Fraction | float
    """Expected share of the pot: wins plus each tie divided among the tied hands."""
    stderr: float | None
    """Standard error of :attr:`equity` for a sampled run; None when exact."""

    @property
    def lose(self) -> Fraction | float:
        """Fraction of boards lost."""
        return 1 - self.win - self.tie

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready numbers (floats), with exact fractions as strings when exact."""
        out: dict[str, Any] = {
            "hand": format_cards(self.hand),
            "win": float(self.win),
            "tie": float(self.tie),
            "lose": float(self.lose),
            "equity": float(self.equity),
            "wins": self.wins,
            "ties": self.ties,
        }
        if self.stderr is not None:  # sampled; undefined (null) from a single sample
            out["stderr"] = self.stderr if math.isfinite(self.stderr) else None
        else:
            out["equity_exact"] = str(self.equity)
        return out


@dataclass(frozen=True)
class EquityResult:
    """The outcome of an equity run.

    >>> r = equity(["As Ks", "Qd Qh"], board="2c 7d 9h Jc")
    >>> r.exact, r.trials, len(r.hands)
    (True, 44, 2)
    """

    game: EquityGame
    """The game."""
    board: tuple[Card, ...]
    """The known board cards."""
    hands: tuple[HandEquity, ...]
    """Each hand's equity, in the order given."""
    exact: bool
    """True when every board was enumerated."""
    trials: int
    """Boards enumerated, or samples drawn."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary.

        >>> equity(["As Ks", "Qd Qh"], board="Qs Js 2c 3d").to_dict()["trials"]
        44
        """
        return {
            "game": self.game.value,
            "board": format_cards(self.board),
            "exact": self.exact,
            "trials": self.trials,
            "hands": [h.to_dict() for h in self.hands],
        }


def _hand_list(hands: object) -> list[CardsLike]:
    """The hands as a list: an iterable of hands, each cards as text or Card objects."""
    if isinstance(hands, str) or not isinstance(hands, Iterable):
        shown = repr(hands)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise CroupierError(
            f"hands must be a list of hands such as ['As Ks', 'Qd Qh'], "
            f"not {shown} ({type(hands).__name__})"
        )
    return list(hands)


def _validate(
    hands: Iterable[CardsLike], board: CardsLike | None, game: EquityGame
) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
    listed = _hand_list(hands)
    if len(listed) < 2:
        raise HandSizeError(f"equity needs at least two hands, got {len(listed)}")
    parsed = [parse_cards(h) for h in listed]
    for i, hand in enumerate(parsed, start=1):
        if len(hand) != game.hole_cards:
            raise HandSizeError(
                f"hand {i} ({format_cards(hand)}) has {len(hand)} cards; "
                f"{game.value} hands have {game.hole_cards} hole cards"
            )
    shared = () if board is None else parse_cards(board)
    if len(shared) > 5:
        raise HandSizeError(f"the board holds at most 5 cards, got {len(shared)}")
    if game is EquityGame.OMAHA and 0 < len(shared) < 3:
        raise HandSizeError("an Omaha board is dealt as a flop of three, then one card at a time")
    seen: set[Card] = set()
    for card in [c for hand in parsed for c in hand] + list(shared):
        if card in seen:
            raise DuplicateCardError(f"card {card} appears twice among the hands and board")
        seen.add(card)
    needed = 5 - len(shared)
    if 52 - len(seen) < needed:
        raise CroupierError("not enough cards left in the deck to complete the board")
    return parsed, shared


def _count(value: object, name: str) -> int:
    """A whole number of at least 1 (any integer type but bool), else a clear error."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise CroupierError(f"{name} must be a whole number of at least 1, got {value!r}")
    if value < 1:
        raise CroupierError(f"{name} must be a whole number of at least 1, got {value}")
    return int(value)


def _seed(value: object) -> int | None:
    """None (fresh randomness) or a non-negative whole number."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise CroupierError(f"seed must be None or a whole number from 0, got {value!r}")
    return int(value)


def _game(value: object) -> EquityGame:
    try:
        return EquityGame(value if isinstance(value, str) else repr(value))
    except ValueError:
        names = ", ".join(g.value for g in EquityGame)
        raise CroupierError(f"unknown equity game {value!r}: one of {names}") from None


def equity(
    hands: Iterable[CardsLike],
    board: CardsLike | None = (),
    *,
    game: EquityGame | str = EquityGame.HOLDEM,
    samples: int | np.integer[Any] | None = None,
    seed: int | np.integer[Any] | None = None,
    progress: ProgressCallback | None = None,
) -> EquityResult:
    """Each hand's win, tie and equity against the others.

    With ``samples=None`` (the default) every completion of the board is enumerated
    and the results are exact fractions. With ``samples=N`` the board is completed
    N times at random (reproducibly with ``seed``, a whole number from 0) and each
    equity carries a standard error (undefined, NaN, for a single sample). ``samples``
    must be a whole number of at least 1: a float, a bool, zero or a negative count is
    refused, as is a negative or non-integer seed. ``board=None`` means no board yet, as
    ``()`` does.

    >>> r = equity(["As Ks", "Qd Qh"], board="2c 7d 9h Jc")
    >>> [h.wins for h in r.hands], r.trials
    ([6, 38], 44)
    >>> equity(["As Ks", "As Qh"])
    Traceback (most recent call last):
    ...
    croupier.errors.DuplicateCardError: card As appears twice among the hands and board
    >>> equity(["As Ks", "Qd Qh"], samples=1.5)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: samples must be a whole number of at least 1, got 1.5
    >>> equity(None)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: hands must be a list of hands such as ['As Ks', 'Qd Qh'], not None (NoneType)
    """
    if progress is not None and not callable(progress):
        raise CroupierError(f"progress must be a callable or None, not {progress!r:.40}")
    game = _game(game)
    count = None if samples is None else _count(samples, "samples")
    seeded = _seed(seed)
    parsed, shared = _validate(hands, board, game)
    t = tables_for(STANDARD)
    used = {c.index for hand in parsed for c in hand} | {c.index for c in shared}
    remaining = np.array([i for i in range(52) if i not in used], np.uint8)
    job = _Job(game, parsed, shared, remaining, t)
    exact = count is None or job.draw == 0
    if exact:
        trials = math.comb(len(remaining), job.draw)
        job.wins, job.ties = exact_counts(game, job.hole, job.known, remaining)
        if progress is not None:
            progress(trials, trials)
    else:
        assert count is not None
        trials = count
        seeds = np.random.SeedSequence(seeded)
        done = 0
        while done < count:
            size = min(_SAMPLE_CHUNK, count - done)
            job.sample(size, int(seeds.spawn(1)[0].generate_state(1)[0] % (2**31)))
            done += size
            if progress is not None:
                progress(done, count)
    return EquityResult(
        game,
        shared,
        _summaries(parsed, job.wins, job.ties, job.shares, trials, exact),
        exact,
        trials,
    )


def exact_counts(
    game: EquityGame,
    hole: npt.NDArray[np.uint8],
    board: npt.NDArray[np.uint8],
    remaining: npt.NDArray[np.uint8],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Exact ``(wins[p], ties[p, k])`` over every completion of ``board`` from ``remaining``.

    Counted by rank pattern and suit pattern (see :mod:`croupier.equity.exact_kernels`),
    never board by board: AsKs against QdQh, 1,712,304 boards, is about 7,000 rank patterns
    plus the flush corrections. Nothing is checked here: :func:`equity` checks its input.

    >>> hole = np.array([[51, 47], [41, 42]], np.uint8)        # As Ks against Qd Qh
    >>> rest = np.array([c for c in range(52) if c not in (51, 47, 41, 42)], np.uint8)
    >>> wins, ties = exact_counts(EquityGame.HOLDEM, hole, np.array([], np.uint8), rest)
    >>> wins.tolist(), int(ties[0, 2])
    ([787966, 917606], 6732)
    """
    t = tables_for(STANDARD)
    n = hole.shape[0]
    wins = np.zeros(n, np.int64)
    ties = np.zeros((n, n + 1), np.int64)
    w7 = np.array(RANK_WEIGHTS_7, np.int64)
    w5 = np.array(RANK_WEIGHTS_5, np.int64)
    if game is EquityGame.HOLDEM:
        offsets, values = t.compact(7)
        exact_kernels.holdem_exact(
            hole, board, remaining, w7, w5, offsets, values, HASH_SHIFT, t.flush, wins, ties
        )
    else:
        o = omaha_tables_for(STANDARD)
        exact_kernels.omaha_exact(
            hole, board, remaining, w7, w5, o.board_index, o.hole_index, o.nonflush, o.holes,
            t.flush, wins, ties,
        )  # fmt: skip
    return wins, ties


def _summaries(
    parsed: list[tuple[Card, ...]],
    wins: npt.NDArray[np.int64],
    ties: npt.NDArray[np.int64],
    shares: npt.NDArray[np.float64],
    trials: int,
    exact: bool,
) -> tuple[HandEquity, ...]:
    out = []
    for p, hand in enumerate(parsed):
        w = int(wins[p])
        tie_counts = [int(x) for x in ties[p]]
        t = sum(tie_counts)
        if exact:
            share = Fraction(w) + sum(
                (Fraction(count, k) for k, count in enumerate(tie_counts) if count), Fraction(0)
            )
            out.append(
                HandEquity(
                    hand, w, t, Fraction(w, trials), Fraction(t, trials), share / trials, None
                )
            )
        else:
            mean = shares[0, p] / trials
            var = max(shares[1, p] / trials - mean * mean, 0.0)
            stderr = math.sqrt(var / trials) if trials > 1 else float("nan")
            out.append(HandEquity(hand, w, t, w / trials, t / trials, mean, stderr))
    return tuple(out)


class _Job:
    """The arrays of one equity run, shared by the enumerating and the sampling kernels."""

    def __init__(
        self,
        game: EquityGame,
        parsed: list[tuple[Card, ...]],
        shared: tuple[Card, ...],
        remaining: npt.NDArray[np.uint8],
        tables: RankTables,
    ) -> None:
        n = len(parsed)
        self.game = game
        self.t = tables
        self.remaining = remaining
        self.wins = np.zeros(n, np.int64)
        self.ties = np.zeros((n, n + 1), np.int64)
        self.shares = np.zeros((2, n), np.float64)
        self.draw = 5 - len(shared)
        self.hole = np.array([[c.index for c in hand] for hand in parsed], np.uint8)
        self.known = np.array([c.index for c in shared], np.uint8)
        key, smask = tables.card_key7, tables.card_suit_mask
        self.hole_key = key[self.hole].sum(axis=1).astype(np.int64)
        self.hole_mask = smask[self.hole].sum(axis=1).astype(np.int64)
        self.board_key = int(key[self.known].sum())
        self.board_mask = int(smask[self.known].sum())
        self.pairs = combinations_array(self.hole.shape[1], 2)
        self.triples = combinations_array(5, 3)

    def enumerate(self, combos: npt.NDArray[np.uint8], start: int, stop: int) -> None:
        """Score the board completions ``combos[start:stop]``."""
        t = self.t
        if self.game is EquityGame.HOLDEM:
            kernels.holdem_enumerate(
                self.hole_key,
                self.hole_mask,
                self.board_key,
                self.board_mask,
                self.remaining,
                combos,
                start,
                stop,
                t.card_key7,
                t.card_suit_mask,
                t.nonflush7,
                t.flush,
                self.wins,
                self.ties,
                self.shares,
            )
        else:
            kernels.split_enumerate(
                self.hole,
                self.known,
                self.remaining,
                combos,
                start,
                stop,
                self.pairs,
                self.triples,
                t.card_key5,
                t.nonflush5,
                t.flush,
                self.wins,
                self.ties,
                self.shares,
            )

    def sample(self, size: int, seed: int) -> None:
        """Score ``size`` random board completions."""
        t = self.t
        if self.game is EquityGame.HOLDEM:
            kernels.holdem_sample(
                self.hole_key,
                self.hole_mask,
                self.board_key,
                self.board_mask,
                self.remaining,
                self.draw,
                size,
                seed,
                t.card_key7,
                t.card_suit_mask,
                t.nonflush7,
                t.flush,
                self.wins,
                self.ties,
                self.shares,
            )
        else:
            kernels.split_sample(
                self.hole,
                self.known,
                self.remaining,
                size,
                seed,
                self.pairs,
                self.triples,
                t.card_key5,
                t.nonflush5,
                t.flush,
                self.wins,
                self.ties,
                self.shares,
            )
