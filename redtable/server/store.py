"""Storage of games through SQLAlchemy Core: a game is its seed, options, seats and decision log.

Three tables (names prefixed ``redtable_``):

* ``games``: id, title, players, seed, options and settings (JSON), status, times, result;
* ``seats``: per seat, human or bot (spec), display name, the hash of its current invite
  (and, for games created before per-device tokens, the hash of the one token);
* ``tokens``: the hash of every device's seat token, and when it was revoked;
* ``actions``: the decision log, one row per accepted decision: ``seq`` (1, 2, ... in the
  order of acceptance, never reused), seat, action, whether the undo rule allows undoing
  it, and ``undone`` (an undo marks the row; it is never deleted, so the log keeps it).

On PostgreSQL several server processes share the tables (``fleet.py``), so ``games`` also
carries ``version`` (the game's version, bumped in the transaction that stores each
decision or undo, only if it still is the version the decision was made on: decisions of
one game are serialised by the database, whichever process makes them) and a *lease*
(``lease_holder``, ``lease_until`` on the database's clock): the process that plays the
game's bots and answers its empty block windows. SQLite serves one process and leaves
these columns empty (``version`` is derived from the log there, as everywhere on load).

A game is rebuilt by replaying the rows that are not undone, in ``seq`` order, from the
seed. Its *version* (what clients must quote with a decision) is ``rows + undone rows``:
every accepted decision and every undo adds one, so it only ever grows.

All writes go through one :class:`GroupCommitter` thread: whatever was submitted while the
previous transaction committed is written in the next single transaction (group commit),
so many games' decisions share one commit while each caller still waits for its own to be
durable. SQLite runs in WAL mode (``synchronous=NORMAL`` by default: a committed decision
survives the server process being killed; ``full`` also survives a power cut).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import orjson
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url

from . import metrics

log = logging.getLogger("redtable.server.store")

metadata = MetaData()

games_table = Table(
    "redtable_games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", Text, nullable=False),
    Column("settings", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Column("result", Text, nullable=True),
    # fleet (PostgreSQL): the version decisions are checked against, and who answers for the server
    Column("version", BigInteger, nullable=True),
    Column("lease_holder", String(96), nullable=True),
    Column("lease_until", Float, nullable=True),
    # when a rated game's result went into the ratings (ratings.py sets it once, in the same transaction)
    Column("rated_at", Float, nullable=True),
    Index("redtable_games_status", "status", "created_at"),
)
# the sweeper's question, "which leases expired?", reads only games that have one
Index("redtable_games_lease", games_table.c.lease_until, postgresql_where=games_table.c.lease_holder.isnot(None))

FLEET_COLUMNS = (("version", "BIGINT"), ("lease_holder", "VARCHAR(96)"), ("lease_until", "FLOAT"))
# columns of accounts and ratings (accounts.py, ratings.py) that older tables get on start
ACCOUNT_COLUMNS = (("redtable_games", "rated_at", "FLOAT"), ("redtable_seats", "account_id", "INTEGER"))


class VersionConflict(Exception):
    """A decision or undo was made on a version another process has already moved past."""

    def __init__(self, games: set[str]) -> None:
        super().__init__(f"the version of {', '.join(sorted(games))} moved on")
        self.games = games


seats_table = Table(
    "redtable_seats",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(64), nullable=True),
    Column("name", String(64), nullable=True),
    Column("invite_hash", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("joined_at", Float, nullable=True),
    # the account (accounts.py) whose player joined the seat while logged in; NULL for guests and bots
    Column("account_id", Integer, nullable=True),
    Index("redtable_seats_account", "account_id"),
)

tokens_table = Table(
    "redtable_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("game_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("revoked_at", Float, nullable=True),
    Index("redtable_tokens_game", "game_id", "seat"),
)


actions_table = Table(
    "redtable_actions",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("undoable", Boolean, nullable=False),
    Column("undone", Boolean, nullable=False),
    Column("at", Float, nullable=False),
)

# Writes of other modules' tables (chat.py registers its own), committed by the group
# committer like the rest: kind -> fn(connection, op) -> what the write answers.
EXTRA_WRITES: dict[str, Callable[[Any, tuple], Any]] = {}


def default_db() -> str:
    """The database when none is named: ``redtable.db`` in the user's data directory, created here.

    Not the working directory: a newcomer starts the server in the checkout, which would fill
    with the database and its ``-wal``/``-shm`` files (platformdirs: ``~/.local/share/redtable``
    on Linux, ``$XDG_DATA_HOME/redtable`` when that is set).
    """
    from platformdirs import user_data_path

    return f"sqlite:///{user_data_path('redtable', appauthor=False, ensure_exists=True) / 'redtable.db'}"


def describe_db(url: str) -> str:
    """What a person reads at start-up: an SQLite database's file, another's URL without its password."""
    u = make_url(normalize_url(url))
    if u.get_backend_name() == "sqlite":
        if u.database in (None, "", ":memory:"):
            return "SQLite in memory"
        return f"SQLite file {Path(u.database).resolve()}"
    return f"{u.get_backend_name()} {u.render_as_string(hide_password=True)}"


# SQLite: a write-ahead log larger than this after a checkpoint is truncated to it, and one
# found larger than WAL_TRUNCATE_BYTES is checkpointed with TRUNCATE (waiting for readers).
WAL_LIMIT_BYTES = 16 * 1024 * 1024
WAL_TRUNCATE_BYTES = 64 * 1024 * 1024


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` use psycopg 3; a bare path means an SQLite file."""
    if "://" not in url:
        return f"sqlite:///{url}"
    scheme, rest = url.split("://", 1)
    if scheme in ("postgresql", "postgres"):
        return f"postgresql+psycopg://{rest}"
    return url


def _dumps(x: Any) -> str:
    return orjson.dumps(x).decode()


@dataclass(slots=True)
class SeatRow:
    seat: int
    kind: str
    bot: str | None
    name: str | None
    invite_hash: str | None
    token_hash: str | None
    joined_at: float | None


@dataclass(slots=True)
class TokenRow:
    seat: int
    token_hash: str


@dataclass(slots=True)
class ActionRow:
    seq: int
    seat: int
    action: str
    undoable: bool
    undone: bool


@dataclass(slots=True)
class GameRow:
    id: str
    game: str
    players: int
    seed: int
    options: dict
    settings: dict
    status: str
    created_at: float
    finished_at: float | None
    result: dict | None
    seats: list[SeatRow] = field(default_factory=list)
    actions: list[ActionRow] = field(default_factory=list)
    tokens: list[TokenRow] = field(default_factory=list)
    extra: dict = field(default_factory=dict)  # what other modules load with the game (Store.load_hooks)


class Store:
    """Synchronous storage calls; the server runs them off the event loop (writer thread, executor)."""

    #: Every module's tables: ``schema.py`` reads them through the store it is given, since the
    #: store imports it (``create_tables``) and it may not import the store back.
    metadata: ClassVar[MetaData] = metadata

    def __init__(
        self, url: str | None = None, schema: str | None = None, sqlite_sync: str = "normal", writers: int = 2
    ) -> None:
        self.url = normalize_url(url or default_db())
        u = make_url(self.url)
        self.dialect = u.get_backend_name()
        self.schema = schema
        self.wal_truncate_bytes = WAL_TRUNCATE_BYTES
        self.memory = self.dialect == "sqlite" and (u.database or ":memory:") == ":memory:"
        if not 1 <= writers <= 16:
            raise ValueError(f"writers must be 1-16, got {writers}")
        self.writers = writers  # PostgreSQL: connections committing at once
        # how the group committer runs (see GroupCommitter): SQLite with synchronous=NORMAL
        # commits without fsync, cheap enough for the event loop; PostgreSQL commits through
        # SQLAlchemy's asyncio layer on the loop; anything else on a writer thread.
        if self.dialect == "sqlite":
            self.commit_mode = "inline" if sqlite_sync.lower() == "normal" else "thread"
        elif self.dialect == "postgresql":
            self.commit_mode = "async"
        else:  # pragma: no cover
            self.commit_mode = "thread"
        if self.dialect == "sqlite":
            if schema:
                raise ValueError("a schema applies to PostgreSQL only")
            if sqlite_sync.lower() not in ("normal", "full"):
                raise ValueError(f"sqlite_sync must be 'normal' or 'full', got {sqlite_sync!r}")
            db = u.database or ""
            if db and db != ":memory:":
                Path(db).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
                engine = create_engine(
                    self.url, connect_args={"check_same_thread": False, "timeout": 30}, pool_size=8, max_overflow=8
                )
            else:  # an in-memory database exists once per connection: share one (tests, demos)
                from sqlalchemy.pool import StaticPool

                engine = create_engine(self.url, connect_args={"check_same_thread": False}, poolclass=StaticPool)
            sync = sqlite_sync.upper()

            @event.listens_for(engine, "connect")
            def _pragmas(dbapi_conn, _record):  # noqa: ANN001
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute(f"PRAGMA synchronous={sync}")
                cur.execute("PRAGMA busy_timeout=30000")
                cur.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run off the event loop
                cur.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")  # a reset WAL shrinks back to this
                cur.close()
        else:
            engine = create_engine(self.url, pool_size=8, max_overflow=8, pool_pre_ping=True)
        if schema:
            engine = engine.execution_options(schema_translate_map={None: schema})
        self.engine: Engine = engine
        ph = "?" if engine.dialect.paramstyle == "qmark" else "%s"
        table = self.qualified("redtable_actions")
        self._insert_sql = (
            f"INSERT INTO {table} (game_id, seq, seat, action, undoable, undone, at) VALUES ({', '.join([ph] * 7)})"
        )
        # fleet mode (set by the hub on PostgreSQL): who this process is, how long its leases last
        self.lease_owner: str | None = None
        self.lease_seconds = 5.0
        self._fleet_sql_cache: dict[tuple, str] = {}
        # functions (connection, GameRow) that load a module's own rows with a game (tabledb.load_table)
        self.load_hooks: list[Callable[[Any, GameRow], None]] = []

    @property
    def fleet_capable(self) -> bool:
        """Several server processes may share this database (PostgreSQL; SQLite serves one)."""
        return self.dialect == "postgresql"

    def qualified(self, table: str) -> str:
        """A table's name as raw SQL: schema-qualified and quoted when the store has a schema."""
        return f'"{self.schema}".{table}' if self.schema else table

    # ------------------------------------------------------------------ schema
    def create_tables(self, where: str = "") -> int:
        """Make the database ready to serve at this redtable's schema version (``schema.py``):
        tables created if missing, an older SQLite file migrated, anything else that does not
        match refused with a ``SchemaError`` saying what to do. Answers the version.

        On PostgreSQL the whole of it holds an advisory lock: servers starting together on
        one database (``--workers``, several machines) do it one after the other.
        """
        from .schema import prepare

        return prepare(self, where=where)

    def migrate_columns(self, conn) -> None:
        """Tables made before the fleet columns existed get them; on PostgreSQL each game's
        version is computed from its log, and every unfinished game that may need the server
        (a bot seat, block windows) gets an expired lease, so that a server claims it, looks
        at it and plays on (``fleet.py``: the sweeper)."""
        from sqlalchemy import inspect

        have = {c["name"] for c in inspect(conn).get_columns("redtable_games", schema=self.schema)}
        missing = [(n, t) for n, t in FLEET_COLUMNS if n not in have]
        games = self.qualified("redtable_games")
        for name, kind in missing:
            conn.exec_driver_sql(f"ALTER TABLE {games} ADD COLUMN {name} {kind}")
        if missing:
            conn.exec_driver_sql(
                f"CREATE INDEX IF NOT EXISTS redtable_games_lease ON {games} (lease_until)"
                + (" WHERE lease_holder IS NOT NULL" if self.dialect == "postgresql" else "")
            )
        for table, name, kind in ACCOUNT_COLUMNS:
            if name not in {c["name"] for c in inspect(conn).get_columns(table, schema=self.schema)}:
                conn.exec_driver_sql(f"ALTER TABLE {self.qualified(table)} ADD COLUMN {name} {kind}")
                if name == "account_id":
                    conn.exec_driver_sql(
                        f"CREATE INDEX IF NOT EXISTS redtable_seats_account ON {self.qualified(table)} (account_id)"
                    )
        if self.dialect != "postgresql":
            return
        actions, seats = self.qualified("redtable_actions"), self.qualified("redtable_seats")
        may_need = (
            f"g.status = 'active' AND (EXISTS (SELECT 1 FROM {seats} s WHERE s.game_id = g.id "
            f"AND s.kind = 'bot') OR g.options LIKE '%%\"block_windows\":true%%')"
        )
        conn.exec_driver_sql(
            f"UPDATE {games} AS g SET version = (SELECT count(*) + count(*) FILTER (WHERE a.undone) "
            f"FROM {actions} a WHERE a.game_id = g.id), "
            f"lease_holder = CASE WHEN {may_need} THEN '-' END, "
            f"lease_until = CASE WHEN {may_need} THEN 0 END WHERE g.version IS NULL"
        )

    def drop_schema(self) -> None:
        """Drop this store's schema (PostgreSQL) or tables (tests clean up with it)."""
        with self.engine.begin() as conn:
            if self.schema:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))
            else:
                metadata.drop_all(conn)

    def dispose(self) -> None:
        self.engine.dispose()

    def async_engine(self, connections: int = 1):
        """An asyncio engine on the same database (psycopg's async mode for PostgreSQL)."""
        from sqlalchemy.ext.asyncio import create_async_engine

        engine = create_async_engine(self.url, pool_size=connections, max_overflow=2, pool_pre_ping=True)
        if self.schema:
            engine = engine.execution_options(schema_translate_map={None: self.schema})
        return engine

    # ------------------------------------------------------------------ writes
    def write_batch(self, ops: list[tuple], conn=None) -> list[Exception | None]:
        """Write ``ops`` in one transaction; if it fails, each op alone (so one bad op fails alone).

        ``conn``: a connection kept by the writer (else one from the pool, per transaction).
        """
        try:
            return self._transaction(conn, ops)
        except VersionConflict as vc:
            # Another process moved those games on: their writes fail alone (nothing of the
            # rolled-back transaction was kept); the rest commit together.
            out: list = [None] * len(ops)
            rest = []
            for i, op in enumerate(ops):
                if _versioned(op) and _game_of(op) in vc.games:
                    out[i] = VersionConflict({_game_of(op)})
                else:
                    rest.append(i)
            if rest:
                for i, r in zip(rest, self.write_batch([ops[i] for i in rest], conn), strict=True):
                    out[i] = r
            return out
        except Exception as batch_error:  # noqa: BLE001
            if len(ops) == 1:
                return [batch_error]
        out = []
        for op in ops:
            try:
                out.extend(self._transaction(conn, [op]))
            except Exception as e:  # noqa: BLE001
                out.append(e)
        return out

    def _transaction(self, conn, ops: list[tuple]) -> list:
        if conn is None:
            with self.engine.begin() as c:
                return self._write(c, ops)
        if conn.invalidated:
            conn.rollback()
        with conn.begin():
            return self._write(conn, ops)

    def wal_bytes(self) -> int:
        """The size of the SQLite write-ahead log file (0 elsewhere)."""
        if self.dialect != "sqlite" or self.memory:
            return 0
        path = Path(make_url(self.url).database or "").expanduser()
        try:
            return path.with_name(path.name + "-wal").stat().st_size
        except OSError:
            return 0

    def checkpoint(self) -> None:
        """Move the SQLite write-ahead log into the database file (off the event loop).

        A passive checkpoint never waits; once the log has grown past WAL_TRUNCATE_BYTES (a
        burst of writes while readers held it) a TRUNCATE checkpoint waits for them and
        empties the file, so the log stays bounded.
        """
        if self.dialect == "sqlite" and not self.memory:
            mode = "TRUNCATE" if self.wal_bytes() > self.wal_truncate_bytes else "PASSIVE"
            with self.engine.connect() as conn:
                conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})").all()

    def _insert_actions(self, conn, rows: list[dict]) -> None:
        """The hot path: one multi-row INSERT of decisions, as a driver statement built once."""
        conn.exec_driver_sql(
            self._insert_sql,
            [(r["game_id"], r["seq"], r["seat"], r["action"], r["undoable"], r["undone"], r["at"]) for r in rows],
        )

    def _write(self, conn, ops: list[tuple]) -> list:
        """Write ``ops`` in the open transaction; what each answers (None, or a fleet op's
        ``{"lease": bool}``: whether this process holds the game's lease after it)."""
        out: list = [None] * len(ops)
        rows: list[dict] = []
        versioned: list[int] = []  # fleet decisions and undos: one statement at the end
        for i, op in enumerate(ops):
            kind = op[0]
            if _versioned(op):
                if any(_game_of(ops[j]) == _game_of(op) for j in versioned):  # (never from the hub: one at a time)
                    self._write_versioned(conn, [ops[j] for j in versioned], out, versioned)
                    versioned = []
                versioned.append(i)
                continue
            if kind == "action":
                rows.append(op[1])
                if op[2] is not None:  # the decision finished the game: same transaction
                    if rows:
                        self._insert_actions(conn, rows)
                        rows = []
                    self._finish(conn, op[1]["game_id"], op[2])
                continue
            if rows:
                self._insert_actions(conn, rows)
                rows = []
            if kind == "game":
                conn.execute(insert(games_table), [op[1]])
                conn.execute(insert(seats_table), op[2])
                if len(op) > 3 and op[3]:  # fleet: the server moves first (a bot, a window): this process
                    conn.exec_driver_sql(
                        f"UPDATE {self.qualified('redtable_games')} SET lease_holder = %s, lease_until = "
                        f"extract(epoch from clock_timestamp())::float8 + {float(self.lease_seconds)!r} WHERE id = %s",
                        (self.lease_owner, op[1]["id"]),
                    )
                    out[i] = {"lease": True}
            elif kind == "undo":
                _, game_id, seq = op
                r = conn.execute(
                    update(actions_table)
                    .where(
                        actions_table.c.game_id == game_id,
                        actions_table.c.seq == seq,
                        actions_table.c.undone.is_(False),
                    )
                    .values(undone=True)
                )
                if r.rowcount != 1:
                    raise RuntimeError(f"undo of {game_id} #{seq}: no such decision")
            elif kind == "join":
                _, game_id, seat, name, at = op
                conn.execute(
                    update(seats_table)
                    .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
                    .values(name=name, joined_at=at)
                )
            elif kind == "token":  # a device's new seat token
                _, game_id, seat, token_hash, at, *invite = op
                if invite and invite[0]:  # only while the invite is still the seat's (another process may replace it)
                    s = seats_table.c
                    held = conn.execute(
                        select(s.seat)
                        .where(s.game_id == game_id, s.seat == seat, s.invite_hash == invite[0])
                        .with_for_update()
                    ).first()
                    if held is None:
                        raise InviteGone(game_id, seat)
                conn.execute(
                    insert(tokens_table),
                    [
                        {
                            "token_hash": token_hash,
                            "game_id": game_id,
                            "seat": seat,
                            "created_at": at,
                            "revoked_at": None,
                        }
                    ],
                )
            elif kind == "revoke":  # every token of the seat but one; the seat's invite replaced
                _, game_id, seat, keep_hash, invite_hash, at = op
                t = tokens_table.c
                conn.execute(
                    update(tokens_table)
                    .where(t.game_id == game_id, t.seat == seat, t.token_hash != keep_hash, t.revoked_at.is_(None))
                    .values(revoked_at=at)
                )
                conn.execute(
                    update(seats_table)
                    .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
                    .values(invite_hash=invite_hash, token_hash=None)
                )
            elif kind == "invite":  # a new invite for a seat nobody has taken
                _, game_id, seat, invite_hash = op
                r = conn.execute(
                    update(seats_table)
                    .where(
                        seats_table.c.game_id == game_id, seats_table.c.seat == seat, seats_table.c.joined_at.is_(None)
                    )
                    .values(invite_hash=invite_hash)
                )
                if r.rowcount != 1:
                    raise RuntimeError(f"re-issue of {game_id} seat {seat}: the seat was taken")
            elif kind == "bind":  # a seat joined while logged in belongs to that account (accounts.py)
                _, game_id, seat, account_id, exclusive = op
                self.bind_seat(conn, game_id, seat, account_id, exclusive)
            elif kind in EXTRA_WRITES:  # a write another module stores in the same transactions (chat.py)
                out[i] = EXTRA_WRITES[kind](conn, op)
            else:  # pragma: no cover
                raise ValueError(f"unknown write {kind!r}")
        if rows:
            self._insert_actions(conn, rows)
        if versioned:
            self._write_versioned(conn, [ops[j] for j in versioned], out, versioned)
        return out

    def _write_versioned(self, conn, ops: list[tuple], out: list, where: list[int]) -> None:
        """Fleet decisions and undos of distinct games in ONE statement (PostgreSQL).

        For each game: ``version`` goes from the one the decision was made on to the next,
        only if it still is that one (the row is locked until the commit, so a concurrent
        writer of the same game waits, then finds the new version and fails); the action
        row is inserted or the undone row marked only for the games that passed; the lease
        is taken, kept or released; and a decision that ends the game stores its result. If
        any game failed the check the statement's effects are rolled back with the
        transaction (VersionConflict). (The other processes hear of it from the bus, after
        the commit: ``fleet.py``.)
        """
        vals: list = [self.lease_owner]
        ins: list = []
        undo: list = []
        for op in ops:
            if op[0] == "action":
                row, result, (old, lease) = op[1], op[2], op[3]
                vals += [row["game_id"], old, lease, _dumps(result) if result is not None else None]
                ins += [row["game_id"], row["seq"], row["seat"], row["action"], row["undoable"], row["at"]]
            else:
                _, game_id, seq, (old, lease) = op
                vals += [game_id, old, lease, None]
                undo += [game_id, seq]
        n_ins, n_undo = len(ins) // 6, len(undo) // 2
        sql = self._fleet_sql(len(ops), n_ins, n_undo)
        params = vals + ins + undo
        got = conn.exec_driver_sql(sql, tuple(params)).all()
        wanted = {_game_of(op) for op in ops}
        done = {r[0] for r in got}
        if done != wanted:
            raise VersionConflict(wanted - done)
        if n_undo and got[0][2] != n_undo:
            raise RuntimeError("undo of a decision that is not in the log, or already undone")
        mine = {r[0]: bool(r[1]) for r in got}
        for j, op in zip(where, ops, strict=True):
            out[j] = {"lease": mine[_game_of(op)]}

    def _fleet_sql(self, n: int, n_ins: int, n_undo: int) -> str:
        key = (n, n_ins, n_undo, self.lease_seconds)
        sql = self._fleet_sql_cache.get(key)
        if sql is not None:
            return sql
        g, a = self.qualified("redtable_games"), self.qualified("redtable_actions")
        ttl = float(self.lease_seconds)
        free = "(g.lease_holder IS NULL OR g.lease_holder = p.me OR g.lease_until < p.now)"
        ctes = [
            "p AS (SELECT %s::varchar AS me, extract(epoch from clock_timestamp())::float8 AS now)",
            "v(id, old, lease, result) AS (VALUES "
            + ", ".join(["(%s::varchar, %s::bigint, %s::varchar, %s::text)"] * n)
            + ")",
            f"upd AS (UPDATE {g} AS g SET version = v.old + 1, "
            f"lease_holder = CASE WHEN v.result IS NOT NULL THEN NULL "
            f"WHEN v.lease = 'take' AND {free} THEN p.me WHEN v.lease = 'take' THEN g.lease_holder "
            f"WHEN g.lease_holder = p.me THEN NULL ELSE g.lease_holder END, "
            f"lease_until = CASE WHEN v.result IS NOT NULL THEN NULL "
            f"WHEN v.lease = 'take' AND {free} THEN p.now + {ttl!r} WHEN v.lease = 'take' THEN g.lease_until "
            f"WHEN g.lease_holder = p.me THEN NULL ELSE g.lease_until END, "
            f"status = CASE WHEN v.result IS NULL THEN g.status ELSE 'finished' END, "
            f"finished_at = CASE WHEN v.result IS NULL THEN g.finished_at ELSE p.now END, "
            f"result = COALESCE(v.result, g.result) "
            f"FROM v, p WHERE g.id = v.id AND g.version = v.old AND g.status = 'active' "
            f"RETURNING g.id, g.version, COALESCE(g.lease_holder = p.me, false) AS mine)",
        ]
        if n_ins:
            ctes.append(
                f"ins AS (INSERT INTO {a} (game_id, seq, seat, action, undoable, undone, at) "
                "SELECT r.game_id, r.seq, r.seat, r.action, r.undoable, false, r.at FROM (VALUES "
                + ", ".join(["(%s::varchar, %s::int, %s::int, %s::text, %s::boolean, %s::float8)"] * n_ins)
                + ") AS r(game_id, seq, seat, action, undoable, at) JOIN upd ON upd.id = r.game_id)"
            )
        if n_undo:
            ctes.append(
                f"und AS (UPDATE {a} AS a SET undone = true FROM (VALUES "
                + ", ".join(["(%s::varchar, %s::int)"] * n_undo)
                + ") AS u(game_id, seq) JOIN upd ON upd.id = u.game_id "
                "WHERE a.game_id = u.game_id AND a.seq = u.seq AND NOT a.undone RETURNING a.game_id)"
            )
        sql = (
            "WITH "
            + ", ".join(ctes)
            + " SELECT upd.id, upd.mine, "
            + ("(SELECT count(*) FROM und)" if n_undo else "0")
            + " FROM upd"
        )
        if len(self._fleet_sql_cache) < 256:
            self._fleet_sql_cache[key] = sql
        return sql

    def bind_seat(self, conn, game_id: str, seat: int, account_id: int, exclusive: bool) -> None:
        """Bind ``seat`` to ``account_id`` unless another account holds it, or (``exclusive``: a
        rated game) the account holds another seat of the game. The game's row is locked first
        (PostgreSQL), so two processes binding seats of one game do it one after the other."""
        s = seats_table.c
        conn.execute(select(games_table.c.id).where(games_table.c.id == game_id).with_for_update())
        held = conn.execute(select(s.account_id).where(s.game_id == game_id, s.seat == seat)).first()
        if held is None:
            raise SeatBound("no_seat", f"{game_id} has no seat {seat}")
        if held[0] is not None and held[0] != account_id:
            raise SeatBound("other_account", f"seat {seat} belongs to another account")
        if exclusive:
            other = conn.execute(
                select(s.seat).where(s.game_id == game_id, s.account_id == account_id, s.seat != seat)
            ).first()
            if other is not None:
                raise SeatBound("one_seat", f"this account already holds seat {other[0]} of this game", other[0])
        if held[0] is None:
            conn.execute(update(seats_table).where(s.game_id == game_id, s.seat == seat).values(account_id=account_id))

    @staticmethod
    def _finish(conn, game_id: str, result: dict) -> None:
        conn.execute(
            update(games_table)
            .where(games_table.c.id == game_id)
            .values(status="finished", finished_at=time.time(), result=_dumps(result))
        )

    # ------------------------------------------------------------------ reads
    def load_game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            g = conn.execute(select(games_table).where(games_table.c.id == game_id)).mappings().first()
            if g is None:
                return None
            row = GameRow(
                id=g["id"],
                game=g["game"],
                players=g["players"],
                seed=g["seed"],
                options=orjson.loads(g["options"]),
                settings=orjson.loads(g["settings"]),
                status=g["status"],
                created_at=g["created_at"],
                finished_at=g["finished_at"],
                result=orjson.loads(g["result"]) if g["result"] else None,
            )
            for s in conn.execute(
                select(seats_table).where(seats_table.c.game_id == game_id).order_by(seats_table.c.seat)
            ).mappings():
                row.seats.append(
                    SeatRow(
                        s["seat"], s["kind"], s["bot"], s["name"], s["invite_hash"], s["token_hash"], s["joined_at"]
                    )
                )
            a = actions_table.c
            for r in conn.execute(
                select(a.seq, a.seat, a.action, a.undoable, a.undone).where(a.game_id == game_id).order_by(a.seq)
            ):
                row.actions.append(ActionRow(r[0], r[1], r[2], bool(r[3]), bool(r[4])))
            t = tokens_table.c
            for tr in conn.execute(select(t.seat, t.token_hash).where(t.game_id == game_id, t.revoked_at.is_(None))):
                row.tokens.append(TokenRow(tr[0], tr[1]))
            for hook in self.load_hooks:
                hook(conn, row)
        return row

    def list_games(self, status: str | None = None, limit: int = 50, offset: int = 0) -> list[dict]:
        g, s, a = games_table.c, seats_table.c, actions_table.c
        with self.engine.connect() as conn:
            q = select(g.id, g.game, g.players, g.status, g.created_at, g.finished_at, g.settings)
            if status:
                q = q.where(g.status == status)
            q = q.where(g.settings.notlike('%"tutorial":true%'))  # a lesson is private (compact JSON: _dumps)
            rows = conn.execute(q.order_by(g.created_at.desc(), g.id).limit(limit).offset(offset)).all()
            ids = [r[0] for r in rows]
            seats: dict[str, list] = {i: [] for i in ids}
            steps: dict[str, int] = {}
            if ids:
                for sr in conn.execute(
                    select(s.game_id, s.seat, s.kind, s.bot, s.name, s.joined_at)
                    .where(s.game_id.in_(ids))
                    .order_by(s.game_id, s.seat)
                ):
                    seats[sr[0]].append(
                        {
                            "seat": sr[1],
                            "type": sr[2],
                            "bot": sr[3],
                            "name": sr[4],
                            "joined": sr[2] == "bot" or sr[5] is not None,
                        }
                    )
                for cr in conn.execute(
                    select(a.game_id, func.count())
                    .where(a.game_id.in_(ids), a.undone == False)  # noqa: E712
                    .group_by(a.game_id)
                ):
                    steps[cr[0]] = cr[1]
        out = []
        for r in rows:
            settings = orjson.loads(r[6]) if r[6] else {}
            out.append(
                {
                    "id": r[0],
                    "game": r[1],
                    "players": r[2],
                    "status": r[3],
                    "created_at": r[4],
                    "finished_at": r[5],
                    "steps": steps.get(r[0], 0),
                    "seats": seats[r[0]],
                    "seed_chosen_by_creator": bool(settings.get("seed_chosen_by_creator", False)),
                    "seed_commitment": settings.get("seed_commitment"),
                    "rated": bool(settings.get("rated", False)),
                }
            )
        return out

    def active_bot_game_ids(self) -> list[str]:
        """Unfinished games with at least one bot seat (the server resumes their bots at start)."""
        g, s = games_table.c, seats_table.c
        with self.engine.connect() as conn:
            q = (
                select(g.id)
                .where(g.status == "active", g.id.in_(select(s.game_id).where(s.kind == "bot")))
                .order_by(g.created_at)
            )
            return [r[0] for r in conn.execute(q)]

    def count_actions(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            return conn.execute(
                select(func.count()).select_from(actions_table).where(actions_table.c.game_id == game_id)
            ).scalar_one()


class GroupCommitter:
    """Group commit: each transaction carries every write submitted while the last one committed.

    ``submit`` (event loop thread) returns a future that resolves once the write is
    committed, or fails with the database's error. Writes commit in submission order.

    Three ways to run, chosen by the store (``Store.commit_mode``):

    * **inline** (SQLite in WAL mode with ``synchronous=NORMAL``: a commit is a ``write()``
      of a few pages, no fsync): the batch is written on the event loop itself, scheduled
      with ``call_soon`` right after the messages read in the same loop iteration, so it
      gathers every decision those messages made. WAL checkpoints (which fsync) run on a
      background thread every few seconds instead of inside a commit.
    * **async** (PostgreSQL): tasks on the event loop write through SQLAlchemy's asyncio
      layer (psycopg in async mode), ``Store.writers`` connections (default 2) committing
      at once; while commits wait for the server's fsync (which PostgreSQL shares between
      concurrent commits), the loop goes on and what arrives meanwhile is the next batch.
      No thread: no handing the GIL back and forth (with writer threads, each database
      round trip waits for the GIL again and the tail latency triples).
    * **thread** (SQLite ``full``): a writer thread blocks on the commit's fsync while the
      loop goes on; what arrives meanwhile is the next batch.
    """

    def __init__(
        self,
        store: Store,
        max_batch: int = 2000,
        mode: str | None = None,
        inline: bool | None = None,
        writers: int | None = None,
    ) -> None:
        self.store = store
        self.max_batch = max_batch
        # PostgreSQL: several connections commit at once (the server merges their WAL
        # flushes); decisions of one game never race, the game's lock orders them. SQLite
        # has a single writer anyway.
        self.writers = writers or (store.writers if store.dialect == "postgresql" else 1)
        if mode is None:
            mode = store.commit_mode if inline is None else ("inline" if inline else "thread")
        self.mode = mode
        self.q: queue.SimpleQueue = queue.SimpleQueue()
        self.pending: list = []
        self.scheduled = False
        self.threads: list[threading.Thread] = []
        self.checkpointer: threading.Thread | None = None
        self.tasks: list[asyncio.Task] = []
        self.wakeup: asyncio.Event | None = None
        self.stopping = threading.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.conn: Connection | None = None
        self.batches = 0
        self.writes = 0
        self.write_seconds = 0.0

    @property
    def inline(self) -> bool:
        return self.mode == "inline"

    def _started_loop(self) -> asyncio.AbstractEventLoop:
        """The loop start() was given: the writer takes work only between start() and stop()."""
        if self.loop is None:
            raise RuntimeError("the commit writer is not started")
        return self.loop

    def _wakeup(self) -> asyncio.Event:
        """The async writers' wake-up call, which start() makes in async mode."""
        if self.wakeup is None:
            raise RuntimeError("the async commit writer is not started")
        return self.wakeup

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.stopping.clear()
        if self.mode == "inline":
            self.conn = self.store.engine.connect()
            self.checkpointer = threading.Thread(target=self._checkpoints, name="redtable-checkpoint", daemon=True)
            self.checkpointer.start()
        elif self.mode == "async":
            self.wakeup = asyncio.Event()
            self.async_engine = self.store.async_engine(self.writers)
            self.tasks = [loop.create_task(self._run_async()) for _ in range(self.writers)]
        else:
            # The writer thread needs the GIL back after each database call; the loop thread
            # releases it only briefly (each socket syscall), so shorten the forced switch
            # interval from 5 ms or every commit waits for it several times.
            sys.setswitchinterval(min(sys.getswitchinterval(), 0.001))
            self.threads = [
                threading.Thread(target=self._run, name=f"redtable-writer-{i}", daemon=True)
                for i in range(self.writers)
            ]
            for t in self.threads:
                t.start()

    def submit(self, op: tuple) -> asyncio.Future:
        loop = self._started_loop()
        fut = loop.create_future()
        if self.mode == "inline":
            self.pending.append((op, fut))
            if not self.scheduled:
                self.scheduled = True
                loop.call_soon(self._flush)
        elif self.mode == "async":
            self.pending.append((op, fut))
            self._wakeup().set()
        else:
            self.q.put((op, fut))
        return fut

    async def aclose(self) -> None:
        """Commit what is queued, then end the writer (on the event loop)."""
        if self.mode == "thread":
            await asyncio.get_running_loop().run_in_executor(None, self.stop)
        elif self.mode == "async":
            self.stopping.set()
            if self.tasks:
                self._wakeup().set()
                await asyncio.gather(*self.tasks)
                self.tasks = []
                await self.async_engine.dispose()
        else:
            self.stop()

    def stop(self, timeout: float = 10.0) -> None:
        """Commit what is queued, then end the writer (inline and thread modes)."""
        self.stopping.set()
        if self.mode == "inline":
            while self.pending:
                self._flush()
            if self.conn is not None:
                self.conn.close()
                self.conn = None
            if self.checkpointer is not None:
                self.checkpointer.join(timeout)
                self.checkpointer = None
        elif self.threads:
            for _ in self.threads:
                self.q.put(None)
            for t in self.threads:
                t.join(timeout)
            self.threads = []

    # -------------------------------------------------------------- async
    async def _run_async(self) -> None:
        engine = self.async_engine
        conn = None
        try:
            while True:
                await self._wakeup().wait()
                self._wakeup().clear()
                while self.pending:
                    batch, self.pending = self.pending[: self.max_batch], self.pending[self.max_batch :]
                    ops = [op for op, _ in batch]
                    t0 = time.perf_counter()
                    try:
                        if conn is None:
                            conn = await engine.connect()
                        results: list = await conn.run_sync(lambda c, ops=ops: self.store.write_batch(ops, c))
                    except Exception as e:  # noqa: BLE001  (the connection itself failed)
                        results = [e] * len(batch)
                        if conn is not None:
                            try:
                                await conn.close()
                            except Exception:  # noqa: BLE001
                                pass
                            conn = None
                    self.write_seconds += time.perf_counter() - t0
                    metrics.committed(time.perf_counter() - t0, results)
                    self.batches += 1
                    self.writes += len(batch)
                    _resolve(batch, results)
                    if self.pending:  # another writer may be free to take them now
                        self._wakeup().set()
                if self.stopping.is_set():
                    self._wakeup().set()
                    return
        finally:
            if conn is not None:
                await conn.close()

    # -------------------------------------------------------------- inline
    def _flush(self) -> None:
        self.scheduled = False
        batch, self.pending = self.pending[: self.max_batch], self.pending[self.max_batch :]
        if self.pending:
            self.scheduled = True
            self._started_loop().call_soon(self._flush)
        if not batch:
            return
        t0 = time.perf_counter()
        try:
            results: list = self.store.write_batch([op for op, _ in batch], self.conn)
        except Exception as e:  # noqa: BLE001
            results = [e] * len(batch)
        self.write_seconds += time.perf_counter() - t0
        metrics.committed(time.perf_counter() - t0, results)
        self.batches += 1
        self.writes += len(batch)
        _resolve(batch, results)

    def _checkpoints(self) -> None:
        while not self.stopping.wait(2.0):
            try:
                self.store.checkpoint()
            except Exception as e:  # noqa: BLE001
                log.warning("WAL checkpoint failed: %s", e)
        try:
            self.store.checkpoint()
        except Exception:  # noqa: BLE001
            pass

    # -------------------------------------------------------------- thread
    def _run(self) -> None:
        q = self.q
        stopping = False
        with self.store.engine.connect() as conn:
            while not stopping:
                item = q.get()
                if item is None:
                    break
                batch = [item]
                while len(batch) < self.max_batch:
                    try:
                        nxt = q.get_nowait()
                    except queue.Empty:
                        break
                    if nxt is None:
                        stopping = True
                        break
                    batch.append(nxt)
                t0 = time.perf_counter()
                try:
                    results: list = self.store.write_batch([op for op, _ in batch], conn)
                except Exception as e:  # noqa: BLE001
                    results = [e] * len(batch)
                self.write_seconds += time.perf_counter() - t0
                metrics.committed(time.perf_counter() - t0, results)
                self.batches += 1
                self.writes += len(batch)
                try:
                    self._started_loop().call_soon_threadsafe(_resolve, batch, results)
                except RuntimeError:  # the loop is closed: nobody waits any more
                    return


class SeatBound(Exception):
    """A seat could not be bound to an account: ``reason`` is no_seat, other_account or one_seat."""

    def __init__(self, reason: str, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.seat = seat


class InviteGone(Exception):
    """A join quoted an invite that another process replaced meanwhile."""

    def __init__(self, game_id: str, seat: int) -> None:
        super().__init__(f"the invite of {game_id} seat {seat} was replaced")


def _versioned(op: tuple) -> bool:
    """A fleet decision or undo: it carries (version it was made on, lease wish)."""
    return (op[0] == "action" and len(op) > 3 and op[3] is not None) or (
        op[0] == "undo" and len(op) > 3 and op[3] is not None
    )


def _game_of(op: tuple) -> str:
    return op[1]["game_id"] if op[0] == "action" else op[1] if isinstance(op[1], str) else op[1]["id"]


def _resolve(batch: list, results: list) -> None:
    for (_, fut), res in zip(batch, results, strict=True):
        if fut.done():
            continue
        if isinstance(res, BaseException):
            fut.set_exception(res)
        else:
            fut.set_result(res)


def run_blocking(fn: Callable, *args) -> Any:
    """Run a blocking storage call on the default executor."""
    return asyncio.get_running_loop().run_in_executor(None, fn, *args)
