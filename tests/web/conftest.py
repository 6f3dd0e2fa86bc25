"""Fixtures of the web UI tests: one live server per worker, headless Chromium, and pages
that fail the test on any console error (Content-Security-Policy violations included)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # webkit.py, under --import-mode=importlib too

from webkit import CHROMIUM_ARGS, CSP_WATCH, LiveServer, chromium_path, require_browser


@pytest.fixture(scope="session")
def live(tmp_path_factory):
    srv = LiveServer(tmp_path_factory.mktemp("web") / "web.db").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser():
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


class Console:
    """Console errors and uncaught page errors of every page of a test."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[str] = []

    def allow(self, *fragments: str) -> None:
        """Console errors holding one of ``fragments`` are expected (a refusal the test provokes)."""
        self.allowed += fragments

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(f in e for f in self.allowed)]

    def watch(self, page, label: str = "") -> None:
        page.on(
            "console", lambda m: self.errors.append(f"{label}console.{m.type}: {m.text}") if m.type == "error" else None
        )
        page.on("pageerror", lambda e: self.errors.append(f"{label}pageerror: {e}"))


@pytest.fixture
def console():
    c = Console()
    yield c
    assert c.unexpected() == [], "errors in the browser console:\n" + "\n".join(c.unexpected())


@pytest.fixture
def new_page(browser, console):
    """new_page(viewport=..., label=...) -> a page in a fresh browser context (own storage)."""
    contexts = []

    def make(width: int = 1400, height: int = 1000, label: str = "", locale: str = "en-US", **kw):
        kw.setdefault("color_scheme", "dark")  # the dark theme unless a test asks (Chromium's default is light)
        ctx = browser.new_context(
            viewport={"width": width, "height": height}, reduced_motion="reduce", locale=locale, **kw
        )
        contexts.append(ctx)
        ctx.add_init_script(CSP_WATCH)
        page = ctx.new_page()
        page.set_default_timeout(20000)
        console.watch(page, label)
        return page

    yield make
    for c in contexts:
        c.close()
