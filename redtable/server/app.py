"""The HTTP + WebSocket API (FastAPI). ``create_app(db=...)`` builds it; ``redtable serve`` runs it.

See ``docs/server.md`` for the protocol; the OpenAPI schema is served at ``/openapi.json``
(interactive docs at ``/docs``).
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import orjson
from fastapi import FastAPI, Path as PathParam, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from ..core import GAMES, game_class
from .errors import ApiError, missing_token
from .live import MAX_SEED, Conn, Hub, _dumps
from .store import DEFAULT_DB, Store, run_blocking

log = logging.getLogger("redtable.server")

WEB_STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
BOT_SPECS = ["random", "heuristic", "ismcts", "ismcts:0.2s", "ismcts:1s", "ismcts:2000it"]

DESCRIPTION = """\
Play Red Rising and Red North online: create a game (humans and bots), join a seat with its
invite, read the game as a seat or a spectator, decide, undo, read the log and replay it.

**Seat tokens**: `POST /api/games/{id}/join` exchanges a seat's invite for its token. Send it as
`Authorization: Bearer <token>` (or `?token=`). Without a token you are a spectator.

**Versions**: every accepted decision or undo increments the game's `version`. A decision
or undo must quote the version the client saw; any other is refused (`stale_version`), so
nothing is ever applied twice.

**Live play**: WebSocket `/api/games/{id}/ws?token=<token>` (no token: spectator). The
server sends `state` (a full snapshot: on connect, after an undo, on `sync`), `update`
(after every decision: the seat's new view, the pending decision, the new events it may
see), `accepted` (your decision or undo was committed), `presence`, `pong` and `error`.
Clients send `{"type": "decide", "action": "...", "version": 7, "id": any}`,
`{"type": "undo", "version": 8}`, `{"type": "sync"}`, `{"type": "ping"}`.

**Errors** are `{"error": code, "message": text, ...}`; `legal` lists the options of the
pending decision, sent only to the seat that decides.
"""


class JSON(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)


# ---------------------------------------------------------------------- request bodies
class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["human", "bot"] = Field("human", description="a person (joins with the invite) or a bot")
    bot: str | None = Field(None, max_length=64, description="bot spec for a bot seat (default random): "
                            "random, heuristic, ismcts, ismcts:0.2s, ismcts:2000it")
    name: str | None = Field(None, max_length=40, description="display name")


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "game": "red-rising", "seats": [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}],
        "options": {"multiplayer_variant": False}, "undo": True}]})
    game: StrictStr = Field(..., description="red-rising (2-6 seats) or red-north (2-4 seats)")
    seats: list[SeatSpec] = Field(..., min_length=1, max_length=8, description="one entry per seat, in seat order")
    options: dict[str, Any] = Field(default_factory=dict, description="game options, e.g. multiplayer_variant "
                                    "(red-rising) or outpost_points (red-north)")
    seed: StrictInt | None = Field(None, ge=0, le=MAX_SEED, description="fixes the shuffles and dice "
                                   "(default: random, kept secret until the game is over)")
    undo: bool = Field(False, description="all seats allow undoing one's own last decision when it used no "
                       "chance and revealed no hidden information")
    bot_delay: float = Field(0.0, ge=0, le=10, description="seconds a bot waits before each decision")


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    invite: StrictStr = Field(..., min_length=1, max_length=100, description="the seat's invite code")
    name: StrictStr | None = Field(None, max_length=40, description="display name")


class DecisionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: StrictStr = Field(..., description="one of the pending decision's options")
    version: StrictInt = Field(..., description="the game version this decision was made on")


class UndoRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: StrictInt = Field(..., description="the game version the client saw")


# ---------------------------------------------------------------------- response shapes (documentation)
class ErrorBody(BaseModel):
    error: str = Field(..., description="stable code: unknown_game, bad_token, missing_token, not_your_turn, "
                       "stale_version, illegal_action, malformed, game_over, undo_disabled, undo_forbidden, ...")
    message: str
    version: int | None = None
    legal: list[str] | None = Field(None, description="the pending decision's options (to its decider only)")
    decision: dict[str, Any] | None = None
    waiting_for: int | None = None


class SeatInfo(BaseModel):
    seat: int
    type: str
    bot: str | None
    name: str | None
    joined: bool
    connected: bool


class CreatedSeat(SeatInfo):
    invite: str | None = Field(None, description="secret: give it to that seat's player only")
    invite_url: str | None


class DecisionInfo(BaseModel):
    player: int
    kind: str
    options: list[str] | None = Field(None, description="only for the seat that decides")
    context: dict[str, Any] | None = Field(None, description="only for the seat that decides")


class GameInfo(BaseModel):
    game_id: str
    game: str
    title: str
    players: int
    options: dict[str, Any]
    undo: bool
    bot_delay: float
    created_at: float


class GameCreated(GameInfo):
    version: int
    status: str
    url: str
    ws_url: str
    seats: list[CreatedSeat]
    seed: int | None = Field(None, description="echoed only when the creator chose it")


class Joined(BaseModel):
    game_id: str
    seat: int
    token: str = Field(..., description="the seat's secret token")
    name: str | None
    url: str
    ws_url: str


class GameState(GameInfo):
    type: Literal["state"]
    version: int
    step: int
    status: Literal["active", "finished"]
    seat: int | None
    seats: list[SeatInfo]
    view: dict[str, Any] = Field(..., description="state.view(seat): what this seat (or a spectator) may see")
    decision: DecisionInfo | None
    can_undo: bool
    result: dict[str, Any] | None
    events: list[dict[str, Any]] | None = Field(None, description="the log's events this seat may see")


class GameUpdate(BaseModel):
    type: Literal["update"]
    game_id: str
    version: int
    step: int
    by: int | None
    status: str
    view: dict[str, Any]
    decision: DecisionInfo | None
    events: list[dict[str, Any]]
    can_undo: bool
    result: dict[str, Any] | None
    action: str | None = Field(None, description="the decision just made, to its decider only")


class LogStep(BaseModel):
    step: int
    seat: int
    events: list[dict[str, Any]]
    action: str | None = Field(None, description="only the reader's own decisions")


class GameLog(BaseModel):
    game_id: str
    game: str
    seat: int | None
    version: int
    steps: int
    status: str
    setup: list[dict[str, Any]]
    log: list[LogStep]
    result: dict[str, Any] | None
    decision: DecisionInfo | None


class ReplayStep(BaseModel):
    game_id: str
    step: int
    steps: int
    seat: int | None
    by: int | None
    view: dict[str, Any]
    decision: DecisionInfo | None
    events: list[dict[str, Any]]
    action: str | None = None


class GameSummary(BaseModel):
    id: str
    game: str
    players: int
    status: str
    created_at: float
    finished_at: float | None
    steps: int
    seats: list[dict[str, Any]]


class Title(BaseModel):
    name: str
    title: str
    min_players: int
    max_players: int
    options: dict[str, Any]


ERRORS = {400: {"model": ErrorBody}, 401: {"model": ErrorBody}, 403: {"model": ErrorBody},
          404: {"model": ErrorBody}, 409: {"model": ErrorBody}, 422: {"model": ErrorBody},
          503: {"model": ErrorBody}}


def _token(request: Request, token: str | None) -> str | None:
    auth = request.headers.get("authorization")
    if auth and auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.headers.get("x-seat-token") or token


# ---------------------------------------------------------------------- the app
def create_app(db: str = DEFAULT_DB, *, schema: str | None = None, sqlite_sync: str = "normal",
               idle_seconds: float = 900.0, web_dir: str | Path | None = None,
               store: Store | None = None, gc_freeze: bool = False) -> FastAPI:
    """The app. ``gc_freeze``: the server process's garbage-collector policy (see ``Hub._gc_policy``)."""
    store = store or Store(db, schema=schema, sqlite_sync=sqlite_sync)
    hub = Hub(store, idle_seconds=idle_seconds, gc_freeze=gc_freeze)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title="redtable", version="1", description=DESCRIPTION, lifespan=lifespan,
                  default_response_class=JSON)
    app.state.hub = hub
    app.state.store = store

    # -------------------------------------------------------------- errors
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError):
        return JSON(exc.body(), status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSON({"error": code, "message": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError):
        problems = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
                    for e in exc.errors()]
        where = "; ".join(f"{'.'.join(map(str, p['loc']))}: {p['msg']}" for p in problems)
        body: dict[str, Any] = {"error": "malformed", "message": f"malformed request: {where}", "problems": problems}
        gid = request.path_params.get("game_id")
        if gid is not None:
            try:
                game = await hub.get(gid)
            except ApiError as e:
                return JSON(e.body(), status_code=e.status)
            body["version"] = game.version
            try:
                seat = game.seat_of_token(_token(request, request.query_params.get("token")))
            except ApiError:
                seat = None
            d = game.state.decision()
            if d is not None and seat == d.player:
                body["legal"] = list(d.options)
                body["decision"] = d.to_json()
        return JSON(body, status_code=422)

    def seat_of(game, request: Request, token: str | None, required: bool = False) -> int | None:
        tok = _token(request, token)
        if not tok:
            if required:
                raise missing_token()
            return None
        return game.seat_of_token(tok)

    # -------------------------------------------------------------- meta
    @app.get("/api/health", tags=["meta"])
    async def health():
        """Liveness, and what the server holds."""
        return JSON({"ok": True, "db": store.dialect, "games_in_memory": len(hub.games),
                     "connections": sum(len(g.conns) for g in hub.games.values()), "decisions": hub.decisions,
                     "commits": hub.writer.batches,
                     "commit_seconds": round(hub.writer.write_seconds, 3)})

    @app.get("/api/titles", tags=["meta"], response_model=list[Title])
    async def titles():
        """The games this server runs, their player counts and default options; the bot specs."""
        out = []
        for name in GAMES:
            cls = game_class(name)
            opts = cls(players=cls.min_players).options()
            opts.pop("players", None)
            out.append({"name": name, "title": cls.title, "min_players": cls.min_players,
                        "max_players": cls.max_players, "options": opts, "bots": BOT_SPECS})
        return JSON(out)

    # -------------------------------------------------------------- games
    @app.get("/api/games", tags=["games"], response_model=list[GameSummary])
    async def list_games(status: Literal["active", "finished"] | None = None,
                         limit: int = Query(50, ge=1, le=500), offset: int = Query(0, ge=0)):
        """Games stored on this server, newest first (public facts only)."""
        return JSON(await run_blocking(store.list_games, status, limit, offset))

    @app.post("/api/games", tags=["games"], status_code=201, response_model=GameCreated, responses=ERRORS)
    async def create_game(body: CreateGame):
        """Create a game. The answer carries each human seat's secret invite (shown once)."""
        out = await asyncio.shield(asyncio.ensure_future(hub.create(
            body.game, [s.model_dump() for s in body.seats], body.options, body.seed, body.undo, body.bot_delay)))
        return JSON(out, status_code=201)

    @app.get("/api/games/{game_id}", tags=["games"], response_model=GameState, responses=ERRORS)
    async def read_game(request: Request, game_id: str, token: str | None = None,
                        events: bool = Query(True, description="include the events this seat may see")):
        """The game as a seat (with its token) or as a spectator (without)."""
        game = await hub.get(game_id)
        seat = seat_of(game, request, token)
        return JSON(game.snapshot(seat, events=events))

    @app.post("/api/games/{game_id}/join", tags=["seats"], response_model=Joined, responses=ERRORS)
    async def join(game_id: str, body: JoinRequest):
        """Take the seat an invite is for; answers its token (joining again answers the same token)."""
        game = await hub.get(game_id)
        return JSON(await asyncio.shield(asyncio.ensure_future(hub.join(game, body.invite, body.name))))

    @app.post("/api/games/{game_id}/decisions", tags=["play"], response_model=GameUpdate, responses=ERRORS)
    async def decide(request: Request, game_id: str, body: DecisionRequest, token: str | None = None):
        """Decide the pending decision (your seat's token; the version you saw)."""
        game = await hub.get(game_id)
        seat = seat_of(game, request, token, required=True)
        return JSON(await hub.decide(game, seat, body.action, body.version))

    @app.post("/api/games/{game_id}/undo", tags=["play"], response_model=GameState, responses=ERRORS)
    async def undo(request: Request, game_id: str, body: UndoRequest, token: str | None = None):
        """Take back your own last decision (if the game allows undo and the undo rule does)."""
        game = await hub.get(game_id)
        seat = seat_of(game, request, token, required=True)
        return JSON(await hub.undo(game, seat, body.version))

    @app.get("/api/games/{game_id}/log", tags=["replay"], response_model=GameLog, responses=ERRORS)
    async def game_log(request: Request, game_id: str, token: str | None = None):
        """The log step by step: who decided and the events the reader may see (own actions only)."""
        game = await hub.get(game_id)
        return JSON(hub.log_for(game, seat_of(game, request, token)))

    @app.get("/api/games/{game_id}/replay/{step}", tags=["replay"], response_model=ReplayStep, responses=ERRORS)
    async def replay_step(request: Request, game_id: str, step: int = PathParam(..., ge=0),
                          token: str | None = None):
        """The game as the reader saw it after ``step`` decisions (0: the setup)."""
        game = await hub.get(game_id)
        return JSON(hub.replay_step(game, seat_of(game, request, token), step))

    @app.get("/api/games/{game_id}/record", tags=["replay"], responses=ERRORS)
    async def record(game_id: str):
        """A finished game's full record (seed, options, every decision, every event): `redtable replay` reads it."""
        game = await hub.get(game_id)
        return JSON(hub.record(game))

    # -------------------------------------------------------------- live
    @app.websocket("/api/games/{game_id}/ws")
    async def live(websocket: WebSocket, game_id: str, token: str | None = None):
        await websocket.accept()
        try:
            game = await hub.get(game_id)
            seat = game.seat_of_token(token)
        except ApiError as e:
            await websocket.send_text(_dumps({"type": "error", **e.body()}))
            await websocket.close(code=4004 if e.status == 404 else 4003)
            return

        async def close() -> None:
            try:
                await websocket.close(code=4008, reason="too slow or closed by the server")
            except Exception:  # noqa: BLE001
                pass

        conn = Conn(seat, websocket.send_text, close)
        hub.attach(game, conn)
        pump = asyncio.create_task(_pump(conn))
        try:
            while not conn.closed:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                raw = msg.get("text")
                await hub.handle(game, conn, raw if raw is not None else msg.get("bytes"))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.detach(game, conn)
            if not pump.done():
                try:
                    await asyncio.wait_for(pump, 1.0)
                except (asyncio.TimeoutError, Exception):  # noqa: BLE001
                    pump.cancel()

    # -------------------------------------------------------------- web UI
    web = Path(web_dir) if web_dir else WEB_STATIC

    @app.get("/join/{game_id}/{invite}", include_in_schema=False)
    async def join_page(game_id: str, invite: str):
        index = web / "index.html"
        if index.is_file():
            return FileResponse(index)
        return JSON({"message": "join with POST /api/games/{game_id}/join",
                     "request": {"method": "POST", "url": f"/api/games/{game_id}/join", "json": {"invite": invite}}})

    if web.is_dir():
        from fastapi.staticfiles import StaticFiles

        app.mount("/", StaticFiles(directory=str(web), html=True), name="web")
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
            return JSON({"name": "redtable", "api": "/api", "docs": "/docs", "openapi": "/openapi.json"})

    return app


async def _pump(conn: Conn) -> None:
    try:
        await conn.pump()
    except Exception:  # noqa: BLE001  (the client went away)
        conn.closed = True
