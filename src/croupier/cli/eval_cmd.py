"""``croupier eval``: name and rank poker hands, one from the arguments or many from stdin.

>>> from click.testing import CliRunner
>>> print(CliRunner().invoke(eval_command, ["As", "Kd", "--board", "Ah Kc 2s 7d 9h"]).output)
Two pair, aces and kings  [As Ah Kd Kc 9h]  rank 4992
<BLANKLINE>
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator

import click

from croupier.cards.card import parse_cards
from croupier.cli.options import EVAL_GAMES, GameChoice, echo_json, join_cards
from croupier.errors import CroupierError
from croupier.evaluation.evaluate import evaluate
from croupier.evaluation.hand import HandValue

__all__ = ["eval_command"]


def _evaluate(choice: GameChoice, own: str, board: str) -> HandValue:
    if board and not choice.takes_board:
        raise CroupierError(f"{choice.name} has no community cards; drop --board")
    return evaluate(own, board, composition=choice.composition, ranking=choice.ranking)


def _emit(hand: HandValue, as_json: bool) -> None:
    if as_json:
        record = hand.to_dict()
        record["cards"] = " ".join(str(c) for c in hand.own)
        record["board"] = " ".join(str(c) for c in hand.board)
        echo_json(record)
    else:
        click.echo(f"{hand.describe()}  [{hand.best_five_text}]  rank {hand.rank}")


def _lines() -> Iterator[str]:
    """Standard input, a line at a time; a line that is not UTF-8 text is one clear error."""
    stream = getattr(sys.stdin, "buffer", None)
    raw_lines: Iterable[bytes | str] = stream if stream is not None else sys.stdin
    for number, raw in enumerate(raw_lines, start=1):
        try:
            if isinstance(raw, str):
                yield raw
            else:
                yield raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError:
            raise CroupierError(
                f"line {number}: standard input is not UTF-8 text; give one hand per line"
            ) from None


def _stream(choice: GameChoice, board: str, as_json: bool) -> int:
    """One hand per input line (``CARDS`` or ``CARDS | BOARD``); bad lines reported, not fatal.

    A line's board follows a ``|``; ``--board`` gives the board of the lines without one, and a
    line that has its own board as well is refused rather than one board silently winning.
    """
    failures = 0
    for number, line in enumerate(_lines(), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        own, bar, line_board = text.partition("|")
        try:
            if bar and board:
                raise CroupierError("the line gives a board after '|' and --board is set too")
            hand = _evaluate(choice, own, line_board.strip() if bar else board)
        except CroupierError as exc:
            failures += 1
            if as_json:
                echo_json({"line": number, "error": str(exc)})
            click.echo(f"croupier: error: line {number}: {exc}", err=True)
            continue
        _emit(hand, as_json)
    return 1 if failures else 0


@click.command("eval")
@click.argument("cards", nargs=-1, required=True)
@click.option("--game", type=click.Choice(sorted(EVAL_GAMES)), default="holdem", show_default=True,
              help="holdem/stud: best five of all cards; omaha/manila: exactly 2 own + 3 board.")  # fmt: skip
@click.option("--board", default="", help="Community cards, e.g. 'Ah Kc 2s'.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per hand.")
def eval_command(cards: tuple[str, ...], game: str, board: str, as_json: bool) -> None:
    """Evaluate a hand: CARDS are the player's cards ('As Kd' or As Kd).

    With '-' instead of cards, read one hand per line from standard input and
    write one line per hand. A line is the player's cards, then optionally '|'
    and the board: 'As Ks Qs Js Ts' or 'Ah Kh | Qh Jh Th 2c 3c' (5 to 7 cards
    in all for holdem and stud). --board gives the board of lines without one.

    \b
    Examples:
      croupier eval As Kd --board "Ah Kc 2s 7d 9h"
      croupier eval "Ah Kh 2c 3d" --game omaha --board "Qh Jh 5h 9s 9c" --json
      printf 'As Ks Qs Js Ts\\nAh Kh | Qh Jh Th 2c 3c\\n' | croupier eval - --json
    """
    choice = EVAL_GAMES[game]
    if cards == ("-",):
        parse_cards(board)  # a bad --board fails before any input is read
        code = _stream(choice, board, as_json)
        if code:
            raise SystemExit(code)
        return
    _emit(_evaluate(choice, " ".join(str(c) for c in join_cards(cards)), board), as_json)
