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
