"""Fixtures of the server tests (helpers in ``srvkit.py``): each storage test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers, under --import-mode=importlib too

from srvkit import BACKENDS, Api, Backend, require_backend, start_server
from tablekit import table_server


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


@pytest.fixture(scope="module", params=BACKENDS)
def tables(request, tmp_path_factory):
    """One table server (short clocks, clients' addresses from X-Forwarded-For: ``tablekit``) per
    module and backend, whose tables are never closed for idleness while a test runs."""
    require_backend(request.param)
    b = Backend(request.param, tmp_path_factory.mktemp("tables"))
    srv = table_server(b, table_idle_seconds={"none": 600.0, "realtime": 600.0, "turn": 600.0})
    api = Api(srv.base)
    yield srv, api
    api.close()
    srv.stop()
    b.cleanup()


@pytest.fixture
def schema():
    """A fresh PostgreSQL schema (dropped afterwards) for server processes that share it: a fleet."""
    require_backend("postgresql")
    b = Backend("postgresql", None)
    yield b.schema
    b.cleanup()
