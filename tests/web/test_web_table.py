"""The game table's behaviour in real Chromium: the log that follows the newest event, the
"new events" button, the end screen's scorepad on a phone, the replay's keys, the running
score panel, the turn chime and the tab title's marker.

Screenshots go to artifacts/screenshots/table-*.png. Every test fails on a console error.
"""

from __future__ import annotations

import random
import re

import pytest
from webkit import READY, click_random_choice, http, play_until_end, shot, tool

# A stand-in for WebAudio (headless Chromium has no sound card): counts the tones started.
FAKE_AUDIO = """
window.__tones = 0;
(() => {
  class Param { setValueAtTime() {} exponentialRampToValueAtTime() {} linearRampToValueAtTime() {} }
  class Node { constructor() { this.gain = new Param(); this.frequency = new Param(); this.type = ""; }
               // (the chime's notes are sine; sounds.js's others are not)
               connect() {} start() { if (this.type === "sine") window.__tones += 1; } stop() {} }
  window.AudioContext = class { constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
    createGain() { return new Node(); } createOscillator() { return new Node(); }
    resume() { return Promise.resolve(); } };
})();
"""

SETTLED = (
    "() => { const s = window.__session && window.__session.snap; const p = document.querySelector('.prompt');"
    " return !!s && !!p && String(p.dataset.version) === String(s.version); }"
)
NEWEST_VISIBLE = """() => {
  const ol = document.querySelector('.log-lines');
  const last = ol && ol.lastElementChild;
  if (!last) return {ok: false, why: 'no log line'};
  const a = ol.getBoundingClientRect(), b = last.getBoundingClientRect();
  return {ok: a.height > 0 && b.bottom <= a.bottom + 1 && b.top >= a.top - 1,
          onScreen: b.top >= 0 && b.bottom <= innerHeight + 1,
          why: `list ${Math.round(a.top)}..${Math.round(a.bottom)} newest ${Math.round(b.top)}..${Math.round(b.bottom)}`
            + ` window ${innerHeight}`,
          lines: ol.children.length, text: last.textContent};
}"""


def frames(page, n: int = 2) -> None:
    """Let ``n`` animation frames pass (renders and resize observers run)."""
    page.evaluate(
        f"() => new Promise((r) => {{ let k = {n}; const f = () => (--k ? requestAnimationFrame(f) : r());"
        " requestAnimationFrame(f); })"
    )


def join_game(
    page,
    live,
    game: str,
    bots: list[str],
    seed: int | None = None,
    bot_delay: float = 0.0,
    name: str = "Ann",
    options: dict | None = None,
) -> tuple[str, str]:
    """A game with us in seat 0 and ``bots`` after us, joined through the invite link: (id, our token)."""
    body = {
        "game": game,
        "seats": [{"type": "human", "name": name}] + [{"type": "bot", "bot": b} for b in bots],
        "bot_delay": bot_delay,
        "options": options or {},
    }
    if seed is not None:
        body["seed"] = seed
    status, g = http("POST", f"{live.base}/api/games", body)
    assert status == 201, g
    page.goto(live.base + g["seats"][0]["invite_url"])
    page.click(".join-btn")
    page.wait_for_function("() => location.hash.startsWith('#/game/')")
    page.wait_for_selector(".board .rr-board, .board .rn-board")
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('redtable.seats'))['{g['game_id']}'].token")
    return g["game_id"], token


def bots_game(live, game: str, players: int, seed: int, bot_delay: float = 0.0) -> str:
    status, g = http(
        "POST",
        f"{live.base}/api/games",
        {"game": game, "seed": seed, "bot_delay": bot_delay, "seats": [{"type": "bot"}] * players},
    )
    assert status == 201, g
    return g["game_id"]


def wait_finished(page, live, gid: str) -> None:
    page.wait_for_function(
        f"() => fetch('/api/games/{gid}?events=false').then(r => r.json()).then(g => g.status === 'finished')",
        timeout=60000,
    )


def open_log(page) -> None:
    """Where the log is a drawer (a phone), open it."""
    if page.evaluate("() => document.querySelector('.log-lines').getBoundingClientRect().height") < 1:
        tool(page, ".logtoggle").click()
        page.wait_for_function("() => document.querySelector('.log-lines').getBoundingClientRect().height > 0")


# ---------------------------------------------------------------------- the log follows
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_newest_log_line_is_visible_after_every_decision(live, new_page, size):
    phone = size == "phone"
    page = new_page(
        **(
            {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
            if phone
            else {"width": 1400, "height": 900}
        ),
        label=f"log-{size}: ",
    )
    join_game(page, live, "red-rising", ["random"] if phone else ["random", "random"], seed=31 if phone else 32)
    page.wait_for_function(READY)
    open_log(page)
    rnd = random.Random(4)
    checked, misses = 0, 0
    while True:
        page.wait_for_function(READY, timeout=60000)
        if page.query_selector(".overlay .endcard"):
            break
        page.wait_for_function(SETTLED)
        frames(page)
        seen = page.evaluate(NEWEST_VISIBLE)
        assert seen["ok"], f"decision {checked}: the newest log line is out of sight ({seen['why']})"
        # on a wide screen the log is beside the board: its newest line is on screen too,
        # wherever the page is scrolled (on a phone the log is a drawer above the board)
        assert phone or seen["onScreen"], f"decision {checked}: the newest log line is below the window ({seen['why']})"
        checked += 1
        if checked == 15 and not phone:  # the layout changes under the log: it still follows
            page.set_viewport_size({"width": 1150, "height": 700})
            frames(page, 3)
            assert page.evaluate(NEWEST_VISIBLE)["ok"]
            page.set_viewport_size({"width": 1400, "height": 900})
            frames(page, 3)
        if checked in (8, 40):
            shot(page, f"table-log-{size}-{checked}", full_page=False)
        if not click_random_choice(page, rnd):
            misses += 1
            assert misses < 30
            continue
        misses = 0
        assert checked < 800
    assert checked > 20
    page.click(".close-end")
    open_log(page)
    if not phone:  # the top of the page: the side is not stuck yet, its log still ends on screen
        page.evaluate("window.scrollTo(0, 0)")
    frames(page, 3)
    seen = page.evaluate(NEWEST_VISIBLE)
    assert seen["ok"], seen["why"]
    assert phone or seen["onScreen"], seen["why"]
    assert page.locator(".log-lines .logline").count() > 100
    shot(page, f"table-log-{size}-end", full_page=False)


def test_scrolled_up_the_log_offers_the_new_events(live, new_page):
    gid = bots_game(live, "red-rising", 3, seed=8, bot_delay=0.25)
    page = new_page(width=1400, height=900, label="newevents: ")
    page.goto(f"{live.base}/#/game/{gid}?watch=1")
    page.wait_for_function(
        "() => { const ol = document.querySelector('.log-lines');"
        " return ol && ol.scrollHeight > ol.clientHeight + 300; }",
        timeout=30000,
    )
    frames(page)
    assert page.evaluate(NEWEST_VISIBLE)["ok"]
    assert page.locator(".log-new").is_hidden()
    box = page.locator(".log-lines").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -400)
    page.wait_for_function("() => document.querySelector('.log-lines').scrollTop > 0")
    frames(page)
    top = page.evaluate("() => document.querySelector('.log-lines').scrollTop")
    # new events arrive: the reader's place stays, the button counts them
    page.wait_for_selector(".log-new:not([hidden])", timeout=20000)
    page.wait_for_function("() => /[2-9]|\\d\\d/.test(document.querySelector('.log-new').textContent)", timeout=20000)
    text = page.inner_text(".log-new")
    assert re.search(r"\d+ new events?", text), text
    assert not page.evaluate(NEWEST_VISIBLE)["ok"]
    assert abs(page.evaluate("() => document.querySelector('.log-lines').scrollTop") - top) < 2
    shot(page, "table-log-new-events", full_page=False)
    page.click(".log-new")
    frames(page)
    assert page.evaluate(NEWEST_VISIBLE)["ok"]
    assert page.locator(".log-new").is_hidden()
    # and it follows again as events come
    lines = page.locator(".log-lines .logline").count()
    page.wait_for_function(f"() => document.querySelectorAll('.log-lines .logline').length > {lines}", timeout=20000)
    frames(page)
    assert page.evaluate(NEWEST_VISIBLE)["ok"]
    # scrolling back down to the bottom by hand follows again too
    box = page.locator(".log-lines").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -300)
    page.wait_for_selector(".log-new:not([hidden])", timeout=20000)
    for _ in range(40):
        box = page.locator(".log-lines").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.wheel(0, 400)
        frames(page, 1)
        if page.locator(".log-new").is_hidden():
            break
    assert page.locator(".log-new").is_hidden()
    lines = page.locator(".log-lines .logline").count()
    page.wait_for_function(f"() => document.querySelectorAll('.log-lines .logline').length > {lines}", timeout=20000)
    frames(page)
    assert page.evaluate(NEWEST_VISIBLE)["ok"]


# ---------------------------------------------------------------------- the end screen on a phone
COLUMNS_INSIDE = """() => {
  const vw = document.documentElement.clientWidth;
  const cells = [...document.querySelectorAll('.endcard .scorepad th, .endcard .scorepad td')];
  const outside = cells
    .filter((c) => { const r = c.getBoundingClientRect(); return r.left < -0.5 || r.right > vw + 0.5; })
    .map((c) => c.textContent);
  const clipped = [...document.querySelectorAll('.endcard .scorepad td')]
    .filter((c) => c.scrollWidth > c.clientWidth + 1)
    .map((c) => c.textContent);
  const box = document.querySelector('.endcard .scorepad-box');
  return {outside, clipped, cols: document.querySelectorAll('.endcard .scorepad thead th.pcol').length,
          boxOverflow: box.scrollWidth - box.clientWidth,
          pageOverflow: document.documentElement.scrollWidth - innerWidth,
          winners: [...document.querySelectorAll('.endcard .scorepad thead th.pcol')]
            .map((th, i) => th.classList.contains('win') ? i : -1).filter((i) => i >= 0)};
}"""


@pytest.mark.parametrize(
    "game,players,lang", [("red-rising", 6, "en"), ("red-rising", 6, "uk"), ("red-north", 4, "pl")]
)
def test_every_scorepad_column_fits_a_phone(live, new_page, game, players, lang):
    gid = bots_game(live, game, players, seed=40 + players)
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True, label=f"end-{game}-{lang}: ")
    page.add_init_script(f"localStorage.setItem('redtable.lang', '{lang}')")
    page.goto(f"{live.base}/#/")
    wait_finished(page, live, gid)
    page.goto(f"{live.base}/#/game/{gid}?watch=1")
    page.wait_for_selector(".endcard .scorepad")
    frames(page)
    fit = page.evaluate(COLUMNS_INSIDE)
    assert fit["cols"] == players
    assert fit["outside"] == [], f"cells beyond the screen's width: {fit['outside']}"
    assert fit["clipped"] == [], f"numbers cut inside their cells: {fit['clipped']}"
    assert fit["boxOverflow"] <= 0 and fit["pageOverflow"] <= 1
    state = http("GET", f"{live.base}/api/games/{gid}?events=false")[1]
    winners = state["view"]["winners"] if game == "red-rising" else [state["view"]["result"]["winner"]]
    assert fit["winners"] == winners
    for w in winners:  # the winner's column is marked in every cell
        assert (
            page.locator(f'.endcard .scorepad td.win[data-col="{w}"]').count()
            == page.locator(".endcard .scorepad tbody tr").count()
        )
    # every name is readable in full somewhere (the legend under a compact table)
    names = page.eval_on_selector_all(".endcard .scorepad thead th.pcol", "ths => ths.map((t) => t.title)")
    legend = page.inner_text(".endcard .sp-legend")
    for title in names:
        assert title.split(" — ")[0] in legend
    page.locator(".endcard .scorepad").scroll_into_view_if_needed()
    shot(page, f"table-end-{game}-{players}p-{lang}-phone", full_page=False)
    if lang == "en":
        page.set_viewport_size({"width": 1400, "height": 900})
        frames(page)
        fit = page.evaluate(COLUMNS_INSIDE)
        assert fit["outside"] == [] and fit["cols"] == players
        assert page.locator(".endcard .sp-legend").is_hidden()  # wide: full names in the table itself
        assert page.locator(".endcard .scorepad .abbr").first.is_hidden()
        shot(page, f"table-end-{game}-{players}p-desktop", full_page=False)


# ---------------------------------------------------------------------- replay
def test_replay_opens_at_the_setup_and_keeps_the_keys(live, new_page):
    gid = bots_game(live, "red-rising", 2, seed=12)
    page = new_page(width=1400, height=900, label="replay-keys: ")
    page.goto(f"{live.base}/#/")
    wait_finished(page, live, gid)
    page.goto(f"{live.base}/#/replay/{gid}")
    page.wait_for_selector(".scrubber .range")
    page.wait_for_function("() => document.querySelector('.step-label')?.textContent === 'Setup'")
    steps = int(page.get_attribute(".scrubber .range", "max"))
    assert steps > 20 and page.input_value(".scrubber .range") == "0"
    page.click(".replay-turns .mode-decision")  # single decisions (by turn: test_web_story.py)
    label = lambda: page.inner_text(".step-label")  # noqa: E731
    focus_act = lambda: page.evaluate("() => document.activeElement && document.activeElement.dataset.act")  # noqa: E731

    def at(n: int) -> None:
        page.wait_for_function(f"() => document.querySelector('.scrubber .range')?.value === '{n}'")
        page.wait_for_function(f"() => /[?&]step={n}$/.test(location.hash)")

    page.focus('.scrubber [data-act="next"]')
    page.keyboard.press("Enter")
    at(1)
    for n in (2, 3, 4):
        page.keyboard.press("ArrowRight")
        at(n)
        assert focus_act() == "next", "the focus left the replay's control"
    assert label().startswith("Step 4 ")
    page.keyboard.press("ArrowLeft")
    at(3)
    page.keyboard.press("Home")
    at(0)
    assert label() == "Setup" and focus_act() == "next"
    page.keyboard.press("End")
    at(steps)
    assert focus_act() == "next"  # the button is unavailable at the end, but keeps the focus
    assert page.get_attribute('.scrubber [data-act="next"]', "aria-disabled") == "true"
    page.keyboard.press("ArrowRight")  # nothing beyond the end
    frames(page)
    assert page.input_value(".scrubber .range") == str(steps)
    # the slider: its own arrows, the focus stays on it
    page.focus(".scrubber .range")
    page.keyboard.press("ArrowLeft")
    at(steps - 1)
    assert page.evaluate("() => document.activeElement.classList.contains('range')")
    # the log highlights the step's events and shows them
    page.wait_for_selector(".log-lines .logline.now")
    # a link to a step opens that step; a reload keeps it
    page.goto(f"{live.base}/#/replay/{gid}?step=7")
    page.wait_for_function("() => document.querySelector('.step-label')?.textContent.startsWith('Step 7 ')")
    page.reload()
    page.wait_for_function("() => document.querySelector('.step-label')?.textContent.startsWith('Step 7 ')")
    page.goto(f"{live.base}/#/replay/{gid}?step=end")
    page.wait_for_function(f"() => document.querySelector('.scrubber .range')?.value === '{steps}'")
    # the keys work with the focus on the page itself, too
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Home")
    at(0)
    shot(page, "table-replay-setup", full_page=False)


# ---------------------------------------------------------------------- the running score
def score_requests(live, gid: str) -> int:
    return sum(1 for u in live.seen.urls if u.startswith(f"/api/web/games/{gid}/score"))


def panel_caught_up(page) -> None:
    page.wait_for_function(
        "() => { const p = document.querySelector('#score-panel');"
        " return p && !p.hidden && p.dataset.version === String(window.__session.snap.version); }",
        timeout=20000,
    )


def my_decision(page) -> None:
    page.wait_for_function(
        "() => { const s = window.__session && window.__session.snap;"
        " return s && (s.status === 'finished' || (s.decision && s.decision.player === s.seat"
        " && !s.decision.auto && !window.__session.pending)); }",
        timeout=30000,
    )


def end_rows(page, rows: list[str]) -> dict[str, list[str]]:
    return {
        r: page.eval_on_selector_all(f'.endcard .scorepad td[data-row="{r}"]', "els => els.map((e) => e.textContent)")
        for r in rows
    }


def test_running_score_panel_red_rising(live, new_page):
    page = new_page(width=1400, height=900, label="score-rr: ")
    gid, token = join_game(page, live, "red-rising", ["random"], seed=5)
    page.wait_for_function(READY)
    rnd = random.Random(2)
    for _ in range(4):  # closed: it asks nothing
        page.wait_for_function(READY)
        click_random_choice(page, rnd)
    assert score_requests(live, gid) == 0
    page.wait_for_function(READY)
    tool(page, ".scorebtn").click()
    panel_caught_up(page)
    assert page.get_attribute(".scorebtn", "aria-expanded") == "true"
    api = http("GET", f"{live.base}/api/web/games/{gid}/score", token=token)[1]
    assert api["version"] == int(page.get_attribute("#score-panel", "data-version"))
    shown = page.eval_on_selector_all(
        "#score-panel .my-hand .sc-card", "els => els.map((e) => [e.dataset.card, e.querySelector('.pts').textContent])"
    )
    rng = lambda lo, hi: str(lo) if lo == hi else f"{lo}–{hi}"  # noqa: E731
    assert shown == [[c["card"], rng(c["points"], c["points_max"])] for c in api["hand"]["cards"]]
    assert page.inner_text('#score-panel .my-pad td[data-row="total"]') == rng(
        api["hand"]["rows"]["total"], api["hand"]["total_max"]
    )
    assert page.locator("#score-panel .everyone .scorepad thead th.pcol").count() == 2
    for row in ("fleet", "helium", "sovereignty", "influence", "excess_cards"):
        cells = page.eval_on_selector_all(
            f'#score-panel .everyone td[data-row="{row}"]', "els => els.map((e) => e.textContent)"
        )
        assert cells == [str(p["rows"][row]) for p in api["players"]], row
    # the others' cards are hidden, ours are shown
    cards = page.eval_on_selector_all(
        '#score-panel .everyone td[data-row="cards"]', "els => els.map((e) => e.textContent)"
    )
    assert cards[1] == "?" and cards[0] == rng(api["hand"]["rows"]["cards"], api["hand"]["cards_max"])
    # a spectator, meanwhile: the public rows only, no cards row at all
    watcher = new_page(width=1400, height=900, label="score-watch: ")
    watcher.goto(f"{live.base}/#/game/{gid}?watch=1")
    watcher.wait_for_selector(".board .rr-board")
    tool(watcher, ".scorebtn").click()
    watcher.wait_for_selector("#score-panel .everyone .scorepad")
    assert watcher.locator("#score-panel .my-hand").count() == 0
    assert watcher.locator('#score-panel td[data-row="cards"]').count() == 0
    assert "spectator" in watcher.inner_text("#score-panel")
    watcher.close()
    shot(page, "table-score-panel-desktop", full_page=False)
    # open while the game moves: it follows, one request per burst of updates at most
    before = score_requests(live, gid)
    moves = 0
    for _ in range(6):
        my_decision(page)
        if page.evaluate("() => window.__session.snap.status") == "finished":
            break
        page.evaluate("() => { const d = window.__session.snap.decision; window.__session.decide(d.options[0]); }")
        moves += 1
    page.wait_for_function("() => !window.__session.pending")
    panel_caught_up(page)
    asked = score_requests(live, gid) - before
    assert 1 <= asked <= moves + 1, (asked, moves)
    page.keyboard.press("Escape")
    assert page.locator("#score-panel").is_hidden()
    assert page.evaluate("() => document.activeElement.classList.contains('scorebtn')")
    closed_at = score_requests(live, gid)
    play_until_end(page, rnd)
    assert score_requests(live, gid) == closed_at  # closed: nothing asked
    # at the end the panel's rows are the scorepad's
    rows = ["cards", "fleet", "helium", "sovereignty", "influence", "excess_cards", "total"]
    final = end_rows(page, rows)
    page.click(".close-end")
    tool(page, ".scorebtn").click()
    panel_caught_up(page)
    page.wait_for_selector("#score-panel .score-final")
    for r in rows:
        assert page.inner_text(f'#score-panel .my-pad td[data-row="{r}"]') == final[r][0], r
    for r in rows[1:-1]:
        cells = page.eval_on_selector_all(
            f'#score-panel .everyone td[data-row="{r}"]', "els => els.map((e) => e.textContent)"
        )
        assert cells == final[r], r
    totals = page.eval_on_selector_all(
        '#score-panel .everyone td[data-row="total"]', "els => els.map((e) => e.textContent)"
    )
    assert totals == final["total"]
    shot(page, "table-score-panel-final", full_page=False)
    # a spectator after the end
    watcher = new_page(width=1400, height=900, label="score-watch-end: ")
    watcher.goto(f"{live.base}/#/game/{gid}?watch=1")
    watcher.wait_for_selector(".endcard")
    watcher.click(".close-end")
    tool(watcher, ".scorebtn").click()
    watcher.wait_for_selector("#score-panel .everyone .scorepad")
    assert watcher.locator("#score-panel .my-hand").count() == 0
    # the game is over: the hands are public now, so everyone's cards row is shown
    cells = watcher.eval_on_selector_all(
        '#score-panel .everyone td[data-row="cards"]', "els => els.map((e) => e.textContent)"
    )
    assert cells == final["cards"]


def test_running_score_panel_red_north_on_a_phone(live, new_page):
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True, label="score-rn: ")
    gid, token = join_game(page, live, "red-north", ["random"], seed=9)
    rnd = random.Random(6)
    for _ in range(5):
        page.wait_for_function(READY)
        click_random_choice(page, rnd)
    page.wait_for_function(READY)
    tool(page, ".scorebtn").click()
    panel_caught_up(page)
    api = http("GET", f"{live.base}/api/web/games/{gid}/score", token=token)[1]
    raid = page.eval_on_selector_all(
        "#score-panel .sc-raid b", "els => els.map((e) => [e.dataset.colour, e.textContent])"
    )
    assert raid == [[c, str(api["hand"]["raid_points"][c])] for c in api["colours"]]
    totals = page.eval_on_selector_all(
        '#score-panel .everyone td[data-row="total"]', "els => els.map((e) => e.textContent)"
    )
    assert totals == [str(p["rows"]["total"]) for p in api["players"]]
    inside = page.evaluate("""() => {
      const vw = document.documentElement.clientWidth;
      const p = document.querySelector('#score-panel').getBoundingClientRect();
      const cells = [...document.querySelectorAll('#score-panel .scorepad th, #score-panel .scorepad td')];
      return p.left >= 0 && p.right <= vw + 0.5 && cells.every((c) => c.getBoundingClientRect().right <= vw + 0.5);
    }""")
    assert inside
    shot(page, "table-score-panel-phone-rn", full_page=False)
    page.click("#score-panel .score-close")
    assert page.locator("#score-panel").is_hidden()
    play_until_end(page, rnd)
    final = end_rows(page, ["total", "glory", "hand"])
    page.click(".close-end")
    tool(page, ".scorebtn").click()
    panel_caught_up(page)
    for r in ("total", "glory", "hand"):
        cells = page.eval_on_selector_all(
            f'#score-panel .everyone td[data-row="{r}"]', "els => els.map((e) => e.textContent)"
        )
        assert cells == final[r], r


# ---------------------------------------------------------------------- chime and the tab title
def test_chime_toggle_and_the_title_marker(live, new_page):
    page = new_page(width=1400, height=900, label="chime: ")
    page.add_init_script(FAKE_AUDIO)
    gid, _ = join_game(page, live, "red-rising", ["random"], seed=14, bot_delay=0.6)
    assert page.get_attribute(".chime", "aria-pressed") == "false"  # off by default
    assert page.evaluate("() => localStorage.getItem('redtable.chime')") is None
    marked = "() => document.title.startsWith('● ')"
    unmarked = "() => !document.title.startsWith('● ')"

    def finish_my_turn() -> None:
        """Decide (through the page) until the decision is no longer ours."""
        for _ in range(12):
            my_decision(page)
            page.wait_for_function(READY)
            assert page.evaluate(marked), "no marker while it is our decision"
            v = page.evaluate("() => window.__session.snap.version")
            if not click_random_choice(page, random.Random(v)):
                continue
            page.wait_for_function(f"() => window.__session.snap.version > {v}")
            if page.evaluate(
                "() => { const s = window.__session.snap; return !s.decision || s.decision.player !== s.seat; }"
            ):
                return
        raise AssertionError("our turn did not end")

    my_decision(page)
    page.wait_for_function(marked)
    finish_my_turn()
    page.wait_for_function(unmarked, timeout=2000)  # cleared once we decided (the bot thinks 0.6 s)
    assert page.evaluate("() => window.__tones") == 0  # the chime is off
    # on: a preview tone, remembered
    page.click(".chime")
    assert page.get_attribute(".chime", "aria-pressed") == "true"
    assert page.evaluate("() => localStorage.getItem('redtable.chime')") == "on"
    assert page.evaluate("() => window.__tones") == 2  # one chime: two notes
    my_decision(page)
    page.wait_for_function(marked)
    page.wait_for_function("() => window.__tones >= 4")  # the decision became ours: a chime
    shot(page, "table-chime-on", full_page=False)
    finish_my_turn()
    page.wait_for_function(unmarked, timeout=2000)
    page.wait_for_function(SETTLED)
    # a hidden tab: no animation frames (the board does not render), the title still tells
    page.evaluate("""() => {
      Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
      Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
      window.__frames = []; window.__raf = window.requestAnimationFrame;
      window.requestAnimationFrame = (f) => { window.__frames.push(f); return 0; };
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    tones = page.evaluate("() => window.__tones")
    page.wait_for_function(marked, timeout=10000)
    # the board still shows an older version: the marker did not wait for a render
    assert page.evaluate(
        "() => Number(document.querySelector('.prompt').dataset.version) < window.__session.snap.version"
    )
    assert page.evaluate("() => window.__tones") > tones
    page.evaluate("""() => {
      window.requestAnimationFrame = window.__raf;
      delete document.hidden; delete document.visibilityState;
      for (const f of window.__frames.splice(0)) f(performance.now());
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    page.wait_for_function(SETTLED)
    # remembered across a reload; off again: no tone when the decision comes
    page.reload()
    page.wait_for_selector(".chime")
    assert page.get_attribute(".chime", "aria-pressed") == "true"
    page.click(".chime")
    assert page.evaluate("() => localStorage.getItem('redtable.chime')") == "off"
    tones = page.evaluate("() => window.__tones")
    my_decision(page)
    finish_my_turn()
    my_decision(page)
    page.wait_for_function(marked)
    assert page.evaluate("() => window.__tones") == tones
    # a spectator has no chime to set
    watcher = new_page(width=1400, height=900, label="chime-watch: ")
    watcher.goto(f"{live.base}/#/game/{gid}?watch=1")
    watcher.wait_for_selector(".board .rr-board")
    watcher.wait_for_function(SETTLED)
    assert watcher.locator(".chime").is_hidden()
    assert not watcher.evaluate(marked)
