"""The interactive API docs at /docs work in a browser under the server's 'self' CSP: Swagger UI
renders every operation and "Try it out" calls the API (the console fixture fails the test on any
CSP violation or script error)."""

from __future__ import annotations

import re

from webkit import SHOTS


def test_docs_page_renders_and_calls_the_api(live, new_page):
    page = new_page(1400, 900)
    page.goto(f"{live.base}/docs")
    page.wait_for_selector(".opblock-summary-path")
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/api/titles" in [p.strip() for p in paths] and len(paths) > 20, paths
    path = page.locator(".opblock-summary-path", has_text=re.compile(r"^\s*/api/titles\s*$"))
    op = page.locator(".opblock", has=path).first
    op.locator(".opblock-summary").click()
    op.locator("button.try-out__btn").click()
    op.locator("button.execute").click()
    status = op.locator(".live-responses-table tr.response .response-col_status").first
    status.wait_for()
    assert status.inner_text().strip() == "200"
    assert "red-rising" in op.locator(".live-responses-table tr.response").first.inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "apidocs-1400.png"))


def test_docs_page_fits_a_phone(live, new_page):
    page = new_page(390, 844, has_touch=True, is_mobile=True)
    page.goto(f"{live.base}/docs")
    page.wait_for_selector(".opblock-summary-path")
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390 + 1, f"the page scrolls sideways: {wide}px wide"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "apidocs-390.png"))
