"""The blackjack table in a terminal: a Textual app over a
:class:`~croupier.play.bj_session.BlackjackSession`.

The screen shows every box and hand with its soft or hard total and stakes, the
dealer's cards, the bankrolls, whose decision it is and what is offered (insurance with
its cap, even money, split, double, surrender), and the round log. Keys: ``h`` hit,
``s`` stand, ``d`` double, ``p`` split, ``i`` insure for the most allowed, ``x`` decline
insurance, ``e`` even money, ``space`` the next round, ``q`` leave, ``?`` help; the field
takes any action's text (``i 5``, ``surrender``). An illegal choice shows the engine's
message and waits for another.

>>> from croupier.play.bj_session import BlackjackSession
>>> BlackjackApp(BlackjackSession(bots=1, bot_style="gut", seed=1)).title
'croupier: blackjack'
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Button, Input

from croupier.blackjack.actions import (
    Action,
    DeclineInsurance,
    Double,
    EvenMoney,
    Hit,
    Insure,
    Split,
    Stand,
    parse_action,
)
from croupier.blackjack.views import SeatView
from croupier.play._app import COMMON_BINDINGS, TableApp
from croupier.play.bj_session import BlackjackSession

__all__ = ["BLACKJACK_HELP", "BlackjackApp", "render_blackjack"]

BLACKJACK_HELP = (
    "keys: h hit · s stand · d double · p split · i insure · x no insurance · "
    "e even money · space next round · q leave · ? help"
)
"""The help line."""


def render_blackjack(view: SeatView) -> str:
    """The layout as text: the dealer, each box and hand, and the viewer's options.

    >>> from croupier.blackjack import NZ, BlackjackRound
    >>> from croupier.cards import Shoe, parse_cards
    >>> rnd = BlackjackRound(NZ, Shoe(6, cards=parse_cards("6c 9d 5h Th")), {"you": 50})
    >>> rnd.place_wager(1, "you", 10); rnd.deal()
    WagerPlaced(box=1, player='you', amount=10)
    CardDealt(box=1, hand=0, card=Card('6c'))
    >>> print(render_blackjack(rnd.view_for("you")).splitlines()[0])
    dealer: 9d (9)
    """
    dealer = " ".join(str(c) for c in view.dealer) or "(none)"
    hole = " + hole card" if view.hole_card else ""
    total = f" ({view.dealer_total})" if view.dealer else ""
    lines = [f"dealer: {dealer}{hole}{total}", ""]
    for box in view.boxes:
        owner = box.wagers[0][0] if box.wagers else ""
        extra = f"  insured {dict(box.insurance)}" if box.insurance else ""
        lines.append(f"box {box.number} ({owner}){extra}")
        for i, hand in enumerate(box.hands):
            cards = " ".join(str(c) for c in hand.cards)
            kind = "soft" if hand.soft else "hard"
            stake = sum(s for _, s in hand.stakes)
            flags = [
                f
                for f, on in (
                    ("doubled", hand.doubled),
                    ("split", hand.from_split),
                    ("surrendered", hand.surrendered),
                )
                if on
            ]
            turn = view.actor is not None and view.actor.box == box.number and view.actor.hand == i
            mark = ">" if turn else " "
            tail = f" [{', '.join(flags)}]" if flags else ""
            lines.append(f" {mark} hand {i}: {cards}  {kind} {hand.total}  stake {stake}{tail}")
    lines.append("")
    lines.append("chips: " + ", ".join(f"{name} {chips}" for name, chips in view.bankrolls))
    legal = view.legal
    offer = view.insurance_offer
    if view.complete:
        lines.append("round over: space for the next round, q to leave")
    elif offer is not None and view.my_turn:
        even = ", even money (e)" if offer.even_money else ""
        lines.append(f"insurance offered on box {offer.box}: up to {offer.cap} (i), no (x){even}")
    elif legal is not None and view.my_turn and view.actor is not None:
        offers = [n for n in ("hit", "stand", "double", "split", "surrender") if getattr(legal, n)]
        lines.append(f"your turn, box {view.actor.box} hand {view.actor.hand}: {', '.join(offers)}")
    elif view.actor is not None:
        lines.append(f"{view.actor.player} decides")
    return "\n".join(lines)


class BlackjackApp(TableApp[BlackjackSession]):
    """The terminal blackjack table (see the module docstring); ``timer`` seconds to
    decide (then: stand, or decline insurance); ``hands`` ends after so many rounds.

    >>> from croupier.play.bj_session import BlackjackSession
    >>> BlackjackApp(BlackjackSession(bots=0, seed=1), hands=3).hands
    3
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "play('hit')", "Hit"),
        Binding("s", "play('stand')", "Stand"),
        Binding("d", "play('double')", "Double"),
        Binding("p", "play('split')", "Split"),
        Binding("i", "insure", "Insure"),
        Binding("x", "play('decline')", "No insurance"),
        Binding("e", "play('even')", "Even money"),
        Binding("space", "next_round", "Next round"),
        *COMMON_BINDINGS,
    ]
    UNIT = "round"
    DECIDE = "decide"
    HELP_LINE = BLACKJACK_HELP

    _ACTIONS: ClassVar[dict[str, type[Action]]] = {
        "hit": Hit,
        "stand": Stand,
        "double": Double,
        "split": Split,
        "decline": DeclineInsurance,
        "even": EvenMoney,
    }

    def _title(self) -> str:
        return "croupier: blackjack"

    def _controls(self) -> ComposeResult:
        for name, key in (("hit", "h"), ("stand", "s"), ("double", "d"), ("split", "p")):
            yield Button(f"{name.title()} ({key})", id=name)
        yield Button("Insure (i)", id="insure")
        yield Input(placeholder="action… (e.g. i 5)", id="amount")
        yield Button("Next (space)", id="next_round")

    def _render(self) -> str | None:
        if self.session.round is None:
            return None
        return render_blackjack(self.session.view())

    def _between(self) -> bool:
        return self.session.round_over

    def _played(self) -> int:
        return self.session.rounds_played

    def _parse(self, text: str) -> Action:
        return parse_action(text)

    # ------------------------------------------------------------------ actions
    def action_play(self, name: str) -> None:
        """One decision by name (hit, stand, double, split, decline, even)."""
        self._act(self._ACTIONS[name]())

    def action_insure(self) -> None:
        """Insure for the most allowed (half the wager)."""
        offer = self.session.view().insurance_offer if self.session.round else None
        self._act(Insure(offer.cap if offer is not None else 0))

    def _press(self, name: str) -> None:
        if name in self._ACTIONS:
            self.action_play(name)
        else:
            super()._press(name)

    def action_next_round(self) -> None:
        """Deal the next round once the last one is settled."""
        self._deal_next()

    def _time_up(self) -> None:
        view = self.session.view()
        legal = view.legal
        if view.insurance_offer is not None:
            self._act(DeclineInsurance())
        else:
            self._act(Stand() if legal is None or legal.stand else Hit())
        self._show("time is up: the default decision was made")
