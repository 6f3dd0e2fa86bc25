"""Play again, in real Chromium at 390x844 (touch) and 1400x900, in English, Ukrainian and Polish:

- a rematch: Ann (who made the table) and Bo (an invited guest, in a browser of his own) finish
  a game; Ann offers a rematch from the end screen, Bo's open page is offered it at the top of
  his end screen ("Ann offers a rematch: Accept / Decline"), he accepts, and both go to the new
  table, where the seat order rotated: the person after the old first player starts;
- "New game" with the same options, one tap: a game against a bot starts again at once.

The games are played to their end over HTTP (random legal decisions) while the pages watch.
"""

from __future__ import annotations

import random
import time

import pytest
from test_web_look import DESKTOP, IN_VIEW, PHONE
from test_web_screens import axe_violations, serve_axe, set_language
from webkit import http, shot

from redtable.core import make_game

OFFERS = {"en": "Ann offers a rematch", "uk": "Ann пропонує реванш", "pl": "Ann proponuje rewanż"}


def play_out(base: str, gid: str, tokens: list[str | None], seed: int = 3) -> None:
    """Random legal decisions over HTTP for the people's seats until the game is over."""
    rnd = random.Random(seed)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        _, st = http("GET", f"{base}/api/games/{gid}?events=false")
        if st["status"] != "active":
            return
        d = st["decision"]
        if d is None or tokens[d["player"]] is None:
            time.sleep(0.02)
            continue
        _, mine = http("GET", f"{base}/api/games/{gid}?events=false", token=tokens[d["player"]])
        dd = mine["decision"]
        if dd is None or dd.get("auto") or dd["player"] != d["player"]:
            time.sleep(0.02)
            continue
        http(
            "POST",
            f"{base}/api/games/{gid}/decisions",
            {"action": rnd.choice(dd["options"]), "version": mine["version"]},
            tokens[d["player"]],
        )
    raise AssertionError("the game did not end")


def join_by_link(page, base: str, gid: str, invite: str, name: str) -> str:
    """Take the seat of an invite link in this browser, under ``name``: its token (kept by the page)."""
    page.goto(f"{base}/join/{gid}#{invite}")
    page.fill("#join-name", name)
    page.click(".join-btn")
    page.wait_for_selector(".table-shell .board")
    return page.evaluate(f"JSON.parse(localStorage.getItem('redtable.seats'))['{gid}'].token")


def open_page(new_page, live, screen, lang: str, label: str):
    page = new_page(label=label, **screen)
    serve_axe(page, live.base)
    set_language(page, live.base, lang)
    return page


@pytest.mark.parametrize(
    "screen,lang",
    [
        pytest.param(PHONE, "pl", id="phone-pl"),
        pytest.param(DESKTOP, "en", id="1400-en"),
        pytest.param(PHONE, "uk", id="phone-uk"),
    ],
)
def test_a_rematch_offered_and_accepted_by_an_invited_guest(live, new_page, screen, lang):
    where = f"{'phone' if screen is PHONE else '1400'}-{lang}"
    base = live.base
    seed = 11
    status, g = http(
        "POST",
        f"{base}/api/games",
        {
            "game": "red-north",
            "seed": seed,
            "bot_delay": 0,
            "seats": [{"type": "human", "name": "Ann"}, {"type": "human"}, {"type": "bot", "bot": "random"}],
        },
    )
    assert status == 201, g
    gid = g["game_id"]
    ann = open_page(new_page, live, screen, lang, f"ann {where}: ")
    bo = open_page(new_page, live, screen, lang, f"bo {where}: ")
    tokens = [
        join_by_link(ann, base, gid, g["seats"][0]["invite"], "Ann"),
        join_by_link(bo, base, gid, g["seats"][1]["invite"], "Bo"),  # the invited guest
        None,
    ]
    play_out(base, gid, tokens)
    for p in (ann, bo):
        p.wait_for_selector(".overlay .endcard .rematch .rematch-offer")
    # the end screen still opens at its top; "play again" is under the result
    assert ann.evaluate("document.querySelector('.overlay').scrollTop") == 0
    assert ann.evaluate(IN_VIEW, ".endcard .winner")
    shot(ann, f"rematch-end-{where}", full_page=False)
    # Ann offers
    ann.click(".rematch .rematch-offer")
    ann.wait_for_selector(".rematch .rematch-waiting")
    assert "Bo" in ann.inner_text(".rematch .rematch-waiting")
    ann.eval_on_selector(".rematch", "el => el.scrollIntoView({block: 'center'})")
    shot(ann, f"rematch-offered-{where}", full_page=False)
    # Bo's open page is offered it, at the top of his end screen, in his language
    bo.wait_for_selector(".rematch .rematch-accept")
    assert OFFERS[lang] in bo.inner_text(".rematch .rematch-asked")
    assert bo.evaluate(IN_VIEW, ".rematch .rematch-accept"), "the offer is not in view"
    assert bo.evaluate(IN_VIEW, ".rematch .rematch-decline")
    shot(bo, f"rematch-offer-{where}", full_page=False)
    problems = axe_violations(bo, base, f"rematch offer {where}")
    assert problems == [], problems
    bo.click(".rematch .rematch-accept")
    bo.wait_for_selector(".rematch .rematch-go")
    bo.eval_on_selector(".rematch", "el => el.scrollIntoView({block: 'center'})")
    shot(bo, f"rematch-accepted-{where}", full_page=False)
    bo.click(".rematch .rematch-go")
    ann.wait_for_selector(".rematch .rematch-go")
    ann.click(".rematch .rematch-go")
    new = None
    for p in (ann, bo):
        p.wait_for_function(f"() => location.hash.startsWith('#/game/') && !location.hash.includes('{gid}')")
        p.wait_for_selector(".rn-seat .token.first")
        here = p.evaluate("location.hash.split('/')[2]")
        assert new in (None, here)
        new = here
    # the seat order rotated (Bo, the bot, Ann) and the deal starts with the next person
    _, st = http("GET", f"{base}/api/games/{new}?events=false")
    assert [s["name"] for s in st["seats"]][::2] == ["Bo", "Ann"] and st["seats"][1]["type"] == "bot"
    first = make_game("red-north", 3).new_initial_state(seed).first
    assert st["view"]["first_player"] == first
    names = ["Ann", "Bo", None]
    want = names[(first + 1) % 3]
    for p in (ann, bo):
        got = p.inner_text(".rn-seat:has(.token.first) .rs-name")
        if want is not None:
            assert want in got, (want, got)
        else:
            assert p.query_selector(
                ".rn-seat:has(.token.first) .rs-name svg, .rn-seat:has(.token.first) .rs-name .icon"
            )
    # each browser holds its own seat there: the guest with no new link
    assert bo.evaluate(f"JSON.parse(localStorage.getItem('redtable.seats'))['{new}'].seat") == 0
    assert ann.evaluate(f"JSON.parse(localStorage.getItem('redtable.seats'))['{new}'].seat") == 2
    for p in (ann, bo):
        p.wait_for_function("() => !!window.__session && !!window.__session.snap && window.__session.snap.ready")
    shot(bo, f"rematch-new-table-bo-{where}")
    shot(ann, f"rematch-new-table-ann-{where}")


@pytest.mark.parametrize(
    "screen,lang", [pytest.param(PHONE, "uk", id="phone-uk"), pytest.param(DESKTOP, "pl", id="1400-pl")]
)
def test_new_game_with_the_same_options_against_a_bot_starts_at_once(live, new_page, screen, lang):
    where = f"{'phone' if screen is PHONE else '1400'}-{lang}"
    base = live.base
    body = {
        "game": "red-north",
        "seats": [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "heuristic"}],
        "options": {"outpost_points": 2},
        "undo": True,
        "bot_delay": 0,
    }
    status, g = http("POST", f"{base}/api/games", body)
    assert status == 201, g
    gid = g["game_id"]
    page = open_page(new_page, live, screen, lang, f"new {where}: ")
    token = join_by_link(page, base, gid, g["seats"][0]["invite"], "Ann")
    play_out(base, gid, [token, None])
    page.wait_for_selector(".overlay .endcard .rematch .new-same")
    assert page.evaluate(IN_VIEW, ".endcard .winner")
    page.eval_on_selector(".rematch", "el => el.scrollIntoView({block: 'center'})")
    shot(page, f"new-game-button-{where}", full_page=False)
    page.click(".rematch .new-same")  # one tap
    page.wait_for_function(f"() => location.hash.startsWith('#/game/') && !location.hash.includes('{gid}')")
    new = page.evaluate("location.hash.split('/')[2]")
    page.wait_for_selector(".rn-seat .token.first")
    _, st = http("GET", f"{base}/api/games/{new}?events=false")
    _, old = http("GET", f"{base}/api/games/{gid}?events=false")
    for k in ("game", "players", "options", "undo", "bot_delay", "rated", "clock"):
        assert st[k] == old[k], k
    assert [(s["type"], s["bot"], s["name"]) for s in st["seats"]] == [
        ("human", None, "Ann"),
        ("bot", "heuristic", None),
    ]
    assert st["ready"] is True and st["status"] == "active"  # against a bot: it starts at once
    assert page.evaluate(f"JSON.parse(localStorage.getItem('redtable.seats'))['{new}'].seat") == 0
    page.wait_for_function("() => !!window.__session && !!window.__session.snap && window.__session.snap.seat === 0")
    shot(page, f"new-game-started-{where}")


@pytest.mark.parametrize("screen,lang", [pytest.param(DESKTOP, "uk", id="1400-uk")])
def test_a_declined_rematch_is_told_to_the_one_who_offered(live, new_page, screen, lang):
    where = f"1400-{lang}"
    base = live.base
    seats = [{"type": "human", "name": "Ann"}, {"type": "human"}]
    status, g = http("POST", f"{base}/api/games", {"game": "red-north", "seed": 4, "seats": seats})
    assert status == 201, g
    gid = g["game_id"]
    ann = open_page(new_page, live, screen, lang, f"ann {where}: ")
    bo = open_page(new_page, live, screen, lang, f"bo {where}: ")
    tokens = [
        join_by_link(ann, base, gid, g["seats"][0]["invite"], "Ann"),
        join_by_link(bo, base, gid, g["seats"][1]["invite"], "Bo"),
    ]
    play_out(base, gid, tokens)
    ann.wait_for_selector(".overlay .endcard .rematch .rematch-offer")
    ann.click(".rematch .rematch-offer")
    bo.wait_for_selector(".rematch .rematch-decline")
    bo.click(".rematch .rematch-decline")
    ann.wait_for_selector(".rematch .rematch-said")
    ann.wait_for_function("() => document.querySelector('.rematch .rematch-said').textContent.includes('Bo')")
    assert "Bo відхиляє реванш" in ann.inner_text(".rematch")
    assert ann.inner_text(".rematch .rematch-offer") == "Запропонувати реванш знову"
    ann.eval_on_selector(".rematch", "el => el.scrollIntoView({block: 'center'})")
    shot(ann, f"rematch-declined-{where}", full_page=False)
    _, st = http("GET", f"{base}/api/games/{gid}/rematch")
    assert st["rematch"]["status"] == "declined" and st["rematch"]["declined_by"] == 1
