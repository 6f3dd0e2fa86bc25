"""Fixtures of the server tests (helpers in ``srvkit.py``): each storage test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers, under --import-mode=importlib too

from srvkit import BACKENDS, Api, Backend, require_backend, start_server


@pytest.fixture(params=BACKENDS)
def backend(request, tmp_path):
    require_backend(request.param)
    b = Backend(request.param, tmp_path)
    yield b
    b.cleanup()


@pytest.fixture(scope="module", params=BACKENDS)
def served(request, tmp_path_factory):
    """One server per module and backend, shared by that module's tests (games do not interact)."""
    require_backend(request.param)
    b = Backend(request.param, tmp_path_factory.mktemp("srv"))
    srv = start_server(b)
    api = Api(srv.base)
    yield srv, api
    api.close()
    srv.stop()
    b.cleanup()
