"""The notification settings and the unsubscribe links, over HTTP.

* ``GET /api/account/notifications`` (logged in): the account's settings (``notifydb.Settings``:
  Web Push per kind, e-mail per kind, the daily digest) and whether e-mail can reach it;
  ``PUT`` the same shape (strict: every field a boolean, no other field) replaces them.
* ``POST /api/unsubscribe/{token}``: RFC 8058 one-click (a mail client posts
  ``List-Unsubscribe=One-Click`` there, no cookie): the e-mail's kind is turned off. The token is
  single-use and expires; the path is the only place a token travels in a URL (the issue allows
  it for this link; the request log names the route's template, never the path).
* ``POST /api/unsubscribe`` ``{"token"}``: the same, from the page a person opens by the link in
  the e-mail's body (``/#/unsubscribe/TOKEN``: the token stays in the #fragment; the page posts it).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse, Response

from . import notifydb as db
from .apimodels_self import NotificationPage, NotificationSettings, Unsubscribed
from .apischema import errors, rule
from .emails import TOKEN_RE, TokenBody, address_of, check_token, logged_in, mailer_of
from .errors import ApiError
from .store import run_blocking

router = APIRouter(tags=["accounts"])


@router.get("/api/account/notifications", response_model=NotificationPage, responses=errors(401))
async def get_notifications(request: Request) -> Response:
    """The account's notification settings, and whether e-mail reaches it (a verified address)."""
    account = await logged_in(request, write=False)
    store = request.app.state.store
    settings = await run_blocking(db.read_settings, store, account.id)
    found = await run_blocking(address_of, store, account.id)
    return JSONResponse(
        {
            "settings": db.dumps(settings),
            "kinds": list(db.KINDS),
            "email_enabled": mailer_of(request) is not None,
            "email_verified": bool(found and found["verified"]),
        }
    )


@router.put("/api/account/notifications", response_model=NotificationSettings, responses=errors(401, 403))
async def put_notifications(request: Request, body: db.Settings) -> Response:
    """Replace the account's notification settings (every kind's push and e-mail switch, the digest)."""
    account = await logged_in(request)
    await run_blocking(db.write_settings, request.app.state.store, account.id, body)
    return JSONResponse({"settings": db.dumps(body)})


async def _spend(request: Request, token: str) -> Response:
    token = check_token(token)
    store = request.app.state.store
    got = await run_blocking(db.spend_unsub_token, store, token)
    if got is None:
        raise ApiError(410, "link_expired", "this link was used already or has expired: change it on your account page")
    account_id, kind = got
    await run_blocking(db.switch_off, store, account_id, kind)
    return JSONResponse({"unsubscribed": True, "kind": kind})


@router.post("/api/unsubscribe/{token}", response_model=Unsubscribed, responses=errors(400, 410))
async def one_click(
    request: Request,
    token: str = PathParam(..., json_schema_extra=rule(pattern=f"^{TOKEN_RE.pattern}$")),
) -> Response:
    """RFC 8058 one-click unsubscribe (the e-mail's ``List-Unsubscribe`` URL): this kind of e-mail off."""
    return await _spend(request, token)


@router.post("/api/unsubscribe", response_model=Unsubscribed, responses=errors(400, 410))
async def unsubscribe(request: Request, body: TokenBody) -> Response:
    """The unsubscribe page's token (from the e-mail link's #fragment): this kind of e-mail off."""
    return await _spend(request, body.token)
