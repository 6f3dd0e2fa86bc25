"""The friends, notification and account self-service answers are their documented bodies, field
for field (issue 26): the Schemathesis run (test_openapi_live.py) seldom reaches their success
answers (they need two accounts that know each other's names, a table, a mailed token), so this
test walks every one of these routes as people do and checks each answer against the route's
``response_model`` (2xx) or ``ErrorBody`` (4xx), with ``Checker`` of test_openapi_bodies.py."""

from __future__ import annotations

import httpx
import pytest
from tablekit import Account, bearer
from test_openapi_bodies import Checker

from redtable.server import notifydb

ROUTES = {
    "DELETE /api/account 200",
    "GET /api/account/export 200",
    "GET /api/account/notifications 200",
    "PUT /api/account/notifications 200",
    "POST /api/unsubscribe/{token} 200",
    "POST /api/unsubscribe 200",
    "POST /api/unsubscribe 410",
    "POST /api/unsubscribe 400",
    "GET /api/friends 200",
    "GET /api/friends 401",
    "GET /api/friends/{username} 200",
    "PUT /api/friends/{username} 200",
    "PUT /api/friends/{username} 404",
    "PUT /api/friends/{username} 422",
    "DELETE /api/friends/{username} 200",
    "GET /api/blocks 200",
    "PUT /api/blocks/{username} 200",
    "DELETE /api/blocks/{username} 200",
    "GET /api/games/{game_id}/accounts 200",
    "POST /api/games/{game_id}/friend-invites 201",
    "POST /api/games/{game_id}/friend-invites 403",
    "GET /api/games/{game_id}/friend-invites 200",
    "DELETE /api/games/{game_id}/friend-invites/{seat} 200",
    "GET /api/invitations 200",
    "POST /api/invitations/{invite_id}/accept 200",
    "POST /api/invitations/{invite_id}/decline 200",
    "POST /api/invitations/{invite_id}/decline 404",
}


@pytest.mark.slow  # (three accounts, a table, an export, a deletion per backend: seconds of CPU)
def test_friends_notifications_and_self_service_answer_their_documented_bodies(tables):
    srv, api = tables
    check = Checker(srv.app)
    ann, bo, gone = (Account(srv.base) for _ in range(3))
    guest = httpx.Client(base_url=srv.base, timeout=20)
    for client in (ann.http, bo.http, gone.http, guest):
        client.event_hooks["response"].append(check)
    try:
        guest.get("/api/friends")
        ann.http.put(f"/api/friends/{ann.name}")  # (422 self)
        ann.http.put("/api/friends/nobody-here")
        ann.http.put(f"/api/friends/{bo.name}")
        ann.http.get(f"/api/friends/{bo.name}")
        # ann's table, open, ann at seat 0: bo follows and is invited to seat 1, then seat 2
        r = ann.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 3, "open": True})
        info = r.json()
        gid, key = info["game_id"], bearer(info["creator_key"])
        ann.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][0]["invite"]})
        bo.http.put(f"/api/friends/{ann.name}")
        bo.http.get("/api/friends")
        ann.http.post(f"/api/games/{gid}/friend-invites", json={"username": bo.name})  # (no creator key: 403)
        first = ann.http.post(f"/api/games/{gid}/friend-invites", json={"username": bo.name}, headers=key).json()
        ann.http.get(f"/api/games/{gid}/friend-invites", headers=key)
        ann.http.delete(f"/api/games/{gid}/friend-invites/1", headers=key)
        bo.http.post(f"/api/invitations/{first['invite_id']}/decline")  # (withdrawn: 404)
        second = ann.http.post(f"/api/games/{gid}/friend-invites", json={"username": bo.name}, headers=key).json()
        ann.http.put(f"/api/friends/{gone.name}")
        third = ann.http.post(
            f"/api/games/{gid}/friend-invites", json={"username": gone.name, "seat": 2}, headers=key
        ).json()
        bo.http.get("/api/invitations")
        bo.http.get("/api/friends")
        gone.http.post(f"/api/invitations/{third['invite_id']}/decline")
        bo.http.post(f"/api/invitations/{second['invite_id']}/accept")
        bo.http.get(f"/api/games/{gid}/accounts")
        ann.http.delete(f"/api/friends/{bo.name}")
        ann.http.put(f"/api/blocks/{bo.name}")
        ann.http.get("/api/blocks")
        ann.http.delete(f"/api/blocks/{bo.name}")
        # notifications, unsubscribe links, the export, a deletion
        page = ann.http.get("/api/account/notifications").json()
        ann.http.put("/api/account/notifications", json=page["settings"] | {"digest": True})
        account_id = api_account_id(srv, ann.name)
        token = notifydb.new_unsub_token(srv.hub.store, account_id, "your_turn")
        guest.post(f"/api/unsubscribe/{token}")
        token = notifydb.new_unsub_token(srv.hub.store, account_id, "digest")
        guest.post("/api/unsubscribe", json={"token": token})
        guest.post("/api/unsubscribe", json={"token": token})  # (spent: 410)
        guest.post("/api/unsubscribe", json={"token": "not a token"})
        ann.http.get("/api/account/export")
        gone.http.delete("/api/account")  # (a session minutes old: no password needed)
    finally:
        for a in (ann, bo, gone):
            a.close()
        guest.close()
    assert not check.wrong, "answers that are not their documented bodies:\n" + "\n".join(sorted(check.wrong))
    assert ROUTES <= set(check.checked), sorted(ROUTES - set(check.checked))


def api_account_id(srv, name: str) -> int:
    from redtable.server.accounts import account_by_name

    found = account_by_name(srv.hub.store, name)
    assert found is not None
    return found[0].id
