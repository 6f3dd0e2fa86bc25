"""E-mail addresses of accounts, their verification, and password reset by e-mail.

* An account may hold one address (``email`` at registration, or ``PUT /api/account/email``).
  It is used only once verified: a single-use link (24 hours) is mailed to it. An address
  verified by one account cannot be verified by another (the second is told nothing: the
  link is simply not sent), so a reset reaches one account.
* ``POST /api/password-reset`` ``{"email"}``: the answer is the same 202 whether or not an
  account has that address (and the mail goes out in the background, so its timing tells
  nothing either); when one has it verified, a link to set a new password is mailed: a
  single-use token, 30 minutes, kept only as its sha256. Rate-limited per client network
  (429, in storage: a fleet shares it), and per address and per account (silently: the
  answer stays the same; nothing more is sent).
* ``POST /api/password-reset/confirm`` ``{"token", "password"}``: the new password; the token is
  spent (one ``DELETE`` across a fleet: used once), every session of the account ends, its
  other reset links die.
* ``POST /api/account/password`` ``{"password", "new_password"}`` (logged in): change the password;
  every other session ends. ``POST /api/account/sign-out-everywhere``: every session ends.

Tokens travel in the link's ``#fragment`` (``/#/reset/<token>``, ``/#/verify-email/<token>``),
which a browser never sends to a server: no server or proxy log holds them; the page posts
them in a body. The links start with ``--public-url`` (else the request's own origin).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr
from sqlalchemy import Column, Float, Index, Integer, String, Table, and_, delete, insert, select, update

from . import accounts as acc
from . import loginguard as guard
from . import sharedlimits
from .apimodels import AccountPage, EmailSet, PasswordChanged, PasswordReset, ResetSent, SignedOut, Verified
from .apischema import ecma, errors, rule
from .errors import ApiError
from .hashing import hash_off, hashing_place
from .limits import Rate, rate_limited
from .mailtext import LANGS, render
from .store import Store, metadata, run_blocking

EMAIL_MAX = 254
EMAIL_RE = re.compile(
    r"[^@\s<>()\[\],;:\"\\]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+"
)
VERIFY_SECONDS = 24 * 3600
RESET_SECONDS = 30 * 60
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{20,100}")

# the reset's limits: per client network (429), per address and per account (silent)
RESET_NETWORK = Rate(5, 5 / 600)
RESET_ADDRESS = Rate(3, 3 / 3600)
RESET_ACCOUNT = Rate(3, 3 / 3600)
VERIFY_ACCOUNT = Rate(5, 5 / 3600)  # verification e-mails an account may ask for

emails_table = Table(
    "redtable_emails",
    metadata,
    Column("account_id", Integer, primary_key=True),
    Column("address", String(EMAIL_MAX), nullable=False),
    Column("address_key", String(EMAIL_MAX), nullable=False),
    Column("verified_at", Float, nullable=True),
    Column("lang", String(8), nullable=False),
    Column("created_at", Float, nullable=False),
    Index("redtable_emails_key", "address_key"),
)

email_tokens_table = Table(
    "redtable_email_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("kind", String(16), nullable=False),  # verify, reset
    Column("account_id", Integer, nullable=False),
    Column("address_key", String(EMAIL_MAX), nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("redtable_email_tokens_account", "account_id", "kind"),
)

router = APIRouter(tags=["accounts"])
#: The routes that send e-mail: mounted only on a server that has an SMTP server (app.py), so that a
#: server without one neither offers them nor documents them (they answer 404 there).
mail_router = APIRouter(tags=["accounts"])


# ---------------------------------------------------------------------- rules
def address_key(address: str) -> str:
    return address.strip().lower()


def check_email(address: Any) -> str:
    """The address if it is one plain address (name@domain.tld, at most 254 characters); else a 422."""
    if not isinstance(address, str) or not 3 <= len(address.strip()) <= EMAIL_MAX:
        raise ApiError(422, "bad_email", f"an e-mail address is 3-{EMAIL_MAX} characters: name@domain", max=EMAIL_MAX)
    address = address.strip()
    if not EMAIL_RE.fullmatch(address):
        raise ApiError(422, "bad_email", "that is not one plain e-mail address (name@domain, no spaces or < > , ;)")
    return address


def check_token(token: Any) -> str:
    if not isinstance(token, str) or not TOKEN_RE.fullmatch(token):
        raise ApiError(400, "bad_link", "this link is not a redtable link (copy it whole from the e-mail)")
    return token


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def lang_of(request: Request, asked: str | None = None) -> str:
    """The e-mails' language: the one asked for, else the browser's first of en/uk/pl, else en."""
    if asked in LANGS:
        return str(asked)
    for part in request.headers.get("accept-language", "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGS:
            return tag
    return "en"


# ---------------------------------------------------------------------- storage
def address_of(store: Store, account_id: int) -> dict | None:
    e = emails_table.c
    with store.engine.connect() as conn:
        row = conn.execute(select(e.address, e.verified_at, e.lang).where(e.account_id == account_id)).first()
    return None if row is None else {"email": row.address, "verified": row.verified_at is not None, "lang": row.lang}


def verified_elsewhere(store: Store, key: str, account_id: int) -> bool:
    e = emails_table.c
    with store.engine.connect() as conn:
        return (
            conn.execute(
                select(e.account_id).where(e.address_key == key, e.verified_at.is_not(None), e.account_id != account_id)
            ).first()
            is not None
        )


def set_address(store: Store, account_id: int, address: str, lang: str, now: float | None = None) -> None:
    """The account's address (unverified; a change of address drops the old one's links)."""
    now = time.time() if now is None else now
    e, t = emails_table.c, email_tokens_table.c
    with store.engine.begin() as conn:
        conn.execute(delete(emails_table).where(e.account_id == account_id))
        conn.execute(delete(email_tokens_table).where(t.account_id == account_id))
        conn.execute(
            insert(emails_table).values(
                account_id=account_id,
                address=address,
                address_key=address_key(address),
                verified_at=None,
                lang=lang,
                created_at=now,
            )
        )


def drop_address(store: Store, account_id: int) -> None:
    with store.engine.begin() as conn:
        conn.execute(delete(emails_table).where(emails_table.c.account_id == account_id))
        conn.execute(delete(email_tokens_table).where(email_tokens_table.c.account_id == account_id))


def new_token(store: Store, kind: str, account_id: int, key: str, seconds: float, now: float | None = None) -> str:
    now = time.time() if now is None else now
    token = secrets.token_urlsafe(32)
    t = email_tokens_table.c
    with store.engine.begin() as conn:
        conn.execute(delete(email_tokens_table).where(t.expires_at < now))  # the expired go as new ones come
        conn.execute(
            insert(email_tokens_table).values(
                token_hash=digest(token), kind=kind, account_id=account_id, address_key=key, expires_at=now + seconds
            )
        )
    return token


def redeem(store: Store, kind: str, token: str, now: float | None = None) -> tuple[int, str] | None:
    """Spend a token: (account id, address key) once; None when unknown, spent or expired."""
    now = time.time() if now is None else now
    t = email_tokens_table.c
    h = digest(token)
    with store.engine.begin() as conn:
        row = conn.execute(
            select(t.account_id, t.address_key, t.expires_at).where(t.token_hash == h, t.kind == kind)
        ).first()
        if row is None:
            return None
        gone = conn.execute(delete(email_tokens_table).where(t.token_hash == h))
        if gone.rowcount != 1 or row.expires_at < now:  # another process spent it first, or too late
            return None
    return row.account_id, row.address_key


def mark_verified(store: Store, account_id: int, key: str, now: float | None = None) -> bool:
    now = time.time() if now is None else now
    e = emails_table.c
    with store.engine.begin() as conn:
        got = conn.execute(
            update(emails_table).where(e.account_id == account_id, e.address_key == key).values(verified_at=now)
        )
    return got.rowcount == 1


def reset_target(store: Store, key: str) -> tuple[int, str, str, str] | None:
    """(account id, username, address, lang) of the account holding the verified address ``key``."""
    e, a = emails_table.c, acc.accounts_table.c
    with store.engine.connect() as conn:
        row = conn.execute(
            select(e.account_id, a.username, e.address, e.lang)
            .select_from(emails_table.join(acc.accounts_table, a.id == e.account_id))
            .where(e.address_key == key, e.verified_at.is_not(None))
            .order_by(e.verified_at)
        ).first()
    return None if row is None else (row.account_id, row.username, row.address, row.lang)


def end_sessions(store: Store, account_id: int, keep: str | None = None) -> int:
    """End every session of the account (but ``keep``, a session token)."""
    s = acc.sessions_table.c
    cond = s.account_id == account_id
    if keep is not None:
        cond = and_(cond, s.token_hash != acc.token_hash(keep))
    with store.engine.begin() as conn:
        return conn.execute(delete(acc.sessions_table).where(cond)).rowcount


def drop_tokens(store: Store, account_id: int, kind: str) -> None:
    t = email_tokens_table.c
    with store.engine.begin() as conn:
        conn.execute(delete(email_tokens_table).where(t.account_id == account_id, t.kind == kind))


def password_hash_of(store: Store, account_id: int) -> str | None:
    a = acc.accounts_table.c
    with store.engine.connect() as conn:
        return conn.execute(select(a.password_hash).where(a.id == account_id)).scalar()


# ---------------------------------------------------------------------- sending
def base_url(request: Request) -> str:
    public = getattr(request.app.state, "public_url", None)
    return (public or str(request.base_url)).rstrip("/")


def mailer_of(request: Request) -> Any:
    return getattr(request.app.state, "mailer", None)


def require_mailer(request: Request) -> Any:
    mailer = mailer_of(request)
    if mailer is None:
        raise ApiError(422, "no_email", "this server sends no e-mail (its operator gave no --smtp): give no address")
    return mailer


async def _bucket(request: Request, key: str, kind: str, rate: Rate) -> float:
    return await run_blocking(sharedlimits.take, request.app.state.store, key, kind, rate)


async def send_verification(request: Request, account: acc.Account, address: str, lang: str) -> None:
    """Mail a verification link to ``address`` (nothing when another account verified it first)."""
    store = request.app.state.store
    mailer = require_mailer(request)
    key = address_key(address)
    wait = await _bucket(request, f"#{account.id}", "verify_mail", VERIFY_ACCOUNT)
    if wait > 0:
        raise rate_limited("verify_mail", wait, "verification e-mails")
    if await run_blocking(verified_elsewhere, store, key, account.id):
        return  # told nothing: the same answer as a sent link
    token = await run_blocking(new_token, store, "verify", account.id, key, VERIFY_SECONDS)
    link = f"{base_url(request)}/#/verify-email/{token}"
    subject, body = render("verify", lang, username=account.username, link=link)
    mailer.send_later("verify", mailer.message(address, subject, body))


# ---------------------------------------------------------------------- API
class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class EmailBody(Strict):
    email: StrictStr = Field(
        ...,
        max_length=4 * EMAIL_MAX,
        description="name@domain, at most 254 characters",
        json_schema_extra=rule(maxLength=EMAIL_MAX, pattern=ecma(rf"^\s*{EMAIL_RE.pattern}\s*$")),
    )
    lang: StrictStr | None = Field(None, max_length=8, description="the e-mails' language: en, uk or pl")


class TokenBody(Strict):
    token: StrictStr = Field(
        ...,
        max_length=200,
        description="the token of the link's #fragment",
        json_schema_extra=rule(pattern=f"^{TOKEN_RE.pattern}$"),
    )


class ResetConfirm(TokenBody):
    password: StrictStr = Field(
        ...,
        max_length=4 * acc.PASSWORD_MAX,
        description="the new password: 8-256 characters",
        json_schema_extra=rule(minLength=acc.PASSWORD_MIN, maxLength=acc.PASSWORD_MAX),
    )


class PasswordChange(Strict):
    password: StrictStr = Field(..., max_length=4 * acc.PASSWORD_MAX, description="the current password")
    new_password: StrictStr = Field(
        ...,
        max_length=4 * acc.PASSWORD_MAX,
        description="8-256 characters",
        json_schema_extra=rule(minLength=acc.PASSWORD_MIN, maxLength=acc.PASSWORD_MAX),
    )


async def logged_in(request: Request, write: bool = True) -> acc.Account:
    account = await acc.current_account(request)
    if account is None:
        raise ApiError(401, "login_required", "log in first: this is your account's page")
    if write:
        acc.require_csrf(request)
    return account


@router.get("/api/account", response_model=AccountPage, responses=errors(401))
async def account_page(request: Request) -> Response:
    """The logged-in account: its name and e-mail address (and whether it is verified)."""
    account = await logged_in(request, write=False)
    found = await run_blocking(address_of, request.app.state.store, account.id)
    return JSONResponse(
        {
            "username": account.username,
            "email": found["email"] if found else None,
            "email_verified": bool(found and found["verified"]),
            "email_lang": found["lang"] if found else None,
            "email_enabled": mailer_of(request) is not None,
        }
    )


@mail_router.put("/api/account/email", status_code=202, response_model=EmailSet, responses=errors(401, 403, 422))
async def put_email(request: Request, body: EmailBody) -> Response:
    """Give the account an address (replacing any): a verification link is mailed to it."""
    account = await logged_in(request)
    address = check_email(body.email)
    lang = lang_of(request, body.lang)
    require_mailer(request)
    await add_address(request, account, address, lang)
    return JSONResponse({"email": address, "email_verified": False, "sent": True}, status_code=202)


async def add_address(request: Request, account: acc.Account, address: str, lang: str) -> None:
    await run_blocking(set_address, request.app.state.store, account.id, address, lang)
    await send_verification(request, account, address, lang)


@router.delete("/api/account/email", response_model=EmailSet, responses=errors(401, 403))
async def delete_email(request: Request) -> Response:
    """Forget the account's address (and every link mailed to it)."""
    account = await logged_in(request)
    await run_blocking(drop_address, request.app.state.store, account.id)
    return JSONResponse({"email": None, "email_verified": False})


@router.post("/api/email/verify", response_model=Verified, responses=errors(400, 410))
async def verify(request: Request, body: TokenBody) -> Response:
    """The verification link's token (from its #fragment): the address is the account's, verified."""
    token = check_token(body.token)
    store = request.app.state.store
    got = await run_blocking(redeem, store, "verify", token)
    if got is None:
        raise ApiError(410, "link_expired", "this link was used already or has expired: ask for a new one")
    account_id, key = got
    if await run_blocking(verified_elsewhere, store, key, account_id) or not await run_blocking(
        mark_verified, store, account_id, key
    ):
        raise ApiError(410, "link_expired", "this link was used already or has expired: ask for a new one")
    return JSONResponse({"verified": True})


@mail_router.post("/api/password-reset", status_code=202, response_model=ResetSent, responses=errors(422))
async def password_reset(request: Request, body: EmailBody) -> Response:
    """Mail a link to set a new password to the account that verified this address. The answer is
    the same whether or not there is one."""
    address = check_email(body.email)
    mailer = require_mailer(request)
    wait = await _bucket(request, acc.client_address(request), "reset", RESET_NETWORK)
    if wait > 0:
        raise rate_limited("reset", wait, "password resets")
    store = request.app.state.store
    key = address_key(address)
    same = JSONResponse(
        {"sent": True, "message": "if an account has verified this address, a link is on its way (30 minutes)"},
        status_code=202,
    )
    if await _bucket(request, "@" + digest(key)[:40], "reset_addr", RESET_ADDRESS) > 0:
        return same
    target = await run_blocking(reset_target, store, key)
    if target is None:
        return same
    account_id, username, to, lang = target
    if await _bucket(request, f"#{account_id}", "reset_acct", RESET_ACCOUNT) > 0:
        return same
    token = await run_blocking(new_token, store, "reset", account_id, key, RESET_SECONDS)
    subject, text = render("reset", lang, username=username, link=f"{base_url(request)}/#/reset/{token}")
    mailer.send_later("reset", mailer.message(to, subject, text))
    return same


@mail_router.post("/api/password-reset/confirm", response_model=PasswordReset, responses=errors(400, 410, 422, 503))
async def password_reset_confirm(request: Request, body: ResetConfirm) -> Response:
    """Set the new password with the reset link's token: every session of the account ends."""
    token = check_token(body.token)
    password = acc.check_password(body.password)
    with hashing_place(request):
        wait = await _bucket(request, acc.client_address(request), "reset", RESET_NETWORK)
        if wait > 0:
            raise rate_limited("reset", wait, "password resets")
        store = request.app.state.store
        new_hash = await hash_off(request, acc.hash_password, password)
        got = await run_blocking(redeem, store, "reset", token)
        if got is None:
            raise ApiError(410, "link_expired", "this link was used already or has expired: ask for a new one")
        account_id, _ = got
        await run_blocking(acc.replace_hash, store, account_id, new_hash)
        await run_blocking(drop_tokens, store, account_id, "reset")
        await run_blocking(end_sessions, store, account_id)
    out = JSONResponse({"reset": True, "logged_in": False})
    if request.cookies.get(acc.SESSION_COOKIE) is not None:
        acc.clear_session_cookie(out, request)
    return out


@router.post("/api/account/password", response_model=PasswordChanged, responses=errors(401, 403, 422, 503))
async def change_password(request: Request, body: PasswordChange) -> Response:
    """Change the password (the current one first): every other session of the account ends."""
    account = await logged_in(request)
    new = acc.check_password(body.new_password)
    store = request.app.state.store
    with hashing_place(request):
        wait = await _bucket(request, f"#{account.id}", "login", request.app.state.hub.limits.rates["login"])
        if wait > 0:
            raise rate_limited("login", wait, "password checks")
        ok, _ = await hash_off(
            request, acc.verify_password, await run_blocking(password_hash_of, store, account.id), body.password
        )
        if not ok:
            await run_blocking(guard.record_failure, store, acc.username_key(account.username))
            raise ApiError(403, "bad_password_check", "that is not the account's current password")
        new_hash = await hash_off(request, acc.hash_password, new)
    await run_blocking(acc.replace_hash, store, account.id, new_hash)
    ended = await run_blocking(end_sessions, store, account.id, acc.session_cookie(request))
    return JSONResponse({"changed": True, "sessions_ended": ended})


@router.post("/api/account/sign-out-everywhere", response_model=SignedOut, responses=errors(401, 403))
async def sign_out_everywhere(request: Request) -> Response:
    """End every session of the account, this one too."""
    account = await logged_in(request)
    ended = await run_blocking(end_sessions, request.app.state.store, account.id)
    out = JSONResponse({"logged_in": False, "sessions_ended": ended})
    acc.clear_session_cookie(out, request)
    return out
