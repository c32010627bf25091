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
from croupier.phh.profiles import PROFILES, SETTINGS, RuleProfile
from croupier.phh.variants import CROUPIER_VARIANT, variant_of
from croupier.poker import events as ev
from croupier.poker.settings import RaiseCap, TableRules
from croupier.poker.state import HandState
from croupier.poker.structures import FixedLimit, PotLimit, SpreadLimit

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
    order = list(hand._clockwise_from(hand.button))  # p1 is left of the button
    player = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
    rules, structure = hand.rules, hand.rules.structure
    variant = _variant(hand)
    started = next(e for e in hand.events if isinstance(e, ev.HandStarted))
    start = dict(zip(started.seats, started.stacks, strict=True))
    antes = {e.seat: e.amount for e in hand.events if isinstance(e, ev.AntePosted)}
    blinds = {e.seat: e.amount for e in hand.events if isinstance(e, ev.BlindPosted)}
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
    fields["actions"] = list(_actions(hand, player))
    if hand.is_complete:
        fields["finishing_stacks"] = [hand.stacks[s] for s in order]
    fields["seats"] = list(order)
    profile, differences = _profile(rules)
    fields["_croupier_profile"] = profile
    first = hand.events[0]
    if isinstance(first, ev.HandStarted) and first.engine_version:
        fields["_croupier_engine_version"] = first.engine_version  # what dealt the hand
        fields["_croupier_rules_version"] = first.rules_version  # TableRules.fingerprint
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


def _actions(hand: HandState, player: dict[int, str]) -> Iterable[str]:
    pending: dict[int, list[str]] = {}
    dealt: dict[int, list[Card]] = {}  # shown cards are written in the order dealt

    def flush() -> Iterable[str]:
        for seat in list(pending):
            yield f"d dh {player[seat]} {''.join(pending.pop(seat))}"

    out = _OutOfBetting()
    for event in hand.events:
        out.see(event)
        if isinstance(event, ev.Checked) and out.only_bettor(event.seat):
            continue  # a check PHH leaves out: see _OutOfBetting
        if isinstance(event, ev.CardsDealt):
            pending.setdefault(event.seat, []).extend(str(c) for c in event.cards)
            dealt.setdefault(event.seat, []).extend(event.cards)
            continue
        if isinstance(event, ev.CardBurned):  # a new street: its deals are separate actions
            yield from flush()
            continue
        if not isinstance(
            event, ev.CommunityDealt | ev.PlayerAction | ev.HandShown | ev.HandMucked
        ):
            continue
        yield from flush()
        match event:
            case ev.CommunityDealt(cards=cards):
                yield f"d db {format_cards(cards)}"
            case ev.Folded(seat=seat):
                yield f"{player[seat]} f"
            case ev.Checked(seat=seat) | ev.Called(seat=seat):
                yield f"{player[seat]} cc"
            case ev.RaisedTo(seat=seat, to=to):
                yield f"{player[seat]} cbr {to}"
            case ev.BringIn(seat=seat, to=to):
                # the bring-in (all in for less when the stack is short), or its completion
                yield (
                    f"{player[seat]} pb"
                    if to <= hand.rules.bring_in_amount
                    else f"{player[seat]} cbr {to}"
                )
            case ev.Discarded(seat=seat, cards=cards):
                yield f"{player[seat]} sd {format_cards(cards)}".rstrip()
            case ev.HandShown(seat=seat, cards=cards):
                order = dealt.get(seat, [])
                ranked = sorted(cards, key=lambda c: order.index(c) if c in order else len(order))
                yield f"{player[seat]} sm {format_cards(ranked)}"
            case ev.HandMucked(seat=seat):
                yield f"{player[seat]} sm"
    yield from flush()


class _OutOfBetting:
    """Who can no longer bet (folded or all in), followed through the events.

    A player who can only check because nobody else in the hand has chips to bet (the
    big blind after an all-in call of no more than the blind) makes no decision: PokerKit
    ends the round without asking and PHH records no action there (PokerKit refuses the
    file otherwise); croupier's replay makes the check itself."""

    def __init__(self) -> None:
        self.stacks: dict[int, int] = {}
        self.out: set[int] = set()

    def see(self, event: ev.Event) -> None:
        match event:
            case ev.HandStarted(seats=seats, stacks=stacks):
                self.stacks = dict(zip(seats, stacks, strict=True))
            case ev.AntePosted(seat=seat, amount=amount) | ev.BlindPosted(seat=seat, amount=amount):
                self.stacks[seat] -= amount
                if self.stacks[seat] <= 0:
                    self.out.add(seat)
            case ev.Folded(seat=seat) | ev.Conceded(seat=seat):
                self.out.add(seat)
            case ev.Called(seat=seat, all_in=True) | ev.RaisedTo(seat=seat, all_in=True):
                self.out.add(seat)
            case ev.BringIn(seat=seat, all_in=True):
                self.out.add(seat)
            case ev.BetReturned(seat=seat):
                self.out.discard(seat)  # chips back behind (an uncalled bet)

    def only_bettor(self, seat: int) -> bool:
        """Whether every other player is out of the betting."""
        return all(other in self.out for other in self.stacks if other != seat)


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
