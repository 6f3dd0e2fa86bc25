"""Issue 25's last cuts, measured at 390x844 (touch) and 1400x900 in en, uk and pl.

- The replay's first / back / play / next / end buttons each show a word beside their mark
  (no icon-only control), the five in one row inside the window, none cut; the keys still step.
- The top menu shows every link whole and inside the window (it wraps to a second row on a
  phone; nothing scrolls sideways or waits off-screen).
- A card with three abilities is read whole: beside the board (1400x900) the card's box grows
  as far as the log keeps its newest line inside the window; on a phone its sheet opens whole.
"""

from __future__ import annotations

import pytest
from test_web_look import BROKEN_WORDS, LANGS, PHONE, SCREENS, human_game, six_bots  # noqa: F401
from test_web_screens import axe_violations, serve_axe, set_language
from webkit import catalog, shot


def where_of(screen, lang: str) -> str:
    return f"{lang}-{'phone' if screen is PHONE else '1400'}"


# Each element under `sel` that is cut or not wholly inside the window: its text wider than its
# box, or its box past the window's edges.
OUT_OR_CUT = r"""(sel) => [...document.querySelectorAll(sel)]
  .filter((el) => el.getClientRects().length)
  .map((el) => {
    const r = el.getBoundingClientRect();
    const bad = [];
    if (el.scrollWidth > el.clientWidth + 1) bad.push(`text ${el.scrollWidth} > box ${el.clientWidth}`);
    const at = (a, b, n) => `${Math.round(a)}..${Math.round(b)} of ${n}`;
    if (r.left < -0.5 || r.right > innerWidth + 0.5) bad.push(`x ${at(r.left, r.right, innerWidth)}`);
    if (r.top < -0.5 || r.bottom > innerHeight + 0.5) bad.push(`y ${at(r.top, r.bottom, innerHeight)}`);
    const cs = getComputedStyle(el);
    if (cs.textOverflow === 'ellipsis') bad.push('ellipsis');
    return bad.length ? `"${el.textContent.trim()}": ${bad.join(', ')}` : null;
  }).filter(Boolean)"""


# ---------------------------------------------------------------------- the replay's buttons
STEP_BUTTONS = r"""() => [...document.querySelectorAll('.scrubber .step-btn')].map((b) => {
  const w = b.querySelector('.step-word');
  const wr = w.getBoundingClientRect(), br = b.getBoundingClientRect();
  return { act: b.dataset.act, word: w.textContent, name: b.textContent.trim(), aria: b.getAttribute('aria-label'),
           lines: [...w.getClientRects()].length, wordInside: wr.left >= br.left - 0.5 && wr.right <= br.right + 0.5
             && wr.width > 4 && w.scrollWidth <= w.clientWidth + 1,
           top: Math.round(br.top), visible: getComputedStyle(w).display !== 'none' && wr.width > 4 };
})"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("screen", SCREENS)
def test_the_replay_buttons_have_words_and_fit(live, new_page, six_bots, screen, lang):  # noqa: F811
    where = where_of(screen, lang)
    words = catalog(lang)
    page = new_page(label=f"replay buttons {where}: ", **screen)
    serve_axe(page, live.base)
    set_language(page, live.base, lang)
    page.goto(f"{live.base}/#/replay/{six_bots}")
    page.wait_for_selector(".scrubber .step-btn .step-word")
    page.wait_for_function("() => document.querySelector('.scrubber .range').max !== '0'")
    page.locator(".scrubber").scroll_into_view_if_needed()
    buttons = page.evaluate(STEP_BUTTONS)
    want = {k: words[f"replay.{k}_word"] for k in ("first", "prev", "play", "next", "last")}
    assert [b["act"] for b in buttons] == list(want)
    for b in buttons:
        # the word is seen and is the button's name (no aria-label over it)
        assert b["visible"] and b["word"] == want[b["act"]] == b["name"] and b["aria"] is None, b
        assert b["lines"] == 1 and b["wordInside"], f"{where}: the word is wrapped or cut: {b}"
    assert len({b["top"] for b in buttons}) == 1, f"{where}: the five are not one row: {buttons}"
    cut = page.evaluate(OUT_OR_CUT, ".scrubber .step-btn")
    assert cut == [], "\n".join(cut)
    broken = page.evaluate(BROKEN_WORDS, ".scrubber")
    assert broken == [], "\n".join(broken)
    shot(page, f"fit-replay-{where}", full_page=False)
    # the keys step as before, and play says pause while it plays
    step = "() => document.querySelector('.scrubber .range').value"
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("End")
    page.wait_for_function(f"() => ({step})() === document.querySelector('.scrubber .range').max")
    page.keyboard.press("Home")
    page.wait_for_function(f"() => ({step})() === '0'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => ({step})() !== '0'")
    page.click(".scrubber [data-act=play]")
    page.wait_for_function(
        "(w) => document.querySelector('.scrubber [data-act=play] .step-word').textContent === w",
        arg=words["replay.pause_word"],
    )
    assert page.get_attribute(".scrubber [data-act=play]", "aria-pressed") == "true"
    cut = page.evaluate(OUT_OR_CUT, ".scrubber .step-btn")
    assert cut == [], "\n".join(cut)
    shot(page, f"fit-replay-playing-{where}", full_page=False)
    page.click(".scrubber [data-act=play]")
    page.wait_for_function(
        "(w) => document.querySelector('.scrubber [data-act=play] .step-word').textContent === w",
        arg=want["play"],
    )
    problems = axe_violations(page, live.base, f"replay {where}")
    assert problems == [], "\n".join(problems)


# ---------------------------------------------------------------------- the top menu
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("screen", SCREENS)
def test_every_top_menu_link_is_whole_and_in_view(live, new_page, screen, lang):
    where = where_of(screen, lang)
    words = catalog(lang)
    page = new_page(label=f"top menu {where}: ", **screen)
    serve_axe(page, live.base)
    set_language(page, live.base, lang)
    for route in ("#/", "#/learn", "#/calc"):
        page.goto(f"{live.base}/{route}")
        page.wait_for_selector(".mainnav .nav-learn")
        page.wait_for_timeout(150)
        texts = page.eval_on_selector_all(".mainnav a", "els => els.map((a) => a.textContent.trim())")
        for key in ("nav.lobby", "nav.calc", "nav.learn", "nav.leaderboard"):
            assert words[key] in texts, (key, texts)
        cut = page.evaluate(OUT_OR_CUT, ".mainnav a")
        assert cut == [], f"{where} {route}:\n" + "\n".join(cut)
        nav = page.evaluate(
            """() => { const n = document.querySelector('.mainnav'), cs = getComputedStyle(n);
              return { scroll: n.scrollWidth, client: n.clientWidth, mask: cs.webkitMaskImage || cs.maskImage,
                       tops: [...new Set([...n.querySelectorAll('a')]
                         .map((a) => Math.round(a.getBoundingClientRect().top)))] }; }"""
        )
        assert nav["scroll"] <= nav["client"] + 1 and nav["mask"] in ("none", None), (where, route, nav)
        assert len(nav["tops"]) <= 2, f"{where} {route}: more than two rows {nav}"
        # each link is seen, not under something else
        covered = page.evaluate(
            """() => [...document.querySelectorAll('.mainnav a')].filter((a) => {
                const r = a.getBoundingClientRect();
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return !hit || !(hit === a || a.contains(hit)); }).map((a) => a.textContent)"""
        )
        assert covered == [], (where, route, covered)
        assert page.evaluate(BROKEN_WORDS, ".mainnav") == []
    shot(page, f"fit-topmenu-{where}", full_page=False)
    problems = axe_violations(page, live.base, f"top menu {where}")
    assert problems == [], "\n".join(problems)


# ---------------------------------------------------------------------- a long card, whole
# The Red Rising cards with three abilities (deploy, end-game bonus, end of game).
THREE = [
    "bridge", "colonel-valentin", "danto", "holiday", "sun-hwa", "trigg", "ugly-dan", "aegis-craftsman",
    "artificer", "cyther", "gravboot-cobbler", "pulse-armorer", "pulse-fist-engineer", "razor-designer", "surgeon",
]  # fmt: skip

# Show the card `slug` as a pointer over it would (a card of that name under the table's shell).
SHOW = r"""([slug, how]) => {
  const el = document.createElement('span');
  el.dataset.card = slug;
  document.querySelector('.board').append(el);
  if (how === 'click') el.click(); else el.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
  el.remove();
}"""

# The card's box whole (nothing to scroll to) and the log's newest line inside the window.
MEASURE = r"""() => {
  const ins = document.querySelector('.side .inspector'), log = document.querySelector('.side .log');
  const lines = log.querySelector('.log-lines'), last = lines.lastElementChild;
  const lr = lines.getBoundingClientRect(), r = last ? last.getBoundingClientRect() : null;
  const story = log.querySelector('.turn-story');
  const storyH = story && story.getClientRects().length ? story.getBoundingClientRect().height : null;
  return { cardCut: ins.scrollHeight - ins.clientHeight, cardH: ins.clientHeight,
           logBottom: Math.round(log.getBoundingClientRect().bottom), h: innerHeight,
           newestSeen: !!r && r.bottom <= Math.min(lr.bottom, innerHeight) + 1 && r.top >= lr.top - 1,
           title: (ins.querySelector('h3') || {}).textContent, storyH };
}"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("screen", SCREENS)
def test_a_card_with_three_abilities_is_read_whole(live, new_page, screen, lang):
    phone = screen is PHONE
    where = where_of(screen, lang)
    page = new_page(label=f"long card {where}: ", **screen)
    serve_axe(page, live.base)
    set_language(page, live.base, lang)
    g = human_game(live.base, "Ann")
    page.goto(live.base + g["seats"][0]["invite_url"])
    page.click(".join-btn")
    page.wait_for_function(
        "() => { const s = window.__session && window.__session.snap; "
        "return s && s.decision && s.decision.player === s.seat && s.decision.kind === 'action'; }"
    )
    page.wait_for_selector(".rr-hand .rcard.choice")
    page.wait_for_timeout(300)
    if phone:  # no card box beside the board: a tap opens the card's sheet, whole
        for slug in THREE:
            page.evaluate(SHOW, [slug, "click"])
            page.wait_for_selector(".sheet .detail")
            cut = page.evaluate(
                """() => { const s = document.querySelector('.sheet');
                  const inner = [...s.querySelectorAll('.detail, .detail *')].filter((e) =>
                    e.scrollHeight > e.clientHeight + 1 && getComputedStyle(e).overflowY === 'hidden')
                    .map((e) => e.className);
                  const whole = s.scrollHeight <= s.clientHeight + 1 || getComputedStyle(s).overflowY === 'auto';
                  return whole ? inner : [...inner, 'the sheet'] }"""
            )
            assert cut == [], (slug, cut)
            if slug == "sun-hwa":
                shot(page, f"fit-card-{where}", full_page=False)
            page.keyboard.press("Escape")
            page.wait_for_selector(".sheet-backdrop", state="detached")
    else:
        worst = None
        for scrolled in (False, True):
            page.evaluate(f"window.scrollTo(0, {'document.body.scrollHeight' if scrolled else 0})")
            for slug in THREE:
                page.evaluate(SHOW, [slug, "over"])
                page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
                m = page.evaluate(MEASURE)
                assert m["cardCut"] <= 1, f"{where} {slug} (scrolled {scrolled}): the card scrolls {m}"
                assert m["logBottom"] <= m["h"] and m["newestSeen"], f"{where} {slug}: the log's newest line {m}"
                # the turn account at the log's head shows a line at least, or waits for room
                assert m["storyH"] is None or m["storyH"] >= 20, f"{where} {slug}: a sliver of the account {m}"
                if worst is None or m["cardH"] > worst[1]:
                    worst = (slug, m["cardH"])
            if not scrolled:
                page.evaluate(SHOW, [worst[0], "over"])
                page.wait_for_timeout(100)
                shot(page, f"fit-card-{where}", full_page=False)
        # a real pointer over a hand card shows it the same way
        card = page.locator(".rr-hand .rcard").first
        card.hover()
        page.wait_for_timeout(150)
        m = page.evaluate(MEASURE)
        assert m["cardCut"] <= 1 and m["newestSeen"], m
    problems = axe_violations(page, live.base, f"long card {where}")
    assert problems == [], "\n".join(problems)
