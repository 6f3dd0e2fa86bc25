"""The table as players see it (issue 25), in real Chromium against the real server, at a
390x844 touch phone and a 1400x900 window, in English, Ukrainian and Polish:

- the end screen opens at its top: the winner and the scorepad in view;
- the toolbar has no icon-only control, one trophy after the game, no "Live" on a finished game;
- bot seats are named short ("Bot 2 · Expert"), the scorepad's legend names each player once;
- names never break inside a word (long Ukrainian and Polish names at 390 px included);
- a card in the hand shows its whole text (a phone: a tap on its mark opens it);
- six houses, six colours a person tells apart: CIEDE2000 between every pair of the house
  colours and the Sovereignty row's, and against both themes' panels;
- the light theme follows ``prefers-color-scheme`` and a switch that is remembered; axe-core
  finds nothing serious in either theme;
- a lesson of the tutorial: no "your turn" notice for the game on the page, no chosen-deal
  badge, not in the public list nor in my games.

Screenshots: ``artifacts/screenshots/look-*.png``."""

from __future__ import annotations

import itertools
import time

import pytest
from test_web_screens import axe_violations, serve_axe, set_language
from webkit import SHOTS, http

PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
DESKTOP = {"width": 1400, "height": 900}
SCREENS = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="1400")]
LANGS = ["en", "uk", "pl"]

# long one-word names: a phone's two houses to a row must not cut them inside a word
LONG_NAMES = ["Костянтинопольська", "Brzęczyszczykiewicz", "Артефактник Олександр"]
# (no-break spaces hold "Bot 2 ·" together: a narrow column wraps before the kind only, never
# leaving "·" or the number alone on a line)
SHORT_BOT = {
    "en": ("Bot\u00a0{n}\u00a0· Random", "Bot\u00a0{n}\u00a0· Expert", "Bot\u00a0{n}\u00a0· Heuristic"),
    "uk": ("Бот\u00a0{n}\u00a0· Випадковий", "Бот\u00a0{n}\u00a0· Експерт", "Бот\u00a0{n}\u00a0· Евристичний"),
    "pl": ("Bot\u00a0{n}\u00a0· Losowy", "Bot\u00a0{n}\u00a0· Ekspert", "Bot\u00a0{n}\u00a0· Heurystyczny"),
}

# Every line break inside a word (a letter on both sides of the break) in the text under the
# given roots, found per character with Range.getClientRects; code, chat and inputs excepted.
BROKEN_WORDS = r"""(sel) => {
  const out = new Set();
  const skip = 'code, .chat, input, textarea, svg, .sr';
  for (const root of document.querySelectorAll(sel)) {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      const el = node.parentElement;
      if (!el || el.closest(skip) || !el.getClientRects().length) continue;
      const text = node.textContent;
      if (text.trim().length < 4) continue;
      const r = document.createRange();
      let top = null;
      for (let i = 0; i < text.length; i++) {
        r.setStart(node, i); r.setEnd(node, i + 1);
        const box = r.getClientRects()[0];
        if (!box || box.width === 0) continue;
        if (top !== null && box.top > top + 2 && /\p{L}/u.test(text[i]) && /\p{L}/u.test(text[i - 1])) {
          out.add(`"${text.trim()}" in ${el.className || el.tagName} (${innerWidth}px)`);
        }
        top = box.top;
      }
    }
  }
  return [...out];
}"""

# Whether an element is seen: inside the viewport by at least 20 px and not covered.
IN_VIEW = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  if (r.bottom < 20 || r.top > innerHeight - 20) return false;
  const y = Math.min(Math.max(r.top + 8, 0), innerHeight - 1), x = r.left + Math.min(r.width / 2, 40);
  const hit = document.elementFromPoint(x, y);
  return !!hit && (hit === el || el.contains(hit) || hit.contains(el));
}"""

# The status bar's controls: each visible one with its visible words (none may be icon-only).
TOOLBAR = """() => [...document.querySelectorAll('.status-right > .btn, .status-right > a, .status-right > button')]
  .filter((b) => b.getClientRects().length && getComputedStyle(b).display !== 'none')
  .map((b) => {
    const words = [...b.querySelectorAll('span')].filter((s) => s.getBoundingClientRect().width > 4
      && getComputedStyle(s).position !== 'absolute').map((s) => s.textContent.trim()).join(' ');
    return { cls: b.className, words: words || b.textContent.trim(),
             trophies: b.querySelectorAll('.icon-trophy').length };
  })"""


def shot(page, name: str) -> str:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"look-{name}.png"
    page.screenshot(path=str(path))
    return path.name


def wait_finished(base: str, gid: str, seconds: float = 120) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        _, g = http("GET", f"{base}/api/games/{gid}?events=false")
        if g.get("status") == "finished":
            return
        time.sleep(0.3)
    raise AssertionError("the bots did not finish their game")


@pytest.fixture(scope="module")
def six_bots(live):
    """A finished six-house Red Rising game of bots: three with long names, three unnamed."""
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


def open_watch(new_page, live, screen, lang: str, gid: str, label: str, **kw):
    page = new_page(label=label, **screen, **kw)
    serve_axe(page, live.base)
    set_language(page, live.base, lang)
    page.goto(f"{live.base}/#/game/{gid}?watch=1")
    page.wait_for_selector(".overlay .endcard .scorepad")
    page.wait_for_timeout(150)
    return page


# ---------------------------------------------------------------------- the end
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("screen", SCREENS)
def test_end_screen_opens_at_its_top_and_the_toolbar_has_words(live, new_page, six_bots, screen, lang):
    where = f"{lang}-{'phone' if screen is PHONE else '1400'}"
    page = open_watch(new_page, live, screen, lang, six_bots, f"end {where}: ")
    assert page.evaluate("document.querySelector('.overlay').scrollTop") == 0
    assert page.evaluate(IN_VIEW, ".endcard .winner"), "the winner is not in view"
    assert page.evaluate(IN_VIEW, ".endcard .scorepad"), "the scorepad is not in view"
    assert page.evaluate("document.activeElement.id") == "end-h"  # the focus is in the dialog, at its top
    shot(page, f"end-{where}")
    # the scorepad legend (a phone's compact scorepad) names every player once
    legend = page.eval_on_selector_all(
        ".endcard .sp-legend li", "els => els.map(e => [e.querySelector('b').textContent, e.textContent])"
    )
    for bold, line in legend:
        assert line.count(bold) == 1, f"the legend repeats a name: {line}"
    names = [n.format(n=4) for n in SHORT_BOT[lang][:1]]
    text = page.inner_text(".endcard")
    assert names[0] in text and "(" + SHORT_BOT[lang][0].split("\u00a0· ")[1] not in text
    broken = page.evaluate(BROKEN_WORDS, ".endcard")
    assert broken == [], "\n".join(broken)
    problems = axe_violations(page, live.base, f"end screen {where}")

    page.click(".close-end")
    page.wait_for_selector(".overlay", state="detached")
    tools = page.evaluate(TOOLBAR)
    assert all(t["words"] for t in tools), f"icon-only controls: {tools}"
    assert sum(t["trophies"] for t in tools) == 1, f"trophies after the game: {tools}"
    assert not page.locator(".statusbar .conn").is_visible(), "'Live' on a finished game"
    broken = page.evaluate(BROKEN_WORDS, ".table-shell")
    assert broken == [], "\n".join(broken)
    shot(page, f"after-{where}")
    problems += axe_violations(page, live.base, f"finished table {where}")
    assert problems == [], "\n".join(problems)


# ---------------------------------------------------------------------- a live table
def human_game(base: str, name: str) -> dict:
    seats = [
        {"type": "human", "name": name},
        {"type": "bot", "bot": "random"},
        {"type": "bot", "bot": "expert:1s"},
        {"type": "bot", "bot": "heuristic"},
    ]
    status, g = http(
        "POST",
        f"{base}/api/games",
        {"game": "red-rising", "seats": seats, "seed": 41, "bot_delay": 0, "options": {"block_windows": False}},
    )
    assert status == 201, g
    return g


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("screen", SCREENS)
def test_live_table_names_words_and_card_texts(live, new_page, screen, lang):
    phone = screen is PHONE
    where = f"{lang}-{'phone' if phone else '1400'}"
    page = new_page(label=f"table {where}: ", **screen)
    serve_axe(page, live.base)
    set_language(page, live.base, lang)
    g = human_game(live.base, {"en": "Ann", "uk": LONG_NAMES[0], "pl": LONG_NAMES[1]}[lang])
    page.goto(live.base + g["seats"][0]["invite_url"])
    page.click(".join-btn")
    page.wait_for_function(
        "() => { const s = window.__session && window.__session.snap; "
        "return s && s.decision && s.decision.player === s.seat && s.decision.kind === 'action'; }"
    )
    page.wait_for_selector(".rr-hand .rcard.choice")
    page.wait_for_timeout(200)
    # short bot names on the panels, and no long preset description anywhere on the table
    panels = page.eval_on_selector_all(".rr-player .rp-name", "els => els.map(e => e.textContent.trim())")
    want = [SHORT_BOT[lang][0].format(n=2), SHORT_BOT[lang][1].format(n=3), SHORT_BOT[lang][2].format(n=4)]
    for w in want:
        assert any(p.startswith(w) for p in panels), (w, panels)
    assert "(" not in " ".join(panels)
    # no icon-only control; the connection is shown while the game is live
    tools = page.evaluate(TOOLBAR)
    assert all(t["words"] for t in tools), f"icon-only controls: {tools}"
    assert page.locator(".statusbar .conn").is_visible()
    # names never break inside a word (the hand's card names, the houses' long names)
    broken = page.evaluate(BROKEN_WORDS, ".table-shell")
    assert broken == [], "\n".join(broken)
    # the Institute's influence rows name every seat whole (they were cut: "Бот 2 · Випад…")
    cut = page.eval_on_selector_all(
        ".rr-institute .infl-name",
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1 || getComputedStyle(e).textOverflow === 'ellipsis')"
        ".map(e => e.textContent)",
    )
    assert cut == [], cut
    names = page.eval_on_selector_all(".rr-institute .infl-name", "els => els.map(e => e.textContent)")
    assert names[1:4] == want and any(n.startswith(names[0]) for n in panels), (names, panels)
    if phone:
        page.locator(".rr-institute").scroll_into_view_if_needed()
        shot(page, f"institute-{where}")
        page.evaluate("window.scrollTo(0, 0)")
    # a card in the hand shows its whole text (no "…": nothing clamped or cut)
    if not phone:
        cut = page.eval_on_selector_all(
            ".rr-hand .hand-cards .rc-ab",
            "els => els.filter(e => e.scrollHeight > e.clientHeight + 1 "
            "|| getComputedStyle(e).webkitLineClamp !== 'none').map(e => e.textContent)",
        )
        assert cut == [], cut
        shot(page, f"table-{where}")
    else:
        shot(page, f"table-{where}")
        card = page.locator(".rr-hand .rcard.choice").first
        card.locator(".card-info").tap()
        page.wait_for_selector(".sheet .detail")
        cut = page.eval_on_selector_all(
            ".sheet .detail, .sheet .detail *",
            "els => els.filter(e => e.scrollHeight > e.clientHeight + 1 && getComputedStyle(e).overflowY === 'hidden')"
            ".map(e => e.className)",
        )
        assert cut == [], cut
        sheet = "(() => { const s = document.querySelector('.sheet'); "
        sheet += "return s.scrollHeight <= s.clientHeight + 1 || getComputedStyle(s).overflowY === 'auto'; })()"
        assert page.evaluate(sheet)  # the whole text, or a sheet that scrolls to it
        shot(page, f"card-{where}")
        page.keyboard.press("Escape")
        page.wait_for_selector(".sheet-backdrop", state="detached")
    # a card in a decision shows its whole text: where to deploy the card chosen, with the card
    card = page.locator(".rr-hand .rcard.choice").first
    (card.tap if phone else card.click)()
    page.wait_for_function(
        "() => { const s = window.__session.snap; "
        "return s.decision && s.decision.player === s.seat && s.decision.kind === 'deploy_location'; }"
    )
    if not phone:
        page.wait_for_selector(".prompt .prompt-card .rcard .rc-ab")
        cut = page.eval_on_selector_all(
            ".prompt .prompt-card .rc-ab",
            "els => els.filter(e => e.scrollHeight > e.clientHeight + 1 "
            "|| getComputedStyle(e).webkitLineClamp !== 'none').map(e => e.textContent)",
        )
        assert cut == [], cut
        shot(page, f"decision-{where}")
    else:  # a phone's prompt names the card in a strip; a tap on it opens its whole text
        page.locator(".prompt .prompt-card .rcard").tap()
        page.wait_for_selector(".sheet .detail")
        cut = page.eval_on_selector_all(
            ".sheet .detail, .sheet .detail *",
            "els => els.filter(e => e.scrollHeight > e.clientHeight + 1 && getComputedStyle(e).overflowY === 'hidden')"
            ".map(e => e.className)",
        )
        assert cut == [], cut
        assert page.evaluate(sheet)
        shot(page, f"decision-{where}")
        page.keyboard.press("Escape")
        page.wait_for_selector(".sheet-backdrop", state="detached")
    problems = axe_violations(page, live.base, f"table {where}")
    assert problems == [], "\n".join(problems)


# ---------------------------------------------------------------------- colours
def test_six_houses_six_colours_in_both_themes(live, new_page, six_bots):
    from coloraide import Color

    for theme in ("dark", "light"):
        page = open_watch(new_page, live, DESKTOP, "en", six_bots, f"colours {theme}: ", color_scheme=theme)
        assert page.evaluate("document.documentElement.dataset.theme") == theme
        got = page.evaluate("""async () => {
            const rr = await import('/js/rr.js'), chart = await import('/js/chart.js');
            const panel = getComputedStyle(document.body).getPropertyValue('--panel').trim();
            const houses = [...document.querySelectorAll('.rr-player')]
              .map((e) => e.style.getPropertyValue('--house').trim());
            return { houses: rr.HOUSE_COLORS, sovereignty: chart.PALETTE[3], panel, shown: houses };
        }""")
        page.click(".close-end")
        assert sorted(got["shown"]) == sorted(got["houses"].values()), got  # the panels wear those six
        colours = {**got["houses"], "sovereignty row": got["sovereignty"]}
        assert len(colours) == 7
        near = []
        for (a, ca), (b, cb) in itertools.combinations(colours.items(), 2):
            d = Color(ca).delta_e(cb, method="2000")
            if d < 20:
                near.append(f"{a} {ca} ~ {b} {cb}: ΔE2000 {d:.1f}")
        for a, ca in colours.items():  # each stands out of the theme's panels
            d = Color(ca).delta_e(got["panel"], method="2000")
            if d < 20:
                near.append(f"{a} {ca} on the {theme} panel {got['panel']}: ΔE2000 {d:.1f}")
        assert near == [], "\n".join(near)
        shot(page, f"houses-{theme}")


# ---------------------------------------------------------------------- the light theme
@pytest.mark.parametrize(
    "screen,lang",
    [
        pytest.param(PHONE, "en", id="phone-en"),
        pytest.param(DESKTOP, "en", id="1400-en"),
        pytest.param(PHONE, "uk", id="phone-uk"),
        pytest.param(DESKTOP, "pl", id="1400-pl"),
    ],
)
def test_light_theme_follows_the_system_and_the_switch(live, new_page, six_bots, screen, lang):
    from webkit import catalog

    words = catalog(lang)
    where = ("phone" if screen is PHONE else "1400") + ("" if lang == "en" else f"-{lang}")
    page = new_page(label=f"theme {where}: ", color_scheme="light", **screen)
    serve_axe(page, live.base)
    if lang != "en":
        set_language(page, live.base, lang)
    page.goto(live.base + "/#/")
    page.wait_for_selector(".newgame .create")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg.startswith("rgb(244, 241, 234"), bg
    shot(page, f"lobby-light-{where}")
    problems = axe_violations(page, live.base, f"light lobby {where}")
    page.goto(f"{live.base}/#/game/{six_bots}?watch=1")
    page.wait_for_selector(".overlay .endcard .scorepad")
    shot(page, f"end-light-{where}")
    problems += axe_violations(page, live.base, f"light end screen {where}")
    page.click(".close-end")
    shot(page, f"table-light-{where}")
    problems += axe_violations(page, live.base, f"light table {where}")
    assert problems == [], "\n".join(problems)
    # the switch: dark, remembered over a reload although the system says light
    switch = page.locator(".topbar .theme-switch")
    assert switch.inner_text().strip() == words["theme.dark"]
    switch.click()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.reload()
    page.wait_for_selector(".status-right")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.locator(".topbar .theme-switch").inner_text().strip() == words["theme.light"]
    shot(page, f"table-dark-switched-{where}")
    # and a dark system with no choice made: dark
    dark = new_page(label=f"theme dark {where}: ", color_scheme="dark", **screen)
    dark.goto(live.base + "/#/")
    dark.wait_for_selector(".newgame .create")
    assert dark.evaluate("document.documentElement.dataset.theme") == "dark"


# ---------------------------------------------------------------------- the tutorial
@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("title", ["red-rising", "red-north"])
def test_a_lesson_is_private_and_never_announced_on_its_own_page(live, new_page, title, screen):
    where = "phone" if screen is PHONE else "1400"
    page = new_page(label=f"lesson {title} {where}: ", **screen)
    page.add_init_script("localStorage.setItem('redtable.name', 'Ann')")
    page.goto(f"{live.base}/#/learn/{title}")
    page.wait_for_selector(".tutorial .table-shell .board [data-key], .tutorial .table-shell .board .rcard")
    page.wait_for_function("() => window.__session && window.__session.snap && window.__session.snap.tutorial === true")
    gid = page.evaluate("window.__session.snap.game_id || location.hash.split('/')[3]")
    # the turn watch polls at once: no notice, no count (a lesson is not one of "my games")
    page.evaluate("window.__turnWatch.poll()")
    page.wait_for_timeout(300)
    page.evaluate("window.__turnWatch.poll()")
    page.wait_for_timeout(300)
    assert page.locator(".turn-notice").count() == 0
    assert page.evaluate("window.__turnWatch.count") == 0
    assert not page.locator(".mygames-count").is_visible()
    assert not page.locator(".status-left .seed-chosen").is_visible()  # the guide's deal, not a creator's
    assert page.evaluate("window.__session.snap.seats[0].name") == "Ann"  # the lesson's seat has your name
    listed = {g["id"] for g in http("GET", f"{live.base}/api/games?limit=500")[1]}
    assert gid not in listed
    shot(page, f"lesson-{title}-{where}")
