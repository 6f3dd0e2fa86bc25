"""Finding a game (``tables.py``, ``quickplay.py``, ``tableapi.py``): open tables joined in one
click and started when full, the creator's bots, the quick-play queue, "my games"; every
endpoint and its refusals, on SQLite and PostgreSQL."""

from __future__ import annotations

import time

import httpx
import pytest
from srvkit import Api, Client
from tablekit import Account, accounts_available, address, bearer, create, until, wait_message


def open_table(api: Api, seats=("human", "human", "human"), **body) -> tuple[dict, str]:
    """An open Red North table whose creator took seat 0: (creation answer, the creator's token)."""
    info = create(api, "red-north", seats, open=True, **body)
    return info, api.join(info["game_id"], info["seats"][0]["invite"], "Ann")


def sit(
    api: Api, gid: str, name: str | None = None, token: str | None = None, frm: dict | None = None
) -> httpx.Response:
    """Sit as a guest; from a new address unless ``frm`` (headers of :func:`address`) says which."""
    return api.http.post(f"/api/games/{gid}/sit", json={"name": name}, headers={**bearer(token), **(frm or address())})


def listed(api: Api) -> dict[str, dict]:
    r = api.http.get("/api/tables")
    assert r.status_code == 200
    return {t["game_id"]: t for t in r.json()}


# ---------------------------------------------------------------------- open tables
def test_open_table_is_listed_joined_in_one_click_and_starts_when_full(tables):
    srv, api = tables
    info, t0 = open_table(api, clock={"kind": "turn", "per_decision_h": 24})
    gid = info["game_id"]
    assert info["open"] is True and info["speed"] == "turn"
    row = listed(api)[gid]
    assert (row["game"], row["players"], row["seated"], row["rated"], row["speed"]) == (
        "red-north",
        3,
        1,
        False,
        "turn",
    )
    assert row["clock"] == {"kind": "turn", "per_decision_h": 24}
    st = api.state(gid, t0)
    assert st["ready"] is False and st["decision"] is None and st["seated"] == 1
    ws = Client(srv, gid, t0)
    r = sit(api, gid, "Bo")
    assert r.status_code == 200, r.text
    bo = r.json()
    assert bo["seat"] == 1 and bo["name"] == "Bo" and bo["ready"] is False and bo["token"]
    assert listed(api)[gid]["seated"] == 2
    r = sit(api, gid, None)
    assert r.status_code == 200 and r.json()["seat"] == 2 and r.json()["ready"] is True
    cy = r.json()["token"]
    assert gid not in listed(api)  # full: no longer in the lobby
    st = api.state(gid, cy)
    assert st["ready"] is True and st["decision"] is not None and st["seats"][2]["joined"] is True
    assert st["clock"]["running"] == st["decision"]["player"]
    wait_message(ws, lambda m: m["type"] == "state" and m.get("ready") is True)  # the table told its start
    ws.close()
    # the creator's invites of the seats strangers took no longer work
    r = api.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][1]["invite"]})
    assert r.status_code == 403 and r.json()["error"] == "bad_invite"


def test_nobody_decides_and_no_bot_moves_before_the_table_is_full(tables):
    srv, api = tables
    info = create(api, "red-north", ("bot:random", "human", "human"), open=True)  # the bot moves first
    gid = info["game_id"]
    t1 = api.join(gid, info["seats"][1]["invite"])
    time.sleep(0.3)
    st = api.state(gid, t1)
    assert st["step"] == 0 and st["decision"] is None and st["ready"] is False
    r = api.decide(gid, t1, "jarl", st["version"])
    assert r.status_code == 409 and r.json()["error"] == "table_not_full"
    assert r.json()["seated"] == 2 and r.json()["players"] == 3
    assert sit(api, gid, "Cy").status_code == 200
    until(lambda: api.state(gid)["step"] >= 1, what="the bot's first move once the table is full")


def test_sit_refusals(tables):
    srv, api = tables
    info, t0 = open_table(api, seats=("human", "human"))
    gid = info["game_id"]
    r = sit(api, gid, "Ann again", token=t0)  # this browser holds a seat already
    assert r.status_code == 409 and r.json()["error"] == "already_seated" and r.json()["seat"] == 0
    r = sit(api, gid, "bot")
    assert r.status_code == 422 and r.json()["error"] == "bad_name"
    r = api.http.post(f"/api/games/{gid}/sit", json={"name": 7})
    assert r.status_code == 422 and r.json()["error"] == "malformed"
    r = api.http.post(f"/api/games/{gid}/sit", json={"name": "Bo", "seat": 1})
    assert r.status_code == 422 and r.json()["error"] == "malformed"
    assert sit(api, gid, "Bo").status_code == 200
    r = sit(api, gid, "Cy")
    assert r.status_code == 409 and r.json()["error"] == "table_full"
    r = sit(api, "nosuchgame", "Cy")
    assert r.status_code == 404 and r.json()["error"] == "unknown_game"
    plain = create(api, "red-north", ("human", "human"))
    r = sit(api, plain["game_id"], "Cy")
    assert r.status_code == 409 and r.json()["error"] == "not_open"
    r = api.http.post(f"/api/games/{gid}/sit?token=abc", json={"name": "Cy"})
    assert r.status_code == 400 and r.json()["error"] == "token_in_url"


def test_rated_open_table_seats_are_for_accounts(tables):
    srv, api = tables
    if not accounts_available(srv.base):
        pytest.skip("accounts (accounts.py) are not installed yet")
    ann, bo = Account(srv.base), Account(srv.base)
    try:
        r = ann.http.post(
            "/api/games",
            json={
                "game": "red-north",
                "seats": [{"type": "human"}, {"type": "human"}],
                "rated": True,
                "open": True,
                "clock": {"kind": "turn"},
            },
        )
        assert r.status_code == 201, r.text
        info = r.json()
        gid = info["game_id"]
        assert ann.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][0]["invite"]}).status_code == 200
        assert listed(api)[gid]["rated"] is True
        r = sit(api, gid, "Guest")
        assert r.status_code == 401 and r.json()["error"] == "login_required"
        r = ann.http.post(f"/api/games/{gid}/sit", json={})  # the same account, a second seat
        assert r.status_code == 409 and r.json()["error"] == "already_seated"
        r = bo.http.post(f"/api/games/{gid}/sit", json={}, headers={"X-CSRF-Token": "forged"})
        assert r.status_code == 403 and r.json()["error"] == "csrf_failed"
        r = bo.http.post(f"/api/games/{gid}/sit", json={})
        assert r.status_code == 200, r.text
        assert r.json()["name"] == bo.name and r.json()["ready"] is False  # (each confirms first: readycheck.py)
        assert api.state(gid)["unrated"] is None  # (two networks, two devices: rated)
        mine = bo.http.get("/api/my/games").json()
        assert [g["game_id"] for g in mine] == [gid] and mine[0]["seat"] == 1 and mine[0]["rated"] is True
    finally:
        ann.close()
        bo.close()


def rated_open(api: Api, creator: Account) -> tuple[str, str]:
    r = creator.http.post(
        "/api/games",
        json={
            "game": "red-north",
            "seats": [{"type": "human"}] * 2,
            "rated": True,
            "open": True,
            "clock": {"kind": "turn"},
        },
    )
    assert r.status_code == 201, r.text
    info = r.json()
    j = creator.http.post(f"/api/games/{info['game_id']}/join", json={"invite": info["seats"][0]["invite"]})
    assert j.status_code == 200, j.text
    return info["game_id"], j.json()["token"]


def ready(api: Api, gid: str, token: str | None) -> httpx.Response:
    return api.http.post(f"/api/games/{gid}/ready", headers=bearer(token))


def test_a_rated_open_table_starts_when_everyone_confirmed(tables):
    srv, api = tables
    ann, bo = Account(srv.base), Account(srv.base)
    try:
        gid, t0 = rated_open(api, ann)
        assert ready(api, gid, t0).json()["error"] == "no_ready_check"  # (not full yet)
        t1 = bo.http.post(f"/api/games/{gid}/sit", json={}).json()["token"]
        st = api.state(gid)
        assert st["ready"] is False and st["decision"] is None and st["confirm"]["ready"] == []
        assert st["confirm"]["until"] > st["confirm"]["now"]
        r = api.decide(gid, t0, "jarl", st["version"])
        assert r.status_code == 409  # nobody decides before everyone confirmed
        assert ready(api, gid, None).status_code == 401
        r = ready(api, gid, t1)
        assert r.status_code == 200 and r.json() == {"game_id": gid, "seat": 1, "ready": [1], "started": False}
        assert api.state(gid)["confirm"]["ready"] == [1] and api.state(gid)["ready"] is False
        r = ready(api, gid, t0)
        assert r.status_code == 200 and r.json()["started"] is True and r.json()["ready"] == [0, 1]
        st = api.state(gid)
        assert st["ready"] is True and st["confirm"] is None and st["decision"] is not None
        assert ready(api, gid, t0).json()["error"] == "no_ready_check"
    finally:
        ann.close()
        bo.close()


def test_who_does_not_confirm_in_time_loses_the_seat_and_the_table_waits_again(tables):
    srv, api = tables
    srv.hub.tables.ready_seconds = 0.5
    ann, bo, cy = Account(srv.base), Account(srv.base), Account(srv.base)
    try:
        gid, t0 = rated_open(api, ann)  # the creator sits, then goes away
        t1 = bo.http.post(f"/api/games/{gid}/sit", json={}).json()["token"]
        assert ready(api, gid, t1).json()["started"] is False
        st = until(lambda: (s := api.state(gid)) and s["seated"] == 1 and s, what="the unconfirmed seat freed")
        assert st["status"] == "waiting" and st["ready"] is False and st["confirm"] is None
        assert st["seats"][0]["joined"] is False and st["seats"][1]["joined"] is True
        assert api.get(gid, t0).status_code in (401, 403)  # the creator's device token is revoked
        assert gid in listed(api)  # in the lobby again
        t2 = cy.http.post(f"/api/games/{gid}/sit", json={}).json()["token"]
        assert api.state(gid)["confirm"]["ready"] == []  # a new round: everyone confirms again
        assert ready(api, gid, t1).json()["started"] is False
        assert ready(api, gid, t2).json()["started"] is True
        assert api.state(gid)["ready"] is True
    finally:
        srv.hub.tables.ready_seconds = 30.0
        for p in (ann, bo, cy):
            p.close()


def test_a_rated_open_table_filled_by_the_creators_bots_asks_its_people_too(tables):
    srv, api = tables
    ann, bo = Account(srv.base), Account(srv.base)
    try:
        r = ann.http.post(
            "/api/games",
            json={
                "game": "red-north",
                "seats": [{"type": "human"}] * 3,
                "rated": True,
                "open": True,
                "clock": {"kind": "turn"},
            },
        )
        info = r.json()
        gid = info["game_id"]
        t0 = ann.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][0]["invite"]}).json()["token"]
        t1 = bo.http.post(f"/api/games/{gid}/sit", json={}).json()["token"]
        r = api.http.post(f"/api/games/{gid}/fill-bots", json={"bot": "random"}, headers=bearer(info["creator_key"]))
        assert r.status_code == 200 and r.json()["seats"] == [2] and r.json()["ready"] is False
        assert api.state(gid)["confirm"]["ready"] == []
        assert ready(api, gid, t0).json()["started"] is False
        assert ready(api, gid, t1).json()["started"] is True  # (the bot confirms nothing)
        assert api.state(gid)["ready"] is True
    finally:
        ann.close()
        bo.close()


# ---------------------------------------------------------------------- the creator's bots
def test_fill_bots(tables):
    srv, api = tables
    info, t0 = open_table(api, seats=("human", "human", "human"))
    gid, key = info["game_id"], info["creator_key"]

    def fill(body: dict, token: str | None) -> httpx.Response:
        return api.http.post(f"/api/games/{gid}/fill-bots", json=body, headers=bearer(token))

    assert fill({}, None).json()["error"] == "not_creator"
    r = fill({}, "not-the-key")
    assert r.status_code == 403 and r.json()["error"] == "not_creator"
    r = fill({}, t0)  # a seat's token is not the creator's key
    assert r.status_code == 403 and r.json()["error"] == "not_creator"
    r = fill({"bot": "ismcts:600s"}, key)
    assert r.status_code == 422 and r.json()["error"] == "invalid_bot" and "heuristic" in r.json()["message"]
    r = fill({"bot": "heuristic", "seats": [0]}, key)
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"
    r = fill({"bot": "heuristic", "seats": [5]}, key)
    assert r.status_code == 404 and r.json()["error"] == "unknown_seat"
    r = fill({"bot": "heuristic", "seats": [2]}, key)
    assert r.status_code == 200 and r.json() == {"game_id": gid, "seats": [2], "bot": "heuristic", "ready": False}
    r = fill({"bot": "random", "seats": [2]}, key)
    assert r.status_code == 409 and r.json()["error"] == "bot_seat"
    assert listed(api)[gid]["seated"] == 2
    r = fill({"bot": "random"}, key)  # every free seat left
    assert r.status_code == 200 and r.json()["seats"] == [1] and r.json()["ready"] is True
    r = fill({"bot": "random"}, key)
    assert r.status_code == 409 and r.json()["error"] == "no_free_seats"
    st = api.state(gid, t0)
    assert [s["type"] for s in st["seats"]] == ["human", "bot", "bot"] and st["seats"][2]["bot"] == "heuristic"
    assert st["ready"] is True and gid not in listed(api)
    r = api.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][1]["invite"]})
    assert r.status_code == 403  # the bot's seat has no invite any more


# ---------------------------------------------------------------------- quick play
def qp(api: Api, body: dict, name: str | None = None) -> httpx.Response:
    return api.http.post("/api/quickplay", json={**body, "name": name})


def poll(api: Api, ticket: str) -> httpx.Response:
    return api.http.get("/api/quickplay", headers=bearer(ticket))


def test_quickplay_two_players_make_a_table(tables):
    srv, api = tables
    body = {"game": "red-north", "players": 2, "speed": "realtime"}
    r = qp(api, body, "Ann")
    assert r.status_code == 201, r.text
    ann = r.json()
    assert ann["status"] == "waiting" and ann["waiting"] == 1 and ann["ticket"]
    assert poll(api, ann["ticket"]).json()["status"] == "waiting"
    r = qp(api, body, "Bo")
    bo = r.json()
    assert r.status_code == 201 and bo["status"] == "matched" and bo["token"] == bo["ticket"]
    got = poll(api, ann["ticket"]).json()
    assert got["status"] == "matched" and got["game_id"] == bo["game_id"] and {got["seat"], bo["seat"]} == {0, 1}
    gid = got["game_id"]
    st = api.state(gid, got["token"])
    assert st["seat"] == got["seat"] and st["ready"] is True and st["speed"] == "realtime"
    assert {s["name"] for s in st["seats"]} == {"Ann", "Bo"} and st["clock"]["running"] == st["decision"]["player"]
    assert api.state(gid, bo["token"])["seat"] == bo["seat"]
    r = api.http.delete("/api/quickplay", headers=bearer(ann["ticket"]))
    assert r.status_code == 409 and r.json()["error"] == "already_matched" and r.json()["game_id"] == gid


def test_quickplay_four_players_and_separate_queues(tables):
    srv, api = tables
    body = {"game": "red-rising", "players": 4, "speed": "none"}
    other = qp(api, {**body, "players": 3}).json()  # another queue: never matched with these
    tickets = [qp(api, body, f"P{i}").json() for i in range(4)]
    assert [t["status"] for t in tickets[:3]] == ["waiting"] * 3 and tickets[3]["status"] == "matched"
    got = [poll(api, t["ticket"]).json() for t in tickets]
    assert {g["game_id"] for g in got} == {got[0]["game_id"]} and sorted(g["seat"] for g in got) == [0, 1, 2, 3]
    st = api.state(got[0]["game_id"])
    assert st["players"] == 4 and st["ready"] is True and st["clock"] is None and st["open"] is False
    assert poll(api, other["ticket"]).json()["status"] == "waiting"
    api.http.delete("/api/quickplay", headers=bearer(other["ticket"]))


def test_quickplay_leave_and_refusals(tables):
    srv, api = tables
    body = {"game": "red-north", "players": 4, "speed": "turn"}
    t = qp(api, body).json()["ticket"]
    r = api.http.delete("/api/quickplay", headers=bearer(t))
    assert r.status_code == 200 and r.json() == {"left": True}
    r = poll(api, t)
    assert r.status_code == 404 and r.json()["error"] == "unknown_ticket"
    r = api.http.delete("/api/quickplay", headers=bearer(t))
    assert r.status_code == 404 and r.json()["error"] == "unknown_ticket"
    r = api.http.get("/api/quickplay")
    assert r.status_code == 401 and r.json()["error"] == "missing_ticket"
    r = api.http.get("/api/quickplay?token=x")
    assert r.status_code == 400 and r.json()["error"] == "token_in_url"
    for bad, code in (
        ({"game": "chess", "players": 2}, "unknown_title"),
        ({"game": "red-north", "players": 5}, "invalid_players"),
        ({"game": "red-rising", "players": 1}, "invalid_players"),
        ({"game": "red-north", "players": 2, "speed": "blitz"}, "invalid_speed"),
        ({"game": "red-north", "players": "2"}, "malformed"),
        ({"game": "red-north", "players": 2, "seed": 3}, "malformed"),
    ):
        r = api.http.post("/api/quickplay", json=bad)
        assert r.status_code == 422 and r.json()["error"] == code, (bad, r.text)
    r = qp(api, {"game": "red-north", "players": 2, "rated": True})
    assert r.status_code == 401 and r.json()["error"] == "login_required"
    r = qp(api, {"game": "red-north", "players": 2}, "random")
    assert r.status_code == 422 and r.json()["error"] == "bad_name"


def test_quickplay_people_who_stopped_polling_are_not_matched(tables):
    srv, api = tables
    from redtable.server import quickplay

    body = {"game": "red-north", "players": 3, "speed": "realtime"}
    gone = qp(api, body).json()["ticket"]
    old, quickplay.STALE_SECONDS = quickplay.STALE_SECONDS, 1.0  # (a and b join within it, on a loaded machine too)
    try:
        time.sleep(1.2)
        a = qp(api, body).json()
        b = qp(api, body).json()
        assert a["status"] == "waiting" and b["status"] == "waiting" and b["waiting"] == 2
        assert poll(api, gone).status_code == 404  # forgotten
    finally:
        quickplay.STALE_SECONDS = old
    for t in (a, b):
        api.http.delete("/api/quickplay", headers=bearer(t["ticket"]))


# ---------------------------------------------------------------------- my games
def test_my_games_for_the_seats_a_browser_holds(tables):
    srv, api = tables
    info = create(api, "red-north", ("human", "human"), clock={"kind": "realtime"})
    gid = info["game_id"]
    toks = [api.join(gid, s["invite"]) for s in info["seats"]]
    first = api.state(gid)["decision"]["player"]
    r = api.http.post("/api/my/games", json={"seats": [{"game_id": gid, "token": t} for t in toks]})
    assert r.status_code == 200
    mine = r.json()
    assert len(mine) == 1  # one entry per game (the first seat held)
    r = api.http.post(
        "/api/my/games",
        json={
            "seats": [
                {"game_id": gid, "token": toks[first]},
                {"game_id": "nosuchgame", "token": "x"},
                {"game_id": create(api)["game_id"], "token": "not-a-token"},
            ]
        },
    )
    got = r.json()
    assert got[0]["game_id"] == gid and got[0]["my_turn"] is True and got[0]["turn"] == first
    assert got[0]["seat"] == first and got[0]["clock"]["running"] == first and got[0]["status"] == "active"
    assert got[1] == {"game_id": "nosuchgame", "gone": True, "error": "unknown_game"}
    assert got[2]["gone"] is True and got[2]["error"] == "bad_token"
    other = api.http.post("/api/my/games", json={"seats": [{"game_id": gid, "token": toks[1 - first]}]}).json()
    assert other[0]["my_turn"] is False and other[0]["turn"] == first
    assert api.http.get("/api/my/games").json() == []  # a guest: nothing kept by the server
    r = api.http.post("/api/my/games", json={"seats": [{"game_id": gid, "token": "t"}] * 51})
    assert r.status_code == 422 and r.json()["error"] == "malformed"
