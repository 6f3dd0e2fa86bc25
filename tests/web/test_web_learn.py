"""Learning to play in real Chromium against the real server: the rules pages (filters by caste
and by text, every title in every language on a phone and a desktop screen), the hub and the
lobby's link to it, and each title's guided first game played through its guided steps to the
point where the player goes on freely — with a move off the lesson held back, the language
switched on the way, and a game that left the script recognised. The guide calls the player by
the name they gave, or their account's (its first and its last step).

Screenshots: artifacts/screenshots/learn-*.png. Every test fails on a console error."""

from __future__ import annotations

import json
from pathlib import Path

try:
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # the browser fixture skips these tests (or fails them in CI) without Playwright
    PlaywrightError = Exception

from webkit import http, shot

from redtable.web import STATIC_DIR

PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
DESKTOP = {"width": 1400, "height": 1000}
COACH = ".coach:not([hidden])"


def no_missing_texts(page) -> None:
    assert page.evaluate("() => (window.__learnMissing ? window.__learnMissing() : [])") == []
    assert page.evaluate("() => window.__i18nMissing()") == []


def no_sideways_scroll(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"), (
        "the page scrolls sideways"
    )


def visible_cards(page) -> list[dict]:
    return page.eval_on_selector_all(
        ".card-grid .rules-card:not([hidden])",
        "els => els.map(e => ({card: e.dataset.card, color: e.dataset.color, text: e.textContent}))",
    )


# ---------------------------------------------------------------------- rules pages
def test_rules_page_filters_by_caste_and_by_text(live, new_page):
    page = new_page(**DESKTOP, label="rules: ")
    page.goto(live.base + "/#/rules/red-rising")
    page.wait_for_selector(".card-grid .rules-card")
    assert len(visible_cards(page)) == 112
    assert page.inner_text(".card-count") == "Showing 112 of 112"
    # every section the page promises is there, read from the engine
    for sec in ("summary", "houses", "locations", "die", "fleet", "scoring", "cards"):
        assert page.locator(f"#rules-{sec}").count() == 1, sec
    assert page.locator(".house-tile").count() == 6 and page.locator(".loc-tile").count() == 4
    assert page.locator(".die-faces li").count() == 6 and page.locator(".fleet-cells li[data-space]").count() == 11
    assert page.inner_text('.fleet-cells li[data-space="10"] b').endswith("43")

    page.click('.chip-filter[data-color="red"]')
    cards = visible_cards(page)
    assert len(cards) == 7 and {c["color"] for c in cards} == {"red"}
    assert page.inner_text(".card-count") == "Showing 7 of 112"
    assert page.get_attribute('.chip-filter[data-color="red"]', "aria-pressed") == "true"
    assert "color=red" in page.evaluate("location.hash")

    page.fill(".card-search", "helium")
    cards = visible_cards(page)
    assert cards and all(c["color"] == "red" and "helium" in c["text"].lower() for c in cards)
    assert {"dancer", "uncle-narol", "deanna"} <= {c["card"] for c in cards}
    shot(page, "learn-rules-rr-filtered-desktop-en")

    # words in any order, any case; a search without a caste looks at all 112
    page.click('.chip-filter[data-color=""]')
    page.fill(".card-search", "TOP location Gold")
    cards = visible_cards(page)
    assert cards and all(all(w in c["text"].lower() for w in ("top", "location", "gold")) for c in cards)
    page.fill(".card-search", "zzzz no such card")
    assert visible_cards(page) == [] and page.is_visible(".card-none")

    # the filter is in the address: a reload (or a shared link) shows the same cards
    page.click(".clear-filter")
    assert len(visible_cards(page)) == 112
    page.goto(live.base + "/#/rules/red-rising?color=gold&q=sovereign")
    page.reload()
    page.wait_for_selector(".card-grid .rules-card", state="attached")
    cards = visible_cards(page)
    assert cards and all(c["color"] == "gold" and "sovereign" in c["text"].lower() for c in cards)
    assert page.input_value(".card-search") == "sovereign"

    # in Ukrainian the same page searches the Ukrainian texts (and names)
    page.click('.lang[data-lang="uk"]')
    page.wait_for_function(
        "() => (document.querySelector('.rules-head h1') || {}).textContent?.includes('Червоний світанок')"
    )
    page.click(".clear-filter")
    page.fill(".card-search", "дерроу")
    cards = visible_cards(page)
    assert "darrow" in {c["card"] for c in cards}
    page.fill(".card-search", "")
    page.click('.chip-filter[data-color="obsidian"]')
    assert {c["color"] for c in visible_cards(page)} == {"obsidian"}
    assert page.inner_text(".card-count") == "Показано 7 з 112"
    no_missing_texts(page)


def test_rules_pages_in_every_language_on_phone_and_desktop(live, new_page):
    for size, screen in (("phone", PHONE), ("desktop", DESKTOP)):
        for lang in ("en", "uk", "pl"):
            page = new_page(**screen, locale=lang, label=f"rules {size} {lang}: ")
            for game in ("red-rising", "red-north"):
                page.goto(f"{live.base}/#/rules/{game}")
                page.wait_for_selector(f'.rules-page[data-game="{game}"] #rules-summary .sum-item')
                if game == "red-rising":
                    page.wait_for_function("() => document.querySelectorAll('.rules-card').length === 112")
                else:
                    assert page.locator(".god-tile").count() == 8 and page.locator(".outpost-tile").count() == 5
                    assert page.locator(".kind-tile").count() == 11 and page.locator(".action-list dt").count() == 6
                    assert page.locator(".res-steps li").count() == 5
                assert page.evaluate("document.documentElement.lang") == lang
                no_sideways_scroll(page)
                no_missing_texts(page)
                # every summary paragraph is filled: no {placeholder} left
                body = page.inner_text("main")
                assert "{" not in body and "}" not in body, "a placeholder was left unfilled"
                shot(page, f"learn-rules-{game}-{size}-{lang}", full_page=False)
            # the table of contents takes the reader to a section
            page.click('.toc-link[data-section="outposts"]')
            page.wait_for_function(
                "() => { const r = document.querySelector('#rules-outposts').getBoundingClientRect();"
                " return r.top >= -2 && r.top < window.innerHeight / 2; }"
            )


def test_learn_hub_and_the_lobby_link(live, new_page):
    for size, screen in (("phone", PHONE), ("desktop", DESKTOP)):
        for lang in ("en", "uk", "pl"):
            page = new_page(**screen, locale=lang, label=f"hub {size} {lang}: ")
            page.goto(live.base + "/#/")
            page.wait_for_selector(".lobby-learn .learn-link")
            page.click(".lobby-learn .learn-link")
            page.wait_for_selector(".learn-title .first-game")
            assert page.locator(".learn-title").count() == 2
            assert page.get_attribute(".mainnav .nav-learn", "aria-current") == "page"
            assert page.get_attribute('.learn-title[data-title="red-north"] .rules-link', "href") == "#/rules/red-north"
            no_sideways_scroll(page)
            no_missing_texts(page)
            shot(page, f"learn-hub-{size}-{lang}", full_page=False)
            page.click('.learn-title[data-title="red-rising"] .rules-link')
            page.wait_for_selector(".rules-page .rules-card")


# ---------------------------------------------------------------------- the guided games
def coach(page) -> tuple[str, str]:
    return page.get_attribute(".coach", "data-kind"), page.get_attribute(".coach", "data-step")


def play_guided(page, game: str, stop_at: str = "free", on_step=None, max_steps: int = 60) -> list[str]:
    """Follow the guide: Next on a text, the glowing target (and the glowing item of the menu it
    opens) on a move, patience while the bot plays; until the step ``stop_at`` shows. Checks
    that what glows is the script's option. Returns the steps seen."""
    steps = json.loads((STATIC_DIR / "learn" / f"{game}.json").read_text(encoding="utf-8"))["steps"]
    by_id = {s["id"]: s for s in steps}
    seen: list[str] = []
    for _ in range(max_steps):
        page.wait_for_selector(COACH)
        page.wait_for_function(
            "() => !document.querySelector('.table-shell.busy')"
            " && document.querySelector('.coach').dataset.kind !== 'wait'",
            timeout=30000,
        )
        kind, step = coach(page)
        if not seen or seen[-1] != step:
            seen.append(step)
            if on_step:
                on_step(step, kind)
                if step != stop_at:
                    continue  # look again: what on_step did may have moved the game
        if step == stop_at:
            return seen
        assert kind in ("info", "decision", "final"), (kind, step)
        if kind == "info":
            page.click(".coach .coach-next")
            page.wait_for_function(f"() => document.querySelector('.coach').dataset.step !== {json.dumps(step)}")
            continue
        if kind == "final":
            raise AssertionError(f"reached the end of the guide before {stop_at!r}")
        option = by_id[step]["option"]
        for attempt in range(6):  # the table may re-render under the click (a presence or bot update): look again
            if attempt and coach(page)[1] != step:
                break  # the click went through after all
            try:
                click_target(page, option)
                break
            except PlaywrightError:
                if attempt == 5:
                    raise
                page.wait_for_timeout(150)
        page.wait_for_function(
            f"() => document.querySelector('.coach').dataset.step !== {json.dumps(step)}", timeout=30000
        )
    raise AssertionError(f"no {stop_at!r} after {max_steps} steps; seen {seen}")


def click_target(page, option: str) -> None:
    """Click the glowing target of a move, checking it is the script's option (through its menu if
    the target offers several)."""
    page.wait_for_selector(".table-shell .coach-target")
    target = next(el for el in page.query_selector_all(".table-shell .coach-target") if el.is_visible())
    if target.get_attribute("data-opener") is not None:
        assert option in json.loads(target.get_attribute("data-opener"))
        target.click(timeout=4000)
        page.wait_for_selector(".menu .coach-target", timeout=4000)
        assert page.get_attribute(".menu .coach-target", "data-action") == option
        page.click(".menu .coach-target", timeout=4000)
    else:
        assert target.get_attribute("data-action") == option, target.get_attribute("data-action")
        target.click(timeout=4000)


def tutorial_game(page) -> tuple[str, str]:
    page.wait_for_function("() => /^#\\/learn\\/[^/]+\\/[^/]+/.test(location.hash)")
    gid = page.evaluate("() => decodeURIComponent(location.hash.split('/')[3])")
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('redtable.seats'))[{json.dumps(gid)}].token")
    return gid, token


def test_red_rising_guided_game_to_free_play(live, new_page):
    page = new_page(**DESKTOP, label="rr tutorial: ")
    page.add_init_script("localStorage.setItem('redtable.name', 'Ann')")  # the name the player gave
    page.goto(live.base + "/#/learn")
    page.click('.learn-title[data-title="red-rising"] .first-game')
    gid, token = tutorial_game(page)
    page.wait_for_selector(COACH)
    assert coach(page) == ("info", "welcome")
    assert page.inner_text(".coach .coach-name") == "Welcome to the table, Ann!"  # the guide uses your name
    info = http("GET", f"{live.base}/api/games/{gid}?events=false")[1]
    assert info["seed_chosen_by_creator"] and [s["type"] for s in info["seats"]] == ["human", "bot"]
    shot(page, "learn-tutorial-rr-welcome-desktop-en", full_page=False)

    done = set()

    def on_step(step, kind):
        if step in done:
            return
        done.add(step)
        if step == "lead_darrow":
            # a move off the lesson is held back: nothing reaches the server
            assert page.get_attribute('[data-target="hand:darrow"]', "class").count("coach-target")
            page.click('[data-target="hand:helga"]')
            page.wait_for_selector('.coach[data-kind="deviation"]')
            assert "Helga" in page.inner_text(".coach") and "Darrow" in page.inner_text(".coach")
            shot(page, "learn-tutorial-rr-deviation-desktop-en", full_page=False)
            assert http("GET", f"{live.base}/api/games/{gid}?events=false")[1]["step"] == 0
            page.click(".coach .coach-back")
            page.wait_for_selector('.coach[data-kind="decision"][data-step="lead_darrow"]')
        if step == "deploy_mars":
            shot(page, "learn-tutorial-rr-deploy-desktop-en", full_page=False)
            # an undo takes the lesson's move back, and the lesson with it
            page.click(".undo:not([disabled])")
            page.wait_for_selector('.coach[data-kind="decision"][data-step="lead_darrow"]')
            assert http("GET", f"{live.base}/api/games/{gid}?events=false")[1]["step"] == 0
        if step == "lawyer":
            # the guide follows the page's language
            page.click('.lang[data-lang="pl"]')
            page.wait_for_function("() => document.querySelector('.coach h2').textContent.includes('Prawnik')")
            page.click('.lang[data-lang="en"]')
            page.wait_for_function("() => document.querySelector('.coach h2').textContent.includes('Lawyer')")

    seen = play_guided(page, "red-rising", on_step=on_step)
    assert seen[-1] == "free" and "deploy_mars" in seen and "scout_mars" in seen
    assert seen.count("lead_darrow") == 2  # once more after the undo
    state = http("GET", f"{live.base}/api/games/{gid}?events=false", token=token)[1]
    me = state["view"]["players"][0]
    assert state["step"] >= 20 and me["sovereign"] and me["helium"] == 3 and me["fleet"] == 1
    assert page.inner_text(".coach .coach-name").startswith("Well played, Ann:")
    shot(page, "learn-tutorial-rr-free-desktop-en", full_page=False)
    # the guided part is over: the player closes the guide and plays on freely
    page.click(".coach .coach-close")
    page.wait_for_selector(".coach[hidden]", state="attached")
    page.wait_for_function(
        "() => !document.querySelector('.table-shell.busy') && !!document.querySelector('.board [data-action]')",
        timeout=30000,
    )
    page.click(".rr-hand [data-action]")
    page.wait_for_function(f"() => window.__session.snap.step > {state['step']}")
    no_missing_texts(page)
    # the hub now offers to continue this game
    page.goto(live.base + "/#/learn")
    page.wait_for_selector('.learn-title[data-title="red-rising"] .restart')


def test_red_north_guided_game_on_a_phone_in_polish(live, new_page):
    page = new_page(**PHONE, locale="pl", label="rn tutorial: ")
    page.add_init_script("localStorage.setItem('redtable.name', 'Zofia')")
    page.goto(live.base + "/#/learn/red-north")
    gid, token = tutorial_game(page)
    page.wait_for_selector(COACH)
    assert "Red North" in page.inner_text(".coach h2") and "Dalej" in page.inner_text(".coach")
    assert page.inner_text(".coach .coach-name") == "Witaj przy stole! Grasz tu jako Zofia."

    def on_step(step, kind):
        no_sideways_scroll(page)
        if step in ("welcome", "deploy_jarl", "reinforce", "pass", "resolution"):
            shot(page, f"learn-tutorial-rn-{step}-phone-pl", full_page=False)
        if kind == "decision":
            # the target is in sight: below the coach, above the hand stuck to the bottom (unless in it)
            box = page.evaluate("""() => {
                const t = [...document.querySelectorAll('.table-shell .coach-target')]
                  .find(e => e.getClientRects().length);
                const r = t.getBoundingClientRect(), c = document.querySelector('.coach').getBoundingClientRect();
                return {top: r.top, bottom: r.bottom, coach: c.bottom, h: window.innerHeight};
            }""")
            assert box["top"] >= box["coach"] - 2 and box["bottom"] <= box["h"] + 2, (step, box)

    seen = play_guided(page, "red-north", on_step=on_step)
    assert seen[-1] == "free" and "resolution" in seen and "summer" in seen
    state = http("GET", f"{live.base}/api/games/{gid}?events=false", token=token)[1]
    v = state["view"]
    assert v["round_name"] == "summer" and v["resolutions"][0]["outposts"]["green"]["controller"] == 0
    assert state["decision"]["kind"] == "deploy"
    assert page.inner_text(".coach .coach-name") == "Dobrze zagrane! Dalej grasz jako Zofia bez przewodnika."
    shot(page, "learn-tutorial-rn-free-phone-pl", full_page=False)
    no_missing_texts(page)


# the name a player gave, and how the guide's first step greets them with it
HELLO = {
    "en": ("Ann", "Welcome to the table, {name}!"),
    "uk": ("Олена", "Вітаємо за столом! Тут ви граєте під іменем {name}."),
    "pl": ("Zofia", "Witaj przy stole! Grasz tu jako {name}."),
}


def test_every_guided_game_starts_in_every_language(live, new_page):
    for size, screen in (("phone", PHONE), ("desktop", {"width": 1400, "height": 900})):
        for lang in ("en", "uk", "pl"):
            page = new_page(**screen, locale=lang, label=f"start {size} {lang}: ")
            name = HELLO[lang][0]
            page.add_init_script(f"localStorage.setItem('redtable.name', '{name}')")
            for game in ("red-rising", "red-north"):
                page.goto(f"{live.base}/#/learn/{game}")
                tutorial_game(page)
                page.wait_for_selector(COACH)
                assert coach(page) == ("info", "welcome")
                # the guide calls the player by their name, in a sentence that needs no vocative
                assert page.inner_text(".coach .coach-name") == HELLO[lang][1].format(name=name)
                shot(page, f"learn-tutorial-{game}-welcome-{size}-{lang}", full_page=False)
                page.click(".coach .coach-next")
                page.wait_for_function("() => document.querySelector('.coach').dataset.step !== 'welcome'")
                no_sideways_scroll(page)
                no_missing_texts(page)
                assert "{" not in page.inner_text(".coach")
                # the step that points at a card: no "your turn" notice for this very game covers it
                page.evaluate("window.__turnWatch.poll()")
                page.wait_for_timeout(300)
                assert page.locator(".turn-notice").count() == 0
                shot(page, f"learn-tutorial-{game}-{size}-{lang}", full_page=False)


def test_playing_freely_and_a_game_off_the_script(live, new_page):
    page = new_page(**DESKTOP, locale="uk", label="free: ")
    page.goto(live.base + "/#/learn/red-north")
    gid, token = tutorial_game(page)
    play_guided(page, "red-north", stop_at="deploy_green")
    # a different card: held back; the player chooses to play it and go on without the guide
    page.click('.rn-hand [data-target="hand:raider-red"]')
    page.wait_for_selector('.coach[data-kind="deviation"]')
    page.click(".coach .coach-free")
    page.wait_for_selector('.coach[data-kind="freed"]')
    page.wait_for_function("() => window.__session.snap.step === 1")
    assert page.locator(".coach-target").count() == 0
    assert not page.evaluate("document.body.classList.contains('coached')")
    page.click(".coach .coach-close")
    page.wait_for_selector(".coach[hidden]", state="attached")

    # another guided game whose move is made elsewhere (another tab): the guide sees it left its path
    page.goto(live.base + "/#/learn")
    page.click('.learn-title[data-title="red-north"] .restart')
    gid2, token2 = tutorial_game(page)
    assert gid2 != gid
    page.wait_for_selector(COACH)
    state = http("GET", f"{live.base}/api/games/{gid2}?events=false", token=token2)[1]
    status, _ = http(
        "POST",
        f"{live.base}/api/games/{gid2}/decisions",
        {"action": "raider-red", "version": state["version"]},
        token=token2,
    )
    assert status == 200
    page.wait_for_selector('.coach[data-kind="offscript"]')
    assert "шляху уроку" in page.inner_text(".coach")
    shot(page, "learn-tutorial-offscript-desktop-uk", full_page=False)
    no_missing_texts(page)


# ---------------------------------------------------------------------- accessibility
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
AXE_PATH = "/__test-only__/axe.min.js"


def axe_problems(page, base: str, where: str) -> list[str]:
    """The serious and critical violations axe-core (vendored, served from the page's own origin)
    finds on the page."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(url=base + AXE_PATH)
    found = page.evaluate("""async () => {
        const r = await axe.run(document, { resultTypes: ['violations'] });
        return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}): ${v.help} — `
            + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | '));
    }""")
    return [f"{where}: {v}" for v in found]


def test_learning_pages_pass_axe(live, new_page):
    if not AXE.is_file():
        import pytest

        pytest.skip("axe-core is not vendored in this checkout")
    problems: list[str] = []
    for size, screen in (("phone", PHONE), ("desktop", DESKTOP)):
        page = new_page(**screen, locale="uk" if size == "phone" else "en", label=f"axe {size}: ")
        page.route(
            live.base + AXE_PATH, lambda route: route.fulfill(path=str(AXE), content_type="application/javascript")
        )
        page.goto(live.base + "/#/learn")
        page.wait_for_selector(".learn-title .first-game")
        problems += axe_problems(page, live.base, f"{size} hub")
        for game in ("red-rising", "red-north"):
            page.goto(f"{live.base}/#/rules/{game}")
            page.wait_for_selector(f'.rules-page[data-game="{game}"] #rules-summary .sum-item')
            problems += axe_problems(page, live.base, f"{size} rules {game}")
        page.goto(live.base + "/#/learn/red-rising")
        tutorial_game(page)
        page.wait_for_selector(COACH)
        play_guided(page, "red-rising", stop_at="lead_darrow")
        problems += axe_problems(page, live.base, f"{size} guided game")
    assert problems == [], "\n".join(problems)
