"""Idle PostgreSQL connections of the test process are closed after every test.

PostgreSQL admits 100 clients, shared by both xdist workers and the server processes the
tests start. A store made by a test (or by a server in a test's thread) keeps its pool's
connections until the store is garbage collected, and stores sit in reference cycles
(app -> hub -> store), so the pools of finished tests held dozens of connections and later
tests were refused ("too many clients already"). SQLAlchemy tells of every connection an
engine hands out; the synchronous PostgreSQL pools behind them are remembered (weakly) and,
after each test, their idle connections are closed. A pool stays usable: the next checkout
connects again (a module's shared server pays one connect per test).
"""

from __future__ import annotations

import weakref

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import Pool

_pools: weakref.WeakSet[Pool] = weakref.WeakSet()


def _on_engine_connect(conn: Connection) -> None:
    dialect = conn.engine.dialect
    # (an asyncio engine's connections close on their own event loop, at the app's shutdown)
    if dialect.name == "postgresql" and not dialect.is_async:
        _pools.add(conn.engine.pool)


def install() -> None:
    """Start remembering the pools that hand out PostgreSQL connections (once per process)."""
    if not event.contains(Engine, "engine_connect", _on_engine_connect):
        event.listen(Engine, "engine_connect", _on_engine_connect)


def close_idle() -> None:
    """Close the idle connections of every remembered pool (checked-out ones stay open)."""
    for pool in list(_pools):
        pool.dispose()
