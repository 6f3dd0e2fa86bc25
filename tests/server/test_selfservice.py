"""Delete my account and export my data through the API (``selfservice.py``), on SQLite and PostgreSQL.

Two accounts play a game to its end, sit at a second one still running and one still waiting;
the first one exports its data (what the tables hold, as a download; rate-limited), then
deletes its account: refused without the CSRF token, with a wrong password, and without one
once the log-in is old; then done. Afterwards: its session and log-in are gone, its profile and
leaderboard row too, the finished game's record, log and replay still serve the other player
with the seat anonymised, the running game goes on with a bot in the seat, the waiting table's
seat is free again, and no table holds the account's id (``test_selfservice_erase.py`` checks
every column).
"""

from __future__ import annotations

import random
import time
import uuid

import httpx
from sqlalchemy import insert, update
from test_selfservice_erase import holding

from redtable.server.accounts import sessions_table
from redtable.server.ratings import ordinal, ratings_table

PASSWORD = "correct horse battery"


def uname(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def register(c: httpx.Client, name: str) -> dict[str, str]:
    r = c.post("/api/accounts", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


def game(c: httpx.Client, h: dict[str, str]) -> dict:
    body = {"game": "red-rising", "seats": [{"type": "human"}] * 2, "options": {"block_windows": False}}
    r = c.post("/api/games", json=body, headers=h)
    assert r.status_code == 201, r.text
    return r.json()


def sit(c: httpx.Client, h: dict[str, str], g: dict, seat: int) -> str:
    r = c.post(f"/api/games/{g['game_id']}/join", json={"invite": g["seats"][seat]["invite"]}, headers=h)
    assert r.status_code == 200, r.text
    return r.json()["token"]


def play(c: httpx.Client, gid: str, tokens: list[str | None], moves: int | None = None, seed: int = 5) -> dict:
    """Random legal decisions (``moves`` of them, or until the game ends)."""
    rnd = random.Random(seed)
    done = 0
    deadline = time.time() + 120
    while time.time() < deadline:
        st = c.get(f"/api/games/{gid}").json()
        if st["status"] == "finished" or (moves is not None and done >= moves):
            return st
        p = st["decision"]["player"]
        if tokens[p] is None:  # (a bot's turn)
            time.sleep(0.01)
            continue
        mine = c.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[p]}"}).json()
        d = mine["decision"]
        if d is None or d["player"] != p or d.get("auto"):
            time.sleep(0.01)
            continue
        r = c.post(
            f"/api/games/{gid}/decisions",
            json={"action": rnd.choice(d["options"]), "version": mine["version"]},
            headers={"Authorization": f"Bearer {tokens[p]}"},
        )
        done += r.status_code == 200
    raise AssertionError("the game did not end")


def test_export_then_delete_my_account(served):
    srv, _ = served
    store = srv.hub.store
    name, other = uname("Gone"), uname("Stay")
    with httpx.Client(base_url=srv.base, timeout=30) as a, httpx.Client(base_url=srv.base, timeout=30) as b:
        ha, hb = register(a, name), register(b, other)
        done = game(a, ha)
        fin = play(a, done["game_id"], [sit(a, ha, done, 0), sit(b, hb, done, 1)])
        running = game(b, hb)
        tokens = [sit(a, ha, running, 0), sit(b, hb, running, 1)]
        play(a, running["game_id"], tokens, moves=2)
        waiting = game(b, hb)
        sit(a, ha, waiting, 1)
        assert a.get(f"/api/players/{name}").json()["username"] == name
        # ---------------------------------------------------------------- export
        r = a.get("/api/account/export")
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
        assert r.headers["content-disposition"] == f'attachment; filename="redtable-{name}.json"'
        ex = r.json()
        aid = ex["profile"]["id"]
        assert ex["profile"]["username"] == name and ex["email"] is None and len(ex["sessions"]) == 1
        mine = {g["game_id"]: g for g in ex["games"]}
        assert set(mine) == {done["game_id"], running["game_id"], waiting["game_id"]}
        assert mine[done["game_id"]]["status"] == "finished" and mine[done["game_id"]]["seat"] == 0
        assert mine[done["game_id"]]["won"] == (0 in fin["result"]["winners"])
        assert mine[waiting["game_id"]]["seat"] == 1 and mine[waiting["game_id"]]["title"] == "red-rising"
        assert "password_hash" not in r.text and "token" not in r.text
        assert b.get("/api/account/export").json()["profile"]["username"] == other
        with store.engine.begin() as conn:  # a rating on the people's leaderboard
            conn.execute(
                insert(ratings_table).values(
                    player=f"a:{aid}", title="red-rising", account_id=aid, bot=None, mu=40.0, sigma=2.0,
                    ordinal=ordinal(40.0, 2.0), games=12, updated_at=time.time(),
                )
            )  # fmt: skip
        board = lambda: [x["username"] for x in a.get("/api/leaderboard/red-rising").json()["players"]]  # noqa: E731
        assert name in board()
        # ---------------------------------------------------------------- refusals
        r = a.request("DELETE", "/api/account", json={"password": PASSWORD})
        assert r.status_code == 403 and r.json()["error"] == "csrf_failed"
        r = a.request("DELETE", "/api/account", json={"password": "not the password"}, headers=ha)
        assert r.status_code == 403 and r.json()["error"] == "bad_password_check"
        r = a.request("DELETE", "/api/account", json={"password": 7}, headers=ha)
        assert r.status_code == 422
        with store.engine.begin() as conn:
            conn.execute(update(sessions_table).where(sessions_table.c.account_id == aid).values(created_at=0.0))
        r = a.request("DELETE", "/api/account", headers=ha)
        assert r.status_code == 403 and r.json()["error"] == "reauth_required"
        assert a.get("/api/session").json()["username"] == name  # (nothing happened)
        # ---------------------------------------------------------------- delete
        r = a.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=ha)
        assert r.status_code == 200, r.text
        label = r.json()["label"]
        assert label.startswith("deleted player #")
        assert a.get("/api/session").json()["logged_in"] is False
        r = a.post("/api/session", json={"username": name, "password": PASSWORD})
        assert r.status_code == 401 and r.json()["error"] == "bad_login"
        assert a.get(f"/api/players/{name}").status_code == 404
        assert name not in board()
        assert a.get("/api/account/export").status_code == 401
        assert holding(store, aid) == {}
        # the other player's records: the finished game, its log and replay
        st = b.get(f"/api/games/{done['game_id']}").json()
        assert st["status"] == "finished" and [s["name"] for s in st["seats"]] == [label, other]
        assert st["host"]["name"] == label  # (it made the table)
        assert b.get(f"/api/games/{done['game_id']}/log").status_code == 200
        assert b.get(f"/api/games/{done['game_id']}/replay/1").status_code == 200
        assert b.get(f"/api/games/{done['game_id']}/record").status_code == 200
        assert b.get(f"/api/players/{other}").json()["recent"][-1]["game_id"] == done["game_id"]
        # the running game: a bot plays the seat, the other player plays on
        st = b.get(f"/api/games/{running['game_id']}").json()
        assert st["seats"][0]["type"] == "bot" and st["seats"][0]["name"] == label
        r = a.get(f"/api/games/{running['game_id']}", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.status_code == 403 and r.json()["error"] == "bad_token"  # (its device token is revoked)
        version = st["version"]
        play(b, running["game_id"], [None, tokens[1]], moves=2)
        assert b.get(f"/api/games/{running['game_id']}").json()["version"] > version
        # the waiting table: the seat is free again
        st = b.get(f"/api/games/{waiting['game_id']}").json()
        assert st["status"] == "waiting" and st["seats"][1]["joined"] is False and st["seats"][1]["name"] is None
        # the name is free again, for a newcomer with nothing of the old account
        register(a, name)
        assert a.get(f"/api/players/{name}").json()["recent"] == []


def test_export_is_rate_limited_and_needs_a_log_in(served):
    srv, _ = served
    with httpx.Client(base_url=srv.base, timeout=30) as c:
        assert c.get("/api/account/export").status_code == 401
        register(c, uname("Ex"))
        codes = [c.get("/api/account/export").status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        r = c.get("/api/account/export")
        assert r.json()["error"] == "rate_limited" and int(r.headers["retry-after"]) > 0


def test_a_recent_log_in_deletes_without_the_password(served):
    srv, _ = served
    with httpx.Client(base_url=srv.base, timeout=30) as c:
        name = uname("Rc")
        h = register(c, name)
        r = c.request("DELETE", "/api/account", headers=h)
        assert r.status_code == 200 and r.json()["deleted"] is True
        assert c.post("/api/session", json={"username": name, "password": PASSWORD}).status_code == 401
