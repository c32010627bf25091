"""Who posts the blinds: pure functions of the seats, the button and the house's heads-up
rule, shared by the hand (:class:`~croupier.poker.state.HandState`) and the table
(:class:`~croupier.poker.table.Table`), so the two can never disagree.

>>> blind_posters((1, 3, 5), button=5, count=2, heads_up=HeadsUpBlinds.LITERAL)
[1, 3]
>>> button_for_last_blind((1, 3, 5), last=5, count=2, heads_up=HeadsUpBlinds.LITERAL)
1
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.poker.settings import HeadsUpBlinds

__all__ = ["blind_posters", "button_for_last_blind", "clockwise_from"]


def clockwise_from(order: Sequence[int], seat: int) -> list[int]:
    """The seats of ``order`` clockwise, starting just after ``seat``.

    >>> clockwise_from((1, 4, 6), 4)
    [6, 1, 4]
    """
    later = [s for s in order if s > seat]
    return later + [s for s in order if s <= seat]


def blind_posters(
    order: Sequence[int], button: int, count: int, heads_up: HeadsUpBlinds
) -> list[int]:
    """The seats posting ``count`` blinds, first to last: clockwise from the button's left
    (17.1(c)); heads up with ``BUTTON_POSTS_FIRST`` the button posts the first blind.

    >>> blind_posters((2, 7), button=2, count=2, heads_up=HeadsUpBlinds.BUTTON_POSTS_FIRST)
    [2, 7]
    """
    around = clockwise_from(order, button)
    if len(order) == 2 and heads_up is HeadsUpBlinds.BUTTON_POSTS_FIRST:
        around = [button, *[s for s in order if s != button]]
    return [around[i % len(around)] for i in range(count)]


def button_for_last_blind(
    order: Sequence[int], last: int, count: int, heads_up: HeadsUpBlinds
) -> int:
    """The button seat that makes ``last`` post the last of ``count`` blinds.

    >>> button_for_last_blind((2, 7), last=7, count=2, heads_up=HeadsUpBlinds.BUTTON_POSTS_FIRST)
    2
    """
    for button in order:
        if blind_posters(order, button, count, heads_up)[-1] == last:
            return button
    raise ValueError(f"no button makes seat {last} post the last blind")  # pragma: no cover
