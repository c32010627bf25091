"""Save the README's screenshots of the card room: ``lobby.png``, ``poker-table.png`` and
``blackjack-table.png`` in OUTDIR, from a real ``croupier serve`` and Debian's Chromium.

Run ``.venv/bin/python -m tests.browser.screenshots OUTDIR`` (or the file by its path).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_support import (
    launched_browser,
    next_round_step,
    next_step,
    opened_page,
    register,
    running_server,
    screenshot,
    sit_from_lobby,
)

TABLES = """
[[table]]
name = "holdem-1"
game = "holdem"
structure = "no-limit"
blinds = [5, 10]
seats = 6
bots = 4
bot_style = "calling"
time_bank = 600
bot_delay = 0.05
seed = 3

[[table]]
name = "omaha-1"
game = "omaha"
structure = "pot-limit"
seats = 6
bots = 3
bot_delay = 0.05

[[table]]
name = "blackjack-1"
game = "blackjack"
seats = 5
bots = 2
bot_style = "basic"
time_bank = 600
bot_delay = 0.05
seed = 3
"""


def save(outdir: Path) -> list[Path]:
    """Start a server, take the screenshots: the files saved."""
    saved: list[Path] = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        running_server(Path(tmp), TABLES) as server,
        launched_browser() as browser,
    ):
        with opened_page(browser) as page:
            register(page, server, "ann")
            saved.append(screenshot(page, outdir, "lobby.png"))
            sit_from_lobby(page, "holdem-1")
            key = next_step(page, None, 1)
            if key != "done":
                page.locator("body").press("c")
                next_step(page, key, 1)
            saved.append(screenshot(page, outdir, "poker-table.png"))
        with opened_page(browser) as page:
            register(page, server, "bo")
            sit_from_lobby(page, "blackjack-1")
            step = next_round_step(page, None, 1)
            if step.endswith("|wager"):
                page.locator("#bj-wager-amount").fill("20")
                page.click("#bj-wager")
                step = next_round_step(page, step, 1)
            saved.append(screenshot(page, outdir, "blackjack-table.png"))
    return saved


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.browser.screenshots OUTDIR", file=sys.stderr)
        return 2
    for path in save(Path(argv[0])):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
