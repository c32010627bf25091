"""Differential play: croupier's :class:`HandState` and PokerKit side by side, hand by hand.

Both engines get the same seats, stacks, forced bets and deck order; at every decision
point the bridge compares whose turn it is, the fold / check / call availability and
the call amount, the bring-in, the smallest and largest bet or raise (as round totals),
every stack and bet in front, the cards held and on the board, the total pot and (when
no bets are in front) the main and side pots with their contenders. Before the pots
are paid it compares the pots again, then the chips each seat is paid and the final
stacks. One random action legal in both engines is then applied to both.

Games (PHH variant codes): ``NT`` no-limit Texas hold'em, ``FT`` fixed-limit Texas
hold'em, ``PO`` pot-limit Omaha, ``F7S`` fixed-limit seven card stud.

Alignment (croupier side): seat 1 is PokerKit's player 0 (the small blind; in stud
the player left of the dealer) and seat N the button; ``HeadsUpBlinds.BUTTON_POSTS_FIRST``
(PokerKit's heads-up reversal: the button posts the small blind and acts first before
the flop); ``OddChip.FIRST_LEFT_OF_BUTTON`` (PokerKit gives the remainder to the
lowest player index among the winners); ``fold_when_check_is_free=False`` (PokerKit's
tournament mode refuses such a fold, its cash-game mode only warns); ``chip_unit`` 1;
uniform antes (PokerKit ``ante_trimming_status=True``, so antes count in the side-pot
levels as croupier counts them). PokerKit automates ante and blind posting, bet
collection and chip pulling; the bridge drives the burns and deals (the same cards
in the same order: one deck order is drawn once, croupier deals it from a stacked
deck, PokerKit is handed the same cards one by one in its own dealing order, and the
cards each player holds are compared), the showdown (every hand shown), hand killing
and chip pushing, so that the pots can be read before PokerKit kills losing hands.

Rule differences and PokerKit behaviours found, and how the comparison handles each
(the name in quotes is the key counted in ``HandResult.known`` / ``Tally.known``; the
tests in ``test_diff_pokerkit.py`` pin each one with a scripted hand):

=========================  ======================================  ======================================  ======================================
Situation                  croupier                                PokerKit 0.7.7                          Handling here
=========================  ======================================  ======================================  ======================================
"heads-up cap": fixed      17.6(f) / 16.6(f), Decision 3.2-3: a    Always a bet and three raises.          Rule difference. croupier must offer
limit, the betting is      bet and three raises, no cap when only                                          exactly one more raise (the next fixed
head to head               two players can still bet.                                                      step, or all in); the policy keeps to
                                                                                                           PokerKit's choices (no raise).
"fourth pre-flop raise":   The big blind is the round's bet: the   Counts only completions, bets and       PokerKit rule difference (its cap is
fixed-limit hold'em cap    cap is the blind and three raises       raises, not the blind: four raises      four bets on later streets but five
before the flop            (2-4-6-8 with a 2 blind).               after the blind (2-4-6-8-10).           pre-flop). PokerKit's extra raise must
                                                                                                           be the next fixed step; the policy
                                                                                                           keeps to croupier's choices.
"short all-in raise        Only full raises count (a short         Every completion, bet or raise counts,  Rule difference (Decision 3.2-3 leaves
counted in the cap":       all-in raise is not a raise).           short all-ins included.                 it open). croupier must offer exactly
fixed limit                                                                                                one more fixed raise; the policy keeps
                                                                                                           to PokerKit's choices.
"short all-in opening      Not a full wager: the next raise may    Any first wager is "full" (its last     Fixed limit: rule difference (Robert's
bet": the first wager of   complete it to a full bet (17.6(c)      raise size starts at 0): it reopens     limit rules complete only an all-in of
a round (or a stud         completion), and players who checked    the betting, and the next raise must    less than half a bet, TDA 47B; neither
completion) is an all-in   before it may only call or fold.        be a full bet on top of it.             engine has the half-bet test). No limit
for less than a full bet                                                                                   and pot limit: croupier raises a full
                                                                                                           raise on top (Decision 3.2-1; Robert's
                                                                                                           Rules: "completing the bet is a limit
                                                                                                           poker wager type only"); the first runs
                                                                                                           found croupier completing it, now fixed
                                                                                                           and pinned by a test; PokerKit may refuse
                                                                                                           that raise. PokerKit reopening for checkers
                                                                                                           is its own difference from Robert's
                                                                                                           Rules. While the short bet is the only
                                                                                                           wager both ranges are checked exactly
                                                                                                           (croupier: a full bet, or nothing for a
                                                                                                           checker; PokerKit: all-in + a full
                                                                                                           bet); no raise is played for the rest
                                                                                                           of that round.
"short all-ins adding up   Each short all-in is judged alone       Consecutive short all-ins that add up   Rule difference: croupier follows the
to a full raise": a        (Decision 3.2-2): a player who has      to a full raise reopen the betting.     letter of Decision 3.2-2; TDA 47A and
player who acted faces     acted may not raise.                                                            Robert's Rules agree with PokerKit
several short all-ins                                                                                      (reported to the lead). The policy
                                                                                                           keeps to croupier's choices;
                                                                                                           PokerKit's reopened minimum (the bet +
                                                                                                           the largest raise) is checked.
"raise nobody can call"    A player may raise (all in) while an    No raise when no other live player      Harmless difference (the excess comes
                           opponent with chips behind can at most  has more than the current bet.          back uncalled). The policy keeps to
                           call all in.                                                                    PokerKit's choices.
"pots merged after hand    Each main and side pot is divided on    Recomputes the pots after killing the   PokerKit quirk. The pots are compared
killing"                   its own, the odd chip per pot (DIGEST   hands that cannot win: pots left with   before the kill; the payouts must equal
                           3.2-11).                                the same contenders merge and are       croupier's pots merged the same way and
                                                                   divided once, so the odd chips can      divided once; the final stacks are
                                                                   differ.                                 compared after that adjustment.
Short big blind (a stack   The call is the full blind (Decision    The call is the largest amount posted.  Avoided: stacks start at 3 big blinds
smaller than the blind)    3.2-5, short all-in blinds).                                                    (bets) plus the ante. Pinned by a test.
Folding when checking is   Allowed (Decision 3.2-9), switchable.   Refused in tournament mode, a warning   Aligned: croupier runs with
free                                                               in cash-game mode.                      ``fold_when_check_is_free=False``.
Stud bring-in amount       Fixed limit: the bring-in or a          The bring-in or a completion.           Compared: croupier's low end with the
                           completion (12.2(a)).                                                           bring-in, its high end with the
                                                                                                           completion.
Stud bring-in player       Lowest up card; equal ranks: clubs      The same (c < d < h < s, aces high).    Compared.
                           lowest (12.2(a)).
Stud opener of later       The best exposed hand (pairs, two       The same; ties to the lowest player     Compared. (An earlier state.py chose
streets                    pair, trips, quads, then ranks) among   index (the first left of the dealer);   among the players who could still bet;
                           the players still in, ties to the       an all-in opener passes to the next     the first runs here flagged it, seed
                           first clockwise from the dealer's       player.                                 '1:F7S:251'; it now agrees.)
                           left; if all in, the next player who
                           can bet.
Seven card stud, 7 or 8    One community card when the deck        Deals from the mucked cards.            Avoided: at most 6 players (7 players
players reaching seventh   cannot give everyone a seventh card                                             need 49 cards and 4 burns).
street                     (13, inferred).
Everyone else folds        The winner's pot includes its own       The uncalled bet goes back first, only  Notation only: the final stacks are
                           matched chips.                          the others' chips are pushed.           compared.
Heads-up blinds, odd       Settings.                               Button posts the small blind; the odd   Aligned (see above).
chip, antes                                                        chip to the lowest index; antes count
                                                                   in side-pot levels with
                                                                   ``ante_trimming_status=True``.
=========================  ======================================  ======================================  ======================================

Everything else must agree exactly; any other difference raises :class:`MismatchError`
with the hand's seed, the table, the deck and the action list.
"""

from __future__ import annotations

import random
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pokerkit as pk

from croupier.cards.card import Card
from croupier.cards.deck import Deck, full_deck
from croupier.poker import (
    HOLDEM,
    OMAHA,
    SEVEN_CARD_STUD,
    Chore,
    FixedLimit,
    HandState,
    HeadsUpBlinds,
    LegalActions,
    NoLimit,
    OddChip,
    Phase,
    PotLimit,
    TableRules,
)
from croupier.poker.events import PotAwarded

__all__ = [
    "VARIANTS",
    "Action",
    "HandResult",
    "HandSpec",
    "MismatchError",
    "Options",
    "Tally",
    "hand_seed",
    "options_after",
    "play_hand",
    "play_seeded",
    "random_spec",
    "run_hands",
]

VARIANTS: tuple[str, ...] = ("NT", "FT", "PO", "F7S")
"""The games compared, by PHH variant code."""

_CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in full_deck())
_PK_CARD: dict[str, Any] = {text: next(iter(pk.Card.parse(text))) for text in _CARD_TEXT}
_PK_TEXT: dict[Any, str] = {card: text for text, card in _PK_CARD.items()}

_AUTOMATIONS = (
    pk.Automation.ANTE_POSTING,
    pk.Automation.BET_COLLECTION,
    pk.Automation.BLIND_OR_STRADDLE_POSTING,
    pk.Automation.CHIPS_PULLING,
)
"""What PokerKit does by itself; the bridge deals, shows, kills hands and pushes chips."""

Action = tuple[str, int]
"""``("f", 0)`` fold, ``("cc", 0)`` check or call, ``("cbr", to)`` bet / raise / complete
to a round total, ``("pb", amount)`` post the bring-in."""


@dataclass(frozen=True)
class HandSpec:
    """One hand's table: the game, the stacks (seat 1 first), the forced bets and the deck."""

    variant: str
    stacks: tuple[int, ...]
    deck: tuple[str, ...]
    """Every card in dealing order (the first card is dealt first)."""
    blinds: tuple[int, int] = (0, 0)
    """Small and big blind (hold'em, Omaha)."""
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.stacks)

    def describe(self) -> str:
        """Everything needed to set the hand up again, on one line."""
        if self.variant == "F7S":
            forced = (
                f"ante {self.ante}, bring-in {self.bring_in}, bets {self.small_bet}/{self.big_bet}"
            )
        else:
            forced = f"blinds {self.blinds[0]}/{self.blinds[1]}, ante {self.ante}"
            if self.variant == "FT":
                forced += f", bets {self.small_bet}/{self.big_bet}"
        return (
            f"{self.variant}, {self.players} players, {forced}, stacks {list(self.stacks)}, "
            f"deck {' '.join(self.deck)}"
        )


@dataclass(frozen=True)
class Options:
    """What the player to act may do, in terms both engines share."""

    seat: int
    fold: bool
    call: int | None
    """Chips a check (0) or call puts in; None when neither is allowed (a bring-in is due)."""
    bring_in: int | None
    """The bring-in to post, when one is due."""
    raise_to: tuple[int, int] | None
    """Smallest and largest bet, raise or completion (round totals)."""


class MismatchError(AssertionError):
    """croupier and PokerKit disagree; the message holds everything needed to replay the hand."""

    def __init__(
        self, problem: str, spec: HandSpec, actions: Sequence[str], seed: str | None = None
    ) -> None:
        self.problem = problem
        self.spec = spec
        self.actions = tuple(actions)
        self.seed = seed
        lines = [
            f"croupier/PokerKit mismatch: {problem}",
            f"  seed: {seed!r}" if seed is not None else "  seed: (scripted hand)",
            f"  hand: {spec.describe()}",
            f"  actions: {', '.join(self.actions) or '(none)'}",
        ]
        super().__init__("\n".join(lines))

    def __reduce__(
        self,
    ) -> tuple[type[MismatchError], tuple[str, HandSpec, tuple[str, ...], str | None]]:
        return (MismatchError, (self.problem, self.spec, self.actions, self.seed))


@dataclass
class HandResult:
    """What one hand exercised (for coverage counts)."""

    decisions: int = 0
    actions: list[str] = field(default_factory=list)
    all_in: bool = False
    side_pots: bool = False
    showdown: bool = False
    split: bool = False
    streets: int = 0
    known: Counter[str] = field(default_factory=Counter)
    croupier_paid: dict[int, int] = field(default_factory=dict)
    """Chips croupier paid each seat from the pots at the showdown."""
    pokerkit_paid: dict[int, int] = field(default_factory=dict)
    """Chips PokerKit pushed to each seat at the showdown."""


@dataclass
class Tally:
    """Counts over many hands."""

    hands: Counter[str] = field(default_factory=Counter)
    decisions: int = 0
    all_in: int = 0
    side_pots: int = 0
    showdowns: int = 0
    splits: int = 0
    known: Counter[str] = field(default_factory=Counter)
    mismatches: list[MismatchError] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    """Time spent playing each game."""

    def add(self, variant: str, result: HandResult) -> None:
        """Count one hand that agreed."""
        self.hands[variant] += 1
        self.decisions += result.decisions
        self.all_in += result.all_in
        self.side_pots += result.side_pots
        self.showdowns += result.showdown
        self.splits += result.split
        self.known.update(result.known)

    def merge(self, other: Tally) -> None:
        """Add another tally's counts."""
        self.hands.update(other.hands)
        self.decisions += other.decisions
        self.all_in += other.all_in
        self.side_pots += other.side_pots
        self.showdowns += other.showdowns
        self.splits += other.splits
        self.known.update(other.known)
        self.mismatches.extend(other.mismatches)
        for variant, spent in other.seconds.items():
            self.seconds[variant] = self.seconds.get(variant, 0.0) + spent

    @property
    def total(self) -> int:
        """Hands played (agreeing or not)."""
        return sum(self.hands.values()) + len(self.mismatches)

    def summary(self) -> str:
        """A few lines for logs."""
        games = ", ".join(f"{v} {self.hands[v]}" for v in VARIANTS if self.hands[v])
        known = ", ".join(f"{k} {n}" for k, n in sorted(self.known.items())) or "none"
        return (
            f"hands {self.total} ({games}); decisions {self.decisions}; all-in hands "
            f"{self.all_in}; hands with side pots {self.side_pots}; showdowns {self.showdowns}; "
            f"split pots {self.splits}; known differences met {known}; "
            f"mismatches {len(self.mismatches)}"
        )


# ------------------------------------------------------------------ table set-up
def random_spec(rng: random.Random, variant: str) -> HandSpec:
    """A random table for ``variant``: 2-6 players; stacks of 5-40 big blinds in no limit and
    pot limit, 3-30 (small) bets in fixed limit, some of them equal (ties at the side-pot
    levels); antes in a fifth of the blind games; a shuffled deck."""
    n = rng.randint(2, 6)
    deck = list(_CARD_TEXT)
    rng.shuffle(deck)
    forced: dict[str, Any]
    if variant == "F7S":
        ante, bring_in, small, big = rng.choice(
            [(1, 2, 5, 10), (1, 1, 2, 4), (2, 5, 10, 20), (1, 3, 10, 20), (5, 10, 25, 50)]
        )
        forced = {"ante": ante, "bring_in": bring_in, "small_bet": small, "big_bet": big}
        unit, low, high = small, 3, 30
    else:
        sb, bb = rng.choice([(1, 2), (2, 5), (5, 10), (1, 3)])
        forced = {"blinds": (sb, bb), "ante": rng.choice([0, 0, 0, 0, 1, 0, 0, 0, 0, bb // 2])}
        if variant == "FT":
            forced.update(small_bet=bb, big_bet=2 * bb)
            unit, low, high = bb, 3, 30
        else:
            unit, low, high = bb, 5, 40
    stacks: list[int] = []
    for _ in range(n):
        if stacks and rng.random() < 0.15:
            stacks.append(rng.choice(stacks))
        else:
            stacks.append(rng.randint(low * unit, high * unit))
    return HandSpec(variant, tuple(stacks), tuple(deck), **forced)


def _croupier_rules(spec: HandSpec) -> TableRules:
    common: dict[str, Any] = {
        "odd_chip": OddChip.FIRST_LEFT_OF_BUTTON,
        "heads_up": HeadsUpBlinds.BUTTON_POSTS_FIRST,
        "fold_when_check_is_free": False,
        "ante": spec.ante,
    }
    if spec.variant == "F7S":
        return TableRules(SEVEN_CARD_STUD, FixedLimit(spec.small_bet, spec.big_bet, big_bet_from=2),
                          blinds=(), bring_in=spec.bring_in, table_minimum=spec.bring_in,
                          **common)  # fmt: skip
    sb, bb = spec.blinds
    if spec.variant == "NT":
        return TableRules(HOLDEM, NoLimit(), blinds=(sb, bb), table_minimum=bb, **common)
    if spec.variant == "FT":
        structure = FixedLimit(spec.small_bet, spec.big_bet, big_bet_from=2)
        return TableRules(HOLDEM, structure, blinds=(sb, bb), table_minimum=bb, **common)
    if spec.variant == "PO":
        return TableRules(OMAHA, PotLimit(), blinds=(sb, bb), table_minimum=bb, **common)
    raise ValueError(f"unknown variant {spec.variant!r}")


def _pokerkit_state(spec: HandSpec) -> Any:
    stacks, n = list(spec.stacks), spec.players
    if spec.variant == "NT":
        game: Any = pk.NoLimitTexasHoldem(
            _AUTOMATIONS, True, spec.ante, spec.blinds, spec.blinds[1]
        )
    elif spec.variant == "FT":
        game = pk.FixedLimitTexasHoldem(
            _AUTOMATIONS, True, spec.ante, spec.blinds, spec.small_bet, spec.big_bet
        )
    elif spec.variant == "PO":
        game = pk.PotLimitOmahaHoldem(_AUTOMATIONS, True, spec.ante, spec.blinds, spec.blinds[1])
    elif spec.variant == "F7S":
        game = pk.FixedLimitSevenCardStud(
            _AUTOMATIONS, True, spec.ante, spec.bring_in, spec.small_bet, spec.big_bet
        )
    else:
        raise ValueError(f"unknown variant {spec.variant!r}")
    return game(stacks, n)


# --------------------------------------------------------------------- the hand
Chooser = Callable[[Options], Action]


def random_chooser(rng: random.Random) -> Chooser:
    """A policy over the agreed options: fold, check or call, the smallest raise, the largest
    (all in, in no limit), or a raise in between; the bring-in or a completion."""

    def choose(opts: Options) -> Action:
        if opts.bring_in is not None:
            if opts.raise_to is not None and rng.random() < 0.3:
                return ("cbr", opts.raise_to[0])
            return ("pb", opts.bring_in)
        moves: list[tuple[float, Action]] = []
        if opts.fold:
            moves.append((0.18, ("f", 0)))
        if opts.call is not None:
            moves.append((0.45 if opts.call else 0.55, ("cc", 0)))
        if opts.raise_to is not None:
            low, high = opts.raise_to
            moves.append((0.13, ("cbr", low)))
            moves.append((0.12, ("cbr", high)))
            if high - low > 1:
                moves.append((0.12, ("cbr", rng.randint(low + 1, high - 1))))
        total = sum(w for w, _ in moves)
        pick = rng.random() * total
        for weight, move in moves:
            pick -= weight
            if pick < 0:
                return move
        return moves[-1][1]

    return choose


def scripted_chooser(actions: Iterable[Action]) -> Chooser:
    """Play these actions in order (for minimal failing hands)."""
    queue = list(actions)

    def choose(opts: Options) -> Action:
        if not queue:
            raise IndexError("the script ran out of actions")
        return queue.pop(0)

    return choose


class _Duel:
    """One hand in both engines."""

    def __init__(self, spec: HandSpec, seed: str | None) -> None:
        self.spec = spec
        self.seed = seed
        self.log: list[str] = []
        self.result = HandResult(actions=self.log)
        self.hand = HandState(
            _croupier_rules(spec),
            dict(enumerate(spec.stacks, start=1)),
            button=spec.players,
            deck=Deck.stacked(spec.deck),
            automatic=False,
        )
        self.pk = _pokerkit_state(spec)
        self.pk_cards = [_PK_CARD[c] for c in spec.deck]
        self.pk_next = 0
        self.c_pots: list[tuple[int, tuple[int, ...]]] | None = None
        self.pk_pots: list[tuple[int, tuple[int, ...]]] | None = None
        self.pk_paid: Counter[int] = Counter()
        self.pk_merged: list[tuple[int, tuple[int, ...]]] | None = None
        """PokerKit's pots as it pays them (after killing the hands that cannot win)."""
        self.street_seen: int | None = None
        self.short_open = False
        """A short all-in opened the betting of this street (less than a full bet)."""
        self.short_raises = 0
        """Short all-in raises made this street (fixed limit: less than a full raise)."""
        self.wagers = 0
        """Bets, raises and completions made this street."""
        self.acted: set[int] = set()
        """Seats that have acted this street."""
        self.street_log: list[tuple[int, int | None]] = []
        """This street's actions: the seat, and for a wager whose player went all in for
        less than a full raise, the raise increment (None for any other action)."""

    def fail(self, problem: str) -> MismatchError:
        return MismatchError(problem, self.spec, self.log, self.seed)

    # -- advancing
    def _croupier_chores(self) -> None:
        hand = self.hand
        while hand.phase is Phase.DEALER:
            if hand.next_chore is Chore.AWARD_POTS:
                self.c_pots = [(p.amount, p.eligible) for p in hand.pots]
            hand.step()

    def _take(self, n: int) -> list[Any]:
        cards = self.pk_cards[self.pk_next : self.pk_next + n]
        self.pk_next += n
        return cards

    def _pokerkit_chores(self) -> None:
        st = self.pk
        while st.status and st.actor_index is None:
            if st.card_burning_status:
                st.burn_card(self._take(1))
            elif st.hole_dealee_index is not None:
                st.deal_hole(self._take(1))
            elif (count := st.board_dealing_count) is not None:
                st.deal_board(self._take(count))
            elif st.showdown_index is not None:
                st.show_or_muck_hole_cards(True)
            elif any(st.hand_killing_statuses):
                self._snapshot_pk_pots()
                st.kill_hand()
            elif st.can_push_chips():
                self._snapshot_pk_pots()
                if self.pk_merged is None:
                    self.pk_merged = self._pk_pot_list()
                op = st.push_chips()
                for i, amount in enumerate(op.amounts):
                    if amount:
                        self.pk_paid[i + 1] += amount
            else:
                raise self.fail("PokerKit stopped with nothing to do")

    def _snapshot_pk_pots(self) -> None:
        if self.pk_pots is None:
            self.pk_pots = self._pk_pot_list()

    def _pk_pot_list(self) -> list[tuple[int, tuple[int, ...]]]:
        return [(p.amount, tuple(i + 1 for i in p.player_indices)) for p in self.pk.pots]

    def advance(self) -> None:
        self._croupier_chores()
        self._pokerkit_chores()

    # -- comparing
    def compare_table(self) -> None:
        hand, st = self.hand, self.pk
        players = hand.players
        c_stacks = [players[s].stack for s in players]
        if c_stacks != list(st.stacks):
            raise self.fail(f"stacks: croupier {c_stacks}, PokerKit {list(st.stacks)}")
        c_bets = [players[s].bet for s in players]
        if c_bets != list(st.bets):
            raise self.fail(f"bets in front: croupier {c_bets}, PokerKit {list(st.bets)}")
        c_live = [not players[s].folded for s in players]
        if c_live != list(st.statuses):
            raise self.fail(f"players in the hand: croupier {c_live}, PokerKit {list(st.statuses)}")
        if hand.street != st.street_index:
            raise self.fail(f"street: croupier {hand.street}, PokerKit {st.street_index}")
        for i, seat in enumerate(players):
            p = players[seat]
            if p.folded:  # PokerKit mucks a folded hand; croupier keeps the record
                continue
            cards = [_PK_TEXT[c] for c in st.hole_cards[i]]
            up = [c for c, s in zip(cards, st.hole_card_statuses[i], strict=True) if s]
            down = [c for c, s in zip(cards, st.hole_card_statuses[i], strict=True) if not s]
            if [str(c) for c in p.down] != down or [str(c) for c in p.up] != up:
                raise self.fail(
                    f"seat {seat}'s cards: croupier down {_cards(p.down)} up {_cards(p.up)}, "
                    f"PokerKit down {' '.join(down)} up {' '.join(up)}"
                )
        board = [_PK_TEXT[cards[0]] for cards in st.board_cards]
        if [str(c) for c in hand.board] != board:
            raise self.fail(f"board: croupier {_cards(hand.board)}, PokerKit {' '.join(board)}")
        if hand.total_pot != st.total_pot_amount:
            raise self.fail(f"total pot: croupier {hand.total_pot}, PokerKit {st.total_pot_amount}")
        if not any(st.bets):
            c_pots = [(p.amount, p.eligible) for p in hand.pots]
            pk_pots = self._pk_pot_list()
            if c_pots != pk_pots:
                raise self.fail(f"pots: croupier {c_pots}, PokerKit {pk_pots}")

    def options(self) -> Options:
        hand, st = self.hand, self.pk
        seat = hand.actor
        if seat is None or st.actor_index is None or seat != st.actor_index + 1:
            who = None if st.actor_index is None else st.actor_index + 1
            raise self.fail(f"player to act: croupier seat {seat}, PokerKit seat {who}")
        legal = hand.legal_actions()
        mine = _croupier_options(legal)
        theirs = _pokerkit_options(st, seat)
        if mine == theirs:
            return mine
        known = self._known_difference(mine, theirs)
        if known is None:
            raise self.fail(
                f"legal actions of seat {seat} on street {hand.street}: croupier "
                f"{legal.describe()!r} -> {mine}, PokerKit {theirs}"
            )
        name, agreed = known
        self.result.known[name] += 1
        return agreed

    def _known_difference(self, mine: Options, theirs: Options) -> tuple[str, Options] | None:
        """The documented rule differences (see the module docstring): the difference's
        name and the options both engines allow, or None for a mismatch."""
        st = self.pk
        i = st.actor_index
        street = st.street
        if replace(mine, raise_to=None) != replace(theirs, raise_to=None) or street is None:
            return None
        fixed = self.spec.variant in ("FT", "F7S")
        step = street.min_completion_betting_or_raising_amount
        top = max(st.bets)
        all_in = st.stacks[i] + st.bets[i]
        live = [j for j in st.player_indices if st.statuses[j] and j != i]
        nobody_can_call = all(st.stacks[j] + st.bets[j] <= top for j in live)
        if self.short_open:
            # a short all-in opening bet: croupier lets a raise complete it to a full bet and
            # keeps the betting closed to players who checked; PokerKit reopens the betting
            # and makes the next raise a full bet on top of it. Checked exactly while the
            # short bet is the street's only wager; no raise is played in either case.
            name = "short all-in opening bet"
            if self.wagers == 1:
                acted = theirs.seat in self.acted
                c_low = None if mine.raise_to is None else mine.raise_to[0]
                # croupier: limit poker completes the short bet to a full bet; no limit and
                # pot limit raise a full raise on top of it (Decision 3.2-1); the betting
                # stays closed to players who had checked (Decision 3.2-2)
                expected = min(step, all_in) if fixed else min(top + step, all_in)
                if c_low != (None if acted else expected):
                    return None
                if fixed:
                    pk_low = None if theirs.raise_to is None else theirs.raise_to[0]
                    if pk_low != (None if nobody_can_call else min(top + step, all_in)):
                        return None
            return name, replace(mine, raise_to=None)
        if mine.raise_to is not None and theirs.raise_to is None:
            if nobody_can_call:
                # nobody left could put in more than the bet now: PokerKit refuses a raise
                return "raise nobody can call", theirs
            one_more = min(top + step, all_in)
            if (
                fixed
                and st.completion_betting_or_raising_count
                == street.max_completion_betting_or_raising_count
                and mine.raise_to == (one_more, one_more)
            ):
                if sum(1 for j in st.player_indices if st.statuses[j] and st.stacks[j]) == 2:
                    return "heads-up cap", theirs
                if self.short_raises:
                    return "short all-in raise counted in the cap", theirs
        if mine.raise_to is None and theirs.raise_to is not None and theirs.seat in self.acted:
            # short all-ins since the player acted that add up to a full raise: PokerKit
            # reopens the betting for the player, croupier does not
            last = max(k for k, (seat, _) in enumerate(self.street_log) if seat == theirs.seat)
            since = [short for seat, short in self.street_log[last + 1 :] if short is not None]
            full = st.completion_betting_or_raising_amount
            if (
                since
                and sum(since) >= full
                and theirs.raise_to[0] == min(top + max(full, step), all_in)
            ):
                return "short all-ins adding up to a full raise", mine
        if (
            mine.raise_to is None
            and theirs.raise_to is not None
            and self.spec.variant == "FT"
            and st.street_index == 0
            and st.completion_betting_or_raising_count - self.short_raises == 3
            and theirs.raise_to == (min(top + step, all_in),) * 2
        ):
            # the big blind is the bet of the first round: croupier caps at three raises
            return "fourth pre-flop raise", mine
        return None

    # -- acting
    def act(self, action: Action, opts: Options) -> None:
        hand, st = self.hand, self.pk
        kind, amount = action
        seat = opts.seat
        short: int | None = None
        if kind == "f":
            text = f"s{seat} f"
            hand.fold()
            st.fold()
        elif kind == "cc":
            text = f"s{seat} cc" + (f" {opts.call}" if opts.call else "")
            if opts.call:
                hand.call()
            else:
                hand.check()
            st.check_or_call()
        elif kind == "pb":
            text = f"s{seat} pb {amount}"
            hand.bring_in(amount)
            st.post_bring_in()
        elif kind == "cbr":
            text = f"s{seat} cbr {amount}"
            short = self._note_wager(amount)
            if opts.bring_in is not None:
                hand.bring_in(amount)
            else:
                hand.raise_to(amount)
            st.complete_bet_or_raise_to(amount)
        else:
            raise ValueError(f"unknown action {action!r}")
        self.log.append(text)
        self.acted.add(seat)
        self.street_log.append((seat, short))

    def _note_wager(self, amount: int) -> int | None:
        """Track the short all-in wagers of the street (PokerKit's view of the state); the
        raise increment of a short all-in raise, else None."""
        st = self.pk
        i = st.actor_index
        step = st.street.min_completion_betting_or_raising_amount
        top = max(st.bets)
        self.wagers += 1
        if amount < st.stacks[i] + st.bets[i]:
            return None  # not all in
        if top >= step and amount - top < max(st.completion_betting_or_raising_amount, step):
            short: int | None = amount - top
        else:
            short = None
        if top < step and amount < step:
            self.short_open = True
        elif top >= step and amount < top + step:
            self.short_raises += 1
        return short

    def _new_street(self) -> None:
        if self.pk.street_index != self.street_seen:
            self.street_seen = self.pk.street_index
            self.short_open = False
            self.short_raises = 0
            self.wagers = 0
            self.acted.clear()
            self.street_log.clear()

    # -- the end
    def compare_end(self) -> None:
        hand, st = self.hand, self.pk
        if not hand.is_complete or st.status:
            raise self.fail(
                f"end of hand: croupier complete {hand.is_complete}, PokerKit running {st.status}"
            )
        awards = [e for e in hand.events if isinstance(e, PotAwarded)]
        adjust: Counter[int] = Counter()
        folded_to_one = sum(not p.folded for p in hand.players.values()) == 1
        if not folded_to_one:
            self.result.showdown = True
            if self.c_pots != self.pk_pots:
                raise self.fail(
                    f"pots at the showdown: croupier {self.c_pots}, PokerKit {self.pk_pots}"
                )
            paid: Counter[int] = Counter()
            for award in awards:
                for seat, chips in award.shares:
                    paid[seat] += chips
                self.result.split |= len(award.shares) > 1
            self.result.croupier_paid = dict(sorted((+paid).items()))
            self.result.pokerkit_paid = dict(sorted((+self.pk_paid).items()))
            if +paid != +self.pk_paid:
                merged = self._merged_split(awards)
                if merged is None or +merged != +self.pk_paid:
                    raise self.fail(
                        f"chips paid: croupier {dict(sorted(paid.items()))}, "
                        f"PokerKit {dict(sorted(self.pk_paid.items()))}"
                    )
                # PokerKit merged pots whose contenders became the same once the losing
                # hands were killed, and split the merged pot's odd chips once
                self.result.known["pots merged after hand killing"] += 1
                for seat in hand.players:
                    adjust[seat] = self.pk_paid[seat] - paid[seat]
        if self.c_pots is not None and len(self.c_pots) > 1:
            self.result.side_pots = True
        final = [hand.stacks[s] + adjust[s] for s in hand.players]
        if final != list(st.stacks):
            raise self.fail(f"final stacks: croupier {final}, PokerKit {list(st.stacks)}")

    def _merged_split(self, awards: Sequence[PotAwarded]) -> Counter[int] | None:
        """croupier's pots and winners, merged as PokerKit merged them and split once each
        (the remainder to the first winner left of the button); None if they cannot be."""
        merged = self.pk_merged
        if merged is None or merged == self.pk_pots:
            return None
        queue = list(awards)
        out: Counter[int] = Counter()
        for amount, _ in merged:
            total, winners = 0, set()
            while total < amount and queue:
                award = queue.pop(0)
                total += award.amount
                winners.add(tuple(sorted(seat for seat, _ in award.shares)))
            if total != amount or len(winners) != 1:
                return None
            (seats,) = winners
            share, remainder = divmod(amount, len(seats))
            for seat in seats:
                out[seat] += share
            out[seats[0]] += remainder
        return None if queue else out

    def play(self, chooser: Chooser) -> HandResult:
        self.advance()
        while self.hand.actor is not None or self.pk.actor_index is not None:
            self.compare_table()
            self._new_street()
            opts = self.options()
            self.result.decisions += 1
            action = chooser(opts)
            try:
                self.act(action, opts)
            except Exception as exc:  # an action legal in both was refused by one
                if isinstance(exc, MismatchError):
                    raise
                raise self.fail(f"applying {action}: {type(exc).__name__}: {exc}") from exc
            if any(p.all_in for p in self.hand.players.values()):
                self.result.all_in = True
            self.advance()
        self.result.streets = self.hand.street + 1
        self.compare_end()
        return self.result


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _croupier_options(legal: LegalActions) -> Options:
    assert legal.actor is not None
    if legal.bring_in is not None:
        low, high = legal.bring_in
        return Options(legal.actor, legal.fold, None, low, (high, high) if high > low else None)
    call = 0 if legal.check else legal.call
    return Options(legal.actor, legal.fold, call, None, legal.raise_to)


def _pokerkit_options(st: Any, seat: int) -> Options:
    low = st.min_completion_betting_or_raising_to_amount
    high = st.max_completion_betting_or_raising_to_amount
    return Options(
        seat,
        st.can_fold(),
        st.checking_or_calling_amount,
        st.effective_bring_in_amount,
        None if low is None else (low, high),
    )


def play_hand(
    spec: HandSpec, chooser: Chooser | Sequence[Action], seed: str | None = None
) -> HandResult:
    """Play one hand in both engines, comparing every state; raise :class:`MismatchError`."""
    if not callable(chooser):
        chooser = scripted_chooser(chooser)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a PokerKit warning (e.g. a burned chip) is a finding
        duel = _Duel(spec, seed)
        try:
            return duel.play(chooser)
        except MismatchError:
            raise
        except Exception as exc:
            raise duel.fail(f"{type(exc).__name__}: {exc}") from exc


def options_after(spec: HandSpec, actions: Sequence[Action]) -> tuple[Options, Options]:
    """Play ``actions`` in both engines (comparing as :func:`play_hand` does) and return
    croupier's and PokerKit's options, unreconciled, at the next decision point."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        duel = _Duel(spec, None)
        duel.advance()
        for action in actions:
            duel.compare_table()
            duel._new_street()
            duel.act(action, duel.options())
            duel.advance()
        duel.compare_table()
        seat = duel.hand.actor
        if seat is None or duel.pk.actor_index != seat - 1:
            raise duel.fail(f"player to act: croupier {seat}, PokerKit {duel.pk.actor_index}")
        return (
            _croupier_options(duel.hand.legal_actions()),
            _pokerkit_options(duel.pk, seat),
        )


def hand_seed(seed: int, variant: str, index: int) -> str:
    """The seed string of one hand of a run (``random.Random`` hashes strings stably)."""
    return f"{seed}:{variant}:{index}"


def play_seeded(seed: str, variant: str) -> HandResult:
    """Set up and play the hand a seed string names (its table and its random actions)."""
    rng = random.Random(seed)
    spec = random_spec(rng, variant)
    return play_hand(spec, random_chooser(rng), seed)


def run_hands(seed: int, variant: str, start: int, stop: int, tally: Tally | None = None) -> Tally:
    """Play hands ``start..stop-1`` of a run; collect mismatches instead of stopping."""
    tally = tally if tally is not None else Tally()
    clock = time.perf_counter()
    for index in range(start, stop):
        name = hand_seed(seed, variant, index)
        try:
            result = play_seeded(name, variant)
        except MismatchError as exc:
            tally.mismatches.append(exc)
            continue
        tally.add(variant, result)
    tally.seconds[variant] = tally.seconds.get(variant, 0.0) + time.perf_counter() - clock
    return tally
