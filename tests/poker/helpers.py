"""Helpers shared by the poker tests: stacked decks, seat order, playing a hand out, the
checks that an illegal action changes nothing, and reading the log."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

import pytest

from croupier.cards import Card, Deck
from croupier.errors import CroupierError
from croupier.poker import HandState, IllegalActionError, Phase
from croupier.poker import events as ev
from croupier.poker.views import SeatView

FULL_DECK = tuple(f"{rank}{suit}" for rank in "23456789TJQKA" for suit in "cdhs")
"""The 52 cards as text, in index order (that of :func:`croupier.cards.full_deck`)."""

E = TypeVar("E", bound=ev.Event)


# ------------------------------------------------------------------------ decks and seats
def clockwise(seats: Sequence[int], button: int) -> list[int]:
    """Seats in deal order: clockwise from the one left of ``button``."""
    ordered = sorted(seats)
    return [s for s in ordered if s > button] + [s for s in ordered if s <= button]


def community_deck(holes: Mapping[int, str], button: int, board: str = "", burns: str = "") -> Deck:
    """A whole 52-card deck that deals ``holes`` (one card at a time, clockwise from left of
    the button), then burn, flop, burn, turn, burn, river; the burns are ``burns`` or the
    first unused cards, and the rest of the deck follows in index order."""
    around = clockwise(list(holes), button)
    own = {s: holes[s].split() for s in holes}
    per_player = len(own[around[0]])
    order = [own[s][k] for k in range(per_player) for s in around]
    used = set(order) | set(board.split()) | set(burns.split())
    spare = [c for c in FULL_DECK if c not in used]
    burn = burns.split() or [spare.pop(0) for _ in range(3)]
    cards = board.split()
    if cards:
        order += [burn[0], *cards[:3], burn[1], cards[3], burn[2], cards[4]]
    rest = [c for c in FULL_DECK if c not in set(order)]  # a whole deck (Defective Deck)
    return Deck.stacked([*order, *rest])


# ----------------------------------------------------------------------------- playing
def play_round(hand: HandState) -> None:
    """Call or check every decision of the current betting round."""
    street = hand.street
    while hand.actor is not None and hand.street == street:
        if hand.legal_actions().check:
            hand.check()
        else:
            hand.call()


def passive(hand: HandState, *, until_street: int | None = None) -> None:
    """Play the hand out with the least action: check, else call, else the smallest
    bring-in; stand pat on a draw; run each dealer chore of a hand not played
    automatically. Stops at ``until_street`` if given."""
    while not hand.is_complete:
        if until_street is not None and hand.street >= until_street:
            return
        if hand.phase is Phase.DEALER:
            hand.step()
            continue
        legal = hand.legal_actions()
        if legal.discard:
            hand.discard([])
        elif legal.bring_in is not None:
            hand.bring_in(legal.bring_in[0])
        elif legal.check:
            hand.check()
        else:
            hand.call()


# -------------------------------------------------------------------- illegal actions
def refused(
    hand: HandState,
    action: Callable[..., object],
    *args: object,
    error: type[CroupierError] = IllegalActionError,
) -> CroupierError:
    """Run ``action(*args)``, which must fail with ``error``; the hand is exactly as before
    (its snapshot). Returns the error."""
    before = hand.snapshot()
    with pytest.raises(error) as info:
        action(*args)
    assert hand.snapshot() == before
    return info.value


def illegal(hand: HandState, action: Callable[..., object], *args: object) -> IllegalActionError:
    """Run an illegal ``action(*args)``: it raises :class:`IllegalActionError` saying what
    is legal (``allowed`` is the player's legal options, described) and changes nothing
    (the snapshot and the legal actions are as before). Returns the error, to check its
    rule."""
    legal = hand.legal_actions()
    error = refused(hand, action, *args)
    assert isinstance(error, IllegalActionError)
    assert error.allowed == legal.describe()
    assert hand.legal_actions() == legal
    return error


# --------------------------------------------------------------------------- the log
def events_of(hand: HandState, kind: type[E]) -> list[E]:
    """The hand's events of one kind, in order."""
    return [e for e in hand.events if isinstance(e, kind)]


def winners(hand: HandState) -> dict[int, int]:
    """Chips won by seat over every pot."""
    out: dict[int, int] = {}
    for award in hand.awards:
        for seat, chips in award.shares:
            out[seat] = out.get(seat, 0) + chips
    return out


def cards_in_view(view: SeatView) -> set[Card]:
    """Every card a view holds anywhere: the board, the seats, the events' fields."""
    found = set(view.board)
    for player in view.players:
        found.update(c for c in (*player.up, *player.down) if c is not None)
    for event in view.events:
        for value in vars(event).values():
            if isinstance(value, Card):
                found.add(value)
            elif isinstance(value, tuple):
                found.update(c for c in value if isinstance(c, Card))
    return found
