"""The browser UI in real headless Chromium, against the real server: whole games played by
clicking, two players in two browser contexts, the languages, the score calculator,
reconnecting, undo, the replay scrubber, keyboard and phone-sized screens.

Screenshots are kept under ``artifacts/screenshots/``. Every test fails on a console error.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from webkit import CHOICES, READY, click_random_choice, create_in_lobby, http, play_until_end, shot, tool


def game_id(page) -> str:
    page.wait_for_function("() => location.hash.startsWith('#/game/')")
    return page.evaluate("() => location.hash.split('/')[2].split('?')[0]")


def server_state(live, gid: str) -> dict:
    return http("GET", f"{live.base}/api/games/{gid}?events=false")[1]


def end_totals(page) -> list[int]:
    return [int(x) for x in page.eval_on_selector_all(".endcard .row-total td", "els => els.map(e => e.textContent)")]


# ---------------------------------------------------------------------- whole games against bots
def test_red_rising_full_game_against_bots(live, new_page):
    page = new_page(label="rr: ")
    # a fixed deal: the first wait below is for our own turn, which a random deal could
    # precede with a question asked of us in a bot's turn
    create_in_lobby(page, live.base, "red-rising", ["random", "random"], name="Ann", seed=11)
    gid = game_id(page)
    page.wait_for_selector(".rr-board .rr-loc")
    page.wait_for_function(READY)
    # the table shows what the rules let a player see
    assert page.locator(".rr-loc").count() == 4
    assert page.locator(".rr-player").count() == 3
    assert page.locator(".rr-hand .rcard").count() >= 5
    # every card on the locations is drawn (the top one whole, the others as strips)
    page.wait_for_function("""() => {
        const locs = Object.values(window.__session.snap.view.locations);
        return document.querySelectorAll('.rr-loc .rcard').length === locs.flat().length
            && document.querySelectorAll('.rr-loc .rcard.full').length === locs.filter((l) => l.length).length;
    }""")
    shot(page, "rr-table-start")

    # undo: deploy a card, take it back (a deploy uses no chance and reveals nothing)
    page.wait_for_function(
        "() => { const s = window.__session && window.__session.snap; "
        "return s && s.decision && s.decision.player === s.seat && s.decision.kind === 'action'; }"
    )
    page.wait_for_selector(".rr-hand .rcard.choice")
    version = server_state(live, gid)["version"]
    page.click(".rr-hand .rcard.choice")
    page.wait_for_selector(".rr-loc.choice")
    shot(page, "rr-deploy-location")
    page.wait_for_selector(".undo:not([disabled])")
    page.click(".undo")
    page.wait_for_function(f"() => window.__session && window.__session.snap.version > {version + 1}")
    page.wait_for_selector(".rr-hand .rcard.choice")
    assert server_state(live, gid)["decision"]["kind"] == "action"

    rnd = random.Random(7)
    shots = {10: "rr-table-mid", 60: "rr-table-late"}
    play_until_end(page, rnd, on_decision=lambda n: shot(page, shots[n]) if n in shots else None)
    page.wait_for_selector(".endcard .scorepad")
    state = server_state(live, gid)
    assert state["status"] == "finished"
    assert end_totals(page) == [s["total"] for s in state["view"]["scores"]]
    page.wait_for_selector(".endcard .chart")
    page.wait_for_selector(".endcard .final-hands .final-card")
    shot(page, "rr-end-screen")
    # the log is readable: sentences, turn headers
    page.click(".close-end")
    assert page.locator(".log-lines .logline.turn").count() >= 3
    assert "Ann" in page.inner_text(".log-lines")


def test_red_north_full_game_against_bots(live, new_page):
    page = new_page(label="rn: ")
    create_in_lobby(page, live.base, "red-north", ["random", "random"], name="Björn")
    gid = game_id(page)
    page.wait_for_selector(".rn-board .outpost")
    page.wait_for_function(READY)
    assert page.locator(".outpost").count() == 4  # green + one per player
    assert page.locator(".rn-seat").count() == 3
    assert page.locator(".mgroup").count() == 4  # one more Muster Group than players
    shot(page, "rn-table-start")
    rnd = random.Random(3)
    shots = {4: "rn-table-deployed", 9: "rn-table-actions"}
    play_until_end(page, rnd, on_decision=lambda n: shot(page, shots[n]) if n in shots else None)
    page.wait_for_selector(".endcard .scorepad")
    state = server_state(live, gid)
    assert state["status"] == "finished"
    assert end_totals(page) == state["view"]["result"]["vp"]
    page.wait_for_selector(".endcard .chart")
    shot(page, "rn-end-screen")


# ---------------------------------------------------------------------- two people
def test_two_browser_contexts_play_each_other(live, new_page):
    host = new_page(label="host: ")
    create_in_lobby(host, live.base, "red-north", [], humans=2, name="Host", speed="instant")
    host.wait_for_selector(".waitroom .invite-url")  # (the table page waits for the guest: waitroom.js)
    shot(host, "lobby-invites", full_page=False)
    invite = host.input_value(".waitroom .invite-url")
    assert "/join/" in invite and "#" in invite  # the invite rides in the fragment
    gid = game_id(host)

    guest = new_page(label="guest: ")
    guest.goto(invite)
    guest.wait_for_selector(".join-btn")
    guest.fill("#join-name", "Guest")
    shot(guest, "join-page", full_page=False)
    guest.click(".join-btn")
    assert game_id(guest) == gid
    assert invite.split("#", 1)[1] not in guest.url  # used: gone from the address bar
    guest.wait_for_selector(".rn-board")
    # both see both names; the host sees the guest online
    host.wait_for_function("() => document.querySelector('.rn-board').innerText.includes('Guest')")
    rnd = random.Random(11)
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
            if decisions == 8:
                shot(host, "two-players-host")
                shot(guest, "two-players-guest")
        assert decisions < 400
    for p in pages:
        p.wait_for_selector(".endcard .scorepad")
    assert end_totals(host) == end_totals(guest) == server_state(live, gid)["view"]["result"]["vp"]
    shot(guest, "two-players-end")


# ---------------------------------------------------------------------- languages
def test_language_switch(live, new_page):
    page = new_page(label="lang: ")
    page.goto(live.base + "/#/")
    page.wait_for_selector(".newgame")
    assert page.inner_text(".mainnav").startswith("Lobby")
    page.click('button[data-lang="uk"]')
    page.wait_for_function("() => document.documentElement.lang === 'uk'")
    assert "Лобі" in page.inner_text(".mainnav")
    assert "Червоний світанок" in page.inner_text(".newgame")
    shot(page, "lobby-uk", full_page=False)
    create_in_lobby(page, live.base, "red-rising", ["random", "random"], name="Оля")
    game_id(page)
    page.wait_for_selector(".rr-board .rr-loc")
    page.wait_for_function(READY)
    board = page.inner_text(".rr-board").lower()
    for term in ("Юпітер", "Марс", "Місяць", "Інститут", "Трек флоту", "Ваша рука"):
        assert term.lower() in board, term
    assert "ваше рішення" in page.inner_text(".prompt").lower()
    shot(page, "rr-table-uk")
    page.click('button[data-lang="pl"]')
    page.wait_for_function("() => document.documentElement.lang === 'pl'")
    page.wait_for_function(
        "() => document.querySelector('.rr-board') && document.querySelector('.rr-board').innerText.includes('Jowisz')"
    )
    board = page.inner_text(".rr-board").lower()
    for term in ("Jowisz", "Mars", "Luna", "Instytut", "Tor Floty", "Twoja ręka"):
        assert term.lower() in board, term
    assert "twoja decyzja" in page.inner_text(".prompt").lower()
    # the cards speak Polish now, the card inspector included (nothing left over in Ukrainian)
    import re as _re

    page.wait_for_function("() => !/[\u0400-\u04ff]/.test(document.querySelector('.rr-hand').innerText)")
    assert not _re.search("[\u0400-\u04ff]", page.inner_text(".inspector"))
    shot(page, "rr-table-pl")
    # the choice is remembered
    page.reload()
    page.wait_for_selector(".rr-board .rr-loc")
    assert page.evaluate("document.documentElement.lang") == "pl"
    assert page.evaluate("window.__i18nMissing()") == []
    page.click('button[data-lang="en"]')
    page.wait_for_function("() => document.documentElement.lang === 'en'")


def test_red_north_in_ukrainian(live, new_page):
    page = new_page(label="rn-uk: ", locale="uk-UA")
    page.goto(live.base + "/#/")
    page.wait_for_function("() => document.documentElement.lang === 'uk'")  # from the browser's language
    create_in_lobby(page, live.base, "red-north", ["random"], name="Оля")
    game_id(page)
    page.wait_for_selector(".rn-board .outpost")
    page.wait_for_function(READY)
    text = page.inner_text(".rn-board").lower()
    for term in ("Весна", "Групи збору", "Ваша рука", "ПО", "рейдер", "очко набігу"):
        assert term.lower() in text, term
    shot(page, "rn-table-uk")
    play_until_end(page, random.Random(5))
    assert "гру завершено" in page.inner_text(".endcard").lower()
    shot(page, "rn-end-uk")
    assert page.evaluate("window.__i18nMissing()") == []


# ---------------------------------------------------------------------- the score calculator
CALC_POSITION = {
    "players": [
        {
            "name": "Ann",
            "hand": ["Darrow", "Trigg", "Cyther", "Eo", "Harmony"],
            "fleet": 6,
            "helium": 4,
            "influence": 7,
        },
        {
            "name": "Bo",
            "hand": ["Mustang", "Sevro", "Bridge", "Gravboot Cobbler", "Quicksilver", "Judge", "Justice", "Orator"],
            "fleet": 2,
            "helium": 1,
            "influence": 3,
            "sovereign": True,
        },
        {
            "name": "Cy",
            "hand": ["Ragnar", "Sefi", "Holiday", "Hacker"],
            "fleet": 10,
            "helium": 0,
            "influence": 10,
            "extra_points": 12,
        },
    ],
    "locations": {"jupiter": ["Dancer", "Arlus"], "mars": ["Pelus"], "luna": [], "institute": ["Virga"]},
    "banished": ["Uncle Narol", "Deanna"],
}


@pytest.mark.multiprocess
def test_score_calculator_matches_the_score_command(live, new_page, tmp_path):
    page = new_page(label="calc: ")
    page.goto(live.base + "/#/calc")
    page.wait_for_selector('[data-picker="hand0"]')
    page.click(".add-player")
    for i, p in enumerate(CALC_POSITION["players"]):
        box = f'[data-player="{i}"]'
        page.fill(f"{box} .pname", p["name"])
        for card in p["hand"]:
            page.fill(f'[data-picker="hand{i}"]', card)
            page.press(f'[data-picker="hand{i}"]', "Enter")
        for field in ("fleet", "helium", "influence"):
            page.fill(f"{box} input.{field}", str(p[field]))
            page.press(f"{box} input.{field}", "Tab")
        if p.get("extra_points"):
            page.fill(f"{box} input.extra", str(p["extra_points"]))
            page.press(f"{box} input.extra", "Tab")
        if p.get("sovereign"):
            page.check(f"{box} input.sov")
    for loc, cards in [*CALC_POSITION["locations"].items(), ("banished", CALC_POSITION["banished"])]:
        for card in cards:
            page.fill(f'[data-picker="{loc}"]', card)
            page.press(f'[data-picker="{loc}"]', "Enter")
    page.click(".score-btn")
    page.wait_for_selector(".calc-result .scorepad")
    shot(page, "calculator")
    ui = {
        row: [
            int(x)
            for x in page.eval_on_selector_all(
                f'.calc-result td[data-row="{row}"]', "els => els.map(e => e.textContent)"
            )
        ]
        for row in ("cards", "fleet", "helium", "sovereignty", "influence", "excess_cards", "total")
    }
    f = tmp_path / "final.json"
    f.write_text(json.dumps(CALC_POSITION))
    out = subprocess.run(
        [sys.executable, "-m", "redtable.cli", "score", "red-rising", str(f), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    cli = json.loads(out.stdout)
    for row, values in ui.items():
        assert values == [p[row] for p in cli["players"]], row
    winner_names = [page.inner_text(".calc-result .winner")]
    assert all(w in winner_names[0] for w in cli["winners"])
    # the best Gray and Orange choices are shown
    for p in cli["players"]:
        for card in {**p["choices"]["as_color"], **p["choices"]["as_name"]}:
            assert card in page.inner_text(".calc-result")
    # a phone-sized screen reads the same page without sideways scrolling
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(100)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, "calculator-phone")


# ---------------------------------------------------------------------- connection, replay, keyboard, phone
def test_reconnect_after_a_dropped_connection(live, new_page):
    page = new_page(label="reconnect: ")
    create_in_lobby(page, live.base, "red-rising", ["random"], name="Ann")
    gid = game_id(page)
    page.wait_for_function(READY)
    page.evaluate("window.__session.drop()")
    page.wait_for_selector(".conn.reconnecting, .conn.connecting", timeout=5000)
    page.wait_for_selector(".conn.open", timeout=15000)
    page.wait_for_function(READY)
    before = server_state(live, gid)["version"]
    rnd = random.Random(1)
    # a presence notice after the reconnect may re-render the board under the click: look again
    assert any(click_random_choice(page, rnd) for _ in range(10))
    page.wait_for_function(f"() => window.__session.snap.version > {before}")


def test_keyboard_only_decision(live, new_page):
    page = new_page(label="keys: ")
    create_in_lobby(page, live.base, "red-rising", ["random"], name="Kim")
    gid = game_id(page)
    # our own turn: a decision asked of us in the bot's turn first (a block, say; the lobby
    # deals a random game) is answered through the session, not the keyboard
    for _ in range(20):
        page.wait_for_function(
            "() => { const s = window.__session && window.__session.snap; "
            "return s && s.decision && s.decision.player === s.seat; }"
        )
        snap = page.evaluate("({kind: window.__session.snap.decision.kind, version: window.__session.snap.version})")
        if snap["kind"] == "action":
            break
        page.evaluate(
            "(() => { const d = window.__session.snap.decision; "
            "window.__session.decide(d.options[d.options.length - 1]); })()"
        )
        page.wait_for_function(f"() => window.__session.snap.version > {snap['version']}")
    else:
        raise AssertionError("our turn never came")
    page.wait_for_function(READY)
    before = server_state(live, gid)["version"]
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.classList.contains('choice')"):
            break
    else:
        raise AssertionError("no choice reachable with Tab")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.__session.snap.version > {before}")
    # the next decision (where to deploy) is reachable by keyboard too
    page.wait_for_selector(".rr-loc.choice")
    page.focus(".rr-loc.choice")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.__session.snap.version > {before + 1}")


def test_replay_scrubber_and_spectator(live, new_page):
    gid = http(
        "POST",
        f"{live.base}/api/games",
        {"game": "red-rising", "seats": [{"type": "bot"}, {"type": "bot"}], "seed": 11},
    )[1]["game_id"]
    page = new_page(label="replay: ")
    page.goto(f"{live.base}/#/")
    page.wait_for_selector(f'.game-row[data-game="{gid}"], .tab[data-tab="finished"]')
    page.wait_for_function(
        f"() => fetch('/api/games/{gid}?events=false').then(r => r.json()).then(g => g.status === 'finished')"
    )
    page.click('.tab[data-tab="finished"]')
    page.click(".refresh")
    page.wait_for_selector(f'.game-row[data-game="{gid}"] .replay')
    page.click(f'.game-row[data-game="{gid}"] .replay')
    page.wait_for_selector(".scrubber .range")
    page.wait_for_selector(".rr-board")
    steps = int(page.get_attribute(".scrubber .range", "max"))
    assert steps > 10
    assert page.locator(".rr-hand.spectator").count() == 1  # a spectator sees no hand
    # a replay opens at the setup (First is then unavailable: aria-disabled)
    page.wait_for_function("() => document.querySelector('.step-label').textContent === 'Setup'")
    assert page.get_attribute(".scrubber button[data-act=first]", "aria-disabled") == "true"
    assert page.locator(".rr-loc .rcard").count() == 8
    page.click(".replay-turns .mode-decision")  # one decision a step (by turn: test_web_story.py)
    page.click(".scrubber button[data-act=next]")
    page.wait_for_function("() => document.querySelector('.step-label').textContent.startsWith('Step 1 ')")
    page.fill(".scrubber .range", str(steps // 2))
    page.wait_for_function(f"() => document.querySelector('.step-label').textContent.startsWith('Step {steps // 2} ')")
    shot(page, "replay")
    page.click(".scrubber button[data-act=last]")
    page.wait_for_selector(".prompt .btn")
    page.click(".prompt .btn")
    page.wait_for_selector(".endcard .scorepad")


def test_watch_a_running_game_on_a_phone(live, new_page):
    made = http(
        "POST",
        f"{live.base}/api/games",
        {"game": "red-rising", "seats": [{"type": "human"}, {"type": "bot"}, {"type": "bot"}, {"type": "bot"}]},
    )[1]
    gid = made["game_id"]
    # the person's seat is taken, so the game runs (a game waits for its people: the waiting room)
    assert http("POST", f"{live.base}/api/games/{gid}/join", {"invite": made["seats"][0]["invite"]})[0] == 200
    page = new_page(width=390, height=844, label="phone: ", is_mobile=True, has_touch=True)
    page.goto(f"{live.base}/#/game/{gid}?watch=1")
    page.wait_for_selector(".rr-board .rr-loc")
    page.wait_for_selector(".prompt .prompt-wait")
    assert "Spectating" in page.inner_text(".rr-hand")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, "rr-phone-spectator")
    tool(page, ".logtoggle").click()  # (on a phone the control may sit in the "More" menu)
    page.wait_for_selector(".log-lines .logline")
    shot(page, "rr-phone-log", full_page=False)


def test_phone_player_plays_red_north(live, new_page):
    page = new_page(width=390, height=844, label="phone-rn: ", is_mobile=True, has_touch=True)
    create_in_lobby(page, live.base, "red-north", ["random"], name="Siv")
    game_id(page)
    page.wait_for_selector(".rn-board")
    page.wait_for_function(READY)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, "rn-phone")
    play_until_end(page, random.Random(9))
    shot(page, "rn-phone-end", full_page=False)


# ---------------------------------------------------------------------- a block in another player's turn
def find_block(kinds=("block", "block_sovereign"), block_windows=False, auto=False):
    """A seed and the decisions that lead a 2-player game to seat 0 being asked to block in
    seat 1's turn (``auto``: a window seat 0 cannot use, which the server answers)."""
    from redtable.core import make_game

    for seed in range(2000):
        st = make_game("red-rising", 2, block_windows=block_windows).new_initial_state(seed)
        rnd, actions = random.Random(seed), []
        while not st.is_terminal():
            d = st.decision()
            if (
                d.kind in kinds
                and d.player == 0
                and st.view(0)["current_turn"] == 1
                and (st.idle_window() is not None) == auto
            ):
                return seed, actions, d
            a = rnd.choice(d.options)
            actions.append(a)
            st.apply(a)
    raise AssertionError("no block found")


def test_block_in_another_players_turn_is_a_prompt(live, new_page):
    seed, actions, d = find_block()
    g = http(
        "POST",
        f"{live.base}/api/games",
        {
            "game": "red-rising",
            "seed": seed,
            "options": {"block_windows": False},
            "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bo"}],
        },
    )[1]
    gid = g["game_id"]
    tokens = [
        http("POST", f"{live.base}/api/games/{gid}/join", {"invite": s["invite"]})[1]["token"] for s in g["seats"]
    ]
    for version, action in enumerate(actions):
        seat = server_state(live, gid)["decision"]["player"]
        status, body = http(
            "POST", f"{live.base}/api/games/{gid}/decisions", {"action": action, "version": version}, tokens[seat]
        )
        assert status == 200, body
    page = new_page(label="block: ")
    page.goto(live.base + g["seats"][0]["invite_url"])
    page.click(".join-btn")
    page.wait_for_selector(".prompt.mine.urgent")
    text = page.inner_text(".prompt")
    assert "Bo" in text and "Block" in text
    blocker = d.options[0].split(":", 1)[1]
    # the blocker glows in the hand, and the prompt offers both answers
    page.wait_for_selector(f'.rr-hand .rcard.choice[data-card="{blocker}"]')
    assert page.locator('.prompt [data-action="no"]').count() == 1
    assert page.locator(f'.prompt [data-action="block:{blocker}"]').count() == 1
    shot(page, "rr-block-prompt")
    page.click(f'.prompt [data-action="block:{blocker}"]')
    page.wait_for_function(f"() => window.__session.snap.version > {len(actions)}")
    assert any(e["kind"] == "block" for e in http("GET", f"{live.base}/api/games/{gid}/log")[1]["log"][-1]["events"])
