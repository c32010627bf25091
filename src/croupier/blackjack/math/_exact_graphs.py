"""State graphs for the exact blackjack analysis: player hands and dealer draws as multisets.

A blackjack hand's future depends only on the multiset of cards it holds (and on the
shoe less those cards), never on their order, so both graphs have one node per multiset:

* the **player graph**: every multiset of values 1 (ace) to 10 with a hard sum of at most
  21 (3,082 nodes), with the node each card leads to (or -1 for a bust);
* a **dealer graph** per up card and soft-17 rule: every multiset of drawn cards after
  which the dealer must still draw, with each card leading to another node or to a final
  outcome (17-21, blackjack, bust).

The graphs are plain numpy arrays, built once per process and shared by the kernels.

>>> g = player_graph()
>>> len(g.hard), int(g.hard[g.two[1, 6]]), int(g.total[g.two[1, 6]]), bool(g.soft[g.two[1, 6]])
(3082, 7, 17, True)
>>> d = dealer_graph(10, False)
>>> int(d.trans[0, 1])             # ten up, an ace drawn: blackjack (outcome 5, coded -6)
-6
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

__all__ = ["DealerGraph", "PlayerGraph", "dealer_graph", "player_graph"]

IntArray = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]

BLACKJACK, BUST = 5, 6
"""Dealer outcome codes 0-4 are totals 17-21; 5 a dealer blackjack; 6 a bust."""


def _best(hard: int, aces: bool) -> tuple[int, bool]:
    if aces and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


@dataclass(frozen=True)
class PlayerGraph:
    """Every player multiset with a hard sum of at most 21.

    >>> g = player_graph()
    >>> int(g.next[g.one[10], 10]) == int(g.two[10, 10]), int(g.next[g.two[10, 10], 5])
    (True, -1)
    """

    counts: IntArray
    """``counts[s, v]``: how many cards of value v (1-10) node s holds (column 0 unused)."""
    hard: IntArray
    """Hard sum (aces as 1)."""
    total: IntArray
    """Best total (an ace as 11 where it fits)."""
    soft: BoolArray
    """Whether an ace counts 11 in the best total."""
    cards: IntArray
    """Number of cards."""
    next: IntArray
    """``next[s, v]``: the node after drawing v, or -1 for a bust."""
    order: IntArray
    """Nodes by decreasing hard sum: every successor comes before its predecessors."""
    one: IntArray
    """``one[v]``: the one-card node {v}."""
    two: IntArray
    """``two[a, b]``: the two-card node {a, b}."""


@cache
def player_graph() -> PlayerGraph:
    """The player graph (built once per process, about 20 ms)."""
    nodes: list[tuple[int, ...]] = []

    def walk(value: int, held: list[int], hard: int) -> None:
        if value > 10:
            if sum(held):
                nodes.append(tuple(held))
            return
        k = 0
        while hard + k * value <= 21:
            held.append(k)
            walk(value + 1, held, hard + k * value)
            held.pop()
            k += 1

    walk(1, [], 0)
    index = {m: i for i, m in enumerate(nodes)}
    n = len(nodes)
    counts = np.zeros((n, 11), np.int32)
    hard = np.zeros(n, np.int32)
    total = np.zeros(n, np.int32)
    soft = np.zeros(n, np.bool_)
    cards = np.zeros(n, np.int32)
    nxt = np.full((n, 11), -1, np.int32)
    for i, m in enumerate(nodes):
        counts[i, 1:] = m
        h = sum((v + 1) * c for v, c in enumerate(m))
        hard[i] = h
        total[i], soft[i] = _best(h, m[0] > 0)
        cards[i] = sum(m)
        for v in range(1, 11):
            bigger = list(m)
            bigger[v - 1] += 1
            nxt[i, v] = index.get(tuple(bigger), -1)
    order = np.argsort(-hard, kind="stable").astype(np.int32)
    one = np.full(11, -1, np.int32)
    two = np.full((11, 11), -1, np.int32)
    for a in range(1, 11):
        single = [0] * 10
        single[a - 1] += 1
        one[a] = index[tuple(single)]
        for b in range(1, 11):
            pair = list(single)
            pair[b - 1] += 1
            two[a, b] = index[tuple(pair)]
    return PlayerGraph(counts, hard, total, soft, cards, nxt, order, one, two)


@dataclass(frozen=True)
class DealerGraph:
    """The dealer's drawing states for one up card: multisets of cards drawn after it.

    >>> d = dealer_graph(6, False)
    >>> int(d.counts.shape[0]) > 100, int(d.trans[0, 1])   # 6 then an ace: soft 17 stands
    (True, -1)
    """

    counts: IntArray
    """``counts[s, v]``: cards of value v drawn so far (the up card not included)."""
    drawn: IntArray
    """Cards drawn so far."""
    trans: IntArray
    """``trans[s, v]``: the next state, or ``-(outcome + 1)`` when the dealer is done."""


@cache
def dealer_graph(up: int, hits_soft_17: bool) -> DealerGraph:
    """The dealer graph for ``up`` (1 = ace, 10 = ten), S17 or H17 (built once, cached)."""
    start: tuple[int, ...] = (0,) * 10
    layer = [start]
    index = {start: 0}
    states = [start]
    transitions: list[list[int]] = []
    while layer:
        following: list[tuple[int, ...]] = []
        for m in layer:
            row = [0] * 11
            for v in range(1, 11):
                drawn = list(m)
                drawn[v - 1] += 1
                key = tuple(drawn)
                hard = up + sum((w + 1) * c for w, c in enumerate(key))
                total, soft = _best(hard, up == 1 or key[0] > 0)
                if sum(key) == 1 and total == 21:
                    row[v] = -(BLACKJACK + 1)
                elif total > 21:
                    row[v] = -(BUST + 1)
                elif total > 17 or (total == 17 and not (soft and hits_soft_17)):
                    row[v] = -(total - 17 + 1)
                else:
                    if key not in index:
                        index[key] = len(states)
                        states.append(key)
                        following.append(key)
                    row[v] = index[key]
            transitions.append(row)
        layer = following
    counts = np.zeros((len(states), 11), np.int32)
    for i, m in enumerate(states):
        counts[i, 1:] = m
    return DealerGraph(
        counts=counts,
        drawn=counts.sum(axis=1).astype(np.int32),
        trans=np.array(transitions, np.int32),
    )
