"""The HTTP edge: security headers, request body limits and request ids, as plain ASGI middleware.

* Every HTTP response carries a Content-Security-Policy allowing only this origin, nosniff,
  ``frame-ancestors 'none'`` (and X-Frame-Options), a referrer policy that sends nothing,
  and, for the API, ``Cache-Control: no-store``.
* A request body larger than ``limit`` bytes is refused with 413 before the application
  reads it (by its Content-Length, or while it streams in without one).
* Every request gets an id (``X-Request-Id`` on the response); an unexpected failure
  answers a generic 500 naming only that id, and the log keeps the details.
"""

from __future__ import annotations

import logging
import secrets

import orjson

from .limits import rate_limited

log = logging.getLogger("redtable.server")

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; media-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]


class BodyTooLarge(Exception):
    pass


def _json(status: int, body: dict) -> tuple[dict, dict]:
    data = orjson.dumps(body)
    start = {
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())],
    }
    return start, {"type": "http.response.body", "body": data}


class Edge:
    """ASGI middleware: headers, body limit, request id and the last-resort error answer."""

    def __init__(self, app, limit: int = 64 * 1024) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        rid = secrets.token_hex(6)
        scope.setdefault("state", {})["request_id"] = rid
        api = scope.get("path", "").startswith("/api/")
        started = False
        limit = self.limit

        async def send_with_headers(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [h for h in message.get("headers", []) if h[0].lower() not in _OURS]
                headers += SECURITY_HEADERS
                headers.append((b"x-request-id", rid.encode()))
                if api:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        too_large = {
            "error": "too_large",
            "message": f"the request body may be at most {limit} bytes",
            "limit": limit,
            "request_id": rid,
        }
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = limit + 1
                if declared > limit:
                    start, body = _json(413, too_large)
                    await send_with_headers(start)
                    await send_with_headers(body)
                    return
        seen = 0

        async def limited_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge()
            return message

        try:
            await self.app(scope, limited_receive, send_with_headers)
        except BodyTooLarge:
            if not started:
                start, body = _json(413, too_large)
                await send_with_headers(start)
                await send_with_headers(body)
        except Exception:
            log.exception("request %s (%s %s) failed", rid, scope.get("method"), scope.get("path"))
            if not started:
                start, body = _json(
                    500,
                    {
                        "error": "internal_error",
                        "request_id": rid,
                        "message": f"the server failed on this request; request id {rid}",
                    },
                )
                await send_with_headers(start)
                await send_with_headers(body)


_OURS = {h for h, _ in SECURITY_HEADERS} | {b"x-request-id", b"cache-control"}


class RateGate:
    """ASGI middleware: the per-client rate limit of a request, before anything parses its body.

    ``classify(method, path)`` names the bucket (or None: not limited here), ``client(scope)``
    the client, ``try_take(client, kind)`` takes a token or says how long to wait. A refused
    request costs a dictionary lookup, not a JSON parse and a validation.
    """

    def __init__(self, app, *, classify, client, try_take) -> None:
        self.app = app
        self.classify = classify
        self.client = client
        self.try_take = try_take

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            kind = self.classify(scope.get("method", "GET"), scope.get("path", ""))
            if kind is not None:
                wait = self.try_take(self.client(scope), kind)
                if wait > 0:
                    err = rate_limited(kind, wait)
                    start, body = _json(err.status, err.body())
                    headers = err.headers or {}
                    start["headers"] += [(k.lower().encode(), v.encode()) for k, v in headers.items()]
                    await send(start)
                    await send(body)
                    return
        await self.app(scope, receive, send)
