"""Moderation (``redtable/server/moderation.py``, ``moderation_api.py``) on SQLite and PostgreSQL,
and across two processes.

Roles are checked on every moderation endpoint (a player and a guest get 403, a moderator cannot
read the audit log); reports are once per reporter and target and rate-limited; each action has
its effect (a muted account cannot chat, a suspended one cannot create, sit or write and a bot
plays its seat, a banned one cannot log in, a removed message reads as removed, a closed table
is abandoned, a game's rating changes are undone and the other players' ratings recomputed);
the maintenance mode refuses new tables while games go on; a mute and maintenance set through
one process hold on the other.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
import uuid
from dataclasses import replace

import httpx
import orjson
import pytest
from fleetkit import Proc
from openskill.models import PlackettLuce
from srvkit import Backend, Client, start_server
from tablekit import Account, address, until

from redtable.server import accounts as acc
from redtable.server import moderation as mod
from redtable.server.ratings import apply_result, player_key

CLI = [sys.executable, "-m", "redtable.cli"]
MODEL = PlackettLuce()
FAKE_HASH = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo"

MOD_ENDPOINTS = [
    ("GET", "/api/mod/reports", None),
    ("GET", "/api/mod/reports/1", None),
    ("POST", "/api/mod/reports/1", {"status": "dismissed"}),
    ("POST", "/api/mod/actions", {"action": "warn", "username": "nobody", "reason": "x"}),
    ("GET", "/api/admin/audit", None),
    ("POST", "/api/admin/site", {"maintenance": False}),
]


def cli(*args: str, ok: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120)
    if ok:
        assert done.returncode == 0, done.stderr
    return done


def staff(srv, role: str) -> Account:
    a = Account(srv.base)
    account = acc.account_by_name(srv.hub.store, a.name)[0]
    assert mod.grant(srv.hub.store, account.id, role, "test")
    return a


def act(who: Account, **body) -> httpx.Response:
    return who.http.post("/api/mod/actions", json={"reason": "test", **body})


def seated_game(srv, players: list[Account], game: str = "red-north") -> tuple[str, list[str]]:
    """An unrated game whose seats the accounts took with their invites (bound to them)."""
    r = players[0].http.post(
        "/api/games", json={"game": game, "seats": [{"type": "human"} for _ in players], "seed": 5}
    )
    assert r.status_code == 201, r.text
    info = r.json()
    tokens = []
    for p, s in zip(players, info["seats"], strict=True):
        j = p.http.post(f"/api/games/{info['game_id']}/join", json={"invite": s["invite"]})
        assert j.status_code == 200, j.text
        tokens.append(j.json()["token"])
    return info["game_id"], tokens


def say(c: Client, rid: str, text: str, channel: str = "players") -> dict:
    c.send(type="chat", channel=channel, text=text, id=rid)
    while True:
        m = c.recv()
        if m.get("id") == rid and m["type"] in ("chat", "error"):
            return m


def connect(srv, gid: str, token: str | None) -> Client:
    c = Client(srv, gid, token)
    c.recv_type("chat_history")
    return c


# ---------------------------------------------------------------------- roles
def test_every_moderation_endpoint_refuses_players_and_guests(tables):
    srv, _ = tables
    player = Account(srv.base)
    guest = httpx.Client(base_url=srv.base, timeout=20, headers=address())
    moderator = staff(srv, "moderator")
    admin = staff(srv, "admin")
    try:
        for method, path, body in MOD_ENDPOINTS:
            for who, client in (("player", player.http), ("guest", guest)):
                r = client.request(method, path, json=body)
                assert r.status_code == 403, (who, path, r.text)
                assert r.json()["error"] in ("moderators_only", "admins_only"), (who, path, r.text)
        # a moderator reads reports but neither the audit log nor the site settings
        assert moderator.http.get("/api/mod/reports").status_code == 200
        for method, path, body in MOD_ENDPOINTS[4:]:
            r = moderator.http.request(method, path, json=body)
            assert r.status_code == 403 and r.json()["error"] == "admins_only", r.text
        assert admin.http.get("/api/admin/audit").status_code == 200
        assert admin.http.get("/api/mod/reports").status_code == 200
        # a role is told to its holder only: a profile never shows it
        assert moderator.http.get("/api/me/notices").json()["role"] == "moderator"
        assert player.http.get("/api/me/notices").json()["role"] is None
        prof = player.http.get(f"/api/players/{moderator.name}").text
        assert "moderator" not in prof and "role" not in prof
        # a moderator's writes carry the CSRF header like every write
        bare = httpx.Client(base_url=srv.base, timeout=20, cookies=moderator.http.cookies, headers=address())
        r = bare.post("/api/mod/reports/1", json={"status": "dismissed"})
        assert r.status_code == 403 and r.json()["error"] == "csrf_failed"
        bare.close()
    finally:
        for x in (player, moderator, admin):
            x.close()
        guest.close()


def test_grant_and_revoke_from_the_command_line(backend):
    store = backend.store()
    try:
        a = acc.create_account(store, f"m{uuid.uuid4().hex[:8]}", FAKE_HASH)
        done = cli("admin", "grant", a.username.upper(), "--role", "moderator", *backend.cli_args())
        assert "is now moderator" in done.stdout
        assert mod.role_of(store, a.id) == "moderator"
        cli("admin", "grant", a.username, "--role", "admin", *backend.cli_args())
        assert mod.role_of(store, a.id) == "admin"
        cli("admin", "revoke", a.username, "--role", "admin", *backend.cli_args())
        assert mod.role_of(store, a.id) == "moderator"
        bad = cli("admin", "grant", a.username, "--role", "king", *backend.cli_args(), ok=False)
        assert bad.returncode == 2 and "--role must be one of moderator, admin" in bad.stderr
        gone = cli("admin", "grant", "nobody-here", "--role", "admin", *backend.cli_args(), ok=False)
        assert gone.returncode == 2 and "no account named" in gone.stderr
        actions = [x["action"] for x in mod.audit(store)]
        assert actions[:3] == ["revoke", "grant", "grant"]
    finally:
        store.dispose()


# ---------------------------------------------------------------------- reports
def test_reports_once_per_target_from_accounts_and_guests(tables):
    srv, _ = tables
    ann, bob = Account(srv.base), Account(srv.base)
    guest = httpx.Client(base_url=srv.base, timeout=20, headers=address())
    moderator = staff(srv, "moderator")
    try:
        gid, tokens = seated_game(srv, [ann, bob])
        c = connect(srv, gid, tokens[1])
        say(c, "l0", "good luck")
        line = say(c, "l1", "you play like a bot, idiot")
        say(c, "l2", "just kidding")
        c.close()
        r = ann.http.post("/api/reports", json={"kind": "player", "username": bob.name, "reason": "bad_name"})
        assert r.status_code == 201, r.text
        again = ann.http.post("/api/reports", json={"kind": "player", "game_id": gid, "seat": 1, "reason": "other"})
        assert again.status_code == 409 and again.json()["error"] == "already_reported"  # the same account
        msg = {"kind": "message", "chat_id": line["chat_id"], "reason": "chat_abuse", "note": "  rude  "}
        r2 = ann.http.post("/api/reports", json=msg)
        assert r2.status_code == 201, r2.text
        assert (
            guest.post("/api/reports", json={"kind": "table", "game_id": gid, "reason": "stalling"}).status_code == 201
        )
        assert guest.post("/api/reports", json={"kind": "table", "game_id": gid, "reason": "other"}).status_code == 409
        # refusals name what is wrong, and store nothing
        for body, status, code in (
            ({"kind": "player", "username": ann.name, "reason": "cheating"}, 422, "bad_report"),  # oneself
            ({"kind": "player", "username": "no-such-one", "reason": "cheating"}, 404, "unknown_player"),
            ({"kind": "message", "chat_id": 2**31 - 1, "reason": "cheating"}, 404, "unknown_message"),
            ({"kind": "table", "reason": "cheating"}, 422, "bad_report"),
            ({"kind": "table", "game_id": gid, "reason": "ugly"}, 422, None),
            ({"kind": "table", "game_id": gid, "reason": "other", "note": "x" * 501}, 422, "text_too_long"),
        ):
            r = ann.http.post("/api/reports", json=body)
            assert r.status_code == status, (body, r.text)
            if code:
                assert r.json()["error"] == code
        open_ = moderator.http.get("/api/mod/reports").json()["reports"]
        mine = [x for x in open_ if x["game_id"] == gid or x["account"] == bob.name]
        assert len(mine) == 3
        about_msg = next(x for x in mine if x["kind"] == "message")
        assert about_msg["account"] == bob.name and about_msg["note"] == "rude" and about_msg["reporter"] == ann.name
        ctx = moderator.http.get(f"/api/mod/reports/{about_msg['report_id']}").json()
        assert ctx["replay"] == f"/#/replay/{gid}"
        assert [m["text"] for m in ctx["chat"] if m["reported"]] == ["you play like a bot, idiot"]
        assert [m["text"] for m in ctx["chat"]] == ["good luck", "you play like a bot, idiot", "just kidding"]
        assert len(ctx["account_reports"]) == 1  # the other report on bob
        assert ctx["account_actions"] == []
        # a warning: the player is told what and why, and the report's context shows it
        assert act(moderator, action="warn", username=bob.name, reason="mind your words").status_code == 201
        told = bob.http.get("/api/me/notices").json()["notices"]
        assert [(n["action"], n["reason"]) for n in told] == [("warn", "mind your words")]
        ctx = moderator.http.get(f"/api/mod/reports/{about_msg['report_id']}").json()
        assert [(x["action"], x["reason"]) for x in ctx["account_actions"]] == [("warn", "mind your words")]
        tbl = next(x for x in mine if x["kind"] == "table")
        assert tbl["reporter"] is None and tbl["reporter_guest"]
        # resolve / dismiss
        rid = tbl["report_id"]
        assert moderator.http.post(f"/api/mod/reports/{rid}", json={"status": "dismissed"}).status_code == 200
        r = moderator.http.post(f"/api/mod/reports/{rid}", json={"status": "resolved"})
        assert r.status_code == 409 and r.json()["error"] == "report_closed"
        dismissed = moderator.http.get("/api/mod/reports", params={"status": "dismissed"}).json()["reports"]
        assert rid in [x["report_id"] for x in dismissed]
    finally:
        for x in (ann, bob, moderator):
            x.close()
        guest.close()


def test_reports_are_rate_limited(backend):
    from redtable.server.limits import Limits, Rate

    base = Limits().relaxed()
    limits = replace(base, trust_proxy=True, rates={**base.rates, "report": Rate(2, 0.001)})
    srv = start_server(backend, limits=limits)
    try:
        ann = Account(srv.base)
        gids = [
            ann.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2}).json()["game_id"]
            for _ in range(3)
        ]
        codes = [
            ann.http.post("/api/reports", json={"kind": "table", "game_id": g, "reason": "other"}).status_code
            for g in gids
        ]
        assert codes == [201, 201, 429]
        r = ann.http.post("/api/reports", json={"kind": "table", "game_id": gids[2], "reason": "other"})
        assert r.status_code == 429 and r.json()["limit"] == "report" and int(r.headers["Retry-After"]) >= 1
        ann.close()
    finally:
        srv.stop()


# ---------------------------------------------------------------------- actions
def test_mute_stops_every_chat_until_lifted_and_the_player_is_told(tables):
    srv, _ = tables
    ann, bob = Account(srv.base), Account(srv.base)
    moderator = staff(srv, "moderator")
    try:
        gid, tokens = seated_game(srv, [ann, bob])
        c = connect(srv, gid, tokens[1])
        assert say(c, "1", "hello")["type"] == "chat"
        r = act(moderator, action="mute", username=bob.name, minutes=30, reason="insults in chat")
        assert r.status_code == 201, r.text
        told = c.recv_type("mod_notice")
        assert told["action"] == "mute" and told["reason"] == "insults in chat"
        refused = say(c, "2", "hello again")
        assert refused["type"] == "error" and refused["error"] == "muted" and refused["until"] > time.time() + 1700
        notices = bob.http.get("/api/me/notices").json()
        assert notices["sanctions"]["mute"]["reason"] == "insults in chat"
        assert [n["action"] for n in notices["notices"]] == ["mute"]
        seen = bob.http.post("/api/me/notices/seen", json={"ids": [notices["notices"][0]["notice_id"]]})
        assert seen.json() == {"seen": 1} and bob.http.get("/api/me/notices").json()["notices"] == []
        # an id beyond the column's range is refused at the edge (it failed in the database: a 500, Schemathesis)
        huge = bob.http.post("/api/me/notices/seen", json={"ids": [-(2**65), 7]})
        assert huge.status_code == 422 and huge.json()["error"] == "malformed", huge.text
        # mute is no suspension: bob still creates tables
        assert (
            bob.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2}).status_code == 201
        )
        assert act(moderator, action="unmute", username=bob.name).status_code == 201
        assert say(c, "3", "sorry")["type"] == "chat"
        c.close()
    finally:
        for x in (ann, bob, moderator):
            x.close()


def test_suspension_ends_sessions_a_bot_plays_the_seat_and_nothing_is_created_sat_or_written(tables):
    srv, _ = tables
    ann, bob = Account(srv.base), Account(srv.base)
    moderator = staff(srv, "moderator")
    try:
        gid, tokens = seated_game(srv, [ann, bob])
        open_ = ann.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2, "open": True})
        assert open_.status_code == 201
        c0 = connect(srv, gid, tokens[0])
        r = act(moderator, action="suspend", username=bob.name, minutes=60, reason="stalling on purpose")
        assert r.status_code == 201, r.text
        assert r.json()["seats"] == [gid]
        note = c0.recv_type("notice")
        assert note["code"] == "seat_suspended" and note["seat"] == 1
        st = httpx.get(f"{srv.base}/api/games/{gid}").json()
        assert st["seats"][1]["type"] == "bot"
        c0.close()
        # the session ended
        assert bob.http.get("/api/session").json()["logged_in"] is False
        # logging in again works, then every write is refused
        r = bob.http.post("/api/session", json={"username": bob.name, "password": "correct horse 42"})
        assert r.status_code == 200, r.text
        bob.http.headers["X-CSRF-Token"] = r.json()["csrf"]
        made = bob.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2})
        assert made.status_code == 403 and made.json()["error"] == "suspended"
        assert made.json()["reason"] == "stalling on purpose"
        sat = bob.http.post(f"/api/games/{open_.json()['game_id']}/sit", json={})
        assert sat.status_code == 403 and sat.json()["error"] == "suspended"
        notices = bob.http.get("/api/me/notices").json()["notices"]
        assert notices[-1]["action"] == "suspend" and notices[-1]["reason"] == "stalling on purpose"
        assert act(moderator, action="unsuspend", username=bob.name).status_code == 201
        assert (
            bob.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2}).status_code == 201
        )
    finally:
        for x in (ann, bob, moderator):
            x.close()


def test_a_banned_account_cannot_log_in_and_its_seats_go_to_bots(tables):
    srv, _ = tables
    ann, bob = Account(srv.base), Account(srv.base)
    moderator = staff(srv, "moderator")
    admin = staff(srv, "admin")
    try:
        gid, tokens = seated_game(srv, [ann, bob])
        c1 = connect(srv, gid, tokens[1])
        r = act(moderator, action="ban", username=bob.name, reason="cheating with a second account")
        assert r.status_code == 201 and r.json()["seats"] == [gid]
        told = c1.recv_type("mod_notice")
        assert told["action"] == "ban"
        refused = say(c1, "x", "let me speak")
        assert refused["error"] == "banned"
        c1.close()
        r = bob.http.post("/api/session", json={"username": bob.name, "password": "correct horse 42"})
        assert r.status_code == 403 and r.json()["error"] == "banned"
        assert r.json()["reason"] == "cheating with a second account"
        assert httpx.get(f"{srv.base}/api/games/{gid}").json()["seats"][1]["type"] == "bot"
        # an admin is never sanctioned; a moderator does not act on itself
        r = act(moderator, action="ban", username=admin.name)
        assert r.status_code == 403 and r.json()["error"] == "admins_only"
        r = act(moderator, action="mute", username=moderator.name)
        assert r.status_code == 422 and r.json()["error"] == "bad_action"
        # the audit log: who, when, what, why (admins read it)
        log = admin.http.get("/api/admin/audit").json()["actions"]
        ban = next(x for x in log if x["action"] == "ban" and x["account"] == bob.name)
        assert ban["actor"] == moderator.name and ban["reason"] == "cheating with a second account" and ban["at"] > 0
        assert act(moderator, action="unban", username=bob.name).status_code == 201
        assert (
            bob.http.post("/api/session", json={"username": bob.name, "password": "correct horse 42"}).status_code
            == 200
        )
    finally:
        for x in (ann, bob, moderator, admin):
            x.close()


def test_a_removed_message_reads_as_removed_to_everyone(tables):
    srv, api = tables
    ann, bob = Account(srv.base), Account(srv.base)
    moderator = staff(srv, "moderator")
    try:
        gid, tokens = seated_game(srv, [ann, bob])
        c0, w = connect(srv, gid, tokens[0]), connect(srv, gid, None)
        line = say(c0, "1", "something nasty")
        say(c0, "2", "something fine")
        rep = bob.http.post(
            "/api/reports", json={"kind": "message", "chat_id": line["chat_id"], "reason": "chat_abuse"}
        )
        r = act(
            moderator,
            action="remove_message",
            chat_id=line["chat_id"],
            report_id=rep.json()["report_id"],
            reason="abuse",
        )
        assert r.status_code == 201, r.text
        for sock in (c0, w):
            gone = sock.recv_type("chat_removed")
            assert gone["chat_id"] == line["chat_id"]
        hist = api.http.get(f"/api/games/{gid}/chat").json()["messages"]
        removed = next(m for m in hist if m["chat_id"] == line["chat_id"])
        assert removed["removed"] is True and removed["text"] == ""
        assert next(m for m in hist if m["text"] == "something fine").get("removed") is None
        # the moderators still read what it said; the report is resolved by the action
        ctx = moderator.http.get(f"/api/mod/reports/{rep.json()['report_id']}").json()
        assert ctx["status"] == "resolved"
        assert [(m["text"], m["removed"]) for m in ctx["chat"] if m["reported"]] == [("something nasty", True)]
        assert ann.http.get("/api/me/notices").json()["notices"][-1]["action"] == "remove_message"
        c0.close()
        w.close()
    finally:
        for x in (ann, bob, moderator):
            x.close()


def test_a_closed_table_is_abandoned_for_everyone(tables):
    srv, api = tables
    ann, bob = Account(srv.base), Account(srv.base)
    moderator = staff(srv, "moderator")
    try:
        gid, tokens = seated_game(srv, [ann, bob])
        c0 = connect(srv, gid, tokens[0])
        r = act(moderator, action="close_table", game_id=gid, reason="offensive names")
        assert r.status_code == 201, r.text
        assert c0.recv_type("notice")["code"] == "moderator_closed"
        st = api.state(gid)
        assert st["status"] == "abandoned" and st["closed"]["reason"] == "moderator"
        d = api.state(gid, tokens[0])["decision"]
        assert d is None or api.decide(gid, tokens[0], "x", st["version"]).status_code == 409
        again = act(moderator, action="close_table", game_id=gid)
        assert again.status_code == 409 and again.json()["error"] == "game_over"
        c0.close()
    finally:
        for x in (ann, bob, moderator):
            x.close()


def test_maintenance_refuses_new_tables_while_games_go_on(tables):
    srv, api = tables
    admin = staff(srv, "admin")
    try:
        info, tokens = api.new_game("red-north", ("human", "human"), seed=4)
        r = admin.http.post("/api/admin/site", json={"maintenance": True, "banner": "Back at 07:00 UTC"})
        assert r.json() == {"banner": "Back at 07:00 UTC", "maintenance": True}
        assert httpx.get(f"{srv.base}/api/site").json()["banner"] == "Back at 07:00 UTC"
        made = api.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2})
        assert made.status_code == 503 and made.json()["error"] == "maintenance" and made.headers["Retry-After"]
        q = api.http.post("/api/quickplay", json={"game": "red-north", "players": 2, "speed": "realtime"})
        assert q.status_code == 503 and q.json()["error"] == "maintenance"
        st = api.state(info["game_id"])  # the game under way goes on
        p = st["decision"]["player"]
        d = api.state(info["game_id"], tokens[p])["decision"]
        assert api.decide(info["game_id"], tokens[p], d["options"][0], st["version"]).status_code == 200
        r = admin.http.post("/api/admin/site", json={"maintenance": False, "banner": ""})
        assert r.json() == {"banner": None, "maintenance": False}
        assert (
            api.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2}).status_code == 201
        )
        bad = admin.http.post("/api/admin/site", json={"banner": "x" * 301})
        assert bad.status_code == 422 and bad.json()["error"] == "text_too_long" and bad.json()["max"] == 300
        log = admin.http.get("/api/admin/audit").json()["actions"]
        assert {"maintenance", "banner"} <= {x["action"] for x in log}
    finally:
        admin.close()


def test_undoing_a_games_ratings_recomputes_the_other_players(backend):
    from test_ratings import finished_game, make_accounts, stored

    st = backend.store()
    try:
        a, b, c = make_accounts(st, 3)
        g1 = finished_game(st, [a, b], {"scores": [9.0, 1.0], "winners": [0]})
        g2 = finished_game(st, [b, c], {"scores": [9.0, 1.0], "winners": [0]})
        g3 = finished_game(st, [a, c], {"scores": [1.0, 9.0], "winners": [1]})
        for g in (g1, g2, g3):
            assert apply_result(st, g) is not None
            time.sleep(0.01)
        out = mod.undo_ratings(st, g1)
        assert out["title"] == "red-north"

        def rate(teams, places):
            got = MODEL.rate([[MODEL.rating(mu=m, sigma=s)] for m, s in teams], ranks=places)
            return [(t[0].mu, t[0].sigma) for t in got]

        prior = (MODEL.mu, MODEL.sigma)
        b2, c2 = rate([prior, prior], [1, 2])  # g2 as if g1 never was
        a3, c3 = rate([prior, c2], [2, 1])  # g3 from there
        for acct, want, games in ((a, a3, 1), (b, b2, 1), (c, c3, 2)):
            got = stored(st, acct)
            assert got[:2] == pytest.approx(want, abs=1e-9) and got[2] == games
        with pytest.raises(Exception, match="undone already"):
            mod.undo_ratings(st, g1)
        unrated = finished_game(st, [a, b], {"scores": [1.0, 2.0], "winners": [1]}, rated=False)
        with pytest.raises(Exception, match="moved no rating"):
            mod.undo_ratings(st, unrated)
        assert player_key(a, False) in out["changed"]
    finally:
        st.dispose()


def test_undo_ratings_through_the_api_is_audited(tables):
    from test_ratings import finished_game

    srv, _ = tables
    store = srv.hub.store
    moderator, admin = staff(srv, "moderator"), staff(srv, "admin")
    a, b = (acc.create_account(store, f"r{uuid.uuid4().hex[:8]}", FAKE_HASH).id for _ in range(2))
    try:
        gid = finished_game(store, [a, b], {"scores": [5.0, 1.0], "winners": [0]})
        apply_result(store, gid)
        r = act(moderator, action="undo_ratings", game_id=gid, reason="win traded between friends")
        assert r.status_code == 201, r.text
        assert set(r.json()["changed"]) == {player_key(a, False), player_key(b, False)}
        r2 = act(moderator, action="undo_ratings", game_id=gid)
        assert r2.status_code == 409 and r2.json()["error"] == "ratings_already_undone"
        entry = next(x for x in admin.http.get("/api/admin/audit").json()["actions"] if x["game_id"] == gid)
        assert entry["action"] == "undo_ratings" and entry["detail"]["title"] == "red-north"
        # who, when, what, why
        assert entry["actor"] == moderator.name and entry["reason"] == "win traded between friends"
        assert abs(entry["at"] - time.time()) < 300
    finally:
        moderator.close()
        admin.close()


def test_old_closed_reports_are_purged(backend):
    from redtable.server.retention import Retention, purge

    st = backend.store()
    try:
        a = acc.create_account(st, f"p{uuid.uuid4().hex[:8]}", FAKE_HASH)
        t = {"target": f"a:{a.id}", "account_id": a.id, "game_id": None, "chat_id": None}
        old = mod.file_report(st, "n:10.0.0.1", None, "player", t, "other", None)
        open_ = mod.file_report(st, "n:10.0.0.2", None, "player", t, "other", None)
        mod.close_report(st, old, "dismissed", a.id)
        assert purge(st, Retention(report_days=1), now=time.time() + 2 * 86400)["reports"] == 1
        assert [x["report_id"] for x in mod.list_reports(st, "open")] == [open_]
    finally:
        st.dispose()


# ---------------------------------------------------------------------- two processes
def test_a_removed_message_mute_suspension_and_maintenance_hold_on_both_processes(schema, tmp_path):
    """Set through process A (or the command line), each holds on process B at once."""
    from websockets.asyncio.client import connect as ws_connect

    procs = [Proc(schema, tmp_path / f"server{i}.log").start() for i in range(2)]
    a, b = procs
    backend = Backend("postgresql", None)
    backend.schema = schema
    st = backend.store()
    ann, bob = Account(a.base), Account(a.base)
    try:
        mod.grant(st, acc.account_by_name(st, ann.name)[0].id, "moderator", "test")
        r = ann.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2})
        assert r.status_code == 201, r.text
        info = r.json()
        gid = info["game_id"]
        ann.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][0]["invite"]}).raise_for_status()
        j = bob.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][1]["invite"]})
        j.raise_for_status()
        bob_token = j.json()["token"]

        async def main():
            async def open_(token):
                ws = await ws_connect(f"{b.ws}/api/games/{gid}/ws", open_timeout=20)
                await ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
                return ws, []

            async def until_msg(sock, pred, seconds=15.0):
                ws, got = sock
                loop = asyncio.get_running_loop()
                deadline = loop.time() + seconds
                while not any(pred(m) for m in got):
                    got.append(orjson.loads(await asyncio.wait_for(ws.recv(), deadline - loop.time())))
                return next(m for m in got if pred(m))

            seat, watcher = await open_(bob_token), await open_(None)  # both on B
            await until_msg(watcher, lambda m: m["type"] == "chat_history")
            await seat[0].send(
                orjson.dumps({"type": "chat", "channel": "players", "text": "idiot", "id": "1"}).decode()
            )
            line = await until_msg(seat, lambda m: m.get("id") == "1")
            await until_msg(watcher, lambda m: m["type"] == "chat" and m["text"] == "idiot")
            # removed through A: B's sockets read it as removed
            r = act(ann, action="remove_message", chat_id=line["chat_id"], reason="insult")
            assert r.status_code == 201, r.text
            await until_msg(watcher, lambda m: m["type"] == "chat_removed" and m["chat_id"] == line["chat_id"])
            hist = httpx.get(f"{b.base}/api/games/{gid}/chat").json()["messages"]
            assert [m.get("removed") for m in hist] == [True]
            # muted through A: B refuses his next line
            assert act(ann, action="mute", username=bob.name, minutes=5, reason="insults").status_code == 201
            await seat[0].send(orjson.dumps({"type": "chat", "channel": "players", "text": "why", "id": "2"}).decode())
            refused = await until_msg(seat, lambda m: m.get("id") == "2")
            assert refused["type"] == "error" and refused["error"] == "muted"
            # suspended through A: B plays his seat with a bot
            r = act(ann, action="suspend", username=bob.name, minutes=60, reason="abuse")
            assert r.status_code == 201 and r.json()["seats"] == [gid]
            await seat[0].send(orjson.dumps({"type": "chat", "channel": "players", "text": "hey", "id": "3"}).decode())
            refused = await until_msg(seat, lambda m: m.get("id") == "3")
            assert refused["error"] == "suspended"
            for sock in (seat, watcher):
                await sock[0].close()

        asyncio.run(main())
        until(lambda: httpx.get(f"{b.base}/api/games/{gid}").json()["seats"][1]["type"] == "bot", what="a bot in B")
        bob_b = httpx.Client(base_url=b.base, timeout=20)
        r = bob_b.post("/api/session", json={"username": bob.name, "password": "correct horse 42"})
        assert r.status_code == 200, r.text
        bob_b.headers["X-CSRF-Token"] = r.json()["csrf"]
        made = bob_b.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2})
        assert made.status_code == 403 and made.json()["error"] == "suspended"
        bob_b.close()
        # maintenance from the command line holds on both processes at once
        where = ["--db", backend.url, "--db-schema", schema]
        cli("admin", "maintenance", "on", *where)
        for p in procs:
            r = httpx.post(f"{p.base}/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2})
            assert r.status_code == 503 and r.json()["error"] == "maintenance"
        cli("admin", "notice", "Servers restart at noon", *where)
        assert httpx.get(f"{b.base}/api/site").json() == {"banner": "Servers restart at noon", "maintenance": True}
        cli("admin", "maintenance", "off", *where)
        r = httpx.post(f"{b.base}/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2})
        assert r.status_code == 201
    finally:
        ann.close()
        bob.close()
        st.dispose()
        for p in procs:
            p.stop()
