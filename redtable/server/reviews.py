"""The expert's review of a finished game, on the server: ``POST``/``GET /api/games/{id}/review?seat=N``.

Invariant: **a seat of a game is reviewed at most once per budget**: a finished review is
kept in storage (``redtable_reviews``: the game, the seat, the budget and the review's
edition (``EDITION``: a review made by an older server is not answered), the review's JSON), and
every later request for it, from any process of a fleet, reads it there; while one runs in
this process, every request for it watches that one.

* Anyone who may read the finished game's record (a player or a spectator) may ask for the
  review of any seat, once the game is over (``game_not_finished`` before).
* A review is one job per decision of that seat (:meth:`~.botpool.BotPool.review`), in the
  bot pool's search lane at the lowest priority: a bot that thinks for a game always goes
  first. ``budget`` is the server's setting (``review_budget``, per decision).
* One running review per client (an address's network): asking for another while one runs
  is refused (``review_running``, with the one that runs).
* Progress: while it runs, both methods answer 202 ``{"seat", "status": "running", "done",
  "total"}``; once done, 200 and the review's JSON ``{"seat": N, "decisions": [...]}`` (the
  shape ``redtable review --json`` prints).
* Abandoned reviews stop: a review nobody asked about for ``idle_seconds`` (its page was
  closed) is cancelled, its queued job withdrawn; asking again starts it afresh.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import Column, Float, Integer, String, Table, Text, insert, select
from sqlalchemy.exc import IntegrityError

from . import searchjobs
from .apimodels_more import Review, ReviewRunning
from .apischema import errors
from .errors import ApiError
from .store import Store, metadata, run_blocking

log = logging.getLogger("redtable.server.reviews")

DEFAULT_BUDGET = "0.2s"
#: what a kept review was made with besides its budget: a new one (calibrated chances, ``why``)
#: is not answered from a review kept by an older server
EDITION = 2
IDLE_SECONDS = 30.0  # a review nobody asked about for this long is stopped
KEPT = 64  # finished reviews also kept in memory

reviews_table = Table(
    "redtable_reviews",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("budget", String(16), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("body", Text, nullable=False),  # the review's JSON
)


def read(store: Store, game_id: str, seat: int, budget: str) -> dict[str, Any] | None:
    t = reviews_table
    with store.engine.connect() as conn:
        row = conn.execute(
            select(t.c.body).where(t.c.game_id == game_id, t.c.seat == seat, t.c.budget == budget)
        ).first()
    return None if row is None else json.loads(row.body)


def write(store: Store, game_id: str, seat: int, budget: str, review: dict[str, Any]) -> None:
    try:
        with store.engine.begin() as conn:
            conn.execute(
                insert(reviews_table).values(
                    game_id=game_id, seat=seat, budget=budget, created_at=time.time(), body=json.dumps(review)
                )
            )
    except IntegrityError:  # another process finished the same review first: the same answer
        pass


@dataclass(eq=False)
class Running:
    key: tuple[str, int]
    client: str
    total: int = 0
    done: int = 0
    seen: float = field(default_factory=time.monotonic)
    task: asyncio.Task | None = None

    def progress(self) -> dict[str, Any]:
        return {"seat": self.key[1], "status": "running", "done": self.done, "total": self.total}


class Reviews:
    """The reviews this process runs, and the way to the stored ones (see the module doc).
    ``pool()``: the bot pool (made when the hub starts)."""

    def __init__(self, store: Store, pool: Any, budget: str = DEFAULT_BUDGET, idle_seconds: float = IDLE_SECONDS):
        from ..review import Budget

        Budget.parse(budget)  # a bad setting fails at start
        self.store = store
        self.pool = pool
        self.budget = budget
        self.idle_seconds = idle_seconds
        self.running: dict[tuple[str, int], Running] = {}
        self.by_client: dict[str, Running] = {}
        self.kept: dict[tuple[str, int], dict[str, Any]] = {}

    @property
    def kept_as(self) -> str:
        """The stored review's key besides the game and seat: the budget and the edition."""
        return f"{self.budget}/{EDITION}"

    async def _cached(self, game_id: str, seat: int) -> dict[str, Any] | None:
        got = self.kept.get((game_id, seat))
        if got is None:
            got = await run_blocking(read, self.store, game_id, seat, self.kept_as)
            if got is not None:
                self._keep((game_id, seat), got)
        return got

    def _keep(self, key: tuple[str, int], review: dict[str, Any]) -> None:
        self.kept[key] = review
        while len(self.kept) > KEPT:
            self.kept.pop(next(iter(self.kept)))

    @staticmethod
    def _check(game: Any, seat: int) -> None:
        if not game.finished:
            raise ApiError(409, "game_not_finished", "a game is reviewed once it is over")
        if not 0 <= seat < game.players:
            raise ApiError(404, "unknown_seat", f"seat {seat} is not a seat of this game (0 to {game.players - 1})")

    async def get(self, game: Any, seat: int) -> tuple[int, dict[str, Any]]:
        """(200, the review) or (202, its progress); ``no_review`` when nobody asked for it."""
        self._check(game, seat)
        run = self.running.get((game.id, seat))
        if run is not None:
            run.seen = time.monotonic()
            return 202, run.progress()
        got = await self._cached(game.id, seat)
        if got is None:
            raise ApiError(404, "no_review", "this seat's review was not asked for (POST starts it)")
        return 200, got

    async def start(self, game: Any, seat: int, client: str) -> tuple[int, dict[str, Any]]:
        """The review if it is done; else its progress, started if it does not run."""
        self._check(game, seat)
        key = (game.id, seat)
        run = self.running.get(key)
        if run is None:
            got = await self._cached(game.id, seat)
            if got is not None:
                return 200, got
            mine = self.by_client.get(client)
            if mine is not None and mine.key in self.running:
                raise ApiError(
                    429,
                    "review_running",
                    "you have a review running already: wait for it to end",
                    game_id=mine.key[0],
                    seat=mine.key[1],
                )
            run = self.running[key] = self.by_client[client] = Running(key, client)
            run.task = asyncio.create_task(self._run(run, game))
        run.seen = time.monotonic()
        return 202, run.progress()

    async def _run(self, run: Running, game: Any) -> None:
        from ..core import GameRecord, make_game

        game_id, seat = run.key
        record = GameRecord(game.name, game.players, game.seed, dict(game.options), list(game.actions))
        try:
            steps = await asyncio.get_running_loop().run_in_executor(None, _steps, record, seat)
            run.total = len(steps)
            state = make_game(record.game, record.players, **record.options).new_initial_state(record.seed)
            out = []
            for i, action in enumerate(record.actions):
                if i in steps:
                    key = f"review:{game_id}:{seat}"
                    job = asyncio.ensure_future(
                        searchjobs.review(self.pool(), key, state, action, self.budget, 0, i, record.seed)
                    )
                    try:
                        while not job.done():
                            await asyncio.wait({job}, timeout=self.idle_seconds / 4)
                            if not job.done() and time.monotonic() - run.seen > self.idle_seconds:
                                job.cancel()  # abandoned: its queued job leaves the pool's queue
                    finally:
                        if not job.done():  # the server stops: the job goes with the review
                            job.cancel()
                    if job.cancelled():
                        log.info(
                            "review of game %s seat %s abandoned after %s of %s", game_id, seat, run.done, run.total
                        )
                        return
                    out.append(job.result())
                    run.done += 1
                    if time.monotonic() - run.seen > self.idle_seconds:
                        log.info(
                            "review of game %s seat %s abandoned after %s of %s", game_id, seat, run.done, run.total
                        )
                        return
                state.apply(action)
            review = {"seat": seat, "decisions": out}
            await run_blocking(write, self.store, game_id, seat, self.kept_as, review)
            self._keep(run.key, review)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - logged; asking again starts it afresh
            log.exception("review of game %s seat %s failed", game_id, seat)
        finally:
            if self.running.get(run.key) is run:
                del self.running[run.key]
            if self.by_client.get(run.client) is run:
                del self.by_client[run.client]

    async def stop(self) -> None:
        tasks = [r.task for r in self.running.values() if r.task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except BaseException:  # noqa: BLE001 - cancelled, or already logged
                pass


def _steps(record: Any, seat: int) -> set[int]:
    from ..review import decision_steps

    return set(decision_steps(record, seat))


# ---------------------------------------------------------------------- the routes
router = APIRouter(tags=["replay"])
#: 200 the review, 202 its progress while it runs; its refusals (429: another review of this client runs).
REVIEW_ANSWERS: dict[int | str, dict[str, Any]] = {
    202: {"model": ReviewRunning, "description": "the review runs: its progress (ask again)"},
    **errors(404, 409, 429, 503),
}
SEAT = Query(..., ge=0, le=63, description="the seat whose decisions are reviewed")


def _client(request: Request) -> str:
    from .accounts import client_address
    from .limits import network_key

    return network_key(client_address(request))


def _answer(status: int, body: dict[str, Any]) -> Response:
    return JSONResponse(body, status_code=status)


@router.post("/api/games/{game_id}/review", response_model=Review, responses=REVIEW_ANSWERS)
async def review_start(request: Request, game_id: str, seat: int = SEAT) -> Response:
    """The expert's review of a finished game's seat (anyone who may read the game): at each of
    that seat's decisions its chance to win before, after the option taken and after the one the
    expert prefers, and the mark (``null``, ``"mistake"``: more than 5 points lost, ``"blunder"``:
    more than 15). 200 with ``{"seat", "decisions"}`` when done (kept: asking again costs
    nothing), else 202 with its progress (``done`` of ``total`` decisions); it runs at the lowest
    priority of the bot pool. One running review per client."""
    hub = request.app.state.hub
    game = await hub.get(game_id)
    return _answer(*await request.app.state.reviews.start(game, seat, _client(request)))


@router.get("/api/games/{game_id}/review", response_model=Review, responses=REVIEW_ANSWERS)
async def review_state(request: Request, game_id: str, seat: int = SEAT) -> Response:
    """The review (200) or its progress (202); asking keeps a running review going (one nobody
    asks about for 30 s stops)."""
    hub = request.app.state.hub
    game = await hub.get(game_id)
    return _answer(*await request.app.state.reviews.get(game, seat))
