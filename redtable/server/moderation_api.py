"""The moderation endpoints (``moderation.py`` has the rules and the tables; ``docs/moderation.md``).

Anyone (an account, or a guest keyed on its network as the chat keys a spectator):

* ``POST /api/reports``: report a player, a chat message or a table (rate-limited, once per target);
* ``GET /api/site``: the announcement banner and whether the server is in maintenance;
* ``GET /api/me/notices``: what moderators did to this account and why (unseen), and its role;
  ``POST /api/me/notices/seen`` marks them read.

Moderators and admins (403 ``moderators_only`` for anyone else, a guest included):

* ``GET /api/mod/reports?status=open``, ``GET /api/mod/reports/{id}`` (with its context),
  ``POST /api/mod/reports/{id}`` (resolve or dismiss);
* ``POST /api/mod/actions``: warn, mute, suspend, ban (and lift them), remove a chat message,
  close a table, undo a game's rating changes. Every action is in the audit log.

Admins only (403 ``admins_only``): ``GET /api/admin/audit``, ``POST /api/admin/site``.
"""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from . import moderation as mod
from . import sharedlimits, tabledb
from .accounts import Account, account_by_name, client_address, current_account, require_csrf
from .apimodels import ActionTaken, Audit, Notices, ReportClosed, ReportContext, ReportFiled, Reports, Seen, Site
from .apischema import errors
from .errors import ApiError, clip
from .limits import network_key, rate_limited
from .store import run_blocking

router = APIRouter(tags=["moderation"])


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ReportRequest(Strict):
    kind: Literal["player", "message", "table"] = Field(..., description="what is reported")
    reason: Literal["cheating", "chat_abuse", "stalling", "bad_name", "other"]
    note: StrictStr | None = Field(None, max_length=4 * mod.NOTE_MAX, description=f"at most {mod.NOTE_MAX} characters")
    username: StrictStr | None = Field(None, max_length=100, description="a player (from a profile)")
    game_id: StrictStr | None = Field(None, max_length=32, description="a table, or with seat a player at it")
    seat: StrictInt | None = Field(None, ge=0, le=7)
    chat_id: StrictInt | None = Field(None, ge=1, le=2**31 - 1, description="a chat message")


class ActionRequest(Strict):
    action: Literal[
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
    ]
    reason: StrictStr = Field(..., min_length=1, max_length=4 * mod.REASON_MAX, description="why: the player reads it")
    username: StrictStr | None = Field(None, max_length=100, description="the account acted on")
    game_id: StrictStr | None = Field(None, max_length=32, description="close_table, undo_ratings")
    chat_id: StrictInt | None = Field(None, ge=1, le=2**31 - 1, description="remove_message")
    minutes: StrictInt | None = Field(
        None, ge=1, le=mod.MINUTES_MAX, description="mute, suspend: how long (none: until lifted)"
    )
    report_id: StrictInt | None = Field(None, ge=1, le=2**31 - 1, description="the report this acts on (resolved)")


class CloseReport(Strict):
    status: Literal["resolved", "dismissed"]


class SiteRequest(Strict):
    banner: StrictStr | None = Field(None, max_length=4 * mod.BANNER_MAX, description="empty or null: no banner")
    maintenance: StrictBool | None = None


class SeenRequest(Strict):
    # (a notice's id is an INTEGER column: a larger number failed in the database, a 500)
    ids: list[Annotated[StrictInt, Field(ge=-(2**31), le=2**31 - 1)]] = Field(..., min_length=1, max_length=50)


def _json(body: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status_code=status, media_type="application/json")


def _store(request: Request) -> Any:
    return request.app.state.store


def _hub(request: Request) -> Any:
    return request.app.state.hub


async def staff(request: Request, need: str = "moderator", write: bool = False) -> tuple[Account, str]:
    """The logged-in account if it holds ``need`` (an admin holds a moderator's rights); else 403."""
    account = await current_account(request)
    role = await run_blocking(mod.role_of, _store(request), account.id) if account is not None else None
    if not mod.may(role, need):
        if need == "admin":
            raise ApiError(403, "admins_only", "only the server's admins may do this")
        raise ApiError(403, "moderators_only", "only the server's moderators may do this")
    if write:
        require_csrf(request)
    assert account is not None and role is not None
    return account, role


async def refuse_in_maintenance(request: Request) -> None:
    """503 ``maintenance`` while the site is in maintenance (read from the database: a fleet agrees)."""
    if (await run_blocking(mod.site, _store(request)))["maintenance"]:
        raise mod.maintenance_error()


# ---------------------------------------------------------------------- everyone
@router.post("/api/reports", status_code=201, response_model=ReportFiled, responses=errors(401, 403, 404, 409, 422))
async def report(request: Request, body: ReportRequest) -> Response:
    """Report a player (``username``, or ``game_id`` and ``seat``), a chat message (``chat_id``) or a
    table (``game_id``), with a reason and an optional note. Once per reporter and target."""
    account = await current_account(request)
    if account is not None:
        require_csrf(request)
    client = client_address(request)
    hub = _hub(request)
    rate = hub.limits.rates["report"]
    wait = hub.limiter.try_take(client, "report")
    if wait <= 0:  # this process's bucket, then the fleet's (a report costs a moderator's time)
        who = f"a:{account.id}" if account is not None else client
        wait = await run_blocking(sharedlimits.take, _store(request), who, "report", rate)
    if wait > 0:
        raise rate_limited("report", wait, "reports")
    note = mod.clean(body.note, mod.NOTE_MAX, "note") if body.note and body.note.strip() else None
    target = await run_blocking(mod.report_target, _store(request), body.kind, body.model_dump())
    reporter = f"a:{account.id}" if account is not None else f"n:{network_key(client)}"
    rid = await run_blocking(
        mod.file_report,
        _store(request),
        reporter[:80],
        account.id if account is not None else None,
        body.kind,
        target,
        body.reason,
        note,
    )
    return _json({"report_id": rid, "status": "open"}, 201)


@router.get("/api/site", response_model=Site)
async def site(request: Request) -> Response:
    """The announcement banner (null: none) and whether the server is in maintenance (no new tables)."""
    return _json(await run_blocking(mod.site, _store(request)))


@router.get("/api/me/notices", response_model=Notices)
async def my_notices(request: Request) -> Response:
    """What moderators did to this account and why (not yet marked seen), the sanctions in force,
    and the account's role (seen by nobody else). A guest: nothing."""
    account = await current_account(request)
    if account is None:
        return _json({"role": None, "notices": [], "sanctions": {}})
    store = _store(request)
    role = await run_blocking(mod.role_of, store, account.id)
    notices = await run_blocking(mod.unseen_notices, store, account.id)
    sanctions = await run_blocking(mod.active_sanctions, store, account.id)
    return _json(
        {
            "role": role,
            "notices": notices,
            "sanctions": {k: {"until": v.until, "reason": v.reason} for k, v in sanctions.items()},
        }
    )


@router.post("/api/me/notices/seen", response_model=Seen, responses=errors(401, 403))
async def notices_seen(request: Request, body: SeenRequest) -> Response:
    """Mark this account's notices read."""
    account = await current_account(request)
    if account is None:
        raise ApiError(401, "login_required", "log in to read your notices")
    require_csrf(request)
    return _json({"seen": await run_blocking(mod.mark_seen, _store(request), account.id, body.ids)})


# ---------------------------------------------------------------------- moderators
@router.get("/api/mod/reports", response_model=Reports, responses=errors(401, 403))
async def reports(
    request: Request,
    status: Literal["open", "resolved", "dismissed"] = "open",
    limit: int = Query(100, ge=1, le=500),
) -> Response:
    """Reports, newest first (default the open ones)."""
    await staff(request)
    return _json({"reports": await run_blocking(mod.list_reports, _store(request), status, limit)})


@router.get("/api/mod/reports/{report_id}", response_model=ReportContext, responses=errors(401, 403, 404))
async def report_detail(request: Request, report_id: int = PathParam(..., ge=1, le=2**31 - 1)) -> Response:
    """One report with its context: the chat around the message, the replay link, the reported
    account's other reports, the actions taken on it and its sanctions in force."""
    await staff(request)
    return _json(await run_blocking(mod.report_context, _store(request), report_id))


@router.post("/api/mod/reports/{report_id}", response_model=ReportClosed, responses=errors(401, 403, 404, 409))
async def close_report(
    request: Request, body: CloseReport, report_id: int = PathParam(..., ge=1, le=2**31 - 1)
) -> Response:
    """Resolve or dismiss an open report (409 ``report_closed`` if it is not open)."""
    account, _ = await staff(request, write=True)
    if not await run_blocking(mod.close_report, _store(request), report_id, body.status, account.id):
        raise ApiError(409, "report_closed", f"report {report_id} is closed already")
    return _json({"report_id": report_id, "status": body.status})


@router.post(
    "/api/mod/actions", status_code=201, response_model=ActionTaken, responses=errors(401, 403, 404, 409, 422, 503)
)
async def act(request: Request, body: ActionRequest) -> Response:
    """Act on an account, a chat message, a table or a game's ratings; the player is told, the
    audit log keeps who, when, what and why."""
    account, _ = await staff(request, write=True)
    store = _store(request)
    hub = _hub(request)
    reason = mod.clean(body.reason, mod.REASON_MAX, "reason")
    a = body.action
    common: dict[str, Any] = {"actor_id": account.id, "actor": account.username, "reason": reason}
    if body.report_id is not None:
        common["report_id"] = body.report_id
    out: dict[str, Any] = {"action": a}
    if a in ("warn", "mute", "unmute", "suspend", "unsuspend", "ban", "unban"):
        if not body.username:
            raise ApiError(422, "bad_action", f"{a} needs the 'username' of the account")
        found = await run_blocking(account_by_name, store, body.username)
        if found is None:
            raise ApiError(404, "unknown_player", f"no player named {clip(body.username, 40)}")
        target = found[0]
        if target.id == account.id:
            raise ApiError(422, "bad_action", "moderators do not act on their own account")
        if a in ("mute", "suspend", "ban") and await run_blocking(mod.role_of, store, target.id) == "admin":
            raise ApiError(403, "admins_only", "an admin's account is not sanctioned: revoke the role first")
        until = time.time() + body.minutes * 60 if body.minutes and a in ("mute", "suspend") else None
        kw: dict[str, Any] = {"account_id": target.id, "until": until, "notice": True, "game_id": body.game_id}
        if a in ("mute", "suspend", "ban"):
            kw["sanction"] = a
        if a.startswith("un"):
            kw["lift"] = a[2:]
        if a in ("suspend", "ban"):
            kw["end_sessions"] = True
        action_id = await run_blocking(lambda: mod.record_action(store, action=a, **common, **kw))
        out.update(action_id=action_id, username=target.username, until=until)
        tell(hub, target.id, {"action": a, "reason": reason, "until": until})
        if a in ("suspend", "ban"):
            out["seats"] = await bots_play(hub, target.id)
    elif a == "remove_message":
        if body.chat_id is None:
            raise ApiError(422, "bad_action", "remove_message needs the 'chat_id'")
        try:
            who = await run_blocking(mod.report_target, store, "message", {"chat_id": body.chat_id})
        except ApiError:
            raise ApiError(404, "unknown_message", f"no chat message {body.chat_id}") from None
        game_id = await run_blocking(mod.remove_message, store, body.chat_id)
        action_id = await run_blocking(
            lambda: mod.record_action(
                store,
                action=a,
                **common,
                account_id=who["account_id"],
                game_id=game_id,
                chat_id=body.chat_id,
                notice=True,
            )
        )
        game = await hub.get(game_id)
        hub.chat.removed(game, body.chat_id, publish=True)
        if who["account_id"] is not None:
            tell(hub, who["account_id"], {"action": a, "reason": reason, "game_id": game_id})
        out.update(action_id=action_id, chat_id=body.chat_id, game_id=game_id)
    elif a == "close_table":
        if not body.game_id:
            raise ApiError(422, "bad_action", "close_table needs the 'game_id'")
        game = await hub.get(body.game_id)
        await asyncio.shield(asyncio.ensure_future(close_table(hub, game)))
        action_id = await run_blocking(
            lambda: mod.record_action(store, action=a, **common, game_id=game.id, detail={"closed": True})
        )
        out.update(action_id=action_id, game_id=game.id)
    else:  # undo_ratings
        if not body.game_id:
            raise ApiError(422, "bad_action", "undo_ratings needs the 'game_id'")
        changed = await run_blocking(mod.undo_ratings, store, body.game_id)
        action_id = await run_blocking(
            lambda: mod.record_action(store, action=a, **common, game_id=body.game_id, detail=changed)
        )
        out.update(action_id=action_id, game_id=body.game_id, changed=changed["changed"])
    if body.report_id is not None:
        try:
            await run_blocking(mod.close_report, store, body.report_id, "resolved", account.id)
        except ApiError:
            pass  # (an unknown report: the action stands)
    return _json(out, 201)


# ---------------------------------------------------------------------- admins
@router.get("/api/admin/audit", response_model=Audit, responses=errors(401, 403))
async def audit(
    request: Request,
    limit: int = Query(100, ge=1, le=500),
    before: int | None = Query(None, ge=1, le=2**31 - 1, description="only actions older than this action_id"),
) -> Response:
    """The audit log, newest first: who acted, when, what, on whom and why."""
    await staff(request, "admin")
    return _json({"actions": await run_blocking(mod.audit, _store(request), limit, before)})


@router.post("/api/admin/site", response_model=Site, responses=errors(401, 403, 422))
async def set_site(request: Request, body: SiteRequest) -> Response:
    """Set the banner (``""`` or null removes it) and/or the maintenance mode; in the audit log."""
    account, _ = await staff(request, "admin", write=True)
    store = _store(request)
    fields = body.model_fields_set
    if not fields:
        raise ApiError(422, "bad_site", "send 'banner' and/or 'maintenance'")
    if "banner" in fields:
        banner = mod.check_banner(body.banner)
        await run_blocking(mod.set_site, store, "banner", banner, account.username)
        await run_blocking(
            lambda: mod.record_action(
                store, actor_id=account.id, actor=account.username, action="banner", reason=banner or "(removed)"
            )
        )
    if "maintenance" in fields and body.maintenance is not None:
        on = "on" if body.maintenance else "off"
        await run_blocking(mod.set_site, store, "maintenance", on, account.username)
        await run_blocking(
            lambda: mod.record_action(
                store, actor_id=account.id, actor=account.username, action="maintenance", reason=on
            )
        )
    return _json(await run_blocking(mod.site, store))


# ---------------------------------------------------------------------- effects on live games
def tell(hub: Any, account_id: int, notice: dict[str, Any]) -> None:
    """Push the notice at once to the account's seats' sockets in this process (the page also reads
    it at its next load: ``GET /api/me/notices``)."""

    async def run() -> None:
        seats = await run_blocking(tabledb.account_games, hub.store, account_id)
        text = orjson.dumps({"type": "mod_notice", **notice}).decode()
        for gid, seat in seats:
            game = hub.games.get(gid)
            if game is None:
                continue
            for c in game.conns:
                if c.seat == seat:
                    c.push(text)

    hub.spawn(run(), f"telling account {account_id} of a moderator's action")


async def bots_play(hub: Any, account_id: int, why: str = "suspended", waiting: bool = True) -> list[str]:
    """A suspended or banned account's running seats are played by a bot (rated: a forfeit, as a
    seat whose time ran out); so are a deleted account's (``why``: ``deleted``, ``selfservice.py``,
    which frees its seats at tables still ``waiting`` instead: ``waiting=False`` leaves them).
    Answers the games changed."""
    out = []
    for gid, seat in await run_blocking(tabledb.account_games, hub.store, account_id):
        try:
            game = await hub.get(gid)
        except ApiError:
            continue
        if not waiting and game.status == "waiting":
            continue
        if await asyncio.shield(asyncio.ensure_future(_seat_to_bot(hub, game, seat, why))):
            out.append(gid)
    return out


async def _seat_to_bot(hub: Any, game: Any, seat: int, why: str = "suspended") -> bool:
    from .tables import TIMEOUT_BOT

    tables = hub.tables
    async with game.lock:
        if hub.fleet is not None:
            await hub.catch_up_locked(game)
        if game.evicted or game.finished or not 0 <= seat < game.players or game.seats[seat].kind != "human":
            return False
        tbl = game.table
        now = time.time()
        message = f"seat {seat}'s player was {why}: a bot plays the seat"
        if tbl.rated:
            forfeits = sorted({*tbl.forfeits, seat})
            rest = [s for s in range(game.players) if s not in forfeits]
            if len(rest) <= 1:  # nobody left to play against: the game ends, the other wins
                result = {"scores": game.state.scores(), "winners": rest, "forfeited": forfeits, "reason": why}
                done = await hub.write(tables.op(tabledb.end_game(game.id, "finished", result, now)), f"a seat {why}")
                if done:
                    tbl.forfeits, tbl.ended = forfeits, result
                    game.finished_at = now
                    if tbl.clock is not None:
                        tbl.clock.expire(seat)
                    tables.notice(game, f"seat_{why}", message, seat=seat)
                    tables.publish(game)
                    hub.rate_finished(game)
                return bool(done)
        fleet = hub.fleet
        lease = (fleet.me, fleet.lease_seconds) if fleet is not None else None
        t0 = time.monotonic()
        done, leased = await hub.write(
            tables.op(tabledb.seat_to_bot(game.id, seat, TIMEOUT_BOT, tbl.rated, lease)), f"a seat {why}"
        )
        if not done:
            return False
        if fleet is not None:
            fleet.note_lease(game.id, leased, t0)
        if tbl.rated:
            tbl.forfeits = sorted({*tbl.forfeits, seat})
            tbl.zombify(game)
        else:
            game.seats[seat].kind, game.seats[seat].bot = "bot", TIMEOUT_BOT
            game.humans = sum(1 for s in game.seats if s.kind == "human")
        if tbl.clock is not None:
            tbl.clock.expire(seat)
        tables.notice(game, f"seat_{why}", message, seat=seat)
        tables.publish(game)
    tables.arm(game)
    hub.after_change(game)
    return True


async def close_table(hub: Any, game: Any) -> None:
    """A moderator closes a table: abandoned (reason ``moderator``), never rated; 409 if it is over."""
    tables = hub.tables
    async with game.lock:
        if hub.fleet is not None:
            await hub.catch_up_locked(game)
        if game.finished:
            raise ApiError(409, "game_over", "this table's game is over", version=game.version)
        now = time.time()
        closed = {"reason": "moderator", "at": now}
        done = await hub.write(
            tables.op(tabledb.end_game(game.id, "abandoned", {"closed": closed}, now)), "closing a table"
        )
        if not done:
            raise ApiError(409, "game_over", "this table's game is over", version=game.version)
        tables.counts["closed"] += 1
        game.table.closed = closed
        game.finished_at = now
        old = tables.timers.pop(game.id, None)
        if old is not None:
            old.cancel()
        tables.notice(game, "moderator_closed", "a moderator closed this table", reason="moderator")
        tables.publish(game)
