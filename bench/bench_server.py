"""Load test of the game server over loopback: many concurrent games, every seat a WebSocket.

    python bench/bench_server.py                        # 250 four-player Red Rising games, 1,000 decisions/s
    python bench/bench_server.py --rate 0 --games 100   # as fast as the server goes
    python bench/bench_server.py --db postgresql://postgres@127.0.0.1/test --json
    python bench/bench_server.py --servers 2            # one process against two on one PostgreSQL schema
    python bench/bench_server.py --servers 2 --cpu-per-server 0.4   # ... and with each capped at 0.4 core

The server runs in separate processes (``python -m redtable.server`` on free ports and a
fresh SQLite file or PostgreSQL schema, or an already running one with ``--url``); the
load comes from ``--loadgens`` client processes (default: one per server), each playing
its share of the games. Each game gets one WebSocket per seat (250 games x 4 seats =
1,000 connections). The seat whose turn it is picks a random legal option and sends it
with the version it saw; games are paced so that all together they offer ``--rate``
decisions per second (0: no pause, each answer sent as soon as it is seen).

A decision's latency runs from sending it to the moment *every* seat of its game has
received the update for it (the server answers only after the decision was checked by the
engine and committed). Finished games are replaced by new ones. At the end every game's
log is read back through the API, per seat, and compared with what the clients saw accepted:
no decision may be missing or applied twice.

``--servers N`` (PostgreSQL; ``--db`` defaults to the local test database) measures a
fleet: in one run, flat out with one server process and with N (the throughput ratio),
then at ``--rate`` with one and with N (the latency), each phase on fresh processes and a
fresh schema. ``--spread game`` (default) connects all seats of a game to one process, as
a reverse proxy that hashes the game id does (docs/deploy.md); ``--spread seat`` puts the
seats of every game on different processes, so that every decision crosses processes.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import orjson
import websockets
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the shared test kit

from kit import free_port, wait_http  # noqa: E402


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

    def __init__(self, bench: Bench, info: dict, tokens: list[str], ws_bases: list[str]) -> None:
        self.bench = bench
        self.id = info["game_id"]
        self.players = info["players"]
        self.tokens = tokens
        self.ws_bases = ws_bases  # per seat: the server process it connects to
        self.sent: dict[int, tuple[float, str, int]] = {}  # new version -> (send time, action, seat)
        self.got: dict[int, list[float]] = {}  # version -> receipt times, one per seat
        self.accepted: dict[int, tuple[int, str]] = {}  # version -> (seat, action), acknowledged
        self.next_at = None  # set at the start signal, at a random phase of the interval
        self.done = asyncio.Event()
        self.socks: list = []
        self.finished = False

    async def run_seat(self, seat: int, ready: asyncio.Event, all_ready: asyncio.Event) -> None:
        b = self.bench
        url = f"{self.ws_bases[seat]}/api/games/{self.id}/ws"
        async with connect(
            url, compression="deflate" if b.deflate else None, max_size=2**24, open_timeout=60, ping_interval=None
        ) as ws:
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
        await ws.send(orjson.dumps({"type": "decide", "action": action, "version": version, "id": version}).decode())


class Bench:
    """One load generator: ``games`` games (game numbers ``first``, ``first + step``, ...) on
    the servers at ``bases``, paced to offer ``rate`` decisions per second in all."""

    def __init__(
        self, args: argparse.Namespace, bases: list[str], *, games: int, rate: float, first: int = 0, step: int = 1
    ) -> None:
        self.args = args
        self.bases = bases
        self.deflate = args.deflate
        self.stats = Stats()
        self.n_games = games
        self.interval = games / rate if rate > 0 else 0.0
        self.stopping = False
        self.games: list[BenchGame] = []
        self.all_games: list[BenchGame] = []
        self.counter = itertools.count(first, step)
        self.http = [
            httpx.AsyncClient(
                base_url=b, timeout=60, limits=httpx.Limits(max_connections=16, max_keepalive_connections=16)
            )
            for b in bases
        ]
        self.sem = asyncio.Semaphore(16)

    def placement(self, number: int) -> list[int]:
        """Which server each seat of game ``number`` connects to."""
        n = len(self.bases)
        if self.args.spread == "seat":
            return [(number + s) % n for s in range(self.args.players)]
        return [number % n] * self.args.players

    async def new_game(self) -> BenchGame:
        a = self.args
        number = next(self.counter)
        where = self.placement(number)
        http = self.http[where[0]]
        async with self.sem:
            # a throughput benchmark: the players answer at once, so no block windows to wait for
            options = {"block_windows": False} if a.game == "red-rising" else {}
            r = await http.post(
                "/api/games",
                json={
                    "game": a.game,
                    "options": options,
                    "seats": [{"type": "human", "name": f"p{i}"} for i in range(a.players)],
                },
            )
            r.raise_for_status()
            info = r.json()
            tokens = []
            for s in info["seats"]:
                j = await http.post(f"/api/games/{info['game_id']}/join", json={"invite": s["invite"]})
                j.raise_for_status()
                tokens.append(j.json()["token"])
        g = BenchGame(self, info, tokens, [self.bases[w].replace("http://", "ws://") for w in where])
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
            if self.stopping:  # (made while the run stopped: nobody would end it)
                return

    async def run(self, go: Callable[[], Awaitable[None]]) -> dict:
        """Set up, wait for ``go`` (every load generator ready), play: warm-up, measured window, verify."""
        a = self.args
        t0 = time.perf_counter()
        firsts = await asyncio.gather(*[self.new_game() for _ in range(self.n_games)])
        all_ready = asyncio.Event()
        slots = [asyncio.create_task(self.slot(g, all_ready)) for g in firsts]
        while sum(len(g.socks) for g in firsts) < self.n_games * a.players:  # every connection open
            await asyncio.sleep(0.05)
        setup_s = time.perf_counter() - t0
        await go()
        all_ready.set()
        keeper = asyncio.create_task(_freeze_survivors())
        await asyncio.sleep(a.warmup)
        me0 = time.process_time()
        self.stats.measuring = True
        m0 = time.perf_counter()
        await asyncio.sleep(a.duration)
        self.stats.measuring = False
        elapsed = time.perf_counter() - m0
        me1 = time.process_time()
        self.stopping = True
        keeper.cancel()
        end = time.perf_counter() + 15  # let in-flight decisions land (a loaded machine may take seconds)
        while time.perf_counter() < end and any(g.sent and not g.finished for g in self.all_games):
            await asyncio.sleep(0.1)
        for g in self.all_games:
            g.done.set()
        await asyncio.gather(*slots, return_exceptions=True)
        check = await self.verify()
        for h in self.http:
            await h.aclose()
        s = self.stats
        return {
            "setup_seconds": round(setup_s, 2),
            "measured_seconds": elapsed,
            "decisions": s.decisions,
            "latencies_ms": [round(x * 1000, 2) for x in s.latencies],
            "acks_ms": [round(x * 1000, 2) for x in s.acks],
            "errors": s.errors,
            "games_finished": s.games_finished,
            "cpu_seconds": me1 - me0,
            "check": check,
        }

    async def verify(self) -> dict:
        """Every accepted decision is in the log exactly once, at its place; nothing else is."""
        bad: list[str] = []
        checked = 0
        sem = asyncio.Semaphore(16)

        async def one(g: BenchGame, http: httpx.AsyncClient) -> None:
            nonlocal checked
            async with sem:
                logs = []
                for seat in range(g.players):
                    r = await http.get(f"/api/games/{g.id}/log", headers={"Authorization": f"Bearer {g.tokens[seat]}"})
                    r.raise_for_status()
                    logs.append(r.json())
            steps = logs[0]["steps"]
            if steps != logs[0]["version"]:
                bad.append(f"{g.id}: {steps} steps but version {logs[0]['version']} (no undo was made)")
            for v, (seat, action) in g.accepted.items():
                entry = logs[seat]["log"][v - 1] if v - 1 < len(logs[seat]["log"]) else None
                if entry is None or entry["seat"] != seat or entry.get("action") != action:
                    bad.append(f"{g.id}: decision {v} by seat {seat} ({action}) not in the log as accepted")
            for v in range(1, steps + 1):  # every logged decision was acknowledged, or sent when the run stopped
                if v in g.accepted:
                    continue
                sent = g.sent.get(v)
                entry = logs[sent[2]]["log"][v - 1] if sent is not None else None
                if entry is None or entry.get("action") != sent[1]:
                    bad.append(f"{g.id}: decision {v} is in the log but was never acknowledged nor in flight")
            checked += steps

        # read back through a process other than the one that served the game's first seat, when there is one
        await asyncio.gather(*[one(g, self.http[(i + 1) % len(self.http)]) for i, g in enumerate(self.all_games)])
        return {"games": len(self.all_games), "decisions_checked": checked, "ok": not bad, "problems": bad[:20]}


async def _freeze_survivors() -> None:
    """The load generator's own GC pauses would count as latency: keep its long-lived objects
    (1,000 sockets, the games' bookkeeping) out of the collector's passes, as the server does."""
    while True:
        gc.freeze()
        await asyncio.sleep(1.0)


# ---------------------------------------------------------------------- server processes
class CpuCap:
    """Each server process in a cgroup of its own with a CPU quota of ``share`` of one core.

    On a machine whose cores the load generators and PostgreSQL share with the servers, one
    process against two measures the machine, not the service: two processes flat out leave
    the clients nothing. Capping every server at the same fraction of a core stands for "one
    process per core of a machine that has cores to spare": one process gets ``share``, two
    get ``2 * share``, and what the ratio then shows is whether the fleet turns the second
    process's core into decisions (no lock, queue or database row that they fight over)."""

    ROOTS = (Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup"))  # cgroup v1 cpu controller, then v2

    def __init__(self, share: float) -> None:
        self.share = share
        self.groups: list[Path] = []
        root = next((r for r in self.ROOTS if (r / "cgroup.procs").exists() and os.access(r, os.W_OK)), None)
        if root is None:
            raise SystemExit("--cpu-per-server needs a writable cgroup cpu controller (/sys/fs/cgroup); run as root")
        self.root = root

    def put(self, pid: int) -> None:
        g = self.root / f"redtable-bench-{os.getpid()}-{len(self.groups)}"
        g.mkdir()
        self.groups.append(g)
        period = 100_000
        if (g / "cpu.cfs_quota_us").exists():
            (g / "cpu.cfs_period_us").write_text(str(period))
            (g / "cpu.cfs_quota_us").write_text(str(int(self.share * period)))
        else:
            (g / "cpu.max").write_text(f"{int(self.share * period)} {period}")
        (g / "cgroup.procs").write_text(str(pid))

    def remove(self) -> None:
        for g in self.groups:
            try:
                g.rmdir()  # (its processes have exited)
            except OSError:
                pass
        self.groups.clear()


def start_servers(
    args: argparse.Namespace, n: int, db: str, cap: CpuCap | None = None
) -> tuple[list[subprocess.Popen], list[str], dict]:
    """``n`` server processes on one fresh database (SQLite file or PostgreSQL schema)."""
    tmp = tempfile.mkdtemp(prefix="redtable-bench-")
    info = {"db_url": db.split("@")[-1] if "@" in db else db, "tmp": tmp}
    extra = []
    if db.startswith("postgres"):
        schema = f"bench_{uuid.uuid4().hex[:10]}"
        extra = ["--db-schema", schema]
        info["schema"] = schema
    if args.bus:
        extra += ["--bus", args.bus]
    procs, bases = [], []
    for i in range(n):
        port = free_port()
        # every simulated player is this one address: the per-client limits are scaled out of the way
        cmd = [
            sys.executable,
            "-m",
            "redtable.server",
            "--port",
            str(port),
            "--db",
            db,
            "--log-level",
            "warning",
            "--rate-scale",
            "100000",
            "--ws-deflate" if args.deflate else "--no-ws-deflate",
            *extra,
        ]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(f"{tmp}/server{i}.log", "w")))
        if cap is not None:
            cap.put(procs[-1].pid)
        bases.append(f"http://127.0.0.1:{port}")
    for p, base in zip(procs, bases, strict=True):
        try:
            wait_http(f"{base}/api/health", p, timeout=60, every=0.1)
        except RuntimeError:
            for q in procs:
                q.kill()
            raise SystemExit(f"a server did not start; see {tmp}/server*.log") from None
    return procs, bases, info


def stop_servers(procs: list[subprocess.Popen], db: str, info: dict) -> None:
    for p in procs:
        p.send_signal(signal.SIGINT)
    for p in procs:
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
    if "schema" in info:
        drop_schema(db, info["schema"])


def drop_schema(db: str, schema: str) -> None:
    from redtable.server.store import Store

    st = Store(db, schema=schema)
    st.drop_schema()
    st.dispose()


# ---------------------------------------------------------------------- one measured phase
def phase(args: argparse.Namespace, servers: int, rate: float, db: str | None, cpu_cap: float | None = None) -> dict:
    """Start ``servers`` processes (or use ``--url``), drive them from the load generators, measure.
    ``cpu_cap``: each server process gets at most this fraction of one core (see CpuCap)."""
    cap = CpuCap(cpu_cap) if cpu_cap else None
    procs: list[subprocess.Popen] = []
    info: dict = {}
    if args.url:
        bases = [u.rstrip("/") for u in args.url.split(",")]
        pids: list[int] = []
    else:
        procs, bases, info = start_servers(args, servers, db, cap)
        pids = [p.pid for p in procs]
    n_gen = args.loadgens or len(bases)
    tmp = tempfile.mkdtemp(prefix="redtable-loadgen-")
    gens: list[subprocess.Popen] = []
    try:
        for i in range(n_gen):
            games = args.games // n_gen + (1 if i < args.games % n_gen else 0)
            cmd = [
                sys.executable,
                __file__,
                "--loadgen",
                json.dumps(
                    {
                        "bases": bases,
                        "games": games,
                        "rate": rate * games / args.games,
                        "first": i,
                        "step": n_gen,
                        "players": args.players,
                        "game": args.game,
                        "spread": args.spread,
                        "deflate": args.deflate,
                        "duration": args.duration,
                        "warmup": args.warmup,
                        "out": f"{tmp}/loadgen{i}.json",
                    }
                ),
            ]
            gens.append(subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
        for g in gens:  # each says it is ready (its games created, its sockets open)
            line = g.stdout.readline()
            if not line.startswith("ready"):
                raise SystemExit(f"a load generator failed: {line!r}")
        for g in gens:
            g.stdin.write("go\n")
            g.stdin.flush()
        time.sleep(args.warmup)
        h0 = [httpx.get(f"{b}/api/health", timeout=10).json() for b in bases]
        cpu0 = [cpu_seconds(pid) for pid in pids]
        t0 = time.perf_counter()
        time.sleep(args.duration)
        cpu1 = [cpu_seconds(pid) for pid in pids]
        elapsed = time.perf_counter() - t0
        h1 = [httpx.get(f"{b}/api/health", timeout=10).json() for b in bases]
        parts = []
        for i, g in enumerate(gens):  # (the reports go through files: they hold every latency)
            g.communicate(timeout=600)
            if g.returncode:
                raise SystemExit(f"load generator {i} failed (exit code {g.returncode})")
            parts.append(json.loads(Path(f"{tmp}/loadgen{i}.json").read_text()))
    finally:
        for g in gens:
            if g.poll() is None:
                g.kill()
        if procs:
            stop_servers(procs, db, info)
        if cap is not None:
            cap.remove()
    lat = sorted(x for p in parts for x in p["latencies_ms"])
    ack = sorted(x for p in parts for x in p["acks_ms"])
    decisions = sum(p["decisions"] for p in parts)
    measured = max(p["measured_seconds"] for p in parts)
    commits = sum(b["commits"] - a["commits"] for a, b in zip(h0, h1, strict=True))
    server_decisions = sum(b["decisions"] - a["decisions"] for a, b in zip(h0, h1, strict=True))
    errors: dict[str, int] = {}
    for p in parts:
        for k, v in p["errors"].items():
            errors[k] = errors.get(k, 0) + v
    checks = [p["check"] for p in parts]
    server_cpu = [round(100 * (b - a) / elapsed, 1) for a, b in zip(cpu0, cpu1, strict=True)]
    return {
        "servers": len(bases),
        "loadgens": n_gen,
        "spread": args.spread,
        "game": args.game,
        "players": args.players,
        "games": args.games,
        "connections": args.games * args.players,
        "db": h1[0]["db"],
        "bus": (h1[0].get("fleet") or {}).get("bus"),
        "offered_rate": rate,
        "cpu_per_server": cpu_cap,
        "ws_deflate": args.deflate,
        "setup_seconds": max(p["setup_seconds"] for p in parts),
        "measured_seconds": round(measured, 2),
        "decisions": decisions,
        "decisions_per_second": round(decisions / measured, 1),
        "latency_ms": {
            "p50": round(pct(lat, 50), 2),
            "p90": round(pct(lat, 90), 2),
            "p99": round(pct(lat, 99), 2),
            "max": round(lat[-1], 2) if lat else None,
            "mean": round(statistics.fmean(lat), 2) if lat else None,
        },
        "ack_latency_ms": {"p50": round(pct(ack, 50), 2), "p99": round(pct(ack, 99), 2)},
        "server_decisions": server_decisions,
        "commits": commits,
        "decisions_per_commit": round(server_decisions / commits, 2) if commits else None,
        "server_cpu_percent": server_cpu,
        "server_cpu_percent_total": round(sum(server_cpu), 1),
        "server_cpu_ms_per_decision": round(10 * sum(server_cpu) / (decisions / measured), 3) if decisions else None,
        "loadgen_cpu_percent": round(100 * sum(p["cpu_seconds"] for p in parts) / measured, 1),
        "games_finished": sum(p["games_finished"] for p in parts),
        "errors": errors,
        "check": {
            "games": sum(c["games"] for c in checks),
            "decisions_checked": sum(c["decisions_checked"] for c in checks),
            "ok": all(c["ok"] for c in checks),
            "problems": [x for c in checks for x in c["problems"]][:20],
        },
        "load_average": os.getloadavg(),
    }


def loadgen_main(spec: str) -> None:
    """A load generator process: set up its games, say ready, wait for go, play, print its report."""
    conf = json.loads(spec)
    args = argparse.Namespace(**{k: conf[k] for k in ("players", "game", "spread", "deflate", "duration", "warmup")})
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass

    async def go() -> None:
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)

    bench = Bench(args, conf["bases"], games=conf["games"], rate=conf["rate"], first=conf["first"], step=conf["step"])
    report = asyncio.run(bench.run(go))
    Path(conf["out"]).write_text(json.dumps(report))


def show(r: dict) -> None:
    lat = r["latency_ms"]
    print(
        f"{r['servers']} server process(es), {r['loadgens']} load generator(s), spread {r['spread']}: "
        f"{r['games']} games x {r['players']} players ({r['connections']} WebSockets), {r['game']}, "
        f"db {r['db']}{', bus ' + r['bus'] if r['bus'] else ''}, offered {r['offered_rate'] or 'max'} decisions/s"
    )
    print(f"  {r['decisions']} decisions in {r['measured_seconds']} s: {r['decisions_per_second']} decisions/s")
    print(
        f"  latency (send -> every seat updated): p50 {lat['p50']} ms, p90 {lat['p90']} ms, "
        f"p99 {lat['p99']} ms, max {lat['max']} ms"
    )
    print(
        f"  commit ack: p50 {r['ack_latency_ms']['p50']} ms, p99 {r['ack_latency_ms']['p99']} ms; "
        f"{r['decisions_per_commit']} decisions per commit"
    )
    print(
        f"  CPU: servers {r['server_cpu_percent']}% ({r['server_cpu_ms_per_decision']} ms per decision), "
        f"load generators {r['loadgen_cpu_percent']}% (of one core; {os.cpu_count()} cores; load average "
        f"{' '.join(f'{x:.1f}' for x in r['load_average'])})"
    )
    print(f"  errors: {r['errors'] or 'none'}; games finished: {r['games_finished']}")
    c = r["check"]
    print(
        f"  check: {c['decisions_checked']} decisions in {c['games']} games read back: "
        f"{'OK, none lost or applied twice' if c['ok'] else 'FAILED'}"
    )
    for line in c["problems"]:
        print("   ", line)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--loadgen":
        return loadgen_main(sys.argv[2])
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=250)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--game", default="red-rising", choices=["red-rising", "red-north"])
    p.add_argument("--rate", type=float, default=1000.0, help="offered decisions/s over all games (0: flat out)")
    p.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument(
        "--db",
        default=None,
        help="database URL for the servers it starts (default: a fresh SQLite "
        "file; with --servers above 1, the local PostgreSQL test database)",
    )
    p.add_argument("--url", default=None, help="use these running servers (comma-separated) instead of starting any")
    p.add_argument("--servers", type=int, default=1, help="above 1: one process against this many (PostgreSQL)")
    p.add_argument(
        "--spread",
        choices=["game", "seat"],
        default="game",
        help="game: all seats of a game on one process; seat: the seats of a game on different ones",
    )
    p.add_argument("--loadgens", type=int, default=0, help="load generator processes (default: one per server)")
    p.add_argument("--bus", default=None, help="the servers' --bus (PostgreSQL: postgres or redis://...)")
    p.add_argument(
        "--cpu-per-server",
        type=float,
        default=None,
        help="with --servers above 1: also measure flat out with every server process capped at this "
        "fraction of one core (a cgroup quota; needs root), so that the load generators and the database "
        "keep the rest of a small machine",
    )
    p.add_argument("--deflate", action="store_true", help="negotiate WebSocket compression (as browsers do)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.servers < 1 or args.games < 1:
        p.error("--servers and --games must be at least 1")
    if args.cpu_per_server is not None and not 0 < args.cpu_per_server <= 64:
        p.error("--cpu-per-server is a fraction of one core above 0 (0.4: 40% of a core)")
    if args.servers > 1 and not args.url:
        args.db = args.db or "postgresql://postgres@127.0.0.1:5432/test"
        if not args.db.startswith("postgres"):
            p.error("--servers above 1 needs PostgreSQL: several processes share games only through it")
    db = args.db or f"sqlite:///{tempfile.mkdtemp(prefix='redtable-bench-')}/bench.db"
    if args.servers == 1 or args.url:
        report = phase(args, args.servers, args.rate, db)
        report["cores"] = os.cpu_count()
        report["versions"] = {"python": sys.version.split()[0], "websockets": websockets.__version__}
        if args.json:
            print(json.dumps(report))
        else:
            show(report)
        return
    # a fleet: one process against N, flat out (throughput) and at --rate (latency), side by side;
    # then, flat out again, every server capped at the same share of a core (CpuCap)
    plan = [
        ("1 flat out", 1, 0.0, None),
        (f"{args.servers} flat out", args.servers, 0.0, None),
        (f"1 at {args.rate:g}/s", 1, args.rate, None),
        (f"{args.servers} at {args.rate:g}/s", args.servers, args.rate, None),
    ]
    cap = args.cpu_per_server
    if cap:
        plan += [
            (f"1 flat out, {cap:g} core", 1, 0.0, cap),
            (f"{args.servers} flat out, {cap:g} core each", args.servers, 0.0, cap),
        ]
    runs = {}
    for label, servers, rate, share in plan:
        runs[label] = r = phase(args, servers, rate, db, share)
        if not args.json:
            print(f"== {label}")
            show(r)

    def ratio(a: str, b: str) -> float:
        return round(runs[b]["decisions_per_second"] / runs[a]["decisions_per_second"], 2)

    summary = {
        "throughput_ratio": ratio("1 flat out", f"{args.servers} flat out"),
        "servers": args.servers,
        "spread": args.spread,
        "cores": os.cpu_count(),
        "p99_ms_at_rate": {k: v["latency_ms"]["p99"] for k, v in runs.items() if v["offered_rate"]},
        "runs": runs,
    }
    if cap:
        summary["cpu_per_server"] = cap
        summary["throughput_ratio_capped"] = ratio(
            f"1 flat out, {cap:g} core", f"{args.servers} flat out, {cap:g} core each"
        )
    if args.json:
        print(json.dumps(summary))
        return
    one, many = runs["1 flat out"], runs[f"{args.servers} flat out"]
    print(
        f"== {args.servers} processes against 1 (flat out, uncapped, servers sharing {os.cpu_count()} cores with the "
        f"load generators and PostgreSQL): {summary['throughput_ratio']}x the decisions/s "
        f"({many['decisions_per_second']} vs {one['decisions_per_second']})"
    )
    if cap:
        a, b = runs[f"1 flat out, {cap:g} core"], runs[f"{args.servers} flat out, {cap:g} core each"]
        print(
            f"== {args.servers} processes against 1 (flat out, each server capped at {cap:g} of a core): "
            f"{summary['throughput_ratio_capped']}x the decisions/s "
            f"({b['decisions_per_second']} vs {a['decisions_per_second']})"
        )
    print(f"== p99 at {args.rate:g}/s: " + ", ".join(f"{k}: {v} ms" for k, v in summary["p99_ms_at_rate"].items()))


if __name__ == "__main__":
    main()
