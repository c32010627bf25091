"""The observation encoding of :mod:`croupier.envs.poker`: how a seat view becomes the
fixed-size vector an agent observes.

What an agent observes comes from its seat view alone
(:meth:`HandState.view_for <croupier.poker.state.HandState.view_for>`), never from the
referee: :class:`ObservationLayout` turns it into a float32 vector, every entry in [0, 1],
whose length depends only on the game and the number of players.

>>> from croupier.poker import HOLDEM, HandState, TableRules
>>> hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7)
>>> layout = ObservationLayout(HOLDEM, 3)
>>> vector = layout.encode(hand.view_for(1))
>>> vector.shape, vector.dtype, vector[layout.offset("position") :].tolist()  # on the button
((413,), dtype('float32'), [1.0, 0.0, 0.0])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from croupier.errors import CroupierError
from croupier.poker import events as ev
from croupier.poker.games import GameSpec
from croupier.poker.views import SeatView

__all__ = ["ObservationLayout"]

PER_PLAYER = (
    "stack",
    "bet",
    "committed",
    "forced",
    "folded",
    "all_in",
    "to_act",
    "button",
    "down_cards",
    "discarded",
    "drawn",
)
"""The features of each player (see :class:`ObservationLayout`)."""

PER_STREET = ("bets_and_raises", "chips", "called", "checked")
"""The history summary of each player on each street (see :class:`ObservationLayout`)."""

BETTING = (
    "pot",
    "to_call",
    "current_bet",
    "min_raise_to",
    "max_raise_to",
    "bets_this_round",
    "players_in_hand",
    "players_able_to_act",
)
"""The betting features (see :class:`ObservationLayout`)."""

_RAISES_SCALE = 4
"""Bets and raises are counted in fours (the NZ cap is a bet and three raises) and clipped at 1."""


@dataclass(frozen=True)
class ObservationLayout:
    """The observation vector of one game at a table of ``players``: float32, every entry in
    [0, 1], in these sections (``N`` players, ``S`` streets of the game; "slot k" is the
    player ``k`` seats clockwise from the observer, slot 0 the observer; chip amounts are
    divided by ``T``, the chips on the table at the start of the hand):

    ================  ==========  =====================================================
    section           size        contents
    ================  ==========  =====================================================
    own_down          52          the observer's face-down cards, one-hot by card index
                                  (``4 * rank + suit``, 2c = 0 .. As = 51)
    visible_cards     N x 52      for each slot, every card of that player the observer
                                  sees (own cards; others' up cards and shown cards)
    board             52          the community cards
    own_discards      52          the observer's discards (draw)
    players           N x 11      for each slot: stack/T, bet this round/T, committed
                                  this hand/T, forced bets (blinds, ante)/T, folded,
                                  all in, to act, has the button, down cards held /
                                  the game's cards a player, cards discarded / 5, has
                                  drawn
    history           N x S x 4   for each slot and street: bets and raises made / 4
                                  (clipped at 1), chips put in voluntarily/T (a
                                  returned bet taken off), called, checked
    pots              N           the main pot and side pots/T, in order (zeros after)
    betting           8           pot/T, to call/T, current bet/T, smallest and largest
                                  legal raise-to/T (0 unless the observer acts), bets and
                                  raises this round / 4, players in the hand / N,
                                  players able to act / N
    street            S           the street, one-hot
    phase             2           a draw is due, the hand is over
    position          N           the observer's seats clockwise from the button, one-hot
    ================  ==========  =====================================================

    >>> from croupier.poker import HOLDEM
    >>> layout = ObservationLayout(HOLDEM, 6)
    >>> layout.size, layout.offset("board"), layout.sections[-1]
    (656, 364, ('position', 650, 6))
    """

    game: GameSpec
    """The game."""
    players: int
    """Players at the table."""

    @property
    def sections(self) -> tuple[tuple[str, int, int], ...]:
        """``(name, offset, size)`` of each section, in order."""
        n, s = self.players, len(self.game.streets)
        sizes = (
            ("own_down", 52),
            ("visible_cards", n * 52),
            ("board", 52),
            ("own_discards", 52),
            ("players", n * len(PER_PLAYER)),
            ("history", n * s * len(PER_STREET)),
            ("pots", n),
            ("betting", len(BETTING)),
            ("street", s),
            ("phase", 2),
            ("position", n),
        )
        out: list[tuple[str, int, int]] = []
        offset = 0
        for name, size in sizes:
            out.append((name, offset, size))
            offset += size
        return tuple(out)

    @property
    def size(self) -> int:
        """The vector's length."""
        _, offset, size = self.sections[-1]
        return offset + size

    def offset(self, section: str) -> int:
        """Where ``section`` starts."""
        for name, offset, _ in self.sections:
            if name == section:
                return offset
        raise CroupierError(f"no section {section!r}: one of {[s[0] for s in self.sections]}")

    def encode(self, view: SeatView) -> npt.NDArray[np.float32]:
        """The observation of the seat whose ``view`` this is, from the view alone.

        >>> from croupier.poker import HOLDEM, HandState, TableRules
        >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=3)
        >>> vector = ObservationLayout(HOLDEM, 2).encode(hand.view_for(2))
        >>> int(vector[:52].sum()), float(vector.max()) <= 1.0
        (2, True)
        """
        if view.seat is None:
            raise CroupierError("an observation is a seat's: a spectator's view has none")
        game, n = self.game, self.players
        streets = len(game.streets)
        out = np.zeros(self.size, dtype=np.float32)
        players = view.players
        if len(players) != n:
            raise CroupierError(f"the view has {len(players)} players; the layout {n}")
        seats = [p.seat for p in players]
        me = seats.index(view.seat)
        slot_of = {seat: (i - me) % n for i, seat in enumerate(seats)}
        start = view.events[0]
        if not isinstance(start, ev.HandStarted):
            raise CroupierError("a seat view's log starts with HandStarted")
        starting = dict(zip(start.seats, start.stacks, strict=True))
        total = max(sum(start.stacks), 1)
        offsets = {name: offset for name, offset, _ in self.sections}

        # cards
        own = players[me]
        base = offsets["own_down"]
        for card in own.down:
            if card is not None:
                out[base + card.index] = 1.0
        base = offsets["visible_cards"]
        for player in players:
            first = base + slot_of[player.seat] * 52
            for card in (*player.up, *player.down):
                if card is not None:
                    out[first + card.index] = 1.0
        base = offsets["board"]
        for card in view.board:
            out[base + card.index] = 1.0

        # the history, from the seat's censored log
        street = 0
        round_bet: dict[int, int] = dict.fromkeys(seats, 0)
        forced: dict[int, int] = dict.fromkeys(seats, 0)
        discarded: dict[int, int] = dict.fromkeys(seats, 0)
        drawn: set[int] = set()
        history = np.zeros((n, streets, len(PER_STREET)), dtype=np.float64)
        own_discards = offsets["own_discards"]
        for event in view.events:
            match event:
                case ev.BetsCollected():
                    street = min(street + 1, streets - 1)
                    round_bet = dict.fromkeys(seats, 0)
                case ev.AntePosted(seat=seat, amount=amount):
                    forced[seat] += amount
                case ev.BlindPosted(seat=seat, amount=amount):
                    forced[seat] += amount
                    round_bet[seat] += amount
                case ev.BringIn(seat=seat, to=to):
                    history[slot_of[seat], street, 1] += to - round_bet[seat]
                    round_bet[seat] = to
                case ev.Called(seat=seat, amount=amount):
                    history[slot_of[seat], street, 1] += amount
                    history[slot_of[seat], street, 2] = 1.0
                    round_bet[seat] += amount
                case ev.Checked(seat=seat):
                    history[slot_of[seat], street, 3] = 1.0
                case ev.RaisedTo(seat=seat, to=to):
                    history[slot_of[seat], street, 0] += 1
                    history[slot_of[seat], street, 1] += to - round_bet[seat]
                    round_bet[seat] = to
                case ev.BetReturned(seat=seat, amount=amount):
                    line = history[slot_of[seat], street]
                    line[1] = max(line[1] - amount, 0)
                case ev.Discarded(seat=seat, cards=cards):
                    discarded[seat] += len(cards)
                    drawn.add(seat)
                    if seat == view.seat:
                        for card in cards:
                            out[own_discards + card.index] = 1.0
                case ev.HiddenCards(seat=seat, count=count, what="discarded") if seat is not None:
                    discarded[seat] += count
                    drawn.add(seat)
                case _:
                    pass
        bets_this_round = float(history[:, street, 0].sum())
        history[:, :, 0] = np.minimum(history[:, :, 0] / _RAISES_SCALE, 1.0)
        history[:, :, 1] = np.clip(history[:, :, 1] / total, 0.0, 1.0)
        base = offsets["history"]
        out[base : base + history.size] = history.reshape(-1)

        # the players
        base = offsets["players"]
        width = len(PER_PLAYER)
        cards_a_player = max(game.hole_cards, 1)
        for player in players:
            slot = slot_of[player.seat]
            committed = max(starting.get(player.seat, 0) - player.stack, 0)
            features = (
                player.stack / total,
                player.bet / total,
                committed / total,
                forced[player.seat] / total,
                float(player.folded),
                float(player.all_in),
                float(view.actor == player.seat),
                float(view.button == player.seat),
                len(player.down) / cards_a_player,
                discarded[player.seat] / 5,
                float(player.seat in drawn),
            )
            out[base + slot * width : base + (slot + 1) * width] = np.clip(features, 0.0, 1.0)

        # pots and betting
        base = offsets["pots"]
        for i, amount in enumerate(view.pots[:n]):
            out[base + i] = min(amount / total, 1.0)
        legal = view.legal
        low = high = 0
        if legal is not None and legal.raise_to is not None:
            low, high = legal.raise_to
        elif legal is not None and legal.bring_in is not None:
            low, high = legal.bring_in
        in_hand = [p for p in players if not p.folded]
        able = [p for p in in_hand if not p.all_in and p.stack > 0]
        betting = (
            view.pot / total,
            view.to_call / total,
            max((p.bet for p in players), default=0) / total,
            low / total,
            high / total,
            bets_this_round / _RAISES_SCALE,
            len(in_hand) / n,
            len(able) / n,
        )
        base = offsets["betting"]
        out[base : base + len(BETTING)] = np.clip(betting, 0.0, 1.0)

        # street, phase, position
        names = [s.name for s in game.streets]
        if view.street in names:
            out[offsets["street"] + names.index(view.street)] = 1.0
        base = offsets["phase"]
        out[base] = float(legal is not None and legal.discard)
        out[base + 1] = float(view.complete)
        if view.button in seats:
            out[offsets["position"] + (me - seats.index(view.button)) % n] = 1.0
        return out
