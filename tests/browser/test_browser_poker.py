"""The poker pages in a real browser (Debian's Chromium under Playwright) against a real
``croupier serve`` process: register and log in, sit down, play hands to a showdown
against calling bots (a raise with the slider, a fold, checks and calls from the
keyboard, an all-in), an illegal amount typed in the field, a reload mid-hand, the deck
commitment verified in the page, a phone-sized screen. Screenshots go to a temporary
directory (``tests/browser/screenshots.py`` makes the README's)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    PASSWORD,
    Server,
    fits_width,
    hand_of,
    launched_browser,
    next_step,
    opened_page,
    register,
    running_server,
    screenshot,
    sit_from_lobby,
)

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, expect

TABLES = """
[[table]]
name = "holdem-1"
game = "holdem"
structure = "no-limit"
blinds = [5, 10]
seats = 3
bots = 2
bot_style = "calling"
buy_in = 1000
time_bank = 300
bot_delay = 0.05
seed = 11

[[table]]
name = "holdem-2"
game = "holdem"
structure = "no-limit"
blinds = [5, 10]
seats = 2
bots = 1
bot_style = "calling"
buy_in = 1000
time_bank = 300
bot_delay = 0.05
seed = 12

[[table]]
name = "holdem-3"
seats = 2
bots = 1
bot_style = "calling"
time_bank = 300
bot_delay = 0.05
seed = 13
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("poker-room"), TABLES) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as launched:
        yield launched


@pytest.fixture
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("screenshots")


def finish_hand(page: Page, key: str) -> int:
    """Check or call (from the keyboard) until the hand of decision ``key`` is recorded
    (``key`` "done": it is): the store id of the hand."""
    step = key
    hand = 0 if key == "done" else hand_of(key)
    while step != "done":
        page.locator("body").press("c")  # check, else call
        step = next_step(page, step, hand)
    return int(page.locator("#results").get_attribute("data-hand-id") or "0")


def hand_record(server: Server, hand_id: int, token: str) -> dict[str, Any]:
    record: dict[str, Any] = server.get(f"/api/hands/{hand_id}", token)
    return record


def seat_in(record: dict[str, Any], name: str) -> int:
    seat: int = next(p["seat"] for p in record["players"] if p["name"] == name)
    return seat


def shown_by(record: dict[str, Any], seat: int) -> list[str]:
    """The cards ``seat`` showed at the showdown (none: he did not show)."""
    for event in record["events"]:
        if event["type"] == "HandShown" and event["seat"] == seat:
            cards: list[str] = event["cards"]
            return cards
    return []


def at_showdown(record: dict[str, Any], seat: int) -> bool:
    """Whether the hand went to a showdown with ``seat`` in it (he showed, or mucked a
    beaten hand, his cards being the ones he was dealt)."""
    events = record["events"]
    mine = {e["type"] for e in events if e.get("seat") == seat}
    shown = shown_by(record, seat)
    return (
        any(e["type"] == "HandShown" for e in events)
        and "Folded" not in mine
        and ("HandMucked" in mine or shown == dealt_to(record, seat))
    )


def dealt_to(record: dict[str, Any], seat: int) -> list[str]:
    cards: list[str] = []
    for event in record["events"]:
        if event["type"] == "CardsDealt" and event["seat"] == seat:
            cards.extend(event["cards"])
    return cards


def test_login_page_explains_refusals(server: Server, browser: Browser) -> None:
    with opened_page(browser) as page:
        page.goto(server.url + "/")
        expect(page.locator("#page-login")).to_be_visible()
        # a spectator sees the lobby, without a seat to take
        page.click("text=Watch without logging in")
        row = page.locator('#lobby-rows tr[data-table="holdem-1"]')
        expect(row).to_contain_text("bot-1, bot-2")
        expect(row.get_by_role("button", name="Sit down")).to_have_count(0)
        expect(page.locator("#status")).to_have_text("watching")
        page.goto(server.url + "/#login")
        page.fill("#login-name", "cyd")
        page.fill("#login-password", "short")
        page.click("#register-submit")
        expect(page.locator("#login-error")).to_contain_text("12 characters or more")
        page.fill("#login-password", PASSWORD)
        page.click("#login-submit")  # not registered yet
        expect(page.locator("#login-error")).to_contain_text("Login failed")
        page.click("#register-submit")
        expect(page.locator("#page-lobby")).to_be_visible()
        expect(page.locator('#lobby-rows tr[data-table="holdem-1"]')).to_contain_text("holdem")
        # log out, then back in with the password: a new session
        page.click("#logout")
        expect(page.locator("#page-login")).to_be_visible()
        page.fill("#login-name", "cyd")
        page.fill("#login-password", PASSWORD)
        page.locator("#login-password").press("Enter")
        expect(page.locator("#whoami")).to_have_text("cyd")


def test_hands_to_showdown(server: Server, browser: Browser, shots: Path) -> None:
    with opened_page(browser) as page:
        token = register(page, server, "ann")
        screenshot(page, shots, "lobby.png")
        sit_from_lobby(page, "holdem-1")

        # hand A: an illegal amount, then a raise with the slider, then check/call down
        key = next_step(page, None, 1)
        expect(page.locator("#turn")).to_have_text("Your turn.")
        expect(page.locator("#timer")).to_contain_text("s left")  # the time bank
        commitment = page.locator("#commitment").inner_text()
        assert re.fullmatch(r"[0-9a-f]{64}", commitment)
        low = int(page.locator("#raise-amount").get_attribute("min") or "0")
        high = int(page.locator("#raise-amount").get_attribute("max") or "0")
        assert 0 < low < high
        page.fill("#raise-amount", str(low - 1))
        page.locator("#raise-amount").press("Enter")  # Enter in the field raises
        error = page.locator("#table-error")
        expect(error.locator(".rule")).to_contain_text(re.compile(r"Rule \S+"))
        expect(error).to_contain_text(f"raise to {low}..{high}")
        expect(page.locator("#poker-actions")).to_be_visible()  # still ann's turn

        slider = page.locator("#raise-slider")
        slider.focus()
        slider.press("Home")
        for _ in range(5):
            slider.press("ArrowRight")
        expect(page.locator("#raise-amount")).to_have_value(str(low + 5))
        screenshot(page, shots, "poker-table.png")
        slider.press("r")  # the raise shortcut
        expect(page.locator("#hand-log")).to_contain_text(f"ann raises to {low + 5}")
        expect(page.locator("#table-error")).to_have_text("")
        step = next_step(page, key, hand_of(key))
        first = finish_hand(page, step)
        expect(page.locator("#verify")).to_have_text("verified ✓")
        record = hand_record(server, first, token)
        seat = seat_in(record, "ann")
        assert record["viewer"] == {"name": "ann", "seat": seat}
        assert len(dealt_to(record, seat)) == 2  # ann sees her own cards
        assert at_showdown(record, seat)
        assert record["commitment"] in page.locator("#verify-detail").inner_text()
        raises = [e for e in record["events"] if e["type"] == "RaisedTo" and e["seat"] == seat]
        assert raises[0]["to"] == low + 5

        # hand B: fold at once
        key = next_step(page, key, hand_of(key) + 1)
        page.locator("body").press("f")
        assert next_step(page, key, hand_of(key)) == "done"
        folded = int(page.locator("#results").get_attribute("data-hand-id") or "0")
        record = hand_record(server, folded, token)
        assert any(e["type"] == "Folded" and e["seat"] == seat for e in record["events"])
        assert shown_by(record, seat) == []

        # hand C: all-in; the calling bots call, so it goes to a showdown
        key = next_step(page, key, hand_of(key) + 1)
        page.locator("#act-allin").click()
        step = next_step(page, key, hand_of(key))
        last = finish_hand(page, step)
        expect(page.locator("#verify")).to_have_text("verified ✓")
        screenshot(page, shots, "poker-showdown.png")
        record = hand_record(server, last, token)
        seat = seat_in(record, "ann")
        all_in = [e for e in record["events"] if e.get("seat") == seat and e.get("all_in")]
        assert all_in, record["events"]
        assert at_showdown(record, seat)


def test_reload_mid_hand_on_a_phone(server: Server, browser: Browser, shots: Path) -> None:
    with opened_page(browser, phone=True) as page:
        register(page, server, "bo")
        assert fits_width(page)
        sit_from_lobby(page, "holdem-2")
        key = next_step(page, None, 1)
        assert fits_width(page)
        screenshot(page, shots, "poker-phone.png")
        cards = page.locator(".seat.me .card").all_inner_texts()
        assert len(cards) == 2

        page.reload()  # the socket drops; the page reconnects with the stored token
        expect(page.locator("#page-table")).to_be_visible()
        expect(page.locator("#status")).to_have_text("connected as bo")
        expect(page.locator("#timer")).to_contain_text("s left")  # the time bank goes on
        # the welcome names the table bo sits at: the lobby links back to it
        page.click("text=Back to the lobby")
        expect(page.locator("#lobby-seated")).to_contain_text("You sit at holdem-2")
        page.locator("#lobby-seated a").click()
        expect(page.locator("#table-title")).to_have_text("holdem-2")
        key_after = next_step(page, None, hand_of(key))
        assert hand_of(key_after) == hand_of(key)  # the same hand, still bo's turn
        assert page.locator(".seat.me .card").all_inner_texts() == cards
        page.locator("#act-call, #act-check").locator("visible=true").first.click()
        step = next_step(page, key_after, hand_of(key))
        hand_id = finish_hand(page, step)
        token = page.evaluate("localStorage.getItem('croupier.token')")
        record = hand_record(server, hand_id, str(token))
        seat = seat_in(record, "bo")
        acted = [
            e
            for e in record["events"]
            if e.get("seat") == seat and e["type"] in {"Called", "Checked"}
        ]
        assert acted
        expect(page.locator("#verify")).to_have_text("verified ✓")


def test_tampered_reveal_is_a_mismatch(server: Server, browser: Browser) -> None:
    """The page's own check (crypto.subtle, a secure context on 127.0.0.1) against the
    store's record of a real hand, and the same reveal with one card swapped."""
    with opened_page(browser) as page:
        token = register(page, server, "dee")
        sit_from_lobby(page, "holdem-3")
        key = next_step(page, None, 1)
        page.locator("body").press("f")
        hand_id = finish_hand(page, next_step(page, key, hand_of(key)))
        record = hand_record(server, hand_id, token)
        order, salt = record["reveal"]["order"], record["reveal"]["salt"]
        swapped = order[2:4] + order[:2] + order[4:]
        script = """async ([digest, order, salt, swapped]) => {
          const m = await import("/static/fairness.js");
          return [(await m.verifyReveal(digest, {order, salt})).status,
                  (await m.verifyReveal(digest, {order: swapped, salt})).status];
        }"""
        statuses = page.evaluate(script, [record["commitment"], order, salt, swapped])
        assert statuses == ["verified", "MISMATCH"]
