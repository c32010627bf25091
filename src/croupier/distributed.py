"""Runs past one machine: deterministic work chunks, run here or fanned out on Ray.

A long run (``croupier poker simulate``, ``croupier blackjack simulate``, ``croupier
match``) is cut into **chunks** whose number and sizes depend on the job alone (hands or
rounds, players), never on the machine, the worker count or timing; each chunk carries its
own seed, spawned from the run's seed and the chunk's index. Results come back in chunk
order and are merged with exact integer arithmetic (chips, counts, sums of squares), so a
seed gives the same result in one process, over a process pool, or on a Ray cluster.

On Ray (the ``ray`` extra, imported only when asked for), consecutive chunks are grouped
into **tasks** of at least a second of work each: a run estimates a chunk's cost from a
per-unit cost measured on a reference core and documented next to it (its own
``*_SECONDS`` constants), and :func:`chunks_per_task` turns that into a fixed number of
chunks a task, aiming at :data:`TASK_SECONDS` (twice the one-second floor, so a core up to
twice as fast still spends a second on a task). The grouping is arithmetic on the job's
size alone: it changes where chunks run, never what they compute.

>>> def square(x: int) -> int:
...     return x * x
>>> run_chunks(square, [1, 2, 3])                # no address: here, in chunk order
[1, 4, 9]
>>> chunks_per_task(0.25), chunks_per_task(5.0)  # a task holds about two seconds of work
(8, 1)

``address`` picks the cluster: ``HOST:PORT`` (a head's GCS port, 6379 by default, as
``ray start --head`` prints), ``ray://HOST:PORT`` (Ray Client), ``auto`` (the cluster this
machine belongs to), ``local`` (a fresh cluster in this process), or the empty string (Ray's
own choice: ``$RAY_ADDRESS``, else a fresh local cluster). A process that has already
called ``ray.init`` keeps its connection. An address that cannot be reached is a one-line
:class:`ClusterError`, raised before any work starts.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import re
import socket
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from croupier.errors import CroupierError

__all__ = ["TASK_SECONDS", "ClusterError", "check_address", "chunks_per_task", "run_chunks"]

TASK_SECONDS = 2.0
"""Estimated seconds of work (on the reference core) a Ray task aims at: twice the one
second each task must at least take, so a core twice as fast still clears it."""

_CONNECT_SECONDS = 5.0
"""How long the reachability check waits for a head's port to answer."""

_HOST_PORT = re.compile(r"(?:ray://)?(?P<host>\[[^\]]+\]|[^:/\s]+):(?P<port>\d{1,5})\Z")


class ClusterError(CroupierError):
    """The Ray cluster cannot be used: no extra, a bad or unreachable address, a failed task.

    >>> isinstance(ClusterError("no Ray cluster answers at 10.0.0.1:6379"), CroupierError)
    True
    """


J = TypeVar("J")
R = TypeVar("R")


def chunks_per_task(chunk_seconds: float, *, target: float | None = None) -> int:
    """How many consecutive chunks, each estimated at ``chunk_seconds`` on the reference
    core, one Ray task runs so that it holds about ``target`` seconds of work (default
    :data:`TASK_SECONDS`), at least one.

    >>> chunks_per_task(0.094), chunks_per_task(0.3, target=1.0)
    (22, 4)
    """
    if not chunk_seconds > 0:
        raise CroupierError(f"a chunk's cost must be positive, not {chunk_seconds!r}")
    return max(1, math.ceil((TASK_SECONDS if target is None else target) / chunk_seconds))


def check_address(address: str) -> str:
    """Refuse an address Ray could not use, in one line, before Ray is imported: the
    words ``auto`` and ``local``, the empty string, or ``[ray://]HOST:PORT`` whose port
    accepts a connection.

    >>> check_address("auto")
    'auto'
    >>> check_address("nowhere")
    Traceback (most recent call last):
    ...
    croupier.distributed.ClusterError: --ray takes HOST:PORT (the head's address, as 'ray start --head' prints it), ray://HOST:PORT, auto or local, not 'nowhere'
    """
    address = address.strip()
    if address in ("", "auto", "local"):
        return address
    found = _HOST_PORT.match(address)
    if found is None or not 0 < int(found["port"]) < 65536:
        raise ClusterError(
            "--ray takes HOST:PORT (the head's address, as 'ray start --head' prints it), "
            f"ray://HOST:PORT, auto or local, not {address!r}"
        )
    host, port = found["host"].strip("[]"), int(found["port"])
    try:
        with socket.create_connection((host, port), timeout=_CONNECT_SECONDS):
            pass
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise ClusterError(f"no Ray cluster answers at {address}: {reason}") from None
    return address


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError("--ray needs the 'ray' extra: pip install 'croupier[ray]'") from None
    return ray


@contextlib.contextmanager
def _connected(address: str) -> Iterator[Any]:
    """Ray, connected to ``address`` for the block (an existing connection is kept)."""
    address = check_address(address)
    ray = _import_ray()
    if ray.is_initialized():
        yield ray
        return
    options: dict[str, Any] = {
        "logging_level": logging.ERROR,
        "log_to_driver": False,
        "configure_logging": True,
    }
    if address == "local":
        options.update(address="local", include_dashboard=False)
    elif address:
        options["address"] = address
    elif not os.environ.get("RAY_ADDRESS"):
        options["include_dashboard"] = False
    try:
        ray.init(**options)
    except Exception as exc:  # Ray's own errors: ConnectionError, RuntimeError, ValueError…
        text = str(exc).strip().splitlines()
        raise ClusterError(
            f"cannot connect to Ray at {address or 'a new local cluster'}: "
            f"{text[0] if text else type(exc).__name__}"
        ) from None
    try:
        yield ray
    finally:
        ray.shutdown()


def _run_group(function: Callable[[J], R], jobs: Sequence[J]) -> list[R]:
    """One Ray task: the chunks ``jobs``, in order."""
    return [function(job) for job in jobs]


def run_chunks(
    function: Callable[[J], R],
    jobs: Sequence[J],
    *,
    address: str | None = None,
    per_task: int = 1,
    sizes: Sequence[int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[R]:
    """``[function(job) for job in jobs]``: here (``address`` None) or as Ray tasks on the
    cluster at ``address`` (see the module), ``per_task`` consecutive jobs a task. The
    results are in job order either way. ``function`` must be importable by name on every
    machine of the cluster (a module-level function of an installed package), and so must
    whatever the jobs hold. ``progress`` is called with each finished job's size (from
    ``sizes``, else 1) as tasks finish.

    >>> seen = []
    >>> run_chunks(abs, [-1, -2, 3], sizes=[10, 20, 30], progress=seen.append), seen
    ([1, 2, 3], [10, 20, 30])
    """
    if per_task < 1:
        raise CroupierError(f"per_task must be at least 1, not {per_task}")
    weights = list(sizes) if sizes is not None else [1] * len(jobs)
    if len(weights) != len(jobs):
        raise CroupierError(f"{len(jobs)} jobs but {len(weights)} sizes")
    if address is None:
        results = []
        for job, weight in zip(jobs, weights, strict=True):
            results.append(function(job))
            if progress is not None:
                progress(weight)
        return results
    starts = range(0, len(jobs), per_task)
    with _connected(address) as ray:
        task = ray.remote(_run_group).options(max_retries=2)
        pending = {
            task.remote(function, list(jobs[start : start + per_task])): start for start in starts
        }
        groups: dict[int, list[R]] = {}
        waiting = list(pending)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                start = pending[ref]
                try:
                    groups[start] = ray.get(ref)
                except Exception as exc:  # a task's error, or the cluster's
                    cause = getattr(exc, "cause", None) or exc
                    lines = str(cause).strip().splitlines()
                    text = lines[-1] if lines else type(cause).__name__
                    if isinstance(cause, CroupierError):
                        raise CroupierError(text) from None
                    raise ClusterError(f"a Ray task failed: {text}") from None
                if progress is not None:
                    progress(sum(weights[start : start + per_task]))
    return [result for start in starts for result in groups[start]]
