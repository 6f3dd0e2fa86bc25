"""Every HTTP endpoint and every error, against SQLite and PostgreSQL; nothing changes on a refusal."""

from __future__ import annotations

import random
import time

import pytest
from srvkit import Api, audience_ok

from redtable.core import GameRecord, make_game, replay


def decider(state: dict) -> int:
    return state["decision"]["player"]


def my_turn(api, gid, token, seat, timeout=20.0) -> dict:
    """The game as ``seat`` sees it once it is that seat's decision (bots move asynchronously)."""
    deadline = time.time() + timeout
    while True:
        me = api.state(gid, token)
        if me["status"] == "finished" or (me["decision"] and me["decision"]["player"] == seat):
            return me
        assert time.time() < deadline, "never my turn"
        time.sleep(0.005)


def unchanged(api, gid, tokens, before: list[dict]) -> None:
    """Every seat's (and a spectator's) view is as it was."""
    after = [api.state(gid, t) for t in [None, *tokens]]
    for a, b in zip(after, before, strict=True):
        assert a["version"] == b["version"] and a["view"] == b["view"] and a["events"] == b["events"]


def views(api, gid, tokens) -> list[dict]:
    return [api.state(gid, t) for t in [None, *tokens]]


_PLAY_RNG = random.Random(0)  # one stream shared by every call, as before


def play_one(api, gid, tokens, rng=_PLAY_RNG):
    s = api.state(gid)
    p = decider(s)
    me = api.state(gid, tokens[p])
    action = rng.choice(me["decision"]["options"])
    r = api.decide(gid, tokens[p], action, me["version"])
    assert r.status_code == 200, r.text
    return p, action, r.json()


# ---------------------------------------------------------------------- meta
def test_health_titles_openapi(served):
    srv, api = served
    h = api.http.get("/api/health").json()
    assert h["ok"] and h["db"] in ("sqlite", "postgresql")
    titles = {t["name"]: t for t in api.http.get("/api/titles").json()}
    assert titles["red-rising"]["min_players"] == 2 and titles["red-rising"]["max_players"] == 6
    assert titles["red-north"]["max_players"] == 4 and "outpost_points" in titles["red-north"]["options"]
    schema = api.http.get("/openapi.json").json()
    paths = set(schema["paths"])
    for p in (
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/join",
        "/api/games/{game_id}/decisions",
        "/api/games/{game_id}/undo",
        "/api/games/{game_id}/log",
        "/api/games/{game_id}/replay/{step}",
        "/api/games/{game_id}/record",
        "/api/titles",
        "/api/health",
    ):
        assert p in paths, p
    assert "ErrorBody" in schema["components"]["schemas"]
    r = api.http.get("/api/nothing-here")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    root = api.http.get("/")  # the web UI when redtable/web/static exists, else a pointer to the docs
    assert root.status_code == 200
    assert "html" in root.headers["content-type"] or root.json()["docs"] == "/docs"


# ---------------------------------------------------------------------- create
def test_create_game(served):
    srv, api = served
    info = api.create("red-north", ("human", "bot", "human"), options={"outpost_points": 2}, undo=True, seed=42)
    assert info["players"] == 3 and info["options"] == {"outpost_points": 2} and info["undo"] is True
    # (waiting until its people join: tables.py)
    assert info["seed"] == 42 and info["version"] == 0 and info["status"] == "waiting"
    seats = info["seats"]
    assert [s["type"] for s in seats] == ["human", "bot", "human"]
    assert seats[1]["bot"] == "random" and seats[1]["invite"] is None
    assert seats[0]["invite"] and seats[0]["invite"] != seats[2]["invite"]
    assert seats[0]["invite_url"] == f"/join/{info['game_id']}#{seats[0]['invite']}"  # never sent to a server
    # the server's own seed stays secret
    assert "seed" not in api.create("red-rising")
    listed = api.http.get("/api/games", params={"status": "active", "limit": 500}).json()
    assert info["game_id"] in {g["id"] for g in listed}
    assert all("invite" not in str(g) and "token" not in str(g) for g in listed)


@pytest.mark.parametrize(
    "body, code",
    [
        ({"game": "chess", "seats": [{}, {}]}, "unknown_title"),
        ({"game": "red-north", "seats": [{}] * 5}, "invalid_options"),
        ({"game": "red-rising", "seats": [{}]}, "invalid_options"),
        ({"game": "red-rising", "seats": [{}, {}], "options": {"colour": 3}}, "invalid_options"),
        ({"game": "red-rising", "seats": [{}, {}], "options": {"multiplayer_variant": "yes"}}, "invalid_options"),
        ({"game": "red-rising", "seats": [{}, {"type": "bot", "bot": "alphago"}]}, "invalid_bot"),
        ({"game": "red-rising"}, "malformed"),
        ({"game": "red-rising", "seats": "two"}, "malformed"),
        ({"game": "red-rising", "seats": [{"type": "robot"}, {}]}, "malformed"),
        ({"game": "red-rising", "seats": [{}, {}], "seed": -1}, "malformed"),
        ({"game": "red-rising", "seats": [{}, {}], "seed": "7"}, "malformed"),
        ({"game": "red-rising", "seats": [{}, {}], "extra": 1}, "malformed"),
        ({"game": "red-rising", "seats": [{}, {}], "bot_delay": 99}, "malformed"),
    ],
)
def test_create_errors(served, body, code):
    srv, api = served
    before = len(api.http.get("/api/games", params={"limit": 500}).json())
    r = api.http.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"] == code and r.json()["message"]
    assert len(api.http.get("/api/games", params={"limit": 500}).json()) == before


def test_create_not_json(served):
    srv, api = served
    r = api.http.post("/api/games", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == "malformed"


# ---------------------------------------------------------------------- join
def test_join(served):
    srv, api = served
    info = api.create("red-rising", ("human", "human", "bot"), bot_delay=10)  # nobody moves during the test
    gid = info["game_id"]
    r = api.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][1]["invite"], "name": "Bo"})
    assert r.status_code == 200
    j = r.json()
    assert j["seat"] == 1 and j["token"] and j["ws_url"] == f"/api/games/{gid}/ws"  # no secret in a URL
    again = api.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][1]["invite"]}).json()
    assert again["token"] != j["token"] and again["name"] == "Bo"  # each device its own token
    assert api.state(gid, j["token"])["seat"] == 1 and api.state(gid, again["token"])["seat"] == 1
    seats = api.state(gid)["seats"]
    assert seats[1]["joined"] and seats[1]["name"] == "Bo" and not seats[0]["joined"] and seats[2]["joined"]
    bad = api.http.post(f"/api/games/{gid}/join", json={"invite": "not-an-invite"})
    assert bad.status_code == 403 and bad.json()["error"] == "bad_invite"
    other = api.create("red-rising")
    cross = api.http.post(f"/api/games/{other['game_id']}/join", json={"invite": info["seats"][0]["invite"]})
    assert cross.status_code == 403
    assert api.http.post("/api/games/nope/join", json={"invite": "x"}).json()["error"] == "unknown_game"
    m = api.http.post(f"/api/games/{gid}/join", json={"invite": 5})
    assert m.status_code == 422 and m.json()["error"] == "malformed"


# ---------------------------------------------------------------------- read
def test_read_as_seat_and_spectator(served):
    srv, api = served
    info, tokens = api.new_game("red-rising", ("human", "human"), seed=3)
    gid = info["game_id"]
    spec = api.state(gid)
    assert spec["seat"] is None and spec["version"] == 0 and spec["step"] == 0
    assert all("hand" not in p for p in spec["view"]["players"])
    assert "options" not in spec["decision"] and all(audience_ok(e, None) for e in spec["events"])
    for seat, tok in enumerate(tokens):
        me = api.state(gid, tok)
        assert me["seat"] == seat
        hands = [p for p in me["view"]["players"] if "hand" in p]
        assert [p["seat"] for p in hands] == [seat]
        assert all(audience_ok(e, seat) for e in me["events"])
        if decider(me) == seat:
            assert me["decision"]["options"]
        else:
            assert "options" not in me["decision"]
    # a token never travels in a URL: a query parameter is refused
    q = api.http.get(f"/api/games/{gid}", params={"token": tokens[0], "events": False})
    assert q.status_code == 400 and q.json()["error"] == "token_in_url"
    q = api.http.get(f"/api/games/{gid}", params={"events": False}, headers={"X-Seat-Token": tokens[0]}).json()
    assert q["seat"] == 0 and "events" not in q
    assert api.get(gid, "wrong-token").json()["error"] == "bad_token"
    assert api.get(gid, "wrong-token").status_code == 403
    r = api.get("does-not-exist")
    assert r.status_code == 404 and r.json()["error"] == "unknown_game"


# ---------------------------------------------------------------------- decide
def test_decide_and_every_refusal(served):
    srv, api = served
    info, tokens = api.new_game("red-rising", ("human", "human"), seed=11)
    gid = info["game_id"]
    s = api.state(gid)
    p = decider(s)
    me = api.state(gid, tokens[p])
    other = tokens[1 - p]
    options = me["decision"]["options"]
    before = views(api, gid, tokens)

    def refused(r, status, code):
        assert r.status_code == status, r.text
        body = r.json()
        assert body["error"] == code and body["message"]
        unchanged(api, gid, tokens, before)
        return body

    b = refused(api.decide(gid, tokens[p], "not-a-card", 0), 422, "illegal_action")
    assert b["legal"] == options and b["decision"]["kind"] == me["decision"]["kind"] and b["version"] == 0
    b = refused(api.decide(gid, tokens[p], options[0], 5), 409, "stale_version")
    assert b["version"] == 0 and b["legal"] == options
    b = refused(api.decide(gid, other, options[0], 0), 409, "not_your_turn")
    assert b["waiting_for"] == p and "legal" not in b and "decision" not in b
    refused(api.decide(gid, None, options[0], 0), 401, "missing_token")
    refused(api.decide(gid, "forged", options[0], 0), 403, "bad_token")
    refused(api.decide("nope", tokens[p], options[0], 0), 404, "unknown_game")
    b = refused(
        api.http.post(
            f"/api/games/{gid}/decisions", json={"action": options[0]}, headers={"Authorization": f"Bearer {tokens[p]}"}
        ),
        422,
        "malformed",
    )
    assert b["legal"] == options  # the decider gets the legal choices with a malformed request
    b = refused(
        api.http.post(
            f"/api/games/{gid}/decisions",
            json={"action": 3, "version": 0},
            headers={"Authorization": f"Bearer {tokens[p]}"},
        ),
        422,
        "malformed",
    )
    assert b["legal"] == options
    b = refused(
        api.http.post(
            f"/api/games/{gid}/decisions",
            json={"action": 3, "version": 0},
            headers={"Authorization": f"Bearer {other}"},
        ),
        422,
        "malformed",
    )
    assert "legal" not in b  # ... and nobody else does
    refused(
        api.http.post(
            f"/api/games/{gid}/decisions",
            json={"action": options[0], "version": True},
            headers={"Authorization": f"Bearer {tokens[p]}"},
        ),
        422,
        "malformed",
    )
    refused(
        api.http.post(
            f"/api/games/{gid}/decisions",
            content=b"[]",
            headers={"Authorization": f"Bearer {tokens[p]}", "content-type": "application/json"},
        ),
        422,
        "malformed",
    )

    r = api.decide(gid, tokens[p], options[0], 0)
    assert r.status_code == 200, r.text
    up = r.json()
    assert up["type"] == "update" and up["version"] == 1 and up["step"] == 1 and up["by"] == p
    assert up["action"] == options[0]
    # the same request again is stale: never applied twice
    again = api.decide(gid, tokens[p], options[0], 0)
    assert again.status_code == 409 and again.json()["error"] in ("stale_version", "not_your_turn")
    assert api.state(gid)["version"] == 1


def test_game_over_and_record(served):
    srv, api = served
    info = api.create("red-north", ("bot", "bot"), seed=5)
    gid = info["game_id"]
    deadline = time.time() + 20
    while api.state(gid)["status"] != "finished":
        assert time.time() < deadline, "the bots did not finish"
        time.sleep(0.02)
    final = api.state(gid)
    assert final["decision"] is None and final["result"]["winners"]
    listed = {g["id"]: g for g in api.http.get("/api/games", params={"status": "finished", "limit": 500}).json()}
    assert listed[gid]["steps"] == final["step"]
    rec = api.http.get(f"/api/games/{gid}/record").json()
    state = replay(GameRecord.from_json(rec))
    assert state.is_terminal() and state.scores() == final["result"]["scores"]
    assert len(rec["actions"]) == final["step"] and rec["seed"] == 5

    info2, tokens = api.new_game("red-north", ("human", "bot"))
    r = api.http.get(f"/api/games/{info2['game_id']}/record")
    assert r.status_code == 409 and r.json()["error"] == "game_not_finished"
    assert api.http.get("/api/games/nope/record").status_code == 404


def test_finished_game_refuses_decisions(served):
    srv, api = served
    info, tokens = api.new_game("red-north", ("human", "bot"), seed=8, undo=True)
    gid = info["game_id"]
    rng = random.Random(1)
    while True:
        me = my_turn(api, gid, tokens[0], 0)
        if me["status"] == "finished":
            break
        r = api.decide(gid, tokens[0], rng.choice(me["decision"]["options"]), me["version"])
        assert r.status_code == 200, r.text
    r = api.decide(gid, tokens[0], "pass", me["version"])
    assert r.status_code == 409 and r.json()["error"] == "game_over"
    r = api.undo(gid, tokens[0], me["version"])
    assert r.status_code == 409 and r.json()["error"] == "game_over"


# ---------------------------------------------------------------------- undo
def test_undo(served):
    srv, api = served
    info, tokens = api.new_game("red-rising", ("human", "human"), seed=21, undo=True)
    gid = info["game_id"]
    r = api.undo(gid, tokens[0], 0)
    assert r.status_code == 409 and r.json()["error"] == "nothing_to_undo"
    rng = random.Random(4)
    undone = forbidden = crossed = 0
    for _ in range(60):
        s = api.state(gid)
        if s["status"] == "finished":
            break
        p = decider(s)
        before = views(api, gid, tokens)
        me = api.state(gid, tokens[p])
        r = api.decide(gid, tokens[p], rng.choice(me["decision"]["options"]), me["version"])
        up = r.json()
        v = up["version"]
        # the other seat may never undo my decision
        q = api.undo(gid, tokens[1 - p], v)
        assert q.status_code == 409 and q.json()["error"] == "not_your_decision"
        crossed += 1
        if up["can_undo"]:
            assert api.undo(gid, tokens[p], v - 1).json()["error"] == "stale_version"
            u = api.undo(gid, tokens[p], v)
            assert u.status_code == 200, u.text
            back = u.json()
            assert back["type"] == "state" and back["version"] == v + 1 and back["step"] == up["step"] - 1
            after = views(api, gid, tokens)
            for a, b in zip(after, before, strict=True):  # the same position, a newer version
                assert a["view"] == b["view"] and a["events"] == b["events"] and a["version"] == v + 1
            undone += 1
            # decide the same again (the version moved on) so the game advances
            me = api.state(gid, tokens[p])
            r = api.decide(gid, tokens[p], me["decision"]["options"][0], me["version"])
            assert r.status_code == 200
        elif up["by"] == p and up["status"] == "active":
            u = api.undo(gid, tokens[p], v)
            assert u.status_code == 409 and u.json()["error"] == "undo_forbidden", u.text
            forbidden += 1
    assert undone >= 5 and forbidden >= 1 and crossed
    log = api.http.get(f"/api/games/{gid}/log").json()
    assert log["version"] == log["steps"] + 2 * undone  # an undone decision stays in storage; versions never repeat
    # a game created without undo refuses it
    info2, tokens2 = api.new_game("red-rising", ("human", "human"), seed=2)
    s = api.state(info2["game_id"], tokens2[0])
    p = decider(s)
    me = api.state(info2["game_id"], tokens2[p])
    api.decide(info2["game_id"], tokens2[p], me["decision"]["options"][0], 0)
    r = api.undo(info2["game_id"], tokens2[p], 1)
    assert r.status_code == 409 and r.json()["error"] == "undo_disabled"
    assert api.undo(info2["game_id"], None, 1).status_code == 401
    assert (
        api.http.post(f"/api/games/{info2['game_id']}/undo", json={}, params={"token": tokens2[p]}).json()["error"]
        == "malformed"
    )


# ---------------------------------------------------------------------- log and replay
def test_log_and_replay(served):
    srv, api = served
    info, tokens = api.new_game("red-rising", ("human", "human", "bot"), seed=9)
    gid = info["game_id"]
    rng = random.Random(2)
    mine: dict[int, list] = {0: [], 1: []}
    for _ in range(25):
        s = api.state(gid)
        while decider(s) == 2:  # the bot's turn
            time.sleep(0.005)
            s = api.state(gid)
        p = decider(s)
        me = api.state(gid, tokens[p])
        a = rng.choice(me["decision"]["options"])
        r = api.decide(gid, tokens[p], a, me["version"]).json()
        mine[p].append((r["step"], a))
    spectator = api.http.get(f"/api/games/{gid}/log").json()
    n = spectator["steps"]
    assert n == spectator["version"] and len(spectator["log"]) == n
    assert all("action" not in e for e in spectator["log"])
    assert all(audience_ok(ev, None) for e in spectator["log"] for ev in e["events"])
    assert all(audience_ok(ev, None) for ev in spectator["setup"])
    for seat in (0, 1):
        lg = api.http.get(f"/api/games/{gid}/log", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
        own = [(e["step"], e["action"]) for e in lg["log"] if "action" in e]
        assert own == mine[seat]
        assert all(e["seat"] == seat for e in lg["log"] if "action" in e)
        assert all(audience_ok(ev, seat) for e in lg["log"] for ev in e["events"])
        assert any(ev.get("to") == [seat] for ev in lg["setup"])  # my starting hand
    # replay step by step: each step's view is the engine's view after that many decisions
    game = make_game("red-rising", 3)
    srv_actions = srv.call(lambda: list(srv.hub.games[gid].actions))  # the bot's included
    state = game.new_initial_state(9)
    for step in range(0, n + 1, 5):
        while len(state.history) < step:
            state.apply(srv_actions[len(state.history)])
        for seat, tok in ((None, None), (0, tokens[0])):
            r = api.http.get(
                f"/api/games/{gid}/replay/{step}", headers={"Authorization": f"Bearer {tok}"} if tok else {}
            )
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["view"] == state.view(seat) and body["steps"] == n and body["step"] == step
    r = api.http.get(f"/api/games/{gid}/replay/{n + 1}")
    assert r.status_code == 404 and r.json()["error"] == "unknown_step"
    assert api.http.get(f"/api/games/{gid}/replay/-1").status_code == 422
    assert api.http.get(f"/api/games/{gid}/log", headers={"Authorization": "Bearer nope"}).status_code == 403
    assert api.http.get("/api/games/nope/log").status_code == 404


def test_replay_shows_every_hand_only_once_the_game_is_over(served):
    """A replay step carries every seat's hand, and the log every private event, only when the
    game is over (its record is public then); before, the reader's own view and events only."""
    srv, api = served
    info, tokens = api.new_game("red-rising", ("human", "human"), seed=5)
    gid = info["game_id"]
    rng = random.Random(4)
    for _ in range(6):
        play_one(api, gid, tokens, rng)
    for tok, seat in ((None, None), (tokens[0], 0)):
        auth = {"Authorization": f"Bearer {tok}"} if tok else {}
        step = api.http.get(f"/api/games/{gid}/replay/3", headers=auth).json()
        assert step.get("hands") is None  # not over: no hand but the reader's own (in its view)
        lg = api.http.get(f"/api/games/{gid}/log", headers=auth).json()
        assert all(audience_ok(ev, seat) for e in lg["log"] for ev in [*e["events"], *lg["setup"]])
    while api.state(gid)["status"] != "finished":
        play_one(api, gid, tokens, rng)
    n = api.state(gid)["step"]
    game = make_game("red-rising", 2)
    actions = srv.call(lambda: list(srv.hub.games[gid].actions))
    state = game.new_initial_state(5)
    for step in (0, 3, n // 2, n):
        while len(state.history) < step:
            state.apply(actions[len(state.history)])
        body = api.http.get(f"/api/games/{gid}/replay/{step}").json()  # a spectator
        assert body["hands"] == [state.view(p)["players"][p]["hand"] for p in range(2)]
        assert body["view"] == state.view(None)  # the view itself stays the reader's
    lg = api.http.get(f"/api/games/{gid}/log").json()
    private = [ev for e in lg["log"] for ev in [*e["events"], *lg["setup"]] if ev.get("to")]
    assert {tuple(ev["to"]) for ev in private} >= {(0,), (1,)}  # both starting hands, to anybody


# ---------------------------------------------------------------------- memory and restarts
def test_idle_games_are_reloaded(served):
    srv, api = served
    info, tokens = api.new_game("red-north", ("human", "human"), seed=4)
    gid = info["game_id"]
    for _ in range(6):
        play_one(api, gid, tokens)
    before = views(api, gid, tokens)
    evicted = srv.call(lambda: srv.hub.evict_idle(time.monotonic() + 10**6))
    assert evicted >= 1
    assert srv.call(lambda: gid in srv.hub.games) is False
    unchanged(api, gid, tokens, before)  # loaded again from its seed and log
    play_one(api, gid, tokens)
    assert api.state(gid)["version"] == 7


def test_web_static_mount(tmp_path):
    from srvkit import ThreadServer

    from redtable.server.app import create_app

    (tmp_path / "index.html").write_text("<h1>redtable</h1>")
    srv = ThreadServer(create_app(f"sqlite:///{tmp_path}/g.db", web_dir=tmp_path)).start()
    api = Api(srv.base)
    assert "redtable" in api.http.get("/").text
    assert "redtable" in api.http.get("/join/abc").text
    assert api.http.get("/api/health").json()["ok"]
    api.close()
    srv.stop()
    srv = ThreadServer(create_app(f"sqlite:///{tmp_path}/g2.db", web_dir=tmp_path / "missing")).start()
    api = Api(srv.base)
    assert "join" in api.http.get("/join/abc").json()["message"]
    api.close()
    srv.stop()
