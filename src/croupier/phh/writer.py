"""Writing PHH: a finished croupier hand as a ``.phh`` document (or many as ``.phhs``).

Hands of the variants PHH has (no-limit and fixed-limit Hold'em, pot-limit Omaha,
fixed-limit seven card stud) are written as standard PHH that PokerKit loads; the house
rules go in user fields (``_croupier_profile`` and friends) so croupier replays them
under the same rules. Games PHH lacks (spread limit, half pot, five card stud, draw,
the Manila games) are written with ``variant = '_croupier'`` and the game in
``_croupier_game``: croupier reads them back losslessly, and no other reader will
mistake them for a standard variant.

>>> from croupier.poker import HandState, TableRules, HOLDEM, NoLimit
>>> hand = HandState(TableRules(HOLDEM, NoLimit(), blinds=(1, 2), table_minimum=2),
...                  {1: 100, 2: 100, 3: 100}, button=3, seed=1)
>>> hand.fold(); hand.fold()
Folded(seat=3)
Folded(seat=1)
>>> fields = hand_to_fields(hand)
>>> fields["variant"], fields["blinds_or_straddles"], fields["actions"][-1]
('NT', [1, 2, 0], 'p1 f')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, is_dataclass
from typing import Any

import tomli_w

from croupier.cards.card import Card, format_cards
from croupier.errors import CroupierError
from croupier.phh.profiles import PROFILES, SETTINGS, RuleProfile
from croupier.phh.variants import CROUPIER_VARIANT, variant_of
from croupier.poker import events as ev
from croupier.poker.settings import RaiseCap, TableRules
from croupier.poker.state import HandState
from croupier.poker.structures import FixedLimit, PotLimit, SpreadLimit
from croupier.visitor import EventVisitor, visits

__all__ = ["dumps", "dumps_all", "hand_to_fields"]


def _variant(hand: HandState) -> str:
    structure = hand.rules.structure
    if isinstance(structure, PotLimit) and structure.ratio != 1:
        return CROUPIER_VARIANT  # PHH's pot limit is a full pot
    return variant_of(hand.game.name, structure.name) or CROUPIER_VARIANT


def _profile(rules: TableRules) -> tuple[str, dict[str, Any]]:
    """The profile closest to the hand's rules (the most settings equal; ``phh`` first),
    and the settings that differ from it as croupier's fields, so the file replays under
    the hand's own rules: an enum as its value, a flag as a boolean, a setting with
    fields (``RaiseCap``, ``ShortAllIn``) as a table of them."""
    mine = {key: getattr(rules, key) for key in SETTINGS}

    def differing(profile: RuleProfile) -> list[str]:
        return [key for key, value in profile.settings().items() if mine[key] != value]

    best = min(PROFILES.values(), key=lambda p: len(differing(p)))
    out: dict[str, Any] = {}
    for key in differing(best):
        value = mine[key]
        if is_dataclass(value) and not isinstance(value, type):
            table = asdict(value)
            if isinstance(value, RaiseCap) and not value.short_all_ins_count:
                del table["short_all_ins_count"]  # as files written before the field
            out[f"_croupier_{key}"] = table
        elif isinstance(value, bool):
            out[f"_croupier_{key}"] = value
        else:
            out[f"_croupier_{key}"] = str(value)
    return best.name, out


def hand_to_fields(hand: HandState) -> dict[str, Any]:
    """The PHH fields of a hand (players numbered from the button's left, as PHH does)."""
    order = hand.seats_clockwise_from(hand.button)  # p1 is left of the button
    player = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
    rules, structure = hand.rules, hand.rules.structure
    variant = _variant(hand)
    log = _PhhLog(player, hand.rules.bring_in_amount).visit_all(hand.events)
    started, antes, blinds = log.started, log.antes, log.blinds
    if started is None:
        raise CroupierError("the PHH writer reads a hand's whole log: it has no HandStarted")
    start = dict(zip(started.seats, started.stacks, strict=True))
    fields: dict[str, Any] = {"variant": variant}
    fields["antes"] = [antes.get(s, 0) for s in order]
    if hand.rules.game.forced.value == "blinds":
        posted = [blinds.get(s, 0) for s in order]
        if len(order) == 2:
            posted = posted[::-1]  # PHH's heads-up reversal
        fields["blinds_or_straddles"] = posted
    else:
        fields["bring_in"] = rules.bring_in_amount
    if isinstance(structure, FixedLimit):
        fields["small_bet"], fields["big_bet"] = structure.small_bet, structure.big_bet
    else:
        fields["min_bet"] = rules.table_minimum
    fields["starting_stacks"] = [start[s] for s in order]
    fields["actions"] = log.actions
    if hand.is_complete:
        fields["finishing_stacks"] = [hand.stacks[s] for s in order]
    fields["seats"] = list(order)
    profile, differences = _profile(rules)
    fields["_croupier_profile"] = profile
    if hand.events[0] is started and started.engine_version:
        fields["_croupier_engine_version"] = started.engine_version  # what dealt the hand
        fields["_croupier_rules_version"] = started.rules_version  # TableRules.fingerprint
    fields.update(differences)
    fields["_croupier_game"] = hand.game.name
    fields["_croupier_structure"] = structure.name
    if isinstance(structure, PotLimit):
        fields["_croupier_pot_ratio"] = str(structure.ratio)
    if isinstance(structure, FixedLimit):
        fields["_croupier_big_bet_from"] = structure.big_bet_from
    if isinstance(structure, SpreadLimit):
        fields["_croupier_spread"] = [structure.minimum, structure.maximum]
    fields["_croupier_table_minimum"] = rules.table_minimum
    if rules.table_maximum is not None:
        fields["_croupier_table_maximum"] = rules.table_maximum
    if hand.voluntary_blind:
        fields["_croupier_voluntary_blind"] = True
    if hand.ante_trimming:
        fields["ante_trimming_status"] = True
    rake = rules.rake
    if rake.percent or rake.per_hand:
        fields["_croupier_rake"] = {
            "percent": str(rake.percent),
            "cap": -1 if rake.cap is None else rake.cap,
            "per_hand": rake.per_hand,
            "no_flop_no_drop": rake.no_flop_no_drop,
        }
    fields["_croupier_chip_unit"] = rules.chip_unit
    return fields


class _PhhLog(EventVisitor["_PhhLog"]):
    """A hand's log read for PHH: the start, the antes and blinds, and the actions.

    Deals to one player wait until the next action or burn, so that a street's cards go
    to each player in one ``d dh`` action; shown cards are written in the order dealt.

    It also follows who can no longer bet (folded or all in). A player who can only
    check because nobody else in the hand has chips to bet (the big blind after an all-in
    call of no more than the blind) makes no decision: PokerKit ends the round without
    asking and PHH records no action there (PokerKit refuses the file otherwise);
    croupier's replay makes the check itself."""

    consumer = "the PHH writer"
    reads = (ev,)
    ignores = (
        ev.BetsCollected,
        ev.CardBoxed,
        ev.DeckCut,
        ev.DealEnded,
        ev.PotAwarded,
        ev.RakeTaken,
        ev.StubRestocked,
    )

    def __init__(self, player: dict[int, str], bring_in: int) -> None:
        self.player = player
        self.bring_in = bring_in
        self.started: ev.HandStarted | None = None
        self.antes: dict[int, int] = {}
        self.blinds: dict[int, int] = {}
        self.actions: list[str] = []
        self.pending: dict[int, list[str]] = {}
        self.dealt: dict[int, list[Card]] = {}
        self.stacks: dict[int, int] = {}
        self.out: set[int] = set()  # out of the betting: folded or all in

    def result(self) -> _PhhLog:
        self._flush()
        return self

    def _flush(self) -> None:
        """Write the deals waiting, one action for each player."""
        pending = self.pending
        for seat in list(pending):
            self.actions.append(f"d dh {self.player[seat]} {''.join(pending.pop(seat))}")

    def _act(self, seat: int, what: str) -> None:
        self._flush()
        self.actions.append(f"{self.player[seat]} {what}")

    def _posted(self, seat: int, amount: int) -> None:
        self.stacks[seat] -= amount
        if self.stacks[seat] <= 0:
            self.out.add(seat)

    @visits(ev.HandStarted)
    def on_started(self, event: ev.HandStarted) -> None:
        if self.started is None:
            self.started = event
        self.stacks = dict(zip(event.seats, event.stacks, strict=True))

    @visits(ev.AntePosted)
    def on_ante(self, event: ev.AntePosted) -> None:
        self.antes[event.seat] = event.amount
        self._posted(event.seat, event.amount)

    @visits(ev.BlindPosted)
    def on_blind(self, event: ev.BlindPosted) -> None:
        self.blinds[event.seat] = event.amount
        self._posted(event.seat, event.amount)

    @visits(ev.CardsDealt)
    def on_dealt(self, event: ev.CardsDealt) -> None:
        self.pending.setdefault(event.seat, []).extend(str(c) for c in event.cards)
        self.dealt.setdefault(event.seat, []).extend(event.cards)

    @visits(ev.CardBurned)
    def on_burned(self, event: ev.CardBurned) -> None:
        self._flush()  # a new street: its deals are separate actions

    @visits(ev.HiddenCards)
    def on_hidden(self, event: ev.HiddenCards) -> None:
        raise CroupierError(
            "the PHH writer cannot read HiddenCards: a seat's view hides cards, "
            "write the hand's own log"
        )

    @visits(ev.CommunityDealt)
    def on_board(self, event: ev.CommunityDealt) -> None:
        self._flush()
        self.actions.append(f"d db {format_cards(event.cards)}")

    @visits(ev.Folded)
    def on_folded(self, event: ev.Folded) -> None:
        self.out.add(event.seat)
        self._act(event.seat, "f")

    @visits(ev.Conceded)
    def on_conceded(self, event: ev.Conceded) -> None:
        self.out.add(event.seat)
        self._flush()  # a decision PHH has no action for

    @visits(ev.ShowRequested)
    def on_show_requested(self, event: ev.ShowRequested) -> None:
        self._flush()  # a decision PHH has no action for

    @visits(ev.Checked)
    def on_checked(self, event: ev.Checked) -> None:
        seat = event.seat
        if all(other in self.out for other in self.stacks if other != seat):
            return  # the only one who can bet: a check PHH leaves out (see the class)
        self._act(seat, "cc")

    @visits(ev.Called)
    def on_called(self, event: ev.Called) -> None:
        if event.all_in:
            self.out.add(event.seat)
        self._act(event.seat, "cc")

    @visits(ev.RaisedTo)
    def on_raised(self, event: ev.RaisedTo) -> None:
        if event.all_in:
            self.out.add(event.seat)
        self._act(event.seat, f"cbr {event.to}")

    @visits(ev.BringIn)
    def on_bring_in(self, event: ev.BringIn) -> None:
        if event.all_in:
            self.out.add(event.seat)
        # the bring-in (all in for less when the stack is short), or its completion
        self._act(event.seat, "pb" if event.to <= self.bring_in else f"cbr {event.to}")

    @visits(ev.BetReturned)
    def on_returned(self, event: ev.BetReturned) -> None:
        self.out.discard(event.seat)  # chips back behind (an uncalled bet)

    @visits(ev.Discarded)
    def on_discarded(self, event: ev.Discarded) -> None:
        self._act(event.seat, f"sd {format_cards(event.cards)}".rstrip())

    @visits(ev.HandShown)
    def on_shown(self, event: ev.HandShown) -> None:
        order = self.dealt.get(event.seat, [])
        ranked = sorted(event.cards, key=lambda c: order.index(c) if c in order else len(order))
        self._act(event.seat, f"sm {format_cards(ranked)}")

    @visits(ev.HandMucked)
    def on_mucked(self, event: ev.HandMucked) -> None:
        self._act(event.seat, "sm")


def dumps(hand: HandState, **extra: Any) -> str:
    """A ``.phh`` document for one finished hand (``extra`` fields added, e.g. ``players``).

    >>> from croupier.phh.reader import loads
    >>> from croupier.poker import HandState, TableRules
    >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=2, seed=2)
    >>> hand.fold()
    Folded(seat=1)
    >>> loads(dumps(hand))[0].fields["finishing_stacks"]
    [95, 105]
    """
    return tomli_w.dumps({**hand_to_fields(hand), **extra})


def dumps_all(hands: Iterable[HandState]) -> str:
    """A ``.phhs`` document: hands as tables ``[1]``, ``[2]``, … in order.

    >>> from croupier.phh.reader import loads
    >>> from croupier.poker import HandState, TableRules
    >>> hands = [HandState(TableRules(), {1: 100, 2: 100}, button=2, seed=s) for s in (1, 2)]
    >>> for hand in hands:
    ...     hand.fold()
    Folded(seat=1)
    Folded(seat=1)
    >>> [h.key for h in loads(dumps_all(hands))]
    ['1', '2']
    """
    return "\n".join(tomli_w.dumps({str(i): hand_to_fields(h)}) for i, h in enumerate(hands, 1))
