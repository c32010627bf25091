"""Issue 29, point 3: index plays from the exact analysis of count-conditioned shoes.

Checked against the published Hi-Lo Illustrious 18 and Fab 4 (hole-card games), against the
classic linear estimate from the effects of removal, against exact analyses of whole-card
shoes on either side of each index (through :class:`Analysis` itself), against the closed
form of the insurance index, and for what the NZ rules (no hole card; a dealer blackjack
takes the original wager only, 11.7) change, or do not change, against a peek game and the
European rule that takes every stake.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.blackjack.math.analysis import ACTIONS, Analysis, shoe_counts
from croupier.blackjack.math.counting import SYSTEMS
from croupier.blackjack.math.indices import (
    FAB_4,
    ILLUSTRIOUS_18,
    IndexTable,
    conditioned_shoe,
    index_table,
)
from croupier.blackjack.math.removal import hand_weights
from croupier.blackjack.rules import NZ, DealerBlackjackTakes, HoleCard
from croupier.errors import CroupierError

SIX = shoe_counts(6)


@pytest.fixture(scope="module")
def hi_lo() -> IndexTable:
    """The NZ game's Hi-Lo indices, six decks, three left (what the CLI shows by default)."""
    return index_table(SYSTEMS["hi-lo"], NZ)


def by_label(table: IndexTable) -> dict[str, float | None]:
    return {p.label: p.index for p in table.illustrious_18 + table.fab_4}


# ------------------------------------------------------------- conditioned shoes
@settings(max_examples=80, deadline=None)
@given(
    key=st.sampled_from(list(SYSTEMS)),
    decks=st.sampled_from([1, 2, 6, 8]),
    share=st.floats(0.25, 0.75),
    tc=st.floats(-8, 8),
)
def test_a_conditioned_shoe_has_the_count_asked_for(
    key: str, decks: int, share: float, tc: float
) -> None:
    system = SYSTEMS[key]
    shoe = shoe_counts(decks)
    left = round(share * sum(shoe))
    # refused exactly when some value would have to run out (or more than all be left)
    mean = sum(c * t for c, t in zip(shoe, system.tags, strict=True)) / sum(shoe)
    spread = sum(c * (t - mean) ** 2 for c, t in zip(shoe, system.tags, strict=True))
    extra = [
        tc * left / 52 * c * (t - mean) / spread for c, t in zip(shoe, system.tags, strict=True)
    ]
    fair = [c * left / sum(shoe) for c in shoe]
    if any(not 0 <= f - x <= c for f, x, c in zip(fair, extra, shoe, strict=True)):
        with pytest.raises(CroupierError, match="cannot be reached"):
            conditioned_shoe(system, shoe, left, tc)
        return
    cards = conditioned_shoe(system, shoe, left, tc)
    assert sum(cards) == pytest.approx(left)
    assert all(0 <= x <= c for x, c in zip(cards, shoe, strict=True))
    # the cards seen count (balanced-equivalent) to tc per deck left
    seen = [c - x for c, x in zip(shoe, cards, strict=True)]
    running = sum(s * t for s, t in zip(seen, system.tags, strict=True))
    expected_by_chance = system.imbalance * (sum(shoe) - left) / 52
    assert (running - expected_by_chance) / (left / 52) == pytest.approx(tc, abs=1e-9)
    # values the count does not see are dealt in proportion
    mean = sum(c * t for c, t in zip(shoe, system.tags, strict=True)) / sum(shoe)
    for c, x, t in zip(shoe, cards, system.tags, strict=True):
        if t == mean:
            assert x == pytest.approx(c * left / sum(shoe))


def test_an_expected_shoe_is_analysed_smoothly_between_whole_ones() -> None:
    """Fractional counts are the analysis's formulas between whole shoes: halfway from one
    whole shoe to the next, every option is within a hair of the average of the two."""
    from croupier.blackjack.math._shoes import ExpectedShoe, shoe_options

    low = (12, 12, 12, 12, 12, 12, 12, 12, 12, 48)
    high = (12, 12, 12, 12, 11, 12, 12, 12, 12, 49)
    mid = (12, 12, 12, 12, 11.5, 12, 12, 12, 12, 48.5)
    a, b, m = (shoe_options(NZ, s) for s in (low, high, mid))
    for up, c1, c2 in ((10, 10, 6), (6, 10, 2), (1, 10, 1), (5, 10, 10)):
        for i, action in enumerate(ACTIONS):
            x, y, z = a[up, c1, c2, i], b[up, c1, c2, i], m[up, c1, c2, i]
            if math.isnan(x):
                assert math.isnan(z), action
                continue
            assert z == pytest.approx((x + y) / 2, abs=2e-4)
            assert min(x, y) - 1e-4 <= z <= max(x, y) + 1e-4
    # at whole counts, an expected shoe is the analysis itself
    same = ExpectedShoe(NZ, counts=high, expected=tuple(float(x) for x in high))
    for hand in ((10, 6, 10), (8, 8, 1), (1, 7, 9)):
        assert same.options(*hand) == Analysis(NZ, counts=high).options(*hand)
    with pytest.raises(CroupierError, match="within a card"):
        ExpectedShoe(NZ, counts=low, expected=(*mid[:9], 46.5))


# ------------------------------------------------------------- the NZ indices
def test_the_illustrious_18_and_fab_4_beside_the_published_indices(hi_lo: IndexTable) -> None:
    assert [p.label for p in hi_lo.illustrious_18] == [d.label for d in ILLUSTRIOUS_18]
    assert [p.label for p in hi_lo.fab_4] == [d.label for d in FAB_4]
    for play in hi_lo.illustrious_18 + hi_lo.fab_4:
        assert play.index is not None, play.label
        # every one of them is a play for a rich shoe: made at the index or above
        assert play.direction == ">=", play.label
        # published: whole numbers from simulations of every hand of the total, mostly at
        # other depths and rounding rules; ours are two-card hands, three decks left
        assert play.published is not None
        assert abs(play.index - play.published) <= 1.25, play.describe()
        if play.linear is not None:
            # the classic linear estimate from the full shoe's effects of removal
            assert abs(play.index - play.linear) <= 1.25, play.describe()
    assert all(not p.offered for p in hi_lo.fab_4)  # NZ offers no surrender
    assert all(p.offered for p in hi_lo.illustrious_18)


def test_the_insurance_index_in_closed_form(hi_lo: IndexTable) -> None:
    """Insure when 3 tens > the cards left after the ace: with the expected shoe, the tens
    left are linear in the running count, so the index solves a linear equation."""
    n, k, tags = 156, 156, SYSTEMS["hi-lo"].tags
    spread = sum(c * t * t for c, t in zip(SIX, tags, strict=True))
    # tens left at running count rc: 96 - 48 - rc * 96 * (-1) / spread; cards after the ace: n - 1
    rc = (n - 1) / 3 - (96 - 96 * k / 312)
    rc /= 96 / spread
    tc_at_decision = (rc + tags[0]) / ((n - 1) / 52)
    (insurance,) = (p for p in hi_lo.illustrious_18 if p.label == "insurance")
    assert insurance.index == pytest.approx(tc_at_decision, abs=1e-6)


@pytest.mark.parametrize("label", ["16 v T", "12 v 4", "11 v A", "T,T v 6", "9 v 2"])
def test_whole_shoes_either_side_of_an_index_play_as_it_says(label: str, hi_lo: IndexTable) -> None:
    """Two true counts either side of the index, a whole-card shoe analysed by Analysis
    itself plays the decision's hands (weighted by their chance) the way the index says."""
    (deviation,) = (d for d in ILLUSTRIOUS_18 if d.label == label)
    (found,) = (p for p in hi_lo.illustrious_18 if p.label == label)
    assert deviation.decision is not None
    assert found.index is not None
    decision = deviation.decision
    hi_lo_tags = SYSTEMS["hi-lo"].tags
    for side in (-1, 1):
        target = found.index + 2 * side
        gap = 0.0
        for (a, b), w in hand_weights(SIX, decision).items():
            tau = hi_lo_tags[a - 1] + hi_lo_tags[b - 1] + hi_lo_tags[decision.up - 1]
            before = (target * 153 / 52 - tau) / 3  # the shoe's count before the round
            shoe = _whole(conditioned_shoe(SYSTEMS["hi-lo"], SIX, 156, before))
            options = Analysis(NZ, counts=shoe).options(a, b, decision.up)
            best_other = max(options[o] for o in deviation.otherwise)
            gap += w * (options[deviation.play] - best_other)
        assert (gap > 0) == (side > 0), (label, side, gap)


def _whole(cards: tuple[float, ...]) -> tuple[int, ...]:
    """Round to whole cards, keeping the total (largest remainders)."""
    floor = [math.floor(x) for x in cards]
    order = sorted(range(10), key=lambda v: cards[v] - floor[v], reverse=True)
    for v in order[: round(sum(cards)) - sum(floor)]:
        floor[v] += 1
    return tuple(floor)


def test_every_decision_has_a_best_play_and_its_changes(hi_lo: IndexTable) -> None:
    assert hi_lo.basic["16 v T"] == "hit"
    assert hi_lo.basic["T,T v 6"] == "stand"
    assert hi_lo.basic["A,A v 6"] == "split"
    assert hi_lo.basic["soft 18 v 9"] == "hit"
    assert hi_lo.basic["11 v T"] == "double"
    # the table's changes agree with its named indices
    (twelve,) = (p for p in hi_lo.illustrious_18 if p.label == "12 v 4")
    assert twelve.index is not None
    ups = [tc for tc, play in hi_lo.changes["12 v 4"] if play == "stand"]
    downs = [tc for tc, play in hi_lo.changes["12 v 4"] if play == "hit"]
    assert [round(x, 1) for x in ups + downs] == [round(twelve.index, 1)]
    data = hi_lo.to_json()
    assert data["remaining_decks"] == 3
    assert len(data["illustrious_18"]) == 18
    assert data["decisions"]["16 v T"]["basic"] == "hit"


# ------------------------------------------------------------- what no hole card changes
@pytest.fixture(scope="module")
def three_games() -> dict[str, IndexTable]:
    """Two decks, one left, three rule sets: NZ, a peek game, NZ with a dealer blackjack
    taking every stake of doubled and split hands (the European rule)."""
    games = {
        "nz": NZ,
        "peek": NZ.with_(hole_card=HoleCard.PEEK),
        "all": NZ.with_(
            dealer_blackjack_takes_doubles=DealerBlackjackTakes.ALL,
            dealer_blackjack_takes_splits=DealerBlackjackTakes.ALL,
        ),
    }
    return {
        name: index_table(SYSTEMS["hi-lo"], rules, decks=2, remaining=1, span=5, linear=False)
        for name, rules in games.items()
    }


def test_what_no_hole_card_changes(three_games: dict[str, IndexTable]) -> None:
    nz, peek, everything = (by_label(three_games[g]) for g in ("nz", "peek", "all"))
    for deviation in ILLUSTRIOUS_18 + FAB_4:
        label = deviation.label
        up = None if deviation.decision is None else deviation.decision.up
        a, b, c = nz[label], peek[label], everything[label]
        if up not in (1, 10):  # no dealer blackjack possible: the rules cannot matter
            assert a == b == c, label
            continue
        if deviation.play == "double":
            # taking the doubled stake too makes doubling against a ten or an ace worse
            assert a is not None, label
            assert c is None or c > a + 1, label
        elif deviation.play != "insure":
            assert c == a, label  # a hit or stand hand has only its original wager at stake
        # 11.7 (and a surrender void against a blackjack) make every play lose the original
        # wager, and only it, to a dealer blackjack: each difference between plays is the
        # peek game's times the chance of no blackjack, so the index is the peek game's.
        # The peek analysis does not condition the player's draws on the hole card: up to
        # half a count apart with one deck left
        assert a is not None
        assert b is not None
        assert abs(a - b) < 0.6, label


def test_without_draws_the_nz_game_and_a_peek_game_agree_exactly() -> None:
    """Standing and surrendering draw no card: there the peek analysis is exact, and the
    NZ game's values are the peek game's to the last bit (the cards are exchangeable)."""
    from croupier.blackjack.math._shoes import shoe_options

    shoe = (8, 8, 8, 8, 8, 8, 8, 8, 8, 32)
    nz = shoe_options(NZ.with_(surrender="late"), shoe)
    peek = shoe_options(NZ.with_(surrender="late", hole_card=HoleCard.PEEK), shoe)
    for up in (1, 10):
        for a, b in ((10, 6), (9, 7), (10, 5), (10, 4), (10, 2)):
            for action in ("stand", "surrender"):
                i = ACTIONS.index(action)
                assert nz[up, a, b, i] == pytest.approx(peek[up, a, b, i], abs=1e-12)
            hit = ACTIONS.index("hit")  # a draw: the peek analysis's simplification shows
            assert nz[up, a, b, hit] == pytest.approx(peek[up, a, b, hit], abs=5e-3)


def test_bad_arguments_are_refused() -> None:
    hi_lo = SYSTEMS["hi-lo"]
    with pytest.raises(CroupierError, match=r"decks remaining is from 0\.5"):
        index_table(hi_lo, NZ, decks=1, remaining=1)
    with pytest.raises(CroupierError, match="span is a true count"):
        index_table(hi_lo, NZ, span=0)
    with pytest.raises(CroupierError, match="must be a CountingSystem"):
        index_table("hi-lo", NZ)  # type: ignore[arg-type]
    with pytest.raises(CroupierError, match="cards remaining is from 10"):
        conditioned_shoe(hi_lo, SIX, 5, 0)
