# mypy: disable-error-code="call-arg,attr-defined,no-untyped-call"
"""One hand per call from plain Python at compiled speed: the kernels behind :func:`rank_indices`.

The standard ranking's compact tables are compiled *into* these functions (numba freezes
global arrays as constants), so a call passes only the card indices: no array argument to
type-check, about a quarter of a microsecond a hand. Every call checks its cards as the batch
kernel does (summed one-bit masks: a repeat or a card outside 0..51 gives 0, and the
caller says what is wrong). An argument that is not an integer fails to type (never
converted: ``1.0`` is not a card).

The compiled functions are cached on disk. A cache compiled against other tables (the
table format changed, the source did not) is detected by the table digest compiled in
beside them and recompiled: :func:`ensure_current`.

>>> rank7(51, 47, 43, 39, 35, 0, 1), rank5(0, 5, 10, 15, 20), rank7(0, 0, 1, 2, 3, 4, 5)
(7462, 1, 0)
"""

from __future__ import annotations

import hashlib
from typing import Final

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from croupier.evaluation.kernels import popcount, trailing_zeros
from croupier.evaluation.rankings import STANDARD
from croupier.evaluation.tables import HASH_SHIFT, tables_for

__all__ = ["ensure_current", "rank5", "rank6", "rank7", "table_digest"]

_T = tables_for(STANDARD)
_KEY: Final = _T.card_key256
_MASK: Final = _T.card_mask256
_FLUSH: Final = _T.flush
_OFF5, _VAL5 = _T.compact(5)
_OFF6, _VAL6 = _T.compact(6)
_OFF7, _VAL7 = _T.compact(7)
_INVALID: Final = np.uint64(0x8000800080008000)
_DIGEST: Final = int.from_bytes(
    hashlib.sha256(
        b"".join(
            a.tobytes() for a in (_KEY, _MASK, _FLUSH, _OFF5, _VAL5, _OFF6, _VAL6, _OFF7, _VAL7)
        )
    ).digest()[:7],
    "little",
)


@intrinsic
def _slot(typingctx, card):
    """An integer card as a table slot 0..255 (anything else: 255, not a card).

    Only integers type: a float, a bool or anything else is a typing error, so the
    dispatcher never converts ``1.0`` into a card.
    """
    if not isinstance(card, types.Integer) or isinstance(card, types.Boolean):
        return None
    sig = types.uint64(card)

    def codegen(context, builder, signature, args):
        value = args[0]
        wide = ir.IntType(64)
        if value.type.width < 64:
            value = builder.sext(value, wide) if card.signed else builder.zext(value, wide)
        limit = ir.Constant(wide, 255)
        return builder.select(builder.icmp_unsigned("<", value, limit), value, limit)

    return sig, codegen


@njit(cache=True, inline="always")
def _finish(k, s, n, offsets, values):
    """Rank from summed keys ``k`` and summed masks ``s`` of ``n`` cards; 0 if invalid."""
    if popcount(s) != n or s & _INVALID:
        return 0
    fl = np.uint64(((k & 0xFFFF) + 0x3333) & 0x8888)
    if fl:
        to_suit = (trailing_zeros(fl) << np.uint64(2)) & np.uint64(0x30)
        return int(_FLUSH[(s >> to_suit) & np.uint64(0x1FFF)])
    r = k >> 16
    return int(values[r + offsets[r >> HASH_SHIFT]])


@njit(cache=True)
def rank7(a, b, c, d, e, f, g):
    """Rank of seven card indices (0 when one repeats or is not a card).

    >>> rank7(51, 47, 43, 39, 35, 0, 1)
    7462
    """
    a, b, c, d, e, f, g = _slot(a), _slot(b), _slot(c), _slot(d), _slot(e), _slot(f), _slot(g)
    k = _KEY[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e] + _KEY[f] + _KEY[g]
    s = _MASK[a] + _MASK[b] + _MASK[c] + _MASK[d] + _MASK[e] + _MASK[f] + _MASK[g]
    return _finish(k, s, 7, _OFF7, _VAL7)


@njit(cache=True)
def rank6(a, b, c, d, e, f):
    """Rank of the best five of six card indices (0 when one repeats or is not a card).

    >>> rank6(51, 47, 43, 39, 35, 0)
    7462
    """
    a, b, c, d, e, f = _slot(a), _slot(b), _slot(c), _slot(d), _slot(e), _slot(f)
    k = _KEY[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e] + _KEY[f]
    s = _MASK[a] + _MASK[b] + _MASK[c] + _MASK[d] + _MASK[e] + _MASK[f]
    return _finish(k, s, 6, _OFF6, _VAL6)


@njit(cache=True)
def rank5(a, b, c, d, e):
    """Rank of five card indices (0 when one repeats or is not a card).

    >>> rank5(0, 5, 10, 15, 20)
    1
    """
    a, b, c, d, e = _slot(a), _slot(b), _slot(c), _slot(d), _slot(e)
    k = _KEY[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e]
    s = _MASK[a] + _MASK[b] + _MASK[c] + _MASK[d] + _MASK[e]
    return _finish(k, s, 5, _OFF5, _VAL5)


@njit(cache=True)
def table_digest():
    """The digest of the tables these functions were compiled with.

    >>> table_digest() == _DIGEST
    True
    """
    return _DIGEST


def ensure_current() -> None:
    """Recompile the cached functions if they were compiled against other tables.

    >>> ensure_current(); rank7(51, 47, 43, 39, 35, 0, 1)
    7462
    """
    if table_digest() != _DIGEST:
        for function in (table_digest, rank5, rank6, rank7):
            function.recompile()


ensure_current()
