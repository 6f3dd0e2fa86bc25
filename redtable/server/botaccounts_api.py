"""The HTTP endpoints of bot accounts and API tokens (``botaccounts.py`` has the rules).

Managing the account and its tokens wants the session cookie (and its CSRF header on writes):
a token never makes, lists or revokes tokens.

* ``GET /api/account/tokens``: whether the account is a bot account, its tokens (prefix, label,
  scopes, created, last used; never the token);
* ``POST /api/account/tokens``: a new token, shown once in the answer;
* ``DELETE /api/account/tokens/{id}``: revoke one;
* ``POST /api/account/bot``: make my account a bot account (never played; irreversible);
* ``GET /api/bot/account`` (an API token): who the token plays as, and whether it is a bot;
* ``GET /api/games/{id}/bots``: whether a game is a bot game (the seats bot accounts hold);
* ``GET /api/leaderboard/{title}/bots``: the bot leaderboard (bot accounts and the presets).
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from . import botaccounts as ba
from .accounts import Account, account_for_write, current_account, session_cookie
from .apimodels_more import BotAccount, BotBoard, GameBots, MadeBot, TokenMade, TokenRevoked, Tokens
from .apischema import errors, rule
from .errors import ApiError, clip
from .store import run_blocking
from .tokens import api_token

router = APIRouter()


def _json(body: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status_code=status, media_type="application/json")


class NewToken(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    label: StrictStr = Field(..., min_length=1, max_length=ba.LABEL_MAX, description="what the token is for")
    scopes: list[StrictStr] = Field(
        ...,
        min_length=1,
        max_length=len(ba.SCOPES),
        description="read, bot:play",
        json_schema_extra=rule(items={"type": "string", "enum": list(ba.SCOPES)}),
    )


async def _owner(request: Request, write: bool = False) -> Account:
    """The account of the session cookie: a token does not manage tokens."""
    if session_cookie(request) is None:
        if api_token(request) is not None:
            raise ApiError(403, "session_required", "tokens are managed from a logged-in session, not with a token")
        raise ApiError(401, "login_required", "log in first")
    account = await (account_for_write(request) if write else current_account(request))
    if account is None:
        raise ApiError(401, "login_required", "log in first")
    return account


def _store(request: Request) -> Any:
    return request.app.state.store


@router.get("/api/account/tokens", tags=["bots"], response_model=Tokens, responses=errors(400, 401, 403))
async def tokens(request: Request) -> Response:
    """Whether my account is a bot account, and its API tokens (never the tokens themselves)."""
    me = await _owner(request)
    store = _store(request)
    bot = await run_blocking(ba.is_bot, store, me.id)
    return _json({"bot": bot, "scopes": list(ba.SCOPES), "tokens": await run_blocking(ba.list_tokens, store, me.id)})


@router.post(
    "/api/account/tokens",
    tags=["bots"],
    status_code=201,
    response_model=TokenMade,
    responses=errors(400, 401, 403, 409, 422),
)
async def create(request: Request, body: NewToken) -> Response:
    """A new API token for my account: the answer's ``token`` is shown this once (only its hash is kept)."""
    me = await _owner(request, write=True)
    return _json(await run_blocking(ba.create_token, _store(request), me.id, body.label, list(body.scopes)), 201)


@router.delete(
    "/api/account/tokens/{token_id}", tags=["bots"], response_model=TokenRevoked, responses=errors(400, 401, 403, 404)
)
async def revoke(request: Request, token_id: int = PathParam(..., ge=1, le=2**31 - 1)) -> Response:
    """Revoke one of my tokens: a program using it is refused from its next request."""
    me = await _owner(request, write=True)
    if not await run_blocking(ba.revoke_token, _store(request), me.id, token_id):
        raise ApiError(404, "unknown_api_token", "no such token of your account")
    return _json({"revoked": token_id})


@router.post("/api/account/bot", tags=["bots"], response_model=MadeBot, responses=errors(400, 401, 403, 409))
async def make_bot(request: Request) -> Response:
    """Make my account a bot account (irreversible; refused once the account has played)."""
    me = await _owner(request, write=True)
    made = await run_blocking(ba.make_bot, _store(request), me.id, "owner")
    return _json({"username": me.username, "bot": True, "made": made})


@router.get("/api/bot/account", tags=["bots"], response_model=BotAccount, responses=errors(400, 401, 403))
async def bot_account(request: Request) -> Response:
    """Who the API token plays as (``Authorization: Bearer rtb_...``)."""
    if api_token(request) is None:
        raise ApiError(401, "api_token_required", "send the account's API token: Authorization: Bearer rtb_...")
    me = await current_account(request)
    assert me is not None  # (an unknown token was refused)
    return _json({"username": me.username, "bot": await run_blocking(ba.is_bot, _store(request), me.id)})


@router.get("/api/games/{game_id}/bots", tags=["bots"], response_model=GameBots, responses=errors(404, 503))
async def game_bots(request: Request, game_id: str = PathParam(..., max_length=32)) -> Response:
    """Whether a game is a bot game: the seats bot accounts hold (public, as the seats' names are)."""
    game = await request.app.state.hub.get(game_id)
    seats = await run_blocking(ba.bot_seats, _store(request), game.id)
    return _json({"game_id": game.id, "bot_game": bool(seats), "bot_seats": seats})


@router.get("/api/leaderboard/{title}/bots", tags=["bots"], response_model=BotBoard, responses=errors(404))
async def bot_board(
    request: Request,
    title: str = PathParam(..., max_length=40),
    limit: int = Query(50, ge=1, le=100),
    offset: int = Query(0, ge=0, le=100_000),
) -> Response:
    """The bot leaderboard of a title: bot accounts (rated in their games) and the bot presets (fixed)."""
    from ..core import GAMES
    from .botboard import bot_leaderboard

    if title not in GAMES:
        raise ApiError(404, "unknown_title", f"unknown game {clip(title, 40)}", games=list(GAMES))
    return _json(await run_blocking(bot_leaderboard, _store(request), title, limit, offset))
