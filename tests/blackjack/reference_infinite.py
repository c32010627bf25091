"""Exact blackjack analysis for an infinite deck: dealer outcomes, the value of every
decision, basic strategy and the house edge, for any :class:`BlackjackRules`.

Cards are values 1 (ace) to 10 (any ten-value card); an infinite deck deals each value
with probability 1/13 (4/13 for ten). Splits use the standard infinite-deck recursion
(each split hand's second card is independent; a resplit happens only on a split hand's
second card, 11.4(a); a declined resplit forfeits later ones, 11.5).

>>> round(dealer_outcomes(7)["bust"] * 100, 2), round(dealer_outcomes(10)["blackjack"] * 100, 2)
(26.23, 7.69)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from croupier.blackjack.rules import NZ, BlackjackRules, DealerBlackjackTakes, HoleCard

__all__ = [
    "OUTCOMES",
    "Analysis",
    "dealer_outcomes",
    "house_edge",
]

P: tuple[float, ...] = (0.0, *(1 / 13,) * 9, 4 / 13)
"""Infinite-deck probability of each value 1..10 (index 0 unused)."""

OUTCOMES = ("17", "18", "19", "20", "21", "blackjack", "bust")
"""The dealer's final outcomes, in order."""


def _dealer_stands(total: int, soft: bool, hits_soft_17: bool) -> bool:
    return total > 17 or (total == 17 and not (soft and hits_soft_17))


@cache
def _dealer(hard: int, aces: bool, cards: int, hits_soft_17: bool) -> tuple[float, ...]:
    """Final-outcome distribution from a dealer hand (hard sum, holds an ace, card count)."""
    soft_total = hard + 10 if aces and hard + 10 <= 21 else hard
    soft = soft_total != hard
    if cards == 2 and soft_total == 21:
        return (0, 0, 0, 0, 0, 1.0, 0)
    if soft_total > 21:
        return (0, 0, 0, 0, 0, 0, 1.0)
    if cards >= 2 and _dealer_stands(soft_total, soft, hits_soft_17):
        out = [0.0] * 7
        out[soft_total - 17] = 1.0
        return tuple(out)
    out = [0.0] * 7
    for value in range(1, 11):
        sub = _dealer(hard + value, aces or value == 1, cards + 1, hits_soft_17)
        for i in range(7):
            out[i] += P[value] * sub[i]
    return tuple(out)


def dealer_outcomes(
    upcard: int, *, hits_soft_17: bool = False, peek: bool = False
) -> dict[str, float]:
    """The dealer's final-outcome probabilities with ``upcard`` showing (1 = ace, 10 = ten).

    Without ``peek`` (no hole card) the distribution is unconditional: blackjack is one
    outcome. With ``peek`` it is conditioned on the dealer not having blackjack.

    >>> round(dealer_outcomes(1)["blackjack"] * 100, 2), round(dealer_outcomes(1)["bust"] * 100, 2)
    (30.77, 11.53)
    """
    dist = _dealer(upcard, upcard == 1, 1, hits_soft_17)
    if peek and dist[5]:
        scale = 1 - dist[5]
        dist = (*(p / scale for p in dist[:5]), 0.0, dist[6] / scale)
    return dict(zip(OUTCOMES, dist, strict=True))


@dataclass(frozen=True)
class Analysis:
    """The value of each decision for one rule set (infinite deck), per unit wagered.

    >>> Analysis(NZ).best(1, 1, 6)[0]
    'split'
    """

    rules: BlackjackRules
    """The rule set analysed."""

    # --- dealer ---------------------------------------------------------
    def _dealer(self, up: int) -> tuple[float, tuple[float, ...]]:
        """(P(dealer blackjack), outcome distribution given no dealer blackjack)."""
        d = dealer_outcomes(up, hits_soft_17=self.rules.dealer_hits_soft_17)
        p_bj = d["blackjack"]
        cond = dealer_outcomes(up, hits_soft_17=self.rules.dealer_hits_soft_17, peek=True)
        return p_bj, tuple(cond[o] for o in OUTCOMES)

    # --- player values, given the dealer has no blackjack ---------------
    def stand(self, total: int, up: int) -> float:
        """EV of standing on ``total`` (given no dealer blackjack).

        >>> round(Analysis(NZ).stand(20, 10), 4)
        0.5545
        """
        if total > 21:
            return -1.0
        _, d = self._dealer(up)
        win = d[6]
        lose = 0.0
        for i in range(5):
            dealer_total = 17 + i
            if dealer_total < total:
                win += d[i]
            elif dealer_total > total:
                lose += d[i]
        return win - lose

    @cache  # noqa: B019 - the analysis object is immutable and small
    def hand(self, hard: int, aces: bool, cards: int, up: int, can_double: bool) -> float:
        """Best EV of a hand (hard sum, holds an ace) that may hit, stand or double."""
        total = hard + 10 if aces and hard + 10 <= 21 else hard
        if total > 21:
            return -1.0
        if total == 21:
            return self.stand(21, up)  # 12.1(a): no draw on 21
        best = self.stand(total, up) if total >= 12 else -9.0  # 12.1(d): draw on 11 or less
        hit = sum(P[v] * self.hand(hard + v, aces or v == 1, cards + 1, up, False)
                  for v in range(1, 11))  # fmt: skip
        best = max(best, hit)
        if can_double and cards == 2 and self.rules.double_on.allows(total, soft=total != hard):
            best = max(best, self.double(hard, aces, up))
        return best

    def double(self, hard: int, aces: bool, up: int) -> float:
        """EV of doubling (given no dealer blackjack): one card, stakes doubled."""
        ev = 0.0
        for v in range(1, 11):
            h = hard + v
            total = h + 10 if (aces or v == 1) and h + 10 <= 21 else h
            ev += P[v] * 2 * self.stand(total, up)
        return ev

    def split(self, card: int, up: int) -> float:
        """EV of splitting a pair of ``card`` values (given no dealer blackjack), per
        original unit: both hands' stakes counted."""
        rules = self.rules
        aces = card == 1
        q = P[card]

        def second(v: int) -> float:  # a split hand's EV after its second card v
            hard = card + v
            has_ace = aces or v == 1
            if aces and not rules.hit_split_aces:
                total = hard + 10 if has_ace and hard + 10 <= 21 else hard
                return self.stand(total, up)  # one card to a split ace (11.4(b))
            return self.hand(hard, has_ace, 2, up, rules.double_after_split)

        e_nc = sum(P[v] * second(v) for v in range(1, 11) if v != card) / (1 - q)
        e_c = second(card)  # the pair played as a hand
        e_nr = (1 - q) * e_nc + q * e_c
        budget = rules.max_hands - 2 if (not aces or rules.resplit_aces) else 0

        @cache
        def f(k: int, b: int) -> float:
            if k == 0:
                return 0.0
            if b == 0:
                return k * e_nr
            keep = e_c + f(k - 1, 0)  # 11.5: declining a resplit forfeits later ones
            return (1 - q) * (e_nc + f(k - 1, b)) + q * max(f(k + 1, b - 1), keep)

        return f(2, budget)

    # --- the whole first decision, dealer blackjack included ------------
    def _with_dealer_blackjack(self, up: int, value: float, stake: float, action: str) -> float:
        """Unconditional EV: under no hole card a dealer blackjack takes the stakes the
        rules let it take (11.7); a peek game never lets the player act into one."""
        p_bj, _ = self._dealer(up)
        rules = self.rules
        lost = 1.0
        if rules.hole_card is HoleCard.NO_HOLE_CARD:
            if (
                action == "double"
                and rules.dealer_blackjack_takes_doubles is DealerBlackjackTakes.ALL
            ):
                lost = stake
            if (
                action == "split"
                and rules.dealer_blackjack_takes_splits is DealerBlackjackTakes.ALL
            ):
                lost = stake
        return p_bj * -lost + (1 - p_bj) * value

    def options(self, c1: int, c2: int, up: int) -> dict[str, float]:
        """Unconditional EV of each legal first decision for two cards against ``up``.

        >>> opts = Analysis(NZ).options(10, 6, 10)
        >>> max(opts, key=opts.get)
        'hit'
        """
        hard = c1 + c2
        aces = 1 in (c1, c2)
        total = hard + 10 if aces and hard + 10 <= 21 else hard
        out: dict[str, float] = {}
        if total >= 12:
            out["stand"] = self._with_dealer_blackjack(up, self.stand(total, up), 1, "stand")
        if total < 21:
            hit = sum(
                P[v] * self.hand(hard + v, aces or v == 1, 3, up, False) for v in range(1, 11)
            )
            out["hit"] = self._with_dealer_blackjack(up, hit, 1, "hit")
            if self.rules.double_on.allows(total, soft=total != hard):
                out["double"] = self._with_dealer_blackjack(
                    up, self.double(hard, aces, up), 2, "double"
                )
        if c1 == c2:
            out["split"] = self._with_dealer_blackjack(up, self.split(c1, up), 2, "split")
        if self.rules.surrender.value == "late":
            out["surrender"] = self._with_dealer_blackjack(up, -0.5, 1, "surrender")
        return out

    def best(self, c1: int, c2: int, up: int) -> tuple[str, float]:
        """The best first decision and its EV."""
        opts = self.options(c1, c2, up)
        action = max(opts, key=lambda a: opts[a])
        return action, opts[action]

    def house_edge(self) -> float:
        """The player's expectation per unit wagered (negative: the house's edge).

        >>> griffin = NZ.with_(hole_card=HoleCard.PEEK, double_after_split=False, max_hands=2)
        >>> abs(Analysis(griffin).house_edge() * 100 - -0.690223) < 0.0001   # Griffin's figure
        True
        """
        pays = float(self.rules.blackjack_pays)
        total = 0.0
        for up in range(1, 11):
            p_bj, _ = self._dealer(up)
            for c1 in range(1, 11):
                for c2 in range(1, 11):
                    weight = P[up] * P[c1] * P[c2]
                    if {c1, c2} == {1, 10}:  # a natural: paid unless the dealer has one
                        total += weight * (1 - p_bj) * pays
                        continue
                    total += weight * self.best(c1, c2, up)[1]
        return total


def house_edge(rules: BlackjackRules = NZ) -> float:
    """The player's expectation per initial unit under ``rules`` (infinite deck).

    >>> round(house_edge() * 100, 3) < 0
    True
    """
    return Analysis(rules).house_edge()
