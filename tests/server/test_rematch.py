"""Rematch (rematch.py): the same seats, a new deal, the seat order rotated so that the next
person starts; offered, accepted, declined and lapsed, on SQLite and PostgreSQL, by a seat's
token or the account sitting there, rated the same way, and across two server processes."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from srvkit import Api, Client
from tablekit import Account, bearer, play_random, table_server, until, wait_message

from redtable.core import make_game
from redtable.server.rematch import new_seat

NAMES = ["Ann", "Bo", None]


def first_of(game: str, players: int, seed: int, options: dict[str, Any]) -> int:
    """The seat a deal starts with, from the engine itself."""
    return make_game(game, players, **options).new_initial_state(seed).first


def finished(api: Api, game: str = "red-north", seed: int = 5) -> tuple[dict, list[str | None]]:
    """Ann and Bo (guests, each with an invite) and a bot played a game to its end."""
    info = api.create(game, ("human", "human", "bot:random"), seed=seed)
    seats = enumerate(info["seats"])
    tokens = [api.join(info["game_id"], s["invite"], NAMES[i]) if s["invite"] else None for i, s in seats]
    play_random(api, info["game_id"], tokens)
    return info, tokens


def rematch(http: httpx.Client, gid: str, token: str | None, **body: Any) -> httpx.Response:
    return http.post(f"/api/games/{gid}/rematch", json=body or None, headers=bearer(token))


@pytest.fixture
def srv(backend):
    s = table_server(backend, clock_scale=1.0, table_idle_seconds={"none": 600.0, "realtime": 600.0, "turn": 600.0})
    yield s
    s.stop()


@pytest.mark.parametrize("game", ["red-north", "red-rising"])
def test_a_rematch_is_offered_accepted_and_starts_with_the_next_person(srv, game):
    api = Api(srv.base)
    info, tokens = finished(api, game, seed=7)
    gid = info["game_id"]
    old = api.state(gid)
    assert old["status"] == "finished"
    ws_bo = Client(srv, gid, tokens[1])
    # Ann offers: the new table exists at once, Ann sits there (rotated: old seat 0 is new seat 2)
    r = rematch(api.http, gid, tokens[0])
    assert r.status_code == 200, r.text
    ann = r.json()
    new = ann["game_id"]
    assert ann["offered"] is True and ann["seat"] == new_seat(0, 3) == 2 and ann["ready"] is False
    assert ann["rematch"]["status"] == "open" and ann["rematch"]["by"] == 0 and ann["rematch"]["accepted"] == [0]
    assert ann["rematch"]["people"] == [0, 1]
    until(lambda: ann["rematch"]["until"] - ann["rematch"]["now"] > 590, what="a 10-minute offer")
    # Bo's open page is told, over its socket
    told = wait_message(ws_bo, lambda m: m["type"] == "rematch" and m["rematch"]["status"] == "open")
    assert told["rematch"]["game_id"] == new and told["rematch"]["by"] == 0
    # the new table waits for Bo: nobody decides, no bot moves
    waiting = api.state(new, ann["token"])
    assert waiting["decision"] is None and waiting["step"] == 0 and waiting["ready"] is False
    assert [s["name"] for s in waiting["seats"]] == ["Bo", None, "Ann"]
    assert [s["type"] for s in waiting["seats"]] == ["human", "bot", "human"]
    assert waiting["seats"][1]["bot"] == old["seats"][2]["bot"]  # the bot is kept
    assert waiting["options"] == old["options"] and waiting["undo"] == old["undo"]
    assert waiting["seed_chosen_by_creator"] is False
    got = api.http.get(f"/api/games/{gid}/rematch").json()
    assert got["rematch"]["accepted"] == [0] and got["rematch"]["status"] == "open"
    # Bo accepts: the same new table; it starts
    r = rematch(api.http, gid, tokens[1])
    assert r.status_code == 200, r.text
    bo = r.json()
    assert bo["game_id"] == new and bo["offered"] is False and bo["seat"] == 0 and bo["ready"] is True
    assert bo["rematch"]["status"] == "started" and bo["rematch"]["accepted"] == [0, 1]
    wait_message(ws_bo, lambda m: m["type"] == "rematch" and m["rematch"]["status"] == "started")
    # the first player rotated: the new deal starts with the seat the old one did, now the next person's
    f = first_of(game, 3, 7, old["options"])
    started = api.state(new, bo["token"])
    assert started["view"]["first_player"] == f
    assert started["seats"][f]["name"] == old["seats"][(f + 1) % 3]["name"]
    assert started["decision"] is not None
    # asking again (a second device of Ann's): the same table, one more token for her seat
    again = rematch(api.http, gid, tokens[0]).json()
    assert again["game_id"] == new and again["seat"] == 2 and again["token"] != ann["token"]
    assert api.state(new, again["token"])["seat"] == 2
    # the new game plays to its end with the new tokens
    tk: list[str | None] = [None, None, None]
    tk[bo["seat"]], tk[ann["seat"]] = bo["token"], ann["token"]
    assert play_random(api, new, tk)["status"] == "finished"
    ws_bo.close()
    api.close()


def test_refusals_decline_and_a_new_offer(srv):
    api = Api(srv.base)
    info = api.create("red-north", ("human", "human"))
    gid = info["game_id"]
    tokens = [api.join(gid, s["invite"]) for s in info["seats"]]
    r = rematch(api.http, gid, tokens[0])
    assert r.status_code == 409 and r.json()["error"] == "not_finished"
    play_random(api, gid, tokens)
    assert rematch(api.http, gid, None).json()["error"] == "missing_token"
    r = rematch(api.http, gid, "not-a-token")
    assert r.status_code == 403 and r.json()["error"] == "bad_token"
    r = rematch(api.http, gid, tokens[0], decline="yes")
    assert r.status_code == 422 and r.json()["error"] == "malformed"
    r = rematch(api.http, gid, tokens[1], decline=True)
    assert r.status_code == 409 and r.json()["error"] == "no_rematch_offer"
    assert api.http.get("/api/games/nope0000/rematch").status_code == 404
    assert api.http.get(f"/api/games/{gid}/rematch").json() == {"game_id": gid, "rematch": None}
    ws_a = Client(srv, gid, tokens[0])
    first = rematch(api.http, gid, tokens[0]).json()
    r = rematch(api.http, gid, tokens[1], decline=True)
    assert r.status_code == 200, r.text
    assert r.json()["rematch"]["status"] == "declined" and r.json()["rematch"]["declined_by"] == 1
    told = wait_message(ws_a, lambda m: m["type"] == "rematch" and m["rematch"]["status"] == "declined")
    assert told["rematch"]["declined_by"] == 1
    closed = api.state(first["game_id"])
    assert closed["status"] == "abandoned" and closed["closed"]["reason"] == "rematch_declined"
    assert closed["closed"]["seat"] == new_seat(1, 2) == 0  # Bo, at the new table
    r = rematch(api.http, gid, tokens[0], decline=True)
    assert r.status_code == 409 and r.json()["error"] == "rematch_over"
    # a declined offer may be made again: another new table
    second = rematch(api.http, gid, tokens[1]).json()
    assert second["offered"] is True and second["game_id"] != first["game_id"]
    ws_a.close()
    api.close()


def test_an_offer_lapses_and_everyone_is_told(srv):
    srv.hub.rematch.seconds = 1.0
    api = Api(srv.base)
    info = api.create("red-north", ("human", "human"))
    gid = info["game_id"]
    tokens = [api.join(gid, s["invite"]) for s in info["seats"]]
    play_random(api, gid, tokens)
    ws = [Client(srv, gid, t) for t in tokens]
    offer = rematch(api.http, gid, tokens[0]).json()
    ws_new = Client(srv, offer["game_id"], offer["token"])
    for c in ws:
        wait_message(c, lambda m: m["type"] == "rematch" and m["rematch"]["status"] == "lapsed", timeout=15)
    wait_message(ws_new, lambda m: m["type"] == "notice" and m["code"] == "rematch_lapsed", timeout=15)
    st = api.state(offer["game_id"])
    assert st["status"] == "abandoned" and st["closed"]["reason"] == "rematch_lapsed"
    r = rematch(api.http, gid, tokens[1], decline=True)
    assert r.status_code == 409 and r.json()["error"] == "rematch_over"
    for c in [*ws, ws_new]:
        c.close()
    api.close()


CLOCK = {"kind": "realtime", "bank_s": 3600, "increment_s": 0}


def test_a_rated_game_is_rematched_rated_by_the_accounts(srv):
    """Accounts ask with their session (no token); the new table is rated with the same clock."""
    a, b = Account(srv.base), Account(srv.base)
    body = {
        "game": "red-north",
        "seats": [{"type": "human"}, {"type": "bot", "bot": "heuristic"}, {"type": "human"}],
        "rated": True,
        "clock": CLOCK,
    }
    g = a.http.post("/api/games", json=body).json()
    gid = g["game_id"]
    t0 = a.http.post(f"/api/games/{gid}/join", json={"invite": g["seats"][0]["invite"]}).json()["token"]
    t2 = b.http.post(f"/api/games/{gid}/join", json={"invite": g["seats"][2]["invite"]}).json()["token"]
    api = Api(srv.base)
    play_random(api, gid, [t0, None, t2])
    guest = rematch(api.http, gid, None)  # nobody's session: refused
    assert guest.status_code == 401 and guest.json()["error"] == "missing_token"
    ra = a.http.post(f"/api/games/{gid}/rematch")
    assert ra.status_code == 200, ra.text
    new = ra.json()["game_id"]
    rb = b.http.post(f"/api/games/{gid}/rematch")
    assert rb.status_code == 200 and rb.json()["game_id"] == new and rb.json()["ready"] is True
    st = api.state(new)
    assert st["rated"] is True and st["clock"]["kind"] == "realtime" and st["clock"]["bank_s"] == 3600
    names = {a.name, b.name}
    assert {s["name"] for s in st["seats"] if s["type"] == "human"} == names
    mine = a.http.get("/api/my/games").json()
    assert new in {x["game_id"] for x in mine}  # the account's seat there
    a.close()
    b.close()
    api.close()


def test_alone_against_a_bot_the_rematch_starts_at_once(srv):
    api = Api(srv.base)
    info = api.create("red-north", ("human", "bot"))
    tokens = [api.join(info["game_id"], info["seats"][0]["invite"]), None]
    play_random(api, info["game_id"], tokens)
    r = rematch(api.http, info["game_id"], tokens[0])  # alone against a bot: it starts at once
    assert r.status_code == 200 and r.json()["ready"] is True and r.json()["rematch"]["status"] == "started"
    api.close()


# ---------------------------------------------------------------------- two processes
def test_a_rematch_across_two_processes(schema, tmp_path, monkeypatch):
    """Ann on one process offers; Bo, connected to the other, is told and accepts; another
    offer lapses there and both are told."""
    from fleetkit import Proc, redis_problem

    monkeypatch.setenv("REDTABLE_REMATCH_SECONDS", "4")
    bus = None if redis_problem() else "redis://127.0.0.1:6379/0"
    procs = [Proc(schema, tmp_path / f"server{i}.log", bus=bus).start() for i in range(2)]
    try:
        apis = [Api(p.base) for p in procs]
        info = apis[0].create("red-north", ("human", "human"))
        gid = info["game_id"]
        tokens = [apis[0].join(gid, s["invite"]) for s in info["seats"]]
        play_random(apis[0], gid, tokens)

        class P:  # (srvkit.Client reads ws_base)
            def __init__(self, p: Proc) -> None:
                self.ws_base = p.ws

        bo = Client(P(procs[1]), gid, tokens[1])
        offer = rematch(apis[0].http, gid, tokens[0]).json()
        told = wait_message(bo, lambda m: m["type"] == "rematch" and m["rematch"]["status"] == "open", timeout=15)
        assert told["rematch"]["game_id"] == offer["game_id"]
        acc = rematch(apis[1].http, gid, tokens[1])
        assert acc.status_code == 200, acc.text
        assert acc.json()["game_id"] == offer["game_id"] and acc.json()["ready"] is True
        wait_message(bo, lambda m: m["type"] == "rematch" and m["rematch"]["status"] == "started", timeout=15)
        until(lambda: apis[0].state(offer["game_id"])["ready"], what="the new table to start on A too")
        # the new game's seats play on B with the tokens A made
        new = offer["game_id"]
        tk = [acc.json()["token"], offer["token"]]
        assert [apis[1].state(new, t)["seat"] for t in tk] == [0, 1]
        # the next game's offer, made on B, lapses; A's seat is told
        play_random(apis[1], new, tk)
        ann = Client(P(procs[0]), new, tk[1])
        second = rematch(apis[1].http, new, tk[0]).json()
        wait_message(ann, lambda m: m["type"] == "rematch" and m["rematch"]["status"] == "lapsed", timeout=20)
        assert apis[0].state(second["game_id"])["closed"]["reason"] == "rematch_lapsed"
        for c in (bo, ann):
            c.close()
        for api in apis:
            api.close()
    finally:
        for p in procs:
            p.stop()
