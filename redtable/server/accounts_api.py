"""The account endpoints: register, log in, who am I, log out (``accounts.py`` has the rules).

* ``POST /api/accounts`` ``{"username", "password"}``: 201, and the new account is logged in;
* ``POST /api/session`` ``{"username", "password", "proof"?}``: logs in (sets the session cookie
  and a device cookie); after failures at the username it may first answer 429 ``login_delay``
  (wait) or 403 ``challenge_required`` (a proof of work to send as ``proof``; ``loginguard.py``);
* ``GET /api/session``: who this browser is logged in as, and the session's CSRF token;
* ``DELETE /api/session``: logs out (the session ends on the server, the cookie is cleared).

Every request that hashes a password holds a place of the bounded hashing pool from its start
(``hashpool.py``): when none is free the answer is at once 503 ``hashing_busy`` with
``Retry-After``, before any storage call, and nothing was counted.

Passwords and session tokens never reach a log: they travel only in request bodies and the
cookie, and no error message repeats them.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from . import accounts as acc
from . import loginguard as guard
from . import sharedlimits
from .apimodels import SessionInfo
from .apischema import errors, rule
from .devices import device_id, ensure_device
from .errors import ApiError
from .fairplay import note_request
from .hashing import hash_off, hashing_place
from .limits import rate_limited
from .store import run_blocking

router = APIRouter(tags=["accounts"])


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    # bounded loosely here so that the answer to a bad value is ours, naming the rule
    username: StrictStr = Field(
        ...,
        max_length=4 * acc.USERNAME_MAX,
        description="3-24 of A-Z a-z 0-9 _ -, no word the table uses for bots",
        json_schema_extra=rule(
            minLength=acc.USERNAME_MIN, maxLength=acc.USERNAME_MAX, pattern=f"^{acc.USERNAME_RE.pattern}$"
        ),
    )
    password: StrictStr = Field(
        ...,
        max_length=4 * acc.PASSWORD_MAX,
        description="8-256 characters, not one repeated, not a common password",
        json_schema_extra=rule(minLength=acc.PASSWORD_MIN, maxLength=acc.PASSWORD_MAX),
    )


class Registration(Credentials):
    email: StrictStr | None = Field(
        None, max_length=1024, description="optional: an address for password resets (a verification link is mailed)"
    )
    lang: StrictStr | None = Field(None, max_length=8, description="the e-mails' language: en, uk or pl (else en)")


class Proof(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    challenge: StrictStr = Field(
        ..., pattern=guard.CHALLENGE_RE.pattern, description="the challenge of a challenge_required answer"
    )
    nonce: StrictStr = Field(
        ..., pattern=guard.NONCE_RE.pattern, description="1-20 digits: sha256(challenge + ':' + nonce) has the bits"
    )


class LogIn(Credentials):
    proof: Proof | None = Field(None, description="a solved challenge, when the last answer asked for one")


def _json(body: dict[str, Any], status: int = 200) -> Response:
    return JSONResponse(body, status_code=status)


def _client(request: Request) -> str:
    return acc.client_address(request)


async def _admit(request: Request, kind: str, what: str) -> None:
    """Let a request that holds a hashing place in, cheapest refusal first: this process's bucket
    ``kind`` of the client's network (429; memory only), then the fleet's bucket in storage (429)."""
    hub = request.app.state.hub
    client = _client(request)
    wait = hub.limiter.try_take(client, kind)
    if wait <= 0:
        wait = await run_blocking(sharedlimits.take, request.app.state.store, client, kind, hub.limits.rates[kind])
    if wait > 0:
        raise rate_limited(kind, wait, what)


def _session(
    request: Request, account: acc.Account | None = None, token: str | None = None, status: int = 200
) -> Response:
    """The session's answer: who is logged in, the CSRF token, and whether this server sends e-mail
    (the log-in and registration forms offer a forgotten password and an address only then)."""
    from .emails import mailer_of

    body = {
        "logged_in": account is not None,
        "username": account.username if account is not None else None,
        "csrf": acc.csrf_token(token) if account is not None and token is not None else None,
        "email_enabled": mailer_of(request) is not None,
    }
    return _json(body, status)


def _logged_in(request: Request, account: acc.Account, token: str, status: int) -> Response:
    out = _session(request, account, token, status)
    acc.set_session_cookie(out, request, token)
    return out


@router.post("/api/accounts", status_code=201, response_model=SessionInfo, responses=errors(403, 409, 422, 503))
async def register(request: Request, body: Registration) -> Response:
    """Make an account; the answer logs this browser in as it (``email``: a verification link is mailed)."""
    from . import emails

    username = acc.check_username(body.username)
    password = acc.check_password(body.password)
    address = emails.check_email(body.email) if body.email is not None else None
    if address is not None:
        emails.require_mailer(request)
    with hashing_place(request):
        await _admit(request, "register", "new accounts")
        store = request.app.state.store
        digest = await hash_off(request, acc.hash_password, password)
        try:
            account = await run_blocking(acc.create_account, store, username, digest)
        except acc.UsernameTaken:
            raise ApiError(409, "username_taken", "that username is taken (usernames ignore case)") from None
        if address is not None:
            await emails.add_address(request, account, address, emails.lang_of(request, body.lang))
        return await _session_for(request, account, 201)


@router.post("/api/session", response_model=SessionInfo, responses=errors(401, 403, 422, 503))
async def log_in(request: Request, body: LogIn) -> Response:
    """Log in: the session cookie (HttpOnly) and the session's CSRF token.

    Failures at the username make the next tries wait, then ask for a proof of work; a device
    that logged in to the account before is spared both (``loginguard.py``)."""
    with hashing_place(request):
        await _admit(request, "login", "log-in attempts")
        return await _log_in(request, body)


async def _log_in(request: Request, body: LogIn) -> Response:
    store = request.app.state.store
    key = acc.username_key(body.username[: acc.USERNAME_MAX])
    found = (
        await run_blocking(acc.find_account, store, body.username) if len(body.username) <= acc.USERNAME_MAX else None
    )
    device = device_id(request)
    # (looked up for an unknown name too, as account -1: the same storage calls whatever the name)
    known = await run_blocking(guard.device_known, store, device, found[0].id if found else -1)
    if not known:
        await _check_friction(request, key, body.proof)
    await run_blocking(guard.record_failure, store, key)  # counted first: tries at once see each other
    ok, rehash = await hash_off(request, acc.verify_password, found[1] if found else None, body.password)
    if not ok or found is None:
        raise ApiError(401, "bad_login", "wrong username or password")
    account = found[0]
    from .sanctions import check_account  # a banned account logs in no more (sanctions.py)

    await run_blocking(check_account, store, account.id, "login")
    await run_blocking(guard.clear_failures, store, key)
    if rehash is not None:
        await run_blocking(acc.replace_hash, store, account.id, rehash)
    return await _session_for(request, account, 200)


async def _check_friction(request: Request, key: str, proof: Proof | None) -> None:
    """Refuse a try at ``key`` that comes too soon after its failures (429 ``login_delay``), or that
    needs a proof of work and has none that holds (403 ``challenge_required``, with a new challenge)."""
    store = request.app.state.store
    fr = await run_blocking(guard.friction, store, key)
    if fr.wait > 0:
        secs = max(1, int(fr.wait + 0.999))
        raise ApiError(
            429,
            "login_delay",
            f"{fr.failures} failed log-ins at this username in the last {int(guard.FAILURES_WINDOW // 60)} minutes: "
            f"its next try waits {secs} s (a device that logged in to it before does not wait)",
            retry_after=secs,
            failures=fr.failures,
            headers={"Retry-After": str(secs)},
        )
    if fr.bits == 0:
        return
    if proof is not None and await run_blocking(guard.redeem, store, key, proof.challenge, proof.nonce, fr.bits):
        return
    challenge = await run_blocking(guard.issue_challenge, store, key, fr.bits)
    raise ApiError(
        403,
        "challenge_required",
        f"{fr.failures} failed log-ins at this username lately: this try must carry a proof of work "
        f'("proof": {{"challenge", "nonce"}} such that sha256(challenge + ":" + nonce) starts with {fr.bits} '
        "zero bits; a device that logged in to it before needs none)",
        challenge=challenge,
        bits=fr.bits,
        failures=fr.failures,
        solved=proof is not None,
    )


async def _session_for(request: Request, account: acc.Account, status: int) -> Response:
    """A new session for ``account``, and this browser remembered as one of its devices."""
    store = request.app.state.store
    token = await run_blocking(acc.new_session, store, account.id)
    out = _logged_in(request, account, token, status)
    # One device id serves both: a log-in from it skips the friction (loginguard.py) and two
    # accounts seen on it are not rated against each other (fairplay.py).
    device = ensure_device(request, out)
    await run_blocking(guard.remember_device, store, device, account.id)
    await note_request(request, account)
    return out


@router.get("/api/session", response_model=SessionInfo)
async def who_am_i(request: Request) -> Response:
    """Who this browser is logged in as (and the CSRF token its writes send), or logged_in: false."""
    account = await acc.current_account(request)
    tok = acc.session_cookie(request)
    if account is None or tok is None:
        out = _session(request)
        if request.cookies.get(acc.SESSION_COOKIE) is not None:  # an ended or unknown session: forget it
            acc.clear_session_cookie(out, request)
        return out
    return _session(request, account, tok)


@router.delete("/api/session", response_model=SessionInfo, responses=errors(403))
async def log_out(request: Request) -> Response:
    """Log out: the session ends on the server and the cookie is cleared (CSRF-checked like every write)."""
    tok = acc.session_cookie(request)
    if tok is not None and await acc.current_account(request) is not None:
        acc.require_csrf(request)
        await run_blocking(acc.end_session, request.app.state.store, tok)
    out = _session(request)
    if request.cookies.get(acc.SESSION_COOKIE) is not None:
        acc.clear_session_cookie(out, request)
    return out
