"""A minimal ACPC 2.0.0 client over a raw socket, for the tests (and runnable as a program:
``python acpc_client.py [--raise] HOST PORT``).

It knows ACPC's heads-up reverse-blinds hold'em only as far as the protocol needs: whose
turn it is (the button, position 1, first before the flop; position 0 first after it) and
when a hand is over (a fold, or both hole cards shown).
"""

from __future__ import annotations

import random
import socket
import sys
from collections.abc import Callable


def parse(state: str) -> tuple[int, int, str, str]:
    """Position, hand number, betting and cards of a MATCHSTATE line."""
    _, position, hand, betting, cards = state.split(":")
    return int(position), int(hand), betting, cards


def to_act(state: str) -> int | None:
    """The position to act, or None when the hand is over."""
    _, _, betting, cards = parse(state)
    holes = cards.split("/")[0].split("|")
    if betting.endswith("f") or all(holes):
        return None
    rounds = betting.split("/")
    current = len(rounds) - 1
    n = sum(1 for ch in rounds[-1] if ch in "fcr")
    first = 1 if current == 0 else 0
    return first if n % 2 == 0 else 1 - first


Chooser = Callable[[str], "str | None"]


def play(
    port: int,
    choose: Chooser,
    *,
    host: str = "127.0.0.1",
    version: str = "VERSION:2.0.0",
    seen: list[str] | None = None,
    stop_after: int | None = None,
) -> None:
    """Connect, say the version, and answer every state this position is to act in with
    ``choose(state)`` (None: say nothing). ``stop_after``: hang up after that many states."""
    try:
        _play(host, port, choose, version, seen, stop_after)
    except OSError:  # the dealer hung up (the match is over)
        return


def _play(
    host: str,
    port: int,
    choose: Chooser,
    version: str,
    seen: list[str] | None,
    stop_after: int | None,
) -> None:
    with socket.create_connection((host, port), timeout=30) as sock:
        stream = sock.makefile("rwb")
        stream.write(version.encode() + b"\r\n")
        stream.flush()
        count = 0
        for raw in stream:
            state = raw.decode("ascii").rstrip("\r\n")
            if seen is not None:
                seen.append(state)
            count += 1
            if stop_after is not None and count >= stop_after:
                return
            position = parse(state)[0]
            if to_act(state) != position:
                continue
            reply = choose(state)
            if reply is not None:
                stream.write(reply.encode() + b"\r\n")
                stream.flush()


def echo(action: str) -> Chooser:
    """A chooser answering ``action`` every time."""
    return lambda state: f"{state}:{action}"


def raiser(rng: random.Random) -> Chooser:
    """Calls, and now and then raises (no limit: to a hand total it works out itself)."""

    def choose(state: str) -> str:
        _, _, betting, _ = parse(state)
        if rng.random() < 0.3:
            totals = [int(t) for t in _raises(betting)]
            target = (max(totals) if totals else 100) + rng.choice([100, 250, 1000])
            return f"{state}:r{min(target, 20000)}"
        return f"{state}:c"

    return choose


def _raises(betting: str) -> list[str]:
    out, digits, in_raise = [], "", False
    for ch in betting + " ":
        if ch.isdigit() and in_raise:
            digits += ch
            continue
        if in_raise and digits:
            out.append(digits)
        digits, in_raise = "", ch == "r"
    return out


def broken_policy(rng: random.Random) -> Callable[[object], object]:
    """A policy factory (``acpc_client:broken_policy`` for ``croupier match``) whose policy
    raises every time it is asked."""

    def policy(view: object) -> object:
        raise RuntimeError("a bug in the bot")

    return policy


if __name__ == "__main__":
    args = sys.argv[1:]
    aggressive = "--raise" in args
    args = [a for a in args if a != "--raise"]
    chooser = raiser(random.Random(7)) if aggressive else echo("c")
    play(int(args[1]), chooser, host=args[0])
