"""``croupier dealer --acpc``: serve a heads-up hold'em match to programs over TCP in the
ACPC protocol (version 2.0.0), one port a seat, as ACPC's own dealer does.

>>> from croupier.cli.app import main
>>> main(["dealer", "--hands", "2"])
2
"""

from __future__ import annotations

import asyncio

import click

from croupier.cli.options import echo_json

__all__ = ["dealer"]


def _ports(text: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise click.BadParameter(f"two port numbers, comma-separated, not {text!r}")
    a, b = (int(p) for p in parts)
    if a > 65535 or b > 65535 or (a == b and a != 0):
        raise click.BadParameter(
            f"two different ports from 0 (any free one) to 65535, not {text!r}"
        )
    return a, b


def _names(text: str) -> tuple[str, str]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts) or any(c in p for p in parts for c in ":|\n"):
        raise click.BadParameter(f"two names, comma-separated, without ':' or '|', not {text!r}")
    return parts[0], parts[1]


@click.command("dealer")
@click.option("--acpc", is_flag=True, help="Speak the ACPC match protocol (required).")
@click.option("--game", "structure", type=click.Choice(["nolimit", "limit"]), default="nolimit",
              show_default=True, help="ACPC's reverse-blinds heads-up hold'em: no limit "
              "(blinds 50/100, stacks 20000) or fixed limit (blinds 5/10, bets 10/20).")  # fmt: skip
@click.option("--hands", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Hands to deal.")  # fmt: skip
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the deals (default: a random one, reported on stderr as "
              "'seed N' and in --json's output).")  # fmt: skip
@click.option("--duplicate", is_flag=True,
              help="Deal each hand twice, the seats having swapped positions (--hands "
              "even).")  # fmt: skip
@click.option("--ports", default="0,0", show_default=True,
              help="The two seats' ports (0: any free port); the ports are printed first.")  # fmt: skip
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--names", default="seat0,seat1", show_default=True,
              help="The two seats' names in the logs.")  # fmt: skip
@click.option("--action-time", type=click.FloatRange(min=0, min_open=True), default=10.0,
              show_default=True, help="Seconds a program has for one action.")  # fmt: skip
@click.option("--hand-time", type=click.FloatRange(min=0, min_open=True), default=60.0,
              show_default=True, help="Seconds a program has for all its actions in one hand.")  # fmt: skip
@click.option("--connect-time", type=click.FloatRange(min=0, min_open=True), default=300.0,
              show_default=True, help="Seconds to wait for both programs to connect.")  # fmt: skip
@click.option("--log-acpc", type=click.Path(dir_okay=False), default=None,
              help="Write the match as an ACPC log (STATE: lines, then SCORE:).")  # fmt: skip
@click.option("--log-phh", type=click.Path(dir_okay=False), default=None,
              help="Write the match as PHH (.phhs), replayable with croupier replay.")  # fmt: skip
@click.option("--game-file", type=click.Path(dir_okay=False), default=None,
              help="Write the ACPC game definition the programs should read.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def dealer(acpc: bool, structure: str, hands: int, seed: int | None, duplicate: bool,
           ports: str, host: str, names: str, action_time: float, hand_time: float,
           connect_time: float, log_acpc: str | None, log_phh: str | None,
           game_file: str | None, as_json: bool) -> None:  # fmt: skip
    """Serve a heads-up hold'em match to bots over TCP in the ACPC protocol (--acpc).

    Each seat listens on its own port (printed first, as ACPC's dealer prints them:
    "PORT0 PORT1"); the program connecting to a seat's port sits in that seat. It
    sends VERSION:2.0.0, then answers each MATCHSTATE it is to act in with the
    state, ':' and f, c, r (fixed limit) or r<amount> (no limit: the total it has
    put in this hand). Seats swap positions every hand. A program that times out,
    disconnects or sends garbage checks if it can, else folds, and the match goes
    on. The last line is ACPC's SCORE:<chips>|<chips>:<name>|<name>.

    \b
    Examples:
      croupier dealer --acpc --hands 1000 --log-acpc match.log --log-phh match.phhs
      croupier dealer --acpc --game limit --ports 18791,18792 --names alice,bob
    """
    import random

    from croupier.acpc.dealer import MatchLog, RemotePlayer, play_match
    from croupier.acpc.match import summarize
    from croupier.acpc.protocol import AcpcGame
    from croupier.cli.match_cmd import even_hands
    from croupier.errors import CroupierError

    if not acpc:
        raise click.UsageError("pass --acpc: the dealer speaks the ACPC protocol only")
    if duplicate:
        even_hands(hands, "'--hands'")
    port_pair = _ports(ports)
    name_pair = _names(names)
    game = AcpcGame.nolimit() if structure == "nolimit" else AcpcGame.limit()
    if game_file is not None:
        with open(game_file, "w", encoding="utf-8") as out:
            out.write(game.definition() + "\n")
    match_seed = seed if seed is not None else random.SystemRandom().getrandbits(32)
    if seed is None:  # reported before the match, so a match cut short can be dealt again
        click.echo(f"seed {match_seed}", err=True)

    async def serve() -> object:
        players = [RemotePlayer(name) for name in name_pair]
        log = MatchLog.to_files(log_acpc, log_phh)
        try:
            for player, port in zip(players, port_pair, strict=True):
                await player.listen(host, port)
            click.echo(f"{players[0].port} {players[1].port}")
            for player in players:
                if not await player.accept(connect_time):
                    raise CroupierError(f"seat {player.name!r}: {player.problem}")
            return await play_match(game, players, hands, seed=match_seed, duplicate=duplicate,
                                    action_time=action_time, hand_time=hand_time, log=log)  # fmt: skip
        finally:
            log.close()
            for player in players:
                await player.close()

    result = asyncio.run(serve())
    from croupier.acpc.dealer import MatchResult

    assert isinstance(result, MatchResult)
    summary = summarize(result, game.big_blind)
    if as_json:
        echo_json({**summary.as_dict(), "bots": list(result.names), "totals": result.totals})
        return
    click.echo(result.score_line())
