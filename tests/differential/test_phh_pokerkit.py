"""PHH between PokerKit and croupier, both ways (issue 11, point 5): final stacks equal.

PokerKit plays 5,000 random hands by its own rules (1,000 each of no-limit hold'em,
no-limit hold'em with antes, fixed-limit hold'em, pot-limit Omaha and fixed-limit seven
card stud; 2-6 players, short stacks, so all-ins and side pots) and writes them as PHH;
croupier replays them through the code path of ``croupier replay`` (a few through the
command itself). croupier plays 2,500 random hands under the ``phh`` profile and writes
them; PokerKit loads them. Every hand must end with the same stacks in both engines: the
``phh`` profile carries PokerKit's conventions as rule settings (short all-in wagers, the
cap, raises nobody can call, merged pots), with no excused hands. The hands that meet a
convention where the NZ rules differ (``pokerkit_phh.CONVENTIONS``) are counted, so the
run shows it reached them.
"""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import pokerkit as pk
import pokerkit_phh as phh
import pytest
from click.testing import CliRunner
from pokerkit_phh import (
    BRING_IN_COMPLETION,
    CONVENTIONS,
    LABELS,
    MERGED_POTS,
    SHORT_ALL_IN,
    Tally,
)

from croupier.cli.replay_cmd import replay_command
from croupier.phh import PHHError, loads, replay
from croupier.phh.writer import dumps
from croupier.poker import events as ev

SEED = 20250611
FROM_POKERKIT = 1_000
"""PokerKit-written hands per table (5,000 in all)."""
TO_POKERKIT = 500
"""croupier-written hands per table (2,500 in all)."""


MET_FROM_POKERKIT: dict[str, dict[str, int]] = {
    "NT": {SHORT_ALL_IN: 20, MERGED_POTS: 5},
    "NT+ante": {SHORT_ALL_IN: 10, MERGED_POTS: 3},
    "FT": {SHORT_ALL_IN: 30, MERGED_POTS: 1},
    "PO": {SHORT_ALL_IN: 30, MERGED_POTS: 3},
    "F7S": {SHORT_ALL_IN: 30, BRING_IN_COMPLETION: 1},
}
"""The least number of hands each run must meet each convention in (about half of what
the seeded runs meet): the runs test the conventions, not only the common hands."""

MET_TO_POKERKIT: dict[str, dict[str, int]] = {
    "NT": {SHORT_ALL_IN: 3, MERGED_POTS: 4},
    "NT+ante": {SHORT_ALL_IN: 2},
    "FT": {SHORT_ALL_IN: 4},
    "PO": {SHORT_ALL_IN: 5, MERGED_POTS: 1},
    "F7S": {SHORT_ALL_IN: 10, BRING_IN_COMPLETION: 15},
}


def _report(tally: Tally) -> str:
    shown = "\n\n".join(o.describe() for o in tally.unequal[:3])
    return f"{tally.summary()}\n\n{shown}"


def _check(tally: Tally, label: str, count: int, least: dict[str, int]) -> None:
    print(tally.summary())
    assert tally.hands[label] == count
    assert tally.equal[label] == count, _report(tally)  # every final stack equal
    assert not tally.unequal, _report(tally)
    for name, n in least.items():
        assert tally.met[name] >= n, tally.summary()


@pytest.mark.slow
@pytest.mark.parametrize("label", LABELS)
def test_pokerkit_hands_replay_in_croupier_to_the_same_stacks(label: str) -> None:
    tally = phh.run_pokerkit_to_croupier(SEED, label, FROM_POKERKIT)
    _check(tally, label, FROM_POKERKIT, MET_FROM_POKERKIT[label])


@pytest.mark.slow
@pytest.mark.parametrize("label", LABELS)
def test_croupier_hands_written_under_phh_load_in_pokerkit_with_the_same_stacks(
    label: str,
) -> None:
    tally = phh.run_croupier_to_pokerkit(SEED, label, TO_POKERKIT)
    _check(tally, label, TO_POKERKIT, MET_TO_POKERKIT[label])


def test_the_runs_hold_5000_and_2500_hands() -> None:
    assert FROM_POKERKIT * len(LABELS) == 5_000
    assert TO_POKERKIT * len(LABELS) == 2_500
    assert set(MET_FROM_POKERKIT) == set(MET_TO_POKERKIT) == set(LABELS)
    assert CONVENTIONS == (SHORT_ALL_IN, MERGED_POTS, BRING_IN_COMPLETION)


def test_the_tables_reach_all_ins_side_pots_and_every_player_count() -> None:
    players: set[int] = set()
    side_pots = all_ins = 0
    for index in range(200):
        rng = random.Random(phh.hand_seed(SEED, "NT", index))
        table = phh.random_table(rng, "NT")
        players.add(len(table.stacks))
        hand = phh.croupier_hand(table, rng)
        all_ins += any(p.all_in for p in hand.players.values())
        side_pots += sum(isinstance(e, ev.PotAwarded) for e in hand.events) > 1
    assert players == {2, 3, 4, 5, 6}
    assert all_ins >= 60
    assert side_pots >= 20


def test_a_seed_gives_the_same_hand_and_file() -> None:
    first = phh.pokerkit_to_croupier(phh.hand_seed(SEED, "F7S", 3), "F7S")
    again = phh.pokerkit_to_croupier(phh.hand_seed(SEED, "F7S", 3), "F7S")
    assert first.text == again.text
    mine = phh.croupier_to_pokerkit(phh.hand_seed(SEED, "FT", 3), "FT")
    assert mine.text == phh.croupier_to_pokerkit(phh.hand_seed(SEED, "FT", 3), "FT").text


@pytest.mark.parametrize("label", LABELS)
def test_pokerkit_hands_replay_through_the_command_line(label: str, tmp_path: Path) -> None:
    # PokerKit writes 30 hands as one .phhs file (its dumps_all); `croupier replay --json`
    # replays each and checks it against the finishing_stacks PokerKit recorded
    outcomes, histories = [], []
    for index in range(30):
        seed = phh.hand_seed(SEED, label, index)
        outcomes.append(phh.pokerkit_to_croupier(seed, label))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            histories.append(pk.HandHistory.loads(outcomes[-1].text))
    path = tmp_path / f"{label.replace('+', '-')}.phhs"
    path.write_text(pk.HandHistory.dumps_all(histories), "utf-8")
    result = CliRunner().invoke(replay_command, [str(path), "--json"])
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 30
    for outcome, record in zip(outcomes, records, strict=True):
        assert outcome.equal, outcome.describe()
        assert record["final_stacks"] == list(outcome.expected), outcome.describe()
        assert record["matches_recorded"] is True
    assert result.exit_code == 0


# ------------------------------- the conventions where the profiles differ, one hand each
def test_a_full_bet_on_top_of_a_short_all_in_replays_under_phh_not_under_nz() -> None:
    # fixed limit, flop (bet 10): p2 bets its last 5; PokerKit lets p5 raise a full bet on
    # top (to 15): the phh profile does (ShortAllIn.limit_completes off); under nz
    # croupier completes the bet to 10 (17.6(c)) and refuses 15
    text = (
        "variant = 'FT'\nantes = [0, 0, 0, 0, 0, 0]\nblinds_or_straddles = [5, 10, 0, 0, 0, 0]\n"
        "small_bet = 10\nbig_bet = 20\nstarting_stacks = [440, 15, 380, 399, 399, 323]\n"
        "actions = ['p3 cc', 'p4 f', 'p5 cc', 'p6 f', 'p1 f', 'p2 cc', 'd db 2s4h3s', "
        "'p2 cbr 5', 'p3 cc', 'p5 cbr 15']\n"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(pk.HandHistory.loads(text))
    assert states[-1].bets[4] == 15  # PokerKit took the raise
    hand = replay(loads(text)[0]).hand
    assert hand.players[5].bet == 15
    assert hand.current_bet == 15
    with pytest.raises(PHHError, match="cannot make it 15; allowed: fold, call 5, raise to 10"):
        replay(loads(text)[0], "nz")


def test_pots_with_the_same_winners_are_divided_once_under_phh() -> None:
    # PO: p4 (all in for 7) loses; p1 and p6 split the main and the side pot. PokerKit
    # divides them once, as the phh profile does; under nz each pot is divided on its own
    # (the odd chip to p1 in each)
    outcome = phh.pokerkit_to_croupier(phh.hand_seed(1, "PO", 242), "PO")
    assert outcome.known == {MERGED_POTS}
    assert outcome.equal
    assert outcome.got == (64, 28, 35, 0, 32, 95)
    nz = replay(loads(outcome.text)[0], "nz")
    assert nz.problems()
    assert "ends with stacks 65 28 35 0 32 94" in "; ".join(nz.problems())


def test_a_check_nobody_records_is_made_by_the_replay_and_left_out_by_the_writer() -> None:
    # heads up, p2 (the button, 3 chips) calls all in: the big blind's check is no
    # decision, so PokerKit records none; croupier replays and writes the same way
    text = (
        "variant = 'NT'\nantes = [1, 1]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [52, 3]\nactions = ['d dh p1 8h4d', 'd dh p2 3h8s', 'p2 cc', "
        "'p2 sm 3h8s', 'p1 sm 8h4d', 'd db Jh6c3c', 'd db 5d', 'd db Ts']\n"
    )
    back = replay(loads(text)[0])
    assert back.finished
    assert back.final_stacks == [49, 6]
    written = loads(dumps(back.hand))[0].fields["actions"]
    assert "p1 cc" not in written
    assert list(list(pk.HandHistory.loads(dumps(back.hand)))[-1].stacks) == [49, 6]
