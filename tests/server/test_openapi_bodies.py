"""The bodies a played game sends are the documented ones, field for field (the models forbid
fields they do not name): every answer of the game routes, seen through one hook on the client.

Schemathesis (test_openapi_live.py) checks every operation, but its requests seldom reach a
game's success answers (they need a seat's token and a legal decision); this test plays games
over HTTP, each title, as seats and as a spectator, with undo, to the end, and checks each
answer against the route's ``response_model`` (2xx) or ``ErrorBody`` (4xx).
"""

from __future__ import annotations

import random
import re

import httpx
import pytest
from fastapi.routing import iter_route_contexts
from pydantic import TypeAdapter, ValidationError
from srvkit import BACKENDS, Api, Backend, require_backend, start_server
from tablekit import Account, until

from redtable.server.apischema import ErrorBody
from redtable.server.botpool import BotPool


class Checker:
    """Validates every answer the client gets against the model its route documents."""

    def __init__(self, app) -> None:
        self.routes = []
        for route in iter_route_contexts(app.routes):
            regex = getattr(route, "path_regex", None)
            if route.methods and regex is not None and (route.path or "").startswith("/api/"):
                for method in route.methods:
                    self.routes.append((method, regex, route))
        self.checked: dict[str, int] = {}
        self.wrong: set[str] = set()  # "route status: field: what"

    def __call__(self, response: httpx.Response) -> None:
        response.read()
        request = response.request
        path = request.url.path
        route = next((r for m, regex, r in self.routes if m == request.method and regex.match(path)), None)
        if route is None:
            return
        body = response.json()
        key = f"{request.method} {route.path} {response.status_code}"
        try:
            if response.status_code < 300:  # (a review's 202, its progress, has its own model)
                own = (route.responses or {}).get(response.status_code, {}).get("model")
                TypeAdapter(own or route.response_model).validate_python(body)
            else:
                ErrorBody.model_validate(body)
        except ValidationError as e:
            for err in e.errors():
                self.wrong.add(f"{key}: {'.'.join(map(str, err['loc']))}: {err['type']}")
        self.checked[key] = self.checked.get(key, 0) + 1


def play(api, gid: str, tokens: list[str | None], rnd: random.Random, undo: bool) -> None:
    for _ in range(3000):
        st = api.state(gid)
        if st["status"] != "active":
            return
        d = st["decision"]
        if d is None or tokens[d["player"]] is None:  # a bot's turn: wait for its decision
            api.http.get(f"/api/games/{gid}", params={"events": False})
            continue
        tok = tokens[d["player"]]
        mine = api.state(gid, tok)
        if mine["decision"] is None or not mine["decision"].get("options"):
            continue
        r = api.decide(gid, tok, rnd.choice(mine["decision"]["options"]), mine["version"])
        if undo and r.status_code == 200 and r.json()["can_undo"] and rnd.random() < 0.3:
            api.undo(gid, tok, r.json()["version"])
    raise AssertionError("the game did not end")


@pytest.mark.slow  # (plays two games per backend: seconds of CPU)
def test_a_played_games_answers_are_their_documented_bodies(served):
    srv, api = served
    check = Checker(srv.app)
    api.http.event_hooks["response"].append(check)
    rnd = random.Random(26)
    try:
        for game in ("red-rising", "red-north"):
            info, tokens = api.new_game(game, ("human", "human", "bot"), undo=True)
            gid = info["game_id"]
            play(api, gid, tokens, rnd, undo=True)
            for tok in (*tokens, None):
                h = {"Authorization": f"Bearer {tok}"} if tok else {}
                api.http.get(f"/api/games/{gid}/log", headers=h)
                api.http.get(f"/api/games/{gid}/replay/1", headers=h)
                api.http.get(f"/api/games/{gid}/chat", headers=h)
                api.http.get(f"/api/web/games/{gid}/score", headers=h)
            api.http.get(f"/api/games/{gid}/record")
            api.http.get(f"/api/web/games/{gid}/final")
            api.http.get(f"/api/games/{gid}/rematch")
            api.http.post(f"/api/games/{gid}/sign-out-others", headers={"Authorization": f"Bearer {tokens[0]}"})
            api.http.get(f"/api/web/cards/{game}")
            api.http.get(f"/api/web/rules/{game}", params={"lang": "uk"})
        # refusals too: a stale version, a stranger's token, an unknown game
        info, tokens = api.new_game("red-north", ("human", "human"))
        api.decide(info["game_id"], tokens[0], "x", 99)
        api.http.get(f"/api/games/{info['game_id']}", headers={"Authorization": "Bearer nobody"})
        api.http.get("/api/games/nosuchgame/log")
        for path in ("/api/health", "/api/titles", "/api/games", "/api/tables", "/api/site", "/api/session"):
            api.http.get(path)
    finally:
        api.http.event_hooks["response"].remove(check)
    assert not check.wrong, "answers that are not their documented bodies:\n" + "\n".join(sorted(check.wrong))
    seen = set(check.checked)
    # not vacuous: the success answers of every game route were among them
    for route in (
        "POST /api/games 201",
        "POST /api/games/{game_id}/join 200",
        "GET /api/games/{game_id} 200",
        "POST /api/games/{game_id}/decisions 200",
        "POST /api/games/{game_id}/undo 200",
        "GET /api/games/{game_id}/log 200",
        "GET /api/games/{game_id}/replay/{step} 200",
        "GET /api/games/{game_id}/record 200",
        "GET /api/games/{game_id}/chat 200",
        "POST /api/games/{game_id}/sign-out-others 200",
        "GET /api/web/games/{game_id}/final 200",
        "GET /api/web/games/{game_id}/score 200",
        "GET /api/web/rules/{game} 200",
        "POST /api/games/{game_id}/decisions 409",
        "GET /api/games/{game_id} 403",
        "GET /api/games/{game_id}/log 404",
    ):
        assert route in seen, (route, sorted(seen))
    assert sum(check.checked.values()) >= 100 and not any(re.search(r" 5\d\d$", k) for k in seen), check.checked


@pytest.fixture(scope="module", params=BACKENDS)
def searching(request, tmp_path_factory):
    """A server whose expert searches a few iterations (a review and a hint in well under a second)."""
    require_backend(request.param)
    b = Backend(request.param, tmp_path_factory.mktemp("bodies"))
    srv = start_server(b, review_budget="6it", bot_pool=BotPool(1, fast_workers=0))
    api = Api(srv.base)
    yield srv, api
    api.close()
    srv.stop()
    b.cleanup()


@pytest.mark.slow  # (a bots' game, a review and a hint per backend: seconds)
@pytest.mark.multiprocess  # the bot pool's search worker reviews and hints
def test_account_bot_review_and_hint_answers_are_their_documented_bodies(searching):
    """API tokens, bot accounts, the open data's choice, the bot leaderboard, a review (202 while it
    runs, then 200) and a hint: each answer against its documented model."""
    srv, api = searching
    check = Checker(srv.app)
    person, bot = Account(srv.base), Account(srv.base)
    program = httpx.Client(base_url=srv.base, timeout=20)
    clients = (api.http, person.http, bot.http, program)
    for c in clients:
        c.event_hooks["response"].append(check)
    try:
        person.http.get("/api/account/tokens")
        made = person.http.post("/api/account/tokens", json={"label": "script", "scopes": ["read"]}).json()
        person.http.post("/api/account/tokens", json={"label": "x", "scopes": ["bot:play"]})  # 403: not a bot
        person.http.get("/api/account/tokens")
        person.http.delete(f"/api/account/tokens/{made['id']}")
        person.http.delete(f"/api/account/tokens/{made['id']}")  # 404: revoked already
        person.http.get("/api/account/public-games")
        person.http.put("/api/account/public-games", json={"public_games": True})
        person.http.get("/api/account/public-games")
        bot.http.post("/api/account/bot")
        bot.http.post("/api/account/bot")  # (a bot already: made false)
        token = bot.http.post("/api/account/tokens", json={"label": "play", "scopes": ["bot:play"]}).json()["token"]
        program.get("/api/bot/account", headers={"Authorization": f"Bearer {token}"})
        program.get("/api/bot/account")  # 401: no token
        program.get("/api/account/tokens", headers={"Authorization": f"Bearer {token}"})  # 403: a token manages none
        program.get("/api/leaderboard/red-north/bots")
        program.get("/api/leaderboard/nope/bots")
        # a hint in practice, at the seat's own decision; the game's bots and its marks
        info, tokens = api.new_game("red-north", ("human", "bot"), seed=12)
        gid, auth = info["game_id"], {"Authorization": f"Bearer {tokens[0]}"}

        def mine() -> bool:
            d = api.state(gid, tokens[0])["decision"]
            return bool(d and d["player"] == 0 and d.get("options") and not d.get("auto"))

        until(mine, what="seat 0's decision")
        api.http.post(f"/api/games/{gid}/hint", headers=auth)
        api.http.post(f"/api/games/{gid}/hint")  # 401: no seat
        api.http.get(f"/api/games/{gid}/hints")
        api.http.get(f"/api/games/{gid}/bots")
        api.http.get("/api/games/nosuchgame/bots")
        api.http.post(f"/api/games/{gid}/review", params={"seat": 0})  # 409: not over
        # a review: its progress (202) while it runs, then the review (200), asked again (200)
        done = api.create("red-north", ("bot", "bot"), seed=5)["game_id"]
        until(lambda: api.state(done)["status"] == "finished", what="the bots' game to end")
        api.http.get(f"/api/games/{done}/review", params={"seat": 1})  # 404: nobody asked
        api.http.post(f"/api/games/{done}/review", params={"seat": 1})
        until(lambda: api.http.get(f"/api/games/{done}/review", params={"seat": 1}).status_code == 200)
        api.http.post(f"/api/games/{done}/review", params={"seat": 1})
        # the game with a hint played to its end: its record says where
        for _ in range(500):
            st = api.get(gid, tokens[0], events=False).json()
            if st["status"] == "finished":
                break
            d = st["decision"]
            if d["player"] == 0 and d.get("options"):
                api.decide(gid, tokens[0], d["options"][0], st["version"])
            else:
                api.http.get(f"/api/games/{gid}", params={"events": False})  # a bot's turn
        assert "hints" in api.http.get(f"/api/games/{gid}/record").json()
    finally:
        for c in clients:
            c.event_hooks["response"].remove(check)
        person.close()
        bot.close()
        program.close()
    assert not check.wrong, "answers that are not their documented bodies:\n" + "\n".join(sorted(check.wrong))
    seen = set(check.checked)
    for route in (
        "GET /api/account/tokens 200",
        "POST /api/account/tokens 201",
        "POST /api/account/tokens 403",
        "DELETE /api/account/tokens/{token_id} 200",
        "DELETE /api/account/tokens/{token_id} 404",
        "GET /api/account/tokens 403",
        "GET /api/account/public-games 200",
        "PUT /api/account/public-games 200",
        "POST /api/account/bot 200",
        "GET /api/bot/account 200",
        "GET /api/bot/account 401",
        "GET /api/leaderboard/{title}/bots 200",
        "GET /api/leaderboard/{title}/bots 404",
        "POST /api/games/{game_id}/hint 200",
        "POST /api/games/{game_id}/hint 401",
        "GET /api/games/{game_id}/hints 200",
        "GET /api/games/{game_id}/bots 200",
        "GET /api/games/{game_id}/bots 404",
        "POST /api/games/{game_id}/review 409",
        "GET /api/games/{game_id}/review 404",
        "POST /api/games/{game_id}/review 202",
        "GET /api/games/{game_id}/review 200",
        "POST /api/games/{game_id}/review 200",
        "GET /api/games/{game_id}/record 200",
    ):
        assert route in seen, (route, sorted(seen))
    assert not any(re.search(r" 5\d\d$", k) for k in seen), check.checked
