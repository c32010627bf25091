"""The Textual tables played as a person plays them: the pilot presses keys and reads the screen."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from croupier.blackjack.rules import NZ
from croupier.play.bj_session import BlackjackSession
from croupier.play.blackjack_app import BlackjackApp
from croupier.play.poker_app import PokerApp
from croupier.play.session import PokerSession
from croupier.poker import events as ev
from croupier.poker.settings import TableRules

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
SIZE = (130, 40)


def _run(app: PokerApp | BlackjackApp, script: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(go())


def _screen(app: PokerApp | BlackjackApp) -> str:
    return str(app.query_one("#table", Static).render())


def _shot(app: PokerApp | BlackjackApp, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    app.save_screenshot(f"{name}.svg", str(SCREENS))


def _heads_up(seed: int, style: str = "calling", **options: object) -> PokerSession:
    return PokerSession(TableRules(), seats=2, bot_style=style, seed=seed, **options)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ poker
def test_fold_a_hand() -> None:
    app = PokerApp(_heads_up(7))

    async def script(pilot: Pilot[None]) -> None:
        assert "your turn: to call" in _screen(app)
        _shot(app, "poker-your-turn")
        await pilot.press("f")
        await pilot.pause()
        assert app.session.hand_over
        assert app.session.hands_played == 1
        assert "hand over" in _screen(app)
        assert any("(you) folds" in line for line in app.session.log)
        _shot(app, "poker-hand-over")

    _run(app, script)


def test_call_down_to_the_showdown() -> None:
    app = PokerApp(_heads_up(3))

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(12):
            if app.session.hand_over:
                break
            await pilot.press("c")
            await pilot.pause()
        assert app.session.hand_over
        log = "\n".join(app.session.log)
        assert "showdown (17.5(d) order)" in log
        assert "main pot" in log
        assert sum(app.session.table.stacks.values()) == 2000

    _run(app, script)


def test_raise_with_the_field_then_an_illegal_raise_is_refused() -> None:
    app = PokerApp(_heads_up(5))

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r", "1", "5", "enter")  # below the minimum raise
        await pilot.pause()
        assert "17.6" in app.message
        assert "allowed" in app.message
        assert app.session.human_to_act  # asked again, nothing changed
        await pilot.press("r", "4", "0", "enter")
        await pilot.pause()
        assert any("(you) raises to 40" in line for line in app.session.log)

    _run(app, script)


def test_all_in_and_the_next_hand() -> None:
    app = PokerApp(_heads_up(11))

    async def script(pilot: Pilot[None]) -> None:
        legal = app.session.view().legal
        assert legal is not None
        assert legal.raise_to is not None
        top = legal.raise_to[1]
        await pilot.press("r", *str(top), "enter")
        await pilot.pause()
        assert app.session.hand_over  # the calling station calls: the board runs out
        assert any("all in" in line or f"raises to {top}" in line for line in app.session.log)
        await pilot.press("space")
        await pilot.pause()
        assert (app.session.hands_played == 1 and not app.session.hand_over) or app.session.over

    _run(app, script)


def _split_pot_seed() -> int:
    """A seed whose first hand, called down by everyone, splits the pot."""
    for seed in range(400):
        session = _heads_up(seed)
        session.deal()
        while not session.hand_over:
            session.act("cc")
        assert session.hand is not None
        if any(isinstance(e, ev.PotAwarded) and len(e.shares) > 1 for e in session.hand.events):
            return seed
    raise AssertionError("no split pot in 400 seeds")


def test_a_split_pot_is_shown_with_its_shares() -> None:
    app = PokerApp(_heads_up(_split_pot_seed()))

    async def script(pilot: Pilot[None]) -> None:
        while not app.session.hand_over:
            await pilot.press("c")
            await pilot.pause()
        pot = [line for line in app.session.log if "main pot" in line]
        assert pot
        assert pot[0].count(",") >= 1
        assert app.session.table.stacks["you"] in (1000, 1001, 999)
        _shot(app, "poker-split-pot")

    _run(app, script)


def test_help_and_leave() -> None:
    app = PokerApp(_heads_up(2))

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        assert "f fold" in app.message
        await pilot.press("q")
        await pilot.pause()
        assert app.session.over

    _run(app, script)


def test_stud_shows_up_cards() -> None:
    from croupier.poker.games import SEVEN_CARD_STUD
    from croupier.poker.structures import FixedLimit

    rules = TableRules(
        SEVEN_CARD_STUD, FixedLimit(10, 20), blinds=(), ante=2, bring_in=5, table_minimum=5
    )
    app = PokerApp(PokerSession(rules, seats=3, bot_style="calling", seed=4))

    async def script(pilot: Pilot[None]) -> None:
        assert " up " in _screen(app)
        _shot(app, "poker-stud")

    _run(app, script)


# ------------------------------------------------------------------------------ blackjack
def _bj_seed(want: Callable[[BlackjackSession], bool], **options: object) -> int:
    for seed in range(600):
        session = BlackjackSession(bots=1, bot_style="gut", seed=seed, **options)  # type: ignore[arg-type]
        session.deal()
        if session.human_to_act and want(session):
            return seed
    raise AssertionError("no such deal in 600 seeds")


def _can(name: str) -> Callable[[BlackjackSession], bool]:
    def check(session: BlackjackSession) -> bool:
        legal = session.view().legal
        return legal is not None and bool(getattr(legal, name))

    return check


def test_blackjack_split() -> None:
    app = BlackjackApp(BlackjackSession(bots=1, bot_style="gut", seed=_bj_seed(_can("split"))))

    async def script(pilot: Pilot[None]) -> None:
        assert "split" in _screen(app)
        await pilot.press("p")
        await pilot.pause()
        view = app.session.view()
        assert len(view.box(1).hands) >= 2 or app.session.round_over
        _shot(app, "blackjack-split")
        for _ in range(10):
            if app.session.round_over:
                break
            await pilot.press("s")
            await pilot.pause()
            if app.session.human_to_act and "allowed" in app.message:
                await pilot.press("h")
                await pilot.pause()
        assert app.session.round_over
        assert "results:" in "\n".join(app.session.log)

    _run(app, script)


def test_blackjack_double() -> None:
    app = BlackjackApp(BlackjackSession(bots=1, bot_style="gut", seed=_bj_seed(_can("double"))))

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("d")
        await pilot.pause()
        assert app.session.view().box(1).hands[0].doubled
        assert "doubled" in _screen(app)
        _shot(app, "blackjack-round")

    _run(app, script)


def test_blackjack_insurance() -> None:
    seed = _bj_seed(lambda s: s.view().insurance_offer is not None)
    app = BlackjackApp(BlackjackSession(bots=1, bot_style="gut", seed=seed))

    async def script(pilot: Pilot[None]) -> None:
        assert "insurance offered" in _screen(app)
        _shot(app, "blackjack-insurance")
        await pilot.press("h")  # not a decision due now: the engine says so
        await pilot.pause()
        assert "allowed" in app.message
        await pilot.press("i")
        await pilot.pause()
        assert app.session.view().box(1).insurance == (("you", 5),)

    _run(app, script)


def test_blackjack_two_boxes_and_illegal_text() -> None:
    app = BlackjackApp(BlackjackSession(NZ, boxes=2, bots=2, bot_style="default", seed=9))

    async def script(pilot: Pilot[None]) -> None:
        assert "box 2 (you)" in _screen(app)
        app.query_one("#amount").focus()
        await pilot.press("j", "u", "m", "p", "enter")
        await pilot.pause()
        assert "unknown verb" in app.message

    _run(app, script)
