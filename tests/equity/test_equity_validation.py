"""Issue 10, point 12: ``equity()`` refuses a sample count or seed it cannot honour (a float,
a bool, zero, a negative number) with a CroupierError, and a single sample gives strict JSON
(its undefined standard error is None)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from croupier.equity import equity
from croupier.errors import CroupierError

HANDS = ["As Ks", "Qd Qh"]


@pytest.mark.parametrize("samples", [1.5, 0, -1, True, False, "10", 10.0])
def test_a_bad_sample_count_is_refused(samples: Any) -> None:
    with pytest.raises(CroupierError, match="samples must be a whole number of at least 1"):
        equity(HANDS, samples=samples)


@pytest.mark.parametrize("seed", [-1, 1.5, True, "3", 2.0])
def test_a_bad_seed_is_refused(seed: Any) -> None:
    with pytest.raises(CroupierError, match="seed must be None or a whole number from 0"):
        equity(HANDS, samples=10, seed=seed)


def test_an_unknown_game_is_a_croupier_error() -> None:
    with pytest.raises(CroupierError, match="unknown equity game 'chess'"):
        equity(HANDS, game="chess")


def test_numpy_integers_are_whole_numbers() -> None:
    r = equity(HANDS, samples=np.int64(300), seed=np.uint32(9))
    again = equity(HANDS, samples=300, seed=9)
    assert r.trials == 300
    assert [h.wins for h in r.hands] == [h.wins for h in again.hands]
    assert sum(float(h.equity) for h in r.hands) == pytest.approx(1.0)


def test_one_sample_is_strict_json_with_a_null_standard_error() -> None:
    r = equity(HANDS, samples=1, seed=4)
    assert r.trials == 1
    assert sum(float(h.equity) for h in r.hands) == pytest.approx(1.0)
    data = r.to_dict()
    assert [h["stderr"] for h in data["hands"]] == [None, None]
    text = json.dumps(data, allow_nan=False)  # raises on NaN
    assert json.loads(text)["trials"] == 1


def test_a_large_seed_is_accepted() -> None:
    assert equity(HANDS, samples=5, seed=2**80).trials == 5
