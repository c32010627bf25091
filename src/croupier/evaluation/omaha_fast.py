"""One Omaha hand per call from plain Python: :func:`rank_omaha_indices`.

The batch evaluator's (board, hole) table (:mod:`croupier.evaluation.omaha_table`) is read
here from Python lists: a card's entry packs its five-card rank weight, its suit counter and
a bit of its own, so summing the board's five entries and the hole's four gives both table
indices, the suit counts and a check of the cards (nine distinct cards set nine bits) in a
few integer operations, with no numpy or numba dispatch per call. A flush (three board
cards and two hole cards of one suit) is looked up apart. The tables load on the first call.

>>> rank_omaha_indices([51, 50, 47, 43], [39, 35, 3, 7, 8])    # As Ah Ks Qs / Js Ts 2s 3c 4c
7090
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.errors import CroupierError, DuplicateCardError, HandSizeError
from croupier.evaluation._table_files import RANK_WEIGHTS_5

__all__ = ["rank_omaha_indices"]

_CARD_BITS = 40
"""Where a card's own bit sits in its entry (above the weight sums and suit counters)."""
_WEIGHTS = (1 << 19) - 1
"""Mask of a rank-weight sum (five weights stay below 2**19)."""

_KEY: list[int] = []
"""Card index -> weight << 16 | suit counter | 1 << (40 + index); 104 entries, the last 52
zero, so a negative index (Python reads it from the end) counts as no card."""
_BOARD: list[int] = []
"""Five-card weight sum -> dense board index times the number of hole multisets."""
_HOLE: list[int] = []
"""Four-card weight sum -> dense hole index."""
_NONFLUSH: Sequence[int] = []
"""Flat ``board * holes + hole`` -> best exactly-2-plus-3 non-flush rank."""
_FLUSH: Sequence[int] = []
"""13-bit mask of five ranks of one suit -> the flush's (or straight flush's) rank."""


def _load() -> None:
    """Read the Omaha and five-card tables into the module's lists (the first call)."""
    global _NONFLUSH, _FLUSH
    from croupier.evaluation.fast import fast_tables
    from croupier.evaluation.omaha_table import omaha_tables_for
    from croupier.evaluation.rankings import STANDARD

    tables = omaha_tables_for(STANDARD)
    holes = tables.holes
    _BOARD[:] = [i * holes for i in tables.board_index.tolist()]
    _HOLE[:] = tables.hole_index.tolist()
    _NONFLUSH = tables.nonflush.data
    _FLUSH = fast_tables(STANDARD).flush_table
    _KEY[:] = [
        (RANK_WEIGHTS_5[c >> 2] << 16) | (1 << (4 * (c & 3))) | (1 << (_CARD_BITS + c))
        for c in range(52)
    ] + [0] * 52


def rank_omaha_indices(hole: Sequence[int], board: Sequence[int]) -> int:
    """Rank of an Omaha hand (exactly two of the four ``hole`` cards and three of the five
    ``board`` cards) given as card indices ``4 * rank + suit``; the same rank as
    :func:`~croupier.evaluation.evaluate_omaha` and
    :func:`~croupier.evaluation.evaluate_omaha_batch`.

    A repeated card, an index outside 0..51 or one that is not an integer is an error, as
    are other than four hole and five board cards.

    >>> rank_omaha_indices((51, 50, 47, 43), (39, 35, 3, 7, 8))
    7090
    >>> rank_omaha_indices((51, 50, 47, 43), (39, 35, 3, 7, 51))
    Traceback (most recent call last):
    ...
    croupier.errors.DuplicateCardError: card index 51 appears twice
    """
    try:
        h0, h1, h2, h3 = hole
        b0, b1, b2, b3, b4 = board
        key = _KEY
        bk = key[b0] + key[b1] + key[b2] + key[b3] + key[b4]
        hk = key[h0] + key[h1] + key[h2] + key[h3]
    except (TypeError, ValueError, IndexError):  # not loaded yet, or not 4 + 5 card indices
        return _slow(hole, board)
    if ((bk + hk) >> 40).bit_count() != 9:  # 40: _CARD_BITS
        return _slow(hole, board)
    best = _NONFLUSH[_BOARD[(bk >> 16) & 0x7FFFF] + _HOLE[(hk >> 16) & 0x7FFFF]]
    suited = ((bk & 0xFFFF) + 0x5555) & ((hk & 0xFFFF) + 0x6666) & 0x8888
    if suited:
        return _with_flush(best, suited, (h0, h1, h2, h3), (b0, b1, b2, b3, b4))
    return best


_STRAIGHTS = (*(0b11111 << low for low in range(8, -1, -1)), 0b1000000001111)
"""The 13-bit rank masks of the straights, best first (the wheel A-2-3-4-5 last)."""


def _with_flush(best: int, suited: int, hole: tuple[int, ...], board: tuple[int, ...]) -> int:
    """The better of ``best`` and the best flush of two hole and three board cards of a suit
    whose bit ``4 * suit + 3`` is set in ``suited``.

    No combination is enumerated: a plain flush is best with the two highest hole ranks and
    the three highest board ranks of the suit (any other choice is beaten rank by rank), and
    a straight flush needs its five ranks split exactly two in the hole and three on the
    board, which each of the ten straights is checked for.
    """
    flush = _FLUSH
    for suit in range(4):
        if not suited >> (4 * suit + 3) & 1:
            continue
        mine = 0
        for c in hole:
            if c & 3 == suit:
                mine |= 1 << (c >> 2)
        shared = 0
        for c in board:
            if c & 3 == suit:
                shared |= 1 << (c >> 2)
        top_mine, top_shared = mine, shared
        while top_mine.bit_count() > 2:
            top_mine &= top_mine - 1  # drop the lowest rank
        while top_shared.bit_count() > 3:
            top_shared &= top_shared - 1
        value = flush[top_mine | top_shared]
        both = mine | shared
        for straight in _STRAIGHTS:
            if straight & both == straight and (straight & mine).bit_count() == 2:
                value = max(value, flush[straight])
                break
        best = max(best, value)
    return best


def _slow(hole: Sequence[int], board: Sequence[int]) -> int:
    """Load the tables, or say what is wrong with the cards, then rank."""
    try:
        mine, shared = list(hole), list(board)
    except TypeError:
        raise CroupierError("hole and board are sequences of card indices") from None
    if len(mine) != 4 or len(shared) != 5:
        raise HandSizeError(
            f"an Omaha hand is 4 hole and 5 board cards, got {len(mine)} and {len(shared)}"
        )
    cards = mine + shared
    for index in cards:
        if isinstance(index, bool) or not hasattr(index, "__index__"):
            raise CroupierError(f"card indices are whole numbers 0..51, not {index!r:.20}")
        if not 0 <= index <= 51:
            raise HandSizeError(f"card index {index} is outside 0..51")
    for index in cards:
        if cards.count(index) > 1:
            raise DuplicateCardError(f"card index {index} appears twice")
    if not _KEY:
        _load()
    return rank_omaha_indices([int(c) for c in mine], [int(c) for c in shared])
