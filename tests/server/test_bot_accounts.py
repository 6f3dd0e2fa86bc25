"""Bot accounts and API tokens (``redtable/server/botaccounts.py``) on SQLite and PostgreSQL.

An account becomes a bot account only while it has never played; its API tokens are shown
once, stored as their sha256 only, scoped (a ``read`` token writes nothing, ``bot:play`` is a
bot's), revocable, listed by prefix, refused in a URL and never written to the server's log.
A person challenges a bot account at a rated table; the example client
(``examples/bot_client.py``) accepts and plays it to the end over the seat's WebSocket; the
game rates the bot on the bot leaderboard (with the presets) and never on the people's.
"""

from __future__ import annotations

import importlib.util
import logging
import random
import threading
import time
from pathlib import Path

import httpx
import orjson
import pytest
from sqlalchemy import select
from tablekit import Account, until

from redtable.server.botaccounts import api_tokens_table

ROOT = Path(__file__).resolve().parents[2]
CLOCK = {"kind": "realtime", "bank_s": 3600, "increment_s": 0}


def example_client():
    spec = importlib.util.spec_from_file_location("bot_client", ROOT / "examples" / "bot_client.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def make_bot(base: str) -> Account:
    bot = Account(base)
    r = bot.http.post("/api/account/bot")
    assert r.status_code == 200 and r.json()["bot"] is True, r.text
    return bot


def new_token(who: Account, scopes: list[str], label: str = "my program") -> dict:
    r = who.http.post("/api/account/tokens", json={"label": label, "scopes": scopes})
    assert r.status_code == 201, r.text
    return r.json()


def as_token(base: str, token: str) -> httpx.Client:
    """A program's client: the token in its header, no cookie."""
    return httpx.Client(base_url=base, timeout=20, headers={"Authorization": f"Bearer {token}"})


def test_tokens_are_hashed_scoped_listed_by_prefix_and_revocable(tables):
    srv, api = tables
    person, bot = Account(srv.base), make_bot(srv.base)
    try:
        # a person who played cannot become a bot (an admin can: redtable admin bot)
        g = person.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2}).json()
        assert person.http.post(f"/api/games/{g['game_id']}/join", json={"invite": g["seats"][0]["invite"]}).is_success
        r = person.http.post("/api/account/bot")
        assert r.status_code == 409 and r.json()["error"] == "bot_after_games"
        r = person.http.post("/api/account/tokens", json={"label": "x", "scopes": ["bot:play"]})
        assert r.status_code == 403 and r.json()["error"] == "not_bot_account"
        r = person.http.post("/api/account/tokens", json={"label": "x", "scopes": ["admin"]})
        assert r.status_code == 422 and r.json()["error"] == "bad_scope"
        assert (
            bot.http.post("/api/account/tokens", json={"label": "x", "scopes": ["read"], "token": "a"}).status_code
            == 422
        )
        assert bot.http.post("/api/account/bot").json()["made"] is False  # (once is enough)

        play = new_token(bot, ["bot:play"])
        read = new_token(bot, ["read"], "reader")
        token = play["token"]
        assert token.startswith("rtb_") and play["prefix"] == token[: len(play["prefix"])] and len(token) > 40
        listed = bot.http.get("/api/account/tokens").json()
        assert listed["bot"] is True
        assert [(t["id"], t["label"], t["scopes"]) for t in listed["tokens"]] == [
            (read["id"], "reader", ["read"]),
            (play["id"], "my program", ["bot:play"]),
        ]
        assert token not in str(listed) and all("token" not in t for t in listed["tokens"])
        with srv.hub.store.engine.connect() as conn:  # storage keeps the sha256 only
            rows = conn.execute(select(api_tokens_table)).all()
        assert not any(token in str(tuple(r)) or read["token"] in str(tuple(r)) for r in rows)
        assert {r.token_hash for r in rows} >= {__import__("hashlib").sha256(token.encode()).hexdigest()}

        with as_token(srv.base, token) as prog, as_token(srv.base, read["token"]) as reader:
            assert prog.get("/api/bot/account").json() == {"username": bot.name, "bot": True}
            assert until(lambda: bot.http.get("/api/account/tokens").json()["tokens"][1]["last_used_at"])
            # never in a URL (not even beside the header)
            r = httpx.get(f"{srv.base}/api/bot/account", params={"token": token})
            assert r.status_code == 400 and r.json()["error"] == "token_in_url"
            # a read token reads, writes nothing
            assert reader.get("/api/invitations").status_code == 200
            r = reader.post(f"/api/games/{g['game_id']}/sit", json={})
            assert r.status_code == 403 and r.json()["error"] == "token_scope"
            # a token manages no tokens and makes no bot
            r = prog.post("/api/account/tokens", json={"label": "more", "scopes": ["read"]})
            assert r.status_code == 403 and r.json()["error"] == "session_required"
            assert prog.get("/api/account/tokens").json()["error"] == "session_required"
            # revoked: refused from the next request
            assert bot.http.delete(f"/api/account/tokens/{play['id']}").json() == {"revoked": play["id"]}
            r = prog.get("/api/bot/account")
            assert r.status_code == 401 and r.json()["error"] == "bad_api_token"
            assert bot.http.delete(f"/api/account/tokens/{play['id']}").json()["error"] == "unknown_api_token"
            assert person.http.delete(f"/api/account/tokens/{read['id']}").status_code == 404  # (not theirs)
        with as_token(srv.base, "rtb_" + "x" * 43) as nobody:
            assert nobody.get("/api/invitations").json()["error"] == "bad_api_token"
    finally:
        person.close()
        bot.close()


def play_person(http: httpx.Client, gid: str, token: str, seat: int, seed: int = 3) -> dict:
    """Random legal decisions for the person's seat until the game ends."""
    rnd = random.Random(seed)
    deadline = time.time() + 120
    auth = {"Authorization": f"Bearer {token}"}
    while time.time() < deadline:
        st = http.get(f"/api/games/{gid}", headers=auth).json()
        if st["status"] not in ("active", "waiting"):  # (waiting: for the bot to take its seat)
            return st
        d = st["decision"]
        if d is None or d["player"] != seat or d.get("auto") or "options" not in d:
            time.sleep(0.02)
            continue
        http.post(
            f"/api/games/{gid}/decisions",
            json={"action": rnd.choice(d["options"]), "version": st["version"]},
            headers=auth,
        )
    raise AssertionError("the game did not end")


def test_a_person_challenges_a_bot_account_and_the_example_client_plays_it_rated(tables):
    srv, _ = tables
    person, bot = Account(srv.base), make_bot(srv.base)
    token = new_token(bot, ["bot:play"])["token"]
    mod = example_client()
    client = mod.BotClient(srv.base, token, mod.random_policy, seed=5)
    try:
        body = {
            "game": "red-north",
            "seats": [{"type": "human"}, {"type": "human"}, {"type": "bot", "bot": "random"}],
            "rated": True,
            "clock": CLOCK,
        }
        g = person.http.post("/api/games", json=body)
        assert g.status_code == 201, g.text
        info = g.json()
        gid = info["game_id"]
        mine = person.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][0]["invite"]}).json()["token"]
        # a bot account is challenged without following it
        r = person.http.post(
            f"/api/games/{gid}/friend-invites",
            json={"username": bot.name, "seat": 1},
            headers={"Authorization": f"Bearer {info['creator_key']}"},
        )
        assert r.status_code == 201, r.text
        assert client.whoami() == {"username": bot.name, "bot": True}
        seat = until(lambda: client.next_seat(open_tables=False), what="the challenge")
        assert seat["game_id"] == gid and seat["seat"] == 1 and seat["name"] == bot.name
        out: dict = {}
        t = threading.Thread(target=lambda: out.update(client.play(seat)), daemon=True)
        t.start()
        final = play_person(person.http, gid, mine, 0)
        t.join(60)
        assert not t.is_alive() and out["status"] == "finished" == final["status"]

        # rated: the bot on the bot board with the presets, the person's rating against bots
        def rated():
            board = person.http.get("/api/leaderboard/red-north/bots", params={"limit": 100}).json()
            return board if any(x["username"] == bot.name for x in board["players"]) else None

        board = until(rated, what="the bot's rating")
        (me,) = [x for x in board["players"] if x["username"] == bot.name]
        assert me["bot_account"] is True and me["games"] == 1 and me["preset"] is None
        assert {x["preset"] for x in board["players"] if not x["bot_account"]} >= {"random", "heuristic"}
        ords = [x["ordinal"] for x in board["players"]]
        assert ords == sorted(ords, reverse=True)
        people = person.http.get("/api/leaderboard/red-north", params={"limit": 100}).json()["players"]
        assert bot.name not in {x["username"] for x in people}
        prof = person.http.get(f"/api/players/{person.name}").json()
        assert prof["bot_ratings"]["red-north"]["games"] == 1 and prof["ratings"] == {}
        assert person.http.get("/api/leaderboard/red-north/bots").json()["players"]  # (default page)
        assert person.http.get("/api/leaderboard/nope/bots").json()["error"] == "unknown_title"
    finally:
        client.close()
        person.close()
        bot.close()


def test_a_bot_sits_at_an_open_table_and_plays_its_seat_with_its_api_token(tables):
    srv, _ = tables
    person, bot = Account(srv.base), make_bot(srv.base)
    play, read = new_token(bot, ["bot:play"])["token"], new_token(bot, ["read"])["token"]
    try:
        body = {"game": "red-north", "seats": [{"type": "human"}, {"type": "human"}], "open": True}
        info = person.http.post("/api/games", json=body).json()
        gid = info["game_id"]
        mine = person.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][0]["invite"]}).json()["token"]
        assert person.http.get(f"/api/games/{gid}/bots").json()["bot_game"] is False
        with as_token(srv.base, play) as prog, as_token(srv.base, read) as reader:
            assert gid in [t["game_id"] for t in prog.get("/api/tables").json()]
            sat = prog.post(f"/api/games/{gid}/sit", json={})
            assert sat.status_code == 200, sat.text
            seat = sat.json()["seat"]
            assert seat == 1 and sat.json()["name"] == bot.name
            marked = person.http.get(f"/api/games/{gid}/bots").json()
            assert marked == {"game_id": gid, "bot_game": True, "bot_seats": [{"seat": 1, "username": bot.name}]}
            st = reader.get(f"/api/games/{gid}").json()  # read as its seat with the account's token
            assert st["seat"] == seat and st["status"] == "active"
            auth = {"Authorization": f"Bearer {mine}"}
            until(lambda: person.http.get(f"/api/games/{gid}", headers=auth).json()["decision"]["player"] in (0, 1))
            # whoever decides first: the bot's decision over HTTP with its API token
            while True:
                st = prog.get(f"/api/games/{gid}").json()
                d = st["decision"]
                if d["player"] == seat and "options" in d and not d.get("auto"):
                    break
                other = person.http.get(f"/api/games/{gid}", headers=auth).json()
                od = other["decision"]
                if od["player"] == 0 and "options" in od and not od.get("auto"):
                    v = other["version"]
                    assert person.http.post(
                        f"/api/games/{gid}/decisions", json={"action": od["options"][0], "version": v}, headers=auth
                    ).is_success
            r = reader.post(f"/api/games/{gid}/decisions", json={"action": d["options"][0], "version": st["version"]})
            assert r.status_code == 403 and r.json()["error"] == "token_scope"  # (a read token decides nothing)
            r = prog.post(f"/api/games/{gid}/decisions", json={"action": d["options"][0], "version": st["version"]})
            assert r.status_code == 200 and r.json()["version"] == st["version"] + 1, r.text
            # the WebSocket: the bot:play token authenticates as the seat; a read token, a stranger's: refused
            ws_url = srv.base.replace("http", "ws", 1) + f"/api/games/{gid}/ws"
            from websockets.sync.client import connect

            for tok, want in ((play, ("state", seat)), (read, ("error", "token_scope"))):
                with connect(ws_url) as ws:
                    ws.send(orjson.dumps({"type": "auth", "token": tok}).decode())
                    msg = orjson.loads(ws.recv(timeout=10))
                    assert (msg["type"], msg.get("seat") if want[0] == "state" else msg.get("error")) == want
            # or in the handshake's header, with an auth message that names no token
            with connect(ws_url, additional_headers={"Authorization": f"Bearer {play}"}) as ws:
                ws.send('{"type": "auth"}')
                msg = orjson.loads(ws.recv(timeout=10))
                assert msg["type"] == "state" and msg["seat"] == seat
        stranger = make_bot(srv.base)
        other = new_token(stranger, ["bot:play"])["token"]
        with connect(ws_url) as ws:
            ws.send(orjson.dumps({"type": "auth", "token": other}).decode())
            assert orjson.loads(ws.recv(timeout=10))["error"] == "bad_token"
        with as_token(srv.base, other) as prog2:
            assert prog2.get(f"/api/games/{gid}").json()["seat"] is None  # (it watches, as a spectator)
            r = prog2.post(f"/api/games/{gid}/decisions", json={"action": "x", "version": 1})
            assert r.status_code == 403 and r.json()["error"] == "bad_token"
        stranger.close()
    finally:
        person.close()
        bot.close()


def test_api_tokens_never_reach_the_server_log(backend, caplog):
    """A server that logs every request (and everything at DEBUG): a bot's program works with its
    token, in the header, in a WebSocket's auth message, and once in a URL (refused); no log line
    holds it."""
    from srvkit import start_server
    from websockets.sync.client import connect

    srv = start_server(backend, log_requests=True)
    try:
        with caplog.at_level(logging.DEBUG, logger="redtable"), caplog.at_level(logging.DEBUG, logger="uvicorn"):
            bot = make_bot(srv.base)
            token = new_token(bot, ["bot:play"])["token"]
            with as_token(srv.base, token) as prog:
                assert prog.get("/api/bot/account").status_code == 200
                assert prog.get("/api/invitations").status_code == 200
                assert prog.get("/api/bot/account", params={"token": token}).json()["error"] == "token_in_url"
            g = bot.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2}).json()
            with connect(srv.base.replace("http", "ws", 1) + f"/api/games/{g['game_id']}/ws") as ws:
                ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
                assert orjson.loads(ws.recv(timeout=10))["error"] == "bad_token"  # (no seat of that game)
            bot.close()
        server = [r for r in caplog.records if r.name.startswith(("redtable", "uvicorn"))]
        assert sum(r.name == "redtable.access" for r in server) >= 4  # (the log was on: not vacuous)
        assert not [r.getMessage() for r in server if token in r.getMessage() or token in str(r.__dict__)]
    finally:
        srv.stop()


def test_an_admin_makes_a_bot_account_from_the_command_line_even_after_games(backend):
    from typer.testing import CliRunner

    from redtable.server import accounts as acc
    from redtable.server import botaccounts as ba
    from redtable.server import moderation as mod
    from redtable.server.admincli import admin_app
    from redtable.server.store import seats_table

    store = backend.store()
    try:
        a = acc.create_account(store, f"b{__import__('uuid').uuid4().hex[:8]}", "x")
        with store.engine.begin() as conn:  # it held a seat: its owner may no longer make it a bot
            conn.execute(seats_table.insert().values(game_id="g1", seat=0, kind="human", account_id=a.id))
        with pytest.raises(ba.ApiError) as e:
            ba.make_bot(store, a.id, "owner")
        assert e.value.code == "bot_after_games" and not ba.is_bot(store, a.id)
        run = CliRunner().invoke(admin_app, ["bot", a.username.upper(), *backend.cli_args()])
        assert run.exit_code == 0 and "is now a bot account" in run.output, run.output
        assert ba.is_bot(store, a.id) and mod.audit(store)[0]["action"] == "bot"
        again = CliRunner().invoke(admin_app, ["bot", a.username, *backend.cli_args()])
        assert "was a bot account already" in again.output
        gone = CliRunner().invoke(admin_app, ["bot", "nobody-here", *backend.cli_args()])
        assert gone.exit_code == 2 and "no account named" in gone.output
    finally:
        store.dispose()


def test_a_bot_game_rates_the_bot_account_apart_undoes_so_and_erasure_takes_its_tokens(backend):
    """Storage alone: a finished rated game of a person and a bot account moves the bot's ``o:`` row
    and the person's rating against bots; a moderator's undo replays with the same keys; erasing
    the bot account deletes its bot row and its tokens."""
    from test_ratings import finished_game, make_accounts

    from redtable.server import botaccounts as ba
    from redtable.server import moderation as mod
    from redtable.server.erasure import erase
    from redtable.server.ratings import apply_result, ratings_table

    st = backend.store()
    try:
        person, bot = make_accounts(st, 2)
        assert ba.make_bot(st, bot, "admin", force=True)
        gid = finished_game(st, [person, bot], {"scores": [1.0, 2.0], "winners": [1]})
        got = apply_result(st, gid)
        assert got is not None and got["bot_game"] is True and got["against_bots"] is True

        def rows() -> dict[str, int]:
            with st.engine.connect() as conn:
                r = ratings_table.c
                return {
                    x.player: x.games for x in conn.execute(select(r.player, r.games).where(r.account_id.isnot(None)))
                }

        assert rows() == {f"o:{bot}": 1, f"v:{person}": 1}
        keep = finished_game(st, [person, bot], {"scores": [2.0, 1.0], "winners": [0]})
        assert apply_result(st, keep) is not None
        undone = mod.undo_ratings(st, gid)
        assert set(undone["changed"]) == {f"o:{bot}", f"v:{person}"}
        assert rows() == {f"o:{bot}": 1, f"v:{person}": 1}  # (the other game's alone, same keys)
        made = ba.create_token(st, bot, "x", ["bot:play"])
        assert ba.token_account(st, made["token"], "bot:play") is not None
        assert erase(st, bot) is not None
        assert ba.token_account(st, made["token"], "read") is None and not ba.is_bot(st, bot)
        assert ba.list_tokens(st, bot) == [] and f"o:{bot}" not in rows()
    finally:
        st.dispose()


def test_a_bot_account_takes_quick_play_with_its_token_and_the_table_is_a_bot_game(tables):
    srv, _ = tables
    person, bot = Account(srv.base), make_bot(srv.base)
    token = new_token(bot, ["bot:play"])["token"]
    body = {"game": "red-rising", "players": 2, "speed": "turn"}
    try:
        with as_token(srv.base, token) as prog:
            r = prog.post("/api/quickplay", json=body)
            assert r.status_code == 201, r.text
            ticket = r.json()["ticket"]
            mine = person.http.post("/api/quickplay", json=body).json()["ticket"]

            def matched(t: str, http: httpx.Client) -> dict | None:
                got = http.get("/api/quickplay", headers={"Authorization": f"Bearer {t}"}).json()
                return got if got.get("status") == "matched" else None

            a, b = until(lambda: matched(ticket, prog)), until(lambda: matched(mine, person.http))
            assert a["game_id"] == b["game_id"] and a["seat"] != b["seat"]
            marked = prog.get(f"/api/games/{a['game_id']}/bots").json()
            assert marked["bot_game"] is True and marked["bot_seats"] == [{"seat": a["seat"], "username": bot.name}]
            assert prog.get(f"/api/games/{a['game_id']}").json()["seat"] == a["seat"]  # (its token reads as its seat)
    finally:
        person.close()
        bot.close()


@pytest.mark.multiprocess
def test_the_example_client_as_a_program_plays_a_challenge_to_its_end(tables):
    """``python examples/bot_client.py --games 1``, its token in the environment: it accepts the
    challenge, plays the game against a person, says how it ended and exits."""
    import os
    import subprocess
    import sys

    srv, _ = tables
    person, bot = Account(srv.base), make_bot(srv.base)
    token = new_token(bot, ["bot:play"])["token"]
    env = {**os.environ, "REDTABLE_TOKEN": token}
    args = ["--server", srv.base, "--games", "1", "--poll", "0.2", "--idle", "60", "--policy", "first"]
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "examples" / "bot_client.py"), *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        info = person.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2}).json()
        gid = info["game_id"]
        mine = person.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][0]["invite"]}).json()["token"]
        headers = {"Authorization": f"Bearer {info['creator_key']}"}
        r = person.http.post(f"/api/games/{gid}/friend-invites", json={"username": bot.name}, headers=headers)
        assert r.status_code == 201, r.text
        final = play_person(person.http, gid, mine, 0)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert final["status"] == "finished"
        assert f"playing as {bot.name}" in out and f"game {gid} seat 1: finished" in out
        assert token not in out + err and token not in " ".join(proc.args)  # (never on its command line)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        person.close()
        bot.close()
