"""Rule profiles: the house rules a hand history was played under.

A PHH file carries no house rules; real files were played under PokerKit's conventions
(the odd chip to the first winner in pot order, the button posting the small blind
heads up, PokerKit's fixed-limit cap, its short all-in wagers, no raise nobody can call,
pots with the same winners paid as one). croupier's own files name their profile in
``_croupier_profile`` (and any setting that differs from it in its own field).

>>> PROFILES["phh"].odd_chip.value, PROFILES["nz"].odd_chip.value
('first-left-of-button', 'high-card-by-suit')
>>> PROFILES["phh"].raise_cap == POKERKIT_CAP, PROFILES["nz"].raise_cap == NZ_CAP
(True, True)
>>> PROFILES["phh"].short_all_in == POKERKIT_SHORT_ALL_IN, PROFILES["nz"].short_all_in.add_up
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from croupier.errors import CroupierError
from croupier.poker.settings import (
    NZ_CAP,
    NZ_SHORT_ALL_IN,
    POKERKIT_CAP,
    POKERKIT_SHORT_ALL_IN,
    HeadsUpBlinds,
    OddChip,
    RaiseCap,
    ShortAllIn,
)

__all__ = ["PROFILES", "SETTINGS", "RuleProfile", "UnknownProfileError", "profile_by_name"]


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
    short_all_in: ShortAllIn = NZ_SHORT_ALL_IN
    """What a short all-in wager does to the betting (Decisions 3.2-1, 3.2-2 or PokerKit's)."""
    raise_needs_a_caller: bool = False
    """Whether a raise needs an opponent with more chips than the bet (PokerKit)."""
    merge_pots_with_the_same_winners: bool = False
    """Whether pots won by the same players are divided once (PokerKit)."""

    def settings(self) -> dict[str, Any]:
        """The :class:`~croupier.poker.settings.TableRules` settings the profile fixes.

        >>> sorted(PROFILES["nz"].settings())  # doctest: +NORMALIZE_WHITESPACE
        ['heads_up', 'merge_pots_with_the_same_winners', 'odd_chip', 'raise_cap',
         'raise_needs_a_caller', 'short_all_in']
        """
        return {name: getattr(self, name) for name in SETTINGS}


SETTINGS: tuple[str, ...] = (
    "odd_chip",
    "heads_up",
    "raise_cap",
    "short_all_in",
    "raise_needs_a_caller",
    "merge_pots_with_the_same_winners",
)
"""The :class:`~croupier.poker.settings.TableRules` fields a profile fixes, in the order the
writer records those that differ (``_croupier_<name>``)."""

PROFILES: dict[str, RuleProfile] = {
    "phh": RuleProfile(
        "phh",
        OddChip.FIRST_LEFT_OF_BUTTON,
        HeadsUpBlinds.BUTTON_POSTS_FIRST,
        "PHH / PokerKit conventions: odd chip to the first winner left of the button (pot "
        "order), heads up the button posts the small blind (PHH's reversal), fixed limit "
        "capped at four completions, bets or raises a round after the blinds (short "
        "all-ins counted), head to head too; a wager is full when it raises at least as "
        "much as the round's largest raise (the first wager of a round always is), a "
        "limit bet over a short opening bet is a full bet on top, short all-ins in a row "
        "adding up to a full raise reopen the betting; no raise nobody can call; pots "
        "won by the same players divided once. The default for files without croupier's "
        "own fields.",
        POKERKIT_CAP,
        POKERKIT_SHORT_ALL_IN,
        raise_needs_a_caller=True,
        merge_pots_with_the_same_winners=True,
    ),
    "nz": RuleProfile(
        "nz",
        OddChip.HIGH_CARD_BY_SUIT,
        HeadsUpBlinds.LITERAL,
        "NZ Gazette rules: odd chip by the highest hole card used (17.5(e)), heads-up blinds "
        "as 17.1(c) reads, a bet and three raises with the last blind as the first round's "
        "bet and no cap head to head (17.6(f)), full raises only counted; a short all-in "
        "reopens nothing and a limit bet completes it (Decisions 3.2-1, 3.2-2, 17.6(c)); "
        "each pot divided on its own.",
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
