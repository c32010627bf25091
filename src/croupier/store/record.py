"""Play hands with bots and record each one: the store's producer (tests, ``--auto`` play).

:func:`play_and_record` runs a poker :class:`~croupier.poker.table.Table`; before each
hand's first card it commits to the shuffled deck and reports the commitment (the hand
log's first line), then plays the hand with the bots, and records it, reveal included,
in one transaction. :func:`play_and_record_blackjack` does the same for blackjack rounds
dealt from one shoe after another: a shoe is committed before its first round and
revealed with its last.

Randomness: without a seed every shuffle and every salt comes from the OS CSPRNG. With a
seed the session replays card for card: the table's shuffles come from ``seed`` exactly
as an unrecorded ``Table(rules, seed=seed)`` deals them, the bots from their own sources
derived from it, and the salts from a ``random.Random`` of their own derived from it
(so the commitments replay too); the session is recorded as seeded.

>>> from croupier.poker import TableRules
>>> store = Store.open("sqlite:///:memory:")
>>> done = play_and_record(store, TableRules(), hands=5, seed=11)
>>> len(done.hands), store.verify().ok, sum(store.balances(done.session).values())
(5, True, 0)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from croupier.blackjack.policies import Policy as BlackjackPolicy
from croupier.blackjack.policies import mimic_the_dealer
from croupier.blackjack.rules import NZ, BlackjackRules
from croupier.blackjack.seating import ChipsBought, PlayerSeated, TableEvent
from croupier.blackjack.table import BlackjackTable
from croupier.cards.deck import Shoe
from croupier.errors import CroupierError
from croupier.fairness import DeckCommitment, DeckReveal, commit_deck
from croupier.poker.games import ForcedBets
from croupier.poker.policies import POLICIES, Policy
from croupier.poker.settings import TableRules
from croupier.poker.state import HandState
from croupier.poker.table import Table
from croupier.store.store import SessionInfo, ShoeDeal, Store

__all__ = [
    "DEFAULT_PLAYERS",
    "RecordedSession",
    "play_and_record",
    "play_and_record_blackjack",
    "play_committed_hand",
]

DEFAULT_PLAYERS = ("ann", "bo", "cy")
"""The bots' names when none are given."""

Echo = Callable[[str], None]
"""Where the hand log goes, line by line (``print``, ``click.echo``)."""


@dataclass(frozen=True)
class RecordedSession:
    """What a recording run did: the session, the ids of the hands recorded and each
    hand's commitment, in order.

    >>> from croupier.poker import TableRules
    >>> done = play_and_record(Store.open("sqlite:///:memory:"), TableRules(), hands=2, seed=1)
    >>> done.hands, len(done.commitments[0])
    ((1, 2), 64)
    """

    session: SessionInfo
    hands: tuple[int, ...]
    commitments: tuple[str, ...]


def _rng(seed: int | None, purpose: str) -> random.Random:
    """A random source for one purpose: derived from the seed, else freshly seeded."""
    return random.Random(f"croupier {purpose} {seed}") if seed is not None else random.Random()


def _quiet(_line: str) -> None:
    return None


def _names(players: int | Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, int):
        if isinstance(players, bool) or players < 1:
            raise CroupierError(f"a table needs players, not {players!r}")
        return tuple(DEFAULT_PLAYERS[i] if i < 3 else f"bot{i + 1}" for i in range(players))
    names = tuple(players)
    if not names or len(set(names)) != len(names):
        raise CroupierError("players are distinct names")
    return names


def play_and_record(
    store: Store,
    rules: TableRules,
    *,
    hands: int,
    players: int | Sequence[str] = DEFAULT_PLAYERS,
    buy_in: int | None = None,
    policy: str = "random",
    seed: int | None = None,
    rebuy: bool = True,
    label: str | None = None,
    echo: Echo = _quiet,
) -> RecordedSession:
    """Seat bots at a poker table, play ``hands`` hands and record each; then cash everyone
    out and end the session. ``buy_in`` defaults to 100 big blinds (stud: 100 table
    minimums); a busted bot buys in again with ``rebuy``, else leaves (the run stops
    early when fewer than two are left). ``policy`` names one of
    :data:`~croupier.poker.policies.POLICIES`.

    >>> from croupier.poker import SEVEN_CARD_STUD, FixedLimit, TableRules
    >>> rules = TableRules(SEVEN_CARD_STUD, FixedLimit(10, 20), blinds=(), ante=1, bring_in=5,
    ...                    table_minimum=5)
    >>> lines = []
    >>> _ = play_and_record(Store.open("sqlite:///:memory:"), rules, hands=1, seed=2,
    ...                     echo=lines.append)
    >>> lines[0][:28]
    'hand 1: deck commitment sha2'
    """
    if policy not in POLICIES:
        raise CroupierError(f"unknown policy {policy!r}: one of {', '.join(sorted(POLICIES))}")
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 0:
        raise CroupierError(f"hands is a whole number from 0, not {hands!r}")
    names = _names(players)
    table = Table(rules, max(2, len(names)), seed=seed)
    bots = {name: POLICIES[policy](_rng(seed, f"policy {name}")) for name in names}
    salts = _rng(seed, "salt") if seed is not None else None
    stake = buy_in
    if stake is None:
        unit = rules.blinds[-1] if rules.game.forced is ForcedBets.BLINDS else rules.table_minimum
        stake = 100 * unit
    session = store.start_session(rules, seed=seed, label=label)
    for seat, name in enumerate(names, start=1):
        table.sit(name, seat, stake)
        store.sit(session, name, seat, policy)
        store.buy_in(session, name, stake)
    ids: list[int] = []
    commitments: list[str] = []
    for _ in range(hands):
        if not _restock(table, store, session, stake, rebuy):
            break
        hand, commitment, reveal = play_committed_hand(table, bots, salts=salts, echo=echo)
        seats = {seat: player.name for seat, player in table.seats.items()}
        ids.append(store.record_poker_hand(session, hand, commitment, reveal, seats))
        commitments.append(commitment.digest)
    for name in list(table.stacks):
        chips = table.leave(name, "the session ends")
        store.cash_out(session, name, chips)
    store.end_session(session)
    return RecordedSession(session, tuple(ids), tuple(commitments))


def _restock(table: Table, store: Store, session: SessionInfo, stake: int, rebuy: bool) -> bool:
    """Busted players buy in again (or leave); whether a hand can still be dealt."""
    for name, chips in list(table.stacks.items()):
        if chips:
            continue
        if rebuy:
            table.buy_in(name, stake)
            store.buy_in(session, name, stake)
        else:
            table.leave(name, "busted")
            store.cash_out(session, name, 0)
    return table.can_start_hand()


def play_committed_hand(
    table: Table,
    bots: Mapping[str, Policy],
    *,
    salts: random.Random | None = None,
    echo: Echo = _quiet,
) -> tuple[HandState, DeckCommitment, DeckReveal]:
    """Deal the table's next hand committed: shuffled and cut, committed to (the commitment
    echoed before the first card), then dealt and played by ``bots`` (by player name) to
    the end and finished at the table. A bot that fails makes the default action, as
    :meth:`Table.play_hand` does. Returns the hand, its commitment and its reveal.

    >>> from croupier.poker import TableRules
    >>> from croupier.poker.policies import passive_policy
    >>> table = Table(TableRules(), 2, seed=1)
    >>> table.sit("ann", 1, 100); table.sit("bo", 2, 100)
    >>> hand, commitment, reveal = play_committed_hand(table, {"ann": passive_policy, "bo": passive_policy})
    >>> hand.is_complete, reveal.commitment == commitment
    (True, True)
    """
    committed: list[tuple[DeckCommitment, DeckReveal]] = []

    def commit(hand: HandState) -> None:  # after the shuffle and cut, before the first card
        committed.append(commit_deck(hand.deck.remaining, salts))
        echo(f"hand {table.hand_number + 1}: deck commitment sha256 {committed[0][0].digest}")

    hand = table.start_hand(before_first_card=commit)
    commitment, reveal = committed[0]
    while not hand.is_complete:
        seat = hand.actor
        if seat is None:  # pragma: no cover - an automatic hand always has an actor
            raise CroupierError("no seat is to act in an unfinished hand")
        table.policy_acts(hand, seat, bots[table.seats[seat].name])
    table.finish_hand(hand)
    for event in hand.events:
        echo(f"  {event.describe()}")
    return hand, commitment, reveal


def play_and_record_blackjack(
    store: Store,
    rules: BlackjackRules = NZ,
    *,
    rounds: int,
    players: int | Sequence[str] = DEFAULT_PLAYERS,
    buy_in: int | None = None,
    wager: int | None = None,
    policy: BlackjackPolicy = mimic_the_dealer,
    seed: int | None = None,
    label: str | None = None,
    echo: Echo = _quiet,
) -> RecordedSession:
    """Seat bots at boxes 1, 2, … of a blackjack table, play ``rounds`` rounds (each bot
    wagers ``wager``, default the table minimum; a bot that cannot buys in again) and
    record each; then cash everyone out and end the session.

    >>> store = Store.open("sqlite:///:memory:")
    >>> done = play_and_record_blackjack(store, rounds=3, seed=4)
    >>> len(done.hands), store.verify().ok
    (3, True)
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise CroupierError(f"rounds is a whole number from 0, not {rounds!r}")
    names = _names(players)
    if len(names) > rules.boxes:
        raise CroupierError(f"{len(names)} players for {rules.boxes} boxes")
    bet = rules.table_minimum if wager is None else wager
    stake = 50 * bet if buy_in is None else buy_in
    salts = _rng(seed, "salt") if seed is not None else None
    session = store.start_session(rules, seed=seed, label=label)
    bot = getattr(policy, "__name__", type(policy).__name__)
    shoes: list[ShoeDeal] = []

    def commit(number: int, shoe: Shoe) -> None:  # a new shoe, before its first card
        shoes.append(ShoeDeal(number, *commit_deck(shoe.remaining, salts)))
        echo(f"shoe {number}: commitment sha256 {shoes[-1].commitment.digest}")

    def ledger(event: TableEvent) -> None:  # the store hears first
        if isinstance(event, PlayerSeated):
            store.sit(session, event.name, event.box, bot)
            store.buy_in(session, event.name, event.chips)
        elif isinstance(event, ChipsBought):
            store.buy_in(session, event.name, event.amount)

    table = BlackjackTable(
        rules,
        rng=_rng(seed, "shoe") if seed is not None else None,
        commit=commit,
        ledger=ledger,
    )
    for box, name in enumerate(names, start=1):
        table.sit(name, box, stake, policy=policy)
    ids: list[int] = []
    commitments: list[str] = []
    for _ in range(rounds):
        for name, have in table.chips.items():
            if have < bet:
                table.rebuy(name, stake)
        rnd = table.new_round()
        table.bots_wager(rnd, bet)
        rnd.deal()
        table.play_bots(rnd)  # a failing bot makes the default play, logged
        for event in rnd.events:
            echo(f"  {event.describe()}")
        table.finish_round(rnd)
        finished = table.shoe.cut_card_reached
        ids.append(store.record_blackjack_round(session, rnd, shoes[-1], shoe_finished=finished))
        commitments.append(shoes[-1].commitment.digest)
    for name in table.chips:
        store.cash_out(session, name)
    store.end_session(session)
    return RecordedSession(session, tuple(ids), tuple(commitments))
