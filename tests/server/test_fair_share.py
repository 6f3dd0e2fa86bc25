"""One client's fair share, on SQLite and PostgreSQL, and across two server processes.

Quick play spends the ``create`` bucket and counts against ``live_games_per_client`` (its
tables and its waiting tickets), so one address cannot fill tables alone and leave their
seats to the bots; the cap is counted in storage, so it holds whichever process a request
reaches. A guest takes one seat of an open table. ``POST /api/my/games`` checks every held
token by its hash before it loads any game. A rated seat shows its account's name.

The fleet tests run two servers (each its own hub, limiter and memory, as two processes have)
on one PostgreSQL schema, as ``test_fleet_rules.py`` does.
"""

from __future__ import annotations

from dataclasses import replace

import httpx
import pytest
from srvkit import Api, Backend, require_backend
from tablekit import Account, accounts_available, address, bearer, create, table_server

from redtable.server import clientdb
from redtable.server.limits import Limits, Rate

IDLE = {"none": 600.0, "realtime": 600.0, "turn": 600.0}


def limits(**kw) -> Limits:
    """Relaxed limits (one test is many clients) with the given ones strict, the client from X-Forwarded-For."""
    base = replace(Limits().relaxed(), trust_proxy=True)
    rates = kw.pop("rates", {})
    return replace(base, rates={**base.rates, **rates}, **kw)


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request, tmp_path):
    require_backend(request.param)
    b = Backend(request.param, tmp_path)
    yield b
    b.cleanup()


def join(api: Api, frm: dict, players: int = 2, **extra) -> httpx.Response:
    body = {"game": "red-north", "players": players, "speed": "none", **extra}
    return api.http.post("/api/quickplay", json=body, headers=frm)


def new_game(api: Api, frm: dict) -> httpx.Response:
    return api.http.post("/api/games", json={"game": "red-north", "seats": [{}, {}]}, headers=frm)


def too_many(r: httpx.Response) -> bool:
    return r.status_code == 429 and r.json()["error"] == "too_many_games"


# ---------------------------------------------------------------------- quick play pays as creating does
def test_quickplay_spends_the_create_bucket(backend):
    srv = table_server(backend, limits=limits(rates={"create": Rate(3, 0.0001)}), table_idle_seconds=IDLE)
    api = Api(srv.base)
    try:
        me, other = address(), address()
        for _ in range(3):
            assert join(api, me, players=4).status_code == 201
        r = join(api, me, players=4)
        assert r.status_code == 429 and r.json()["limit"] == "create" and r.headers["Retry-After"]
        r = new_game(api, me)  # the same bucket
        assert r.status_code == 429 and r.json()["limit"] == "create"
        assert join(api, other, players=4).status_code == 201  # another address has its own
    finally:
        api.close()
        srv.stop()


def test_one_address_cannot_fill_tables_alone(backend):
    """The attack: queue twice into a two-player bucket (a table of one's own), again and again, and
    leave the seats to time out into bots. The tables and the waiting tickets count as live games."""
    srv = table_server(backend, limits=limits(live_games_per_client=3), table_idle_seconds=IDLE)
    api = Api(srv.base)
    try:
        me = address()
        made = 0
        for _ in range(10):
            first = join(api, me)
            if too_many(first):
                break
            assert first.status_code == 201, first.text
            second = join(api, me)
            if too_many(second):
                break
            assert second.json()["status"] in ("matched", "starting"), second.text
            made += 1
        assert made == 2  # two tables and the third table's first ticket: three live
        r = new_game(api, me)
        assert too_many(r) and r.json()["limit"] == 3 and "at most 3" in r.json()["message"]
        assert new_game(api, address()).status_code == 201  # another address is not affected
        # waiting tickets alone count too
        you = address()
        for _ in range(3):
            assert join(api, you, players=4).json()["status"] == "waiting"
        assert too_many(join(api, you, players=4))
        assert too_many(new_game(api, you))
    finally:
        api.close()
        srv.stop()


def test_the_live_games_cap_holds_across_two_processes(tmp_path):
    require_backend("postgresql")
    b = Backend("postgresql", tmp_path)
    servers = [table_server(b, limits=limits(live_games_per_client=2), table_idle_seconds=IDLE) for _ in range(2)]
    apis = [Api(s.base) for s in servers]
    try:
        me = address()
        assert join(apis[0], me).status_code == 201
        assert join(apis[0], me).json()["status"] in ("matched", "starting")  # a table of one's own, on A
        assert new_game(apis[1], me).status_code == 201  # a game on B: two live
        assert too_many(new_game(apis[0], me))  # neither process lets a third through
        assert too_many(new_game(apis[1], me))
        assert too_many(join(apis[1], me))
        assert new_game(apis[1], address()).status_code == 201
    finally:
        for a in apis:
            a.close()
        for s in servers:
            s.stop()
        b.cleanup()


# ---------------------------------------------------------------------- a guest, one seat
def open_table(api: Api, frm: dict, seats: int = 3) -> str:
    info = create(api, "red-north", ("human",) * seats, open=True)
    api.join(info["game_id"], info["seats"][0]["invite"], "Ann")
    return info["game_id"]


def sit(api: Api, gid: str, frm: dict, **kw) -> httpx.Response:
    return api.http.post(f"/api/games/{gid}/sit", json={}, headers={**frm, **kw})


def test_a_guest_takes_one_seat_of_a_strangers_table(backend):
    srv = table_server(backend, limits=limits(), table_idle_seconds=IDLE)
    api = Api(srv.base)
    try:
        gid = open_table(api, address(), seats=4)
        me = address()
        first = sit(api, gid, me)
        assert first.status_code == 200
        r = sit(api, gid, me)  # no token: a second browser, a cleared cookie, a script
        assert r.status_code == 409 and r.json()["error"] == "already_seated"
        assert r.json()["seat"] == first.json()["seat"] and "one seat a table" in r.json()["message"]
        if accounts_available(srv.base):  # logged in, the same address is a person of its own
            acc = Account(srv.base)
            try:
                r = acc.http.post(f"/api/games/{gid}/sit", json={}, headers=me)
                assert r.status_code == 200 and r.json()["name"] == acc.name
            finally:
                acc.close()
        else:
            assert sit(api, gid, address()).status_code == 200
        assert sit(api, gid, address()).status_code == 200  # the last seat
        late = address()
        r = sit(api, gid, late)
        assert r.status_code == 409 and r.json()["error"] == "table_full"
        key = clientdb.client_key(late["X-Forwarded-For"])
        assert clientdb.guest_seat(srv.hub.store, gid, key) is None  # a refused sit holds nothing
        assert clientdb.guest_seat(srv.hub.store, gid, clientdb.client_key(me["X-Forwarded-For"])) == 1
    finally:
        api.close()
        srv.stop()


def test_one_guest_seat_across_two_processes(tmp_path):
    require_backend("postgresql")
    b = Backend("postgresql", tmp_path)
    servers = [table_server(b, limits=limits(), table_idle_seconds=IDLE) for _ in range(2)]
    apis = [Api(s.base) for s in servers]
    try:
        gid = open_table(apis[0], address())
        me = address()
        assert sit(apis[0], gid, me).status_code == 200
        r = sit(apis[1], gid, me)
        assert r.status_code == 409 and r.json()["error"] == "already_seated" and r.json()["seat"] == 1
        assert sit(apis[1], gid, address()).status_code == 200
    finally:
        for a in apis:
            a.close()
        for s in servers:
            s.stop()
        b.cleanup()


# ---------------------------------------------------------------------- my games: tokens first
def test_my_games_checks_every_token_before_loading_a_game(backend):
    srv = table_server(backend, table_idle_seconds=IDLE)
    api = Api(srv.base)
    store = srv.hub.store
    loads: list[str] = []
    real = store.load_game
    try:
        held = []
        for _ in range(3):
            info = create(api, "red-north", ("human", "human"))
            held.append((info["game_id"], api.join(info["game_id"], info["seats"][0]["invite"])))
        srv.call(lambda: srv.hub.evict_idle(now=1e18))
        assert not any(g in srv.hub.games for g, _ in held)

        def counting(gid, *a, **k):
            loads.append(gid)
            return real(gid, *a, **k)

        store.load_game = counting
        stranger = [{"game_id": held[i % 3][0], "token": f"guess-{i}"} for i in range(47)]
        stranger += [{"game_id": "nosuchgame", "token": "x"}, {"game_id": "../etc", "token": "x"}]
        stranger += [{"game_id": held[0][0], "token": held[1][1]}]  # another game's token
        r = api.http.post("/api/my/games", json={"seats": stranger})
        assert r.status_code == 200
        got = r.json()
        assert len(got) == 50 and all(x["gone"] for x in got)
        assert {x["error"] for x in got} == {"bad_token", "unknown_game"}
        assert got[47] == {"game_id": "nosuchgame", "gone": True, "error": "unknown_game"}
        assert loads == []  # not one game was read from storage, let alone replayed
        r = api.http.post("/api/my/games", json={"seats": [{"game_id": held[2][0], "token": held[2][1]}]})
        assert r.json()[0]["game_id"] == held[2][0] and r.json()[0]["seat"] == 0
        assert loads == [held[2][0]]  # the seat's own game, once its token is known
    finally:
        store.load_game = real
        api.close()
        srv.stop()


# ---------------------------------------------------------------------- a rated seat's name
def test_a_rated_seat_shows_its_accounts_name(backend):
    srv = table_server(backend, table_idle_seconds=IDLE)
    api = Api(srv.base)
    if not accounts_available(srv.base):
        api.close()
        srv.stop()
        pytest.skip("accounts (accounts.py) are not installed")
    ann, bo, cy, dee = (Account(srv.base) for _ in range(4))
    try:
        r = ann.http.post(
            "/api/games",
            json={
                "game": "red-north",
                "seats": [{"type": "human", "name": "Magnus C"}, {"type": "human", "name": "Hikaru N"}],
                "rated": True,
                "open": True,
                "clock": {"kind": "turn"},  # (a rated game has a clock)
            },
        )
        assert r.status_code == 201, r.text
        info = r.json()
        gid = info["game_id"]
        assert [s["name"] for s in info["seats"]] == [None, None]  # no name is given to a rated seat
        r = ann.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][0]["invite"], "name": "Magnus C"})
        assert r.status_code == 200 and r.json()["name"] == ann.name
        r = bo.http.post(f"/api/games/{gid}/sit", json={"name": "Hikaru N"})
        assert r.status_code == 200 and r.json()["name"] == bo.name
        assert [s["name"] for s in api.state(gid)["seats"]] == [ann.name, bo.name]
        # quick play: a rated table's seats carry the accounts' names
        body = {"game": "red-north", "players": 2, "speed": "turn", "rated": True}
        a = cy.http.post("/api/quickplay", json={**body, "name": "Someone Famous"})
        b = dee.http.post("/api/quickplay", json={**body, "name": "Someone Else"})
        assert a.status_code == 201 and b.status_code == 201, (a.text, b.text)
        got = cy.http.get("/api/quickplay", headers=bearer(a.json()["ticket"])).json()
        for _ in range(100):
            if got["status"] == "matched":
                break
            got = cy.http.get("/api/quickplay", headers=bearer(a.json()["ticket"])).json()
        assert got["status"] == "matched"
        names = {s["name"] for s in api.state(got["game_id"])["seats"]}
        assert names == {cy.name, dee.name}
    finally:
        for acc in (ann, bo, cy, dee):
            acc.close()
        api.close()
        srv.stop()
