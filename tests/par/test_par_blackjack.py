"""The blackjack PAR sheet: exact figures against independent counts, the simulated
distribution against its invariants and the exact house edge, the kernels against the
simulator's own round and the exact analysis's decisions."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest

from croupier.blackjack.math import _sim_kernel as k
from croupier.blackjack.math._exact_graphs import player_graph
from croupier.blackjack.math.analysis import ACTIONS, Analysis, insurance_ev, shoe_counts
from croupier.blackjack.math.simulate import kernel_params, wager_for
from croupier.blackjack.rules import NZ, BlackjackRules, Surrender
from croupier.errors import CroupierError
from croupier.par import _bj_kernel as pk
from croupier.par import blackjack as par_blackjack
from croupier.par.blackjack import (
    BlackjackPar,
    blackjack_par,
    cd_tables,
    exact_frequencies,
)

ONE_DECK = NZ.with_(decks=1)


@pytest.fixture(scope="module")
def one_deck() -> BlackjackPar:
    """Both strategies, 400,000 rounds each, one deck (where composition matters most)."""
    return blackjack_par(ONE_DECK, rounds=400_000, seed=11)


# ------------------------------------------------------------------------ exact figures
def test_exact_frequencies_match_a_count_of_every_deal() -> None:
    """Every ordered deal of the first four cards of a small shoe, counted: the box's
    cards are the first and third, the dealer's up card the second; with a blackjack the
    box draws nothing, so the dealer's next card is the fourth."""
    counts = (3, 1, 1, 1, 1, 1, 1, 1, 1, 5)  # 16 cards: 3 aces, 5 tens
    cards = [v for v, c in enumerate(counts, start=1) for _ in range(c)]
    deals = list(itertools.permutations(range(len(cards)), 4))
    bj = {frozenset({1, 10})}

    def natural(a: int, b: int) -> bool:
        return frozenset({cards[a], cards[b]}) in bj and cards[a] != cards[b]

    player = sum(natural(d[0], d[2]) for d in deals)
    dealer = sum(natural(d[1], d[3]) for d in deals)
    both = sum(natural(d[0], d[2]) and natural(d[1], d[3]) for d in deals)
    ace_up = sum(cards[d[1]] == 1 for d in deals)
    ace_then_ten = sum(cards[d[1]] == 1 and cards[d[3]] == 10 for d in deals)
    f = exact_frequencies(counts)
    assert f["player_blackjack"] == Fraction(player, len(deals))
    assert f["dealer_blackjack"] == Fraction(dealer, len(deals))
    assert f["both_blackjack"] == Fraction(both, len(deals))
    assert f["insurance_offered"] == Fraction(ace_up, len(deals))
    assert f["insurance_wins"] == Fraction(ace_then_ten, ace_up)


def test_insurance_figures_match_the_analysis() -> None:
    for decks in (1, 2, 6, 8):
        f = exact_frequencies(shoe_counts(decks))
        assert f["insurance_ev"] == insurance_ev(decks=decks)
        assert f["insurance_offered"] == Fraction(1, 13)
    assert "insurance_ev" not in exact_frequencies(shoe_counts(6), insurance=False)


def test_insurance_wins_whatever_the_box_drew_first() -> None:
    """No hole card: the dealer's second card comes after the box has drawn, yet it is a
    ten as often as any unseen card (optional stopping). The simulator, insuring every ace,
    draws that card every time; one deck, where the box's draws matter most."""
    rules = ONE_DECK
    params = kernel_params(rules, insure=True)
    chart = Analysis(rules).basic_strategy()
    g = player_graph()
    stats = np.zeros(k.N_STATS, np.int64)
    wager = wager_for(rules)
    pk.run_par(
        3, 1_000_000, params, chart.cells, wager, 0, np.zeros((11, 11, 11, 5)),
        np.zeros((11, len(g.hard)), np.bool_), g.one, g.next, True, stats,
        np.zeros(1001, np.int64), np.zeros(1001, np.int64), np.zeros(9, np.int64),
        np.zeros(2, np.int64),
    )  # fmt: skip
    taken, won = int(stats[k.S_INS_TAKEN]), int(stats[k.S_INS_WON])
    p = float(exact_frequencies(shoe_counts(1))["insurance_wins"])  # 16/51
    assert abs(taken / 1_000_000 - 1 / 13) < 4 * math.sqrt(1 / 13 * 12 / 13 / 1_000_000)
    assert abs(won / taken - p) < 4 * math.sqrt(p * (1 - p) / taken)


# ------------------------------------------------------------------------ the distribution
@pytest.mark.parametrize("name", ["basic", "optimal"])
def test_distribution_is_a_distribution_with_the_exact_mean(
    one_deck: BlackjackPar, name: str
) -> None:
    r = one_deck.results[name]
    assert sum(r.nets.values()) == r.rounds == 400_000
    shares = [float(e.value) for _, e in r.distribution]
    assert math.isclose(sum(shares), 1.0, abs_tol=1e-12)
    for _, e in r.distribution:
        assert e.low is not None
        assert e.high is not None
        assert 0 <= e.low <= e.value <= e.high <= 1
    # the distribution's mean is the simulator's own mean ...
    mean = sum(float(units) * float(e.value) for units, e in r.distribution)
    assert math.isclose(mean, r.counts["net_chips"] / r.wager / r.rounds, abs_tol=1e-12)
    assert math.isclose(mean, r.simulated_ev.value, abs_tol=1e-12)
    # ... and, off the top, the exact expectation within its interval (4 standard errors)
    se = float(r.standard_deviation.value) / math.sqrt(r.rounds)
    assert abs(mean - r.exact_ev) < 4 * se
    # hit, push and loss frequencies partition the rounds
    total = sum(float(e.value) for e in (r.hit_frequency, r.push_frequency, r.loss_frequency))
    assert math.isclose(total, 1.0, abs_tol=1e-12)
    # the standard deviation is the distribution's, and lies in its interval
    var = sum(float(u) ** 2 * float(e.value) for u, e in r.distribution) - mean**2
    sd = r.standard_deviation
    assert math.isclose(sd.value, math.sqrt(var), rel_tol=1e-9)
    assert sd.low is not None
    assert sd.high is not None
    assert sd.low < sd.value < sd.high
    assert 1.0 < sd.value < 1.3


def test_wager_busts_and_element_of_risk_agree_with_the_counts(one_deck: BlackjackPar) -> None:
    for r in one_deck.results.values():
        extra = r.counts["doubles"] + r.counts["splits"]
        assert math.isclose(r.average_wager.value, 1 + extra / r.rounds, rel_tol=1e-12)
        assert sum(b * c for b, c in r.busts.items()) == r.counts["player_busts"]
        assert sum(r.busts.values()) == sum(r.wagered.values()) == r.rounds
        assert r.per_round("doubles").value == r.counts["doubles"] / r.rounds
        er = r.element_of_risk
        assert er.source == "exact / simulated"
        wager = float(r.average_wager.value)
        assert math.isclose(er.value, -r.exact_ev / wager, rel_tol=1e-12)
        assert er.low is not None
        assert er.high is not None
        assert er.low <= er.value <= er.high
        # doubles and splits only add to the wager (one deck: the player has the edge)
        assert abs(float(er.value)) < abs(r.exact_ev)
        # a player blackjack's share, simulated, against the exact fraction
        exact = float(one_deck.frequencies["player_blackjack"])
        bj = r.share("player_blackjack")
        assert bj.low is not None
        assert bj.high is not None
        assert bj.low < exact < bj.high


def test_exact_figures_are_marked_exact(one_deck: BlackjackPar) -> None:
    basic, optimal = one_deck.results["basic"], one_deck.results["optimal"]
    a = Analysis(ONE_DECK)
    assert basic.house_edge.value == -a.expectation(a.basic_strategy())
    assert optimal.house_edge.value == -a.expectation()
    assert optimal.house_edge.value <= basic.house_edge.value
    assert basic.house_edge.source == "exact"
    assert basic.house_edge.low is None
    assert basic.hit_frequency.source == "simulated"
    data = one_deck.to_json()
    assert data["game"]["player_blackjack"] == {
        "value": 32 / 663,
        "source": "exact",
        "exact": "32/663",  # 2·4·16 / (52·51)
    }
    assert data["strategies"]["optimal"]["house_edge"]["source"] == "exact"
    assert data["rules"]["decks"] == 1
    assert data["rules"]["blackjack_pays"] == "3/2"


def test_dealer_table_is_the_exact_analysis(one_deck: BlackjackPar) -> None:
    assert sum(one_deck.up_chances.values()) == 1
    for up, row in one_deck.dealer.items():
        assert math.isclose(sum(row.values()), 1.0, abs_tol=1e-12)
        assert row == pytest.approx(Analysis(ONE_DECK).dealer(up))


def test_a_seed_replays_the_sheet_with_any_number_of_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three tasks (of 50,000 rounds here); two processes give the same counts as one."""
    monkeypatch.setattr(par_blackjack, "TASK_ROUNDS", 50_000)
    one = blackjack_par(NZ, rounds=120_000, seed=5)
    two = blackjack_par(NZ, rounds=120_000, seed=5, workers=2)
    for name in ("basic", "optimal"):
        assert one.results[name].nets == two.results[name].nets
        assert one.results[name].counts == two.results[name].counts
    other = blackjack_par(NZ, rounds=20_000, seed=6, strategies=("basic",))
    assert (
        other.results["basic"].nets
        != blackjack_par(NZ, rounds=20_000, seed=5, strategies=("basic",)).results["basic"].nets
    )


def test_dealt_through_the_shoe_reshuffles_at_the_cut_card() -> None:
    par = blackjack_par(NZ, rounds=50_000, seed=2, strategies=("basic",), dealt="shoe")
    r = par.results["basic"]
    rounds_a_shoe = r.rounds / r.counts["shuffles"]
    assert 35 < rounds_a_shoe < 50  # 234 cards before the cut card, about 5.4 a round
    top = blackjack_par(NZ, rounds=50_000, seed=2, strategies=("basic",))
    assert top.results["basic"].counts["shuffles"] == 0
    assert "cut card" in " ".join(par.sheet().notes)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(CroupierError, match="strategies are basic and optimal"):
        blackjack_par(NZ, rounds=10, strategies=("perfect",))
    with pytest.raises(CroupierError, match="rounds must be at least 1"):
        blackjack_par(NZ, rounds=0)
    with pytest.raises(CroupierError, match="dealt is 'top' or 'shoe'"):
        blackjack_par(NZ, rounds=10, dealt="deck")
    with pytest.raises(CroupierError, match="seed must be a whole number from 0"):
        blackjack_par(NZ, rounds=10, seed=-1)
    with pytest.raises(CroupierError, match="half a deck"):
        blackjack_par(NZ.with_(penetration=Fraction(99, 100)), rounds=10, dealt="shoe")
    with pytest.raises(CroupierError, match="real shoe"):
        cd_tables(Analysis(NZ, decks="inf"))


# ------------------------------------------------------------------------ the kernels
RULE_SETS = {
    "nz": NZ,
    "one deck": ONE_DECK,
    "us peek h17 surrender": NZ.with_(
        hole_card="peek",
        dealer_hits_soft_17=True,
        surrender=Surrender.LATE,
        max_hands=4,
        resplit_aces=True,
        decks=2,
    ),
    "european no das 6:5": NZ.with_(
        dealer_blackjack_takes_splits="all",
        dealer_blackjack_takes_doubles="all",
        double_after_split=False,
        blackjack_pays="6:5",
        double_on="10-11",
    ),
    "hit split aces, pairs by rank": NZ.with_(hit_split_aces=True, pairs_by="rank", decks=4),
}


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_the_cd_round_plays_a_chart_exactly_as_the_simulator(name: str) -> None:
    """play_round_cd with mode 0 against the simulator's play_round, round by round, on
    the same shoes: the same net, cards used and counts; the player always splits pairs
    of a chart that splits everything, so resplits and split aces are exercised."""
    rules: BlackjackRules = RULE_SETS[name]
    chart = Analysis(rules).basic_strategy()
    cells = chart.cells.copy()
    cells[2, 1:11, :] = 4  # split every pair: more splits, resplits and DAS
    params = kernel_params(rules)
    wager = wager_for(rules)
    g = player_graph()
    opts = np.full((11, 11, 11, 5), -np.inf)
    hit = np.zeros((11, len(g.hard)), np.bool_)
    rng = random.Random(name)
    shoe = np.array([c % 13 for c in range(52 * rules.decks)], np.int64)
    a_stats, b_stats = np.zeros(k.N_STATS, np.int64), np.zeros(k.N_STATS, np.int64)
    a_scratch, b_scratch = k.new_scratch(), k.new_scratch()
    b_cards, b_ncards, b_flags, b_stake, b_dealer = b_scratch
    for chart_cells in (chart.cells, cells):
        for _ in range(300):
            order = list(shoe)
            rng.shuffle(order)
            deck = np.array(order, np.int64)
            pos_a = pos_b = 0
            while pos_a < params[k.P_CUT]:
                net_a, pos_a = k.play_round(deck, pos_a, params, chart_cells, wager, a_stats,
                                            *a_scratch)  # fmt: skip
                net_b, pos_b = pk.play_round_cd(
                    deck, pos_b, params, chart_cells, wager, b_stats, b_cards, b_ncards, b_flags,
                    b_stake, b_dealer, 0, opts, hit, g.one, g.next,
                )  # fmt: skip
                assert (net_a, pos_a) == (net_b, pos_b)
    assert a_stats.tolist() == b_stats.tolist()
    assert a_stats[k.S_SPLITS] > 400


def test_the_cd_tables_are_the_exact_analysis() -> None:
    a = Analysis(ONE_DECK)
    opts, hit = cd_tables(a)
    g = player_graph()
    rng = random.Random(7)
    for _ in range(150):
        up = rng.randint(1, 10)
        cards = [rng.randint(1, 10) for _ in range(rng.randint(2, 5))]
        if sum(cards) > 21 or cards.count(1) + (up == 1) > 4:
            continue
        if sum(c == 10 for c in cards) + (up == 10) > 16:
            continue
        if any(cards.count(v) + (up == v) > 4 for v in range(1, 10)):
            continue
        values = a.hand(cards, up)
        node = g.one[cards[0]]
        for c in cards[1:]:
            node = g.next[node, c]
        if "stand" in values and "hit" in values:
            assert bool(hit[up, node]) == (values["hit"] > values["stand"]), (cards, up)
        if len(cards) == 2:
            options = a.options(cards[0], cards[1], up)
            for i, action in enumerate(ACTIONS):
                if action in options:
                    assert opts[up, cards[0], cards[1], i] == options[action]
                else:
                    assert opts[up, cards[0], cards[1], i] == -np.inf


def test_the_cd_decision_takes_the_best_legal_option() -> None:
    a = Analysis(NZ)
    opts, hit = cd_tables(a)
    g = player_graph()

    def ranks(*values: int) -> np.ndarray:
        # rank codes: 0 = two ... 7 = nine, 8 = ten, 12 = ace
        return np.array([12 if v == 1 else v - 2 for v in values] + [0] * 20, np.int64)

    def decide(up: int, values: tuple[int, ...], fresh: bool, **ok: bool) -> int:
        total = sum(values) + (10 if 1 in values and sum(values) <= 11 else 0)
        return int(
            pk.cd_decide(
                opts,
                hit,
                up,
                ranks(*values),
                len(values),
                fresh,
                total,
                g.one,
                g.next,
                ok.get("split", False),
                ok.get("double", False),
                ok.get("surrender", False),
            )
        )

    # the analysis's best first decisions
    for c1, c2, up in ((10, 6, 10), (8, 8, 10), (5, 6, 10), (1, 7, 9), (9, 9, 7)):
        best, _ = a.best(c1, c2, up)
        legal = {"split": c1 == c2, "double": True}
        want = {"stand": 1, "hit": 0, "double": 2, "split": 3}[best]
        assert decide(up, (c1, c2), True, **legal) == want, (c1, c2, up, best)
    # 8,8 v A: split is not the best in the NZ game (11.7); hit is
    assert decide(1, (8, 8), True, split=True, double=True) == 0
    # 11 v 6 cannot double (a split hand without DAS): it hits
    assert decide(6, (5, 6), True, split=False, double=False) == 0
    # 16 v T: hit with two cards, stand with 10-2-4 (composition-dependent)
    assert decide(10, (10, 6), False) == 0
    assert decide(10, (10, 2, 4), False) == 1
    # never stand on 11 or less, whatever the table
    assert decide(10, (2, 3, 4), False) == 0
