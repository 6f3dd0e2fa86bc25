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

from starlette.requests import Request

from .errors import token_in_url


def sha(text: str) -> str:
    """What storage keeps of a secret: its SHA-256, hex."""
    return hashlib.sha256(text.encode()).hexdigest()


def new_secret() -> str:
    """A seat token, invite or creator key: 256 random bits (URL-safe text)."""
    return secrets.token_urlsafe(32)


def seat_token(request: Request) -> str | None:
    """The seat token: ``Authorization: Bearer`` (or ``X-Seat-Token``); never from the URL."""
    if "token" in request.query_params:
        raise token_in_url()
    auth = request.headers.get("authorization")
    if auth and auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return request.headers.get("x-seat-token") or None
