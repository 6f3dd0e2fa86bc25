"""The server's secrets: how they are made (:func:`new_secret`), stored (:func:`sha`: only
their hash is kept) and read from a request (:func:`seat_token`: the ``Authorization:
Bearer`` header or ``X-Seat-Token``, never the URL, since a token in a URL ends up in logs
and histories).

Its own module so that the app, the web UI's routes and the table services make and read
secrets the same way without importing the app or the live games.
"""

from __future__ import annotations

import hashlib
import secrets

from starlette.requests import HTTPConnection

from .errors import token_in_url

#: What an account's API token starts with (``botaccounts.py``): it tells one from a seat token
#: in the same ``Authorization: Bearer`` header.
API_TOKEN_PREFIX = "rtb_"


def sha(text: str) -> str:
    """What storage keeps of a secret: its SHA-256, hex."""
    return hashlib.sha256(text.encode()).hexdigest()


def new_secret() -> str:
    """A seat token, invite or creator key: 256 random bits (URL-safe text), never one that looks
    like an account's API token (one in 17 million would start so: drawn again)."""
    while True:
        secret = secrets.token_urlsafe(32)
        if not secret.startswith(API_TOKEN_PREFIX):
            return secret


def seat_token(request: HTTPConnection) -> str | None:
    """The seat token: ``Authorization: Bearer`` (or ``X-Seat-Token``); never from the URL.

    An account's API token in ``Authorization`` is not a seat's: the seat token is then
    ``X-Seat-Token`` (or none)."""
    if "token" in request.query_params:
        raise token_in_url()
    auth = _bearer(request)
    if auth and not auth.startswith(API_TOKEN_PREFIX):
        return auth
    return request.headers.get("x-seat-token") or None


def api_token(request: HTTPConnection) -> str | None:
    """An account's API token (``Authorization: Bearer rtb_...``), else None; never from the URL."""
    if "token" in request.query_params:
        raise token_in_url()
    auth = _bearer(request)
    return auth if auth and auth.startswith(API_TOKEN_PREFIX) and len(auth) <= 100 else None


def _bearer(request: HTTPConnection) -> str | None:
    auth = request.headers.get("authorization")
    if auth and auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None
