"""Hypothesis strategies for PHH text: random TOML hands and mutations of real hand histories."""

from __future__ import annotations

import re
import tomllib
from decimal import Decimal
from typing import Any

import tomli_w
from fuzz_support import CARD_TOKENS, corpus_texts
from hypothesis import strategies as st

CORPUS = corpus_texts()

VARIANTS = ["NT", "PO", "FT", "F7S", "FR", "NS", "FO/8", "F2L3D", "FB", "_croupier", "", "nt"]

# ------------------------------------------------------------------ TOML values
_toml_scalar = st.one_of(
    st.integers(-5, 1_000),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.5, 1.25, -1.0, float("inf"), float("nan"), 1e300]),
    st.booleans(),
    st.text(max_size=6),
    st.sampled_from(["x", "10", "1.5", "inf", "AsKs", "p1 f"]),
)
toml_values: st.SearchStrategy[Any] = st.recursive(
    _toml_scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def _amount_list(n: int) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(st.integers(0, 200), min_size=n, max_size=n),
        st.lists(_toml_scalar, min_size=n, max_size=n),
        st.lists(st.integers(0, 200), max_size=7),
        toml_values,
    )


def _cards(max_cards: int) -> st.SearchStrategy[str]:
    return st.one_of(
        st.lists(st.sampled_from(CARD_TOKENS), min_size=1, max_size=max_cards).map("".join),
        st.sampled_from(["????", "??", "-", "AsAs", "1x2y", "", "As"]),
    )


def actions(players: int) -> st.SearchStrategy[str]:
    """One PHH action line: mostly grammatical, with wrong actors, verbs and arguments."""
    actor = st.one_of(
        st.sampled_from([f"p{i}" for i in range(1, players + 1)] or ["p1"]),
        st.sampled_from(["d", "p0", f"p{players + 1}", "p", "px", "P1", "p-1"]),
    )
    amount = st.one_of(
        st.integers(0, 500).map(str),
        st.sampled_from(["-5", "1.5", "abc", "inf", "nan", "1e9", "99999999999999999999", ""]),
    )
    dealer = st.one_of(
        st.tuples(st.just("d dh"), actor, _cards(7)).map(" ".join),
        st.tuples(st.just("d db"), _cards(3)).map(" ".join),
        st.sampled_from(["d", "d xx", "d dh", "d db"]),
    )
    player = st.one_of(
        st.tuples(actor, st.sampled_from(["f", "cc", "pb", "sm", "sd", "xx", "cbr"])).map(" ".join),
        st.tuples(actor, st.just("cbr"), amount).map(" ".join),
        st.tuples(actor, st.sampled_from(["sm", "sd"]), _cards(5)).map(" ".join),
    )
    comment = st.sampled_from(["", " # note", "#", " #"])
    return st.one_of(
        st.tuples(st.one_of(dealer, player), comment).map("".join),
        st.text(max_size=12),
    )


@st.composite
def phh_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A random hand as a dict of PHH-like fields (some missing, some wrong)."""
    n = draw(st.integers(0, 7))
    doc: dict[str, Any] = {}
    optional: dict[str, st.SearchStrategy[Any]] = {
        "variant": st.one_of(st.sampled_from(VARIANTS), toml_values),
        "antes": _amount_list(n),
        "blinds_or_straddles": _amount_list(n),
        "bring_in": st.one_of(st.integers(-2, 20), _toml_scalar),
        "small_bet": st.one_of(st.integers(-2, 40), _toml_scalar),
        "big_bet": st.one_of(st.integers(-2, 80), _toml_scalar),
        "min_bet": st.one_of(st.integers(-2, 40), _toml_scalar),
        "starting_stacks": _amount_list(n),
        "finishing_stacks": _amount_list(n),
        "ante_trimming_status": st.one_of(st.booleans(), toml_values),
        "actions": st.one_of(st.lists(actions(n), max_size=25), toml_values),
        "players": st.lists(st.text(max_size=5), min_size=n, max_size=n),
        "_croupier_game": st.one_of(
            st.sampled_from(["holdem", "omaha", "stud5", "stud7", "draw", "manila", "x"]),
            toml_values,
        ),
        "_croupier_structure": st.one_of(
            st.sampled_from(["no-limit", "pot-limit", "fixed-limit", "spread-limit", "x"]),
            toml_values,
        ),
        "_croupier_profile": st.one_of(st.sampled_from(["nz", "phh", "zz"]), toml_values),
        "_croupier_spread": _amount_list(2),
        "_croupier_pot_ratio": st.one_of(
            st.sampled_from(["1", "1/2", "0", "-1", "x"]), toml_values
        ),
        "_croupier_chip_unit": st.one_of(st.integers(-1, 5), _toml_scalar),
        "_croupier_table_minimum": st.one_of(st.integers(-1, 20), _toml_scalar),
        "_croupier_table_maximum": st.one_of(st.integers(-1, 200), _toml_scalar),
        "_croupier_big_bet_from": st.one_of(st.integers(-1, 5), _toml_scalar),
        "_croupier_voluntary_blind": st.one_of(st.booleans(), _toml_scalar),
        "_croupier_rake": st.one_of(
            st.fixed_dictionaries(
                {
                    "percent": _toml_scalar,
                    "cap": _toml_scalar,
                    "per_hand": _toml_scalar,
                    "no_flop_no_drop": _toml_scalar,
                }
            ),
            toml_values,
        ),
    }
    for key, strategy in optional.items():
        if draw(st.integers(0, 9)) < 7:  # each key present seven times in ten
            doc[key] = draw(strategy)
    return doc


def dump_toml(document: dict[str, Any]) -> str:
    """TOML text of a document (tomli_w; a value it cannot write becomes a string)."""
    try:
        return tomli_w.dumps(document)
    except (TypeError, ValueError):
        return tomli_w.dumps({k: str(v) for k, v in document.items()})


# ------------------------------------------------------------------ mutations
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_BAD_NUMBERS = [
    "-5",
    "-1",
    "0",
    "0.5",
    "1.5",
    "inf",
    "-inf",
    "nan",
    "1e400",
    "99999999999999999999999",
    "'x'",
    "[]",
]


def _text_mutation(draw: st.DrawFn, text: str) -> str:
    kind = draw(st.sampled_from(["flip", "insert", "delete", "number", "line"]))
    if not text:
        return draw(st.text(max_size=20))
    at = draw(st.integers(0, len(text) - 1))
    if kind == "flip":
        return text[:at] + draw(st.characters()) + text[at + 1 :]
    if kind == "insert":
        piece = draw(
            st.one_of(st.text(max_size=5), st.sampled_from(["'", '"', "[", "]", "\n", "="]))
        )
        return text[:at] + piece + text[at:]
    if kind == "delete":
        size = draw(st.integers(1, 20))
        return text[:at] + text[at + size :]
    if kind == "number":
        spans = [m.span() for m in _NUMBER.finditer(text)]
        if not spans:
            return text
        start, stop = draw(st.sampled_from(spans))
        return text[:start] + draw(st.sampled_from(_BAD_NUMBERS)) + text[stop:]
    lines = text.splitlines(keepends=True)
    i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
    lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


def _bad_amount(draw: st.DrawFn) -> Any:
    return draw(
        st.one_of(
            st.sampled_from([-5, 0, 10**30, -(10**30), 2**63]),
            st.sampled_from([Decimal("0.5"), Decimal("-1.5"), Decimal("1E+400")]),
            st.sampled_from([float("inf"), float("-inf"), float("nan"), 1.5]),
            st.sampled_from(["x", "", "10", True]),
            st.just([]),
        )
    )


def _hand_mutation(draw: st.DrawFn, hand: dict[str, Any]) -> None:
    kind = draw(st.sampled_from(["swap", "drop-action", "dup-action", "new-action", "drop-key",
                                 "amount", "actions-type", "action-amount"]))  # fmt: skip
    acts = hand.get("actions")
    if isinstance(acts, list) and acts and kind in ("swap", "drop-action", "dup-action"):
        i, j = draw(st.integers(0, len(acts) - 1)), draw(st.integers(0, len(acts) - 1))
        if kind == "swap":
            acts[i], acts[j] = acts[j], acts[i]
        elif kind == "drop-action":
            del acts[i]
        else:
            acts.insert(j, acts[i])
    elif isinstance(acts, list) and kind == "new-action":
        n = (
            len(hand.get("starting_stacks", ()))
            if isinstance(hand.get("starting_stacks"), list)
            else 3
        )
        acts.insert(draw(st.integers(0, len(acts))), draw(actions(n)))
    elif isinstance(acts, list) and acts and kind == "action-amount":
        i = draw(st.integers(0, len(acts) - 1))
        acts[i] = _NUMBER.sub(draw(st.sampled_from(_BAD_NUMBERS)).strip("'"), str(acts[i]), count=1)
    elif kind == "actions-type":
        hand["actions"] = draw(st.one_of(st.just(42), st.just("p1 f"), st.just([42, None])))
    elif kind == "drop-key" and hand:
        del hand[draw(st.sampled_from(sorted(hand)))]
    else:
        numeric = [
            k for k, v in hand.items() if isinstance(v, int | Decimal | list) and k != "actions"
        ]
        if not numeric:
            return
        key = draw(st.sampled_from(sorted(numeric)))
        value = hand[key]
        if isinstance(value, list) and value:
            value[draw(st.integers(0, len(value) - 1))] = _bad_amount(draw)
        else:
            hand[key] = _bad_amount(draw)


def _none_to_str(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _none_to_str(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_none_to_str(v) for v in value]
    return "None" if value is None else value


@st.composite
def mutated_phh(draw: st.DrawFn) -> tuple[str, str]:
    """``(suffix, text)``: a real hand history with one to three mutations, on the text or on
    the parsed fields (swap/drop/duplicate actions, drop keys, bad numbers)."""
    suffix, text = draw(st.sampled_from(CORPUS))
    for _ in range(draw(st.integers(1, 3))):
        structured = draw(st.booleans())
        if structured:
            try:
                document = tomllib.loads(text, parse_float=Decimal)
            except tomllib.TOMLDecodeError:
                structured = False
        if not structured:
            text = _text_mutation(draw, text)
            continue
        tables = [v for v in document.values() if isinstance(v, dict)] if suffix == ".phhs" else []
        hand = draw(st.sampled_from(tables)) if tables else document
        _hand_mutation(draw, hand)
        try:
            text = tomli_w.dumps(_none_to_str(document))
        except (TypeError, ValueError):
            text = _text_mutation(draw, text)
    return suffix, text
