"""Sampled range equity: both samplers (the table of every deal, and one combo a player with
rejection) agree with the exact answer, replay from a seed, and do not depend on how the run
is cut into kernel calls."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.equity import HandRange, RangeEquityResult, range_equity, range_kernels
from croupier.errors import CroupierError

# the package re-exports the function under the module's name: reach the module itself
RE = sys.modules["croupier.equity.range_equity"]
SIGMAS = 4.0

CASES = [
    # a hand against a range, preflop: the benchmark's figure (exact equity 0.405547)
    (["As Ks", "QQ+, AKo"], ""),
    # weights and card removal on a flop
    (["AA:0.5, KK, AKs:0.3", "QQ+, AQs, 76s"], "Qs 7c 2d"),
    # three players preflop, one of them a single combo
    (["AsKs", "QQ+, AKo", "JTs"], ""),
    # three players on a turn, with split pots
    (["AKs", "QQ, JJ", "T9s, 76s:0.3"], "2c 7d 9h Jc"),
    # a monotone flop: flushes for everyone
    (["22+, A2s+", "KK+", "AdKd"], "Kh 7h 2h"),
    # hand against hand: one deal
    (["5h4h", "6h6d"], "7h 8h 2c"),
]


@pytest.fixture(params=["deal table", "per player"])
def sampler(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run each test through one sampler: the per-player one by making every deal list too long
    for a table; and check that the run really went through the kernel it names."""
    used: list[str] = []
    if request.param == "per player":
        monkeypatch.setattr(RE, "_DEAL_TABLE", 0)
    for name in ("sample_deals", "sample_ranges"):
        kernel = getattr(range_kernels, name)

        def spy(*args: Any, _kernel: Callable[..., int] = kernel, _name: str = name) -> int:
            used.append(_name)
            return _kernel(*args)

        monkeypatch.setattr(range_kernels, name, spy)
    yield request.param
    want = "sample_deals" if request.param == "deal table" else "sample_ranges"
    assert set(used) <= {want}, used


def assert_agrees(sampled: RangeEquityResult, exact: RangeEquityResult, sigmas: float) -> None:
    """Every player's equity within ``sigmas`` standard errors of the exact value; win and tie
    within ``sigmas`` binomial standard errors."""
    n = sampled.trials
    assert not sampled.exact
    assert exact.exact
    for s, e in zip(sampled.players, exact.players, strict=True):
        assert s.stderr is not None  # 0 when every sample gives the same share
        assert abs(float(s.equity) - float(e.equity)) <= sigmas * s.stderr + 1e-12
        for got, want in ((s.win, e.win), (s.tie, e.tie)):
            p = float(want)
            bound = sigmas * math.sqrt(max(p * (1 - p), 1e-12) / n)
            assert abs(float(got) - p) <= max(bound, 1e-9)
    assert math.isclose(sum(float(p.equity) for p in sampled.players), 1.0, rel_tol=1e-9)


@pytest.mark.parametrize(("ranges", "board"), CASES)
def test_sampled_equity_agrees_with_the_exact_answer(
    sampler: str, ranges: list[str], board: str
) -> None:
    exact = range_equity(ranges, board, exact=True)
    sampled = range_equity(ranges, board, samples=200_000, seed=2024)
    assert sampled.trials == 200_000
    assert_agrees(sampled, exact, SIGMAS)


def test_a_hand_against_a_range_at_a_million_samples(sampler: str) -> None:
    """The benchmark's case at its size: the standard error is about 0.0005."""
    exact = range_equity(["As Ks", "QQ+,AKo"], exact=True)
    assert exact.players[0].equity == pytest.approx(0.405547, abs=1e-6)
    sampled = range_equity(["As Ks", "QQ+,AKo"], samples=1_000_000, seed=20240917, exact=False)
    assert sampled.players[0].stderr is not None
    assert sampled.players[0].stderr < 0.0005
    assert_agrees(sampled, exact, SIGMAS)


def test_a_seed_replays_and_another_seed_differs(sampler: str) -> None:
    one = range_equity(["QQ+, AKs", "JJ, AQs"], samples=30_000, seed=7)
    two = range_equity(["QQ+, AKs", "JJ, AQs"], samples=30_000, seed=7)
    other = range_equity(["QQ+, AKs", "JJ, AQs"], samples=30_000, seed=8)
    assert one == two
    assert one.players[0].equity != other.players[0].equity


@pytest.mark.parametrize("chunk", [1, 7_777, 1_000_000])
def test_the_result_does_not_depend_on_the_kernel_calls(
    sampler: str, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The random bits left over at the end of one kernel call start the next."""
    samples = 20_000 if chunk > 1 else 500
    whole = range_equity(["AA, KK, AKs", "QQ+, AQs"], "Qs 7c 2d", samples=samples, seed=5)
    monkeypatch.setattr(RE, "_SAMPLE_CHUNK", chunk)
    cut = range_equity(["AA, KK, AKs", "QQ+, AQs"], "Qs 7c 2d", samples=samples, seed=5)
    assert cut == whole


def test_an_injected_seed_is_a_numpy_generator_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """``seed`` goes to ``numpy.random.default_rng``: the run draws from that generator."""
    import numpy as np

    seeds: list[object] = []
    real = np.random.default_rng

    def recording(seed: object = None) -> np.random.Generator:
        seeds.append(seed)
        return real(seed)  # type: ignore[arg-type]

    monkeypatch.setattr(np.random, "default_rng", recording)
    range_equity(["AA", "KK"], samples=1_000, seed=np.int64(12))
    assert seeds == [12]


def test_huge_weights_fall_back_to_the_per_player_sampler(monkeypatch: pytest.MonkeyPatch) -> None:
    """Weights with six decimals over three players make deal weights past 2**53: the table
    is refused and the per-player sampler (exact weights per player) answers."""
    ranges = ["AA:0.123457, KK:0.999999", "QQ:0.654321, AKs:0.000001", "JJ:0.333333, TT"]
    board = "2c 7d 9h Jc"
    used: list[str] = []
    kernel = range_kernels.sample_ranges

    def spy(*args: Any) -> int:
        used.append("ranges")
        return int(kernel(*args))

    monkeypatch.setattr(range_kernels, "sample_ranges", spy)
    exact = range_equity(ranges, board, exact=True)
    sampled = range_equity(ranges, board, samples=200_000, seed=9)
    assert used
    assert_agrees(sampled, exact, SIGMAS)


def test_a_single_combo_removes_the_combos_it_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Per player: the combos of QQ+, AKo holding As or Ks are never drawn beside As Ks."""
    monkeypatch.setattr(RE, "_DEAL_TABLE", 0)
    seats = [RE._Player.of(HandRange(r)) for r in ("As Ks", "QQ+,AKo")]
    masks, _keys, _suits, _cumulative, totals, counts, _thresholds, _limits = RE._combo_tables(
        seats, RE._tables()
    )
    assert counts.tolist() == [1, 18]
    assert totals.tolist() == [1, 18]
    hero = int(masks[0, 0])
    assert all(int(m) & hero == 0 for m in masks[1, :18])


RANGE_PARTS = ["AA", "KK", "QQ", "JJ", "AKs", "AKo", "AQs", "KQs", "T9s", "76s", "22"]
WEIGHTS = ["", ":0.5", ":0.25", ":0.3"]
BOARDS = ["Qs 7c 2d", "2c 7d 9h Jc", "Kh 7h 2h", "As 8s 3d 3c"]


@st.composite
def matchups(draw: st.DrawFn) -> tuple[list[str], str]:
    n = draw(st.integers(2, 3))
    ranges = []
    for _ in range(n):
        parts = draw(st.lists(st.sampled_from(RANGE_PARTS), min_size=1, max_size=3, unique=True))
        ranges.append(", ".join(p + draw(st.sampled_from(WEIGHTS)) for p in parts))
    return ranges, draw(st.sampled_from(BOARDS))


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(matchups())
def test_sampled_agrees_with_exact_on_generated_ranges(
    sampler: str, case: tuple[list[str], str]
) -> None:
    ranges, board = case
    try:
        exact = range_equity(ranges, board, exact=True)
    except CroupierError as exc:  # ranges that cannot be dealt together on this board
        refused = str(exc)
        assert "cannot be dealt" in refused or "no combo left" in refused
        return
    sampled = range_equity(ranges, board, samples=40_000, seed=17)
    assert_agrees(sampled, exact, 4.5)
    assert sum(p.equity for p in exact.players) == Fraction(1)
