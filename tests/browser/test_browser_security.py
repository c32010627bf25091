"""The browser UI under the server's Content-Security-Policy, and the session's end, in a
real browser (Debian's Chromium under Playwright) against a real ``croupier serve``:
no policy violation while a player registers, logs in, plays a poker hand and a blackjack
round and opens his account page; Log out revokes the token on the server; a password
change and *Log out everywhere* end the other sessions (their sockets close with 1008 and
their pages say so); no page keeps a typed password once logged in or out, and the header
says who is logged in, or links to the login page (also while watching); the registration
rules' refusals and a throttled login are explained on the login page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import (
    PASSWORD,
    Server,
    hand_of,
    launched_browser,
    log_in,
    next_round_step,
    next_step,
    opened_page,
    register,
    running_server,
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
seats = 2
bots = 1
bot_style = "calling"
buy_in = 1000
time_bank = 300
bot_delay = 0.05
seed = 21

[[table]]
name = "blackjack-1"
game = "blackjack"
seats = 2
bots = 1
bot_style = "basic"
time_bank = 300
bot_delay = 0.05
seed = 5
"""

SESSION_ENDED = "Your session ended: log in again."
MAX_GUESSES = 10
"""A safety net: failed logins tried at most before the throttle answers."""

# Records the policy's refusals in the page (run before the page's own scripts).
RECORD_VIOLATIONS_JS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"} ` +
      `at ${event.sourceFile}:${event.lineNumber}`,
  );
});
"""

# A hello on a new socket with `token`: the server's first answer, or how the socket closed.
HELLO_JS = """(token) => new Promise((resolve) => {
  const socket = new WebSocket(`ws://${location.host}/ws`);
  socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "hello", token })));
  socket.addEventListener("message", (event) => {
    resolve(JSON.parse(event.data));
    socket.close();
  });
  socket.addEventListener("close", (event) => resolve({ closed: event.code }));
})"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("secure-room"), TABLES) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_browser() as launched:
        yield launched


def wait_words(seconds: int) -> str:
    """A wait as the page words it: minutes (rounded up) from 120 s on, else seconds."""
    if seconds >= 120:
        return f"in {-(-seconds // 60)} minutes"
    return f"in {seconds} second{'' if seconds == 1 else 's'}"


def expect_logged_out(page: Page, name: str) -> None:
    """The login page after a logout or an ended session: the name is kept, no password,
    and the header offers *Log in* (no name, no connection state, no Log out)."""
    expect(page.locator("#page-login")).to_be_visible()
    expect(page.locator("#login-name")).to_have_value(name)
    expect(page.locator("#login-password")).to_have_value("")
    expect(page.locator("#whoami")).to_have_text("")
    expect(page.locator("#status")).to_have_text("")
    expect(page.locator("#logout")).to_be_hidden()
    expect(page.locator("#account-link")).to_be_hidden()
    login = page.locator("#login-link")
    expect(login).to_be_visible()
    expect(login).to_have_text("Log in")
    expect(login).to_have_attribute("href", "#login")
    header = page.locator("header.top")
    expect(header).not_to_contain_text("connected")
    expect(header).not_to_contain_text("offline")
    expect(header).not_to_contain_text(name)


def watch_policy(page: Page) -> list[str]:
    """Record the page's Content-Security-Policy violations: ``window.__cspViolations``
    in each document, and the console's complaints (returned, filled as they come)."""
    complaints: list[str] = []
    page.add_init_script(RECORD_VIOLATIONS_JS)

    def console(message: Any) -> None:
        if "Content Security Policy" in message.text:
            complaints.append(message.text)

    page.on("console", console)
    return complaints


def violations(page: Page) -> list[str]:
    found = page.evaluate("window.__cspViolations ?? null")
    assert isinstance(found, list), "the violation recorder did not run"
    return [str(v) for v in found]


def hello(page: Page, token: str) -> dict[str, Any]:
    answer: dict[str, Any] = page.evaluate(HELLO_JS, token)
    return answer


def play_a_poker_hand(page: Page) -> None:
    """Check or call (from the keyboard) until the first hand is recorded."""
    step = next_step(page, None, 1)
    hand = 0 if step == "done" else hand_of(step)
    while step != "done":
        page.locator("body").press("c")
        step = next_step(page, step, hand)


def play_a_blackjack_round(page: Page) -> None:
    """Wager the least on the own box, decline insurance, stand: until a round is recorded."""
    step: str | None = None
    wagered = False
    number = 1
    while True:
        step = next_round_step(page, step, number)
        if step == "done":
            return
        number = hand_of(step)
        what = step.rsplit("|", 1)[1]
        if what == "wager":
            if wagered:
                if page.locator("#bj-deal").is_visible():
                    page.click("#bj-deal")
                continue
            page.select_option("#bj-wager-target", "")
            page.fill(
                "#bj-wager-amount", page.locator("#bj-wager-amount").get_attribute("min") or "10"
            )
            page.click("#bj-wager")
            wagered = True
        elif what == "insure":
            page.locator("body").press("n")
        else:
            page.locator("body").press("s")


def test_no_policy_violation_while_playing(server: Server, browser: Browser) -> None:
    with opened_page(browser) as page:
        complaints = watch_policy(page)
        reply = page.goto(server.url + "/#login")
        assert reply is not None
        policy = reply.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy, f"no Content-Security-Policy: {reply.headers}"
        assert "style-src 'self'" in policy
        script = page.request.get(server.url + "/static/app.js")
        assert "script-src 'self'" in script.headers.get("content-security-policy", "")

        register(page, server, "vic")
        page.click("#logout")
        expect(page.locator("#page-login")).to_be_visible()
        log_in(page, server, "vic")

        sit_from_lobby(page, "holdem-1")
        expect(page.locator("#poker")).to_be_visible()
        play_a_poker_hand(page)
        expect(page.locator("#verify")).to_have_text("verified ✓")

        page.click("text=Back to the lobby")
        sit_from_lobby(page, "blackjack-1")
        expect(page.locator("#blackjack")).to_be_visible()
        play_a_blackjack_round(page)
        expect(page.locator("#results")).to_contain_text("vic")

        page.click("#account-link")
        expect(page.locator("#page-account")).to_be_visible()
        page.click("#password-submit")  # the fields are empty: refused in the page
        expect(page.locator("#password-error")).not_to_be_empty()

        assert violations(page) == []
        assert complaints == []
        # the recorder and the policy work: an inline style is refused, and recorded
        page.evaluate(
            "document.body.insertAdjacentHTML('beforeend', '<i style=\"color: red\"></i>')"
        )
        page.wait_for_function("window.__cspViolations.length > 0")
        assert any("style-src" in v for v in violations(page))


def test_log_out_revokes_the_token(server: Server, browser: Browser) -> None:
    with opened_page(browser) as page:
        token = register(page, server, "lou")
        assert hello(page, token).get("player") == "lou"
        with page.expect_response(re.compile(r"/api/logout$")) as answer:
            page.click("#logout")
        request = answer.value.request
        assert request.method == "POST"
        assert request.headers.get("authorization") == f"Bearer {token}"
        assert answer.value.ok, f"POST /api/logout answered {answer.value.status}"
        expect(page.locator("#page-login")).to_be_visible()
        expect(page.locator("#whoami")).to_have_text("")
        assert page.evaluate("localStorage.getItem('croupier.token')") is None
        # the form keeps the name but not the password: Log in alone does not get back in
        expect_logged_out(page, "lou")
        page.click("#login-submit")
        expect(page.locator("#login-error")).to_contain_text("Login failed")
        expect(page.locator("#page-login")).to_be_visible()
        assert page.evaluate("localStorage.getItem('croupier.token')") is None
        # the old token is refused now: a hello with it is not welcomed
        refused = hello(page, token)
        assert refused.get("type") != "welcome", refused
        assert refused.get("code") == "unauthorized" or refused.get("closed") == 1008, refused


def test_password_change_and_log_out_everywhere(server: Server, browser: Browser) -> None:
    new_password = "a-new-password-456"
    with opened_page(browser) as here, opened_page(browser) as there:
        register(here, server, "pat")
        expect(here.locator("#login-password")).to_have_value("")  # not kept once in
        log_in(there, server, "pat")
        expect(there.locator("#login-password")).to_have_value("")
        expect(there.locator("#status")).to_have_text("connected as pat")
        expect(there.locator("#whoami")).to_have_text("pat")
        expect(there.locator("#login-link")).to_be_hidden()

        here.click("#account-link")
        expect(here.locator("#page-account")).to_be_visible()
        here.fill("#password-old", "not-the-password")
        here.fill("#password-new", new_password)
        here.fill("#password-again", new_password)
        here.click("#password-submit")
        error = here.locator("#password-error")
        # not the server's "wrong name or password": this form has no name
        expect(error).to_have_text("The current password is wrong.")
        expect(here.locator("#password-done")).to_be_empty()
        expect(here.locator("#page-account")).to_be_visible()  # the session goes on

        here.fill("#password-old", PASSWORD)
        here.fill("#password-new", new_password)
        here.fill("#password-again", new_password)
        here.click("#password-submit")
        expect(here.locator("#password-done")).to_contain_text("Password changed")
        expect(error).to_be_empty()
        for field in ["#password-old", "#password-new", "#password-again"]:
            expect(here.locator(field)).to_have_value("")

        # the other session ended: its socket closed (1008), its page says so
        expect(there.locator("#page-login")).to_be_visible()
        expect(there.locator("#login-notice")).to_have_text(SESSION_ENDED)
        assert there.evaluate("localStorage.getItem('croupier.token')") is None
        expect_logged_out(there, "pat")
        # this one goes on
        here.click("text=To the lobby")
        expect(here.locator("#status")).to_have_text("connected as pat")

        # the old password no longer logs in; the new one does
        there.fill("#login-name", "pat")
        there.fill("#login-password", PASSWORD)
        there.click("#login-submit")
        expect(there.locator("#login-error")).to_contain_text("Login failed")
        log_in(there, server, "pat", new_password)

        here.click("#account-link")
        here.fill("#password-old", new_password)  # typed, then left: forgotten all the same
        with here.expect_response(re.compile(r"/api/logout/all$")) as answer:
            here.click("#logout-all")
        assert answer.value.ok, f"POST /api/logout/all answered {answer.value.status}"
        expect(here.locator("#page-login")).to_be_visible()
        expect(here.locator("#login-notice")).to_contain_text("logged out everywhere")
        expect_logged_out(here, "pat")
        expect(here.locator("#password-old")).to_have_value("")
        # the other context's session ended by the server (1008): no password kept there
        expect(there.locator("#page-login")).to_be_visible()
        expect(there.locator("#login-notice")).to_have_text(SESSION_ENDED)
        expect_logged_out(there, "pat")
        there.click("#login-submit")
        expect(there.locator("#login-error")).to_contain_text("Login failed")
        assert there.evaluate("localStorage.getItem('croupier.token')") is None


def test_header_before_login_and_while_watching(server: Server, browser: Browser) -> None:
    """Before anyone logs in the header says no "offline" and links to the login page;
    a spectator is "watching", with a way back to log in (the header's and the lobby's)."""
    with opened_page(browser) as page:
        page.goto(server.url + "/")
        expect(page.locator("#page-login")).to_be_visible()
        header = page.locator("header.top")
        expect(header).not_to_contain_text("offline")
        expect(page.locator("#status")).to_have_text("")
        expect(page.locator("#login-link")).to_have_text("Log in")
        expect(page.locator("#logout")).to_be_hidden()

        page.click("text=Watch without logging in")
        expect(page.locator("#page-lobby")).to_be_visible()
        expect(page.locator("#status")).to_have_text("watching")
        login = page.locator("#login-link")
        expect(login).to_be_visible()
        expect(login).to_have_text("Log in / Register")
        expect(login).to_have_attribute("href", "#login")
        lobby_login = page.locator("#lobby-login a")
        expect(lobby_login).to_have_text("Log in to sit down")
        expect(lobby_login).to_have_attribute("href", "#login")

        # from a table too, the header leads back to the login page
        page.locator('#lobby-rows tr[data-table="holdem-1"] a').click()
        expect(page.locator("#page-table")).to_be_visible()
        expect(page.locator("#status")).to_have_text("watching")
        login.click()
        expect(page.locator("#page-login")).to_be_visible()
        expect(header).not_to_contain_text("watching")
        page.click("text=Watch without logging in")
        expect(page.locator("#status")).to_have_text("watching")
        lobby_login.click()
        expect(page.locator("#page-login")).to_be_visible()

        register(page, server, "wes")
        expect(login).to_be_hidden()
        expect(page.locator("#lobby-login")).to_be_hidden()
        expect(page.locator("#status")).to_have_text("connected as wes")
        page.click("#logout")
        expect_logged_out(page, "wes")


def test_registration_refusals_are_explained(server: Server, browser: Browser) -> None:
    with opened_page(browser) as page:
        register(page, server, "Zoë")  # letters of any alphabet
        page.click("#logout")
        expect(page.locator("#page-login")).to_be_visible()
        error = page.locator("#login-error")
        # few: the server allows 10 registrations an hour from one address
        for name in ["ZOË", "dealer", "-dash"]:
            page.fill("#login-name", name)
            page.fill("#login-password", PASSWORD)
            page.click("#register-submit")
            # the server's own words, after the page's prefix
            expect(error).to_have_text(re.compile(r"^Registration failed: \S"))
            expect(page.locator("#page-login")).to_be_visible()
            page.evaluate("document.getElementById('login-error').textContent = ''")


def test_throttled_login_says_when_to_try_again(server: Server, browser: Browser) -> None:
    """Failed logins for one name are throttled (a few: the server allows 5): the page
    gives the wait the 429's Retry-After asks."""
    with opened_page(browser) as page:
        page.goto(server.url + "/#login")
        error = page.locator("#login-error")
        page.fill("#login-name", "ray")  # nobody's name: every login fails
        page.fill("#login-password", PASSWORD)
        for _ in range(MAX_GUESSES):
            with page.expect_response(re.compile(r"/api/login$")) as answer:
                page.click("#login-submit")
            if answer.value.status == 429:
                break
            assert answer.value.status == 401
            expect(error).to_contain_text("Login failed")
        else:
            pytest.fail(f"{MAX_GUESSES} failed logins were not throttled")
        wait = int(answer.value.headers["retry-after"])
        expect(error).to_have_text(f"Too many attempts: try again {wait_words(wait)}.")
        if wait >= 120:
            expect(error).to_contain_text("minutes")
        expect(page.locator("header.top")).not_to_contain_text("connected")
