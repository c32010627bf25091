"""Decks and shoes: ordered cards dealt from the top, burns kept apart from discards.

>>> deck = Deck.standard(seed=42)
>>> hole = deck.draw(2)
>>> burn = deck.burn()
>>> flop = deck.draw(3)
>>> len(deck), len(deck.dealt), deck.burned == (burn,)
(46, 5, True)
>>> Deck.standard(seed=42).draw(2) == hole      # a seed replays the deal card for card
True
"""

from __future__ import annotations

import functools
import numbers
import random
import re
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

from croupier.cards.card import Card, Rank, Suit, _shown, parse_cards
from croupier.cards.rng import make_rng
from croupier.checks import flag_setting, whole_number
from croupier.errors import CroupierError, DuplicateCardError

__all__ = ["Deck", "EmptyDeckError", "Shoe", "ShoeSnapshot", "full_deck", "stripped_deck"]


class EmptyDeckError(CroupierError):
    """A card was asked for but none is left to deal.

    >>> Deck.stacked("As").draw(2)
    Traceback (most recent call last):
    ...
    croupier.cards.deck.EmptyDeckError: cannot deal 2 card(s): 1 left
    """


_FULL_DECK = tuple(Card(i) for i in range(52))
"""The 52 cards in index order, made once (cards are immutable and interned)."""


def full_deck() -> tuple[Card, ...]:
    """The 52-card deck without jokers (Poker 4.1(a)), in index order.

    >>> len(full_deck()), full_deck()[0], full_deck()[-1]
    (52, Card('2c'), Card('As'))
    """
    return _FULL_DECK


@functools.cache
def stripped_deck(lowest: Rank = Rank.SEVEN) -> tuple[Card, ...]:
    """A stripped deck from ``lowest`` to ace: 32 cards for the Manila games (7 to ace).

    >>> len(stripped_deck()), len(stripped_deck(Rank.SIX))
    (32, 36)
    """
    return tuple(Card.of(rank, suit) for rank in Rank if rank >= lowest for suit in Suit)


MAX_SHOE_DECKS = 1000
"""The most decks a :class:`Shoe` holds (real shoes hold 1 to 8; more is a simulation)."""

_PENETRATION_TEXT = re.compile(r"\s*\d{1,18}(?:\.\d{1,18}|/\d{1,18})?\s*", re.ASCII)


def _card_list(cards: object, what: str) -> list[Card]:
    """``cards`` as a list of :class:`Card` (an iterable of nothing else), or a one-line error."""
    if isinstance(cards, str):
        raise CroupierError(f"{what} must be Card objects, not text {_shown(cards)}")
    if not isinstance(cards, Iterable):
        raise CroupierError(f"{what} must be an iterable of Card objects, not {_shown(cards)}")
    out: list[Card] = []
    for card in cards:
        if not isinstance(card, Card):
            raise CroupierError(f"{what} must be Card objects, not {_shown(card)}")
        out.append(card)
    return out


def _seed(seed: object) -> int | None:
    """None (fresh randomness) or a whole number from 0."""
    return None if seed is None else whole_number(seed, "a seed")


def _rng(rng: object, seed: int | None) -> random.Random:
    """The injected random source (anything with a ``shuffle``), or one made from ``seed``."""
    if rng is None:
        return make_rng(seed)
    if not callable(getattr(rng, "shuffle", None)):
        raise CroupierError(
            f"rng must be a random.Random (or have its shuffle method), not {_shown(rng)}"
        )
    return rng  # type: ignore[return-value]


def _penetration(value: object) -> Fraction:
    """A penetration in (0, 1]: a Fraction, an int, or text such as ``"3/4"`` or ``"0.75"``
    (never a float: ratios are exact)."""
    if isinstance(value, str) and _PENETRATION_TEXT.fullmatch(value):
        try:
            fraction = Fraction(value)
        except ZeroDivisionError:
            fraction = None
    elif isinstance(value, numbers.Rational) and not isinstance(value, bool):
        fraction = Fraction(int(value.numerator), int(value.denominator))
    else:
        fraction = None
    if fraction is None:
        raise CroupierError(
            f"penetration must be a Fraction, an int or text such as '3/4', not {_shown(value)}"
        )
    if not 0 < fraction <= 1:
        raise CroupierError(f"penetration must be in (0, 1], got {fraction}")
    return fraction


class Deck:
    """One ordered deck dealt from the top; every card it deals is remembered.

    Shuffle from the OS CSPRNG (default), from a ``seed`` (replayable), from an
    injected ``rng``, or build a stacked deck for tests with :meth:`stacked`.

    >>> deck = Deck.stacked("As Kd Qh")
    >>> deck.draw(), deck.burn(), deck.draw()
    ((Card('As'),), Card('Kd'), (Card('Qh'),))
    """

    __slots__ = ("_burned", "_cards", "_dealt", "_discards", "seed")

    def __init__(
        self,
        cards: Sequence[Card],
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        shuffle: bool = True,
    ) -> None:
        order = _card_list(cards, "a deck's cards")
        if len(set(order)) != len(order):
            raise DuplicateCardError("a deck must not hold the same card twice")
        seed = _seed(seed)
        source = _rng(rng, seed)
        if flag_setting(shuffle, "shuffle"):
            source.shuffle(order)
        order.reverse()  # the top of the deck is the end of the list: pop() deals it
        self._cards = order
        self._dealt: list[Card] = []
        self._burned: list[Card] = []
        self._discards: list[Card] = []
        self.seed = seed
        """The seed this deck was shuffled from, if any."""

    @classmethod
    def standard(cls, *, seed: int | None = None, rng: random.Random | None = None) -> Deck:
        """A shuffled 52-card deck.

        >>> len(Deck.standard())
        52
        """
        return cls._shuffled(full_deck(), seed, rng)

    @classmethod
    def _shuffled(
        cls, cards: tuple[Card, ...], seed: int | None, rng: random.Random | None
    ) -> Deck:
        """A shuffled deck of ``cards``, one of croupier's own constant decks (no card is
        checked: they are known to be distinct cards)."""
        seed = _seed(seed)
        order = list(cards)
        _rng(rng, seed).shuffle(order)
        order.reverse()  # as __init__: the top of the deck is the end of the list
        deck = object.__new__(cls)
        deck._cards = order
        deck._dealt = []
        deck._burned = []
        deck._discards = []
        deck.seed = seed
        return deck

    @classmethod
    def stripped(
        cls,
        lowest: Rank = Rank.SEVEN,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> Deck:
        """A shuffled stripped deck (7 to ace by default: 32 cards).

        >>> min(Deck.stripped(seed=1).draw(32)).rank
        <Rank.SEVEN: 5>
        """
        return cls._shuffled(stripped_deck(lowest), seed, rng)

    @classmethod
    def stacked(cls, cards: str | Iterable[str | Card]) -> Deck:
        """A deck that deals exactly these cards, first card first (for tests and replays).

        >>> Deck.stacked("2c 3c").draw(2)
        (Card('2c'), Card('3c'))
        """
        return cls(parse_cards(cards), shuffle=False)

    def __len__(self) -> int:
        return len(self._cards)

    def __repr__(self) -> str:
        return f"<Deck {len(self._cards)} left, {len(self._dealt)} dealt>"

    def peek(self, n: int = 1) -> tuple[Card, ...]:
        """The next ``n`` cards without dealing them (for dealers' tools and tests).

        >>> Deck.stacked("As Kd").peek()
        (Card('As'),)
        """
        if type(n) is not int:
            n = whole_number(n, "the number of cards to look at")
        if n < 0:
            raise CroupierError(f"the number of cards to look at must be at least 0, not {n}")
        if n > len(self._cards):
            raise EmptyDeckError(f"cannot look at {n} card(s): {len(self._cards)} left")
        return tuple(reversed(self._cards[len(self._cards) - n :]))

    def put_on_top(self, cards: Iterable[Card]) -> None:
        """Place cards on top of the deck, the first to be dealt first (a replay's tool:
        a hand history names the cards each deal must give).

        >>> deck = Deck.stacked("2c")
        >>> deck.put_on_top(parse_cards("As Kd"))
        >>> deck.draw(3)
        (Card('As'), Card('Kd'), Card('2c'))
        """
        cards = tuple(_card_list(cards, "the cards put on top"))
        seen = set(self._cards) | set(self._dealt) | set(self._burned)
        for card in cards:
            if card in seen:
                raise DuplicateCardError(f"{card} is already in or dealt from this deck")
            seen.add(card)
        self._cards.extend(reversed(cards))

    def reuse_discards(self, cards: Iterable[Card]) -> None:
        """Put discarded cards under the stub, to be dealt again (a draw poker stub that runs
        short); they stay on record as dealt and discarded before.

        >>> deck = Deck.stacked("As Kd")
        >>> deck.discard(deck.draw(1)); deck.reuse_discards(deck.discards)
        >>> deck.draw(2)
        (Card('Kd'), Card('As'))
        """
        cards = tuple(_card_list(cards, "the reused discards"))
        seen = set(self._cards)
        for card in cards:
            if card not in self._discards:
                raise CroupierError(f"{card} is not on the discard pile")
            if card in seen:
                raise DuplicateCardError(f"{card} is already back in the deck")
            seen.add(card)
        self._cards[:0] = reversed(cards)  # under the remaining cards, first card dealt first

    def draw(self, n: int = 1) -> tuple[Card, ...]:
        """Deal ``n`` cards from the top.

        >>> Deck.stacked("As Kd Qh").draw(2)
        (Card('As'), Card('Kd'))
        """
        if type(n) is not int:
            n = whole_number(n, "the number of cards to deal")
        if n < 0:
            raise CroupierError(f"the number of cards to deal must be at least 0, not {n}")
        if n > len(self._cards):
            raise EmptyDeckError(f"cannot deal {n} card(s): {len(self._cards)} left")
        cards = self._cards
        out = (cards.pop(),) if n == 1 else tuple(reversed(cards[len(cards) - n :]))
        if n > 1:
            del cards[len(cards) - n :]
        self._dealt.extend(out)
        return out

    def burn(self) -> Card:
        """Burn the top card: taken unseen and kept face down, apart from the discards.

        >>> deck = Deck.stacked("As Kd")
        >>> deck.burn(), deck.burned, deck.dealt
        (Card('As'), (Card('As'),), ())
        """
        if not self._cards:
            raise EmptyDeckError("cannot burn: the deck is empty")
        card = self._cards.pop()
        self._burned.append(card)
        return card

    def discard(self, cards: Iterable[Card]) -> None:
        """Put dealt cards on the discard pile (e.g. a draw poker discard).

        >>> deck = Deck.stacked("As Kd")
        >>> deck.discard(deck.draw(1))
        >>> deck.discards
        (Card('As'),)
        """
        cards = tuple(_card_list(cards, "the discards"))
        if len(set(cards)) != len(cards):
            raise DuplicateCardError("cannot discard the same card twice")
        for card in cards:
            if card not in self._dealt or card in self._discards:
                raise CroupierError(f"{card} was not dealt from this deck, or is already discarded")
        self._discards.extend(cards)

    @property
    def dealt(self) -> tuple[Card, ...]:
        """Every card dealt so far, in order (burns excluded)."""
        return tuple(self._dealt)

    @property
    def burned(self) -> tuple[Card, ...]:
        """The burn cards, in order."""
        return tuple(self._burned)

    @property
    def discards(self) -> tuple[Card, ...]:
        """The discard pile, in order."""
        return tuple(self._discards)

    @property
    def remaining(self) -> tuple[Card, ...]:
        """The undealt cards, top first."""
        return tuple(reversed(self._cards))

    def cut(self, position: int) -> None:
        """Cut the undealt deck: the top ``position`` cards go to the bottom (Poker
        definitions: Cut).

        >>> deck = Deck.stacked("As Kd Qh Jc"); deck.cut(1); deck.remaining
        (Card('Kd'), Card('Qh'), Card('Jc'), Card('As'))
        """
        count = len(self._cards)
        if (
            isinstance(position, bool)
            or not isinstance(position, int)
            or not 0 <= position < max(count, 1)
        ):
            raise CroupierError(
                f"a cut is a position from 0 to {max(count - 1, 0)}, not {position!r}"
            )
        if position:
            top = self._cards[count - position :]
            self._cards[position:] = self._cards[: count - position]
            self._cards[:position] = top

    def copy(self) -> Deck:
        """An independent copy (the same order and piles).

        >>> deck = Deck.stacked("As Kd"); twin = deck.copy(); twin.draw()
        (Card('As'),)
        >>> len(deck), len(twin)
        (2, 1)
        """
        twin = object.__new__(Deck)
        twin._cards = self._cards[:]
        twin._dealt = self._dealt[:]
        twin._burned = self._burned[:]
        twin._discards = self._discards[:]
        twin.seed = self.seed
        return twin


class ShoeSnapshot(NamedTuple):
    """A :class:`Shoe`'s state, from :meth:`Shoe.snapshot` for :meth:`Shoe.restore`.

    >>> Shoe(1, cards=parse_cards("As Kd")).snapshot().cards
    (Card('Kd'), Card('As'))
    """

    decks: int
    cut_card_position: int
    rng: random.Random
    cards: tuple[Card, ...]
    """The undealt cards, bottom first."""
    burned: tuple[Card, ...]
    discards: tuple[Card, ...]
    dealt_count: int


class Shoe:
    """Several decks shuffled together, dealt until a cut card comes out (blackjack).

    ``penetration`` is the fraction of the shoe dealt before the cut card; when the
    cut card is reached the round finishes and the shoe is reshuffled before the next.

    >>> shoe = Shoe(6, penetration=Fraction(3, 4), seed=3)
    >>> len(shoe), shoe.cut_card_position
    (312, 234)
    >>> _ = shoe.burn(); _ = shoe.draw_many(233)
    >>> shoe.cut_card_reached
    True
    """

    __slots__ = (
        "_burned",
        "_cards",
        "_dealt_count",
        "_discards",
        "_rng",
        "cut_card_position",
        "decks",
    )

    def __init__(
        self,
        decks: int = 6,
        *,
        penetration: Fraction | int | str = Fraction(3, 4),
        seed: int | None = None,
        rng: random.Random | None = None,
        cards: Sequence[Card] | None = None,
    ) -> None:
        decks = whole_number(decks, "the number of decks in a shoe", minimum=1)
        if decks > MAX_SHOE_DECKS:
            raise CroupierError(f"a shoe holds at most {MAX_SHOE_DECKS} decks, not {decks}")
        fraction = _penetration(penetration)
        source = _rng(rng, _seed(seed))
        stacked = None if cards is None else _card_list(cards, "a stacked shoe's cards")
        self.decks = decks
        """How many 52-card decks the shoe holds."""
        self._rng = source
        if stacked is not None:  # a stacked shoe deals `cards` in the order given
            stacked.reverse()
            self._cards: list[Card] = stacked
        else:
            self._cards = list(full_deck()) * decks
            self._rng.shuffle(self._cards)
        self.cut_card_position = int(fraction * len(self._cards))
        """Cards dealt (burns included) before the cut card comes out."""
        self._burned: list[Card] = []
        self._discards: list[Card] = []
        self._dealt_count = 0

    def __len__(self) -> int:
        return len(self._cards)

    def __repr__(self) -> str:
        return f"<Shoe {self.decks} decks, {len(self._cards)} left>"

    @property
    def cut_card_reached(self) -> bool:
        """True once the cut card has come out: shuffle before the next round."""
        return self._dealt_count >= self.cut_card_position

    def draw(self) -> Card:
        """Deal one card.

        >>> Shoe(1, cards=parse_cards("As Kd")).draw()
        Card('As')
        """
        if not self._cards:
            raise EmptyDeckError("cannot deal: the shoe is empty")
        self._dealt_count += 1
        return self._cards.pop()

    def burn(self) -> Card:
        """Burn one card, kept apart from the discards.

        >>> shoe = Shoe(1, cards=parse_cards("As Kd"))
        >>> shoe.burn(), shoe.burned
        (Card('As'), (Card('As'),))
        """
        card = self.draw()
        self._burned.append(card)
        return card

    def discard(self, cards: Iterable[Card]) -> None:
        """Put played cards in the discard tray.

        >>> shoe = Shoe(1, seed=2); shoe.discard(shoe.draw_many(2)); len(shoe.discards)
        2
        """
        self._discards.extend(_card_list(cards, "the discards"))

    @property
    def burned(self) -> tuple[Card, ...]:
        """The burn cards since the last shuffle."""
        return tuple(self._burned)

    @property
    def discards(self) -> tuple[Card, ...]:
        """The discard tray since the last shuffle."""
        return tuple(self._discards)

    @property
    def remaining(self) -> tuple[Card, ...]:
        """The undealt cards, top first.

        >>> shoe = Shoe(1, cards=parse_cards("As Kd 2c")); _ = shoe.draw(); shoe.remaining
        (Card('Kd'), Card('2c'))
        """
        return tuple(reversed(self._cards))

    def copy(self) -> Shoe:
        """An independent copy with its own cards and piles (the same order, the same cut
        card); the random source is shared: only a reshuffle uses it.

        >>> shoe = Shoe(6, seed=4); twin = shoe.copy(); _ = twin.draw()
        >>> len(shoe) - len(twin), twin.cut_card_position == shoe.cut_card_position
        (1, True)
        """
        twin = object.__new__(type(self))
        twin.decks = self.decks
        twin.cut_card_position = self.cut_card_position
        twin._rng = self._rng
        twin._cards = self._cards[:]
        twin._burned = self._burned[:]
        twin._discards = self._discards[:]
        twin._dealt_count = self._dealt_count
        return twin

    def snapshot(self) -> ShoeSnapshot:
        """The shoe as it is now, for :meth:`restore` (an all-or-nothing action saves it
        first); the random source is kept, not copied.

        >>> shoe = Shoe(1, cards=parse_cards("As Kd")); saved = shoe.snapshot()
        >>> _ = shoe.burn(); shoe.restore(saved); shoe.remaining, shoe.burned
        ((Card('As'), Card('Kd')), ())
        """
        return ShoeSnapshot(
            self.decks,
            self.cut_card_position,
            self._rng,
            tuple(self._cards),
            tuple(self._burned),
            tuple(self._discards),
            self._dealt_count,
        )

    def restore(self, snapshot: ShoeSnapshot) -> None:
        """Put this shoe back, in place, as :meth:`snapshot` found it (a snapshot may be
        restored any number of times)."""
        self.decks = snapshot.decks
        self.cut_card_position = snapshot.cut_card_position
        self._rng = snapshot.rng
        self._cards = list(snapshot.cards)
        self._burned = list(snapshot.burned)
        self._discards = list(snapshot.discards)
        self._dealt_count = snapshot.dealt_count

    def shuffle(self) -> None:
        """Gather every card (undealt, discards, burns) and shuffle a fresh shoe.

        >>> shoe = Shoe(4, seed=1); _ = shoe.draw(); shoe.shuffle(); len(shoe)
        208
        """
        cards = list(full_deck()) * self.decks
        self._rng.shuffle(cards)
        self._cards = cards
        self._burned.clear()
        self._discards.clear()
        self._dealt_count = 0

    def draw_many(self, n: int) -> tuple[Card, ...]:
        """Deal ``n`` cards, or none at all when fewer are left.

        >>> shoe = Shoe(1, seed=0); shoe.draw_many(53)
        Traceback (most recent call last):
        ...
        croupier.cards.deck.EmptyDeckError: cannot deal 53 card(s): 52 left
        >>> len(shoe)
        52
        """
        if type(n) is not int:
            n = whole_number(n, "the number of cards to deal")
        if n < 0:
            raise CroupierError(f"the number of cards to deal must be at least 0, not {n}")
        cards = self._cards
        if n > len(cards):
            raise EmptyDeckError(f"cannot deal {n} card(s): {len(cards)} left")
        cut = len(cards) - n
        out = tuple(reversed(cards[cut:]))
        del cards[cut:]
        self._dealt_count += n
        return out
