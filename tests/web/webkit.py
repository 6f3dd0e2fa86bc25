"""Helpers of the browser tests: the real server on a loopback port, headless Chromium,
playing a game by clicking what the page offers, screenshots kept as artifacts."""

from __future__ import annotations

import json
import os
import random
import shutil
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest
from kit import free_port  # noqa: F401  (the folder's tests import it from here)
from kit.threaded import UvicornThread

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

WINDOW_MEDIAN = 0.6  # seconds: the server's median wait before it declines a block window nobody can use

# What the page lets the player click for the pending decision.
CHOICES = ".board [data-action], .board [data-opener], .prompt [data-action], .prompt [data-opener]"
READY = (
    "() => !!document.querySelector('.overlay .endcard') || (!document.querySelector('.table-shell.busy') "
    f"&& !!document.querySelector(`{CHOICES}`))"
)


def chromium_path() -> str | None:
    for p in (
        os.environ.get("REDTABLE_CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if p and Path(p).exists():
            return p
    return None


def require_browser():
    """Skip (locally) or fail (in CI) when Playwright or Chromium is missing."""
    why = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        why = "Python Playwright is not installed (pip install playwright)"
    if why is None and chromium_path() is None:
        why = "Chromium is not installed (apt-get install -y chromium)"
    if why:
        if os.environ.get("CI") and os.environ.get("REDTABLE_WEB_TESTS") != "skip":
            pytest.fail(f"browser tests must run in CI: {why}")
        pytest.skip(why)


def http(method: str, url: str, body=None, token: str | None = None) -> tuple[int, dict]:
    """A JSON request with the standard library (status, decoded body)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


class SeenURLs:
    """ASGI middleware: every path and query string the server was asked for (HTTP and WebSocket)."""

    def __init__(self, app) -> None:
        self.app = app
        self.urls: list[str] = []

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            q = scope.get("query_string", b"").decode("latin-1")
            self.urls.append(scope.get("path", "") + ("?" + q if q else ""))
        return await self.app(scope, receive, send)


class LiveServer(UvicornThread):
    """The game server (with the web routes) served by uvicorn in a thread of the test process.

    One test process is one client address: the rate limits are relaxed (``Limits.relaxed``);
    the address is taken from X-Forwarded-For, so that a browser context sending one is a
    person on a network of their own (``fairplay.py`` rates only such people against each other).
    ``allow_chosen_seeds`` lets a test deal a known game to two people, and block windows
    are declined after a short wait (``window_median``)."""

    def __init__(self, db_path: Path, web_dir: Path | None = None, **options) -> None:
        for mod in ("fastapi", "uvicorn", "sqlalchemy", "orjson"):
            pytest.importorskip(mod, reason="the game server's dependencies are not installed")

        from redtable.server import create_app
        from redtable.server.limits import Limits
        from redtable.web.routes import install

        self.app = install(
            create_app(
                db=f"sqlite:///{db_path}",
                limits=replace(Limits().relaxed(), trust_proxy=True),
                allow_chosen_seeds=True,
                window_median=WINDOW_MEDIAN,
                web_dir=str(web_dir) if web_dir else None,
                **options,
            )
        )
        self.seen = SeenURLs(self.app)
        super().__init__(self.seen)


def shot(page, name: str, full_page: bool = True) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    if full_page:  # the sticky top bar would otherwise be drawn where the page was scrolled to
        page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=full_page)
    return path


def tool(page, sel: str):
    """A control of the table's toolbar (``sel``: ".chime", ".info"...), opening the toolbar's
    "More" menu when the control is in it (a phone's row has no room for every control)."""
    el = page.locator(f".statusbar {sel}").first
    if not el.is_visible():
        more = page.locator(".status-right .more")
        if more.is_visible() and more.get_attribute("aria-expanded") != "true":
            more.click()
    return el


def pressed(el) -> str | None:
    """A toggle's state: aria-pressed in the toolbar's row, aria-checked in its "More" menu."""
    return el.get_attribute("aria-pressed") or el.get_attribute("aria-checked")


def create_in_lobby(
    page,
    base: str,
    title: str,
    bots: list[str],
    humans: int = 1,
    speed: str = "instant",
    undo: bool = True,
    name: str = "Ann",
    seed: int | None = None,
) -> None:
    """Fill the lobby form: ``humans`` people (the first is us) then ``bots``; create.

    ``seed`` (one person only) fixes the deal, so that what the bots do is the same every run."""
    page.goto(base + "/#/")
    page.wait_for_selector(".newgame .create")
    page.click(f'.title-tile[data-title="{title}"]')
    total = humans + len(bots)
    while len(page.query_selector_all(".seat-row")) < total:
        page.click(".add-seat")
    while len(page.query_selector_all(".seat-row")) > total:
        page.click(".seat-row:last-child .remove")
    for i in range(total):
        row = f'.seat-row[data-seat="{i}"]'
        kind = "human" if i < humans else "bot"
        page.click(f'{row} .seg button[data-type="{kind}"]')
        if kind == "bot":
            page.select_option(f"{row} .seat-bot", bots[i - humans])
    page.fill('.seat-row[data-seat="0"] .seat-name', name)
    page.select_option("select[name=speed]", speed)
    if page.is_checked("input[name=undo]") != undo:
        page.click("input[name=undo]")
    if seed is not None:
        page.fill("input[name=seed]", str(seed))
    page.click(".create")


def play_until_end(
    page, rnd: random.Random, max_decisions: int = 1500, timeout_ms: int = 60000, on_decision=None
) -> int:
    """Click one of the offered choices at random (opening menus when a target has several
    options) until the end screen shows. Returns the number of decisions made."""
    n = 0
    misses = 0
    while n < max_decisions:
        page.wait_for_function(READY, timeout=timeout_ms)
        if page.query_selector(".overlay .endcard"):
            return n
        if not click_random_choice(page, rnd):
            misses += 1
            assert misses < 30, "the offered choices cannot be clicked"
            continue
        misses = 0
        n += 1
        if on_decision:
            on_decision(n)
    raise AssertionError(f"no end screen after {max_decisions} decisions")


def click_random_choice(page, rnd: random.Random) -> bool:
    els = page.query_selector_all(CHOICES)
    if not els:
        return False
    el = rnd.choice(els)
    try:
        if el.get_attribute("data-opener") is not None:
            el.click(timeout=3000)
            page.wait_for_selector(".menu [data-action]", timeout=3000)
            items = page.query_selector_all(".menu [data-action]")
            rnd.choice(items).click(timeout=3000)
        else:
            el.click(timeout=3000)
    except Exception:  # noqa: BLE001  (the page re-rendered under the click: look again)
        return False
    return True


# Every page reports a Content-Security-Policy violation as a console error (which fails the test).
CSP_WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const what = `${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile || "?"}:${e.lineNumber}`;
  window.__csp.push(what);
  console.error("CSP violation: " + what);
});
"""


def catalog(lang: str) -> dict:
    """The page's words in ``lang`` (its JSON catalog)."""
    root = Path(__file__).resolve().parents[2] / "redtable" / "web" / "static" / "i18n"
    return json.loads((root / f"{lang}.json").read_text(encoding="utf-8"))


def register_in(page, base: str, lang: str, name: str, password: str) -> None:
    """Register ``name`` through the page in ``lang`` (the form filled once it is drawn in that
    language) and wait until the page shows the account."""
    page.add_init_script(f"localStorage.setItem('redtable.lang', '{lang}')")
    page.goto(base + "/#/register")
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    page.fill("#acct-user", name)
    page.fill("#acct-pass", password)
    page.click(".account-submit")
    page.wait_for_selector(".account-name")
