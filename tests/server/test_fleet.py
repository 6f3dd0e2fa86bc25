"""Two server processes on one PostgreSQL schema serve the same games (``redtable/server/fleet.py``).

Seats of one game are connected to different processes and play whole games of both
titles: every seat receives every update, in order, wherever it is connected; the log
holds exactly the decisions that were acknowledged. One process is then SIGKILLed in the
middle of a game while it holds the game's bot lease: its clients reconnect to the other
process and go on, no acknowledged decision is lost, and the bot resumes there once the
lease expires. The same with the Redis bus. ``redtable serve --workers 2`` runs two such
processes on one port; with SQLite it refuses.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time

import httpx
import pytest
from fleetkit import REDIS_URL, Proc, Seat, Table, check_in_order, check_log_holds_acks, create_game, redis_problem
from srvkit import PG_URL, free_port


@pytest.fixture
def pair(schema, tmp_path, request):
    """Two server processes on one schema (the bus as the test's parameter, if any)."""
    bus = getattr(request, "param", None)
    if bus == "redis" and redis_problem():
        pytest.skip(redis_problem())
    bus_url = REDIS_URL if bus == "redis" else None
    procs = [Proc(schema, tmp_path / f"server{i}.log", bus=bus_url).start() for i in range(2)]
    yield procs
    for p in procs:
        p.stop()


def play(table: Table, seconds: float = 90) -> None:
    async def main():
        await asyncio.wait_for(asyncio.gather(*(s.run() for s in table.seats)), seconds)

    asyncio.run(main())


@pytest.mark.parametrize("pair", [None, "redis"], indirect=True, ids=["postgres-bus", "redis-bus"])
@pytest.mark.parametrize(
    "game,seats",
    [
        ("red-rising", ["human", "human", "bot", "human"]),
        ("red-north", ["human", "human", "bot"]),
    ],
)
def test_seats_on_two_processes_play_whole_games(pair, game, seats):
    a, b = pair
    spec = [
        {"type": "bot", "bot": "heuristic" if game == "red-north" else "random"} if s == "bot" else {"type": "human"}
        for s in seats
    ]
    body = {"options": {"block_windows": False}} if game == "red-rising" else {}
    gid, tokens = create_game(a, game, spec, **body)
    table = Table(gid, tokens)
    # seats alternate between the processes; a spectator on each
    table.seats = [Seat(table, i, tokens[i], pair[i % 2]) for i in range(len(seats)) if seats[i] == "human"]
    table.seats += [Seat(table, None, None, a), Seat(table, None, None, b)]
    play(table)
    final = max(s.last["version"] for s in table.seats)
    for s in table.seats:
        assert s.last["status"] == "finished", f"seat {s.seat} did not see the end"
        assert s.last["version"] == final
        check_in_order(s, final)
    # what each seat was shown is what either process answers now, and the log holds every acknowledgement
    for s in table.seats:
        for p in pair:
            r = httpx.get(
                f"{p.base}/api/games/{gid}",
                headers={"Authorization": f"Bearer {s.token}"} if s.token else {},
                timeout=10,
            ).json()
            assert r["version"] == final and r["view"] == s.last["view"] and r["result"] == s.last["result"]
    lg = check_log_holds_acks(a, gid, table.seats)
    assert lg["steps"] == final  # no undo: one version per decision, none twice
    acked = sum(len(s.acked) for s in table.seats)
    bot = seats.index("bot")
    assert acked + sum(1 for e in lg["log"] if e["seat"] == bot) == final
    healths = [p.health()["fleet"] for p in pair]
    assert all(h["bus_connected"] for h in healths)
    assert sum(h["catch_ups"] for h in healths) > 0  # each process followed the other's decisions
    assert healths[0]["process"] != healths[1]["process"]


def test_sigkill_one_process_its_clients_and_bots_go_on(pair):
    """Seat 0 on A, seat 2 on B, the bot (seat 1) between them: A takes the bot lease when seat 0
    decides. A is killed just then: seat 0 reconnects to B, B's sweeper takes over the bot."""
    a, b = pair
    gid, tokens = create_game(
        a,
        "red-rising",
        [{"type": "human"}, {"type": "bot", "bot": "random"}, {"type": "human"}],
        options={"block_windows": False},
        bot_delay=0.15,
    )
    table = Table(gid, tokens)
    s0, s2 = Seat(table, 0, tokens[0], a), Seat(table, 2, tokens[2], b)
    table.seats = [s0, s2]

    async def main():
        t0 = asyncio.create_task(s0.run())
        t2 = asyncio.create_task(s2.run())
        deadline = time.monotonic() + 60
        # play a while, then wait for the moment seat 0's decision was acknowledged and the bot is to move
        while True:
            assert time.monotonic() < deadline, "the game stalled before the kill"
            await asyncio.sleep(0.005)
            last = s0.last
            if (
                len(s0.acked) >= 3
                and last is not None
                and last["type"] == "update"
                and last["by"] == 0
                and last["decision"]
                and last["decision"]["player"] == 1
            ):
                break
        a.kill()  # SIGKILL: no goodbye, the lease is not handed over
        await asyncio.wait_for(t0, 10)  # its socket closed
        s0.server = b  # the client reconnects to the other process
        t0 = asyncio.create_task(s0.run())
        await asyncio.wait_for(asyncio.gather(t0, t2), 120)

    asyncio.run(main())
    assert s0.connections == 2
    assert s0.last["status"] == "finished" and s2.last["status"] == "finished"
    lg = check_log_holds_acks(b, gid, table.seats)
    assert lg["status"] == "finished"
    fleet = b.health()["fleet"]
    assert fleet["claimed"] >= 1, fleet  # B took the dead process's lease and its bot played on
    # the seat that stayed on B saw every update in order, across the other process's death
    check_in_order(s2, s2.last["version"])


# ---------------------------------------------------------------------- --workers
def _serve(args: list[str], env=None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "redtable.server", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_workers_refuse_sqlite_with_the_reason(tmp_path):
    p = _serve(["--workers", "2", "--db", f"sqlite:///{tmp_path}/g.db", "--port", str(free_port())])
    out, err = p.communicate(timeout=60)
    assert p.returncode == 2
    assert "--workers 2 needs PostgreSQL" in err and "SQLite" in err and "single writer" in err
    p = _serve(["--bus", "redis://127.0.0.1:6379/0", "--db", f"sqlite:///{tmp_path}/g.db", "--port", str(free_port())])
    out, err = p.communicate(timeout=60)
    assert p.returncode == 2 and "PostgreSQL" in err
    for args, says in (
        (["--workers", "0"], "--workers must be 1-64"),
        (["--lease-seconds", "0.5"], "--lease-seconds must be 1-600"),
        (["--bus", "amqp://x"], "--bus must be postgres or a redis:// URL"),
    ):
        p = _serve([*args, "--port", str(free_port()), "--db", f"sqlite:///{tmp_path}/g.db"])
        out, err = p.communicate(timeout=60)
        assert p.returncode == 2 and says in err, err


def test_workers_share_one_port(schema, tmp_path):
    port = free_port()
    env = {**os.environ, "REDTABLE_DB": PG_URL}
    sup = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "redtable.server",
            "--workers",
            "2",
            "--port",
            str(port),
            "--db-schema",
            schema,
            "--log-level",
            "warning",
            "--rate-scale",
            "1000",
        ],
        stdout=subprocess.DEVNULL,
        stderr=open(tmp_path / "sup.log", "w"),
        env=env,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        pids: set[int] = set()
        deadline = time.time() + 60
        while len(pids) < 2:
            assert time.time() < deadline, f"two workers did not answer: {pids} {(tmp_path / 'sup.log').read_text()}"
            try:  # a new connection each time: the kernel spreads them over the workers
                with httpx.Client(base_url=base, timeout=2) as c:
                    pids.add(c.get("/api/health").json()["pid"])
            except httpx.HTTPError:
                time.sleep(0.1)
        assert sup.pid not in pids
        log = (tmp_path / "sup.log").read_text()
        assert (
            "2 worker processes" in log
            and PG_URL
            not in subprocess.run(["ps", "-o", "args=", "--ppid", str(sup.pid)], capture_output=True, text=True).stdout
        )  # no URL in ps
        # a game played through whichever worker each request reaches
        shim = Proc(schema, tmp_path / "unused.log")
        shim.port, shim.base, shim.ws = port, base, f"ws://127.0.0.1:{port}"
        gid, tokens = create_game(shim, "red-north", [{"type": "human"}, {"type": "human"}])
        table = Table(gid, tokens)
        table.seats = [Seat(table, i, tokens[i], shim) for i in range(2)]
        play(table, 60)
        assert all(s.last["status"] == "finished" for s in table.seats)
        check_log_holds_acks(shim, gid, table.seats)
        # a worker that dies is replaced
        victim = next(iter(pids))
        os.kill(victim, signal.SIGKILL)
        deadline = time.time() + 30
        fresh: set[int] = set()
        while not (fresh - pids):
            assert time.time() < deadline, "the supervisor did not replace the killed worker"
            try:
                with httpx.Client(base_url=base, timeout=2) as c:
                    fresh.add(c.get("/api/health").json()["pid"])
            except httpx.HTTPError:
                time.sleep(0.1)
    finally:
        sup.send_signal(signal.SIGTERM)
        assert sup.wait(30) == 0
    assert "exited" in (tmp_path / "sup.log").read_text()
    assert re.search(r"2 workers: \d+, \d+", (tmp_path / "sup.log").read_text())
