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

from redtable.server.apischema import ErrorBody


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
            if response.status_code < 300:
                TypeAdapter(route.response_model).validate_python(body)
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
