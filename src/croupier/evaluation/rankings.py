"""Hand-rank tables as data: which ranks the deck holds and how the categories are ordered.

Two rankings are provided. :data:`STANDARD` is the 52-card ranking used by Draw,
Five and Seven Card Stud, Hold'em and Omaha (ace high, or low in A-2-3-4-5; no
wrap-around straights). :data:`STRIPPED` is the 32-card (7 to ace) ranking of
the Manila games (sections 14-15, DIGEST.md section 6): a flush beats a full
house, because it is rarer, and the ace may play below the 7 in A-7-8-9-10.

>>> STANDARD.order[-3:]
(<Category.FULL_HOUSE: 6>, <Category.FOUR_OF_A_KIND: 7>, <Category.STRAIGHT_FLUSH: 8>)
>>> STRIPPED.beats(Category.FLUSH, Category.FULL_HOUSE)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from croupier.cards.card import Rank
from croupier.errors import CroupierError

__all__ = ["STANDARD", "STRIPPED", "Category", "HandRanking", "as_ranking", "ranking_by_name"]


class Category(IntEnum):
    """A hand category; the values are the standard order (higher is better).

    >>> Category.FLUSH.label
    'Flush'
    """

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The category's name in plain English.

        >>> Category.TWO_PAIR.label
        'Two pair'
        """
        return self.name.replace("_", " ").capitalize()

    @property
    def slug(self) -> str:
        """A lower-case identifier for JSON output.

        >>> Category.STRAIGHT_FLUSH.slug
        'straight_flush'
        """
        return self.name.lower()


_STANDARD_ORDER = tuple(Category)


@dataclass(frozen=True)
class HandRanking:
    """How five-card poker hands rank for one deck.

    ``order`` lists the categories from lowest to highest. ``lowest_rank`` is the
    lowest rank in the deck (two for the full deck, seven for the 32-card deck).
    With ``ace_low_straight`` the ace also plays below the lowest rank
    (A-2-3-4-5, or A-7-8-9-10 in the stripped deck).

    >>> STANDARD.deck_size, STRIPPED.deck_size
    (52, 32)
    """

    name: str
    """Identifier, used in caches, JSON and the CLI."""
    lowest_rank: Rank
    """The lowest rank in the deck."""
    order: tuple[Category, ...]
    """Categories from lowest to highest."""
    ace_low_straight: bool = True
    """Whether the ace plays low in the lowest straight."""
    source: str = ""
    """The rule (or inference) the ranking comes from."""

    def __post_init__(self) -> None:
        if sorted(self.order) != list(Category):
            raise ValueError("order must list every category exactly once")
        position = {c: i for i, c in enumerate(self.order)}
        # A flush found in at most seven cards must be the best hand those cards make,
        # which holds when a flush outranks straights, trips and every pair category
        # (no quads or full house can sit beside a five-card flush in seven cards).
        for weaker in (Category.STRAIGHT, Category.THREE_OF_A_KIND, Category.TWO_PAIR):
            if position[Category.FLUSH] < position[weaker]:
                raise ValueError(f"a flush must outrank {weaker.label.lower()}")

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The ranks in the deck, lowest first.

        >>> [r.char for r in STRIPPED.ranks]
        ['7', '8', '9', 'T', 'J', 'Q', 'K', 'A']
        """
        return tuple(r for r in Rank if r >= self.lowest_rank)

    @property
    def deck_size(self) -> int:
        """How many cards the deck holds."""
        return 4 * len(self.ranks)

    def position(self, category: Category) -> int:
        """Where a category stands in this ranking (0 = lowest).

        >>> STRIPPED.position(Category.FLUSH) > STRIPPED.position(Category.FULL_HOUSE)
        True
        """
        return self.order.index(category)

    def beats(self, a: Category, b: Category) -> bool:
        """Whether category ``a`` outranks category ``b`` here.

        >>> STANDARD.beats(Category.FLUSH, Category.FULL_HOUSE)
        False
        """
        return self.position(a) > self.position(b)

    def straights(self) -> tuple[tuple[Rank, ...], ...]:
        """Every straight, lowest first, each as its five ranks from the top down.

        >>> [s[0].char for s in STANDARD.straights()][:2], STRIPPED.straights()[0]
        (['5', '6'], (<Rank.TEN: 8>, <Rank.NINE: 7>, <Rank.EIGHT: 6>, <Rank.SEVEN: 5>, <Rank.ACE: 12>))
        """
        ranks = self.ranks
        runs: list[tuple[Rank, ...]] = []
        if self.ace_low_straight:
            runs.append((*reversed(ranks[:4]), Rank.ACE))
        for top in range(4, len(ranks)):
            runs.append(tuple(reversed(ranks[top - 4 : top + 1])))
        return tuple(runs)


STANDARD = HandRanking(
    name="standard",
    lowest_rank=Rank.TWO,
    order=_STANDARD_ORDER,
    source="Poker 4.1(a) (52 cards); rank of hands INFERRED (Decision 3.2-14)",
)
"""The 52-card ranking: ace high or low (A-2-3-4-5), no wrap-around straights."""

STRIPPED = HandRanking(
    name="stripped",
    lowest_rank=Rank.SEVEN,
    order=(
        Category.HIGH_CARD,
        Category.PAIR,
        Category.TWO_PAIR,
        Category.THREE_OF_A_KIND,
        Category.STRAIGHT,
        Category.FULL_HOUSE,
        Category.FLUSH,
        Category.FOUR_OF_A_KIND,
        Category.STRAIGHT_FLUSH,
    ),
    ace_low_straight=True,
    source="Manila sections 14-15: 32-card deck, flush beats full house (INFERRED, DIGEST 6.1)",
)
"""The 32-card Manila ranking: 7 to ace, flush above full house, A-7-8-9-10 straight."""

_BY_NAME = {r.name: r for r in (STANDARD, STRIPPED)}


def ranking_by_name(name: str) -> HandRanking:
    """Look a ranking up by name.

    >>> ranking_by_name("stripped") is STRIPPED
    True
    """
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):  # TypeError: an unhashable "name"
        raise CroupierError(
            f"unknown hand ranking {name!r}: one of {', '.join(map(repr, _BY_NAME))}"
        ) from None


def as_ranking(value: object) -> HandRanking:
    """A :class:`HandRanking`, or the name of one (``"standard"``, ``"stripped"``).

    >>> as_ranking("stripped") is STRIPPED
    True
    >>> as_ranking(None)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: ranking must be a HandRanking or one of 'standard', 'stripped', not None
    """
    if isinstance(value, HandRanking):
        return value
    if isinstance(value, str):
        return ranking_by_name(value)
    names = ", ".join(map(repr, _BY_NAME))
    raise CroupierError(f"ranking must be a HandRanking or one of {names}, not {value!r:.40}")
