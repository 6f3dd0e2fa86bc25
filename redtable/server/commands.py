"""The ``serve`` command; ``redtable.cli`` registers it::

    app.command("serve")(serve_command)

Validation of user input happens here, at the edge: a bad value exits with code 2 and a
message on stderr that names the value and what is allowed.
"""

from __future__ import annotations

import os
from typing import Optional

import typer


def _fail(message: str) -> None:
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
    db: str = typer.Option(
        os.environ.get("REDTABLE_DB", "sqlite:///redtable.db"), "--db",
        help="database URL: sqlite:///FILE (default ./redtable.db, created if missing) or "
             "postgresql://user@host/dbname; env REDTABLE_DB"),
    db_schema: Optional[str] = typer.Option(None, "--db-schema", help="PostgreSQL schema for the tables (created if missing)"),
    db_writers: int = typer.Option(2, "--db-writers",
                                   help="PostgreSQL: connections committing decisions at once (group commit on each)"),
    sqlite_sync: str = typer.Option("normal", "--sqlite-sync",
                                    help="SQLite durability: normal (survives a killed server) or full (also a power cut)"),
    idle_minutes: float = typer.Option(15.0, "--idle-minutes",
                                       help="drop a game from memory (never from the database) after this idle time"),
    ws_deflate: bool = typer.Option(False, "--ws-deflate/--no-ws-deflate",
                                    help="WebSocket per-message compression (saves bandwidth, costs CPU)"),
    log_level: str = typer.Option("info", "--log-level", help="critical, error, warning, info or debug"),
    access_log: bool = typer.Option(False, "--access-log/--no-access-log", help="log every HTTP request"),
    rate_scale: float = typer.Option(1.0, "--rate-scale",
                                     help="multiply every per-client rate and count limit (docs/security.md)"),
    trust_proxy: bool = typer.Option(False, "--trust-proxy/--no-trust-proxy",
                                     help="behind a reverse proxy: the client is the last X-Forwarded-For address"),
    bot_workers: Optional[int] = typer.Option(None, "--bot-workers",
                                              help="processes for searching bots (default: cores - 1)"),
    docs: bool = typer.Option(False, "--docs/--no-docs",
                              help="serve the interactive API docs at /docs (their scripts come from a CDN)"),
) -> None:
    """Run the game server: HTTP + WebSocket API (OpenAPI at /docs) and, when present, the web UI at /."""
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
    try:
        import uvicorn

        from .app import create_app
        from .store import Store
    except ImportError as e:  # pragma: no cover - the server's dependencies are missing
        _fail(f"the server needs its dependencies ({e.name}): pip install 'redtable[server]'")
    shown = _redact(db)
    try:
        store = Store(db, schema=db_schema, sqlite_sync=sqlite_sync, writers=db_writers)
    except Exception as e:  # noqa: BLE001  (bad URL, missing driver, schema on SQLite)
        _fail(f"bad --db {shown!r}: {e}")
    try:
        store.create_tables()
    except Exception as e:  # noqa: BLE001
        _fail(f"cannot open the database {shown!r}: {str(e).splitlines()[0]}")
    from .botpool import BotPool
    from .limits import Limits

    limits = Limits(trust_proxy=trust_proxy)
    if rate_scale != 1.0:
        limits = limits.relaxed(rate_scale)
    app = create_app(store=store, idle_seconds=idle_minutes * 60, gc_freeze=True, limits=limits,
                     bot_pool=BotPool(bot_workers), docs=docs)
    typer.echo(f"redtable server on http://{host}:{port} (API docs at /docs), database {store.dialect}", err=True)
    run(app, host, port, log_level=log_level, access_log=access_log, ws_deflate=ws_deflate)


def run(app, host: str, port: int, *, log_level: str = "info", access_log: bool = False,
        ws_deflate: bool = False) -> None:
    """Serve ``app`` with uvicorn on uvloop and httptools when they are installed."""
    import gc
    import resource

    import uvicorn

    from .. import bots  # noqa: F401  (imported now, so frozen below with the rest)
    from ..core import GAMES, game_class

    for name in GAMES:
        game_class(name)
    # Everything imported so far lives as long as the process: keep it out of the cyclic
    # garbage collector's full passes (from ~60 ms to ~20 ms with 250 live games).
    gc.collect()
    gc.freeze()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:  # one file descriptor per WebSocket
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    kwargs = {}
    try:
        import uvloop  # noqa: F401

        kwargs["loop"] = "uvloop"
    except ImportError:  # pragma: no cover
        pass
    try:  # httptools, with every request head bounded in size and time (httpbounds.py)
        from .httpbounds import BoundedHttpToolsProtocol

        kwargs["http"] = BoundedHttpToolsProtocol
    except ImportError:  # pragma: no cover  (h11 bounds an unfinished head by itself)
        kwargs["http"] = "h11"
    limits = getattr(getattr(app.state, "hub", None), "limits", None)
    ws_max = limits.ws_message_bytes if limits else 64 * 1024
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=access_log, ws="websockets-sansio",
                ws_per_message_deflate=ws_deflate, ws_max_size=ws_max, timeout_graceful_shutdown=5, backlog=4096,
                h11_max_incomplete_event_size=16 * 1024, **kwargs)
