"""Schemathesis against a live server: what the document (/openapi.json) says is what is sent.

``st run URL/openapi.json --checks all`` (from the repository root, where ``schemathesis.toml``
names the rules JSON Schema cannot state) sends schema-valid and schema-violating requests to
every operation and checks each answer: a documented status, a body valid against the
documented model, no 5xx, 405 with ``Allow`` for an undeclared method, valid data accepted and
invalid data refused. The server has an SMTP server (the password reset's 503 ``no_email`` is
for a server without one) and relaxed per-client limits, so the routes' own logic is reached
rather than the rate limit's 429. A bounded number of examples per operation, a fixed seed.
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

pytestmark = [pytest.mark.multiprocess, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = 5  # per operation and phase: the whole run stays under a minute on a shared 2-core machine


def st_command() -> list[str]:
    exe = shutil.which("st", path=str(Path(sys.executable).parent)) or shutil.which("st")
    if exe is None:
        pytest.skip("schemathesis is not installed (pip install -e '.[test]')")
    return [exe]


def test_schemathesis_finds_nothing(tmp_path):
    cmd = st_command()
    smtp = SmtpServer().start()
    backend = Backend("sqlite", tmp_path)
    srv = start_server(backend, smtp=smtp.url)
    report = tmp_path / "report.json"
    try:
        run = subprocess.run(
            [
                *cmd,
                "run",
                f"{srv.base}/openapi.json",
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
            ],
            cwd=ROOT,  # schemathesis.toml
            capture_output=True,
            text=True,
            timeout=240,
        )
    finally:
        srv.stop()
        smtp.stop()
        backend.cleanup()
    out = run.stdout[-6000:]
    assert run.returncode == 0, out
    data = json.loads(report.read_text())
    assert not data["failures"], out
    # not vacuous: every documented operation was tested (a document that lost its routes would pass)
    ops = data["operations"]
    assert ops["tested"] == ops["total"] >= 50, ops
    assert data["test_cases"]["generated"] >= 20 * ops["total"], data["test_cases"]
