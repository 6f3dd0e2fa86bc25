"""The "ready" confirmation of a rated open table: whoever does not confirm in time loses the seat.

Invariant: a rated open table whose last seat was just taken does not start until every
person at it has confirmed (``POST /api/games/{id}/ready``) within :data:`READY_SECONDS`.
At the limit, the seats of those who did not confirm are freed (their device tokens revoked,
their accounts unbound), and the table waits again, listed in the lobby. Why: a rated table
used to start the instant a stranger sat, so its creator, long gone, forfeited on time.

Storage, so that it holds across a fleet: ``redtable_ready_checks`` (one row per table: the
round, its limit, whether everyone confirmed) and ``redtable_ready_seats`` (who confirmed in
which round). A confirmation locks its table's check row first (``FOR UPDATE`` on
PostgreSQL; SQLite has one writer), so exactly one confirmation sees everyone ready and
starts the table; freeing the seats at the limit is a conditional ``UPDATE`` (one process
does it). Every function here runs inside the caller's transaction (``("table", fn, store)``
operations of the group committer, or reads).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, Column, Connection, Float, Integer, String, Table, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from .store import Store, metadata, seats_table, tokens_table

#: Seconds every person has to confirm once a rated open table is full.
READY_SECONDS = 30.0

checks_table = Table(
    "redtable_ready_checks",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("round", Integer, nullable=False),
    Column("until", Float, nullable=True),  # None: this round's limit was acted on
    Column("done", Boolean, nullable=False),  # everyone confirmed: the table started
)

ready_seats_table = Table(
    "redtable_ready_seats",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
)


def ensure(store: Store) -> None:
    with store.engine.begin() as conn:
        metadata.create_all(conn, tables=[checks_table, ready_seats_table])


def _state(conn: Connection, game_id: str) -> dict[str, Any] | None:
    c, r = checks_table.c, ready_seats_table.c
    row = conn.execute(select(c.round, c.until, c.done).where(c.game_id == game_id)).first()
    if row is None:
        return None
    ready = sorted(x[0] for x in conn.execute(select(r.seat).where(r.game_id == game_id, r.round == row.round)))
    return {"round": row.round, "until": row.until, "done": bool(row.done), "ready": ready}


def _locked(conn: Connection, store: Store, game_id: str) -> Any:
    c = checks_table.c
    q = select(c.round, c.until, c.done).where(c.game_id == game_id)
    return conn.execute(q.with_for_update() if store.dialect == "postgresql" else q).first()


def begin(game_id: str, until: float):
    """The table just filled up: a new round of confirmations (None if everyone confirmed once already)."""

    def run(conn: Connection, store: Store) -> dict[str, Any] | None:
        row = _locked(conn, store, game_id)
        if row is not None and row.done:
            return None
        if row is None:
            conn.execute(insert(checks_table).values(game_id=game_id, round=1, until=until, done=False))
        else:
            conn.execute(
                update(checks_table).where(checks_table.c.game_id == game_id).values(round=row.round + 1, until=until)
            )
        return _state(conn, game_id)

    return run


def confirm(game_id: str, seat: int, people: list[int]):
    """``seat`` is ready: (the check's state, whether this confirmation completed it)."""

    def run(conn: Connection, store: Store) -> tuple[dict[str, Any] | None, bool]:
        row = _locked(conn, store, game_id)
        if row is None or row.done or row.until is None:
            return (_state(conn, game_id) if row is not None else None), False
        ins = pg_insert if store.dialect == "postgresql" else sqlite_insert
        conn.execute(
            ins(ready_seats_table).values(game_id=game_id, round=row.round, seat=seat).on_conflict_do_nothing()
        )
        state = _state(conn, game_id)
        assert state is not None
        if not set(people) <= set(state["ready"]):
            return state, False
        conn.execute(update(checks_table).where(checks_table.c.game_id == game_id).values(done=True))
        return {**state, "done": True}, True

    return run


def expire(game_id: str, round_: int, now: float):
    """The limit of ``round_`` passed: free the seats of those who did not confirm, once
    across processes (the seats freed, or None if another process did it, or all confirmed)."""

    def run(conn: Connection, store: Store) -> list[int] | None:
        c, r, s, t = checks_table.c, ready_seats_table.c, seats_table.c, tokens_table.c
        got = conn.execute(
            update(checks_table)
            .where(c.game_id == game_id, c.round == round_, c.done.is_(False), c.until.isnot(None), c.until <= now)
            .values(until=None)
        )
        if got.rowcount != 1:
            return None
        ready = {x[0] for x in conn.execute(select(r.seat).where(r.game_id == game_id, r.round == round_))}
        people = {
            x[0]
            for x in conn.execute(
                select(s.seat).where(s.game_id == game_id, s.kind == "human", s.joined_at.isnot(None))
            )
        }
        freed = sorted(people - ready)
        for seat in freed:
            values: dict[str, Any] = {"joined_at": None, "name": None, "token_hash": None}
            if "account_id" in s:
                values["account_id"] = None
            conn.execute(update(seats_table).where(s.game_id == game_id, s.seat == seat).values(**values))
            conn.execute(
                update(tokens_table)
                .where(t.game_id == game_id, t.seat == seat, t.revoked_at.is_(None))
                .values(revoked_at=now)
            )
        return freed

    return run


# ---------------------------------------------------------------------- reads
def read(store: Store, game_id: str) -> dict[str, Any] | None:
    with store.engine.connect() as conn:
        return _state(conn, game_id)


def load_check(conn: Connection, row: Any) -> None:
    """A store load hook: the table's confirmation in ``row.extra["ready_check"]``."""
    got = _state(conn, row.id)
    if got is not None:
        row.extra["ready_check"] = got


def due(store: Store, now: float, limit: int = 50) -> list[tuple[str, int]]:
    """Confirmations whose limit passed and nobody acted on: (game id, round)."""
    c = checks_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(c.game_id, c.round)
            .where(c.done.is_(False), c.until.isnot(None), c.until <= now)
            .order_by(c.until)
            .limit(limit)
        ).all()
    return [(x[0], x[1]) for x in rows]
