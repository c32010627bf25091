"""Lookup tables that turn a set of cards into a hand rank, built from a :class:`HandRanking`.

How a hand is looked up. Each rank has a weight (``RANK_WEIGHTS_7``) chosen so
that any two multisets of exactly seven ranks (at most four of each) have
different sums; the same holds for ``RANK_WEIGHTS_5`` and exactly five cards, with
much smaller sums so that the five-card table fits in a core's cache. (The weight
of the two is 0, so sums are unique only among hands of one size: a seven-card
table and a five-card table are kept; six cards are the best of six fives.) A card's key packs its rank
weight above four 4-bit suit counters, so adding seven keys gives both the
rank-multiset sum and the number of cards of each suit; adding 3 to every counter
sets its top bit exactly when five or more cards share the suit. A hand that is
not a flush is then one table read; a flush reads a second table indexed by the
13-bit mask of the ranks in the flush suit.

Ranks are dense: 1 for the worst five-card hand, up to 7,462 for a royal flush in
the standard deck. Tables are built once (about a second) and cached on disk.

>>> t = tables_for(STANDARD)
>>> t.value_count, int(t.flush[0b1111100000000])   # AKQJT of one suit: the best hand
(7462, 7462)
"""

from __future__ import annotations

import os
import tempfile
import warnings
import zipfile
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path

import numpy as np
import numpy.typing as npt

from croupier.evaluation._table_files import (
    HASH_SHIFT,
    INVALID_CARD_MASK,
    RANK_WEIGHTS_5,
    RANK_WEIGHTS_7,
    cache_dir,
    cache_path,
    pack_value,
    unpack_value,
)
from croupier.evaluation.rankings import STANDARD, STRIPPED, Category, HandRanking  # noqa: F401  (doctests)

__all__ = [
    "HASH_SHIFT",
    "INVALID_CARD_MASK",
    "RANK_WEIGHTS_5",
    "RANK_WEIGHTS_7",
    "RankTables",
    "TableCacheWarning",
    "cache_dir",
    "load_cached",
    "pack_value",
    "rank_multisets",
    "tables_for",
    "unpack_value",
]

U16 = npt.NDArray[np.uint16]
I64 = npt.NDArray[np.int64]


def rank_multisets(ranks: tuple[int, ...], max_cards: int) -> list[tuple[int, ...]]:
    """Every multiset of at most ``max_cards`` ranks (at most four of each), as count vectors.

    The vectors have 13 entries, one per rank from two to ace.

    >>> len([m for m in rank_multisets(tuple(range(13)), 5) if sum(m) == 5])
    6175
    """
    out: list[tuple[int, ...]] = []
    counts = [0] * 13

    def walk(i: int, left: int) -> None:
        if i == len(ranks):
            out.append(tuple(counts))
            return
        for n in range(min(4, left) + 1):
            counts[ranks[i]] = n
            walk(i + 1, left - n)
        counts[ranks[i]] = 0

    walk(0, max_cards)
    return out


def _straight_tops(ranking: HandRanking) -> list[tuple[frozenset[int], int]]:
    """Each straight as (its five ranks, its top rank), best first."""
    runs = ranking.straights()
    return [(frozenset(int(r) for r in run), int(run[0])) for run in reversed(runs)]


def _best_nonflush(counts: tuple[int, ...], ranking: HandRanking) -> int:
    """The packed value of the best five-card hand in a rank multiset (suits ignored)."""
    pos = {c: ranking.position(c) for c in Category}
    desc = [r for r in range(12, -1, -1) if counts[r]]
    quads = [r for r in desc if counts[r] >= 4]
    trips = [r for r in desc if counts[r] >= 3]
    pairs = [r for r in desc if counts[r] >= 2]
    found: list[int] = []
    if quads:
        q = quads[0]
        found.append(pack_value(pos[Category.FOUR_OF_A_KIND], (q, max(r for r in desc if r != q))))
    if trips:
        t = trips[0]
        others = [r for r in pairs if r != t]
        if others:
            found.append(pack_value(pos[Category.FULL_HOUSE], (t, others[0])))
        singles = [r for r in desc if r != t]
        if len(singles) >= 2:
            found.append(pack_value(pos[Category.THREE_OF_A_KIND], (t, *singles[:2])))
    present = set(desc)
    for run, top in _straight_tops(ranking):
        if run <= present:
            found.append(pack_value(pos[Category.STRAIGHT], (top,)))
            break
    if len(pairs) >= 2:
        p1, p2 = pairs[:2]
        kick = [r for r in desc if r not in (p1, p2)]
        if kick:
            found.append(pack_value(pos[Category.TWO_PAIR], (p1, p2, kick[0])))
    if pairs:
        p = pairs[0]
        kick = [r for r in desc if r != p]
        if len(kick) >= 3:
            found.append(pack_value(pos[Category.PAIR], (p, *kick[:3])))
    if len(desc) >= 5:
        top5 = frozenset(desc[:5])
        if not any(run == top5 for run, _ in _straight_tops(ranking)):
            found.append(pack_value(pos[Category.HIGH_CARD], tuple(desc[:5])))
    return max(found)


def _best_flush(mask: int, ranking: HandRanking) -> int:
    """The packed value of the best hand in one suit holding the ranks in ``mask``."""
    pos = {c: ranking.position(c) for c in Category}
    present = {r for r in range(13) if mask >> r & 1}
    for run, top in _straight_tops(ranking):
        if run <= present:
            return pack_value(pos[Category.STRAIGHT_FLUSH], (top,))
    return pack_value(pos[Category.FLUSH], tuple(sorted(present, reverse=True)[:5]))


@dataclass(frozen=True, eq=False)
class RankTables:
    """The lookup tables of one :class:`HandRanking` (see the module docstring).

    >>> t = tables_for(STANDARD)
    >>> t.category_of(1), t.value_count
    (<Category.HIGH_CARD: 0>, 7462)
    """

    ranking: HandRanking
    """The ranking these tables implement."""
    nonflush7: U16
    """Dense rank of a 7-card rank multiset, indexed by its ``RANK_WEIGHTS_7`` sum."""
    nonflush5: U16
    """Dense rank of a 5-card rank multiset, indexed by its ``RANK_WEIGHTS_5`` sum."""
    flush: U16
    """Dense rank of the best hand in a suit, indexed by the 13-bit rank mask (0 if < 5)."""
    packed: npt.NDArray[np.int32]
    """Dense rank -> packed value (category position and significant ranks)."""
    categories: npt.NDArray[np.uint8]
    """Dense rank -> :class:`Category` value."""
    card_key7: I64
    """Per card index: rank weight (7-card weights) << 16 | 1 << 4 * suit."""
    card_key5: I64
    """Per card index: rank weight (5-card weights) << 16 | 1 << 4 * suit."""
    card_suit_mask: I64
    """Per card index: 1 << (16 * suit + rank), to recover a suit's rank mask by addition."""
    compact7_offsets: npt.NDArray[np.int32]
    """Displacement of each row of seven-card keys (``RANK_WEIGHTS_7`` sums): the rank of a
    non-flush seven-card multiset with sum ``k`` is ``compact7_values[k +
    compact7_offsets[k >> HASH_SHIFT]]``. Built once by first-fit-decreasing placement; about
    235 KB with the values (against 16 MB for ``nonflush7``), so it stays in a core's L2."""
    compact7_values: U16
    """Dense ranks of the seven-card multisets, packed (see ``compact7_offsets``)."""
    compact6_offsets: npt.NDArray[np.int32]
    """As ``compact7_offsets``, for six-card multisets (``RANK_WEIGHTS_7`` sums)."""
    compact6_values: U16
    """Dense ranks of the six-card multisets, packed."""
    compact5_offsets: npt.NDArray[np.int32]
    """As ``compact7_offsets``, for five-card multisets (``RANK_WEIGHTS_7`` sums)."""
    compact5_values: U16
    """Dense ranks of the five-card multisets, packed."""
    card_key256: I64
    """``card_key7`` over every byte value: 0 past the deck's cards (a table never read out
    of bounds, whatever a row holds)."""
    card_mask256: npt.NDArray[np.uint64]
    """``card_suit_mask`` over every byte value, :data:`INVALID_CARD_MASK` for a byte that
    is not a card of this ranking's deck."""
    card_key_mask256: npt.NDArray[np.uint64]
    """``card_key256`` and ``card_mask256`` side by side, shape (256, 2): one 16-byte read
    gives both (the checked seven-card kernel)."""

    def compact(self, width: int) -> tuple[npt.NDArray[np.int32], U16]:
        """The (offsets, values) compact table of hands of ``width`` (5, 6 or 7) cards.

        >>> offsets, values = tables_for(STANDARD).compact(7)
        >>> offsets.nbytes + values.nbytes < 256 * 1024
        True
        """
        if width == 7:
            return self.compact7_offsets, self.compact7_values
        if width == 6:
            return self.compact6_offsets, self.compact6_values
        if width == 5:
            return self.compact5_offsets, self.compact5_values
        raise ValueError(f"hands have 5 to 7 cards, not {width}")

    @property
    def value_count(self) -> int:
        """How many distinct five-card hand values the ranking has."""
        return len(self.packed) - 1

    def category_of(self, rank: int) -> Category:
        """The category of a dense rank.

        >>> tables_for(STANDARD).category_of(7462)
        <Category.STRAIGHT_FLUSH: 8>
        """
        return Category(int(self.categories[rank]))


def _card_keys(weights: tuple[int, ...]) -> I64:
    keys = np.zeros(52, np.int64)
    for index in range(52):
        keys[index] = (weights[index >> 2] << 16) | (1 << (4 * (index & 3)))
    return keys


def _build(ranking: HandRanking) -> dict[str, npt.NDArray[np.generic]]:
    deck_ranks = tuple(int(r) for r in ranking.ranks)
    seven = [m for m in rank_multisets(deck_ranks, 7) if sum(m) >= 5]
    nonflush_values = {m: _best_nonflush(m, ranking) for m in seven}
    flush_values: dict[int, int] = {}
    for size in (5, 6, 7):
        for combo in combinations(deck_ranks, size):
            mask = sum(1 << r for r in combo)
            flush_values[mask] = _best_flush(mask, ranking)
    # dense ranks over every five-card value
    five_values = {v for m, v in nonflush_values.items() if sum(m) == 5}
    five_values |= {v for mask, v in flush_values.items() if mask.bit_count() == 5}
    ordered = sorted(five_values)
    dense = {v: i + 1 for i, v in enumerate(ordered)}

    def weight_sum(m: tuple[int, ...], weights: tuple[int, ...]) -> int:
        return sum(n * w for n, w in zip(m, weights, strict=True))

    max7 = 4 * RANK_WEIGHTS_7[12] + 3 * RANK_WEIGHTS_7[11]
    max5 = 4 * RANK_WEIGHTS_5[12] + RANK_WEIGHTS_5[11]
    nonflush7 = np.zeros(max7 + 1, np.uint16)
    nonflush5 = np.zeros(max5 + 1, np.uint16)
    for m, v in nonflush_values.items():
        size = sum(m)
        targets = ((nonflush7, RANK_WEIGHTS_7, 7), (nonflush5, RANK_WEIGHTS_5, 5))
        for table, weights, wanted in targets:
            if size != wanted:
                continue
            slot = weight_sum(m, weights)
            if table[slot]:
                raise AssertionError(f"rank weights collide at {slot}: the tables would be wrong")
            table[slot] = dense[v]
    flush = np.zeros(1 << 13, np.uint16)
    for mask, v in flush_values.items():
        flush[mask] = dense[v]
    compact: dict[str, npt.NDArray[np.generic]] = {}
    for width in (5, 6, 7):
        sized = {weight_sum(m, RANK_WEIGHTS_7): dense[v]
                 for m, v in nonflush_values.items() if sum(m) == width}  # fmt: skip
        if len(sized) != sum(1 for m in nonflush_values if sum(m) == width):
            raise AssertionError(f"{width}-card rank sums collide: the tables would be wrong")
        offsets, values = _compact_table(sized)
        compact[f"compact{width}_offsets"] = offsets
        compact[f"compact{width}_values"] = values
    packed = np.zeros(len(ordered) + 1, np.int32)
    packed[1:] = ordered
    categories = np.zeros(len(ordered) + 1, np.uint8)
    for i, v in enumerate(ordered, start=1):
        categories[i] = ranking.order[v >> 20]
    return {
        "nonflush7": nonflush7,
        "nonflush5": nonflush5,
        "flush": flush,
        "packed": packed,
        "categories": categories,
        **compact,
    }


def _compact_table(values_by_key: Mapping[int, int]) -> tuple[npt.NDArray[np.int32], U16]:
    """A displacement perfect hash of ``key -> value`` (see ``RankTables.compact7_offsets``)."""
    from croupier.evaluation.kernels import place_rows  # numba: only when tables are built

    keys = np.array(sorted(values_by_key), np.int64)
    capacity = 2 * len(keys) + (1 << HASH_SHIFT)
    while True:
        offsets, size = place_rows(keys, HASH_SHIFT, capacity)
        if size > 0:
            break
        capacity *= 2
    values = np.zeros(int(size), np.uint16)
    slots = keys + offsets[keys >> HASH_SHIFT]
    if len(np.unique(slots)) != len(keys):
        raise AssertionError("the compact table's hash is not perfect")
    values[slots] = [values_by_key[int(k)] for k in keys]
    return offsets.astype(np.int32), values


def _cache_path(ranking: HandRanking) -> Path:
    return cache_path(ranking)


class TableCacheWarning(RuntimeWarning):
    """A cached table file was damaged or could not be written; the tables were rebuilt.

    The CLI shows it as one line, ``croupier: warning: …``.

    >>> issubclass(TableCacheWarning, RuntimeWarning)
    True
    """


_UNREADABLE = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error)
"""What reading a damaged ``.npz`` can raise (truncated, not a zip, a bad member)."""


def load_cached(
    path: Path,
    expected: Mapping[str, tuple[type[np.generic], tuple[int, ...]]],
    build: Callable[[], Mapping[str, npt.NDArray[np.generic]]],
) -> dict[str, npt.NDArray[np.generic]]:
    """The arrays cached at ``path`` if they are all there with the ``expected`` dtypes and
    shapes (``-1``: any length); else ``build()`` them and cache them (atomically). A cache file that exists but
    cannot be used (not a zip, truncated, wrong arrays) is rebuilt with a
    :class:`TableCacheWarning` naming it; a cache folder that cannot be written only costs a
    rebuild next time.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "t.npz").write_bytes(b"not a zip")
    9
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     arrays = load_cached(folder / "t.npz", {"a": (np.uint16, (3,))},
    ...                          lambda: {"a": np.arange(3, dtype=np.uint16)})
    >>> arrays["a"].tolist(), "rebuilt" in str(seen[0].message)
    ([0, 1, 2], True)
    >>> load_cached(folder / "t.npz", {"a": (np.uint16, (3,))}, lambda: {})["a"].tolist()
    [0, 1, 2]
    """
    problem = None
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        for name, (dtype, shape) in expected.items():
            got = arrays.get(name)
            if got is None:
                raise ValueError(f"it has no {name!r} table")
            fits = len(got.shape) == len(shape) and all(
                want in (-1, size) for want, size in zip(shape, got.shape, strict=True)
            )
            if got.dtype != np.dtype(dtype) or not fits:
                raise ValueError(f"its {name!r} table is {got.dtype} {got.shape}")
        return arrays
    except FileNotFoundError:
        pass
    except _UNREADABLE as exc:
        problem = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    built = {name: np.asarray(array) for name, array in build().items()}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as tmp:
            np.savez(tmp, **built)  # type: ignore[arg-type]
        os.replace(tmp.name, path)  # atomic: a concurrent reader never sees half a file
    except OSError as exc:
        if problem is not None:  # a damaged file that stays: say how to get rid of it
            warnings.warn(
                f"the table cache {path} is damaged ({problem}) and could not be replaced "
                f"({exc.strerror or exc}); the tables were rebuilt in memory. Delete the file "
                "or set CROUPIER_CACHE_DIR to a writable folder",
                TableCacheWarning,
                stacklevel=2,
            )
        return built  # a read-only home is fine otherwise: the tables are rebuilt next time
    if problem is not None:
        warnings.warn(
            f"the table cache {path} was damaged ({problem}); rebuilt it",
            TableCacheWarning,
            stacklevel=2,
        )
    return built


def _expected(ranking: HandRanking) -> dict[str, tuple[type[np.generic], tuple[int, ...]]]:
    max7 = 4 * RANK_WEIGHTS_7[12] + 3 * RANK_WEIGHTS_7[11]
    max5 = 4 * RANK_WEIGHTS_5[12] + RANK_WEIGHTS_5[11]
    return {
        "nonflush7": (np.uint16, (max7 + 1,)),
        "nonflush5": (np.uint16, (max5 + 1,)),
        "flush": (np.uint16, (1 << 13,)),
        "packed": (np.int32, (-1,)),
        "categories": (np.uint8, (-1,)),
        **{f"compact{w}_offsets": (np.int32, (-1,)) for w in (5, 6, 7)},
        **{f"compact{w}_values": (np.uint16, (-1,)) for w in (5, 6, 7)},
    }


def _load_or_build(ranking: HandRanking) -> dict[str, npt.NDArray[np.generic]]:
    return load_cached(_cache_path(ranking), _expected(ranking), lambda: _build(ranking))


@cache
def tables_for(ranking: HandRanking) -> RankTables:
    """The lookup tables of a ranking (built on first use, then cached in memory and on disk).

    >>> tables_for(STRIPPED).value_count < tables_for(STANDARD).value_count
    True
    """
    arrays = _load_or_build(ranking)
    suit_mask = np.array([1 << (16 * (i & 3) + (i >> 2)) for i in range(52)], np.int64)
    key7 = _card_keys(RANK_WEIGHTS_7)
    in_deck = np.arange(52) >> 2 >= int(ranking.lowest_rank)
    key256 = np.zeros(256, np.int64)
    key256[:52] = np.where(in_deck, key7, 0)
    mask256 = np.full(256, INVALID_CARD_MASK, np.uint64)
    mask256[:52] = np.where(in_deck, suit_mask, INVALID_CARD_MASK).astype(np.uint64)

    def offsets(width: int) -> npt.NDArray[np.int32]:
        return arrays[f"compact{width}_offsets"].astype(np.int32, copy=False)

    def values(width: int) -> U16:
        return arrays[f"compact{width}_values"].astype(np.uint16, copy=False)

    return RankTables(
        ranking=ranking,
        nonflush7=arrays["nonflush7"].astype(np.uint16, copy=False),
        nonflush5=arrays["nonflush5"].astype(np.uint16, copy=False),
        flush=arrays["flush"].astype(np.uint16, copy=False),
        packed=arrays["packed"].astype(np.int32, copy=False),
        categories=arrays["categories"].astype(np.uint8, copy=False),
        card_key7=key7,
        card_key5=_card_keys(RANK_WEIGHTS_5),
        card_suit_mask=suit_mask,
        card_key256=key256,
        card_mask256=mask256,
        card_key_mask256=np.ascontiguousarray(np.stack([key256.astype(np.uint64), mask256], 1)),
        compact7_offsets=offsets(7),
        compact7_values=values(7),
        compact6_offsets=offsets(6),
        compact6_values=values(6),
        compact5_offsets=offsets(5),
        compact5_values=values(5),
    )
