"""The fleet's finer rules, with two servers (two hubs, each its own event loop) in this process on one
PostgreSQL schema: a lost race is stale, a block window is answered once however many processes
try, an undo, a sign-out and a new device reach the other process, presence is fleet-wide, a
stopped process hands its bots over, and old tables get the fleet's columns."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from sqlalchemy import text
from srvkit import Api, Backend, Client, require_backend, start_server


@pytest.fixture
def two(tmp_path):
    require_backend("postgresql")
    b = Backend("postgresql", tmp_path)
    servers = [start_server(b, lease_seconds=2.0, fleet_poll_seconds=0.5) for _ in range(2)]
    apis = [Api(s.base) for s in servers]
    yield servers, apis, b
    for api in apis:
        api.close()
    for s in servers:
        s.stop()
    b.cleanup()


def wait_for(cond, seconds: float = 20, what: str = "the condition") -> None:
    deadline = time.time() + seconds
    while not cond():
        assert time.time() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def seen(client: Client, pred, seconds: float = 20, what: str = "a message") -> dict:
    """The first message (kept or coming) of ``client`` that ``pred`` accepts."""
    deadline = time.time() + seconds
    i = 0
    while True:
        while i < len(client.messages):
            if pred(client.messages[i]):
                return client.messages[i]
            i += 1
        assert time.time() < deadline, f"timed out waiting for {what}"
        try:
            client.recv(max(0.05, deadline - time.time()))
        except TimeoutError:
            pass


def play_to_version(api: Api, gid: str, tokens: list, version: int) -> None:
    """Decide (first option) over HTTP until the game reaches ``version``."""
    while True:
        s = api.state(gid)
        if s["version"] >= version or s["status"] == "finished":
            return
        p = s["decision"]["player"]
        me = api.state(gid, tokens[p])
        if me["decision"].get("auto"):
            time.sleep(0.01)
            continue
        r = api.decide(gid, tokens[p], me["decision"]["options"][0], me["version"])
        assert r.status_code in (200, 409), r.text


def test_a_replica_behind_catches_up_and_a_lost_race_is_stale(two):
    (a, b), (api_a, api_b), _ = two
    info, tokens = api_a.new_game("red-north", ("human", "human"), seed=4)
    gid = info["game_id"]
    assert api_b.state(gid)["version"] == 0  # B now has a replica
    play_to_version(api_a, gid, tokens, 3)
    s = api_a.state(gid)
    p = s["decision"]["player"]
    me = api_a.state(gid, tokens[p])
    # B hears of it (or catches up when asked): a decision on the version A made is accepted there
    r = api_b.decide(gid, tokens[p], me["decision"]["options"][0], me["version"])
    assert r.status_code == 200, r.text
    assert api_a.state(gid)["version"] == me["version"] + 1
    # the same decision sent to A on the old version: stale, not applied twice
    r = api_a.decide(gid, tokens[p], me["decision"]["options"][0], me["version"])
    assert r.status_code == 409 and r.json()["error"] in ("stale_version", "not_your_turn")
    # a race: B's replica is held back from hearing A, both decide the same version; storage takes one
    hub_b = b.hub
    heard = hub_b.fleet.on_note
    hub_b.fleet.on_note = lambda payload: None  # (the bus and the poll both tell the hub through it)
    try:
        s = api_a.state(gid)
        p = s["decision"]["player"]
        me = api_a.state(gid, tokens[p])
        assert api_a.decide(gid, tokens[p], me["decision"]["options"][0], me["version"]).status_code == 200
        g_b = b.call(lambda: hub_b.games[gid])
        assert g_b.version == me["version"]  # B is behind and does not know it
        r = b.call(lambda: _decide_quietly(hub_b, g_b, p, me["decision"]["options"][-1], me["version"]))
        assert r == "stale_version"
        assert g_b.version == me["version"] + 1  # it caught up on losing
        assert hub_b.fleet.counts["conflicts"] >= 1
    finally:
        hub_b.fleet.on_note = heard
    lg = api_a.http.get(f"/api/games/{gid}/log").json()
    assert lg["steps"] == lg["version"] == me["version"] + 1


async def _decide_quietly(hub, game, seat, action, version, by_server=False):
    from redtable.server.errors import ApiError

    try:
        await hub.decide(game, seat, action, version, by_server=by_server)
        return "ok"
    except ApiError as e:
        return e.code


def test_a_block_window_is_answered_once_even_if_both_processes_try(tmp_path):
    """Both processes answer the same empty block window for the server at the same moment (as two
    holders would after a lease changed hands): storage keeps one answer, the other is stale."""
    require_backend("postgresql")
    b = Backend("postgresql", tmp_path)
    # people's "no" takes a minute here: the servers' own answers never come during the test
    servers = [start_server(b, window_median=60.0) for _ in range(2)]
    api = Api(servers[0].base)
    try:
        for attempt in range(6):
            info, tokens = api.new_game(
                "red-rising", ("human", "human", "human"), seed=100 + attempt, options={"block_windows": True}
            )
            gid = info["game_id"]
            rng = random.Random(attempt)
            found = None
            for _ in range(400):  # play until an empty window waits for the server
                s = api.state(gid)
                if s["status"] == "finished":
                    break
                p = s["decision"]["player"]
                me = api.state(gid, tokens[p])
                if me["decision"].get("auto"):
                    found = me
                    break
                r = api.decide(gid, tokens[p], rng.choice(me["decision"]["options"]), me["version"])
                assert r.status_code == 200, r.text
            if found:
                break
        else:
            pytest.skip("no empty block window came up")
        v, seat = found["version"], found["decision"]["player"]
        games = [srv.call(lambda srv=srv: srv.hub.get(gid)) for srv in servers]
        futs = [
            asyncio.run_coroutine_threadsafe(_decide_quietly(srv.hub, g, seat, "no", v, by_server=True), srv.hub.loop)
            for srv, g in zip(servers, games, strict=True)
        ]
        results = [f.result(20) for f in futs]
        assert sorted(results)[-1] == "ok" and results.count("ok") == 1  # the other is refused on catching up
        assert set(results) - {"ok"} <= {"stale_version", "not_your_turn", "game_over"}
        lg = api.http.get(f"/api/games/{gid}/log").json()
        assert lg["steps"] == lg["version"] == v + 1 and lg["log"][v]["seat"] == seat
    finally:
        api.close()
        for srv in servers:
            srv.stop()
        b.cleanup()


def test_undo_sign_out_join_and_presence_cross_processes(two):
    (a, b), (api_a, api_b), _ = two
    info, tokens = api_a.new_game("red-rising", ("human", "human"), seed=21, undo=True)
    gid = info["game_id"]
    rng = random.Random(3)
    c0 = Client(a, gid, tokens[0])
    c1 = Client(b, gid, tokens[1])
    # presence: each process knows the seat connected to the other
    both = lambda m: m["type"] == "presence" and all(s["connected"] for s in m["seats"])  # noqa: E731
    seen(c0, both, what="presence on A")
    seen(c1, both, what="presence on B")
    # an undo on A reaches the seat on B as a fresh state
    for _ in range(200):
        s = api_a.state(gid)
        p = s["decision"]["player"]
        me = api_a.state(gid, tokens[p])
        r = api_a.decide(gid, tokens[p], rng.choice(me["decision"]["options"]), me["version"])
        assert r.status_code == 200, r.text
        if api_a.state(gid, tokens[p])["can_undo"]:
            break
    else:
        pytest.skip("no undoable decision came up")
    me = api_a.state(gid, tokens[p])
    r = api_a.undo(gid, tokens[p], me["version"])
    assert r.status_code == 200, r.text
    other = c1 if p == 0 else c0
    st = seen(other, lambda m: m["type"] == "state" and m.get("reason") == "undo", what="the undo's state")
    assert st["version"] == me["version"] + 1 and st["by"] == p
    wait_for(lambda: api_b.state(gid)["version"] == me["version"] + 1, what="B to hear of the undo")
    for t in tokens:  # both replicas rebuilt the same state
        sa, sb = api_a.state(gid, t), api_b.state(gid, t)
        assert (sa["view"], sa["decision"], sa["can_undo"]) == (sb["view"], sb["decision"], sb["can_undo"])
    # a device joined through A connects to B at once (B looks its token up)
    seat1_invite = api_a.http.post(
        f"/api/games/{gid}/sign-out-others", headers={"Authorization": f"Bearer {tokens[1]}"}
    ).json()["invite"]
    time.sleep(0.3)
    second = api_a.join(gid, seat1_invite)
    c1b = Client(b, gid, second)
    assert c1b.first["seat"] == 1
    # signing out other devices on A closes the seat's sockets on B
    r = api_a.http.post(f"/api/games/{gid}/sign-out-others", headers={"Authorization": f"Bearer {second}"})
    assert r.status_code == 200 and r.json()["signed_out"] >= 1
    seen(c1, lambda m: m.get("error") == "signed_out", what="the signed-out device's notice")
    assert api_b.get(gid, tokens[1]).status_code == 403  # the old token is refused on B too
    assert api_b.get(gid, second).status_code == 200
    for c in (c0, c1b):
        c.close()


def test_a_stopped_process_hands_its_bots_over(tmp_path):
    require_backend("postgresql")
    b = Backend("postgresql", tmp_path)
    first = start_server(b, lease_seconds=30.0)  # a long lease: only the hand-over lets the other start soon
    api = Api(first.base)
    info = api.create("red-rising", ("bot", "bot", "bot"), bot_delay=0.3, seed=3)
    gid = info["game_id"]
    wait_for(lambda: api.state(gid)["version"] >= 2, what="the bots to start")
    second = start_server(b, lease_seconds=30.0)
    api2 = Api(second.base)
    try:
        first.stop()  # graceful: its leases are handed over (expired at once)
        v = api2.state(gid)["version"]
        wait_for(lambda: api2.state(gid)["version"] > v + 1, 15, "the other process to play the bots on")
        assert second.hub.fleet.counts["claimed"] >= 1
    finally:
        api.close()
        api2.close()
        second.stop()
        b.cleanup()


def test_old_tables_get_the_fleet_columns(tmp_path):
    """A database made before fleets: version from the log, an expired lease on unfinished bot games."""
    require_backend("postgresql")
    from redtable.server.store import Store

    b = Backend("postgresql", tmp_path)
    st = b.store()
    try:
        g = st.qualified("redtable_games")
        with st.engine.begin() as c:
            for col in ("version", "lease_holder", "lease_until"):
                c.execute(text(f"ALTER TABLE {g} DROP COLUMN {col}"))
        from test_store import action_op, game_op

        st.write_batch([game_op("old", bots=1), game_op("done")])
        st.write_batch([action_op("old", 1), action_op("old", 2), ("undo", "old", 2), action_op("old", 3)])
        st.write_batch([action_op("done", 1, result={"winners": [0]})])
        st2 = Store(b.url, schema=b.schema)
        st2.create_tables()
        with st2.engine.connect() as c:
            got = c.execute(text(f"SELECT id, version, lease_holder, lease_until FROM {g}"))
            rows = {r[0]: tuple(r[1:]) for r in got}
        assert rows["old"] == (4, "-", 0.0)  # 3 decisions + 1 undo; expired, so a sweeper looks at it
        assert rows["done"] == (1, None, None)
        st2.dispose()
    finally:
        st.dispose()
        b.cleanup()


def test_a_bus_that_reconnects_loses_no_update(two):
    """The LISTEN connections are cut while A decides: B's seat still gets every update, in order
    (the periodic version check, and the re-read when the bus is back)."""
    (a, b), (api_a, api_b), backend = two
    info, tokens = api_a.new_game("red-north", ("human", "human"), seed=9)
    gid = info["game_id"]
    c1 = Client(b, gid, tokens[1])
    st = b.hub.store
    with st.engine.begin() as c:
        cut = c.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE query LIKE 'LISTEN \"redtable.%' AND state = 'idle'"
            )
        ).all()
    assert cut, "no LISTEN connection found"
    play_to_version(api_a, gid, tokens, 6)
    seen(c1, lambda m: m["type"] == "update" and m["version"] == 6, what="the updates made while the bus was down")
    ups = [m["version"] for m in c1.messages if m["type"] == "update"]
    assert ups == list(range(1, 7))
    wait_for(lambda: api_b.http.get("/api/health").json()["fleet"]["bus_connected"], what="the bus to reconnect")
    c1.close()


def test_a_conflicting_write_fails_alone_in_its_batch(tmp_path):
    """Storage level: in one transaction of several games, the one whose version moved on fails
    (VersionConflict); the others commit; nothing of the failed one is written."""
    require_backend("postgresql")
    from test_store import game_op

    from redtable.server.store import VersionConflict

    b = Backend("postgresql", tmp_path)
    st = b.store()
    st.lease_owner = "me:1:t"
    try:
        ops = []
        for gid in ("g1", "g2", "g3"):
            op = game_op(gid)
            ops.append((op[0], {**op[1], "version": 0}, op[2]))
        st.write_batch(ops)

        def act(gid, seq, old, lease="release"):
            return (
                "action",
                {
                    "game_id": gid,
                    "seq": seq,
                    "seat": 0,
                    "action": "x",
                    "undoable": False,
                    "undone": False,
                    "at": time.time(),
                },
                None,
                (old, lease),
            )

        assert st.write_batch([act("g1", 1, 0), act("g2", 1, 0)]) == [{"lease": False}] * 2
        got = st.write_batch([act("g1", 2, 1, "take"), act("g2", 2, 0), act("g3", 1, 0)])
        assert got[0] == {"lease": True} and got[2] == {"lease": False}
        assert isinstance(got[1], VersionConflict) and got[1].games == {"g2"}
        assert [a.seq for a in st.load_game("g2").actions] == [1]
        assert [a.seq for a in st.load_game("g1").actions] == [1, 2]
        # an undo is versioned too: made on an old version, it fails and marks nothing
        got = st.write_batch([("undo", "g1", 2, (1, "release"))])
        assert isinstance(got[0], VersionConflict)
        assert st.write_batch([("undo", "g1", 2, (2, "release"))]) == [{"lease": False}]
        assert [(a.seq, a.undone) for a in st.load_game("g1").actions] == [(1, False), (2, True)]
    finally:
        st.dispose()
        b.cleanup()


def test_the_fleet_connects_with_the_stores_url_parameters():
    from redtable.server.fleet import channel_name, libpq_dsn
    from redtable.server.store import normalize_url

    dsn = libpq_dsn(
        normalize_url(
            "postgresql://u:p%20w@db.example:6543/games?options=-c%20synchronous_commit%3Doff&sslmode=require"
        )
    )
    assert "password='p w'" in dsn and "options='-c synchronous_commit=off'" in dsn and "sslmode=require" in dsn
    assert "port=6543" in dsn and "dbname=games" in dsn

    class S:
        url, schema = normalize_url("postgresql://u@h/games"), "x" * 80

    assert len(channel_name(S)) <= 63  # a channel is an identifier
