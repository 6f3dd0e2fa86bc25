"""The suite's tiers, and the test folders' helpers importable under --import-mode=importlib.

Every test is sorted by what it costs, with markers (registered in pyproject.toml):

* ``browser``: it drives Chromium, i.e. it uses the ``browser`` fixture (``new_page`` does):
  set here from the fixtures a test asks for;
* ``multiprocess``: it starts processes (a server process, a pseudo-terminal, a subprocess,
  worker pools): set here for a test whose module imports ``pexpect`` or holds a
  :class:`kit.procs.ServerProcess` (``fleetkit.Proc``), or that asks for a fixture of
  ``PROCESS_FIXTURES``; otherwise written on the test (``@pytest.mark.multiprocess``);
* ``slow``: it takes more than a second of CPU by itself: written on the test, or its node id is
  in ``slow_tests.txt`` (measured; a parametrized case by its own id).

The unit tier is ``python -m pytest -n 2 -m "not browser and not multiprocess and not slow"``.
While it runs, a test that starts a process anyway fails and says which marker it lacks
(an audit hook sees every ``subprocess.Popen``, ``os.fork`` and ``os.posix_spawn``), so the
tier stays what its name says.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_here = str(Path(__file__).resolve().parent)
if _here not in sys.path:
    sys.path.insert(0, _here)  # clikit.py and the shared kit (kit/), for every folder

# The test modules' rewritten bytecode and the package's are cached in __pycache__ (ignored by git) even
# under PYTHONDONTWRITEBYTECODE: without the cache every xdist worker rewrites and compiles the whole
# suite again (21 CPU-s to collect it instead of 7), and every process a test starts compiles the package.
sys.dont_write_bytecode = False

#: Fixtures that start processes: a test asking for one (directly or through another fixture) is ``multiprocess``.
PROCESS_FIXTURES = {"schema"}  # (tests/server/conftest.py: a PostgreSQL schema that server processes share)
#: Fixtures that drive Chromium.
BROWSER_FIXTURES = {"browser"}

SLOW_IDS = {
    line.strip()
    for line in (Path(__file__).resolve().parent / "slow_tests.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
}

_PROCESS_EVENTS = {"subprocess.Popen", "os.fork", "os.forkpty", "os.posix_spawn", "os.posix_spawnp", "os.exec"}


def _starts_processes(module) -> bool:
    """A module that imports pexpect or holds a server-process class runs processes in its tests."""
    from kit.procs import ServerProcess

    for value in vars(module).values():
        if getattr(value, "__name__", None) == "pexpect":
            return True
        if isinstance(value, type) and issubclass(value, ServerProcess):
            return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    by_module: dict[str, bool] = {}
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        module = getattr(item, "module", None)
        if module is not None and module.__name__ not in by_module:
            by_module[module.__name__] = _starts_processes(module)
        if item.nodeid in SLOW_IDS:
            item.add_marker(pytest.mark.slow)
        if names & PROCESS_FIXTURES or (module is not None and by_module[module.__name__]):
            item.add_marker(pytest.mark.multiprocess)


# ------------------------------------------------------------------ the unit tier starts no process
_running: list[pytest.Item] = []  # the test being set up, run or torn down (one per process: xdist runs workers)
_spawned: dict[str, str] = {}  # test id -> the first process it started


def _audit(event: str, args: tuple) -> None:
    if event in _PROCESS_EVENTS and _running:
        _spawned.setdefault(_running[-1].nodeid, f"{event} {str(args[:2])[:160]}")


def _unit_tier(config: pytest.Config) -> bool:
    expr = config.getoption("markexpr", "") or ""
    return "not multiprocess" in expr


def pytest_configure(config: pytest.Config) -> None:
    from kit import pgpools

    pgpools.install()
    if _unit_tier(config):
        sys.addaudithook(_audit)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    _running.append(item)
    try:
        yield
    finally:
        _running.pop()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem) -> None:
    from kit import pgpools

    pgpools.close_idle()  # PostgreSQL's 100 clients are shared by the whole run (kit/pgpools.py)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    if report.when == "teardown" and item.nodeid in _spawned and report.passed:
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} started a process ({_spawned[item.nodeid]}) in the unit tier: "
            "mark it @pytest.mark.multiprocess (or give it a fixture of PROCESS_FIXTURES, tests/conftest.py)"
        )
