"""The ACPC match protocol, version 2.0.0, over croupier's referee: states, actions, logs.

ACPC numbers the players of a hand by *position*; croupier seats position ``p`` in seat
``p + 1``. The game is ACPC's heads-up hold'em with reversed blinds
(``holdem.nolimit.2p.reverse_blinds.game``, ``holdem.limit.2p.reverse_blinds.game``):
``blind = BB SB`` (position 0 posts the big blind, position 1, the button, the small one) and
``firstPlayer = 2 1 1 1`` (the button acts first before the flop, position 0 first after
it), which is croupier's :attr:`~croupier.poker.HeadsUpBlinds.BUTTON_POSTS_FIRST` with the
button on seat 2.

Amounts: croupier's :class:`~croupier.poker.RaiseTo` is the player's total *for the
round*; ACPC's no-limit ``r<x>`` is the player's total *for the hand* (every chip put in
since the blinds). :func:`acpc_to_action` converts with ``round total = x - (chips put in
before this round)`` and :func:`action_text` back with ``x = chips put in this hand`` after
the raise. Fixed limit raises are ``r`` alone.

>>> game = AcpcGame.nolimit()
>>> deck = stacked_deck("As Qh Kd Jh 2c 3c 4c 5c 6c 7c 8c")  # position 0 gets AsKd
>>> hand = AcpcHand(game, 0, deck=deck)
>>> hand.match_state(0), hand.match_state(1)
('MATCHSTATE:0:0::AsKd|', 'MATCHSTATE:1:0::|QhJh')
>>> hand.play("c"); hand.play("c")
'c'
'c'
>>> hand.match_state(0)
'MATCHSTATE:0:0:cc/:AsKd|/3c4c5c'
>>> hand.play("r250"); hand.play("c")
'r250'
'c'
>>> hand.match_state(1)
'MATCHSTATE:1:0:cc/r250c/:|QhJh/3c4c5c/7c'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from croupier.cards.card import Card, parse_cards
from croupier.cards.deck import Deck, full_deck
from croupier.errors import CroupierError
from croupier.poker import events as ev
from croupier.poker.actions import Action, CheckOrCall, Fold, RaiseTo
from croupier.poker.games import HOLDEM
from croupier.poker.settings import HeadsUpBlinds, RaiseCap, TableRules
from croupier.poker.state import HandState
from croupier.poker.structures import FixedLimit, NoLimit

__all__ = [
    "ACPC_CAP",
    "VERSION",
    "AcpcGame",
    "AcpcHand",
    "acpc_to_action",
    "card_text",
    "default_action",
    "position_of",
    "stacked_deck",
]

VERSION = "2.0.0"
"""The protocol version the dealer speaks (a client's first line is ``VERSION:2.0.0``)."""

ACPC_CAP = RaiseCap(bets=4, blinds_count=True, head_to_head_unlimited=False)
"""Fixed limit's cap as ACPC's ``maxRaises = 3 4 4 4``: four bets a round, the big blind
the first bet before the flop, heads up too (the NZ rule lifts the cap head to head, which an
ACPC game definition cannot say)."""

_ROUND_OF_BOARD = {0: 0, 3: 1, 4: 2, 5: 3}


def card_text(cards: Sequence[Card]) -> str:
    """Cards as ACPC writes them: rank then suit, no spaces.

    >>> card_text([Card.parse("As"), Card.parse("Td")])
    'AsTd'
    """
    return "".join(str(c) for c in cards)


def _seen(down: Sequence[Card | None]) -> str:
    """Hole cards as a viewer sees them: all of them, or nothing when any is hidden."""
    known = [c for c in down if c is not None]
    return card_text(known) if len(known) == len(down) else ""


def stacked_deck(top: str) -> Deck:
    """A full deck with ``top`` (card text) dealt first, the other cards after them in index
    order. croupier deals hold'em one card at a time from position 0 (seat 1), then burns a
    card before each street: ``"p0 p1 p0 p1 burn flop flop flop burn turn burn river"``.

    >>> stacked_deck("As Kd").peek(3)
    (Card('As'), Card('Kd'), Card('2c'))
    """
    first = list(parse_cards(top))
    rest = [c for c in full_deck() if c not in first]
    return Deck([*first, *rest], shuffle=False)


def position_of(seat: int, hand_number: int, players: int = 2) -> int:
    """The ACPC position of match seat ``seat`` (0-based) in hand ``hand_number``: the
    dealer's rotation, position = (seat - hand) mod players, so the seats swap positions
    (and the button) every hand.

    >>> [position_of(0, h) for h in range(4)], [position_of(1, h) for h in range(4)]
    ([0, 1, 0, 1], [1, 0, 1, 0])
    """
    return (seat - hand_number) % players


@dataclass(frozen=True)
class AcpcGame:
    """Heads-up hold'em as an ACPC game: the structure, the blinds and the stack (reset to
    the full stack every hand, as in ACPC's matches).

    >>> AcpcGame.nolimit().rules().structure.name, AcpcGame.limit().big_blind
    ('no-limit', 10)
    """

    structure: Literal["nolimit", "limit"] = "nolimit"
    """``nolimit`` or ``limit`` (fixed limit: small bet = big blind, big bet twice it)."""
    small_blind: int = 50
    """The button's blind (position 1)."""
    big_blind: int = 100
    """Position 0's blind."""
    stack: int = 20000
    """Every player's stack at the start of every hand."""

    def __post_init__(self) -> None:
        if self.structure not in ("nolimit", "limit"):
            raise CroupierError(f"an ACPC game is 'nolimit' or 'limit', not {self.structure!r}")
        for what in ("small_blind", "big_blind", "stack"):
            value = getattr(self, what)
            if type(value) is not int or value < 1:
                raise CroupierError(f"{what.replace('_', ' ')} must be a positive whole number")
        if not self.small_blind <= self.big_blind < self.stack:
            raise CroupierError("the blinds must be small <= big < stack")

    @classmethod
    def nolimit(cls, stack: int = 20000) -> AcpcGame:
        """ACPC's no-limit game: blinds 50/100, stacks of 20000.

        >>> AcpcGame.nolimit().stack
        20000
        """
        return cls("nolimit", 50, 100, stack)

    @classmethod
    def limit(cls, stack: int = 20000) -> AcpcGame:
        """ACPC's fixed-limit game: blinds 5/10, bets of 10 and 20.

        >>> AcpcGame.limit().rules().structure.big_bet
        20
        """
        return cls("limit", 5, 10, stack)

    @property
    def nolimit_betting(self) -> bool:
        """Whether raises carry an amount."""
        return self.structure == "nolimit"

    def rules(self) -> TableRules:
        """croupier's rules for the game (every hand shown at a showdown, as ACPC shows them).

        >>> rules = AcpcGame.nolimit().rules()
        >>> rules.heads_up, rules.show_all_at_showdown
        (<HeadsUpBlinds.BUTTON_POSTS_FIRST: 'button-posts-first'>, True)
        """
        bb = self.big_blind
        structure = NoLimit() if self.nolimit_betting else FixedLimit(bb, 2 * bb)
        return TableRules(
            HOLDEM,
            structure,
            blinds=(self.small_blind, bb),
            table_minimum=bb,
            heads_up=HeadsUpBlinds.BUTTON_POSTS_FIRST,
            raise_cap=ACPC_CAP,
            fold_when_check_is_free=False,
            show_all_at_showdown=True,
        )

    def definition(self) -> str:
        """The ACPC ``.game`` file a client reads.

        >>> print(AcpcGame.nolimit().definition())
        GAMEDEF
        nolimit
        numPlayers = 2
        numRounds = 4
        stack = 20000 20000
        blind = 100 50
        firstPlayer = 2 1 1 1
        numSuits = 4
        numRanks = 13
        numHoleCards = 2
        numBoardCards = 0 3 1 1
        END GAMEDEF
        """
        lines = ["GAMEDEF", self.structure, "numPlayers = 2", "numRounds = 4"]
        if self.nolimit_betting:
            lines.append(f"stack = {self.stack} {self.stack}")
        lines.append(f"blind = {self.big_blind} {self.small_blind}")
        if not self.nolimit_betting:
            bb = self.big_blind
            lines += [f"raiseSize = {bb} {bb} {2 * bb} {2 * bb}", "maxRaises = 3 4 4 4"]
        lines += [
            "firstPlayer = 2 1 1 1",
            "numSuits = 4",
            "numRanks = 13",
            "numHoleCards = 2",
            "numBoardCards = 0 3 1 1",
            "END GAMEDEF",
        ]
        return "\n".join(lines)


def default_action(hand: HandState) -> Action:
    """What a player who times out, disconnects or sends garbage does: check if free, else
    fold.

    >>> hand = AcpcHand(AcpcGame.nolimit(), 0, seed=1).hand
    >>> default_action(hand)
    Fold()
    """
    legal = hand.legal_actions()
    return CheckOrCall() if legal.check else Fold()


_ACTION = re.compile(r"(?P<kind>[fcr])(?P<size>-?\d{1,12})?\Z")


def acpc_to_action(text: str, hand: HandState, nolimit: bool) -> Action | None:
    """An ACPC action (``f``, ``c``, ``r``, ``r<hand total>``) as croupier's action for the
    player to act, or None when it is no action (garbage). A well-formed action the rules
    refuse is fixed as ACPC's dealer fixes it: a raise size out of range is moved to the
    nearest legal size; a raise when none is allowed is a call; a fold when checking is
    free is a check.

    >>> hand = AcpcHand(AcpcGame.nolimit(), 0, seed=1).hand   # the button to act, 50 in
    >>> acpc_to_action("r300", hand, True), acpc_to_action("r1", hand, True)
    (RaiseTo(amount=300), RaiseTo(amount=200))
    >>> acpc_to_action("x", hand, True) is None, acpc_to_action("r", hand, True) is None
    (True, True)
    """
    match = _ACTION.match(text.strip())
    if match is None:
        return None
    kind, size = match["kind"], match["size"]
    legal = hand.legal_actions()
    if kind == "f":
        return CheckOrCall() if legal.check else Fold()
    if kind == "c":
        return CheckOrCall()
    if nolimit and size is None:
        return None
    if legal.raise_to is None:
        return CheckOrCall()
    low, high = legal.raise_to
    if not nolimit:
        return RaiseTo(low)
    actor = hand.actor
    assert actor is not None
    player = hand.players[actor]
    before_round = player.contributed - player.bet
    return RaiseTo(min(max(int(size) - before_round, low), high))


@dataclass
class AcpcHand:
    """One hand refereed by croupier and seen as ACPC states: positions 0 and 1 in seats 1
    and 2, the button on seat 2. ``deck`` stacks the deal (dealt as croupier deals: one card
    at a time from position 0, a burn before each street); otherwise ``seed`` shuffles it.

    >>> hand = AcpcHand(AcpcGame.limit(), 3, seed=5)
    >>> hand.play("r"); hand.play("f")
    'r'
    'f'
    >>> hand.results(), hand.betting()
    ([-10, 10], 'rf')
    """

    game: AcpcGame
    """The game."""
    number: int
    """The hand's number in the match (ACPC's hand id)."""
    deck: Deck | None = None
    """A stacked deck, or None."""
    seed: int | None = None
    """The shuffle's seed when no deck is given."""
    hand: HandState = field(init=False)
    """The referee's hand."""
    rounds: list[list[str]] = field(init=False)
    """Each round's actions as ACPC writes them."""

    def __post_init__(self) -> None:
        stacks = {1: self.game.stack, 2: self.game.stack}
        self.hand = HandState(self.game.rules(), stacks, button=2, deck=self.deck, seed=self.seed)
        self.rounds = [[]]

    @property
    def round(self) -> int:
        """ACPC's round: 0 before the flop, 3 on the river (and after an all-in showdown)."""
        return _ROUND_OF_BOARD[len(self.hand.board)]

    @property
    def actor(self) -> int | None:
        """The position to act, or None when the hand is over."""
        seat = self.hand.actor
        return None if seat is None else seat - 1

    @property
    def finished(self) -> bool:
        """Whether the hand is over."""
        return self.hand.is_complete

    def betting(self) -> str:
        """The betting so far, rounds separated by ``/``."""
        while len(self.rounds) <= self.round:
            self.rounds.append([])
        return "/".join("".join(r) for r in self.rounds)

    def _hole(self, position: int) -> str:
        return card_text(self.hand.players[position + 1].down)

    def _board(self, board: Sequence[Card] | None = None) -> str:
        cards = self.hand.board if board is None else board
        return "".join(
            "/" + card_text(cards[start:end])
            for start, end in ((0, 3), (3, 4), (4, 5))[: _ROUND_OF_BOARD[len(cards)]]
        )

    def match_state(self, position: int) -> str:
        """The ``MATCHSTATE`` line for ``position``, built from its seat's view alone: its
        own hole cards, the other's once shown (every hand is shown at a showdown, as
        ACPC's rules say), the board dealt so far."""
        view = self.hand.view_for(position + 1)
        down = {p.seat: p.down for p in view.players}
        holes = "|".join(_seen(down[p + 1]) for p in range(2))
        board = self._board(view.board)
        return f"MATCHSTATE:{position}:{self.number}:{self.betting()}:{holes}{board}"

    def log_state(self, names: Sequence[str]) -> str:
        """The hand's line in an ACPC log, ``STATE:<hand>:<betting>:<cards>:<results>:<names>``
        (every hole card, results and names in position order)."""
        holes = "|".join(self._hole(p) for p in range(2))
        results = "|".join(str(r) for r in self.results())
        return f"STATE:{self.number}:{self.betting()}:{holes}{self._board()}:{results}:" + "|".join(
            names
        )

    def results(self) -> list[int]:
        """Chips won by each position (the hand must be over)."""
        payoffs = self.hand.payoffs()
        return [payoffs[1], payoffs[2]]

    def apply(self, action: Action) -> str:
        """Apply a croupier action for the position to act; return it as ACPC writes it."""
        seat = self.hand.actor
        if seat is None:
            raise CroupierError("the hand is over: nobody is to act")
        current = self.round
        self.betting()
        event = self.hand.apply(action)
        if isinstance(event, ev.Folded):
            text = "f"
        elif isinstance(event, ev.RaisedTo):
            text = f"r{self.hand.players[seat].contributed}" if self.game.nolimit_betting else "r"
        else:
            text = "c"
        self.rounds[current].append(text)
        return text

    def play(self, text: str) -> str:
        """Apply an ACPC action (fixed as :func:`acpc_to_action` fixes it); the default
        action for garbage. Returns the action as applied, in ACPC's text."""
        action = acpc_to_action(text, self.hand, self.game.nolimit_betting)
        return self.apply(action if action is not None else default_action(self.hand))
