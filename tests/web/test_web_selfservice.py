"""The account page's "Export my data" and "Delete my account" in the browser, in English on a
desktop and in Ukrainian and Polish on a phone: the export downloads the JSON the server holds;
the delete dialog warns, refuses an empty and a wrong password in the page's language, and with
the right one deletes the account and logs the browser out."""

from __future__ import annotations

import json
import uuid

import pytest
from webkit import catalog, register_in, shot

from redtable.server.accounts import find_account

PASSWORD = "correct horse battery"
CASES = [("en", "desktop"), ("uk", "phone"), ("pl", "phone")]
SIZES = {"desktop": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("lang,size", CASES)
def test_export_and_delete_from_the_account_page(live, new_page, console, lang, size):
    words = catalog(lang)
    phone = size == "phone"
    page = new_page(**SIZES[size], has_touch=phone, is_mobile=phone, accept_downloads=True)
    console.allow("403")  # (the wrong password's answer, which the dialog shows)
    name = "x" + uuid.uuid4().hex[:9]
    register_in(page, live.base, lang, name, PASSWORD)
    page.goto(live.base + "/#/account")
    page.wait_for_selector(".export-data")
    assert page.inner_text(".settings-export h2") == words["selfserve.export_title"]
    assert page.inner_text(".delete-account") == words["selfserve.delete"]
    # export: a download of what the server holds
    with page.expect_download() as got:
        page.click(".export-data")
    download = got.value
    assert download.suggested_filename == f"redtable-{name}.json"
    data = json.loads(open(download.path(), encoding="utf-8").read())
    assert data["profile"]["username"] == name and data["games"] == [] and len(data["sessions"]) == 1
    page.wait_for_function(
        "(t) => document.querySelector('.export-status').textContent === t", arg=words["selfserve.export_done"]
    )
    for sel in (".export-data", ".delete-account"):  # both buttons on the screen, whole
        box = page.locator(sel).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"]
    page.wait_for_selector(".toast", state="detached", timeout=15000)  # (the welcome toast, not in the picture)
    shot(page, f"account-selfserve-{lang}-{size}")
    # delete: the dialog warns and asks for the password
    page.click(".delete-account")
    page.wait_for_selector(".delete-dialog")
    assert page.inner_text(".delete-warning") == words["selfserve.delete_warning"]
    assert page.evaluate("document.activeElement.id") == "delete-password"
    page.click(".delete-confirm")
    assert page.inner_text(".delete-error") == words["selfserve.password_needed"]
    page.fill("#delete-password", "not my password at all")
    page.click(".delete-confirm")
    page.wait_for_function(
        "(t) => document.querySelector('.delete-error').textContent === t", arg=words["err.bad_password_check"]
    )
    box = page.locator(".delete-confirm").bounding_box()
    assert box is not None and box["y"] + box["height"] <= SIZES[size]["height"]  # reachable without scrolling
    shot(page, f"account-delete-dialog-{lang}-{size}", full_page=False)
    assert find_account(live.app.state.store, name) is not None  # (nothing happened yet)
    page.fill("#delete-password", PASSWORD)
    page.click(".delete-confirm")
    page.wait_for_selector(".delete-dialog", state="detached")
    page.wait_for_selector(".login-link")
    assert find_account(live.app.state.store, name) is None
    status = page.evaluate("fetch('/api/session').then((r) => r.json())")
    assert status["logged_in"] is False
