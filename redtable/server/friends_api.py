"""The friends endpoints (``friends.py`` has the rules and the tables; ``docs/server.md`` lists them).

Logged-in accounts only (401 ``login_required`` for a guest); writes carry the CSRF header and
spend the account's ``friends`` bucket (in storage: a fleet shares it, ``sharedlimits.py``).

* ``GET /api/friends``: whom I follow (online: at a table now), their open tables and live
  games, and the invitations waiting for me;
* ``GET /api/friends/{username}``: whether I follow / block that player;
* ``PUT`` / ``DELETE /api/friends/{username}``: follow, unfollow;
* ``GET /api/blocks``; ``PUT`` / ``DELETE /api/blocks/{username}``: block, unblock;
* ``GET /api/games/{id}/accounts``: the seats that play as their account (the seat's name is
  the account's), for the table's and the end screen's follow and block buttons;
* ``POST /api/games/{id}/friend-invites`` ``{"username", "seat"?}``: the table's creator
  (``Authorization: Bearer <creator_key>``) invites a followed player to an empty seat of a
  waiting table; ``GET`` lists the table's invitations, ``DELETE .../friend-invites/{seat}``
  withdraws one;
* ``GET /api/invitations``; ``POST /api/invitations/{id}/accept`` (the seat: a token for
  this device, as ``sit`` answers), ``POST /api/invitations/{id}/decline``.

The invitee hears of an invitation through ``notices.invited`` (push, e-mail: its settings),
at once on its seats' sockets (``{"type": "friend_invite"}``; in a fleet the other processes
are asked on the bus to tell theirs), and in the lobby's list (read again as the page polls).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from functools import partial
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from . import friends as fr
from . import notices, sharedlimits, tabledb
from .accounts import USERNAME_MAX, Account, account_by_name, account_for_write, current_account
from .apimodels_friends import (
    BlockList,
    Declined,
    FriendsPage,
    InviteAccepted,
    InviteSent,
    MyInvites,
    Relation,
    TableAccounts,
    TableInvites,
    Withdrawn,
)
from .apischema import errors
from .botaccounts import is_bot
from .errors import ApiError, clip
from .limits import rate_limited
from .store import Store, run_blocking
from .tokens import new_secret, seat_token, sha

router = APIRouter(tags=["friends"])

Username = PathParam(..., min_length=1, max_length=USERNAME_MAX, pattern=r"^[A-Za-z0-9_-]+$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class InviteRequest(Strict):
    username: StrictStr = Field(..., min_length=1, max_length=USERNAME_MAX, pattern=r"^[A-Za-z0-9_-]+$")
    seat: StrictInt | None = Field(None, ge=0, le=7, description="the empty seat (default: the first one)")


def _json(body: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status_code=status, media_type="application/json")


def _store(request: Request) -> Any:
    return request.app.state.store


def _hub(request: Request) -> Any:
    return request.app.state.hub


async def _me(request: Request, write: bool = False) -> Account:
    account = await (account_for_write(request) if write else current_account(request))
    if account is None:
        raise ApiError(401, "friends_login", "friends are for logged-in accounts: log in first")
    return account


async def _spend(request: Request, account: Account) -> None:
    """One token of the account's ``friends`` bucket (this process first, then the fleet's)."""
    hub = _hub(request)
    key = f"#{account.id}"
    wait = hub.limiter.try_take(key, "friends")
    if wait <= 0:
        wait = await run_blocking(sharedlimits.take, _store(request), key, "friends", hub.limits.rates["friends"])
    if wait > 0:
        raise rate_limited("friends", wait, "changes to your friends")


async def _other(request: Request, me: Account, username: str) -> Account:
    found = await run_blocking(account_by_name, _store(request), username)
    if found is None:
        raise ApiError(404, "unknown_player", f"no player named {clip(username, 40)}")
    if found[0].id == me.id:
        raise ApiError(422, "self", "that is your own account")
    return found[0]


def _online(hub: Any, seats: list[tuple[str, int]]) -> bool:
    """At a table now: a socket of one of the seats is open (here, or another process said so)."""
    for gid, seat in seats:
        g = hub.games.get(gid)
        if g is not None and seat in g.connected_seats():
            return True
    return False


# ---------------------------------------------------------------------- follows
@router.get("/api/friends", response_model=FriendsPage, responses=errors(401))
async def friends_list(request: Request) -> Response:
    """Whom I follow (``online``: at a table now), their open tables and live games, my invitations."""
    me = await _me(request)
    store, hub = _store(request), _hub(request)
    out = await run_blocking(fr.friends_view, store, me.id)
    for f in out["friends"]:
        f["online"] = _online(hub, f.pop("seats"))
    out["invites"] = await run_blocking(fr.invites_for, store, me.id)
    return _json(out)


@router.get("/api/friends/{username}", response_model=Relation, responses=errors(401, 404, 422))
async def relation(request: Request, username: str = Username) -> Response:
    """Whether I follow and whether I block the player (never whether they block me)."""
    me = await _me(request)
    other = await _other(request, me, username)
    return _json({"username": other.username, **await run_blocking(fr.relation, _store(request), me.id, other.id)})


async def _change_relation(request: Request, username: str, change: Callable[[Store, int, int], Any]) -> Response:
    """Follow, unfollow, block or unblock ``username`` (a write: it spends the account's token
    first), then answer the relation as it stands."""
    me = await _me(request, write=True)
    other = await _other(request, me, username)
    await _spend(request, me)
    await run_blocking(change, _store(request), me.id, other.id)
    return _json({"username": other.username, **await run_blocking(fr.relation, _store(request), me.id, other.id)})


@router.put("/api/friends/{username}", response_model=Relation, responses=errors(401, 403, 404, 422))
async def follow(request: Request, username: str = Username) -> Response:
    """Follow the player (their open tables and live games show in my lobby)."""
    return await _change_relation(request, username, fr.follow)


@router.delete("/api/friends/{username}", response_model=Relation, responses=errors(401, 403, 404, 422))
async def unfollow(request: Request, username: str = Username) -> Response:
    return await _change_relation(request, username, fr.unfollow)


# ---------------------------------------------------------------------- blocks
@router.get("/api/blocks", response_model=BlockList, responses=errors(401))
async def blocks_list(request: Request) -> Response:
    """The players I block, newest first."""
    me = await _me(request)
    return _json({"blocks": await run_blocking(fr.blocked_list, _store(request), me.id)})


@router.put("/api/blocks/{username}", response_model=Relation, responses=errors(401, 403, 404, 422))
async def block(request: Request, username: str = Username) -> Response:
    """Block the player: no invitations, no shared tables, no chat lines either way."""
    return await _change_relation(request, username, fr.block)


@router.delete("/api/blocks/{username}", response_model=Relation, responses=errors(401, 403, 404, 422))
async def unblock(request: Request, username: str = Username) -> Response:
    return await _change_relation(request, username, fr.unblock)


@router.get("/api/games/{game_id}/accounts", response_model=TableAccounts, responses=errors(401, 404))
async def table_accounts(request: Request, game_id: str = PathParam(..., max_length=32)) -> Response:
    """The table's seats that play as their account (its name), for follow and block buttons."""
    await _me(request)
    game = await _hub(request).get(game_id)
    if game.tutorial:
        return _json({"players": []})
    return _json({"players": await run_blocking(fr.seat_accounts, _store(request), game.id)})


# ---------------------------------------------------------------------- invitations: the creator
def _creator(request: Request, game: Any) -> None:
    key = seat_token(request)
    if not key or not game.creator_hash or not secrets.compare_digest(sha(key), game.creator_hash):
        raise ApiError(
            403, "not_creator", "only the table's creator (with the creator_key the creation answered) may invite"
        )


def _waiting(game: Any) -> None:
    if game.table.status(game) != "waiting":
        raise ApiError(409, "not_waiting", "this table waits for nobody: its seats are taken or its game is over")


@router.post(
    "/api/games/{game_id}/friend-invites",
    status_code=201,
    response_model=InviteSent,
    responses=errors(400, 401, 403, 404, 409, 422),
)
async def invite(request: Request, body: InviteRequest, game_id: str = PathParam(..., max_length=32)) -> Response:
    """Invite a player I follow to an empty seat of my waiting table (they hear of it; no link)."""
    me = await _me(request, write=True)
    hub, store = _hub(request), _store(request)
    game = await hub.get(game_id)
    _creator(request, game)
    if hub.fleet is not None:
        await hub.reload_seats(game)  # (a seat taken through another process a moment ago)
    _waiting(game)
    other = await _other(request, me, body.username)
    free = [s.index for s in game.seats if s.kind == "human" and s.joined_at is None]
    seat = body.seat if body.seat is not None else (free[0] if free else None)
    if seat is None or seat not in free:
        raise ApiError(409, "seat_taken", f"seat {seat} is not an empty seat of this table", free=free)
    if any(gid == game.id for gid, _ in await run_blocking(tabledb.account_games, store, other.id)):
        raise ApiError(409, "friend_seated", f"{other.username} already sits at this table")
    await _spend(request, me)
    bot = await run_blocking(is_bot, store, other.id)  # anyone challenges a bot account (botaccounts.py)
    invite_id = await run_blocking(partial(fr.add_invite, follow=not bot), store, game.id, seat, me.id, other.id)
    note = {"invite_id": invite_id, "game_id": game.id, "seat": seat, "from": me.username, "game": game.name}
    await _tell(hub, other.id, note)
    await notices.invited(hub, other.id, game.id, game.name, me.username)
    return _json({"invite_id": invite_id, "game_id": game.id, "seat": seat, "username": other.username}, 201)


@router.get("/api/games/{game_id}/friend-invites", response_model=TableInvites, responses=errors(400, 403, 404))
async def table_invites(request: Request, game_id: str = PathParam(..., max_length=32)) -> Response:
    """The creator reads whom the table's empty seats wait for."""
    game = await _hub(request).get(game_id)
    _creator(request, game)
    return _json({"invites": await run_blocking(fr.invites_of_table, _store(request), game.id)})


@router.delete("/api/games/{game_id}/friend-invites/{seat}", response_model=Withdrawn, responses=errors(400, 403, 404))
async def withdraw(
    request: Request, game_id: str = PathParam(..., max_length=32), seat: int = PathParam(..., ge=0, le=7)
) -> Response:
    """The creator withdraws the invitation of a seat."""
    game = await _hub(request).get(game_id)
    _creator(request, game)
    return _json({"withdrawn": await run_blocking(fr.withdraw, _store(request), game.id, seat)})


async def _tell(hub: Any, account_id: int, note: dict[str, Any]) -> None:
    """Push the invitation to the account's seats' sockets in this process, and (a fleet) ask the
    other processes to tell theirs (``<game>:f:<process>:<seat>``, ``heard``); the page then reads
    its invitations (the lobby lists them too)."""
    seats = await run_blocking(tabledb.account_games, hub.store, account_id)
    text = orjson.dumps({"type": "friend_invite", **note}).decode()
    for gid, seat in seats:
        _push(hub.games.get(gid), seat, text)
        if hub.fleet is not None:
            hub.fleet.bus.publish(f"{gid}:f:{hub.fleet.tag}:{seat}")


def _push(game: Any, seat: int, text: str) -> None:
    for c in game.conns if game is not None else ():
        if c.seat == seat:
            c.push(text)


def heard(game: Any, rest: str, tag: str) -> None:
    """``f:<process>:<seat>`` from the bus: another process stored an invitation for the account of
    ``seat``; its sockets here are told (the page reads the details with ``GET /api/invitations``)."""
    parts = rest.split(":")
    if len(parts) != 3 or parts[1] == tag or not parts[2].isdigit():
        return
    _push(game, int(parts[2]), orjson.dumps({"type": "friend_invite", "game_id": game.id}).decode())


# ---------------------------------------------------------------------- invitations: the invitee
@router.get("/api/invitations", response_model=MyInvites, responses=errors(401))
async def my_invites(request: Request) -> Response:
    """The invitations waiting for me, newest first."""
    me = await _me(request)
    return _json({"invites": await run_blocking(fr.invites_for, _store(request), me.id)})


@router.post("/api/invitations/{invite_id}/accept", response_model=InviteAccepted, responses=errors(401, 403, 404, 409))
async def accept(request: Request, invite_id: int = PathParam(..., ge=1, le=2**31 - 1)) -> Response:
    """Take the seat I was invited to: a token for this device, bound to my account."""
    me = await _me(request, write=True)
    hub, store = _hub(request), _store(request)
    got = await run_blocking(fr.take_invite, store, invite_id, me.id)
    if got is None:
        raise ApiError(404, "unknown_invite", "no such invitation (it was withdrawn, declined or its table is gone)")
    game = await hub.get(got[0])
    seat = got[1]
    if game.finished:
        raise ApiError(409, "game_over", "this table's game is over", version=game.version)
    await run_blocking(fr.check_may_sit, store, game.id, me.id)
    if game.table.rated:
        from .fairplay import note_request

        await note_request(request, me)
    if hub.fleet is not None:
        await hub.reload_seats(game)
    token = new_secret()
    ok = await asyncio.shield(
        asyncio.ensure_future(hub.tables.seat_person(game, seat, sha(token), me.username, (me.id, True)))
    )
    if not ok:
        raise ApiError(409, "seat_taken", f"seat {seat} was taken meanwhile")
    return _json(
        {
            "game_id": game.id,
            "seat": seat,
            "token": token,
            "name": me.username,
            "url": f"/api/games/{game.id}",
            "ws_url": f"/api/games/{game.id}/ws",
        }
    )


@router.post("/api/invitations/{invite_id}/decline", response_model=Declined, responses=errors(401, 403, 404))
async def decline(request: Request, invite_id: int = PathParam(..., ge=1, le=2**31 - 1)) -> Response:
    me = await _me(request, write=True)
    got = await run_blocking(fr.take_invite, _store(request), invite_id, me.id)
    if got is None:
        raise ApiError(404, "unknown_invite", "no such invitation (it was withdrawn, declined or its table is gone)")
    return _json({"declined": invite_id})
