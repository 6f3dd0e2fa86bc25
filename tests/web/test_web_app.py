"""The installable app: the manifest and its icons, Chromium's own installability check, the
pages that work offline (rules, calculator, tutorial words), an offline table that says so,
an update offered and taken whole, and no private API answer ever in the worker's cache."""

from __future__ import annotations

import json
import shutil
import time
import urllib.request

import pytest
from webkit import CHROMIUM_ARGS, LiveServer, chromium_path, shot

from redtable.web.appshell import DATA, STATIC, version_of
from redtable.web.icons import png_size


def fetch(url: str) -> tuple[int, dict, bytes]:
    with urllib.request.urlopen(url, timeout=20) as r:
        return r.status, dict(r.headers), r.read()


def controlled(page, base: str, path: str = "/") -> None:
    """Open ``path`` and wait until the service worker controls the page (its caches filled)."""
    page.goto(base + path)
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=60000)


def cached_urls(page) -> list[str]:
    return page.evaluate(
        """async () => {
          const out = [];
          for (const k of await caches.keys()) {
            const c = await caches.open(k);
            for (const r of await c.keys()) out.push(new URL(r.url).pathname + new URL(r.url).search);
          }
          return out;
        }"""
    )


def test_manifest_icons_and_worker_script(live):
    status, headers, body = fetch(live.base + "/manifest.webmanifest")
    assert status == 200
    manifest = json.loads(body)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["theme_color"] and manifest["background_color"]
    sizes = set()
    for icon in manifest["icons"]:
        _, _, png = fetch(live.base + icon["src"])
        if icon["type"] == "image/png":
            w, h = png_size(png)
            assert icon["sizes"] == f"{w}x{h}", icon
            sizes.add((w, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes  # what Chromium and Android ask for
    _, _, index = fetch(live.base + "/")
    assert b'name="theme-color" content="#14121a" media="(prefers-color-scheme: dark)"' in index
    assert b'name="theme-color" content="#f4f1ea" media="(prefers-color-scheme: light)"' in index

    status, headers, script = fetch(live.base + "/sw.js")
    headers = {k.lower(): v for k, v in headers.items()}
    assert status == 200 and "javascript" in headers["content-type"]
    assert "default-src 'self'" in headers["content-security-policy"]  # the CSP stays 'self'
    text = script.decode()
    assert len(version_of(text)) == 16
    # the worker's allowlist: the UI's files and the public rules and card texts, no other API path
    shell = json.loads(text.split("const SHELL = ", 1)[1].split(";\n", 1)[0])
    data = json.loads(text.split("const DATA = ", 1)[1].split(";\n", 1)[0])
    assert data == DATA and all(p.startswith(("/api/web/rules/", "/api/web/cards/")) for p in data)
    assert not any(p.startswith("/api/") for p in shell)
    assert {"/", "/index.html", "/js/main.js", "/i18n/uk.json", "/learn/red-rising.json", "/icons/icon-512.png"} <= set(
        shell
    )


def test_installable_in_chromium(live, browser, console, tmp_path):
    # a browser profile of its own: Chromium installs nothing from an incognito context (Playwright's default)
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True
    )
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        console.watch(page)
        controlled(page, live.base)
        cdp = ctx.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest.get("errors", []) == [], manifest.get("errors")
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors  # Chromium's own check: manifest, icons, worker, origin
    finally:
        ctx.close()


def test_offline_pages(live, new_page):
    page = new_page()
    controlled(page, live.base)
    page.wait_for_selector(".newgame .create")
    page.context.set_offline(True)
    try:
        # the lobby (the installed app's start page), as it is opened anew with no network
        page.goto(live.base + "/")
        page.wait_for_selector(".offline-page")
        assert page.is_visible(".offline-strip")
        shot(page, "app-offline-lobby")
        # the rules, in every language, from the worker's cache
        page.goto(live.base + "/#/rules/red-rising")
        page.wait_for_selector(".offline-strip")
        page.wait_for_function("() => document.querySelectorAll('#app h2').length > 2")
        shot(page, "app-offline-rules")
        page.click('button.lang[data-lang="uk"]')
        page.wait_for_function("() => document.documentElement.lang === 'uk'")
        page.wait_for_function("() => document.querySelector('#app').innerText.includes('Червоний світанок')")
        page.click('button.lang[data-lang="en"]')
        page.goto(live.base + "/#/rules/red-north")
        page.wait_for_function("() => document.querySelectorAll('#app h2').length > 2")
        # the calculator: its cards come from the cache; scoring says it needs the server
        page.goto(live.base + "/#/calc")
        page.wait_for_selector(".calc")
        shot(page, "app-offline-calc")
        # the tutorial's words
        page.goto(live.base + "/#/learn")
        page.wait_for_selector(".learn-hub, .learn")
        shot(page, "app-offline-learn")
        # a table says it is offline instead of failing
        page.goto(live.base + "/#/game/abcdef123456")
        page.wait_for_selector(".offline-page h1")
        assert "offline" in page.inner_text(".offline-page h1").lower()
        shot(page, "app-offline-table")
    finally:
        page.context.set_offline(False)
    page.wait_for_selector(".offline-page", state="detached")  # back online: the table is tried again
    assert not page.is_visible(".offline-strip")


def test_worker_never_caches_a_seats_view(live, new_page):
    from webkit import create_in_lobby

    page = new_page()
    controlled(page, live.base)
    create_in_lobby(page, live.base, "red-rising", ["random"])
    page.wait_for_selector(".board")
    game_id = page.evaluate("location.hash").split("/")[2]
    page.reload()
    page.wait_for_selector(".board")
    page.goto(live.base + "/#/my-games")
    page.wait_for_timeout(500)
    urls = cached_urls(page)
    assert urls, "the worker cached nothing"
    api = [u for u in urls if u.startswith("/api/")]
    assert set(api) <= set(DATA), api
    assert not any(game_id in u for u in urls)
    bodies = page.evaluate(
        """async () => {
          let all = "";
          for (const k of await caches.keys()) {
            const c = await caches.open(k);
            for (const r of await c.keys()) {
              if (new URL(r.url).pathname.startsWith("/api/")) all += await (await c.match(r)).text();
            }
          }
          return all;
        }"""
    )
    assert game_id not in bodies and '"hand"' not in bodies


def test_update_is_offered_and_taken_whole(tmp_path, new_page):
    web = tmp_path / "web"
    shutil.copytree(STATIC, web)
    srv = LiveServer(tmp_path / "update.db", web_dir=web).start()
    try:
        page = new_page()
        controlled(page, srv.base)
        page.wait_for_selector(".newgame .create")
        old = page.evaluate("fetch('/css/app.css').then((r) => r.text())")
        css = web / "css" / "app.css"
        css.write_text(css.read_text() + "\n/* version two */\n")
        time.sleep(0.05)
        page.reload()
        page.wait_for_selector(".app-update .app-update-reload", timeout=60000)
        # offered, not taken: the page still runs the old version's files, every one of them
        assert page.evaluate("fetch('/css/app.css').then((r) => r.text())") == old
        shot(page, "app-update-offered", full_page=False)
        with page.expect_navigation():
            page.click(".app-update-reload")
        page.wait_for_selector(".newgame .create")
        assert page.evaluate("fetch('/css/app.css').then((r) => r.text())").endswith("/* version two */\n")
        assert not page.is_visible(".app-update")
        keys = page.evaluate("caches.keys()")
        assert len([k for k in keys if k.startswith("redtable-")]) == 1  # the old version's cache is gone
    finally:
        srv.stop()


@pytest.mark.parametrize("lang", ["en", "uk", "pl"])
def test_offline_words_exist(lang):
    words = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    for key in ("app.update_ready", "app.update_reload", "app.offline_strip", "app.offline_title", "app.offline_table"):
        assert words[key].strip()
