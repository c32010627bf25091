"""Rule profiles: the house rules a hand history was played under.

A PHH file carries no house rules; real files were played under PokerKit-like
conventions (the odd chip to the first winner in pot order, the button posting the
small blind heads up). croupier's own files name their profile in ``_croupier_profile``.

>>> PROFILES["phh"].odd_chip.value, PROFILES["nz"].odd_chip.value
('first-left-of-button', 'high-card-by-suit')
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.poker.settings import HeadsUpBlinds, OddChip

__all__ = ["PROFILES", "RuleProfile", "profile_by_name"]


@dataclass(frozen=True)
class RuleProfile:
    """The settings a replay uses where PHH is silent.

    >>> PROFILES["phh"].heads_up
    <HeadsUpBlinds.BUTTON_POSTS_FIRST: 'button-posts-first'>
    """

    name: str
    """Identifier (``phh`` or ``nz``)."""
    odd_chip: OddChip
    """Who gets an indivisible remainder."""
    heads_up: HeadsUpBlinds
    """Heads-up blind order."""
    description: str
    """What the profile is for."""


PROFILES: dict[str, RuleProfile] = {
    "phh": RuleProfile(
        "phh",
        OddChip.FIRST_LEFT_OF_BUTTON,
        HeadsUpBlinds.BUTTON_POSTS_FIRST,
        "PHH / PokerKit conventions: odd chip to the first winner left of the button (pot "
        "order), heads up the button posts the small blind (PHH's reversal). The default for "
        "files without croupier's own fields.",
    ),
    "nz": RuleProfile(
        "nz",
        OddChip.HIGH_CARD_BY_SUIT,
        HeadsUpBlinds.LITERAL,
        "NZ Gazette rules: odd chip by the highest hole card used (17.5(e)), heads-up blinds "
        "as 17.1(c) reads.",
    ),
}
"""The named profiles."""


def profile_by_name(name: str) -> RuleProfile:
    """Look a profile up.

    >>> profile_by_name("nz").name
    'nz'
    """
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown rule profile {name!r}: one of {', '.join(PROFILES)}") from None
