"""Accounts and ratings in the browser: two people register (two browser contexts, a desktop and
a phone), one creates a rated 2-player Red North game in the lobby, the other logs in on the
invite's join page and takes the seat (each from a network of its own: X-Forwarded-For), they
play it to the end by clicking, and both profiles then show the ratings OpenSkill computes
from the result (computed here with openskill itself), marked provisional; the leaderboard
lists the bots, and not people with fewer than 10 rated games against people. Screenshots
in ``artifacts/screenshots/``.
"""

from __future__ import annotations

import random
import time
import uuid

import pytest
from openskill.models import PlackettLuce
from webkit import CHOICES, click_random_choice, http, shot

from redtable.server.ratings import places_of, rated_bots

PASSWORD = "a long enough password"
PHONE = {"width": 390, "height": 844}


def expected_ratings(result: dict) -> list[tuple[float, float]]:
    model = PlackettLuce()
    places = places_of(result, 2)
    out = model.rate([[model.rating()], [model.rating()]], ranks=places)
    return [(t[0].mu, t[0].sigma) for t in out]


def shown(x: float) -> str:
    """How the page writes an ordinal: one decimal."""
    return f"{round(x * 10) / 10:.1f}"


def register_in_page(page, username: str) -> None:
    page.wait_for_selector(".account-form")
    page.click('.account-form .tab[data-mode="register"]')
    page.fill("#acct-user", username)
    page.fill("#acct-pass", PASSWORD)
    page.click(".account-submit")


def play_against_bot(base: str, gid: str, token: str) -> None:
    """Random legal decisions for the person's seat until the game ends (the bot plays itself)."""
    rnd = random.Random(4)
    for _ in range(3000):
        st = http("GET", f"{base}/api/games/{gid}?events=false", token=token)[1]
        if st["status"] != "active":
            return
        d = st["decision"]
        if d is None or d["player"] != st["seat"] or d.get("auto"):
            time.sleep(0.02)
            continue
        http(
            "POST",
            f"{base}/api/games/{gid}/decisions",
            {"action": rnd.choice(d["options"]), "version": st["version"]},
            token,
        )
    raise AssertionError("the game against the bot did not end")


def game_id(page) -> str:
    page.wait_for_function("() => location.hash.startsWith('#/game/')")
    return page.evaluate("() => location.hash.split('/')[2].split('?')[0]")


def test_two_accounts_play_a_rated_game_and_both_ratings_move_as_openskill_says(live, new_page):
    ann, bo = f"Ann{uuid.uuid4().hex[:6]}", f"Bo{uuid.uuid4().hex[:6]}"
    host = new_page(label="host: ", extra_http_headers={"X-Forwarded-For": "198.51.100.41"})
    host.goto(live.base + "/#/register")
    shot(host, "account-register", full_page=False)
    register_in_page(host, ann)
    host.wait_for_selector(".profile-name")
    assert host.inner_text(".topbar .account-name") == ann  # the top bar shows who is logged in
    cookie = next(c for c in host.context.cookies() if c["name"] == "redtable_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert host.evaluate("() => document.cookie") == ""  # the page's scripts never see the session

    # the lobby: a rated 2-player Red North game (undo and seed are off while "rated" is ticked)
    host.goto(live.base + "/#/")
    host.wait_for_selector(".newgame .create")
    host.click('.title-tile[data-title="red-north"]')
    while len(host.query_selector_all(".seat-row")) > 2:
        host.click(".seat-row:last-child .remove")
    host.click('.seat-row[data-seat="1"] .seg button[data-type="human"]')
    host.fill('.seat-row[data-seat="0"] .seat-name', ann)
    host.select_option("select[name=speed]", "instant")
    host.check("input[name=rated]")
    assert host.is_disabled("input[name=undo]") and not host.is_checked("input[name=undo]")
    assert host.is_disabled("input[name=seed]")
    shot(host, "lobby-rated-form", full_page=False)
    host.click(".create")
    host.wait_for_selector(".waitroom .invite-url")  # (the table page waits for the guest: waitroom.js)
    invite = host.input_value(".waitroom .invite-url")
    gid = game_id(host)
    info = http("GET", f"{live.base}/api/games/{gid}?events=false")[1]
    assert info["rated"] is True and info["undo"] is False and info["seed_chosen_by_creator"] is False
    assert info["clock"]["kind"] == "realtime"  # (ticking "rated" chose a clock: a rated game has one)

    # the guest, on a phone: the join page asks for an account first
    guest = new_page(label="guest: ", extra_http_headers={"X-Forwarded-For": "198.51.100.42"}, **PHONE)
    guest.goto(invite)
    guest.wait_for_selector(".rated-note")
    assert guest.query_selector(".join-btn") is None
    shot(guest, "join-rated-login-phone")
    register_in_page(guest, bo)
    guest.wait_for_selector(".join-btn")
    guest.click(".join-btn")
    assert game_id(guest) == gid
    guest.wait_for_selector(".rn-board")

    rnd = random.Random(15)
    pages = [host, guest]
    decisions = 0
    while True:
        for p in pages:
            p.wait_for_function("() => !document.querySelector('.table-shell.busy')")
        if all(p.query_selector(".overlay .endcard") for p in pages):
            break
        mover = next((p for p in pages if p.query_selector(CHOICES)), None)
        if mover is None:
            pages[0].wait_for_timeout(50)
            continue
        if click_random_choice(mover, rnd):
            decisions += 1
        assert decisions < 400
    result = http("GET", f"{live.base}/api/games/{gid}?events=false")[1]["result"]
    host.goto(live.base + "/#/")  # the lobby marks it rated
    host.click('.tab[data-tab="finished"]')
    host.wait_for_selector(f'.game-row[data-game="{gid}"] .badge.rated')
    want = expected_ratings(result)

    for page, name, seat, size in ((host, ann, 0, "desktop"), (guest, bo, 1, "phone")):
        mu, sigma = want[seat]
        # the API holds OpenSkill's numbers exactly ...
        deadline = 50
        prof = {}
        while deadline:
            prof = http("GET", f"{live.base}/api/players/{name}")[1]
            if "red-north" in prof.get("ratings", {}):
                break
            page.wait_for_timeout(100)
            deadline -= 1
        r = prof["ratings"]["red-north"]
        assert r["games"] == 1
        assert r["mu"] == pytest.approx(mu, abs=1e-6) and r["sigma"] == pytest.approx(sigma, abs=1e-6)
        # ... and the profile page shows them
        page.goto(f"{live.base}/#/players/{name}")
        card = '.rating-card[data-title="red-north"]'
        page.wait_for_selector(card + " .rating-detail")
        assert page.inner_text(card + " .rating-value .badge.provisional") == "provisional"  # (one game)
        assert page.inner_text(card + " .rating-value").startswith(shown(mu - 3 * sigma))
        assert f"{mu:.1f} ± {sigma:.1f}" in page.inner_text(card + " .rating-detail")
        assert page.inner_text('.rating-card[data-title="red-rising"] .rating-value') == "—"
        page.wait_for_selector('.rating-chart[data-title="red-north"] svg.chart')
        won = int(seat in result["winners"])
        row = '.stats-table tr[data-title="red-north"][data-players="2"]'
        assert page.inner_text(row + " .played") == "1" and page.inner_text(row + " .won") == str(won)
        assert page.get_attribute(f'.recent-game[data-game="{gid}"] a.replay', "href") == f"#/replay/{gid}"
        shot(page, f"profile-{size}")

    # the leaderboard: the bots marked as bots at their fixed ratings; one rated game is not enough to be listed
    for page, size in ((host, "desktop"), (guest, "phone")):
        page.goto(f"{live.base}/#/leaderboard/red-north")
        page.wait_for_selector(".board-table")
        text = page.inner_text(".board-table")
        assert ann not in text and bo not in text
        assert "at least 10" in page.inner_text(".board")
        assert len(page.query_selector_all(".board-table tr.bot")) == len(rated_bots("red-north"))
        shot(page, f"leaderboard-{size}")

    # a rated game against the random bot: the rating against bots moves, shown beside the presets'
    made = host.evaluate(
        """async () => {
        const s = await (await fetch('/api/session')).json();
        const headers = {'Content-Type': 'application/json', 'X-CSRF-Token': s.csrf};
        const body = {game: 'red-north', seats: [{type: 'human'}, {type: 'bot', bot: 'random'}], rated: true,
                      clock: {kind: 'turn'}};
        const g = await (await fetch('/api/games', {method: 'POST', headers, body: JSON.stringify(body)})).json();
        const j = await fetch(`/api/games/${g.game_id}/join`, {method: 'POST', headers,
                              body: JSON.stringify({invite: g.seats[0].invite})});
        return {gid: g.game_id, token: (await j.json()).token};
    }"""
    )
    play_against_bot(live.base, made["gid"], made["token"])
    for _ in range(100):
        if "red-north" in http("GET", f"{live.base}/api/players/{ann}")[1]["bot_ratings"]:
            break
        host.wait_for_timeout(100)
    for page, size in ((host, "desktop"), (guest, "phone")):
        page.goto(f"{live.base}/#/players/{ann}")
        page.wait_for_selector('.bot-ratings [data-title="red-north"] tr.me')
        rows = page.query_selector_all('.bot-ratings [data-title="red-north"] tbody tr')
        assert len(rows) == 1 + len(rated_bots("red-north"))
        assert "provisional" in page.inner_text(".bot-ratings tr.me")
        assert page.inner_text('.rating-card[data-title="red-north"] .rating-detail').endswith(
            "1 rated game"
        )  # people's
        page.query_selector(".bot-ratings").scroll_into_view_if_needed()
        shot(page, f"profile-vs-bots-{size}", full_page=False)

    # log out from the top bar (the write carries the CSRF token): the log-in link is back
    host.click(".topbar-logout")
    host.wait_for_selector(".topbar .login-link")
    assert http("GET", f"{live.base}/api/session")[1]["logged_in"] is False
