"""Abuse run: one client attacks the game server while a person plays; the person's latency and the server's memory.

    python bench/bench_abuse.py                       # 8 s baseline, then 20 s of abuse (about a minute in all)
    python bench/bench_abuse.py --seconds 30 --baseline-seconds 10
    python bench/bench_abuse.py --flood-seats ismcts  # the creation flood makes all-bot ISMCTS games
    python bench/bench_abuse.py --json                # one JSON report on stdout

The real server is started here (``python -m redtable.server`` with its default limits, no
``--rate-scale``) on a free loopback port with a fresh SQLite file in a temporary folder.
All traffic goes to that loopback port; every loop is bounded in count and in time.

* **The person** (its own process, client address 127.0.0.2) creates a game against a bot,
  joins, connects its WebSocket and plays random legal decisions one after another (at most
  one every ``--person-interval`` seconds, under the per-client decision rate), starting a
  new game when one ends. A decision's latency runs from sending ``decide`` to receiving the
  ``update`` that carries its ``id`` (the acknowledgement: checked, committed, announced).
  First a baseline phase with no abuse, then the same during the abuse phase.
* **The attacker** (this process, client address 127.0.0.1, asyncio), during the abuse phase:
  (a) game-creation flood: ``POST /api/games`` as fast as it goes;
  (b) sync storm: 20 spectator sockets each sending up to 1,900 ``sync`` without reading;
  (c) 1,000 spectator sockets opened to one game;
  (d) large bodies (10 MB with and without Content-Length, 100 KB), bodies just under the
  limit (wide, deep, long lists), a 1 MB WebSocket message, malformed requests, raw-TCP
  garbage, a 100 KB header and a few slow headers;
  (e) malformed decisions naming unknown games (the validation handler looks each up in the
  database, before any rate limit); (f) 50 connections each sending 10 MB of one request
  header that never ends, held open; (g) 200 connections sending a request header at 10
  bytes/s (slowloris); (h, only when asked: ``--attacks h``) the log-in flood: 32 addresses
  (127.0.1.1-32) each fire their whole allowed burst of log-ins (wrong passwords) and
  registrations at once, then keep going as fast as ``Retry-After`` lets them: every one an
  argon2 hash.
* **The bystander** (the person's process, 127.0.0.4): a logged-in account that reads its
  session (``GET /api/session``, a storage lookup) and the lobby (``GET /api/tables``) every
  200 ms, each timed.
* **The server's memory**: its RSS (``/proc/<pid>/status``) every 100 ms, and the size of
  the SQLite WAL file.

Targets (the issue's): the person's p99 during abuse at most 50 ms, the server's peak RSS
under 500 MB; with the log-in flood, the bystander's p99 for each read at most 250 ms. Exit
status 0 when all pass, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import httpx
import orjson
from bench_server import cpu_seconds, pct  # the load benchmark's helpers (bench/ is on the path)
from kit import free_port, stop_process, wait_http  # the shared test kit (bench_server puts tests/ on the path)
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

PERSON_ADDR = "127.0.0.2"
PROBE_ADDR = "127.0.0.3"  # the person's process also reads /api/health from here, to see the server's loop lag
BYSTANDER_ADDR = "127.0.0.4"  # a logged-in bystander (the person's process): its session lookup and the lobby
LOGIN_NET = "127.0.1."  # (h) the log-in flood's addresses: 127.0.1.1, 127.0.1.2, ...
BYSTANDER_P99_TARGET_MS = 250.0
ATTACKER_ADDR = "127.0.0.1"
P99_TARGET_MS = 50.0
RSS_TARGET_MB = 500.0


# ---------------------------------------------------------------------- small helpers
def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (VmRSS), NaN once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return float("nan")


def schedstat(pid: int) -> tuple[float, float]:
    """Seconds a thread ran and seconds it waited, runnable, for a CPU (Linux ``schedstat``)."""
    try:
        run, wait, _ = Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()
        return int(run) / 1e9, int(wait) / 1e9
    except (OSError, ValueError):
        return float("nan"), float("nan")


def children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError):
                out += [int(x) for x in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
    except OSError:
        pass
    return out


def raise_nofile() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def err_name(e: BaseException) -> str:
    if isinstance(e, InvalidStatus):
        return f"handshake {e.response.status_code}"
    return type(e).__name__


class Sampler(threading.Thread):
    """The server's RSS (and its workers'), its CPU time and the WAL file's size, every ``every`` seconds.

    A thread, not a task: the attacker keeps this process's event loop busy."""

    def __init__(self, pid: int, wal: Path, every: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.pid, self.wal, self.every = pid, wal, every
        self.person_pid: int | None = None
        self.person_wait: list[tuple[float, float]] = []  # (time, the person's process: run-queue wait s)
        # (time, server MB, workers MB, WAL bytes, main thread's CPU s, its run-queue wait s)
        self.samples: list[tuple[float, float, float, int, float, float]] = []
        self.halt = threading.Event()

    def run(self) -> None:
        kids: list[int] = []
        n = 0
        while not self.halt.is_set() and n < 100_000:
            if n % 20 == 0:
                kids = children(self.pid)
            n += 1
            try:
                wal = self.wal.stat().st_size
            except OSError:
                wal = 0
            kid_mb = sum(x for x in (rss_mb(k) for k in kids) if x == x)
            now = time.time()
            self.samples.append((now, rss_mb(self.pid), kid_mb, wal, *schedstat(self.pid)))
            if self.person_pid:
                self.person_wait.append((now, schedstat(self.person_pid)[1]))
            self.halt.wait(self.every)

    def window(self, t0: float, t1: float) -> list[tuple[float, float, float, int, float, float]]:
        return [s for s in self.samples if t0 <= s[0] <= t1]


# ---------------------------------------------------------------------- the person (own process)
async def person_main(args: argparse.Namespace) -> None:
    """Plays until a line (or EOF) arrives on stdin or ``--person-max-seconds`` pass; prints one JSON line."""
    base = args.person
    ws_base = base.replace("http://", "ws://")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def wait_stdin() -> None:
        sys.stdin.readline()
        loop.call_soon_threadsafe(stop.set)

    threading.Thread(target=wait_stdin, daemon=True).start()
    hard_deadline = time.monotonic() + args.person_max_seconds
    http = httpx.AsyncClient(
        base_url=base,
        timeout=30,
        trust_env=False,
        transport=httpx.AsyncHTTPTransport(local_address=PERSON_ADDR, retries=0),
    )
    samples: list[tuple[float, float]] = []  # (wall clock at send, seconds to the acknowledgement)
    bot_waits: list[tuple[float, float]] = []  # (wall clock, seconds from the ack to our next turn)
    setups: list[tuple[float, float]] = []  # (wall clock, seconds to create + join + first state)
    errors: Counter[str] = Counter()
    games = {"started": 0, "finished": 0}
    seats = [{"type": "human", "name": "Person"}, {"type": "bot", "bot": args.person_bot}]
    ready_said = False

    def done() -> bool:
        return stop.is_set() or time.monotonic() > hard_deadline

    async def new_game() -> tuple[str, str] | None:
        for _ in range(20):
            if done():
                return None
            try:
                r = await http.post("/api/games", json={"game": args.person_game, "seats": seats})
                if r.status_code == 429:
                    errors["create 429"] += 1
                    await asyncio.sleep(min(10.0, float(r.headers.get("retry-after", "1"))))
                    continue
                r.raise_for_status()
                info = r.json()
                j = await http.post(f"/api/games/{info['game_id']}/join", json={"invite": info["seats"][0]["invite"]})
                if j.status_code == 429:
                    errors["join 429"] += 1
                    await asyncio.sleep(min(10.0, float(j.headers.get("retry-after", "1"))))
                    continue
                j.raise_for_status()
                return info["game_id"], j.json()["token"]
            except (httpx.HTTPError, KeyError, ValueError) as e:
                errors[f"setup {err_name(e)}"] += 1
                await asyncio.sleep(0.5)
        return None

    async def play(game_id: str, token: str, t_setup: float) -> None:
        nonlocal ready_said
        async with connect(
            f"{ws_base}/api/games/{game_id}/ws",
            local_addr=(PERSON_ADDR, 0),
            proxy=None,
            compression=None,
            max_size=2**24,
            ping_interval=None,
            open_timeout=30,
            close_timeout=2,
        ) as ws:
            await ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
            pending: tuple[int, float] | None = None  # (id, perf_counter at send)
            acked_at: float | None = None  # the ack left the turn to the bot at this time
            next_at = 0.0
            next_id = 1
            first = True
            while not done():
                try:
                    raw = await asyncio.wait_for(ws.recv(), 2.0)
                except TimeoutError:
                    if pending is not None and time.perf_counter() - pending[1] > 10:
                        errors["no ack in 10 s"] += 1
                        pending = None
                        await ws.send('{"type": "sync"}')
                    continue
                now = time.perf_counter()
                msg = orjson.loads(raw)
                kind = msg.get("type")
                if kind == "error":
                    errors[f"ws {msg.get('error')}"] += 1
                    if pending is not None and msg.get("id") == pending[0]:
                        pending = None
                        await asyncio.sleep(0.2)
                        await ws.send('{"type": "sync"}')
                    continue
                if kind not in ("state", "update"):
                    continue
                if first:
                    first = False
                    setups.append((time.time(), now - t_setup))
                    if not ready_said:
                        ready_said = True
                        print("ready", flush=True)
                if kind == "update" and pending is not None and msg.get("id") == pending[0]:
                    samples.append((time.time() - (now - pending[1]), now - pending[1]))
                    pending = None
                    acked_at = now
                if msg.get("status") == "finished":
                    games["finished"] += 1
                    return
                d = msg.get("decision")
                if pending is None and d is not None and d.get("player") == 0 and d.get("options"):
                    if acked_at is not None and kind == "update" and msg.get("by") != 0:
                        bot_waits.append((time.time(), now - acked_at))
                    acked_at = None
                    wait = next_at - time.perf_counter()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    if done():
                        return
                    action = random.choice(d["options"])
                    pending = (next_id, time.perf_counter())
                    next_at = pending[1] + args.person_interval
                    await ws.send(
                        orjson.dumps(
                            {"type": "decide", "action": action, "version": msg["version"], "id": next_id}
                        ).decode()
                    )
                    next_id += 1

    probes: list[tuple[float, float]] = []

    async def probe() -> None:
        """GET /api/health every 100 ms (not rate limited, no database): the server's event-loop lag."""
        async with httpx.AsyncClient(
            base_url=base, timeout=10, trust_env=False, transport=httpx.AsyncHTTPTransport(local_address=PROBE_ADDR)
        ) as h:
            while not done():
                t0 = time.perf_counter()
                try:
                    await h.get("/api/health")
                    probes.append((time.time() - (time.perf_counter() - t0), time.perf_counter() - t0))
                except httpx.HTTPError as e:
                    errors[f"probe {err_name(e)}"] += 1
                await asyncio.sleep(0.1)

    lookups: dict[str, list[tuple[float, float]]] = {"session": [], "lobby": []}

    async def bystander() -> None:
        """A logged-in account reading its session and the lobby every 200 ms (storage reads, behind no hash)."""
        async with httpx.AsyncClient(
            base_url=base, timeout=60, trust_env=False, transport=httpx.AsyncHTTPTransport(local_address=BYSTANDER_ADDR)
        ) as h:
            name = f"bystander{random.randrange(10**6)}"
            try:
                r = await h.post("/api/accounts", json={"username": name, "password": f"not-guessable-{name}-x7"})
                r.raise_for_status()
            except httpx.HTTPError as e:
                errors[f"bystander register {err_name(e)}"] += 1
                return
            while not done():
                for kind, path in (("session", "/api/session"), ("lobby", "/api/tables")):
                    t0 = time.perf_counter()
                    try:
                        r = await h.get(path)
                        if r.status_code != 200 or (kind == "session" and not r.json().get("logged_in")):
                            errors[f"bystander {kind} {r.status_code}"] += 1
                    except httpx.HTTPError as e:
                        errors[f"bystander {kind} {err_name(e)}"] += 1
                    dt = time.perf_counter() - t0  # (a failed read counts with the time it took: a timeout is 60 s)
                    lookups[kind].append((time.time() - dt, dt))
                await asyncio.sleep(0.2)

    prober = asyncio.create_task(probe())
    watcher = asyncio.create_task(bystander())
    try:
        while not done():
            t0 = time.perf_counter()
            got = await new_game()
            if got is None:
                break
            games["started"] += 1
            try:
                await play(*got, t0)
            except (TimeoutError, ConnectionClosed, InvalidHandshake, OSError) as e:
                errors[f"ws {err_name(e)}"] += 1
                await asyncio.sleep(0.2)
    finally:
        for t in (prober, watcher):
            t.cancel()
            with contextlib.suppress(BaseException):
                await t
        await http.aclose()
    if not ready_said:
        print("ready", flush=True)
    print(
        json.dumps(
            {
                "samples": samples,
                "probes": probes,
                "bot_waits": bot_waits,
                "setups": setups,
                "lookups": lookups,
                "errors": dict(errors),
                "games": games,
            }
        ),
        flush=True,
    )


# ---------------------------------------------------------------------- the attacker (this process)
class Attacker:
    def __init__(self, args: argparse.Namespace, base: str, deadline: float) -> None:
        self.args = args
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.port = int(base.rsplit(":", 1)[1])
        self.deadline = deadline  # time.monotonic()
        self.c: dict[str, Counter] = defaultdict(Counter)
        self.notes: dict[str, object] = {}
        self.held: list = []  # accepted spectator sockets, closed at the end
        self.http = httpx.AsyncClient(
            base_url=base,
            timeout=10,
            trust_env=False,
            transport=httpx.AsyncHTTPTransport(local_address=ATTACKER_ADDR, retries=0),
            limits=httpx.Limits(max_connections=64, max_keepalive_connections=64),
        )

        # (h)'s clients, one per address, made before the phase starts (64 TLS contexts take seconds on a busy machine)
        self.flood_clients = [
            httpx.AsyncClient(
                base_url=base,
                timeout=60,
                trust_env=False,
                verify=False,  # (plain http on loopback)
                transport=httpx.AsyncHTTPTransport(local_address=f"{LOGIN_NET}{i + 1}", retries=0, verify=False),
                limits=httpx.Limits(max_connections=16, max_keepalive_connections=16),
            )
            for i in range(args.login_addresses if "h" in args.attacks else 0)
        ]

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def ws(self, game_id: str, **kw):
        opts = dict(
            local_addr=(ATTACKER_ADDR, 0),
            proxy=None,
            compression=None,
            max_size=2**24,
            ping_interval=None,
            open_timeout=10,
            close_timeout=1,
        )
        opts.update(kw)
        return connect(f"{self.ws_base}/api/games/{game_id}/ws", **opts)

    async def setup(self) -> tuple[str | None, str | None]:
        """Two games of the attacker's own: one for the sync storm (all bots: it plays itself out and
        its snapshot grows to the whole log), one for the spectator flood."""
        out = []
        for body in (
            {"game": "red-rising", "seats": [{"type": "bot", "bot": "random"}] * 4},
            {"game": "red-north", "seats": [{"type": "human"}, {"type": "bot", "bot": "random"}]},
        ):
            try:
                r = await self.http.post("/api/games", json=body)
                self.c["setup"][r.status_code] += 1
                out.append(r.json()["game_id"] if r.status_code == 201 else None)
            except httpx.HTTPError as e:
                self.c["setup"][err_name(e)] += 1
                out.append(None)
        return out[0], out[1]

    # (a) ------------------------------------------------------------ creation flood
    async def flood(self) -> None:
        a = self.args
        if a.flood_seats == "ismcts":
            body = {"game": "red-rising", "seats": [{"type": "bot", "bot": "ismcts:1s"}] * 4}
        else:
            body = {"game": "red-north", "seats": [{"type": "human"}, {"type": "bot", "bot": "heuristic"}]}
        data = orjson.dumps(body)
        c = self.c["a. creation flood (POST /api/games)"]
        total = 0

        async def worker() -> None:
            nonlocal total
            while self.left() > 0 and total < a.flood_max:
                total += 1
                try:
                    r = await self.http.post(
                        "/api/games",
                        content=data,
                        headers={"content-type": "application/json"},
                        timeout=max(0.5, self.left()),
                    )
                    c[r.status_code] += 1
                    if r.status_code == 429:
                        c["429 " + r.json().get("error", "?")] += 1
                except httpx.HTTPError as e:
                    c[err_name(e)] += 1

        t0 = time.monotonic()
        await asyncio.gather(*[worker() for _ in range(a.flood_workers)])
        self.notes["flood requests/s"] = round(total / max(1e-9, time.monotonic() - t0), 1)

    # (b) ------------------------------------------------------------ sync storm
    async def storm(self, game_id: str | None, connected: asyncio.Event) -> None:
        a = self.args
        c = self.c["b. sync storm (spectators not reading)"]
        if game_id is None:
            c["no game"] += 1
            connected.set()
            return
        opened = 0
        lock = asyncio.Lock()
        send_s: list[float] = []

        async def one(first_round: bool) -> None:
            nonlocal opened
            try:
                ws = await self.ws(game_id, max_queue=2, open_timeout=max(0.5, min(10, self.left())))
            except (TimeoutError, OSError, InvalidHandshake) as e:
                c[f"connect {err_name(e)}"] += 1
                return
            finally:
                if first_round:
                    async with lock:
                        opened += 1
                        if opened >= a.storm_sockets:
                            connected.set()
            try:
                with contextlib.suppress(ConnectionClosed):
                    await ws.send('{"type": "auth", "token": null}')
                try:
                    first = orjson.loads(await asyncio.wait_for(ws.recv(), max(0.5, min(10, self.left()))))
                except (TimeoutError, ConnectionClosed) as e:
                    c[f"no state ({err_name(e)}, close {ws.close_code})"] += 1
                    return
                if first.get("type") != "state":
                    c[f"refused {first.get('error')}"] += 1
                    return
                c["connections accepted"] += 1
                sent = 0
                t0 = time.monotonic()
                try:
                    for _ in range(a.storm_messages):  # as fast as the socket takes them, reading nothing
                        if self.left() <= 0:
                            break
                        await asyncio.wait_for(ws.send('{"type": "sync"}'), max(0.1, self.left()))
                        sent += 1
                except ConnectionClosed:
                    c["closed by the server while sending"] += 1
                except TimeoutError:
                    c["send blocked until the end"] += 1
                c["sync sent"] += sent
                send_s.append(time.monotonic() - t0)
                # then read what the server queued, until it closes the socket or the phase ends
                got: Counter[str] = Counter()
                nbytes = 0
                try:
                    while self.left() > 0:
                        raw = await asyncio.wait_for(ws.recv(), max(0.05, min(1.0, self.left())))
                        nbytes += len(raw)
                        try:
                            got[orjson.loads(raw).get("type", "?")] += 1
                        except orjson.JSONDecodeError:
                            got["?"] += 1
                except ConnectionClosed:
                    c["closed by the server"] += 1
                    c[f"close code {ws.close_code} {ws.close_reason or ''}".strip()] += 1
                except TimeoutError:
                    c["still open at the end"] += 1
                for k, v in got.items():
                    c[f"received {k}"] += v
                c["received KB"] += nbytes // 1024
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(), 2)

        async def slot() -> None:
            """One storm socket; once the server closes it, it comes back (a fresh socket, the same storm)."""
            for k in range(a.storm_rounds):
                if self.left() <= 0.2:
                    return
                c["connections tried"] += 1
                await one(k == 0)
                await asyncio.sleep(0.25)

        await asyncio.gather(*[slot() for _ in range(a.storm_sockets)])
        if send_s:
            self.notes["sync storm: seconds to send, per socket (max)"] = round(max(send_s), 2)

    # (c) ------------------------------------------------------------ spectator flood
    async def spectators(self, game_id: str | None) -> None:
        a = self.args
        c = self.c["c. spectator sockets to one game"]
        if game_id is None:
            c["no game"] += 1
            return
        sem = asyncio.Semaphore(a.spectator_concurrency)
        attempts = 0

        async def one() -> None:
            async with sem:
                if self.left() <= 0:
                    c["not tried (time up)"] += 1
                    return
                try:
                    ws = await self.ws(game_id, max_queue=2, open_timeout=max(0.5, min(10, self.left())))
                except (TimeoutError, OSError, InvalidHandshake) as e:
                    c[f"connect {err_name(e)}"] += 1
                    return
                try:
                    await ws.send('{"type": "auth", "token": null}')
                except ConnectionClosed:  # refused at once: the error message is queued before the close
                    pass
                try:
                    msg = orjson.loads(await asyncio.wait_for(ws.recv(), max(0.5, min(10, self.left()))))
                except ConnectionClosed:
                    c[f"closed without a message (close {ws.close_code})"] += 1
                    return
                except (TimeoutError, OSError) as e:
                    c[f"no answer {err_name(e)}"] += 1
                    await ws.close()
                    return
                if msg.get("type") == "state":
                    c["accepted"] += 1
                    self.held.append(ws)  # held open, never read again
                    return
                try:
                    await asyncio.wait_for(ws.recv(), 2)
                except (TimeoutError, ConnectionClosed):
                    pass
                c[f"refused {msg.get('error')} (close {ws.close_code})"] += 1
                await ws.close()

        tasks = []
        for _ in range(a.spectators):
            attempts += 1
            tasks.append(asyncio.create_task(one()))
        await asyncio.gather(*tasks)
        c["attempts"] = attempts

    # (d) ------------------------------------------------------------ large bodies, malformed input
    async def bodies(self, game_id: str | None) -> None:
        c = self.c["d. large and malformed input"]

        async def post(label: str, n: int, path: str = "/api/games", content=None, **kw) -> None:
            for _ in range(n):
                if self.left() <= 0:
                    c[f"{label}: not sent (time up)"] += 1
                    continue
                try:
                    r = await self.http.post(
                        path,
                        timeout=max(0.5, min(10, self.left())),
                        content=content() if callable(content) else content,
                        **kw,
                    )
                    c[f"{label}: {r.status_code}"] += 1
                except httpx.HTTPError as e:
                    c[f"{label}: {err_name(e)}"] += 1

        big = b"x" * (10 * 1024 * 1024)

        async def chunks():
            for i in range(0, len(big), 65536):
                yield big[i : i + 65536]

        json_h = {"content-type": "application/json"}
        await post("10 MB, Content-Length", 3, content=big, headers=json_h)
        await post("10 MB, chunked", 2, content=chunks, headers=json_h)
        pad = orjson.dumps({"game": "red-north", "seats": [{"type": "human"}], "options": {"x": "a" * 100_000}})
        await post("100 KB JSON", 30, content=pad, headers=json_h)
        wide = orjson.dumps(
            {
                "game": "red-north",
                "seats": [{"type": "human"}, {"type": "bot"}],
                "options": {f"k{i}": i for i in range(5000)},
            }
        )
        await post(f"{len(wide) // 1024} KB options, 5,000 keys", 30, content=wide, headers=json_h)
        seats = orjson.dumps({"game": "red-north", "seats": [{"type": "human"}] * 3500})
        await post(f"{len(seats) // 1024} KB, 3,500 seats", 30, content=seats, headers=json_h)
        deep = b"[" * 60000 + b"]" * 60000
        deep = deep[:64000]
        await post("64 KB of [ (deep nesting)", 30, content=deep, headers=json_h)
        await post("invalid JSON", 20, content=b'{"game": ', headers=json_h)
        await post("bad UTF-8", 20, content=b'{"game": "\xff\xfe"}', headers=json_h)
        await post("text/plain body", 20, content=b"hello", headers={"content-type": "text/plain"})
        for label, path in (
            ("GET 10,000-character game id", "/api/games/" + "a" * 10_000),
            ("GET ?token= in the URL", "/api/games/abcdefghijk?token=x"),
            ("GET ../ path", "/api/games/..%2F..%2Fetc%2Fpasswd"),
        ):
            for _ in range(10):
                if self.left() <= 0:
                    break
                try:
                    r = await self.http.get(path, timeout=max(0.5, min(10, self.left())))
                    c[f"{label}: {r.status_code}"] += 1
                except httpx.HTTPError as e:
                    c[f"{label}: {err_name(e)}"] += 1
        await self.raw_tcp(c)
        await self.big_ws(game_id, c)

    async def held_headers(self, label: str, conns: int, size: int, rate: float = 0.0) -> None:
        """``conns`` connections, each sending a request whose header never ends: ``size`` bytes of one header
        value (at most ``rate`` bytes/s per connection when given), then nothing; held open until the phase
        ends. Counts how many the server closed, and when."""
        c = self.c[label]
        head = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Filler: "
        chunk = b"a" * (max(1, int(rate)) if rate else min(size, 1 << 20))  # with a rate: one second's bytes
        held: list = []
        t0 = time.monotonic()

        async def one() -> None:
            try:
                r, w = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", self.port, local_addr=(ATTACKER_ADDR, 0)),
                    max(0.5, min(5, self.left())),
                )
            except (TimeoutError, OSError) as e:
                c[f"connect {err_name(e)}"] += 1
                return
            held.append((r, w))
            try:
                w.write(head)
                sent = 0
                while sent < size and self.left() > 0:
                    n = min(len(chunk), size - sent)
                    w.write(chunk[:n])
                    await asyncio.wait_for(w.drain(), max(0.1, self.left()))
                    sent += n
                    if rate:
                        await asyncio.sleep(min(n / rate, max(0.0, self.left())))
                c["bytes sent (MB)"] += round(sent / 1e6)
                c["fully sent" if sent >= size else "not fully sent by the end"] += 1
            except TimeoutError:
                c["not fully sent by the end"] += 1
            except OSError as e:
                c[f"closed by the server while sending ({err_name(e)})"] += 1

        await asyncio.gather(*[one() for _ in range(conns)])
        self.notes[f"{label}: seconds to send"] = round(time.monotonic() - t0, 1)
        await asyncio.sleep(max(0.0, self.left() - 0.3))
        for r, w in held:
            try:
                data = await asyncio.wait_for(r.read(200), 0.01)
                c["closed by the server" if not data else f"answered {data[:12]!r}"] += 1
            except TimeoutError:
                c["still open at the end"] += 1
            except OSError:
                c["closed by the server"] += 1
            w.close()
        self.notes[f"{label}: held for (s)"] = round(time.monotonic() - t0, 1)

    async def raw_tcp(self, c: Counter) -> None:
        async def one(label: str, data: bytes, hold: float = 0.0) -> None:
            if self.left() <= 0:
                return
            try:
                r, w = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", self.port, local_addr=(ATTACKER_ADDR, 0)), 5
                )
            except (TimeoutError, OSError) as e:
                c[f"{label}: connect {err_name(e)}"] += 1
                return
            t0 = time.monotonic()
            try:
                w.write(data)
                await w.drain()
                line = await asyncio.wait_for(r.readline(), max(0.5, min(hold or 5, self.left())))
                status = line.split(b" ")[1].decode() if line.startswith(b"HTTP/") else ("closed" if not line else "?")
                c[f"{label}: {status}"] += 1
            except TimeoutError:
                c[f"{label}: still open after {time.monotonic() - t0:.0f} s"] += 1
            except OSError as e:
                c[f"{label}: {err_name(e)}"] += 1
            finally:
                w.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(w.wait_closed(), 1)

        await asyncio.gather(*[one("raw garbage", b"\x00\xffGARBAGE \r\n\r\n") for _ in range(5)])
        await asyncio.gather(
            *[
                one("100 KB header", b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n")
                for _ in range(3)
            ]
        )
        # slowloris: half a request line, then nothing (does the server let it hang?)
        await asyncio.gather(
            *[one("slow header (held 5 s)", b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-A: ", hold=5) for _ in range(3)]
        )

    async def big_ws(self, game_id: str | None, c: Counter) -> None:
        if game_id is None:
            return
        big = "x" * (1024 * 1024)
        for label, first in (("1 MB WebSocket message after auth", False), ("1 MB WebSocket auth message", True)):
            if self.left() <= 0:
                return
            try:
                async with self.ws(game_id, max_queue=4) as ws:
                    if not first:
                        await ws.send('{"type": "auth", "token": null}')
                        await asyncio.wait_for(ws.recv(), 5)
                    await ws.send(big)
                    try:
                        while True:
                            await asyncio.wait_for(ws.recv(), 5)
                    except ConnectionClosed:
                        c[f"{label}: closed {ws.close_code}"] += 1
                    except TimeoutError:
                        c[f"{label}: still open after 5 s"] += 1
            except (TimeoutError, ConnectionClosed, OSError, InvalidHandshake) as e:
                c[f"{label}: {err_name(e)}"] += 1

    async def unknown_games(self) -> None:
        """Malformed decisions naming unknown (well-formed) game ids: the validation error handler looks
        each game up (the database) before any rate limit is taken."""
        c = self.c["e. malformed decisions to unknown games"]
        n = 0
        t0 = time.monotonic()

        async def worker() -> None:
            nonlocal n
            while self.left() > 0 and n < self.args.unknown_max:
                n += 1
                gid = "".join(random.choices("abcdefghijklmnopqrstuvwxyz0123456789", k=11))
                try:
                    r = await self.http.post(
                        f"/api/games/{gid}/decisions",
                        content=b"{}",
                        headers={"content-type": "application/json"},
                        timeout=max(0.5, min(10, self.left())),
                    )
                    c[r.status_code] += 1
                except httpx.HTTPError as e:
                    c[err_name(e)] += 1

        await asyncio.gather(*[worker() for _ in range(4)])
        self.notes["unknown-game requests/s"] = round(n / max(1e-9, time.monotonic() - t0), 1)

    # (h) ------------------------------------------------------------ log-in flood
    async def login_flood(self) -> None:
        """Each address fires its allowed burst of log-ins and registrations at once, then keeps on as
        fast as the answers' ``Retry-After`` allow; every request that gets through is an argon2 hash."""
        a = self.args
        c = self.c[f"h. log-in flood ({a.login_addresses} addresses, POST /api/session and /api/accounts)"]
        rates = {"login": 10, "register": 5}  # the default bursts of one address (limits.py)
        clients = self.flood_clients
        sent = itertools.count()

        async def slot(h: httpx.AsyncClient, kind: str, i: int) -> None:
            while self.left() > 0:
                n = next(sent)
                name = f"flood{i}x{n}"
                path = "/api/session" if kind == "login" else "/api/accounts"
                body = {"username": f"victim{n % 64}" if kind == "login" else name, "password": f"guess-{n}-wrong"}
                try:
                    r = await h.post(path, json=body, timeout=60)
                except httpx.HTTPError as e:
                    c[f"{kind} {err_name(e)}"] += 1
                    await asyncio.sleep(0.5)
                    continue
                except asyncio.CancelledError:
                    c[f"{kind} still unanswered when the phase was cut off"] += 1
                    raise
                c[f"{kind} {r.status_code}"] += 1
                if r.status_code in (429, 503):
                    await asyncio.sleep(min(max(0.0, self.left()), float(r.headers.get("retry-after", "1"))))

        try:
            await asyncio.gather(
                *[
                    slot(h, kind, i)
                    for i, h in enumerate(clients)
                    for kind, burst in rates.items()
                    for _ in range(burst)
                ]
            )
        finally:
            await asyncio.gather(*[h.aclose() for h in clients], return_exceptions=True)

    # ------------------------------------------------------------------ all of it
    async def run(self) -> None:
        on = set(self.args.attacks)
        storm_game, spect_game = await self.setup()
        connected = asyncio.Event()
        tasks = []
        if "a" in on:
            tasks.append(asyncio.create_task(self.flood()))
        if "b" in on:
            tasks.append(asyncio.create_task(self.storm(storm_game, connected)))
            # the storm's sockets take the address's WebSocket-connect tokens first, then the rest
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(connected.wait(), max(0.1, min(3, self.left())))
        if "c" in on:
            tasks.append(asyncio.create_task(self.spectators(spect_game)))
        if "d" in on:
            tasks.append(asyncio.create_task(self.bodies(spect_game)))
        if "e" in on:
            tasks.append(asyncio.create_task(self.unknown_games()))
        if "f" in on:
            tasks.append(
                asyncio.create_task(
                    self.held_headers(
                        f"f. {self.args.header_conns} unfinished {self.args.header_mb:g} MB request headers",
                        self.args.header_conns,
                        int(self.args.header_mb * 1e6),
                    )
                )
            )
        if "h" in on:
            tasks.append(asyncio.create_task(self.login_flood()))
        if "g" in on:
            tasks.append(
                asyncio.create_task(
                    self.held_headers(
                        f"g. {self.args.slow_conns} slow request headers (slowloris, 10 bytes/s)",
                        self.args.slow_conns,
                        10_000,
                        rate=10.0,
                    )
                )
            )
        tasks.append(asyncio.create_task(asyncio.sleep(max(0.0, self.left()))))  # the phase lasts its length
        try:
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), max(1, self.left() + 15))
        except TimeoutError:
            self.notes["tasks cut off"] = sum(1 for t in tasks if not t.done())
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        for t in tasks:
            if t.done() and not t.cancelled() and t.exception() is not None:
                self.notes.setdefault("task errors", []).append(repr(t.exception())[:200])

    async def close(self) -> None:
        held, self.held = self.held, []
        await asyncio.gather(*[asyncio.wait_for(ws.close(), 2) for ws in held], return_exceptions=True)
        await self.http.aclose()


# ---------------------------------------------------------------------- the run
def start_server(tmp: str, loop_probe: bool = False) -> tuple[subprocess.Popen, str, Path]:
    port = free_port()
    db = Path(tmp) / "abuse.db"
    server_args = ["--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{db}", "--log-level", "warning"]
    if loop_probe:
        cmd = [
            sys.executable,
            str(Path(__file__).with_name("_loopprobe.py")),
            str(Path(tmp) / "lags.txt"),
            "--",
            *server_args,
        ]
    else:
        cmd = [sys.executable, "-m", "redtable.server", *server_args]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(Path(tmp) / "server.log", "w"))
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(f"{base}/api/health", proc, timeout=30, every=0.1, trust_env=False)
        return proc, base, Path(str(db) + "-wal")
    except RuntimeError:
        proc.kill()
        raise SystemExit(
            f"the server did not start; see {tmp}/server.log:\n" + (Path(tmp) / "server.log").read_text()[-2000:]
        ) from None


def lat_stats(values: list[float]) -> dict:
    ms = [v * 1000 for v in values]
    return {
        "n": len(ms),
        "p50": round(pct(ms, 50), 2),
        "p90": round(pct(ms, 90), 2),
        "p99": round(pct(ms, 99), 2),
        "max": round(max(ms), 2) if ms else float("nan"),
    }


async def orchestrate(args: argparse.Namespace, proc: subprocess.Popen, base: str, wal: Path, tmp: str) -> dict:
    sampler = Sampler(proc.pid, wal)
    sampler.start()
    t_start = time.time()
    await asyncio.sleep(0.3)
    me = [
        sys.executable,
        os.path.abspath(__file__),
        "--person",
        base,
        "--person-game",
        args.person_game,
        "--person-bot",
        args.person_bot,
        "--person-interval",
        str(args.person_interval),
        "--person-max-seconds",
        str(args.baseline_seconds + args.seconds + 90),
    ]
    person = await asyncio.create_subprocess_exec(*me, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    sampler.person_pid = person.pid
    load0 = os.getloadavg()
    report: dict = {}
    try:
        line = await asyncio.wait_for(person.stdout.readline(), 60)
        if line.strip() != b"ready":
            raise SystemExit(f"the person did not start: {line[:500]!r}")
        cpu0 = cpu_seconds(proc.pid)
        t_base = time.time()
        await asyncio.sleep(args.baseline_seconds)
        t_abuse = time.time()
        cpu1 = cpu_seconds(proc.pid)
        spy = None
        if args.profile:
            exe = args.py_spy or shutil.which("py-spy")
            if not exe:
                raise SystemExit("--profile needs py-spy (on PATH, or --py-spy PATH)")
            spy = subprocess.Popen(
                [
                    exe,
                    "record",
                    "--pid",
                    str(proc.pid),
                    "--duration",
                    str(int(args.seconds + 1)),
                    "--rate",
                    str(args.profile_rate),
                    "--format",
                    args.profile_format,
                    "--output",
                    args.profile,
                    "--nonblocking",
                    *(["--idle"] if args.profile_idle else []),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        if args.attacker_nice:  # this thread only (Linux): the sampler thread and the other processes keep theirs
            os.nice(args.attacker_nice)
        attacker = Attacker(args, base, 0.0)
        attacker.deadline = time.monotonic() + args.seconds
        me0 = time.process_time()
        await attacker.run()
        t_abuse_end = time.time()
        cpu2 = cpu_seconds(proc.pid)
        me1 = time.process_time()
        await attacker.close()
        await asyncio.sleep(args.cooldown)
        t_end = time.time()
        if spy is not None:
            try:
                spy.wait(30)
            except subprocess.TimeoutExpired:
                spy.kill()
        person.stdin.write(b"stop\n")
        await person.stdin.drain()
        out = await asyncio.wait_for(person.stdout.read(), 60)
        await asyncio.wait_for(person.wait(), 30)
        try:
            pres = json.loads(out.decode().strip().splitlines()[-1])
        except (ValueError, IndexError):
            raise SystemExit(f"no result from the person: {out[-500:]!r}") from None
        try:
            health = httpx.get(f"{base}/api/health", timeout=5, trust_env=False).json()
        except (httpx.HTTPError, ValueError):
            health = {}
    finally:
        if person.returncode is None:
            person.kill()
            await person.wait()
        sampler.halt.set()
        sampler.join(2)

    def phase(rows: list, t0: float, t1: float) -> list[float]:
        return [x for t, x in rows if t0 <= t < t1]

    base_lat = lat_stats(phase(pres["samples"], t_base, t_abuse))
    abuse_lat = lat_stats(phase(pres["samples"], t_abuse, t_abuse_end))
    s = sampler.samples
    rss = [x[1] for x in s if x[1] == x[1]]
    abuse_s = sampler.window(t_abuse, t_abuse_end)
    peak_at = max(s, key=lambda x: x[1] if x[1] == x[1] else 0)
    report = {
        "server": {"url": base, "db": "sqlite (fresh file)", "limits": "defaults"},
        "phases_s": {
            "baseline": round(t_abuse - t_base, 1),
            "abuse": round(t_abuse_end - t_abuse, 1),
            "cooldown": round(t_end - t_abuse_end, 1),
        },
        "person": {
            "baseline": base_lat,
            "abuse": abuse_lat,
            "bot_reply_ms": {
                "baseline": lat_stats(phase(pres["bot_waits"], t_base, t_abuse)),
                "abuse": lat_stats(phase(pres["bot_waits"], t_abuse, t_abuse_end)),
            },
            "health_probe_ms": {
                "baseline": lat_stats(phase(pres["probes"], t_base, t_abuse)),
                "abuse": lat_stats(phase(pres["probes"], t_abuse, t_abuse_end)),
            },
            "new_game_setup_ms": {
                "baseline": lat_stats(phase(pres["setups"], t_base, t_abuse)),
                "abuse": lat_stats(phase(pres["setups"], t_abuse, t_abuse_end)),
            },
            "bystander_ms": {
                kind: {
                    "baseline": lat_stats(phase(rows, t_base, t_abuse)),
                    "abuse": lat_stats(phase(rows, t_abuse, t_abuse_end)),
                }
                for kind, rows in pres["lookups"].items()
            },
            "games": pres["games"],
            "errors": pres["errors"],
        },
        "rss_mb": {
            "start": round(rss[0], 1) if rss else None,
            "peak": round(max(rss), 1) if rss else None,
            "peak_at_s": round(peak_at[0] - t_abuse, 1),
            "peak_during_abuse": round(max((x[1] for x in abuse_s), default=float("nan")), 1),
            "end": round(rss[-1], 1) if rss else None,
            "bot_workers_peak": round(max((x[2] for x in s), default=0), 1),
        },
        "wal_peak_mb": round(max((x[3] for x in s), default=0) / 1e6, 2),
        "wal_end_mb": round(s[-1][3] / 1e6, 2) if s else None,
        "server_cpu_percent": {
            "baseline": round(100 * (cpu1 - cpu0) / max(1e-9, t_abuse - t_base), 1),
            "abuse": round(100 * (cpu2 - cpu1) / max(1e-9, t_abuse_end - t_abuse), 1),
        },
        "attacker_cpu_percent": round(100 * (me1 - me0) / max(1e-9, t_abuse_end - t_abuse), 1),
        "server_runq_wait_percent": {
            "baseline": wait_pct(sampler, t_base, t_abuse),
            "abuse": wait_pct(sampler, t_abuse, t_abuse_end),
        },
        "load_average": {"start": [round(x, 2) for x in load0], "end": [round(x, 2) for x in os.getloadavg()]},
        "attacker": {k: dict(sorted(v.items(), key=lambda kv: str(kv[0]))) for k, v in sorted(attacker.c.items())},
        "attacker_notes": attacker.notes,
        "server_health_after": health,
        "total_s": round(time.time() - t_start, 1),
        "timeline": timeline(pres, sampler, t_base, t_abuse, t_end),
    }
    lags = read_lags(Path(tmp) / "lags.txt") if args.loop_probe else None
    if lags is not None:
        report["loop_lags"] = {
            "baseline": lag_stats(lags, t_base, t_abuse),
            "abuse": lag_stats(lags, t_abuse, t_abuse_end),
        }
        calls = read_calls(Path(tmp) / "lags.txt.calls")

        def call_stats(t0: float, t1: float) -> dict:
            inside = [x for x in calls if t0 <= x[0] < t1]
            by: dict[str, list] = defaultdict(list)
            for _, name, dt, cpu, runq in inside:
                by[name].append((dt, cpu, runq))
            return {
                name: f"{len(v)} over 5 ms, {round(1000 * sum(x[0] for x in v), 1)} ms in all, worst "
                f"{round(1000 * max(v)[0], 1)} ms ({round(1000 * max(v)[1], 1)} ms on a CPU, "
                f"{round(1000 * max(v)[2], 1)} ms waiting for one)"
                for name, v in by.items()
            }

        report["slow_botpool_calls"] = {
            "baseline": call_stats(t_base, t_abuse),
            "abuse": call_stats(t_abuse, t_abuse_end),
        }
        for row in report["timeline"]:
            t0 = t_abuse + row["t"]
            inside = [x for x in lags if t0 <= x[0] < t0 + 2.0]
            worst = max(inside, key=lambda x: x[1], default=None)
            row["loop_lag_max_ms"] = round(1000 * worst[1], 1) if worst else 0
            row["loop_lag_max_cpu_ms"] = round(1000 * worst[2], 1) if worst else 0
            row["loop_lag_max_runq_ms"] = round(1000 * worst[3], 1) if worst else 0
    report["attacker_nice"] = args.attacker_nice
    report["targets"] = {
        "person p99 during abuse <= 50 ms": {"value": abuse_lat["p99"], "pass": abuse_lat["p99"] <= P99_TARGET_MS},
        **{
            f"bystander {kind} p99 <= 250 ms": {
                "value": x["abuse"]["p99"],
                "pass": x["abuse"]["n"] > 0 and x["abuse"]["p99"] <= BYSTANDER_P99_TARGET_MS,
            }
            for kind, x in report["person"]["bystander_ms"].items()
            if "h" in args.attacks
        },
        "server peak RSS < 500 MB": {
            "value": report["rss_mb"]["peak"],
            "pass": (report["rss_mb"]["peak"] or 1e9) < RSS_TARGET_MB,
        },
    }
    return report


def read_lags(path: Path) -> list[tuple[float, float, float, float]]:
    """(wall clock, lag s, CPU s, run-queue wait s) per late wake-up of the server's loop (bench/_loopprobe.py)."""
    out = []
    try:
        for line in path.read_text().splitlines():
            with contextlib.suppress(ValueError):
                t, lag, cpu, runq = map(float, line.split())
                out.append((t, lag, cpu, runq))
    except OSError:
        pass
    return out


def read_calls(path: Path) -> list[tuple[float, str, float, float, float]]:
    out = []
    try:
        for line in path.read_text().splitlines():
            with contextlib.suppress(ValueError):
                t, name, dt, cpu, runq = line.split()
                out.append((float(t), name, float(dt), float(cpu), float(runq)))
    except OSError:
        pass
    return out


def lag_stats(lags: list[tuple[float, float, float, float]], t0: float, t1: float) -> dict:
    """Event-loop wake-ups more than 15 ms late: how many, the worst, and where the lost time went: the loop's
    thread on a CPU (a callback blocking the loop), waiting for a CPU (the machine busy), or asleep inside a
    call (blocking I/O or the GIL held by another thread)."""
    inside = [x for x in lags if t0 <= x[0] < t1]
    asleep = [max(0.0, x[1] - x[2] - x[3]) for x in inside]
    ms = lambda v: round(1000 * v, 1)  # noqa: E731
    return {
        "late_wakeups": len(inside),
        "max_ms": ms(max((x[1] for x in inside), default=0)),
        "lost_ms": ms(sum(x[1] for x in inside)),
        "on_cpu_ms": ms(sum(x[2] for x in inside)),
        "on_cpu_max_ms": ms(max((x[2] for x in inside), default=0)),
        "runq_ms": ms(sum(x[3] for x in inside)),
        "runq_max_ms": ms(max((x[3] for x in inside), default=0)),
        "asleep_ms": ms(sum(asleep)),
        "asleep_max_ms": ms(max(asleep, default=0)),
    }


def wait_pct(sampler: Sampler, t0: float, t1: float) -> float:
    """The share of wall time the server's main thread spent runnable but waiting for a CPU."""
    w = sampler.window(t0, t1)
    if len(w) < 2:
        return float("nan")
    return round(100 * (w[-1][5] - w[0][5]) / max(1e-9, w[-1][0] - w[0][0]), 1)


def timeline(pres: dict, sampler: Sampler, t_base: float, t_abuse: float, t_end: float, step: float = 2.0) -> list:
    """Per ``step`` seconds from the baseline's start: the person's decisions (count, max ms), the
    health probe's max ms, the server's RSS (max MB)."""
    rows = []
    t = t_base
    while t < t_end and len(rows) < 1000:
        lat = [x * 1000 for w, x in pres["samples"] if t <= w < t + step]
        pr = [x * 1000 for w, x in pres["probes"] if t <= w < t + step]
        w = sampler.window(t, t + step)
        mem = [x[1] for x in w if x[1] == x[1]]
        cpu = 100 * (w[-1][4] - w[0][4]) / max(1e-9, w[-1][0] - w[0][0]) if len(w) > 1 else float("nan")
        waits = [1000 * (b[5] - a[5]) for a, b in itertools.pairwise(w)]
        pw = [x for x in sampler.person_wait if t <= x[0] <= t + step]
        pwait = 1000 * (pw[-1][1] - pw[0][1]) if len(pw) > 1 else float("nan")
        rows.append(
            {
                "t": round(t - t_abuse, 1),
                "n": len(lat),
                "max_ms": round(max(lat), 1) if lat else None,
                "probe_max_ms": round(max(pr), 1) if pr else None,
                "rss_mb": round(max(mem), 1) if mem else None,
                "cpu": round(cpu) if cpu == cpu else -1,
                "runq_wait_ms": round(sum(waits), 1),
                "runq_wait_max_100ms": round(max(waits), 1) if waits else None,
                "person_runq_wait_ms": round(pwait, 1),
            }
        )
        t += step
    return rows


def print_report(r: dict, server_log: str) -> None:
    b, a = r["person"]["baseline"], r["person"]["abuse"]
    ph = r["phases_s"]
    print(
        f"abuse run: server {r['server']['url']} (default limits, fresh SQLite); baseline {ph['baseline']} s, "
        f"abuse {ph['abuse']} s, cooldown {ph['cooldown']} s; {r['total_s']} s in all; attacker nice "
        f"{r['attacker_nice']}"
    )
    print()
    print("the person's decision latency (send decide -> its acknowledging update), ms:")
    print(f"  {'':12} {'n':>6} {'p50':>8} {'p90':>8} {'p99':>8} {'max':>8}")
    for name, x in (("baseline", b), ("abuse", a)):
        print(f"  {name:12} {x['n']:>6} {x['p50']:>8} {x['p90']:>8} {x['p99']:>8} {x['max']:>8}")
    for label, key in (
        ("bot's reply", "bot_reply_ms"),
        ("new game", "new_game_setup_ms"),
        ("GET /api/health from 127.0.0.3 every 100 ms", "health_probe_ms"),
        ("bystander's GET /api/session, logged in, from 127.0.0.4", ("bystander_ms", "session")),
        ("bystander's GET /api/tables (the lobby)", ("bystander_ms", "lobby")),
    ):
        got = r["person"][key] if isinstance(key, str) else r["person"][key[0]][key[1]]
        x, y = got["baseline"], got["abuse"]
        print(
            f"  ({label}, p50/p99 ms: baseline {x['p50']}/{x['p99']} n={x['n']}; "
            f"abuse {y['p50']}/{y['p99']} n={y['n']})"
        )
    print(
        f"  games started {r['person']['games']['started']}, finished {r['person']['games']['finished']}; "
        f"errors: {r['person']['errors'] or 'none'}"
    )
    print("  timeline, per 2 s from the abuse's start: the person's decisions, their max ms; the health probe's max")
    print("  ms;", end="")
    print(" the server's RSS MB, its main thread's CPU % and the ms it waited, runnable, for a CPU (in 2 s; most")
    print("  in 0.1 s); the ms the person's process waited for a CPU (in 2 s):")
    for x in r["timeline"]:
        print(
            f"    {x['t']:+5.0f} s: {x['n']:3} decisions, max {x['max_ms']!s:>6} ms; "
            f"probe {x['probe_max_ms']!s:>6} ms; "
            f"{x['rss_mb']} MB; CPU {x['cpu']:3}%; waited {x['runq_wait_ms']:6} ms (most "
            f"{x['runq_wait_max_100ms']}); person waited {x['person_runq_wait_ms']} ms"
            + (
                f"; loop lag max {x['loop_lag_max_ms']} ms ({x['loop_lag_max_cpu_ms']} on a CPU, "
                f"{x['loop_lag_max_runq_ms']} waiting for one)"
                if "loop_lag_max_ms" in x
                else ""
            )
        )
    m = r["rss_mb"]
    print()
    print(
        f"server memory: RSS start {m['start']} MB, peak {m['peak']} MB ({m['peak_at_s']:+} s from the abuse's "
        f"start), end {m['end']} MB; bot workers peak {m['bot_workers_peak']} MB (together)"
    )
    print(f"SQLite WAL: peak {r['wal_peak_mb']} MB, end {r['wal_end_mb']} MB")
    print(
        f"server CPU: baseline {r['server_cpu_percent']['baseline']}%, abuse {r['server_cpu_percent']['abuse']}% "
        f"(of one core); attacker {r['attacker_cpu_percent']}%"
    )
    for name, x in (r.get("loop_lags") or {}).items():
        print(
            f"server event loop ({name}): {x['late_wakeups']} wake-ups >15 ms late, worst {x['max_ms']} ms, "
            f"{x['lost_ms']} ms in all; of those intervals the loop's thread was on a CPU {x['on_cpu_ms']} ms "
            f"(most in one {x['on_cpu_max_ms']}), waiting for a CPU {x['runq_ms']} ms (most {x['runq_max_ms']}), "
            f"asleep in a call (I/O, GIL) {x['asleep_ms']} ms (most {x['asleep_max_ms']})"
        )
    for name, x in (r.get("slow_botpool_calls") or {}).items():
        print(f"  slow bot-pool pipe calls on the loop ({name}): {x}")
    rq = r["server_runq_wait_percent"]
    print(
        f"server's main thread runnable but waiting for a CPU: baseline {rq['baseline']}%, abuse {rq['abuse']}% of "
        f"the time; load average {r['load_average']['start']} -> {r['load_average']['end']} ({os.cpu_count()} cores)"
    )
    print()
    print("the attacker (127.0.0.1):")
    for part, counts in r["attacker"].items():
        print(f"  {part}:")
        for k, v in counts.items():
            print(f"    {k}: {v}")
    for k, v in r["attacker_notes"].items():
        print(f"  {k}: {v}")
    h = r.get("server_health_after") or {}
    if h:
        print(
            f"  server after: {h.get('games_in_memory')} games in memory, {h.get('connections')} connections, "
            f"{h.get('decisions')} decisions, {h.get('commits')} commits"
        )
    lines = [x for x in server_log.splitlines() if x.strip()]
    if lines:
        print(f"  server log: {len(lines)} lines, e.g. {lines[0][:160]!r}")
    print()
    print(f"  {'target':40} {'value':>10}  result")
    for name, t in r["targets"].items():
        print(f"  {name:40} {t['value']!s:>10}  {'PASS' if t['pass'] else 'FAIL'}")
    print(f"  (person p99 in the baseline: {b['p99']} ms; peak RSS during the abuse: {m['peak_during_abuse']} MB)")
    wait = r["server_runq_wait_percent"]["abuse"]
    if wait == wait and wait > 10:
        print(
            f"  note: the server's main thread waited for a CPU {wait}% of the abuse phase (load average "
            f"{r['load_average']['end'][0]} on {os.cpu_count()} cores): latencies include the machine's own "
            "contention; --loop-probe separates it from work that blocks the server's loop"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=20.0, help="length of the abuse phase")
    p.add_argument("--baseline-seconds", type=float, default=8.0, help="length of the baseline phase (no abuse)")
    p.add_argument("--cooldown", type=float, default=2.0, help="seconds after the abuse before the end RSS")
    p.add_argument("--person-game", default="red-north", choices=["red-north", "red-rising"])
    p.add_argument("--person-bot", default="heuristic", help="the person's opponent (random, heuristic, ...)")
    p.add_argument(
        "--person-interval",
        type=float,
        default=0.12,
        help="at least this many seconds between the person's decisions (the limit is 10/s)",
    )
    p.add_argument(
        "--flood-seats",
        default="person",
        choices=["person", "ismcts"],
        help="what the creation flood asks for: a person against a heuristic bot, or 4 ISMCTS bots",
    )
    p.add_argument("--flood-workers", type=int, default=8)
    p.add_argument("--flood-max", type=int, default=100_000, help="at most this many creation requests")
    p.add_argument("--storm-sockets", type=int, default=20)
    p.add_argument("--storm-messages", type=int, default=1900)
    p.add_argument(
        "--storm-rounds",
        type=int,
        default=100,
        help="a storm socket the server closed reconnects (0.25 s later), at most this many times",
    )
    p.add_argument("--spectators", type=int, default=1000)
    p.add_argument("--spectator-concurrency", type=int, default=100)
    p.add_argument("--unknown-max", type=int, default=20_000, help="at most this many unknown-game requests")
    p.add_argument(
        "--attacks",
        default="abcdefg",
        help="which attacks: a creation flood, b sync storm, c spectator sockets, d large and malformed "
        "input, e malformed decisions to unknown games, f huge unfinished request headers, "
        "g slow request headers, h log-in flood from many addresses (default abcdefg; h runs only when named)",
    )
    p.add_argument("--login-addresses", type=int, default=32, help="h: addresses flooding log-ins (127.0.1.N)")
    p.add_argument("--header-conns", type=int, default=50, help="f: connections with an unfinished huge header")
    p.add_argument("--header-mb", type=float, default=10.0, help="f: MB of header each sends (then nothing)")
    p.add_argument("--slow-conns", type=int, default=200, help="g: connections sending a header at 10 bytes/s")
    p.add_argument(
        "--attacker-nice",
        type=int,
        default=10,
        help="niceness of the attacker's thread: on a 2-core machine the load generator must not take the "
        "person's or the server's core as a remote attacker could not (0: no change)",
    )
    p.add_argument(
        "--loop-probe",
        action="store_true",
        help="run the server through bench/_loopprobe.py: report its event loop's late wake-ups and "
        "whether it was busy (blocking) or waiting for a CPU",
    )
    p.add_argument(
        "--profile",
        metavar="FILE",
        help="sample the server with py-spy during the abuse phase (folded stacks, for flamegraph tools)",
    )
    p.add_argument("--profile-format", default="raw", choices=["raw", "speedscope", "flamegraph"])
    p.add_argument("--profile-rate", type=int, default=250, help="py-spy samples per second")
    p.add_argument("--profile-idle", action="store_true", help="py-spy also samples idle threads (--idle)")
    p.add_argument("--py-spy", metavar="PATH", help="the py-spy executable (default: from PATH)")
    p.add_argument("--keep", action="store_true", help="keep the temporary folder (database, server log)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--person", help=argparse.SUPPRESS)  # internal: run the person against this URL
    p.add_argument("--person-max-seconds", type=float, default=120.0, help=argparse.SUPPRESS)
    args = p.parse_args()

    try:
        import uvloop
    except ImportError:
        uvloop = None
    if args.person:
        (uvloop.run if uvloop else asyncio.run)(person_main(args))
        return
    if not 0 < args.seconds <= 600 or not 0 < args.baseline_seconds <= 600:
        p.error("--seconds and --baseline-seconds must be above 0 and at most 600")
    if not 1 <= args.login_addresses <= 250:
        p.error("--login-addresses must be 1-250 (127.0.1.1 to 127.0.1.250)")
    raise_nofile()
    tmp = tempfile.mkdtemp(prefix="redtable-abuse-")
    proc, base, wal = start_server(tmp, args.loop_probe)
    try:
        report = (uvloop.run if uvloop else asyncio.run)(orchestrate(args, proc, base, wal, tmp))
    finally:
        stop_process(proc, wait=15)
        log_text = (Path(tmp) / "server.log").read_text(errors="replace") if (Path(tmp) / "server.log").exists() else ""
        if args.keep:
            print(f"kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    report["server_log_lines"] = len([x for x in log_text.splitlines() if x.strip()])
    if args.json:
        print(json.dumps(report))
    else:
        print_report(report, log_text)
    sys.exit(0 if all(t["pass"] for t in report["targets"].values()) else 1)


if __name__ == "__main__":
    main()
