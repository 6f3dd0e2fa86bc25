"""The suite's tiers, and the test folders' helpers importable under --import-mode=importlib.

Every test is sorted by what it costs, with markers (registered in pyproject.toml):

* ``browser``: it drives Chromium, i.e. it uses the ``browser`` fixture (``new_page`` does):
  set here from the fixtures a test asks for;
* ``multiprocess``: it starts processes (a server process, a pseudo-terminal, a subprocess,
  worker pools): set here for a test whose module imports ``pexpect`` or holds a
  :class:`kit.procs.ServerProcess` (``fleetkit.Proc``), or that asks for a fixture of
  ``PROCESS_FIXTURES``; otherwise written on the test (``@pytest.mark.multiprocess``);
* ``server``: it serves on a loopback socket in the test process (the game server in a uvicorn
  thread, an SMTP or a push service): set here for a test that, or any of whose fixtures, names a
  starter of ``SERVER_STARTERS`` or a :class:`kit.threaded.UvicornThread`, directly or through a
  helper function of the tests; otherwise written on the test (``@pytest.mark.server``);
* ``slow``: it takes more than a second of CPU by itself: written on the test, or its node id is
  in ``slow_tests.txt`` (measured; a parametrized case by its own id).

The unit tier is ``python -m pytest -n 2 -m "not browser and not multiprocess and not server and not slow"``.
While it runs, a test that starts a process or listens on a socket anyway fails and says which
marker it lacks (an audit hook sees every ``subprocess.Popen``, ``os.fork``, ``os.posix_spawn``
and ``socket.bind``), so the tier stays what its name says.
"""

from __future__ import annotations

import inspect
import sys
import types
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
#: Helpers that serve on a loopback socket in the test process (besides any ``UvicornThread``):
#: a test or fixture that names one, itself or through a helper function of the tests, is ``server``.
#: (A class is named here too: a test may import it inside its body, out of the globals' sight.)
SERVER_STARTERS = {"start_server", "table_server", "ThreadServer", "LiveServer", "SmtpServer", "PushService"}

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


def _code_names(code: types.CodeType) -> set[str]:
    """The global and attribute names a function's code (its nested functions and lambdas too) reads."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


_serving: dict[object, bool] = {}  # function -> it starts a server (memo of _serves)


def _serves(fn: object) -> bool:
    """Whether ``fn`` names a server starter, itself or through the tests' own helper functions."""
    from kit.threaded import UvicornThread

    fn = inspect.unwrap(fn)  # type: ignore[arg-type]
    if fn in _serving:
        return _serving[fn]
    _serving[fn] = False  # (a recursion comes back here: no answer yet)
    code, spaces = getattr(fn, "__code__", None), getattr(fn, "__globals__", {})
    found = False
    for name in _code_names(code) if code is not None else ():
        value = spaces.get(name)
        if name in SERVER_STARTERS or (isinstance(value, type) and issubclass(value, UvicornThread)):
            found = True
        elif isinstance(value, types.FunctionType) and value.__code__.co_filename.startswith(_here):
            found = _serves(value)
        if found:
            break
    _serving[fn] = found
    return found


def _uses_a_server(item: pytest.Item) -> bool:
    fixtures = getattr(item, "_fixtureinfo", None)
    funcs = [getattr(item, "function", None)]
    if fixtures is not None:
        funcs += [d.func for defs in fixtures.name2fixturedefs.values() for d in defs]
    return any(f is not None and _serves(f) for f in funcs)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    by_module: dict[str, bool] = {}
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if _uses_a_server(item):
            item.add_marker(pytest.mark.server)
        module = getattr(item, "module", None)
        if module is not None and module.__name__ not in by_module:
            by_module[module.__name__] = _starts_processes(module)
        if item.nodeid in SLOW_IDS:
            item.add_marker(pytest.mark.slow)
        if names & PROCESS_FIXTURES or (module is not None and by_module[module.__name__]):
            item.add_marker(pytest.mark.multiprocess)


# ------------------------------------------------------------------ the unit tier starts no process, serves nothing
_running: list[pytest.Item] = []  # the test being set up, run or torn down (one per process: xdist runs workers)
_caught: dict[str, tuple[str, str]] = {}  # test id -> (the marker it lacks, the first such event)
_left_out: set[str] = set()  # the markers the run's expression leaves out ("not multiprocess", "not server")


def _audit(event: str, args: tuple) -> None:
    if not _running:
        return
    if event in _PROCESS_EVENTS:
        marker = "multiprocess"
    elif event == "socket.bind" and len(args) > 1 and isinstance(args[1], tuple):  # (an IP address, a port)
        marker = "server"
    else:
        return
    if marker in _left_out:
        _caught.setdefault(_running[-1].nodeid, (marker, f"{event} {str(args[:2])[:160]}"))


def pytest_configure(config: pytest.Config) -> None:
    from kit import pgpools

    pgpools.install()
    expr = config.getoption("markexpr", "") or ""
    _left_out.update(m for m in ("multiprocess", "server") if f"not {m}" in expr)
    if _left_out:
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
    if report.when == "teardown" and item.nodeid in _caught and report.passed:
        marker, what = _caught[item.nodeid]
        did = "started a process" if marker == "multiprocess" else "listened on a socket"
        how = "a fixture of PROCESS_FIXTURES" if marker == "multiprocess" else "a starter of SERVER_STARTERS"
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} {did} ({what}) in a tier without `{marker}`: "
            f"mark it @pytest.mark.{marker} (or let it use {how}, tests/conftest.py)"
        )
