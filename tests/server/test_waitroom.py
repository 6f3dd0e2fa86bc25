"""Invites that wait for friends (``tables.py``, ``quickplay.py``): a game with seats for people
starts only when every one is taken: until then its status is ``waiting``, nobody decides, no
bot moves and no clock runs; its creator re-issues an invite (the old link dies), puts a bot in
a seat nobody took, or starts with bots in all of them; the join page reads who invited you.
Quick play alone: bots for the empty seats once the wait is long, or the count of who came.
On SQLite and PostgreSQL, and on two processes (a guest joining through the other starts it)."""

from __future__ import annotations

import time

import httpx
import pytest
from fleetkit import Proc
from srvkit import Api, Client
from tablekit import bearer, until, wait_message


def make(api: Api, game: str, seats: list[dict], **body) -> dict:
    if game == "red-rising":
        body["options"] = {"block_windows": False, **body.get("options", {})}
    r = api.http.post("/api/games", json={"game": game, "seats": seats, **body})
    assert r.status_code == 201, r.text
    return r.json()


H = {"type": "human"}


def bot(preset: str = "random") -> dict:
    return {"type": "bot", "bot": preset}


def fill(api: Api, gid: str, key: str, **body) -> httpx.Response:
    return api.http.post(f"/api/games/{gid}/fill-bots", json=body, headers=bearer(key))


def reissue(api: Api, gid: str, seat: int, key: str | None) -> httpx.Response:
    return api.http.post(f"/api/games/{gid}/seats/{seat}/invite", headers=bearer(key))


# ---------------------------------------------------------------------- waiting
def test_an_invite_game_waits_for_every_person_then_starts(tables):
    srv, api = tables
    # the bot moves first: it would have played at once before invites waited for friends
    info = make(api, "red-north", [bot(), {"type": "human", "name": "Ann"}, H])
    gid = info["game_id"]
    assert info["status"] == "waiting" and info["host"] == {"seat": 1, "name": "Ann"}
    ann = api.join(gid, info["seats"][1]["invite"])
    ws = Client(srv, gid, ann)
    assert ws.first["status"] == "waiting" and ws.first["ready"] is False and ws.first["decision"] is None
    time.sleep(0.4)
    st = api.state(gid, ann)
    assert (st["status"], st["step"], st["decision"], st["seated"]) == ("waiting", 0, None, 2)
    r = api.decide(gid, ann, "jarl", st["version"])
    assert r.status_code == 409 and r.json()["error"] == "table_not_full" and r.json()["seated"] == 2
    # the join page's facts, read without a token: who invites, the game, its options, who sits
    pub = api.state(gid)
    assert pub["host"] == {"seat": 1, "name": "Ann"} and pub["title"] and pub["players"] == 3
    assert [s["joined"] for s in pub["seats"]] == [True, True, False] and pub["seats"][1]["name"] == "Ann"
    assert "invite" not in str(pub)
    # the guest comes: the table hears it live, the game starts and the bot plays
    bo = api.join(gid, info["seats"][2]["invite"], "Bo")
    wait_message(ws, lambda m: m["type"] == "presence" and all(s["joined"] for s in m["seats"]))
    wait_message(ws, lambda m: m.get("status") == "active" and m.get("ready") is True)
    until(lambda: api.state(gid)["step"] >= 1, what="the bot's first move once everyone came")
    assert api.state(gid, bo)["status"] == "active"
    ws.close()


def test_no_clock_runs_while_waiting_and_a_lone_player_starts_at_once(tables):
    srv, api = tables
    info = make(api, "red-north", [H, H], clock={"kind": "realtime", "bank_s": 60, "increment_s": 0})
    gid = info["game_id"]
    t0 = api.join(gid, info["seats"][0]["invite"])
    time.sleep(0.3)
    st = api.state(gid, t0)
    assert st["status"] == "waiting" and st["clock"]["running"] is None and st["clock"]["remaining"] == [0.6, 0.6]
    # one person against bots: their own join starts it (a lesson, a practice game)
    solo = make(api, "red-rising", [H, bot(), bot()])
    assert solo["status"] == "waiting"
    tok = api.join(solo["game_id"], solo["seats"][0]["invite"])
    assert api.state(solo["game_id"], tok)["status"] == "active"
    # a game of bots only plays by itself
    bots = make(api, "red-north", [bot(), bot()])
    assert bots["status"] == "active" and bots["host"] is None


def test_the_creator_reissues_a_link_replaces_a_seat_by_a_bot_and_the_last_person_starts_it(tables):
    srv, api = tables
    info = make(api, "red-rising", [{"type": "human", "name": "Ann"}, H, H, H])
    gid, key = info["game_id"], info["creator_key"]
    ann = api.join(gid, info["seats"][0]["invite"])
    # re-issue: only the creator; the old link stops working, the new one works
    assert reissue(api, gid, 1, ann).status_code == 403 and reissue(api, gid, 1, ann).json()["error"] == "not_creator"
    r = reissue(api, gid, 1, key)
    assert r.status_code == 200, r.text
    fresh = r.json()
    assert fresh["seat"] == 1 and fresh["invite_url"] == f"/join/{gid}#{fresh['invite']}"
    old = api.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][1]["invite"]})
    assert old.status_code == 403 and old.json()["error"] == "bad_invite"
    assert reissue(api, gid, 0, key).json()["error"] == "seat_taken"  # (Ann sits there)
    # replace an absent seat by a bot: the table still waits for seat 1
    r = fill(api, gid, ann, seats=[3])
    assert r.status_code == 403 and r.json()["error"] == "not_creator"
    r = fill(api, gid, key, seats=[3], bot="heuristic")
    assert r.status_code == 200 and r.json()["seats"] == [3] and r.json()["ready"] is False, r.text
    st = api.state(gid, ann)
    assert st["status"] == "waiting" and st["seats"][3]["type"] == "bot" and st["seats"][3]["bot"] == "heuristic"
    r = api.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][3]["invite"]})
    assert r.status_code == 403 and r.json()["error"] == "bad_invite"  # a bot's seat has no invite any more
    # bad input changes nothing
    bad = (({"seats": [9]}, "unknown_seat"), ({"seats": [3]}, "bot_seat"), ({"bot": "nope"}, "invalid_bot"))
    for body, code in bad:
        r = fill(api, gid, key, **body)
        assert r.json()["error"] == code, r.text
    r = fill(api, gid, key, seats="2")
    assert r.status_code == 422
    assert api.state(gid)["seats"][2]["type"] == "human" and api.state(gid)["status"] == "waiting"
    # the others come (seat 1 by the new link): the game starts
    api.join(gid, fresh["invite"], "Bo")
    assert api.state(gid)["status"] == "waiting"
    api.join(gid, info["seats"][2]["invite"], "Cy")
    st = api.state(gid, ann)
    assert st["status"] == "active" and st["ready"] is True and st["decision"] is not None


def test_start_with_bots_in_every_empty_seat(tables):
    srv, api = tables
    info = make(api, "red-north", [H, H, H])
    gid, key = info["game_id"], info["creator_key"]
    t0 = api.join(gid, info["seats"][0]["invite"])
    ws = Client(srv, gid, t0)
    r = fill(api, gid, key)
    assert r.status_code == 200 and r.json()["seats"] == [1, 2] and r.json()["ready"] is True
    wait_message(ws, lambda m: m.get("status") == "active" and m.get("ready") is True)
    st = api.state(gid, t0)
    assert [s["type"] for s in st["seats"]] == ["human", "bot", "bot"] and st["status"] == "active"
    r = fill(api, gid, key)
    assert r.status_code == 409 and r.json()["error"] == "no_free_seats"
    ws.close()


# ---------------------------------------------------------------------- quick play alone
def qp(api: Api, body: dict, name: str | None = None) -> dict:
    r = api.http.post("/api/quickplay", json={**body, "name": name})
    assert r.status_code == 201, r.text
    return r.json()


def poll(api: Api, ticket: str) -> dict:
    r = api.http.get("/api/quickplay", headers=bearer(ticket))
    assert r.status_code == 200, r.text
    return r.json()


def take_bots(api: Api, ticket: str | None, **body) -> httpx.Response:
    return api.http.post("/api/quickplay/bots", json=body, headers=bearer(ticket))


@pytest.fixture
def quick(tables):
    """The table server with quick play's offer of bots after 1 s (the default is 20 s)."""
    srv, api = tables
    quick = srv.hub.tables.quick
    assert quick.bots_after == 20.0
    quick.bots_after = 1.0
    yield srv, api
    quick.bots_after = 20.0


def test_quickplay_offers_bots_after_the_wait_and_plays_at_once(quick):
    srv, api = quick
    body = {"game": "red-north", "players": 3, "speed": "turn"}
    ann = qp(api, body, "Ann")
    assert ann["status"] == "waiting" and ann["bots_after"] == 1.0 and ann["bots"] == (ann["waited"] >= 1.0)
    got = until(lambda: (p := poll(api, ann["ticket"]))["bots"] and p, what="the offer of bots")
    assert got["status"] == "waiting" and got["waited"] >= 1.0
    # refusals change nothing: a bot that does not exist, no ticket, a ticket not in the queue
    r = take_bots(api, ann["ticket"], bot="nope")
    assert r.status_code == 422 and r.json()["error"] == "invalid_bot"
    assert poll(api, ann["ticket"])["status"] == "waiting"
    assert take_bots(api, None).json()["error"] == "missing_ticket"
    assert take_bots(api, "not-a-ticket").json()["error"] == "unknown_ticket"
    r = take_bots(api, ann["ticket"], bot=7)
    assert r.status_code == 422
    r = take_bots(api, ann["ticket"])
    assert r.status_code == 200, r.text
    m = r.json()
    assert m["status"] == "matched" and m["token"] == ann["ticket"] and 0 <= m["seat"] < 3
    st = api.state(m["game_id"], m["token"])
    assert st["status"] == "active" and st["seat"] == m["seat"] and st["speed"] == "turn"
    assert [s["type"] for s in st["seats"]].count("bot") == 2 and st["seats"][m["seat"]]["name"] == "Ann"
    assert {s["bot"] for s in st["seats"] if s["type"] == "bot"} == {"heuristic"}
    assert poll(api, ann["ticket"])["status"] == "matched"  # (a later poll answers the same table)
    assert take_bots(api, ann["ticket"]).json()["game_id"] == m["game_id"]  # (asked twice: the same table)


def test_quickplay_keep_waiting_and_hear_who_comes(quick):
    srv, api = quick
    body = {"game": "red-rising", "players": 3, "speed": "turn"}
    ann = qp(api, body, "Ann")
    until(lambda: poll(api, ann["ticket"])["bots"], what="the offer of bots")
    bo = qp(api, body, "Bo")  # Ann kept waiting: her poll counts who came
    assert bo["status"] == "waiting" and bo["bots"] == (bo["waited"] >= 1.0)
    assert poll(api, ann["ticket"])["waiting"] == 2
    # Bo takes bots on his own: Ann is not pulled into his table, she waits on
    r = take_bots(api, bo["ticket"])
    assert r.status_code == 200 and r.json()["status"] == "matched"
    st = api.state(r.json()["game_id"])
    assert [s["type"] for s in st["seats"]].count("human") == 1
    assert poll(api, ann["ticket"])["status"] == "waiting" and poll(api, ann["ticket"])["waiting"] == 1
    cy, di = qp(api, body, "Cy"), qp(api, body, "Di")
    assert di["status"] == "matched" and poll(api, ann["ticket"])["game_id"] == di["game_id"]
    assert poll(api, cy["ticket"])["status"] == "matched"


# ---------------------------------------------------------------------- two processes
@pytest.fixture
def pair(schema, tmp_path):
    procs = [Proc(schema, tmp_path / f"server{i}.log").start() for i in range(2)]
    yield procs
    for p in procs:
        p.stop()


class _Ws:
    def __init__(self, proc: Proc) -> None:
        self.ws_base = proc.ws


def test_a_guest_joining_through_the_other_process_starts_the_game(pair):
    a, b = pair
    with httpx.Client(base_url=a.base, timeout=20) as ha, httpx.Client(base_url=b.base, timeout=20) as hb:
        r = ha.post(
            "/api/games",
            json={"game": "red-north", "seats": [bot(), {"type": "human", "name": "Ann"}, H, H]},
        )
        assert r.status_code == 201, r.text
        info = r.json()
        gid, key = info["game_id"], info["creator_key"]
        ann = ha.post(f"/api/games/{gid}/join", json={"invite": info["seats"][1]["invite"]}).json()["token"]
        ws = Client(_Ws(a), gid, ann)
        assert ws.first["status"] == "waiting"
        # the creator re-issues seat 2's link on A: the old one is refused on B too
        fresh = ha.post(f"/api/games/{gid}/seats/2/invite", headers=bearer(key)).json()["invite"]
        time.sleep(0.3)
        r = hb.post(f"/api/games/{gid}/join", json={"invite": info["seats"][2]["invite"]})
        assert r.status_code == 403 and r.json()["error"] == "bad_invite"
        # a bot in seat 3 through B, the guest joins seat 2 through B: A's table starts and its bot plays
        r = hb.post(f"/api/games/{gid}/fill-bots", json={"seats": [3]}, headers=bearer(key))
        assert r.status_code == 200 and r.json()["ready"] is False, r.text
        wait_message(ws, lambda m: m["type"] == "state" and m["seats"][3]["type"] == "bot", timeout=20)
        assert ha.get(f"/api/games/{gid}").json()["status"] == "waiting"
        r = hb.post(f"/api/games/{gid}/join", json={"invite": fresh, "name": "Bo"})
        assert r.status_code == 200, r.text
        wait_message(ws, lambda m: m.get("status") == "active" and m.get("ready") is True, timeout=20)
        for h in (ha, hb):
            until(lambda h=h: h.get(f"/api/games/{gid}").json()["step"] >= 1, what="the bot's move, seen on both")
            assert h.get(f"/api/games/{gid}").json()["status"] == "active"
        ws.close()
