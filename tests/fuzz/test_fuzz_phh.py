"""Fuzzing the PHH reader and replay (issue 10, points 10, 11 and 15).

Random bytes, random TOML hands and mutated real hand histories go through
``croupier.phh.load``/``loads``, ``HandHistory.check`` and ``replay`` (both profiles,
strict and lenient), and through ``croupier replay FILE`` on the command line. The only
acceptable outcomes are a replay or a :class:`~croupier.errors.CroupierError` (on the
command line: exit 1 or 2 and one ``croupier: error:`` line); a replay that succeeds
must conserve the chips. See ``fuzz_support`` for the determinism policy.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

from fuzz_support import attempt, check_cli, fuzz, invoke
from hypothesis import given
from hypothesis import strategies as st
from phh_strategies import CORPUS, dump_toml, mutated_phh, phh_documents

from croupier.phh import load, loads, replay


def _total(values: Any) -> Decimal | None:
    if not isinstance(values, list) or not all(isinstance(v, int | Decimal) for v in values):
        return None
    return sum((Decimal(v) for v in values), Decimal(0))


def check_replays(text: str, suffix: str) -> None:
    """Read the text as a file of that suffix would be read, then replay every hand four
    ways; each step returns or raises a CroupierError, and a finished replay keeps the chips."""
    hands, _ = attempt(loads, text, source=f"fuzz{suffix}", multi=suffix == ".phhs")
    for hh in hands or []:
        attempt(hh.check)
        for profile in (None, "nz"):
            for strict in (True, False):
                result, _ = attempt(replay, hh, profile, strict=strict)
                if result is None:
                    continue
                final = result.final_stacks
                assert all(isinstance(s, int | Decimal) for s in final), final
                start = _total(hh.fields.get("starting_stacks"))
                complete = result.hand.is_complete  # a record that stops early leaves a pot
                if complete and start is not None and "_croupier_rake" not in hh.fields:
                    assert sum(final, Decimal(0)) == start, (
                        f"replay({profile=}, {strict=}) of {text!r} made chips: "
                        f"{hh.fields['starting_stacks']} -> {final}"
                    )


@contextmanager
def written(data: bytes, suffix: str) -> Iterator[Path]:
    """A temporary file holding ``data``."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"hand{suffix}"
        path.write_bytes(data)
        yield path


SUFFIXES = st.sampled_from([".phh", ".phhs", ".txt"])


def _encoded_seed() -> st.SearchStrategy[bytes]:
    """A real hand history in an encoding the reader does not expect (UTF-16 and the like)."""
    return st.tuples(
        st.sampled_from([t for _, t in CORPUS]),
        st.sampled_from(["utf-16", "utf-32", "utf-16-le", "utf-8-sig", "latin-1", "cp1252"]),
        st.sampled_from(["", "é", "\x00", "\ufeff", "🂡"]),
    ).map(lambda t: (t[0] + f"# {t[2]}\n").encode(t[1], errors="replace"))


random_bytes = st.one_of(st.binary(max_size=300), _encoded_seed())


# ----------------------------------------------------------------- the library
@fuzz(150)
@given(data=random_bytes, suffix=SUFFIXES)
def test_load_random_bytes_reads_or_refuses(data: bytes, suffix: str) -> None:
    with written(data, suffix) as path:
        hands, _ = attempt(load, path)
    for hh in hands or []:
        for strict in (True, False):
            attempt(replay, hh, strict=strict)


@fuzz(250)
@given(document=phh_documents(), suffix=st.sampled_from([".phh", ".phhs"]))
def test_random_toml_hands_replay_or_refuse(document: dict[str, Any], suffix: str) -> None:
    text = dump_toml({"1": document} if suffix == ".phhs" else document)
    check_replays(text, suffix)


@fuzz(300)
@given(mutant=mutated_phh())
def test_mutated_real_hands_replay_or_refuse(mutant: tuple[str, str]) -> None:
    suffix, text = mutant
    check_replays(text, suffix)


def test_an_actor_with_a_non_ascii_digit_is_refused() -> None:
    """Found by the test above on a clean clone: ``p¹`` passed ``str.isdigit`` and then
    broke ``int()``; it is now an unknown actor like any other."""
    text = (
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
        'starting_stacks = [200, 200]\nactions = ["p\u00b9 f"]\n'
    )
    check_replays(text, ".phh")


@fuzz(60)
@given(text=st.text(max_size=200))
def test_loads_random_text_reads_or_refuses(text: str) -> None:
    check_replays(text, ".phh")


# ----------------------------------------------------------------- the command line
REPLAY_FLAGS = st.lists(
    st.sampled_from(
        [["--json"], ["--lenient"], ["--profile", "nz"], ["--profile", "phh"], ["--profile", "x"]]
    ),
    max_size=3,
).map(lambda parts: [word for part in parts for word in part])


@fuzz(80)
@given(data=random_bytes, suffix=SUFFIXES, flags=REPLAY_FLAGS)
def test_cli_replay_random_bytes(data: bytes, suffix: str, flags: list[str]) -> None:
    with written(data, suffix) as path:
        args = ["replay", str(path), *flags]
        check_cli(invoke(args), args)


@fuzz(120)
@given(document=phh_documents(), flags=REPLAY_FLAGS)
def test_cli_replay_random_toml(document: dict[str, Any], flags: list[str]) -> None:
    with written(dump_toml(document).encode(), ".phh") as path:
        args = ["replay", str(path), *flags]
        check_cli(invoke(args), args)


@fuzz(150)
@given(mutant=mutated_phh(), flags=REPLAY_FLAGS)
def test_cli_replay_mutated_real_hands(mutant: tuple[str, str], flags: list[str]) -> None:
    suffix, text = mutant
    with written(text.encode("utf-8", errors="surrogatepass"), suffix) as path:
        args = ["replay", str(path), *flags]
        check_cli(invoke(args), args)


@fuzz(20)
@given(names=st.lists(st.sampled_from(["missing.phh", ".", "", "-", "/dev/null"]), min_size=1))
def test_cli_replay_paths_that_are_not_hand_files(names: list[str]) -> None:
    args = ["replay", *names]
    check_cli(invoke(args), args)
