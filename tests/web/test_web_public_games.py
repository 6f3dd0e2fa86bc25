"""The account page's "Open data" choice in the browser (English on a desktop, Ukrainian on a
phone): off for a new account, one tap turns it on in storage, and a reload shows it on."""

from __future__ import annotations

import uuid

import pytest
from webkit import catalog, register_in, shot

from redtable.server.accounts import find_account
from redtable.server.publicgames import is_public

PASSWORD = "correct horse battery"
CASES = [("en", "desktop"), ("uk", "phone")]
SIZES = {"desktop": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("lang,size", CASES)
def test_public_games_choice_on_the_account_page(live, new_page, lang, size):
    words = catalog(lang)
    phone = size == "phone"
    page = new_page(**SIZES[size], has_touch=phone, is_mobile=phone)
    name = "o" + uuid.uuid4().hex[:9]
    register_in(page, live.base, lang, name, PASSWORD)
    page.goto(live.base + "/#/account")
    page.wait_for_selector("input.public-games")
    assert page.inner_text("#public-games-h") == words["opendata.title"]
    assert page.inner_text(".settings-public-games label.check") == words["opendata.label"]
    # a locator, not a handle: the block may be drawn again once the account's settings arrive
    assert not page.locator("input.public-games").is_checked()
    store = live.app.state.store
    found = find_account(store, name)
    assert found is not None
    account = found[0]
    assert not is_public(store, account.id)
    page.click(".settings-public-games label.check")  # (the label: a finger's target, not the box alone)
    page.wait_for_function(
        "(t) => [...document.querySelectorAll('.toast')].some((e) => e.textContent.includes(t))",
        arg=words["opendata.saved_on"],
    )
    assert is_public(store, account.id)
    label = page.locator(".settings-public-games label.check").bounding_box()
    assert label is not None and label["x"] >= 0 and label["x"] + label["width"] <= SIZES[size]["width"]
    page.locator(".settings-public-games").scroll_into_view_if_needed()
    shot(page, f"account-public-games-{lang}-{size}", full_page=False)
    page.reload()
    page.wait_for_selector("input.public-games:checked")
    other = "pl" if lang != "pl" else "en"  # the block follows a change of language in place
    if page.locator(f"button[data-lang='{other}']").is_visible():
        page.click(f"button[data-lang='{other}']")
        page.wait_for_function(
            "(t) => document.querySelector('#public-games-h').textContent === t", arg=catalog(other)["opendata.title"]
        )
