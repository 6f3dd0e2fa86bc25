"""The game table's layout on every screen, in real headless Chromium against the real server.

Whole seeded games of both titles are played through the page by clicking (tapping on the
phone) against bots, at 1400x900, 1920x1080 and a 390x844 touch phone, in English, Ukrainian
and Polish (each title meets each language and each size once; one Red Rising game has six
players). At every decision the page is measured:

- no card name, caste or card label is cut (its text fits its box and its card) at any size,
  and once in a while also with the window narrowed to 1280 px;
- the instruction and at least one of its targets are in sight together (inside the
  viewport, not covered by the docked hand or the prompt bar);
- prompts name the gesture: "tap" on the touch phone, "click" with a mouse;
- no console error (the ``console`` fixture).

axe-core (vendored under ``tests/web/vendor/``, served to the page from its own origin so the
Content-Security-Policy stays on) scans the tables, the end screens, the lobby and the score
calculator: no violation of impact "serious" or "critical". Dedicated tests cover a tap on a
highlighted opponent panel (it chooses the opponent, even on the house text), reading a card
on a touch screen (a tap on a card, the info mark or a long press on a target opens its text
and decides nothing), and long location piles (collapsed, "+N cards" opens them).

Screenshots go to ``artifacts/screenshots/screens-*.png``.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from webkit import CHOICES, READY, SHOTS, http

VENDOR = Path(__file__).resolve().parent / "vendor"
AXE = VENDOR / "axe.min.js"
AXE_PATH = "/__test-only__/axe.min.js"

PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
DESKTOP = {"width": 1400, "height": 900}
WIDE = {"width": 1920, "height": 1080}

# title, players, language, screen, seed
GAMES = [
    pytest.param("red-rising", 3, "en", DESKTOP, 11, id="rr-en-1400"),
    pytest.param("red-rising", 4, "uk", PHONE, 12, id="rr-uk-phone"),
    pytest.param("red-rising", 6, "pl", WIDE, 13, id="rr-pl-1920-6p"),
    pytest.param("red-north", 2, "pl", PHONE, 21, id="rn-pl-phone"),
    pytest.param("red-north", 4, "en", WIDE, 22, id="rn-en-1920"),
    pytest.param("red-north", 3, "uk", DESKTOP, 23, id="rn-uk-1400"),
]

# the decisions whose prompt names the gesture, and the verb it uses with a mouse / on touch
GESTURE_KINDS = {"red-rising": {"action", "deploy_location"}, "red-north": {"deploy", "turn", "reinforce"}}
VERBS = {"en": ("click", "tap"), "uk": ("клацніть", "торкніться"), "pl": ("kliknij", "dotknij")}

# Every card name, caste and card label on the page whose text does not fit its box, or that
# sticks out of its card (a card clips what overflows it).
CUT_TEXT = """() => {
  const sel = '.rc-name, .rc-col, .n-type, .n-name, .n-down, .o-name, .o-pts, .loc-name, .dchip, .pm-label';
  const out = [];
  for (const e of document.querySelectorAll(sel)) {
    if (!e.getClientRects().length || getComputedStyle(e).display === 'inline') continue;
    const what = `${e.className} "${e.textContent}" (${innerWidth}px)`;
    if (e.scrollWidth > e.clientWidth + 0.5) out.push('too wide: ' + what);
    const card = e.parentElement.closest('.rcard, .ncard');
    if (card) {
      const r = e.getBoundingClientRect(), c = card.getBoundingClientRect();
      const outside = r.left < c.left - 1 || r.right > c.right + 1 || r.top < c.top - 1 || r.bottom > c.bottom + 1;
      if (outside) out.push('outside its card: ' + what);
    }
  }
  return out;
}"""

# The card names and labels that wrap inside a word ("Фіолетови/й"): none on a wide screen.
BROKEN_WORDS = """() => {
  const out = new Set();
  for (const e of document.querySelectorAll('.rc-name, .rc-col, .n-type, .n-name, .n-down, .o-name, .dchip')) {
    if (!e.getClientRects().length) continue;
    const st = getComputedStyle(e), fs = parseFloat(st.fontSize);
    if (e.clientHeight < 1.8 * (parseFloat(st.lineHeight) || 1.3 * fs)) continue;  // one line: nothing wraps
    for (const node of e.childNodes) {
      if (node.nodeType !== 3) continue;
      const text = node.textContent, r = document.createRange();
      let top = null;
      for (let i = 0; i < text.length; i++) {
        r.setStart(node, i); r.setEnd(node, i + 1);
        const box = r.getClientRects()[0];
        if (!box) continue;
        const wrapped = top !== null && box.top > top + 2;
        if (wrapped && /\\S/.test(text[i]) && /[^\\s-]/.test(text[i - 1])) out.add(`${text} (${innerWidth}px)`);
        top = box.top;
      }
    }
  }
  return [...out];
}"""

# Whether the instruction and at least one target are in sight: inside the viewport and not
# covered (a point of the visible part hits the element itself, not the docked hand over it).
IN_SIGHT = """(choices) => {
  const H = innerHeight, W = innerWidth;
  const seen = (el) => [...el.getClientRects()].some((r) => {  // a line of text is a rect of its own
    const top = Math.max(0, r.top), bottom = Math.min(H, r.bottom);
    const left = Math.max(0, r.left), right = Math.min(W, r.right);
    if (bottom - top < 6 || right - left < 6) return false;
    for (const fy of [0.5, 0.25, 0.75]) for (const fx of [0.5, 0.25, 0.75]) {
      const hit = document.elementFromPoint(left + (right - left) * fx, top + (bottom - top) * fy);
      if (hit && (hit === el || el.contains(hit))) return true;
    }
    return false;
  });
  const text = document.querySelector('.prompt .prompt-text');
  const targets = [...document.querySelectorAll(choices)];
  const snap = window.__session.snap;
  return {
    prompt: !!text && seen(text), text: text ? text.textContent : null, targets: targets.length,
    seen: targets.filter(seen).length, kind: snap.decision && snap.decision.kind, scroll: scrollY,
  };
}"""


# ---------------------------------------------------------------------- helpers
def snap(page, name: str) -> Path:
    """A screenshot of what the screen shows now (no scrolling), kept as an artifact."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"screens-{name}.png"
    page.screenshot(path=str(path))
    return path


def serve_axe(page, base: str) -> None:
    """axe-core for this page, answered from the page's own origin (the CSP allows 'self')."""
    page.route(base + AXE_PATH, lambda route: route.fulfill(path=str(AXE), content_type="application/javascript"))


def axe_violations(page, base: str, where: str) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(url=base + AXE_PATH)
    found = page.evaluate("""async () => {
        const r = await axe.run(document, { resultTypes: ['violations'] });
        return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}): ${v.help} — `
            + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | '));
    }""")
    return [f"{where}: {v}" for v in found]


def set_language(page, base: str, lang: str) -> None:
    """English is the browser's; Ukrainian through the top bar's switch; Polish as remembered."""
    if lang == "pl":
        page.add_init_script("localStorage.setItem('redtable.lang', 'pl')")
    page.goto(base + "/#/")
    if lang == "uk":
        page.click('button[data-lang="uk"]')
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


def new_game(base: str, title: str, players: int, seed: int, humans: int = 1, options: dict | None = None) -> dict:
    seats = [{"type": "human", "name": ["Ann", "Bo", "Cy"][i]} for i in range(humans)]
    seats += [{"type": "bot", "bot": "random"} for _ in range(players - humans)]
    status, g = http(
        "POST",
        f"{base}/api/games",
        {"game": title, "seats": seats, "seed": seed, "bot_delay": 0, "options": options or {}},
    )
    assert status in (200, 201), g
    return g


def join(page, base: str, g: dict, seat: int = 0) -> None:
    page.goto(base + g["seats"][seat]["invite_url"])
    page.click(".join-btn")
    page.wait_for_selector(".board [data-target]")


def act(el, touch: bool) -> None:
    if touch:
        el.tap(timeout=3000)
    else:
        el.click(timeout=3000)


def choose(page, rnd: random.Random, touch: bool) -> bool:
    """Click (tap) one of the offered choices at random, through its menu when it has one."""
    els = page.query_selector_all(CHOICES)
    if not els:
        return False
    el = rnd.choice(els)
    try:
        if el.get_attribute("data-opener") is not None:
            act(el, touch)
            page.wait_for_selector(".menu [data-action]", timeout=3000)
            act(rnd.choice(page.query_selector_all(".menu [data-action]")), touch)
        else:
            act(el, touch)
    except Exception:  # noqa: BLE001  (the page re-rendered under the tap: look again)
        return False
    return True


def chart_labels_inside(page) -> list[str]:
    """The chart texts that reach outside their drawing (an SVG cuts them there)."""
    return page.evaluate("""() => [...document.querySelectorAll('.endcard svg.chart')].flatMap((svg) => {
        const vb = svg.viewBox.baseVal;
        return [...svg.querySelectorAll('text')].map((t) => [t, t.getBBox()])
          .filter(([t, b]) => b.x < vb.x - 0.5 || b.y < vb.y - 0.5
            || b.x + b.width > vb.x + vb.width + 0.5 || b.y + b.height > vb.y + vb.height + 0.5)
          .map(([t]) => t.textContent);
    })""")


# ---------------------------------------------------------------------- whole games
@pytest.mark.parametrize("title, players, lang, screen, seed", GAMES)
def test_full_game_on_every_screen(live, new_page, title, players, lang, screen, seed):
    touch = bool(screen.get("has_touch"))
    width = screen["width"]
    name = f"{'rr' if title == 'red-rising' else 'rn'}-{lang}-{'phone' if touch else width}"
    page = new_page(label=f"{name}: ", **screen)
    serve_axe(page, live.base)
    set_language(page, live.base, lang)
    g = new_game(live.base, title, players, seed)
    join(page, live.base, g)

    rnd = random.Random(seed)
    problems: list[str] = []
    stats = {"decisions": 0, "in_sight": 0, "gesture": 0, "narrow": 0}

    def check(n: int) -> None:
        cut = page.evaluate(CUT_TEXT)
        if width >= 1280:
            cut += page.evaluate(BROKEN_WORDS)
        assert cut == [], f"decision {n}: text cut\n" + "\n".join(cut)
        if width >= 1800 and n % 8 == 3:  # the same table in a 1280 px window
            page.set_viewport_size({"width": 1280, "height": 800})
            cut = page.evaluate(CUT_TEXT) + page.evaluate(BROKEN_WORDS)
            page.set_viewport_size({"width": screen["width"], "height": screen["height"]})
            assert cut == [], f"decision {n} at 1280 px: text cut\n" + "\n".join(cut)
            stats["narrow"] += 1
        sight = page.evaluate(IN_SIGHT, CHOICES)
        if sight["text"] is not None:
            assert sight["prompt"] and sight["seen"] > 0, (
                f"decision {n}: instruction and target not in sight together: {sight}"
            )
            stats["in_sight"] += 1
            if sight["kind"] in GESTURE_KINDS[title]:
                mouse, finger = VERBS[lang]
                assert (finger if touch else mouse) in sight["text"].lower(), sight["text"]
                assert (mouse if touch else finger) not in sight["text"].lower(), sight["text"]
                stats["gesture"] += 1
        if title == "red-rising":
            check_rr_table(page, players, touch)
        if n == 1:
            snap(page, f"{name}-start")
            problems.extend(axe_violations(page, live.base, f"{name} table"))
        if n == 14:
            snap(page, f"{name}-mid")

    n = 0
    misses = 0
    while True:
        page.wait_for_function(READY, timeout=60000)
        if page.query_selector(".overlay .endcard"):
            break
        check(n + 1)
        if not choose(page, rnd, touch):
            misses += 1
            assert misses < 30, "the offered choices cannot be chosen"
            continue
        misses = 0
        n += 1
        assert n < 1500, "no end screen"
    stats["decisions"] = n
    assert stats["in_sight"] >= n * 0.9 and stats["gesture"] > 0, stats
    assert stats["narrow"] > 0 or width < 1800

    # the end screen fits the screen, its chart labels are whole, and it passes axe
    page.wait_for_selector(".endcard .chart")
    snap(page, f"{name}-end")
    assert page.evaluate("() => document.querySelector('.endcard').getBoundingClientRect().right <= innerWidth + 0.5")
    assert page.evaluate("() => document.querySelector('.overlay').scrollWidth <= innerWidth + 0.5")
    assert chart_labels_inside(page) == []
    problems.extend(axe_violations(page, live.base, f"{name} end screen"))
    assert problems == [], "\n".join(problems)
    assert page.evaluate("window.__i18nMissing()") == []


def check_rr_table(page, players: int, touch: bool) -> None:
    """Five or six houses lie in two even rows; a long pile shows "+N cards", not every card."""
    rows = page.evaluate("""() => {
        const tops = {};
        for (const p of document.querySelectorAll('.rr-player')) {
          const t = Math.round(p.getBoundingClientRect().top);
          tops[t] = (tops[t] || 0) + 1;
        }
        return Object.values(tops);
    }""")
    if players >= 5 and not touch:
        assert rows == [3, players - 3], rows
    piles = page.evaluate("""() => [...document.querySelectorAll('.rr-loc')].map((l) => ({
        cards: window.__session.snap.view.locations[l.dataset.target.slice(4)].length,
        more: !!l.querySelector('.pile-more'), open: !!l.querySelector('.pile-rest:not([hidden])'),
        drawn: l.querySelectorAll('.rcard').length,
    }))""")
    for p in piles:
        assert p["more"] == (p["cards"] >= 7), p
        if p["more"] and not p["open"]:
            assert p["drawn"] == p["cards"], p  # all in the page, the buried ones hidden
            assert page.evaluate(
                "() => [...document.querySelectorAll('.pile-rest[hidden] .rcard')]"
                ".every((c) => !c.getClientRects().length)"
            )


# ---------------------------------------------------------------------- a highlighted opponent panel on a phone
def seed_and_actions(title: str, players: int, want, seeds=range(400)) -> tuple[int, list[str]]:
    """A seed and the decisions that bring a game (no block windows) to a state ``want(state)`` likes."""
    from redtable.core import make_game

    for seed in seeds:
        st = make_game(title, players, block_windows=False).new_initial_state(seed)
        rnd, actions = random.Random(seed), []
        while not st.is_terminal():
            if want(st):
                return seed, actions
            a = rnd.choice(st.decision().options)
            actions.append(a)
            st.apply(a)
    raise AssertionError("no such state")


def human_game_at(base: str, players: int, seed: int, actions: list[str]) -> tuple[dict, list[str]]:
    """A game of ``players`` people advanced through the server by ``actions``; its seat tokens."""
    g = new_game(base, "red-rising", players, seed, humans=players, options={"block_windows": False})
    gid = g["game_id"]
    tokens = [http("POST", f"{base}/api/games/{gid}/join", {"invite": s["invite"]})[1]["token"] for s in g["seats"]]
    for version, action in enumerate(actions):
        seat = http("GET", f"{base}/api/games/{gid}?events=false")[1]["decision"]["player"]
        status, body = http(
            "POST", f"{base}/api/games/{gid}/decisions", {"action": action, "version": version}, tokens[seat]
        )
        assert status == 200, body
    return g, tokens


def to_my_next_turn(base: str, gid: str, tokens: list[str]) -> None:
    """Answer every decision (the first option) until seat 0 is asked for its next action."""
    for _ in range(200):
        seat = http("GET", f"{base}/api/games/{gid}?events=false")[1]["decision"]["player"]
        state = http("GET", f"{base}/api/games/{gid}?events=false", token=tokens[seat])[1]
        d = state["decision"]
        if d["player"] == 0 and d["kind"] == "action":
            return
        status, body = http(
            "POST",
            f"{base}/api/games/{gid}/decisions",
            {"action": d["options"][0], "version": state["version"]},
            tokens[d["player"]],
        )
        assert status == 200, body
    raise AssertionError("seat 0 is never asked again")


def version(page) -> int:
    return page.evaluate("window.__session.snap.version")


def test_tap_on_a_target_panel_chooses_it(live, new_page):
    """A phone: a tap anywhere on a highlighted opponent panel, its house text too, chooses that
    opponent; the panel's info mark reads the house text and decides nothing."""

    def choosing_opponent(st):
        d = st.decision()
        return d.player == 0 and d.kind == "choose_opponent"

    seed, actions = seed_and_actions("red-rising", 3, choosing_opponent)
    g, tokens = human_game_at(live.base, 3, seed, actions)
    page = new_page(label="panel: ", **PHONE)
    join(page, live.base, g)
    page.wait_for_selector(".rr-player.choice")
    v = version(page)
    snap(page, "rr-phone-choose-opponent")
    target = page.locator(".rr-player.choice").first
    seat = int(target.get_attribute("data-seat"))
    # the house text inside the highlighted panel is inert: it neither takes the focus nor the tap
    house = target.locator(".rp-house")
    assert house.evaluate("(b) => b.inert && b.closest('[inert]') === b")
    # reading it: the info mark (or a long press) opens the house text and decides nothing
    target.locator(".card-info").tap()
    page.wait_for_selector(".sheet-backdrop .sheet")
    assert page.locator(".sheet").inner_text().strip() != ""
    snap(page, "rr-phone-sheet-house")
    page.locator(".sheet-close").tap()
    page.wait_for_selector(".sheet-backdrop", state="detached")
    assert version(page) == v
    # a tap right on the house text chooses the opponent (measured once the panel is drawn again
    # and in view: a snapshot that arrives meanwhile redraws the panels)
    house.wait_for(state="visible")
    house.scroll_into_view_if_needed()
    box = house.bounding_box()
    assert box is not None, "the highlighted panel's house text is not shown"
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function(f"() => window.__session.snap.version > {v}")
    assert page.locator(".sheet-backdrop").count() == 0
    last = http("GET", f"{live.base}/api/games/{g['game_id']}/log", token=tokens[0])[1]["log"][-1]
    assert last["action"] == f"p{seat}", last


def long_press(page, x: float, y: float, ms: int = 700) -> None:
    """A finger held down at (x, y) for ``ms`` (real touch events through the DevTools protocol)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(ms)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_cards_read_by_touch_never_decide(live, new_page):
    """A phone: a tap on a card that is no target opens its full text; on a target its info
    mark or a long press does, and only a plain tap deploys it."""
    g = new_game(live.base, "red-rising", 2, 31)
    page = new_page(label="touch: ", **PHONE)
    join(page, live.base, g)
    page.wait_for_function(
        "() => { const s = window.__session.snap; "
        "return s.decision && s.decision.player === s.seat && s.decision.kind === 'action'; }"
    )
    page.wait_for_function(READY)
    v = version(page)
    # a card that is no target: a tap opens its full text (the table clamps it)
    loc_card = page.locator(".rr-loc .rcard.full").first
    slug = loc_card.get_attribute("data-card")
    loc_card.tap()
    page.wait_for_selector(".sheet .detail")
    full = page.locator(".sheet").inner_text()
    assert page.locator(f'.rr-loc .rcard[data-card="{slug}"] .rc-ab').first.inner_text().strip()[:20] in full
    page.keyboard.press("Escape")
    page.wait_for_selector(".sheet-backdrop", state="detached")
    # a card that is a target: its info mark opens its text, and so does a long press; neither deploys it
    card = page.locator(".rr-hand .rcard.choice").first
    name = card.locator(".rc-name").inner_text()
    card.locator(".card-info").tap()
    page.wait_for_selector(".sheet .detail")
    assert name in page.locator(".sheet").inner_text()
    page.locator(".sheet-close").tap()
    page.wait_for_selector(".sheet-backdrop", state="detached")
    box = card.bounding_box()
    long_press(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 3)
    page.wait_for_selector(".sheet .detail")
    assert name in page.locator(".sheet").inner_text()
    snap(page, "rr-phone-sheet-card")
    page.wait_for_timeout(300)
    assert version(page) == v and not page.locator(".table-shell.busy").count()
    page.keyboard.press("Escape")
    page.wait_for_selector(".sheet-backdrop", state="detached")
    # and a plain tap on it deploys it
    card.tap()
    page.wait_for_function(f"() => window.__session.snap.version > {v}")


# ---------------------------------------------------------------------- long piles
def test_long_piles_collapse_and_open(live, new_page):
    """1400x900, a location of 15 cards: its top card and the three under it show with "+N
    cards"; the tracks and the hand start on the first screen; an opened pile stays open."""

    def long_pile(st):
        d = st.decision()
        return d.player == 0 and d.kind == "action" and max(len(x) for x in st.view(0)["locations"].values()) >= 15

    seed, actions = seed_and_actions("red-rising", 2, long_pile, seeds=range(144, 400))
    g, tokens = human_game_at(live.base, 2, seed, actions)
    page = new_page(label="piles: ", **DESKTOP)
    join(page, live.base, g)
    page.wait_for_function(READY)
    loc = page.evaluate(
        """() => Object.entries(window.__session.snap.view.locations).sort((a, b) => b[1].length - a[1].length)[0][0]"""
    )
    n = page.evaluate(f"() => window.__session.snap.view.locations['{loc}'].length")
    col = page.locator(f'.rr-loc[data-target="loc:{loc}"]')
    more = col.locator(".pile-more")
    # the top card and the three under it show; "+N cards" stands for the rest
    assert more.get_attribute("aria-expanded") == "false"
    assert f"+{n - 4}" in more.inner_text()
    assert col.locator(".pile > .rcard").count() == 4
    assert col.locator(".pile > .rcard.full").count() == 1
    # the fleet track, the influence and the hand's cards start on the first screen
    for sel in (".rr-fleet", ".rr-institute", ".rr-hand .hand-cards"):
        assert page.evaluate(f"() => document.querySelector('{sel}').getBoundingClientRect().top < innerHeight"), sel
    snap(page, "rr-1400-long-pile")
    more.click()
    assert more.get_attribute("aria-expanded") == "true"
    assert col.locator(".pile-rest .rcard").count() == n - 4
    assert col.locator(".pile-rest").is_visible()
    # it stays open when the table is drawn again: our deploy, where the location is a target
    # (its button then is inert: a click anywhere on the location deploys there)
    v = version(page)
    page.locator(".rr-hand .rcard.choice").first.click()
    page.wait_for_function(f"() => window.__session.snap.version > {v}")
    page.wait_for_selector(f'.rr-loc.choice[data-target="loc:{loc}"] .pile-rest:not([hidden])')
    assert page.locator(f'.rr-loc[data-target="loc:{loc}"] .pile-more').evaluate("(b) => b.inert")
    snap(page, "rr-1400-long-pile-open")
    v = version(page)
    page.locator(f'.rr-loc[data-target="loc:{loc}"] .pile-more').evaluate(
        "(b) => b.scrollIntoView({ block: 'center' })"
    )
    box = page.locator(f'.rr-loc[data-target="loc:{loc}"] .pile-more').bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # lands on the location
    page.wait_for_function(f"() => window.__session.snap.version > {v}")
    steps = http("GET", f"{live.base}/api/games/{g['game_id']}/log", token=tokens[0])[1]["log"]
    assert [e.get("action") for e in steps[len(actions) :]][-1] == loc
    to_my_next_turn(live.base, g["game_id"], tokens)
    page.wait_for_function(
        "() => { const s = window.__session.snap; return s.decision && s.decision.player === s.seat "
        "&& s.decision.kind === 'action' && !document.querySelector('.table-shell.busy'); }"
    )
    more = page.locator(f'.rr-loc[data-target="loc:{loc}"] .pile-more')
    assert more.get_attribute("aria-expanded") == "true"
    more.click()
    assert page.locator(f'.rr-loc[data-target="loc:{loc}"] .pile-rest').is_hidden()


# ---------------------------------------------------------------------- accessibility of the other pages
@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["1400", "phone"])
def test_lobby_and_calculator_pass_axe(live, new_page, screen):
    page = new_page(label="axe: ", **screen)
    serve_axe(page, live.base)
    page.goto(live.base + "/#/")
    page.wait_for_selector(".newgame .create")
    problems = axe_violations(page, live.base, "lobby")
    page.goto(live.base + "/#/calc")
    page.wait_for_selector('[data-picker="hand0"]')
    page.fill('[data-picker="hand0"]', "Darrow")
    page.press('[data-picker="hand0"]', "Enter")
    page.click(".score-btn")
    page.wait_for_selector(".calc-result .scorepad")
    problems += axe_violations(page, live.base, "calculator")
    assert problems == [], "\n".join(problems)


def test_vendored_axe_is_the_released_file():
    """The vendored axe-core keeps its licence header and its licence file (MPL-2.0)."""
    head = AXE.read_text(encoding="utf-8")[:400]
    assert re.match(r"/\*! axe v\d+\.\d+\.\d+", head) and "Mozilla Public" in head
    assert "Mozilla Public License" in (VENDOR / "axe-core.LICENSE").read_text(encoding="utf-8")
