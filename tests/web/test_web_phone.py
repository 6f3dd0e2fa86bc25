"""The phone table and its words (issue 25), in real Chromium against the real server, at a
390x844 touch phone and a 1400x900 window, in English, Ukrainian and Polish:

- the toolbar is one row: its controls with their words, the rest in a labelled "More" menu
  (a menu button with aria-expanded, menu items with words; taps, arrows, Home/End, Escape,
  a tap outside); one trophy after the game and no "Live" on a finished game;
- the tutorial's guide calls the player by the name they gave (or their account's), in both
  tutorials;
- no label of a scorepad (both titles' end screens, the running score, the score calculator)
  is cut: no text wider than its box, no "…" of text-overflow in effect.

Screenshots: ``artifacts/screenshots/phone-*.png``."""

from __future__ import annotations

import pytest
from test_web_look import LANGS, PHONE, SCREENS, TOOLBAR, open_watch
from test_web_screens import axe_violations, serve_axe, set_language
from webkit import SHOTS, http

# The toolbar as laid out: the row's visible controls (their tops, words, right edges) and the menu.
LAYOUT = """() => {
  const row = document.querySelector('.status-right');
  const kids = [...row.children].filter((e) => e.getClientRects().length);
  const words = (b) => [...b.querySelectorAll('span')].filter((s) => s.getBoundingClientRect().width > 4)
    .map((s) => s.textContent.trim()).join(' ');
  const more = row.querySelector('.more');
  return {
    // one row: every control overlaps every other vertically
    rows: Math.max(...kids.map((e) => e.getBoundingClientRect().top))
      < Math.min(...kids.map((e) => e.getBoundingClientRect().bottom)) ? 1 : 2,
    right: Math.max(...kids.map((e) => e.getBoundingClientRect().right)),
    width: innerWidth,
    row: kids.map((e) => e.className),
    widths: kids.map((e) => Math.round(e.getBoundingClientRect().width) + ':' + e.textContent.trim()),
    more: more && more.getClientRects().length ? { expanded: more.getAttribute('aria-expanded'),
      haspopup: more.getAttribute('aria-haspopup'), controls: more.getAttribute('aria-controls'),
      words: words(more) } : null,
  };
}"""

MENU = """() => {
  const m = document.querySelector('.toolmenu');
  if (!m || m.hidden) return null;
  const r = m.getBoundingClientRect();
  return {
    role: m.getAttribute('role'), labelledby: m.getAttribute('aria-labelledby'), id: m.id,
    inside: r.left >= 0 && r.right <= innerWidth + 0.5 && r.top >= 0,
    items: [...m.children].filter((e) => e.getClientRects().length).map((e) => ({
      cls: e.className, role: e.getAttribute('role'),
      words: [...e.querySelectorAll('span')].filter((s) => s.getBoundingClientRect().width > 4)
        .map((s) => s.textContent.trim()).join(' '),
      trophies: e.querySelectorAll('.icon-trophy').length })),
  };
}"""


def undo_game(base: str, name: str) -> dict:
    """A four-seat Red Rising table with undo (the toolbar's fullest): a person and three bots."""
    bots = ("random", "expert:1s", "heuristic")
    seats = [{"type": "human", "name": name}] + [{"type": "bot", "bot": b} for b in bots]
    body = {"game": "red-rising", "seats": seats, "seed": 41, "bot_delay": 0, "undo": True}
    status, g = http("POST", f"{base}/api/games", {**body, "options": {"block_windows": False}})
    assert status == 201, g
    return g


MORE = {"en": "More", "uk": "Ще", "pl": "Więcej"}


def shot(page, name: str) -> str:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"phone-{name}.png"
    page.screenshot(path=str(path))
    return path.name


def check_row(page, where: str) -> dict:
    lay = page.evaluate(LAYOUT)
    assert lay["rows"] == 1, f"the toolbar takes more than one row at {where}: {lay}"
    assert lay["right"] <= lay["width"] + 0.5, f"the toolbar overflows the screen at {where}: {lay}"
    tools = page.evaluate(TOOLBAR)
    assert all(t["words"] for t in tools), f"icon-only controls: {tools}"
    return lay


def menu_round(page, lang: str, phone: bool) -> dict:
    """Open the "More" menu (a tap on a phone, a click otherwise), check it, close it by Escape."""
    more = page.locator(".status-right .more")
    (more.tap if phone else more.click)()
    page.wait_for_selector(".toolmenu:not([hidden])")
    menu = page.evaluate(MENU)
    assert menu["role"] == "menu" and menu["labelledby"] == more.get_attribute("id")
    assert more.get_attribute("aria-expanded") == "true" and more.get_attribute("aria-controls") == menu["id"]
    assert menu["inside"], "the menu reaches outside the screen"
    assert menu["items"], "an empty menu"
    for it in menu["items"]:
        assert it["role"] in ("menuitem", "menuitemcheckbox"), it
        assert it["words"], f"a menu item without words: {it}"
    assert page.evaluate("document.activeElement.closest('.toolmenu') !== null")  # the first item has the focus
    page.keyboard.press("Escape")
    page.wait_for_selector(".toolmenu", state="hidden")
    assert more.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.classList.contains('more')")
    assert MORE[lang] in more.inner_text()
    return menu


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("screen", SCREENS)
def test_the_toolbar_is_one_row_with_words_and_a_more_menu(live, new_page, screen, lang):
    phone = screen is PHONE
    where = f"{lang}-{'phone' if phone else '1400'}"
    page = new_page(label=f"toolbar {where}: ", **screen)
    serve_axe(page, live.base)
    set_language(page, live.base, lang)
    g = undo_game(live.base, "Ann")
    page.goto(live.base + g["seats"][0]["invite_url"])
    page.click(".join-btn")
    page.wait_for_selector(".rr-hand .rcard.choice")
    page.wait_for_timeout(200)
    lay = check_row(page, where)
    assert page.locator(".statusbar .conn").is_visible(), "'Live' is shown while the game is live"
    if not phone:
        assert lay["more"] is None, f"a 1400 px window has room for every control: {lay}"
        shot(page, f"toolbar-{where}")
        assert axe_violations(page, live.base, f"toolbar {where}") == []
        return
    assert lay["more"] and lay["more"]["haspopup"] == "menu" and lay["more"]["expanded"] == "false", lay
    # the main ones stay in the row
    assert any("undo" in c for c in lay["row"]) and any("scorebtn" in c for c in lay["row"]), lay["widths"]
    shot(page, f"toolbar-{where}")
    menu = menu_round(page, lang, phone)
    kinds = " ".join(i["cls"] for i in menu["items"])
    assert "info" in kinds and "leave" in kinds, kinds
    # opened again, shown and scanned by axe
    page.locator(".status-right .more").tap()
    page.wait_for_selector(".toolmenu:not([hidden])")
    shot(page, f"toolbar-menu-{where}")
    problems = axe_violations(page, live.base, f"toolbar menu {where}")
    # a tap outside closes it
    page.touchscreen.tap(200, 700)
    page.wait_for_selector(".toolmenu", state="hidden")
    # by keyboard: the arrows move, End and Home jump, Escape closes
    more = page.locator(".status-right .more")
    more.focus()
    page.keyboard.press("ArrowDown")
    page.wait_for_selector(".toolmenu:not([hidden])")
    n = len(menu["items"])
    first = page.evaluate("document.activeElement.className")
    page.keyboard.press("ArrowDown")
    if n > 1:
        assert page.evaluate("document.activeElement.className") != first
    page.keyboard.press("End")
    assert "leave" in page.evaluate("document.activeElement.className")
    page.keyboard.press("Home")
    assert page.evaluate("document.activeElement.className") == first
    page.keyboard.press("Escape")
    page.wait_for_selector(".toolmenu", state="hidden")
    # an item does what it says: "Game info" opens its dialog, and the menu closes
    more.tap()
    page.locator(".toolmenu .info").tap()
    page.wait_for_selector(".overlay .info-card")
    assert page.locator(".toolmenu").is_hidden()
    page.keyboard.press("Escape")
    page.wait_for_selector(".overlay", state="detached")
    # the sound toggle in the menu is a checkbox item
    more.tap()
    chime = page.locator(".toolmenu .chime")
    if chime.count():
        assert chime.get_attribute("role") == "menuitemcheckbox" and chime.get_attribute("aria-checked") == "false"
        assert chime.get_attribute("aria-pressed") is None
        chime.tap()
        page.wait_for_selector(".toolmenu", state="hidden")
        assert chime.get_attribute("aria-checked") == "true"
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("screen", SCREENS)
def test_a_finished_table_has_one_trophy_and_no_live(live, new_page, six_bots, screen, lang):
    phone = screen is PHONE
    where = f"{lang}-{'phone' if phone else '1400'}"
    page = open_watch(new_page, live, screen, lang, six_bots, f"finished {where}: ")
    page.click(".close-end")
    page.wait_for_selector(".overlay", state="detached")
    page.wait_for_timeout(100)
    lay = check_row(page, where)
    assert not page.locator(".statusbar .conn").is_visible(), "'Live' on a finished game"
    tools = page.evaluate(TOOLBAR)
    trophies = sum(t["trophies"] for t in tools)
    if lay["more"]:
        more = page.locator(".status-right .more")
        (more.tap if phone else more.click)()
        trophies += sum(i["trophies"] for i in page.evaluate(MENU)["items"])
        shot(page, f"finished-menu-{where}")
        page.keyboard.press("Escape")
    assert trophies == 1, f"trophies after the game: {tools}"
    assert any("results" in c for c in lay["row"]), "the results stay in the row after the game"
    shot(page, f"finished-{where}")


@pytest.fixture(scope="module")
def six_bots(live):
    from test_web_look import LONG_NAMES, wait_finished

    seats = [{"type": "bot", "bot": "random", "name": n} for n in LONG_NAMES]
    seats += [{"type": "bot", "bot": "random"} for _ in range(3)]
    status, g = http(
        "POST",
        f"{live.base}/api/games",
        {"game": "red-rising", "seats": seats, "seed": 25, "bot_delay": 0, "options": {"block_windows": False}},
    )
    assert status == 201, g
    wait_finished(live.base, g["game_id"])
    return g["game_id"]


# ---------------------------------------------------------------------- the tutorial
def test_the_guide_calls_a_logged_in_player_by_their_account_name(live, new_page):
    import uuid

    from test_web_accounts import register_in_page

    name = f"olena{uuid.uuid4().hex[:4]}"  # (an account name is Latin letters and digits)
    page = new_page(label="guide account: ", **PHONE, extra_http_headers={"X-Forwarded-For": "198.51.100.77"})
    set_language(page, live.base, "uk")
    page.goto(live.base + "/#/register")
    register_in_page(page, name)
    page.wait_for_selector(".profile-name")
    assert page.evaluate("localStorage.getItem('redtable.name')") in (None, "", name)
    page.goto(live.base + "/#/learn/red-north")
    page.wait_for_selector(".coach:not([hidden]) .coach-name")
    assert page.inner_text(".coach .coach-name") == f"Вітаємо за столом! Тут ви граєте під іменем {name}."
    assert page.evaluate("window.__session.snap.seats[0].name") == name
    assert page.locator(".turn-notice").count() == 0  # no "your turn" notice for the game on the page
    shot(page, "guide-account-name-uk-phone")


# ---------------------------------------------------------------------- the scorepads' labels
# Every label of the scorepads under `sel` that is cut: a box whose text is wider than the box
# where the overflow is clipped or ends in "…" (text-overflow), or a table cell whose text spills
# over its neighbours. Visually hidden texts (the compact pad's full names, read out) are skipped.
CUT_LABELS = r"""(sel) => {
  const out = [];
  const hiddenText = (el) => { const r = el.getBoundingClientRect(); return r.width <= 1 || r.height <= 1; };
  for (const root of document.querySelectorAll(sel)) {
    const labels = 'th, td, th *, td *, li, li *, label, label *, legend, h2, h3, p, .winner';
    for (const el of root.querySelectorAll(labels)) {
      if (!el.getClientRects().length || el.closest('svg') || hiddenText(el)) continue;
      if (!el.textContent.trim()) continue;
      const cs = getComputedStyle(el);
      if (cs.display === 'inline') continue;  // (its block is measured)
      const over = el.scrollWidth > el.clientWidth + 1;
      const clipped = cs.overflowX !== 'visible' || cs.textOverflow === 'ellipsis';
      const cell = el.tagName === 'TH' || el.tagName === 'TD';
      if (over && (clipped || cell)) {
        const what = `${el.tagName.toLowerCase()}.${el.className}: ${el.scrollWidth} > ${el.clientWidth}`;
        out.push(`"${el.textContent.trim()}" (${what})`);
      }
    }
  }
  return out;
}"""


# Every bot label ("Bot 2 · Random") under `sel` whose "Bot 2 ·" is split over two lines (the
# resolution tables' narrow columns left "·" alone on a line): the label may wrap before its kind only.
BOT_SPLIT = r"""(sel) => {
  const out = [];
  for (const root of document.querySelectorAll(sel)) {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      if (!node.parentElement || !node.parentElement.getClientRects().length) continue;
      for (const m of node.textContent.matchAll(/(Bot|Бот)\s\d+\s·/g)) {
        const r = document.createRange();
        r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top)));
        const where = node.parentElement.className || node.parentElement.tagName;
        if (tops.size > 1) out.push(`"${node.textContent.trim()}" in ${where}`);
      }
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def red_north_done(live):
    """A finished four-seat Red North game of bots (one with a long name)."""
    from test_web_look import wait_finished

    seats = [{"type": "bot", "bot": "random", "name": "Brzęczyszczykiewicz"}]
    seats += [{"type": "bot", "bot": "random"} for _ in range(3)]
    status, g = http(
        "POST", f"{live.base}/api/games", {"game": "red-north", "seats": seats, "seed": 26, "bot_delay": 0}
    )
    assert status == 201, g
    wait_finished(live.base, g["game_id"])
    return g["game_id"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("screen", SCREENS)
def test_no_scorepad_label_is_cut(live, new_page, six_bots, red_north_done, screen, lang):
    phone = screen is PHONE
    where = f"{lang}-{'phone' if phone else '1400'}"
    cut: list[str] = []
    for title, gid in (("rr", six_bots), ("rn", red_north_done)):
        page = open_watch(new_page, live, screen, lang, gid, f"pad {title} {where}: ")
        cut += [f"{title} end: {c}" for c in page.evaluate(CUT_LABELS, ".endcard .scorepad-box")]
        cut += [f"{title} end, a bot's label split: {c}" for c in page.evaluate(BOT_SPLIT, ".endcard")]
        page.evaluate("document.querySelector('.endcard .scorepad-box').scrollIntoView()")
        shot(page, f"scorepad-end-{title}-{where}")
        # the running score's panel keeps the final pad after the game
        page.click(".close-end")
        page.wait_for_selector(".overlay", state="detached")
        score = page.locator(".status-right .scorebtn")
        if not score.is_visible():
            page.locator(".status-right .more").click()
        score.click()
        page.wait_for_selector(".score-panel .scorepad-box")
        page.wait_for_timeout(200)
        cut += [f"{title} score panel: {c}" for c in page.evaluate(CUT_LABELS, ".score-panel")]
        shot(page, f"scorepad-panel-{title}-{where}")
        page.close()
    # the score calculator: its form and its scorepad
    page = new_page(label=f"calc {where}: ", **screen)
    set_language(page, live.base, lang)
    page.goto(live.base + "/#/calc")
    page.wait_for_selector('[data-picker="hand0"]')
    for i, cards in enumerate((["Darrow", "Trigg", "Eo"], ["Mustang", "Sevro", "Quicksilver"])):
        for card in cards:
            page.fill(f'[data-picker="hand{i}"]', card)
            page.press(f'[data-picker="hand{i}"]', "Enter")
    page.click(".score-btn")
    page.wait_for_selector(".calc-result .scorepad")
    cut += [f"calculator: {c}" for c in page.evaluate(CUT_LABELS, ".calc")]
    page.evaluate("document.querySelector('.calc-result').scrollIntoView()")
    shot(page, f"scorepad-calc-{where}")
    assert cut == [], "\n".join(cut)


# ---------------------------------------------------------------------- no word broken
def test_a_hand_card_name_within_a_pixel_of_its_box_is_not_broken(live, new_page):
    """«Артефактник» measured as wide as its 94 px box on a phone's hand card and broke as
    «Артефактни/к»: a word within a pixel of its box is set smaller too (fitwords.js)."""
    from test_web_look import BROKEN_WORDS

    bots = [{"type": "bot", "bot": "random", "name": f"Bo{i}"} for i in range(2)]
    body = {"game": "red-rising", "seed": 21, "bot_delay": 0.7, "seats": [{"type": "human", "name": "Ann"}, *bots]}
    status, g = http("POST", f"{live.base}/api/games", body)
    assert status == 201, g
    page = new_page(label="hand names: ", **PHONE)
    set_language(page, live.base, "uk")
    page.goto(live.base + g["seats"][0]["invite_url"])
    page.click(".join-btn")
    page.wait_for_selector(".rr-hand .rcard")
    page.wait_for_timeout(300)
    names = page.eval_on_selector_all(".rr-hand .rc-name", "els => els.map((e) => e.textContent)")
    assert "Артефактник" in names, names
    broken = page.evaluate(BROKEN_WORDS, ".table-shell")
    assert broken == [], "\n".join(broken)
    page.locator(".rr-hand").scroll_into_view_if_needed()
    shot(page, "hand-names-uk-phone")
