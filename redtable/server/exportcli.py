"""``redtable export``: the command of ``dataexport.py``; ``redtable.cli`` registers it.

Input is checked here, at the edge: a bad ``--db``, ``--out``, ``--format`` or ``--since``
exits with code 2 and one ``error:`` line naming it (no password shown); nothing is written.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import typer

from ..cliutil import check_output_dir, fail, remove_created
from ..core.jsonfile import quote

DB_HELP = "the server's database: sqlite:///FILE or postgresql://user@host/dbname; env REDTABLE_DB"


def parse_since(text: str | None) -> float | None:
    """``--since``: unix seconds, or an ISO-8601 date or time (UTC unless it says otherwise)."""
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        pass
    try:
        t = datetime.fromisoformat(text.strip())
    except ValueError:
        fail(f"--since takes a date (2026-11-01), a time (2026-11-01T10:00Z) or unix seconds, got {quote(text)}")
    if t.tzinfo is None:
        t = t.replace(tzinfo=UTC)
    return t.timestamp()


def _open_store(db: str, schema: str | None):
    from sqlalchemy.engine import make_url

    from .store import Store, normalize_url

    url = normalize_url(db)
    try:
        u = make_url(url)
    except Exception:  # noqa: BLE001
        fail(f"--db: not a database URL: {quote(db)}; use sqlite:///FILE or postgresql://user@host/dbname")
    backend = u.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        fail(f"--db: redtable stores games in SQLite or PostgreSQL, not {quote(backend)}")
    if schema is not None and backend != "postgresql":
        fail("--db-schema applies to PostgreSQL only")
    if schema is not None and not schema.replace("_", "").isalnum():
        fail(f"--db-schema must be letters, digits and _, got {quote(schema)}")
    if backend == "sqlite":
        path = Path(u.database or "")
        if not u.database or u.database == ":memory:" or not path.is_file():
            fail(f"--db: no SQLite database at {quote(u.database or '')}")
    try:
        return Store(url, schema=schema)
    except Exception as e:  # noqa: BLE001
        fail(f"--db: cannot open {u.render_as_string(hide_password=True)}: {str(e).splitlines()[0]}")


def export_command(
    out: Path = typer.Option(..., "--out", help="the data set's directory (created; later runs add new parts)"),
    db: str = typer.Option(..., "--db", envvar="REDTABLE_DB", show_envvar=False, help=DB_HELP),
    db_schema: str | None = typer.Option(None, "--db-schema", help="PostgreSQL schema of the tables (as for serve)"),
    formats: str = typer.Option("parquet,jsonl", "--format", help="parquet, jsonl or both (comma-separated)"),
    since: str | None = typer.Option(None, "--since", help="only games finished since: a date, a time or unix seconds"),
    settle: float = typer.Option(
        60.0, "--settle", help="leave out games finished less than this many seconds ago (the next run takes them)"
    ),
) -> None:
    """Write the server's finished games as an open data set (docs/data.md): Parquet and JSON Lines,
    seats pseudonymised unless the player opted in; a second run adds only the games finished since."""
    from ..data.files import check_formats
    from ..data.schema import DataError
    from .dataexport import LOCK_FILE, export

    try:
        fmts = check_formats(formats)
    except DataError as e:
        fail(f"--format: {e}")
    if settle < 0:
        fail(f"--settle must be at least 0, got {settle:g}")
    t0 = parse_since(since)
    store = _open_store(db, db_schema)
    try:
        try:
            with store.engine.connect():
                pass
        except Exception as e:  # noqa: BLE001  (unreachable, refused, no such database: never the password)
            fail(f"--db: cannot connect: {_first_line(e)}")
        created = check_output_dir(out, "--out")
        try:
            got = export(store, out, fmts, since=t0, settle=settle)
        except BaseException as e:
            if created:  # a directory this run made holds nothing worth keeping
                (out / LOCK_FILE).unlink(missing_ok=True)
                remove_created(created)
            if isinstance(e, DataError):
                fail(str(e))
            if isinstance(e, OSError):
                fail(f"--out: cannot write into {quote(str(out))}: {e.strerror or e}")
            if isinstance(e, Exception):
                fail(f"--db: cannot read the games: {_first_line(e)}")
            raise
    finally:
        store.dispose()
    typer.echo(json.dumps(got))


def _first_line(e: Exception) -> str:
    """A database error's first line, clipped: its statement and parameters stay out."""
    return (str(e).splitlines() or [type(e).__name__])[0][:300]
