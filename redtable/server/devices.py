"""A long-lived device id: one random secret per browser, in an HttpOnly cookie.

Set when a browser registers or logs in (``accounts_api._session_for``) and kept for a year,
whoever logs in next. One id serves two rules: a log-in from a device its account used
before skips the friction after failed log-ins (``loginguard.py``), and two accounts used
from one browser are seen as one device, so ``fairplay.py`` does not rate their games
against each other. It says nothing about who
someone is and opens nothing: it is not a session and no request is allowed by it.

Why unsigned: the id is 32 random bytes that only its browser ever holds (HttpOnly, never in
a URL or a log; the database keeps only a keyed digest, ``fairplay.py``), so nobody can
present another browser's id without stealing its cookies; a signature would add nothing to
that. What nobody can prevent: a person clearing their cookies gets a new id (the network
rule still holds, and the leaderboard's criteria make farming slow).
"""

from __future__ import annotations

import secrets

from starlette.requests import HTTPConnection
from starlette.responses import Response

DEVICE_COOKIE = "redtable_device"
DEVICE_SECONDS = 365 * 24 * 3600
_ID_CHARS = 43  # token_urlsafe(32)


def device_id(conn: HTTPConnection) -> str | None:
    """This browser's device id, or None (none yet, or not one the server could have made)."""
    raw = conn.cookies.get(DEVICE_COOKIE)
    if not raw or len(raw) != _ID_CHARS or not all(c.isalnum() or c in "-_" for c in raw):
        return None
    return raw


def ensure_device(conn: HTTPConnection, response: Response) -> str:
    """The browser's device id, made (and set on ``response``) if it has none."""
    from .accounts import is_https

    got = device_id(conn)
    if got is not None:
        return got
    new = secrets.token_urlsafe(32)
    response.set_cookie(
        DEVICE_COOKIE,
        new,
        max_age=DEVICE_SECONDS,
        path="/",
        httponly=True,
        samesite="lax",
        secure=is_https(conn),
    )
    conn.scope.setdefault("state", {})["device_id"] = new  # (this request's own marks see it)
    return new


def request_device(conn: HTTPConnection) -> str | None:
    """The device id of a request, including one set on its own answer."""
    return conn.scope.get("state", {}).get("device_id") or device_id(conn)
