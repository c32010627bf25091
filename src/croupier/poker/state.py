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
RaisedTo(seat=1, to=30, increment=20, full=True, all_in=False)
Folded(seat=2)
Called(seat=3, amount=20, all_in=False)
>>> hand.street_name, hand.total_pot
('flop', 65)
>>> hand.check(); hand.check()
Checked(seat=3)
Checked(seat=1)
>>> hand.can_raise_to(5)
False
"""

from __future__ import annotations

import bisect
import functools
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from croupier.cards.card import Card
from croupier.cards.deck import Deck, full_deck
from croupier.cards.rng import make_rng
from croupier.checks import (
    can,
    flag_setting,
    seat_number,
    whole_chips,
    whole_number,
)
from croupier.errors import (
    CroupierError,
    IllegalActionError,
    InvalidActionError,
    RuleViolationError,
)
from croupier.evaluation.hand import HandValue
from croupier.poker import events as ev
from croupier.poker._core import Phase, PlayerState, Stage
from croupier.poker.actions import (
    Action,
    BringIn,
    Call,
    Check,
    CheckOrCall,
    Concede,
    Discard,
    Fold,
    LegalActions,
    RaiseTo,
    RequestShow,
)
from croupier.poker.betting import Betting
from croupier.poker.dealing import Dealing
from croupier.poker.games import ForcedBets
from croupier.poker.replay import replay_hand
from croupier.poker.settings import TableRules
from croupier.poker.showdown import Showdown
from croupier.poker.views import PlayerView, SeatView, censor_event
from croupier.version import engine_version

__all__ = [
    "HandState",
    "IllegalActionError",
    "LegalActions",
    "Phase",
    "PlayerState",
    "engine_version",
]


@functools.cache
def _game_cards(lowest_rank: int) -> frozenset[Card]:
    """The cards of a game's deck: every card from ``lowest_rank`` up."""
    return frozenset(c for c in full_deck() if c.rank >= lowest_rank)


_NO_OWNER = -1
"""No seat sees an event otherwise than every viewer does."""


def _owner(event: ev.Event) -> int:
    """The seat that sees a censored event whole: a player's own down cards or discards."""
    if isinstance(event, ev.CardsDealt | ev.Discarded):
        return event.seat
    return _NO_OWNER


_Public = tuple[
    frozenset[Card], tuple[PlayerView, ...], tuple[int, ...], int, tuple[Card, ...], dict[int, int]
]
"""The shown cards, each seat's public record, the pots, the pot, the board and where
each seat's record is in the tuple (a hand's seats never change)."""


class HandState(Dealing, Betting, Showdown):
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
        blinds: Mapping[int, int] | None = None,
        cut: int | None = None,
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
        self._explicit_blinds = _explicit_blinds(blinds, stacks, rules)
        if game.forced is ForcedBets.BLINDS:
            count = len(self._explicit_blinds) if self._explicit_blinds else len(rules.blinds)
            posting = count + (1 if voluntary_blind else 0)
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
        self._game_cards = _game_cards(game.ranking.lowest_rank)
        if deck is None:
            lowest = game.ranking.lowest_rank
            deck = (
                Deck.stripped(lowest, seed=seed, rng=self._rng)
                if lowest > 0
                else Deck.standard(seed=seed, rng=self._rng)
            )
            if cut is not None:
                raise CroupierError("a cut is reported only for a deck the dealer shuffled")
            cut = self._rng.randrange(1, len(deck))  # Poker definitions: Cut
            deck.cut(cut)
        else:
            self._verify_deck(deck)
            if cut is not None:  # the dealer's reported cut, already in the deck's order
                cut = whole_number(cut, "a cut")
        self._placed = not deck.remaining  # an empty deck: the caller places the cards
        # draw poker's restock shuffles from a secret drawn now from the hand's source, so
        # the hand never needs its random source again (and a copy shares nothing)
        draws = any(street.draw for street in game.streets)
        self._restock_seed = self._rng.getrandbits(64) if draws else 0
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
        self._stage = Stage.FORCED
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
        self._views: dict[int | None, list[ev.Event]] = {}
        self._public_log: list[ev.Event] = []
        """Each event as a spectator sees it (see :meth:`_censored_log`)."""
        self._own_at: dict[int, list[int]] = {}
        """Where in the log each seat sees an event whole that others see censored."""
        self._public_shown: frozenset[Card] = frozenset()
        self._shown: frozenset[Card] = frozenset()
        self._public: tuple[tuple[Any, ...], _Public] | None = None
        self._own: dict[int, tuple[PlayerView, PlayerView]] = {}
        self._records: list[PlayerView | None] = [None] * len(stacks)
        self._dirty: set[int] = set()
        """Seats whose public record may have changed since the last view."""
        self._all_dirty = True
        """Each seat as a spectator sees it (see :meth:`_public_view`)."""
        self._pot_key: tuple[tuple[int, bool, int], ...] = ()
        self._pot_amounts: tuple[int, ...] = ()
        self._index = {s: i for i, s in enumerate(self.players)}
        self._pending_draw: tuple[int, tuple[Card, ...]] | None = None
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
                engine_version(),
                rules.fingerprint,
                tuple(self._explicit_blinds.items()),
            )
        )
        self._log(ev.DeckCut(cut))
        if automatic:
            self._run_chores()

    # ---------------------------------------------------------- dealer chores
    def step(self) -> ev.Event | None:
        """Run the next dealer chore (when :attr:`phase` is ``DEALER``); return its last event."""
        if self.phase is not Phase.DEALER:
            raise CroupierError(f"no dealer chore is due: {self.phase.value}")
        if self._waiting_for_cards():
            raise IllegalActionError(
                "Poker 3.3",
                f"the live dealer deals the next {self.cards_needed} cards",
                "deal(cards)",
            )
        before = len(self.events)
        stage = self._stage
        if stage == Stage.FORCED:
            self._post_forced_bets()
        elif stage == Stage.DEAL:
            self._deal_street()
        elif stage == Stage.BET:
            self._open_betting()
        elif stage == Stage.DRAW:
            self._open_draw()
        elif stage == Stage.COLLECT:
            self._collect()
        elif stage == Stage.SHOWDOWN:
            self._showdown()
        elif stage == Stage.AWARD:
            self._award()
        return self.events[-1] if len(self.events) > before else None

    def _run_chores(self) -> None:
        while self.phase is Phase.DEALER and not self._waiting_for_cards():
            self.step()

    def _waiting_for_cards(self) -> bool:
        """A live dealer's hand waits at a deal until the cards are entered."""
        return (
            self._placed
            and self._stage in (Stage.DEAL, Stage.REPLACE)
            and len(self.deck) < self.cards_needed
        )

    def _after_action(self) -> None:
        if self.automatic:
            self._run_chores()

    # ------------------------------------------------------------ action values
    def verify(self, action: Action) -> None:
        """Raise unless ``action`` is legal now: :class:`InvalidActionError` when it is no
        action, :class:`IllegalActionError` when the rules forbid it (an action naming a
        seat other than the one to act included). The hand is unchanged either way.

        >>> from croupier.poker.actions import RaiseTo
        >>> hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7)
        >>> hand.verify(RaiseTo(30, seat=2))
        Traceback (most recent call last):
        ...
        croupier.errors.IllegalActionError: Omaha 17.3(c): seat 2 cannot act: seat 1 is to act; allowed: fold, call 10, raise to 20..100
        """
        if not isinstance(action, Action):
            raise InvalidActionError(f"not an action: {action!r}")
        chooser = isinstance(action, Concede | RequestShow)
        if not chooser and action.seat is not None and action.seat != self.actor:
            whom = f"seat {self.actor} is to act" if self.actor is not None else "nobody is to act"
            raise self._error("Omaha 17.3(c)", f"seat {action.seat} cannot act: {whom}")
        match action:
            case Fold():
                self.verify_fold()
            case Check():
                self.verify_check()
            case Call():
                self.verify_call()
            case CheckOrCall():
                if not self.can_check():
                    self.verify_call()
            case RaiseTo(amount=amount):
                self.verify_raise_to(amount)
            case BringIn(amount=amount):
                self.verify_bring_in(amount)
            case Discard(cards=cards):
                self.verify_discard(cards)
            case Concede(seat=seat):
                self.verify_concede(seat)  # type: ignore[arg-type]
            case RequestShow(shown=shown):
                self.verify_request_show(shown)
            case _:  # pragma: no cover - every Action subclass is matched above
                raise InvalidActionError(f"not a poker action: {action!r}")

    def can(self, action: object) -> bool:
        """Whether ``action`` is legal now; never raises.

        >>> from croupier.poker.actions import Call, Check
        >>> hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7)
        >>> hand.can(Call()), hand.can(Check()), hand.can("call")
        (True, False, False)
        """
        return can(self.verify, action)

    def apply(self, action: Action) -> ev.Event:
        """Apply ``action`` and return the event it produced (the dealer's chores that
        follow, in automatic mode, are in :attr:`events` after it).

        >>> from croupier.poker.actions import parse_action
        >>> hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7)
        >>> hand.apply(parse_action("r 30"))
        RaisedTo(seat=1, to=30, increment=20, full=True, all_in=False)
        """
        self.verify(action)
        match action:
            case Fold():
                return self._fold()
            case Check():
                return self._check()
            case Call():
                return self._call()
            case CheckOrCall():
                return self._check() if self.can_check() else self._call()
            case RaiseTo(amount=amount):
                return self._make_bet(int(amount), bring_in=False)
            case BringIn(amount=amount):
                return self._make_bet(int(amount), bring_in=True)
            case Discard(cards=cards):
                return self._discard(cards)
            case Concede(seat=seat):
                return self.concede(seat)  # type: ignore[arg-type]
            case RequestShow(shown=shown):
                before = len(self.events)
                shown_event = self.request_show(shown)  # the request, or the hand shown before
                return self.events[before] if len(self.events) > before else shown_event
        raise InvalidActionError(f"not a poker action: {action!r}")  # pragma: no cover

    # ----------------------------------------------------------------- views
    def view_for(self, seat: int | None) -> SeatView:
        """What one player (or, with None, a spectator) may see: a frozen
        :class:`~croupier.poker.views.SeatView` with own cards, others' up cards, the board,
        stacks, bets, pots, the legal actions when it is the seat's turn, and the log with
        every card the seat may not see hidden.

        >>> from croupier.poker import HOLDEM, NoLimit, TableRules
        >>> hand = HandState(TableRules(HOLDEM, NoLimit()), {1: 100, 2: 100}, button=1, seed=3)
        >>> view = hand.view_for(2)
        >>> len(view.me.down), view.players[0].down
        (2, (None, None))
        """
        if seat is not None and seat not in self.players:
            raise CroupierError(f"seat {seat!r} is not in this hand")
        shown, players, pots, pot, board, index = self._public_view()
        actor = self.actor
        legal = None
        to_call = 0
        if seat is not None:
            i = index[seat]
            player = self.players[seat]
            down = tuple(player.down)
            if players[i].down != down:  # the owner sees his own down cards
                players = (
                    *players[:i],
                    self._own_record(seat, players[i], down),
                    *players[i + 1 :],
                )
            if actor == seat:
                legal = self.legal_actions()
                to_call = max(self._current_bet - player.bet, 0)
        return SeatView(
            seat=seat,
            game=self.game.name,
            street=self.street_name,
            button=self.button,
            board=board,
            players=players,
            pot=pot,
            pots=pots,
            actor=actor,
            to_call=to_call,
            legal=legal,
            events=self._censored_log(seat, shown),
            complete=self._stage == Stage.DONE,
        )

    def _public_view(
        self,
    ) -> _Public:
        """The part of every view that is the same for all (the shown cards, each seat as
        a spectator sees it, the pots), worked out once per change of the hand: a server
        asks for every seat's view after each action. A seat's record is made anew only
        when something in it changed (else it is the same object: a server encodes it
        once), and the pots only when the chips put in or the players in the hand did."""
        key = (len(self.events), self._actor, self._stage, self.street)
        cached = self._public
        if cached is not None and cached[0] == key:
            return cached[1]
        shown = self._shown
        records = self._records
        players = self.players
        changed: Iterable[int] = self.order if self._all_dirty or shown else self._dirty
        index = self._index
        for seat in changed:
            p = players[seat]
            down = tuple(c if c in shown else None for c in p.down)
            all_in = p.stack == 0 and not p.folded and p.contributed > 0
            new = PlayerView(seat, p.stack, p.bet, p.folded, all_in, tuple(p.up), down)
            i = index[seat]
            if new != records[i]:
                records[i] = new
        self._dirty.clear()
        self._all_dirty = False
        all_in_seen = any(r.all_in for r in records if r is not None)
        total = self.total_pot
        if not all_in_seen:  # one pot (what build_pots gives when nobody in is all in)
            self._pot_key = ()
            self._pot_amounts = (
                (total,) if total and not all(p.folded for p in self.players.values()) else ()
            )
        else:
            # the pots depend on who is all in too (an award can lift a stack off zero)
            pot_key = tuple((p.contributed, p.folded, p.stack) for p in self.players.values())
            if self._pot_key != pot_key:
                self._pot_key = pot_key
                self._pot_amounts = tuple(pot.amount for pot in self.pots)
        public: _Public = (
            shown,
            cast(tuple[PlayerView, ...], tuple(records)),  # every record is made above
            self._pot_amounts,
            total,
            tuple(self.board),
            self._index,
        )
        self._public = (key, public)
        return public

    def _own_record(self, seat: int, public: PlayerView, down: tuple[Card, ...]) -> PlayerView:
        """``public`` (the seat as others see it) with the owner's down cards: the same
        object while neither changes."""
        kept = self._own.get(seat)
        if kept is not None and kept[0] is public and kept[1].down == down:
            return kept[1]
        own = PlayerView(
            public.seat, public.stack, public.bet, public.folded, public.all_in, public.up, down
        )
        self._own[seat] = (public, own)
        return own

    def _censored_log(self, seat: int | None, shown: frozenset[Card]) -> tuple[ev.Event, ...]:
        """The log as ``seat`` sees it, extended by the events since the seat's last view.

        Each event is censored once for every viewer (its public form, and the one seat
        that sees it whole: a player's own down cards and discards); a seat's log takes the
        public form unless it is that seat. A new shown hand can uncover earlier deals:
        then the public forms are worked out again (once a hand, at the showdown)."""
        events = self.events
        public, own_at = self._public_log, self._own_at
        if self._public_shown != shown:
            public.clear()  # more cards shown: censor again
            own_at.clear()
            self._views.clear()
            self._public_shown = shown
        done = len(public)
        if done < len(events):
            for i in range(done, len(events)):
                event = events[i]
                seen = censor_event(event, None, shown)
                public.append(seen)
                if seen is not event:
                    owner = _owner(event)
                    if owner != _NO_OWNER:
                        own_at.setdefault(owner, []).append(i)
        log = self._views.get(seat)
        if log is None:
            log = self._views[seat] = []
        start = len(log)
        if start < len(public):
            log.extend(public[start:])  # the public forms, then the seat's own entries
            if seat is not None:
                mine = own_at.get(seat, [])
                for i in mine[bisect.bisect_left(mine, start) :]:
                    log[i] = events[i]
        return tuple(log)

    # ------------------------------------------------------------ copies, payoffs
    def copy(self) -> HandState:
        """An independent copy that shares only the immutable parts (rules, game, events,
        cards): acting on one never changes the other, and both deal the same cards from
        here on.

        >>> hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7)
        >>> twin = hand.copy(); twin.fold()
        Folded(seat=1)
        >>> len(twin.events) > len(hand.events), hand.actor
        (True, 1)
        >>> hand.fold(); twin.snapshot() == hand.snapshot()
        Folded(seat=1)
        True
        """
        new = object.__new__(HandState)
        state = self.__dict__.copy()
        new.__dict__ = state
        players = {}
        for seat, player in self.players.items():
            twin = object.__new__(PlayerState)
            twin.__dict__ = player.__dict__.copy()
            twin.down = player.down[:]
            twin.up = player.up[:]
            players[seat] = twin
        state["players"] = players
        state["board"] = self.board[:]
        state["events"] = self.events[:]
        state["deck"] = self.deck.copy()
        state["_to_act"] = set(self._to_act)
        state["_awarded"] = self._awarded[:]
        state["_hands"] = dict(self._hands)
        state["_restocked"] = set(self._restocked)
        state["_antes"] = dict(self._antes)
        state["dead"] = set(self.dead)
        state["_restock_orders"] = self._restock_orders[:]
        state["_views"] = {}
        state["_public_log"] = []
        state["_own_at"] = {}
        state["_public"] = None
        state["_own"] = {}
        state["_records"] = [None] * len(self.players)
        state["_dirty"] = set()
        state["_all_dirty"] = True
        return new

    def payoffs(self) -> dict[int, int]:
        """Chips won (positive) or lost (negative) by each seat in a finished hand; with a
        rake the payoffs add up to minus the rake.

        >>> hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7)
        >>> hand.fold(); hand.fold()
        Folded(seat=1)
        Folded(seat=2)
        >>> hand.payoffs()
        {1: 0, 2: -5, 3: 5}
        """
        if not self.is_complete:
            raise IllegalActionError(
                "Omaha 17.5(f)", "payoffs are known only when the hand is over", "after the hand"
            )
        return {s: p.stack - p.starting_stack for s, p in self.players.items()}

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
        Folded(seat=2)
        >>> HandState.replay(TableRules(), hand.events).stacks == hand.stacks
        True
        >>> HandState.replay(TableRules(OMAHA, PotLimit()), hand.events)
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: the log is of a holdem hand; these rules are for omaha
        """
        return replay_hand(cls, rules, events, automatic=automatic)


def _explicit_blinds(
    blinds: Mapping[int, int] | None, stacks: Mapping[int, int], rules: TableRules
) -> dict[int, int]:
    """The blinds a table named (seat -> amount, first to last), checked; {} for none."""
    if blinds is None:
        return {}
    if not isinstance(blinds, Mapping) or not blinds:
        raise CroupierError(f"blinds must map seats to amounts, first to last, not {blinds!r}")
    if rules.game.forced is not ForcedBets.BLINDS:
        raise RuleViolationError(
            "Five Card Stud 12.3+ (forced bets)", f"{rules.game.title} has no blinds"
        )
    named = {
        seat_number(s): whole_chips(a, f"the blind of seat {s}", minimum=1)
        for s, a in blinds.items()
    }
    stray = [s for s in named if s not in stacks]
    if stray:
        raise CroupierError(f"seat {stray[0]} posts a blind but has no player")
    last = list(named.values())[-1]
    if last < rules.table_minimum:
        raise RuleViolationError(
            rules.game.limit_rule("b"),
            f"the last compulsory blind ({last}) is below the table minimum ({rules.table_minimum})",
            f"a last blind of at least {rules.table_minimum}",
        )
    return named
