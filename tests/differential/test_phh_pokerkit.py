"""PHH between PokerKit and croupier, both ways (issue 11, point 5): final stacks equal.

PokerKit plays 5,000 random hands by its own rules (1,000 each of no-limit hold'em,
no-limit hold'em with antes, fixed-limit hold'em, pot-limit Omaha and fixed-limit seven
card stud; 2-6 players, short stacks, so all-ins and side pots) and writes them as PHH;
croupier replays them through the code path of ``croupier replay`` (a few through the
command itself). croupier plays 2,500 random hands under the ``phh`` profile and writes
them; PokerKit loads them. Every hand must end with the same stacks in both engines,
except hands that run into one of the two documented rule differences PHH cannot carry
(``pokerkit_phh.KNOWN``: a wager after a short all-in in the same round, and pots PokerKit
merges before splitting): those are counted by name and listed on failure, never dropped.
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
from pokerkit_phh import KNOWN, LABELS, MERGED_POTS, SHORT_ALL_IN, Tally

from croupier.cli.replay_cmd import replay_command
from croupier.phh import PHHError, loads, replay
from croupier.phh.writer import dumps
from croupier.poker import events as ev

SEED = 20250611
FROM_POKERKIT = 1_000
"""PokerKit-written hands per table (5,000 in all)."""
TO_POKERKIT = 500
"""croupier-written hands per table (2,500 in all)."""


def _report(tally: Tally) -> str:
    shown = "\n\n".join(o.describe() for o in tally.unexplained[:3])
    return f"{tally.summary()}\n\n{shown}"


@pytest.mark.slow
@pytest.mark.parametrize("label", LABELS)
def test_pokerkit_hands_replay_in_croupier_to_the_same_stacks(label: str) -> None:
    tally = phh.run_pokerkit_to_croupier(SEED, label, FROM_POKERKIT)
    assert tally.hands[label] == FROM_POKERKIT
    assert not tally.unexplained, _report(tally)
    # the run reaches what it is meant to test, and the documented differences stay rare
    assert tally.equal[label] >= 0.95 * FROM_POKERKIT, tally.summary()
    assert len(tally.explained) <= 0.05 * FROM_POKERKIT, tally.summary()
    print(tally.summary())


@pytest.mark.slow
@pytest.mark.parametrize("label", LABELS)
def test_croupier_hands_written_under_phh_load_in_pokerkit_with_the_same_stacks(
    label: str,
) -> None:
    tally = phh.run_croupier_to_pokerkit(SEED, label, TO_POKERKIT)
    assert tally.hands[label] == TO_POKERKIT
    assert not tally.unexplained, _report(tally)
    assert tally.equal[label] >= 0.95 * TO_POKERKIT, tally.summary()
    print(tally.summary())


def test_the_runs_hold_5000_and_2500_hands() -> None:
    assert FROM_POKERKIT * len(LABELS) == 5_000
    assert TO_POKERKIT * len(LABELS) == 2_500
    assert KNOWN == (SHORT_ALL_IN, MERGED_POTS)


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
        if outcome.equal:
            assert record["final_stacks"] == list(outcome.expected), outcome.describe()
            assert record["matches_recorded"] is True
        else:  # a documented difference: reported by the command, never passed over
            assert outcome.known, outcome.describe()
            assert "error" in record
    assert result.exit_code == (0 if all(o.equal for o in outcomes) else 1)


# ------------------------------------------------ the two differences, one hand each
def test_a_raise_after_a_short_all_in_is_a_documented_difference() -> None:
    # fixed limit, flop (bet 10): p2 bets its last 5; PokerKit lets p5 raise a full bet on
    # top (to 15), croupier completes the bet to 10 (17.6(c)) and refuses 15
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
    with pytest.raises(PHHError, match="cannot make it 15; allowed: fold, call 5, raise to 10"):
        replay(loads(text)[0])


def test_merged_pots_are_a_documented_difference() -> None:
    # PO: p4 (all in for 7) loses; p1 and p6 split the main and the side pot. croupier
    # splits each (odd chip to p1 in each), PokerKit merges them and splits once
    outcome = phh.pokerkit_to_croupier(phh.hand_seed(1, "PO", 242), "PO")
    assert outcome.known == {MERGED_POTS}
    assert outcome.got is None
    assert "finishing_stacks 64 28 35 0 32 95" in outcome.error
    assert "ends with stacks 65 28 35 0 32 94" in outcome.error


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
