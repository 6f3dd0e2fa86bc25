"""Rematch: the same seats, a new deal, when everyone at a finished table accepts.

``POST /api/games/{id}/rematch`` (a seat's token in ``Authorization: Bearer``, or the
logged-in account that sits there) on a finished game: the first ask *offers* a rematch and
makes the new table at once; every later ask of another seat *accepts* it. Every ask answers
the same ``game_id`` (the new table) and a new token for the asker's seat there, so a guest
plays on from the same device without a new link (the old seat's token is the proof; the
device cookie of ``devices.py`` opens nothing and is not used). ``{"decline": true}`` declines:
the offer ends for everyone. ``GET`` reads the offer.

* **The new table**: the same title, options, undo, bot pace, clock and rating; bots keep
  their presets; people sit where they sat, but the seat order *rotates* by one (old seat
  ``i`` is new seat ``i - 1``), and the deal is drawn so that the new game's first seat is
  the old one's: the person who played after the old first player starts (the engines pick
  the first player from the seed: Red Rising's Apollo, Red North's token; ``Hub.create``'s
  ``first`` draws random seeds until the deal's first seat is that one). It waits for its
  people (``rematch_of`` gates it: ``tables.TableState``): no bot moves and no clock runs
  until every person accepted, and the last acceptance starts it.
* **The offer** lasts :data:`REMATCH_SECONDS`; then it lapses, the new table closes
  (``abandoned``, reason ``rematch_lapsed``) and everyone is told; a decline closes it the
  same way (``rematch_declined``). A lapsed or declined offer may be made again.
* **Storage**, so that a fleet agrees: ``redtable_rematches`` (one row per finished game:
  the new table, who offered, until when, the status). Accepting is taking the new table's
  seat (``tables.seat_person``: one winner across processes), so who accepted is read from
  the new table's seats. The first ask reserves the row with an ``INSERT`` (the primary key
  makes one winner: the loser accepts the winner's table); a lapse or a decline is a
  conditional ``UPDATE`` on ``status = 'open'`` (once across processes). Every change is
  pushed to the old table's sockets here (``{"type": "rematch", ...}``) and published on the
  fleet's bus as ``<game>:r`` so the other processes push it to theirs.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool
from sqlalchemy import Column, Connection, Float, Integer, String, Table, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from .apimodels import RematchAnswer, RematchState
from .apischema import errors
from .errors import ApiError
from .store import Store, metadata, run_blocking, seats_table
from .tokens import new_secret, seat_token, sha

if TYPE_CHECKING:
    from .live import Hub, LiveGame

log = logging.getLogger("redtable.server.rematch")

#: Seconds everyone has to answer an offer (``REDTABLE_REMATCH_SECONDS`` shortens it in tests).
REMATCH_SECONDS = 600.0
#: Seeds tried for a deal whose first seat is the one due (each ``1/players`` likely).
SEED_TRIES = 400

rematches_table = Table(
    "redtable_rematches",
    metadata,
    Column("game_id", String(32), primary_key=True),  # the finished game
    Column("new_game_id", String(32), nullable=False),
    Column("by_seat", Integer, nullable=False),  # who offered (a seat of the finished game)
    Column("created_at", Float, nullable=False),
    Column("until", Float, nullable=False),
    Column("status", String(12), nullable=False),  # open, started, declined, lapsed
    Column("declined_by", Integer, nullable=True),
    Column("ended_at", Float, nullable=True),
)


def ensure(store: Store) -> None:
    with store.engine.begin() as conn:
        metadata.create_all(conn, tables=[rematches_table])


def new_seat(old: int, players: int) -> int:
    """Where the person of seat ``old`` sits in the rematch (the order rotates by one)."""
    return (old - 1) % players


def first_seat(game: LiveGame) -> int | None:
    """The seat that started ``game`` (its deal's first player), if the title says."""
    start = game.checkpoints.get(0)
    first = getattr(start, "first", None)
    return first if isinstance(first, int) else None


def seed_starting(title: Any, first: int) -> int:
    """A random seed whose deal starts with seat ``first`` (the deal otherwise as random as any)."""
    seed = secrets.randbits(63)
    for _ in range(SEED_TRIES):
        if getattr(title.new_initial_state(seed), "first", first) == first:
            return seed
        seed = secrets.randbits(63)
    log.warning("no deal starting with seat %d in %d seeds: a random one", first, SEED_TRIES)
    return seed


# ---------------------------------------------------------------------- storage (("table", fn, store) operations)
def _row(conn: Connection, game_id: str) -> dict[str, Any] | None:
    got = conn.execute(select(rematches_table).where(rematches_table.c.game_id == game_id)).mappings().first()
    return dict(got) if got is not None else None


def reserve(game_id: str, new_game_id: str, by: int, now: float, until: float):
    """Offer: the row, if no open or started offer is there (else the one that is: accept it)."""

    def run(conn: Connection, store: Store) -> tuple[bool, dict[str, Any]]:
        c = rematches_table.c
        values = {
            "new_game_id": new_game_id,
            "by_seat": by,
            "created_at": now,
            "until": until,
            "status": "open",
            "declined_by": None,
            "ended_at": None,
        }
        old = _row(conn, game_id)
        if old is None:
            ins = pg_insert if store.dialect == "postgresql" else sqlite_insert
            conn.execute(ins(rematches_table).values(game_id=game_id, **values).on_conflict_do_nothing())
            got = _row(conn, game_id)  # (the driver's rowcount of ON CONFLICT DO NOTHING is not to be trusted)
            assert got is not None
            return got["new_game_id"] == new_game_id, got  # else another process offered a moment ago
        if old["status"] in ("open", "started"):
            return False, old
        r = conn.execute(
            update(rematches_table)
            .where(c.game_id == game_id, c.status == old["status"], c.new_game_id == old["new_game_id"])
            .values(**values)
        )
        if r.rowcount != 1:
            got = _row(conn, game_id)
            assert got is not None
            return False, got
        return True, {"game_id": game_id, **values}

    return run


def forget(game_id: str, new_game_id: str):
    """The new table could not be made: the offer is not there."""

    def run(conn: Connection, store: Store) -> None:
        c = rematches_table.c
        conn.execute(rematches_table.delete().where(c.game_id == game_id, c.new_game_id == new_game_id))

    return run


def end_offer(
    game_id: str, new_game_id: str, status: str, now: float, declined_by: int | None = None, at: int | None = None
):
    """Decline or lapse an open offer, and close its new table, once across processes (True: this call
    did). ``declined_by``: the finished game's seat; ``at``: the same person's seat at the new table."""

    def run(conn: Connection, store: Store) -> bool:
        from .tabledb import end_game

        c, s = rematches_table.c, seats_table.c
        waiting = conn.execute(
            select(s.seat).where(s.game_id == new_game_id, s.kind == "human", s.joined_at.is_(None))
        ).first()
        if waiting is None:  # every person accepted: the table has started, too late to end the offer
            started(game_id, new_game_id, now)(conn, store)
            return False
        r = conn.execute(
            update(rematches_table)
            .where(c.game_id == game_id, c.new_game_id == new_game_id, c.status == "open")
            .values(status=status, declined_by=declined_by, ended_at=now)
        )
        if r.rowcount != 1:
            return False
        closed: dict[str, Any] = {"reason": f"rematch_{status}", "at": now}
        if at is not None:
            closed["seat"] = at
        end_game(new_game_id, "abandoned", {"closed": closed}, now)(conn, store)
        return True

    return run


def started(game_id: str, new_game_id: str, now: float):
    def run(conn: Connection, store: Store) -> bool:
        c = rematches_table.c
        r = conn.execute(
            update(rematches_table)
            .where(c.game_id == game_id, c.new_game_id == new_game_id, c.status == "open")
            .values(status="started", ended_at=now)
        )
        return r.rowcount == 1

    return run


# ---------------------------------------------------------------------- reads (run_blocking)
def read(store: Store, game_id: str) -> dict[str, Any] | None:
    """The offer of a finished game and who took a seat of its new table (new seat numbers)."""
    s = seats_table.c
    with store.engine.connect() as conn:
        row = _row(conn, game_id)
        if row is None:
            return None
        seats = conn.execute(
            select(s.seat, s.kind, s.joined_at).where(s.game_id == row["new_game_id"]).order_by(s.seat)
        ).all()
    row["joined"] = [x[0] for x in seats if x[1] == "human" and x[2] is not None]
    row["people"] = [x[0] for x in seats if x[1] == "human"]
    return row


def due(store: Store, now: float, limit: int = 50) -> list[tuple[str, str]]:
    c = rematches_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(c.game_id, c.new_game_id).where(c.status == "open", c.until <= now).order_by(c.until).limit(limit)
        ).all()
    return [(x[0], x[1]) for x in rows]


def account_seat(store: Store, game_id: str, account_id: int) -> int | None:
    s = seats_table.c
    with store.engine.connect() as conn:
        got = conn.execute(select(s.seat).where(s.game_id == game_id, s.account_id == account_id)).first()
    return got[0] if got is not None else None


def seat_account(store: Store, game_id: str, seat: int) -> int | None:
    s = seats_table.c
    with store.engine.connect() as conn:
        got = conn.execute(select(s.account_id).where(s.game_id == game_id, s.seat == seat)).first()
    return got[0] if got is not None else None


def public(row: dict[str, Any] | None, players: int, now: float) -> dict[str, Any] | None:
    """What every seat of the finished game reads of its offer (seat numbers are the finished game's)."""
    if row is None:
        return None
    back = {new_seat(i, players): i for i in range(players)}  # new seat -> old seat
    return {
        "status": row["status"],
        "game_id": row["new_game_id"],
        "by": row["by_seat"],
        "until": row["until"],
        "now": now,
        "people": sorted(back[x] for x in row["people"]),
        "accepted": sorted(back[x] for x in row["joined"]),
        "declined_by": row["declined_by"],
    }


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


# ---------------------------------------------------------------------- the service
class Rematches:
    """The hub's rematch offers (``Hub.rematch``)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.seconds = float(os.environ.get("REDTABLE_REMATCH_SECONDS") or REMATCH_SECONDS)
        self.task: asyncio.Task | None = None

    def _op(self, fn: Any) -> tuple:
        return ("table", fn, self.hub.store)

    async def start(self) -> None:
        await run_blocking(ensure, self.hub.store)
        self.task = asyncio.create_task(self._sweep())
        self.hub.tasks.append(self.task)

    # -------------------------------------------------------------- who asks
    async def seat_of(self, game: LiveGame, token: str | None, account: Any) -> int:
        if token:
            seat = await self.hub.seat_of(game, token)
            assert seat is not None
            return seat
        if account is not None:
            seat = await run_blocking(account_seat, self.hub.store, game.id, account.id)
            if seat is None:
                raise ApiError(403, "not_seated", "your account holds no seat of this game")
            return seat
        raise ApiError(401, "missing_token", "send your seat token: 'Authorization: Bearer <token>' (or log in)")

    def check(self, game: LiveGame, seat: int) -> None:
        if game.tutorial:
            raise ApiError(409, "no_rematch", "a lesson has no rematch: start it again from the lessons")
        if game.status != "finished":
            raise ApiError(
                409, "not_finished", f"a rematch follows a finished game; this one is {game.status}", state=game.status
            )
        if not self._person(game, seat):
            raise ApiError(
                409, "rematch_bot_seat", f"seat {seat} is played by a bot: a rematch is for its people", seat=seat
            )

    @staticmethod
    def _person(game: LiveGame, seat: int) -> bool:
        return game.seats[seat].kind == "human" or seat in game.table.forfeits

    # -------------------------------------------------------------- reading
    async def state(self, game: LiveGame) -> dict[str, Any]:
        row = await run_blocking(read, self.hub.store, game.id)
        return {"game_id": game.id, "rematch": public(row, game.players, time.time())}

    async def tell(self, game: LiveGame, publish: bool = True) -> dict[str, Any]:
        """Push the offer to the finished game's sockets here (and, in a fleet, to the others')."""
        got = await self.state(game)
        text = _dumps({"type": "rematch", **got})
        for c in list(game.conns):
            c.push(text)
        fleet = self.hub.fleet
        if publish and fleet is not None:
            fleet.bus.publish(f"{game.id}:r")
        return got

    def heard(self, game: LiveGame) -> None:
        """Another process changed the offer: tell the sockets here."""
        if game.conns:
            self.hub.spawn(self.tell(game, publish=False), "telling a rematch")

    # -------------------------------------------------------------- asking, accepting, declining
    async def ask(self, game: LiveGame, token: str | None, account: Any) -> dict[str, Any]:
        """Offer (the first ask) or accept (the others): the new table and this seat's token there."""
        seat = await self.seat_of(game, token, account)
        self.check(game, seat)
        now = time.time()
        gid = secrets.token_urlsafe(8)
        made, row = await self.hub.write(
            self._op(reserve(game.id, gid, seat, now, now + self.seconds)), "offering a rematch"
        )
        if made:
            try:
                await self._make(game, gid, seat, account)
            except BaseException:
                await self.hub.write(self._op(forget(game.id, gid)), "forgetting a rematch")
                raise
            from . import notices

            notices.soon(self.hub, notices.rematch_offered(self.hub, game, gid, seat))
        elif row["status"] not in ("open", "started"):  # (a reserve only leaves an open or started row)
            raise ApiError(409, "rematch_over", "this rematch offer is over", state=row["status"])
        new = await self._new_game(row["new_game_id"])
        out = await self._sit(game, new, seat)
        if new.table.ready(new):
            await self.hub.write(self._op(started(game.id, new.id, time.time())), "starting a rematch")
        got = await self.tell(game)
        return {**out, "offered": made, "rematch": got["rematch"]}

    async def _new_game(self, gid: str) -> LiveGame:
        """The new table (made by another ask a moment ago, maybe through another process)."""
        for _ in range(100):
            try:
                return await self.hub.get(gid)
            except ApiError as e:
                if e.code != "unknown_game":
                    raise
            await asyncio.sleep(0.05)
        raise ApiError(409, "rematch_over", "the rematch table was not made; offer it again", state="lapsed")

    async def _make(self, game: LiveGame, gid: str, seat: int, account: Any) -> None:
        n = game.players
        rated = bool(game.settings.get("rated", False))
        seats: list[dict[str, Any]] = []
        for j in range(n):
            i = (j + 1) % n  # new seat j is old seat j + 1
            s = game.seats[i]
            if self._person(game, i):
                seats.append({"type": "human", "name": None if rated else s.name, "bot": None})
            else:
                seats.append({"type": "bot", "bot": s.bot})
        extra: dict[str, Any] = {}
        if rated:  # (ratings.check_ratable: made for an account, as quick play's rated tables)
            aid = account.id if account is not None else await run_blocking(seat_account, self.hub.store, game.id, seat)
            extra = {"rated": True, "account": SimpleNamespace(id=aid, username="")}
        await self.hub.create(
            game.name,
            seats,
            dict(game.options),
            None,
            game.undo_allowed,
            game.bot_delay,
            "",
            table={"clock": game.settings.get("clock"), "rematch_of": game.id},
            gid=gid,
            first=first_seat(game),
            **extra,
        )

    async def _sit(self, game: LiveGame, new: LiveGame, seat: int) -> dict[str, Any]:
        """This person's seat at the new table, with a new token for this device."""
        if new.table.closed is not None:
            raise ApiError(409, "rematch_over", "this rematch offer is over", state="closed")
        to = new_seat(seat, game.players)
        name = game.seats[seat].name
        aid = await run_blocking(seat_account, self.hub.store, game.id, seat)
        if aid is not None:  # not at the table of someone blocked, either way (friends.py)
            from .friends import check_may_sit

            await run_blocking(check_may_sit, self.hub.store, new.id, aid)
        rated = bool(new.settings.get("rated", False))
        bind = (aid, rated) if aid is not None else None
        token = new_secret()
        th = sha(token)
        tables = self.hub.tables
        if self.hub.fleet is not None:  # seats taken through another process a moment ago (as tables.sit)
            await self.hub.reload_seats(new)
        if not await tables.seat_person(new, to, th, name, bind):  # accepted before (another device): one more token
            await self.hub.write(("token", new.id, to, th, time.time()), "a seat's new device")
            new.by_token[th] = to
            if self.hub.fleet is not None:
                self.hub.fleet.after_meta(new.id)
        return {
            "game_id": new.id,
            "seat": to,
            "token": token,
            "name": name,
            "ready": new.table.ready(new),
            "url": f"/api/games/{new.id}",
            "ws_url": f"/api/games/{new.id}/ws",
        }

    async def decline(self, game: LiveGame, token: str | None, account: Any) -> dict[str, Any]:
        seat = await self.seat_of(game, token, account)
        self.check(game, seat)
        row = await run_blocking(read, self.hub.store, game.id)
        if row is None:
            raise ApiError(409, "no_rematch_offer", "nobody offered a rematch of this game")
        if row["status"] != "open":
            raise ApiError(409, "rematch_over", "this rematch offer is over", state=row["status"])
        if not await self._end(game.id, row["new_game_id"], "declined", seat, new_seat(seat, game.players)):
            got = await run_blocking(read, self.hub.store, game.id)
            raise ApiError(409, "rematch_over", "this rematch offer is over", state=(got or row)["status"])
        got = await self.tell(game)
        return {"game_id": game.id, "declined": True, "rematch": got["rematch"]}

    async def _end(self, gid: str, new_gid: str, status: str, seat: int | None = None, at: int | None = None) -> bool:
        """Decline or lapse: the offer ends and the new table closes; its sockets are told."""
        now = time.time()
        op = end_offer(gid, new_gid, status, now, seat, at)
        if not await self.hub.write(self._op(op), f"a rematch {status}"):
            return False
        new = self.hub.games.get(new_gid)
        if new is not None:
            async with new.lock:
                closed: dict[str, Any] = {"reason": f"rematch_{status}", "at": now}
                if at is not None:
                    closed["seat"] = at
                new.table.closed = closed
                new.finished_at = now
                self.hub.tables.notice(new, f"rematch_{status}", f"the rematch was {status}", seat=at)
        if self.hub.fleet is not None:
            self.hub.fleet.bus.publish(f"{new_gid}:t:{self.hub.fleet.tag}")  # (the others read the closed table)
        return True

    # -------------------------------------------------------------- lapsing
    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.hub.tables.sweep_seconds)
            try:
                for gid, new_gid in await run_blocking(due, self.hub.store, time.time()):
                    if await self._end(gid, new_gid, "lapsed"):
                        old = self.hub.games.get(gid)
                        if old is not None:
                            await self.tell(old)
                        elif self.hub.fleet is not None:
                            self.hub.fleet.bus.publish(f"{gid}:r")
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001
                log.exception("the rematch sweep failed; it runs again")


# ---------------------------------------------------------------------- HTTP
router = APIRouter()


class RematchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    decline: StrictBool = Field(False, description="decline the offer (it ends for everyone)")


def _json(body: Any) -> Response:
    return Response(orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS), media_type="application/json")


async def _account(request: Request, write: bool) -> Any:
    from .tableapi import _account as account

    return await account(request, write)


@router.post(
    "/api/games/{game_id}/rematch",
    tags=["tables"],
    response_model=RematchAnswer,
    responses=errors(401, 403, 404, 409, 503),
)
async def rematch(request: Request, game_id: str, body: RematchRequest | None = None) -> Response:
    """A finished game's seat (``Authorization: Bearer <seat token>``, or the logged-in account
    sitting there) offers a rematch, or accepts the one offered: the same seats, a new deal, the
    seat order rotated. Answers the new table's ``game_id`` (the same for every seat), this
    seat there and a new ``token`` for it; the new table starts when every person accepted.
    ``{"decline": true}`` declines (the offer ends for everyone)."""
    from .tableapi import _shielded

    hub = request.app.state.hub
    token = seat_token(request)
    account = None if token else await _account(request, True)
    game = await hub.get(game_id)
    if body is not None and body.decline:
        return _json(await _shielded(hub.rematch.decline(game, token, account)))
    return _json(await _shielded(hub.rematch.ask(game, token, account)))


@router.get("/api/games/{game_id}/rematch", tags=["tables"], response_model=RematchState, responses=errors(404, 503))
async def rematch_state(request: Request, game_id: str) -> Response:
    """The rematch offer of a finished game (``null``: none): its status (open, started,
    declined, lapsed), the new table, who offered, until when, and which seats accepted."""
    hub = request.app.state.hub
    game = await hub.get(game_id)
    return _json(await hub.rematch.state(game))
