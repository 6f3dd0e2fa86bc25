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
    def __init__(self, status: int, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.details}


def unknown_game(game_id: str) -> ApiError:
    return ApiError(404, "unknown_game", f"no game with id {game_id!r}", game_id=game_id)


def bad_token() -> ApiError:
    return ApiError(403, "bad_token", "this token is not a seat of this game (join with your invite first)")


def missing_token() -> ApiError:
    return ApiError(401, "missing_token",
                    "this request needs your seat's token: 'Authorization: Bearer <token>' or '?token=<token>'")


def storage_error(message: str) -> ApiError:
    return ApiError(503, "storage_unavailable", f"the storage did not confirm the commit ({message}); "
                    "read the game again before deciding: a decision is never applied twice")
