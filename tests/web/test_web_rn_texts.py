"""Red North's rules texts on the page come from the engine's gallery (the cards endpoint) in
the page's language: a card kind's, an Outpost's and a God's text in the inspector is the text
the terminal shows (:func:`redtable.rednorth.gallery.gallery`); the page's catalogs hold no
copy of them. Ukrainian and Polish at 1400x900, one game each."""

from __future__ import annotations

import pytest
from webkit import READY, http, shot

from redtable.rednorth.gallery import gallery

SHOWS = "(t) => (document.querySelector('.inspector .detail') || {}).textContent?.includes(t)"


def inspect(page, selector: str, text: str) -> None:
    """The pointer rests on the first ``selector``: the inspector shows ``text`` (else a timeout)."""
    page.locator(selector).first.hover()
    page.wait_for_function(SHOWS, arg=text, timeout=5000)


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_red_north_texts_on_the_page_are_the_gallery_s(live, new_page, lang):
    book = gallery(lang)
    seats = [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    status, g = http("POST", f"{live.base}/api/games", {"game": "red-north", "seats": seats, "seed": 7, "bot_delay": 0})
    assert status in (200, 201), g
    page = new_page(label=f"{lang}: ")
    page.add_init_script(f"localStorage.setItem('redtable.lang', '{lang}')")
    page.goto(live.base + g["seats"][0]["invite_url"])
    page.click(".join-btn")
    page.wait_for_function(READY)
    assert page.evaluate("() => document.documentElement.lang") == lang
    keys = page.locator(".board [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    outposts = {f"outpost:{o['colour']}": o for o in book["outposts"]}
    kinds = {k["card"]: k for k in book["kinds"]}
    gods = {f"god:{x['god']}": x for x in book["gods"]}
    outpost = next(k for k in keys if k in outposts)
    inspect(page, f'.board [data-card="{outpost}"]', outposts[outpost]["text"])
    card = next(k for k in keys if k in kinds)
    inspect(page, f'.board [data-card="{card}"]', kinds[card]["text"])
    shot(page, f"rn-texts-card-{lang}", full_page=False)
    for god in [k for k in keys if k in gods][:1]:  # a God on the board, when a group shows one
        inspect(page, f'.board [data-card="{god}"]', gods[god]["text"])


# ---------------------------------------------------------------------- the Gods' names
PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
DESKTOP = {"width": 1400, "height": 900}
# the English names a page in the language must not show (Polish players say Thor, Loki, Tyr,
# Saga and Hel too, but Odyn, Freja and Norny)
ENGLISH_GODS = {
    "uk": r"\b(Thor|Loki|Odin|Freya|Nornir|Tyr|Saga|Hel)\b",
    "pl": r"\b(Odin|Freya|Nornir)\b",
}


@pytest.mark.parametrize("lang", ["uk", "pl"])
@pytest.mark.parametrize("screen", [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="1400")])
def test_the_gods_take_the_names_the_players_use(live, new_page, screen, lang):
    """Red North's eight Gods on the rules page and on a finished table, in Ukrainian and Polish:
    the gallery's names (Тор, Локі, Одін... / Odyn, Freja, Norny), never the English ones."""
    import re
    import time

    where = f"{lang}-{'phone' if screen is PHONE else '1400'}"
    names = [x["name"] for x in gallery(lang)["gods"]]
    page = new_page(label=f"gods {where}: ", **screen)
    page.add_init_script(f"localStorage.setItem('redtable.lang', '{lang}')")
    page.goto(f"{live.base}/#/rules/red-north")
    page.wait_for_selector(".god-tile h3")
    assert page.locator(".god-tile h3").all_inner_texts() == names
    tiles = " ".join(page.locator(".god-tile").all_inner_texts())
    assert not re.search(ENGLISH_GODS[lang], tiles), tiles
    page.evaluate("document.querySelector('#rules-gods')?.scrollIntoView({block: 'start'})")
    shot(page, f"rn-gods-rules-{where}", full_page=False)
    # a finished table of bots: the Gods its seats took, and the log's invocations
    seats = [{"type": "bot", "bot": "random"} for _ in range(4)]
    body = {"game": "red-north", "seats": seats, "seed": 26, "bot_delay": 0}
    status, g = http("POST", f"{live.base}/api/games", body)
    assert status == 201, g
    deadline = time.time() + 120
    while http("GET", f"{live.base}/api/games/{g['game_id']}?events=false")[1]["status"] != "finished":
        assert time.time() < deadline, "the bots did not finish"
        time.sleep(0.3)
    page.goto(f"{live.base}/#/game/{g['game_id']}?watch=1")
    page.wait_for_selector(".overlay .endcard")
    page.click(".close-end")
    page.wait_for_selector(".overlay", state="detached")
    shown = page.locator(".rn-seat .ncard.god .n-pts").all_inner_texts()
    assert shown and set(shown) <= set(names), (shown, names)
    text = page.inner_text(".table-shell")
    assert not re.search(ENGLISH_GODS[lang], text), re.findall(ENGLISH_GODS[lang], text)
    # (evaluate: the table may draw its seats again meanwhile; a locator would wait for a node that went)
    page.evaluate("document.querySelector('.rn-seat .ncard.god')?.scrollIntoView({block: 'center'})")
    shot(page, f"rn-gods-table-{where}", full_page=False)


def test_an_outpost_in_the_inspector_reads_clearly(live, new_page):
    """An Outpost's head in the inspector: white words on its colour darkened (on the bright colour
    itself axe-core found them too faint: yellow and green, 12 px). Every Outpost of a deal."""
    from test_web_screens import AXE_PATH, serve_axe

    seats = [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    status, g = http("POST", f"{live.base}/api/games", {"game": "red-north", "seats": seats, "seed": 7, "bot_delay": 0})
    assert status == 201, g
    page = new_page(label="outposts: ", width=1400, height=900)
    serve_axe(page, live.base)
    page.goto(live.base + g["seats"][0]["invite_url"])
    page.click(".join-btn")
    page.wait_for_function(READY)
    page.add_script_tag(url=live.base + AXE_PATH)
    outposts = {f"outpost:{o['colour']}": o for o in gallery("en")["outposts"]}
    keys = page.locator(".board [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    shown = [k for k in dict.fromkeys(keys) if k in outposts]
    assert len(shown) == 3, shown  # (two players: three Outposts)
    problems = []
    for key in shown:
        inspect(page, f'.board [data-card="{key}"]', outposts[key]["text"])
        found = page.evaluate("""async () => {
            const r = await axe.run(document.querySelector('.inspector'), { runOnly: ['color-contrast'] });
            return r.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary));
        }""")
        problems += [f"{key}: {p}" for p in found]
        shot(page, f"rn-outpost-inspector-{key.split(':')[1]}", full_page=False)
    assert problems == [], "\n".join(problems)
