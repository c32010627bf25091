"""croupier against PokerKit: 10,000 random hands side by side, every state compared.

The bridge (``pokerkit_bridge.py``, whose docstring tables the rule differences)
plays each hand in both engines with the same seats, stacks, forced bets and deck,
compares every decision point (whose turn, fold / check / call and the call amount,
the bring-in, the smallest and largest raise, stacks, bets, cards, total pot and,
between rounds, the side pots with their contenders), then the pots before they
are paid, the payouts and the final stacks. A random action legal in both is
applied to both. Any difference that is not a documented rule difference fails the
test with the hand's seed, table, deck and actions. The scripted hands below pin
each documented difference, so a change in either engine shows up here (the croupier
bug the first runs found, a no-limit "completion" of a short bet, is fixed and pinned).
croupier runs here with its default (NZ) raise cap; the ``phh`` profile's cap is checked
against PokerKit through PHH files in ``test_phh_pokerkit.py``.

The longer run is ``python -m benchmarks.bench_diff_pokerkit --hands 100000``.
"""

from __future__ import annotations

from dataclasses import replace

import pokerkit_bridge as bridge
import pytest
from pokerkit_bridge import (
    VARIANTS,
    Action,
    HandSpec,
    Options,
    Tally,
    hand_seed,
    options_after,
    play_hand,
    play_seeded,
    run_hands,
)

from croupier.cards.deck import full_deck
from croupier.poker import HeadsUpBlinds, TableRules

SEED = 20240917
HANDS = {"NT": 3000, "FT": 3000, "PO": 1500, "F7S": 2500}
"""Hands per game: 10,000 in all (pot-limit Omaha is PokerKit's slowest showdown)."""


def _report(tally: Tally) -> str:
    shown = "\n\n".join(str(m) for m in tally.mismatches[:5])
    more = len(tally.mismatches) - 5
    return f"{tally.summary()}\n\n{shown}" + (f"\n\n... and {more} more" if more > 0 else "")


def test_ten_thousand_hands_in_all() -> None:
    assert sum(HANDS.values()) == 10_000
    assert set(HANDS) == set(VARIANTS)


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_hands_agree_with_pokerkit(variant: str) -> None:
    count = HANDS[variant]
    tally = run_hands(SEED, variant, 0, count)
    assert not tally.mismatches, _report(tally)
    assert tally.hands[variant] == count
    # the run must reach what it is meant to test: all-ins, side pots and showdowns
    assert tally.all_in >= count // 10, tally.summary()
    assert tally.side_pots >= count // 20, tally.summary()
    assert tally.showdowns >= count // 3, tally.summary()
    assert tally.decisions >= 5 * count, tally.summary()


def test_a_seed_replays_the_same_hand() -> None:
    name = hand_seed(SEED, "NT", 7)
    assert play_seeded(name, "NT").actions == play_seeded(name, "NT").actions


# ------------------------------------------------------- the bridge is not blind
@pytest.mark.parametrize(
    "change",
    [{"fold_when_check_is_free": True}, {"heads_up": HeadsUpBlinds.LITERAL}],
    ids=["fold-when-check-is-free", "literal-heads-up-blinds"],
)
def test_a_misaligned_rule_is_reported(
    change: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    # croupier set up with one house rule PokerKit does not share: the run must notice
    original = bridge._croupier_rules

    def rules(spec: HandSpec) -> TableRules:
        return replace(original(spec), **change)  # type: ignore[arg-type]

    monkeypatch.setattr(bridge, "_croupier_rules", rules)
    tally = run_hands(SEED, "NT", 0, 60)
    assert tally.mismatches
    assert "seed:" in str(tally.mismatches[0])
    assert "actions:" in str(tally.mismatches[0])


# ------------------------------------------- the documented differences, pinned
def _deck(first: str = "") -> tuple[str, ...]:
    head = first.split()
    return (*head, *(str(c) for c in full_deck() if str(c) not in head))


def _fixed(stacks: tuple[int, ...]) -> HandSpec:
    return HandSpec("FT", stacks, _deck(), blinds=(1, 2), small_bet=2, big_bet=4)


CC: Action = ("cc", 0)
FOLD: Action = ("f", 0)


def _to(amount: int) -> Action:
    return ("cbr", amount)


def test_heads_up_cap_is_lifted_by_croupier_only() -> None:
    # flop, head to head: bet 2, raises to 4, 6, 8 (PokerKit's cap); croupier allows 10
    pre = [CC, CC]  # the button (small blind) calls, the big blind checks
    mine, theirs = options_after(_fixed((100, 100)), [*pre, _to(2), _to(4), _to(6), _to(8)])
    assert mine == Options(1, True, 2, None, (10, 10))
    assert theirs == replace(mine, raise_to=None)


def test_pokerkit_allows_a_fourth_raise_before_the_flop() -> None:
    # the big blind is the first bet: 2, 4, 6, 8 is the cap for croupier; PokerKit goes on
    mine, theirs = options_after(_fixed((100, 100, 100)), [_to(4), _to(6), _to(8)])
    assert mine == Options(3, True, 4, None, None)
    assert theirs == replace(mine, raise_to=(10, 10))


def test_a_short_all_in_raise_counts_in_pokerkit_cap_only() -> None:
    # flop: bet 2, raise 4, all in for 5 (short), raise 7: PokerKit has counted four
    pre = [CC, CC, CC, CC]
    actions = [*pre, _to(2), _to(4), _to(5), _to(7)]
    mine, theirs = options_after(_fixed((100, 100, 7, 100)), actions)
    assert mine == Options(1, True, 5, None, (9, 9))
    assert theirs == replace(mine, raise_to=None)


def test_short_all_in_opening_bet_completes_in_croupier() -> None:
    # turn (bet 4): seat 1 bets its last 3; the next player may complete to 4 in croupier,
    # PokerKit wants a full bet on top (7)
    pre = [CC, CC, CC, CC, CC, CC]  # pre-flop calls and check, flop checked through
    mine, theirs = options_after(_fixed((5, 100, 100)), [*pre, _to(3)])
    assert mine == Options(2, True, 3, None, (4, 4))
    assert theirs == replace(mine, raise_to=(7, 7))


def test_short_all_in_opening_bet_does_not_reopen_for_a_checker_in_croupier() -> None:
    # turn: seats 1 and 2 check, seat 3 bets its last 3; seat 1 checked already
    pre = [CC, CC, CC, CC, CC, CC]
    mine, theirs = options_after(_fixed((100, 100, 5)), [*pre, CC, CC, _to(3)])
    assert mine == Options(1, True, 3, None, None)
    assert theirs == replace(mine, raise_to=(7, 7))


@pytest.mark.parametrize("variant", ["NT", "PO"])
def test_no_limit_raise_over_a_short_all_in_bet_is_a_full_raise(variant: str) -> None:
    # flop: seat 1 bets its last chip; seat 2 has not acted and may raise
    spec = HandSpec(variant, (3, 100, 100), _deck(), blinds=(1, 2))
    mine, theirs = options_after(spec, [CC, CC, CC, _to(1)])
    assert theirs.raise_to is not None
    assert theirs.raise_to[0] == 3
    assert mine == theirs


def test_short_all_ins_adding_up_to_a_full_raise_reopen_in_pokerkit_only() -> None:
    # seat 3 raises to 10 (by 8); seats 4 and 1 move in for 14 and 18 (4 more each): seat 3
    # now faces 8, a full raise in all, but each short all-in alone reopens nothing
    spec = HandSpec("NT", (18, 100, 100, 14), _deck(), blinds=(1, 2))
    mine, theirs = options_after(spec, [_to(10), _to(14), _to(18), CC])
    assert mine == Options(3, True, 8, None, None)
    assert theirs == replace(mine, raise_to=(26, 100))


def test_pokerkit_refuses_a_raise_nobody_can_call() -> None:
    # seat 3 moves in for 100; the big blind (50) cannot cover more, seat 1 (150) may
    # still raise all in for croupier, never for PokerKit
    spec = HandSpec("NT", (150, 50, 100, 100), _deck(), blinds=(1, 2))
    mine, theirs = options_after(spec, [_to(100), FOLD])
    assert mine == Options(1, True, 99, None, (150, 150))
    assert theirs == replace(mine, raise_to=None)


def test_pokerkit_merges_pots_after_killing_hands() -> None:
    # seats 3 and 6 split a main and a side pot (75 and 21 chips); croupier splits each
    # (odd chips to seat 3 twice), PokerKit merges them once seat 4's and 5's hands are
    # killed and splits 96 evenly
    deck = (
        "6h 5h 4s 8s As 5d Kd 3s Js 3h 6d Tc Ks 9s Ts Qs Kc Jc Ad 5c 2d 2c Kh Th Td Jd Jh "
        "Ac 4c Qh 7s 9d Qd 8c 8h 4d 9h 7h 6s 3c 4h 2s 5s 6c 2h 3d 7d Ah 9c 8d 7c Qc"
    )
    spec = HandSpec("PO", (20, 36, 64, 15, 35, 22), tuple(deck.split()), blinds=(1, 2))
    actions = [CC, CC, CC, _to(13), CC, FOLD, _to(55), CC, CC, CC, FOLD]
    result = play_hand(spec, actions)
    assert result.known["pots merged after hand killing"] == 1
    assert result.croupier_paid == {3: 75, 6: 47}
    assert result.pokerkit_paid == {3: 74, 6: 48}


def test_a_short_big_blind_is_called_in_full_by_croupier_only() -> None:
    # the big blind has 3 of the 4 chips: croupier's call is the whole blind, PokerKit's the
    # largest amount posted (the random tables avoid this: stacks start at 3 blinds + ante)
    spec = HandSpec("NT", (100, 3, 100), _deck(), blinds=(2, 4))
    mine, theirs = options_after(spec, [])
    assert mine == Options(3, True, 4, None, (8, 100))
    assert theirs == Options(3, True, 3, None, (7, 100))
