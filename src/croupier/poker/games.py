"""The seven NZ poker games (Division 13, sections 11-17) as declarative data.

A game is a list of streets (what is dealt, whether a card is burnt first, who opens
the betting), its forced bets, its deck and hand-rank table, and how a hand is
formed. The engine never branches on a game's name.

>>> OMAHA.hole_cards, OMAHA.board_cards, OMAHA.burns
(4, 5, 3)
>>> [s.name for s in SEVEN_CARD_STUD.streets]
['third street', 'fourth street', 'fifth street', 'sixth street', 'seventh street']
>>> MANILA.ranking.name, MANILA.composition.describe()
('stripped', 'exactly 2 own cards and exactly 3 board cards')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum

from croupier.cards.card import Rank
from croupier.errors import CroupierError
from croupier.evaluation.composition import ANY_FIVE, EXACTLY_TWO_PLUS_THREE, Composition
from croupier.evaluation.rankings import STANDARD, STRIPPED, HandRanking

__all__ = [
    "DRAW",
    "FIVE_CARD_STUD",
    "GAMES",
    "HOLDEM",
    "MANILA",
    "OMAHA",
    "SEVEN_CARD_STUD",
    "THREE_CARD_MANILA",
    "ForcedBets",
    "GameSpec",
    "Opener",
    "Street",
    "game_by_name",
]


class Opener(StrEnum):
    """Who opens a street's betting.

    >>> OMAHA.streets[0].opener, OMAHA.streets[1].opener
    (<Opener.LEFT_OF_LAST_BLIND: 'left-of-last-blind'>, <Opener.LEFT_OF_BUTTON: 'left-of-button'>)
    """

    LEFT_OF_LAST_BLIND = "left-of-last-blind"
    """First round of blind games: the player left of the last blind (17.2(a))."""
    LEFT_OF_BUTTON = "left-of-button"
    """Later rounds of blind games: the first active player left of the button (17.3(b))."""
    LOWEST_UP_CARD = "lowest-up-card"
    """Stud first round: the lowest up card brings in, clubs lowest on ties (12.2(a))."""
    BEST_EXPOSED_HAND = "best-exposed-hand"
    """Stud later rounds: the best exposed hand opens (INFERRED, 12.3+)."""


class ForcedBets(StrEnum):
    """The kind of forced betting a game uses.

    >>> FIVE_CARD_STUD.forced
    <ForcedBets.ANTE_BRING_IN: 'ante-bring-in'>
    """

    BLINDS = "blinds"
    """Compulsory blinds left of the button (17.1(c))."""
    ANTE_BRING_IN = "ante-bring-in"
    """An ante from everyone, then a bring-in by the lowest up card (12.1(b), 12.2(a))."""


@dataclass(frozen=True)
class Street:
    """One dealing round followed by one betting round.

    >>> Street("flop", burn=True, board=3).cards_per_player
    0
    """

    name: str
    """What the street is called."""
    burn: bool = False
    """Whether the dealer burns a card first (17.3(a))."""
    down: int = 0
    """Cards dealt face down to each player."""
    up: int = 0
    """Cards dealt face up to each player (stud)."""
    board: int = 0
    """Community cards dealt face up."""
    draw: bool = False
    """A draw: each player may discard and be dealt replacements (draw poker)."""
    opener: Opener = Opener.LEFT_OF_BUTTON
    """Who opens the betting."""

    @property
    def cards_per_player(self) -> int:
        """Cards each player receives on this street (draws excluded)."""
        return self.down + self.up


@dataclass(frozen=True)
class GameSpec:
    """A poker game as data: streets, forced bets, deck, ranks and hand composition.

    >>> HOLDEM.hole_cards, HOLDEM.board_cards, HOLDEM.max_players
    (2, 5, 10)
    """

    name: str
    """Identifier (``holdem``, ``omaha`` ...)."""
    title: str
    """Display name."""
    section: int
    """The Division 13 section of the 1999 Gazette."""
    streets: tuple[Street, ...]
    """Dealing and betting rounds, in order."""
    forced: ForcedBets
    """Blinds, or ante and bring-in."""
    composition: Composition = ANY_FIVE
    """How the five-card hand is formed."""
    ranking: HandRanking = STANDARD
    """The hand-rank table (the deck follows from it)."""
    voluntary_blind: bool = False
    """Whether a voluntary blind of twice the last blind is allowed (11.x(c))."""
    source: tuple[str, ...] = ()
    """The rules the game follows."""
    inferred: tuple[str, ...] = ()
    """What is inferred where the Gazette text is missing (shown by ``croupier rules``)."""
    seat_rule: str = "Omaha 17.1(a)"
    """The game's rule for choosing seats (its own copy of x.1(a))."""
    big_bet_street: int = 2
    """The first street (0-based) of fixed limit's big bet, where a
    :class:`~croupier.poker.structures.FixedLimit` names none: the Gazette's definition of
    a fixed bet gives no street, so each game takes common casino practice (the turn in
    hold'em and Omaha, the third betting round in Manila and both studs, after the draw in
    draw poker; ``docs/decisions.md``)."""

    def limit_rule(self, letter: str) -> str:
        """The id of this game's own copy of a betting-limit rule, named by its Omaha 17.6
        letter (the same block ends sections 11, 16 and 17, lettered differently in 11).

        >>> DRAW.limit_rule("c"), HOLDEM.limit_rule("f"), MANILA.limit_rule("f")
        ('Draw 11.x(d)', "Hold'em 16.6(f)", 'Omaha 17.6(f)')
        """
        if self.section == 11 and letter in "bcdef":
            # 11.x(c) is the voluntary blind, so 17.6(c)-(f) are 11.x(d)-(g) there
            return f"Draw 11.x({letter if letter == 'b' else chr(ord(letter) + 1)})"
        if self.section == 16 and letter in ("e", "f"):
            return f"Hold'em 16.6({letter})"
        return f"Omaha 17.6({letter})"

    @property
    def hole_cards(self) -> int:
        """Cards each player holds at the showdown (draws replace, they do not add)."""
        return sum(s.cards_per_player for s in self.streets)

    @property
    def board_cards(self) -> int:
        """Community cards in a full hand."""
        return sum(s.board for s in self.streets)

    @property
    def burns(self) -> int:
        """Burn cards in a full hand."""
        return sum(1 for s in self.streets if s.burn)

    @property
    def deck_lowest_rank(self) -> Rank:
        """The lowest rank in the deck."""
        return self.ranking.lowest_rank

    @functools.cached_property
    def max_players(self) -> int:
        """The most players the game seats (the deck must serve every one of them).

        Stud games seat eight (a community card covers a seventh-street shortfall, 13);
        draw seats eight (the discards are reshuffled if the stub runs short).
        """
        if self.forced is ForcedBets.ANTE_BRING_IN or any(s.draw for s in self.streets):
            return 8
        deck = self.ranking.deck_size
        return min(10, (deck - self.burns - self.board_cards) // self.hole_cards)


_BLIND_COMMON = (  # the blind games' common rules, as Omaha words them (x.1, x.2)
    "Omaha 17.1(a)",
    "Omaha 17.1(b)",
    "Omaha 17.1(c)",
    "Omaha 17.1(d)",
    "Omaha 17.2(a)",
)

HOLDEM = GameSpec(
    name="holdem",
    title="Texas Hold'em",
    section=16,
    streets=(
        Street("pre-flop", down=2, opener=Opener.LEFT_OF_LAST_BLIND),
        Street("flop", burn=True, board=3),
        Street("turn", burn=True, board=1),
        Street("river", burn=True, board=1),
    ),
    forced=ForcedBets.BLINDS,
    source=(
        "Hold'em 16 (structure)",
        "Hold'em 16 (hand composition)",
        "Hold'em 16.6(e)",
        "Hold'em 16.6(f)",
        *_BLIND_COMMON,
    ),
    inferred=(
        "Section 16 is missing except 16.6(e)-(f): played as Omaha (17) with two hole cards "
        "and the best five of any hole and board cards (DIGEST 2.C, 6.2).",
    ),
    big_bet_street=2,
)

OMAHA = GameSpec(
    name="omaha",
    title="Omaha",
    section=17,
    streets=(
        Street("pre-flop", down=4, opener=Opener.LEFT_OF_LAST_BLIND),
        Street("flop", burn=True, board=3),
        Street("turn", burn=True, board=1),
        Street("river", burn=True, board=1),
    ),
    forced=ForcedBets.BLINDS,
    composition=EXACTLY_TWO_PLUS_THREE,
    source=tuple(
        f"Omaha 17.{n}({letter})"
        for n, letters in (
            (1, "abcd"),
            (2, "abc"),
            (3, "abc"),
            (4, "abc"),
            (5, "abcdef"),
            (6, "abcdef"),
        )
        for letter in letters
    ),
    big_bet_street=2,
)

MANILA = GameSpec(
    name="manila",
    title="Manila",
    section=14,
    streets=(
        Street("deal", down=2, board=1, opener=Opener.LEFT_OF_LAST_BLIND),
        Street("second", burn=True, board=1),
        Street("third", burn=True, board=1),
        Street("fourth", burn=True, board=1),
        Street("final", burn=True, board=1),
    ),
    forced=ForcedBets.BLINDS,
    composition=EXACTLY_TWO_PLUS_THREE,
    ranking=STRIPPED,
    source=(
        "Manila 14.1 (hole cards)",
        "Manila 14.1(d)",
        *(
            f"Manila 14.{n}({letter})"
            for n, letters in ((2, "abc"), (3, "abc"), (4, "abcd"))
            for letter in letters
        ),
        "Manila 14 (hand composition)",
        "Manila 14.5",
    ),
    inferred=(
        "The section's name is not seen; the deal matches Manila (DIGEST 6.1).",
        "Two hole cards, both used, with exactly three board cards.",
        "A 32-card deck (7 to ace), flush above full house, A-7-8-9-10 the lowest straight.",
        "No burn before the first board card (it comes with the deal): four burns a hand.",
    ),
    big_bet_street=2,
)

THREE_CARD_MANILA = GameSpec(
    name="manila3",
    title="3-Card Manila",
    section=15,
    streets=(
        Street("deal", down=3, board=1, opener=Opener.LEFT_OF_LAST_BLIND),
        Street("second", burn=True, board=1),
        Street("third", burn=True, board=1),
        Street("fourth", burn=True, board=1),
        Street("final", burn=True, board=1),
    ),
    forced=ForcedBets.BLINDS,
    composition=EXACTLY_TWO_PLUS_THREE,
    ranking=STRIPPED,
    source=(
        "3-Card Manila 15.1(c)",
        "3-Card Manila 15.1(d)",
        *(f"3-Card Manila 15.{n}({letter})" for n in (2, 3) for letter in "abc"),
        "3-Card Manila 15.4",
        "3-Card Manila 15 (hand composition)",
        "3-Card Manila 15.5",
    ),
    inferred=(
        "The section's name is not seen; the deal matches 3-Card Manila (DIGEST 6.1).",
        "Exactly two of the three hole cards with exactly three board cards.",
        "The final round and the limits (15.4+) are as in 14.4 and 17.5-17.6.",
    ),
    big_bet_street=2,
)

DRAW = GameSpec(
    name="draw",
    title="Draw poker",
    section=11,
    streets=(
        Street("deal", down=5, opener=Opener.LEFT_OF_LAST_BLIND),
        Street("draw", burn=True, draw=True),
    ),
    forced=ForcedBets.BLINDS,
    voluntary_blind=True,
    source=(
        "Draw 11.x(b)",
        "Draw 11.x(c)",
        "Draw 11.x(d)",
        "Draw 11.x(e)",
        "Draw 11.x(f)",
        "Draw 11.x(g)",
    ),
    inferred=(
        "Only the betting-limit rules of section 11 are seen: played as five-card draw with "
        "blinds, one draw (discards replaced from the deck after a burn), two betting rounds.",
        "If the stub runs short during the draw, the discards (never the burn cards, nor the "
        "drawing player's own discards) are shuffled to finish it.",
    ),
    big_bet_street=1,
)

FIVE_CARD_STUD = GameSpec(
    name="stud5",
    title="Five Card Stud",
    section=12,
    seat_rule="Five Card Stud 12.1(a)",
    streets=(
        Street("second card", down=1, up=1, opener=Opener.LOWEST_UP_CARD),
        Street("third card", burn=True, up=1, opener=Opener.BEST_EXPOSED_HAND),
        Street("fourth card", burn=True, up=1, opener=Opener.BEST_EXPOSED_HAND),
        Street("fifth card", burn=True, up=1, opener=Opener.BEST_EXPOSED_HAND),
    ),
    forced=ForcedBets.ANTE_BRING_IN,
    source=(
        "Five Card Stud 12.1(a)",
        "Five Card Stud 12.1(b)",
        "Five Card Stud 12.1(c)",
        "Five Card Stud 12.2(a)",
        "Five Card Stud 12.2(b)",
    ),
    inferred=(
        "12.3+ are missing: a burn and one up card before each later round; the best exposed "
        "hand opens, ties going to the first such player clockwise from the dealer's left.",
    ),
    big_bet_street=2,
)

SEVEN_CARD_STUD = GameSpec(
    name="stud7",
    title="Seven Card Stud",
    section=13,
    streets=(
        Street("third street", down=2, up=1, opener=Opener.LOWEST_UP_CARD),
        Street("fourth street", burn=True, up=1, opener=Opener.BEST_EXPOSED_HAND),
        Street("fifth street", burn=True, up=1, opener=Opener.BEST_EXPOSED_HAND),
        Street("sixth street", burn=True, up=1, opener=Opener.BEST_EXPOSED_HAND),
        Street("seventh street", burn=True, down=1, opener=Opener.BEST_EXPOSED_HAND),
    ),
    forced=ForcedBets.ANTE_BRING_IN,
    source=(
        "Seven Card Stud 13 (deal)",
        "Seven Card Stud 13 (bring-in)",
        "Seven Card Stud 13 (streets)",
        "Seven Card Stud 13 (first to act)",
    ),
    inferred=(
        "Section 13 is missing: standard seven card stud (ante; two down and one up; the lowest "
        "up card brings in; three more up cards and a last one down; the best exposed hand "
        "opens from fourth street).",
        "If the deck cannot give every player a seventh card, one community card is dealt "
        "face up instead and plays in every hand.",
    ),
    big_bet_street=2,
)

GAMES: dict[str, GameSpec] = {
    g.name: g
    for g in (DRAW, FIVE_CARD_STUD, SEVEN_CARD_STUD, MANILA, THREE_CARD_MANILA, HOLDEM, OMAHA)
}
"""Every game by name."""


def game_by_name(name: str) -> GameSpec:
    """Look a game up by name.

    >>> game_by_name("omaha").section
    17
    """
    try:
        return GAMES[name]
    except KeyError:
        raise CroupierError(f"unknown game {name!r}: one of {', '.join(GAMES)}") from None
