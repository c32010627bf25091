"""Simulation: reproducible, chips conserved, every game runs with every built-in policy."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from croupier.cli.app import cli
from croupier.poker import GAMES, HOLDEM, ForcedBets, NoLimit, TableRules
from croupier.poker.policies import POLICIES
from croupier.poker.sim.simulate import simulate


def rules_for(name: str) -> TableRules:
    game = GAMES[name]
    if game.forced is ForcedBets.BLINDS:
        return TableRules(game, NoLimit(), blinds=(5, 10), table_minimum=10)
    return TableRules(game, NoLimit(), blinds=(), ante=2, bring_in=5, table_minimum=5)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_every_game_and_policy_conserves_chips(game: str, policy: str) -> None:
    players = min(4, GAMES[game].max_players)
    result = simulate(
        rules_for(game), players=players, hands=40, policies=[policy] * players, seed=3
    )
    assert result.hands == 40
    assert sum(result.totals) == 0  # no rake: chips only move between seats
    assert all(sq >= t * t / 40 for sq, t in zip(result.squares, result.totals, strict=True))


def test_a_seed_replays_the_run_and_workers_split_it_reproducibly() -> None:
    rules = TableRules(HOLDEM, NoLimit(), blinds=(1, 2), table_minimum=2)
    one = simulate(rules, players=3, hands=300, seed=9)
    assert one == simulate(rules, players=3, hands=300, seed=9)
    two = simulate(rules, players=3, hands=300, seed=9, workers=2)
    assert two == simulate(rules, players=3, hands=300, seed=9, workers=2)
    assert one.totals == two.totals  # the same chunks and seeds, only run elsewhere


def test_policies_must_match_the_seats() -> None:
    with pytest.raises(ValueError, match="give 3 policies"):
        simulate(rules_for("holdem"), players=3, hands=1, policies=["random"])


def test_cli_simulate_json_reports_each_seat() -> None:
    out = CliRunner().invoke(
        cli,
        [
            "poker",
            "simulate",
            "--game",
            "omaha",
            "--structure",
            "pot-limit",
            "--players",
            "4",
            "--hands",
            "60",
            "--seed",
            "2",
            "--policy",
            "hand-strength",
            "--json",
        ],
    )
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert [s["policy"] for s in data["seats"]] == ["hand-strength"] * 4
    assert sum(s["total"] for s in data["seats"]) == 0
    assert all(s["stderr"] >= 0 for s in data["seats"])


@pytest.mark.parametrize(("game", "structure"), [("holdem", "no-limit"), ("stud7", "fixed-limit")])
def test_cli_uses_the_fast_kernel_for_the_random_policy(game: str, structure: str) -> None:
    args = [
        "poker",
        "simulate",
        "--game",
        game,
        "--structure",
        structure,
        "--players",
        "5",
        "--hands",
        "20000",
        "--seed",
        "7",
        "--engine",
        "fast",
        "--json",
    ]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["hands"] == 20_000
    assert sum(s["total"] for s in data["seats"]) == 0


def test_cli_refuses_the_fast_kernel_where_it_cannot_play() -> None:
    out = CliRunner().invoke(cli, ["poker", "simulate", "--game", "manila", "--engine", "fast"])
    assert out.exit_code == 2
    assert "fast kernel" in out.output
