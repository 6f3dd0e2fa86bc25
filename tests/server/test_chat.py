"""Table chat (``redtable/server/chat.py``) on SQLite and PostgreSQL, and across two processes.

Every refusal has its code; a message is text (markup stays as typed, invisible and
direction-changing characters are left out, 300 characters at most once cleaned); a seat's
socket never receives the spectators' channel while the game runs (checked on everything
each socket received, history included); a mute is per seat, kept in storage, and applies
live and in the history; ``GET /api/games/{id}/chat`` pages through what the reader may read.
Two server processes on one PostgreSQL schema deliver each other's messages under the same rules.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

import httpx
import orjson
import pytest
from srvkit import Backend, Client, require_backend

from redtable.server.chat import TEXT_MAX, clean_text
from redtable.server.errors import ApiError
from redtable.server.limits import Rate

# ---------------------------------------------------------------------- helpers


def say(c: Client, rid: str, **msg) -> dict:
    """Send one message with id ``rid``; the chat echo or the error answering it."""
    c.send(id=rid, **msg)
    while True:
        m = c.recv()
        if m.get("id") == rid and m["type"] in ("chat", "error", "chat_history"):
            return m


def chat(c: Client, rid: str, channel: str, text) -> dict:
    return say(c, rid, type="chat", channel=channel, text=text)


def drain(c: Client, seconds: float = 0.4) -> list[dict]:
    """Everything ``c`` receives until it has been quiet for ``seconds``."""
    got = []
    try:
        while True:
            got.append(c.recv(timeout=seconds))
    except TimeoutError:
        pass
    return got


def chats(c: Client) -> list[dict]:
    """Every chat message ``c`` received so far, live or in a history."""
    out = []
    for m in c.messages:
        if m["type"] == "chat":
            out.append(m)
        elif m["type"] == "chat_history":
            out += m["messages"]
    return out


def history(api, gid: str, token: str | None = None, **params) -> httpx.Response:
    return api.http.get(
        f"/api/games/{gid}/chat", params=params, headers={"Authorization": f"Bearer {token}"} if token else {}
    )


def connect(srv, gid: str, token: str | None) -> Client:
    c = Client(srv, gid, token)
    c.recv_type("chat_history")  # sent on every connect, after the snapshot
    return c


def finish(api, gid: str, tokens: list[str], seed: int = 3) -> None:
    """Play the game to its end over HTTP, at random."""
    rng = random.Random(seed)
    for _ in range(3000):
        s = api.get(gid, tokens[0], events=False).json()
        if s["status"] == "finished":
            return
        p = s["decision"]["player"]
        d = api.get(gid, tokens[p], events=False).json()["decision"]
        if d.get("auto"):
            continue
        r = api.decide(gid, tokens[p], rng.choice(d["options"]), s["version"])
        assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not end")


@pytest.fixture
def table(served):
    """A Red North table: two seats (seat 0 on two devices) and two spectators, all connected."""
    srv, api = served
    info, tokens = api.new_game("red-north", ("human", "human"), seed=11)
    gid = info["game_id"]
    second = api.join(gid, info["seats"][0]["invite"])  # seat 0's second device
    socks = {
        "s0": connect(srv, gid, tokens[0]),
        "s0b": connect(srv, gid, second),
        "s1": connect(srv, gid, tokens[1]),
        "w1": connect(srv, gid, None),
        "w2": connect(srv, gid, None),
    }
    yield srv, api, gid, tokens, socks
    for c in socks.values():
        c.close()


# ---------------------------------------------------------------------- the text itself
def test_clean_text_keeps_what_is_typed_and_drops_what_is_invisible():
    assert clean_text("<b>hi</b> & <script>x</script>") == "<b>hi</b> & <script>x</script>"
    assert clean_text("  a\n\tb   c  ") == "a b c"
    assert clean_text("a\u202eb\u200bc\x00d\u2066e\ufeff\u00adf") == "abcdef"  # bidi, zero-width, NUL, BOM, shy
    assert clean_text("e\u0301") == "\u00e9"  # NFC
    assert clean_text("👩\u200d❤\ufe0f\u200d👨") == "👩\u200d❤\ufe0f\u200d👨"  # an emoji sequence stays joined
    assert clean_text("a\u200db") == "ab"
    assert clean_text("x" * TEXT_MAX) == "x" * TEXT_MAX
    assert clean_text("e\u0301" * TEXT_MAX) == "\u00e9" * TEXT_MAX  # counted once normalized
    for bad, code in (
        ("", "empty_message"),
        ("   \n ", "empty_message"),
        ("\u200b\u202e", "empty_message"),
        ("x" * (TEXT_MAX + 1), "message_too_long"),
        ("x" * 5000, "message_too_long"),
        (None, "malformed"),
        (12, "malformed"),
        (["hi"], "malformed"),
    ):
        with pytest.raises(ApiError) as e:
            clean_text(bad)
        assert e.value.code == code, bad
    with pytest.raises(ApiError) as e:
        clean_text("y" * 301)
    assert e.value.details == {"max": 300, "length": 301}


@pytest.mark.parametrize(
    "text, says",
    [
        ("\u3164", "U+3164"),  # Hangul filler: a message that shows as nothing
        ("\u115f\u1160", "U+115F"),  # Hangul choseong and jungseong fillers
        ("hello\u2800\u2800\u2800", "U+2800"),  # braille blank: a blank block of lines
        ("\uffa0", "U+FFA0"),
        ("ok \U000e0100", "U+E0100"),  # a variation selector on nothing it can select
        ("\ufdfd", "U+FDFD"),  # the bismillah ligature: one glyph as wide as a line
        ("peace \ufdfa", "U+FDFA"),
        ("\u2e3b\u2e3b", "U+2E3B"),  # three-em dashes
        ("\U00012219", "U+12219"),  # a Cuneiform sign several ems wide
        ("\ua9c5", "U+A9C5"),
        ("z\u0336\u0334\u0335\u0337", "more than 3 combining marks"),  # zalgo
    ],
)
def test_invisible_and_oversized_messages_are_refused(text, says):
    with pytest.raises(ApiError) as e:
        clean_text(text)
    assert e.value.code == "bad_text" and says in e.value.message, e.value.message


def test_what_looks_ordinary_stays():
    for fine in ("❤\ufe0f", "Tiếng Việt", "שָׁלוֹם", "नमस्ते", "z\u0336\u0334\u0335", "👍🏽", "你好"):
        assert clean_text(fine), fine


# ---------------------------------------------------------------------- refusals over the socket
def test_every_refusal_has_its_code(table):
    srv, api, gid, tokens, socks = table
    s0, w1 = socks["s0"], socks["w1"]
    cases = [
        (s0, {"type": "chat", "channel": "players", "text": "x" * 301}, "message_too_long"),
        (s0, {"type": "chat", "channel": "players", "text": ""}, "empty_message"),
        (s0, {"type": "chat", "channel": "players", "text": " \u200b "}, "empty_message"),
        (s0, {"type": "chat", "channel": "players", "text": "\u3164"}, "bad_text"),  # a Hangul filler alone
        (w1, {"type": "chat", "channel": "spectators", "text": "hi \u2800\u2800"}, "bad_text"),  # braille blanks
        (s0, {"type": "chat", "channel": "players", "text": "\ufdfd"}, "bad_text"),  # a whole phrase as one glyph
        (w1, {"type": "chat", "channel": "spectators", "text": "z" + "\u0336\u0334\u0335\u0337"}, "bad_text"),
        (s0, {"type": "chat", "channel": "players"}, "malformed"),
        (s0, {"type": "chat", "channel": "players", "text": {"a": 1}}, "malformed"),
        (s0, {"type": "chat", "channel": "spectators", "text": "hi"}, "spectators_only"),
        (w1, {"type": "chat", "channel": "players", "text": "hi"}, "seats_only"),
        (s0, {"type": "chat", "channel": "all", "text": "hi"}, "bad_channel"),
        (s0, {"type": "chat", "text": "hi"}, "bad_channel"),
        (w1, {"type": "chat", "channel": 1, "text": "hi"}, "bad_channel"),
        (w1, {"type": "mute", "target": 0}, "spectator"),
        (s0, {"type": "mute", "target": 0}, "bad_target"),  # oneself
        (s0, {"type": "mute", "target": 7}, "bad_target"),
        (s0, {"type": "mute", "target": "1"}, "bad_target"),
        (s0, {"type": "mute", "target": True}, "bad_target"),
        (s0, {"type": "mute", "target": 1, "muted": "yes"}, "malformed"),
        (s0, {"type": "shout", "text": "hi"}, "unknown_type"),
    ]
    for i, (c, msg, code) in enumerate(cases):
        m = say(c, f"e{i}", **msg)
        assert m["type"] == "error" and m["error"] == code, (msg, m)
        assert m["message"], m
    m = say(s0, "bad-channel", type="chat", channel="x" * 500, text="hi")
    assert m["channels"] == ["players", "spectators"] and len(m["message"]) < 300  # the echo is clipped
    m = say(s0, "too-long", type="chat", channel="players", text="é" * 301)
    assert (m["max"], m["length"]) == (300, 301)
    # not JSON at all, and JSON that is not an object
    for raw in ("{not json", "[1, 2]", '"chat"'):
        s0.ws.send(raw)
        m = s0.recv_type("error")
        assert m["error"] == "malformed", raw
    # nothing refused was stored or delivered
    assert history(api, gid).json()["messages"] == []
    assert not [m for c in socks.values() for m in drain(c, 0.2) if m["type"] == "chat"]


def test_rate_limit_per_seat(table):
    srv, api, gid, tokens, socks = table
    hub = srv.hub
    old = hub.limiter.limits
    srv.call(lambda: setattr(hub.limiter, "limits", replace(old, rates={**old.rates, "chat": Rate(3, 0.01)})))
    try:
        answers = [chat(socks["s0"], f"r{i}", "players", f"hello {i}") for i in range(4)]
        assert [a["type"] for a in answers] == ["chat", "chat", "chat", "error"]
        err = answers[3]
        assert err["error"] == "rate_limited" and err["limit"] == "chat" and err["retry_after"] >= 1
        # the seat's other device shares the seat's bucket; another seat and a spectator have their own
        assert chat(socks["s0b"], "r5", "players", "me again")["error"] == "rate_limited"
        assert chat(socks["s1"], "r6", "players", "my turn to talk")["type"] == "chat"
        assert chat(socks["w1"], "r7", "spectators", "watching")["type"] == "chat"
    finally:
        srv.call(lambda: setattr(hub.limiter, "limits", old))
        srv.call(hub.limiter.buckets.clear)


def test_a_table_keeps_at_most_game_max_messages_per_channel(table, monkeypatch):
    """However the rate limits are set, one table's stored chat is bounded; each channel has its
    own cap, so the spectators filling theirs never silences the players."""
    from redtable.server import chat as chat_module

    srv, api, gid, tokens, socks = table
    monkeypatch.setattr(chat_module, "GAME_MAX", 2)
    assert chat(socks["w1"], "a", "spectators", "one")["type"] == "chat"
    assert chat(socks["w1"], "b", "spectators", "two")["type"] == "chat"
    full = chat(socks["w1"], "c", "spectators", "three")
    assert full["type"] == "error" and full["error"] == "chat_full" and "2 messages" in full["message"]
    assert full["channel"] == "spectators" and "spectators channel" in full["message"]
    assert chat(socks["s0"], "d", "players", "still heard")["type"] == "chat"  # the players are not silenced
    assert chat(socks["s1"], "e", "players", "me too")["type"] == "chat"
    full = chat(socks["s1"], "f", "players", "and again")
    assert full["type"] == "error" and full["error"] == "chat_full" and full["channel"] == "players"
    assert len(history(api, gid, tokens[0]).json()["messages"]) == 2  # (the seat does not read the spectators')


def test_the_cap_counts_per_channel_from_storage(table):
    """A process that loads a table's chat counts each channel's stored messages apart."""
    from redtable.server.chat import count_messages

    srv, api, gid, tokens, socks = table
    assert chat(socks["w1"], "a", "spectators", "one")["type"] == "chat"
    assert chat(socks["s0"], "b", "players", "two")["type"] == "chat"
    assert chat(socks["s1"], "c", "players", "three")["type"] == "chat"
    assert count_messages(srv.hub.store, gid) == {"players": 2, "spectators": 1}


# ---------------------------------------------------------------------- what reaches whom
def test_markup_stays_text(table):
    srv, api, gid, tokens, socks = table
    payload = '<img src=x onerror="alert(1)"><script>alert(2)</script>&amp;'
    m = chat(socks["s0"], "h", "players", payload + "\u202e\u200b")
    assert m["text"] == payload and m["seat"] == 0 and m["channel"] == "players"
    got = socks["s1"].recv_type("chat")
    assert got["text"] == payload and "id" not in got  # only the author's socket gets its request id back
    assert history(api, gid, tokens[1]).json()["messages"][-1]["text"] == payload
    # the HTTP answer is JSON, never HTML
    r = history(api, gid)
    assert r.headers["content-type"].startswith("application/json")


def test_the_spectators_channel_never_reaches_a_seat_while_the_game_runs(table):
    srv, api, gid, tokens, socks = table
    seats, watchers = ("s0", "s0b", "s1"), ("w1", "w2")
    hello = chat(socks["s0"], "p1", "players", "good luck")
    assert hello["author"] is None or isinstance(hello["author"], str)
    kib = chat(socks["w1"], "k1", "spectators", "seat 1 holds the 7 of red")
    assert kib["seat"] is None and kib["guest"] is True and len(kib["author"]) == 4
    chat(socks["w2"], "k2", "spectators", "agreed")
    chat(socks["s1"], "p2", "players", "you too")
    for k in (*seats, *watchers):
        drain(socks[k])
    for k in seats:
        got = chats(socks[k])
        assert [m["text"] for m in got] == ["good luck", "you too"], k
        assert all(m["channel"] == "players" for m in got), k
    for k in watchers:
        assert [m["text"] for m in chats(socks[k])] == ["good luck", "seat 1 holds the 7 of red", "agreed", "you too"]
    # the history answers the same: a seat reads the players only, a spectator both
    assert history(api, gid, tokens[0]).json()["channels"] == ["players"]
    assert [m["text"] for m in history(api, gid, tokens[1]).json()["messages"]] == ["good luck", "you too"]
    assert len(history(api, gid).json()["messages"]) == 4
    # a seat that reconnects gets the players' history only
    again = Client(srv, gid, tokens[1])
    h = again.recv_type("chat_history")
    assert [m["text"] for m in h["messages"]] == ["good luck", "you too"] and h["write"] == "players"
    again.close()
    # once the game is over the seats read both channels, and new spectator messages reach them live
    finish(api, gid, tokens)
    full = history(api, gid, tokens[0]).json()
    assert full["channels"] == ["players", "spectators"] and len(full["messages"]) == 4
    chat(socks["w2"], "k3", "spectators", "well played")
    assert socks["s1"].recv_type("chat")["text"] == "well played"
    # the rules of writing stay: seats in the players' channel, spectators in theirs
    assert chat(socks["s1"], "k4", "spectators", "thanks")["error"] == "spectators_only"
    assert chat(socks["w1"], "k5", "players", "gg")["error"] == "seats_only"


def test_mute_is_per_seat_stored_and_applies_live_and_in_history(table):
    srv, api, gid, tokens, socks = table
    chat(socks["s1"], "a", "players", "before the mute")
    ans = say(socks["s0"], "m1", type="mute", target=1, muted=True)
    assert ans["type"] == "chat_history" and ans["muted"] == [1] and ans["messages"] == []
    assert socks["s0b"].recv_type("chat_history")["muted"] == [1]  # the seat's other device follows
    chat(socks["s1"], "b", "players", "after the mute")
    chat(socks["s0"], "c", "players", "I hear nobody")
    for c in socks.values():
        drain(c)
    for k in ("s0", "s0b"):
        live = [m["text"] for m in socks[k].messages if m["type"] == "chat"]
        assert live == ["before the mute", "I hear nobody"], k
    assert [m["text"] for m in chats(socks["s1"]) if m["seat"] == 0] == ["I hear nobody"]
    assert "after the mute" in [m["text"] for m in chats(socks["w1"])]  # muting is nobody else's business
    # stored: a new device of seat 0 starts muted, over the socket and over HTTP
    again = Client(srv, gid, tokens[0])
    h = again.recv_type("chat_history")
    assert h["muted"] == [1] and [m["text"] for m in h["messages"]] == ["I hear nobody"]
    again.close()
    r = history(api, gid, tokens[0]).json()
    assert r["muted"] == [1] and [m["seat"] for m in r["messages"]] == [0]
    assert len(history(api, gid, tokens[1]).json()["messages"]) == 3  # seat 1 muted nobody
    # unmuting brings the history back
    ans = say(socks["s0"], "m2", type="mute", target=1, muted=False)
    assert ans["muted"] == [] and [m["text"] for m in ans["messages"]] == [
        "before the mute",
        "after the mute",
        "I hear nobody",
    ]
    # muting the spectators: after the game, their channel is left out for that seat only
    finish(api, gid, tokens)
    chat(socks["w1"], "w", "spectators", "gg all")
    say(socks["s1"], "m3", type="mute", target="spectators", muted=True)
    chat(socks["w2"], "w2", "spectators", "rematch?")
    drain(socks["s1"])
    drain(socks["s0"])
    assert "rematch?" not in [m["text"] for m in socks["s1"].messages if m["type"] == "chat"]
    assert "rematch?" in [m["text"] for m in socks["s0"].messages if m["type"] == "chat"]
    texts = [m["text"] for m in history(api, gid, tokens[1]).json()["messages"]]
    assert "gg all" not in texts and "before the mute" in texts
    assert history(api, gid, tokens[1]).json()["muted"] == ["spectators"]


def test_history_endpoint(table):
    srv, api, gid, tokens, socks = table
    for i in range(7):
        chat(socks["s0" if i % 2 == 0 else "s1"], f"h{i}", "players", f"line {i}")
    chat(socks["w1"], "hw", "spectators", "from the gallery")
    r = history(api, gid, tokens[1], limit=3)
    assert r.status_code == 200
    page = r.json()
    assert [m["text"] for m in page["messages"]] == ["line 4", "line 5", "line 6"] and page["more"] is True
    assert page["seat"] == 1 and page["write"] == "players" and page["max"] == 300
    older = history(api, gid, tokens[1], limit=3, before=page["messages"][0]["chat_id"]).json()
    assert [m["text"] for m in older["messages"]] == ["line 1", "line 2", "line 3"] and older["more"] is True
    rest = history(api, gid, tokens[1], limit=3, before=older["messages"][0]["chat_id"]).json()
    assert [m["text"] for m in rest["messages"]] == ["line 0"] and rest["more"] is False
    spect = history(api, gid).json()
    assert spect["seat"] is None and spect["write"] == "spectators" and len(spect["messages"]) == 8
    m = spect["messages"][0]
    assert set(m) == {"chat_id", "channel", "seat", "author", "guest", "text", "step", "at"}
    assert m["step"] == 0 and m["seat"] == 0 and m["guest"] is False
    # the step a message was written at is the replay's clock
    s = api.state(gid, tokens[0])
    p = s["decision"]["player"]
    d = api.state(gid, tokens[p])["decision"]
    assert api.decide(gid, tokens[p], d["options"][0], s["version"]).status_code == 200
    assert chat(socks["s0"], "later", "players", "after a move")["step"] == 1
    # refusals
    assert history(api, gid, "forged").status_code == 403
    assert history(api, "nope").json()["error"] == "unknown_game"
    for bad in ({"limit": 0}, {"limit": 501}, {"before": 0}, {"before": "x"}):
        r = history(api, gid, **bad)
        assert r.status_code == 422 and r.json()["error"] == "malformed", bad
    r = api.http.get(f"/api/games/{gid}/chat", params={"token": tokens[0]})
    assert r.status_code == 400 and r.json()["error"] == "token_in_url"


def test_a_logged_in_spectator_signs_with_its_account(served):
    from websockets.sync.client import connect as ws_connect

    srv, api = served
    info, tokens = api.new_game("red-north", ("human", "human"))
    gid = info["game_id"]
    name = f"kib{random.randrange(10**6)}"
    r = httpx.post(f"{srv.base}/api/accounts", json={"username": name, "password": "a long enough secret"})
    assert r.status_code == 201, r.text
    cookie = r.cookies.get("redtable_session")
    assert cookie
    with ws_connect(
        f"{srv.ws_base}/api/games/{gid}/ws", additional_headers={"Cookie": f"redtable_session={cookie}"}
    ) as ws:
        ws.send(orjson.dumps({"type": "auth", "token": None}).decode())
        ws.send(orjson.dumps({"type": "chat", "channel": "spectators", "text": "hi", "id": "acc"}).decode())
        while (m := orjson.loads(ws.recv(timeout=10))).get("id") != "acc":
            pass
    assert m["type"] == "chat" and m["author"] == name and m["guest"] is False and m["seat"] is None
    assert history(api, gid).json()["messages"][-1]["author"] == name
    # the same cookie on a socket that another site's page opened (its Origin) is nobody's: a guest
    host = srv.base.split("//", 1)[1]
    for origin, guest in (
        (f"http://{host}", False),
        ("https://evil.example", True),
        (f"http://{host}.evil.example", True),
    ):
        with ws_connect(
            f"{srv.ws_base}/api/games/{gid}/ws",
            additional_headers={"Cookie": f"redtable_session={cookie}"},
            origin=origin,
        ) as ws:
            ws.send(orjson.dumps({"type": "auth", "token": None}).decode())
            ws.send(orjson.dumps({"type": "chat", "channel": "spectators", "text": "hi", "id": "o"}).decode())
            while (m := orjson.loads(ws.recv(timeout=10))).get("id") != "o":
                pass
        assert m["type"] == "chat" and m["guest"] is guest and (m["author"] == name) is not guest, (origin, m)


# ---------------------------------------------------------------------- two processes
@pytest.fixture(params=[None, "redis"], ids=["postgres-bus", "redis-bus"])
def pair(tmp_path, request):
    from fleetkit import REDIS_URL, Proc, redis_problem

    require_backend("postgresql")
    if request.param == "redis" and redis_problem():
        pytest.skip(redis_problem())
    bus = REDIS_URL if request.param == "redis" else None
    b = Backend("postgresql", None)
    procs = [Proc(b.schema, tmp_path / f"server{i}.log", bus=bus).start() for i in range(2)]
    yield procs
    for p in procs:
        p.stop()
    b.cleanup()


@pytest.mark.multiprocess
def test_chat_across_two_processes(pair):
    """Seat 0 on A, seat 1 on B (and on A), a spectator on each: each process delivers the other's
    messages by the same rules, mutes included."""
    from fleetkit import create_game
    from websockets.asyncio.client import connect as ws_connect

    a, b = pair
    gid, tokens = create_game(a, "red-north", [{"type": "human"}, {"type": "human"}])
    socks: dict[str, tuple] = {}

    async def main():
        async def open_(name, server, token):
            ws = await ws_connect(f"{server.ws}/api/games/{gid}/ws", open_timeout=20)
            await ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
            got: list[dict] = []
            socks[name] = (ws, got)
            while not any(m["type"] == "chat_history" for m in got):
                got.append(orjson.loads(await asyncio.wait_for(ws.recv(), 20)))

        async def send(name, **msg):
            await socks[name][0].send(orjson.dumps(msg).decode())

        async def until(name, pred, seconds=15.0):
            ws, got = socks[name]
            loop = asyncio.get_running_loop()
            deadline = loop.time() + seconds
            while not any(pred(m) for m in got):
                got.append(orjson.loads(await asyncio.wait_for(ws.recv(), deadline - loop.time())))
            return next(m for m in got if pred(m))

        async def quiet(name, seconds=1.0):
            ws, got = socks[name]
            try:
                while True:
                    got.append(orjson.loads(await asyncio.wait_for(ws.recv(), seconds)))
            except TimeoutError:
                pass

        await open_("s0", a, tokens[0])
        await open_("s1", b, tokens[1])
        await open_("s1a", a, tokens[1])
        await open_("wa", a, None)
        await open_("wb", b, None)

        def text_is(t):
            return lambda m: m["type"] == "chat" and m["text"] == t

        # a seat on A reaches the seat on B (and the spectator there)
        await send("s0", type="chat", channel="players", text="hello from A", id=1)
        got = await until("s1", text_is("hello from A"))
        assert got["seat"] == 0 and got["channel"] == "players" and "id" not in got
        await until("wb", text_is("hello from A"))
        # a spectator on A reaches the spectator on B, and no seat anywhere
        await send("wa", type="chat", channel="spectators", text="psst, from A", id=2)
        await until("wb", text_is("psst, from A"))
        await send("s1", type="chat", channel="players", text="hello from B", id=3)
        await until("s0", text_is("hello from B"))
        # seat 1 mutes seat 0 through B: its device on A follows, and A no longer delivers seat 0 to it
        await send("s1", type="mute", target=0, muted=True, id=4)
        await until("s1", lambda m: m["type"] == "chat_history" and m.get("id") == 4)
        await until("s1a", lambda m: m["type"] == "chat_history" and m["muted"] == [0])
        await send("s0", type="chat", channel="players", text="can you hear me", id=5)
        await until("wb", text_is("can you hear me"))
        await send("s1", type="chat", channel="players", text="last word", id=6)
        await until("s1a", text_is("last word"))
        for name in socks:
            await quiet(name)
        for name in ("s0", "s1", "s1a"):
            texts = [m["text"] for m in socks[name][1] if m["type"] == "chat"]
            assert "psst, from A" not in texts, name
            assert all(m["channel"] == "players" for m in socks[name][1] if m["type"] == "chat"), name
        for name in ("s1", "s1a"):
            assert "can you hear me" not in [m["text"] for m in socks[name][1] if m["type"] == "chat"], name
        for name in ("wa", "wb"):
            texts = [m["text"] for m in socks[name][1] if m["type"] == "chat"]
            assert texts == ["hello from A", "psst, from A", "hello from B", "can you hear me", "last word"], name
        for ws, _ in socks.values():
            await ws.close()

    asyncio.run(main())
    # both processes answer the same history
    for p in pair:
        r = httpx.get(f"{p.base}/api/games/{gid}/chat", timeout=10).json()
        assert len(r["messages"]) == 5
        r = httpx.get(f"{p.base}/api/games/{gid}/chat", headers={"Authorization": f"Bearer {tokens[1]}"}, timeout=10)
        assert r.json()["muted"] == [0] and [m["seat"] for m in r.json()["messages"]] == [1, 1]
