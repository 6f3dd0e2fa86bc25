"""Helpers of the table tests (open tables, quick play, clocks, abandonment): a server whose
time is short, accounts, polling until something happens."""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import httpx
from srvkit import Api, Backend, start_server

#: Clock options are multiplied by this on the test servers: a 30 s bank lasts 0.3 s.
SCALE = 0.01
#: Idle limits (seconds) after which the test servers close a table nobody plays.
IDLE = {"none": 1.0, "realtime": 1.0, "turn": 2.0}


def table_server(backend: Backend, **kw: Any):
    """A test server whose time is short and whose clients may name their address in
    ``X-Forwarded-For`` (as behind a trusted proxy), so that one test plays several people at
    once (:func:`address`) and each :class:`Account` comes from its own network (``fairplay.py``
    rates only those)."""

    from redtable.server.limits import Limits

    kw.setdefault("limits", replace(Limits().relaxed(), trust_proxy=True))
    kw.setdefault("clock_scale", SCALE)
    kw.setdefault("table_idle_seconds", IDLE)
    kw.setdefault("table_sweep_seconds", 0.05)
    return start_server(backend, **kw)


def address() -> dict[str, str]:
    """Headers that make a request come from an address no other request of the tests used."""
    return {"X-Forwarded-For": new_address()}


def until(fn: Callable[[], Any], timeout: float = 30.0, every: float = 0.05, what: str = "the condition") -> Any:
    """Poll ``fn`` until it answers something true (and return it), or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        got = fn()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s (last: {got!r})")
        time.sleep(every)


def wait_message(ws: Any, pred: Callable[[dict], bool], timeout: float = 10.0) -> dict:
    """The first message a WebSocket client (``srvkit.Client``) got or gets that ``pred`` accepts."""
    deadline = time.monotonic() + timeout
    seen = 0
    while True:
        for m in ws.messages[seen:]:
            if pred(m):
                return m
        seen = len(ws.messages)
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no such message within {timeout} s: {ws.messages[-5:]}")
        ws.recv(left)


def create(api: Api, game: str = "red-north", seats: tuple[str, ...] = ("human", "human"), **body: Any) -> dict:
    """A game with any body (open, clock, rated...): the answer (201 asserted)."""
    if game == "red-rising":
        body["options"] = {"block_windows": False, **body.get("options", {})}
    spec = [
        {"type": "bot", "bot": s.split(":", 1)[1] if ":" in s else "random"}
        if s.startswith("bot")
        else {"type": "human"}
        for s in seats
    ]
    r = api.http.post("/api/games", json={"game": game, "seats": spec, **body})
    assert r.status_code == 201, r.text
    return r.json()


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


_ADDRESSES = itertools.count(1)


def new_address() -> str:
    """An address of its own (a documentation range): a person on a network nobody else uses."""
    n = next(_ADDRESSES)
    return f"198.{18 + n // 65536 % 2}.{n // 256 % 256}.{n % 256}"


class Account:
    """A logged-in account (accounts.py): its own HTTP client with the session cookie and CSRF
    header, its own device (cookie jar) and, on a server that trusts X-Forwarded-For, its own
    network (``address``: pass another account's to share it)."""

    def __init__(self, base: str, name: str | None = None, address: str | None = None) -> None:
        self.name = name or f"u{uuid.uuid4().hex[:10]}"
        self.address = address or new_address()
        self.http = httpx.Client(base_url=base, timeout=20, headers={"X-Forwarded-For": self.address})
        r = self.http.post("/api/accounts", json={"username": self.name, "password": "correct horse 42"})
        assert r.status_code == 201, r.text  # (registering logs in)
        self.http.headers["X-CSRF-Token"] = r.json()["csrf"]

    def close(self) -> None:
        self.http.close()


def accounts_available(base: str) -> bool:
    try:
        return httpx.get(f"{base}/api/session", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def play_random(api: Api, gid: str, tokens: list[str | None], seed: int = 1, limit: int = 3000) -> dict:
    """Play the people's seats at random over HTTP until the game is over (bots play themselves)."""
    import random

    rnd = random.Random(seed)
    for _ in range(limit):
        st = api.state(gid)
        if st["status"] != "active":
            return st
        d = st["decision"]
        if d is None or tokens[d["player"]] is None or st["seats"][d["player"]]["type"] == "bot":
            time.sleep(0.02)
            continue
        mine = api.state(gid, tokens[d["player"]])
        dd = mine["decision"]
        if dd is None or dd.get("auto") or dd["player"] != d["player"]:
            time.sleep(0.02)
            continue
        api.decide(gid, tokens[d["player"]], rnd.choice(dd["options"]), mine["version"])
    raise AssertionError("the game did not end")
