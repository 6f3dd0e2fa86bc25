"""What each client holds, in storage, so that its caps hold across a fleet of processes.

A *client* is an address (``app.client_of``); only a SHA-256 of it under a fixed salt is
stored (:func:`client_key`), never the address: that keeps addresses out of casual reads and
dumps, not from someone with the database who tries every IPv4 address. Three tables, on the
store's metadata:

* ``redtable_client_games``: which client made (or, in quick play, joined the queue for)
  each game. :func:`live_games` counts a client's rows whose game is still ``active``: the
  ``live_games_per_client`` cap, whichever process made the games. Quick play counts too: a
  client that queued twice into one bucket (and so filled a table alone) made that table.
* ``redtable_queue_clients``: the client of each waiting quick-play ticket (by the ticket's
  hash), so that the process which matches a group knows whose the table is, and so that a
  client's waiting tickets count against its cap before any table exists.
* ``redtable_table_guests``: the one seat a guest (no account) took at an open table through
  ``sit``. The primary key (game, client) is the lock: two processes cannot both let one
  address take a second seat of a stranger's table.

A quick-play join checks the count in its own write's transaction; creating a game checks it
just before its write. Requests racing at the same instant (in one process or several) may
each pass the check, so the cap can be passed by the few the ``create`` bucket lets arrive at
once, never by an unbounded number.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import Column, Float, Index, Integer, String, Table, and_, delete, func, insert, select, text
from sqlalchemy.engine import Connection

from .store import Store, games_table, metadata

client_games_table = Table(
    "redtable_client_games",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("client", String(64), primary_key=True),
    Column("created_at", Float, nullable=False),
    Index("redtable_client_games_client", "client"),
)

queue_clients_table = Table(
    "redtable_queue_clients",
    metadata,
    Column("ticket_hash", String(64), primary_key=True),
    Column("client", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Index("redtable_queue_clients_client", "client"),
)

guests_table = Table(
    "redtable_table_guests",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("client", String(64), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

TABLES = [client_games_table, queue_clients_table, guests_table]
_SALT = b"redtable.client:"


def client_key(client: str) -> str:
    """What is stored of an address (a hash: the database holds no address in clear)."""
    return hashlib.sha256(_SALT + client.encode("utf-8", "replace")).hexdigest()


def ensure(store: Store) -> None:
    """Create the tables if missing (processes starting together take turns, as ``tabledb``'s)."""
    with store.engine.begin() as conn:
        if store.dialect == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('redtable.tables'))"))
        metadata.create_all(conn, tables=TABLES)


# ---------------------------------------------------------------------- reads (run_blocking)
def live_games(store: Store, key: str) -> int:
    """The client's unfinished games (any process's), and its tickets waiting in quick play."""
    with store.engine.connect() as conn:
        return _count(conn, key)


def _count(conn: Connection, key: str) -> int:
    """Both counts in one statement (one round trip: it runs inside a quick-play join's write)."""
    from .tabledb import queue_table

    c, g, q, qc = client_games_table.c, games_table.c, queue_table.c, queue_clients_table.c
    games = (
        select(func.count())
        .select_from(client_games_table.join(games_table, g.id == c.game_id))
        .where(c.client == key, g.status == "active")
        .scalar_subquery()
    )
    waiting = (
        select(func.count())
        .select_from(queue_clients_table.join(queue_table, q.ticket_hash == qc.ticket_hash))
        .where(qc.client == key, q.game_id.is_(None))
        .scalar_subquery()
    )
    return int(conn.execute(select(games + waiting)).scalar_one())


def guest_seat(store: Store, game_id: str, key: str) -> int | None:
    """The seat this client took as a guest at this table, if any."""
    t = guests_table.c
    with store.engine.connect() as conn:
        got = conn.execute(select(t.seat).where(t.game_id == game_id, t.client == key)).first()
    return None if got is None else int(got[0])


def queue_clients(store: Store, ticket_hashes: list[str]) -> list[str]:
    """The clients of these tickets (the group a process is making a table for)."""
    qc = queue_clients_table.c
    with store.engine.connect() as conn:
        return [r[0] for r in conn.execute(select(qc.client).where(qc.ticket_hash.in_(ticket_hashes)))]


# ---------------------------------------------------------------------- writes (("table", fn, store) operations)
def made(game_id: str, keys: list[str], at: float):
    """The game counts against each of these clients (deduplicated)."""

    def run(conn: Connection, store: Store) -> None:
        rows = [{"game_id": game_id, "client": k, "created_at": at} for k in sorted(set(keys))]
        if rows:
            conn.execute(insert(client_games_table), rows)

    return run


def queued(ticket_hash: str, key: str, cap: int, at: float, then):
    """A quick-play join in one write: if the client is under its cap of live games
    (``cap``; 0: none), its ticket is recorded and ``then`` (the queue's join) runs, answering
    ``(None, then's answer)``; else nothing is written and the answer is ``(count, None)``."""

    def run(conn: Connection, store: Store) -> tuple[int | None, object]:
        if cap:
            n = _count(conn, key)
            if n >= cap:
                return n, None
        conn.execute(insert(queue_clients_table), [{"ticket_hash": ticket_hash, "client": key, "created_at": at}])
        return None, then(conn, store)

    return run


def forget_queued(before: float):
    """Tickets older than any the queue still keeps (``quickplay.EXPIRE_SECONDS``)."""

    def run(conn: Connection, store: Store) -> None:
        conn.execute(delete(queue_clients_table).where(queue_clients_table.c.created_at < before))

    return run


def claim_guest_seat(game_id: str, key: str, at: float):
    """Reserve this client's one guest seat at the table (the seat is filled in by
    :func:`set_guest_seat`); raises ``IntegrityError`` (the op fails alone) if it holds one
    already, whichever process gave it."""

    def run(conn: Connection, store: Store) -> None:
        conn.execute(insert(guests_table), [{"game_id": game_id, "client": key, "seat": -1, "at": at}])

    return run


def set_guest_seat(game_id: str, key: str, seat: int | None):
    """The seat the claim got, or (None) the claim dropped: no seat was free."""
    t = guests_table.c
    where = and_(t.game_id == game_id, t.client == key)

    def run(conn: Connection, store: Store) -> None:
        if seat is None:
            conn.execute(delete(guests_table).where(where))
        else:
            conn.execute(guests_table.update().where(where).values(seat=seat))

    return run
