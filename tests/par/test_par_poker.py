"""The poker PAR sheet: the rake against pots worked out by hand, chip conservation, the
time charge's exact arithmetic, seeds and bad input."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import pytest

from croupier.errors import CroupierError
from croupier.par import poker as par_poker
from croupier.par.poker import (
    HANDS_PER_HOUR,
    PokerPar,
    TableCharge,
    TableResult,
    poker_par,
    table_rules,
)
from croupier.poker.policies import HandStrength
from croupier.poker.settings import Rake
from croupier.poker.state import HandState

FIVE_PERCENT = Rake(percent=Fraction(1, 20), cap=30)


@pytest.mark.parametrize(
    ("game", "structure", "pot"),
    [
        ("holdem", "no-limit", 60),  # six players call the big blind of 10
        ("omaha", "pot-limit", 60),
        ("stud7", "fixed-limit", 42),  # six antes of 2 and the bring-in of 5 called
    ],
)
def test_calling_stations_pay_the_rake_of_a_known_pot(game: str, structure: str, pot: int) -> None:
    """Calling stations call the forced bets and check to the showdown: every pot is the
    same, so the rake a hand is exact and its interval collapses onto it."""
    par = poker_par([(game, structure)], charge=TableCharge(FIVE_PERCENT), players=6,
                    hands=60, model="calling-station", seed=1)  # fmt: skip
    t = par.tables[0]
    rake = FIVE_PERCENT.amount(pot, unit=1, saw_flop=True)
    assert t.pot_per_hand.value == pot
    assert t.rake_per_hand.value == rake
    assert t.rake_per_hand.low == t.rake_per_hand.high == rake
    assert t.by_rake == {rake: 60}
    assert t.share("later").value == t.share("raked").value == 1.0
    pace = HANDS_PER_HOUR[game]
    assert t.rake_per_hour.value == rake * pace
    assert t.take_per_seat_hour.fraction == Fraction(rake * pace, 6)


def test_the_rake_is_what_the_players_lost() -> None:
    """The same hands replayed outside the sheet: the chips the players lost in all (chip
    conservation, no rake event read) are the sheet's rake; every hand's rake is at most
    the cap, and nothing is raked from a hand that ended in its first round."""
    charge = TableCharge(Rake(percent=Fraction(1, 10), cap=15, per_hand=1))
    par = poker_par([("holdem", "no-limit")], charge=charge, players=4, hands=300,
                    model="hand-strength", seed=3)  # fmt: skip
    t = par.tables[0]
    rules = table_rules("holdem", "no-limit", big_blind=10, rake=charge.rake)
    master = random.Random("croupier par 3 holdem no-limit")
    lost = later = 0
    assert par_poker.CHUNK_HANDS == 250
    for size in (250, 50):  # the sheet's tasks
        rng = random.Random(master.randrange(2**63))
        player = HandStrength(rng)
        for i in range(size):
            hand = HandState(rules, dict.fromkeys(range(1, 5), 1000), i % 4 + 1, rng=rng)
            while not hand.is_complete:
                seat = hand.legal_actions().actor
                hand.apply(player(hand.view_for(seat)).for_seat(seat))
            lost += 4000 - sum(hand.stacks.values())
            later += hand.street > 0
    assert t.rake_total == lost > 0
    assert t.later_hands == later
    assert max(t.by_rake) <= 15
    assert t.by_rake.get(0, 0) >= t.hands - t.later_hands
    assert t.raked_hands <= t.later_hands
    assert sum(r * c for r, c in t.by_rake.items()) == t.rake_total
    assert sum(t.by_rake.values()) == t.hands == 300
    low, high = t.rake_per_hand.low, t.rake_per_hand.high
    assert low is not None
    assert high is not None
    assert low < t.rake_per_hand.value < high
    assert t.rake_per_hand.fraction == Fraction(lost, 300)


def test_a_time_charge_is_exact() -> None:
    """10 chips a seat every 20 minutes, 5 seats: 150 an hour; at 28 hands an hour a hand
    carries 150/28 of it."""
    charge = TableCharge(time_charge=10, period_minutes=20)
    par = poker_par([("omaha", "pot-limit")], charge=charge, players=5, hands=10,
                    model="calling-station", hands_per_hour={"omaha": 28}, seed=2)  # fmt: skip
    t = par.tables[0]
    assert t.time_per_hour.value == Decimal("150")
    assert t.time_per_hour.source == "exact"
    assert t.time_per_hand.fraction == Fraction(150, 28)
    assert t.time_per_hand.value == Decimal("5.357")  # rounded for show; "exact" keeps p/q
    assert t.time_per_hand.to_json() == {"value": "5.357", "source": "exact", "exact": "75/14"}
    assert t.rake_total == 0
    assert t.take_per_hour.value == Decimal("150")
    assert t.take_per_seat_hour.value == Decimal("30")
    assert t.pace.value == 28
    assert t.pace.source == "assumed"


def test_rake_and_time_charge_add_up() -> None:
    charge = TableCharge(FIVE_PERCENT, time_charge=5, period_minutes=30)
    par = poker_par([("holdem", "fixed-limit")], charge=charge, players=3, hands=20,
                    model="calling-station", hands_per_hour=40, seed=4)  # fmt: skip
    t = par.tables[0]
    assert t.rake_per_hand.value == 1  # 3 x 10 = 30, 5 % of it
    assert t.take_per_hour.fraction == 40 * 1 + 3 * 5 * 2
    assert t.take_per_hand.fraction == 1 + Fraction(30, 40)


def test_a_seed_replays_the_sheet_with_any_number_of_workers() -> None:
    charge = TableCharge(FIVE_PERCENT)
    args = {"charge": charge, "players": 3, "hands": 600, "model": "random", "seed": 9}
    one = poker_par([("holdem", "no-limit")], **args)  # type: ignore[arg-type]
    two = poker_par([("holdem", "no-limit")], workers=2, **args)  # type: ignore[arg-type]
    assert one.tables[0].by_rake == two.tables[0].by_rake
    assert one.tables[0].pot_total == two.tables[0].pot_total
    other = poker_par([("holdem", "no-limit")], **{**args, "seed": 10})  # type: ignore[arg-type]
    assert other.tables[0].pot_total != one.tables[0].pot_total


def test_sheet_and_json() -> None:
    par = poker_par(
        [("holdem", "no-limit"), ("stud7", "fixed-limit")],
        charge=TableCharge(FIVE_PERCENT, time_charge=5),
        players=4,
        hands=30,
        model="calling-station",
        seed=1,
    )
    assert isinstance(par, PokerPar)
    sheet = par.sheet()
    take = sheet.tables[0]
    assert take.header == ("Figure", "Texas Hold'em, no-limit", "Seven Card Stud, fixed-limit",
                           "How found")  # fmt: skip
    rows = {row[0]: row for row in take.rows}
    assert rows["Time charge an hour"][1:] == ("40.00", "40.00", "exact")
    assert rows["Hands an hour"][1:] == ("30", "25", "assumed")
    assert rows["House take an hour"][-1] == "simulated"
    data = par.to_json()
    assert data["charge"] == {
        "rake_percent": "5",
        "rake_cap": 30,
        "fee_per_hand": 0,
        "no_flop_no_drop": True,
        "time_charge": 5,
        "period_minutes": 30,
    }
    holdem = data["tables"][0]
    assert holdem["rake_per_hand"]["value"] == "2"  # 4 x 10 = 40, 5 % of it
    assert holdem["take_per_hour"]["value"] == "100"  # 2 x 30 + 4 x 5 x 2
    assert [c.title for c in sheet.charts] == ["House take an hour", "Chips raked a hand"]
    assert [s.name for s in sheet.charts[0].series] == ["rake and fee", "time charge", "total"]


def test_many_tables_split_into_column_groups() -> None:
    pairs = [(g, "fixed-limit") for g in ("holdem", "omaha", "draw", "stud5", "stud7")]
    par = poker_par(pairs, charge=TableCharge(time_charge=1), players=2, hands=2,
                    model="calling-station", seed=1)  # fmt: skip
    titles = [t.title for t in par.sheet().tables]
    assert titles == ["House take (1)", "House take (2)", "Chips raked a hand"]
    assert all(isinstance(t, TableResult) for t in par.tables)


def test_bad_arguments_are_refused() -> None:
    charge = TableCharge(FIVE_PERCENT)
    with pytest.raises(CroupierError, match="charges nothing"):
        poker_par(charge=TableCharge(), hands=1)
    with pytest.raises(CroupierError, match="player model is one of"):
        poker_par(charge=charge, hands=1, model="shark")
    with pytest.raises(CroupierError, match="seats at most 8"):
        poker_par([("stud7", "fixed-limit")], charge=charge, players=9, hands=1)
    with pytest.raises(CroupierError, match="unknown game"):
        poker_par([("bridge", "no-limit")], charge=charge, hands=1)
    with pytest.raises(CroupierError, match="hands an hour is a whole number"):
        poker_par(charge=charge, hands=1, hands_per_hour=0)
    with pytest.raises(CroupierError, match="seed must be"):
        poker_par(charge=charge, hands=1, seed=-3)
    with pytest.raises(CroupierError, match="period is a whole number of minutes"):
        TableCharge(time_charge=5, period_minutes=0)
