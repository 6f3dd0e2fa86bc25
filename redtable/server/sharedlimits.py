"""Token buckets kept in storage, so that a limit holds across every process of a fleet.

The buckets of ``limits.py`` live in one process's memory: behind a load balancer over N
processes a client gets N times its rate. That is harmless for reads and decisions, which cost
little, but not for log-ins and sign-ups, each an argon2 hash, nor for password guessing. Those
buckets (``SHARED_KINDS``) live here, in the database every process of a fleet already shares
(PostgreSQL; SQLite for one process), keyed like the others on the client's network
(``limits.network_key``).

Invariant: a token is taken by one ``UPDATE`` that refills and takes in the same statement,
and only when the refilled bucket holds a whole token, so two processes can never both take
the last one (the database orders the two statements). Rows of buckets that have refilled
hold nothing worth keeping and are pruned as new ones come.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Column, Float, Index, String, Table, case, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from .limits import Rate, network_key
from .store import metadata

SHARED_KINDS = ("login", "register")
KEY_MAX = 64

buckets_table = Table(
    "redtable_rate_buckets",
    metadata,
    Column("kind", String(16), primary_key=True),
    Column("key", String(KEY_MAX), primary_key=True),
    Column("tokens", Float, nullable=False),
    Column("at", Float, nullable=False),  # wall clock (time.time): processes share no monotonic clock
    Index("redtable_rate_buckets_at", "kind", "at"),
)


def take(store: Any, client: str, kind: str, rate: Rate, now: float | None = None) -> float:
    """Take one token of ``kind`` for ``client`` (its network); 0, or the seconds until one is there."""
    now = time.time() if now is None else now
    key = network_key(client)[:KEY_MAX]
    b = buckets_table.c
    refilled = b.tokens + (now - b.at) * rate.per_second
    level = case((refilled > rate.burst, rate.burst), else_=refilled)
    with store.engine.begin() as conn:
        got = conn.execute(
            update(buckets_table).where(b.kind == kind, b.key == key, level >= 1.0).values(tokens=level - 1.0, at=now)
        )
        if got.rowcount == 1:
            return 0.0
        tokens = conn.execute(select(level).where(b.kind == kind, b.key == key)).scalar()
    if tokens is None:  # a new client: a full bucket, less this token
        try:
            with store.engine.begin() as conn:
                conn.execute(insert(buckets_table).values(kind=kind, key=key, tokens=rate.burst - 1.0, at=now))
                prune(conn, kind, rate, now)
            return 0.0
        except IntegrityError:  # another process made the row first: take from it like any other
            return take(store, client, kind, rate, now)
    if rate.per_second <= 0:
        return 3600.0
    return max(1e-3, (1.0 - float(tokens)) / rate.per_second)


def prune(conn: Any, kind: str, rate: Rate, now: float) -> None:
    """Forget the buckets of ``kind`` that have surely refilled (untouched for burst / rate seconds)."""
    if rate.per_second > 0:
        b = buckets_table.c
        conn.execute(delete(buckets_table).where(b.kind == kind, b.at < now - rate.burst / rate.per_second))
