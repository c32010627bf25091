"""A blackjack session for one human (one or several boxes) and bots at the other boxes.

:class:`BlackjackSession` deals round after round at a
:class:`~croupier.blackjack.table.BlackjackTable`: the table seats the human and the bots
at their boxes, commits to each shoe before its first card (its commitment hook), takes
the bots' turns (:meth:`~croupier.blackjack.table.BlackjackTable.policy_acts`) and carries
the chips over. The human's boxes are wagered ``wager`` each round; the bots play theirs
and the session waits whenever the human decides (a hand or insurance). The human's action is a
value or text (``h``, ``s``, ``d``, ``p``, ``i 5``, ``decline``, ``e``); an illegal one
raises the engine's rule-citing error and changes nothing.

>>> session = BlackjackSession(boxes=1, bots=1, seed=3)
>>> session.deal()
>>> while not session.round_over:
...     session.act("s")
>>> session.log[-1].startswith("round 1 over: you ")
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from croupier.blackjack.actions import Action, PlaceWager, parse_action
from croupier.blackjack.bots import BLACKJACK_BOTS
from croupier.blackjack.policies import Policy
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import NZ, BlackjackRules
from croupier.blackjack.seating import ChipsBought, PlayerSeated, TableEvent
from croupier.blackjack.table import BlackjackTable
from croupier.blackjack.views import SeatView
from croupier.cards.deck import Shoe
from croupier.errors import CroupierError
from croupier.fairness import commit_deck
from croupier.play._common import SessionCore
from croupier.play.session import HUMAN

if TYPE_CHECKING:
    from croupier.store import SessionInfo, ShoeDeal, Store

__all__ = ["BlackjackSession"]


class BlackjackSession(SessionCore):
    """The human (``human``; None: bots only) at ``boxes`` boxes 1.., ``bots`` bots at the
    next boxes, each buying in for ``buy_in`` (default 50 wagers) and wagering ``wager``
    (default the table minimum) a box. A bot that cannot wager buys in again; the session
    is over when the human leaves or cannot cover a wager.

    >>> auto = BlackjackSession(human=None, bots=2, bot_style="gut", seed=1)
    >>> auto.play(rounds=3)
    3
    """

    def __init__(
        self,
        rules: BlackjackRules = NZ,
        *,
        boxes: int = 1,
        bots: int = 2,
        bot_style: str = "default",
        buy_in: int | None = None,
        wager: int | None = None,
        human: str | None = HUMAN,
        seed: int | None = None,
        store: Store | None = None,
        echo: Callable[[str], None] | None = None,
    ) -> None:
        if bot_style not in BLACKJACK_BOTS:
            raise CroupierError(
                f"unknown bot style {bot_style!r}: one of {', '.join(BLACKJACK_BOTS)}"
            )
        mine = boxes if human else 0
        if mine + bots < 1 or (human and boxes < 1):
            raise CroupierError("a blackjack table needs a player at a box")
        if mine + bots > rules.boxes:
            raise CroupierError(f"{mine + bots} boxes asked for, the layout has {rules.boxes}")
        super().__init__(human=human, seed=seed, store=store, echo=echo)
        self.rules = rules
        """The rule set."""
        self.wager = rules.table_minimum if wager is None else wager
        """Each box's wager."""
        if not rules.table_minimum <= self.wager <= rules.table_maximum:
            raise CroupierError(
                f"a wager of {self.wager} is outside the table limits "
                f"{rules.table_minimum}..{rules.table_maximum}"
            )
        self.buy_in = 50 * self.wager if buy_in is None else buy_in
        """What each player buys in for."""
        self.human_boxes = tuple(range(1, mine + 1))
        """The human's boxes."""
        self.bot_boxes = {f"bot{mine + i + 1}": mine + i + 1 for i in range(bots)}
        """Each bot's box."""
        rng = random.Random(f"croupier shoe {seed}") if seed is not None else None
        self.table = BlackjackTable(rules, rng=rng, commit=self._commit, ledger=self._ledger)
        """The table: the boxes, the players and their chips, the shoe."""
        self.round: BlackjackRound | None = None
        """The round in progress or the last one."""
        self.rounds_played = 0
        """Rounds settled."""
        self._bot_style = bot_style
        self._shoe: ShoeDeal | None = None
        self._seen = 0
        self._open(rules, seed)
        if human:
            self.table.sit(human, 1, self.buy_in)
            for box in self.human_boxes[1:]:
                self.table.add_box(human, box)
        bot: Policy = BLACKJACK_BOTS[bot_style](rules)
        for name, box in self.bot_boxes.items():
            self.table.sit(name, box, self.buy_in, policy=bot)

    @property
    def chips(self) -> dict[str, int]:
        """Each player's chips off the table (the table's, between rounds)."""
        return self.table.chips

    @property
    def _bot(self) -> Policy | None:
        """The bots' policy (setting it changes every bot's)."""
        return next(iter(self.table.bots.values()), None)

    @_bot.setter
    def _bot(self, policy: Policy) -> None:
        for name in self.bot_boxes:
            self.table.set_policy(name, policy)

    # ------------------------------------------------------------------ state
    @property
    def round_over(self) -> bool:
        """Whether no round is in progress."""
        return self.round is None or self.round.is_complete

    @property
    def human_to_act(self) -> bool:
        """Whether the round waits for the human's decision."""
        rnd = self.round
        return rnd is not None and rnd.actor is not None and rnd.actor.player == self.human

    def view(self) -> SeatView:
        """What the human sees of the current (or last) round (no human: a spectator)."""
        if self.round is None:
            raise CroupierError("no round has been dealt yet")
        return self.round.view_for(self.human)

    # ------------------------------------------------------------------ play
    def deal(self) -> None:
        """Open the next round, place every wager, deal, and let the bots decide up to the
        human's first decision or the settlement."""
        if not self.round_over:
            raise CroupierError("the round is still in progress")
        if self.over:
            raise CroupierError("the session is over")
        need = self.wager * len(self.human_boxes)
        if self.human and self.chips[self.human] < need:
            self._end("you cannot cover a wager")
            raise CroupierError(f"you have {self.chips[self.human]}, a round needs {need}")
        for name in self.bot_boxes:
            if self.chips[name] < self.wager:
                self.table.rebuy(name, self.buy_in)
        number = self.rounds_played + 1
        self._say(f"round {number}")
        rnd = self.table.new_round()  # a new shoe is committed to first (self._commit)
        self.round = rnd
        self._seen = 0
        for box in self.human_boxes:
            assert self.human is not None
            self.table.wager(rnd, PlaceWager(box, self.human, self.wager))
        self.table.bots_wager(rnd, self.wager)
        rnd.deal()
        self._advance()

    def act(self, action: Action | str) -> None:
        """The human's decision (a value or text); illegal or malformed: the engine's error."""
        rnd = self.round
        if rnd is None or not self.human_to_act:
            raise CroupierError("it is not your turn")
        chosen = parse_action(action) if isinstance(action, str) else action
        rnd.apply(chosen)
        self._advance()

    def leave(self) -> int:
        """The human leaves between rounds (a round in progress is stood out); returns the
        human's chips."""
        while self.round is not None and self.human_to_act:
            legal = self.view().legal
            self.act("decline" if legal is not None and legal.decline_insurance else "s")
        self._end("you left the table")
        return self.chips.get(self.human or "", 0)

    def play(self, rounds: int) -> int:
        """Bots only: play ``rounds`` rounds; returns how many were played."""
        self._bots_only()
        for _ in range(rounds):
            self.deal()
        self._end("the session ends")
        return self.rounds_played

    # ------------------------------------------------------------------ internals
    def _commit(self, number: int, shoe: Shoe) -> None:
        """The table's commitment hook: commit to shoe ``number`` before its first card."""
        commitment, reveal = commit_deck(shoe.remaining, self._salts)
        if self._store is not None:
            from croupier.store import ShoeDeal

            self._shoe = ShoeDeal(number, commitment, reveal)
        self._say(f"shoe {number}: commitment sha256 {commitment.digest}")

    def _ledger(self, event: TableEvent) -> None:
        """The table's ledger: the store records who sits and buys in."""
        if isinstance(event, PlayerSeated):
            self._seat(event.name, event.box, self._bot_style)
        elif isinstance(event, ChipsBought):
            self._bought_in(event.name)

    def _advance(self) -> None:
        rnd = self.round
        assert rnd is not None
        self.table.play_bots(rnd)  # up to the human's decision or the settlement
        view = self.view()
        for event in view.events[max(self._seen, 1) :]:
            self._say("  " + event.describe())
        self._seen = len(view.events)
        if rnd.is_complete:
            self._finish(rnd)

    def _finish(self, rnd: BlackjackRound) -> None:
        self.rounds_played += 1
        self.table.finish_round(rnd)
        pays = ", ".join(f"{name} {amount:+d}" for name, amount in rnd.payoffs().items())
        self._say(f"  results: {pays}")
        chips = ", ".join(f"{name} {amount}" for name, amount in self.chips.items())
        self._say(f"round {self.rounds_played} over: {chips}")
        if self._store is not None and self._session is not None and self._shoe is not None:
            finished = self.table.shoe.cut_card_reached
            self._store.record_blackjack_round(
                self._session, rnd, self._shoe, shoe_finished=finished
            )
        if self.human and self.chips[self.human] < self.wager * len(self.human_boxes):
            self._end("you cannot cover a wager")

    def _cash_out(self, store: Store, session: SessionInfo) -> None:
        for name in self.chips:
            store.cash_out(session, name)
