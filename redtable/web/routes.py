"""API routes the browser UI needs beyond the game server's own (``/api/web/...``).

- ``GET  /api/web/cards/red-rising``: the 112 cards with their rules text (``gallery()``),
  houses, die faces, locations, the scorepad tables.
- ``GET  /api/web/cards/red-north``: card kinds, Gods and Outposts with their texts.
- ``POST /api/web/score/red-rising``: the scorepad of a physical game; the body is the JSON
  of ``redtable score red-rising FILE`` (see the README).
- ``GET  /api/web/games/{game_id}/final``: a finished game's final hands (public once the
  game is over), with each Red Rising card's points.
- ``GET  /api/web/games/{game_id}/score``: the running score as the asking seat may know it
  (its hand's points and everyone's public rows; a spectator: the public rows).
- ``GET  /api/web/rules/{game}?lang=``: a title's rules page data, read from the engines' tables
  (:mod:`redtable.web.rules_data`).
- ``GET  /sw.js``: the service worker of the installable app (:mod:`redtable.web.appshell`).

Wire it into the server with :func:`install` (``install(app)`` after ``create_app``): it
includes the router and moves its routes in front of the static files mounted at ``/``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Body, FastAPI, Path, Query, Request
from fastapi.responses import JSONResponse

from ..core import GAMES, title, titles
from ..server.apimodels import FinalHands, Gallery, RulesPage, RunningScore, Scorepad
from ..server.apischema import errors, rule

router = APIRouter(prefix="/api/web", tags=["web"])


def _error(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": code, "message": message, **extra}, status_code=status)


# ---------------------------------------------------------------------- cards
LANGS = ("en", "uk", "pl")


@lru_cache(maxsize=4)
def red_rising_cards(lang: str = "en") -> dict:
    from ..redrising.board import (
        DIE_FACES,
        DIE_TEXT,
        FLEET_VP,
        HOUSE_NAMES,
        HOUSE_TEXT,
        HOUSE_TITLES,
        LOCATION_NAMES,
        LOCATION_TITLES,
    )
    from ..redrising.cards import COLOR_NAMES
    from ..redrising.gallery import gallery

    return {
        "lang": lang,
        "cards": gallery(lang),
        "colors": list(COLOR_NAMES),
        "houses": [
            {"house": h, "title": t, "text": x} for h, t, x in zip(HOUSE_NAMES, HOUSE_TITLES, HOUSE_TEXT, strict=True)
        ],
        "locations": [{"location": n, "title": t} for n, t in zip(LOCATION_NAMES, LOCATION_TITLES, strict=True)],
        "die": [{"face": f, "text": DIE_TEXT[f]} for f in DIE_FACES],
        "fleet_vp": list(FLEET_VP),
    }


@lru_cache(maxsize=4)
def red_north_cards(lang: str = "en") -> dict:
    from ..rednorth.gallery import gallery

    return {"lang": lang, **gallery(lang)}


# the values a path or query takes, shown in the document (the route answers others itself: its own codes)
GAME = Path(..., json_schema_extra=rule(enum=list(GAMES)))
LANG = Query("en", json_schema_extra=rule(enum=list(LANGS)))


@router.get("/cards/{game}", response_model=Gallery, responses=errors(404, 422))
async def cards(game: str = GAME, lang: str = LANG):
    """Every card of a title with its name and rules text in ``lang`` (en, uk, pl), rendered from
    the same encoding the engine runs, for the card inspector and the calculator."""
    if lang not in LANGS:
        return _error(422, "unknown_language", f"lang must be one of {', '.join(LANGS)}", allowed=list(LANGS))
    page = title(game).load("cards_page") if game in GAMES else None
    if page is None:
        known = ", ".join(t.name for t in titles() if t.cards_page is not None)
        return _error(404, "unknown_title", f"no card gallery for that title; known: {known}")
    return JSONResponse(page(lang))


# ---------------------------------------------------------------------- the score calculator
def slug_choices(choices: dict) -> dict:
    """A scorepad's Gray colour and Orange name choices keyed by card slug (the page shows
    each card's name in its own language; ``choices`` is keyed by English name)."""
    from ..redrising.cards import NAME, SLUG

    slug = {name: SLUG[i] for i, name in enumerate(NAME)}
    return {
        "as_color": {slug[c]: colour for c, colour in choices["as_color"].items()},
        "as_name": {slug[c]: slug[n] for c, n in choices["as_name"].items()},
    }


def score_json(data: Any) -> dict:
    """The scorepad of the position ``data`` (the JSON of ``redtable score red-rising``),
    parsed and validated by the same code as the command, so the totals are the same."""
    from ..redrising.score_cli import parse_position
    from ..redrising.scoring import ROWS, score_position, winners

    pos = parse_position(data)
    scores = score_position(pos)
    return {
        "rows": list(ROWS),
        "players": [
            {
                "name": s.name,
                **{r: s.row(r) for r in ROWS},
                "choices": s.choices,
                "choice_slugs": slug_choices(s.choices),
                "card_points": s.card_points,
            }
            for s in scores
        ],
        "winners": winners(pos, scores),
    }


@router.post("/score/red-rising", response_model=Scorepad, responses=errors(422))
async def score(request: Request, data: Any = Body(...)):
    """The scorepad of a physical Red Rising game (the body of ``redtable score red-rising``).

    Scoring searches every Gray colour and Orange name: it runs off the event loop, and
    each client may ask only so often."""
    from ..redrising.score_cli import InputError

    hub = getattr(request.app.state, "hub", None)
    try:
        if hub is None:
            return JSONResponse(score_json(data))
        return JSONResponse(await hub.off_loop(score_json, data))  # rate-limited at the edge ("heavy")
    except (InputError, ValueError, RecursionError) as e:
        msg = str(e) if not isinstance(e, RecursionError) else "the position is nested too deeply"
        return _error(422, "malformed", msg if len(msg) <= 400 else msg[:399] + "…")


# ---------------------------------------------------------------------- final hands
@router.get("/games/{game_id}/final", response_model=FinalHands, responses=errors(403, 404, 409, 503))
async def final(request: Request, game_id: str):
    """A finished game's final hands, revealed as at the table (each card's points for Red Rising)."""
    hub = getattr(request.app.state, "hub", None)
    if hub is None:
        return _error(503, "no_hub", "this server holds no live games")
    game = await hub.get(game_id)  # an ApiError (unknown game, storage) answers through the app's handler
    state = game.state
    if not state.is_terminal():
        return _error(409, "game_not_finished", "hands are revealed when the game is over")
    reveal = title(game.name).load("final_hands")
    revealed = {"hands": []} if reveal is None else await reveal(state, hub.off_loop)
    return JSONResponse({"game": game.name, **revealed})


async def red_rising_final(state: Any, off_loop: Any) -> dict:
    """Red Rising's final hands with each card's points, and the scorepads' Gray and Orange
    choices (its title's ``final_hands``); the scoring runs off the loop."""
    from ..redrising.cards import NAME, SLUG
    from ..redrising.scoring import score_position

    scores = await off_loop(score_position, state.final_position())
    hands = [
        [{"card": SLUG[c], "points": scores[p].card_points.get(NAME[c])} for c in hand]
        for p, hand in enumerate(state.hands)
    ]
    return {"hands": hands, "choices": [slug_choices(s.choices) for s in scores]}


async def red_north_final(state: Any, off_loop: Any) -> dict:
    """Red North's final hands as card slugs (its title's ``final_hands``)."""
    from ..rednorth.cards import counts_to_slugs

    return {"hands": [counts_to_slugs(h) for h in state.hands]}


# ---------------------------------------------------------------------- running score
@router.get("/games/{game_id}/score", response_model=RunningScore, responses=errors(400, 403, 404, 503))
async def running(request: Request, game_id: str):
    """The score now, as the asking seat may know it (``Authorization: Bearer <seat token>``;
    without one, a spectator: the public rows only). Built from that seat's own view and
    events, never from the state (:mod:`.running`), so nothing hidden can reach it."""
    from ..server.tokens import seat_token as _token  # the server's reading: header only, never the URL
    from .running import running_score

    hub = getattr(request.app.state, "hub", None)
    if hub is None:
        return _error(503, "no_hub", "this server holds no live games")
    game = await hub.get(game_id)  # an ApiError (unknown game, storage) answers through the app's handler
    seat = game.seat_of_token(_token(request))  # bad_token (403) for a token of no seat of this game
    # one consistent reading on the loop; the scoring (a search over Gray/Orange choices) off it
    version, step, status = game.version, game.step, game.status
    view = game.state.view(seat)
    kinds = title(game.name).score_events
    events = [e for e in game.events_for(seat) if e["kind"] in kinds] if kinds and seat is not None else []
    try:
        out = await hub.off_loop(running_score, game.name, view, events, seat)
    except ValueError as e:
        return _error(404, "no_running_score", str(e))
    return JSONResponse({"game_id": game.id, "version": version, "step": step, "status": status, **out})


# ---------------------------------------------------------------------- rules pages
@router.get("/rules/{game}", response_model=RulesPage, responses=errors(422))
async def rules(game: str = GAME, lang: str = LANG):
    """What a title's rules page shows, in ``lang``: houses, locations, die, fleet track and the
    112 cards (Red Rising); rounds, phases and actions, card types, Gods, Outposts (Red North).
    Built from the engines' own tables (:mod:`redtable.web.rules_data`)."""
    from .rules_data import UnknownChoice, rules_data

    try:
        return JSONResponse(rules_data(game, lang))
    except UnknownChoice as e:
        code = "unknown_title" if e.what == "game" else "unknown_language"
        return _error(422, code, str(e), allowed=list(e.allowed))


# ---------------------------------------------------------------------- wiring
def install(app: FastAPI) -> FastAPI:
    """Add the router to ``app`` ahead of a static mount at ``/`` (idempotent)."""
    if getattr(app.state, "web_routes", False):
        return app
    from .appshell import router as shell_router

    before = len(app.router.routes)
    app.include_router(router)
    app.include_router(shell_router)  # /sw.js: the installable app's service worker
    added = app.router.routes[before:]
    del app.router.routes[before:]
    app.router.routes[0:0] = added
    app.state.web_routes = True
    return app
