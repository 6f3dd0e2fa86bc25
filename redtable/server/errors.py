"""Errors the server reports to clients: an HTTP status, a stable code, a message and details.

Every refused request changes nothing. The same body is sent over HTTP (as the response)
and over a WebSocket (as ``{"type": "error", ...}``)::

    {"error": "illegal_action", "message": "...", "version": 12, "legal": ["mars", "luna"]}

``legal`` (the options of the pending decision) is only ever sent to the seat that decides:
options can name cards in that seat's hand.
"""

from __future__ import annotations

import re
from typing import Any

#: No error message echoes more than this many characters of what the client sent.
ECHO_LIMIT = 200


def clip(value: Any, limit: int = ECHO_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages that name the input."""
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]
    elif isinstance(value, (list, tuple, dict)) and len(value) > 20:
        return f"<{type(value).__name__} of {len(value)} items>"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001  (huge ints refuse repr)
        return f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ApiError(Exception):
    """A refusal: ``headers`` go on the HTTP response only (``Retry-After`` of a 429)."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None, **details: Any
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.details = details
        complete_details(code, message, details)

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.details}


def unknown_game(game_id: object) -> ApiError:
    return ApiError(404, "unknown_game", f"no game with id {clip(game_id, 40)}")


def bad_token() -> ApiError:
    return ApiError(403, "bad_token", "this token is not a seat of this game (join with your invite first)")


def missing_token() -> ApiError:
    return ApiError(401, "missing_token", "this request needs your seat's token: 'Authorization: Bearer <token>'")


def token_in_url() -> ApiError:
    return ApiError(
        400,
        "token_in_url",
        "tokens never travel in URLs (logs keep URLs): send "
        "'Authorization: Bearer <token>', or over a WebSocket the first message "
        '{"type": "auth", "token": "..."}',
    )


def storage_error(request_id: str) -> ApiError:
    """The storage failed: the client learns that, and a request id to quote; the log has the details."""
    return ApiError(
        503,
        "storage_unavailable",
        "the storage did not confirm the change; read the game again "
        f"before deciding (a decision is never applied twice). Request id {request_id}",
        request_id=request_id,
    )


def internal_error(request_id: str) -> ApiError:
    return ApiError(
        500, "internal_error", f"the server failed on this request; request id {request_id}", request_id=request_id
    )


# ---------------------------------------------------------------------- parameters a page translates
# A page shows a refusal in its reader's language from the stable code and the body's
# parameters (``err.<code>`` in static/i18n/*.json); the English message is for logs, scripts
# and codes the page does not know. Where a refusal is raised with its facts only in the
# message, the facts are added here as parameters (never anything the message did not say).
BAD_NAME_REASONS = {
    "length": ("characters long", "must be a string of"),
    "characters": ("only printable characters",),
    "bot_word": ("word the table uses for bots",),
}


def complete_details(code: str, message: str, details: dict[str, Any]) -> None:
    """Add the parameters a translated message needs and the raiser left in the text:
    ``reason`` of a ``bad_name`` (``length``, ``characters``, ``bot_word``), the ``limit`` of
    ``too_many_games``, the ``seat`` of ``bot_seat`` / ``seat_taken``."""
    if code == "bad_name" and "reason" not in details:
        for reason, marks in BAD_NAME_REASONS.items():
            if any(m in message for m in marks):
                details["reason"] = reason
                break
        m = re.search(r"1-(\d+) characters", message)
        if details.get("reason") == "length" and "max" not in details and m:
            details["max"] = int(m.group(1))
    elif code == "too_many_games" and "limit" not in details:
        m = re.search(r"at most (\d+)", message)
        if m:
            details["limit"] = int(m.group(1))
    elif code in ("bot_seat", "seat_taken") and "seat" not in details:
        m = re.match(r"seat (\d+)", message)
        if m:
            details["seat"] = int(m.group(1))
