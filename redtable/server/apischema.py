"""What the API document (``/openapi.json``) says a route answers: its body, and every refusal.

The document is generated from the routes' typed models, never written by hand:

* a route's success body is its ``response_model`` (a pydantic model; the route may still send
  a ``JSON`` response it built itself, which must then match the model: the Schemathesis test
  ``tests/server/test_openapi_live.py`` checks what is sent against what is documented);
* a route's own refusals are ``responses=errors(401, 404, ...)``: every one of them has the one
  error body, :class:`ErrorBody` (``errors.py`` builds it: ``{"error": code, "message": text,
  ...parameters}``);
* the refusals the edge gives before a route runs are added here to every operation they can
  reach (:func:`install`), derived from the same facts the middleware uses, so a new route gets
  them without declaring them: 429 for every ``/api/`` request (``RateGate``), 413 and 400 for
  one with a body (``Edge``'s limit; a body that is not JSON), 422 for one with parameters or a
  body (``app.py``'s validation handler, which sends the error body, not FastAPI's default).

A request field whose rule the route checks itself (so that the refusal names the rule, e.g.
``bad_username``) is bounded loosely in pydantic and documented exactly with
``json_schema_extra`` (:func:`rule`): the document then shows what is accepted, and the answer to
a bad value stays the route's own.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict, Field

#: Why each refusal happens, as the document says it.
WHY: dict[int, str] = {
    400: "malformed: the request cannot be read (a body that is not JSON, a token in the URL...)",
    401: "missing credentials: a seat's token, a session or a ticket",
    403: "not allowed: a token that holds no seat, a missing CSRF token, not a moderator...",
    404: "no such game, player, report or title",
    409: "conflicts with the current state (a stale version, a taken seat or name...)",
    410: "the link was used already or has expired",
    413: "the request body is larger than the server's limit",
    422: "a parameter or a body field is invalid (the body names where: `problems`)",
    429: "too many requests from this client: wait `retry_after` seconds (`Retry-After`)",
    503: "the server cannot take it now: maintenance, a busy password-hashing pool or the storage",
}


class ErrorBody(BaseModel):
    """Every refusal's body (HTTP, and a WebSocket's ``{"type": "error", ...}``)."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"additionalProperties": True})
    error: str = Field(
        ...,
        description="stable code: unknown_game, bad_token, missing_token, not_your_turn, stale_version, "
        "illegal_action, malformed, rate_limited, login_required, ... (a page translates `err.<code>`)",
    )
    message: str = Field(..., description="English, for logs and scripts")
    version: int | None = Field(None, description="the game's version, on a refusal about a game")
    legal: list[str] | None = Field(None, description="the pending decision's options (to its decider only)")
    decision: dict[str, Any] | None = None
    waiting_for: int | None = None
    retry_after: int | None = Field(None, description="seconds to wait (429, some 503)")
    problems: list[dict[str, Any]] | None = Field(None, description="a 422: where and what (never the input)")


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of a route that refuses with these statuses, all with :class:`ErrorBody`."""
    unknown = [c for c in codes if c not in WHY]
    if unknown:
        raise ValueError(f"no description for status {unknown}: add it to apischema.WHY")
    return {code: {"model": ErrorBody, "description": WHY[code]} for code in codes}


def rule(**schema: Any) -> dict[str, Any]:
    """``json_schema_extra`` of a field the route validates itself: the exact rule, for the document only."""
    return schema


def _spaces() -> str:
    """Python's ``\\s`` (str patterns: every character ``str.isspace`` calls a space) as ranges."""
    chars = [c for c in range(0x3001) if chr(c).isspace()]  # (none above U+3000)
    out, start = [], chars[0]
    for prev, c in zip(chars, [*chars[1:], None], strict=True):
        if c != prev + 1:
            out.append(f"\\u{start:04x}" if start == prev else f"\\u{start:04x}-\\u{prev:04x}")
            start = c if c is not None else start
    return "".join(out)


PY_SPACE = _spaces()


def ecma(pattern: str) -> str:
    """A Python regular expression's ``\\s`` spelled out for the document: JSON Schema's patterns are
    ECMA-262, whose ``\\s`` is another set (U+0085 is a space to Python, not to ECMA)."""
    out, depth, i = [], 0, 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            pair = pattern[i : i + 2]
            out.append((PY_SPACE if depth else f"[{PY_SPACE}]") if pair == "\\s" else pair)
            i += 2
            continue
        depth += ch == "[" and not depth
        depth -= ch == "]" and depth > 0
        out.append(ch)
        i += 1
    return "".join(out)


def _error_response(code: int) -> dict[str, Any]:
    return {
        "description": WHY[code],
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
    }


def complete(doc: dict[str, Any]) -> dict[str, Any]:
    """Add the edge's refusals to every operation they can reach, and the error body to the components."""
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("ErrorBody", ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}"))
    schemas.pop("HTTPValidationError", None)  # FastAPI's default 422 body: this server sends ErrorBody
    schemas.pop("ValidationError", None)
    for path, ops in doc.get("paths", {}).items():
        for op in ops.values():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            responses = op["responses"]
            edge: list[int] = []
            if path.startswith("/api/"):
                edge.append(429)
            if "requestBody" in op:
                edge += [400, 413]
            if "requestBody" in op or op.get("parameters"):
                edge.append(422)
            for code in edge:
                responses[str(code)] = _error_response(code)
            if "422" in responses and "HTTPValidationError" in str(responses["422"]):
                responses["422"] = _error_response(422)
    return doc


def install(app: FastAPI) -> None:
    """Serve the completed document at ``/openapi.json`` (built once, on the first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = complete(
                get_openapi(
                    title=app.title,
                    version=app.version,
                    openapi_version=app.openapi_version,
                    description=app.description,
                    routes=app.routes,
                )
            )
        return app.openapi_schema

    setattr(app, "openapi", openapi)  # noqa: B010  (FastAPI's documented way to replace the document)
