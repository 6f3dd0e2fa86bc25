"""Notifications on a fleet: two server processes on one PostgreSQL schema, one loopback SMTP
server and one loopback push endpoint. A turn-based game is joined and played through both
processes, and both run the daily digest's rounds every fraction of a second: every event is
pushed once and mailed once, not twice, and the digest goes out once."""

from __future__ import annotations

import re
import time
import uuid

import httpx
import pytest
from fleetkit import Proc
from mailkit import SmtpServer, link_token
from pushkit import Browser, PushService
from srvkit import PG_URL

from redtable.server.push import subscribe
from redtable.server.store import Store

PASSWORD = "correct horse battery"
METRICS = "m" * 24


def wait(cond, what: str, timeout: float = 30.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"waited {timeout} s for {what}")


def rounds(p: Proc) -> float:
    text = httpx.get(p.base + "/metrics", headers={"Authorization": f"Bearer {METRICS}"}, timeout=10).text
    m = re.search(r"^redtable_digest_rounds_total (\S+)$", text, re.M)
    return float(m.group(1)) if m else 0.0


@pytest.fixture
def fleet(schema, tmp_path, monkeypatch):
    monkeypatch.setenv("REDTABLE_DIGEST_SECONDS", "0.3")
    smtp = SmtpServer().start()
    service = PushService()
    procs = []
    for i in range(2):
        p = Proc(schema, tmp_path / f"server{i}.log")
        p.extra = ["--smtp", smtp.url, "--public-url", "http://127.0.0.1:8000", "--metrics-token", METRICS]
        procs.append(p.start())
    store = Store(PG_URL, schema=schema)
    yield procs, smtp, service, store
    for p in procs:
        p.stop()
    store.dispose()
    smtp.stop()
    service.stop()


def person(proc: Proc, smtp, service, store) -> dict:
    c = httpx.Client(base_url=proc.base, timeout=20)
    name, email = "f" + uuid.uuid4().hex[:10], f"{uuid.uuid4().hex[:12]}@players.example.org"
    r = c.post("/api/accounts", json={"username": name, "password": PASSWORD, "email": email})
    assert r.status_code == 201, r.text
    csrf = r.json()["csrf"]
    msg = wait(lambda: smtp.sink.to(email), "the verification e-mail")[0]
    assert c.post("/api/email/verify", json={"token": link_token(msg, "verify-email")}).status_code == 200
    from redtable.server.accounts import find_account

    found = find_account(store, name)
    assert found is not None
    browser = Browser(service, name)
    sub = browser.subscription()
    subscribe(store, found[0].id, sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"], "en")
    return {"c": c, "name": name, "email": email, "csrf": csrf, "browser": browser}


@pytest.mark.multiprocess
def test_two_processes_push_and_mail_each_event_once(fleet):
    procs, smtp, service, store = fleet
    a, b = procs
    x, y = person(a, smtp, service, store), person(b, smtp, service, store)
    r = y["c"].put(
        "/api/account/notifications",
        json={"digest": True},
        headers={"X-CSRF-Token": y["csrf"]},
    )
    assert r.status_code == 200 and r.json()["settings"]["digest"] is True
    g = httpx.post(
        a.base + "/api/games",
        json={
            "game": "red-rising",
            "seats": [{"type": "human"}, {"type": "human"}],
            "clock": {"kind": "turn", "per_decision_h": 24},
            "options": {"block_windows": False},
        },
    ).json()
    gid = g["game_id"]
    tokens = []
    for who, seat in ((x, g["seats"][0]), (y, g["seats"][1])):  # x joins through a, y through b (it starts there)
        r = who["c"].post(
            f"/api/games/{gid}/join",
            json={"invite": seat["invite"], "name": who["name"]},
            headers={"X-CSRF-Token": who["csrf"]},
        )
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    people = [x, y]

    def pushes(who, kind):
        got = [who["browser"].decrypt(body) for _, body in service.to(who["browser"].path)]
        return [d for d in got if d["kind"] == kind]

    first = httpx.get(f"{a.base}/api/games/{gid}").json()["decision"]["player"]
    if first == 1:  # (a seat whose turn it is at the start hears "your turn" instead)
        wait(lambda: pushes(x, "table_started"), "the start's push")
    expected = [0, 0]
    last = None
    for i in range(60):  # decisions through both processes in turn, until it is y's turn after 8
        proc = procs[i % 2]
        st = httpx.get(f"{proc.base}/api/games/{gid}").json()
        turn = st["decision"]["player"]
        if turn != last:
            expected[turn] += 1
            wait(lambda t=turn: len(pushes(people[t], "your_turn")) >= expected[t], f"seat {turn}'s turn push")
        if i >= 8 and turn == 1:
            break
        mine = httpx.get(f"{proc.base}/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[turn]}"}).json()
        r = httpx.post(
            f"{proc.base}/api/games/{gid}/decisions",
            json={"action": mine["decision"]["options"][0], "version": mine["version"]},
            headers={"Authorization": f"Bearer {tokens[turn]}"},
        )
        assert r.status_code == 200, r.text
        last = turn
    assert turn == 1 and min(expected) >= 1

    # the digest: both processes run rounds; y's one e-mail of the day, then a few more rounds on each
    def digests():
        return [m for m in smtp.sink.to(y["email"]) if m["Subject"] == "redtable: games waiting for you"]

    digest = wait(digests, "y's digest")
    seen = [rounds(p) for p in procs]
    wait(
        lambda: all(rounds(p) >= n + 2 for p, n in zip(procs, seen, strict=True)),
        "two more digest rounds on each process",
    )
    for who, n in zip(people, expected, strict=True):
        wait(lambda w=who, n=n: len(pushes(w, "your_turn")) >= n, "the last turn's push")
        assert len(pushes(who, "your_turn")) == n  # one push per turn that came to it, not one per process
    assert len(pushes(x, "table_started")) == (1 if first == 1 else 0)  # (y's own sitting started it: not told)
    assert pushes(y, "table_started") == []
    assert len(digests()) == 1
    assert f"/#/game/{gid}" in digest[0].get_body(("plain",)).get_content()
    x_turns = [m for m in smtp.sink.to(x["email"]) if m["Subject"] == "Red Rising: your turn"]
    assert len(x_turns) == 1  # one per game per hour, across the fleet
    assert not [m for m in smtp.sink.to(y["email"]) if m["Subject"] == "Red Rising: your turn"]  # the digest instead
