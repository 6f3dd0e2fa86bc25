"""The installable app: the service worker script (``GET /sw.js``), made from ``sw.js`` with
this server's version and the files it caches.

* ``VERSION`` is a sha256 of every file of the web UI (path and bytes): any change to the UI
  is a new worker script, which the browser installs beside the running one and the page
  offers as "a new version" (``js/appupdate.js``); nothing is mixed from two versions.
* ``SHELL`` is every file of the web UI (``/`` is ``/index.html``); ``DATA`` the public rules
  and card texts of both titles in every language (``/api/web/rules/...``, ``/api/web/cards/...``),
  the same for everyone. No other API answer is cached (the worker's allowlist): a seat's view,
  a session, an account never reach the cache.
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..core import titles

TEMPLATE = Path(__file__).resolve().parent / "sw.js"
STATIC = Path(__file__).resolve().parent / "static"
TITLES = tuple(t.name for t in titles() if t.rules_page is not None)  # the titles with pages
LANGS = ("en", "uk", "pl")
DATA = [f"/api/web/{kind}/{game}?lang={lang}" for kind in ("rules", "cards") for game in TITLES for lang in LANGS]
SKIP_SUFFIXES = (".map", ".md")

router = APIRouter()
_cache: dict[Path, tuple[tuple, str]] = {}
_lock = threading.Lock()


def shell_files(web: Path) -> list[Path]:
    return sorted(
        p for p in web.rglob("*") if p.is_file() and not p.name.startswith(".") and p.suffix not in SKIP_SUFFIXES
    )


def render(web: Path) -> str:
    """The worker script for the web UI in ``web`` (kept until a file of it changes)."""
    files = shell_files(web)
    key = (TEMPLATE.stat().st_mtime_ns, len(files), max((p.stat().st_mtime_ns for p in files), default=0))
    with _lock:
        hit = _cache.get(web)
        if hit and hit[0] == key:
            return hit[1]
    template = TEMPLATE.read_text(encoding="utf-8")
    digest = hashlib.sha256(template.encode())
    paths = []
    for p in files:
        rel = "/" + p.relative_to(web).as_posix()
        paths.append(rel)
        digest.update(rel.encode() + b"\0" + p.read_bytes() + b"\0")
    version = digest.hexdigest()[:16]
    if "/index.html" in paths:
        paths.insert(0, "/")
    text = (
        template.replace("__VERSION__", version)
        .replace("__SHELL__", json.dumps(paths))
        .replace("__DATA__", json.dumps(DATA))
    )
    with _lock:
        _cache[web] = (key, text)
    return text


def version_of(script: str) -> str:
    for line in script.splitlines():
        if line.startswith("const VERSION = "):
            return line.split('"')[1]
    raise ValueError("no VERSION in the worker script")


@router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    """The service worker. The browser's update check asks for it past the HTTP cache (the page
    registers it with ``updateViaCache: "none"``)."""
    web = Path(getattr(request.app.state, "web_dir", None) or STATIC)
    text = render(web)
    return Response(
        text,
        media_type="text/javascript",
        headers={"service-worker-allowed": "/"},
    )
