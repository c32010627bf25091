"""Throttling guesses: attempts counted per key (an account, a client address) in a sliding
window, a lock-out with a growing back-off, and a bounded pool for password hashing.

An attempt counts the moment it starts (fifty guesses sent at once are fifty attempts,
not five that pass while the others are still hashing). When a key has made ``limit``
attempts within ``window`` seconds it is locked out for ``window`` seconds, then twice
that after the next ``limit`` attempts, four times, ... up to a day. A success forgets
the key (``reset``) or just its own attempt (``refund``: a client address's other
guesses stay counted). Throttles live in the process: several server processes each
count their own.

>>> now = [0.0]
>>> throttle = Throttle(limit=2, window=60, clock=lambda: now[0])
>>> [throttle.attempt("ann") for _ in range(3)]
[0.0, 0.0, 60.0]
>>> now[0] = 61; throttle.attempt("ann"), throttle.attempt("ann"), throttle.attempt("ann")
(0.0, 0.0, 120.0)
>>> throttle.reset("ann"); throttle.attempt("ann")
0.0
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import ParamSpec, TypeVar

from croupier.errors import CroupierError

__all__ = ["MAX_LOCKOUT", "BusyError", "HashPool", "Throttle", "ThrottleSettings"]

_P = ParamSpec("_P")
_R = TypeVar("_R")

MAX_LOCKOUT = 24 * 3600.0
"""The longest lock-out, in seconds, however often a key is locked out."""


@dataclass(frozen=True)
class ThrottleSettings:
    """How many guesses the card room allows: failed logins per account and per client
    address within ``login_window`` seconds, registrations per address within
    ``registration_window`` seconds, and how many password hashes may wait for the
    hashing pool (``hash_queue``) behind its ``hash_workers`` threads.

    >>> ThrottleSettings().login_per_account
    5
    """

    login_per_account: int = 5
    login_per_address: int = 20
    login_window: float = 15 * 60.0
    registrations_per_address: int = 10
    registration_window: float = 3600.0
    hash_workers: int = 1
    hash_queue: int = 8

    def __post_init__(self) -> None:
        for name in ("login_per_account", "login_per_address", "registrations_per_address"):
            if getattr(self, name) < 1:
                raise CroupierError(f"throttle: {name} is at least 1")
        if self.login_window <= 0 or self.registration_window <= 0:
            raise CroupierError("throttle: a window is a positive number of seconds")
        if self.hash_workers < 1 or self.hash_queue < 0:
            raise CroupierError("throttle: hash_workers >= 1 and hash_queue >= 0")


@dataclass
class _Key:
    attempts: collections.deque[float] = field(default_factory=collections.deque)
    locked_until: float = 0.0
    strikes: int = 0
    last: float = 0.0


class Throttle:
    """Attempts per key in a sliding window, with lock-outs that double (see the module
    docstring). ``max_keys`` bounds the memory: the longest-idle keys are forgotten first.

    >>> Throttle(limit=0, window=1)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: a throttle allows at least 1 attempt in a positive window
    """

    def __init__(
        self,
        limit: int,
        window: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        if limit < 1 or window <= 0:
            raise CroupierError("a throttle allows at least 1 attempt in a positive window")
        self.limit, self.window, self._clock, self._max_keys = limit, float(window), clock, max_keys
        self._keys: collections.OrderedDict[str, _Key] = collections.OrderedDict()

    def _entry(self, key: str, now: float) -> _Key:
        entry = self._keys.pop(key, None)
        if entry is None:
            entry = _Key()
        elif now - entry.last > MAX_LOCKOUT and now >= entry.locked_until:
            entry = _Key()  # a day of quiet: the back-off starts again
        entry.last = now
        self._keys[key] = entry  # the most recently used last
        while len(self._keys) > self._max_keys:
            self._keys.popitem(last=False)
        return entry

    def attempt(self, key: str) -> float:
        """Count an attempt by ``key``: 0 when it may go ahead, else the seconds it must
        wait (the attempt is then not counted)."""
        now = self._clock()
        entry = self._entry(key, now)
        if now < entry.locked_until:
            return entry.locked_until - now
        while entry.attempts and entry.attempts[0] <= now - self.window:
            entry.attempts.popleft()
        if len(entry.attempts) >= self.limit:
            lockout = min(MAX_LOCKOUT, float(self.window) * (1 << min(entry.strikes, 20)))
            entry.strikes += 1
            entry.attempts.clear()
            entry.locked_until = now + lockout
            return lockout
        entry.attempts.append(now)
        return 0.0

    def refund(self, key: str) -> None:
        """Take back ``key``'s latest attempt (it succeeded)."""
        entry = self._keys.get(key)
        if entry is not None and entry.attempts:
            entry.attempts.pop()

    def reset(self, key: str) -> None:
        """Forget ``key`` (its owner proved who he is)."""
        self._keys.pop(key, None)


class BusyError(CroupierError):
    """The hashing pool's queue is full: try again in a moment.

    >>> str(BusyError("busy"))
    'busy'
    """


class HashPool:
    """Runs password hashing (argon2) on ``workers`` threads of its own, with at most
    ``queue`` calls waiting: a flood of logins waits here, or is refused at once
    (:class:`BusyError`), and never takes the event loop or the default thread pool from
    the tables.

    >>> async def main():
    ...     pool = HashPool(workers=1, queue=0)
    ...     return await pool.run(sum, [1, 2])
    >>> asyncio.run(main())
    3
    """

    def __init__(self, workers: int = 1, queue: int = 8) -> None:
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hash")
        self._capacity = workers + queue
        self._in_flight = 0

    async def run(self, work: Callable[_P, _R], /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        """``work(*args, **kwargs)`` on a hashing thread; :class:`BusyError` when the queue is full."""
        if self._in_flight >= self._capacity:
            raise BusyError("the server is busy checking passwords: try again in a moment")
        self._in_flight += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, lambda: work(*args, **kwargs))
        finally:
            self._in_flight -= 1

    def close(self) -> None:
        """Stop the threads (calls under way finish)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
