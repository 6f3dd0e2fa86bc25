"""Ratings of rated games: OpenSkill's Plackett-Luce model, one rating per account and title.

A game is *rated* when its creator asked for it and it qualified (``live.py``: every seat
an account or a bot preset, no creator-chosen seed, no undo). When it finishes,
:func:`apply_result` moves the ratings of its accounts by what the model makes of the
places (ties share a place). It runs once per game across every server process: the first
statement of its transaction sets the game's ``rated_at`` only where it is still NULL, so a
second call (another process, a retry, the start-up sweep) changes nothing.

Bot presets have ratings too, so that a player can read "I play like ismcts:0.2s" as a
number; they are FIXED, fitted from tournaments among the presets (``bench/rate_bots.py``
writes ``bot_ratings.json`` beside this file). A game against people never moves them.

A rated game with a bot preset at the table moves the accounts' *rating against bots*
(player ``v:<account id>``), never their rating against people (``a:<account id>``): a
preset always plays at the same strength, so a hundred wins against ``random`` would only
shrink sigma and climb the people's leaderboard without ever meeting a person. The
leaderboard (``players.py``) lists people with at least :data:`BOARD_MIN_GAMES` rated games
against people, one of them in the last :data:`BOARD_RECENT_DAYS` days; a rating whose
sigma is above :data:`PROVISIONAL_SIGMA` is *provisional*, and says so wherever it is shown.
A game ``fairplay.py`` marked unrated (two of its accounts share a network or a device) is
never rated, nor one aborted before every person moved (status ``abandoned``).

Tables (on the store's metadata, created with the others):

* ``ratings``: one row per (player, title): ``player`` is ``a:<account id>`` (against
  people), ``v:<account id>`` (against bots), ``o:<account id>`` (a bot account: ``botaccounts.py``,
  its own leaderboard with the presets) or ``b:<preset>``, with mu, sigma, the
  ordinal (mu - 3 sigma: the leaderboard's order) and the number of rated games;
* ``rating_history``: one row per account per rated game: before, after, its place, when.
"""

from __future__ import annotations

import json
import logging
import time
import weakref
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import orjson
from openskill.models import PlackettLuce
from sqlalchemy import (
    Column,
    Connection,
    Float,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
    insert,
    select,
    update,
)

from . import fairplay  # noqa: F401  (its tables on the metadata: a store made after this import creates them)
from .botaccounts import bot_ids
from .store import Store, games_table, metadata, seats_table

log = logging.getLogger("redtable.server.ratings")

#: The model every rating goes through (OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300).
MODEL = PlackettLuce()
#: The ordinal's multiple of sigma: a rating is shown and ranked as mu - Z * sigma.
Z = 3.0
BOT_FILE = Path(__file__).with_name("bot_ratings.json")
#: A rating this uncertain is provisional (the prior is 25/3; about 15 games against equals reach 6).
PROVISIONAL_SIGMA = 6.0
#: The people's leaderboard: this many rated games against people, one within this many days.
BOARD_MIN_GAMES = 10
BOARD_RECENT_DAYS = 90

ratings_table = Table(
    "redtable_ratings",
    metadata,
    Column("player", String(48), primary_key=True),
    Column("title", String(32), primary_key=True),
    Column("account_id", Integer, nullable=True),
    Column("bot", String(32), nullable=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("redtable_ratings_board", "title", "ordinal"),
    Index("redtable_ratings_account", "account_id"),
)

history_table = Table(
    "redtable_rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), nullable=False),
    Column("player", String(48), nullable=False),
    Column("account_id", Integer, nullable=True),
    Column("title", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", Float, nullable=False),
    UniqueConstraint("game_id", "player", name="redtable_rating_history_once"),
    Index("redtable_rating_history_account", "account_id", "title", "at"),
)


def ordinal(mu: float, sigma: float) -> float:
    """The number a rating is ranked by: mu - 3 sigma (a rating known to be at least this good)."""
    return mu - Z * sigma


def rating_json(mu: float, sigma: float, games: int) -> dict[str, float | int | bool]:
    return {
        "mu": round(mu, 6),
        "sigma": round(sigma, 6),
        "ordinal": round(ordinal(mu, sigma), 6),
        "games": games,
        "provisional": sigma > PROVISIONAL_SIGMA,
    }


def player_key(account_id: int, against_bots: bool) -> str:
    """The ratings row of an account: against people (``a:``) or against bot presets (``v:``)."""
    return f"{'v' if against_bots else 'a'}:{account_id}"


def seat_keys(conn: Connection, seats: Any) -> tuple[bool, Callable[[int], str], set[int]]:
    """How a game's accounts are rated: whether against bots (a preset or a bot account at the
    table), each account's ratings row (``o:`` for a bot account: ``botaccounts.py``; else
    :func:`player_key`), and which accounts are bot accounts. ``undo_ratings`` replays with it."""
    bots = bot_ids(conn, sorted({x.account_id for x in seats if x.kind != "bot" and x.account_id is not None}))
    vs_bots = any(x.kind == "bot" for x in seats) or bool(bots)

    def key_of(account_id: int) -> str:
        return f"o:{account_id}" if account_id in bots else player_key(account_id, vs_bots)

    return vs_bots, key_of, bots


# ---------------------------------------------------------------------- places
def places_of(result: dict[str, Any], players: int) -> list[int]:
    """Each seat's place (1 = first; equal places are ties) from a finished game's result.

    ``result["ranks"]``, when given (one place per seat), is taken as it is. Otherwise: the
    winners share place 1; the other seats follow by score, equal scores tying, always
    behind every winner (a tie-breaker that made a winner leaves the others behind). Seats
    in ``result["forfeited"]`` (a rated seat whose time ran out) come after everyone else,
    tied among themselves; the others' places stand.
    """
    ranks = result.get("ranks")
    if ranks is not None:
        if (
            not isinstance(ranks, list)
            or len(ranks) != players
            or not all(isinstance(r, int) and not isinstance(r, bool) and r >= 1 for r in ranks)
        ):
            raise ValueError(f"result ranks must be {players} places from 1, got {ranks!r}")
        return list(ranks)
    scores = [float(x) for x in result.get("scores") or [0.0] * players]
    winners = set(result.get("winners") or [])
    forfeited = set(result.get("forfeited") or [])
    if len(scores) != players:
        raise ValueError(f"result scores must have {players} entries, got {len(scores)}")

    def key(seat: int) -> tuple[int, int, float]:
        if seat in forfeited:
            return (1, 1, 0.0)
        return (0, 0, 0.0) if seat in winners else (0, 1, -scores[seat])

    out = [0] * players
    for seat in range(players):
        out[seat] = 1 + sum(1 for other in range(players) if key(other) < key(seat))
    return out


def rate(teams: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each one-player team after a game with these places (OpenSkill Plackett-Luce)."""
    out = MODEL.rate([[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in teams], ranks=[float(p) for p in places])
    return [(t[0].mu, t[0].sigma) for t in out]


# ---------------------------------------------------------------------- bot presets
@cache
def bot_data() -> dict[str, Any]:
    """The shipped bot ratings (``bot_ratings.json``): {"ratings": {title: {preset: {mu, sigma, games}}}, ...}."""
    return json.loads(BOT_FILE.read_text())


def bot_rating(title: str, preset: str) -> tuple[float, float]:
    """A preset's fixed (mu, sigma) in ``title``; a preset the file lacks is an unknown player (the model's prior)."""
    r = bot_data().get("ratings", {}).get(title, {}).get(preset)
    if r is None:
        return MODEL.mu, MODEL.sigma
    return float(r["mu"]), float(r["sigma"])


def rated_bots(title: str) -> list[str]:
    """The presets with a fitted rating in ``title`` (a rated game may seat only these bots)."""
    return sorted(bot_data().get("ratings", {}).get(title, {}))


def _insert_or_nothing(store: Store, row: dict[str, Any]) -> Any:
    """INSERT ... ON CONFLICT DO NOTHING in the store's dialect (two processes may insert a row at once)."""
    if store.dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(ratings_table).values(**row).on_conflict_do_nothing()
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(ratings_table).values(**row).on_conflict_do_nothing()


#: The stores whose bot rows this process has synced (once per store; weakly, so a store can go).
_SYNCED: weakref.WeakSet[Store] = weakref.WeakSet()


def sync_bot_rows(store: Store) -> None:
    """Make the ratings table hold each preset's fixed rating (the leaderboard lists them beside people).

    Idempotent and safe from several processes at once (insert-or-nothing, then update)."""
    if store in _SYNCED:
        return
    now = time.time()
    r = ratings_table.c
    with store.engine.begin() as conn:
        for title, presets in bot_data().get("ratings", {}).items():
            for preset, v in presets.items():
                mu, sigma, games = float(v["mu"]), float(v["sigma"]), int(v.get("games", 0))
                row = {
                    "player": f"b:{preset}",
                    "title": title,
                    "account_id": None,
                    "bot": preset,
                    "mu": mu,
                    "sigma": sigma,
                    "ordinal": ordinal(mu, sigma),
                    "games": games,
                    "updated_at": now,
                }
                conn.execute(_insert_or_nothing(store, row))
                conn.execute(
                    update(ratings_table)
                    .where(r.player == row["player"], r.title == title)
                    .where((r.mu != mu) | (r.sigma != sigma) | (r.games != games))
                    .values(mu=mu, sigma=sigma, ordinal=ordinal(mu, sigma), games=games, updated_at=now)
                )
    _SYNCED.add(store)


# ---------------------------------------------------------------------- applying a result
def apply_result(store: Store, game_id: str) -> dict[str, Any] | None:
    """Rate a finished rated game once: the accounts' new ratings and history rows, or None.

    None when the game is not rated, not finished, or was already rated (by this or another
    process). Everything happens in one transaction whose first write is the conditional
    ``UPDATE games SET rated_at = now WHERE id = ? AND rated_at IS NULL``: a concurrent call
    waits for that row, then finds it set and leaves.
    """
    g = games_table.c
    with store.engine.begin() as conn:
        row = conn.execute(select(g.game, g.players, g.settings, g.status, g.result).where(g.id == game_id)).first()
        if row is None or row.status != "finished" or not row.result:
            return None
        settings = orjson.loads(row.settings) if row.settings else {}
        if not settings.get("rated"):
            return None
        now = time.time()
        got = conn.execute(
            update(games_table)
            .where(g.id == game_id, g.rated_at.is_(None), g.status == "finished")
            .values(rated_at=now)
        )
        if got.rowcount != 1:
            return None  # rated already
        from .fairplay import unrated_reason_in

        why = unrated_reason_in(conn, game_id)
        if why is not None:
            log.info("game %s is not rated: %s", game_id, why)
            return None
        return _rate_locked(conn, game_id, row.game, row.players, orjson.loads(row.result), now)


def _rate_locked(
    conn: Connection, game_id: str, title: str, players: int, result: dict[str, Any], now: float
) -> dict[str, Any] | None:
    from .accounts import accounts_table

    s = seats_table.c
    seats = conn.execute(select(s.seat, s.kind, s.bot, s.account_id).where(s.game_id == game_id).order_by(s.seat)).all()
    # a forfeited seat whose account was deleted since (erasure.py) still ranks, at the prior, moving nobody's row
    departed = {x.seat for x in seats if x.kind != "bot" and x.account_id is None} & set(result.get("forfeited") or [])
    if len(seats) != players or any(x.kind != "bot" and x.account_id is None and x.seat not in departed for x in seats):
        log.warning("rated game %s has a person's seat with no account: left unrated", game_id)
        return None
    try:
        places = places_of(result, players)
    except ValueError as e:
        log.warning("rated game %s: %s; left unrated", game_id, e)
        return None
    accounts = sorted({x.account_id for x in seats if x.kind != "bot" and x.seat not in departed})
    vs_bots, key_of, bots = seat_keys(conn, seats)
    # one account's ratings move one game at a time (two of its games ending together on
    # PostgreSQL): lock its row, in id order so that two games never wait for each other
    conn.execute(
        select(accounts_table.c.id)
        .where(accounts_table.c.id.in_(accounts))
        .order_by(accounts_table.c.id)
        .with_for_update()
    )
    r = ratings_table.c
    have = {
        x.player: (x.mu, x.sigma, x.games)
        for x in conn.execute(
            select(r.player, r.mu, r.sigma, r.games).where(
                r.title == title, r.player.in_([key_of(a) for a in accounts])
            )
        )
    }
    before: list[tuple[float, float]] = []
    for x in seats:
        if x.kind == "bot":
            before.append(bot_rating(title, x.bot or "random"))
        elif x.seat in departed:
            before.append((MODEL.mu, MODEL.sigma))
        else:
            mu, sigma, _ = have.get(key_of(x.account_id), (MODEL.mu, MODEL.sigma, 0))
            before.append((mu, sigma))
    after = rate(before, places)
    changes = []
    for x, (mu0, s0), (mu1, s1), place in zip(seats, before, after, places, strict=True):
        if x.kind == "bot" or x.seat in departed:
            continue  # fixed: people never move a preset's rating (nor is a deleted account's kept)
        key = key_of(x.account_id)
        games = have.get(key, (0.0, 0.0, 0))[2] + 1
        values = {"mu": mu1, "sigma": s1, "ordinal": ordinal(mu1, s1), "games": games, "updated_at": now}
        if key in have:
            conn.execute(update(ratings_table).where(r.player == key, r.title == title).values(**values))
        else:
            conn.execute(
                insert(ratings_table).values(player=key, title=title, account_id=x.account_id, bot=None, **values)
            )
        conn.execute(
            insert(history_table).values(
                game_id=game_id,
                player=key,
                account_id=x.account_id,
                title=title,
                players=players,
                place=place,
                mu_before=mu0,
                sigma_before=s0,
                mu_after=mu1,
                sigma_after=s1,
                at=now,
            )
        )
        changes.append(
            {"seat": x.seat, "account_id": x.account_id, "place": place, "before": (mu0, s0), "after": (mu1, s1)}
        )
    out = {"game_id": game_id, "title": title, "places": places, "changes": changes, "against_bots": vs_bots}
    return out | {"bot_game": bool(bots)}


def pending_games(store: Store, limit: int = 500) -> list[str]:
    """Finished games not rated yet (a process that finished one stopped before rating it)."""
    g = games_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(g.id, g.settings)
            .where(g.status == "finished", g.rated_at.is_(None), g.settings.like('%"rated":true%'))
            .order_by(g.finished_at)
            .limit(limit)
        ).all()
    return [x.id for x in rows]


async def rate_game(store: Store, game_id: str) -> dict[str, Any] | None:
    """:func:`apply_result` off the event loop (the server calls it when a rated game finishes)."""
    from .store import run_blocking

    return await run_blocking(apply_result, store, game_id)


async def rate_pending(store: Store) -> int:
    """At start: rate the finished rated games that no process rated (each once, whoever gets there first)."""
    from .store import run_blocking

    n = 0
    try:
        for gid in await run_blocking(pending_games, store):
            if await run_blocking(apply_result, store, gid) is not None:
                n += 1
    except Exception:  # noqa: BLE001  (ratings never take the server down; the next start tries again)
        log.exception("rating the pending games failed")
    return n


# ---------------------------------------------------------------------- which games may be rated
def check_ratable(
    title: str, seats: list[dict[str, Any]], seed: int | None, undo: bool, account: Any, clock: Any = None
) -> None:
    """Refuse (422 ``not_ratable``) a rated game that breaks a condition, naming each one broken.

    A rated game: its creator is logged in; every seat is a person's (whose seat only a
    logged-in account may take, one per account: ``Hub.join``) or a bot preset with a rating;
    at least one person; no seed chosen by the creator (who could know the deal); no undo;
    a clock (``clock``: the table's clock option), so that leaving a game is a loss on time
    and never a game left open (an abandoned table is not rated).
    """
    from .errors import ApiError

    problems: dict[str, str] = {}
    if account is None:
        problems["login"] = "log in to create a rated game"
    if seed is not None:
        problems["seed"] = "a rated game has no seed chosen by its creator"
    if undo:
        problems["undo"] = "a rated game allows no undo"
    if not isinstance(clock, dict) or clock.get("kind") not in ("realtime", "turn"):
        problems["clock"] = "a rated game has a clock (realtime or turn): leaving it loses on time"
    if not any(s["type"] == "human" for s in seats):
        problems["no_person"] = "a rated game needs at least one person's seat"
    known = rated_bots(title)
    bad = [i for i, s in enumerate(seats) if s["type"] == "bot" and s.get("bot") not in known]
    if bad:
        problems["bot"] = f"seat {bad[0]}'s bot has no rating; rated bots: {', '.join(known)}"
    if problems:
        raise ApiError(
            422,
            "not_ratable",
            "this game cannot be rated: " + "; ".join(problems.values()),
            reason=next(iter(problems)),
            reasons=list(problems),
        )
