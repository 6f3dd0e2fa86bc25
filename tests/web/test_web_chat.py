"""The table chat in real Chromium (``static/js/chat.js``; server: ``redtable/server/chat.py``).

Two seats and a spectator, each in a browser context of its own, at desktop and phone size:
a seat's message reaches the other seat and the spectator; the spectator's message reaches
the spectators and never a seat's socket (every WebSocket message each page received is
recorded and searched); a message written as HTML shows as its text; the counter stops a
message over 300 characters; an unread count shows on the folded chat; a mute silences a
seat. The replay shows the chat as it was at each step, both channels once the game is over.

Screenshots go to artifacts/screenshots/chat-*.png.
"""

from __future__ import annotations

import random

import orjson
import pytest
from test_web_screens import axe_violations, serve_axe
from webkit import http, shot, tool

# Every message the page's WebSockets receive, kept in window.__wsin (what reached this device).
WS_RECORD = """
window.__wsin = [];
(() => {
  const Orig = window.WebSocket;
  window.WebSocket = class extends Orig {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => { try { window.__wsin.push(JSON.parse(e.data)); } catch (_) {} });
    }
  };
})();
"""

SIZES = {"desktop": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}
HTML = '<img src=x onerror="window.__xss=1"><b>bold</b> & <script>window.__xss=2</script>'


def seat_page(new_page, live, invite_url: str, size: str, label: str):
    page = new_page(**SIZES[size], label=label, has_touch=size == "phone", is_mobile=size == "phone")
    page.context.add_init_script(WS_RECORD)
    page.goto(live.base + invite_url)
    page.click(".join-btn")
    page.wait_for_function("() => location.hash.startsWith('#/game/')")
    page.wait_for_selector(".board .rn-board")
    return page


def open_chat(page) -> None:
    """Unfold the chat (beside the board) or open its drawer (a phone)."""
    if page.get_attribute(".chat-fold", "aria-expanded") == "true":
        return
    toggle = tool(page, ".chattoggle")  # (on a phone, through the toolbar's "More" when it is there)
    if toggle.is_visible():
        toggle.click()
    else:
        page.click(".chat-fold")
    page.wait_for_selector(".chat-lines", state="visible")


def close_chat(page) -> None:
    if page.get_attribute(".chat-fold", "aria-expanded") != "true":
        return
    toggle = tool(page, ".chattoggle")
    (toggle if toggle.is_visible() else page.locator(".chat-fold")).click()
    page.wait_for_selector(".chat-lines", state="hidden")


def write(page, text: str) -> None:
    page.fill(".chat-input", text)
    page.press(".chat-input", "Enter")
    page.wait_for_function("() => document.querySelector('.chat-input').value === ''")


def line_texts(page) -> list[str]:
    return page.eval_on_selector_all(".chat-lines .chatline .chat-text", "els => els.map(e => e.textContent)")


def wait_line(page, text: str) -> None:
    page.wait_for_function(
        "(t) => [...document.querySelectorAll('.chat-lines .chat-text')].some(e => e.textContent === t)", arg=text
    )


def received(page) -> list[dict]:
    return page.evaluate("() => window.__wsin")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_chat_between_two_seats_and_a_spectator(live, new_page, size):
    status, g = http(
        "POST",
        f"{live.base}/api/games",
        {"game": "red-north", "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bo"}]},
    )
    assert status == 201, g
    gid = g["game_id"]
    ann = seat_page(new_page, live, g["seats"][0]["invite_url"], size, "ann: ")
    bo = seat_page(new_page, live, g["seats"][1]["invite_url"], size, "bo: ")
    watcher = new_page(**SIZES[size], label="watcher: ", has_touch=size == "phone", is_mobile=size == "phone")
    watcher.context.add_init_script(WS_RECORD)
    watcher.goto(f"{live.base}/#/game/{gid}?watch=1")
    watcher.wait_for_selector(".board .rn-board")
    for p in (ann, bo, watcher):
        open_chat(p)
        assert p.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), "the chat widens the page"
    # a seat sees no channel switch while the game runs; the spectator does, on its own channel
    assert ann.locator(".chat-tabs").is_hidden()
    assert watcher.locator(".chat-tabs").is_visible()
    assert watcher.get_attribute('.chat-tab[data-channel="spectators"]', "aria-selected") == "true"

    # a seat's message reaches the other seat and the spectator (on its players' tab)
    write(ann, "Good luck, Bo!")
    wait_line(bo, "Good luck, Bo!")
    assert bo.inner_text(".chat-lines .chatline:last-child .chat-who").startswith("Ann")
    assert "(You)" in ann.inner_text(".chat-lines .chatline:last-child .chat-who")
    watcher.click('.chat-tab[data-channel="players"]')
    wait_line(watcher, "Good luck, Bo!")
    assert watcher.locator(".chat-form").is_hidden() and watcher.locator(".chat-note").is_visible()

    # the spectators' message reaches the spectator, never a seat
    watcher.click('.chat-tab[data-channel="spectators"]')
    write(watcher, "Ann holds the red seven")
    wait_line(watcher, "Ann holds the red seven")
    assert watcher.inner_text(".chat-lines .chatline:last-child .chat-who").startswith("Guest ")

    # HTML is text: shown as typed, nothing runs, no element made from it
    write(bo, HTML)
    wait_line(ann, HTML)
    watcher.click('.chat-tab[data-channel="players"]')
    wait_line(watcher, HTML)
    for p in (ann, bo, watcher):
        assert p.evaluate("() => window.__xss") is None
        assert p.eval_on_selector_all(".chat-text", "els => els.reduce((n, e) => n + e.children.length, 0)") == 0
        assert p.locator(".chat-lines img, .chat-lines b, .chat-lines script").count() == 0

    # the counter: 300 characters go, 301 do not
    ann.fill(".chat-input", "x" * 301)
    assert ann.inner_text(".chat-count") == "301/300" and ann.is_disabled(".chat-send")
    assert "over" in ann.get_attribute(".chat-count", "class")
    ann.fill(".chat-input", "é" * 300)
    assert ann.inner_text(".chat-count") == "300/300" and not ann.is_disabled(".chat-send")
    ann.fill(".chat-input", "")
    shot(ann, f"chat-{size}-seat", full_page=False)
    shot(watcher, f"chat-{size}-spectator", full_page=False)

    # folded, the chat counts what arrives
    close_chat(ann)
    write(bo, "are you there?")
    badge = ".chattoggle .chat-badge" if size == "phone" else ".chat-fold .chat-badge"
    ann.wait_for_selector(f"{badge}:not([hidden])")
    assert ann.inner_text(badge) == "1"
    shot(ann, f"chat-{size}-unread", full_page=False)
    open_chat(ann)
    assert ann.locator(badge).is_hidden()
    wait_line(ann, "are you there?")

    # Ann mutes Bo: his next message reaches the spectator, not her (on any of her devices);
    # the control says what it does in words (a crossed speaker alone read as the table's sounds)
    assert ann.inner_text(".chat-mute-btn").strip() == "Mute…"
    ann.click(".chat-mute-btn")
    ann.click('.chat-mute[data-target="1"]')
    ann.wait_for_selector('.chat-mute[data-target="1"][aria-pressed="true"]')
    write(bo, "can you hear me?")
    wait_line(watcher, "can you hear me?")
    write(ann, "quiet now")
    wait_line(bo, "quiet now")
    assert "can you hear me?" not in line_texts(ann)
    assert "are you there?" not in line_texts(ann)  # the history is filtered too
    shot(ann, f"chat-{size}-muted", full_page=False)
    # the chat open, its mute buttons shown, a spectator's tabs: nothing serious for axe-core
    problems = []
    for p, name in ((ann, "seat"), (watcher, "spectator")):
        serve_axe(p, live.base)
        problems += axe_violations(p, live.base, f"{size} {name} chat")
    assert problems == []

    # what each device received: no seat ever got the spectators' channel, nor Ann her muted seat
    for p, name in ((ann, "ann"), (bo, "bo")):
        msgs = received(p)
        chats = [m for m in msgs if m["type"] == "chat"]
        chats += [x for m in msgs if m["type"] == "chat_history" for x in m["messages"]]
        assert chats, name
        assert all(x["channel"] == "players" for x in chats), name
        assert "Ann holds the red seven" not in orjson.dumps(msgs).decode(), name
    ann_live = [m["text"] for m in received(ann) if m["type"] == "chat"]
    assert "can you hear me?" not in ann_live
    assert "Ann holds the red seven" in [m["text"] for m in received(watcher) if m["type"] == "chat"]


def play_out(live, gid: str, tokens: list[str], seed: int = 5, until_step: int | None = None) -> int:
    """Decide at random over HTTP until the game ends (or reaches ``until_step``); the step reached."""
    rng = random.Random(seed)
    while True:
        _, s = http("GET", f"{live.base}/api/games/{gid}?events=false", token=tokens[0])
        if s["status"] == "finished" or (until_step is not None and s["step"] >= until_step):
            return s["step"]
        p = s["decision"]["player"]
        _, mine = http("GET", f"{live.base}/api/games/{gid}?events=false", token=tokens[p])
        status, _ = http(
            "POST",
            f"{live.base}/api/games/{gid}/decisions",
            {"action": rng.choice(mine["decision"]["options"]), "version": s["version"]},
            token=tokens[p],
        )
        assert status in (200, 409)


def post_chat(live, gid: str, token: str | None, channel: str, text: str) -> dict:
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{live.port}/api/games/{gid}/ws") as ws:
        ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
        ws.send(orjson.dumps({"type": "chat", "channel": channel, "text": text, "id": "t"}).decode())
        while True:
            m = orjson.loads(ws.recv(timeout=10))
            if m.get("id") == "t":
                assert m["type"] == "chat", m
                return m


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_replay_shows_the_chat_as_it_was(live, new_page, size):
    status, g = http("POST", f"{live.base}/api/games", {"game": "red-north", "seats": [{"type": "human"}] * 2})
    assert status == 201
    gid = g["game_id"]
    join = f"{live.base}/api/games/{gid}/join"
    tokens = [http("POST", join, {"invite": s["invite"]})[1]["token"] for s in g["seats"]]
    assert post_chat(live, gid, tokens[0], "players", "before the first move")["step"] == 0
    post_chat(live, gid, None, "spectators", "the gallery is open")
    step = play_out(live, gid, tokens, until_step=3)
    assert post_chat(live, gid, tokens[1], "players", "three moves in")["step"] == step
    play_out(live, gid, tokens)

    page = new_page(**SIZES[size], label="replay: ", has_touch=size == "phone", is_mobile=size == "phone")
    page.goto(f"{live.base}/#/replay/{gid}?step=0")
    page.wait_for_selector(".board .rn-board")
    open_chat(page)
    wait_line(page, "before the first move")
    assert "three moves in" not in line_texts(page)
    assert page.locator(".chat-form").is_hidden()  # a replay is read only
    page.goto(f"{live.base}/#/replay/{gid}?step={step}")
    page.reload()
    page.wait_for_selector(".board .rn-board")
    open_chat(page)
    wait_line(page, "three moves in")
    assert line_texts(page) == ["before the first move", "three moves in"]
    # the game is over: the spectators' channel is there too
    page.click('.chat-tab[data-channel="spectators"]')
    wait_line(page, "the gallery is open")
    shot(page, f"chat-{size}-replay", full_page=False)
