"""Accounts and their sessions: argon2 passwords, a session cookie, CSRF, login rate limits.

* An account is a username (3-24 letters, digits, ``_`` and ``-``; unique whatever its case;
  never a word the table shows bots by) and a password (8-256 characters, not a common one)
  kept as an
  argon2id hash (argon2-cffi's defaults; a hash made with older parameters is replaced at
  the next log-in).
* A session is a random token in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` when
  the page came over https, directly or through a trusted proxy). The database keeps only
  the token's sha256 and when it expires, so a copy of the database logs nobody in.
* Every write authenticated by that cookie must carry ``X-CSRF-Token``: a value derived
  from the session token (sha256 of ``"csrf:" + token``) that ``GET /api/session`` tells
  the page. Another site can make a browser send the cookie, but cannot read the value.
* Log-ins and sign-ups are rate-limited per client network in storage, shared by a fleet
  (``sharedlimits.py``); failed log-ins at one username meet growing friction, never a lock
  (``loginguard.py``); every hash runs in a bounded pool of its own (``hashpool.py``). An
  unknown username costs the same argon2 verification as a known one (against a dummy
  hash), so the time of an answer does not tell which names exist.
* A password is refused when it is one of the 10,000 most common (``common_passwords``), all
  spaces, or one character repeated.

Seat tokens are unchanged: a guest plays by the invite link as before. A seat joined while
logged in is bound to the account (``seats.account_id``; ``live.py``), which is what the
profile and the ratings count.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import hmac
import logging
import re
import secrets
import time
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Column, Float, Index, Integer, String, Table, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from .errors import ApiError
from .sanctions import check_account
from .store import Store, metadata, run_blocking
from .validate import check_name

USERNAME_RE = re.compile(r"[A-Za-z0-9_-]{3,24}")
USERNAME_MIN, USERNAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 256
SESSION_COOKIE = "redtable_session"
SESSION_SECONDS = 30 * 24 * 3600
CSRF_HEADER = "x-csrf-token"

HASHER = PasswordHasher()
log = logging.getLogger("redtable.server.accounts")

accounts_table = Table(
    "redtable_accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(USERNAME_MAX), nullable=False),
    Column("username_key", String(USERNAME_MAX), nullable=False, unique=True),
    Column("password_hash", String(256), nullable=False),
    Column("created_at", Float, nullable=False),
)

sessions_table = Table(
    "redtable_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("redtable_sessions_account", "account_id"),
)


@dataclass(frozen=True, slots=True)
class Account:
    """Who a request is logged in as."""

    id: int
    username: str


class UsernameTaken(Exception):
    pass


# ---------------------------------------------------------------------- rules
def username_key(username: str) -> str:
    """The form two usernames are compared in (``Ann`` and ``ann`` are one account)."""
    return username.lower()


def check_username(username: Any) -> str:
    """The username if it keeps the rules; else a 422 naming the rule."""
    if not isinstance(username, str) or not USERNAME_MIN <= len(username) <= USERNAME_MAX:
        n = len(username) if isinstance(username, str) else 0
        raise ApiError(
            422,
            "bad_username",
            f"a username is {USERNAME_MIN}-{USERNAME_MAX} characters long, got {n}",
            reason="length",
            min=USERNAME_MIN,
            max=USERNAME_MAX,
        )
    if not USERNAME_RE.fullmatch(username):
        raise ApiError(
            422,
            "bad_username",
            "a username may hold only the letters A-Z and a-z, the digits 0-9, '_' and '-'",
            reason="characters",
        )
    try:
        check_name(username, "username")
    except ApiError:
        raise ApiError(
            422, "bad_username", "a username may not contain a word the table uses for bots", reason="bot_word"
        ) from None
    return username


def check_password(password: Any) -> str:
    """The password if a new account may have it; else a 422 whose ``reason`` names the rule."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(
            422,
            "bad_password",
            f"a password is {PASSWORD_MIN}-{PASSWORD_MAX} characters long",
            reason="length",
            min=PASSWORD_MIN,
            max=PASSWORD_MAX,
        )
    if not password.strip() or len(set(password)) == 1:
        raise ApiError(
            422, "bad_password", "a password may not be all spaces or one character repeated", reason="repeated"
        )
    if password.lower() in common_passwords():
        raise ApiError(
            422,
            "bad_password",
            "that password is one of the 10,000 most common ones, the first any guesser tries: choose another",
            reason="common",
        )
    return password


@cache
def common_passwords() -> frozenset[str]:
    """The 10,000 most common passwords (lower case), loaded at the first sign-up.

    The list is the top of the ranked password list that zxcvbn ships (MIT; from Xato's corpus of
    10 million leaked passwords), gzipped in ``data/``; ``data/README.md`` says how it was made."""
    raw = resources.files("redtable.server").joinpath("data/common-passwords.txt.gz").read_bytes()
    return frozenset(line.lower() for line in gzip.decompress(raw).decode().splitlines() if line)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_token(session_token: str) -> str:
    """The CSRF value of a session: derived from its token, so it is bound to it and needs no storage."""
    return hashlib.sha256(b"csrf:" + session_token.encode()).hexdigest()


@cache
def _dummy_hash() -> str:
    """What an unknown username's password is checked against (the same work as a real check)."""
    return HASHER.hash(secrets.token_urlsafe(24))


# ---------------------------------------------------------------------- storage (blocking: run off the loop)
def create_account(store: Store, username: str, password_hash: str) -> Account:
    with store.engine.begin() as conn:
        try:
            got = conn.execute(
                insert(accounts_table).values(
                    username=username,
                    username_key=username_key(username),
                    password_hash=password_hash,
                    created_at=time.time(),
                )
            )
        except IntegrityError:
            raise UsernameTaken(username) from None
        pk = got.inserted_primary_key
        assert pk is not None
        return Account(int(pk[0]), username)


def find_account(store: Store, username: str) -> tuple[Account, str] | None:
    """The account of ``username`` (any case) and its password hash."""
    a = accounts_table.c
    with store.engine.connect() as conn:
        row = conn.execute(
            select(a.id, a.username, a.password_hash).where(a.username_key == username_key(username))
        ).first()
    return (Account(row.id, row.username), row.password_hash) if row else None


def account_by_name(store: Store, username: str) -> tuple[Account, float] | None:
    """The account of ``username`` (any case) and when it was made."""
    a = accounts_table.c
    with store.engine.connect() as conn:
        row = conn.execute(
            select(a.id, a.username, a.created_at).where(a.username_key == username_key(username))
        ).first()
    return (Account(row.id, row.username), row.created_at) if row else None


def replace_hash(store: Store, account_id: int, password_hash: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(
            update(accounts_table).where(accounts_table.c.id == account_id).values(password_hash=password_hash)
        )


def new_session(store: Store, account_id: int, now: float | None = None) -> str:
    """A new session token for the account (its sha256 stored); the account's expired sessions go."""
    now = time.time() if now is None else now
    token = secrets.token_urlsafe(32)
    s = sessions_table.c
    with store.engine.begin() as conn:
        conn.execute(delete(sessions_table).where(s.account_id == account_id, s.expires_at < now))
        conn.execute(
            insert(sessions_table).values(
                token_hash=token_hash(token), account_id=account_id, created_at=now, expires_at=now + SESSION_SECONDS
            )
        )
    return token


def session_account(store: Store, token: str, now: float | None = None) -> Account | None:
    now = time.time() if now is None else now
    s, a = sessions_table.c, accounts_table.c
    with store.engine.connect() as conn:
        row = conn.execute(
            select(a.id, a.username)
            .select_from(sessions_table.join(accounts_table, a.id == s.account_id))
            .where(s.token_hash == token_hash(token), s.expires_at > now)
        ).first()
    return Account(row.id, row.username) if row else None


def end_session(store: Store, token: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(delete(sessions_table).where(sessions_table.c.token_hash == token_hash(token)))


# ---------------------------------------------------------------------- passwords (CPU: run off the loop)
def hash_password(password: str) -> str:
    return HASHER.hash(password)


def verify_password(password_hash: str | None, password: str) -> tuple[bool, str | None]:
    """(matches, a new hash when the stored one was made with other parameters). ``None``: an
    unknown user, checked against the dummy hash so that it takes as long."""
    try:
        HASHER.verify(password_hash or _dummy_hash(), password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False, None
    if password_hash is None:
        return False, None
    return True, (HASHER.hash(password) if HASHER.check_needs_rehash(password_hash) else None)


# ---------------------------------------------------------------------- requests
def session_cookie(conn: HTTPConnection) -> str | None:
    tok = conn.cookies.get(SESSION_COOKIE)
    return tok if tok and len(tok) <= 100 else None


def _store(conn: HTTPConnection) -> Store:
    return conn.app.state.store


async def current_account(conn: HTTPConnection) -> Account | None:
    """The account a request or WebSocket is logged in as (its session cookie), or None.

    Looked up once per request (kept in the request's scope)."""
    state = conn.scope.setdefault("state", {})
    if "account" in state:
        return state["account"]
    tok = session_cookie(conn)
    if tok and conn.scope.get("type") == "websocket" and not same_origin(conn):
        tok = None  # a page of another site opened this socket: the browser sent our cookie, it is not the person
    if tok is None:  # a program's API token (botaccounts.py) authenticates the account as the cookie does
        account = await _token_account(conn)
    else:
        account = await run_blocking(session_account, _store(conn), tok)
    state["account"] = account
    return account


async def _token_account(conn: HTTPConnection) -> Account | None:
    """The account of the request's API token: ``read`` for a GET or a socket, ``bot:play`` for a write."""
    from .botaccounts import token_account
    from .tokens import api_token

    token = api_token(conn)
    if token is None:
        return None
    reads = conn.scope.get("type") == "websocket" or conn.scope.get("method") in ("GET", "HEAD")
    found = await run_blocking(token_account, _store(conn), token, "read" if reads else "bot:play")
    if found is None:
        raise ApiError(401, "bad_api_token", "this API token is unknown or revoked")
    return Account(*found)


def same_origin(conn: HTTPConnection) -> bool:
    """Whether a WebSocket's ``Origin`` is this server's own host (or absent: not a browser).

    A browser sends the session cookie with a socket that any page opens to this host, and a
    socket has no CSRF header: the Origin it must send is what tells a page of ours from another
    site's (cross-site WebSocket hijacking)."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    host = conn.headers.get("host") or ""
    try:
        return urlsplit(origin).netloc.lower() == host.lower() and bool(host)
    except ValueError:
        return False


def require_csrf(request: HTTPConnection) -> None:
    """Refuse (403 ``csrf_failed``) a write that carries a session cookie without its CSRF token.

    Call it on every write that acts as the logged-in account (a request without the cookie
    acts as nobody, and passes)."""
    tok = session_cookie(request)
    if tok is None:
        return
    sent = request.headers.get(CSRF_HEADER) or ""
    if not hmac.compare_digest(sent.encode(), csrf_token(tok).encode()):
        raise ApiError(
            403,
            "csrf_failed",
            "this write carries your session cookie but not its X-CSRF-Token header "
            "(GET /api/session answers it): refused, another site may have sent it",
        )


async def account_for_write(request: HTTPConnection) -> Account | None:
    """The logged-in account of a write, after its CSRF check; None for a guest (or an ended session)."""
    account = await current_account(request)
    if account is not None:
        require_csrf(request)
        # a suspended or banned account writes nothing (sanctions.py)
        await run_blocking(check_account, _store(request), account.id, "write")
    return account


def client_address(conn: HTTPConnection) -> str:
    """The address a request comes from; behind a trusted proxy, the last one it appended to
    X-Forwarded-For (the rule of ``app.scope_client``, which this module cannot import: the app imports it)."""
    hub = getattr(conn.app.state, "hub", None)
    if hub is not None and hub.limits.trust_proxy:
        forwarded = conn.headers.get("x-forwarded-for")
        if forwarded:
            return forwarded.rsplit(",", 1)[-1].strip()[:64]
    return conn.client.host if conn.client else "unknown"


def is_https(request: HTTPConnection) -> bool:
    """The page came over https: directly, or through a trusted proxy that says so."""
    if request.url.scheme in ("https", "wss"):
        return True
    hub = getattr(request.app.state, "hub", None)
    if hub is not None and hub.limits.trust_proxy:
        proto = request.headers.get("x-forwarded-proto", "")
        return proto.rsplit(",", 1)[-1].strip().lower() == "https"
    return False


def set_session_cookie(response: Response, request: Request, token: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_SECONDS,
        path="/",
        httponly=True,
        samesite="lax",
        secure=is_https(request),
    )


def clear_session_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=is_https(request))


# ---------------------------------------------------------------------- seats
async def bind_seat(hub: Any, game: Any, seat: int, account: Account | None) -> None:
    """Bind ``seat`` of ``game`` to the account joining it (under the game's lock, before its token).

    A rated game's seat is taken only by a logged-in account, one seat per account, and a
    seat bound to one account is not another's. In an unrated game the first account keeps
    the seat (another, or a guest, with the invite still plays it, as invites always did).
    """
    from .store import SeatBound

    rated = bool(game.settings.get("rated"))
    if account is None:
        if rated:
            raise ApiError(
                401,
                "login_required",
                "a rated game's seats are taken by logged-in accounts: log in (or register), then join",
            )
        return
    try:
        await _submit_bind(hub, game, seat, account.id, rated)
    except SeatBound as e:
        if not rated:
            return
        if e.reason == "one_seat":
            raise ApiError(
                409, "one_seat_per_account", f"your account already holds seat {e.seat} of this rated game", seat=e.seat
            ) from None
        raise ApiError(
            409, "seat_bound", f"seat {seat} of this rated game belongs to another account", seat=seat
        ) from None


async def _submit_bind(hub: Any, game: Any, seat: int, account_id: int, rated: bool) -> None:
    """The bind write; a storage failure reaches the client as a 503 with a request id (the log has the details)."""
    from .store import SeatBound

    try:
        await hub.writer.submit(("bind", game.id, seat, account_id, rated))
    except (SeatBound, asyncio.CancelledError):
        raise
    except Exception as e:  # noqa: BLE001
        from .errors import storage_error

        rid = secrets.token_hex(6)  # (a request id the client can quote; the log has the details)
        log.error("binding seat %s of %s failed (request %s): %s", seat, game.id, rid, e)
        raise storage_error(rid) from None
