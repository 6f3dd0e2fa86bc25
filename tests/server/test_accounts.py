"""Accounts (``redtable/server/accounts.py``, ``accounts_api.py``) on SQLite and PostgreSQL.

Every endpoint and its refusals: registering (bad usernames and passwords, taken names),
logging in (wrong password, unknown user: the same answer), who am I, logging out; the
session cookie's flags (HttpOnly, SameSite=Lax, Secure behind a trusted https proxy); the
CSRF token on cookie-authenticated writes; the sign-up limit per address (the log-in
friction and limits: ``test_login_friction.py``); seats bound to accounts and the rules of
rated games; no password, session token or CSRF token in any log line or error body; older tables get the new columns.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import replace

import httpx
import pytest
from sqlalchemy import inspect, select, text
from srvkit import start_server

from redtable.server.accounts import SESSION_COOKIE, csrf_token
from redtable.server.limits import Limits, Rate
from redtable.server.store import seats_table

PASSWORD = "correct horse battery"


def uname(prefix: str = "u") -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def client(srv) -> httpx.Client:
    return httpx.Client(base_url=srv.base, timeout=20)


def register(c: httpx.Client, username: str, password: str = PASSWORD) -> str:
    r = c.post("/api/accounts", json={"username": username, "password": password})
    assert r.status_code == 201, r.text
    return r.json()["csrf"]


def cookie_attrs(r: httpx.Response, name: str = SESSION_COOKIE) -> dict[str, str]:
    raw = next(x for x in r.headers.get_list("set-cookie") if x.startswith(name + "="))
    parts = [p.strip() for p in raw.split(";")]
    out = {"value": parts[0].split("=", 1)[1]}
    for p in parts[1:]:
        k, _, v = p.partition("=")
        out[k.lower()] = v
    return out


# ---------------------------------------------------------------------- register, log in, log out
def test_register_logs_in_with_a_safe_cookie(served):
    srv, _ = served
    with client(srv) as c:
        name = uname("Ann")
        r = c.post("/api/accounts", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201
        body = r.json()
        assert body["logged_in"] is True and body["username"] == name
        attrs = cookie_attrs(r)
        assert "httponly" in attrs and attrs["samesite"].lower() == "lax" and attrs["path"] == "/"
        assert int(attrs["max-age"]) == 30 * 24 * 3600
        assert "secure" not in attrs  # plain http, no trusted proxy
        assert body["csrf"] == csrf_token(attrs["value"]) and attrs["value"] not in r.text
        me = c.get("/api/session").json()
        assert me == {"logged_in": True, "username": name, "csrf": body["csrf"], "email_enabled": False}


@pytest.mark.parametrize(
    "username,reason",
    [
        ("ab", "length"),
        ("a" * 25, "length"),
        ("Ann Smith", "characters"),
        ("Олег", "characters"),
        ("ann@example", "characters"),
        ("random", "bot_word"),
        ("my-bot", "bot_word"),
        ("B_o_t", "bot_word"),  # separators do not hide a bot's word
        ("b0t", "bot_word"),  # nor a look-alike digit
        ("R-o-b-o-t", "bot_word"),
    ],
)
def test_bad_usernames_are_refused_naming_the_rule(served, username, reason):
    srv, _ = served
    with client(srv) as c:
        r = c.post("/api/accounts", json={"username": username, "password": PASSWORD})
        assert r.status_code == 422
        assert r.json()["error"] == "bad_username" and r.json()["reason"] == reason
        assert "set-cookie" not in r.headers


@pytest.mark.parametrize("password", ["short", "x" * 7, "y" * 257])
def test_bad_passwords_are_refused(served, password):
    srv, _ = served
    with client(srv) as c:
        r = c.post("/api/accounts", json={"username": uname(), "password": password})
        assert r.status_code == 422 and r.json()["error"] == "bad_password"
        assert r.json()["min"] == 8 and r.json()["max"] == 256
        assert password not in r.text


@pytest.mark.parametrize(
    "body",
    [
        {"username": "annabel"},
        {"password": PASSWORD},
        {"username": 12345, "password": PASSWORD},
        {"username": "annabel", "password": PASSWORD, "admin": True},
        {"username": "annabel", "password": "p" * 2000},
    ],
)
def test_malformed_bodies(served, body):
    srv, _ = served
    with client(srv) as c:
        for path in ("/api/accounts", "/api/session"):
            r = c.post(path, json=body)
            assert r.status_code == 422 and r.json()["error"] == "malformed", r.text
            assert "p" * 50 not in r.text  # the input is never echoed


def test_usernames_are_unique_whatever_their_case(served):
    srv, _ = served
    name = uname("Cas")
    with client(srv) as c:
        register(c, name)
    with client(srv) as c:
        r = c.post("/api/accounts", json={"username": name.upper(), "password": PASSWORD})
        assert r.status_code == 409 and r.json()["error"] == "username_taken"
        assert "set-cookie" not in r.headers


def test_log_in_wrong_password_unknown_user_and_any_case(served):
    srv, _ = served
    name = uname("Lo")
    with client(srv) as c:
        first = register(c, name)
    with client(srv) as c:
        wrong = c.post("/api/session", json={"username": name, "password": "not the password"})
        unknown = c.post("/api/session", json={"username": uname("nobody"), "password": PASSWORD})
        assert wrong.status_code == unknown.status_code == 401
        assert wrong.json() == unknown.json() == {"error": "bad_login", "message": "wrong username or password"}
        assert c.get("/api/session").json()["logged_in"] is False
        r = c.post("/api/session", json={"username": name.lower(), "password": PASSWORD})
        assert r.status_code == 200 and r.json()["username"] == name
        assert r.json()["csrf"] != first  # a new session, a new token
        assert "httponly" in cookie_attrs(r)


def test_log_out_ends_the_session_on_the_server(served):
    srv, _ = served
    with client(srv) as c:
        csrf = register(c, uname("Out"))
        token = c.cookies[SESSION_COOKIE]
        r = c.delete("/api/session")
        assert r.status_code == 403 and r.json()["error"] == "csrf_failed"
        r = c.delete("/api/session", headers={"X-CSRF-Token": "0" * 64})
        assert r.status_code == 403
        assert c.get("/api/session").json()["logged_in"] is True
        r = c.delete("/api/session", headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200 and r.json()["logged_in"] is False
        attrs = cookie_attrs(r)
        assert attrs["value"] in ('""', "") and int(attrs.get("max-age", "0")) <= 0
        assert c.get("/api/session").json()["logged_in"] is False
    with client(srv) as stolen:  # the old cookie, replayed: nobody
        stolen.cookies.set(SESSION_COOKIE, token)
        r = stolen.get("/api/session")
        assert r.json() == {"logged_in": False, "username": None, "csrf": None, "email_enabled": False}
        assert SESSION_COOKIE in r.headers["set-cookie"]  # and the browser is told to forget it
        assert stolen.delete("/api/session").status_code == 200  # logging out twice is fine


def test_a_forged_cookie_is_nobody(served):
    srv, _ = served
    with client(srv) as c:
        c.cookies.set(SESSION_COOKIE, "forged-" + "x" * 30)
        assert c.get("/api/session").json()["logged_in"] is False
        c.cookies.set(SESSION_COOKIE, "y" * 500)  # too long to be ours: not even looked up
        assert c.get("/api/session").json()["logged_in"] is False


# ---------------------------------------------------------------------- CSRF on writes
def test_cookie_authenticated_writes_need_the_csrf_token(served):
    srv, api = served
    body = {"game": "red-north", "seats": [{"type": "human"}, {"type": "bot", "bot": "random"}]}
    with client(srv) as c:
        csrf = register(c, uname("Cs"))
        r = c.post("/api/games", json=body)
        assert r.status_code == 403 and r.json()["error"] == "csrf_failed"
        r = c.post("/api/games", json=body, headers={"X-CSRF-Token": csrf[::-1]})
        assert r.status_code == 403
        r = c.post("/api/games", json=body, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 201
        g = r.json()
        join = f"/api/games/{g['game_id']}/join"
        r = c.post(join, json={"invite": g["seats"][0]["invite"]})
        assert r.status_code == 403 and r.json()["error"] == "csrf_failed"
        r = c.post(join, json={"invite": g["seats"][0]["invite"]}, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200
    # without a cookie nothing changes: guests create and join as before
    info, tokens = api.new_game("red-north", ("human", "bot"))
    assert tokens[0]


def test_secure_cookie_behind_a_trusted_https_proxy(backend):
    srv = start_server(backend, limits=replace(Limits().relaxed(), trust_proxy=True))
    try:
        with client(srv) as c:
            r = c.post(
                "/api/accounts",
                json={"username": uname("Px"), "password": PASSWORD},
                headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.7"},
            )
            assert r.status_code == 201 and "secure" in cookie_attrs(r)
            r = c.post("/api/accounts", json={"username": uname("Px"), "password": PASSWORD})
            assert "secure" not in cookie_attrs(r)
    finally:
        srv.stop()
    # (without trust_proxy the app ignores the header; uvicorn itself still honours it from the
    # addresses of its forwarded_allow_ips, loopback by default, which is where this test runs)


# ---------------------------------------------------------------------- rate limits (more: test_login_friction.py)
def test_registering_is_rate_limited_per_address(backend):
    rates = dict(Limits().relaxed().rates)
    rates["register"] = Rate(2, 1e-6)
    srv = start_server(backend, limits=replace(Limits().relaxed(), rates=rates))
    try:
        with client(srv) as c:
            register(c, uname())
            register(c, uname())
            r = c.post("/api/accounts", json={"username": uname(), "password": PASSWORD})
            assert r.status_code == 429 and r.json()["limit"] == "register"
    finally:
        srv.stop()


# ---------------------------------------------------------------------- seats and rated games
def account_of_seat(srv, game_id: str, seat: int) -> int | None:
    st = srv.app.state.store
    s = seats_table.c
    with st.engine.connect() as conn:
        return conn.execute(select(s.account_id).where(s.game_id == game_id, s.seat == seat)).scalar_one()


def test_a_seat_joined_while_logged_in_is_bound_to_the_account(served):
    srv, _ = served
    with client(srv) as c, client(srv) as guest:
        name = uname("Bi")
        csrf = register(c, name)
        h = {"X-CSRF-Token": csrf}
        g = c.post("/api/games", json={"game": "red-rising", "seats": [{"type": "human"}] * 2}, headers=h).json()
        assert g["rated"] is False
        j = c.post(f"/api/games/{g['game_id']}/join", json={"invite": g["seats"][0]["invite"]}, headers=h).json()
        assert j["name"] == name  # no name given: the username
        assert account_of_seat(srv, g["game_id"], 0) is not None
        # a guest plays seat 1 by its invite, as always; an unrated seat another account holds stays its own
        r = guest.post(f"/api/games/{g['game_id']}/join", json={"invite": g["seats"][1]["invite"], "name": "Guest"})
        assert r.status_code == 200 and account_of_seat(srv, g["game_id"], 1) is None
        r = c.post(f"/api/games/{g['game_id']}/join", json={"invite": g["seats"][1]["invite"]}, headers=h)
        assert r.status_code == 200  # the same account may hold two seats of an unrated game
        assert account_of_seat(srv, g["game_id"], 1) == account_of_seat(srv, g["game_id"], 0)


@pytest.mark.parametrize(
    "extra,reasons",
    [
        ({"seed": 7}, ["seed"]),
        ({"undo": True}, ["undo"]),
        ({"seed": 7, "undo": True}, ["seed", "undo"]),
        ({"seats": [{"type": "bot", "bot": "random"}, {"type": "bot", "bot": "heuristic"}]}, ["no_person"]),
        ({"clock": None}, ["clock"]),
        ({"clock": {"kind": "none"}, "undo": True}, ["undo", "clock"]),
    ],
)
def test_a_rated_game_is_refused_naming_each_broken_condition(served, extra, reasons):
    srv, _ = served
    with client(srv) as c:
        h = {"X-CSRF-Token": register(c, uname("Rf"))}
        body = {"game": "red-north", "seats": [{"type": "human"}, {"type": "human"}], "rated": True}
        r = c.post("/api/games", json={**body, "clock": {"kind": "turn"}, **extra}, headers=h)
        assert r.status_code == 422 and r.json()["error"] == "not_ratable"
        assert r.json()["reasons"] == reasons and r.json()["reason"] == reasons[0]


def test_a_rated_game_needs_its_creator_logged_in(served):
    srv, api = served
    r = api.http.post(
        "/api/games",
        json={"game": "red-north", "seats": [{"type": "human"}] * 2, "rated": True, "clock": {"kind": "turn"}},
    )
    assert r.status_code == 422 and r.json()["reasons"] == ["login"]
    assert "log in" in r.json()["message"]


def test_rated_seats_only_for_accounts_one_each(served):
    srv, _ = served
    with client(srv) as a, client(srv) as b, client(srv) as guest, client(srv) as c3:
        ha = {"X-CSRF-Token": register(a, uname("Ra"))}
        hb = {"X-CSRF-Token": register(b, uname("Rb"))}
        hc = {"X-CSRF-Token": register(c3, uname("Rc"))}
        body = {"game": "red-rising", "seats": [{"type": "human"}] * 3, "rated": True, "clock": {"kind": "turn"}}
        g = a.post("/api/games", json=body, headers=ha).json()
        assert g["rated"] is True
        gid, inv = g["game_id"], [s["invite"] for s in g["seats"]]
        assert a.get(f"/api/games/{gid}").json()["rated"] is True
        assert a.post(f"/api/games/{gid}/join", json={"invite": inv[0]}, headers=ha).status_code == 200
        r = a.post(f"/api/games/{gid}/join", json={"invite": inv[1]}, headers=ha)
        assert r.status_code == 409 and r.json()["error"] == "one_seat_per_account" and r.json()["seat"] == 0
        r = guest.post(f"/api/games/{gid}/join", json={"invite": inv[1]})
        assert r.status_code == 401 and r.json()["error"] == "login_required"
        assert b.post(f"/api/games/{gid}/join", json={"invite": inv[1]}, headers=hb).status_code == 200
        r = c3.post(f"/api/games/{gid}/join", json={"invite": inv[0]}, headers=hc)  # someone else's seat
        assert r.status_code == 409 and r.json()["error"] == "seat_bound"
        assert a.post(f"/api/games/{gid}/join", json={"invite": inv[0]}, headers=ha).status_code == 200  # own again
        accounts = [account_of_seat(srv, gid, i) for i in range(3)]
        assert accounts[0] and accounts[1] and accounts[0] != accounts[1] and accounts[2] is None


# ---------------------------------------------------------------------- nothing secret in logs
def test_no_password_or_token_in_logs_or_errors(served, caplog):
    srv, _ = served
    caplog.set_level(logging.DEBUG)  # the server's own loggers, uvicorn's and SQLAlchemy's statements with parameters
    logging.getLogger("sqlalchemy.engine").setLevel(logging.INFO)
    secret = "hunter2-" + uuid.uuid4().hex
    seen: list[str] = []
    tokens: list[str] = []
    try:
        with client(srv) as c:
            name = uname("Lg")
            r = c.post("/api/accounts", json={"username": name, "password": secret})
            seen.append(r.text)
            tokens += [c.cookies[SESSION_COOKIE], r.json()["csrf"]]
            for body in (
                {"username": name, "password": secret + "x"},
                {"username": "no such user", "password": secret},
                {"username": name, "password": secret * 40},
                {"username": name, "password": secret},
            ):
                r = c.post("/api/session", json=body)
                seen.append(r.text)
            tokens += [c.cookies[SESSION_COOKIE], r.json()["csrf"]]
            seen.append(c.post("/api/accounts", json={"username": name, "password": secret}).text)
            seen.append(c.post("/api/games", json={"game": "red-north", "seats": []}).text)
            seen.append(c.delete("/api/session", headers={"X-CSRF-Token": tokens[-1]}).text)
    finally:
        logging.getLogger("sqlalchemy.engine").setLevel(logging.WARNING)
    server_logs = "\n".join(
        f"{r.name} {r.getMessage()} {r.exc_text or ''}"
        for r in caplog.records
        if not r.name.startswith(("httpx", "httpcore"))  # (the test's own client logs what it receives)
    )
    assert "redtable_accounts" in server_logs  # the statements were logged, with their parameters
    for s in (secret, *tokens):
        assert s not in server_logs
        assert all(s not in body for body in seen[1:4] + seen[5:])  # the refusals and the log-out
    assert secret not in seen[0] and secret not in seen[4]


# ---------------------------------------------------------------------- storage
def test_older_tables_get_the_account_columns(backend):
    st = backend.store()
    with st.engine.begin() as conn:
        if st.dialect == "sqlite":
            conn.exec_driver_sql("DROP INDEX IF EXISTS redtable_seats_account")
        for table, col in (("redtable_seats", "account_id"), ("redtable_games", "rated_at")):
            conn.exec_driver_sql(f"ALTER TABLE {st.qualified(table)} DROP COLUMN {col}")
    cols = {c["name"] for c in inspect(st.engine).get_columns("redtable_seats", schema=st.schema)}
    assert "account_id" not in cols
    st.create_tables()
    insp = inspect(st.engine)
    assert "account_id" in {c["name"] for c in insp.get_columns("redtable_seats", schema=st.schema)}
    assert "rated_at" in {c["name"] for c in insp.get_columns("redtable_games", schema=st.schema)}
    assert "redtable_seats_account" in {i["name"] for i in insp.get_indexes("redtable_seats", schema=st.schema)}
    for t in ("redtable_accounts", "redtable_sessions", "redtable_ratings", "redtable_rating_history"):
        assert insp.has_table(t, schema=st.schema)
    with st.engine.connect() as conn:
        assert conn.execute(text(f"SELECT count(*) FROM {st.qualified('redtable_accounts')}")).scalar_one() == 0
    st.dispose()


def test_sessions_store_only_the_tokens_hash(backend):
    from redtable.server import accounts as acc

    st = backend.store()
    a = acc.create_account(st, "Hashy", "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo")
    tok = acc.new_session(st, a.id, now=1000.0)
    assert acc.session_account(st, tok, now=1001.0) == a
    assert acc.session_account(st, tok, now=1000.0 + acc.SESSION_SECONDS + 1) is None  # expired
    with st.engine.connect() as conn:
        rows = conn.execute(select(acc.sessions_table)).mappings().all()
    assert rows and all(tok not in str(dict(r)) for r in rows)
    acc.new_session(st, a.id, now=1000.0 + acc.SESSION_SECONDS + 5)  # a log-in clears the account's expired ones
    with st.engine.connect() as conn:
        assert conn.execute(select(acc.sessions_table)).all().__len__() == 1
    acc.end_session(st, tok)
    with pytest.raises(acc.UsernameTaken):
        acc.create_account(st, "HASHY", "x")
    st.dispose()
