"""Provably fair deals: commit to the shuffled deck before the first card, reveal it after.

Before a hand the table publishes ``commitment = SHA-256(order || salt)``: ``order`` is the
deck in dealing order, top card first, each card as its two-character code (rank
``23456789TJQKA``, suit ``cdhs``) with nothing between them, as ASCII bytes; ``salt`` is 32
secret random bytes. After the hand the order and the salt are revealed: anyone can hash
them again, and check that every card taken from the deck (burn cards and boxed cards
included) is the next card of that order. The salt keeps the order secret while the hand
is played (without it, the few undealt orders consistent with the cards seen could be
hashed and compared); the hash binds the house to the order before a card is seen.

Salts come from the OS CSPRNG (:mod:`secrets`) unless a random source is injected (a seeded
session, whose record says so: a seeded deal is replayable, so its commitment proves
nothing to whoever knows the seed).

>>> from croupier.cards import Deck
>>> order = Deck.standard(seed=5).remaining
>>> commitment, reveal = commit_deck(order)
>>> verify_deal(commitment, reveal.order, reveal.salt, order[:9]).cards
9
>>> verify_deal(commitment, reveal.order, bytes(32), order[:9])
Traceback (most recent call last):
...
croupier.fairness.DealVerificationError: the revealed order and salt do not hash to the commitment ...
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from croupier.blackjack import events as bj
from croupier.cards.card import Card, format_cards, parse_cards
from croupier.errors import CroupierError
from croupier.poker import events as pk
from croupier.visitor import EventVisitor, visits

__all__ = [
    "SALT_BYTES",
    "DealCheck",
    "DealVerificationError",
    "DealtCards",
    "DeckCommitment",
    "DeckReveal",
    "commit_deck",
    "dealt_cards",
    "deck_bytes",
    "new_salt",
    "parse_order",
    "verify_deal",
    "verify_logged_deal",
]

SALT_BYTES = 32
"""The length of a salt: 32 bytes (256 bits), as long as the digest."""

_HEX64 = re.compile(r"[0-9a-f]{64}")


class DealVerificationError(CroupierError):
    """A deal that does not match its commitment: the revealed order or salt do not hash to
    it, or a card taken from the deck is not the one the revealed order puts there.

    >>> verify_deal(DeckCommitment("0" * 64), parse_cards("As Kd"), bytes(32), ())
    Traceback (most recent call last):
    ...
    croupier.fairness.DealVerificationError: the revealed order and salt do not hash to the commitment 000000000000…
    """


def deck_bytes(order: Iterable[Card]) -> bytes:
    """The canonical bytes of a deck order: each card's two-character code, top card first,
    nothing between them (``AsKd`` for the ace of spades on top of the king of diamonds).

    >>> deck_bytes(parse_cards("As Kd 10h"))
    b'AsKdTh'
    """
    cards = tuple(order)
    if not all(isinstance(c, Card) for c in cards):
        raise CroupierError("a deck order is a sequence of Card objects")
    return format_cards(cards, "").encode("ascii")


def new_salt(rng: random.Random | None = None) -> bytes:
    """32 fresh salt bytes: from the OS CSPRNG, or from ``rng`` for a seeded session.

    >>> len(new_salt()), new_salt(random.Random(1)) == new_salt(random.Random(1))
    (32, True)
    """
    if rng is None:
        return secrets.token_bytes(SALT_BYTES)
    if not isinstance(rng, random.Random):
        raise CroupierError(f"rng must be a random.Random, not {rng!r}")
    return rng.randbytes(SALT_BYTES)


def _salt(salt: object) -> bytes:
    if isinstance(salt, str):
        try:
            salt = bytes.fromhex(salt)
        except ValueError:
            raise CroupierError(f"a salt is {SALT_BYTES} bytes in hex, not {salt!r}") from None
    if not isinstance(salt, bytes) or len(salt) != SALT_BYTES:
        raise CroupierError(f"a salt is {SALT_BYTES} bytes, not {salt!r}")
    return salt


@dataclass(frozen=True)
class DeckCommitment:
    """The published commitment to one deck (or blackjack shoe): the SHA-256 digest, in
    lower-case hex, of :func:`deck_bytes` of the order followed by the salt.

    >>> c = DeckCommitment.commit(parse_cards("As Kd"), bytes(32))
    >>> c.digest == hashlib.sha256(b"AsKd" + bytes(32)).hexdigest(), c.matches(parse_cards("Kd As"), bytes(32))
    (True, False)
    """

    digest: str
    """64 lower-case hex digits."""

    def __post_init__(self) -> None:
        if not isinstance(self.digest, str) or not _HEX64.fullmatch(self.digest):
            raise CroupierError(
                f"a deck commitment is 64 lower-case hex digits, not {self.digest!r}"
            )

    @classmethod
    def commit(cls, order: Iterable[Card], salt: bytes | str) -> DeckCommitment:
        """The commitment to ``order`` under ``salt`` (bytes, or their hex).

        >>> DeckCommitment.commit(parse_cards("2c"), "00" * 32).digest[:12]
        '82ddff816a7e'
        """
        return cls(hashlib.sha256(deck_bytes(order) + _salt(salt)).hexdigest())

    def matches(self, order: Iterable[Card], salt: bytes | str) -> bool:
        """Whether ``order`` and ``salt`` hash to this commitment (compared in constant time).

        >>> DeckCommitment.commit(parse_cards("2c"), bytes(32)).matches(parse_cards("2c"), bytes(32))
        True
        """
        other = DeckCommitment.commit(order, salt).digest
        return hmac.compare_digest(other, self.digest)

    def __str__(self) -> str:
        return self.digest


@dataclass(frozen=True)
class DeckReveal:
    """What is revealed after the hand (after the shoe, in blackjack): the order and salt.

    >>> reveal = DeckReveal(parse_cards("As Kd"), bytes(32))
    >>> reveal.order_text, DeckReveal.from_dict(reveal.to_dict()) == reveal
    ('AsKd', True)
    """

    order: tuple[Card, ...]
    """The deck in dealing order, top card first."""
    salt: bytes
    """The secret salt (32 bytes)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "order", tuple(self.order))
        deck_bytes(self.order)
        object.__setattr__(self, "salt", _salt(self.salt))

    @property
    def order_text(self) -> str:
        """The order as :func:`deck_bytes` text (what is hashed)."""
        return deck_bytes(self.order).decode("ascii")

    @property
    def salt_hex(self) -> str:
        """The salt in lower-case hex."""
        return self.salt.hex()

    @property
    def commitment(self) -> DeckCommitment:
        """The commitment this reveal opens."""
        return DeckCommitment.commit(self.order, self.salt)

    def to_dict(self) -> dict[str, str]:
        """``{"order": "AsKd…", "salt": "<hex>"}``."""
        return {"order": self.order_text, "salt": self.salt_hex}

    @classmethod
    def parse(cls, order: str, salt: str) -> DeckReveal:
        """A reveal from its text: the order as :func:`deck_bytes` text, the salt in hex.

        >>> DeckReveal.parse("2cAs", "ab" * 32).order
        (Card('2c'), Card('As'))
        """
        return cls(parse_order(order), _salt(salt))

    @classmethod
    def from_dict(cls, data: object) -> DeckReveal:
        """Rebuild a reveal from :meth:`to_dict`; anything else raises :class:`CroupierError`.

        >>> DeckReveal.from_dict({"order": "AsAs", "salt": "00" * 32}).order   # a shoe repeats cards
        (Card('As'), Card('As'))
        """
        if not isinstance(data, dict) or set(data) != {"order", "salt"}:
            raise CroupierError(f"a deck reveal is {{'order': ..., 'salt': ...}}, not {data!r}")
        order, salt = data["order"], data["salt"]
        if not isinstance(order, str) or not isinstance(salt, str):
            raise CroupierError("a deck reveal's order and salt are text")
        return cls.parse(order, salt)


def parse_order(text: str) -> tuple[Card, ...]:
    """Cards from :func:`deck_bytes` text (repeats allowed: a blackjack shoe).

    >>> parse_order("AsKd")
    (Card('As'), Card('Kd'))
    """
    if len(text) % 2:
        raise CroupierError(f"a deck order is two characters a card, not {len(text)} characters")
    return parse_cards([text[i : i + 2] for i in range(0, len(text), 2)], unique=False)


def commit_deck(
    order: Iterable[Card], rng: random.Random | None = None
) -> tuple[DeckCommitment, DeckReveal]:
    """Commit to ``order`` with a fresh salt (:func:`new_salt`): the commitment to publish
    now and the reveal to keep secret until the hand is over.

    >>> commitment, reveal = commit_deck(parse_cards("As Kd"), random.Random(3))
    >>> reveal.commitment == commitment
    True
    """
    reveal = DeckReveal(tuple(order), new_salt(rng))
    return reveal.commitment, reveal


@dataclass(frozen=True)
class DealtCards:
    """The cards a hand or round took from its deck, read from its event log.

    ``cards`` lists every card taken from the top in order: burn cards, boxed cards (poker:
    set aside like a burn) and the cards dealt; None stands for a card taken whose face the
    record does not show (a burn in a PHH file). ``restocks`` are draw poker's restocks:
    the discards shuffled under the stub (Draw 11), in the order the log gives, and
    ``pools`` the discards not yet restocked when each restock was made (what it must be).

    >>> log = [pk.CardBurned(Card.parse("2c")), pk.CommunityDealt(parse_cards("As Kd Qh"))]
    >>> dealt_cards(log).cards
    (Card('2c'), Card('As'), Card('Kd'), Card('Qh'))
    """

    cards: tuple[Card | None, ...]
    restocks: tuple[tuple[Card, ...], ...] = ()
    pools: tuple[tuple[Card, ...], ...] = ()


def dealt_cards(events: Iterable[Any]) -> DealtCards:
    """Every card a poker hand's or a blackjack round's log took from the deck, in order.

    >>> dealt_cards([bj.CardBurned(Card.parse("7d")), bj.CardDealt(1, 0, Card.parse("As"))]).cards
    (Card('7d'), Card('As'))
    """
    return _Dealt().visit_all(events)


class _Dealt(EventVisitor[DealtCards]):
    """The cards a log took from the deck, and draw poker's restocks with their pools."""

    consumer = "the deal check"
    reads = (pk, bj)
    ignores = (
        pk.AntePosted,
        pk.BetReturned,
        pk.BetsCollected,
        pk.BlindPosted,
        pk.BringIn,
        pk.Called,
        pk.Checked,
        pk.Conceded,
        pk.DeckCut,
        pk.Folded,
        pk.DealEnded,
        pk.HandMucked,
        pk.HandShown,
        pk.HandStarted,
        pk.PotAwarded,
        pk.RaisedTo,
        pk.RakeTaken,
        pk.ShowRequested,
        bj.BoxAction,
        bj.HandSettled,
        bj.InsuranceDecided,
        bj.InsuranceSettled,
        bj.DealEnded,
        bj.RoundStarted,
        bj.WagerPlaced,
    )

    def __init__(self) -> None:
        self.cards: list[Card | None] = []
        self.restocks: list[tuple[Card, ...]] = []
        self.pools: list[tuple[Card, ...]] = []
        self.discards: list[Card] = []
        self.drawing: tuple[Card, ...] = ()  # a player's discards join the pile after his draw

    @visits(pk.CardBurned, pk.CardBoxed, bj.CardBurned, bj.CardDealt, bj.DealerCard)
    def on_card(
        self, event: pk.CardBurned | pk.CardBoxed | bj.CardBurned | bj.CardDealt | bj.DealerCard
    ) -> None:
        self.cards.append(event.card)

    @visits(pk.CardsDealt, pk.CommunityDealt)
    def on_cards(self, event: pk.CardsDealt | pk.CommunityDealt) -> None:
        self.cards.extend(event.cards)
        self.discards.extend(self.drawing)
        self.drawing = ()

    @visits(pk.Discarded)
    def on_discarded(self, event: pk.Discarded) -> None:
        self.discards.extend(self.drawing)
        self.drawing = tuple(event.cards)

    @visits(pk.StubRestocked)
    def on_restocked(self, event: pk.StubRestocked) -> None:
        self.restocks.append(tuple(event.cards))
        self.pools.append(tuple(self.discards))
        self.discards.clear()

    @visits(pk.HiddenCards, bj.HiddenCard)
    def on_hidden(self, event: pk.HiddenCards | bj.HiddenCard) -> None:
        raise CroupierError(
            f"the deal check cannot read {type(event).__name__}: "
            "a viewer's log hides cards the deck gave"
        )

    def result(self) -> DealtCards:
        return DealtCards(tuple(self.cards), tuple(self.restocks), tuple(self.pools))


@dataclass(frozen=True)
class DealCheck:
    """What :func:`verify_deal` checked: the commitment matched, and ``cards`` cards taken
    from the deck (``unseen`` of them with their face not in the record) sat where the
    revealed order puts them, from position ``start``; ``restocked`` cards came from draw
    poker restocks (their order is shuffled during the hand, so the commitment does not
    bind it: see :func:`verify_deal`).

    >>> DealCheck("ab" * 32, 5, 0, 0, 0).describe()
    'commitment abababababab… matches; the 5 cards taken from the deck are its cards 1 to 5'
    """

    commitment: str
    cards: int
    start: int
    unseen: int
    restocked: int

    def describe(self) -> str:
        """One line."""
        text = f"commitment {self.commitment[:12]}… matches; "
        if not self.cards:
            return text + "no card was taken from the deck"
        first, last = self.start + 1, self.start + self.cards - self.restocked
        text += f"the {self.cards} cards taken from the deck are its cards {first} to {last}"
        if self.restocked:
            text += f" and then {self.restocked} restocked discards"
        if self.unseen:
            text += f" ({self.unseen} not shown in the record)"
        return text


def verify_deal(
    commitment: DeckCommitment | str,
    order: Sequence[Card],
    salt: bytes | str,
    dealt: Sequence[Card | None] | DealtCards,
    *,
    start: int = 0,
    deck: Sequence[Card] | None = None,
) -> DealCheck:
    """Check a deal against its commitment; raise :class:`DealVerificationError` if it fails.

    Three things are checked: ``order`` and ``salt`` hash to ``commitment``; ``order``
    holds exactly the cards of ``deck`` when one is given (``full_deck()`` for a 52-card
    game, the stripped deck, six decks for a shoe); and the n-th card taken from the deck
    is card ``start + n`` of ``order`` (``start`` is the shoe position a blackjack round
    starts at). A None in ``dealt`` is a card taken whose face the record does not show:
    its position is counted, its face not checked. Who receives each card is the rules'
    business: the referee's replay checks it (``croupier history verify``).

    Draw poker restocks (``DealtCards.restocks``, the StubRestocked events) are handled:
    once the committed order is used up the deal goes on through each restock's cards in
    the order logged; each restock must be exactly the discards not yet restocked (when
    ``DealtCards.pools`` gives them), each restocked card a card dealt before.
    Their order is shuffled during the hand, after the commitment, so the commitment does
    not bind it. Cuts (DeckCut) are made before the commitment: the committed order is the
    order dealt from, cut included.

    >>> from croupier.cards import full_deck
    >>> order = full_deck()
    >>> c = DeckCommitment.commit(order, bytes(32))
    >>> verify_deal(c, order, bytes(32), [order[0], None, order[2]], deck=full_deck()).describe()
    'commitment 71f709c1e681… matches; the 3 cards taken from the deck are its cards 1 to 3 (1 not shown in the record)'
    >>> verify_deal(c, order, bytes(32), [order[1]])
    Traceback (most recent call last):
    ...
    croupier.fairness.DealVerificationError: card 1 taken from the deck is 2d; the revealed order has 2c there
    """
    if isinstance(commitment, str):
        commitment = DeckCommitment(commitment)
    order = tuple(order)
    if not commitment.matches(order, salt):
        raise DealVerificationError(
            f"the revealed order and salt do not hash to the commitment {commitment.digest[:12]}…"
        )
    if deck is not None and Counter(order) != Counter(deck):
        raise DealVerificationError(
            f"the revealed order is not one whole deck: {len(order)} cards, "
            f"not the {len(deck)} of the game's deck"
        )
    taken = dealt if isinstance(dealt, DealtCards) else DealtCards(tuple(dealt))
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= len(order):
        raise CroupierError(f"start must be a position 0..{len(order)}, not {start!r}")
    sequence: list[Card] = list(order[start:])
    committed = len(sequence)
    seen: list[Card] = []
    restocked: set[int] = set()  # positions in `seen` already restocked
    pending = list(taken.restocks)
    pools = list(taken.pools)
    for number, card in enumerate(taken.cards, start=1):
        index = number - 1
        while index >= len(sequence) and pending:
            batch = pending.pop(0)
            if pools and Counter(batch) != Counter(pools.pop(0)):
                raise DealVerificationError(
                    "a restock is not exactly the discards not yet restocked (Draw 11)"
                )
            _check_restock(batch, seen, restocked)
            sequence.extend(batch)
        if index >= len(sequence):
            raise DealVerificationError(
                f"card {number} taken from the deck is past the end of the revealed order "
                f"({committed} cards from position {start + 1})"
            )
        expected = sequence[index]
        if card is not None and card != expected:
            where = (
                f"the revealed order has {expected} there"
                if index < committed
                else f"restocked discards put {expected} there"
            )
            raise DealVerificationError(f"card {number} taken from the deck is {card}; {where}")
        seen.append(expected)
    if pending:
        raise DealVerificationError(
            f"{len(pending)} restock(s) of discards were logged but never dealt from"
        )
    unseen = sum(1 for card in taken.cards if card is None)
    return DealCheck(
        commitment.digest,
        len(taken.cards),
        start,
        unseen,
        max(0, len(taken.cards) - committed),
    )


def _check_restock(batch: tuple[Card, ...], seen: list[Card], restocked: set[int]) -> None:
    """Each restocked card is a card dealt before and not restocked yet (Draw 11)."""
    for card in batch:
        spot = next(
            (i for i, c in enumerate(seen) if c == card and i not in restocked),
            None,
        )
        if spot is None:
            raise DealVerificationError(
                f"restocked card {card} was never dealt (only discards go under the stub)"
            )
        restocked.add(spot)


def verify_logged_deal(
    commitment: DeckCommitment | str,
    reveal: DeckReveal,
    events: Sequence[Any],
    *,
    start: int = 0,
    deck: Sequence[Card] | None = None,
) -> DealCheck:
    """:func:`verify_deal` for a whole event log: the log's own record of the deck (poker's
    ``HandStarted.deck``, blackjack's ``RoundStarted.shoe``) must be the revealed order
    from ``start`` on, and every card the log took must sit where the order puts it.

    >>> from croupier.poker import HandState, TableRules
    >>> from croupier.cards import Deck
    >>> deck = Deck.standard(seed=2)
    >>> commitment, reveal = commit_deck(deck.remaining)
    >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, deck=deck)
    >>> hand.fold()
    Folded(seat=2)
    >>> verify_logged_deal(commitment, reveal, hand.events).cards
    4
    """
    if not events:
        raise DealVerificationError("the event log is empty")
    first = events[0]
    if isinstance(first, pk.HandStarted):
        logged = tuple(first.deck)
    elif isinstance(first, bj.RoundStarted):
        logged = tuple(first.shoe)
    else:
        raise DealVerificationError(
            f"an event log starts with HandStarted or RoundStarted, not {first!r}"
        )
    if isinstance(commitment, str):
        commitment = DeckCommitment(commitment)
    if not commitment.matches(reveal.order, reveal.salt):
        raise DealVerificationError(
            f"the revealed order and salt do not hash to the commitment {commitment.digest[:12]}…"
        )
    if logged and logged != reveal.order[start:]:
        raise DealVerificationError(
            "the log's record of the deck is not the revealed order"
            + (f" from position {start + 1}" if start else "")
        )
    return verify_deal(
        commitment, reveal.order, reveal.salt, dealt_cards(events), start=start, deck=deck
    )
