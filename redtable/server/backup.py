"""Backups and restores of a server's database, consistent while games are played.

* SQLite: SQLite's online backup API (``sqlite3.Connection.backup``) copies the database
  page by page into a new file; it reads one snapshot (WAL mode: writers go on meanwhile),
  so the copy is a database as it was at one commit. The backup is itself an SQLite file
  that ``sqlite3`` or ``redtable db check`` opens. A restore copies it into the target the
  same way (the server on the target must be stopped).
* PostgreSQL: ``pg_dump --format=custom`` (Debian: ``postgresql-client``), which dumps
  inside one repeatable-read transaction; ``pg_restore`` restores it into a database (or
  schema) that has no redtable tables yet. The URL's password goes to them in ``PGPASSWORD``,
  never on a command line that ``ps`` shows.

``check`` reads a database or a backup file and says what it holds: schema version, row
counts, and for SQLite ``PRAGMA integrity_check``; for a PostgreSQL archive, whether
``pg_restore --list`` reads it.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from .sqlitefile import BackupError, sqlite_backup, sqlite_path

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"
COUNTED = ("redtable_games", "redtable_actions", "redtable_accounts", "redtable_chat")


def _pg_env_and_dsn(url: str, schema: str | None = None) -> tuple[dict[str, str], str]:
    """libpq's connection string for ``url`` without its password, and an environment holding it."""
    u = make_url(url)
    env = dict(os.environ)
    if u.password:
        env["PGPASSWORD"] = str(u.password)
    dsn = u.set(drivername="postgresql", password=None).render_as_string(hide_password=False)
    return env, dsn


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupError(f"{name} is not installed; on Debian: apt-get install postgresql-client")
    return path


def _run(cmd: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=3600, check=False)
    if done.returncode != 0:
        raise BackupError(f"{Path(cmd[0]).name} failed: {done.stderr.strip()[-800:]}")


def backup(url: str, out: Path, schema: str | None = None) -> str:
    """Back the database ``url`` up into the new file ``out``; answer what was done (for the user)."""
    if out.exists():
        raise BackupError(f"{out} exists; name a new file (a backup never overwrites one)")
    if not out.parent.is_dir():
        raise BackupError(f"no directory {out.parent} for the backup")
    dialect = make_url(url).get_backend_name()
    if dialect == "sqlite":
        sqlite_backup(sqlite_path(url), out)
        return f"SQLite online backup of {sqlite_path(url)} into {out}"
    if dialect == "postgresql":
        env, dsn = _pg_env_and_dsn(url)
        cmd = [_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", f"--file={out}"]
        if schema:
            cmd.append(f"--schema={schema}")
        _run([*cmd, dsn], env)
        return f"pg_dump (custom format) of {'schema ' + schema if schema else 'the database'} into {out}"
    raise BackupError(f"backups know SQLite and PostgreSQL, not {dialect}")


def kind_of(path: Path) -> str:
    """``sqlite`` or ``pg_dump``: what a backup file is, by its first bytes."""
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError as e:
        raise BackupError(f"cannot read {path}: {e.strerror}") from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_MAGIC):
        return "pg_dump"
    raise BackupError(f"{path} is neither an SQLite database nor a pg_dump archive (custom format)")


def _has_tables(url: str, schema: str | None) -> bool:
    from sqlalchemy import create_engine, inspect

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return "redtable_games" in inspect(conn).get_table_names(schema=schema)
    finally:
        engine.dispose()


def restore(backup_file: Path, url: str, schema: str | None = None) -> str:
    """Restore ``backup_file`` into the database ``url``, which must hold no redtable tables yet."""
    kind = kind_of(backup_file)
    dialect = make_url(url).get_backend_name()
    if kind == "sqlite":
        if dialect != "sqlite":
            raise BackupError(f"{backup_file} is an SQLite backup; restore it into --db sqlite:///FILE")
        target = sqlite_path(url)
        if target.exists() and _has_tables(url, None):
            raise BackupError(f"{target} already holds redtable's tables; restore into a new file (or move it away)")
        for leftover in (target.with_name(target.name + s) for s in ("-wal", "-shm")):
            leftover.unlink(missing_ok=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        sqlite_backup(backup_file, target)
        with sqlite3.connect(target) as conn:
            conn.execute("PRAGMA journal_mode=WAL")
        conn.close()
        return f"restored {backup_file} into {target}"
    if dialect != "postgresql":
        raise BackupError(f"{backup_file} is a pg_dump archive; restore it into --db postgresql://...")
    if _has_tables(url, schema):
        where = f"schema {schema}" if schema else "the database"
        raise BackupError(f"{where} already holds redtable's tables; restore into an empty database")
    env, dsn = _pg_env_and_dsn(url)
    _run(
        [_tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error", f"--dbname={dsn}", str(backup_file)],
        env,
    )
    return f"restored {backup_file} (pg_restore) into {make_url(url).render_as_string(hide_password=True)}"


def check_file(path: Path) -> dict[str, Any]:
    """What a backup file holds, or a BackupError saying why it is no good."""
    kind = kind_of(path)
    if kind == "pg_dump":
        done = subprocess.run(
            [_tool("pg_restore"), "--list", str(path)], capture_output=True, text=True, timeout=600, check=False
        )
        if done.returncode != 0:
            raise BackupError(f"pg_restore cannot read {path}: {done.stderr.strip()[-400:]}")
        tables = sorted({w for line in done.stdout.splitlines() if " TABLE DATA " in line for w in line.split()[-2:-1]})
        return {"kind": kind, "tables": tables}
    return {"kind": kind, **check_db(f"sqlite:///{path.resolve()}", None)}


def check_db(url: str, schema: str | None) -> dict[str, Any]:
    """A database's schema version and row counts (SQLite: and ``PRAGMA integrity_check``)."""
    from sqlalchemy import create_engine, inspect, text

    from .schema import read_version
    from .store import Store

    if make_url(url).get_backend_name() == "sqlite":
        path = sqlite_path(url)
        if not path.is_file():
            raise BackupError(f"no database file at {path}")
        url = f"sqlite:///file:{path.resolve()}?mode=ro&uri=true"
    engine = create_engine(url)
    if schema:
        engine = engine.execution_options(schema_translate_map={None: schema})
    out: dict[str, Any] = {}
    try:
        with engine.connect() as conn:
            names = set(inspect(conn).get_table_names(schema=schema))
            if "redtable_games" not in names:
                where = f"schema {schema}" if schema else "the database"
                raise BackupError(f"{where} holds no redtable tables (nothing was ever served from it)")
            shim = Store.__new__(Store)  # only what read_version needs
            shim.schema = schema
            out["schema_version"] = read_version(shim, conn)
            q = (lambda t: f'"{schema}".{t}') if schema else (lambda t: t)
            out["rows"] = {
                t: conn.execute(text(f"SELECT count(*) FROM {q(t)}")).scalar() for t in COUNTED if t in names
            }
            if engine.dialect.name == "sqlite":
                out["integrity"] = conn.exec_driver_sql("PRAGMA integrity_check").scalar()
    finally:
        engine.dispose()
    if engine.dialect.name == "sqlite" and out.get("integrity") != "ok":
        raise BackupError(f"the SQLite integrity check failed: {out.get('integrity')}")
    return out
