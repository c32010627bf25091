"""Dealing, one part of :class:`~croupier.poker.state.HandState`: the deck and its check,
the deal of each street, burns, boxed cards, the draw and its restock (Draw 11), and the
cards a live dealer enters.

>>> from croupier.poker import DRAW, HandState, NoLimit, TableRules
>>> hand = HandState(TableRules(DRAW, NoLimit()), {1: 100, 2: 100, 3: 100}, button=1, seed=2)
>>> [type(e).__name__ for e in hand.events[1:5]]
['DeckCut', 'BlindPosted', 'BlindPosted', 'CardsDealt']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from croupier.cards.card import Card, parse_cards
from croupier.cards.deck import Deck
from croupier.errors import (
    CroupierError,
    IllegalActionError,
    InvalidActionError,
    RuleViolationError,
)
from croupier.poker import events as ev
from croupier.poker._core import HandCore, PlayerState, Stage, _malformed, _parse_discards
from croupier.poker.actions import LegalActions
from croupier.poker.games import GameSpec

__all__ = ["Dealer", "verify_deck"]


def verify_deck(deck: Deck, game: GameSpec, game_cards: frozenset[Card]) -> None:
    """Refuse a deck that does not fit the game (Poker definitions: Defective Deck):
    already dealt from, a wrong count, or cards the game's deck does not hold. An empty
    deck is allowed: the caller places each deal's cards on it (a replayed record).

    >>> from croupier.cards import Deck
    >>> from croupier.poker import MANILA
    >>> deck = Deck.standard(seed=1)
    >>> verify_deck(deck, MANILA, frozenset(Deck.stripped(MANILA.ranking.lowest_rank).remaining))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    croupier.errors.RuleViolationError: Poker definitions: Defective Deck: ... has no ...
    """
    if deck.dealt or deck.burned or deck.discards:
        raise RuleViolationError(
            "Poker definitions: Defective Deck",
            "the deck has already been dealt from",
            "a whole, undealt deck",
        )
    cards = deck.remaining
    if not cards:
        return
    stray = sorted(c for c in cards if c not in game_cards)
    if stray:
        raise RuleViolationError(
            "Poker definitions: Defective Deck",
            f"{game.title} is dealt from a {len(game_cards)}-card deck, which has no {stray[0]}",
            f"the {len(game_cards)} cards of the game's deck",
        )
    if len(cards) != len(game_cards):
        raise RuleViolationError(
            "Poker definitions: Defective Deck",
            f"the deck has {len(cards)} cards; {game.title} needs all {len(game_cards)}",
            f"the {len(game_cards)} cards of the game's deck",
        )


class Dealer:
    """The dealing of one hand, over the shared :class:`~croupier.poker._core.HandCore`:
    the deck, each street's cards, the draw. Its actions check nothing (the ``verify_``
    methods do) and return the event they log.

    >>> from croupier.cards import Deck
    >>> from croupier.poker import TableRules
    >>> core = HandCore(TableRules(), button=1, stacks={1: 100, 2: 100})
    >>> dealer = Dealer(core, Deck.standard(seed=1), game_cards=frozenset(Deck.standard().remaining))
    >>> core.stage = Stage.DEAL; dealer.deal_street(); len(dealer.deck), core.stage
    (48, <Stage.BET: 'bet'>)
    """

    def __init__(
        self,
        core: HandCore,
        deck: Deck,
        *,
        game_cards: frozenset[Card],
        restock_seed: int = 0,
    ) -> None:
        self.core = core
        """The hand this dealing is part of."""
        self.deck = deck
        """The deck (its dealt, burned and discard piles are the record of the cards)."""
        self.game_cards = game_cards
        """The cards of the game's deck."""
        self.placed = not deck.remaining
        """Whether the caller places each deal's cards (an empty deck at the start)."""
        self.restock_orders: list[tuple[Card, ...]] = []
        """Restock orders to reuse, oldest first (a replay's, from its log)."""
        self._restock_seed = restock_seed
        self._restocked: set[Card] = set()
        self._pending_draw: tuple[int, tuple[Card, ...]] | None = None

    def copy(self, core: HandCore) -> Dealer:
        """An independent copy over ``core`` (a copy of this one's hand)."""
        twin = object.__new__(Dealer)
        twin.__dict__.update(self.__dict__)
        twin.core = core
        twin.deck = self.deck.copy()
        twin.restock_orders = self.restock_orders[:]
        twin._restocked = set(self._restocked)
        return twin

    def _check_placed(self, cards: Sequence[Card]) -> None:
        """Cards placed by the caller (an empty deck at the start) must be of the game's deck."""
        if self.placed:
            stray = [c for c in cards if c not in self.game_cards]
            if stray:
                raise RuleViolationError(
                    "Poker definitions: Defective Deck",
                    f"{self.core.game.title} has no {stray[0]} in its deck",
                    f"the {len(self.game_cards)} cards of the game's deck",
                )

    def _draw(self, n: int) -> tuple[Card, ...]:
        if len(self.deck) < n:  # draw poker: shuffle the discards to finish the stub
            self._restock(n)
        if self.placed:  # only a caller-placed deck needs checking; keep the deal cheap
            self._check_placed(self.deck.peek(n))
        return self.deck.draw(n)

    def _burn(self) -> Card:
        if self.placed:
            self._check_placed(self.deck.peek(1))
        return self.deck.burn()

    def _restock(self, n: int) -> None:
        """Shuffle the discards with the hand's random source (never a fixed order: a player
        must not know who receives his discards, Draw 11) and put them under the stub. A
        replay reuses the order its log recorded."""
        pool = [c for c in self.deck.discards if c not in self._restocked]
        if len(self.deck) + len(pool) < n:
            raise CroupierError("the deck is exhausted")
        if self.restock_orders:
            recorded = self.restock_orders.pop(0)
            if sorted(recorded) != sorted(pool):
                raise CroupierError("the log's restocked cards are not the discards")
            pool = list(recorded)
        else:
            random.Random(self._restock_seed + len(self._restocked)).shuffle(pool)
        self._restocked.update(pool)
        self.deck.reuse_discards(pool)
        self.core.record(ev.StubRestocked(tuple(pool)))

    def _street_plan(self) -> tuple[bool, bool, int]:
        """The street's deal: (a burn?, one community card for a short deck?, cards in all).
        A live dealer's empty deck counts the cards still unseen."""
        street = self.core.game.streets[self.core.street]
        live = sum(1 for p in self.core.players.values() if not p.folded)
        per_player = street.cards_per_player
        available = len(self.deck) or self._unseen()
        shortage = bool(per_player) and available - street.burn < per_player * live
        need = (per_player if shortage else per_player * live) + street.board
        burns = street.burn and available > need  # no burn when it would leave too few cards
        return burns, shortage, need + (1 if burns else 0)

    def _unseen(self) -> int:
        return len(self.game_cards) - len(self.deck.dealt) - len(self.deck.burned)

    def deal_street(self) -> None:
        """Deal the street: burn, hole or up cards one at a time clockwise, the board."""
        core = self.core
        players = core.players
        street = core.game.streets[core.street]
        live = [s for s in core.clockwise(core.button) if not players[s].folded]
        per_player = street.cards_per_player
        burns, shortage, _ = self._street_plan()
        if burns:
            self.core.record(ev.CardBurned(self._burn()))
        if shortage:
            # seven card stud with eight players: one community card for everyone (13, inferred)
            cards = self._draw(per_player)
            self.core.board.extend(cards)
            self.core.record(ev.CommunityDealt(cards))
        else:
            for face_up, count in ((False, street.down), (True, street.up)):
                total = count * len(live)
                if not total:
                    continue
                # one card at a time, clockwise (17.1(d), 12.1(c)): the k-th card off the
                # top goes to the k-th seat of the round; a short or placed deck card by card
                whole = not self.placed and len(self.deck) >= total
                cards = self.deck.draw(total) if whole else ()
                record, dealt, seats = core.record, ev.CardsDealt, len(live)
                for k in range(total):
                    seat = live[k % seats]
                    card = (cards[k],) if whole else self._draw(1)
                    player = players[seat]
                    (player.up if face_up else player.down).extend(card)
                    record(dealt(seat, card, face_up))
        if street.board:
            cards = self._draw(street.board)
            self.core.board.extend(cards)
            self.core.record(ev.CommunityDealt(cards))
        self.core.stage = Stage.DRAW if street.draw else Stage.BET

    def open_draw(self) -> None:
        """Open the draw: every player still in draws, from the button's left."""
        for player in self.core.players.values():
            player.drawn = False
        order = [
            s for s in self.core.clockwise_from(self.core.button) if not self.core.players[s].folded
        ]
        self.core.to_act = set(order)
        self.core.actor = order[0]

    # ------------------------------------------------------------------ draw
    def verify_discard(self, cards: Iterable[str | Card]) -> None:
        """Raise unless the player to act may discard these cards (draw poker)."""
        if self.core.stage != Stage.DRAW or self.core.actor is None:
            raise IllegalActionError("Draw 11 (deal and draw)", "no draw is due", "no action")
        player = self.core.players[self.core.actor]
        chosen = _parse_discards(cards)
        stray = [c for c in chosen if c not in player.down]
        if stray:
            raise IllegalActionError(
                "Draw 11 (deal and draw)",
                f"seat {player.seat} does not hold {stray[0]}",
                LegalActions(actor=player.seat, discard=True).describe(),
            )

    def discard(self, cards: Iterable[str | Card]) -> ev.Discarded:
        """The player to act discards ``cards`` (checked by :meth:`verify_discard`)."""
        player = self.core.players[self.core.actor]  # type: ignore[index]
        chosen = _parse_discards(cards)
        if (
            chosen
            and not self.placed  # a live dealer's cards come with deal()
            and len(self.deck) + len([c for c in self.deck.discards if c not in self._restocked])
            < len(chosen)
        ):
            raise CroupierError("the deck is exhausted: no cards left to replace the discards")
        for card in chosen:
            player.down.remove(card)
        event = ev.Discarded(player.seat, chosen)
        self.core.record(event)
        if chosen and self.placed and len(self.deck) < len(chosen):
            self._pending_draw = (player.seat, chosen)  # a live dealer deals the replacements
            self.core.stage = Stage.REPLACE
            self.core.actor = None
            return event
        self._replace(player, chosen)
        return event

    def _replace(self, player: PlayerState, chosen: tuple[Card, ...]) -> None:
        """Deal a drawing player's replacements, then pass the draw on."""
        if chosen:
            fresh = self._draw(len(chosen))  # before the new discards join the pile (Draw 11)
            self.deck.discard(chosen)
            player.down.extend(fresh)
            self.core.record(ev.CardsDealt(player.seat, fresh, up=False))
        self._pending_draw = None
        self.core.stage = Stage.DRAW
        self.core.to_act.discard(player.seat)
        self.core.actor = self.core.next_to_act(player.seat)
        if self.core.actor is None:
            self.core.stage = Stage.BET

    def waiting_for_cards(self) -> bool:
        """A live dealer's hand waits at a deal until the cards are entered."""
        return (
            self.placed
            and self.core.stage in (Stage.DEAL, Stage.REPLACE)
            and len(self.deck) < self.cards_needed
        )

    # -------------------------------------------------------------- boxed cards
    def verify_report_boxed_card(self, card: Card | str) -> None:
        """Raise unless the dealer may report ``card`` as boxed now (see
        :meth:`HandState.verify_report_boxed_card <croupier.poker.state.HandState.verify_report_boxed_card>`)."""
        chosen = _malformed(
            lambda given, _what: (given,) if isinstance(given, Card) else parse_cards(given),
            card,
            "a boxed card",
        )
        if len(chosen) != 1:
            raise InvalidActionError(f"report one boxed card, not {len(chosen)}")
        if self.core.stage != Stage.DEAL:
            raise IllegalActionError(
                "Poker definitions: Boxed Card",
                "a boxed card is found while dealing: no deal is due",
                "when the next chore is a deal",
            )
        if len(self.deck) == 0 or self.deck.peek(1)[0] != chosen[0]:
            raise IllegalActionError(
                "Poker definitions: Boxed Card",
                f"{chosen[0]} is not the next card of the deck",
                "the card on top of the deck",
            )
        boxed = sum(1 for e in self.core.log if isinstance(e, ev.CardBoxed))
        if boxed >= 4:
            raise IllegalActionError(
                "Poker definitions: Defective Deck",
                "a fifth boxed card makes the deck defective: the hand is a misdeal",
                "a new deck and a new deal",
            )

    def report_boxed_card(self) -> ev.CardBoxed:
        """Set the boxed card on top of the deck aside with the burns (checked by
        :meth:`verify_report_boxed_card`)."""
        event = ev.CardBoxed(self.deck.burn())
        self.core.record(event)
        return event

    # ------------------------------------------------------- a live dealer deals
    @property
    def cards_needed(self) -> int:
        """How many cards the next deal takes (burn card included); 0 when none is due."""
        if self.core.stage == Stage.DEAL:
            return self._street_plan()[2]
        if self.core.stage == Stage.REPLACE and self._pending_draw is not None:
            return len(self._pending_draw[1])
        return 0

    def verify_deal(self, cards: Iterable[Card | str] | str) -> None:
        """Raise unless a live dealer may enter these cards now (see
        :meth:`HandState.verify_deal <croupier.poker.state.HandState.verify_deal>`)."""
        if not self.placed:
            raise IllegalActionError(
                "Poker 3.3", "croupier deals this hand from its own deck", "a hand dealt live"
            )
        needed = self.cards_needed
        if not needed or len(self.deck):
            raise IllegalActionError("Poker 3.3", "no deal is due", self.core.chore_text())
        chosen = _malformed(
            lambda given, _what: tuple(given) if isinstance(given, tuple) else parse_cards(given),
            cards if isinstance(cards, str) else tuple(cards),
            "a deal",
        )
        if not all(isinstance(c, Card) for c in chosen):
            chosen = _malformed(lambda given, _what: parse_cards(given), list(chosen), "a deal")
        if len(chosen) != needed:
            raise IllegalActionError(
                "Poker 3.3", f"this deal takes {needed} cards, not {len(chosen)}", f"{needed} cards"
            )
        seen = set(self.deck.dealt) | set(self.deck.burned)
        for card in chosen:
            if card not in self.game_cards:
                raise IllegalActionError(
                    "Poker definitions: Defective Deck",
                    f"{self.core.game.title} has no {card} in its deck",
                    f"the {len(self.game_cards)} cards of the game's deck",
                )
            if card in seen:
                raise IllegalActionError(
                    "Poker definitions: Defective Deck",
                    f"{card} has already been dealt",
                    "new cards",
                )
        if len(set(chosen)) != len(chosen):
            raise IllegalActionError(
                "Poker definitions: Defective Deck", "the same card twice in one deal", "new cards"
            )

    def deal(self, cards: Iterable[Card | str] | str) -> ev.Event:
        """Deal the cards a live dealer entered (checked by :meth:`verify_deal`); return
        the deal's last event."""
        chosen = parse_cards(cards) if isinstance(cards, str) else parse_cards(list(cards))
        self.deck.put_on_top(chosen)
        before = len(self.core.log)
        if self.core.stage == Stage.REPLACE and self._pending_draw is not None:
            seat, thrown = self._pending_draw
            self._replace(self.core.players[seat], thrown)
        else:
            self.deal_street()
        return self.core.log[-1] if len(self.core.log) > before else self.core.log[before - 1]
