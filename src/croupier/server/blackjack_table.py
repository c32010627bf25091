"""The blackjack table task: the shoe's commitment, the rounds, the time bank, restarts.

A :class:`BlackjackRunner` deals round after round of the engine's
:class:`~croupier.blackjack.round.BlackjackRound` (the NZ rules, within the table's limits)
from one shoe, the same shape as the poker :class:`~croupier.server.tables.TableRunner`.
What the people do (boxes, wagers, decisions) is
:class:`~croupier.server.blackjack_plays.BlackjackPlays`, which it inherits; the settings
are :class:`~croupier.server.config.TableConfig`'s.

* **The shoe.** A shoe is committed to (:func:`~croupier.fairness.commit_deck` of its whole
  order) before its first round, by the engine table's commitment hook (the
  :class:`~croupier.blackjack.table.BlackjackTable` runs it once a shoe, after the shuffle
  and before any card), and every round opens with a
  :class:`~croupier.server.protocol.CommitmentMessage` (``hand`` = the round's number,
  ``digest`` = the shoe's commitment) before its first card. The round is journaled when
  it opens, with the shoe's full order and salt as the journal's reveal and the shoe's
  number and the round's offset in it as its state, *before* the commitment is sent.
  The round that brings out the cut card is recorded with ``shoe_finished`` (the store
  marks the shoe revealed) and its :class:`~croupier.server.protocol.HandFinishedMessage`
  carries the shoe's reveal; every other round's carries None. The next round is dealt
  from a new shoe (burning its first card).
* **Wagers.** When a round opens the bots wager (``wager``, default the table minimum;
  a bot that cannot cover it is topped up to the buy-in between rounds), then the people
  have one time bank, together, to wager (its clock starts before the view that asks
  them, so that view carries ``time_left``). The round is dealt as soon as every person
  is done, or when the time bank runs out (who did not wager sits the round out; the
  wagers placed stand). A round nobody wagered on is dropped unrecorded (its journal
  rows deleted) and its number is used again.
* **Decisions.** A person's time bank starts before the view that puts him to act is
  sent. When it runs out the hand stands where that is legal, else draws (Blackjack
  12.1(d): 11 or less must draw), and an unanswered insurance offer is declined.
* **The journal.** Every accepted wager or decision is committed to the journal before
  anyone sees it; a settled round is recorded in the store and its journal deleted in one
  transaction, and only then is the result sent.

After a restart the table carries on with its store session: the players sit at their
boxes with the chips the ledger gives them. A round the journal holds is replayed from
its log (:meth:`BlackjackRound.replay <croupier.blackjack.round.BlackjackRound.replay>`)
on the shoe the journal holds and played on (``on_crash = "resume"``), or voided (``on_crash
= "void"``: its wagers go back, as nothing of an unfinished round reaches the ledger).
**With no round to resume, a restart commits a new shoe**: the old shoe's remaining order
is never dealt (no card a client may have seen is dealt again, whatever the crash
interrupted), and the old shoe's row, when a round of it was recorded, is marked
revealed in the store (:meth:`Store.reveal_shoe <croupier.store.Store.reveal_shoe>`) as
the new shoe is committed. A voided round's shoe is abandoned the same way.

A seeded table (tests only) shuffles shoe ``n`` from the seed and ``n``. In the lobby
(:class:`~croupier.server.protocol.TableInfo`) a blackjack table's ``structure`` is its
hole-card rule and its ``blinds`` the minimum and maximum wager.
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from croupier.blackjack import events as ev
from croupier.blackjack.actions import Deal as DealAction
from croupier.blackjack.bots import BLACKJACK_BOTS
from croupier.blackjack.hands import Phase
from croupier.blackjack.policies import Policy
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.seating import ChipsBought, PlayerLeft, PlayerSeated, TableEvent
from croupier.blackjack.table import BlackjackTable, default_play
from croupier.blackjack.views import event_from_dict, event_to_dict
from croupier.cards.deck import Shoe
from croupier.codec import JsonView
from croupier.errors import CroupierError
from croupier.fairness import commit_deck
from croupier.server.blackjack_plays import BlackjackPlays
from croupier.server.config import TableConfig, blackjack_rules, bot_style
from croupier.server.journal import Journal, LiveHand
from croupier.server.names import bot_name
from croupier.server.outgoing import ViewFrame
from croupier.server.protocol import (
    HandFinishedMessage,
    PlayerResult,
    TableInfo,
)
from croupier.server.runner import ActionStats, Listener, wait_for_set
from croupier.store import ShoeDeal, Store

__all__ = ["BlackjackRunner"]


def _dealt(events: list[ev.Event] | tuple[ev.Event, ...]) -> int:
    """Cards a round's log took from the shoe (burns included)."""
    return sum(isinstance(e, ev.CardBurned | ev.CardDealt | ev.DealerCard) for e in events)


class BlackjackRunner(BlackjackPlays):
    """Run one blackjack table as an asyncio task (see the module docstring).

    >>> store = Store.open("sqlite:///:memory:")
    >>> config = TableConfig("bj", game="blackjack", seats=4, bots=2, bot_style="gut")
    >>> runner = BlackjackRunner(config, store, Journal(store.engine))
    >>> runner.info().players, runner.info().free_seats, runner.info().buy_in
    (['bot-1', 'bot-2'], [3, 4], 500)
    """

    kind = "blackjack"

    def __init__(
        self,
        config: TableConfig,
        store: Store,
        journal: Journal | None = None,
        stats: ActionStats | None = None,
        guard: Callable[[Any], object] | None = None,
    ) -> None:
        config.check()
        super().__init__(
            config.name,
            store,
            journal if journal is not None else Journal(store.engine),
            time_bank=config.time_bank,
            on_crash=config.on_crash,
            stats=stats,
            guard=guard,
        )
        self.config = config
        """The table's settings."""
        self.rules = blackjack_rules(config)
        """The table's rules (NZ, with the table's boxes and limits)."""
        self.wager = self.rules.table_minimum if config.wager is None else config.wager
        """A bot's wager."""
        self.buy_in = 50 * self.wager if config.buy_in is None else config.buy_in
        self.session = self.reopen_session(self.rules, config.seed)
        """The store session of this table (a restart carries on with it)."""
        # the state BlackjackPlays declares (and documents)
        self.table = BlackjackTable(
            self.rules,
            config.seats,
            strict_nz=False,
            shoes=self._make_shoe,
            commit=self._commit_shoe,
            name=config.name,
        )
        self.round = None
        self.shoe_deal: ShoeDeal | None = None
        """The shoe's number in the session, commitment and reveal."""
        self._shoe_number = 0
        self._abandoned: int | None = None
        self._done = set()
        self._restore()

    # ------------------------------------------------------------------ restarts
    def _restore(self) -> None:
        """Seat the players the store has at this table; take up an interrupted round."""
        assert self.session is not None
        balances = self.store.balances(self.session)
        seating = self.store.seating(self.session)
        hands = self.store.hands(self.session)
        table = self.table
        table.round_number = len(hands)
        # who owned each box with a wager in the last round: the store seats a player
        # where his first wager of a round went, which may be a box he backed
        owned: dict[int, str] = {}
        if hands:
            last = self.store.hand(hands[-1].id)
            self._shoe_number = last.shoe or 0
            replayed = last.replay()
            assert isinstance(replayed, BlackjackRound)
            owned = {n: b.owner for n, b in replayed.boxes.items()}
        bound = self.store.accounts(self.session)
        bots_first = sorted(seating.items(), key=lambda item: (item[1][1] is None, item[1][0]))
        for name, (box, policy) in bots_first:  # the store has them: no ledger yet
            chips = balances.get(name, 0)
            if chips <= 0 or name in table.chips:
                continue
            if owned.get(box, name) != name:  # he backed that box: his own is the one he owned
                box = next((n for n, owner in owned.items() if owner == name), 0)
            if box in table.owners or not 1 <= box <= self.config.seats:
                free = table.free_boxes
                if policy is not None or not free:
                    self.store.cash_out(self.session, name, chips, guard=self.guard)
                    continue
                box = free[0]
                self.store.sit(
                    self.session, name, box, None, guard=self.guard, account=bound.get(name)
                )
            table.sit(name, box, chips, policy=None if policy is None else self._bot(policy))
        table.ledger = self._ledger
        self.know_people(self.humans())
        if not table.owners:
            for box in range(1, self.config.bots + 1):
                table.sit(bot_name(box), box, self.buy_in, policy=self._bot(bot_style(self.config)))
        live = self.journal.interrupted(self.name)
        if live is not None:
            self._shoe_number = max(self._shoe_number, int(live.state.get("shoe", 0)))
            if live.session == self.session.id and self.on_crash != "void":
                self._resume(live)
                return
            self.void_interrupted(live.id, live.number, "the server restarted mid-round")
        # no round to take up: the old shoe is never dealt again; a new one comes next
        self._abandoned = self._shoe_number or None
        table.change_shoe(self._shoe_number + 1)

    def _ledger(self, event: TableEvent) -> None:
        """The store hears of each change of seats or chips before the table makes it (a
        refused write, a lost lease, leaves the table as it was)."""
        assert self.session is not None
        if isinstance(event, PlayerSeated):
            self.store.sit(
                self.session,
                event.name,
                event.box,
                bot_style(self.config) if event.bot else None,
                buy_in=event.chips,
                guard=self.guard,
                account=None if event.bot else self.account_of(event.name),
            )
            self._changed.set()
        elif isinstance(event, ChipsBought):
            self.store.buy_in(self.session, event.name, event.amount, guard=self.guard)
            self._changed.set()
        elif isinstance(event, PlayerLeft):
            self.store.cash_out(self.session, event.name, event.chips, guard=self.guard)

    def _make_shoe(self, number: int) -> Shoe:
        """Shoe ``number``: shuffled from the OS CSPRNG, or (a seeded table) from the seed
        and ``number``."""
        seed = self.config.seed
        rng = None if seed is None else random.Random(f"croupier {seed} shoe {number}")
        return Shoe(self.rules.decks, penetration=self.rules.penetration, rng=rng)

    def _commit_shoe(self, number: int, shoe: Shoe) -> None:
        """The table's commitment hook: commit to a new shoe's whole order before any card
        of it is dealt."""
        commitment, reveal = commit_deck(shoe.remaining)
        self.shoe_deal = ShoeDeal(number, commitment, reveal)

    @property
    def shoe(self) -> Shoe:
        """The shoe in play."""
        return self.table.shoe

    def _resume(self, live: LiveHand) -> None:
        """Replay the journaled round on the journaled shoe and carry on with both."""
        assert live.reveal is not None
        events = [event_from_dict(e) for e in live.events]
        rnd = BlackjackRound.replay(self.rules, events)
        start = events[0]
        assert isinstance(start, ev.RoundStarted)
        offset = int(live.state["offset"])
        if offset != len(live.reveal.order) - len(start.shoe):
            raise CroupierError(f"table {self.name}: the journaled round is not at its offset")
        shoe = Shoe(self.rules.decks, penetration=self.rules.penetration, cards=live.reveal.order)
        shoe.draw_many(offset + _dealt(events))
        if shoe.remaining != rnd.shoe.remaining:
            raise CroupierError(f"table {self.name}: the journaled round does not fit its shoe")
        rnd.shoe = shoe  # the same cards, with the whole shoe's cut card
        number = int(live.state["shoe"])
        self.shoe_deal = ShoeDeal(number, live.commitment, live.reveal)
        self.table.resume_round(rnd, shoe=shoe, shoe_number=number, number=live.number)
        self.round = rnd
        self._done = {n for b, n in self.owners.items() if n in self._own_wager(rnd, b)}
        self.adopt(live.id, len(live.events), live.commitment)
        self.resumed.append(live.number)

    @staticmethod
    def _own_wager(rnd: BlackjackRound, box: int) -> dict[str, int]:
        found = rnd.boxes.get(box)
        return {} if found is None else found.wagers

    def _bot(self, style: str) -> Policy:
        """A bot of ``style`` (an unknown one: the default) for the table's rules."""
        return BLACKJACK_BOTS[style if style in BLACKJACK_BOTS else "default"](self.rules)

    # ------------------------------------------------------------------ views
    def info(self) -> TableInfo:
        """The lobby's line for this table (``blinds``: the minimum and maximum wager)."""
        return TableInfo(
            name=self.name,
            game="blackjack",
            structure=self.rules.hole_card.value,
            blinds=[self.rules.table_minimum, self.rules.table_maximum],
            seats=self.config.seats,
            players=[self.owners[b] for b in sorted(self.owners)],
            free_seats=[b for b in range(1, self.config.seats + 1) if b not in self.owners],
            buy_in=self.buy_in,
            hand=self.number,
            kind="blackjack",
            time_bank=self.config.time_bank,
        )

    def unjournaled(self) -> bool:
        rnd = self.round
        return rnd is not None and len(rnd.events) > self._logged

    def view_frame(self) -> ViewFrame | None:
        """The parts of the round's views every listener shares now (None: between
        rounds)."""
        rnd = self.round
        if rnd is None:
            return None
        return ViewFrame(
            rnd.view_for(None),
            table=self.name,
            hand=self.number,
            kind="blackjack",
            time_left=self.time_left(),
            commitment=None if self.shoe_deal is None else self.shoe_deal.commitment.digest,
            names={str(b): n for b, n in sorted(self.owners.items())},
        )

    def seat_view(self, listener: Listener, frame: ViewFrame) -> tuple[str | None, JsonView]:
        """The listener as a player of the round (None: not in it, or a spectator: the
        public view) and the engine's view for him."""
        rnd = self.round
        assert rnd is not None
        name = self.player(listener.account)
        if name is None or name not in rnd.bankrolls:
            return None, frame.shared
        return name, rnd.view_for(name)

    # ------------------------------------------------------------------ the task
    def _can_wager(self, rnd: BlackjackRound | None, name: str) -> bool:
        if rnd is not None:
            return any(w.player == name for w in rnd.legal_actions().wagers)
        return self.chips.get(name, 0) >= self.rules.table_minimum

    def ready(self) -> bool:
        """Top the bots up, cash out the busted; whether a round can start (who waited for
        the round in play was seated, and rebought, when it was over)."""
        table = self.table
        for name, chips in table.chips.items():
            if table.is_bot(name) and chips < self.wager:
                table.rebuy(name, self.buy_in - chips)
            elif not table.is_bot(name) and chips == 0:
                table.leave(name)
        if self.round is not None:
            return True  # a resumed round
        if not self.config.play_without_humans and not self.humans():
            return False
        active = [n for n in self.humans() if n not in table.sitting_out]
        return bool(table.bots) or any(self._can_wager(None, n) for n in active)

    async def play_hand(self) -> int:
        """Open (or take up a resumed) round, take the wagers, deal, play and record it;
        its store id (0: nobody wagered, the round was dropped)."""
        rnd = self.round
        if rnd is None:
            rnd = await self._open()
        else:
            assert self.shoe_deal is not None
            self.announce(self.number, self.shoe_deal.commitment.digest)
            if rnd.phase is Phase.WAGERS:
                await self._bot_wagers(rnd)
        self.show(rnd)
        if rnd.phase is Phase.WAGERS:
            await self._wagers(rnd)
            if not rnd.boxes:
                await self._drop()
                return 0
            rnd.apply(DealAction())
            await self.commit(rnd.events, event_to_dict, then=functools.partial(self.show, rnd))
        while not rnd.is_complete:
            actor = rnd.actor
            assert actor is not None
            name = actor.player
            if self.table.is_bot(name):
                await asyncio.sleep(self.config.bot_delay)
                self.table.policy_acts(rnd)  # a failing bot makes the default play, logged
            elif name in self.table.leaving:
                default_play(rnd)
            else:
                await self.wait_for(name, _progressed(rnd), lambda: default_play(rnd))
            await self.commit(rnd.events, event_to_dict, then=functools.partial(self.show, rnd))
        return await self._finish(rnd)

    def clock_for(self, rnd: BlackjackRound) -> None:
        """Start the time bank of the people the round waits for next (the wagers' one
        clock, or the person to decide), so the views sent now show it."""
        if rnd.phase is Phase.WAGERS:
            if self._waiting(rnd):
                self.start_clock()
            return
        actor = rnd.actor
        if actor is not None and not rnd.is_complete:
            name = actor.player
            if not self.table.is_bot(name) and name not in self.table.leaving:
                self.start_clock()

    async def _open(self) -> BlackjackRound:
        """Open the next round at the table (which shuffles and commits to a new shoe
        first when one is due), journal it with the shoe's order, and only then send the
        commitment."""
        rnd = self.table.new_round()  # from here sitting down and leaving wait for it
        if self._abandoned is not None:
            # a restart (or a void) abandoned the last shoe: it is never dealt again, so it
            # is put away revealed (no row: no round of it was recorded)
            assert self.session is not None
            number, self._abandoned = self._abandoned, None
            await self.in_store(self.store.reveal_shoe, self.session, number)
        deal = self.shoe_deal
        assert deal is not None
        state = {"shoe": deal.number, "offset": len(deal.reveal.order) - len(rnd.shoe)}
        events = [event_to_dict(e) for e in rnd.events]
        await self.in_store(
            self.open_hand, self.number, deal.commitment, deal.reveal, state, events
        )
        self._done = set()
        self.round = rnd
        # the commitment goes out before any card (the journal holds the shoe's order)
        self.announce(self.number, deal.commitment.digest)
        await self._bot_wagers(rnd)
        return rnd

    async def _bot_wagers(self, rnd: BlackjackRound) -> None:
        """Each bot wagers on its box (unless it has, or cannot cover the wager)."""
        self.table.bots_wager(rnd, self.wager)
        await self.commit(rnd.events, event_to_dict)

    def _waiting(self, rnd: BlackjackRound) -> frozenset[str]:
        """The people the wagers wait for."""
        return frozenset(
            n
            for n in self.humans()
            if n in rnd.bankrolls
            and n not in self._done
            and n not in self.table.leaving
            and n not in self.table.sitting_out
            and self._can_wager(rnd, n)
        )

    async def _wagers(self, rnd: BlackjackRound) -> None:
        """One time bank for every person to wager (or say ``deal``/``pass``)."""
        loop = asyncio.get_running_loop()
        if self._deadline is None:  # else started before the view asking for the wagers
            self.start_clock()
        assert self._deadline is not None
        try:
            while True:
                waiting = self._waiting(rnd)
                left = self._deadline - loop.time()
                if not waiting or left <= 0:
                    return
                self._acted.clear()
                self._expecting = waiting
                await wait_for_set(self._acted, left)
                self._expecting = None
                await self.commit(rnd.events, event_to_dict)
                self.broadcast_views()
        finally:
            self._expecting = None
            self._deadline = None

    async def _drop(self) -> None:
        """Delete the journal of a round nobody wagered on (no card was dealt)."""
        live_id = self.live_id

        def close() -> None:
            with Session(self.journal.engine) as db, db.begin():
                if live_id is not None:
                    Journal.close_in(db, live_id)

        await self.in_store(close)
        rnd = self.round
        assert rnd is not None
        self.live_id = None
        self.round = None
        self._done = set()
        self.table.drop_round(rnd)  # then who waited sits, who leaves leaves

    async def _finish(self, rnd: BlackjackRound) -> int:
        deal = self.shoe_deal
        assert self.session is not None
        assert deal is not None
        finished = rnd.shoe.cut_card_reached
        hand_id = await self.in_store(
            self.store.record_blackjack_round,
            self.session,
            rnd,
            deal,
            shoe_finished=finished,
            then=self.close_journal(),
        )
        self.live_id = None
        self.hand_ids.append(hand_id)
        boxes = {n: b for b, n in self.owners.items()}
        results = [
            PlayerResult(name=n, seat=boxes.get(n, 0), stack=c)
            for n, c in sorted(rnd.bankrolls.items(), key=lambda i: boxes.get(i[0], 0))
        ]
        self.round = None
        self.broadcast(
            HandFinishedMessage(
                table=self.name,
                hand=self.number,
                hand_id=hand_id,
                results=results,
                reveal=deal.reveal.to_dict() if finished else None,
                kind="blackjack",
                commitment=deal.commitment.digest,
            )
        )
        self.hand_over()
        self._done = set()
        self.table.finish_round(rnd)  # the chips carried over; who waited sits, who leaves leaves
        return hand_id


def _progressed(rnd: BlackjackRound) -> Callable[[], bool]:
    """Whether the round has moved on since now (a person's decision was applied)."""
    count = len(rnd.events)
    return lambda: len(rnd.events) != count or rnd.is_complete
