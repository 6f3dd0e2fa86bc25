"""The HTTP + WebSocket API (FastAPI). ``create_app(db=...)`` builds it; ``redtable serve`` runs it.

See ``docs/server.md`` for the protocol and ``docs/security.md`` for the limits; the
OpenAPI schema is served at ``/openapi.json``, the interactive docs at ``/docs`` (``apidocs.py``).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import orjson
from fastapi import FastAPI, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from ..core import GAMES, game_class
from .accounts import account_for_write
from .accounts_api import router as accounts_router
from .apimodels import (
    ChatHistory,
    GameCreated,
    GameLog,
    GameState,
    GameSummary,
    GameUpdate,
    Health,
    Joined,
    NewInvite,
    ReplayStep,
    Title,
)
from .apimodels_more import HintedRecord
from .apischema import errors, rule
from .apischema import install as install_document
from .botpool import PRESETS
from .botseat import is_api_token, request_seat, socket_seat
from .conn import Conn
from .edge import BodyTooLarge, Edge, RateGate
from .errors import ApiError, bad_token, internal_error, missing_token, token_in_url
from .hashing import hash_pool_for
from .limits import Limits, network_key, rate_limited
from .live import MAX_SEED, Hub, LiveGame, _dumps
from .moderation_api import refuse_in_maintenance
from .players import router as players_router
from .store import Store, run_blocking
from .tokens import api_token, sha
from .tokens import seat_token as _token
from .validate import NAME_MAX, clip

log = logging.getLogger("redtable.server")

WEB_STATIC = Path(__file__).resolve().parent.parent / "web" / "static"

DESCRIPTION = """\
Play Red Rising and Red North online: create a game (humans and bots), join a seat with its
invite, read the game as a seat or a spectator, decide, undo, read the log and replay it.

**Seat tokens**: `POST /api/games/{id}/join` exchanges a seat's invite for a token for this
device (every device gets its own; `POST /api/games/{id}/sign-out-others` revokes the others).
Send it as `Authorization: Bearer <token>`; tokens never go in a URL (`?token=` is refused).
Without a token you are a spectator.

**Versions**: every accepted decision or undo increments the game's `version`. A decision
or undo must quote the version the client saw; any other is refused (`stale_version`), so
nothing is ever applied twice.

**Live play**: WebSocket `/api/games/{id}/ws`; the first message is
`{"type": "auth", "token": "<token>"}` (`"token": null`: a spectator). The server sends `state`
(a full snapshot: on connect, after an undo, on `sync`), `update`
(after every decision: the seat's new view, the pending decision, the new events it may
see; to the decider also its `action` and the request's `id`), `presence`, `pong` and `error`.
Clients send `{"type": "decide", "action": "...", "version": 7, "id": any}`,
`{"type": "undo", "version": 8}`, `{"type": "sync"}`, `{"type": "ping"}`.

**Errors** are `{"error": code, "message": text, ...}`; `legal` lists the options of the
pending decision, sent only to the seat that decides.
"""


class JSON(JSONResponse):
    """orjson's bytes (a JSONResponse, so the document shows a route's model rather than "a string")."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)


# ---------------------------------------------------------------------- request bodies
# Strict models: a JSON string is never taken for a number or a boolean ("undo": "yes" is
# refused), unknown fields are refused, and every string and list is bounded.
class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatSpec(Strict):
    type: Literal["human", "bot"] = Field("human", description="a person (joins with the invite) or a bot")
    bot: str | None = Field(
        None, max_length=32, description="a bot seat's preset (default random): " + ", ".join(PRESETS)
    )
    name: str | None = Field(
        None, max_length=4 * NAME_MAX, description=f"display name: 1-{NAME_MAX} printable characters, no bot's label"
    )


class CreateGame(Strict):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {
                    "game": next(iter(GAMES)),  # the first title
                    "seats": [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}],
                    "options": {"multiplayer_variant": False},
                    "undo": True,
                }
            ]
        },
    )
    game: StrictStr = Field(
        ...,
        max_length=32,
        description="red-rising (2-6 seats) or red-north (2-4 seats)",
        json_schema_extra=rule(enum=list(GAMES)),
    )
    seats: list[SeatSpec] = Field(..., min_length=1, max_length=8, description="one entry per seat, in seat order")
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="game options, e.g. multiplayer_variant "
        "or block_windows (red-rising) or outpost_points (red-north); each of its "
        "default's type",
    )
    seed: StrictInt | None = Field(
        None,
        ge=0,
        le=MAX_SEED,
        description="fixes the shuffles and dice; allowed "
        "only where at most one person plays (the game then says "
        "seed_chosen_by_creator: true). Default: random, committed to by "
        "seed_commitment and revealed in the finished game's record",
    )
    undo: StrictBool = Field(
        False,
        description="all seats may undo their own last decision when it used no "
        "chance, revealed nothing hidden and kept the turn",
    )
    bot_delay: float = Field(0.0, ge=0, le=10, description="seconds a bot waits before each decision")
    rated: StrictBool = Field(
        False,
        description="rate the game (per-title OpenSkill ratings): needs the creator logged in, no seed, undo off "
        "and only rated bot presets; its people's seats can then be taken only by logged-in accounts, one each",
    )
    open: StrictBool = Field(
        False,
        description="list the seats nobody was given in the lobby: anyone takes one (POST /api/games/{id}/sit); "
        "the game starts when the last seat is taken",
    )
    clock: dict[str, Any] | None = Field(
        None,
        description='{"kind": "realtime", "bank_s": 30-3600, "increment_s": 0-120} (a time bank per seat, '
        'back by the increment after each decision), {"kind": "turn", "per_decision_h": 1-168} or null: '
        "a seat whose time runs out is played by a bot (unrated) or forfeits (rated); the game starts when full",
    )
    tutorial: StrictBool = Field(
        False,
        description="a lesson of the guided tutorial: one person against bots, private (not in GET /api/games "
        "nor in my games), neither rated nor open",
    )


class JoinRequest(Strict):
    invite: StrictStr = Field(..., min_length=1, max_length=100, description="the seat's invite code")
    name: StrictStr | None = Field(
        None, max_length=4 * NAME_MAX, description="display name (changes only before the first decision)"
    )


class DecisionRequest(Strict):
    action: StrictStr = Field(..., max_length=200, description="one of the pending decision's options")
    version: StrictInt = Field(..., description="the game version this decision was made on")


class UndoRequest(Strict):
    version: StrictInt = Field(..., description="the game version the client saw")


# a game route's own refusals (the edge's 413, 422 and 429 are added by apischema.complete)
ERRORS = errors(400, 401, 403, 404, 409, 422, 503)


def client_of(conn: Request | WebSocket, limits: Limits) -> str:
    """The address a request comes from; behind a trusted proxy, the last one it appended."""
    return scope_client(conn.scope, limits)


def scope_client(scope: Mapping[str, Any], limits: Limits) -> str:
    if limits.trust_proxy:
        for name, value in scope.get("headers", ()):
            if name == b"x-forwarded-for":
                return value.decode("latin-1").rsplit(",", 1)[-1].strip()[:64]
    c = scope.get("client")
    return c[0] if c else "unknown"


def rate_kind(method: str, path: str) -> str | None:
    """Which per-client bucket an HTTP request spends (checked before its body is read)."""
    if not path.startswith("/api/"):
        return None
    if method == "POST":
        if path in ("/api/games", "/api/quickplay", "/api/quickplay/bots"):  # quick play makes tables (quickplay.py)
            return "create"
        if path.endswith("/decisions") or path.endswith("/undo") or path.endswith("/ready"):
            return "decide"
        if path.endswith("/join") or path.endswith("/sign-out-others") or path.endswith("/invite"):
            return "join"
        if path.endswith("/sit") or path.endswith("/fill-bots") or path.endswith("/rematch"):  # (tableapi, rematch)
            return "join"
        if path.startswith("/api/web/score/") or path.endswith(("/review", "/hint")):  # (reviews.py, hints.py)
            return "heavy"
        return "read"
    if path.endswith("/record"):
        return "heavy"
    return "read"


# ---------------------------------------------------------------------- the app
def create_app(
    db: str | None = None,
    *,
    schema: str | None = None,
    sqlite_sync: str = "normal",
    idle_seconds: float = 900.0,
    web_dir: str | Path | None = None,
    store: Store | None = None,
    gc_freeze: bool = False,
    limits: Limits | None = None,
    bot_pool: Any = None,
    docs: bool = True,
    allow_chosen_seeds: bool = False,
    window_median: float = 2.5,
    bus: str | None = None,
    lease_seconds: float = 5.0,
    fleet_poll_seconds: float = 2.0,
    clock_scale: float = 1.0,
    table_idle_seconds: dict[str, float] | None = None,
    table_sweep_seconds: float = 1.0,
    quickplay_bots_after: float = 20.0,
    metrics_token: str | None = None,
    log_requests: bool = False,
    retention: Any = None,
    smtp: str | None = None,
    public_url: str | None = None,
    review_budget: str = "0.2s",
    review_idle_seconds: float = 30.0,
) -> FastAPI:
    """The app.

    ``gc_freeze``: the server process's garbage-collector policy (see ``Hub._gc_policy``).
    ``limits``: sizes, rates and counts per client (``docs/security.md``). ``bot_pool``: a
    :class:`~redtable.server.botpool.BotPool` (default: one sized to the machine).
    ``docs``: serve the interactive API docs at ``/docs`` (``apidocs.py``: Swagger UI from
    installed files, within this server's Content-Security-Policy). ``allow_chosen_seeds``
    (tests only): accept a seed for games of several people. ``window_median``: seconds, the
    median wait before the server declines a block window for a seat that cannot block,
    until people's own answers are known (tests shorten it).

    On PostgreSQL the server is one process of a fleet that may share the database
    (``fleet.py``, ``docs/deploy.md``): ``bus`` is how the processes hear each other
    (``None``/``"postgres"``: LISTEN/NOTIFY; ``"redis://host:port/0"``: Redis pub/sub),
    ``lease_seconds`` how long a process that stopped answering keeps its games' bots and
    windows before another takes over, ``fleet_poll_seconds`` how often the versions of the
    games it serves are re-read under the bus. SQLite serves one process: no bus.

    Tables (``tables.py``; tests shorten time): ``clock_scale`` multiplies every clock
    option, ``table_idle_seconds`` replaces the idle limits by speed (``realtime``, ``turn``,
    ``none``) after which a table closes, ``table_sweep_seconds`` is how often due deadlines
    are looked for in storage; ``quickplay_bots_after`` the seconds a person waits in quick play
    before bots are offered for the empty seats (``quickplay.py``).

    Operations (``metrics.py``, ``retention.py``): ``metrics_token`` serves ``/metrics`` on this
    port to that bearer token only; ``log_requests`` logs one line per request; ``retention``
    (a :class:`~redtable.server.retention.Retention`) purges old chat and failed log-ins hourly.

    Reviews (``reviews.py``): ``review_budget`` is the expert's search per reviewed decision
    (``0.2s``, or iterations: ``400it``), ``review_idle_seconds`` how long a review nobody asks
    about runs on before it stops.
    """
    store = store or Store(db, schema=schema, sqlite_sync=sqlite_sync)
    limits = limits or Limits()
    fleet = None
    if store.fleet_capable:
        from .fleet import Fleet

        fleet = Fleet(store, bus, lease_seconds=lease_seconds, poll_seconds=fleet_poll_seconds)
    elif bus is not None:
        raise ValueError(
            "a bus connects several server processes, which need PostgreSQL; SQLite serves one process and needs none"
        )
    hub = Hub(
        store,
        idle_seconds=idle_seconds,
        gc_freeze=gc_freeze,
        limits=limits,
        bot_pool=bot_pool,
        allow_chosen_seeds=allow_chosen_seeds,
        window_median=window_median,
        fleet=fleet,
    )
    hub.tables.configure(
        clock_scale=clock_scale,
        idle_seconds=table_idle_seconds,
        sweep_seconds=table_sweep_seconds,
        quick_bots_after=quickplay_bots_after,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await hub.start()
        purging = None
        if retention is not None:
            from .retention import keep_purging

            purging = asyncio.create_task(keep_purging(store, retention))
        from .notifymail import keep_digesting

        digesting = asyncio.create_task(keep_digesting(hub.notifier))  # (the daily digest: notifymail.py)
        try:
            yield
        finally:
            if purging is not None:
                purging.cancel()
            digesting.cancel()
            await hub.notifier.close()  # (the notifications under way go out before the store closes)
            await reviews.stop()
            await hub.stop()

    app = FastAPI(
        title="redtable",
        version="2",
        description=DESCRIPTION,
        lifespan=lifespan,
        default_response_class=JSON,
        docs_url=None,  # FastAPI's page loads CDN scripts; apidocs.py serves its own below
        redoc_url=None,
    )
    install_document(app)  # /openapi.json: the routes' models and every refusal (apischema.py)
    app.state.hub = hub
    app.state.store = store
    from .reviews import Reviews

    reviews = app.state.reviews = Reviews(store, lambda: hub.pool, review_budget, review_idle_seconds)
    # e-mail (emails.py, mailer.py): the SMTP server, and the origin links in e-mails start with
    from .mailer import Mailer

    app.state.mailer = Mailer.from_url(smtp) if smtp else None
    app.state.public_url = public_url.rstrip("/") if public_url else None
    from .notices import Notifier

    hub.notifier = Notifier(store, app.state.mailer, app.state.public_url)  # every kind's one door (notices.py)
    app.state.hash_pool = hash_pool_for(limits)  # (password hashes: a bounded pool of their own, accounts_api.py)
    app.add_middleware(
        RateGate, classify=rate_kind, client=lambda scope: scope_client(scope, limits), try_take=hub.limiter.try_take
    )
    app.add_middleware(Edge, limit=limits.body_bytes)  # its headers go on the 429s too
    from . import metrics

    app.add_middleware(metrics.Observe, log_requests=log_requests)  # outermost: counts and logs every answer

    def client(request: Request) -> str:
        return client_of(request, limits)

    # -------------------------------------------------------------- errors
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError):
        return JSON(exc.body(), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        if isinstance(exc.__cause__, BodyTooLarge):
            return JSON(
                {
                    "error": "too_large",
                    "message": f"the request body may be at most {limits.body_bytes} bytes",
                    "limit": limits.body_bytes,
                },
                status_code=413,
            )
        code = {404: "not_found", 405: "method_not_allowed", 400: "malformed"}.get(exc.status_code, "http_error")
        # (a 405's Allow header names the methods the path has)
        return JSON(
            {"error": code, "message": clip(str(exc.detail))[1:-1]}, status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception):
        rid = request.scope.get("state", {}).get("request_id") or "-"
        return JSON(internal_error(rid).body(), status_code=500)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError):
        # the message names where and what; it never echoes the input (pydantic's "input")
        problems = [
            {
                "loc": [x[:40] if isinstance(x, str) else x for x in list(e.get("loc", ()))[:6]],
                "msg": str(e.get("msg", ""))[:200],
                "type": str(e.get("type", ""))[:40],
            }
            for e in exc.errors()[:10]
        ]
        where = "; ".join(f"{'.'.join(map(str, p['loc']))}: {p['msg']}" for p in problems)
        body: dict[str, Any] = {
            "error": "malformed",
            "message": f"malformed request: {where}"[:600],
            "problems": problems,
        }
        gid = request.path_params.get("game_id")
        game = hub.games.get(gid) if isinstance(gid, str) else None  # memory only: a refusal queries nothing
        if game is not None:
            body["version"] = game.version
            try:
                seat = game.seat_of_token(_token(request))
            except ApiError:
                seat = None
            d = game.state.decision()
            if d is not None and seat == d.player:
                body["legal"] = list(d.options)
                body["decision"] = d.to_json()
        return JSON(body, status_code=422)

    async def seated(game: LiveGame, request: Request) -> tuple[int, str]:
        """The seat of the request's token, and the token: for what only a seat may do (refused without one)."""
        tok = _token(request)
        if not tok:
            raise missing_token()
        seat = await hub.seat_of(game, tok)
        if seat is None:  # hub.seat_of answers None only for no token, and refuses one that holds no seat
            raise bad_token()
        return seat, tok

    async def seat_of(game: LiveGame, request: Request, required: bool = False) -> int | None:
        """The seat of the request's token, None for a spectator (``required``: refused without a
        token); a bot account's API token plays its account's seat (``botseat.py``)."""
        by_account = await request_seat(request, store, game, required)
        if by_account is not None:
            return by_account
        if required:
            return (await seated(game, request))[0]
        tok = _token(request)
        return await hub.seat_of(game, tok) if tok else None

    # -------------------------------------------------------------- meta
    @app.get("/api/health", tags=["meta"], response_model=Health)
    async def health():
        """Liveness, and what the server holds."""
        out = {
            "ok": True,
            "db": store.dialect,
            "games_in_memory": len(hub.games),
            "connections": sum(len(g.conns) for g in hub.games.values()),
            "decisions": hub.decisions,
            "commits": hub.writer.batches,
            "commit_seconds": round(hub.writer.write_seconds, 3),
            "pid": os.getpid(),
        }
        if hub.fleet is not None:  # this process's part in the fleet (no host name, no holder id)
            out["fleet"] = hub.fleet.stats()
        out["tables"] = dict(hub.tables.counts)  # timeouts, forfeits, closed tables, stale claims here
        return JSON(out)

    @app.get("/api/titles", tags=["meta"], response_model=list[Title])
    async def titles():
        """The games this server runs, their player counts and default options; the bot presets."""
        out = []
        for name in GAMES:
            cls = game_class(name)
            opts = cls(players=cls.min_players).options()
            opts.pop("players", None)
            out.append(
                {
                    "name": name,
                    "title": cls.title,
                    "min_players": cls.min_players,
                    "max_players": cls.max_players,
                    "options": opts,
                    "bots": list(PRESETS),
                }
            )
        return JSON(out)

    # -------------------------------------------------------------- games
    @app.get("/api/games", tags=["games"], response_model=list[GameSummary])
    async def list_games(
        request: Request,
        status: Literal["active", "finished", "abandoned"] | None = None,
        limit: int = Query(50, ge=1, le=500),
        offset: int = Query(0, ge=0, le=1_000_000),
    ):
        """Games stored on this server, newest first (public facts only)."""
        return JSON(await run_blocking(store.list_games, status, limit, offset))

    @app.post("/api/games", tags=["games"], status_code=201, response_model=GameCreated, responses=ERRORS)
    async def create_game(request: Request, body: CreateGame):
        """Create a game. The answer carries each human seat's secret invite and the creator's key (shown once)."""
        await refuse_in_maintenance(request)  # 503 maintenance: no new tables (moderation.py)
        out = await asyncio.shield(
            asyncio.ensure_future(
                hub.create(
                    body.game,
                    [s.model_dump() for s in body.seats],
                    body.options,
                    body.seed,
                    body.undo,
                    body.bot_delay,
                    client(request),
                    rated=body.rated,
                    account=await account_for_write(request),  # accounts.py: CSRF-checked
                    table={"open": body.open, "clock": body.clock},  # tables.py
                    tutorial=body.tutorial,
                )
            )
        )
        return JSON(out, status_code=201)

    @app.get("/api/games/{game_id}", tags=["games"], response_model=GameState, responses=ERRORS)
    async def read_game(
        request: Request, game_id: str, events: bool = Query(True, description="include the events this seat may see")
    ):
        """The game as a seat (with its token) or as a spectator (without)."""
        game = await hub.get(game_id)
        seat = await seat_of(game, request)
        return JSON(game.snapshot(seat, events=events))

    @app.post("/api/games/{game_id}/join", tags=["seats"], response_model=Joined, responses=ERRORS)
    async def join(request: Request, game_id: str, body: JoinRequest):
        """Take the seat an invite is for: a new token for this device (each device its own)."""
        game = await hub.get(game_id)
        account = await account_for_write(request)  # a seat joined while logged in is bound to the account
        if game.table.rated:
            from .fairplay import note_request

            await note_request(request, account)
        return JSON(await asyncio.shield(asyncio.ensure_future(hub.join(game, body.invite, body.name, account))))

    @app.post("/api/games/{game_id}/sign-out-others", tags=["seats"], response_model=NewInvite, responses=ERRORS)
    async def sign_out_others(request: Request, game_id: str):
        """Revoke every other device's token of your seat; your seat gets a new invite (the old link dies)."""
        game = await hub.get(game_id)
        seat, token = await seated(game, request)
        return JSON(await asyncio.shield(asyncio.ensure_future(hub.sign_out_others(game, seat, token))))

    @app.post("/api/games/{game_id}/seats/{seat}/invite", tags=["seats"], response_model=NewInvite, responses=ERRORS)
    async def reissue_invite(request: Request, game_id: str, seat: int = PathParam(..., ge=0, le=7)):
        """The creator (``Authorization: Bearer <creator_key>``) replaces the invite of a seat nobody took."""
        game = await hub.get(game_id)
        return JSON(await asyncio.shield(asyncio.ensure_future(hub.reissue_invite(game, seat, _token(request)))))

    @app.post("/api/games/{game_id}/decisions", tags=["play"], response_model=GameUpdate, responses=ERRORS)
    async def decide(request: Request, game_id: str, body: DecisionRequest):
        """Decide the pending decision (your seat's token; the version you saw)."""
        game = await hub.get(game_id)
        seat = await seat_of(game, request, required=True)
        assert seat is not None  # (required)
        return JSON(await hub.decide(game, seat, body.action, body.version))

    @app.post("/api/games/{game_id}/undo", tags=["play"], response_model=GameState, responses=ERRORS)
    async def undo(request: Request, game_id: str, body: UndoRequest):
        """Take back your own last decision (if the game allows undo and the undo rule does)."""
        game = await hub.get(game_id)
        seat = await seat_of(game, request, required=True)
        assert seat is not None  # (required)
        return JSON(await hub.undo(game, seat, body.version))

    @app.get("/api/games/{game_id}/log", tags=["replay"], response_model=GameLog, responses=ERRORS)
    async def game_log(request: Request, game_id: str):
        """The log step by step: who decided and the events the reader may see (own actions only)."""
        game = await hub.get(game_id)
        seat = await seat_of(game, request)
        return JSON(await hub.off_loop(hub.log_for, game, seat))

    @app.get("/api/games/{game_id}/replay/{step}", tags=["replay"], response_model=ReplayStep, responses=ERRORS)
    async def replay_step(request: Request, game_id: str, step: int = PathParam(..., ge=0, le=1_000_000)):
        """The game as the reader saw it after ``step`` decisions (0: the setup)."""
        game = await hub.get(game_id)
        return JSON(await hub.replay_step(game, await seat_of(game, request), step))

    @app.get("/api/games/{game_id}/record", tags=["replay"], response_model=HintedRecord, responses=ERRORS)
    async def record(request: Request, game_id: str):
        """A finished game's full record (seed, salt, options, every decision, every event): `redtable replay`
        reads it, and sha256 of "<seed>:<salt>" is the seed_commitment published at creation."""
        game = await hub.get(game_id)
        out = await hub.record(game)
        from .hints import marks

        hints = await run_blocking(marks, store, game.id)
        if hints:  # the game was played with the expert's hints (hints.py)
            out["hints"] = hints
        return JSON(out)

    @app.get("/api/games/{game_id}/chat", tags=["replay"], response_model=ChatHistory, responses=ERRORS)
    async def chat_history(
        request: Request,
        game_id: str,
        before: int | None = Query(None, ge=1, le=2**62, description="only messages older than this chat_id"),
        limit: int = Query(100, ge=1, le=500),
    ):
        """The table chat the reader may read, newest ``limit`` messages (oldest first): a seat reads
        the players' channel (and the spectators' once the game is over), a spectator both; a seat's
        muted authors are left out. ``step`` of a message is the game's step when it was written."""
        game = await hub.get(game_id)
        return JSON(await hub.chat.history(game, await seat_of(game, request), before, limit))

    # -------------------------------------------------------------- live
    @app.websocket("/api/games/{game_id}/ws")
    async def live(websocket: WebSocket, game_id: str):
        who = network_key(client_of(websocket, limits))  # (sockets are counted per network, as buckets are)
        await websocket.accept()

        async def refuse(err: ApiError, code: int) -> None:
            try:
                await websocket.send_text(_dumps({"type": "error", **err.body()}))
                await websocket.close(code=code)
            except Exception:  # noqa: BLE001  (already gone)
                pass

        if "token" in websocket.query_params:
            return await refuse(token_in_url(), 4001)
        wait = hub.limiter.try_take(who, "ws_connect")
        if wait > 0 or hub.sockets[who] >= limits.sockets_per_client:
            return await refuse(rate_limited("ws_connect", wait, "WebSockets"), 4029)
        hub.sockets[who] += 1
        conn: Conn | None = None
        game = None
        try:
            try:  # the auth message first, then the game: a client always gets its answer after sending it
                first = await asyncio.wait_for(websocket.receive(), limits.ws_auth_seconds)
                if first["type"] == "websocket.disconnect":
                    return
                raw = first.get("text") if first.get("text") is not None else first.get("bytes")
                if raw is None or len(raw) > 4096:
                    raise ApiError(
                        400,
                        "auth_required",
                        'the first message is {"type": "auth", "token": "..."} (or "token": null to watch)',
                    )
                try:
                    msg = orjson.loads(raw)
                except orjson.JSONDecodeError:
                    msg = None
                if not isinstance(msg, dict) or msg.get("type") != "auth":
                    raise ApiError(
                        400,
                        "auth_required",
                        'the first message is {"type": "auth", "token": "..."} (or "token": null to watch)',
                    )
                token = msg.get("token")
                if "token" not in msg:  # a program may send its API token in the handshake's header (botseat.py)
                    token = api_token(websocket)
                if token is not None and not isinstance(token, str):
                    raise ApiError(400, "malformed", "'token' must be a string or null")
                game = await hub.get(game_id)
                seat: int | None
                if isinstance(token, str) and is_api_token(token):  # a bot account's program (botseat.py)
                    seat = await socket_seat(store, game, token)
                    token = None  # (no seat token: this socket is no device of the seat's to sign out)
                else:
                    seat = await hub.seat_of(game, token)
                if seat is None and hub.spectators(game) >= limits.spectators_per_game:
                    raise ApiError(
                        429,
                        "too_many_spectators",
                        f"this game has its {limits.spectators_per_game} spectators; try again later",
                        retry_after=30,
                    )
            except TimeoutError:
                return await refuse(
                    ApiError(408, "auth_required", f"no auth message in {limits.ws_auth_seconds:g} s"), 4000
                )
            except ApiError as e:
                return await refuse(e, {404: 4004, 429: 4029, 400: 4000}.get(e.status, 4003))

            async def send(text: str) -> None:
                await websocket.send_text(text)

            conn = Conn(seat, send, client=who, limit=limits.send_queue_bytes, token_hash=sha(token) if token else None)
            await hub.chat.identify(conn, websocket)  # how a spectator signs in the chat (chat.py)
            hub.attach(game, conn)

            async def reader() -> None:
                while not conn.closed:
                    msg = await websocket.receive()
                    if msg["type"] == "websocket.disconnect":
                        return
                    raw = msg.get("text")
                    await hub.handle(game, conn, raw if raw is not None else msg.get("bytes"))

            tasks = [
                asyncio.create_task(reader()),
                asyncio.create_task(conn.pump()),
                asyncio.create_task(conn.ended.wait()),
            ]
            try:
                await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for t in tasks:
                    t.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
            if conn.closed:

                async def goodbye() -> None:
                    if conn.final is not None:
                        await websocket.send_text(conn.final)
                    await websocket.close(code=conn.close_code, reason=conn.close_reason[:120])

                try:  # a client that does not read may never take the close frame: do not wait for it
                    await asyncio.wait_for(goodbye(), 1.0)
                except (TimeoutError, Exception):  # noqa: BLE001
                    pass
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.sockets[who] -= 1
            if hub.sockets[who] <= 0:
                del hub.sockets[who]
            if conn is not None and game is not None:
                hub.detach(game, conn)

    metrics.install(app, hub, store, token=metrics_token)  # /healthz, /readyz, /metrics (with a token)
    # -------------------------------------------------------------- accounts, profiles, leaderboards
    app.include_router(accounts_router)
    from .emails import mail_router
    from .emails import router as emails_router

    app.include_router(emails_router)  # e-mail addresses, change password, sign out everywhere
    if app.state.mailer is not None:  # setting an address and the password reset mail: only with an SMTP server
        app.include_router(mail_router)
    from .selfservice import router as selfservice_router

    app.include_router(selfservice_router)  # delete my account, export my data
    from .push import router as push_router

    app.include_router(push_router)  # Web Push subscriptions (push.py)
    from .notifyapi import router as notify_router

    app.include_router(notify_router)  # notification settings, one-click unsubscribe (notifyapi.py)
    app.include_router(players_router)
    # -------------------------------------------------------------- moderation: reports, actions, site notices
    from .moderation_api import router as moderation_router

    app.include_router(moderation_router)
    # -------------------------------------------------------------- tables: open seats, quick play, my games
    from .tableapi import router as tables_router

    app.include_router(tables_router)
    from .rematch import router as rematch_router

    app.include_router(rematch_router)
    from .friends_api import router as friends_router

    app.include_router(friends_router)  # follows, blocks, invitations of friends (friends.py)
    from .botaccounts_api import router as bots_router

    app.include_router(bots_router)  # bot accounts and API tokens (botaccounts.py)
    from .publicgames import router as public_games_router

    app.include_router(public_games_router)  # my games in the open data under my name (publicgames.py)
    from .hints import router as hints_router
    from .reviews import router as reviews_router

    app.include_router(reviews_router)  # the expert's review of a finished game (reviews.py)
    app.include_router(hints_router)  # hints in practice games, and their marks (hints.py)

    if docs:  # the interactive API docs, ahead of the web UI's catch-all mount
        from .apidocs import install as install_docs

        install_docs(app)

    # -------------------------------------------------------------- web UI
    web = Path(web_dir) if web_dir else WEB_STATIC
    app.state.web_dir = web  # the service worker lists its files (web/appshell.py)

    @app.get("/join/{game_id}", include_in_schema=False)
    async def join_page(game_id: str):
        """Invite links are ``/join/<game>#<invite>``: the invite stays in the fragment, which browsers
        never send, so no server or proxy log holds it."""
        index = web / "index.html"
        if index.is_file():
            return FileResponse(index)
        return JSON({"message": "join with POST /api/games/{game_id}/join and the invite after '#' in the link"})

    install: Callable[[FastAPI], FastAPI] | None
    try:  # the web UI's own API routes (card gallery, calculator...), ahead of the static files
        from ..web.routes import install
    except ImportError:
        install = None
    if install is not None:
        try:
            install(app)
        except Exception:  # noqa: BLE001  (the UI must never take the game server down)
            log.exception("the web UI routes could not be installed")
    else:

        @app.get("/", include_in_schema=False)
        async def root():
            return JSON({"name": "redtable", "api": "/api", "openapi": "/openapi.json"})

    # last: the static files, behind the gate that answers a routed path's other methods 405 (methods.py)
    from . import methods

    static = None
    if web.is_dir():
        from fastapi.staticfiles import StaticFiles

        static = StaticFiles(directory=str(web), html=True)
    methods.mount(app, static)
    return app
