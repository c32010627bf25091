"""Index plays: the true count at which the best play of a decision changes, worked out by
the exact analysis of count-conditioned shoes.

**Count-conditioned shoes.** With ``n`` of the ``N`` cards of a shoe left and a true count
``tc``, the running count of the ``k = N - n`` cards seen is ``tc * n / 52`` (for an
unbalanced system, on top of what the cards seen add on average). The shoe left is the
expected composition given that count: each value's cards seen are
``k c_v / N + rc * c_v (t_v - t) / sum(c_u (t_u - t)^2)`` (the linear conditional mean of the
multivariate hypergeometric, ``t`` the mean tag; :func:`conditioned_shoe`). It has fractional
cards, and is analysed as it is: the exact analysis's formulas (products of cards of a value
over cards left) are polynomials in the counts, evaluated there
(:class:`~croupier.blackjack.math._shoes.ExpectedShoe`; at whole counts, the analysis itself).
Rounding to whole cards instead would put each count's shoe a card of some value away from
the average shoe at that count, noise of a few tenths of a true count in an index. Each shoe
gives every first decision of two cards against every up card, optimal play after it.

**The count at the decision.** A counter decides with the hand and the up card seen, so a
hand ``a, b`` against ``u`` dealt from a shoe at true count ``tc`` is at true count
``(tc * n/52 + t_a + t_b + t_u) / ((n - 3)/52)`` (balanced-equivalent). Each hand's EVs are
placed at that count, a decision's EVs are the hands' averaged by their chance (a hard total
stands for its two-card hands that are not pairs), and the index is where the two plays'
EVs cross, by linear interpolation between the analysed shoes (a whole true count apart).
Insurance counts the ace up only.

**Linear estimate.** Beside it, the classic estimate from the effects of removal of the
full shoe (:mod:`croupier.blackjack.math.removal`): the difference ``D`` between the plays
changes by ``beta (N - 1)/52`` a true count, ``beta`` the regression of the decision's
effects on the tags over the shoe's cards, so the index is where
``D + beta (N - 1)/52 * tc`` crosses zero (shifted, as above, for the cards on the table).

The Illustrious 18 and the Fab 4 (Schlesinger, *Blackjack Attack*) are computed for any
rule set; a rule set without surrender gets the Fab 4 as if late surrender were offered
(NZ: void against a dealer blackjack, Decision 3.1-13), flagged.

>>> from croupier.blackjack.math.counting import counting_system
>>> hi_lo = counting_system("hi-lo")
>>> shoe = conditioned_shoe(hi_lo, (24,) * 9 + (96,), 156, 2)   # three decks left, +2
>>> shoe, sum(shoe)
((12.6, 11.4, 11.4, 11.4, 11.4, 11.4, 12.0, 12.0, 12.0, 50.4), 156.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.blackjack.math._shoes import evaluate_shoes, shoe_options
from croupier.blackjack.math.analysis import ACTIONS, shoe_counts
from croupier.blackjack.math.counting import CountingSystem
from croupier.blackjack.math.removal import (
    DECISIONS,
    Decision,
    decision_effects,
    hand_weights,
    removal_shoes,
)
from croupier.blackjack.rules import NZ, BlackjackRules, Surrender
from croupier.errors import CroupierError

__all__ = [
    "FAB_4",
    "ILLUSTRIOUS_18",
    "Deviation",
    "IndexPlay",
    "IndexTable",
    "conditioned_shoe",
    "index_table",
    "shoe_count",
]

FloatArray = npt.NDArray[np.float64]

_STEP = 0.05
"""The grid (in true counts) on which decisions' EV curves are compared."""


@dataclass(frozen=True)
class Deviation:
    """A named index play: ``play`` instead of the best of ``otherwise`` at a true count at
    or above (or below) the index; ``published`` is the Hi-Lo index of *Blackjack Attack*
    (multi-deck, S17, DAS, a hole card).

    >>> ILLUSTRIOUS_18[1].label, ILLUSTRIOUS_18[1].play, ILLUSTRIOUS_18[1].published
    ('16 v T', 'stand', 0)
    """

    decision: Decision | None
    """The decision (None: insurance)."""
    play: str
    """The play the index calls for (``insure`` for insurance)."""
    otherwise: tuple[str, ...]
    """The play(s) it replaces: the best of them."""
    published: int
    """The Hi-Lo index as published."""

    @property
    def label(self) -> str:
        """``insurance``, ``16 v T``, ``T,T v 5`` ..."""
        return "insurance" if self.decision is None else self.decision.label


def _d(kind: str, row: int, up: int, play: str, otherwise: str, published: int) -> Deviation:
    return Deviation(Decision(kind, row, up), play, tuple(otherwise.split("|")), published)


ILLUSTRIOUS_18 = (
    Deviation(None, "insure", ("decline",), 3),
    _d("hard", 16, 10, "stand", "hit", 0),
    _d("hard", 15, 10, "stand", "hit", 4),
    _d("pair", 10, 5, "split", "stand", 5),
    _d("pair", 10, 6, "split", "stand", 4),
    _d("hard", 10, 10, "double", "hit", 4),
    _d("hard", 12, 3, "stand", "hit", 2),
    _d("hard", 12, 2, "stand", "hit", 3),
    _d("hard", 11, 1, "double", "hit", 1),
    _d("hard", 9, 2, "double", "hit", 1),
    _d("hard", 10, 1, "double", "hit", 4),
    _d("hard", 9, 7, "double", "hit", 3),
    _d("hard", 16, 9, "stand", "hit", 5),
    _d("hard", 13, 2, "stand", "hit", -1),
    _d("hard", 12, 4, "stand", "hit", 0),
    _d("hard", 12, 5, "stand", "hit", -2),
    _d("hard", 12, 6, "stand", "hit", -1),
    _d("hard", 13, 3, "stand", "hit", -2),
)
"""The Illustrious 18 (Schlesinger, *Blackjack Attack*), with the published Hi-Lo indices."""

FAB_4 = (
    _d("hard", 14, 10, "surrender", "hit|stand", 3),
    _d("hard", 15, 10, "surrender", "hit|stand", 0),
    _d("hard", 15, 9, "surrender", "hit|stand", 2),
    _d("hard", 15, 1, "surrender", "hit|stand", 1),
)
"""The Fab 4 surrender indices (Schlesinger, *Blackjack Attack*; S17), published Hi-Lo."""


# ------------------------------------------------------------- conditioned shoes
def _mean_tag(tags: Sequence[float], shoe: Sequence[int]) -> float:
    return sum(c * t for c, t in zip(shoe, tags, strict=True)) / sum(shoe)


def conditioned_shoe(
    system: CountingSystem, shoe: Sequence[int], remaining: int, true_count: float
) -> tuple[float, ...]:
    """The cards left (``remaining`` of them) when the cards seen from ``shoe`` put the
    system at ``true_count``: the expected composition given the count (see the module
    docstring), in fractional cards. Refused when the count cannot be reached.

    >>> from croupier.blackjack.math.counting import counting_system
    >>> conditioned_shoe(counting_system("hi-lo"), (24,) * 9 + (96,), 156, 0)
    (12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 12.0, 48.0)
    >>> conditioned_shoe(counting_system("hi-lo"), (4,) * 9 + (16,), 26, 60)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: a true count of 60 cannot be reached with 26 of 52 cards left
    """
    total = sum(shoe)
    if not 10 <= remaining < total:
        raise CroupierError(f"cards remaining is from 10 to {total - 1}, not {remaining}")
    tags = system.tags
    mean = _mean_tag(tags, shoe)
    spread = sum(c * (t - mean) ** 2 for c, t in zip(shoe, tags, strict=True))
    seen = total - remaining
    running = true_count * remaining / 52
    left = tuple(
        c - seen * c / total - (running * c * (t - mean) / spread if spread else 0.0)
        for c, t in zip(shoe, tags, strict=True)
    )
    if any(x < 0 or x > c for x, c in zip(left, shoe, strict=True)):
        raise CroupierError(
            f"a true count of {true_count:g} cannot be reached with {remaining} of {total} cards left"
        )
    return tuple(round(x, 12) for x in left)


def _true_count(system: CountingSystem, shoe: Sequence[int], left: Sequence[float]) -> float:
    """The balanced-equivalent true count of the cards ``left`` of ``shoe``."""
    tags = system.tags
    mean = _mean_tag(tags, shoe)
    seen = [c - x for c, x in zip(shoe, left, strict=True)]
    running = sum(s * (t - mean) for s, t in zip(seen, tags, strict=True))
    return running / (sum(left) / 52)


# ------------------------------------------------------------- results
@dataclass(frozen=True)
class IndexPlay:
    """One index: play ``play`` (instead of the best of ``otherwise``) at a true count
    at or above ``index`` (``direction`` ``>=``) or at or below it (``<=``).

    >>> IndexPlay("16 v T", "stand", ("hit",), 0.2, ">=", 0.4, 0).describe()
    '16 v T: stand at +0.2 or more (else hit); linear estimate +0.4; published +0'
    """

    label: str
    """The decision: ``insurance``, ``16 v T`` ..."""
    play: str
    """The play the index calls for."""
    otherwise: tuple[str, ...]
    """The play(s) it replaces."""
    index: float | None
    """The true count where the plays' EVs cross (None: no crossing in the range)."""
    direction: str
    """``>=`` (play at the index or above) or ``<=``; ``always``/``never`` without a crossing
    in the range; ``not allowed`` where the rules do not allow the play."""
    linear: float | None = None
    """The linear estimate from the full shoe's effects of removal."""
    published: int | None = None
    """The published Hi-Lo index (Hi-Lo only)."""
    offered: bool = True
    """False for a surrender index where the rules offer no surrender."""

    def describe(self) -> str:
        """One line."""
        other = " or ".join(self.otherwise)
        if self.direction == "not allowed":
            text = f"{self.label}: {self.play} is not allowed by these rules"
        elif self.index is None:
            text = f"{self.label}: {self.play} {self.direction} in the range (else {other})"
        else:
            more = "or more" if self.direction == ">=" else "or less"
            text = f"{self.label}: {self.play} at {self.index:+.1f} {more} (else {other})"
        if self.linear is not None:
            text += f"; linear estimate {self.linear:+.1f}"
        if self.published is not None:
            text += f"; published {self.published:+d}"
        if not self.offered:
            text += " (surrender not offered: as if late surrender were)"
        return text

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data.

        >>> IndexPlay("16 v T", "stand", ("hit",), 0.2, ">=").to_json()["index"]
        0.2
        """
        return {
            "decision": self.label,
            "play": self.play,
            "otherwise": list(self.otherwise),
            "index": None if self.index is None else round(self.index, 2),
            "direction": self.direction,
            "linear_estimate": None if self.linear is None else round(self.linear, 2),
            "published": self.published,
            "offered": self.offered,
        }


@dataclass(frozen=True)
class IndexTable:
    """The index plays of one system for one rule set, shoe and depth.

    >>> from croupier.blackjack.math.counting import counting_system
    >>> table = index_table(counting_system("hi-lo"), decks=1, remaining=0.5, span=2)
    >>> sorted(table.to_json())[:3], table.changes["T,T v 6"][:1]
    (['decisions', 'decks', 'fab_4'], [])
    """

    system: CountingSystem
    """The counting system."""
    rules: BlackjackRules
    """The rule set."""
    shoe: tuple[int, ...]
    """The full shoe."""
    remaining: int
    """Cards left in the conditioned shoes."""
    span: float
    """Indices are looked for between ``-span`` and ``+span``."""
    illustrious_18: tuple[IndexPlay, ...]
    """The Illustrious 18."""
    fab_4: tuple[IndexPlay, ...]
    """The Fab 4."""
    basic: dict[str, str] = field(repr=False)
    """Every decision's best play at true count 0 (by label)."""
    changes: dict[str, list[tuple[float, str]]] = field(repr=False)
    """Every decision's changes of best play, walking from true count 0 up (positive
    counts) and down (negative): ``(true count, new best play)``."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (the CLI's ``--json``)."""
        return {
            "system": self.system.key,
            "name": self.system.name,
            "decks": sum(self.shoe) // 52,
            "remaining_decks": round(self.remaining / 52, 4),
            "span": self.span,
            "illustrious_18": [p.to_json() for p in self.illustrious_18],
            "fab_4": [p.to_json() for p in self.fab_4],
            "decisions": {
                label: {
                    "basic": self.basic[label],
                    "changes": [
                        {"true_count": round(tc, 2), "play": play}
                        for tc, play in self.changes[label]
                    ],
                }
                for label in self.basic
            },
        }


# ------------------------------------------------------------- the computation
@dataclass
class _Curves:
    """The analysed shoes: each one's balanced-equivalent running count and options."""

    system: CountingSystem
    shoe: tuple[int, ...]
    remaining: int
    running: list[float]
    options: list[FloatArray]
    shoes: list[tuple[float, ...]]

    def hand_curve(self, a: int, b: int, up: int) -> tuple[FloatArray, FloatArray]:
        """(true counts at the decision, EVs [shoe, action]) of one hand against ``up``."""
        tags = self.system.tags
        mean = _mean_tag(tags, self.shoe)
        tau = tags[a - 1] + tags[b - 1] + tags[up - 1] - 3 * mean
        x = np.array([(rc + tau) / ((self.remaining - 3) / 52) for rc in self.running])
        y = np.array([o[up, a, b] for o in self.options])
        return x, y

    def decision_curves(self, decision: Decision, grid: FloatArray) -> dict[str, FloatArray]:
        """Each play's EV on ``grid`` (true counts at the decision), averaged over the
        decision's hands by their chance in the full shoe (the plays open to every hand);
        NaN outside the counts where every hand can be dealt."""
        weights = hand_weights(self.shoe, decision)
        total = sum(weights.values())
        inside = np.ones(len(grid), np.bool_)
        curves = {}
        for hand in weights:
            x, y = self.hand_curve(*hand, decision.up)
            dealt = ~np.isnan(y).all(axis=1)  # a shoe short of the hand's cards cannot deal it
            if dealt.sum() < 2:
                return {}
            curves[hand] = (x[dealt], y[dealt])
            inside &= (grid >= x[dealt].min()) & (grid <= x[dealt].max())
        out: dict[str, FloatArray] = {}
        for i, action in enumerate(ACTIONS):
            if total <= 0 or any(np.isnan(y[:, i]).any() for _, y in curves.values()):
                continue
            acc = np.zeros_like(grid)
            for hand, w in weights.items():
                x, y = curves[hand]
                acc += w * np.interp(grid, x, y[:, i])
            acc[~inside] = np.nan
            out[action] = acc / total
        return out

    def insurance_curve(self, grid: FloatArray) -> FloatArray:
        """The insurance bet's EV on ``grid``, the ace up counted."""
        tags = self.system.tags
        mean = _mean_tag(tags, self.shoe)
        x = np.array([(rc + tags[0] - mean) / ((self.remaining - 1) / 52) for rc in self.running])
        y = []
        for s in self.shoes:
            m = sum(s) - 1
            y.append((3 * s[9] - m) / m)
        return np.asarray(np.interp(grid, x, np.array(y)), np.float64)


def _crossing(grid: FloatArray, diff: FloatArray) -> tuple[float | None, str]:
    """Where ``diff`` (play minus otherwise) changes sign nearest to true count 0, and the
    direction of the play; ``always``/``never`` without a change (NaN points left out)."""
    finite = np.isfinite(diff)
    grid, diff = grid[finite], diff[finite]
    if len(diff) < 2:
        return None, "never"
    positive = diff > 0
    flips = np.flatnonzero(positive[1:] != positive[:-1])
    if not len(flips):
        return None, "always" if positive.all() else "never"
    roots = []
    for i in flips:
        x0, x1, y0, y1 = grid[i], grid[i + 1], diff[i], diff[i + 1]
        root = x0 if y1 == y0 else x0 - y0 * (x1 - x0) / (y1 - y0)
        roots.append((abs(root), float(root), ">=" if y1 > y0 else "<="))
    _, root, direction = min(roots)
    return root, direction


def _relative_effects(
    rules: BlackjackRules, shoe: tuple[int, ...]
) -> dict[Decision, dict[str, tuple[float, FloatArray]]]:
    """For each decision, every play's (mean, effects) relative to the full shoe's best play
    (:func:`~croupier.blackjack.math.removal.decision_effects`; the best play's are zero)."""
    out: dict[Decision, dict[str, tuple[float, FloatArray]]] = {}
    for d in decision_effects(rules, shoe):
        plays = out.setdefault(d.decision, {d.play: (0.0, np.zeros(10))})
        plays[d.alternative] = (d.mean, np.asarray(d.effects, np.float64))
    return out


def _linear_index(
    deviation: Deviation,
    relative: dict[Decision, dict[str, tuple[float, FloatArray]]],
    curves: _Curves,
) -> float | None:
    """The linear estimate (see the module docstring) against the one of ``otherwise``
    that is best on the full shoe; None for insurance."""
    decision = deviation.decision
    if decision is None or decision not in relative:
        return None
    plays = relative[decision]
    others = [o for o in deviation.otherwise if o in plays]
    if deviation.play not in plays or not others:
        return None
    other = max(others, key=lambda o: plays[o][0])
    mean = plays[deviation.play][0] - plays[other][0]
    effects = plays[deviation.play][1] - plays[other][1]
    n = sum(curves.shoe)
    weights = np.asarray(curves.shoe, np.float64)
    tags = np.asarray(curves.system.tags, np.float64)
    mean_tag = float((weights * tags).sum()) / n
    centred = tags - mean_tag
    beta = float((weights * centred * effects).sum()) / float((weights * centred**2).sum())
    slope = beta * (n - 1) / 52
    if slope == 0:
        return None
    hands = hand_weights(curves.shoe, decision)
    tau = sum(
        w * (tags[a - 1] + tags[b - 1] + tags[decision.up - 1] - 3 * mean_tag)
        for (a, b), w in hands.items()
    ) / sum(hands.values())
    left = curves.remaining
    before = -mean / slope  # the true count of the shoe before the round
    return float((before * left / 52 + tau) / ((left - 3) / 52))


def index_table(
    system: CountingSystem,
    rules: BlackjackRules = NZ,
    *,
    decks: int | None = None,
    remaining: float | None = None,
    span: float = 10,
    linear: bool = True,
    progress: Callable[[int], None] | None = None,
) -> IndexTable:
    """Every decision's index plays for ``system`` (see the module docstring): a shoe of
    ``decks`` decks (the rules' own by default) with ``remaining`` decks left (default
    half the shoe), indices looked for between ``-span`` and ``+span``, with the linear
    estimates unless ``linear`` is false; ``progress(1)`` after each analysed shoe
    (:func:`shoe_count` of them).

    >>> from croupier.blackjack.math.counting import counting_system
    >>> table = index_table(counting_system("hi-lo"), decks=1, remaining=0.5, span=2)
    >>> [p.label for p in table.illustrious_18][:3], table.basic["16 v T"]
    (['insurance', '16 v T', '15 v T'], 'hit')
    """
    if not isinstance(system, CountingSystem):
        raise CroupierError(f"system must be a CountingSystem, not {type(system).__name__}")
    if not isinstance(rules, BlackjackRules):
        raise CroupierError(f"rules must be a BlackjackRules, not {type(rules).__name__}")
    rules.validate()
    if decks is not None and (isinstance(decks, bool) or not isinstance(decks, int) or decks < 1):
        raise CroupierError(f"decks is a whole number from 1, not {decks!r}")
    if isinstance(span, bool) or not isinstance(span, int | float) or not 1 <= span <= 20:
        raise CroupierError(f"span is a true count from 1 to 20, not {span!r}")
    shoe = shoe_counts(rules.decks if decks is None else decks)
    total = sum(shoe)
    left = _remaining_cards(total, remaining)
    offered = rules.surrender is Surrender.LATE
    table_rules = rules if offered else rules.with_(surrender=Surrender.LATE)
    targets = _targets(system, shoe, left, span)
    extra = removal_shoes(shoe) if linear else []
    evaluate_shoes(table_rules, [*targets, *extra], progress=progress)
    curves = _Curves(
        system=system,
        shoe=shoe,
        remaining=left,
        running=[_true_count(system, shoe, s) * left / 52 for s in targets],
        options=[shoe_options(table_rules, s) for s in targets],
        shoes=list(targets),
    )
    grid = np.round(np.arange(-span, span + _STEP / 2, _STEP), 10)
    hi_lo = system.key == "hi-lo"
    relative = _relative_effects(table_rules, shoe) if linear else {}

    def named(deviation: Deviation, surrender_index: bool) -> IndexPlay:
        if deviation.decision is None:
            diff = curves.insurance_curve(grid)
        else:
            evs = curves.decision_curves(deviation.decision, grid)
            others = [evs[o] for o in deviation.otherwise if o in evs]
            if deviation.play not in evs or not others:  # e.g. no double on 9 (--double 10-11)
                return IndexPlay(
                    deviation.label, deviation.play, deviation.otherwise, None, "not allowed",
                    published=deviation.published if hi_lo else None,
                    offered=offered or not surrender_index,
                )  # fmt: skip
            diff = evs[deviation.play] - np.max(others, axis=0)
        index, direction = _crossing(grid, diff)
        return IndexPlay(
            label=deviation.label,
            play=deviation.play,
            otherwise=deviation.otherwise,
            index=index,
            direction=direction,
            linear=_linear_index(deviation, relative, curves),
            published=deviation.published if hi_lo else None,
            offered=offered or not surrender_index,
        )

    basic: dict[str, str] = {}
    changes: dict[str, list[tuple[float, str]]] = {}
    zero = int(np.argmin(np.abs(grid)))
    for decision in DECISIONS:
        if not hand_weights(shoe, decision):
            continue
        evs = curves.decision_curves(decision, grid)
        if not offered:
            evs.pop("surrender", None)
        if len(evs) < 2:
            continue
        plays = list(evs)
        values = np.array([evs[p] for p in plays])
        finite = np.isfinite(values).all(axis=0)
        if not finite[zero]:
            continue
        best = np.argmax(np.where(finite, values, 0.0), axis=0)
        basic[decision.label] = plays[best[zero]]
        found: list[tuple[float, str]] = []
        for walk in (range(zero + 1, len(grid)), range(zero - 1, -1, -1)):
            for i in walk:
                j = i - 1 if i > zero else i + 1
                if not finite[i]:
                    break
                if best[i] != best[j]:
                    found.append((float((grid[i] + grid[j]) / 2), plays[best[i]]))
        changes[decision.label] = found
    return IndexTable(
        system=system,
        rules=rules,
        shoe=shoe,
        remaining=left,
        span=float(span),
        illustrious_18=tuple(named(d, False) for d in ILLUSTRIOUS_18),
        fab_4=tuple(named(d, True) for d in FAB_4),
        basic=basic,
        changes=changes,
    )


def _remaining_cards(total: int, remaining: float | None) -> int:
    if remaining is None:
        return total // 2
    if isinstance(remaining, bool) or not isinstance(remaining, int | float):
        raise CroupierError(f"decks remaining is a number, not {remaining!r}")
    cards = round(remaining * 52)
    if not 26 <= cards <= total - 13:
        raise CroupierError(
            f"decks remaining is from 0.5 to {(total - 13) / 52:g} (a quarter deck dealt) "
            f"for a shoe of {total // 52} deck(s), not {remaining:g}"
        )
    return cards


def _targets(
    system: CountingSystem, shoe: tuple[int, ...], left: int, span: float
) -> list[tuple[float, ...]]:
    """The conditioned shoes: a whole true count apart, past ``span`` by two each way (the
    cards on the table move a decision's count), the unreachable ones left out."""
    out = []
    reach = math.ceil(span) + 2
    for tc in range(-reach, reach + 1):
        try:
            out.append(conditioned_shoe(system, shoe, left, tc))
        except CroupierError:
            continue
    if len(out) < 2:
        raise CroupierError("too few true counts can be reached: leave more cards in the shoe")
    return out


def shoe_count(
    system: CountingSystem,
    rules: BlackjackRules = NZ,
    *,
    decks: int | None = None,
    remaining: float | None = None,
    span: float = 10,
    linear: bool = True,
) -> int:
    """How many shoes :func:`index_table` analyses (for a progress bar): the conditioned
    shoes and the eleven of the full shoe's effects of removal.

    >>> from croupier.blackjack.math.counting import counting_system
    >>> shoe_count(counting_system("hi-lo"))
    36
    """
    shoe = shoe_counts(rules.decks if decks is None else decks)
    targets = _targets(system, shoe, _remaining_cards(sum(shoe), remaining), span)
    return len(set(targets) | set(removal_shoes(shoe) if linear else []))
