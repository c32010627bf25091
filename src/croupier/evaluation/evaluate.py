"""One call per hand: the API the engines use.

>>> evaluate("As Kd", board="Ah Kc 2s 7d 9h").describe()
'Two pair, aces and kings'
>>> evaluate_omaha("Ah Kh 2c 3d", "Qh Jh 5h 9s 9c").describe()    # exactly 2 + 3
'Flush, ace high'
>>> rank_cards("As Ks Qs Js Ts")
7462
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable
from typing import Final

from croupier.cards.card import Card, parse_cards
from croupier.checks import flag_setting
from croupier.errors import CroupierError, DuplicateCardError, HandSizeError
from croupier.evaluation.composition import ANY_FIVE, EXACTLY_TWO_PLUS_THREE, Composition
from croupier.evaluation.fast import fast_tables
from croupier.evaluation.hand import HandValue
from croupier.evaluation.rankings import STANDARD, STRIPPED, HandRanking, as_ranking

__all__ = ["CardsLike", "evaluate", "evaluate_omaha", "rank_cards", "rank_indices"]

CardsLike = str | Iterable[str | Card]
"""Cards as text (``"AsKd"``, ``"As Kd"``) or an iterable of tokens or :class:`Card`."""


def _check_deck(cards: tuple[Card, ...], ranking: HandRanking) -> None:
    for card in cards:
        if card.rank < ranking.lowest_rank:
            raise HandSizeError(
                f"{card} is not in the {ranking.deck_size}-card deck of the {ranking.name} ranking"
            )


def evaluate(
    own: CardsLike,
    board: CardsLike | None = (),
    *,
    omaha: bool = False,
    composition: Composition | None = None,
    ranking: HandRanking | str = STANDARD,
) -> HandValue:
    """Evaluate one player's best five-card hand.

    ``own`` are the player's cards (hole cards, or a whole stud or draw hand);
    ``board`` the community cards. By default the hand is the best five of all the
    cards (Hold'em, stud, draw: 5 to 7 cards in all). ``omaha=True`` (or
    ``composition=EXACTLY_TWO_PLUS_THREE``) uses exactly two own cards and three
    board cards (Omaha 17.5(d), Manila). ``ranking`` picks the hand-rank table
    (``STRIPPED``, or its name ``"stripped"``, for the 32-card Manila deck).
    ``board=None`` means no board, as ``()`` does.

    >>> evaluate("Ah 2d 3c 4s 5h").describe()      # the ace plays low
    'Straight, five high'
    >>> evaluate("Ah 7d 8c 9s Th", ranking=STRIPPED).describe()
    'Straight, ten high'
    >>> evaluate("As Kd", board="As 2c 3d")
    Traceback (most recent call last):
    ...
    croupier.errors.DuplicateCardError: duplicate card As in hand and board
    >>> evaluate("As Ks Qs Js Ts", ranking="short")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: unknown hand ranking 'short': one of 'standard', 'stripped'
    """
    if type(ranking) is not HandRanking:
        ranking = as_ranking(ranking)
    if omaha is not False and omaha is not True:
        flag_setting(omaha, "omaha")
    if composition is not None and not isinstance(composition, Composition):
        raise CroupierError(
            f"composition must be a Composition such as EXACTLY_TWO_PLUS_THREE, "
            f"not {composition!r:.40}"
        )
    mine = parse_cards(own)
    shared = () if board is None else parse_cards(board)
    if set(mine) & set(shared):
        dup = sorted(set(mine) & set(shared))[0]
        raise DuplicateCardError(f"duplicate card {dup} in hand and board")
    comp = composition or (EXACTLY_TWO_PLUS_THREE if omaha else ANY_FIVE)
    _check_deck(mine + shared, ranking)
    ft = fast_tables(ranking)
    if comp.own is None or comp.board is None:
        total = len(mine) + len(shared)
        if not 5 <= total <= 7:
            raise HandSizeError(f"a high hand needs 5 to 7 cards in all, got {total}")
        rank = ft.rank_indices([c.index for c in mine + shared])
    else:
        if len(mine) < comp.own or not comp.board <= len(shared) <= 5:
            raise HandSizeError(
                f"this hand uses {comp.describe()}: got {len(mine)} own and "
                f"{len(shared)} board cards (the board holds {comp.board} to 5)"
            )
        rank = ft.rank_split(
            [c.index for c in mine], [c.index for c in shared], comp.own, comp.board
        )
    return HandValue(rank, mine, shared, comp, ranking)


def evaluate_omaha(
    hole: CardsLike, board: CardsLike, *, ranking: HandRanking | str = STANDARD
) -> HandValue:
    """Omaha (17.5(d)): exactly two of the hole cards and exactly three board cards.

    >>> evaluate_omaha("As Ah Ks Qs", "Js Ts 2s 3d 4c").best_five_text    # not a royal
    'As Ks Js Ts 2s'
    """
    return evaluate(hole, board, composition=EXACTLY_TWO_PLUS_THREE, ranking=ranking)


def _card_tokens() -> dict[str, int]:
    """Every short token :meth:`Card.parse` reads (``As``, ``as``, ``10s``, ``A♠`` ...) -> index."""
    out: dict[str, int] = {}
    ranks = [*"23456789TJQKA", *"tjqka", "10"]
    suits = [*"cdhs", *"CDHS", *"\u2663\u2666\u2665\u2660"]
    for r in ranks:
        for suit in suits:
            try:
                out[r + suit] = Card.parse(r + suit).index
            except CroupierError:
                continue
    return out


_TOKENS: Final = _card_tokens()


def rank_cards(cards: CardsLike, *, ranking: HandRanking | str = STANDARD) -> int:
    """Just the comparable rank of the best five of 5-7 cards (no result object).

    Text of space-separated two-letter cards (``"As Kd Qh ..."``) is read by a dictionary
    lookup a card; anything else goes through :func:`parse_cards`, whose errors name the
    bad token.

    >>> rank_cards("2c 3d 4h 5s 7c")
    1
    >>> rank_cards("As Ks Qs Js Ts 9s 9s")
    Traceback (most recent call last):
    ...
    croupier.errors.DuplicateCardError: duplicate card 9s in 'As Ks Qs Js Ts 9s 9s'
    """
    if type(cards) is str and ranking is STANDARD:
        tokens = cards.split()
        if 5 <= len(tokens) <= 7:
            try:
                indices = [_TOKENS[t] for t in tokens]
            except KeyError:
                pass
            else:
                if len(set(indices)) == len(indices):
                    return fast_tables(STANDARD).rank_indices(indices)
    if type(ranking) is not HandRanking:
        ranking = as_ranking(ranking)
    parsed = parse_cards(cards)
    if not 5 <= len(parsed) <= 7:
        raise HandSizeError(f"a high hand needs 5 to 7 cards in all, got {len(parsed)}")
    _check_deck(parsed, ranking)
    return fast_tables(ranking).rank_indices([c.index for c in parsed])


def _load_kernels(*indices: int) -> int:
    """The first call: load the compiled kernels into :data:`_KERNELS`, then rank."""
    from croupier.evaluation import onecall

    _KERNELS[5:8] = [onecall.rank5, onecall.rank6, onecall.rank7]
    return _rank_indices_slow(list(indices), STANDARD)


_KERNELS: list[Callable[..., int]] = [_load_kernels] * 8
"""The compiled one-call kernels by card count (5, 6 and 7 once loaded)."""


def rank_indices(indices: Iterable[int], *, ranking: HandRanking = STANDARD) -> int:
    """The fastest per-hand call: rank of 5-7 card indices (``4 * rank + suit``), checked.

    Compiled (see :mod:`croupier.evaluation.onecall`), a quarter of a microsecond a hand;
    the first call loads numba. A repeated card, an index outside 0..51 or one that is not an
    integer is an error (the check is part of the compiled call).

    >>> rank_indices([51, 47, 43, 39, 35, 0, 1])
    7462
    >>> rank_indices([51, 47, 43, 39, 35, 0, 51])
    Traceback (most recent call last):
    ...
    croupier.errors.DuplicateCardError: card index 51 appears twice
    """
    if ranking is STANDARD:
        try:
            rank = _KERNELS[len(indices)](*indices)  # type: ignore[arg-type]
        except Exception:  # not a sized sequence of 5-7 integers: the slow path says why
            rank = 0
        if rank:
            return rank
    return _rank_indices_slow(list(indices), ranking)


def _rank_indices_slow(indices: list[int], ranking: HandRanking) -> int:
    """Load the kernels, or say what is wrong with the indices, or rank another ranking."""
    if not 5 <= len(indices) <= 7:
        raise HandSizeError(f"a high hand needs 5 to 7 cards in all, got {len(indices)}")
    for index in indices:
        if isinstance(index, bool) or not isinstance(index, numbers.Integral):
            raise CroupierError(f"card indices are whole numbers 0..51, not {index!r:.20}")
        if not 0 <= index <= 51:
            raise HandSizeError(f"card index {index} is outside 0..51")
        if index >> 2 < ranking.lowest_rank:
            raise HandSizeError(
                f"card index {index} is not in the {ranking.deck_size}-card deck of the "
                f"{ranking.name} ranking"
            )
    for index in indices:
        if indices.count(index) > 1:
            raise DuplicateCardError(f"card index {index} appears twice")
    plain = [int(i) for i in indices]
    if ranking is STANDARD:
        if _KERNELS[7] is _load_kernels:
            return _load_kernels(*plain)
        return int(_KERNELS[len(plain)](*plain))
    return fast_tables(ranking).rank_indices(plain)


_DOCTEST_NAMES = (STRIPPED,)
