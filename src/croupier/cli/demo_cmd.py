"""``croupier demo``: the main job of ``make run`` for now: evaluate hands, print an equity.

>>> from click.testing import CliRunner
>>> "46.2145%" in CliRunner().invoke(demo).output
True
"""

from __future__ import annotations

import time

import click

from croupier.equity.equity import equity
from croupier.evaluation.evaluate import evaluate, evaluate_omaha
from croupier.evaluation.rankings import STRIPPED

__all__ = ["demo"]


@click.command("demo")
def demo() -> None:
    """Evaluate a few hands and print the equity of AsKs against QdQh."""
    click.echo("croupier: hands and equity under NZ casino rules\n")
    samples = [
        ("Hold'em", evaluate("As Kd", board="Ah Kc 2s 7d 9h")),
        ("Hold'em", evaluate("7c 7d", board="7h 2s 2c Kd 9h")),
        ("Omaha 17.5(d)", evaluate_omaha("As Ah Ks Qs", "Js Ts 2s 3d 4c")),
        ("Manila (32 cards)", evaluate("Ah 7d", board="8c 9s Th Kd Kc", ranking=STRIPPED)),
    ]
    for game, hand in samples:
        own = " ".join(str(c) for c in hand.own)
        click.echo(f"  {game:<18} {own:<12} -> {hand.describe():<32} [{hand.best_five_text}]")
    started = time.perf_counter()
    result = equity(["As Ks", "Qd Qh"])
    took = time.perf_counter() - started
    click.echo(f"\nAsKs vs QdQh preflop, every one of {result.trials:,} boards ({took:.2f} s):")
    for h in result.hands:
        cards = " ".join(str(c) for c in h.hand)
        click.echo(f"  {cards}: win {float(h.win):.3%}  tie {float(h.tie):.3%}  "
                   f"equity {float(h.equity):.4%}")  # fmt: skip
