"""The poker referee: one hand as a state machine, from forced bets to the last award.

Players act through a ``verify_``/``can_``/do triad for every action; dealer chores
(forced bets, burns, deals, collecting bets, the showdown, awarding pots) run by
themselves (``automatic=True``) or one :meth:`HandState.step` at a time. Every change
appends one frozen event to :attr:`HandState.events`; :meth:`HandState.replay`
rebuilds the hand from that log.

>>> from croupier.cards import Deck
>>> from croupier.poker import HOLDEM, NoLimit, TableRules
>>> rules = TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10)
>>> hand = HandState(rules, {1: 1000, 2: 1000, 3: 1000}, button=1, seed=7)
>>> hand.actor, hand.legal_actions().describe()
(1, 'fold, call 10, raise to 20..1000')
>>> hand.raise_to(30); hand.fold(); hand.call()
>>> hand.street_name, hand.total_pot
('flop', 65)
>>> hand.check(); hand.check()
>>> hand.can_raise_to(5)
False
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from croupier.cards.card import Card, parse_cards
from croupier.cards.deck import Deck, full_deck
from croupier.cards.rng import make_rng
from croupier.checks import flag_setting, seat_number, whole_chips, whole_number
from croupier.errors import CroupierError, RuleViolationError
from croupier.evaluation.evaluate import evaluate
from croupier.evaluation.hand import HandValue
from croupier.poker import events as ev
from croupier.poker.exposed import exposed_strength
from croupier.poker.games import ForcedBets, Opener, Street
from croupier.poker.pots import Pot, build_pots, split_pot
from croupier.poker.settings import HeadsUpBlinds, OddChip, TableRules

__all__ = ["HandState", "IllegalActionError", "LegalActions", "Phase", "PlayerState"]


class IllegalActionError(RuleViolationError):
    """An action the rules do not allow now; the state is unchanged.

    >>> IllegalActionError("Omaha 17.2(a)", "seat 3 cannot check: 10 to call", "fold, call 10")
    IllegalActionError('Omaha 17.2(a): seat 3 cannot check: 10 to call; allowed: fold, call 10')
    """


class Phase(StrEnum):
    """Where the hand is.

    >>> from croupier.poker import TableRules
    >>> HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1).phase
    <Phase.BETTING: 'betting'>
    """

    DEALER = "dealer"
    """A dealer chore is next (see :attr:`HandState.pending_chore`)."""
    BETTING = "betting"
    """A player must bet, call, check or fold."""
    DRAWING = "drawing"
    """A player must discard (draw poker)."""
    COMPLETE = "complete"
    """The hand is over."""


@dataclass
class PlayerState:
    """One seat in the hand.

    >>> PlayerState(seat=1, starting_stack=100, stack=0, contributed=100).all_in
    True
    """

    seat: int
    """Seat number."""
    starting_stack: int
    """Chips at the start of the hand."""
    stack: int
    """Chips behind (not yet bet)."""
    down: list[Card] = field(default_factory=list)
    """Face-down cards."""
    up: list[Card] = field(default_factory=list)
    """Face-up cards (stud)."""
    folded: bool = False
    """Out of the hand."""
    bet: int = 0
    """Chips in front of the player this round."""
    contributed: int = 0
    """Chips put in this hand (this round's bet included)."""
    acted_serial: int = -1
    """The full-raise count when the player last acted this round (-1: not yet)."""
    drawn: bool = False
    """Whether the player has drawn on the current draw street."""

    @property
    def all_in(self) -> bool:
        """No chips behind, still in the hand."""
        return self.stack == 0 and not self.folded and self.contributed > 0

    @property
    def can_act(self) -> bool:
        """Still in the hand with chips to bet."""
        return not self.folded and self.stack > 0

    @property
    def cards(self) -> tuple[Card, ...]:
        """All the player's own cards (down then up)."""
        return (*self.down, *self.up)


@dataclass(frozen=True)
class LegalActions:
    """What the player to act may do, with the amounts (round totals for bets and raises).

    >>> LegalActions(seat=1, fold=True, call=10, raise_to=(20, 100)).describe()
    'fold, call 10, raise to 20..100'
    """

    seat: int
    """The player to act."""
    fold: bool = False
    """Fold is allowed."""
    check: bool = False
    """Check is allowed."""
    call: int | None = None
    """Chips a call puts in (an all-in call when the stack is short), if a call is due."""
    raise_to: tuple[int, int] | None = None
    """Smallest and largest legal bet or raise, as the player's total for the round."""
    bring_in: tuple[int, int] | None = None
    """Stud bring-in range (12.2(a)): the player must bet, nothing else. In fixed limit
    only the two ends are legal: the bring-in, or completing it to a full bet."""
    bring_in_ends_only: bool = False
    """True in fixed limit: :attr:`bring_in` offers its two ends, not the range between."""
    discard: bool = False
    """A draw is due: discard 0 or more cards."""

    def describe(self) -> str:
        """Plain English, e.g. ``"fold, call 10, raise to 20..1000"``."""
        parts = []
        if self.discard:
            parts.append("discard any of your cards (or none)")
        if self.bring_in is not None:
            low, high = self.bring_in
            if low == high:
                parts.append(f"bring in for {low}")
            elif self.bring_in_ends_only:
                parts.append(f"bring in for {low} or complete to {high}")
            else:
                parts.append(f"bring in for {low}..{high}")
        if self.fold:
            parts.append("fold")
        if self.check:
            parts.append("check")
        if self.call is not None:
            parts.append(f"call {self.call}")
        if self.raise_to is not None:
            low, high = self.raise_to
            parts.append(f"raise to {low}" if low == high else f"raise to {low}..{high}")
        return ", ".join(parts) or "nothing"


class HandState:
    """One hand of poker under :class:`TableRules`, refereed card by card.

    ``stacks`` maps seat numbers (clockwise order) to chips; ``button`` is the button
    seat (for stud, the dealer position the deal starts after). The deck is shuffled
    from the OS CSPRNG unless a ``seed`` or a ``deck`` is given.
    """

    def __init__(
        self,
        rules: TableRules,
        stacks: Mapping[int, int],
        button: int,
        *,
        deck: Deck | None = None,
        seed: int | None = None,
        rng: random.Random | None = None,
        automatic: bool = True,
        voluntary_blind: bool = False,
        antes: Mapping[int, int] | None = None,
        ante_trimming: bool = False,
    ) -> None:
        if not isinstance(rules, TableRules):
            raise CroupierError(f"rules must be TableRules, not {rules!r}")
        rules.validate()
        game = rules.game
        if not isinstance(stacks, Mapping):
            raise CroupierError(f"stacks must map seat numbers to chips, not {stacks!r}")
        stacks = {
            seat_number(s): whole_chips(n, f"the stack of seat {s}") for s, n in stacks.items()
        }
        for flag, what in (
            (automatic, "automatic"),
            (voluntary_blind, "voluntary_blind"),
            (ante_trimming, "ante_trimming"),
        ):
            flag_setting(flag, what)
        if rng is not None and not isinstance(rng, random.Random):
            raise CroupierError(f"rng must be a random.Random, not {rng!r}")
        if seed is not None:
            whole_number(seed, "a seed")
        if deck is not None and not isinstance(deck, Deck):
            raise CroupierError(f"deck must be a Deck, not {deck!r}")
        if len(stacks) < 2:
            raise RuleViolationError("Omaha 17.2(c)", "a hand needs at least two players")
        if len(stacks) > game.max_players:
            raise RuleViolationError(
                "Poker 4.1(a)",
                f"{game.title} deals to at most {game.max_players} players",
            )
        button = seat_number(button, "the button seat")
        if button not in stacks:
            raise CroupierError(f"the button seat {button} has no player")
        if any(s <= 0 for s in stacks.values()):
            raise RuleViolationError(
                "Poker definitions: Table Stakes",
                "every player needs chips on the table",
            )
        if voluntary_blind and not game.voluntary_blind:
            raise RuleViolationError("Draw 11.x(c)", f"{game.title} has no voluntary blind")
        if game.forced is ForcedBets.BLINDS:
            posting = len(rules.blinds) + (1 if voluntary_blind else 0)
            if posting > len(stacks):  # nobody posts two blinds
                raise RuleViolationError(
                    "Draw 11.x(c)" if voluntary_blind else "Omaha 17.1(c)",
                    f"{posting} blinds need {posting} players; {len(stacks)} are seated",
                    "a voluntary blind only when a player is left of the last blind",
                )
        self.rules = rules
        """The table's rules."""
        self.game = game
        """The game."""
        self.button = button
        """The button seat."""
        self.automatic = automatic
        """Whether dealer chores run by themselves."""
        self.voluntary_blind = voluntary_blind
        """Whether a voluntary blind (11.x(c)) is posted."""
        self._rng: random.Random = rng if rng is not None else make_rng(seed)
        self._game_cards = frozenset(c for c in full_deck() if c.rank >= game.ranking.lowest_rank)
        if deck is None:
            lowest = game.ranking.lowest_rank
            deck = (
                Deck.stripped(lowest, seed=seed, rng=self._rng)
                if lowest > 0
                else Deck.standard(seed=seed, rng=self._rng)
            )
        else:
            self._verify_deck(deck)
        self._placed = not deck.remaining  # an empty deck: the caller places the cards
        self.deck = deck
        """The deck (its dealt, burned and discard piles are the record of the cards)."""
        self.players: dict[int, PlayerState] = {
            s: PlayerState(seat=s, starting_stack=n, stack=n) for s, n in sorted(stacks.items())
        }
        """Each seat's state, in seat order."""
        self.order: tuple[int, ...] = tuple(self.players)
        """Seats in clockwise order."""
        self.board: list[Card] = []
        """Community cards."""
        self.events: list[ev.Event] = []
        """The immutable event log."""
        self.street = 0
        """Index of the current street."""
        self._stage = "forced"
        self._actor: int | None = None
        self._to_act: set[int] = set()
        self._current_bet = 0
        self._last_increment = 0
        self._raises = 0
        self._full_raises = 0
        self._aggressor: int | None = None
        self._bring_in_due = False
        self._short_bring_in = False
        self._awarded: list[ev.PotAwarded] = []
        self._hands: dict[int, HandValue] = {}
        self._restocked: set[Card] = set()
        if antes is not None and not isinstance(antes, Mapping):
            raise CroupierError(f"antes must map seat numbers to chips, not {antes!r}")
        self._antes = (
            {seat_number(s): whole_chips(a, f"the ante of seat {s}") for s, a in antes.items()}
            if antes is not None
            else dict.fromkeys(stacks, rules.ante)
        )
        if set(self._antes) - set(stacks):
            raise CroupierError("antes must name seated players")
        self._restock_orders: list[tuple[Card, ...]] = []
        self.ante_trimming = ante_trimming
        """Whether an ante above every other player's ante is returned, like an uncalled bet
        (PHH's ``ante_trimming_status``; it returns a lone big-blind ante)."""
        self.dead: set[int] = set()
        """Seats whose hands were conceded at the showdown (no claim on any pot)."""
        self._last_blind_seat = self.order[0]
        if voluntary_blind:
            self._verify_voluntary_blind()
        self._log(
            ev.HandStarted(
                game.name,
                button,
                self.order,
                tuple(p.stack for p in self.players.values()),
                deck.remaining,
                voluntary_blind,
                tuple(self._antes.get(s, 0) for s in self.order),
                ante_trimming,
            )
        )
        if automatic:
            self._run_chores()

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
        needed = 2 * self.rules.blinds[-1]
        stack = self.players[poster].stack
        if stack < needed:
            raise RuleViolationError(
                "Draw 11.x(c)",
                f"seat {poster} has {stack} chips; a voluntary blind must be double the last "
                f"compulsory blind ({needed})",
                f"no voluntary blind, or a stack of at least {needed}",
            )

    # ----------------------------------------------------------------- views
    @property
    def phase(self) -> Phase:
        """Where the hand is."""
        if self._stage == "done":
            return Phase.COMPLETE
        if self._stage == "bet" and self._actor is not None:
            return Phase.BETTING
        if self._stage == "draw" and self._actor is not None:
            return Phase.DRAWING
        return Phase.DEALER

    @property
    def is_complete(self) -> bool:
        """Whether the hand is over."""
        return self._stage == "done"

    @property
    def actor(self) -> int | None:
        """The seat to act, or None."""
        return self._actor if self.phase in (Phase.BETTING, Phase.DRAWING) else None

    @property
    def street_name(self) -> str:
        """The current street's name."""
        return self.game.streets[min(self.street, len(self.game.streets) - 1)].name

    @property
    def current_bet(self) -> int:
        """The highest bet of the round."""
        return self._current_bet

    @property
    def total_pot(self) -> int:
        """Every chip committed this hand (bets in front included)."""
        return sum(p.contributed for p in self.players.values())

    @property
    def pots(self) -> list[Pot]:
        """Main and side pots as they stand (bets in front included)."""
        folded = {s for s, p in self.players.items() if p.folded}
        all_in = {s for s, p in self.players.items() if p.all_in}
        return build_pots({s: p.contributed for s, p in self.players.items()}, folded, all_in)

    @property
    def stacks(self) -> dict[int, int]:
        """Chips behind, by seat."""
        return {s: p.stack for s, p in self.players.items()}

    @property
    def awards(self) -> tuple[ev.PotAwarded, ...]:
        """The pots paid so far."""
        return tuple(self._awarded)

    @property
    def pending_chore(self) -> str | None:
        """The next dealer chore when :attr:`phase` is ``DEALER``, e.g. ``"deal flop"``."""
        if self.phase is not Phase.DEALER:
            return None
        street = self.game.streets[self.street]
        names = {
            "forced": "post forced bets",
            "deal": f"deal {street.name}",
            "bet": "open the betting",
            "draw": "start the draw",
            "collect": "collect bets",
            "showdown": "showdown",
            "award": "award pots",
        }
        return names[self._stage]

    def hand_of(self, seat: int) -> HandValue | None:
        """A player's evaluated hand once the board is complete (None if folded or not yet)."""
        return self._hands.get(seat)

    # --------------------------------------------------------------- helpers
    def _log(self, event: ev.Event) -> None:
        self.events.append(event)

    def _clockwise_from(self, seat: int) -> list[int]:
        """Seats in clockwise order starting just after ``seat``."""
        seats = list(self.order)
        later = [s for s in seats if s > seat]
        return later + [s for s in seats if s <= seat]

    def _in_hand(self) -> list[PlayerState]:
        return [p for p in self.players.values() if not p.folded]

    def _put(self, player: PlayerState, amount: int) -> int:
        amount = min(amount, player.stack)
        player.stack -= amount
        player.bet += amount
        player.contributed += amount
        return amount

    def _error(self, rule: str, problem: str) -> IllegalActionError:
        allowed = self.legal_actions().describe() if self.actor is not None else "no action"
        return IllegalActionError(rule, problem, allowed)

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
            self._rng.shuffle(pool)
        self._restocked.update(pool)
        self.deck.reuse_discards(pool)
        self._log(ev.StubRestocked(tuple(pool)))

    # ---------------------------------------------------------- dealer chores
    def step(self) -> ev.Event | None:
        """Run the next dealer chore (when :attr:`phase` is ``DEALER``); return its last event."""
        if self.phase is not Phase.DEALER:
            raise CroupierError(f"no dealer chore is due: {self.phase.value}")
        before = len(self.events)
        stage = self._stage
        if stage == "forced":
            self._post_forced_bets()
        elif stage == "deal":
            self._deal_street()
        elif stage == "bet":
            self._open_betting()
        elif stage == "draw":
            self._open_draw()
        elif stage == "collect":
            self._collect()
        elif stage == "showdown":
            self._showdown()
        elif stage == "award":
            self._award()
        return self.events[-1] if len(self.events) > before else None

    def _run_chores(self) -> None:
        while self.phase is Phase.DEALER:
            self.step()

    def _after_action(self) -> None:
        if self.automatic:
            self._run_chores()

    def _post_forced_bets(self) -> None:
        rules = self.rules
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
            amounts = list(rules.blinds)
            if self.voluntary_blind:
                amounts.append(2 * rules.blinds[-1])
            for i, (seat, amount) in enumerate(zip(posters, amounts, strict=False)):
                paid = self._put(self.players[seat], amount)
                self._log(ev.BlindPosted(seat, paid, voluntary=i >= len(rules.blinds)))
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
        count = len(self.rules.blinds) + (1 if self.voluntary_blind else 0)
        around = self._clockwise_from(self.button)
        if len(self.order) == 2 and self.rules.heads_up is HeadsUpBlinds.BUTTON_POSTS_FIRST:
            around = [self.button, *[s for s in self.order if s != self.button]]
        return [around[i % len(around)] for i in range(count)]

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

    def _open_betting(self) -> None:
        street = self.game.streets[self.street]
        for player in self.players.values():
            player.acted_serial = -1
        if self.street > 0 or self.game.forced is not ForcedBets.BLINDS:
            self._current_bet = max(p.bet for p in self.players.values())
            self._last_increment = 0
            self._raises = 0
        self._full_raises = 0
        able = [s for s in self.order if self.players[s].can_act]
        owing = [s for s in able if self.players[s].bet < self._current_bet]
        if len(able) < 2 and not owing:
            # no betting this round: the last bet that was called stays the "called" hand
            self._actor = None
            self._stage = "collect"
            return
        self._aggressor = None
        first = self._first_to_act(street)
        self._to_act = set(able)
        self._bring_in_due = street.opener is Opener.LOWEST_UP_CARD
        self._short_bring_in = False
        self._actor = first if first in self._to_act else self._next_from(first)

    def _first_to_act(self, street: Street) -> int:
        live = [s for s in self._clockwise_from(self.button) if self.players[s].can_act]
        if street.opener is Opener.LEFT_OF_LAST_BLIND:
            after = self._clockwise_from(self._last_blind_seat)
            return next(s for s in after if self.players[s].can_act)
        if street.opener is Opener.LOWEST_UP_CARD:
            # 12.2(a): lowest up card; equal ranks: lowest suit (clubs) opens
            return min(live, key=lambda s: min(self.players[s].up))
        if street.opener is Opener.BEST_EXPOSED_HAND:
            # the best exposed hand among the players still in opens; if that player is all
            # in, the next player clockwise who can bet acts first (see _open_betting)
            shown = [s for s in self._clockwise_from(self.button) if not self.players[s].folded]
            best = max(exposed_strength(self.players[s].up, self.game.ranking) for s in shown)
            return next(
                s for s in shown if exposed_strength(self.players[s].up, self.game.ranking) == best
            )
        return live[0]

    def _next_from(self, seat: int) -> int | None:
        for s in self._clockwise_from(seat):
            if s in self._to_act:
                return s
        return None

    def _collect(self) -> None:
        bets = sorted(((p.bet, s) for s, p in self.players.items()), reverse=True)
        if len(bets) > 1 and bets[0][0] > bets[1][0]:
            excess = bets[0][0] - bets[1][0]
            top = self.players[bets[0][1]]
            top.bet -= excess
            top.contributed -= excess
            top.stack += excess
            self._log(ev.BetReturned(top.seat, excess))
        for player in self.players.values():
            player.bet = 0
        self._current_bet = 0
        self._log(ev.BetsCollected(self.total_pot))
        self._actor = None
        if len(self._in_hand()) == 1:
            self._stage = "award"
        elif self.street + 1 < len(self.game.streets):
            self.street += 1
            self._stage = "deal"
        else:
            self._stage = "showdown"

    # --------------------------------------------------------------- showdown
    def _evaluate(self, player: PlayerState) -> HandValue:
        board = tuple(self.board)
        composition = self.game.composition
        if not board or not composition.is_exact:
            return evaluate(player.cards, board, ranking=self.game.ranking)
        return evaluate(player.cards, board, composition=composition, ranking=self.game.ranking)

    def _showdown(self) -> None:
        live = [p for p in self._in_hand() if p.seat not in self.dead] or self._in_hand()
        for seat in sorted(self.dead):
            self._log(ev.HandMucked(seat))
        self._hands = {p.seat: self._evaluate(p) for p in live}
        # 17.5(d): the called player shows first; checked through: first left of the button
        first = self._aggressor if self._aggressor in self._hands else None
        order = self._clockwise_from(self.button)
        if first is not None:
            order = [first, *[s for s in self._clockwise_from(first) if s != first]]
        winners = self._pot_winners()
        shown: list[HandValue] = []
        for seat in [s for s in order if s in self._hands]:
            value = self._hands[seat]
            must = not shown or value >= max(shown) or seat in winners
            if must or self.rules.show_all_at_showdown:
                shown.append(value)
                self._log(ev.HandShown(seat, self.players[seat].cards, value.describe()))
            else:
                self._log(ev.HandMucked(seat))
        self._stage = "award"

    def _pot_winners(self) -> set[int]:
        out: set[int] = set()
        for pot in self.pots:
            contenders = [s for s in pot.eligible if s in self._hands]
            if contenders:
                best = max(self._hands[s] for s in contenders)
                out.update(s for s in contenders if self._hands[s] == best)
        return out

    def _return_unreachable(self) -> None:
        """Chips no live player can win go back: when every player who covered an all-in
        player has folded, the all-in player wins only the matching amount from each other
        player (Poker definitions: All-in); the rest returns to those who put it in."""
        live = [p for p in self.players.values() if not p.folded]
        if not live or any(not p.all_in for p in live):
            return
        cap = max(p.contributed for p in live)
        for player in self.players.values():
            excess = player.contributed - cap
            if excess > 0:
                player.contributed -= excess
                player.stack += excess
                self._log(ev.BetReturned(player.seat, excess))

    def _odd_chip_seat(self, winners: Sequence[int]) -> int:
        if self.rules.odd_chip is OddChip.FIRST_LEFT_OF_BUTTON or not self._hands:
            return next(s for s in self._clockwise_from(self.button) if s in winners)

        def used(seat: int) -> tuple[Card, ...]:
            hand = self._hands[seat]
            return hand.own_cards if self.board else hand.best_five  # stud, draw: all own

        # Omaha 17.5(e): the highest card by suit among the hole cards used; a winner who
        # plays the board has none, so the fallback decides only when no winner uses one
        using = [s for s in winners if used(s)]
        if using:
            high = {s: max(used(s)) for s in using}
        else:  # Decision 3.2-12: nobody uses a hole card; the highest card of the five
            high = {s: max(self._hands[s].best_five) for s in winners}
        best = max(high.values())
        tied = [s for s, card in high.items() if card == best]  # same card: first left of button
        return next(s for s in self._clockwise_from(self.button) if s in tied)

    def _award(self) -> None:
        self._return_unreachable()
        pots = self.pots
        saw_second_round = self.street > 0
        rake = self.rules.rake.amount(
            self.total_pot, unit=self.rules.chip_unit, saw_flop=saw_second_round
        )
        if rake:
            self._log(ev.RakeTaken(rake))
        for index, pot in enumerate(pots):
            amount = pot.amount
            take = min(rake, amount)
            amount -= take
            rake -= take
            contenders = [s for s in pot.eligible if not self.players[s].folded]
            claim = [s for s in contenders if s in self._hands] if self._hands else []
            if self._hands and not claim:  # every claimant conceded: their cards speak
                for seat in contenders:
                    self._hands[seat] = self._evaluate(self.players[seat])
                claim = contenders
            contenders = claim or contenders
            if self._hands:
                best = max(self._hands[s] for s in contenders)
                winners = [s for s in contenders if self._hands[s] == best]
            else:
                winners = contenders
            odd = self._odd_chip_seat(winners) if len(winners) > 1 else winners[0]
            shares = split_pot(amount, winners, unit=self.rules.chip_unit, odd_chip_to=odd)
            for seat, chips in shares.items():
                self.players[seat].stack += chips
            remainder = amount - min(shares.values()) * len(winners) if len(winners) > 1 else 0
            award = ev.PotAwarded(
                index, amount, tuple(sorted(shares.items())), odd if remainder else None
            )
            self._awarded.append(award)
            self._log(award)
        for player in self.players.values():
            player.bet = 0
        self._log(ev.HandEnded(tuple((s, p.stack) for s, p in self.players.items())))
        self._stage = "done"

    # ---------------------------------------------------------- legal actions
    def legal_actions(self) -> LegalActions:
        """What the player to act may do (empty when nobody is to act)."""
        seat = self.actor
        if seat is None:
            return LegalActions(seat=-1)
        player = self.players[seat]
        if self._stage == "draw":
            return LegalActions(seat=seat, discard=True)
        to_call = max(self._current_bet - player.bet, 0)
        raise_range = self._raise_range(player, to_call)
        if self._bring_in_due:
            low = min(self.rules.bring_in_amount, player.stack)
            high = raise_range[1] if raise_range else low
            ends = self.rules.structure.fixed_increment(self.street) is not None
            return LegalActions(seat=seat, bring_in=(low, max(low, high)), bring_in_ends_only=ends)
        return LegalActions(
            seat=seat,
            fold=to_call > 0 or self.rules.fold_when_check_is_free,
            check=to_call == 0,
            call=min(to_call, player.stack) if to_call > 0 else None,
            raise_to=raise_range,
        )

    def _heads_up(self) -> bool:
        """17.6(f) "head to head": two players left in the hand who can still bet."""
        return sum(1 for p in self.players.values() if p.can_act) == 2

    def _raise_range(self, player: PlayerState, to_call: int) -> tuple[int, int] | None:
        all_in_total = player.bet + player.stack
        if player.stack <= to_call:
            return None
        others = [p for p in self.players.values() if p is not player and p.can_act]
        if not others:
            return None
        if player.acted_serial >= 0 and player.acted_serial >= self._full_raises:
            return None  # a short all-in does not reopen the betting (Decision 3.2-2)
        structure = self.rules.structure
        if structure.capped and not self._heads_up() and self._raises >= 4:
            return None  # 17.6(f): a bet and three raises
        street = self.street
        table_min = self.rules.table_minimum
        unit = self.rules.chip_unit
        full_bet = structure.min_bet(street, table_min)
        fixed = structure.fixed_increment(street)
        opening = self._bring_in_due or self._completes(full_bet, fixed)
        if self._bring_in_due:
            low = self.rules.bring_in_amount  # 12.2(a): at least the table minimum
        elif opening:
            low = full_bet  # an opening bet, or completing a bring-in smaller than a bet
        else:
            step = structure.min_raise_increment(street, self._last_increment, table_min)
            low = self._current_bet + step
        if fixed is not None:
            high = max(low, full_bet) if opening else self._current_bet + fixed
            low = min(low, high)
        else:
            limit = structure.max_raise_to(
                pot=self.total_pot,
                to_call=to_call,
                current_bet=self._current_bet,
                my_bet=player.bet,
            )
            high = all_in_total if limit is None else limit // unit * unit
        if self.rules.table_maximum is not None:
            high = min(high, self._current_bet + self.rules.table_maximum)
        high = min(high, all_in_total)
        if all_in_total < low:  # 17.6(c): a tap-out may be less than a full raise
            return (all_in_total, all_in_total)
        return (low, max(low, high))

    # --------------------------------------------------------------- actions
    def _require_bettor(self, rule: str, what: str) -> PlayerState:
        if self._stage != "bet" or self._actor is None:
            raise IllegalActionError(
                rule, f"cannot {what}: no player is to act in a betting round", "no action"
            )
        return self.players[self._actor]

    def verify_fold(self) -> None:
        """Raise :class:`IllegalActionError` unless the player to act may fold."""
        self._require_bettor("Omaha 17.2(a)", "fold")
        if not self.legal_actions().fold:
            raise self._error(
                "Five Card Stud 12.2(a)" if self._bring_in_due else "Omaha 17.3(b)",
                f"seat {self._actor} may not fold now",
            )

    def can_fold(self) -> bool:
        """Whether :meth:`fold` is legal now."""
        return _can(self.verify_fold)

    def fold(self) -> None:
        """Fold: the player's chips stay in the pot (they can no longer win it)."""
        self.verify_fold()
        player = self.players[self._actor]  # type: ignore[index]
        player.folded = True
        self._log(ev.Folded(player.seat))
        self._acted(player)

    def verify_check(self) -> None:
        """Raise unless the player to act may check."""
        player = self._require_bettor("Omaha 17.2(a)", "check")
        if not self.legal_actions().check:
            if self._bring_in_due:
                rule = "Five Card Stud 12.2(a)"
            else:
                rule = "Omaha 17.2(a)" if self.street == 0 else "Omaha 17.3(c)"
            due = self._current_bet - player.bet
            raise self._error(rule, f"seat {player.seat} cannot check: {due} to call")

    def can_check(self) -> bool:
        """Whether :meth:`check` is legal now."""
        return _can(self.verify_check)

    def check(self) -> None:
        """Check (nothing to call)."""
        self.verify_check()
        player = self.players[self._actor]  # type: ignore[index]
        self._log(ev.Checked(player.seat))
        self._acted(player)

    def verify_call(self) -> None:
        """Raise unless the player to act may call."""
        player = self._require_bettor("Poker definitions: Call", "call")
        if self.legal_actions().call is None:
            raise self._error("Poker definitions: Call", f"seat {player.seat} has nothing to call")

    def can_call(self) -> bool:
        """Whether :meth:`call` is legal now."""
        return _can(self.verify_call)

    def call(self) -> None:
        """Call the highest bet, or go all in for less when the stack is short (Call, Table Stakes)."""
        self.verify_call()
        player = self.players[self._actor]  # type: ignore[index]
        paid = self._put(player, self._current_bet - player.bet)
        self._log(ev.Called(player.seat, paid, all_in=player.stack == 0))
        self._acted(player)

    def verify_raise_to(self, amount: int) -> None:
        """Raise unless the player to act may bet or raise to ``amount`` (a round total)."""
        player = self._require_bettor("Omaha 17.6(c)", "bet or raise")
        legal = self.legal_actions()
        if legal.bring_in is not None:
            raise self._error("Five Card Stud 12.2(a)", "the lowest up card must bring in first")
        if legal.raise_to is None:
            raise self._error(self._no_raise_rule(player), f"seat {player.seat} may not raise now")
        amount = whole_chips(amount, "a bet or raise")
        low, high = legal.raise_to
        if not low <= amount <= high:
            rule = self._range_rule(amount, low, high, player)
            raise self._error(rule, f"seat {player.seat} cannot make it {amount}")
        if amount % self.rules.chip_unit and amount != player.bet + player.stack:
            raise self._error("Omaha 17.5(e)", f"{amount} is not a multiple of the chip unit")

    def _no_raise_rule(self, player: PlayerState) -> str:
        game = self.game
        if self.rules.structure.capped and self._raises >= 4 and not self._heads_up():
            return game.limit_rule("f")
        if player.acted_serial >= 0:
            return game.limit_rule("c")
        return "Poker definitions: Table Stakes"

    def _range_rule(self, amount: int, low: int, high: int, player: PlayerState) -> str:
        game = self.game
        name = self.rules.structure.name
        if amount > player.bet + player.stack:
            return "Poker definitions: Table Stakes"
        if name == "spread-limit":
            return game.limit_rule("e")
        if name == "fixed-limit":
            return "Poker definitions: Fixed Bet"
        if name == "pot-limit" and amount > high:
            return game.limit_rule("d")
        if amount < low and self._current_bet == 0:
            return game.limit_rule("a")  # below the minimum wager on the table's sign
        return game.limit_rule("c") if amount < low else game.limit_rule("a")

    def can_raise_to(self, amount: int) -> bool:
        """Whether :meth:`raise_to` with this amount is legal now."""
        return _can(self.verify_raise_to, amount)

    def raise_to(self, amount: int) -> None:
        """Bet or raise so that the player's total for the round is ``amount``."""
        self.verify_raise_to(amount)
        self._make_bet(int(amount), bring_in=False)

    bet = raise_to

    def verify_bring_in(self, amount: int) -> None:
        """Raise unless the lowest up card may bring in for ``amount`` (12.2(a))."""
        player = self._require_bettor("Five Card Stud 12.2(a)", "bring in")
        amount = whole_chips(amount, "a bring-in")
        legal = self.legal_actions()
        if legal.bring_in is None:
            raise self._error("Five Card Stud 12.2(a)", "no bring-in is due")
        low, high = legal.bring_in
        fixed = self.rules.structure.fixed_increment(self.street) is not None
        off_unit = amount % self.rules.chip_unit and amount != player.bet + player.stack
        if not low <= amount <= high or (fixed and amount not in (low, high)) or off_unit:
            raise self._error(
                "Five Card Stud 12.2(a)", f"seat {player.seat} cannot bring in for {amount}"
            )

    def can_bring_in(self, amount: int) -> bool:
        """Whether :meth:`bring_in` is legal now."""
        return _can(self.verify_bring_in, amount)

    def bring_in(self, amount: int) -> None:
        """The lowest up card opens the betting with at least the table minimum (12.2(a))."""
        self.verify_bring_in(amount)
        self._make_bet(int(amount), bring_in=True)

    def _make_bet(self, total: int, *, bring_in: bool) -> None:
        player = self.players[self._actor]  # type: ignore[index]
        structure = self.rules.structure
        increment = total - self._current_bet
        full_bet = structure.min_bet(self.street, self.rules.table_minimum)
        if bring_in or self._completes(full_bet, structure.fixed_increment(self.street)):
            # an opening bet (or a bring-in, or completing one): full when it is a whole bet
            full = total >= full_bet
            size = total
        else:
            needed = structure.min_raise_increment(
                self.street, self._last_increment, self.rules.table_minimum
            )
            full = increment >= needed
            size = increment
        self._put(player, total - player.bet)
        if full:
            self._raises += 1
            self._full_raises += 1
            self._last_increment = max(self._last_increment, size)
        self._current_bet = total
        self._aggressor = player.seat
        self._bring_in_due = False
        self._short_bring_in = bring_in and not full
        all_in = player.stack == 0
        if bring_in:
            self._log(ev.BringIn(player.seat, total, all_in))
        else:
            self._log(ev.RaisedTo(player.seat, total, increment, full, all_in))
        self._to_act = {p.seat for p in self.players.values() if p.can_act and p is not player}
        self._acted(player)

    def _completes(self, full_bet: int, fixed: int | None) -> bool:
        """Whether the next bet completes an opening smaller than a full bet: no bet yet,
        a short stud bring-in, or (limit poker only) a short all-in opening bet. In no limit
        and pot limit a raise over a short all-in is a full raise over it (Decision 3.2-1)."""
        if self._current_bet == 0 or self._short_bring_in:
            return True
        return fixed is not None and self._current_bet < full_bet

    def _acted(self, player: PlayerState) -> None:
        player.acted_serial = self._full_raises
        self._to_act.discard(player.seat)
        if len(self._in_hand()) == 1:
            self._to_act.clear()
        nxt = self._next_from(player.seat)
        # a player facing no bet who cannot act (all in) is done
        while nxt is not None and not self.players[nxt].can_act:
            self._to_act.discard(nxt)
            nxt = self._next_from(nxt)
        self._actor = nxt
        if nxt is None:
            self._stage = "collect"
        self._after_action()

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

    # ----------------------------------------------------------- conceding
    def verify_concede(self, seat: int) -> None:
        """Raise unless ``seat`` may give up its claim now: at the showdown, before the hands
        are read (a hand thrown away is dead, Poker definitions: Dead Hand)."""
        if self.pending_chore != "showdown":
            raise IllegalActionError(
                "Poker definitions: Dead Hand",
                "a hand may be conceded only at the showdown",
                "at the showdown",
            )
        seat = seat_number(seat)
        if seat not in self.players or self.players[seat].folded:
            raise IllegalActionError(
                "Poker definitions: Dead Hand",
                f"seat {seat} is not in the showdown",
                "a seat still in the hand",
            )

    def can_concede(self, seat: int) -> bool:
        """Whether :meth:`concede` is legal now."""
        return _can(self.verify_concede, seat)

    def concede(self, seat: int) -> None:
        """Give up the hand unshown at the showdown (driven step by step, ``automatic=False``);
        the hand can then win no pot unless every other claimant has conceded too."""
        self.verify_concede(seat)
        seat = int(seat)
        self.dead.add(seat)
        self._log(ev.Conceded(seat))

    # ------------------------------------------------------- after the showdown
    def verify_request_show(self, seat: int) -> None:
        """Raise unless ``seat``'s hand may be shown on request: any player may ask to see
        any hand in the final showdown (Omaha 17.5(d))."""
        if self._stage not in ("award", "done") or not self._hands:
            raise IllegalActionError(
                "Omaha 17.5(d)",
                "hands may be asked for only in the final showdown",
                "after the showdown",
            )
        seat = seat_number(seat)
        if seat not in self._hands:
            raise IllegalActionError(
                "Omaha 17.5(d)",
                f"seat {seat} was not in the final showdown",
                f"one of seats {sorted(self._hands)}",
            )

    def can_request_show(self, seat: int) -> bool:
        """Whether :meth:`request_show` is legal now."""
        return _can(self.verify_request_show, seat)

    def request_show(self, seat: int) -> ev.HandShown:
        """Expose a showdown hand at any player's request (17.5(d)); cards speak, so the
        result stands. A hand already shown is not logged twice."""
        self.verify_request_show(seat)
        seat = int(seat)
        value = self._hands[seat]
        shown = ev.HandShown(seat, self.players[seat].cards, value.describe())
        if shown not in self.events:
            self._log(ev.ShowRequested(seat))
            self._log(shown)
        return shown

    def inspect(self, seat: int) -> tuple[Card, ...]:
        """The dealer's look at a player's cards once the hand is over (Poker 18.3)."""
        if not self.is_complete:
            raise IllegalActionError(
                "Poker 18.3",
                "the dealer may inspect a hand only at the completion of the hand",
                "after the hand",
            )
        return self.players[seat].cards

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """What one player (or, with None, a spectator) may see: own cards, others' up
        cards, the board, stacks, bets and the log with others' down cards hidden.

        >>> from croupier.poker import HOLDEM, NoLimit, TableRules
        >>> hand = HandState(TableRules(HOLDEM, NoLimit()), {1: 100, 2: 100}, button=1, seed=3)
        >>> view = hand.view_for(2)
        >>> len(view["players"][2]["down"]), view["players"][1]["down"]
        (2, ['??', '??'])
        """
        shown = {e.seat for e in self.events if isinstance(e, ev.HandShown)}

        def visible(owner: int) -> bool:
            return owner == seat or owner in shown

        players = {
            s: {
                "stack": p.stack,
                "bet": p.bet,
                "folded": p.folded,
                "up": [str(c) for c in p.up],
                "down": [str(c) if visible(s) else "??" for c in p.down],
            }
            for s, p in self.players.items()
        }
        log: list[str] = []
        for event in self.events:
            if isinstance(event, ev.HandStarted):
                log.append(event.describe())
            elif isinstance(event, ev.CardsDealt) and not event.up and visible(event.seat):
                log.append(f"seat {event.seat} is dealt {' '.join(str(c) for c in event.cards)}")
            elif isinstance(event, ev.Discarded) and event.seat == seat:
                log.append(f"seat {seat} discards {' '.join(str(c) for c in event.cards)}")
            else:
                log.append(event.describe())
        return {
            "seat": seat,
            "game": self.game.name,
            "street": self.street_name,
            "board": [str(c) for c in self.board],
            "players": players,
            "pot": self.total_pot,
            "actor": self.actor,
            "legal": self.legal_actions().describe() if self.actor == seat else None,
            "log": log,
        }

    # ---------------------------------------------------------------- replay
    def snapshot(self) -> dict[str, Any]:
        """Everything observable about the hand, for comparisons (replay, tests)."""
        return {
            "phase": self.phase.value,
            "street": self.street,
            "actor": self.actor,
            "board": tuple(self.board),
            "players": tuple(
                (p.seat, p.stack, p.bet, p.contributed, p.folded, tuple(p.down), tuple(p.up))
                for p in self.players.values()
            ),
            "events": tuple(self.events),
        }

    @classmethod
    def replay(
        cls, rules: TableRules, events: Sequence[ev.Event], *, automatic: bool = True
    ) -> HandState:
        """Rebuild a hand from its event log: the cards in the order they were dealt, the
        forced bets, and the players' decisions. With ``automatic`` the dealer's chores
        after the last decision are run too, as in a hand dealt automatically.

        The log is checked against the rules: it must be of the rules' game, every
        decision must come from the seat to act, and every event the replay produces must
        equal the logged one; a mismatch raises :class:`CroupierError` naming the event.

        >>> from croupier.poker import OMAHA, PotLimit
        >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=2)
        >>> hand.fold()
        >>> HandState.replay(TableRules(), hand.events).stacks == hand.stacks
        True
        >>> HandState.replay(TableRules(OMAHA, PotLimit()), hand.events)
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: the log is of a holdem hand; these rules are for omaha
        """
        if isinstance(events, str | bytes) or not isinstance(events, Sequence):
            raise CroupierError(f"an event log is a sequence of events, not {events!r}")
        if not events or not isinstance(events[0], ev.HandStarted):
            raise CroupierError("an event log starts with HandStarted")
        if not all(isinstance(e, ev.Event) for e in events):
            bad = next(e for e in events if not isinstance(e, ev.Event))
            raise CroupierError(f"an event log holds only events, not {bad!r}")
        if not isinstance(rules, TableRules):
            raise CroupierError(f"rules must be TableRules, not {rules!r}")
        start = events[0]
        if start.game != rules.game.name:
            raise CroupierError(
                f"the log is of a {start.game} hand; these rules are for {rules.game.name}"
            )
        if len(start.stacks) != len(start.seats) or (
            start.antes and len(start.antes) != len(start.seats)
        ):
            raise CroupierError("the log's first event names seats and stacks that do not match")
        deck = Deck(start.deck, shuffle=False)
        antes = dict(zip(start.seats, start.antes, strict=True)) if start.antes else None
        state = cls(
            rules,
            dict(zip(start.seats, start.stacks, strict=True)),
            start.button,
            deck=deck,
            automatic=False,
            voluntary_blind=start.voluntary_blind,
            antes=antes,
            ante_trimming=start.ante_trimming,
        )
        if not start.deck:  # cards were placed as the hand went (a replayed record)
            order: list[Card] = []
            for event in events:
                if isinstance(event, ev.CardBurned):
                    order.append(event.card)
                elif isinstance(event, ev.CardsDealt | ev.CommunityDealt):
                    order.extend(c for c in event.cards if c not in order)
            state.deck.put_on_top(order)
        state._restock_orders = [e.cards for e in events if isinstance(e, ev.StubRestocked)]
        for index, event in enumerate(events[1:], start=1):
            if not isinstance(event, ev.PlayerAction):
                continue
            conceding = isinstance(event, ev.Conceded)
            while state.phase is Phase.DEALER and not (
                conceding and state.pending_chore == "showdown"
            ):
                state.step()
            chooser = isinstance(event, ev.Conceded | ev.ShowRequested)
            if not chooser and event.seat != state.actor:
                raise CroupierError(
                    f"event {index} of the log ({event.describe()}): "
                    + (f"seat {state.actor} is to act" if state.actor else "nobody is to act")
                )
            state._apply(event)
        while state.phase is Phase.DEALER and len(state.events) < len(events):
            state.step()
        for index, (logged, replayed) in enumerate(zip(events, state.events, strict=False)):
            if logged != replayed:
                raise CroupierError(
                    f"event {index} of the log ({logged.describe()}) differs from the replay "
                    f"({replayed.describe()})"
                )
        if len(state.events) < len(events):
            extra = events[len(state.events)]
            raise CroupierError(
                f"event {len(state.events)} of the log ({extra.describe()}) never happens "
                "under these rules"
            )
        state.automatic = automatic
        if automatic:
            state._run_chores()
        return state

    def _apply(self, event: ev.PlayerAction) -> None:
        match event:
            case ev.Folded():
                self.fold()
            case ev.Checked():
                self.check()
            case ev.Called():
                self.call()
            case ev.RaisedTo(to=to):
                self.raise_to(to)
            case ev.BringIn(to=to):
                self.bring_in(to)
            case ev.Discarded(cards=cards):
                self.discard(cards)
            case ev.Conceded(seat=seat):
                self.concede(seat)
            case ev.ShowRequested(seat=seat):
                self.request_show(seat)
            case _:  # pragma: no cover
                raise CroupierError(f"cannot replay {event!r}")


def _can(check: Any, *args: Any) -> bool:
    """Whether ``check`` passes; never raises (malformed input is simply not legal)."""
    try:
        check(*args)
    except CroupierError:
        return False
    return True


def _parse_discards(cards: object) -> tuple[Card, ...]:
    """The cards a player discards, or a :class:`CroupierError` naming what is wrong."""
    if isinstance(cards, str):
        return parse_cards(cards)
    if not isinstance(cards, Iterable):
        raise CroupierError(f"a discard is a list of cards, not {cards!r}")
    items = list(cards)
    if not all(isinstance(c, str | Card) for c in items):
        raise CroupierError(f"a discard is a list of cards, not {items!r}")
    return parse_cards(items)
