"""PHH both ways between PokerKit and croupier: hands played by one, replayed by the other.

PokerKit to croupier: a random table (2-6 players, short stacks among deep ones, so
all-ins and side pots are common) is set up in PokerKit, which plays the hand at
random by its own rules: every choice it offers (fold, check or call, the smallest,
the largest or a random bet, the bring-in or a completion, showing or mucking at the
showdown) is drawn from a seeded generator, and the cards come from a seeded deck.
PokerKit writes the hand (``HandHistory.from_game_state(...).dumps()``, with the final
stacks as ``finishing_stacks``), and croupier reads it and replays it through
``croupier.phh.load``/``loads`` and ``croupier.phh.replay``, the code path of
``croupier replay``; the final stacks must be equal.

croupier to PokerKit: croupier plays random hands under the ``phh`` profile's rules,
writes them (``croupier.phh.writer.dumps``) and PokerKit loads them
(``HandHistory.loads``); the final stacks must be equal.

Tables (``SPECS``, labelled by PHH variant code): ``NT`` no-limit hold'em, ``NT+ante``
no-limit hold'em with antes, ``FT`` fixed-limit hold'em, ``PO`` pot-limit Omaha, ``F7S``
fixed-limit seven card stud (antes and a bring-in).

The ``phh`` profile carries every PokerKit convention these hands meet as a rule
setting (its fixed-limit cap, ``ShortAllIn``, ``raise_needs_a_caller``,
``merge_pots_with_the_same_winners``; docs/decisions.md, "PHH vs PokerKit"), so every
hand must end with the same stacks both ways. The hands that reach the conventions where
the NZ rules differ (:data:`CONVENTIONS`) are counted by name, so a run shows that it
tested them.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pokerkit as pk

from croupier.cards.deck import full_deck
from croupier.phh import PHHError, loads, replay
from croupier.phh.profiles import PROFILES
from croupier.phh.writer import dumps
from croupier.poker import (
    HOLDEM,
    OMAHA,
    SEVEN_CARD_STUD,
    FixedLimit,
    ForcedBets,
    HandState,
    NoLimit,
    PotLimit,
    TableRules,
    build_pots,
)
from croupier.poker import events as ev

__all__ = [
    "LABELS",
    "Outcome",
    "Table",
    "Tally",
    "croupier_hand",
    "croupier_to_pokerkit",
    "pokerkit_hand",
    "pokerkit_to_croupier",
    "random_table",
    "run_croupier_to_pokerkit",
    "run_pokerkit_to_croupier",
]

LABELS: tuple[str, ...] = ("NT", "NT+ante", "FT", "PO", "F7S")
"""The tables played, by PHH variant code (``NT+ante``: no-limit hold'em with antes)."""

SHORT_ALL_IN = "short all-in wager"
"""A round where a player went all in for less than a full bet or raise and then somebody
completed, bet or raised: what may follow is ``ShortAllIn`` and
``RaiseCap.short_all_ins_count`` (under the NZ rules the betting would differ:
pokerkit_bridge.py, "short all-in opening bet", "short all-ins adding up to a full
raise", "short all-in raise counted in the cap")."""

MERGED_POTS = "pots merged"
"""A main and a side pot going to the same two or more winners: PokerKit divides them
once (``merge_pots_with_the_same_winners``; the NZ rules divide each, DIGEST 3.2-11)."""

BRING_IN_COMPLETION = "all-in completion for the bring-in"
"""A stud player to bring in who completes all in for no more than the bring-in (a
wager, not the bring-in: ``ShortAllIn.complete_for_the_bring_in``)."""

CONVENTIONS: tuple[str, ...] = (SHORT_ALL_IN, MERGED_POTS, BRING_IN_COMPLETION)
"""The PokerKit conventions the hands are counted for, by name."""

_CARDS: tuple[str, ...] = tuple(str(c) for c in full_deck())
_PK_CARD: dict[str, Any] = {text: next(iter(pk.Card.parse(text))) for text in _CARDS}

_AUTOMATIONS = (
    pk.Automation.ANTE_POSTING,
    pk.Automation.BET_COLLECTION,
    pk.Automation.BLIND_OR_STRADDLE_POSTING,
    pk.Automation.CARD_BURNING,
    pk.Automation.BOARD_DEALING,
    pk.Automation.HAND_KILLING,
    pk.Automation.CHIPS_PUSHING,
    pk.Automation.CHIPS_PULLING,
)
"""Everything but the players' choices (showing or mucking included) and the hole-card deals
is PokerKit's own (the hole cards are dealt once the seeded deck is in place)."""


@dataclass(frozen=True)
class Table:
    """One hand's table: the game, the forced bets, the stacks (p1 first) and the deck."""

    label: str
    stacks: tuple[int, ...]
    deck: tuple[str, ...]
    blinds: tuple[int, int] = (0, 0)
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0

    @property
    def variant(self) -> str:
        """The PHH variant code."""
        return self.label.split("+")[0]


def random_table(rng: random.Random, label: str) -> Table:
    """2-6 players; about a third of the stacks short (1-4 big blinds or small bets, enough
    for the blind and the ante), the others 5-60; some stacks equal (ties at the side-pot
    levels); a shuffled deck."""
    n = rng.randint(2, 6)
    deck = list(_CARDS)
    rng.shuffle(deck)
    forced: dict[str, Any]
    if label == "F7S":
        ante, bring_in, small, big = rng.choice(
            [(1, 2, 5, 10), (1, 1, 2, 4), (2, 5, 10, 20), (1, 3, 10, 20), (5, 10, 25, 50)]
        )
        forced = {"ante": ante, "bring_in": bring_in, "small_bet": small, "big_bet": big}
        unit, floor = small, ante + bring_in
    else:
        sb, bb = rng.choice([(1, 2), (2, 5), (5, 10), (1, 3), (25, 50)])
        ante = rng.choice([1, bb // 5 or 1, bb // 2]) if label == "NT+ante" else 0
        forced = {"blinds": (sb, bb), "ante": ante}
        if label == "FT":
            forced.update(small_bet=bb, big_bet=2 * bb)
        unit, floor = bb, bb + ante
    stacks: list[int] = []
    for _ in range(n):
        if stacks and rng.random() < 0.15:
            stacks.append(rng.choice(stacks))
        elif rng.random() < 0.35:
            stacks.append(max(floor, rng.randint(unit, 4 * unit)))
        else:
            stacks.append(rng.randint(5 * unit, 60 * unit))
    return Table(label, tuple(stacks), tuple(deck), **forced)


def _pokerkit_game(table: Table) -> Any:
    antes, blinds = table.ante, table.blinds
    match table.variant:
        case "NT":
            return pk.NoLimitTexasHoldem(_AUTOMATIONS, True, antes, blinds, blinds[1])
        case "FT":
            return pk.FixedLimitTexasHoldem(
                _AUTOMATIONS, True, antes, blinds, table.small_bet, table.big_bet
            )
        case "PO":
            return pk.PotLimitOmahaHoldem(_AUTOMATIONS, True, antes, blinds, blinds[1])
        case "F7S":
            return pk.FixedLimitSevenCardStud(
                _AUTOMATIONS, True, antes, table.bring_in, table.small_bet, table.big_bet
            )
    raise ValueError(f"unknown table {table.label!r}")


def pokerkit_hand(table: Table, rng: random.Random) -> tuple[Any, Any, set[str]]:
    """PokerKit plays one hand at random; returns its game, its finished state and the
    conventions the hand meets (see :data:`CONVENTIONS`)."""
    known: set[str] = set()
    short_street: int | None = None  # the street of the last short all-in wager
    game = _pokerkit_game(table)
    state = game(list(table.stacks), len(table.stacks))
    state.deck_cards.clear()
    state.deck_cards.extend(_PK_CARD[c] for c in table.deck)  # seeded, not random.shuffle
    while state.status:
        if state.can_deal_hole():
            state.deal_hole()
            continue
        if state.showdown_index is not None:
            i = state.showdown_index
            river = len(state.board_cards) == 5 or len(state.hole_cards[i]) == 7
            # a muck, even of a winning hand, at the last showdown; PokerKit 0.7.7 breaks
            # (assertions) on a muck before an all-in run-out, on one that leaves a pot
            # without a contender, and on one that leaves a single player in the hand
            safe = sum(state.statuses) > 2 and all(
                len(pot.player_indices) > 1 for pot in state.pots if i in pot.player_indices
            )
            state.show_or_muck_hole_cards(not (river and safe and rng.random() < 0.15))
            continue
        if state.actor_index is None:
            raise AssertionError("PokerKit stopped with nothing to do")
        moves: list[tuple[float, tuple[str, int]]] = []
        if state.can_post_bring_in():
            moves.append((0.7, ("pb", 0)))
        if state.can_fold():
            moves.append((0.18, ("f", 0)))
        if state.can_check_or_call():
            moves.append((0.5, ("cc", 0)))
        if state.can_complete_bet_or_raise_to():
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            moves += [(0.14, ("cbr", low)), (0.12, ("cbr", high))]
            if high - low > 1:
                moves.append((0.12, ("cbr", rng.randint(low + 1, high - 1))))
        pick = rng.random() * sum(w for w, _ in moves)
        kind, amount = moves[-1][1]
        for weight, move in moves:
            pick -= weight
            if pick < 0:
                kind, amount = move
                break
        if kind == "pb":
            state.post_bring_in()
        elif kind == "f":
            state.fold()
        elif kind == "cc":
            state.check_or_call()
        else:
            i, street = state.actor_index, state.street
            if state.can_post_bring_in() and amount <= table.bring_in:
                known.add(BRING_IN_COMPLETION)
            if short_street == state.street_index:
                known.add(SHORT_ALL_IN)
            top = max(state.bets)
            full = max(state.completion_betting_or_raising_amount,
                       street.min_completion_betting_or_raising_amount)  # fmt: skip
            if amount == state.stacks[i] + state.bets[i] and amount - top < full:
                short_street = state.street_index
            state.complete_bet_or_raise_to(amount)
    return game, state, known


@dataclass(frozen=True)
class Outcome:
    """One hand written by one engine and replayed by the other."""

    label: str
    seed: str
    text: str
    """The PHH document."""
    expected: tuple[int | Decimal, ...]
    """The final stacks of the engine that played the hand."""
    got: tuple[int | Decimal, ...] | None
    """The final stacks of the replay; None when the replay refused the hand."""
    error: str = ""
    """Why the replay refused the hand."""
    known: frozenset[str] = frozenset()
    """The conventions (:data:`CONVENTIONS`) the hand meets."""

    @property
    def equal(self) -> bool:
        """Whether the replay ended with the same stacks."""
        return self.got == self.expected

    def describe(self) -> str:
        """Everything needed to look at the hand again."""
        return (
            f"{self.label} seed {self.seed!r}: played {list(self.expected)}, replayed "
            f"{list(self.got) if self.got is not None else self.error}\n{self.text}"
        )


def hand_seed(seed: int, label: str, index: int) -> str:
    """The seed string of one hand of a run."""
    return f"{seed}:{label}:{index}"


def pokerkit_to_croupier(seed: str, label: str) -> Outcome:
    """PokerKit plays and writes the hand; croupier reads and replays it (default profile:
    a file without croupier's fields is PHH's, so ``phh``)."""
    rng = random.Random(seed)
    table = random_table(rng, label)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit's notes on its own choices
        game, state, known = pokerkit_hand(table, rng)
        history = pk.HandHistory.from_game_state(game, state)
        history.finishing_stacks = list(state.stacks)
        text = history.dumps()
    expected = tuple(state.stacks)
    try:
        result = replay(loads(text, source=seed)[0])
    except PHHError as exc:
        return Outcome(label, seed, text, expected, None, str(exc), frozenset(known))
    if merged_pots(result.hand):
        known.add(MERGED_POTS)
    problems = "; ".join(result.problems())
    got = None if problems else tuple(result.final_stacks)
    return Outcome(label, seed, text, expected, got, problems, frozenset(known))


def croupier_rules(table: Table, profile: str = "phh") -> TableRules:
    """croupier's rules for the table under a rule profile (every setting the profile
    fixes: odd chip, heads-up blinds, raise cap, short all-ins, raises nobody can call,
    merged pots)."""
    common: dict[str, Any] = {
        **PROFILES[profile].settings(),
        "fold_when_check_is_free": False,
        "ante": table.ante,
    }
    sb, bb = table.blinds
    match table.variant:
        case "F7S":
            structure = FixedLimit(table.small_bet, table.big_bet, big_bet_from=2)
            return TableRules(SEVEN_CARD_STUD, structure, blinds=(), bring_in=table.bring_in,
                              table_minimum=table.bring_in, **common)  # fmt: skip
        case "NT":
            return TableRules(HOLDEM, NoLimit(), blinds=(sb, bb), table_minimum=bb, **common)
        case "FT":
            structure = FixedLimit(table.small_bet, table.big_bet, big_bet_from=2)
            return TableRules(HOLDEM, structure, blinds=(sb, bb), table_minimum=bb, **common)
        case "PO":
            return TableRules(OMAHA, PotLimit(), blinds=(sb, bb), table_minimum=bb, **common)
    raise ValueError(f"unknown table {table.label!r}")


def croupier_hand(table: Table, rng: random.Random, profile: str = "phh") -> HandState:
    """croupier plays one hand at random under the profile's rules (from a seeded deck)."""
    from croupier.cards.deck import Deck

    hand = HandState(
        croupier_rules(table, profile),
        dict(enumerate(table.stacks, start=1)),
        button=len(table.stacks),
        deck=Deck.stacked(table.deck),
    )
    while not hand.is_complete:
        legal = hand.legal_actions()
        if legal.bring_in is not None:
            low, high = legal.bring_in
            if legal.raise_to is not None and rng.random() < 0.5:
                hand.raise_to(legal.raise_to[0])  # all in: a short completion, not the bring-in
            else:
                hand.bring_in(high if rng.random() < 0.3 else low)
            continue
        moves: list[tuple[float, tuple[str, int]]] = []
        if legal.fold:
            moves.append((0.18, ("f", 0)))
        if legal.check:
            moves.append((0.5, ("check", 0)))
        if legal.call is not None:
            moves.append((0.5, ("call", 0)))
        if legal.raise_to is not None:
            low, high = legal.raise_to
            moves += [(0.14, ("raise", low)), (0.12, ("raise", high))]
            if high - low > 1:
                moves.append((0.12, ("raise", rng.randint(low + 1, high - 1))))
        pick = rng.random() * sum(w for w, _ in moves)
        kind, amount = moves[-1][1]
        for weight, move in moves:
            pick -= weight
            if pick < 0:
                kind, amount = move
                break
        if kind == "f":
            hand.fold()
        elif kind == "check":
            hand.check()
        elif kind == "call":
            hand.call()
        else:
            hand.raise_to(amount)
    return hand


def croupier_to_pokerkit(seed: str, label: str) -> Outcome:
    """croupier plays the hand under ``phh`` and writes it; PokerKit loads it."""
    rng = random.Random(seed)
    table = random_table(rng, label)
    hand = croupier_hand(table, rng)
    text = dumps(hand)
    expected = tuple(hand.stacks[s] for s in sorted(hand.stacks))
    known = frozenset(croupier_known(hand))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PokerKit's warnings on croupier's own fields
            states = list(pk.HandHistory.loads(text))
    except (ValueError, KeyError) as exc:
        # PokerKit refuses an action it does not allow (its lenient reader then folds
        # players and gives up: "Unable to repair"), or fails on the unknown cards it
        # deals in their place (KeyError)
        error = f"{type(exc).__name__}: {exc}"
        return Outcome(label, seed, text, expected, None, error, known)
    return Outcome(label, seed, text, expected, tuple(states[-1].stacks), known=known)


def croupier_known(hand: HandState) -> set[str]:
    """The conventions a croupier hand meets (see :data:`CONVENTIONS`)."""
    known: set[str] = set()
    short = False
    wagered = False  # a bet, raise or bring-in this round
    for event in hand.events:
        if isinstance(event, ev.BetsCollected):
            short = wagered = False
        elif isinstance(event, ev.RaisedTo | ev.BringIn):
            if (
                isinstance(event, ev.RaisedTo)
                and not wagered
                and hand.game.forced is ForcedBets.ANTE_BRING_IN
                and event.to <= hand.rules.bring_in_amount
            ):
                known.add(BRING_IN_COMPLETION)
            wagered = True
            if short:
                known.add(SHORT_ALL_IN)
            if event.all_in and not (isinstance(event, ev.RaisedTo) and event.full):
                short = True
    if merged_pots(hand):
        known.add(MERGED_POTS)
    return known


def merged_pots(hand: HandState) -> bool:
    """Whether two pots (a main and a side pot) went to the same winners, split between
    two or more of them: PokerKit merges such pots and splits them once (so does croupier
    under ``merge_pots_with_the_same_winners``: one award for more than its pot)."""
    awards = [e for e in hand.events if isinstance(e, ev.PotAwarded)]
    players = hand.players.values()
    pots = build_pots(  # the pots as they stood before the award (all in: nothing behind)
        {p.seat: p.contributed for p in players},
        {p.seat for p in players if p.folded},
        {p.seat for p in players if not p.folded and p.contributed == p.starting_stack},
    )
    winners = [tuple(sorted(seat for seat, _ in e.shares)) for e in awards]
    separate = any(len(w) > 1 and winners.count(w) > 1 for w in winners)
    merged = any(len(e.shares) > 1 and e.amount > pots[e.pot].amount for e in awards)
    return separate or merged


@dataclass
class Tally:
    """Hands per table: how many replayed to equal stacks, the others (each a finding),
    and how many met each convention (:data:`CONVENTIONS`)."""

    hands: Counter[str] = field(default_factory=Counter)
    equal: Counter[str] = field(default_factory=Counter)
    unequal: list[Outcome] = field(default_factory=list)
    """Hands whose replay refused them or ended with other stacks."""
    met: Counter[str] = field(default_factory=Counter)
    """Hands that meet each convention (equal or not)."""

    def add(self, outcome: Outcome) -> None:
        """Count one hand."""
        self.hands[outcome.label] += 1
        self.met.update(outcome.known)
        if outcome.equal:
            self.equal[outcome.label] += 1
        else:
            self.unequal.append(outcome)

    def merge(self, other: Tally) -> None:
        """Add another tally's counts."""
        self.hands.update(other.hands)
        self.equal.update(other.equal)
        self.unequal.extend(other.unequal)
        self.met.update(other.met)

    def summary(self) -> str:
        """The figures, one table a line."""
        lines = []
        for label in self.hands:
            differ = sum(1 for o in self.unequal if o.label == label)
            parts = [f"{self.hands[label]} hands", f"{self.equal[label]} equal"]
            parts += [f"{differ} differ"] if differ else []
            lines.append(f"{label}: {', '.join(parts)}")
        met = ", ".join(f"{name} {n}" for name, n in sorted(self.met.items()))
        return "\n".join([*lines, f"PokerKit conventions met: {met or 'none'}"])


def run_pokerkit_to_croupier(seed: int, label: str, count: int, start: int = 0) -> Tally:
    """Hands ``start..start+count-1`` of a PokerKit-to-croupier run."""
    tally = Tally()
    for index in range(start, start + count):
        tally.add(pokerkit_to_croupier(hand_seed(seed, label, index), label))
    return tally


def run_croupier_to_pokerkit(seed: int, label: str, count: int, start: int = 0) -> Tally:
    """Hands ``start..start+count-1`` of a croupier-to-PokerKit run."""
    tally = Tally()
    for index in range(start, start + count):
        tally.add(croupier_to_pokerkit(hand_seed(seed, label, index), label))
    return tally
