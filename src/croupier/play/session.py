"""A poker session for one human seat and bots, hand after hand (no terminal code here).

:class:`PokerSession` drives a :class:`~croupier.poker.table.Table`: it deals each hand
committed to its deck (:mod:`croupier.fairness`), lets the bots act until the human is to
act, and takes the human's action as a value or as text (``f``, ``c``, ``r 40``…). An
illegal action raises the engine's rule-citing error and leaves the hand as it was, so
the UI shows the message and asks again. The hand log is built from the human's own
view of the events; at the end of each hand it gives the showdown in the order the
rules make players show (17.5(d)) and who won which pot, odd chip included.

With ``seed`` a session replays card for card: the table's shuffles, the bots' choices
and the commitment salts all come from sources derived from it.

>>> from croupier.poker import TableRules
>>> session = PokerSession(TableRules(), seats=3, bot_style="calling", seed=7)
>>> session.deal()
>>> session.human_to_act, session.view().legal.describe()
(True, 'fold, call 5, raise to 20..1000')
>>> session.act("f")
>>> session.hand_over, session.log[-1]
(True, 'hand 1 over: you 995, bot2 1015, bot3 990')
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from croupier.errors import CroupierError
from croupier.fairness import DeckCommitment, DeckReveal, commit_deck
from croupier.play._common import SessionCore
from croupier.poker import events as ev
from croupier.poker.actions import Action, parse_action
from croupier.poker.bots import BOTS
from croupier.poker.games import ForcedBets
from croupier.poker.policies import Policy
from croupier.poker.settings import TableRules
from croupier.poker.state import HandState
from croupier.poker.table import Table, default_action
from croupier.poker.views import SeatView

if TYPE_CHECKING:
    from croupier.store import SessionInfo, Store

__all__ = ["HUMAN", "PokerSession", "describe_event", "hand_summary"]

HUMAN = "you"
"""The human player's name at the table."""


def describe_event(event: ev.Event, names: dict[int, str], viewer: int | None) -> str:
    """One log line for ``event`` as ``viewer`` sees it: the viewer's own down cards shown,
    seats named.

    >>> from croupier.cards import parse_cards
    >>> describe_event(ev.CardsDealt(1, parse_cards("As Kd"), up=False), {1: "you"}, 1)
    'seat 1 (you) is dealt As Kd'
    """
    if isinstance(event, ev.CardsDealt) and event.seat == viewer:
        text = f"seat {event.seat} is dealt {' '.join(str(c) for c in event.cards)}"
    else:
        text = event.describe()
    for seat, name in names.items():
        text = text.replace(f"seat {seat} ", f"seat {seat} ({name}) ", 1)
        if text.endswith(f"seat {seat}"):
            text += f" ({name})"
    return text


def hand_summary(events: tuple[ev.Event, ...] | list[ev.Event], names: dict[int, str]) -> list[str]:
    """The end of a hand: the showdown in the order players showed or mucked (17.5(d))
    and who won which pot, with the odd chip.

    >>> hand_summary([ev.HandShown(2, (), "a pair of aces"), ev.HandMucked(1),
    ...               ev.PotAwarded(0, 31, ((2, 16), (3, 15)), 2)], {1: "you", 2: "bo", 3: "cy"})
    ['showdown (17.5(d) order): bo shows a pair of aces; you mucks', 'main pot 31: bo 16, cy 15 (odd chip to bo)']
    """
    lines: list[str] = []
    order: list[str] = []
    for event in events:
        if isinstance(event, ev.HandShown):
            order.append(f"{names.get(event.seat, event.seat)} shows {event.description}")
        elif isinstance(event, ev.HandMucked):
            order.append(f"{names.get(event.seat, event.seat)} mucks")
    if order:
        lines.append("showdown (17.5(d) order): " + "; ".join(order))
    for event in events:
        if isinstance(event, ev.PotAwarded):
            label = "main pot" if event.pot == 0 else f"side pot {event.pot}"
            shares = ", ".join(f"{names.get(s, s)} {a}" for s, a in event.shares)
            odd = event.odd_chip_seat
            tail = f" (odd chip to {names.get(odd, odd)})" if odd is not None else ""
            lines.append(f"{label} {event.amount}: {shares}{tail}")
    return lines


class PokerSession(SessionCore):
    """One human seat (``human``; None: every seat a bot) against bots at a poker table.

    ``seats`` seats, the human in seat 1 and ``bots`` bots (default: every other seat) in
    seats 2, 3, …, each buying in for ``buy_in`` (default 100 big blinds; stud: 100 table
    minimums). A busted bot buys in again; the session is over when the human leaves
    (:meth:`leave`) or is broke. ``store`` records every hand (one transaction each).

    >>> from croupier.poker import TableRules
    >>> auto = PokerSession(TableRules(), seats=3, human=None, seed=2)
    >>> auto.play(hands=2)
    2
    >>> sum(auto.table.stacks.values())
    3000
    """

    def __init__(
        self,
        rules: TableRules,
        *,
        seats: int = 6,
        bots: int | None = None,
        bot_style: str = "default",
        buy_in: int | None = None,
        human: str | None = HUMAN,
        seed: int | None = None,
        store: Store | None = None,
        echo: Callable[[str], None] | None = None,
    ) -> None:
        if bot_style not in BOTS:
            raise CroupierError(f"unknown bot style {bot_style!r}: one of {', '.join(BOTS)}")
        others = seats - (1 if human else 0) if bots is None else bots
        count = others + (1 if human else 0)
        if count < 2:
            raise CroupierError(f"a table needs two players: {count} would sit")
        if count > seats:
            raise CroupierError(f"{count} players do not fit at {seats} seats")
        super().__init__(human=human, seed=seed, store=store, echo=echo)
        unit = rules.blinds[-1] if rules.game.forced is ForcedBets.BLINDS else rules.table_minimum
        self.buy_in = 100 * unit if buy_in is None else buy_in
        """What each player buys in for."""
        if self.buy_in < 1:
            raise CroupierError(f"a buy-in is at least 1 chip, not {self.buy_in}")
        self.seed = seed
        """The session's seed (None: the OS CSPRNG)."""
        table_rng = random.Random(seed) if seed is not None else None
        self.table = Table(rules, seats, rng=table_rng)
        """The table."""
        self.hand: HandState | None = None
        """The hand in progress or the last hand."""
        self.hands_played = 0
        """Hands finished."""
        self.commitment: DeckCommitment | None = None
        """The current hand's deck commitment (shown before the first card)."""
        self._reveal: DeckReveal | None = None
        self._seen = 0
        self._bots: dict[str, Policy] = {}
        names: list[str] = [human] if human else []
        names += [f"bot{len(names) + i + 1}" for i in range(others)]
        self._open(rules, seed)
        for seat, name in enumerate(names, start=1):
            self.table.sit(name, seat, self.buy_in)
            if name != human:
                bot_rng = random.Random(f"croupier bot {name} {seed}") if seed is not None else None
                self._bots[name] = BOTS[bot_style](bot_rng or random.Random())
            self._seat(name, seat, bot_style)

    # ------------------------------------------------------------------ state
    @property
    def names(self) -> dict[int, str]:
        """Each occupied seat's player."""
        return {seat: player.name for seat, player in self.table.seats.items()}

    @property
    def human_seat(self) -> int | None:
        """The human's seat (None when no human plays)."""
        for seat, name in self.names.items():
            if name == self.human:
                return seat
        return None

    @property
    def hand_over(self) -> bool:
        """Whether no hand is in progress (before the first, or the last one finished)."""
        return self.table.hand is None

    @property
    def human_to_act(self) -> bool:
        """Whether the hand waits for the human's action."""
        hand = self.table.hand
        return hand is not None and hand.actor is not None and hand.actor == self.human_seat

    def view(self) -> SeatView:
        """What the human's seat sees of the current (or last) hand (no human: a spectator)."""
        if self.hand is None:
            raise CroupierError("no hand has been dealt yet")
        seat = self.human_seat
        return self.hand.view_for(seat if seat in self.hand.players else None)

    # ------------------------------------------------------------------ play
    def deal(self) -> None:
        """Deal the next hand (committed to its deck first) and let the bots act up to the
        human's turn or the end of the hand."""
        if not self.hand_over:
            raise CroupierError(f"hand {self.table.hand_number} is still in progress")
        if self.over:
            raise CroupierError("the session is over")
        self._restock()
        if self.human and self.table.stacks.get(self.human, 0) == 0:
            self._end("you are broke")
            raise CroupierError("you are broke: the session is over")
        self._seen = 0
        self.hand = self.table.start_hand(before_first_card=self._commit)
        self._advance()

    def _commit(self, hand: HandState) -> None:
        """Commit to the shuffled deck, before the first card (the hand's own hook)."""
        self.commitment, self._reveal = commit_deck(hand.deck.remaining, self._salts)
        number = self.table.hand_number + 1  # the table counts the hand once it is dealt
        self._say(f"hand {number}: deck commitment sha256 {self.commitment.digest}")

    def act(self, action: Action | str) -> None:
        """The human's action (a value, or text such as ``c`` or ``r 40``). An illegal or
        malformed one raises the engine's error (the hand is unchanged); else the bots act
        up to the human's next turn or the end of the hand."""
        hand = self.table.hand
        seat = self.human_seat
        if hand is None or seat is None or hand.actor != seat:
            raise CroupierError("it is not your turn")
        chosen = parse_action(action) if isinstance(action, str) else action
        hand.apply(chosen if chosen.seat is not None else chosen.for_seat(seat))
        self._advance()

    def act_default(self, why: str = "time is up") -> None:
        """Make the human's default action (check if free, else fold) and go on (a timer)."""
        hand = self.table.hand
        if hand is None or not self.human_to_act:
            raise CroupierError("it is not your turn")
        made = default_action(hand)
        self._say(f"  {why}: {self.human} {made}")
        self._advance()

    def leave(self) -> int:
        """The human leaves (between hands, or folding the hand in progress); every player
        cashes out. Returns the human's chips."""
        if self.table.hand is not None and self.human_to_act:
            self.act_default("leaving")
        while self.table.hand is not None:  # pragma: no cover - the bots finish the hand
            self._advance()
        chips = self.table.stacks.get(self.human or "", 0)
        self._end("you left the table")
        return chips

    def play(self, hands: int) -> int:
        """Bots only: play up to ``hands`` hands; returns how many were played."""
        self._bots_only()
        for _ in range(hands):
            if not self.table.can_start_hand():
                break
            self.deal()
        self._end("the session ends")
        return self.hands_played

    # ------------------------------------------------------------------ internals
    def _restock(self) -> None:
        for name, chips in self.table.stacks.items():
            if chips == 0 and name != self.human:
                self.table.buy_in(name, self.buy_in)
                self._bought_in(name)

    def _flush(self) -> None:
        """Log the events the viewer has not seen yet."""
        hand = self.hand
        assert hand is not None
        view = self.view()
        names = self.names
        for event in view.events[self._seen :]:
            if isinstance(event, ev.HandStarted | ev.DeckCut):
                continue
            self._say("  " + describe_event(event, names, view.seat))
        self._seen = len(view.events)

    def _advance(self) -> None:
        hand = self.table.hand
        assert hand is not None
        while not hand.is_complete and hand.actor != self.human_seat:
            seat = hand.actor
            assert seat is not None
            self.table.policy_acts(hand, seat, self._bots[self.names[seat]])
        self._flush()
        if hand.is_complete:
            self._finish(hand)

    def _finish(self, hand: HandState) -> None:
        names = self.names
        done = self.table.finish_hand(hand)
        self.hands_played += 1
        for line in hand_summary(hand.events, names):
            self._say("  " + line)
        self._say(done.describe())
        if self._store is not None and self._session is not None:
            assert self.commitment is not None
            assert self._reveal is not None
            self._store.record_poker_hand(self._session, hand, self.commitment, self._reveal, names)
        if self.human and self.table.stacks.get(self.human, 0) == 0:
            self._end("you are broke")

    def _cash_out(self, store: Store, session: SessionInfo) -> None:
        for name in list(self.table.stacks):
            store.cash_out(session, name, self.table.leave(name, "the session ends"))
