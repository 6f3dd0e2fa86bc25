"""The review page (review.js): a finished game's review by seat, at both sizes in three languages.

One server for the module reviews with a tiny iteration budget (its search worker is a
process: ``multiprocess``). Each language meets each size once; at each the page is checked:
the chart draws a point per decision (mistakes and blunders marked) and a point opens the
replay at its step, every mark has its sentence in the page's language with the options
worded as the table words them, nothing sticks out of the page, and a screenshot is kept
(``artifacts/screenshots/review-*.png``); axe-core finds no serious violation. The replay's
last step and the end screen link here.
"""

from __future__ import annotations

import time

import pytest
from test_web_screens import axe_violations, serve_axe
from webkit import LiveServer, http, shot

from redtable.review.words import why_words
from redtable.server.botpool import BotPool

pytestmark = pytest.mark.multiprocess  # the server's search worker reviews

PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
DESKTOP = {"width": 1400, "height": 900}
BETTER = {"en": "Better:", "uk": "Краще:", "pl": "Lepiej:"}
TITLE = {"en": "The expert's review", "uk": "Розбір від експерта", "pl": "Analiza eksperta"}

SAID_WHY: set[str] = set()  # the titles whose review page said a why (checked: not vacuous)
RAN: set[str] = set()  # the review pages checked

# No element of the page wider than the window (a phone scrolls down, never sideways).
TOO_WIDE = """() => [...document.querySelectorAll('.review *')]
  .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > innerWidth + 1)
  .map((e) => `${e.tagName}.${e.className.baseVal ?? e.className}`).slice(0, 5)"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    srv = LiveServer(
        tmp_path_factory.mktemp("review") / "web.db", review_budget="4it", bot_pool=BotPool(1, fast_workers=0)
    ).start()
    games = {}
    for title, seed in (("red-north", 7), ("red-rising", 3)):
        body = {"game": title, "seed": seed, "seats": [{"type": "bot", "bot": "random"}] * 2}
        if title == "red-rising":
            body["options"] = {"block_windows": False}
        status, info = http("POST", srv.base + "/api/games", body)
        assert status == 201, info
        games[title] = info["game_id"]
    deadline = time.time() + 30
    for gid in games.values():
        while http("GET", f"{srv.base}/api/games/{gid}?events=false")[1]["status"] != "finished":
            assert time.time() < deadline, "the bots did not finish"
            time.sleep(0.05)
    yield srv, games
    srv.stop()


CASES = [
    pytest.param("en", DESKTOP, "red-rising", id="en-desktop"),
    pytest.param("en", PHONE, "red-north", id="en-phone"),
    pytest.param("uk", DESKTOP, "red-north", id="uk-desktop"),
    pytest.param("uk", PHONE, "red-rising", id="uk-phone"),
    pytest.param("pl", {**DESKTOP, "color_scheme": "light"}, "red-north", id="pl-desktop-light"),
    pytest.param("pl", PHONE, "red-rising", id="pl-phone"),
]


@pytest.mark.parametrize("lang, screen, title", CASES)
def test_review_page(site, new_page, lang, screen, title):
    srv, games = site
    gid = games[title]
    page = new_page(**screen)
    serve_axe(page, srv.base)
    if lang != "en":
        page.add_init_script(f"localStorage.setItem('redtable.lang', '{lang}')")
    page.goto(f"{srv.base}/#/review/{gid}?seat=1")
    page.wait_for_selector(".review-summary", timeout=60000)
    assert TITLE[lang] in page.inner_text("#review-h")
    assert page.get_attribute('.review-seat[data-seat="1"]', "aria-pressed") == "true"
    review = http("GET", f"{srv.base}/api/games/{gid}/review?seat=1")[1]
    ds = review["decisions"]
    assert ds and len(page.query_selector_all(".review-chart .pt")) == len(ds)
    marked = [e for e in ds if e["mark"]]
    assert len(page.query_selector_all(".review-chart .pt.mistake, .review-chart .pt.blunder")) == len(marked)
    assert len(page.query_selector_all(".review-mark")) == len(marked)
    if marked:  # the sentences, once the options' labels arrived (raw action strings before)
        first = marked[0]
        page.wait_for_function(
            "(a) => { const p = document.querySelector('.review-mark .review-sentence');"
            " return p && !p.textContent.includes('“' + a + '”') && !p.textContent.includes('«' + a + '»')"
            " && !p.textContent.includes('„' + a + '”'); }",
            arg=first["taken"],
        )
        text = page.inner_text(".review-mark .review-sentence")
        assert text.startswith(BETTER[lang]) and f"{round(100 * first['win_preferred'])}%" in text
    for e in marked:  # what the preferred option would have done: the terminal's words, the page's catalog
        what = why_words(e["why"], lang)
        if what is not None:
            assert what in page.inner_text(f'.review-mark[data-step="{e["step"]}"] .review-sentence')
            SAID_WHY.add(title)
    assert page.evaluate(TOO_WIDE) == []
    assert page.evaluate("() => window.__i18nMissing()") == []
    found = axe_violations(page, srv.base, f"review {lang}")
    assert found == [], "\n".join(found)
    RAN.add(f"{lang}-{title}-{screen['width']}")
    theme = "-light" if "color_scheme" in screen else ""
    shot(page, f"review-{lang}-{'phone' if screen is PHONE else 'desktop'}-{title}{theme}")
    # a point of the chart opens the replay at its step
    step = ds[len(ds) // 2]["step"]
    page.click(f'.review-chart .pt[data-step="{step}"]')
    page.wait_for_function(f"() => location.hash.startsWith('#/replay/{gid}?step={step}')")
    page.wait_for_selector(".scrubber .step-label")
    page.wait_for_function(f"() => document.querySelector('.scrubber input.range').value === '{step}'")


def test_the_review_pages_said_what_the_preferred_options_do():
    """Not vacuous: the pages above worded a ``why`` in both titles (run after them)."""
    if len(RAN) < len(CASES):
        pytest.skip("checked after all the review pages (the whole module)")
    assert SAID_WHY == {"red-north", "red-rising"}


def test_the_replay_and_the_end_screen_open_the_review(site, new_page):
    srv, games = site
    gid = games["red-north"]
    page = new_page()
    page.goto(f"{srv.base}/#/replay/{gid}?step=end")
    page.wait_for_selector(".prompt .review-link")
    page.click(".prompt button.btn.small")  # "show the results": the end screen
    page.wait_for_selector(".overlay .endcard .review-link")
    page.click(".overlay .endcard .review-link")
    page.wait_for_selector(".review-summary", timeout=60000)
    assert page.get_attribute('.review-seat[data-seat="0"]', "aria-pressed") == "true"
    page.click('.review-seat[data-seat="1"]')  # another seat: its own review
    page.wait_for_function("() => location.hash.endsWith('?seat=1')")
    page.wait_for_selector('.review-seat[data-seat="1"][aria-pressed="true"]')
    page.wait_for_selector(".review-summary", timeout=60000)


@pytest.mark.parametrize(
    "lang, screen", [pytest.param("uk", PHONE, id="uk-phone"), pytest.param("en", DESKTOP, id="en-desktop")]
)
def test_a_hint_in_a_practice_game_is_worded_and_marked_in_the_replay(site, new_page, lang, screen):
    srv, _ = site
    status, g = http(
        "POST",
        f"{srv.base}/api/games",
        {
            "game": "red-north",
            "seed": 31,
            "bot_delay": 0,
            "seats": [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}],
        },
    )
    assert status == 201, g
    page = new_page(**screen)
    if lang != "en":
        page.add_init_script(f"localStorage.setItem('redtable.lang', '{lang}')")
    page.goto(srv.base + g["seats"][0]["invite_url"])
    page.click(".join-btn")
    page.wait_for_selector(".prompt .hint-btn")
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        page.click(".prompt .hint-btn")
    page.wait_for_selector(".prompt .hint-text")
    text = page.inner_text(".prompt .hint-text")
    assert {"en": "The expert would choose", "uk": "Експерт вибрав би"}[lang] in text and "%" in text
    what = why_words(answer.value.json()["why"], lang)
    assert what is None or what in text  # why, in the hint's sentence
    assert "raider-" not in text and "hero-" not in text  # the options as the table words them
    assert page.evaluate(TOO_WIDE.replace(".review *", ".prompt *")) == []
    shot(page, f"hint-{lang}-{'phone' if screen is PHONE else 'desktop'}")
    gid = g["game_id"]
    hints = http("GET", f"{srv.base}/api/games/{gid}/hints")[1]["hints"]
    assert len(hints) == 1 and hints[0]["seat"] == 0
    # the person takes a choice (the decision hinted at is then in the replay)
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('redtable.seats'))['{gid}'].token")
    snap = http("GET", f"{srv.base}/api/games/{gid}?events=false", token=token)[1]
    body = {"action": snap["decision"]["options"][0], "version": snap["version"]}
    assert http("POST", f"{srv.base}/api/games/{gid}/decisions", body, token=token)[0] == 200
    page.goto(f"{srv.base}/#/replay/{gid}?step={hints[0]['step'] + 1}")
    page.wait_for_selector(".game-name .hint-badge")
    page.wait_for_selector(".prompt .hint-note")
    # played to the end, the game is in "my games" with its review
    for _ in range(300):
        snap = http("GET", f"{srv.base}/api/games/{gid}?events=false", token=token)[1]
        if snap["status"] == "finished":
            break
        d = snap["decision"]
        if d and d["player"] == 0 and d.get("options"):
            body = {"action": d["options"][0], "version": snap["version"]}
            http("POST", f"{srv.base}/api/games/{gid}/decisions", body, token=token)
        else:
            time.sleep(0.01)
    page.goto(f"{srv.base}/#/my-games")
    page.click(f'.mygames-row[data-game="{gid}"] .review-link')
    page.wait_for_selector(".review-summary", timeout=60000)
    assert page.get_attribute('.review-seat[data-seat="0"]', "aria-pressed") == "true"
