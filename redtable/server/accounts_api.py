"""The account endpoints: register, log in, who am I, log out (``accounts.py`` has the rules).

* ``POST /api/accounts`` ``{"username", "password"}``: 201, and the new account is logged in;
* ``POST /api/session`` ``{"username", "password"}``: logs in (sets the session cookie);
* ``GET /api/session``: who this browser is logged in as, and the session's CSRF token;
* ``DELETE /api/session``: logs out (the session ends on the server, the cookie is cleared).

Passwords and session tokens never reach a log: they travel only in request bodies and the
cookie, and no error message repeats them.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from . import accounts as acc
from .devices import ensure_device
from .errors import ApiError
from .fairplay import note_request
from .store import run_blocking

router = APIRouter(tags=["accounts"])


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    # bounded loosely here so that the answer to a bad value is ours, naming the rule
    username: StrictStr = Field(..., max_length=4 * acc.USERNAME_MAX, description="3-24 of A-Z a-z 0-9 _ -")
    password: StrictStr = Field(..., max_length=4 * acc.PASSWORD_MAX, description="8-256 characters")


class SessionInfo(BaseModel):
    logged_in: bool
    username: str | None = None
    csrf: str | None = Field(None, description="send it as X-CSRF-Token with every write while logged in")


def _json(body: dict[str, Any], status: int = 200) -> Response:
    return JSONResponse(body, status_code=status)


def _client(request: Request) -> str:
    return acc.client_address(request)


def _take(request: Request, who: str, kind: str, what: str) -> None:
    from .limits import rate_limited

    wait = request.app.state.hub.limiter.try_take(who, kind)
    if wait > 0:
        raise rate_limited(kind, wait, what)


def _logged_in(request: Request, account: acc.Account, token: str, status: int) -> Response:
    out = _json({"logged_in": True, "username": account.username, "csrf": acc.csrf_token(token)}, status)
    acc.set_session_cookie(out, request, token)
    ensure_device(request, out)  # (devices.py: a long-lived device id, kept across log-ins)
    return out


@router.post("/api/accounts", status_code=201, response_model=SessionInfo)
async def register(request: Request, body: Credentials) -> Response:
    """Make an account; the answer logs this browser in as it."""
    username = acc.check_username(body.username)
    password = acc.check_password(body.password)
    _take(request, _client(request), "register", "new accounts")
    store = request.app.state.store
    digest = await run_blocking(acc.hash_password, password)
    try:
        account = await run_blocking(acc.create_account, store, username, digest)
    except acc.UsernameTaken:
        raise ApiError(409, "username_taken", "that username is taken (usernames ignore case)") from None
    token = await run_blocking(acc.new_session, store, account.id)
    out = _logged_in(request, account, token, 201)
    await note_request(request, account)  # (fairplay.py: this network and device are the account's)
    return out


@router.post("/api/session", response_model=SessionInfo)
async def log_in(request: Request, body: Credentials) -> Response:
    """Log in: the session cookie (HttpOnly) and the session's CSRF token."""
    _take(request, _client(request), "login", "log-in attempts")
    _take(
        request,
        "user:" + acc.username_key(body.username[: acc.USERNAME_MAX]),
        "login_user",
        "log-in attempts at this username",
    )
    store = request.app.state.store
    key = acc.username_key(body.username[: acc.USERNAME_MAX])
    wait = await run_blocking(acc.login_wait, store, key)
    if wait > 0:
        from .limits import rate_limited

        raise rate_limited("login_user", wait, "failed log-ins at this username")
    found = (
        await run_blocking(acc.find_account, store, body.username) if len(body.username) <= acc.USERNAME_MAX else None
    )
    ok, rehash = await run_blocking(acc.verify_password, found[1] if found else None, body.password)
    if not ok or found is None:
        await run_blocking(acc.record_login_failure, store, key)
        raise ApiError(401, "bad_login", "wrong username or password")
    account = found[0]
    if rehash is not None:
        await run_blocking(acc.replace_hash, store, account.id, rehash)
    token = await run_blocking(acc.new_session, store, account.id)
    out = _logged_in(request, account, token, 200)
    await note_request(request, account)
    return out


@router.get("/api/session", response_model=SessionInfo)
async def who_am_i(request: Request) -> Response:
    """Who this browser is logged in as (and the CSRF token its writes send), or logged_in: false."""
    account = await acc.current_account(request)
    tok = acc.session_cookie(request)
    if account is None or tok is None:
        out = _json({"logged_in": False, "username": None, "csrf": None})
        if request.cookies.get(acc.SESSION_COOKIE) is not None:  # an ended or unknown session: forget it
            acc.clear_session_cookie(out, request)
        return out
    return _json({"logged_in": True, "username": account.username, "csrf": acc.csrf_token(tok)})


@router.delete("/api/session", response_model=SessionInfo)
async def log_out(request: Request) -> Response:
    """Log out: the session ends on the server and the cookie is cleared (CSRF-checked like every write)."""
    tok = acc.session_cookie(request)
    if tok is not None and await acc.current_account(request) is not None:
        acc.require_csrf(request)
        await run_blocking(acc.end_session, request.app.state.store, tok)
    out = _json({"logged_in": False, "username": None, "csrf": None})
    if request.cookies.get(acc.SESSION_COOKIE) is not None:
        acc.clear_session_cookie(out, request)
    return out
