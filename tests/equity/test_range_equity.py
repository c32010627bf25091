"""Range equity: exact results against an independent brute force, card removal, weights,
exact and Monte-Carlo agreement, seeds, the exact/Monte-Carlo choice, and input errors."""

from __future__ import annotations

import itertools
import json
import math
import time
from fractions import Fraction

import pytest
from click.testing import CliRunner, Result

from croupier.cards import parse_cards
from croupier.cli.app import cli
from croupier.equity import HandRange, RangeEquityResult, equity, range_equity
from croupier.errors import CroupierError, HandSizeError
from croupier.evaluation import rank_indices

Combos = list[tuple[tuple[int, int], Fraction]]
RANKS = "23456789TJQKA"


def card(rank: str, suit: int) -> int:
    return 4 * RANKS.index(rank) + suit


def pair(rank: str, weight: Fraction = Fraction(1)) -> Combos:
    """The six combos of a pair, written out here rather than read by the range parser."""
    return [
        ((card(rank, a), card(rank, b)), weight) for a, b in itertools.combinations(range(4), 2)
    ]


def suited(high: str, low: str, weight: Fraction = Fraction(1)) -> Combos:
    return [((card(high, s), card(low, s)), weight) for s in range(4)]


def offsuit(high: str, low: str, weight: Fraction = Fraction(1)) -> Combos:
    return [((card(high, a), card(low, b)), weight) for a in range(4) for b in range(4) if a != b]


def hand(text: str) -> Combos:
    a, b = parse_cards(text)
    return [((a.index, b.index), Fraction(1))]


def brute_force(players: list[Combos], board: str) -> list[tuple[Fraction, Fraction, Fraction]]:
    """(win, tie, equity) per player: every deal without a shared card, weighted by the product
    of the weights, and every board completion, scored with the one-call evaluator."""
    known = [c.index for c in parse_cards(board)]
    n = len(players)
    total = Fraction(0)
    sums = [[Fraction(0)] * 3 for _ in range(n)]
    for deal in itertools.product(*players):
        used = [c for combo, _ in deal for c in combo] + known
        if len(set(used)) != len(used):
            continue
        weight = math.prod(w for _, w in deal)
        rest = [c for c in range(52) if c not in used]
        wins = [0] * n
        ties = [0] * n
        shares = [Fraction(0)] * n
        boards = 0
        for extra in itertools.combinations(rest, 5 - len(known)):
            full = known + list(extra)
            values = [rank_indices([*combo, *full]) for combo, _ in deal]
            best = max(values)
            winners = [i for i, v in enumerate(values) if v == best]
            for i in winners:
                if len(winners) == 1:
                    wins[i] += 1
                else:
                    ties[i] += 1
                shares[i] += Fraction(1, len(winners))
            boards += 1
        total += weight
        for i in range(n):
            sums[i][0] += weight * Fraction(wins[i], boards)
            sums[i][1] += weight * Fraction(ties[i], boards)
            sums[i][2] += weight * shares[i] / boards
    return [(s[0] / total, s[1] / total, s[2] / total) for s in sums]


def outcomes(result: RangeEquityResult) -> list[tuple[Fraction, Fraction, Fraction]]:
    out = []
    for p in result.players:
        assert isinstance(p.win, Fraction)
        assert isinstance(p.tie, Fraction)
        assert isinstance(p.equity, Fraction)
        out.append((p.win, p.tie, p.equity))
    return out


CASES = [
    # card removal: the board ace and the two players' aces
    (["AA", "AKs"], [pair("A"), suited("A", "K")], "Ah 7c 2d"),
    (
        ["AsKs", "QQ+, AKo"],
        [hand("As Ks"), pair("Q") + pair("K") + pair("A") + offsuit("A", "K")],
        "Qs Js 2c 3d",
    ),
    # weights
    (
        ["AA:0.5, KK", "AKs, QQ:0.25"],
        [pair("A", Fraction(1, 2)) + pair("K"), suited("A", "K") + pair("Q", Fraction(1, 4))],
        "Kh 7c 2d 9s",
    ),
    # three players, lots of split pots on a river
    (
        ["AKs", "QQ, JJ", "T9s, 76s:0.3"],
        [
            suited("A", "K"),
            pair("Q") + pair("J"),
            suited("T", "9") + suited("7", "6", Fraction(3, 10)),
        ],
        "2c 7d 9h Jc 8s",
    ),
    (
        ["AKs", "QQ, JJ", "T9s"],
        [suited("A", "K"), pair("Q") + pair("J"), suited("T", "9")],
        "2c 7d 9h Jc",
    ),
    # the same suits on the board: many deals are one matchup up to suits
    (["KQs, 22", "AJo"], [suited("K", "Q") + pair("2"), offsuit("A", "J")], "5s 5h 5d 5c"),
]


@pytest.mark.parametrize(("ranges", "combos", "board"), CASES)
def test_exact_range_equity_equals_brute_force(
    ranges: list[str], combos: list[Combos], board: str
) -> None:
    result = range_equity(ranges, board)
    assert result.exact
    assert outcomes(result) == brute_force(combos, board)
    assert sum(p.equity for p in result.players) == 1


def test_card_removal_between_ranges_and_the_board() -> None:
    # AA keeps 3 combos and AKs 3 once Ah is on the board; each AA combo holds two of the
    # three live aces, so only the AKs combo of the third ace fits beside it: 3 deals
    result = range_equity(["AA", "AKs"], board="Ah 7c 2d")
    assert result.deals == 3
    assert [p.combos for p in result.players] == [3, 3]
    # Kh leaves AKs of spades, diamonds and clubs: the 3 AA combos holding Ah fit beside 2 of
    # them, the other 3 AA combos beside 1
    assert range_equity(["AA", "AKs"], board="Kh 7c 2d").deals == 3 * 2 + 3 * 1


def test_an_exact_hand_is_a_range_of_one_combo() -> None:
    board = "Qs Js 2c"
    ours = range_equity(["As Ks", "QdQh"], board)
    theirs = equity(["As Ks", "Qd Qh"], board)
    assert ours.deals == ours.matchups == 1
    assert [p.equity for p in ours.players] == [h.equity for h in theirs.hands]
    assert [p.win for p in ours.players] == [h.win for h in theirs.hands]


def test_suit_isomorphism_folds_qq_plus_against_aks_into_four_matchups() -> None:
    result = range_equity(["QQ+", "AKs"])
    assert result.exact
    assert result.deals == 48  # QQ 6 x 4, KK 3 x 4, AA 3 x 4 (no shared K or A)
    assert result.matchups == 4  # QQ with or without the AK suit, KK, AA
    assert result.trials == 4 * 1_712_304
    assert round(float(result.players[0].equity), 4) == 0.6541


def test_weights_scale_the_deals_exactly() -> None:
    # AA:0.5 and KK against AKs: the two weights sit as exact fractions of one another
    half = range_equity(["AA:0.5, KK", "QQ"], board="2c 7d 9h Jc")
    aa = range_equity(["AA", "QQ"], board="2c 7d 9h Jc").players[0].equity
    kk = range_equity(["KK", "QQ"], board="2c 7d 9h Jc").players[0].equity
    assert half.players[0].equity == (Fraction(1, 2) * aa + kk) / Fraction(3, 2)


def test_monte_carlo_agrees_with_exact_within_four_standard_errors() -> None:
    ranges = ["AA, KK, AKs", "QQ+, AQs, 76s"]
    exact = range_equity(ranges, board="Qs 7c 2d")
    sampled = range_equity(ranges, board="Qs 7c 2d", samples=200_000, seed=11)
    assert exact.exact
    assert not sampled.exact
    for e, s in zip(exact.players, sampled.players, strict=True):
        assert s.stderr is not None
        assert 0 < s.stderr < 0.005
        assert abs(float(e.equity) - float(s.equity)) < 4 * s.stderr
        assert abs(float(e.win) - float(s.win)) < 0.01


def test_monte_carlo_preflop_with_three_players_agrees_with_exact() -> None:
    ranges = ["AsKs", "QQ+, AKo", "JTs"]
    exact = range_equity(ranges, exact=True)
    sampled = range_equity(ranges, samples=150_000, seed=3)
    for e, s in zip(exact.players, sampled.players, strict=True):
        assert s.stderr is not None
        assert abs(float(e.equity) - float(s.equity)) < 4 * s.stderr


def test_a_seed_replays_a_sampled_run() -> None:
    one = range_equity(["QQ+, AKs", "random"], samples=20_000, seed=7)
    two = range_equity(["QQ+, AKs", "random"], samples=20_000, seed=7)
    other = range_equity(["QQ+, AKs", "random"], samples=20_000, seed=8)
    assert one == two
    assert one != other
    assert one.deals is None
    assert one.matchups is None


def test_large_ranges_go_to_monte_carlo_quickly() -> None:
    started = time.perf_counter()
    result = range_equity(["random", "random"], samples=50_000, seed=1)
    auto = range_equity(["random", "random"], board="Ks 7h 2c", exact=None, seed=2)
    assert not result.exact
    assert not auto.exact  # about 600,000 distinct flop matchups: over the two-second budget
    assert auto.trials == 1_000_000
    assert abs(float(result.players[0].equity) - 0.5) < 4 * (result.players[0].stderr or 0)
    assert time.perf_counter() - started < 30


def test_exact_false_samples_and_exact_true_enumerates() -> None:
    sampled = range_equity(["AA", "KK"], board="2c 7d 9h Jc", exact=False, seed=1)
    assert not sampled.exact
    assert sampled.trials == 1_000_000
    forced = range_equity(["AA, KK", "QQ, AKs"], board="2c 7d 9h", exact=True)
    assert forced.exact


def test_progress_is_called_to_completion() -> None:
    seen: list[tuple[int, int]] = []
    result = range_equity(["AA", "KK"], "2c 7d 9h", progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (result.matchups, result.matchups)
    seen.clear()
    range_equity(["AA", "KK"], samples=250_000, seed=1, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (250_000, 250_000)
    assert len(seen) == 3


def test_to_dict_is_json_ready() -> None:
    data = range_equity(["AsKs", "QQ+, AKo"], board="Qs Js 2c 3d").to_dict()
    assert data["exact"] is True
    assert data["players"][1]["range"] == "QQ+, AKo"
    assert (
        Fraction(data["players"][0]["equity_exact"]) + Fraction(data["players"][1]["equity_exact"])
        == 1
    )
    sampled = range_equity(["AsKs", "QQ+"], samples=1, seed=0).to_dict()
    assert sampled["players"][0]["stderr"] is None


def test_a_hand_range_object_is_accepted() -> None:
    text = range_equity(["AA", "KK"], board="2c 7d 9h Jc")
    parsed = range_equity([HandRange("AA"), HandRange("KK")], board="2c 7d 9h Jc")
    assert text == parsed


@pytest.mark.parametrize(
    ("kwargs", "error", "needle"),
    [
        ({"players": ["AA"]}, HandSizeError, "2 to 6 players, got 1"),
        ({"players": ["AA"] * 7}, HandSizeError, "2 to 6 players, got 7"),
        ({"players": "AA, KK"}, CroupierError, "players must be a list"),
        ({"players": None}, CroupierError, "players must be a list"),
        ({"players": ["AA", 42]}, CroupierError, "a range must be text"),
        ({"players": ["AsKs", "AsQs"]}, CroupierError, "cannot be dealt together"),
        ({"players": ["AA", "AA", "AA"]}, CroupierError, "cannot be dealt together"),
        ({"players": ["AsKs", "QQ"], "board": "Ks"}, CroupierError, "player 1's range 'AsKs'"),
        ({"players": ["AA", "KK"], "board": "2c 3c 4c 5c 6c 7c"}, HandSizeError, "at most 5"),
        ({"players": ["AA", "KK"], "board": "2c 2c"}, CroupierError, "duplicate card 2c"),
        ({"players": ["AA", "KK"], "samples": 0}, CroupierError, "samples must be a whole"),
        ({"players": ["AA", "KK"], "samples": 2.5}, CroupierError, "samples must be a whole"),
        ({"players": ["AA", "KK"], "seed": -1}, CroupierError, "seed must be None"),
        ({"players": ["AA", "KK"], "exact": "yes"}, CroupierError, "exact must be True"),
        ({"players": ["AA", "KK"], "exact": True, "samples": 5}, CroupierError, "exclude"),
        ({"players": ["AA", "KK"], "progress": 5}, CroupierError, "progress must be"),
        ({"players": ["random"] * 3, "exact": True}, CroupierError, "more than the 4,000,000"),
        ({"players": ["AsKsQdJd", "AA"]}, CroupierError, "Omaha takes exact hands"),
    ],
)
def test_bad_input_is_one_line(
    kwargs: dict[str, object], error: type[Exception], needle: str
) -> None:
    with pytest.raises(error, match=None) as exc:
        range_equity(**kwargs)  # type: ignore[arg-type]
    assert needle in str(exc.value)
    assert "\n" not in str(exc.value)


def test_ranges_that_never_fit_are_refused_without_listing_the_deals() -> None:
    # 12^5 * 18 deals is over the listing limit; five players cannot share four aces and kings
    with pytest.raises(CroupierError, match="cannot be dealt together"):
        range_equity(["AA, KK"] * 5 + ["AA, KK, QQ"])


# --- the command line -------------------------------------------------------------------


def run_cli(*args: str) -> Result:
    return CliRunner().invoke(cli, ["equity", *args])


def test_cli_routes_a_range_to_range_equity_with_json() -> None:
    out = run_cli("AsKs", "QQ+,AKo", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["exact"] is True
    assert data["deals"] == 18  # QQ 6, KK 3, AA 3, AKo 6 (no As, no Ks)
    assert data["matchups"] == 5
    assert [p["range"] for p in data["players"]] == ["AsKs", "QQ+, AKo"]
    assert [p["combos"] for p in data["players"]] == [1, 30]
    exact = [Fraction(p["equity_exact"]) for p in data["players"]]
    assert exact == [p.equity for p in range_equity(["AsKs", "QQ+, AKo"]).players]


def test_cli_range_samples_and_seed_replay() -> None:
    args = ("22+, A2s+", "random", "--board", "Ks 7h 2c", "--samples", "20000", "--seed", "4")
    one, two = run_cli(*args, "--json"), run_cli(*args, "--json")
    assert one.exit_code == 0, one.output
    assert one.output == two.output
    data = json.loads(one.output)
    assert data["exact"] is False
    assert data["trials"] == 20_000
    assert all(0 < p["stderr"] < 0.01 for p in data["players"])


def test_cli_range_human_output() -> None:
    out = run_cli("AA", "KK", "--board", "Ah Kh 2c")
    assert out.exit_code == 0, out.output
    assert "range equity (exact" in out.output
    assert "AA" in out.output
    assert "(3 combos)" in out.output


def test_cli_hands_alone_keep_the_hand_path() -> None:
    out = run_cli("As Ks", "Qd Qh", "--board", "2c 7d 9h Jc", "--json")
    assert [h["wins"] for h in json.loads(out.output)["hands"]] == [6, 38]


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (["AKx", "QQ"], 1, "bad range part 'AKx'"),
        (["QQ-AKs", "AsKs"], 1, "bad range part 'QQ-AKs'"),
        (["AKx", "AsKs"], 1, "bad range part 'AKx'"),
        (["As Ks Qd Jx", "Ah Kh Qh Jh", "--game", "omaha"], 1, "bad card 'Jx'"),
        (["As Ks Qd", "QQ"], 1, "3 cards"),
        (["As Ks Qd", "Qh Jh"], 1, "2 hole cards"),  # all hands: the hand path's error
        (["AA", "KK", "--game", "omaha"], 1, "Omaha takes exact hands"),
        (["AA", "AA", "AA"], 1, "cannot be dealt together"),
        (["AA", "KK", "--exact", "--samples", "10"], 2, "--exact and --samples"),
        (["AA", "KK", "--exact", "--seed", "1"], 2, "--seed needs a Monte-Carlo run"),
        (["AsKs", "QdQh", "--seed", "1"], 2, "--seed needs --samples"),
    ],
)
def test_cli_errors_are_one_line(args: list[str], code: int, needle: str) -> None:
    out = run_cli(*args)
    assert out.exit_code == code
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert needle in lines[0]
    assert "Traceback" not in out.output
