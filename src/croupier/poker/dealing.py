"""Dealing: the deck check, forced bets, the deal of each street, burns, the draw and its
restock (Draw 11), as one part of :class:`~croupier.poker.state.HandState`.

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
from croupier.poker._core import HandCore, _can, _malformed, _parse_discards
from croupier.poker.blinds import blind_posters
from croupier.poker.games import ForcedBets

__all__ = ["Dealing"]


class Dealing(HandCore):
    """The dealer's part of a hand: checking the deck, posting forced bets, dealing,
    burning and the draw.

    >>> from croupier.poker import HandState, TableRules
    >>> isinstance(HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1), Dealing)
    True
    """

    def _verify_deck(self, deck: Deck) -> None:
        """Refuse a deck that does not fit the game (Poker definitions: Defective Deck):
        already dealt from, a wrong count, or cards the game's deck does not hold. An empty
        deck is allowed: the caller places each deal's cards on it (a replayed record)."""
        if deck.dealt or deck.burned or deck.discards:
            raise RuleViolationError(
                "Poker definitions: Defective Deck",
                "the deck has already been dealt from",
                "a whole, undealt deck",
            )
        cards = deck.remaining
        if not cards:
            return
        game = self.game
        stray = sorted(c for c in cards if c not in self._game_cards)
        if stray:
            raise RuleViolationError(
                "Poker definitions: Defective Deck",
                f"{game.title} is dealt from a {len(self._game_cards)}-card deck, which has no "
                f"{stray[0]}",
                f"the {len(self._game_cards)} cards of the game's deck",
            )
        if len(cards) != len(self._game_cards):
            raise RuleViolationError(
                "Poker definitions: Defective Deck",
                f"the deck has {len(cards)} cards; {game.title} needs all {len(self._game_cards)}",
                f"the {len(self._game_cards)} cards of the game's deck",
            )

    def _verify_voluntary_blind(self) -> None:
        """Draw 11.x(c): a voluntary blind is exactly double the last compulsory blind; a
        player who cannot post the double may not post it short."""
        poster = self._blind_posters()[-1]
        needed = 2 * self._blind_amounts()[-1]
        stack = self.players[poster].stack
        if stack < needed:
            raise RuleViolationError(
                "Draw 11.x(c)",
                f"seat {poster} has {stack} chips; a voluntary blind must be double the last "
                f"compulsory blind ({needed})",
                f"no voluntary blind, or a stack of at least {needed}",
            )

    def _check_placed(self, cards: Sequence[Card]) -> None:
        """Cards placed by the caller (an empty deck at the start) must be of the game's deck."""
        if self._placed:
            stray = [c for c in cards if c not in self._game_cards]
            if stray:
                raise RuleViolationError(
                    "Poker definitions: Defective Deck",
                    f"{self.game.title} has no {stray[0]} in its deck",
                    f"the {len(self._game_cards)} cards of the game's deck",
                )

    def _draw(self, n: int) -> tuple[Card, ...]:
        if len(self.deck) < n:  # draw poker: shuffle the discards to finish the stub
            self._restock(n)
        self._check_placed(self.deck.peek(n))
        return self.deck.draw(n)

    def _burn(self) -> Card:
        self._check_placed(self.deck.peek(1))
        return self.deck.burn()

    def _restock(self, n: int) -> None:
        """Shuffle the discards with the hand's random source (never a fixed order: a player
        must not know who receives his discards, Draw 11) and put them under the stub. A
        replay reuses the order its log recorded."""
        pool = [c for c in self.deck.discards if c not in self._restocked]
        if len(self.deck) + len(pool) < n:
            raise CroupierError("the deck is exhausted")
        if self._restock_orders:
            recorded = self._restock_orders.pop(0)
            if sorted(recorded) != sorted(pool):
                raise CroupierError("the log's restocked cards are not the discards")
            pool = list(recorded)
        else:
            random.Random(self._restock_seed + len(self._restocked)).shuffle(pool)
        self._restocked.update(pool)
        self.deck.reuse_discards(pool)
        self._log(ev.StubRestocked(tuple(pool)))

    def _post_forced_bets(self) -> None:
        paid_antes: dict[int, int] = {}
        for seat in self._clockwise_from(self.button):
            if self._antes.get(seat, 0):
                player = self.players[seat]
                paid = self._put(player, self._antes[seat])
                player.bet = 0  # antes are dead money, not bets of the round
                paid_antes[seat] = paid
                self._log(ev.AntePosted(seat, paid))
        if self.ante_trimming and paid_antes:
            ranked = sorted(paid_antes.items(), key=lambda item: item[1], reverse=True)
            second = ranked[1][1] if len(ranked) > 1 else 0
            seat, top = ranked[0]
            if top > second:
                player = self.players[seat]
                player.contributed -= top - second
                player.stack += top - second
                self._log(ev.BetReturned(seat, top - second))
        if self.game.forced is ForcedBets.BLINDS:
            posters = self._blind_posters()
            amounts = self._blind_amounts()
            compulsory = len(amounts)
            if self.voluntary_blind:
                amounts.append(2 * amounts[-1])
            for i, (seat, amount) in enumerate(zip(posters, amounts, strict=False)):
                paid = self._put(self.players[seat], amount)
                self._log(ev.BlindPosted(seat, paid, voluntary=i >= compulsory))
            self._current_bet = max([amounts[-1], *(p.bet for p in self.players.values())])
            # 17.6(c)/11.x(d): a raise is not less than any previous bet of the round, the
            # voluntary blind bet included; blinds are the round's bet, not raises (11.x(g))
            self._last_increment = amounts[-1]
            self._raises = 1
            self._last_blind_seat = (
                posters[len(amounts) - 1] if len(posters) >= len(amounts) else posters[-1]
            )
        self._stage = "deal"

    def _blind_posters(self) -> list[int]:
        if self._explicit_blinds:
            posters = list(self._explicit_blinds)
            if self.voluntary_blind:  # left of the last blind (11.x(c))
                posters.append(next(s for s in self._clockwise_from(posters[-1])))
            return posters
        count = len(self.rules.blinds) + (1 if self.voluntary_blind else 0)
        return blind_posters(self.order, self.button, count, self.rules.heads_up)

    def _blind_amounts(self) -> list[int]:
        """The blinds, first to last: the table's, or those the caller named."""
        if self._explicit_blinds:
            return list(self._explicit_blinds.values())
        return list(self.rules.blinds)

    def _deal_street(self) -> None:
        street = self.game.streets[self.street]
        live = [s for s in self._clockwise_from(self.button) if not self.players[s].folded]
        per_player = street.cards_per_player
        burn = 1 if street.burn else 0
        shortage = per_player and len(self.deck) - burn < per_player * len(live)
        need = (per_player if shortage else per_player * len(live)) + street.board
        if street.burn and len(self.deck) > need:  # no burn when it would leave too few cards
            self._log(ev.CardBurned(self._burn()))
        if shortage:
            # seven card stud with eight players: one community card for everyone (13, inferred)
            cards = self._draw(per_player)
            self.board.extend(cards)
            self._log(ev.CommunityDealt(cards))
        else:
            for face_up, count in ((False, street.down), (True, street.up)):
                for _ in range(count):  # one card at a time, clockwise (17.1(d), 12.1(c))
                    for seat in live:
                        card = self._draw(1)
                        player = self.players[seat]
                        (player.up if face_up else player.down).extend(card)
                        self._log(ev.CardsDealt(seat, card, up=face_up))
        if street.board:
            cards = self._draw(street.board)
            self.board.extend(cards)
            self._log(ev.CommunityDealt(cards))
        self._stage = "draw" if street.draw else "bet"

    def _open_draw(self) -> None:
        for player in self.players.values():
            player.drawn = False
        order = [s for s in self._clockwise_from(self.button) if not self.players[s].folded]
        self._to_act = set(order)
        self._actor = order[0]

    # ------------------------------------------------------------------ draw
    def verify_discard(self, cards: Iterable[str | Card]) -> None:
        """Raise unless the player to act may discard these cards (draw poker)."""
        if self._stage != "draw" or self._actor is None:
            raise IllegalActionError("Draw 11 (deal and draw)", "no draw is due", "no action")
        player = self.players[self._actor]
        chosen = _parse_discards(cards)
        stray = [c for c in chosen if c not in player.down]
        if stray:
            raise self._error(
                "Draw 11 (deal and draw)", f"seat {player.seat} does not hold {stray[0]}"
            )

    def can_discard(self, cards: Iterable[str | Card]) -> bool:
        """Whether :meth:`discard` is legal now."""
        return _can(self.verify_discard, cards)

    def discard(self, cards: Iterable[str | Card] = ()) -> None:
        """Discard these cards (none to stand pat) and be dealt as many replacements."""
        self.verify_discard(cards)
        player = self.players[self._actor]  # type: ignore[index]
        chosen = _parse_discards(cards)
        if chosen and len(self.deck) + len(
            [c for c in self.deck.discards if c not in self._restocked]
        ) < len(chosen):
            raise CroupierError("the deck is exhausted: no cards left to replace the discards")
        for card in chosen:
            player.down.remove(card)
        self._log(ev.Discarded(player.seat, chosen))
        if chosen:
            fresh = self._draw(len(chosen))  # before the new discards join the pile (Draw 11)
            self.deck.discard(chosen)
            player.down.extend(fresh)
            self._log(ev.CardsDealt(player.seat, fresh, up=False))
        self._to_act.discard(player.seat)
        self._actor = self._next_from(player.seat)
        if self._actor is None:
            self._stage = "bet"
        self._after_action()

    # -------------------------------------------------------------- boxed cards
    def verify_report_boxed_card(self, card: Card | str) -> None:
        """Raise unless the dealer may report ``card`` as boxed now: face up in the deck
        before it is dealt, so it must be the next card of a deal
        (Poker definitions: Boxed Card). A fifth boxed card makes the deck defective
        (Poker definitions: Defective Deck); the hand must then be declared a misdeal,
        which croupier does not model (Decision 3.2-16), so the report is refused.

        >>> from croupier.poker import HandState, TableRules
        >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1, automatic=False)
        >>> hand.can_report_boxed_card("As")
        False
        """
        chosen = _malformed(
            lambda given, _what: (given,) if isinstance(given, Card) else parse_cards(given),
            card,
            "a boxed card",
        )
        if len(chosen) != 1:
            raise InvalidActionError(f"report one boxed card, not {len(chosen)}")
        if self._stage != "deal":
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
        boxed = sum(1 for e in self.events if isinstance(e, ev.CardBoxed))
        if boxed >= 4:
            raise IllegalActionError(
                "Poker definitions: Defective Deck",
                "a fifth boxed card makes the deck defective: the hand is a misdeal",
                "a new deck and a new deal",
            )

    def can_report_boxed_card(self, card: Card | str) -> bool:
        """Whether :meth:`report_boxed_card` is allowed now."""
        return _can(self.verify_report_boxed_card, card)

    def report_boxed_card(self, card: Card | str) -> ev.CardBoxed:
        """The dealer found ``card`` face up on top of the deck: it is shown to everyone
        and set aside with the burn cards, and the deal goes on with the next card.

        >>> from croupier.poker import HandState, TableRules
        >>> from croupier.cards import Deck, full_deck
        >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1,
        ...                  deck=Deck(full_deck(), shuffle=False), automatic=False)
        >>> _ = hand.step()  # forced bets
        >>> hand.report_boxed_card(hand.deck.peek(1)[0]).describe()
        'boxed card 2c set aside'
        """
        self.verify_report_boxed_card(card)
        event = ev.CardBoxed(self.deck.burn())
        self._log(event)
        return event
