"""Account self-service: ``DELETE /api/account`` (delete my account), ``GET /api/account/export``.

* **Delete** (logged in, CSRF-checked): the body re-enters the password (``{"password"}``),
  or, without it, the session must be a recent log-in (:data:`RECENT_LOGIN` seconds). Then,
  in this order: every session ends (the account writes nothing more meanwhile); its running
  seats are handed to a bot as a suspension's are (``moderation_api.bots_play``: rated, a
  forfeit); :func:`erasure.erase` deletes and anonymises in one transaction; the games this
  process holds in memory take the new seats (and the other processes of a fleet re-read
  them); the answer clears the cookie. What goes and what stays: ``erasure.py`` and
  ``docs/security.md``.
* **Export** (logged in): everything kept about the account as one JSON download
  (``accountexport.py``), at most :data:`EXPORT_RATE` per account (429 beyond), since each
  reads every table the account appears in.

The username is free for a new account at once: nothing that stays names it (seats, chat
lines and reports show the label ``deleted player #N``; ratings and history are gone), so a
newcomer under that name inherits no record, rating or report (``docs/security.md``).
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from . import accounts as acc
from . import loginguard as guard
from . import sharedlimits
from .accountexport import export
from .apimodels_self import AccountDeleted, AccountExport
from .apischema import errors
from .emails import end_sessions, logged_in, password_hash_of
from .erasure import Gone, erase
from .errors import ApiError
from .hashing import hash_off, hashing_place
from .limits import Rate, rate_limited
from .store import Store, run_blocking

router = APIRouter(tags=["accounts"])
log = logging.getLogger("redtable.server.selfservice")

RECENT_LOGIN = 5 * 60.0  # a session this young deletes its account without the password again
EXPORT_RATE = Rate(3, 3 / 3600)  # exports per account: three at once, then one every 20 minutes


class DeleteBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    password: StrictStr | None = Field(
        None,
        max_length=4 * acc.PASSWORD_MAX,
        description="the account's password (not needed within 5 minutes of a log-in)",
    )


def session_age(store: Store, token: str, now: float | None = None) -> float | None:
    """Seconds since the session of ``token`` was made (None: no such session)."""
    now = time.time() if now is None else now
    s = acc.sessions_table.c
    with store.engine.connect() as conn:
        made = conn.execute(select(s.created_at).where(s.token_hash == acc.token_hash(token))).scalar()
    return None if made is None else now - made


async def _check_owner(request: Request, account: acc.Account, password: str | None) -> None:
    """The person at the keyboard is the account's: its password, or a log-in minutes ago."""
    store = request.app.state.store
    if password is None:
        tok = acc.session_cookie(request)
        age = await run_blocking(session_age, store, tok) if tok else None
        if age is None or age > RECENT_LOGIN:
            raise ApiError(
                403,
                "reauth_required",
                "deleting an account needs its password (or a log-in within the last 5 minutes)",
            )
        return
    with hashing_place(request):
        wait = await run_blocking(
            sharedlimits.take, store, f"#{account.id}", "login", request.app.state.hub.limits.rates["login"]
        )
        if wait > 0:
            raise rate_limited("login", wait, "password checks")
        ok, _ = await hash_off(
            request, acc.verify_password, await run_blocking(password_hash_of, store, account.id), password
        )
    if not ok:  # (counted like a failed log-in: a stolen session guesses no faster here)
        await run_blocking(guard.record_failure, store, acc.username_key(account.username))
        raise ApiError(403, "bad_password_check", "that is not the account's current password")


@router.delete("/api/account", response_model=AccountDeleted, responses=errors(401, 403, 404, 503))
async def delete_account(request: Request, body: DeleteBody | None = None) -> Response:
    """Delete the logged-in account: its secrets and data go, its finished games stay anonymised."""
    from .moderation_api import bots_play

    account = await logged_in(request)
    await _check_owner(request, account, body.password if body is not None else None)
    hub = request.app.state.hub
    store = request.app.state.store
    await run_blocking(end_sessions, store, account.id)
    handed = await bots_play(hub, account.id, "deleted", waiting=False)
    try:
        gone = await run_blocking(erase, store, account.id)
    except IntegrityError:  # (two deleted accounts drew the same label number for one report: draw again)
        gone = await run_blocking(erase, store, account.id)
    if gone is None:
        raise ApiError(404, "no_account", "this account no longer exists")
    await refresh_games(hub, gone)
    log.info("an account was deleted (%d running seats handed to bots)", len(handed))
    out = JSONResponse({"deleted": True, "logged_in": False, "label": gone.label})
    acc.clear_session_cookie(out, request)
    return out


async def refresh_games(hub: Any, gone: Gone) -> None:
    """The games held in memory here take the seats as stored; the fleet's other processes re-read them."""
    touched: dict[str, dict[int, bool]] = defaultdict(dict)
    for gid, seat in gone.freed:
        touched[gid][seat] = True
    for gid, seat in gone.renamed:
        touched[gid][seat] = False
    for gid in gone.hosts:  # (the host's name the join page shows; another process's copy keeps it until reloaded)
        g = hub.games.get(gid)
        host = g.settings.get("host") if g is not None else None
        if isinstance(host, dict):
            host["name"] = gone.label
    ended = orjson.dumps(
        {"type": "error", "error": "account_deleted", "message": "this seat's account was deleted"}
    ).decode()
    for gid, seats in touched.items():
        if hub.fleet is not None:
            hub.fleet.after_meta(gid)
        g = hub.games.get(gid)
        if g is None:
            continue
        async with g.lock:
            for seat, freed in seats.items():
                s = g.seats[seat]
                s.name = None if freed else gone.label
                if freed:
                    s.joined_at = None
            g.by_token = {h: x for h, x in g.by_token.items() if x not in seats}
            for c in list(g.conns):
                if c.seat in seats:
                    c.end(ended, 4010, "account deleted")
                else:
                    c.want_state()
            g.announce_presence()


@router.get("/api/account/export", response_model=AccountExport, responses=errors(401, 404))
async def export_account(request: Request) -> Response:
    """Everything kept about the logged-in account, as a JSON download."""
    account = await logged_in(request, write=False)
    store = request.app.state.store
    wait = await run_blocking(sharedlimits.take, store, f"#{account.id}", "export", EXPORT_RATE)
    if wait > 0:
        raise rate_limited("export", wait, "data exports")
    data = await run_blocking(export, store, account.id)
    if data is None:
        raise ApiError(404, "no_account", "this account no longer exists")
    return Response(
        orjson.dumps(data, option=orjson.OPT_INDENT_2),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="redtable-{account.username}.json"',
            "Cache-Control": "no-store",
        },
    )
