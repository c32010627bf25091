"""Fuzzing every public constructor and entry point with values of every type (issue 10,
points 5, 6, 8, 9, 12 and 15).

``TableRules`` and the betting structures, ``HandState``, ``BlackjackRules`` / ``NZ.with_``,
``BlackjackRound``, ``Deck``, ``Shoe``, ``parse_cards``, ``evaluate``, ``equity``,
blackjack ``simulate`` and ``Analysis``: each returns or raises a
:class:`~croupier.errors.CroupierError`. What is accepted must be what the rules allow:
a setting accepted as valid holds a value of its declared kind (an enum member, a bool, a
whole number), chip amounts are whole numbers, equities sum to one, and a hand built on an
accepted deck plays to the end. See ``fuzz_support`` for the determinism policy.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import numbers
import random
import typing
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from fuzz_support import (
    amounts,
    attempt,
    card_text,
    fuzz,
    garbage,
    is_chip_count,
    is_count,
    keys,
    scalars,
    seats,
)
from hypothesis import given
from hypothesis import strategies as st
from poker_strategies import play_legal, rules_for

from croupier.blackjack import NZ, Analysis, BlackjackRound, BlackjackRules, simulate
from croupier.cards import Card, Deck, Shoe, parse_cards
from croupier.cards.deck import full_deck, stripped_deck
from croupier.equity import equity
from croupier.evaluation import STANDARD, STRIPPED, evaluate
from croupier.poker import (
    GAMES,
    FixedLimit,
    HandState,
    HeadsUpBlinds,
    NoLimit,
    OddChip,
    PotLimit,
    Rake,
    SpreadLimit,
    TableRules,
)
from croupier.poker.structures import BettingStructure


# ------------------------------------------------------------------ settings of a kind
def _kind_ok(hint: Any, value: Any) -> bool:
    """Whether ``value`` is of the declared kind of a validated setting."""
    origin = typing.get_origin(hint)
    if origin is typing.Union or str(origin) == "<class 'types.UnionType'>":
        return any(_kind_ok(h, value) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return is_chip_count(value)
    if hint is Fraction:
        return isinstance(value, numbers.Rational) and not isinstance(value, bool)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return isinstance(value, hint)
    if origin is tuple:
        return isinstance(value, tuple) and all(
            _kind_ok(typing.get_args(hint)[0], v) for v in value
        )
    return True  # games, structures, rakes: checked by their own use


def check_settings(obj: Any) -> None:
    hints = typing.get_type_hints(type(obj))
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        assert _kind_ok(hints[f.name], value), (
            f"{type(obj).__name__}.{f.name} = {value!r} was accepted as valid; "
            f"the setting is {hints[f.name]}"
        )


def _setting_value(hint: Any) -> st.SearchStrategy[Any]:
    text = str(hint)
    options: list[Any] = []
    for arg in typing.get_args(hint) or (hint,):
        if isinstance(arg, type) and issubclass(arg, enum.Enum):
            options += [m.value for m in arg] + list(arg) + ["nonsense", m_upper(arg)]
    near: st.SearchStrategy[Any] = st.sampled_from(options) if options else st.integers(-2, 12)
    if "bool" in text:
        near = st.sampled_from([True, False, "no", 0, 1, "yes"])
    return st.one_of(near, amounts() if "int" in text or "Fraction" in text else scalars())


def m_upper(kind: type[enum.Enum]) -> str:
    return str(next(iter(kind)).value).upper()


def _kwargs_for(cls: type, *, extra: bool) -> st.SearchStrategy[dict[str, Any]]:
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls) if f.init]
    strategies = {name: _setting_value(hints[name]) for name in names}
    if extra:
        strategies["no_such_setting"] = scalars()
    keys = st.lists(st.sampled_from(sorted(strategies)), max_size=4, unique=True)
    return keys.flatmap(lambda ks: st.fixed_dictionaries({k: strategies[k] for k in ks}))


# ------------------------------------------------------------------ poker
STRUCTURE_CALLS: st.SearchStrategy[tuple[type[BettingStructure], tuple[Any, ...], dict[str, Any]]]
STRUCTURE_CALLS = st.one_of(
    st.builds(
        lambda a, b, c: (FixedLimit, (a, b), {"big_bet_from": c}), amounts(), amounts(), seats()
    ),
    st.builds(lambda a, b: (SpreadLimit, (a, b), {}), amounts(), amounts()),
    st.builds(
        lambda r: (PotLimit, (), {"ratio": r}),
        st.one_of(st.sampled_from([Fraction(1, 2), 1]), garbage()),
    ),
    st.just((NoLimit, (), {})),
)


@fuzz(250)
@given(call=STRUCTURE_CALLS, game=st.sampled_from(sorted(GAMES)), minimum=amounts())
def test_betting_structures_and_table_rules(
    call: tuple[type[BettingStructure], tuple[Any, ...], dict[str, Any]], game: str, minimum: Any
) -> None:
    """A structure whose amounts fall outside the table's limits, or are no chip counts,
    is refused (6); once accepted, every bet the first player is offered is a chip count."""
    cls, args, kwargs = call
    structure, _ = attempt(cls, *args, **kwargs)
    if structure is None:
        return
    base = rules_for(GAMES[game], "no-limit")
    rules, _ = attempt(dataclasses.replace, base, structure=structure, table_minimum=minimum)
    if rules is None or attempt(rules.validate)[1] is not None:
        return
    hand, _ = attempt(HandState, rules, {1: 500, 2: 500, 3: 500}, button=1, seed=3)
    if hand is None:
        return
    for value in (*args, *kwargs.values()):
        if cls is not PotLimit:
            assert is_count(value, 0), f"{cls.__name__}{args}{kwargs} was played"
    if isinstance(structure, FixedLimit | SpreadLimit):  # 17.6(a): within the table limits
        low, high = args
        top = rules.table_maximum
        within = low >= rules.table_minimum and (top is None or high <= top)
        assert within, f"{cls.__name__}{args} accepted at a table minimum of {minimum!r}"
    legal = hand.legal_actions()
    for offer in (legal.raise_to or ()) + (legal.bring_in or ()):
        assert is_count(offer, rules.table_minimum), (
            f"{cls.__name__}{args}{kwargs} at a table minimum of {minimum} offers {legal.describe()}"
        )


RAKES = st.one_of(
    st.none(),
    st.tuples(st.one_of(st.just(Fraction(1, 20)), garbage()), amounts(), amounts(), garbage()),
)


@fuzz(250)
@given(kwargs=_kwargs_for(TableRules, extra=False), rake=RAKES)
def test_table_rules_accept_only_settings_of_their_kind(
    kwargs: dict[str, Any], rake: tuple[Any, Any, Any, Any] | None
) -> None:
    if rake is not None:
        made, _ = attempt(Rake, *rake)
        if made is None:
            return
        kwargs["rake"] = made
    kwargs.pop("game", None)
    kwargs.pop("structure", None)
    rules, _ = attempt(TableRules, **kwargs)
    if rules is None or attempt(rules.validate)[1] is not None:
        return
    check_settings(rules)
    assert isinstance(rules.heads_up, HeadsUpBlinds)
    assert isinstance(rules.odd_chip, OddChip)
    assert all(is_chip_count(b) for b in rules.blinds)
    hand, _ = attempt(HandState, rules, {1: 200, 2: 200, 3: 200}, button=1, seed=1)
    if hand is not None:
        attempt(hand.legal_actions)


HAND_KWARGS = st.fixed_dictionaries(
    {},
    optional={
        "deck": st.one_of(
            st.builds(
                lambda cards: Deck(cards, shuffle=False),
                st.lists(st.sampled_from(full_deck()), unique=True, max_size=52),
            ),
            st.just(Deck(full_deck(), seed=1)),
            st.just(Deck(stripped_deck(), seed=1)),
            garbage(),
        ),
        "seed": st.one_of(st.integers(-5, 2**70), garbage()),
        "rng": st.sampled_from([None, random.Random(1), 5, "x"]),
        "automatic": st.one_of(st.booleans(), garbage()),
        "voluntary_blind": st.one_of(st.booleans(), garbage()),
        "antes": st.one_of(st.dictionaries(seats(), amounts(), max_size=4), garbage()),
        "ante_trimming": st.one_of(st.booleans(), garbage()),
    },
)


@fuzz(300)
@given(
    game=st.sampled_from(sorted(GAMES)),
    stacks=st.one_of(st.dictionaries(seats(), amounts(), min_size=1, max_size=5), garbage()),
    button=seats(),
    kwargs=HAND_KWARGS,
    data=st.data(),
)
def test_hand_state_accepts_only_real_seats_stacks_and_decks(
    game: str, stacks: Any, button: Any, kwargs: dict[str, Any], data: st.DataObject
) -> None:
    """Seats are whole numbers from 1, stacks whole positive chip counts (9); a deck that does
    not fit the game is refused up front (5): an accepted hand plays to the end, chips kept."""
    rules = rules_for(GAMES[game], data.draw(st.sampled_from(["no-limit", "fixed-limit"])))
    hand, _ = attempt(HandState, rules, stacks, button, **kwargs)
    if hand is None:
        return
    assert isinstance(stacks, Mapping), f"stacks {stacks!r} were accepted"
    for seat, chips in stacks.items():
        assert is_count(seat, 1), f"seat {seat!r} was accepted"
        assert is_count(chips, 1), f"a stack of {chips!r} was accepted"
    assert is_chip_count(button)
    assert button in hand.players
    _, error = attempt(play_legal, data.draw, hand, 400)  # chores stepped unless automatic
    assert error is None, f"an accepted hand broke down mid-play: {error}"


# ------------------------------------------------------------------ blackjack
@fuzz(250)
@given(kwargs=_kwargs_for(BlackjackRules, extra=True), through_with=st.booleans())
def test_blackjack_rules_accept_only_settings_of_their_kind(
    kwargs: dict[str, Any], through_with: bool
) -> None:
    """Every enum-valued setting coerces its string or refuses it (8); an accepted rule set
    that validates holds settings of their kind, with positive payouts (12)."""
    rules, _ = attempt(NZ.with_, **kwargs) if through_with else attempt(BlackjackRules, **kwargs)
    if rules is None or attempt(rules.validate)[1] is not None:
        return
    check_settings(rules)
    assert rules.blackjack_pays > 0, f"blackjack_pays={rules.blackjack_pays!r} was accepted"
    attempt(rules.validate_for_play)


@fuzz(150)
@given(
    rules=st.one_of(st.just(NZ), st.just(NZ.with_(decks=1))),
    bankrolls=st.one_of(
        st.dictionaries(st.one_of(st.text(max_size=3), keys()), amounts(), max_size=3), garbage()
    ),
    strict=st.one_of(st.booleans(), garbage()),
)
def test_blackjack_round_takes_only_real_bankrolls(
    rules: BlackjackRules, bankrolls: Any, strict: Any
) -> None:
    rnd, _ = attempt(BlackjackRound, rules, Shoe(6, seed=1), bankrolls, strict_nz=strict)
    if rnd is not None:
        assert all(is_chip_count(v) and v >= 0 for v in bankrolls.values()), bankrolls


@fuzz(40)
@given(
    rounds=st.one_of(st.integers(-2, 40), st.sampled_from([1.5, "10", None, Fraction(10), True])),
    seed=st.one_of(st.integers(-(2**64), 2**64), garbage()),
    workers=st.one_of(st.sampled_from([1, 0, -1, 1.0, "1", None, True])),
    insure=st.one_of(st.booleans(), garbage()),
)
def test_blackjack_simulate_checks_its_numbers(
    rounds: Any, seed: Any, workers: Any, insure: Any
) -> None:
    result, _ = attempt(simulate, NZ, rounds, seed=seed, workers=workers, insure=insure)
    if result is not None:
        assert is_chip_count(rounds), f"simulate(rounds={rounds!r}) was accepted"
        assert is_chip_count(workers), f"simulate(workers={workers!r}) was accepted"


@fuzz(25)
@given(
    decks=st.one_of(st.sampled_from([None, "inf", 1, 2, 8, 0, -1, 1.5, "6", True]), garbage()),
    counts=st.one_of(
        st.none(), st.lists(st.integers(-1, 40), min_size=9, max_size=11).map(tuple), garbage()
    ),
)
def test_blackjack_analysis_checks_its_shoe(decks: Any, counts: Any) -> None:
    analysis, _ = attempt(Analysis, NZ, decks=decks, counts=counts)
    if analysis is None:
        return
    edge, _ = attempt(analysis.house_edge)
    if edge is not None:
        assert math.isfinite(edge), f"Analysis(decks={decks!r}, counts={counts!r}) edge {edge}"


# ------------------------------------------------------------------ cards
@fuzz(200)
@given(
    cards=st.one_of(
        st.lists(st.sampled_from(full_deck()), max_size=8),
        st.lists(garbage(), max_size=3),
        garbage(),
    ),
    seed=st.one_of(st.integers(-5, 2**70), garbage()),
    rng=st.sampled_from([None, random.Random(1), 5, "x"]),
    shuffle=st.one_of(st.booleans(), garbage()),
    n=st.one_of(st.integers(-2, 10), garbage()),
)
def test_decks_take_cards_and_deal_or_refuse(
    cards: Any, seed: Any, rng: Any, shuffle: Any, n: Any
) -> None:
    deck, _ = attempt(Deck, cards, seed=seed, rng=rng, shuffle=shuffle)
    if deck is None:
        return
    assert all(isinstance(c, Card) for c in deck.remaining), f"Deck({cards!r}) holds non-cards"
    for action in (deck.draw, deck.peek, deck.put_on_top, deck.discard, deck.reuse_discards):
        before = (deck.remaining, deck.dealt, deck.burned, deck.discards)
        _, error = attempt(action, n)
        if error is not None:
            assert (deck.remaining, deck.dealt, deck.burned, deck.discards) == before, (
                action.__name__
            )
    attempt(Deck.stacked, cards)


@fuzz(200)
@given(
    decks=st.one_of(st.integers(-2, 9), garbage()),
    penetration=st.one_of(st.sampled_from([Fraction(3, 4), 1, "3/4", "0.5", 0.75]), garbage()),
    seed=st.one_of(st.integers(-5, 2**70), garbage()),
    cards=st.one_of(st.none(), st.lists(st.sampled_from(full_deck()), max_size=5), garbage()),
    n=st.one_of(st.integers(-2, 10), garbage()),
)
def test_shoes_take_settings_and_deal_or_refuse(
    decks: Any, penetration: Any, seed: Any, cards: Any, n: Any
) -> None:
    shoe, _ = attempt(Shoe, decks, penetration=penetration, seed=seed, cards=cards)
    if shoe is None:
        return
    assert is_count(decks, 1), f"Shoe({decks!r}) was built"
    before = len(shoe)
    _, error = attempt(shoe.draw_many, n)
    if error is not None:
        assert len(shoe) == before, f"draw_many({n!r}) was refused but dealt cards"
    attempt(shoe.discard, n)
    attempt(shoe.draw)
    attempt(shoe.burn)


@fuzz(250)
@given(text=st.one_of(card_text(), st.text(max_size=20), st.lists(st.one_of(card_text(), garbage()), max_size=4), garbage()),
       unique=st.one_of(st.booleans(), garbage()))  # fmt: skip
def test_parse_cards_reads_or_refuses(text: Any, unique: Any) -> None:
    cards, _ = attempt(parse_cards, text, unique=unique)
    if cards is not None:
        assert all(isinstance(c, Card) for c in cards)
    attempt(Card.parse, text)


# ------------------------------------------------------------------ evaluation and equity
@fuzz(250)
@given(
    own=st.one_of(card_text(), garbage()),
    board=st.one_of(card_text(), garbage()),
    omaha=st.one_of(st.booleans(), garbage()),
    ranking=st.sampled_from([STANDARD, STRIPPED, "standard", "stripped", None]),
)
def test_evaluate_ranks_or_refuses(own: Any, board: Any, omaha: Any, ranking: Any) -> None:
    value, _ = attempt(evaluate, own, board=board, omaha=omaha, ranking=ranking)
    if value is not None:
        attempt(value.describe)


def _modest(value: Any) -> bool:
    """Not a sample count so large the run would take minutes (garbage stays garbage)."""
    try:
        return not bool(value > 10**4)
    except Exception:
        return True


BOARDS = st.lists(st.sampled_from(full_deck()), min_size=3, max_size=5, unique=True).map(
    lambda cards: " ".join(map(str, cards))
)


@fuzz(120)
@given(
    hands=st.one_of(st.lists(card_text(), min_size=0, max_size=4), garbage()),
    board=st.one_of(BOARDS, card_text(), garbage()),
    game=st.one_of(st.sampled_from(["holdem", "omaha", "stud", "HOLDEM"]), garbage()),
    samples=st.one_of(st.none(), st.integers(-2, 300), st.sampled_from([1.5, "10", 0.5, True, Fraction(3)]), scalars().filter(_modest)),
    seed=st.one_of(st.none(), st.integers(-(2**64), 2**64), garbage()),
)  # fmt: skip
def test_equity_answers_or_refuses_and_sums_to_one(
    hands: Any, board: Any, game: Any, samples: Any, seed: Any
) -> None:
    """Equities sum to one whatever the sample count (12); only whole sample counts pass."""
    result, _ = attempt(equity, hands, board, game=game, samples=samples, seed=seed)
    if result is None:
        return
    if samples is not None:
        assert is_chip_count(samples), f"equity(samples={samples!r}) was accepted"
    total = sum(h.equity for h in result.hands)
    assert math.isclose(float(total), 1.0, abs_tol=1e-9), f"equities sum to {total}"
