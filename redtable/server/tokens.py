"""How the server reads a seat token from a request: the ``Authorization: Bearer`` header
(or ``X-Seat-Token``), never the URL (a token in a URL ends up in logs and histories).

Its own module so that the app and the web UI's routes (which the app installs) read it
the same way without the routes importing the app.
"""

from __future__ import annotations

from starlette.requests import Request

from .errors import token_in_url


def seat_token(request: Request) -> str | None:
    """The seat token: ``Authorization: Bearer`` (or ``X-Seat-Token``); never from the URL."""
    if "token" in request.query_params:
        raise token_in_url()
    auth = request.headers.get("authorization")
    if auth and auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return request.headers.get("x-seat-token") or None
