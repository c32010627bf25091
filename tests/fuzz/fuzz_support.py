"""Shared pieces of the fuzz suite: settings, value strategies and the acceptance checks.

The rule every fuzz test enforces (issue 10, point 15): croupier either returns a result
or raises a :class:`~croupier.errors.CroupierError`; any other exception is a defect, and
an action refused with an error must leave the observable state exactly as it was. On
the command line the only outcomes are exit code 0, 1 or 2, and a failure ends with one
``croupier: error: ...`` line and never a traceback.

Determinism. The suite runs with ``derandomize=True``: hypothesis draws its examples from
a seed derived from each test's name, so a CI run is the same every time and a red build
always means a change in croupier, never an unlucky draw. Set ``CROUPIER_FUZZ_RANDOM=1``
to explore with fresh randomness (and hypothesis's example database), and
``CROUPIER_FUZZ_SCALE=10`` to multiply every test's example count for a long session;
a failure found that way prints its ``@reproduce_failure`` blob and belongs in a
regression test.
"""

from __future__ import annotations

import json
import math
import numbers
import os
import string
from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from croupier.cli.app import cli
from croupier.errors import CroupierError

T = TypeVar("T")

RANDOM = os.environ.get("CROUPIER_FUZZ_RANDOM", "") not in ("", "0")
SCALE = max(1, int(os.environ.get("CROUPIER_FUZZ_SCALE", "1") or 1))


def fuzz(max_examples: int) -> settings:
    """The settings of one fuzz test: ``max_examples`` (times ``CROUPIER_FUZZ_SCALE``),
    no deadline (the first call compiles numba kernels), derandomized unless
    ``CROUPIER_FUZZ_RANDOM`` is set."""
    return settings(
        max_examples=max_examples * SCALE,
        deadline=None,
        derandomize=not RANDOM,
        database=settings().database if RANDOM else None,
        print_blob=True,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
            HealthCheck.function_scoped_fixture,
        ],
    )


# --------------------------------------------------------------------- outcomes
def attempt(
    call: Callable[..., T], *args: Any, **kwargs: Any
) -> tuple[T | None, CroupierError | None]:
    """Call croupier; return ``(result, None)`` or ``(None, error)`` for a CroupierError.

    Any other exception fails the test, with a note naming the call that raised it."""
    try:
        return call(*args, **kwargs), None
    except CroupierError as exc:
        return None, exc
    except Exception as exc:
        # re-raised as it is, so hypothesis tells distinct defects apart by where they arise
        name = getattr(call, "__qualname__", repr(call))
        shown = ", ".join([*(repr(a) for a in args), *(f"{k}={v!r}" for k, v in kwargs.items())])
        exc.add_note(f"fuzz: {name}({shown[:500]}) must return or raise a CroupierError")
        raise


def is_chip_count(value: object) -> bool:
    """Chips are integers: any ``numbers.Integral`` except bool (issue 10, point 9)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool | np.bool_)


def is_count(value: object, low: int, high: float = float("inf")) -> bool:
    """A whole number (see :func:`is_chip_count`) from ``low`` to ``high``."""
    return is_chip_count(value) and low <= value <= high  # type: ignore[operator]


# --------------------------------------------------------------------- garbage
def _np_ints() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.integers(-(2**63), 2**63 - 1).map(np.int64),
        st.integers(-128, 127).map(np.int8),
        st.integers(0, 2**64 - 1).map(np.uint64),
        st.integers(-(2**31), 2**31 - 1).map(np.int32),
    )


NUMERIC_STRINGS = st.sampled_from(
    ["30", "20", "10", "0", "-1", "1.5", "1e3", "inf", "nan", "", " ", "3/2", "0x10", "٣"]
)


def scalars() -> st.SearchStrategy[Any]:
    """One value of any type: None, bools, small/negative/huge ints, floats with nan and
    inf, Decimals (NaN and sNaN too), Fractions, numpy numbers, strings, bytes."""
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 120),
        st.integers(),
        st.sampled_from([-(2**63), 2**63, 2**64 + 1, 10**30, -(10**30)]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([20.0, 10.0, 0.5, -0.0, math.inf, -math.inf, math.nan]),
        st.decimals(allow_nan=True, allow_infinity=True),
        st.sampled_from([Decimal(20), Decimal("20.5"), Decimal("NaN"), Decimal("sNaN")]),
        st.fractions(),
        st.sampled_from([Fraction(20), Fraction(41, 2), Fraction(-10)]),
        _np_ints(),
        st.floats(allow_nan=True).map(np.float64),
        st.booleans().map(np.bool_),
        st.complex_numbers(max_magnitude=1e6),
        NUMERIC_STRINGS,
        st.text(max_size=8),
        st.binary(max_size=4),
    )


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def keys() -> st.SearchStrategy[Any]:
    """Scalars that can be dictionary keys (a signalling NaN cannot)."""
    return scalars().filter(_hashable)


def garbage() -> st.SearchStrategy[Any]:
    """Any value at all, scalars and small containers of them."""
    return st.recursive(
        scalars(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.lists(inner, max_size=4).map(tuple),
            st.dictionaries(st.one_of(st.integers(-3, 12), st.text(max_size=3)), inner, max_size=4),
            st.builds(object),
        ),
        max_leaves=6,
    )


def amounts() -> st.SearchStrategy[Any]:
    """Values where a chip count is expected: plain ints near the usual stakes, the same
    numbers as other types (numpy, Fraction, Decimal, float, str), and anything else."""
    near = st.integers(-50, 1_000)
    return st.one_of(
        near,
        st.one_of(
            near.map(np.int64),
            near.map(Fraction),
            near.map(Decimal),
            near.map(float),
            near.map(lambda n: n + 0.5),
            near.map(str),
        ),
        scalars(),
    )


def seats() -> st.SearchStrategy[Any]:
    """Values where a seat or box number is expected."""
    return st.one_of(st.integers(-3, 12), st.integers(-3, 12).map(np.int64), keys())


CARD_TOKENS = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def card_text() -> st.SearchStrategy[str]:
    """Card lists as text: mostly real cards (duplicates possible), some garbage tokens."""
    token = st.one_of(
        st.sampled_from(CARD_TOKENS),
        st.sampled_from(["10h", "1x", "??", "Xs", "A", "", "AsKs", "ah", "As,", "🂡"]),
        st.text(alphabet=string.printable, max_size=3),
    )
    return st.lists(token, max_size=9).map(" ".join)


# --------------------------------------------------------------------- PHH seeds
SAMPLE = Path(__file__).resolve().parents[3] / "shared" / "data" / "phh-sample"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

SEED_HANDS = [
    # the reader's and the replay's own doctest hands: the suite fuzzes even without the sample
    "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
    "starting_stacks = [200, 200]\nactions = ['p2 f']\n",
    "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
    "starting_stacks = [100, 100, 100]\nactions = ['d dh p1 AsKs', 'd dh p2 QdQh', "
    "'d dh p3 7c2d', 'p3 f', 'p1 cbr 10', 'p2 cc', 'd db 2c7h9s', 'p1 cc', 'p2 cc', "
    "'d db Ts', 'p1 cc', 'p2 cc', 'd db Js', 'p1 cc', 'p2 cc', 'p1 sm AsKs', 'p2 sm QdQh']\n",
    "variant = 'F7S'\nantes = [1, 1, 1]\nbring_in = 2\nsmall_bet = 5\nbig_bet = 10\n"
    "starting_stacks = [100, 100, 100]\nactions = ['d dh p1 2c3c4c', 'd dh p2 AsKsQs', "
    "'d dh p3 9d9h9s', 'p1 pb', 'p2 f', 'p3 cc']\n",
    "variant = 'PO'\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nmin_bet = 10\n"
    "starting_stacks = [500, 500]\nactions = ['d dh p1 AsKsQsJs', 'd dh p2 2c3c4d5d', "
    "'p2 cbr 30', 'p1 cbr 90', 'p2 f']\n",
    "variant = 'FT'\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nsmall_bet = 10\n"
    "big_bet = 20\nstarting_stacks = [0.5, 1.25]\nactions = ['d dh p1 ????', 'd dh p2 ????', "
    "'p2 cc', 'p1 cc']\n",
]


def corpus_files() -> list[Path]:
    """Real PHH files: the shared sample (when present) and the repository's examples."""
    files: list[Path] = []
    for root in (SAMPLE, EXAMPLES):
        if root.is_dir():
            files += sorted(root.rglob("*.phh")) + sorted(root.rglob("*.phhs"))
    return files


def corpus_texts() -> list[tuple[str, str]]:
    """(suffix, text) of every seed: the built-in hands and the real files."""
    out = [(".phh", text) for text in SEED_HANDS]
    for path in corpus_files():
        try:
            out.append((path.suffix, path.read_text("utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    return out


# --------------------------------------------------------------------- the CLI
ERROR_PREFIX = "croupier: error: "


def invoke(args: Sequence[str], *, stdin: str | None = None) -> Result:
    """Run ``croupier ARGS`` through click's test runner (no terminal, no colours)."""
    runner = CliRunner()
    return runner.invoke(cli, list(args), input=stdin, catch_exceptions=True, color=False)


def check_cli(result: Result, args: Sequence[str]) -> None:
    """The command line's contract: exit 0, 1 or 2; no traceback; a failure's last line on
    stderr is one ``croupier: error: ...`` line; ``--json`` output is strict JSON."""
    shown = " ".join(repr(a) if (not a or " " in a) else a for a in args)
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        exc.add_note(f"fuzz: croupier {shown} must exit 1 or 2 with a one-line error")
        exc.add_note(f"output: {result.output[-600:]!r}")
        raise exc.with_traceback(result.exc_info[2] if result.exc_info else None)
    assert "Traceback" not in result.output, f"croupier {shown}: traceback in {result.output!r}"
    assert result.exit_code in (0, 1, 2), (
        f"croupier {shown}: exit code {result.exit_code}; output {result.output[-400:]!r}"
    )
    if result.exit_code != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert lines, f"croupier {shown}: exit {result.exit_code} with nothing on stderr"
        last = lines[-1]
        assert last.startswith(ERROR_PREFIX), (
            f"croupier {shown}: exit {result.exit_code}, last stderr line is {last!r}, "
            f"not one '{ERROR_PREFIX}...' line; stderr: {result.stderr[-400:]!r}"
        )
    elif "--json" in args and not {"-h", "--help", "--version"} & set(args):
        check_strict_json(result.stdout, f"croupier {shown}")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def check_strict_json(text: str, what: str) -> None:
    """The text is one JSON document, or one JSON document a line, with no NaN/Infinity."""
    if not text.strip():
        return
    try:
        json.loads(text, parse_constant=_no_constant)
        return
    except ValueError:
        pass
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            json.loads(line, parse_constant=_no_constant)
        except ValueError as exc:
            raise AssertionError(
                f"{what}: --json printed invalid JSON {line[:200]!r}: {exc}"
            ) from None
