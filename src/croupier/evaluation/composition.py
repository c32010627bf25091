"""How a player's five-card hand may be formed from own cards and community cards.

>>> ANY_FIVE.describe(), EXACTLY_TWO_PLUS_THREE.describe()
('best five of all cards', 'exactly 2 own cards and exactly 3 board cards')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ANY_FIVE", "EXACTLY_TWO_PLUS_THREE", "Composition"]


@dataclass(frozen=True)
class Composition:
    """Which cards may make the five: any five at all, or exactly so many own and board cards.

    ``own`` and ``board`` are None for "any number" (Hold'em, stud, draw); Omaha
    (17.5(d)) and the Manila games use exactly two own cards and three board cards.

    >>> Composition(own=2, board=3).is_exact
    True
    """

    own: int | None = None
    """Exactly this many of the player's own cards, or None for any number."""
    board: int | None = None
    """Exactly this many community cards, or None for any number."""

    def __post_init__(self) -> None:
        if (self.own is None) != (self.board is None):
            raise ValueError("give both own and board counts, or neither")
        if self.own is not None and self.board is not None and self.own + self.board != 5:
            raise ValueError("own + board must make five cards")

    @property
    def is_exact(self) -> bool:
        """Whether the counts of own and board cards are fixed."""
        return self.own is not None

    def describe(self) -> str:
        """Plain-English statement of the rule.

        >>> Composition(2, 3).describe()
        'exactly 2 own cards and exactly 3 board cards'
        """
        if self.own is None:
            return "best five of all cards"
        return f"exactly {self.own} own cards and exactly {self.board} board cards"


ANY_FIVE = Composition()
"""Best five of any of the cards (Hold'em, stud, draw)."""

EXACTLY_TWO_PLUS_THREE = Composition(own=2, board=3)
"""Exactly two own cards and three board cards (Omaha 17.5(d), Manila 14 and 15)."""
