"""The ``serve`` command; ``redtable.cli`` registers it::

    app.command("serve")(serve_command)

Validation of user input happens here, at the edge: a bad value exits with code 2 and a
message on stderr that names the value and what is allowed.
"""

from __future__ import annotations

import os
from typing import NoReturn

import typer


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _redact(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True) if "://" in url else url
    except Exception:  # noqa: BLE001
        return url.split("@")[-1]


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (0.0.0.0: every interface)"),
    port: int = typer.Option(8000, "--port", "-p", help="TCP port"),
    db: str | None = typer.Option(
        None,
        "--db",
        envvar="REDTABLE_DB",
        show_envvar=False,
        help="database URL: sqlite:///FILE (created if missing) or postgresql://user@host/dbname; env REDTABLE_DB "
        "[default: redtable.db in the user's data directory, ~/.local/share/redtable/ on Linux]",
    ),
    db_schema: str | None = typer.Option(
        None, "--db-schema", help="PostgreSQL schema for the tables (created if missing)"
    ),
    db_writers: int = typer.Option(
        2, "--db-writers", help="PostgreSQL: connections committing decisions at once (group commit on each)"
    ),
    sqlite_sync: str = typer.Option(
        "normal",
        "--sqlite-sync",
        help="SQLite durability: normal (survives a killed server) or full (also a power cut)",
    ),
    idle_minutes: float = typer.Option(
        15.0, "--idle-minutes", help="drop a game from memory (never from the database) after this idle time"
    ),
    ws_deflate: bool = typer.Option(
        False, "--ws-deflate/--no-ws-deflate", help="WebSocket per-message compression (saves bandwidth, costs CPU)"
    ),
    review_budget: str = typer.Option(
        "0.2s", "--review-budget", help="the expert's search per decision of a game review: 0.2s, 250ms or 400it"
    ),
    log_level: str = typer.Option("info", "--log-level", help="critical, error, warning, info or debug"),
    access_log: bool | None = typer.Option(
        None,
        "--access-log/--no-access-log",
        help="log one line per HTTP request: id, route template, status, latency [default: on with --log-format json]",
    ),
    log_format: str = typer.Option(
        os.environ.get("REDTABLE_LOG_FORMAT") or "text",
        "--log-format",
        help="text (for people) or json (one object per line, for a log collector); env REDTABLE_LOG_FORMAT",
    ),
    metrics_port: int | None = typer.Option(
        None,
        "--metrics-port",
        help="serve Prometheus metrics at /metrics on this separate port (with --workers N: worker i on PORT+i)",
    ),
    metrics_host: str = typer.Option(
        "127.0.0.1", "--metrics-host", help="address of the metrics port (keep it private: loopback or a VPN)"
    ),
    metrics_token: str | None = typer.Option(
        None,
        "--metrics-token",
        envvar="REDTABLE_METRICS_TOKEN",
        show_envvar=False,
        help="serve /metrics on the main port to 'Authorization: Bearer TOKEN' only (16-200 characters); "
        "prefer the env REDTABLE_METRICS_TOKEN (a command line is visible to other users)",
    ),
    chat_days: float = typer.Option(
        90.0, "--chat-days", help="delete a finished game's chat this many days after it ended (0: keep it)"
    ),
    login_failure_days: float = typer.Option(
        30.0, "--login-failure-days", help="delete failed log-in rows after this many days (0: keep them)"
    ),
    rate_scale: float = typer.Option(
        1.0, "--rate-scale", help="multiply every per-client rate and count limit (docs/security.md)"
    ),
    trust_proxy: bool = typer.Option(
        False,
        "--trust-proxy/--no-trust-proxy",
        help="behind a reverse proxy: the client is the last X-Forwarded-For address",
    ),
    bot_workers: int | None = typer.Option(
        None, "--bot-workers", help="processes for searching bots (default: cores - 1)"
    ),
    docs: bool = typer.Option(
        True, "--docs/--no-docs", help="serve the interactive API docs at /docs (Swagger UI, installed with redtable)"
    ),
    workers: int = typer.Option(
        1, "--workers", "-w", help="server processes on this machine sharing the port (PostgreSQL only; docs/deploy.md)"
    ),
    bus: str | None = typer.Option(
        os.environ.get("REDTABLE_BUS") or None,
        "--bus",
        help="PostgreSQL only: how server processes hear each other's decisions: postgres (LISTEN/NOTIFY, "
        "the default) or redis://host:port/0; env REDTABLE_BUS",
    ),
    lease_seconds: float = typer.Option(
        5.0,
        "--lease-seconds",
        help="PostgreSQL: after this long without a word from a server process, "
        "another takes over its games' bots and block windows",
    ),
    reuse_port: bool = typer.Option(
        False, "--reuse-port", hidden=True, help="bind the port with SO_REUSEPORT (one worker of --workers)"
    ),
    clock_scale: float = typer.Option(
        1.0, "--clock-scale", hidden=True, help="tests: multiply every table clock option (0-1]"
    ),
    table_sweep_seconds: float = typer.Option(
        1.0, "--table-sweep-seconds", hidden=True, help="tests: how often due table deadlines are looked for"
    ),
    table_idle_seconds: float | None = typer.Option(
        None, "--table-idle-seconds", hidden=True, help="tests: seconds without a person acting before any table closes"
    ),
    smtp: str | None = typer.Option(
        None,
        "--smtp",
        envvar="REDTABLE_SMTP",
        show_envvar=False,
        help="send e-mail (address verification, password reset) through this server: smtp://host:port, "
        "smtp://user@host:587?starttls=true&from=name%40domain or smtps://host:465; the password in the env "
        "REDTABLE_SMTP_PASSWORD (docs/deploy.md); env REDTABLE_SMTP",
    ),
    public_url: str | None = typer.Option(
        None,
        "--public-url",
        envvar="REDTABLE_PUBLIC_URL",
        show_envvar=False,
        help="the origin players reach this server at (https://cards.example.org): links in e-mails start with it",
    ),
) -> None:
    """Run the game server: HTTP + WebSocket API (interactive docs at /docs) and the web UI at /."""
    if not 0 < port < 65536:
        _fail(f"--port must be 1-65535, got {port}")
    if sqlite_sync not in ("normal", "full"):
        _fail(f"--sqlite-sync must be normal or full, got {sqlite_sync!r}")
    if not 1 <= db_writers <= 16:
        _fail(f"--db-writers must be 1-16, got {db_writers}")
    if idle_minutes <= 0:
        _fail(f"--idle-minutes must be positive, got {idle_minutes}")
    if not 0 < rate_scale <= 1_000_000:
        _fail(f"--rate-scale must be above 0 and at most 1000000, got {rate_scale}")
    if bot_workers is not None and not 1 <= bot_workers <= 64:
        _fail(f"--bot-workers must be 1-64, got {bot_workers}")
    if log_level not in ("critical", "error", "warning", "info", "debug"):
        _fail(f"--log-level must be critical, error, warning, info or debug, got {log_level!r}")
    if not 1 <= workers <= 64:
        _fail(f"--workers must be 1-64, got {workers}")
    if not 1.0 <= lease_seconds <= 600:
        _fail(f"--lease-seconds must be 1-600, got {lease_seconds}")
    if not 0 < clock_scale <= 1 or not 0.01 <= table_sweep_seconds <= 60:
        _fail(
            f"--clock-scale must be in (0, 1] and --table-sweep-seconds 0.01-60, "
            f"got {clock_scale} and {table_sweep_seconds}"
        )
    if log_format not in ("text", "json"):
        _fail(f"--log-format must be text or json, got {log_format!r}")
    if metrics_port is not None and not (0 < metrics_port and metrics_port + workers - 1 < 65536):
        _fail(f"--metrics-port must be 1-{65536 - workers} (with --workers {workers}), got {metrics_port}")
    if metrics_port is not None and metrics_port <= port < metrics_port + workers:
        _fail(f"--metrics-port must differ from --port (metrics ports: {metrics_port}-{metrics_port + workers - 1})")
    if metrics_token is not None and not (16 <= len(metrics_token) <= 200 and metrics_token.isprintable()):
        _fail("--metrics-token must be 16-200 printable characters (e.g. from: openssl rand -hex 24)")
    for name, days in (("--chat-days", chat_days), ("--login-failure-days", login_failure_days)):
        if not 0 <= days <= 36500:
            _fail(f"{name} must be 0 (keep forever) to 36500, got {days}")
    if access_log is None:
        access_log = log_format == "json"
    from ..bots.registry import parse_budget
    from ..core import RedtableError

    try:
        parse_budget(review_budget)
    except RedtableError as e:
        _fail(f"--review-budget: {e}")
    if smtp:
        from .mailer import BadSmtpUrl, parse_smtp_url

        try:
            parse_smtp_url(smtp)
        except BadSmtpUrl as e:  # (the message names the rule, never the password)
            _fail(f"bad --smtp: {e}")
    if public_url and not public_url.startswith(("https://", "http://")):
        _fail(f"--public-url must start with https:// (or http:// on a private network), got {public_url[:80]!r}")
    if bus is not None and not (
        bus in ("postgres", "postgresql") or bus.startswith(("redis://", "rediss://", "unix://"))
    ):
        _fail(f"--bus must be postgres or a redis:// URL, got {_redact(bus)!r}")
    try:
        import uvicorn  # noqa: F401  (the server's dependencies are there)

        from .app import create_app
        from .store import Store
    except ImportError as e:  # pragma: no cover - the server's dependencies are missing
        _fail(f"the server needs its dependencies ({e.name}): pip install 'redtable[server]'")
    if not db:
        from .store import default_db

        try:
            db = default_db()
        except OSError as e:
            _fail(f"cannot create the data directory for the default database ({e}); name one with --db")
    shown = _redact(db)
    try:
        store = Store(db, schema=db_schema, sqlite_sync=sqlite_sync, writers=db_writers)
    except Exception as e:  # noqa: BLE001  (bad URL, missing driver, schema on SQLite)
        _fail(f"bad --db {shown!r}: {e}")
    if not store.fleet_capable:
        if workers > 1:
            _fail(
                f"--workers {workers} needs PostgreSQL (--db postgresql://...): each process keeps its live "
                "games in its own memory and only PostgreSQL lets processes serialise each game's decisions "
                "and tell each other about them; SQLite has a single writer and no notifications, so it "
                "serves one process (see docs/deploy.md)"
            )
        if bus is not None:
            _fail("--bus connects several server processes, which need PostgreSQL; SQLite serves one process")
    if bus is not None and bus.startswith(("redis://", "rediss://", "unix://")):
        try:
            import redis  # noqa: F401
        except ImportError:
            _fail("--bus redis:// needs the Redis client: pip install 'redtable[redis]'")
    from .schema import SchemaError

    try:
        store.create_tables(where=(f" --db {shown}" if db else "") + (f" --db-schema {db_schema}" if db_schema else ""))
    except SchemaError as e:
        _fail(f"cannot serve the database {shown!r}: {e}")
    except Exception as e:  # noqa: BLE001
        _fail(f"cannot open the database {shown!r}: {str(e).splitlines()[0]}")
    if workers > 1:
        store.dispose()
        if smtp:  # to the workers in their environment (the URL may hold a password), never on a command line
            os.environ["REDTABLE_SMTP"] = smtp
        if public_url:
            os.environ["REDTABLE_PUBLIC_URL"] = public_url
        _supervise(
            workers,
            host,
            port,
            db,
            bus,
            metrics_token,
            [
                "--host",
                host,
                "--port",
                str(port),
                "--db-writers",
                str(db_writers),
                "--idle-minutes",
                repr(idle_minutes),
                "--ws-deflate" if ws_deflate else "--no-ws-deflate",
                "--log-level",
                log_level,
                "--log-format",
                log_format,
                "--chat-days",
                repr(chat_days),
                "--login-failure-days",
                repr(login_failure_days),
                *(["--metrics-port", str(metrics_port), "--metrics-host", metrics_host] if metrics_port else []),
                "--access-log" if access_log else "--no-access-log",
                "--rate-scale",
                repr(rate_scale),
                "--trust-proxy" if trust_proxy else "--no-trust-proxy",
                "--docs" if docs else "--no-docs",
                "--lease-seconds",
                repr(lease_seconds),
                "--review-budget",
                review_budget,
                "--bot-workers",
                str(bot_workers or max(1, ((os.cpu_count() or 2) - 1) // workers)),
                *(["--db-schema", db_schema] if db_schema else []),
            ],
        )
        return
    from .botpool import BotPool
    from .limits import Limits
    from .retention import Retention

    limits = Limits(trust_proxy=trust_proxy)
    if rate_scale != 1.0:
        limits = limits.relaxed(rate_scale)
    app = create_app(
        store=store,
        idle_seconds=idle_minutes * 60,
        gc_freeze=True,
        limits=limits,
        bot_pool=BotPool(bot_workers),
        docs=docs,
        bus=bus,
        lease_seconds=lease_seconds,
        clock_scale=clock_scale,
        table_sweep_seconds=table_sweep_seconds,
        table_idle_seconds=dict.fromkeys(("realtime", "turn", "none"), table_idle_seconds)
        if table_idle_seconds
        else None,
        metrics_token=metrics_token,
        log_requests=access_log,
        retention=Retention(chat_days=chat_days, failure_days=login_failure_days),
        smtp=smtp,
        public_url=public_url,
        review_budget=review_budget,
    )
    if not reuse_port:
        _announce(host, port, docs, db)
    if metrics_port is not None:
        from .metrics import serve_port, worker_port

        mport = worker_port(metrics_port) if reuse_port else metrics_port
        try:
            serve_port(metrics_host, mport)
        except OSError as e:
            _fail(f"cannot serve the metrics on {metrics_host}:{mport}: {e.strerror}")
        if not reuse_port:
            typer.echo(f"metrics at http://{metrics_host}:{mport}/metrics", err=True)
    run(
        app,
        host,
        port,
        log_level=log_level,
        log_format=log_format,
        ws_deflate=ws_deflate,
        reuse_port=reuse_port,
    )


def _supervise(
    workers: int, host: str, port: int, db: str, bus: str | None, metrics_token: str | None, options: list[str]
) -> None:
    """Run ``workers`` copies of this server on one port (``workers.py``) until a signal stops them."""
    from .workers import Supervisor, port_free, worker_argv, worker_env

    busy = port_free(host, port)
    if busy is not None:
        _fail(f"cannot listen on {host}:{port}: {busy}")
    _announce(host, port, "--docs" in options, db)
    typer.echo(
        f"{workers} worker processes, bus {'redis' if bus and not bus.startswith('postgres') else 'postgres'}",
        err=True,
    )
    env = worker_env(db, bus)
    if metrics_token:  # to the workers in their environment, never on a command line
        env["REDTABLE_METRICS_TOKEN"] = metrics_token
    code = Supervisor(worker_argv(options), workers, env, echo=lambda m: typer.echo(m, err=True)).run()
    if code:
        raise typer.Exit(code)


def _announce(host: str, port: int, docs: bool, db: str) -> None:
    """The start-up lines: where to point a browser, whether the API docs are there, where games are stored."""
    from .store import describe_db

    base = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    typer.echo(f"redtable server on {base}", err=True)
    typer.echo(f"API docs at {base}/docs" if docs else "API docs off (--docs serves them at /docs)", err=True)
    typer.echo(f"database: {describe_db(db)}", err=True)


def run(
    app,
    host: str,
    port: int,
    *,
    log_level: str = "info",
    log_format: str = "text",
    ws_deflate: bool = False,
    reuse_port: bool = False,
) -> None:
    """Serve ``app`` with uvicorn on uvloop and httptools when they are installed; the request log
    is the app's (``metrics.Observe``), not uvicorn's, which would show query strings."""
    import asyncio
    import gc
    import resource

    import uvicorn

    from .. import bots  # noqa: F401  (imported now, so frozen below with the rest)
    from ..core import GAMES, game_class
    from .jsonlog import log_config

    for name in GAMES:
        game_class(name)
    # Everything imported so far lives as long as the process: keep it out of the cyclic
    # garbage collector's full passes (from ~60 ms to ~20 ms with 250 live games).
    gc.collect()
    gc.freeze()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:  # one file descriptor per WebSocket
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    loop = "auto"  # uvicorn's default: asyncio's own loop
    try:
        import uvloop  # noqa: F401

        loop = "uvloop"
    except ImportError:  # pragma: no cover
        pass
    http: type[asyncio.Protocol] | str
    try:  # httptools, with every request head bounded in size and time (httpbounds.py)
        from .httpbounds import BoundedHttpToolsProtocol

        http = BoundedHttpToolsProtocol
    except ImportError:  # pragma: no cover  (h11 bounds an unfinished head by itself)
        http = "h11"
    limits = getattr(getattr(app.state, "hub", None), "limits", None)
    ws_max = limits.ws_message_bytes if limits else 64 * 1024
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        log_config=log_config(log_format, log_level),
        access_log=False,
        ws="websockets-sansio",
        ws_per_message_deflate=ws_deflate,
        ws_max_size=ws_max,
        timeout_graceful_shutdown=5,
        backlog=4096,
        h11_max_incomplete_event_size=16 * 1024,
        loop=loop,
        http=http,
    )
    server = uvicorn.Server(config)
    if reuse_port:  # one of --workers: every worker binds the port itself; the kernel spreads connections
        from .workers import reuse_port_socket

        server.run(sockets=[reuse_port_socket(host, port)])
    else:
        server.run()
    if not server.started:  # (as uvicorn.run: the port was taken, the app failed to start...)
        raise SystemExit(3)
