"""Betting: who opens, the legal actions and their amounts (limits, caps, short all-ins),
and the fold / check / call / bet-or-raise / bring-in triads, as one part of
:class:`~croupier.poker.state.HandState`.

>>> from croupier.poker import HandState, TableRules
>>> hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7)
>>> hand.legal_actions().describe()
'fold, call 10, raise to 20..100'
"""

from __future__ import annotations

import numbers

from croupier.checks import whole_chips
from croupier.errors import IllegalActionError
from croupier.poker import events as ev
from croupier.poker._core import HandCore, PlayerState, Stage, _malformed
from croupier.poker.actions import LegalActions
from croupier.poker.exposed import exposed_strength
from croupier.poker.games import ForcedBets, Opener, Street

__all__ = ["Betting"]


def _is_chips(value: object) -> bool:
    """Whether ``value`` is a whole, non-negative number of chips (as ``whole_chips`` takes)."""
    return not isinstance(value, bool) and isinstance(value, numbers.Integral) and int(value) >= 0


class Betting(HandCore):
    """The betting rounds of a hand.

    >>> from croupier.poker import HandState, TableRules
    >>> hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7)
    >>> isinstance(hand, Betting), hand.can_raise_to(5)
    (True, False)
    """

    def _open_betting(self) -> None:
        street = self.game.streets[self.street]
        for player in self.players.values():
            player.acted_serial = -1
        if self.street > 0 or self.game.forced is not ForcedBets.BLINDS:
            self._current_bet = max(p.bet for p in self.players.values())
            self._last_increment = 0
            self._raises = 0
        elif self.rules.short_all_in.full_by_largest_increment:
            self._last_increment = 0  # the blinds set no raise size: the first wager is full
        self._full_raises = 0
        self._wagers = 0
        self._short_run = ()
        able = [s for s in self.order if self.players[s].can_act]
        owing = [s for s in able if self.players[s].bet < self._current_bet]
        if len(able) < 2 and not owing:
            # no betting this round: the last bet that was called stays the "called" hand
            self._actor = None
            self._stage = Stage.COLLECT
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
            self._stage = Stage.AWARD
        elif self.street + 1 < len(self.game.streets):
            self.street += 1
            self._stage = Stage.DEAL
        else:
            self._stage = Stage.SHOWDOWN

    # ---------------------------------------------------------- legal actions
    def legal_actions(self) -> LegalActions:
        """What the player to act may do (empty when nobody is to act). Worked out once
        per point of the hand: a server asks for them for the view, then again to check
        the action that comes back. The point is the log's length, the stage, the seat to
        act and the street: what changes the betting without a logged event (opening a
        round, the draw) changes the stage or the seat to act."""
        key = (len(self.events), self._stage, self._actor, self.street)
        kept = self._legal
        if kept is not None and kept[0] == key:
            return kept[1]
        legal = self._legal_now()
        self._legal = (key, legal)
        return legal

    def _legal_now(self) -> LegalActions:
        seat = self.actor
        if seat is None:
            return LegalActions(actor=None)
        player = self.players[seat]
        if self._stage == Stage.DRAW:
            return LegalActions(actor=seat, discard=True)
        to_call = max(self._current_bet - player.bet, 0)
        raise_range = self._raise_range(player, to_call)
        if self._bring_in_due:
            low = min(self.rules.bring_in_amount, player.stack)
            high = raise_range[1] if raise_range else low
            ends = self.rules.structure.fixed_increment(self.street) is not None
            complete = None
            if self.rules.short_all_in.complete_for_the_bring_in and raise_range:
                # all in for no more than the bring-in: a short completion, or the bring-in
                all_in = player.bet + player.stack
                complete = (all_in, all_in) if all_in <= self.rules.bring_in_amount else None
            return LegalActions(
                actor=seat,
                bring_in=(low, max(low, high)),
                bring_in_ends_only=ends,
                raise_to=complete,
            )
        return LegalActions(
            actor=seat,
            fold=to_call > 0 or self.rules.fold_when_check_is_free,
            check=to_call == 0,
            call=min(to_call, player.stack) if to_call > 0 else None,
            raise_to=raise_range,
        )

    def _heads_up(self) -> bool:
        """17.6(f) "head to head": two players left in the hand who can still bet."""
        return sum(1 for p in self.players.values() if p.can_act) == 2

    def _capped(self) -> bool:
        """17.6(f): the round has had all the bets and raises the table's cap allows."""
        cap = self.rules.raise_cap
        if not self.rules.structure.capped or (cap.head_to_head_unlimited and self._heads_up()):
            return False
        blind_round = self.street == 0 and self.game.forced is ForcedBets.BLINDS
        if cap.short_all_ins_count:  # every bet, raise and completion, short all-ins too
            made = self._wagers + (1 if cap.blinds_count and blind_round else 0)
        else:  # the full ones (_raises counts the last blind as the first round's bet)
            made = self._raises - (0 if cap.blinds_count or not blind_round else 1)
        return made >= cap.bets

    def _full_increment(self) -> int:
        """The raise a short all-in run must add up to, and a reopened player must owe:
        the largest increment of the round (PokerKit's measure) or the minimum raise."""
        if self.rules.short_all_in.full_by_largest_increment:
            return self._last_increment
        return self.rules.structure.min_raise_increment(
            self.street, self._last_increment, self.rules.table_minimum
        )

    def _closed_to(self, player: PlayerState, to_call: int) -> bool:
        """Whether the betting is closed to the player: it has acted since the last full
        bet or raise, and short all-ins do not reopen it (Decision 3.2-2); with
        ``ShortAllIn.add_up``, short all-ins in a row that reached a full raise reopen it
        for a player who owes at least a full raise."""
        if player.acted_serial < 0 or player.acted_serial < self._full_raises:
            return False
        if not self.rules.short_all_in.add_up or self._short_run:
            return True
        return min(to_call, player.stack) < self._full_increment()

    def _no_caller(self, player: PlayerState) -> bool:
        """``raise_needs_a_caller``: no other player in the hand has more than the bet."""
        if not self.rules.raise_needs_a_caller:
            return False
        top = self._current_bet
        return not any(
            p.bet + p.stack > top for p in self.players.values() if p is not player and p.can_act
        )

    def _raise_range(self, player: PlayerState, to_call: int) -> tuple[int, int] | None:
        all_in_total = player.bet + player.stack
        if player.stack <= to_call:
            return None
        others = [p for p in self.players.values() if p is not player and p.can_act]
        if not others:
            return None
        if self._closed_to(player, to_call):
            return None  # a short all-in does not reopen the betting (Decision 3.2-2)
        if self._no_caller(player):
            return None
        structure = self.rules.structure
        if self._capped():
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
        if self._stage != Stage.BET or self._actor is None:
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

    def _betting_legal(self) -> LegalActions | None:
        """The legal actions when a player is to act in a betting round, else None."""
        if self._stage != Stage.BET or self._actor is None:
            return None
        return self.legal_actions()

    def can_fold(self) -> bool:
        """Whether :meth:`fold` is legal now (worked out, never raised and caught)."""
        legal = self._betting_legal()
        return legal is not None and legal.fold

    def fold(self) -> ev.Folded:
        """Fold: the player's chips stay in the pot (they can no longer win it)."""
        self.verify_fold()
        return self._fold()

    def _fold(self) -> ev.Folded:
        player = self.players[self._actor]  # type: ignore[index]
        player.folded = True
        event = ev.Folded(player.seat)
        self._log(event)
        self._acted(player)
        return event

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
        legal = self._betting_legal()
        return legal is not None and legal.check

    def check(self) -> ev.Checked:
        """Check (nothing to call)."""
        self.verify_check()
        return self._check()

    def _check(self) -> ev.Checked:
        player = self.players[self._actor]  # type: ignore[index]
        event = ev.Checked(player.seat)
        self._log(event)
        self._acted(player)
        return event

    def verify_call(self) -> None:
        """Raise unless the player to act may call."""
        player = self._require_bettor("Poker definitions: Call", "call")
        if self.legal_actions().call is None:
            raise self._error("Poker definitions: Call", f"seat {player.seat} has nothing to call")

    def can_call(self) -> bool:
        """Whether :meth:`call` is legal now."""
        legal = self._betting_legal()
        return legal is not None and legal.call is not None

    def call(self) -> ev.Called:
        """Call the highest bet, or go all in for less when the stack is short (Call, Table Stakes)."""
        self.verify_call()
        return self._call()

    def _call(self) -> ev.Called:
        player = self.players[self._actor]  # type: ignore[index]
        paid = self._put(player, self._current_bet - player.bet)
        event = ev.Called(player.seat, paid, all_in=player.stack == 0)
        self._log(event)
        self._acted(player)
        return event

    def verify_raise_to(self, amount: int) -> None:
        """Raise unless the player to act may bet or raise to ``amount`` (a round total)."""
        player = self._require_bettor("Omaha 17.6(c)", "bet or raise")
        legal = self.legal_actions()
        if legal.bring_in is not None and legal.raise_to is None:
            raise self._error("Five Card Stud 12.2(a)", "the lowest up card must bring in first")
        if legal.raise_to is None:
            raise self._error(self._no_raise_rule(player), f"seat {player.seat} may not raise now")
        amount = _malformed(whole_chips, amount, "a bet or raise")
        low, high = legal.raise_to
        if not low <= amount <= high:
            rule = self._range_rule(amount, low, high, player)
            raise self._error(rule, f"seat {player.seat} cannot make it {amount}")
        if amount % self.rules.chip_unit and amount != player.bet + player.stack:
            raise self._error("Omaha 17.5(e)", f"{amount} is not a multiple of the chip unit")

    def _no_raise_rule(self, player: PlayerState) -> str:
        game = self.game
        if self._capped():
            return game.limit_rule("f")
        if player.acted_serial >= 0:
            return game.limit_rule("c")
        return "Poker definitions: Table Stakes"

    def _range_rule(self, amount: int, low: int, high: int, player: PlayerState) -> str:
        game = self.game
        structure = self.rules.structure
        if amount > player.bet + player.stack:
            return "Poker definitions: Table Stakes"
        rule = structure.size_rule
        if rule is not None:  # a letter names the game's own copy of 17.6
            return game.limit_rule(rule) if len(rule) == 1 else rule
        if structure.over_limit_letter is not None and amount > high:
            return game.limit_rule(structure.over_limit_letter)
        if amount < low and self._current_bet == 0:
            return game.limit_rule("a")  # below the minimum wager on the table's sign
        return game.limit_rule("c") if amount < low else game.limit_rule("a")

    def can_raise_to(self, amount: int) -> bool:
        """Whether :meth:`raise_to` with this amount is legal now."""
        legal = self._betting_legal()
        if legal is None or legal.raise_to is None or not _is_chips(amount):
            return False
        low, high = legal.raise_to
        player = self.players[self._actor]  # type: ignore[index]
        amount = int(amount)
        on_unit = amount % self.rules.chip_unit == 0 or amount == player.bet + player.stack
        return low <= amount <= high and on_unit

    def raise_to(self, amount: int) -> ev.RaisedTo:
        """Bet or raise so that the player's total for the round is ``amount``."""
        self.verify_raise_to(amount)
        return self._make_bet(int(amount), bring_in=False)  # type: ignore[return-value]

    def verify_bring_in(self, amount: int) -> None:
        """Raise unless the lowest up card may bring in for ``amount`` (12.2(a))."""
        player = self._require_bettor("Five Card Stud 12.2(a)", "bring in")
        amount = _malformed(whole_chips, amount, "a bring-in")
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
        legal = self._betting_legal()
        if legal is None or legal.bring_in is None or not _is_chips(amount):
            return False
        low, high = legal.bring_in
        player = self.players[self._actor]  # type: ignore[index]
        amount = int(amount)
        fixed = self.rules.structure.fixed_increment(self.street) is not None
        on_unit = amount % self.rules.chip_unit == 0 or amount == player.bet + player.stack
        return low <= amount <= high and (not fixed or amount in (low, high)) and on_unit

    def bring_in(self, amount: int) -> ev.BringIn:
        """The lowest up card opens the betting with at least the table minimum (12.2(a))."""
        self.verify_bring_in(amount)
        return self._make_bet(int(amount), bring_in=True)  # type: ignore[return-value]

    def _make_bet(self, total: int, *, bring_in: bool) -> ev.BringIn | ev.RaisedTo:
        player = self.players[self._actor]  # type: ignore[index]
        structure = self.rules.structure
        short_all_in = self.rules.short_all_in
        increment = total - self._current_bet
        full_bet = structure.min_bet(self.street, self.rules.table_minimum)
        # a bet, raise or completion; a bring-in of the bring-in amount is none of them
        wager = not bring_in or total > self.rules.bring_in_amount
        if short_all_in.full_by_largest_increment:
            # full when it raises at least as much as any wager of the round before it
            full = wager and increment >= self._last_increment
            size = increment
        elif bring_in or self._completes(full_bet, structure.fixed_increment(self.street)):
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
        if wager:
            self._wagers += 1
        if full:
            self._raises += 1
            self._full_raises += 1
            self._last_increment = max(self._last_increment, size)
        self._current_bet = total
        self._aggressor = player.seat
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
        self._log(event)
        self._to_act = {p.seat for p in self.players.values() if p.can_act and p is not player}
        self._acted(player)
        return event

    def _completes(self, full_bet: int, fixed: int | None) -> bool:
        """Whether the next bet completes an opening smaller than a full bet: no bet yet,
        a short stud bring-in, or (limit poker only) a short all-in opening bet. In no limit
        and pot limit a raise over a short all-in is a full raise over it (Decision 3.2-1)."""
        if self._current_bet == 0 or self._short_bring_in:
            return True
        if not self.rules.short_all_in.limit_completes:
            return False  # a full bet on top of a short opening bet (PokerKit)
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
            self._stage = Stage.COLLECT
        self._after_action()
