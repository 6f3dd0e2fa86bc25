"""Friends (``redtable/server/friends.py``, ``friends_api.py``) on SQLite and PostgreSQL.

Following lists a friend's open tables and live games and whether they are at a table; the
creator of a waiting table invites a followed player, who hears of it on an open socket and
in the list, and accepts (the seat, a token) or declines; invitations are the creator's only,
bounded and gone with their seat; a block keeps two players from inviting each other, from
sitting at each other's tables (by a click or an invite link) and from reading each other's
chat lines, and says nothing more to the blocked one than the refusal; quick play never seats
a blocked pair together; an invitation made through one server process reaches the invitee's
socket on another.
"""

from __future__ import annotations

import uuid

import httpx
import orjson
import pytest
from srvkit import Client
from tablekit import Account, bearer, until, wait_message

from redtable.server import friends as fr


@pytest.fixture(scope="module")
def people(tables):
    srv, _ = tables
    out = {k: Account(srv.base) for k in ("ann", "bo", "cy", "dee")}
    yield out
    for a in out.values():
        a.close()


def table_of(who: Account, seats: int = 3, **body) -> tuple[dict, str]:
    """A table ``who`` creates and sits at (seat 0, bound to the account): the answer and the seat's token."""
    r = who.http.post(
        "/api/games", json={"game": "red-north", "seats": [{"type": "human"} for _ in range(seats)], **body}
    )
    assert r.status_code == 201, r.text
    info = r.json()
    j = who.http.post(f"/api/games/{info['game_id']}/join", json={"invite": info["seats"][0]["invite"]})
    assert j.status_code == 200, j.text
    return info, j.json()["token"]


def invite(who: Account, info: dict, username: str, seat: int | None = None, key: str | None = "creator"):
    body = {"username": username} | ({"seat": seat} if seat is not None else {})
    headers = bearer(info["creator_key"] if key == "creator" else key)
    return who.http.post(f"/api/games/{info['game_id']}/friend-invites", json=body, headers=headers)


def follow(who: Account, other: Account) -> None:
    r = who.http.put(f"/api/friends/{other.name}")
    assert r.status_code == 200 and r.json()["following"], r.text


def test_follow_lists_open_tables_live_games_and_who_is_online(tables, people):
    srv, api = tables
    ann, bo = people["ann"], people["bo"]
    assert api.http.get("/api/friends").json()["error"] == "friends_login"  # a guest
    assert ann.http.put(f"/api/friends/{ann.name}").json()["error"] == "self"
    assert ann.http.put("/api/friends/nobody-" + uuid.uuid4().hex[:6]).json()["error"] == "unknown_player"
    assert ann.http.put("/api/friends/" + "x" * 300).status_code == 422
    assert ann.http.put("/api/friends/a%20b").status_code == 422
    follow(ann, bo)
    follow(ann, bo)  # (twice: still one follow)
    assert ann.http.get(f"/api/friends/{bo.name}").json() == {"username": bo.name, "following": True, "blocking": False}
    open_table, token = table_of(bo, 2, open=True)
    private, _ = table_of(bo, 2)
    live, live_token = table_of(bo, 2)
    j = ann.http.post(f"/api/games/{live['game_id']}/join", json={"invite": live["seats"][1]["invite"]})
    assert j.status_code == 200, j.text
    mine = ann.http.get("/api/friends").json()
    assert [f["username"] for f in mine["friends"]] == [bo.name]
    assert mine["friends"][0]["online"] is False and "seats" not in mine["friends"][0]
    assert [t["game_id"] for t in mine["tables"]] == [open_table["game_id"]]  # (not the private one)
    assert mine["tables"][0]["friends"] == [{"username": bo.name, "seat": 0}]
    assert mine["tables"][0]["seated"] == 1 and mine["tables"][0]["players"] == 2
    assert live["game_id"] in [g["game_id"] for g in mine["games"]]
    assert private["game_id"] not in [g["game_id"] for g in mine["tables"] + mine["games"]]
    # a socket of bo's seat is open: bo is online
    c = Client(srv, open_table["game_id"], token)
    try:
        until(lambda: ann.http.get("/api/friends").json()["friends"][0]["online"], what="bo online")
    finally:
        c.close()
    # the table's players who play as their account (the follow buttons' list); a guest asks nothing
    assert ann.http.get(f"/api/games/{live['game_id']}/accounts").json() == {
        "players": [{"seat": 0, "username": bo.name}, {"seat": 1, "username": ann.name}]
    }
    assert api.http.get(f"/api/games/{live['game_id']}/accounts").status_code == 401
    named = bo.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2}).json()
    j = bo.http.post(f"/api/games/{named['game_id']}/join", json={"invite": named["seats"][0]["invite"], "name": "Zed"})
    assert j.status_code == 200, j.text
    assert ann.http.get(f"/api/games/{named['game_id']}/accounts").json() == {"players": []}  # (plays as Zed)
    assert bo.http.get("/api/friends").json()["friends"] == []  # following is one-sided
    assert ann.http.delete(f"/api/friends/{bo.name}").json()["following"] is False
    assert ann.http.get("/api/friends").json() == {"friends": [], "tables": [], "games": [], "invites": []}
    # writes need the CSRF header
    r = ann.http.put(f"/api/friends/{bo.name}", headers={"X-CSRF-Token": "wrong"})
    assert r.status_code == 403, r.text


def test_invite_a_friend_who_hears_it_and_accepts_or_declines(tables, people):
    srv, api = tables
    ann, bo, cy = people["ann"], people["bo"], people["cy"]
    info, _ = table_of(ann, 3)
    gid = info["game_id"]
    assert invite(ann, info, bo.name).json()["error"] == "not_following"
    follow(ann, bo)
    follow(ann, cy)
    assert invite(ann, info, bo.name, key=None).json()["error"] == "not_creator"
    assert invite(bo, info, cy.name, key="nope").json()["error"] == "not_creator"
    assert invite(ann, info, bo.name, seat=0).json()["error"] == "seat_taken"
    assert invite(ann, info, bo.name, seat=7).json()["error"] == "seat_taken"
    assert api.http.post(f"/api/games/{gid}/friend-invites", json={"username": bo.name}).status_code == 401
    assert invite(ann, info, "x" * 25).status_code == 422
    # bo sits at another table with a socket open: the invitation arrives there at once
    other, other_token = table_of(bo, 2)
    sock = Client(srv, other["game_id"], other_token)
    try:
        r = invite(ann, info, bo.name)
        assert r.status_code == 201, r.text
        assert r.json()["seat"] == 1
        got = wait_message(sock, lambda m: m["type"] == "friend_invite")
        assert got["game_id"] == gid and got["from"] == ann.name and got["seat"] == 1
    finally:
        sock.close()
    mine = bo.http.get("/api/invitations").json()["invites"]
    assert [(i["game_id"], i["seat"], i["from"]) for i in mine] == [(gid, 1, ann.name)]
    assert bo.http.get("/api/friends").json()["invites"] == mine
    assert invite(ann, info, cy.name, seat=2).status_code == 201
    listed = ann.http.get(f"/api/games/{gid}/friend-invites", headers=bearer(info["creator_key"])).json()
    assert [(i["seat"], i["username"]) for i in listed["invites"]] == [(1, bo.name), (2, cy.name)]
    # cy cannot take bo's invitation; cy declines hers
    assert cy.http.post(f"/api/invitations/{mine[0]['invite_id']}/accept").json()["error"] == "unknown_invite"
    cys = cy.http.get("/api/invitations").json()["invites"]
    assert cy.http.post(f"/api/invitations/{cys[0]['invite_id']}/decline").status_code == 200
    assert cy.http.get("/api/invitations").json()["invites"] == []
    # bo accepts: the seat, a token of this device bound to the account
    a = bo.http.post(f"/api/invitations/{mine[0]['invite_id']}/accept")
    assert a.status_code == 200, a.text
    seat = a.json()
    assert seat["seat"] == 1 and seat["name"] == bo.name
    st = api.state(gid, seat["token"])
    assert st["seat"] == 1 and st["seats"][1]["joined"] and st["status"] == "waiting"
    assert bo.http.post(f"/api/invitations/{mine[0]['invite_id']}/accept").json()["error"] == "unknown_invite"
    assert invite(ann, info, bo.name, seat=2).json()["error"] == "friend_seated"
    # the last seat taken by its invite link: the table starts and waits for nobody
    api.join(gid, info["seats"][2]["invite"])
    assert invite(ann, info, cy.name).json()["error"] == "not_waiting"


def test_invitations_are_bounded_and_go_with_their_seat(tables, people):
    srv, api = tables
    ann, dee = people["ann"], people["dee"]
    follow(ann, dee)
    info, _ = table_of(ann, 2)
    assert invite(ann, info, dee.name).status_code == 201
    assert len(dee.http.get("/api/invitations").json()["invites"]) == 1
    # withdrawn by the creator
    gid = info["game_id"]
    r = ann.http.delete(f"/api/games/{gid}/friend-invites/1", headers=bearer(info["creator_key"]))
    assert r.json() == {"withdrawn": True}
    assert dee.http.get("/api/invitations").json()["invites"] == []
    # the seat taken by someone else: the invitation is gone
    assert invite(ann, info, dee.name).status_code == 201
    api.join(gid, info["seats"][1]["invite"])
    assert dee.http.get("/api/invitations").json()["invites"] == []
    # at most INVITES_PER_ACCOUNT waiting for one account
    old = fr.INVITES_PER_ACCOUNT
    srv.call(lambda: setattr(fr, "INVITES_PER_ACCOUNT", 2))
    try:
        made = [table_of(ann, 2)[0] for _ in range(3)]
        assert invite(ann, made[0], dee.name).status_code == 201
        assert invite(ann, made[1], dee.name).status_code == 201
        assert invite(ann, made[2], dee.name).json()["error"] == "invites_full"
        # one of them gone with its seat (taken by its link): it counts no more, unread as it is
        api.join(made[1]["game_id"], made[1]["seats"][1]["invite"])
        assert invite(ann, made[2], dee.name).status_code == 201
    finally:
        srv.call(lambda: setattr(fr, "INVITES_PER_ACCOUNT", old))
    # one invitation per seat: a new one replaces it
    follow(ann, people["cy"])
    assert invite(ann, made[0], people["cy"].name, seat=1).status_code == 201
    waiting = [i["game_id"] for i in dee.http.get("/api/invitations").json()["invites"]]
    assert waiting == [made[2]["game_id"]]


def test_a_block_keeps_two_players_apart_and_tells_no_more(tables, people):
    srv, api = tables
    # fresh accounts: blocks here must not touch the other tests' people
    eve, fay = Account(srv.base), Account(srv.base)
    try:
        follow(eve, fay)
        follow(fay, eve)
        r = fay.http.put(f"/api/blocks/{eve.name}")
        assert r.json() == {"username": eve.name, "following": False, "blocking": True}
        assert fay.http.get("/api/blocks").json()["blocks"][0]["username"] == eve.name
        # eve sees no block: her relation and her follow stand
        assert eve.http.get(f"/api/friends/{fay.name}").json() == {
            "username": fay.name,
            "following": True,
            "blocking": False,
        }
        assert eve.http.get("/api/blocks").json() == {"blocks": []}
        # no invitation either way
        info, _ = table_of(eve, 3, open=True)
        assert invite(eve, info, fay.name).json()["error"] == "blocked"
        # fay cannot sit at eve's table, by a click or with its invite link
        gid = info["game_id"]
        r = fay.http.post(f"/api/games/{gid}/sit", json={})
        assert r.status_code == 403 and r.json()["error"] == "blocked", r.text
        r = fay.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][2]["invite"]})
        assert r.status_code == 403 and r.json()["error"] == "blocked", r.text
        # nor eve at fay's (the blocker's) table: the same answer
        mine, _ = table_of(fay, 2, open=True)
        r = eve.http.post(f"/api/games/{mine['game_id']}/sit", json={})
        assert r.status_code == 403 and r.json() == {"error": "blocked", "message": "you cannot play with this player"}
        # a guest (or anyone else) still sits
        assert api.http.post(f"/api/games/{gid}/sit", json={}).status_code == 200
        # unblocked: fay sits
        assert fay.http.delete(f"/api/blocks/{eve.name}").json()["blocking"] is False
        assert fay.http.post(f"/api/games/{gid}/sit", json={}).status_code == 200
    finally:
        eve.close()
        fay.close()


def test_blocked_players_do_not_read_each_others_chat(tables):
    srv, api = tables
    gus, hal, ivy = Account(srv.base), Account(srv.base), Account(srv.base)
    socks = []
    try:
        info, t0 = table_of(gus, 3)
        gid = info["game_id"]
        toks = [t0]
        for who, s in ((hal, 1), (ivy, 2)):
            j = who.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][s]["invite"]})
            toks.append(j.json()["token"])
        assert hal.http.put(f"/api/blocks/{gus.name}").status_code == 200  # (after they sat down)
        socks = [Client(srv, gid, t) for t in toks]
        for c in socks:
            c.recv_type("chat_history")
        for i, c in enumerate(socks):
            c.send(type="chat", channel="players", text=f"from {i}", id=f"m{i}")
            got = wait_message(c, lambda m, i=i: m.get("id") == f"m{i}")
            assert got["type"] == "chat" and got["text"] == f"from {i}"
        wait_message(socks[2], lambda m: m["type"] == "chat" and m["text"] == "from 1")
        wait_message(socks[0], lambda m: m["type"] == "chat" and m["text"] == "from 2")
        wait_message(socks[1], lambda m: m["type"] == "chat" and m["text"] == "from 2")

        def heard(k: int) -> list[str]:
            r = api.http.get(f"/api/games/{gid}/chat", headers=bearer(toks[k]))
            return [m["text"] for m in r.json()["messages"]]

        assert heard(0) == ["from 0", "from 2"]  # gus reads nothing of hal
        assert heard(1) == ["from 1", "from 2"]  # nor hal of gus
        assert heard(2) == ["from 0", "from 1", "from 2"]
        assert api.http.get(f"/api/games/{gid}/chat", headers=bearer(toks[0])).json()["muted"] == []
        live = [[m["text"] for m in c.messages if m["type"] == "chat"] for c in socks]
        assert "from 1" not in live[0] and "from 0" not in live[1]
        assert sorted(live[2]) == ["from 0", "from 1", "from 2"]
    finally:
        for c in socks:
            c.close()
        for a in (gus, hal, ivy):
            a.close()


def test_quick_play_never_matches_a_blocked_pair(tables):
    srv, _ = tables
    jo, kim, lu = Account(srv.base), Account(srv.base), Account(srv.base)
    try:
        assert kim.http.put(f"/api/blocks/{jo.name}").status_code == 200
        body = {"game": "red-north", "players": 2, "speed": "turn"}
        first = jo.http.post("/api/quickplay", json=body).json()
        assert first["status"] == "waiting"
        second = kim.http.post("/api/quickplay", json=body).json()
        assert second["status"] == "waiting"  # (not with jo)
        third = lu.http.post("/api/quickplay", json=body).json()
        assert third["status"] == "matched"
        got = jo.http.get("/api/quickplay", headers=bearer(first["ticket"])).json()
        assert got["status"] == "matched" and got["game_id"] == third["game_id"]
        assert kim.http.get("/api/quickplay", headers=bearer(second["ticket"])).json()["status"] == "waiting"
        assert kim.http.delete("/api/quickplay", headers=bearer(second["ticket"])).status_code == 200
    finally:
        for a in (jo, kim, lu):
            a.close()


def test_an_invitation_made_through_one_process_reaches_a_socket_on_the_other(schema, tmp_path):
    """Two server processes on one PostgreSQL schema: Ann invites through A, Bo's table socket on B hears it."""
    from fleetkit import Proc
    from websockets.sync.client import connect

    a, b = (Proc(schema, tmp_path / f"server{i}.log").start() for i in range(2))
    ann, bo = Account(a.base), Account(a.base)
    try:
        follow(ann, bo)
        own, token = table_of(bo, 2)
        info, _ = table_of(ann, 2)
        with connect(f"{b.ws}/api/games/{own['game_id']}/ws", open_timeout=20) as ws:
            ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
            while orjson.loads(ws.recv(timeout=20))["type"] != "state":
                pass
            r = invite(ann, info, bo.name)
            assert r.status_code == 201, r.text
            while True:
                m = orjson.loads(ws.recv(timeout=20))
                if m["type"] == "friend_invite":
                    break
            assert m["game_id"] == own["game_id"]
        at_b = httpx.Client(base_url=b.base, timeout=20)
        s = at_b.post("/api/session", json={"username": bo.name, "password": "correct horse 42"})
        at_b.headers["X-CSRF-Token"] = s.json()["csrf"]
        mine = at_b.get("/api/invitations").json()["invites"]
        assert [(i["game_id"], i["from"]) for i in mine] == [(info["game_id"], ann.name)]
        got = at_b.post(f"/api/invitations/{mine[0]['invite_id']}/accept")
        assert got.status_code == 200 and got.json()["seat"] == 1, got.text
        at_b.close()
        until(lambda: httpx.get(f"{a.base}/api/games/{info['game_id']}").json()["status"] == "active", what="A sees it")
    finally:
        ann.close()
        bo.close()
        a.stop()
        b.stop()


def test_the_migration_makes_the_friends_tables_once(backend):
    """Migration 5 (``schema._friends``) makes the three tables on a database that lacks them, and
    changes nothing run again."""
    from sqlalchemy import inspect, text

    from redtable.server import schema as sch

    store = backend.store()
    migration = next(m for m in sch.MIGRATIONS if m.__name__ == "_friends")
    try:
        with store.engine.begin() as conn:
            for name in fr.TABLES:
                conn.execute(text(f"DROP TABLE {store.qualified(name)}"))
        for _ in range(2):
            with store.engine.begin() as conn:
                migration(store, conn)
        with store.engine.connect() as conn:
            assert set(fr.TABLES) <= set(inspect(conn).get_table_names(schema=store.schema))
        assert fr.follow(store, 1, 2) and not fr.follow(store, 1, 2)
        assert fr.relation(store, 1, 2) == {"following": True, "blocking": False}
    finally:
        store.dispose()
