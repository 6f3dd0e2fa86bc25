"""Ratings (``redtable/server/ratings.py``) on SQLite and PostgreSQL, checked against openskill itself.

A rated game's result moves each account's rating exactly as OpenSkill's Plackett-Luce
computes it here (ties share a place); a second call, or two calls at once, change nothing
more; a bot preset's rating is the shipped fixed one and never moves; the profile and the
leaderboard answer what the tables hold; a rated game played through the API is rated when
it ends; and on a fleet of two processes a rated game is rated exactly once. A game with a preset at
the table moves a separate rating against bots; the people's leaderboard lists accounts with
ten rated games against people, one lately; a game ``fairplay.py`` marked is never rated.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid

import httpx
import orjson
import pytest
from openskill.models import PlackettLuce
from sqlalchemy import func, select
from srvkit import BACKENDS, Backend, require_backend, start_server

from redtable.server import accounts as acc
from redtable.server.ratings import (
    BOT_FILE,
    apply_result,
    bot_data,
    bot_rating,
    history_table,
    pending_games,
    places_of,
    player_key,
    ratings_table,
)
from redtable.server.store import games_table

MODEL = PlackettLuce()
FAKE_HASH = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo"


def expected(before: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """What openskill makes of it, computed here from the library."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(t[0].mu, t[0].sigma) for t in MODEL.rate(teams, ranks=places)]


def make_accounts(st, n: int) -> list[int]:
    return [acc.create_account(st, f"p{uuid.uuid4().hex[:12]}", FAKE_HASH).id for _ in range(n)]


def finished_game(st, seats: list, result: dict, rated: bool = True, title: str = "red-north") -> str:
    """A finished game straight into storage: ``seats`` are account ids or bot presets (str)."""
    gid = uuid.uuid4().hex[:16]
    row = {
        "id": gid,
        "game": title,
        "players": len(seats),
        "seed": 1,
        "options": "{}",
        "settings": orjson.dumps({"rated": rated, "undo": False}).decode(),
        "status": "finished",
        "created_at": time.time(),
        "finished_at": time.time(),
        "result": orjson.dumps(result).decode(),
    }
    seat_rows = [
        {
            "game_id": gid,
            "seat": i,
            "kind": "bot" if isinstance(s, str) else "human",
            "bot": s if isinstance(s, str) else None,
            "name": None,
            "invite_hash": None,
            "token_hash": None,
            "joined_at": time.time(),
            "account_id": None if isinstance(s, str) else s,
        }
        for i, s in enumerate(seats)
    ]
    assert st.write_batch([("game", row, seat_rows)]) == [None]
    return gid


def stored(st, account_id: int, title: str = "red-north", bots: bool = False) -> tuple[float, float, int] | None:
    """An account's rating against people (or ``bots``) in ``title``: (mu, sigma, games)."""
    r = ratings_table.c
    with st.engine.connect() as conn:
        row = conn.execute(
            select(r.mu, r.sigma, r.games).where(r.player == player_key(account_id, bots), r.title == title)
        ).first()
    return (row.mu, row.sigma, row.games) if row else None


def history_rows(st, game_id: str) -> int:
    with st.engine.connect() as conn:
        return conn.execute(
            select(func.count()).select_from(history_table).where(history_table.c.game_id == game_id)
        ).scalar_one()


# ---------------------------------------------------------------------- places
def test_places_from_results():
    assert places_of({"scores": [10, 20, 15], "winners": [1]}, 3) == [3, 1, 2]
    assert places_of({"scores": [9, 9], "winners": [1]}, 2) == [2, 1]  # a tie-breaker leaves the other behind
    assert places_of({"scores": [9, 9, 4], "winners": [0, 1]}, 3) == [1, 1, 3]  # shared win
    assert places_of({"scores": [30, 9, 9, 4], "winners": [0]}, 4) == [1, 2, 2, 4]  # equal scores tie
    assert places_of({"scores": [30, 9, 20], "winners": [0], "forfeited": [0]}, 3) == [3, 2, 1]
    assert places_of({"scores": [1, 2, 3], "winners": [2], "forfeited": [0, 1]}, 3) == [2, 2, 1]
    assert places_of({"ranks": [2, 1, 2]}, 3) == [2, 1, 2]
    for bad in ({"ranks": [0, 1]}, {"ranks": [1]}, {"ranks": [1, True]}, {"scores": [1, 2, 3], "winners": []}):
        with pytest.raises(ValueError):
            places_of(bad, 2)


def test_the_shipped_bot_ratings_name_their_command_and_every_preset():
    data = bot_data()
    from redtable.server.botpool import PRESETS

    assert "bench/rate_bots.py" in data["command"] and data["games_per_title"] >= 1
    for title in ("red-rising", "red-north"):
        # every preset the server offers is rated (the expert added with --add against the others)
        assert set(data["ratings"][title]) == set(PRESETS)
        assert "--add expert:1s" in data["added"]["expert:1s"]
        for v in data["ratings"][title].values():
            assert v["sigma"] > 0 and v["games"] >= 0
    assert BOT_FILE.name == "bot_ratings.json"


# ---------------------------------------------------------------------- applying a result
def test_exact_numbers_and_only_once(backend):
    st = backend.store()
    a, b, c = make_accounts(st, 3)
    result = {"scores": [5.0, 11.0, 8.0], "winners": [1]}
    gid = finished_game(st, [a, b, c], result)
    out = apply_result(st, gid)
    assert out is not None and out["places"] == [3, 1, 2]
    want = expected([(25.0, 25 / 3)] * 3, [3, 1, 2])
    for acct, (mu, sigma) in zip((a, b, c), want, strict=True):
        got = stored(st, acct)
        assert got is not None
        assert got[0] == pytest.approx(mu, abs=1e-9) and got[1] == pytest.approx(sigma, abs=1e-9) and got[2] == 1
    assert apply_result(st, gid) is None  # once
    assert history_rows(st, gid) == 3 and stored(st, a)[2] == 1
    # the next game starts from the stored ratings
    gid2 = finished_game(st, [c, a], {"scores": [3.0, 7.0], "winners": [1]})
    apply_result(st, gid2)
    want2 = expected([want[2], want[0]], [2, 1])
    assert stored(st, c)[:2] == pytest.approx(want2[0], abs=1e-9)
    assert stored(st, a)[:2] == pytest.approx(want2[1], abs=1e-9)
    assert stored(st, a)[2] == 2 and stored(st, b)[2] == 1
    with st.engine.connect() as conn:
        assert conn.execute(select(games_table.c.rated_at).where(games_table.c.id == gid)).scalar_one() is not None
    st.dispose()


def test_ties_share_a_place(backend):
    st = backend.store()
    a, b, c = make_accounts(st, 3)
    gid = finished_game(st, [a, b, c], {"scores": [9.0, 9.0, 4.0], "winners": [0, 1]})
    assert apply_result(st, gid)["places"] == [1, 1, 3]
    want = expected([(25.0, 25 / 3)] * 3, [1, 1, 3])
    assert stored(st, a)[:2] == pytest.approx(want[0], abs=1e-9)
    assert stored(st, b)[:2] == pytest.approx(want[1], abs=1e-9)
    assert stored(st, a)[0] == pytest.approx(stored(st, b)[0], abs=1e-12)  # tied: moved alike
    st.dispose()


def test_bots_play_at_their_fixed_rating_and_never_move(backend):
    """A game against a preset moves the account's rating against bots, never the one against people."""
    st = backend.store()
    (a,) = make_accounts(st, 1)
    title = "red-rising"
    bot_mu, bot_sigma = bot_rating(title, "heuristic")
    for n in range(2):
        gid = finished_game(st, ["heuristic", a], {"scores": [100.0, 120.0], "winners": [1]}, title=title)
        before = stored(st, a, title, bots=True)
        assert apply_result(st, gid)["against_bots"] is True
        start = before[:2] if before else (25.0, 25 / 3)
        want = expected([(bot_mu, bot_sigma), start], [2, 1])
        assert stored(st, a, title, bots=True)[:2] == pytest.approx(want[1], abs=1e-9)
        assert stored(st, a, title, bots=True)[2] == n + 1
        assert stored(st, a, title) is None  # the rating against people: untouched
        assert bot_rating(title, "heuristic") == (bot_mu, bot_sigma)
        assert history_rows(st, gid) == 1  # the person's only
    r = ratings_table.c
    with st.engine.connect() as conn:  # no row of a bot was written by a game
        assert conn.execute(select(func.count()).select_from(ratings_table).where(r.bot.isnot(None))).scalar_one() == 0
    st.dispose()


def test_unrated_unfinished_and_guest_games_are_left_alone(backend):
    st = backend.store()
    a, b = make_accounts(st, 2)
    gid = finished_game(st, [a, b], {"scores": [1.0, 2.0], "winners": [1]}, rated=False)
    assert apply_result(st, gid) is None and stored(st, a) is None
    assert apply_result(st, "no-such-game") is None
    gid = finished_game(st, [a, b], {"scores": [1.0, 2.0], "winners": [1]})
    with st.engine.begin() as conn:
        conn.execute(games_table.update().where(games_table.c.id == gid).values(status="active"))
    assert apply_result(st, gid) is None and stored(st, a) is None
    assert pending_games(st) == []  # (not finished)
    st.dispose()


def test_two_concurrent_calls_rate_once(backend):
    """Two processes' calls at once: the conditional UPDATE lets exactly one through."""
    st1, st2 = backend.store(), backend.store()
    accounts = make_accounts(st1, 4)
    for _ in range(3):
        gid = finished_game(st1, accounts, {"scores": [4.0, 3.0, 2.0, 1.0], "winners": [0]})
        assert pending_games(st1) == [gid]
        outs: list = [None, None]
        go = threading.Barrier(2)

        def call(i: int, st, gid: str = gid, go: threading.Barrier = go, outs: list = outs) -> None:
            go.wait()
            outs[i] = apply_result(st, gid)

        threads = [threading.Thread(target=call, args=(i, s)) for i, s in enumerate((st1, st2))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sum(o is not None for o in outs) == 1, outs
        assert history_rows(st1, gid) == 4
        assert pending_games(st1) == []
    assert [stored(st1, x)[2] for x in accounts] == [3, 3, 3, 3]
    st1.dispose()
    st2.dispose()


def test_farming_a_bot_never_reaches_the_peoples_leaderboard(backend):
    """100 wins against ``random`` (the farm the issue measured): a rating against bots that
    the profile shows beside the presets', and no row on the people's leaderboard."""
    from redtable.server.players import leaderboard, profile

    st = backend.store()
    (a,) = make_accounts(st, 1)
    for _ in range(100):
        apply_result(st, finished_game(st, ["random", a], {"scores": [1.0, 9.0], "winners": [1]}))
    mu, sigma, games = stored(st, a, bots=True)
    assert games == 100 and mu - 3 * sigma > 20  # (it would have topped the board: above every bot)
    assert stored(st, a) is None
    board = leaderboard(st, "red-north", 100, 0)
    assert all(x["is_bot"] for x in board["players"]) and board["total"] == len(bot_data()["ratings"]["red-north"])
    name = board_name(st, a)
    prof = profile(st, name)
    assert prof["ratings"] == {} and prof["bot_ratings"]["red-north"]["games"] == 100
    assert set(prof["presets"]["red-north"]) == set(bot_data()["ratings"]["red-north"])
    assert len(prof["bot_history"]["red-north"]) == 100 and prof["history"] == {}
    st.dispose()


def board_name(st, account_id: int) -> str:
    with st.engine.connect() as conn:
        return conn.execute(select(acc.accounts_table.c.username).where(acc.accounts_table.c.id == account_id)).scalar()


def test_the_peoples_leaderboard_lists_ten_rated_games_against_people_one_lately(backend):
    from redtable.server.players import leaderboard

    st = backend.store()
    a, b = make_accounts(st, 2)

    def listed() -> dict[str, dict]:
        return {x["username"]: x for x in leaderboard(st, "red-north", 100, 0)["players"] if not x["is_bot"]}

    for n in range(10):
        assert listed() == {}, n  # fewer than ten games against people
        apply_result(st, finished_game(st, [a, b], {"scores": [2.0, 1.0], "winners": [n % 3 == 0]}))
    got = listed()
    assert set(got) == {board_name(st, a), board_name(st, b)} and all(x["games"] == 10 for x in got.values())
    for x in got.values():
        assert x["provisional"] is (x["sigma"] > 6.0)
    assert any(x["provisional"] for x in got.values())  # (ten games leave sigma above 6: not vacuous)
    with st.engine.begin() as conn:  # no rated game in 90 days: off the board
        conn.execute(
            ratings_table.update()
            .where(ratings_table.c.player == player_key(a, False))
            .values(updated_at=time.time() - 91 * 86400)
        )
    assert set(listed()) == {board_name(st, b)}
    st.dispose()


def test_a_game_fairplay_marked_unrated_is_never_rated(backend):
    from redtable.server.fairplay import unrated_table

    st = backend.store()
    a, b = make_accounts(st, 2)
    gid = finished_game(st, [a, b], {"scores": [2.0, 1.0], "winners": [0]})
    with st.engine.begin() as conn:
        conn.execute(unrated_table.insert().values(game_id=gid, reason="same_network", at=time.time()))
    assert apply_result(st, gid) is None and stored(st, a) is None and stored(st, b) is None
    assert pending_games(st) == []  # (looked at once: not again at every start)
    st.dispose()


# ---------------------------------------------------------------------- through the API
def register(c: httpx.Client, name: str) -> dict[str, str]:
    r = c.post("/api/accounts", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


def play_out(http: httpx.Client, gid: str, tokens: list[str | None], seed: int = 3) -> dict:
    """Random legal decisions for the people's seats until the game ends (bots and windows play themselves)."""
    rnd = random.Random(seed)
    deadline = time.time() + 120
    while time.time() < deadline:
        st = http.get(f"/api/games/{gid}").json()
        if st["status"] == "finished":
            return st
        p = st["decision"]["player"]
        if tokens[p] is None:
            time.sleep(0.02)
            continue
        mine = http.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[p]}"}).json()
        d = mine["decision"]
        if d is None or d["player"] != p or d.get("auto"):
            time.sleep(0.02)
            continue
        http.post(
            f"/api/games/{gid}/decisions",
            json={"action": rnd.choice(d["options"]), "version": mine["version"]},
            headers={"Authorization": f"Bearer {tokens[p]}"},
        )
    raise AssertionError("the game did not end")


def wait_rated(http: httpx.Client, name: str, title: str, games: int, which: str = "ratings") -> dict:
    deadline = time.time() + 20
    while time.time() < deadline:
        prof = http.get(f"/api/players/{name}").json()
        if prof[which].get(title, {}).get("games") == games:
            return prof
        time.sleep(0.05)
    raise AssertionError(f"{name} was not rated")


@pytest.fixture(scope="module", params=BACKENDS)
def trusted(request, tmp_path_factory):
    """A server that takes the client address from X-Forwarded-For: two people on two networks."""
    from dataclasses import replace

    from redtable.server.limits import Limits

    require_backend(request.param)
    b = Backend(request.param, tmp_path_factory.mktemp("srv"))
    srv = start_server(b, limits=replace(Limits().relaxed(), trust_proxy=True))
    yield srv
    srv.stop()
    b.cleanup()


def client(base: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=20, headers={"X-Forwarded-For": address})


CLOCK = {"kind": "realtime", "bank_s": 3600, "increment_s": 0}


def test_a_rated_game_through_the_api_profile_and_leaderboard(trusted):
    """A rated game with a preset at the table: each account's rating against bots moves (the
    profile shows it beside the presets'), nothing reaches the people's leaderboard."""
    srv = trusted
    names = [f"Api{uuid.uuid4().hex[:8]}", f"Bpi{uuid.uuid4().hex[:8]}"]
    with client(srv.base, "192.0.2.10") as a, client(srv.base, "192.0.2.11") as b:
        ha, hb = register(a, names[0]), register(b, names[1])
        body = {
            "game": "red-north",
            "seats": [{"type": "human"}, {"type": "bot", "bot": "heuristic"}, {"type": "human"}],
            "rated": True,
            "clock": CLOCK,
        }
        g = a.post("/api/games", json=body, headers=ha).json()
        gid = g["game_id"]
        t0 = a.post(f"/api/games/{gid}/join", json={"invite": g["seats"][0]["invite"]}, headers=ha).json()["token"]
        t2 = b.post(f"/api/games/{gid}/join", json={"invite": g["seats"][2]["invite"]}, headers=hb).json()["token"]
        final = play_out(a, gid, [t0, None, t2])
        listed = {x["id"]: x for x in a.get("/api/games", params={"status": "finished", "limit": 500}).json()}
        assert listed[gid]["rated"] is True
        places = places_of(final["result"], 3)
        want = expected([(25.0, 25 / 3), bot_rating("red-north", "heuristic"), (25.0, 25 / 3)], places)
        for name, seat in ((names[0], 0), (names[1], 2)):
            prof = wait_rated(a, name, "red-north", 1, "bot_ratings")
            assert prof["ratings"] == {} and prof["history"] == {}
            assert prof["presets"]["red-north"]["heuristic"]["mu"] == pytest.approx(
                bot_rating("red-north", "heuristic")[0]
            )
            r = prof["bot_ratings"]["red-north"]
            assert r["provisional"] is True
            assert r["mu"] == pytest.approx(want[seat][0], abs=1e-5)
            assert r["sigma"] == pytest.approx(want[seat][1], abs=1e-5)
            assert r["ordinal"] == pytest.approx(want[seat][0] - 3 * want[seat][1], abs=1e-5)
            (point,) = prof["bot_history"]["red-north"]
            assert point["game_id"] == gid and point["place"] == places[seat] and point["mu_before"] == 25.0
            assert prof["stats"] == [
                {"game": "red-north", "players": 3, "played": 1, "won": int(seat in final["result"]["winners"])}
            ]
            (recent,) = prof["recent"]
            assert recent["game_id"] == gid and recent["rated"] is True and recent["url"] == f"/#/replay/{gid}"
            assert recent["seat"] == seat and recent["won"] == (seat in final["result"]["winners"])
        assert a.get(f"/api/players/{names[0].lower()}").json()["username"] == names[0]  # any case
        board = a.get("/api/leaderboard/red-north", params={"limit": 100}).json()
        rows = board["players"]
        assert [x["ordinal"] for x in rows] == sorted((x["ordinal"] for x in rows), reverse=True)
        assert [x["rank"] for x in rows] == list(range(1, len(rows) + 1))
        bots = {x["bot"]: x for x in rows if x["is_bot"]}
        assert set(bots) == set(bot_data()["ratings"]["red-north"])
        assert bots["heuristic"]["mu"] == pytest.approx(bot_rating("red-north", "heuristic")[0], abs=1e-6)
        assert all(x["username"] is None for x in bots.values())
        people = {x["username"] for x in rows if not x["is_bot"]}
        assert not people & set(names)  # (a rating against bots: never on the people's board)
        page = a.get("/api/leaderboard/red-north", params={"limit": 2, "offset": 1}).json()
        assert [x["rank"] for x in page["players"]] == [2, 3] and page["total"] == board["total"]


def test_profile_and_leaderboard_refusals(served):
    srv, api = served
    r = api.http.get("/api/players/nobody-here")
    assert r.status_code == 404 and r.json()["error"] == "unknown_player"
    assert api.http.get("/api/players/" + "x" * 60).status_code == 404
    r = api.http.get("/api/leaderboard/chess")
    assert r.status_code == 404 and r.json()["error"] == "unknown_title" and "red-north" in r.json()["games"]
    for params in ({"limit": 0}, {"limit": 101}, {"offset": -1}, {"offset": 10_001}, {"limit": "many"}):
        r = api.http.get("/api/leaderboard/red-rising", params=params)
        assert r.status_code == 422 and r.json()["error"] == "malformed"


# ---------------------------------------------------------------------- a fleet of two processes
@pytest.mark.multiprocess
def test_a_rated_game_finished_on_one_of_two_processes_is_rated_once(schema, tmp_path):
    from fleetkit import Proc, Seat, Table

    procs = [Proc(schema, tmp_path / f"server{i}.log", extra=["--trust-proxy"]).start() for i in range(2)]
    try:
        a_http = client(procs[0].base, "192.0.2.20")
        b_http = client(procs[1].base, "192.0.2.21")
        names = [f"Fa{uuid.uuid4().hex[:8]}", f"Fb{uuid.uuid4().hex[:8]}"]
        ha, hb = register(a_http, names[0]), register(b_http, names[1])
        g = a_http.post(
            "/api/games",
            json={"game": "red-north", "seats": [{"type": "human"}] * 2, "rated": True, "clock": CLOCK},
            headers=ha,
        ).json()
        gid = g["game_id"]
        t0 = a_http.post(f"/api/games/{gid}/join", json={"invite": g["seats"][0]["invite"]}, headers=ha).json()
        t1 = b_http.post(f"/api/games/{gid}/join", json={"invite": g["seats"][1]["invite"]}, headers=hb).json()
        table = Table(gid, [t0["token"], t1["token"]])
        table.seats = [Seat(table, 0, t0["token"], procs[0]), Seat(table, 1, t1["token"], procs[1])]

        async def main() -> None:
            await asyncio.wait_for(asyncio.gather(*(s.run() for s in table.seats)), 120)

        asyncio.run(main())
        result = table.seats[0].last["result"]
        places = places_of(result, 2)
        want = expected([(25.0, 25 / 3)] * 2, places)
        for i, name in enumerate(names):
            prof = wait_rated(b_http if i else a_http, name, "red-north", 1)
            assert prof["ratings"]["red-north"]["mu"] == pytest.approx(want[i][0], abs=1e-5)
        time.sleep(1.0)  # both processes heard of the end: the second had nothing left to do
        st = Backend("postgresql", None)
        st.schema = schema
        store = st.store()
        assert history_rows(store, gid) == 2
        for name in names:
            prof = a_http.get(f"/api/players/{name}").json()
            assert prof["ratings"]["red-north"]["games"] == 1 and len(prof["history"]["red-north"]) == 1
        store.dispose()
        a_http.close()
        b_http.close()
    finally:
        for p in procs:
            p.stop()
