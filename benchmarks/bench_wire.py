"""The card room's view messages: one broadcast of ten seat views, now against an older commit.

After every action a table sends each listener its own view message (six seated players
and four spectators here). This times the encoding of that broadcast as the table's task runs
it: the listeners' messages as JSON text from their engine views (``view_for``, made
before the clock starts, so that the engine's own speed does not count), each carrying
only the events its listener has not had. The hands are 6-max no-limit hold'em played by
:class:`~croupier.poker.policies.RandomPolicy`, and a broadcast follows every action.

* **now**: :class:`~croupier.server.outgoing.ViewFrame` hands the engine's frozen views to
  orjson;
* **baseline** (``--baseline REV`` or ``CROUPIER_BENCH_BASELINE=REV``): the same loop at an
  older commit, checked out in a temporary ``git worktree`` (before issue 26 that is the
  splicer: ``ViewFrame`` with a records memo, ``EventTexts``, ``Prepared``). Both run in
  fresh processes, alternating (A B A B ...); each prints the microseconds a broadcast of
  one timing.

Figures: microseconds a broadcast (median and range over the pairs) and the ratio
baseline / now (above 1: now is faster). Check: every message of the current encoder
reads back as a ``ViewMessage`` whose view equals the engine's.
Run alone: ``python -m benchmarks.bench_wire [--quick] [--baseline REV]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Final

try:
    import croupier  # noqa: F401
except ImportError:  # a checkout without an install
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from benchmarks._harness import BenchResult, Check, Config, spread
from benchmarks.bench_referee import BASELINE_ENV, _worktree

__all__ = ["main", "run"]

NAME = "wire"
TITLE = "card room: one broadcast of ten seat views as JSON text, now vs an older commit"

_LOOP: Final = """
import gc, random, sys, time
from croupier.poker import HOLDEM, HandState, NoLimit, TableRules
from croupier.poker.policies import RandomPolicy
from croupier.server import outgoing
rules = TableRules(HOLDEM, NoLimit(), blinds=(1, 2), table_minimum=2)
rng = random.Random(int(sys.argv[1])); policy = RandomPolicy(rng)
viewers = [1, 2, 3, 4, 5, 6, None, None, None, None]
names = {str(s): f"player{s}" for s in range(1, 7)}
SPLICER = hasattr(outgoing, "Prepared")
if SPLICER:  # before issue 26: the records memo, each viewer's encoded log
    from croupier.server.runner import EventTexts

def hand_broadcasts(number):
    hand = HandState(rules, dict.fromkeys(range(1, 7), 200), number % 6 + 1, rng=rng)
    sent, memo = {}, {}
    logs = EventTexts() if SPLICER else None
    elapsed = 0.0
    while True:
        shared = hand.view_for(None)
        args = dict(table="t", hand=number, kind="poker", time_left=12.5,
                    commitment="ab" * 32, names=names)
        if SPLICER:
            frame = outgoing.ViewFrame(shared, records=memo, **args)
        else:
            frame = outgoing.ViewFrame(shared, **args)
        views = [shared if seat is None else hand.view_for(seat) for seat in viewers]
        clock = time.perf_counter()
        for i, view in enumerate(views):
            if SPLICER:
                revision, encoded = logs.encode(i, view.events)
                last = sent.get(i)
                start = 0 if last is None or last[0] != revision else min(last[1], len(encoded))
                sent[i] = (revision, len(encoded))
                text = frame.message(view, encoded[start:], start).text
            else:
                had = sent.get(i, ())
                start = len(had) if view.events[: len(had)] == had else 0
                sent[i] = view.events
                text = frame.message(view, start)
        elapsed += time.perf_counter() - clock
        yield elapsed
        if hand.is_complete:
            return
        seat = hand.actor
        hand.apply(policy(hand.view_for(seat)).for_seat(seat))

def play(hands, first):
    count, seconds = 0, 0.0
    for n in range(first, first + hands):
        for seconds_so_far in hand_broadcasts(n):
            count += 1
        seconds += seconds_so_far
    return count, seconds

play(30, 0)
floor = float(sys.argv[2])
gc.collect(); gc.disable()
broadcasts, encoding, n = 0, 0.0, 30
while encoding < floor:
    count, seconds = play(20, n); n += 20
    broadcasts += count; encoding += seconds
print(encoding / broadcasts * 1e6)
"""
"""One process's timing, written with names both the splicer and the orjson encoder have."""


def _process_time(src: Path, seed: int, floor: float) -> float:
    """Microseconds a broadcast in a fresh process importing croupier from ``src``."""
    out = subprocess.run(
        [sys.executable, "-c", _LOOP, str(seed), str(floor)],
        env={**os.environ, "PYTHONPATH": str(src)},
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def _messages_read_back(seed: int) -> tuple[bool, int]:
    """Every message of some hands, read back as a ViewMessage equal to the engine's view."""
    import random

    from croupier.poker import HOLDEM, HandState, NoLimit, TableRules
    from croupier.poker.policies import RandomPolicy
    from croupier.server.outgoing import ViewFrame
    from croupier.server.protocol import ViewMessage, read_server_message

    rules = TableRules(HOLDEM, NoLimit(), blinds=(1, 2), table_minimum=2)
    rng = random.Random(seed)
    policy = RandomPolicy(rng)
    checked, good = 0, True
    for number in range(20):
        hand = HandState(rules, dict.fromkeys(range(1, 7), 200), number % 6 + 1, rng=rng)
        while True:
            frame = ViewFrame(
                hand.view_for(None), table="t", hand=number, kind="poker", time_left=None,
                commitment=None, names={},
            )  # fmt: skip
            for seat in (*hand.stacks, None):
                view = hand.view_for(seat)
                message = read_server_message(frame.message(view, 0))
                good &= isinstance(message, ViewMessage) and message.view == view.to_dict()
                checked += 1
            if hand.is_complete:
                break
            seat = hand.actor
            hand.apply(policy(hand.view_for(seat)).for_seat(seat))
    return good, checked


def run(cfg: Config, baseline: str | None = None) -> BenchResult:
    """Measure; see the module docstring."""
    res = BenchResult(NAME, TITLE)
    floor = 0.3 if cfg.quick else 1.0
    current_src = Path(__file__).resolve().parent.parent / "src"
    rev = baseline or os.environ.get(BASELINE_ENV)
    now: list[float] = []
    then: list[float] = []
    remove = None
    try:
        base_src = None
        if rev:
            base_src, remove = _worktree(rev)
        for i in range(cfg.pairs):
            now.append(_process_time(current_src, cfg.seed + i, floor))
            if base_src is not None:
                then.append(_process_time(base_src, cfg.seed + i, floor))
    finally:
        if remove is not None:
            remove()
    med, low, high = spread(now)
    res.info.append(
        f"now: {med:.1f} us a broadcast of ten views ({low:.1f}-{high:.1f}), "
        f"{cfg.pairs} fresh processes of {floor} s"
    )
    if then:
        ratios = [b / a for a, b in zip(now, then, strict=True)]
        r_med, r_low, r_high = spread(ratios)
        res.info.append(
            f"at {rev}: {spread(then)[0]:.1f} us a broadcast; {rev} / now "
            f"{r_med:.2f}x ({r_low:.2f}-{r_high:.2f}), alternating pairs"
        )
    else:
        res.skipped.append(
            f"baseline: name an older commit with --baseline REV or {BASELINE_ENV}=REV "
            "(issue 26 measures against today's splicer)"
        )
    good, checked = _messages_read_back(cfg.seed)
    res.checks.append(
        Check("every message reads back as the engine's view", good, f"{checked:,} messages")
    )
    return res


def main(argv: list[str] | None = None) -> int:
    """Run this benchmark alone and print its block."""
    from benchmarks._report import run_one

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="shorter timings")
    parser.add_argument("--baseline", metavar="REV", help="also time the encoder at this commit")
    args = parser.parse_args(argv)
    result = run_one(lambda cfg: run(cfg, args.baseline), Config(quick=args.quick))
    return 0 if all(c.passed for c in result.checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
