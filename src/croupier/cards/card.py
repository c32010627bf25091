"""Ranks, suits and cards, and the parser for card text.

A card is a small value type with an index ``0..51`` equal to ``4 * rank + suit``.
Ranks run from two (0) to ace (12); suits run in the NZ order from lowest to
highest, clubs (0) < diamonds (1) < hearts (2) < spades (3) (Poker 12.2(a),
Omaha 17.5(e)). Comparing two cards therefore compares rank first and suit
second: exactly "the highest card by suit" of the odd-chip rule.
Suits never rank poker hands; only the odd chip and the stud bring-in use them.

>>> Card.parse("As") > Card.parse("Ks") > Card.parse("Kh")
True
>>> [str(c) for c in parse_cards("10h Td")]
['Th', 'Td']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import ClassVar, Final

from croupier.checks import flag_setting
from croupier.errors import CardParseError, DuplicateCardError

__all__ = ["Card", "Rank", "Suit", "card_indices", "format_cards", "parse_cards"]


class Rank(IntEnum):
    """A card rank; ``int(rank)`` is 0 for a two up to 12 for an ace.

    >>> Rank.from_char("T"), Rank.ACE.char, Rank.TEN.value
    (<Rank.TEN: 8>, 'A', 8)
    """

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        """The one-letter symbol: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``.

        >>> Rank.QUEEN.char
        'Q'
        """
        return _RANK_CHARS[self.value]

    @property
    def noun(self) -> str:
        """The English name, as in "a pair of *nines*" (singular form).

        >>> Rank.SIX.noun
        'six'
        """
        return _RANK_NOUNS[self.value]

    @property
    def plural(self) -> str:
        """The plural English name.

        >>> Rank.SIX.plural
        'sixes'
        """
        return _RANK_NOUNS[self.value] + ("es" if self is Rank.SIX else "s")

    @classmethod
    def from_char(cls, text: str) -> Rank:
        """Read a rank symbol (``10`` is accepted for ``T``; case-insensitive).

        >>> Rank.from_char("10"), Rank.from_char("k")
        (<Rank.TEN: 8>, <Rank.KING: 11>)
        """
        found = _RANK_BY_CHAR.get(text.upper())
        if found is None:
            raise CardParseError(f"bad rank {text!r}: not one of 2-9, T (or 10), J, Q, K, A")
        return found


class Suit(IntEnum):
    """A suit; the values follow the NZ rank of suits, clubs lowest, spades highest.

    >>> sorted(Suit, reverse=True)
    [<Suit.SPADES: 3>, <Suit.HEARTS: 2>, <Suit.DIAMONDS: 1>, <Suit.CLUBS: 0>]
    """

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """The one-letter symbol, ``c``, ``d``, ``h`` or ``s``.

        >>> Suit.HEARTS.char
        'h'
        """
        return "cdhs"[self.value]

    @property
    def symbol(self) -> str:
        """The printed symbol, e.g. ``♠``.

        >>> Suit.SPADES.symbol
        '♠'
        """
        return "♣♦♥♠"[self.value]


_RANK_CHARS: Final = "23456789TJQKA"
_RANK_NOUNS: Final = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)  # fmt: skip
_RANK_BY_CHAR: Final = {c: Rank(i) for i, c in enumerate(_RANK_CHARS)} | {"10": Rank.TEN}
_SUIT_BY_CHAR: Final = {
    "c": Suit.CLUBS, "d": Suit.DIAMONDS, "h": Suit.HEARTS, "s": Suit.SPADES,
    "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES,
}  # fmt: skip
_CARD_RE: Final = re.compile(r"(10|[2-9tjqka])([cdhs♣♦♥♠])", re.IGNORECASE)
_SEPARATORS: Final = re.compile(r"[\s,;]+")


_RANK_OF_INDEX: Final = tuple(Rank(i >> 2) for i in range(52))
"""Card index -> its :class:`Rank` (a tuple read, not an enum call, on every ``card.rank``)."""
_SUIT_OF_INDEX: Final = tuple(Suit(i & 3) for i in range(52))
"""Card index -> its :class:`Suit`."""


class Card:
    """One playing card, immutable and interned (there are exactly 52 instances).

    >>> card = Card.parse("Td")
    >>> card.rank, card.suit, card.index, str(card)
    (<Rank.TEN: 8>, <Suit.DIAMONDS: 1>, 33, 'Td')
    >>> Card.of(Rank.TEN, Suit.DIAMONDS) is card
    True
    """

    __slots__ = ("index",)
    index: int
    _ALL: ClassVar[tuple[Card, ...]]

    def __new__(cls, index: int) -> Card:
        """Return the card with this index (``4 * rank + suit``).

        >>> Card(51)
        Card('As')
        """
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < 52:
            return cls._ALL[index]
        raise CardParseError(f"bad card index {index!r}: must be 0..51")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.index,))

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        """The card of this rank and suit.

        >>> Card.of(Rank.ACE, Suit.SPADES)
        Card('As')
        """
        return cls._ALL[4 * int(rank) + int(suit)]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card such as ``"As"``, ``"Td"``, ``"10h"`` or ``"K♠"``.

        >>> Card.parse("10h"), Card.parse("qc")
        (Card('Th'), Card('Qc'))
        >>> Card.parse("Ass")
        Traceback (most recent call last):
        ...
        croupier.errors.CardParseError: bad card 'Ass': expected a rank and a suit such as 'As' or '10h'
        >>> Card.parse(None)
        Traceback (most recent call last):
        ...
        croupier.errors.CardParseError: a card must be text such as 'As' or '10h', not None (NoneType)
        """
        if not isinstance(text, str):
            raise CardParseError(f"a card must be text such as 'As' or '10h', not {_shown(text)}")
        token = text.strip()
        match = _CARD_RE.fullmatch(token)
        if match is None:
            raise CardParseError(_explain(token))
        return cls.of(Rank.from_char(match.group(1)), _SUIT_BY_CHAR[match.group(2).lower()])

    @property
    def rank(self) -> Rank:
        """The rank.

        >>> Card.parse("9c").rank
        <Rank.NINE: 7>
        """
        return _RANK_OF_INDEX[self.index]

    @property
    def suit(self) -> Suit:
        """The suit.

        >>> Card.parse("9c").suit
        <Suit.CLUBS: 0>
        """
        return _SUIT_OF_INDEX[self.index]

    @property
    def pretty(self) -> str:
        """The card with a suit symbol, e.g. ``A♠``.

        >>> Card.parse("As").pretty
        'A♠'
        """
        return _RANK_CHARS[self.index >> 2] + "♣♦♥♠"[self.index & 3]

    def __str__(self) -> str:
        return _RANK_CHARS[self.index >> 2] + "cdhs"[self.index & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index


def _make_all() -> tuple[Card, ...]:
    cards = []
    for index in range(52):
        card = object.__new__(Card)
        object.__setattr__(card, "index", index)
        cards.append(card)
    return tuple(cards)


Card._ALL = _make_all()


def _shown(value: object) -> str:
    """A short one-line picture of a value that is not card text, with its type."""
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{text} ({type(value).__name__})"


def _explain(token: str) -> str:
    """Say what is wrong with a token that is not one card."""
    generic = f"bad card {token!r}: expected a rank and a suit such as 'As' or '10h'"
    if len(token) < 2 or len(token) > 3 or _CARD_RE.match(token):
        return generic
    rank_text, suit_text = token[:-1], token[-1]
    if rank_text.upper() not in _RANK_BY_CHAR:
        return f"bad card {token!r}: rank {rank_text!r} is not one of 2-9, T (or 10), J, Q, K, A"
    if suit_text.lower() not in _SUIT_BY_CHAR:
        return f"bad card {token!r}: suit {suit_text!r} is not one of c, d, h, s"
    return generic


def _tokens(text: str) -> Iterator[str]:
    """Split card text into one-card tokens, accepting ``"AsKd"`` and ``"As Kd"``."""
    for chunk in _SEPARATORS.split(text.strip()):
        if not chunk:
            continue
        position = 0
        while position < len(chunk):
            match = _CARD_RE.match(chunk, position)
            if match is None:
                if len(chunk) <= 3:
                    raise CardParseError(_explain(chunk))
                rest = chunk[position:]
                bad = (_CARD_RE.match(rest[:3]) and rest[:2]) or rest[:3]
                raise CardParseError(f"{_explain(bad)} (in {chunk!r})")
            yield match.group(0)
            position = match.end()


def parse_cards(text: str | Iterable[str | Card], *, unique: bool = True) -> tuple[Card, ...]:
    """Read a list of cards: ``"AsKd"``, ``"As Kd"``, ``"As,Kd"`` or an iterable of tokens.

    With ``unique`` (the default) a repeated card is an error, as in any one hand.

    >>> parse_cards("AsKd")
    (Card('As'), Card('Kd'))
    >>> parse_cards(["10h", "2c"])
    (Card('Th'), Card('2c'))
    >>> parse_cards("As 1x")
    Traceback (most recent call last):
    ...
    croupier.errors.CardParseError: bad card '1x': rank '1' is not one of 2-9, T (or 10), J, Q, K, A
    >>> parse_cards(42)
    Traceback (most recent call last):
    ...
    croupier.errors.CardParseError: cards must be text such as 'As Kd' or a list of cards, not 42 (int)
    """
    if unique is not True and unique is not False:
        flag_setting(unique, "unique")
    cards: list[Card] = []
    if isinstance(text, str):
        cards = [Card.parse(token) for token in _tokens(text)]
        shown = text
    else:
        try:
            items = iter(text)
        except TypeError:
            raise CardParseError(
                f"cards must be text such as 'As Kd' or a list of cards, not {_shown(text)}"
            ) from None
        for item in items:
            if isinstance(item, Card):
                cards.append(item)
            elif isinstance(item, str):
                cards.extend(Card.parse(token) for token in _tokens(item))
            else:
                raise CardParseError(
                    f"a card must be text such as 'As' or a Card, not {_shown(item)}"
                )
        shown = " ".join(str(c) for c in cards)
    if unique:
        seen: set[int] = set()
        for card in cards:
            if card.index in seen:
                raise DuplicateCardError(f"duplicate card {card} in {shown!r}")
            seen.add(card.index)
    return tuple(cards)


def card_indices(cards: str | Iterable[str | Card], *, unique: bool = True) -> list[int]:
    """The card indices (``4 * rank + suit``) of some cards, as the batch API uses them.

    >>> card_indices("2c As")
    [0, 51]
    """
    return [card.index for card in parse_cards(cards, unique=unique)]


def format_cards(cards: Iterable[Card], sep: str = "") -> str:
    """Write cards back as text.

    >>> format_cards(parse_cards("As Kd"), " ")
    'As Kd'
    """
    return sep.join(str(c) for c in cards)
