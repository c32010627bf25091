"""Betting, one part of :class:`~croupier.poker.state.HandState`: the forced bets, who
opens each round, the legal actions and their amounts (limits, caps, short all-ins), the
fold / check / call / bet-or-raise / bring-in triads, and collecting the round's bets.

>>> from croupier.poker import HandState, TableRules
>>> hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7)
>>> hand.legal_actions().describe()
'fold, call 10, raise to 20..100'
"""

from __future__ import annotations

import numbers

from croupier.checks import whole_chips
from croupier.errors import IllegalActionError, RuleViolationError
from croupier.poker import events as ev
from croupier.poker._core import _BET, HandCore, PlayerState, Stage, _malformed
from croupier.poker.actions import LegalActions
from croupier.poker.blinds import blind_posters
from croupier.poker.exposed import exposed_strength
from croupier.poker.games import ForcedBets, Opener, Street

__all__ = ["BettingRound"]


def _is_chips(value: object) -> bool:
    """Whether ``value`` is a whole, non-negative number of chips (as ``whole_chips`` takes)."""
    return not isinstance(value, bool) and isinstance(value, numbers.Integral) and int(value) >= 0


class BettingRound:
    """The betting of one hand, over the shared :class:`~croupier.poker._core.HandCore`:
    the forced bets, each round's bets and raises, the legal actions. Its actions check
    nothing (the ``verify_`` methods do) and return the event they log.

    >>> from croupier.poker import TableRules
    >>> core = HandCore(TableRules(), button=1, stacks={1: 100, 2: 100, 3: 100})
    >>> betting = BettingRound(core, antes={}, blinds={}, voluntary_blind=False, ante_trimming=False)
    >>> betting.post_forced_bets(); betting.current_bet, core.total_pot
    (10, 15)
    """

    def __init__(
        self,
        core: HandCore,
        *,
        antes: dict[int, int],
        blinds: dict[int, int],
        voluntary_blind: bool,
        ante_trimming: bool,
    ) -> None:
        self.core = core
        """The hand this betting is part of."""
        self.antes = antes
        """Each seat's ante."""
        self.blinds = blinds
        """The blinds the table named (seat -> amount, first to last); {} for the rules'."""
        self.voluntary_blind = voluntary_blind
        """Whether a voluntary blind (Draw 11.x(c)) is posted."""
        self.ante_trimming = ante_trimming
        """Whether an ante above every other is returned like an uncalled bet."""
        self.current_bet = 0
        """The highest bet of the round."""
        self.last_increment = 0
        """The size of the last full bet or raise of the round."""
        self.raises = 0
        """Full bets and raises this round (the last blind counts as the first round's bet)."""
        self.aggressor: int | None = None
        """The seat that made the round's last bet or raise (it shows first)."""
        self.last_blind_seat = core.order[0]
        """The seat of the last blind (the first round opens left of it)."""
        self._full_raises = 0
        self._wagers = 0
        """Bets, raises and completions made this round (short all-ins included)."""
        self._short_run: tuple[int, ...] = ()
        """The increments of the short all-in wagers in a row since the last full wager
        (kept under ``ShortAllIn.add_up``)."""
        self._bring_in_due = False
        self._short_bring_in = False
        self._legal: tuple[tuple[int, Stage, int | None, int], LegalActions] | None = None
        """The legal actions last worked out, and the point of the hand they are for."""

    def copy(self, core: HandCore) -> BettingRound:
        """An independent copy over ``core`` (a copy of this one's hand)."""
        twin = object.__new__(BettingRound)
        twin.__dict__.update(self.__dict__)
        twin.core = core
        return twin

    # ------------------------------------------------------------ forced bets
    def verify_voluntary_blind(self) -> None:
        """Draw 11.x(c): a voluntary blind is exactly double the last compulsory blind; a
        player who cannot post the double may not post it short."""
        poster = self._blind_posters()[-1]
        needed = 2 * self._blind_amounts()[-1]
        stack = self.core.players[poster].stack
        if stack < needed:
            raise RuleViolationError(
                "Draw 11.x(c)",
                f"seat {poster} has {stack} chips; a voluntary blind must be double the last "
                f"compulsory blind ({needed})",
                f"no voluntary blind, or a stack of at least {needed}",
            )

    def post_forced_bets(self) -> None:
        """Antes, then the blinds; the first street is to be dealt next."""
        core = self.core
        paid_antes: dict[int, int] = {}
        for seat in core.clockwise(core.button):
            if self.antes.get(seat, 0):
                player = core.players[seat]
                paid = core.put(player, self.antes[seat])
                player.bet = 0  # antes are dead money, not bets of the round
                paid_antes[seat] = paid
                core.record(ev.AntePosted(seat, paid))
        if self.ante_trimming and paid_antes:
            ranked = sorted(paid_antes.items(), key=lambda item: item[1], reverse=True)
            second = ranked[1][1] if len(ranked) > 1 else 0
            seat, top = ranked[0]
            if top > second:
                player = core.players[seat]
                player.contributed -= top - second
                player.stack += top - second
                core.record(ev.BetReturned(seat, top - second))
        if core.game.forced is ForcedBets.BLINDS:
            posters = self._blind_posters()
            amounts = self._blind_amounts()
            compulsory = len(amounts)
            if self.voluntary_blind:
                amounts.append(2 * amounts[-1])
            for i, (seat, amount) in enumerate(zip(posters, amounts, strict=False)):
                paid = core.put(core.players[seat], amount)
                core.record(ev.BlindPosted(seat, paid, voluntary=i >= compulsory))
            self.current_bet = max([amounts[-1], *(p.bet for p in core.players.values())])
            # 17.6(c)/11.x(d): a raise is not less than any previous bet of the round, the
            # voluntary blind bet included; blinds are the round's bet, not raises (11.x(g))
            self.last_increment = amounts[-1]
            self.raises = 1
            self.last_blind_seat = (
                posters[len(amounts) - 1] if len(posters) >= len(amounts) else posters[-1]
            )
        core.stage = Stage.DEAL

    def _blind_posters(self) -> list[int]:
        core = self.core
        if self.blinds:
            posters = list(self.blinds)
            if self.voluntary_blind:  # left of the last blind (11.x(c))
                posters.append(next(s for s in core.clockwise(posters[-1])))
            return posters
        count = len(core.rules.blinds) + (1 if self.voluntary_blind else 0)
        return blind_posters(core.order, core.button, count, core.rules.heads_up)

    def _blind_amounts(self) -> list[int]:
        """The blinds, first to last: the table's, or those the caller named."""
        if self.blinds:
            return list(self.blinds.values())
        return list(self.core.rules.blinds)

    # ----------------------------------------------------------------- rounds
    def open(self) -> None:
        """Open the round: who acts first, what is owed; or no round when nobody can bet."""
        street = self.core.game.streets[self.core.street]
        for player in self.core.players.values():
            player.acted_serial = -1
        if self.core.street > 0 or self.core.game.forced is not ForcedBets.BLINDS:
            self.current_bet = max(p.bet for p in self.core.players.values())
            self.last_increment = 0
            self.raises = 0
        elif self.core.rules.short_all_in.full_by_largest_increment:
            self.last_increment = 0  # the blinds set no raise size: the first wager is full
        self._full_raises = 0
        self._wagers = 0
        self._short_run = ()
        able = [s for s in self.core.order if self.core.players[s].can_act]
        owing = [s for s in able if self.core.players[s].bet < self.current_bet]
        if len(able) < 2 and not owing:
            # no betting this round: the last bet that was called stays the "called" hand
            self.core.actor = None
            self.core.stage = Stage.COLLECT
            return
        self.aggressor = None
        first = self._first_to_act(street)
        self.core.to_act = set(able)
        self._bring_in_due = street.opener is Opener.LOWEST_UP_CARD
        self._short_bring_in = False
        self.core.actor = first if first in self.core.to_act else self.core.next_to_act(first)

    def _first_to_act(self, street: Street) -> int:
        players = self.core.players
        if street.opener is Opener.LEFT_OF_LAST_BLIND:
            for seat in self.core.clockwise(self.last_blind_seat):
                if players[seat].can_act:
                    return seat
        live = [s for s in self.core.clockwise(self.core.button) if players[s].can_act]
        if street.opener is Opener.LOWEST_UP_CARD:
            # 12.2(a): lowest up card; equal ranks: lowest suit (clubs) opens
            return min(live, key=lambda s: min(self.core.players[s].up))
        if street.opener is Opener.BEST_EXPOSED_HAND:
            # the best exposed hand among the players still in opens; if that player is all
            # in, the next player clockwise who can bet acts first (see _open_betting)
            shown = [
                s for s in self.core.clockwise(self.core.button) if not self.core.players[s].folded
            ]
            best = max(
                exposed_strength(self.core.players[s].up, self.core.game.ranking) for s in shown
            )
            return next(
                s
                for s in shown
                if exposed_strength(self.core.players[s].up, self.core.game.ranking) == best
            )
        return live[0]

    def collect(self) -> None:
        """Sweep the round's bets into the pot (an uncalled bet goes back)."""
        bets = sorted(((p.bet, s) for s, p in self.core.players.items()), reverse=True)
        if len(bets) > 1 and bets[0][0] > bets[1][0]:
            excess = bets[0][0] - bets[1][0]
            top = self.core.players[bets[0][1]]
            top.bet -= excess
            top.contributed -= excess
            top.stack += excess
            self.core.record(ev.BetReturned(top.seat, excess))
        for player in self.core.players.values():
            player.bet = 0
        self.current_bet = 0
        self.core.record(ev.BetsCollected(self.core.total_pot))
        self.core.actor = None
        if self.core.one_left():
            self.core.stage = Stage.AWARD
        elif self.core.street + 1 < len(self.core.game.streets):
            self.core.street += 1
            self.core.stage = Stage.DEAL
        else:
            self.core.stage = Stage.SHOWDOWN

    # ---------------------------------------------------------- legal actions
    def legal(self) -> LegalActions:
        """What the player to act may do (empty when nobody is to act). Worked out once
        per point of the hand: a server asks for them for the view, then again to check
        the action that comes back. The point is the log's length, the stage, the seat to
        act and the street: what changes the betting without a logged event (opening a
        round, the draw) changes the stage or the seat to act."""
        core = self.core
        key = (len(core.log), core.stage, core.actor, core.street)
        kept = self._legal
        if kept is not None and kept[0] == key:
            return kept[1]
        legal = self.work_out_legal()
        self._legal = (key, legal)
        return legal

    def work_out_legal(self) -> LegalActions:
        """The legal actions, worked out afresh."""
        core = self.core
        seat = core.acting
        if seat is None:
            return LegalActions(actor=None)
        player = core.players[seat]
        if core.stage is not _BET:
            return LegalActions(actor=seat, discard=True)
        to_call = max(self.current_bet - player.bet, 0)
        raise_range = self._raise_range(player, to_call)
        if self._bring_in_due:
            low = min(self.core.rules.bring_in_amount, player.stack)
            high = raise_range[1] if raise_range else low
            ends = self.core.rules.structure.fixed_increment(self.core.street) is not None
            complete = None
            if self.core.rules.short_all_in.complete_for_the_bring_in and raise_range:
                # all in for no more than the bring-in: a short completion, or the bring-in
                all_in = player.bet + player.stack
                complete = (all_in, all_in) if all_in <= self.core.rules.bring_in_amount else None
            return LegalActions(
                actor=seat,
                bring_in=(low, max(low, high)),
                bring_in_ends_only=ends,
                raise_to=complete,
            )
        return LegalActions.betting(
            seat,
            to_call > 0 or core.rules.fold_when_check_is_free,
            to_call == 0,
            min(to_call, player.stack) if to_call > 0 else None,
            raise_range,
        )

    def error(self, rule: str, problem: str) -> IllegalActionError:
        """The error for an action the rules forbid, naming what the actor may do."""
        allowed = self.legal().describe() if self.legal().actor is not None else "no action"
        return IllegalActionError(rule, problem, allowed)

    def _heads_up(self) -> bool:
        """17.6(f) "head to head": two players left in the hand who can still bet."""
        return sum(1 for p in self.core.players.values() if p.can_act) == 2

    def _capped(self) -> bool:
        """17.6(f): the round has had all the bets and raises the table's cap allows."""
        if not self.core.rules.structure.capped:
            return False
        cap = self.core.rules.raise_cap
        if cap.head_to_head_unlimited and self._heads_up():
            return False
        blind_round = self.core.street == 0 and self.core.game.forced is ForcedBets.BLINDS
        if cap.short_all_ins_count:  # every bet, raise and completion, short all-ins too
            made = self._wagers + (1 if cap.blinds_count and blind_round else 0)
        else:  # the full ones (_raises counts the last blind as the first round's bet)
            made = self.raises - (0 if cap.blinds_count or not blind_round else 1)
        return made >= cap.bets

    def _full_increment(self) -> int:
        """The raise a short all-in run must add up to, and a reopened player must owe:
        the largest increment of the round (PokerKit's measure) or the minimum raise."""
        if self.core.rules.short_all_in.full_by_largest_increment:
            return self.last_increment
        return self.core.rules.structure.min_raise_increment(
            self.core.street, self.last_increment, self.core.rules.table_minimum
        )

    def _closed_to(self, player: PlayerState, to_call: int) -> bool:
        """Whether the betting is closed to the player: it has acted since the last full
        bet or raise, and short all-ins do not reopen it (Decision 3.2-2); with
        ``ShortAllIn.add_up``, short all-ins in a row that reached a full raise reopen it
        for a player who owes at least a full raise."""
        if player.acted_serial < 0 or player.acted_serial < self._full_raises:
            return False
        if not self.core.rules.short_all_in.add_up or self._short_run:
            return True
        return min(to_call, player.stack) < self._full_increment()

    def _no_caller(self, player: PlayerState) -> bool:
        """``raise_needs_a_caller``: no other player in the hand has more than the bet."""
        if not self.core.rules.raise_needs_a_caller:
            return False
        top = self.current_bet
        return not any(
            p.bet + p.stack > top
            for p in self.core.players.values()
            if p is not player and p.can_act
        )

    def _raise_range(self, player: PlayerState, to_call: int) -> tuple[int, int] | None:
        all_in_total = player.bet + player.stack
        if player.stack <= to_call:
            return None
        core = self.core
        for other in core.players.values():
            if other is not player and other.can_act:
                break
        else:
            return None  # nobody else can bet
        if self._closed_to(player, to_call):
            return None  # a short all-in does not reopen the betting (Decision 3.2-2)
        if self._no_caller(player):
            return None
        rules = core.rules
        structure = rules.structure
        if self._capped():
            return None  # 17.6(f): a bet and three raises
        street = core.street
        table_min = rules.table_minimum
        unit = rules.chip_unit
        current_bet = self.current_bet
        full_bet = structure.min_bet(street, table_min)
        fixed = structure.fixed_increment(street)
        opening = self._bring_in_due or self._completes(full_bet, fixed)
        if self._bring_in_due:
            low = rules.bring_in_amount  # 12.2(a): at least the table minimum
        elif opening:
            low = full_bet  # an opening bet, or completing a bring-in smaller than a bet
        else:
            step = structure.min_raise_increment(street, self.last_increment, table_min)
            low = current_bet + step
        if fixed is not None:
            high = max(low, full_bet) if opening else current_bet + fixed
            low = min(low, high)
        else:
            limit = structure.max_raise_to(
                pot=core.total_pot,
                to_call=to_call,
                current_bet=current_bet,
                my_bet=player.bet,
            )
            high = all_in_total if limit is None else limit // unit * unit
            low = -(-low // unit) * unit  # 17.5(e): after an odd all-in, the next unit up
        if rules.table_maximum is not None:
            cap = current_bet + rules.table_maximum
            high = min(high, cap if fixed is not None else cap // unit * unit)
        high = min(high, all_in_total)
        if all_in_total < low:  # 17.6(c): a tap-out may be less than a full raise
            return (all_in_total, all_in_total)
        return (low, max(low, high))

    # --------------------------------------------------------------- actions
    def _require_bettor(self, rule: str, what: str) -> PlayerState:
        if self.core.stage is not _BET or self.core.actor is None:
            raise IllegalActionError(
                rule, f"cannot {what}: no player is to act in a betting round", "no action"
            )
        return self.core.players[self.core.actor]

    def verify_fold(self) -> None:
        """Raise :class:`IllegalActionError` unless the player to act may fold."""
        self._require_bettor("Omaha 17.2(a)", "fold")
        if not self.legal().fold:
            raise self.error(
                "Five Card Stud 12.2(a)" if self._bring_in_due else "Omaha 17.3(b)",
                f"seat {self.core.actor} may not fold now",
            )

    def _betting_legal(self) -> LegalActions | None:
        """The legal actions when a player is to act in a betting round, else None."""
        if self.core.stage is not _BET or self.core.actor is None:
            return None
        return self.legal()

    def can_fold(self) -> bool:
        """Whether :meth:`fold` is legal now (worked out, never raised and caught)."""
        legal = self._betting_legal()
        return legal is not None and legal.fold

    def fold(self) -> ev.Folded:
        """The player to act folds (checked by :meth:`verify_fold`)."""
        player = self.core.players[self.core.actor]  # type: ignore[index]
        player.folded = True
        event = ev.Folded(player.seat)
        self.core.record(event)
        self._acted(player)
        return event

    def verify_check(self) -> None:
        """Raise unless the player to act may check."""
        player = self._require_bettor("Omaha 17.2(a)", "check")
        if not self.legal().check:
            if self._bring_in_due:
                rule = "Five Card Stud 12.2(a)"
            else:
                rule = "Omaha 17.2(a)" if self.core.street == 0 else "Omaha 17.3(c)"
            due = self.current_bet - player.bet
            raise self.error(rule, f"seat {player.seat} cannot check: {due} to call")

    def can_check(self) -> bool:
        """Whether :meth:`check` is legal now."""
        legal = self._betting_legal()
        return legal is not None and legal.check

    def check(self) -> ev.Checked:
        """The player to act checks (allowed by :meth:`verify_check`)."""
        player = self.core.players[self.core.actor]  # type: ignore[index]
        event = ev.Checked(player.seat)
        self.core.record(event)
        self._acted(player)
        return event

    def verify_call(self) -> None:
        """Raise unless the player to act may call."""
        player = self._require_bettor("Poker definitions: Call", "call")
        if self.legal().call is None:
            raise self.error("Poker definitions: Call", f"seat {player.seat} has nothing to call")

    def can_call(self) -> bool:
        """Whether :meth:`call` is legal now."""
        legal = self._betting_legal()
        return legal is not None and legal.call is not None

    def call(self) -> ev.Called:
        """The player to act calls (checked by :meth:`verify_call`)."""
        player = self.core.players[self.core.actor]  # type: ignore[index]
        paid = self.core.put(player, self.current_bet - player.bet)
        event = ev.Called(player.seat, paid, all_in=player.stack == 0)
        self.core.record(event)
        self._acted(player)
        return event

    def verify_raise_to(self, amount: int) -> None:
        """Raise unless the player to act may bet or raise to ``amount`` (a round total)."""
        player = self._require_bettor("Omaha 17.6(c)", "bet or raise")
        legal = self.legal()
        if legal.bring_in is not None and legal.raise_to is None:
            raise self.error("Five Card Stud 12.2(a)", "the lowest up card must bring in first")
        if legal.raise_to is None:
            raise self.error(self._no_raise_rule(player), f"seat {player.seat} may not raise now")
        amount = _malformed(whole_chips, amount, "a bet or raise")
        low, high = legal.raise_to
        if not low <= amount <= high:
            rule = self._range_rule(amount, low, high, player)
            raise self.error(rule, f"seat {player.seat} cannot make it {amount}")
        if amount % self.core.rules.chip_unit and amount != player.bet + player.stack:
            raise self.error("Omaha 17.5(e)", f"{amount} is not a multiple of the chip unit")

    def _no_raise_rule(self, player: PlayerState) -> str:
        game = self.core.game
        if self._capped():
            return game.limit_rule("f")
        if player.acted_serial >= 0:
            return game.limit_rule("c")
        return "Poker definitions: Table Stakes"

    def _range_rule(self, amount: int, low: int, high: int, player: PlayerState) -> str:
        game = self.core.game
        structure = self.core.rules.structure
        if amount > player.bet + player.stack:
            return "Poker definitions: Table Stakes"
        rule = structure.size_rule
        if rule is not None:  # a letter names the game's own copy of 17.6
            return game.limit_rule(rule) if len(rule) == 1 else rule
        if structure.over_limit_letter is not None and amount > high:
            return game.limit_rule(structure.over_limit_letter)
        if amount < low and self.current_bet == 0:
            return game.limit_rule("a")  # below the minimum wager on the table's sign
        return game.limit_rule("c") if amount < low else game.limit_rule("a")

    def can_raise_to(self, amount: int) -> bool:
        """Whether :meth:`raise_to` with this amount is legal now."""
        legal = self._betting_legal()
        if legal is None or legal.raise_to is None or not _is_chips(amount):
            return False
        low, high = legal.raise_to
        player = self.core.players[self.core.actor]  # type: ignore[index]
        amount = int(amount)
        on_unit = amount % self.core.rules.chip_unit == 0 or amount == player.bet + player.stack
        return low <= amount <= high and on_unit

    def verify_bring_in(self, amount: int) -> None:
        """Raise unless the lowest up card may bring in for ``amount`` (12.2(a))."""
        player = self._require_bettor("Five Card Stud 12.2(a)", "bring in")
        amount = _malformed(whole_chips, amount, "a bring-in")
        legal = self.legal()
        if legal.bring_in is None:
            raise self.error("Five Card Stud 12.2(a)", "no bring-in is due")
        low, high = legal.bring_in
        fixed = self.core.rules.structure.fixed_increment(self.core.street) is not None
        off_unit = amount % self.core.rules.chip_unit and amount != player.bet + player.stack
        if not low <= amount <= high or (fixed and amount not in (low, high)) or off_unit:
            raise self.error(
                "Five Card Stud 12.2(a)", f"seat {player.seat} cannot bring in for {amount}"
            )

    def can_bring_in(self, amount: int) -> bool:
        """Whether :meth:`bring_in` is legal now."""
        legal = self._betting_legal()
        if legal is None or legal.bring_in is None or not _is_chips(amount):
            return False
        low, high = legal.bring_in
        player = self.core.players[self.core.actor]  # type: ignore[index]
        amount = int(amount)
        fixed = self.core.rules.structure.fixed_increment(self.core.street) is not None
        on_unit = amount % self.core.rules.chip_unit == 0 or amount == player.bet + player.stack
        return low <= amount <= high and (not fixed or amount in (low, high)) and on_unit

    def make_bet(self, total: int, *, bring_in: bool) -> ev.BringIn | ev.RaisedTo:
        """A bet, raise or completion to ``total`` (or the bring-in), checked by
        :meth:`verify_raise_to` or :meth:`verify_bring_in`."""
        player = self.core.players[self.core.actor]  # type: ignore[index]
        structure = self.core.rules.structure
        short_all_in = self.core.rules.short_all_in
        increment = total - self.current_bet
        full_bet = structure.min_bet(self.core.street, self.core.rules.table_minimum)
        # a bet, raise or completion; a bring-in of the bring-in amount is none of them
        wager = not bring_in or total > self.core.rules.bring_in_amount
        if short_all_in.full_by_largest_increment:
            # full when it raises at least as much as any wager of the round before it
            full = wager and increment >= self.last_increment
            size = increment
        elif bring_in or self._completes(full_bet, structure.fixed_increment(self.core.street)):
            # an opening bet (or a bring-in, or completing one): full when it is a whole bet
            full = total >= full_bet
            size = total
        else:
            needed = structure.min_raise_increment(
                self.core.street, self.last_increment, self.core.rules.table_minimum
            )
            full = increment >= needed
            size = increment
        self.core.put(player, total - player.bet)
        if wager:
            self._wagers += 1
        if full:
            self.raises += 1
            self._full_raises += 1
            self.last_increment = max(self.last_increment, size)
        self.current_bet = total
        self.aggressor = player.seat
        self._bring_in_due = False
        self._short_bring_in = bring_in and not full
        all_in = player.stack == 0
        if short_all_in.add_up and wager:
            # the short all-ins in a row since the last full wager; once they add up to a
            # full raise they reopen the betting (see _closed_to) and a new run starts
            run = (*self._short_run, increment) if all_in else ()
            self._short_run = () if sum(run) >= self._full_increment() else run
        event: ev.BringIn | ev.RaisedTo = (
            ev.BringIn(player.seat, total, all_in)
            if bring_in
            else ev.RaisedTo(player.seat, total, increment, full, all_in)
        )
        self.core.record(event)
        self.core.to_act = {
            p.seat for p in self.core.players.values() if p.can_act and p is not player
        }
        self._acted(player)
        return event

    def _completes(self, full_bet: int, fixed: int | None) -> bool:
        """Whether the next bet completes an opening smaller than a full bet: no bet yet,
        a short stud bring-in, or (limit poker only) a short all-in opening bet. In no limit
        and pot limit a raise over a short all-in is a full raise over it (Decision 3.2-1)."""
        if self.current_bet == 0 or self._short_bring_in:
            return True
        if not self.core.rules.short_all_in.limit_completes:
            return False  # a full bet on top of a short opening bet (PokerKit)
        return fixed is not None and self.current_bet < full_bet

    def _acted(self, player: PlayerState) -> None:
        core = self.core
        player.acted_serial = self._full_raises
        core.to_act.discard(player.seat)
        if core.one_left():
            core.to_act.clear()
        nxt = core.next_to_act(player.seat)
        # a player facing no bet who cannot act (all in) is done
        while nxt is not None and not core.players[nxt].can_act:
            core.to_act.discard(nxt)
            nxt = core.next_to_act(nxt)
        core.actor = nxt
        if nxt is None:
            core.stage = Stage.COLLECT
