"""One dispatch over events (issue 25, point 3): every consumer of the referees' logs
outside the referees (the PHH writer, the chip movements, the event log's JSON, the
store's verifier, recorder and PHH deal check, the deal check) reads events through an
:class:`~croupier.visitor.EventVisitor`. Each knows every event class of the games it
reads (handled or ignored by name), and refuses any other in one line naming itself and
the event."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from croupier import fairness
from croupier.blackjack import NZ, BlackjackRound
from croupier.blackjack import events as bj
from croupier.cards import Shoe, parse_cards
from croupier.errors import CroupierError
from croupier.phh import writer
from croupier.poker import HandState, TableRules
from croupier.poker import events as pk
from croupier.store import export, movements, serial, store, verify
from croupier.visitor import EventVisitor, event_classes, visits

CONSUMER_MODULES: tuple[ModuleType, ...] = (
    writer,
    movements,
    serial,
    export,
    verify,
    store,
    fairness,
)

FACTORIES: dict[str, Callable[[], EventVisitor[Any]]] = {
    "_PhhLog": lambda: writer._PhhLog({1: "p1", 2: "p2"}, 5),
    "_PokerMovements": movements._PokerMovements,
    "_BlackjackMovements": movements._BlackjackMovements,
    "_Rows": serial._Rows,
    "_Slots": lambda: export._Slots(set()),
    "_Edges": verify._Edges,
    "_Boxes": store._Boxes,
    "_Dealt": fairness._Dealt,
}
"""How to make each consumer's visitor (its name: the class name)."""


@dataclasses.dataclass(frozen=True)
class Strange(pk.Event):
    """A poker event no consumer knows (one the referee might gain later)."""


@dataclasses.dataclass(frozen=True)
class StrangeRound(bj.Event):
    """A blackjack event no consumer knows."""


@dataclasses.dataclass(frozen=True)
class SlowFold(pk.Folded):
    """A subclass of a known event: another kind of event, not a fold."""


def consumers() -> list[type[EventVisitor[Any]]]:
    """Every visitor class the consumer modules define."""
    found: list[type[EventVisitor[Any]]] = []
    for module in CONSUMER_MODULES:
        for obj in vars(module).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, EventVisitor)
                and obj.__module__ == module.__name__
            ):
                found.append(obj)
    return found


CONSUMERS = consumers()


def finished_hand() -> HandState:
    hand = HandState(TableRules(), {1: 100, 2: 100, 3: 100}, button=1, seed=7)
    hand.fold()
    hand.fold()
    return hand


def settled_round() -> BlackjackRound:
    rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("Ts 9c 8d 8h")), {"ann": 50})
    rnd.place_wager(1, "ann", 10)
    rnd.deal()
    rnd.stand()
    return rnd


# ----------------------------------------------------------------------- the consumers
def test_every_consumer_visitor_is_listed_here() -> None:
    assert sorted(c.__name__ for c in CONSUMERS) == sorted(FACTORIES)


def test_event_classes_are_every_logged_class_of_each_game() -> None:
    for module, bases in ((pk, {"Event", "PlayerAction"}), (bj, {"Event"})):
        logged = {
            name
            for name in module.__all__
            if isinstance(getattr(module, name), type)
            and issubclass(getattr(module, name), module.Event)
        } - bases
        assert {kind.__name__ for kind in event_classes(module)} == logged


@pytest.mark.parametrize("consumer", CONSUMERS, ids=lambda c: c.__name__)
def test_each_consumer_handles_or_ignores_every_event_of_its_games(
    consumer: type[EventVisitor[Any]],
) -> None:
    assert consumer.reads, f"{consumer.__name__} says which games' events it reads"
    assert consumer.unread() == ()
    everything = set(event_classes(*consumer.reads))
    assert consumer.known() == everything  # and nothing from outside its games
    for module in consumer.reads:
        for name in module.__all__:
            kind = getattr(module, name)
            if kind in everything:
                assert kind in consumer.known(), f"{consumer.__name__} never reads {name}"


@pytest.mark.parametrize("consumer", CONSUMERS, ids=lambda c: c.__name__)
@pytest.mark.parametrize(
    "event", [Strange(), StrangeRound(), SlowFold(2)], ids=lambda e: type(e).__name__
)
def test_each_consumer_refuses_an_event_it_does_not_know_in_one_line(
    consumer: type[EventVisitor[Any]], event: object
) -> None:
    visitor = FACTORIES[consumer.__name__]()
    with pytest.raises(CroupierError) as raised:
        visitor.visit(event)
    message = str(raised.value)
    name = type(event).__name__
    assert message.startswith(f"{consumer.consumer} cannot read {name}: not a")
    assert "\n" not in message


def test_the_consumers_name_themselves() -> None:
    names = {c.__name__: c.consumer for c in CONSUMERS}
    assert names == {
        "_PhhLog": "the PHH writer",
        "_PokerMovements": "poker chip movements",
        "_BlackjackMovements": "blackjack chip movements",
        "_Rows": "the event log's JSON",
        "_Slots": "the PHH deal check",
        "_Edges": "the store's verifier",
        "_Boxes": "the store's round recorder",
        "_Dealt": "the deal check",
    }


# ------------------------------------------------------------- through the public calls
def test_the_public_readers_refuse_a_strange_event_at_the_end_of_a_real_log() -> None:
    hand, rnd = finished_hand(), settled_round()
    calls: list[tuple[Callable[[list[Any]], object], list[Any], str]] = [
        (movements.poker_movements, list(hand.events), "poker chip movements"),
        (movements.blackjack_movements, list(rnd.events), "blackjack chip movements"),
        (serial.events_to_json, list(hand.events), "the event log's JSON"),
        (fairness.dealt_cards, list(rnd.events), "the deal check"),
    ]
    for call, log, consumer in calls:
        call(log)  # the real log reads
        with pytest.raises(CroupierError, match=f"^{consumer} cannot read Strange: "):
            call([*log, Strange()])


def test_the_phh_writer_refuses_a_strange_event_in_a_hands_log() -> None:
    hand = finished_hand()
    writer.dumps(hand)
    hand._core.log.append(
        Strange()
    )  # as if the referee had gained an event class (its log is read-only)
    with pytest.raises(CroupierError, match=r"^the PHH writer cannot read Strange: "):
        writer.dumps(hand)


def test_a_readers_deal_check_refuses_a_viewers_hidden_cards() -> None:
    hand = finished_hand()
    view = hand.view_for(1).events
    assert any(type(e) is pk.HiddenCards for e in view)
    with pytest.raises(CroupierError, match=r"^the deal check cannot read HiddenCards: "):
        fairness.dealt_cards(view)
    assert sum(m.amount for m in movements.poker_movements(view)) == 0  # chips are public


def test_the_json_still_names_a_value_that_is_no_event() -> None:
    with pytest.raises(CroupierError, match=r"^not a referee's event: 1$"):
        serial.events_to_json([1])


# ------------------------------------------------------------------ the visitor itself
class _Counter(EventVisitor[int]):
    consumer = "the counter"
    reads = (pk,)
    ignores = (pk.Checked,)

    def __init__(self) -> None:
        self.count = 0

    @visits(pk.Folded, pk.Called)
    def on_counted(self, event: pk.Folded | pk.Called) -> None:
        self.count += 1

    def result(self) -> int:
        return self.count


def test_dispatch_is_on_the_exact_type() -> None:
    assert _Counter().visit_all([pk.Folded(1), pk.Checked(2), pk.Called(3, 5, False)]) == 2
    with pytest.raises(CroupierError, match=r"^the counter cannot read SlowFold: not a poker"):
        _Counter().visit(SlowFold(1))


def test_a_subclass_replaces_its_bases_handler() -> None:
    class Twice(_Counter):
        def on_counted(self, event: pk.Folded | pk.Called) -> None:
            self.count += 2

    assert Twice().visit_all([pk.Folded(1), pk.Checked(2)]) == 2


def test_a_class_handled_and_ignored_or_handled_twice_is_refused() -> None:
    with pytest.raises(TypeError, match="Checked is both handled and ignored"):

        class Both(_Counter):
            @visits(pk.Checked)
            def on_checked(self, event: pk.Checked) -> None: ...

    with pytest.raises(TypeError, match="Folded is handled by both on_a and on_b"):

        class Twice(EventVisitor[None]):
            @visits(pk.Folded)
            def on_a(self, event: pk.Folded) -> None: ...

            @visits(pk.Folded)
            def on_b(self, event: pk.Folded) -> None: ...

            def result(self) -> None: ...


def test_visits_takes_classes() -> None:
    with pytest.raises(TypeError, match="visits"):
        visits("Folded")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="visits"):
        visits()
