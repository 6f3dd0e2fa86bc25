"""A bot account's seat from its API token (``botaccounts.py``): a program plays its games with
the account's token alone, over HTTP (``decide``, ``undo``, reading the game as its seat) and
over the WebSocket (``{"type": "auth", "token": "rtb_..."}``), as with the seat's own token.

The seat is the one the account holds at that game (``seats.account_id``: it sat, was seated
by quick play or accepted a challenge); an account with no seat there is refused a write as a
bad seat token is (403 ``bad_token``) and reads as a spectator. Reading wants the ``read`` scope, deciding ``bot:play``.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection

from .accounts import account_for_write, current_account
from .botaccounts import account_seat, token_account
from .errors import ApiError, bad_token
from .store import run_blocking
from .tokens import API_TOKEN_PREFIX, api_token, seat_token


def is_api_token(token: Any) -> bool:
    return isinstance(token, str) and token.startswith(API_TOKEN_PREFIX)


async def request_seat(request: HTTPConnection, store: Any, game: Any, write: bool) -> int | None:
    """The seat of the request's API token at ``game``; None when the request carries a seat
    token or no API token (the seat token's rules apply then), or reads a game the account holds
    no seat of (a spectator)."""
    if seat_token(request) is not None or api_token(request) is None:
        return None
    account = await (account_for_write(request) if write else current_account(request))
    assert account is not None  # (an unknown token was refused)
    seat = await run_blocking(account_seat, store, game.id, account.id)
    if seat is None and write:
        raise bad_token()
    return seat  # (None for a read: the account watches a game it holds no seat of, as a spectator)


async def socket_seat(store: Any, game: Any, token: str) -> int:
    """The seat of the API token a WebSocket's auth message carries."""
    if len(token) > 100:
        raise bad_token()
    found = await run_blocking(token_account, store, token, "bot:play")
    if found is None:
        raise ApiError(401, "bad_api_token", "this API token is unknown or revoked")
    seat = await run_blocking(account_seat, store, game.id, found[0])
    if seat is None:
        raise bad_token()
    return seat
