"""Moderation in real Chromium (``static/js/moderation.js``; server: ``redtable/server/moderation_api.py``).

At desktop and phone size: two accounts sit at a table; Bo writes an insult in the chat; Ann
reports the message from the chat (a reason from the list, a note); a moderator (granted the
role on the server's database) opens the moderation page, reads the report with the chat
around it and mutes Bo with a reason; Bo is told at once at the table (the socket's notice) and
again on his next page load until he reads it, and his next chat line is refused with the
words of ``err.muted``. A player sees no moderation link nor page.

Screenshots go to artifacts/screenshots/mod-*.png.
"""

from __future__ import annotations

import uuid

import pytest
from test_web_accounts import register_in_page
from test_web_chat import SIZES, open_chat, wait_line, write
from webkit import http, shot

from redtable.server import accounts as acc
from redtable.server import moderation as mod

ADDRESSES = iter(f"198.51.100.{n}" for n in range(120, 250))


def person(new_page, live, size: str, label: str, name: str):
    page = new_page(
        **SIZES[size],
        label=label,
        has_touch=size == "phone",
        is_mobile=size == "phone",
        extra_http_headers={"X-Forwarded-For": next(ADDRESSES)},
    )
    page.goto(live.base + "/#/register")
    register_in_page(page, name)
    page.wait_for_selector(".profile-name")
    return page


def sit(page, live, invite_url: str) -> None:
    page.goto(live.base + invite_url)
    page.click(".join-btn")
    page.wait_for_function("() => location.hash.startsWith('#/game/')")
    page.wait_for_selector(".board .rn-board")


def no_overflow(page, what: str) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), f"{what} widens the page"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_report_then_a_moderator_mutes_and_the_player_is_told(live, new_page, console, size):
    tag = uuid.uuid4().hex[:5]
    ann_name, bo_name, mo_name = f"Ann{tag}", f"Bo{tag}", f"Mo{tag}"
    ann = person(new_page, live, size, "ann: ", ann_name)
    bo = person(new_page, live, size, "bo: ", bo_name)
    mo = person(new_page, live, size, "mo: ", mo_name)
    assert mo.locator(".topbar .nav-mod").count() == 0  # nobody's role yet
    store = live.app.state.store
    mod.grant(store, acc.account_by_name(store, mo_name)[0].id, "moderator", "test")

    status, g = http(
        "POST",
        f"{live.base}/api/games",
        {"game": "red-north", "seats": [{"type": "human", "name": ann_name}, {"type": "human", "name": bo_name}]},
    )
    assert status == 201, g
    gid = g["game_id"]
    sit(ann, live, g["seats"][0]["invite_url"])
    sit(bo, live, g["seats"][1]["invite_url"])
    shot(ann, f"mod-table-{size}", full_page=False)  # the table's report button in its status bar
    for p in (ann, bo):
        open_chat(p)
    write(bo, "you are a clueless cheat")
    wait_line(ann, "you are a clueless cheat")

    # Ann reports the message from the chat
    ann.click(".chat-lines .chatline:last-child .report-btn")
    ann.wait_for_selector(".mod-overlay .report-form")
    ann.select_option(".report-reason", "chat_abuse")
    ann.fill(".report-note", "Insults after every move")
    no_overflow(ann, "the report dialog")
    shot(ann, f"mod-report-{size}", full_page=False)
    ann.click(".report-send")
    ann.wait_for_selector(".mod-overlay", state="detached")
    ann.wait_for_selector(".toast")
    # once per target: a second report is refused with its words
    ann.click(".chat-lines .chatline:last-child .report-btn")
    ann.select_option(".report-reason", "other")
    ann.click(".report-send")
    ann.wait_for_selector(".report-error:not([hidden])")
    assert "already" in ann.inner_text(".report-error")
    console.allow("409")
    ann.keyboard.press("Escape")

    # the moderator's page: the report with the chat around it, then a mute with a reason
    mo.goto(live.base + "/#/moderation")
    mo.wait_for_selector(".topbar .nav-mod")
    mo.wait_for_selector(f".mod-report:has-text('{bo_name}')")
    mo.click(f".mod-report:has-text('{bo_name}')")
    mo.wait_for_selector(".mod-chat li.reported")
    assert "you are a clueless cheat" in mo.inner_text(".mod-chat li.reported")
    assert mo.get_attribute(".mod-replay", "href") == f"#/replay/{gid}"
    mo.select_option(".mod-action", "mute")
    mo.fill(".mod-minutes", "120")
    mo.fill(".mod-reason-input", "Insults in the chat: two hours without chat.")
    no_overflow(mo, "the moderation page")
    shot(mo, f"mod-page-{size}")
    mo.click(".mod-apply")
    mo.wait_for_selector(".mod-empty")  # the report is resolved by the action

    # Bo is told at once at the table ...
    bo.wait_for_selector(".notice-overlay .mod-notice[data-action=mute]")
    assert "two hours without chat" in bo.inner_text(".notice-overlay")
    no_overflow(bo, "the notice")
    shot(bo, f"mod-notice-live-{size}", full_page=False)
    bo.click(".notice-ok")
    # ... his chat is refused with its words ...
    bo.fill(".chat-input", "sorry")
    bo.press(".chat-input", "Enter")
    bo.wait_for_selector(".chat-error:not([hidden])")
    assert "muted" in bo.inner_text(".chat-error")
    # ... and again on his next page load, until he reads it
    bo.goto(live.base + "/#/")
    bo.reload()
    bo.wait_for_selector(".notice-overlay .mod-notice[data-action=mute]")
    shot(bo, f"mod-notice-load-{size}", full_page=False)
    bo.click(".notice-ok")
    bo.wait_for_selector(".notice-overlay", state="detached")
    bo.reload()
    bo.wait_for_selector(".lobby, .newgame")
    assert bo.locator(".notice-overlay").count() == 0

    # a player has no moderation link, and the page answers with the refusal's words
    ann.goto(live.base + "/#/moderation")
    ann.wait_for_selector(".mod-error")
    assert ann.locator(".topbar .nav-mod").count() == 0
    assert "moderators" in ann.inner_text(".mod-error")
    console.allow("403")

    # a report from a profile and one from the table: the player's shows the mute among his account's actions
    ann.goto(live.base + f"/#/players/{bo_name}")
    ann.click(".profile-head .report-btn")
    ann.select_option(".report-reason", "bad_name")
    ann.click(".report-send")
    ann.wait_for_selector(".mod-overlay", state="detached")
    ann.goto(live.base + f"/#/game/{gid}")
    table_report = ann.locator(".report-btn[title='Report this table']")
    table_report.wait_for(state="attached")
    if not table_report.is_visible():  # on a phone it waits in the toolbar's "More" menu
        ann.click(".more-wrap .more")
    table_report.click()
    ann.select_option(".report-reason", "stalling")
    ann.click(".report-send")
    ann.wait_for_selector(".mod-overlay", state="detached")
    mo.goto(live.base + "/#/moderation")
    mo.reload()
    mo.wait_for_selector(".mod-report:has-text('Offensive name')")
    mo.wait_for_selector(".mod-report:has-text('Stalling')")
    mo.click(".mod-report:has-text('Offensive name')")
    mo.wait_for_selector(".mod-history")
    assert "two hours without chat" in mo.inner_text(".mod-detail-body")
    assert "Actions taken on this account" in mo.inner_text(".mod-detail-body")
    no_overflow(mo, "a player report's history")
    shot(mo, f"mod-history-{size}")
    for reason in ("Offensive name", "Stalling"):  # dismissed: the list is empty again
        mo.click(f".mod-report:has-text('{reason}')")
        mo.click(".mod-dismiss")
        mo.wait_for_selector(f".mod-report:has-text('{reason}')", state="detached")
    mo.wait_for_selector(".mod-empty")

    # an admin: the audit log keeps the mute (who, what, why); the banner and maintenance reach every page
    mod.grant(store, acc.account_by_name(store, mo_name)[0].id, "admin", "test")
    mo.goto(live.base + "/#/moderation/audit")
    mo.reload()
    mo.wait_for_selector(".mod-audit tr[data-action=mute]")
    row = mo.inner_text(".mod-audit tr[data-action=mute]")
    assert mo_name in row and bo_name in row and "two hours without chat" in row
    no_overflow(mo, "the audit log")
    shot(mo, f"mod-audit-{size}")
    mo.goto(live.base + "/#/moderation/site")
    mo.wait_for_selector(".site-form")
    mo.fill(".site-banner-input", "The servers restart at 07:00 UTC for ten minutes.")
    mo.check(".site-maintenance")
    mo.click(".site-save")
    mo.wait_for_selector("#site-banner .maintenance")
    shot(mo, f"mod-site-{size}", full_page=False)
    ann.goto(live.base + "/#/")
    ann.wait_for_selector("#site-banner .announce")
    assert "07:00 UTC" in ann.inner_text("#site-banner")
    no_overflow(ann, "the banner")
    shot(ann, f"mod-banner-{size}", full_page=False)
    status, body = http("POST", f"{live.base}/api/games", {"game": "red-north", "seats": [{"type": "human"}] * 2})
    assert status == 503 and body["error"] == "maintenance"
    mo.uncheck(".site-maintenance")
    mo.fill(".site-banner-input", "")
    mo.click(".site-save")
    mo.wait_for_selector("#site-banner", state="hidden")
