"""What a running server does, in numbers: Prometheus metrics, request logs, liveness and readiness.

**Metrics** (prometheus-client, one registry per process, :data:`REGISTRY`): counters and
histograms that the code increments where things happen (a hook call in each module), and
gauges read from the hub when scraped (:class:`HubCollector`: nothing to keep in step).
Every name starts with ``redtable_``; docs/deploy.md lists them with the alert rules.

**Where they are served** (never publicly by default):

* ``--metrics-port P``: a separate HTTP server on ``--metrics-host`` (default 127.0.0.1)
  serving only ``/metrics``; with ``--workers N`` worker *i* listens on ``P + i``, so each
  process is scraped as its own target (no shared files, no lost counters when a worker is
  replaced: Prometheus sums them with ``sum by (...)``, and a restarted process is a counter reset
  it knows how to handle). prometheus-client's multiprocess mode was not chosen: it cannot
  carry the gauges read from each hub, and it needs a directory shared by the workers.
* ``--metrics-token`` (env ``REDTABLE_METRICS_TOKEN``): ``GET /metrics`` on the main port
  with ``Authorization: Bearer <token>``, compared in constant time; anything else is a 404,
  as if there were no such page. Never in a URL.

**Request log**: one line per HTTP request on the ``redtable.access`` logger: request id
(the ``X-Request-Id`` the response carries, ``edge.py``), method, route *template*
(``/api/games/{game_id}``: never the raw path, never the query string), status, latency.

**Health**: ``GET /healthz`` answers 200 while the process serves (liveness);
``GET /readyz`` answers 200 when storage answers a query and, in a fleet, the bus is
connected, else 503 naming what is not ready (readiness: a load balancer sends it no new
clients meanwhile).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
import time
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from fastapi import Request  # (at module level: FastAPI reads the handler's annotation)
from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

log = logging.getLogger("redtable.server.metrics")
access = logging.getLogger("redtable.access")

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)  # process_cpu_seconds_total, process_resident_memory_bytes, open fds...

_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

HTTP_REQUESTS = Counter(
    "redtable_http_requests",
    "HTTP requests answered, by route template and status",
    ["method", "route", "status"],
    registry=REGISTRY,
)
HTTP_SECONDS = Histogram(
    "redtable_http_request_seconds",
    "HTTP request latency, by route template",
    ["method", "route"],
    buckets=_FAST,
    registry=REGISTRY,
)
BOT_THINK = Histogram(
    "redtable_bot_think_seconds",
    "time a bot's think took in a worker process, by lane",
    ["lane"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0),
    registry=REGISTRY,
)
COMMIT_SECONDS = Histogram(
    "redtable_storage_commit_seconds", "time one group commit of decisions took", buckets=_FAST, registry=REGISTRY
)
STORAGE_ERRORS = Counter(
    "redtable_storage_errors", "writes that failed in the database (not version conflicts)", registry=REGISTRY
)
BUS_LAG = Histogram(
    "redtable_bus_lag_seconds",
    "from publishing a decision's notice on the fleet bus to hearing it back",
    buckets=_FAST,
    registry=REGISTRY,
)
RATE_REFUSALS = Counter(
    "redtable_rate_limit_refusals",
    "requests refused by a per-client rate limit, by bucket",
    ["limit"],
    registry=REGISTRY,
)
EMAILS_SENT = Counter(
    "redtable_emails_sent",
    "e-mails handed to the mail server, by kind",
    ["kind"],
    registry=REGISTRY,
)
PUSHES_SENT = Counter(
    "redtable_pushes_sent",
    "push notifications handed to a push service, by kind",
    ["kind"],
    registry=REGISTRY,
)
DIGEST_ROUNDS = Counter(
    "redtable_digest_rounds",
    "rounds of the daily e-mail digest this process ran (notifymail.py; each account gets one a day)",
    registry=REGISTRY,
)


# ---------------------------------------------------------------------- hooks (one call where it happens)
def rate_refused(kind: str) -> None:
    RATE_REFUSALS.labels(kind[:32]).inc()


def bot_thought(lane: str, seconds: float) -> None:
    BOT_THINK.labels(lane).observe(seconds)


def committed(seconds: float, results: Iterable[Any]) -> None:
    """One group commit: its latency, and the writes that failed in the database itself."""
    from sqlalchemy.exc import SQLAlchemyError

    COMMIT_SECONDS.observe(seconds)
    failed = sum(1 for r in results if isinstance(r, (SQLAlchemyError, OSError)))
    if failed:
        STORAGE_ERRORS.inc(failed)


def email_sent(kind: str) -> None:
    """For the e-mail feature to call (account confirmation, password reset, ...)."""
    EMAILS_SENT.labels(kind[:32]).inc()


def digest_round() -> None:
    DIGEST_ROUNDS.inc()


def push_sent(kind: str) -> None:
    """For the push feature to call (your turn, game over, ...)."""
    PUSHES_SENT.labels(kind[:32]).inc()


class BusLag:
    """The fleet bus's lag, measured on this process's own notices: a process hears what it
    publishes, so the time from ``sent`` to ``heard`` of one payload is what the bus adds."""

    KEEP = 4096

    def __init__(self) -> None:
        self.sent_at: OrderedDict[str, float] = OrderedDict()

    def sent(self, payload: str) -> None:
        self.sent_at[payload] = time.monotonic()
        while len(self.sent_at) > self.KEEP:  # never heard back (a lost notice): forgotten
            self.sent_at.popitem(last=False)

    def heard(self, payload: str) -> None:
        t = self.sent_at.pop(payload, None)
        if t is not None:
            BUS_LAG.observe(time.monotonic() - t)


# ---------------------------------------------------------------------- gauges read from the hubs
class HubCollector(Collector):
    """Live games, WebSockets, decisions and the bot pool of every hub of this process (tests
    run several; a server one), read when Prometheus scrapes."""

    def __init__(self) -> None:
        self.hubs: weakref.WeakSet[Any] = weakref.WeakSet()

    def collect(self):
        hubs = list(self.hubs)
        games = GaugeMetricFamily("redtable_live_games", "games held in memory by this process")
        games.add_metric([], sum(len(h.games) for h in hubs))
        yield games
        sockets = GaugeMetricFamily("redtable_websocket_connections", "open game WebSockets")
        sockets.add_metric([], sum(len(g.conns) for h in hubs for g in list(h.games.values())))
        yield sockets
        decisions = CounterMetricFamily("redtable_decisions", "decisions (people's, bots') committed by this process")
        decisions.add_metric([], sum(h.decisions for h in hubs))
        yield decisions
        queued = GaugeMetricFamily(
            "redtable_bot_queue_depth", "bot thinks waiting for a worker, by lane", labels=["lane"]
        )
        overruns = CounterMetricFamily("redtable_bot_deadline_overruns", "bot thinks abandoned at their deadline")
        fallbacks = CounterMetricFamily("redtable_bot_fallbacks", "bot decisions that fell back to the simple move")
        lanes: dict[str, int] = {}
        total_overruns = total_fallbacks = 0
        for h in hubs:
            pool = getattr(h, "pool", None)
            if pool is None or not hasattr(pool, "stats"):
                continue
            st = pool.stats()
            for lane, n in st["queued_by_lane"].items():
                lanes[lane] = lanes.get(lane, 0) + n
            total_overruns += st["timeouts"]
            total_fallbacks += st["fallbacks"]
        for lane, n in sorted(lanes.items()):
            queued.add_metric([lane], n)
        overruns.add_metric([], total_overruns)
        fallbacks.add_metric([], total_fallbacks)
        yield queued
        yield overruns
        yield fallbacks


HUBS = HubCollector()
REGISTRY.register(HUBS)


def exposition() -> tuple[bytes, str]:
    """The metrics page: its body and content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def serve_port(host: str, port: int) -> Any:
    """A separate HTTP server for ``/metrics`` only (prometheus-client's, on a thread)."""
    from prometheus_client import start_http_server

    server, _thread = start_http_server(port, addr=host, registry=REGISTRY)
    return server


def worker_port(base: int) -> int:
    """``--workers N``: worker *i* (``REDTABLE_WORKER`` set by the supervisor) serves on ``base + i``."""
    return base + int(os.environ.get("REDTABLE_WORKER", "0"))


def token_ok(header: str | None, token: str) -> bool:
    """``Authorization: Bearer <token>``, compared in constant time."""
    if not header or not header.startswith("Bearer "):
        return False
    return hmac.compare_digest(header[7:].strip().encode(), token.encode())


# ---------------------------------------------------------------------- the request log and counters
class Observe:
    """ASGI middleware (outermost): counts and times every HTTP request by route template and
    logs one line with its request id; a query string or a raw path is never logged."""

    def __init__(self, app, log_requests: bool = True) -> None:
        self.app = app
        self.log_requests = log_requests

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        t0 = time.perf_counter()
        status = 500
        rid = "-"

        async def watch(message):
            nonlocal status, rid
            if message["type"] == "http.response.start":
                status = message["status"]
                for name, value in message.get("headers", ()):
                    if name == b"x-request-id":
                        rid = value.decode("latin-1")
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            seconds = time.perf_counter() - t0
            method = scope.get("method", "GET") if scope.get("method") in _METHODS else "OTHER"
            route = route_of(scope)
            HTTP_REQUESTS.labels(method, route, str(status)).inc()
            HTTP_SECONDS.labels(method, route).observe(seconds)
            if self.log_requests:
                access.info(
                    "%s %s %d %.1f ms id=%s",
                    method,
                    route,
                    status,
                    seconds * 1000,
                    rid,
                    extra={
                        "request_id": rid,
                        "method": method,
                        "route": route,
                        "status": status,
                        "ms": round(seconds * 1000, 2),
                    },
                )


_METHODS = frozenset(("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"))


def route_of(scope) -> str:
    """The route template that answered (``/api/games/{game_id}``), ``static`` for the web UI's
    files, ``unmatched`` for anything else: bounded label values, and no id or token of a path."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    if scope.get("app_root_path") is not None or scope.get("endpoint") is not None:
        return "static"
    return "unmatched"


# ---------------------------------------------------------------------- install
def install(app: Any, hub: Any, store: Any, token: str | None = None) -> None:
    """The health routes, ``/metrics`` behind ``token`` (if given), the request middleware and
    this hub's gauges: what ``create_app`` calls, before the web UI's catch-all mount."""
    from fastapi.responses import JSONResponse, Response

    HUBS.hubs.add(hub)
    if hub.fleet is not None:
        lag = BusLag()
        hub.fleet.bus_lag = lag

    @app.get("/healthz", include_in_schema=False)
    async def healthz():
        """Liveness: the process answers."""
        return JSONResponse({"ok": True})

    @app.get("/readyz", include_in_schema=False)
    async def readyz():
        """Readiness: storage answers a query and, in a fleet, the bus is connected."""
        problems = []
        try:
            await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(None, _ping, store), 3.0)
        except Exception as e:  # noqa: BLE001
            problems.append(f"storage: {type(e).__name__}")
        if hub.fleet is not None and not hub.fleet.bus.connected.is_set():
            problems.append("bus: not connected")
        if not hub.started:
            problems.append("starting")
        body = {"ready": not problems, "problems": problems}
        return JSONResponse(body, status_code=503 if problems else 200)

    if token:

        @app.get("/metrics", include_in_schema=False)
        async def metrics_page(request: Request):
            if not token_ok(request.headers.get("authorization"), token):
                return JSONResponse({"error": "not_found", "message": "Not Found"}, status_code=404)
            body, kind = exposition()
            return Response(body, media_type=kind)


def _ping(store: Any) -> None:
    from sqlalchemy import text

    with store.engine.connect() as conn:
        conn.execute(text("SELECT 1"))
