"""What ``GET /api/account/export`` answers: everything the server keeps about one account, as JSON.

Sections: ``profile`` (name, id, when made, roles), ``email`` (address, verified, language),
``settings`` (the rows of every other table keyed by the account: :func:`other_rows`, so a
table added later is in the export with no change here; never a secret column),
``games`` (each seat it held: game, title, dates, seat, name, result, place, rating change),
``ratings`` (current, per title, against people and against bots), ``rating_history``,
``chat`` (lines it wrote at its seats and as a logged-in spectator), ``reports_filed``,
``moderation_notices`` (what moderators told it) and ``sessions`` (how many, when made).

Secrets stay out: password hash, session and link tokens (only their count and dates), push
subscription endpoints and keys (a capability: whoever holds it can push to the browser).
"""

from __future__ import annotations

import time
from typing import Any

import orjson
from sqlalchemy import Column, Table, select

from .erasure import account_columns, chat_lines
from .ratings import history_table, ordinal, player_key, ratings_table
from .store import Store, games_table, metadata, seats_table

#: Tables shown in their own section (or not at all: secrets), never again under ``settings``.
OWN_SECTION = frozenset(
    {
        "redtable_accounts",
        "redtable_seats",
        "redtable_emails",
        "redtable_email_tokens",
        "redtable_sessions",
        "redtable_ratings",
        "redtable_rating_history",
        "redtable_reports",
        "redtable_player_notices",
        "redtable_roles",
        "redtable_mod_actions",
        "redtable_known_devices",
        "redtable_account_marks",
        "redtable_queue",
    }
)
#: Column names never exported (secrets, or capabilities such as a push endpoint).
SECRET_WORDS = ("hash", "token", "password", "secret", "endpoint", "p256dh", "auth", "key", "digest")


def _secret(column: Column) -> bool:
    return any(w in column.name for w in SECRET_WORDS)


def _rows(conn: Any, table: Table, where: Any) -> list[dict[str, Any]]:
    cols = [c for c in table.columns if not _secret(c)]
    return [{str(k): v for k, v in r._mapping.items()} for r in conn.execute(select(*cols).where(where))]


def other_rows(conn: Any, account_id: int) -> dict[str, list[dict[str, Any]]]:
    """Every other table's rows keyed by the account (settings, follows, push languages...)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for t, c in account_columns():
        if t.name in OWN_SECTION:
            continue
        rows = _rows(conn, t, c == account_id)
        if rows:
            out.setdefault(t.name.removeprefix("redtable_"), []).extend(rows)
    return out


def export(store: Store, account_id: int) -> dict[str, Any] | None:
    """The account's data (blocking: run off the loop); None for no such account."""
    from .accounts import accounts_table, sessions_table

    a = accounts_table.c
    with store.engine.connect() as conn:
        acct = conn.execute(select(a.id, a.username, a.created_at).where(a.id == account_id)).first()
        if acct is None:
            return None
        out: dict[str, Any] = {"exported_at": time.time(), "format": 1}
        roles = metadata.tables.get("redtable_roles")
        out["profile"] = {
            "id": acct.id,
            "username": acct.username,
            "created_at": acct.created_at,
            "roles": [r[0] for r in conn.execute(select(roles.c.role).where(roles.c.account_id == account_id))]
            if roles is not None
            else [],
        }
        out["email"] = _email(conn, account_id)
        s = sessions_table.c
        out["sessions"] = [
            {"created_at": r.created_at, "expires_at": r.expires_at}
            for r in conn.execute(select(s.created_at, s.expires_at).where(s.account_id == account_id))
        ]
        out["settings"] = other_rows(conn, account_id)
        seats = _games(conn, account_id)
        out["games"] = seats
        out["ratings"] = _ratings(conn, account_id)
        h = history_table.c
        out["rating_history"] = [
            {
                "game_id": r.game_id,
                "title": r.title,
                "against": _against(r.player, account_id),
                "players": r.players,
                "place": r.place,
                "mu_before": r.mu_before,
                "sigma_before": r.sigma_before,
                "mu_after": r.mu_after,
                "sigma_after": r.sigma_after,
                "at": r.at,
            }
            for r in conn.execute(select(history_table).where(h.account_id == account_id).order_by(h.at, h.id))
        ]
        out["chat"] = _chat(conn, acct.username, [(g["game_id"], g["seat"]) for g in seats])
        out["reports_filed"] = _reports(conn, account_id)
        notices = metadata.tables.get("redtable_player_notices")
        out["moderation_notices"] = (
            _rows(conn, notices, notices.c.account_id == account_id) if notices is not None else []
        )
    return out


def _email(conn: Any, account_id: int) -> dict[str, Any] | None:
    t = metadata.tables.get("redtable_emails")
    if t is None:
        return None
    r = conn.execute(
        select(t.c.address, t.c.verified_at, t.c.lang, t.c.created_at).where(t.c.account_id == account_id)
    ).first()
    if r is None:
        return None
    return {"address": r.address, "verified": r.verified_at is not None, "lang": r.lang, "added_at": r.created_at}


def _games(conn: Any, account_id: int) -> list[dict[str, Any]]:
    g, s, h = games_table.c, seats_table.c, history_table.c
    rows = conn.execute(
        select(g.id, g.game, g.players, g.status, g.created_at, g.finished_at, g.result, g.settings, s.seat, s.name)
        .select_from(seats_table.join(games_table, g.id == s.game_id))
        .where(s.account_id == account_id)
        .order_by(g.created_at, g.id)
    ).all()
    changes = {
        r.game_id: r
        for r in conn.execute(
            select(h.game_id, h.place, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after).where(
                h.account_id == account_id
            )
        )
    }
    out = []
    for x in rows:
        result = orjson.loads(x.result) if x.result else None
        settings = orjson.loads(x.settings) if x.settings else {}
        c = changes.get(x.id)
        out.append(
            {
                "game_id": x.id,
                "title": x.game,
                "players": x.players,
                "status": x.status,
                "created_at": x.created_at,
                "finished_at": x.finished_at,
                "seat": x.seat,
                "name": x.name,
                "rated": bool(settings.get("rated")),
                "won": (x.seat in (result.get("winners") or [])) if isinstance(result, dict) else None,
                "result": result,
                "rating_change": None
                if c is None
                else {
                    "place": c.place,
                    "ordinal_before": round(ordinal(c.mu_before, c.sigma_before), 6),
                    "ordinal_after": round(ordinal(c.mu_after, c.sigma_after), 6),
                },
            }
        )
    return out


def _against(player: str, account_id: int) -> str:
    """Whom a ratings row is against: people, bots, or (a bot account's) the bot leaderboard."""
    if player.startswith("o:"):
        return "bot_leaderboard"
    return "bots" if player == player_key(account_id, True) else "people"


def _ratings(conn: Any, account_id: int) -> list[dict[str, Any]]:
    r = ratings_table.c
    return [
        {
            "title": x.title,
            "against": _against(x.player, account_id),
            "mu": x.mu,
            "sigma": x.sigma,
            "ordinal": x.ordinal,
            "games": x.games,
            "updated_at": x.updated_at,
        }
        for x in conn.execute(select(ratings_table).where(r.account_id == account_id).order_by(r.title, r.player))
    ]


def _chat(conn: Any, username: str, seats: list[tuple[str, int]]) -> list[dict[str, Any]]:
    chat = metadata.tables.get("redtable_chat")
    if chat is None:
        return []
    c = chat.c
    return [
        {"id": r.id, "game_id": r.game_id, "channel": r.channel, "seat": r.seat, "text": r.text, "at": r.at}
        for r in conn.execute(
            select(c.id, c.game_id, c.channel, c.seat, c.text, c.at)
            .where(chat_lines(chat, username, seats))
            .order_by(c.at, c.id)
        )
    ]


def _reports(conn: Any, account_id: int) -> list[dict[str, Any]]:
    t = metadata.tables.get("redtable_reports")
    if t is None:
        return []
    c = t.c
    return [
        {
            "id": r.id,
            "kind": r.kind,
            "target": r.target,
            "game_id": r.game_id,
            "chat_id": r.chat_id,
            "reason": r.reason,
            "note": r.note,
            "status": r.status,
            "created_at": r.created_at,
            "closed_at": r.closed_at,
        }
        for r in conn.execute(select(t).where(c.reporter_account_id == account_id).order_by(c.created_at, c.id))
    ]
