"""Errors the server reports to clients: an HTTP status, a stable code, a message and details.

Every refused request changes nothing. The same body is sent over HTTP (as the response)
and over a WebSocket (as ``{"type": "error", ...}``)::

    {"error": "illegal_action", "message": "...", "version": 12, "legal": ["mars", "luna"]}

``legal`` (the options of the pending decision) is only ever sent to the seat that decides:
options can name cards in that seat's hand.
"""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A refusal: ``headers`` go on the HTTP response only (``Retry-After`` of a 429)."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None,
                 **details: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.details = details

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.details}


def unknown_game(game_id: object) -> ApiError:
    from .validate import clip

    return ApiError(404, "unknown_game", f"no game with id {clip(game_id, 40)}")


def bad_token() -> ApiError:
    return ApiError(403, "bad_token", "this token is not a seat of this game (join with your invite first)")


def missing_token() -> ApiError:
    return ApiError(401, "missing_token", "this request needs your seat's token: 'Authorization: Bearer <token>'")


def token_in_url() -> ApiError:
    return ApiError(400, "token_in_url", "tokens never travel in URLs (logs keep URLs): send "
                    "'Authorization: Bearer <token>', or over a WebSocket the first message "
                    '{"type": "auth", "token": "..."}')


def storage_error(request_id: str) -> ApiError:
    """The storage failed: the client learns that, and a request id to quote; the log has the details."""
    return ApiError(503, "storage_unavailable", "the storage did not confirm the change; read the game again "
                    f"before deciding (a decision is never applied twice). Request id {request_id}",
                    request_id=request_id)


def internal_error(request_id: str) -> ApiError:
    return ApiError(500, "internal_error", f"the server failed on this request; request id {request_id}",
                    request_id=request_id)
