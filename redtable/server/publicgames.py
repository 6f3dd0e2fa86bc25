"""An account's choice to publish its games under its name in the open data (``redtable export``).

Off by default: ``redtable export`` (``dataexport.py``) writes every seat of an account as a
pseudonym, unless the account has ``public_games`` on, when the seat also carries its
username. The choice is one row per account that ever set it (``redtable_public_games``);
an account erased takes its row with it (``erasure.py``: a column named ``account_id``), and
the account's data export lists it (``accountexport.py``: every table keyed by the account).

``GET /api/account/public-games`` answers ``{"public_games": bool}``; ``PUT`` with the same
body sets it (logged in, with the CSRF header, as every account write).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool
from sqlalchemy import Boolean, Column, Connection, Float, Integer, Table, select, update

from .apimodels_more import PublicGamesChoice
from .apischema import errors
from .emails import logged_in
from .store import Store, metadata, run_blocking

public_games_table = Table(
    "redtable_public_games",
    metadata,
    Column("account_id", Integer, primary_key=True),
    Column("public_games", Boolean, nullable=False),
    Column("updated_at", Float, nullable=False),
)

router = APIRouter(tags=["accounts"])


class PublicGames(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    public_games: StrictBool = Field(..., description="publish my games under my name in the open data")


def is_public(store: Store, account_id: int) -> bool:
    t = public_games_table.c
    with store.engine.connect() as conn:
        return bool(conn.execute(select(t.public_games).where(t.account_id == account_id)).scalar())


def set_public(store: Store, account_id: int, public: bool, now: float | None = None) -> None:
    t = public_games_table
    vals = {"public_games": public, "updated_at": time.time() if now is None else now}
    with store.engine.begin() as conn:
        if not conn.execute(update(t).where(t.c.account_id == account_id).values(**vals)).rowcount:
            conn.execute(t.insert().values(account_id=account_id, **vals))


def public_accounts(conn: Connection, account_ids: Iterable[int]) -> set[int]:
    """Of ``account_ids``, those that opted in (the caller's transaction)."""
    ids = sorted(set(account_ids))
    if not ids:
        return set()
    t = public_games_table.c
    return {r[0] for r in conn.execute(select(t.account_id).where(t.account_id.in_(ids), t.public_games.is_(True)))}


@router.get("/api/account/public-games", response_model=PublicGamesChoice, responses=errors(401))
async def get_public_games(request: Request) -> Response:
    """Whether my finished games go into the open data under my name (else as a pseudonym)."""
    account = await logged_in(request, write=False)
    return JSONResponse({"public_games": await run_blocking(is_public, request.app.state.store, account.id)})


@router.put("/api/account/public-games", response_model=PublicGamesChoice, responses=errors(401, 403))
async def put_public_games(request: Request, body: PublicGames) -> Response:
    """Publish my games under my name in the open data, or stop (exports made already keep theirs)."""
    account = await logged_in(request)
    await run_blocking(set_public, request.app.state.store, account.id, body.public_games)
    return JSONResponse({"public_games": body.public_games})
