"""Clocks and abandoned tables (``clocks.py``, ``tables.py``), on SQLite and PostgreSQL.

Time is short on these servers (``tablekit.SCALE``: a 30-second bank lasts 0.3 s; a table
nobody plays closes after about a second), so nothing sleeps long: each test polls until
the server has acted.
"""

from __future__ import annotations

import time

import pytest
from srvkit import Api, Backend, Client, require_backend
from tablekit import (
    IDLE,
    SCALE,
    Account,
    accounts_available,
    create,
    play_random,
    table_server,
    until,
    wait_message,
)

from redtable.server.clocks import Clock, ClockSpec, parse_clock
from redtable.server.errors import ApiError


# ---------------------------------------------------------------------- the clock's arithmetic
def test_realtime_bank_runs_for_the_seat_waited_on_and_gets_its_increment():
    clk = Clock(ClockSpec("realtime", bank_s=180, increment_s=20), players=3)
    assert clk.banks == [180.0, 180.0, 180.0] and clk.deadline() is None
    clk.advance(1000.0, 1, None, 0)  # seat 0 is waited on from t=1000
    assert clk.deadline() == 1180.0 and clk.remaining(0, 1030.0) == 150.0 and clk.remaining(1, 1030.0) == 180.0
    clk.advance(1030.0, 2, 0, 1)  # seat 0 decided after 30 s: 150 + 20 back; seat 1 runs
    assert clk.banks[0] == 170.0 and clk.running == 1 and clk.deadline() == 1210.0
    clk.advance(1040.0, 3, None, None)  # an undo or the server's move: charged, no increment, nobody runs
    assert clk.banks[1] == 170.0 and clk.running is None and clk.deadline() is None
    clk.advance(1050.0, 4, None, 1)
    clk.expire(1)
    assert clk.banks[1] == 0.0 and clk.deadline() is None
    pub = clk.public(1050.0)
    assert pub["remaining"] == [170.0, 0.0, 180.0] and pub["kind"] == "realtime" and pub["now"] == 1050.0


def test_turn_based_clock_gives_each_decision_its_hours():
    clk = Clock(ClockSpec("turn", per_decision_h=24), players=2, scale=0.5)
    clk.advance(0.0, 1, None, 1)
    assert clk.deadline() == 12 * 3600.0  # (scaled by one half)
    assert clk.remaining(1, 3600.0) == 11 * 3600.0 and clk.remaining(0, 3600.0) == 12 * 3600.0
    clk.advance(7200.0, 2, 1, 0)  # nothing carries over
    assert clk.deadline() == 7200.0 + 12 * 3600.0


@pytest.mark.parametrize(
    ("raw", "option"),
    [
        ({"kind": "blitz"}, "kind"),
        ({"kind": "realtime", "bank_s": 10}, "bank_s"),
        ({"kind": "realtime", "bank_s": 99999}, "bank_s"),
        ({"kind": "realtime", "increment_s": -1}, "increment_s"),
        ({"kind": "realtime", "bank_s": 60.5}, "bank_s"),
        ({"kind": "realtime", "bank_s": "180"}, "bank_s"),
        ({"kind": "turn", "per_decision_h": 0}, "per_decision_h"),
        ({"kind": "turn", "per_decision_h": 169}, "per_decision_h"),
        ({"kind": "turn", "bank_s": 60}, "bank_s"),
    ],
)
def test_bad_clock_options_are_refused_naming_the_option(raw, option):
    with pytest.raises(ApiError) as e:
        parse_clock(raw)
    assert e.value.code == "invalid_clock" and e.value.details["option"] == option
    assert "realtime" in e.value.message and "per_decision_h" in e.value.message  # what is allowed


def test_clock_defaults_and_none():
    assert parse_clock(None) is None and parse_clock({"kind": "none"}) is None
    assert parse_clock({"kind": "realtime"}) == ClockSpec("realtime", bank_s=180, increment_s=20)
    assert parse_clock({"kind": "turn"}) == ClockSpec("turn", per_decision_h=24)
    with pytest.raises(ApiError):
        parse_clock("fast")


# ---------------------------------------------------------------------- a server whose time is short
@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def clocked(request, tmp_path_factory):
    require_backend(request.param)
    b = Backend(request.param, tmp_path_factory.mktemp("clk"))
    srv = table_server(b)
    api = Api(srv.base)
    yield srv, api
    api.close()
    srv.stop()
    b.cleanup()


def two_people(api: Api, **body) -> tuple[str, list[str]]:
    info = create(api, "red-north", ("human", "human"), **body)
    gid = info["game_id"]
    return gid, [api.join(gid, s["invite"]) for s in info["seats"]]


def test_create_refuses_bad_clock_and_open_options(clocked):
    srv, api = clocked
    seats = [{"type": "human"}, {"type": "human"}]
    for body, code in (
        ({"clock": {"kind": "realtime", "bank_s": 5}}, "invalid_clock"),
        ({"clock": {"kind": "hourglass"}}, "invalid_clock"),
        ({"clock": "fast"}, "malformed"),
        ({"open": "yes"}, "malformed"),
    ):
        r = api.http.post("/api/games", json={"game": "red-north", "seats": seats, **body})
        assert r.status_code == 422 and r.json()["error"] == code, (body, r.text)
    r = api.http.post(
        "/api/games", json={"game": "red-north", "seats": [{"type": "bot"}, {"type": "bot"}], "open": True}
    )
    assert r.status_code == 422 and r.json()["error"] == "invalid_table"


def test_clock_waits_for_a_full_table_then_runs_for_the_seat_to_decide(clocked):
    srv, api = clocked
    info = create(api, "red-north", ("human", "human"), clock={"kind": "realtime", "bank_s": 3600})
    gid = info["game_id"]
    t0 = api.join(gid, info["seats"][0]["invite"])
    st = api.state(gid, t0)
    assert st["ready"] is False and st["decision"] is None and st["clock"]["running"] is None
    assert st["clock"]["remaining"] == [3600 * SCALE] * 2 and st["speed"] == "realtime"
    r = api.decide(gid, t0, "jarl", st["version"])
    assert r.status_code == 409 and r.json()["error"] == "table_not_full" and r.json()["seated"] == 1
    t1 = api.join(gid, info["seats"][1]["invite"])
    st = api.state(gid, t1)
    d = st["decision"]
    assert st["ready"] is True and st["clock"]["running"] == d["player"]
    assert st["clock"]["deadline"] == pytest.approx(st["clock"]["now"] + 3600 * SCALE, abs=1.0)
    tok = [t0, t1][d["player"]]
    mine = api.state(gid, tok)
    r = api.decide(gid, tok, mine["decision"]["options"][0], mine["version"])
    assert r.status_code == 200, r.text
    after = r.json()["clock"]
    # the increment (20 s -> 0.2 s) came back: the bank less the time used (by the server's own
    # clock, since it started running; a loaded machine may take longer than the increment to
    # decide) plus 0.2 s, never more than the bank plus the increment
    used = after["now"] - (st["clock"]["deadline"] - 3600 * SCALE)
    left = after["remaining"][d["player"]]
    assert 3600 * SCALE - used + 0.2 - 0.1 < left <= 3600 * SCALE + 0.2 + 1e-6, (left, used)
    assert after["running"] == r.json()["decision"]["player"]  # whoever decides next


def test_time_out_unrated_a_bot_takes_the_seat(clocked):
    srv, api = clocked
    gid, tokens = two_people(api, clock={"kind": "realtime", "bank_s": 30, "increment_s": 0})
    st = api.state(gid)
    waited = st["decision"]["player"]
    ws = Client(srv, gid, tokens[1 - waited])
    notice = wait_message(ws, lambda m: m["type"] == "notice")
    assert notice["code"] == "timeout_bot" and notice["seat"] == waited
    st = until(lambda: (s := api.state(gid)) and s["seats"][waited]["type"] == "bot" and s)
    assert st["seats"][waited]["bot"] == "heuristic" and st["status"] == "active" and st["forfeited"] == []
    assert st["clock"]["remaining"][waited] == 0
    r = api.decide(gid, tokens[waited], "jarl", st["version"])
    assert r.status_code == 409 and r.json()["error"] in ("seat_played_by_bot", "not_your_turn", "stale_version")
    until(lambda: api.state(gid)["step"] >= 1, what="the bot's move")  # the bot plays the seat on
    ws.close()


def test_turn_based_clock_times_out_too(tmp_path):
    require_backend("sqlite")
    b = Backend("sqlite", tmp_path)
    srv = table_server(b, clock_scale=0.0001)  # one hour: 0.36 s
    api = Api(srv.base)
    try:
        gid, tokens = two_people(api, clock={"kind": "turn", "per_decision_h": 1})
        st = api.state(gid)
        assert st["speed"] == "turn" and st["clock"]["deadline"] - st["clock"]["now"] == pytest.approx(0.36, abs=0.1)
        waited = st["decision"]["player"]
        until(lambda: api.state(gid)["seats"][waited]["type"] == "bot", what="the timeout")
    finally:
        api.close()
        srv.stop()
        b.cleanup()


def test_a_clock_outlives_a_restart(tmp_path):
    """The deadline is in storage: a server started after the first stopped enforces it."""
    require_backend("sqlite")
    b = Backend("sqlite", tmp_path)
    srv = table_server(b)
    api = Api(srv.base)
    gid, tokens = two_people(api, clock={"kind": "realtime", "bank_s": 120, "increment_s": 0})  # 1.2 s
    waited = api.state(gid)["decision"]["player"]
    api.close()
    srv.stop()
    srv = table_server(b)
    api = Api(srv.base)
    try:
        until(lambda: api.state(gid)["seats"][waited]["type"] == "bot", timeout=15, what="the timeout after a restart")
        assert srv.call(lambda: srv.hub.tables.counts["timeouts"]) == 1
    finally:
        api.close()
        srv.stop()
        b.cleanup()


# ---------------------------------------------------------------------- rated: the seat forfeits
@pytest.fixture
def rated_ok(clocked):
    srv, api = clocked
    if not accounts_available(srv.base):
        pytest.skip("accounts (accounts.py) are not installed yet")
    return srv, api


def rated_game(srv, api, n: int, bank_s: int) -> tuple[str, list[Account], list[str]]:
    people = [Account(srv.base) for _ in range(n)]
    r = people[0].http.post(
        "/api/games",
        json={
            "game": "red-north",
            "seats": [{"type": "human"}] * n,
            "rated": True,
            "clock": {"kind": "realtime", "bank_s": bank_s, "increment_s": 0},
        },
    )
    assert r.status_code == 201, r.text
    info = r.json()
    gid = info["game_id"]
    tokens = []
    for p, s in zip(people, info["seats"], strict=True):
        j = p.http.post(f"/api/games/{gid}/join", json={"invite": s["invite"]})
        assert j.status_code == 200, j.text
        tokens.append(j.json()["token"])
    return gid, people, tokens


def first_moves(api: Api, gid: str, tokens: list[str | None]) -> None:
    """Play at random until every person has made a first move (the abort window is over)."""
    import random

    rnd, moved = random.Random(5), set()
    while len(moved) < sum(t is not None for t in tokens):
        st = api.state(gid)
        d = st["decision"]
        assert st["status"] == "active", st["status"]
        if d is None or d.get("auto") or tokens[d["player"]] is None:
            continue
        mine = api.state(gid, tokens[d["player"]])
        dd = mine["decision"]
        if dd is None or dd.get("auto") or dd["player"] != d["player"]:
            continue
        if api.decide(gid, tokens[d["player"]], rnd.choice(dd["options"]), mine["version"]).status_code == 200:
            moved.add(d["player"])


def rating_of(api: Api, p: Account) -> dict | None:
    got = api.http.get(f"/api/players/{p.name}")
    return got.json().get("ratings", {}).get("red-north") if got.status_code == 200 else None


def test_time_out_rated_before_everyone_moved_aborts_the_game_unrated(rated_ok):
    """The creator (or a stranger who sat) never plays: the game closes, rated for nobody."""
    srv, api = rated_ok
    for moves in (False, True):  # nobody moved; the first seat moved, the second never did
        gid, people, tokens = rated_game(srv, api, 2, 3000)
        st = api.state(gid)
        ws = Client(srv, gid, tokens[0])
        first = st["decision"]["player"]
        while moves and (mine := api.state(gid, tokens[first]))["decision"]["player"] == first:
            r = api.decide(gid, tokens[first], mine["decision"]["options"][0], mine["version"])
            assert r.status_code == 200, r.text
        waited = api.state(gid)["decision"]["player"]
        srv.call(lambda gid=gid: _expire_now(srv, gid))
        st = until(lambda gid=gid: (s := api.state(gid)) and s["status"] == "abandoned" and s, what="the abort")
        assert st["closed"]["reason"] == "aborted" and st["closed"]["seat"] == waited and st["result"] is None
        notice = wait_message(ws, lambda m: m.get("code") == "game_aborted")
        assert notice["seat"] == waited
        time.sleep(0.3)  # (a rating would have been written by now)
        assert [rating_of(api, p) for p in people] == [None, None]
        ws.close()
        for p in people:
            p.close()


def test_time_out_rated_after_everyone_moved_the_leaver_loses_rated(rated_ok):
    srv, api = rated_ok
    gid, people, tokens = rated_game(srv, api, 2, 3000)
    assert api.state(gid)["rated"] is True
    first_moves(api, gid, tokens)
    waited = until(lambda: (d := api.state(gid)["decision"]) and not d.get("auto") and d)["player"]
    srv.call(lambda: _expire_now(srv, gid))
    st = until(lambda: (s := api.state(gid)) and s["status"] != "active" and s, what="the forfeit")
    assert st["status"] == "finished", (st["status"], st["closed"])
    assert st["result"]["forfeited"] == [waited] and st["result"]["winners"] == [1 - waited]
    assert st["result"]["reason"] == "timeout" and st["seats"][waited]["type"] == "human"  # (the account's seat)
    r = api.decide(gid, tokens[1 - waited], "jarl", st["version"])
    assert r.status_code == 409 and r.json()["error"] == "game_over"
    rec = api.http.get(f"/api/games/{gid}/record")  # over: the seed is published, as for any finished game
    assert rec.status_code == 200 and rec.json()["seed_commitment"] == st["seed_commitment"]
    loser, winner = until(
        lambda: (
            all(rating_of(api, p) for p in people) and [rating_of(api, p) for p in (people[waited], people[1 - waited])]
        )
    )
    assert winner["mu"] > loser["mu"] and winner["provisional"] and loser["provisional"]
    for p in people:
        p.close()


def test_a_rated_game_needs_a_clock(rated_ok):
    srv, api = rated_ok
    p = Account(srv.base)
    body = {"game": "red-north", "seats": [{"type": "human"}] * 2, "rated": True}
    for clock in (None, {"kind": "none"}):
        r = p.http.post("/api/games", json={**body, "clock": clock})
        assert r.status_code == 422 and r.json()["error"] == "not_ratable" and r.json()["reasons"] == ["clock"]
    r = p.http.post("/api/quickplay", json={"game": "red-north", "players": 2, "rated": True})
    assert r.status_code == 422 and r.json()["error"] == "invalid_speed"
    r = p.http.post("/api/games", json={**body, "clock": {"kind": "turn"}})
    assert r.status_code == 201 and r.json()["rated"] is True
    p.close()


def test_time_out_rated_three_players_a_bot_plays_the_forfeited_seat_ranked_last(rated_ok):
    from redtable.server.ratings import places_of

    srv, api = rated_ok
    gid, people, tokens = rated_game(srv, api, 3, 3000)  # 30 s: long enough to play the others' turns
    first_moves(api, gid, tokens)
    waited = until(lambda: (d := api.state(gid)["decision"]) and not d.get("auto") and d)["player"]
    srv.call(lambda: _expire_now(srv, gid))
    st = until(lambda: (s := api.state(gid)) and s["forfeited"] == [waited] and s, what="the forfeit")
    assert st["status"] == "active" and st["seats"][waited]["type"] == "bot"
    tokens[waited] = None
    end = play_random(api, gid, tokens)
    assert end["status"] == "finished" and end["result"]["forfeited"] == [waited]
    assert waited not in end["result"]["winners"]
    places = places_of(end["result"], 3)
    assert places[waited] == 3 and all(places[s] < 3 for s in range(3) if s != waited)
    for p in people:
        p.close()


async def _expire_now(srv, gid: str) -> None:
    """Make the running seat's time run out now (the clock of a long game, for a short test)."""
    import time

    g = srv.hub.games[gid]
    clk = g.table.clock
    clk.since = time.time() - clk.banks[clk.running] - 0.01
    srv.hub.tables.persist(g)
    srv.hub.tables.arm(g)


# ---------------------------------------------------------------------- abandoned tables
def test_a_table_nobody_plays_closes_and_says_why(clocked):
    srv, api = clocked
    gid, tokens = two_people(api)  # no clock: 1 s without a person acting (test servers)
    st = api.state(gid)
    assert st["status"] == "active" and st["closed"] is None
    ws = Client(srv, gid, tokens[0])
    st = until(lambda: (s := api.state(gid, tokens[0])) and s["status"] == "abandoned" and s, timeout=15)
    assert st["closed"]["reason"] == "inactive" and st["closed"]["idle_s"] == IDLE["none"]
    assert st["decision"] is None and st["result"] is None
    notice = wait_message(ws, lambda m: m.get("code") == "table_closed")
    assert notice["reason"] == "inactive"
    r = api.decide(gid, tokens[0], "jarl", st["version"])
    assert r.status_code == 409 and r.json()["error"] in ("game_over", "table_closed")
    listed = {g["id"]: g["status"] for g in api.http.get("/api/games?limit=500").json()}
    assert listed[gid] == "abandoned"
    assert api.http.get(f"/api/games/{gid}/record").status_code == 200  # nobody plays on: the deal is shown
    assert gid not in {g["id"] for g in api.http.get("/api/games?status=active&limit=500").json()}
    assert gid in {g["id"] for g in api.http.get("/api/games?status=abandoned&limit=500").json()}
    ws.close()


def test_an_open_table_nobody_fills_closes_as_unfilled(clocked):
    srv, api = clocked
    info = create(api, "red-north", ("human", "human"), open=True)
    gid = info["game_id"]
    api.join(gid, info["seats"][0]["invite"])
    assert gid in {t["game_id"] for t in api.http.get("/api/tables").json()}
    st = until(lambda: (s := api.state(gid)) and s["status"] == "abandoned" and s, timeout=15)
    assert st["closed"]["reason"] == "unfilled"
    assert gid not in {t["game_id"] for t in api.http.get("/api/tables").json()}
    r = api.http.post(f"/api/games/{gid}/sit", json={"name": "Late"})
    assert r.status_code == 409 and r.json()["error"] == "game_over"


def test_a_table_people_keep_playing_stays_open(clocked):
    srv, api = clocked
    gid, tokens = two_people(api)
    import time

    end = time.monotonic() + 2.5 * IDLE["none"]
    while time.monotonic() < end:  # a decision every 0.3 s: never idle for a second
        st = api.state(gid)
        d = st["decision"]
        mine = api.state(gid, tokens[d["player"]])
        if mine["decision"] and not mine["decision"].get("auto"):
            api.decide(gid, tokens[d["player"]], mine["decision"]["options"][0], mine["version"])
        time.sleep(0.3)
    assert api.state(gid)["status"] in ("active", "finished")


def test_bots_only_are_never_abandoned(clocked):
    srv, api = clocked
    info = create(api, "red-north", ("bot", "bot"), bot_delay=0.3)  # slower than the idle limit in total
    gid = info["game_id"]
    import time

    time.sleep(2 * IDLE["none"] + 0.5)
    assert api.state(gid)["status"] in ("active", "finished")


# ---------------------------------------------------------------------- two processes: each timeout once
@pytest.mark.multiprocess
def test_two_processes_act_on_each_timeout_once(tmp_path):
    """Seats of one game on two processes: both hold the game and its clock; when a seat's time
    runs out exactly one of them acts (the claim in storage), both tables hear of it, and the
    bot's moves are played once (the lease)."""
    from fleetkit import Proc

    require_backend("postgresql")
    b = Backend("postgresql", None)
    fast = ["--clock-scale", str(SCALE), "--table-sweep-seconds", "0.05"]
    procs = [Proc(b.schema, tmp_path / f"server{i}.log", extra=fast).start() for i in range(2)]
    try:
        a, z = (Api(p.base) for p in procs)
        info = create(a, "red-north", ("human", "human"), clock={"kind": "realtime", "bank_s": 100, "increment_s": 0})
        gid = info["game_id"]
        tokens = [a.join(gid, info["seats"][0]["invite"]), z.join(gid, info["seats"][1]["invite"])]
        socks = [Client(_WsBase(p), gid, t) for p, t in zip(procs, tokens, strict=True)]  # seat 0 on A, 1 on B
        for ws in socks:  # each seat's time runs out in turn (1 s each): a bot takes it, on both processes
            for seat in (0, 1):
                wait_message(ws, lambda m, s=seat: m.get("code") == "timeout_bot" and m["seat"] == s, timeout=20)
        end = until(lambda: (s := z.state(gid)) and s["status"] == "finished" and s, timeout=60, what="the bots' end")
        assert [s["type"] for s in end["seats"]] == ["bot", "bot"]
        counts = [p.health()["tables"] for p in procs]
        assert sum(c["timeouts"] for c in counts) == 2, counts  # once per seat, across the two
        log = a.http.get(f"/api/games/{gid}/log").json()
        assert log["steps"] == end["step"] and all(s["seat"] in (0, 1) for s in log["log"])
        for ws in socks:
            ws.close()
        a.close()
        z.close()
    finally:
        for p in procs:
            p.stop()
        b.cleanup()


@pytest.mark.multiprocess
def test_two_processes_close_an_abandoned_table_once(tmp_path):
    """Both processes hold a game nobody plays: exactly one of them closes it, both tables say why."""
    from fleetkit import Proc

    require_backend("postgresql")
    b = Backend("postgresql", None)
    fast = ["--table-sweep-seconds", "0.05", "--table-idle-seconds", "1"]
    procs = [Proc(b.schema, tmp_path / f"server{i}.log", extra=fast).start() for i in range(2)]
    try:
        a, z = (Api(p.base) for p in procs)
        info = create(a, "red-north", ("human", "human"))
        gid = info["game_id"]
        tokens = [a.join(gid, info["seats"][0]["invite"]), z.join(gid, info["seats"][1]["invite"])]
        socks = [Client(_WsBase(p), gid, t) for p, t in zip(procs, tokens, strict=True)]
        for ws in socks:
            wait_message(ws, lambda m: m.get("code") == "table_closed", timeout=20)
        for api in (a, z):
            st = api.state(gid)
            assert st["status"] == "abandoned" and st["closed"]["reason"] == "inactive"
        assert sum(p.health()["tables"]["closed"] for p in procs) == 1
        for ws in socks:
            ws.close()
        a.close()
        z.close()
    finally:
        for p in procs:
            p.stop()
        b.cleanup()


class _WsBase:
    """srvkit.Client reads ``ws_base`` from its server: a fleet process's WebSocket address."""

    def __init__(self, proc) -> None:
        self.ws_base = proc.ws
