"""Storage of games through SQLAlchemy Core: a game is its seed, options, seats and decision log.

Three tables (names prefixed ``redtable_``):

* ``games``: id, title, players, seed, options and settings (JSON), status, times, result;
* ``seats``: per seat, human or bot (spec), display name, the hash of its current invite
  (and, for games created before per-device tokens, the hash of the one token);
* ``tokens``: the hash of every device's seat token, and when it was revoked;
* ``actions``: the decision log, one row per accepted decision: ``seq`` (1, 2, ... in the
  order of acceptance, never reused), seat, action, whether the undo rule allows undoing
  it, and ``undone`` (an undo marks the row; it is never deleted, so the log keeps it).

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import orjson
from sqlalchemy import (
    BigInteger, Boolean, Column, Float, Index, Integer, MetaData, String, Table, Text, create_engine, event,
    func, insert, select, text, update,
)
from sqlalchemy.engine import Engine, make_url

log = logging.getLogger("redtable.server.store")

metadata = MetaData()

games_table = Table(
    "redtable_games", metadata,
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
    Index("redtable_games_status", "status", "created_at"),
)

seats_table = Table(
    "redtable_seats", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(64), nullable=True),
    Column("name", String(64), nullable=True),
    Column("invite_hash", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("joined_at", Float, nullable=True),
)

tokens_table = Table(
    "redtable_tokens", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("game_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("revoked_at", Float, nullable=True),
    Index("redtable_tokens_game", "game_id", "seat"),
)


actions_table = Table(
    "redtable_actions", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("undoable", Boolean, nullable=False),
    Column("undone", Boolean, nullable=False),
    Column("at", Float, nullable=False),
)

DEFAULT_DB = "sqlite:///redtable.db"
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


class Store:
    """Synchronous storage calls; the server runs them off the event loop (writer thread, executor)."""

    def __init__(self, url: str = DEFAULT_DB, schema: str | None = None, sqlite_sync: str = "normal",
                 writers: int = 2) -> None:
        self.url = normalize_url(url)
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
                engine = create_engine(self.url, connect_args={"check_same_thread": False, "timeout": 30},
                                       pool_size=8, max_overflow=8)
            else:  # an in-memory database exists once per connection: share one (tests, demos)
                from sqlalchemy.pool import StaticPool

                engine = create_engine(self.url, connect_args={"check_same_thread": False},
                                       poolclass=StaticPool)
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
        table = f'"{schema}".redtable_actions' if schema else "redtable_actions"
        self._insert_sql = (f"INSERT INTO {table} (game_id, seq, seat, action, undoable, undone, at) "
                            f"VALUES ({', '.join([ph] * 7)})")

    # ------------------------------------------------------------------ schema
    def create_tables(self) -> None:
        with self.engine.begin() as conn:
            if self.schema:
                conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"'))
            metadata.create_all(conn)

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
            self._transaction(conn, ops)
            return [None] * len(ops)
        except Exception as batch_error:  # noqa: BLE001
            if len(ops) == 1:
                return [batch_error]
        out: list[Exception | None] = []
        for op in ops:
            try:
                self._transaction(conn, [op])
                out.append(None)
            except Exception as e:  # noqa: BLE001
                out.append(e)
        return out

    def _transaction(self, conn, ops: list[tuple]) -> None:
        if conn is None:
            with self.engine.begin() as c:
                self._write(c, ops)
            return
        if conn.invalidated:
            conn.rollback()
        with conn.begin():
            self._write(conn, ops)

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
        conn.exec_driver_sql(self._insert_sql, [
            (r["game_id"], r["seq"], r["seat"], r["action"], r["undoable"], r["undone"], r["at"]) for r in rows])

    def _write(self, conn, ops: list[tuple]) -> None:
        rows: list[dict] = []
        for op in ops:
            kind = op[0]
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
            elif kind == "undo":
                _, game_id, seq = op
                r = conn.execute(update(actions_table)
                                 .where(actions_table.c.game_id == game_id, actions_table.c.seq == seq,
                                        actions_table.c.undone == False)  # noqa: E712
                                 .values(undone=True))
                if r.rowcount != 1:
                    raise RuntimeError(f"undo of {game_id} #{seq}: no such decision")
            elif kind == "join":
                _, game_id, seat, name, at = op
                conn.execute(update(seats_table)
                             .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
                             .values(name=name, joined_at=at))
            elif kind == "token":  # a device's new seat token
                _, game_id, seat, token_hash, at = op
                conn.execute(insert(tokens_table), [{"token_hash": token_hash, "game_id": game_id, "seat": seat,
                                                     "created_at": at, "revoked_at": None}])
            elif kind == "revoke":  # every token of the seat but one; the seat's invite replaced
                _, game_id, seat, keep_hash, invite_hash, at = op
                t = tokens_table.c
                conn.execute(update(tokens_table)
                             .where(t.game_id == game_id, t.seat == seat, t.token_hash != keep_hash,
                                    t.revoked_at.is_(None))
                             .values(revoked_at=at))
                conn.execute(update(seats_table)
                             .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
                             .values(invite_hash=invite_hash, token_hash=None))
            elif kind == "invite":  # a new invite for a seat nobody has taken
                _, game_id, seat, invite_hash = op
                r = conn.execute(update(seats_table)
                                 .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat,
                                        seats_table.c.joined_at.is_(None))
                                 .values(invite_hash=invite_hash))
                if r.rowcount != 1:
                    raise RuntimeError(f"re-issue of {game_id} seat {seat}: the seat was taken")
            else:  # pragma: no cover
                raise ValueError(f"unknown write {kind!r}")
        if rows:
            self._insert_actions(conn, rows)

    @staticmethod
    def _finish(conn, game_id: str, result: dict) -> None:
        conn.execute(update(games_table).where(games_table.c.id == game_id)
                     .values(status="finished", finished_at=time.time(), result=_dumps(result)))

    # ------------------------------------------------------------------ reads
    def load_game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            g = conn.execute(select(games_table).where(games_table.c.id == game_id)).mappings().first()
            if g is None:
                return None
            row = GameRow(
                id=g["id"], game=g["game"], players=g["players"], seed=g["seed"],
                options=orjson.loads(g["options"]), settings=orjson.loads(g["settings"]), status=g["status"],
                created_at=g["created_at"], finished_at=g["finished_at"],
                result=orjson.loads(g["result"]) if g["result"] else None,
            )
            for s in conn.execute(select(seats_table).where(seats_table.c.game_id == game_id)
                                  .order_by(seats_table.c.seat)).mappings():
                row.seats.append(SeatRow(s["seat"], s["kind"], s["bot"], s["name"], s["invite_hash"],
                                         s["token_hash"], s["joined_at"]))
            a = actions_table.c
            for r in conn.execute(select(a.seq, a.seat, a.action, a.undoable, a.undone)
                                  .where(a.game_id == game_id).order_by(a.seq)):
                row.actions.append(ActionRow(r[0], r[1], r[2], bool(r[3]), bool(r[4])))
            t = tokens_table.c
            for r in conn.execute(select(t.seat, t.token_hash)
                                  .where(t.game_id == game_id, t.revoked_at.is_(None))):
                row.tokens.append(TokenRow(r[0], r[1]))
        return row

    def list_games(self, status: str | None = None, limit: int = 50, offset: int = 0) -> list[dict]:
        g, s, a = games_table.c, seats_table.c, actions_table.c
        with self.engine.connect() as conn:
            q = select(g.id, g.game, g.players, g.status, g.created_at, g.finished_at, g.settings)
            if status:
                q = q.where(g.status == status)
            rows = conn.execute(q.order_by(g.created_at.desc(), g.id).limit(limit).offset(offset)).all()
            ids = [r[0] for r in rows]
            seats: dict[str, list] = {i: [] for i in ids}
            steps: dict[str, int] = {}
            if ids:
                for r in conn.execute(select(s.game_id, s.seat, s.kind, s.bot, s.name, s.joined_at)
                                      .where(s.game_id.in_(ids)).order_by(s.game_id, s.seat)):
                    seats[r[0]].append({"seat": r[1], "type": r[2], "bot": r[3], "name": r[4],
                                        "joined": r[2] == "bot" or r[5] is not None})
                for r in conn.execute(select(a.game_id, func.count()).where(a.game_id.in_(ids), a.undone == False)  # noqa: E712
                                      .group_by(a.game_id)):
                    steps[r[0]] = r[1]
        out = []
        for r in rows:
            settings = orjson.loads(r[6]) if r[6] else {}
            out.append({"id": r[0], "game": r[1], "players": r[2], "status": r[3], "created_at": r[4],
                        "finished_at": r[5], "steps": steps.get(r[0], 0), "seats": seats[r[0]],
                        "seed_chosen_by_creator": bool(settings.get("seed_chosen_by_creator", False)),
                        "seed_commitment": settings.get("seed_commitment")})
        return out

    def active_bot_game_ids(self) -> list[str]:
        """Unfinished games with at least one bot seat (the server resumes their bots at start)."""
        g, s = games_table.c, seats_table.c
        with self.engine.connect() as conn:
            q = (select(g.id).where(g.status == "active", g.id.in_(select(s.game_id).where(s.kind == "bot")))
                 .order_by(g.created_at))
            return [r[0] for r in conn.execute(q)]

    def count_actions(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(actions_table)
                                .where(actions_table.c.game_id == game_id)).scalar_one()


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

    def __init__(self, store: Store, max_batch: int = 2000, mode: str | None = None,
                 inline: bool | None = None, writers: int | None = None) -> None:
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
        self.conn = None
        self.batches = 0
        self.writes = 0
        self.write_seconds = 0.0

    @property
    def inline(self) -> bool:
        return self.mode == "inline"

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
            self.threads = [threading.Thread(target=self._run, name=f"redtable-writer-{i}", daemon=True)
                            for i in range(self.writers)]
            for t in self.threads:
                t.start()

    def submit(self, op: tuple) -> asyncio.Future:
        fut = self.loop.create_future()
        if self.mode == "inline":
            self.pending.append((op, fut))
            if not self.scheduled:
                self.scheduled = True
                self.loop.call_soon(self._flush)
        elif self.mode == "async":
            self.pending.append((op, fut))
            self.wakeup.set()
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
                self.wakeup.set()
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
                await self.wakeup.wait()
                self.wakeup.clear()
                while self.pending:
                    batch, self.pending = self.pending[:self.max_batch], self.pending[self.max_batch:]
                    ops = [op for op, _ in batch]
                    t0 = time.perf_counter()
                    try:
                        if conn is None:
                            conn = await engine.connect()
                        results: list = await conn.run_sync(lambda c: self.store.write_batch(ops, c))
                    except Exception as e:  # noqa: BLE001  (the connection itself failed)
                        results = [e] * len(batch)
                        if conn is not None:
                            try:
                                await conn.close()
                            except Exception:  # noqa: BLE001
                                pass
                            conn = None
                    self.write_seconds += time.perf_counter() - t0
                    self.batches += 1
                    self.writes += len(batch)
                    _resolve(batch, results)
                    if self.pending:  # another writer may be free to take them now
                        self.wakeup.set()
                if self.stopping.is_set():
                    self.wakeup.set()
                    return
        finally:
            if conn is not None:
                await conn.close()

    # -------------------------------------------------------------- inline
    def _flush(self) -> None:
        self.scheduled = False
        batch, self.pending = self.pending[:self.max_batch], self.pending[self.max_batch:]
        if self.pending:
            self.scheduled = True
            self.loop.call_soon(self._flush)
        if not batch:
            return
        t0 = time.perf_counter()
        try:
            results: list = self.store.write_batch([op for op, _ in batch], self.conn)
        except Exception as e:  # noqa: BLE001
            results = [e] * len(batch)
        self.write_seconds += time.perf_counter() - t0
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
                self.batches += 1
                self.writes += len(batch)
                try:
                    self.loop.call_soon_threadsafe(_resolve, batch, results)
                except RuntimeError:  # the loop is closed: nobody waits any more
                    return


def _resolve(batch: list, results: list) -> None:
    for (_, fut), err in zip(batch, results):
        if fut.done():
            continue
        if err is None:
            fut.set_result(None)
        else:
            fut.set_exception(err)


def run_blocking(fn: Callable, *args) -> Any:
    """Run a blocking storage call on the default executor."""
    return asyncio.get_running_loop().run_in_executor(None, fn, *args)
