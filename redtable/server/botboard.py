"""The bot leaderboard of a title: bot accounts (``botaccounts.py``, rated ``o:<account id>`` in
their rated games) and the bot presets (their fixed ratings, ``ratings.py``), by ordinal. The
people's leaderboard (``players.py``) lists no bot account."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from .accounts import accounts_table
from .ratings import rating_json, ratings_table, sync_bot_rows
from .store import Store


def board_page(store: Store, listed: Any, limit: int, offset: int) -> tuple[int, list[Any]]:
    """One page of a leaderboard: how many rating rows ``listed`` selects, and those of the
    page, best first, each with its account's username (the people's board, ``players.py``,
    and the bots' board read the same way)."""
    r, a = ratings_table.c, accounts_table.c
    with store.engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(ratings_table).where(listed)).scalar_one()
        rows = conn.execute(
            select(r.player, r.bot, r.mu, r.sigma, r.games, a.username)
            .select_from(ratings_table.outerjoin(accounts_table, a.id == r.account_id))
            .where(listed)
            .order_by(r.ordinal.desc(), r.player)
            .limit(limit)
            .offset(offset)
        ).all()
    return total, list(rows)


def bot_leaderboard(store: Store, title: str, limit: int, offset: int) -> dict[str, Any]:
    sync_bot_rows(store)
    r = ratings_table.c
    listed = (r.title == title) & (r.bot.isnot(None) | r.player.like("o:%"))
    total, rows = board_page(store, listed, limit, offset)
    players = [
        {
            "rank": offset + i + 1,
            "username": x.username if x.bot is None else None,
            "preset": x.bot,
            "bot_account": x.bot is None,
            **rating_json(x.mu, x.sigma, x.games),
        }
        for i, x in enumerate(rows)
    ]
    return {"title": title, "total": total, "limit": limit, "offset": offset, "players": players}
