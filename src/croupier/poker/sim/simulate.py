"""Simulating many hands with built-in policies, across processes.

>>> from croupier.poker import TableRules, HOLDEM, NoLimit
>>> result = simulate(TableRules(HOLDEM, NoLimit(), blinds=(1, 2), table_minimum=2),
...                   players=3, hands=200, seed=1)
>>> result.hands, sum(result.totals)      # chips move between seats; none are created
(200, 0)

With a ``store`` (:mod:`croupier.store`, the ``store`` extra) every hand is recorded as it
is played, one transaction per hand, with the deck commitment made before its first card
and the reveal. Recording changes nothing in the play: a seed gives the same result with
or without it.

>>> from croupier.store import Store
>>> store = Store.open("sqlite:///:memory:")
>>> recorded = simulate(TableRules(HOLDEM, NoLimit(), blinds=(1, 2), table_minimum=2),
...                     players=3, hands=20, seed=1, store=store)
>>> recorded.totals == simulate(TableRules(HOLDEM, NoLimit(), blinds=(1, 2), table_minimum=2),
...                             players=3, hands=20, seed=1).totals
True
>>> len(store.hands(recorded.session)), store.verify().ok
(20, True)
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from croupier.errors import CroupierError
from croupier.fairness import DeckCommitment, DeckReveal, commit_deck
from croupier.poker.policies import POLICIES
from croupier.poker.settings import TableRules
from croupier.poker.state import HandState

if TYPE_CHECKING:
    from croupier.store import SessionInfo, Store

__all__ = ["CHUNK_HANDS", "SimulationResult", "simulate"]

CHUNK_HANDS = 250
"""Hands per chunk (one seed each), whatever the workers or the Ray cluster."""

HAND_SECONDS = (0.2e-3, 0.15e-3)
"""A referee hand's cost, ``a + b x players`` seconds, with the random policy (the fastest)
on the reference core (one core of a 2-vCPU x86-64 cloud machine, Python 3.11): 250
hands took 0.12 s at two seats and 0.43 s at ten. It sizes Ray tasks only."""


@dataclass(frozen=True)
class SimulationResult:
    """Per-seat results of a simulation (chips won, in the table's chip units).

    >>> SimulationResult(4, ("random", "random"), (8, -8), (32, 32)).stderr(1)
    1.0
    """

    hands: int
    """Hands played."""
    policies: tuple[str, ...]
    """The policy of each seat (seat 1 first)."""
    totals: tuple[int, ...]
    """Net chips won by each seat over all hands."""
    squares: tuple[int, ...]
    """Sum of squared per-hand results (for the standard error)."""
    session: int | None = None
    """The store session the hands were recorded in (None: not recorded)."""

    def mean(self, seat: int) -> float:
        """Average chips won per hand by seat (1-based)."""
        return self.totals[seat - 1] / self.hands

    def stderr(self, seat: int) -> float:
        """Standard error of :meth:`mean` (NaN, undefined, after a single hand)."""
        n = self.hands
        mean = self.mean(seat)
        var = max(self.squares[seat - 1] / n - mean * mean, 0.0)
        return math.sqrt(var / n) if n > 1 else float("nan")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (strict JSON: an undefined standard error is None).

        >>> SimulationResult(2, ("random", "random"), (3, -3), (9, 9)).to_dict()["seats"][0]["mean"]
        1.5
        >>> SimulationResult(1, ("random", "random"), (3, -3), (9, 9)).to_dict()["seats"][0]["stderr"]
        """
        data: dict[str, Any] = {
            "hands": self.hands,
            "seats": [
                {
                    "seat": i + 1,
                    "policy": policy,
                    "total": self.totals[i],
                    "mean": self.mean(i + 1),
                    "stderr": self.stderr(i + 1) if self.hands > 1 else None,
                }
                for i, policy in enumerate(self.policies)
            ],
        }
        if self.session is not None:
            data["session"] = self.session
        return data


Recorder = Callable[[HandState, DeckCommitment, DeckReveal], None]
"""Called with each finished hand, its deck commitment and its reveal."""


class _StoreRecorder:
    """Record a simulation's hands in one store session, seats named ``sim1``, ``sim2``…

    Stacks start every hand at ``stack``, so after each hand the bank resets them: a
    player's winnings are cashed out and his losses bought in again (ledger entries
    between hands), and the session's books balance at every hand.
    """

    def __init__(
        self,
        store: Store,
        rules: TableRules,
        policies: tuple[str, ...],
        stack: int,
        seed: int | None,
    ) -> None:
        self.store = store
        self.stack = stack
        self.names = {seat: f"sim{seat}" for seat in range(1, len(policies) + 1)}
        self.session: SessionInfo = store.start_session(
            rules, seed=seed, label="croupier poker simulate"
        )
        for seat, name in self.names.items():
            store.sit(self.session, name, seat, policies[seat - 1])
            store.buy_in(self.session, name, stack)

    def __call__(self, hand: HandState, commitment: DeckCommitment, reveal: DeckReveal) -> None:
        self.store.record_poker_hand(self.session, hand, commitment, reveal, self.names)
        for seat, chips in hand.stacks.items():
            name = self.names[seat]
            if chips > self.stack:
                self.store.cash_out(self.session, name, chips - self.stack)
            elif chips < self.stack:
                self.store.buy_in(self.session, name, self.stack - chips)

    def close(self) -> None:
        """Cash every player out and end the session."""
        for name in self.names.values():
            self.store.cash_out(self.session, name)
        self.store.end_session(self.session)


def _chunk(
    args: tuple[TableRules, tuple[str, ...], int, int, int],
    record: Recorder | None = None,
    salts: random.Random | None = None,
) -> tuple[list[int], list[int]]:
    """Play one chunk of hands; with ``record`` each hand is committed to its deck before
    the first card (salts from ``salts``, else the OS CSPRNG) and handed over at its end."""
    rules, policies, stack, hands, seed = args
    rng = random.Random(seed)
    n = len(policies)
    totals = [0] * n
    squares = [0] * n
    players = [POLICIES[p](rng) for p in policies]
    committed: list[tuple[DeckCommitment, DeckReveal]] = []

    def commit(hand: HandState) -> None:
        committed.append(commit_deck(hand.deck.remaining, salts))

    for i in range(hands):
        button = i % n + 1  # the button moves one seat a hand; stacks reset every hand
        stacks = dict.fromkeys(range(1, n + 1), stack)
        if record is None:
            hand = HandState(rules, stacks, button, rng=rng)
        else:  # the same hand, committed to its shuffled deck before the first card
            committed.clear()
            hand = HandState(rules, stacks, button, rng=rng, before_first_card=commit)
            commitment, reveal = committed[0]
        while not hand.is_complete:
            seat = hand.legal_actions().actor
            assert seat is not None  # dealt automatically: a player acts until the end
            hand.apply(players[seat - 1](hand.view_for(seat)).for_seat(seat))
        if record is not None:
            record(hand, commitment, reveal)
        for seat, chips in hand.stacks.items():
            net = chips - stack
            totals[seat - 1] += net
            squares[seat - 1] += net * net
    return totals, squares


def simulate(
    rules: TableRules,
    *,
    players: int,
    hands: int,
    policies: Sequence[str] | None = None,
    stack: int | None = None,
    seed: int | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    store: Store | None = None,
    ray: str | None = None,
) -> SimulationResult:
    """Play ``hands`` hands of ``players`` seats with the named policies (default: random).

    Stacks start at 100 last blinds (or ``stack``) every hand. With ``workers`` > 1 the
    hands are split across processes; a ``seed`` makes the whole run reproducible for a
    given worker count (the same for any count: hands run in fixed chunks of
    :data:`CHUNK_HANDS`).

    With ``ray`` (an address, see :mod:`croupier.distributed`) the same chunks run as Ray
    tasks of about two seconds each (:data:`HAND_SECONDS`) instead of ``workers``
    processes: a seed gives the same result.

    With ``store`` every hand is recorded (one transaction each) in a new session, as
    :class:`_StoreRecorder` says; recording plays in this process (``workers`` 1), and a
    seeded run's salts come from the seed too (the session is marked seeded).

    >>> from croupier.store import Store
    >>> simulate(TableRules(), players=2, hands=1, workers=2, store=Store.open("sqlite:///:memory:"))
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: recording plays every hand in this process: workers must be 1, not 2
    """
    for name, value, low in (("players", players, 2), ("hands", hands, 1), ("workers", workers, 1)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
            raise CroupierError(f"{name} must be a whole number of at least {low}, got {value!r}")
    if stack is not None and (
        isinstance(stack, bool) or not isinstance(stack, numbers.Integral) or stack < 1
    ):
        raise CroupierError(f"stack must be a whole number of chips from 1, got {stack!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral)):
        raise CroupierError(f"seed must be None or a whole number, got {seed!r}")
    chosen = tuple(policies or ("random",) * players)
    if len(chosen) != players or any(p not in POLICIES for p in chosen):
        raise CroupierError(f"give {players} policies from {', '.join(POLICIES)}")
    if store is not None and workers != 1:
        raise CroupierError(
            f"recording plays every hand in this process: workers must be 1, not {workers}"
        )
    if store is not None and ray is not None:
        raise CroupierError("recording plays every hand in this process: not on Ray")
    start = stack or 100 * max(rules.blinds or (rules.table_minimum,))
    master = random.Random(seed)
    size = CHUNK_HANDS  # chunks do not depend on the worker count: a seed replays either way
    jobs = []
    left = hands
    while left > 0:
        take = min(size, left)
        jobs.append((rules, chosen, start, take, master.randrange(2**63)))
        left -= take
    totals = [0] * players
    squares = [0] * players

    def add(result: tuple[list[int], list[int]], count: int) -> None:
        for i in range(players):
            totals[i] += result[0][i]
            squares[i] += result[1][i]
        if progress is not None and count:
            progress(count)

    if store is not None:
        recorder = _StoreRecorder(store, rules, chosen, start, seed)
        salts = random.Random(f"croupier salt {seed}") if seed is not None else None
        for job in jobs:
            add(_chunk(job, recorder, salts), job[3])
        recorder.close()
        return SimulationResult(hands, chosen, tuple(totals), tuple(squares), recorder.session.id)
    if ray is not None:
        from croupier.distributed import chunks_per_task, run_chunks

        a, b = HAND_SECONDS
        results = run_chunks(
            _chunk,
            jobs,
            address=ray,
            per_task=chunks_per_task(size * (a + b * players)),
            sizes=[job[3] for job in jobs],
            progress=progress,
        )
        for result in results:
            add(result, 0)
    elif workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for job, result in zip(jobs, pool.map(_chunk, jobs), strict=True):
                add(result, job[3])
    else:
        for job in jobs:
            add(_chunk(job), job[3])
    return SimulationResult(hands, chosen, tuple(totals), tuple(squares))
