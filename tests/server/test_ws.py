"""Live play over WebSockets: full games of both titles with two clients, errors, spectators, undo."""

from __future__ import annotations

import random
import time

import orjson
import pytest
from srvkit import Client, audience_ok
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from redtable.core import GameRecord, replay


def play_full_game(srv, api, game: str, players: int, seed: int) -> tuple[list[Client], dict]:
    info, tokens = api.new_game(game, ["human"] * players, seed=seed)
    gid = info["game_id"]
    clients = [Client(srv, gid, t) for t in tokens]
    rng = random.Random(seed)
    version = 0
    while True:
        states = [c.until_version(version) for c in clients]
        assert all(s["version"] == version for s in states)
        if states[0]["status"] == "finished":
            break
        p = states[0]["decision"]["player"]
        d = states[p]["decision"]
        if d.get("auto"):  # a block window the server declines for this seat
            version += 1
            continue
        assert d["player"] == p and d["options"]
        for q, s in enumerate(states):
            if q != p:
                assert "options" not in s["decision"]
        action = rng.choice(d["options"])
        clients[p].send(type="decide", action=action, version=version, id=f"r{version}")
        version += 1
        up = clients[p].until_version(version)
        assert up["type"] == "update" and up["by"] == p and up["action"] == action and up["id"] == f"r{version - 1}"
    return clients, info


@pytest.mark.parametrize("game, players, seed", [("red-rising", 2, 1), ("red-north", 2, 2)])
def test_full_game_over_websockets(served, game, players, seed):
    srv, api = served
    clients, info = play_full_game(srv, api, game, players, seed)
    gid = info["game_id"]
    final = api.state(gid)
    assert final["status"] == "finished" and final["result"]["winners"]
    for seat, c in enumerate(clients):
        updates = [m for m in c.messages if m["type"] == "update"]
        # every decision reached every seat once, in order, with only what that seat may see
        assert [u["version"] for u in updates] == list(range(1, final["version"] + 1))
        assert all(audience_ok(e, seat) for u in updates for e in u["events"])
        assert updates[-1]["status"] == "finished" and updates[-1]["result"] == final["result"]
        assert updates[-1]["view"] == api.state(gid, api_token(api, info, seat))["view"]
        c.close()
    rec = replay(GameRecord.from_json(api.http.get(f"/api/games/{gid}/record").json()))
    assert rec.scores() == final["result"]["scores"]


def api_token(api, info, seat):
    return api.join(info["game_id"], info["seats"][seat]["invite"])


def test_websocket_errors(served):
    srv, api = served
    info, tokens = api.new_game("red-rising", ("human", "human"), seed=5)
    gid = info["game_id"]
    # unknown game, bad token: an error message, then the socket is closed
    for url, token, code, close in (
        (f"{srv.ws_base}/api/games/nope/ws", None, "unknown_game", 4004),
        (f"{srv.ws_base}/api/games/{gid}/ws", "forged", "bad_token", 4003),
        (f"{srv.ws_base}/api/games/{gid}/ws?token={tokens[0]}", None, "token_in_url", 4001),
    ):
        with connect(url, open_timeout=10) as ws:
            if "?" not in url:  # a token in the URL is refused before anything is read
                ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
            msg = orjson.loads(ws.recv(timeout=10))
            assert msg["type"] == "error" and msg["error"] == code
            with pytest.raises(ConnectionClosed) as exc:
                ws.recv(timeout=10)
            assert exc.value.rcvd.code == close
    a, b = (Client(srv, gid, t) for t in tokens)
    spec = Client(srv, gid, None)
    p = a.first["decision"]["player"]
    me, other = (a, b) if p == 0 else (b, a)
    options = me.first["decision"]["options"]

    def error(client, **msg):
        client.send(**msg)
        return client.recv_type("error")

    e = error(spec, type="decide", action=options[0], version=0, id=1)
    assert e["error"] == "spectator" and e["id"] == 1
    e = error(other, type="decide", action=options[0], version=0, id=2)
    assert e["error"] == "not_your_turn" and "legal" not in e and e["id"] == 2
    e = error(me, type="decide", action="nonsense", version=0, id=3)
    assert e["error"] == "illegal_action" and e["legal"] == options
    e = error(me, type="decide", action=options[0], version=7)
    assert e["error"] == "stale_version" and e["version"] == 0
    e = error(me, type="decide", version=0)
    assert e["error"] == "malformed" and e["legal"] == options
    e = error(me, type="decide", action=options[0], version="0")
    assert e["error"] == "malformed"
    e = error(me, type="dance")
    assert e["error"] == "unknown_type"
    me.ws.send("{not json")
    assert me.recv_type("error")["error"] == "malformed"
    me.ws.send("[1, 2]")
    assert me.recv_type("error")["error"] == "malformed"
    e = error(me, type="undo", version=0)
    assert e["error"] == "undo_disabled"
    me.send(type="ping", id="x")
    assert me.recv_type("pong")["id"] == "x"
    me.send(type="sync")
    snap = me.recv_type("state")
    assert snap["version"] == 0 and snap["view"] == me.first["view"]
    # nothing changed
    assert api.state(gid)["version"] == 0
    # a good decision reaches everybody, spectators included, each with its own view
    me.send(type="decide", action=options[0], version=0, id="ok")
    for c in (me, other, spec):
        up = c.until_version(1)
        assert up["type"] == "update" and up["by"] == p
    assert "action" in me.last and me.last["id"] == "ok"
    assert "action" not in other.last and "id" not in other.last and "action" not in spec.last
    assert all("hand" not in pl for pl in spec.last["view"]["players"])
    for c in (a, b, spec):
        c.close()


def test_presence_and_spectators(served):
    srv, api = served
    info, tokens = api.new_game("red-north", ("human", "human", "bot"), seed=3)
    gid = info["game_id"]
    a = Client(srv, gid, tokens[0])
    assert [s["connected"] for s in a.first["seats"]] == [True, False, True]
    assert [s["connected"] for s in a.recv_type("presence")["seats"]] == [True, False, True]  # my own arrival

    b = Client(srv, gid, tokens[1])
    pres = a.recv_type("presence")
    assert [s["connected"] for s in pres["seats"]] == [True, True, True] and pres["spectators"] == 0
    spec = Client(srv, gid, None)
    assert a.recv_type("presence")["spectators"] == 1
    spec.close()
    assert a.recv_type("presence")["spectators"] == 0
    b.close()
    assert [s["connected"] for s in a.recv_type("presence")["seats"]] == [True, False, True]
    a.close()


def test_undo_over_websockets(served):
    srv, api = served
    info, tokens = api.new_game("red-rising", ("human", "human"), seed=12, undo=True)
    gid = info["game_id"]
    clients = [Client(srv, gid, tokens[0]), Client(srv, gid, tokens[1])]
    rng = random.Random(3)
    version = 0
    for _ in range(300):  # play until a decision that the undo rule lets its seat take back
        states = [c.until_version(version) for c in clients]
        assert states[0]["status"] == "active"
        p = states[0]["decision"]["player"]
        me, other = clients[p], clients[1 - p]
        before_me, before_other = dict(me.last), dict(other.last)
        me.send(type="decide", action=rng.choice(states[p]["decision"]["options"]), version=version)
        version += 1
        up = me.until_version(version)
        assert other.until_version(version)["can_undo"] is False
        if up["can_undo"]:
            break
    else:
        pytest.fail("no undoable decision in 300")
    assert up["decision"]["player"] == p  # the turn stays with the decider
    other.send(type="undo", version=version)
    assert other.recv_type("error")["error"] == "not_your_decision"
    me.send(type="undo", version=version, id="u")
    for c in (me, other):
        snap = c.until_version(version + 1)
        assert snap["type"] == "state" and snap["reason"] == "undo" and snap["by"] == p
        assert snap["step"] == up["step"] - 1
    assert me.last["id"] == "u" and "id" not in other.last
    assert me.last["view"] == before_me["view"] and other.last["view"] == before_other["view"]
    for c in clients:
        c.close()


def test_bots_play_live(served):
    srv, api = served
    info, tokens = api.new_game("red-rising", ("human", "bot", "bot"), seed=17)
    gid = info["game_id"]
    c = Client(srv, gid, tokens[0])
    rng = random.Random(0)
    deadline = time.time() + 30
    while c.last["status"] != "finished":
        assert time.time() < deadline
        d = c.last["decision"]
        if d["player"] == 0 and "options" in d:
            v = c.last["version"]
            c.send(type="decide", action=rng.choice(d["options"]), version=v)
            c.until_version(v + 1)
        else:
            c.recv()
    versions = [m["version"] for m in c.messages if m["type"] == "update"]
    assert versions == list(range(c.first["version"] + 1, versions[-1] + 1))  # bots may move before we connect
    assert {m["by"] for m in c.messages if m["type"] == "update"} == {0, 1, 2}
    c.close()
