"""Moderation: roles, reports, sanctions, the audit log, site notices (storage and rules).

``moderation_api.py`` serves it over HTTP; ``redtable admin`` (``admincli.py``) grants roles
and sets the site notices from the server's database. Everything is in the database, so a
change made through one process of a fleet holds on every other at its next check: a
sanction is read when an account writes (a chat line, a new table, a seat), the maintenance
flag when a table is created, the banner when a page loads.

* **Roles** (``redtable_roles``): ``moderator`` (reads reports, acts on players, tables and
  chat messages) and ``admin`` (all of that, the audit log and the site notices). A role is
  never shown to anyone but its holder.
* **Reports** (``redtable_reports``): a player, a chat message or a table, by an account or a
  guest (keyed on its network, as the chat keys a spectator's rate), with a reason from
  :data:`REASONS` and a note of at most :data:`NOTE_MAX` characters; one per reporter and
  target (a second is 409 ``already_reported``).
* **Sanctions** (``redtable_sanctions``): ``mute`` (no chat line anywhere), ``suspend`` (no
  chat, no new table, no seat, no account write; its sessions end and its running seats are
  played by a bot) and ``ban`` (a suspension without end that also refuses logging in). Each
  until a time, or (``until`` NULL) until lifted.
* **Audit log** (``redtable_mod_actions``): every action with who, when, what, on whom and
  why. Admins read it; nothing deletes it.
* **Player notices** (``redtable_player_notices``): what was done to an account and why, shown
  on its next page load (and at once on its open sockets here).
* **Site** (``redtable_site``): the announcement banner and the maintenance flag.
"""

from __future__ import annotations

import time
import unicodedata
from typing import Any

import orjson
from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .accounts import accounts_table, sessions_table, username_key
from .errors import ApiError, clip
from .sanctions import active_sanctions, sanctions_table
from .store import Store, metadata

ROLES = ("moderator", "admin")
REASONS = ("cheating", "chat_abuse", "stalling", "bad_name", "other")
KINDS = ("player", "message", "table")
ACTIONS = (
    "warn",
    "mute",
    "unmute",
    "suspend",
    "unsuspend",
    "ban",
    "unban",
    "remove_message",
    "close_table",
    "undo_ratings",
)
NOTE_MAX = 500  # characters of a report's note
REASON_MAX = 500  # characters of a moderator's reason
BANNER_MAX = 300  # characters of the site's banner
MINUTES_MAX = 366 * 24 * 60  # the longest timed sanction (a year); longer: none (until lifted)

roles_table = Table(
    "redtable_roles",
    metadata,
    Column("account_id", Integer, primary_key=True),
    Column("role", String(16), primary_key=True),
    Column("granted_at", Float, nullable=False),
    Column("granted_by", String(64), nullable=True),
)

reports_table = Table(
    "redtable_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter", String(80), nullable=False),  # "a:<account id>" or "n:<network>" (a guest)
    Column("reporter_account_id", Integer, nullable=True),
    Column("kind", String(12), nullable=False),  # player, message, table
    Column("target", String(80), nullable=False),  # "a:<id>", "s:<game>:<seat>", "m:<chat id>", "g:<game>"
    Column("target_account_id", Integer, nullable=True),
    Column("game_id", String(32), nullable=True),
    Column("chat_id", Integer, nullable=True),
    Column("reason", String(16), nullable=False),
    Column("note", Text, nullable=True),
    Column("status", String(12), nullable=False),  # open, resolved, dismissed
    Column("created_at", Float, nullable=False),
    Column("closed_at", Float, nullable=True),
    Column("closed_by", Integer, nullable=True),
    UniqueConstraint("reporter", "target", name="redtable_reports_once"),
    Index("redtable_reports_status", "status", "created_at"),
    Index("redtable_reports_target_account", "target_account_id"),
)

actions_table = Table(
    "redtable_mod_actions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("actor_id", Integer, nullable=True),  # None: the command line
    Column("actor", String(64), nullable=False),  # the moderator's name, or "cli"
    Column("action", String(20), nullable=False),
    Column("account_id", Integer, nullable=True),  # the account acted on
    Column("game_id", String(32), nullable=True),
    Column("chat_id", Integer, nullable=True),
    Column("report_id", Integer, nullable=True),
    Column("until", Float, nullable=True),
    Column("reason", Text, nullable=False),
    Column("detail", Text, nullable=True),  # JSON: what the action changed
    Index("redtable_mod_actions_account", "account_id", "at"),
)

notices_table = Table(
    "redtable_player_notices",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, nullable=False),
    Column("action", String(20), nullable=False),
    Column("reason", Text, nullable=False),
    Column("until", Float, nullable=True),
    Column("game_id", String(32), nullable=True),
    Column("at", Float, nullable=False),
    Column("seen_at", Float, nullable=True),
    Index("redtable_player_notices_account", "account_id", "seen_at"),
)

site_table = Table(
    "redtable_site",
    metadata,
    Column("key", String(32), primary_key=True),  # banner, maintenance
    Column("value", Text, nullable=True),
    Column("updated_at", Float, nullable=False),
    Column("updated_by", String(64), nullable=True),
)


# ---------------------------------------------------------------------- roles
def role_of(store: Store, account_id: int) -> str | None:
    """The account's highest role (admin, then moderator), or None."""
    r = roles_table.c
    with store.engine.connect() as conn:
        have = {x[0] for x in conn.execute(select(r.role).where(r.account_id == account_id))}
    return "admin" if "admin" in have else "moderator" if "moderator" in have else None


def may(role: str | None, need: str) -> bool:
    """Whether ``role`` holds the rights of ``need`` (an admin holds a moderator's)."""
    return role == "admin" or (role == need == "moderator")


def grant(store: Store, account_id: int, role: str, by: str) -> bool:
    """Give the role (True), or False if the account had it."""
    try:
        with store.engine.begin() as conn:
            conn.execute(
                insert(roles_table).values(account_id=account_id, role=role, granted_at=time.time(), granted_by=by)
            )
    except IntegrityError:
        return False
    return True


def revoke(store: Store, account_id: int, role: str) -> bool:
    r = roles_table.c
    with store.engine.begin() as conn:
        return bool(conn.execute(delete(roles_table).where(r.account_id == account_id, r.role == role)).rowcount)


# ---------------------------------------------------------------------- site notices
def site(store: Store) -> dict[str, Any]:
    """The banner (None: none) and whether the site is in maintenance."""
    t = site_table.c
    with store.engine.connect() as conn:
        rows = dict(conn.execute(select(t.key, t.value)).all())
    return {"banner": rows.get("banner") or None, "maintenance": rows.get("maintenance") == "on"}


def set_site(store: Store, key: str, value: str | None, by: str) -> None:
    t = site_table.c
    with store.engine.begin() as conn:
        got = conn.execute(
            update(site_table).where(t.key == key).values(value=value, updated_at=time.time(), updated_by=by)
        )
        if not got.rowcount:
            try:
                with conn.begin_nested():
                    conn.execute(insert(site_table).values(key=key, value=value, updated_at=time.time(), updated_by=by))
            except IntegrityError:  # another process made the row first: ours wins
                conn.execute(
                    update(site_table).where(t.key == key).values(value=value, updated_at=time.time(), updated_by=by)
                )


def clean(text: Any, limit: int, what: str) -> str:
    """A note, a reason or a banner as stored: plain text, NFC, without invisible or
    direction-changing characters, white space collapsed; 422 if empty, too long or odd
    (``textrules.py``, as a chat line)."""
    from .textrules import problem

    if not isinstance(text, str):
        raise ApiError(422, "malformed", f"the {what} must be a string of 1-{limit} characters")
    text = unicodedata.normalize("NFC", text)
    kept = "".join(ch for ch in text if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    out = " ".join(kept.split())
    if not out:
        raise ApiError(422, "empty_text", f"the {what} is empty", field=what)
    if len(out) > limit:
        raise ApiError(
            422, "text_too_long", f"the {what} is at most {limit} characters, got {len(out)}", max=limit, field=what
        )
    bad = problem(out)
    if bad is not None:
        raise ApiError(422, "bad_text", f"the {what} may not hold {bad}", field=what)
    return out


def check_banner(text: Any) -> str | None:
    """A banner's text once cleaned (None or blank: no banner)."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return None
    return clean(text, BANNER_MAX, "banner")


def maintenance_error() -> ApiError:
    return ApiError(
        503,
        "maintenance",
        "the server is in maintenance: no new tables for now (games under way go on)",
        retry_after=300,
        headers={"Retry-After": "300"},
    )


# ---------------------------------------------------------------------- reports
def report_target(store: Store, kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """Resolve what a report names: its target key, account, game and chat message (or 404/422)."""
    from .chat import chat_table
    from .store import games_table, seats_table

    with store.engine.connect() as conn:
        if kind == "player":
            username, game_id, seat = body.get("username"), body.get("game_id"), body.get("seat")
            if username is not None:
                a = accounts_table.c
                acct = conn.execute(select(a.id).where(a.username_key == username_key(str(username)))).scalar()
                if acct is None:
                    raise ApiError(404, "unknown_player", f"no player named {clip(username, 40)}")
                return {"target": f"a:{acct}", "account_id": acct, "game_id": game_id, "chat_id": None}
            if game_id is None or seat is None:
                raise ApiError(
                    422, "bad_report", "a player is named by 'username', or by 'game_id' and 'seat' (at a table)"
                )
            s = seats_table.c
            row = conn.execute(select(s.kind, s.account_id).where(s.game_id == game_id, s.seat == seat)).first()
            if row is None:
                raise ApiError(404, "unknown_seat", f"no seat {clip(seat, 10)} at table {clip(game_id, 40)}")
            if row.kind == "bot" and row.account_id is None:
                raise ApiError(422, "bad_report", "that seat is a bot's: report the table instead")
            acct = row.account_id
            target = f"a:{acct}" if acct is not None else f"s:{game_id}:{seat}"
            return {"target": target, "account_id": acct, "game_id": game_id, "chat_id": None}
        if kind == "message":
            chat_id = body.get("chat_id")
            if chat_id is None:
                raise ApiError(422, "bad_report", "a chat message is named by its 'chat_id'")
            c = chat_table.c
            msg = conn.execute(select(c.game_id, c.seat, c.author, c.guest).where(c.id == chat_id)).first()
            if msg is None:
                raise ApiError(404, "unknown_message", f"no chat message {clip(chat_id, 20)}")
            acct = None
            if msg.seat is not None:
                s = seats_table.c
                acct = conn.execute(select(s.account_id).where(s.game_id == msg.game_id, s.seat == msg.seat)).scalar()
            elif not msg.guest and msg.author:
                a = accounts_table.c
                acct = conn.execute(select(a.id).where(a.username_key == username_key(msg.author))).scalar()
            return {"target": f"m:{chat_id}", "account_id": acct, "game_id": msg.game_id, "chat_id": chat_id}
        game_id = body.get("game_id")
        if game_id is None:
            raise ApiError(422, "bad_report", "a table is named by its 'game_id'")
        if conn.execute(select(games_table.c.id).where(games_table.c.id == game_id)).scalar() is None:
            raise ApiError(404, "unknown_game", f"no game with id {clip(game_id, 40)}")
        return {"target": f"g:{game_id}", "account_id": None, "game_id": game_id, "chat_id": None}


def file_report(
    store: Store,
    reporter: str,
    reporter_account: int | None,
    kind: str,
    target: dict[str, Any],
    reason: str,
    note: str | None,
) -> int:
    """Store a report (its id); a second one by the same reporter on the same target is 409."""
    if reporter_account is not None and target["account_id"] == reporter_account:
        raise ApiError(422, "bad_report", "you cannot report yourself")
    try:
        with store.engine.begin() as conn:
            got = conn.execute(
                insert(reports_table).values(
                    reporter=reporter,
                    reporter_account_id=reporter_account,
                    kind=kind,
                    target=target["target"],
                    target_account_id=target["account_id"],
                    game_id=target["game_id"],
                    chat_id=target["chat_id"],
                    reason=reason,
                    note=note,
                    status="open",
                    created_at=time.time(),
                )
            )
    except IntegrityError:
        raise ApiError(409, "already_reported", "you reported this already; a moderator will look at it") from None
    pk = got.inserted_primary_key
    assert pk is not None
    return int(pk[0])


def _names(conn: Connection, ids: set[int]) -> dict[int, str]:
    a = accounts_table.c
    ids = {i for i in ids if i is not None}
    if not ids:
        return {}
    return dict(conn.execute(select(a.id, a.username).where(a.id.in_(ids))).all())


def _report_json(r: Any, names: dict[int, str]) -> dict[str, Any]:
    return {
        "report_id": r.id,
        "kind": r.kind,
        "target": r.target,
        "account": names.get(r.target_account_id) if r.target_account_id is not None else None,
        "game_id": r.game_id,
        "chat_id": r.chat_id,
        "reason": r.reason,
        "note": r.note,
        "status": r.status,
        "reporter": names.get(r.reporter_account_id) if r.reporter_account_id is not None else None,
        "reporter_guest": r.reporter_account_id is None,
        "created_at": r.created_at,
        "closed_at": r.closed_at,
        "replay": f"/#/replay/{r.game_id}" if r.game_id else None,
    }


def list_reports(store: Store, status: str, limit: int = 100) -> list[dict[str, Any]]:
    r = reports_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(reports_table).where(r.status == status).order_by(r.created_at.desc()).limit(limit)
        ).all()
        names = _names(conn, {x.target_account_id for x in rows} | {x.reporter_account_id for x in rows})
    return [_report_json(x, names) for x in rows]


def report_context(store: Store, report_id: int, around: int = 5) -> dict[str, Any]:
    """A report with what a moderator needs: the chat around the message (removed lines with their
    text), the game's replay link, the account's other reports and the actions taken on it."""
    from .chat import chat_table

    r = reports_table.c
    with store.engine.connect() as conn:
        row = conn.execute(select(reports_table).where(r.id == report_id)).first()
        if row is None:
            raise ApiError(404, "unknown_report", f"no report {report_id}")
        names = _names(conn, {row.target_account_id, row.reporter_account_id})
        out = _report_json(row, names)
        chat: list[dict[str, Any]] = []
        if row.game_id:
            c = chat_table.c
            cols = (c.id, c.channel, c.seat, c.author, c.guest, c.text, c.step, c.at, c.removed_at)
            if row.chat_id is not None:
                before = conn.execute(
                    select(*cols)
                    .where(c.game_id == row.game_id, c.id <= row.chat_id)
                    .order_by(c.id.desc())
                    .limit(around + 1)
                ).all()
                after = conn.execute(
                    select(*cols).where(c.game_id == row.game_id, c.id > row.chat_id).order_by(c.id).limit(around)
                ).all()
                rows = [*reversed(before), *after]
            else:
                rows = list(
                    reversed(
                        conn.execute(
                            select(*cols).where(c.game_id == row.game_id).order_by(c.id.desc()).limit(2 * around)
                        ).all()
                    )
                )
            chat = [
                {
                    "chat_id": m.id,
                    "channel": m.channel,
                    "seat": m.seat,
                    "author": m.author,
                    "guest": bool(m.guest),
                    "text": m.text,
                    "step": m.step,
                    "at": m.at,
                    "removed": m.removed_at is not None,
                    "reported": m.id == row.chat_id,
                }
                for m in rows
            ]
        out["chat"] = chat
        acct = row.target_account_id
        out["account_reports"] = []
        out["account_actions"] = []
        if acct is not None:
            others = conn.execute(
                select(reports_table)
                .where(r.target_account_id == acct, r.id != report_id)
                .order_by(r.created_at.desc())
                .limit(20)
            ).all()
            more = _names(conn, {x.reporter_account_id for x in others} | {acct})
            out["account_reports"] = [_report_json(x, {**names, **more}) for x in others]
            a = actions_table.c
            acts = conn.execute(select(actions_table).where(a.account_id == acct).order_by(a.at.desc()).limit(20)).all()
            out["account_actions"] = [_action_json(x, more) for x in acts]
            out["sanctions"] = {
                k: {"until": v.until, "reason": v.reason} for k, v in active_sanctions(store, acct).items()
            }
    return out


def close_report(store: Store, report_id: int, status: str, by: int) -> bool:
    r = reports_table.c
    with store.engine.begin() as conn:
        got = conn.execute(
            update(reports_table)
            .where(r.id == report_id, r.status == "open")
            .values(status=status, closed_at=time.time(), closed_by=by)
        )
        if got.rowcount:
            return True
        if conn.execute(select(r.id).where(r.id == report_id)).scalar() is None:
            raise ApiError(404, "unknown_report", f"no report {report_id}")
    return False


# ---------------------------------------------------------------------- the audit log
def _action_json(x: Any, names: dict[int, str]) -> dict[str, Any]:
    return {
        "action_id": x.id,
        "at": x.at,
        "actor": x.actor,
        "action": x.action,
        "account": names.get(x.account_id) if x.account_id is not None else None,
        "game_id": x.game_id,
        "chat_id": x.chat_id,
        "report_id": x.report_id,
        "until": x.until,
        "reason": x.reason,
        "detail": orjson.loads(x.detail) if x.detail else None,
    }


def audit(store: Store, limit: int = 100, before: int | None = None) -> list[dict[str, Any]]:
    a = actions_table.c
    q = select(actions_table)
    if before is not None:
        q = q.where(a.id < before)
    with store.engine.connect() as conn:
        rows = conn.execute(q.order_by(a.id.desc()).limit(limit)).all()
        names = _names(conn, {x.account_id for x in rows})
    return [_action_json(x, names) for x in rows]


def record_action(
    store: Store,
    *,
    actor_id: int | None,
    actor: str,
    action: str,
    reason: str,
    account_id: int | None = None,
    game_id: str | None = None,
    chat_id: int | None = None,
    report_id: int | None = None,
    until: float | None = None,
    detail: dict[str, Any] | None = None,
    sanction: str | None = None,
    lift: str | None = None,
    notice: bool = False,
    end_sessions: bool = False,
) -> int:
    """One action in one transaction: its audit row, the sanction set or lifted, the player's
    notice, its sessions ended. Answers the audit row's id."""
    now = time.time()
    with store.engine.begin() as conn:
        got = conn.execute(
            insert(actions_table).values(
                at=now,
                actor_id=actor_id,
                actor=actor,
                action=action,
                account_id=account_id,
                game_id=game_id,
                chat_id=chat_id,
                report_id=report_id,
                until=until,
                reason=reason,
                detail=orjson.dumps(detail).decode() if detail else None,
            )
        )
        pk = got.inserted_primary_key
        assert pk is not None
        action_id = int(pk[0])
        s = sanctions_table.c
        if sanction is not None and account_id is not None:
            conn.execute(delete(sanctions_table).where(s.account_id == account_id, s.kind == sanction))
            conn.execute(
                insert(sanctions_table).values(
                    account_id=account_id, kind=sanction, until=until, reason=reason, action_id=action_id, at=now
                )
            )
        if lift is not None and account_id is not None:
            conn.execute(delete(sanctions_table).where(s.account_id == account_id, s.kind == lift))
        if notice and account_id is not None:
            conn.execute(
                insert(notices_table).values(
                    account_id=account_id, action=action, reason=reason, until=until, game_id=game_id, at=now
                )
            )
        if end_sessions and account_id is not None:
            conn.execute(delete(sessions_table).where(sessions_table.c.account_id == account_id))
    return action_id


def unseen_notices(store: Store, account_id: int) -> list[dict[str, Any]]:
    n = notices_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(notices_table).where(n.account_id == account_id, n.seen_at.is_(None)).order_by(n.id).limit(20)
        ).all()
    return [
        {"notice_id": x.id, "action": x.action, "reason": x.reason, "until": x.until, "game_id": x.game_id, "at": x.at}
        for x in rows
    ]


def mark_seen(store: Store, account_id: int, ids: list[int]) -> int:
    n = notices_table.c
    with store.engine.begin() as conn:
        return (
            conn.execute(
                update(notices_table)
                .where(n.account_id == account_id, n.id.in_(ids), n.seen_at.is_(None))
                .values(seen_at=time.time())
            ).rowcount
            or 0
        )


# ---------------------------------------------------------------------- chat messages
def remove_message(store: Store, chat_id: int) -> str | None:
    """Mark a chat line removed (its text is kept for the moderators); its game, or None if unknown."""
    from .chat import chat_table

    c = chat_table.c
    with store.engine.begin() as conn:
        game_id = conn.execute(select(c.game_id).where(c.id == chat_id)).scalar()
        if game_id is None:
            return None
        conn.execute(update(chat_table).where(c.id == chat_id, c.removed_at.is_(None)).values(removed_at=time.time()))
    return str(game_id)


# ---------------------------------------------------------------------- ratings
def undo_ratings(store: Store, game_id: str) -> dict[str, Any]:
    """Take a rated game's rating changes back: the game is marked (``settings.ratings_undone``), its
    history rows go, and every rating of its title is recomputed from the remaining rated games in
    the order they were rated, so the players who met its players later move as if it had never
    been rated. Answers the accounts whose ratings changed, before and after."""
    from .ratings import MODEL, bot_rating, history_table, ordinal, places_of, rate, ratings_table, seat_keys
    from .store import games_table, seats_table

    g, h, r, s = games_table.c, history_table.c, ratings_table.c, seats_table.c
    with store.engine.begin() as conn:
        row = conn.execute(select(g.game, g.settings, g.rated_at).where(g.id == game_id).with_for_update()).first()
        if row is None:
            raise ApiError(404, "unknown_game", f"no game with id {clip(game_id, 40)}")
        settings = orjson.loads(row.settings) if row.settings else {}
        if settings.get("ratings_undone"):
            raise ApiError(409, "ratings_already_undone", "this game's rating changes were undone already")
        had = conn.execute(select(func.count()).select_from(history_table).where(h.game_id == game_id)).scalar()
        if not had:
            raise ApiError(409, "not_rated", "this game moved no rating: there is nothing to undo")
        title = row.game
        settings["ratings_undone"] = True
        conn.execute(update(games_table).where(g.id == game_id).values(settings=orjson.dumps(settings).decode()))
        conn.execute(
            select(accounts_table.c.id).order_by(accounts_table.c.id).with_for_update()
        )  # no game is rated while the title is recomputed (apply_result locks its accounts too)
        before = {
            (x.player): (x.mu, x.sigma)
            for x in conn.execute(select(r.player, r.mu, r.sigma).where(r.title == title, r.account_id.is_not(None)))
        }
        conn.execute(delete(history_table).where(h.game_id == game_id))
        # the remaining rated games of the title, in the order they were rated
        games = conn.execute(
            select(h.game_id, func.min(h.at).label("at"), func.min(h.id).label("first"))
            .where(h.title == title)
            .group_by(h.game_id)
            .order_by("at", "first")
        ).all()
        current: dict[str, tuple[float, float]] = {}
        counts: dict[str, int] = {}
        owners: dict[str, int] = {}
        for game in games:
            gid = game.game_id
            grow = conn.execute(select(g.players, g.result).where(g.id == gid)).one()
            hist = {x.player: x for x in conn.execute(select(history_table).where(h.game_id == gid))}
            seats = conn.execute(
                select(s.seat, s.kind, s.bot, s.account_id).where(s.game_id == gid).order_by(s.seat)
            ).all()
            key_of = seat_keys(conn, seats)[1]  # (bot accounts: their own rows, ratings.py)
            places = places_of(orjson.loads(grow.result), grow.players)
            teams: list[tuple[float, float]] = []
            keys: list[str | None] = []
            for x in seats:
                if x.kind == "bot":
                    teams.append(bot_rating(title, x.bot or "random"))
                    keys.append(None)
                elif x.account_id is None:  # a deleted account's seat: at the prior, as ratings.apply_result ranks it
                    teams.append((MODEL.mu, MODEL.sigma))
                    keys.append(None)
                else:
                    key = key_of(x.account_id)
                    teams.append(current.get(key, (MODEL.mu, MODEL.sigma)))
                    keys.append(key)
                    owners[key] = x.account_id
            after = rate(teams, places)
            for k, (mu0, s0), (mu1, s1), place in zip(keys, teams, after, places, strict=True):
                if k is None:
                    continue
                current[k] = (mu1, s1)
                counts[k] = counts.get(k, 0) + 1
                hr = hist.get(k)
                if hr is not None:
                    conn.execute(
                        update(history_table)
                        .where(h.id == hr.id)
                        .values(mu_before=mu0, sigma_before=s0, mu_after=mu1, sigma_after=s1, place=place)
                    )
        now = time.time()
        for key in before:
            if key not in current:
                conn.execute(delete(ratings_table).where(r.player == key, r.title == title))
        for key, (mu, sigma) in current.items():
            values = {"mu": mu, "sigma": sigma, "ordinal": ordinal(mu, sigma), "games": counts[key], "updated_at": now}
            if key in before:
                conn.execute(update(ratings_table).where(r.player == key, r.title == title).values(**values))
            else:
                conn.execute(
                    insert(ratings_table).values(player=key, title=title, account_id=owners[key], bot=None, **values)
                )
    changed = {
        key: {
            "before": list(before.get(key, (MODEL.mu, MODEL.sigma))),
            "after": list(current.get(key, (MODEL.mu, MODEL.sigma))),
        }
        for key in set(before) | set(current)
        if before.get(key) != current.get(key)
    }
    return {"game_id": game_id, "title": title, "changed": changed}
