"""The server's reviews (reviews.py): the CLI's JSON, cached in storage, one per client, abandoned ones stop.

Each test runs on SQLite and PostgreSQL (one server per backend for the module). The server
reviews with an iteration budget, so its review equals ``review_record`` run in this process.
"""

from __future__ import annotations

import time

import pytest
from srvkit import BACKENDS, Api, Backend, require_backend, start_server

from redtable.core import GameRecord
from redtable.review import Budget, review_record
from redtable.server.botpool import BotPool

pytestmark = pytest.mark.multiprocess  # the bot pool's search worker reviews


@pytest.fixture(scope="module", params=BACKENDS)
def rv(request, tmp_path_factory):
    require_backend(request.param)
    b = Backend(request.param, tmp_path_factory.mktemp("rv"))
    srv = start_server(b, review_budget="6it", review_idle_seconds=1.0, bot_pool=BotPool(1, fast_workers=0))
    api = Api(srv.base)
    yield srv, api
    api.close()
    srv.stop()
    b.cleanup()


def finished(api, game="red-north", seats=("bot", "bot"), seed=5) -> str:
    gid = api.create(game, seats, seed=seed)["game_id"]
    deadline = time.time() + 30
    while api.state(gid)["status"] != "finished":
        assert time.time() < deadline, "the bots did not finish"
        time.sleep(0.02)
    return gid


def wait_review(api, gid: str, seat: int, timeout: float = 60.0) -> dict:
    """Poll (as the page does) until the review is done; every progress answer is checked."""
    deadline = time.time() + timeout
    last = -1
    while True:
        r = api.http.get(f"/api/games/{gid}/review", params={"seat": seat})
        if r.status_code == 200:
            return r.json()
        assert r.status_code == 202, r.text
        p = r.json()
        assert p["status"] == "running" and p["seat"] == seat and 0 <= p["done"] <= max(p["total"], 0)
        assert p["done"] >= last
        last = p["done"]
        assert time.time() < deadline, "the review did not end"
        time.sleep(0.05)


def test_review_is_the_clis_and_is_kept(rv):
    srv, api = rv
    gid = finished(api)
    r = api.http.post(f"/api/games/{gid}/review", params={"seat": 1})
    assert r.status_code in (200, 202), r.text
    got = wait_review(api, gid, 1)
    record = GameRecord.from_json(api.http.get(f"/api/games/{gid}/record").json())
    assert got == review_record(record, 1, Budget(iterations=6), seed=0).to_json()
    assert got["decisions"] and set(got) == {"seat", "decisions"}
    # asked again (POST or GET, by anyone): answered from the cache, nothing searched
    reviewed = srv.call(lambda: srv.hub.pool.counts["reviewed"])
    again = api.http.post(f"/api/games/{gid}/review", params={"seat": 1})
    assert again.status_code == 200 and again.json() == got
    srv.call(lambda: srv.app.state.reviews.kept.clear())  # from storage, as another process would read it
    assert api.http.get(f"/api/games/{gid}/review", params={"seat": 1}).json() == got
    assert srv.call(lambda: srv.hub.pool.counts["reviewed"]) == reviewed == len(got["decisions"])


def test_refusals(rv):
    srv, api = rv
    info, tokens = api.new_game("red-north", ("human", "bot"))
    r = api.http.post(f"/api/games/{info['game_id']}/review", params={"seat": 0})
    assert r.status_code == 409 and r.json()["error"] == "game_not_finished"
    gid = finished(api, seed=6)
    r = api.http.post(f"/api/games/{gid}/review", params={"seat": 2})
    assert r.status_code == 404 and r.json()["error"] == "unknown_seat"
    r = api.http.get(f"/api/games/{gid}/review", params={"seat": 0})
    assert r.status_code == 404 and r.json()["error"] == "no_review"
    for bad in ({"seat": -1}, {"seat": "x"}, {}):
        assert api.http.post(f"/api/games/{gid}/review", params=bad).status_code == 422
    assert api.http.post("/api/games/nope/review", params={"seat": 0}).status_code == 404


def test_one_review_per_client_and_an_abandoned_one_stops(rv):
    srv, api = rv
    gid = finished(api, "red-rising", ("bot", "bot", "bot", "bot"), seed=8)
    reviews = srv.app.state.reviews
    reviews.budget = "0.05s"  # long enough to be caught running (this review is abandoned, never kept)
    try:
        r = api.http.post(f"/api/games/{gid}/review", params={"seat": 0})
        assert r.status_code == 202, r.text
        other = api.http.post(f"/api/games/{gid}/review", params={"seat": 1})
        assert other.status_code == 429 and other.json()["error"] == "review_running"
        assert other.json()["game_id"] == gid and other.json()["seat"] == 0
        # nobody asks any more: within the idle time (1 s) and a decision it stops, keeping nothing
        deadline = time.time() + 20
        while srv.call(lambda: (gid, 0) in reviews.running):
            assert time.time() < deadline, "the abandoned review kept running"
            time.sleep(0.05)
        r = api.http.get(f"/api/games/{gid}/review", params={"seat": 0})
        assert r.status_code == 404 and r.json()["error"] == "no_review"
        assert srv.call(lambda: srv.hub.pool.stats()["queued"]["p2"]) == 0
    finally:
        reviews.budget = "6it"
    # the client is free again
    r = api.http.post(f"/api/games/{gid}/review", params={"seat": 1})
    assert r.status_code == 202
    assert len(wait_review(api, gid, 1, timeout=120)["decisions"]) > 10


def my_decision(api, gid: str, token: str, seat: int, timeout: float = 20.0) -> dict:
    """The state once ``seat`` is to decide (the bots played up to it)."""
    deadline = time.time() + timeout
    while True:
        s = api.get(gid, token, events=False).json()
        d = s["decision"]
        if d and d["player"] == seat and d.get("options") and not d.get("auto"):
            return s
        assert s["status"] != "finished" and time.time() < deadline, "no decision for the seat"
        time.sleep(0.02)


def test_hints_in_practice_only_and_marked_in_record_and_replay(rv):
    from redtable.core import replay

    srv, api = rv
    info, tokens = api.new_game("red-north", ("human", "bot"), seed=12)
    gid = info["game_id"]
    hint = lambda token: api.http.post(f"/api/games/{gid}/hint", headers={"Authorization": f"Bearer {token}"})  # noqa: E731
    s = my_decision(api, gid, tokens[0], 0)
    r = hint(tokens[0])
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["step"] == s["step"] and got["preferred"] in s["decision"]["options"]
    assert got["second"] in s["decision"]["options"] and got["second"] != got["preferred"]
    assert 0.0 <= got["win"] <= 1.0 and 0.0 <= got["win_second"] <= 1.0
    # why: what the preferred option does better than the runner-up, facts the seat can see
    assert isinstance(got["why"], list)
    assert all(c["fact"] in ("vp", "outposts", "champion", "glory", "cards") for c in got["why"])
    assert all(c["preferred"] > c["taken"] for c in got["why"])
    assert api.http.get(f"/api/games/{gid}/hints").json() == {"hints": [{"seat": 0, "step": s["step"]}]}
    assert api.http.post(f"/api/games/{gid}/hint").status_code in (401, 403)  # no seat: no hint
    # play to the end on the hint-free side, then the record says where the hint was used
    for _ in range(500):
        st = api.get(gid, tokens[0], events=False).json()
        if st["status"] == "finished":
            break
        d = st["decision"]
        if d["player"] == 0 and d.get("options"):
            api.decide(gid, tokens[0], d["options"][0], st["version"])
        else:
            time.sleep(0.01)
    rec = api.http.get(f"/api/games/{gid}/record").json()
    assert rec["hints"] == [{"seat": 0, "step": s["step"]}]
    assert replay(GameRecord.from_json(rec)).is_terminal()  # a record with hints still replays (redtable replay)
    # two people at the table: no hints; a rated game neither (not made here: ratings need accounts)
    info2, tokens2 = api.new_game("red-north", ("human", "human"), seed=13)
    s2 = api.state(info2["game_id"])
    p = s2["decision"]["player"]
    r = api.http.post(f"/api/games/{info2['game_id']}/hint", headers={"Authorization": f"Bearer {tokens2[p]}"})
    assert r.status_code == 403 and r.json()["error"] == "hint_not_allowed"
    assert api.http.get(f"/api/games/{info2['game_id']}/hints").json() == {"hints": []}


def test_a_bad_server_budget_is_refused_at_start():
    from redtable.core import RedtableError
    from redtable.server.reviews import Reviews

    with pytest.raises(RedtableError, match="budget"):
        Reviews(None, lambda: None, "fast")
    assert Reviews(None, lambda: None, "400it").budget == "400it"
