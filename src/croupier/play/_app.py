"""What the poker and the blackjack Textual apps share: the layout around the table (the
log pane, the message line, the controls row), the field and the buttons, the timer,
dealing the next hand or round, leaving, help, and redrawing.

A game's app names its unit (``hand``, ``round``), its help line, its controls, how it
draws the table, what it does when time is up, and what the field and the buttons do.

>>> from croupier.play.poker_app import PokerApp
>>> issubclass(PokerApp, TableApp)
True
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Protocol, TypeVar

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Button, Footer, Header, Input, RichLog, Static

from croupier.errors import CroupierError

__all__ = ["COMMON_BINDINGS", "TableApp", "TableSession"]

COMMON_BINDINGS = (Binding("q", "leave", "Leave"), Binding("question_mark", "help", "Help"))
"""The keys every table has, after its own."""


class TableSession(Protocol):
    """What an app needs of a session (:class:`~croupier.play.session.PokerSession`,
    :class:`~croupier.play.bj_session.BlackjackSession`).

    >>> from croupier.play.bj_session import BlackjackSession
    >>> session: TableSession = BlackjackSession(human=None, bots=1, seed=1)
    >>> session.over
    False
    """

    log: list[str]
    over: bool

    @property
    def human_to_act(self) -> bool:
        """Whether the session waits for the human."""

    def act(self, action: Any) -> None:
        """The human's action or decision."""

    def deal(self) -> None:
        """Deal the next hand or round."""

    def leave(self) -> int:
        """The human leaves; the human's chips."""


S = TypeVar("S", bound=TableSession)


class TableApp(App[None], Generic[S]):
    """A terminal table over a session: ``timer`` seconds to act (then the game's
    default), ``hands`` hands or rounds before the session ends.

    >>> from croupier.play.blackjack_app import BlackjackApp
    >>> from croupier.play.bj_session import BlackjackSession
    >>> app = BlackjackApp(BlackjackSession(bots=0, seed=1), timer=20)
    >>> app.timer_seconds, app.hands, app.message
    (20, None, '')
    """

    CSS_PATH = "play.tcss"
    UNIT: ClassVar[str] = "hand"
    """What is dealt: ``hand`` or ``round``."""
    DECIDE: ClassVar[str] = "act"
    """The verb of the timer's line (``12 s to act``)."""
    HELP_LINE: ClassVar[str] = ""
    """The help line (``?``)."""

    def __init__(self, session: S, *, timer: int | None = None, hands: int | None = None) -> None:
        super().__init__()
        self.session = session
        """The session the screen shows."""
        self.timer_seconds = timer
        """Seconds to act, or None."""
        self.hands = hands
        """Hands or rounds before the session ends, or None."""
        self.message = ""
        """The last message shown (an engine error, help)."""
        self.table_text = ""
        """The table as last drawn."""
        self._left = 0
        self._clock: Timer | None = None
        self._logged = 0
        self.title = self._title()

    # ------------------------------------------------------------------ the game's parts
    def _title(self) -> str:
        """The header's title."""
        raise NotImplementedError

    def _controls(self) -> ComposeResult:
        """The game's buttons and field (the Leave button follows)."""
        raise NotImplementedError

    def _render(self) -> str | None:
        """The table as text, or None before the first deal."""
        raise NotImplementedError

    def _between(self) -> bool:
        """Whether no hand or round is in progress."""
        raise NotImplementedError

    def _played(self) -> int:
        """Hands or rounds finished."""
        raise NotImplementedError

    def _time_up(self) -> None:
        """Make the default action when the timer runs out."""
        raise NotImplementedError

    def _parse(self, text: str) -> object:
        """An action's text read by the game's parser (its error for a malformed one)."""
        raise NotImplementedError

    def _submit(self, text: str) -> None:
        """The field's text, submitted (not empty)."""
        self._act(text)

    def _press(self, name: str) -> None:
        """The button ``name`` pressed: what its key does."""
        getattr(self, f"action_{name}")()

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        """The table, the log, the message line, the field and the buttons."""
        yield Header()
        with Horizontal(id="main"):
            yield Static("", id="table", markup=False)
            yield RichLog(id="log", markup=False, wrap=True)
        yield Static("", id="message", markup=False)
        with Horizontal(id="controls"):
            yield from self._controls()
            yield Button("Leave (q)", id="leave")
        yield Footer()

    def on_mount(self) -> None:
        """Deal the first hand or round."""
        if self.timer_seconds:
            self._clock = self.set_interval(1, self._tick)
        self._deal_next()

    # ------------------------------------------------------------------ actions
    def _act(self, action: object) -> None:
        try:
            self.session.act(self._parse(action) if isinstance(action, str) else action)
        except CroupierError as error:
            self._show(str(error))
        else:
            self._show("")
        self._left = self.timer_seconds or 0
        self.refresh_table()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Read the field (see :meth:`_submit`)."""
        text = event.value.strip()
        event.input.value = ""
        self.set_focus(None)
        if text:
            self._submit(text)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Buttons do what their keys do."""
        self._press(event.button.id or "")

    def _deal_next(self) -> None:
        """Deal the next hand or round once the last one is over."""
        session, unit = self.session, self.UNIT
        if session.over:
            self._show("the session is over: q to quit")
            return
        if not self._between():
            self._show(f"the {unit} is still in progress")
            return
        if self.hands is not None and self._played() >= self.hands:
            session.leave()
            self._show(f"{self.hands} {unit}s played: the session is over, q to quit")
            self.refresh_table()
            return
        try:
            session.deal()
        except CroupierError as error:
            self._show(str(error))
        self._left = self.timer_seconds or 0
        self.refresh_table()

    def action_leave(self) -> None:
        """Leave the table (a hand in progress is given up, a round stood out) and quit."""
        if not self.session.over:
            self._show(f"you leave with {self.session.leave()}")
        self.refresh_table()
        self.exit()

    def action_help(self) -> None:
        """Show the keys."""
        self._show(self.HELP_LINE)

    def _tick(self) -> None:
        if not self.session.human_to_act or not self.timer_seconds:
            return
        self._left -= 1
        if self._left <= 0:
            self._time_up()
        else:
            self.sub_title = f"{self._left} s to {self.DECIDE}"

    # ------------------------------------------------------------------ drawing
    def _show(self, text: str) -> None:
        self.message = text
        self.query_one("#message", Static).update(text)

    def refresh_table(self) -> None:
        """Redraw the table and append new log lines."""
        text = self._render()
        if text is not None:
            self.table_text = text
            self.query_one("#table", Static).update(text)
        log = self.query_one("#log", RichLog)
        for line in self.session.log[self._logged :]:
            log.write(line)
        self._logged = len(self.session.log)
