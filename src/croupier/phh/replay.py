"""Replaying a PHH hand through croupier's referee, action by action.

Every recorded player action goes through the engine's ``verify_`` checks, so an
illegal hand is reported with the action and the rule it breaks. The dealer's deals
are taken from the record (unknown cards, ``??``, are filled with cards the hand
never shows); burns, forced bets, collection and payouts are derived, as PHH intends.

>>> from croupier.phh.reader import loads
>>> text = '''variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [1, 2, 0]
... min_bet = 2
... starting_stacks = [100, 100, 100]
... actions = ['d dh p1 AsKs', 'd dh p2 QdQh', 'd dh p3 7c2d', 'p3 f', 'p1 cbr 10',
...            'p2 cc', 'd db 2c7h9s', 'p1 cc', 'p2 cc', 'd db Ts', 'p1 cc', 'p2 cc',
...            'd db Js', 'p1 cc', 'p2 cc', 'p1 sm AsKs', 'p2 sm QdQh']'''
>>> replay(loads(text)[0]).final_stacks
[110, 90, 100]
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from decimal import Decimal

from croupier.cards.card import Card, Rank, Suit
from croupier.cards.deck import Deck
from croupier.errors import CroupierError
from croupier.phh.fields import (
    _Action,
    _cards,
    _chips,
    _parse_actions,
    _rules,
    _scale,
    file_profile,
)
from croupier.phh.profiles import RuleProfile, profile_by_name
from croupier.phh.reader import HandHistory, PHHError
from croupier.poker._core import Chore
from croupier.poker.state import HandState, IllegalActionError, Phase

__all__ = ["Replay", "file_profile", "replay"]


@dataclass
class Replay:
    """The outcome of replaying one hand."""

    history: HandHistory
    """The hand history replayed."""
    hand: HandState
    """The engine's hand, complete (or stopped where the record stops)."""
    scale: int
    """Chips per unit of the file's amounts (100 for amounts in cents)."""
    profile: RuleProfile
    """The rule profile used."""
    warnings: list[str] = field(default_factory=list)
    """Repairs made in lenient mode."""

    @property
    def final_stacks(self) -> list[int | Decimal]:
        """Each player's stack at the end, in the file's units (p1 first); for an unfinished
        hand (:attr:`finished` false) the stacks behind, without the chips in the pot."""
        return [self._unscale(self.hand.stacks[seat]) for seat in sorted(self.hand.stacks)]

    @property
    def finished(self) -> bool:
        """Whether the record plays the hand to its end (PHH lets a record stop early)."""
        return self.hand.is_complete

    @property
    def to_act(self) -> str | None:
        """The player the unfinished hand waits for (``"p3"``), None when finished."""
        if self.hand.is_complete or self.hand.actor is None:
            return None
        return f"p{self.hand.actor}"

    @property
    def pot(self) -> int | Decimal:
        """Chips still in the pot (0 once the hand is finished), in the file's units."""
        return self._unscale(self.hand.total_pot)

    @property
    def recorded_stacks(self) -> list[int | Decimal] | None:
        """The file's own ``finishing_stacks``, when it records them."""
        recorded = self.history.fields.get("finishing_stacks")
        return list(recorded) if isinstance(recorded, list) else None

    @property
    def matches_recorded(self) -> bool | None:
        """Whether the replay ends with the file's ``finishing_stacks`` (exactly; None when
        the file records none)."""
        recorded = self.recorded_stacks
        if recorded is None:
            return None
        return [Decimal(x) for x in recorded] == [Decimal(x) for x in self.final_stacks]

    def problems(self) -> list[str]:
        """What makes the replay disagree with a complete, consistent record: an unfinished
        hand, or final stacks unlike the recorded ``finishing_stacks``. Empty when none.

        >>> from croupier.phh.reader import loads
        >>> text = ("variant = 'NT'\\nantes = [0, 0]\\nblinds_or_straddles = [1, 2]\\n"
        ...         "min_bet = 2\\nstarting_stacks = [200, 200]\\nactions = []\\n")
        >>> replay(loads(text)[0]).problems()
        ['the hand is unfinished: the record stops with p2 to act']
        """
        out = []
        if not self.finished:
            out.append(f"the hand is unfinished: the record stops with {self.to_act} to act")
        elif self.matches_recorded is False:
            recorded = " ".join(str(x) for x in self.recorded_stacks or ())
            got = " ".join(str(x) for x in self.final_stacks)
            out.append(f"the replay ends with stacks {got}, the file records finishing_stacks "
                       f"{recorded}")  # fmt: skip
        return out

    def _unscale(self, chips: int) -> int | Decimal:
        if self.scale == 1:
            return chips
        value = Decimal(chips) / self.scale
        return int(value) if value == value.to_integral_value() else value.normalize()


class _Replayer:
    def __init__(self, hh: HandHistory, profile: RuleProfile, strict: bool) -> None:
        self.hh = hh
        self.strict = strict
        self.actions = _parse_actions(hh)
        self.scale = _scale(hh, self.actions)
        try:
            self.rules, antes, voluntary = _rules(hh, profile, self.scale)
        except (KeyError, TypeError, IndexError, AttributeError, ArithmeticError) as exc:
            # croupier's own _croupier_* fields, written by hand with a wrong type or shape
            raise PHHError(f"a croupier field has a bad value ({type(exc).__name__}: {exc})",
                           where=hh.where) from None  # fmt: skip
        except ValueError as exc:
            raise PHHError(f"a croupier field has a bad value: {exc}", where=hh.where) from None
        stacks = [_chips(s, self.scale, hh.where) for s in hh.fields["starting_stacks"]]
        n = len(stacks)
        self.warnings: list[str] = []
        self._check_deals(n)
        self._learn_cards(n)
        self.hand = HandState(
            self.rules,
            {i + 1: s for i, s in enumerate(stacks)},
            button=n,
            deck=Deck([], shuffle=False),
            automatic=False,
            antes=antes,
            voluntary_blind=voluntary,
            ante_trimming=bool(hh.fields.get("ante_trimming_status", False)),
        )

    def _seat(self, actor: str, where: str) -> int:
        if not actor.startswith("p") or not (actor[1:].isascii() and actor[1:].isdigit()):
            raise PHHError(f"unknown actor {actor!r}", where=where)
        seat = int(actor[1:])
        if not 1 <= seat <= self.hh.players:
            raise PHHError(f"there is no player {actor}", where=where)
        return seat

    def _check_deals(self, n: int) -> None:
        """Each ``d dh`` deals exactly the cards the game deals a player at that point, and
        each ``d db`` the board cards of the next street: a deal with a card too many or too
        few is refused (the extra card is not silently dropped)."""
        game = self.rules.game
        fixed = [s.cards_per_player for s in game.streets if s.cards_per_player]
        due = {seat: deque(fixed) for seat in range(1, n + 1)}
        boards = deque(s.board for s in game.streets if s.board) or deque([1])  # stud: a
        # community card when the deck runs short (Seven Card Stud 13 (deal))
        for a in self.actions:
            where = f"{self.hh.where} action {a.index} {a.text!r}"
            if a.actor == "d" and a.verb == "dh":
                seat = self._seat(a.args[0], where)
                count = len(_cards(a.args[1], where))
                if not due[seat]:
                    raise PHHError(
                        f"p{seat} is dealt {count} more card(s), but {game.title} has no "
                        "further deal for the player here",
                        where=where,
                    )
                wanted = due[seat].popleft()
                if count != wanted:
                    raise PHHError(
                        f"p{seat} is dealt {count} card(s); {game.title} deals {wanted} here",
                        where=where,
                    )
            elif a.actor == "d" and a.verb == "db":
                count = len(_cards(a.args[0], where))
                if not boards:
                    raise PHHError(f"{game.title} deals no more board cards", where=where)
                wanted = boards.popleft()
                if count != wanted:
                    raise PHHError(
                        f"{count} board card(s) dealt; {game.title} deals {wanted} here",
                        where=where,
                    )
            elif a.actor != "d" and a.verb == "sd" and a.args:
                # draw poker: the discards are replaced by the next deal to the player
                thrown = len(_cards(a.args[0], where))
                if thrown:
                    due[self._seat(a.actor, where)].appendleft(thrown)

    def _learn_cards(self, n: int) -> None:
        """Every player's cards (from the deals, completed by what is shown) and the board."""
        self.dealt: dict[int, list[Card | None]] = {s: [] for s in range(1, n + 1)}
        self.board: list[Card | None] = []
        self.shown: dict[int, list[Card | None]] = {}
        for a in self.actions:
            where = f"{self.hh.where} action {a.index}"
            if a.actor == "d" and a.verb == "dh":
                self.dealt[self._seat(a.args[0], where)].extend(_cards(a.args[1], where))
            elif a.actor == "d" and a.verb == "db":
                self.board.extend(_cards(a.args[0], where))
            elif a.verb == "sm" and a.args:
                self.shown[self._seat(a.actor, where)] = _cards(a.args[0], where)
        draws = any(street.draw for street in self.rules.game.streets)
        for seat, cards in ({} if draws else self.shown).items():
            mine = self.dealt[seat]
            for i, card in enumerate(cards):
                if card is None:
                    continue
                if i < len(mine) and mine[i] is not None and mine[i] != card:
                    raise PHHError(
                        f"p{seat} shows {card} but was dealt {mine[i]}", where=self.hh.where
                    )
                if i < len(mine):
                    mine[i] = card
                else:
                    mine.append(card)
        known = {c for cards in self.dealt.values() for c in cards if c is not None}
        known |= {c for c in self.board if c is not None}
        lowest = self.rules.game.ranking.lowest_rank
        self.spare = deque(
            Card.of(r, s) for r in Rank if r >= lowest for s in Suit if Card.of(r, s) not in known
        )
        self.queues = {s: deque(cards) for s, cards in self.dealt.items()}
        self.board_queue = deque(self.board)

    def _next(self, queue: deque[Card | None]) -> Card:
        card = queue.popleft() if queue else None
        return card if card is not None else self.spare.popleft()

    def _deal_chore(self) -> None:
        hand = self.hand
        street = hand.game.streets[hand.street]
        live = [s for s in sorted(hand.players) if not hand.players[s].folded]
        per_player = street.cards_per_player
        needed = hand.cards_needed  # the referee says what this deal takes
        # a deck too short for everyone: one community card (seven card stud, 13 inferred)
        community = bool(per_player) and needed < per_player * len(live) + street.board
        dealt = (per_player if community else per_player * len(live)) + street.board
        order: list[Card] = [self.spare.popleft() for _ in range(needed - dealt)]  # the burn
        if community:
            order.extend(self._next(self.board_queue) for _ in range(per_player))
        else:
            for _ in range(per_player):
                order.extend(self._next(self.queues[s]) for s in live)
        order.extend(self._next(self.board_queue) for _ in range(street.board))
        hand.deal(order)  # the record names the cards: the replay deals them as a live dealer

    def _showdown_chore(self) -> None:
        hand = self.hand
        for seat, player in hand.players.items():
            if player.folded:
                continue
            shown = self.shown.get(seat)
            mucked = any(
                a.verb == "sm" and not a.args and self._seat(a.actor, "") == seat
                for a in self.actions
                if a.actor != "d"
            )
            unknown = any(c is None for c in self.dealt[seat]) and not shown
            own_file = "_croupier_game" in self.hh.fields  # croupier mucks only losing hands
            if (mucked and not own_file) or unknown:
                hand.concede(seat)
        hand.step()

    def _run_chores(self) -> None:
        hand = self.hand
        while hand.phase is Phase.DEALER:
            chore = hand.next_chore
            if chore is Chore.DEAL:
                self._deal_chore()
            elif chore is Chore.SHOWDOWN:
                self._showdown_chore()
            else:
                hand.step()

    def run(self) -> HandState:
        hand = self.hand
        for a in self.actions:
            where = f"{self.hh.where} action {a.index} {a.text!r}"
            if a.actor == "d":
                if a.verb not in ("dh", "db"):
                    raise PHHError(f"unknown dealer action {a.verb!r}", where=where)
                continue
            if a.verb == "sm":
                continue  # shows and mucks are applied at the showdown
            self._run_chores()
            seat = self._seat(a.actor, where)
            if hand.is_complete:
                raise PHHError("the hand is already over", where=where)
            while hand.actor not in (None, seat) and self._only_check():
                hand.check()  # a check nobody records: see _only_check
                self._run_chores()
            while not self.strict and hand.actor not in (None, seat) and hand.can_fold():
                # lenient: a player the record skips is taken to have folded (as PokerKit does)
                self.warnings.append(f"{where}: p{hand.actor} did not act; folded")
                hand.fold()
                self._run_chores()
            if hand.actor != seat:
                raise PHHError(
                    f"p{seat} acts out of turn: p{hand.actor} is to act",
                    where=where,
                    rule="Poker definitions: Betting Round",
                )
            try:
                self._apply(a, where)
            except IllegalActionError as exc:
                raise PHHError(str(exc), where=where, rule=exc.rule) from None
        self._run_chores()
        while self._only_check():
            hand.check()
            self._run_chores()
        return hand

    def _only_check(self) -> bool:
        """Whether the player to act can only check: nothing to call, no raise possible,
        nobody else in the hand with chips to bet (say the big blind after an all-in
        call for no more than the blind). PokerKit ends such a round without asking, so
        PHH files record no action; croupier asks for the check, and the replay makes it."""
        hand = self.hand
        if hand.phase is not Phase.BETTING or hand.actor is None:
            return False
        legal = hand.legal_actions()
        if not legal.check or legal.raise_to is not None or legal.bring_in is not None:
            return False
        return not any(p.can_act for s, p in hand.players.items() if s != hand.actor)

    def _apply(self, a: _Action, where: str) -> None:
        hand = self.hand
        legal = hand.legal_actions()
        if a.verb == "pb":
            if legal.bring_in is None:
                raise PHHError("no bring-in is due", where=where, rule="Five Card Stud 12.2(a)")
            hand.bring_in(legal.bring_in[0])  # the bring-in (all in when the stack is short)
        elif a.verb == "cbr":
            if len(a.args) != 1:
                raise PHHError("cbr needs one amount", where=where)
            amount = _chips(Decimal(a.args[0]), self.scale, where)
            completes = (
                legal.raise_to is not None and legal.raise_to[0] <= amount <= legal.raise_to[1]
            )
            if legal.bring_in is not None and not completes:
                hand.bring_in(amount)  # the bring-in's completion
            else:
                hand.raise_to(amount)  # a wager (at the bring-in: all in, a short completion)
        elif a.verb == "cc":
            hand.check() if legal.check else hand.call()
        elif a.verb == "f":
            hand.fold()
        elif a.verb == "sd":
            if not legal.discard:
                raise PHHError("no draw is due", where=where, rule="Draw 11 (deal and draw)")
            thrown = [c for c in _cards(a.args[0], where) if c is not None] if a.args else []
            seat = legal.actor
            assert seat is not None  # a draw is due: someone draws
            fresh = [self._next(self.queues[seat]) for _ in thrown]
            hand.discard(thrown)
            if fresh:  # the dealer then deals the replacements the record names
                hand.deal(fresh)
        else:
            raise PHHError(f"unknown action {a.verb!r}", where=where)


def replay(
    history: HandHistory, profile: RuleProfile | str | None = None, *, strict: bool = True
) -> Replay:
    """Replay one hand under a rule profile and return the engine's finished hand.

    The default is the file's own (:func:`file_profile`): its ``_croupier_profile`` with
    the settings croupier wrote beside it, else PHH's conventions (``phh``). A profile
    given here is used as it is, whatever the file says."""
    history.check()
    if profile is None:
        chosen = file_profile(history)
    else:
        chosen = profile_by_name(profile) if isinstance(profile, str) else profile
    try:
        replayer = _Replayer(history, chosen, strict)
        hand = replayer.run()
    except PHHError:
        raise
    except CroupierError as exc:
        rule = getattr(exc, "rule", None)
        raise PHHError(str(exc), where=history.where, rule=rule) from None
    return Replay(history, hand, replayer.scale, chosen, replayer.warnings)
