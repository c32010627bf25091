"""Pots: side pots by contribution level ("All-in"), and the NZ split with the odd chip (17.5(e)).

>>> pots = build_pots({1: 50, 2: 200, 3: 200}, folded=set(), all_in={1})
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


def build_pots(
    contributions: Mapping[int, int], folded: set[int], all_in: set[int] | None = None
) -> list[Pot]:
    """Split the chips put in by each seat into a main pot and side pots.

    Each side-pot level is set by an all-in player's total contribution: an all-in
    player can win only as much from each other player as he or she put in (Poker
    definitions: All-in). A player who is not all in contests every pot, whatever
    dead money (antes, a dead blind) others put in beyond him. Folded players' chips
    stay in the pots they can no longer win. With ``all_in`` None, every live player
    who put in less than the most is taken to be all in.

    >>> [(p.amount, p.eligible) for p in build_pots({1: 30, 2: 100, 3: 100}, folded={3})]
    [(90, (1, 2)), (140, (2,))]
    >>> [(p.amount, p.eligible) for p in build_pots({1: 50, 2: 40}, set(), all_in=set())]
    [(90, (1, 2))]
    """
    live = sorted([s for s in contributions if s not in folded])
    if all_in is not None and live and not any(s in all_in for s in live):
        total = sum(contributions.values())  # nobody in the hand is all in: one pot
        return [Pot(total, tuple(live))] if total else []
    if all_in is None:
        top = max([contributions[s] for s in live], default=0)
        all_in = {s for s in live if contributions[s] < top}
    caps = sorted({contributions[s] for s in live if s in all_in and contributions[s] > 0})
    covering = [s for s in live if s not in all_in]
    levels: list[int | None] = [*caps, None] if covering else list(caps)
    amounts = list(contributions.values())
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        if level is None:
            amount = _above(amounts, previous)
            eligible = tuple(covering)
        else:
            amount = _above(amounts, previous) - _above(amounts, level)  # between the levels
            eligible = tuple([s for s in live if s not in all_in or contributions[s] >= level])
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount:
            pots.append(Pot(amount, eligible))
        previous = level if level is not None else previous
    if not covering and pots:  # chips above the last all-in level (folded players')
        leftover = _above(amounts, previous)
        pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
    return pots


def _above(amounts: list[int], level: int) -> int:
    """The chips put in above ``level``: each amount's part over it.

    >>> _above([30, 100, 100], 50)
    100
    """
    total = 0
    for amount in amounts:
        if amount > level:
            total += amount - level
    return total


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
