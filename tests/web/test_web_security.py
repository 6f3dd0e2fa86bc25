"""The browser UI under the server's security rules, in real headless Chromium against the
real server: secrets never in a URL (tokens in the Authorization header and the WebSocket's
first message, invites in the link's #fragment), per-device tokens and signing out other
devices, the creator's re-issued invites, the server's name rule, block windows the server
answers, the "deal chosen by the creator" marker and the deal's commitment, the
Content-Security-Policy, and rate limits told politely.

Screenshots of the new bits at desktop (1400x900) and phone (390x844) sizes are kept under
``artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import random
import re

from test_web_ui import find_block, game_id, server_state
from webkit import CHOICES, READY, click_random_choice, create_in_lobby, http, play_until_end, shot, tool

DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


def record_traffic(page) -> dict:
    """Every request URL and WebSocket URL of ``page``, and the frames each socket sent."""
    seen: dict = {"urls": [], "sockets": []}
    page.on("request", lambda r: seen["urls"].append(r.url))

    def on_socket(ws):
        entry = {"url": ws.url, "sent": [], "closed": False}
        seen["urls"].append(ws.url)
        seen["sockets"].append(entry)
        ws.on("framesent", lambda data: entry["sent"].append(data if isinstance(data, str) else data.decode()))
        ws.on("close", lambda *_: entry.update(closed=True))

    page.on("websocket", on_socket)
    return seen


def stored(page, key: str) -> dict:
    return page.evaluate(f"() => JSON.parse(localStorage.getItem('{key}') || '{{}}')")


def no_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def fully_visible(page, selector: str) -> None:
    """The element is inside the viewport horizontally and not clipped by an ancestor."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    width = page.evaluate("window.innerWidth")
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (selector, box, width)


def new_game(live, game: str, seats: list[dict], **extra) -> dict:
    status, g = http("POST", f"{live.base}/api/games", {"game": game, "seats": seats, **extra})
    assert status == 201, g
    return g


# ---------------------------------------------------------------------- secrets never in a URL
def test_no_secret_in_any_url_and_the_websocket_authenticates_first(live, new_page):
    host = new_page(label="host: ")
    host_traffic = record_traffic(host)
    with host.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/api/games")) as answer:
        create_in_lobby(host, live.base, "red-north", [], humans=2, name="Host")
    created = answer.value.json()  # the creation answer: the invites and the creator's key
    host.wait_for_selector(".waitroom .invite-url")  # (the table page waits for the guest: waitroom.js)
    invite_url = host.input_value(".waitroom .invite-url")
    assert re.fullmatch(rf"{re.escape(live.base)}/join/[\w-]+#[\w-]+", invite_url), invite_url
    gid = game_id(host)
    host.wait_for_selector(".rn-board")

    # the invite-in-fragment join flow: the page reads the invite after '#', and drops it once used
    guest = new_page(label="guest: ")
    guest_traffic = record_traffic(guest)
    guest.goto(invite_url)
    guest.wait_for_selector(".join-btn")
    assert guest.evaluate("location.pathname") == f"/join/{gid}"
    entries = guest.evaluate("history.length")
    guest.fill("#join-name", "Guest")
    guest.click(".join-btn")
    assert game_id(guest) == gid
    guest.wait_for_selector(".rn-board")
    invite = invite_url.split("#", 1)[1]
    assert invite not in guest.url and guest.evaluate("location.hash") == f"#/game/{gid}"
    assert guest.evaluate("history.length") == entries  # the join page's entry was replaced, not kept

    # a few decisions by both, then the host reads the log and replay of the running game
    rnd = random.Random(5)
    made = 0
    while made < 6:
        for p in (host, guest):
            p.wait_for_function("() => !document.querySelector('.table-shell.busy')")
        mover = next((p for p in (host, guest) if p.query_selector(CHOICES)), None)
        if mover is None:
            host.wait_for_timeout(50)
            continue
        made += click_random_choice(mover, rnd)
    guest.evaluate("window.__session.drop()")  # a reconnect authenticates again
    guest.wait_for_selector(".conn.reconnecting, .conn.connecting", timeout=5000)
    guest.wait_for_selector(".conn.open")
    host.goto(f"{live.base}/#/replay/{gid}")
    host.wait_for_selector(".scrubber .range")
    host.wait_for_selector(".rn-board")
    assert host.locator(".rn-hand:not(.spectator)").count() == 1  # read as the seat (token in the header)

    secrets = [created["creator_key"], *[s["invite"] for s in created["seats"] if s["invite"]]]
    for p in (host, guest):
        secrets += [s["token"] for s in stored(p, "redtable.seats").values()]
    assert len(secrets) == 5 and all(len(s) >= 40 for s in secrets)
    urls = host_traffic["urls"] + guest_traffic["urls"]
    assert any("/ws" in u for u in urls)
    for u in urls + live.seen.urls:
        # no token in a URL; the one path that names tokens is the API-token list of an account
        # (bot accounts, opened by other tests on this server), which carries none
        assert "token" not in u.lower().replace("/api/account/tokens", ""), u
        for s in secrets:
            assert s not in u, u
    # every socket (the guest's reconnect too) first sends {"type": "auth", "token": ...}
    sockets = host_traffic["sockets"] + guest_traffic["sockets"]
    assert len(guest_traffic["sockets"]) >= 2
    for sock in sockets:
        assert sock["url"].endswith(f"/api/games/{gid}/ws"), sock["url"]
        first = json.loads(sock["sent"][0])
        assert first["type"] == "auth" and first["token"] in secrets


def test_join_page_without_or_with_a_wrong_invite(live, new_page, console):
    console.allow("status of 403")
    g = new_game(live, "red-north", [{"type": "human"}, {"type": "bot"}])
    page = new_page(label="bad-invite: ")
    page.goto(f"{live.base}/join/{g['game_id']}")
    page.wait_for_selector(".join-failed")
    assert "no invite" in page.inner_text(".join-failed")
    page.goto(f"{live.base}/join/{g['game_id']}#not-an-invite")
    page.reload()
    page.wait_for_selector(".join-btn")
    page.click(".join-btn")
    page.wait_for_selector(".join-failed")
    assert "not valid" in page.inner_text(".join-failed")


# ---------------------------------------------------------------------- per-device tokens
def test_sign_out_other_devices(live, new_page, console):
    console.allow("status of 403")  # the signed-out device's old token, tried on purpose
    g = new_game(live, "red-north", [{"type": "human", "name": "Ann"}, {"type": "bot"}])
    gid, link = g["game_id"], live.base + g["seats"][0]["invite_url"]
    phone = new_page(width=PHONE["width"], height=PHONE["height"], label="phone: ", is_mobile=True, has_touch=True)
    laptop = new_page(width=DESKTOP["width"], height=DESKTOP["height"], label="laptop: ")
    traffic = record_traffic(laptop)
    for p in (phone, laptop):  # the same invite on two devices: each gets its own token
        p.goto(link)
        p.click(".join-btn")
        p.wait_for_selector(".rn-board")
        p.wait_for_selector(".conn.open")
        p.wait_for_function("() => window.__session.snap && window.__session.snap.seat === 0")
    phone_token = stored(phone, "redtable.seats")[gid]["token"]
    laptop_token = stored(laptop, "redtable.seats")[gid]["token"]
    assert phone_token != laptop_token

    tool(phone, ".info").click()
    phone.wait_for_selector(".info-card .sign-out-others")
    phone.click(".sign-out-others")
    phone.wait_for_selector(".devices-result .invite-url")
    assert "Signed out 1 other device" in phone.inner_text(".devices-result")
    new_link = phone.input_value(".devices-result .invite-url")
    assert new_link.startswith(f"{live.base}/join/{gid}#") and new_link != link
    fully_visible(phone, ".devices-result .invite-field .copy")
    assert no_overflow(phone)
    shot(phone, "signed-out-others-phone", full_page=False)

    # the laptop's socket is closed; it says so and watches; its token reads nothing any more
    laptop.wait_for_selector(".notice .banner")
    assert "signed out" in laptop.inner_text(".notice")
    assert traffic["sockets"][0]["closed"]
    laptop.wait_for_function("() => window.__session.snap && window.__session.snap.seat === null")
    laptop.wait_for_selector(".conn.open")
    assert stored(laptop, "redtable.seats").get(gid) is None
    status = laptop.evaluate(
        """async ([g, t]) => (await fetch(location.origin + '/api/games/' + g + '?events=false',
        {headers: {Authorization: 'Bearer ' + t}})).status""",
        [gid, laptop_token],
    )
    assert status == 403
    assert http("GET", f"{live.base}/api/games/{gid}/log", token=laptop_token)[0] == 403
    shot(laptop, "signed-out-laptop", full_page=False)
    # the phone still plays; the old invite is dead, the new one works
    assert http("GET", f"{live.base}/api/games/{gid}?events=false", token=phone_token)[1]["seat"] == 0
    phone.click(".close-info")
    phone.wait_for_function(READY)
    assert http("POST", f"{live.base}/api/games/{gid}/join", {"invite": link.split("#")[1]})[0] == 403
    assert http("POST", f"{live.base}/api/games/{gid}/join", {"invite": new_link.split("#")[1]})[0] == 200


def test_creator_reissues_an_invite(live, new_page):
    page = new_page(width=DESKTOP["width"], height=DESKTOP["height"], label="creator: ")
    create_in_lobby(page, live.base, "red-rising", ["heuristic"], humans=2, name="Cleo")
    page.wait_for_selector('.waitroom .wait-seat[data-seat="1"] .invite-url')  # (the table's waiting room)
    old = page.input_value('.wait-seat[data-seat="1"] .invite-url')
    gid = old.split("/join/")[1].split("#")[0]
    page.click('.wait-seat[data-seat="1"] .new-invite')
    page.wait_for_function(
        f"() => document.querySelector('.wait-seat[data-seat=\"1\"] .invite-url').value !== {json.dumps(old)}"
    )
    fresh = page.input_value('.wait-seat[data-seat="1"] .invite-url')
    assert fresh.startswith(f"{live.base}/join/{gid}#")
    shot(page, "lobby-reissued-invite", full_page=False)
    assert http("POST", f"{live.base}/api/games/{gid}/join", {"invite": old.split("#")[1]})[0] == 403

    # later, from the games list (this browser kept the creator's key)
    page.goto(live.base + "/#/")
    row = f'.game-row[data-game="{gid}"]'
    page.wait_for_selector(f'{row} .reissue-seat[data-seat="1"] .new-invite')
    page.click(f'{row} .reissue-seat[data-seat="1"] .new-invite')
    page.wait_for_selector(f"{row} .reissue-seat .invite-url")
    latest = page.input_value(f"{row} .reissue-seat .invite-url")
    assert latest != fresh and latest.startswith(f"{live.base}/join/{gid}#")
    page.set_viewport_size(PHONE)
    page.locator(f"{row} .reissue-seat .invite-url").scroll_into_view_if_needed()
    fully_visible(page, f"{row} .reissue-seat .copy")
    assert no_overflow(page)
    shot(page, "lobby-list-reissue-phone", full_page=False)
    assert http("POST", f"{live.base}/api/games/{gid}/join", {"invite": fresh.split("#")[1]})[0] == 403

    # another browser did not create the game: no such button there
    other = new_page(label="other: ")
    other.goto(live.base + "/#/")
    other.wait_for_selector(row)
    assert other.locator(f"{row} .new-invite").count() == 0
    # the new link works
    other.goto(latest)
    other.click(".join-btn")
    assert game_id(other) == gid


# ---------------------------------------------------------------------- names
def test_names_are_checked_by_the_server(live, new_page, console):
    console.allow("status of 422", "status of 409")  # the refusals provoked here
    page = new_page(label="names: ")
    page.goto(live.base + "/#/")
    page.wait_for_selector(".seat-name")
    assert page.get_attribute(".seat-name", "maxlength") == "24"
    create_in_lobby(page, live.base, "red-north", ["random"], name="Ann the bot")
    page.wait_for_selector(".newgame .form-error")
    assert "bots" in page.inner_text(".form-error")  # the server's own message
    assert page.evaluate("location.hash") == "#/"

    g = new_game(live, "red-north", [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bo"}])
    gid = g["game_id"]
    join = new_page(width=PHONE["width"], height=PHONE["height"], label="join: ", is_mobile=True, has_touch=True)
    join.goto(live.base + g["seats"][1]["invite_url"])
    join.wait_for_selector("#join-name")
    assert join.get_attribute("#join-name", "maxlength") == "24"
    join.fill("#join-name", "Robot Rob")
    join.click(".join-btn")
    join.wait_for_selector(".join-error")
    assert "may not contain a word" in join.inner_text(".join-error")
    assert join.evaluate("location.pathname") == f"/join/{gid}"  # still on the join page
    fully_visible(join, ".join-error")
    shot(join, "join-name-refused-phone", full_page=False)

    # renaming stops at the first decision: the seat is taken under its name
    tokens = [
        http("POST", f"{live.base}/api/games/{gid}/join", {"invite": s["invite"]})[1]["token"] for s in g["seats"]
    ]
    st = server_state(live, gid)
    d = st["decision"]
    options = http("GET", f"{live.base}/api/games/{gid}?events=false", token=tokens[d["player"]])[1]["decision"][
        "options"
    ]
    assert (
        http(
            "POST",
            f"{live.base}/api/games/{gid}/decisions",
            {"action": options[0], "version": st["version"]},
            tokens[d["player"]],
        )[0]
        == 200
    )
    join.fill("#join-name", "Robert")
    join.click(".join-btn")
    assert game_id(join) == gid
    join.wait_for_selector(".toast")
    assert "keeps its name: Bo" in join.inner_text(".toasts")
    assert server_state(live, gid)["seats"][1]["name"] == "Bo"


# ---------------------------------------------------------------------- block windows the server answers
def test_block_window_without_blocker_is_not_a_prompt(live, new_page):
    from redtable.server.fairness import HumanDelays

    seed, actions, d = find_block(block_windows=True, auto=True)
    # this test's windows last 2-2.5 s (long enough to look at), however quick the others are
    delays = live.app.state.hub.delays
    kept = delays.get("red-rising")
    delays["red-rising"] = HumanDelays(5.0, low=5.0, high=6.0)  # long enough to look at the page under load
    try:
        auto_window(live, new_page, seed, actions)
    finally:
        if kept is None:
            delays.pop("red-rising", None)
        else:
            delays["red-rising"] = kept


def auto_window(live, new_page, seed, actions):
    g = new_game(live, "red-rising", [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bo"}], seed=seed)
    gid = g["game_id"]
    assert g["options"]["block_windows"] is True  # on by default where two people play
    ann = new_page(width=PHONE["width"], height=PHONE["height"], label="ann: ", is_mobile=True, has_touch=True)
    bo = new_page(label="bo: ")
    ann_traffic = record_traffic(ann)
    # each page notes what its prompt said at every version
    watch = """() => { window.__prompts = []; new MutationObserver(() => {
        const p = document.querySelector('.prompt');  // the version the prompt was drawn for, not the newest
        if (p && p.dataset.version) window.__prompts.push({v: Number(p.dataset.version), text: p.innerText,
          mine: p.classList.contains('mine'), choices: document.querySelectorAll(CHOICES).length});
      }).observe(document.body, {subtree: true, childList: true, characterData: true}); }""".replace(
        "CHOICES", json.dumps(CHOICES)
    )
    for page, seat in ((ann, 0), (bo, 1)):
        page.goto(live.base + g["seats"][seat]["invite_url"])
        page.click(".join-btn")
        page.wait_for_selector(".rr-board .rr-loc")
        page.wait_for_selector(".conn.open")
        page.evaluate(watch)
    tokens = [stored(p, "redtable.seats")[gid]["token"] for p in (ann, bo)]
    for version, action in enumerate(actions):
        seat = server_state(live, gid)["decision"]["player"]
        status, body = http(
            "POST", f"{live.base}/api/games/{gid}/decisions", {"action": action, "version": version}, tokens[seat]
        )
        assert status == 200, body
    window = len(actions)
    ann.wait_for_function(f"() => window.__session.snap.version === {window} && window.__session.snap.decision.auto")
    assert ann.evaluate("window.__session.snap.decision.options") == ["no"]
    ann.wait_for_selector(".prompt .prompt-auto")
    shot(ann, "rr-auto-window-phone", full_page=False)
    bo.wait_for_selector(".prompt .prompt-wait")
    shot(bo, "rr-auto-window-opponent", full_page=False)
    # the server declines it after a person's wait, and the game goes on
    ann.wait_for_function(f"() => window.__session.snap.version > {window}", timeout=30000)
    bo.wait_for_function(f"() => window.__session.snap.version > {window}")
    log = http("GET", f"{live.base}/api/games/{gid}/log")[1]
    assert log["steps"] == window + 1
    at_window = [p for p in ann.evaluate("window.__prompts") if p["v"] == window]
    assert at_window, "Ann's prompt was never drawn during the window"
    for p in at_window:
        assert not p["mine"] and p["choices"] == 0, p
        assert "answered for you" in p["text"] and "Block" not in p["text"], p
    assert not any('"decide"' in f for s in ann_traffic["sockets"] for f in s["sent"])
    # Bo is told Ann is deciding whether to block, as for a real window
    bo_texts = [p["text"] for p in bo.evaluate("window.__prompts") if p["v"] == window]
    assert any("Ann is deciding whether to block" in t for t in bo_texts), bo_texts


# ---------------------------------------------------------------------- fair deals
def test_seed_chosen_by_the_creator_is_marked(live, new_page):
    page = new_page(width=DESKTOP["width"], height=DESKTOP["height"], label="seed: ")
    page.goto(live.base + "/#/")
    page.wait_for_selector(".newgame")
    # two people: no chosen seed
    page.click('.seat-row[data-seat="1"] .seg button[data-type="human"]')
    assert page.is_disabled("input[name=seed]")
    page.click('.seat-row[data-seat="1"] .seg button[data-type="bot"]')
    page.fill("input[name=seed]", "20240611")
    assert page.input_value("input[name=seed]") == "20240611"
    page.select_option("select[name=speed]", "instant")
    page.click(".create")
    gid = game_id(page)
    page.wait_for_selector(".rr-board")
    page.wait_for_selector(".statusbar .seed-chosen:not([hidden])")
    assert page.inner_text(".statusbar .seed-chosen") == "deal chosen by the creator"
    state = server_state(live, gid)
    assert state["seed_chosen_by_creator"] is True and re.fullmatch(r"[0-9a-f]{64}", state["seed_commitment"])
    shot(page, "rr-table-seed-chosen", full_page=False)
    tool(page, ".info").click()
    page.wait_for_selector(".info-card code.hash")
    assert page.inner_text(".info-card code.hash") == state["seed_commitment"]
    assert "deal chosen by the creator" in page.inner_text(".info-card")
    shot(page, "game-info", full_page=False)
    page.set_viewport_size(PHONE)
    fully_visible(page, ".info-card code.hash")
    fully_visible(page, ".info-card .close-info")
    shot(page, "game-info-phone", full_page=False)
    page.keyboard.press("Escape")

    other = new_game(live, "red-north", [{"type": "human"}, {"type": "bot"}])  # a random deal: no marker
    page.goto(live.base + "/#/")
    page.wait_for_selector(f'.game-row[data-game="{gid}"] .seed-chosen')
    page.wait_for_selector(f'.game-row[data-game="{other["game_id"]}"]')
    assert page.locator(f'.game-row[data-game="{other["game_id"]}"] .seed-chosen').count() == 0
    assert no_overflow(page)
    page.locator(f'.game-row[data-game="{gid}"]').scroll_into_view_if_needed()
    fully_visible(page, f'.game-row[data-game="{gid}"] .seed-chosen')
    shot(page, "lobby-seed-marker-phone", full_page=False)


# ---------------------------------------------------------------------- Content-Security-Policy
def test_no_csp_violation_through_lobby_game_end_screen_and_replay(live, new_page):
    page = new_page(width=DESKTOP["width"], height=DESKTOP["height"], label="csp: ")
    r = page.goto(live.base + "/#/")
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp  # the test means something
    page.click('button[data-lang="uk"]')
    page.wait_for_function("() => document.documentElement.lang === 'uk'")
    page.click('button[data-lang="en"]')
    create_in_lobby(page, live.base, "red-north", ["random"], name="Csp")
    gid = game_id(page)
    page.wait_for_selector(".rn-board")
    tool(page, ".info").click()
    page.wait_for_selector(".info-card")
    page.keyboard.press("Escape")
    play_until_end(page, random.Random(21))
    page.wait_for_selector(".endcard .chart")
    page.click(".endcard .verify")
    page.wait_for_selector(".endcard .verify-status .ok")
    assert "Deal verified" in page.inner_text(".endcard .fairness")
    page.locator(".endcard .fairness").scroll_into_view_if_needed()
    shot(page, "end-screen-deal-verified", full_page=False)
    page.set_viewport_size(PHONE)
    page.locator(".endcard .fairness").scroll_into_view_if_needed()
    fully_visible(page, ".endcard .fairness .verify-status")
    shot(page, "end-screen-deal-verified-phone", full_page=False)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live.base}/#/replay/{gid}")
    page.wait_for_selector(".scrubber .range")
    # a replay opens at the setup; step to the end and back through the scrubber's buttons
    page.wait_for_function("() => document.querySelector('.step-label').textContent === 'Setup'")
    page.click(".scrubber button[data-act=last]")
    page.wait_for_function("() => document.querySelector('.step-label').textContent !== 'Setup'")
    page.click(".scrubber button[data-act=first]")
    page.wait_for_function("() => document.querySelector('.step-label').textContent === 'Setup'")
    page.goto(f"{live.base}/#/calc")
    page.wait_for_selector('[data-picker="hand0"]')
    assert page.evaluate("window.__csp") == []


def test_the_csp_watch_sees_a_violation(live, browser):
    """The watch every page carries (conftest) does report an inline style: the tests above would fail."""
    from webkit import CSP_WATCH  # (not "from conftest": tests/server has a conftest module too)

    ctx = browser.new_context()
    try:
        ctx.add_init_script(CSP_WATCH)
        page = ctx.new_page()
        page.goto(live.base + "/#/")
        page.wait_for_selector(".newgame")
        page.evaluate("document.body.setAttribute('style', 'outline: 1px solid red')")
        page.wait_for_function("() => window.__csp.length > 0")
        assert "style-src" in page.evaluate("window.__csp[0]")
    finally:
        ctx.close()


# ---------------------------------------------------------------------- errors and presets
def test_rate_limit_is_told_politely(live, new_page, console):
    console.allow("status of 429")
    page = new_page(label="slow: ")
    page.route(
        "**/api/games",
        lambda route: (
            route.fulfill(
                status=429,
                content_type="application/json",
                headers={"Retry-After": "7"},
                body=json.dumps(
                    {
                        "error": "rate_limited",
                        "message": "too many create requests from your address; try again in 7 s",
                        "retry_after": 7,
                    }
                ),
            )
            if route.request.method == "POST"
            else route.fallback()
        ),
    )
    create_in_lobby(page, live.base, "red-north", ["random"], name="Ann")
    page.wait_for_selector(".form-error")
    assert page.inner_text(".form-error") == "Slow down: too many requests. Try again in 7 s."


def test_lobby_offers_exactly_the_server_bot_presets(live, new_page):
    presets = http("GET", f"{live.base}/api/titles")[1][0]["bots"]
    assert presets == ["random", "heuristic", "ismcts:0.2s", "ismcts:1s", "expert:1s"]
    page = new_page(label="presets: ")
    page.goto(live.base + "/#/")
    page.wait_for_selector('.seat-row[data-seat="1"] .seat-bot')
    labels = {}
    for lang in ("en", "uk", "pl"):
        page.click(f'button[data-lang="{lang}"]')
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        opts = page.eval_on_selector_all(
            '.seat-row[data-seat="1"] .seat-bot option', "els => els.map(e => [e.value, e.textContent])"
        )
        assert [v for v, _ in opts] == presets
        assert all(label and label != v and not label.startswith("bot.") for v, label in opts), opts
        labels[lang] = [label for _, label in opts]
    assert labels["en"] != labels["uk"] != labels["pl"]
    assert page.evaluate("window.__i18nMissing()") == []
    page.click('button[data-lang="en"]')


def test_a_rate_limited_websocket_waits_then_reconnects(live, new_page):
    """A socket refused with 4029 tells the wait, and the page comes back after retry_after, not before."""
    import pytest

    g = new_game(live, "red-north", [{"type": "human"}, {"type": "bot"}])
    page = new_page(label="ws-429: ")
    if not hasattr(page, "route_web_socket"):
        pytest.skip("Playwright without route_web_socket (1.48+)")
    seen = {"sockets": 0, "first": []}

    def handler(ws):
        seen["sockets"] += 1
        if seen["sockets"] == 1:

            def refuse(message):
                seen["first"].append(message)
                ws.send(
                    json.dumps(
                        {
                            "type": "error",
                            "error": "rate_limited",
                            "retry_after": 1,
                            "message": "too many WebSockets from your address; try again in 1 s",
                        }
                    )
                )
                ws.close(code=4029, reason="rate limited")

            ws.on_message(refuse)
        else:
            ws.connect_to_server()

    page.route_web_socket(re.compile(r".*/api/games/[^/]+/ws$"), handler)
    page.goto(f"{live.base}/#/game/{g['game_id']}?watch=1")
    page.wait_for_selector(".toast")
    assert "Try again in 1 s" in page.inner_text(".toasts")
    assert json.loads(seen["first"][0]) == {"type": "auth", "token": None}  # a spectator's auth
    page.wait_for_selector(".conn.reconnecting")
    page.wait_for_selector(".rn-board .outpost")
    page.wait_for_selector(".conn.open")
    page.wait_for_timeout(300)
    assert seen["sockets"] == 2
