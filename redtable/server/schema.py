"""The database schema's version and its numbered migrations, in one place.

A database records its schema version in ``redtable_schema`` (one row). Migrations are
numbered from 1; migration *n* takes a database from version *n - 1* to *n*. Migration 1
is the baseline: every table on ``store.metadata`` (created if missing) and the columns
that tables made by earlier code lacked (the fleet's lease and version, accounts). A
database made by redtable before versions were recorded has ``redtable_games`` but no
``redtable_schema``: it is version 1 (the baseline's column additions bring it up to date).

Creating a *missing table* is always safe, so it happens at every start at any version
(modules add tables to the shared metadata); everything that changes an existing table or
its rows is a numbered migration, applied:

* explicitly, with ``redtable db migrate [--db URL]`` (the operator's choice of moment,
  after a backup): the only way on PostgreSQL, where a fleet of processes shares the
  database and an operator expects schema changes to be deliberate;
* automatically at start on SQLite, which serves one process on one file: the server
  first copies the file aside (``FILE.before-vN``, SQLite's online backup) and says so.

A server refuses to start on a database whose version is newer than the one it knows (an
older redtable would misread its rows): the message says to upgrade redtable. A brand-new
database is created at the latest version directly.
"""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from sqlalchemy import Column, Float, Integer, Table, inspect, text

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from .store import Store

log = logging.getLogger("redtable.server.schema")

Migration = Callable[["Store", "Connection"], None]


def _baseline(store: Store, conn: Connection) -> None:
    """Migration 1: today's tables; columns older tables lack (``Store.migrate_columns``)."""
    store.migrate_columns(conn)


def _chat_removed(store: Store, conn: Connection) -> None:
    """Migration 2: a chat line a moderator removed (``redtable_chat.removed_at``, ``moderation.py``);
    the moderation tables themselves are new, so made with the others."""
    have = {c["name"] for c in inspect(conn).get_columns("redtable_chat", schema=store.schema)}
    if "removed_at" not in have:
        conn.exec_driver_sql(f"ALTER TABLE {store.qualified('redtable_chat')} ADD COLUMN removed_at FLOAT")


def _notify_tables(store: Store, conn: Connection) -> None:
    """Migration 3: accounts' e-mail addresses and their single-use links (``emails.py``), the
    server's VAPID key and the browsers' push subscriptions (``push.py``)."""
    _load_models()  # the tables are on the store's metadata (MODEL_MODULES: no import of those modules here)
    for name in ("redtable_emails", "redtable_email_tokens", "redtable_push_keys", "redtable_push_subscriptions"):
        store.metadata.tables[name].create(conn, checkfirst=True)


def _friends(store: Store, conn: Connection) -> None:
    """Migration 4: follows, blocks and invitations of friends to a table (``friends.py``)."""
    _load_models()
    for name in ("redtable_follows", "redtable_blocks", "redtable_friend_invites"):
        store.metadata.tables[name].create(conn, checkfirst=True)


def _notify_settings(store: Store, conn: Connection) -> None:
    """Migration 5: accounts' notification settings, the claims that send a notification once
    across a fleet, and the e-mails' one-click unsubscribe tokens (``notifydb.py``)."""
    _load_models()
    for name in ("redtable_notify_settings", "redtable_notify_sent", "redtable_unsub_tokens"):
        store.metadata.tables[name].create(conn, checkfirst=True)


def _bot_accounts(store: Store, conn: Connection) -> None:
    """Migration 6: bot accounts and API tokens (``botaccounts.py``)."""
    _load_models()
    for name in ("redtable_bot_accounts", "redtable_api_tokens"):
        store.metadata.tables[name].create(conn, checkfirst=True)


def _open_data(store: Store, conn: Connection) -> None:
    """Migration 7: an account's choice to publish its games under its name
    (``publicgames.py``)."""
    _load_models()
    store.metadata.tables["redtable_public_games"].create(conn, checkfirst=True)


def _review_cache(store: Store, conn: Connection) -> None:
    """Migration 8: the expert's finished
    reviews of games' seats (``redtable_reviews``, ``reviews.py``), so a game reviewed twice
    costs once, and the hints given in practice games (``redtable_hints``, ``hints.py``)."""
    _load_models()
    for name in ("redtable_reviews", "redtable_hints"):
        store.metadata.tables[name].create(conn, checkfirst=True)


MIGRATIONS: tuple[Migration, ...] = (
    _baseline,
    _chat_removed,
    _notify_tables,
    _friends,
    _notify_settings,
    _bot_accounts,
    _open_data,
    _review_cache,
)
"""Migration ``i + 1`` is ``MIGRATIONS[i]``; append new ones, never edit or reorder old ones."""


def latest(migrations: Sequence[Migration] = MIGRATIONS) -> int:
    return len(migrations)


class SchemaError(Exception):
    """The database's schema is not the one this redtable serves; the message says what to do."""


def _version_table(store: Store) -> Table:
    metadata = store.metadata

    t = metadata.tables.get("redtable_schema")
    if t is None:
        t = Table(
            "redtable_schema",
            metadata,
            Column("id", Integer, primary_key=True),
            Column("version", Integer, nullable=False),
            Column("migrated_at", Float, nullable=False),
        )
    return t


#: The modules whose tables are on the store's metadata. They import the store, so the store's
#: schema names them here and imports them at run time (as ``core/registry.py`` names the titles)
#: rather than depending on them: a new table module is added to this list.
MODEL_MODULES = (
    "accounts",
    "botaccounts",
    "chat",
    "clientdb",
    "emails",
    "fairplay",
    "friends",
    "hints",
    "loginguard",
    "moderation",
    "notifydb",
    "publicgames",
    "push",
    "ratings",
    "readycheck",
    "rematch",
    "reviews",
    "sanctions",
    "sharedlimits",
    "tabledb",
)


def _load_models() -> None:
    """Import every module whose tables are on the metadata, so none is missing from a new database."""
    for name in MODEL_MODULES:
        importlib.import_module(f"{__package__}.{name}")


def read_version(store: Store, conn: Connection) -> int:
    """The database's schema version: its row; 1 for a database made before versions were
    recorded; 0 for an empty one."""
    names = set(inspect(conn).get_table_names(schema=store.schema))
    if "redtable_schema" in names:
        v = conn.execute(text(f"SELECT version FROM {store.qualified('redtable_schema')} WHERE id = 1")).scalar()
        if v is not None:
            return int(v)
    return 1 if "redtable_games" in names else 0


def _lock(store: Store, conn: Connection) -> None:
    """Processes starting together on one PostgreSQL database prepare it one after the other."""
    if store.dialect == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('redtable.schema'))"))
    if store.schema:
        conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{store.schema}"'))


def _stamp(store: Store, conn: Connection, version: int) -> None:
    table = store.qualified("redtable_schema")
    n = conn.execute(
        text(f"UPDATE {table} SET version = :v, migrated_at = :t WHERE id = 1"), {"v": version, "t": time.time()}
    ).rowcount
    if not n:
        conn.execute(
            text(f"INSERT INTO {table} (id, version, migrated_at) VALUES (1, :v, :t)"), {"v": version, "t": time.time()}
        )


def too_new(version: int, known: int) -> str:
    return (
        f"the database's schema is version {version}, newer than this redtable knows (version {known}): "
        "it was written by a newer redtable; upgrade redtable (pip install -U redtable) to serve it"
    )


def too_old(version: int, known: int, where: str) -> str:
    return (
        f"the database's schema is version {version} and this redtable needs version {known}: "
        f"back it up (redtable db backup FILE{where}), then run: redtable db migrate{where}"
    )


def prepare(
    store: Store,
    *,
    auto_migrate: bool | None = None,
    migrations: Sequence[Migration] = MIGRATIONS,
    where: str = "",
) -> int:
    """Make the database ready to serve and answer its version (what the server calls at start).

    A new database gets every table at the latest version; missing tables are created at any
    version. An older version is migrated when ``auto_migrate`` (default: on SQLite only, after
    a backup copy of the file); otherwise, like a newer version, it is refused with a
    :class:`SchemaError` that says what to run (``where``: the ``--db`` options to quote).
    """
    metadata = store.metadata

    _load_models()
    _version_table(store)
    want = latest(migrations)
    if auto_migrate is None:
        auto_migrate = store.dialect == "sqlite"
    with store.engine.begin() as conn:
        _lock(store, conn)
        have = read_version(store, conn)
        if have > want:
            raise SchemaError(too_new(have, want))
        if 0 < have < want and not auto_migrate:
            raise SchemaError(too_old(have, want, where))
        metadata.create_all(conn)
        if have == 0:  # a new database: its tables are the latest already
            _stamp(store, conn, want)
            return want
        migrations[0](store, conn)  # the baseline is idempotent: tables of older code get their columns
        if have == want:
            if conn.execute(text(f"SELECT count(*) FROM {store.qualified('redtable_schema')}")).scalar() == 0:
                _stamp(store, conn, want)  # a database made before versions were recorded gets its row
            return want
    copy = _copy_aside(store, have)
    if copy:
        log.warning("the database is schema version %d; a copy is at %s before migrating to %d", have, copy, want)
    return migrate(store, migrations=migrations)


def _copy_aside(store: Store, version: int) -> str | None:
    """SQLite: an online backup of the file next to it before it is migrated (None in memory)."""
    if store.dialect != "sqlite" or store.memory:
        return None
    from .sqlitefile import sqlite_backup, sqlite_path

    src = sqlite_path(store.url)
    out = src.with_name(f"{src.name}.before-v{version + 1}")
    sqlite_backup(src, out)
    return str(out)


def migrate(store: Store, *, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Apply the migrations the database lacks, each in its own transaction; answer the new version.

    Refuses (``SchemaError``) a database newer than ``migrations`` know.
    """
    metadata = store.metadata

    _load_models()
    _version_table(store)
    want = latest(migrations)
    with store.engine.begin() as conn:
        _lock(store, conn)
        have = read_version(store, conn)
        if have > want:
            raise SchemaError(too_new(have, want))
        metadata.create_all(conn)
        if have == 0:
            _stamp(store, conn, want)
            return want
        migrations[0](store, conn)
    for n in range(have + 1, want + 1):
        with store.engine.begin() as conn:
            _lock(store, conn)
            if read_version(store, conn) >= n:  # another process got there first
                continue
            log.info("applying schema migration %d", n)
            migrations[n - 1](store, conn)
            _stamp(store, conn, n)
    if have == want:
        with store.engine.begin() as conn:  # a database made before versions were recorded gets its row
            if conn.execute(text(f"SELECT count(*) FROM {store.qualified('redtable_schema')}")).scalar() == 0:
                _stamp(store, conn, want)
    return want
