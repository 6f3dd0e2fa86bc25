"""One person's accounts are not rated against each other (``fairplay.py``), on SQLite and
PostgreSQL, and across two server processes.

Two accounts seen on one network prefix (IPv4 /32, IPv6 /64) or with one device id
(``devices.py``) make the rated table they share unrated, said in its snapshots and by a
notice as soon as the second sits (at an open table, by quick play); accounts of their own
networks and devices stay rated. On two processes: the same rule, the ready confirmations of
a rated open table, and a rated game aborted before everyone moved. The test servers take
the client address from X-Forwarded-For (``tablekit.table_server``).
"""

from __future__ import annotations

import uuid

import httpx
import pytest
from srvkit import Client
from tablekit import Account, new_address, until, wait_message

from redtable.server.fairplay import marks_of, network_prefix

TURN = {"kind": "turn"}


def test_network_prefixes():
    assert network_prefix("203.0.113.7") == "203.0.113.7"  # IPv4: the address itself
    assert network_prefix("2001:db8:1:2::5") == network_prefix("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert network_prefix("2001:db8:1:3::5") != network_prefix("2001:db8:1:2::5")
    assert network_prefix("::ffff:203.0.113.7") == "203.0.113.7"  # an IPv4 client of a dual-stack socket
    assert network_prefix("unknown") is None and network_prefix("") is None
    marks = marks_of("203.0.113.7", "d" * 43)
    assert [k for k, _ in marks] == ["net", "dev"]
    assert all("203.0.113.7" not in d and "ddd" not in d for _, d in marks)  # digests only
    assert marks_of("nonsense", None) == []


def rated_open_table(creator: Account) -> tuple[str, str]:
    r = creator.http.post(
        "/api/games",
        json={"game": "red-north", "seats": [{"type": "human"}] * 2, "rated": True, "open": True, "clock": TURN},
    )
    assert r.status_code == 201, r.text
    info = r.json()
    j = creator.http.post(f"/api/games/{info['game_id']}/join", json={"invite": info["seats"][0]["invite"]})
    assert j.status_code == 200, j.text
    return info["game_id"], j.json()["token"]


@pytest.mark.parametrize(
    ("first", "second", "reason"),
    [
        ("203.0.113.5", "203.0.113.5", "same_network"),
        ("2001:db8:1:2::5", "2001:db8:1:2:ffff::9", "same_network"),  # one IPv6 /64
        ("2001:db8:1:2::5", "2001:db8:1:3::5", None),  # two /64s
        (None, None, None),  # two networks of their own
    ],
)
def test_one_network_is_not_rated_and_says_so_before_the_game(tables, first, second, reason):
    srv, api = tables
    ann, bo = Account(srv.base, address=first), Account(srv.base, address=second)
    try:
        gid, token = rated_open_table(ann)
        ws = Client(srv, gid, token)
        assert api.state(gid)["unrated"] is None and api.state(gid)["ready"] is False
        r = bo.http.post(f"/api/games/{gid}/sit", json={})
        assert r.status_code == 200, r.text
        st = api.state(gid)
        assert st["unrated"] == reason and st["rated"] is True  # (the table's option; the game is not rated)
        if reason is not None:
            assert wait_message(ws, lambda m: m.get("code") == "unrated")["reason"] == reason
        ws.close()
    finally:
        ann.close()
        bo.close()


def test_one_device_is_not_rated(tables):
    """Two accounts registered in one browser (one device cookie), playing from two networks."""
    srv, api = tables
    shared = httpx.Client(base_url=srv.base, timeout=20, headers={"X-Forwarded-For": new_address()})
    try:
        first = f"d{uuid.uuid4().hex[:10]}"
        r = shared.post("/api/accounts", json={"username": first, "password": "correct horse 42"})
        assert r.status_code == 201
        device = shared.cookies.get("redtable_device")
        assert device and len(device) == 43
        shared.delete("/api/session", headers={"X-CSRF-Token": r.json()["csrf"]})
        shared.headers["X-Forwarded-For"] = new_address()
        r = shared.post("/api/accounts", json={"username": f"e{uuid.uuid4().hex[:10]}", "password": "correct horse 42"})
        assert r.status_code == 201 and shared.cookies.get("redtable_device") == device  # (kept across log-ins)
        shared.headers["X-CSRF-Token"] = r.json()["csrf"]
        ann = Account(srv.base, name=None)  # the first account again, in a browser of its own
        ann.http.cookies.clear()
        r = ann.http.post("/api/session", json={"username": first, "password": "correct horse 42"})
        assert r.status_code == 200
        ann.http.headers["X-CSRF-Token"] = r.json()["csrf"]
        gid, _ = rated_open_table(ann)
        shared.headers["X-Forwarded-For"] = new_address()
        assert shared.post(f"/api/games/{gid}/sit", json={}).status_code == 200
        assert api.state(gid)["unrated"] == "same_device"
        ann.close()
    finally:
        shared.close()


# ---------------------------------------------------------------------- a fleet of two processes
@pytest.mark.multiprocess
def test_the_rule_holds_across_two_processes(schema, tmp_path):
    """Ann registers and sits through one process, Bo through the other, from one address:
    the table is unrated, and both processes say so."""
    from fleetkit import Proc

    procs = [Proc(schema, tmp_path / f"server{i}.log", extra=["--trust-proxy"]).start() for i in range(2)]
    try:
        for same in (True, False):
            address = new_address()
            ann = Account(procs[0].base, address=address)
            bo = Account(procs[1].base, address=address if same else None)
            gid, _ = rated_open_table(ann)
            assert bo.http.post(f"/api/games/{gid}/sit", json={}).status_code == 200
            want = "same_network" if same else None
            for p in procs:
                until(
                    lambda p=p, gid=gid, want=want: (
                        httpx.get(f"{p.base}/api/games/{gid}").json().get("unrated") == want
                        and httpx.get(f"{p.base}/api/games/{gid}").json()["confirm"] is not None
                    ),
                    timeout=15,
                    what=f"{p.base} saying unrated={want}",
                )
            ann.close()
            bo.close()
    finally:
        for p in procs:
            p.stop()


@pytest.mark.multiprocess
def test_ready_confirmations_through_two_processes_start_the_table_once(schema, tmp_path):
    """Ann confirms through one process, Bo through the other: the table starts, once, and
    both processes show it started."""
    from fleetkit import Proc

    procs = [Proc(schema, tmp_path / f"server{i}.log", extra=["--trust-proxy"]).start() for i in range(2)]
    try:
        ann, bo = Account(procs[0].base), Account(procs[1].base)
        gid, t0 = rated_open_table(ann)
        t1 = bo.http.post(f"/api/games/{gid}/sit", json={}).json()["token"]
        for p in procs:
            until(lambda p=p: (httpx.get(f"{p.base}/api/games/{gid}").json()["confirm"] or {}).get("ready") == [])
        answers = []
        for p, token in ((procs[0], t0), (procs[1], t1)):
            r = httpx.post(f"{p.base}/api/games/{gid}/ready", headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200, r.text
            answers.append(r.json()["started"])
        assert answers == [False, True]
        for p in procs:
            st = until(lambda p=p: (s := httpx.get(f"{p.base}/api/games/{gid}").json())["ready"] and s, timeout=15)
            assert st["confirm"] is None and st["decision"] is not None
        ann.close()
        bo.close()
    finally:
        for p in procs:
            p.stop()


def test_rated_quick_play_of_one_network_plays_unrated(tables):
    srv, api = tables
    address = new_address()
    ann, bo = Account(srv.base, address=address), Account(srv.base, address=address)
    try:
        body = {"game": "red-north", "players": 2, "speed": "realtime", "rated": True}
        tickets = []
        for p in (ann, bo):
            r = p.http.post("/api/quickplay", json=body)
            assert r.status_code == 201, r.text
            tickets.append(r.json()["ticket"])
        got = until(
            lambda: (
                (x := ann.http.get("/api/quickplay", headers={"Authorization": f"Bearer {tickets[0]}"}).json()).get(
                    "status"
                )
                == "matched"
                and x
            ),
            what="the match",
        )
        st = api.state(got["game_id"])
        assert st["rated"] is True and st["unrated"] == "same_network"
    finally:
        ann.close()
        bo.close()


@pytest.mark.multiprocess
def test_an_abort_before_everyone_moved_holds_across_two_processes(schema, tmp_path):
    """Seat by seat through two processes, the first mover plays through one, the other never
    moves: its time runs out (whichever process acts), the game is aborted, nobody rated."""
    from fleetkit import Proc

    extra = ["--trust-proxy", "--clock-scale", "0.01", "--table-sweep-seconds", "0.05"]
    procs = [Proc(schema, tmp_path / f"server{i}.log", extra=extra).start() for i in range(2)]
    try:
        people = [Account(procs[0].base), Account(procs[1].base)]
        r = people[0].http.post(
            "/api/games",
            json={
                "game": "red-north",
                "seats": [{"type": "human"}] * 2,
                "rated": True,
                "clock": {"kind": "realtime", "bank_s": 900, "increment_s": 0},  # 9 s here
            },
        )
        info = r.json()
        gid = info["game_id"]
        tokens = [
            p.http.post(f"/api/games/{gid}/join", json={"invite": s["invite"]}).json()["token"]
            for p, s in zip(people, info["seats"], strict=True)
        ]

        def state(i: int, token: str | None = None) -> dict:
            h = {"Authorization": f"Bearer {token}"} if token else {}
            return httpx.get(f"{procs[i].base}/api/games/{gid}", headers=h).json()

        first = state(0)["decision"]["player"]
        while (mine := state(first, tokens[first]))["decision"]["player"] == first:  # through its own process
            r = httpx.post(
                f"{procs[first].base}/api/games/{gid}/decisions",
                json={"action": mine["decision"]["options"][0], "version": mine["version"]},
                headers={"Authorization": f"Bearer {tokens[first]}"},
            )
            assert r.status_code == 200, r.text
        for i in range(2):
            st = until(lambda i=i: (s := state(i))["status"] != "active" and s, timeout=40, what="the abort")
            assert st["status"] == "abandoned" and st["closed"]["reason"] == "aborted"
            assert st["closed"]["seat"] == 1 - first
        for p in people:
            prof = p.http.get(f"/api/players/{p.name}").json()
            assert prof["ratings"] == {} and prof["bot_ratings"] == {}
            p.close()
    finally:
        for p in procs:
            p.stop()
