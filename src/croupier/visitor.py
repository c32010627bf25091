"""One dispatch over events: a reader of event logs written as a visitor.

Every consumer of the referees' logs (the PHH writer, the chip movements, the store's
verifier and export, the event log's JSON) reads events the same way: it subclasses
:class:`EventVisitor`, marks the method that handles each event class with
:func:`visits`, lists the classes it deliberately passes over in ``ignores``, and says
which games' events it reads in ``reads``. The visitor dispatches on the event's exact
type through a table built once, when the class is made; an event of any other type (one
the referee gained later, or a subclass) is refused by :meth:`EventVisitor.unknown` in
one line naming the consumer and the event, never passed over unread. Poker and blackjack
events go through the same machinery (python-chess's PGN visitor is the model).

>>> from croupier.poker import events as ev
>>> class Folds(EventVisitor[int]):
...     consumer = "the fold counter"
...     ignores = (ev.Checked,)
...     def __init__(self) -> None:
...         self.folds = 0
...     @visits(ev.Folded, ev.Conceded)
...     def on_out(self, event: ev.Folded | ev.Conceded) -> None:
...         self.folds += 1
...     def result(self) -> int:
...         return self.folds
>>> Folds().visit_all([ev.Checked(1), ev.Folded(2), ev.Conceded(3)])
2
>>> Folds().visit_all([ev.Called(1, 10, False)])
Traceback (most recent call last):
...
croupier.errors.CroupierError: the fold counter cannot read Called: not an event it handles or ignores
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, ClassVar, Generic, TypeVar

from croupier.errors import CroupierError

__all__ = ["EventVisitor", "event_classes", "visits"]

R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])

_MARK = "_croupier_visits"
"""The attribute :func:`visits` sets on a handler: the event classes it handles."""

_Handler = Callable[[Any, Any], object]


def visits(*kinds: type) -> Callable[[F], F]:
    """Mark a method of an :class:`EventVisitor` as the handler of the event classes
    ``kinds`` (exactly those: a subclass of one is another kind of event).

    >>> from croupier.blackjack import events as bj
    >>> class Wagers(EventVisitor[int]):
    ...     def __init__(self) -> None:
    ...         self.total = 0
    ...     @visits(bj.WagerPlaced)
    ...     def on_wager(self, event: bj.WagerPlaced) -> None:
    ...         self.total += event.amount
    ...     def result(self) -> int:
    ...         return self.total
    >>> Wagers().visit_all([bj.WagerPlaced(1, "ann", 10), bj.WagerPlaced(2, "bo", 5)])
    15
    """
    if not kinds or not all(isinstance(kind, type) for kind in kinds):
        raise TypeError(f"visits() takes event classes, not {kinds!r}")

    def mark(method: F) -> F:
        setattr(method, _MARK, kinds)
        return method

    return mark


def _skip(visitor: object, event: object) -> None:
    """The handler of an event class a visitor ignores."""


def event_classes(*modules: ModuleType) -> tuple[type, ...]:
    """The classes of the events each of ``modules`` (an events module) logs: those in its
    ``__all__`` that derive from its ``Event``, less the bases of others (``Event`` itself,
    poker's ``PlayerAction``), which are never logged.

    >>> from croupier.blackjack import events as bj
    >>> [kind.__name__ for kind in event_classes(bj)][:3]
    ['BoxAction', 'CardBurned', 'CardDealt']
    """
    found: list[type] = []
    for module in modules:
        base = module.Event
        kinds = [getattr(module, name) for name in module.__all__]
        kinds = [k for k in kinds if isinstance(k, type) and issubclass(k, base)]
        found.extend(k for k in kinds if not any(o is not k and issubclass(o, k) for o in kinds))
    return tuple(found)


class EventVisitor(abc.ABC, Generic[R]):
    """A reader of event logs: ``visit`` calls the handler of the event's exact type,
    ``visit_all`` visits a whole log and returns :meth:`result`.

    A subclass sets ``consumer`` (its name in errors), ``reads`` (the events modules whose
    every class it must handle or ignore, checked by the test suite with :meth:`unread`)
    and ``ignores`` (the classes it passes over), and marks its handlers with
    :func:`visits`. A class both handled and ignored, or handled twice, is refused when
    the visitor class is made.

    >>> from croupier.poker import events as ev
    >>> class Seats(EventVisitor[list[int]]):
    ...     consumer = "the seat lister"
    ...     reads = (ev,)
    ...     def __init__(self) -> None:
    ...         self.seats: list[int] = []
    ...     @visits(ev.HandStarted)
    ...     def on_started(self, event: ev.HandStarted) -> None:
    ...         self.seats = list(event.seats)
    ...     def result(self) -> list[int]:
    ...         return self.seats
    >>> Seats().visit_all([ev.HandStarted("holdem", 1, (1, 2), (100, 100), ())])
    [1, 2]
    >>> len(Seats.unread())  # the poker events it neither handles nor ignores
    24
    """

    consumer: ClassVar[str] = "an event visitor"
    """Who reads the events, as the errors name it (``"the PHH writer"``)."""
    reads: ClassVar[tuple[ModuleType, ...]] = ()
    """The events modules (:mod:`croupier.poker.events`, :mod:`croupier.blackjack.events`)
    whose every event class the visitor handles or ignores."""
    ignores: ClassVar[tuple[type, ...]] = ()
    """The event classes the visitor passes over on purpose."""
    _table: ClassVar[dict[type, _Handler]] = {}
    """Each event class the visitor knows and its handler, built once per class."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names: dict[type, str] = {}
        for klass in reversed(cls.__mro__):
            mine: dict[type, str] = {}
            for name, attr in vars(klass).items():
                for kind in getattr(attr, _MARK, ()):
                    if kind in mine:
                        raise TypeError(
                            f"{cls.__name__}: {kind.__name__} is handled by both "
                            f"{mine[kind]} and {name}"
                        )
                    mine[kind] = name
            names.update(mine)  # a subclass's handler replaces its base's
        table: dict[type, _Handler] = {kind: getattr(cls, name) for kind, name in names.items()}
        for kind in cls.ignores:
            if kind in table:
                raise TypeError(f"{cls.__name__}: {kind.__name__} is both handled and ignored")
            table[kind] = _skip
        cls._table = table

    def visit(self, event: object) -> None:
        """Hand ``event`` to the handler of its exact type (:meth:`unknown` if none).

        >>> from croupier.poker import events as ev
        >>> class Count(EventVisitor[int]):
        ...     ignores = (ev.Folded,)
        ...     def result(self) -> int:
        ...         return 0
        >>> Count().visit(ev.Folded(1))
        >>> Count().visit(ev.Checked(1))
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: an event visitor cannot read Checked: not an event it handles or ignores
        """
        handler = self._table.get(type(event))
        if handler is None:
            self.unknown(event)
        else:
            handler(self, event)

    def visit_all(self, events: Iterable[object]) -> R:
        """Visit each event in order, then return :meth:`result`.

        >>> from croupier.poker import events as ev
        >>> class Last(EventVisitor[str]):
        ...     def __init__(self) -> None:
        ...         self.last = ""
        ...     @visits(ev.Folded, ev.Checked)
        ...     def on_action(self, event: ev.Folded | ev.Checked) -> None:
        ...         self.last = event.describe()
        ...     def result(self) -> str:
        ...         return self.last
        >>> Last().visit_all([ev.Checked(2), ev.Folded(3)])
        'seat 3 folds'
        """
        table = self._table
        for event in events:
            handler = table.get(type(event))
            if handler is None:
                self.unknown(event)
            else:
                handler(self, event)
        return self.result()

    @abc.abstractmethod
    def result(self) -> R:
        """What the visitor made of the events it visited.

        >>> from croupier.poker import events as ev
        >>> class Nothing(EventVisitor[None]):
        ...     def result(self) -> None:
        ...         return None
        >>> Nothing().visit_all([]) is None
        True
        """

    def unknown(self, event: object) -> None:
        """Refuse an event the visitor neither handles nor ignores: raises
        :class:`~croupier.errors.CroupierError` naming the consumer and the event's type.

        >>> from croupier.blackjack import events as bj
        >>> class Nothing(EventVisitor[None]):
        ...     consumer = "the nothing reader"
        ...     reads = (bj,)
        ...     def result(self) -> None:
        ...         return None
        >>> Nothing().unknown(bj.WagerPlaced(1, "ann", 10))
        Traceback (most recent call last):
        ...
        croupier.errors.CroupierError: the nothing reader cannot read WagerPlaced: not a blackjack event it handles or ignores
        """
        games = " or ".join(module.__name__.split(".")[-2] for module in self.reads)
        what = f"a {games} event" if games else "an event"
        raise CroupierError(
            f"{self.consumer} cannot read {type(event).__name__}: not {what} it handles or ignores"
        )

    @classmethod
    def known(cls) -> frozenset[type]:
        """The event classes the visitor handles or ignores.

        >>> from croupier.poker import events as ev
        >>> class Folds(EventVisitor[None]):
        ...     ignores = (ev.Checked,)
        ...     @visits(ev.Folded)
        ...     def on_folded(self, event: ev.Folded) -> None: ...
        ...     def result(self) -> None: ...
        >>> sorted(kind.__name__ for kind in Folds.known())
        ['Checked', 'Folded']
        """
        return frozenset(cls._table)

    @classmethod
    def unread(cls) -> tuple[type, ...]:
        """The event classes of the games the visitor ``reads`` that it neither handles nor
        ignores: empty when it knows every event (the test suite checks each consumer).

        >>> from croupier.blackjack import events as bj
        >>> class Wagers(EventVisitor[None]):
        ...     reads = (bj,)
        ...     ignores = tuple(k for k in event_classes(bj) if k is not bj.DealEnded)
        ...     def result(self) -> None: ...
        >>> Wagers.unread()
        (<class 'croupier.blackjack.events.DealEnded'>,)
        """
        return tuple(kind for kind in event_classes(*cls.reads) if kind not in cls._table)
