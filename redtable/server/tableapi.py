"""The HTTP endpoints of tables: open tables, sitting down, the creator's bots, quick play, my games.

Installed by ``create_app`` (``app.include_router``); the work is the hub's
:class:`~redtable.server.tables.TableService`. Who is asking: a seat token, a creator key or
a queue ticket in ``Authorization: Bearer`` (never in a URL), and the account of the session
cookie when one is logged in (``accounts.py``: writes by cookie carry the CSRF header).
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ..core import GAMES, game_class
from .apimodels import BotsFilled, GoneGame, LeftQueue, MyGame, OpenTable, QueueState, ReadyConfirmed, Seated
from .apischema import errors, rule
from .clocks import SPEEDS
from .tokens import seat_token
from .validate import NAME_MAX

router = APIRouter()


def _json(body: Any, status: int = 200) -> Response:
    return Response(
        orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS), status_code=status, media_type="application/json"
    )


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SitRequest(Strict):
    name: StrictStr | None = Field(
        None, max_length=4 * NAME_MAX, description="display name (default: the account's, else none)"
    )


class FillBotsRequest(Strict):
    bot: StrictStr = Field("heuristic", max_length=32, description="the bot preset (GET /api/titles lists them)")
    seats: list[StrictInt] | None = Field(None, max_length=8, description="which free seats (default: all of them)")


class QuickPlayRequest(Strict):
    # (the values each takes, in the document: the route's own refusals name the rule)
    game: StrictStr = Field(
        ..., max_length=32, description="red-rising or red-north", json_schema_extra=rule(enum=list(GAMES))
    )
    players: StrictInt = Field(
        ...,
        description="the table's player count (within the title's: GET /api/titles)",
        json_schema_extra=rule(
            minimum=min(game_class(g).min_players for g in GAMES), maximum=max(game_class(g).max_players for g in GAMES)
        ),
    )
    speed: StrictStr = Field(
        "none",
        max_length=16,
        description="realtime, turn or none (the clock)",
        json_schema_extra=rule(enum=list(SPEEDS)),
    )
    rated: StrictBool = Field(False, description="a rated table (logged-in accounts only)")
    name: StrictStr | None = Field(None, max_length=4 * NAME_MAX, description="display name at the table")


class QuickPlayBotsRequest(Strict):
    bot: StrictStr | None = Field(
        None, max_length=32, description="the bot preset of the empty seats (default: heuristic; GET /api/titles)"
    )


class HeldSeat(Strict):
    game_id: StrictStr = Field(..., max_length=32)
    token: StrictStr = Field(..., max_length=200)


class MyGamesRequest(Strict):
    seats: list[HeldSeat] = Field(default_factory=list, max_length=50, description="seat tokens this browser keeps")


async def _account(request: Request, write: bool = False) -> Any:
    """The logged-in account (None for a guest, or while accounts.py is not installed)."""
    try:
        from . import accounts
    except ImportError:  # pragma: no cover - accounts are part of the server
        return None
    if write:
        return await accounts.account_for_write(request)
    return await accounts.current_account(request)


def _client(request: Request) -> str:
    """The address the request comes from (behind a trusted proxy, its header; the app's rule)."""
    from .accounts import client_address

    return client_address(request)


def _tables(request: Request) -> Any:
    return request.app.state.hub.tables


def _shielded(coro: Any) -> Any:
    """A write that must run to its end even if the client goes away (as the app's other writes)."""
    return asyncio.shield(asyncio.ensure_future(coro))


@router.get("/api/tables", tags=["tables"], response_model=list[OpenTable])
async def open_tables(request: Request) -> Response:
    """Open tables with a free seat, newest first: title, seats taken of the total, rated, speed, clock."""
    return _json(await _tables(request).open_tables())


@router.post(
    "/api/games/{game_id}/sit", tags=["tables"], response_model=Seated, responses=errors(403, 404, 409, 422, 503)
)
async def sit(request: Request, game_id: str, body: SitRequest) -> Response:
    """Take a free seat of an open table in one click: a token for this device (bound to the account
    when logged in; a rated table needs one). A seat token of this game in the header: refused, you
    hold a seat already. The game starts when the last seat is taken."""
    tables = _tables(request)
    account = await _account(request, write=True)
    held = seat_token(request)
    game = await tables.hub.get(game_id)
    if game.table.rated:  # where the account plays from (fairplay.py: one person's accounts are not rated)
        from .fairplay import note_request

        await note_request(request, account)
    return _json(await _shielded(tables.sit(game, body.name, account, held, _client(request))))


@router.post(
    "/api/games/{game_id}/ready",
    tags=["tables"],
    response_model=ReadyConfirmed,
    responses=errors(401, 403, 404, 409, 503),
)
async def ready(request: Request, game_id: str) -> Response:
    """At a rated open table that just filled up: this seat's person (``Authorization: Bearer
    <seat token>``) is ready. Who has not confirmed when the limit passes loses the seat; the
    table starts when everyone has (``readycheck.py``)."""
    tables = _tables(request)
    game = await tables.hub.get(game_id)
    return _json(await _shielded(tables.confirm_ready(game, seat_token(request))))


@router.post(
    "/api/games/{game_id}/fill-bots",
    tags=["tables"],
    response_model=BotsFilled,
    responses=errors(403, 404, 409, 422, 503),
)
async def fill_bots(request: Request, game_id: str, body: FillBotsRequest) -> Response:
    """The creator (``Authorization: Bearer <creator_key>``) puts a bot preset in seats nobody took."""
    tables = _tables(request)
    game = await tables.hub.get(game_id)
    return _json(await _shielded(tables.fill_bots(game, seat_token(request), body.bot, body.seats)))


@router.post(
    "/api/quickplay", tags=["tables"], status_code=201, response_model=QueueState, responses=errors(403, 409, 422, 503)
)
async def quickplay_join(request: Request, body: QuickPlayRequest) -> Response:
    """Wait for a table: the answer's ``ticket`` (secret) is polled with GET and becomes the seat's
    token once a table is made (``status``: waiting, starting or matched)."""
    tables = _tables(request)
    from .moderation_api import refuse_in_maintenance

    await refuse_in_maintenance(request)  # no new tables in maintenance (moderation.py)
    account = await _account(request, write=True)
    if body.rated:
        from .fairplay import note_request

        await note_request(request, account)
    who = _client(request)
    out = await _shielded(tables.quick.join(body.game, body.players, body.speed, body.rated, body.name, account, who))
    return _json(out, 201)


@router.get("/api/quickplay", tags=["tables"], response_model=QueueState, responses=errors(401, 404, 503))
async def quickplay_poll(request: Request) -> Response:
    """Still waiting (how many wait with you), or matched: the game, the seat and its token."""
    return _json(await _shielded(_tables(request).quick.poll(seat_token(request))))


@router.post(
    "/api/quickplay/bots", tags=["tables"], response_model=QueueState, responses=errors(401, 404, 409, 422, 503)
)
async def quickplay_bots(request: Request, body: QuickPlayBotsRequest) -> Response:
    """Nobody came: stop waiting and play now, bots in the empty seats (``Authorization: Bearer
    <ticket>``). Answers as a poll does: ``matched``, the game, the seat and its token (the
    ticket). The poll says ``bots: true`` once the person waited ``bots_after`` seconds (20)."""
    return _json(await _shielded(_tables(request).quick.with_bots(seat_token(request), body.bot)))


@router.delete("/api/quickplay", tags=["tables"], response_model=LeftQueue, responses=errors(401, 404, 409, 503))
async def quickplay_leave(request: Request) -> Response:
    """Leave the queue (a ticket already matched to a table: 409 ``already_matched``)."""
    return _json(await _shielded(_tables(request).quick.leave(seat_token(request))))


@router.get("/api/my/games", tags=["tables"], response_model=list[MyGame | GoneGame])
async def my_games(request: Request) -> Response:
    """The logged-in account's active games: whose turn, my time left (a guest: an empty list)."""
    tables = _tables(request)
    return _json(await tables.my_games(await _account(request), []))


@router.post("/api/my/games", tags=["tables"], response_model=list[MyGame | GoneGame], responses=errors(403))
async def my_games_held(request: Request, body: MyGamesRequest) -> Response:
    """The same for the seat tokens a browser keeps (guests; in the body, never in a URL), and the account's."""
    tables = _tables(request)
    held = [(s.game_id, s.token) for s in body.seats]
    return _json(await tables.my_games(await _account(request), held))
