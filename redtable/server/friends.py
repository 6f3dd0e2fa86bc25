"""Friends: whom an account follows, whom it blocks, and the invitations of friends to a table.

The rules (``friends_api.py`` has the endpoints, ``docs/server.md`` the list):

* **Following** is one-sided (as on Lichess): A follows B without B's consent and sees B's
  open tables (to sit at) and live games (to watch) in the lobby, and whether B is at a table
  now. At most :data:`FOLLOWS_MAX` followed accounts.
* **Blocking** is one-sided too, but it works both ways: when A blocks B, B cannot invite A,
  neither of them can sit at a table the other created or sits at (``check_may_sit``: 403
  ``blocked``, the same answer whoever blocked whom, so B learns no more than the refusal
  itself), and neither reads the other's chat lines at a table they share (``hidden_seats``).
  Blocking also ends A's follow of B and every pending invitation between them. At most
  :data:`BLOCKS_MAX` blocked accounts.
* **Invitations** (``redtable_friend_invites``): the creator of a waiting table (its
  ``creator_key``), logged in, invites an account it follows to one empty seat. An invitation
  lives while its table waits: one of a finished or closed table, or whose seat was taken, is
  gone (filtered on every read and deleted then). Bounded: one per seat and per account at a
  table (at most a table's seats), and at most :data:`INVITES_PER_ACCOUNT` pending for one
  account. Accepting takes that seat (``tables.seat_person``: one winner across processes);
  declining deletes it.

Everything here is a blocking storage call (run off the loop with ``run_blocking``); the
tables are on the store's metadata (``schema.MODEL_MODULES``; migration 5 makes them).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

import orjson
from sqlalchemy import Column, Float, Index, Integer, String, Table, and_, delete, func, insert, or_, select
from sqlalchemy.exc import IntegrityError

from .accounts import accounts_table
from .errors import ApiError
from .store import Store, games_table, metadata, seats_table

FOLLOWS_MAX = 500
BLOCKS_MAX = 500
INVITES_PER_ACCOUNT = 20
LISTED_GAMES = 50  # a friends' list names at most this many tables and games

follows_table = Table(
    "redtable_follows",
    metadata,
    Column("follower_id", Integer, primary_key=True, info={"account": True}),
    Column("followee_id", Integer, primary_key=True, info={"account": True}),
    Column("created_at", Float, nullable=False),
    Index("redtable_follows_followee", "followee_id"),
)

blocks_table = Table(
    "redtable_blocks",
    metadata,
    Column("blocker_id", Integer, primary_key=True, info={"account": True}),
    Column("blocked_id", Integer, primary_key=True, info={"account": True}),
    Column("created_at", Float, nullable=False),
    Index("redtable_blocks_blocked", "blocked_id"),
)

invites_table = Table(
    "redtable_friend_invites",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("inviter_id", Integer, nullable=False, info={"account": True}),
    Column("invitee_id", Integer, nullable=False, info={"account": True}),
    Column("created_at", Float, nullable=False),
    Index("redtable_friend_invites_seat", "game_id", "seat", unique=True),
    Index("redtable_friend_invites_who", "game_id", "invitee_id", unique=True),
    Index("redtable_friend_invites_invitee", "invitee_id"),
)

TABLES = ("redtable_follows", "redtable_blocks", "redtable_friend_invites")


def blocked_error() -> ApiError:
    """The one refusal a block causes, whoever blocked whom (it tells nothing more)."""
    return ApiError(403, "blocked", "you cannot play with this player")


def _names(conn: Any, ids: Iterable[int]) -> dict[int, str]:
    ids = sorted(set(ids))
    if not ids:
        return {}
    a = accounts_table.c
    return {r[0]: r[1] for r in conn.execute(select(a.id, a.username).where(a.id.in_(ids)))}


# ---------------------------------------------------------------------- follows and blocks
def follow(store: Store, me: int, other: int) -> bool:
    """``me`` follows ``other`` (True if new); 409 ``follows_full`` past :data:`FOLLOWS_MAX`."""
    f = follows_table.c
    with store.engine.begin() as conn:
        if conn.execute(select(f.follower_id).where(f.follower_id == me, f.followee_id == other)).first():
            return False
        n = conn.execute(select(func.count()).select_from(follows_table).where(f.follower_id == me)).scalar() or 0
        if n >= FOLLOWS_MAX:
            raise ApiError(409, "follows_full", f"you follow {FOLLOWS_MAX} players, the most allowed", n=FOLLOWS_MAX)
        try:
            with conn.begin_nested():
                conn.execute(insert(follows_table).values(follower_id=me, followee_id=other, created_at=time.time()))
        except IntegrityError:  # the same follow at once from two requests
            return False
    return True


def unfollow(store: Store, me: int, other: int) -> bool:
    f = follows_table.c
    with store.engine.begin() as conn:
        return bool(conn.execute(delete(follows_table).where(f.follower_id == me, f.followee_id == other)).rowcount)


def block(store: Store, me: int, other: int) -> bool:
    """``me`` blocks ``other`` (True if new): ``me``'s follow of ``other`` and the pending
    invitations between the two end; 409 ``blocks_full`` past :data:`BLOCKS_MAX`."""
    b, f, i = blocks_table.c, follows_table.c, invites_table.c
    with store.engine.begin() as conn:
        conn.execute(delete(follows_table).where(f.follower_id == me, f.followee_id == other))
        conn.execute(
            delete(invites_table).where(
                or_(
                    and_(i.inviter_id == me, i.invitee_id == other),
                    and_(i.inviter_id == other, i.invitee_id == me),
                )
            )
        )
        if conn.execute(select(b.blocker_id).where(b.blocker_id == me, b.blocked_id == other)).first():
            return False
        n = conn.execute(select(func.count()).select_from(blocks_table).where(b.blocker_id == me)).scalar() or 0
        if n >= BLOCKS_MAX:
            raise ApiError(409, "blocks_full", f"you block {BLOCKS_MAX} players, the most an account may", n=BLOCKS_MAX)
        try:
            with conn.begin_nested():
                conn.execute(insert(blocks_table).values(blocker_id=me, blocked_id=other, created_at=time.time()))
        except IntegrityError:
            return False
    return True


def unblock(store: Store, me: int, other: int) -> bool:
    b = blocks_table.c
    with store.engine.begin() as conn:
        return bool(conn.execute(delete(blocks_table).where(b.blocker_id == me, b.blocked_id == other)).rowcount)


def relation(store: Store, me: int, other: int) -> dict[str, bool]:
    """What ``me`` did to ``other``: follows, blocks (never whether ``other`` blocks ``me``)."""
    b, f = blocks_table.c, follows_table.c
    with store.engine.connect() as conn:
        fol = conn.execute(select(f.follower_id).where(f.follower_id == me, f.followee_id == other)).first()
        blk = conn.execute(select(b.blocker_id).where(b.blocker_id == me, b.blocked_id == other)).first()
    return {"following": fol is not None, "blocking": blk is not None}


def blocked_list(store: Store, me: int) -> list[dict[str, Any]]:
    """The accounts ``me`` blocks, newest first (their names)."""
    b = blocks_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(b.blocked_id, b.created_at).where(b.blocker_id == me).order_by(b.created_at.desc())
        ).all()
        names = _names(conn, (r[0] for r in rows))
    return [{"username": names[r[0]], "since": r[1]} for r in rows if r[0] in names]


def any_block(conn: Any, one: int, others: Iterable[int]) -> bool:
    """Whether ``one`` blocks any of ``others`` or any of them blocks ``one``."""
    others = sorted({x for x in others if x is not None and x != one})
    if not others:
        return False
    b = blocks_table.c
    row = conn.execute(
        select(b.blocker_id)
        .where(
            or_(
                and_(b.blocker_id == one, b.blocked_id.in_(others)),
                and_(b.blocked_id == one, b.blocker_id.in_(others)),
            )
        )
        .limit(1)
    ).first()
    return row is not None


def table_accounts(conn: Any, game_id: str) -> set[int]:
    """The accounts of a table: its seats' bound accounts and its creator's (``settings``)."""
    s, g = seats_table.c, games_table.c
    out = {r[0] for r in conn.execute(select(s.account_id).where(s.game_id == game_id, s.account_id.is_not(None)))}
    raw = conn.execute(select(g.settings).where(g.id == game_id)).scalar()
    creator = orjson.loads(raw).get("creator_account") if raw else None
    if isinstance(creator, int):
        out.add(creator)
    return out


def check_may_sit(store: Store, game_id: str, account_id: int) -> None:
    """403 ``blocked`` if the account and anyone of the table (creator or seated) blocked the other."""
    with store.engine.connect() as conn:
        if any_block(conn, account_id, table_accounts(conn, game_id)):
            raise blocked_error()


def seat_accounts(store: Store, game_id: str) -> list[dict[str, Any]]:
    """The seats of a table that show their account (the seat's name is the account's name, or
    none is given): seat and username, for the table's follow and block buttons. A seat that
    plays under another name keeps its account to itself."""
    s, a = seats_table.c, accounts_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(s.seat, s.name, a.username)
            .join(accounts_table, a.id == s.account_id)
            .where(s.game_id == game_id)
            .order_by(s.seat)
        ).all()
    return [{"seat": r[0], "username": r[2]} for r in rows if r[1] is None or r[1].lower() == r[2].lower()]


def hidden_seats(store: Store, game_id: str) -> dict[int, frozenset[str]]:
    """For each seat of the game, the seats (as chat mute keys) whose lines it never reads: the
    accounts of the two blocked one of the others (both ways)."""
    s, b = seats_table.c, blocks_table.c
    with store.engine.connect() as conn:
        seat_of: dict[int, list[int]] = {}
        for seat, account in conn.execute(
            select(s.seat, s.account_id).where(s.game_id == game_id, s.account_id.is_not(None))
        ):
            seat_of.setdefault(account, []).append(seat)
        if len(seat_of) < 2:
            return {}
        ids = sorted(seat_of)
        pairs = conn.execute(
            select(b.blocker_id, b.blocked_id).where(b.blocker_id.in_(ids), b.blocked_id.in_(ids))
        ).all()
    out: dict[int, set[str]] = {}
    for x, y in pairs:
        for sx in seat_of[x]:
            for sy in seat_of[y]:
                out.setdefault(sx, set()).add(str(sy))
                out.setdefault(sy, set()).add(str(sx))
    return {k: frozenset(v) for k, v in out.items()}


# ---------------------------------------------------------------------- what friends do
def friends_view(store: Store, me: int) -> dict[str, Any]:
    """Whom ``me`` follows (names, newest first; ``seats``: their active seats, for the caller to
    tell who is online and then drop) and their active games: ``tables`` (open, with a free seat:
    to sit at) and ``games`` (every seat taken: to watch). Lessons and private tables are not listed."""
    f, s, g = follows_table.c, seats_table.c, games_table.c
    # tabledb's table, read from the shared metadata (tabledb imports this module: no cycle)
    tables_table = metadata.tables["redtable_tables"]
    t = tables_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(f.followee_id, f.created_at).where(f.follower_id == me).order_by(f.created_at.desc())
        ).all()
        ids = [r[0] for r in rows]
        names = _names(conn, ids)
        found: Sequence[Any] = []
        if ids:
            cols = (g.id, g.game, g.players, g.created_at, g.settings, s.seat, s.account_id, t.open, t.speed, t.rated)
            joined = seats_table.join(games_table, g.id == s.game_id).outerjoin(tables_table, t.game_id == g.id)
            found = conn.execute(
                select(*cols)
                .select_from(joined)
                .where(s.account_id.in_(ids), g.status == "active")
                .order_by(g.created_at.desc())
                .limit(LISTED_GAMES)
            ).all()
        gids = sorted({r[0] for r in found})
        seats: dict[str, list[Any]] = {x: [] for x in gids}
        if gids:
            for r in conn.execute(
                select(s.game_id, s.seat, s.kind, s.name, s.joined_at, s.account_id).where(s.game_id.in_(gids))
            ):
                seats[r[0]].append(r)
    friends: list[dict[str, Any]] = []
    by_id: dict[int, dict[str, Any]] = {}
    for fid, since in rows:
        if fid in names:
            by_id[fid] = {"username": names[fid], "since": since, "seats": []}
            friends.append(by_id[fid])
    tables: dict[str, dict[str, Any]] = {}
    games: dict[str, dict[str, Any]] = {}
    for gid, game, players, created, raw, seat, account, open_, speed, rated in found:
        if account not in by_id:
            continue
        by_id[account]["seats"].append((gid, seat))  # (where the friend may be online: friends_api)
        settings = orjson.loads(raw) if raw else {}
        if settings.get("tutorial"):
            continue
        row = seats[gid]
        free = sum(1 for x in row if x[2] == "human" and x[4] is None)
        entry = {
            "game_id": gid,
            "game": game,
            "players": players,
            "seated": players - free,
            "created_at": created,
            "rated": bool(rated if rated is not None else settings.get("rated")),
            "speed": speed,
            "friends": [],
        }
        target = (tables if open_ else None) if free else games
        if target is None:  # a private table that waits: not listed (its seats are taken by invite)
            continue
        target.setdefault(gid, entry)["friends"].append({"username": by_id[account]["username"], "seat": seat})
    return {"friends": friends, "tables": list(tables.values()), "games": list(games.values())}


# ---------------------------------------------------------------------- invitations
def pending_for_table(conn: Any, game_id: str) -> list[Any]:
    i = invites_table.c
    return conn.execute(select(i.id, i.seat, i.invitee_id).where(i.game_id == game_id)).all()


def add_invite(store: Store, game_id: str, seat: int, inviter: int, invitee: int, *, follow: bool = True) -> int:
    """Store the invitation (the seat's earlier one is replaced); the checks that need the live
    table are the caller's (``friends_api.invite``). 409 ``invites_full`` when the invitee has
    :data:`INVITES_PER_ACCOUNT` pending, 403 ``blocked`` on a block with anyone of the table.
    ``follow=False``: the invitee need not be followed (a bot account is challenged by anyone)."""
    i, f = invites_table.c, follows_table.c
    with store.engine.begin() as conn:
        follows = select(f.follower_id).where(f.follower_id == inviter, f.followee_id == invitee)
        if follow and not conn.execute(follows).first():
            raise ApiError(409, "not_following", "you invite only players you follow: follow them first")
        if any_block(conn, invitee, table_accounts(conn, game_id) | {inviter}):
            raise blocked_error()
        conn.execute(delete(invites_table).where(i.game_id == game_id, or_(i.seat == seat, i.invitee_id == invitee)))
        waiting = conn.execute(select(i.id, i.game_id, i.seat).where(i.invitee_id == invitee)).all()
        keep, gone = _live(conn, waiting)  # (those of tables gone count no more)
        if gone:
            conn.execute(delete(invites_table).where(i.id.in_(gone)))
        if len(keep) >= INVITES_PER_ACCOUNT:
            raise ApiError(
                409,
                "invites_full",
                f"this player has {INVITES_PER_ACCOUNT} invitations waiting already; try again later",
                n=INVITES_PER_ACCOUNT,
            )
        got = conn.execute(
            insert(invites_table).values(
                game_id=game_id, seat=seat, inviter_id=inviter, invitee_id=invitee, created_at=time.time()
            )
        )
        pk = got.inserted_primary_key
        assert pk is not None
        return int(pk[0])


def _live(conn: Any, rows: Sequence[Any]) -> tuple[list[Any], list[int]]:
    """The invitations among ``rows`` (id, game_id, seat, ...) whose table is active and seat still
    free, and the ids of the others (gone: to delete)."""
    if not rows:
        return [], []
    s, g = seats_table.c, games_table.c
    gids = sorted({r[1] for r in rows})
    active = {r[0] for r in conn.execute(select(g.id).where(g.id.in_(gids), g.status == "active"))}
    free = {
        (r[0], r[1])
        for r in conn.execute(
            select(s.game_id, s.seat).where(s.game_id.in_(gids), s.kind == "human", s.joined_at.is_(None))
        )
    }
    keep = [r for r in rows if r[1] in active and (r[1], r[2]) in free]
    kept = {r[0] for r in keep}
    return keep, [r[0] for r in rows if r[0] not in kept]


def invites_for(store: Store, me: int) -> list[dict[str, Any]]:
    """The invitations waiting for ``me``, newest first (those of tables gone are deleted)."""
    i, g = invites_table.c, games_table.c
    with store.engine.begin() as conn:
        rows = conn.execute(
            select(i.id, i.game_id, i.seat, i.inviter_id, i.created_at, g.game, g.players)
            .join(games_table, g.id == i.game_id, isouter=True)
            .where(i.invitee_id == me)
            .order_by(i.created_at.desc())
        ).all()
        keep, gone = _live(conn, rows)
        if gone:
            conn.execute(delete(invites_table).where(i.id.in_(gone)))
        names = _names(conn, (r[3] for r in keep))
    return [
        {
            "invite_id": r[0],
            "game_id": r[1],
            "seat": r[2],
            "from": names.get(r[3]),
            "at": r[4],
            "game": r[5],
            "players": r[6],
        }
        for r in keep
    ]


def invites_of_table(store: Store, game_id: str) -> list[dict[str, Any]]:
    """The pending invitations of a table (for its creator): seat and invitee's name."""
    with store.engine.connect() as conn:
        rows = pending_for_table(conn, game_id)
        names = _names(conn, (r[2] for r in rows))
    out = [{"invite_id": r[0], "seat": r[1], "username": names.get(r[2])} for r in rows]
    return sorted(out, key=lambda x: x["seat"])


def take_invite(store: Store, invite_id: int, me: int) -> tuple[str, int] | None:
    """Remove ``me``'s invitation ``invite_id`` and answer its table and seat (None: no such one)."""
    i = invites_table.c
    with store.engine.begin() as conn:
        row = conn.execute(select(i.game_id, i.seat).where(i.id == invite_id, i.invitee_id == me)).first()
        if row is None:
            return None
        conn.execute(delete(invites_table).where(i.id == invite_id))
    return row[0], row[1]


def withdraw(store: Store, game_id: str, seat: int) -> bool:
    i = invites_table.c
    with store.engine.begin() as conn:
        return bool(conn.execute(delete(invites_table).where(i.game_id == game_id, i.seat == seat)).rowcount)
