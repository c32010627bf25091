"""Exports for a testing laboratory: the raw bytes the live shuffle consumes, and the card
positions it makes from them (``croupier rng export``).

Both come from the live shuffle itself: :func:`export_shuffles` shuffles with the class the
card room deals with (:class:`~croupier.cards.rng.ByteStreamRandom`, what
:func:`~croupier.cards.rng.make_rng` gives without a seed), handing it a
:class:`RecordingSource` around the operating system's generator. The recorder passes every
byte the shuffle reads to it unchanged and copies it to the raw file, in the order read, so
the raw file is exactly the stream the shuffle consumed (rejected attempts included) and the
positions file exactly what it made of it; the same bytes fed back through
:func:`~croupier.cards.rng.shuffle_from_bytes` give the same positions (tests/rng checks it).

>>> import io, random
>>> raw, text = io.BytesIO(), io.StringIO()
>>> summary = export_shuffles(shuffles=2, cards=4, raw=raw, positions=text,
...                           source=random.Random(1).randbytes)
>>> summary.shuffles, summary.bytes_written == len(raw.getvalue())
(2, True)
>>> len(text.getvalue().splitlines())
2
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, TextIO

from croupier.cards.rng import ByteSource, ByteStreamRandom
from croupier.errors import CroupierError

__all__ = ["ExportSummary", "RecordingSource", "export_shuffles", "positions_of"]

_PROGRESS_STEP = 1024
"""Shuffles between progress reports."""


class RecordingSource:
    """A byte source that passes ``source``'s bytes through unchanged and copies them to
    ``sink`` as they are read (the first ``limit`` of them, when given).

    >>> import io
    >>> sink = io.BytesIO()
    >>> record = RecordingSource(lambda n: bytes(range(n)), sink, limit=3)
    >>> record(2), record(2), sink.getvalue(), record.read_count
    (b'\\x00\\x01', b'\\x00\\x01', b'\\x00\\x01\\x00', 4)
    """

    def __init__(self, source: ByteSource, sink: BinaryIO | None, limit: int | None = None):
        self.source = source
        """Where the bytes come from."""
        self.sink = sink
        """Where they are copied (None: only counted)."""
        self.limit = limit
        """The most bytes copied (None: all)."""
        self.read_count = 0
        """Bytes read so far."""
        self.written = 0
        """Bytes copied so far."""

    def __call__(self, count: int) -> bytes:
        data = self.source(count)
        self.read_count += len(data)
        if self.sink is not None:
            room = len(data) if self.limit is None else min(len(data), self.limit - self.written)
            if room > 0:
                self.sink.write(data[:room])
                self.written += room
        return data


@dataclass(frozen=True)
class ExportSummary:
    """What :func:`export_shuffles` wrote.

    >>> ExportSummary(52, 10, 714, 714, 10, 0.01).bytes_per_second
    71400.0
    """

    cards: int
    shuffles: int
    """Shuffles made (the last one may be cut short in the raw file by ``byte_count``)."""
    bytes_read: int
    """Bytes those shuffles consumed."""
    bytes_written: int
    """Bytes written to the raw file (0 without one)."""
    lines_written: int
    """Lines written to the positions file (0 without one)."""
    seconds: float

    @property
    def bytes_per_second(self) -> float:
        """Bytes consumed per second of the export."""
        return self.bytes_read / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data.

        >>> ExportSummary(52, 1, 70, 70, 0, 0.0).to_json()["bytes_written"]
        70
        """
        return {
            "cards": self.cards,
            "shuffles": self.shuffles,
            "bytes_read": self.bytes_read,
            "bytes_written": self.bytes_written,
            "lines_written": self.lines_written,
            "seconds": self.seconds,
        }


def positions_of(order: Sequence[int]) -> list[int]:
    """Where each item of ``0 .. n-1`` stands in ``order``: the inverse permutation.

    >>> positions_of([2, 0, 1])          # item 0 is at position 1, item 1 at 2, item 2 at 0
    [1, 2, 0]
    """
    out = [0] * len(order)
    for position, item in enumerate(order):
        out[item] = position
    return out


def export_shuffles(
    *,
    cards: int = 52,
    shuffles: int | None = None,
    byte_count: int | None = None,
    raw: BinaryIO | None = None,
    positions: TextIO | None = None,
    source: ByteSource = os.urandom,
    progress: Callable[[int], object] | None = None,
) -> ExportSummary:
    """Shuffle the items ``0 .. cards-1`` again and again with the live shuffle, reading
    ``source`` (the operating system's generator by default), and write:

    * to ``raw``, every byte the shuffles consumed, in order (the first ``byte_count`` of
      them when given);
    * to ``positions``, one line a shuffle: ``cards`` numbers separated by spaces, the
      position (from 0) where the shuffle put item 0, item 1, ... For a deck the items are
      the cards in index order (2c 2d 2h 2s 3c ... As), and position 0 is the first card
      dealt.

    It stops after ``shuffles`` shuffles or once ``byte_count`` bytes are written, and runs
    on (until the reader goes away) when given neither. ``progress`` hears how many shuffles
    (or, with ``byte_count``, bytes) each step added.

    >>> import io
    >>> text = io.StringIO()
    >>> _ = export_shuffles(shuffles=1, cards=3, positions=text, source=lambda n: bytes(n))
    >>> text.getvalue()                   # zero bytes: every draw is 0
    '2 0 1\\n'
    """
    if not cards >= 2:
        raise CroupierError(f"an export shuffles at least 2 cards, not {cards}")
    if raw is None and positions is None:
        raise CroupierError("an export needs a raw file, a positions file, or both")
    if byte_count is not None and (raw is None or positions is not None):
        raise CroupierError("a byte count goes with a raw export alone")
    if byte_count is not None and shuffles is not None:
        raise CroupierError("give a number of shuffles or a number of bytes, not both")
    if positions is not None and shuffles is None:
        raise CroupierError("a positions export needs a number of shuffles")
    recorder = RecordingSource(source, raw, byte_count)
    rng = ByteStreamRandom(recorder)
    started = time.perf_counter()
    done = lines = 0
    reported = 0
    while (shuffles is None or done < shuffles) and (
        byte_count is None or recorder.written < byte_count
    ):
        order = list(range(cards))
        rng.shuffle(order)
        done += 1
        if positions is not None:
            positions.write(" ".join(map(str, positions_of(order))) + "\n")
            lines += 1
        if progress is not None and done % _PROGRESS_STEP == 0:
            step = recorder.written if byte_count is not None else done
            progress(step - reported)
            reported = step
    if progress is not None:
        step = recorder.written if byte_count is not None else done
        if step > reported:
            progress(step - reported)
    return ExportSummary(
        cards,
        done,
        recorder.read_count,
        recorder.written,
        lines,
        time.perf_counter() - started,
    )
