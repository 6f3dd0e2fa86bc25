"""Friends in the browser (headless Chromium, the real server; ``friends.js``):

Ann follows Bo from his profile, sees Bo's open table in her lobby's Friends panel, creates a
table and, in its waiting room, invites Bo to the empty seat; Bo, at his own table with its
socket open, gets the invitation card at once, accepts, and sits at Ann's table, which starts.
Both read the table's players in its Game info with Follow and Block (Ann sits under her
account's name: a seat under another name keeps its account to itself); Bo blocks Ann there
and unblocks her from his account page's list.

At 390x844 (touch; Ann in Ukrainian, Bo in Polish) and 1400x900 (English). Screenshots:
artifacts/screenshots/friends-*.
"""

from __future__ import annotations

import uuid

import pytest
from test_web_accounts import PASSWORD
from test_web_screens import set_language
from webkit import create_in_lobby, shot, tool

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1400, "height": 900}}
ACTIVE = "() => window.__session && window.__session.snap && window.__session.snap.status === 'active'"
FOLLOWING = {"en": "Following", "uk": "Ви стежите", "pl": "Obserwujesz"}
FRIENDS = {"en": "Friends", "uk": "Друзі", "pl": "Znajomi"}
INVITES = {"en": "invites you to a game of", "uk": "запрошує вас до гри", "pl": "zaprasza cię do gry"}

OPEN_TABLE = """async () => {
  const s = await (await fetch('/api/session')).json();
  const H = {'Content-Type': 'application/json', 'X-CSRF-Token': s.csrf};
  const body = {game: 'red-north', seats: [{type: 'human'}, {type: 'human'}], open: true};
  const g = await (await fetch('/api/games', {method: 'POST', headers: H, body: JSON.stringify(body)})).json();
  const j = await (await fetch(`/api/games/${g.game_id}/join`,
    {method: 'POST', headers: H, body: JSON.stringify({invite: g.seats[0].invite})})).json();
  return [g.game_id, j.token];
}"""


def person(new_page, size: str, label: str, lang: str, base: str):
    phone = size == "phone"
    p = new_page(**SIZES[size], label=label, has_touch=phone, is_mobile=phone)
    set_language(p, base, lang)
    name = f"{label}{uuid.uuid4().hex[:6]}"
    p.goto(base + "/#/register")
    p.wait_for_selector(".account-form")
    p.click('.account-form .tab[data-mode="register"]')
    p.fill("#acct-user", name)
    p.fill("#acct-pass", PASSWORD)
    p.click(".account-submit")
    p.wait_for_function("() => !location.hash.startsWith('#/register')")
    p.wait_for_selector(".account-nav .account-name", state="attached")
    return p, name


@pytest.mark.parametrize("size,langs", [("phone", ("uk", "pl")), ("desktop", ("en", "en"))])
def test_follow_see_the_table_invite_and_accept(live, new_page, size, langs):
    base = live.base
    ann_lang, bo_lang = langs
    ann, ann_name = person(new_page, size, "ann", ann_lang, base)
    bo, bo_name = person(new_page, size, "bo", bo_lang, base)
    # Bo opens a table and sits at it (the page keeps the seat as the lobby would)
    gid, token = bo.evaluate(OPEN_TABLE)
    bo.evaluate(
        "([g, t]) => { const s = JSON.parse(localStorage.getItem('redtable.seats') || '{}');"
        " s[g] = {token: t, seat: 0, name: null}; localStorage.setItem('redtable.seats', JSON.stringify(s)); }",
        [gid, token],
    )

    # Ann follows Bo from his profile
    ann.goto(f"{base}/#/players/{bo_name}")
    ann.wait_for_selector(".profile-head .follow-btn:not([disabled])")
    assert ann.locator(".profile-head .block-btn").is_visible()
    ann.click(".profile-head .follow-btn")
    ann.wait_for_selector(".profile-head .follow-btn.on:not([disabled])")
    assert FOLLOWING[ann_lang] in ann.inner_text(".profile-head .follow-btn")
    shot(ann, f"friends-profile-{size}-{ann_lang}")

    # her lobby's Friends panel lists Bo's open table, Bo among the followed
    ann.goto(base + "/#/")
    ann.wait_for_selector(f'.friends-panel .friend-table[data-game="{gid}"]')
    assert FRIENDS[ann_lang] in ann.inner_text(".friends-panel h2")
    assert ann.locator(f'.friends-panel .friend[data-player="{bo_name}"]').count() == 1
    assert ann.locator(f'.friend-table[data-game="{gid}"] .sit').is_visible()
    ann.locator(".friends-panel").scroll_into_view_if_needed()
    shot(ann, f"friends-lobby-{size}-{ann_lang}", full_page=False)

    # Bo waits at his table (its socket open)
    bo.goto(f"{base}/#/game/{gid}")
    bo.wait_for_selector(".waitroom:not([hidden])")

    # Ann makes a table and invites Bo to its empty seat from the waiting room
    create_in_lobby(ann, base, "red-rising", bots=["random"], humans=2, name=ann_name)
    ann.wait_for_selector(".waitroom:not([hidden]) .wait-seats")
    ann.wait_for_selector('.wait-seat[data-seat="1"] .invite-friend')
    assert ann.input_value('.wait-seat[data-seat="1"] .invite-friend') == bo_name
    ann.click('.wait-seat[data-seat="1"] .invite-send')
    ann.wait_for_selector('.wait-seat[data-seat="1"] .invited')
    assert bo_name in ann.inner_text('.wait-seat[data-seat="1"] .invited')
    ann.locator(".waitroom").scroll_into_view_if_needed()
    shot(ann, f"friends-waitroom-{size}-{ann_lang}")

    # Bo hears of it at once (his table's socket), no link to copy: he accepts
    bo.wait_for_selector(".invite-pop .invite-card", timeout=8000)
    assert INVITES[bo_lang] in bo.inner_text(".invite-pop .invite-card")
    card = bo.locator(".invite-pop .invite-card .accept-invite")
    box = card.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"]
    shot(bo, f"friends-invited-{size}-{bo_lang}", full_page=False)
    card.click()
    bo.wait_for_function(ACTIVE)
    ann.wait_for_function(ACTIVE)
    assert bo.evaluate("() => window.__session.snap.seat") == 1
    assert bo.locator(".invite-pop").count() == 0
    shot(bo, f"friends-accepted-{size}-{bo_lang}", full_page=False)

    # the table's Game info lists its players with their buttons: Ann follows Bo already
    tool(ann, ".info").click()
    ann.wait_for_selector(f'.info-card .table-friend[data-player="{bo_name}"] .follow-btn.on')
    assert ann.locator(".info-card .block-btn").count() == 1
    shot(ann, f"friends-table-info-{size}-{ann_lang}", full_page=False)

    # Bo blocks Ann from the table, then finds her on his account page and unblocks her
    tool(bo, ".info").click()
    bo.click(f'.info-card .table-friend[data-player="{ann_name}"] .block-btn')
    bo.wait_for_selector(f'.info-card .table-friend[data-player="{ann_name}"] .block-btn.on:not([disabled])')
    bo.goto(base + "/#/account")
    bo.wait_for_selector(f'.settings-blocks .blocked[data-player="{ann_name}"]')
    bo.locator(".settings-blocks").scroll_into_view_if_needed()
    shot(bo, f"friends-blocks-{size}-{bo_lang}", full_page=False)
    bo.click(f'.settings-blocks .blocked[data-player="{ann_name}"] .unblock')
    bo.wait_for_selector(".settings-blocks .blocks-empty")
