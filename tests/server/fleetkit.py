"""Helpers of the fleet tests: server processes on one PostgreSQL schema, and seats that play.

``Proc`` runs ``python -m redtable.server`` on a free loopback port (a real process, so a
test can SIGKILL it; serverproc.py). ``Table`` plays one game over WebSockets from asyncio: each seat has
a socket to the server the test chose for it, picks a random legal option when the game
waits for it, and keeps every message it received, so the test can check that every seat
saw every update, in order, whatever process it was connected to.
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

import httpx
import orjson
from serverproc import ServerProcess
from srvkit import PG_URL
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

REDIS_URL = os.environ.get("REDTABLE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_problem() -> str | None:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
        return None
    except Exception as e:  # noqa: BLE001
        return f"Redis at {REDIS_URL} unavailable: {e}"


class Proc(ServerProcess):
    """One server process of the fleet: on the PostgreSQL schema ``schema``, with short leases."""

    def __init__(
        self, schema: str, log: Path, *, bus: str | None = None, lease: float = 2.0, extra: list[str] | None = None
    ) -> None:
        super().__init__(log)
        self.schema, self.bus, self.lease = schema, bus, lease
        self.extra = extra or []
        self.ws = f"ws://127.0.0.1:{self.port}"

    def server_args(self) -> list[str]:
        args = ["--db", PG_URL, "--db-schema", self.schema, "--lease-seconds", str(self.lease), "--bot-workers", "1"]
        return args + self.extra + (["--bus", self.bus] if self.bus else [])

    def health(self) -> dict:
        return httpx.get(f"{self.base}/api/health", timeout=10).json()


class Seat:
    """One seat's (or a spectator's) socket: plays at random, keeps every message."""

    def __init__(self, table: Table, seat: int | None, token: str | None, server: Proc) -> None:
        self.table, self.seat, self.token, self.server = table, seat, token, server
        self.rng = random.Random(1000 + (seat if seat is not None else 99))
        self.messages: list[dict] = []
        self.acked: dict[int, str] = {}  # version reached -> our action
        self.pending: tuple[int, str] | None = None  # sent, not acknowledged
        self.refused_resend: tuple[int, str] | None = None
        self.last: dict | None = None
        self.connections = 0

    async def run(self) -> None:
        """Connected to ``self.server`` until the game ends or the server goes away."""
        url = f"{self.server.ws}/api/games/{self.table.game_id}/ws"
        self.connections += 1
        try:
            tls = {"ssl": self.server.ssl} if getattr(self.server, "ssl", None) else {}
            async with connect(url, open_timeout=20, max_size=2**24, ping_interval=None, **tls) as ws:
                await ws.send(orjson.dumps({"type": "auth", "token": self.token}).decode())
                if self.pending is not None:  # a decision in flight when the last server died: send it again
                    v, action = self.pending
                    await ws.send(
                        orjson.dumps({"type": "decide", "action": action, "version": v, "id": f"re{v}"}).decode()
                    )
                async for raw in ws:
                    msg = orjson.loads(raw)
                    self.messages.append(msg)
                    if msg["type"] == "error":
                        if self.pending is not None and msg.get("id") == f"re{self.pending[0]}":
                            assert msg["error"] in ("stale_version", "not_your_turn"), msg
                            self.refused_resend, self.pending = self.pending, None
                            continue
                        if msg["error"] in ("stale_version", "not_your_turn") and self.pending is not None:
                            self.pending = None  # (a state is on its way)
                            continue
                        raise AssertionError(f"seat {self.seat}: {msg}")
                    if msg["type"] not in ("state", "update"):
                        continue
                    self.last = msg
                    if msg["type"] == "update" and msg["by"] == self.seat and self.seat is not None:
                        if self.pending is not None and self.pending[0] + 1 == msg["version"]:
                            self.acked[msg["version"]] = msg["action"]
                            self.pending = None
                    if msg["status"] == "finished":
                        return
                    d = msg["decision"]
                    if (
                        self.seat is not None
                        and d is not None
                        and d["player"] == self.seat
                        and not d.get("auto")
                        and self.pending is None
                        and not self.table.paused
                    ):
                        action = self.rng.choice(d["options"])
                        self.pending = (msg["version"], action)
                        await ws.send(
                            orjson.dumps(
                                {"type": "decide", "action": action, "version": msg["version"], "id": msg["version"]}
                            ).decode()
                        )
        except (ConnectionClosed, OSError):
            return

    def updates(self) -> list[dict]:
        return [m for m in self.messages if m["type"] == "update"]


class Table:
    """A game played by seats spread over server processes."""

    def __init__(self, game_id: str, tokens: list[str | None]) -> None:
        self.game_id = game_id
        self.tokens = tokens
        self.seats: list[Seat] = []
        self.paused = False


def create_game(server: Proc, game: str, seats: list[dict], **body) -> tuple[str, list[str | None]]:
    tls = {"verify": server.ssl} if getattr(server, "ssl", None) else {}
    with httpx.Client(base_url=server.base, timeout=20, **tls) as http:
        r = http.post("/api/games", json={"game": game, "seats": seats, **body})
        assert r.status_code == 201, r.text
        info = r.json()
        tokens = []
        for s in info["seats"]:
            if s["invite"]:
                j = http.post(f"/api/games/{info['game_id']}/join", json={"invite": s["invite"]})
                assert j.status_code == 200, j.text
                tokens.append(j.json()["token"])
            else:
                tokens.append(None)
    return info["game_id"], tokens


def read_log(server: Proc, game_id: str, token: str | None) -> dict:
    tls = {"verify": server.ssl} if getattr(server, "ssl", None) else {}
    r = httpx.get(
        f"{server.base}/api/games/{game_id}/log",
        timeout=20,
        **tls,
        headers={"Authorization": f"Bearer {token}"} if token else {},
    )
    assert r.status_code == 200, r.text
    return r.json()


def check_in_order(s: Seat, final_version: int) -> None:
    """Every version from the seat's first snapshot to the end reached it once, in order, as an update."""
    versions = [m["version"] for m in s.messages if m["type"] in ("state", "update")]
    assert versions == sorted(versions), f"seat {s.seat}: versions out of order {versions}"
    ups = [m["version"] for m in s.updates()]
    first = next(m["version"] for m in s.messages if m["type"] == "state")
    assert ups == list(range(first + 1, final_version + 1)), f"seat {s.seat}: updates {ups[:20]}..."


def check_log_holds_acks(server: Proc, game_id: str, seats: list[Seat]) -> dict:
    """Every acknowledged decision is in the log at its place, by its seat."""
    out = None
    for s in seats:
        if s.seat is None:
            continue
        lg = read_log(server, game_id, s.token)
        out = lg
        mine = {e["step"]: e.get("action") for e in lg["log"] if e["seat"] == s.seat}
        for version, action in s.acked.items():
            assert mine.get(version) == action, f"acknowledged decision {version} of seat {s.seat} is not in the log"
        if s.refused_resend is not None:  # refused as stale after a crash: it had been committed
            v, action = s.refused_resend
            assert mine.get(v + 1) == action, "a re-sent decision was refused, yet it is not in the log"
    return out


async def gather_with_timeout(coros, seconds: float) -> None:
    await asyncio.wait_for(asyncio.gather(*coros), seconds)
