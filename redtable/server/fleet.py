"""One game service on many processes: this process's part in a fleet sharing one PostgreSQL database.

Any process accepts any client for any game. The database is the only truth:

* **Decisions are serialised per game by the database.** A process applies a decision to
  its in-memory copy (its *replica*) and commits it in one statement that bumps the game's
  ``version`` only if it still is the version the decision was made on
  (``Store._write_versioned``). A process whose replica was behind loses that race: the
  transaction is rolled back, it catches up, and the client gets ``stale_version``. No
  decision is lost or applied twice, whichever process made it.
* **Every process hears every change** on the bus: PostgreSQL ``LISTEN``/``NOTIFY``, or
  Redis pub/sub (``--bus redis://...``): right after its commit, the deciding process
  publishes ``<game>:<version>`` (nothing hidden in it; see :class:`PgBus` for why not
  inside the transaction). A process holding a replica of that game reads the new rows of the
  log in ``seq`` order in one statement (so the version and the rows are one snapshot)
  and applies them (the engine is deterministic: seed + actions), then sends each of its
  own connections its update, in order, exactly as the process that decided does. An undo
  (the version moved more than the new rows account for) rebuilds the replica from the
  seed and sends a fresh ``state``. Games with no connection here are only marked behind,
  and caught up when next used. Every ``poll_seconds`` (and whenever the bus reconnects)
  the versions of the games this process serves are read again, so a lost notice (a
  Redis publish that died with its process, a dropped LISTEN connection) costs at most
  that long.
* **Seats and tokens** (joins, new device tokens, sign-outs, new invites) notify
  ``<game>:m:<process>``; the other processes' replicas re-read them and close the sockets of devices signed out
  elsewhere. A token this process has not heard of yet is looked up in the database
  before it is refused.
* **Presence** is fleet-wide: each process publishes which seats (and how many
  spectators) it has for a game (``<game>:p:<process>:<seat bits>:<spectators>``), when
  that changes and every ``presence_every`` seconds, and asks for the others' when it
  gets its first connection to a game (``<game>:q``).
* **The server's own moves** (bots, the server's answer to an empty block window) are
  made by one process at a time: the game's *lease* (``lease_holder``, ``lease_until`` on
  the database's clock). The transaction of a decision after which the server is to move
  takes the lease for the deciding process if it is free or expired; the one after which
  a person is to move releases it. The holder renews its leases while it works on them;
  a process that died stops renewing, and within ``lease_seconds`` the sweeper of another
  process (every ``sweep_seconds``) claims the expired lease, catches up and plays on.
  Even two holders could not play a move twice: a move is a decision like any other,
  committed only on the version it was made on.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import random
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("redtable.server.fleet")

PRESENCE_STALE = 25.0  # seconds: a process's presence report is forgotten if not repeated


@dataclass(slots=True)
class LogRow:
    seq: int
    seat: int
    action: str
    undoable: bool
    undone: bool


def process_name() -> str:
    """This process in lease rows and logs: host, pid and a random tag (a restarted process
    with the same pid is someone else)."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(4)}"


def channel_name(store) -> str:
    """The bus channel of one deployment (database + schema): test schemas never hear each other."""
    from sqlalchemy.engine import make_url

    u = make_url(store.url)
    name = f"redtable.{u.database or ''}.{store.schema or 'public'}"
    if len(name) > 60:  # PostgreSQL channel names are identifiers (at most 63 bytes)
        name = "redtable." + hashlib.sha256(name.encode()).hexdigest()[:40]
    return name


def libpq_dsn(url: str) -> str:
    """The store's SQLAlchemy URL as a libpq connection string for psycopg (with its query
    parameters, such as ``options`` or ``sslmode``)."""
    from psycopg.conninfo import make_conninfo
    from sqlalchemy.engine import make_url

    u = make_url(url)
    parts = {"host": u.host, "port": u.port, "user": u.username, "password": u.password, "dbname": u.database}
    params: dict[str, Any] = {k: v for k, v in parts.items() if v is not None}
    for k, v in u.query.items():
        params[k] = v if isinstance(v, str) else v[-1]
    return make_conninfo(**params)


# ---------------------------------------------------------------------- database access
class PgPool:
    """A few autocommit psycopg connections for the fleet's small queries (no SQLAlchemy layer:
    these run on every catch-up, so each saves its overhead). At most ``size`` are in use; a
    connection that failed is dropped and the next user opens a new one."""

    def __init__(self, dsn: str, size: int = 2) -> None:
        self.dsn = dsn
        self.slots = asyncio.Semaphore(size)
        self.idle: list = []
        self.closed = False

    @contextlib.asynccontextmanager
    async def conn(self):
        import psycopg

        if self.closed:
            raise RuntimeError("the fleet's database pool is closed")
        async with self.slots:
            c = self.idle.pop() if self.idle else None
            if c is None or c.closed:
                c = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True, connect_timeout=10)
            ok = False
            try:
                yield c
                ok = True
            finally:
                if ok and not c.closed and not self.closed:
                    self.idle.append(c)
                else:
                    with contextlib.suppress(Exception):
                        await c.close()

    async def close(self) -> None:
        self.closed = True
        idle, self.idle = self.idle, []
        for c in idle:
            with contextlib.suppress(Exception):
                await c.close()


# ---------------------------------------------------------------------- buses
class Bus:
    """What both buses share: a listener that reconnects with a growing delay, and an outbox
    one task publishes in batches of up to 500, in the order of :meth:`publish` calls.

    A bus says how it subscribes (:meth:`_subscription`: the payloads heard while connected)
    and how it publishes a batch (:meth:`_publish`); a connection lost while listening is
    retried after 0.1 s, then twice as long each time up to 5 s, and ``on_reconnect`` runs
    once it is back (notices may have been missed meanwhile). A failed batch is dropped:
    the other processes re-read versions every poll."""

    kind = ""
    name = ""  # in log messages

    def __init__(self, channel: str) -> None:
        self.channel = channel
        self.outbox: list[str] = []
        self.wake = asyncio.Event()
        self.tasks: list[asyncio.Task] = []
        self.connected = asyncio.Event()

    def _require(self) -> None:
        """Raise if this bus cannot run here (its client library is missing)."""

    async def start(self, on_message: Callable[[str], None], on_reconnect: Callable[[], None]) -> None:
        self._require()
        self.tasks = [asyncio.create_task(self._listen(on_message, on_reconnect)), asyncio.create_task(self._send())]
        try:
            await asyncio.wait_for(self.connected.wait(), 15)
        except TimeoutError:
            log.error("the %s bus did not connect in 15 s; retrying in the background", self.name)

    def _subscription(self) -> contextlib.AbstractAsyncContextManager[AsyncIterator[str]]:
        """Connect and subscribe to the channel; the payloads heard, until the connection fails."""
        raise NotImplementedError

    async def _listen(self, on_message: Callable[[str], None], on_reconnect: Callable[[], None]) -> None:
        delay = 0.1
        first = True
        while True:
            try:
                async with self._subscription() as payloads:
                    self.connected.set()
                    delay = 0.1
                    if not first:
                        on_reconnect()  # notices may have been missed while away: re-read versions
                    first = False
                    async for payload in payloads:
                        on_message(payload)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001
                self.connected.clear()
                log.warning("the %s bus lost its connection (%s); reconnecting in %.1f s", self.name, e, delay)
                await asyncio.sleep(delay)
                delay = min(5.0, delay * 2)

    def publish(self, payload: str) -> None:
        self.outbox.append(payload)
        self.wake.set()

    async def _publish(self, batch: list[str]) -> None:
        """Send one batch of notices, connecting first if need be."""
        raise NotImplementedError

    async def _publish_failed(self) -> None:
        """After a failed batch: drop what the failure may have left broken."""

    async def _close_publisher(self) -> None:
        """The sender ends: close its connection."""

    async def _send(self) -> None:
        try:
            while True:
                await self.wake.wait()
                self.wake.clear()
                batch, self.outbox = self.outbox[:500], self.outbox[500:]
                if self.outbox:
                    self.wake.set()
                if not batch:
                    continue
                try:
                    await self._publish(batch)
                except asyncio.CancelledError:
                    raise
                except Exception as e:  # noqa: BLE001  (presence is best effort; the others re-read versions every poll)
                    log.warning("publishing %d notices on the %s bus failed: %s", len(batch), self.name, e)
                    await self._publish_failed()
                    await asyncio.sleep(0.5)
        finally:
            await self._close_publisher()

    async def stop(self) -> None:
        for t in self.tasks:
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


class PgBus(Bus):
    """PostgreSQL LISTEN/NOTIFY: one connection listens, one publishes.

    Notices are published right after the commit they announce, in batches, from one
    connection per process (so a game's notices leave in the order of its versions), with
    ``synchronous_commit = off`` on that connection: a notice is delivered when its
    transaction commits, and it need not wait for the disk. Not inside the decision's own
    transaction: PostgreSQL serialises the commits of all transactions that NOTIFY, disk
    flush included, so every process's decisions would wait in one line for the disk (in
    one run here, two processes then served 815 decisions/s where one served 1,928). A process that dies
    between a commit and its notice costs the others at most the version poll's interval
    (``Fleet.poll_seconds``)."""

    kind = "postgres"
    name = "PostgreSQL"

    def __init__(self, dsn: str, channel: str) -> None:
        super().__init__(channel)
        self.dsn = dsn
        self._out: Any = None  # the publishing psycopg.AsyncConnection (psycopg is imported only when used)

    @contextlib.asynccontextmanager
    async def _subscription(self) -> AsyncIterator[AsyncIterator[str]]:
        import psycopg

        async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True, connect_timeout=10) as conn:
            await conn.execute(f'LISTEN "{self.channel}"')
            yield (n.payload async for n in conn.notifies())

    async def _publish(self, batch: list[str]) -> None:
        import psycopg

        if self._out is None or self._out.closed:
            self._out = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True, connect_timeout=10)
            await self._out.execute("SET synchronous_commit = off")  # a notice never waits for the disk
        await self._out.execute("SELECT pg_notify(%s, x) FROM unnest(%s::text[]) AS x", (self.channel, batch))

    async def _publish_failed(self) -> None:
        await self._close_publisher()

    async def _close_publisher(self) -> None:
        if self._out is not None:
            with contextlib.suppress(Exception):
                await self._out.close()
        self._out = None


class RedisBus(Bus):
    """Redis pub/sub: for large fleets, where every commit's NOTIFY would queue on the
    database. Decisions are published right after their commit, in the order they were
    committed by this process (one publishing connection, pipelined)."""

    kind = "redis"
    name = "Redis"

    def __init__(self, url: str, channel: str) -> None:
        super().__init__(channel)
        self.url = url
        self._out: Any = None  # the publishing redis.asyncio.Redis (redis-py is an optional extra)

    def _require(self) -> None:
        try:
            import redis.asyncio  # noqa: F401
        except ImportError:  # pragma: no cover - the extra is missing
            raise RuntimeError("--bus redis:// needs redis-py: pip install 'redtable[redis]'") from None

    @contextlib.asynccontextmanager
    async def _subscription(self) -> AsyncIterator[AsyncIterator[str]]:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(self.url, socket_connect_timeout=10)
        try:
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            await pubsub.subscribe(self.channel)
            yield self._messages(pubsub)
        finally:
            with contextlib.suppress(Exception):
                await client.aclose()

    @staticmethod
    async def _messages(pubsub: Any) -> AsyncIterator[str]:
        while True:
            msg = await pubsub.get_message(timeout=30.0)
            if msg is not None and msg.get("type") == "message":
                data = msg["data"]
                yield data.decode() if isinstance(data, bytes) else str(data)

    async def _publish(self, batch: list[str]) -> None:
        import redis.asyncio as aioredis

        if self._out is None:
            self._out = aioredis.Redis.from_url(self.url, socket_connect_timeout=10)
        async with self._out.pipeline(transaction=False) as pipe:
            for p in batch:
                pipe.publish(self.channel, p)
            await pipe.execute()

    async def _close_publisher(self) -> None:
        if self._out is not None:
            with contextlib.suppress(Exception):
                await self._out.aclose()
        self._out = None


def make_bus(spec: str | None, store) -> Bus:
    """``None``/``"postgres"``: LISTEN/NOTIFY on the store's database; ``redis://...``: Redis pub/sub."""
    if spec in (None, "", "postgres", "postgresql"):
        return PgBus(libpq_dsn(store.url), channel_name(store))
    if spec.startswith(("redis://", "rediss://", "unix://")):
        return RedisBus(spec, channel_name(store))
    raise ValueError(f"--bus must be postgres or a redis:// URL, got {spec[:60]!r}")


# ---------------------------------------------------------------------- the fleet
class Fleet:
    """This process's link to the others: bus, leases, catch-up reads (see the module doc).

    The hub owns one when its store is PostgreSQL; it calls :meth:`start` with callbacks
    for what it hears (``on_note``), for a bus that reconnected (``on_resync``), for the
    periodic check (``serving``: the ids whose replicas must stay current) and for games
    whose expired lease it claimed (``on_claimed``).
    """

    def __init__(
        self,
        store,
        bus: str | None = None,
        *,
        lease_seconds: float = 5.0,
        sweep_seconds: float = 1.0,
        poll_seconds: float = 2.0,
        presence_every: float = 10.0,
    ) -> None:
        if not store.fleet_capable:
            raise ValueError("several server processes need PostgreSQL; SQLite serves one process")
        if not 1.0 <= lease_seconds <= 600:
            raise ValueError(f"lease_seconds must be 1-600, got {lease_seconds}")
        self.store = store
        self.me = process_name()
        self.tag = self.me.rsplit(":", 1)[-1]
        self.bus = make_bus(bus, store)
        self.lease_seconds = lease_seconds
        self.sweep_seconds = sweep_seconds
        self.poll_seconds = poll_seconds
        self.presence_every = presence_every
        self.pool = PgPool(libpq_dsn(store.url))
        self.held: dict[str, float] = {}  # game -> until when (monotonic) this process may act for the server
        self.tasks: list[asyncio.Task] = []
        self.counts = {"catch_ups": 0, "rebuilds": 0, "claimed": 0, "lost": 0, "conflicts": 0, "notes": 0}
        self.bus_lag: Any = None  # metrics.BusLag, set by metrics.install
        g, a = store.qualified("redtable_games"), store.qualified("redtable_actions")
        s, t = store.qualified("redtable_seats"), store.qualified("redtable_tokens")
        self._games, self._actions = g, a
        self._sql_since = (
            f"SELECT g.version, a.seq, a.seat, a.action, a.undoable, a.undone FROM {g} g "
            f"LEFT JOIN {a} a ON a.game_id = g.id AND a.seq > %s WHERE g.id = %s ORDER BY a.seq"
        )
        now = "extract(epoch from clock_timestamp())::float8"
        self._sql_claim = (
            f"UPDATE {g} SET lease_holder = %s, lease_until = {now} + %s WHERE id IN "
            f"(SELECT id FROM {g} WHERE lease_holder IS NOT NULL AND lease_until < {now} "
            f"AND status = 'active' ORDER BY lease_until LIMIT 50 FOR UPDATE SKIP LOCKED) RETURNING id"
        )
        self._sql_renew = (
            f"UPDATE {g} SET lease_until = {now} + %s WHERE lease_holder = %s AND id = ANY(%s) RETURNING id"
        )
        self._sql_release = (
            f"UPDATE {g} SET lease_holder = NULL, lease_until = NULL WHERE lease_holder = %s AND id = ANY(%s)"
        )
        self._sql_expire = f"UPDATE {g} SET lease_until = 0 WHERE lease_holder = %s"
        self._sql_versions = f"SELECT id, version FROM {g} WHERE id = ANY(%s)"
        self._sql_seats = (
            f"SELECT seat, name, invite_hash, token_hash, joined_at FROM {s} WHERE game_id = %s ORDER BY seat"
        )
        self._sql_tokens = f"SELECT token_hash, seat FROM {t} WHERE game_id = %s AND revoked_at IS NULL"
        self._sql_token = (
            f"SELECT seat FROM {t} WHERE game_id = %s AND token_hash = %s AND revoked_at IS NULL "
            f"UNION ALL SELECT seat FROM {s} WHERE game_id = %s AND token_hash = %s"
        )

    # -------------------------------------------------------------- lifecycle
    async def start(
        self,
        *,
        on_note: Callable[[str], None],
        on_resync: Callable[[], None],
        serving: Callable[[], list[str]],
        on_claimed: Callable[[str], Awaitable[None]],
        renewing: Callable[[], list[str]],
    ) -> None:
        self.store.lease_owner = self.me
        self.store.lease_seconds = self.lease_seconds
        self._serving, self._on_claimed, self._renewing, self._on_resync = serving, on_claimed, renewing, on_resync
        self.on_note = on_note
        await self.bus.start(self._heard, on_resync)
        self.tasks = [
            asyncio.create_task(self._every(self.sweep_seconds, self.sweep)),
            asyncio.create_task(self._every(self.lease_seconds / 4, self.renew)),
            asyncio.create_task(self._every(self.poll_seconds, self._poll)),
        ]

    async def stop(self) -> None:
        for t in self.tasks:
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        try:  # hand the leases over at once: another process's sweeper takes them on its next pass
            async with self.pool.conn() as c:
                await c.execute(self._sql_expire, (self.me,))
        except Exception as e:  # noqa: BLE001
            log.warning("could not hand over the leases (they expire by themselves): %s", e)
        self.held.clear()
        await self.bus.stop()
        await self.pool.close()

    def _heard(self, payload: str) -> None:
        self.counts["notes"] += 1
        if self.bus_lag is not None:
            self.bus_lag.heard(payload)
        self.on_note(payload)

    async def _every(self, seconds: float, fn: Callable[[], Awaitable[Any]]) -> None:
        while True:
            await asyncio.sleep(seconds * random.uniform(0.7, 1.3))  # processes started together spread out
            try:
                await fn()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001
                log.warning("fleet %s failed: %s", getattr(fn, "__name__", fn), e)

    # -------------------------------------------------------------- telling the others
    def after_commit(self, game_id: str, version: int) -> None:
        """A decision or undo of ours committed: tell the others (in this process's commit order)."""
        if self.bus_lag is not None:
            self.bus_lag.sent(f"{game_id}:{version}")
        self.bus.publish(f"{game_id}:{version}")

    def after_meta(self, game_id: str) -> None:
        """Seats or tokens of ours committed: the others re-read them (not us: ``<process>`` is ours)."""
        self.bus.publish(f"{game_id}:m:{self.tag}")

    def publish_presence(self, game_id: str, seats: set[int], spectators: int) -> None:
        bits = sum(1 << s for s in seats)
        self.bus.publish(f"{game_id}:p:{self.tag}:{bits}:{spectators}")

    def ask_presence(self, game_id: str) -> None:
        self.bus.publish(f"{game_id}:q")

    # -------------------------------------------------------------- reading
    async def read_since(self, game_id: str, seq: int) -> tuple[int | None, list[LogRow]]:
        """The game's version and its log rows after ``seq``, as one snapshot (one statement)."""
        async with self.pool.conn() as c:
            cur = await c.execute(self._sql_since, (seq, game_id))
            got = await cur.fetchall()
        if not got:
            return None, []
        rows = [LogRow(r[1], r[2], r[3], bool(r[4]), bool(r[5])) for r in got if r[1] is not None]
        return got[0][0], rows

    async def read_since_many(self, wanted: list[tuple[str, int]]) -> dict[str, tuple[int, list[LogRow], int]]:
        """For each (game, seq): its version and rows after seq, all in one statement (one snapshot);
        answers game -> (version, rows, the seq asked from)."""
        if not wanted:
            return {}
        values = ", ".join(["(%s::varchar, %s::int)"] * len(wanted))
        sql = (
            f"SELECT w.id, g.version, a.seq, a.seat, a.action, a.undoable, a.undone "
            f"FROM (VALUES {values}) AS w(id, after) JOIN {self._games} g ON g.id = w.id "
            f"LEFT JOIN {self._actions} a ON a.game_id = w.id AND a.seq > w.after ORDER BY w.id, a.seq"
        )
        params = [x for pair in wanted for x in pair]
        async with self.pool.conn() as c:
            cur = await c.execute(sql, params)
            got = await cur.fetchall()
        after = dict(wanted)
        out: dict[str, tuple[int, list[LogRow], int]] = {}
        for r in got:
            entry = out.get(r[0])
            if entry is None:
                entry = out[r[0]] = (r[1], [], after[r[0]])
            if r[2] is not None:
                entry[1].append(LogRow(r[2], r[3], r[4], bool(r[5]), bool(r[6])))
        return out

    async def versions(self, game_ids: list[str]) -> dict[str, int]:
        async with self.pool.conn() as c:
            cur = await c.execute(self._sql_versions, (game_ids,))
            return {r[0]: r[1] for r in await cur.fetchall()}

    async def seats_and_tokens(self, game_id: str) -> tuple[list[tuple], dict[str, int]]:
        async with self.pool.conn() as c:
            seats = await (await c.execute(self._sql_seats, (game_id,))).fetchall()
            tokens = await (await c.execute(self._sql_tokens, (game_id,))).fetchall()
        return list(seats), {h: s for h, s in tokens}

    async def token_seat(self, game_id: str, token_hash: str) -> int | None:
        async with self.pool.conn() as c:
            got = await (await c.execute(self._sql_token, (game_id, token_hash, game_id, token_hash))).fetchone()
        return None if got is None else got[0]

    async def _poll(self) -> None:
        """The safety net under the bus: re-read the versions of the games served here."""
        ids = self._serving()
        if ids:
            for gid, v in (await self.versions(ids[:5000])).items():
                if v is not None:
                    self.on_note(f"{gid}:{v}")

    # -------------------------------------------------------------- leases
    def holds(self, game_id: str) -> bool:
        """Whether this process may make the server's moves in ``game_id`` now."""
        until = self.held.get(game_id)
        return until is not None and until > time.monotonic()

    def note_lease(self, game_id: str, mine: bool, since: float) -> None:
        """What a commit (started at ``since``, monotonic) answered about the lease."""
        if mine:
            self.held[game_id] = since + self.lease_seconds - 1.0  # a second of margin for the clocks' drift
        else:
            self.held.pop(game_id, None)

    async def renew(self) -> None:
        """Extend the leases this process is working on; drop those it lost (a sweeper thought it dead)."""
        ids = [g for g in self._renewing() if g in self.held]
        if not ids:
            return
        t0 = time.monotonic()
        async with self.pool.conn() as c:
            cur = await c.execute(self._sql_renew, (self.lease_seconds, self.me, ids))
            kept = {r[0] for r in await cur.fetchall()}
        for gid in ids:
            if gid in kept:
                self.note_lease(gid, True, t0)
            else:
                self.counts["lost"] += 1
                log.warning("lost the lease of game %s to another process", gid)
                self.held.pop(gid, None)

    async def release(self, game_ids: list[str]) -> None:
        for gid in game_ids:
            self.held.pop(gid, None)
        async with self.pool.conn() as c:
            await c.execute(self._sql_release, (self.me, game_ids))

    async def sweep(self) -> None:
        """Claim the expired leases (their holder died or hung) and let the hub play on there."""
        t0 = time.monotonic()
        async with self.pool.conn() as c:
            cur = await c.execute(self._sql_claim, (self.me, self.lease_seconds))
            claimed = [r[0] for r in await cur.fetchall()]
        for gid in claimed:
            self.counts["claimed"] += 1
            self.note_lease(gid, True, t0)
            try:
                await self._on_claimed(gid)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001
                log.exception("taking over game %s failed; its lease expires again", gid)

    def stats(self) -> dict:
        return {
            "process": self.tag,
            "bus": self.bus.kind,
            "bus_connected": self.bus.connected.is_set(),
            "leases": sum(1 for g in self.held if self.holds(g)),
            **self.counts,
        }
