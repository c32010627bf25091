"""Win/tie/lose equity of known hands, exact by enumerating every board or by Monte-Carlo.

>>> result = equity(["As Ks", "Qd Qh"], board="Qs Js 2c")
>>> result.exact, result.trials
(True, 990)
>>> [round(float(h.equity), 4) for h in result.hands]
[0.3384, 0.6616]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.cards.card import Card, format_cards, parse_cards
from croupier.equity import kernels
from croupier.errors import CroupierError, DuplicateCardError, HandSizeError
from croupier.evaluation.evaluate import CardsLike
from croupier.evaluation.kernels import combinations_array
from croupier.evaluation.rankings import STANDARD
from croupier.evaluation.tables import RankTables, tables_for

__all__ = ["EquityGame", "EquityResult", "HandEquity", "equity"]

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(done, total)`` between chunks of work."""

_CHUNKS = 64
_SAMPLE_CHUNK = 100_000


class EquityGame(StrEnum):
    """Games the equity engine knows, with their hole-card counts."""

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
        if self.stderr is not None:
            out["stderr"] = self.stderr
        else:
            out["equity_exact"] = str(self.equity)
        return out


@dataclass(frozen=True)
class EquityResult:
    """The outcome of an equity run."""

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


def _validate(
    hands: Sequence[CardsLike], board: CardsLike, game: EquityGame
) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
    if len(hands) < 2:
        raise HandSizeError(f"equity needs at least two hands, got {len(hands)}")
    parsed = [parse_cards(h) for h in hands]
    for i, hand in enumerate(parsed, start=1):
        if len(hand) != game.hole_cards:
            raise HandSizeError(
                f"hand {i} ({format_cards(hand)}) has {len(hand)} cards; "
                f"{game.value} hands have {game.hole_cards} hole cards"
            )
    shared = parse_cards(board)
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


def equity(
    hands: Sequence[CardsLike],
    board: CardsLike = (),
    *,
    game: EquityGame | str = EquityGame.HOLDEM,
    samples: int | None = None,
    seed: int | None = None,
    progress: ProgressCallback | None = None,
) -> EquityResult:
    """Each hand's win, tie and equity against the others.

    With ``samples=None`` (the default) every completion of the board is enumerated
    and the results are exact fractions. With ``samples=N`` the board is completed
    N times at random (reproducibly with ``seed``) and each equity carries a
    standard error.

    >>> r = equity(["As Ks", "Qd Qh"], board="2c 7d 9h Jc")
    >>> [h.wins for h in r.hands], r.trials
    ([6, 38], 44)
    >>> equity(["As Ks", "As Qh"])
    Traceback (most recent call last):
    ...
    croupier.errors.DuplicateCardError: card As appears twice among the hands and board
    """
    game = EquityGame(game)
    parsed, shared = _validate(hands, board, game)
    t = tables_for(STANDARD)
    used = {c.index for hand in parsed for c in hand} | {c.index for c in shared}
    remaining = np.array([i for i in range(52) if i not in used], np.uint8)
    n = len(parsed)
    draw = 5 - len(shared)
    wins = np.zeros(n, np.int64)
    ties = np.zeros((n, n + 1), np.int64)
    shares = np.zeros((2, n), np.float64)
    if samples is not None and samples < 1:
        raise CroupierError(f"samples must be a positive number, got {samples}")
    exact = samples is None or draw == 0
    if exact:
        combos = combinations_array(len(remaining), draw)
        trials = combos.shape[0]
        run = _enumerator(game, parsed, shared, remaining, combos, t, wins, ties, shares)
        steps = np.linspace(0, trials, min(_CHUNKS, trials) + 1).astype(np.int64)
        for start, stop in itertools.pairwise(steps):
            run(int(start), int(stop))
            if progress is not None:
                progress(int(stop), trials)
    else:
        assert samples is not None
        trials = samples
        rng = np.random.SeedSequence(seed)
        done = 0
        sampler = _sampler(game, parsed, shared, remaining, t, wins, ties, shares)
        while done < samples:
            size = min(_SAMPLE_CHUNK, samples - done)
            sampler(size, int(rng.spawn(1)[0].generate_state(1)[0] % (2**31)))
            done += size
            if progress is not None:
                progress(done, samples)
    return EquityResult(game, shared, _summaries(parsed, wins, ties, shares, trials, exact),
                        exact, trials)  # fmt: skip


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
            out.append(HandEquity(hand, w, t, Fraction(w, trials), Fraction(t, trials),
                                  share / trials, None))  # fmt: skip
        else:
            mean = shares[0, p] / trials
            var = max(shares[1, p] / trials - mean * mean, 0.0)
            stderr = math.sqrt(var / trials) if trials > 1 else float("nan")
            out.append(HandEquity(hand, w, t, w / trials, t / trials, mean, stderr))
    return tuple(out)


def _hole_sums(parsed: list[tuple[Card, ...]], key: npt.NDArray[np.int64],
               smask: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:  # fmt: skip
    keys = np.array([sum(int(key[c.index]) for c in hand) for hand in parsed], np.int64)
    masks = np.array([sum(int(smask[c.index]) for c in hand) for hand in parsed], np.int64)
    return keys, masks


def _enumerator(
    game: EquityGame,
    parsed: list[tuple[Card, ...]],
    shared: tuple[Card, ...],
    remaining: npt.NDArray[np.uint8],
    combos: npt.NDArray[np.uint8],
    t: RankTables,
    wins: npt.NDArray[np.int64],
    ties: npt.NDArray[np.int64],
    shares: npt.NDArray[np.float64],
) -> Callable[[int, int], None]:
    if game is EquityGame.HOLDEM:
        hk, hm = _hole_sums(parsed, t.card_key7, t.card_suit_mask)
        bk = sum(int(t.card_key7[c.index]) for c in shared)
        bm = sum(int(t.card_suit_mask[c.index]) for c in shared)

        def run(start: int, stop: int) -> None:
            kernels.holdem_enumerate(hk, hm, bk, bm, remaining, combos, start, stop,
                                     t.card_key7, t.card_suit_mask, t.nonflush7, t.flush,
                                     wins, ties, shares)  # fmt: skip

        return run
    hole = np.array([[c.index for c in hand] for hand in parsed], np.uint8)
    known = np.array([c.index for c in shared], np.uint8)
    hc, bc = combinations_array(4, 2), combinations_array(5, 3)

    def run_split(start: int, stop: int) -> None:
        kernels.split_enumerate(hole, known, remaining, combos, start, stop, hc, bc,
                                t.card_key5, t.nonflush5, t.flush, wins, ties, shares)  # fmt: skip

    return run_split


def _sampler(
    game: EquityGame,
    parsed: list[tuple[Card, ...]],
    shared: tuple[Card, ...],
    remaining: npt.NDArray[np.uint8],
    t: RankTables,
    wins: npt.NDArray[np.int64],
    ties: npt.NDArray[np.int64],
    shares: npt.NDArray[np.float64],
) -> Callable[[int, int], None]:
    draw = 5 - len(shared)
    if game is EquityGame.HOLDEM:
        hk, hm = _hole_sums(parsed, t.card_key7, t.card_suit_mask)
        bk = sum(int(t.card_key7[c.index]) for c in shared)
        bm = sum(int(t.card_suit_mask[c.index]) for c in shared)

        def run(size: int, seed: int) -> None:
            kernels.holdem_sample(hk, hm, bk, bm, remaining, draw, size, seed,
                                  t.card_key7, t.card_suit_mask, t.nonflush7, t.flush,
                                  wins, ties, shares)  # fmt: skip

        return run
    hole = np.array([[c.index for c in hand] for hand in parsed], np.uint8)
    known = np.array([c.index for c in shared], np.uint8)
    hc, bc = combinations_array(4, 2), combinations_array(5, 3)

    def run_split(size: int, seed: int) -> None:
        kernels.split_sample(hole, known, remaining, size, seed, hc, bc,
                             t.card_key5, t.nonflush5, t.flush, wins, ties, shares)  # fmt: skip

    return run_split
