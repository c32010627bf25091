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

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Button, Input

from croupier.play._app import COMMON_BINDINGS, TableApp
from croupier.play.session import PokerSession
from croupier.poker.actions import Action, CheckOrCall, Fold, RaiseTo, parse_action
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


class PokerApp(TableApp[PokerSession]):
    """The terminal poker table (see the module docstring); ``timer`` seconds to act
    (then the default action: check if free, else fold); ``hands`` ends the session
    after so many hands.

    >>> from croupier.poker import TableRules
    >>> PokerApp(PokerSession(TableRules(), seats=2, seed=1), timer=30).timer_seconds
    30
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "fold", "Fold"),
        Binding("c", "check_call", "Check/Call"),
        Binding("r", "raise", "Raise to"),
        Binding("space", "next_hand", "Next hand"),
        *COMMON_BINDINGS,
    ]
    UNIT = "hand"
    DECIDE = "act"
    HELP_LINE = HELP

    def _title(self) -> str:
        rules = self.session.table.rules
        return f"croupier: {rules.game.title}, {rules.structure.name}"

    def _controls(self) -> ComposeResult:
        yield Button("Fold (f)", id="fold")
        yield Button("Check/Call (c)", id="check_call")
        yield Input(placeholder="raise to… (r)", id="amount")
        yield Button("Raise (Enter)", id="raise")
        yield Button("Next hand (space)", id="next_hand")

    def _render(self) -> str | None:
        session = self.session
        if session.hand is None:
            return None
        commitment = session.commitment.digest if session.commitment else None
        return render_table(session.view(), session.names, commitment)

    def _between(self) -> bool:
        return self.session.hand_over

    def _played(self) -> int:
        return self.session.hands_played

    def _parse(self, text: str) -> Action:
        return parse_action(text)

    # ------------------------------------------------------------------ actions
    def action_fold(self) -> None:
        """Fold."""
        self._act(Fold())

    def action_check_call(self) -> None:
        """Check when free, else call."""
        self._act(CheckOrCall())

    def action_raise(self) -> None:
        """Put the cursor in the amount field."""
        self.query_one("#amount", Input).focus()

    def _submit(self, text: str) -> None:
        """An amount raises to it; any other text is read as an action."""
        self._act(RaiseTo(int(text)) if text.isdigit() else text)

    def _press(self, name: str) -> None:
        if name != "raise":
            super()._press(name)
            return
        field = self.query_one("#amount", Input)
        text, field.value = field.value.strip(), ""
        if text:
            self._submit(text)
        else:
            self._show("type the total to raise to in the field, then press Enter")

    def action_next_hand(self) -> None:
        """Deal the next hand once the last one is over."""
        self._deal_next()

    def _time_up(self) -> None:
        self.session.act_default()
        self._left = self.timer_seconds or 0
        self._show("time is up: the default action was made")
        self.refresh_table()
