"""Helpers shared by the blackjack tests: stacked shoes, dealt rounds, settlements."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from hypothesis import strategies as st

from croupier.blackjack import (
    NZ,
    BlackjackRound,
    BlackjackRules,
    DealerBlackjackTakes,
    DoubleOn,
    HoleCard,
    PairsBy,
    Phase,
    Surrender,
)
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


def hand_to_play(rnd: BlackjackRound) -> tuple[int, int] | None:
    """``(box, hand)`` of the hand to play, or None (nobody acts, or an insurance turn)."""
    turn = rnd.actor
    return None if turn is None or turn.hand is None else (turn.box, turn.hand)


def totals(rnd: BlackjackRound, box: int = 1) -> list[int]:
    """Each hand's total on ``box``."""
    return [h.total for h in rnd.boxes[box].hands]


def assert_over(rnd: BlackjackRound) -> None:
    """The round is settled, nothing is left on the layout, and every planned card was used."""
    assert rnd.phase is Phase.COMPLETE
    assert hand_to_play(rnd) is None
    assert rnd.on_table == 0
    assert len(rnd.shoe) == 0
    assert isinstance(rnd.events[-1], ev.DealEnded)


def draw_play_settings(
    draw: st.DrawFn, *, decks: tuple[int, int], max_hands: tuple[int, int]
) -> dict[str, object]:
    """Draw every setting that changes how a round plays (for ``NZ.with_(**settings)``)."""
    return {
        "decks": draw(st.integers(*decks)),
        "dealer_hits_soft_17": draw(st.booleans()),
        "hole_card": draw(st.sampled_from(HoleCard)),
        "dealer_blackjack_takes_splits": draw(st.sampled_from(DealerBlackjackTakes)),
        "dealer_blackjack_takes_doubles": draw(st.sampled_from(DealerBlackjackTakes)),
        "double_on": draw(st.sampled_from(DoubleOn)),
        "double_after_split": draw(st.booleans()),
        "max_hands": draw(st.integers(*max_hands)),
        "pairs_by": draw(st.sampled_from(PairsBy)),
        "resplit_aces": draw(st.booleans()),
        "hit_split_aces": draw(st.booleans()),
        "blackjack_pays": draw(st.sampled_from([Fraction(3, 2), Fraction(6, 5), Fraction(1)])),
        "insurance": draw(st.booleans()),
        "surrender": draw(st.sampled_from(Surrender)),
    }
