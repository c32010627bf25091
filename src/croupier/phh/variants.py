"""PHH variant codes: the one map from a code to croupier's game and betting structure.

The reader takes the required fields from here, the replay the game and the structure,
and the writer the code of a croupier hand; no other module spells a variant code out.

>>> VARIANTS["PO"].game.name, VARIANTS["PO"].structure
('omaha', 'pot-limit')
>>> variant_of("stud7", "fixed-limit"), variant_of("stud5", "fixed-limit")
('F7S', None)
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.poker.games import HOLDEM, OMAHA, SEVEN_CARD_STUD, ForcedBets, GameSpec

__all__ = ["CROUPIER_VARIANT", "KNOWN_VARIANTS", "VARIANTS", "PHHVariant", "variant_of"]


@dataclass(frozen=True)
class PHHVariant:
    """A PHH variant croupier plays.

    >>> VARIANTS["F7S"].required[:2]
    ('antes', 'bring_in')
    """

    code: str
    """The PHH code (``NT``)."""
    game: GameSpec
    """croupier's game."""
    structure: str
    """The betting structure's name (``BettingStructure.name``): ``no-limit``,
    ``pot-limit`` (a full pot) or ``fixed-limit``."""
    required: tuple[str, ...]
    """The fields the variant needs besides ``variant``."""


def _variant(code: str, game: GameSpec, structure: str) -> PHHVariant:
    forced = ("blinds_or_straddles",) if game.forced is ForcedBets.BLINDS else ("bring_in",)
    sizes = ("small_bet", "big_bet") if structure == "fixed-limit" else ("min_bet",)
    return PHHVariant(
        code, game, structure, ("antes", *forced, *sizes, "starting_stacks", "actions")
    )


VARIANTS: dict[str, PHHVariant] = {
    v.code: v
    for v in (
        _variant("NT", HOLDEM, "no-limit"),
        _variant("PO", OMAHA, "pot-limit"),
        _variant("FT", HOLDEM, "fixed-limit"),
        _variant("F7S", SEVEN_CARD_STUD, "fixed-limit"),
    )
}
"""The variants croupier plays, by code."""

KNOWN_VARIANTS: tuple[str, ...] = (
    "FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB",
)  # fmt: skip
"""Every variant code of PHH 0.0.2."""

CROUPIER_VARIANT = "_croupier"
"""The code croupier writes for a game PHH lacks (its ``_croupier_*`` fields describe it)."""

_BY_GAME = {(v.game.name, v.structure): v.code for v in VARIANTS.values()}


def variant_of(game: str, structure: str) -> str | None:
    """The PHH code of a game and a betting structure (by name), None if PHH lacks it
    (a pot-limit game with another pot ratio is not ``pot-limit``; see the writer).

    >>> variant_of("holdem", "no-limit"), variant_of("holdem", "pot-limit")
    ('NT', None)
    """
    return _BY_GAME.get((game, structure))
