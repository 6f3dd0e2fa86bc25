"""``redtable db backup|restore|migrate|check|purge``: the operator's commands on a server's database.

They take the same ``--db`` (env ``REDTABLE_DB``) and ``--db-schema`` as ``redtable serve``;
``redtable.cli`` registers the group::

    app.add_typer(db_app, name="db")

Each prints one line saying what it did (``check``: JSON) and exits 2 with ``error: ...``
naming what is wrong and what to do.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from ..cliutil import fail

db_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="The server's database: backup, restore, migrate, check, purge (docs/deploy.md).",
)

DB_HELP = (
    "database URL, as for serve: sqlite:///FILE or postgresql://user@host/dbname; env REDTABLE_DB "
    "[default: the serve command's default database]"
)


def _db_option() -> str | None:
    return typer.Option(None, "--db", envvar="REDTABLE_DB", show_envvar=False, help=DB_HELP)


def _schema_option() -> str | None:
    return typer.Option(None, "--db-schema", help="PostgreSQL schema of the tables (as for serve)")


def _url(db: str | None, schema: str | None) -> str:
    from .store import default_db, normalize_url

    if not db:
        try:
            db = default_db()
        except OSError as e:
            fail(f"cannot find the default database ({e}); name one with --db")
    url = normalize_url(db)
    if schema is not None and not url.startswith("postgresql"):
        fail("--db-schema applies to PostgreSQL only")
    if schema is not None and not schema.replace("_", "").isalnum():
        fail(f"--db-schema must be letters, digits and _, got {schema!r}")
    return url


def _where(db: str | None, schema: str | None) -> str:
    """The options to quote in a message (no password)."""
    from .commands import _redact

    return (f" --db {_redact(db)}" if db else "") + (f" --db-schema {schema}" if schema else "")


@db_app.command("backup")
def backup_command(
    out: Path = typer.Argument(..., help="the backup file to write (must not exist)"),
    db: str | None = _db_option(),
    db_schema: str | None = _schema_option(),
) -> None:
    """Back the database up while the server runs: SQLite's online backup API, or pg_dump (custom format)."""
    from .backup import BackupError, backup

    url = _url(db, db_schema)
    try:
        typer.echo(backup(url, out, db_schema))
    except BackupError as e:
        fail(str(e))


@db_app.command("restore")
def restore_command(
    backup_file: Path = typer.Argument(..., metavar="IN", help="a file written by redtable db backup"),
    db: str | None = _db_option(),
    db_schema: str | None = _schema_option(),
) -> None:
    """Restore a backup into a database that holds no redtable tables yet (stop any server on it first)."""
    from .backup import BackupError, restore

    if not backup_file.is_file():
        fail(f"no backup file at {backup_file}")
    url = _url(db, db_schema)
    try:
        typer.echo(restore(backup_file, url, db_schema))
    except BackupError as e:
        fail(str(e))


@db_app.command("migrate")
def migrate_command(db: str | None = _db_option(), db_schema: str | None = _schema_option()) -> None:
    """Apply the schema's numbered migrations the database lacks (back it up first)."""
    from .schema import SchemaError, latest, migrate, read_version

    store = _store(db, db_schema)
    try:
        with store.engine.connect() as conn:
            before = read_version(store, conn)
        after = migrate(store)
    except SchemaError as e:
        fail(str(e))
    except Exception as e:  # noqa: BLE001  (unreachable database, no rights)
        fail(f"cannot migrate the database: {str(e).splitlines()[0]}")
    finally:
        store.dispose()
    if before == after:
        typer.echo(f"the database is at schema version {after}, the latest ({latest()}): nothing to do")
    else:
        typer.echo(f"migrated the database from schema version {before} to {after}")


@db_app.command("check")
def check_command(
    backup_file: Path | None = typer.Argument(None, metavar="[FILE]", help="a backup file (default: the database)"),
    db: str | None = _db_option(),
    db_schema: str | None = _schema_option(),
) -> None:
    """Check a backup file or the database: readable, its schema version and row counts (JSON on stdout)."""
    from .backup import BackupError, check_db, check_file

    try:
        out = check_file(backup_file) if backup_file is not None else check_db(_url(db, db_schema), db_schema)
    except BackupError as e:
        fail(str(e))
    except Exception as e:  # noqa: BLE001
        fail(f"cannot read the database: {str(e).splitlines()[0]}")
    typer.echo(json.dumps(out, sort_keys=True))


@db_app.command("purge")
def purge_command(
    chat_days: float = typer.Option(90.0, "--chat-days", help="delete the chat of games finished this long ago"),
    login_failure_days: float = typer.Option(30.0, "--login-failure-days", help="delete failed log-in rows this old"),
    db: str | None = _db_option(),
    db_schema: str | None = _schema_option(),
) -> None:
    """Delete old chat of finished games, old failed log-ins and reports closed a year ago, once (serve does it
    hourly); 0 keeps forever."""
    from .retention import Retention, purge

    try:
        retention = Retention(chat_days=chat_days, failure_days=login_failure_days)
    except ValueError as e:
        fail(str(e).replace("chat_days", "--chat-days").replace("failure_days", "--login-failure-days"))
    store = _store(db, db_schema)
    try:
        gone = purge(store, retention)
    finally:
        store.dispose()
    typer.echo(
        f"purged {gone['chat']} chat lines, {gone['login_failures']} failed log-ins "
        f"and {gone.get('reports', 0)} closed reports"
    )


def _store(db: str | None, schema: str | None):
    from .store import Store

    try:
        return Store(_url(db, schema), schema=schema)
    except Exception as e:  # noqa: BLE001
        fail(f"bad --db: {e}")
