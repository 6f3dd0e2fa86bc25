"""Quick play: wait in a queue per title, player count, speed and rating; a table is made when
enough people wait.

``POST /api/quickplay`` answers a *ticket* (a secret, like a seat token; the database keeps
only its sha256). The person polls ``GET /api/quickplay`` with it (``Authorization: Bearer``)
every few seconds; ``DELETE`` leaves the queue. The queue lives in the database, so any
server process takes any poll: the join or poll that completes a group matches it in one
transaction (``tabledb.queue_join``/``queue_poll``: on PostgreSQL under an advisory lock per
queue, so two processes never hand out the same people) and that process makes the table.
The ticket *becomes the seat's token* (its hash is the seat's device-token hash): nothing
secret is stored or sent twice, and the next poll answers the game and seat.

A person who stops polling for :data:`STALE_SECONDS` is no longer matched (a closed tab
does not take a seat), and is forgotten after :data:`EXPIRE_SECONDS`.

Nobody comes: once a person has waited :data:`BOTS_AFTER` seconds (``bots_after``, a server
setting tests shorten), each poll says ``bots: true`` and the page offers bots for the empty
seats. ``POST /api/quickplay/bots`` takes them: the ticket alone becomes a table (at a seat
drawn at random) whose other seats are bots, and it starts at once. Whoever keeps waiting
polls on, and the poll's ``waiting`` count says when someone else comes.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from ..core import GAMES, game_class
from . import clientdb, tabledb
from .clocks import SPEEDS
from .errors import ApiError, clip
from .store import run_blocking
from .validate import check_name

if TYPE_CHECKING:
    from .tables import TableService

log = logging.getLogger("redtable.server.quickplay")

STALE_SECONDS = 20.0
EXPIRE_SECONDS = 600.0
MATCH_TIMEOUT = 30.0  # a matched table that never appeared (its maker stopped): the people wait again
#: Seconds of waiting after which the page offers bots for the empty seats (QuickPlay.bots_after).
BOTS_AFTER = 20.0
#: The bot that takes the empty seats unless the person names one (rated: a bot with a rating).
QUICK_BOT = "heuristic"
CLOCKS: dict[str, dict[str, Any] | None] = {"realtime": {"kind": "realtime"}, "turn": {"kind": "turn"}, "none": None}


class QuickPlay:
    """The queue's operations for the HTTP API (``tableapi.py``)."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self.hub = tables.hub
        self.bots_after = BOTS_AFTER

    def bucket(self, game: Any, players: Any, speed: Any, rated: bool, account: Any) -> tabledb.Bucket:
        if game not in GAMES:
            raise ApiError(
                422,
                "unknown_title",
                f"unknown game {clip(game, 40)}; known games: {', '.join(GAMES)}",
                games=list(GAMES),
            )
        cls = game_class(game)
        if not isinstance(players, int) or not cls.min_players <= players <= cls.max_players:
            raise ApiError(
                422,
                "invalid_players",
                f"{game} is played by {cls.min_players}-{cls.max_players}, got {clip(players, 20)}",
                min=cls.min_players,
                max=cls.max_players,
            )
        if speed not in SPEEDS:
            raise ApiError(422, "invalid_speed", f"speed must be one of {', '.join(SPEEDS)}, got {clip(speed, 20)}")
        if rated and account is None:
            raise ApiError(401, "login_required", "rated quick play is for logged-in accounts: log in first")
        if rated and CLOCKS[speed] is None:  # (ratings.check_ratable: leaving a rated game loses on time)
            raise ApiError(
                422, "invalid_speed", "rated quick play has a clock: speed must be realtime or turn", speed=speed
            )
        return tabledb.Bucket(game, players, speed, bool(rated))

    async def join(
        self, game: Any, players: Any, speed: Any, rated: bool, name: Any, account: Any, client: str = ""
    ) -> dict[str, Any]:
        """Queue a person. ``client`` (the address) pays as if it made a game: the route spends
        its ``create`` token (``app.rate_kind``), and its waiting tickets and the tables made
        for them count against ``live_games_per_client`` (``clientdb.py``: in storage, so across
        a fleet), so one address cannot fill tables alone and leave them to the bots."""
        from .tokens import new_secret, sha

        bucket = self.bucket(game, players, speed, rated, account)
        name = check_name(name)
        if account is not None and (name is None or bucket.rated):  # rated: a seat shows its account's name
            name = account.username
        ticket = new_secret()
        now = time.time()
        op = tabledb.queue_join(
            bucket, sha(ticket), name, account.id if account is not None else None, now, now - STALE_SECONDS
        )
        cap = self.hub.limits.live_games_per_client
        if client:  # (the cap is checked in the join's own transaction: no round trip more)
            op = clientdb.queued(sha(ticket), clientdb.client_key(client), cap, now, op)
        got = await self.hub.write(self.tables.op(op), "joining the queue")
        live, match = got if client else (None, got)
        if live is not None:
            raise ApiError(
                429,
                "too_many_games",
                f"your address already has {live} unfinished games or waiting tickets here "
                f"(at most {cap}); finish or leave some first",
                headers={"Retry-After": "60"},
                retry_after=60,
            )
        if match is not None:
            await self.make(match)
        return {"ticket": ticket, **(await self.poll(ticket))}

    async def poll(self, ticket: str | None) -> dict[str, Any]:
        from .tokens import sha

        if not ticket:
            raise ApiError(401, "missing_ticket", "send your queue ticket: 'Authorization: Bearer <ticket>'")
        th = sha(ticket)
        now = time.time()
        entry, match, waiting = await self.hub.write(
            self.tables.op(tabledb.queue_poll(th, now, now - STALE_SECONDS)), "polling the queue"
        )
        if match is not None:
            await self.make(match)
        if entry is None:
            raise ApiError(
                404,
                "unknown_ticket",
                f"this ticket is not in the queue (you left, or it was not polled for {int(STALE_SECONDS)} s)",
            )
        base = {
            "game": entry["game"],
            "players": entry["players"],
            "speed": entry["speed"],
            "rated": bool(entry["rated"]),
        }
        gid = entry["game_id"]
        if gid is None:
            waited = max(0.0, now - float(entry["created_at"]))
            return {
                "status": "waiting",
                "waiting": waiting,
                "waited": round(waited, 1),
                "bots_after": self.bots_after,
                "bots": waited >= self.bots_after,  # the page offers bots for the empty seats
                **base,
            }
        try:
            game = await self.hub.get(gid)
        except ApiError as e:
            if e.code != "unknown_game":
                raise
            if now - (entry["matched_at"] or now) > MATCH_TIMEOUT:
                await self.hub.write(self.tables.op(tabledb.queue_forget([th])), "leaving the queue")
                raise ApiError(
                    409, "match_failed", "the table made for you did not start; join the queue again"
                ) from None
            return {"status": "starting", "game_id": gid, **base}
        seat = entry["seat"]
        if game.by_token.get(th) != seat and self.hub.fleet is not None:
            await self.hub.reload_seats(game)
        if game.by_token.get(th) != seat:
            return {"status": "starting", "game_id": gid, **base}
        return {
            "status": "matched",
            "game_id": gid,
            "seat": seat,
            "token": ticket,  # the ticket is the seat's token now
            "url": f"/api/games/{gid}",
            "ws_url": f"/api/games/{gid}/ws",
            **base,
        }

    async def with_bots(self, ticket: str | None, bot: Any) -> dict[str, Any]:
        """``POST /api/quickplay/bots``: stop waiting and play now, bots in the empty seats (the
        table starts at once). A ticket a group was matched to meanwhile answers that table:
        someone came, which is what the person waited for."""
        from .botpool import check_preset
        from .tokens import sha

        if not ticket:
            raise ApiError(401, "missing_ticket", "send your queue ticket: 'Authorization: Bearer <ticket>'")
        th = sha(ticket)
        now = time.time()
        entry, match = await self.hub.write(
            self.tables.op(tabledb.queue_alone(th, now, now - STALE_SECONDS)), "taking bots"
        )
        if entry is None:
            raise ApiError(
                404,
                "unknown_ticket",
                f"this ticket is not in the queue (you left, or it was not polled for {int(STALE_SECONDS)} s)",
            )
        if match is None:
            if entry["game_id"] is None:  # (not polled for a while: no longer matched)
                raise ApiError(
                    404,
                    "unknown_ticket",
                    f"this ticket is not in the queue (you left, or it was not polled for {int(STALE_SECONDS)} s)",
                )
            return await self.poll(ticket)
        default = QUICK_BOT
        if match.bucket.rated:
            from .ratings import rated_bots

            known = rated_bots(match.bucket.game)
            default = QUICK_BOT if QUICK_BOT in known else known[0]
        try:
            preset = check_preset(bot if bot is not None else default)
        except ValueError as e:
            await self.hub.write(self.tables.op(tabledb.queue_unmatch(match.game_id)), "waiting again")
            raise ApiError(422, "invalid_bot", str(e)) from None
        await self.make(match, preset)
        return await self.poll(ticket)

    async def leave(self, ticket: str | None) -> dict[str, Any]:
        from .tokens import sha

        if not ticket:
            raise ApiError(401, "missing_ticket", "send your queue ticket: 'Authorization: Bearer <ticket>'")
        left, row = await self.hub.write(self.tables.op(tabledb.queue_leave(sha(ticket))), "leaving the queue")
        if left:
            return {"left": True}
        if row is None:
            raise ApiError(404, "unknown_ticket", "this ticket is not in the queue")
        raise ApiError(
            409,
            "already_matched",
            "a table was made for you already: your seat is taken (play it, or leave the game)",
            game_id=row["game_id"],
            seat=row["seat"],
        )

    async def make(self, match: tabledb.Match, bot: str | None = None) -> None:
        """Create the matched group's table and seat everyone (the ticket hashes are their tokens);
        ``bot``: the preset of the seats nobody holds (a person who took bots: :meth:`with_bots`)."""
        b = match.bucket
        seats = [
            {"type": "human", "name": name, "bot": None} if th else {"type": "bot", "name": None, "bot": bot}
            for th, name, _ in match.seats
        ]
        extra: dict[str, Any] = {}
        if b.rated:  # the server makes the table for accounts: every seat is an account's (ratings.py)
            from types import SimpleNamespace

            first = next(a for _, _, a in match.seats if a is not None)
            extra = {"rated": True, "account": SimpleNamespace(id=first, username="")}
        try:
            await self.hub.create(
                b.game,
                seats,
                {},
                None,
                False,
                0.0,
                "",
                table={"quickplay": True, "clock": CLOCKS[b.speed]},
                gid=match.game_id,
                **extra,
            )
            game = await self.hub.get(match.game_id)
            now = time.time()
            keys = await run_blocking(clientdb.queue_clients, self.hub.store, [th for th, _, _ in match.seats])
            await self.hub.write(self.tables.op(clientdb.made(match.game_id, keys, now)), "counting a table")
            for seat, (th, name, account_id) in enumerate(match.seats):
                if not th:  # a bot's seat
                    continue
                bind = (account_id, True) if account_id is not None else None
                await self.tables.seat_person(game, seat, th, name, bind)
        except Exception:
            log.exception("making the quick-play table %s failed; its people wait again", match.game_id)
            await self.hub.write(
                self.tables.op(tabledb.queue_unmatch(match.game_id)), "putting people back in the queue"
            )
            raise

    async def expire(self, now: float) -> None:
        await self.hub.write(self.tables.op(tabledb.queue_expire(now - EXPIRE_SECONDS)), "forgetting old queue tickets")
        await self.hub.write(self.tables.op(clientdb.forget_queued(now - EXPIRE_SECONDS)), "forgetting old tickets")
