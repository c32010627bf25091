"""Issue 29, point 4: a card counter at the table (``croupier.blackjack.math.counter``): the
kernel's count against :class:`~croupier.blackjack.math.counting.Count`, the win rates of a
neutral and a spreading counter, the figures' definitions, the risk-of-ruin formulas, the
index charts, back-counting."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from croupier.blackjack.math import _sim_kernel as k
from croupier.blackjack.math._shoes import basic_chart, chart_expectation
from croupier.blackjack.math.analysis import shoe_counts
from croupier.blackjack.math.counter import (
    BetRamp,
    Counter,
    _tags,
    counter_play,
    desirability_index,
    n0,
    risk_of_ruin,
    score,
    simulate_counter,
    trip_risk_of_ruin,
)
from croupier.blackjack.math.counting import Count, counting_system
from croupier.blackjack.math.simulate import simulate
from croupier.blackjack.rules import NZ, HoleCard
from croupier.cards.card import Card
from croupier.errors import CroupierError

FLAT = Counter(ramp=BetRamp(1, 1), indices="none")
"""A neutral counter: flat bets, basic strategy, no insurance."""


def _card(card_id: int) -> Card:
    rank = "23456789TJQKA"[card_id % 13]
    suit = "dhcs"[(card_id % 52) // 13]  # ids of suits 0 and 1 are red in the kernel
    return Card.parse(rank + suit)


@pytest.mark.parametrize("name", ["hi-lo", "ko", "red-7", "halves", "hi-opt-1"])
def test_the_kernels_true_count_is_the_counting_modules(name: str) -> None:
    """The kernel's prefix sums and true count (burn card unseen, Red 7 by colour, KO's
    imbalance taken out) against Count fed the same cards."""
    system = counting_system(name)
    rng = np.random.default_rng(7)
    ids = rng.permutation(52 * 6).astype(np.int64)
    shoe = np.empty_like(ids)
    cum = np.zeros(len(ids) + 1)
    bcum = np.zeros(len(ids) + 1)
    ptags, btags = _tags(system, False), _tags(system, True)
    k._count_shoe(ids, shoe, cum, bcum, ptags, btags, 1)
    ctx = np.zeros(k.N_CTX)
    ctx[k.C_CARDS] = len(ids)
    ctx[k.C_MEAN] = ptags.sum() / 52
    ctx[k.C_ORIGIN] = 1
    assert list(shoe[:5]) == [i % 13 for i in ids[:5]]
    count = Count(system, decks=6)
    seen = 1
    for p in (1, 2, 10, 57, 150, 233, 300):
        count.see([_card(int(i)) for i in ids[seen:p]])
        seen = p
        assert k.true_count(cum, p, -1, ctx) == pytest.approx(count.true, abs=1e-9)
    # a peek game's hole card is not seen: the count is the one without it
    hidden = k.true_count(cum, 11, 5, ctx)
    without = Count(system, decks=6)
    without.see([_card(int(i)) for i in (*ids[1:5], *ids[6:11])])
    assert hidden == pytest.approx(without.true, abs=1e-9)


def test_a_neutral_counter_wins_the_basic_strategy_edge() -> None:
    """Flat bets and basic strategy: the counter's win rate is the plain simulator's, and
    near the exact basic-strategy expectation (the cut card costs a little)."""
    rounds = 400_000
    counter = simulate_counter(NZ, FLAT, rounds, seed=11)
    plain = simulate(NZ, rounds, seed=12)
    assert counter.played == counter.rounds == rounds
    assert counter.average_bet == 1
    gap = counter.mean - plain.ev
    assert abs(gap) < 4 * math.hypot(counter.se, plain.se), (counter.mean, plain.ev)
    exact = chart_expectation(NZ, shoe_counts(6), basic_chart(NZ, shoe_counts(6)))
    assert abs(counter.mean - exact) < 4 * counter.se + 0.0015
    assert 1.1 < counter.sd < 1.2  # a round's SD in units, flat


def test_a_bigger_spread_wins_more() -> None:
    """The same shoes (one seed) bet 1-2, 1-8 and 1-16: the wider the spread, the more
    the counter wins; a flat bettor loses."""
    rounds = 2_000_000
    rates = {}
    for top in (1, 2, 8, 16):
        counter = Counter(ramp=BetRamp.linear(1, top), indices="published")
        rates[top] = simulate_counter(NZ, counter, rounds, seed=5).mean
    assert rates[1] < 0
    assert rates[1] < rates[2] < rates[8] < rates[16]
    assert rates[16] > 0.01  # above one unit per 100 rounds


def test_the_figures_follow_their_definitions() -> None:
    r = simulate_counter(NZ, Counter(indices="published"), 300_000, seed=2, rounds_per_hour=80)
    n, s1, s2, u = r.played, r.net_chips, r.net2_chips, r.unit_chips
    mean = s1 / n / u
    sd = math.sqrt(s2 / n - (s1 / n) ** 2) / u
    assert r.mean == pytest.approx(mean, rel=1e-12)
    assert r.sd == pytest.approx(sd, rel=1e-9)
    assert r.se == pytest.approx(sd / math.sqrt(n))
    assert r.win_rate_100 == pytest.approx(100 * mean)
    assert r.sd_100 == pytest.approx(10 * sd)
    assert r.win_per_hour == pytest.approx(80 * mean)
    assert r.sd_per_hour == pytest.approx(math.sqrt(80) * sd)
    assert r.mean > 0  # a 1-12 Hi-Lo counter wins, so the figures below are defined
    assert r.desirability_index == pytest.approx(1000 * mean / sd)
    assert r.score == pytest.approx(1e6 * mean**2 / sd**2)
    assert r.score == pytest.approx(r.desirability_index**2)
    assert r.n0 == pytest.approx((sd / mean) ** 2)
    assert r.n0 == pytest.approx(1e6 / r.score)
    # SCORE is the win per 100 rounds of a 10,000 bankroll at full Kelly on this ramp: the
    # ramp scaled so that a unit is bankroll x mean / variance of a one-unit ramp
    kelly_unit = 10_000 * mean / sd**2
    assert r.score == pytest.approx(100 * kelly_unit * mean)
    assert r.edge == pytest.approx(s1 / r.wagered_chips)


def test_a_ramps_value_is_what_the_same_shoes_give() -> None:
    """The play does not depend on the bet, and every payout is linear in it: another
    ramp's figures from the run's true-count table are those of a run with that ramp on
    the same shoes (one seed), back-counting included."""
    base = Counter(indices="published", wong_in=1, wong_out=-1)
    first = simulate_counter(NZ, base, 100_000, seed=9)
    assert first.ramp_value(base.ramp) == pytest.approx((first.mean, first.sd), rel=1e-9)
    other = BetRamp.parse("0:2,2:5,4:10,6:20", 1, 20)
    second = simulate_counter(
        NZ, Counter(ramp=other, indices="published", wong_in=1, wong_out=-1), 100_000, seed=9
    )
    assert second.played == first.played
    assert first.ramp_value(other) == pytest.approx((second.mean, second.sd), rel=1e-9)


def test_risk_of_ruin_matches_the_closed_forms() -> None:
    # a full-Kelly bankroll (variance / mean units) is ruined with chance exp(-2)
    assert risk_of_ruin(0.02, 3.0, 9.0 / 0.02) == pytest.approx(math.exp(-2))
    assert risk_of_ruin(0.01, 1.0, 100) == pytest.approx(math.exp(-2))
    assert risk_of_ruin(0.0, 1.0, 100) == 1.0
    assert risk_of_ruin(0.05, 2.0, 0) == 1.0
    # no drift: the reflection principle, 2 P(Z < -B / (s sqrt n))
    assert trip_risk_of_ruin(0.0, 1.0, 19.6, 100) == pytest.approx(0.05, abs=1e-4)
    assert trip_risk_of_ruin(0.0, 2.0, 20, 100) == pytest.approx(math.erfc(1 / math.sqrt(2)))
    # a long trip is the bankroll for ever; a short one risks less; more bankroll, less risk
    assert trip_risk_of_ruin(0.02, 3.0, 300, 10**9) == pytest.approx(risk_of_ruin(0.02, 3.0, 300))
    assert trip_risk_of_ruin(0.02, 3.0, 300, 1000) < trip_risk_of_ruin(0.02, 3.0, 300, 100_000)
    assert trip_risk_of_ruin(0.02, 3.0, 400, 5000) < trip_risk_of_ruin(0.02, 3.0, 200, 5000)
    # a known value: drift 0.01, SD 1, bankroll 10, 400 rounds
    m, s, b, n = 0.01, 1.0, 10.0, 400

    def phi(x: float) -> float:
        return 0.5 * math.erfc(-x / math.sqrt(2))

    known = phi((-b - m * n) / (s * 20)) + math.exp(-2 * m * b) * phi((-b + m * n) / (s * 20))
    assert trip_risk_of_ruin(m, s, b, n) == pytest.approx(known)
    assert known == pytest.approx(0.5548, abs=1e-4)  # 0.2420 + 0.8187 x 0.3821
    assert score(0.0, 1.0) == 0.0
    assert n0(0.0, 1.0) == math.inf
    assert desirability_index(0.02, 2.0) == pytest.approx(10.0)


def test_the_simulated_trip_risk_is_near_the_formula() -> None:
    r = simulate_counter(
        NZ, Counter(indices="published"), 600_000, seed=4, trip_bankroll=150, trip_hours=4
    )
    simulated = r.simulated_trip_risk_of_ruin
    assert simulated is not None
    assert r.trips == 600_000 // 400
    p, se = simulated
    # the diffusion formula ignores the jumps of a round's result: close, not exact
    assert abs(p - r.trip_risk_of_ruin) < 4 * se + 0.02


def test_index_charts_by_true_count() -> None:
    play = counter_play(Counter(indices="published"))
    hard, pair = 0, 2

    def at(tc: int) -> np.typing.NDArray[np.int8]:
        return np.asarray(play.charts[tc + 20], np.int8)

    assert play.insurance == 3
    assert at(0)[hard, 16, 10] == 1
    assert at(-1)[hard, 16, 10] == 0
    assert at(4)[hard, 15, 10] == 1
    assert at(3)[hard, 15, 10] == 0
    assert at(5)[pair, 10, 5] == 4
    assert at(4)[pair, 10, 5] == 1
    assert at(-2)[hard, 13, 3] == 1
    assert at(-3)[hard, 13, 3] == 0
    assert at(1)[hard, 11, 1] == 2
    assert at(0)[hard, 11, 1] == 0
    none = counter_play(FLAT)
    assert none.insurance is None
    assert (none.charts == none.charts[20]).all()
    # the exact NZ indices: 16 v T stands from +1 (the exact index is +1.0)
    exact = counter_play(Counter())
    assert exact.charts[21][hard, 16, 10] == 1
    assert exact.charts[20][hard, 16, 10] == 0
    assert exact.insurance == 3
    assert any(line.startswith("16 v T: stand at +1") for line in exact.deviations)


def test_back_counting_and_mid_shoe_entry() -> None:
    rounds = 300_000
    every = simulate_counter(NZ, Counter(indices="published"), rounds, seed=8)
    wong = simulate_counter(
        NZ, Counter(indices="published", wong_in=1, wong_out=-1), rounds, seed=8
    )
    barred = simulate_counter(
        NZ,
        Counter(indices="published", wong_in=1, wong_out=-1, mid_shoe_entry=False),
        rounds,
        seed=8,
    )
    assert every.share_played == 1
    assert 0.2 < wong.share_played < barred.share_played < 0.8
    # nobody bets below the leaving count (floored: rows -2 and lower)
    assert all(row.played == 0 for row in wong.table if row.true_count <= -2)
    assert all(row.played == 0 for row in barred.table if row.true_count <= -2)
    # the back-counter bets no negative counts and so wins more a round; barring mid-shoe
    # entry takes part of that back
    assert wong.mean > barred.mean > every.mean
    # the same shoes: the rounds dealt at each count are the same in every run
    assert [r.rounds for r in wong.table] == [r.rounds for r in every.table]


def test_a_peek_game_and_a_shallow_shoe_run() -> None:
    rules = NZ.with_(hole_card=HoleCard.PEEK, decks=2)
    r = simulate_counter(
        rules.with_(penetration=Fraction(1, 2)), Counter(indices="published"), 20_000, seed=1
    )
    assert r.rounds == 20_000
    assert r.shoes > 20_000 // 25


def test_bad_counters_are_refused() -> None:
    with pytest.raises(CroupierError, match="MIN at most MAX"):
        BetRamp(12, 1)
    with pytest.raises(CroupierError, match="outside the spread"):
        BetRamp.parse("2:20", 1, 12)
    with pytest.raises(CroupierError, match="rise"):
        BetRamp.parse("3:2,2:4", 1, 12)
    with pytest.raises(CroupierError, match="published indices are Hi-Lo's"):
        Counter(system=counting_system("zen"), indices="published")
    with pytest.raises(CroupierError, match="leave at once"):
        Counter(wong_in=-1, wong_out=1)
    with pytest.raises(CroupierError, match="rounds must be at least 1"):
        simulate_counter(NZ, FLAT, 0)
    deep = NZ.with_(penetration=Fraction(99, 100))
    with pytest.raises(CroupierError, match="half a deck"):
        simulate_counter(deep, FLAT, 10)


def test_seeded_runs_repeat_with_any_workers() -> None:
    a = simulate_counter(NZ, Counter(indices="published"), 260_000, seed=3)
    b = simulate_counter(NZ, Counter(indices="published"), 260_000, seed=3, workers=2)
    assert (a.net_chips, a.net2_chips, a.played) == (b.net_chips, b.net2_chips, b.played)
    assert a.table == b.table
