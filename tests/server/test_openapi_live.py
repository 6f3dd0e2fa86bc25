"""Schemathesis against a live server: what the document (/openapi.json) says is what is sent.

``st run URL/openapi.json --checks all`` (from the repository root, where ``schemathesis.toml``
names the rules JSON Schema cannot state) sends schema-valid and schema-violating requests to
every operation and checks each answer: a documented status, a body valid against the
documented model, no 5xx, 405 with ``Allow`` for an undeclared method, valid data accepted and
invalid data refused. It runs as a logged-in admin, so the account, moderation and admin
routes answer with their bodies rather than 401/403 (the operations that would end the session
or put the site in maintenance run in a second, anonymous run). The server has an SMTP server
(a server without one leaves the mail routes out of its document) and relaxed per-client
limits, so the routes' own logic is reached rather than the rate limit's 429. A bounded number
of examples per operation, a fixed seed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mailkit import SmtpServer
from srvkit import Backend, start_server
from tablekit import Account

from redtable.server import accounts as acc
from redtable.server import moderation as mod

pytestmark = [pytest.mark.multiprocess, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = 3  # per operation and phase: both runs stay around a minute on a shared 2-core machine
#: What a logged-in run leaves out: these end its session or its account, change its password or close
#: the site; a mailed link's token is a guest's.
ANONYMOUS = [
    "POST /api/session",
    "DELETE /api/session",
    "POST /api/account/sign-out-everywhere",
    "POST /api/account/password",
    "POST /api/password-reset/confirm",
    "POST /api/admin/site",
    "DELETE /api/account",  # (a session minutes old deletes its account without the password)
    "POST /api/unsubscribe",
    "POST /api/unsubscribe/{token}",
]


def st(base: str, report: Path, *args: str) -> tuple[dict, str]:
    exe = shutil.which("st", path=str(Path(sys.executable).parent)) or shutil.which("st")
    if exe is None:
        pytest.skip("schemathesis is not installed (pip install -e '.[test]')")
    run = subprocess.run(
        [
            exe,
            "run",
            f"{base}/openapi.json",
            "--checks",
            "all",
            "--max-examples",
            str(EXAMPLES),
            "--seed",
            "26",
            "-w",
            "1",
            "--no-color",
            "--generation-database",
            "none",  # (nothing written into the repository: the run is the same each time)
            "--report",
            "json",
            "--report-json-path",
            str(report),
            *args,
        ],
        cwd=ROOT,  # schemathesis.toml
        capture_output=True,
        text=True,
        timeout=240,
    )
    out = run.stdout[-6000:]
    assert run.returncode == 0, out
    data = json.loads(report.read_text())
    assert not data["failures"], out
    return data, out


def test_schemathesis_finds_nothing(tmp_path):
    smtp = SmtpServer().start()
    backend = Backend("sqlite", tmp_path)
    srv = start_server(backend, smtp=smtp.url)
    try:
        admin = Account(srv.base)
        account = acc.account_by_name(srv.hub.store, admin.name)[0]
        assert mod.grant(srv.hub.store, account.id, "admin", "test")
        session = admin.http.cookies[acc.SESSION_COOKIE]
        exclude = [x for name in ANONYMOUS for x in ("--exclude-name", name)]
        logged_in, _ = st(
            srv.base,
            tmp_path / "admin.json",
            "-H",
            f"Cookie: {acc.SESSION_COOKIE}={session}",
            "-H",
            f"X-CSRF-Token: {admin.http.headers['X-CSRF-Token']}",
            *exclude,
        )
        include = [x for name in ANONYMOUS for x in ("--include-name", name)]
        anonymous, _ = st(srv.base, tmp_path / "guest.json", *include)
        # not vacuous: every documented operation was tested (a document that lost its routes would
        # pass), and the admin's run was not refused as a guest's (its session held to the end)
        ops, guest_ops = logged_in["operations"], anonymous["operations"]
        assert ops["tested"] + guest_ops["tested"] == ops["total"] >= 50, (ops, guest_ops)
        assert guest_ops["tested"] == len(ANONYMOUS), guest_ops
        assert logged_in["test_cases"]["generated"] >= 10 * ops["tested"], logged_in["test_cases"]
        assert admin.http.get("/api/admin/audit").status_code == 200
        admin.close()
    finally:
        srv.stop()
        smtp.stop()
        backend.cleanup()
