"""Invites that wait for friends, in the browser (headless Chromium, the real server):

* the creator's table page is a waiting room: who has joined, each empty seat's link to copy
  or share (``navigator.share`` stubbed on the phone), a new link (the old one stops working),
  a seat given to a bot; a second browser context opens the join page (who invites, the game,
  its options, who sits), joins, and both pages update live; the last join starts the game;
* the creator starts at once with bots in the empty seats;
* quick play alone: bots are offered after the wait (shortened here; 20 s by default), the
  person keeps waiting and is told when someone comes, then plays with bots.

At 390x844 (touch) and 1400x900, in English and Ukrainian or Polish; axe-core finds nothing
serious on the waiting room, the join page and the offer. Screenshots: artifacts/screenshots/
waitroom-*, join-*, quickplay-bots-*.
"""

from __future__ import annotations

import pytest
from test_web_screens import axe_violations, serve_axe, set_language
from webkit import create_in_lobby, http, shot

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1400, "height": 900}}
WORDS = {  # the waiting room's title and the join page's "invites you" in each language
    "en": ("Waiting for players", "Ann invites you to a game of Red Rising."),
    "uk": ("Чекаємо на гравців", "Ann запрошує вас до гри «Червоний світанок»."),
    "pl": ("Czekamy na graczy", "Ann zaprasza cię do gry Red Rising."),
}
ACTIVE = "() => window.__session && window.__session.snap && window.__session.snap.status === 'active'"
SHARE_STUB = "window.__shared = []; navigator.share = async (d) => { window.__shared.push(d); };"


def page_for(new_page, size: str, label: str, share: bool = False):
    phone = size == "phone"
    p = new_page(**SIZES[size], label=label, has_touch=phone, is_mobile=phone)
    if share:
        p.add_init_script(SHARE_STUB)
    return p


def seat(i: int) -> str:
    return f'.wait-seat[data-seat="{i}"]'


@pytest.mark.parametrize("size,lang", [("phone", "en"), ("desktop", "en"), ("phone", "uk"), ("desktop", "pl")])
def test_the_waiting_room_fills_by_links_and_starts(live, new_page, console, size, lang):
    base = live.base
    console.allow("status of 403")  # (the old link, refused)
    host = page_for(new_page, size, "host: ", share=size == "phone")
    serve_axe(host, base)
    set_language(host, base, lang)
    create_in_lobby(host, base, "red-rising", bots=["random"], humans=3, name="Ann")
    host.wait_for_selector(".waitroom:not([hidden]) .wait-seats")
    title, invited = WORDS[lang]
    assert host.inner_text(".waitroom h2") == title
    assert host.locator(".wait-seat").count() == 4 and host.locator(".wait-seat.open").count() == 2
    assert host.locator(".board .choice").count() == 0  # nobody decides while the table waits
    # each empty seat's link: shared on the phone (Web Share API), copied on the desktop
    link1 = host.input_value(f"{seat(1)} .invite-url")
    link2 = host.input_value(f"{seat(2)} .invite-url")
    assert "/join/" in link1 and "#" in link1 and link1 != link2
    if size == "phone":
        host.click(f"{seat(1)} .share-invite")
        host.wait_for_function("() => window.__shared.length === 1")
        assert host.evaluate("() => window.__shared[0].url") == link1
    else:
        assert host.locator(f"{seat(1)} .copy").is_visible()
    host.locator(".waitroom").scroll_into_view_if_needed()
    shot(host, f"waitroom-{size}-{lang}")
    problems = axe_violations(host, base, f"{size} {lang} waiting room")

    # a new link for seat 2: the old one stops working
    host.click(f"{seat(2)} .new-invite")
    host.wait_for_function(
        "([sel, old]) => document.querySelector(sel).value !== old", arg=[f"{seat(2)} .invite-url", link2]
    )
    fresh2 = host.input_value(f"{seat(2)} .invite-url")
    assert host.locator(".wait-seat.open").count() == 2

    # the first guest opens seat 1's link: the join page says who invites, the game, its options, who sits
    bo = page_for(new_page, size, "bo: ")
    serve_axe(bo, base)
    set_language(bo, base, lang)
    bo.goto(link1)
    bo.wait_for_selector(".join-facts .join-seats li")
    assert bo.inner_text(".join-invited") == invited
    facts = bo.inner_text(".join-options")
    assert "4" in facts
    assert bo.locator(".join-seat.open").count() == 2 and "Ann" in bo.inner_text(".join-seats")
    shot(bo, f"join-{size}-{lang}")
    problems += axe_violations(bo, base, f"{size} {lang} join page")
    bo.fill("#join-name", "Bo")
    bo.click(".join-btn")
    bo.wait_for_selector(".waitroom:not([hidden]) .wait-awaiting")
    assert bo.locator(".waitroom .invite-url").count() == 0 and bo.locator(".start-bots").count() == 0
    # the creator's page hears it live
    host.wait_for_selector(f"{seat(1)}.joined")
    assert "Bo" in host.inner_text(seat(1))
    shot(bo, f"waitroom-guest-{size}-{lang}")
    problems += axe_violations(bo, base, f"{size} {lang} waiting room (guest)")

    # seat 2's old link is refused; the new one seats Cy and the game starts for everyone
    cy = page_for(new_page, size, "cy: ")
    set_language(cy, base, lang)
    cy.goto(link2)
    cy.wait_for_selector(".join-btn")
    cy.click(".join-btn")
    cy.wait_for_selector(".join-failed")
    cy.goto(fresh2)
    cy.reload()  # (same path, a new #fragment: the page reads the new invite)
    cy.wait_for_selector(".join-btn")
    cy.fill("#join-name", "Cy")
    cy.click(".join-btn")
    for p in (host, bo, cy):
        p.wait_for_selector(".waitroom[hidden]", state="attached")
        p.wait_for_function(ACTIVE)
    assert [s["type"] for s in host.evaluate("() => window.__session.snap.seats")] == ["human"] * 3 + ["bot"]
    shot(host, f"waitroom-started-{size}-{lang}", full_page=False)
    assert problems == []


@pytest.mark.parametrize("size,lang", [("desktop", "en"), ("phone", "pl")])
def test_the_creator_replaces_a_seat_by_a_bot_and_starts_with_bots(live, new_page, size, lang):
    base = live.base
    host = page_for(new_page, size, "host: ")
    set_language(host, base, lang)
    create_in_lobby(host, base, "red-north", bots=[], humans=3, name="Ann")
    host.wait_for_selector(".waitroom:not([hidden]) .start-bots")
    host.click(f"{seat(2)} .seat-bot")
    host.wait_for_selector(f"{seat(2)}.bot")
    assert host.locator(".wait-seat.open").count() == 1
    shot(host, f"waitroom-bot-{size}-{lang}")
    host.click(".start-bots")
    host.wait_for_selector(".waitroom[hidden]", state="attached")
    host.wait_for_function("() => window.__session.snap.status === 'active'")
    # (the snapshot that says "active" may come before the one that names the bots: wait for that one)
    host.wait_for_function("() => window.__session.snap.seats.map((s) => s.type).join() === 'human,bot,bot'")


@pytest.fixture
def quick_bots_soon(live):
    """Quick play offers bots after 1.5 s in these tests (the server's setting; 20 s by default)."""
    quick = live.app.state.hub.tables.quick
    assert quick.bots_after == 20.0
    quick.bots_after = 1.5
    yield
    quick.bots_after = 20.0


@pytest.mark.parametrize("size,lang,players", [("phone", "en", 4), ("desktop", "uk", 3), ("phone", "pl", 3)])
def test_quick_play_alone_offers_bots_and_tells_who_comes(live, new_page, quick_bots_soon, size, lang, players):
    base = live.base
    me = page_for(new_page, size, "me: ")
    serve_axe(me, base)
    set_language(me, base, lang)
    me.wait_for_selector(".quick-go")
    me.select_option("select[name=qp-game]", "red-north")
    me.select_option("select[name=qp-players]", str(players))
    me.select_option("select[name=qp-speed]", "turn")
    me.click(".quick-go")
    me.wait_for_selector(".bots-offer .take-bots", timeout=15000)
    me.locator(".bots-offer").scroll_into_view_if_needed()
    shot(me, f"quickplay-bots-{size}-{lang}", full_page=False)
    problems = axe_violations(me, base, f"{size} {lang} quick play offer")
    me.click(".keep-waiting")
    me.wait_for_selector(".queue-kept")
    # someone comes to the same queue: the page says so
    code, other = http(
        "POST", base + "/api/quickplay", {"game": "red-north", "players": players, "speed": "turn", "name": "Zed"}
    )
    assert code == 201 and other["status"] == "waiting", other
    me.wait_for_selector(".queue-came", timeout=15000)
    shot(me, f"quickplay-came-{size}-{lang}", full_page=False)
    # then plays now with bots: a table of one person and bots, started; the other waits on
    me.click(".queue-kept .take-bots")
    me.wait_for_function("() => location.hash.startsWith('#/game/')")
    me.wait_for_function(ACTIVE)
    kinds = [s["type"] for s in me.evaluate("() => window.__session.snap.seats")]
    assert kinds.count("human") == 1 and kinds.count("bot") == players - 1
    code, still = http("GET", base + "/api/quickplay", token=other["ticket"])
    assert code == 200 and still["status"] == "waiting", still
    http("DELETE", base + "/api/quickplay", token=other["ticket"])
    assert problems == []
