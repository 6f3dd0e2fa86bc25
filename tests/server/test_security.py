"""The server as an attacker or a cheating player tries it: fair deals, credentials, bounded input,
limits, clean errors. Storage-facing cases run against SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import hashlib
import time

import orjson
import pytest
from srvkit import BACKENDS, Api, Backend, Client, require_backend, start_server
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from redtable.core import GameRecord, replay
from redtable.server.conn import Conn
from redtable.server.errors import ApiError
from redtable.server.fairness import HumanDelays, seed_commitment
from redtable.server.limits import Limits, Rate, RateLimiter
from redtable.server.validate import check_name


@pytest.fixture(scope="module", params=BACKENDS)
def strict(request, tmp_path_factory):
    """A server that, as in production, refuses chosen seeds for games of several people
    (rates relaxed: this process is one client for every test)."""
    require_backend(request.param)
    b = Backend(request.param, tmp_path_factory.mktemp("sec"))
    srv = start_server(b, allow_chosen_seeds=False)
    api = Api(srv.base)
    yield srv, api
    api.close()
    srv.stop()
    b.cleanup()


def auth(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


def seats(*kinds, **extra):
    return [
        {"type": "bot", "bot": k[4:] or "random"} if k.startswith("bot") else {"type": "human", **extra} for k in kinds
    ]


# ---------------------------------------------------------------------- fair deals
def test_a_chosen_seed_only_where_one_person_plays(strict):
    srv, api = strict
    r = api.http.post("/api/games", json={"game": "red-north", "seed": 7, "seats": seats("human", "human")})
    assert r.status_code == 422 and r.json()["error"] == "seed_not_allowed" and "one person" in r.json()["message"]
    r = api.http.post("/api/games", json={"game": "red-rising", "seed": 7, "seats": seats("human", "bot", "bot")})
    assert r.status_code == 201
    info = r.json()
    assert info["seed"] == 7 and info["seed_chosen_by_creator"] is True
    listed = {g["id"]: g for g in api.http.get("/api/games", params={"limit": 500}).json()}
    assert listed[info["game_id"]]["seed_chosen_by_creator"] is True
    assert api.state(info["game_id"])["seed_chosen_by_creator"] is True
    r = api.http.post("/api/games", json={"game": "red-north", "seed": 7, "seats": seats("bot", "bot")})
    assert r.status_code == 201 and r.json()["seed_chosen_by_creator"] is True  # nobody plays: allowed
    dealt = api.create("red-north", ("human", "human"))
    assert dealt["seed_chosen_by_creator"] is False and "seed" not in dealt
    assert listed.get(dealt["game_id"], {"seed_chosen_by_creator": False})["seed_chosen_by_creator"] is False


def test_commit_and_reveal(strict):
    srv, api = strict
    info = api.create("red-north", ("bot", "bot"))
    gid = info["game_id"]
    commitment = info["seed_commitment"]
    assert len(commitment) == 64 and int(commitment, 16) >= 0
    listed = {g["id"]: g for g in api.http.get("/api/games", params={"limit": 500}).json()}
    assert listed[gid]["seed_commitment"] == commitment
    for g in listed.values():  # the lobby never shows a salt, a seed or a secret
        assert not {"salt", "seed", "creator_key", "invite"} & set(g)
    r = api.http.get(f"/api/games/{gid}/record")
    deadline = time.time() + 30
    while r.status_code == 409:  # published only once the bots finish
        assert time.time() < deadline
        time.sleep(0.05)
        r = api.http.get(f"/api/games/{gid}/record")
    rec = r.json()
    assert len(rec["salt"]) >= 32 and int(rec["salt"], 16) >= 0  # 16 random bytes as hex
    assert hashlib.sha256(f"{rec['seed']}:{rec['salt']}".encode()).hexdigest() == commitment
    assert seed_commitment(rec["seed"], rec["salt"]) == commitment
    assert replay(GameRecord.from_json(rec)).is_terminal()  # the record replays, its commitment checked
    forged = {**rec, "seed": rec["seed"] ^ 1}
    with pytest.raises(Exception, match="seed_commitment"):
        GameRecord.from_json(forged)


# ---------------------------------------------------------------------- headers, docs, bodies
def test_security_headers_everywhere(strict):
    srv, api = strict
    for path in ("/api/titles", "/api/games/nope", "/", "/no-such-page", "/openapi.json"):
        r = api.http.get(path)
        h = r.headers
        assert "default-src 'self'" in h["content-security-policy"], path
        assert "frame-ancestors 'none'" in h["content-security-policy"]
        assert "unsafe-inline" not in h["content-security-policy"]
        assert h["x-content-type-options"] == "nosniff" and h["x-frame-options"] == "DENY"
        assert h["referrer-policy"] == "no-referrer" and h["x-request-id"]
    assert api.http.get("/api/titles").headers["cache-control"] == "no-store"
    assert "script-src 'self'" in api.http.get("/docs").headers["content-security-policy"]  # test_first_start.py


def test_bodies_are_bounded(strict):
    srv, api = strict
    big = b'{"game": "red-rising", "seats": [{}, {}], "options": {"x": "' + b"a" * 70_000 + b'"}}'
    r = api.http.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large" and r.json()["limit"] == 65536

    def chunks():  # no Content-Length: counted while it streams in
        for _ in range(20):
            yield b"x" * 8192

    r = api.http.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    assert len(r.text) < 400
    r = api.http.post("/api/games", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == "malformed"


def test_errors_echo_at_most_200_characters(strict):
    srv, api = strict
    long = "Z" * 5000
    r = api.http.get(f"/api/games/{long}")
    assert r.status_code == 404 and r.text.count("Z") <= 200
    info, tokens = api.new_game("red-north", ("human", "human"))
    gid = info["game_id"]
    s = api.state(gid)
    p = s["decision"]["player"]
    r = api.decide(gid, tokens[p], long, s["version"])
    assert r.status_code == 422 and r.json()["error"] in ("illegal_action", "malformed") and r.text.count("Z") <= 200
    r = api.http.post("/api/games", json={"game": long, "seats": [{}, {}]})
    assert r.status_code == 422 and r.text.count("Z") <= 200
    r = api.http.post("/api/games", json={"game": "red-rising", "seats": [{}, {}], "options": {long[:500]: 1}})
    assert r.status_code == 422 and r.text.count("Z") <= 200
    c = Client(srv, gid, tokens[p])
    c.send(type=long, id=1)
    err = c.recv_type("error")
    assert orjson.dumps(err).decode().count("Z") <= 200
    c.close()


@pytest.mark.parametrize(
    "body",
    [
        {"game": "red-rising", "seats": [{}, {}], "undo": "yes"},
        {"game": "red-rising", "seats": [{}, {}], "undo": 1},
        {"game": "red-rising", "seats": [{}, {}], "bot_delay": "1"},
        {"game": "red-rising", "seats": [{}, {}], "seed": 1.0},
        {"game": "red-rising", "seats": [{}, {}], "options": {"multiplayer_variant": 1}},
        {"game": "red-rising", "seats": [{}, {}], "options": {"block_windows": "no"}},
        {"game": "red-north", "seats": [{}, {}], "options": {"outpost_points": True}},
        {"game": "red-rising", "seats": [{"type": "human", "bot": "heuristic"}, {}]},
        {"game": "red-rising", "seats": [{}, {"type": "bot", "bot": "ismcts:600s"}]},
        {"game": "red-rising", "seats": [{}, {"type": "bot", "bot": "ismcts:1000000000it"}]},
    ],
)
def test_strict_types_and_presets(strict, body):
    srv, api = strict
    r = api.http.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    if "bot" in str(body["seats"][1]):
        assert r.json()["error"] == "invalid_bot"
        assert all(p in r.json()["message"] for p in ("random", "heuristic", "ismcts:0.2s", "ismcts:1s", "expert:1s"))


def test_titles_advertise_the_presets(strict):
    srv, api = strict
    for t in api.http.get("/api/titles").json():
        assert t["bots"] == ["random", "heuristic", "ismcts:0.2s", "ismcts:1s", "expert:1s"]


# ---------------------------------------------------------------------- names and ids
@pytest.mark.parametrize(
    "name",
    [
        "",
        "   ",
        "A" * 25,
        "Ann\x00",
        "Ann\x07",
        "Ann\u202eevil",
        "An\u200bn",
        "Ann\u2066",
        "Bot",
        "random",
        "Heuristic Harry",
        "ismcts",
        "The Expert",
        "evil-bot",
        "Ann\nBo",
        "A\tB",
        # look-alikes of the bots' words: separators, digits, other scripts, math and full-width letters
        "B_o_t",
        "ßot",
        "Вот",
        "ВОТ",
        "b0t",
        "R.o.b.o.t",
        "r o b o t",
        "Ran-dom",
        "𝐁𝐨𝐭",
        "ＥＸＰＥＲＴ",
        "ʙᴏᴛ",
        "Bót",
        "1SMCTS",
        # invisible: Hangul fillers, braille blank, a variation selector on nothing
        "\u3164",
        "\u115f",
        "\u1160\u1160",
        "Ann\u3164",
        "\u2800",
        "\uffa0",
        "\ufe0f",
        # oversized: phrase ligatures, long dashes, cuneiform, a pile of combining marks
        "\ufdfd",
        "Ann \ufdfa",
        "\u2e3b",
        "\U00012219",
        "Z\u0336\u0334\u0335\u0337",
    ],
)
def test_bad_names_are_refused(strict, name):
    srv, api = strict
    r = api.http.post("/api/games", json={"game": "red-north", "seats": [{"name": name}, {}]})
    assert r.status_code == 422 and r.json()["error"] in ("bad_name", "malformed"), r.text
    assert "INSERT" not in r.text and "hash" not in r.text
    info = api.create("red-north", ("human", "human"))
    r = api.http.post(f"/api/games/{info['game_id']}/join", json={"invite": info["seats"][0]["invite"], "name": name})
    assert r.status_code == 422, r.text
    assert "INSERT" not in r.text and "hash" not in r.text


@pytest.mark.parametrize(
    "name",
    [
        "Ann",
        "Зоряна",
        "Łucja Ż",
        "李雷",
        "O'Brien-Smith",
        "A" * 24,
        "Robotnik",
        "Abbot",
        "Nguyễn Văn",
        "Zoë",
        "Ann ❤\ufe0f",
        "Bo T",
        "Dmitriy Bot\u0430nik",
    ],
)
def test_good_names_are_kept(strict, name):
    srv, api = strict
    info = api.create("red-north", ("human", "human"))
    r = api.http.post(f"/api/games/{info['game_id']}/join", json={"invite": info["seats"][0]["invite"], "name": name})
    assert r.status_code == 200 and r.json()["name"] == name


@pytest.mark.parametrize("gid", ["a%00b", "x" * 33, "..%2F..%2Fetc", "a%20b", "%C3%BC", "a'--", "a%0Ab"])
def test_odd_game_ids_never_reach_the_database(strict, gid):
    srv, api = strict
    for r in (
        api.http.get(f"/api/games/{gid}"),
        api.http.post(f"/api/games/{gid}/join", json={"invite": "x"}),
        api.http.get(f"/api/games/{gid}/log"),
    ):
        assert r.status_code in (404, 405) and r.json()["error"] in (
            "unknown_game",
            "not_found",
            "method_not_allowed",
        ), r.text


def test_check_name_unit():
    assert check_name("  Ann  ") == "Ann" and check_name(None) is None
    with pytest.raises(ApiError):
        check_name(7)


@pytest.mark.parametrize(
    "name, says",
    [
        ("\u3164", "invisible character (U+3164)"),
        ("A\u2800", "invisible character (U+2800)"),
        ("\ufdfd", "many letters wide (U+FDFD)"),
        ("x\u0301\u0302\u0303\u0304", "more than 3 combining marks"),
        ("B_o_t", "look like a word the table uses for bots"),
        ("Вот", "look like a word the table uses for bots"),
    ],
)
def test_a_refused_name_says_what_is_wrong_and_what_is_allowed(name, says):
    with pytest.raises(ApiError) as e:
        check_name(name)
    assert e.value.code == "bad_name" and says in e.value.message, e.value.message
    assert e.value.details["reason"] in ("characters", "bot_word")  # (the page translates by reason)


def test_the_look_alike_rule_is_not_vacuous():
    """Every bot word is caught as typed, and each disguise really changes the code points."""
    from redtable.server.textrules import words
    from redtable.server.validate import BOT_WORDS

    for w in BOT_WORDS:
        assert w in words(w.upper()) and w in words("_".join(w)) and w in words(" ".join(w))
    for disguise in ("ßot", "Вот", "b0t", "𝐁𝐨𝐭", "ʙᴏᴛ"):
        assert disguise.casefold() != "bot" and "bot" in words(disguise)


def test_storage_failures_never_reach_the_client(strict, monkeypatch):
    srv, api = strict
    store = srv.hub.store

    def boom(*a, **k):
        raise RuntimeError("INSERT INTO redtable_seats (invite_hash, token_hash) VALUES ('secret-hash')")

    info, tokens = api.new_game("red-north", ("human", "human"))
    gid = info["game_id"]
    s = api.state(gid)
    p = s["decision"]["player"]
    me = api.state(gid, tokens[p])
    monkeypatch.setattr(
        store,
        "write_batch",
        lambda ops, conn=None: (
            [RuntimeError("INSERT INTO redtable_seats (invite_hash, token_hash) VALUES ('secret-hash')")] * len(ops)
        ),
    )
    monkeypatch.setattr(store, "load_game", boom)
    for r in (
        api.decide(gid, tokens[p], me["decision"]["options"][0], me["version"]),
        api.http.post("/api/games", json={"game": "red-north", "seats": [{}, {}]}),
        api.http.get("/api/games/neverloaded1"),
    ):
        assert r.status_code == 503, r.text
        body = r.json()
        assert body["error"] == "storage_unavailable" and body["request_id"] in body["message"]
        assert "INSERT" not in r.text and "secret" not in r.text and "hash" not in r.text


# ---------------------------------------------------------------------- tokens
def test_tokens_never_in_urls(strict):
    srv, api = strict
    info, tokens = api.new_game("red-north", ("human", "human"))
    gid = info["game_id"]
    for s in info["seats"]:
        assert s["invite"] not in s["invite_url"].split("#")[0]  # the invite rides in the fragment
    j = api.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][0]["invite"]}).json()
    assert j["token"] not in j["ws_url"] and j["token"] not in j["url"]
    for path in (f"/api/games/{gid}", f"/api/games/{gid}/log", f"/api/games/{gid}/replay/0"):
        r = api.http.get(path, params={"token": tokens[0]})
        assert r.status_code == 400 and r.json()["error"] == "token_in_url"
    with connect(f"{srv.ws_base}/api/games/{gid}/ws?token={tokens[0]}", open_timeout=10) as ws:
        assert orjson.loads(ws.recv(timeout=10))["error"] == "token_in_url"
    # a socket that never authenticates is closed
    with connect(f"{srv.ws_base}/api/games/{gid}/ws", open_timeout=10) as ws:
        ws.send('{"type": "sync"}')
        assert orjson.loads(ws.recv(timeout=10))["error"] == "auth_required"
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)


def test_sign_out_other_devices(strict):
    srv, api = strict
    info = api.create("red-north", ("human", "human"))
    gid = info["game_id"]
    invite = info["seats"][0]["invite"]
    phone = api.join(gid, invite)
    laptop = api.join(gid, invite)
    assert phone != laptop
    watcher = Client(srv, gid, phone)
    r = api.http.post(f"/api/games/{gid}/sign-out-others", headers=auth(laptop))
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["signed_out"] == 1 and out["invite"] != invite and out["invite_url"] == f"/join/{gid}#{out['invite']}"
    assert api.get(gid, phone).status_code == 403  # revoked
    assert api.state(gid, laptop)["seat"] == 0
    err = watcher.recv_type("error")
    assert err["error"] == "signed_out"
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(10):
            watcher.recv(timeout=5)
    assert closed.value.rcvd.code == 4010
    r = api.http.post(f"/api/games/{gid}/join", json={"invite": invite})
    assert r.status_code == 403 and r.json()["error"] == "bad_invite"  # the old link is dead
    assert api.state(gid, api.join(gid, out["invite"]))["seat"] == 0
    assert api.http.post(f"/api/games/{gid}/sign-out-others").status_code == 401
    # ... and it holds after a reload from storage
    srv.call(lambda: srv.hub.evict_idle(time.monotonic() + 10**6))
    assert api.get(gid, phone).status_code == 403 and api.state(gid, laptop)["seat"] == 0
    assert api.http.post(f"/api/games/{gid}/join", json={"invite": invite}).status_code == 403


def test_creator_reissues_an_unclaimed_invite(strict):
    srv, api = strict
    info = api.create("red-north", ("human", "human", "bot"))
    gid, key = info["game_id"], info["creator_key"]
    old = info["seats"][1]["invite"]
    assert api.http.post(f"/api/games/{gid}/seats/1/invite").status_code == 403
    assert api.http.post(f"/api/games/{gid}/seats/1/invite", headers=auth("guess")).status_code == 403
    r = api.http.post(f"/api/games/{gid}/seats/1/invite", headers=auth(key))
    assert r.status_code == 200, r.text
    new = r.json()["invite"]
    assert new != old
    assert api.http.post(f"/api/games/{gid}/join", json={"invite": old}).status_code == 403
    api.join(gid, new)
    r = api.http.post(f"/api/games/{gid}/seats/1/invite", headers=auth(key))
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"
    r = api.http.post(f"/api/games/{gid}/seats/2/invite", headers=auth(key))
    assert r.status_code == 409 and r.json()["error"] == "bot_seat"
    r = api.http.post(f"/api/games/{gid}/seats/5/invite", headers=auth(key))
    assert r.status_code == 404
    srv.call(lambda: srv.hub.evict_idle(time.monotonic() + 10**6))  # kept in storage
    assert api.http.post(f"/api/games/{gid}/join", json={"invite": old}).status_code == 403


def test_renaming_only_before_the_first_decision(strict):
    srv, api = strict
    info = api.create("red-north", ("human", "human"))
    gid = info["game_id"]
    inv = [s["invite"] for s in info["seats"]]
    t0 = api.join(gid, inv[0], "Ann")
    assert api.join(gid, inv[0], "Anna") and api.state(gid)["seats"][0]["name"] == "Anna"
    t1 = api.join(gid, inv[1], "Bo")
    s = api.state(gid)
    p = s["decision"]["player"]
    me = api.state(gid, (t0, t1)[p])
    assert api.decide(gid, (t0, t1)[p], me["decision"]["options"][0], me["version"]).status_code == 200
    r = api.http.post(f"/api/games/{gid}/join", json={"invite": inv[0], "name": "Mallory"})
    assert r.status_code == 409 and r.json()["error"] == "game_started"
    assert api.state(gid)["seats"][0]["name"] == "Anna"
    r = api.http.post(f"/api/games/{gid}/join", json={"invite": inv[0], "name": "Anna"})
    assert r.status_code == 200  # another device, same name
    r = api.http.post(f"/api/games/{gid}/join", json={"invite": inv[0]})
    assert r.status_code == 200 and r.json()["name"] == "Anna"


# ---------------------------------------------------------------------- limits
@pytest.fixture(scope="module")
def tight(tmp_path_factory):
    """A server with small limits, to reach each of them."""
    b = Backend("sqlite", tmp_path_factory.mktemp("tight"))
    limits = Limits(
        rates={
            **Limits().rates,
            "create": Rate(3, 0.01),
            "decide": Rate(4, 0.01),
            "ws_message": Rate(20, 0.5),
            "join": Rate(50, 10),
        },
        spectators_per_game=3,
        sockets_per_client=12,
        live_games_per_client=6,
        presence_seconds=0.3,
    )
    srv = start_server(b, limits=limits)
    api = Api(srv.base)
    yield srv, api
    api.close()
    srv.stop()
    b.cleanup()


def fresh(srv) -> None:
    """Forget what earlier tests on this server spent: rate buckets, the count of live games."""

    from sqlalchemy import delete

    from redtable.server import clientdb

    srv.call(srv.hub.limiter.buckets.clear)
    with srv.hub.store.engine.begin() as conn:  # the live games are counted in storage (clientdb.py)
        for t in clientdb.TABLES:
            conn.execute(delete(t))


def test_rate_limits_answer_429_with_retry_after(tight):
    srv, api = tight
    fresh(srv)
    codes = [api.http.post("/api/games", json={"game": "red-north", "seats": [{}, {}]}) for _ in range(5)]
    assert [r.status_code for r in codes[:3]] == [201, 201, 201]
    r = codes[3]
    assert r.status_code == 429 and r.json()["error"] == "rate_limited" and int(r.headers["retry-after"]) >= 1
    assert r.json()["retry_after"] == int(r.headers["retry-after"])
    gid = codes[0].json()["game_id"]
    invites = [s["invite"] for s in codes[0].json()["seats"]]
    tokens = [api.join(gid, i) for i in invites]
    s = api.state(gid)
    p = s["decision"]["player"]
    answers = [api.decide(gid, tokens[p], "nonsense", s["version"]).status_code for _ in range(6)]
    assert answers[:4] == [422] * 4 and answers[4] == 429
    # WebSocket messages too
    c = Client(srv, gid, tokens[1 - p])
    for i in range(30):
        c.send(type="ping", id=i)
    errors = []
    deadline = time.time() + 5
    while time.time() < deadline and not errors:
        m = c.recv()
        if m["type"] == "error":
            errors.append(m)
    assert errors and errors[0]["error"] == "rate_limited"
    c.close()


def test_live_games_per_client(tight):
    srv, api = tight
    hub = srv.hub
    fresh(srv)
    made = 0
    for _ in range(10):
        hub.limiter.buckets.clear()  # only the count of live games limits here
        r = api.http.post("/api/games", json={"game": "red-north", "seats": [{}, {}]})
        if r.status_code == 429:
            assert r.json()["error"] == "too_many_games"
            break
        made += 1
    assert made == 6
    # an all-bot game counts against the same limit
    hub.limiter.buckets.clear()
    r = api.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "bot"}, {"type": "bot"}]})
    assert r.status_code == 429 and r.json()["error"] == "too_many_games"


def test_spectator_cap_and_presence_coalesced(tight):
    srv, api = tight
    fresh(srv)
    gid = api.create("red-north", ("human", "human"))["game_id"]
    watchers = []
    refused = 0
    for _ in range(6):
        ws = connect(f"{srv.ws_base}/api/games/{gid}/ws", open_timeout=10, legacy=True)
        ws.send('{"type": "auth", "token": null}')
        m = orjson.loads(ws.recv(timeout=10))
        if m["type"] == "error":
            assert m["error"] == "too_many_spectators"
            refused += 1
            ws.close()
        else:
            watchers.append(ws)
    assert len(watchers) == 3 and refused == 3
    time.sleep(0.6)
    presences = 0
    try:
        while True:
            if orjson.loads(watchers[0].recv(timeout=0.2))["type"] == "presence":
                presences += 1
    except TimeoutError:
        pass
    assert 1 <= presences <= 3  # three connects (and refusals) merged into one or two notices
    for ws in watchers:
        ws.close()


def test_sockets_per_client(tight):
    srv, api = tight
    fresh(srv)
    gid = api.create("red-north", ("human", "human"))["game_id"]
    held, refused = [], 0
    for _ in range(16):
        ws = connect(f"{srv.ws_base}/api/games/{gid}/ws", open_timeout=10, legacy=True)
        held.append(ws)
    for ws in held:
        try:
            ws.send('{"type": "auth", "token": null}')
            m = orjson.loads(ws.recv(timeout=10))
            refused += m.get("error") in ("rate_limited", "too_many_spectators")
        except ConnectionClosed:
            refused += 1
    assert refused >= 4
    for ws in held:
        ws.close()


def test_sync_storm_is_coalesced(served):
    srv, api = served
    info, tokens = api.new_game("red-rising", ("human", "human"))
    gid = info["game_id"]
    c = Client(srv, gid, tokens[0])
    for _ in range(300):  # without reading anything
        c.send(type="sync")
    time.sleep(0.5)
    pending = srv.call(lambda: [(len(x.items), x.state_extra is not None) for x in srv.hub.games[gid].conns])
    assert all(n <= 2 for n, _ in pending)
    got = 0
    try:
        while True:
            c.recv(timeout=1)
            got += 1
    except TimeoutError:
        pass
    assert got <= 300
    c.close()


def test_a_connection_that_does_not_read_is_dropped():
    async def main():
        sent = []
        never = asyncio.Event()

        async def send(text):
            sent.append(len(text))
            await never.wait()  # the client's socket is full: a send never completes

        c = Conn(0, send, limit=100_000, snapshot=lambda seat, extra: "S" * 50_000)
        pump = asyncio.create_task(c.pump())
        c.want_state()
        await asyncio.sleep(0.01)
        for _ in range(10):
            c.push("u" * 20_000, update=True)
        assert c.closed and c.ended.is_set() and c.bytes == 0
        assert c.close_reason.startswith("too slow")
        pump.cancel()
        # a pending snapshot replaces the updates queued before it, and only one is pending
        c2 = Conn(0, send, limit=10**9, snapshot=lambda seat, extra: "S")
        for _ in range(5):
            c2.push("u", update=True)
        c2.push("e")  # an error message is kept
        c2.want_state()
        c2.want_state(reason="undo")
        assert [t for _, t in c2.items] == ["e"] and c2.state_extra == {"reason": "undo"}

    asyncio.run(main())


def test_ws_messages_are_bounded(served):
    srv, api = served
    info, tokens = api.new_game("red-north", ("human", "human"))
    c = Client(srv, info["game_id"], tokens[0])
    c.send(type="ping", pad="p" * 70_000)
    try:
        m = c.recv_type("error")
        assert m["error"] == "too_large"
    except ConnectionClosed as e:  # or the server closes with 1009 (message too big)
        assert e.rcvd is None or e.rcvd.code in (1009, 4008)
    c.close()


def test_rate_limiter_unit():
    lim = RateLimiter(Limits(rates={"x": Rate(2, 1.0)}))
    assert lim.try_take("a", "x", 0.0) == 0 and lim.try_take("a", "x", 0.0) == 0
    assert lim.try_take("a", "x", 0.0) == pytest.approx(1.0)
    assert lim.try_take("b", "x", 0.0) == 0  # per client
    assert lim.try_take("a", "x", 1.0) == 0  # refilled
    with pytest.raises(ApiError) as e:
        lim.take("a", "x", 1.0)
    assert e.value.status == 429 and e.value.headers["Retry-After"] == "1"
    assert lim.prune(100.0) == 2 and not lim.buckets


def test_sqlite_wal_is_bounded(tmp_path):
    from redtable.server.store import WAL_LIMIT_BYTES, Store

    st = Store(f"sqlite:///{tmp_path}/w.db")
    st.create_tables()
    with st.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_size_limit").scalar() == WAL_LIMIT_BYTES
    rows = [
        {"game_id": "g", "seq": i, "seat": 0, "action": "x" * 2000, "undoable": False, "undone": False, "at": 0.0}
        for i in range(1, 20001)
    ]
    for i in range(0, len(rows), 2000):
        st.write_batch([("action", r, None) for r in rows[i : i + 2000]])
    assert st.wal_bytes() > WAL_LIMIT_BYTES
    st.checkpoint()  # a passive checkpoint; the next write starts the log over, cut back to the limit
    st.write_batch([("action", {**rows[0], "seq": 99999}, None)])
    assert st.wal_bytes() <= WAL_LIMIT_BYTES
    for i in range(0, 6000, 2000):
        st.write_batch([("action", {**r, "seq": r["seq"] + 100000}, None) for r in rows[i : i + 2000]])
    st.wal_truncate_bytes = 1 << 20  # past this a checkpoint empties the file
    st.checkpoint()
    assert st.wal_bytes() == 0
    st.dispose()


# ---------------------------------------------------------------------- block windows over the server
def test_human_delays_follow_people():
    d = HumanDelays(median=2.0, min_samples=5)
    prior = [d.draw() for _ in range(2000)]
    assert 0.5 <= min(prior) and max(prior) <= 16.0 and 1.6 < sorted(prior)[1000] < 2.5
    for s in (3.0, 3.0, 3.0, 3.0, 3.0):
        d.observe(s)
    assert {d.draw() for _ in range(50)} == {3.0}  # once people have answered, their times are drawn
    d.observe(float("nan"))
    d.observe(-1)
    assert len(d.samples) == 5


def test_the_server_declines_an_empty_window_after_a_persons_wait(served):
    srv, api = served
    srv.hub.window_median = 0.2
    srv.hub.delays.clear()
    import random

    for attempt in range(6):
        info, tokens = api.new_game(
            "red-rising", ("human", "human", "human"), options={"block_windows": True}, seed=100 + attempt
        )
        gid = info["game_id"]
        rng = random.Random(attempt)
        for _ in range(400):
            s = api.state(gid)
            if s["status"] == "finished":
                break
            p = s["decision"]["player"]
            me = api.state(gid, tokens[p])
            d = me["decision"]
            if d.get("auto"):
                assert d["kind"] in ("block", "block_sovereign") and d["options"] == ["no"]
                others = [api.state(gid, tokens[q])["decision"] for q in range(3) if q != p]
                assert all(o == {"player": p, "kind": d["kind"]} for o in others)  # no tell
                r = api.decide(gid, tokens[p], "no", me["version"])
                assert r.status_code == 409 and r.json()["error"] == "answered_by_server"
                t0 = time.time()
                while api.state(gid)["version"] == me["version"]:
                    time.sleep(0.01)
                waited = time.time() - t0
                assert 0.03 < waited < 3.0
                return
            r = api.decide(gid, tokens[p], rng.choice(d["options"]), me["version"])
            assert r.status_code == 200, r.text
    pytest.fail("no empty block window in six games")


def test_a_failing_bot_is_shown_at_the_table(served):
    srv, api = served

    class Broken:
        calls = 0

        async def choose(self, *a, **k):
            Broken.calls += 1
            if Broken.calls == 1:
                raise RuntimeError("the worker fell over")
            self.fell = True  # the second think overran its deadline: the pool played its fallback
            return a[3].decision().options[0]

        def take_fallbacks(self, game_key):
            return 1 if getattr(self, "fell", False) else 0

        async def stop(self):
            pass

    real = srv.hub.pool
    srv.hub.pool = Broken()
    try:
        info, tokens = api.new_game("red-north", ("human", "bot:heuristic"), bot_delay=0.3)
        c = Client(srv, info["game_id"], tokens[0])
        deadline = time.time() + 20
        notices = []
        while len(notices) < 2 and time.time() < deadline:
            s = c.last
            if s["decision"] and s["decision"]["player"] == 0:
                c.send(type="decide", action=s["decision"]["options"][0], version=s["version"])
            try:
                m = c.recv(timeout=2)
            except TimeoutError:
                continue
            if m["type"] == "notice":
                notices.append(m)
        assert len(notices) == 2  # an exception, then a fallback after a deadline: both shown
        for notice in notices:
            assert notice["code"] == "bot_failed" and notice["seat"] == 1 and "worker" not in notice["message"]
        c.close()
    finally:
        srv.hub.pool = real


# ---------------------------------------------------------------------- request heads
def _raw(port: int, data: bytes, wait: float = 5.0) -> bytes:
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=wait) as s:
        try:
            s.sendall(data)
        except (ConnectionResetError, BrokenPipeError):  # refused and closed before all was sent
            pass
        out = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                out += chunk
        except (TimeoutError, ConnectionResetError):
            pass
        return out


def test_request_heads_are_bounded(served):
    srv, api = served
    ok = _raw(srv.port, b"GET /api/titles HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
    assert ok.startswith(b"HTTP/1.1 200")
    big = b"GET /api/titles HTTP/1.1\r\nhost: x\r\nx-pad: " + b"a" * 100_000 + b"\r\n\r\n"
    answer = _raw(srv.port, big)
    assert answer.startswith(b"HTTP/1.1 431") or answer == b"", answer[:100]  # (a reset may beat the answer)
    import socket

    t0 = time.time()
    with socket.create_connection(("127.0.0.1", srv.port), timeout=30) as s:  # a header that never ends
        try:
            s.sendall(b"GET /api/titles HTTP/1.1\r\nhost: x\r\nx-pad: " + b"a" * 10_000_000)
            got = s.recv(100)
        except (ConnectionResetError, BrokenPipeError):
            got = b""
    assert got.startswith(b"HTTP/1.1 431") or got == b"", got
    assert time.time() - t0 < 10


def test_a_head_that_never_ends_is_cut_off():
    import socket

    import uvicorn
    from srvkit import ThreadServer

    from redtable.server.httpbounds import BoundedHttpToolsProtocol

    class Quick(BoundedHttpToolsProtocol):
        head_seconds = 0.5

    import tempfile

    from redtable.server.app import create_app

    app = create_app(f"sqlite:///{tempfile.mkdtemp()}/h.db")
    srv = ThreadServer(app)
    srv.server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=srv.port, log_level="warning", http=Quick, lifespan="on")
    )
    import threading

    srv.thread = threading.Thread(target=srv.server.run, daemon=True)
    srv.start()
    try:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:  # slowloris
            s.sendall(b"GET /api/titles HTTP/1.1\r\nhost: x\r\n")
            t0 = time.time()
            got = s.recv(100)
            assert got.startswith(b"HTTP/1.1 408") and time.time() - t0 < 5
        with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:  # says nothing at all
            assert s.recv(100) == b""
        ok = _raw(srv.port, b"GET /api/titles HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        assert ok.startswith(b"HTTP/1.1 200")
    finally:
        srv.stop()
