"""Profiles and leaderboards: ``GET /api/players/{username}``, ``GET /api/leaderboard/{title}``.

A profile counts the finished games whose seats the account joined while logged in (per
title and player count: played, won), its rating against people in each title with its
history (one point per rated game), its rating against bot presets (``bot_ratings``, with
its own history) beside the presets' fixed ratings (``presets``), and its recent games with
links to their replays. A leaderboard lists a title's ratings against people by ordinal
(mu - 3 sigma), the bot presets among them and marked as such (their ratings are fixed:
``ratings.py``); a person is listed from :data:`~redtable.server.ratings.BOARD_MIN_GAMES`
rated games against people, while one was played in the last
:data:`~redtable.server.ratings.BOARD_RECENT_DAYS` days. Every rating says whether it is
``provisional``.
"""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Any

import orjson
from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from sqlalchemy import select

from ..core import GAMES
from .accounts import account_by_name
from .apimodels import Leaderboard, Profile
from .apischema import errors
from .botaccounts import bot_accounts_table
from .botboard import board_page
from .errors import ApiError, clip
from .ratings import (
    BOARD_MIN_GAMES,
    BOARD_RECENT_DAYS,
    bot_data,
    history_table,
    ordinal,
    player_key,
    rating_json,
    ratings_table,
    sync_bot_rows,
)
from .store import Store, games_table, run_blocking, seats_table

router = APIRouter(tags=["players"])

RECENT = 20  # recent games on a profile
HISTORY = 500  # rating history points per title on a profile (the newest)
BOARD_MAX = 100  # leaderboard rows per page
BOARD_OFFSET_MAX = 10_000


def _won(result: str | None, seat: int) -> bool:
    if not result:
        return False
    try:
        return seat in (orjson.loads(result).get("winners") or [])
    except (orjson.JSONDecodeError, AttributeError):
        return False


def _history(conn: Any, player: str, title: str) -> list[dict[str, Any]]:
    """One rating's points, oldest first (the newest :data:`HISTORY`)."""
    h = history_table.c
    rows = conn.execute(
        select(h.game_id, h.players, h.place, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after, h.at)
        .where(h.player == player, h.title == title)
        .order_by(h.at.desc(), h.id.desc())
        .limit(HISTORY)
    ).all()
    return [
        {
            "game_id": x.game_id,
            "at": x.at,
            "players": x.players,
            "place": x.place,
            "mu": round(x.mu_after, 6),
            "sigma": round(x.sigma_after, 6),
            "ordinal": round(ordinal(x.mu_after, x.sigma_after), 6),
            "mu_before": round(x.mu_before, 6),
            "sigma_before": round(x.sigma_before, 6),
            "ordinal_before": round(ordinal(x.mu_before, x.sigma_before), 6),
        }
        for x in reversed(rows)
    ]


def profile(store: Store, username: str) -> dict[str, Any] | None:
    """Everything a profile page shows, or None for an unknown username (blocking: run off the loop)."""
    found = account_by_name(store, username)
    if found is None:
        return None
    account, created_at = found
    g, s = games_table.c, seats_table.c
    stats: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    with store.engine.connect() as conn:
        for row in conn.execute(
            select(g.game, g.players, g.result, s.seat)
            .select_from(seats_table.join(games_table, g.id == s.game_id))
            .where(s.account_id == account.id, g.status == "finished")
        ):
            st = stats[(row.game, row.players)]
            st[0] += 1
            st[1] += _won(row.result, row.seat)
        recent = conn.execute(
            select(g.id, g.game, g.players, g.status, g.created_at, g.finished_at, g.result, g.settings, s.seat)
            .select_from(seats_table.join(games_table, g.id == s.game_id))
            .where(s.account_id == account.id)
            .order_by(g.created_at.desc(), g.id)
            .limit(RECENT)
        ).all()
        r = ratings_table.c
        ratings: dict[str, Any] = {}
        bot_ratings: dict[str, Any] = {}
        for rt in conn.execute(select(r.player, r.title, r.mu, r.sigma, r.games).where(r.account_id == account.id)):
            mine = bot_ratings if rt.player == player_key(account.id, True) else ratings
            mine[rt.title] = rating_json(rt.mu, rt.sigma, rt.games)
        history = {t: _history(conn, player_key(account.id, False), t) for t in ratings}
        bot_history = {t: _history(conn, player_key(account.id, True), t) for t in bot_ratings}
    presets = {
        title: {p: rating_json(float(v["mu"]), float(v["sigma"]), int(v.get("games", 0))) for p, v in got.items()}
        for title, got in bot_data().get("ratings", {}).items()
        if title in bot_ratings
    }
    games = []
    for x in recent:
        settings = orjson.loads(x.settings) if x.settings else {}
        finished = x.status == "finished"
        games.append(
            {
                "game_id": x.id,
                "game": x.game,
                "players": x.players,
                "status": x.status,
                "created_at": x.created_at,
                "finished_at": x.finished_at,
                "seat": x.seat,
                "won": _won(x.result, x.seat) if finished else None,
                "rated": bool(settings.get("rated", False)),
                "url": f"/#/replay/{x.id}" if finished else f"/#/game/{x.id}",
            }
        )
    return {
        "username": account.username,
        "created_at": created_at,
        "stats": [
            {"game": title, "players": n, "played": v[0], "won": v[1]}
            for (title, n), v in sorted(stats.items(), key=lambda kv: (kv[0][0], kv[0][1]))
        ],
        "ratings": ratings,
        "history": history,
        "bot_ratings": bot_ratings,
        "bot_history": bot_history,
        "presets": presets,
        "recent": games,
    }


def leaderboard(store: Store, title: str, limit: int, offset: int) -> dict[str, Any]:
    """A title's ratings by ordinal, best first: people (with their usernames; rated against people,
    enough games, one of them lately) and bot presets."""
    sync_bot_rows(store)
    r = ratings_table.c
    since = time.time() - BOARD_RECENT_DAYS * 86400
    listed = (r.title == title) & (
        r.bot.isnot(None)
        | (r.player.like("a:%") & (r.games >= BOARD_MIN_GAMES) & (r.updated_at >= since))  # people, against people
    )
    # bot accounts are on their own board (botboard.py); NULL: a preset's row (NOT IN would drop it)
    listed &= r.account_id.is_(None) | r.account_id.notin_(select(bot_accounts_table.c.account_id))
    total, rows = board_page(store, listed, limit, offset)
    players = []
    for i, x in enumerate(rows):
        bot = x.bot is not None
        players.append(
            {
                "rank": offset + i + 1,
                "username": None if bot else x.username,
                "bot": x.bot if bot else None,
                "is_bot": bot,
                **rating_json(x.mu, x.sigma, x.games),
            }
        )
    return {"title": title, "total": total, "limit": limit, "offset": offset, "players": players}


@router.get("/api/players/{username}", response_model=Profile, responses=errors(404))
async def player(request: Request, username: str = PathParam(..., max_length=100)) -> Any:
    """A player's profile: games played and won per title and player count, ratings and their
    history, recent games with replay links."""
    out = await run_blocking(profile, request.app.state.store, username) if len(username) <= 24 else None
    if out is None:
        raise ApiError(404, "unknown_player", f"no player named {clip(username, 40)}")
    return JSONResponse(out)


@router.get("/api/leaderboard/{title}", response_model=Leaderboard, responses=errors(404))
async def board(
    request: Request,
    title: str = PathParam(..., max_length=40),
    limit: int = Query(50, ge=1, le=BOARD_MAX),
    offset: int = Query(0, ge=0, le=BOARD_OFFSET_MAX),
) -> Any:
    """A title's players in order of their rating's ordinal (mu - 3 sigma), bots marked ``is_bot``."""
    if title not in GAMES:
        raise ApiError(
            404, "unknown_title", f"unknown game {clip(title, 40)}; known games: {', '.join(GAMES)}", games=list(GAMES)
        )
    return JSONResponse(await run_blocking(leaderboard, request.app.state.store, title, limit, offset))
