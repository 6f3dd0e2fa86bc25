"""Load test of the game server over loopback: many concurrent games, every seat a WebSocket.

    python bench/bench_server.py                        # 250 four-player Red Rising games, 1,000 decisions/s
    python bench/bench_server.py --rate 0 --games 100   # as fast as the server goes
    python bench/bench_server.py --db postgresql://postgres@127.0.0.1/test --json

This process is the load generator; the server runs in a separate process (started here
with ``python -m redtable.server`` on a free port and a fresh SQLite file or PostgreSQL
schema, or an already running one with ``--url``). Each game gets one WebSocket per seat
(250 games x 4 seats = 1,000 connections). The seat whose turn it is picks a random legal
option and sends it with the version it saw; games are paced so that all together they
offer ``--rate`` decisions per second (0: no pause, each answer sent as soon as it is seen).

A decision's latency runs from sending it to the moment *every* seat of its game has
received the update for it (the server answers only after the decision was checked by the
engine and committed). Finished games are replaced by new ones. At the end every game's
log is read back through the API, per seat, and compared with what the clients saw accepted:
no decision may be missing or applied twice.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx
import orjson
import websockets
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(p / 100 * (len(values) - 1)))))
    return values[k]


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.acks: list[float] = []
        self.errors: dict[str, int] = {}
        self.measuring = False
        self.decisions = 0
        self.games_finished = 0


class BenchGame:
    """One game: its seats' sockets, what was sent and what everyone received."""

    def __init__(self, bench: "Bench", info: dict, tokens: list[str]) -> None:
        self.bench = bench
        self.id = info["game_id"]
        self.players = info["players"]
        self.tokens = tokens
        self.sent: dict[int, tuple[float, str, int]] = {}   # new version -> (send time, action, seat)
        self.got: dict[int, list[float]] = {}                # version -> receipt times, one per seat
        self.accepted: dict[int, tuple[int, str]] = {}       # version -> (seat, action), acknowledged
        self.next_at = None  # set at the start signal, at a random phase of the interval
        self.done = asyncio.Event()
        self.socks: list = []
        self.finished = False

    async def run_seat(self, seat: int, ready: asyncio.Event, all_ready: asyncio.Event) -> None:
        b = self.bench
        url = f"{b.ws_base}/api/games/{self.id}/ws"
        async with connect(url, compression="deflate" if b.deflate else None, max_size=2**24,
                           open_timeout=60, ping_interval=None) as ws:
            await ws.send(orjson.dumps({"type": "auth", "token": self.tokens[seat]}).decode())
            self.socks.append(ws)
            ready.set()
            pending: asyncio.Task | None = None
            async for raw in ws:
                now = time.perf_counter()
                msg = orjson.loads(raw)
                t = msg["type"]
                if t == "update" or t == "state":
                    v = msg["version"]
                    if t == "update":
                        if msg.get("id") is not None and msg["by"] == seat:  # our decision, committed
                            sent = self.sent.get(v)
                            if sent is not None:
                                self.accepted[v] = (seat, msg["action"])
                                if b.stats.measuring:
                                    b.stats.acks.append(now - sent[0])
                        got = self.got.setdefault(v, [])
                        got.append(now)
                        if len(got) == self.players and v in self.sent:
                            sent_at = self.sent.pop(v)[0]
                            del self.got[v]
                            b.stats.decisions += b.stats.measuring
                            if b.stats.measuring:
                                b.stats.latencies.append(now - sent_at)
                    if msg["status"] == "finished":
                        if not self.finished:
                            self.finished = True
                            b.stats.games_finished += 1
                            self.done.set()
                        continue
                    d = msg["decision"]
                    if d is not None and d["player"] == seat and not b.stopping:
                        if pending is not None and not pending.done():
                            pending.cancel()
                        pending = asyncio.create_task(self.decide(ws, seat, v, d["options"], all_ready))
                elif t == "error":
                    b.stats.errors[msg["error"]] = b.stats.errors.get(msg["error"], 0) + 1

    async def decide(self, ws, seat: int, version: int, options: list[str], all_ready: asyncio.Event) -> None:
        b = self.bench
        await all_ready.wait()
        now = time.perf_counter()
        if self.next_at is None:
            self.next_at = now + random.random() * b.interval
        if b.interval:
            wait = self.next_at - now
            if wait > 0:
                await asyncio.sleep(wait)
            self.next_at = max(self.next_at + b.interval, time.perf_counter())
        if b.stopping:
            return
        action = random.choice(options)
        self.sent[version + 1] = (time.perf_counter(), action, seat)
        await ws.send(orjson.dumps({"type": "decide", "action": action, "version": version,
                                    "id": version}).decode())


class Bench:
    def __init__(self, args: argparse.Namespace, base: str) -> None:
        self.args = args
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.deflate = args.deflate
        self.stats = Stats()
        self.interval = args.games / args.rate if args.rate > 0 else 0.0
        self.stopping = False
        self.games: list[BenchGame] = []
        self.all_games: list[BenchGame] = []
        self.http = httpx.AsyncClient(base_url=base, timeout=60,
                                      limits=httpx.Limits(max_connections=32, max_keepalive_connections=32))
        self.sem = asyncio.Semaphore(16)

    async def new_game(self) -> BenchGame:
        a = self.args
        async with self.sem:
            # a throughput benchmark: the players answer at once, so no block windows to wait for
            options = {"block_windows": False} if a.game == "red-rising" else {}
            r = await self.http.post("/api/games", json={
                "game": a.game, "options": options,
                "seats": [{"type": "human", "name": f"p{i}"} for i in range(a.players)]})
            r.raise_for_status()
            info = r.json()
            tokens = []
            for s in info["seats"]:
                j = await self.http.post(f"/api/games/{info['game_id']}/join", json={"invite": s["invite"]})
                j.raise_for_status()
                tokens.append(j.json()["token"])
        g = BenchGame(self, info, tokens)
        self.all_games.append(g)
        return g

    async def play(self, g: BenchGame, all_ready: asyncio.Event) -> None:
        readies = [asyncio.Event() for _ in range(g.players)]
        tasks = [asyncio.create_task(g.run_seat(s, readies[s], all_ready)) for s in range(g.players)]
        await g.done.wait()
        for ws in g.socks:
            await ws.close()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def slot(self, first: BenchGame, all_ready: asyncio.Event) -> None:
        """Keep one game going: when it ends, start another (until the run stops)."""
        g = first
        while True:
            await self.play(g, all_ready)
            if self.stopping:
                return
            g = await self.new_game()

    async def run(self) -> dict:
        a = self.args
        t0 = time.perf_counter()
        firsts = await asyncio.gather(*[self.new_game() for _ in range(a.games)])
        setup_s = time.perf_counter() - t0
        all_ready = asyncio.Event()
        slots = [asyncio.create_task(self.slot(g, all_ready)) for g in firsts]
        # wait for every connection to be open
        while sum(len(g.socks) for g in firsts) < a.games * a.players:
            await asyncio.sleep(0.05)
        connected_s = time.perf_counter() - t0
        all_ready.set()
        keeper = asyncio.create_task(_freeze_survivors())
        await asyncio.sleep(a.warmup)
        h0 = (await self.http.get("/api/health")).json()
        cpu0 = cpu_seconds(self.server_pid) if self.server_pid else float("nan")
        me0 = time.process_time()
        self.stats.measuring = True
        m0 = time.perf_counter()
        await asyncio.sleep(a.duration)
        self.stats.measuring = False
        elapsed = time.perf_counter() - m0
        cpu1 = cpu_seconds(self.server_pid) if self.server_pid else float("nan")
        me1 = time.process_time()
        h1 = (await self.http.get("/api/health")).json()
        self.stopping = True
        keeper.cancel()
        await asyncio.sleep(1.0)  # let in-flight decisions land
        for g in self.all_games:
            g.done.set()
        await asyncio.gather(*slots, return_exceptions=True)
        check = await self.verify()
        s = self.stats
        lat = [x * 1000 for x in s.latencies]
        ack = [x * 1000 for x in s.acks]
        commits = h1["commits"] - h0["commits"]
        server_decisions = h1["decisions"] - h0["decisions"]
        return {
            "game": a.game, "players": a.players, "games": a.games, "connections": a.games * a.players,
            "db": h1["db"], "offered_rate": a.rate, "ws_deflate": self.deflate,
            "setup_seconds": round(setup_s, 2), "connect_seconds": round(connected_s, 2),
            "measured_seconds": round(elapsed, 2), "decisions": s.decisions,
            "decisions_per_second": round(s.decisions / elapsed, 1),
            "latency_ms": {"p50": round(pct(lat, 50), 2), "p90": round(pct(lat, 90), 2),
                           "p99": round(pct(lat, 99), 2), "max": round(max(lat), 2) if lat else None,
                           "mean": round(statistics.fmean(lat), 2) if lat else None},
            "ack_latency_ms": {"p50": round(pct(ack, 50), 2), "p99": round(pct(ack, 99), 2)},
            "server_decisions": server_decisions, "commits": commits,
            "decisions_per_commit": round(server_decisions / commits, 2) if commits else None,
            "server_cpu_percent": round(100 * (cpu1 - cpu0) / elapsed, 1),
            "loadgen_cpu_percent": round(100 * (me1 - me0) / elapsed, 1),
            "games_finished": s.games_finished, "errors": s.errors, "check": check,
        }

    async def verify(self) -> dict:
        """Every accepted decision is in the log exactly once, at its place; nothing else is."""
        bad: list[str] = []
        checked = 0
        sem = asyncio.Semaphore(16)

        async def one(g: BenchGame) -> None:
            nonlocal checked
            async with sem:
                logs = []
                for seat in range(g.players):
                    r = await self.http.get(f"/api/games/{g.id}/log",
                                            headers={"Authorization": f"Bearer {g.tokens[seat]}"})
                    r.raise_for_status()
                    logs.append(r.json())
            steps = logs[0]["steps"]
            if steps != logs[0]["version"]:
                bad.append(f"{g.id}: {steps} steps but version {logs[0]['version']} (no undo was made)")
            if len(g.accepted) != steps:
                bad.append(f"{g.id}: {len(g.accepted)} decisions acknowledged, {steps} in the log")
            for v, (seat, action) in g.accepted.items():
                entry = logs[seat]["log"][v - 1] if v - 1 < len(logs[seat]["log"]) else None
                if entry is None or entry["seat"] != seat or entry.get("action") != action:
                    bad.append(f"{g.id}: decision {v} by seat {seat} ({action}) not in the log as accepted")
            checked += steps

        await asyncio.gather(*[one(g) for g in self.all_games])
        return {"games": len(self.all_games), "decisions_checked": checked, "ok": not bad, "problems": bad[:20]}


async def _freeze_survivors() -> None:
    """The load generator's own GC pauses would count as latency: keep its long-lived objects
    (1,000 sockets, the games' bookkeeping) out of the collector's passes, as the server does."""
    while True:
        gc.freeze()
        await asyncio.sleep(1.0)


def start_server(args: argparse.Namespace) -> tuple[subprocess.Popen, str, dict]:
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="redtable-bench-")
    db = args.db or f"sqlite:///{tmp}/bench.db"
    # every simulated player is this one address: the per-client limits are scaled out of the way
    cmd = [sys.executable, "-m", "redtable.server", "--port", str(port), "--db", db, "--log-level", "warning",
           "--rate-scale", "100000", "--ws-deflate" if args.deflate else "--no-ws-deflate"]
    info = {"db_url": db.split("@")[-1] if "@" in db else db}
    if args.db and args.db.startswith("postgres"):
        schema = f"bench_{uuid.uuid4().hex[:10]}"
        cmd += ["--db-schema", schema]
        info["schema"] = schema
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(f"{tmp}/server.log", "w"))
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return proc, base, info
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the server did not start; see {tmp}/server.log")


def drop_schema(db: str, schema: str) -> None:
    from redtable.server.store import Store

    st = Store(db, schema=schema)
    st.drop_schema()
    st.dispose()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=250)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--game", default="red-rising", choices=["red-rising", "red-north"])
    p.add_argument("--rate", type=float, default=1000.0, help="offered decisions/s over all games (0: flat out)")
    p.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--db", default=None, help="database URL for the server it starts (default: a fresh SQLite file)")
    p.add_argument("--url", default=None, help="use this running server instead of starting one")
    p.add_argument("--deflate", action="store_true", help="negotiate WebSocket compression (as browsers do)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()

    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    proc = None
    info: dict = {}
    if args.url:
        base = args.url.rstrip("/")
    else:
        proc, base, info = start_server(args)
    bench = Bench(args, base)
    bench.server_pid = proc.pid if proc else None
    try:
        report = asyncio.run(bench.run())
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if "schema" in info:
            drop_schema(args.db, info["schema"])
    report["cores"] = os.cpu_count()
    report["versions"] = {"python": sys.version.split()[0], "websockets": websockets.__version__}
    if args.json:
        print(json.dumps(report))
        return
    lat = report["latency_ms"]
    print(f"{report['games']} games x {report['players']} players ({report['connections']} WebSockets), "
          f"{report['game']}, db {report['db']}, offered {report['offered_rate'] or 'max'} decisions/s")
    print(f"  {report['decisions']} decisions in {report['measured_seconds']} s: "
          f"{report['decisions_per_second']} decisions/s")
    print(f"  latency (send -> every seat updated): p50 {lat['p50']} ms, p90 {lat['p90']} ms, "
          f"p99 {lat['p99']} ms, max {lat['max']} ms")
    print(f"  commit ack: p50 {report['ack_latency_ms']['p50']} ms, p99 {report['ack_latency_ms']['p99']} ms; "
          f"{report['decisions_per_commit']} decisions per commit")
    print(f"  CPU: server {report['server_cpu_percent']}%, load generator {report['loadgen_cpu_percent']}% "
          f"(of one core; {report['cores']} cores)")
    print(f"  errors: {report['errors'] or 'none'}; games finished: {report['games_finished']}")
    c = report["check"]
    print(f"  check: {c['decisions_checked']} decisions in {c['games']} games read back: "
          f"{'OK, none lost or applied twice' if c['ok'] else 'FAILED'}")
    for line in c["problems"]:
        print("   ", line)


if __name__ == "__main__":
    main()
