"""The log-in form after failed log-ins at its username (server: ``loginguard.py``), in Chromium.

The page solves the server's proof of work with WebCrypto and logs in without a word from the
person; while a try must wait, the form says how long and why (in the page's language); a
common password is refused at sign-up with its reason. Screenshots at 1400x900 and 390x844.
"""

from __future__ import annotations

import time
import uuid

from webkit import http, shot

from redtable.server import loginguard as guard
from redtable.server.accounts import username_key

PASSWORD = "a long enough password"
PHONE = {"width": 390, "height": 844}


def fail_at(live, name: str, times: int, ago: float) -> None:
    """Failures at ``name`` as strangers' wrong passwords leave them (dated ``ago`` seconds back)."""
    store = live.app.state.store
    for i in range(times):
        guard.record_failure(store, username_key(name), time.time() - ago - i)


def log_in_in_page(page, base: str, username: str, password: str = PASSWORD) -> None:
    page.goto(base + "/#/login")
    page.wait_for_selector(".account-form")
    page.fill("#acct-user", username)
    page.fill("#acct-pass", password)
    # (clicked from the page: the click returns at once, while the page may compute its proof for seconds)
    page.evaluate("() => document.querySelector('.account-submit').click()")


def test_a_new_device_solves_the_puzzle_and_logs_in(live, new_page, console):
    console.allow("403")  # (the challenge_required answer the page then solves)
    name = f"Pz{uuid.uuid4().hex[:8]}"
    assert http("POST", f"{live.base}/api/accounts", {"username": name, "password": PASSWORD})[0] == 201
    fail_at(live, name, guard.CHALLENGE_AFTER, ago=guard.DELAY_MAX + 5)  # strangers' guesses, delay spent: a puzzle
    for size, label in (({"width": 1400, "height": 900}, "desktop"), (PHONE, "phone")):
        page = new_page(**size)
        log_in_in_page(page, live.base, name)
        page.wait_for_function("() => location.hash.startsWith('#/players/')", timeout=120_000)
        shot(page, f"login-friction-solved-{label}")
        fail_at(live, name, guard.CHALLENGE_AFTER, ago=guard.DELAY_MAX + 5)  # (the log-in forgot them: again)


def test_a_try_that_must_wait_says_how_long_and_why(live, new_page, console):
    console.allow("429", "422")
    name = f"Wt{uuid.uuid4().hex[:8]}"
    assert http("POST", f"{live.base}/api/accounts", {"username": name, "password": PASSWORD})[0] == 201
    for size, label, locale, lang in (
        ({"width": 1400, "height": 900}, "desktop", "en-US", "en"),
        (PHONE, "phone", "uk-UA", "uk"),
    ):
        fail_at(live, name, 6, ago=0)
        page = new_page(**size, locale=locale)
        log_in_in_page(page, live.base, name)
        text = page.wait_for_selector(".account-error").inner_text()
        assert ("wrong passwords" in text) if lang == "en" else ("неправильних паролів" in text), text
        shot(page, f"login-friction-wait-{label}")
    page = new_page(**PHONE)
    page.goto(live.base + "/#/register")
    page.wait_for_selector(".account-form")
    page.click('.account-form .tab[data-mode="register"]')
    page.fill("#acct-user", f"Cm{uuid.uuid4().hex[:8]}")
    page.fill("#acct-pass", "superman")
    page.click(".account-submit")
    assert "most common" in page.wait_for_selector(".account-error").inner_text()
    shot(page, "login-friction-common-password-phone")
