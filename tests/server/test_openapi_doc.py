"""Every route of the app documents its answer and its refusals (fast: the document, no server).

Generic over ``app.routes`` (FastAPI's own walk, included routers too), so a route added later is
held to the same: a 2xx body that is a model (not "a string", not anything), its own refusals
declared with ``responses=errors(...)`` (apischema.py), every refusal the one error body. The
live check that the answers match is ``test_openapi_live.py``.
"""

from __future__ import annotations

import pytest
from fastapi.routing import iter_route_contexts
from fastapi.testclient import TestClient

from redtable.server.apischema import ErrorBody
from redtable.server.app import create_app

#: Routes that refuse nothing of their own (the edge's 422/429 are added to them): new routes
#: declare their refusals instead of joining this list, unless they truly have none.
REFUSE_NOTHING = {
    ("GET", "/api/health"),
    ("GET", "/api/titles"),
    ("GET", "/api/games"),
    ("GET", "/api/session"),
    ("GET", "/api/push/key"),
    ("GET", "/api/site"),
    ("GET", "/api/me/notices"),
    ("GET", "/api/tables"),
    ("GET", "/api/my/games"),
}
ERROR_REF = "#/components/schemas/ErrorBody"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app(f"sqlite:///{tmp_path_factory.mktemp('doc')}/doc.db")


def api_routes(app):
    out = []
    for route in iter_route_contexts(app.routes):
        path = route.path or ""
        if route.methods and path.startswith("/api/") and getattr(route, "include_in_schema", False):
            out.extend((method, path, route) for method in sorted(route.methods))
    return out


def test_every_route_declares_its_answer_and_refusals(app):
    routes = api_routes(app)
    assert len(routes) >= 50, "the walk found the routes (included routers too)"
    missing_model, missing_errors, not_error_body = [], [], []
    for method, path, route in routes:
        if route.response_model is None:
            missing_model.append(f"{method} {path}")
        declared = {int(code) for code in (route.responses or {})}
        if not declared and (method, path) not in REFUSE_NOTHING:
            missing_errors.append(f"{method} {path}")
        for code, spec in (route.responses or {}).items():
            if int(code) >= 400 and spec.get("model") is not ErrorBody:
                not_error_body.append(f"{method} {path} {code}")
    assert not missing_model, f"response_model= missing: {missing_model}"
    assert not missing_errors, f"responses=errors(...) missing: {missing_errors}"
    assert not not_error_body, f"a refusal with another body than ErrorBody: {not_error_body}"
    assert {(m, p) for m, p, _ in routes} >= REFUSE_NOTHING, "REFUSE_NOTHING names only routes that exist"


def test_the_document_shows_models_and_the_error_body(app):
    doc = app.openapi()
    schemas = doc["components"]["schemas"]
    assert "ErrorBody" in schemas and "HTTPValidationError" not in schemas
    ops = 0
    for path, item in doc["paths"].items():
        for method, op in item.items():
            ops += 1
            name = f"{method.upper()} {path}"
            ok = [c for c in op["responses"] if c.startswith("2")]
            assert ok, name  # (a review answers 200 when done, 202 with its progress: each a model)
            for code in ok:
                schema = op["responses"][code]["content"]["application/json"]["schema"]
                assert schema not in ({}, {"type": "string"}), f"{name} {code}: its answer is not a model"
                assert "$ref" in schema or schema.get("type") == "array", f"{name} {code}: {schema}"
            refusals = {c: r for c, r in op["responses"].items() if c.startswith(("4", "5"))}
            for code, r in refusals.items():
                assert r["content"]["application/json"]["schema"] == {"$ref": ERROR_REF}, f"{name} {code}"
            if path.startswith("/api/"):
                assert "429" in refusals, f"{name}: the rate limit's 429"
            if "requestBody" in op:
                assert {"400", "413", "422"} <= set(refusals), name
            if op.get("parameters"):
                assert "422" in refusals, name
    assert ops >= 50


def test_a_routed_path_names_all_its_methods_in_a_405(app):
    client = TestClient(app)  # (no lifespan: these answers touch no game)
    for method, path, allow in [
        ("TRACE", "/api/session", "DELETE, GET, POST"),
        ("OPTIONS", "/api/games", "GET, POST"),
        ("GET", "/api/games/abc/decisions", "POST"),
        ("PUT", "/api/games/abc/rematch", "GET, POST"),
    ]:
        r = client.request(method, path)
        assert r.status_code == 405, (method, path)
        assert r.headers["allow"] == allow, (method, path)
        assert r.json()["error"] == "method_not_allowed"
    r = client.get("/api/no-such-thing")
    assert r.status_code == 404 and r.json()["error"] == "not_found" and "allow" not in r.headers


def test_a_documented_pattern_accepts_what_pythons_accepts():
    """The document's patterns are ECMA-262 (Schemathesis and browsers read them so), whose ``\\s`` is
    not Python's: ``ecma`` spells Python's out (Schemathesis sent an address with U+0085 in it)."""
    import re

    import jsonschema_rs

    from redtable.server.apischema import ecma
    from redtable.server.emails import EMAIL_RE

    assert all(bool(re.match(r"\s", chr(c))) == chr(c).isspace() for c in range(0x3100))
    python = re.compile(rf"\s*{EMAIL_RE.pattern}\s*")
    documented = jsonschema_rs.validator_for({"type": "string", "pattern": ecma(rf"^\s*{EMAIL_RE.pattern}\s*$")})
    for text in ["a@b.cc", " a@b.cc\x0b", "C\x85@e.mj", "a\u3000b@c.de", "x@y.z\u2028", "a b@c.de", "ann@x"]:
        assert bool(python.fullmatch(text)) == documented.is_valid(text), repr(text)
