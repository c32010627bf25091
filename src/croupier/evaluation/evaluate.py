"""One call per hand: the API the engines use.

>>> evaluate("As Kd", board="Ah Kc 2s 7d 9h").describe()
'Two pair, aces and kings'
>>> evaluate_omaha("Ah Kh 2c 3d", "Qh Jh 5h 9s 9c").describe()    # exactly 2 + 3
'Flush, ace high'
>>> rank_cards("As Ks Qs Js Ts")
7462
"""

from __future__ import annotations

from collections.abc import Iterable

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


def rank_cards(cards: CardsLike, *, ranking: HandRanking | str = STANDARD) -> int:
    """Just the comparable rank of the best five of 5-7 cards (no result object).

    >>> rank_cards("2c 3d 4h 5s 7c")
    1
    """
    if type(ranking) is not HandRanking:
        ranking = as_ranking(ranking)
    parsed = parse_cards(cards)
    if not 5 <= len(parsed) <= 7:
        raise HandSizeError(f"a high hand needs 5 to 7 cards in all, got {len(parsed)}")
    _check_deck(parsed, ranking)
    return fast_tables(ranking).rank_indices([c.index for c in parsed])


def rank_indices(indices: Iterable[int], *, ranking: HandRanking = STANDARD) -> int:
    """The fastest per-hand call: rank of 5-7 card indices (``4 * rank + suit``), unchecked.

    >>> rank_indices([51, 47, 43, 39, 35, 0, 1])
    7462
    """
    return fast_tables(ranking).rank_indices(list(indices))


_DOCTEST_NAMES = (STRIPPED,)
