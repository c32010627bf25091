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

import functools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from croupier.cards.card import Card
from croupier.cards.deck import Deck, full_deck
from croupier.cards.rng import make_rng
from croupier.checks import (
    can,
    event_log,
    flag_setting,
    same_log,
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
from croupier.poker import showdown
from croupier.poker._core import (
    _AWARD,
    _BET,
    _COLLECT,
    _DEAL,
    _DEALER,
    _DONE,
    _DRAW,
    _FORCED,
    _SHOWDOWN,
    Chore,
    HandCore,
    Phase,
    PlayerState,
    Stage,
)
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
from croupier.poker.betting import BettingRound
from croupier.poker.dealing import Dealer, verify_deck
from croupier.poker.games import ForcedBets, GameSpec
from croupier.poker.pots import Pot
from croupier.poker.settings import TableRules
from croupier.poker.views import SeatView, SeatViews
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


_E = TypeVar("_E", bound=ev.Event)


class HandState:
    """One hand of poker under :class:`TableRules`, refereed card by card.

    ``stacks`` maps seat numbers (clockwise order) to chips; ``button`` is the button
    seat (for stud, the dealer position the deal starts after). The deck is shuffled
    from the OS CSPRNG unless a ``seed`` or a ``deck`` is given.

    What runs by itself is declared here, once: with ``automatic`` (the default) the
    dealer's chores (forced bets, deals, collecting, the showdown, the awards) follow each
    action; without it each is one :meth:`step`. ``before_first_card`` is called once with
    the hand after the shuffle and cut, before the forced bets and the first card: the
    place to commit to the deck.

    >>> from croupier.fairness import commit_deck
    >>> commitments = []
    >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=3,
    ...                  before_first_card=lambda h: commitments.append(commit_deck(h.deck.remaining)))
    >>> len(commitments), hand.automatic, hand.phase
    (1, True, <Phase.BETTING: 'betting'>)
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
        before_first_card: Callable[[HandState], object] | None = None,
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
        stacks = {  # whole chips checked (and the message written) only when not a plain int
            seat_number(s): n
            if type(n) is int and n >= 0
            else whole_chips(n, f"the stack of seat {s}")
            for s, n in stacks.items()
        }
        if before_first_card is not None and not callable(before_first_card):
            raise CroupierError(f"before_first_card must be callable, not {before_first_card!r}")
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
        explicit_blinds = _explicit_blinds(blinds, stacks, rules)
        if game.forced is ForcedBets.BLINDS:
            count = len(explicit_blinds) if explicit_blinds else len(rules.blinds)
            posting = count + (1 if voluntary_blind else 0)
            if posting > len(stacks):  # nobody posts two blinds
                raise RuleViolationError(
                    "Draw 11.x(c)" if voluntary_blind else "Omaha 17.1(c)",
                    f"{posting} blinds need {posting} players; {len(stacks)} are seated",
                    "a voluntary blind only when a player is left of the last blind",
                )
        if antes is not None and not isinstance(antes, Mapping):
            raise CroupierError(f"antes must map seat numbers to chips, not {antes!r}")
        ante_by_seat = (
            {seat_number(s): whole_chips(a, f"the ante of seat {s}") for s, a in antes.items()}
            if antes is not None
            else dict.fromkeys(stacks, rules.ante)
        )
        if set(ante_by_seat) - set(stacks):
            raise CroupierError("antes must name seated players")
        rng = rng if rng is not None else make_rng(seed)
        game_cards = _game_cards(game.ranking.lowest_rank)
        if deck is None:
            lowest = game.ranking.lowest_rank
            deck = (
                Deck.stripped(lowest, seed=seed, rng=rng)
                if lowest > 0
                else Deck.standard(seed=seed, rng=rng)
            )
            if cut is not None:
                raise CroupierError("a cut is reported only for a deck the dealer shuffled")
            cut = rng.randrange(1, len(deck))  # Poker definitions: Cut
            deck.cut(cut)
        else:
            verify_deck(deck, game, game_cards)
            if cut is not None:  # the dealer's reported cut, already in the deck's order
                cut = whole_number(cut, "a cut")
        # draw poker's restock shuffles from a secret drawn now from the hand's source, so
        # the hand never needs its random source again (and a copy shares nothing)
        draws = any(street.draw for street in game.streets)
        core = HandCore(rules, button, stacks)
        self._core = core
        self._betting = BettingRound(
            core,
            antes=ante_by_seat,
            blinds=explicit_blinds,
            voluntary_blind=voluntary_blind,
            ante_trimming=ante_trimming,
        )
        self._dealer = Dealer(
            core, deck, game_cards=game_cards, restock_seed=rng.getrandbits(64) if draws else 0
        )
        self._automatic = automatic
        self._events_seen: tuple[ev.Event, ...] = ()
        self._views = SeatViews(core)
        if voluntary_blind:
            self._betting.verify_voluntary_blind()
        core.record(
            ev.HandStarted(
                game.name,
                button,
                core.order,
                tuple(p.stack for p in core.players.values()),
                deck.remaining,
                voluntary_blind,
                tuple(ante_by_seat.get(s, 0) for s in core.order),
                ante_trimming,
                engine_version(),
                rules.fingerprint,
                tuple(explicit_blinds.items()),
            )
        )
        core.record(ev.DeckCut(cut))
        if before_first_card is not None:
            before_first_card(self)
        if automatic:
            self._run_chores()

    # ------------------------------------------------------- the hand's facts
    @property
    def rules(self) -> TableRules:
        """The table's rules."""
        return self._core.rules

    @property
    def game(self) -> GameSpec:
        """The game."""
        return self._core.game

    @property
    def button(self) -> int:
        """The button seat."""
        return self._core.button

    @property
    def players(self) -> dict[int, PlayerState]:
        """Each seat's state, in seat order."""
        return self._core.players

    @property
    def order(self) -> tuple[int, ...]:
        """Seats in clockwise order."""
        return self._core.order

    @property
    def board(self) -> list[Card]:
        """Community cards."""
        return self._core.board

    @property
    def street(self) -> int:
        """Index of the current street."""
        return self._core.street

    @property
    def dead(self) -> set[int]:
        """Seats whose hands were conceded at the showdown (no claim on any pot)."""
        return self._core.dead

    @property
    def deck(self) -> Deck:
        """The deck (its dealt, burned and discard piles are the record of the cards)."""
        return self._dealer.deck

    @property
    def voluntary_blind(self) -> bool:
        """Whether a voluntary blind (11.x(c)) is posted."""
        return self._betting.voluntary_blind

    @property
    def ante_trimming(self) -> bool:
        """Whether an ante above every other player's ante is returned, like an uncalled bet
        (PHH's ``ante_trimming_status``; it returns a lone big-blind ante)."""
        return self._betting.ante_trimming

    @property
    def automatic(self) -> bool:
        """Whether the dealer's chores run by themselves, as declared when the hand was built
        (:meth:`step` runs them one at a time otherwise)."""
        return self._automatic

    @property
    def events(self) -> tuple[ev.Event, ...]:
        """The event log, oldest first: immutable events in an immutable sequence (the
        referee alone adds to it).

        >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1)
        >>> [e.describe() for e in hand.events[-2:]]
        ['seat 2 is dealt ??', 'seat 1 is dealt ??']
        """
        log = self._core.log
        if len(self._events_seen) != len(log):
            self._events_seen = tuple(log)
        return self._events_seen

    @property
    def phase(self) -> Phase:
        """Where the hand is."""
        return self._core.phase

    @property
    def stage(self) -> Stage:
        """What the hand does next (see :class:`~croupier.poker._core.Stage`).

        >>> HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1).stage
        <Stage.BET: 'bet'>
        """
        return self._core.stage

    @property
    def is_complete(self) -> bool:
        """Whether the hand is over."""
        return self._core.stage is _DONE

    @property
    def actor(self) -> int | None:
        """The seat to act, or None."""
        return self._core.acting

    @property
    def street_name(self) -> str:
        """The current street's name."""
        return self._core.street_name

    @property
    def current_bet(self) -> int:
        """The highest bet of the round."""
        return self._betting.current_bet

    @property
    def total_pot(self) -> int:
        """Every chip committed this hand (bets in front included)."""
        return self._core.total_pot

    @property
    def pots(self) -> list[Pot]:
        """Main and side pots as they stand (bets in front included)."""
        return self._core.pots

    @property
    def stacks(self) -> dict[int, int]:
        """Chips behind, by seat."""
        return {s: p.stack for s, p in self._core.players.items()}

    @property
    def awards(self) -> tuple[ev.PotAwarded, ...]:
        """The pots paid so far."""
        return tuple(self._core.awarded)

    @property
    def next_chore(self) -> Chore | None:
        """The next dealer chore as a value (None when a player is to act or it is over).

        >>> HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1, automatic=False).next_chore
        <Chore.POST_FORCED_BETS: 'post forced bets'>
        """
        return self._core.next_chore

    @property
    def cards_needed(self) -> int:
        """How many cards the next deal takes (burn card included): what a live dealer
        passes to :meth:`deal`; 0 when no deal is due.

        >>> live = HandState(TableRules(), {1: 100, 2: 100}, button=1, deck=Deck([], shuffle=False))
        >>> live.next_chore, live.cards_needed
        (<Chore.DEAL: 'deal'>, 4)
        """
        return self._dealer.cards_needed

    def hand_of(self, seat: int) -> HandValue | None:
        """A player's evaluated hand once the board is complete (None if folded or not yet)."""
        return self._core.hands.get(seat)

    def seats_clockwise_from(self, seat: int) -> list[int]:
        """The seats in the hand in clockwise order, starting just after ``seat``.

        >>> HandState(TableRules(), {1: 100, 4: 100, 6: 100}, button=4, seed=1).seats_clockwise_from(4)
        [6, 1, 4]
        """
        return self._core.clockwise_from(seat)

    # ---------------------------------------------------------- dealer chores
    def step(self) -> ev.Event | None:
        """Run the next dealer chore (when :attr:`phase` is ``DEALER``); return its last event."""
        core = self._core
        if core.phase is not _DEALER:
            raise CroupierError(f"no dealer chore is due: {core.phase.value}")
        if self._dealer.waiting_for_cards():
            raise IllegalActionError(
                "Poker 3.3",
                f"the live dealer deals the next {self.cards_needed} cards",
                "deal(cards)",
            )
        log = core.log
        before = len(log)
        stage = core.stage
        if stage is _FORCED:
            self._betting.post_forced_bets()
        elif stage is _DEAL:
            self._dealer.deal_street()
        elif stage is _BET:
            self._betting.open()
        elif stage is _DRAW:
            self._dealer.open_draw()
        elif stage is _COLLECT:
            self._betting.collect()
        elif stage is _SHOWDOWN:
            showdown.show_down(core, self._betting.aggressor)
        elif stage is _AWARD:
            showdown.award(core)
        return log[-1] if len(log) > before else None

    def _run_chores(self) -> None:
        core, dealer = self._core, self._dealer
        while core.phase is _DEALER and not dealer.waiting_for_cards():
            self.step()

    def _after_action(self) -> None:
        if self._automatic:
            self._run_chores()

    # ------------------------------------------------------------ betting
    def legal_actions(self) -> LegalActions:
        """What the player to act may do (empty when nobody is to act). Worked out once
        per point of the hand: a server asks for them for the view, then again to check
        the action that comes back.

        >>> HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7).legal_actions().describe()
        'fold, call 10, raise to 20..100'
        """
        return self._betting.legal()

    def verify_fold(self) -> None:
        """Raise :class:`IllegalActionError` unless the player to act may fold."""
        self._betting.verify_fold()

    def can_fold(self) -> bool:
        """Whether :meth:`fold` is legal now (worked out, never raised and caught)."""
        return self._betting.can_fold()

    def fold(self) -> ev.Folded:
        """Fold: the player's chips stay in the pot (they can no longer win it)."""
        self._betting.verify_fold()
        return self._chores_after(self._betting.fold())

    def verify_check(self) -> None:
        """Raise unless the player to act may check."""
        self._betting.verify_check()

    def can_check(self) -> bool:
        """Whether :meth:`check` is legal now."""
        return self._betting.can_check()

    def check(self) -> ev.Checked:
        """Check (nothing to call)."""
        self._betting.verify_check()
        return self._chores_after(self._betting.check())

    def verify_call(self) -> None:
        """Raise unless the player to act may call."""
        self._betting.verify_call()

    def can_call(self) -> bool:
        """Whether :meth:`call` is legal now."""
        return self._betting.can_call()

    def call(self) -> ev.Called:
        """Call the highest bet, or go all in for less when the stack is short (Call, Table Stakes)."""
        self._betting.verify_call()
        return self._chores_after(self._betting.call())

    def verify_raise_to(self, amount: int) -> None:
        """Raise unless the player to act may bet or raise to ``amount`` (a round total)."""
        self._betting.verify_raise_to(amount)

    def can_raise_to(self, amount: int) -> bool:
        """Whether :meth:`raise_to` with this amount is legal now."""
        return self._betting.can_raise_to(amount)

    def raise_to(self, amount: int) -> ev.RaisedTo:
        """Bet or raise so that the player's total for the round is ``amount``."""
        self._betting.verify_raise_to(amount)
        event = self._betting.make_bet(int(amount), bring_in=False)
        return self._chores_after(event)  # type: ignore[return-value]

    def verify_bring_in(self, amount: int) -> None:
        """Raise unless the lowest up card may bring in for ``amount`` (12.2(a))."""
        self._betting.verify_bring_in(amount)

    def can_bring_in(self, amount: int) -> bool:
        """Whether :meth:`bring_in` is legal now."""
        return self._betting.can_bring_in(amount)

    def bring_in(self, amount: int) -> ev.BringIn:
        """The lowest up card opens the betting with at least the table minimum (12.2(a))."""
        self._betting.verify_bring_in(amount)
        event = self._betting.make_bet(int(amount), bring_in=True)
        return self._chores_after(event)  # type: ignore[return-value]

    def _chores_after(self, event: _E) -> _E:
        """After a player's action: the chores that follow, when they run by themselves."""
        if self._automatic:
            self._run_chores()
        return event

    # ------------------------------------------------------------ dealing
    def verify_discard(self, cards: Iterable[str | Card]) -> None:
        """Raise unless the player to act may discard these cards (draw poker)."""
        self._dealer.verify_discard(cards)

    def can_discard(self, cards: Iterable[str | Card]) -> bool:
        """Whether :meth:`discard` is legal now."""
        return can(self._dealer.verify_discard, cards)

    def discard(self, cards: Iterable[str | Card] = ()) -> ev.Discarded:
        """Discard these cards (none to stand pat) and be dealt as many replacements."""
        self._dealer.verify_discard(cards)
        return self._chores_after(self._dealer.discard(cards))

    def verify_report_boxed_card(self, card: Card | str) -> None:
        """Raise unless the dealer may report ``card`` as boxed now: face up in the deck
        before it is dealt, so it must be the next card of a deal
        (Poker definitions: Boxed Card). A fifth boxed card makes the deck defective
        (Poker definitions: Defective Deck); the hand must then be declared a misdeal,
        which croupier does not model (Decision 3.2-16), so the report is refused.

        >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1, automatic=False)
        >>> hand.can_report_boxed_card("As")
        False
        """
        self._dealer.verify_report_boxed_card(card)

    def can_report_boxed_card(self, card: Card | str) -> bool:
        """Whether :meth:`report_boxed_card` is allowed now."""
        return can(self._dealer.verify_report_boxed_card, card)

    def report_boxed_card(self, card: Card | str) -> ev.CardBoxed:
        """The dealer found ``card`` face up on top of the deck: it is shown to everyone
        and set aside with the burn cards, and the deal goes on with the next card.

        >>> from croupier.cards import full_deck
        >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1,
        ...                  deck=Deck(full_deck(), shuffle=False), automatic=False)
        >>> _ = hand.step()  # forced bets
        >>> hand.report_boxed_card(hand.deck.peek(1)[0]).describe()
        'boxed card 2c set aside'
        """
        self._dealer.verify_report_boxed_card(card)
        return self._dealer.report_boxed_card()

    def verify_deal(self, cards: Iterable[Card | str] | str) -> None:
        """Raise unless a live dealer may enter these cards now: the hand was started with
        an empty deck, a deal is due, and ``cards`` are exactly :attr:`cards_needed` cards
        of the game's deck, none seen before, in the order dealt (burn card first).

        >>> live = HandState(TableRules(), {1: 100, 2: 100}, button=1, deck=Deck([], shuffle=False))
        >>> live.can_deal("As Kd"), live.can_deal("As Kd Qh Jc")
        (False, True)
        """
        self._dealer.verify_deal(cards)

    def can_deal(self, cards: Iterable[Card | str] | str) -> bool:
        """Whether :meth:`deal` with these cards is allowed now."""
        return can(self._dealer.verify_deal, cards)

    def deal(self, cards: Iterable[Card | str] | str) -> ev.Event:
        """A live dealer enters the cards physically dealt (burn card first, then one card
        at a time clockwise, then the board): croupier referees, the dealer deals. Returns
        the deal's last event; in automatic mode the chores after it run too.

        >>> live = HandState(TableRules(), {1: 100, 2: 100}, button=1, deck=Deck([], shuffle=False))
        >>> live.deal("As Kd Qh Jc").describe(), live.actor
        ('seat 1 is dealt ??', 2)
        """
        self._dealer.verify_deal(cards)
        return self._chores_after(self._dealer.deal(cards))

    # ------------------------------------------------------------ showdown
    def verify_concede(self, seat: int) -> None:
        """Raise unless ``seat`` may give up its claim now: at the showdown, before the hands
        are read (a hand thrown away is dead, Poker definitions: Dead Hand)."""
        showdown.verify_concede(self._core, seat)

    def can_concede(self, seat: int) -> bool:
        """Whether :meth:`concede` is legal now."""
        return can(showdown.verify_concede, self._core, seat)

    def concede(self, seat: int) -> ev.Conceded:
        """Give up the hand unshown at the showdown (driven step by step, ``automatic=False``);
        the hand can then win no pot unless every other claimant has conceded too."""
        return showdown.concede(self._core, seat)

    def verify_request_show(self, seat: int) -> None:
        """Raise unless ``seat``'s hand may be shown on request: any player may ask to see
        any hand in the final showdown (Omaha 17.5(d))."""
        showdown.verify_request_show(self._core, seat)

    def can_request_show(self, seat: int) -> bool:
        """Whether :meth:`request_show` is legal now."""
        return can(showdown.verify_request_show, self._core, seat)

    def request_show(self, seat: int) -> ev.HandShown:
        """Expose a showdown hand at any player's request (17.5(d)); cards speak, so the
        result stands. A hand already shown is not logged twice."""
        return showdown.request_show(self._core, seat)

    def inspect(self, seat: int) -> tuple[Card, ...]:
        """The dealer's look at a player's cards once the hand is over (Poker 18.3)."""
        return showdown.inspect(self._core, seat)

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
        actor = self.actor
        if not chooser and action.seat is not None and action.seat != actor:
            whom = f"seat {actor} is to act" if actor is not None else "nobody is to act"
            raise self._betting.error("Omaha 17.3(c)", f"seat {action.seat} cannot act: {whom}")
        betting = self._betting
        match action:
            case Fold():
                betting.verify_fold()
            case Check():
                betting.verify_check()
            case Call():
                betting.verify_call()
            case CheckOrCall():
                if not betting.can_check():
                    betting.verify_call()
            case RaiseTo(amount=amount):
                betting.verify_raise_to(amount)
            case BringIn(amount=amount):
                betting.verify_bring_in(amount)
            case Discard(cards=cards):
                self._dealer.verify_discard(cards)
            case Concede(seat=seat):
                showdown.verify_concede(self._core, seat)  # type: ignore[arg-type]
            case RequestShow(shown=shown):
                showdown.verify_request_show(self._core, shown)
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
        betting = self._betting
        event: ev.Event
        match action:
            case Fold():
                event = betting.fold()
            case Check():
                event = betting.check()
            case Call():
                event = betting.call()
            case CheckOrCall():
                event = betting.check() if betting.can_check() else betting.call()
            case RaiseTo(amount=amount):
                event = betting.make_bet(int(amount), bring_in=False)
            case BringIn(amount=amount):
                event = betting.make_bet(int(amount), bring_in=True)
            case Discard(cards=cards):
                event = self._dealer.discard(cards)
            case Concede(seat=seat):
                return showdown.concede(self._core, seat)  # type: ignore[arg-type]
            case RequestShow(shown=shown):
                log = self._core.log
                before = len(log)
                shown_event = showdown.request_show(self._core, shown)  # or the hand shown before
                return log[before] if len(log) > before else shown_event
            case _:  # pragma: no cover
                raise InvalidActionError(f"not a poker action: {action!r}")
        return self._chores_after(event)

    # ----------------------------------------------------------------- views
    def view_for(self, seat: int | None) -> SeatView:
        """What one player (or, with None, a spectator) may see: a frozen
        :class:`~croupier.poker.views.SeatView` with own cards, others' up cards, the board,
        stacks, bets, pots, the legal actions when it is the seat's turn, and the log with
        every card the seat may not see hidden. Each view is kept up to date from the events
        since that viewer's last one (:class:`~croupier.poker.views.SeatViews`).

        >>> from croupier.poker import HOLDEM, NoLimit, TableRules
        >>> hand = HandState(TableRules(HOLDEM, NoLimit()), {1: 100, 2: 100}, button=1, seed=3)
        >>> view = hand.view_for(2)
        >>> len(view.me.down), view.players[0].down
        (2, (None, None))
        """
        core = self._core
        if seat is None:
            return self._views.view(None, None, 0)
        player = core.players.get(seat)
        if player is None:
            raise CroupierError(f"seat {seat!r} is not in this hand")
        if seat == core.acting:
            to_call = max(self._betting.current_bet - player.bet, 0)
            return self._views.view(seat, self._betting.legal(), to_call)
        return self._views.view(seat, None, 0)

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
        core = self._core.copy()
        new._core = core
        new._betting = self._betting.copy(core)
        new._dealer = self._dealer.copy(core)
        new._automatic = self._automatic
        new._events_seen = self._events_seen
        new._views = SeatViews(core)
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
            "events": tuple(self._core.log),
        }

    @classmethod
    def replay(
        cls, rules: TableRules, events: Sequence[ev.Event], *, automatic: bool = True
    ) -> HandState:
        """Rebuild a hand from its event log: the cards in the order they were dealt, the
        forced bets, and the players' decisions. ``automatic`` declares the rebuilt hand's
        chores as the constructor does: with it the dealer's chores after the last decision
        are run too, and follow every action from there on.

        The log is checked against the rules: it must have been played under rules with
        the same fingerprint (:attr:`TableRules.fingerprint`, in its first event), every
        decision must come from the seat to act, and every event the replay produces must
        equal the logged one; a mismatch raises :class:`CroupierError` naming the event.

        >>> from croupier.poker import OMAHA, PotLimit
        >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=2)
        >>> hand.fold()
        Folded(seat=2)
        >>> HandState.replay(TableRules(), hand.events).stacks == hand.stacks
        True
        >>> HandState.replay(TableRules(OMAHA, PotLimit()), hand.events)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: the log was played under rules ... (a holdem hand); these rules are ... (omaha): replay it with its own rules
        >>> HandState.replay(TableRules(), [])
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: an event log starts with HandStarted
        """
        start = event_log(events, ev.HandStarted, ev.Event)
        if not isinstance(rules, TableRules):
            raise CroupierError(f"rules must be TableRules, not {rules!r}")
        if start.rules_version and start.rules_version != rules.fingerprint:
            raise CroupierError(
                f"the log was played under rules {start.rules_version} (a {start.game} hand); "
                f"these rules are {rules.fingerprint} ({rules.game.name}): replay it with its "
                "own rules"
            )
        if start.game != rules.game.name:  # a log from before fingerprints were recorded
            raise CroupierError(
                f"the log is of a {start.game} hand; these rules are for {rules.game.name}"
            )
        if len(start.stacks) != len(start.seats) or (
            start.antes and len(start.antes) != len(start.seats)
        ):
            raise CroupierError("the log's first event names seats and stacks that do not match")
        logged_cut = events[1] if len(events) > 1 and isinstance(events[1], ev.DeckCut) else None
        state = cls(
            rules,
            dict(zip(start.seats, start.stacks, strict=True)),
            start.button,
            deck=Deck(start.deck, shuffle=False),
            automatic=False,
            voluntary_blind=start.voluntary_blind,
            antes=dict(zip(start.seats, start.antes, strict=True)) if start.antes else None,
            ante_trimming=start.ante_trimming,
            blinds=dict(start.blinds) or None,
            cut=logged_cut.position if logged_cut is not None else None,
        )
        state._core.log[0] = start
        if logged_cut is None:  # a log from before cuts were recorded
            del state._core.log[1]  # the log's own record of engine and rules versions
        state._events_seen = ()  # the first events were replaced: the public tuple is made again
        if not start.deck:  # cards were placed as the hand went (a replayed record)
            order: list[Card] = []
            for event in events:
                if isinstance(event, ev.CardBurned):
                    order.append(event.card)
                elif isinstance(event, ev.CardsDealt | ev.CommunityDealt):
                    order.extend(c for c in event.cards if c not in order)
            state.deck.put_on_top(order)
        state._dealer.restock_orders = [e.cards for e in events if isinstance(e, ev.StubRestocked)]
        for index, event in enumerate(events[1:], start=1):
            if isinstance(event, ev.CardBoxed):  # the dealer's report, where it was made
                while state.phase is Phase.DEALER and len(state._core.log) < index:
                    state.step()
                state.report_boxed_card(event.card)
                continue
            if not isinstance(event, ev.PlayerAction):
                continue
            conceding = isinstance(event, ev.Conceded)
            while state.phase is Phase.DEALER and not (
                conceding and state.next_chore is Chore.SHOWDOWN
            ):
                state.step()
            if type(event) not in (ev.Conceded, ev.ShowRequested) and event.seat != state.actor:
                raise CroupierError(
                    f"event {index} of the log ({event.describe()}): "
                    + (f"seat {state.actor} is to act" if state.actor else "nobody is to act")
                )
            state.apply(event.action)
        while state.phase is Phase.DEALER and len(state._core.log) < len(events):
            state.step()
        same_log(events, state._core.log)
        state._automatic = automatic  # the rebuilt hand's own declaration, once it is rebuilt
        if automatic:
            state._run_chores()
        return state


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
