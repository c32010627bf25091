"""Pots: side pots by contribution level ("All-in"), and the NZ split with the odd chip (17.5(e)).

>>> pots = build_pots({1: 50, 2: 200, 3: 200}, folded=set())
>>> [(p.amount, p.eligible) for p in pots]      # DIGEST scenario 20
[(150, (1, 2, 3)), (300, (2, 3))]
>>> split_pot(105, [1, 2], unit=5, odd_chip_to=2)
{1: 50, 2: 55}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Pot", "build_pots", "split_pot"]


@dataclass(frozen=True)
class Pot:
    """A pot and the seats that can win it (those still in who contributed to its level)."""

    amount: int
    """Chips in the pot."""
    eligible: tuple[int, ...]
    """Seats that may win it, in seat order."""


def build_pots(contributions: Mapping[int, int], folded: set[int]) -> list[Pot]:
    """Split the chips put in by each seat into a main pot and side pots.

    Each level is set by an all-in player's total contribution: a player can win from
    each other player only as much as he or she put in (Poker definitions: All-in).
    Folded players' chips stay in the pots they can no longer win. Pots with one
    eligible seat and the same eligible set as the pot before are merged.

    >>> [(p.amount, p.eligible) for p in build_pots({1: 30, 2: 100, 3: 100}, folded={3})]
    [(90, (1, 2)), (140, (2,))]
    """
    live = sorted(s for s in contributions if s not in folded)
    levels = sorted({contributions[s] for s in live if contributions[s] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(
            min(c, level) - min(c, previous) for c in contributions.values() if c > previous
        )
        eligible = tuple(s for s in live if contributions[s] >= level)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount:
            pots.append(Pot(amount, eligible))
        previous = level
    leftover = sum(c - min(c, previous) for c in contributions.values())
    if leftover and pots:  # chips of folded players above every live level
        pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
    return pots


def split_pot(
    amount: int, winners: Sequence[int], *, unit: int, odd_chip_to: int
) -> dict[int, int]:
    """Divide a pot equally among ``winners`` down to the chip ``unit``; the remainder that
    cannot be divided goes to ``odd_chip_to`` (Omaha 17.5(e)).

    >>> split_pot(100, [1, 2, 3], unit=1, odd_chip_to=3)     # DIGEST scenario 19
    {1: 33, 2: 33, 3: 34}
    """
    if not winners:
        raise ValueError("a pot needs at least one winner")
    if odd_chip_to not in winners:
        raise ValueError("the odd chip must go to one of the winners")
    share = (amount // (unit * len(winners))) * unit
    out = dict.fromkeys(winners, share)
    out[odd_chip_to] += amount - share * len(winners)
    return out
