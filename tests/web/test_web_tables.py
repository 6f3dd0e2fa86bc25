"""Finding a game, clocks and the turn notice in the browser (headless Chromium, the real server):

* an open table made in the lobby is taken in one click from a second browser context (a
  phone), and the game starts for both;
* a table's clock ticks, runs out, and a bot takes the seat (unrated), with the notice;
* a rated game of two accounts on one network says it will not be rated, and when nobody
  moves before the first seat's time runs out it is aborted (not a forfeit);
* a rated open table asks everyone to confirm ("ready") before it starts;
* "my games" and the turn notice: the count in the top bar, "(1) redtable" in the tab title,
  the in-page notice and a browser notification (``window.Notification`` stubbed);
* a table nobody plays closes and says why.

The server's time is short for these tests (``TableService.configure``: clock options are
multiplied by a small factor, a table closes after seconds). Screenshots at desktop and phone
sizes are kept in ``artifacts/screenshots/``.
"""

from __future__ import annotations

import uuid

import pytest
from webkit import LiveServer, http, shot

PHONE = {"width": 390, "height": 844}

# window.Notification replaced: the page may ask for permission (granted) and every notification is kept
NOTIFY_STUB = """
window.__notes = [];
window.Notification = class {
  constructor(title, opts) { window.__notes.push({ title, body: (opts || {}).body, tag: (opts || {}).tag }); }
  close() {}
  static requestPermission() { window.Notification.permission = "granted"; return Promise.resolve("granted"); }
};
window.Notification.permission = "default";
"""


@pytest.fixture(scope="module")
def tlive(tmp_path_factory):
    """A server of its own: its tables' time is changed by the tests (never the shared one's)."""
    srv = LiveServer(tmp_path_factory.mktemp("tables") / "web.db")
    srv.tables = srv.app.state.hub.tables
    srv.tables.configure(sweep_seconds=0.1)
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def short_time(tlive):
    """Clocks 1/50 of their option (3 min: 3.6 s) for the games a test creates; restored after."""
    tables = tlive.tables
    old = tables.clock_scale, dict(tables.idle_seconds)
    tables.clock_scale = 0.02
    yield tables
    tables.clock_scale, tables.idle_seconds = old[0], old[1]


def game_id(page) -> str:
    page.wait_for_function("() => location.hash.startsWith('#/game/')")
    return page.evaluate("() => location.hash.split('/')[2].split('?')[0]")


def state(live, gid: str, token: str | None = None) -> dict:
    return http("GET", f"{live.base}/api/games/{gid}?events=false", token=token)[1]


def lobby_create(page, base: str, title: str, humans: int, *, open_: bool = False, clock: str = "none", rated=False):
    """The lobby's form: ``humans`` people's seats (no bots), the table options, create."""
    page.goto(base + "/#/")
    page.wait_for_selector(".newgame .create")
    page.click(f'.title-tile[data-title="{title}"]')
    while len(page.query_selector_all(".seat-row")) > humans:
        page.click(".seat-row:last-child .remove")
    while len(page.query_selector_all(".seat-row")) < humans:
        page.click(".add-seat")
    for i in range(humans):
        page.click(f'.seat-row[data-seat="{i}"] .seg button[data-type="human"]')
    page.fill('.seat-row[data-seat="0"] .seat-name', "Ann")
    if rated:
        page.check("input[name=rated]")
    if open_:
        page.check("input[name=open]")
    page.select_option("select[name=clock]", clock)
    page.click(".create")


def register(page, base: str) -> str:
    """A fresh account for this browser context (registering logs in); the page reloads to show it."""
    name = f"p{uuid.uuid4().hex[:8]}"
    page.goto(base + "/#/")
    got = page.evaluate(
        """async (name) => {
        const r = await fetch('/api/accounts', {method: 'POST', headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({username: name, password: 'a long enough password'})});
        return r.status;
      }""",
        name,
    )
    assert got == 201
    page.reload()
    page.wait_for_selector(".topbar .account-name")
    return name


# ---------------------------------------------------------------------- open table, one click
def test_open_table_taken_in_one_click_from_a_second_browser(tlive, new_page):
    host = new_page(label="host: ")
    lobby_create(host, tlive.base, "red-north", 2, open_=True)
    host.wait_for_selector(".waitroom .start-bots")  # (the table page's waiting room: waitroom.js)
    assert "listed in the lobby" in host.inner_text(".waitroom")
    shot(host, "tables-open-created", full_page=False)
    gid = game_id(host)
    host.wait_for_selector(".waitroom .wait-lead")
    assert "1 of 2" in host.inner_text(".waitroom")  # waiting for players (the table's waiting room)
    shot(host, "tables-waiting-for-players", full_page=False)

    guest = new_page(label="guest: ", width=PHONE["width"], height=PHONE["height"], is_mobile=True, has_touch=True)
    guest.goto(tlive.base + "/#/")
    row = f'.table-row[data-game="{gid}"]'
    guest.wait_for_selector(row)
    assert "1 of 2 seated" in guest.inner_text(row)
    shot(guest, "tables-lobby-phone")
    guest.click(f"{row} .sit")  # one click: a seat, its token kept in this browser, the table
    assert game_id(guest) == gid
    guest.wait_for_selector(".rn-board")
    for p in (host, guest):  # the game started for both: nobody waits for players any more
        p.wait_for_function("() => !document.querySelector('.table-strip .strip-banner:not([hidden])')")
    st = state(tlive, gid)
    assert st["ready"] is True and [s["joined"] for s in st["seats"]] == [True, True]
    host.wait_for_function("() => document.querySelector('.prompt').innerText.trim().length > 0")
    shot(guest, "tables-started-phone")
    assert gid not in [t["game_id"] for t in http("GET", f"{tlive.base}/api/tables")[1]]


def test_a_rated_open_table_asks_everyone_to_confirm_before_it_starts(tlive, new_page):
    """Two accounts from two networks: the host's rated open table, a phone sits in one click;
    both get the "ready" dialog with its time left, both confirm, the game starts."""
    host = new_page(label="host: ", height=900, extra_http_headers={"X-Forwarded-For": "198.51.100.71"})
    register(host, tlive.base)
    lobby_create(host, tlive.base, "red-north", 2, open_=True, clock="turn24", rated=True)
    gid = game_id(host)
    guest = new_page(
        label="guest: ",
        width=PHONE["width"],
        height=PHONE["height"],
        is_mobile=True,
        has_touch=True,
        extra_http_headers={"X-Forwarded-For": "198.51.100.72"},
    )
    register(guest, tlive.base)
    guest.goto(tlive.base + "/#/")
    row = f'.table-row[data-game="{gid}"]'
    guest.wait_for_selector(row)
    guest.click(f"{row} .sit")
    assert game_id(guest) == gid
    for p in (host, guest):
        p.wait_for_selector(".ready-overlay .ready-btn")
        assert "s left to confirm" in p.inner_text(".ready-overlay")
    st = state(tlive, gid)
    assert st["ready"] is False and st["confirm"]["ready"] == [] and st["unrated"] is None
    shot(host, "tables-ready-dialog", full_page=False)
    shot(guest, "tables-ready-dialog-phone", full_page=False)
    guest.tap(".ready-overlay .ready-btn")
    guest.wait_for_selector(".ready-overlay", state="detached")
    guest.wait_for_function("() => (document.querySelector('.table-strip') || {}).innerText?.includes('1 of 2')")
    shot(guest, "tables-ready-waiting-phone", full_page=False)
    host.click(".ready-overlay .ready-btn")
    for p in (host, guest):
        p.wait_for_function("() => !document.querySelector('.table-strip .strip-banner:not([hidden])')")
    st = state(tlive, gid)
    assert st["ready"] is True and st["confirm"] is None and st["decision"] is not None


# ---------------------------------------------------------------------- clocks
def test_a_clock_runs_out_and_a_bot_takes_the_seat(tlive, new_page, short_time):
    host = new_page(label="host: ")
    lobby_create(host, tlive.base, "red-north", 2, clock="rt3")  # 3 min + 20 s: 3.6 s + 0.4 s here
    host.wait_for_selector(".waitroom .invite-url")
    invite = host.input_value(".waitroom .invite-url")
    gid = game_id(host)
    guest = new_page(label="guest: ", width=PHONE["width"], height=PHONE["height"], is_mobile=True, has_touch=True)
    guest.goto(invite)
    guest.click(".join-btn")
    guest.wait_for_selector(".rn-board")
    waited = state(tlive, gid)["decision"]["player"]
    page = host if waited == 0 else guest
    # the clocks show, the running one ticks down
    page.wait_for_selector(f'.seat-clock.running[data-seat="{waited}"]')
    first = page.inner_text(f'.seat-clock[data-seat="{waited}"] .clock-time')
    page.wait_for_timeout(1200)
    later = page.inner_text(f'.seat-clock[data-seat="{waited}"] .clock-time')
    assert later != first, (first, later)
    shot(host, "tables-clock-ticking")
    shot(guest, "tables-clock-ticking-phone")
    # nobody moves: the time runs out and a bot takes the seat; both pages say so
    for p in (host, guest):
        p.wait_for_function(
            "() => [...document.querySelectorAll('.toast')].some(t => /ran out of time/.test(t.innerText))"
        )
    st = state(tlive, gid)
    assert st["seats"][waited]["type"] == "bot" and st["seats"][waited]["bot"] == "heuristic"
    page.wait_for_selector(f'.seat-clock.bot[data-seat="{waited}"]')
    shot(page, "tables-timeout-bot" + ("" if page is host else "-phone"), full_page=False)


def test_one_network_is_not_rated_and_a_game_nobody_started_is_aborted(tlive, new_page, short_time):
    """Two accounts on one address (this machine): the table says it will not be rated before
    anyone moves; nobody moves, so the first seat's time runs out: aborted, not a forfeit."""
    host = new_page(label="host: ", height=900)
    register(host, tlive.base)
    lobby_create(host, tlive.base, "red-north", 2, clock="rt3", rated=True)
    host.wait_for_selector(".waitroom .invite-url")
    invite = host.input_value(".waitroom .invite-url")
    gid = game_id(host)
    guest = new_page(label="guest: ", width=390, height=844, has_touch=True, is_mobile=True)
    register(guest, tlive.base)
    guest.goto(invite)
    guest.click(".join-btn")
    guest.wait_for_selector(".rn-board")
    waited = state(tlive, gid)["decision"]["player"]
    assert state(tlive, gid)["unrated"] == "same_network"
    for p in (host, guest):
        p.wait_for_selector(".table-strip .unrated-note:not([hidden])")
        assert "will not be rated: two of its accounts play from the same network" in p.inner_text(".unrated-note")
    shot(host, "tables-rated-unrated-note", full_page=False)
    shot(guest, "tables-rated-unrated-note-phone", full_page=False)
    for p in (host, guest):
        p.wait_for_function(
            "() => (document.querySelector('.table-strip .closed') || {}).textContent?.includes('aborted')",
            timeout=30000,
        )
    st = state(tlive, gid)
    assert st["status"] == "abandoned" and st["closed"]["reason"] == "aborted" and st["closed"]["seat"] == waited
    assert st["result"] is None
    shot(host, "tables-rated-aborted", full_page=False)
    shot(guest, "tables-rated-aborted-phone", full_page=False)


# ---------------------------------------------------------------------- my games and the turn notice
def test_turn_notice_in_my_games_with_a_browser_notification(tlive, new_page):
    me = new_page(label="me: ")
    me.context.add_init_script(NOTIFY_STUB)
    created = http(
        "POST",
        f"{tlive.base}/api/games",
        {"game": "red-north", "seats": [{"type": "human"}, {"type": "human"}]},
    )[1]
    gid = created["game_id"]
    for s in created["seats"]:  # (the game starts when both seats are taken: then its first decision shows)
        http("POST", f"{tlive.base}/api/games/{gid}/join", {"invite": s["invite"]})
    first = state(tlive, gid)["decision"]["player"]
    mine = 1 - first  # this browser holds the seat that is NOT to move: the rival moves, then it is my turn
    tokens = [
        http("POST", f"{tlive.base}/api/games/{gid}/join", {"invite": s["invite"], "name": name})[1]["token"]
        for s, name in zip(created["seats"], ["Rival", "Me"] if first == 0 else ["Me", "Rival"], strict=True)
    ]
    me.goto(tlive.base + "/#/")
    me.wait_for_selector(".newgame .create")  # (the lobby is mounted: the next page replaces it)
    me.evaluate(
        "([gid, tok, seat]) => localStorage.setItem('redtable.seats', "
        "JSON.stringify({[gid]: {token: tok, seat, name: 'Me'}}))",
        [gid, tokens[mine], mine],
    )
    me.goto(tlive.base + "/#/my-games")
    me.wait_for_selector(f'.mygames-row[data-game="{gid}"]')
    assert "Rival to play" in me.inner_text(f'.mygames-row[data-game="{gid}"]')
    me.click(".ask-notify")  # permission, from a click
    me.wait_for_selector(".notify-on")
    # the rival plays until the game waits for me
    for _ in range(20):
        st = state(tlive, gid, tokens[first])
        if st["decision"]["player"] != first:
            break
        http(
            "POST",
            f"{tlive.base}/api/games/{gid}/decisions",
            {"action": st["decision"]["options"][0], "version": st["version"]},
            tokens[first],
        )
    assert state(tlive, gid)["decision"]["player"] == mine
    me.evaluate("() => window.__turnWatch.poll()")
    me.wait_for_selector(f'.turn-notice[data-game="{gid}"]')
    me.wait_for_function("() => document.title === '(1) redtable'")
    assert me.inner_text(".topbar .mygames-count") == "1"
    notes = me.evaluate("() => window.__notes")
    assert len(notes) == 1 and notes[0]["tag"] == gid and "Your turn" in notes[0]["title"]
    me.wait_for_selector(f'.mygames-row.mine[data-game="{gid}"]')
    shot(me, "tables-my-games-turn", full_page=False)
    me.set_viewport_size(PHONE)
    shot(me, "tables-my-games-turn-phone")
    me.click(f'.turn-notice[data-game="{gid}"] a')  # the notice opens the game
    assert game_id(me) == gid
    me.wait_for_selector(".prompt.mine")


# ---------------------------------------------------------------------- abandoned
def test_a_table_nobody_plays_closes_and_the_page_says_why(tlive, new_page, short_time):
    short_time.idle_seconds["none"] = 2.0
    page = new_page(label="p: ")
    lobby_create(page, tlive.base, "red-north", 2)
    gid = game_id(page)
    page.wait_for_selector(".table-strip .strip-banner.closed", timeout=30000)
    text = page.inner_text(".table-strip")
    assert "This table was closed: its seats were not all taken within 2 s." in text, text  # (the guest never came)
    assert state(tlive, gid)["status"] == "abandoned"
    shot(page, "tables-closed", full_page=False)
    page.goto(tlive.base + "/#/")
    page.wait_for_selector(".games")
    assert not page.query_selector(f'.game-row[data-game="{gid}"]')  # gone from the lobby's lists
