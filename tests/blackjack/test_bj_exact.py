"""The exact analysis against independent computations: a brute-force dealer over finite
shoes (exact fractions), the pure-Python infinite-deck reference, hand-computed player
values in a single deck, and published finite-shoe house edges."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_infinite import Analysis as Reference
from reference_infinite import P

from croupier.blackjack.math.analysis import (
    OUTCOMES,
    Analysis,
    dealer_outcomes,
    insurance_ev,
    shoe_counts,
)
from croupier.blackjack.math.strategy import US_SIX_DECK
from croupier.blackjack.rules import (
    NZ,
    BlackjackRules,
    DealerBlackjackTakes,
    DoubleOn,
    HoleCard,
    Surrender,
)
from croupier.errors import CroupierError

PEEK = NZ.with_(hole_card=HoleCard.PEEK)
US = NZ.with_(hole_card=HoleCard.PEEK, max_hands=4)
ALL_ALL = {
    "dealer_blackjack_takes_splits": DealerBlackjackTakes.ALL,
    "dealer_blackjack_takes_doubles": DealerBlackjackTakes.ALL,
}

# --------------------------------------------------------------------------- brute force
Dist = tuple[Fraction, ...]


@cache
def _draw(left: tuple[int, ...], hard: int, ace: bool, cards: int, h17: bool, barred: int) -> Dist:
    """The dealer's outcome distribution (in OUTCOMES order) from a hand of ``cards`` cards
    (hard sum, holds an ace), drawing without replacement from ``left`` (counts A..ten);
    the next card is never ``barred`` (a peek game's hole card)."""
    total = hard + 10 if ace and hard + 10 <= 21 else hard
    if cards == 2 and total == 21:
        return tuple(Fraction(i == 5) for i in range(7))
    if total > 21:
        return tuple(Fraction(i == 6) for i in range(7))
    soft = total != hard
    if cards >= 2 and (total > 17 or (total == 17 and not (soft and h17))):
        return tuple(Fraction(i == total - 17) for i in range(7))
    values = [v for v in range(1, 11) if left[v - 1] > 0 and v != barred]
    mass = sum(left[v - 1] for v in values)
    assert mass > 0, "the shoe ran out"
    out = [Fraction(0)] * 7
    for v in values:
        rest = list(left)
        rest[v - 1] -= 1
        sub = _draw(tuple(rest), hard + v, ace or v == 1, cards + 1, h17, 0)
        p = Fraction(left[v - 1], mass)
        for i in range(7):
            out[i] += p * sub[i]
    return tuple(out)


def brute_dealer(
    up: int, shoe: Sequence[int], seen: Sequence[int] = (), *, h17: bool, peek: bool
) -> dict[str, Fraction]:
    """Dealer outcomes with ``up`` showing, the shoe less the up card and ``seen``; with
    ``peek`` the hole card is drawn from the cards that do not make a blackjack."""
    left = list(shoe)
    for card in (up, *seen):
        left[card - 1] -= 1
    assert min(left) >= 0
    barred = {1: 10, 10: 1}.get(up, 0) if peek else 0
    return dict(zip(OUTCOMES, _draw(tuple(left), up, up == 1, 1, h17, barred), strict=True))


def stand_ev(total: int, dealer: dict[str, Fraction]) -> Fraction:
    """A standing total's EV against the dealer's unconditional outcomes (blackjack wins)."""
    ev = dealer["bust"] - dealer["blackjack"]
    for i, name in enumerate(OUTCOMES[:5]):
        ev += dealer[name] * ((total > 17 + i) - (total < 17 + i))
    return ev


def best_total(cards: Sequence[int]) -> int:
    hard = sum(cards)
    return hard + 10 if 1 in cards and hard + 10 <= 21 else hard


def one_deck_stand(cards: Sequence[int], up: int, h17: bool) -> Fraction:
    return stand_ev(best_total(cards), brute_dealer(up, shoe_counts(1), cards, h17=h17, peek=False))


@cache
def _play(cards: tuple[int, ...], up: int, h17: bool) -> Fraction:
    """Best EV of a one-deck hand that may stand or hit (no hole card)."""
    total = best_total(cards)
    if total > 21:
        return Fraction(-1)
    stand = one_deck_stand(cards, up, h17)
    return stand if total == 21 else max(stand, one_deck_hit(cards, up, h17))


def one_deck_hit(cards: tuple[int, ...], up: int, h17: bool) -> Fraction:
    """EV of hitting ``cards`` against ``up`` from one deck, best play after."""
    left = list(shoe_counts(1))
    for card in (up, *cards):
        left[card - 1] -= 1
    n = sum(left)
    return sum(
        (
            Fraction(left[v - 1], n) * _play(tuple(sorted((*cards, v))), up, h17)
            for v in range(1, 11)
            if left[v - 1]
        ),
        Fraction(0),
    )


# --------------------------------------------------------------------------- 1. dealer
@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("seen", [(), (10, 6), (1, 5, 5, 9), (10, 10, 10, 1)])
def test_finite_shoe_dealer_outcomes_equal_a_brute_force_enumeration(
    decks: int, seen: tuple[int, ...]
) -> None:
    shoe = shoe_counts(decks)
    for up in range(1, 11):
        for h17 in (False, True):
            for peek in (False, True):
                exact = brute_dealer(up, shoe, seen, h17=h17, peek=peek)
                got = dealer_outcomes(up, shoe=shoe, seen=seen, hits_soft_17=h17, peek=peek)
                for name in OUTCOMES:
                    assert abs(got[name] - float(exact[name])) < 1e-12, (up, h17, peek, name)


def test_analysis_dealer_uses_its_shoe_and_peek_rule() -> None:
    for rules, peek in ((NZ, False), (US.with_(dealer_hits_soft_17=True), True)):
        exact = brute_dealer(1, shoe_counts(2), (10, 7), h17=rules.dealer_hits_soft_17, peek=peek)
        got = Analysis(rules, decks=2).dealer(1, seen=(10, 7))
        assert max(abs(got[o] - float(exact[o])) for o in OUTCOMES) < 1e-12


# --------------------------------------------------------------------------- 2. infinite deck
@dataclass(frozen=True)
class NoHoleCardReference(Reference):
    """The pure-Python reference with a no-hole-card dealer blackjack folded into every
    hand's value (infinite deck: the hole card is independent of the player's cards).

    11.7 as settled by the referee: a busted hand has lost its whole stake; a dealer
    blackjack then takes the original wager once from the box's hands still standing
    (plus every split stake if splits go, and doubled stakes if doubles go); a late
    surrender is void against a dealer blackjack (Decision 3.1-13).

    Split hands are played in order, and the player sees each hand finish: the value of a
    hand's ending includes the value of the box's later hands from the state it leaves
    (``later_stand`` once a hand stood, so the original wager is taken; ``later_bust``
    after a bust, the original still ``due``). Written as a game over (hands left, resplits
    left, due), not as the kernel's "a bust is worth the difference" shortcut.
    """

    due: bool = True
    """Whether the original wager is still to be taken (no earlier hand stood)."""
    later_stand: float = 0.0
    """The value of the later hands if this one stands."""
    later_bust: float = 0.0
    """The value of the later hands if this one busts."""

    def _takes(self) -> tuple[float, float]:
        """What a dealer blackjack takes from this hand if it stands: undoubled, doubled."""
        rules = self.rules
        take = float(self.due or rules.dealer_blackjack_takes_splits is DealerBlackjackTakes.ALL)
        extra = float(rules.dealer_blackjack_takes_doubles is DealerBlackjackTakes.ALL)
        return take, take + extra

    def stand(self, total: int, up: int) -> float:
        if total > 21:
            return -1.0 + self.later_bust
        p_bj, _ = self._dealer(up)
        return (1 - p_bj) * super().stand(total, up) - p_bj * self._takes()[0] + self.later_stand

    def hand(  # type: ignore[override]  # the base caches it; the override adds the bust
        self, hard: int, aces: bool, cards: int, up: int, can_double: bool
    ) -> float:
        total = hard + 10 if aces and hard + 10 <= 21 else hard
        if total > 21:
            return -1.0 + self.later_bust
        return float(super().hand(hard, aces, cards, up, can_double))

    def double(self, hard: int, aces: bool, up: int) -> float:
        p_bj, _ = self._dealer(up)
        ev = 0.0
        for v in range(1, 11):
            h, ace = hard + v, aces or v == 1
            total = h + 10 if ace and h + 10 <= 21 else h
            if total > 21:
                ev += P[v] * (-2.0 + self.later_bust)
            else:
                won = 2 * (1 - p_bj) * super().stand(total, up) - p_bj * self._takes()[1]
                ev += P[v] * (won + self.later_stand)
        return ev

    def split(self, card: int, up: int) -> float:
        rules = self.rules
        aces = card == 1
        q = P[card]
        budget = rules.max_hands - 2 if (not aces or rules.resplit_aces) else 0

        def played(due: bool, v: int, later: tuple[float, float]) -> float:
            """A split hand with second card ``v``, then the later hands (stood, busted)."""
            hand = replace(self, due=due, later_stand=later[0], later_bust=later[1])
            hard, has_ace = card + v, aces or v == 1
            if aces and not rules.hit_split_aces:
                return hand.stand(hard + 10 if has_ace and hard + 10 <= 21 else hard, up)
            return hand.hand(hard, has_ace, 2, up, rules.double_after_split)

        @cache
        def f(k: int, b: int, due: bool) -> float:
            """k hands still to play, b resplits left, the original wager still due or not."""
            if k == 0:
                return 0.0
            later = (f(k - 1, b, False), f(k - 1, b, due))
            forfeit = (f(k - 1, 0, False), f(k - 1, 0, due))  # 11.5: no resplit after a keep
            no_pair = sum(P[v] * played(due, v, later) for v in range(1, 11) if v != card)
            keep = played(due, card, forfeit)
            if b == 0:
                return no_pair + q * keep
            return no_pair + q * max(f(k + 1, b - 1, due), keep)

        return f(2, budget, True)

    def _with_dealer_blackjack(self, up: int, value: float, stake: float, action: str) -> float:
        if action == "surrender":
            p_bj, _ = self._dealer(up)
            return -p_bj + (1 - p_bj) * value
        return value  # already folded into every hand's value


def assert_equal_to_reference(rules: BlackjackRules, reference: Reference) -> None:
    analysis = Analysis(rules, decks="inf")
    assert abs(analysis.expectation() - reference.house_edge()) < 1e-9
    for up in range(1, 11):
        for c1 in range(1, 11):
            for c2 in range(c1, 11):
                got = analysis.options(c1, c2, up)
                if {c1, c2} == {1, 10}:
                    assert got == {}
                    continue
                want = reference.options(c1, c2, up)
                assert got.keys() == want.keys(), (c1, c2, up)
                for action, value in want.items():
                    assert abs(got[action] - value) < 1e-9, (c1, c2, up, action)


PEEK_RULES = {
    "peek S17": PEEK,
    "peek H17": PEEK.with_(dealer_hits_soft_17=True),
    "no DAS, two hands": PEEK.with_(double_after_split=False, max_hands=2),
    "four hands, resplit aces": PEEK.with_(max_hands=4, resplit_aces=True),
    "hit split aces": PEEK.with_(hit_split_aces=True, dealer_hits_soft_17=True),
    "late surrender": PEEK.with_(surrender=Surrender.LATE, max_hands=4),
    "double 9-11": PEEK.with_(double_on=DoubleOn.NINE_TO_ELEVEN),
    "double 10-11, no DAS": PEEK.with_(double_on=DoubleOn.TEN_ELEVEN, double_after_split=False),
    "6:5": PEEK.with_(blackjack_pays=Fraction(6, 5), dealer_hits_soft_17=True),
}


@pytest.mark.parametrize("rules", PEEK_RULES.values(), ids=PEEK_RULES.keys())
def test_infinite_deck_peek_games_equal_the_pure_python_reference(rules: BlackjackRules) -> None:
    assert_equal_to_reference(rules, Reference(rules))


# the plain reference charges a split hand's dealer blackjack two stakes: exact when no
# resplit or double after split can add more
FIXED_STAKE_ALL_ALL = {
    "S17": NZ.with_(**ALL_ALL, max_hands=2, double_after_split=False),
    "H17, hit split aces": NZ.with_(
        **ALL_ALL,
        max_hands=2,
        double_after_split=False,
        dealer_hits_soft_17=True,
        hit_split_aces=True,
    ),
    "double 10-11, 6:5": NZ.with_(
        **ALL_ALL,
        max_hands=2,
        double_after_split=False,
        double_on=DoubleOn.TEN_ELEVEN,
        blackjack_pays=Fraction(6, 5),
    ),
}


@pytest.mark.rule("Blackjack 11.7")
@pytest.mark.parametrize("rules", FIXED_STAKE_ALL_ALL.values(), ids=FIXED_STAKE_ALL_ALL.keys())
def test_infinite_deck_no_hole_card_all_all_equals_the_pure_python_reference(
    rules: BlackjackRules,
) -> None:
    assert_equal_to_reference(rules, Reference(rules))


NO_HOLE_CARD = {
    "NZ": NZ,
    "NZ H17": NZ.with_(dealer_hits_soft_17=True),
    "NZ four hands, resplit and hit aces": NZ.with_(
        max_hands=4, resplit_aces=True, hit_split_aces=True
    ),
    "NZ late surrender": NZ.with_(surrender=Surrender.LATE),
    "ALL/ALL": NZ.with_(**ALL_ALL),
    "ALL/ALL four hands, surrender": NZ.with_(
        **ALL_ALL, max_hands=4, resplit_aces=True, surrender=Surrender.LATE
    ),
    "splits ALL, doubles 9-11": NZ.with_(
        dealer_blackjack_takes_splits=DealerBlackjackTakes.ALL,
        double_on=DoubleOn.NINE_TO_ELEVEN,
    ),
    "doubles ALL, 6:5, no DAS": NZ.with_(
        dealer_blackjack_takes_doubles=DealerBlackjackTakes.ALL,
        blackjack_pays=Fraction(6, 5),
        double_after_split=False,
    ),
}


@pytest.mark.rule("Blackjack 11.7")
@pytest.mark.parametrize("rules", NO_HOLE_CARD.values(), ids=NO_HOLE_CARD.keys())
def test_infinite_deck_no_hole_card_games_equal_the_folded_reference(
    rules: BlackjackRules,
) -> None:
    assert_equal_to_reference(rules, NoHoleCardReference(rules))


def test_all_all_charges_resplit_and_doubled_split_stakes() -> None:
    # 8,8 v T may resplit and double after split: a dealer blackjack takes more than the
    # two stakes the plain reference charges, and the folded reference agrees
    rules = NZ.with_(**ALL_ALL)
    got = Analysis(rules, decks="inf").options(8, 8, 10)["split"]
    assert got < Reference(rules).options(8, 8, 10)["split"] - 0.01
    assert abs(got - NoHoleCardReference(rules).options(8, 8, 10)["split"]) < 1e-9


# --------------------------------------------------------------------------- 3. one deck
HANDS = [((10, 6), 10), ((9, 7), 10), ((1, 7), 9), ((10, 2), 4), ((7, 5), 4), ((10, 10), 6)]


@pytest.mark.parametrize(
    "rules", [NZ, PEEK, NZ.with_(dealer_hits_soft_17=True)], ids=["NZ", "peek", "H17"]
)
def test_one_deck_stand_values_are_exact(rules: BlackjackRules) -> None:
    analysis = Analysis(rules, decks=1)
    for cards, up in HANDS:
        exact = one_deck_stand(cards, up, rules.dealer_hits_soft_17)
        assert abs(analysis.options(*cards, up)["stand"] - float(exact)) < 1e-12, (cards, up)


@pytest.mark.parametrize("h17", [False, True])
def test_one_deck_hit_and_double_values_are_exact(h17: bool) -> None:
    analysis = Analysis(NZ.with_(dealer_hits_soft_17=h17), decks=1)
    # hitting a hard 20 against a six only survives an ace: 4 of the 49 unseen cards
    twenty_one = one_deck_stand((10, 10, 1), 6, h17)
    hit_20 = Fraction(4, 49) * twenty_one - Fraction(45, 49)
    assert abs(analysis.options(10, 10, 6)["hit"] - float(hit_20)) < 1e-12
    # doubling 6,5 against a six: one card, then the dealer from the deck less all four
    left = list(shoe_counts(1))
    for card in (6, 5, 6):
        left[card - 1] -= 1
    double = sum(
        (Fraction(left[v - 1], 49) * 2 * one_deck_stand((6, 5, v), 6, h17) for v in range(1, 11)),
        Fraction(0),
    )
    assert abs(analysis.options(6, 5, 6)["double"] - float(double)) < 1e-12
    # hard 16 against a ten (a no-hole-card blackjack beats every unbusted hand), best play
    assert abs(analysis.options(10, 6, 10)["hit"] - float(one_deck_hit((6, 10), 10, h17))) < 1e-12


def test_one_deck_values_depend_on_the_composition() -> None:
    analysis = Analysis(NZ, decks=1)
    ten_six = analysis.options(10, 6, 10)["stand"]
    nine_seven = analysis.options(9, 7, 10)["stand"]
    assert abs(ten_six - nine_seven) > 0.01  # a ten gone from the deck helps the dealer bust less
    assert nine_seven > ten_six
    assert ten_six != Analysis(NZ, decks="inf").options(10, 6, 10)["stand"]


# --------------------------------------------------------------------------- 4. published
@pytest.mark.parametrize(("decks", "edge"), [(6, 0.40), (8, 0.43)])
def test_us_basic_strategy_house_edge_matches_the_published_figures(
    decks: int, edge: float
) -> None:
    # Wizard of Odds house-edge calculator: S17, double any two, DAS, resplit to four, no
    # resplit aces, no surrender, peek: 0.40 % (6 decks), 0.43 % (8 decks)
    analysis = Analysis(US, decks=decks)
    chart_edge = analysis.house_edge(analysis.basic_strategy()) * 100
    assert abs(chart_edge - edge) < 0.02
    assert analysis.house_edge() <= analysis.house_edge(analysis.basic_strategy())


def test_derived_us_six_deck_chart_is_the_published_chart() -> None:
    derived = Analysis(US, decks=6).basic_strategy()
    departures = derived.departures(US_SIX_DECK)
    assert [d.describe() for d in departures if (d.kind, d.row) != ("soft", 12)] == []


# --------------------------------------------------------------------------- 5. the NZ game
def test_the_nz_game_over_six_decks() -> None:
    nz = Analysis(NZ)
    assert nz.shoe == shoe_counts(6)
    assert 0.003 < nz.house_edge() < 0.006
    chart = nz.basic_strategy()
    assert nz.expectation() >= nz.expectation(chart)
    assert nz.expectation(chart) > nz.expectation() - 0.001  # the chart is close to optimal


def test_fewer_decks_favour_the_player() -> None:
    infinite, six, one = (Analysis(NZ, decks=d).expectation() for d in ("inf", 6, 1))
    assert infinite < six < one


def test_six_deck_insurance_matches_the_dealer_blackjack_chance() -> None:
    p_bj = Analysis(NZ).dealer(1)["blackjack"]
    assert abs(p_bj - 96 / 311) < 1e-12
    assert insurance_ev(decks=6) == Fraction(-23, 311)
    assert abs(float(insurance_ev(decks=6)) - (2 * p_bj - (1 - p_bj))) < 1e-12


def test_a_ten_rich_shoe_raises_the_players_expectation() -> None:
    six = shoe_counts(6)
    rich = Analysis(NZ, counts=(*six[:9], six[9] + 24)).expectation()
    poor = Analysis(NZ, counts=(*six[:9], six[9] - 24)).expectation()
    assert poor < Analysis(NZ).expectation() < rich
    assert abs(Analysis(NZ, counts=six).expectation() - Analysis(NZ).expectation()) < 1e-15


@pytest.mark.parametrize(
    "make",
    [
        lambda: Analysis(NZ, counts=(24,) * 9),
        lambda: Analysis(NZ, counts=(24,) * 11),
        lambda: Analysis(NZ, counts=(-1, *(24,) * 8, 96)),
        lambda: Analysis(NZ, decks=0),
        lambda: Analysis(NZ).options(0, 5, 6),
        lambda: Analysis(NZ).options(10, 6, 11),
        lambda: Analysis(NZ).dealer(0),
        lambda: Analysis(NZ).dealer(11),
        lambda: dealer_outcomes(11),
        lambda: shoe_counts(0),
    ],
)
def test_bad_shoes_and_cards_are_refused(make: object) -> None:
    assert callable(make)
    with pytest.raises(CroupierError):
        make()


# --------------------------------------------------------------------------- 6. property
@settings(max_examples=40, deadline=None)
@given(
    counts=st.lists(st.integers(0, 8), min_size=10, max_size=10).filter(lambda c: sum(c) >= 20),
    h17=st.booleans(),
)
def test_dealer_outcomes_are_a_distribution_for_any_shoe(counts: list[int], h17: bool) -> None:
    for up in range(1, 11):
        if counts[up - 1] == 0:
            continue
        for peek in (False, True):
            got = dealer_outcomes(up, shoe=counts, hits_soft_17=h17, peek=peek)
            assert all(p >= 0 for p in got.values())
            assert abs(sum(got.values()) - 1) < 1e-12
            if peek:
                assert got["blackjack"] == 0
        exact = brute_dealer(up, counts, h17=h17, peek=False)
        got = dealer_outcomes(up, shoe=counts, hits_soft_17=h17)
        assert max(abs(got[o] - float(exact[o])) for o in OUTCOMES) < 1e-12
