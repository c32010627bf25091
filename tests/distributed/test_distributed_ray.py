"""``--ray``: the three long commands give, for a seed, the same result on a Ray cluster as
in one process; a bad address is a one-line error.

The cluster is a local one the test starts (``ray.init(num_cpus=2)``, shut down at the end).
``croupier poker simulate`` runs in a separate process that joins it by its address, as a
user's command would join a multi-machine cluster; the blackjack and match runs run here,
through the same address (the process's Ray connection is kept), with the Ray tasks made
small so that each run is several tasks. Every cluster run sits in one test so that the
suite's workers (pytest-xdist) start one cluster, not one each.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from croupier import distributed
from croupier.acpc import match as acpc_match
from croupier.cli.app import cli

BIN = Path(sys.executable).parent


def _run(args: list[str]) -> Any:
    """``croupier ARGS`` here; exit 0 asserted."""
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The address (``HOST:PORT``) of a two-CPU Ray cluster started for this module."""
    ray = pytest.importorskip("ray")
    context = ray.init(
        num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False
    )
    try:
        yield str(context.address_info["address"])
    finally:
        ray.shutdown()


def test_runs_on_ray_give_the_one_process_results(
    cluster: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # poker, compiled kernel: a separate process joins the cluster by its address
    args = ["poker", "simulate", "--hands", "3000", "--players", "3", "--seed", "5", "--json"]
    here = _run(args).stdout
    env = {**os.environ, "RAY_ADDRESS": ""}
    there = subprocess.run(
        [str(BIN / "croupier"), *args, "--ray", cluster],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert there.returncode == 0, there.stderr
    assert there.stdout == here
    assert json.loads(here)["engine"] == "fast"

    # from here on, tasks of one chunk each: many tasks, finishing in any order
    monkeypatch.setattr(distributed, "TASK_SECONDS", 1e-9)

    # poker, the referee: 1,000 hands are four chunks of 250
    args = ["poker", "simulate", "--engine", "referee", "--hands", "1000", "--players", "3",
            "--seed", "11", "--json"]  # fmt: skip
    assert _run([*args, "--ray", cluster]).stdout == _run(args).stdout

    # blackjack: 600,000 rounds are three tasks of the kernel
    args = ["blackjack", "simulate", "--rounds", "600000", "--seed", "3", "--json"]
    one = json.loads(_run(args).stdout)
    ray = json.loads(_run([*args, "--ray", cluster]).stdout)
    for timing in ("seconds", "rounds_per_second", "workers"):
        del one[timing], ray[timing]
    assert ray == one
    assert one["counts"]["shuffles"] > 0

    # match: 400 hands in pieces of 100, logs included
    monkeypatch.setattr(acpc_match, "PIECE_HANDS", 100)
    runs = []
    for name, extra in (("one", []), ("ray", ["--ray", cluster])):
        acpc, phh = tmp_path / f"{name}.log", tmp_path / f"{name}.phhs"
        out = _run(["match", "random", "calling", "--hands", "400", "--seed", "9",
                    "--json", "--log-acpc", str(acpc), "--log-phh", str(phh), *extra])  # fmt: skip
        runs.append((out.stdout, acpc.read_text(), phh.read_text()))
    assert runs[0] == runs[1]
    assert json.loads(runs[0][0])["hands"] == 400
    assert runs[0][1].count("STATE:") == 400


@pytest.mark.parametrize(
    "command",
    [
        ["poker", "simulate", "--hands", "10", "--seed", "1"],
        ["blackjack", "simulate", "--rounds", "10", "--seed", "1"],
        ["match", "random", "calling", "--hands", "10", "--seed", "1"],
    ],
    ids=["poker", "blackjack", "match"],
)
@pytest.mark.parametrize("address", ["nowhere", "127.0.0.1:{closed}", "no-such-host.invalid:6379"])
def test_a_bad_address_is_a_one_line_error(command: list[str], address: str) -> None:
    result = CliRunner().invoke(cli, [*command, "--ray", address.format(closed=_closed_port())])
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("croupier: error: "), result.stderr
    assert "Traceback" not in result.output


def test_a_program_bot_stays_off_ray() -> None:
    result = CliRunner().invoke(cli, ["match", "./my_bot", "random", "--hands", "2", "--ray",
                                      "auto"])  # fmt: skip
    assert result.exit_code == 1
    assert "is a program" in result.stderr


def test_help_does_not_import_ray() -> None:
    code = (
        "import sys\n"
        "from croupier.cli.app import main\n"
        "for args in (['--help'], ['poker', 'simulate', '--help'], ['match', '--help']):\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print('ray' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.splitlines()[-1] == "False"


def test_chunks_are_the_same_here_and_in_tasks() -> None:
    # the grouping into tasks is arithmetic on the job alone
    assert distributed.chunks_per_task(0.5) == 4
    assert distributed.chunks_per_task(10.0) == 1
    assert distributed.run_chunks(str, [1, 2, 3], per_task=2) == ["1", "2", "3"]
