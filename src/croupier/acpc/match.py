"""Duplicate matches between two bots, reported in milli-big-blinds a hand.

A bot is a built-in policy's name (:data:`~croupier.poker.bots.BOTS`,
:data:`~croupier.poker.policies.POLICIES`), ``module:callable`` (a factory taking a
``random.Random`` and returning a policy, as the built-in ones are), or any other text: the
command line of an ACPC program, launched with the dealer's host and port appended (or put
where it writes ``{host}`` and ``{port}``), which connects to its seat's port.

Each deal is played twice, the seats having swapped positions (and so the button and the
cards): bot A's result for the deal is the mean of its two hands. The match reports A's mean
over the deals in milli-big-blinds a hand (1000 x chips / big blind) with a 95 % interval
from the normal approximation (1.96 standard errors of the deals' results).

Every hand of a match between policies depends on the match seed and its number alone
(the deal from the seed and the deal's index, each policy's random source from those and its
position), so a match can be cut into pieces played anywhere: with ``ray`` the hands are
played in pieces of :data:`PIECE_HANDS` on a Ray cluster and put back in order, and a seed
gives the same hands, result and logs as in one process.

>>> summary = run_match("calling-station", "calling-station", hands=20, seed=3)
>>> summary.mbb_per_hand, summary.deals
(0.0, 10)
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import importlib
import io
import math
import random
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from croupier.acpc.dealer import (
    HandRecord,
    MatchLog,
    MatchResult,
    Player,
    PolicyPlayer,
    RemotePlayer,
    play_match,
)
from croupier.acpc.protocol import AcpcGame
from croupier.errors import CroupierError
from croupier.poker.policies import Policy

__all__ = ["BotSpec", "MatchSummary", "builtin_bots", "parse_bot", "run_match", "summarize"]

_PYTHON = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*\Z")

HAND_SECONDS = 0.5e-3
"""A hand's cost between the fastest built-in bots (random against random) on the reference
core (one core of a 2-vCPU x86-64 cloud machine): 200 hands took 0.12 s."""

PIECE_HANDS = 4000
"""Hands a Ray task plays (an even number: whole deals), about two seconds between the
fastest bots (:data:`HAND_SECONDS`, :data:`croupier.distributed.TASK_SECONDS`)."""


def builtin_bots() -> dict[str, Callable[[random.Random], Policy]]:
    """The built-in bots by name (the policies and ``--bot-style`` bots together).

    >>> sorted(builtin_bots())
    ['calling', 'calling-station', 'default', 'hand-strength', 'random']
    """
    from croupier.poker.bots import BOTS
    from croupier.poker.policies import POLICIES

    return {**POLICIES, **BOTS}


@dataclass(frozen=True)
class BotSpec:
    """A bot named on the command line: a policy factory or a program's command line.

    >>> parse_bot("random").kind, parse_bot("./my_bot --fast").argv
    ('policy', ('./my_bot', '--fast'))
    """

    text: str
    """What was written."""
    kind: str
    """``policy`` or ``program``."""
    factory: Callable[[random.Random], Policy] | None = None
    """The policy factory (a policy)."""
    argv: tuple[str, ...] = ()
    """The command line (a program)."""

    def command(self, host: str, port: int) -> list[str]:
        """The program's command line for a dealer on ``host``:``port``.

        >>> parse_bot("bot {port} -h {host}").command("127.0.0.1", 9)
        ['bot', '9', '-h', '127.0.0.1']
        >>> parse_bot("./bot").command("127.0.0.1", 9)
        ['./bot', '127.0.0.1', '9']
        """
        if any("{host}" in a or "{port}" in a for a in self.argv):
            return [a.replace("{host}", host).replace("{port}", str(port)) for a in self.argv]
        return [*self.argv, host, str(port)]


def parse_bot(text: str) -> BotSpec:
    """Read a bot: a built-in name, ``module:callable``, or a program's command line.

    >>> parse_bot("croupier.poker.policies:CallingStation").kind
    'policy'
    >>> parse_bot("no_such_module:bot")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: bot 'no_such_module:bot': no module named 'no_such_module'
    """
    text = text.strip()
    if not text:
        raise CroupierError("a bot cannot be empty")
    bots = builtin_bots()
    if text in bots:
        return BotSpec(text, "policy", factory=bots[text])
    if _PYTHON.match(text):
        module_name, _, attribute = text.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise CroupierError(
                f"bot {text!r}: no module named {exc.name or module_name!r}"
            ) from None
        factory = getattr(module, attribute, None)
        if not callable(factory):
            raise CroupierError(f"bot {text!r}: {module_name} has no callable {attribute!r}")
        return BotSpec(text, "policy", factory=factory)
    try:
        argv = tuple(shlex.split(text))
    except ValueError as exc:
        raise CroupierError(f"bot {text!r}: {exc}") from None
    return BotSpec(text, "program", argv=argv)


@dataclass(frozen=True)
class MatchSummary:
    """Bot A's result over a duplicate match.

    >>> s = summarize(MatchResult(("a", "b")), 100)
    >>> s.hands, s.mbb_per_hand, s.half_width
    (0, 0.0, None)
    """

    names: tuple[str, str]
    """Bots A and B."""
    hands: int
    """Hands played."""
    deals: int
    """Deals (each played twice)."""
    chips: tuple[int, int]
    """Chips won by A and by B (they add up to 0)."""
    mbb_per_hand: float
    """A's mean in milli-big-blinds a hand."""
    half_width: float | None
    """Half the 95 % interval (None with fewer than two deals)."""
    faults: tuple[dict[str, int], dict[str, int]]
    """Each bot's default actions, by cause."""
    seed: int
    """The match seed (the deals)."""

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95 % interval, or None."""
        if self.half_width is None:
            return None
        return (self.mbb_per_hand - self.half_width, self.mbb_per_hand + self.half_width)

    def as_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data."""
        return {
            "bots": list(self.names),
            "hands": self.hands,
            "deals": self.deals,
            "chips": list(self.chips),
            "mbb_per_hand": self.mbb_per_hand,
            "ci95": list(self.interval) if self.interval is not None else None,
            "half_width": self.half_width,
            "faults": [self.faults[0], self.faults[1]],
            "seed": self.seed,
        }

    def text(self) -> str:
        """A two-line report."""
        a, b = self.names
        spread = f" ± {self.half_width:.1f}" if self.half_width is not None else ""
        lines = [
            f"{a} vs {b}: {self.mbb_per_hand:+.1f}{spread} mbb/hand (95 %) for {a} over "
            f"{self.hands} hands ({self.deals} duplicate deals, seed {self.seed})",
            f"chips: {a} {self.chips[0]:+d}, {b} {self.chips[1]:+d}",
        ]
        for name, faults in zip(self.names, self.faults, strict=True):
            given = {k: v for k, v in faults.items() if v}
            if given:
                causes = ", ".join(f"{v} {k}" for k, v in given.items())
                lines.append(f"default actions for {name}: {causes}")
        return "\n".join(lines)


def summarize(result: MatchResult, big_blind: int) -> MatchSummary:
    """Seat 0's result in mbb a hand, the deals' results averaged (see the module).

    >>> from croupier.acpc.dealer import HandRecord
    >>> hands = [HandRecord(0, 0, ("a", "b"), (100, -100)), HandRecord(1, 0, ("b", "a"), (-50, 50)),
    ...          HandRecord(2, 1, ("a", "b"), (0, 0)), HandRecord(3, 1, ("b", "a"), (10, -10))]
    >>> summarize(MatchResult(("a", "b"), hands), 100).mbb_per_hand
    150.0
    """
    per_deal: dict[int, list[int]] = {}
    for record in result.hands:
        per_deal.setdefault(record.deal, []).append(record.results[0])
    values = [1000 * sum(v) / len(v) / big_blind for v in per_deal.values()]
    n = len(values)
    mean = math.fsum(values) / n if n else 0.0
    half: float | None = None
    if n >= 2:
        variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
        half = 1.96 * math.sqrt(variance / n)
    totals = result.totals
    faults = (
        result.faults[0] if result.faults else {},
        result.faults[1] if len(result.faults) > 1 else {},
    )
    return MatchSummary(
        result.names, len(result.hands), n, (totals[0], totals[1]), mean, half, faults, result.seed
    )


def _cannot_start(spec: BotSpec, exc: OSError) -> CroupierError:
    """A program that cannot start, with the closest built-in bot's name when the text
    looks like a mistyped one."""
    message = f"bot {spec.text!r} cannot start: {exc.strerror or exc}"
    close = difflib.get_close_matches(spec.text, builtin_bots(), n=1)
    if close:
        message += f" (did you mean the built-in bot {close[0]!r}?)"
    return CroupierError(message)


async def _accept(
    player: RemotePlayer, process: asyncio.subprocess.Process, timeout: float
) -> str | None:
    """Wait for ``process`` to connect to ``player``'s port: None once it has, else why not
    (a program that exits first is reported at once, not after ``timeout``)."""
    accepting = asyncio.ensure_future(player.accept(timeout))
    exiting = asyncio.ensure_future(process.wait())
    try:
        await asyncio.wait((accepting, exiting), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (accepting, exiting):
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
    if accepting.done() and not accepting.cancelled():
        return None if accepting.result() else player.problem
    return f"exited with code {process.returncode} before connecting to port {player.port}"


async def _run(
    specs: Sequence[BotSpec],
    names: Sequence[str],
    game: AcpcGame,
    hands: int,
    seed: int,
    action_time: float,
    hand_time: float,
    connect_time: float,
    host: str,
    log: MatchLog | None,
) -> MatchResult:
    players: list[Player] = []
    processes: list[asyncio.subprocess.Process] = []
    launched: list[tuple[RemotePlayer, asyncio.subprocess.Process]] = []
    try:
        for spec, name in zip(specs, names, strict=True):
            if spec.factory is not None:
                players.append(PolicyPlayer(name, spec.factory))
                continue
            remote = RemotePlayer(name)
            port = await remote.listen(host, 0)
            try:
                process = await asyncio.create_subprocess_exec(
                    *spec.command(host, port),
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=asyncio.subprocess.DEVNULL,
                )
            except OSError as exc:
                await remote.close()
                raise _cannot_start(spec, exc) from None
            processes.append(process)
            players.append(remote)
            launched.append((remote, process))
        for remote, process in launched:
            problem = await _accept(remote, process, connect_time)
            if problem is not None:
                raise CroupierError(f"bot {remote.name!r}: {problem}")
        return await play_match(
            game,
            players,
            hands,
            seed=seed,
            duplicate=True,
            action_time=action_time,
            hand_time=hand_time,
            log=log,
        )
    finally:
        for player in players:
            await player.close()
        for process in processes:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 5)
            if process.returncode is None:
                process.kill()
                await process.wait()


def run_match(
    a: str | BotSpec,
    b: str | BotSpec,
    *,
    hands: int,
    game: AcpcGame | None = None,
    seed: int | None = None,
    action_time: float = 10.0,
    hand_time: float = 60.0,
    connect_time: float = 30.0,
    host: str = "127.0.0.1",
    log: MatchLog | None = None,
    ray: str | None = None,
) -> MatchSummary:
    """Play bots ``a`` and ``b`` in duplicate for ``hands`` hands (an even number) and
    summarize ``a``'s result (see the module; ``seed`` None: a random one). With ``ray``
    (an address, see :mod:`croupier.distributed`) the hands are played in pieces on a Ray
    cluster (policies only: an ACPC program plays in this process), with the same result.

    >>> run_match("random", "calling", hands=3)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: hands must be a positive even number (each deal is played twice), not 3
    """
    if type(hands) is not int or hands < 2 or hands % 2:
        raise CroupierError(
            f"hands must be a positive even number (each deal is played twice), not {hands!r}"
        )
    specs = [s if isinstance(s, BotSpec) else parse_bot(s) for s in (a, b)]
    names = [s.text for s in specs]
    if names[0] == names[1]:
        names = [f"{names[0]} (A)", f"{names[1]} (B)"]
    game = game if game is not None else AcpcGame.nolimit()
    seed = seed if seed is not None else random.SystemRandom().getrandbits(32)
    if ray is not None:
        for spec in specs:
            if spec.factory is None:
                raise CroupierError(
                    f"bot {spec.text!r} is a program: --ray plays built-in and "
                    "module:callable bots (a program plays without --ray)"
                )
        result = _play_on_ray(specs, (names[0], names[1]), game, hands, seed, log, ray)
        return summarize(result, game.big_blind)
    result = asyncio.run(
        _run(specs, names, game, hands, seed, action_time, hand_time, connect_time, host, log)
    )
    return summarize(result, game.big_blind)


class _PieceLog(MatchLog):
    """A piece of a match's log: its hands, without the header and the score."""

    def header(self, game: AcpcGame, names: Sequence[str], hands: int, seed: int) -> None:
        return None

    def score(self, result: MatchResult) -> None:
        return None


_Piece = tuple[str, str, tuple[str, str], AcpcGame, int, int, int, bool, bool]


def _play_piece(
    piece: _Piece,
) -> tuple[list[HandRecord], list[dict[str, int]], str, str]:
    """Play hands ``first`` to ``first + count - 1`` of a match between two policies: their
    records, the faults, and the ACPC and PHH log text (when asked for)."""
    a, b, names, game, seed, first, count, acpc, phh = piece
    players: list[Player] = []
    for text, name in zip((a, b), names, strict=True):
        factory = parse_bot(text).factory
        assert factory is not None  # checked before the pieces were sent
        players.append(PolicyPlayer(name, factory))
    acpc_text = io.StringIO() if acpc else None
    phh_text = io.StringIO() if phh else None
    result = asyncio.run(
        play_match(
            game,
            players,
            count,
            seed=seed,
            duplicate=True,
            log=_PieceLog(acpc_text, phh_text),
            first=first,
        )
    )
    return (
        result.hands,
        result.faults,
        acpc_text.getvalue() if acpc_text is not None else "",
        phh_text.getvalue() if phh_text is not None else "",
    )


def _play_on_ray(
    specs: Sequence[BotSpec],
    names: tuple[str, str],
    game: AcpcGame,
    hands: int,
    seed: int,
    log: MatchLog | None,
    address: str,
) -> MatchResult:
    """The match of :func:`run_match` played in pieces on the Ray cluster at ``address``."""
    from croupier.distributed import run_chunks

    acpc = log is not None and log.acpc is not None
    phh = log is not None and log.phh is not None
    pieces: list[_Piece] = [
        (specs[0].text, specs[1].text, names, game, seed, first, min(PIECE_HANDS, hands - first),
         acpc, phh)
        for first in range(0, hands, PIECE_HANDS)
    ]  # fmt: skip
    played = run_chunks(_play_piece, pieces, address=address)
    result = MatchResult(names, seed=seed)
    result.faults = [dict.fromkeys(Player("").faults, 0) for _ in names]
    if log is not None:
        log.header(game, names, hands, seed)
    for records, faults, acpc_text, phh_text in played:
        result.hands.extend(records)
        for total, piece_faults in zip(result.faults, faults, strict=True):
            for cause, count in piece_faults.items():
                total[cause] = total.get(cause, 0) + count
        if log is not None and log.acpc is not None:
            log.acpc.write(acpc_text)
        if log is not None and log.phh is not None:
            log.phh.write(phh_text)
    if log is not None:
        log.score(result)
    return result
