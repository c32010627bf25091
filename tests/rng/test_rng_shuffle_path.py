"""Issue 29, point 6: the path from the operating system's generator to a card.

The live shuffle reads every byte through one source, turns bytes into indices without
modulo bias, and the compiled shuffle of the tests and the exports are that same shuffle.
"""

from __future__ import annotations

import io
import os
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Deck, Shoe, full_deck, make_rng
from croupier.cards.rng import (
    ByteSourceError,
    ByteStreamRandom,
    bytes_for_draws,
    draw_below,
    iter_bytes,
    shuffle_from_bytes,
)
from croupier.errors import CroupierError
from croupier.poker.games import HOLDEM
from croupier.poker.settings import TableRules
from croupier.poker.structures import NoLimit
from croupier.poker.table import Table
from croupier.rngtest._kernel import deal_orders
from croupier.rngtest.export import export_shuffles, positions_of


class CountingSource:
    """Bytes from a fixed blob, counting what was read."""

    def __init__(self, blob: bytes) -> None:
        self.stream = io.BytesIO(blob)
        self.read_count = 0

    def __call__(self, count: int) -> bytes:
        data = self.stream.read(count)
        self.read_count += len(data)
        return data


# --- the live path ------------------------------------------------------------------------


def test_an_unseeded_shuffle_reads_the_os_generator_through_the_byte_stream_class() -> None:
    rng = make_rng()
    assert type(rng) is ByteStreamRandom
    assert rng.source is os.urandom
    assert isinstance(rng, random.SystemRandom)


def test_the_card_room_objects_shuffle_with_it() -> None:
    shoe = Shoe(6)
    assert type(shoe._rng) is ByteStreamRandom
    assert shoe._rng.source is os.urandom
    table = Table(TableRules(HOLDEM, NoLimit(), blinds=(5, 10), table_minimum=10), seats=6)
    assert type(table._rng) is ByteStreamRandom
    assert table._rng.source is os.urandom


def test_a_seeded_shuffle_is_unchanged_mersenne_twister() -> None:
    order = list(full_deck())
    random.Random(9).shuffle(order)
    assert Deck.standard(seed=9).remaining == tuple(order)


# --- the scaler: no modulo bias -------------------------------------------------------------


@pytest.mark.parametrize("bound", [*range(2, 258), 416, 65536])
def test_every_value_below_the_bound_has_the_same_chance_per_attempt(bound: int) -> None:
    """Enumerate every possible attempt (every value of the bytes it reads): each value below
    the bound is accepted from the same number of them (the masked-off high bits), and every
    other attempt is rejected and read again, so every value has the same chance."""
    bits = (bound - 1).bit_length()
    size = (bits + 7) // 8
    accepted: Counter[int] = Counter()
    rejected = 0
    for raw in range(1 << (8 * size)):
        attempt = raw.to_bytes(size, "big")
        try:
            accepted[draw_below(bound, iter_bytes(attempt))] += 1
        except ByteSourceError:  # rejected: it asked for more bytes
            rejected += 1
    spare = 1 << (8 * size - bits)  # attempts that differ only in the masked-off bits
    assert accepted == dict.fromkeys(range(bound), spare)
    assert rejected == ((1 << bits) - bound) * spare


def test_a_byte_modulo_52_would_be_biased_and_the_scaler_is_not() -> None:
    """The contrast: every byte through ``% 52`` (what the scaler does NOT do) gives 0..47
    five times and 48..51 four times."""
    modulo = Counter(b % 52 for b in range(256))
    assert {modulo[v] for v in range(48)} == {5}
    assert {modulo[v] for v in range(48, 52)} == {4}
    kept = Counter(b & 63 for b in range(256) if b & 63 < 52)
    assert set(kept.values()) == {4}


def test_a_bad_bound_or_an_empty_source_is_a_one_line_error() -> None:
    with pytest.raises(CroupierError, match="bound of at least 1"):
        draw_below(0, os.urandom)
    with pytest.raises(ByteSourceError, match="gave 0 of the 1"):
        draw_below(52, iter_bytes(b""))
    with pytest.raises(ByteSourceError, match="returns bytes"):
        draw_below(52, lambda n: "x" * n)  # type: ignore[arg-type, return-value]
    with pytest.raises(ByteSourceError):
        Deck.standard(rng=ByteStreamRandom(iter_bytes(bytes(10))))


# --- the shuffle: every byte read is used, and the compiled shuffle is the same ------------


@settings(max_examples=150, deadline=None)
@given(
    blob=st.binary(min_size=0, max_size=3000),
    cards=st.one_of(st.integers(2, 60), st.integers(250, 420)),
)
def test_the_compiled_shuffle_deals_what_the_live_shuffle_deals(blob: bytes, cards: int) -> None:
    orders, used = deal_orders(np.frombuffer(blob, dtype=np.uint8), cards, len(blob) + 1)
    source = CountingSource(blob)
    for order in orders:
        live = list(range(cards))
        shuffle_from_bytes(live, source)
        assert live == order.tolist()
    assert source.read_count == used  # the same bytes, and not one more
    with pytest.raises(ByteSourceError):  # the bytes left cannot finish another shuffle
        shuffle_from_bytes(list(range(cards)), CountingSource(blob[used:]))


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 500), st.integers(0, 2**32))
def test_a_shuffle_is_a_permutation_and_reads_at_least_one_attempt_a_draw(
    cards: int, seed: int
) -> None:
    source = CountingSource(random.Random(seed).randbytes(40 * cards + 1000))
    items = list(range(cards))
    shuffle_from_bytes(items, source)
    assert sorted(items) == list(range(cards))
    assert source.read_count >= bytes_for_draws(cards)


def test_the_stream_random_reads_its_source_for_everything() -> None:
    rng = ByteStreamRandom(iter_bytes(bytes([0xFF, 0xFF, 0x12, 0x34]) + bytes(7) + b"abc"))
    assert rng.randrange(300) == 0x1234 & 0x1FF  # 0xFFFF & 0x1FF = 511: rejected
    assert rng.random() == 0.0
    assert rng.randbytes(3) == b"abc"
    assert rng.choice([7]) == 7  # a bound of 1 reads nothing
    with pytest.raises(ByteSourceError):
        rng.getrandbits(8)
    with pytest.raises(ValueError, match="non-negative"):
        rng.getrandbits(-1)


# --- the exports are that shuffle -----------------------------------------------------------


def test_a_raw_export_holds_exactly_the_bytes_the_shuffles_read() -> None:
    blob = random.Random(5).randbytes(200_000)
    raw = io.BytesIO()
    summary = export_shuffles(byte_count=100_000, raw=raw, source=CountingSource(blob))
    assert raw.getvalue() == blob[:100_000]
    assert summary.bytes_written == 100_000 <= summary.bytes_read < 100_000 + 200


def test_the_raw_bytes_replayed_through_a_real_deck_deal_the_exported_positions() -> None:
    source = CountingSource(random.Random(6).randbytes(100_000))
    raw, text = io.BytesIO(), io.StringIO()
    summary = export_shuffles(shuffles=300, raw=raw, positions=text, source=source)
    assert summary.bytes_read == source.read_count == len(raw.getvalue())
    replay = ByteStreamRandom(CountingSource(raw.getvalue()))
    for line in text.getvalue().splitlines():
        deck = Deck.standard(rng=replay)  # the deck the card room would deal from these bytes
        order = [card.index for card in deck.remaining]  # top card first
        assert positions_of(order) == [int(word) for word in line.split()]
    assert replay.source(1) == b""  # every byte used, none left over


def test_a_shoe_deals_from_the_same_stream() -> None:
    source = CountingSource(random.Random(7).randbytes(50_000))
    raw, text = io.BytesIO(), io.StringIO()
    export_shuffles(cards=312, shuffles=20, raw=raw, positions=text, source=source)
    replay = ByteStreamRandom(CountingSource(raw.getvalue()))
    for line in text.getvalue().splitlines():
        positions = [int(word) for word in line.split()]
        order = [0] * 312
        for item, position in enumerate(positions):
            order[position] = item
        shoe = Shoe(6, rng=replay)
        dealt_last_first = [card.index for card in reversed(shoe.remaining)]
        assert dealt_last_first == [item % 52 for item in order]
