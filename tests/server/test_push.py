"""Web Push against a push service on loopback that receives the encrypted payloads, which the
test's "browsers" decrypt with their own keys; on SQLite and PostgreSQL."""

from __future__ import annotations

import time
import uuid

import httpx
import pytest
from pushkit import Browser, PushService
from srvkit import BACKENDS, Backend, require_backend, start_server

from redtable.server.push import push_keys_table, subscriptions_of

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module", params=BACKENDS)
def pushing(request, tmp_path_factory):
    require_backend(request.param)
    b = Backend(request.param, tmp_path_factory.mktemp("push"))
    service = PushService()
    srv = start_server(b)
    srv.app.state.push_loopback = True  # (tests: a push service on http://127.0.0.1)
    yield srv, service
    srv.stop()
    service.stop()
    b.cleanup()


def account(srv) -> tuple[httpx.Client, str, str]:
    c = httpx.Client(base_url=srv.base, timeout=20)
    name = "p" + uuid.uuid4().hex[:10]
    r = c.post("/api/accounts", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201
    return c, name, r.json()["csrf"]


def test_turn_pushes_name_the_game_and_whose_turn_never_a_card(pushing):
    srv, service = pushing
    key = httpx.get(srv.base + "/api/push/key").json()["public_key"]
    people = []
    for label in ("a", "b"):
        c, name, csrf = account(srv)
        browser = Browser(service, f"{label}-{uuid.uuid4().hex[:6]}")
        r = c.post(
            "/api/push/subscriptions", json={**browser.subscription(), "lang": "en"}, headers={"X-CSRF-Token": csrf}
        )
        assert r.status_code == 201, r.text
        quiet = {"push": {"table_started": False}}  # (this test counts the turns' pushes only)
        assert c.put("/api/account/notifications", json=quiet, headers={"X-CSRF-Token": csrf}).status_code == 200
        people.append((c, name, csrf, browser))
    g = httpx.post(
        srv.base + "/api/games",
        json={
            "game": "red-rising",
            "seats": [{"type": "human"}, {"type": "human"}],
            "clock": {"kind": "turn", "per_decision_h": 24},
        },
    ).json()
    tokens = []
    for (c, name, csrf, _), seat in zip(people, g["seats"], strict=True):
        r = c.post(
            f"/api/games/{g['game_id']}/join",
            json={"invite": seat["invite"], "name": name},
            headers={"X-CSRF-Token": csrf},
        )
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    expected = [0, 0]  # the pushes each account's browser must get: one each time the turn comes to it
    last = None
    for _ in range(6):
        turn = _turn_now(srv, g, tokens)
        if turn != last:
            expected[turn] += 1
        c, name, _, browser = people[turn]
        headers, body = service.wait(browser.path, expected[turn])
        assert headers["content-encoding"] == "aes128gcm"
        assert headers["authorization"].startswith("vapid t=") and f"k={key}" in headers["authorization"]
        mine = httpx.get(
            srv.base + f"/api/games/{g['game_id']}", headers={"Authorization": f"Bearer {tokens[turn]}"}
        ).json()
        action = mine["decision"]["options"][0]
        r = httpx.post(
            srv.base + f"/api/games/{g['game_id']}/decisions",
            json={"action": action, "version": mine["version"]},
            headers={"Authorization": f"Bearer {tokens[turn]}"},
        )
        assert r.status_code == 200, r.text
        last = turn
    turn = _turn_now(srv, g, tokens)
    if turn != last:
        expected[turn] += 1
    assert expected[0] >= 1 and expected[1] >= 1
    time.sleep(0.5)
    for (_, name, _, browser), n in zip(people, expected, strict=True):
        got = service.to(browser.path)
        assert len(got) == n  # one push per turn that came to it, none for the other's turns
        for _, body in got:
            data = browser.decrypt(body)
            assert data["kind"] == "your_turn" and data["game_id"] == g["game_id"] and data["game"] == "red-rising"
            assert data["turn"] == name and data["title"] == "Red Rising: your turn"
            assert data["url"].endswith(g["game_id"])
            assert set(data) == {"kind", "game_id", "game", "turn", "title", "body", "url"}  # no hand, no card


def _turn_now(srv, g, tokens) -> int:
    state = httpx.get(srv.base + f"/api/games/{g['game_id']}", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
    return state["decision"]["player"]


def test_expired_subscriptions_are_dropped_and_keys_kept(pushing):
    srv, service = pushing
    from redtable.server.push import notify_account, payload

    c, name, csrf = account(srv)
    gone, alive = Browser(service, "gone-" + uuid.uuid4().hex[:6]), Browser(service, "alive-" + uuid.uuid4().hex[:6])
    service.status[gone.path] = 410
    for b in (gone, alive):
        assert (
            c.post("/api/push/subscriptions", json=b.subscription(), headers={"X-CSRF-Token": csrf}).status_code == 201
        )
    store = srv.app.state.store
    me = c.get("/api/account").json()
    assert me["username"] == name
    account_id = _account_id(store, name)
    sent = srv.call(
        notify_account,
        store,
        account_id,
        "your_turn",
        lambda lang: payload("your_turn", lang, "g1", "red-north", name),
        "mailto:t@example.org",
    )
    assert sent == 1
    assert [s["endpoint"] for s in subscriptions_of(store, account_id)] == [alive.endpoint]
    assert alive.decrypt(service.wait(alive.path)[1])["title"] == "Red North: your turn"
    with store.engine.connect() as conn:
        assert len(conn.execute(push_keys_table.select()).all()) == 1  # one key, kept


def _account_id(store, name: str) -> int:
    from redtable.server.accounts import find_account

    found = find_account(store, name)
    assert found is not None
    return found[0].id


@pytest.mark.parametrize(
    "body, code",
    [
        ({"endpoint": "http://10.0.0.1/x", "keys": {"p256dh": "A" * 87, "auth": "A" * 22}}, "bad_push_endpoint"),
        ({"endpoint": "https://push.example/x", "keys": {"p256dh": "A" * 80, "auth": "A" * 22}}, "bad_push_endpoint"),
        ({"endpoint": "https://push.example/x", "keys": {"p256dh": "A" * 87}}, "malformed"),
    ],
)
def test_bad_subscriptions_are_refused(pushing, body, code):
    srv, _ = pushing
    c, _, csrf = account(srv)
    r = c.post("/api/push/subscriptions", json=body, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 422 and r.json()["error"] == code, r.text
    good = {"endpoint": "https://push.example/x", "keys": {"p256dh": "B" * 87, "auth": "A" * 22}}
    assert httpx.post(srv.base + "/api/push/subscriptions", json=good).status_code == 401  # logged in only
