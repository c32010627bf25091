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
from croupier.checks import can
from croupier.errors import (
    CroupierError,
    IllegalActionError,
    InvalidActionError,
    RuleViolationError,
)
from croupier.poker import events as ev
from croupier.poker._core import HandCore, PlayerState, Stage, _malformed, _parse_discards
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
        if self._placed:  # only a caller-placed deck needs checking; keep the deal cheap
            self._check_placed(self.deck.peek(n))
        return self.deck.draw(n)

    def _burn(self) -> Card:
        if self._placed:
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
        self._stage = Stage.DEAL

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

    def _street_plan(self) -> tuple[bool, bool, int]:
        """The street's deal: (a burn?, one community card for a short deck?, cards in all).
        A live dealer's empty deck counts the cards still unseen."""
        street = self.game.streets[self.street]
        live = sum(1 for p in self.players.values() if not p.folded)
        per_player = street.cards_per_player
        available = len(self.deck) or self._unseen()
        shortage = bool(per_player) and available - street.burn < per_player * live
        need = (per_player if shortage else per_player * live) + street.board
        burns = street.burn and available > need  # no burn when it would leave too few cards
        return burns, shortage, need + (1 if burns else 0)

    def _unseen(self) -> int:
        return len(self._game_cards) - len(self.deck.dealt) - len(self.deck.burned)

    def _deal_street(self) -> None:
        street = self.game.streets[self.street]
        live = [s for s in self._clockwise_from(self.button) if not self.players[s].folded]
        per_player = street.cards_per_player
        burns, shortage, _ = self._street_plan()
        if burns:
            self._log(ev.CardBurned(self._burn()))
        if shortage:
            # seven card stud with eight players: one community card for everyone (13, inferred)
            cards = self._draw(per_player)
            self.board.extend(cards)
            self._log(ev.CommunityDealt(cards))
        else:
            for face_up, count in ((False, street.down), (True, street.up)):
                total = count * len(live)
                if not total:
                    continue
                # one card at a time, clockwise (17.1(d), 12.1(c)): the k-th card off the
                # top goes to the k-th seat of the round; a short or placed deck card by card
                whole = not self._placed and len(self.deck) >= total
                cards = self.deck.draw(total) if whole else ()
                for k in range(total):
                    seat = live[k % len(live)]
                    card = (cards[k],) if whole else self._draw(1)
                    player = self.players[seat]
                    (player.up if face_up else player.down).extend(card)
                    self._log(ev.CardsDealt(seat, card, up=face_up))
        if street.board:
            cards = self._draw(street.board)
            self.board.extend(cards)
            self._log(ev.CommunityDealt(cards))
        self._stage = Stage.DRAW if street.draw else Stage.BET

    def _open_draw(self) -> None:
        for player in self.players.values():
            player.drawn = False
        order = [s for s in self._clockwise_from(self.button) if not self.players[s].folded]
        self._to_act = set(order)
        self._actor = order[0]

    # ------------------------------------------------------------------ draw
    def verify_discard(self, cards: Iterable[str | Card]) -> None:
        """Raise unless the player to act may discard these cards (draw poker)."""
        if self._stage != Stage.DRAW or self._actor is None:
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
        return can(self.verify_discard, cards)

    def discard(self, cards: Iterable[str | Card] = ()) -> ev.Discarded:
        """Discard these cards (none to stand pat) and be dealt as many replacements."""
        self.verify_discard(cards)
        return self._discard(cards)

    def _discard(self, cards: Iterable[str | Card]) -> ev.Discarded:
        player = self.players[self._actor]  # type: ignore[index]
        chosen = _parse_discards(cards)
        if (
            chosen
            and not self._placed  # a live dealer's cards come with deal()
            and len(self.deck) + len([c for c in self.deck.discards if c not in self._restocked])
            < len(chosen)
        ):
            raise CroupierError("the deck is exhausted: no cards left to replace the discards")
        for card in chosen:
            player.down.remove(card)
        event = ev.Discarded(player.seat, chosen)
        self._log(event)
        if chosen and self._placed and len(self.deck) < len(chosen):
            self._pending_draw = (player.seat, chosen)  # a live dealer deals the replacements
            self._stage = Stage.REPLACE
            self._actor = None
            return event
        self._replace(player, chosen)
        return event

    def _replace(self, player: PlayerState, chosen: tuple[Card, ...]) -> None:
        """Deal a drawing player's replacements, then pass the draw on."""
        if chosen:
            fresh = self._draw(len(chosen))  # before the new discards join the pile (Draw 11)
            self.deck.discard(chosen)
            player.down.extend(fresh)
            self._log(ev.CardsDealt(player.seat, fresh, up=False))
        self._pending_draw = None
        self._stage = Stage.DRAW
        self._to_act.discard(player.seat)
        self._actor = self._next_from(player.seat)
        if self._actor is None:
            self._stage = Stage.BET
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
        if self._stage != Stage.DEAL:
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
        return can(self.verify_report_boxed_card, card)

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

    # ------------------------------------------------------- a live dealer deals
    @property
    def cards_needed(self) -> int:
        """How many cards the next deal takes (burn card included): what a live dealer
        passes to :meth:`deal`; 0 when no deal is due.

        >>> from croupier.cards import Deck
        >>> from croupier.poker import HandState, TableRules
        >>> live = HandState(TableRules(), {1: 100, 2: 100}, button=1, deck=Deck([], shuffle=False))
        >>> live.next_chore, live.cards_needed
        (<Chore.DEAL: 'deal'>, 4)
        """
        if self._stage == Stage.DEAL:
            return self._street_plan()[2]
        if self._stage == Stage.REPLACE and self._pending_draw is not None:
            return len(self._pending_draw[1])
        return 0

    def verify_deal(self, cards: Iterable[Card | str] | str) -> None:
        """Raise unless a live dealer may enter these cards now: the hand was started with
        an empty deck, a deal is due, and ``cards`` are exactly :attr:`cards_needed` cards
        of the game's deck, none seen before, in the order dealt (burn card first).

        >>> from croupier.cards import Deck
        >>> from croupier.poker import HandState, TableRules
        >>> live = HandState(TableRules(), {1: 100, 2: 100}, button=1, deck=Deck([], shuffle=False))
        >>> live.can_deal("As Kd"), live.can_deal("As Kd Qh Jc")
        (False, True)
        """
        if not self._placed:
            raise IllegalActionError(
                "Poker 3.3", "croupier deals this hand from its own deck", "a hand dealt live"
            )
        needed = self.cards_needed
        if not needed or len(self.deck):
            raise IllegalActionError("Poker 3.3", "no deal is due", self._chore_text())
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
            if card not in self._game_cards:
                raise IllegalActionError(
                    "Poker definitions: Defective Deck",
                    f"{self.game.title} has no {card} in its deck",
                    f"the {len(self._game_cards)} cards of the game's deck",
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

    def can_deal(self, cards: Iterable[Card | str] | str) -> bool:
        """Whether :meth:`deal` with these cards is allowed now."""
        return can(self.verify_deal, cards)

    def deal(self, cards: Iterable[Card | str] | str) -> ev.Event:
        """A live dealer enters the cards physically dealt (burn card first, then one card
        at a time clockwise, then the board): croupier referees, the dealer deals. Returns
        the deal's last event; in automatic mode the chores after it run too.

        >>> from croupier.cards import Deck
        >>> from croupier.poker import HandState, TableRules
        >>> live = HandState(TableRules(), {1: 100, 2: 100}, button=1, deck=Deck([], shuffle=False))
        >>> live.deal("As Kd Qh Jc").describe(), live.actor
        ('seat 1 is dealt ??', 2)
        """
        self.verify_deal(cards)
        chosen = parse_cards(cards) if isinstance(cards, str) else parse_cards(list(cards))
        self.deck.put_on_top(chosen)
        before = len(self.events)
        if self._stage == Stage.REPLACE and self._pending_draw is not None:
            seat, thrown = self._pending_draw
            self._replace(self.players[seat], thrown)
        else:
            self._deal_street()
        event = self.events[-1] if len(self.events) > before else self.events[before - 1]
        self._after_action()
        return event
