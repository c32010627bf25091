"""Issue 28, point 3: the ACPC dealer over real sockets, a client written here over a raw
socket, the protocol's strings for a stacked deal, time limits, garbage, and the logs."""

from __future__ import annotations

import asyncio
import io
import random
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import acpc_client as client
import pytest

from croupier.acpc.dealer import (
    MatchLog,
    MatchResult,
    Player,
    PolicyPlayer,
    RemotePlayer,
    play_match,
)
from croupier.acpc.protocol import AcpcGame, AcpcHand, stacked_deck
from croupier.phh import load, replay
from croupier.poker import events as ev
from croupier.poker.actions import CheckOrCall
from croupier.poker.policies import CallingStation, HandStrength, RandomPolicy

DECK = "As Qh Kd Jh 2c 3d 4c 5h 6c 7s 8c 9d"
"""Position 0: AsKd, position 1: QhJh; burns 2c 6c 8c; board 3d4c5h 7s 9d."""


def run_with_clients(
    game: AcpcGame,
    seats: Sequence[Player | Callable[[int], None]],
    hands: int,
    **options: Any,
) -> MatchResult:
    """Play a match in which each callable seat is an ACPC client run in a thread on the
    seat's port (it is given the port)."""

    async def main() -> MatchResult:
        players: list[Player] = []
        threads: list[threading.Thread] = []
        for i, seat in enumerate(seats):
            if isinstance(seat, Player):
                players.append(seat)
                continue
            remote = RemotePlayer(f"client{i}")
            port = await remote.listen()
            thread = threading.Thread(target=seat, args=(port,), daemon=True)
            thread.start()
            threads.append(thread)
            players.append(remote)
        for player in players:
            if isinstance(player, RemotePlayer):
                assert await player.accept(10), player.problem
        try:
            return await play_match(game, players, hands, **options)
        finally:
            for player in players:
                await player.close()
            for thread in threads:
                await asyncio.to_thread(thread.join, 10)

    return asyncio.run(main())


# ------------------------------------------------------------------ the protocol's strings
def test_matchstates_of_a_stacked_no_limit_deal_are_the_specs() -> None:
    """Written by hand from the ACPC protocol (reverse blinds: position 1 is the button
    and acts first before the flop; ``r<x>`` is the hand total)."""
    seen: list[str] = []
    replies = {
        "MATCHSTATE:0:0:c:AsKd|": "r300",
        "MATCHSTATE:0:0:cr300c/:AsKd|/3d4c5h": "r900",
    }

    def seat0(port: int) -> None:
        client.play(port, lambda s: f"{s}:{replies.get(s, 'c')}", seen=seen)

    log = io.StringIO()
    result = run_with_clients(
        AcpcGame.nolimit(),
        [seat0, PolicyPlayer("station", CallingStation)],
        2,
        deal=lambda number: stacked_deck(DECK),
        log=MatchLog(log),
    )
    hand0 = [s for s in seen if s.startswith("MATCHSTATE:0:0:")]
    assert hand0 == [
        "MATCHSTATE:0:0::AsKd|",
        "MATCHSTATE:0:0:c:AsKd|",
        "MATCHSTATE:0:0:cr300:AsKd|",
        "MATCHSTATE:0:0:cr300c/:AsKd|/3d4c5h",
        "MATCHSTATE:0:0:cr300c/r900:AsKd|/3d4c5h",
        "MATCHSTATE:0:0:cr300c/r900c/:AsKd|/3d4c5h/7s",
        "MATCHSTATE:0:0:cr300c/r900c/c:AsKd|/3d4c5h/7s",
        "MATCHSTATE:0:0:cr300c/r900c/cc/:AsKd|/3d4c5h/7s/9d",
        "MATCHSTATE:0:0:cr300c/r900c/cc/c:AsKd|/3d4c5h/7s/9d",
        "MATCHSTATE:0:0:cr300c/r900c/cc/cc:AsKd|QhJh/3d4c5h/7s/9d",
    ]
    # hand 1: the seats swap positions; the client is the button and acts first
    assert seen[len(hand0)] == "MATCHSTATE:1:1::|QhJh"
    assert seen[-1] == "MATCHSTATE:1:1:cc/cc/cc/cc:AsKd|QhJh/3d4c5h/7s/9d"
    lines = log.getvalue().splitlines()
    assert lines[-3] == "STATE:0:cr300c/r900c/cc/cc:AsKd|QhJh/3d4c5h/7s/9d:900|-900:client0|station"
    assert lines[-2] == "STATE:1:cc/cc/cc/cc:AsKd|QhJh/3d4c5h/7s/9d:100|-100:station|client0"
    assert lines[-1] == "SCORE:800|-800:client0|station"
    assert result.totals == [800, -800]


def test_fold_hides_the_cards_and_limit_caps_at_three_raises_preflop() -> None:
    hand = AcpcHand(AcpcGame.limit(), 5, deck=stacked_deck(DECK))
    assert hand.match_state(1) == "MATCHSTATE:1:5::|QhJh"
    assert [hand.play("r") for _ in range(4)] == ["r", "r", "r", "c"]  # maxRaises = 3 4 4 4
    assert hand.match_state(0) == "MATCHSTATE:0:5:rrrc/:AsKd|/3d4c5h"
    assert [hand.play(a) for a in ("r", "r", "r", "r", "r")] == ["r", "r", "r", "r", "c"]
    assert hand.play("f") == "c"  # a fold when checking is free is a check
    assert [hand.play("r"), hand.play("f")] == ["r", "f"]
    assert hand.finished
    assert hand.betting() == "rrrc/rrrrc/crf"
    assert hand.results() == [-80, 80]  # 40 before the flop, 40 on it
    assert hand.match_state(0).endswith(":AsKd|/3d4c5h/7s")
    assert hand.match_state(1).endswith(":|QhJh/3d4c5h/7s")


def test_no_limit_amounts_are_hand_totals_and_are_clamped() -> None:
    hand = AcpcHand(AcpcGame.nolimit(), 0, deck=stacked_deck(DECK))
    assert hand.play("r250") == "r250"  # the button raises to 250 in all
    assert hand.play("r260") == "r400"  # below the minimum re-raise: raised to it
    assert hand.play("c") == "c"
    assert hand.hand.players[1].contributed == hand.hand.players[2].contributed == 400
    assert hand.play("r500") == "r500"  # a bet of 100 on the flop: 400 + 100
    assert hand.play("r99999") == "r20000"  # all in: the stack is the most
    assert hand.play("c") == "c"
    assert hand.finished
    assert hand.betting() == "r250r400c/r500r20000c//"
    assert hand.match_state(1) == ("MATCHSTATE:1:0:r250r400c/r500r20000c//:AsKd|QhJh/3d4c5h/7s/9d")
    assert hand.results() == [20000, -20000]


# ------------------------------------------------------------ a match over raw sockets
def test_a_raw_socket_client_plays_a_built_in_bot_and_the_chips_add_up(tmp_path: Path) -> None:
    seen: list[str] = []

    def seat0(port: int) -> None:
        client.play(port, client.raiser(random.Random(3)), seen=seen)

    acpc_log, phh_log = tmp_path / "match.log", tmp_path / "match.phhs"
    log = MatchLog.to_files(acpc_log, phh_log)
    try:
        result = run_with_clients(
            AcpcGame.nolimit(),
            [seat0, PolicyPlayer("random", RandomPolicy)],
            24,
            seed=11,
            log=log,
        )
    finally:
        log.close()
    assert len(result.hands) == 24
    assert all(sum(h.results) == 0 for h in result.hands)
    assert sum(result.totals) == 0
    assert result.faults[0] == {
        "timeout": 0,
        "garbage": 0,
        "disconnected": 0,
        "refused": 0,
        "error": 0,
    }
    assert {client.parse(s)[1] for s in seen} == set(range(24))  # every hand's states
    assert any(h.results[0] != 0 for h in result.hands)
    # the ACPC log: one STATE a hand, results adding up, then the score
    lines = acpc_log.read_text().splitlines()
    states = [line for line in lines if line.startswith("STATE:")]
    assert len(states) == 24
    for line in states:
        results = [int(x) for x in line.split(":")[4].split("|")]
        assert sum(results) == 0
    assert lines[-1] == f"SCORE:{result.totals[0]}|{result.totals[1]}:client0|random"
    # the PHH log replays in croupier to the same stacks
    histories = load(phh_log)
    assert len(histories) == 24
    for history, record in zip(histories, result.hands, strict=True):
        replayed = replay(history)
        assert replayed.matches_recorded
        stacks = [int(s) for s in replayed.final_stacks]
        by_position = [record.results[0], record.results[1]]
        if record.by_position[0] != "client0":
            by_position.reverse()
        assert stacks == [20000 + r for r in by_position]
        assert history.fields["players"] == list(record.by_position)


@pytest.mark.parametrize("structure", ["nolimit", "limit"])
def test_garbage_and_silence_get_the_default_action_and_the_match_completes(
    structure: str,
) -> None:
    game = AcpcGame.nolimit() if structure == "nolimit" else AcpcGame.limit()

    def garbage(port: int) -> None:
        client.play(port, lambda state: "this is not an action")

    def silent(port: int) -> None:
        client.play(port, lambda state: None)

    result = run_with_clients(game, [garbage, silent], 6, action_time=0.1, hand_time=1.0)
    assert len(result.hands) == 6
    assert result.faults[0]["garbage"] > 0
    assert result.faults[1]["timeout"] > 0
    assert sum(result.totals) == 0
    # the default checks if it can, else folds: the button (first to act, facing the big
    # blind) folds every hand, losing its small blind
    for record in result.hands:
        button = 1 - (record.number % 2)  # seat 0 is position 0 in even hands
        assert record.results[button] == -game.small_blind


def test_a_wrong_echo_is_garbage_and_a_late_answer_is_skipped() -> None:
    def wrong_echo(port: int) -> None:
        client.play(port, lambda state: state.replace("MATCHSTATE:", "MATCHSTATE:9") + ":c")

    def late(port: int) -> None:
        import time

        def choose(state: str) -> str:
            time.sleep(0.15)  # answers after the 0.1 s limit; the answer is stale by then
            return f"{state}:r"

        client.play(port, choose)

    result = run_with_clients(AcpcGame.limit(), [wrong_echo, late], 4, action_time=0.1)
    assert result.faults[0]["garbage"] > 0
    assert result.faults[1]["timeout"] > 0
    assert result.faults[1]["garbage"] == 0
    assert sum(result.totals) == 0


def test_a_client_that_hangs_up_plays_the_default_for_the_rest_of_the_match() -> None:
    def quitter(port: int) -> None:
        client.play(port, client.echo("c"), stop_after=3)

    result = run_with_clients(
        AcpcGame.nolimit(), [quitter, PolicyPlayer("hs", HandStrength)], 8, seed=2
    )
    assert len(result.hands) == 8
    assert sum(result.totals) == 0
    assert result.faults[0]["disconnected"] > 0


def test_a_client_without_the_version_line_is_refused() -> None:
    async def main() -> tuple[bool, str]:
        remote = RemotePlayer("old")
        port = await remote.listen()
        thread = threading.Thread(
            target=lambda: client.play(port, client.echo("c"), version="VERSION:1.0.0"),
            daemon=True,
        )
        thread.start()
        ok = await remote.accept(5)
        await remote.close()
        await asyncio.to_thread(thread.join, 5)
        return ok, remote.problem

    ok, problem = asyncio.run(main())
    assert not ok
    assert "VERSION:2.0.0" in problem


# ------------------------------------------------- what a bot is told: its seat view only
def seat_view_holes(hand: AcpcHand, position: int) -> str:
    """The hole cards of a MATCHSTATE as position's seat view holds them, written out here
    from the view (a position's cards, or nothing when the view hides any of them)."""
    view = hand.hand.view_for(position + 1)
    parts = []
    for p in (0, 1):
        (player,) = [x for x in view.players if x.seat == p + 1]
        known = [str(c) for c in player.down if c is not None]
        parts.append("".join(known) if len(known) == len(player.down) else "")
    return "|".join(parts)


def holes_of(state: str) -> str:
    return state.split(":")[4].split("/")[0]


def assert_states_are_the_seat_views(hand: AcpcHand) -> None:
    for position in (0, 1):
        state = hand.match_state(position)
        assert holes_of(state) == seat_view_holes(hand, position), state
        view = hand.hand.view_for(position + 1)
        board = "".join(str(c) for c in view.board)
        assert "".join(state.split(":")[4].split("/")[1:]) == board


def test_a_checked_down_hand_shows_both_hands_as_the_seat_views_do() -> None:
    """Position 0 (AsKd) beats position 1 (QhJh): under croupier's own rules the loser
    mucks, so the old MATCHSTATE showed a card its seat view did not have. ACPC shows every
    hand at a showdown, and the states are the seat views."""
    hand = AcpcHand(AcpcGame.nolimit(), 0, deck=stacked_deck(DECK))
    while not hand.finished:
        assert_states_are_the_seat_views(hand)
        hand.play("c")
    assert_states_are_the_seat_views(hand)
    assert hand.match_state(0) == "MATCHSTATE:0:0:cc/cc/cc/cc:AsKd|QhJh/3d4c5h/7s/9d"
    assert hand.match_state(1) == "MATCHSTATE:1:0:cc/cc/cc/cc:AsKd|QhJh/3d4c5h/7s/9d"
    shown = {e.seat for e in hand.hand.events if isinstance(e, ev.HandShown)}
    assert shown == {1, 2}
    assert not any(isinstance(e, ev.HandMucked) for e in hand.hand.events)


@pytest.mark.parametrize("betting", [["r250", "f"], ["c", "c", "c", "c", "c", "r300", "f"]])
def test_a_folded_hand_never_shows_the_other_cards(betting: list[str]) -> None:
    hand = AcpcHand(AcpcGame.nolimit(), 0, deck=stacked_deck(DECK))
    for action in betting:
        hand.play(action)
        assert_states_are_the_seat_views(hand)
    assert hand.finished
    assert holes_of(hand.match_state(0)) == "AsKd|"
    assert holes_of(hand.match_state(1)) == "|QhJh"


@pytest.mark.parametrize("structure", ["nolimit", "limit"])
def test_every_state_of_random_hands_is_its_seat_view(structure: str) -> None:
    game = AcpcGame.nolimit() if structure == "nolimit" else AcpcGame.limit()
    rng = random.Random(17)
    for number in range(60):
        hand = AcpcHand(game, number, seed=number)
        while not hand.finished:
            assert_states_are_the_seat_views(hand)
            hand.play(rng.choice(["f", "c", "c", "c", "r", f"r{rng.randint(1, 20000)}"]))
        assert_states_are_the_seat_views(hand)


# -------------------------------------------------------------- policies that misbehave
def test_a_policy_answering_no_action_is_refused_and_the_match_goes_on() -> None:
    def factory(rng: random.Random) -> Any:
        return lambda view: CheckOrCall  # the class, not an action

    players = [PolicyPlayer("class", factory), PolicyPlayer("station", CallingStation)]
    result = asyncio.run(play_match(AcpcGame.nolimit(), players, 4, seed=1))
    assert len(result.hands) == 4
    assert result.faults[0]["refused"] > 0
    assert result.faults[1]["refused"] == 0
    assert sum(result.totals) == 0


def test_a_policy_that_raises_is_an_error_fault() -> None:
    def factory(rng: random.Random) -> Any:
        def policy(view: object) -> Any:
            raise RuntimeError("a bug in the bot")

        return policy

    players = [PolicyPlayer("buggy", factory), PolicyPlayer("station", CallingStation)]
    result = asyncio.run(play_match(AcpcGame.nolimit(), players, 4, seed=1))
    assert len(result.hands) == 4
    assert result.faults[0]["error"] > 0
    assert result.faults[0]["refused"] == 0


# ------------------------------------------------------------------ lines and log files
def test_a_line_over_64_kib_is_garbage_and_disconnects_the_program() -> None:
    def flooder(port: int) -> None:
        client.play(port, lambda state: state + ":" + "c" * 70000)

    result = run_with_clients(
        AcpcGame.nolimit(), [flooder, PolicyPlayer("station", CallingStation)], 4, seed=3
    )
    assert len(result.hands) == 4
    assert result.faults[0]["garbage"] == 1
    assert result.faults[0]["disconnected"] > 0


def test_to_files_closes_the_first_file_when_the_second_cannot_be_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import croupier.acpc.dealer as dealer_module

    opened: list[Any] = []

    def recording_open(*args: Any, **kwargs: Any) -> Any:
        stream = open(*args, **kwargs)  # noqa: SIM115
        opened.append(stream)
        return stream

    monkeypatch.setattr(dealer_module, "open", recording_open, raising=False)
    with pytest.raises(FileNotFoundError):
        MatchLog.to_files(tmp_path / "m.log", tmp_path / "no" / "such" / "m.phhs")
    assert len(opened) == 1
    assert opened[0].closed
