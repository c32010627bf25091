"""The showdown: reading the hands, who shows and who may muck, side pots, the odd chip
(Omaha 17.5(e)), the rake and the awards; conceding and asking to see a hand. One part of
:class:`~croupier.poker.state.HandState`.

>>> from croupier.poker import HandState, TableRules
>>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1)
>>> hand.fold(); hand.awards[0].shares
Folded(seat=2)
((1, 10),)
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.cards.card import Card
from croupier.checks import can as _can
from croupier.checks import seat_number
from croupier.errors import IllegalActionError, InvalidActionError
from croupier.evaluation.evaluate import evaluate
from croupier.evaluation.hand import HandValue
from croupier.poker import events as ev
from croupier.poker._core import Chore, HandCore, PlayerState, Stage, _malformed
from croupier.poker.pots import split_pot
from croupier.poker.settings import OddChip

__all__ = ["Showdown"]


class Showdown(HandCore):
    """The end of a hand: the showdown and the awards.

    >>> from croupier.poker import HandState, TableRules
    >>> isinstance(HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=1), Showdown)
    True
    """

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
        self._stage = Stage.AWARD

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
        paid: list[tuple[int, int, list[int]]] = []  # (first pot's index, chips, winners)
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
            if self.rules.merge_pots_with_the_same_winners and paid and paid[-1][2] == winners:
                first, chips, _ = paid.pop()  # the same winners: one pot, divided once
                paid.append((first, chips + amount, winners))
            else:
                paid.append((index, amount, winners))
        for index, amount, winners in paid:
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
        self._stage = Stage.DONE

    # ----------------------------------------------------------- conceding
    def verify_concede(self, seat: int) -> None:
        """Raise unless ``seat`` may give up its claim now: at the showdown, before the hands
        are read (a hand thrown away is dead, Poker definitions: Dead Hand)."""
        if self.next_chore is not Chore.SHOWDOWN:
            raise IllegalActionError(
                "Poker definitions: Dead Hand",
                "a hand may be conceded only at the showdown",
                "at the showdown",
            )
        seat = _malformed(seat_number, seat, "a seat")
        if seat not in self.players or self.players[seat].folded:
            raise IllegalActionError(
                "Poker definitions: Dead Hand",
                f"seat {seat} is not in the showdown",
                "a seat still in the hand",
            )

    def can_concede(self, seat: int) -> bool:
        """Whether :meth:`concede` is legal now."""
        return _can(self.verify_concede, seat)

    def concede(self, seat: int) -> ev.Conceded:
        """Give up the hand unshown at the showdown (driven step by step, ``automatic=False``);
        the hand can then win no pot unless every other claimant has conceded too."""
        self.verify_concede(seat)
        seat = int(seat)
        self.dead.add(seat)
        event = ev.Conceded(seat)
        self._log(event)
        return event

    # ------------------------------------------------------- after the showdown
    def verify_request_show(self, seat: int) -> None:
        """Raise unless ``seat``'s hand may be shown on request: any player may ask to see
        any hand in the final showdown (Omaha 17.5(d))."""
        if self._stage not in (Stage.AWARD, Stage.DONE) or not self._hands:
            raise IllegalActionError(
                "Omaha 17.5(d)",
                "hands may be asked for only in the final showdown",
                "after the showdown",
            )
        seat = _malformed(seat_number, seat, "a seat")
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
        seat = _malformed(seat_number, seat, "a seat")
        if seat not in self.players:
            raise InvalidActionError(f"seat {seat} is not in this hand")
        return self.players[seat].cards
