"""Reading a PHH record's fields for a replay: amounts and their chip scale, cards, the
actions, the betting structure, the table rules and the rule profile a file names.

>>> from croupier.phh.reader import HandHistory
>>> file_profile(HandHistory({"variant": "NT"})).name
'phh'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from dataclasses import fields as dataclass_fields
from decimal import Decimal
from fractions import Fraction
from typing import Any

from croupier.cards.card import Card
from croupier.errors import CardParseError, CroupierError
from croupier.phh.profiles import PROFILES, RuleProfile
from croupier.phh.reader import MAX_DECIMAL_PLACES, HandHistory, PHHError
from croupier.phh.variants import VARIANTS
from croupier.poker.games import GAMES
from croupier.poker.settings import HeadsUpBlinds, OddChip, RaiseCap, Rake, ShortAllIn, TableRules
from croupier.poker.structures import BettingStructure, FixedLimit, NoLimit, PotLimit, SpreadLimit

__all__ = ["file_profile"]

_PLAIN_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?")


def _decimals(value: Any) -> int:
    if isinstance(value, Decimal):
        exponent = value.normalize().as_tuple().exponent
        return max(0, -exponent) if isinstance(exponent, int) else 0
    return 0


def _amounts(hh: HandHistory, actions: list[_Action]) -> Iterator[Any]:
    fields = hh.fields
    for name in ("antes", "blinds_or_straddles", "starting_stacks"):
        yield from fields.get(name, ())
    for name in ("min_bet", "small_bet", "big_bet", "bring_in"):
        if name in fields:
            yield fields[name]
    for action in actions:
        if action.verb == "cbr" and action.args:
            yield _amount(action.args[0], hh.where)


def _scale(hh: HandHistory, actions: list[_Action]) -> int:
    places: int = max((_decimals(v) for v in _amounts(hh, actions)), default=0)
    return int(10**places)


def _amount(text: str, where: str) -> Decimal:
    """A ``cbr`` amount: a plain non-negative decimal number (``1500``, ``0.25``)."""
    if not _PLAIN_NUMBER.fullmatch(text):
        raise PHHError(f"amount {text!r} is not a number", where=where)
    value = Decimal(text)
    exponent = value.normalize().as_tuple().exponent
    if isinstance(exponent, int) and -exponent > MAX_DECIMAL_PLACES:
        raise PHHError(f"amount {text} has more than {MAX_DECIMAL_PLACES} decimal places",
                       where=where)  # fmt: skip
    return value


def _chips(value: Any, scale: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | Decimal | str):
        raise PHHError(f"amount {value!r} is not a number", where=where)
    try:
        exact = Decimal(value) * scale
    except ArithmeticError:
        raise PHHError(f"amount {value!r} is not a number", where=where) from None
    if not exact.is_finite() or exact != exact.to_integral_value():
        raise PHHError(f"amount {value} is not a whole number of chips", where=where)
    return int(exact)


def _cards(text: str, where: str) -> list[Card | None]:
    if text == "-":
        return []
    if len(text) % 2:
        raise PHHError(f"bad card list {text!r}", where=where)
    out: list[Card | None] = []
    for i in range(0, len(text), 2):
        token = text[i : i + 2]
        if "?" in token:
            out.append(None)
        else:
            try:
                out.append(Card.parse(token))
            except CardParseError as exc:
                raise PHHError(str(exc), where=where) from None
    return out


@dataclass
class _Action:
    index: int
    text: str
    actor: str
    verb: str
    args: list[str]


def _parse_actions(hh: HandHistory) -> list[_Action]:
    out = []
    actions = hh.fields.get("actions", ())
    if not isinstance(actions, list | tuple):
        raise PHHError(f"actions must be a list of strings, not {actions!r}", where=hh.where)
    for index, raw in enumerate(actions):
        text = str(raw).split(" #", 1)[0].strip()
        if not text or text.startswith("#"):
            continue
        parts = text.split()
        where = f"{hh.where} action {index + 1} {raw!r}"
        if len(parts) < 2:
            raise PHHError("the action has no verb", where=where)
        actor, verb, args = parts[0], parts[1], parts[2:]
        arity = _ARITY.get((actor == "d", verb))
        if arity is not None and len(args) not in arity:
            wanted = " or ".join(str(n) for n in arity)
            raise PHHError(f"{verb} takes {wanted} argument(s), got {len(args)}", where=where)
        if verb == "cbr":
            _amount(args[0], where)
        out.append(_Action(index + 1, str(raw), actor, verb, args))
    return out


_ARITY: dict[tuple[bool, str], tuple[int, ...]] = {
    (True, "dh"): (2,),  # d dh pN CARDS
    (True, "db"): (1,),  # d db CARDS
    (False, "cbr"): (1,),
    (False, "cc"): (0,),
    (False, "f"): (0,),
    (False, "pb"): (0,),
    (False, "sd"): (0, 1),
    (False, "sm"): (0, 1),
}
"""How many arguments each verb takes (dealer verbs first in the key)."""


def _structure(hh: HandHistory, scale: int) -> BettingStructure:
    f = hh.fields
    variant = hh.variant
    name = str(f.get("_croupier_structure", ""))
    if not name and variant in VARIANTS:
        name = VARIANTS[variant].structure
    if name == "no-limit":
        return NoLimit()
    if name == "pot-limit":
        return PotLimit(ratio=Fraction(str(f.get("_croupier_pot_ratio", "1"))))
    if name == "spread-limit":
        low, high = (_chips(v, scale, hh.where) for v in f["_croupier_spread"])
        return SpreadLimit(low, high)
    if name == "fixed-limit" and "small_bet" in f:
        return FixedLimit(
            _chips(f["small_bet"], scale, hh.where),
            _chips(f["big_bet"], scale, hh.where),
            big_bet_from=(  # absent: the game's own big-bet street
                int(f["_croupier_big_bet_from"]) if "_croupier_big_bet_from" in f else None
            ),
        )
    raise PHHError(f"unknown betting structure {name or variant!r}", where=hh.where)


def _rules(
    hh: HandHistory, profile: RuleProfile, scale: int
) -> tuple[TableRules, dict[int, int], bool]:
    f = hh.fields
    variant = hh.variant
    game = GAMES[str(f["_croupier_game"])] if "_croupier_game" in f else VARIANTS[variant].game
    structure = _structure(hh, scale)
    antes = [_chips(a, scale, hh.where) for a in f["antes"]]
    n = len(antes)
    unit = _chips(f["_croupier_chip_unit"], scale, hh.where) if "_croupier_chip_unit" in f else 1
    extra: dict[str, Any] = {**profile.settings(), "chip_unit": unit}
    if "_croupier_table_maximum" in f:
        extra["table_maximum"] = _chips(f["_croupier_table_maximum"], scale, hh.where)
    if "_croupier_rake" in f:
        rake = f["_croupier_rake"]
        extra["rake"] = Rake(
            Fraction(str(rake["percent"])),
            None if rake["cap"] < 0 else _chips(rake["cap"], scale, hh.where),
            _chips(rake["per_hand"], scale, hh.where),
            bool(rake["no_flop_no_drop"]),
        )
    voluntary = bool(f.get("_croupier_voluntary_blind", False))
    if "bring_in" in f:
        bring_in = _chips(f["bring_in"], scale, hh.where)
        minimum = f.get("_croupier_table_minimum")
        table_minimum = _chips(minimum, scale, hh.where) if minimum is not None else bring_in
        rules = TableRules(
            game,
            structure,
            blinds=(),
            ante=max(max(antes), 1),
            bring_in=bring_in,
            table_minimum=table_minimum,
            **extra,
        )
        return rules, {seat: antes[seat - 1] for seat in range(1, n + 1)}, False
    posted = [_chips(b, scale, hh.where) for b in f["blinds_or_straddles"]]
    if n == 2:
        # PHH's heads-up reversal: p1 posts the second entry, p2 (the button) the first.
        # The engine's blinds run from the first poster: the button when it posts first,
        # else the player left of it (17.1(c) as written).
        by_player = posted[::-1]
        button_first = profile.heads_up is HeadsUpBlinds.BUTTON_POSTS_FIRST
        posted = [by_player[1], by_player[0]] if button_first else by_player
    blinds = tuple(b for b in posted if b)
    if voluntary:
        blinds = blinds[:-1]  # the voluntary blind is posted by HandState(voluntary_blind=True)
    elif n > 2 and any(posted[len(blinds) :]):
        raise PHHError("straddles are not supported yet", where=hh.where)
    if "_croupier_table_minimum" in f:
        table_minimum = _chips(f["_croupier_table_minimum"], scale, hh.where)
    else:
        minimum = _chips(f["min_bet"], scale, hh.where) if "min_bet" in f else blinds[-1]
        table_minimum = min(minimum, blinds[-1])
    rules = TableRules(game, structure, blinds=blinds, table_minimum=table_minimum, **extra)
    return rules, {seat: antes[seat - 1] for seat in range(1, n + 1)}, voluntary


def file_profile(history: HandHistory) -> RuleProfile:
    """The rule profile a file names: ``_croupier_profile`` (default ``phh``), with any
    setting croupier wrote because the hand's rules differed from the profile's
    (``_croupier_odd_chip``, ``_croupier_heads_up``, ``_croupier_raise_cap``,
    ``_croupier_short_all_in``, ``_croupier_raise_needs_a_caller``,
    ``_croupier_merge_pots_with_the_same_winners``).

    >>> from croupier.phh.reader import HandHistory
    >>> file_profile(HandHistory({"variant": "NT"})).name
    'phh'
    >>> mine = HandHistory({"_croupier_profile": "nz", "_croupier_raise_cap":
    ...                     {"bets": 5, "blinds_count": True, "head_to_head_unlimited": False}})
    >>> file_profile(mine).raise_cap.bets, file_profile(mine).odd_chip.value
    (5, 'high-card-by-suit')
    """
    f = history.fields
    name = f.get("_croupier_profile", "phh")
    if not isinstance(name, str) or name not in PROFILES:
        raise PHHError(
            f"unknown _croupier_profile {name!r}: one of {', '.join(PROFILES)}",
            where=history.where,
        )
    chosen = PROFILES[name]
    changes: dict[str, Any] = {}
    try:
        if "_croupier_odd_chip" in f:
            changes["odd_chip"] = OddChip(str(f["_croupier_odd_chip"]))
        if "_croupier_heads_up" in f:
            changes["heads_up"] = HeadsUpBlinds(str(f["_croupier_heads_up"]))
        if "_croupier_raise_cap" in f:
            cap = f["_croupier_raise_cap"]
            if not isinstance(cap, dict) or not set(_CAP_FIELDS) <= set(cap) <= _CAP_ALL:
                raise ValueError(
                    f"_croupier_raise_cap needs {', '.join(_CAP_FIELDS)} "
                    "(and may have short_all_ins_count)"
                )
            changes["raise_cap"] = RaiseCap(**cap)
        if "_croupier_short_all_in" in f:
            short = f["_croupier_short_all_in"]
            if not isinstance(short, dict) or set(short) != _SHORT_FIELDS:
                raise ValueError(f"_croupier_short_all_in needs {', '.join(sorted(_SHORT_FIELDS))}")
            changes["short_all_in"] = ShortAllIn(**short)
        for flag in ("raise_needs_a_caller", "merge_pots_with_the_same_winners"):
            if f"_croupier_{flag}" in f:
                value = f[f"_croupier_{flag}"]
                if not isinstance(value, bool):
                    raise ValueError(f"_croupier_{flag} must be true or false, not {value!r}")
                changes[flag] = value
    except (ValueError, CroupierError) as exc:
        raise PHHError(f"a croupier field has a bad value: {exc}", where=history.where) from None
    return replace(chosen, **changes) if changes else chosen


_CAP_FIELDS = ("bets", "blinds_count", "head_to_head_unlimited")
"""The fields of :class:`~croupier.poker.settings.RaiseCap` every ``_croupier_raise_cap``
has (``short_all_ins_count`` is written only when true, so older files still read)."""

_CAP_ALL = frozenset(f.name for f in dataclass_fields(RaiseCap))
_SHORT_FIELDS = frozenset(f.name for f in dataclass_fields(ShortAllIn))
