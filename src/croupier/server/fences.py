"""Fences: the check a table runs inside each of its write transactions that its lease
is still its own (see :meth:`croupier.server.leases.Leases.fence`), and the running of
many such checks at once (a group commit writes many tables in one transaction).

>>> from sqlalchemy import create_engine
>>> from croupier.server.leases import Leases
>>> leases = Leases(create_engine("sqlite://"), "p1", "u1")
>>> leases.acquire("t"), leases.fence("t").epoch
(True, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection
    from sqlalchemy.orm import Session

    from croupier.server.leases import Leases

__all__ = ["Fence", "check_fences", "group_guards", "run_grouped"]


@dataclass(frozen=True)
class Fence:
    """The check a table runs in each of its write transactions (see
    :meth:`Leases.fence`): called with the transaction's session or connection, it raises
    :class:`LeaseLostError` unless ``table``'s lease is still ``leases``'s at ``epoch``.
    A writer holding several fences of one :class:`Leases` checks them with one query
    (:func:`check_fences`).

    >>> from sqlalchemy import create_engine
    >>> from croupier.server.leases import Leases
    >>> leases = Leases(create_engine("sqlite://"), "p1", "u1")
    >>> leases.acquire("t")
    True
    >>> fence = leases.fence("t")
    >>> fence.table, fence.epoch
    ('t', 1)
    """

    leases: Leases
    table: str
    epoch: int

    def __call__(self, db: Session | Connection) -> None:
        self.leases.verify_held(self.table, self.epoch, db)


def check_fences(
    guards: Iterable[Callable[[Any], object] | None], db: Session | Connection
) -> None:
    """Run every guard in ``db``'s transaction, each once, the :class:`Fence` ones of the
    same :class:`Leases` together in one query.

    >>> from sqlalchemy import create_engine
    >>> from croupier.server.leases import Leases
    >>> engine = create_engine("sqlite://")
    >>> leases = Leases(engine, "p1", "u1")
    >>> leases.acquire("a"), leases.acquire("b")
    (True, True)
    >>> with engine.begin() as connection:
    ...     check_fences([leases.fence("a"), leases.fence("b"), None], connection)
    """
    run_grouped(*group_guards(guards), db)


def run_grouped(
    fenced: Iterable[tuple[Leases, dict[str, int]]],
    others: Iterable[Callable[[Any], object]],
    db: Session | Connection,
) -> None:
    """Run guards grouped by :func:`group_guards` in ``db``'s transaction: each group
    of fences with one query, then the others.

    >>> from sqlalchemy import create_engine
    >>> from croupier.server.leases import Leases
    >>> engine = create_engine("sqlite://")
    >>> leases = Leases(engine, "p1", "u1")
    >>> leases.acquire("a")
    True
    >>> with engine.begin() as connection:
    ...     run_grouped(*group_guards([leases.fence("a")]), connection)
    """
    for leases, epochs in fenced:
        leases.verify_all(epochs, db)
    for guard in others:
        guard(db)


def group_guards(
    guards: Iterable[Callable[[Any], object] | None],
) -> tuple[list[tuple[Leases, dict[str, int]]], list[Callable[[Any], object]]]:
    """The :class:`Fence` guards by :class:`Leases` (table → epoch: one query each), and
    the other guards, each once (a fence of a table fenced at another epoch too is one of
    them: at least one of the two fails).

    >>> from sqlalchemy import create_engine
    >>> from croupier.server.leases import Leases
    >>> leases = Leases(create_engine("sqlite://"), "p1", "u1")
    >>> fenced, others = group_guards([Fence(leases, "a", 1), Fence(leases, "b", 2), None])
    >>> [epochs for _, epochs in fenced], others
    ([{'a': 1, 'b': 2}], [])
    """
    by_leases: dict[int, tuple[Leases, dict[str, int]]] = {}
    others: list[Callable[[Any], object]] = []
    for guard in guards:
        if isinstance(guard, Fence):
            epochs = by_leases.setdefault(id(guard.leases), (guard.leases, {}))[1]
            if epochs.setdefault(guard.table, guard.epoch) != guard.epoch:
                others.append(guard)
        elif guard is not None and guard not in others:
            others.append(guard)
    return list(by_leases.values()), others
