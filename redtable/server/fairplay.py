"""Ratings that mean something: accounts of one person are not rated against each other, and a
rated game aborted before every person moved is rated for nobody.

Invariant: a rated game two of whose accounts were seen, within :data:`MARK_DAYS` days, on
the same network prefix (IPv4 /32, IPv6 /64) or with the same device id (``devices.py``) is
never rated. It still plays (its clocks and forfeits as a rated table's), and every reader
of the table is told why it is not rated (``unrated`` in its snapshots) as soon as the
second such account sits, before the table starts.

How an account is "seen": each log-in, registration, sit at an open table, invite taken
and quick-play join notes the request's network prefix and device id for the account
(:func:`note`; rows of ``redtable_account_marks``, one per account and mark, keeping the
last time). When a person takes a seat at a rated table (``TableService.seat_taken``), the
seated accounts' marks are compared in the database (:func:`check_seated`): any one shared
puts the game in ``redtable_unrated`` with the reason, and ``ratings.apply_result`` skips a
game listed there. Both are database rows, so the rule holds whichever process seated whom.

First moves (``redtable_first_moves``: one row per seat of a rated game whose person made a
decision, written once by the process that committed it): a rated table's seat whose time
runs out before every person made a first move *aborts* the game, unrated for everyone
(``tables.py``), so a creator who never came, or a stranger who sat and left, costs nobody
a rating; after that, running out of time is a rated loss for whoever left.

What is stored: a digest, never the address or the id (``sha256`` of the kind and value;
a device id is a 256-bit secret, so its digest reveals nothing; an IPv4 address's digest
could be found by trying all 2^32, so marks older than :data:`MARK_DAYS` are deleted).
"""

from __future__ import annotations

import hashlib
import ipaddress
from typing import Any

from sqlalchemy import Column, Connection, Float, Index, Integer, String, Table, delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from .store import Store, metadata, seats_table

#: How long a network or device seen with an account counts.
MARK_DAYS = 30
#: The reasons a game is not rated, as the page's catalogues name them.
REASONS = ("same_device", "same_network")

marks_table = Table(
    "redtable_account_marks",
    metadata,
    Column("account_id", Integer, primary_key=True),
    Column("kind", String(8), primary_key=True),  # "net" or "dev"
    Column("digest", String(64), primary_key=True),
    Column("last_at", Float, nullable=False),
    Index("redtable_account_marks_digest", "digest"),
)

first_moves_table = Table(
    "redtable_first_moves",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("at", Float, nullable=False),
)

unrated_table = Table(
    "redtable_unrated",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("reason", String(32), nullable=False),
    Column("at", Float, nullable=False),
)


def network_prefix(address: str) -> str | None:
    """The network an address counts as: the address itself (IPv4) or its /64 (IPv6); None if not an address."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _digest(kind: str, value: str) -> str:
    return hashlib.sha256(f"{kind}:{value}".encode()).hexdigest()


def marks_of(address: str, device: str | None) -> list[tuple[str, str]]:
    """A request's marks: (kind, digest) of its network prefix and of its device id, where known."""
    out = []
    net = network_prefix(address)
    if net is not None:
        out.append(("net", _digest("net", net)))
    if device:
        out.append(("dev", _digest("dev", device)))
    return out


def request_marks(conn: Any) -> list[tuple[str, str]]:
    """The marks of an HTTP request (its client address as the app sees it, its device cookie)."""
    from .accounts import client_address
    from .devices import request_device

    return marks_of(client_address(conn), request_device(conn))


async def note_request(request: Any, account: Any) -> None:
    """Note the request's marks for the logged-in ``account`` (nothing for a guest)."""
    import time

    if account is None:
        return
    marks = request_marks(request)
    hub = request.app.state.hub
    if marks:
        await hub.write(hub.tables.op(note(account.id, marks, time.time())), "noting where an account plays")


def ensure(store: Store) -> None:
    """Create the tables where missing (a database from before them)."""
    with store.engine.begin() as conn:
        metadata.create_all(conn, tables=[marks_table, unrated_table, first_moves_table])


def _insert_or_nothing(store: Store, table: Table, row: dict[str, Any]) -> Any:
    ins = pg_insert if store.dialect == "postgresql" else sqlite_insert
    return ins(table).values(**row).on_conflict_do_nothing()


# ---------------------------------------------------------------------- writes (("table", fn, store) operations)
def note(account_id: int, marks: list[tuple[str, str]], now: float):
    """Remember that the account was seen with these marks now (and forget marks older than :data:`MARK_DAYS`)."""

    def run(conn: Connection, store: Store) -> None:
        m = marks_table.c
        for kind, digest in marks:
            row = {"account_id": account_id, "kind": kind, "digest": digest, "last_at": now}
            conn.execute(_insert_or_nothing(store, marks_table, row))
            conn.execute(
                update(marks_table)
                .where(m.account_id == account_id, m.kind == kind, m.digest == digest, m.last_at < now)
                .values(last_at=now)
            )
        conn.execute(delete(marks_table).where(m.account_id == account_id, m.last_at < now - MARK_DAYS * 86400))

    return run


def check_seated(game_id: str, now: float):
    """The reason the game is not rated (listing it in ``redtable_unrated`` the first time), or None.

    Compares the marks of the accounts seated now; a reason found once stays (a person who
    leaves the table does not make it rated again)."""

    def run(conn: Connection, store: Store) -> str | None:
        have = unrated_reason_in(conn, game_id)
        if have is not None:
            return have
        s, m = seats_table.c, marks_table.c
        accounts = {
            r[0]
            for r in conn.execute(
                select(s.account_id).where(s.game_id == game_id, s.account_id.isnot(None), s.joined_at.isnot(None))
            )
        }
        if len(accounts) < 2:
            return None
        seen: dict[tuple[str, str], set[int]] = {}
        rows = conn.execute(
            select(m.account_id, m.kind, m.digest).where(
                m.account_id.in_(sorted(accounts)), m.last_at >= now - MARK_DAYS * 86400
            )
        )
        for account_id, kind, digest in rows:
            seen.setdefault((kind, digest), set()).add(account_id)
        shared = {kind for (kind, _), who in seen.items() if len(who) >= 2}
        if not shared:
            return None
        reason = "same_device" if "dev" in shared else "same_network"
        conn.execute(_insert_or_nothing(store, unrated_table, {"game_id": game_id, "reason": reason, "at": now}))
        return unrated_reason_in(conn, game_id)

    return run


# ---------------------------------------------------------------------- reads
def unrated_reason_in(conn: Connection, game_id: str) -> str | None:
    """Why the game is not rated (``redtable_unrated``), or None, inside a caller's transaction."""
    return conn.execute(select(unrated_table.c.reason).where(unrated_table.c.game_id == game_id)).scalar()


def unrated_reason(store: Store, game_id: str) -> str | None:
    with store.engine.connect() as conn:
        return unrated_reason_in(conn, game_id)


def load_unrated(conn: Connection, row: Any) -> None:
    """A store load hook: the game's unrated reason in ``row.extra["unrated"]``."""
    why = unrated_reason_in(conn, row.id)
    if why is not None:
        row.extra["unrated"] = why


def first_move(game_id: str, seat: int, now: float):
    """A person's first decision at a rated table (once per seat; a second write does nothing)."""

    def run(conn: Connection, store: Store) -> None:
        conn.execute(_insert_or_nothing(store, first_moves_table, {"game_id": game_id, "seat": seat, "at": now}))

    return run


def not_moved(store: Store, game_id: str) -> list[int]:
    """The seats of people (in storage: a forfeited seat a bot plays on is still its person's)
    who have not made a first move."""
    s, f = seats_table.c, first_moves_table.c
    with store.engine.connect() as conn:
        people = {r[0] for r in conn.execute(select(s.seat).where(s.game_id == game_id, s.kind == "human"))}
        moved = {r[0] for r in conn.execute(select(f.seat).where(f.game_id == game_id))}
    return sorted(people - moved)
