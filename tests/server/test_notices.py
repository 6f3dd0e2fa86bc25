"""Notifications (``notices.py``): every kind by the account's settings, to a real SMTP server
(aiosmtpd) and a real push endpoint on loopback whose "browsers" decrypt the payloads; turn
e-mails once per game per hour (an injected clock), the daily digest, RFC 8058 one-click
unsubscribe; on SQLite and PostgreSQL."""

from __future__ import annotations

import itertools
import re
import uuid
from dataclasses import replace

import httpx
import pytest
from mailkit import SmtpServer, link_token
from pushkit import Browser, PushService
from srvkit import BACKENDS, Backend, require_backend, start_server

from redtable.server import notices
from redtable.server.limits import Limits
from redtable.server.notifymail import digest_round

PASSWORD = "correct horse battery"
T0 = 1_900_000_000.0
_net = itertools.count(1)
UNSUB_RE = re.compile(r"<(https?://\S+/api/unsubscribe/([A-Za-z0-9_-]+))>")


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module", params=BACKENDS)
def site(request, tmp_path_factory):
    require_backend(request.param)
    b = Backend(request.param, tmp_path_factory.mktemp("notices"))
    smtp = SmtpServer().start()
    service = PushService()
    srv = start_server(b, smtp=smtp.url, limits=replace(Limits().relaxed(), trust_proxy=True))
    srv.app.state.push_loopback = True
    n = srv.hub.notifier
    n.public_url = srv.base
    n.clock = Clock()
    yield srv, smtp, service
    srv.stop()
    smtp.stop()
    service.stop()
    b.cleanup()


class Person:
    def __init__(self, srv, smtp, service=None, lang: str = "en", verify: bool = True) -> None:
        k = next(_net)
        self.c = httpx.Client(
            base_url=srv.base,
            timeout=20,
            headers={"X-Forwarded-For": f"10.{k // 250}.{k % 250}.9", "Accept-Language": lang},
        )
        self.name = "n" + uuid.uuid4().hex[:10]
        self.email = f"{uuid.uuid4().hex[:12]}@players.example.org"
        r = self.c.post("/api/accounts", json={"username": self.name, "password": PASSWORD, "email": self.email})
        assert r.status_code == 201, r.text
        self.csrf = r.json()["csrf"]
        if verify:
            msg = wait_mail(smtp, self.email)
            assert self.c.post("/api/email/verify", json={"token": link_token(msg, "verify-email")}).status_code == 200
        self.browser = None
        if service is not None:
            self.browser = Browser(service, uuid.uuid4().hex[:8])
            r = self.c.post("/api/push/subscriptions", json={**self.browser.subscription(), "lang": lang}, **self.h)
            assert r.status_code == 201, r.text

    @property
    def h(self) -> dict:
        return {"headers": {"X-CSRF-Token": self.csrf}}

    def settings(self, **change) -> dict:
        got = self.c.get("/api/account/notifications").json()["settings"]
        for part, value in change.items():
            if isinstance(value, dict):
                got[part].update(value)
            else:
                got[part] = value
        r = self.c.put("/api/account/notifications", json=got, **self.h)
        assert r.status_code == 200, r.text
        return r.json()["settings"]

    def mails(self, smtp) -> list:
        return smtp.sink.to(self.email)[1:]  # (the first was the verification)

    def pushes(self, service) -> list[dict]:
        return [self.browser.decrypt(b) for _, b in service.to(self.browser.path)]


def wait_mail(smtp, to: str, n: int = 1):
    import time

    deadline = time.time() + 20
    while time.time() < deadline:
        got = smtp.sink.to(to)
        if len(got) >= n:
            return got[n - 1]
        time.sleep(0.05)
    raise AssertionError(f"{len(smtp.sink.to(to))} e-mails to {to}, {n} expected")


def settle(srv) -> None:
    """Every notification under way is done (pushed, mailed): the notifier's tasks drained."""
    srv.call(srv.hub.notifier.drain)


def turn_game(srv, people, clock=None) -> tuple[str, list[str]]:
    g = httpx.post(
        srv.base + "/api/games",
        json={
            "game": "red-rising",
            "seats": [{"type": "human"} for _ in people],
            "clock": clock or {"kind": "turn", "per_decision_h": 24},
            "options": {"block_windows": False},
        },
    ).json()
    tokens = []
    for p, seat in zip(people, g["seats"], strict=True):
        r = p.c.post(f"/api/games/{g['game_id']}/join", json={"invite": seat["invite"], "name": p.name}, **p.h)
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    settle(srv)
    return g["game_id"], tokens


def turn_of(srv, gid, tokens) -> int:
    got = httpx.get(srv.base + f"/api/games/{gid}").json()  # (as a spectator: no seat counts as present)
    return got["decision"]["player"]


def play_until(srv, gid, tokens, seat: int, limit: int = 40) -> None:
    """Decide for whoever is to move until it is ``seat``'s turn after another's."""
    moved_other = False
    for _ in range(limit):
        turn = turn_of(srv, gid, tokens)
        if turn == seat and moved_other:
            settle(srv)
            return
        mine = httpx.get(srv.base + f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[turn]}"}).json()
        r = httpx.post(
            srv.base + f"/api/games/{gid}/decisions",
            json={"action": mine["decision"]["options"][0], "version": mine["version"]},
            headers={"Authorization": f"Bearer {tokens[turn]}"},
        )
        assert r.status_code == 200, r.text
        moved_other = moved_other or turn != seat
    raise AssertionError(f"seat {seat}'s turn did not come back")


def turn_mails(p, smtp, gid) -> list:
    return [m for m in p.mails(smtp) if "your turn" in m["Subject"] and gid in m.get_body(("plain",)).get_content()]


# ---------------------------------------------------------------------- settings
def test_settings_are_strict_bounded_and_the_accounts_own(site):
    srv, smtp, _ = site
    p = Person(srv, smtp, verify=False)
    got = p.c.get("/api/account/notifications").json()
    assert got["settings"]["push"] == dict.fromkeys(got["kinds"], True)
    assert got["settings"]["email"]["your_turn"] is True and got["settings"]["digest"] is False
    assert got["email_enabled"] is True and got["email_verified"] is False
    assert p.settings(digest=True, email={"invited": False})["digest"] is True
    again = p.c.get("/api/account/notifications").json()["settings"]
    assert again["digest"] is True and again["email"]["invited"] is False
    for bad in ({"push": {"your_turn": "yes"}}, {"push": {"nonsense": True}}, {"digest": 1}, {"colour": "red"}):
        r = p.c.put("/api/account/notifications", json=bad, **p.h)
        assert r.status_code == 422 and "error" in r.json(), (bad, r.text)
    assert p.c.put("/api/account/notifications", json={}).status_code == 403  # no CSRF token
    assert httpx.get(srv.base + "/api/account/notifications").status_code == 401


# ---------------------------------------------------------------------- turn e-mails, unsubscribe
def test_turn_emails_once_per_game_per_hour_with_one_click_unsubscribe(site):
    srv, smtp, service = site
    clock = srv.hub.notifier.clock
    a, b = Person(srv, smtp, service), Person(srv, smtp, service)
    gid, tokens = turn_game(srv, [a, b])
    first = turn_of(srv, gid, tokens)
    people = [a, b]
    x, y = people[first], people[1 - first]
    assert len(turn_mails(x, smtp, gid)) == 1 and turn_mails(y, smtp, gid) == []
    play_until(srv, gid, tokens, 1 - first)
    assert len(turn_mails(y, smtp, gid)) == 1
    clock.now += 600  # ten minutes later, the turn comes back to x: a push, but no second e-mail
    play_until(srv, gid, tokens, first)
    assert len(turn_mails(x, smtp, gid)) == 1
    assert sum(d["kind"] == "your_turn" for d in x.pushes(service)) == 2
    clock.now += 3600  # an hour after the first: the next turn of x is mailed again
    play_until(srv, gid, tokens, 1 - first)
    play_until(srv, gid, tokens, first)
    mails = turn_mails(x, smtp, gid)
    assert len(mails) == 2
    msg = mails[-1]
    assert msg["Subject"] == "Red Rising: your turn" and msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url, token = UNSUB_RE.fullmatch(msg["List-Unsubscribe"]).groups()
    text = msg.get_body(("plain",)).get_content()
    assert f"{srv.base}/#/game/{gid}" in text and f"{srv.base}/#/unsubscribe/{token}" in text
    assert x.name in text and "card" not in text.lower()
    # RFC 8058: the mail client posts the form, no cookie; once
    r = httpx.post(url, data={"List-Unsubscribe": "One-Click"})
    assert r.status_code == 200 and r.json() == {"unsubscribed": True, "kind": "your_turn"}, r.text
    again = httpx.post(url, data={"List-Unsubscribe": "One-Click"})
    assert again.status_code == 410 and again.json()["error"] == "link_expired"
    assert x.c.get("/api/account/notifications").json()["settings"]["email"]["your_turn"] is False
    clock.now += 7200  # off: no more turn e-mails, the pushes go on
    play_until(srv, gid, tokens, 1 - first)
    play_until(srv, gid, tokens, first)
    assert len(turn_mails(x, smtp, gid)) == 2 and len(turn_mails(y, smtp, gid)) == 3
    # the earlier e-mail's human link: the page posts its token in a body, once
    older = turn_mails(y, smtp, gid)[0]
    _, token = UNSUB_RE.fullmatch(older["List-Unsubscribe"]).groups()
    r = httpx.post(srv.base + "/api/unsubscribe", json={"token": token})
    assert r.status_code == 200 and r.json()["kind"] == "your_turn"
    assert httpx.post(srv.base + "/api/unsubscribe", json={"token": token}).status_code == 410
    assert httpx.post(srv.base + "/api/unsubscribe", json={"token": "not a token"}).status_code == 400


def test_only_verified_addresses_are_mailed_in_their_language(site):
    srv, smtp, _ = site
    a = Person(srv, smtp, lang="uk")
    b = Person(srv, smtp, verify=False)
    gid, tokens = turn_game(srv, [a, b])
    first = turn_of(srv, gid, tokens)
    if first == 1:
        play_until(srv, gid, tokens, 0)
    mails = a.mails(smtp)
    assert mails and mails[-1]["Subject"] == "Червоний світанок: ваш хід"
    assert "Вимкнути листи цього виду" in mails[-1].get_body(("plain",)).get_content()
    play_until(srv, gid, tokens, 1)
    assert len(smtp.sink.to(b.email)) == 1  # the verification only: never a notification unverified


# ---------------------------------------------------------------------- the daily digest
def test_daily_digest_instead_of_turn_emails_once_a_day(site):
    srv, smtp, _ = site
    clock = srv.hub.notifier.clock
    a, b = Person(srv, smtp, lang="pl"), Person(srv, smtp)
    a.settings(digest=True)
    gid, tokens = turn_game(srv, [a, b])
    if turn_of(srv, gid, tokens) == 1:
        play_until(srv, gid, tokens, 0)
    assert turn_mails(a, smtp, gid) == [] and not [m for m in a.mails(smtp) if "twój ruch" in m["Subject"]]
    n = srv.hub.notifier
    srv.call(digest_round, n)
    mails = [m for m in a.mails(smtp) if m["Subject"] == "redtable: gry czekają na ciebie"]
    assert len(mails) == 1
    text = mails[0].get_body(("plain",)).get_content()
    assert f"{srv.base}/#/game/{gid}" in text and mails[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    srv.call(digest_round, n)
    clock.now += 3600
    srv.call(digest_round, n)
    assert len([m for m in a.mails(smtp) if m["Subject"] == "redtable: gry czekają na ciebie"]) == 1  # once a day
    clock.now += 24 * 3600
    srv.call(digest_round, n)
    digests = [m for m in a.mails(smtp) if m["Subject"] == "redtable: gry czekają na ciebie"]
    assert len(digests) == 2
    url, _ = UNSUB_RE.fullmatch(digests[-1]["List-Unsubscribe"]).groups()
    assert httpx.post(url, data={"List-Unsubscribe": "One-Click"}).json()["kind"] == "digest"
    assert a.c.get("/api/account/notifications").json()["settings"]["digest"] is False


# ---------------------------------------------------------------------- the other kinds, by push
def test_every_kind_is_pushed_by_its_switch_and_names_no_card(site):
    srv, smtp, service = site
    a, c, b = Person(srv, smtp, service), Person(srv, smtp, service), Person(srv, smtp, service)
    c.settings(push={"table_started": False})
    gid, tokens = turn_game(srv, [a, c, b], clock={"kind": "none"})  # b sits last: its sitting starts the table
    started = [d for d in a.pushes(service) if d["kind"] == "table_started"]
    assert len(started) == 1 and started[0]["game_id"] == gid
    assert started[0]["title"] == "Red Rising: the game has started"
    assert not [d for d in c.pushes(service) if d["kind"] == "table_started"]  # its switch is off
    assert not [d for d in b.pushes(service) if d["kind"] == "table_started"]  # it started the table itself
    # an invitation (the friends feature states it; here the fact is stated directly)
    b_id = _account_id(srv, b.name)
    srv.call(notices.invited, srv.hub, b_id, gid, "red-north", a.name)
    srv.call(notices.invited, srv.hub, b_id, gid, "red-north", a.name)  # the same invitation: once
    settle(srv)
    inv = [d for d in b.pushes(service) if d["kind"] == "invited"]
    assert len(inv) == 1 and inv[0]["by"] == a.name and inv[0]["title"] == "Red North: an invitation"
    inv_mail = [m for m in b.mails(smtp) if m["Subject"] == f"{a.name} invites you to a game of Red North"]
    assert len(inv_mail) == 1 and inv_mail[0]["List-Unsubscribe"]
    for d in a.pushes(service) + b.pushes(service):
        assert set(d) <= {"kind", "game_id", "game", "turn", "title", "body", "url", "by"}


def test_a_real_time_game_waiting_on_an_absent_player_pushes(site):
    srv, smtp, service = site
    a, b = Person(srv, smtp, service), Person(srv, smtp, service)
    gid, tokens = turn_game(srv, [a, b], clock={"kind": "realtime", "bank_s": 600, "increment_s": 5})
    first = turn_of(srv, gid, tokens)
    play_until(srv, gid, tokens, 1 - first)
    waiting = [d for d in [a, b][1 - first].pushes(service) if d["kind"] == "waiting"]
    assert len(waiting) == 1 and waiting[0]["game_id"] == gid  # (read within 30 s counts as present: not the reader)
    assert not [m for m in [a, b][1 - first].mails(smtp) if "waits" in m["Subject"]]  # its e-mail is off by default


def _account_id(srv, name: str) -> int:
    from redtable.server.accounts import find_account

    found = find_account(srv.hub.store, name)
    assert found is not None
    return found[0].id


def test_a_rematch_offer_reaches_the_other_person(site):
    from srvkit import Api
    from tablekit import play_random

    srv, smtp, service = site
    a, b = Person(srv, smtp, service), Person(srv, smtp, service, lang="pl")
    b.settings(email={"rematch_offered": True})
    g = httpx.post(
        srv.base + "/api/games",
        json={"game": "red-north", "seats": [{"type": "human"}, {"type": "human"}, {"type": "bot", "bot": "random"}]},
    ).json()
    tokens: list[str | None] = []
    for p, seat in zip([a, b], g["seats"][:2], strict=True):
        r = p.c.post(f"/api/games/{g['game_id']}/join", json={"invite": seat["invite"], "name": p.name}, **p.h)
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    tokens.append(None)
    assert play_random(Api(srv.base), g["game_id"], tokens)["status"] == "finished"
    r = httpx.post(srv.base + f"/api/games/{g['game_id']}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 200, r.text
    settle(srv)
    offers = [d for d in b.pushes(service) if d["kind"] == "rematch_offered"]
    assert len(offers) == 1 and offers[0]["by"] == a.name and offers[0]["title"] == "Red North: rewanż?"
    assert offers[0]["game_id"] == g["game_id"]
    assert not [d for d in a.pushes(service) if d["kind"] == "rematch_offered"]  # not to the one who offered
    mails = [m for m in b.mails(smtp) if m["Subject"] == "Red North: propozycja rewanżu"]
    assert len(mails) == 1 and a.name in mails[0].get_body(("plain",)).get_content()


def test_leaving_a_real_time_game_that_waits_on_you_is_told_if_you_stay_away(site):
    from srvkit import Client

    srv, smtp, service = site
    n = srv.hub.notifier
    a, b = Person(srv, smtp, service), Person(srv, smtp, service)
    gid, tokens = turn_game(srv, [a, b], clock={"kind": "realtime", "bank_s": 600, "increment_s": 5})
    first = turn_of(srv, gid, tokens)
    me = [a, b][first]
    at_start = len([d for d in me.pushes(service) if d["kind"] == "waiting"])  # (away at the start: told then)
    n.clock.now += 601  # past the gap between two "waiting" notices of one game
    srv.hub.present_seconds, before = 0.3, srv.hub.present_seconds  # (a page counts as open 0.3 s after a read)
    try:
        ws = Client(srv, gid, tokens[first])  # at the table, then the tab is closed on its own turn
        ws.close()
        service.wait(me.browser.path, len(me.pushes(service)) + 1)
        settle(srv)
    finally:
        srv.hub.present_seconds = before
    waiting = [d for d in me.pushes(service) if d["kind"] == "waiting"]
    assert len(waiting) == at_start + 1 and waiting[-1]["game_id"] == gid and waiting[-1]["turn"] == me.name
    other = [a, b][1 - first]
    assert len([d for d in other.pushes(service) if d["kind"] == "waiting"]) == 0  # not the one it does not wait on


def _sent(name: str) -> float:
    """All of a counter's samples (every kind) in this process's metrics registry."""
    from redtable.server.metrics import REGISTRY

    return sum(s.value for fam in REGISTRY.collect() for s in fam.samples if s.name == name)


def test_emails_and_pushes_sent_are_counted_in_the_metrics(site):
    """/metrics' redtable_emails_sent_total and redtable_pushes_sent_total count what was handed on."""
    srv, smtp, service = site
    mails, pushes = _sent("redtable_emails_sent_total"), _sent("redtable_pushes_sent_total")
    mailed = len(smtp.sink.messages)
    a, b = Person(srv, smtp, service), Person(srv, smtp, service)  # a verification e-mail each
    gid, _ = turn_game(srv, [a, b], clock={"kind": "none"})  # the table starts: a push to the one who sat first
    settle(srv)
    assert len(a.pushes(service)) >= 1
    assert _sent("redtable_emails_sent_total") - mails >= 2
    assert _sent("redtable_pushes_sent_total") - pushes == len(a.pushes(service)) + len(b.pushes(service))
    assert _sent("redtable_emails_sent_total") - mails == len(smtp.sink.messages) - mailed
