"""A blackjack table: boxes and their players, one shoe dealt round after round (reshuffled
when the cut card comes out), the bots' turns, and the shoe's commitment.

:class:`BlackjackTable` seats players at boxes (:mod:`croupier.blackjack.seating`: owners,
backers, bots, sitting down and leaving after the round in play), opens each
:class:`~croupier.blackjack.round.BlackjackRound` with the seated players' chips and
carries the chips over when it is settled. Every driver (the card room, the terminal
game, the recorder) deals through it:

* **The shoe's commitment.** ``commit``, when given, is called with a new shoe's number
  and the shoe exactly once, after it is shuffled and before its first card is burnt or
  dealt (in :meth:`BlackjackTable.new_round`, before the round exists): a driver commits
  to the shoe's order there and never interleaves that with the dealing.
* **A bot's turn** is :meth:`BlackjackTable.policy_acts`: the bot's policy decides from
  its seat's view; when it raises, gives no decision or one the rules refuse, the default
  play is made (:func:`default_play`: decline insurance; stand where legal, else draw) and
  a :class:`~croupier.blackjack.seating.PolicyFailed` saying why is logged and returned.

>>> from croupier.blackjack.policies import mimic_the_dealer
>>> shoes = []
>>> table = BlackjackTable(NZ, seed=5, commit=lambda number, shoe: shoes.append(number))
>>> table.sit("ann", 1, 100); table.sit("bot", 2, 100, policy=mimic_the_dealer)
1
2
>>> rnd = table.new_round()
>>> shoes, table.bots_wager(rnd, 10), table.wager(rnd, PlaceWager(1, "ann", 10))
([1], [WagerPlaced(box=2, player='bot', amount=10)], WagerPlaced(box=1, player='ann', amount=10))
>>> rnd.deal()
CardBurned(card=Card('8h'))
>>> while not rnd.is_complete:
...     _ = table.policy_acts(rnd, mimic_the_dealer)
>>> table.finish_round(rnd).describe()
'round 1 over: ann 100, bot 110; the bank -10'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from croupier.blackjack import events as ev
from croupier.blackjack.actions import (
    Action,
    DeclineInsurance,
    HandAction,
    Hit,
    InsuranceAction,
    PlaceWager,
    Stand,
    WithdrawWager,
)
from croupier.blackjack.hands import Phase
from croupier.blackjack.policies import Policy
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import NZ, BlackjackRules, checked_rules
from croupier.blackjack.seating import (
    BoxError,
    BoxSeating,
    Ledger,
    NewShoe,
    PolicyFailed,
    RoundDropped,
    RoundFinished,
    RoundOpened,
)
from croupier.cards.deck import Shoe
from croupier.errors import CroupierError

__all__ = ["BlackjackTable", "ShoeCommit", "ShoeMaker", "default_play"]

ShoeCommit = Callable[[int, Shoe], object]
"""Called with a new shoe's number and the shoe, once, before any card of it is dealt."""

ShoeMaker = Callable[[int], Shoe]
"""Makes shoe number ``n`` (shuffled)."""


class BlackjackTable(BoxSeating):
    """Boxes 1..``boxes`` (default: the layout's) around rounds dealt from one shoe;
    shuffles before the next round once the cut card is out (Decision 3.1-15), burning the
    first card of each new shoe when the rules say so.

    The shoe is ``shoe`` (a stacked one), else made by ``shoes`` (shoe number ``n`` from
    ``shoes(n)``; the first is ``shoe_number``), else shuffled from ``rng`` or ``seed``;
    without ``shoes`` the same shoe is reshuffled. ``commit`` is the shoe's commitment
    hook (see the module docstring), ``ledger`` is told of every change of seats or chips
    before it is made, ``name`` is what messages call the table.

    With ``strict_nz`` (the default) the rules must keep every setting the Gazette fixes
    (:meth:`~croupier.blackjack.rules.BlackjackRules.validate_for_play`: 4-8 decks, three
    hands a box, aces split once with one card each, 11.7's original wager only).

    >>> BlackjackTable(NZ.with_(decks=2))
    Traceback (most recent call last):
    ...
    croupier.errors.RuleViolationError: Blackjack 3.1 as amended: a shoe of 2 decks is not allowed for play; allowed: 4 to 8 decks
    >>> BlackjackTable(NZ.with_(resplit_aces=True))
    Traceback (most recent call last):
    ...
    croupier.errors.RuleViolationError: Blackjack 11.4(b): aces may be split only once; allowed: resplit_aces = False
    """

    def __init__(
        self,
        rules: BlackjackRules = NZ,
        boxes: int | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        strict_nz: bool = True,
        shoe: Shoe | None = None,
        shoes: ShoeMaker | None = None,
        shoe_number: int = 1,
        commit: ShoeCommit | None = None,
        ledger: Ledger | None = None,
        name: str = "the table",
    ) -> None:
        checked_rules(rules, strict_nz=strict_nz)
        count = rules.boxes if boxes is None else boxes
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= rules.boxes:
            raise BoxError(f"a table has 1 to {rules.boxes} boxes, not {count!r}")
        if isinstance(shoe_number, bool) or not isinstance(shoe_number, int) or shoe_number < 1:
            raise BoxError(f"shoes are numbered from 1, not {shoe_number!r}")
        for hook, what in ((commit, "commit"), (ledger, "ledger"), (shoes, "shoes")):
            if hook is not None and not callable(hook):
                raise BoxError(f"{what} must be callable, not {hook!r}")
        self._init_seating(count, name, ledger)
        self.rules = rules
        """The rule set."""
        self.strict_nz = strict_nz
        """Whether NZ play limits are enforced."""
        self.commit = commit
        """The shoe's commitment hook (None: none)."""
        self.shoe = shoe or (
            shoes(shoe_number)
            if shoes is not None
            else Shoe(rules.decks, penetration=rules.penetration, seed=seed, rng=rng)
        )
        """The shoe."""
        self.shoe_number = shoe_number
        """The number of the shoe in play (1, 2, ...)."""
        self.shuffles = 0
        """How many times a new shoe has been shuffled since the first."""
        self.round: BlackjackRound | None = None
        """The round in play (opened by :meth:`new_round`, None between rounds)."""
        self.round_number = 0
        """The number of the round in play, else of the last one (1, 2, ...)."""
        self._shoes = shoes
        self._fresh = True
        self._committed = False
        self._next_shoe: int | None = None

    def _in_round(self) -> bool:
        return self.round is not None

    # ------------------------------------------------------------------ the shoe
    def change_shoe(self, number: int | None = None) -> None:
        """Put the shoe in play away: the next round deals from a new shoe, numbered
        ``number`` (default: the next), committed to first (a restart that must never deal
        the old shoe's cards again).

        >>> table = BlackjackTable(seed=1); table.change_shoe(5)
        >>> _ = table.new_round({"ann": 10}); table.shoe_number, len(table.shoe)
        (5, 312)
        """
        if self._in_round():
            raise BoxError(
                f"the shoe is changed between rounds: round {self.round_number} is in play"
            )
        if number is not None and (
            isinstance(number, bool) or not isinstance(number, int) or number < 1
        ):
            raise BoxError(f"shoes are numbered from 1, not {number!r}")
        self._next_shoe = self.shoe_number + 1 if number is None else number

    def _open_shoe(self) -> bool:
        """Shuffle a new shoe when one is due and run the commitment hook on a shoe not
        yet committed to; whether the round burns a card."""
        due = self._next_shoe
        if due is not None or self.shoe.cut_card_reached:
            number = self.shoe_number + 1 if due is None else due
            if self._shoes is not None:
                self.shoe = self._shoes(number)
            else:
                self.shoe.shuffle()
            self.shoe_number = number
            self.shuffles += 1
            self._next_shoe = None
            self._fresh = True
            self._committed = False
        if not self._committed:
            if self.commit is not None:
                self.commit(self.shoe_number, self.shoe)
            self._committed = True
            self.events.append(NewShoe(self.shoe_number, self.commit is not None))
        burn = self._fresh and self.rules.burn_on_new_shoe
        self._fresh = False
        return burn

    # ------------------------------------------------------------------ rounds
    def new_round(self, bankrolls: Mapping[str, int] | None = None) -> BlackjackRound:
        """Open the next round with the seated players and their chips (by box), a new
        shoe shuffled and committed to first when one is due.

        With ``bankrolls`` the round is dealt to them instead and the table does not keep
        it (nobody need be seated; no :meth:`finish_round`).

        >>> table = BlackjackTable(seed=2); table.sit("ann", 3, 40)
        3
        >>> rnd = table.new_round(); rnd.bankrolls, table.round is rnd
        ({'ann': 40}, True)
        >>> table.new_round()
        Traceback (most recent call last):
        ...
        croupier.blackjack.seating.BoxError: round 1 is still in play at the table
        """
        if bankrolls is not None:
            fresh = self._fresh
            if self._next_shoe is None and self._committed and not fresh:
                # the shoe in play goes on (_open_shoe, inline) until its cut card is out
                burn = self.shoe.cut_card_reached and self._open_shoe()
            else:
                burn = self._open_shoe()
            try:
                return BlackjackRound(self.rules, self.shoe, bankrolls, burn=burn)
            except CroupierError:  # bad bankrolls: the shoe's burn is kept for the next round
                self._fresh = fresh or burn
                raise
        if self.round is not None:
            raise BoxError(f"round {self.round_number} is still in play at {self.name}")
        if not self._players:
            raise BoxError(f"nobody sits at {self.name}")
        chips = self.chips
        burn = self._open_shoe()
        rnd = BlackjackRound(self.rules, self.shoe, chips, burn=burn)
        self.round_number += 1
        self.round = rnd
        self.events.append(RoundOpened(self.round_number, tuple(chips.items())))
        return rnd

    def resume_round(
        self, rnd: BlackjackRound, *, shoe: Shoe, shoe_number: int, number: int
    ) -> None:
        """Carry on with round ``number`` rebuilt from its log, dealt from shoe
        ``shoe_number`` (``shoe``, already committed to): a restart after a crash. The
        players are taken as seated with the chips the round opened with.

        >>> table = BlackjackTable(seed=2); table.sit("ann", 3, 40)
        3
        >>> rnd = table.new_round(); again = BlackjackTable(seed=9); again.sit("ann", 3, 40)
        3
        >>> again.resume_round(BlackjackRound.replay(NZ, rnd.events), shoe=table.shoe, shoe_number=1, number=1)
        >>> again.round_number, again.round is not None
        (1, True)
        """
        if self.round is not None:
            raise BoxError(f"round {self.round_number} is still in play at {self.name}")
        self.shoe = shoe
        self.shoe_number = shoe_number
        self._next_shoe = None
        self._committed = True
        self._fresh = False  # a round dropped unplayed gives the burn back (drop_round)
        self.round = rnd
        self.round_number = number

    def _check_round(self, rnd: BlackjackRound) -> None:
        if rnd is not self.round:
            raise BoxError(f"that is not the round in play at {self.name}")

    def finish_round(self, rnd: BlackjackRound) -> RoundFinished:
        """Carry the settled round's bankrolls over, then make the changes asked for
        during it (leaving, sitting down, rebuys).

        >>> table = BlackjackTable(seed=2); table.sit("ann", 3, 40)
        3
        >>> rnd = table.new_round(); table.finish_round(rnd)
        Traceback (most recent call last):
        ...
        croupier.blackjack.seating.BoxError: round 1 is not settled
        """
        self._check_round(rnd)
        if not rnd.is_complete:
            raise BoxError(f"round {self.round_number} is not settled")
        for name, chips in rnd.bankrolls.items():
            player = self._players.get(name)
            if player is not None:
                player.chips = chips
        done = RoundFinished(self.round_number, tuple(rnd.bankrolls.items()), rnd.bank)
        self.events.append(done)
        self.round = None
        self._after_round()
        return done

    def drop_round(self, rnd: BlackjackRound) -> RoundDropped:
        """Put away a round nobody wagered on, before the deal (its number is used again,
        and a new shoe's burn is left for the next round); then make the changes asked for
        during it.

        >>> table = BlackjackTable(seed=2); table.sit("ann", 3, 40)
        3
        >>> rnd = table.new_round(); table.drop_round(rnd).describe(), table.round_number
        ('round 1 dropped: nobody wagered', 0)
        """
        self._check_round(rnd)
        if rnd.phase is not Phase.WAGERS or rnd.boxes:
            raise BoxError(f"round {self.round_number} has wagers: it is played, not dropped")
        start = rnd.events[0]
        assert isinstance(start, ev.RoundStarted)
        self._fresh = self._fresh or start.burn
        done = RoundDropped(self.round_number)
        self.events.append(done)
        self.round_number -= 1
        self.round = None
        self._after_round()
        return done

    # ------------------------------------------------------------------ wagers
    def verify_wager(self, rnd: BlackjackRound, action: PlaceWager | WithdrawWager) -> None:
        """Raise (a :class:`~croupier.blackjack.seating.BoxError`) unless the table's
        seating allows ``action``: a seated player wagers on his own box, or backs a box
        whose owner has wagered on it; an owner may not take back his wager from a box
        another backs. (The round checks the rest: limits, chips, the phase.)

        >>> table = BlackjackTable(boxes=3, seed=2); table.sit("ann", 1, 50); table.sit("bo", 2, 50)
        1
        2
        >>> table.verify_wager(table.new_round(), PlaceWager(1, "bo", 10))
        Traceback (most recent call last):
        ...
        croupier.blackjack.seating.BoxError: box 1 may be backed once its owner has wagered on it
        """
        self._check_round(rnd)
        if not isinstance(action, PlaceWager | WithdrawWager):
            raise BoxError(f"a wager is a PlaceWager or a WithdrawWager, not {action!r}")
        player = self.player(action.player)
        if action.box in player.boxes:
            box = rnd.boxes.get(action.box)
            if (
                isinstance(action, WithdrawWager)
                and box is not None
                and box.owner == player.name
                and len(box.wagers) > 1
            ):
                raise BoxError(f"box {action.box} is backed: its owner's wager stays")
            return
        if isinstance(action, PlaceWager):
            owner = self._owners.get(action.box)
            box = rnd.boxes.get(action.box)
            if owner is None or box is None or box.owner != owner:
                raise BoxError(f"box {action.box} may be backed once its owner has wagered on it")

    def wager(self, rnd: BlackjackRound, action: PlaceWager | WithdrawWager) -> ev.Event:
        """Place or take back a wager: the table's seating rules (:meth:`verify_wager`),
        then the round's; the event it made.

        >>> table = BlackjackTable(seed=2); table.sit("ann", 1, 50)
        1
        >>> table.wager(table.new_round(), PlaceWager(1, "ann", 10))
        WagerPlaced(box=1, player='ann', amount=10)
        """
        self.verify_wager(rnd, action)
        return rnd.apply(action)

    def bots_wager(self, rnd: BlackjackRound, amount: int) -> list[ev.Event]:
        """Each bot (not sitting out) wagers ``amount`` on each of its boxes, unless it
        has or cannot cover it; the events.

        >>> from croupier.blackjack.policies import mimic_the_dealer
        >>> table = BlackjackTable(seed=2); table.sit("bot", 2, 15, policy=mimic_the_dealer)
        2
        >>> table.add_box("bot", 3)
        3
        >>> table.bots_wager(table.new_round(), 10)   # 15 covers one wager
        [WagerPlaced(box=2, player='bot', amount=10)]
        """
        self._check_round(rnd)
        made: list[ev.Event] = []
        for box, name in sorted(self._owners.items()):
            player = self._players[name]
            if player.policy is None or player.sitting_out or name not in rnd.bankrolls:
                continue
            placed = rnd.boxes.get(box)
            if placed is not None and name in placed.wagers:
                continue
            if rnd.can_place_wager(box, name, amount):
                made.append(rnd.place_wager(box, name, amount))
        return made

    # ------------------------------------------------------------------ bots
    def policy_acts(self, rnd: BlackjackRound, policy: Policy | None = None) -> PolicyFailed | None:
        """One turn of a bot (or any policy): ``policy`` (default: the bot's own, for the
        player to decide) answers from the decider's view and its decision is applied.
        When that fails (the policy raised, gave no decision, or one the rules refuse) the
        default play is made instead (:func:`default_play`) and a
        :class:`~croupier.blackjack.seating.PolicyFailed` naming why is logged in
        :attr:`events` and returned. Every driver of bots takes their turns here.

        >>> from croupier.cards import parse_cards
        >>> table = BlackjackTable(seed=2)
        >>> table.sit("bo", 1, 100, policy=lambda view: "stand")
        1
        >>> rnd = table.new_round(); _ = table.wager(rnd, PlaceWager(1, "bo", 10)); _ = rnd.deal()
        >>> table.policy_acts(rnd).describe()
        "round 1: bo's policy failed on box 1 (not a decision: 'stand'); bo stands"
        """
        actor = rnd.actor
        if actor is None or rnd.is_complete:
            raise BoxError("no decision is due in the round")
        if policy is None:
            player = self._players.get(actor.player)
            if player is None or player.policy is None:
                raise BoxError(f"{actor.player} is not a bot at {self.name}")
            policy = player.policy
        try:
            action: object = policy(rnd.view_for(actor.player))
        except Exception as error:  # a bot's failure must not leave the round stuck
            reason = f"{type(error).__name__}: {error}"
        else:
            if action is None:
                reason = "no decision"
            elif not isinstance(action, HandAction | InsuranceAction):
                reason = f"not a decision: {action!r}"
            else:
                try:
                    rnd.apply(action)
                    return None
                except CroupierError as error:  # an illegal or malformed decision
                    reason = f"{type(error).__name__}: {error}"
        made = default_play(rnd)
        failed = PolicyFailed(self.round_number, actor.box, actor.hand, actor.player, reason, made)
        self.events.append(failed)
        return failed

    def play_bots(self, rnd: BlackjackRound) -> list[PolicyFailed]:
        """Let the bots decide (:meth:`policy_acts`) until a person is to decide or the
        round is settled; the failures.

        >>> from croupier.blackjack.policies import mimic_the_dealer
        >>> table = BlackjackTable(seed=3); table.sit("bo", 1, 100, policy=mimic_the_dealer)
        1
        >>> rnd = table.new_round(); _ = table.bots_wager(rnd, 10); _ = rnd.deal()
        >>> table.play_bots(rnd), rnd.is_complete
        ([], True)
        """
        failed: list[PolicyFailed] = []
        while not rnd.is_complete:
            actor = rnd.actor
            if actor is None or not self.is_bot(actor.player):
                break
            found = self.policy_acts(rnd)
            if found is not None:
                failed.append(found)
        return failed


def default_play(rnd: BlackjackRound) -> str:
    """Make the default decision for the one to decide and say what it was: decline
    insurance; stand where legal, else draw (Blackjack 12.1(d): 11 or less must draw);
    else the first legal decision. What a person's time bank makes, and a failed bot.

    >>> from croupier.cards import parse_cards
    >>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("Tc 9d 8h 9s")), {"ann": 50})
    >>> _ = rnd.place_wager(1, "ann", 10); _ = rnd.deal()
    >>> default_play(rnd), rnd.bankrolls       # 18 stands; the dealer's 18 pushes
    ('stands', {'ann': 50})
    """
    actor = rnd.actor
    if actor is None:
        raise BoxError("no decision is due in the round")
    legal = rnd.legal_actions()
    choice: Action
    if actor.hand is None:
        choice, said = DeclineInsurance(box=actor.box, player=actor.player), "declines insurance"
    elif legal.stand:
        choice, said = Stand(box=actor.box, hand=actor.hand, player=actor.player), "stands"
    elif legal.hit:
        choice, said = Hit(box=actor.box, hand=actor.hand, player=actor.player), "draws"
    else:
        choice = legal.actions()[0]
        said = str(choice)
    rnd.apply(choice)
    return said
