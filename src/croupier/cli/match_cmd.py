"""``croupier match A B --hands N``: two bots in duplicate, reported in mbb a hand.

>>> from croupier.cli.app import main
>>> main(["match", "calling", "calling-station", "--hands", "20", "--seed", "1"])
calling vs calling-station: +0.0 ± 0.0 mbb/hand (95 %) for calling over 20 hands (10 duplicate deals, seed 1)
chips: calling +0, calling-station +0
0
"""

from __future__ import annotations

import click

from croupier.cli.options import echo_json
from croupier.cli.ray_option import ray_option

__all__ = ["even_hands", "match"]


def even_hands(value: int, param_hint: str | None = None) -> int:
    """``value`` if it is even (a duplicate match plays each deal twice), else a usage error
    (``param_hint`` names the option when the check is not the option's callback).

    >>> even_hands(4)
    4
    >>> even_hands(3, "'--hands'")
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: 3 is odd: each deal is played twice
    """
    if value % 2:
        raise click.BadParameter(
            f"{value} is odd: each deal is played twice", param_hint=param_hint
        )
    return value


def _even(ctx: click.Context, param: click.Parameter, value: int) -> int:
    return even_hands(value)


@click.command("match")
@click.argument("a")
@click.argument("b")
@click.option("--hands", type=click.IntRange(min=2), default=1000, show_default=True,
              callback=_even, help="Hands to play (even: each deal is played twice).")  # fmt: skip
@click.option("--game", "structure", type=click.Choice(["nolimit", "limit"]), default="nolimit",
              show_default=True, help="ACPC's heads-up hold'em: no limit or fixed limit.")  # fmt: skip
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the deals and of the bots' random sources.")  # fmt: skip
@click.option("--action-time", type=click.FloatRange(min=0, min_open=True), default=10.0,
              show_default=True, help="Seconds a program has for one action.")  # fmt: skip
@click.option("--hand-time", type=click.FloatRange(min=0, min_open=True), default=60.0,
              show_default=True, help="Seconds a program has for all its actions in one hand.")  # fmt: skip
@click.option("--connect-time", type=click.FloatRange(min=0, min_open=True), default=30.0,
              show_default=True, help="Seconds a program has to connect.")  # fmt: skip
@click.option("--log-acpc", type=click.Path(dir_okay=False), default=None,
              help="Write the match as an ACPC log.")  # fmt: skip
@click.option("--log-phh", type=click.Path(dir_okay=False), default=None,
              help="Write the match as PHH (.phhs).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@ray_option
def match(a: str, b: str, hands: int, structure: str, seed: int | None, action_time: float,
          hand_time: float, connect_time: float, log_acpc: str | None, log_phh: str | None,
          as_json: bool, ray_address: str | None) -> None:  # fmt: skip
    """Play two bots in duplicate and report milli-big-blinds a hand with a 95 % interval.

    A and B are each a built-in bot (random, calling, calling-station,
    hand-strength, default), module:callable (a factory taking a random.Random
    and returning a policy), or the command line of an ACPC program: it is
    started with the dealer's host and port appended (or put in place of {host}
    and {port}) and connects to its seat's port. Each deal is played twice with
    the seats swapped; the button alternates every hand. The result is A's, with
    a 95 % interval from the normal approximation over the deals.

    \b
    Examples:
      croupier match hand-strength calling --hands 2000 --seed 1
      croupier match "./my_acpc_bot" default --hands 500 --json
      croupier match hand-strength default --hands 1000000 --seed 1 --ray head.example:6379
    """
    from croupier.acpc.dealer import MatchLog
    from croupier.acpc.match import parse_bot, run_match
    from croupier.acpc.protocol import AcpcGame

    specs = (parse_bot(a), parse_bot(b))
    game = AcpcGame.nolimit() if structure == "nolimit" else AcpcGame.limit()
    log = MatchLog.to_files(log_acpc, log_phh)
    try:
        summary = run_match(*specs, hands=hands, game=game, seed=seed, action_time=action_time,
                            hand_time=hand_time, connect_time=connect_time, log=log,
                            ray=ray_address)  # fmt: skip
    finally:
        log.close()
    if as_json:
        echo_json(summary.as_dict())
    else:
        click.echo(summary.text())
