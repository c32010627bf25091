"""Hold'em hand ranges in the PokerStove / Equilab syntax, with exact weights.

A range is a set of two-card combos, each with a weight in (0, 1] kept as an exact
:class:`~fractions.Fraction`. The text is a comma-separated list of parts:

=================  ===========================================  ======
part               means                                        combos
=================  ===========================================  ======
``QQ``             one pair                                     6
``QQ+``            that pair and every higher one (QQ, KK, AA)  18
``55-22``          every pair between the two (either order)    24
``AKs`` ``AKo``    suited / offsuit                             4 / 12
``AK``             suited and offsuit                           16
``KTs+``           the kicker up to one below the top card      12
                   (KTs, KJs, KQs); ``K9o+`` is K9o..KQo
``A5s-A2s``        the kickers between, same top card and kind  16
``AsKs``           one specific combo (``As Ks`` too)           1
``random``         every hand (also ``any`` or ``100%``)        1326
``part:0.5``       any part at a weight: a decimal in (0, 1]
=================  ===========================================  ======

>>> r = HandRange("QQ+, AKs:0.5")
>>> len(r), str(r)
(22, 'QQ+, AKs:0.5')
>>> r.combos[0]
Combo(cards=(Card('As'), Card('Ah')), weight=Fraction(1, 1))
>>> len(r.without("As"))
18
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Final, NamedTuple

from croupier.cards.card import Card, parse_cards
from croupier.errors import CroupierError
from croupier.evaluation.evaluate import CardsLike

__all__ = ["Combo", "HandRange", "RangeParseError"]

COMBO_COUNT: Final = 1326
"""Two-card combos in a 52-card deck."""

_MAX_PLACES: Final = 6
_RANKS: Final = "23456789TJQKA"
_RANK = r"(10|[2-9TJQKA])"
_CLASS_RE: Final = re.compile(rf"{_RANK}{_RANK}([SO]?)(\+?)")
_TWO_RANKS_RE: Final = re.compile(rf"{_RANK}{_RANK}(.*)")
_CARDISH_RE: Final = re.compile(r"(10|[2-9tjqka])[cdhs♣♦♥♠]", re.IGNORECASE)
_WEIGHT_RE: Final = re.compile(r"(\d+)(?:\.(\d*))?|\.(\d+)")
_RANDOM: Final = frozenset({"random", "any", "100%"})
_SPACE_RE: Final = re.compile(r"\s*([-:])\s*|\s+(?=\+)")
_EXAMPLES: Final = "AKs, AKo, AK, QQ, QQ+, KTs+, A5s-A2s, AsKs or random"


class RangeParseError(CroupierError):
    """Range text that cannot be read; the message names the bad part and what is allowed.

    >>> HandRange("AKx")
    Traceback (most recent call last):
    ...
    croupier.equity.ranges.RangeParseError: bad range part 'AKx': after the two ranks comes s (suited), o (offsuit) or nothing (both), then an optional +, not 'x'
    """


class Combo(NamedTuple):
    """One two-card combo of a range, higher card first, with its weight.

    >>> HandRange("AsKs:0.25").combos[0]
    Combo(cards=(Card('As'), Card('Ks')), weight=Fraction(1, 4))
    """

    cards: tuple[Card, Card]
    """The two cards, higher first."""
    weight: Fraction
    """How much of the combo the range holds, in (0, 1]."""


def combo_id(a: int, b: int) -> int:
    """The dense id (0..1325) of the combo of card indices ``a`` and ``b`` (any order)."""
    hi, lo = (a, b) if a > b else (b, a)
    return hi * (hi - 1) // 2 + lo


COMBO_CARDS: Final[tuple[tuple[int, int], ...]] = tuple(
    (hi, lo) for hi in range(52) for lo in range(hi)
)
"""The card indices (higher first) of each combo id."""

_CLASS_OF: Final[tuple[tuple[int, int, str], ...]] = tuple(
    (hi >> 2, lo >> 2, "p" if hi >> 2 == lo >> 2 else "s" if hi & 3 == lo & 3 else "o")
    for hi, lo in COMBO_CARDS
)
_CLASS_COMBOS: dict[tuple[int, int, str], list[int]] = {}
for _id, _key in enumerate(_CLASS_OF):
    _CLASS_COMBOS.setdefault(_key, []).append(_id)


def _bad(part: str, why: str) -> RangeParseError:
    return RangeParseError(f"bad range part {part!r}: {why}")


def _rank(text: str) -> int:
    return 8 if text == "10" else _RANKS.index(text)


def _parse_weight(part: str, text: str) -> Fraction:
    match = _WEIGHT_RE.fullmatch(text)
    places = "" if match is None else (match.group(2) or match.group(3) or "")
    if match is None or len(places) > _MAX_PLACES:
        raise _bad(
            part,
            f"weight {text!r} must be a decimal greater than 0 and at most 1 with at most "
            f"{_MAX_PLACES} decimal places, such as 0.5",
        )
    weight = Fraction(text if not text.endswith(".") else text[:-1])
    if not 0 < weight <= 1:
        raise _bad(part, f"weight {text} must be greater than 0 and at most 1, such as 0.5")
    return weight


def _class_ids(high: int, low: int, kind: str) -> list[int]:
    """Combo ids of one class; ``kind`` is 'p', 's', 'o' or '' (suited and offsuit)."""
    if kind == "":
        return _CLASS_COMBOS[(high, low, "s")] + _CLASS_COMBOS[(high, low, "o")]
    return _CLASS_COMBOS[(high, low, kind)]


def _read_class(part: str, text: str) -> tuple[int, int, str, bool] | None:
    """(top rank, low rank, kind, plus) of a class such as ``KTs+``, or None if not one."""
    match = _CLASS_RE.fullmatch(text.upper())
    if match is None:
        return None
    high, low = _rank(match.group(1)), _rank(match.group(2))
    kind, plus = match.group(3).lower(), bool(match.group(4))
    if high < low:
        fixed = f"{_RANKS[low]}{_RANKS[high]}{kind}{'+' if plus else ''}"
        raise _bad(part, f"write the higher rank first: {fixed}")
    if high == low:
        if kind:
            raise _bad(part, "a pair is neither suited nor offsuit: write it without s or o")
        return high, low, "p", plus
    return high, low, kind, plus


def _class_span(part: str, text: str) -> list[int]:
    """The combos of one class part (``QQ+``, ``KTs+``, ``A5s-A2s``, ``AK``…), or an error."""
    if "-" in text:
        ends = text.split("-")
        if len(ends) != 2 or not all(ends):
            raise _bad(part, "a span has two ends, such as 55-22 or A5s-A2s")
        first, second = (_read_class(part, end) for end in ends)
        if first is None or second is None:
            raise _bad(part, "each end of a span is a hand class such as 55, A5s or K9o")
        if first[3] or second[3]:
            raise _bad(part, "a span takes no +: write 55-22 or QQ+, not both")
        if (first[2] == "p") != (second[2] == "p"):
            raise _bad(
                part,
                "a span joins two pairs (55-22) or two hands with the same top card and "
                "kind (A5s-A2s), not a pair and a non-pair",
            )
        if first[2] == "p":
            lo, hi = sorted((first[0], second[0]))
            return [i for r in range(lo, hi + 1) for i in _class_ids(r, r, "p")]
        if first[0] != second[0]:
            raise _bad(
                part,
                f"both ends of a span need the same top card ({_RANKS[first[0]]} vs "
                f"{_RANKS[second[0]]}), as in A5s-A2s",
            )
        if first[2] != second[2]:
            raise _bad(part, "both ends of a span need the same kind (both s, both o or neither)")
        lo, hi = sorted((first[1], second[1]))
        return [i for k in range(lo, hi + 1) for i in _class_ids(first[0], k, first[2])]
    read = _read_class(part, text)
    assert read is not None
    high, low, kind, plus = read
    if kind == "p":
        return [i for r in range(high, 13 if plus else high + 1) for i in _class_ids(r, r, "p")]
    top = high if plus else low + 1
    return [i for k in range(low, top) for i in _class_ids(high, k, kind)]


def _read_combo(part: str, text: str) -> list[int]:
    """The one combo of a part such as ``AsKs``, or an error."""
    try:
        cards = parse_cards(text)
    except CroupierError as err:
        raise _bad(part, f"{err}; a combo is two cards such as AsKs") from None
    if len(cards) == 2:
        return [combo_id(cards[0].index, cards[1].index)]
    if len(cards) >= 4:
        raise _bad(
            part,
            f"{len(cards)} cards: ranges hold two-card hold'em hands; Omaha takes exact "
            "hands (equity(..., game='omaha'))",
        )
    raise _bad(
        part,
        f"{len(cards)} card{'s' if len(cards) != 1 else ''}: a combo is two cards such as AsKs",
    )


def _read_part(part: str) -> tuple[list[int], Fraction]:
    """The combos and weight of one comma-separated part."""
    text = _SPACE_RE.sub(r"\1", part.strip())
    weight = Fraction(1)
    if ":" in text:
        text, _, weight_text = text.partition(":")
        if ":" in weight_text:
            raise _bad(part, "one weight per part, such as AKs:0.5")
        weight = _parse_weight(part, weight_text)
    if not text:
        raise _bad(part, f"no hand before the weight; write e.g. AKs:0.5 (hands: {_EXAMPLES})")
    if text.lower() in _RANDOM:
        return list(range(COMBO_COUNT)), weight
    if text.endswith("%"):
        raise _bad(part, "the only percentage range is 100% (every hand); list the hands instead")
    if any(c.isspace() for c in text):
        if _CARDISH_RE.match(text):  # card text such as "As Ks": a combo, or a card error
            return _read_combo(part, text), weight
        raise _bad(part, "separate the parts of a range with commas, such as 'QQ+, AKs'")
    if "-" in text:
        if _CARDISH_RE.match(text):
            raise _bad(part, "a span joins two hand classes such as 55-22 or A5s-A2s, not combos")
        return _class_span(part, text), weight
    if _CLASS_RE.fullmatch(text.upper()):
        return _class_span(part, text), weight
    if _CARDISH_RE.match(text):
        return _read_combo(part, text), weight
    two = _TWO_RANKS_RE.fullmatch(text.upper())
    if two is not None:
        raise _bad(
            part,
            "after the two ranks comes s (suited), o (offsuit) or nothing (both), then an "
            f"optional +, not {text[len(two.group(1)) + len(two.group(2)) :]!r}",
        )
    raise _bad(part, f"expected a hand such as {_EXAMPLES}")


def _weight_text(weight: Fraction) -> str:
    """A weight as its shortest exact decimal, e.g. ``0.25`` (weights have finite decimals)."""
    scaled = weight * 10**_MAX_PLACES
    assert scaled.denominator == 1, weight
    whole, frac = divmod(scaled.numerator, 10**_MAX_PLACES)
    text = f"{whole}.{frac:0{_MAX_PLACES}d}".rstrip("0")
    return text.rstrip(".")


def _suffixed(text: str, weight: Fraction) -> str:
    return text if weight == 1 else f"{text}:{_weight_text(weight)}"


def _runs(items: list[tuple[int, Fraction]]) -> Iterator[tuple[int, int, Fraction]]:
    """Maximal runs (high, low, weight) of consecutive ranks, given in descending order."""
    start = 0
    for i in range(1, len(items) + 1):
        if i == len(items) or items[i][0] != items[i - 1][0] - 1 or items[i][1] != items[i - 1][1]:
            yield items[start][0], items[i - 1][0], items[start][1]
            start = i


def _format(weights: dict[int, Fraction]) -> str:
    """The canonical compact text: classes and runs where whole, single combos otherwise."""
    if len(weights) == COMBO_COUNT and len(set(weights.values())) == 1:
        return _suffixed("random", next(iter(weights.values())))
    full: dict[tuple[int, int, str], Fraction] = {}
    loose: list[int] = []
    for key, ids in _CLASS_COMBOS.items():
        found = {weights[i] for i in ids if i in weights}
        if len(found) == 1 and all(i in weights for i in ids):
            full[key] = found.pop()
        else:
            loose.extend(i for i in ids if i in weights)
    parts: list[str] = []
    pairs = [(r, full[(r, r, "p")]) for r in range(12, -1, -1) if (r, r, "p") in full]
    for hi, lo, w in _runs(pairs):
        a, b = _RANKS[hi], _RANKS[lo]
        text = f"{b}{b}+" if hi == 12 and lo < hi else f"{a}{a}" if hi == lo else f"{a}{a}-{b}{b}"
        parts.append(_suffixed(text, w))
    for high in range(12, 0, -1):
        runs: dict[str, list[tuple[int, int, Fraction]]] = {}
        for kind in "so":
            kicks = [
                (k, full[(high, k, kind)])
                for k in range(high - 1, -1, -1)
                if (high, k, kind) in full
            ]
            runs[kind] = list(_runs(kicks))
        both = [r for r in runs["s"] if r in runs["o"]]
        tagged = [(r, "") for r in both]
        tagged += [(r, kind) for kind in "so" for r in runs[kind] if r not in both]
        order = {"": 0, "s": 1, "o": 2}
        for (hi, lo, w), kind in sorted(tagged, key=lambda t: (-t[0][0], order[t[1]])):
            h, a, b = _RANKS[high], _RANKS[hi], _RANKS[lo]
            if hi == high - 1 and lo < hi:
                text = f"{h}{b}{kind}+"
            elif hi == lo:
                text = f"{h}{a}{kind}"
            else:
                text = f"{h}{a}{kind}-{h}{b}{kind}"
            parts.append(_suffixed(text, w))
    for i in sorted(loose, reverse=True):
        hi, lo = COMBO_CARDS[i]
        parts.append(_suffixed(f"{Card(hi)}{Card(lo)}", weights[i]))
    return ", ".join(parts)


class HandRange:
    """A hold'em hand range: two-card combos with exact weights, read from range text.

    Parts are separated by commas; spaces around them (and around ``+``, ``-`` and ``:``)
    do not matter. A combo listed twice is an error, as is any part that is not range
    syntax. ``str()`` gives the canonical compact text, which reads back to the same
    range.

    >>> HandRange("22+").combos[-1]
    Combo(cards=(Card('2d'), Card('2c')), weight=Fraction(1, 1))
    >>> len(HandRange("A5s-A2s")), len(HandRange("K9o+")), len(HandRange("random"))
    (16, 48, 1326)
    >>> str(HandRange("AKo, AKs, 22-55, KJs, KQs, KTs"))
    '55-22, AK, KTs+'
    >>> HandRange("QQ+, KK")
    Traceback (most recent call last):
    ...
    croupier.equity.ranges.RangeParseError: combo KdKc is listed twice, by 'QQ+' and by 'KK'; list each hand once
    >>> HandRange("AKs:1.5")
    Traceback (most recent call last):
    ...
    croupier.equity.ranges.RangeParseError: bad range part 'AKs:1.5': weight 1.5 must be greater than 0 and at most 1, such as 0.5
    """

    __slots__ = ("_weights",)
    _weights: dict[int, Fraction]

    def __init__(self, text: str | HandRange) -> None:
        """Read range text such as ``"QQ+, AKs:0.5"`` (or copy a range).

        >>> HandRange("As Ks")
        HandRange('AsKs')
        """
        if isinstance(text, HandRange):
            self._weights = dict(text._weights)
            return
        if not isinstance(text, str):
            shown = repr(text)
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            raise RangeParseError(
                f"a range must be text such as 'QQ+, AKs', not {shown} ({type(text).__name__})"
            )
        if not text.strip():
            raise RangeParseError("empty range: give hands such as 'QQ+, AKs' or 'random'")
        weights: dict[int, Fraction] = {}
        origin: dict[int, str] = {}
        for part in text.split(","):
            if not part.strip():
                raise RangeParseError(
                    f"empty part in range {text!r}: separate the hands with single commas"
                )
            ids, weight = _read_part(part)
            shown = part.strip()
            for i in ids:
                if i in weights:
                    hi, lo = COMBO_CARDS[i]
                    raise RangeParseError(
                        f"combo {Card(hi)}{Card(lo)} is listed twice, by {origin[i]!r} and "
                        f"by {shown!r}; list each hand once"
                    )
                weights[i] = weight
                origin[i] = shown
        self._weights = dict(sorted(weights.items(), reverse=True))

    @classmethod
    def _of(cls, weights: dict[int, Fraction]) -> HandRange:
        made = cls.__new__(cls)
        made._weights = dict(sorted(weights.items(), reverse=True))
        return made

    @property
    def combos(self) -> tuple[Combo, ...]:
        """Every combo with its weight, highest cards first.

        >>> [str(c) for c, _ in (combo.cards for combo in HandRange("AKs").combos)]
        ['As', 'Ah', 'Ad', 'Ac']
        """
        return tuple(
            Combo((Card(COMBO_CARDS[i][0]), Card(COMBO_CARDS[i][1])), w)
            for i, w in self._weights.items()
        )

    @property
    def weights(self) -> dict[int, Fraction]:
        """A copy of the weights keyed by combo id (``hi * (hi - 1) // 2 + lo`` of the card
        indices), for the equity engine.

        >>> HandRange("3c2c").weights
        {6: Fraction(1, 1)}
        """
        return dict(self._weights)

    def weight(self, cards: CardsLike) -> Fraction:
        """The weight of one combo in the range: 0 when it is not in it.

        >>> r = HandRange("AKs:0.5, AKo")
        >>> r.weight("As Ks"), r.weight("Ks Ad"), r.weight("Qs Qh")
        (Fraction(1, 2), Fraction(1, 1), Fraction(0, 1))
        """
        parsed = parse_cards(cards)
        if len(parsed) != 2:
            raise RangeParseError(f"a combo is two cards such as AsKs, got {len(parsed)}")
        return self._weights.get(combo_id(parsed[0].index, parsed[1].index), Fraction(0))

    def without(self, cards: CardsLike) -> HandRange:
        """The range less every combo holding one of ``cards`` (card removal).

        The result may be empty (``len() == 0``), unlike any range read from text.

        >>> r = HandRange("AA, AKs").without("As Kh")
        >>> len(r), str(r)
        (5, 'AhAd, AhAc, AdAc, AdKd, AcKc')
        """
        dead = {c.index for c in parse_cards(cards)}
        return HandRange._of(
            {
                i: w
                for i, w in self._weights.items()
                if COMBO_CARDS[i][0] not in dead and COMBO_CARDS[i][1] not in dead
            }
        )

    def __len__(self) -> int:
        return len(self._weights)

    def __iter__(self) -> Iterator[Combo]:
        return iter(self.combos)

    def __str__(self) -> str:
        return _format(self._weights)

    def __repr__(self) -> str:
        return f"HandRange({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandRange):
            return NotImplemented
        return self._weights == other._weights

    def __hash__(self) -> int:
        return hash(frozenset(self._weights.items()))
