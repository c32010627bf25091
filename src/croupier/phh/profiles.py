"""Rule profiles: the house rules a hand history was played under.

A PHH file carries no house rules; real files were played under PokerKit's conventions
(the odd chip to the first winner in pot order, the button posting the small blind
heads up, PokerKit's fixed-limit cap). croupier's own files name their profile in
``_croupier_profile`` (and any setting that differs from it in its own field).

>>> PROFILES["phh"].odd_chip.value, PROFILES["nz"].odd_chip.value
('first-left-of-button', 'high-card-by-suit')
>>> PROFILES["phh"].raise_cap == POKERKIT_CAP, PROFILES["nz"].raise_cap == NZ_CAP
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from croupier.errors import CroupierError
from croupier.poker.settings import NZ_CAP, POKERKIT_CAP, HeadsUpBlinds, OddChip, RaiseCap

__all__ = ["PROFILES", "RuleProfile", "UnknownProfileError", "profile_by_name"]


class UnknownProfileError(CroupierError, ValueError):
    """A rule profile croupier does not know.

    >>> profile_by_name("zz")
    Traceback (most recent call last):
    ...
    croupier.phh.profiles.UnknownProfileError: unknown rule profile 'zz': one of phh, nz
    """


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
    raise_cap: RaiseCap = NZ_CAP
    """The cap on bets and raises a round in fixed limit (17.6(f) or PokerKit's)."""

    def settings(self) -> dict[str, Any]:
        """The :class:`~croupier.poker.settings.TableRules` settings the profile fixes.

        >>> sorted(PROFILES["nz"].settings())
        ['heads_up', 'odd_chip', 'raise_cap']
        """
        return {"odd_chip": self.odd_chip, "heads_up": self.heads_up, "raise_cap": self.raise_cap}


PROFILES: dict[str, RuleProfile] = {
    "phh": RuleProfile(
        "phh",
        OddChip.FIRST_LEFT_OF_BUTTON,
        HeadsUpBlinds.BUTTON_POSTS_FIRST,
        "PHH / PokerKit conventions: odd chip to the first winner left of the button (pot "
        "order), heads up the button posts the small blind (PHH's reversal), fixed limit "
        "capped at four completions, bets or raises a round after the blinds, head to head "
        "too. The default for files without croupier's own fields.",
        POKERKIT_CAP,
    ),
    "nz": RuleProfile(
        "nz",
        OddChip.HIGH_CARD_BY_SUIT,
        HeadsUpBlinds.LITERAL,
        "NZ Gazette rules: odd chip by the highest hole card used (17.5(e)), heads-up blinds "
        "as 17.1(c) reads, a bet and three raises with the last blind as the first round's "
        "bet and no cap head to head (17.6(f)).",
        NZ_CAP,
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
        raise UnknownProfileError(
            f"unknown rule profile {name!r}: one of {', '.join(PROFILES)}"
        ) from None
