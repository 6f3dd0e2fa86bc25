"""A first start: the API docs are served by the server itself, and the default database lives in the
user's data directory, not in the directory the server was started from (issue 23)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from kit import wait_http
from srvkit import Backend, free_port, start_server


def test_docs_page_and_its_files_come_from_this_server(tmp_path):
    srv = start_server(Backend("sqlite", tmp_path))
    try:
        page = httpx.get(f"{srv.base}/docs")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        csp = page.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "http" not in csp
        html = page.text
        assert "<script>" not in html.replace(" ", "")  # no inline script: the CSP would block it
        refs = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert len(refs) == 4, refs  # favicon, stylesheet, Swagger UI's bundle, the init script
        for ref in refs:
            assert "//" not in ref, ref  # nothing from another origin
            r = httpx.get(f"{srv.base}/{ref}")  # relative to /docs
            assert r.status_code == 200 and len(r.content) > 100, ref
        types = {ref.rsplit(".", 1)[1]: httpx.get(f"{srv.base}/{ref}").headers["content-type"] for ref in refs}
        assert "javascript" in types["js"] and types["css"].startswith("text/css")
        init = httpx.get(f"{srv.base}/docs/init.js").text
        assert "openapi.json" in init and "validatorUrl: null" in init
        assert httpx.get(f"{srv.base}/openapi.json").json()["paths"]
        assert httpx.get(f"{srv.base}/docs/../pyproject.toml").status_code == 404
        assert httpx.get(f"{srv.base}/docs/redoc.standalone.js").status_code == 404  # only the named files
    finally:
        srv.stop()


def test_docs_can_be_switched_off(tmp_path):
    srv = start_server(Backend("sqlite", tmp_path), docs=False)
    try:
        assert httpx.get(f"{srv.base}/docs").status_code == 404
        assert httpx.get(f"{srv.base}/docs/init.js").status_code == 404
    finally:
        srv.stop()


def _serve(cwd: Path, env: dict[str, str], *args: str) -> tuple[str, int]:
    """Start ``redtable serve`` in ``cwd``, wait until it answers, stop it; its stderr and exit code."""
    port = free_port()
    cmd = [sys.executable, "-m", "redtable.server", "--port", str(port), "--bot-workers", "1", *args]
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    silent: RuntimeError | None = None
    try:
        wait_http(f"http://127.0.0.1:{port}/api/health", proc, timeout=60)
    except RuntimeError as e:
        silent = e
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    if silent is not None:
        raise AssertionError(f"the server did not answer ({silent}): {err}")
    return err, proc.returncode


@pytest.mark.multiprocess
def test_default_database_is_in_the_user_data_dir_and_said_at_start(tmp_path):
    here, data = tmp_path / "checkout", tmp_path / "data"
    here.mkdir()
    env = {**os.environ, "XDG_DATA_HOME": str(data)}
    env.pop("REDTABLE_DB", None)
    err, _ = _serve(here, env)
    assert list(here.iterdir()) == [], "the server left files where it was started"
    assert (data / "redtable" / "redtable.db").is_file()
    assert f"database: SQLite file {data / 'redtable' / 'redtable.db'}" in err, err
    port_line = next(ln for ln in err.splitlines() if ln.startswith("API docs"))
    assert re.fullmatch(r"API docs at http://127\.0\.0\.1:\d+/docs", port_line), port_line
    # --db and REDTABLE_DB still choose; --no-docs says the docs are off
    err, _ = _serve(here, {**env, "REDTABLE_DB": "sqlite:///env.db"}, "--no-docs")
    assert (here / "env.db").is_file() and f"database: SQLite file {here / 'env.db'}" in err
    assert "API docs off (--docs serves them at /docs)" in err, err
