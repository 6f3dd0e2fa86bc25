"""Hints while learning: ``POST /api/games/{id}/hint`` (a seat, at its own decision) and the marks they leave.

Invariant: **a hint is given only in a game without a rating and without other people**
(practice against bots, a tutorial), to the seat whose decision is pending, and **every
hint given is recorded** (``redtable_hints``: game, seat, step) before it is answered, so
that the game's record (``hints`` in ``GET /api/games/{id}/record``) and its replay
(``GET /api/games/{id}/hints``) say a hint was used and where.

The hint is the expert's search from the seat's information set (:func:`redtable.review.hint`,
the review's budget), in the bot pool's search lane with a person's priority. It answers data:
the option the expert prefers, the seat's chance to win after it, and the runner-up with its
chance; the page words it (``hint.why``).
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import Column, Float, Integer, String, Table, insert, select
from sqlalchemy.exc import IntegrityError

from . import searchjobs
from .apimodels_more import Hint, HintsUsed
from .apischema import errors
from .errors import ApiError, missing_token
from .store import Store, metadata, run_blocking
from .tokens import seat_token

hints_table = Table(
    "redtable_hints",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("step", Integer, primary_key=True),
    Column("created_at", Float, nullable=False),
)


def mark(store: Store, game_id: str, seat: int, step: int) -> None:
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(hints_table).values(game_id=game_id, seat=seat, step=step, created_at=time.time()))
    except IntegrityError:  # the same decision asked twice: one mark
        pass


def marks(store: Store, game_id: str) -> list[dict[str, int]]:
    t = hints_table
    with store.engine.connect() as conn:
        rows = conn.execute(select(t.c.seat, t.c.step).where(t.c.game_id == game_id).order_by(t.c.step, t.c.seat))
        return [{"seat": r.seat, "step": r.step} for r in rows]


def allowed(game: Any) -> bool:
    """Practice: no rating, and no other person at the table (a tutorial is always practice)."""
    return not game.settings.get("rated", False) and (game.tutorial or game.humans <= 1)


router = APIRouter(tags=["play"])


@router.post("/api/games/{game_id}/hint", response_model=Hint, responses=errors(400, 401, 403, 404, 409, 503))
async def give_hint(request: Request, game_id: str) -> Response:
    """The expert's hint for the seat's pending decision (``Authorization: Bearer <seat token>``),
    in a game without a rating and without other people: ``{"step", "preferred", "win",
    "second", "win_second"}`` (the options as the decision offers them, chances in [0, 1]). The
    game is marked: its record and its replay say a hint was used at that step."""
    hub = request.app.state.hub
    game = await hub.get(game_id)
    token = seat_token(request)
    if not token:
        raise missing_token()
    seat = await hub.seat_of(game, token)
    if not allowed(game):
        raise ApiError(403, "hint_not_allowed", "hints are for practice: a game without a rating or other people")
    state = game.state
    d = state.decision()
    if d is None or d.player != seat:
        raise ApiError(409, "not_your_turn", "a hint is for your own decision, when it is yours to take")
    step = game.step
    await run_blocking(mark, hub.store, game.id, seat, step)
    reviews = request.app.state.reviews
    got = await searchjobs.hint(hub.pool, f"hint:{game.id}", state, reviews.budget, 0, game.seed)
    return JSONResponse({"step": step, **got})


@router.get("/api/games/{game_id}/hints", response_model=HintsUsed, responses=errors(404, 503))
async def hints_used(request: Request, game_id: str) -> Response:
    """Where hints were used in this game: ``{"hints": [{"seat", "step"}]}`` (empty: none)."""
    hub = request.app.state.hub
    game = await hub.get(game_id)
    return JSONResponse({"hints": await run_blocking(marks, hub.store, game.id)})
