"""The poker table in a terminal: a Textual app over a :class:`~croupier.play.session.PokerSession`.

The screen shows what the human's seat sees (:meth:`PokerSession.view`): own cards, up
cards and the board, every stack and bet, the pots and side pots, the button, whose turn
it is, the amount to call and the legal raise range, and the hand log. Keys: ``f`` fold,
``c`` check or call (whichever is legal: never both), ``r`` then an amount and Enter to
bet or raise to that total (the field also takes any action's text: ``r 40``, ``call``),
``space`` the next hand, ``q`` leave, ``?`` help. An illegal choice shows the engine's
rule-citing message and waits for another.

>>> from croupier.poker import TableRules
>>> from croupier.play.session import PokerSession
>>> app = PokerApp(PokerSession(TableRules(), seats=2, seed=1))
>>> app.title
"croupier: Texas Hold'em, no-limit"
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Button, Footer, Header, Input, RichLog, Static

from croupier.errors import CroupierError
from croupier.play.session import PokerSession
from croupier.poker.actions import CheckOrCall, Fold, RaiseTo, parse_action
from croupier.poker.views import SeatView

__all__ = ["HELP", "PokerApp", "render_table"]

HELP = (
    "keys: f fold · c check/call · r <amount> Enter raise to · space next hand · q leave · ? help"
)
"""The help line."""


def render_table(view: SeatView, names: dict[int, str], commitment: str | None = None) -> str:
    """The table as text: the board, the pots, one line a seat, and the viewer's options.

    >>> from croupier.poker import HandState, TableRules
    >>> hand = HandState(TableRules(), {1: 100, 2: 100}, button=1, seed=3)
    >>> print(render_table(hand.view_for(2), {1: "bo", 2: "you"}).splitlines()[0])
    holdem · pre-flop · board: (none)
    """
    board = " ".join(str(c) for c in view.board) or "(none)"
    lines = [f"{view.game} · {view.street} · board: {board}"]
    pots = view.pots
    if len(pots) > 1:
        side = ", ".join(f"side pot {i} {p}" for i, p in enumerate(pots[1:], 1))
        lines.append(f"pot {view.pot} (main pot {pots[0]}, {side})")
    else:
        lines.append(f"pot {view.pot}")
    if commitment:
        lines.append(f"deck commitment sha256 {commitment[:16]}…")
    lines.append("")
    for p in view.players:
        marks = []
        if p.seat == view.button:
            marks.append("button")
        if p.folded:
            marks.append("folded")
        if p.all_in:
            marks.append("all in")
        if p.seat == view.actor:
            marks.append("to act")
        down = " ".join(str(c) if c is not None else "??" for c in p.down)
        up = " ".join(str(c) for c in p.up)
        cards = " ".join(x for x in (down, f"up {up}" if up else "") if x)
        who = names.get(p.seat, "")
        state = f" [{', '.join(marks)}]" if marks else ""
        lines.append(
            f"{'>' if p.seat == view.actor else ' '} seat {p.seat} {who:<6} stack {p.stack:>6}"
            f"  bet {p.bet:>5}  {cards}{state}"
        )
    lines.append("")
    if view.complete:
        lines.append("hand over: space for the next hand, q to leave")
    elif view.legal is not None:
        legal = view.legal
        lines.append(f"your turn: to call {view.to_call}")
        if legal.raise_to is not None:
            low, high = legal.raise_to
            lines.append(f"raise to {low}..{high}" if low != high else f"raise to {low}")
        lines.append(f"allowed: {legal.describe()}")
    elif view.actor is not None:
        lines.append(f"seat {view.actor} ({names.get(view.actor, '')}) is to act")
    return "\n".join(lines)


class PokerApp(App[None]):
    """The terminal poker table (see the module docstring); ``timer`` seconds to act
    (then the default action: check if free, else fold); ``hands`` ends the session
    after so many hands.

    >>> from croupier.poker import TableRules
    >>> PokerApp(PokerSession(TableRules(), seats=2, seed=1), timer=30).timer_seconds
    30
    """

    CSS_PATH = "play.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "fold", "Fold"),
        Binding("c", "check_call", "Check/Call"),
        Binding("r", "raise", "Raise to"),
        Binding("space", "next_hand", "Next hand"),
        Binding("q", "leave", "Leave"),
        Binding("question_mark", "help", "Help"),
    ]

    def __init__(
        self, session: PokerSession, *, timer: int | None = None, hands: int | None = None
    ) -> None:
        super().__init__()
        self.session = session
        """The session the screen shows."""
        self.timer_seconds = timer
        """Seconds to act, or None."""
        self.hands = hands
        """Hands to play before the session ends, or None."""
        self.message = ""
        """The last message shown (an engine error, help)."""
        self.table_text = ""
        """The table as last drawn."""
        self._left = 0
        self._clock: Timer | None = None
        self._logged = 0
        rules = session.table.rules
        self.title = f"croupier: {rules.game.title}, {rules.structure.name}"

    def compose(self) -> ComposeResult:
        """The table, the log, the message line, the amount field and the buttons."""
        yield Header()
        with Horizontal(id="main"):
            yield Static("", id="table", markup=False)
            yield RichLog(id="log", markup=False, wrap=True)
        yield Static("", id="message", markup=False)
        with Horizontal(id="controls"):
            yield Button("Fold (f)", id="fold")
            yield Button("Check/Call (c)", id="check_call")
            yield Input(placeholder="raise to… (r)", id="amount")
            yield Button("Raise (Enter)", id="raise")
            yield Button("Next hand (space)", id="next_hand")
            yield Button("Leave (q)", id="leave")
        yield Footer()

    def on_mount(self) -> None:
        """Deal the first hand."""
        if self.timer_seconds:
            self._clock = self.set_interval(1, self._tick)
        self.action_next_hand()

    # ------------------------------------------------------------------ actions
    def _act(self, action: object) -> None:
        try:
            if isinstance(action, str):
                self.session.act(parse_action(action))
            else:
                self.session.act(action)  # type: ignore[arg-type]
        except CroupierError as error:
            self._show(str(error))
        else:
            self._show("")
        self._left = self.timer_seconds or 0
        self.refresh_table()

    def action_fold(self) -> None:
        """Fold."""
        self._act(Fold())

    def action_check_call(self) -> None:
        """Check when free, else call."""
        self._act(CheckOrCall())

    def action_raise(self) -> None:
        """Put the cursor in the amount field."""
        self.query_one("#amount", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """An amount raises to it; any other text is read as an action."""
        text = event.value.strip()
        event.input.value = ""
        self.set_focus(None)
        if not text:
            return
        self._act(RaiseTo(int(text)) if text.isdigit() else text)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Buttons do what their keys do."""
        if event.button.id == "raise":
            field = self.query_one("#amount", Input)
            text, field.value = field.value.strip(), ""
            if text:
                self._act(RaiseTo(int(text)) if text.isdigit() else text)
            else:
                self._show("type the total to raise to in the field, then press Enter")
            return
        getattr(self, f"action_{event.button.id}")()

    def action_next_hand(self) -> None:
        """Deal the next hand once the last one is over."""
        session = self.session
        if session.over:
            self._show("the session is over: q to quit")
            return
        if not session.hand_over:
            self._show("the hand is still in progress")
            return
        if self.hands is not None and session.hands_played >= self.hands:
            session.leave()
            self._show(f"{self.hands} hands played: the session is over, q to quit")
            self.refresh_table()
            return
        try:
            session.deal()
        except CroupierError as error:
            self._show(str(error))
        self._left = self.timer_seconds or 0
        self.refresh_table()

    def action_leave(self) -> None:
        """Leave the table (the hand in progress is given up) and quit."""
        if not self.session.over:
            chips = self.session.leave()
            self._show(f"you leave with {chips}")
        self.refresh_table()
        self.exit()

    def action_help(self) -> None:
        """Show the keys."""
        self._show(HELP)

    def _tick(self) -> None:
        if not self.session.human_to_act or not self.timer_seconds:
            return
        self._left -= 1
        if self._left <= 0:
            self.session.act_default()
            self._left = self.timer_seconds
            self._show("time is up: the default action was made")
            self.refresh_table()
        else:
            self.sub_title = f"{self._left} s to act"

    # ------------------------------------------------------------------ drawing
    def _show(self, text: str) -> None:
        self.message = text
        self.query_one("#message", Static).update(text)

    def refresh_table(self) -> None:
        """Redraw the table and append new log lines."""
        session = self.session
        if session.hand is not None:
            commitment = session.commitment.digest if session.commitment else None
            self.table_text = render_table(session.view(), session.names, commitment)
            self.query_one("#table", Static).update(self.table_text)
        log = self.query_one("#log", RichLog)
        for line in session.log[self._logged :]:
            log.write(line)
        self._logged = len(session.log)
