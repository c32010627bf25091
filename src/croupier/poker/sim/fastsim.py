"""A compiled simulator for the blind community-card games (Hold'em, Omaha) with the
random policy: the same rules as :class:`~croupier.poker.state.HandState`, at C speed.

The kernel keeps the engine's betting rules (17.6(c)-(f), the short all-in rule, the
big blind's option, side pots at all-in levels, uncalled bets returned) and deals in the
engine's order, so every hand it plays can be replayed card for card and action for
action through the referee; ``tests/poker/test_poker_fastsim.py`` does exactly that.
It uses the PHH odd-chip convention (the first winner left of the button), a named
rule profile, because finding the hole cards used (17.5(e)) needs the best five.

>>> result = fast_simulate(players=6, hands=1000, stack=200, blinds=(1, 2), seed=1)
>>> int(result.totals.sum()), result.hands
(0, 1000)
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context

import numpy as np
import numpy.typing as npt

from croupier.errors import CroupierError
from croupier.evaluation.omaha_table import omaha_tables_for
from croupier.evaluation.rankings import STANDARD
from croupier.evaluation.tables import tables_for
from croupier.poker.games import GAMES
from croupier.poker.sim import _fastsim_kernel as kernel
from croupier.poker.sim import _fastsim_stud as stud_kernel

__all__ = ["CHUNK_HANDS", "FastResult", "fast_simulate", "fast_simulate_parallel"]

STRUCTURES = {"no-limit": 0, "pot-limit": 1, "fixed-limit": 2}
"""Betting structures the kernel plays."""

CHUNK_HANDS = 50_000
"""Hands per task of :func:`fast_simulate_parallel` (one seed each, whatever the workers)."""

HAND_SECONDS = (1.7e-6, 0.45e-6)
"""A kernel hand's cost, ``a + b x players`` seconds, at Hold'em (the fastest game) on the
reference core (one core of a 2-vCPU x86-64 cloud machine): 50,000 hands took 0.13 s at
two seats and 0.30 s at ten. It sizes Ray tasks only."""


@dataclass(frozen=True)
class FastResult:
    """What a fast simulation returns (chips in the table's units).

    >>> fast_simulate(players=3, hands=5, stack=30, blinds=(1, 2), seed=2).totals.shape
    (3,)
    """

    hands: int
    """Hands played."""
    totals: npt.NDArray[np.int64]
    """Net chips won by each seat (seat 1 first)."""
    squares: npt.NDArray[np.int64]
    """Sum of squared per-hand results, for standard errors."""
    decks: npt.NDArray[np.uint8] | None
    """With ``record``: each hand's cards in the order the engine deals them."""
    actions: npt.NDArray[np.int64] | None
    """With ``record``: each hand's decisions as (kind, amount) pairs, -1 padded."""


def fast_simulate(
    *,
    players: int,
    hands: int,
    stack: int,
    blinds: tuple[int, int],
    game: str = "holdem",
    structure: str = "no-limit",
    seed: int = 0,
    record: bool = False,
) -> FastResult:
    """Play ``hands`` hands of ``players`` seats with the random policy; the button moves a
    seat a hand and stacks reset every hand. ``record`` keeps every deck and decision.
    For stud (fixed limit), ``blinds`` is read as (ante, bring-in) and the bets are twice
    and four times the bring-in.

    >>> r = fast_simulate(players=2, hands=10, stack=50, blinds=(1, 2), seed=3, record=True)
    >>> r.decks.shape, bool((r.actions[:, 0] >= 0).all())
    ((10, 52), True)
    """
    if game not in ("holdem", "omaha", "stud5", "stud7"):
        raise CroupierError("the fast simulator plays holdem, omaha, stud5 and stud7")
    if not 2 <= players <= 10:
        raise CroupierError("2 to 10 players")
    t = tables_for(STANDARD)
    o = omaha_tables_for(STANDARD)
    small, big = blinds
    totals = np.zeros(players, np.int64)
    squares = np.zeros(players, np.int64)
    decks = np.zeros((hands if record else 0, 52), np.uint8)
    actions = np.full((hands if record else 0, 400), -1, np.int64)
    if game.startswith("stud"):
        if structure != "fixed-limit":
            raise CroupierError("the fast simulator plays stud in fixed limit")
        # ``blinds`` read as (ante, bring-in); the small bet is twice the bring-in
        stud_kernel.run_stud(
            players,
            hands,
            stack,
            small,
            big,
            2 * big,
            GAMES[game].hole_cards == 7,  # seven card stud (five card stud deals five)
            seed,
            record,
            t.card_key7,
            t.card_key5,
            t.card_suit_mask,
            t.nonflush7,
            t.nonflush5,
            t.flush,
            totals,
            squares,
            decks,
            actions,
        )
        return FastResult(
            hands, totals, squares, decks if record else None, actions if record else None
        )
    hole = GAMES[game].hole_cards
    kernel.run(
        players, hands, stack, small, big, hole, STRUCTURES[structure], seed, record,
        t.card_key7, t.card_key5, t.card_suit_mask, t.nonflush7, t.flush,
        o.board_index, o.hole_index, o.nonflush, o.holes,
        totals, squares, decks, actions,
    )  # fmt: skip
    return FastResult(hands, totals, squares, decks if record else None,
                      actions if record else None)  # fmt: skip


def _chunk(
    args: tuple[int, int, int, tuple[int, int], str, str, int],
) -> tuple[list[int], list[int]]:
    players, hands, stack, blinds, game, structure, seed = args
    result = fast_simulate(
        players=players,
        hands=hands,
        stack=stack,
        blinds=blinds,
        game=game,
        structure=structure,
        seed=seed,
    )
    return [int(x) for x in result.totals], [int(x) for x in result.squares]


def fast_simulate_parallel(
    *,
    players: int,
    hands: int,
    stack: int,
    blinds: tuple[int, int],
    game: str = "holdem",
    structure: str = "no-limit",
    seed: int | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
) -> FastResult:
    """:func:`fast_simulate` in tasks of :data:`CHUNK_HANDS` hands, each with its own seed
    spawned from ``seed`` (None: fresh randomness), spread over ``workers`` processes that
    each run the compiled kernel. The tasks do not depend on the worker count, so a seed
    gives the same result with any ``workers``. With ``ray`` (an address, see
    :mod:`croupier.distributed`) the same tasks run on a Ray cluster, grouped about two
    seconds of work a Ray task (:data:`HAND_SECONDS`): a seed gives the same result.

    >>> one = fast_simulate_parallel(players=3, hands=120, stack=40, blinds=(1, 2), seed=5)
    >>> two = fast_simulate_parallel(players=3, hands=120, stack=40, blinds=(1, 2), seed=5,
    ...                              workers=2)
    >>> one.totals.tolist() == two.totals.tolist(), int(one.totals.sum())
    (True, 0)
    """
    if hands < 1 or workers < 1:
        raise CroupierError("hands and workers must be at least 1")
    tasks = -(-hands // CHUNK_HANDS)
    seeds = [
        int(s.generate_state(1, np.uint32)[0]) for s in np.random.SeedSequence(seed).spawn(tasks)
    ]
    sizes = [min(CHUNK_HANDS, hands - i * CHUNK_HANDS) for i in range(tasks)]
    jobs = [
        (players, size, stack, blinds, game, structure, task_seed)
        for size, task_seed in zip(sizes, seeds, strict=True)
    ]
    totals = np.zeros(players, np.int64)
    squares = np.zeros(players, np.int64)

    def add(result: tuple[list[int], list[int]], count: int) -> None:
        totals[:] += np.array(result[0], np.int64)
        squares[:] += np.array(result[1], np.int64)
        if progress is not None and count:
            progress(count)

    if ray is not None:
        from croupier.distributed import chunks_per_task, run_chunks

        a, b = HAND_SECONDS
        for result in run_chunks(
            _chunk,
            jobs,
            address=ray,
            per_task=chunks_per_task(CHUNK_HANDS * (a + b * players)),
            sizes=sizes,
            progress=progress,
        ):
            add(result, 0)
    elif workers == 1 or tasks == 1:
        for job in jobs:
            add(_chunk(job), job[1])
    else:
        processes = min(workers, tasks)
        with ProcessPoolExecutor(max_workers=processes, mp_context=get_context("spawn")) as pool:
            for job, result in zip(jobs, pool.map(_chunk, jobs), strict=True):
                add(result, job[1])
    return FastResult(hands, totals, squares, None, None)
