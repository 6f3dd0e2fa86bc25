"""Helpers of the server tests: storage backends, a real uvicorn server, a small API client.

Storage tests run against SQLite (a fresh file) and PostgreSQL (a fresh schema in the
database of ``REDTABLE_TEST_PG_URL``, default ``postgresql://postgres@127.0.0.1:5432/test``,
dropped afterwards). Without a reachable PostgreSQL those cases are skipped, unless
``REDTABLE_REQUIRE_PG=1`` (then they fail).
"""

from __future__ import annotations

import asyncio
import os
import uuid
from functools import lru_cache

import httpx
import orjson
import pytest
from kit import free_port  # noqa: F401  (the folder's tests import it from here)
from kit.threaded import UvicornThread
from websockets.sync.client import connect

from redtable.server.app import create_app
from redtable.server.store import Store

PG_URL = os.environ.get("REDTABLE_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ["sqlite", "postgresql"]


@lru_cache(maxsize=1)
def pg_problem() -> str | None:
    try:
        import psycopg

        dsn = PG_URL.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(dsn, connect_timeout=3) as conn:
            conn.execute("select 1")
        return None
    except Exception as e:  # noqa: BLE001
        return f"PostgreSQL at {PG_URL} unavailable: {e}"


def require_backend(backend: str) -> None:
    if backend == "postgresql" and pg_problem():
        if os.environ.get("REDTABLE_REQUIRE_PG") == "1":
            pytest.fail(pg_problem())
        pytest.skip(pg_problem())


class Backend:
    """Where one test's games live: an SQLite file or a PostgreSQL schema of its own."""

    def __init__(self, kind: str, tmp_path) -> None:
        self.kind = kind
        if kind == "sqlite":
            self.url = f"sqlite:///{tmp_path}/games.db"
            self.schema = None
        else:
            self.url = PG_URL
            self.schema = f"rt_test_{uuid.uuid4().hex[:12]}"

    def store(self, **kw) -> Store:
        st = Store(self.url, schema=self.schema, **kw)
        st.create_tables()
        return st

    def cli_args(self) -> list[str]:
        return ["--db", self.url] + (["--db-schema", self.schema] if self.schema else [])

    def cleanup(self) -> None:
        if self.schema:
            st = Store(self.url, schema=self.schema)
            st.drop_schema()
            st.dispose()


class ThreadServer(UvicornThread):
    """The app served by uvicorn on a loopback port, in a thread of the test process."""

    def __init__(self, app) -> None:
        from redtable.server.httpbounds import BoundedHttpToolsProtocol

        self.app = app
        super().__init__(app, ws="websockets-sansio", ws_per_message_deflate=False, http=BoundedHttpToolsProtocol)

    @property
    def hub(self):
        return self.app.state.hub

    def call(self, fn, *args):
        """Run ``fn(*args)`` (sync, or a coroutine function) on the server's event loop."""

        async def wrap():
            r = fn(*args)
            if asyncio.iscoroutine(r):
                r = await r
            return r

        return asyncio.run_coroutine_threadsafe(wrap(), self.hub.loop).result(20)


def start_server(backend: Backend, **kw) -> ThreadServer:
    """A test server: one client (this process) makes all the games, so the per-client limits are
    relaxed, and seeds may be chosen for games of several people (tests replay known deals)."""
    from redtable.server.limits import Limits

    store = backend.store()
    kw.setdefault("limits", Limits().relaxed())
    kw.setdefault("allow_chosen_seeds", True)
    kw.setdefault("window_median", 0.02)
    return ThreadServer(create_app(store=store, **kw)).start()


class Api:
    """A thin client of the HTTP API."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=20)

    def create(self, game="red-rising", seats=("human", "human"), **body) -> dict:
        """A game; Red Rising without block windows unless asked (tests of them ask; see test_windows.py)."""
        if game == "red-rising":
            body["options"] = {"block_windows": False, **body.get("options", {})}
        spec = [
            {"type": "bot", "bot": s.split(":", 1)[1] if ":" in s else "random"}
            if s.startswith("bot")
            else {"type": "human"}
            for s in seats
        ]
        r = self.http.post("/api/games", json={"game": game, "seats": spec, **body})
        assert r.status_code == 201, r.text
        return r.json()

    def join(self, game_id: str, invite: str, name: str | None = None) -> str:
        r = self.http.post(f"/api/games/{game_id}/join", json={"invite": invite, "name": name})
        assert r.status_code == 200, r.text
        return r.json()["token"]

    def new_game(self, game="red-rising", seats=("human", "human"), **body) -> tuple[dict, list[str | None]]:
        info = self.create(game, seats, **body)
        tokens = [self.join(info["game_id"], s["invite"]) if s["invite"] else None for s in info["seats"]]
        return info, tokens

    def get(self, game_id: str, token: str | None = None, **params) -> httpx.Response:
        return self.http.get(
            f"/api/games/{game_id}", params=params, headers={"Authorization": f"Bearer {token}"} if token else {}
        )

    def state(self, game_id: str, token: str | None = None) -> dict:
        r = self.get(game_id, token)
        assert r.status_code == 200, r.text
        return r.json()

    def decide(self, game_id: str, token: str | None, action, version) -> httpx.Response:
        return self.http.post(
            f"/api/games/{game_id}/decisions",
            json={"action": action, "version": version},
            headers={"Authorization": f"Bearer {token}"} if token else {},
        )

    def undo(self, game_id: str, token: str | None, version) -> httpx.Response:
        return self.http.post(
            f"/api/games/{game_id}/undo",
            json={"version": version},
            headers={"Authorization": f"Bearer {token}"} if token else {},
        )

    def close(self) -> None:
        self.http.close()


def audience_ok(event: dict, seat: int | None) -> bool:
    """A private event (``to``: a list of seats) must be addressed to ``seat``.

    (A public event may carry its own data field ``to``, e.g. Red North's ``first-player``,
    which is an int: ``Event.to_json`` merges data and audience.)
    """
    to = event.get("to")
    return not isinstance(to, list) or (seat is not None and seat in to)


def loads(raw) -> dict:
    return orjson.loads(raw)


class Client:
    """One WebSocket client that keeps every message it receives."""

    def __init__(self, srv, game_id: str, token: str | None) -> None:
        url = f"{srv.ws_base}/api/games/{game_id}/ws"
        self._cm = connect(url, open_timeout=10, compression=None, max_size=2**24)
        self.ws = self._cm.__enter__()
        self.ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
        self.messages: list[dict] = []
        self.last: dict | None = None  # the last state or update
        self.first = self.recv_type("state")

    def recv(self, timeout: float = 10.0) -> dict:
        msg = orjson.loads(self.ws.recv(timeout=timeout))
        self.messages.append(msg)
        if msg["type"] in ("state", "update"):
            self.last = msg
        return msg

    def recv_type(self, kind: str, timeout: float = 10.0) -> dict:
        while True:
            msg = self.recv(timeout)
            if msg["type"] == kind:
                return msg

    def until_version(self, version: int, timeout: float = 10.0) -> dict:
        while self.last is None or self.last["version"] < version:
            self.recv(timeout)
        return self.last

    def send(self, **msg) -> None:
        self.ws.send(orjson.dumps(msg).decode())

    def close(self) -> None:
        self._cm.__exit__(None, None, None)
