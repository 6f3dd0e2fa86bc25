"""The catch-all at ``/``: a known path asked with a method it does not have answers 405 with ``Allow``.

Starlette answers a path that matches a route but not its method with the first such route's
405, which names only that route's methods (``/api/session`` is three routes: GET, POST and
DELETE); and when the web UI's static files are mounted at ``/`` they catch every request no
route took, so ``TRACE /api/games`` used to get the static files' 405 ``Allow: GET, HEAD``, and
``GET /api/games/{id}/decisions`` their 404. This app is that mount: it is reached only by a
request no route took whole, so it costs the routes that match nothing. It names every method
of every route whose path matches (RFC 9110: a 405 carries ``Allow``); a path under ``/api/`` that no
route has is a 404 whatever the method (the static files would answer a POST with their 405);
else it hands the request to the static files (or answers 404 without them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi.routing import iter_route_contexts
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute, get_route_path
from starlette.types import ASGIApp, Receive, Scope, Send


def allowed(routes: Sequence[BaseRoute], path: str) -> list[str]:
    """Every method of the routes whose path pattern matches ``path`` (sorted; empty: no route has it).

    FastAPI keeps an included router as one entry of the app's routes; ``iter_route_contexts``
    (its public walk, the one its OpenAPI generator uses) yields each route with its full path."""
    methods: set[str] = set()
    for route in iter_route_contexts(routes):
        regex = getattr(route, "path_regex", None)
        if route.methods and regex is not None and regex.match(path):
            methods |= route.methods
    return sorted(methods)


class MethodGate:
    """ASGI app for the mount at ``/``: 405 with ``Allow`` for a routed path, else ``fallback``."""

    def __init__(self, routes: Sequence[BaseRoute], fallback: ASGIApp | None) -> None:
        self.routes = routes  # the app's live list: routes added later are seen
        self.fallback = fallback

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path = get_route_path(scope)
            methods = allowed(self.routes, path)
            if methods and scope["method"] not in methods:
                raise HTTPException(405, headers={"Allow": ", ".join(methods)})
            if not methods and (path == "/api" or path.startswith("/api/")):
                raise HTTPException(404)  # no such endpoint (on this server: the mail routes need --smtp)
        if self.fallback is None:
            raise HTTPException(404)
        await self.fallback(scope, receive, send)


def mount(app: Any, fallback: ASGIApp | None) -> None:
    """Mount the gate at ``/`` in front of ``fallback`` (the static files), last of the app's routes."""
    app.mount("/", MethodGate(app.router.routes, fallback), name="web")
