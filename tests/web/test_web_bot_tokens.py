"""The account page's "Bot account and API tokens" in the browser (English on a desktop, Ukrainian
on a phone): making the account a bot asks a second click; a token is made with its scopes, shown
once (the server keeps its hash: the list shows its prefix only), and revoked."""

from __future__ import annotations

import uuid

import pytest
from webkit import catalog, register_in, shot

PASSWORD = "correct horse battery"
SIZES = {"desktop": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("lang,size", [("en", "desktop"), ("uk", "phone")])
def test_bot_account_and_tokens_on_the_account_page(live, new_page, console, lang, size):
    words = catalog(lang)
    phone = size == "phone"
    page = new_page(**SIZES[size], has_touch=phone, is_mobile=phone)
    name = "b" + uuid.uuid4().hex[:9]
    register_in(page, live.base, lang, name, PASSWORD)
    page.goto(live.base + "/#/account")
    page.wait_for_selector(".make-bot")
    assert page.inner_text("#bots-h") == words["bots.title"]
    assert page.inner_text(".tokens-empty") == words["bots.none"]
    assert page.is_disabled(".token-scopes input[value='bot:play']")  # (a person's token only reads)
    page.click(".make-bot")
    assert page.inner_text(".bot-warning") == words["bots.make_warning"]
    page.click(".make-bot-confirm")
    page.wait_for_function("(t) => document.querySelector('.bot-status').textContent === t", arg=words["bots.is_bot"])
    page.fill(".token-form input[name='label']", "my program")
    page.check(".token-scopes input[value='bot:play']")
    page.click(".create-token")
    page.wait_for_selector(".token-value")
    token = page.inner_text(".token-value")
    assert token.startswith("rtb_") and len(token) > 40
    row = page.inner_text(".token")
    assert "my program" in row and token[:10] in row and token not in row and "bot:play" in row
    listed = page.evaluate("fetch('/api/account/tokens').then((r) => r.json())")
    assert [t["scopes"] for t in listed["tokens"]] == [["bot:play", "read"]] and listed["bot"] is True
    for sel in (".token-value", ".revoke-token", ".create-token"):  # on the screen, whole
        box = page.locator(sel).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"]
    page.locator(".settings-bots").scroll_into_view_if_needed()
    page.wait_for_selector(".toast", state="detached", timeout=15000)
    shot(page, f"account-bots-{lang}-{size}")
    page.click(".revoke-token")
    page.wait_for_selector(".tokens-empty")
    assert page.evaluate("fetch('/api/account/tokens').then((r) => r.json())")["tokens"] == []
