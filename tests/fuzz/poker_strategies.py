"""Live poker hands for the fuzz suite: every game and structure, driven to a random point by
random legal play (each offered action must be accepted: the referee keeps its word)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from croupier.poker import (
    GAMES,
    FixedLimit,
    ForcedBets,
    GameSpec,
    HandState,
    NoLimit,
    Phase,
    PotLimit,
    SpreadLimit,
    TableRules,
)
from croupier.poker.structures import BettingStructure

STRUCTURES: dict[str, BettingStructure] = {
    "no-limit": NoLimit(),
    "pot-limit": PotLimit(),
    "fixed-limit": FixedLimit(10, 20),
    "spread-limit": SpreadLimit(10, 50),
}


def rules_for(game: GameSpec, structure: str) -> TableRules:
    """A plain table for ``game``: blinds 5/10 (or ante 2, bring-in 10), minimum 10."""
    if game.forced is ForcedBets.BLINDS:
        return TableRules(game, STRUCTURES[structure], blinds=(5, 10), table_minimum=10)
    return TableRules(game, STRUCTURES[structure], blinds=(), ante=2, bring_in=10, table_minimum=10)


def total_chips(hand: HandState) -> int:
    """Chips in stacks plus chips in the pot (awarded pots are back in the stacks)."""
    return sum(p.stack for p in hand.players.values()) + (0 if hand.is_complete else hand.total_pot)


def play_legal(draw: st.DrawFn, hand: HandState, steps: int) -> None:
    """Make up to ``steps`` random legal moves (dealer chores included); every move the
    referee offers must go through, and the chips must stay where they were."""
    chips = sum(p.starting_stack for p in hand.players.values())
    for _ in range(steps):
        phase = hand.phase
        if phase is Phase.COMPLETE:
            return
        if phase is Phase.DEALER:
            hand.step()
        elif phase is Phase.DRAWING:
            seat = hand.actor
            assert seat is not None
            down = list(hand.players[seat].down)
            hand.discard(draw(st.lists(st.sampled_from(down), unique=True)) if down else [])
        else:
            legal = hand.legal_actions()
            moves: list[tuple[str, Any]] = []
            if legal.fold:
                moves.append(("fold", None))
            if legal.check:
                moves.append(("check", None))
            if legal.call is not None:
                moves.append(("call", None))
            if legal.raise_to is not None:
                low, high = legal.raise_to
                moves.append(("raise_to", draw(st.sampled_from([low, high, (low + high) // 2]))))
            if legal.bring_in is not None:
                low, high = legal.bring_in
                moves.append(("bring_in", draw(st.sampled_from([low, high]))))
            assert moves, f"a betting round with nothing to do: {legal}"
            name, amount = draw(st.sampled_from(moves))
            if name == "raise_to" and amount % hand.rules.chip_unit:
                amount = legal.raise_to[0] if legal.raise_to else amount
            method = getattr(hand, name)
            method() if amount is None else method(amount)
        now = sum(p.stack for p in hand.players.values()) + (
            0 if hand.is_complete else hand.total_pot
        )
        assert now == chips, f"chips {chips} became {now} after a legal move"


@st.composite
def live_hands(draw: st.DrawFn, *, min_steps: int = 0, max_steps: int = 40) -> HandState:
    """A hand of any game and structure, 2-6 players with short and deep stacks, played to a
    random point (sometimes to the end, sometimes step by step with ``automatic=False``),
    mostly one where a player is to act."""
    game = draw(st.sampled_from(sorted(GAMES.values(), key=lambda g: g.name)))
    structure = draw(st.sampled_from(sorted(STRUCTURES)))
    rules = rules_for(game, structure)
    n = draw(st.integers(2, min(6, game.max_players)))
    stacks = {
        seat: draw(st.sampled_from([3, 15, 40, 100, 250, 250, 1000, 1000]))
        for seat in range(1, n + 1)
    }
    hand = HandState(
        rules,
        stacks,
        button=draw(st.integers(1, n)),
        seed=draw(st.integers(0, 2**32)),
        automatic=draw(st.booleans()),
    )
    steps = st.integers(min_steps, max_steps)
    play_legal(draw, hand, draw(st.one_of(st.integers(min_steps, min_steps + 8), steps)))
    if draw(st.integers(0, 9)) > 1:  # mostly stop where a player has a decision to make
        while hand.phase is Phase.DEALER:
            hand.step()
    return hand


def observe(hand: HandState) -> dict[str, Any]:
    """Everything observable about a hand: its snapshot, the deck's piles, the dealer's next
    chore, the seats conceded and what the player to act may do."""
    seen = dict(hand.snapshot())
    seen["deck"] = (hand.deck.remaining, hand.deck.dealt, hand.deck.burned, hand.deck.discards)
    seen["chore"] = (hand.next_chore, hand.street)
    seen["dead"] = tuple(sorted(hand.dead))
    seen["stacks"] = dict(hand.stacks)
    seen["legal"] = hand.legal_actions().describe() if hand.actor is not None else None
    return seen
