"""Metrics, request logs and health: in a server of this process, and scraped by a real Prometheus.

The Prometheus test takes docs/deploy.md's scrape configuration, alert rules and dashboard
as written, points the scrape at two server processes of one fleet (PostgreSQL, each with
``--metrics-port``), plays a game across both and asks Prometheus what it scraped. It is
skipped where Debian's ``prometheus`` is not installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fleetkit import Proc
from prometheus_client.parser import text_string_to_metric_families
from srvkit import PG_URL, Api, Backend, Client, free_port, require_backend, start_server
from tablekit import until

from redtable.server.jsonlog import JsonFormatter, log_config
from redtable.server.limits import Limits

DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
TOKEN = "t0ken-for-the-metrics-page-0123"


def value(page: str, name: str, **labels: str) -> float:
    """The sample ``name{labels}`` of a metrics page (0 if absent)."""
    for fam in text_string_to_metric_families(page):
        for s in fam.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return s.value
    return 0.0


def scrape(api: Api) -> str:
    r = api.http.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain"), r.text
    return r.text


def test_metrics_page_health_and_request_log(backend, caplog):
    srv = start_server(backend, metrics_token=TOKEN, log_requests=True)
    api = Api(srv.base)
    try:
        # /metrics: only to the bearer token; anything else is the 404 of a page that is not there
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}):
            assert api.http.get("/metrics", headers=headers).status_code == 404
        assert api.http.get("/metrics", params={"token": TOKEN}).status_code == 404
        before = scrape(api)
        assert api.http.get("/healthz").json() == {"ok": True}
        ready = api.http.get("/readyz")
        assert ready.status_code == 200 and ready.json() == {"ready": True, "problems": []}

        info, tokens = api.new_game("red-rising", ("human", "human"))
        gid = info["game_id"]
        c = Client(srv, gid, tokens[0])
        for _ in range(3):
            me = api.state(gid, tokens[api.state(gid)["decision"]["player"]])
            p = me["decision"]["player"]
            assert api.decide(gid, tokens[p], me["decision"]["options"][0], me["version"]).status_code == 200
        with caplog.at_level(logging.INFO, logger="redtable.access"):
            r = api.http.get(f"/api/games/{gid}", params={"secret": "do-not-log-me"})
        page = scrape(api)
        assert value(page, "redtable_decisions_total") - value(before, "redtable_decisions_total") >= 3
        assert value(page, "redtable_websocket_connections") >= 1 and value(page, "redtable_live_games") >= 1
        route = "/api/games/{game_id}/decisions"
        assert value(page, "redtable_http_requests_total", method="POST", route=route, status="200") >= 3
        assert value(page, "redtable_http_request_seconds_count", method="POST", route=route) >= 3
        assert value(page, "redtable_storage_commit_seconds_count") > value(
            before, "redtable_storage_commit_seconds_count"
        )
        assert gid not in page  # route templates only: no game id, no token in a label
        c.close()

        # one log line per request: its id (the response's X-Request-Id), route template, status, latency
        line = next(rec for rec in caplog.records if rec.name == "redtable.access" and rec.status == 200)
        assert line.request_id == r.headers["x-request-id"] and line.route == "/api/games/{game_id}"
        assert line.method == "GET" and line.ms >= 0
        as_json = json.loads(JsonFormatter().format(line))
        assert as_json["request_id"] == line.request_id and as_json["route"] == "/api/games/{game_id}"
        assert as_json["level"] == "info" and as_json["status"] == 200
        assert not any("do-not-log-me" in rec.getMessage() or gid in rec.getMessage() for rec in caplog.records)
    finally:
        api.close()
        srv.stop()


def test_rate_limit_refusals_are_counted(tmp_path):
    require_backend("sqlite")
    srv = start_server(Backend("sqlite", tmp_path), limits=Limits(), metrics_token=TOKEN)
    api = Api(srv.base)
    try:
        before = value(scrape(api), "redtable_rate_limit_refusals_total", limit="create")
        body = {"game": "red-rising", "seats": [{"type": "human"}, {"type": "human"}]}
        codes = [api.http.post("/api/games", json=body).status_code for _ in range(40)]
        refused = codes.count(429)
        assert refused > 0
        after = value(scrape(api), "redtable_rate_limit_refusals_total", limit="create")
        assert after - before == refused
    finally:
        api.close()
        srv.stop()


@pytest.mark.multiprocess
def test_log_config_and_serve_options(tmp_path):
    cfg = log_config("json", "warning")
    assert cfg["loggers"]["uvicorn.access"]["handlers"] == []  # its lines carry query strings
    with pytest.raises(ValueError, match="text or json"):
        log_config("xml")
    b = Backend("sqlite", tmp_path)
    cases = [
        (["--log-format", "xml"], "--log-format must be text or json"),
        (["--metrics-port", "0"], "--metrics-port must be"),
        (["--port", "9000", "--metrics-port", "9000"], "must differ from --port"),
        (["--metrics-token", "short"], "16-200 printable characters"),
        (["--chat-days", "-1"], "--chat-days must be 0"),
    ]
    for args, message in cases:
        done = subprocess.run(
            [sys.executable, "-m", "redtable.server", *b.cli_args(), *args], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)


@pytest.mark.multiprocess
def test_workers_serve_metrics_on_their_own_ports_and_log_json(tmp_path):
    require_backend("postgresql")
    b = Backend("postgresql", tmp_path)
    port, mport = free_port(), free_port()
    while mport + 1 == port:
        mport = free_port()
    args = ["--workers", "2", "--port", str(port), "--db-schema", str(b.schema), "--metrics-port", str(mport)]
    sup = subprocess.Popen(
        [sys.executable, "-m", "redtable.server", *args, "--log-format", "json", "--rate-scale", "1000"],
        stdout=subprocess.DEVNULL,
        stderr=open(tmp_path / "sup.log", "w"),  # noqa: SIM115
        env={**os.environ, "REDTABLE_DB": PG_URL},
        start_new_session=True,
    )
    try:
        pages: dict[int, str] = {}
        deadline = time.time() + 90
        while len(pages) < 2:  # worker i answers on mport + i
            assert time.time() < deadline, (tmp_path / "sup.log").read_text()[-2000:]
            for m in (mport, mport + 1):
                try:
                    r = httpx.get(f"http://127.0.0.1:{m}/metrics", timeout=2)
                    if r.status_code == 200:
                        pages[m] = r.text
                except httpx.HTTPError:
                    time.sleep(0.1)
        assert all("redtable_live_games" in p and "process_cpu_seconds_total" in p for p in pages.values())
        while True:  # (the metrics ports open before the main one)
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/api/games?limit=1", timeout=5).status_code == 200
                break
            except httpx.HTTPError:
                assert time.time() < deadline, (tmp_path / "sup.log").read_text()[-2000:]
                time.sleep(0.2)
        time.sleep(0.5)
    finally:
        sup.send_signal(signal.SIGTERM)
        assert sup.wait(30) == 0
        b.cleanup()
    lines = [json.loads(ln) for ln in (tmp_path / "sup.log").read_text().splitlines() if ln.startswith("{")]
    access = [ln for ln in lines if ln["logger"] == "redtable.access"]  # on by default with json
    assert access and access[0]["route"] == "/api/games" and "limit" not in access[0]["msg"]
    assert {"ts", "level", "request_id", "status", "ms"} <= set(access[0])


# ---------------------------------------------------------------------- a real Prometheus, two processes
def doc_block(lang: str, first: str) -> str:
    for m in re.finditer(rf"```{lang}\n(.*?)```", DOC.read_text(), re.S):
        if m.group(1).startswith(first):
            return m.group(1)
    raise AssertionError(f"docs/deploy.md has no {lang} block starting {first!r}")


@pytest.mark.multiprocess
def test_a_real_prometheus_scrapes_a_fleet(tmp_path):
    prometheus = shutil.which("prometheus")
    if prometheus is None:
        pytest.skip("Debian's prometheus is not installed (apt-get install prometheus; .ci/run installs it)")
    require_backend("postgresql")
    b = Backend("postgresql", tmp_path)
    ports = [free_port(), free_port()]
    procs = [Proc(b.schema, tmp_path / f"s{i}.log", extra=["--metrics-port", str(ports[i])]) for i in range(2)]
    prom = None
    try:
        for p in procs:
            p.start()
        config = doc_block("yaml", "# prometheus.yml")
        targets = ", ".join(f'"127.0.0.1:{p}"' for p in ports)
        config = re.sub(r"targets: \[.*\]", f"targets: [{targets}]", config)
        config = config.replace("scrape_interval: 15s", "scrape_interval: 1s")
        config = config.replace("evaluation_interval: 15s", "evaluation_interval: 1s")
        assert "10.0.0" not in config
        (tmp_path / "prometheus.yml").write_text(config)
        (tmp_path / "redtable-alerts.yml").write_text(doc_block("yaml", "# redtable-alerts.yml"))
        promtool = shutil.which("promtool")
        if promtool:
            for what in (
                ["check", "config", str(tmp_path / "prometheus.yml")],
                ["check", "rules", str(tmp_path / "redtable-alerts.yml")],
            ):
                done = subprocess.run([promtool, *what], capture_output=True, text=True, timeout=60)
                assert done.returncode == 0, done.stdout + done.stderr
        web = free_port()
        prom = subprocess.Popen(
            [
                prometheus,
                f"--config.file={tmp_path / 'prometheus.yml'}",
                f"--storage.tsdb.path={tmp_path / 'tsdb'}",
                f"--web.listen-address=127.0.0.1:{web}",
            ],
            stdout=subprocess.DEVNULL,
            stderr=open(tmp_path / "prometheus.log", "w"),  # noqa: SIM115
        )
        # a game whose seats play through different processes: the bus carries each decision
        apis = [Api(p.base) for p in procs]
        info = apis[0].create("red-rising", ("human", "human"))
        gid = info["game_id"]
        tokens = [apis[i].join(gid, s["invite"]) for i, s in enumerate(info["seats"])]
        decided = 0
        version = 0
        for _ in range(6):
            # a process learns of the other's join or move when the bus brings it: wait for that, not a fixed time
            seen = until(
                lambda v=version: (s := apis[0].state(gid))["decision"] and s["version"] >= v and s,
                timeout=20,
                what="process 0 seeing the game's next decision",
            )
            who = seen["decision"]["player"]
            me = until(
                lambda w=who, v=seen["version"]: (s := apis[w].state(gid, tokens[w]))["version"] >= v and s,
                timeout=20,
                what="the deciding seat's process seeing the same version",
            )
            r = apis[who].decide(gid, tokens[who], me["decision"]["options"][0], me["version"])
            assert r.status_code == 200, r.text
            version = r.json()["version"]
            decided += 1
        for a in apis:
            a.close()

        query = httpx.Client(base_url=f"http://127.0.0.1:{web}", timeout=10)

        def ask(expr: str) -> list:
            r = query.get("/api/v1/query", params={"query": expr})
            assert r.status_code == 200 and r.json()["status"] == "success", (expr, r.text)
            return r.json()["data"]["result"]

        deadline = time.time() + 60
        while True:
            try:
                up = ask('up{job="redtable"}')
                decisions = ask("sum(redtable_decisions_total)")
                lag = ask("sum(redtable_bus_lag_seconds_count)")
                rules = query.get("/api/v1/rules").json()["data"]["groups"]
                evaluated = [r for g in rules for r in g["rules"]]
                if (
                    len(up) == 2
                    and all(float(u["value"][1]) == 1 for u in up)
                    and decisions
                    and float(decisions[0]["value"][1]) >= decided
                    and lag
                    and float(lag[0]["value"][1]) > 0
                    and evaluated
                    and all(r["health"] == "ok" for r in evaluated)
                ):
                    break
            except (httpx.HTTPError, KeyError):
                pass
            assert time.time() < deadline, (tmp_path / "prometheus.log").read_text()[-2000:]
            time.sleep(0.5)
        assert {r["name"] for r in evaluated} >= {
            "RedtableSlowRequests",
            "RedtableBotOverruns",
            "RedtableStorageErrors",
        }
        assert not [r for r in evaluated if r["state"] == "firing"]  # a healthy fleet fires nothing
        per_process = ask('sum by (instance) (redtable_http_requests_total{route="/api/games/{game_id}/decisions"})')
        assert len(per_process) == 2  # both processes answered decisions, and both were scraped
        dashboard = json.loads(doc_block("json", '{"title": "redtable"'))
        exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
        assert len(exprs) >= 10
        for expr in exprs:  # every panel's query is valid PromQL, answered by this Prometheus
            ask(expr)
        query.close()
    finally:
        if prom is not None:
            prom.terminate()
            prom.wait(20)
        for p in procs:
            p.stop()
        b.cleanup()


# ---------------------------------------------------------------------- the bot pool's metrics move
class _PoolHub:
    """What the metrics read of a hub: its games, decisions and bot pool."""

    def __init__(self, pool) -> None:
        self.pool, self.games, self.decisions = pool, {}, 0


def sample(name: str, **labels: str) -> float:
    from redtable.server.metrics import REGISTRY

    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.mark.multiprocess
def test_bot_queue_depth_think_time_and_overruns_move():
    """A pool with one search worker: two thinks queue behind a third (queue depth 2 in the
    search lane), each think is timed, and a think abandoned at its deadline is an overrun."""
    import asyncio

    from redtable.bots import make_bot
    from redtable.core import make_game
    from redtable.server import metrics
    from redtable.server.botpool import BotPool

    state = make_game("red-rising", 4).new_initial_state(4)
    bot = make_bot("random", 4)
    for _ in range(20):
        state.apply(bot.choose(state))
    while len(state.decision().options) < 2:
        state.apply(bot.choose(state))

    async def main() -> None:
        pool = BotPool(1, fast_workers=0)
        await pool.start()
        hub = _PoolHub(pool)
        metrics.HUBS.hubs.add(hub)
        try:
            thinks = sample("redtable_bot_think_seconds_count", lane="search")
            overruns = sample("redtable_bot_deadline_overruns_total")
            blocker = asyncio.create_task(pool.choose("blocker", "ismcts:0.3s", 1, state, game_seed=4))
            while pool.stats()["busy"]["search"] == 0:
                await asyncio.sleep(0.005)
            queued = [
                asyncio.create_task(pool.choose(f"g{i}", "ismcts:0.05s", i, state, game_seed=4)) for i in range(2)
            ]
            while pool.stats()["queued_by_lane"]["search"] < 2:
                await asyncio.sleep(0.005)
            assert sample("redtable_bot_queue_depth", lane="search") == 2
            await asyncio.gather(blocker, *queued)
            assert sample("redtable_bot_queue_depth", lane="search") == 0
            assert sample("redtable_bot_think_seconds_count", lane="search") == thinks + 3
            assert sample("redtable_bot_think_seconds_sum", lane="search") > 0
            await pool.choose("late", "ismcts:1s", 7, state, deadline=0.15, game_seed=4)
            assert sample("redtable_bot_deadline_overruns_total") == overruns + 1
            page = metrics.exposition()[0].decode()
            assert 'redtable_bot_queue_depth{lane="search"}' in page and "redtable_bot_deadline_overruns_total" in page
        finally:
            metrics.HUBS.hubs.discard(hub)
            await pool.stop()

    asyncio.run(main())


def test_readiness_names_what_is_not_ready_while_liveness_holds(tmp_path, monkeypatch):
    """/readyz is 503 naming the storage that does not answer, or a fleet's bus that is not
    connected; /healthz stays 200 (the process lives: a load balancer only stops sending clients)."""
    import asyncio
    from types import SimpleNamespace

    from redtable.server import metrics

    require_backend("sqlite")
    srv = start_server(Backend("sqlite", tmp_path))
    api = Api(srv.base)
    try:
        assert api.http.get("/readyz").json() == {"ready": True, "problems": []}

        def down(store):
            raise ConnectionRefusedError("the database is away")

        with monkeypatch.context() as m:
            m.setattr(metrics, "_ping", down)
            r = api.http.get("/readyz")
            assert r.status_code == 503
            assert r.json() == {"ready": False, "problems": ["storage: ConnectionRefusedError"]}
            assert api.http.get("/healthz").status_code == 200
        with monkeypatch.context() as m:  # a fleet whose bus has not connected (yet, or any more)
            m.setattr(srv.hub, "fleet", SimpleNamespace(bus=SimpleNamespace(connected=asyncio.Event())))
            r = api.http.get("/readyz")
            assert r.status_code == 503 and r.json()["problems"] == ["bus: not connected"]
        assert api.http.get("/readyz").status_code == 200
    finally:
        api.close()
        srv.stop()
