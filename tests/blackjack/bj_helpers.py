"""Helpers shared by the blackjack tests: stacked shoes, dealt rounds, settlements."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from croupier.blackjack import NZ, BlackjackRound, BlackjackRules
from croupier.blackjack import events as ev
from croupier.cards import Shoe, parse_cards


def shoe(cards: str) -> Shoe:
    """A 6-deck shoe that deals exactly ``cards`` (repeats allowed, as in a real shoe)."""
    return Shoe(6, cards=parse_cards(cards, unique=False))


def dealt(
    cards: str,
    *,
    rules: BlackjackRules = NZ,
    wagers: Sequence[tuple[int, str, int]] = ((1, "ann", 10),),
    bankrolls: Mapping[str, int] | None = None,
) -> BlackjackRound:
    """Place ``wagers`` (box, player, amount) and deal from a shoe stacked with ``cards``."""
    players = {player for _, player, _ in wagers}
    rnd = BlackjackRound(rules, shoe(cards), bankrolls or dict.fromkeys(players, 100))
    for box, player, amount in wagers:
        rnd.place_wager(box, player, amount)
    rnd.deal()
    return rnd


def settled(rnd: BlackjackRound) -> list[ev.HandSettled]:
    """The round's hand settlements, in log order."""
    return [e for e in rnd.events if isinstance(e, ev.HandSettled)]


def outcome(rnd: BlackjackRound, box: int, hand: int = 0, player: str = "ann") -> ev.HandSettled:
    """The one settlement of ``player``'s stake on ``box``'s hand ``hand``."""
    found = [s for s in settled(rnd) if (s.box, s.hand, s.player) == (box, hand, player)]
    assert len(found) == 1, found
    return found[0]
