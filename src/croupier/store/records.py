"""What the store hands back: sessions, hands in brief and in full, and a blackjack shoe's
commitment (plain frozen values, read from the rows).

>>> from croupier.poker import TableRules
>>> len(game_deck(TableRules()))
52
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeAlias

from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import BlackjackRules
from croupier.cards.card import Card
from croupier.cards.deck import full_deck
from croupier.errors import CroupierError
from croupier.fairness import DeckCommitment, DeckReveal
from croupier.poker.state import HandState
from croupier.store.errors import StoreError
from croupier.store.schema import SessionRow
from croupier.store.serial import Rules

__all__ = [
    "MAX_ID",
    "HandSummary",
    "SessionInfo",
    "SessionRef",
    "ShoeDeal",
    "StoredHand",
    "as_utc",
    "game_deck",
    "player_name",
    "session_id",
]

SessionRef: TypeAlias = "int | SessionInfo"
"""A session, or its id."""


def as_utc(value: datetime | None) -> datetime | None:
    """A stored time as timezone-aware UTC (SQLite returns it naive).

    >>> as_utc(datetime(2026, 5, 20, 12, 0)).isoformat()
    '2026-05-20T12:00:00+00:00'
    """
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


@dataclass(frozen=True)
class SessionInfo:
    """A recorded session.

    >>> from croupier.store import Store
    >>> store = Store.open("sqlite:///:memory:")
    >>> from croupier.blackjack import NZ
    >>> info = store.start_session(NZ, seed=7, label="test")
    >>> info.id, info.game, info.seeded, info.seed
    (1, 'blackjack', True, 7)
    """

    id: int
    game_kind: str
    """``poker`` or ``blackjack``."""
    game: str
    rules_fingerprint: str
    engine_version: str
    seeded: bool
    seed: int | None
    label: str | None
    started_at: datetime
    ended_at: datetime | None

    @classmethod
    def of(cls, row: SessionRow) -> SessionInfo:
        """The info of a ``sessions`` row."""
        return cls(
            row.id,
            row.game_kind,
            row.game,
            row.rules_fingerprint,
            row.engine_version,
            row.seeded,
            None if row.seed is None else int(row.seed),
            row.label,
            as_utc(row.started_at) or row.started_at,
            as_utc(row.ended_at),
        )


@dataclass(frozen=True)
class ShoeDeal:
    """The blackjack shoe a round is dealt from: its number in the session (1, 2, … each
    reshuffle), the commitment shown before its first round and the reveal kept until its
    last.

    >>> from croupier.cards import Shoe
    >>> from croupier.fairness import commit_deck
    >>> ShoeDeal(1, *commit_deck(Shoe(6, seed=1).remaining)).number
    1
    """

    number: int
    commitment: DeckCommitment
    reveal: DeckReveal


@dataclass(frozen=True)
class HandSummary:
    """One stored hand in brief: who played and what each won or lost.

    >>> from croupier.store.schema import utc_now
    >>> HandSummary(1, 1, 1, "poker", "holdem", "ab" * 32, utc_now(), (("ann", 1, 5),), 0).describe()
    'hand 1 (session 1 #1, holdem): ann +5'
    """

    id: int
    session_id: int
    number: int
    game_kind: str
    game: str
    commitment: str
    recorded_at: datetime
    results: tuple[tuple[str, int, int], ...]
    """(player, seat or box, net chips) in seat order."""
    house: int
    """The rake (poker) or the bank's result (blackjack)."""

    def describe(self) -> str:
        """One line."""
        nets = ", ".join(f"{name} {net:+d}" for name, _seat, net in self.results)
        return f"hand {self.id} (session {self.session_id} #{self.number}, {self.game}): {nets}"


@dataclass(frozen=True)
class StoredHand:
    """One stored hand in full: the rules, the event log, the commitment and its reveal.

    ``reveal`` is None for a blackjack round whose shoe is still in play (``revealed``
    False): its order is kept by the house until the shoe is finished.

    >>> from croupier.store import Store
    >>> store = Store.open("sqlite:///:memory:")
    >>> store.hand(1)
    Traceback (most recent call last):
    ...
    croupier.store.errors.StoreError: no hand 1 in the store
    """

    summary: HandSummary
    rules: Rules
    engine_version: str
    seeded: bool
    events: tuple[Any, ...]
    commitment: DeckCommitment
    reveal: DeckReveal
    """The order and salt (the house's copy, revealed or not)."""
    revealed: bool
    """Whether the order may be shown to players (poker: always, the hand is over)."""
    shoe: int | None
    """The shoe number (blackjack)."""
    offset: int
    """Cards dealt from the shoe before the round (0 in poker)."""
    players: tuple[tuple[int, str], ...]
    """(seat or box, player) in seat order."""

    @property
    def id(self) -> int:
        """The hand's id."""
        return self.summary.id

    def replay(self) -> HandState | BlackjackRound:
        """The hand replayed through its referee from the stored log."""
        if isinstance(self.rules, BlackjackRules):
            return BlackjackRound.replay(self.rules, self.events)
        return HandState.replay(self.rules, self.events)


MAX_ID = 2**31 - 1
"""The largest row id (an ``INTEGER`` key on every database)."""


def session_id(session: object) -> int:
    """The id of a session given as :class:`SessionInfo` or as its id.

    >>> session_id(3)
    3
    """
    if isinstance(session, SessionInfo):
        return session.id
    if isinstance(session, int) and not isinstance(session, bool):
        if not 0 < session <= MAX_ID:
            raise StoreError(f"no session {session} in the store")
        return session
    raise CroupierError(f"a session is a SessionInfo or its id, not {session!r}")


def player_name(name: object) -> str:
    """A player's name, checked: 1 to 200 characters of text.

    >>> player_name("ann")
    'ann'
    """
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise CroupierError(f"a player's name is 1 to 200 characters of text, not {name!r}")
    return name


def game_deck(rules: Rules) -> tuple[Card, ...]:
    """Every card of the game's deck: a poker game's (stripped for the Manila games), or a
    blackjack shoe's (``decks`` times 52 cards).

    >>> from croupier.poker import MANILA, TableRules
    >>> len(game_deck(TableRules())), len(game_deck(TableRules(MANILA)))
    (52, 32)
    """
    if isinstance(rules, BlackjackRules):
        return full_deck() * rules.decks
    lowest = rules.game.ranking.lowest_rank
    return tuple(c for c in full_deck() if c.rank >= lowest)
