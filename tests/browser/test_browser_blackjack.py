"""The blackjack page in a real browser (Debian's Chromium under Playwright) against a
real ``croupier serve`` process: sit down, wager on the own box and back a bot's box
(several players on one box), play rounds (declining insurance) until one has a split
and a double, and read the round's log, totals and the shoe's commitment on the page.
The shoe is seeded, so the same rounds come every time."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import (
    Server,
    hand_of,
    launched_browser,
    next_round_step,
    opened_page,
    register,
    running_server,
    screenshot,
    sit_from_lobby,
)

pytest.importorskip("playwright")

from playwright.sync_api import Browser, expect

TABLES = """
[[table]]
name = "blackjack-1"
game = "blackjack"
seats = 3
bots = 1
bot_style = "basic"
time_bank = 300
bot_delay = 0.05
seed = 5
"""

MAX_ROUNDS = 60
"""A safety net: rounds played at most looking for a split (the seed decides)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("blackjack-room"), TABLES) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as launched:
        yield launched


def test_a_round_with_a_split_and_a_double(
    server: Server, browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    shots: Path = tmp_path_factory.mktemp("screenshots")
    with opened_page(browser) as page:
        register(page, server, "eve")
        sit_from_lobby(page, "blackjack-1")
        expect(page.locator("#blackjack")).to_be_visible()
        expect(page.locator("#commitment")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))

        backed = False
        rounds: list[tuple[bool, bool]] = []  # (split, doubled) per round eve played
        step: str | None = None
        number = 0
        split = doubled = wagered = False
        while len(rounds) < MAX_ROUNDS:
            step = next_round_step(page, step, max(number, 1))
            if step == "done":
                log = page.locator("#last-log").text_content() or ""
                rounds.append((split, doubled))
                if split:
                    assert ": split" in log
                if doubled:
                    assert ": double" in log
                if split and doubled:
                    break
                number += 1
                split = doubled = wagered = False
                continue
            number = hand_of(step)
            what = step.rsplit("|", 1)[1]
            if what == "wager":
                if wagered:
                    deal = page.locator("#bj-deal")
                    if deal.is_visible():
                        deal.click()
                    continue
                others = page.locator("#bj-boxes .box:not(.mine)")
                if not backed and others.count():
                    # back a bot's box first: the own wager ends eve's wagers (the deal)
                    box = others.first.get_attribute("data-box") or ""
                    page.select_option("#bj-wager-target", box)
                    page.fill("#bj-wager-amount", "10")
                    page.locator("#bj-wager-amount").press("Enter")
                    backers = page.locator(f'#bj-boxes .box[data-box="{box}"] .wager')
                    expect(backers).to_have_count(2)  # the bot's wager and eve's
                    expect(backers.last).to_contain_text("eve")
                    backed = True
                    screenshot(page, shots, "blackjack-wagers.png")
                page.select_option("#bj-wager-target", "")
                page.fill("#bj-wager-amount", "10")
                page.click("#bj-wager")
                wagered = True
            elif what == "insure":
                page.locator("body").press("n")  # decline
            elif page.locator("#bj-split").is_visible() and not split:
                page.locator("body").press("p")
                split = True
                expect(page.locator('.bj-hand[data-split="true"]')).to_have_count(2)
                screenshot(page, shots, "blackjack-split.png")
            elif page.locator("#bj-double").is_visible() and not doubled:
                page.locator("body").press("d")
                doubled = True
            else:
                page.locator("body").press("s")  # stand
        assert rounds, "no round was played"
        assert rounds[-1] == (True, True), f"no round with a split and a double in {rounds}"
        screenshot(page, shots, "blackjack-table.png")
        verdict = page.locator("#verify")
        expect(verdict).not_to_have_text("MISMATCH ✗")
        expect(page.locator("#results")).to_contain_text("eve")
