"""Storage of tables, clocks and the quick-play queue (SQLAlchemy Core, on the store's metadata).

Two tables beside the games (``store.py``):

* ``tables``: one row per game created since tables existed: whether its free seats are
  listed in the lobby (``open``), its speed and rated flag (for the lobby), the running
  clock (each seat's bank, whose time runs since when, the deadline, the game version they
  were computed at), when to look at it again for abandonment (``idle_at``), the seats that
  forfeited in a rated game, and ``claim_until``: a process working on its timeout.
* ``queue``: the people waiting in quick play, one row per ticket (only its sha256 is kept:
  the ticket becomes the seat token when a table is made, so no secret is ever stored).

Every function here runs inside a transaction the caller opened: the writes go through the
hub's group committer as ``("table", fn, store)`` operations (``Store._write`` runs
``fn(connection, store)`` among the other writes of its batch), the reads through
``run_blocking``. Whatever must happen once across server processes is a conditional
``UPDATE ... WHERE`` whose row count says who did it: claiming a timeout, turning a seat into
a bot, ending or closing a game, matching a quick-play group (PostgreSQL: under an advisory
transaction lock per queue).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection

from .store import EXTRA_WRITES, Store, actions_table, games_table, metadata, seats_table

tables_table = Table(
    "redtable_tables",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("open", Boolean, nullable=False),
    Column("speed", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("banks", Text, nullable=True),  # JSON: seconds left per seat (real-time clocks)
    Column("running_seat", Integer, nullable=True),
    Column("running_since", Float, nullable=True),
    Column("deadline", Float, nullable=True),  # wall-clock seconds: the running seat's time is up
    Column("version", BigInteger, nullable=False),  # the game version the clock values belong to
    Column("idle_at", Float, nullable=True),  # look again then: was the table abandoned?
    Column("forfeits", Text, nullable=False),  # JSON: seats of a rated game whose time ran out
    Column("claim_until", Float, nullable=True),  # a process works on this row's deadline until then
    Column("created_at", Float, nullable=False),
    Index("redtable_tables_deadline", "deadline"),
    Index("redtable_tables_idle", "idle_at"),
    Index("redtable_tables_open", "open", "created_at"),
)

queue_table = Table(
    "redtable_queue",
    metadata,
    Column("ticket_hash", String(64), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("speed", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("name", String(64), nullable=True),
    Column("account_id", Integer, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("game_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("matched_at", Float, nullable=True),
    Index("redtable_queue_bucket", "game", "players", "speed", "rated", "created_at"),
)


def _dumps(x: Any) -> str:
    return orjson.dumps(x).decode()


def _run(conn: Connection, op: tuple) -> Any:
    """A ``("table", fn, store)`` write: ``fn`` runs in the batch's transaction."""
    return op[1](conn, op[2])


EXTRA_WRITES["table"] = _run


def ensure_tables(store: Store, idle_seconds: float, now: float) -> None:
    """Create the two tables if missing; active games from before them get a row (no clock,
    not listed), so that they too close when abandoned."""
    with store.engine.begin() as conn:
        if store.dialect == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('redtable.tables'))"))
        metadata.create_all(conn, tables=[tables_table, queue_table])
        g, t = games_table.c, tables_table.c
        missing = (
            select(g.id, g.created_at)
            .where(g.status == "active", ~select(t.game_id).where(t.game_id == g.id).exists())
            .limit(10_000)
        )
        rows = conn.execute(missing).all()
        if rows:
            conn.execute(
                insert(tables_table),
                [new_row(r[0], False, "none", False, max(now, r[1]) + idle_seconds, r[1]) for r in rows],
            )


def new_row(game_id: str, open_: bool, speed: str, rated: bool, idle_at: float, now: float) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "open": open_,
        "speed": speed,
        "rated": rated,
        "banks": None,
        "running_seat": None,
        "running_since": None,
        "deadline": None,
        "version": 0,
        "idle_at": idle_at,
        "forfeits": "[]",
        "claim_until": None,
        "created_at": now,
    }


# ---------------------------------------------------------------------- loading (store.LOAD_HOOKS)
def load_table(conn: Connection, row: Any) -> None:
    """Put a game's table row (if any) in ``row.extra["table"]`` when the store loads the game."""
    got = conn.execute(select(tables_table).where(tables_table.c.game_id == row.id)).mappings().first()
    if got is not None:
        d = dict(got)
        d["banks"] = orjson.loads(d["banks"]) if d["banks"] else None
        d["forfeits"] = orjson.loads(d["forfeits"]) if d["forfeits"] else []
        row.extra["table"] = d


def read_table(store: Store, game_id: str) -> dict[str, Any] | None:
    """A game's table row, its status and result, its seats' kinds (what another process changed)."""
    g, s = games_table.c, seats_table.c
    with store.engine.connect() as conn:
        got = conn.execute(select(tables_table).where(tables_table.c.game_id == game_id)).mappings().first()
        game = conn.execute(select(g.status, g.result, g.finished_at).where(g.id == game_id)).first()
        seats = conn.execute(
            select(s.seat, s.kind, s.bot, s.name, s.joined_at, s.invite_hash).where(s.game_id == game_id)
        ).all()
    if got is None or game is None:
        return None
    d = dict(got)
    d["banks"] = orjson.loads(d["banks"]) if d["banks"] else None
    d["forfeits"] = orjson.loads(d["forfeits"]) if d["forfeits"] else []
    d["status"] = game[0]
    d["result"] = orjson.loads(game[1]) if game[1] else None
    d["finished_at"] = game[2]
    d["seats"] = [tuple(x) for x in seats]
    return d


# ---------------------------------------------------------------------- writes (("table", fn, store) operations)
def insert_table(row: dict[str, Any]):
    def run(conn: Connection, store: Store) -> None:
        conn.execute(insert(tables_table), [row])

    return run


def write_clock(game_id: str, values: dict[str, Any], idle_at: float | None):
    """The clock after a change (never over a newer one: ``version`` only grows)."""
    t = tables_table.c

    def run(conn: Connection, store: Store) -> bool:
        vals: dict[str, Any] = {
            "banks": _dumps(values["banks"]),
            "running_seat": values["running"],
            "running_since": values["since"],
            "deadline": values["deadline"],
            "version": values["version"],
            "claim_until": None,
        }
        if idle_at is not None:
            vals["idle_at"] = idle_at
        r = conn.execute(
            update(tables_table).where(t.game_id == game_id, t.version <= values["version"]).values(**vals)
        )
        return r.rowcount == 1

    return run


def set_idle_at(game_id: str, idle_at: float):
    """When to look at the table again (and the claim on it goes)."""

    def run(conn: Connection, store: Store) -> None:
        conn.execute(
            update(tables_table).where(tables_table.c.game_id == game_id).values(idle_at=idle_at, claim_until=None)
        )

    return run


def claim(game_id: str, version: int, now: float, until: float, what: str):
    """Take the work on a due deadline (``what``: "clock" or "idle") for this process: one
    process wins (the row no longer matches for the others); a process that dies while
    working leaves a claim that expires at ``until``, and another takes it then."""
    t = tables_table.c

    def run(conn: Connection, store: Store) -> bool:
        free = or_(t.claim_until.is_(None), t.claim_until < now)
        if what == "clock":
            cond = and_(t.game_id == game_id, t.version == version, t.deadline.isnot(None), t.deadline <= now, free)
        else:
            cond = and_(t.game_id == game_id, t.idle_at.isnot(None), t.idle_at <= now, free)
        r = conn.execute(update(tables_table).where(cond).values(claim_until=until))
        return r.rowcount == 1

    return run


def seat_to_bot(game_id: str, seat: int, bot: str, forfeit: bool, lease: tuple[str, float] | None):
    """A seat whose time ran out: unrated, its kind becomes a bot; rated (``forfeit``), it is
    added to the forfeits and a bot plays it on, the seat still the account's (ranked last).
    Its running clock stops. Answers (made the change: once across processes, holds the lease).
    ``lease``: (this process, seconds) on PostgreSQL, to play the bot's move at once."""
    t, s = tables_table.c, seats_table.c

    def run(conn: Connection, store: Store) -> tuple[bool, bool]:
        got = conn.execute(
            select(t.forfeits).where(t.game_id == game_id).with_for_update()
        ).first()  # (PostgreSQL: one conversion at a time)
        if got is None:
            return False, False
        forfeits = orjson.loads(got[0]) if got[0] else []
        if forfeit:
            if seat in forfeits:
                return False, False
            forfeits.append(seat)
        else:
            r = conn.execute(
                update(seats_table)
                .where(s.game_id == game_id, s.seat == seat, s.kind == "human")
                .values(kind="bot", bot=bot)
            )
            if r.rowcount != 1:
                return False, False
        conn.execute(
            update(tables_table)
            .where(t.game_id == game_id)
            .values(forfeits=_dumps(forfeits), deadline=None, running_seat=None, running_since=None, claim_until=None)
        )
        leased = take_lease(conn, store, game_id, *lease) if lease is not None else False
        return True, leased

    return run


def lease_for(game_id: str, me: str, seconds: float):
    """:func:`take_lease` as an operation of its own (a table that just filled up, bots first)."""

    def run(conn: Connection, store: Store) -> bool:
        return take_lease(conn, store, game_id, me, seconds)

    return run


def take_lease(conn: Connection, store: Store, game_id: str, me: str, seconds: float) -> bool:
    """PostgreSQL: this process plays the server's moves in ``game_id`` (unless another holds a live lease)."""
    games = store.qualified("redtable_games")
    now = "extract(epoch from clock_timestamp())::float8"
    got = conn.exec_driver_sql(
        f"UPDATE {games} SET lease_holder = %s, lease_until = {now} + %s WHERE id = %s AND status = 'active' "
        f"AND (lease_holder IS NULL OR lease_holder = %s OR lease_until < {now}) RETURNING id",
        (me, float(seconds), game_id, me),
    ).first()
    return got is not None


def end_game(game_id: str, status: str, result: dict[str, Any], now: float):
    """Finish (a forfeit) or close (abandoned) an active game: True for the one call that did it."""
    g, t = games_table.c, tables_table.c

    def run(conn: Connection, store: Store) -> bool:
        r = conn.execute(
            update(games_table)
            .where(g.id == game_id, g.status == "active")
            .values(status=status, finished_at=now, result=_dumps(result), lease_holder=None, lease_until=None)
        )
        if r.rowcount != 1:
            return False
        conn.execute(
            update(tables_table)
            .where(t.game_id == game_id)
            .values(deadline=None, running_seat=None, running_since=None, idle_at=None, claim_until=None, open=False)
        )
        return True

    return run


def fill_seats(game_id: str, seats: dict[int, str]):
    """The creator's bots in the seats nobody took (each only while still free)."""
    s = seats_table.c

    def run(conn: Connection, store: Store) -> list[int]:
        done = []
        for seat, bot in sorted(seats.items()):
            r = conn.execute(
                update(seats_table)
                .where(s.game_id == game_id, s.seat == seat, s.kind == "human", s.joined_at.is_(None))
                .values(kind="bot", bot=bot, invite_hash=None)
            )
            if r.rowcount == 1:
                done.append(seat)
        return done

    return run


def sit(game_id: str, seat: int, token_hash: str, name: str | None, at: float, account: tuple[int, bool] | None):
    """A person takes a free seat of an open table: only while nobody has (one winner across
    processes). ``account``: (id, exclusive) binds the seat to the logged-in account in the same
    transaction (``Store.bind_seat`` of accounts.py: exclusive in a rated game, one seat an account)."""
    s = seats_table.c

    def run(conn: Connection, store: Store) -> bool:
        from .store import tokens_table

        r = conn.execute(
            update(seats_table)
            .where(s.game_id == game_id, s.seat == seat, s.kind == "human", s.joined_at.is_(None))
            .values(joined_at=at, name=name, invite_hash=None)
        )
        if r.rowcount != 1:
            return False
        if account is not None:  # (raises SeatBound: the whole sit is undone)
            store.bind_seat(conn, game_id, seat, account[0], account[1])
        conn.execute(
            insert(tokens_table),
            [{"token_hash": token_hash, "game_id": game_id, "seat": seat, "created_at": at, "revoked_at": None}],
        )
        return True

    return run


# ---------------------------------------------------------------------- reads (run_blocking)
def due(store: Store, now: float, limit: int = 50) -> tuple[list[tuple[str, int]], list[str]]:
    """Active games whose clock ran out (id, version) and whose idle time is up (ids), not claimed."""
    t, g = tables_table.c, games_table.c
    free = or_(t.claim_until.is_(None), t.claim_until < now)
    with store.engine.connect() as conn:
        clocks = conn.execute(
            select(t.game_id, t.version)
            .join(games_table, g.id == t.game_id)
            .where(t.deadline.isnot(None), t.deadline <= now, free, g.status == "active")
            .order_by(t.deadline)
            .limit(limit)
        ).all()
        idle = conn.execute(
            select(t.game_id)
            .join(games_table, g.id == t.game_id)
            .where(t.idle_at.isnot(None), t.idle_at <= now, free, g.status == "active")
            .order_by(t.idle_at)
            .limit(limit)
        ).all()
    return [(r[0], r[1]) for r in clocks], [r[0] for r in idle]


def last_person_act(store: Store, game_id: str, human_seats: Iterable[int]) -> float:
    """When a person last acted at the table: the newest decision of a seat a person holds, a
    seat taken, or the game's creation."""
    a, s, g = actions_table.c, seats_table.c, games_table.c
    seats = list(human_seats)
    with store.engine.connect() as conn:
        created = conn.execute(select(g.created_at).where(g.id == game_id)).scalar() or 0.0
        joined = conn.execute(select(func.max(s.joined_at)).where(s.game_id == game_id)).scalar() or 0.0
        acted = 0.0
        if seats:
            acted = conn.execute(select(func.max(a.at)).where(a.game_id == game_id, a.seat.in_(seats))).scalar() or 0.0
    return max(created, joined, acted)


def zombie_games(store: Store, limit: int = 1000) -> list[str]:
    """Active games with a forfeited seat (a bot plays it on): resumed at start."""
    t, g = tables_table.c, games_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(t.game_id)
            .join(games_table, g.id == t.game_id)
            .where(t.forfeits != "[]", g.status == "active")
            .limit(limit)
        ).all()
    return [r[0] for r in rows]


def open_tables(store: Store, limit: int = 100) -> list[dict[str, Any]]:
    """Active open tables with a free seat, newest first: what the lobby lists."""
    t, g, s = tables_table.c, games_table.c, seats_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(g.id, g.game, g.players, g.created_at, t.rated, t.speed, g.settings)
            .join(tables_table, t.game_id == g.id)
            .where(t.open.is_(True), g.status == "active")
            .order_by(g.created_at.desc())
            .limit(limit)
        ).all()
        ids = [r[0] for r in rows]
        seats: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
        if ids:
            for x in conn.execute(
                select(s.game_id, s.seat, s.kind, s.bot, s.name, s.joined_at)
                .where(s.game_id.in_(ids))
                .order_by(s.game_id, s.seat)
            ):
                seats[x[0]].append(
                    {"seat": x[1], "type": x[2], "bot": x[3], "name": x[4], "joined": x[2] == "bot" or x[5] is not None}
                )
    out = []
    for r in rows:
        seated = sum(1 for x in seats[r[0]] if x["joined"])
        if seated >= r[2]:
            continue
        settings = orjson.loads(r[6]) if r[6] else {}
        out.append(
            {
                "game_id": r[0],
                "game": r[1],
                "players": r[2],
                "seated": seated,
                "created_at": r[3],
                "rated": bool(r[4]),
                "speed": r[5],
                "clock": settings.get("clock"),
                "seats": seats[r[0]],
            }
        )
    return out


def held_seats(store: Store, pairs: list[tuple[str, str]]) -> tuple[dict[tuple[str, str], int], set[str]]:
    """Which of ``pairs`` (game id, token hash) are a live token of a seat, with the seat, and
    which of their games exist: two indexed lookups, so ``POST /api/my/games`` loads a game
    only for a token that is its seat's (never replays a stranger's list of games)."""
    from .store import tokens_table

    if not pairs:
        return {}, set()
    hashes = sorted({h for _, h in pairs})
    ids = sorted({g for g, _ in pairs})
    t, s, g = tokens_table.c, seats_table.c, games_table.c
    found: dict[tuple[str, str], int] = {}
    with store.engine.connect() as conn:
        for gid, th, seat in conn.execute(
            select(t.game_id, t.token_hash, t.seat).where(t.token_hash.in_(hashes), t.revoked_at.is_(None))
        ):
            found[(gid, th)] = seat
        for gid, th, seat in conn.execute(select(s.game_id, s.token_hash, s.seat).where(s.token_hash.in_(hashes))):
            found[(gid, th)] = seat
        games = {r[0] for r in conn.execute(select(g.id).where(g.id.in_(ids)))}
    return {p: found[p] for p in pairs if p in found}, games


def account_games(store: Store, account_id: int, limit: int = 50) -> list[tuple[str, int]]:
    """(game, seat) of the active games whose seat the account holds (``seats.account_id``, accounts.py)."""
    s, g = seats_table.c, games_table.c
    if "account_id" not in seats_table.c:
        return []
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(s.game_id, s.seat)
            .join(games_table, g.id == s.game_id)
            .where(s.account_id == account_id, g.status == "active")
            .order_by(g.created_at.desc())
            .limit(limit)
        ).all()
    return [(r[0], r[1]) for r in rows]


# ---------------------------------------------------------------------- quick play
@dataclass(frozen=True, slots=True)
class Bucket:
    """One queue: people wanting the same title, player count, speed and rating."""

    game: str
    players: int
    speed: str
    rated: bool

    def key(self) -> str:
        return f"redtable.quickplay:{self.game}:{self.players}:{self.speed}:{int(self.rated)}"


@dataclass(frozen=True, slots=True)
class Match:
    """A group the queue made: the new game's id and, per seat, (ticket hash, name, account)."""

    game_id: str
    bucket: Bucket
    seats: list[tuple[str, str | None, int | None]]


def _match_locked(conn: Connection, store: Store, bucket: Bucket, now: float, stale_before: float) -> Match | None:
    """Under the queue's lock: if enough fresh people wait, they become one table (seats drawn at random)."""
    q = queue_table.c
    same = and_(q.game == bucket.game, q.players == bucket.players, q.speed == bucket.speed, q.rated == bucket.rated)
    conn.execute(delete(queue_table).where(same, q.game_id.is_(None), q.seen_at < stale_before))
    rows = conn.execute(
        select(q.ticket_hash, q.name, q.account_id)
        .where(same, q.game_id.is_(None))
        .order_by(q.created_at, q.ticket_hash)
        .limit(bucket.players * 4)
    ).all()
    rows = _apart(conn, rows, bucket.players)
    if len(rows) < bucket.players or (bucket.rated and len({r[2] for r in rows}) < bucket.players):
        return None
    gid = secrets.token_urlsafe(8)
    order = list(range(bucket.players))
    secrets.SystemRandom().shuffle(order)
    seats: list[tuple[str, str | None, int | None]] = [("", None, None)] * bucket.players
    for r, seat in zip(rows, order, strict=True):
        conn.execute(update(queue_table).where(q.ticket_hash == r[0]).values(game_id=gid, seat=seat, matched_at=now))
        seats[seat] = (r[0], r[1], r[2])
    return Match(gid, bucket, seats)


def _apart(conn: Connection, rows: Sequence[Any], n: int) -> list[Any]:
    """The first ``n`` of the waiting ``rows`` (queue order) of whom no account blocks another
    (``friends.py``): two players one of whom blocked the other never share a quick-play table."""
    from .friends import any_block

    picked: list[Any] = []
    for r in rows:
        if len(picked) == n:
            break
        if r[2] is not None and any_block(conn, r[2], [p[2] for p in picked if p[2] is not None]):
            continue
        picked.append(r)
    return picked


def _lock(conn: Connection, store: Store, bucket: Bucket) -> None:
    if store.dialect == "postgresql":  # processes match one queue one at a time
        conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": bucket.key()})


def queue_join(
    bucket: Bucket, ticket_hash: str, name: str | None, account_id: int | None, now: float, stale_before: float
):
    """Wait in ``bucket`` (an account waits there once: a second ticket replaces its first), then match."""

    def run(conn: Connection, store: Store) -> Match | None:
        q = queue_table.c
        _lock(conn, store, bucket)
        if account_id is not None:
            conn.execute(delete(queue_table).where(q.account_id == account_id, q.game_id.is_(None)))
        conn.execute(
            insert(queue_table),
            [
                {
                    "ticket_hash": ticket_hash,
                    "game": bucket.game,
                    "players": bucket.players,
                    "speed": bucket.speed,
                    "rated": bucket.rated,
                    "name": name,
                    "account_id": account_id,
                    "created_at": now,
                    "seen_at": now,
                    "game_id": None,
                    "seat": None,
                    "matched_at": None,
                }
            ],
        )
        return _match_locked(conn, store, bucket, now, stale_before)

    return run


def queue_poll(ticket_hash: str, now: float, stale_before: float):
    """A waiting person is still there: note it, try to match its queue; answers its row and a match."""

    def run(conn: Connection, store: Store) -> tuple[dict[str, Any] | None, Match | None, int]:
        q = queue_table.c
        row = conn.execute(select(queue_table).where(q.ticket_hash == ticket_hash)).mappings().first()
        if row is None:
            return None, None, 0
        entry = dict(row)
        if entry["game_id"] is not None:
            return entry, None, 0
        bucket = Bucket(entry["game"], entry["players"], entry["speed"], bool(entry["rated"]))
        _lock(conn, store, bucket)
        conn.execute(update(queue_table).where(q.ticket_hash == ticket_hash).values(seen_at=now))
        match = _match_locked(conn, store, bucket, now, stale_before)
        waiting = conn.execute(
            select(func.count())
            .select_from(queue_table)
            .where(
                q.game == bucket.game,
                q.players == bucket.players,
                q.speed == bucket.speed,
                q.rated == bucket.rated,
                q.game_id.is_(None),
            )
        ).scalar_one()
        if match is not None:
            entry = dict(conn.execute(select(queue_table).where(q.ticket_hash == ticket_hash)).mappings().one())
        return entry, match, int(waiting)

    return run


def queue_alone(ticket_hash: str, now: float, stale_before: float):
    """A waiting person takes bots for the empty seats (quick play, ``QuickPlay.with_bots``):
    their ticket alone becomes a table, at a seat drawn at random; the others of the queue wait
    on. Answers (the ticket's row, a match of one person or None if it was matched already)."""

    def run(conn: Connection, store: Store) -> tuple[dict[str, Any] | None, Match | None]:
        q = queue_table.c
        row = conn.execute(select(queue_table).where(q.ticket_hash == ticket_hash)).mappings().first()
        if row is None or row["game_id"] is not None or row["seen_at"] < stale_before:
            return (dict(row) if row is not None else None), None
        bucket = Bucket(row["game"], row["players"], row["speed"], bool(row["rated"]))
        _lock(conn, store, bucket)
        gid = secrets.token_urlsafe(8)
        seat = secrets.randbelow(bucket.players)
        r = conn.execute(
            update(queue_table)
            .where(q.ticket_hash == ticket_hash, q.game_id.is_(None))
            .values(game_id=gid, seat=seat, matched_at=now, seen_at=now)
        )
        if r.rowcount != 1:  # (matched with others a moment ago, under the lock)
            got = conn.execute(select(queue_table).where(q.ticket_hash == ticket_hash)).mappings().first()
            return (dict(got) if got is not None else None), None
        seats: list[tuple[str, str | None, int | None]] = [("", None, None)] * bucket.players
        seats[seat] = (ticket_hash, row["name"], row["account_id"])
        entry = dict(conn.execute(select(queue_table).where(q.ticket_hash == ticket_hash)).mappings().one())
        return entry, Match(gid, bucket, seats)

    return run


def queue_leave(ticket_hash: str):
    """Leave the queue: True if the ticket was waiting (a matched one stays: its seat is taken)."""

    def run(conn: Connection, store: Store) -> tuple[bool, dict[str, Any] | None]:
        q = queue_table.c
        r = conn.execute(delete(queue_table).where(q.ticket_hash == ticket_hash, q.game_id.is_(None)))
        if r.rowcount == 1:
            return True, None
        row = conn.execute(select(queue_table).where(q.ticket_hash == ticket_hash)).mappings().first()
        return False, dict(row) if row is not None else None

    return run


def queue_forget(ticket_hashes: list[str]):
    """Matched rows whose people have their seats (or whose game never came): removed."""

    def run(conn: Connection, store: Store) -> None:
        conn.execute(delete(queue_table).where(queue_table.c.ticket_hash.in_(ticket_hashes)))

    return run


def queue_unmatch(game_id: str):
    """A matched table could not be made: its people wait again (their places in the queue kept)."""

    def run(conn: Connection, store: Store) -> None:
        q = queue_table.c
        conn.execute(update(queue_table).where(q.game_id == game_id).values(game_id=None, seat=None, matched_at=None))

    return run


def queue_expire(before: float):
    """Rows nobody polled since ``before`` (matched rows are kept a while for their last poll)."""

    def run(conn: Connection, store: Store) -> None:
        conn.execute(delete(queue_table).where(queue_table.c.seen_at < before))

    return run
