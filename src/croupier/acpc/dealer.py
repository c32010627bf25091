"""The ACPC dealer: a heads-up hold'em match served over TCP, one port a seat, as ACPC's
own ``dealer`` serves it.

Seat ``i`` of the match listens on its own port; the first program to connect there sits in
seat ``i`` (a later connection is refused). A program's first line is ``VERSION:2.0.0``;
then it receives every ``MATCHSTATE`` line of every hand (``\\r\\n``-terminated) and, when
it is to act, answers with the state it was sent, ``:`` and its action. Seats swap
positions every hand (ACPC's rotation, position = (seat - hand) mod 2), so the button
alternates. In-process policies (:class:`PolicyPlayer`) sit beside remote programs
(:class:`RemotePlayer`) and see the referee's seat view instead of the text.

A player that answers late (``action_time`` a decision, ``hand_time`` a hand in all),
disconnects, or sends a line that is not the state it was sent followed by an action, gets
the default action (check if free, else fold) and the match goes on; a disconnected player
gets it for the rest of the match. A late answer to a state already played is skipped.

>>> import asyncio
>>> from croupier.acpc.protocol import AcpcGame
>>> from croupier.poker.policies import CallingStation
>>> players = [PolicyPlayer("a", CallingStation), PolicyPlayer("b", CallingStation)]
>>> result = asyncio.run(play_match(AcpcGame.nolimit(), players, 4, seed=1, duplicate=True))
>>> result.totals, len(result.hands)
([0, 0], 4)
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import tomli_w

from croupier.acpc.protocol import (
    VERSION,
    AcpcGame,
    AcpcHand,
    acpc_to_action,
    default_action,
    position_of,
)
from croupier.cards.deck import Deck
from croupier.errors import CroupierError
from croupier.poker.actions import Action
from croupier.poker.policies import Policy

__all__ = [
    "HandRecord",
    "MatchLog",
    "MatchResult",
    "Player",
    "PolicyPlayer",
    "RemotePlayer",
    "derived_seed",
    "play_match",
]


_HAND = re.compile(r"MATCHSTATE:\d{1,3}:(\d{1,12}):")


def derived_seed(*parts: object) -> int:
    """A 64-bit seed made from ``parts`` (the match seed, the deal, the position): the same
    parts give the same seed on every machine.

    >>> derived_seed(1, 2) == derived_seed(1, 2) != derived_seed(2, 1)
    True
    """
    text = ":".join(str(p) for p in ("croupier-acpc", *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class Player:
    """A seat's player: a remote program or an in-process policy.

    >>> Player("x").name, Player("x").faults
    ('x', {'timeout': 0, 'garbage': 0, 'disconnected': 0, 'refused': 0, 'error': 0})
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.faults: dict[str, int] = dict.fromkeys(
            ("timeout", "garbage", "disconnected", "refused", "error"), 0
        )
        """How many default actions the player was given, by cause (``refused``: a policy's
        answer the rules refuse or that is no action; ``error``: a policy that raised)."""

    def begin_hand(self, number: int, position: int, rng: random.Random) -> None:
        """A new hand starts with the player in ``position``; ``rng`` is its random source
        for the hand (the same for the same deal and position)."""

    async def send(self, state: str) -> None:
        """Tell the player a state (every state of the hand, its turn or not)."""

    async def respond(self, state: str, hand: AcpcHand, timeout: float) -> str | Action | None:
        """The player's answer to ``state`` (its turn): an ACPC action text, an action, or
        None (no usable answer: the default action)."""
        return None

    async def close(self) -> None:
        """Release the player (close its connection)."""


class PolicyPlayer(Player):
    """An in-process policy: ``factory`` makes the policy from a random source, afresh
    every hand from a seed of the match seed, the deal and the position, so the two plays
    of a duplicate deal see the same randomness. It is not timed. A policy that raises gets
    the default action (an ``error`` fault); one that answers None, a ``refused`` one.

    >>> from croupier.poker.policies import CallingStation
    >>> PolicyPlayer("station", CallingStation).name
    'station'
    """

    def __init__(self, name: str, factory: Callable[[random.Random], Policy]) -> None:
        super().__init__(name)
        self._factory = factory
        self._policy: Policy | None = None

    def begin_hand(self, number: int, position: int, rng: random.Random) -> None:
        self._policy = self._factory(rng)

    async def respond(self, state: str, hand: AcpcHand, timeout: float) -> str | Action | None:
        policy = self._policy
        seat = hand.hand.actor
        if policy is None or seat is None:
            return None
        try:
            answer = policy(hand.hand.view_for(seat))
        except Exception:  # a policy's bug is its loss, not the match's
            self.faults["error"] += 1
            return None
        if answer is None:
            self.faults["refused"] += 1
        return answer


class RemotePlayer(Player):
    """A program speaking the ACPC protocol on its own port.

    >>> RemotePlayer("bot").connected
    False
    """

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._server: asyncio.Server | None = None
        self._arrived: asyncio.Future[tuple[asyncio.StreamReader, asyncio.StreamWriter]] | None
        self._arrived = None
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._sent: set[str] = set()
        self._hand = 0
        self.port = 0
        """The port listened on (once :meth:`listen` has run)."""
        self.problem = ""
        """Why the player is not connected, if it is not."""

    @property
    def connected(self) -> bool:
        """Whether the program is connected and speaking the protocol."""
        return self._writer is not None

    async def listen(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen for the seat's program; return the port (``port`` 0: a free one)."""
        loop = asyncio.get_running_loop()
        self._arrived = loop.create_future()

        def arrive(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            if self._arrived is not None and not self._arrived.done():
                self._arrived.set_result((reader, writer))
            else:  # the seat is taken
                writer.close()

        self._server = await asyncio.start_server(arrive, host, port, limit=1 << 16)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self.port

    async def accept(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the program and its ``VERSION`` line."""
        if self._arrived is None:
            raise CroupierError("listen() before accept()")
        try:
            reader, writer = await asyncio.wait_for(asyncio.shield(self._arrived), timeout)
        except TimeoutError:
            self.problem = f"no program connected to port {self.port} in {timeout:g} s"
            return False
        finally:
            if self._server is not None:
                self._server.close()
        try:
            line = await asyncio.wait_for(reader.readline(), timeout)
        except (TimeoutError, ValueError, ConnectionError):
            line = b""
        if not line.decode("ascii", "replace").strip().startswith("VERSION:2."):
            self.problem = f"the program on port {self.port} sent no VERSION:{VERSION} line"
            writer.close()
            return False
        self._reader, self._writer = reader, writer
        return True

    def begin_hand(self, number: int, position: int, rng: random.Random) -> None:
        self._hand, self._sent = number, set()

    def _stale(self, echoed: str) -> bool:
        """Whether ``echoed`` is a state of this player's already played (a late answer)."""
        if echoed in self._sent:
            return True
        match = _HAND.match(echoed)
        return match is not None and int(match[1]) < self._hand

    async def send(self, state: str) -> None:
        writer = self._writer
        if writer is None:
            return
        self._sent.add(state)
        try:
            writer.write(state.encode("ascii") + b"\r\n")
            await writer.drain()
        except (ConnectionError, OSError):
            self._drop()

    def _drop(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None
        self.problem = self.problem or "disconnected"

    async def respond(self, state: str, hand: AcpcHand, timeout: float) -> str | Action | None:
        reader = self._reader
        if reader is None:
            self.faults["disconnected"] += 1
            return None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0:
                self.faults["timeout"] += 1
                return None
            try:
                line = await asyncio.wait_for(reader.readline(), left)
            except TimeoutError:
                self.faults["timeout"] += 1
                return None
            except (ValueError, asyncio.LimitOverrunError):  # a line past 64 KiB
                self.faults["garbage"] += 1
                self._drop()
                return None
            except (ConnectionError, OSError):
                line = b""
            if not line.endswith(b"\n"):  # end of stream
                self.faults["disconnected"] += 1
                self._drop()
                return None
            text = line.decode("ascii", "replace").rstrip("\r\n")
            if not text or text.startswith("#") or text.startswith(";"):
                continue  # ACPC's comment lines
            echoed, _, action = text.rpartition(":")
            if echoed == state:
                return action
            if self._stale(echoed):
                continue  # a late answer to a state already played
            self.faults["garbage"] += 1
            return None

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        writer = self._writer
        self._reader = self._writer = None
        if writer is not None:
            writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await writer.wait_closed()


@dataclass(frozen=True)
class HandRecord:
    """One hand of a match: its number, its deal, who sat where and the chips won.

    >>> HandRecord(0, 0, ("a", "b"), (-50, 50)).by_position
    ('a', 'b')
    """

    number: int
    """The hand's number (ACPC's hand id)."""
    deal: int
    """The deal's index (in a duplicate match, hands 2k and 2k + 1 share deal k)."""
    by_position: tuple[str, str]
    """The players' names, position 0 first."""
    results: tuple[int, int]
    """Chips won by match seats 0 and 1."""


@dataclass
class MatchResult:
    """A match's outcome, in match-seat order.

    >>> MatchResult(("a", "b")).totals
    [0, 0]
    """

    names: tuple[str, str]
    """The players in seats 0 and 1."""
    hands: list[HandRecord] = field(default_factory=list)
    """Every hand played."""
    faults: list[dict[str, int]] = field(default_factory=list)
    """Each seat's default actions by cause."""
    seed: int = 0
    """The match seed."""

    @property
    def totals(self) -> list[int]:
        """Chips won by each seat over the match."""
        return [sum(h.results[s] for h in self.hands) for s in (0, 1)]

    def score_line(self) -> str:
        """ACPC's ``SCORE:<chips>|<chips>:<name>|<name>`` line (seat order, no newline).

        >>> MatchResult(("a", "b"), [HandRecord(0, 0, ("a", "b"), (-50, 50))]).score_line()
        'SCORE:-50|50:a|b'
        """
        totals = "|".join(str(t) for t in self.totals)
        return f"SCORE:{totals}:{'|'.join(self.names)}"


class MatchLog:
    """Writes a match as it goes: ACPC's log (``STATE:`` lines, then ``SCORE:``) and PHH
    (one ``.phhs`` table a hand, players named, replayable by :mod:`croupier.phh`).

    >>> import io
    >>> acpc, phh = io.StringIO(), io.StringIO()
    >>> log = MatchLog(acpc, phh)
    >>> hand = AcpcHand(AcpcGame.limit(), 0, seed=1); _ = hand.play("f")
    >>> log.write(hand, ("a", "b")); acpc.getvalue()
    'STATE:0:f:...|...:5|-5:a|b\\n'
    """

    def __init__(self, acpc: TextIO | None = None, phh: TextIO | None = None) -> None:
        self.acpc = acpc
        self.phh = phh

    @classmethod
    def to_files(cls, acpc: str | Path | None, phh: str | Path | None) -> MatchLog:
        """A log writing to the files named (None: that form is not written); if one cannot
        be opened, the other is closed again."""
        with contextlib.ExitStack() as opened:
            streams = [
                opened.enter_context(open(path, "w", encoding="utf-8"))
                if path is not None
                else None
                for path in (acpc, phh)
            ]
            opened.pop_all()
        return cls(*streams)

    def header(self, game: AcpcGame, names: Sequence[str], hands: int, seed: int) -> None:
        """ACPC's comment lines at the top of the log."""
        if self.acpc is not None:
            self.acpc.write(f"# name/game/hands/seed {'.'.join(names)} {game.structure} ")
            self.acpc.write(f"{hands} {seed}\n#--t_response 0\n#--t_hand 0\n#--t_per_hand 0\n")

    def write(self, hand: AcpcHand, by_position: Sequence[str]) -> None:
        """Log one finished hand."""
        if self.acpc is not None:
            self.acpc.write(hand.log_state(by_position) + "\n")
        if self.phh is not None:
            from croupier.phh.writer import hand_to_fields

            fields = {**hand_to_fields(hand.hand), "hand": hand.number}
            fields["players"] = list(by_position)  # p1 is seat 1, position 0
            self.phh.write(tomli_w.dumps({str(hand.number + 1): fields}) + "\n")

    def score(self, result: MatchResult) -> None:
        """ACPC's last line: each player's total, seat order."""
        if self.acpc is not None:
            self.acpc.write(result.score_line() + "\n")

    def close(self) -> None:
        """Close the files."""
        for stream in (self.acpc, self.phh):
            if stream is not None:
                stream.close()


async def play_match(
    game: AcpcGame,
    players: Sequence[Player],
    hands: int,
    *,
    seed: int = 0,
    duplicate: bool = False,
    action_time: float = 10.0,
    hand_time: float = 60.0,
    deal: Callable[[int], Deck] | None = None,
    log: MatchLog | None = None,
    first: int = 0,
) -> MatchResult:
    """Play ``hands`` hands between two players (seats 0 and 1) and return the result.

    Hand ``h`` is dealt from a seed of ``seed`` and the deal index (``h // 2`` when
    ``duplicate``: each deal is played twice, the seats having swapped positions), or from
    ``deal(h)`` when given (a stacked deck). ``action_time`` and ``hand_time`` (seconds)
    bound a remote player's answer and its thinking over one hand. ``first`` numbers the
    first hand (the hands are ``first`` to ``first + hands - 1``): a policy player's hand
    depends on its number and the seed alone, so a match can be played in pieces.
    """
    if len(players) != 2:
        raise CroupierError(f"a match is heads up: 2 players, not {len(players)}")
    if type(hands) is not int or hands < 0:
        raise CroupierError(f"hands must be a whole number, not {hands!r}")
    if type(first) is not int or first < 0:
        raise CroupierError(f"first must be a whole number, not {first!r}")
    if action_time <= 0 or hand_time <= 0:
        raise CroupierError("time limits must be positive")
    result = MatchResult((players[0].name, players[1].name), seed=seed)
    if log is not None:
        log.header(game, result.names, hands, seed)
    for number in range(first, first + hands):
        index = number // 2 if duplicate else number
        deck = deal(number) if deal is not None else None
        hand = AcpcHand(game, number, deck=deck, seed=None if deck else derived_seed(seed, index))
        seat_at = [0, 0]  # the match seat in each position
        for s, player in enumerate(players):
            where = position_of(s, number)
            seat_at[where] = s
            player.begin_hand(number, where, random.Random(derived_seed(seed, index, where)))
        by_position = (players[seat_at[0]].name, players[seat_at[1]].name)
        used = [0.0, 0.0]

        async def tell(hand: AcpcHand = hand, seat_at: list[int] = seat_at) -> None:
            for p in (0, 1):
                await players[seat_at[p]].send(hand.match_state(p))

        await tell()
        while not hand.finished:
            actor = hand.actor
            assert actor is not None
            position: int = actor
            player = players[seat_at[position]]
            budget = max(0.0, min(action_time, hand_time - used[position]))
            started = time.monotonic()
            answer = await player.respond(hand.match_state(position), hand, budget)
            used[position] += time.monotonic() - started
            action: Action | None
            if isinstance(answer, str):
                action = acpc_to_action(answer, hand.hand, game.nolimit_betting)
                if action is None:
                    player.faults["garbage"] += 1
            elif isinstance(answer, Action):
                action = answer if hand.hand.can(answer) else None
                if action is None:
                    player.faults["refused"] += 1
            else:  # no answer (counted by the player), or something that is no action
                if answer is not None:
                    player.faults["refused"] += 1
                action = None
            hand.apply(action if action is not None else default_action(hand.hand))
            await tell()
        won = hand.results()
        record = HandRecord(
            number, index, by_position, (won[position_of(0, number)], won[position_of(1, number)])
        )
        result.hands.append(record)
        if log is not None:
            log.write(hand, by_position)
    result.faults = [dict(p.faults) for p in players]
    if log is not None:
        log.score(result)
    return result
