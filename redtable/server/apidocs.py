"""The interactive API docs at ``/docs``: Swagger UI served by this server, from installed files.

FastAPI's own docs page loads Swagger UI from a CDN and starts it with an inline script; the
server's Content-Security-Policy (``edge.py``: scripts from this origin only) allows neither.
So the page here is a static file (``docs_page/index.html``) whose scripts are files too:
Swagger UI's bundle and stylesheet as the ``fastapi-offline`` package installs them (it ships
the dist files and nothing else we use), and ``docs_page/init.js``, which starts it on
``/openapi.json``. Only the four files named in ``FILES`` are served: no directory listing,
no path taken from the request.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse

PAGE = Path(__file__).resolve().parent / "docs_page"


def _swagger_dist() -> Path:
    import fastapi_offline

    return Path(fastapi_offline.__file__).resolve().parent / "static"


def files() -> dict[str, Path]:
    """The served name (under ``/docs/``) of every asset of the page, and its file."""
    dist = _swagger_dist()
    return {
        "swagger-ui-bundle.js": dist / "swagger-ui-bundle.js",
        "swagger-ui.css": dist / "swagger-ui.css",
        "favicon.png": dist / "favicon.png",
        "init.js": PAGE / "init.js",
    }


def install(app: FastAPI, url: str = "/docs") -> None:
    """Serve the docs page at ``url`` and its assets under ``url/`` (before any catch-all mount)."""
    assets = files()
    missing = [str(p) for p in assets.values() if not p.is_file()]
    if missing:  # a broken install: say so at start, not with a blank page
        raise RuntimeError(f"the API docs' files are missing: {', '.join(missing)}")
    index = PAGE / "index.html"

    @app.get(url, include_in_schema=False)
    async def docs_page() -> FileResponse:
        return FileResponse(index, media_type="text/html")

    for name, path in assets.items():
        app.add_api_route(f"{url}/{name}", _sender(path), methods=["GET"], include_in_schema=False)


def _sender(path: Path):
    async def send() -> FileResponse:
        return FileResponse(path)

    return send
